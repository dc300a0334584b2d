/* Groove: waves, the beat clock, the runtime layer (joint offsets, squat bounce with analytic leg IK
 * and ankle lock) and preview stepping (see procmotion/groove.h). */
#include "groove_internal.h"
#include "math/inline.h"

#include "beats/grid.h"

#include "procmotion/ik.h"

#include <math.h>

/* ---- waves and the clock ------------------------------------------------------------------------ */

double pm_groove_wave_value(uint32_t wave, double p) {
    if (!isfinite(p)) return 0;
    p -= floor(p);
    double c = 2.0 * PM_PI * p;
    return wave == PM_GROOVE_SINE ? sin(c) : 0.5 * (1.0 - cos(c));
}

double pm_groove_beat(double seconds, double bpm) { return seconds * bpm / 60.0; }

double pm_groove_joint_angle(const pm_groove_joint *joint, double beat) {
    if (!joint) return 0;
    return joint->amp * pm_groove_wave_value(joint->wave, joint->freq * beat - joint->phase);
}

pm_quat pm_groove_joint_offset(const pm_groove_joint *joint, double beat) {
    pm_quat q = pmi_quat_identity();
    if (!joint || joint->axis >= PM_GROOVE_AXIS_COUNT) return q;
    double half = pm_groove_joint_angle(joint, beat) * (PM_PI / 180.0) * 0.5;
    if (!isfinite(half)) return q;
    float s = (float)sin(half);
    q.w = (float)cos(half);
    if (joint->axis == PM_GROOVE_AXIS_X) q.x = s;
    else if (joint->axis == PM_GROOVE_AXIS_Y) q.y = s;
    else q.z = s;
    return q;
}

pm_vec3 pm_groove_body_offset(const pm_groove_squat *squat, double beat) {
    pm_vec3 v = {0, 0, 0};
    if (!squat || !squat->enabled) return v;
    double p = squat->freq * beat - squat->phase;
    double u = squat->wave == PM_GROOVE_SINE ? 0.5 * (1.0 + pm_groove_wave_value(PM_GROOVE_SINE, p))
                                             : pm_groove_wave_value(PM_GROOVE_BOUNCE, p);
    double x = squat->lateral * pm_groove_wave_value(PM_GROOVE_SINE, p) / PMI_GROOVE_CM_PER_UNIT;
    double y = squat->vertical * (u - 1.0) / PMI_GROOVE_CM_PER_UNIT;
    if (isfinite(x) && isfinite(y)) v = pmi_vec3_make((float)x, (float)y, 0.0f);
    return v;
}

pm_result pmi_groove_check_clock(double time_seconds, double bpm, pm_error *err) {
    if (!isfinite(time_seconds)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: time is not finite");
    if (!isfinite(bpm) || !(bpm > 0) || bpm > PMI_GROOVE_BPM_MAX)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: bpm must be a number in (0, %g], got %g",
                        PMI_GROOVE_BPM_MAX, bpm);
    return PM_OK;
}

/* ---- resolving bones ----------------------------------------------------------------------------- */

static const pm_rig_role LEG_ROLES[3] = {PM_RIG_LEFT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_LEFT_ANKLE};

static bool descends(const pm_skeleton *sk, uint32_t bone, uint32_t ancestor) {
    uint32_t p = sk->bones[bone].parent;
    for (uint32_t steps = 0; p != PM_NO_INDEX && steps <= sk->bone_count; steps++, p = sk->bones[p].parent)
        if (p == ancestor) return true;
    return false;
}

