/* A humanoid motion file read as joints, rest matrices, roles and a sampler: real BVH, glTF and VRM
 * Animation files, and the errors a user meets. */
#include "fixture_readers.h"
#include "pm_test.h"

#include "procmotion/humanoid.h"

#include <math.h>

static pm_humanoid_motion *read_motion(unsigned char *data, size_t size, uint32_t animation) {
    pm_humanoid_motion *m = NULL;
    pm_error err = {0};
    pm_humanoid_motion_options o = {.animation = animation};
    PM_CHECK_OK(pm_humanoid_motion_read(data, size, &o, &m, &err), &err);
    return m;
}

static const char *role_name(const pm_humanoid_motion *m, pm_rig_role role) {
    uint32_t j = m->roles.bone[role];
    return j == PM_NO_INDEX ? "(none)" : m->names[j].data;
}

/* Every sampled world matrix is finite and the joint playing role `moving` moves. */
static void check_samples(const pm_humanoid_motion *m, pm_rig_role moving) {
    pm_mat4 *w0 = calloc(m->joint_count, sizeof *w0), *w1 = calloc(m->joint_count, sizeof *w1);
    pm_error err = {0};
    PM_CHECK_OK(pm_humanoid_motion_world(m, 0, w0, &err), &err);
    bool finite = true;
    double moved = 0;
    for (int s = 1; s <= 8; s++) {
        PM_CHECK_OK(pm_humanoid_motion_world(m, m->duration * s / 8, w1, &err), &err);
        for (uint32_t j = 0; j < m->joint_count; j++)
            for (int k = 0; k < 16; k++) finite = finite && isfinite(w0[j].m[k]) && isfinite(w1[j].m[k]);
        for (int k = 0; k < 16; k++) moved = fmax(moved, fabs(w1[m->roles.bone[moving]].m[k] - w0[m->roles.bone[moving]].m[k]));
    }
    PM_CHECK(finite);
    PM_CHECK(moved > 1e-2);
    /* a time past the end is the last frame */
    PM_CHECK_OK(pm_humanoid_motion_world(m, m->duration + 10, w1, &err), &err);
    PM_CHECK_OK(pm_humanoid_motion_world(m, m->duration, w0, &err), &err);
    PM_CHECK(memcmp(w0, w1, m->joint_count * sizeof *w0) == 0);
    PM_CHECK(pm_humanoid_motion_world(m, NAN, w1, &err) == PM_ERR_INVALID_ARGUMENT);
    free(w0);
    free(w1);
}

PM_TEST(cmu_bvh_reads_with_its_roles_and_rate) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    pm_humanoid_motion *m = read_motion(data, size, 0);
    PM_CHECK_STR(pm_humanoid_motion_format_name(m->format), "bvh");
    PM_CHECK_STR(m->naming, "cmu");
    PM_CHECK_STR(role_name(m, PM_RIG_LOWER_BODY), "Hips");
    PM_CHECK_STR(role_name(m, PM_RIG_LEFT_ARM), "LeftShoulder"); /* CMU's "shoulder" is the upper arm */
    PM_CHECK_STR(role_name(m, PM_RIG_RIGHT_KNEE), "RightKnee");
    PM_CHECK(m->native_fps == 120 || m->native_fps == 30 || m->native_fps == 60);
    PM_CHECK(m->duration > 1);
    PM_CHECK_EQ_INT(m->parents[0], PM_NO_INDEX);
    check_samples(m, PM_RIG_LOWER_BODY);
    pm_humanoid_motion_free(m);
    free(data);
}

