/* The dance generator: every beat's pose (dance_moves.c) joined by eased moves, sampled every half
 * frame, fitted with VMD Bezier keys, the feet landed and the body measured (see procmotion/dance.h). */
#include "dance/dance_internal.h"

#include "keyfit/keyfit.h"
#include "lifelike/signal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define DEG (PM_PI / 180.0)

static const pmi_figure_bone BONES[DANCE_BONES] = {
    [DB_CENTER] = {"センター", PM_RIG_CENTER}, [DB_WAIST] = {"腰", PM_RIG_WAIST}, [DB_LOWER] = {"下半身", PM_RIG_LOWER_BODY},
    [DB_UPPER] = {"上半身", PM_RIG_UPPER_BODY}, [DB_UPPER2] = {"上半身2", PM_RIG_UPPER_BODY2}, [DB_NECK] = {"首", PM_RIG_NECK},
    [DB_HEAD] = {"頭", PM_RIG_HEAD}, [DB_SHOULDER_L] = {"左肩", PM_RIG_LEFT_SHOULDER},
    [DB_SHOULDER_R] = {"右肩", PM_RIG_RIGHT_SHOULDER}, [DB_ARM_L] = {"左腕", PM_RIG_LEFT_ARM}, [DB_ARM_R] = {"右腕", PM_RIG_RIGHT_ARM},
    [DB_ELBOW_L] = {"左ひじ", PM_RIG_LEFT_ELBOW}, [DB_ELBOW_R] = {"右ひじ", PM_RIG_RIGHT_ELBOW},
    [DB_WRIST_L] = {"左手首", PM_RIG_LEFT_WRIST}, [DB_WRIST_R] = {"右手首", PM_RIG_RIGHT_WRIST},
    [DB_LEG_IK_L] = {"左足ＩＫ", PM_RIG_LEFT_LEG_IK}, [DB_LEG_IK_R] = {"右足ＩＫ", PM_RIG_RIGHT_LEG_IK},
    [DG_TOE_IK_L] = {"左つま先ＩＫ", PM_RIG_LEFT_TOE_IK}, [DG_TOE_IK_R] = {"右つま先ＩＫ", PM_RIG_RIGHT_TOE_IK},
    [DG_HIP_L] = {"左足", PM_RIG_LEFT_LEG}, [DG_HIP_R] = {"右足", PM_RIG_RIGHT_LEG},
    [DG_KNEE_L] = {"左ひざ", PM_RIG_LEFT_KNEE}, [DG_KNEE_R] = {"右ひざ", PM_RIG_RIGHT_KNEE},
    [DG_ANKLE_L] = {"左足首", PM_RIG_LEFT_ANKLE}, [DG_ANKLE_R] = {"右足首", PM_RIG_RIGHT_ANKLE},
    [DG_TOE_L] = {"左つま先", PM_RIG_LEFT_TOE}, [DG_TOE_R] = {"右つま先", PM_RIG_RIGHT_TOE},
    [DG_FINGER_L] = {"左中指３", PM_RIG_LEFT_MIDDLE3}, [DG_FINGER_R] = {"右中指３", PM_RIG_RIGHT_MIDDLE3},
};

static bool has(const dance *d, int b) { return d->idx[b] != PM_NO_INDEX; }

static const pmi_dq DQ_ID = {0, 0, 0, 1};
static pmi_dq dq_x(double a) { return pmi_figure_rot(1, 0, 0, a); }
static pmi_dq dq_y(double a) { return pmi_figure_rot(0, 1, 0, a); }
static pmi_dq dq_z(double a) { return pmi_figure_rot(0, 0, 1, a); }

/* ---- arm shapes --------------------------------------------------------------------------------- */

/* Where the hand goes from the shoulder joint, in arm lengths (x outward, y up, z forward), and where the
 * elbow points. */
static const struct {
    double hand[3], pole[3];
} SHAPES[DA_COUNT] = {
    [DA_LOW] = {{0.34, -0.9, 0.12}, {0.4, 0, -1}},        [DA_SWING_F] = {{0.3, -0.8, 0.42}, {0.4, -0.3, -1}},
    [DA_SWING_B] = {{0.36, -0.88, -0.18}, {0.4, 0, -1}},  [DA_HIPS] = {{0.34, -0.6, -0.04}, {1, 0, -0.6}},
    [DA_UP] = {{0.22, 0.95, 0.08}, {1, 0, -0.3}},         [DA_V] = {{0.6, 0.75, 0.12}, {1, 0, -0.4}},
    [DA_OUT] = {{0.95, 0.02, 0.12}, {0, -1, -0.4}},       [DA_OPEN] = {{0.62, -0.55, 0.4}, {0.3, -1, -0.5}},
    [DA_FRONT] = {{0.1, 0.05, 0.95}, {1, -1, 0}},         [DA_BENT] = {{0.3, -0.45, 0.5}, {0.6, -1, -0.6}},
    [DA_POINT] = {{0.55, 0.62, 0.45}, {0.5, -1, 0}},      [DA_CLAP] = {{-0.12, -0.14, 0.74}, {1, -0.5, -0.3}},
    [DA_CROSS] = {{-0.28, -0.12, 0.6}, {1, -0.5, -0.2}}, [DA_WAVE_A] = {{0.62, 0.72, 0.05}, {0.3, -1, 0}},
    [DA_WAVE_B] = {{0.36, 0.8, 0.05}, {0.6, -1, 0}},      [DA_ROLL_HI] = {{0.0, -0.18, 0.62}, {1, -0.3, -0.3}},
    [DA_ROLL_LO] = {{0.05, -0.38, 0.58}, {1, -0.3, -0.3}}, [DA_SHOULDER] = {{0.38, -0.05, 0.22}, {0.4, -1, -0.4}},
};

