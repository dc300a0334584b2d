/* The idle generator: a character standing at ease, sampled every half frame and fitted with VMD Bezier
 * keys, the feet landed and the body measured (see procmotion/idle.h). */
#include "idle/idle_internal.h"

#include "keyfit/keyfit.h"
#include "lifelike/figure.h"
#include "lifelike/signal.h"
#include "math/inline.h"
#include "procmotion/lifelike.h"

#include <math.h>
#include <stddef.h>

#define DEG (PM_PI / 180.0)

/* ---- bones -------------------------------------------------------------------------------------- */

enum {
    IB_CENTER, IB_GROOVE, IB_WAIST, IB_LOWER, IB_UPPER, IB_UPPER2, IB_NECK, IB_HEAD, IB_EYES, IB_EYE_L, IB_EYE_R,
    IB_SHOULDER_L, IB_SHOULDER_R, IB_ARM_L, IB_ARM_R, IB_ELBOW_L, IB_ELBOW_R, IB_WRIST_L, IB_WRIST_R, IB_LEG_IK_L,
    IB_LEG_IK_R,
    IB_COUNT,
    IG_TOE_IK_L = IB_COUNT, IG_TOE_IK_R, IG_HIP_L, IG_HIP_R, IG_KNEE_L, IG_KNEE_R, IG_ANKLE_L, IG_ANKLE_R, IG_TOE_L, IG_TOE_R,
    IDLE_BONES
};
_Static_assert(IB_COUNT == PM_IDLE_BONE_COUNT, "PM_IDLE_BONE_COUNT must match the bone table");

static const pmi_figure_bone BONES[IDLE_BONES] = {
    [IB_CENTER] = {"センター", PM_RIG_CENTER}, [IB_GROOVE] = {"グルーブ", PM_RIG_GROOVE}, [IB_WAIST] = {"腰", PM_RIG_WAIST},
    [IB_LOWER] = {"下半身", PM_RIG_LOWER_BODY}, [IB_UPPER] = {"上半身", PM_RIG_UPPER_BODY},
    [IB_UPPER2] = {"上半身2", PM_RIG_UPPER_BODY2}, [IB_NECK] = {"首", PM_RIG_NECK}, [IB_HEAD] = {"頭", PM_RIG_HEAD},
    [IB_EYES] = {"両目", PM_RIG_EYES}, [IB_EYE_L] = {"左目", PM_RIG_LEFT_EYE}, [IB_EYE_R] = {"右目", PM_RIG_RIGHT_EYE},
    [IB_SHOULDER_L] = {"左肩", PM_RIG_LEFT_SHOULDER}, [IB_SHOULDER_R] = {"右肩", PM_RIG_RIGHT_SHOULDER},
    [IB_ARM_L] = {"左腕", PM_RIG_LEFT_ARM}, [IB_ARM_R] = {"右腕", PM_RIG_RIGHT_ARM},
    [IB_ELBOW_L] = {"左ひじ", PM_RIG_LEFT_ELBOW}, [IB_ELBOW_R] = {"右ひじ", PM_RIG_RIGHT_ELBOW},
    [IB_WRIST_L] = {"左手首", PM_RIG_LEFT_WRIST}, [IB_WRIST_R] = {"右手首", PM_RIG_RIGHT_WRIST},
    [IB_LEG_IK_L] = {"左足ＩＫ", PM_RIG_LEFT_LEG_IK}, [IB_LEG_IK_R] = {"右足ＩＫ", PM_RIG_RIGHT_LEG_IK},
    [IG_TOE_IK_L] = {"左つま先ＩＫ", PM_RIG_LEFT_TOE_IK}, [IG_TOE_IK_R] = {"右つま先ＩＫ", PM_RIG_RIGHT_TOE_IK},
    [IG_HIP_L] = {"左足", PM_RIG_LEFT_LEG}, [IG_HIP_R] = {"右足", PM_RIG_RIGHT_LEG},
    [IG_KNEE_L] = {"左ひざ", PM_RIG_LEFT_KNEE}, [IG_KNEE_R] = {"右ひざ", PM_RIG_RIGHT_KNEE},
    [IG_ANKLE_L] = {"左足首", PM_RIG_LEFT_ANKLE}, [IG_ANKLE_R] = {"右足首", PM_RIG_RIGHT_ANKLE},
    [IG_TOE_L] = {"左つま先", PM_RIG_LEFT_TOE}, [IG_TOE_R] = {"右つま先", PM_RIG_RIGHT_TOE},
};

static bool has(const idle *g, int b) { return g->idx[b] != PM_NO_INDEX; }

/* ---- rotations ---------------------------------------------------------------------------------- */

static const pmi_dq DQ_ID = {0, 0, 0, 1};
#define dq_axis pmi_figure_rot
static pmi_dq dq_x(double a) { return dq_axis(1, 0, 0, a); }
static pmi_dq dq_y(double a) { return dq_axis(0, 1, 0, a); }
static pmi_dq dq_z(double a) { return dq_axis(0, 0, 1, a); }
/* yaw (Y), then pitch (X), then roll (Z), each about the parent's axes after the previous */
static pmi_dq dq_ypr(double yaw, double pitch, double roll) { return pmi_dq_mul(pmi_dq_mul(dq_y(yaw), dq_x(pitch)), dq_z(roll)); }
static pmi_dq dq_norm(pmi_dq q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 0 ? (pmi_dq){q.x / n, q.y / n, q.z / n, q.w / n} : DQ_ID;
}
static pmi_dq dq_slerp(pmi_dq a, pmi_dq b, double t) { return t <= 0 ? a : t >= 1 ? b : dq_norm(pmi_dq_slerp(a, b, t)); }
static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ---- schedules ---------------------------------------------------------------------------------- */

/* Streams of the seed's random numbers. */
enum { R_SHIFT = 101, R_SHIFT_HOLD, R_SHIFT_SIDE, R_DRIFT, R_LOOK, R_LOOK_HOLD, R_LOOK_AT, R_GESTURE, R_GESTURE_KIND, R_ARM };

static double rnd(const idle *g, uint32_t stream, int64_t i) { return pmi_uniform(g->p.seed, stream, i); }

