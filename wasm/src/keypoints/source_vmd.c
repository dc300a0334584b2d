/* VMD -> keypoints: the motion played with the MMD-exact evaluator (procmotion/pose.h) on a model's own
 * skeleton, or on the built-in mannequin (procmotion/mannequin.h) when no model is given, mirrored to the
 * right-handed keypoint world frame. */
#include "kp_internal.h"
#include "math/inline.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

/* A key at frame 4294967295 asks for 2^32 frames (found by fuzzing: the count wrapped to 0). */
static pm_result too_many_frames(uint32_t last, pm_error *err) {
    return pmi_fail(err, PM_ERR_LIMIT, "keypoints: a key at frame %u asks for more frames than any limit", last);
}

#define MMD_FPS 30.0

/* The role a VMD name plays among the semi-standard (mmd) names. */
static pm_rig_role mmd_role(const char *name, size_t len) {
    pm_rig_resolve_options o = {PM_RIG_NAMING_BIT(PM_RIG_NAMING_MMD)};
    return pm_rig_name_role(name, len, &o, NULL);
}

/* Whether a 足ＩＫ (or 足IK) track has a key with a non-zero translation: the motion drives its legs by IK. */
static bool moves_leg_ik(const pm_vmd *vmd) {
    for (uint32_t i = 0; i < vmd->bones.count; i++) {
        const float *p = vmd->bones.position + (size_t)i * 3;
        if (p[0] == 0 && p[1] == 0 && p[2] == 0) continue;
        const pm_string *nm = &vmd->bone_names.items[vmd->bones.name_index[i]];
        pm_rig_role r = mmd_role(nm->data, nm->length);
        if (r == PM_RIG_LEFT_LEG_IK || r == PM_RIG_RIGHT_LEG_IK) return true;
    }
    return false;
}

/* ---- the motion played on a skeleton (pose.h) -------------------------------------------------------- */

typedef struct model_ctx {
    const pm_anim *anim;
    pm_pose_workspace *ws;
    pm_pose *pose;
} model_ctx;

static pm_result eval_model(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)time;
    model_ctx *m = ctx;
    pm_result r = pm_pose_evaluate(m->anim, m->ws, frame, m->pose, NULL, err);
    if (r) return r;
    for (uint32_t i = 0; i < m->pose->bone_count; i++)
        if (needed[i]) pmi_kp_mirror_z(&m->pose->world[i], &world[i]);
    return PM_OK;
}

pm_result pmi_kp_from_vmd(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    const pm_kp_options none = {0};
    if (!opts) opts = &none;
    const pm_allocator *a = &opts->allocator;
    pm_model_read_options mo = {.allocator = opts->allocator};
    pm_vmd_read_options vo = {.allocator = opts->allocator};
    pm_skeleton *sk = NULL;
    pm_vmd *vmd = NULL;
    pm_anim *anim = NULL;
    model_ctx m = {0};
    pmi_kp_rig rig;
    memset(&rig, 0, sizeof rig);
    pm_mannequin_options mq = {.allocator = opts->allocator};
    pm_result r = opts->model ? pm_model_read(opts->model, opts->model_size, &mo, &sk, err) : pm_mannequin_skeleton(&mq, &sk, err);
    if (r == PM_OK) r = pm_vmd_read(data, size, &vo, &vmd, err);
    pm_anim_bind_options bo = {.allocator = opts->allocator, .normalized_names = true};
    if (r == PM_OK) r = pm_anim_bind(sk, vmd, &bo, &anim, err);
    if (r == PM_OK) r = pm_pose_workspace_create(sk, a, &m.ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, a, &m.pose, err);
    if (r == PM_OK) r = pmi_kp_rig_alloc(&rig, a, sk->bone_count, err);
    if (r) goto done;
    m.anim = anim;
    pm_anim_info info;
    pm_anim_get_info(anim, &info);
    pm_kp_stats stats = {.format = PM_KP_FORMAT_VMD, .legs = PM_KP_LEGS_FK, .ignored_bones = info.unmatched_bone_count};
    if (moves_leg_ik(vmd)) stats.legs = PM_KP_LEGS_IK;
    else {
        /* an FK motion: the model's leg and toe IK would pin the feet to the IK bones' rest positions */
        pm_rig_roles roles;
        if ((r = pm_rig_resolve_skeleton(sk, NULL, &roles, err))) goto done;
        static const pm_rig_role legs_ik[4] = {PM_RIG_LEFT_LEG_IK, PM_RIG_RIGHT_LEG_IK, PM_RIG_LEFT_TOE_IK, PM_RIG_RIGHT_TOE_IK};
        for (int k = 0; k < 4; k++) {
            uint32_t b = roles.bone[legs_ik[k]];
            if (b != PM_NO_INDEX && sk->bones[b].has_ik && (r = pm_pose_set_ik_mode(m.ws, b, PM_IK_FORCE_OFF, err))) goto done;
        }
    }
    for (uint32_t i = 0; i < sk->bone_count; i++) {
        rig.names[i] = sk->bones[i].name;
        rig.parent[i] = sk->bones[i].parent;
        pm_mat4 t = pm_mat4_from_rotation_translation((pm_quat){0, 0, 0, 1}, sk->bones[i].position);
        pmi_kp_mirror_z(&t, &rig.rest[i]);
    }
    r = info.last_frame == UINT32_MAX ? too_many_frames(info.last_frame, err)
                                      : pmi_kp_run_rig(&rig, info.last_frame + 1, MMD_FPS, eval_model, &m, opts, &stats, out, err);
done:
    pmi_kp_rig_release(&rig, a);
    pm_pose_free(m.pose);
    pm_pose_workspace_free(m.ws);
    pm_anim_free(anim);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    return r;
}
