/* The role resolver: keys, sides, the naming tables and the choice between them (procmotion/rig.h,
 * THE RESOLVER). Every module that looks bones up by meaning goes through here. */
#include "rig/rig_internal.h"

#include "procmotion/text.h"
#include "text/utf.h"

_Static_assert(PM_RIG_SIDE_ROLE_COUNT == 37, "37 roles per side");
_Static_assert(PM_RIG_ROLE_COUNT == PM_RIG_CENTER_ROLE_COUNT + 2 * PM_RIG_SIDE_ROLE_COUNT, "right block mirrors the left");
_Static_assert(PM_RIG_RIGHT_TOE_EX == PM_RIG_LEFT_TOE_EX + PM_RIG_SIDE_ROLE_COUNT, "right block order");

/* ---- humanoid bones ------------------------------------------------------------------------------- */

static const char *const bone_names[PM_HUMANOID_BONE_COUNT] = {
    "hips", "spine", "chest", "upperChest", "neck", "head",
    "leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand",
    "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",
    "leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes",
    "rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes"};

const char *pm_humanoid_bone_name(pm_humanoid_bone bone) {
    return (unsigned)bone < PM_HUMANOID_BONE_COUNT ? bone_names[bone] : NULL;
}

bool pm_humanoid_bone_required(pm_humanoid_bone b) {
    switch (b) {
    case PM_HUMANOID_HIPS: case PM_HUMANOID_SPINE: case PM_HUMANOID_NECK: case PM_HUMANOID_HEAD:
    case PM_HUMANOID_LEFT_UPPER_ARM: case PM_HUMANOID_LEFT_LOWER_ARM: case PM_HUMANOID_LEFT_HAND:
    case PM_HUMANOID_RIGHT_UPPER_ARM: case PM_HUMANOID_RIGHT_LOWER_ARM: case PM_HUMANOID_RIGHT_HAND:
    case PM_HUMANOID_LEFT_UPPER_LEG: case PM_HUMANOID_LEFT_LOWER_LEG: case PM_HUMANOID_LEFT_FOOT:
    case PM_HUMANOID_RIGHT_UPPER_LEG: case PM_HUMANOID_RIGHT_LOWER_LEG: case PM_HUMANOID_RIGHT_FOOT: return true;
    default: return false;
    }
}

/* ---- role names ---------------------------------------------------------------------------------- */

typedef struct role_def {
    const char *name;     /* JSON / JS name of the left (or centre) role, "left" prefix included */
    const char *mmd;      /* semi-standard name of the left (or centre) role */
    const char *mmd_right;/* right-side name when not 右 + the left one minus 左 (腰キャンセル右) */
} role_def;

#define L "\xe5\xb7\xa6" /* 左 */
static const role_def ROLES[PM_RIG_CENTER_ROLE_COUNT + PM_RIG_SIDE_ROLE_COUNT] = {
    {"root", "全ての親", 0}, {"viewCenter", "操作中心", 0}, {"center", "センター", 0}, {"groove", "グルーブ", 0},
    {"waist", "腰", 0}, {"lowerBody", "下半身", 0}, {"upperBody", "上半身", 0}, {"upperBody2", "上半身2", 0},
    {"upperBody3", "上半身3", 0}, {"neck", "首", 0}, {"head", "頭", 0}, {"eyes", "両目", 0},
    {"leftEye", L "目", 0}, {"leftShoulderP", L "肩P", 0}, {"leftShoulder", L "肩", 0}, {"leftShoulderC", L "肩C", 0},
    {"leftArm", L "腕", 0}, {"leftArmTwist", L "腕捩", 0}, {"leftElbow", L "ひじ", 0}, {"leftWristTwist", L "手捩", 0},
    {"leftWrist", L "手首", 0}, {"leftThumb0", L "親指０", 0}, {"leftThumb1", L "親指１", 0}, {"leftThumb2", L "親指２", 0},
    {"leftIndex1", L "人指１", 0}, {"leftIndex2", L "人指２", 0}, {"leftIndex3", L "人指３", 0},
    {"leftMiddle1", L "中指１", 0}, {"leftMiddle2", L "中指２", 0}, {"leftMiddle3", L "中指３", 0},
    {"leftRing1", L "薬指１", 0}, {"leftRing2", L "薬指２", 0}, {"leftRing3", L "薬指３", 0},
    {"leftLittle1", L "小指１", 0}, {"leftLittle2", L "小指２", 0}, {"leftLittle3", L "小指３", 0},
    {"leftWaistCancel", "腰キャンセル左", "腰キャンセル右"}, {"leftLeg", L "足", 0}, {"leftKnee", L "ひざ", 0},
    {"leftAnkle", L "足首", 0}, {"leftToe", L "つま先", 0}, {"leftHeel", L "かかと", 0}, {"leftLegIkParent", L "足IK親", 0},
    {"leftLegIk", L "足ＩＫ", 0}, {"leftToeIk", L "つま先ＩＫ", 0}, {"leftLegD", L "足D", 0}, {"leftKneeD", L "ひざD", 0},
    {"leftAnkleD", L "足首D", 0}, {"leftToeEx", L "足先EX", 0},
};
#undef L

/* Right-side names, made once from the table: "right" + name[4..], 右 + mmd[3..]. Written out (not
 * computed per call) so that the lookups return stable strings without global mutable state. */
static const char *const RIGHT_NAMES[PM_RIG_SIDE_ROLE_COUNT] = {
    "rightEye", "rightShoulderP", "rightShoulder", "rightShoulderC", "rightArm", "rightArmTwist", "rightElbow",
    "rightWristTwist", "rightWrist", "rightThumb0", "rightThumb1", "rightThumb2", "rightIndex1", "rightIndex2",
    "rightIndex3", "rightMiddle1", "rightMiddle2", "rightMiddle3", "rightRing1", "rightRing2", "rightRing3",
    "rightLittle1", "rightLittle2", "rightLittle3", "rightWaistCancel", "rightLeg", "rightKnee", "rightAnkle",
    "rightToe", "rightHeel", "rightLegIkParent", "rightLegIk", "rightToeIk", "rightLegD", "rightKneeD",
    "rightAnkleD", "rightToeEx"};
