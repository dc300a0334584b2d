/* Pose exports: a VMD bound to a skeleton and evaluated per frame, world matrices and positions read
 * back from module memory, IK modes, and the analytic two-bone IK.
 *
 * Handles: `skeleton` is a pm_skeleton* from the skeleton/PMX exports, `vmd` a pm_vmd* from
 * pm_abi_vmd_read (or 0 for the rest pose). The VMD is read only during pm_abi_pose_create (its keys
 * are copied); the skeleton must live until pm_abi_pose_free. Functions returning
 * int32 return 0 (PM_OK) or a pm_result with a message in errbuf (PM_ABI_ERROR_SIZE bytes). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/ik.h"
#include "procmotion/pose.h"
#include "math/inline.h"

#include <math.h>

/* Slots of pm_abi_pose_info and pm_abi_two_bone_ik (pm_abi_table.h). */
enum { PM_ABI_LAYOUT_POSE_INFO(PM_ABI_SLOT_ENUM, INFO_) INFO_COUNT };
enum { PM_ABI_LAYOUT_TWO_BONE_IN(PM_ABI_SLOT_ENUM, IN_) IN_COUNT };
enum { PM_ABI_LAYOUT_TWO_BONE_OUT(PM_ABI_SLOT_ENUM, OUT_) OUT_COUNT };
PM_ABI_ENUM_POSE_FLAG(PM_ABI_CHECK_ENUM, pose_flag)
PM_ABI_ENUM_IK_MODE(PM_ABI_CHECK_ENUM, ik_mode)

typedef struct pm_abi_pose {
    const pm_skeleton *skeleton;
    pm_anim *anim;
    pm_pose_workspace *ws;
    pm_pose *pose;
} pm_abi_pose;

PM_EXPORT void pm_abi_pose_free(pm_abi_pose *p) {
    if (!p) return;
    pm_pose_free(p->pose);
    pm_pose_workspace_free(p->ws);
    pm_anim_free(p->anim);
    pmi_free(NULL, p);
}

/* Bind `vmd` (may be 0) to `skeleton` and make the per-skeleton workspace and pose buffers.
 * Returns the handle (free with pm_abi_pose_free) or 0 with a message in errbuf. */
PM_EXPORT pm_abi_pose *pm_abi_pose_create(const pm_skeleton *skeleton, const pm_vmd *vmd, char *errbuf) {
    pm_error err = {0};
    pm_abi_pose *p = pmi_alloc_array(NULL, 1, sizeof *p, &err, "abi: pose");
    pm_result r = p ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    if (r == PM_OK) p->skeleton = skeleton;
    if (r == PM_OK && vmd) r = pm_anim_bind(skeleton, vmd, NULL, &p->anim, &err);
    if (r == PM_OK) r = pm_pose_workspace_create(skeleton, NULL, &p->ws, &err);
    if (r == PM_OK) r = pm_pose_create(skeleton, NULL, &p->pose, &err);
    if (r != PM_OK) {
        pm_abi_fail(errbuf, &err, r);
        pm_abi_pose_free(p);
        return NULL;
    }
    return p;
}

/* Counts of the binding, written to out (INFO_COUNT slots): tracks, keys, unmatched bone names,
 * unmatched IK names, property keys, first frame, last frame. */
PM_EXPORT void pm_abi_pose_info(const pm_abi_pose *p, uint32_t *out) {
    pm_anim_info info = {0};
    if (p) pm_anim_get_info(p->anim, &info);
    out[INFO_TRACKS] = info.track_count, out[INFO_KEYS] = info.key_count;
    out[INFO_UNMATCHED_BONES] = info.unmatched_bone_count, out[INFO_UNMATCHED_IK] = info.unmatched_ik_count;
    out[INFO_PROPERTY_KEYS] = info.property_key_count;
    out[INFO_FIRST_FRAME] = info.first_frame, out[INFO_LAST_FRAME] = info.last_frame;
}

/* The i-th unmatched bone name (kind 0) or IK name (kind 1): UTF-8 address, length in *len. */
PM_EXPORT const char *pm_abi_pose_unmatched(const pm_abi_pose *p, uint32_t kind, uint32_t i, uint32_t *len) {
    pm_string s = {"", 0};
    if (p) s = kind ? pm_anim_unmatched_ik(p->anim, i) : pm_anim_unmatched_bone(p->anim, i);
    *len = s.length;
    return s.data;
}

/* Module-memory arrays of the pose, valid until pm_abi_pose_free: world matrices (16 floats per bone,
 * column-major, translation at 12..14), animated local rotations (x, y, z, w per bone) and offsets
 * (x, y, z per bone; the host may overwrite both before pm_abi_pose_evaluate_local), final local
 * rotations and offsets after append and IK. */
PM_EXPORT float *pm_abi_pose_world(pm_abi_pose *p) { return p ? (float *)p->pose->world : NULL; }
PM_EXPORT float *pm_abi_pose_rotations(pm_abi_pose *p) { return p ? (float *)p->pose->rotation : NULL; }
PM_EXPORT float *pm_abi_pose_translations(pm_abi_pose *p) { return p ? (float *)p->pose->translation : NULL; }
PM_EXPORT float *pm_abi_pose_final_rotations(pm_abi_pose *p) { return p ? (float *)p->pose->final_rotation : NULL; }
PM_EXPORT float *pm_abi_pose_final_translations(pm_abi_pose *p) {
    return p ? (float *)p->pose->final_translation : NULL;
}

