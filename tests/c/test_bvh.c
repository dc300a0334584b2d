/* BVH reader and FK: the synthetic sample and the CMU fixture, channel-order semantics, number parsing,
 * hostile inputs (deep nesting, NaN, lying frame counts) and a truncation sweep under ASan. */
#include "pm_test.h"

#include "common/internal.h"
#include "procmotion/bvh.h"

static pm_result parse(const char *text, pm_bvh **out, pm_error *err) {
    return pm_bvh_read((const uint8_t *)text, strlen(text), NULL, out, err);
}

static pm_vec3 world_pos(const pm_bvh *b, uint32_t frame, uint32_t joint) {
    pm_mat4 *w = calloc(b->joint_count, sizeof *w);
    pm_error err = {0};
    pm_bvh_world_matrices(b, frame, w, &err);
    pm_vec3 p = pm_mat4_get_translation(&w[joint]);
    free(w);
    return p;
}

PM_TEST(number_parser_is_locale_free_and_rejects_non_finite) {
    const char *ok[] = {"0", "-1.5", ".0083333", "1e-3", "+2.", "123456789012345678901234", "-0.000000001", "1E+2"};
    const double want[] = {0, -1.5, 0.0083333, 1e-3, 2.0, 1.2345678901234568e23, -1e-9, 100};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double v = -99;
        const char *next = NULL;
        PM_CHECK(pmi_parse_double(ok[i], ok[i] + strlen(ok[i]), &v, &next));
        PM_CHECK_NEAR(v, want[i], fabs(want[i]) * 1e-15);
        PM_CHECK(next == ok[i] + strlen(ok[i]));
    }
    const char *badv[] = {"nan", "inf", "-inf", "NaN", "", "-", ".", "e5", "1e999", "0x10"};
    for (size_t i = 0; i < sizeof badv / sizeof badv[0]; i++) {
        double v;
        const char *next = NULL;
        bool r = pmi_parse_double(badv[i], badv[i] + strlen(badv[i]), &v, &next);
        /* "0x10" parses the leading 0 and stops at x: the caller sees a partial token */
        PM_CHECK_MSG(!r || next != badv[i] + strlen(badv[i]), "'%s' accepted", badv[i]);
    }
    /* a comma is not a decimal point, whatever the locale */
    double v;
    const char *next = NULL;
    const char *comma = "1,5";
    PM_CHECK(pmi_parse_double(comma, comma + 3, &v, &next) && v == 1.0 && next == comma + 1);
}

PM_TEST(sample_bvh_parses_21_joints_66_channels_60_frames) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/sample-wave-squat.bvh", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_bvh_read(data, size, NULL, &b, &err), &err);
    if (b) {
        uint32_t joints = 0, ends = 0;
        for (uint32_t i = 0; i < b->joint_count; i++) b->joints[i].end_site ? ends++ : joints++;
        PM_CHECK_EQ_INT(joints, 21);
        PM_CHECK_EQ_INT(ends, 5);
        PM_CHECK_EQ_INT(b->channel_count, 66);
        PM_CHECK_EQ_INT(b->frame_count, 60);
        PM_CHECK_NEAR(b->frame_time, 1.0 / 30, 1e-7);
        uint32_t toe = pm_bvh_find(b, "LeftToe"), head_end = pm_bvh_find(b, "Head_End");
        PM_CHECK(toe != PM_NO_INDEX && head_end != PM_NO_INDEX);
        PM_CHECK(b->joints[head_end].end_site);
        PM_CHECK_EQ_INT(b->joints[head_end].parent, pm_bvh_find(b, "Head"));
        /* frame 0 is the rest pose raised to y = 95 */
        pm_vec3 t = world_pos(b, 0, toe);
        PM_CHECK_NEAR(t.x, 9, 1e-4);
        PM_CHECK_NEAR(t.y, 95 - 5 - 42 - 40 - 7, 1e-3);
        PM_CHECK_NEAR(t.z, 13, 1e-4);
        pm_vec3 h = world_pos(b, 0, head_end);
        PM_CHECK_NEAR(h.y, 95 + 10 + 15 + 20 + 10 + 15, 1e-3);
        /* frame 30 is the bottom of the squat: hips 28 lower, knees ahead of hips and ankles */
        uint32_t hips = pm_bvh_find(b, "Hips"), knee = pm_bvh_find(b, "LeftKnee"), hip = pm_bvh_find(b, "LeftHip"),
                 ankle = pm_bvh_find(b, "LeftAnkle");
        PM_CHECK_NEAR(world_pos(b, 30, hips).y, 95 - 28, 1e-3);
        pm_vec3 k = world_pos(b, 30, knee), hp = world_pos(b, 30, hip), an = world_pos(b, 30, ankle);
        PM_CHECK(k.z > hp.z + 10 && k.z > an.z + 10);
        pm_bvh_free(b);
    }
    free(data);
}