/* Time t (frames) into the loop's schedule time: the grid's phase taken off, wrapped into [0, Lf). */
static double sched_time(const idle *g, double t) {
    double u = t - g->phase;
    u -= floor(u / g->Lf) * g->Lf;
    return u;
}

/* A cyclic sequence of values joined by minimum-jerk moves: segment k moves from value k - 1 to value k
 * over [start, start + move] and holds it until the next segment starts. */
static double seq_at(const idle_seq *s, uint32_t Lf, double u, int axis) {
    if (!s->count) return 0;
    /* the last segment that started at or before u (the one before the first wraps from the end) */
    uint32_t k = s->count - 1;
    for (uint32_t i = 0; i < s->count; i++)
        if (s->seg[i].start <= u) k = i;
    double start = s->seg[k].start;
    if (start > u) start -= Lf;
    double prev = s->seg[k ? k - 1 : s->count - 1].value[axis], cur = s->seg[k].value[axis];
    return prev + (cur - prev) * pmi_minjerk((u - start) / s->seg[k].move);
}

/* The weight (-1 right .. 1 left) at schedule time u. */
static double weight_at(const idle *g, double u) { return seq_at(&g->shifts, g->Lf, u, 0); }

/* Periodic noise over the loop: `cells` cells per loop. */
static double loop_noise(const idle *g, uint32_t stream, double t, int64_t cells) {
    return pmi_noise(g->p.seed, stream, t / g->Lf * (double)cells, cells);
}

/* The gesture envelope at schedule time u: 0 rest, 1 posed (reach and return eased). */
static double gesture_env(const idle *g, const idle_gesture *ge, double u) {
    double a = u - ge->start, len = ge->reach + ge->hold + ge->back;
    if (a < 0) a += g->Lf;
    if (a >= len) return 0;
    if (a < ge->reach) return pmi_minjerk(a / ge->reach);
    if (a < ge->reach + ge->hold) return 1;
    return 1 - pmi_minjerk((a - ge->reach - ge->hold) / ge->back);
}

/* How far into a gesture's hold (0 .. 1), for the small moves during it. */
static double gesture_hold_phase(const idle_gesture *ge, double u, double Lf) {
    double a = u - ge->start;
    if (a < 0) a += Lf;
    return clampd((a - ge->reach) / ge->hold, 0, 1);
}

/* ---- the pose at an instant --------------------------------------------------------------------- */

static double lagged_weight(const idle *g, double t, double lag_frames) { return weight_at(g, sched_time(g, t - lag_frames)); }

/* The head's look (yaw, pitch, roll in radians, in the world) at frame t, gestures included. */
static void look_at(const idle *g, double t, double out[3]) {
    double u = sched_time(g, t);
    out[0] = seq_at(&g->looks, g->Lf, u, 0);
    out[1] = seq_at(&g->looks, g->Lf, u, 1);
    out[2] = 0;
    for (uint32_t i = 0; i < g->gesture_count; i++) {
        const idle_gesture *ge = &g->gestures[i];
        double e = gesture_env(g, ge, u);
        if (e <= 0) continue;
        for (int k = 0; k < 3; k++) out[k] += (ge->head[k] - out[k]) * e;
    }
}

