/*
 * procmotion/scoring.h -- score a dancer's keypoints against a reference motion: dynamic time warping
 * on MediaPipe Pose 33-point sequences, in one call or frame by frame as a camera produces them.
 *
 * USAGE
 *       pm_kp_sequence *ref = ..., *perf = ...;           // procmotion/keypoints.h
 *       pm_score_result *s = NULL;
 *       if (pm_score_dance(ref, perf, NULL, &s, &err) == PM_OK)
 *           printf("%.0f, the performance starts %.2f s in\n", s->score, s->offset_seconds);
 *       pm_score_result_free(s);
 *
 *       pm_score_stream *live = NULL;                      // live feedback
 *       pm_score_stream_new(ref, NULL, &live, &err);
 *       pm_score_stream_push(live, points, visibility, &now, &err);   // per camera frame: now.score
 *       pm_score_stream_free(live);
 *
 * FEATURES
 *   Per frame the 33 points, moved so the hips' midpoint is the origin and scaled so the torso (hips'
 *   midpoint to shoulders' midpoint) is 1 long, and the ten joint-angle cosines of keypoints.h computed on
 *   them. A point whose visibility is under 0.5 is filled from the nearest frames where it is seen (held
 *   at the ends; pm_kp_features) and left out of the cost. A camera's jitter is smoothed out: each
 *   point is averaged over five frames (weights 1 2 3 2 1). The performance is resampled to the reference's frame rate when
 *   the two differ (result->resampled). options.mirrored turns a selfie camera's mirrored performance
 *   back (x flipped about the hips, left and right points swapped).
 *
 * COST AND SCORE
 *   cost(i, j) = mean distance of the points seen in both frames (in torso lengths; the eleven face
 *   points count as one) / 2 + mean absolute difference of the angle cosines / 2.
 *   A frame's score is 100 * exp(-cost / 0.4); the score is the mean over the reference's frames, each
 *   matched to its best frame of the warped performance. 100 is the same motion; the same motion danced
 *   25 % faster or slower scores about 95 and more; a mirror image, another motion or standing still
 *   score well under that (docs/scoring.md has the calibration on real motion). Parts (arms, legs,
 *   torso and head) get the same score on their points and angles, and a timing: the shift within
 *   +-0.5 s that matches the part best (positive: the performer is late).
 *
 * ALIGNMENT
 *   Subsequence DTW (steps (1,1), (1,0), (0,1)): the performance may start up to options.max_offset
 *   seconds late and go on after the reference ends; its tempo may drift by options.band (0.35 = 35 %).
 *   Long sequences are aligned on at most 900 evenly spaced frames first, then refined at full rate within 6 frames of
 *   that path: memory and time grow with the band, never with the full matrix.
 *
 * STREAMING
 *   pm_score_stream_push takes one performance frame (33 points x, y, z and 33 visibilities) and updates
 *   the alignment with the frame two before it (smoothed with the frames on both sides, as the batch
 *   form does: two frames of latency): `now` holds the running score (the mean frame score along the
 *   best path so far), the reference frame the performer was at, and that frame's score.
 *   The reference window searched moves with the performer (+-options.band of the elapsed time).
 *
 * ERRORS
 *   NULL arguments, an empty sequence, NaN or infinite points (naming the sequence, frame and point),
 *   options out of range: PM_ERR_INVALID_ARGUMENT; more than 1 000 000 frames: PM_ERR_LIMIT.
 */
#ifndef PROCMOTION_SCORING_H
#define PROCMOTION_SCORING_H

#include "procmotion/common.h"
#include "procmotion/keypoints.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_score_part {
    PM_SCORE_LEFT_ARM = 0,
    PM_SCORE_RIGHT_ARM,
    PM_SCORE_LEFT_LEG,
    PM_SCORE_RIGHT_LEG,
    PM_SCORE_TORSO, /* hips, shoulders, spine and head */
    PM_SCORE_PART_COUNT
} pm_score_part;

/* "left_arm", "right_arm", "left_leg", "right_leg", "torso"; NULL past the last. */
const char *pm_score_part_name(uint32_t part);

typedef struct pm_score_options {
    pm_allocator allocator;
    double band;         /* tempo drift allowed, 0..1 (0 = 0.35) */
    double max_offset;   /* seconds the performance may start late (0 = 5; negative: 0) */
    bool mirrored;       /* the performance is mirrored (a selfie camera) */
} pm_score_options;

typedef struct pm_score_result {
    double score;             /* 0..100 */
    double offset_seconds;    /* where in the performance the reference's first frame is matched */
    double fps;               /* the reference's frame rate, the performance's after resampling */
    bool resampled;           /* the performance was resampled to fps */
    uint32_t frame_count;     /* the reference's frames */
    float *per_frame;         /* [frame_count] 0..100 */
    uint32_t *match;          /* [frame_count] the performance frame matched to each reference frame */
    uint32_t path_length;
    uint32_t *path;           /* [path_length * 2] (reference frame, performance frame), in order */
    float part_score[PM_SCORE_PART_COUNT];   /* 0..100 */
    float part_lag[PM_SCORE_PART_COUNT];     /* seconds, positive: the performer is late */
    pm_allocator allocator;
} pm_score_result;

pm_result pm_score_dance(const pm_kp_sequence *reference, const pm_kp_sequence *performance, const pm_score_options *opts,
                         pm_score_result **out, pm_error *err);
void pm_score_result_free(pm_score_result *result);

typedef struct pm_score_stream pm_score_stream;

typedef struct pm_score_now {
    double score;             /* running score, 0..100 */
    double frame_score;       /* the pushed frame's, 0..100 */
    uint32_t reference_frame; /* where the performer is in the reference (at the scored frame) */
    uint32_t frames;          /* frames pushed */
    uint32_t scored;          /* frames scored: two fewer (each is smoothed with the two after it) */
} pm_score_now;

/* The stream keeps its own copy of the reference's features; `reference` may be freed after the call. */
pm_result pm_score_stream_new(const pm_kp_sequence *reference, const pm_score_options *opts, pm_score_stream **out, pm_error *err);
/* points: 33 * 3 floats (x, y, z as MediaPipe or keypoints.h give them), visibility: 33 floats (NULL: all
 * seen). */
pm_result pm_score_stream_push(pm_score_stream *stream, const float *points, const float *visibility, pm_score_now *now, pm_error *err);
void pm_score_stream_free(pm_score_stream *stream);

#ifdef __cplusplus
}
#endif

#endif
