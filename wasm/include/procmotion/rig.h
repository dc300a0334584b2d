/*
 * procmotion/rig.h -- one rig analysis per model: which bone plays which role, the IK chains as MMD
 * solves them, and the rest geometry every generator and converter plans with (docs/models.md).
 *
 * USAGE
 *       pm_rig *rig = NULL;
 *       if (pm_rig_analyze(skeleton, NULL, &rig, &err) != PM_OK) ...   // reads the skeleton once
 *       uint32_t knee = rig->roles.bone[PM_RIG_LEFT_KNEE];                // or PM_NO_INDEX
 *       const pm_rig_leg *leg = &rig->legs[0];                           // 0 left, 1 right
 *       if (leg->ik_chain != PM_NO_INDEX) {
 *           const pm_rig_chain *c = &rig->chains[leg->ik_chain];        // 足ＩＫ -> 足首 [ひざ, 足]
 *           use(c->rest_offset, leg->reach_max, leg->knee_bend_min);
 *       }
 *       pm_rig_free(rig);
 *
 *   Names only (no positions, no allocation): pm_rig_resolve_names(names, names_en, count, NULL,
 *   &roles, &err) fills the same pm_rig_roles a rig carries; pm_rig_resolve_skeleton does it for a
 *   skeleton's names and English names. pm_rig_name_role tells the role of a single name.
 *   pm_rig_to_json writes the analysis as the JSON of `procmotion rig` and pm.analyzeRig.
 *
 * ROLES (pm_rig_role)
 *   Twelve centre roles (全ての親 root, 操作中心 viewCenter, センター center, グルーブ groove, 腰 waist,
 *   下半身 lowerBody, 上半身 upperBody, 上半身2 upperBody2, 上半身3 upperBody3, 首 neck, 頭 head,
 *   両目 eyes), then 37 roles per side, left block first (PM_RIG_LEFT_*), the right block in the same
 *   order (PM_RIG_RIGHT_* = PM_RIG_LEFT_* + PM_RIG_SIDE_ROLE_COUNT): 目 eye, 肩P shoulderP, 肩
 *   shoulder, 肩C shoulderC, 腕 arm, 腕捩 armTwist, ひじ elbow, 手捩 wristTwist, 手首 wrist, 親指０..２
 *   thumb0..2, 人指１..３ index1..3, 中指 middle1..3, 薬指 ring1..3, 小指 little1..3, 腰キャンセル
 *   waistCancel, 足 leg, ひざ knee, 足首 ankle, つま先 toe, かかと heel, 足IK親 legIkParent, 足ＩＫ
 *   legIk, つま先ＩＫ toeIk, 足D legD, ひざD kneeD, 足首D ankleD, 足先EX toeEx. MMD's meaning is kept:
 *   "arm" is the upper arm (VRM leftUpperArm), "leg" the thigh (leftUpperLeg). The 22 humanoid bones
 *   (humanoid.h, VRM humanBones) are roles: hips = lowerBody, spine = upperBody, chest = upperBody2,
 *   upperChest = upperBody3, neck, head, shoulder, upperArm = arm, lowerArm = elbow, hand = wrist,
 *   upperLeg = leg, lowerLeg = knee, foot = ankle, toes = toe (pm_rig_role_of_humanoid). Fingers:
 *   thumb0/1/2 are VRM 1.0's thumbMetacarpal/Proximal/Distal (MMD 親指０/１/２), index1..3 its
 *   indexProximal/Intermediate/Distal (人指１..３).
 *
 * THE RESOLVER (one for every module: catwalk, groove, tracing, keypoints, humanoid.h)
 *   1. Key: ASCII letters to lower case, full-width ASCII letters and digits (Ａ..Ｚ ０..９, U+FF01..
 *      U+FF5E) to ASCII, keep only a-z 0-9, CJK ideographs, hiragana, katakana (ー included) and 々;
 *      drop everything else (pm_name_key, procmotion/text.h). So 左足ＩＫ -> 左足ik, "leg IK_L" -> legikl.
 *   2. Namespace and prefixes: anything up to the last ':' or '|' goes ("mixamorig:LeftArm",
 *      "Armature|Hips"); then one of the prefixes mixamorig (and its digits), jbip (VRoid's J_Bip_),
 *      bip001, bip01 (3ds Max Biped). VRoid's helpers J_Aim_, J_Roll_, J_Sec_, J_Adj_ keep theirs
 *      and never match.
 *   3. Sides. A side written at the end of the raw name (".L", "_R", " l", "-r"; or 左 / 右, as in
 *      腰キャンセル左) is the side, and only the sided reading is tried. Otherwise, in this order: the
 *      name as it is (a centre role), "left" / "right", 左 / 右, a trailing "left" / "right" word
 *      (HandLeft), a one-letter l / r (lupperarm; J_Bip_L_ becomes l), and c (J_Bip_C_ becomes c).
 *   4. Exact match of what remains against the naming tables (wasm/src/rig/rig_names.c; no prefix or
 *      substring matching, so 左足ＩＫ never becomes 左足). A table lists a base once per sidedness,
 *      and each entry has a rank (lower wins inside its table: ひじ before 肘).
 *        vroid    VRM / Unity humanoid names, VRoid J_Bip, Blender / glTF exports (UpperArm.L,
 *                 thigh.L, shin.L, Abdomen, Torso), fingers (thumbProximal ...)
 *        mixamo   Mixamo / MotionBuilder (Spine1, LeftArm, LeftForeArm, LeftUpLeg, LeftLeg = the shin)
 *        mmd      the semi-standard Japanese names of the roles above
 *        english  PMX Editor's English bone names (center, groove, upper body2, leg_L, knee_L,
 *                 leg IK_L, leg IKP_L, toe IK_L, arm twist_L, toe2_L ...)
 *        chinese  臀部, 脊柱, 胸部, 脖子, 头, 左大臂, 左小臂, 左大腿, 左小腿, 左脚 ...
 *        biped    3ds Max Biped (Pelvis, Spine1, L Clavicle, L Thigh, L Calf, L Toe0, Finger0 ...)
 *        daz      Daz / Poser (hip, abdomen, lShldr, lForeArm, lThigh, lShin, Bend bones)
 *        cmu      CMU motion-capture BVH names (bvh11 and ASF: LeftShoulder is the UPPER arm,
 *                 LeftCollar the clavicle, lhumerus, ltibia ...), used only when the names carry a
 *                 CMU signature (a LeftCollar, LHipJoint, lowerback or lhumerus)
 *   5. Choosing: every table maps the names on its own (per role the best rank, then the bone that
 *      comes first); the PRIMARY table is the one that maps most core bones (score: 100 for each
 *      upper arm and upper leg found, plus 1 for the head and each lower arm, hand, lower leg and foot;
 *      ties go to the earlier table in the order above). Its roles are taken; every role it lacks is
 *      filled from the other tables in the order above (cmu first when signed), never with a bone that
 *      already plays a role. So a name means what the model's own naming means: on a Mixamo rig
 *      LeftLeg is the shin, in a PMX's English names leg_L is the thigh.
 *   6. English names (a skeleton's name_en, or names_en) are resolved the same way, after the names,
 *      and only fill roles still empty with bones still free (from_english marks them).
 *
 * IK CHAINS (pm_rig_chain, one per bone with IK, in bone order)
 *   Target (effector), links (the skeleton's, nearest the target first, with limits in radians as
 *   stored), loop count, limit angle, the IK bone's parent and its role (足IK親, 全ての親, ...), the
 *   side, and the kind: LEG (target is a leg's ankle), TOE (a toe), LEG_D (ひざD style: the target or a
 *   link is a D bone), ARM (arm and sleeve chains: the target or a link plays an arm role, or the
 *   name holds 袖 / sleeve), HAIR (髪, hair, ヘア, ポニ, ツインテ, おさげ, もみあげ in the IK bone's or
 *   the target's name), OTHER.
 *
 * REST GEOMETRY (world units, rest pose; MEASURED means the pose evaluator (pose.h: babylon-mmd's FK
 * and CCD with limits) produced the figure, so it is what babylon-mmd shows)
 *   chain.rest_offset     IK bone rest position minus effector rest position: a leg IK key written "at
 *                         the ankle" is off by this much (0.36 units on some PMD models).
 *   chain.rest_error      MEASURED: distance from the effector to the IK bone after solving the rest
 *                         pose. rest_shift: how far that solve moved the effector from its rest spot.
 *   leg.knee_rest_bend    angle between thigh (hip -> knee) and shin (knee -> ankle) at rest, radians.
 *   leg.knee_bend_min/max the least and the largest bend the knee link's limit allows: the knee turned
 *                         about X through the limit's X range (clamped to [-pi, pi], which is all the
 *                         Euler decomposition gives; the limit holds Y and Z at 0), from the rest pose.
 *                         bend_min is the most open knee MMD allows: the rest bend plus 0.5 degrees for
 *                         a PMX knee (-180..-0.5 degrees), about 28.6 more for a PMD knee under
 *                         babylon-mmd (its -180..-0.5 read as radians). Only with a limited knee link.
 *   leg.reach_rest        |hip - ankle| at rest.
 *   leg.reach_max         MEASURED with the CCD: the hip-ankle distance with the leg IK bone put twice
 *                         the leg's length straight below the hip (the leg stretched as far as MMD's IK
 *                         takes it; it lies below thigh + shin whenever the knee rests bent). Far targets
 *                         in other directions stretch it to within ~0.01 of this.
 *   leg.reach_min         the least hip-ankle distance over the knee's range (the same sweep as the
 *                         bends; what the CCD reaches with a target at the hip, tests/c/test_rig.c); for
 *                         an unlimited knee MEASURED with the IK bone at the hip. 0 without a leg IK.
 *   leg.thigh, shin, length; foot_length (ankle to toe, horizontal); ankle_height (MEASURED: the
 *                         ankle's Y in the solved rest pose).
 *   floor_height          MEASURED: lowest Y of the ankles, heels and toes in the solved rest pose.
 *   hip_height            MEASURED: mean Y of the two hip joints (足) in the solved rest pose.
 *   scale                 mean leg length over the standard figure's (NOTES.md: 9.419 units), 1 = a
 *                         ~20-unit figure; 0 without legs.
 *   arm.upper, fore, length, elbow_rest_bend (shoulder joint 腕 -> ひじ -> 手首).
 *
 * OWNERSHIP AND LIMITS
 *   pm_rig_analyze allocates the rig and frees its scratch before returning; pm_rig_free(NULL) is
 *   fine. The rig BORROWS the skeleton (chains point at its IK links, pm_rig_to_json reads its names):
 *   keep the skeleton alive and unchanged while the rig is used. pm_rig_resolve_* and
 *   pm_rig_name_role allocate nothing. Names whose key is longer than 63 bytes never match. No global
 *   state: every call is reentrant. No NaN or Inf: a figure that overflows the float range (positions
 *   near 3e38) is 0, and an IK goal beyond it is not measured.
 *
 * ERRORS
 *   NULL skeleton, names or out, a NULL name: PM_ERR_INVALID_ARGUMENT. An invalid skeleton:
 *   pm_skeleton_validate's error. Out of memory: PM_ERR_OUT_OF_MEMORY. A skeleton without any known
 *   bone is not an error (no roles, no legs).
 */