static void eval_pose(const idle *g, double t, idle_pose *o) {
    const double I = g->p.intensity.value;
    const double u = sched_time(g, t);
    /* the weight: the pelvis over the standing foot, the free hip dropped; the spine 0.15 s later */
    const double w = weight_at(g, u), w_spine = lagged_weight(g, t, 4.5), w_head = lagged_weight(g, t, 9);
    const double drift_x = 0.06 * loop_noise(g, R_DRIFT, t, g->drift_cells), drift_z = 0.08 * loop_noise(g, R_DRIFT + 50, t, g->drift_cells);
    const double sway = g->sway, roll = g->pelvis_roll;
    o->center = pmi_dv_make(sway * (w + drift_x), 0, sway * drift_z);
    o->pelvis = pmi_dq_mul(dq_y(0.3 * roll * w), dq_z(roll * w));
    /* the spine bends back over the feet and the shoulders tilt against the hips (contrapposto) */
    double bend = roll * w_spine * 1.1 + 0.25 * atan2(sway * w_spine, g->torso_h);
    /* breathing: a whole number of cycles per loop */
    const double breath = I * pmi_breath(t / g->breath_frames);
    pmi_dq upper = dq_z(bend);
    pmi_dq upper2 = pmi_dq_mul(dq_z(-bend - 0.6 * roll * w_spine), dq_x(2.0 * DEG * breath));
    /* stretch: the chest arches back with the arms up */
    double arch = 0;
    for (uint32_t i = 0; i < g->gesture_count; i++)
        if (g->gestures[i].kind == PM_IDLE_STRETCH) arch = fmax(arch, gesture_env(g, &g->gestures[i], u));
    upper2 = pmi_dq_mul(upper2, dq_x(5 * DEG * arch));
    if (!has(g, IB_UPPER2)) upper = pmi_dq_mul(upper, upper2);
    o->upper = g->pelvis_parents_upper ? pmi_dq_mul(pmi_dq_conj(o->pelvis), upper) : upper;
    o->upper2 = upper2;
    pmi_dq chest_world = has(g, IB_UPPER2) ? pmi_dq_mul(upper, upper2) : upper;
    /* the head: the look in the world (level whatever the body does, 0.3 s behind the hips), a slow
     * drift, split between neck and head */
    double look[3];
    look_at(g, t, look);
    double nod = 1.5 * DEG * I * loop_noise(g, R_LOOK + 40, t, g->drift_cells), tilt = 1.2 * DEG * I * loop_noise(g, R_LOOK + 41, t, g->drift_cells);
    pmi_dq head_world = dq_ypr(look[0], look[1] + nod, look[2] + tilt - 0.15 * roll * w_head);
    pmi_dq rel = pmi_dq_mul(pmi_dq_conj(chest_world), head_world); /* what neck and head add to the chest */
    bool both = has(g, IB_NECK) && has(g, IB_HEAD);
    pmi_dq half = both ? dq_slerp(DQ_ID, rel, 0.4) : rel;
    o->neck = half;
    o->head = both ? pmi_dq_mul(pmi_dq_conj(half), rel) : rel;
    /* the eyes go first: toward where the head will be 0.15 s later, what the head has not turned yet */
    double ahead[3];
    look_at(g, t + 4.5, ahead);
    o->eyes = dq_ypr(clampd(ahead[0] - look[0], -15 * DEG, 15 * DEG), clampd(ahead[1] - look[1], -10 * DEG, 10 * DEG), 0);
    /* shoulders: breathing, and a shrug with the stretch */
    for (int s = 0; s < 2; s++) {
        double sgn = s ? -1 : 1;
        o->shoulder[s] = dq_z(sgn * (1.2 * DEG * breath + 2 * DEG * arch));
    }
    /* arms: hang (partly against the chest's tilt, as if by gravity), drift, swing after a shift;
     * gestures blend toward their IK poses */
    pmi_dq chest_inv = dq_slerp(DQ_ID, pmi_dq_conj(chest_world), 0.7);
    for (int s = 0; s < 2; s++) {
        double sgn = s ? -1 : 1;
        double swing = g->pendulum ? g->pendulum[(size_t)s * g->pendulum_n + (size_t)clampd(floor(u * 2 + 0.5), 0, g->pendulum_n - 1)] : 0;
        double abduct = 1.5 * DEG * I * loop_noise(g, R_ARM + 4 * s, t, g->arm_cells) + swing;
        double fwd = 2.0 * DEG * I * loop_noise(g, R_ARM + 4 * s + 1, t, g->arm_cells);
        pmi_dq arm = pmi_dq_mul(pmi_dq_mul(chest_inv, pmi_dq_mul(dq_x(-fwd), dq_z(sgn * abduct))), g->hang[s]);
        pmi_dq elbow = pmi_dq_mul(dq_axis(g->elbow_axis[s].x, g->elbow_axis[s].y, g->elbow_axis[s].z,
                                          2.5 * DEG * I * loop_noise(g, R_ARM + 4 * s + 2, t, g->arm_cells)),
                                  g->hang_elbow[s]);
        pmi_dq wrist = dq_z(sgn * (-6 * DEG + 3 * DEG * I * loop_noise(g, R_ARM + 4 * s + 3, t, g->arm_cells)));
        for (uint32_t i = 0; i < g->gesture_count; i++) {
            const idle_gesture *ge = &g->gestures[i];
            if (!(ge->hands & (1u << s))) continue;
            double e = gesture_env(g, ge, u);
            if (e <= 0) continue;
            /* the hold moves the hand a little: stroking the hair, tugging the clothes */
            double ph = gesture_hold_phase(ge, u, g->Lf);
            double wob = ge->kind == PM_IDLE_TOUCH_HAIR || ge->kind == PM_IDLE_ADJUST_CLOTHES ? sin(2 * PM_PI * ph * ge->strokes) : 0;
            pmi_dq ga = dq_slerp(ge->arm[s][0], ge->arm[s][1], 0.5 - 0.5 * wob);
            pmi_dq gel = dq_slerp(ge->elbow[s][0], ge->elbow[s][1], 0.5 - 0.5 * wob);
            arm = dq_slerp(arm, ga, e);
            elbow = dq_slerp(elbow, gel, e);
            wrist = dq_slerp(wrist, DQ_ID, e);
        }
        o->arm[s] = arm;
        o->elbow[s] = elbow;
        o->wrist[s] = wrist;
    }
    /* the feet: planted (their rotation turns the toes out); the reach decides how far センター comes down */
    pmi_dv ppos = pmi_dv_add(g->pos[g->pelvis_bone], o->center);
    o->crouch_need = -1e9;
    for (int s = 0; s < 2; s++) {
        pmi_dv hip = pmi_dv_add(ppos, pmi_dq_rotate(o->pelvis, pmi_dv_sub(g->pos[IG_HIP_L + s], g->pos[g->pelvis_bone])));
        double need = pm_landing_reach_need(pm_vec3_make((float)hip.x, (float)hip.y, (float)hip.z),
                                            pm_vec3_make((float)g->ankle[s].x, (float)g->ankle[s].y, (float)g->ankle[s].z), g->reach[s]);
        if (need > o->crouch_need) o->crouch_need = need;
    }
}

/* ---- setup -------------------------------------------------------------------------------------- */

static void arm_ik(const idle *g, int s, pmi_dv target, pmi_dv pole, pmi_dq *arm, pmi_dq *elbow) {
    pmi_figure_arm_ik(g->pos[IB_ARM_L + s], g->pos[IB_ELBOW_L + s], g->pos[IB_WRIST_L + s], target, pole, arm, elbow);
}

/* Where the wrist of arm s goes with the upper arm and forearm turned by arm, elbow (rest frame). */
static pmi_dv wrist_with(const idle *g, int s, pmi_dq arm, pmi_dq elbow) {
    pmi_dv S = g->pos[IB_ARM_L + s], E = g->pos[IB_ELBOW_L + s], W = g->pos[IB_WRIST_L + s];
    pmi_dv e = pmi_dv_add(S, pmi_dq_rotate(arm, pmi_dv_sub(E, S)));
    return pmi_dv_add(e, pmi_dq_rotate(pmi_dq_mul(arm, elbow), pmi_dv_sub(W, E)));
}

/* The hanging arm: the upper arm turned down from its rest angle to the lowest angle (at most 80 degrees
 * below horizontal) that keeps the wrist `margin` clear of the thigh and the torso (the rest-frame
 * capsules of pm_rig_body_capsules, or the standard proportions' without a rig), a little forward, the
 * elbow bent 12 degrees forward. */
