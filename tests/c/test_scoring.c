/* Dance scoring on real motion: a mocap walk and MMD dances as keypoints, against themselves time-warped,
 * late, mirrored, against other motions and standing still; the streaming form; bad input. */
#include "pm_test.h"

#include "procmotion/keypoints.h"
#include "procmotion/scoring.h"

#include <math.h>

/* A sequence of `frames` frames at `fps` with its own arrays (free with seq_free). */
static pm_kp_sequence *seq_new(uint32_t frames, double fps) {
    pm_kp_sequence *s = calloc(1, sizeof *s);
    s->frame_count = frames, s->fps = fps;
    s->timestamp_ms = calloc(frames ? frames : 1, sizeof *s->timestamp_ms);
    s->points = calloc((size_t)(frames ? frames : 1) * 99, sizeof *s->points);
    s->visibility = calloc((size_t)(frames ? frames : 1) * 33, sizeof *s->visibility);
    s->angles = calloc((size_t)(frames ? frames : 1) * 10, sizeof *s->angles);
    for (uint32_t f = 0; f < frames; f++) s->timestamp_ms[f] = f * 1000.0 / fps;
    return s;
}
static void seq_free(pm_kp_sequence *s) {
    if (!s) return;
    free(s->timestamp_ms), free(s->points), free(s->visibility), free(s->angles), free(s);
}
/* Frames [from, from + frames) of s (frames past its end repeat its last), relabelled at `fps`. */
static pm_kp_sequence *seq_cut(const pm_kp_sequence *s, int64_t from, uint32_t frames, double fps) {
    pm_kp_sequence *o = seq_new(frames, fps);
    for (uint32_t f = 0; f < frames; f++) {
        int64_t k = from + f;
        k = k < 0 ? 0 : k >= s->frame_count ? s->frame_count - 1 : k;
        memcpy(o->points + (size_t)f * 99, s->points + (size_t)k * 99, 99 * sizeof(float));
        memcpy(o->visibility + (size_t)f * 33, s->visibility + (size_t)k * 33, 33 * sizeof(float));
    }
    return o;
}

static pm_kp_sequence *read_kp(const char *fixture, double fps) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture(fixture, &size);
    if (!data) return NULL;
    pm_kp_options o = {.fps = fps};
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, &o, &s, &err), &err);
    free(data);
    if (!s) return NULL;
    pm_kp_sequence *copy = seq_cut(s, 0, s->frame_count, s->fps); /* one owner for every sequence here */
    pm_kp_free(s);
    return copy;
}

static double score_of(const pm_kp_sequence *ref, const pm_kp_sequence *perf, const pm_score_options *o, pm_score_result **keep) {
    pm_score_result *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_score_dance(ref, perf, o, &s, &err), &err);
    const double v = s ? s->score : -1;
    if (keep) *keep = s;
    else pm_score_result_free(s);
    return v;
}

PM_TEST(a_motion_scores_high_against_itself_warped_and_low_against_others) {
    pm_kp_sequence *walk = read_kp("bvh/cmu_131_01.bvh", 30), *fast = read_kp("bvh/cmu_131_01.bvh", 24),
                   *slow = read_kp("bvh/cmu_131_01.bvh", 40), *greet = read_kp("vmd/mei_greeting.vmd", 0),
                   *laugh = read_kp("vmd/gene_02_laugh.vmd", 0);
    if (!walk || !fast || !slow || !greet || !laugh) goto done;
    /* the walk at 24 and 40 fps played back at 30: 25 % faster, 33 % slower */
    pm_kp_sequence *faster = seq_cut(fast, 0, fast->frame_count, 30), *slower = seq_cut(slow, 0, slow->frame_count, 30);
    pm_kp_sequence *still = seq_cut(walk, 0, walk->frame_count, 30);
    for (uint32_t f = 1; f < still->frame_count; f++) memcpy(still->points + (size_t)f * 99, still->points, 99 * sizeof(float));
    pm_kp_sequence *late = seq_cut(walk, -60, walk->frame_count + 60, 30); /* 2 s standing first */
    pm_kp_sequence *at60 = read_kp("bvh/cmu_131_01.bvh", 60);
    pm_score_options mirror = {.mirrored = true};
    pm_score_result *r_late = NULL, *r60 = NULL;
    const double self = score_of(walk, walk, NULL, NULL), f25 = score_of(walk, faster, NULL, NULL), s33 = score_of(walk, slower, NULL, NULL);
    const double mir = score_of(walk, walk, &mirror, NULL), st = score_of(walk, still, NULL, NULL), lt = score_of(walk, late, NULL, &r_late);
    const double other = score_of(greet, laugh, NULL, NULL), greet_walk = score_of(greet, walk, NULL, NULL), rs = score_of(walk, at60, NULL, &r60);
    printf("  the walk: itself %.1f, 25%% faster %.1f, 33%% slower %.1f, 2 s late %.1f (offset %.2f s), at 60 fps %.1f; mirrored %.1f, "
           "standing still %.1f; greeting against laughing %.1f, against the walk %.1f\n",
           self, f25, s33, lt, r_late ? r_late->offset_seconds : -1, rs, mir, st, other, greet_walk);
    PM_CHECK(self >= 99.9);
    PM_CHECK(f25 >= 95 && s33 >= 95 && lt >= 95 && rs >= 95);
    PM_CHECK(r_late && fabs(r_late->offset_seconds - 2) <= 0.1);
    PM_CHECK(r60 && r60->resampled && r60->fps == 30);
    PM_CHECK(mir <= 60 && st <= 60 && other <= 80 && greet_walk <= 60);
    /* symmetric where it should be, steady under small noise (0.5 % of the image) */
    const double back = score_of(laugh, greet, NULL, NULL);
    pm_kp_sequence *noisy = seq_cut(walk, 0, walk->frame_count, 30);
    uint32_t seed = 7;
    for (size_t q = 0; q < (size_t)noisy->frame_count * 99; q++) {
        seed = seed * 1664525u + 1013904223u;
        noisy->points[q] += 0.005f * ((float)(seed >> 8) / 16777216.0f * 2 - 1);
    }
    const double noise = score_of(walk, noisy, NULL, NULL);
    printf("  laughing against greeting %.1f; the walk with noise %.1f\n", back, noise);
    PM_CHECK(fabs(back - other) <= 5 && noise >= 95);
    seq_free(noisy);
    pm_score_result_free(r_late), pm_score_result_free(r60);
    seq_free(faster), seq_free(slower), seq_free(still), seq_free(late), seq_free(at60);
done:
    seq_free(walk), seq_free(fast), seq_free(slow), seq_free(greet), seq_free(laugh);
}

