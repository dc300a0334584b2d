/*
 * procmotion/gltf.h -- read the node hierarchy, skins, animations and VRM humanoid table of a glTF 2.0
 * file (.gltf JSON or .glb) and evaluate its animations (FK). Meshes, materials and images are not read.
 *
 * USAGE
 *       pm_gltf *g = NULL;
 *       if (pm_gltf_read(data, size, NULL, &g, &err) != PM_OK) ...;
 *       pm_mat4 *world = malloc(g->node_count * sizeof *world);
 *       float end = g->animation_count ? g->animations[0].duration : 0;
 *       for (float t = 0; t <= end; t += 1.0f / 30)
 *           pm_gltf_world_matrices(g, 0, t, world, &err);    // PM_NO_INDEX instead of 0: rest pose
 *       pm_gltf_free(g);
 *
 * WHAT IS READ
 *   GLB: the 12-byte header ("glTF", version 2, total length <= size), a JSON chunk, an optional BIN
 *   chunk; every chunk length is checked against the bytes left before use, so a GLB whose lengths lie
 *   fails with PM_ERR_TRUNCATED or PM_ERR_BAD_FORMAT. JSON (cJSON): nodes (name, children, TRS or
 *   matrix, mesh, skin), skins (joints, skeleton), animations (channels with translation, rotation or
 *   scale paths; "weights" channels are skipped; samplers LINEAR, STEP, CUBICSPLINE), buffers,
 *   bufferViews and the accessors the animations use, and the VRM humanoid bone table
 *   (extensions.VRMC_vrm.humanoid.humanBones of VRM 1.0, extensions.VRM.humanoid.humanBones of 0.x,
 *   extensions.VRMC_vrm_animation.humanoid.humanBones of a VRM Animation).
 *   Buffers: the GLB BIN chunk and "data:...;base64," URIs only; a buffer naming an external file is
 *   an error saying so (pack the file as .glb).
 *
 * VALIDATION (always)
 *   Indices (children, skins' joints, channel targets, samplers, accessors, bufferViews, buffers,
 *   VRM nodes) are range-checked; a node with two parents and parent cycles are errors. A bufferView
 *   must lie inside its buffer, an accessor inside its bufferView: byteOffset + stride * (count - 1) +
 *   element size <= byteLength (64-bit arithmetic); keyframe times must be finite and non-decreasing,
 *   values finite (integer rotations must be normalized); output counts must match the input count (x3
 *   for CUBICSPLINE). Sparse accessors are rejected. Non-finite node transforms are errors.
 *
 * SEMANTICS
 *   local = T * R * S (or the node's matrix); world = world(parent) * local, roots under the identity.
 *   Sampling at time t: before the first key the first value, after the last key the last value;
 *   LINEAR lerps (rotations slerp, shortest path), STEP holds the earlier key, CUBICSPLINE is the
 *   glTF Hermite spline with tangents scaled by the key interval; rotations are normalised.
 *   An animated node's untouched paths keep their rest values. Nodes given as a matrix are not animated
 *   (the glTF rule).
 *
 * OWNERSHIP
 *   pm_gltf_read allocates one pm_gltf (free with pm_gltf_free, NULL is fine); `data` is only read
 *   during the call. Evaluation allocates nothing.
 */
#ifndef PROCMOTION_GLTF_H
#define PROCMOTION_GLTF_H

#include "procmotion/common.h"
#include "procmotion/math.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_gltf_path { PM_GLTF_TRANSLATION = 0, PM_GLTF_ROTATION, PM_GLTF_SCALE } pm_gltf_path;
typedef enum pm_gltf_interpolation { PM_GLTF_LINEAR = 0, PM_GLTF_STEP, PM_GLTF_CUBICSPLINE } pm_gltf_interpolation;

typedef struct pm_gltf_node {
    pm_string name;      /* "" when the node has none */
    uint32_t parent;     /* PM_NO_INDEX for a root */
    uint32_t mesh;       /* PM_NO_INDEX when none */
    uint32_t skin;       /* PM_NO_INDEX when none */
    bool has_matrix;     /* local transform given as `matrix` */
    pm_mat4 matrix;
    pm_vec3 translation; /* rest TRS (identity when has_matrix) */
    pm_quat rotation;
    pm_vec3 scale;
} pm_gltf_node;

