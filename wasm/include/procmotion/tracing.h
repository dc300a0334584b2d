/*
 * procmotion/tracing.h -- hands and feet that follow a drawn path ("tracing", as in tutting):
 * trajectories, a keyframe timeline whose traced segments re-solve the limb IK every frame, the
 * timeline as JSON, and baking it to a VMD. docs/tracing.md has the full story and measured figures.
 *
 * TRAJECTORIES
 *   A trajectory belongs to a limb (pm_limb: left/right hand, left/right foot), has a mode and 1..64
 *   control points. PM_TRAJECTORY_LINE is the polyline through the points; PM_TRAJECTORY_CURVE is the
 *   centripetal Catmull-Rom spline through them (three.js CatmullRomCurve3 'centripetal', open, with
 *   mirrored end points), used only with three or more points: fewer fall back to the line.
 *   pm_trajectory_sample(mode, points, n, t, &p, &err) is pure: t in [0, 1] is mapped by ARC LENGTH,
 *   so equal steps of t are equal distances along the path (the effector moves at even speed). The
 *   line is exact; the curve uses a table of per-segment arc lengths (8 sub-intervals per segment,
 *   5-point Gauss-Legendre each) inverted by safeguarded Newton steps: the distance error is below
 *   1e-9 of the path length (docs/tracing.md has the measurement). No allocation.
 *
 * LIMBS
 *   Each limb is three bones found by role (the rig resolver, procmotion/rig.h): root, middle, end =
 *   左腕/左ひじ/左手首, 右腕/右ひじ/右手首, 左足/左ひざ/左足首, 右足/右ひざ/右足首. Trajectory points
 *   and the pole are OFFSETS (model axes, MMD units) from the root bone's world position at the
 *   moment they were made, so a path moves with the shoulder or hip when the body twists, squats or
 *   travels. When the skeleton has an MMD IK bone whose target is the limb's end bone and whose links
 *   include its middle bone (足ＩＫ for the feet), that is the limb's "IK bone" (see BAKING).
 *
 * THE TIMELINE
 *   A pm_timeline holds keyframes at beat times (bpm: default 120). A keyframe holds, per joint, a
 *   local rotation and a translation (offset from rest, VMD semantics; absent = identity / zero),
 *   the easing of the segment that ends at it (an MMD Bezier curve, pm_easing), and per limb
 *   optional trace data {id, mode, points, pole, t}. Joints are the skeleton's bones in order, then
 *   names from JSON that the skeleton lacks (kept and baked, ignored by evaluation).
 *   pm_timeline_generate places N (2..20) keyframes along a trajectory: for each sample it evaluates
 *   the timeline at that beat, puts the target at root + sample(t_i), solves the two-bone IK
 *   (pm_two_bone_ik) for the root and middle joints and records the pose with the trace data baked
 *   in, all N with one new id. A keyframe already at one of those beats keeps its other joints.
 *
 * PLAYBACK (pm_timeline_evaluate)
 *   The beat is clamped to the first and last keyframe. Between keyframes A and B (A.beat <= beat <
 *   B.beat) with progress p, e = B.easing(p); every joint slerps (Babylon's slerp) and lerps with e.
 *   For a limb where A and B carry the same trace id (or, exactly at keyframe B, where the segment
 *   ending at B does), the root and middle joints are instead solved: t = A.t + (B.t - A.t) e, the
 *   path is sampled at t, the root's world position is read from THIS frame's pose (world matrices
 *   evaluated after every other joint moved: no one-frame lag), the pole is lerped, and the two-bone
 *   IK runs from the slerped pose. The end joint keeps its slerp. Different ids, or keyframes without
 *   trace data, keep the plain slerp. The whole pose then goes through pm_pose_evaluate_local
 *   (append, MMD IK), exactly as babylon-mmd will evaluate the baked VMD; a traced limb's own IK
 *   bone is placed on the solved end, so MMD's IK leaves the solution alone.
 *
 * BAKING (pm_timeline_bake)
 *   A VMD at 30 fps: keyframe beat b lands on frame round(b * 1800 / bpm), or on a beat grid (options.grid,
 *   procmotion/beats.h) on the frame nearest 30 x pm_beat_grid_time(grid, b). Joints get one key per
 *   keyframe with the keyframe's easing on all four curves, dropping keys that repeat both
 *   neighbours; joints at rest in every keyframe get none. Over traced segments the limb's root and
 *   middle joints (and its IK bone) get a key on every frame, solved as in playback on the pose that
 *   the minimal keys of the other joints produce, so the baked motion puts the end joint on the path
 *   in any VMD player. Leg IK decision: a traced foot on a model with 足ＩＫ keeps MMD's leg IK ON and
 *   keys the IK bone's position on the path every frame, together with FK keys on 足/ひざ that already
 *   reach it (MMD's CCD then stops at once; MMD users see and edit the path as the IK bone's motion).
 *   No property key is written.
 *
 * OWNERSHIP, ALLOCATION, THREADS
 *   The timeline borrows the skeleton (it must outlive the timeline) and owns its keyframes; views
 *   returned by pm_timeline_get_keyframe stay valid until the timeline changes. Evaluation never
 *   allocates; it uses a workspace inside the timeline, so one timeline is used by one thread at a
 *   time. pm_timeline_bake allocates the VMD (free with pm_vmd_free).
 *
 * ERRORS
 *   PM_ERR_INVALID_ARGUMENT names the parameter (NaN/Inf included); PM_ERR_NOT_FOUND names a missing
 *   limb bone; PM_ERR_LIMIT names the limit; JSON errors are PM_ERR_BAD_FORMAT and name the field,
 *   e.g. "timeline JSON: keyframes[2].traces.leftHand.mode: expected \"line\" or \"curve\"".
 */
