/* A humanoid motion file (BVH, FBX, glTF / GLB, VRM, VRM Animation) as joints, rest matrices, roles and a
 * sampler (see procmotion/humanoid.h). */
#include "procmotion/humanoid.h"

#include "common/internal.h"
#include "procmotion/bvh.h"
#include "procmotion/fbx.h"
#include "procmotion/gltf.h"

#include <math.h>

#define PMI_HUMANOID_MOTION_MAGIC 0x4d4d4848u /* "HHMM" */

typedef struct motion_internal {
    pm_bvh *bvh;
    pm_gltf *gltf;
    pm_fbx *fbx;
    pm_mat4 *rest;
    uint32_t *parents;
    pm_string *names;
} motion_internal;

const char *pm_humanoid_motion_format_name(pm_humanoid_motion_format f) {
    switch (f) {
    case PM_HUMANOID_MOTION_BVH: return "bvh";
    case PM_HUMANOID_MOTION_GLTF: return "gltf";
    case PM_HUMANOID_MOTION_VRM: return "vrm";
    case PM_HUMANOID_MOTION_VRMA: return "vrma";
    case PM_HUMANOID_MOTION_FBX: return "fbx";
    default: return "unknown";
    }
}

static bool is_bvh(const uint8_t *d, size_t n) {
    size_t i = 0;
    if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
    return n - i >= 9 && memcmp(d + i, "HIERARCHY", 9) == 0;
}

static bool is_gltf(const uint8_t *d, size_t n) {
    if (n >= 4 && memcmp(d, "glTF", 4) == 0) return true;
    size_t i = 0;
    if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
    return i < n && d[i] == '{';
}

void pm_humanoid_motion_free(pm_humanoid_motion *m) {
    if (!m || m->magic != PMI_HUMANOID_MOTION_MAGIC) return;
    pm_allocator a = m->allocator;
    motion_internal *in = m->internal;
    if (in) {
        pm_bvh_free(in->bvh);
        pm_gltf_free(in->gltf);
        pm_fbx_free(in->fbx);
        pmi_free(&a, in->rest);
        pmi_free(&a, in->parents);
        pmi_free(&a, in->names);
        pmi_free(&a, in);
    }
    m->magic = 0;
    pmi_free(&a, m);
}

/* Whether joint j lies strictly below `ancestor`. */
static bool below(const uint32_t *parents, uint32_t count, uint32_t j, uint32_t ancestor) {
    for (uint32_t steps = 0; j != PM_NO_INDEX && j < count && steps < count; steps++) {
        j = parents[j];
        if (j == ancestor) return true;
    }
    return false;
}

/* A spine joint no name mapped (CMU's "Ab" under "Chest"): the spine takes the chest's parent when that
 * lies between the hips and the chest, the chest the neck's parent when that lies above the spine. */
static void fill_spine(pm_humanoid_motion *m) {
    uint32_t *b = m->roles.bone;
    const uint32_t hips = b[PM_RIG_LOWER_BODY];
    if (hips == PM_NO_INDEX) return;
    if (b[PM_RIG_UPPER_BODY] == PM_NO_INDEX && b[PM_RIG_UPPER_BODY2] != PM_NO_INDEX) {
        const uint32_t p = m->parents[b[PM_RIG_UPPER_BODY2]];
        if (p != hips && below(m->parents, m->joint_count, p, hips)) b[PM_RIG_UPPER_BODY] = p;
    }
    if (b[PM_RIG_UPPER_BODY2] == PM_NO_INDEX && b[PM_RIG_UPPER_BODY] != PM_NO_INDEX && b[PM_RIG_NECK] != PM_NO_INDEX) {
        const uint32_t p = m->parents[b[PM_RIG_NECK]];
        if (p != b[PM_RIG_UPPER_BODY] && below(m->parents, m->joint_count, p, b[PM_RIG_UPPER_BODY])) b[PM_RIG_UPPER_BODY2] = p;
    }
}