#define R "\xe5\x8f\xb3" /* 右 */
static const char *const RIGHT_MMD[PM_RIG_SIDE_ROLE_COUNT] = {
    R "目", R "肩P", R "肩", R "肩C", R "腕", R "腕捩", R "ひじ", R "手捩", R "手首", R "親指０", R "親指１", R "親指２",
    R "人指１", R "人指２", R "人指３", R "中指１", R "中指２", R "中指３", R "薬指１", R "薬指２", R "薬指３", R "小指１",
    R "小指２", R "小指３", "腰キャンセル右", R "足", R "ひざ", R "足首", R "つま先", R "かかと", R "足IK親", R "足ＩＫ",
    R "つま先ＩＫ", R "足D", R "ひざD", R "足首D", R "足先EX"};
#undef R

int pm_rig_role_side(pm_rig_role r) {
    if ((unsigned)r >= PM_RIG_ROLE_COUNT || r < PM_RIG_CENTER_ROLE_COUNT) return 0;
    return r < PM_RIG_LEFT_END ? 1 : 2;
}

pm_rig_role pm_rig_role_mirror(pm_rig_role r) {
    int side = pm_rig_role_side(r);
    if (side == 1) return (pm_rig_role)(r + PM_RIG_SIDE_ROLE_COUNT);
    if (side == 2) return (pm_rig_role)(r - PM_RIG_SIDE_ROLE_COUNT);
    return r;
}

const char *pm_rig_role_name(pm_rig_role r) {
    if ((unsigned)r >= PM_RIG_ROLE_COUNT) return NULL;
    return pm_rig_role_side(r) == 2 ? RIGHT_NAMES[r - PM_RIG_LEFT_END] : ROLES[r].name;
}

const char *pm_rig_role_mmd_name(pm_rig_role r) {
    if ((unsigned)r >= PM_RIG_ROLE_COUNT) return NULL;
    return pm_rig_role_side(r) == 2 ? RIGHT_MMD[r - PM_RIG_LEFT_END] : ROLES[r].mmd;
}

pm_rig_role pm_rig_role_find(const char *name) {
    if (!name) return PM_RIG_ROLE_NONE;
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++)
        if (strcmp(pm_rig_role_name((pm_rig_role)r), name) == 0) return (pm_rig_role)r;
    return PM_RIG_ROLE_NONE;
}

const char *pm_rig_naming_name(pm_rig_naming n) {
    static const char *const names[PM_RIG_NAMING_COUNT] = {"none", "vroid", "mixamo", "mmd", "chinese",
                                                           "biped", "cmu", "daz", "english"};
    return (unsigned)n < PM_RIG_NAMING_COUNT ? names[n] : "none";
}

static const struct {
    pm_humanoid_bone bone;
    pm_rig_role role;
} HUMANOID[PM_HUMANOID_BONE_COUNT] = {
    {PM_HUMANOID_HIPS, PM_RIG_LOWER_BODY}, {PM_HUMANOID_SPINE, PM_RIG_UPPER_BODY},
    {PM_HUMANOID_CHEST, PM_RIG_UPPER_BODY2}, {PM_HUMANOID_UPPER_CHEST, PM_RIG_UPPER_BODY3},
    {PM_HUMANOID_NECK, PM_RIG_NECK}, {PM_HUMANOID_HEAD, PM_RIG_HEAD},
    {PM_HUMANOID_LEFT_SHOULDER, PM_RIG_LEFT_SHOULDER}, {PM_HUMANOID_LEFT_UPPER_ARM, PM_RIG_LEFT_ARM},
    {PM_HUMANOID_LEFT_LOWER_ARM, PM_RIG_LEFT_ELBOW}, {PM_HUMANOID_LEFT_HAND, PM_RIG_LEFT_WRIST},
    {PM_HUMANOID_RIGHT_SHOULDER, PM_RIG_RIGHT_SHOULDER}, {PM_HUMANOID_RIGHT_UPPER_ARM, PM_RIG_RIGHT_ARM},
    {PM_HUMANOID_RIGHT_LOWER_ARM, PM_RIG_RIGHT_ELBOW}, {PM_HUMANOID_RIGHT_HAND, PM_RIG_RIGHT_WRIST},
    {PM_HUMANOID_LEFT_UPPER_LEG, PM_RIG_LEFT_LEG}, {PM_HUMANOID_LEFT_LOWER_LEG, PM_RIG_LEFT_KNEE},
    {PM_HUMANOID_LEFT_FOOT, PM_RIG_LEFT_ANKLE}, {PM_HUMANOID_LEFT_TOES, PM_RIG_LEFT_TOE},
    {PM_HUMANOID_RIGHT_UPPER_LEG, PM_RIG_RIGHT_LEG}, {PM_HUMANOID_RIGHT_LOWER_LEG, PM_RIG_RIGHT_KNEE},
    {PM_HUMANOID_RIGHT_FOOT, PM_RIG_RIGHT_ANKLE}, {PM_HUMANOID_RIGHT_TOES, PM_RIG_RIGHT_TOE},
};

pm_rig_role pm_rig_role_of_humanoid(pm_humanoid_bone b) {
    return (unsigned)b < PM_HUMANOID_BONE_COUNT ? HUMANOID[b].role : PM_RIG_ROLE_NONE;
}

pm_humanoid_bone pm_rig_role_humanoid(pm_rig_role r) {
    for (int i = 0; i < PM_HUMANOID_BONE_COUNT; i++)
        if (HUMANOID[i].role == r) return HUMANOID[i].bone;
    return PM_HUMANOID_BONE_COUNT;
}

