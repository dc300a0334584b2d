/*
 * procmotion/pose.h -- evaluate a VMD on a skeleton exactly like babylon-mmd 1.3 does: per-channel
 * Bezier, quaternion slerp, append (付与) rotation and translation, transform order, MMD CCD IK with
 * limits, IK on/off from property keys.
 *
 * USAGE
 *       pm_anim *anim = NULL;                    // keys grouped per bone and sorted, once
 *       pm_anim_bind(skeleton, vmd, NULL, &anim, &err);
 *       pm_pose_workspace *ws = NULL;            // per-skeleton scratch state, once
 *       pm_pose_workspace_create(skeleton, NULL, &ws, &err);
 *       pm_pose *pose = NULL;                    // or point a pm_pose at your own buffers
 *       pm_pose_create(skeleton, NULL, &pose, &err);
 *       for (double f = 0; f < 300; f += 0.5)    // fractional frames are fine
 *           if (pm_pose_evaluate(anim, ws, f, pose, NULL, &err) == PM_OK)
 *               use(pm_pose_world_position(pose, bone));
 *       pm_pose_free(pose); pm_pose_workspace_free(ws); pm_anim_free(anim);
 *
 *   pm_pose_evaluate = pm_pose_sample (animation -> pose->translation / pose->rotation and the IK
 *   states of the property keys) + pm_pose_evaluate_local (append, world matrices, IK). Layers that
 *   post-multiply their own offsets (groove, tracing) call pm_pose_sample, change pose->translation /
 *   pose->rotation, then pm_pose_evaluate_local; pm_pose_update_subtree recomputes the world matrices
 *   of one bone and its descendants without solving IK, and pm_pose_solve_ik runs one IK chain.
 *
 * WHAT A POSE HOLDS (per bone, arrays of pose->bone_count)
 *   translation  in/out  the animated position offset from the rest position (VMD semantics: what a
 *                        bone key's position means), before append and IK
 *   rotation     in/out  the animated local rotation (VMD semantics), before append and IK
 *   world        out     model-space matrix (column-major, see math.h); its translation is the bone's
 *                        world position, pm_pose_world_position()
 *   final_translation, final_rotation   optional out (NULL = not wanted): the local offset and
 *                        rotation actually used after append and IK (what a VMD would need to key to
 *                        reproduce the pose without IK and append, except for bones whose parent
 *                        comes later in the transform order)
 *
 * SEMANTICS (babylon-mmd 1.3's JS MmdRuntime with physics off; docs/c-library.md has the details)
 *   - Tracks: a VMD's bone keys are grouped by name and stable-sorted by frame. A bone without keys
 *     keeps its rest pose. For a frame before a track's first key the first key holds, after its last
 *     key the last key holds. Between keys A and B, key B's curves apply: X, Y, Z for the position
 *     channels, R for the slerp weight, solved by pm_bezier_eval_mmd. Duplicate frames are kept (the
 *     later key of a frame wins from that frame on).
 *   - Names match exactly, as babylon-mmd does (a later bone of the same name wins); see
 *     pm_anim_bind_options.normalized_names for a looser match.
 *   - Order: bones are stable-sorted by transform order (PMX deform layer); bones without the
 *     after-physics flag evaluate first, then those with it. World matrices start each evaluation as
 *     identity, so a bone evaluated before its parent sees an identity parent, as in babylon-mmd.
 *   - A fixed-axis bone's animated rotation is projected onto its axis (babylon-mmd does this at run
 *     time; MMD at load time).
 *   - Append: rotation = animated * slerp(identity, source, ratio); translation = animated +
 *     source * ratio, the source being the append parent's own append result when it has one, else its
 *     animated value, with its IK correction for rotation; local append takes the parent's world
 *     rotation, or its world translation minus its rest position.
 *   - IK runs right after its IK bone is evaluated: babylon-mmd's CCD (from saba): up to 256
 *     iterations, the per-iteration angle limit times (link index + 1), single-axis limited links
 *     rotate about that axis for the first half of the iterations (the knee case) with reflection at
 *     the limits, limited links are clamped in Euler angles (YXZ, ZYX or XZY chosen by the limits),
 *     stop when the squared distance is below 1e-8.
 *   - IK on/off: property keys (stepwise, the key at or before the frame; an IK name missing from a
 *     key repeats the previous key's state, or is off in the first key) decide for the IK bones they
 *     name; others stay on. pm_pose_set_ik_mode forces a bone on or off over the property keys.
 *   - Not evaluated: physics, bone morphs (VMD morph keys on bone morphs move bones in babylon-mmd),
 *     external parents, scale.
 *
 * PRECISION
 *   Quaternions and vectors in double and matrices stored as float with products summed in double, as
 *   babylon-mmd's JS runtime (JS numbers, Float32Array matrices) computes them; measured differences are
 *   in docs/c-library.md.
 *
 * ALLOCATION AND THREADS
 *   pm_anim_bind, pm_pose_workspace_create and pm_pose_create allocate; evaluation never does. A pm_anim
 *   is read-only after binding and may be shared; a workspace and a pose belong to one thread at a
 *   time. The skeleton is borrowed by the anim and the workspace and must outlive them; the VMD is only
 *   read during pm_anim_bind.
 */