PM_TEST(rotation_channels_compose_in_file_order) {
    /* Zrotation Xrotation Yrotation with Z = 90, X = 90: R = Rz(90) Rx(90); the child's offset (0,1,0)
     * goes to Rx -> (0,0,1), then Rz leaves it at (0,0,1). The reverse order would give (-1,0,0). */
    const char *text = "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
                       " JOINT B\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                       "  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n"
                       "90 90 0 0 0 0\n0 0 0 0 0 0\n";
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_OK(parse(text, &b, &err), &err);
    if (!b) return;
    pm_vec3 p = world_pos(b, 0, 1);
    PM_CHECK_NEAR(p.x, 0, 1e-6);
    PM_CHECK_NEAR(p.y, 0, 1e-6);
    PM_CHECK_NEAR(p.z, 1, 1e-6);
    pm_mat4 w[3];
    PM_CHECK_OK(pm_bvh_sample(b, 0.25, w, &err), &err); /* halfway: slerp of both rotations */
    pm_vec3 e = pm_mat4_get_translation(&w[2]);
    PM_CHECK(isfinite(e.x) && isfinite(e.y) && isfinite(e.z));
    PM_CHECK(pm_bvh_sample(b, NAN, w, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_bvh_world_matrices(b, 2, w, &err) == PM_ERR_INVALID_ARGUMENT);
    pm_bvh_free(b);
    const char *z90 = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\n"
                      "MOTION\nFrames:1\nFrame Time:1\n90\n";
    PM_CHECK_OK(parse(z90, &b, &err), &err);
    if (b) {
        pm_vec3 q = world_pos(b, 0, 1);
        PM_CHECK_NEAR(q.x, -1, 1e-6);
        PM_CHECK_NEAR(q.y, 0, 1e-6);
        pm_bvh_free(b);
    }
}

PM_TEST(position_channels_in_any_order_add_to_the_offset) {
    const char *text = "HIERARCHY\nROOT R\n{\n OFFSET 1 2 3\n CHANNELS 6 Yrotation Zposition Xposition Xrotation Yposition Zrotation\n"
                       " End Site\n {\n  OFFSET 0 0 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: .0083333\n0 30 10 0 20 0\n";
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_OK(parse(text, &b, &err), &err);
    if (!b) return;
    pm_vec3 p = world_pos(b, 0, 0);
    PM_CHECK_NEAR(p.x, 11, 1e-6);
    PM_CHECK_NEAR(p.y, 22, 1e-6);
    PM_CHECK_NEAR(p.z, 33, 1e-6);
    PM_CHECK_NEAR(b->frame_time, 0.0083333, 1e-12);
    pm_bvh_free(b);
}

PM_TEST(cmu_fixture_reads_and_evaluates_without_nan) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_bvh_read(data, size, NULL, &b, &err), &err);
    if (b) {
        uint32_t joints = 0;
        for (uint32_t i = 0; i < b->joint_count; i++) joints += !b->joints[i].end_site;
        PM_CHECK_EQ_INT(joints, 31);
        PM_CHECK_EQ_INT(b->frame_count, 994);
        PM_CHECK_NEAR(1.0 / b->frame_time, 120, 0.01);
        pm_mat4 *w = calloc(b->joint_count, sizeof *w);
        size_t bad = 0;
        for (uint32_t f = 0; f < b->frame_count; f++) {
            pm_bvh_world_matrices(b, f, w, &err);
            for (uint32_t j = 0; j < b->joint_count; j++)
                for (int k = 0; k < 16; k++) bad += !isfinite(w[j].m[k]);
        }
        PM_CHECK_EQ_INT(bad, 0);
        /* the CMU figure faces +Z with its left on +X */
        pm_bvh_world_matrices(b, 0, w, &err);
        PM_CHECK(pm_mat4_get_translation(&w[pm_bvh_find(b, "LeftHip")]).x >
                 pm_mat4_get_translation(&w[pm_bvh_find(b, "RightHip")]).x);
        free(w);
        pm_bvh_free(b);
    }
    free(data);
}

