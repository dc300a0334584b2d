/*
 * procmotion/ik.h -- analytic two-bone IK (law of cosines) and MMD-style leg IK for skeletons
 * without IK data. (MMD's own CCD IK, with limits, runs inside pose evaluation: see pose.h.)
 *
 * TWO-BONE IK
 *   pm_two_bone_ik(root, mid, end, target, pole, &result, &err) takes the world positions of a
 *   limb's three joints (hip, knee, ankle or shoulder, elbow, wrist), where the end should go and a
 *   pole point that picks the bend plane (the mid joint ends up on the pole's side of the line from
 *   root to target). It returns two world-space rotation deltas:
 *     root_delta  rotates the whole limb about `root`;
 *     mid_delta   then rotates the lower bone about the solved mid joint.
 *   So the new world rotations are  root' = root_delta * root  and  mid' = mid_delta * root_delta * mid,
 *   and the solved joints are result.mid and result.end. To turn a delta D into a change of a bone's
 *   local rotation L under a parent with world rotation P: L' = (P^-1 * D * P) * L, where P is the
 *   parent's world rotation after the parent was updated (pm_ik_delta_to_local does this).
 *   When the limb was bent, root_delta maps the old bend plane onto the new one, so mid_delta is a pure
 *   hinge rotation about the new plane's normal (the knee's axis follows the pole); when it was
 *   straight, root_delta is the shortest arc.
 *
 * EDGE CASES (all results stay finite)
 *   - target farther than the two bones reach: a straight limb pointing at the target (reached false);
 *     nearer than |upper - lower|: the limb folds toward the target.
 *   - pole on the root-target line (or equal to root): the current bend plane is kept; if the limb is
 *     straight too, any plane through the line is used.
 *   - target at the root: the limb keeps its current direction.
 *   - a zero-length bone: the whole limb is only aimed at the target (mid_delta = identity).
 *   - NaN or infinite input: PM_ERR_INVALID_ARGUMENT naming the parameter.
 *
 * MMD-STYLE LEG IK
 *   pm_leg_ik is two-bone IK whose pole is in front of the leg: the knee bends toward `forward`
 *   (default -Z, the model's front in MMD coordinates), as MMD's knee limits force. pm_pose_leg_ik
 *   applies it to a pose: it changes pose->rotation of the hip (足) and knee (ひざ) bones so that the
 *   ankle reaches the target, then refreshes the world matrices of the hip's subtree. It expects
 *   plain bones there (no append); IK corrections of the last evaluation are kept and accounted for.
 */
#ifndef PROCMOTION_IK_H
#define PROCMOTION_IK_H

#include "procmotion/common.h"
#include "procmotion/math.h"
#include "procmotion/pose.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pm_two_bone_ik_result {
    pm_quat root_delta; /* world-space rotation about the root joint */
    pm_quat mid_delta;  /* world-space rotation about the solved mid joint, applied after root_delta */
    pm_vec3 mid;        /* solved mid joint */
    pm_vec3 end;        /* solved end joint */
    float miss;         /* distance from the solved end to the target (0 when reached) */
    bool reached;       /* the target is within the limb's reach */
} pm_two_bone_ik_result;

pm_result pm_two_bone_ik(pm_vec3 root, pm_vec3 mid, pm_vec3 end, pm_vec3 target, pm_vec3 pole,
                         pm_two_bone_ik_result *out, pm_error *err);

/* Two-bone IK for a leg: the knee bends toward `forward` (a zero vector means (0, 0, -1)). */
pm_result pm_leg_ik(pm_vec3 hip, pm_vec3 knee, pm_vec3 ankle, pm_vec3 target, pm_vec3 forward,
                    pm_two_bone_ik_result *out, pm_error *err);

/* The local-rotation change that realises world delta `delta` under a parent of world rotation
 * `parent_world`: P^-1 * delta * P (pre-multiply it onto the bone's local rotation). */
pm_quat pm_ik_delta_to_local(pm_quat parent_world, pm_quat delta);

/* Leg IK on an evaluated pose (pm_pose_evaluate / pm_pose_evaluate_local first): rotates `hip` and
 * `knee` in pose->rotation so that `ankle` reaches `target`, knee toward `forward`, and updates the
 * world matrices of the hip's subtree. `knee` must descend from `hip` and `ankle` from `knee`. */
pm_result pm_pose_leg_ik(pm_pose_workspace *ws, pm_pose *pose, uint32_t hip, uint32_t knee, uint32_t ankle,
                         pm_vec3 target, pm_vec3 forward, pm_two_bone_ik_result *out, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