/* ---- the naming tables --------------------------------------------------------------------------- */

/* Keys (rule 1) without the side; sided entries name the left role. */
#define VR PM_RIG_NAMING_VROID
#define MX PM_RIG_NAMING_MIXAMO
#define MM PM_RIG_NAMING_MMD
#define EN PM_RIG_NAMING_ENGLISH
#define ZH PM_RIG_NAMING_CHINESE
#define BP PM_RIG_NAMING_BIPED
#define DZ PM_RIG_NAMING_DAZ
#define CM PM_RIG_NAMING_CMU
#define C(n, role, rank, key) {n, PM_RIG_##role, 0, rank, sizeof(key) - 1, key}
#define S(n, role, rank, key) {n, PM_RIG_LEFT_##role, 1, rank, sizeof(key) - 1, key}

static const pmi_rig_entry ENTRIES[] = {
    /* vroid: VRM / Unity humanoid names, VRoid J_Bip, Blender and glTF exports */
    C(VR, LOWER_BODY, 0, "hips"), C(VR, UPPER_BODY, 0, "spine"), C(VR, UPPER_BODY, 1, "abdomen"),
    C(VR, UPPER_BODY2, 0, "chest"), C(VR, UPPER_BODY2, 1, "torso"), C(VR, UPPER_BODY3, 0, "upperchest"),
    C(VR, NECK, 0, "neck"), C(VR, HEAD, 0, "head"),
    S(VR, SHOULDER, 0, "shoulder"), S(VR, ARM, 0, "upperarm"), S(VR, ELBOW, 0, "lowerarm"), S(VR, ELBOW, 1, "forearm"),
    S(VR, WRIST, 0, "hand"), S(VR, LEG, 0, "upperleg"), S(VR, LEG, 1, "thigh"), S(VR, KNEE, 0, "lowerleg"),
    S(VR, KNEE, 1, "shin"), S(VR, KNEE, 2, "calf"), S(VR, ANKLE, 0, "foot"), S(VR, TOE, 0, "toes"),
    S(VR, TOE, 1, "toebase"), S(VR, TOE, 2, "toe"), S(VR, EYE, 0, "eye"),
    S(VR, THUMB0, 0, "thumbmetacarpal"), S(VR, THUMB0, 1, "thumbproximal"), S(VR, THUMB0, 2, "thumb"),
    S(VR, THUMB1, 0, "thumbintermediate"), S(VR, THUMB1, 1, "thumb2"), S(VR, THUMB2, 0, "thumbdistal"),
    S(VR, INDEX1, 0, "indexproximal"), S(VR, INDEX1, 1, "index1"), S(VR, INDEX1, 2, "index"),
    S(VR, INDEX2, 0, "indexintermediate"), S(VR, INDEX3, 0, "indexdistal"),
    S(VR, MIDDLE1, 0, "middleproximal"), S(VR, MIDDLE2, 0, "middleintermediate"), S(VR, MIDDLE3, 0, "middledistal"),
    S(VR, RING1, 0, "ringproximal"), S(VR, RING2, 0, "ringintermediate"), S(VR, RING3, 0, "ringdistal"),
    S(VR, LITTLE1, 0, "littleproximal"), S(VR, LITTLE1, 1, "little1"), S(VR, LITTLE1, 2, "pinky1"),
    S(VR, LITTLE1, 3, "little"), S(VR, LITTLE1, 4, "pinky"), S(VR, LITTLE2, 0, "littleintermediate"),
    S(VR, LITTLE3, 0, "littledistal"),

    /* mixamo (and MotionBuilder): LeftLeg is the shin */
    C(MX, LOWER_BODY, 0, "hips"), C(MX, UPPER_BODY, 0, "spine"), C(MX, UPPER_BODY2, 0, "spine1"),
    C(MX, UPPER_BODY3, 0, "spine2"), C(MX, NECK, 0, "neck"), C(MX, HEAD, 0, "head"),
    S(MX, SHOULDER, 0, "shoulder"), S(MX, ARM, 0, "arm"), S(MX, ELBOW, 0, "forearm"), S(MX, WRIST, 0, "hand"),
    S(MX, LEG, 0, "upleg"), S(MX, KNEE, 0, "leg"), S(MX, ANKLE, 0, "foot"), S(MX, TOE, 0, "toebase"), S(MX, EYE, 0, "eye"),
    S(MX, THUMB0, 0, "handthumb1"), S(MX, THUMB0, 1, "thumb"), S(MX, THUMB1, 0, "handthumb2"),
    S(MX, INDEX1, 0, "handindex1"), S(MX, INDEX2, 0, "handindex2"), S(MX, INDEX3, 0, "handindex3"),
    S(MX, MIDDLE1, 0, "handmiddle1"), S(MX, MIDDLE2, 0, "handmiddle2"), S(MX, MIDDLE3, 0, "handmiddle3"),
    S(MX, RING1, 0, "handring1"), S(MX, RING2, 0, "handring2"), S(MX, RING3, 0, "handring3"),
    S(MX, LITTLE1, 0, "handpinky1"), S(MX, LITTLE2, 0, "handpinky2"), S(MX, LITTLE3, 0, "handpinky3"),

    /* mmd: the semi-standard names (keys: full-width folded, lower case: ＩＫ -> ik, Ｄ -> d) */
    C(MM, ROOT, 0, "全ての親"), C(MM, ROOT, 1, "全親"), C(MM, VIEW_CENTER, 0, "操作中心"), C(MM, CENTER, 0, "センター"),
    C(MM, GROOVE, 0, "グルーブ"), C(MM, WAIST, 0, "腰"), C(MM, LOWER_BODY, 0, "下半身"), C(MM, UPPER_BODY, 0, "上半身"),
    C(MM, UPPER_BODY2, 0, "上半身2"), C(MM, UPPER_BODY3, 0, "上半身3"), C(MM, NECK, 0, "首"), C(MM, HEAD, 0, "頭"),
    C(MM, EYES, 0, "両目"),
    S(MM, EYE, 0, "目"), S(MM, SHOULDER_P, 0, "肩p"), S(MM, SHOULDER, 0, "肩"), S(MM, SHOULDER_C, 0, "肩c"),
    S(MM, ARM, 0, "腕"), S(MM, ARM_TWIST, 0, "腕捩"), S(MM, ARM_TWIST, 1, "腕捩れ"), S(MM, ELBOW, 0, "ひじ"),
    S(MM, ELBOW, 1, "肘"), S(MM, WRIST_TWIST, 0, "手捩"), S(MM, WRIST_TWIST, 1, "手捩れ"), S(MM, WRIST, 0, "手首"),
    S(MM, THUMB0, 0, "親指0"), S(MM, THUMB1, 0, "親指1"), S(MM, THUMB2, 0, "親指2"),
    S(MM, INDEX1, 0, "人指1"), S(MM, INDEX1, 1, "人差指1"), S(MM, INDEX2, 0, "人指2"), S(MM, INDEX2, 1, "人差指2"),
    S(MM, INDEX3, 0, "人指3"), S(MM, INDEX3, 1, "人差指3"), S(MM, MIDDLE1, 0, "中指1"), S(MM, MIDDLE2, 0, "中指2"),
    S(MM, MIDDLE3, 0, "中指3"), S(MM, RING1, 0, "薬指1"), S(MM, RING2, 0, "薬指2"), S(MM, RING3, 0, "薬指3"),
    S(MM, LITTLE1, 0, "小指1"), S(MM, LITTLE2, 0, "小指2"), S(MM, LITTLE3, 0, "小指3"),
    S(MM, WAIST_CANCEL, 0, "腰キャンセル"), S(MM, LEG, 0, "足"), S(MM, KNEE, 0, "ひざ"), S(MM, KNEE, 1, "膝"),
    S(MM, ANKLE, 0, "足首"), S(MM, TOE, 0, "つま先"), S(MM, HEEL, 0, "かかと"), S(MM, HEEL, 1, "踵"),
    S(MM, LEG_IK_PARENT, 0, "足ik親"), S(MM, LEG_IK, 0, "足ik"), S(MM, TOE_IK, 0, "つま先ik"), S(MM, LEG_D, 0, "足d"),
    S(MM, KNEE_D, 0, "ひざd"), S(MM, ANKLE_D, 0, "足首d"), S(MM, TOE_EX, 0, "足先ex"),

    /* english: PMX Editor's English names of the semi-standard bones (leg_L is the thigh) */
    C(EN, ROOT, 0, "master"), C(EN, VIEW_CENTER, 0, "viewcnt"), C(EN, CENTER, 0, "center"), C(EN, GROOVE, 0, "groove"),
    C(EN, WAIST, 0, "waist"), C(EN, LOWER_BODY, 0, "lowerbody"), C(EN, UPPER_BODY, 0, "upperbody"),
    C(EN, UPPER_BODY2, 0, "upperbody2"), C(EN, UPPER_BODY3, 0, "upperbody3"), C(EN, NECK, 0, "neck"),
    C(EN, HEAD, 0, "head"), C(EN, EYES, 0, "eyes"),
    S(EN, EYE, 0, "eye"), S(EN, SHOULDER_P, 0, "shoulderp"), S(EN, SHOULDER, 0, "shoulder"),
    S(EN, SHOULDER_C, 0, "shoulderc"), S(EN, ARM, 0, "arm"), S(EN, ARM_TWIST, 0, "armtwist"), S(EN, ELBOW, 0, "elbow"),
    S(EN, WRIST_TWIST, 0, "wristtwist"), S(EN, WRIST, 0, "wrist"), S(EN, THUMB0, 0, "thumb0"), S(EN, THUMB1, 0, "thumb1"),
    S(EN, THUMB2, 0, "thumb2"), S(EN, INDEX1, 0, "fore1"), S(EN, INDEX2, 0, "fore2"), S(EN, INDEX3, 0, "fore3"),
    S(EN, MIDDLE1, 0, "middle1"), S(EN, MIDDLE2, 0, "middle2"), S(EN, MIDDLE3, 0, "middle3"), S(EN, RING1, 0, "third1"),
    S(EN, RING2, 0, "third2"), S(EN, RING3, 0, "third3"), S(EN, LITTLE1, 0, "little1"), S(EN, LITTLE2, 0, "little2"),
    S(EN, LITTLE3, 0, "little3"), S(EN, WAIST_CANCEL, 0, "waistcancel"), S(EN, LEG, 0, "leg"), S(EN, KNEE, 0, "knee"),
    S(EN, ANKLE, 0, "ankle"), S(EN, TOE, 0, "toe"), S(EN, HEEL, 0, "heel"), S(EN, LEG_IK_PARENT, 0, "legikp"),
    S(EN, LEG_IK_PARENT, 1, "legikparent"), S(EN, LEG_IK, 0, "legik"), S(EN, TOE_IK, 0, "toeik"), S(EN, LEG_D, 0, "legd"),
    S(EN, KNEE_D, 0, "kneed"), S(EN, ANKLE_D, 0, "ankled"), S(EN, TOE_EX, 0, "toe2"), S(EN, TOE_EX, 1, "toeex"),

    /* chinese */
    C(ZH, LOWER_BODY, 0, "臀部"), C(ZH, LOWER_BODY, 1, "髋部"), C(ZH, LOWER_BODY, 2, "骨盆"), C(ZH, LOWER_BODY, 3, "胯部"),
    C(ZH, UPPER_BODY, 0, "脊柱"), C(ZH, UPPER_BODY, 1, "脊椎"), C(ZH, UPPER_BODY, 2, "腰部"), C(ZH, UPPER_BODY2, 0, "胸部"),
    C(ZH, UPPER_BODY2, 1, "胸"), C(ZH, UPPER_BODY3, 0, "上胸部"), C(ZH, UPPER_BODY3, 1, "上胸"), C(ZH, NECK, 0, "脖子"),
    C(ZH, NECK, 1, "颈部"), C(ZH, NECK, 2, "颈"), C(ZH, NECK, 3, "頸部"), C(ZH, HEAD, 0, "头"), C(ZH, HEAD, 1, "头部"),
    S(ZH, SHOULDER, 0, "肩膀"), S(ZH, SHOULDER, 1, "锁骨"), S(ZH, ARM, 0, "大臂"), S(ZH, ARM, 1, "上臂"),
    S(ZH, ARM, 2, "臂"), S(ZH, ELBOW, 0, "小臂"), S(ZH, ELBOW, 1, "前臂"), S(ZH, ELBOW, 2, "肘"), S(ZH, WRIST, 0, "手"),
    S(ZH, WRIST, 1, "手腕"), S(ZH, LEG, 0, "大腿"), S(ZH, KNEE, 0, "小腿"), S(ZH, KNEE, 1, "膝"), S(ZH, ANKLE, 0, "脚"),
    S(ZH, ANKLE, 1, "腳"), S(ZH, ANKLE, 2, "脚踝"), S(ZH, TOE, 0, "脚趾"), S(ZH, TOE, 1, "腳趾"), S(ZH, TOE, 2, "脚尖"),

    /* biped: 3ds Max (the Bip01 prefix is dropped) */
    C(BP, LOWER_BODY, 0, "pelvis"), C(BP, UPPER_BODY, 0, "spine"), C(BP, UPPER_BODY2, 0, "spine1"),
    C(BP, UPPER_BODY3, 0, "spine2"), C(BP, NECK, 0, "neck"), C(BP, HEAD, 0, "head"),
    S(BP, SHOULDER, 0, "clavicle"), S(BP, ARM, 0, "upperarm"), S(BP, ELBOW, 0, "forearm"), S(BP, WRIST, 0, "hand"),
    S(BP, LEG, 0, "thigh"), S(BP, KNEE, 0, "calf"), S(BP, ANKLE, 0, "foot"), S(BP, TOE, 0, "toe0"),
    S(BP, THUMB0, 0, "finger0"), S(BP, THUMB1, 0, "finger01"), S(BP, INDEX1, 0, "finger1"), S(BP, INDEX2, 0, "finger11"),
    S(BP, INDEX3, 0, "finger12"), S(BP, MIDDLE1, 0, "finger2"), S(BP, MIDDLE2, 0, "finger21"), S(BP, MIDDLE3, 0, "finger22"),
    S(BP, RING1, 0, "finger3"), S(BP, RING2, 0, "finger31"), S(BP, RING3, 0, "finger32"), S(BP, LITTLE1, 0, "finger4"),
    S(BP, LITTLE2, 0, "finger41"), S(BP, LITTLE3, 0, "finger42"),

    /* daz / poser */
    C(DZ, LOWER_BODY, 0, "hip"), C(DZ, LOWER_BODY, 1, "pelvis"), C(DZ, UPPER_BODY, 0, "abdomen"),
    C(DZ, UPPER_BODY, 1, "abdomenlower"), C(DZ, UPPER_BODY2, 0, "chest"), C(DZ, UPPER_BODY2, 1, "chestupper"),
    C(DZ, NECK, 0, "neck"), C(DZ, NECK, 1, "necklower"), C(DZ, HEAD, 0, "head"),
    S(DZ, SHOULDER, 0, "collar"), S(DZ, ARM, 0, "shldr"), S(DZ, ARM, 1, "shldrbend"), S(DZ, ELBOW, 0, "forearm"),
    S(DZ, ELBOW, 1, "forearmbend"), S(DZ, WRIST, 0, "hand"), S(DZ, LEG, 0, "thigh"), S(DZ, LEG, 1, "thighbend"),
    S(DZ, KNEE, 0, "shin"), S(DZ, ANKLE, 0, "foot"), S(DZ, TOE, 0, "toe"), S(DZ, EYE, 0, "eye"),
    S(DZ, THUMB1, 0, "thumb2"), S(DZ, INDEX1, 0, "index1"), S(DZ, LITTLE1, 0, "pinky1"),

    /* cmu: bvh11 / cmuconvert (LeftShoulder is the upper arm) and the ASF names */
    C(CM, LOWER_BODY, 0, "hips"), C(CM, LOWER_BODY, 1, "root"), C(CM, UPPER_BODY, 0, "lowerback"),
    C(CM, UPPER_BODY2, 0, "chest"), C(CM, UPPER_BODY2, 1, "upperback"), C(CM, UPPER_BODY3, 0, "chest2"),
    C(CM, UPPER_BODY3, 1, "thorax"), C(CM, NECK, 0, "neck"), C(CM, NECK, 1, "lowerneck"), C(CM, HEAD, 0, "head"),
    S(CM, SHOULDER, 0, "collar"), S(CM, SHOULDER, 1, "clavicle"), S(CM, ARM, 0, "shoulder"), S(CM, ARM, 1, "humerus"),
    S(CM, ELBOW, 0, "elbow"), S(CM, ELBOW, 1, "radius"), S(CM, WRIST, 0, "wrist"), S(CM, LEG, 0, "hip"),
    S(CM, LEG, 1, "femur"), S(CM, KNEE, 0, "knee"), S(CM, KNEE, 1, "tibia"), S(CM, ANKLE, 0, "ankle"),
    S(CM, ANKLE, 1, "foot"), S(CM, TOE, 0, "toe"), S(CM, TOE, 1, "toes"), S(CM, THUMB0, 0, "thumb"),
};
#undef C
#undef S