static pm_result resolve_bones(const pm_skeleton *sk, pm_groove_info *info, pm_error *err) {
    memset(info, 0, sizeof *info);
    pm_rig_roles roles;
    pm_result r = pm_rig_resolve_skeleton(sk, NULL, &roles, err);
    if (r) return r;
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) {
        info->joint_bone[j] = roles.bone[pmi_groove_joint_role(j)];
        if (info->joint_bone[j] == PM_NO_INDEX) info->skipped[info->skipped_count++] = pm_groove_joint_name(j);
    }
    bool legs = true;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            info->leg_bone[s][k] = roles.bone[PM_RIG_SIDED(LEG_ROLES[k], s)];
            if (info->leg_bone[s][k] == PM_NO_INDEX) legs = false;
        }
    for (int s = 0; s < 2 && legs; s++)
        legs = descends(sk, info->leg_bone[s][1], info->leg_bone[s][0]) &&
               descends(sk, info->leg_bone[s][2], info->leg_bone[s][1]);
    info->body_bone = roles.bone[PM_RIG_GROOVE];
    if (info->body_bone == PM_NO_INDEX) info->body_bone = roles.bone[PM_RIG_CENTER];
    if (info->body_bone == PM_NO_INDEX && info->leg_bone[0][0] != PM_NO_INDEX) {
        uint32_t r = info->leg_bone[0][0];
        for (uint32_t steps = 0; sk->bones[r].parent != PM_NO_INDEX && steps <= sk->bone_count; steps++)
            r = sk->bones[r].parent;
        if (r != info->leg_bone[0][0]) info->body_bone = r;
    }
    /* the body must carry both hips */
    if (info->body_bone == PM_NO_INDEX) legs = false;
    for (int s = 0; s < 2 && legs; s++) legs = descends(sk, info->leg_bone[s][0], info->body_bone);
    /* IK chains through the legs */
    bool knee_ik[2] = {false, false};
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        const pm_bone *bone = &sk->bones[b];
        if (!bone->has_ik) continue;
        bool leg = false;
        for (uint32_t k = 0; k < bone->ik.link_count; k++)
            for (int s = 0; s < 2; s++)
                for (int m = 0; m < 3; m++)
                    if (bone->ik.links[k].bone == info->leg_bone[s][m]) {
                        leg = true;
                        if (m == 1) knee_ik[s] = true;
                    }
        if (leg && info->leg_ik_count < sizeof info->leg_ik / sizeof info->leg_ik[0])
            info->leg_ik[info->leg_ik_count++] = b;
    }
    info->leg_mode = !legs ? PM_GROOVE_LEGS_NONE
                     : knee_ik[0] && knee_ik[1] ? PM_GROOVE_LEGS_MMD_IK
                                                : PM_GROOVE_LEGS_ANALYTIC;
    if (!legs) info->skipped[info->skipped_count++] = "squat";
    return PM_OK;
}

/* ---- the runtime layer --------------------------------------------------------------------------- */

void pm_groove_free(pm_groove *g) {
    if (!g || g->magic != PMI_GROOVE_MAGIC) return;
    pm_pose_free(g->pose);
    pm_pose_workspace_free(g->ws);
    pmi_free(&g->allocator, g->bone_offset);
    g->magic = 0;
    pm_allocator a = g->allocator;
    pmi_free(&a, g);
}