/* A shape's hand target (rest frame, units) and pole for hand s, `size` of the way from DA_LOW. */
static void shape_target(const dance *d, int s, int shape, double size, pmi_dv *hand, pmi_dv *pole) {
    const double sg = s ? -1 : 1, A = d->arm_len[s];
    double h[3], p[3];
    for (int k = 0; k < 3; k++) {
        h[k] = SHAPES[DA_LOW].hand[k] + (SHAPES[shape].hand[k] - SHAPES[DA_LOW].hand[k]) * size;
        p[k] = SHAPES[DA_LOW].pole[k] + (SHAPES[shape].pole[k] - SHAPES[DA_LOW].pole[k]) * size;
    }
    if (shape == DA_CROSS && s == 1) h[1] -= 0.06; /* the right forearm under the left */
    pmi_dv S = d->pos[DB_ARM_L + s];
    *hand = pmi_dv_make(S.x + sg * h[0] * A, S.y + h[1] * A, S.z - h[2] * A);
    *pole = pmi_dv_make(sg * p[0], p[1], -p[2]);
}

/* The least clearance of a point from the body's capsules at rest (torso, head, thighs). */
static double clearance(const dance *d, pmi_dv x, pmi_dv *away) {
    double best = 1e9;
    for (int c = 0; c < 4; c++) {
        pmi_dv n = pmi_dv_segment_nearest(x, d->cap[c][0], d->cap[c][1]);
        double gap = pmi_dv_len(pmi_dv_sub(x, n)) - d->cap_r[c];
        if (gap < best) {
            best = gap;
            pmi_dv v = pmi_dv_sub(x, n);
            if (pmi_dv_len(v) < 1e-9) v = pmi_dv_make(0, 0, -1);
            *away = pmi_dv_normalize(v);
        }
    }
    return best;
}

/* The arm's rotations that put hand s on `target`, pushed out until the wrist and the fingertip clear the
 * body by `margin`. */
static void solve_arm(const dance *d, int s, pmi_dv target, pmi_dv pole, double margin, pmi_dq *arm, pmi_dq *elbow) {
    pmi_dv S = d->pos[DB_ARM_L + s], E = d->pos[DB_ELBOW_L + s], W = d->pos[DB_WRIST_L + s];
    for (int it = 0; it < 4; it++) {
        pmi_figure_arm_ik_hinge(S, E, W, target, pole, arm, elbow);
        pmi_dv e = pmi_dv_add(S, pmi_dq_rotate(*arm, pmi_dv_sub(E, S)));
        pmi_dq fore = pmi_dq_mul(*arm, *elbow);
        pmi_dv w = pmi_dv_add(e, pmi_dq_rotate(fore, pmi_dv_sub(W, E)));
        pmi_dv tip = pmi_dv_add(w, pmi_dv_scale(pmi_dv_normalize(pmi_dq_rotate(fore, pmi_dv_sub(W, E))), d->hand_len[s]));
        pmi_dv aw, at;
        double cw = clearance(d, w, &aw), ct = clearance(d, tip, &at);
        if (cw >= margin && ct >= margin) return;
        if (cw < ct) target = pmi_dv_add(target, pmi_dv_scale(aw, margin - cw));
        else target = pmi_dv_add(target, pmi_dv_scale(at, margin - ct));
    }
    pmi_figure_arm_ik_hinge(S, E, W, target, pole, arm, elbow);
}

/* ---- the pose at an instant --------------------------------------------------------------------- */

/* Eased 0 -> 1 with zero velocity at both ends that draws back a little first and settles. */
static double ease(double u) {
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double s = sin(PM_PI * u);
    return pmi_minjerk(u) - 0.08 * sin(2 * PM_PI * u) * s * s;
}

typedef struct dance_pose {
    pmi_dv center;
    pmi_dq center_rot, pelvis, upper, upper2, neck, head;
    pmi_dq shoulder[2], arm[2], elbow[2], wrist[2];
    pmi_dv foot[2];
    pmi_dq foot_rot[2];
    bool stance[2];
    double crouch_need;
} dance_pose;

static double lerp(double a, double b, double t) { return a + (b - a) * t; }

/* The beat interval holding frame t: k with bt[k] <= t < bt[k + 1] (clamped), and u in it. */
static uint32_t beat_at(const dance *d, double t, double *u) {
    if (t <= d->bt[0]) return *u = 0, 0;
    if (t >= d->bt[d->nb]) return *u = 1, d->nb - 1;
    uint32_t lo = 0, hi = d->nb;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (d->bt[mid] <= t) lo = mid;
        else hi = mid;
    }
    *u = (t - d->bt[lo]) / (d->bt[lo + 1] - d->bt[lo]);
    return lo;
}