#define ENTRY_COUNT (sizeof ENTRIES / sizeof ENTRIES[0])

uint32_t pmi_rig_entry_count(void) { return (uint32_t)ENTRY_COUNT; }
const pmi_rig_entry *pmi_rig_entry_at(uint32_t i) { return i < ENTRY_COUNT ? &ENTRIES[i] : NULL; }

/* CMU signature keys: LeftCollar, LHipJoint, lowerback, lhumerus (rule 4, cmu). */
static const struct {
    uint8_t sided;
    const char *key;
} CMU_SIGNATURE[] = {{1, "collar"}, {1, "hipjoint"}, {0, "lowerback"}, {1, "humerus"}};

/* Fill order after the primary table (rule 5); cmu goes first when the names are signed. */
static const pm_rig_naming ORDER[] = {VR, MX, MM, EN, ZH, BP, DZ, CM};

/* ---- rules 2 and 3: readings of a name ------------------------------------------------------------ */

static const char HIDARI[] = "\xe5\xb7\xa6", MIGI[] = "\xe5\x8f\xb3"; /* 左 右 */

static bool starts(const char *s, size_t n, const char *p) {
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}
static bool ends(const char *s, size_t n, const char *p) {
    size_t k = strlen(p);
    return n >= k && memcmp(s + n - k, p, k) == 0;
}

