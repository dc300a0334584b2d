/* Internal state of the tracing timeline (timeline.c, timeline_json.c, timeline_bake.c). */
#ifndef PROCMOTION_TRACING_INTERNAL_H
#define PROCMOTION_TRACING_INTERNAL_H

#include "procmotion/tracing.h"

#include "common/internal.h"
#include "tracing/report.h"

#include <cjson/cJSON.h>

/* Bone names a timeline JSON may key that its skeleton lacks (kept so the file writes back unchanged). */
#define PMI_TIMELINE_MAX_EXTRA_BONES 1024

#define PMI_TIMELINE_MAGIC 0x544c4e45u /* "TLNE" */
/* Beats closer than this are the same keyframe time. */
#define PMI_BEAT_EPSILON 1e-9
/* Largest coordinate a keyframe, trace or draft may hold (MMD units). */
#define PMI_MAX_COORD 1e6f

typedef struct pmi_keyframe {
    double beat;
    pm_easing easing;
    pm_quat *rot;   /* [joint_count], one block with trans */
    pm_vec3 *trans; /* [joint_count] */
    pm_trace trace[PM_LIMB_COUNT]; /* points owned (id 0: none, all zero) */
} pmi_keyframe;

typedef struct pmi_limb {
    bool ok;          /* the skeleton has the three bones */
    uint32_t bone[3]; /* root, middle, end */
    uint32_t ik;      /* MMD IK bone targeting the end (PM_NO_INDEX: none) */
    double reach;     /* rest length of the two bones */
} pmi_limb;

typedef struct pmi_draft {
    bool has;
    pm_trajectory_mode mode;
    uint32_t point_count;
    pm_vec3 points[PM_TRAJECTORY_MAX_POINTS];
    bool has_pole;
    pm_vec3 pole;
} pmi_draft;

/* A limb to solve on a path this frame: the trace, its pole and t lerped to the frame. */
typedef struct pmi_request {
    bool active;
    pm_trace tr;
} pmi_request;

/* Where a beat falls: between keyframes a and b (a == b at or after the last one) with eased
 * progress e; at_key: the beat is exactly keyframe a's. */
typedef struct pmi_segment {
    uint32_t a, b;
    double e;
    bool at_key;
} pmi_segment;

struct pm_timeline {
    uint32_t magic;
    pm_allocator allocator;
    const pm_skeleton *skeleton;
    uint32_t bone_count;
    uint32_t joint_count; /* bone_count + extra_count */
    uint32_t extra_count;
    pm_string *extra_names; /* [extra_count], strings in extra_arena */
    char *extra_arena;
    double bpm;
    uint32_t kf_count, kf_cap;
    pmi_keyframe *kf;
    uint32_t next_id;
    pmi_limb limbs[PM_LIMB_COUNT];
    pmi_draft drafts[PM_LIMB_COUNT];
    pm_pose_workspace *ws;
    pm_pose *pose;     /* scratch pose for capture, generation and baking */
    pm_quat *tmp_rot;  /* [joint_count] sampled locals */
    pm_vec3 *tmp_trans;
    pm_trace_state state[PM_LIMB_COUNT];
};

static inline bool pmi_same_quat(const pm_quat *a, const pm_quat *b) {
    return a->x == b->x && a->y == b->y && a->z == b->z && a->w == b->w;
}
static inline bool pmi_same_vec3(const pm_vec3 *a, const pm_vec3 *b) { return a->x == b->x && a->y == b->y && a->z == b->z; }
/* The identity rotation, no offset: a joint at rest (what a keyframe's JSON leaves out). */
static inline bool pmi_is_identity(const pm_quat *q) { return q->x == 0 && q->y == 0 && q->z == 0 && q->w == 1; }
static inline bool pmi_is_zero3(const pm_vec3 *t) { return t->x == 0 && t->y == 0 && t->z == 0; }

/* *out = *q normalised, but left bit-for-bit alone when it is already unit length to float precision (so
 * values survive a JSON round trip unchanged). */
static inline void pmi_unit_quat(pm_quat *out, const pm_quat *q) {
    float n2 = q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w;
    *out = n2 > 1.0f - 1e-6f && n2 < 1.0f + 1e-6f ? *q : pm_quat_normalize(*q);
}

/* timeline.c */
pm_result pmi_timeline_alloc(const pm_skeleton *skeleton, const pm_timeline_options *opts, uint32_t extra_count,
                             const char *const *extra_names, pm_timeline **out, pm_error *err);
uint32_t pmi_timeline_find_joint(const pm_timeline *tl, const char *name);
pm_result pmi_keyframe_init(pm_timeline *tl, pmi_keyframe *kf, pm_error *err);
void pmi_keyframe_release(pm_timeline *tl, pmi_keyframe *kf);
pm_result pmi_trace_copy(pm_timeline *tl, pm_trace *dst, const pm_trace *src, pm_error *err);
/* Check a keyframe description; `what` prefixes messages ("keyframe"). */
pm_result pmi_keyframe_check(const pm_timeline *tl, const pm_keyframe *kf, pm_error *err);
/* Take ownership of *kf (its arrays) and insert it sorted, replacing one at the same beat. */
pm_result pmi_timeline_insert(pm_timeline *tl, pmi_keyframe *kf, uint32_t *index, pm_error *err);
void pmi_timeline_locate(const pm_timeline *tl, double beat, pmi_segment *seg);
/* The limb's trace request for a segment (active false when the slerp applies). */
void pmi_timeline_request(const pm_timeline *tl, const pmi_segment *seg, pm_limb limb, pmi_request *req);
/* Sampled locals of every joint into tl->tmp_rot / tmp_trans. */
void pmi_timeline_sample(pm_timeline *tl, const pmi_segment *seg);
/* From the locals in pose->rotation / translation: evaluate, solve the requested limbs on their paths,
 * evaluate again. Fills tl->state. */
pm_result pmi_timeline_solve(pm_timeline *tl, pm_pose *pose, const pmi_request req[PM_LIMB_COUNT], pm_error *err);
double pmi_timeline_frame_of(double beat, double bpm);
/* A bpm in PM_TIMELINE_MIN_BPM..PM_TIMELINE_MAX_BPM, else PM_ERR_INVALID_ARGUMENT. */
pm_result pmi_timeline_check_bpm(double bpm, pm_error *err);

#endif