#ifndef PROCMOTION_RIG_H
#define PROCMOTION_RIG_H

#include "procmotion/common.h"
#include "procmotion/math.h"
#include "procmotion/skeleton.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- roles ----------------------------------------------------------------------------------- */

/* ---- the 22 humanoid bones (VRM humanBones; humanoid.h maps names onto them) -------------------- */

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

/* "hips", "upperChest", "leftUpperArm", ... (VRM humanoid names); NULL outside 0..21. */
const char *pm_humanoid_bone_name(pm_humanoid_bone bone);
/* One of the 16 required bones (hips, spine, neck, head, and the upper arms, lower arms, hands, upper
 * legs, lower legs and feet). */
bool pm_humanoid_bone_required(pm_humanoid_bone bone);


typedef enum pm_rig_role {
    PM_RIG_ROOT = 0,     /* 全ての親 */
    PM_RIG_VIEW_CENTER,  /* 操作中心 */
    PM_RIG_CENTER,       /* センター */
    PM_RIG_GROOVE,       /* グルーブ */
    PM_RIG_WAIST,        /* 腰 */
    PM_RIG_LOWER_BODY,   /* 下半身: humanoid hips */
    PM_RIG_UPPER_BODY,   /* 上半身: spine */
    PM_RIG_UPPER_BODY2,  /* 上半身2: chest */
    PM_RIG_UPPER_BODY3,  /* 上半身3: upperChest */
    PM_RIG_NECK,         /* 首 */
    PM_RIG_HEAD,         /* 頭 */
    PM_RIG_EYES,         /* 両目 */
    PM_RIG_CENTER_ROLE_COUNT,

    /* the left side; each PM_RIG_RIGHT_X is PM_RIG_LEFT_X + PM_RIG_SIDE_ROLE_COUNT */
    PM_RIG_LEFT_EYE = PM_RIG_CENTER_ROLE_COUNT, /* 左目 */
    PM_RIG_LEFT_SHOULDER_P,  /* 左肩P */
    PM_RIG_LEFT_SHOULDER,    /* 左肩: leftShoulder */
    PM_RIG_LEFT_SHOULDER_C,  /* 左肩C */
    PM_RIG_LEFT_ARM,         /* 左腕: leftUpperArm */
    PM_RIG_LEFT_ARM_TWIST,   /* 左腕捩 */
    PM_RIG_LEFT_ELBOW,       /* 左ひじ: leftLowerArm */
    PM_RIG_LEFT_WRIST_TWIST, /* 左手捩 */
    PM_RIG_LEFT_WRIST,       /* 左手首: leftHand */
    PM_RIG_LEFT_THUMB0,      /* 左親指０ */
    PM_RIG_LEFT_THUMB1,
    PM_RIG_LEFT_THUMB2,
    PM_RIG_LEFT_INDEX1,      /* 左人指１ */
    PM_RIG_LEFT_INDEX2,
    PM_RIG_LEFT_INDEX3,
    PM_RIG_LEFT_MIDDLE1,     /* 左中指１ */
    PM_RIG_LEFT_MIDDLE2,
    PM_RIG_LEFT_MIDDLE3,
    PM_RIG_LEFT_RING1,       /* 左薬指１ */
    PM_RIG_LEFT_RING2,
    PM_RIG_LEFT_RING3,
    PM_RIG_LEFT_LITTLE1,     /* 左小指１ */
    PM_RIG_LEFT_LITTLE2,
    PM_RIG_LEFT_LITTLE3,
    PM_RIG_LEFT_WAIST_CANCEL, /* 腰キャンセル左 */
    PM_RIG_LEFT_LEG,         /* 左足: leftUpperLeg */
    PM_RIG_LEFT_KNEE,        /* 左ひざ: leftLowerLeg */
    PM_RIG_LEFT_ANKLE,       /* 左足首: leftFoot */
    PM_RIG_LEFT_TOE,         /* 左つま先: leftToes */
    PM_RIG_LEFT_HEEL,        /* 左かかと (rare) */
    PM_RIG_LEFT_LEG_IK_PARENT, /* 左足IK親 */
    PM_RIG_LEFT_LEG_IK,      /* 左足ＩＫ */
    PM_RIG_LEFT_TOE_IK,      /* 左つま先ＩＫ */
    PM_RIG_LEFT_LEG_D,       /* 左足D */
    PM_RIG_LEFT_KNEE_D,      /* 左ひざD */
    PM_RIG_LEFT_ANKLE_D,     /* 左足首D */
    PM_RIG_LEFT_TOE_EX,      /* 左足先EX */
    PM_RIG_LEFT_END,
    PM_RIG_SIDE_ROLE_COUNT = PM_RIG_LEFT_END - PM_RIG_CENTER_ROLE_COUNT, /* 37 */

    PM_RIG_RIGHT_EYE = PM_RIG_LEFT_END,
    PM_RIG_RIGHT_SHOULDER_P, PM_RIG_RIGHT_SHOULDER, PM_RIG_RIGHT_SHOULDER_C, PM_RIG_RIGHT_ARM,
    PM_RIG_RIGHT_ARM_TWIST, PM_RIG_RIGHT_ELBOW, PM_RIG_RIGHT_WRIST_TWIST, PM_RIG_RIGHT_WRIST,
    PM_RIG_RIGHT_THUMB0, PM_RIG_RIGHT_THUMB1, PM_RIG_RIGHT_THUMB2, PM_RIG_RIGHT_INDEX1, PM_RIG_RIGHT_INDEX2,
    PM_RIG_RIGHT_INDEX3, PM_RIG_RIGHT_MIDDLE1, PM_RIG_RIGHT_MIDDLE2, PM_RIG_RIGHT_MIDDLE3, PM_RIG_RIGHT_RING1,
    PM_RIG_RIGHT_RING2, PM_RIG_RIGHT_RING3, PM_RIG_RIGHT_LITTLE1, PM_RIG_RIGHT_LITTLE2, PM_RIG_RIGHT_LITTLE3,
    PM_RIG_RIGHT_WAIST_CANCEL, PM_RIG_RIGHT_LEG, PM_RIG_RIGHT_KNEE, PM_RIG_RIGHT_ANKLE, PM_RIG_RIGHT_TOE,
    PM_RIG_RIGHT_HEEL, PM_RIG_RIGHT_LEG_IK_PARENT, PM_RIG_RIGHT_LEG_IK, PM_RIG_RIGHT_TOE_IK, PM_RIG_RIGHT_LEG_D,
    PM_RIG_RIGHT_KNEE_D, PM_RIG_RIGHT_ANKLE_D, PM_RIG_RIGHT_TOE_EX,
    PM_RIG_ROLE_COUNT, /* 86 */
    PM_RIG_ROLE_NONE = PM_RIG_ROLE_COUNT,
    PM_RIG_ROLE_FORCE_U32 = 0x7fffffff
} pm_rig_role;

