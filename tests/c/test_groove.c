/* Groove: waves at exact beat points, the default phases (rising up the spine, left/right half a cycle
 * apart), settings merged over the defaults and reset, JSON errors naming the field, the runtime layer
 * (post-multiplied offsets, feet on their anchors checked with the pose evaluator, yielding to user leg
 * IK), preview stepping without drift, extreme settings, and the VMD bake (MMD IK path and analytic
 * path; keys, deviation, feet, low points on the beat). */
#include "fixture_readers.h"
#include "pm_test.h"

#include "procmotion/groove.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"

#include <float.h>

static double quat_angle_deg(pm_quat a, pm_quat b) {
    double d = fabs((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w);
    if (d > 1) d = 1;
    return 2.0 * acos(d) * 180.0 / PM_PI;
}

static pm_skeleton *mannequin(void) {
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    return sk;
}

/* The mannequin with its IK bones turned into plain bones: legs for the analytic path. */
static pm_skeleton *mannequin_without_ik(void) {
    pm_skeleton *sk = mannequin();
    for (uint32_t b = 0; sk && b < sk->bone_count; b++) {
        sk->bones[b].has_ik = false;
        sk->bones[b].flags &= ~(uint32_t)PM_BONE_IK;
    }
    return sk;
}

static pm_groove_params defaults(void) {
    pm_groove_params p;
    pm_groove_defaults(&p);
    return p;
}

/* ---- waves and the clock ------------------------------------------------------------------------ */

PM_TEST(wave_values_at_exact_beat_points) {
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_BOUNCE, 0) == 0);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_BOUNCE, 0.5) == 1);
    PM_CHECK_NEAR(pm_groove_wave_value(PM_GROOVE_BOUNCE, 0.25), 0.5, 1e-15);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_BOUNCE, 3) == 0);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_BOUNCE, -2) == 0);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_SINE, 0) == 0);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_SINE, 0.25) == 1);
    PM_CHECK_NEAR(pm_groove_wave_value(PM_GROOVE_SINE, 0.75), -1, 1e-15);
    PM_CHECK_NEAR(pm_groove_wave_value(PM_GROOVE_SINE, 0.5), 0, 1e-15);
    PM_CHECK(pm_groove_wave_value(PM_GROOVE_SINE, NAN) == 0);
    /* the bounce wave's valley is on the beat and it never leaves [0, 1]; the sine stays in [-1, 1] */
    for (int i = 0; i <= 1000; i++) {
        double p = i / 250.0 - 2;
        double b = pm_groove_wave_value(PM_GROOVE_BOUNCE, p), s = pm_groove_wave_value(PM_GROOVE_SINE, p);
        PM_CHECK(b >= 0 && b <= 1 && s >= -1 && s <= 1);
    }
    /* on the beat times of several tempos the pelvis (bounce, phase 0) is at its valley, the squat's
     * body at its low point; half a beat later both are at the top */
    const pm_groove_params P = defaults();
    const double tempos[] = {60, 97, 120, 128, 174, 200};
    for (size_t t = 0; t < sizeof tempos / sizeof tempos[0]; t++)
        for (int k = 0; k < 64; k++) {
            double beat_time = k * 60.0 / tempos[t];
            double beat = pm_groove_beat(beat_time, tempos[t]);
            PM_CHECK_MSG(fabs(pm_groove_joint_angle(&P.joints[PM_GROOVE_PELVIS], beat)) < 1e-9,
                         "pelvis at beat %d of %g bpm: %g", k, tempos[t], pm_groove_joint_angle(&P.joints[0], beat));
            PM_CHECK_NEAR(pm_groove_body_offset(&P.squat, beat).y, -3.0 / 8, 1e-7);
            PM_CHECK_NEAR(pm_groove_body_offset(&P.squat, beat).x, 0, 1e-7);
            double half = pm_groove_beat(beat_time + 30.0 / tempos[t], tempos[t]);
            PM_CHECK_NEAR(pm_groove_joint_angle(&P.joints[PM_GROOVE_PELVIS], half), P.joints[0].amp, 1e-9);
            PM_CHECK_NEAR(pm_groove_body_offset(&P.squat, half).y, 0, 1e-7);
            /* a quarter beat: the lateral sine at its peak (+X, the model's left) */
            double quarter = pm_groove_beat(beat_time + 15.0 / tempos[t], tempos[t]);
            PM_CHECK_NEAR(pm_groove_body_offset(&P.squat, quarter).x, 1.5 / 8, 1e-7);
        }
    /* a sine joint peaks a quarter cycle after its phase delay */
    pm_groove_joint j = {PM_GROOVE_AXIS_Z, PM_GROOVE_SINE, 10, 0.5, 0.1};
    PM_CHECK_NEAR(pm_groove_joint_angle(&j, (0.25 + 0.1) / 0.5), 10, 1e-12);
    PM_CHECK_NEAR(pm_groove_joint_angle(&j, 0.1 / 0.5), 0, 1e-12);
    /* the offset quaternion turns by that angle about the joint's axis */
    pm_quat q = pm_groove_joint_offset(&j, (0.25 + 0.1) / 0.5);
    PM_CHECK_NEAR(q.z, sin(5 * PM_PI / 180), 1e-7);
    PM_CHECK(q.x == 0 && q.y == 0);
    /* vertical sine: low point at p = 0.75, body between -vertical and 0 */
    pm_groove_squat s = P.squat;
    s.wave = PM_GROOVE_SINE;
    PM_CHECK_NEAR(pm_groove_body_offset(&s, 0.75).y, -3.0 / 8, 1e-7);
    PM_CHECK_NEAR(pm_groove_body_offset(&s, 0.25).y, 0, 1e-7);
    s.enabled = false;
    PM_CHECK(pm_groove_body_offset(&s, 0.3).y == 0);
}

PM_TEST(phase_rises_up_the_spine_and_the_wave_travels_upward) {
    const pm_groove_params P = defaults();
    const uint32_t chain[] = {PM_GROOVE_PELVIS, PM_GROOVE_SPINE, PM_GROOVE_CHEST, PM_GROOVE_UPPER_CHEST, PM_GROOVE_NECK,
                              PM_GROOVE_HEAD};
    PM_CHECK(P.joints[PM_GROOVE_PELVIS].phase == 0);
    PM_CHECK_NEAR(P.joints[PM_GROOVE_SPINE].phase, 0.03, 1e-12);
    PM_CHECK_NEAR(P.joints[PM_GROOVE_CHEST].phase, 0.06, 1e-12);
    PM_CHECK_NEAR(P.joints[PM_GROOVE_HEAD].phase, 0.15, 1e-12);
    for (size_t i = 1; i < sizeof chain / sizeof chain[0]; i++)
        PM_CHECK_MSG(P.joints[chain[i]].phase > P.joints[chain[i - 1]].phase, "%s phase %g <= %s phase %g",
                     pm_groove_joint_name(chain[i]), P.joints[chain[i]].phase, pm_groove_joint_name(chain[i - 1]),
                     P.joints[chain[i - 1]].phase);
    /* the bounce joints' valleys come later going up: find each one's first valley after beat 0 */
    double prev = -1;
    for (size_t i = 0; i < 4; i++) {
        const pm_groove_joint *j = &P.joints[chain[i]];
        PM_CHECK(j->wave == PM_GROOVE_BOUNCE);
        double best = 1e9, at = 0;
        for (int k = 0; k <= 4000; k++) {
            double beat = k / 4000.0;
            double a = fabs(pm_groove_joint_angle(j, beat));
            if (a < best) best = a, at = beat;
        }
        PM_CHECK_NEAR(at, j->phase / j->freq, 1e-3);
        PM_CHECK(at > prev);
        prev = at;
    }
    /* shoulders, neck and head sway with sine; pelvis and spine bounce */
    PM_CHECK(P.joints[PM_GROOVE_NECK].wave == PM_GROOVE_SINE && P.joints[PM_GROOVE_HEAD].wave == PM_GROOVE_SINE);
    PM_CHECK(P.joints[PM_GROOVE_LEFT_SHOULDER].wave == PM_GROOVE_SINE);
    PM_CHECK(P.joints[PM_GROOVE_PELVIS].wave == PM_GROOVE_BOUNCE && P.joints[PM_GROOVE_SPINE].wave == PM_GROOVE_BOUNCE);
}