/* The roles of the joints: from a humanoid table (VRM, VRMA) or from the candidates' names. */
static pm_result map_roles(pm_humanoid_motion *m, const uint8_t *candidate, pm_error *err) {
    motion_internal *in = m->internal;
    const pm_allocator *a = &m->allocator;
    const char **names = pmi_alloc_array(a, m->joint_count ? m->joint_count : 1, sizeof *names, err, "humanoid motion: names");
    if (!names) return PM_ERR_OUT_OF_MEMORY;
    pm_rig_resolve_options o = {0};
    const pm_gltf *g = in->gltf;
    if (g && g->vrm_version) { /* the humanoid table names the joints; its names are the VRM table's */
        for (uint32_t j = 0; j < m->joint_count; j++) names[j] = "";
        for (uint32_t b = 0; b < g->human_bone_count; b++) names[g->human_bones[b].node] = g->human_bones[b].bone.data;
        o.namings = PM_RIG_NAMING_BIT(PM_RIG_NAMING_VROID);
        m->naming = "vrm";
    } else {
        for (uint32_t j = 0; j < m->joint_count; j++) names[j] = candidate[j] ? m->names[j].data : "";
    }
    pm_result r = pm_rig_resolve_names(names, NULL, m->joint_count, &o, &m->roles, err);
    pmi_free(a, names);
    if (r) return r;
    fill_spine(m);
    if (!m->naming) m->naming = pm_rig_naming_name(m->roles.primary);
    m->confidence = 1;
    const pm_rig_role need[4] = {PM_RIG_LEFT_LEG, PM_RIG_RIGHT_LEG, PM_RIG_LEFT_ARM, PM_RIG_RIGHT_ARM};
    bool named = true;
    for (int k = 0; k < 4; k++) named = named && m->roles.bone[need[k]] != PM_NO_INDEX;
    if (!named && !(g && g->vrm_version)) { /* the names say nothing: the hierarchy and the rest geometry */
        pm_rig_roles inferred;
        double confidence = 0;
        pm_error ierr = {0};
        r = pm_humanoid_infer_roles(m->parents, m->rest, candidate, m->joint_count, a, &inferred, &confidence, &ierr);
        if (r == PM_ERR_OUT_OF_MEMORY) return pmi_fail(err, r, "%s", ierr.message);
        if (r == PM_OK && confidence >= 0.5) {
            m->roles = inferred, m->naming = "inferred", m->confidence = confidence;
            return PM_OK;
        }
    }
    for (int k = 0; k < 4; k++) {
        if (m->roles.bone[need[k]] != PM_NO_INDEX) continue;
        char list[160];
        size_t at = 0;
        list[0] = '\0';
        for (uint32_t j = 0; j < m->joint_count && at + 40 < sizeof list; j++) {
            if (!candidate[j]) continue;
            at += (size_t)pmi_format(list + at, sizeof list - at, "%s%.30s", at ? ", " : "", m->names[j].data);
        }
        return pmi_fail(err, PM_ERR_NOT_FOUND,
                        "humanoid motion: no %s among the %u joints (%s%s): the names follow no naming procmotion knows, and the "
                        "hierarchy is not a humanoid one (hips with two legs and a trunk with two arms)",
                        pm_rig_role_name(need[k]), m->joint_count, list, at + 40 >= sizeof list ? ", ..." : "");
    }
    return PM_OK;
}

/* The joint arrays for m->joint_count joints (names, parents, rest in m->internal), and the name-candidate
 * mask the caller frees; NULL when out of memory. */
static uint8_t *alloc_joints(pm_humanoid_motion *m, pm_error *err) {
    motion_internal *in = m->internal;
    const size_t n = m->joint_count ? m->joint_count : 1;
    in->names = pmi_alloc_array(&m->allocator, n, sizeof *in->names, err, "humanoid motion: joints");
    in->parents = in->names ? pmi_alloc_array(&m->allocator, n, sizeof *in->parents, err, "humanoid motion: joints") : NULL;
    in->rest = in->parents ? pmi_alloc_array(&m->allocator, n, sizeof *in->rest, err, "humanoid motion: joints") : NULL;
    return in->rest ? pmi_alloc_array(&m->allocator, n, 1, err, "humanoid motion: joints") : NULL;
}