/* The role of side `side` (0 left, 1 right) for a left role (PM_RIG_LEFT_*): left + side * count. */
#define PM_RIG_SIDED(left_role, side) ((pm_rig_role)((left_role) + (side) * PM_RIG_SIDE_ROLE_COUNT))

/* The naming tables, in the resolver's order after the primary table (rule 5). The values are
 * pm_humanoid_naming's (humanoid.h). */
typedef enum pm_rig_naming {
    PM_RIG_NAMING_NONE = 0,
    PM_RIG_NAMING_VROID,   /* VRM / VRoid / Unity / Blender humanoid names */
    PM_RIG_NAMING_MIXAMO,
    PM_RIG_NAMING_MMD,     /* semi-standard Japanese names */
    PM_RIG_NAMING_CHINESE,
    PM_RIG_NAMING_BIPED,
    PM_RIG_NAMING_CMU,     /* CMU motion-capture BVH names (needs a CMU signature) */
    PM_RIG_NAMING_DAZ,
    PM_RIG_NAMING_ENGLISH, /* PMX Editor's English bone names */
    PM_RIG_NAMING_COUNT,
    PM_RIG_NAMING_FORCE_U32 = 0x7fffffff
} pm_rig_naming;

#define PM_RIG_NAMING_BIT(n) (1u << (n))

