/* Catwalk: the loop closes, heel strikes land on beats, planted feet stay put, the walk stays in
 * place or travels and comes back, the hips sway toward the stance foot, bones resolve by candidate
 * names, parameters validate and clamp, and the fitted keys stay within their stated tolerance.
 * Everything is measured on the VMD the generator writes, evaluated the way babylon-mmd plays it. */
#include "pm_test.h"

#include "catwalk/entry.h"
#include "keyfit/keyfit.h"
#include "procmotion/catwalk.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdbool.h>

/* ---- a VMD evaluator (babylon-mmd's rules: the curve of key B drives A -> B, shortest slerp) ---- */

static uint32_t bone_index(const pm_vmd *v, const char *name) {
    for (uint32_t i = 0; i < v->bone_names.count; i++)
        if (strcmp(v->bone_names.items[i].data, name) == 0) return i;
    return UINT32_MAX;
}

static int bone_keys(const pm_vmd *v, const char *name) {
    uint32_t b = bone_index(v, name), n = 0;
    for (uint32_t k = 0; k < v->bones.count; k++) n += v->bones.name_index[k] == b;
    return (int)n;
}

/* Position offset and rotation of a bone at time t (frames). False when the bone has no keys. */
static bool eval_bone(const pm_vmd *v, const char *name, double t, double pos[3], double q[4]) {
    uint32_t b = bone_index(v, name);
    int prev = -1, next = -1;
    for (uint32_t k = 0; k < v->bones.count; k++) {
        if (v->bones.name_index[k] != b) continue;
        if (v->bones.frame[k] <= t) prev = (int)k;
        if (v->bones.frame[k] >= t && next < 0) next = (int)k;
    }
    if (prev < 0 && next < 0) return false;
    if (prev < 0) prev = next;
    if (next < 0) next = prev;
    const float *pa = v->bones.position + 3 * prev, *pb = v->bones.position + 3 * next;
    const float *qa = v->bones.rotation + 4 * prev, *qb0 = v->bones.rotation + 4 * next;
    double span = (double)v->bones.frame[next] - v->bones.frame[prev];
    double u = span > 0 ? (t - v->bones.frame[prev]) / span : 0;
    const uint8_t *ip = v->bones.interpolation + 64 * next;
    for (int a = 0; a < 3; a++) {
        uint8_t c[4];
        pm_vmd_interp_unpack(ip, a, c);
        double y = pm_bezier_eval_mmd(c[0], c[1], c[2], c[3], (float)u);
        pos[a] = pa[a] + (pb[a] - pa[a]) * y;
    }
    uint8_t c[4];
    pm_vmd_interp_unpack(ip, 3, c);
    double y = pm_bezier_eval_mmd(c[0], c[1], c[2], c[3], (float)u);
    double qb[4] = {qb0[0], qb0[1], qb0[2], qb0[3]};
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    if (d < 0) {
        for (int i = 0; i < 4; i++) qb[i] = -qb[i];
        d = -d;
    }
    double wa = 1 - y, wb = y;
    if (d < 0.9999) {
        double th = acos(d);
        wa = sin((1 - y) * th) / sin(th), wb = sin(y * th) / sin(th);
    }
    double len = 0;
    for (int i = 0; i < 4; i++) q[i] = wa * qa[i] + wb * qb[i], len += q[i] * q[i];
    len = sqrt(len);
    for (int i = 0; i < 4; i++) q[i] /= len;
    return true;
}

