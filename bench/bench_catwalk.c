/* Catwalk generation: the default loop (240 frames), a 128 BPM beat loop, a U-turn loop, and writing
 * the VMD bytes. */
#include "bench.h"

#include "procmotion/catwalk.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(const pm_catwalk_params *p) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    if (pm_catwalk_generate(p, NULL, &v, NULL, &err) != PM_OK) {
        fprintf(stderr, "catwalk: %s\n", err.message);
        exit(1);
    }
    pm_vmd_free(v);
}

PM_BENCH(catwalk_default_240_frames) { run(NULL); }

PM_BENCH(catwalk_128bpm_beat) {
    pm_catwalk_params p;
    memset(&p, 0, sizeof p);
    p.bpm = 128;
    p.cadence = PM_CATWALK_CADENCE_BEAT;
    run(&p);
}

PM_BENCH(catwalk_uturn_480_frames) {
    pm_catwalk_params p;
    memset(&p, 0, sizeof p);
    p.u_turn = true;
    run(&p);
}

PM_BENCH(catwalk_default_and_write) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    size_t size = 0;
    if (pm_catwalk_generate(NULL, NULL, &v, NULL, &err) != PM_OK || pm_vmd_write(v, NULL, 0, &size, &err) != PM_OK) exit(1);
    uint8_t *buf = malloc(size);
    if (!buf || pm_vmd_write(v, buf, size, &size, &err) != PM_OK) exit(1);
    free(buf);
    pm_vmd_free(v);
}