/* What the resolver found. bone[r] indexes the names (or the skeleton's bones), PM_NO_INDEX = none. */
typedef struct pm_rig_roles {
    uint32_t bone[PM_RIG_ROLE_COUNT];
    uint8_t naming[PM_RIG_ROLE_COUNT];       /* pm_rig_naming of the table that matched (NONE if none) */
    bool from_english[PM_RIG_ROLE_COUNT];    /* matched by the bone's English name (rule 6) */
    pm_rig_naming primary;                   /* the primary table of the names (NONE: nothing matched) */
    bool cmu_signature;                      /* the names carry a CMU signature (rule 4, cmu) */
    uint32_t found;                          /* roles with a bone */
} pm_rig_roles;

/* Resolver options; zero-initialise (or pass NULL) for the default: every table. */
typedef struct pm_rig_resolve_options {
    uint32_t namings;   /* PM_RIG_NAMING_BIT mask of the tables to use; 0 = all. A single table maps
                           the names on its own (and cmu then needs no signature). */
} pm_rig_resolve_options;

/* Resolve `count` UTF-8 names (and optional English names, names_en[i] NULL or "" for none). */
pm_result pm_rig_resolve_names(const char *const *names, const char *const *names_en, uint32_t count,
                               const pm_rig_resolve_options *opts, pm_rig_roles *out, pm_error *err);