#ifndef PROCMOTION_TRACING_H
#define PROCMOTION_TRACING_H

#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/math.h"
#include "procmotion/pose.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_TRAJECTORY_MAX_POINTS 64
#define PM_TRACE_MIN_KEYFRAMES 2
#define PM_TRACE_MAX_KEYFRAMES 20
#define PM_TIMELINE_MAX_KEYFRAMES 10000
#define PM_TIMELINE_MAX_BEAT 100000.0
#define PM_TIMELINE_DEFAULT_BPM 120.0
#define PM_TIMELINE_MIN_BPM 1.0
#define PM_TIMELINE_MAX_BPM 1000.0
/* bake fails with PM_ERR_LIMIT rather than write more bone keys than this */
#define PM_TIMELINE_MAX_BAKED_KEYS 5000000u

typedef enum pm_trajectory_mode {
    PM_TRAJECTORY_LINE = 0, /* polyline through every point */
    PM_TRAJECTORY_CURVE,    /* centripetal Catmull-Rom with >= 3 points, else the line */
    PM_TRAJECTORY_MODE_COUNT,
    PM_TRAJECTORY_MODE_FORCE_U32 = 0x7fffffff
} pm_trajectory_mode;

typedef enum pm_limb {
    PM_LIMB_LEFT_HAND = 0, /* 左腕, 左ひじ, 左手首 */
    PM_LIMB_RIGHT_HAND,    /* 右腕, 右ひじ, 右手首 */
    PM_LIMB_LEFT_FOOT,     /* 左足, 左ひざ, 左足首 */
    PM_LIMB_RIGHT_FOOT,    /* 右足, 右ひざ, 右足首 */
    PM_LIMB_COUNT,
    PM_LIMB_FORCE_U32 = 0x7fffffff
} pm_limb;

/* "leftHand", "rightHand", "leftFoot", "rightFoot" (the JSON names); "" when out of range. */
const char *pm_limb_name(pm_limb limb);
/* "line" or "curve"; "" when out of range. */
const char *pm_trajectory_mode_name(pm_trajectory_mode mode);

/* The root, middle and end bone of a limb in `skeleton` (PM_ERR_NOT_FOUND naming the missing bone). */
pm_result pm_limb_bones(const pm_skeleton *skeleton, pm_limb limb, uint32_t out[3], pm_error *err);

