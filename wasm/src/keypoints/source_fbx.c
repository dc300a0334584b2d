/* FBX -> keypoints: the file's models as a rig (its bones as the name candidates), one animation stack
 * sampled at 30 fps (or options.fps); no animation gives one rest frame. */
#include "kp_internal.h"
#include "procmotion/fbx.h"

typedef struct fbx_ctx {
    const pm_fbx *f;
    uint32_t stack;
} fbx_ctx;

static pm_result eval_fbx(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)needed; /* FK needs every ancestor anyway */
    (void)frame;
    const fbx_ctx *c = ctx;
    return pm_fbx_world_matrices(c->f, c->stack, time, world, err);
}

pm_result pmi_kp_from_fbx(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    pm_fbx_read_options ro = {0};
    if (opts) ro.allocator = opts->allocator;
    pm_fbx *f = NULL;
    pm_result r = pm_fbx_read(data, size, &ro, &f, err);
    if (r) return r;
    const pm_allocator *a = &f->allocator;
    pmi_kp_rig rig;
    if ((r = pmi_kp_rig_alloc(&rig, a, f->model_count, err))) goto done;
    for (uint32_t i = 0; i < f->model_count; i++) {
        rig.names[i] = f->models[i].name;
        rig.parent[i] = f->models[i].parent;
        rig.candidate[i] = f->models[i].bone;
    }
    if ((r = pm_fbx_world_matrices(f, PM_NO_INDEX, 0, rig.rest, err))) goto done;
    uint32_t stack = opts ? opts->animation : 0;
    if (f->stack_count == 0) stack = PM_NO_INDEX;
    else if (stack >= f->stack_count) {
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: animation %u requested, the file has %u", stack, f->stack_count);
        goto done;
    }
    double fps = opts && opts->fps > 0 ? opts->fps : 30.0;
    uint32_t frames = 1;
    if (stack != PM_NO_INDEX && (r = pmi_kp_frames_for(f->stacks[stack].duration, fps, opts, &frames, err))) goto done;
    fbx_ctx ctx = {f, stack};
    pm_kp_stats stats = {.format = PM_KP_FORMAT_FBX};
    r = pmi_kp_run_rig(&rig, frames, fps, eval_fbx, &ctx, opts, &stats, out, err);
done:
    pmi_kp_rig_release(&rig, a);
    pm_fbx_free(f);
    return r;
}