/* The same for a skeleton's names and English names. */
pm_result pm_rig_resolve_skeleton(const pm_skeleton *skeleton, const pm_rig_resolve_options *opts, pm_rig_roles *out,
                                  pm_error *err);

/* The role one name plays on its own (the first table in the order of rule 5 that has it; cmu only
 * when opts selects it), or PM_RIG_ROLE_NONE. `naming` (may be NULL) receives the table. */
pm_rig_role pm_rig_name_role(const char *name, size_t len, const pm_rig_resolve_options *opts, pm_rig_naming *naming);

/* "leftLegIk", "upperBody2", ...; NULL outside 0..PM_RIG_ROLE_COUNT-1. */
const char *pm_rig_role_name(pm_rig_role role);
/* The semi-standard MMD name: "左足ＩＫ", "上半身2", "腰キャンセル左", ...; NULL outside the range. */
const char *pm_rig_role_mmd_name(pm_rig_role role);
/* The role whose name is `name` (pm_rig_role_name's), or PM_RIG_ROLE_NONE. */
pm_rig_role pm_rig_role_find(const char *name);
/* 0 centre, 1 left, 2 right. */
int pm_rig_role_side(pm_rig_role role);
/* The same role on the other side (centre roles map to themselves). */
pm_rig_role pm_rig_role_mirror(pm_rig_role role);
/* The humanoid bone a role is (PM_HUMANOID_BONE_COUNT for none), and the role of a humanoid bone. */
pm_humanoid_bone pm_rig_role_humanoid(pm_rig_role role);
pm_rig_role pm_rig_role_of_humanoid(pm_humanoid_bone bone);
/* "vroid", "mixamo", "mmd", "chinese", "biped", "cmu", "daz", "english", "none". */
const char *pm_rig_naming_name(pm_rig_naming naming);

