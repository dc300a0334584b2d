/*
 * procmotion/fbx.h -- read the models (bones), their transforms and the animation curves of a binary
 * FBX file (Mixamo's format, and what Blender, Maya, 3ds Max and Unity export), and evaluate them (FK).
 * Meshes, materials, skin weights and textures are not read.
 *
 * USAGE
 *       pm_fbx *f = NULL;
 *       if (pm_fbx_read(data, size, NULL, &f, &err) != PM_OK) puts(err.message);
 *       pm_mat4 *world = malloc(f->model_count * sizeof *world);
 *       double end = f->stack_count ? f->stacks[0].duration : 0;
 *       for (double t = 0; t <= end; t += 1.0 / 30)
 *           pm_fbx_world_matrices(f, 0, t, world, &err);      // PM_NO_INDEX instead of 0: rest pose
 *       pm_fbx_free(f);
 *
 * WHAT IS READ
 *   Binary FBX 7.x (the "Kaydara FBX Binary" header; 32-bit records before 7.5, 64-bit from 7.5): the
 *   node tree, with arrays stored plain or zlib-compressed. From it: every Model object (its name
 *   without the "\0\1Model" class suffix, its type such as LimbNode, Null or Mesh, its parent from the
 *   OO connections) with the Properties70 values Lcl Translation, Lcl Rotation, Lcl Scaling,
 *   PreRotation, PostRotation, RotationOffset, RotationPivot, ScalingOffset, ScalingPivot and
 *   RotationOrder; every AnimationStack with the curves of its first AnimationLayer that drive a
 *   Model's Lcl Translation, Rotation or Scaling (AnimationCurveNode "d|X", "d|Y", "d|Z" and their
 *   AnimationCurves' KeyTime and KeyValueFloat; an axis with no curve keeps the curve node's value).
 *   A stack with no such curves (Mixamo's files carry an empty "Take 001" first) is left out.
 *   ASCII FBX files and FBX 6 and older are refused with a message saying so.
 *
 * VALIDATION (always)
 *   Every record, property and array is bounded by the bytes that hold it; nesting deeper than 64 is
 *   an error; a compressed array must decode to exactly its announced size (at most 1032 times its
 *   compressed size, the deflate limit, and 256 MB); key times must be non-decreasing, key values and
 *   transform properties finite; a key count must match its value count; parent cycles are errors.
 *   Connections that name unknown objects are skipped.
 *
 * SEMANTICS
 *   The FBX SDK's transform: local = T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S *
 *   Sp^-1, with R from Lcl Rotation in the model's RotationOrder (eEulerXYZ applies X first),
 *   PreRotation and PostRotation in XYZ order, degrees; world = world(parent) * local (inheritance as
 *   the default RSrs). Times are seconds from the stack's first key; curves are sampled linearly
 *   between keys (a cubic key's tangents are not read; Mixamo and most exporters bake every frame),
 *   before the first key the first value, after the last the last. World matrices are in the file's
 *   own axes and units (its GlobalSettings are reported, not applied).
 *
 * OWNERSHIP
 *   pm_fbx_read allocates one pm_fbx (free with pm_fbx_free, NULL is fine); `data` is only read
 *   during the call. Evaluation allocates nothing.
 */
#ifndef PROCMOTION_FBX_H
#define PROCMOTION_FBX_H

#include "procmotion/common.h"
#include "procmotion/math.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_fbx_path { PM_FBX_TRANSLATION = 0, PM_FBX_ROTATION, PM_FBX_SCALING } pm_fbx_path;

typedef struct pm_fbx_model {
    pm_string name;          /* "mixamorig:Hips" */
    pm_string type;          /* "LimbNode", "Root", "Null", "Mesh", ... ("" when none) */
    uint32_t parent;         /* PM_NO_INDEX for a model under the scene root */
    pm_vec3 trs[3];          /* Lcl Translation, Lcl Rotation (degrees), Lcl Scaling */
    pm_vec3 pre_rotation, post_rotation;     /* degrees */
    pm_vec3 rotation_offset, rotation_pivot, scaling_offset, scaling_pivot;
    uint32_t rotation_order; /* 0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX (the letters in the order applied) */
    bool bone;               /* a skeleton joint: a LimbNode or Root model, or when the file has none, any
                                model that is not a Mesh, Camera or Light */
} pm_fbx_model;

typedef struct pm_fbx_curve {
    uint32_t model;
    pm_fbx_path path;
    uint32_t axis;           /* 0 x, 1 y, 2 z */
    uint32_t key_count;      /* >= 1 */
    double *times;           /* [key_count] seconds from the stack's first key, non-decreasing */
    float *values;           /* [key_count] (degrees for rotations) */
} pm_fbx_curve;

typedef struct pm_fbx_stack {
    pm_string name;          /* "mixamo.com", "Take 001", "Armature|Action" */
    double duration;         /* seconds from the first key to the last */
    uint32_t curve_count;
    pm_fbx_curve *curves;    /* sorted by model */
    uint32_t *model_curves;  /* [model_count + 1]: the curves of model m are [model_curves[m], model_curves[m+1]) */
} pm_fbx_stack;

typedef struct pm_fbx {
    uint32_t magic;          /* internal */
    uint32_t version;        /* 7400, 7500, ... */
    uint32_t model_count;
    pm_fbx_model *models;
    uint32_t *order;         /* [model_count]: every parent before its children */
    uint32_t stack_count;
    pm_fbx_stack *stacks;    /* the stacks that hold curves, in file order */
    double unit_scale;       /* GlobalSettings UnitScaleFactor (centimetres per unit; 1 when absent) */
    int32_t up_axis, up_axis_sign, front_axis, front_axis_sign; /* GlobalSettings (1, 1, 2, 1 when absent) */
    double frame_rate;       /* from GlobalSettings TimeMode / CustomFrameRate (0 when not stated) */
    pm_allocator allocator;
    void *internal;          /* internal: arena */
} pm_fbx;

typedef struct pm_fbx_read_options {
    pm_allocator allocator;
} pm_fbx_read_options;

pm_result pm_fbx_read(const uint8_t *data, size_t size, const pm_fbx_read_options *opts, pm_fbx **out, pm_error *err);
void pm_fbx_free(pm_fbx *fbx);

/* World matrices of every model with stack `stack` (PM_NO_INDEX = the models' own properties) at
 * `seconds` from the stack's first key. */
pm_result pm_fbx_world_matrices(const pm_fbx *fbx, uint32_t stack, double seconds, pm_mat4 *world, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
