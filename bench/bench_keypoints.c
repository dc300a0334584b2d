/* Keypoint rows: a whole conversion (parse, evaluate every frame, retarget, angles) per run.
 *   procmotion_bench keypoints FILE [RUNS]     items = frames produced */
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
    double *t = malloc(sizeof(double) * (size_t)runs);
    uint32_t frames = 0;
    for (int r = 0; r < runs; r++) {
        pm_error err = {0};
        pm_kp_sequence *s = NULL;
        double t0 = bench_now_ms();
        if (pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, NULL, &s, &err) != PM_OK) {
            fprintf(stderr, "procmotion_bench: %s\n", err.message);
            return 1;
        }
        t[r] = bench_now_ms() - t0;
        frames = s->frame_count;
        pm_kp_free(s);
    }
    const char *base = strrchr(argv[0], '/');
    bench_report("keypoints", base ? base + 1 : argv[0], bench_median(t, runs), runs, frames, "frames");
    free(t);
    free(data);
    return 0;
}