#ifndef PROCMOTION_POSE_H
#define PROCMOTION_POSE_H

#include "procmotion/common.h"
#include "procmotion/math.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* babylon-mmd's cap on IK iterations (IkSolver.iteration). */
#define PM_POSE_MAX_IK_ITERATIONS 256

/* ---- binding a motion to a skeleton ------------------------------------------------------------ */

/* A VMD bound to one skeleton: per-bone tracks sorted by frame, property keys resolved to IK bones. */
typedef struct pm_anim pm_anim;

/*
 * Binding options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, exact name matching (as babylon-mmd).
 */
typedef struct pm_anim_bind_options {
    pm_allocator allocator;
    /* true: a name without an exact match is looked up with pm_skeleton_find_mmd (full-width and
     * half-width ASCII alike). NOTE: babylon-mmd matches exactly; this option departs from it. */
    bool normalized_names;
} pm_anim_bind_options;

typedef struct pm_anim_info {
    uint32_t track_count;          /* bone tracks bound to a bone */
    uint32_t key_count;            /* bone keys in those tracks */
    uint32_t unmatched_bone_count; /* distinct VMD bone names that name no bone of the skeleton */
    uint32_t unmatched_ik_count;   /* property-key IK names that name no bone with IK */
    uint32_t property_key_count;   /* after resolving duplicate frames */
    uint32_t first_frame;          /* over bound tracks and property keys; 0 when there are none */
    uint32_t last_frame;
} pm_anim_info;

/* Bind `vmd` to `skeleton`. On success *out owns a new pm_anim (free with pm_anim_free). Names the
 * skeleton lacks are not an error: they are listed (pm_anim_unmatched_bone / _ik). */
pm_result pm_anim_bind(const pm_skeleton *skeleton, const pm_vmd *vmd, const pm_anim_bind_options *opts,
                       pm_anim **out, pm_error *err);
void pm_anim_free(pm_anim *anim);
void pm_anim_get_info(const pm_anim *anim, pm_anim_info *info);
/* The i-th unmatched name (UTF-8, owned by the anim); an empty string when i is out of range. */
pm_string pm_anim_unmatched_bone(const pm_anim *anim, uint32_t i);
pm_string pm_anim_unmatched_ik(const pm_anim *anim, uint32_t i);
/* The bone track bound to `bone`: its key count (0 = none) and, when `frames` is not NULL, up to
 * `cap` of its sorted frame numbers. */
uint32_t pm_anim_track_keys(const pm_anim *anim, uint32_t bone, uint32_t *frames, uint32_t cap);

/* ---- poses and workspaces ---------------------------------------------------------------------- */

typedef struct pm_pose {
    uint32_t bone_count;         /* must equal the skeleton's */
    pm_vec3 *translation;        /* [bone_count] animated offset from rest (in/out) */
    pm_quat *rotation;           /* [bone_count] animated local rotation (in/out) */
    pm_mat4 *world;              /* [bone_count] model-space matrices (out) */
    pm_vec3 *final_translation;  /* optional [bone_count] (out): offset after append */
    pm_quat *final_rotation;     /* optional [bone_count] (out): local rotation after append and IK */
} pm_pose;

/* A pose with all five arrays allocated (rest pose: zero offsets, identity rotations and the rest
 * world matrices). Free with pm_pose_free (NULL is fine). */
pm_result pm_pose_create(const pm_skeleton *skeleton, const pm_allocator *allocator, pm_pose **out, pm_error *err);
void pm_pose_free(pm_pose *pose);

/* World position of a bone (the translation of pose->world[bone]); zero when out of range. */
pm_vec3 pm_pose_world_position(const pm_pose *pose, uint32_t bone);

/* Scratch state for one skeleton: evaluation order, children, IK chains, per-bone solver state,
 * track cursors and IK modes. */
typedef struct pm_pose_workspace pm_pose_workspace;

pm_result pm_pose_workspace_create(const pm_skeleton *skeleton, const pm_allocator *allocator,
                                   pm_pose_workspace **out, pm_error *err);
void pm_pose_workspace_free(pm_pose_workspace *ws);

typedef enum pm_ik_mode {
    PM_IK_AUTO = 0,  /* property keys decide, on when none names the bone (babylon-mmd) */
    PM_IK_FORCE_ON,  /* solve whatever the property keys say */
    PM_IK_FORCE_OFF, /* never solve */
    PM_IK_MODE_COUNT
} pm_ik_mode;