/* The point at arc-length fraction t (clamped to [0, 1]) of the path through points[0..n). n >= 1
 * (one point: that point); consecutive repeated points count once. Points beyond +-1e6 (or not finite)
 * and a non-finite t are PM_ERR_INVALID_ARGUMENT naming them. */
pm_result pm_trajectory_sample(pm_trajectory_mode mode, const pm_vec3 *points, uint32_t n, float t, pm_vec3 *out,
                               pm_error *err);
/* The path's length (the same arc length the sampling uses). */
pm_result pm_trajectory_length(pm_trajectory_mode mode, const pm_vec3 *points, uint32_t n, double *out,
                               pm_error *err);

/* ---- easing ------------------------------------------------------------------------------------ */

/* An MMD Bezier curve (0..127; the VMD interpolation of one axis). Any curve with x1 == y1 and
 * x2 == y2 is linear, so the zero value is linear. */
typedef struct pm_easing {
    uint8_t x1, y1, x2, y2;
} pm_easing;

typedef enum pm_easing_preset {
    PM_EASING_LINEAR = 0, /* 20, 20, 107, 107 (what MMD writes for a linear key) */
    PM_EASING_EASE_IN,    /* 53, 0, 127, 127 (CSS ease-in) */
    PM_EASING_EASE_OUT,   /* 0, 0, 74, 127 (CSS ease-out) */
    PM_EASING_EASE_IN_OUT, /* 53, 0, 74, 127 (CSS ease-in-out) */
    PM_EASING_PRESET_COUNT
} pm_easing_preset;

pm_easing pm_easing_from_preset(pm_easing_preset preset);
/* "linear", "ease-in", "ease-out", "ease-in-out", or NULL when the curve is none of them (any linear
 * curve gives "linear"). */
const char *pm_easing_name(pm_easing easing);
/* The eased progress for p in [0, 1] (clamped): babylon-mmd's Bezier solve, exactly 0 and 1 at the
 * ends. */
double pm_easing_eval(pm_easing easing, double p);

/* ---- keyframes --------------------------------------------------------------------------------- */

/* Trace data of one limb in one keyframe. id 0 = none (the other fields are ignored). */
typedef struct pm_trace {
    uint32_t id;
    pm_trajectory_mode mode;
    uint32_t point_count;  /* 1..PM_TRAJECTORY_MAX_POINTS */
    const pm_vec3 *points; /* offsets from the limb root's world position when the path was made */
    pm_vec3 pole;          /* offset of the pole from that root position */
    float t;               /* where this keyframe sits on the path, 0..1 */
} pm_trace;

/* A keyframe. Zero-initialise: beat 0, linear easing, rest pose, no traces. */
typedef struct pm_keyframe {
    double beat;                 /* >= 0, <= PM_TIMELINE_MAX_BEAT */
    pm_easing easing;            /* curve of the segment ending at this keyframe */
    const pm_quat *rotations;    /* [joint_count] local rotations, or NULL = all identity */
    const pm_vec3 *translations; /* [joint_count] offsets from rest, or NULL = all zero */
    pm_trace traces[PM_LIMB_COUNT];
} pm_keyframe;

/* A trajectory being edited (the draft a limb's generation uses by default). */
typedef struct pm_trajectory {
    pm_trajectory_mode mode;
    uint32_t point_count;  /* 0 clears the draft */
    const pm_vec3 *points; /* offsets from the limb root, as in pm_trace */
    bool has_pole;         /* false: the limb's default pole (pm_timeline_default_pole) */
    pm_vec3 pole;
} pm_trajectory;

typedef struct pm_timeline pm_timeline;

/*
 * Timeline options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, 120 BPM.
 */
typedef struct pm_timeline_options {
    pm_allocator allocator;
    double bpm; /* 0 = PM_TIMELINE_DEFAULT_BPM; else PM_TIMELINE_MIN_BPM..PM_TIMELINE_MAX_BPM */
} pm_timeline_options;

pm_result pm_timeline_create(const pm_skeleton *skeleton, const pm_timeline_options *opts, pm_timeline **out,
                             pm_error *err);
void pm_timeline_free(pm_timeline *timeline);

