/* glTF/GLB -> keypoints: nodes as a rig (skin joints as the name candidates, or the VRM humanoid table),
 * one animation sampled at 30 fps (or options.fps); no animation gives one rest frame. */
#include "kp_internal.h"
#include "procmotion/gltf.h"

typedef struct gltf_ctx {
    const pm_gltf *g;
    uint32_t animation;
} gltf_ctx;

static pm_result eval_gltf(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)needed; /* FK needs every ancestor anyway */
    (void)frame;
    const gltf_ctx *c = ctx;
    return pm_gltf_world_matrices(c->g, c->animation, (float)time, world, err);
}

pm_result pmi_kp_from_gltf(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    pm_gltf_read_options ro = {0};
    if (opts) ro.allocator = opts->allocator;
    pm_gltf *g = NULL;
    pm_result r = pm_gltf_read(data, size, &ro, &g, err);
    if (r) return r;
    const pm_allocator *a = &g->allocator;
    pmi_kp_rig rig;
    if ((r = pmi_kp_rig_alloc(&rig, a, g->node_count, err))) goto done;
    for (uint32_t i = 0; i < g->node_count; i++) {
        rig.names[i] = g->nodes[i].name;
        rig.parent[i] = g->nodes[i].parent;
        rig.candidate[i] = g->skin_count == 0;
    }
    for (uint32_t s = 0; s < g->skin_count; s++)
        for (uint32_t k = 0; k < g->skins[s].joint_count; k++) rig.candidate[g->skins[s].joints[k]] = 1;
    if ((r = pm_gltf_world_matrices(g, PM_NO_INDEX, 0, rig.rest, err))) goto done;
    if (g->vrm_version) {
        for (uint32_t b = 0; b < g->human_bone_count; b++) {
            uint32_t slot = pmi_kp_name_slot("humanoid", g->human_bones[b].bone.data);
            if (slot != PM_NO_INDEX && rig.slots[slot] == PM_NO_INDEX) rig.slots[slot] = g->human_bones[b].node;
        }
        rig.family = "vrm";
    }
    uint32_t anim = opts ? opts->animation : 0;
    if (g->animation_count == 0) anim = PM_NO_INDEX;
    else if (anim >= g->animation_count) {
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: animation %u requested, the file has %u", anim, g->animation_count);
        goto done;
    }
    double fps = opts && opts->fps > 0 ? opts->fps : 30.0;
    uint32_t frames = 1;
    if (anim != PM_NO_INDEX && (r = pmi_kp_frames_for(g->animations[anim].duration, fps, opts, &frames, err))) goto done;
    gltf_ctx ctx = {g, anim};
    pm_kp_stats stats = {.format = PM_KP_FORMAT_GLTF};
    r = pmi_kp_run_rig(&rig, frames, fps, eval_gltf, &ctx, opts, &stats, out, err);
done:
    pmi_kp_rig_release(&rig, a);
    pm_gltf_free(g);
    return r;
}