PM_TEST(left_and_right_limbs_are_half_a_cycle_apart) {
    const pm_groove_params P = defaults();
    const uint32_t pairs[][2] = {{PM_GROOVE_LEFT_SHOULDER, PM_GROOVE_RIGHT_SHOULDER},
                                 {PM_GROOVE_LEFT_ARM, PM_GROOVE_RIGHT_ARM},
                                 {PM_GROOVE_LEFT_ELBOW, PM_GROOVE_RIGHT_ELBOW}};
    for (size_t i = 0; i < 3; i++) {
        const pm_groove_joint *l = &P.joints[pairs[i][0]], *r = &P.joints[pairs[i][1]];
        PM_CHECK_NEAR(r->phase - l->phase, 0.5, 1e-12);
        PM_CHECK(l->freq == r->freq && l->axis == r->axis && l->wave == r->wave);
        PM_CHECK(fabs(l->amp) == fabs(r->amp));
        /* the right joint at t + half a cycle does what the left one did at t (up to the mirrored sign) */
        for (int k = 0; k < 200; k++) {
            double beat = k * 0.037;
            double a = pm_groove_joint_angle(l, beat), b = pm_groove_joint_angle(r, beat + 0.5 / l->freq);
            PM_CHECK_NEAR(b, a * (r->amp / l->amp), 1e-9);
        }
        /* and at the same time they are opposite (sine) or at opposite ends (bounce) */
        double a = pm_groove_joint_angle(l, 0.3) / l->amp, b = pm_groove_joint_angle(r, 0.3) / r->amp;
        if (l->wave == PM_GROOVE_SINE) PM_CHECK_NEAR(a, -b, 1e-9);
        else PM_CHECK_NEAR(a, 1 - b, 1e-9);
    }
}

/* ---- settings ------------------------------------------------------------------------------------ */

static void changed_json(const pm_groove_config *cfg, char *buf, size_t cap) {
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_groove_config_to_json(cfg, PM_GROOVE_JSON_CHANGED, buf, cap, &n, &err), &err);
}

static pm_result parse(pm_groove_config *cfg, const char *json, pm_error *err) {
    return pm_groove_config_parse(json, strlen(json), cfg, err);
}

PM_TEST(settings_keep_only_changed_fields_merged_over_the_defaults) {
    pm_groove_config cfg;
    memset(&cfg, 0, sizeof cfg);
    pm_error err = {0};
    char buf[4096];
    changed_json(&cfg, buf, sizeof buf);
    PM_CHECK_STR(buf, "{}");
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"head\":{\"amp\":5}}}", &err), &err);
    PM_CHECK_EQ_INT(cfg.joint_set[PM_GROOVE_HEAD], PM_GROOVE_FIELD_AMP);
    pm_groove_params p;
    PM_CHECK_OK(pm_groove_config_resolve(&cfg, &p, &err), &err);
    const pm_groove_params D = defaults();
    PM_CHECK(p.joints[PM_GROOVE_HEAD].amp == 5);
    PM_CHECK(p.joints[PM_GROOVE_HEAD].freq == D.joints[PM_GROOVE_HEAD].freq);
    PM_CHECK(p.joints[PM_GROOVE_HEAD].phase == D.joints[PM_GROOVE_HEAD].phase);
    PM_CHECK(p.joints[PM_GROOVE_NECK].amp == D.joints[PM_GROOVE_NECK].amp);
    changed_json(&cfg, buf, sizeof buf);
    PM_CHECK_STR(buf, "{\"joints\":{\"head\":{\"amp\":5}}}");
    /* later changes merge with earlier ones */
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"head\":{\"axis\":\"y\"},\"leftArm\":{\"wave\":\"bounce\",\"phase\":0.25}},"
                            "\"squat\":{\"vertical\":4.5,\"wave\":\"sine\",\"enabled\":false}}",
                      &err),
                &err);
    changed_json(&cfg, buf, sizeof buf);
    PM_CHECK_STR(buf, "{\"joints\":{\"head\":{\"axis\":\"y\",\"amp\":5},\"leftArm\":{\"phase\":0.25,\"wave\":\"bounce\"}},"
                      "\"squat\":{\"enabled\":false,\"vertical\":4.5,\"wave\":\"sine\"}}");
    /* a field set back to its default is no longer a change */
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"head\":{\"amp\":3}}}", &err), &err);
    PM_CHECK_EQ_INT(cfg.joint_set[PM_GROOVE_HEAD], PM_GROOVE_FIELD_AXIS);
    /* reset one joint (null), the squat, everything */
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"head\":null}}", &err), &err);
    PM_CHECK_EQ_INT(cfg.joint_set[PM_GROOVE_HEAD], 0);
    PM_CHECK(cfg.joint_set[PM_GROOVE_LEFT_ARM] != 0);
    PM_CHECK_OK(parse(&cfg, "{\"reset\":[\"squat\"]}", &err), &err);
    PM_CHECK_EQ_INT(cfg.squat_set, 0);
    PM_CHECK(cfg.joint_set[PM_GROOVE_LEFT_ARM] != 0);
    PM_CHECK_OK(parse(&cfg, "{\"reset\":\"all\",\"joints\":{\"neck\":{\"freq\":2}}}", &err), &err);
    changed_json(&cfg, buf, sizeof buf);
    PM_CHECK_STR(buf, "{\"joints\":{\"neck\":{\"freq\":2}}}");
    pm_groove_config_reset_joint(&cfg, PM_GROOVE_NECK);
    changed_json(&cfg, buf, sizeof buf);
    PM_CHECK_STR(buf, "{}");
    /* the merged config has every field of every joint; read back it changes nothing */
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"spine\":{\"amp\":-7.5}}}", &err), &err);
    size_t n = 0;
    PM_CHECK_OK(pm_groove_config_to_json(&cfg, 0, NULL, 0, &n, &err), &err);
    char *full = malloc(n + 1);
    PM_CHECK_OK(pm_groove_config_to_json(&cfg, 0, full, n + 1, &n, &err), &err);
    PM_CHECK(strstr(full, "\"upperChest\":{\"axis\":\"x\",\"amp\":1,\"freq\":1,\"phase\":0.09,\"wave\":\"bounce\"}") != NULL);
    PM_CHECK(strstr(full, "\"spine\":{\"axis\":\"x\",\"amp\":-7.5,") != NULL);
    PM_CHECK(strstr(full, "\"squat\":{\"enabled\":true,\"vertical\":3,\"lateral\":1.5,\"freq\":1,\"phase\":0,\"wave\":"
                          "\"bounce\"}") != NULL);
    pm_groove_config again;
    memset(&again, 0, sizeof again);
    PM_CHECK_OK(pm_groove_config_parse(full, n, &again, &err), &err);
    changed_json(&again, buf, sizeof buf);
    PM_CHECK_STR(buf, "{\"joints\":{\"spine\":{\"amp\":-7.5}}}");
    PM_CHECK_EQ_INT(pm_groove_config_to_json(&cfg, 0, full, n, &n, &err), PM_ERR_INVALID_ARGUMENT); /* no room for NUL */
    free(full);
    /* names */
    PM_CHECK_EQ_INT(pm_groove_joint_find("rightElbow"), PM_GROOVE_RIGHT_ELBOW);
    PM_CHECK_EQ_INT(pm_groove_joint_find("elbow"), PM_NO_INDEX);
    PM_CHECK_STR(pm_groove_joint_bone(PM_GROOVE_UPPER_CHEST), "上半身3");
    PM_CHECK(pm_groove_joint_name(PM_GROOVE_JOINT_COUNT) == NULL);
}