static void eval_pose(const dance *d, double t, dance_pose *o) {
    double u;
    const uint32_t k = beat_at(d, t, &u);
    const dance_key *a = &d->keys[k], *b = &d->keys[k + 1];
    const double e = ease(u), m = pmi_minjerk(u);
    const double L = d->L;
    const bool before = t < d->bt[0] || t > d->bt[d->nb];
    /* the bounce: down on the beat (up on it in the idol style), and a nod with it */
    double s = sin(PM_PI * u), c = cos(PM_PI * u);
    double pulse = before ? 0 : (d->p.style == PM_DANCE_IDOL ? s * s : c * c) * lerp(a->pulse, b->pulse, m);
    double w = lerp(a->weight, b->weight, m);
    double yaw = lerp(a->yaw, b->yaw, e);
    o->center = pmi_dv_make(lerp(a->center[0], b->center[0], m), -d->bounce * pulse, lerp(a->center[2], b->center[2], m));
    o->center_rot = dq_y(yaw);
    /* hips sway over the weight, the chest answers, the head keeps level */
    const double roll = d->roll * w;
    o->pelvis = pmi_dq_mul(dq_y(0.3 * roll), dq_z(roll));
    double lean = lerp(a->lean, b->lean, e), twist = lerp(a->twist, b->twist, e);
    pmi_dq upper = pmi_dq_mul(dq_y(twist * 0.5), pmi_dq_mul(dq_z(-0.8 * roll), dq_x(0.6 * lean - 2 * DEG * pulse * d->p.body.value)));
    pmi_dq upper2 = pmi_dq_mul(dq_y(twist * 0.5), dq_x(0.4 * lean));
    if (!has(d, DB_UPPER2)) upper = pmi_dq_mul(upper, upper2);
    o->upper = d->pelvis_parents_upper ? pmi_dq_mul(pmi_dq_conj(o->pelvis), upper) : upper;
    o->upper2 = upper2;
    pmi_dq chest = has(d, DB_UPPER2) ? pmi_dq_mul(upper, upper2) : upper;
    double look = lerp(a->look, b->look, e);
    pmi_dq head_world = pmi_dq_mul(dq_y(look), dq_x(-d->nod * pulse));
    pmi_dq rel = pmi_dq_mul(pmi_dq_conj(chest), head_world);
    bool both = has(d, DB_NECK) && has(d, DB_HEAD);
    pmi_dq half = both ? pmi_dq_slerp(DQ_ID, rel, 0.4) : rel;
    o->neck = half;
    o->head = both ? pmi_dq_mul(pmi_dq_conj(half), rel) : rel;
    /* arms: the hand targets move on arcs about the shoulder */
    const double margin = 0.035 * L;
    for (int sd = 0; sd < 2; sd++) {
        double sg = sd ? -1 : 1;
        pmi_dv ha, pa, hb, pb;
        shape_target(d, sd, a->arm[sd], a->arm_size[sd], &ha, &pa);
        shape_target(d, sd, b->arm[sd], b->arm_size[sd], &hb, &pb);
        pmi_dv S = d->pos[DB_ARM_L + sd];
        pmi_dv va = pmi_dv_sub(ha, S), vb = pmi_dv_sub(hb, S);
        double la = pmi_dv_len(va), lb = pmi_dv_len(vb);
        pmi_dq turn = pmi_dq_arc(pmi_dv_normalize(va), pmi_dv_normalize(vb));
        pmi_dv dir = pmi_dq_rotate(pmi_dq_slerp(DQ_ID, turn, e), pmi_dv_normalize(va));
        pmi_dv target = pmi_dv_add(S, pmi_dv_scale(dir, lerp(la, lb, e)));
        pmi_dv pole = pmi_dv_add(pmi_dv_scale(pa, 1 - e), pmi_dv_scale(pb, e));
        solve_arm(d, sd, target, pole, margin, &o->arm[sd], &o->elbow[sd]);
        o->wrist[sd] = dq_z(sg * lerp(a->wrist[sd], b->wrist[sd], e));
        o->shoulder[sd] = dq_z(sg * 2 * DEG * pulse * d->p.body.value);
    }
    /* feet: planted, or stepping in the middle of the beat (lifted ones already up on it) */
    pmi_dv ppos = pmi_dv_add(d->pos[d->pelvis_bone], o->center);
    o->crouch_need = -1e9;
    for (int sd = 0; sd < 2; sd++) {
        const double *fa = a->foot[sd], *fb = b->foot[sd];
        bool moving = a->lifted[sd] || b->lifted[sd] || fabs(fa[0] - fb[0]) + fabs(fa[1] - fb[1]) + fabs(fa[2] - fb[2]) +
                                                               fabs(a->foot_yaw[sd] - b->foot_yaw[sd]) * L > 1e-6;
        double v = moving ? (u - 0.1) / 0.9 : 0; /* lifts after the beat, lands on the next */
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        double mv = pmi_minjerk(v);
        double arc = moving && !a->lifted[sd] && !b->lifted[sd] ? 0.06 * L * sin(PM_PI * v) : 0;
        if (moving && a->foot_yaw[sd] != b->foot_yaw[sd] && fa[0] == fb[0] && fa[2] == fb[2]) arc = 0; /* turning on its spot */
        pmi_dv rest = d->pos[DG_ANKLE_L + sd];
        o->foot[sd] = pmi_dv_make(rest.x + lerp(fa[0], fb[0], mv), rest.y + lerp(fa[1], fb[1], mv) + arc, rest.z + lerp(fa[2], fb[2], mv));
        o->foot_rot[sd] = pmi_dq_mul(dq_y(lerp(a->foot_yaw[sd], b->foot_yaw[sd], mv)), d->toe_out[sd]);
        o->stance[sd] = !moving || (v <= 0 && !a->lifted[sd]) || (v >= 1 && !b->lifted[sd]);
        if (arc == 0 && moving && !a->lifted[sd] && !b->lifted[sd]) o->stance[sd] = true;
        pmi_dv hip_rest = pmi_dv_sub(d->pos[DG_HIP_L + sd], d->pos[d->pelvis_bone]);
        pmi_dv hip = pmi_dv_add(ppos, pmi_dq_rotate(pmi_dq_mul(o->center_rot, o->pelvis), hip_rest));
        double need = pm_landing_reach_need(pm_vec3_make((float)hip.x, (float)hip.y, (float)hip.z),
                                            pm_vec3_make((float)o->foot[sd].x, (float)o->foot[sd].y, (float)o->foot[sd].z), d->reach[sd]);
        if (need > o->crouch_need) o->crouch_need = need;
    }
}