static void qrot(const double q[4], const double v[3], double out[3]) {
    double tx = 2 * (q[1] * v[2] - q[2] * v[1]), ty = 2 * (q[2] * v[0] - q[0] * v[2]), tz = 2 * (q[0] * v[1] - q[1] * v[0]);
    out[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    out[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    out[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

static double qangle(const double a[4], const double b[4]) {
    double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    return 2 * acos(d > 1 ? 1 : d);
}

/* The standard figure's leg IK rest positions and foot pivots (NOTES.md; the generator's defaults). */
static const double IK_REST[2][3] = {{0.875, 1.34, 0}, {-0.875, 1.34, 0}};
static const double HEEL[3] = {0, -1.34, 0.25 * 2.409}, BALL[3] = {0, -1.34, -2.409};
static const char *const IK_NAME[2] = {"左足ＩＫ", "右足ＩＫ"};

/* World position of a foot point (heel or ball) of side s at time t. */
static void foot_point(const pm_vmd *v, int s, double t, const double rel[3], double out[3]) {
    double pos[3], q[4], r[3];
    eval_bone(v, IK_NAME[s], t, pos, q);
    qrot(q, rel, r);
    for (int a = 0; a < 3; a++) out[a] = IK_REST[s][a] + pos[a] + r[a];
}

static pm_vmd *generate(const pm_catwalk_params *p, const pm_target_model *m, pm_catwalk_info *info) {
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_catwalk_generate(p, m, &v, info, &err), &err);
    return v;
}

/* The bones the landing keys by FK (the legs below the hips). */
static bool landed_leg_bone(const char *name) {
    static const char *const legs[] = {"左足", "左ひざ", "左足首", "右足", "右ひざ", "右足首"};
    for (size_t i = 0; i < sizeof legs / sizeof legs[0]; i++)
        if (strcmp(name, legs[i]) == 0) return true;
    return false;
}

static bool all_finite(const pm_vmd *v) {
    for (uint32_t i = 0; i < v->bones.count * 3; i++)
        if (!isfinite(v->bones.position[i])) return false;
    for (uint32_t i = 0; i < v->bones.count * 4; i++)
        if (!isfinite(v->bones.rotation[i])) return false;
    for (uint32_t i = 0; i < v->morphs.count; i++)
        if (!isfinite(v->morphs.weight[i])) return false;
    return true;
}

/* ---- loop and timing ------------------------------------------------------------------------------ */

PM_TEST(the_info_json_powers_of_ten_are_libm_pow) {
    for (int n = -32; n <= 51; n++) PM_CHECK_MSG(pmi_catwalk_pow10(n) == pow(10.0, n), "10^%d differs from pow", n);
    PM_CHECK(pmi_catwalk_pow10(-33) == 0 && pmi_catwalk_pow10(52) == 0);
}

PM_TEST(default_loop_closes_on_every_channel) {
    const char *morphs[] = {"まばたき", "微笑み", "あ"};
    pm_target_model m = {0};
    m.morph_names = morphs;
    m.morph_count = 3;
    pm_catwalk_params variants[3];
    memset(variants, 0, sizeof variants);
    variants[1].u_turn = true;
    variants[2].traverse = true, variants[2].bpm = 128, variants[2].cadence = PM_CATWALK_CADENCE_BEAT;
    for (int vi = 0; vi < 3; vi++) {
        pm_catwalk_info info;
        pm_vmd *v = generate(&variants[vi], &m, &info);
        if (!v) return;
        PM_CHECK(all_finite(v));
        /* the catwalk's own channels are fitted sparsely; the legs the landing pre-poses (足, ひざ, 足首) carry
         * up to a key per frame (procmotion/landing.h) */
        uint32_t fitted = 0, legs = 0;
        for (uint32_t k = 0; k < v->bones.count; k++)
            if (landed_leg_bone(v->bone_names.items[v->bones.name_index[k]].data)) legs++;
            else fitted++;
        PM_CHECK(info.key_count == fitted + legs);
        PM_CHECK_MSG(fitted > 0 && fitted < (info.loop_frames + 1) * info.used_count / 3, "%u fitted keys", fitted);
        PM_CHECK_MSG(legs > 0 && legs <= 6 * (info.loop_frames + 1), "%u leg keys", legs);
        for (uint32_t b = 0; b < v->bone_names.count; b++) {
            const char *name = v->bone_names.items[b].data;
            double p0[3], q0[4], p1[3], q1[4];
            eval_bone(v, name, 0, p0, q0);
            eval_bone(v, name, info.loop_frames, p1, q1);
            for (int a = 0; a < 3; a++) PM_CHECK_MSG(p0[a] == p1[a], "%s axis %d: %g at 0, %g at the end", name, a, p0[a], p1[a]);
            PM_CHECK_MSG(qangle(q0, q1) < 1e-6, "%s rotation differs across the loop by %g rad", name, qangle(q0, q1));
            /* and the last key sits exactly on loop_frames */
            uint32_t last = 0;
            for (uint32_t k = 0; k < v->bones.count; k++)
                if (v->bones.name_index[k] == b && v->bones.frame[k] > last) last = v->bones.frame[k];
            PM_CHECK_EQ_INT(last, info.loop_frames);
        }
        for (uint32_t mi = 0; mi < v->morph_names.count; mi++) {
            float first = -1, lastw = -1;
            uint32_t lastf = 0;
            for (uint32_t k = 0; k < v->morphs.count; k++) {
                if (v->morphs.name_index[k] != mi) continue;
                if (v->morphs.frame[k] == 0) first = v->morphs.weight[k];
                if (v->morphs.frame[k] >= lastf) lastf = v->morphs.frame[k], lastw = v->morphs.weight[k];
            }
            PM_CHECK_EQ_INT(lastf, info.loop_frames);
            PM_CHECK(first == lastw);
        }
        pm_vmd_free(v);
    }
}

PM_TEST(property_key_turns_leg_ik_on_at_frame_0) {
    pm_catwalk_info info;
    pm_vmd *v = generate(NULL, NULL, &info);
    if (!v) return;
    PM_CHECK_EQ_INT(v->properties.count, 1);
    PM_CHECK_EQ_INT(v->properties.frame[0], 0);
    PM_CHECK_EQ_INT(v->properties.ik_count, 4);
    for (uint32_t i = 0; i < v->properties.ik_count; i++) PM_CHECK(v->properties.ik_enabled[i] == 1);
    PM_CHECK_STR(v->ik_names.items[v->properties.ik_name_index[0]].data, "左足ＩＫ");
    PM_CHECK_STR(v->ik_names.items[v->properties.ik_name_index[3]].data, "右つま先ＩＫ");
    pm_vmd_free(v);
}

/* Heel strikes: integer frames at which a heel touches the floor after being clearly above it. */
static int heel_strikes(const pm_vmd *v, int s, uint32_t frames, uint32_t *out, int cap) {
    int n = 0;
    double prev = 1;
    for (uint32_t f = 0; f <= frames; f++) {
        double h[3];
        foot_point(v, s, f, HEEL, h);
        if (h[1] <= 1e-4 && prev > 0.02 && n < cap) out[n++] = f;
        prev = h[1];
    }
    return n;
}

PM_TEST(heel_strikes_land_within_half_a_frame_of_the_beats) {
    const float bpms[] = {60, 128, 200, 97.3f};
    for (int bi = 0; bi < 4; bi++)
        for (int cad = PM_CATWALK_CADENCE_BEAT; cad <= PM_CATWALK_CADENCE_TWO_BEAT; cad++) {
            pm_catwalk_params p = {0};
            p.bpm = bpms[bi];
            p.cadence = (pm_catwalk_cadence)cad;
            pm_catwalk_info info;
            pm_vmd *v = generate(&p, NULL, &info);
            if (!v) return;
            double beat = 1800.0 / bpms[bi], step = beat * (cad == PM_CATWALK_CADENCE_BEAT ? 1 : 2);
            PM_CHECK_NEAR(info.beat_frames, beat, 1e-4);
            PM_CHECK_NEAR(info.step_frames, step, 1e-4);
            PM_CHECK_EQ_INT(info.steps % 8, 0);
            PM_CHECK_EQ_INT(info.loop_frames, (uint32_t)llround(info.steps * step));
            PM_CHECK_MSG(info.drift_frames_per_minute < 1.0, "%g BPM drifts %g frames per minute", bpms[bi],
                         info.drift_frames_per_minute);
            int total = 0;
            for (int s = 0; s < 2; s++) {
                uint32_t f[1024];
                int n = heel_strikes(v, s, info.loop_frames - 1, f, 1024);
                PM_CHECK_MSG(n == (int)info.steps / 2, "%g BPM cadence %d side %d: %d strikes, %u expected", bpms[bi], cad,
                             s, n, info.steps / 2);
                for (int i = 0; i < n; i++) {
                    double k = round(f[i] / step); /* the beat this strike belongs to */
                    PM_CHECK_MSG(fabs(f[i] - k * step) <= 0.5 + 1e-9, "%g BPM: strike at %u, beat at %g", bpms[bi], f[i],
                                 k * step);
                    PM_CHECK_MSG(((long)k & 1) == s, "step %g lands with the wrong foot", k); /* left on even steps */
                }
                total += n;
            }
            PM_CHECK_EQ_INT(total, (int)info.steps);
            pm_vmd_free(v);
        }
}

PM_TEST(loop_length_drifts_less_than_a_frame_per_minute) {
    for (double bpm = 60; bpm <= 200; bpm += 0.7) {
        pm_catwalk_params p = {0};
        p.bpm = (float)bpm;
        pm_catwalk_info info;
        pm_vmd *v = generate(&p, NULL, &info);
        if (!v) return;
        double step = 1800.0 / p.bpm * 2, exact = info.steps * step;
        double drift = fabs(info.loop_frames - exact) / exact * 1800.0;
        PM_CHECK_MSG(drift < 1.0, "%g BPM: %u frames for %u steps of %g drifts %g frames per minute", bpm, info.loop_frames,
                     info.steps, step, drift);
        PM_CHECK_NEAR(info.drift_frames_per_minute, drift, 1e-9);
        PM_CHECK(info.loop_frames <= 7200);
        pm_vmd_free(v);
    }
}

/* ---- feet and body -------------------------------------------------------------------------------- */

/* Over every run of samples where a foot is flat on the floor (heel and ball down), the leg IK target
 * must not move; returns the worst movement and counts the runs. */
static double flat_slide(const pm_vmd *v, int s, uint32_t frames, int *runs) {
    double worst = 0, anchor[3] = {0};
    bool in_run = false;
    *runs = 0;
    for (uint32_t i = 0; i <= frames * 10; i++) {
        double t = i / 10.0, h[3], b[3], pos[3], q[4];
        foot_point(v, s, t, HEEL, h);
        foot_point(v, s, t, BALL, b);
        eval_bone(v, IK_NAME[s], t, pos, q);
        bool flat = fabs(h[1]) < 1e-6 && fabs(b[1]) < 1e-6;
        if (flat && !in_run) memcpy(anchor, pos, sizeof anchor), (*runs)++;
        if (flat)
            for (int a = 0; a < 3; a++) worst = fmax(worst, fabs(pos[a] - anchor[a]));
        in_run = flat;
    }
    return worst;
}

PM_TEST(traverse_keeps_planted_feet_fixed_and_comes_back) {
    for (int u = 0; u < 2; u++) {
        pm_catwalk_params p = {0};
        p.traverse = true;
        p.u_turn = u;
        pm_catwalk_info info;
        pm_vmd *v = generate(&p, NULL, &info);
        if (!v) return;
        PM_CHECK(info.traverse_distance > 10);
        for (int s = 0; s < 2; s++) {
            int runs;
            double slide = flat_slide(v, s, info.loop_frames, &runs);
            PM_CHECK_MSG(slide <= 1e-3, "u_turn %d side %d: a planted foot slides %g", u, s, slide);
            PM_CHECK_MSG(runs >= (int)info.steps / 2 - 1, "u_turn %d side %d: only %d flat runs", u, s, runs);
        }
        /* the body walks out along -Z (the facing direction) by the traverse distance and back */
        double zmin = 0, pos[3], q[4];
        for (uint32_t f = 0; f <= info.loop_frames; f++) {
            eval_bone(v, "センター", f, pos, q);
            zmin = fmin(zmin, pos[2]);
        }
        PM_CHECK_NEAR(zmin, -info.traverse_distance, 1e-3);
        eval_bone(v, "センター", info.loop_frames, pos, q);
        PM_CHECK_NEAR(pos[2], 0, 1e-6);
        if (u) {
            /* half way round the loop the body faces +Z: yaw pi */
            eval_bone(v, "センター", info.loop_frames / 2.0 + 0.5 * info.step_frames, pos, q);
            double fwd[3] = {0, 0, -1}, r[3];
            qrot(q, fwd, r);
            PM_CHECK_MSG(r[2] > 0.99, "facing %g %g %g half way through the U-turn loop", r[0], r[1], r[2]);
        }
        pm_vmd_free(v);
    }
}

PM_TEST(in_place_has_no_net_root_motion_and_the_stance_foot_slides_back) {
    pm_catwalk_info info;
    pm_vmd *v = generate(NULL, NULL, &info);
    if (!v) return;
    double sum_z = 0, pos[3], q[4];
    int n = 0;
    for (uint32_t f = 0; f <= info.loop_frames; f++, n++) {
        eval_bone(v, "センター", f, pos, q);
        PM_CHECK(fabs(pos[0]) < 1e-6 && fabs(pos[2]) < 1e-6);
        sum_z += pos[2];
    }
    PM_CHECK_NEAR(sum_z / n, 0, 1e-6);
    /* treadmill: while the left foot is flat its IK target moves backward (+Z) at the walking speed */
    uint32_t strikes[64];
    int ns = heel_strikes(v, 0, info.loop_frames, strikes, 64);
    PM_CHECK(ns >= 2);
    double a[3], b[3];
    double t0 = strikes[0] + 0.3 * info.step_frames, t1 = strikes[0] + 0.6 * info.step_frames;
    eval_bone(v, IK_NAME[0], t0, a, q);
    eval_bone(v, IK_NAME[0], t1, b, q);
    double speed = (b[2] - a[2]) / (t1 - t0);
    PM_CHECK_NEAR(speed, info.step_length / info.step_frames, 0.02 * info.step_length / info.step_frames);
    pm_vmd_free(v);
}

PM_TEST(hip_sway_and_pelvis_drop_follow_the_stance_side) {
    pm_catwalk_params p = {0};
    p.bpm = 128;
    pm_catwalk_info info;
    pm_vmd *v = generate(&p, NULL, &info);
    if (!v) return;
    /* played on the mannequin (the standard figure it was landed on) */
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    if (sk) {
        PM_CHECK_OK(pm_anim_bind(sk, v, NULL, &anim, &err), &err);
        PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
        PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    }
    const uint32_t hip[2] = {sk ? pm_skeleton_find(sk, "左足") : PM_NO_INDEX, sk ? pm_skeleton_find(sk, "右足") : PM_NO_INDEX};
    for (uint32_t k = 0; k < info.steps && anim && ws && pose; k++) {
        /* mid single support of step k's foot (left on even steps) */
        double t = (k + 0.6) * info.step_frames, pos[3], q[4];
        double side = (k & 1) ? -1 : 1;
        /* the hips' midpoint, as played, over the standing foot */
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, t, pose, NULL, &err), &err);
        double mid_x = 0.5 * (pm_pose_world_position(pose, hip[0]).x + pm_pose_world_position(pose, hip[1]).x);
        PM_CHECK_MSG(mid_x * side > 0.03 * info.leg_length, "step %u: the hips at x %g, on the wrong side", k, mid_x);
        /* the pelvis turns about the hips, so グルーブ carries the sway less the shift that turn gives */
        eval_bone(v, "グルーブ", t, pos, q);
        PM_CHECK_MSG(pos[0] * side > 0.001 * info.leg_length, "step %u: groove x %g on the wrong side", k, pos[0]);
        eval_bone(v, "下半身", t, pos, q);
        double x[3] = {1, 0, 0}, r[3];
        qrot(q, x, r); /* +X is the model's left hip: up when the left leg bears the weight */
        PM_CHECK_MSG(r[1] * side > 0.02, "step %u: pelvis roll %g on the wrong side", k, r[1]);
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_skeleton_free(sk);
    pm_vmd_free(v);
}

PM_TEST(feet_never_go_through_the_floor_and_swing_lifts) {
    pm_catwalk_params variants[3];
    memset(variants, 0, sizeof variants);
    variants[1].u_turn = true;
    variants[2].bpm = 200, variants[2].cadence = PM_CATWALK_CADENCE_BEAT, variants[2].step_height = PM_AMOUNT(1);
    for (int vi = 0; vi < 3; vi++) {
        pm_catwalk_info info;
        pm_vmd *v = generate(&variants[vi], NULL, &info);
        if (!v) return;
        for (int s = 0; s < 2; s++) {
            double lowest = 1e9, highest = -1e9;
            for (uint32_t i = 0; i <= info.loop_frames * 4; i++) {
                double h[3], b[3];
                foot_point(v, s, i / 4.0, HEEL, h);
                foot_point(v, s, i / 4.0, BALL, b);
                lowest = fmin(lowest, fmin(h[1], b[1]));
                highest = fmax(highest, fmin(h[1], b[1]));
            }
            PM_CHECK_MSG(lowest > -2 * info.params.position_tolerance, "variant %d side %d: foot at %g below the floor", vi, s,
                         lowest);
            PM_CHECK_MSG(highest > 0.5 * info.lift, "variant %d side %d: the foot rises only %g", vi, s, highest);
        }
        pm_vmd_free(v);
    }
}

/* ---- bones ---------------------------------------------------------------------------------------- */

PM_TEST(bones_resolve_by_candidates_and_missing_ones_are_reported) {
    /* half-width IK, an English name, and no グルーブ, 左ひじ or つま先ＩＫ */
    const char *names[] = {"全ての親", "center", "下半身", "上半身", "上半身2", "首", "頭", "左肩", "右肩", "左腕",
                           "右腕", "右ひじ", "左足IK", "右足IK", "左足", "右足"};
    pm_target_model m = {0};
    m.bone_names = names;
    m.bone_count = sizeof names / sizeof names[0];
    pm_catwalk_info info;
    pm_vmd *v = generate(NULL, &m, &info);
    if (!v) return;
    PM_CHECK(bone_keys(v, "center") > 2);
    PM_CHECK(bone_keys(v, "左足IK") > 2);
    PM_CHECK(bone_keys(v, "右ひじ") >= 2);
    PM_CHECK_EQ_INT(bone_keys(v, "グルーブ"), 0);
    PM_CHECK_EQ_INT(bone_keys(v, "左ひじ"), 0);
    PM_CHECK_EQ_INT(bone_keys(v, "全ての親"), 0);
    const char *missing[] = {"グルーブ", "左ひじ", "左手首", "右手首", "左つま先ＩＫ", "右つま先ＩＫ"};
    PM_CHECK_EQ_INT(info.missing_count, 6);
    for (int i = 0; i < 6 && i < (int)info.missing_count; i++) PM_CHECK_STR(info.missing[i], missing[i]);
    bool used_center = false;
    for (uint32_t i = 0; i < info.used_count; i++) used_center |= strcmp(info.used[i], "center") == 0;
    PM_CHECK(used_center);
    /* without グルーブ the hip sway moves センター sideways, as グルーブ moves on the same model with one */
    const char *grooved[sizeof names / sizeof names[0] + 1];
    memcpy(grooved, names, sizeof names);
    grooved[sizeof names / sizeof names[0]] = "グルーブ";
    pm_target_model mg = m;
    mg.bone_names = grooved;
    mg.bone_count = m.bone_count + 1;
    pm_catwalk_info ig;
    pm_vmd *vg = generate(NULL, &mg, &ig);
    double pos[3], q[4], gpos[3], most = 0, apart = 0;
    for (uint32_t f = 0; vg && f <= info.loop_frames; f++) {
        eval_bone(v, "center", f, pos, q);
        eval_bone(vg, "グルーブ", f, gpos, q);
        most = fmax(most, fabs(pos[0]));
        apart = fmax(apart, fabs(pos[0] - gpos[0]));
    }
    PM_CHECK(vg && most > 0.001 * info.leg_length);
    PM_CHECK_MSG(apart <= 2 * info.params.position_tolerance, "センター and グルーブ %g apart", apart);
    pm_vmd_free(vg);
    /* the property key names the IK bones as the model spells them */
    PM_CHECK_EQ_INT(v->properties.ik_count, 2);
    PM_CHECK_STR(v->ik_names.items[0].data, "左足IK");
    pm_vmd_free(v);

    /* a model without any known bone: no bone keys at all, everything reported */
    const char *none[] = {"foo", "bar"};
    m.bone_names = none;
    m.bone_count = 2;
    v = generate(NULL, &m, &info);
    if (!v) return;
    PM_CHECK_EQ_INT(v->bones.count, 0);
    PM_CHECK_EQ_INT(v->properties.count, 0);
    PM_CHECK_EQ_INT(info.missing_count, PM_CATWALK_BONE_COUNT - 1); /* all but 腰, which is only a fallback */
    pm_vmd_free(v);
}

PM_TEST(pelvis_falls_back_to_waist_and_the_torso_compensates) {
    const char *names[] = {"センター", "腰", "上半身", "左足ＩＫ", "右足ＩＫ"};
    pm_target_model m = {0};
    m.bone_names = names;
    m.bone_count = 5;
    pm_catwalk_info info;
    pm_vmd *v = generate(NULL, &m, &info);
    if (!v) return;
    PM_CHECK(bone_keys(v, "腰") > 2);
    bool lower_missing = false;
    for (uint32_t i = 0; i < info.missing_count; i++) lower_missing |= strcmp(info.missing[i], "下半身") == 0;
    PM_CHECK(lower_missing);
    pm_vmd_free(v);
}

PM_TEST(skeleton_proportions_scale_the_walk) {
    /* the standard figure at twice its size: leg length, step and lift double */
    static const char *names[] = {"センター", "グルーブ", "下半身", "左足", "右足", "左ひざ", "右ひざ", "左足首", "右足首",
                                  "左足ＩＫ", "右足ＩＫ", "左つま先", "右つま先"};
    static const float xyz[][3] = {{0, 8, 0}, {0, 8.2f, 0}, {0, 13.243f, -0.255f}, {0.797f, 10.753f, -0.073f},
                                   {-0.797f, 10.753f, -0.073f}, {0.684f, 5.984f, -0.817f}, {-0.684f, 5.984f, -0.817f},
                                   {0.874f, 1.470f, -0.001f}, {-0.874f, 1.470f, -0.001f}, {0.875f, 1.34f, 0},
                                   {-0.875f, 1.34f, 0}, {0.927f, 0.033f, -2.409f}, {-0.927f, 0.033f, -2.409f}};
    pm_vec3 pos[13];
    for (int i = 0; i < 13; i++) pos[i] = pm_vec3_make(2 * xyz[i][0], 2 * xyz[i][1], 2 * xyz[i][2]);
    pm_target_model m = {0};
    m.bone_names = names;
    m.bone_count = 13;
    m.bone_positions = pos;
    pm_catwalk_info big, std;
    pm_vmd *a = generate(NULL, &m, &big), *b = generate(NULL, NULL, &std);
    if (!a || !b) return;
    PM_CHECK_NEAR(big.leg_length, 2 * std.leg_length, 1e-3);
    PM_CHECK_NEAR(big.step_length, 2 * std.step_length, 1e-3);
    PM_CHECK_NEAR(big.lift, 2 * std.lift, 1e-3);
    PM_CHECK_NEAR(std.leg_length, 9.419, 0.01);
    pm_vmd_free(a);
    pm_vmd_free(b);
}

/* The generator without its closing step (pmi_catwalk_generate with no table: the npm core's export):
 * a model by names (and rest positions) gives what pm_catwalk_generate_plan gives; what would land
 * (no model, no bone names, a skeleton) is refused with a message saying so, nothing allocated. */
PM_TEST(the_unlanded_entry_takes_names_and_refuses_what_would_land) {
    static const char *names[] = {"センター", "グルーブ", "下半身", "上半身", "左足ＩＫ", "右足ＩＫ", "左足", "左ひざ", "左足首"};
    static const char *morphs[] = {"まばたき"};
    pm_vec3 pos[9];
    for (int i = 0; i < 9; i++) pos[i] = pm_vec3_make(0.1f * (float)i, 12.0f - (float)i, 0);
    pm_target_model m = {0};
    m.bone_names = names;
    m.bone_count = 9;
    m.morph_names = morphs;
    m.morph_count = 1;
    pm_catwalk_params p = {0};
    p.bpm = 128;
    for (int with_positions = 0; with_positions < 2; with_positions++) {
        m.bone_positions = with_positions ? pos : NULL;
        pm_vmd *a = NULL, *b = NULL;
        pm_catwalk_info ia, ib;
        pm_catwalk_plan pa, pb;
        pm_error err = {0};
        PM_CHECK_OK(pm_catwalk_generate_plan(&p, &m, &a, &ia, &pa, &err), &err);
        PM_CHECK_OK(pmi_catwalk_generate(&p, &m, NULL, &b, &ib, &pb, &err), &err);
        size_t na = 0, nb = 0;
        PM_CHECK(a && b);
        if (a && b) PM_CHECK_OK(pm_vmd_write(a, NULL, 0, &na, &err), &err);
        if (a && b) PM_CHECK_OK(pm_vmd_write(b, NULL, 0, &nb, &err), &err);
        if (a && b && na && nb) {
            uint8_t *ba = malloc(na), *bb = malloc(nb);
            PM_CHECK_EQ_INT(na, nb);
            if (ba && bb && na == nb) {
                PM_CHECK_OK(pm_vmd_write(a, ba, na, &na, &err), &err);
                PM_CHECK_OK(pm_vmd_write(b, bb, nb, &nb, &err), &err);
                PM_CHECK(memcmp(ba, bb, na) == 0);
            }
            free(ba);
            free(bb);
            PM_CHECK(!ia.verified && !ib.verified);
            PM_CHECK_EQ_INT(ia.key_count, ib.key_count);
            PM_CHECK_EQ_INT(pa.frames, pb.frames);
            PM_CHECK_EQ_INT(pa.strike_count, pb.strike_count);
            PM_CHECK(pa.ankles && pb.ankles && memcmp(pa.ankles, pb.ankles, 6 * sizeof(float) * (pa.frames + 1)) == 0);
        }
        pm_catwalk_plan_free(&pa);
        pm_catwalk_plan_free(&pb);
        pm_vmd_free(a);
        pm_vmd_free(b);
    }
    /* what lands: no model; morphs without bone names (the standard figure); a skeleton */
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    pm_target_model only_morphs = {0}, with_skeleton = {0};
    only_morphs.morph_names = morphs;
    only_morphs.morph_count = 1;
    with_skeleton.skeleton = sk;
    const pm_target_model *lands[3] = {NULL, &only_morphs, &with_skeleton};
    const char *what[3] = {"standard figure", "standard figure", "skeleton"};
    for (int i = 0; i < 3; i++) {
        pm_vmd *v = (pm_vmd *)&err; /* set to NULL by the call */
        pm_catwalk_plan plan;
        pm_error e = {0};
        PM_CHECK_EQ_INT(pmi_catwalk_generate(&p, lands[i], NULL, &v, NULL, &plan, &e), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK(v == NULL && plan.ankles == NULL && plan.strikes == NULL);
        PM_CHECK_MSG(strstr(e.message, what[i]) && strstr(e.message, "landed"), "message: %s", e.message);
        /* the public entry lands the same calls */
        pm_catwalk_info info;
        PM_CHECK_OK(pm_catwalk_generate(&p, lands[i], &v, &info, &e), &e);
        PM_CHECK(info.verified);
        pm_vmd_free(v);
    }
    pm_skeleton_free(sk);
}

PM_TEST(blinks_and_expression_use_the_models_morphs) {
    const char *morphs[] = {"あ", "まばたき", "にやり"};
    pm_target_model m = {0};
    m.morph_names = morphs;
    m.morph_count = 3;
    pm_catwalk_params p = {0};
    p.bpm = 60; /* a long loop: several blinks */
    pm_catwalk_info info;
    pm_vmd *v = generate(&p, &m, &info);
    if (!v) return;
    PM_CHECK_STR(info.blink_morph, "まばたき");
    PM_CHECK_STR(info.expression_morph, "にやり");
    int closed = 0;
    for (uint32_t k = 0; k < v->morphs.count; k++) {
        const char *nm = v->morph_names.items[v->morphs.name_index[k]].data;
        if (strcmp(nm, "まばたき") == 0 && v->morphs.weight[k] == 1) closed++;
        if (strcmp(nm, "にやり") == 0) PM_CHECK_NEAR(v->morphs.weight[k], 0.25, 1e-6);
    }
    /* 2-6 s apart: a loop of info.loop_frames / 30 seconds holds about that many / 4 blinks (2 keys each) */
    double seconds = info.loop_frames / 30.0;
    PM_CHECK(closed / 2 >= (int)(seconds / 6) - 1 && closed / 2 <= (int)(seconds / 2) + 1);
    pm_vmd_free(v);
    p.blink = PM_AMOUNT(0);
    p.expression = PM_AMOUNT(0);
    v = generate(&p, &m, &info);
    if (!v) return;
    PM_CHECK_EQ_INT(v->morphs.count, 0);
    pm_vmd_free(v);
}

/* ---- on a real model, through the pose evaluator (babylon-mmd's semantics, its CCD IK) ----------- */

PM_TEST(on_yw_test_model_the_leg_ik_reaches_and_the_knees_bend_forward) {
    size_t size = 0;
    unsigned char *bytes = pm_test_read_fixture("pmx/yw_test_model/yw_test_model.pmx", &size);
    if (!bytes) return;
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_model_read(bytes, size, NULL, &sk, &err), &err);
    free(bytes);
    if (!sk) return;
    pm_target_model m = {0};
    m.skeleton = sk;
    uint32_t hip[2] = {pm_skeleton_find(sk, "左足"), pm_skeleton_find(sk, "右足")};
    uint32_t knee[2] = {pm_skeleton_find(sk, "左ひざ"), pm_skeleton_find(sk, "右ひざ")};
    uint32_t ankle[2] = {pm_skeleton_find(sk, "左足首"), pm_skeleton_find(sk, "右足首")};
    uint32_t ik[2] = {pm_skeleton_find(sk, "左足ＩＫ"), pm_skeleton_find(sk, "右足ＩＫ")};
    for (int variant = 0; variant < 3; variant++) {
        pm_catwalk_params p = {0};
        p.bpm = 128;
        p.traverse = variant == 1;
        p.u_turn = variant == 2;
        pm_catwalk_info info;
        pm_vmd *v = generate(&p, &m, &info);
        if (!v) break;
        PM_CHECK_EQ_INT(info.missing_count, 0);
        PM_CHECK_NEAR(info.leg_length, 10.1736, 1e-3);
        pm_anim *anim = NULL;
        pm_pose_workspace *ws = NULL;
        pm_pose *pose = NULL;
        PM_CHECK_OK(pm_anim_bind(sk, v, NULL, &anim, &err), &err);
        PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
        PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
        double miss = 0, ahead = 1e9, low = 1e9;
        for (uint32_t f = 0; anim && ws && pose && f <= info.loop_frames; f++) {
            PM_CHECK_OK(pm_pose_evaluate(anim, ws, f, pose, NULL, &err), &err);
            pm_vec3 hl = pm_pose_world_position(pose, hip[0]), hr = pm_pose_world_position(pose, hip[1]);
            double fx = hl.z - hr.z, fz = -(hl.x - hr.x), fl = sqrt(fx * fx + fz * fz); /* up x lateral */
            for (int s = 0; s < 2; s++) {
                pm_vec3 h = pm_pose_world_position(pose, hip[s]), k = pm_pose_world_position(pose, knee[s]);
                pm_vec3 a = pm_pose_world_position(pose, ankle[s]), t = pm_pose_world_position(pose, ik[s]);
                miss = fmax(miss, pm_vec3_distance(a, t));
                low = fmin(low, a.y - 1.329);
                double u = (h.y - k.y) / (h.y - a.y);
                double lx = h.x + (a.x - h.x) * u, lz = h.z + (a.z - h.z) * u;
                ahead = fmin(ahead, ((k.x - lx) * fx + (k.z - lz) * fz) / fl);
            }
        }
        printf("  variant %d: IK miss %.4f, knee ahead of the hip-ankle line >= %.3f, ankle low %.4f\n", variant, miss,
               ahead, low);
        PM_CHECK_MSG(miss < 0.05, "variant %d: the IK misses by %g", variant, miss);
        PM_CHECK_MSG(ahead > 0.05, "variant %d: a knee is not bent forward (%g)", variant, ahead);
        PM_CHECK_MSG(low > -0.05, "variant %d: an ankle sinks %g", variant, low);
        pm_pose_free(pose);
        pm_pose_workspace_free(ws);
        pm_anim_free(anim);
        pm_vmd_free(v);
    }
    pm_skeleton_free(sk);
}

PM_TEST(english_names_of_a_skeleton_count) {
    /* bones named only in English (Japanese names unknown): they resolve through name_en */
    static const char *const en[] = {"center", "groove", "lower body", "upper body", "leg IK_L", "leg IK_R"};
    pm_bone_desc d[6];
    memset(d, 0, sizeof d);
    for (int i = 0; i < 6; i++) {
        static char buf[6][16];
        snprintf(buf[i], sizeof buf[i], "bone%d", i);
        d[i].name = buf[i];
        d[i].name_en = en[i];
        d[i].position = pm_vec3_make(0, 8, 0);
        d[i].parent = PM_NO_INDEX;
    }
    d[4].position = pm_vec3_make(1, 1.3f, 0), d[5].position = pm_vec3_make(-1, 1.3f, 0);
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_skeleton_create(d, 6, NULL, 0, NULL, &sk, &err), &err);
    if (!sk) return;
    pm_target_model m = {0};
    m.skeleton = sk;
    pm_catwalk_info info;
    pm_vmd *v = generate(NULL, &m, &info);
    if (v) {
        PM_CHECK(bone_keys(v, "bone0") > 2); /* keyed under the model's (Japanese) name */
        PM_CHECK(bone_keys(v, "bone4") > 2);
        PM_CHECK_EQ_INT(info.used_count, 6);
        pm_vmd_free(v);
    }
    pm_skeleton_free(sk);
}

PM_TEST(extreme_parameters_and_odd_models_still_give_finite_closed_loops) {
    /* every amount at 0, then at 1, with each travel mode; and a model whose positions are degenerate */
    static const char *names[] = {"センター", "下半身", "左足", "右足", "左ひざ", "右ひざ", "左足首", "右足首", "左足ＩＫ", "右足ＩＫ"};
    pm_vec3 flat[10];
    for (int i = 0; i < 10; i++) flat[i] = pm_vec3_make(0, 0, 0); /* every bone at the origin */
    pm_vec3 odd[10];
    for (int i = 0; i < 10; i++) odd[i] = pm_vec3_make(i % 2 ? NAN : 1.0f, (float)i, INFINITY);
    pm_target_model models[3] = {{0}, {0}, {0}};
    for (int k = 1; k < 3; k++) models[k].bone_names = names, models[k].bone_count = 10;
    models[1].bone_positions = flat;
    models[2].bone_positions = odd;
    for (int mode = 0; mode < 3; mode++)
        for (int level = 0; level < 2; level++)
            for (int mi = 0; mi < 3; mi++) {
                pm_catwalk_params p;
                memset(&p, 0, sizeof p);
                pm_amount *amounts[] = {&p.hip_sway, &p.step_height, &p.stride, &p.cross_step, &p.hip_twist,
                                               &p.pelvis_drop, &p.torso_twist, &p.torso_sway, &p.lean,
                                               &p.head_follow, &p.toe_off, &p.heel_strike, &p.bob, &p.stance_knee,
                                               &p.arm_swing, &p.elbow_bend, &p.pose_shoulder, &p.pose_elbow, &p.blink,
                                               &p.expression};
                for (size_t a = 0; a < sizeof amounts / sizeof amounts[0]; a++) *amounts[a] = PM_AMOUNT(level);
                p.traverse = mode == 1;
                p.u_turn = mode == 2;
                p.traverse_distance = level ? 400 : 0;
                p.bpm = level ? 200 : 60;
                p.cadence = level ? PM_CATWALK_CADENCE_BEAT : PM_CATWALK_CADENCE_TWO_BEAT;
                pm_catwalk_info info;
                pm_vmd *v = generate(&p, mi ? &models[mi] : NULL, &info);
                if (!v) continue;
                PM_CHECK_MSG(all_finite(v), "mode %d level %d model %d: a non-finite value", mode, level, mi);
                PM_CHECK(info.loop_frames <= 7200 && info.loop_frames > 0);
                PM_CHECK(isfinite(info.crouch) && isfinite(info.step_length) && isfinite(info.max_position_error));
                for (uint32_t b = 0; b < v->bone_names.count; b++) {
                    double p0[3], q0[4], p1[3], q1[4];
                    eval_bone(v, v->bone_names.items[b].data, 0, p0, q0);
                    eval_bone(v, v->bone_names.items[b].data, info.loop_frames, p1, q1);
                    PM_CHECK(p0[0] == p1[0] && p0[1] == p1[1] && p0[2] == p1[2] && qangle(q0, q1) < 1e-6);
                }
                pm_vmd_free(v);
            }
}

/* ---- parameters ----------------------------------------------------------------------------------- */

PM_TEST(bad_parameters_are_rejected_naming_them) {
    pm_catwalk_params p = {0};
    pm_error err = {0};
    pm_vmd *v = NULL;
    p.hip_sway = PM_AMOUNT(NAN);
    PM_CHECK_EQ_INT(pm_catwalk_generate(&p, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "hip_sway") != NULL);
    PM_CHECK(v == NULL);
    memset(&p, 0, sizeof p);
    p.bpm = INFINITY;
    PM_CHECK_EQ_INT(pm_catwalk_generate(&p, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "bpm") != NULL);
    memset(&p, 0, sizeof p);
    p.rotation_tolerance = -INFINITY;
    PM_CHECK_EQ_INT(pm_catwalk_generate(&p, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "rotation_tolerance") != NULL);
    memset(&p, 0, sizeof p);
    p.cadence = (pm_catwalk_cadence)7;
    PM_CHECK_EQ_INT(pm_catwalk_generate(&p, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "cadence") != NULL);
    PM_CHECK_EQ_INT(pm_catwalk_generate(NULL, NULL, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    pm_target_model m = {0};
    m.bone_count = 3; /* but no names */
    PM_CHECK_EQ_INT(pm_catwalk_generate(NULL, &m, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
}

PM_TEST(out_of_range_amounts_fail_and_tempos_clamp) {
    /* an amount outside its range is refused, naming it, the value and the range */
    struct {
        pm_amount *field;
        float value;
        const char *message;
    } bad[4];
    pm_catwalk_params p = {0};
    bad[0].field = &p.hip_twist, bad[0].value = -0.5f, bad[0].message = "catwalk: hip_twist must be in [0, 1], got -0.5";
    bad[1].field = &p.hip_sway, bad[1].value = 5, bad[1].message = "catwalk: hip_sway must be in [0, 1], got 5";
    bad[2].field = &p.torso_twist, bad[2].value = -1.5f, bad[2].message = "catwalk: torso_twist must be in [-1, 1], got -1.5";
    bad[3].field = &p.pose_elbow, bad[3].value = 400, bad[3].message = "catwalk: pose_elbow must be in [0, 150], got 400";
    for (int i = 0; i < 4; i++) {
        memset(&p, 0, sizeof p);
        *bad[i].field = PM_AMOUNT(bad[i].value);
        pm_error err = {0};
        pm_vmd *out = NULL;
        PM_CHECK_EQ_INT(pm_catwalk_generate(&p, NULL, &out, NULL, &err), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_STR(err.message, bad[i].message);
        PM_CHECK(out == NULL);
    }
    memset(&p, 0, sizeof p);
    p.bpm = 500;
    p.speed = 100;
    p.traverse_distance = -5;
    p.torso_twist = PM_AMOUNT(-1);
    pm_catwalk_info info;
    pm_vmd *v = generate(&p, NULL, &info);
    if (!v) return;
    PM_CHECK_NEAR(info.params.bpm, 200, 0);
    PM_CHECK_NEAR(info.bpm, 200, 0);
    PM_CHECK_NEAR(info.params.torso_twist.value, -1, 0);
    PM_CHECK_NEAR(info.params.traverse_distance, 0, 0);
    PM_CHECK(info.params.stride.set && info.params.stride.value == 0.5f); /* defaults filled in */
    PM_CHECK_EQ_INT(info.params.cadence, PM_CATWALK_CADENCE_TWO_BEAT);
    pm_vmd_free(v);
    memset(&p, 0, sizeof p);
    p.bpm = 12;
    v = generate(&p, NULL, &info);
    if (!v) return;
    PM_CHECK_NEAR(info.bpm, 60, 0);
    pm_vmd_free(v);
    /* u_turn implies traverse; no BPM: 120 BPM times speed */
    memset(&p, 0, sizeof p);
    p.u_turn = true;
    p.speed = 1.5f;
    v = generate(&p, NULL, &info);
    if (!v) return;
    PM_CHECK(info.params.traverse);
    PM_CHECK_NEAR(info.bpm, 180, 1e-4);
    PM_CHECK(info.steps >= 16);
    pm_vmd_free(v);
}

PM_TEST(json_parameters_parse_and_reject_with_the_key_named) {
    pm_catwalk_params p;
    pm_error err = {0};
    const char *ok = "{\"hipSway\":0.8,\"stepCadence\":\"beat\",\"armPose\":\"posed\",\"uTurn\":true,\"bpm\":null,"
                     "\"poseArmAngle\":{\"shoulder\":60,\"elbow\":45},\"seed\":7,\"speed\":0,\"traverseDistance\":0}";
    PM_CHECK_OK(pm_catwalk_params_from_json(ok, strlen(ok), &p, &err), &err);
    PM_CHECK(p.hip_sway.set && fabsf(p.hip_sway.value - 0.8f) < 1e-6f);
    PM_CHECK_EQ_INT(p.cadence, PM_CATWALK_CADENCE_BEAT);
    PM_CHECK_EQ_INT(p.arm_pose, PM_CATWALK_ARMS_POSED);
    PM_CHECK(p.u_turn && !p.traverse);
    PM_CHECK(p.bpm == 0);
    PM_CHECK(p.pose_shoulder.value == 60 && p.pose_elbow.value == 45);
    PM_CHECK_EQ_INT(p.seed, 7);
    PM_CHECK(p.speed == 0.5f);         /* an explicit 0 is a value: it clamps up */
    PM_CHECK(p.traverse_distance == 0); /* except where 0 means automatic */
    const char *bad[][2] = {
        {"{\"hipSwya\":1}", "hipSwya"},          {"{\"hipSway\":\"a lot\"}", "hipSway"},
        {"{\"stepCadence\":\"3beat\"}", "stepCadence"}, {"{\"traverse\":1}", "traverse"},
        {"{\"poseArmAngle\":{\"knee\":3}}", "knee"}, {"[1,2]", "object"},
        {"{\"seed\":-1}", "seed"},               {"{", "JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&err, 0, sizeof err);
        PM_CHECK_EQ_INT(pm_catwalk_params_from_json(bad[i][0], strlen(bad[i][0]), &p, &err), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_MSG(strstr(err.message, bad[i][1]) != NULL, "'%s' -> '%s'", bad[i][0], err.message);
    }
}

/* The ABI's parameter block sets each field with pmi_catwalk_param_set, the JSON reader's own check:
 * the same values and the same messages, field by field (the JSON names in pmi_catwalk_field order). */
PM_TEST(one_value_sets_and_fails_as_its_json_key) {
    static const char *const names[PMI_CW_FIELD_COUNT] = {
        "hipSway", "stepHeight", "stride", "crossStep", "hipTwist", "pelvisDrop", "torsoTwist", "torsoSway",
        "lean", "headFollow", "toeOff", "heelStrike", "bob", "stanceKnee", "armSwing", "elbowBend", "poseShoulder",
        "poseElbow", "blink", "expression", "speed", "traverseDistance", "positionTolerance",
        "rotationTolerance", "bpm", "stepCadence", "armPose", "style", "traverse", "uTurn", "seed"};
    char json[128];
    for (int f = 0; f < PMI_CW_FIELD_COUNT; f++) {
        bool choice = f == PMI_CW_STEP_CADENCE || f == PMI_CW_ARM_POSE || f == PMI_CW_STYLE,
             flag = f == PMI_CW_TRAVERSE || f == PMI_CW_U_TURN, amount = f < PMI_CW_SPEED;
        /* good values: as JSON and as a number, the same parameters bit for bit (amounts: within
         * every amount's range) */
        const char *texts[4] = {"0.3", "0", "1e300", "-2.5"}, *amount_texts[4] = {"0.3", "0", "1", "0.75"};
        const double numbers[4] = {0.3, 0, 1e300, -2.5}, amount_numbers[4] = {0.3, 0, 1, 0.75};
        const char *choice_texts[3][2] = {{"\"beat\"", "\"2beat\""}, {"\"swing\"", "\"posed\""}, {"\"runway\"", "\"casual\""}};
        for (int k = 0; k < 4; k++) {
            const char *text = amount ? amount_texts[k] : texts[k];
            double v = amount ? amount_numbers[k] : numbers[k];
            if (choice) {
                if (k > 1) break;
                int which = f == PMI_CW_STEP_CADENCE ? 0 : f == PMI_CW_ARM_POSE ? 1 : 2;
                text = choice_texts[which][k], v = which == 2 ? 1 + 2 * k : k + 1;
            } else if (flag) {
                if (k > 1) break;
                text = k ? "true" : "false", v = k ? 1 : 0;
            } else if (f == PMI_CW_SEED) {
                if (k > 1) break;
                text = k ? "4294967295" : "7", v = k ? 4294967295.0 : 7;
            }
            pm_catwalk_params a, b;
            memset(&b, 0, sizeof b);
            pm_error err = {0};
            snprintf(json, sizeof json, "{\"%s\":%s}", names[f], text);
            PM_CHECK_OK(pm_catwalk_params_from_json(json, strlen(json), &a, &err), &err);
            PM_CHECK_OK(pmi_catwalk_param_set(&b, (pmi_catwalk_field)f, v, NULL, &err), &err);
            PM_CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "%s: JSON %s and the number %g differ", names[f], text, v);
        }
        /* bad values: the JSON reader's message */
        const char *bad_text = choice ? "\"3beat\"" : flag ? "1.5" : f == PMI_CW_SEED ? "-1" : "1e999";
        double bad = choice ? (f == PMI_CW_STYLE ? 5 : 3) : flag ? 2 : f == PMI_CW_SEED ? -1 : INFINITY;
        pm_catwalk_params a, b;
        memset(&b, 0, sizeof b);
        pm_error ej = {0}, eb = {0};
        snprintf(json, sizeof json, "{\"%s\":%s}", names[f], bad_text);
        PM_CHECK_EQ_INT(pm_catwalk_params_from_json(json, strlen(json), &a, &ej), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_EQ_INT(pmi_catwalk_param_set(&b, (pmi_catwalk_field)f, bad, NULL, &eb), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_STR(eb.message, ej.message);
        PM_CHECK_MSG(strstr(eb.message, names[f]) != NULL, "%s: '%s'", names[f], eb.message);
        memset(&eb, 0, sizeof eb);
        PM_CHECK_EQ_INT(pmi_catwalk_param_set(&b, (pmi_catwalk_field)f, NAN, NULL, &eb), PM_ERR_INVALID_ARGUMENT);
        snprintf(json, sizeof json, "catwalk: %s must be a finite number, got nan", names[f]);
        PM_CHECK_STR(eb.message, json);
    }
    /* poseArmAngle's numbers are the two pose fields, named as JSON names them */
    pm_catwalk_params a, b;
    memset(&b, 0, sizeof b);
    pm_error err = {0};
    const char *arms = "{\"poseArmAngle\":[61.5,12]}";
    PM_CHECK_OK(pm_catwalk_params_from_json(arms, strlen(arms), &a, &err), &err);
    PM_CHECK_OK(pmi_catwalk_param_set(&b, PMI_CW_POSE_SHOULDER, 61.5, "poseArmAngle.shoulder", &err), &err);
    PM_CHECK_OK(pmi_catwalk_param_set(&b, PMI_CW_POSE_ELBOW, 12, "poseArmAngle.elbow", &err), &err);
    PM_CHECK(memcmp(&a, &b, sizeof a) == 0);
    PM_CHECK_EQ_INT(pmi_catwalk_param_set(&b, PMI_CW_FIELD_COUNT, 1, NULL, &err), PM_ERR_INVALID_ARGUMENT);
}

/* ---- key fitting ---------------------------------------------------------------------------------- */

PM_TEST(fitted_keys_stay_within_the_stated_tolerance) {
    /* against a reference fitted 20 times tighter, every 0.1 frame, on every channel */
    pm_catwalk_params p = {0}, fine = {0};
    p.bpm = fine.bpm = 128;
    p.u_turn = fine.u_turn = true;
    fine.position_tolerance = 0.0005f;
    fine.rotation_tolerance = 0.01f;
    pm_catwalk_info info, info_fine;
    pm_vmd *v = generate(&p, NULL, &info), *ref = generate(&fine, NULL, &info_fine);
    if (!v || !ref) return;
    PM_CHECK(info.max_position_error <= 0.01 + 1e-9);
    PM_CHECK(info.max_rotation_error <= 0.2 + 1e-9);
    PM_CHECK(info_fine.key_count > info.key_count);
    double worst_p = 0, worst_r = 0;
    for (uint32_t b = 0; b < v->bone_names.count; b++) {
        const char *name = v->bone_names.items[b].data;
        /* the legs are solved on the played pose (landing.h), not fitted to the continuous motion: they
         * follow the pelvis the other channels' keys give, so they are not compared here */
        if (landed_leg_bone(name)) continue;
        for (uint32_t i = 0; i <= info.loop_frames * 10; i++) {
            double pa[3], qa[4], pb[3], qb[4];
            eval_bone(v, name, i / 10.0, pa, qa);
            eval_bone(ref, name, i / 10.0, pb, qb);
            for (int a = 0; a < 3; a++) worst_p = fmax(worst_p, fabs(pa[a] - pb[a]));
            worst_r = fmax(worst_r, qangle(qa, qb));
        }
    }
    worst_r /= PM_PI / 180;
    printf("  measured deviation: %.4f units, %.3f degrees (keys %u vs %u per-frame)\n", worst_p, worst_r, info.key_count,
           (info.loop_frames + 1) * v->bone_names.count);
    PM_CHECK_MSG(worst_p <= 0.01 * 1.25 + 0.0005, "position deviation %g", worst_p);
    PM_CHECK_MSG(worst_r <= 0.2 * 1.25 + 0.01, "rotation deviation %g deg", worst_r);
    pm_vmd_free(v);
    pm_vmd_free(ref);
}

PM_TEST(keyfit_follows_a_smooth_signal_with_few_keys) {
    enum { FRAMES = 240, PF = 2, N = FRAMES * PF + 1 };
    static double x[N], q[4 * N];
    for (int i = 0; i < N; i++) {
        double t = (double)i / PF;
        x[i] = 3 * sin(2 * PM_PI * t / 60) + 0.5 * sin(2 * PM_PI * t / 20);
        double a = 0.4 * sin(2 * PM_PI * t / 80);
        q[4 * i] = 0, q[4 * i + 1] = sin(a / 2), q[4 * i + 2] = 0, q[4 * i + 3] = cos(a / 2);
    }
    static pmi_keyfit_key keys[FRAMES + 1];
    pmi_keyfit_track t = {FRAMES, PF, {x, NULL, NULL}, q, NULL, 0.01, 0.2 * PM_PI / 180, 0};
    pmi_keyfit_result r;
    pm_error err = {0};
    pmi_keyfit *k = pmi_keyfit_create(NULL, FRAMES, PF, &err);
    PM_CHECK_OK(pmi_keyfit_track_fit(k, &t, keys, &r, &err), &err);
    pmi_keyfit_free(k);
    PM_CHECK(r.count < FRAMES / 4);
    PM_CHECK(r.max_pos_error <= 0.01 && r.max_rot_error <= 0.2 * PM_PI / 180);
    PM_CHECK_EQ_INT(keys[0].frame, 0);
    PM_CHECK_EQ_INT(keys[r.count - 1].frame, FRAMES);
    /* replay the keys every 0.05 frame against the signal */
    double worst = 0;
    for (uint32_t k = 1; k < r.count; k++)
        for (uint32_t f = keys[k - 1].frame * 20; f <= keys[k].frame * 20; f++) {
            double tt = f / 20.0, u = (tt - keys[k - 1].frame) / (keys[k].frame - keys[k - 1].frame);
            double y = pmi_keyfit_bezier(keys[k].curve[0], u);
            double v = keys[k - 1].pos[0] + (keys[k].pos[0] - keys[k - 1].pos[0]) * y;
            double truth = 3 * sin(2 * PM_PI * tt / 60) + 0.5 * sin(2 * PM_PI * tt / 20);
            worst = fmax(worst, fabs(v - truth));
        }
    PM_CHECK_MSG(worst < 0.0125, "between samples the curve strays %g", worst);
}

PM_TEST(keyfit_holds_still_runs_exactly) {
    enum { FRAMES = 60, PF = 2, N = FRAMES * PF + 1 };
    static double x[N];
    for (int i = 0; i < N; i++) {
        double t = (double)i / PF;
        x[i] = t < 20 ? sin(t / 5) : t < 40 ? sin(4.0) : sin(4.0) + (t - 40) * 0.1;
    }
    static pmi_keyfit_key keys[FRAMES + 1];
    pmi_keyfit_track t = {FRAMES, PF, {x, NULL, NULL}, NULL, NULL, 0.05, 0.01, 0};
    pmi_keyfit_result r;
    pm_error err = {0};
    pmi_keyfit *k = pmi_keyfit_create(NULL, FRAMES, PF, &err);
    PM_CHECK_OK(pmi_keyfit_track_fit(k, &t, keys, &r, &err), &err);
    pmi_keyfit_free(k);
    bool k20 = false, k40 = false;
    for (uint32_t k = 0; k < r.count; k++) k20 |= keys[k].frame == 20, k40 |= keys[k].frame == 40;
    PM_CHECK(k20 && k40);
}

int main(void) { return pm_test_run_all(); }