PM_TEST(bad_settings_fail_naming_the_joint_field_or_value_and_change_nothing) {
    static const struct {
        const char *json, *needle;
    } cases[] = {
        {"{\"joints\":{\"hed\":{\"amp\":1}}}", "unknown joint \"hed\""},
        {"{\"joints\":{\"head\":{\"ampp\":1}}}", "joints.head.ampp"},
        {"{\"joints\":{\"head\":{\"amp\":500}}}", "joints.head.amp must be a number in [-180, 180] (degrees), got 500"},
        {"{\"joints\":{\"head\":{\"amp\":1e999}}}", "joints.head.amp"},
        {"{\"joints\":{\"head\":{\"amp\":\"5\"}}}", "joints.head.amp"},
        {"{\"joints\":{\"head\":{\"amp\":null}}}", "got null"},
        {"{\"joints\":{\"neck\":{\"freq\":-1}}}", "joints.neck.freq"},
        {"{\"joints\":{\"neck\":{\"freq\":17}}}", "joints.neck.freq"},
        {"{\"joints\":{\"neck\":{\"phase\":1.5}}}", "joints.neck.phase"},
        {"{\"joints\":{\"neck\":{\"axis\":\"w\"}}}", "joints.neck.axis must be \"x\", \"y\" or \"z\", got \"w\""},
        {"{\"joints\":{\"neck\":{\"wave\":\"square\"}}}", "joints.neck.wave"},
        {"{\"joints\":{\"neck\":5}}", "joints.neck must be an object or null"},
        {"{\"joints\":[1]}", "joints must be an object"},
        {"{\"squat\":{\"vertical\":-1}}", "squat.vertical"},
        {"{\"squat\":{\"lateral\":101}}", "squat.lateral"},
        {"{\"squat\":{\"enabled\":1}}", "squat.enabled"},
        {"{\"squat\":{\"bounce\":1}}", "squat.bounce is not a field here (fields: "},
        {"{\"squat\":7}", "squat must be an object"},
        {"{\"tempo\":120}", "unknown setting \"tempo\""},
        {"{\"reset\":\"hed\"}", "unknown joint \"hed\""},
        {"{\"reset\":3}", "reset must be"},
        {"[1,2]", "must be a JSON object"},
        {"{\"joints\":{\"head\":{\"amp\":5}", "not valid JSON"},
        {"", "not valid JSON"},
    };
    pm_groove_config cfg;
    memset(&cfg, 0, sizeof cfg);
    pm_error err = {0};
    PM_CHECK_OK(parse(&cfg, "{\"joints\":{\"head\":{\"amp\":5}}}", &err), &err);
    const pm_groove_config before = cfg;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pm_error e = {0};
        PM_CHECK_EQ_INT(parse(&cfg, cases[i].json, &e), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_MSG(strstr(e.message, cases[i].needle) != NULL, "%s: \"%s\" lacks \"%s\"", cases[i].json, e.message,
                     cases[i].needle);
        PM_CHECK(memcmp(&cfg, &before, sizeof cfg) == 0);
    }
    /* the same checks on a config built in C: NaN, Inf, out of range, bad enums */
    pm_groove_config c;
    pm_groove_params p;
    memset(&c, 0, sizeof c);
    c.joint_set[PM_GROOVE_NECK] = PM_GROOVE_FIELD_FREQ;
    c.joints[PM_GROOVE_NECK].freq = NAN;
    pm_groove *g = NULL;
    pm_skeleton *sk = mannequin();
    PM_CHECK_EQ_INT(pm_groove_create(sk, &c, NULL, &g, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "joints.neck.freq") && strstr(err.message, "nan"));
    PM_CHECK(g == NULL);
    c.joints[PM_GROOVE_NECK].freq = INFINITY;
    PM_CHECK_EQ_INT(pm_groove_config_resolve(&c, &p, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "joints.neck.freq") != NULL);
    memset(&c, 0, sizeof c);
    c.squat_set = PM_GROOVE_FIELD_VERTICAL;
    c.squat.vertical = -0.5;
    PM_CHECK_EQ_INT(pm_groove_config_resolve(&c, &p, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "squat.vertical") != NULL);
    memset(&c, 0, sizeof c);
    c.joint_set[PM_GROOVE_HEAD] = PM_GROOVE_FIELD_AXIS;
    c.joints[PM_GROOVE_HEAD].axis = 3;
    PM_CHECK_EQ_INT(pm_groove_config_resolve(&c, &p, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "joints.head.axis") != NULL);
    /* values outside a set bit are ignored */
    memset(&c, 0, sizeof c);
    c.joints[PM_GROOVE_HEAD].amp = NAN;
    PM_CHECK_OK(pm_groove_config_resolve(&c, &p, &err), &err);
    /* a live groove keeps its settings when new ones are bad */
    PM_CHECK_OK(pm_groove_create(sk, NULL, NULL, &g, &err), &err);
    c.joint_set[PM_GROOVE_HEAD] = PM_GROOVE_FIELD_AMP;
    PM_CHECK_EQ_INT(pm_groove_set_config(g, &c, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_groove_get_params(g)->joints[PM_GROOVE_HEAD].amp == 3);
    pm_groove_free(g);
    pm_skeleton_free(sk);
}

PM_TEST(mutated_settings_never_crash_and_fail_cleanly) {
    const char *good = "{\"reset\":[\"squat\"],\"joints\":{\"head\":{\"amp\":5,\"axis\":\"y\"},\"neck\":null},"
                       "\"squat\":{\"vertical\":4,\"wave\":\"sine\",\"enabled\":false}}";
    const size_t n = strlen(good);
    char *buf = malloc(n);
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    int ok = 0, bad = 0;
    for (int i = 0; i < (pm_test_quick() ? 2000 : 20000); i++) { /* PM_TEST_QUICK: valgrind */
        memcpy(buf, good, n);
        for (int k = 0; k < 1 + i % 3; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            buf[seed % n] = (char)(seed >> 32);
        }
        size_t len = (seed >> 20) % 5 == 0 ? (seed >> 8) % (n + 1) : n; /* sometimes cut short too */
        pm_groove_config cfg;
        memset(&cfg, 0, sizeof cfg);
        pm_error err = {0};
        pm_result r = pm_groove_config_parse(buf, len, &cfg, &err);
        if (r == PM_OK) {
            pm_groove_params p;
            PM_CHECK_OK(pm_groove_config_resolve(&cfg, &p, &err), &err); /* whatever parses, resolves */
            ok++;
        } else {
            PM_CHECK_EQ_INT(r, PM_ERR_INVALID_ARGUMENT);
            PM_CHECK(err.message[0] != 0);
            bad++;
        }
    }
    printf("  %d mutated settings parsed, %d rejected\n", ok, bad);
    PM_CHECK(ok > (pm_test_quick() ? 1 : 10) && bad > (pm_test_quick() ? 100 : 1000));
    free(buf);
}

/* ---- the runtime layer --------------------------------------------------------------------------- */

/* Rebuild the grooved pose from a frame's outputs the way a viewer applies them (rotation *= offset,
 * body translation += offset, leg rotations with the leg IK off), evaluate it with our pose evaluator
 * and return the largest ankle distance to its anchor (and the ankle world-rotation error). */
static double feet_check(const pm_skeleton *sk, const pm_groove_info *info, const pm_pose *input,
                         const pm_groove_frame *fr, pm_pose_workspace *ws, pm_pose *p, double *rot_err) {
    pm_error err = {0};
    for (uint32_t k = 0; k < info->leg_ik_count; k++) pm_pose_set_ik_mode(ws, info->leg_ik[k], PM_IK_FORCE_OFF, &err);
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        pm_quat r = input ? input->rotation[b] : pm_quat_identity();
        p->rotation[b] = pm_quat_mul(r, fr->bone_offset[b]);
        p->translation[b] = input ? input->translation[b] : pm_vec3_make(0, 0, 0);
    }
    if (fr->body_bone != PM_NO_INDEX)
        p->translation[fr->body_bone] = pm_vec3_add(p->translation[fr->body_bone], fr->body_offset);
    for (int k = 0; k < 6; k++) p->rotation[fr->leg_bone[k]] = fr->leg_rotation[k];
    PM_CHECK_OK(pm_pose_evaluate_local(ws, p, NULL, &err), &err);
    double worst = 0;
    *rot_err = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t ankle = fr->leg_bone[3 * s + 2];
        double d = pm_vec3_distance(pm_pose_world_position(p, ankle), fr->anchor[s]);
        if (d > worst) worst = d;
        double a = quat_angle_deg(pm_mat4_get_rotation(&p->world[ankle]), fr->anchor_rotation[s]);
        if (a > *rot_err) *rot_err = a;
    }
    return worst;
}