/* The key after rule 2, and whether the raw name ends with a written side (".L", "_r", 左 ...). */
static bool prepare(const char *raw, size_t len, pmi_rig_name *p) {
    memset(p, 0, sizeof *p);
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (raw[i] == ':' || raw[i] == '|') start = i + 1;
    const char *s = raw + start;
    size_t sl = len - start;
    /* a side after a separator at the very end: ".L", "_R", " l", "-r" */
    if (sl >= 3) {
        char sep = s[sl - 2], c = s[sl - 1];
        if ((sep == '.' || sep == '_' || sep == ' ' || sep == '-') && (c == 'L' || c == 'l' || c == 'R' || c == 'r')) {
            p->suffix_side = (c == 'L' || c == 'l') ? 1 : 2;
            sl -= 2;
        }
    }
    size_t n = pm_name_key(s, sl, p->key, sizeof p->key);
    if (n == 0 || n >= sizeof p->key) return false;
    static const char *const prefixes[] = {"mixamorig", "jbip", "bip001", "bip01"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        if (!starts(p->key, n, prefixes[k])) continue;
        size_t cut = strlen(prefixes[k]);
        if (k == 0)
            while (cut < n && p->key[cut] >= '0' && p->key[cut] <= '9') cut++; /* mixamorig1 */
        if (cut < n) {
            memmove(p->key, p->key + cut, n - cut);
            n -= cut;
        }
        break;
    }
    p->key[n] = 0;
    p->len = n;
    /* 左 / 右 at the end (腰キャンセル左) */
    if (!p->suffix_side && n > 3) {
        if (ends(p->key, n, HIDARI)) p->suffix_side = 1, p->len -= 3;
        else if (ends(p->key, n, MIGI)) p->suffix_side = 2, p->len -= 3;
    }
    return true;
}