/* ---- setup -------------------------------------------------------------------------------------- */

static void set_capsules(dance *d) {
    const double L = d->L;
    pm_rig_capsule caps[PM_RIG_CAPSULE_COUNT];
    if (d->rig) pm_rig_body_capsules(d->rig, caps);
    pmi_dv hips = pmi_dv_scale(pmi_dv_add(d->pos[DG_HIP_L], d->pos[DG_HIP_R]), 0.5);
    pmi_dv neck = d->pos[DB_NECK], head = d->pos[DB_HEAD];
    const double rt = PM_RIG_TORSO_RADIUS * L, rh = PM_RIG_HEAD_RADIUS * L, rl = PM_RIG_THIGH_RADIUS * L;
    d->cap[0][0] = pmi_dv_make(hips.x, hips.y + 0.6 * rt, hips.z), d->cap[0][1] = pmi_dv_make(neck.x, neck.y - 0.5 * rt, neck.z);
    d->cap[1][0] = d->cap[1][1] = pmi_dv_make(head.x, head.y + rh, head.z);
    for (int s = 0; s < 2; s++) d->cap[2 + s][0] = d->pos[DG_HIP_L + s], d->cap[2 + s][1] = d->pos[DG_KNEE_L + s];
    d->cap_r[0] = rt, d->cap_r[1] = rh, d->cap_r[2] = d->cap_r[3] = rl;
    if (d->rig)
        for (int c = 0; c < 4; c++)
            if (caps[c].present) {
                d->cap[c][0] = pmi_dv_of(caps[c].end[0]), d->cap[c][1] = pmi_dv_of(caps[c].end[1]);
                d->cap_r[c] = caps[c].radius;
            }
}

/* The dancer's beats: the grid's (every other one above 160 BPM, with half beats below 70) from the
 * start to `duration`, or a loop of whole phrases. */