/* Run the layer over `seconds` at 60 steps per second and check the feet every step. */
static void check_squat_on(pm_skeleton *sk, pm_vmd *motion, const char *settings, double bpm, double seconds,
                           double *worst_foot, double *worst_rot, double *lowest) {
    pm_error err = {0};
    pm_groove_config cfg;
    memset(&cfg, 0, sizeof cfg);
    if (settings) PM_CHECK_OK(parse(&cfg, settings, &err), &err);
    pm_groove *g = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL, *ws2 = NULL;
    pm_pose *in = NULL, *check = NULL;
    PM_CHECK_OK(pm_groove_create(sk, &cfg, NULL, &g, &err), &err);
    if (motion) PM_CHECK_OK(pm_anim_bind(sk, motion, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws2, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &in, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &check, &err), &err);
    pm_groove_info info;
    pm_groove_get_info(g, &info);
    *worst_foot = *worst_rot = 0;
    *lowest = 0;
    const pm_vec3 rest_body = sk->bones[info.body_bone].position;
    for (int i = 0; i <= (int)(seconds * 60); i++) {
        double t = i / 60.0;
        PM_CHECK_OK(pm_pose_sample(anim, ws, t * 30, in, &err), &err);
        pm_groove_frame fr;
        PM_CHECK_OK(pm_groove_offsets(g, in, t, bpm, 0, &fr, &err), &err);
        PM_CHECK(fr.legs_solved);
        double rot_err = 0;
        double d = feet_check(sk, &info, in, &fr, ws2, check, &rot_err);
        if (d > *worst_foot) *worst_foot = d;
        if (rot_err > *worst_rot) *worst_rot = rot_err;
        double body_y = pm_pose_world_position(fr.pose, info.body_bone).y - rest_body.y;
        if (body_y < *lowest) *lowest = body_y;
        /* the layer's own report agrees */
        PM_CHECK(fr.foot_error[0] < 1e-3f && fr.foot_error[1] < 1e-3f);
    }
    pm_pose_free(in);
    pm_pose_free(check);
    pm_pose_workspace_free(ws);
    pm_pose_workspace_free(ws2);
    pm_anim_free(anim);
    pm_groove_free(g);
}

PM_TEST(squat_bounce_keeps_the_feet_on_their_anchors) {
    pm_skeleton *models[3] = {mannequin(), mannequin_without_ik(), pm_test_read_model("pmx/yw_test_model/yw_test_model.pmx")};
    const char *names[3] = {"mannequin (MMD leg IK)", "mannequin without IK", "yw_test_model"};
    const char *settings[3] = {NULL, "{\"squat\":{\"vertical\":10,\"lateral\":6,\"freq\":0.5,\"phase\":0.2}}",
                               "{\"squat\":{\"vertical\":6,\"lateral\":0,\"wave\":\"sine\"},\"joints\":{\"pelvis\":{\"amp\":5}}}"};
    for (int m = 0; m < 3; m++) {
        if (!models[m]) continue;
        pm_groove *g = NULL;
        pm_error err = {0};
        PM_CHECK_OK(pm_groove_create(models[m], NULL, NULL, &g, &err), &err);
        pm_groove_info info;
        pm_groove_get_info(g, &info);
        PM_CHECK_EQ_INT(info.leg_mode, m == 1 ? PM_GROOVE_LEGS_ANALYTIC : PM_GROOVE_LEGS_MMD_IK);
        pm_groove_free(g);
        for (int s = 0; s < 3; s++) {
            double foot, rot, lowest;
            check_squat_on(models[m], NULL, settings[s], 128, 3.0, &foot, &rot, &lowest);
            printf("  %s, settings %d: ankle to anchor <= %.2e units, ankle rotation <= %.2e deg, body down to %.3f\n",
                   names[m], s, foot, rot, lowest);
            PM_CHECK_MSG(foot <= 1e-3, "%s settings %d: an ankle is %g from its anchor", names[m], s, foot);
            PM_CHECK_MSG(rot <= 0.05, "%s settings %d: ankle rotation off by %g degrees", names[m], s, rot);
            PM_CHECK(lowest < -0.3); /* the body really goes down */
        }
    }
    /* out of reach (a sideways shift at full height on nearly straight legs): the foot misses, and the
     * frame says by how much */
    if (models[2]) {
        pm_groove_config cfg;
        memset(&cfg, 0, sizeof cfg);
        pm_error err = {0};
        PM_CHECK_OK(parse(&cfg, "{\"squat\":{\"vertical\":0,\"lateral\":8}}", &err), &err);
        pm_groove *g = NULL;
        PM_CHECK_OK(pm_groove_create(models[2], &cfg, NULL, &g, &err), &err);
        pm_groove_frame fr;
        PM_CHECK_OK(pm_groove_offsets(g, NULL, 0, 120, 0, &fr, &err), &err);
        PM_CHECK_OK(pm_groove_offsets(g, NULL, 0.125, 120, 0, &fr, &err), &err); /* a quarter beat: full sway */
        PM_CHECK(fr.legs_solved && isfinite(fr.foot_error[0]) && fr.foot_error[0] > 1e-3f && fr.foot_error[0] < 0.5f);
        pm_groove_free(g);
    }
    /* on a real motion (the base pose changes every frame, anchors from its first frame) */
    pm_vmd *wait = models[2] ? pm_test_read_vmd("vmd/mei_wait.vmd") : NULL;
    if (wait) {
        double foot, rot, lowest;
        check_squat_on(models[2], wait, NULL, 120, 4.0, &foot, &rot, &lowest);
        printf("  yw_test_model with mei_wait: ankle to anchor <= %.2e units, rotation <= %.2e deg\n", foot, rot);
        PM_CHECK(foot <= 1e-3 && rot <= 0.05);
    }
    pm_vmd_free(wait);
    for (int m = 0; m < 3; m++) pm_skeleton_free(models[m]);
}