/* The readings of rule 3, in order: (side, offset, length) into p->key. */
typedef struct reading {
    uint8_t side; /* 0 none, 1 left, 2 right */
    size_t off, len;
} reading;

static int readings_of(const pmi_rig_name *p, reading out[8]) {
    const char *k = p->key;
    size_t n = p->len;
    int c = 0;
    if (p->suffix_side) {
        out[c++] = (reading){p->suffix_side, 0, n};
        return c;
    }
    out[c++] = (reading){0, 0, n};
    if (starts(k, n, "left") && n > 4) out[c++] = (reading){1, 4, n - 4};
    if (starts(k, n, "right") && n > 5) out[c++] = (reading){2, 5, n - 5};
    if (starts(k, n, HIDARI) && n > 3) out[c++] = (reading){1, 3, n - 3};
    if (starts(k, n, MIGI) && n > 3) out[c++] = (reading){2, 3, n - 3};
    if (ends(k, n, "left") && n > 4) out[c++] = (reading){1, 0, n - 4};
    else if (ends(k, n, "right") && n > 5) out[c++] = (reading){2, 0, n - 5};
    if (n > 1 && k[0] == 'l') out[c++] = (reading){1, 1, n - 1};
    if (n > 1 && k[0] == 'r') out[c++] = (reading){2, 1, n - 1};
    if (n > 1 && k[0] == 'c') out[c++] = (reading){0, 1, n - 1};
    return c;
}

/* The entries grouped by key length (a counting sort, made per call: no global state). */
typedef struct entry_index {
    uint16_t start[PMI_RIG_KEY_CAP + 1]; /* entries of length n: order[start[n] .. start[n + 1]) */
    uint16_t order[ENTRY_COUNT];
} entry_index;

static void index_entries(entry_index *ix) {
    memset(ix->start, 0, sizeof ix->start);
    for (size_t e = 0; e < ENTRY_COUNT; e++) ix->start[ENTRIES[e].len + 1 <= PMI_RIG_KEY_CAP ? ENTRIES[e].len + 1 : PMI_RIG_KEY_CAP]++;
    for (int n = 1; n <= PMI_RIG_KEY_CAP; n++) ix->start[n] += ix->start[n - 1];
    uint16_t fill[PMI_RIG_KEY_CAP + 1];
    memcpy(fill, ix->start, sizeof fill);
    for (size_t e = 0; e < ENTRY_COUNT; e++) ix->order[fill[ENTRIES[e].len]++] = (uint16_t)e; /* file order kept */
}

static bool entry_is(const pmi_rig_entry *e, const char *k, size_t n, uint8_t side) {
    return e->len == n && (e->sided != 0) == (side != 0) && memcmp(e->key, k, n) == 0;
}

