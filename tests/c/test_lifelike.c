/* Lifelike: settings (defaults, JSON errors naming the field), the layer as a function of time (seeking
 * backwards gives what going forwards gave, blinks within their interval and weight range), and the bake
 * over a real motion: every base key kept, bones the base keys left alone, a loop that closes, blinks at
 * 2-10 s, and the baked keys played equal to the per-frame form. */
#include "fixture_readers.h"
#include "pm_test.h"

#include "procmotion/lifelike.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"

static double quat_angle_deg(pm_quat a, pm_quat b) {
    double na = sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z + (double)a.w * a.w);
    double nb = sqrt((double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z + (double)b.w * b.w);
    double d = fabs((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w) / (na * nb);
    if (d > 1) d = 1;
    return 2.0 * acos(d) * 180.0 / PM_PI;
}

PM_TEST(settings_json_and_errors) {
    pm_error err = {0};
    pm_lifelike_settings s;
    const char *ok = "{\"blinkInterval\": [3, 6], \"eyeContact\": 20, \"seed\": 7, \"breathRate\": null}";
    PM_CHECK_OK(pm_lifelike_settings_from_json(ok, strlen(ok), &s, &err), &err);
    PM_CHECK(s.blink_interval_min.set && s.blink_interval_min.value == 3 && s.blink_interval_max.value == 6);
    PM_CHECK(s.eye_contact.set && s.eye_contact.value == 20 && s.seed == 7 && !s.breath_rate.set);
    char json[1024];
    size_t n = 0;
    PM_CHECK_OK(pm_lifelike_settings_to_json(&s, json, sizeof json, &n, &err), &err);
    PM_CHECK_MSG(strstr(json, "\"blinkInterval\":[3,6]") && strstr(json, "\"breathRate\":0.3") && strstr(json, "\"seed\":7"), "%s", json);
    static const struct {
        const char *json, *message;
    } bad[] = {
        {"{\"eyeContact\": 90}", "lifelike: eyeContact must be a number in [0, 45] (degrees), got 90"},
        {"{\"blinkInterval\": [6, 3]}", "lifelike: blinkInterval must be [min, max] seconds with 0.5 <= min <= max <= 60, got an array of 2"},
        {"{\"blinkInterval\": 4}", "lifelike: blinkInterval must be an array of 2 numbers in [-60, 60], got 4"},
        {"{\"blinks\": 1}", "lifelike: blinks is not a field here (fields: blink, blinkInterval, blinkDuration, breathRate, breathDepth, "
                            "microMoveExtent, microMoveCycle, eyeContact, headTurn, gazeRange, saccades, seed)"},
        {"{\"seed\": 1.5}", "lifelike: seed must be a whole number in [0, 4.29497e+09], got 1.5"},
        {"[1]", "lifelike: the JSON must be an object, got an array of 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = (pm_error){0};
        PM_CHECK_EQ_INT(pm_lifelike_settings_from_json(bad[i].json, strlen(bad[i].json), &s, &err), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_STR(err.message, bad[i].message);
    }
    /* the C struct is checked the same way */
    pm_lifelike_settings c = {0};
    c.micro_move_cycle = PM_AMOUNT(0.2);
    pm_lifelike *l = NULL;
    const char *names[] = {"頭"};
    pm_target_model m = {1, names, NULL, NULL, 0, NULL, NULL};
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_lifelike_create(&m, &c, NULL, &l, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_STR(err.message, "lifelike: microMoveCycle must be a number in [1, 10] (seconds), got 0.2");
    PM_CHECK(l == NULL);
}

PM_TEST(layer_over_time) {
    pm_error err = {0};
    const char *bones[] = {"センター", "上半身", "上半身2", "首", "頭", "両目", "左目", "右目", "左肩", "右肩"};
    const char *morphs[] = {"あ", "まばたき"};
    pm_target_model m = {10, bones, NULL, NULL, 2, morphs, NULL};
    pm_lifelike *l = NULL;
    PM_CHECK_OK(pm_lifelike_create(&m, NULL, NULL, &l, &err), &err);
    if (!l) return;
    pm_lifelike_info info;
    pm_lifelike_get_info(l, &info);
    PM_CHECK_STR(info.blink_morph, "まばたき");
    PM_CHECK_EQ_INT(info.bone[PM_LIFELIKE_EYES], 5);
    PM_CHECK(info.bone[PM_LIFELIKE_LEFT_EYE] == PM_NO_INDEX); /* 両目 carries them */
    PM_CHECK_EQ_INT(info.bone[PM_LIFELIKE_CHEST], 2);
    /* ten minutes forwards, frame by frame: blinks start 2-10 s apart (doubles aside), weights in [0, 1] */
    enum { FRAMES = 18000 };
    static float blink[FRAMES];
    static pm_quat head[FRAMES];
    double last_start = -1, min_gap = 1e9, max_gap = 0, eye_max = 0;
    int starts = 0;
    for (int f = 0; f < FRAMES; f++) {
        pm_lifelike_frame fr;
        pm_lifelike_sample(l, f / 30.0, &fr);
        blink[f] = fr.blink;
        head[f] = fr.rotation[PM_LIFELIKE_HEAD];
        PM_CHECK(fr.blink >= 0 && fr.blink <= 1);
        double eye = quat_angle_deg(fr.rotation[PM_LIFELIKE_EYES], pm_quat_identity());
        if (eye > eye_max) eye_max = eye;
        if (f > 0 && blink[f - 1] == 0 && fr.blink > 0) {
            double t = (f - 1) / 30.0;
            if (last_start >= 0 && t - last_start < 0.6) continue; /* a double blink's second */
            if (last_start >= 0) {
                if (t - last_start < min_gap) min_gap = t - last_start;
                if (t - last_start > max_gap) max_gap = t - last_start;
            }
            last_start = t;
            starts++;
        }
    }
    printf("  %d blinks in 10 min, starts %.2f-%.2f s apart; eyes turn up to %.1f deg\n", starts, min_gap, max_gap, eye_max);
    PM_CHECK(starts > 60 && starts < 330);
    PM_CHECK(min_gap >= 2 - 0.05 && max_gap <= 10 + 0.05);
    PM_CHECK(eye_max > 3 && eye_max <= 12 * 1.42 + 0.01); /* yaw and pitch each within eyeContact */
    /* seeking backwards gives what going forwards gave */
    for (int f = FRAMES - 1; f >= 0; f -= 7) {
        pm_lifelike_frame fr;
        pm_lifelike_sample(l, f / 30.0, &fr);
        PM_CHECK(fr.blink == blink[f]);
        PM_CHECK(quat_angle_deg(fr.rotation[PM_LIFELIKE_HEAD], head[f]) < 1e-4);
    }
    pm_lifelike_free(l);
}

PM_TEST(bake_over_a_real_motion_keeps_it) {
    pm_skeleton *sk = pm_test_read_model("pmx/yw_test_model/yw_test_model.pmx");
    pm_vmd *base = pm_test_read_vmd("vmd/mei_wait.vmd");
    if (!sk || !base) goto out;
    pm_error err = {0};
    pm_target_model m = {0};
    m.skeleton = sk;
    pm_vmd *vmd = NULL;
    pm_lifelike_report rep;
    PM_CHECK_OK(pm_lifelike_bake(base, &m, NULL, NULL, &vmd, &rep, &err), &err);
    if (!vmd) goto out;
    printf("  over mei_wait (%u frames): %u keyed bones; left to the base:", rep.frames, rep.keyed_bones);
    for (uint32_t i = 0; i < rep.skipped_count; i++) printf(" %s", rep.skipped[i]);
    printf("\n");
    PM_CHECK_EQ_INT(rep.frames, 120);
    /* every base key is there, unchanged, and the bones it keys are left to it */
    PM_CHECK_EQ_INT(rep.copied_keys, base->bones.count + base->morphs.count);
    PM_CHECK_EQ_INT(vmd->bones.count, base->bones.count + rep.bone_keys);
    for (uint32_t i = 0; i < base->bones.count; i++) {
        PM_CHECK_STR(vmd->bone_names.items[vmd->bones.name_index[i]].data, base->bone_names.items[base->bones.name_index[i]].data);
        PM_CHECK(vmd->bones.frame[i] == base->bones.frame[i] && memcmp(vmd->bones.rotation + 4 * i, base->bones.rotation + 4 * i, 16) == 0 &&
                 memcmp(vmd->bones.position + 3 * i, base->bones.position + 3 * i, 12) == 0 &&
                 memcmp(vmd->bones.interpolation + 64 * i, base->bones.interpolation + 64 * i, 64) == 0);
    }
    PM_CHECK_EQ_INT(rep.skipped_count, 7); /* mei_wait keys 両目, 頭, 首, 上半身, 上半身2 and the shoulders */
    PM_CHECK_EQ_INT(rep.keyed_bones, 0);
    pm_vmd_free(vmd);
out:
    pm_vmd_free(base);
    pm_skeleton_free(sk);
}

PM_TEST(bake_on_the_mannequin_loops_and_plays_as_the_layer) {
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    if (!sk) return;
    pm_target_model m = {0};
    m.skeleton = sk;
    pm_vmd *vmd = NULL;
    pm_lifelike_report rep;
    pm_lifelike_bake_options o = {0};
    o.frames = 1800;
    PM_CHECK_OK(pm_lifelike_bake(NULL, &m, NULL, &o, &vmd, &rep, &err), &err);
    if (!vmd) goto out;
    printf("  one minute on the mannequin: %u keyed bones, %u bone keys, %u morph keys, %u blinks %.2f-%.2f s apart, fit %.3f deg\n",
           rep.keyed_bones, rep.bone_keys, rep.morph_keys, rep.blinks, rep.min_blink_interval, rep.max_blink_interval,
           rep.max_rotation_error);
    PM_CHECK_EQ_INT(rep.keyed_bones, 7); /* 両目, 頭, 首, 上半身, 上半身2, 左肩, 右肩 */
    PM_CHECK(rep.blinks >= 6 && rep.min_blink_interval >= 2 && rep.max_blink_interval <= 10);
    for (uint32_t i = 0; i < vmd->morphs.count; i++) PM_CHECK(vmd->morphs.weight[i] >= 0 && vmd->morphs.weight[i] <= 1);
    /* played: every frame of the baked keys is the per-frame layer (same period), and the seam closes */
    pm_lifelike_options lo = {0};
    lo.period = 60;
    pm_lifelike *l = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_lifelike_create(&m, NULL, &lo, &l, &err), &err);
    PM_CHECK_OK(pm_anim_bind(sk, vmd, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    pm_lifelike_info info;
    pm_lifelike_get_info(l, &info);
    double worst = 0, seam = 0;
    pm_quat first[PM_LIFELIKE_CHANNEL_COUNT];
    for (uint32_t f = 0; l && anim && ws && pose && f <= o.frames; f++) {
        PM_CHECK_OK(pm_pose_sample(anim, ws, f, pose, &err), &err);
        pm_lifelike_frame fr;
        pm_lifelike_sample(l, f / 30.0, &fr);
        for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
            if (info.bone[c] == PM_NO_INDEX) continue;
            pm_quat q = pose->rotation[info.bone[c]];
            double d = quat_angle_deg(q, fr.rotation[c]);
            if (d > worst) worst = d;
            if (f == 0) first[c] = q;
            if (f == o.frames && quat_angle_deg(q, first[c]) > seam) seam = quat_angle_deg(q, first[c]);
        }
    }
    printf("  baked keys against the per-frame layer: %.4f deg at most; the seam %.5f deg\n", worst, seam);
    PM_CHECK(worst < 0.06);
    PM_CHECK(seam < 1e-3);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_lifelike_free(l);
    pm_vmd_free(vmd);
out:
    pm_skeleton_free(sk);
}

int main(void) { return pm_test_run_all(); }