/* ---- the analysis ------------------------------------------------------------------------------ */

typedef enum pm_rig_chain_kind {
    PM_RIG_CHAIN_OTHER = 0,
    PM_RIG_CHAIN_LEG,      /* target: a leg's ankle (足ＩＫ) */
    PM_RIG_CHAIN_TOE,      /* target: a toe (つま先ＩＫ) */
    PM_RIG_CHAIN_LEG_D,    /* ひざD style: a D bone as target or link */
    PM_RIG_CHAIN_ARM,      /* arm and sleeve chains (左ひじIK, 左手首IK, 左手首袖IK) */
    PM_RIG_CHAIN_HAIR,     /* hair chains */
    PM_RIG_CHAIN_KIND_COUNT,
    PM_RIG_CHAIN_KIND_FORCE_U32 = 0x7fffffff
} pm_rig_chain_kind;

/* "other", "leg", "toe", "legD", "arm", "hair". */
const char *pm_rig_chain_kind_name(pm_rig_chain_kind kind);

typedef struct pm_rig_chain {
    uint32_t ik_bone;        /* the bone with the IK */
    uint32_t target;         /* the effector, PM_NO_INDEX when the chain has none */
    uint32_t link_count;
    const pm_ik_link *links; /* the skeleton's (borrowed): nearest the target first, limits in radians */
    uint32_t loop_count;
    float limit_angle;       /* radians per iteration step */
    pm_rig_chain_kind kind;
    uint8_t side;            /* 0 none, 1 left, 2 right */
    uint32_t parent;         /* the IK bone's parent, PM_NO_INDEX for none */
    pm_rig_role parent_role; /* the role the parent plays (legIkParent, root, ...) or PM_RIG_ROLE_NONE */
    pm_vec3 rest_offset;     /* IK bone rest position - effector rest position */
    float rest_distance;     /* |rest_offset| */
    float rest_error;        /* MEASURED: |effector - IK bone| after the rest-pose solve */
    float rest_shift;        /* MEASURED: how far the rest-pose solve moves the effector */
} pm_rig_chain;

