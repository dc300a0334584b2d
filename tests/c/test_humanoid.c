/* Humanoid mapping: normalisation, prefixes, side variants, priority, the original design's own
 * cases, every shared PMX fixture and the VRM fixtures (checked against their own humanBones). */
#include "pm_test.h"

#include "procmotion/gltf.h"
#include "procmotion/humanoid.h"
#include "procmotion/text.h"
#include "procmotion/pmx.h"

#include <cjson/cJSON.h>

#define N(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

static pm_humanoid_map map_of(const char *const *names, uint32_t count) {
    pm_humanoid_map m;
    pm_error err = {0};
    PM_CHECK_OK(pm_humanoid_map_names(names, count, &m, &err), &err);
    return m;
}

static const char *mapped_name(const pm_humanoid_map *m, const char *const *names, pm_humanoid_bone b) {
    return m->bone[b] == PM_NO_INDEX ? "(none)" : names[m->bone[b]];
}

PM_TEST(normalisation_rule_1) {
    struct {
        const char *in, *out;
    } cases[] = {
        {"J_Bip_L_UpperArm", "jbiplupperarm"}, {"左足ＩＫ", "左足ik"}, {"上半身", "上半身"}, {"左ひじ", "左ひじ"},
        {"首", "首"}, {"mixamorig:LeftArm", "mixamorigleftarm"}, {"ＡＢＣｘｙｚ０１２９", "abcxyz0129"},
        {"右人指１", "右人指1"}, {"つま先ＩＫ", "つま先ik"}, {"A B_C.d-e:f(g)", "abcdefg"}, {"ﾃｽﾄ", ""},
        {"佐々木", "佐々木"}, {"センター", "センター"}, {"ヴ・ー", "ヴー"}, {"\xf0\x9f\x98\x80head", "head"},
        {"Ｈｅａｄ！", "head"}, {"\xff\xfe" "bad", "bad"}, {"", ""},
    };
    for (uint32_t i = 0; i < N(cases); i++) {
        char out[64];
        size_t n = pm_name_key(cases[i].in, strlen(cases[i].in), out, sizeof out);
        PM_CHECK_STR(out, cases[i].out);
        PM_CHECK_EQ_INT(n, strlen(cases[i].out));
    }
    char small[6];
    size_t n = pm_name_key("上半身", strlen("上半身"), small, sizeof small); /* 9 bytes */
    PM_CHECK_EQ_INT(n, 9);
    PM_CHECK_STR(small, "上"); /* cut at a whole character */
    PM_CHECK_EQ_INT(pm_name_key("abc", 3, NULL, 0), 3);
}

PM_TEST(bone_names_and_required_bones) {
    /* the tables themselves are the rig resolver's, checked in test_rig.c */
    int required = 0;
    for (int b = 0; b < PM_HUMANOID_BONE_COUNT; b++) required += pm_humanoid_bone_required((pm_humanoid_bone)b);
    PM_CHECK_EQ_INT(required, PM_HUMANOID_REQUIRED_COUNT);
    PM_CHECK_STR(pm_humanoid_bone_name(PM_HUMANOID_UPPER_CHEST), "upperChest");
    PM_CHECK_STR(pm_humanoid_bone_name(PM_HUMANOID_RIGHT_TOES), "rightToes");
    PM_CHECK(pm_humanoid_bone_name(PM_HUMANOID_BONE_COUNT) == NULL);
    PM_CHECK_STR(pm_rig_naming_name(PM_RIG_NAMING_ENGLISH), "english");
}