typedef struct pm_gltf_skin {
    pm_string name;
    uint32_t joint_count;
    uint32_t *joints;  /* node indices */
    uint32_t skeleton; /* PM_NO_INDEX when not given */
} pm_gltf_skin;

typedef struct pm_gltf_channel {
    uint32_t node;
    pm_gltf_path path;
    pm_gltf_interpolation interpolation;
    uint32_t key_count;  /* >= 1 */
    uint32_t components; /* 3 or 4 */
    float *times;        /* [key_count], seconds, non-decreasing */
    float *values;       /* [key_count * components], or [key_count * 3 * components] for CUBICSPLINE
                            (in-tangent, value, out-tangent per key) */
} pm_gltf_channel;

typedef struct pm_gltf_animation {
    pm_string name;
    uint32_t channel_count;
    pm_gltf_channel *channels; /* sorted by node, then path */
    float duration;      /* the last key time over all channels (seconds) */
} pm_gltf_animation;

typedef struct pm_gltf_human_bone {
    pm_string bone;      /* VRM humanoid bone name, e.g. "leftUpperArm" */
    uint32_t node;
} pm_gltf_human_bone;

typedef struct pm_gltf {
    uint32_t magic;      /* internal */
    uint32_t node_count;
    pm_gltf_node *nodes;
    uint32_t *order;     /* [node_count]: every parent before its children */
    uint32_t skin_count;
    pm_gltf_skin *skins;
    uint32_t animation_count;
    pm_gltf_animation *animations;
    uint32_t vrm_version; /* 0 = not a VRM, 1 = VRM 0.x, 2 = VRM 1.0 (VRMC_vrm), 3 = VRM Animation
                             (VRMC_vrm_animation, .vrma): human_bones from its humanoid table */
    uint32_t human_bone_count;
    pm_gltf_human_bone *human_bones;
    pm_allocator allocator;
    void *internal;      /* internal: arena */
} pm_gltf;

/*
 * Reading options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, no memory limit, at most 100 000 nodes.
 */
typedef struct pm_gltf_read_options {
    pm_allocator allocator;
    uint32_t max_nodes; /* 0 = 100 000 */
} pm_gltf_read_options;

pm_result pm_gltf_read(const uint8_t *data, size_t size, const pm_gltf_read_options *opts, pm_gltf **out, pm_error *err);
void pm_gltf_free(pm_gltf *gltf);

/* World matrices of every node with animation `animation` (PM_NO_INDEX = rest pose) at `time` seconds. */
pm_result pm_gltf_world_matrices(const pm_gltf *gltf, uint32_t animation, float time, pm_mat4 *world, pm_error *err);

/* Value of one channel at `time` (3 or 4 floats into out). */
void pm_gltf_sample_channel(const pm_gltf_channel *channel, float time, float *out);

/* ---- node names alone ---------------------------------------------------------------------------
 * For name mapping (humanoid.h): only the JSON is read, so a .gltf whose buffers are external files works. */

typedef struct pm_name_list {
    uint32_t magic;     /* internal */
    uint32_t count;
    const char **names; /* [count] UTF-8, NUL-terminated; "" for a node without a name */
    pm_allocator allocator;
} pm_name_list;

/*
 * The "nodes[].name" strings of a glTF 2.0 file, in node order: GLB / VRM ("glTF" magic, version 2,
 * first chunk JSON; chunk lengths checked against the data) or a .gltf JSON text. Missing "nodes"
 * gives an empty list. Errors: PM_ERR_BAD_FORMAT (not glTF, JSON that does not parse, a node that is
 * not an object or a name that is not a string), PM_ERR_TRUNCATED (a chunk longer than the data).
 */
pm_result pm_gltf_node_names(const uint8_t *data, size_t size, const pm_allocator *allocator, pm_name_list **out,
                             pm_error *err);
void pm_name_list_free(pm_name_list *list);

#ifdef __cplusplus
}
#endif

#endif
