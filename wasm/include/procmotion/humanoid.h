/*
 * procmotion/humanoid.h -- map any model's bone names onto the 22 humanoid bones (seed 003, §6).
 *
 * USAGE
 *       const char *names[] = {"センター", "下半身", "上半身", ...};   // UTF-8, in model order
 *       pm_humanoid_map map;
 *       pm_humanoid_map_names(names, count, &map, &err);
 *       if (!map.drivable) ... map.missing_required lists what is missing
 *       uint32_t hips = map.bone[PM_HUMANOID_HIPS];                // index into names or PM_NO_INDEX
 *
 *   pm_humanoid_map_skeleton() does the same for a pm_skeleton's bone names, and
 *   pm_gltf_node_names() lists the node names of a glTF / GLB / VRM file to feed in.
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
 *   What changed when the mapping moved into the resolver (docs/rig.md has the list): the tables are
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
#include "procmotion/skeleton.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_humanoid_bone {
    PM_HUMANOID_HIPS = 0,
    PM_HUMANOID_SPINE,
    PM_HUMANOID_CHEST,
    PM_HUMANOID_UPPER_CHEST,
    PM_HUMANOID_NECK,
    PM_HUMANOID_HEAD,
    PM_HUMANOID_LEFT_SHOULDER,
    PM_HUMANOID_LEFT_UPPER_ARM,
    PM_HUMANOID_LEFT_LOWER_ARM,
    PM_HUMANOID_LEFT_HAND,
    PM_HUMANOID_RIGHT_SHOULDER,
    PM_HUMANOID_RIGHT_UPPER_ARM,
    PM_HUMANOID_RIGHT_LOWER_ARM,
    PM_HUMANOID_RIGHT_HAND,
    PM_HUMANOID_LEFT_UPPER_LEG,
    PM_HUMANOID_LEFT_LOWER_LEG,
    PM_HUMANOID_LEFT_FOOT,
    PM_HUMANOID_LEFT_TOES,
    PM_HUMANOID_RIGHT_UPPER_LEG,
    PM_HUMANOID_RIGHT_LOWER_LEG,
    PM_HUMANOID_RIGHT_FOOT,
    PM_HUMANOID_RIGHT_TOES,
    PM_HUMANOID_BONE_COUNT, /* 22 */
    PM_HUMANOID_BONE_FORCE_U32 = 0x7fffffff
} pm_humanoid_bone;

#define PM_HUMANOID_REQUIRED_COUNT 16

/* Which candidate table a bone was matched by. */
typedef enum pm_humanoid_naming {
    PM_HUMANOID_NAMING_NONE = 0,
    PM_HUMANOID_NAMING_VROID,
    PM_HUMANOID_NAMING_MIXAMO,
    PM_HUMANOID_NAMING_MMD,
    PM_HUMANOID_NAMING_CHINESE,
    PM_HUMANOID_NAMING_BIPED,
    PM_HUMANOID_NAMING_CMU, /* CMU motion-capture BVH names, used only when the names carry a CMU signature */
    PM_HUMANOID_NAMING_DAZ,
    PM_HUMANOID_NAMING_ENGLISH, /* PMX Editor's English bone names (rig.h) */
    PM_HUMANOID_NAMING_COUNT,
    PM_HUMANOID_NAMING_FORCE_U32 = 0x7fffffff
} pm_humanoid_naming;

typedef struct pm_humanoid_map {
    uint32_t bone[PM_HUMANOID_BONE_COUNT];          /* index into the names, or PM_NO_INDEX */
    pm_humanoid_naming naming[PM_HUMANOID_BONE_COUNT]; /* the table that matched (NONE if unmapped) */
    uint32_t mapped;                                /* humanoidMapped: bones found (0..22) */
    uint32_t total;                                 /* humanoidTotal: always 22 */
    uint32_t missing_required_count;                /* missingRequiredBones, in bone order */
    pm_humanoid_bone missing_required[PM_HUMANOID_REQUIRED_COUNT];
    bool drivable;                                  /* all 16 required bones found */
} pm_humanoid_map;

pm_result pm_humanoid_map_names(const char *const *names, uint32_t count, pm_humanoid_map *out, pm_error *err);
pm_result pm_humanoid_map_skeleton(const pm_skeleton *skeleton, pm_humanoid_map *out, pm_error *err);

/* "hips", "upperChest", "leftUpperArm", ... (VRM humanoid names); NULL outside 0..21. */
const char *pm_humanoid_bone_name(pm_humanoid_bone bone);
/* One of the 16 required bones. */
bool pm_humanoid_bone_required(pm_humanoid_bone bone);
/* "vroid", "mixamo", "mmd", "chinese", "biped", "cmu", "daz", "english", "none". */
const char *pm_humanoid_naming_name(pm_humanoid_naming naming);

/* ---- glTF / GLB / VRM node names (a minimal reader; the full glTF reader is the keypoints module's) */

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