/* The seed's own cases (§6.3 rules 1-4, §6.4 results). */
PM_TEST(seed_cases) {
    /* rule 4: 左足ＩＫ (-> 左足ik) never takes 左足 (leftUpperLeg), in either order */
    const char *ik_first[] = {"左足ＩＫ", "左足", "左つま先ＩＫ", "左つま先"};
    pm_humanoid_map m = map_of(ik_first, 4);
    PM_CHECK_STR(mapped_name(&m, ik_first, PM_HUMANOID_LEFT_UPPER_LEG), "左足");
    PM_CHECK_STR(mapped_name(&m, ik_first, PM_HUMANOID_LEFT_TOES), "左つま先");
    PM_CHECK_EQ_INT(m.mapped, 2);
    const char *ik_only[] = {"左足ＩＫ", "右足IK", "左足IK親", "左足D", "左足首D"};
    m = map_of(ik_only, N(ik_only));
    PM_CHECK_EQ_INT(m.mapped, 0);

    /* rule 3: left/right <-> l/r */
    const char *lr[] = {"lupperarm", "RUpperArm", "LeftHand", "l_hand_x", "Bip01 R Forearm"};
    m = map_of(lr, N(lr));
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_UPPER_ARM], 0);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_RIGHT_UPPER_ARM], 1);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_HAND], 2);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_RIGHT_LOWER_ARM], 4);
    PM_CHECK_EQ_INT(m.mapped, 4); /* l_hand_x is not a side variant of anything */

    /* sides written at the end */
    const char *suffix[] = {"UpperArm.L", "upper_arm_r", "HandLeft", "Foot Right", "toes-l", "Shoulder.R"};
    m = map_of(suffix, N(suffix));
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_UPPER_ARM], 0);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_RIGHT_UPPER_ARM], 1);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_HAND], 2);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_RIGHT_FOOT], 3);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_TOES], 4);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_RIGHT_SHOULDER], 5);

    /* rule 2: J_Bip / mixamorig / Bip01 are stripped; J_Aim_, J_Roll_, J_Sec_ are not */
    const char *helpers[] = {"J_Roll_L_UpperArm", "J_Aim_L_Hand", "J_Sec_L_UpperLeg", "J_Adj_L_FaceEye", "J_Sec_Hips"};
    m = map_of(helpers, N(helpers));
    PM_CHECK_EQ_INT(m.mapped, 0);
    const char *helpers_and_real[] = {"J_Roll_L_UpperArm", "J_Bip_L_UpperArm", "mixamorig1:LeftHand", "Bip01 Pelvis"};
    m = map_of(helpers_and_real, N(helpers_and_real));
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_UPPER_ARM], 1);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_HAND], 2);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_HIPS], 3);
    PM_CHECK_EQ_INT(m.naming[PM_HUMANOID_HIPS], PM_RIG_NAMING_BIPED);

    /* rule 1 (v0.2.0 fix): MMD names no longer normalise to nothing: 0/22 became 21/22 */
    const char *mmd[] = {"全ての親", "センター", "グルーブ", "腰", "上半身", "上半身2", "首", "頭", "下半身",
                         "左肩", "左腕", "左ひじ", "左手首", "右肩", "右腕", "右ひじ", "右手首", "左足", "左ひざ",
                         "左足首", "左つま先", "右足", "右ひざ", "右足首", "右つま先", "左足ＩＫ", "右足ＩＫ",
                         "左つま先ＩＫ", "右つま先ＩＫ"};
    m = map_of(mmd, N(mmd));
    PM_CHECK_EQ_INT(m.mapped, 21);
    PM_CHECK_EQ_INT(m.total, 22);
    PM_CHECK(m.drivable);
    PM_CHECK_EQ_INT(m.missing_required_count, 0);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_UPPER_CHEST], PM_NO_INDEX);
    PM_CHECK_STR(mapped_name(&m, mmd, PM_HUMANOID_HIPS), "下半身");
    PM_CHECK_STR(mapped_name(&m, mmd, PM_HUMANOID_SPINE), "上半身");
    PM_CHECK_STR(mapped_name(&m, mmd, PM_HUMANOID_CHEST), "上半身2");
    PM_CHECK_STR(mapped_name(&m, mmd, PM_HUMANOID_RIGHT_LOWER_LEG), "右ひざ");
    PM_CHECK_EQ_INT(m.naming[PM_HUMANOID_RIGHT_LOWER_LEG], PM_RIG_NAMING_MMD);
    /* §6.4's second model: 19/22 and still drivable (no upperChest, no toes) */
    m = map_of(mmd, 20); /* up to 左足首, without 右足.. and the toes */
    const char *no_toes[] = {"上半身", "上半身2", "首", "頭", "下半身", "左肩", "左腕", "左ひじ", "左手首", "右肩",
                             "右腕", "右ひじ", "右手首", "左足", "左ひざ", "左足首", "右足", "右ひざ", "右足首"};
    m = map_of(no_toes, N(no_toes));
    PM_CHECK_EQ_INT(m.mapped, 19);
    PM_CHECK(m.drivable);

    /* nothing: 16 missing, in bone order */
    m = map_of(NULL, 0);
    PM_CHECK_EQ_INT(m.mapped, 0);
    PM_CHECK(!m.drivable);
    PM_CHECK_EQ_INT(m.missing_required_count, 16);
    PM_CHECK_EQ_INT(m.missing_required[0], PM_HUMANOID_HIPS);
    PM_CHECK_EQ_INT(m.missing_required[2], PM_HUMANOID_NECK);
    PM_CHECK_EQ_INT(m.missing_required[15], PM_HUMANOID_RIGHT_FOOT);
    /* one required bone missing */
    m = map_of(mmd + 1, N(mmd) - 1);
    PM_CHECK(m.drivable);
    const char *no_neck[] = {"上半身", "頭", "下半身", "左腕", "左ひじ", "左手首", "右腕", "右ひじ", "右手首",
                             "左足", "左ひざ", "左足首", "右足", "右ひざ", "右足首"};
    m = map_of(no_neck, N(no_neck));
    PM_CHECK(!m.drivable);
    PM_CHECK_EQ_INT(m.missing_required_count, 1);
    PM_CHECK_EQ_INT(m.missing_required[0], PM_HUMANOID_NECK);
}

