/* Keypoints: the synthetic wave + squat BVH end to end, every shared fixture (0 NaN, 0 out of range,
 * knees forward), VMD leg drive (IK, FK, unreachable and degenerate targets), joint naming families,
 * codecs (binary, NDJSON, mediapipe33 JSON) and their rejections, features, format detection. */
#include "fixture_readers.h"
#include "pm_test.h"

#include "keypoints/kp_internal.h"
#include "procmotion/keypoints.h"
#include "procmotion/mannequin.h"
#include "procmotion/vmd.h"

static pm_kp_sequence *convert(const unsigned char *data, size_t size, const pm_kp_options *o) {
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, o, &s, &err), &err);
    return s;
}

static const float *pt(const pm_kp_sequence *s, uint32_t f, int i) { return s->points + ((size_t)f * PM_KP_POINT_COUNT + i) * 3; }

/* Frames (x2 legs) whose knee is bent by more than ~10 degrees, and how many of those bend forward:
 * the knee lies on the front side of the hip-ankle line, front = (left hip - right hip) x (neck - pelvis). */
static void knees(const pm_kp_sequence *s, uint32_t *bent, uint32_t *forward) {
    *bent = *forward = 0;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        float lat[3], up[3], fw[3];
        for (int k = 0; k < 3; k++) {
            lat[k] = pt(s, f, 23)[k] - pt(s, f, 24)[k];
            up[k] = 0.5f * (pt(s, f, 11)[k] + pt(s, f, 12)[k] - pt(s, f, 23)[k] - pt(s, f, 24)[k]);
        }
        fw[0] = lat[1] * up[2] - lat[2] * up[1];
        fw[1] = lat[2] * up[0] - lat[0] * up[2];
        fw[2] = lat[0] * up[1] - lat[1] * up[0];
        for (int side = 0; side < 2; side++) {
            if (s->angles[f * PM_KP_ANGLE_COUNT + 6 + side] < -0.985f) continue;
            const float *h = pt(s, f, 23 + side), *k = pt(s, f, 25 + side), *a = pt(s, f, 27 + side);
            float d = 0;
            for (int c = 0; c < 3; c++) d += (k[c] - 0.5f * (h[c] + a[c])) * fw[c];
            (*bent)++;
            *forward += d > 0;
        }
    }
}

static void check_clean(const pm_kp_sequence *s, const char *what) {
    uint32_t nan = 1, oor = 1;
    pm_kp_check(s, &nan, &oor);
    PM_CHECK_MSG(nan == 0 && oor == 0, "%s: %u NaN, %u out of range", what, nan, oor);
    PM_CHECK_MSG(s->stats.nan_count == 0 && s->stats.out_of_range == 0, "%s: stats %u NaN, %u out of range", what,
                 s->stats.nan_count, s->stats.out_of_range);
}

static void check_knees_forward(const pm_kp_sequence *s, const char *what) {
    uint32_t bent, fwd;
    knees(s, &bent, &fwd);
    if (bent < 10) return; /* the legs hardly move */
    PM_CHECK_MSG(fwd * 10 >= bent * 9, "%s: knees forward in %u of %u bent leg-frames", what, fwd, bent);
}

/* ---- the synthetic sample ------------------------------------------------------------------------ */

PM_TEST(sample_bvh_gives_60_frames_of_33_points_and_10_angles) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/sample-wave-squat.bvh", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    pm_kp_sequence *s = convert(data, size, NULL);
    free(data);
    if (!s) return;
    PM_CHECK_EQ_INT(s->frame_count, 60);
    PM_CHECK_NEAR(s->fps, 30, 1e-6);
    PM_CHECK_STR(s->stats.family, "cmu");
    PM_CHECK_EQ_INT(s->stats.format, PM_KP_FORMAT_BVH);
    check_clean(s, "sample");
    /* timestamps follow the frame rate */
    for (uint32_t f = 0; f < 60; f++) PM_CHECK_NEAR(s->timestamp_ms[f], f * 1000.0 / 30, 1e-9);
    /* projection: the pelvis at (0.5, 0.5, 0), everything inside [0.15, 0.85] x [0.15, 0.85] x [-0.35, 0.35] */
    float maxdev = 0;
    for (uint32_t f = 0; f < 60; f++) {
        PM_CHECK_NEAR(0.5f * (pt(s, f, 23)[0] + pt(s, f, 24)[0]), 0.5, 1e-6);
        PM_CHECK_NEAR(0.5f * (pt(s, f, 23)[1] + pt(s, f, 24)[1]), 0.5, 1e-6);
        for (int i = 0; i < 33; i++)
            for (int k = 0; k < 3; k++) {
                float v = pt(s, f, i)[k], dev = k < 2 ? fabsf(v - 0.5f) : fabsf(v);
                PM_CHECK(dev <= 0.35f + 1e-6f);
                if (dev > maxdev) maxdev = dev;
            }
    }
    PM_CHECK_NEAR(maxdev, 0.35, 1e-5); /* the adaptive scale fills the range exactly once */
    /* confidence tiers: joints 1.0, face/hand/heel inferred 0.5 */
    const int direct[] = {11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28, 31, 32};
    const int inferred[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 18, 19, 20, 29, 30};
    for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++) PM_CHECK_NEAR(s->visibility[direct[i]], 1.0, 0);
    for (size_t i = 0; i < sizeof inferred / sizeof inferred[0]; i++) PM_CHECK_NEAR(s->visibility[inferred[i]], 0.5, 0);
    PM_CHECK_NEAR(s->visibility[21], 0.5, 0); /* the sample has no thumb joint */
    /* left is on the image's right, the head above the hips, the toes towards the camera (negative z) */
    PM_CHECK(pt(s, 0, 11)[0] > pt(s, 0, 12)[0]);
    PM_CHECK(pt(s, 0, 0)[1] < pt(s, 0, 23)[1]);
    PM_CHECK(pt(s, 0, 31)[2] < pt(s, 0, 27)[2]);
    PM_CHECK(pt(s, 0, 0)[2] < pt(s, 0, 7)[2]); /* nose in front of the ears */
    /* the sequence changes: the squat bends the knees (cos rises from -1), the wave moves the right wrist */
    PM_CHECK(s->angles[0 * 10 + 6] < -0.99f);
    PM_CHECK(s->angles[30 * 10 + 6] > 0.0f);
    float wmin = 1, wmax = 0;
    for (uint32_t f = 0; f < 60; f++) {
        float x = pt(s, f, 16)[0];
        wmin = fminf(wmin, x), wmax = fmaxf(wmax, x);
    }
    PM_CHECK(wmax - wmin > 0.02f);
    PM_CHECK(pt(s, 15, 16)[1] < pt(s, 15, 12)[1]); /* the waving hand is above the right shoulder */
    uint32_t bent, fwd;
    knees(s, &bent, &fwd);
    PM_CHECK(bent > 40 && fwd == bent);
    for (int a = 0; a < PM_KP_ANGLE_COUNT; a++) PM_CHECK(pm_kp_angle_name((uint32_t)a) != NULL);
    pm_kp_free(s);
}