pm_result pm_groove_create(const pm_skeleton *skeleton, const pm_groove_config *cfg, const pm_groove_options *opts,
                           pm_groove **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: create needs an output");
    *out = NULL;
    if (!skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: create needs a skeleton");
    pm_groove_options o = {0};
    if (opts) o = *opts;
    if (!isfinite(o.forward.x) || !isfinite(o.forward.y) || !isfinite(o.forward.z))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: forward is not finite");
    if (pmi_vec3_length(o.forward) == 0) o.forward = pmi_vec3_make(0, 0, -1);
    pm_groove_params params;
    pm_result r = pm_groove_config_resolve(cfg, &params, err);
    if (r != PM_OK) return r;
    pm_groove *g = pmi_alloc_array(&o.allocator, 1, sizeof *g, err, "groove");
    if (!g) return PM_ERR_OUT_OF_MEMORY;
    g->magic = PMI_GROOVE_MAGIC;
    g->allocator = o.allocator;
    g->skeleton = skeleton;
    g->params = params;
    g->forward = pmi_vec3_normalize(o.forward);
    r = pm_pose_workspace_create(skeleton, &g->allocator, &g->ws, err);
    if (r == PM_OK) r = pm_pose_create(skeleton, &g->allocator, &g->pose, err);
    if (r == PM_OK) {
        g->bone_offset = pmi_alloc_array(&g->allocator, skeleton->bone_count, sizeof *g->bone_offset, err, "groove: offsets");
        if (!g->bone_offset) r = PM_ERR_OUT_OF_MEMORY;
    }
    if (r == PM_OK) r = resolve_bones(skeleton, &g->info, err);
    if (r != PM_OK) {
        pm_groove_free(g);
        return r;
    }
    for (uint32_t b = 0; b < skeleton->bone_count; b++) g->bone_offset[b] = pmi_quat_identity();
    *out = g;
    return PM_OK;
}

static pm_result check_groove(const pm_groove *g, pm_error *err) {
    if (!g || g->magic != PMI_GROOVE_MAGIC) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: not a groove");
    return PM_OK;
}

pm_result pm_groove_set_config(pm_groove *g, const pm_groove_config *cfg, pm_error *err) {
    pm_result r = check_groove(g, err);
    if (r != PM_OK) return r;
    pm_groove_params params;
    if ((r = pm_groove_config_resolve(cfg, &params, err)) != PM_OK) return r;
    g->params = params;
    return PM_OK;
}

void pm_groove_get_info(const pm_groove *g, pm_groove_info *info) {
    if (!info) return;
    if (g && g->magic == PMI_GROOVE_MAGIC) *info = g->info;
    else memset(info, 0, sizeof *info);
}

const pm_groove_params *pm_groove_get_params(const pm_groove *g) {
    return g && g->magic == PMI_GROOVE_MAGIC ? &g->params : NULL;
}

pm_pose_workspace *pm_groove_workspace(pm_groove *g) { return g && g->magic == PMI_GROOVE_MAGIC ? g->ws : NULL; }

void pm_groove_reset_anchors(pm_groove *g) {
    if (g && g->magic == PMI_GROOVE_MAGIC) g->has_anchor = false;
}

const pm_pose *pm_groove_pose(const pm_groove *g) { return g && g->magic == PMI_GROOVE_MAGIC ? g->pose : NULL; }

static pm_quat world_rotation(const pm_pose *pose, uint32_t bone) {
    return bone == PM_NO_INDEX ? pmi_quat_identity() : pm_quat_normalize(pm_mat4_get_rotation(&pose->world[bone]));
}

/* Put the ankle's world rotation back on its anchor: its final local rotation becomes
 * parent_world^-1 * anchor; the animated rotation is changed through whatever correction (IK) stands
 * in front of it (final = X * rotation, so rotation' = rotation * final^-1 * wanted). */
static pm_result lock_ankle(pm_groove *g, uint32_t ankle, pm_quat anchor, pm_error *err) {
    pm_pose *pose = g->pose;
    pm_quat parent = world_rotation(pose, g->skeleton->bones[ankle].parent);
    pm_quat wanted = pm_quat_mul(pmi_quat_conjugate(parent), anchor);
    pm_quat fin = pm_quat_normalize(pose->final_rotation[ankle]);
    pose->rotation[ankle] =
        pm_quat_normalize(pm_quat_mul(pm_quat_mul(pose->rotation[ankle], pmi_quat_conjugate(fin)), wanted));
    return pm_pose_update_subtree(g->ws, pose, ankle, NULL, err);
}

static pm_result squat(pm_groove *g, double beat, pm_groove_frame *out, pm_error *err) {
    pm_pose *pose = g->pose;
    const pm_groove_info *in = &g->info;
    if (!g->has_anchor) {
        for (int s = 0; s < 2; s++) {
            g->anchor[s] = pm_pose_world_position(pose, in->leg_bone[s][2]);
            g->anchor_rotation[s] = world_rotation(pose, in->leg_bone[s][2]);
        }
        g->has_anchor = true;
    }
    const uint32_t body = in->body_bone;
    out->body_offset = pm_groove_body_offset(&g->params.squat, beat);
    pose->translation[body] = pmi_vec3_add(pose->translation[body], out->body_offset);
    pm_result r = pm_pose_update_subtree(g->ws, pose, body, NULL, err);
    if (r != PM_OK) return r;
    const pm_vec3 forward = pm_quat_rotate(world_rotation(pose, body), g->forward);
    for (int s = 0; s < 2; s++) {
        const uint32_t *leg = in->leg_bone[s];
        if ((r = pm_pose_leg_ik(g->ws, pose, leg[0], leg[1], leg[2], g->anchor[s], forward, NULL, err)) != PM_OK)
            return r;
        if ((r = lock_ankle(g, leg[2], g->anchor_rotation[s], err)) != PM_OK) return r;
        out->foot_error[s] = pmi_vec3_distance(pm_pose_world_position(pose, leg[2]), g->anchor[s]);
        out->anchor[s] = g->anchor[s];
        out->anchor_rotation[s] = g->anchor_rotation[s];
    }
    out->legs_solved = true;
    return PM_OK;
}

pm_result pmi_groove_apply(pm_groove *g, double beat, uint32_t flags, pm_groove_frame *out, pm_error *err) {
    pm_pose *pose = g->pose;
    const pm_groove_info *in = &g->info;
    memset(out, 0, sizeof *out);
    out->beat = beat;
    out->bone_offset = g->bone_offset;
    out->body_bone = in->body_bone;
    out->pose = pose;
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) {
        const uint32_t b = in->joint_bone[j];
        pm_quat q = b == PM_NO_INDEX ? pmi_quat_identity() : pm_groove_joint_offset(&g->params.joints[j], beat);
        out->joint_offset[j] = q;
        if (b == PM_NO_INDEX) continue;
        g->bone_offset[b] = q;
        pose->rotation[b] = pm_quat_mul(pose->rotation[b], q);
    }
    const bool yield = (flags & PM_GROOVE_LEG_IK_USER) != 0;
    if (yield || (flags & PM_GROOVE_RESET_ANCHORS)) g->has_anchor = false;
    const bool bounce = g->params.squat.enabled && in->leg_mode != PM_GROOVE_LEGS_NONE && !yield;
    const bool only = (flags & PM_GROOVE_OFFSETS_ONLY) != 0;
    if (only && bounce) {
        /* the animated values only (a viewer's or player's own leg IK plants the feet) */
        out->body_offset = pm_groove_body_offset(&g->params.squat, beat);
        pose->translation[in->body_bone] = pmi_vec3_add(pose->translation[in->body_bone], out->body_offset);
    }
    pm_result r = only ? PM_OK : pm_pose_evaluate_local(g->ws, pose, NULL, err);
    if (r == PM_OK && bounce && !only) r = squat(g, beat, out, err);
    if (r != PM_OK) return r;
    /* the leg rotations to set (after IK); with offsets only, the animated ones */
    const pm_quat *legs = only ? pose->rotation : pose->final_rotation;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            const uint32_t b = in->leg_bone[s][k];
            out->leg_bone[3 * s + k] = b;
            out->leg_rotation[3 * s + k] = b == PM_NO_INDEX ? pmi_quat_identity() : legs[b];
        }
    return PM_OK;
}