PM_TEST(deep_nesting_fails_cleanly_without_recursion) {
    const int depth = 100000;
    size_t cap = (size_t)depth * 40 + 256;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n");
    for (int i = 0; i < depth; i++) p += sprintf(p, "JOINT j%d\n{\nOFFSET 0 1 0\n", i);
    for (int i = 0; i <= depth; i++) p += sprintf(p, "}\n");
    p += sprintf(p, "MOTION\nFrames: 0\nFrame Time: 1\n");
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_bvh_read((const uint8_t *)text, (size_t)(p - text), NULL, &b, &err), PM_ERR_LIMIT);
    PM_CHECK(b == NULL);
    PM_CHECK(strstr(err.message, "deeper") != NULL);
    /* with the limit raised the same file is read (joints are a flat list, FK is a loop) */
    pm_bvh_read_options o = {.max_depth = depth + 1, .max_joints = depth + 2};
    PM_CHECK_OK(pm_bvh_read((const uint8_t *)text, (size_t)(p - text), &o, &b, &err), &err);
    if (b) {
        pm_vec3 tip = world_pos(b, 0, b->joint_count - 1);
        PM_CHECK_NEAR(tip.y, depth, 1e-3 * depth);
        pm_bvh_free(b);
    }
    free(text);
}

PM_TEST(hostile_values_and_counts_fail_with_clear_errors) {
    static const struct {
        const char *text;
        pm_result want;
        const char *msg;
    } cases[] = {
        {"HIERARCHY\nROOT a\n{\nOFFSET nan 0 0\n}\nMOTION\nFrames: 0\nFrame Time: 1\n", PM_ERR_BAD_FORMAT, "finite"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\ninf\n",
         PM_ERR_BAD_FORMAT, "finite"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\n1e39\n",
         PM_ERR_BAD_FORMAT, "float range"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 9000000\nFrame Time: 1\n0\n",
         PM_ERR_TRUNCATED, "announced"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\n0 0\n",
         PM_ERR_BAD_FORMAT, "channel name"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\n0 0\n",
         PM_ERR_BAD_FORMAT, "repeated"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 7 Xrotation\n}\n", PM_ERR_BAD_FORMAT, "0..6"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 2\nFrame Time: 1\n0\n",
         PM_ERR_TRUNCATED, "frame 2 of 2"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 1\nFrame Time: 0\n", PM_ERR_BAD_FORMAT, "not positive"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n}\nROOT b\n{\n}\nMOTION\n", PM_ERR_BAD_FORMAT, "second ROOT"},
        {"HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nMOTION\n", PM_ERR_BAD_FORMAT, "missing '}'"},
        {"HIERARCHY\nROOT a\n{\nEnd Site\n{\nCHANNELS 1 Xrotation\n}\n}\nMOTION\n", PM_ERR_BAD_FORMAT, "End Site"},
        {"HIERARCHY\nJOINT a\n{\n}\n", PM_ERR_BAD_FORMAT, "outside ROOT"},
        {"Vocaloid Motion Data 0002", PM_ERR_BAD_FORMAT, "not a BVH"},
        {"", PM_ERR_TRUNCATED, "empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pm_bvh *b = NULL;
        pm_error err = {0};
        pm_result r = parse(cases[i].text, &b, &err);
        PM_CHECK_MSG(r == cases[i].want, "case %zu: got %s (%s)", i, pm_result_name(r), err.message);
        PM_CHECK_MSG(strstr(err.message, cases[i].msg) != NULL, "case %zu: message '%s' lacks '%s'", i, err.message,
                     cases[i].msg);
        PM_CHECK(b == NULL);
        pm_bvh_free(b);
    }
}

PM_TEST(truncation_sweep_never_reads_past_the_end) {
    size_t size = 0;
    unsigned char *full = pm_test_read_file("data/sample-wave-squat.bvh", &size);
    PM_CHECK(full != NULL);
    if (!full) return;
    /* keep the hierarchy and two frames so the sweep stays short */
    char *motion = strstr((char *)full, "Frames: 60");
    PM_CHECK(motion != NULL);
    if (!motion) return;
    memcpy(motion, "Frames:  2", 10);
    char *rows = strstr(motion, "Frame Time:");
    rows = strchr(rows, '\n') + 1;
    char *end = strchr(strchr(rows, '\n') + 1, '\n') + 1;
    size_t n = (size_t)(end - (char *)full);
    unsigned char *buf = malloc(n);
    memcpy(buf, full, n);
    size_t row2 = (size_t)(strchr(rows, '\n') + 1 - (char *)full);
    size_t ok = 0;
    for (size_t cut = 0; cut <= n; cut++) {
        pm_test_cut(buf, n, cut);
        pm_bvh *b = NULL;
        pm_error err = {0};
        pm_result r = pm_bvh_read(buf, cut, NULL, &b, &err);
        if (r == PM_OK) ok++;
        else PM_CHECK(err.message[0] != '\0');
        if (cut < row2) PM_CHECK_MSG(r != PM_OK, "cut at %zu accepted", cut);
        pm_bvh_free(b);
    }
    pm_test_uncut(buf, n);
    PM_CHECK(ok >= 1);
    free(buf);
    free(full);
}

int main(void) { return pm_test_run_all(); }