const pm_skeleton *pm_timeline_skeleton(const pm_timeline *timeline);
double pm_timeline_bpm(const pm_timeline *timeline);
pm_result pm_timeline_set_bpm(pm_timeline *timeline, double bpm, pm_error *err);
/* Joints: 0..bone_count-1 are the skeleton's bones, then names the skeleton lacks (from JSON). */
uint32_t pm_timeline_joint_count(const pm_timeline *timeline);
pm_string pm_timeline_joint_name(const pm_timeline *timeline, uint32_t joint);
/* The next id pm_timeline_generate will use (ids start at 1). */
uint32_t pm_timeline_next_trace_id(const pm_timeline *timeline);

uint32_t pm_timeline_keyframe_count(const pm_timeline *timeline);
/* Keyframe `index` (sorted by beat) as views into the timeline (valid until it changes). */
pm_result pm_timeline_get_keyframe(const pm_timeline *timeline, uint32_t index, pm_keyframe *out, pm_error *err);
/* Insert a keyframe, or replace the one at the same beat; *index (optional) is its position. Values
 * are checked (finite, traces complete, t in [0, 1]); quaternions are normalised. */
pm_result pm_timeline_set_keyframe(pm_timeline *timeline, const pm_keyframe *keyframe, uint32_t *index,
                                   pm_error *err);
/* A keyframe "made by hand": the pose the timeline plays at `beat` (traced limbs included), with no
 * trace data, inserted or replacing the one at that beat. */
pm_result pm_timeline_capture_keyframe(pm_timeline *timeline, double beat, pm_easing easing, uint32_t *index,
                                       pm_error *err);
pm_result pm_timeline_remove_keyframe(pm_timeline *timeline, uint32_t index, pm_error *err);
void pm_timeline_clear(pm_timeline *timeline);

/* The limb's draft trajectory (NULL or point_count 0 clears it). */
pm_result pm_timeline_set_trajectory(pm_timeline *timeline, pm_limb limb, const pm_trajectory *trajectory,
                                     pm_error *err);
/* false when the limb has no draft; views valid until the draft changes. */
bool pm_timeline_get_trajectory(const pm_timeline *timeline, pm_limb limb, pm_trajectory *out);
/* The default pole offset of a limb: hands below, outside and behind the shoulder (the elbow hangs);
 * feet below and in front of the hip (the knee bends forward). Scaled by the limb's rest length. */
pm_result pm_timeline_default_pole(const pm_timeline *timeline, pm_limb limb, pm_vec3 *out, pm_error *err);

/*
 * Generation parameters. Zero-initialise; set limb and count.
 * Default configuration: the limb's draft trajectory, start at beat 0, one beat apart, linear easing.
 */
typedef struct pm_trace_generate {
    pm_limb limb;
    const pm_trajectory *trajectory; /* NULL = the limb's draft */
    uint32_t count;                  /* PM_TRACE_MIN_KEYFRAMES..PM_TRACE_MAX_KEYFRAMES */
    double start_beat;
    double beat_step; /* 0 = 1 beat */
    pm_easing easing;
} pm_trace_generate;

/* Generate `count` keyframes along the trajectory (t_i = i / (count - 1) at start + i * step); the
 * new trace id goes to *id (optional). The trajectory needs >= 2 points. */
pm_result pm_timeline_generate(pm_timeline *timeline, const pm_trace_generate *gen, uint32_t *id, pm_error *err);

/* ---- playback ---------------------------------------------------------------------------------- */

/* Evaluate at `seconds` (beat = seconds * bpm / 60) or at a beat into `pose` (pm_pose_create on the
 * timeline's skeleton): pose->rotation / translation are the local values (what a VMD keys), world and
 * the final arrays as pm_pose_evaluate_local gives them. With no keyframes: the rest pose. */
pm_result pm_timeline_evaluate(pm_timeline *timeline, double seconds, pm_pose *pose, pm_error *err);
pm_result pm_timeline_evaluate_beat(pm_timeline *timeline, double beat, pm_pose *pose, pm_error *err);

