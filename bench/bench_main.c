/* Runs the benchmarks registered with PM_BENCH (see bench.h). */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static pm_bench_entry entries[256];
static int entry_count;

void pm_bench_register(const char *name, pm_bench_fn fn) {
    if (entry_count < 256) entries[entry_count++] = (pm_bench_entry){name, fn};
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    for (int i = 0; i < entry_count; i++) {
        if (filter && !strstr(entries[i].name, filter)) continue;
        entries[i].fn(); /* warm-up */
        double start = now(), best = 1e9, t = start;
        long n = 0;
        while (t - start < 0.5 || n < 5) {
            double t0 = now();
            entries[i].fn();
            t = now();
            if (t - t0 < best) best = t - t0;
            n++;
        }
        printf("%-40s %10.3f ms mean %10.3f ms best  (%ld runs)\n", entries[i].name, (t - start) * 1e3 / n, best * 1e3, n);
    }
    return 0;
}