PM_TEST(bvh_resamples_to_the_requested_rate) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    pm_kp_options o = {.fps = 30};
    pm_kp_sequence *s = convert(data, size, &o), *n = convert(data, size, NULL);
    if (s && n) {
        PM_CHECK_EQ_INT(n->frame_count, 994);
        PM_CHECK_NEAR(n->fps, 120, 0.01);
        PM_CHECK_EQ_INT(s->frame_count, (uint32_t)floor(993 * 0.0083333 * 30 + 1e-6) + 1);
        PM_CHECK_NEAR(s->timestamp_ms[1], 1000.0 / 30, 1e-9);
        check_clean(s, "cmu at 30 fps");
        /* frame 10 at 30 fps is frame 40 at 120 fps (up to the file's rounded frame time) */
        PM_CHECK_NEAR(pt(s, 10, 15)[1], pt(n, 40, 15)[1], 2e-3);
    }
    pm_kp_free(s);
    pm_kp_free(n);
    free(data);
}

/* The same mocap file with its joints renamed j0, j1, ...: the keypoints come from the hierarchy and the
 * rest pose, where the named file's put them. */
PM_TEST(a_bvh_whose_names_say_nothing_converts_from_its_hierarchy) {
    size_t size = 0, anon_size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    char *anon = pm_test_anonymous_bvh(data, size, &anon_size);
    pm_kp_options o = {.fps = 30};
    pm_kp_sequence *named = convert(data, size, &o), *inferred = convert((unsigned char *)anon, anon_size, &o);
    if (named && inferred) {
        PM_CHECK_STR(inferred->stats.family, "inferred");
        PM_CHECK_EQ_INT(inferred->frame_count, named->frame_count);
        double worst = 0;
        const int body[] = {11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28}; /* shoulders to ankles */
        for (uint32_t f = 0; f < named->frame_count; f++)
            for (size_t k = 0; k < sizeof body / sizeof body[0]; k++)
                for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(pt(named, f, body[k])[c] - pt(inferred, f, body[k])[c]));
        printf("  body points within %.2g of the named file's\n", worst);
        PM_CHECK(worst < 1e-5);
    }
    pm_kp_free(named);
    pm_kp_free(inferred);
    free(anon);
    free(data);
}

/* ---- every shared fixture ------------------------------------------------------------------------------ */

PM_TEST(every_fixture_converts_without_nan_or_out_of_range_and_knees_point_forward) {
    static const char *const files[] = {
        "vmd/mei_wait.vmd",      "vmd/mei_greeting.vmd",        "vmd/gene_stand.vmd",
        "vmd/gene_02_laugh.vmd", "vmd/babylon_physics_toggle_test_yyb10th.vmd", "vmd/mmt_test_model_test_motion.vmd",
        "vmd/wavefile_camera.vmd", "bvh/cmu_131_01.bvh",        "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm",
        "vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t size = 0;
        unsigned char *data = pm_test_read_fixture(files[i], &size);
        if (!data) continue;
        pm_kp_sequence *s = convert(data, size, NULL);
        if (s) {
            check_clean(s, files[i]);
            check_knees_forward(s, files[i]);
            PM_CHECK(s->frame_count >= 1);
            PM_CHECK_EQ_INT(s->stats.missing_points, 0);
        }
        pm_kp_free(s);
        free(data);
    }
    size_t size = 0;
    unsigned char *glb = pm_test_read_fixture("gltf/RobotExpressive.glb", &size);
    if (!glb) return;
    for (uint32_t a = 0; a < 14; a++) {
        pm_kp_options o = {.animation = a};
        pm_kp_sequence *s = convert(glb, size, &o);
        char what[64];
        snprintf(what, sizeof what, "RobotExpressive animation %u", a);
        if (s) {
            check_clean(s, what);
            check_knees_forward(s, what);
            PM_CHECK_STR(s->stats.family, "humanoid");
            PM_CHECK(s->frame_count > 10);
            PM_CHECK_NEAR(s->fps, 30, 0);
        }
        pm_kp_free(s);
    }
    pm_kp_options bad = {.animation = 14};
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_from_data(glb, size, PM_KP_FORMAT_AUTO, &bad, &s, &err), PM_ERR_INVALID_ARGUMENT);
    free(glb);
}

PM_TEST(vrm_humanoid_table_maps_eyes_and_fingers_directly) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm", &size);
    if (!data) return;
    pm_kp_sequence *s = convert(data, size, NULL);
    if (s) {
        PM_CHECK_STR(s->stats.family, "vrm");
        PM_CHECK_EQ_INT(s->frame_count, 1);
        const int direct[] = {2, 5, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 31, 32};
        for (size_t k = 0; k < sizeof direct / sizeof direct[0]; k++) PM_CHECK_NEAR(s->visibility[direct[k]], 1.0, 0);
        PM_CHECK_NEAR(s->visibility[0], 0.5, 0);
        PM_CHECK_NEAR(s->visibility[29], 0.5, 0);
        PM_CHECK(pt(s, 0, 11)[0] > pt(s, 0, 12)[0]); /* VRM 1.0 faces +Z: left on the image's right */
    }
    pm_kp_free(s);
    free(data);
}

