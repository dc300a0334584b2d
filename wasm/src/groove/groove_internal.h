/* Internal state of the groove module (groove.c: waves and the runtime layer, groove_config.c:
 * settings and JSON, groove_bake.c: the VMD bake). */
#ifndef PROCMOTION_GROOVE_INTERNAL_H
#define PROCMOTION_GROOVE_INTERNAL_H

#include "procmotion/groove.h"
#include "procmotion/rig.h"

#include "common/internal.h"
#include "groove/report.h"

#include <cjson/cJSON.h>

#define PMI_GROOVE_MAGIC 0x564f5247u /* "GROV" */

/* Limits of the settings (docs/groove.md). */
#define PMI_GROOVE_AMP_MAX 180.0
#define PMI_GROOVE_FREQ_MAX 16.0
#define PMI_GROOVE_VERTICAL_MAX 100.0
#define PMI_GROOVE_LATERAL_MAX 100.0
#define PMI_GROOVE_BPM_MAX 1000.0
/* 1 MMD unit = 8 cm */
#define PMI_GROOVE_CM_PER_UNIT 8.0

struct pm_groove {
    uint32_t magic;
    pm_allocator allocator;
    const pm_skeleton *skeleton;
    pm_groove_params params;
    pm_groove_info info;
    pm_vec3 forward;
    pm_pose_workspace *ws;
    pm_pose *pose;        /* the grooved pose */
    pm_quat *bone_offset; /* [bone_count] */
    bool has_anchor;
    pm_vec3 anchor[2];
    pm_quat anchor_rotation[2];
};

/* Check time and bpm (names them on failure). */
/* The rig role of a joint (its bone is found by role, so 上半身２ and English or VRoid names work). */
pm_rig_role pmi_groove_joint_role(uint32_t joint);

pm_result pmi_groove_check_clock(double time_seconds, double bpm, pm_error *err);

/* The layer on g->pose as it stands (animated locals already in place, IK states in g->ws): joint
 * offsets, evaluation, squat bounce. pm_groove_offsets copies the caller's pose in and calls this; the
 * bake samples straight into g->pose. */
pm_result pmi_groove_apply(pm_groove *g, double beat, uint32_t flags, pm_groove_frame *out, pm_error *err);

#endif