pm_result pm_groove_offsets(pm_groove *g, const pm_pose *pose, double time_seconds, double bpm, uint32_t flags,
                            pm_groove_frame *out, pm_error *err) {
    pm_result r = check_groove(g, err);
    if (r != PM_OK) return r;
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: offsets needs an output");
    if ((r = pmi_groove_check_clock(time_seconds, bpm, err)) != PM_OK) return r;
    const uint32_t n = g->skeleton->bone_count;
    if (pose && (pose->bone_count != n || !pose->rotation))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: the pose has %u bones (rotations %s), the skeleton %u",
                        pose->bone_count, pose->rotation ? "given" : "missing", n);
    pm_pose *mine = g->pose;
    for (uint32_t b = 0; b < n; b++) {
        mine->rotation[b] = pose ? pose->rotation[b] : pmi_quat_identity();
        mine->translation[b] = pose && pose->translation ? pose->translation[b] : pmi_vec3_make(0, 0, 0);
    }
    return pmi_groove_apply(g, pm_groove_beat(time_seconds, bpm), flags, out, err);
}

pm_result pm_groove_offsets_grid(pm_groove *g, const pm_pose *pose, double time_seconds, const pm_beat_grid *grid, uint32_t flags,
                                 pm_groove_frame *out, pm_error *err) {
    pm_result r = pmi_beat_grid_check_for("groove", grid, UINT32_MAX, err);
    if (r != PM_OK) return r;
    if (!isfinite(time_seconds)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: time is not finite");
    /* the same layer at the grid's beat: pm_groove_offsets at a tempo of one beat a second */
    return pm_groove_offsets(g, pose, pm_beat_grid_beat(grid, time_seconds), 60.0, flags, out, err);
}

/* ---- preview without playback -------------------------------------------------------------------- */

/* Did the position keep what the stepper wrote (in double, or rounded to float by its holder)? */
static bool untouched(const pm_groove_preview *p, int k, double v) {
    return v == p->written[k] || v == (double)(float)p->written[k];
}

void pm_groove_preview_step(pm_groove_preview *p, double position[3], pm_vec3 offset) {
    if (!p || !position) return;
    const double off[3] = {offset.x, offset.y, offset.z};
    for (int k = 0; k < 3; k++) {
        double base = !p->active          ? position[k]
                      : untouched(p, k, position[k]) ? p->base[k]
                                                     : position[k] - p->offset[k];
        if (!isfinite(base)) base = 0;
        const double o = isfinite(off[k]) ? off[k] : 0;
        p->base[k] = base;
        p->offset[k] = o;
        position[k] = p->written[k] = base + o;
    }
    p->active = true;
}

void pm_groove_preview_stop(pm_groove_preview *p, double position[3]) {
    if (!p || !position || !p->active) return;
    for (int k = 0; k < 3; k++)
        position[k] = untouched(p, k, position[k]) ? p->base[k] : position[k] - p->offset[k];
    p->active = false;
}

pm_result pm_groove_preview_update(const pm_groove *g, pm_groove_preview *preview, double position[3],
                                   double time_seconds, double bpm, uint32_t flags, pm_error *err) {
    pm_result r = check_groove(g, err);
    if (r != PM_OK) return r;
    if (!preview || !position) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: preview needs a state and a position");
    if ((r = pmi_groove_check_clock(time_seconds, bpm, err)) != PM_OK) return r;
    pm_vec3 off = {0, 0, 0};
    if (g->info.leg_mode != PM_GROOVE_LEGS_NONE && !(flags & PM_GROOVE_LEG_IK_USER))
        off = pm_groove_body_offset(&g->params.squat, pm_groove_beat(time_seconds, bpm));
    pm_groove_preview_step(preview, position, off);
    return PM_OK;
}