static pm_result read_bvh(pm_humanoid_motion *m, const uint8_t *data, size_t size, pm_error *err) {
    motion_internal *in = m->internal;
    pm_bvh_read_options ro = {0};
    ro.allocator = m->allocator;
    pm_result r = pm_bvh_read(data, size, &ro, &in->bvh, err);
    if (r) return r;
    const pm_bvh *b = in->bvh;
    m->format = PM_HUMANOID_MOTION_BVH;
    m->joint_count = b->joint_count;
    uint8_t *candidate = alloc_joints(m, err);
    if (!candidate) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < b->joint_count; j++) {
        in->names[j] = b->joints[j].name;
        in->parents[j] = b->joints[j].parent;
        candidate[j] = !b->joints[j].end_site;
        pm_mat4 local = pm_mat4_from_rotation_translation(pm_quat_identity(), b->joints[j].offset);
        in->rest[j] = b->joints[j].parent == PM_NO_INDEX ? local : pm_mat4_mul(&in->rest[b->joints[j].parent], &local);
    }
    m->names = in->names, m->parents = in->parents, m->rest = in->rest;
    double fps = 1.0 / b->frame_time; /* files round the frame time (".0333333"): a whole rate is that rate */
    if (fabs(fps - floor(fps + 0.5)) < 1e-4 * fps) fps = floor(fps + 0.5);
    m->native_fps = fps;
    m->duration = b->frame_count > 1 ? (b->frame_count - 1) * b->frame_time : 0;
    m->animation_count = b->frame_count ? 1 : 0;
    m->animation_name = (pm_string){"", 0};
    r = map_roles(m, candidate, err);
    pmi_free(&m->allocator, candidate);
    return r;
}

/* The animation asked for among `count` (none: PM_NO_INDEX, the rest pose). */
static pm_result choose_animation(pm_humanoid_motion *m, uint32_t count, uint32_t animation, pm_error *err) {
    m->animation_count = count;
    if (count && animation >= count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid motion: animation %u asked for, the file has %u (0..%u)", animation, count,
                        count - 1);
    m->animation = count ? animation : PM_NO_INDEX;
    return PM_OK;
}

static pm_result read_gltf(pm_humanoid_motion *m, const uint8_t *data, size_t size, uint32_t animation, pm_error *err) {
    motion_internal *in = m->internal;
    pm_gltf_read_options ro = {0};
    ro.allocator = m->allocator;
    pm_result r = pm_gltf_read(data, size, &ro, &in->gltf, err);
    if (r) return r;
    const pm_gltf *g = in->gltf;
    m->format = g->vrm_version == 3 ? PM_HUMANOID_MOTION_VRMA : g->vrm_version ? PM_HUMANOID_MOTION_VRM : PM_HUMANOID_MOTION_GLTF;
    m->joint_count = g->node_count;
    if ((r = choose_animation(m, g->animation_count, animation, err))) return r;
    m->animation_name = g->animation_count ? g->animations[animation].name : (pm_string){"", 0};
    m->duration = g->animation_count ? g->animations[animation].duration : 0;
    m->native_fps = 30;
    uint8_t *candidate = alloc_joints(m, err);
    if (!candidate) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < g->node_count; j++) {
        in->names[j] = g->nodes[j].name;
        in->parents[j] = g->nodes[j].parent;
        candidate[j] = g->skin_count == 0;
    }
    for (uint32_t s = 0; s < g->skin_count; s++)
        for (uint32_t k = 0; k < g->skins[s].joint_count; k++) candidate[g->skins[s].joints[k]] = 1;
    m->names = in->names, m->parents = in->parents, m->rest = in->rest;
    r = pm_gltf_world_matrices(g, PM_NO_INDEX, 0, in->rest, err);
    if (r == PM_OK) r = map_roles(m, candidate, err);
    pmi_free(&m->allocator, candidate);
    return r;
}