/* ---- VMD leg drive -------------------------------------------------------------------------------------- */

static void compare(const pm_kp_sequence *a, const pm_kp_sequence *b, double tol_xyz, double tol_v, double tol_t, double tol_a);

static unsigned char *build_vmd(void (*keys)(pm_vmd *), size_t *size) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &err), &err);
    keys(v);
    pm_vmd_write(v, NULL, 0, size, &err);
    unsigned char *out = malloc(*size);
    PM_CHECK_OK(pm_vmd_write(v, out, *size, size, &err), &err);
    pm_vmd_free(v);
    return out;
}

static const float zero3[3] = {0, 0, 0}, ident[4] = {0, 0, 0, 1};

static void key(pm_vmd *v, const char *name, uint32_t frame, const float *p, const float *q) {
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_add_bone_key(v, name, frame, p ? p : zero3, q ? q : ident, NULL, &err), &err);
}

/* センター down 3 units with the foot IK bones keyed in place (a non-zero key makes it an IK motion). */
static void ik_squat(pm_vmd *v) {
    const float down[3] = {0, -3, 0}, nudge[3] = {0, 0.001f, 0};
    key(v, "センター", 0, NULL, NULL);
    key(v, "センター", 30, down, NULL);
    key(v, "センター", 60, NULL, NULL);
    key(v, "左足ＩＫ", 0, nudge, NULL);
    key(v, "右足IK", 0, nudge, NULL); /* half-width IK is the same bone */
    key(v, "髪", 0, NULL, NULL);      /* not in the standard skeleton */
    key(v, "スカート", 0, NULL, NULL);
}

/* The same squat baked to FK: hips forward, knees back (MMD's knee bends about -X). */
static void fk_squat(pm_vmd *v) {
    const float down[3] = {0, -3, 0};
    const float s = 0.5f, c = 0.8660254f; /* 60 deg */
    const float thigh[4] = {s, 0, 0, c}, shin[4] = {-0.8660254f, 0, 0, 0.5f}; /* +60 deg, -120 deg about X */
    key(v, "センター", 0, NULL, NULL);
    key(v, "センター", 30, down, NULL);
    const char *legs[2][2] = {{"左足", "左ひざ"}, {"右足", "右ひざ"}};
    for (int i = 0; i < 2; i++) {
        key(v, legs[i][0], 0, NULL, NULL);
        key(v, legs[i][0], 30, NULL, thigh);
        key(v, legs[i][1], 0, NULL, NULL);
        key(v, legs[i][1], 30, NULL, shin);
    }
}

/* The IK bones far below the floor (unreachable) and, on the other leg, at the hip (degenerate). */
static void ik_extremes(pm_vmd *v) {
    const float far_down[3] = {0, -50, -5}, at_hip[3] = {0.117f, 10.121f, -0.990f}; /* 右足 rest minus 右足ＩＫ rest */
    key(v, "左足ＩＫ", 0, far_down, NULL);
    key(v, "右足ＩＫ", 0, at_hip, NULL);
    key(v, "右足ＩＫ", 10, zero3, NULL);
}

PM_TEST(vmd_leg_ik_bends_knees_forward_and_ignores_unknown_bones) {
    size_t size = 0;
    unsigned char *data = build_vmd(ik_squat, &size);
    pm_kp_options o = {.fps = 60}; /* VMD stays at 30 fps */
    pm_kp_sequence *s = convert(data, size, &o);
    free(data);
    if (!s) return;
    PM_CHECK_EQ_INT(s->stats.legs, PM_KP_LEGS_IK);
    PM_CHECK_EQ_INT(s->stats.ignored_bones, 2);
    PM_CHECK_EQ_INT(s->frame_count, 61);
    PM_CHECK_NEAR(s->fps, 30, 0);
    PM_CHECK_NEAR(s->timestamp_ms[30], 1000, 1e-9);
    PM_CHECK_STR(s->stats.family, "mmd");
    check_clean(s, "IK squat");
    PM_CHECK(s->angles[30 * 10 + 6] > -0.6f); /* knees clearly bent at the bottom */
    PM_CHECK(s->angles[0 * 10 + 6] < -0.94f);  /* as at rest: the mannequin's knee points sit 19 degrees off the line */
    uint32_t bent, fwd;
    knees(s, &bent, &fwd);
    PM_CHECK(bent > 40);
    PM_CHECK_EQ_INT(fwd, bent);
    /* at the bottom of the squat the left ankle is still on the image's right */
    PM_CHECK(pt(s, 30, 27)[0] > pt(s, 30, 28)[0]);
    pm_kp_free(s);
}

PM_TEST(vmd_baked_fk_legs_bend_forward_after_the_z_mirror) {
    size_t size = 0;
    unsigned char *data = build_vmd(fk_squat, &size);
    pm_kp_sequence *s = convert(data, size, NULL);
    free(data);
    if (!s) return;
    PM_CHECK_EQ_INT(s->stats.legs, PM_KP_LEGS_FK);
    check_clean(s, "FK squat");
    PM_CHECK(s->angles[30 * 10 + 6] > 0.3f);
    check_knees_forward(s, "FK squat");
    uint32_t bent, fwd;
    knees(s, &bent, &fwd);
    PM_CHECK(bent > 20);
    pm_kp_free(s);
}

PM_TEST(vmd_unreachable_and_degenerate_ik_targets_never_give_nan) {
    size_t size = 0;
    unsigned char *data = build_vmd(ik_extremes, &size);
    pm_kp_sequence *s = convert(data, size, NULL);
    free(data);
    if (!s) return;
    PM_CHECK_EQ_INT(s->stats.legs, PM_KP_LEGS_IK);
    check_clean(s, "IK extremes");
    /* the unreachable leg is as straight as MMD's knee limit lets it be: as at rest */
    PM_CHECK_MSG(s->angles[0 * 10 + 6] < -0.93f, "knee cosine %g", s->angles[0 * 10 + 6]);
    pm_kp_free(s);
}