PM_TEST(offsets_are_post_multiplied_and_never_written_back) {
    pm_skeleton *sk = mannequin();
    pm_error err = {0};
    pm_groove *g = NULL;
    pm_pose *in = NULL;
    PM_CHECK_OK(pm_groove_create(sk, NULL, NULL, &g, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &in, &err), &err);
    pm_groove_info info;
    pm_groove_get_info(g, &info);
    /* the mannequin has no 上半身3: skipped and reported */
    PM_CHECK_EQ_INT(info.joint_bone[PM_GROOVE_UPPER_CHEST], PM_NO_INDEX);
    PM_CHECK_EQ_INT(info.skipped_count, 1);
    PM_CHECK_STR(info.skipped[0], "upperChest");
    PM_CHECK_STR(sk->bones[info.body_bone].name.data, "グルーブ");
    PM_CHECK_STR(sk->bones[info.joint_bone[PM_GROOVE_PELVIS]].name.data, "下半身");
    const uint32_t head = info.joint_bone[PM_GROOVE_HEAD];
    pm_quat base = pm_quat_normalize(pm_quat_from_axis_angle(pm_vec3_make(1, 2, 0.5f), 0.7f));
    in->rotation[head] = base;
    pm_groove_frame fr;
    const double t = 0.61;
    PM_CHECK_OK(pm_groove_offsets(g, in, t, 128, 0, &fr, &err), &err);
    PM_CHECK(memcmp(&in->rotation[head], &base, sizeof base) == 0); /* the source is untouched */
    pm_quat want = pm_quat_mul(base, pm_groove_joint_offset(&pm_groove_get_params(g)->joints[PM_GROOVE_HEAD],
                                                            pm_groove_beat(t, 128)));
    PM_CHECK(quat_angle_deg(fr.pose->rotation[head], want) < 1e-4);
    PM_CHECK(quat_angle_deg(fr.bone_offset[head], fr.joint_offset[PM_GROOVE_HEAD]) == 0);
    PM_CHECK(fr.bone_offset[0].w == 1); /* not a joint */
    /* the offsets depend on the clock only, not on the pose: another pose, same offsets */
    pm_groove_frame fr2;
    pm_quat first[PM_GROOVE_JOINT_COUNT];
    memcpy(first, fr.joint_offset, sizeof first);
    PM_CHECK_OK(pm_groove_offsets(g, NULL, t, 128, 0, &fr2, &err), &err);
    PM_CHECK(memcmp(first, fr2.joint_offset, sizeof first) == 0);
    PM_CHECK(fr2.pose->rotation[head].w != want.w);
    /* the rest pose gives the joint offsets as rotations */
    PM_CHECK(quat_angle_deg(fr2.pose->rotation[head], fr2.joint_offset[PM_GROOVE_HEAD]) < 1e-5);
    /* offsets only (a viewer with its own leg IK): the same offsets and body offset, nothing solved */
    pm_groove_frame fo;
    PM_CHECK_OK(pm_groove_offsets(g, in, t, 128, PM_GROOVE_OFFSETS_ONLY, &fo, &err), &err);
    PM_CHECK(memcmp(first, fo.joint_offset, sizeof first) == 0);
    PM_CHECK(!fo.legs_solved);
    PM_CHECK(fo.body_offset.y == pm_groove_body_offset(&pm_groove_get_params(g)->squat, pm_groove_beat(t, 128)).y);
    PM_CHECK(fo.body_offset.y < 0);
    PM_CHECK(fo.pose->translation[info.body_bone].y == fo.body_offset.y);
    PM_CHECK_EQ_INT(fo.leg_bone[4], info.leg_bone[1][1]);
    /* bad calls */
    PM_CHECK_EQ_INT(pm_groove_offsets(g, in, NAN, 128, 0, &fr, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "time") != NULL);
    PM_CHECK_EQ_INT(pm_groove_offsets(g, in, 0, 0, 0, &fr, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "bpm") != NULL);
    PM_CHECK_EQ_INT(pm_groove_offsets(g, in, 0, INFINITY, 0, &fr, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_groove_offsets(NULL, in, 0, 120, 0, &fr, &err), PM_ERR_INVALID_ARGUMENT);
    pm_pose wrong = *in;
    wrong.bone_count = 3;
    PM_CHECK_EQ_INT(pm_groove_offsets(g, &wrong, 0, 120, 0, &fr, &err), PM_ERR_INVALID_ARGUMENT);
    pm_groove_free(g);
    PM_CHECK_EQ_INT(pm_groove_create(NULL, NULL, NULL, &g, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(g == NULL);
    pm_groove_free(NULL);
    pm_pose_free(in);
    pm_skeleton_free(sk);
}

static void *counting_alloc(void *user, size_t size) {
    ++*(int *)user;
    return malloc(size);
}
static void counting_free(void *user, void *p) {
    (void)user;
    free(p);
}

PM_TEST(a_frame_never_allocates) {
    pm_skeleton *sk = mannequin();
    int allocations = 0;
    pm_groove_options o = {0};
    o.allocator.alloc = counting_alloc;
    o.allocator.free = counting_free;
    o.allocator.user = &allocations;
    pm_groove *g = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_groove_create(sk, NULL, &o, &g, &err), &err);
    PM_CHECK(allocations > 0);
    const int after_create = allocations;
    pm_groove_preview pv;
    memset(&pv, 0, sizeof pv);
    double pos[3] = {0, 8, 0};
    for (int i = 0; i < 200; i++) {
        pm_groove_frame fr;
        PM_CHECK_OK(pm_groove_offsets(g, NULL, i / 60.0, 128, (uint32_t)(i % 3 == 0 ? PM_GROOVE_OFFSETS_ONLY : 0), &fr, &err),
                    &err);
        PM_CHECK_OK(pm_groove_preview_update(g, &pv, pos, i / 60.0, 128, 0, &err), &err);
    }
    PM_CHECK_EQ_INT(allocations, after_create);
    pm_groove_free(g);
    pm_skeleton_free(sk);
}

PM_TEST(squat_bounce_yields_completely_under_user_leg_ik) {
    pm_skeleton *sk = mannequin();
    pm_error err = {0};
    pm_groove *g = NULL;
    PM_CHECK_OK(pm_groove_create(sk, NULL, NULL, &g, &err), &err);
    pm_groove_info info;
    pm_groove_get_info(g, &info);
    PM_CHECK_EQ_INT(info.leg_ik_count, 4); /* 足ＩＫ and つま先ＩＫ on both sides */
    /* reference: the pose with the joint offsets only, evaluated with the user's IK */
    pm_groove_config off;
    memset(&off, 0, sizeof off);
    PM_CHECK_OK(parse(&off, "{\"squat\":{\"enabled\":false}}", &err), &err);
    pm_groove *ref = NULL;
    PM_CHECK_OK(pm_groove_create(sk, &off, NULL, &ref, &err), &err);
    const uint32_t ankle = info.leg_bone[0][2], knee = info.leg_bone[0][1];
    for (int i = 0; i < 40; i++) {
        double t = 0.05 + i * 0.0371;
        pm_groove_frame fr, fr_ref;
        PM_CHECK_OK(pm_groove_offsets(g, NULL, t, 120, PM_GROOVE_LEG_IK_USER, &fr, &err), &err);
        PM_CHECK_OK(pm_groove_offsets(ref, NULL, t, 120, 0, &fr_ref, &err), &err);
        PM_CHECK(!fr.legs_solved);
        PM_CHECK(fr.body_offset.x == 0 && fr.body_offset.y == 0 && fr.body_offset.z == 0);
        PM_CHECK(memcmp(fr.pose->world, fr_ref.pose->world, sizeof(pm_mat4) * sk->bone_count) == 0);
        PM_CHECK(memcmp(&fr.leg_rotation[1], &fr_ref.pose->final_rotation[knee], sizeof(pm_quat)) == 0);
        (void)ankle;
    }
    /* when the user lets go, the anchors are captured afresh and the bounce resumes */
    pm_groove_frame fr;
    PM_CHECK_OK(pm_groove_offsets(g, NULL, 0.5, 120, 0, &fr, &err), &err);
    PM_CHECK(fr.legs_solved && fr.body_offset.y != 0);
    pm_groove_free(ref);
    pm_groove_free(g);
    pm_skeleton_free(sk);
}

PM_TEST(preview_steps_do_not_drift) {
    const pm_groove_params P = defaults();
    const double start[3] = {0.25, 8.2, -1.5};
    /* held as float (like a pose translation) and as double (like a Babylon position) */
    for (int holder = 0; holder < 2; holder++) {
        pm_groove_preview pv;
        memset(&pv, 0, sizeof pv);
        float f[3] = {(float)start[0], (float)start[1], (float)start[2]};
        double d[3] = {start[0], start[1], start[2]};
        double lowest = 0;
        for (int i = 0; i < 10000; i++) {
            double t = i * 0.0173;
            pm_vec3 off = pm_groove_body_offset(&P.squat, pm_groove_beat(t, 131));
            if (holder == 0) {
                double pos[3] = {f[0], f[1], f[2]};
                pm_groove_preview_step(&pv, pos, off);
                for (int k = 0; k < 3; k++) f[k] = (float)pos[k];
                if (pos[1] - (float)start[1] < lowest) lowest = pos[1] - (float)start[1];
            } else {
                pm_groove_preview_step(&pv, d, off);
                if (d[1] - start[1] < lowest) lowest = d[1] - start[1];
            }
        }
        PM_CHECK(lowest < -0.37); /* the steps did move it */
        double pos[3] = {f[0], f[1], f[2]};
        double *p = holder == 0 ? pos : d;
        pm_groove_preview_stop(&pv, p);
        for (int k = 0; k < 3; k++) {
            double want = holder == 0 ? (double)(float)start[k] : start[k];
            PM_CHECK_MSG(fabs(p[k] - want) <= 1e-6, "holder %d axis %d drifted by %g after 10 000 steps", holder, k,
                         p[k] - want);
        }
    }
    /* a position moved by someone else between steps becomes the new base */
    pm_groove_preview pv;
    memset(&pv, 0, sizeof pv);
    double pos[3] = {0, 8, 0};
    pm_groove_preview_step(&pv, pos, pm_vec3_make(0, -0.25f, 0));
    PM_CHECK_NEAR(pos[1], 7.75, 1e-7);
    pos[0] += 1; /* the user drags the model sideways */
    pm_groove_preview_step(&pv, pos, pm_vec3_make(0.1f, -0.1f, 0));
    PM_CHECK_NEAR(pos[0], 1.1, 1e-7);
    PM_CHECK_NEAR(pos[1], 7.9, 1e-7);
    pm_groove_preview_stop(&pv, pos);
    PM_CHECK_NEAR(pos[0], 1, 1e-7);
    PM_CHECK(pos[1] == 8);
    PM_CHECK(!pv.active);
}

PM_TEST(extreme_settings_stay_finite) {
    pm_skeleton *models[2] = {mannequin(), mannequin_without_ik()};
    const char *settings =
        "{\"joints\":{\"pelvis\":{\"amp\":180,\"freq\":16},\"spine\":{\"amp\":-180,\"freq\":16,\"phase\":1},"
        "\"head\":{\"amp\":180,\"freq\":0},\"leftArm\":{\"amp\":-180,\"axis\":\"y\",\"freq\":16},"
        "\"rightElbow\":{\"amp\":180,\"wave\":\"sine\"}},"
        "\"squat\":{\"vertical\":100,\"lateral\":-100,\"freq\":16,\"phase\":1,\"wave\":\"sine\"}}";
    for (int m = 0; m < 2; m++) {
        pm_error err = {0};
        pm_groove_config cfg;
        memset(&cfg, 0, sizeof cfg);
        PM_CHECK_OK(parse(&cfg, settings, &err), &err);
        pm_groove *g = NULL;
        PM_CHECK_OK(pm_groove_create(models[m], &cfg, NULL, &g, &err), &err);
        bool finite = true;
        for (int i = 0; i < 600; i++) {
            double t = i * 0.01234 - 1.0 + (i % 7) * 1e6; /* also far from zero */
            pm_groove_frame fr;
            PM_CHECK_OK(pm_groove_offsets(g, NULL, t, i % 2 ? 1000 : 0.5, 0, &fr, &err), &err);
            const pm_pose *p = fr.pose;
            for (uint32_t b = 0; b < models[m]->bone_count; b++) {
                for (int k = 0; k < 16; k++) finite = finite && isfinite(p->world[b].m[k]);
                const float *q = &fr.bone_offset[b].x;
                for (int k = 0; k < 4; k++) finite = finite && isfinite(q[k]);
            }
            for (int k = 0; k < 6; k++)
                finite = finite && isfinite(fr.leg_rotation[k].x) && isfinite(fr.leg_rotation[k].w);
            finite = finite && isfinite(fr.body_offset.y) && isfinite(fr.foot_error[0]);
        }
        PM_CHECK(finite);
        pm_groove_free(g);
        pm_vmd *v = NULL;
        pm_groove_bake_options o = {0};
        o.frames = 60;
        PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, models[m], &cfg, 1000, &o, &v, NULL, &err), &err);
        for (uint32_t k = 0; v && k < v->bones.count; k++)
            for (int c = 0; c < 4; c++) finite = finite && isfinite(v->bones.rotation[4 * k + c]);
        PM_CHECK(finite);
        pm_vmd_free(v);
    }
    for (int m = 0; m < 2; m++) pm_skeleton_free(models[m]);
}

