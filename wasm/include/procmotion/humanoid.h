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



#ifdef __cplusplus
}
#endif

#endif