typedef struct pm_rig_leg {
    bool present;            /* hip, knee and ankle found, the knee below the hip and the ankle below the knee */
    uint32_t hip, knee, ankle, toe, heel; /* bones (toe, heel may be PM_NO_INDEX) */
    uint32_t ik_chain;       /* index into chains of the leg IK (kind LEG), or PM_NO_INDEX */
    uint32_t toe_chain;      /* kind TOE on this side, or PM_NO_INDEX */
    uint32_t d_chain;        /* kind LEG_D on this side, or PM_NO_INDEX */
    float thigh, shin, length;
    float knee_rest_bend;    /* radians */
    bool knee_limited;       /* the leg chain's knee link has limits */
    pm_vec3 knee_limit_min, knee_limit_max; /* those limits (radians, as stored; zero when not limited) */
    float knee_bend_min, knee_bend_max;     /* the bends the limit allows, radians (0 when not limited) */
    float reach_rest, reach_min, reach_max; /* hip-ankle distances (reach_max MEASURED with the CCD) */
    float foot_length;       /* ankle to toe, horizontal (0 without a toe) */
    float ankle_height;      /* the ankle's Y in the solved rest pose */
} pm_rig_leg;

typedef struct pm_rig_arm {
    bool present;            /* 腕, ひじ and 手首 found, each below the previous */
    uint32_t shoulder, arm, elbow, wrist; /* shoulder may be PM_NO_INDEX */
    uint32_t ik_chain;       /* an ARM chain on this side, or PM_NO_INDEX */
    float upper, fore, length;
    float elbow_rest_bend;   /* radians */
} pm_rig_arm;

typedef struct pm_rig {
    uint32_t magic;                /* internal */
    const pm_skeleton *skeleton;   /* borrowed */
    pm_rig_roles roles;
    uint32_t chain_count;
    pm_rig_chain *chains;          /* [chain_count] */
    pm_rig_leg legs[2];            /* 0 left, 1 right */
    pm_rig_arm arms[2];
    float floor_height;            /* lowest Y of ankles, heels, toes in the solved rest pose (0 without legs) */
    float hip_height;              /* mean Y of the hips in the solved rest pose (0 without legs) */
    float leg_length;              /* mean thigh + shin of the present legs */
    float foot_length;             /* mean of the present legs' */
    float scale;                   /* leg_length / 9.419 (the standard figure); 0 without legs */
    pm_allocator allocator;
} pm_rig;

/* Options; zero-initialise (or pass NULL) for the defaults: malloc/free, every naming table. */
typedef struct pm_rig_options {
    pm_allocator allocator;
    pm_rig_resolve_options resolve;
} pm_rig_options;

pm_result pm_rig_analyze(const pm_skeleton *skeleton, const pm_rig_options *opts, pm_rig **out, pm_error *err);
void pm_rig_free(pm_rig *rig);

/* The IK bone whose chain has `target` as its effector and `link` among its links (PM_NO_INDEX: any
 * link), the first in bone order; PM_NO_INDEX when none. */
uint32_t pm_rig_find_ik(const pm_skeleton *skeleton, uint32_t target, uint32_t link);

/* The analysis as JSON (schema: docs/models.md). out == NULL only sets *out_size (the length without the
 * NUL); otherwise out_cap must hold out_size + 1 bytes. */
pm_result pm_rig_to_json(const pm_rig *rig, char *out, size_t out_cap, size_t *out_size, pm_error *err);

/* ---- the model a generator writes for ---------------------------------------------------------- */