static void set_hang(idle *g) {
    const double L = g->leg_len;
    for (int s = 0; s < 2; s++) {
        double sgn = s ? -1 : 1;
        pmi_dv arm = g->pos[IB_ARM_L + s], elbow = g->pos[IB_ELBOW_L + s], wrist = g->pos[IB_WRIST_L + s];
        double rest_angle = atan2(arm.y - elbow.y, fabs(elbow.x - arm.x) + 1e-9);
        pmi_dv d = pmi_dv_sub(wrist, elbow);
        double len = pmi_dv_len(d);
        d = len > 1e-9 ? pmi_dv_scale(d, 1 / len) : pmi_dv_make(sgn, -1, 0);
        pmi_dv axis = {-d.y, d.x, 0}; /* d x (0, 0, -1): turns the forearm toward the front */
        double al = pmi_dv_len(axis);
        g->elbow_axis[s] = al > 1e-9 ? pmi_dv_scale(axis, 1 / al) : pmi_dv_make(1, 0, 0);
        g->hang_elbow[s] = dq_axis(g->elbow_axis[s].x, g->elbow_axis[s].y, g->elbow_axis[s].z, 12 * DEG);
        /* the capsules at rest */
        pmi_dv thigh_a = g->pos[IG_HIP_L + s], thigh_b = g->pos[IG_KNEE_L + s];
        pmi_dv torso_a = pmi_dv_make(0.5 * (g->pos[IG_HIP_L].x + g->pos[IG_HIP_R].x), g->pos[IG_HIP_L].y + 0.06 * L,
                                     0.5 * (g->pos[IG_HIP_L].z + g->pos[IG_HIP_R].z));
        pmi_dv torso_b = pmi_dv_make(torso_a.x, g->pos[IB_NECK].y - 0.05 * L, g->pos[IB_NECK].z);
        const double margin = 0.02 * L + 0.8 * g->sway; /* a weight shift brings the thigh this much nearer */
        double best = 72 * DEG;
        for (double hang = 80 * DEG; hang >= 55 * DEG; hang -= 1 * DEG) {
            pmi_dq q = pmi_dq_mul(dq_x(5 * DEG), dq_z(-sgn * (hang - rest_angle)));
            pmi_dv w = wrist_with(g, s, q, g->hang_elbow[s]);
            double clear = fmin(pmi_dv_segment_distance(w, thigh_a, thigh_b) - 0.085 * L, pmi_dv_segment_distance(w, torso_a, torso_b) - 0.105 * L);
            if (clear >= margin) {
                best = hang;
                break;
            }
        }
        g->hang_deg = best / DEG;
        g->hang[s] = pmi_dq_mul(dq_x(5 * DEG), dq_z(-sgn * (best - rest_angle)));
    }
}

/* A gesture's poses: the hands' IK poses at both ends of its hold's small move, and where the head looks. */
static void pose_gesture(idle *g, idle_gesture *ge) {
    const double L = g->leg_len, rh = 0.11 * L, rt = 0.105 * L;
    pmi_dv head = g->pos[IB_HEAD];
    pmi_dv hc = pmi_dv_make(head.x, head.y + rh, head.z); /* the head's centre */
    pmi_dv neck = g->pos[IB_NECK];
    pmi_dv chest = g->pos[has(g, IB_UPPER2) ? IB_UPPER2 : IB_UPPER];
    double hip_y = 0.5 * (g->pos[IG_HIP_L].y + g->pos[IG_HIP_R].y), hip_z = 0.5 * (g->pos[IG_HIP_L].z + g->pos[IG_HIP_R].z);
    ge->head[0] = ge->head[1] = ge->head[2] = 0;
    for (int s = 0; s < 2; s++) {
        if (!(ge->hands & (1u << s))) continue;
        double sx = s ? -1 : 1;
        pmi_dv t0, t1, pole;
        switch (ge->kind) {
        case PM_IDLE_TOUCH_HAIR: /* beside the head, above the ear, stroking down */
            t0 = pmi_dv_make(hc.x + sx * 1.3 * rh, hc.y + 0.35 * rh, hc.z + 0.2 * rh);
            t1 = pmi_dv_make(hc.x + sx * 1.35 * rh, hc.y - 0.25 * rh, hc.z + 0.3 * rh);
            pole = pmi_dv_make(sx, -0.2, -0.6);
            ge->head[0] = 0, ge->head[1] = 0;
            ge->head[2] = -sx * 7 * DEG; /* the head leans toward the hand */
            break;
        case PM_IDLE_LOOK_AT_HAND: /* in front of the chest, looked at */
            t0 = pmi_dv_make(sx * 0.55 * rt, chest.y + 0.2 * (neck.y - chest.y), chest.z - rt - 0.22 * L);
            t1 = pmi_dv_make(t0.x + sx * 0.05 * L, t0.y + 0.03 * L, t0.z);
            pole = pmi_dv_make(sx, -1, 0.3);
            ge->head[0] = atan2(-(t0.x - head.x), -(t0.z - head.z)) * 0.8;
            ge->head[1] = -atan2(hc.y - t0.y, fabs(t0.z - head.z)) * 0.8;
            break;
        case PM_IDLE_ADJUST_CLOTHES: /* the front of the hips, tugging down */
            t0 = pmi_dv_make(sx * 0.7 * rt, hip_y + 0.05 * L, hip_z - rt - 0.06 * L);
            t1 = pmi_dv_make(t0.x, t0.y - 0.04 * L, t0.z - 0.01 * L);
            pole = pmi_dv_make(sx, 0, 1);
            ge->head[0] = 0, ge->head[1] = -14 * DEG;
            break;
        default: /* stretch: the hands above the head */
            t0 = pmi_dv_make(hc.x + sx * 0.6 * rh, hc.y + rh + 0.12 * L, hc.z + 0.1 * rh);
            t1 = pmi_dv_make(hc.x + sx * 0.65 * rh, hc.y + rh + 0.15 * L, hc.z + 0.15 * rh);
            pole = pmi_dv_make(sx, 0.3, 0.4);
            ge->head[0] = 0, ge->head[1] = 8 * DEG;
            break;
        }
        arm_ik(g, s, t0, pole, &ge->arm[s][0], &ge->elbow[s][0]);
        arm_ik(g, s, t1, pole, &ge->arm[s][1], &ge->elbow[s][1]);
    }
}

/* ---- the schedules ------------------------------------------------------------------------------ */

static double units(const idle *g, double seconds) { return fmax(1.0, round(seconds * 30.0 / g->unit)); }

/* Weight shifts: alternate legs (one in five rests on both), holds of 3-7 s / speed, moves of 1.1 s /
 * sqrt(speed); as many as reach `duration`, the loop rounded up to whole bars (with a BPM) or units. */