/* Set the IK mode of a bone with IK (PM_ERR_INVALID_ARGUMENT for any other bone). */
pm_result pm_pose_set_ik_mode(pm_pose_workspace *ws, uint32_t ik_bone, pm_ik_mode mode, pm_error *err);
/* Whether the IK of `ik_bone` was on in the last evaluation (false for bones without IK). */
bool pm_pose_ik_enabled(const pm_pose_workspace *ws, uint32_t ik_bone);

enum {
    PM_POSE_NO_IK = 1u << 0,     /* solve no IK at all */
    PM_POSE_NO_APPEND = 1u << 1, /* ignore append (付与) rotation and translation */
    /* run babylon-mmd's IK step for step, without the shortcuts that give the same results faster
     * (partial updates inside the CCD loop, stopping at an exact fixed point): for tests */
    PM_POSE_REFERENCE_IK = 1u << 2,
    /* with a subset (pm_pose_set_subset): the bones outside it keep the world matrices the caller put in
     * pose->world instead of identity, and the subset's bones read their parents' from there (for a caller
     * that has them from another evaluation: they must be what that evaluation gives them) */
    PM_POSE_KEEP_OTHERS = 1u << 3,
};

/*
 * Evaluation options; zero-initialise for defaults (or pass NULL).
 * Default configuration: IK and append on, at most 256 IK iterations (each IK bone's own count
 * applies below that).
 */
typedef struct pm_pose_options {
    uint32_t flags;              /* PM_POSE_* */
    uint32_t max_ik_iterations;  /* 0 = PM_POSE_MAX_IK_ITERATIONS; larger values are capped to it */
} pm_pose_options;

/* Sample and evaluate only the bones marked in `subset` (bone_count bytes, non-zero = evaluate;
 * borrowed, keep it alive while set; the lists the evaluation walks are built when it is set: set it again
 * after changing the mask), e.g. a closure from pm_pose_subset: pm_pose_sample
 * leaves the others' translation and rotation as they are, and they keep an identity world matrix. NULL
 * (the default) = every bone. O(bone_count): set a subset once per workspace, not per frame (a pass that
 * needs another subset uses a workspace of its own). */
void pm_pose_set_subset(pm_pose_workspace *ws, const uint8_t *subset);

/* Mark in mask[bone_count] (not cleared first) `count` bones and everything their world matrices depend
 * on: ancestors, append sources, and every IK chain that moves one of them (its IK bone, target and
 * links, and theirs), so that an evaluation with this subset gives these bones exactly what a full
 * evaluation gives. Bones out of range are ignored. Allocates scratch (allocator NULL = malloc). */
pm_result pm_pose_subset(const pm_skeleton *skeleton, const uint32_t *bones, uint32_t count, uint8_t *mask,
                         const pm_allocator *allocator, pm_error *err);

/* Animation only: fill pose->translation and pose->rotation for `frame` (30 fps, fractional frames
 * interpolate) and record the property keys' IK states in the workspace. anim NULL = rest pose with
 * every IK on (unless forced off). `anim` must be bound to the workspace's skeleton. Keys whose
 * interpolation goes beyond the float range (values near 3.4e38, Bezier bytes above 127) fail with
 * PM_ERR_BAD_FORMAT naming the bone, and the pose is left at rest (never Inf). */
pm_result pm_pose_sample(const pm_anim *anim, pm_pose_workspace *ws, double frame, pm_pose *pose, pm_error *err);

/* From pose->translation and pose->rotation (as the caller left them), evaluate append, world
 * matrices and IK in babylon-mmd's order; fills pose->world and the optional final arrays. */
pm_result pm_pose_evaluate_local(pm_pose_workspace *ws, pm_pose *pose, const pm_pose_options *opts, pm_error *err);

/* pm_pose_sample + pm_pose_evaluate_local. */
pm_result pm_pose_evaluate(const pm_anim *anim, pm_pose_workspace *ws, double frame, pm_pose *pose,
                           const pm_pose_options *opts, pm_error *err);

/* Recompute the world matrices of `bone` and all its descendants from pose->translation and
 * pose->rotation (append re-evaluated; IK corrections of the last evaluation kept; no IK solved).
 * Call after pm_pose_evaluate_local when only one subtree changed. */
pm_result pm_pose_update_subtree(pm_pose_workspace *ws, pm_pose *pose, uint32_t bone, const pm_pose_options *opts,
                                 pm_error *err);

/* Run the IK of `ik_bone` on the current world matrices (whatever its mode), as the evaluation does
 * when it reaches that bone, then refresh the final arrays. */
pm_result pm_pose_solve_ik(pm_pose_workspace *ws, pm_pose *pose, uint32_t ik_bone, const pm_pose_options *opts,
                           pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
