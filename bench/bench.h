/* bench.h -- the minimal benchmark harness: each bench/bench_*.c registers cases with PM_BENCH and
 * bench_main.c runs them all (or those whose name contains argv[1]) and prints one line per case:
 *
 *   PM_BENCH(catwalk_default) { ... one iteration ... }
 *
 * A case runs repeatedly for at least 0.5 s (after one warm-up call); the line gives the mean and the
 * fastest time per iteration. Build a Release tree for numbers worth quoting. */
#ifndef PM_BENCH_H
#define PM_BENCH_H

typedef void (*pm_bench_fn)(void);
typedef struct pm_bench_entry {
    const char *name;
    pm_bench_fn fn;
} pm_bench_entry;

void pm_bench_register(const char *name, pm_bench_fn fn);

#define PM_BENCH(bname)                                                                                  \
    static void pm_bench_##bname(void);                                                                  \
    __attribute__((constructor)) static void pm_bench_register_##bname(void) {                         \
        pm_bench_register(#bname, pm_bench_##bname);                                                     \
    }                                                                                                    \
    static void pm_bench_##bname(void)

#endif