/* ---- the bake ------------------------------------------------------------------------------------ */

static uint32_t keys_of(const pm_vmd *v, const char *name) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < v->bones.count; k++)
        if (strcmp(v->bone_names.items[v->bones.name_index[k]].data, name) == 0) n++;
    return n;
}

/* Evaluate a baked VMD every half frame: the largest ankle distance from `ref` positions (NULL = rest),
 * and the frames where the body bone is lowest (local minima). */
static void play(const pm_skeleton *sk, const pm_vmd *baked, const pm_vmd *base, uint32_t frames, uint32_t body,
                 double *ankle_dev, double *minima, int *minima_count, int cap) {
    pm_error err = {0};
    pm_anim *a = NULL, *ab = NULL;
    pm_pose_workspace *ws = NULL, *wsb = NULL;
    pm_pose *p = NULL, *pb = NULL;
    PM_CHECK_OK(pm_anim_bind(sk, baked, NULL, &a, &err), &err);
    if (base) PM_CHECK_OK(pm_anim_bind(sk, base, NULL, &ab, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &wsb, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &p, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &pb, &err), &err);
    const uint32_t ankles[2] = {pm_skeleton_find(sk, "左足首"), pm_skeleton_find(sk, "右足首")};
    *ankle_dev = 0;
    *minima_count = 0;
    double y[3] = {0, 0, 0};
    for (uint32_t i = 0; i <= frames * 4; i++) {
        double f = i / 4.0;
        PM_CHECK_OK(pm_pose_evaluate(a, ws, f, p, NULL, &err), &err);
        PM_CHECK_OK(pm_pose_evaluate(ab, wsb, f, pb, NULL, &err), &err);
        for (int s = 0; s < 2; s++) {
            double d = pm_vec3_distance(pm_pose_world_position(p, ankles[s]), pm_pose_world_position(pb, ankles[s]));
            if (d > *ankle_dev) *ankle_dev = d;
        }
        y[0] = y[1], y[1] = y[2], y[2] = pm_pose_world_position(p, body).y;
        if (i >= 2 && y[1] < y[0] && y[1] <= y[2] && *minima_count < cap) minima[(*minima_count)++] = (i - 1) / 4.0;
    }
    pm_pose_free(p);
    pm_pose_free(pb);
    pm_pose_workspace_free(ws);
    pm_pose_workspace_free(wsb);
    pm_anim_free(a);
    pm_anim_free(ab);
}

