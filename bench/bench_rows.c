/* Rows added by modules (each in bench/bench_<module>.c). Keep one line per row. */
#include "bench.h"

const bench_row bench_extra_rows[] = {
    {NULL, NULL},
};
const size_t bench_extra_row_count = 0;