PM_TEST(vmd_without_a_model_plays_on_the_mannequin) {
    /* No model: the VMD is played by the pose evaluator on the built-in mannequin, exactly as when the
     * mannequin's PMX is given as the model. */
    size_t msize = 0;
    pm_result mr = pm_mannequin_pmx(NULL, NULL, 0, &msize, NULL);
    unsigned char *mannequin = mr == PM_OK ? malloc(msize) : NULL;
    PM_CHECK(mannequin && pm_mannequin_pmx(NULL, mannequin, msize, &msize, NULL) == PM_OK);
    static const char *const files[] = {"vmd/mmt_test_model_test_motion.vmd", "vmd/mei_greeting.vmd", "vmd/gene_stand.vmd"};
    for (size_t c = 0; mannequin && c < sizeof files / sizeof files[0]; c++) {
        size_t size = 0;
        unsigned char *data = pm_test_read_fixture(files[c], &size);
        if (!data) continue;
        pm_kp_options o = {.model = mannequin, .model_size = msize};
        pm_kp_sequence *m = convert(data, size, &o), *s = convert(data, size, NULL);
        if (m && s) {
            check_clean(s, files[c]);
            PM_CHECK_EQ_INT(m->stats.legs, s->stats.legs);
            PM_CHECK_EQ_INT(m->frame_count, s->frame_count);
            PM_CHECK(m->frame_count == s->frame_count && memcmp(m->points, s->points, (size_t)m->frame_count * 99 * sizeof(float)) == 0);
        }
        pm_kp_free(m);
        pm_kp_free(s);
        free(data);
    }
    free(mannequin);
}

PM_TEST(a_model_goes_with_a_vmd_only_and_a_broken_model_is_named) {
    size_t msize = 0;
    unsigned char *model = pm_test_read_fixture("pmx/yw_test_model/yw_test_model.pmx", &msize);
    if (!model) return;
    /* a model with something other than a VMD is refused; a broken model names the problem */
    pm_kp_options o = {.model = model, .model_size = msize};
    pm_kp_sequence *x = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)"HIERARCHY", 9, PM_KP_FORMAT_AUTO, &o, &x, &err), PM_ERR_INVALID_ARGUMENT);
    o.model_size = 100;
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("vmd/mei_wait.vmd", &size);
    if (data) PM_CHECK(pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, &o, &x, &err) != PM_OK && x == NULL);
    free(data);
    free(model);
}

/* ---- joint names ---------------------------------------------------------------------------------------- */

PM_TEST(joint_names_map_per_family) {
    static const struct {
        const char *family, *name;
        int slot;
    } cases[] = {
        {"mixamo", "mixamorig:LeftArm", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"mixamo", "mixamorig1:RightUpLeg", PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)},
        {"mixamo", "LeftShoulder", PMI_SLOT_LEFT(PMI_SIDE_SHOULDER)},
        {"cmu", "LeftShoulder", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"cmu", "lhumerus", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"cmu", "rtibia", PMI_SLOT_RIGHT(PMI_SIDE_LOWER_LEG)},
        {"cmu", "lowerback", PMI_SLOT_SPINE},
        {"humanoid", "J_Bip_L_UpperArm", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"humanoid", "J_Bip_C_Hips", PMI_SLOT_HIPS},
        {"humanoid", "UpperLeg.R", PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)},
        {"humanoid", "upper_arm.L", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"humanoid", "leftThumbDistal", PMI_SLOT_LEFT(PMI_SIDE_THUMB)},
        {"daz", "lShldrBend", PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {"daz", "rShin", PMI_SLOT_RIGHT(PMI_SIDE_LOWER_LEG)},
        {"biped", "Bip01 L Thigh", PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)},
        {"biped", "Bip01 R Calf", PMI_SLOT_RIGHT(PMI_SIDE_LOWER_LEG)},
        {"mmd", "左足", PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)},
        {"mmd", "右ひざ", PMI_SLOT_RIGHT(PMI_SIDE_LOWER_LEG)},
        {"mmd", "左親指２", PMI_SLOT_LEFT(PMI_SIDE_THUMB)},
        {"mmd", "上半身2", PMI_SLOT_CHEST},
        {"mmd", "左足ＩＫ", -1}, /* the IK bone is not the leg */
        {"mmd", "左足IK", -1},
        {"mmd", "左足D", -1},
        {"cmu", "LHipJoint", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t s = pmi_kp_name_slot(cases[i].family, cases[i].name);
        uint32_t want = cases[i].slot < 0 ? PM_NO_INDEX : (uint32_t)cases[i].slot;
        PM_CHECK_MSG(s == want, "%s '%s' -> %d, want %d", cases[i].family, cases[i].name, (int)s, (int)want);
    }
}