static pm_result plan_shifts(idle *g, pm_error *err) {
    const double speed = g->p.speed.value, target = g->p.duration.value * 30.0 / g->unit;
    double total = 0, side = rnd(g, R_SHIFT_SIDE, -1) < 0.5 ? 1 : -1;
    uint32_t n = 0;
    while (total < target && n < IDLE_MAX_SEGMENTS) {
        idle_segment *sg = &g->shifts.seg[n];
        double move = units(g, 1.4 / sqrt(speed)), hold = units(g, (3 + 4 * rnd(g, R_SHIFT_HOLD, n)) / speed);
        if (hold < 2) hold = 2;
        double both = rnd(g, R_SHIFT_SIDE, n) < 0.2;
        sg->start = total; /* in units for now */
        sg->move = move;
        sg->value[0] = both ? 0.25 * side * (rnd(g, R_SHIFT, 2 * n) - 0.5) : side * (0.65 + 0.35 * rnd(g, R_SHIFT, 2 * n + 1));
        if (!both) side = -side;
        total += move + hold;
        n++;
    }
    if (n < 2) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "idle: the loop holds fewer than two weight shifts");
    double loop = g->bpm > 0 ? 4 * ceil(total / 4 - 1e-9) : ceil(total - 1e-9);
    g->shifts.count = n;
    g->loop_units = loop;
    return PM_OK;
}

/* Looks: away (8-30 degrees of yaw, -12..+6 of pitch, scaled by head movement), held 1.5-4 s, back to
 * rest for 1-3 s / head movement; cyclic over the loop. */
static void plan_looks(idle *g) {
    const double hm = g->p.head_movement.value, I = g->p.intensity.value, speed = g->p.speed.value;
    double total = 0;
    uint32_t n = 0;
    idle_seq *s = &g->looks;
    while (n + 2 <= IDLE_MAX_SEGMENTS) {
        double move_out = units(g, 0.55 / sqrt(speed)), hold = units(g, (1.5 + 2.5 * rnd(g, R_LOOK_HOLD, 2 * n)) / speed);
        double move_back = units(g, 0.7 / sqrt(speed)), rest = units(g, (1 + 2 * rnd(g, R_LOOK_HOLD, 2 * n + 1)) / (speed * (0.3 + hm)));
        if (total + move_out + hold + move_back + rest > g->loop_units) break;
        double side = rnd(g, R_LOOK_AT, 3 * n) < 0.5 ? -1 : 1;
        s->seg[n].start = total, s->seg[n].move = move_out;
        s->seg[n].value[0] = side * (8 + 22 * rnd(g, R_LOOK_AT, 3 * n + 1)) * DEG * 2 * hm * (0.5 + I);
        s->seg[n].value[1] = (-12 + 18 * rnd(g, R_LOOK_AT, 3 * n + 2)) * DEG * 2 * hm * (0.5 + I);
        s->seg[n + 1].start = total + move_out + hold, s->seg[n + 1].move = move_back;
        s->seg[n + 1].value[0] = s->seg[n + 1].value[1] = 0;
        total += move_out + hold + move_back + rest;
        n += 2;
    }
    s->count = hm > 0 ? n : 0;
}

/* Gestures: gesture_frequency / 8 a second, one per equal slot of the loop, at a random whole unit of it,
 * never the same kind twice in a row (nor across the seam). */
static void plan_gestures(idle *g) {
    const double gf = g->p.gesture_frequency.value, speed = g->p.speed.value;
    const double loop_s = g->loop_units * g->unit / 30.0;
    uint32_t n = (uint32_t)round(loop_s * gf / 8.0);
    if (n > IDLE_MAX_GESTURES) n = IDLE_MAX_GESTURES;
    if (gf > 0 && n == 0 && loop_s * gf / 8.0 > 0.25) n = 1;
    double slot = g->loop_units / (n ? n : 1);
    int last = -1, first = -1;
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++) {
        idle_gesture *ge = &g->gestures[out];
        memset(ge, 0, sizeof *ge);
        int kind = PM_IDLE_TOUCH_HAIR + (int)(4 * rnd(g, R_GESTURE_KIND, i));
        if (kind > PM_IDLE_STRETCH) kind = PM_IDLE_STRETCH;
        if (kind == last || (i + 1 == n && kind == first && n > 1)) kind = PM_IDLE_TOUCH_HAIR + (kind - PM_IDLE_TOUCH_HAIR + 1) % 4;
        if (kind == last) kind = PM_IDLE_TOUCH_HAIR + (kind - PM_IDLE_TOUCH_HAIR + 1) % 4;
        ge->kind = (pm_idle_event_kind)kind;
        ge->side = rnd(g, R_GESTURE, 3 * i) < 0.5 ? 0 : 1;
        ge->hands = kind == PM_IDLE_ADJUST_CLOTHES || kind == PM_IDLE_STRETCH ? 3u : 1u << ge->side;
        ge->reach = units(g, 1.0 / sqrt(speed));
        ge->hold = units(g, (1.2 + 1.3 * rnd(g, R_GESTURE, 3 * i + 1)) / sqrt(speed));
        ge->back = units(g, 1.2 / sqrt(speed));
        ge->strokes = kind == PM_IDLE_TOUCH_HAIR ? 1 : kind == PM_IDLE_ADJUST_CLOTHES ? 2 : 1;
        double len = ge->reach + ge->hold + ge->back;
        if (len + 1 > slot) continue; /* the slot is too short for it */
        ge->start = i * slot + floor((slot - len - 1) * rnd(g, R_GESTURE, 3 * i + 2)) + 1;
        ge->start = floor(ge->start);
        if (first < 0) first = kind;
        last = kind;
        pose_gesture(g, ge);
        out++;
    }
    g->gesture_count = out;
}

/* The schedules from units to frames (each start on the frame nearest its unit). */
static void to_frames(idle *g) {
    idle_seq *seqs[2] = {&g->shifts, &g->looks};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < seqs[k]->count; i++) {
            idle_segment *s = &seqs[k]->seg[i];
            double a = round(s->start * g->unit), b = round((s->start + s->move) * g->unit);
            s->start = a;
            s->move = fmax(1, b - a);
        }
    for (uint32_t i = 0; i < g->gesture_count; i++) {
        idle_gesture *ge = &g->gestures[i];
        double a = round(ge->start * g->unit), r = round((ge->start + ge->reach) * g->unit),
               h = round((ge->start + ge->reach + ge->hold) * g->unit), b = round((ge->start + ge->reach + ge->hold + ge->back) * g->unit);
        ge->start = a, ge->reach = fmax(1, r - a), ge->hold = fmax(1, h - r), ge->back = fmax(1, b - h);
    }
}

