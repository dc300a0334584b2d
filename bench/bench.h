/* Shared helpers for the native benchmark rows (bench/ C files). A module adds its rows in its own
 * bench/bench_<module>.c and lists them in bench/bench_rows.c. */
#ifndef PROCMOTION_BENCH_H
#define PROCMOTION_BENCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_row {
    const char *name;
    int (*run)(int argc, char **argv);
} bench_row;

double bench_now_ms(void);
/* Sorts v in place. */
double bench_median(double *v, int n);
long bench_max_rss_kb(void);
/* How many timed runs: at least min_runs, and enough for about 200 ms when one run takes one_ms (at
 * most 10 000), so that short rows get a stable median on a shared machine. */
int bench_runs(int min_runs, double one_ms);
/* Record run r's time dt in *t; run -1 (the warm-up) sets *runs with bench_runs and allocates *t. */
void bench_record(double **t, int *runs, int r, double dt);
/* One JSON line on stdout (see bench.c). */
void bench_report(const char *row, const char *input, double median_ms, int runs, double items, const char *unit);
/* The same with another implementation label than "native". */
void bench_report_impl(const char *row, const char *input, const char *impl, double median_ms, int runs, double items,
                       const char *unit);
/* Whole file or exit(1). Caller frees. */
uint8_t *bench_read_file(const char *path, size_t *size);

/* Rows defined outside bench.c (bench_rows.c). */
extern const bench_row bench_extra_rows[];
extern const size_t bench_extra_row_count;

#endif
