/* Internal: the idle generator's state, shared by its files. */
#ifndef PROCMOTION_IDLE_INTERNAL_H
#define PROCMOTION_IDLE_INTERNAL_H

#include "common/internal.h"
#include "math/inline.h"
#include "procmotion/idle.h"

#include <cjson/cJSON.h>

enum { IDLE_MAX_SEGMENTS = 96, IDLE_MAX_GESTURES = 40, IDLE_MAX_BONES = 31 };

/* One move of a cyclic sequence: from the previous segment's value to this one's, over [start, start +
 * move] (units while planning, frames after), then held. */
typedef struct idle_segment {
    double start, move;
    double value[2];
} idle_segment;

typedef struct idle_seq {
    uint32_t count;
    idle_segment seg[IDLE_MAX_SEGMENTS];
} idle_seq;

typedef struct idle_gesture {
    pm_idle_event_kind kind;
    uint32_t side;           /* the hand of a one-handed gesture: 0 left, 1 right */
    uint32_t hands;          /* bit 0 left, bit 1 right */
    double start, reach, hold, back; /* units while planning, frames after */
    double strokes;          /* small moves during the hold */
    double head[3];          /* where the head looks meanwhile: yaw, pitch, roll (radians, world) */
    pmi_dq arm[2][2], elbow[2][2]; /* per hand: the IK poses at both ends of the hold's move */
} idle_gesture;

typedef struct idle {
    pm_idle_params p;
    pm_rig *rig;
    uint32_t idx[IDLE_MAX_BONES];
    const char *name[IDLE_MAX_BONES];
    pmi_dv pos[IDLE_MAX_BONES];
    int pelvis_bone;
    bool pelvis_parents_upper;
    double leg_len, arm_len, torso_h;
    double reach[2];
    pmi_dv ankle[2];
    pmi_dq ik_rot[2];
    /* amounts */
    double sway, pelvis_roll;
    pmi_dq hang[2], hang_elbow[2];
    pmi_dv elbow_axis[2];
    double hang_deg, crouch;
    /* timing */
    double bpm, unit, phase, loop_units;
    uint32_t Lf;
    double breath_frames;
    int64_t drift_cells, arm_cells;
    idle_seq shifts, looks;
    uint32_t gesture_count;
    idle_gesture gestures[IDLE_MAX_GESTURES];
    double *pendulum; /* [2][pendulum_n]: the arms' swing (radians) every half frame of the schedule */
    uint32_t pendulum_n;
} idle;

/* Everything keyed, at one instant. */
typedef struct idle_pose {
    pmi_dv center;
    pmi_dq pelvis, upper, upper2, neck, head, eyes;
    pmi_dq shoulder[2], arm[2], elbow[2], wrist[2], ik_rot[2];
    double crouch_need;
} idle_pose;

/* Every amount filled in and checked (idle_params.c). */
pm_result pmi_idle_resolve_params(const pm_idle_params *in, pm_idle_params *out, pm_error *err);
/* The parameters used as JSON, under the JSON names. */
void pmi_idle_params_json(cJSON *obj, const pm_idle_params *p, bool *ok);

#endif