PM_TEST(chinese_joint_names_go_through_the_humanoid_mapper) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/sample-wave-squat.bvh", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    static const char *const rename[][2] = {
        {"ROOT Hips\n", "ROOT 臀部\n"},           {"JOINT Spine\n", "JOINT 脊柱\n"},
        {"JOINT Chest\n", "JOINT 胸部\n"},        {"JOINT Neck\n", "JOINT 脖子\n"},
        {"JOINT Head\n", "JOINT 头\n"},           {"JOINT LeftCollar\n", "JOINT 左锁骨\n"},
        {"JOINT LeftShoulder\n", "JOINT 左大臂\n"}, {"JOINT LeftElbow\n", "JOINT 左小臂\n"},
        {"JOINT LeftWrist\n", "JOINT 左手\n"},      {"JOINT RightCollar\n", "JOINT 右锁骨\n"},
        {"JOINT RightShoulder\n", "JOINT 右大臂\n"}, {"JOINT RightElbow\n", "JOINT 右小臂\n"},
        {"JOINT RightWrist\n", "JOINT 右手\n"},     {"JOINT LeftHip\n", "JOINT 左大腿\n"},
        {"JOINT LeftKnee\n", "JOINT 左小腿\n"},     {"JOINT LeftAnkle\n", "JOINT 左脚\n"},
        {"JOINT LeftToe\n", "JOINT 左脚趾\n"},      {"JOINT RightHip\n", "JOINT 右大腿\n"},
        {"JOINT RightKnee\n", "JOINT 右小腿\n"},    {"JOINT RightAnkle\n", "JOINT 右脚\n"},
        {"JOINT RightToe\n", "JOINT 右脚趾\n"},
    };
    char *text = malloc(size * 2 + 1), *tmp = malloc(size * 2 + 1);
    memcpy(text, data, size);
    text[size] = 0;
    for (size_t i = 0; i < sizeof rename / sizeof rename[0]; i++) {
        char *at = strstr(text, rename[i][0]);
        PM_CHECK(at != NULL);
        if (!at) continue;
        sprintf(tmp, "%.*s%s%s", (int)(at - text), text, rename[i][1], at + strlen(rename[i][0]));
        strcpy(text, tmp);
    }
    pm_kp_sequence *c = convert((const unsigned char *)text, strlen(text), NULL), *ref = convert(data, size, NULL);
    if (c && ref) {
        PM_CHECK_STR(c->stats.family, "humanoid.h");
        check_clean(c, "chinese names");
        /* the same joints, so the same keypoints */
        compare(c, ref, 1e-6, 0, 0, 1e-6);
    }
    pm_kp_free(c);
    pm_kp_free(ref);
    free(text);
    free(tmp);
    free(data);
}

PM_TEST(a_rig_without_hips_or_arms_is_a_clear_error) {
    const char *bvh = "HIERARCHY\nROOT Root\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nJOINT Tail\n{\n"
                      "OFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\n}\n"
                      "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0\n";
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)bvh, strlen(bvh), PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_NOT_FOUND);
    PM_CHECK(strstr(err.message, "upper arms") != NULL);
    PM_CHECK(s == NULL);
}

/* ---- codecs ------------------------------------------------------------------------------------------------ */

static pm_kp_sequence *sample_sequence(void) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/sample-wave-squat.bvh", &size);
    if (!data) return NULL;
    pm_kp_sequence *s = convert(data, size, NULL);
    free(data);
    return s;
}

static void compare(const pm_kp_sequence *a, const pm_kp_sequence *b, double tol_xyz, double tol_v, double tol_t, double tol_a) {
    PM_CHECK_EQ_INT(a->frame_count, b->frame_count);
    if (a->frame_count != b->frame_count) return;
    double dx = 0, dv = 0, dt = 0, da = 0;
    for (uint32_t f = 0; f < a->frame_count; f++) {
        dt = fmax(dt, fabs(a->timestamp_ms[f] - b->timestamp_ms[f]));
        for (int i = 0; i < 99; i++) dx = fmax(dx, fabs(a->points[f * 99 + i] - b->points[f * 99 + i]));
        for (int i = 0; i < 33; i++) dv = fmax(dv, fabs(a->visibility[f * 33 + i] - b->visibility[f * 33 + i]));
        for (int i = 0; i < 10; i++) da = fmax(da, fabs(a->angles[f * 10 + i] - b->angles[f * 10 + i]));
    }
    PM_CHECK_MSG(dx <= tol_xyz && dv <= tol_v && dt <= tol_t && da <= tol_a, "max differences: xyz %g v %g t %g angle %g", dx, dv,
                 dt, da);
}

static pm_kp_sequence *via_ndjson(const pm_kp_sequence *s) {
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_write_ndjson(s, NULL, 0, &n, &err), &err);
    char *text = malloc(n);
    PM_CHECK_OK(pm_kp_write_ndjson(s, text, n, &n, &err), &err);
    size_t lines = 0;
    for (size_t i = 0; i < n; i++) lines += text[i] == '\n';
    PM_CHECK_EQ_INT(lines, s->frame_count);
    pm_kp_sequence *r = NULL;
    PM_CHECK_OK(pm_kp_from_data((const uint8_t *)text, n, PM_KP_FORMAT_AUTO, NULL, &r, &err), &err);
    free(text);
    return r;
}

static pm_kp_sequence *via_binary(const pm_kp_sequence *s) {
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_write_binary(s, NULL, 0, &n, &err), &err);
    PM_CHECK_EQ_INT(n, (size_t)s->frame_count * 239);
    uint8_t *bin = malloc(n);
    PM_CHECK_OK(pm_kp_write_binary(s, bin, n, &n, &err), &err);
    pm_kp_sequence *r = NULL;
    PM_CHECK_OK(pm_kp_from_data(bin, n, PM_KP_FORMAT_AUTO, NULL, &r, &err), &err);
    free(bin);
    return r;
}

PM_TEST(ndjson_and_binary_round_trip_within_quantisation) {
    pm_kp_sequence *s = sample_sequence();
    if (!s) return;
    pm_kp_sequence *nd = via_ndjson(s), *bin = via_binary(s);
    if (nd) {
        compare(s, nd, 6e-7, 6e-7, 6e-4, 6e-7);
        PM_CHECK_EQ_INT(nd->stats.format, PM_KP_FORMAT_NDJSON);
        PM_CHECK_NEAR(nd->fps, 30, 1e-4); /* from timestamps rounded to 1 us */
    }
    if (bin) {
        compare(s, bin, 0.5 / 32767 + 1e-7, 0.5 / 255 + 1e-7, 0.5, 1e-3);
        PM_CHECK_EQ_INT(bin->stats.format, PM_KP_FORMAT_BINARY);
        check_clean(bin, "binary");
        /* binary -> NDJSON -> binary is exact: the NDJSON keeps 6 decimals of values on a 1/32767 grid */
        pm_kp_sequence *nd2 = via_ndjson(bin);
        pm_kp_sequence *bin2 = nd2 ? via_binary(nd2) : NULL;
        if (bin2) compare(bin, bin2, 1e-9, 1e-9, 0, 1e-5);
        pm_kp_free(nd2);
        pm_kp_free(bin2);
    }
    pm_kp_free(nd);
    pm_kp_free(bin);
    pm_kp_free(s);
}