/* What the last evaluation did for a limb. */
typedef struct pm_trace_state {
    bool active;     /* the limb was solved on a path */
    uint32_t id;
    float t;         /* parameter on the path */
    pm_vec3 root;    /* world position of the root joint this frame */
    pm_vec3 target;  /* root + sample(t) */
    pm_vec3 pole;    /* root + the lerped pole offset */
    float miss;      /* distance the two-bone IK left (0 when the target is in reach) */
} pm_trace_state;

void pm_timeline_trace_state(const pm_timeline *timeline, pm_limb limb, pm_trace_state *out);

/* ---- baking ------------------------------------------------------------------------------------ */

/*
 * Bake options; zero-initialise for defaults (or pass NULL).
 * Default configuration: the timeline's BPM, the skeleton's model name, malloc/free.
 */
typedef struct pm_timeline_bake_options {
    pm_allocator allocator;
    double bpm;             /* 0 = the timeline's */
    const char *model_name; /* NULL = the skeleton's model name */
    pm_beat_grid grid;      /* zero = none (bpm above). Set: keyframe beat b lands on the frame nearest
                               30 x pm_beat_grid_time(grid, b) (the song's beats, its offset and tempo
                               drift), traced frames sample the timeline at pm_beat_grid_beat(grid, f / 30);
                               a keyframe before 0 s is PM_ERR_INVALID_ARGUMENT. Borrowed for the call. */
} pm_timeline_bake_options;

pm_result pm_timeline_bake(pm_timeline *timeline, const pm_timeline_bake_options *opts, pm_vmd **out,
                           pm_error *err);

/* The plan of a bake: where the hands and feet are meant to be at each whole frame 0 .. frames (the
 * last keyframe's): on a traced segment the point of the path the trace asks for (the limb's root as
 * this frame's pose puts it, plus the path sample), elsewhere (active 0) where the keyframes put it as
 * MMD plays the bake. */
typedef struct pm_trace_plan {
    uint32_t frames;
    float *hands;   /* [(frames + 1) * 6]: left hand (手首) xyz, right hand xyz, world */
    float *ankles;  /* [(frames + 1) * 6]: left foot (足首) xyz, right foot xyz */
    uint8_t *active;/* [(frames + 1) * 4]: per pm_limb, the limb follows a trace at this frame */
    bool synced;    /* a grid was given: sync is measured */
    pm_beat_sync sync; /* each keyframe's written key frame against its beat on the grid (frames) */
    pm_allocator allocator;
} pm_trace_plan;
void pm_trace_plan_free(pm_trace_plan *plan);

/* pm_timeline_bake, and the plan (may be NULL) and the report (may be NULL): the bake played with the
 * MMD-exact evaluator (procmotion/landing.h, pm_landing_measure) at every whole frame, each limb the
 * skeleton has measured against the plan over its traced frames; limbs in pm_limb order (those the
 * skeleton lacks left out). */
pm_result pm_timeline_bake_plan(pm_timeline *timeline, const pm_timeline_bake_options *opts, pm_vmd **out,
                                pm_trace_plan *plan, pm_landing_report *report, pm_error *err);

/* ---- JSON (schema in docs/tracing.md) ------------------------------------------------------------ */

/* out == NULL only sets *out_size (the length without the NUL); otherwise out_cap >= out_size + 1. */
pm_result pm_timeline_to_json(const pm_timeline *timeline, char *out, size_t out_cap, size_t *out_size,
                              pm_error *err);
/* A timeline bound to `skeleton` from JSON text; every field validated, errors name the field. opts->bpm
 * is ignored (the JSON's bpm applies). */
pm_result pm_timeline_from_json(const char *json, size_t len, const pm_skeleton *skeleton,
                                const pm_timeline_options *opts, pm_timeline **out, pm_error *err);
/* One keyframe object (the JSON shape of a keyframes[] entry) inserted or replacing the one at its beat. */
pm_result pm_timeline_set_keyframe_json(pm_timeline *timeline, const char *json, size_t len, uint32_t *index,
                                        pm_error *err);
/* Keyframe `index` as a JSON object (out == NULL: size only, as pm_timeline_to_json). */
pm_result pm_timeline_keyframe_to_json(const pm_timeline *timeline, uint32_t index, char *out, size_t out_cap,
                                       size_t *out_size, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