/*
 * The model a generator writes for (the catwalk, the idle, ...): its bone names (for channel
 * resolution), optionally their world rest positions (for proportions) and parents, and its morph names. Either fill the arrays or set `skeleton` (a PMX
 * reader's result or pm_skeleton_create's), which then replaces them. bone_names NULL (and no
 * skeleton) means every semi-standard bone with the standard proportions; the morph names still
 * count. All borrowed for the call. A position that is NaN or Inf counts as unknown.
 */
typedef struct pm_target_model {
    uint32_t bone_count;
    const char *const *bone_names;  /* [bone_count] UTF-8; NULL entries are ignored */
    const pm_vec3 *bone_positions;  /* optional [bone_count]: world rest positions */
    const uint32_t *bone_parents;   /* optional [bone_count]: parent index or PM_NO_INDEX */
    uint32_t morph_count;
    const char *const *morph_names; /* [morph_count] UTF-8 */
    const pm_skeleton *skeleton;    /* optional: names (and English names), positions, parents and
                                       morph names all come from here */
} pm_target_model;

/* The morph that plays `role` on a model: the first of the role's names (in the order listed) that one of
 * the model's morph names matches by its key (pm_name_key: case, width and separators ignored); NULL
 * when none does. The name returned is the model's (borrowed from it). */
typedef enum pm_rig_morph {
    PM_RIG_MORPH_BLINK = 0, /* both eyes closed: まばたき, 瞬き, blink, Fcl_EYE_Close, eye_close, eyeBlink */
    PM_RIG_MORPH_SMILE,     /* a light smile: 口角上げ, 微笑み, にやり, smile, Fcl_MTH_Fun, mouth_smile */
    PM_RIG_MORPH_COUNT
} pm_rig_morph;

const char *pm_rig_target_morph(const pm_target_model *model, pm_rig_morph role);

/* ---- the body as capsules ------------------------------------------------------------------------ */

/* Capsules around the torso, the head and the thighs, built from the rig's rest geometry, for measuring
 * how near the hands come to the body (pm_landing_measure_body). Each end rides on a bone: played, an
 * end is the bone's world matrix applied to (end - the bone's rest position). Radii scale with the leg
 * length L (1 = the standard figure's 9.42 units): torso 0.105 L from the pelvis to the base of the neck,
 * head 0.11 L about a point 0.11 L above 頭, thighs 0.085 L from the hip joint to the knee. A capsule
 * whose bones the model lacks is not present. */
typedef enum pm_rig_capsule_id {
    PM_RIG_CAPSULE_TORSO = 0,
    PM_RIG_CAPSULE_HEAD,
    PM_RIG_CAPSULE_LEFT_THIGH,
    PM_RIG_CAPSULE_RIGHT_THIGH,
    PM_RIG_CAPSULE_COUNT
} pm_rig_capsule_id;

typedef struct pm_rig_capsule {
    bool present;
    uint32_t bone[2]; /* the bones that carry the two ends (the same bone for a sphere) */
    pm_vec3 end[2];   /* the ends' rest positions (world) */
    float radius;
} pm_rig_capsule;

/* "torso", "head", "leftThigh", "rightThigh". */
const char *pm_rig_capsule_name(pm_rig_capsule_id id);
void pm_rig_body_capsules(const pm_rig *rig, pm_rig_capsule out[PM_RIG_CAPSULE_COUNT]);

/* The capsules' proportions, in leg lengths (thigh + shin): the torso's radius (its ends 0.6 radius above
 * the hip joints' midpoint and 0.5 radius below the neck), the head sphere's (its centre one radius above
 * 頭), the thighs' (hip joint to knee). For a body built the same way on another skeleton. */
#define PM_RIG_TORSO_RADIUS 0.105f
#define PM_RIG_HEAD_RADIUS 0.11f
#define PM_RIG_THIGH_RADIUS 0.085f

/* A VRoid or Mixamo hips bone carries the body like センター when the model has no センター: its bone moves
 * from lowerBody to center (an MMD or English 下半身 stays where it is). */
void pm_rig_roles_hips_as_center(pm_rig_roles *roles);

#ifdef __cplusplus
}
#endif

#endif