PM_TEST(binary_frame_is_239_bytes_with_the_documented_layout) {
    pm_kp_sequence *s = sample_sequence();
    if (!s) return;
    s->mirrored = true;
    uint8_t fr[PM_KP_FRAME_SIZE];
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_encode_frame(s, 3, fr, &err), &err);
    PM_CHECK(fr[0] == 'K' && fr[1] == 'P' && fr[2] == 1 && fr[3] == 1);
    PM_CHECK_EQ_INT(fr[4] | fr[5] << 8 | fr[6] << 16 | (uint32_t)fr[7] << 24, 100); /* frame 3 at 30 fps */
    int16_t x0 = (int16_t)(fr[8] | fr[9] << 8);
    PM_CHECK_EQ_INT(x0, (int16_t)lround(pt(s, 3, 0)[0] * 32767.0));
    PM_CHECK_EQ_INT(fr[8 + 6], (uint8_t)lround(s->visibility[3 * 33 + 0] * 255.0));
    PM_CHECK_EQ_INT(fr[8 + 7 * 11 + 6], 255); /* left shoulder, visibility 1 */
    pm_kp_frame dec;
    PM_CHECK_OK(pm_kp_decode_frame(fr, sizeof fr, &dec, &err), &err);
    PM_CHECK(dec.mirrored);
    PM_CHECK_NEAR(dec.timestamp_ms, 100, 0);
    PM_CHECK_EQ_INT(PM_KP_FRAME_HEADER_SIZE + 33 * 7, PM_KP_FRAME_SIZE);
    /* rejections: wrong length, magic, version */
    PM_CHECK_EQ_INT(pm_kp_decode_frame(fr, 238, &dec, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "239 bytes") != NULL);
    PM_CHECK_EQ_INT(pm_kp_decode_frame(fr, 240, &dec, &err), PM_ERR_BAD_FORMAT);
    uint8_t bad[PM_KP_FRAME_SIZE];
    memcpy(bad, fr, sizeof bad);
    bad[0] = 'X';
    PM_CHECK_EQ_INT(pm_kp_decode_frame(bad, sizeof bad, &dec, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "magic") != NULL);
    memcpy(bad, fr, sizeof bad);
    bad[2] = 2;
    PM_CHECK_EQ_INT(pm_kp_decode_frame(bad, sizeof bad, &dec, &err), PM_ERR_BAD_FORMAT);
    /* a stream must be whole frames of the right magic */
    pm_kp_sequence *r = NULL;
    uint8_t two[2 * PM_KP_FRAME_SIZE];
    memcpy(two, fr, sizeof fr);
    memcpy(two + sizeof fr, fr, sizeof fr);
    PM_CHECK_EQ_INT(pm_kp_read_binary(two, sizeof two - 1, NULL, &r, &err), PM_ERR_BAD_FORMAT);
    two[PM_KP_FRAME_SIZE + 1] = 'Q';
    PM_CHECK_EQ_INT(pm_kp_read_binary(two, sizeof two, NULL, &r, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "frame 1") != NULL);
    PM_CHECK(r == NULL);
    pm_kp_free(s);
}

PM_TEST(ndjson_reader_rejects_bad_lines_with_their_number) {
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"{\"timestamp\":0,\"points\":[]}\n", "33 points"},
        {"\n\n{\"points\":[]}\n", "line 3"},
        {"not json\n", "not a JSON object"},
        {"", "no frame"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pm_kp_sequence *r = NULL;
        pm_error err = {0};
        PM_CHECK(pm_kp_read_ndjson((const uint8_t *)cases[i].text, strlen(cases[i].text), NULL, &r, &err) != PM_OK);
        PM_CHECK_MSG(strstr(err.message, cases[i].msg) != NULL, "case %zu: '%s'", i, err.message);
        PM_CHECK(r == NULL);
    }
}

/* A mediapipe33@0.1.0 document from a sequence's frames, with `patch` applied to frame 1 point 5. */
static char *json_doc(const pm_kp_sequence *s, uint32_t frames, const char *patch, bool with_fps) {
    size_t cap = 64 + frames * 33 * 80 + 256;
    char *out = malloc(cap), *p = out;
    p += sprintf(p, "{\"format\":\"mediapipe33@0.1.0\",%s\"frames\":[", with_fps ? "\"fps\":30," : "");
    for (uint32_t f = 0; f < frames; f++) {
        p += sprintf(p, "%s{%s\"points\":[", f ? "," : "", with_fps ? "" : "\"timestamp\":0,");
        for (int i = 0; i < 33; i++) {
            const float *q = pt(s, f, i);
            if (patch && f == 1 && i == 5) p += sprintf(p, "%s%s", i ? "," : "", patch);
            else p += sprintf(p, "%s{\"x\":%.6f,\"y\":%.6f,\"z\":%.6f,\"visibility\":%.3f}", i ? "," : "", q[0] * 0.5 + 0.1, q[1] * 0.5 + 0.2, q[2] * 0.5, s->visibility[f * 33 + i]);
        }
        p += sprintf(p, "]}");
    }
    sprintf(p, "]}");
    return out;
}