static pm_result plan_beats(dance *d, const pm_allocator *a, pm_error *err) {
    const pm_dance_params *p = &d->p;
    const bool grid = pm_beat_grid_is_set(&p->grid);
    double bpm = grid ? p->grid.bpm : p->bpm > 0 ? p->bpm : 120;
    uint32_t every = 1, split = 1;
    while (bpm / every > 160) every *= 2;
    while (bpm * split < 70) split *= 2;
    d->bpm = bpm / every * split;
    uint32_t bpb = grid && p->grid.beats_per_bar ? p->grid.beats_per_bar : 4;
    d->phrase_beats = every == 1 && split == 1 && bpb != 4 ? 2 * bpb : 8;
    if (d->phrase_beats < 6) d->phrase_beats = 8;
    if (d->phrase_beats > 16) d->phrase_beats = 16;
    if (!grid) {
        double beat = 1800.0 / d->bpm;
        uint32_t phrases = (uint32_t)ceil(p->duration.value * 30.0 / (beat * d->phrase_beats) - 1e-9);
        if (phrases < 1) phrases = 1;
        d->nb = phrases * d->phrase_beats;
        d->frames = (uint32_t)llround(d->nb * beat);
        d->loop = true;
        d->bt = pmi_alloc_array(a, d->nb + 1, sizeof(double), err, "dance: beats");
        if (!d->bt) return PM_ERR_OUT_OF_MEMORY;
        for (uint32_t k = 0; k <= d->nb; k++) d->bt[k] = (double)k * d->frames / d->nb;
        d->first_down = 0;
        return PM_OK;
    }
    /* the grid's beats within [0, end] */
    double end_s = p->duration.value > 0 ? p->duration.value : p->grid.beat_count ? p->grid.beats[p->grid.beat_count - 1] : 60.0;
    if (end_s > PM_DANCE_MAX_SECONDS) end_s = PM_DANCE_MAX_SECONDS;
    double first = ceil(-p->grid.offset * bpm / 60.0 - 1e-9); /* the first beat index at or after 0 s */
    if (p->grid.beat_count) first = 0;
    while (pm_beat_grid_time(&p->grid, first) < 0) first += 1;
    uint32_t down = p->grid.first_downbeat;
    /* grid beats kept: those of the dancer's parity (every), from `first` */
    double start_beat = first;
    if (every > 1) {
        /* the dancer's beats are the stronger ones in the onset envelope (a tracker that counts twice as
         * fast adds off-beats); without an envelope, those of the downbeats */
        int64_t off = ((int64_t)down - (int64_t)first) % (int64_t)every;
        if (off < 0) off += every;
        double best = -1;
        for (uint32_t o = 0; o < every && p->onset && p->onset_count; o++) {
            double sum = 0;
            uint32_t n = 0;
            for (double g = first + o; n < 4096 && pm_beat_grid_time(&p->grid, g) <= end_s; g += every, n++) {
                int64_t i = (int64_t)llround(pm_beat_grid_time(&p->grid, g) * p->onset_rate);
                float peak = 0;
                for (int64_t j = i - 3; j <= i + 3; j++)
                    if (j >= 0 && j < (int64_t)p->onset_count && p->onset[j] > peak) peak = p->onset[j];
                sum += peak;
            }
            if (n && sum / n > best * 1.05) best = sum / n, off = o;
        }
        start_beat = first + (double)off;
    }
    d->first_grid_beat = start_beat;
    d->grid_step = (double)every / split;
    uint32_t count = 0;
    for (double g = start_beat; pm_beat_grid_time(&p->grid, g) <= end_s + 1e-9 && count < 400000; g += every) count++;
    if (p->grid.beat_count && count > 0) {
        double last_listed = (double)p->grid.beat_count - 1;
        while (count > 0 && start_beat + (double)(count - 1) * every > last_listed) count--;
    }
    if (count < 2) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: the beat grid has fewer than two beats within %g s", end_s);
    if (count > 10 * end_s + 16)
        return pmi_fail(err, PM_ERR_LIMIT, "dance: the beat grid has %u beats within %g s (at most 10 a second)", count, end_s);
    d->nb = (count - 1) * split + 1; /* keys on every dancer beat, the last one closes */
    d->bt = pmi_alloc_array(a, d->nb + 2, sizeof(double), err, "dance: beats");
    if (!d->bt) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < count; i++) {
        double t0 = pm_beat_grid_time(&p->grid, start_beat + (double)i * every) * 30.0;
        double t1 = i + 1 < count ? pm_beat_grid_time(&p->grid, start_beat + (double)(i + 1) * every) * 30.0 : t0;
        for (uint32_t j = 0; j < split && i * split + j <= d->nb - 1; j++) d->bt[i * split + j] = t0 + (t1 - t0) * j / split;
    }
    d->nb -= 1; /* bt[nb] is the last beat: the dance is home there */
    d->bt[d->nb + 1] = d->bt[d->nb] + 1800.0 / d->bpm;
    d->frames = (uint32_t)ceil(d->bt[d->nb] + 1800.0 / d->bpm);
    d->loop = false;
    /* the first dancer beat on a downbeat */
    d->first_down = 0;
    for (uint32_t k = 0; k <= d->nb; k++) {
        double rel = fmod(start_beat + (double)k / split * every - (double)down, (double)bpb);
        if (rel < 0) rel += bpb;
        if (fabs(rel) < 1e-6 || fabs(rel - bpb) < 1e-6) {
            d->first_down = k;
            break;
        }
    }
    return PM_OK;
}

/* Each dancer beat's energy: the onset envelope's mean over it. */
static pm_result plan_energy(dance *d, const pm_allocator *a, pm_error *err) {
    const pm_dance_params *p = &d->p;
    if (!p->onset || !p->onset_count || !(p->onset_rate > 0) || d->loop) return PM_OK;
    d->beat_energy = pmi_alloc_array(a, d->nb + 1, sizeof(float), err, "dance: energy");
    if (!d->beat_energy) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < d->nb; k++) {
        double t0 = d->bt[k] / 30.0 * p->onset_rate, t1 = d->bt[k + 1] / 30.0 * p->onset_rate;
        int64_t i0 = (int64_t)floor(t0), i1 = (int64_t)ceil(t1);
        double s = 0;
        int64_t n = 0;
        for (int64_t i = i0 < 0 ? 0 : i0; i < i1 && i < (int64_t)p->onset_count; i++) {
            float v = p->onset[i];
            if (isfinite(v)) s += v;
            n++;
        }
        d->beat_energy[k] = n ? (float)(s / (double)n) : 0;
    }
    d->beat_energy[d->nb] = d->nb ? d->beat_energy[d->nb - 1] : 0;
    return PM_OK;
}

/* ---- tracks and keys ---------------------------------------------------------------------------- */

typedef pmi_figure_track track;

static pmi_dq pose_rot(const dance_pose *o, int b) {
    switch (b) {
    case DB_CENTER: return o->center_rot;
    case DB_WAIST: case DB_LOWER: return o->pelvis;
    case DB_UPPER: return o->upper;
    case DB_UPPER2: return o->upper2;
    case DB_NECK: return o->neck;
    case DB_HEAD: return o->head;
    case DB_SHOULDER_L: case DB_SHOULDER_R: return o->shoulder[b - DB_SHOULDER_L];
    case DB_ARM_L: case DB_ARM_R: return o->arm[b - DB_ARM_L];
    case DB_ELBOW_L: case DB_ELBOW_R: return o->elbow[b - DB_ELBOW_L];
    case DB_WRIST_L: case DB_WRIST_R: return o->wrist[b - DB_WRIST_L];
    case DB_LEG_IK_L: case DB_LEG_IK_R: return o->foot_rot[b - DB_LEG_IK_L];
    default: return DQ_ID;
    }
}