/* Sample the motion at `frame` into the local arrays only (and the IK states of its property keys). */
PM_EXPORT int32_t pm_abi_pose_sample(pm_abi_pose *p, double frame, char *errbuf) {
    pm_error err = {0};
    pm_result r = p ? pm_pose_sample(p->anim, p->ws, frame, p->pose, &err)
                    : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no pose handle");
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* World matrices from the local arrays as they are; flags are PM_POSE_* (1 = no IK, 2 = no append). */
PM_EXPORT int32_t pm_abi_pose_evaluate_local(pm_abi_pose *p, uint32_t flags, char *errbuf) {
    pm_error err = {0};
    pm_pose_options opts = {flags, 0};
    pm_result r = p ? pm_pose_evaluate_local(p->ws, p->pose, &opts, &err)
                    : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no pose handle");
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Sample + evaluate_local. */
PM_EXPORT int32_t pm_abi_pose_evaluate(pm_abi_pose *p, double frame, uint32_t flags, char *errbuf) {
    int32_t r = pm_abi_pose_sample(p, frame, errbuf);
    return r ? r : pm_abi_pose_evaluate_local(p, flags, errbuf);
}

/* World positions of every bone for frames first, first + step, ... (count frames) into out
 * (count * bone_count * 3 floats, frame-major; out_floats is the buffer's size in floats). The pose's
 * world matrices hold the last frame afterwards; its final rotation and offset arrays are not updated. */
PM_EXPORT int32_t pm_abi_pose_positions(pm_abi_pose *p, double first, double step, uint32_t count, uint32_t flags,
                                        float *out, uint32_t out_floats, char *errbuf) {
    pm_error err = {0};
    if (!p || !out)
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no pose handle or buffer"));
    const uint32_t n = p->pose->bone_count;
    if (n && count > out_floats / 3 / n)
        return pm_abi_fail(errbuf, &err,
                       pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: %u frames of %u bones need %u floats, got %u",
                                count, n, count * 3 * n, out_floats));
    if (!isfinite(first) || !isfinite(step))
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: first or step is not finite"));
    /* only the world matrices are read: the final rotations and offsets are not stored meanwhile */
    pm_pose pose = *p->pose;
    pose.final_rotation = NULL, pose.final_translation = NULL;
    pm_pose_options opts = {flags, 0};
    for (uint32_t f = 0; f < count; f++) {
        pm_result r = pm_pose_evaluate(p->anim, p->ws, first + step * f, &pose, &opts, &err);
        if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
        float *o = out + (size_t)f * n * 3;
        for (uint32_t b = 0; b < n; b++) memcpy(o + (size_t)b * 3, &pose.world[b].m[12], 3 * sizeof(float));
    }
    return 0;
}

/* IK mode of an IK bone: 0 = property keys decide, 1 = forced on, 2 = forced off. */
PM_EXPORT int32_t pm_abi_pose_set_ik_mode(pm_abi_pose *p, uint32_t bone, uint32_t mode, char *errbuf) {
    pm_error err = {0};
    pm_result r = p ? pm_pose_set_ik_mode(p->ws, bone, (pm_ik_mode)mode, &err)
                    : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no pose handle");
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Whether the IK of `bone` was on in the last evaluation. */
PM_EXPORT uint32_t pm_abi_pose_ik_enabled(const pm_abi_pose *p, uint32_t bone) {
    return p && pm_pose_ik_enabled(p->ws, bone) ? 1 : 0;
}

/*
 * Two-bone IK. in: IN_COUNT floats = root, mid, end, target, pole (x, y, z each). out: OUT_COUNT floats
 * = root_delta (x, y, z, w), mid_delta (x, y, z, w), solved mid (3), solved end (3), miss, reached (0/1).
 */
PM_EXPORT int32_t pm_abi_two_bone_ik(const float *in, float *out, char *errbuf) {
    pm_error err = {0};
    if (!in || !out) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no buffers"));
#define V(slot) pmi_vec3_make(in[slot], in[(slot) + 1], in[(slot) + 2])
    pm_two_bone_ik_result res;
    pm_result r = pm_two_bone_ik(V(IN_ROOT), V(IN_MID), V(IN_END), V(IN_TARGET), V(IN_POLE), &res, &err);
#undef V
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    memcpy(out + OUT_ROOT_ROTATION, &res.root_delta, 4 * sizeof(float));
    memcpy(out + OUT_MID_ROTATION, &res.mid_delta, 4 * sizeof(float));
    memcpy(out + OUT_MID, &res.mid, 3 * sizeof(float));
    memcpy(out + OUT_END, &res.end, 3 * sizeof(float));
    out[OUT_MISS] = res.miss;
    out[OUT_REACHED] = res.reached ? 1.0f : 0.0f;
    return 0;
}
