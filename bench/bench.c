/*
 * procmotion_bench: native figures for build-scripts/bench.sh. Each row prints one JSON line:
 *   {"row": ..., "impl": "native", "median_ms": ..., "runs": N, "items": ..., "unit": ..., "max_rss_kb": ...}
 * where `items` is the amount of work in one run (keys, bytes, frames, solves) so the table can show
 * a rate. The benchmark is not a test: it measures and prints, it never passes or fails on time.
 *
 *   procmotion_bench vmd-parse FILE [RUNS]
 *   procmotion_bench sjis [RUNS]
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include "procmotion/text.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bench_runs(int min_runs, double one_ms) {
    double want = one_ms > 0 ? 200.0 / one_ms : 10000;
    int n = want > 10000 ? 10000 : (int)want + 1;
    return n > min_runs ? n : min_runs;
}

void bench_record(double **t, int *runs, int r, double dt) {
    if (r >= 0) {
        (*t)[r] = dt;
        return;
    }
    *runs = bench_runs(*runs, dt);
    *t = malloc(sizeof(double) * (size_t)*runs);
    if (!*t) exit(1);
}

long bench_max_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

void bench_report_impl(const char *row, const char *input, const char *impl, double median_ms, int runs, double items,
                       const char *unit) {
    printf("{\"row\":\"%s\",\"input\":\"%s\",\"impl\":\"%s\",\"median_ms\":%.6f,\"runs\":%d,\"items\":%.0f,"
           "\"unit\":\"%s\",\"max_rss_kb\":%ld}\n",
           row, input, impl, median_ms, runs, items, unit, bench_max_rss_kb());
    fflush(stdout);
}

void bench_report(const char *row, const char *input, double median_ms, int runs, double items, const char *unit) {
    bench_report_impl(row, input, "native", median_ms, runs, items, unit);
}

uint8_t *bench_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "procmotion_bench: cannot read %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    *size = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int row_vmd_parse(int argc, char **argv) {
    if (argc < 1) return fprintf(stderr, "usage: vmd-parse FILE [RUNS]\n"), 2;
    size_t size;
    uint8_t *data = bench_read_file(argv[0], &size);
    int runs = argc > 1 ? atoi(argv[1]) : 20;
    if (runs < 1) runs = 1;
    double *t = NULL;
    uint32_t keys = 0;
    for (int r = -1; r < runs; r++) { /* r = -1: warm-up, which sets the number of runs */
        pm_error err = {0};
        pm_vmd *v = NULL;
        double t0 = bench_now_ms();
        if (pm_vmd_read(data, size, NULL, &v, &err) != PM_OK) {
            fprintf(stderr, "procmotion_bench: %s\n", err.message);
            return 1;
        }
        bench_record(&t, &runs, r, bench_now_ms() - t0);
        keys = v->bones.count + v->morphs.count + v->cameras.count;
        pm_vmd_free(v);
    }
    bench_report("vmd-parse", base_name(argv[0]), bench_median(t, runs), runs, keys, "keys");
    free(t);
    free(data);
    return 0;
}

static int row_sjis(int argc, char **argv) {
    int runs = argc > 0 ? atoi(argv[0]) : 20;
    /* 1 MB of typical bone-name text */
    static const char *const names[] = {"センター", "グルーブ", "左足ＩＫ", "右つま先ＩＫ", "上半身2", "左人指２", "全ての親", "頭"};
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap + 64);
    for (int i = 0; len < cap; i++) {
        size_t n = strlen(names[i % 8]);
        memcpy(text + len, names[i % 8], n);
        len += n;
    }
    uint8_t *sjis = malloc(len);
    char *back = malloc(len + 1);
    double *te = malloc(sizeof(double) * (size_t)runs), *td = malloc(sizeof(double) * (size_t)runs);
    size_t out_len = 0;
    for (int r = 0; r < runs; r++) {
        pm_error err = {0};
        double t0 = bench_now_ms();
        pm_utf8_to_sjis(text, len, sjis, len, &out_len, NULL, &err);
        double t1 = bench_now_ms();
        pm_sjis_to_utf8(sjis, out_len, back, len + 1);
        td[r] = bench_now_ms() - t1;
        te[r] = t1 - t0;
    }
    bench_report("sjis-encode", "1 MB of bone names (UTF-8 in)", bench_median(te, runs), runs, (double)len, "bytes");
    bench_report("sjis-decode", "1 MB of bone names (UTF-8 out)", bench_median(td, runs), runs, (double)len, "bytes");
    free(te), free(td), free(text), free(sjis), free(back);
    return 0;
}

static const bench_row rows[] = {
    {"vmd-parse", row_vmd_parse},
    {"sjis", row_sjis},
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: procmotion_bench ROW [args]\nrows:");
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) fprintf(stderr, " %s", rows[i].name);
        for (size_t i = 0; i < bench_extra_row_count; i++) fprintf(stderr, " %s", bench_extra_rows[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(argv[1], rows[i].name) == 0) return rows[i].run(argc - 2, argv + 2);
    for (size_t i = 0; i < bench_extra_row_count; i++)
        if (strcmp(argv[1], bench_extra_rows[i].name) == 0) return bench_extra_rows[i].run(argc - 2, argv + 2);
    fprintf(stderr, "procmotion_bench: unknown row %s\n", argv[1]);
    return 2;
}
