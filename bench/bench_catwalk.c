/* Catwalk rows for procmotion_bench (see bench.c): generating a loop, and generating + writing it.
 *
 *   procmotion_bench catwalk [RUNS]
 *
 * Inputs: the default loop (240 frames, 2beat at 120 BPM, in place), 128 BPM with one step per beat,
 * and a U-turn loop (480 frames); all on the standard figure, the legs landed on the built-in mannequin
 * and the result played and measured (docs/landing.md). `items` is the loop's frames; the input label
 * carries the loop's frames, keys (bone, morph and property), VMD bytes and the measured error. */
#include "bench.h"

#include "procmotion/catwalk.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double one(const pm_catwalk_params *p, bool write, uint32_t *frames, uint32_t *keys, size_t *bytes, double *error) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    pm_catwalk_info info;
    double t0 = bench_now_ms();
    if (pm_catwalk_generate(p, NULL, &v, &info, &err) != PM_OK) {
        fprintf(stderr, "procmotion_bench: %s\n", err.message);
        exit(1);
    }
    if (write) {
        size_t size = 0;
        uint8_t *buf = NULL;
        if (pm_vmd_write(v, NULL, 0, &size, &err) != PM_OK || !(buf = malloc(size)) ||
            pm_vmd_write(v, buf, size, &size, &err) != PM_OK)
            exit(1);
        free(buf);
    }
    double dt = bench_now_ms() - t0;
    *frames = info.loop_frames;
    *error = info.verified ? info.report.max_error : -1;
    *keys = info.key_count + info.morph_key_count + info.property_key_count;
    if (pm_vmd_write(v, NULL, 0, bytes, &err) != PM_OK) exit(1);
    pm_vmd_free(v);
    return dt;
}

int bench_catwalk(int argc, char **argv) {
    int runs = argc > 0 ? atoi(argv[0]) : 200;
    if (runs < 1) runs = 1;
    pm_catwalk_params cases[3];
    memset(cases, 0, sizeof cases);
    cases[1].bpm = 128, cases[1].cadence = PM_CATWALK_CADENCE_BEAT;
    cases[2].u_turn = true;
    static const char *const labels[3] = {"default loop (in place, 120 BPM 2beat)", "128 BPM beat", "U-turn"};
    for (int c = 0; c < 4; c++) {
        const pm_catwalk_params *p = &cases[c < 3 ? c : 0];
        uint32_t frames = 0, keys = 0;
        size_t bytes = 0;
        double error = 0;
        int n = bench_runs(runs, one(p, c == 3, &frames, &keys, &bytes, &error)); /* warm-up */
        double *t = malloc(sizeof(double) * (size_t)n);
        for (int r = 0; r < n; r++) t[r] = one(p, c == 3, &frames, &keys, &bytes, &error);
        char input[240];
        snprintf(input, sizeof input, "%s: %u frames, %u keys, %zu bytes, verified on the mannequin (max error %.4f)",
                 c == 3 ? "default loop, then the VMD bytes written" : labels[c], frames, keys, bytes, error);
        bench_report("catwalk", input, bench_median(t, n), n, frames, "frames");
        free(t);
    }
    return 0;
}