PM_TEST(every_naming_family_maps_all_22) {
    const char *vroid[] = {"J_Bip_C_Hips", "J_Bip_C_Spine", "J_Bip_C_Chest", "J_Bip_C_UpperChest", "J_Bip_C_Neck",
                           "J_Bip_C_Head", "J_Bip_L_Shoulder", "J_Bip_L_UpperArm", "J_Bip_L_LowerArm", "J_Bip_L_Hand",
                           "J_Bip_R_Shoulder", "J_Bip_R_UpperArm", "J_Bip_R_LowerArm", "J_Bip_R_Hand",
                           "J_Bip_L_UpperLeg", "J_Bip_L_LowerLeg", "J_Bip_L_Foot", "J_Bip_L_ToeBase",
                           "J_Bip_R_UpperLeg", "J_Bip_R_LowerLeg", "J_Bip_R_Foot", "J_Bip_R_ToeBase",
                           "J_Sec_L_TopsUpperArmInside", "J_Adj_L_FaceEye", "J_Aim_L_Hand"};
    const char *mixamo[] = {"mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2",
                            "mixamorig:Neck", "mixamorig:Head", "mixamorig:LeftShoulder", "mixamorig:LeftArm",
                            "mixamorig:LeftForeArm", "mixamorig:LeftHand", "mixamorig:RightShoulder",
                            "mixamorig:RightArm", "mixamorig:RightForeArm", "mixamorig:RightHand",
                            "mixamorig:LeftUpLeg", "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase",
                            "mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot",
                            "mixamorig:RightToeBase", "mixamorig:LeftHandIndex1", "mixamorig:HeadTop_End"};
    const char *chinese[] = {"臀部", "脊柱", "胸部", "上胸部", "脖子", "头", "左肩膀", "左大臂", "左小臂", "左手",
                             "右肩膀", "右大臂", "右小臂", "右手", "左大腿", "左小腿", "左脚", "左脚趾", "右大腿",
                             "右小腿", "右脚", "右脚趾"};
    const char *biped[] = {"Bip01", "Bip01 Pelvis", "Bip01 Spine", "Bip01 Spine1", "Bip01 Spine2", "Bip01 Neck",
                           "Bip01 Head", "Bip01 L Clavicle", "Bip01 L UpperArm", "Bip01 L Forearm", "Bip01 L Hand",
                           "Bip01 R Clavicle", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand",
                           "Bip01 L Thigh", "Bip01 L Calf", "Bip01 L Foot", "Bip01 L Toe0", "Bip01 R Thigh",
                           "Bip01 R Calf", "Bip01 R Foot", "Bip01 R Toe0"};
    struct {
        const char *const *names;
        uint32_t count, first; /* names[first + k] is humanoid bone k */
    } families[] = {{vroid, N(vroid), 0}, {mixamo, N(mixamo), 0}, {chinese, N(chinese), 0}, {biped, N(biped), 1}};
    for (uint32_t f = 0; f < N(families); f++) {
        pm_humanoid_map m = map_of(families[f].names, families[f].count);
        PM_CHECK_MSG(m.mapped == 22 && m.drivable, "family %u: %u/22", f, m.mapped);
        for (int b = 0; b < PM_HUMANOID_BONE_COUNT; b++)
            PM_CHECK_MSG(m.bone[b] == families[f].first + (uint32_t)b, "family %u: %s -> %s", f,
                         pm_humanoid_bone_name((pm_humanoid_bone)b), mapped_name(&m, families[f].names, (pm_humanoid_bone)b));
    }
}