static pm_result read_fbx(pm_humanoid_motion *m, const uint8_t *data, size_t size, uint32_t animation, pm_error *err) {
    motion_internal *in = m->internal;
    pm_fbx_read_options ro = {0};
    ro.allocator = m->allocator;
    pm_result r = pm_fbx_read(data, size, &ro, &in->fbx, err);
    if (r) return r;
    const pm_fbx *f = in->fbx;
    m->format = PM_HUMANOID_MOTION_FBX;
    m->joint_count = f->model_count;
    if ((r = choose_animation(m, f->stack_count, animation, err))) return r;
    m->animation_name = f->stack_count ? f->stacks[animation].name : (pm_string){"", 0};
    m->duration = f->stack_count ? f->stacks[animation].duration : 0;
    m->native_fps = f->frame_rate > 0 ? f->frame_rate : 30;
    uint8_t *candidate = alloc_joints(m, err);
    if (!candidate) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < f->model_count; j++) {
        in->names[j] = f->models[j].name;
        in->parents[j] = f->models[j].parent;
        candidate[j] = f->models[j].bone;
    }
    m->names = in->names, m->parents = in->parents, m->rest = in->rest;
    r = pm_fbx_world_matrices(f, PM_NO_INDEX, 0, in->rest, err);
    if (r == PM_OK) r = map_roles(m, candidate, err);
    pmi_free(&m->allocator, candidate);
    return r;
}

pm_result pm_humanoid_motion_read(const uint8_t *data, size_t size, const pm_humanoid_motion_options *opts,
                                  pm_humanoid_motion **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid motion: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid motion: data is NULL");
    pm_allocator a = opts ? opts->allocator : (pm_allocator){0};
    const bool bvh = is_bvh(data, size), gltf = !bvh && is_gltf(data, size);
    const bool fbx = (size >= 18 && memcmp(data, "Kaydara FBX Binary", 18) == 0) || (size >= 5 && memcmp(data, "; FBX", 5) == 0);
    if (!bvh && !gltf && !fbx)
        return pmi_fail(err, PM_ERR_BAD_FORMAT,
                        "humanoid motion: not a BVH (HIERARCHY), FBX, glTF (JSON), GLB, VRM or VRMA file (%zu bytes)", size);
    pm_humanoid_motion *m = pmi_alloc(&a, sizeof *m);
    if (!m) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "humanoid motion: out of memory");
    memset(m, 0, sizeof *m);
    m->magic = PMI_HUMANOID_MOTION_MAGIC;
    m->allocator = a;
    m->internal = pmi_alloc(&a, sizeof(motion_internal));
    if (!m->internal) {
        pm_humanoid_motion_free(m);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "humanoid motion: out of memory");
    }
    memset(m->internal, 0, sizeof(motion_internal));
    const uint32_t animation = opts ? opts->animation : 0;
    pm_result r = bvh ? read_bvh(m, data, size, err) : fbx ? read_fbx(m, data, size, animation, err) : read_gltf(m, data, size, animation, err);
    if (r) {
        pm_humanoid_motion_free(m);
        return r;
    }
    *out = m;
    return PM_OK;
}

pm_result pm_humanoid_motion_world(const pm_humanoid_motion *m, double seconds, pm_mat4 *world, pm_error *err) {
    if (!m || m->magic != PMI_HUMANOID_MOTION_MAGIC || !world)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid motion: %s", !world ? "world is NULL" : "not a motion");
    if (!isfinite(seconds)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid motion: time %g is not finite", seconds);
    double t = seconds < 0 ? 0 : seconds > m->duration ? m->duration : seconds;
    const motion_internal *in = m->internal;
    if (in->bvh) {
        if (!in->bvh->frame_count) return pm_bvh_world_matrices(in->bvh, 0, world, err);
        return pm_bvh_sample(in->bvh, t, world, err);
    }
    if (in->fbx) return pm_fbx_world_matrices(in->fbx, m->animation, t, world, err);
    return pm_gltf_world_matrices(in->gltf, m->animation, (float)t, world, err);
}
