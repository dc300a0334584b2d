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
 * THE RULES (seed 003 §6.3, in order)
 *   1. Normalise: ASCII letters to lower case; full-width ASCII letters and digits (Ａ-Ｚ ａ-ｚ
 *      ０-９) to half-width; keep only a-z, 0-9, CJK ideographs (U+3400-4DBF, U+4E00-9FFF,
 *      U+F900-FAFF), hiragana (U+3041-309F), katakana (U+30A1-30FA, U+30FC-30FF: ー included) and
 *      々 (U+3005); drop everything else (spaces, '_', '.', ':', '(' ...). So "J_Bip_L_UpperArm"
 *      -> "jbiplupperarm", "左足ＩＫ" -> "左足ik", "上半身" stays "上半身".
 *   2. Strip prefixes, only these: "jbipc" (J_Bip_C_), "jbipl" -> "left" (J_Bip_L_), "jbipr" ->
 *      "right" (J_Bip_R_), "mixamorig" plus any digits (mixamorig:, mixamorig1:), "bip01" (3ds Max
 *      Biped). Never J_Aim_, J_Roll_, J_Sec_ (VRoid's helper bones keep their prefix and so never
 *      collide with the real bones).
 *   3. Side variants: a name beginning "l" matches a candidate "left..." (and "left..." matches
 *      "l..."), the same for r/right; a side written at the end after a separator (".L", "_l",
 *      " R", "-r") or as a trailing word ("HandLeft", "hand_right") counts as a leading side.
 *   4. Exact match: the normalised (and stripped, side-varied) name must equal a candidate; there is
 *      no prefix or substring matching, so 左足ＩＫ ("左足ik") never takes leftUpperLeg (左足).
 *   5. Candidate tables, in priority order (for each humanoid bone the first table that has a
 *      match wins; inside a table, the candidate listed first; among equal candidates, the bone
 *      that comes first in the model):
 *        VROID   VRoid J_Bip names and the VRM humanoid names themselves
 *                (hips, spine, chest, upperchest, neck, head, leftshoulder, leftupperarm,
 *                leftlowerarm, lefthand, leftupperleg, leftlowerleg, leftfoot, lefttoebase, lefttoes)
 *        MIXAMO  spine1 (chest), spine2 (upperChest), leftarm, leftforearm, leftupleg, leftleg
 *                (its hips, spine, neck, head, leftshoulder, lefthand, leftfoot, lefttoebase are
 *                VROID candidates)
 *        MMD     下半身 (hips), 上半身 (spine), 上半身2 (chest), 上半身3 (upperChest), 首, 頭, 左肩,
 *                左腕, 左ひじ, 左手首, 左足, 左ひざ, 左足首, 左つま先
 *        CHINESE 臀部/髋部/骨盆/胯部, 脊柱/脊椎/腰部, 胸部/胸, 上胸部/上胸, 脖子/颈部/颈/頸部, 头/头部,
 *                左肩膀/左锁骨, 左大臂/左上臂/左臂, 左小臂/左前臂/左肘, 左手/左手腕,
 *                左大腿, 左小腿/左膝, 左脚/左腳/左脚踝, 左脚趾/左腳趾/左脚尖
 *        BIPED   3ds Max Biped after "Bip01": pelvis, leftclavicle, leftthigh, leftcalf, lefttoe0
 *                (its spine, spine1, spine2, neck, head, leftupperarm, leftforearm, lefthand and
 *                leftfoot are already candidates above, with the same meaning)
 *        CMU     CMU motion-capture BVH names, consulted FIRST but only when the names carry a CMU
 *                signature (LeftCollar, LHipJoint, lowerback or lhumerus): there LeftShoulder is the
 *                upper arm and LeftCollar the clavicle (bvh11/cmuconvert: lowerback, Chest, Chest2,
 *                Neck/lowerneck, LeftCollar, LeftShoulder, LeftElbow, LeftWrist, LeftHip, LeftKnee,
 *                LeftAnkle, LeftToe; ASF: upperback, thorax, lclavicle, lhumerus, lradius, lfemur,
 *                ltibia, lfoot, ltoes). Without the signature Mixamo's LeftShoulder keeps its meaning.
 *      Right-side candidates are the left ones with "left" -> "right" and 左 -> 右. Every candidate
 *      string belongs to exactly one humanoid bone, so a model bone maps to at most one.
 *   The tables are in wasm/src/humanoid/humanoid.c; tests/c/test_humanoid.c checks them.
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
/* "vroid", "mixamo", "mmd", "chinese", "biped", "cmu", "none". */
const char *pm_humanoid_naming_name(pm_humanoid_naming naming);

/* Rule 1 alone: normalise `len` bytes of UTF-8 into out (NUL-terminated when cap > 0, cut at a
 * whole character). Returns the full normalised length. */
size_t pm_humanoid_normalize(const char *name, size_t len, char *out, size_t cap);

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