/* The arms' pendulum: a damped swing driven by the chest's sideways acceleration, simulated over three
 * loops so the third is periodic; sampled every half frame of the schedule. */
static pm_result plan_pendulum(idle *g, const pm_allocator *a, pm_error *err) {
    const uint32_t n = 2 * g->Lf + 1;
    g->pendulum_n = n;
    g->pendulum = pmi_alloc_array(a, 2 * (size_t)n, sizeof(double), err, "idle: arm swing");
    if (!g->pendulum) return PM_ERR_OUT_OF_MEMORY;
    const double dt = 1.0 / 60.0, w0 = 2 * PM_PI / 1.3, zeta = 0.45;
    const double arm_len = fmax(1e-3, g->arm_len), gain = 0.5 * g->p.intensity.value + 0.1;
    double th = 0, om = 0;
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < n - 1; i++) {
            double u = (double)i / 2.0;
            /* the chest's sideways position at schedule time u and its second difference */
            double x0 = g->sway * weight_at(g, fmod(u + g->Lf - 0.5, g->Lf)), x1 = g->sway * weight_at(g, u),
                   x2 = g->sway * weight_at(g, fmod(u + 0.5, g->Lf));
            double acc = (x0 - 2 * x1 + x2) / (dt * dt);
            double alpha = -w0 * w0 * th - 2 * zeta * w0 * om - gain * acc / arm_len;
            om += alpha * dt;
            th += om * dt;
            if (pass == 2) {
                g->pendulum[i] = -th;          /* the left arm swings out when the body moves right */
                g->pendulum[(size_t)n + i] = th;
            }
        }
    g->pendulum[n - 1] = g->pendulum[0];
    g->pendulum[2 * (size_t)n - 1] = g->pendulum[n];
    return PM_OK;
}

/* ---- the model ---------------------------------------------------------------------------------- */

static pm_result resolve_model(idle *g, const pmi_figure *f, const pm_allocator *a, pm_error *err) {
    pm_result r = pmi_figure_bones(f, "idle", BONES, IDLE_BONES, g->idx, g->name, g->pos, &g->leg_len, a, err);
    if (r != PM_OK) return r;
    if (has(g, IB_EYES)) g->idx[IB_EYE_L] = g->idx[IB_EYE_R] = PM_NO_INDEX, g->name[IB_EYE_L] = g->name[IB_EYE_R] = NULL;
    g->arm_len = pmi_dv_len(pmi_dv_sub(g->pos[IB_ELBOW_L], g->pos[IB_ARM_L])) + pmi_dv_len(pmi_dv_sub(g->pos[IB_WRIST_L], g->pos[IB_ELBOW_L]));
    /* the pelvis bone, and whether the upper body hangs below it */
    g->pelvis_bone = has(g, IB_LOWER) ? IB_LOWER : IB_WAIST;
    g->pelvis_parents_upper = !has(g, IB_LOWER) && has(g, IB_WAIST);
    if (!g->pelvis_parents_upper && has(g, IB_LOWER) && has(g, IB_UPPER)) g->pelvis_parents_upper = pmi_figure_descends(f, g->idx[IB_UPPER], g->idx[IB_LOWER]);
    g->torso_h = fmax(0.5, g->pos[IB_NECK].y - g->pos[IB_UPPER].y);
    return PM_OK;
}

/* ---- tracks and keys ---------------------------------------------------------------------------- */

typedef pmi_figure_track track;

static pmi_dq pose_rot(const idle_pose *o, int b) {
    switch (b) {
    case IB_WAIST: case IB_LOWER: return o->pelvis;
    case IB_UPPER: return o->upper;
    case IB_UPPER2: return o->upper2;
    case IB_NECK: return o->neck;
    case IB_HEAD: return o->head;
    case IB_EYES: case IB_EYE_L: case IB_EYE_R: return o->eyes;
    case IB_SHOULDER_L: case IB_SHOULDER_R: return o->shoulder[b - IB_SHOULDER_L];
    case IB_ARM_L: case IB_ARM_R: return o->arm[b - IB_ARM_L];
    case IB_ELBOW_L: case IB_ELBOW_R: return o->elbow[b - IB_ELBOW_L];
    case IB_WRIST_L: case IB_WRIST_R: return o->wrist[b - IB_WRIST_L];
    case IB_LEG_IK_L: case IB_LEG_IK_R: return o->ik_rot[b - IB_LEG_IK_L];
    default: return DQ_ID;
    }
}