void pm_dance_plan_free(pm_dance_plan *plan) {
    if (!plan) return;
    pmi_free(&plan->allocator, plan->ankles);
    pmi_free(&plan->allocator, plan->contact);
    pmi_free(&plan->allocator, plan->beats);
    plan->ankles = NULL, plan->contact = NULL, plan->beats = NULL;
    plan->beat_count = 0;
}

/* Each foot coming to rest as played (its ankle within 0.05 L of its lowest and slower than 0.005 L a
 * frame, after at least 3 frames faster than 0.015 L) against the nearest danced beat. */
static void measure_sync(const dance *d, float *const played[2], uint32_t F, pm_beat_sync *sync) {
    const double L = d->L;
    memset(sync, 0, sizeof *sync);
    for (int s = 0; s < 2; s++) {
        const float *m = played[s];
        double low = 1e30;
        for (uint32_t f = 0; f <= F; f++) low = fmin(low, m[16 * (size_t)f + 13]);
        uint32_t moving = 0;
        for (uint32_t f = 1; f <= F; f++) {
            const float *a = m + 16 * (size_t)f, *b = m + 16 * (size_t)(f - 1);
            double v = sqrt((a[12] - b[12]) * (a[12] - b[12]) + (a[13] - b[13]) * (a[13] - b[13]) + (a[14] - b[14]) * (a[14] - b[14])) / L;
            bool still = v < 0.005 && (a[13] - low) / L < 0.05;
            if (still && moving >= 3 && f >= d->bt[0] && f <= d->bt[d->nb]) {
                double u;
                uint32_t k = beat_at(d, f, &u);
                double e0 = f - d->bt[k], e1 = f - d->bt[k + 1];
                pm_beat_sync_add(sync, fabs(e0) < fabs(e1) ? e0 : e1);
            }
            moving = v > 0.015 ? moving + 1 : still ? 0 : moving;
        }
    }
}

pm_result pm_dance_generate(const pm_dance_params *params, const pm_target_model *model, pm_vmd **out, pm_dance_info *info_out,
                            pm_error *err) {
    return pm_dance_generate_plan(params, model, out, info_out, NULL, err);
}

