/* Idle: parameters (defaults, JSON errors naming the field), the loop on every model of the iteration
 * (landed, the seam closed, hands clear of the body, finite keys), events on the beats, names only, and
 * transitions into and out of the catwalk on the mannequin. */
#include "every_model.h"
#include "pm_test.h"

#include "procmotion/catwalk.h"
#include "procmotion/idle.h"
#include "procmotion/mannequin.h"
#include "procmotion/transition.h"

PM_TEST(params_json_and_errors) {
    pm_error err = {0};
    pm_idle_params p;
    const char *ok = "{\"bpm\": 96, \"bodySway\": 0.8, \"seed\": 9, \"speed\": null}";
    PM_CHECK_OK(pm_idle_params_from_json(ok, strlen(ok), &p, &err), &err);
    PM_CHECK(p.bpm == 96 && p.body_sway.set && p.body_sway.value == 0.8f && p.seed == 9 && !p.speed.set);
    static const struct {
        const char *json, *message;
    } bad[] = {
        {"{\"bodySway\": 2}", "idle: bodySway must be a number in [0, 1], got 2"},
        {"{\"duration\": 10}", "idle: duration must be a number in [30, 300] (seconds), got 10"},
        {"{\"bpm\": 500}", "idle: bpm must be null, 0 or a number in [40, 240], got 500"},
        {"{\"sway\": 1}", "idle: sway is not a field here (fields: bpm, intensity, speed, bodySway, headMovement, gestureFrequency, "
                          "duration, blink, seed, positionTolerance, rotationTolerance)"},
        {"[]", "idle: the JSON must be an object, got an array of 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = (pm_error){0};
        PM_CHECK_EQ_INT(pm_idle_params_from_json(bad[i].json, strlen(bad[i].json), &p, &err), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_STR(err.message, bad[i].message);
    }
    pm_idle_params c = {0};
    c.intensity = PM_AMOUNT(NAN);
    pm_vmd *v = NULL;
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_idle_generate(&c, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_STR(err.message, "idle: intensity must be a number in [0, 1], got nan");
    PM_CHECK(v == NULL);
}

PM_TEST(on_every_model) {
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    double worst_error = 0, worst_seam = 0, least_clearance = 1e9;
    for (size_t i = 0; i < n; i++) {
        pm_error err = {0};
        pm_target_model m = {0};
        m.skeleton = all[i].skeleton;
        pm_vmd *v = NULL;
        pm_idle_info info;
        pm_idle_params p = {0};
        p.bpm = 128;
        p.gesture_frequency = PM_AMOUNT(1);
        PM_CHECK_OK(pm_idle_generate(&p, &m, &v, &info, &err), &err);
        if (!v) continue;
        PM_CHECK_MSG(info.verified && info.report.landed, "%s: landed", all[i].id);
        for (uint32_t k = 0; k < v->bones.count; k++)
            for (int c = 0; c < 4; c++) PM_CHECK(isfinite(v->bones.rotation[4 * k + c]));
        if (info.report.max_error > worst_error) worst_error = info.report.max_error;
        if (info.body.loop_gap > worst_seam) worst_seam = info.body.loop_gap;
        for (int s = 0; s < 2; s++)
            if (info.body.hand_clearance[s] < least_clearance) least_clearance = info.body.hand_clearance[s];
        PM_CHECK_MSG(info.body.hand_clearance[0] > 0 && info.body.hand_clearance[1] > 0, "%s: hands %g %g", all[i].id,
                     info.body.hand_clearance[0], info.body.hand_clearance[1]);
        PM_CHECK_MSG(info.body.loop_gap < 1e-3, "%s: the seam %g", all[i].id, info.body.loop_gap);
        pm_vmd_free(v);
    }
    printf("  %zu models: ankles within %.4f of the plan, seam %.1e, hands at least %.3f clear\n", n, worst_error, worst_seam,
           least_clearance);
    pm_zoo_entries_free(all, n);
}

PM_TEST(events_on_beats_and_names_only) {
    pm_error err = {0};
    pm_idle_params p = {0};
    p.bpm = 100;
    p.gesture_frequency = PM_AMOUNT(1);
    pm_vmd *v = NULL;
    pm_idle_info info;
    PM_CHECK_OK(pm_idle_generate(&p, NULL, &v, &info, &err), &err);
    PM_CHECK(info.unit_frames == 18 && info.loop_frames % 72 == 0 && info.on_mannequin);
    int gestures = 0;
    for (uint32_t i = 0; i < info.event_count; i++) {
        PM_CHECK_MSG(info.events[i].start % 18 == 0, "%s at %u", pm_idle_event_name(info.events[i].kind), info.events[i].start);
        gestures += info.events[i].kind != PM_IDLE_SHIFT;
    }
    PM_CHECK(gestures >= 3);
    pm_vmd_free(v);
    /* names only: the leg IK bones keyed on the plan, nothing measured */
    const char *names[] = {"センター", "下半身", "上半身", "首", "頭", "左腕", "右腕", "左ひじ", "右ひじ", "左足ＩＫ", "右足ＩＫ"};
    pm_target_model m = {11, names, NULL, NULL, 0, NULL, NULL};
    PM_CHECK_OK(pm_idle_generate(NULL, &m, &v, &info, &err), &err);
    PM_CHECK(!info.verified && info.used_count == 11);
    PM_CHECK(info.missing_count > 0);
    pm_vmd_free(v);
}

PM_TEST(transitions_on_the_mannequin) {
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    pm_vmd *idle = NULL, *walk = NULL;
    pm_idle_info ii;
    pm_catwalk_info ci;
    PM_CHECK_OK(pm_idle_generate(NULL, NULL, &idle, &ii, &err), &err);
    PM_CHECK_OK(pm_catwalk_generate(NULL, NULL, &walk, &ci, &err), &err);
    for (int dir = 0; dir < 2 && sk && idle && walk; dir++) {
        pm_transition_options o = {0};
        o.from_frame = dir ? 57 : 400;
        o.to_loop_frames = dir ? ii.loop_frames : ci.loop_frames;
        pm_vmd *t = NULL;
        pm_transition_report rep;
        PM_CHECK_OK(pm_transition_bake(dir ? walk : idle, dir ? idle : walk, sk, &o, &t, &rep, &err), &err);
        printf("  %s: %u steps, ankles within %.4f of the plan, planted slide %.4f\n", dir ? "catwalk -> idle" : "idle -> catwalk",
               rep.steps, rep.landing.max_error, rep.landing.max_slide);
        PM_CHECK(rep.verified && rep.frames == 30 && rep.steps == 2);
        PM_CHECK(rep.landing.max_error < 0.01 && rep.landing.max_slide < 0.003 && rep.landing.penetration < 0.005);
        pm_vmd_free(t);
    }
    pm_transition_options bad = {0};
    bad.frames = 500;
    pm_vmd *t = NULL;
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_transition_bake(idle, walk, sk, &bad, &t, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_STR(err.message, "transition: frames must be in [4, 300], got 500");
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_transition_bake(NULL, walk, sk, NULL, &t, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    pm_vmd_free(idle);
    pm_vmd_free(walk);
    pm_skeleton_free(sk);
}

int main(void) { return pm_test_run_all(); }