PM_TEST(priority_between_tables_and_ties) {
    /* chest: VRoid's "Chest" beats Mixamo's "Spine1" wherever it stands */
    const char *a[] = {"Spine1", "Chest"};
    pm_humanoid_map m = map_of(a, 2);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_CHEST], 1);
    PM_CHECK_EQ_INT(m.naming[PM_HUMANOID_CHEST], PM_RIG_NAMING_VROID);
    /* inside a table the first candidate wins: 臀部 over 骨盆; equal candidates: the first bone */
    const char *b[] = {"骨盆", "臀部", "左足", "左足"};
    m = map_of(b, 4);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_HIPS], 1);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_UPPER_LEG], 2);
    /* MMD before Chinese: 左腕 is an upper arm (MMD), not a wrist */
    const char *c[] = {"左腕", "左手"};
    m = map_of(c, 2);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_UPPER_ARM], 0);
    PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_LEFT_HAND], 1);
    /* errors */
    pm_error err = {0};
    const char *bad[] = {"a", NULL};
    PM_CHECK_EQ_INT(pm_humanoid_map_names(bad, 2, &m, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_humanoid_map_names(NULL, 3, &m, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_humanoid_map_names(bad, 1, NULL, &err), PM_ERR_INVALID_ARGUMENT);
}

PM_TEST(shared_pmx_fixtures_are_drivable) {
    const char *files[] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};
    for (uint32_t f = 0; f < N(files); f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(files[f], &n);
        if (!d) continue;
        pm_skeleton *s = NULL;
        pm_error err = {0};
        PM_CHECK_OK(pm_pmx_read(d, n, NULL, &s, &err), &err);
        pm_humanoid_map m;
        PM_CHECK_OK(pm_humanoid_map_skeleton(s, &m, &err), &err);
        printf("  %s: %u/%u drivable=%d\n", files[f], m.mapped, m.total, m.drivable);
        PM_CHECK_EQ_INT(m.mapped, 21);
        PM_CHECK(m.drivable);
        PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_UPPER_CHEST], PM_NO_INDEX);
        struct {
            pm_humanoid_bone b;
            const char *name;
        } expect[] = {{PM_HUMANOID_HIPS, "下半身"},          {PM_HUMANOID_SPINE, "上半身"},
                      {PM_HUMANOID_CHEST, "上半身2"},        {PM_HUMANOID_HEAD, "頭"},
                      {PM_HUMANOID_LEFT_SHOULDER, "左肩"},   {PM_HUMANOID_RIGHT_HAND, "右手首"},
                      {PM_HUMANOID_LEFT_UPPER_LEG, "左足"},  {PM_HUMANOID_LEFT_FOOT, "左足首"},
                      {PM_HUMANOID_RIGHT_TOES, "右つま先"}};
        for (uint32_t k = 0; k < N(expect); k++)
            if (m.bone[expect[k].b] != PM_NO_INDEX) PM_CHECK_STR(s->bones[m.bone[expect[k].b]].name.data, expect[k].name);
        pm_skeleton_free(s);
        free(d);
    }
}

/* VRM fixtures: the name-based mapping must give the nodes the files themselves declare. */
PM_TEST(vrm_fixtures_match_their_declared_humanoid) {
    struct {
        const char *file;
        uint32_t mapped;
    } files[] = {{"vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm", 21},
                 {"vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm", 22}};
    for (uint32_t f = 0; f < N(files); f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(files[f].file, &n);
        if (!d) continue;
        pm_name_list *names = NULL;
        pm_error err = {0};
        PM_CHECK_OK(pm_gltf_node_names(d, n, NULL, &names, &err), &err);
        if (!names) {
            free(d);
            continue;
        }
        pm_humanoid_map m = map_of(names->names, names->count);
        printf("  %s: %u nodes, %u/%u drivable=%d\n", files[f].file, names->count, m.mapped, m.total, m.drivable);
        PM_CHECK_EQ_INT(m.mapped, files[f].mapped);
        PM_CHECK(m.drivable);
        /* the file's own VRMC_vrm.humanoid.humanBones */
        uint32_t json_len = (uint32_t)d[12] | (uint32_t)d[13] << 8 | (uint32_t)d[14] << 16 | (uint32_t)d[15] << 24;
        cJSON *root = cJSON_ParseWithLength((const char *)d + 20, json_len);
        const cJSON *hb = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "extensions"), "VRMC_vrm"), "humanoid"), "humanBones");
        PM_CHECK(hb != NULL);
        for (int b = 0; b < PM_HUMANOID_BONE_COUNT && hb; b++) {
            const cJSON *e = cJSON_GetObjectItem(hb, pm_humanoid_bone_name((pm_humanoid_bone)b));
            uint32_t declared = e ? (uint32_t)cJSON_GetObjectItem(e, "node")->valuedouble : PM_NO_INDEX;
            PM_CHECK_MSG(m.bone[b] == declared, "%s: %s mapped to %s, the file says node %d", files[f].file,
                         pm_humanoid_bone_name((pm_humanoid_bone)b), mapped_name(&m, names->names, (pm_humanoid_bone)b),
                         (int)declared);
        }
        cJSON_Delete(root);
        pm_name_list_free(names);
        free(d);
    }
}