/* For each table in `tables` (a naming bit mask), the first reading that it has: (role, rank) per
 * naming into hit[]; hit[n].role == PM_RIG_ROLE_NONE where table n has none. */
static void match_all(const entry_index *ix, const char *raw, size_t len, uint32_t tables, pmi_rig_hit hit[PM_RIG_NAMING_COUNT]) {
    for (int t = 0; t < PM_RIG_NAMING_COUNT; t++) hit[t].role = PM_RIG_ROLE_NONE, hit[t].rank = 255;
    pmi_rig_name p;
    if (!prepare(raw, len, &p)) return;
    reading rd[8];
    int nr = readings_of(&p, rd);
    uint32_t open = tables;
    for (int r = 0; r < nr && open; r++) {
        const char *k = p.key + rd[r].off;
        size_t n = rd[r].len < PMI_RIG_KEY_CAP ? rd[r].len : PMI_RIG_KEY_CAP - 1;
        for (uint32_t i = ix->start[n]; i < ix->start[n + 1]; i++) {
            const pmi_rig_entry *en = &ENTRIES[ix->order[i]];
            if (!(open & PM_RIG_NAMING_BIT(en->naming)) || !entry_is(en, k, rd[r].len, rd[r].side)) continue;
            hit[en->naming].role = rd[r].side == 2 ? (pm_rig_role)(en->role + PM_RIG_SIDE_ROLE_COUNT) : en->role;
            hit[en->naming].rank = en->rank;
            open &= ~PM_RIG_NAMING_BIT(en->naming);
        }
    }
}

static bool has_cmu_signature(const char *raw, size_t len) {
    pmi_rig_name p;
    if (!prepare(raw, len, &p)) return false;
    reading rd[8];
    int nr = readings_of(&p, rd);
    for (int r = 0; r < nr; r++)
        for (size_t s = 0; s < sizeof CMU_SIGNATURE / sizeof CMU_SIGNATURE[0]; s++)
            if ((CMU_SIGNATURE[s].sided != 0) == (rd[r].side != 0) && strlen(CMU_SIGNATURE[s].key) == rd[r].len &&
                memcmp(CMU_SIGNATURE[s].key, p.key + rd[r].off, rd[r].len) == 0)
                return true;
    return false;
}

static uint32_t tables_of(const pm_rig_resolve_options *opts) {
    uint32_t all = 0;
    for (int t = 1; t < PM_RIG_NAMING_COUNT; t++) all |= PM_RIG_NAMING_BIT(t);
    uint32_t want = opts && opts->namings ? opts->namings & all : all;
    return want;
}

pm_rig_role pm_rig_name_role(const char *name, size_t len, const pm_rig_resolve_options *opts, pm_rig_naming *naming) {
    if (naming) *naming = PM_RIG_NAMING_NONE;
    if (!name) return PM_RIG_ROLE_NONE;
    uint32_t tables = tables_of(opts);
    if (!(opts && opts->namings)) tables &= ~PM_RIG_NAMING_BIT(PM_RIG_NAMING_CMU);
    pmi_rig_hit hit[PM_RIG_NAMING_COUNT];
    entry_index ix;
    index_entries(&ix);
    match_all(&ix, name, len, tables, hit);
    for (size_t o = 0; o < sizeof ORDER / sizeof ORDER[0]; o++)
        if (hit[ORDER[o]].role != PM_RIG_ROLE_NONE) {
            if (naming) *naming = ORDER[o];
            return hit[ORDER[o]].role;
        }
    return PM_RIG_ROLE_NONE;
}

/* ---- rules 5 and 6: choosing ---------------------------------------------------------------------- */

/* rule 5's score of one table's roles */
static int score_of(const uint32_t *bone) {
    static const pm_rig_role need[] = {PM_RIG_LEFT_ARM, PM_RIG_RIGHT_ARM, PM_RIG_LEFT_LEG, PM_RIG_RIGHT_LEG};
    static const pm_rig_role core[] = {PM_RIG_HEAD,       PM_RIG_LEFT_ARM,   PM_RIG_LEFT_ELBOW,  PM_RIG_LEFT_WRIST,
                                       PM_RIG_LEFT_LEG,   PM_RIG_LEFT_KNEE,  PM_RIG_LEFT_ANKLE,  PM_RIG_RIGHT_ARM,
                                       PM_RIG_RIGHT_ELBOW, PM_RIG_RIGHT_WRIST, PM_RIG_RIGHT_LEG, PM_RIG_RIGHT_KNEE,
                                       PM_RIG_RIGHT_ANKLE};
    int s = 0;
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) s += bone[need[i]] != PM_NO_INDEX ? 100 : 0;
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) s += bone[core[i]] != PM_NO_INDEX;
    return s;
}

/* Per table, per role: the best (rank, then first) bone. */
typedef struct per_table {
    uint32_t bone[PM_RIG_ROLE_COUNT];
    uint8_t rank[PM_RIG_ROLE_COUNT];
} per_table;

typedef const char *(*name_at_fn)(const void *src, uint32_t i);

static bool bone_taken(const pm_rig_roles *out, uint32_t b) {
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++)
        if (out->bone[r] == b) return true;
    return false;
}

/* One pass of rules 4-5 over `count` names (name_at(src, i), NULL or "" = skip). Roles already
 * set in `out` and bones already playing one are left alone. */