PM_TEST(vrm_animation_reads_its_humanoid_table) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/three-vrm-test.vrma", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    pm_humanoid_motion *m = read_motion(data, size, 0);
    PM_CHECK_STR(pm_humanoid_motion_format_name(m->format), "vrma");
    PM_CHECK_STR(m->naming, "vrm");
    PM_CHECK_STR(role_name(m, PM_RIG_LOWER_BODY), "hips");
    PM_CHECK_STR(role_name(m, PM_RIG_RIGHT_ELBOW), "rightLowerArm");
    PM_CHECK_STR(role_name(m, PM_RIG_LEFT_INDEX1), "leftIndexProximal");
    PM_CHECK_EQ_INT(m->animation_count, 1);
    PM_CHECK(m->duration > 0.5);
    check_samples(m, PM_RIG_RIGHT_ELBOW);
    pm_humanoid_motion_free(m);
    free(data);
}

PM_TEST(gltf_reads_every_animation_by_index) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("gltf/RobotExpressive.glb", &size);
    if (!data) return;
    pm_humanoid_motion *m = read_motion(data, size, 0);
    PM_CHECK_STR(pm_humanoid_motion_format_name(m->format), "gltf");
    PM_CHECK(m->animation_count > 1);
    uint32_t last = m->animation_count - 1, count = m->animation_count;
    PM_CHECK(m->roles.bone[PM_RIG_LEFT_LEG] != PM_NO_INDEX && m->roles.bone[PM_RIG_HEAD] != PM_NO_INDEX);
    pm_humanoid_motion_free(m);
    m = read_motion(data, size, last);
    PM_CHECK_EQ_INT(m->animation, last);
    PM_CHECK(m->animation_name.length > 0);
    pm_humanoid_motion_free(m);
    pm_error err = {0};
    pm_humanoid_motion_options o = {.animation = count};
    PM_CHECK(pm_humanoid_motion_read(data, size, &o, &m, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(m == NULL && strstr(err.message, "animation") != NULL);
    free(data);
}

/* The CMU file with every joint renamed j0, j1, ...: the hierarchy and the rest pose alone give the
 * same hips, legs, arms, neck and head as the names. */
PM_TEST(names_that_say_nothing_are_inferred_from_the_hierarchy) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    pm_humanoid_motion *named = read_motion(data, size, 0);
    size_t out = 0;
    char *renamed = pm_test_anonymous_bvh(data, size, &out);
    pm_humanoid_motion *m = read_motion((unsigned char *)renamed, out, 0);
    PM_CHECK_STR(m->naming, "inferred");
    PM_CHECK(m->confidence >= 0.9);
    const pm_rig_role same[] = {PM_RIG_LOWER_BODY, PM_RIG_LEFT_LEG, PM_RIG_RIGHT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_RIGHT_KNEE,
                                PM_RIG_LEFT_ANKLE, PM_RIG_RIGHT_ANKLE, PM_RIG_LEFT_TOE, PM_RIG_RIGHT_TOE, PM_RIG_LEFT_ARM,
                                PM_RIG_RIGHT_ARM, PM_RIG_LEFT_ELBOW, PM_RIG_RIGHT_ELBOW, PM_RIG_LEFT_WRIST, PM_RIG_RIGHT_WRIST,
                                PM_RIG_HEAD, PM_RIG_UPPER_BODY, PM_RIG_UPPER_BODY2};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        if (m->roles.bone[same[i]] != named->roles.bone[same[i]])
            printf("  %s: inferred %s, named %s\n", pm_rig_role_name(same[i]), role_name(m, same[i]), role_name(named, same[i]));
        PM_CHECK_EQ_INT(m->roles.bone[same[i]], named->roles.bone[same[i]]);
    }
    pm_humanoid_motion_free(m);
    pm_humanoid_motion_free(named);
    free(renamed);
    free(data);
}