PM_TEST(robot_expressive_glb_is_reported_honestly) {
    size_t n;
    unsigned char *d = pm_test_read_fixture("gltf/RobotExpressive.glb", &n);
    if (!d) return;
    pm_name_list *names = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_gltf_node_names(d, n, NULL, &names, &err), &err);
    if (names) {
        PM_CHECK_EQ_INT(names->count, 74);
        PM_CHECK_STR(names->names[0], "RootNode");
        pm_humanoid_map m = map_of(names->names, names->count);
        printf("  RobotExpressive: %u/%u drivable=%d, missing:", m.mapped, m.total, m.drivable);
        for (uint32_t k = 0; k < m.missing_required_count; k++) printf(" %s", pm_humanoid_bone_name(m.missing_required[k]));
        printf("\n");
        /* its torso is "Abdomen"/"Torso": the keypoint joint map always read them as spine and chest, the
         * humanoid tables did not (19/22, not drivable); the one resolver reads them as the joint map did */
        PM_CHECK(m.drivable);
        PM_CHECK_EQ_INT(m.missing_required_count, 0);
        PM_CHECK_STR(mapped_name(&m, names->names, PM_HUMANOID_SPINE), "Abdomen");
        PM_CHECK_STR(mapped_name(&m, names->names, PM_HUMANOID_CHEST), "Torso");
        PM_CHECK_EQ_INT(m.bone[PM_HUMANOID_UPPER_CHEST], PM_NO_INDEX);
        PM_CHECK_STR(mapped_name(&m, names->names, PM_HUMANOID_LEFT_LOWER_LEG), "LowerLeg.L"); /* not Mixamo's Leg.L */
    }
    pm_name_list_free(names);
    free(d);
}

PM_TEST(gltf_node_names_errors) {
    pm_name_list *l = NULL;
    pm_error err = {0};
    const char *json = " {\"nodes\":[{\"name\":\"a\"},{},{\"name\":\"\\u5de6\\u8db3\"}]}";
    PM_CHECK_OK(pm_gltf_node_names((const uint8_t *)json, strlen(json), NULL, &l, &err), &err);
    if (l) {
        PM_CHECK_EQ_INT(l->count, 3);
        PM_CHECK_STR(l->names[1], "");
        PM_CHECK_STR(l->names[2], "左足");
    }
    pm_name_list_free(l);
    pm_name_list_free(NULL);
    const char *no_nodes = "{\"asset\":{}}";
    PM_CHECK_OK(pm_gltf_node_names((const uint8_t *)no_nodes, strlen(no_nodes), NULL, &l, &err), &err);
    PM_CHECK(l && l->count == 0);
    pm_name_list_free(l);
    struct {
        const char *data;
        size_t size;
        pm_result expect;
    } bad[] = {
        {"{\"nodes\":[1]}", 13, PM_ERR_BAD_FORMAT},
        {"{\"nodes\":[{\"name\":3}]}", 22, PM_ERR_BAD_FORMAT},
        {"{\"nodes\":{}}", 12, PM_ERR_BAD_FORMAT},
        {"{\"nodes\":[", 10, PM_ERR_BAD_FORMAT},
        {"PMX ", 4, PM_ERR_BAD_FORMAT},
        {"glTF\x02\0\0\0\x40\0\0\0", 12, PM_ERR_TRUNCATED},
        {"glTF\x02\0\0\0\x1c\0\0\0\xff\0\0\0JSON{}\0\0", 28, PM_ERR_TRUNCATED},
        {"glTF\x01\0\0\0\x1c\0\0\0\x02\0\0\0JSON{}\0\0", 28, PM_ERR_BAD_FORMAT},
        {"glTF\x02\0\0\0\x1c\0\0\0\x02\0\0\0BIN\0{}\0\0", 28, PM_ERR_BAD_FORMAT},
    };
    for (uint32_t i = 0; i < N(bad); i++) {
        l = (pm_name_list *)1;
        pm_result r = pm_gltf_node_names((const uint8_t *)bad[i].data, bad[i].size, NULL, &l, &err);
        PM_CHECK_MSG(r == bad[i].expect, "case %u: %s (%s)", i, pm_result_name(r), err.message);
        PM_CHECK(l == NULL);
    }
    /* a GLB whose JSON is exactly the chunk */
    const char glb[] = "glTF\x02\0\0\0\x22\0\0\0\x0e\0\0\0JSON{\"nodes\":[{}]}";
    PM_CHECK_OK(pm_gltf_node_names((const uint8_t *)glb, sizeof glb - 1, NULL, &l, &err), &err);
    PM_CHECK(l && l->count == 1);
    pm_name_list_free(l);
}

