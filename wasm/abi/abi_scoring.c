/* Dance scoring exports (the caller is js-glue/scoring.js): a reference and a performance sequence handle
 * in, a result read through a descriptor of doubles; the streaming scorer. */
#include "pm_abi.h"

#include "procmotion/scoring.h"

#include <stdint.h>

enum { PM_ABI_LAYOUT_SCORE(PM_ABI_SLOT_ENUM, S_) S_COUNT };
_Static_assert(PM_SCORE_PART_COUNT == 5, "PM_ABI_LAYOUT_SCORE holds five parts");

PM_EXPORT const char *pm_abi_score_part_name(uint32_t i) { return pm_score_part_name(i); }

PM_EXPORT pm_score_result *pm_abi_score_dance(const pm_kp_sequence *reference, const pm_kp_sequence *performance, double band,
                                              double max_offset, uint32_t mirrored, char *errbuf) {
    pm_error err = {0};
    const pm_score_options o = {.band = band, .max_offset = max_offset, .mirrored = mirrored != 0};
    pm_score_result *r = NULL;
    if (pm_score_dance(reference, performance, &o, &r, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return r;
}

PM_EXPORT void pm_abi_score_describe(const pm_score_result *r, double *d) {
    for (int i = 0; i < S_COUNT; i++) d[i] = 0;
    if (!r) return;
    d[S_SCORE] = r->score;
    d[S_OFFSET] = r->offset_seconds;
    d[S_FPS] = r->fps;
    d[S_RESAMPLED] = r->resampled;
    d[S_FRAMES] = r->frame_count;
    d[S_PER_FRAME] = (double)(uintptr_t)r->per_frame;
    d[S_MATCH] = (double)(uintptr_t)r->match;
    d[S_PATH_LENGTH] = r->path_length;
    d[S_PATH] = (double)(uintptr_t)r->path;
    for (int p = 0; p < PM_SCORE_PART_COUNT; p++) d[S_PART_SCORE + p] = r->part_score[p], d[S_PART_LAG + p] = r->part_lag[p];
}

PM_EXPORT void pm_abi_score_free(pm_score_result *r) { pm_score_result_free(r); }

PM_EXPORT pm_score_stream *pm_abi_score_stream_new(const pm_kp_sequence *reference, double band, double max_offset, uint32_t mirrored,
                                                   char *errbuf) {
    pm_error err = {0};
    const pm_score_options o = {.band = band, .max_offset = max_offset, .mirrored = mirrored != 0};
    pm_score_stream *s = NULL;
    if (pm_score_stream_new(reference, &o, &s, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return s;
}

/* One frame (99 floats, 33 visibilities or NULL); now[5]: score, frame score, reference frame, frames, scored. */
PM_EXPORT int32_t pm_abi_score_stream_push(pm_score_stream *s, const float *points, const float *visibility, double *now, char *errbuf) {
    pm_error err = {0};
    pm_score_now n;
    if (pm_score_stream_push(s, points, visibility, &n, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return -1;
    }
    now[0] = n.score, now[1] = n.frame_score, now[2] = n.reference_frame, now[3] = n.frames, now[4] = n.scored;
    return 0;
}

PM_EXPORT void pm_abi_score_stream_free(pm_score_stream *s) { pm_score_stream_free(s); }