PM_TEST(mediapipe33_json_is_validated_and_normalised) {
    pm_kp_sequence *s = sample_sequence();
    if (!s) return;
    /* a shrunken, off-centre copy comes back centred and scaled like the original */
    char *doc = json_doc(s, 60, NULL, true);
    pm_kp_sequence *j = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)doc, strlen(doc)), PM_KP_FORMAT_JSON);
    PM_CHECK_OK(pm_kp_from_data((const uint8_t *)doc, strlen(doc), PM_KP_FORMAT_AUTO, NULL, &j, &err), &err);
    if (j) {
        compare(s, j, 2e-5, 1e-3, 1e-9, 1e-4);
        PM_CHECK_STR(j->stats.family, "keypoints");
        PM_CHECK_NEAR(j->fps, 30, 0);
        check_clean(j, "json");
    }
    pm_kp_free(j);
    free(doc);
    static const struct {
        const char *patch, *msg;
    } bad[] = {
        {"[0.5,0.5,0,1.5]", "frames[1].points[5].visibility must be a number in [0, 1], got 1.5"},
        {"[0.5,0.5,0]", "frames[1].points[5] must be [x, y, z, visibility], got an array of 3"},
        {"[0.5,1e999,0,1]", "frames[1].points[5].y must be a number in [-1e+06, 1e+06], got inf"},
        {"{\"x\":0.5,\"y\":0.5,\"z\":0}", "frames[1].points[5].visibility must be a number in [0, 1], got nothing"},
        {"\"nose\"", "frames[1].points[5] must be an array or an object, got \"nose\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        doc = json_doc(s, 3, bad[i].patch, true);
        PM_CHECK(pm_kp_from_data((const uint8_t *)doc, strlen(doc), PM_KP_FORMAT_JSON, NULL, &j, &err) != PM_OK);
        PM_CHECK_MSG(strstr(err.message, bad[i].msg) != NULL, "case %zu: '%s'", i,
                     err.message);
        free(doc);
    }
    const char *wrong = "{\"format\":\"mediapipe33@9\",\"fps\":30,\"frames\":[]}";
    PM_CHECK(pm_kp_from_data((const uint8_t *)wrong, strlen(wrong), PM_KP_FORMAT_JSON, NULL, &j, &err) != PM_OK);
    PM_CHECK(strstr(err.message, "mediapipe33@0.1.0") != NULL);
    doc = json_doc(s, 2, NULL, false); /* timestamps all 0 are allowed (non-decreasing) */
    PM_CHECK_OK(pm_kp_from_data((const uint8_t *)doc, strlen(doc), PM_KP_FORMAT_JSON, NULL, &j, &err), &err);
    pm_kp_free(j);
    free(doc);
    /* with fps, a frame without a timestamp comes at its index's time: not before a later timestamp */
    doc = json_doc(s, 3, NULL, true);
    char *second = strstr(strstr(doc, "{\"points\"") + 1, "{\"points\"") + 1; /* frame 1, after its '{' */
    const char *late = "\"timestamp\":83,";
    char *patched = malloc(strlen(doc) + strlen(late) + 1);
    memcpy(patched, doc, (size_t)(second - doc));
    strcpy(patched + (second - doc), late);
    strcat(patched, second);
    PM_CHECK(pm_kp_from_data((const uint8_t *)patched, strlen(patched), PM_KP_FORMAT_JSON, NULL, &j, &err) != PM_OK);
    PM_CHECK_MSG(strstr(err.message, "frames[2] has no timestamp; at 30 fps it would be at 66.6667 ms, before the frame before it (83 ms)") != NULL,
                 "'%s'", err.message);
    free(patched);
    free(doc);
    pm_kp_free(s);
}

/* ---- features and detection ------------------------------------------------------------------------------- */

PM_TEST(features_fill_low_visibility_points_by_interpolation) {
    pm_kp_sequence *s = sample_sequence();
    if (!s) return;
    uint32_t n = s->frame_count;
    float *feat = malloc(sizeof(float) * n * PM_KP_FEATURE_SIZE);
    pm_error err = {0};
    PM_CHECK_EQ_INT(PM_KP_FEATURE_SIZE, 109);
    PM_CHECK_EQ_INT(pm_kp_features(s, feat, (size_t)n * PM_KP_FEATURE_SIZE - 1, &err), PM_ERR_INVALID_ARGUMENT);
    /* hide the right wrist in frames 10..19: features interpolate between frames 9 and 20 */
    for (uint32_t f = 10; f < 20; f++) s->visibility[f * 33 + 16] = 0.2f;
    PM_CHECK_OK(pm_kp_features(s, feat, (size_t)n * PM_KP_FEATURE_SIZE, &err), &err);
    for (int k = 0; k < 3; k++) {
        float a = pt(s, 9, 16)[k], b = pt(s, 20, 16)[k];
        PM_CHECK_NEAR(feat[15 * PM_KP_FEATURE_SIZE + 16 * 3 + k], a + (b - a) * 6.0f / 11.0f, 1e-6);
        PM_CHECK_NEAR(feat[5 * PM_KP_FEATURE_SIZE + 16 * 3 + k], pt(s, 5, 16)[k], 0);
    }
    /* visibility 0.5 counts as visible: the nose (inferred, 0.5) is kept as it is */
    PM_CHECK_NEAR(feat[7 * PM_KP_FEATURE_SIZE + 0], pt(s, 7, 0)[0], 0);
    /* angles of a visible frame equal the sequence's */
    for (int a = 0; a < 10; a++) PM_CHECK_NEAR(feat[40 * PM_KP_FEATURE_SIZE + 99 + a], s->angles[40 * 10 + a], 1e-6);
    free(feat);
    pm_kp_free(s);
}

PM_TEST(formats_are_detected_and_unknown_input_is_refused) {
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"HIERARCHY\n", 10), PM_KP_FORMAT_BVH);
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"\xEF\xBB\xBF  HIERARCHY", 14), PM_KP_FORMAT_BVH);
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"Vocaloid Motion Data 0002", 25), PM_KP_FORMAT_VMD);
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"glTF\2\0\0\0", 8), PM_KP_FORMAT_GLTF);
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"{\"asset\":{}}", 12), PM_KP_FORMAT_GLTF);
    PM_CHECK_EQ_INT(pm_kp_detect_format((const uint8_t *)"{\"timestamp\":0}", 15), PM_KP_FORMAT_NDJSON);
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)"hello", 5, PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "unrecognised") != NULL);
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)"", 0, PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_TRUNCATED);
    pm_kp_options o = {.fps = NAN};
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)"HIERARCHY", 9, PM_KP_FORMAT_AUTO, &o, &s, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "fps") != NULL);
    for (uint32_t i = 0; i < 35; i++) PM_CHECK(pm_kp_point_name(i) != NULL);
    PM_CHECK(pm_kp_point_name(35) == NULL);
    PM_CHECK_EQ_INT(pm_kp_point_parent(34), -1);
    PM_CHECK_EQ_INT(pm_kp_point_parent(7), 3);
    PM_CHECK_EQ_INT(pm_kp_point_parent(31), 29);
}