PM_TEST(cmu_bvh_names_map_with_their_own_shoulder_meaning) {
    /* bvh11 / cmuconvert names: LeftShoulder is the upper arm, LeftCollar the clavicle */
    static const char *const cmu[] = {"Hips", "LHipJoint", "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe",
                                      "RHipJoint", "RightHip", "RightKnee", "RightAnkle", "RightToe", "lowerback",
                                      "Chest", "Chest2", "lowerneck", "Neck", "Head", "LeftCollar", "LeftShoulder",
                                      "LeftElbow", "LeftWrist", "lhand", "RightCollar", "RightShoulder",
                                      "RightElbow", "RightWrist", "rhand"};
    pm_humanoid_map m;
    pm_error e = {0};
    PM_CHECK_OK(pm_humanoid_map_names(cmu, sizeof cmu / sizeof cmu[0], &m, &e), &e);
    PM_CHECK(m.drivable);
    PM_CHECK_EQ_INT(m.mapped, 22);
    PM_CHECK_STR(cmu[m.bone[PM_HUMANOID_LEFT_SHOULDER]], "LeftCollar");
    PM_CHECK_STR(cmu[m.bone[PM_HUMANOID_LEFT_UPPER_ARM]], "LeftShoulder");
    PM_CHECK_STR(cmu[m.bone[PM_HUMANOID_RIGHT_HAND]], "RightWrist");
    PM_CHECK_STR(cmu[m.bone[PM_HUMANOID_LEFT_UPPER_LEG]], "LeftHip");
    PM_CHECK_EQ_INT(m.naming[PM_HUMANOID_LEFT_UPPER_ARM], PM_RIG_NAMING_CMU);
    /* ASF names */
    static const char *const asf[] = {"root", "lowerback", "upperback", "thorax", "lowerneck", "upperneck", "head",
                                      "lclavicle", "lhumerus", "lradius", "lwrist", "rclavicle", "rhumerus",
                                      "rradius", "rwrist", "lfemur", "ltibia", "lfoot", "ltoes", "rfemur", "rtibia",
                                      "rfoot", "rtoes"};
    PM_CHECK_OK(pm_humanoid_map_names(asf, sizeof asf / sizeof asf[0], &m, &e), &e);
    PM_CHECK_STR(asf[m.bone[PM_HUMANOID_RIGHT_UPPER_ARM]], "rhumerus");
    PM_CHECK_STR(asf[m.bone[PM_HUMANOID_LEFT_LOWER_LEG]], "ltibia");
    /* without a CMU signature, Mixamo's LeftShoulder keeps meaning the clavicle */
    static const char *const mixamo[] = {"mixamorig:Hips", "mixamorig:LeftShoulder", "mixamorig:LeftArm"};
    PM_CHECK_OK(pm_humanoid_map_names(mixamo, 3, &m, &e), &e);
    PM_CHECK_STR(mixamo[m.bone[PM_HUMANOID_LEFT_SHOULDER]], "mixamorig:LeftShoulder");
    PM_CHECK_STR(mixamo[m.bone[PM_HUMANOID_LEFT_UPPER_ARM]], "mixamorig:LeftArm");
}

int main(void) { return pm_test_run_all(); }
