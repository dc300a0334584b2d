/* Keypoint rows: a whole conversion (parse, evaluate every frame, retarget, angles) per run.
 *   procmotion_bench keypoints FILE [RUNS]     items = frames produced
 *   procmotion_bench keypoints-hash FILE...    a hash of each conversion's output (not timed) */
#include "bench.h"
#include "procmotion/keypoints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_row_keypoints(int argc, char **argv) {
    if (argc < 1) return fprintf(stderr, "usage: keypoints FILE [RUNS]\n"), 2;
    size_t size;
    uint8_t *data = bench_read_file(argv[0], &size);
    int runs = argc > 1 ? atoi(argv[1]) : 20;
    if (runs < 1) runs = 1;
    double *t = NULL;
    uint32_t frames = 0;
    for (int r = -1; r < runs; r++) { /* r = -1: warm-up, which sets the number of runs */
        pm_error err = {0};
        pm_kp_sequence *s = NULL;
        double t0 = bench_now_ms();
        if (pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, NULL, &s, &err) != PM_OK) {
            fprintf(stderr, "procmotion_bench: %s\n", err.message);
            return 1;
        }
        bench_record(&t, &runs, r, bench_now_ms() - t0);
        frames = s->frame_count;
        pm_kp_free(s);
    }
    const char *base = strrchr(argv[0], '/');
    bench_report("keypoints", base ? base + 1 : argv[0], bench_median(t, runs), runs, frames, "frames");
    free(t);
    free(data);
    return 0;
}

/* procmotion_bench keypoints-hash FILE...: FNV-1a over the points, visibilities, angles and timestamps of
 * each conversion. Not timed: optimisations of the conversion keep these hashes unchanged. */
int bench_keypoints_hash(int argc, char **argv) {
    for (int a = 0; a < argc; a++) {
        if (strspn(argv[a], "0123456789") == strlen(argv[a])) continue; /* the RUNS argument */
        size_t size;
        uint8_t *data = bench_read_file(argv[a], &size);
        pm_error err = {0};
        pm_kp_sequence *s = NULL;
        if (pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, NULL, &s, &err) != PM_OK) {
            fprintf(stderr, "procmotion_bench: %s\n", err.message);
            return 1;
        }
        const size_t n = s->frame_count;
        const uint8_t *parts[4] = {(const uint8_t *)s->points, (const uint8_t *)s->visibility, (const uint8_t *)s->angles,
                                   (const uint8_t *)s->timestamp_ms};
        const size_t sizes[4] = {n * PM_KP_POINT_COUNT * 3 * sizeof(float), n * PM_KP_POINT_COUNT * sizeof(float),
                                 n * PM_KP_ANGLE_COUNT * sizeof(float), n * sizeof *s->timestamp_ms};
        uint64_t h = 1469598103934665603ull;
        for (int p = 0; p < 4; p++)
            for (size_t i = 0; i < sizes[p]; i++) h = (h ^ parts[p][i]) * 1099511628211ull;
        const char *base = strrchr(argv[a], '/');
        printf("%016llx %s\n", (unsigned long long)h, base ? base + 1 : argv[a]);
        pm_kp_free(s);
        free(data);
    }
    return 0;
}