pm_result pm_idle_generate(const pm_idle_params *params, const pm_target_model *model, pm_vmd **out, pm_idle_info *info_out,
                           pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "idle: no output motion");
    *out = NULL;
    pm_idle_info info_local, *info = info_out ? info_out : &info_local;
    memset(info, 0, sizeof *info);
    idle *g = NULL;
    pm_idle_params p;
    pm_result r = pmi_idle_resolve_params(params, &p, err);
    if (r) return r;
    const pm_allocator *a = &p.allocator;
    if (!(g = pmi_alloc_array(a, 1, sizeof *g, err, "idle"))) return PM_ERR_OUT_OF_MEMORY;
    memset(g, 0, sizeof *g);
    g->p = p;
    pmi_figure fig;
    pm_vmd *vmd = NULL;
    double *pool = NULL;
    float *plan = NULL, *plan_rot = NULL;
    uint8_t *contact = NULL;
    if ((r = pmi_figure_open(&fig, model, a, err))) goto done;
    const pm_target_model *m = fig.model;
    const bool standard = fig.standard;
    g->rig = fig.rig;
    if ((r = resolve_model(g, &fig, a, err))) goto done;
    const double L = g->leg_len;

    /* the legs: planted at their rest spots, landed when the rig's leg chains are the 足ＩＫ bones */
    const uint32_t iks[2] = {g->idx[IB_LEG_IK_L], g->idx[IB_LEG_IK_R]}, ankles[2] = {g->idx[IG_ANKLE_L], g->idx[IG_ANKLE_R]};
    const bool land = pmi_figure_can_land(&fig, iks, ankles);
    const double knee_min = 6 * DEG;
    for (int s = 0; s < 2; s++) {
        double sgn = s ? -1 : 1;
        g->ankle[s] = g->pos[IG_ANKLE_L + s];
        g->ik_rot[s] = dq_y(-sgn * 7 * DEG); /* the toes turned out */
        double thigh = pmi_dv_len(pmi_dv_sub(g->pos[IG_HIP_L + s], g->pos[IG_KNEE_L + s])),
               shin = pmi_dv_len(pmi_dv_sub(g->pos[IG_KNEE_L + s], g->pos[IG_ANKLE_L + s]));
        g->reach[s] = sqrt(thigh * thigh + shin * shin + 2 * thigh * shin * cos(knee_min));
        if (g->rig && g->rig->legs[s].present)
            g->reach[s] = pm_landing_leg_reach(&g->rig->legs[s], fmax(knee_min, g->rig->legs[s].knee_rest_bend + 2.5 * DEG));
    }
    double floor_y = fmin(fmin(g->pos[IG_TOE_L].y, g->pos[IG_TOE_R].y), fmin(g->pos[IG_ANKLE_L].y, g->pos[IG_ANKLE_R].y));
    if (g->rig && g->rig->legs[0].present && g->rig->legs[1].present) floor_y = g->rig->floor_height;
    double flen = 0.5 * ((g->pos[IG_ANKLE_L].z - g->pos[IG_TOE_L].z) + (g->pos[IG_ANKLE_R].z - g->pos[IG_TOE_R].z));
    if (!(flen > 0.05 * L)) flen = 0.25 * L;

    /* amounts and timing */
    const double I = p.intensity.value;
    g->sway = p.body_sway.value * 0.10 * L * (0.4 + 1.2 * I);
    g->pelvis_roll = p.body_sway.value * 9 * DEG * (0.4 + 1.2 * I);
    const bool has_grid = pm_beat_grid_is_set(&p.grid);
    g->bpm = has_grid ? p.grid.bpm : p.bpm;
    if (g->bpm > 0) {
        double beat = 1800.0 / g->bpm;
        g->unit = beat;
        while (g->unit < 10 - 1e-9) g->unit *= 2;
        while (g->unit > 30 + 1e-9) g->unit /= 2;
    } else {
        g->unit = 15;
    }
    if (has_grid) {
        double down = pm_beat_grid_time(&p.grid, (double)p.grid.first_downbeat) * 30.0;
        g->phase = down - floor(down / g->unit) * g->unit;
    }
    set_hang(g);
    if ((r = plan_shifts(g, err))) goto done;
    plan_looks(g);
    plan_gestures(g);
    g->Lf = (uint32_t)llround(g->loop_units * g->unit);
    to_frames(g);
    g->breath_frames = g->Lf / fmax(1.0, round(g->Lf / 120.0));
    g->drift_cells = (int64_t)fmax(2, round(g->Lf / 150.0));
    g->arm_cells = (int64_t)fmax(2, round(g->Lf / 100.0));
    if ((r = plan_pendulum(g, a, err))) goto done;

    /* tracks */
    track tracks[IB_COUNT];
    int nt = 0;
    for (int b = 0; b < IB_COUNT; b++) {
        if (!has(g, b) || b == IB_GROOVE) continue;
        if ((b == IB_WAIST || b == IB_LOWER) && b != g->pelvis_bone) continue;
        if ((b == IB_LEG_IK_L || b == IB_LEG_IK_R) && land) continue; /* keyed by the landing */
        memset(&tracks[nt], 0, sizeof tracks[nt]);
        tracks[nt].bone = b;
        tracks[nt].pos = b == IB_CENTER || b == IB_LEG_IK_L || b == IB_LEG_IK_R;
        nt++;
    }
    const uint32_t per_frame = 2, ns = g->Lf * per_frame + 1;
    double *need = NULL;
    pool = pmi_figure_samples(a, tracks, nt, ns, 2 * (size_t)ns, &need, "idle: samples", err);
    plan = pool ? pmi_alloc_array(a, (size_t)ns * 6, sizeof(float), err, "idle: plan") : NULL;
    plan_rot = plan ? pmi_alloc_array(a, (size_t)ns * 8, sizeof(float), err, "idle: plan") : NULL;
    contact = plan_rot ? pmi_alloc_array(a, 2 * ((size_t)g->Lf + 1), 1, err, "idle: contact") : NULL;
    if (!contact) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    double *tmp = need + ns;
    for (uint32_t i = 0; i < ns; i++) {
        idle_pose o;
        eval_pose(g, (double)i / per_frame, &o);
        o.ik_rot[0] = g->ik_rot[0], o.ik_rot[1] = g->ik_rot[1];
        need[i] = o.crouch_need;
        for (int s = 0; s < 2; s++) {
            float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)i, *pr = plan_rot + (size_t)s * 4 * ns + 4 * (size_t)i;
            pl[0] = (float)g->ankle[s].x, pl[1] = (float)g->ankle[s].y, pl[2] = (float)g->ankle[s].z;
            pr[0] = (float)g->ik_rot[s].x, pr[1] = (float)g->ik_rot[s].y, pr[2] = (float)g->ik_rot[s].z, pr[3] = (float)g->ik_rot[s].w;
        }
        for (int k = 0; k < nt; k++) {
            track *t = &tracks[k];
            if (t->bone == IB_CENTER) t->p[0][i] = o.center.x + 0.0, t->p[1][i] = o.center.y + 0.0, t->p[2][i] = o.center.z + 0.0;
            if (t->bone == IB_LEG_IK_L || t->bone == IB_LEG_IK_R) {
                int s = t->bone - IB_LEG_IK_L;
                pmi_dv off = pmi_dv_sub(g->ankle[s], g->pos[t->bone]);
                t->p[0][i] = off.x + 0.0, t->p[1][i] = off.y + 0.0, t->p[2][i] = off.z + 0.0;
            }
            pmi_keyfit_put_rotation(t->q, i, pose_rot(&o, t->bone));
        }
    }
    g->crouch = pm_landing_smooth_need(need, tmp, ns - 1, (uint32_t)(0.5 * 30 * per_frame), 0.25 * L);
    for (int k = 0; k < nt; k++)
        if (tracks[k].bone == IB_CENTER)
            for (uint32_t i = 0; i < ns; i++) tracks[k].p[1][i] -= need[i];

    /* keys */
    if ((r = pm_vmd_create(a, &vmd, err)) || (r = pm_vmd_set_model_name(vmd, "Idle", err))) goto done;
    {
        const char *ik_names[4] = {g->name[IB_LEG_IK_L], g->name[IB_LEG_IK_R], g->name[IG_TOE_IK_L], g->name[IG_TOE_IK_R]};
        if ((r = pmi_figure_ik_on(vmd, ik_names, err))) goto done;
    }
    pmi_figure_keyed keyed = {info->used, 0, 0, 0};
    if ((r = pmi_figure_key_tracks(vmd, tracks, nt, g->name, g->Lf, per_frame, p.position_tolerance, p.rotation_tolerance, a, &keyed, err)))
        goto done;
    info->used_count = keyed.used_count;
    info->max_position_error = keyed.max_position_error;
    info->max_rotation_error = keyed.max_rotation_error;
    for (int s = 0; s < 2 && land; s++) info->used[info->used_count++] = g->name[IB_LEG_IK_L + s];
    for (int b = 0; b < IB_COUNT; b++) {
        if (has(g, b) || b == IB_WAIST || b == IB_GROOVE) continue;
        if ((b == IB_EYE_L || b == IB_EYE_R) && has(g, IB_EYES)) continue;
        if (b == IB_EYES && has(g, IB_EYE_L)) continue;
        info->missing[info->missing_count++] = BONES[b].canonical;
    }

    /* the feet landed and the body measured */
    for (int s = 0; s < 2; s++) {
        info->ankles[s] = pm_vec3_make((float)g->ankle[s].x, (float)g->ankle[s].y, (float)g->ankle[s].z);
        info->floor[s] = (float)g->ankle[s].y;
        info->heel[s] = pm_vec3_make(0, (float)(floor_y - g->ankle[s].y), (float)(0.25 * flen));
        info->ball[s] = pm_vec3_make(0, (float)(floor_y - g->ankle[s].y), (float)(-flen));
    }
    if (land) {
        memset(contact, PM_LANDING_FLAT, 2 * ((size_t)g->Lf + 1));
        pmi_figure_feet feet = {{ankles[0], ankles[1]}, {iks[0], iks[1]}, per_frame, plan, plan_rot, contact,
                                {info->floor[0], info->floor[1]}, {info->heel[0], info->heel[1]}, {info->ball[0], info->ball[1]}, {NULL, NULL}};
        pm_landing_options lo = {0};
        lo.allocator = *a;
        lo.position_tolerance = (float)fmin(p.position_tolerance, 0.002);
        lo.rotation_tolerance = (float)fmin(p.rotation_tolerance, 0.1);
        lo.flags = PM_LANDING_LOOP;
        /* the legs move slowly: keys where they are needed, within what keeps the ankle within ~0.001 */
        lo.fk_tolerance = (float)(0.001 / L / DEG);
        if ((r = pmi_figure_land_feet(&fig, &feet, g->Lf, &lo, &vmd, &info->report, err))) goto done;
    }
    /* blinks (the lifelike layer's, periodic over the loop; the idle's own bones stay its own) */
    const char *blink = p.blink.value > 0 ? pm_rig_target_morph(m, PM_RIG_MORPH_BLINK) : NULL;
    if (blink) {
        pm_lifelike_settings ls = {0};
        ls.blink = PM_AMOUNT(p.blink.value);
        ls.breath_depth = PM_AMOUNT(0);
        ls.micro_move_extent = PM_AMOUNT(0);
        ls.saccades = PM_AMOUNT(0);
        ls.gaze_range = PM_AMOUNT(0);
        ls.seed = p.seed;
        pm_lifelike_bake_options bo = {0};
        bo.allocator = *a;
        bo.frames = g->Lf;
        pm_vmd *blinked = NULL;
        pm_lifelike_report lr;
        if ((r = pm_lifelike_bake(vmd, m, &ls, &bo, &blinked, &lr, err))) goto done;
        pm_vmd_free(vmd);
        vmd = blinked;
        info->morph_key_count = lr.morph_keys;
        info->blink_morph = standard ? "まばたき" : blink; /* the mannequin's own is freed below */
    }
    if (land) {
        pm_landing_body_options bo = {0};
        bo.allocator = *a;
        bo.flags = PM_LANDING_LOOP;
        if ((r = pm_landing_measure_body(g->rig, vmd, g->Lf, &bo, &info->body, err))) goto done;
        info->verified = true;
        info->on_mannequin = standard;
    }

    /* the events */
    for (uint32_t i = 0; i < g->shifts.count && info->event_count < PM_IDLE_MAX_EVENTS; i++) {
        const idle_segment *s = &g->shifts.seg[i];
        double a0 = s->start + g->phase;
        a0 -= floor(a0 / g->Lf) * g->Lf;
        info->events[info->event_count++] = (pm_idle_event){PM_IDLE_SHIFT, (uint32_t)llround(a0), (uint32_t)llround(a0 + s->move), s->value[0]};
    }
    for (uint32_t i = 0; i < g->gesture_count && info->event_count < PM_IDLE_MAX_EVENTS; i++) {
        const idle_gesture *ge = &g->gestures[i];
        double a0 = ge->start + g->phase;
        a0 -= floor(a0 / g->Lf) * g->Lf;
        info->events[info->event_count++] =
            (pm_idle_event){ge->kind, (uint32_t)llround(a0), (uint32_t)llround(a0 + ge->reach + ge->hold + ge->back), ge->hands == 3 ? 2 : ge->side};
    }
    info->params = p;
    info->loop_frames = g->Lf;
    info->bpm = g->bpm;
    info->unit_frames = g->unit;
    info->key_count = vmd->bones.count;
    info->crouch = g->crouch;
    info->arm_hang_deg = g->hang_deg;
    *out = vmd;
    vmd = NULL;
done:
    pm_vmd_free(vmd);
    pmi_free(a, contact);
    pmi_free(a, plan_rot);
    pmi_free(a, plan);
    pmi_free(a, pool);
    if (g) {
        pmi_free(a, g->pendulum);
        pmi_free(a, g);
    }
    pmi_figure_close(&fig);
    return r;
}
