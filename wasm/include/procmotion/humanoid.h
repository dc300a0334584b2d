/*
 * procmotion/humanoid.h -- map any model's bone names onto the 22 humanoid bones.
 *
 * USAGE
 *       const char *names[] = {"センター", "下半身", "上半身", ...};   // UTF-8, in model order
 *       pm_humanoid_map map;
 *       pm_humanoid_map_names(names, count, &map, &err);
 *       if (!map.drivable) ... map.missing_required lists what is missing
 *       uint32_t hips = map.bone[PM_HUMANOID_HIPS];                // index into names or PM_NO_INDEX
 *
 *   pm_humanoid_map_skeleton() does the same for a pm_skeleton's bone names, and
 *   pm_gltf_node_names() (gltf.h) lists the node names of a glTF / GLB / VRM file to feed in.
 *
 * THE 22 BONES (in this order: parents first)
 *   hips, spine, chest, upperChest, neck, head,
 *   leftShoulder, leftUpperArm, leftLowerArm, leftHand,
 *   rightShoulder, rightUpperArm, rightLowerArm, rightHand,
 *   leftUpperLeg, leftLowerLeg, leftFoot, leftToes,
 *   rightUpperLeg, rightLowerLeg, rightFoot, rightToes.
 *   The 16 REQUIRED ones (any missing: drivable = false): hips, spine, neck, head, left/right
 *   UpperArm, LowerArm, Hand, UpperLeg, LowerLeg, Foot. (chest, upperChest, shoulders and toes are
 *   optional.)
 *
 * THE RULES
 *   The humanoid bones are roles of the rig resolver (procmotion/rig.h, THE RESOLVER: keys, prefixes,
 *   sides, the naming tables vroid, mixamo, mmd, english, chinese, biped, daz and cmu, the primary
 *   table and the fill), the one every module shares: hips = 下半身's role, spine = 上半身, chest =
 *   上半身2, upperChest = 上半身3, and so on (rig.h, ROLES). naming[] is the table that matched.
 *   pm_humanoid_map_skeleton also reads the bones' English names (rig.h rule 6).
 *   What changed when the mapping moved into the resolver (docs/models.md has the list): the tables are
 *   the union of this module's and the keypoint joint map's (Abdomen is a spine, Torso a chest,
 *   Blender's thigh.L / shin.L and Daz names map), a model's own naming decides ambiguous names (the
 *   primary table), and lefttoes wins over lefttoebase when a model has both.
 *
 * ERRORS
 *   NULL names array with count > 0, a NULL name, or NULL out: PM_ERR_INVALID_ARGUMENT. Names that
 *   normalise to more than 63 bytes can never match and are skipped. No allocation.
 */
#ifndef PROCMOTION_HUMANOID_H
#define PROCMOTION_HUMANOID_H

#include "procmotion/common.h"
#include "procmotion/rig.h"
#include "procmotion/skeleton.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif


typedef struct pm_humanoid_map {
    uint32_t bone[PM_HUMANOID_BONE_COUNT];          /* index into the names, or PM_NO_INDEX */
    pm_rig_naming naming[PM_HUMANOID_BONE_COUNT];      /* the table that matched (NONE if unmapped) */
    uint32_t mapped;                                /* humanoidMapped: bones found (0..22) */
    uint32_t total;                                 /* humanoidTotal: always 22 */
    uint32_t missing_required_count;                /* missingRequiredBones, in bone order */
    pm_humanoid_bone missing_required[PM_HUMANOID_REQUIRED_COUNT];
    bool drivable;                                  /* all 16 required bones found */
} pm_humanoid_map;

pm_result pm_humanoid_map_names(const char *const *names, uint32_t count, pm_humanoid_map *out, pm_error *err);
pm_result pm_humanoid_map_skeleton(const pm_skeleton *skeleton, pm_humanoid_map *out, pm_error *err);

/* ---- roles without names ----------------------------------------------------------------------------
 *
 * pm_humanoid_infer_roles finds the roles of a skeleton whose joint names say nothing
 * (Skeleton_torso_joint_1, joint12): from the hierarchy and the rest positions alone. The hips are the
 * joint that branches into two limbs of the same length (the legs) and a trunk that branches again into
 * two more (the arms) and a third (the neck and head). In each limb the two long segments nearest its end
 * are the upper and lower parts (a clavicle or a hip helper before them is kept as the shoulder). Up runs
 * from the hips to the chest, forward the way the toes (else the knees) point, and left is up x forward,
 * as a right-handed file has it. Only joints with candidate[j] set get a role; rest[] are the joints' world
 * rest matrices (their translations are used).
 * *confidence (0..1): how alike the two legs and the two arms are, lowered when forward came from the
 * knees (0.8) or from nothing (0.5).
 * ERRORS: PM_ERR_NOT_FOUND when no joint branches that way or a limb has fewer than three long joints;
 * PM_ERR_BAD_FORMAT for a cycle in parents.
 */