static void resolve_pass(const entry_index *ix, name_at_fn name_at, const void *src, uint32_t count, uint32_t tables,
                         bool signed_cmu, bool english, per_table *t /* [PM_RIG_NAMING_COUNT] scratch */, pm_rig_roles *out) {
    for (int n = 0; n < PM_RIG_NAMING_COUNT; n++)
        for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) t[n].bone[r] = PM_NO_INDEX, t[n].rank[r] = 255;
    bool any = false;
    for (uint32_t i = 0; i < count; i++) {
        const char *nm = name_at(src, i);
        if (!nm || !*nm) continue;
        pmi_rig_hit hit[PM_RIG_NAMING_COUNT];
        match_all(ix, nm, strlen(nm), tables, hit);
        for (int n = 0; n < PM_RIG_NAMING_COUNT; n++) {
            pm_rig_role r = hit[n].role;
            if (r == PM_RIG_ROLE_NONE || hit[n].rank >= t[n].rank[r]) continue;
            t[n].bone[r] = i;
            t[n].rank[r] = hit[n].rank;
            any = true;
        }
    }
    if (!any) return;
    /* the primary table: the best score, ties to the earlier table in ORDER (cmu first when signed) */
    pm_rig_naming order[PM_RIG_NAMING_COUNT];
    int no = 0;
    if (signed_cmu) order[no++] = PM_RIG_NAMING_CMU;
    for (size_t o = 0; o < sizeof ORDER / sizeof ORDER[0]; o++)
        if (!(signed_cmu && ORDER[o] == PM_RIG_NAMING_CMU)) order[no++] = ORDER[o];
    int best = -1;
    pm_rig_naming primary = PM_RIG_NAMING_NONE;
    for (int o = 0; o < no; o++) {
        if (!(tables & PM_RIG_NAMING_BIT(order[o]))) continue;
        int s = score_of(t[order[o]].bone);
        bool found = false;
        for (int r = 0; r < PM_RIG_ROLE_COUNT && !found; r++) found = t[order[o]].bone[r] != PM_NO_INDEX;
        if (!found) continue;
        if (s > best) best = s, primary = order[o];
    }
    if (!english || out->primary == PM_RIG_NAMING_NONE) out->primary = primary;
    /* the primary table's roles, then the others' for what is still empty */
    pm_rig_naming fill[PM_RIG_NAMING_COUNT];
    int nf = 0;
    fill[nf++] = primary;
    for (int o = 0; o < no; o++)
        if (order[o] != primary) fill[nf++] = order[o];
    for (int f = 0; f < nf; f++) {
        const per_table *pt = &t[fill[f]];
        for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) {
            uint32_t b = pt->bone[r];
            if (b == PM_NO_INDEX || out->bone[r] != PM_NO_INDEX || bone_taken(out, b)) continue;
            out->bone[r] = b;
            out->naming[r] = (uint8_t)fill[f];
            out->from_english[r] = english;
            out->found++;
        }
    }
}

static void roles_init(pm_rig_roles *out) {
    memset(out, 0, sizeof *out);
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) out->bone[r] = PM_NO_INDEX;
}

typedef struct list_src {
    const char *const *names;
} list_src;
static const char *list_at(const void *src, uint32_t i) { return ((const list_src *)src)->names[i]; }
static const char *sk_name_at(const void *src, uint32_t i) { return ((const pm_skeleton *)src)->bones[i].name.data; }
static const char *sk_en_at(const void *src, uint32_t i) { return ((const pm_skeleton *)src)->bones[i].name_en.data; }

static pm_result resolve(name_at_fn jp, name_at_fn en, const void *src_jp, const void *src_en, uint32_t count,
                         const pm_rig_resolve_options *opts, pm_rig_roles *out, pm_error *err) {
    uint32_t tables = tables_of(opts);
    bool single = opts && opts->namings && (opts->namings & (opts->namings - 1)) == 0;
    bool signed_cmu = false;
    for (uint32_t i = 0; i < count && !signed_cmu; i++) {
        const char *nm = jp(src_jp, i);
        signed_cmu = nm && has_cmu_signature(nm, strlen(nm));
    }
    out->cmu_signature = signed_cmu;
    if (!signed_cmu && !single) tables &= ~PM_RIG_NAMING_BIT(PM_RIG_NAMING_CMU);
    /* per-table scratch: 9 x 86 x 5 bytes, too big for a small wasm stack frame in a loop but fine
     * once; kept on the stack so that resolving never allocates */
    per_table t[PM_RIG_NAMING_COUNT];
    entry_index ix;
    index_entries(&ix);
    resolve_pass(&ix, jp, src_jp, count, tables, signed_cmu, false, t, out);
    if (en) resolve_pass(&ix, en, src_en, count, tables, signed_cmu, true, t, out);
    (void)err;
    return PM_OK;
}

pm_result pm_rig_resolve_names(const char *const *names, const char *const *names_en, uint32_t count,
                               const pm_rig_resolve_options *opts, pm_rig_roles *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: out is NULL");
    roles_init(out);
    if (count && !names) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: names is NULL");
    for (uint32_t i = 0; i < count; i++)
        if (!names[i]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: name %u is NULL", i);
    list_src jp = {names}, en = {names_en};
    return resolve(list_at, names_en ? list_at : NULL, &jp, &en, count, opts, out, err);
}

pm_result pm_rig_resolve_skeleton(const pm_skeleton *s, const pm_rig_resolve_options *opts, pm_rig_roles *out,
                                  pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: out is NULL");
    roles_init(out);
    if (!s || (s->bone_count && !s->bones)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: skeleton is NULL");
    bool has_en = false;
    for (uint32_t i = 0; i < s->bone_count && !has_en; i++) has_en = s->bones[i].name_en.length > 0;
    return resolve(sk_name_at, has_en ? sk_en_at : NULL, s, s, s->bone_count, opts, out, err);
}

int pmi_rig_name_side(const char *name, size_t len) {
    pmi_rig_name p;
    if (!name || !prepare(name, len, &p)) return 0;
    if (p.suffix_side) return p.suffix_side;
    if (starts(p.key, p.len, "left") || starts(p.key, p.len, HIDARI)) return 1;
    if (starts(p.key, p.len, "right") || starts(p.key, p.len, MIGI)) return 2;
    if (ends(p.key, p.len, "left")) return 1;
    if (ends(p.key, p.len, "right")) return 2;
    return 0;
}