PM_TEST(a_part_that_lags_is_named_with_its_delay) {
    pm_kp_sequence *dance = read_kp("vmd/mei_greeting.vmd", 0);
    if (!dance) return;
    /* the performer's left arm 6 frames (0.2 s) behind the rest of the body */
    pm_kp_sequence *perf = seq_cut(dance, 0, dance->frame_count, 30);
    static const int ARM[] = {11, 13, 15, 17, 19, 21};
    for (uint32_t f = 0; f < perf->frame_count; f++)
        for (int k = 0; k < 6; k++) {
            const uint32_t from = f >= 6 ? f - 6 : 0;
            memcpy(perf->points + ((size_t)f * 33 + ARM[k]) * 3, dance->points + ((size_t)from * 33 + ARM[k]) * 3, 3 * sizeof(float));
        }
    pm_score_result *r = NULL;
    score_of(dance, perf, NULL, &r);
    if (r) {
        printf("  left arm %.0f late by %.2f s; right arm %.0f (%.2f s); score %.1f\n", r->part_score[PM_SCORE_LEFT_ARM],
               r->part_lag[PM_SCORE_LEFT_ARM], r->part_score[PM_SCORE_RIGHT_ARM], r->part_lag[PM_SCORE_RIGHT_ARM], r->score);
        PM_CHECK(fabs(r->part_lag[PM_SCORE_LEFT_ARM] - 0.2) <= 0.04);
        PM_CHECK(fabs(r->part_lag[PM_SCORE_RIGHT_ARM]) <= 0.04);
        PM_CHECK(r->part_score[PM_SCORE_LEFT_ARM] < r->part_score[PM_SCORE_RIGHT_ARM]);
        PM_CHECK(r->path_length >= r->frame_count && r->path[0] == 0 && r->path[2 * (r->path_length - 1)] == r->frame_count - 1);
    }
    pm_score_result_free(r);
    seq_free(perf), seq_free(dance);
}

PM_TEST(the_stream_follows_the_performer_frame_by_frame) {
    pm_kp_sequence *walk = read_kp("bvh/cmu_131_01.bvh", 30);
    if (!walk) return;
    pm_score_stream *live = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_score_stream_new(walk, NULL, &live, &err), &err);
    pm_score_now now = {0};
    uint32_t worst_lag = 0;
    for (uint32_t f = 0; live && f < walk->frame_count; f++) {
        PM_CHECK_OK(pm_score_stream_push(live, walk->points + (size_t)f * 99, walk->visibility + (size_t)f * 33, &now, &err), &err);
        if (f < 2) continue; /* two frames of latency */
        PM_CHECK_EQ_INT(now.scored, f - 1);
        const uint32_t lag = now.reference_frame > f - 2 ? now.reference_frame - (f - 2) : (f - 2) - now.reference_frame;
        if (lag > worst_lag) worst_lag = lag;
    }
    printf("  streamed %u frames: running score %.1f, the reference frame within %u of the performer's\n", now.frames, now.score, worst_lag);
    PM_CHECK(now.frames == walk->frame_count && now.score >= 99 && worst_lag <= 2);
    pm_score_stream_free(live);
    seq_free(walk);
}

PM_TEST(bad_sequences_are_refused_naming_the_frame) {
    pm_kp_sequence *a = seq_new(10, 30), *empty = seq_new(0, 30);
    pm_score_result *r = NULL;
    pm_error err = {0};
    PM_CHECK(pm_score_dance(a, empty, NULL, &r, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "performance has no frames"));
    PM_CHECK(pm_score_dance(NULL, a, NULL, &r, &err) == PM_ERR_INVALID_ARGUMENT);
    a->points[(size_t)4 * 99 + 15 * 3 + 1] = NAN;
    PM_CHECK(pm_score_dance(a, a, NULL, &r, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "reference's frame 4 point 15 (left_wrist)") != NULL);
    pm_score_options o = {.band = 2};
    a->points[(size_t)4 * 99 + 15 * 3 + 1] = 0;
    PM_CHECK(pm_score_dance(a, a, &o, &r, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "band"));
    PM_CHECK(r == NULL);
    /* all points unseen, all on one spot: a score, no NaN */
    PM_CHECK_OK(pm_score_dance(a, a, NULL, &r, &err), &err);
    PM_CHECK(r && isfinite(r->score));
    pm_score_result_free(r);
    seq_free(a), seq_free(empty);
}

int main(void) { return pm_test_run_all(); }