pm_result pm_humanoid_infer_roles(const uint32_t *parents, const pm_mat4 *rest, const uint8_t *candidate, uint32_t count,
                                  const pm_allocator *allocator, pm_rig_roles *out, double *confidence, pm_error *err);

/* ---- a humanoid motion file ------------------------------------------------------------------------
 *
 *       pm_humanoid_motion *m = NULL;
 *       if (pm_humanoid_motion_read(bytes, size, NULL, &m, &err) != PM_OK) puts(err.message);
 *       uint32_t hips = m->roles.bone[PM_RIG_LOWER_BODY];          // a joint index, or PM_NO_INDEX
 *       for (double t = 0; t <= m->duration; t += 1.0 / 30)
 *           pm_humanoid_motion_world(m, t, world, &err);           // world[joint_count]
 *       pm_humanoid_motion_free(m);
 *
 * What it reads: BVH (any channel order, any units), binary FBX 7.x (one animation stack, by index;
 * procmotion/fbx.h), glTF 2.0 / GLB (one animation, by index), VRM 0.x and 1.0, and VRM Animation (.vrma).
 * Joints are the BVH's joints (End Sites kept, never mapped), the FBX's models (its bones are the
 * candidates for roles) or the glTF's nodes. roles maps the joints onto the rig resolver's roles (procmotion/rig.h): from a VRM's or a
 * VRMA's humanoid table when the file has one, else from the joint names (a glTF's skin joints, when it
 * has skins, are the only candidates); when the names map no legs or arms, from the hierarchy and the rest
 * geometry (pm_humanoid_infer_roles). World matrices are in the file's own axes and units (rest: the
 * pose with every channel at zero, or the glTF nodes' or FBX models' own transforms).
 *
 * ERRORS: the readers' (naming the file's problem); PM_ERR_NOT_FOUND when neither the names nor the
 * hierarchy give both upper legs and both upper arms (the message lists the joints); an animation index
 * past the file's.
 */

typedef enum pm_humanoid_motion_format {
    PM_HUMANOID_MOTION_BVH = 1,
    PM_HUMANOID_MOTION_GLTF, /* glTF or GLB */
    PM_HUMANOID_MOTION_VRM,  /* VRM 0.x or 1.0 */
    PM_HUMANOID_MOTION_VRMA, /* VRM Animation */
    PM_HUMANOID_MOTION_FBX,  /* binary FBX */
    PM_HUMANOID_MOTION_FORMAT_FORCE_U32 = 0x7fffffff
} pm_humanoid_motion_format;

typedef struct pm_humanoid_motion {
    uint32_t magic;                   /* internal */
    pm_humanoid_motion_format format;
    uint32_t joint_count;
    const pm_string *names;           /* [joint_count] */
    const uint32_t *parents;          /* [joint_count], PM_NO_INDEX for a root */
    const pm_mat4 *rest;              /* [joint_count] world rest matrices */
    pm_rig_roles roles;               /* joint per role */
    const char *naming;               /* "vrm" (a humanoid table), the primary naming's name (rig.h), or
                                         "inferred" (names that say nothing: pm_humanoid_infer_roles) */
    double confidence;                /* 1 for names; the inference's confidence (0.5..1) otherwise */
    double duration;                  /* seconds (0: one pose) */
    double native_fps;                /* a BVH's frame rate, an FBX's stated rate; 30 for glTF */
    uint32_t animation, animation_count;
    pm_string animation_name;         /* a glTF animation's or FBX stack's name ("" for none and for BVH) */
    pm_allocator allocator;
    void *internal;
} pm_humanoid_motion;

typedef struct pm_humanoid_motion_options {
    pm_allocator allocator;
    uint32_t animation;               /* a glTF's animation or an FBX's stack index (default 0) */
} pm_humanoid_motion_options;

pm_result pm_humanoid_motion_read(const uint8_t *data, size_t size, const pm_humanoid_motion_options *opts,
                                  pm_humanoid_motion **out, pm_error *err);
/* World matrices of every joint at `seconds` (clamped to [0, duration]). */
pm_result pm_humanoid_motion_world(const pm_humanoid_motion *motion, double seconds, pm_mat4 *world, pm_error *err);
void pm_humanoid_motion_free(pm_humanoid_motion *motion);
/* "bvh", "gltf", "vrm", "vrma", "fbx". */
const char *pm_humanoid_motion_format_name(pm_humanoid_motion_format format);



#ifdef __cplusplus
}
#endif

#endif