static void check_bake(pm_skeleton *sk, const pm_vmd *base, double bpm, const char *label, double ankle_tol) {
    pm_error err = {0};
    pm_vmd *v = NULL;
    pm_groove_bake_report rep;
    PM_CHECK_OK(pm_groove_apply_to_vmd(base, sk, NULL, bpm, NULL, &v, &rep, &err), &err);
    if (!v) return;
    const double beat_frames = 1800.0 / bpm;
    double minima[256], dev;
    int nmin = 0;
    const uint32_t body = pm_skeleton_find(sk, "下半身");
    play(sk, v, base, rep.frames, body, &dev, minima, &nmin, 256);
    double worst_beat = 0;
    for (int i = 0; i < nmin; i++) {
        double k = round(minima[i] / beat_frames), off = fabs(minima[i] - k * beat_frames);
        if (off > worst_beat) worst_beat = off;
    }
    printf("  %s at %g bpm: %u frames, %u keys on %u bones (%u copied), deviation %.2e units / %.3f deg; "
           "ankles within %.2e of the %s; 下半身 low points %d, worst %.2f frames from a beat\n",
           label, bpm, rep.frames, rep.key_count, rep.keyed_bones, rep.copied_keys, rep.max_position_error,
           rep.max_rotation_error, dev, base ? "base motion" : "rest pose", nmin, worst_beat);
    PM_CHECK(dev <= ankle_tol);
    /* within the tolerance except one-frame segments around extremes between whole frames */
    PM_CHECK(rep.max_position_error <= 0.005 && rep.max_rotation_error <= 0.1);
    /* a key every frame would be frames + 1 per bone (analytic legs need about one a frame: a VMD
     * rotation has one progress curve, the hip flexes and sways at once) */
    PM_CHECK(rep.key_count < (rep.frames + 1) * rep.keyed_bones / (rep.leg_mode == PM_GROOVE_LEGS_ANALYTIC ? 2 : 3));
    if (!base) {
        PM_CHECK_EQ_INT(nmin, (int)ceil(rep.frames / beat_frames - 1e-9) - 1); /* the beats inside */
        PM_CHECK(worst_beat <= 0.5 + 1e-9); /* keys sit on whole frames */
        if (fmod(beat_frames, 1.0) == 0) PM_CHECK(worst_beat == 0);
    }
    pm_vmd_free(v);
}

PM_TEST(bake_mmd_path_lowers_the_body_and_lands_the_feet_by_leg_ik) {
    pm_skeleton *sk = mannequin();
    pm_error err = {0};
    pm_vmd *v = NULL;
    pm_groove_bake_report rep;
    PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, sk, NULL, 120, NULL, &v, &rep, &err), &err);
    PM_CHECK_EQ_INT(rep.leg_mode, PM_GROOVE_LEGS_MMD_IK);
    PM_CHECK_EQ_INT(rep.frames, 240); /* 16 beats at 120 bpm */
    PM_CHECK_EQ_INT(rep.keyed_bones, 12); /* 11 joints + グルーブ */
    PM_CHECK(keys_of(v, "グルーブ") > 16);
    /* the closed loop (landing.h): 足ＩＫ held on the anchor, the legs pre-posed on every frame */
    PM_CHECK(rep.verified);
    PM_CHECK_EQ_INT(keys_of(v, "左足ＩＫ"), 2);
    PM_CHECK_EQ_INT(keys_of(v, "左ひざ"), 241);
    PM_CHECK_EQ_INT(keys_of(v, "センター"), 0);
    PM_CHECK_EQ_INT(rep.skipped_count, 1);
    /* measured by playing the bake: the ankles on their anchors at every frame, the IK on throughout
     * (the body 1-2 cm lower so the knees stay within MMD's knee limit at the top of the bounce) */
    PM_CHECK_MSG(rep.max_foot_error < 1e-3, "foot error %g", rep.max_foot_error);
    PM_CHECK_EQ_INT(rep.landing.ik_off_frames, 0);
    PM_CHECK(rep.crouch > 0 && rep.crouch < 0.05);
    PM_CHECK_EQ_INT(rep.landing.limb_count, 2);
    PM_CHECK(rep.landing.limbs[0].steered && rep.landing.limbs[0].frames == 241);
    PM_CHECK(rep.landing.penetration < 1e-3 && rep.landing.max_slide < 1e-3);
    pm_vmd_free(v);
    check_bake(sk, NULL, 120, "mannequin", 0.01);
    check_bake(sk, NULL, 128, "mannequin", 0.01);
    pm_skeleton_free(sk);
}