pm_result pm_dance_generate_plan(const pm_dance_params *params, const pm_target_model *model, pm_vmd **out, pm_dance_info *info_out,
                                 pm_dance_plan *plan_out, pm_error *err) {
    if (plan_out) memset(plan_out, 0, sizeof *plan_out);
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: no output motion");
    *out = NULL;
    pm_dance_params p;
    pm_result r = pmi_dance_resolve_params(params, &p, err);
    if (r) return r;
    const pm_allocator *a = &p.allocator;
    pm_dance_info *info = info_out ? info_out : pmi_alloc_array(a, 1, sizeof *info, err, "dance: info");
    if (!info) return PM_ERR_OUT_OF_MEMORY;
    memset(info, 0, sizeof *info);
    dance *d = pmi_alloc_array(a, 1, sizeof *d, err, "dance");
    pmi_figure fig;
    memset(&fig, 0, sizeof fig);
    pm_vmd *vmd = NULL;
    double *pool = NULL;
    float *plan = NULL, *plan_rot = NULL, *played = NULL;
    uint8_t *contact = NULL;
    if (!d) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    memset(d, 0, sizeof *d);
    d->p = p;
    if ((r = pmi_figure_open(&fig, model, a, err))) goto done;
    d->rig = fig.rig;
    if ((r = pmi_figure_bones(&fig, "dance", BONES, DANCE_BONES, d->idx, d->name, d->pos, &d->L, a, err))) goto done;
    const double L = d->L;
    d->pelvis_bone = has(d, DB_LOWER) ? DB_LOWER : DB_WAIST;
    d->pelvis_parents_upper = !has(d, DB_LOWER) && has(d, DB_WAIST);
    if (!d->pelvis_parents_upper && has(d, DB_LOWER) && has(d, DB_UPPER))
        d->pelvis_parents_upper = pmi_figure_descends(&fig, d->idx[DB_UPPER], d->idx[DB_LOWER]);
    for (int s = 0; s < 2; s++) {
        d->arm_len[s] = pmi_dv_len(pmi_dv_sub(d->pos[DB_ELBOW_L + s], d->pos[DB_ARM_L + s])) +
                        pmi_dv_len(pmi_dv_sub(d->pos[DB_WRIST_L + s], d->pos[DB_ELBOW_L + s]));
        d->hand_len[s] = has(d, DG_FINGER_L + s) ? 1.15 * pmi_dv_len(pmi_dv_sub(d->pos[DG_FINGER_L + s], d->pos[DB_WRIST_L + s])) : 0.1 * L;
        if (!(d->hand_len[s] < 0.3 * L)) d->hand_len[s] = 0.1 * L;
    }
    set_capsules(d);
    const uint32_t iks[2] = {d->idx[DB_LEG_IK_L], d->idx[DB_LEG_IK_R]}, ankles[2] = {d->idx[DG_ANKLE_L], d->idx[DG_ANKLE_R]};
    const bool land = pmi_figure_can_land(&fig, iks, ankles);
    const double knee_min = 6 * DEG;
    for (int s = 0; s < 2; s++) {
        double sg = s ? -1 : 1;
        d->toe_out[s] = dq_y(-sg * 7 * DEG);
        double thigh = pmi_dv_len(pmi_dv_sub(d->pos[DG_HIP_L + s], d->pos[DG_KNEE_L + s])),
               shin = pmi_dv_len(pmi_dv_sub(d->pos[DG_KNEE_L + s], d->pos[DG_ANKLE_L + s]));
        d->reach[s] = sqrt(thigh * thigh + shin * shin + 2 * thigh * shin * cos(knee_min));
        if (d->rig && d->rig->legs[s].present)
            d->reach[s] = pm_landing_leg_reach(&d->rig->legs[s], fmax(knee_min, d->rig->legs[s].knee_rest_bend + 2.5 * DEG));
    }
    double floor_y = fmin(fmin(d->pos[DG_TOE_L].y, d->pos[DG_TOE_R].y), fmin(d->pos[DG_ANKLE_L].y, d->pos[DG_ANKLE_R].y));
    if (d->rig && d->rig->legs[0].present && d->rig->legs[1].present) floor_y = d->rig->floor_height;
    double flen = 0.5 * ((d->pos[DG_ANKLE_L].z - d->pos[DG_TOE_L].z) + (d->pos[DG_ANKLE_R].z - d->pos[DG_TOE_R].z));
    if (!(flen > 0.05 * L)) flen = 0.25 * L;

    /* amounts */
    const double E = p.energy.value, body = p.body.value;
    const double style_bounce = p.style == PM_DANCE_HIPHOP ? 1.6 : p.style == PM_DANCE_IDOL ? 0.7 : 1.0;
    d->bounce = 0.045 * L * (0.3 + 1.4 * body) * (0.4 + 0.8 * E) * style_bounce;
    d->sway = 0.035 * L * (0.4 + 1.2 * body);
    d->roll = 6 * DEG * (0.4 + 1.2 * body);
    d->nod = (p.style == PM_DANCE_HIPHOP ? 5 : 3) * DEG * (0.4 + 1.2 * body);

    if ((r = plan_beats(d, a, err)) || (r = plan_energy(d, a, err))) goto done;
    if (!(d->keys = pmi_alloc_array(a, d->nb + 1, sizeof *d->keys, err, "dance: beats"))) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if ((r = pmi_dance_plan(d, info, err))) goto done;
    const uint32_t F = d->frames;

    /* tracks */
    track tracks[DB_COUNT];
    int nt = 0;
    for (int b = 0; b < DB_COUNT; b++) {
        if (!has(d, b)) continue;
        if ((b == DB_WAIST || b == DB_LOWER) && b != d->pelvis_bone) continue;
        if ((b == DB_LEG_IK_L || b == DB_LEG_IK_R) && land) continue; /* keyed by the landing */
        memset(&tracks[nt], 0, sizeof tracks[nt]);
        tracks[nt].bone = b;
        tracks[nt].pos = b == DB_CENTER || b == DB_LEG_IK_L || b == DB_LEG_IK_R;
        nt++;
    }
    const uint32_t per_frame = 2, ns = F * per_frame + 1;
    double *need = NULL;
    pool = pmi_figure_samples(a, tracks, nt, ns, 2 * (size_t)ns, &need, "dance: samples", err);
    plan = pool ? pmi_alloc_array(a, (size_t)ns * 6, sizeof(float), err, "dance: plan") : NULL;
    plan_rot = plan ? pmi_alloc_array(a, (size_t)ns * 8, sizeof(float), err, "dance: plan") : NULL;
    contact = plan_rot ? pmi_alloc_array(a, 2 * ((size_t)F + 1), 1, err, "dance: contact") : NULL;
    if (!contact) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    double *tmp = need + ns;
    for (uint32_t i = 0; i < ns; i++) {
        dance_pose o;
        eval_pose(d, (double)i / per_frame, &o);
        need[i] = o.crouch_need;
        for (int s = 0; s < 2; s++) {
            float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)i, *pr = plan_rot + (size_t)s * 4 * ns + 4 * (size_t)i;
            pl[0] = (float)o.foot[s].x, pl[1] = (float)o.foot[s].y, pl[2] = (float)o.foot[s].z;
            pr[0] = (float)o.foot_rot[s].x, pr[1] = (float)o.foot_rot[s].y, pr[2] = (float)o.foot_rot[s].z, pr[3] = (float)o.foot_rot[s].w;
            if (i % per_frame == 0) contact[(size_t)s * (F + 1) + i / per_frame] = o.stance[s] ? PM_LANDING_FLAT : PM_LANDING_SWING;
        }
        for (int k = 0; k < nt; k++) {
            track *t = &tracks[k];
            if (t->bone == DB_CENTER) t->p[0][i] = o.center.x + 0.0, t->p[1][i] = o.center.y + 0.0, t->p[2][i] = o.center.z + 0.0;
            if (t->bone == DB_LEG_IK_L || t->bone == DB_LEG_IK_R) {
                int s = t->bone - DB_LEG_IK_L;
                pmi_dv off = pmi_dv_sub(o.foot[s], d->pos[DG_ANKLE_L + s]);
                t->p[0][i] = off.x + 0.0, t->p[1][i] = off.y + 0.0, t->p[2][i] = off.z + 0.0;
            }
            pmi_keyfit_put_rotation(t->q, i, pose_rot(&o, t->bone));
        }
    }
    info->crouch = pm_landing_smooth_need(need, tmp, ns - 1, (uint32_t)(0.25 * 30 * per_frame), 0.25 * L);
    for (int k = 0; k < nt; k++)
        if (tracks[k].bone == DB_CENTER)
            for (uint32_t i = 0; i < ns; i++) tracks[k].p[1][i] -= need[i];

    /* keys */
    if ((r = pm_vmd_create(a, &vmd, err)) || (r = pm_vmd_set_model_name(vmd, "Dance", err))) goto done;
    {
        const char *ik_names[4] = {d->name[DB_LEG_IK_L], d->name[DB_LEG_IK_R], d->name[DG_TOE_IK_L], d->name[DG_TOE_IK_R]};
        if ((r = pmi_figure_ik_on(vmd, ik_names, err))) goto done;
    }
    pmi_figure_keyed keyed = {info->used, 0, 0, 0};
    if ((r = pmi_figure_key_tracks(vmd, tracks, nt, d->name, F, per_frame, p.position_tolerance, p.rotation_tolerance, a, &keyed, err)))
        goto done;
    info->used_count = keyed.used_count;
    info->max_position_error = keyed.max_position_error;
    info->max_rotation_error = keyed.max_rotation_error;
    for (int s = 0; s < 2 && land; s++) info->used[info->used_count++] = d->name[DB_LEG_IK_L + s];
    for (int b = 0; b < DB_COUNT; b++)
        if (!has(d, b) && b != DB_WAIST) info->missing[info->missing_count++] = BONES[b].canonical;

    /* the feet: standing heights and pivots */
    pmi_figure_feet feet;
    memset(&feet, 0, sizeof feet);
    for (int s = 0; s < 2; s++) {
        feet.ankle[s] = ankles[s], feet.ik[s] = iks[s];
        feet.floor[s] = (float)d->pos[DG_ANKLE_L + s].y;
        feet.heel[s] = pm_vec3_make(0, (float)(floor_y - d->pos[DG_ANKLE_L + s].y), (float)(0.25 * flen));
        feet.ball[s] = pm_vec3_make(0, (float)(floor_y - d->pos[DG_ANKLE_L + s].y), (float)(-flen));
    }
    if (land) {
        feet.per_frame = per_frame, feet.plan = plan, feet.ik_rotation = plan_rot, feet.contact = contact;
        if (!(played = pmi_alloc_array(a, 2 * 16 * ((size_t)F + 1), sizeof(float), err, "dance: played feet"))) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        feet.played[0] = played, feet.played[1] = played + 16 * ((size_t)F + 1);
        pm_landing_options lo = {0};
        lo.allocator = *a;
        lo.position_tolerance = (float)fmin(p.position_tolerance, 0.002);
        lo.rotation_tolerance = (float)fmin(p.rotation_tolerance, 0.1);
        lo.flags = d->loop ? PM_LANDING_LOOP : 0;
        if ((r = pmi_figure_land_feet(&fig, &feet, F, &lo, &vmd, &info->report, err))) goto done;
        measure_sync(d, feet.played, F, &info->sync);
        info->synced = true;
        pm_landing_body_options bo = {0};
        bo.allocator = *a;
        bo.flags = d->loop ? PM_LANDING_LOOP : 0;
        if ((r = pm_landing_measure_body(d->rig, vmd, F, &bo, &info->body, err))) goto done;
        info->verified = true;
        info->on_mannequin = fig.standard;
    }
    info->params = p;
    info->frames = F;
    info->loop_frames = d->loop ? F : 0;
    info->bpm = d->bpm;
    info->beat_count = d->nb;
    info->first_grid_beat = d->loop ? 0 : d->first_grid_beat;
    info->grid_beats_per_beat = d->loop ? 0 : d->grid_step;
    info->key_count = vmd->bones.count;
    if (plan_out) {
        pm_dance_plan *pl = plan_out;
        pl->allocator = *a;
        pl->frames = F;
        pl->beat_count = d->nb;
        pl->ankles = pmi_alloc_array(a, 6 * ((size_t)F + 1), sizeof(float), err, "dance: plan");
        pl->contact = pl->ankles ? pmi_alloc_array(a, 2 * ((size_t)F + 1), 1, err, "dance: plan") : NULL;
        pl->beats = pl->contact ? pmi_alloc_array(a, (size_t)d->nb + 1, sizeof(double), err, "dance: plan") : NULL;
        if (!pl->beats) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        for (uint32_t f = 0; f <= F; f++)
            for (int s = 0; s < 2; s++) {
                memcpy(pl->ankles + 6 * (size_t)f + 3 * s, plan + (size_t)s * 3 * ns + 3 * ((size_t)f * per_frame), 3 * sizeof(float));
                pl->contact[2 * (size_t)f + s] = contact[(size_t)s * (F + 1) + f];
            }
        memcpy(pl->beats, d->bt, ((size_t)d->nb + 1) * sizeof(double));
        for (int s = 0; s < 2; s++) pl->floor[s] = feet.floor[s], pl->heel[s] = feet.heel[s], pl->ball[s] = feet.ball[s];
    }
    *out = vmd;
    vmd = NULL;
done:
    pm_vmd_free(vmd);
    if (r) pm_dance_plan_free(plan_out);
    pmi_free(a, played);
    pmi_free(a, contact);
    pmi_free(a, plan_rot);
    pmi_free(a, plan);
    pmi_free(a, pool);
    if (d) {
        pmi_free(a, d->keys);
        pmi_free(a, d->bt);
        pmi_free(a, d->beat_energy);
        pmi_free(a, d);
    }
    pmi_figure_close(&fig);
    if (!info_out) pmi_free(a, info);
    return r;
}
