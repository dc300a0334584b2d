/* BVH -> keypoints: the file's joints as a rig, FK per frame (or resampled to options.fps). */
#include "kp_internal.h"
#include "procmotion/bvh.h"
#include "math/inline.h"

#include <math.h>

typedef struct bvh_ctx {
    const pm_bvh *bvh;
    bool resample;
} bvh_ctx;

static pm_result eval_bvh(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)needed; /* FK needs every ancestor anyway */
    const bvh_ctx *c = ctx;
    if (c->resample) return pm_bvh_sample(c->bvh, time, world, err);
    return pm_bvh_world_matrices(c->bvh, c->bvh->frame_count ? frame : 0, world, err);
}

pm_result pmi_kp_from_bvh(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    pm_bvh_read_options ro = {0};
    if (opts) ro.allocator = opts->allocator;
    pm_bvh *b = NULL;
    pm_result r = pm_bvh_read(data, size, &ro, &b, err);
    if (r) return r;
    const pm_allocator *a = &b->allocator;
    pmi_kp_rig rig;
    if ((r = pmi_kp_rig_alloc(&rig, a, b->joint_count, err))) goto done;
    for (uint32_t j = 0; j < b->joint_count; j++) {
        const pm_bvh_joint *jt = &b->joints[j];
        rig.names[j] = jt->name;
        rig.parent[j] = jt->parent;
        rig.candidate[j] = !jt->end_site;
        pm_mat4 local = pm_mat4_from_rotation_translation(pmi_quat_identity(), jt->offset);
        rig.rest[j] = jt->parent == PM_NO_INDEX ? local : pm_mat4_mul(&rig.rest[jt->parent], &local);
    }
    /* files round the frame time (".0333333", ".0083333"): a rate within 0.01 % of a whole number is that number */
    double native = 1.0 / b->frame_time;
    if (fabs(native - floor(native + 0.5)) < 1e-4 * native) native = floor(native + 0.5);
    double fps = opts && opts->fps > 0 ? opts->fps : native; /* pm_kp_from_data checked opts->fps */
    bvh_ctx ctx = {b, fps != native};
    uint32_t frames = b->frame_count ? b->frame_count : 1;
    if (ctx.resample && b->frame_count > 1 &&
        (r = pmi_kp_frames_for((b->frame_count - 1) * b->frame_time, fps, opts, &frames, err)))
        goto done;
    pm_kp_stats stats = {.format = PM_KP_FORMAT_BVH};
    r = pmi_kp_run_rig(&rig, frames, fps, eval_bvh, &ctx, opts, &stats, out, err);
done:
    pmi_kp_rig_release(&rig, a);
    pm_bvh_free(b);
    return r;
}