PM_TEST(hostile_inputs_fail_cleanly_through_the_keypoint_entry) {
    /* deep BVH, NaN in a BVH, a lying GLB: each gives an error and no sequence */
    size_t cap = 100000 * 30 + 200;
    char *deep = malloc(cap), *p = deep;
    p += sprintf(p, "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\n");
    for (int i = 0; i < 100000; i++) p += sprintf(p, "JOINT j\n{\nOFFSET 0 1 0\n");
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)deep, (size_t)(p - deep), PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_LIMIT);
    free(deep);
    const char *nan = "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\nNaN\n";
    PM_CHECK_EQ_INT(pm_kp_from_data((const uint8_t *)nan, strlen(nan), PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    const uint8_t glb[20] = {'g', 'l', 'T', 'F', 2, 0, 0, 0, 20, 0, 0, 0, 0xff, 0xff, 0, 0, 'J', 'S', 'O', 'N'};
    PM_CHECK_EQ_INT(pm_kp_from_data(glb, sizeof glb, PM_KP_FORMAT_AUTO, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK(s == NULL);
}

/* A model standing straight reads a straight knee: an MMD knee bone stands in front of the hip-ankle line,
 * and the point is put on the line. */
PM_TEST(an_mmd_knee_reads_straight_on_a_straight_leg) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("vmd/gene_stand.vmd", &size);
    if (!data) return;
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_from_data(data, size, PM_KP_FORMAT_VMD, NULL, &s, &err), &err);
    if (s) {
        const double left = 180 - acos(s->angles[6]) * 180 / PM_PI, right = 180 - acos(s->angles[7]) * 180 / PM_PI;
        printf("  the mannequin standing: knee bend %.1f / %.1f degrees\n", left, right);
        PM_CHECK(left < 2 && right < 2);
    }
    pm_kp_free(s);
    free(data);
}

/* A BVH whose rest pose lies along +Z and whose root turns it upright in every frame: the figure stands. */
PM_TEST(a_bvh_resting_lying_down_stands_as_its_motion_does) {
    static const char *const joints =
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n"
        " JOINT Spine\n {\n  OFFSET 0 0 5\n  CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "  JOINT Neck\n  {\n   OFFSET 0 0 8\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "   JOINT Head\n   {\n    OFFSET 0 0 3\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "    End Site\n    {\n     OFFSET 0 0 3\n    }\n   }\n  }\n"
        "  JOINT LeftArm\n  {\n   OFFSET 5 0 7\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "   JOINT LeftForeArm\n   {\n    OFFSET 10 0 0\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "    JOINT LeftHand\n    {\n     OFFSET 9 0 0\n     CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "     End Site\n     {\n      OFFSET 3 0 0\n     }\n    }\n   }\n  }\n"
        "  JOINT RightArm\n  {\n   OFFSET -5 0 7\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "   JOINT RightForeArm\n   {\n    OFFSET -10 0 0\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "    JOINT RightHand\n    {\n     OFFSET -9 0 0\n     CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "     End Site\n     {\n      OFFSET -3 0 0\n     }\n    }\n   }\n  }\n }\n"
        " JOINT LeftUpLeg\n {\n  OFFSET 3 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "  JOINT LeftLeg\n  {\n   OFFSET 0 0 -15\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "   JOINT LeftFoot\n   {\n    OFFSET 0 0 -15\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "    End Site\n    {\n     OFFSET 0 -4 -2\n    }\n   }\n  }\n }\n"
        " JOINT RightUpLeg\n {\n  OFFSET -3 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "  JOINT RightLeg\n  {\n   OFFSET 0 0 -15\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "   JOINT RightFoot\n   {\n    OFFSET 0 0 -15\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
        "    End Site\n    {\n     OFFSET 0 -4 -2\n    }\n   }\n  }\n }\n}\n"
        "MOTION\nFrames: 3\nFrame Time: 0.0333333\n";
    char bvh[8192];
    size_t n = (size_t)snprintf(bvh, sizeof bvh, "%s", joints);
    for (int f = 0; f < 3; f++) { /* the root turned -90 degrees about X (rest +Z becomes up), 15 joints still */
        n += (size_t)snprintf(bvh + n, sizeof bvh - n, "0 30 0 -90 0 %d", 5 * f);
        for (int k = 0; k < 45; k++) n += (size_t)snprintf(bvh + n, sizeof bvh - n, " 0");
        n += (size_t)snprintf(bvh + n, sizeof bvh - n, "\n");
    }
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_kp_from_data((const uint8_t *)bvh, n, PM_KP_FORMAT_BVH, NULL, &s, &err), &err);
    for (uint32_t f = 0; s && f < s->frame_count; f++) {
        const float *p = s->points + (size_t)f * 99;
        const float shoulders_y = 0.5f * (p[11 * 3 + 1] + p[12 * 3 + 1]), hips_y = 0.5f * (p[23 * 3 + 1] + p[24 * 3 + 1]);
        const float ankles_y = 0.5f * (p[27 * 3 + 1] + p[28 * 3 + 1]);
        PM_CHECK_MSG(p[0 * 3 + 1] < shoulders_y && shoulders_y < hips_y - 0.05f && hips_y < ankles_y - 0.1f,
                     "frame %u: nose %.3f, shoulders %.3f, hips %.3f, ankles %.3f (image y, down)", f, p[1], shoulders_y, hips_y, ankles_y);
        PM_CHECK(p[11 * 3] > p[12 * 3]); /* the left shoulder on the image's right: the figure faces the camera */
    }
    pm_kp_free(s);
}

int main(void) { return pm_test_run_all(); }