/* A spine joint whose name maps to nothing ("Ab" between the hips and "Chest") is the spine all the same. */
PM_TEST(an_unnamed_joint_between_the_hips_and_the_chest_is_the_spine) {
    const char *bvh = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                      " JOINT Ab\n {\n  OFFSET 0 5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "  JOINT Chest\n  {\n   OFFSET 0 5 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "   JOINT Neck\n   {\n    OFFSET 0 8 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "    JOINT Head\n    {\n     OFFSET 0 3 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "     End Site\n     {\n      OFFSET 0 3 0\n     }\n    }\n   }\n"
                      "   JOINT LeftCollar\n   {\n    OFFSET 1 6 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "   JOINT LeftShoulder\n   {\n    OFFSET 5 1 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "    JOINT LeftElbow\n    {\n     OFFSET 10 0 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "     JOINT LeftWrist\n     {\n      OFFSET 9 0 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "      End Site\n      {\n       OFFSET 3 0 0\n      }\n     }\n    }\n   }\n   }\n"
                      "   JOINT RightCollar\n   {\n    OFFSET -1 6 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "   JOINT RightShoulder\n   {\n    OFFSET -5 1 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "    JOINT RightElbow\n    {\n     OFFSET -10 0 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "     JOINT RightWrist\n     {\n      OFFSET -9 0 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "      End Site\n      {\n       OFFSET -3 0 0\n      }\n     }\n    }\n   }\n   }\n  }\n }\n"
                      " JOINT LeftHip\n {\n  OFFSET 3 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "  JOINT LeftKnee\n  {\n   OFFSET 0 -15 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "   JOINT LeftAnkle\n   {\n    OFFSET 0 -15 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "    End Site\n    {\n     OFFSET 0 -2 4\n    }\n   }\n  }\n }\n"
                      " JOINT RightHip\n {\n  OFFSET -3 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "  JOINT RightKnee\n  {\n   OFFSET 0 -15 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "   JOINT RightAnkle\n   {\n    OFFSET 0 -15 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "    End Site\n    {\n     OFFSET 0 -2 4\n    }\n   }\n  }\n }\n}\n"
                      "MOTION\nFrames: 1\nFrame Time: 0.0333333\n" /* 6 + 18 x 3 channels */
                      "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
    pm_humanoid_motion *m = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_humanoid_motion_read((const uint8_t *)bvh, strlen(bvh), NULL, &m, &err), &err);
    if (!m) return;
    const uint32_t spine = m->roles.bone[PM_RIG_UPPER_BODY], chest = m->roles.bone[PM_RIG_UPPER_BODY2];
    PM_CHECK(spine != PM_NO_INDEX && chest != PM_NO_INDEX);
    if (spine != PM_NO_INDEX) PM_CHECK_STR(m->names[spine].data, "Ab");
    if (chest != PM_NO_INDEX) PM_CHECK_STR(m->names[chest].data, "Chest");
    pm_humanoid_motion_free(m);
}

PM_TEST(unknown_names_and_other_files_are_refused_naming_why) {
    const char *bvh = "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n"
                      " JOINT b\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                      "  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.0333333\n"
                      "0 0 0 0 0 0\n";
    pm_humanoid_motion *m = NULL;
    pm_error err = {0};
    PM_CHECK(pm_humanoid_motion_read((const uint8_t *)bvh, strlen(bvh), NULL, &m, &err) == PM_ERR_NOT_FOUND);
    PM_CHECK(m == NULL && strstr(err.message, "a, b") != NULL);
    const uint8_t vmd[] = "Vocaloid Motion Data 0002";
    PM_CHECK(pm_humanoid_motion_read(vmd, sizeof vmd, NULL, &m, &err) == PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "not a BVH") != NULL);
    const uint8_t fbx[] = "Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0"; /* the header, then one byte */
    PM_CHECK(pm_humanoid_motion_read(fbx, sizeof fbx, NULL, &m, &err) == PM_ERR_TRUNCATED);
    PM_CHECK(strstr(err.message, "fbx: the record at byte 27 is cut off") != NULL);
    PM_CHECK(pm_humanoid_motion_read(NULL, 0, NULL, &m, &err) == PM_ERR_BAD_FORMAT);
    PM_CHECK(pm_humanoid_motion_read(vmd, sizeof vmd, NULL, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    pm_humanoid_motion_free(NULL);
}

int main(void) { return pm_test_run_all(); }