PM_TEST(bake_analytic_path_keys_the_legs_of_a_model_without_ik) {
    pm_skeleton *sk = mannequin_without_ik();
    pm_error err = {0};
    pm_vmd *v = NULL;
    pm_groove_bake_report rep;
    PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, sk, NULL, 100, NULL, &v, &rep, &err), &err);
    PM_CHECK_EQ_INT(rep.leg_mode, PM_GROOVE_LEGS_ANALYTIC);
    PM_CHECK_EQ_INT(rep.keyed_bones, 18);
    PM_CHECK(keys_of(v, "左ひざ") > 8 && keys_of(v, "右足首") > 8);
    PM_CHECK_MSG(rep.max_foot_error < 1e-3, "foot error %g (measured)", rep.max_foot_error);
    PM_CHECK(rep.verified && rep.landing.limbs[0].steered && rep.landing.ik_off_frames == 0); /* FK onto the anchors */
    pm_vmd_free(v);
    check_bake(sk, NULL, 100, "mannequin without IK", 0.02);
    pm_skeleton_free(sk);
}

PM_TEST(bake_on_a_real_motion_keeps_its_other_keys) {
    pm_skeleton *sk = pm_test_read_model("pmx/yw_test_model/yw_test_model.pmx");
    pm_vmd *base = sk ? pm_test_read_vmd("vmd/mei_wait.vmd") : NULL;
    if (!base) {
        pm_skeleton_free(sk);
        return;
    }
    pm_error err = {0};
    pm_vmd *v = NULL;
    pm_groove_bake_report rep;
    PM_CHECK_OK(pm_groove_apply_to_vmd(base, sk, NULL, 120, NULL, &v, &rep, &err), &err);
    PM_CHECK_EQ_INT(rep.leg_mode, PM_GROOVE_LEGS_MMD_IK);
    /* untouched bones keep exactly their keys; morphs and properties are copied; the legs are landed
     * where the base motion puts the feet */
    PM_CHECK_EQ_INT(keys_of(v, "センター"), keys_of(base, "センター"));
    PM_CHECK_EQ_INT(v->morphs.count, base->morphs.count);
    PM_CHECK(v->properties.count >= base->properties.count);
    PM_CHECK_EQ_INT(rep.copied_keys + rep.key_count + rep.landing.key_count, v->bones.count);
    PM_CHECK_MSG(rep.max_foot_error < 1e-3, "foot error %g", rep.max_foot_error);
    pm_vmd_free(v);
    check_bake(sk, base, 120, "yw_test_model + mei_wait", 0.05);
    pm_vmd_free(base);
    pm_skeleton_free(sk);
}

PM_TEST(bake_on_a_motion_with_a_name_cut_inside_a_character_writes_it_back_as_it_was) {
    pm_skeleton *sk = mannequin();
    pm_error err = {0};
    pm_vmd *base = NULL;
    PM_CHECK_OK(pm_vmd_create(NULL, &base, &err), &err);
    /* ヘッドセット消 and the first byte of し (MMD cut the morph name at 15 bytes), 0xFD padding */
    const uint8_t cut[15] = {0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5A, 0x83, 0x62, 0x83, 0x67, 0x8F, 0xC1, 0x82};
    uint8_t bone[15] = {0x93, 0xAA, 0x82, 0}; /* 頭 and a cut lead byte */
    memset(bone + 4, 0xFD, 11);
    uint32_t mi = 0, bi = 0;
    PM_CHECK_OK(pm_vmd_intern_field(base, &base->morph_names, cut, 15, &mi, &err), &err);
    PM_CHECK_OK(pm_vmd_intern_field(base, &base->bone_names, bone, 15, &bi, &err), &err);
    const float pos[3] = {0, 0, 0}, rot[4] = {0, 0, 0, 1};
    PM_CHECK_OK(pm_vmd_add_morph_key(base, base->morph_names.items[mi].data, 3, 0.5f, &err), &err);
    PM_CHECK_OK(pm_vmd_add_bone_key(base, base->bone_names.items[bi].data, 3, pos, rot, NULL, &err), &err);
    pm_vmd *v = NULL;
    pm_groove_bake_options o = {0};
    o.frames = 30;
    PM_CHECK_OK(pm_groove_apply_to_vmd(base, sk, NULL, 120, &o, &v, NULL, &err), &err);
    size_t size = 0;
    if (v) PM_CHECK_OK(pm_vmd_write(v, NULL, 0, &size, &err), &err);
    uint8_t *bytes = malloc(size ? size : 1);
    if (v) PM_CHECK_OK(pm_vmd_write(v, bytes, size, &size, &err), &err);
    pm_vmd *back = NULL;
    PM_CHECK_OK(pm_vmd_read(bytes, size, NULL, &back, &err), &err);
    if (back) {
        PM_CHECK_EQ_INT(back->morphs.count, 1);
        PM_CHECK(memcmp(back->morph_names.fields, cut, 15) == 0);
        PM_CHECK_EQ_INT(keys_of(back, "頭\xEF\xBF\xBD"), 1);
        for (uint32_t i = 0; i < back->bone_names.count; i++)
            if (strcmp(back->bone_names.items[i].data, "頭\xEF\xBF\xBD") == 0)
                PM_CHECK(memcmp(back->bone_names.fields + 15 * i, bone, 15) == 0);
    }
    pm_vmd_free(back);
    free(bytes);
    pm_vmd_free(v);
    pm_vmd_free(base);
    pm_skeleton_free(sk);
}

PM_TEST(bake_arguments) {
    pm_skeleton *sk = mannequin();
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_EQ_INT(pm_groove_apply_to_vmd(NULL, sk, NULL, NAN, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "bpm") != NULL);
    PM_CHECK_EQ_INT(pm_groove_apply_to_vmd(NULL, NULL, NULL, 120, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    pm_groove_bake_options o = {0};
    o.position_tolerance = -1;
    PM_CHECK_EQ_INT(pm_groove_apply_to_vmd(NULL, sk, NULL, 120, &o, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "position_tolerance") != NULL);
    memset(&o, 0, sizeof o);
    o.frames = 200000;
    PM_CHECK_EQ_INT(pm_groove_apply_to_vmd(NULL, sk, NULL, 120, &o, &v, NULL, &err), PM_ERR_LIMIT);
    PM_CHECK(v == NULL);
    /* squat off: only the joints get keys */
    pm_groove_config cfg;
    memset(&cfg, 0, sizeof cfg);
    PM_CHECK_OK(parse(&cfg, "{\"squat\":{\"enabled\":false}}", &err), &err);
    memset(&o, 0, sizeof o);
    o.frames = 90;
    pm_groove_bake_report rep;
    PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, sk, &cfg, 120, &o, &v, &rep, &err), &err);
    PM_CHECK_EQ_INT(rep.keyed_bones, 11);
    PM_CHECK_EQ_INT(keys_of(v, "グルーブ"), 0);
    /* the result writes and reads back */
    size_t size = 0;
    PM_CHECK_OK(pm_vmd_write(v, NULL, 0, &size, &err), &err);
    uint8_t *bytes = malloc(size);
    PM_CHECK_OK(pm_vmd_write(v, bytes, size, &size, &err), &err);
    pm_vmd *back = NULL;
    PM_CHECK_OK(pm_vmd_read(bytes, size, NULL, &back, &err), &err);
    PM_CHECK_EQ_INT(back->bones.count, v->bones.count);
    free(bytes);
    pm_vmd_free(back);
    pm_vmd_free(v);
    pm_skeleton_free(sk);
}

int main(void) { return pm_test_run_all(); }
