/* The catwalk generator: a continuous runway walk sampled at every half frame and fitted with VMD
 * Bezier keys. See procmotion/catwalk.h for the behaviour and docs/catwalk.md for the numbers. */
#include "beats/grid.h"
#include "catwalk/entry.h"
#include "keyfit/keyfit.h"
#include "math/inline.h"
#include "procmotion/landing.h"
#include "procmotion/mannequin.h"
#include "procmotion/rig.h"

#include <math.h>
#include <stddef.h>

#define DEG (PM_PI / 180.0)
/* planned knees bend at least this much beyond their rest bend (MMD's knee limit asks for 0.5 degrees;
 * the margin covers the difference between the planned and the played hip) */
#define KNEE_MARGIN (2.5 * DEG)
/* hip_sway 1: the pelvis's lateral shift, in leg lengths; arm_swing 1: the upper arm's swing */
#define SWAY_PER_UNIT 0.072
#define ARM_SWING_MAX (44 * DEG)

/* ---- bones -------------------------------------------------------------------------------------- */

/* Keyed (or reported) bones, in pm_catwalk_info order; then bones read only for proportions. */
enum {
    CB_CENTER, CB_GROOVE, CB_WAIST, CB_LOWER, CB_UPPER, CB_UPPER2, CB_NECK, CB_HEAD,
    CB_SHOULDER_L, CB_SHOULDER_R, CB_ARM_L, CB_ARM_R, CB_ELBOW_L, CB_ELBOW_R, CB_WRIST_L, CB_WRIST_R,
    CB_LEG_IK_L, CB_LEG_IK_R, CB_TOE_IK_L, CB_TOE_IK_R,
    CB_COUNT,
    CG_HIP_L = CB_COUNT, CG_HIP_R, CG_KNEE_L, CG_KNEE_R, CG_ANKLE_L, CG_ANKLE_R, CG_TOE_L, CG_TOE_R,
    CW_BONES
};
_Static_assert(CB_COUNT == PM_CATWALK_BONE_COUNT, "PM_CATWALK_BONE_COUNT must match the bone table");

typedef struct cw_bone_def {
    const char *canonical; /* the semi-standard name (reported when missing, used by the standard figure) */
    pm_rig_role role;      /* what the rig resolver looks for (procmotion/rig.h) */
} cw_bone_def;

static const cw_bone_def BONES[CW_BONES] = {
    [CB_CENTER] = {"センター", PM_RIG_CENTER},
    [CB_GROOVE] = {"グルーブ", PM_RIG_GROOVE},
    [CB_WAIST] = {"腰", PM_RIG_WAIST},
    [CB_LOWER] = {"下半身", PM_RIG_LOWER_BODY},
    [CB_UPPER] = {"上半身", PM_RIG_UPPER_BODY},
    [CB_UPPER2] = {"上半身2", PM_RIG_UPPER_BODY2},
    [CB_NECK] = {"首", PM_RIG_NECK},
    [CB_HEAD] = {"頭", PM_RIG_HEAD},
    [CB_SHOULDER_L] = {"左肩", PM_RIG_LEFT_SHOULDER},
    [CB_SHOULDER_R] = {"右肩", PM_RIG_RIGHT_SHOULDER},
    [CB_ARM_L] = {"左腕", PM_RIG_LEFT_ARM},
    [CB_ARM_R] = {"右腕", PM_RIG_RIGHT_ARM},
    [CB_ELBOW_L] = {"左ひじ", PM_RIG_LEFT_ELBOW},
    [CB_ELBOW_R] = {"右ひじ", PM_RIG_RIGHT_ELBOW},
    [CB_WRIST_L] = {"左手首", PM_RIG_LEFT_WRIST},
    [CB_WRIST_R] = {"右手首", PM_RIG_RIGHT_WRIST},
    [CB_LEG_IK_L] = {"左足ＩＫ", PM_RIG_LEFT_LEG_IK},
    [CB_LEG_IK_R] = {"右足ＩＫ", PM_RIG_RIGHT_LEG_IK},
    [CB_TOE_IK_L] = {"左つま先ＩＫ", PM_RIG_LEFT_TOE_IK},
    [CB_TOE_IK_R] = {"右つま先ＩＫ", PM_RIG_RIGHT_TOE_IK},
    [CG_HIP_L] = {"左足", PM_RIG_LEFT_LEG},
    [CG_HIP_R] = {"右足", PM_RIG_RIGHT_LEG},
    [CG_KNEE_L] = {"左ひざ", PM_RIG_LEFT_KNEE},
    [CG_KNEE_R] = {"右ひざ", PM_RIG_RIGHT_KNEE},
    [CG_ANKLE_L] = {"左足首", PM_RIG_LEFT_ANKLE},
    [CG_ANKLE_R] = {"右足首", PM_RIG_RIGHT_ANKLE},
    [CG_TOE_L] = {"左つま先", PM_RIG_LEFT_TOE},
    [CG_TOE_R] = {"右つま先", PM_RIG_RIGHT_TOE},
};


/* The model seen through one interface: explicit arrays, a pm_skeleton, or the standard figure. */
typedef struct cw_model_view {
    const pm_target_model *m; /* may be NULL */
    const pm_skeleton *sk;
    bool standard; /* no skeleton and no bone names: every bone of BONES, standard proportions */
} cw_model_view;

static cw_model_view make_view(const pm_target_model *m) {
    cw_model_view v = {m, m ? m->skeleton : NULL, false};
    v.standard = !m || (!m->skeleton && !m->bone_names);
    return v;
}

static uint32_t view_bone_count(const cw_model_view *v) {
    return v->standard ? (uint32_t)CW_BONES : v->sk ? v->sk->bone_count : v->m->bone_count;
}
static const char *view_bone_name(const cw_model_view *v, uint32_t i) {
    if (v->standard) return BONES[i].canonical;
    if (v->sk) return v->sk->bones[i].name.data;
    return v->m->bone_names ? v->m->bone_names[i] : NULL;
}
static bool view_has_positions(const cw_model_view *v) { return v->sk || (v->m && v->m->bone_positions); }
static pm_vec3 view_position(const cw_model_view *v, uint32_t i) {
    return v->sk ? v->sk->bones[i].position : v->m->bone_positions[i];
}
static uint32_t view_parent(const cw_model_view *v, uint32_t i) {
    if (v->sk) return v->sk->bones[i].parent;
    if (v->m && v->m->bone_parents) return v->m->bone_parents[i];
    return PM_NO_INDEX;
}
/* ---- rotation helpers of the generator (math/inline.h has the rest) ----------------------------- */

static const pmi_dq DQ_ID = {0, 0, 0, 1};
/* Per-sample trigonometry runs in float: the VMD stores float32, and sinf/cosf are several times
 * cheaper than their double versions (sampling is half of the generator's time). */
static inline double fsin(double a) { return sinf((float)a); }
static inline double fcos(double a) { return cosf((float)a); }

static pmi_dq dq_axis(double ax, double ay, double az, double angle) {
    if (angle == 0) return DQ_ID; /* common (no heading, no roll, ...) and free */
    /* whole turns do not change the rotation (only the quaternion's sign, which pmi_keyfit_put_rotation() makes
     * continuous): reduce first, so a heading of 2 pi gives exactly what 0 gives */
    if (angle > PM_PI || angle < -PM_PI) angle -= 2 * PM_PI * floor((angle + PM_PI) / (2 * PM_PI));
    double s = fsin(0.5 * angle);
    return (pmi_dq){ax * s, ay * s, az * s, fcos(0.5 * angle)};
}
static pmi_dq dq_x(double a) { return dq_axis(1, 0, 0, a); }
static pmi_dq dq_y(double a) { return dq_axis(0, 1, 0, a); }
static pmi_dq dq_z(double a) { return dq_axis(0, 0, 1, a); }
/* q^t: the same axis, t times the angle. */
static pmi_dq dq_pow(const pmi_dq *pq, double t) {
    pmi_dq q = *pq;
    if (q.w < 0) q = (pmi_dq){-q.x, -q.y, -q.z, -q.w};
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (s < 1e-12) return DQ_ID;
    double angle = 2.0 * atan2f((float)s, (float)q.w);
    return dq_axis(q.x / s, q.y / s, q.z / s, angle * t);
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
/* fmax/fmin without NaN handling, inlined (libm's are calls) */
static inline double maxd(double a, double b) { return a > b ? a : b; }
static inline double mind(double a, double b) { return a < b ? a : b; }
/* integral of smooth over [0, u], u in [0, 1] */
static double smooth_int(double u) {
    u = clampd(u, 0, 1);
    return u * u * u - 0.5 * u * u * u * u;
}

/* ---- the walk ----------------------------------------------------------------------------------- */

enum { SIDE_L = 0, SIDE_R = 1 };

typedef struct cw_step {
    pmi_dv foot;       /* the ankle's world position with the foot flat on its foothold */
    double yaw;    /* foot heading (unwrapped) */
    pmi_dq yaw_q;      /* the same as a rotation */
    double hs, to; /* heel strike toe-up angle, toe-off heel-raise angle (radians, >= 0) */
    int64_t f_strike, f_flat, f_heeloff, f_toeoff; /* event frames */
} cw_step;

typedef struct pmi_catwalk {
    pm_catwalk_params p;
    const pmi_catwalk_closing *closing; /* the closing step, or NULL: the unlanded walk */
    /* model */
    uint32_t idx[CW_BONES];
    const char *name[CW_BONES];
    pmi_dv pos[CW_BONES];
    bool pelvis_on_waist, pelvis_parents_upper;
    pmi_dv hips_rel;       /* the hips' midpoint from the pelvis's pivot bone (zero without one) */
    double leg_len[2], reach[2];
    double ankle_y[2];     /* the ankles' standing height: where a flat foot puts them */
    double floor_y;        /* the floor the foot pivots stand on */
    pmi_dv heel_rel, ball_rel; /* foot pivots relative to the ankle, foot frame, flat */
    const pm_skeleton *sk; /* the model's skeleton, when there is one (the standard figure: the mannequin's) */
    pm_rig *rig;           /* its rig analysis (leg chains, reach under MMD's knee limit) */
    bool landing;          /* the legs go through pm_landing_close: plan, land, measure */
    bool standard;         /* no model: the standard figure, landed on the mannequin */
    double hip_half, arm_rest_angle[2];
    pmi_dv elbow_axis[2];
    pmi_dq hang[2], posed_arm[2], posed_elbow[2], shoulder_rest[2]; /* constant parts of the arm poses */
    /* timing */
    double T;       /* true frames per step */
    uint32_t N, Lf; /* steps and frames per loop (the pattern of steps; with warp, Lf = the motion's end) */
    double off;     /* frames: strike 0's place in the loop (a plain grid's phase; 0 without a grid) */
    bool warp;      /* strikes on the listed beats of p.grid (not a loop) */
    double b0, spb; /* the grid beat of strike 0, beats a step */
    uint32_t M;     /* with warp: steps in the motion (strike M at frame Lf) */
    /* path */
    bool traverse, uturn;
    double S, S_nom, D, W, r, tau, half;
    /* amounts in units / radians */
    double elbow_rest, elbow_swing, wrist_trail; /* relaxed elbow bend, its added bend at the front, the hand's lag */
    double lift, sway, bob, twist, drop, torso_twist, torso_sway, lean, head, toe_off, heel_strike, arm_swing,
        knee_min, w_walk, w_stand, clearance, torso_h;
    /* steps -K .. N + K */
    cw_step *steps;
    int64_t k_lo, k_hi;
} cw;

enum { STEP_MARGIN = 8 };

static int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Heel strike frame of step k (any integer): round(k * T + off) inside the loop, periodic outside;
 * with warp the frame nearest its grid beat. */
static int64_t strike_frame(const cw *c, int64_t k) {
    if (c->warp) return (int64_t)llround(30.0 * pm_beat_grid_time(&c->p.grid, c->b0 + (double)k * c->spb));
    int64_t q = fdiv(k, c->N), r = k - q * c->N;
    return (int64_t)llround((double)r * c->T + c->off) + q * (int64_t)c->Lf;
}
/* time of step phase sigma (any real) */
static double sigma_time(const cw *c, double sigma) {
    int64_t k = (int64_t)floor(sigma);
    int64_t f0 = strike_frame(c, k), f1 = strike_frame(c, k + 1);
    return (double)f0 + (sigma - (double)k) * (double)(f1 - f0);
}
/* step phase of time t (the inverse; t in [0, Lf]) */
static double time_sigma(const cw *c, double t) {
    int64_t k = c->warp ? (int64_t)floor((pm_beat_grid_beat(&c->p.grid, t / 30.0) - c->b0) / c->spb) : (int64_t)floor((t - c->off) / c->T);
    if (k < c->k_lo) k = c->k_lo;
    /* the strikes around t, each computed once (sampling calls this twice a frame) */
    int64_t f0 = strike_frame(c, k);
    while (k > c->k_lo && (double)f0 > t) f0 = strike_frame(c, --k);
    int64_t f1 = strike_frame(c, k + 1);
    while ((double)f1 <= t) f0 = f1, f1 = strike_frame(c, ++k + 1);
    return (double)k + (t - (double)f0) / (double)(f1 - f0);
}

typedef struct cw_path {
    double x, z, psi, v; /* pelvis offset in the world (x, z), heading, speed along the heading per step */
} cw_path;

/* The speed profile of a traverse half: ramps of length r at both ends of the walk [0, W]. */
static double trap(const cw *c, double h) {
    if (h <= 0 || h >= c->W) return 0;
    return pmi_smooth(h / c->r) * pmi_smooth((c->W - h) / c->r);
}
static double trap_int(const cw *c, double h) {
    h = clampd(h, 0, c->W);
    double r = c->r, total = c->r * smooth_int(mind(h, r) / r);
    if (h > r) total += mind(h, c->W - r) - r;
    if (h > c->W - r) total += r * (0.5 - smooth_int((c->W - h) / r));
    return total;
}

static cw_path path_at(const cw *c, double sigma) {
    cw_path p = {0, 0, 0, 0};
    if (!c->traverse) {
        p.z = -c->S * sigma;
        p.v = c->S;
        return p;
    }
    double cycles = floor(sigma / c->N), u = sigma - cycles * c->N;
    int j = u >= c->half ? 1 : 0;
    double h = u - j * c->half, dist = c->S * trap_int(c, h);
    double along = j == 0 ? dist : c->D - dist;
    p.z = -along;
    p.v = c->S * trap(c, h);
    if (c->uturn) {
        p.psi = (j + 2 * cycles) * PM_PI;
        if (h > c->W) p.psi += PM_PI * pmi_smooth((h - c->W) / c->tau);
    } else if (j == 1) {
        p.v = -p.v;
    }
    return p;
}

static double intensity(const cw *c, double v) { return c->S > 1e-9 ? mind(1.0, fabs(v) / c->S) : 0.0; }

/* Ankle (leg IK target) offset from the flat-foot target for a foot pitch phi (+ toes up about the
 * heel, - heel up about the ball), in the foot's yawed frame. */
static pmi_dv roll_offset(const cw *c, double phi) {
    if (phi == 0) return (pmi_dv){0, 0, 0};
    pmi_dv piv = phi >= 0 ? c->heel_rel : c->ball_rel;
    double s = fsin(phi), co = fcos(phi);
    double ry = piv.y * co - piv.z * s, rz = piv.y * s + piv.z * co;
    return (pmi_dv){0, piv.y - ry, piv.z - rz};
}

static const cw_step *step_at(const cw *c, int64_t k) { return &c->steps[k - c->k_lo]; }

typedef struct cw_foot {
    pmi_dv target;   /* the ankle's world position (the leg IK bone is keyed onto it) */
    pmi_dq rot;      /* leg IK rotation */
} cw_foot;

static pmi_dv stance_target(const cw *c, const cw_step *st, double phi) {
    pmi_dv roll = roll_offset(c, phi);
    return pmi_dv_add(st->foot, pmi_dq_rotate(st->yaw_q, roll));
}

static double swing_bump(double s) {
    const double sp = 0.4;
    if (s <= 0 || s >= 1) return 0;
    if (s < sp) return pmi_smooth(s / sp);
    double u = (s - sp) / (1 - sp);
    return 1 - u * u;
}

static cw_foot foot_at(const cw *c, int side, double t, double sigma) {
    int64_t k0 = (int64_t)floor(sigma);
    int64_t k = ((k0 & 1) == side) ? k0 : k0 - 1; /* latest strike of this foot (even = left) */
    const cw_step *st = step_at(c, k);
    if ((double)st->f_strike > t) st = step_at(c, k -= 2); /* guard for rounding at the boundary */
    cw_foot f;
    double phi;
    if (t < (double)st->f_flat) {
        double u = (t - (double)st->f_strike) / (double)(st->f_flat - st->f_strike);
        phi = st->hs * (1 - u) * (1 - u);
    } else if (t < (double)st->f_heeloff) {
        phi = 0;
    } else if (t < (double)st->f_toeoff) {
        double u = (t - (double)st->f_heeloff) / (double)(st->f_toeoff - st->f_heeloff);
        phi = -st->to * u * u;
    } else {
        const cw_step *nx = step_at(c, k + 2);
        double s = (t - (double)st->f_toeoff) / (double)(nx->f_strike - st->f_toeoff);
        pmi_dv a0 = stance_target(c, st, -st->to), a1 = stance_target(c, nx, nx->hs);
        double h = pmi_minjerk(s);
        pmi_dv p = pmi_dv_add(a0, pmi_dv_scale(pmi_dv_sub(a1, a0), h));
        p.y += c->lift * swing_bump(s);
        /* swing around the stance foot: keep the ankles `clearance` apart sideways at mid-swing */
        double yaw_mid = 0.5 * (st->yaw + nx->yaw), sgn = side == SIDE_L ? 1.0 : -1.0;
        pmi_dq ym = dq_y(yaw_mid);
        pmi_dv e = pmi_dq_rotate(ym, pmi_dv_make(1, 0, 0));
        const cw_step *other = step_at(c, k + 1);
        pmi_dv mid = pmi_dv_scale(pmi_dv_add(st->foot, nx->foot), 0.5);
        double lateral = ((mid.x - other->foot.x) * e.x + (mid.z - other->foot.z) * e.z) * sgn;
        if (lateral < c->clearance) {
            double b = (c->clearance - lateral) * 16 * s * s * (1 - s) * (1 - s);
            p = pmi_dv_add(p, pmi_dv_scale(e, sgn * b));
        }
        f.target = p;
        phi = -st->to + (nx->hs + st->to) * pmi_smooth(s);
        pmi_dq yaw_q = dq_y(st->yaw + (nx->yaw - st->yaw) * h), pitch = dq_x(phi);
        f.rot = pmi_dq_mul(yaw_q, pitch);
        return f;
    }
    f.target = stance_target(c, st, phi);
    pmi_dq pitch = dq_x(phi);
    f.rot = pmi_dq_mul(st->yaw_q, pitch);
    return f;
}

/* What foot `side` does at time t (pm_landing_contact): rolling about the heel from its strike to foot
 * flat, flat until heel off, rolling about the ball until toe off, then swinging. */
static uint8_t contact_at(const cw *c, int side, double t) {
    double sigma = time_sigma(c, t);
    int64_t k0 = (int64_t)floor(sigma);
    int64_t k = ((k0 & 1) == side) ? k0 : k0 - 1;
    const cw_step *st = step_at(c, k);
    if ((double)st->f_strike > t) st = step_at(c, k - 2);
    if (t < (double)st->f_flat) return PM_LANDING_HEEL;
    if (t < (double)st->f_heeloff) return PM_LANDING_FLAT;
    if (t <= (double)st->f_toeoff) return PM_LANDING_BALL;
    return PM_LANDING_SWING;
}

/* Everything keyed, at one instant. */
typedef struct cw_pose {
    pmi_dv center;       /* センター offset (before the crouch) */
    pmi_dq center_rot;
    double groove_x; /* グルーブ offset x (in センター's frame) */
    pmi_dq pelvis, upper, upper2, neck, head;
    pmi_dq shoulder[2], arm[2], elbow[2], wrist[2];
    pmi_dv ik[2]; /* leg IK offsets from rest (the IK bone on the ankle's plan) */
    pmi_dq ik_rot[2];
    pmi_dv ankle[2]; /* the planned ankle world positions */
    double crouch_need; /* how far センター must go down for both legs to reach with the least knee bend */
} cw_pose;

/* Where each keyed bone's channels are in cw_pose: its position (the moving axes of cw_track.pos), its rotation. */
static const uint16_t POSE_POS[CB_COUNT] = {
    [CB_CENTER] = offsetof(cw_pose, center), [CB_GROOVE] = offsetof(cw_pose, groove_x),
    [CB_LEG_IK_L] = offsetof(cw_pose, ik[SIDE_L]), [CB_LEG_IK_R] = offsetof(cw_pose, ik[SIDE_R])};
static const uint16_t POSE_ROT[CB_COUNT] = {
    [CB_CENTER] = offsetof(cw_pose, center_rot), [CB_WAIST] = offsetof(cw_pose, pelvis), [CB_LOWER] = offsetof(cw_pose, pelvis),
    [CB_UPPER] = offsetof(cw_pose, upper), [CB_UPPER2] = offsetof(cw_pose, upper2), [CB_NECK] = offsetof(cw_pose, neck),
    [CB_HEAD] = offsetof(cw_pose, head), [CB_SHOULDER_L] = offsetof(cw_pose, shoulder[SIDE_L]),
    [CB_SHOULDER_R] = offsetof(cw_pose, shoulder[SIDE_R]), [CB_ARM_L] = offsetof(cw_pose, arm[SIDE_L]),
    [CB_ARM_R] = offsetof(cw_pose, arm[SIDE_R]), [CB_ELBOW_L] = offsetof(cw_pose, elbow[SIDE_L]),
    [CB_ELBOW_R] = offsetof(cw_pose, elbow[SIDE_R]), [CB_WRIST_L] = offsetof(cw_pose, wrist[SIDE_L]),
    [CB_WRIST_R] = offsetof(cw_pose, wrist[SIDE_R]), [CB_LEG_IK_L] = offsetof(cw_pose, ik_rot[SIDE_L]),
    [CB_LEG_IK_R] = offsetof(cw_pose, ik_rot[SIDE_R])};

static void eval_pose(const cw *c, double t, cw_pose *o) {
    double sigma = time_sigma(c, t);
    cw_path p = path_at(c, sigma);
    double in = c->traverse ? intensity(c, p.v) : (c->S > 1e-9 ? 1.0 : 0.0);
    pmi_dv moving = {0, 0, c->traverse ? 0 : -c->S * sigma}; /* the treadmill frame (in place) */
    double cycle = sigma - 2 * floor(0.5 * sigma);         /* sigma mod 2: trig sees the same angle every gait cycle */
    double ph = PM_PI * (cycle - 0.1);                     /* 0 at mid double support after a left strike */
    double sw = fsin(ph), cs = fcos(ph);

    /* body */
    pmi_dq rc = dq_y(p.psi);
    pmi_dq twist = dq_y(c->twist * in * cs), drop = dq_z(c->drop * sw);
    pmi_dq pelvis = pmi_dq_mul(twist, drop);
    o->pelvis = pelvis;
    /* the pelvis turns about the hips' midpoint: its pivot bone sits higher, so the sway takes back
     * the sideways shift the turn would give the hips */
    double shift = pmi_dq_rotate(pelvis, c->hips_rel).x - c->hips_rel.x;
    double hip_sway = c->sway * (sw + fsin(3 * ph) / 6) / (5.0 / 6.0); /* flattened sine: the hip holds out */
    double sway = hip_sway - shift;
    /* lowest just after heel strike (early double support), highest at mid stance */
    double bob = -c->bob * 0.5 * (1 + fcos(2 * PM_PI * (cycle - 0.05)));
    o->center = (pmi_dv){p.x - moving.x, bob, p.z - moving.z};
    o->center_rot = rc;
    o->groove_x = sway;
    if (c->idx[CB_GROOVE] == PM_NO_INDEX) o->center = pmi_dv_add(o->center, pmi_dq_rotate(rc, pmi_dv_make(sway, 0, 0)));

    pmi_dq t_twist = dq_y(-c->torso_twist * in * cs), t_sway = dq_z(atan2f((float)(c->torso_sway * hip_sway - shift), (float)c->torso_h));
    pmi_dq t_lean = dq_x(-c->lean), t_turn = pmi_dq_mul(t_twist, t_sway);
    pmi_dq torso = pmi_dq_mul(t_turn, t_lean);
    bool split = c->idx[CB_UPPER2] != PM_NO_INDEX && c->idx[CB_UPPER] != PM_NO_INDEX;
    pmi_dq half = split ? dq_pow(&torso, 0.5) : torso;
    pmi_dq pelvis_inv = pmi_dq_conj(pelvis), torso_inv = pmi_dq_conj(torso);
    o->upper = c->pelvis_parents_upper ? pmi_dq_mul(pelvis_inv, half) : half;
    o->upper2 = split ? half : DQ_ID;
    if (c->idx[CB_UPPER] == PM_NO_INDEX && c->idx[CB_UPPER2] != PM_NO_INDEX) o->upper2 = torso;
    pmi_dq fix = dq_pow(&torso_inv, c->head);
    bool both = c->idx[CB_NECK] != PM_NO_INDEX && c->idx[CB_HEAD] != PM_NO_INDEX;
    o->neck = both ? dq_pow(&fix, 0.5) : fix;
    o->head = o->neck;

    /* arms: left forward when the right leg leads */
    for (int s = 0; s < 2; s++) {
        double sgn = s == SIDE_L ? 1.0 : -1.0;
        const pmi_dv *ax = &c->elbow_axis[s];
        if (c->p.arm_pose == PM_CATWALK_ARMS_POSED) {
            o->arm[s] = c->posed_arm[s];
            o->elbow[s] = c->posed_elbow[s];
            o->shoulder[s] = c->shoulder_rest[s];
            o->wrist[s] = DQ_ID;
        } else {
            /* fwd: +1 with the arm at the front of its swing, -1 at the back; the elbow bends more in
             * front, and the hand trails the forearm's motion (its velocity, a quarter cycle late) */
            double fwd = -sgn * cs, amount = 0.4 + 0.6 * in;
            double swing = c->arm_swing * amount * fwd + 3 * DEG;
            pmi_dq sq = dq_x(swing);
            o->arm[s] = pmi_dq_mul(sq, c->hang[s]);
            double bend = c->elbow_rest + c->elbow_swing * amount * 0.5 * (1 + fwd);
            o->elbow[s] = dq_axis(ax->x, ax->y, ax->z, bend);
            o->wrist[s] = dq_axis(ax->x, ax->y, ax->z, c->wrist_trail * amount * (-sgn * sw) + 0.5 * c->wrist_trail);
            pmi_dq shrug = dq_y(sgn * 0.1 * swing);
            o->shoulder[s] = pmi_dq_mul(shrug, c->shoulder_rest[s]);
        }
    }

    /* feet and reach */
    pmi_dv cpos = pmi_dv_add(c->pos[CB_CENTER], (pmi_dv){p.x, bob, p.z});
    pmi_dv g_rel = pmi_dv_add(pmi_dv_sub(c->pos[CB_GROOVE], c->pos[CB_CENTER]), (pmi_dv){sway, 0, 0});
    pmi_dv gpos = pmi_dv_add(cpos, pmi_dq_rotate(rc, g_rel));
    int piv = c->pelvis_on_waist ? CB_WAIST : CB_LOWER;
    pmi_dv p_rel = pmi_dv_sub(c->pos[piv], c->pos[CB_GROOVE]);
    pmi_dv ppos = pmi_dv_add(gpos, pmi_dq_rotate(rc, p_rel));
    pmi_dq prot = pmi_dq_mul(rc, c->idx[piv] != PM_NO_INDEX ? pelvis : DQ_ID);
    o->crouch_need = -1e9;
    for (int s = 0; s < 2; s++) {
        cw_foot f = foot_at(c, s, t, sigma);
        int ik = s == SIDE_L ? CB_LEG_IK_L : CB_LEG_IK_R;
        o->ankle[s] = pmi_dv_sub(f.target, moving);
        o->ik[s] = pmi_dv_sub(o->ankle[s], c->pos[ik]);
        o->ik_rot[s] = f.rot;
        pmi_dv h_rel = pmi_dv_sub(c->pos[CG_HIP_L + s], c->pos[piv]);
        pmi_dv hip = pmi_dv_add(ppos, pmi_dq_rotate(prot, h_rel));
        double need = pm_landing_reach_need(pm_vec3_make((float)hip.x, (float)hip.y, (float)hip.z),
                                            pm_vec3_make((float)f.target.x, (float)f.target.y, (float)f.target.z), c->reach[s]);
        if (need > o->crouch_need) o->crouch_need = need;
    }
}

/* ---- setup -------------------------------------------------------------------------------------- */

static pm_result resolve_model(cw *c, const pm_target_model *model, const pm_allocator *a, pm_error *err) {
    cw_model_view v = make_view(model);
    if (model && !model->skeleton && model->bone_count && !model->bone_names)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: the model has %u bones but no bone names",
                        (unsigned)model->bone_count);
    if (model && !model->skeleton && model->morph_count && !model->morph_names)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: the model has %u morphs but no morph names",
                        (unsigned)model->morph_count);
    uint32_t n = view_bone_count(&v);
    if (v.standard) {
        for (int b = 0; b < CW_BONES; b++) c->idx[b] = (uint32_t)b, c->name[b] = BONES[b].canonical;
    } else {
        /* the roles, then (for a rig without センター) the semi-standard names alone: a VRoid or Mixamo
         * hips bone carries the body like センター, and a 下半身 beside it stays the pelvis */
        pm_rig_roles roles, mmd;
        pm_result r = PM_OK;
        const char **names = NULL;
        if (!v.sk) {
            if (!(names = pmi_alloc_array(a, n, sizeof *names, err, "catwalk: bone names"))) return PM_ERR_OUT_OF_MEMORY;
            for (uint32_t i = 0; i < n; i++) names[i] = view_bone_name(&v, i) ? view_bone_name(&v, i) : "";
        }
        for (int pass = 0; pass < 2 && r == PM_OK; pass++) {
            pm_rig_resolve_options o = {pass ? PM_RIG_NAMING_BIT(PM_RIG_NAMING_MMD) : 0};
            pm_rig_roles *out = pass ? &mmd : &roles;
            r = v.sk ? pm_rig_resolve_skeleton(v.sk, &o, out, err) : pm_rig_resolve_names(names, NULL, n, &o, out, err);
            if (roles.bone[PM_RIG_CENTER] != PM_NO_INDEX || roles.bone[PM_RIG_LOWER_BODY] == PM_NO_INDEX ||
                roles.naming[PM_RIG_LOWER_BODY] == PM_RIG_NAMING_MMD || roles.naming[PM_RIG_LOWER_BODY] == PM_RIG_NAMING_ENGLISH)
                break;
            if (pass == 1) {
                roles.bone[PM_RIG_CENTER] = roles.bone[PM_RIG_LOWER_BODY];
                roles.bone[PM_RIG_LOWER_BODY] = mmd.bone[PM_RIG_LOWER_BODY];
            }
        }
        pmi_free(a, names);
        if (r) return r;
        for (int b = 0; b < CW_BONES; b++) {
            c->idx[b] = roles.bone[BONES[b].role];
            c->name[b] = c->idx[b] != PM_NO_INDEX ? view_bone_name(&v, c->idx[b]) : NULL;
        }
    }

    /* proportions: the model's where known, else the standard figure scaled by the leg length */
    bool positions = view_has_positions(&v) && !v.standard;
    pmi_dv known[CW_BONES];
    bool have[CW_BONES];
    for (int b = 0; b < CW_BONES; b++) {
        have[b] = positions && c->idx[b] != PM_NO_INDEX;
        if (have[b]) {
            pm_vec3 q = view_position(&v, c->idx[b]);
            have[b] = isfinite(q.x) && isfinite(q.y) && isfinite(q.z);
            known[b] = pmi_dv_of(q);
        }
    }
    double std_leg = 0, model_leg = 0;
    int legs = 0;
    pmi_dv std[CW_BONES]; /* the standard figure: the built-in mannequin's rest positions */
    for (int b = 0; b < CW_BONES; b++) {
        pm_vec3 p = {0, 0, 0};
        pm_mannequin_rest_position(BONES[b].canonical, &p);
        std[b] = pmi_dv_of(p);
    }
    for (int s = 0; s < 2; s++) {
        const pmi_dv H = std[CG_HIP_L + s], K = std[CG_KNEE_L + s], A = std[CG_ANKLE_L + s];
        std_leg += pmi_dv_len(pmi_dv_sub(H, K)) + pmi_dv_len(pmi_dv_sub(K, A));
        if (have[CG_HIP_L + s] && have[CG_KNEE_L + s] && have[CG_ANKLE_L + s]) {
            model_leg += pmi_dv_len(pmi_dv_sub(known[CG_HIP_L + s], known[CG_KNEE_L + s])) +
                         pmi_dv_len(pmi_dv_sub(known[CG_KNEE_L + s], known[CG_ANKLE_L + s]));
            legs++;
        }
    }
    std_leg *= 0.5;
    double scale = legs && model_leg / legs > 1e-3 ? (model_leg / legs) / std_leg : 1.0;
    for (int b = 0; b < CW_BONES; b++)
        c->pos[b] = have[b] ? known[b] : pmi_dv_scale(std[b], scale);
    for (int s = 0; s < 2; s++) {
        double thigh = pmi_dv_len(pmi_dv_sub(c->pos[CG_HIP_L + s], c->pos[CG_KNEE_L + s]));
        double shin = pmi_dv_len(pmi_dv_sub(c->pos[CG_KNEE_L + s], c->pos[CG_ANKLE_L + s]));
        c->leg_len[s] = thigh + shin;
        double knee = c->knee_min;
        c->reach[s] = sqrt(thigh * thigh + shin * shin + 2 * thigh * shin * cos(knee));
        /* with the rig: the reach MMD's knee limit leaves (a knee resting bent cannot open past its rest
         * bend + 0.5 degrees), a little inside it so the CCD keeps the leg IK on */
        if (c->rig && c->rig->legs[s].present)
            c->reach[s] = pm_landing_leg_reach(&c->rig->legs[s], c->rig->legs[s].knee_rest_bend + maxd(knee, KNEE_MARGIN));
        c->ankle_y[s] = c->pos[CG_ANKLE_L + s].y;
    }

    /* structure */
    c->pelvis_on_waist = c->idx[CB_LOWER] == PM_NO_INDEX && c->idx[CB_WAIST] != PM_NO_INDEX;
    const int piv = c->pelvis_on_waist ? CB_WAIST : CB_LOWER;
    if (c->idx[piv] != PM_NO_INDEX)
        c->hips_rel = pmi_dv_sub(pmi_dv_scale(pmi_dv_add(c->pos[CG_HIP_L], c->pos[CG_HIP_R]), 0.5), c->pos[piv]);
    c->pelvis_parents_upper = c->pelvis_on_waist;
    if (!c->pelvis_on_waist && c->idx[CB_LOWER] != PM_NO_INDEX && c->idx[CB_UPPER] != PM_NO_INDEX) {
        /* some models hang 上半身 below 下半身 */
        uint32_t q = view_parent(&v, c->idx[CB_UPPER]);
        for (uint32_t guard = 0; q != PM_NO_INDEX && q < n && guard < n; guard++) {
            if (q == c->idx[CB_LOWER]) {
                c->pelvis_parents_upper = true;
                break;
            }
            q = view_parent(&v, q);
        }
    }
    c->hip_half = 0.5 * fabs(c->pos[CG_HIP_L].x - c->pos[CG_HIP_R].x);
    /* foot pivots, relative to the ankle: on the floor (the lowest ankle or toe at rest, the rig's floor
     * with a skeleton), the ball under the toe bone, the heel a quarter foot behind the ankle */
    c->floor_y = mind(mind(c->pos[CG_TOE_L].y, c->pos[CG_TOE_R].y), mind(c->pos[CG_ANKLE_L].y, c->pos[CG_ANKLE_R].y));
    if (c->rig && c->rig->legs[0].present && c->rig->legs[1].present) c->floor_y = c->rig->floor_height;
    double ay = 0.5 * (c->ankle_y[0] + c->ankle_y[1]);
    double flen = 0.5 * ((c->pos[CG_ANKLE_L].z - c->pos[CG_TOE_L].z) + (c->pos[CG_ANKLE_R].z - c->pos[CG_TOE_R].z));
    if (!(flen > 0.05 * c->leg_len[0])) flen = 0.25 * c->leg_len[0];
    c->heel_rel = (pmi_dv){0, c->floor_y - ay, 0.25 * flen};
    c->ball_rel = (pmi_dv){0, c->floor_y - ay, -flen};
    for (int s = 0; s < 2; s++) {
        pmi_dv arm = c->pos[CB_ARM_L + s], elbow = c->pos[CB_ELBOW_L + s], wrist = c->pos[CB_WRIST_L + s];
        c->arm_rest_angle[s] = atan2(arm.y - elbow.y, fabs(elbow.x - arm.x) + 1e-9);
        pmi_dv d = pmi_dv_sub(wrist, elbow);
        double len = pmi_dv_len(d);
        d = len > 1e-9 ? pmi_dv_scale(d, 1 / len) : (pmi_dv){s == SIDE_L ? 1.0 : -1.0, -1, 0};
        /* axis d x (0, 0, -1) turns the forearm toward the front */
        pmi_dv axis = {-d.y, d.x, 0};
        double al = pmi_dv_len(axis);
        c->elbow_axis[s] = al > 1e-9 ? pmi_dv_scale(axis, 1 / al) : (pmi_dv){1, 0, 0};
    }
    c->torso_h = maxd(0.5, c->pos[CB_SHOULDER_L].y - c->pos[CB_UPPER].y);
    return PM_OK;
}

/* Choose the loop: steps N = 8 m, frames Lf = round(N T). */
static void choose_loop(cw *c, bool has_bpm, double *drift) {
    uint32_t m_min = c->uturn ? 2 : 1;
    c->tau = c->uturn ? 3 : 1;
    c->r = c->uturn ? 1.5 : 1.0;
    double want = c->p.traverse_distance;
    if (c->traverse && want > 0 && c->S_nom > 1e-9) {
        double half = want / c->S_nom + c->r + c->tau;
        uint32_t m = (uint32_t)ceil(2 * half / 8 - 1e-9);
        if (m > m_min) m_min = m;
    }
    const uint32_t max_frames = 7200;
    uint32_t m_max = (uint32_t)floor(max_frames / (8 * c->T));
    if (m_max < 1) m_max = 1;
    if (m_min > m_max) m_min = m_max;
    uint32_t m = m_min;
    for (;; m++) {
        double L = 8.0 * m * c->T;
        double e = fabs(llround(L) - L) / L * 1800.0;
        *drift = e;
        if (!has_bpm || e < 0.75 || m >= m_max) break;
    }
    c->N = 8 * m;
    c->Lf = (uint32_t)llround(c->N * c->T);
    c->half = c->N / 2.0;
    c->W = c->half - c->tau;
    if (c->traverse) {
        double walk = c->W - c->r;
        c->D = want > 0 ? mind(want, c->S_nom * walk) : c->S_nom * walk;
        c->S = walk > 0 ? c->D / walk : 0;
    } else {
        c->D = 0;
        c->S = c->S_nom;
    }
}

static int64_t round_event(const cw *c, double sigma) { return (int64_t)llround(sigma_time(c, sigma)); }

/* Strike 0 on the grid (BEAT GRID in catwalk.h): b0 the first beat at or after 0 s that starts a bar
 * (as far as the step divides the bar); a plain grid shifts the loop's strikes to its phase, listed beats
 * make the motion run from 0 s to the first whole pattern of steps past the last listed beat. */
static pm_result place_on_grid(cw *c, double *drift, pm_error *err) {
    const pm_beat_grid *g = &c->p.grid;
    double first = ceil(pm_beat_grid_beat(g, 0) - 1e-9);
    uint32_t bar = g->beats_per_bar ? g->beats_per_bar : 4;
    double align = 1;
    if (c->spb >= 1 && fmod(bar, 2 * c->spb) == 0) align = 2 * c->spb;
    else if (c->spb >= 1 && fmod(bar, c->spb) == 0) align = c->spb;
    double down = (double)g->first_downbeat;
    double shift = fmod(down - first, align);
    if (shift < 0) shift += align;
    c->b0 = first + shift;
    c->off = 30.0 * pm_beat_grid_time(g, c->b0);
    if (!g->beat_count) return PM_OK;
    /* listed beats: one motion over the song */
    c->warp = true;
    *drift = 0;
    double last = (double)g->beat_count - 1;
    double steps = ceil((last - c->b0) / c->spb - 1e-9);
    if (steps < 1) steps = 1;
    steps = ceil(steps / c->N) * c->N;
    double end = 30.0 * pm_beat_grid_time(g, c->b0 + steps * c->spb);
    if (!(steps < 1e6) || !(end <= PM_CATWALK_MAX_FRAMES))
        return pmi_fail(err, PM_ERR_LIMIT, "catwalk: the beat grid asks for %.0f frames (%.0f s); at most %u", end, end / 30,
                        PM_CATWALK_MAX_FRAMES);
    c->M = (uint32_t)steps;
    c->Lf = (uint32_t)strike_frame(c, c->M);
    for (int64_t k = -STEP_MARGIN; k < (int64_t)c->M + STEP_MARGIN; k++) {
        int64_t f0 = strike_frame(c, k), f1 = strike_frame(c, k + 1);
        if (f1 - f0 < 6)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                            "catwalk: beat grid: the step from beat %g to beat %g lasts %lld frames (at least 6)",
                            c->b0 + (double)k * c->spb, c->b0 + (double)(k + 1) * c->spb, (long long)(f1 - f0));
    }
    return PM_OK;
}

static pm_result build_steps(cw *c, const pm_allocator *a, pm_error *err) {
    c->k_lo = -STEP_MARGIN;
    c->k_hi = (int64_t)(c->warp ? c->M : c->N) + STEP_MARGIN;
    c->steps = pmi_alloc_array(a, (size_t)(c->k_hi - c->k_lo + 1), sizeof(cw_step), err, "catwalk: steps");
    if (!c->steps) return PM_ERR_OUT_OF_MEMORY;
    bool toe_ik[2] = {c->idx[CB_TOE_IK_L] != PM_NO_INDEX, c->idx[CB_TOE_IK_R] != PM_NO_INDEX};
    for (int64_t k = c->k_lo; k <= c->k_hi; k++) {
        cw_step *st = &c->steps[k - c->k_lo];
        int side = (int)(k & 1);
        double mid = (double)k + 0.6; /* mid stance: the pelvis is over this foot */
        cw_path p = path_at(c, mid);
        double in = c->traverse ? intensity(c, p.v) : (c->S > 1e-9 ? 1.0 : 0.0);
        double fwd = c->traverse ? (c->S > 1e-9 ? clampd(p.v / c->S, 0, 1) : 0) : in;
        double w = c->w_stand + (c->w_walk - c->w_stand) * in;
        double sgn = side == SIDE_L ? 1.0 : -1.0;
        /* at mid stance the ankle is under the hip joint (not where the rest pose puts it: some
         * models stand with the legs slanting) */
        double rest_z = 0.5 * (c->pos[CG_HIP_L].z + c->pos[CG_HIP_R].z);
        pmi_dq heading = dq_y(p.psi);
        pmi_dv off = pmi_dq_rotate(heading, pmi_dv_make(sgn * w, 0, rest_z));
        st->foot = (pmi_dv){p.x + off.x, c->ankle_y[side], p.z + off.z};
        st->yaw = p.psi;
        st->yaw_q = dq_y(p.psi);
        st->hs = toe_ik[side] ? c->heel_strike * fwd : 0;
        /* full roll walking forwards, a little stepping on the spot, none stepping backwards */
        st->to = toe_ik[side] ? c->toe_off * (fwd + 0.3 * (1 - in)) : 0;
        st->f_strike = strike_frame(c, k);
        int64_t next = strike_frame(c, k + 1), next2 = strike_frame(c, k + 2);
        st->f_flat = round_event(c, (double)k + 0.15);
        if (st->f_flat <= st->f_strike) st->f_flat = st->f_strike + 1;
        if (st->f_flat > next) st->f_flat = next;
        st->f_heeloff = round_event(c, (double)k + 0.7);
        if (st->f_heeloff <= st->f_flat) st->f_heeloff = st->f_flat + 1;
        st->f_toeoff = round_event(c, (double)k + 1.2);
        if (st->f_toeoff <= st->f_heeloff) st->f_toeoff = st->f_heeloff + 1;
        if (st->f_toeoff > next2 - 2) st->f_toeoff = next2 - 2;
        if (st->f_heeloff >= st->f_toeoff) st->f_heeloff = st->f_toeoff - 1;
        if (st->f_flat >= st->f_heeloff) st->f_flat = st->f_heeloff - 1;
    }
    return PM_OK;
}

/* ---- sampling and keys -------------------------------------------------------------------------- */

/* Per keyed bone: which channels move, and where its samples live. */
typedef struct cw_track {
    int bone;
    bool pos[3];
    bool rot;
    double *p[3];
    double *q;
    uint8_t *forced;
} cw_track;

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static pm_result add_morphs(const cw *c, const pm_target_model *model, pm_vmd *vmd, pm_catwalk_info *info, pm_error *err) {
    const char *blink = pm_rig_target_morph(model, PM_RIG_MORPH_BLINK), *smile = pm_rig_target_morph(model, PM_RIG_MORPH_SMILE);
    pm_result r;
    const uint32_t Lf = c->Lf;
    if (blink && c->p.blink.value > 0) {
        double w = c->p.blink.value;
        uint32_t seed = c->p.seed, starts[256], count = 0;
        /* 2-6 s apart; the gap across the loop end counts too */
        uint32_t t = 20 + lcg(&seed) % 40;
        while (t + 8 < Lf && count < 256) {
            starts[count++] = t;
            t += 60 + lcg(&seed) % 121;
        }
        while (count > 0 && (Lf - starts[count - 1]) + starts[0] < 60) count--;
        if ((r = pm_vmd_add_morph_key(vmd, blink, 0, 0, err))) return r;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t b = starts[i];
            if ((r = pm_vmd_add_morph_key(vmd, blink, b, 0, err)) || (r = pm_vmd_add_morph_key(vmd, blink, b + 2, (float)w, err)) ||
                (r = pm_vmd_add_morph_key(vmd, blink, b + 3, (float)w, err)) ||
                (r = pm_vmd_add_morph_key(vmd, blink, b + 6, 0, err)))
                return r;
        }
        if ((r = pm_vmd_add_morph_key(vmd, blink, Lf, 0, err))) return r;
        info->blink_morph = blink;
    }
    if (smile && c->p.expression.value > 0) {
        float w = c->p.expression.value;
        if ((r = pm_vmd_add_morph_key(vmd, smile, 0, w, err)) || (r = pm_vmd_add_morph_key(vmd, smile, Lf, w, err))) return r;
        info->expression_morph = smile;
    }
    return PM_OK;
}

/* The feet as landing limbs: plan, foot rotations, gait events, contact and pivots. */
static void foot_limb(const cw *c, int s, const float *plan, const float *plan_rot, uint32_t ns, uint32_t per_frame,
                      const uint8_t *forced, uint8_t *contact, pm_landing_limb *l) {
    memset(l, 0, sizeof *l);
    l->effector = c->idx[CG_ANKLE_L + s];
    l->ik_bone = c->idx[CB_LEG_IK_L + s];
    l->per_frame = per_frame;
    l->plan = plan + (size_t)s * 3 * ns;
    l->ik_rotation = plan_rot + (size_t)s * 4 * ns;
    l->forced = forced + (size_t)s * (c->Lf + 1);
    for (uint32_t f = 0; f <= c->Lf; f++) contact[f] = contact_at(c, s, f);
    /* not a loop: a stance cut by either end of the motion is not a stance the report can judge (it
     * would count the heel raised at its toe-off as a gap to the floor) */
    for (uint32_t f = 0; c->warp && f <= c->Lf && contact[f] != PM_LANDING_SWING; f++) contact[f] = PM_LANDING_SWING;
    for (int64_t f = c->Lf; c->warp && f >= 0 && contact[f] != PM_LANDING_SWING; f--) contact[f] = PM_LANDING_SWING;
    l->contact = contact;
    l->floor = (float)c->ankle_y[s];
    l->heel = pm_vec3_make((float)c->heel_rel.x, (float)c->heel_rel.y, (float)c->heel_rel.z);
    l->ball = pm_vec3_make((float)c->ball_rel.x, (float)c->ball_rel.y, (float)c->ball_rel.z);
    l->keep_children = true;
}

/* Close the loop (procmotion/landing.h): the leg IK bones keyed on the plan, the legs pre-posed, IK off
 * where MMD's knee limit could not hold them; then the result played and measured. */
static pm_result land_legs(cw *c, const bool land[2], float *played, const float *plan, const float *plan_rot, uint32_t ns,
                           uint32_t per_frame, const uint8_t *forced, pm_vmd **vmd, pm_catwalk_info *info, pm_error *err) {
    const pm_allocator *a = &c->p.allocator;
    uint8_t *contact = pmi_alloc_array(a, 2 * ((size_t)c->Lf + 1), 1, err, "catwalk: contact");
    if (!contact) return PM_ERR_OUT_OF_MEMORY;
    pm_landing_limb limbs[2];
    uint32_t n = 0;
    for (int s = 0; s < 2; s++)
        if (land[s]) {
            info->report_bones[n] = c->name[CG_ANKLE_L + s];
        {
            foot_limb(c, s, plan, plan_rot, ns, per_frame, forced, contact + (size_t)s * (c->Lf + 1), &limbs[n]);
            if (played) limbs[n].played = played + (size_t)n * 16 * (c->Lf + 1);
            n++;
        }
        }
    pm_landing_options o = {0};
    o.allocator = *a;
    o.position_tolerance = mind(c->p.position_tolerance, 0.002);
    o.rotation_tolerance = (float)mind(c->p.rotation_tolerance, 0.2);
    o.period = 2 * c->T;
    o.flags = c->warp ? 0 : PM_LANDING_LOOP;
    pm_vmd *landed = NULL;
    pm_result r = pm_landing_close(c->sk, *vmd, c->Lf, limbs, n, &o, &landed, &info->report, err);
    pmi_free(a, contact);
    if (r) return r;
    pm_vmd_free(*vmd);
    *vmd = landed;
    info->verified = true;
    info->on_mannequin = c->standard;
    return PM_OK;
}

/* The heel point of the played ankle matrices m (one foot) at frame f (a loop wraps). */
static pmi_dv heel_played(const cw *c, const float *m, int64_t f) {
    if (!c->warp) f = ((f % (int64_t)c->Lf) + (int64_t)c->Lf) % (int64_t)c->Lf;
    const float *w = m + 16 * (size_t)f;
    pmi_dv h = c->heel_rel;
    return (pmi_dv){w[0] * h.x + w[4] * h.y + w[8] * h.z + w[12], w[1] * h.x + w[5] * h.y + w[9] * h.z + w[13],
                w[2] * h.x + w[6] * h.y + w[10] * h.z + w[14]};
}

/* Each heel strike in frames 0 .. Lf against its beat (BEAT GRID in catwalk.h). Played (`played`: the
 * landing's evaluation of both ankles): the earliest frame from which the heel point stays on the floor
 * (within STRIKE_TOLERANCE units) until foot flat, searched from 3 frames before the keyed strike.
 * Without it (names only): the keyed strike frame. */
#define STRIKE_TOLERANCE 0.02
/* The played strike (pmi_catwalk_closing.played_strike; m: the leg's played ankle matrices). */
static int64_t played_strike(const cw *c, const float *m, int64_t strike, int64_t flat) {
    int64_t lo = strike - 3;
    if (c->warp && lo < 0) lo = 0;
    int64_t f = flat;
    while (f > lo && heel_played(c, m, f - 1).y <= c->floor_y + STRIKE_TOLERANCE) f--;
    return f;
}

static pm_result measure_strikes(const cw *c, const float *played, pm_catwalk_info *info, pm_catwalk_plan *out, pm_error *err) {
    const pm_allocator *a = &c->p.allocator;
    uint32_t n = 0;
    pm_catwalk_strike *list = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (!out || !n) break;
            if (!(list = pmi_alloc_array(a, n, sizeof *list, err, "catwalk: strikes"))) return PM_ERR_OUT_OF_MEMORY;
            n = 0;
        }
        for (int64_t k = c->k_lo; k < c->k_hi; k++) {
            const cw_step *st = step_at(c, k);
            /* a loop's first pass is frames 0 .. Lf - 1 (frame Lf is frame 0 again) */
            if (st->f_strike < 0 || st->f_strike > (int64_t)c->Lf - (c->warp ? 0 : 1)) continue;
            int side = (int)(k & 1);
            int64_t f = st->f_strike;
            if (played && (!c->warp || st->f_flat <= (int64_t)c->Lf))
                f = c->closing->played_strike(c, played + (size_t)side * 16 * (c->Lf + 1), st->f_strike, st->f_flat);
            double beat = c->b0 + (double)k * c->spb;
            double at = pm_beat_grid_is_set(&c->p.grid) ? 30.0 * pm_beat_grid_time(&c->p.grid, beat) : (double)k * c->T + c->off;
            if (pass == 0) pm_beat_sync_add(&info->sync, (double)f - at);
            else list[n] = (pm_catwalk_strike){(uint32_t)f, (uint32_t)side, beat, at, (double)f - at};
            n++;
        }
    }
    if (out) {
        out->allocator = *a;
        out->strikes = list;
        out->strike_count = list ? n : 0;
    }
    return PM_OK;
}

/* The plan at whole frames (and the feet's floors and pivots). */
static pm_result keep_plan(const cw *c, const float *plan, uint32_t ns, uint32_t per_frame, pm_catwalk_plan *out,
                           pm_error *err) {
    const pm_allocator *a = &c->p.allocator;
    const size_t n1 = (size_t)c->Lf + 1;
    out->allocator = *a;
    out->frames = c->Lf;
    out->ankles = pmi_alloc_array(a, n1 * 6, sizeof(float), err, "catwalk: plan");
    out->contact = out->ankles ? pmi_alloc_array(a, n1 * 2, 1, err, "catwalk: contact") : NULL;
    if (!out->contact) return PM_ERR_OUT_OF_MEMORY;
    for (size_t f = 0; f < n1; f++)
        for (int s = 0; s < 2; s++) {
            memcpy(out->ankles + 6 * f + 3 * s, plan + (size_t)s * 3 * ns + 3 * f * per_frame, 3 * sizeof(float));
            out->contact[2 * f + s] = contact_at(c, s, (double)f);
        }
    for (int s = 0; s < 2; s++) {
        out->floor[s] = (float)c->ankle_y[s];
        out->heel[s] = pm_vec3_make((float)c->heel_rel.x, (float)c->heel_rel.y, (float)c->heel_rel.z);
        out->ball[s] = pm_vec3_make((float)c->ball_rel.x, (float)c->ball_rel.y, (float)c->ball_rel.z);
    }
    return PM_OK;
}

/* The amounts in units and radians, from the parameters and the leg length L; the constant arm poses. */
static void set_amounts(cw *c, double L) {
    const pm_catwalk_params *p = &c->p;
    c->traverse = p->traverse;
    c->uturn = p->u_turn;
    c->S_nom = p->stride.value * 1.5 * L;
    c->lift = p->step_height.value * 0.14 * L;
    c->sway = p->hip_sway.value * SWAY_PER_UNIT * L;
    c->bob = p->bob.value * 0.1 * L;
    c->twist = p->hip_twist.value * 16 * DEG;
    c->drop = p->pelvis_drop.value * 18 * DEG;
    c->torso_twist = p->torso_twist.value * 20 * DEG;
    c->torso_sway = p->torso_sway.value;
    c->lean = p->lean.value * 15 * DEG;
    c->head = 1 - p->head_follow.value;
    c->toe_off = p->toe_off.value * 60 * DEG;
    c->heel_strike = p->heel_strike.value * 30 * DEG;
    c->arm_swing = p->arm_swing.value * ARM_SWING_MAX;
    c->elbow_rest = p->elbow_bend.value * 30 * DEG;
    c->elbow_swing = p->elbow_bend.value * 60 * DEG;
    c->wrist_trail = p->elbow_bend.value * 16 * DEG;
    c->w_walk = c->hip_half * (1 - 2 * p->cross_step.value);
    c->w_stand = 0.5 * (c->pos[CG_ANKLE_L].x - c->pos[CG_ANKLE_R].x);
    c->clearance = 0.11 * L;
    for (int s = 0; s < 2; s++) {
        double sgn = s == SIDE_L ? 1.0 : -1.0;
        c->hang[s] = dq_z(-sgn * (75 * DEG - c->arm_rest_angle[s]));
        pmi_dq forward = dq_x(5 * DEG), raise = dq_z(-sgn * (p->pose_shoulder.value * DEG - c->arm_rest_angle[s]));
        c->posed_arm[s] = pmi_dq_mul(forward, raise);
        c->posed_elbow[s] = dq_axis(c->elbow_axis[s].x, c->elbow_axis[s].y, c->elbow_axis[s].z, p->pose_elbow.value * DEG);
        c->shoulder_rest[s] = dq_z(-sgn * 3 * DEG);
    }
}

const pmi_catwalk_closing pmi_catwalk_landing = {pm_mannequin_skeleton, pm_rig_analyze, pm_rig_free, land_legs, played_strike,
                                                 pmi_catwalk_report_json};

pm_result pm_catwalk_generate(const pm_catwalk_params *params, const pm_target_model *model, pm_vmd **out,
                              pm_catwalk_info *info_out, pm_error *err) {
    return pmi_catwalk_generate(params, model, &pmi_catwalk_landing, out, info_out, NULL, err);
}

pm_result pm_catwalk_generate_plan(const pm_catwalk_params *params, const pm_target_model *model, pm_vmd **out,
                                   pm_catwalk_info *info_out, pm_catwalk_plan *plan_out, pm_error *err) {
    return pmi_catwalk_generate(params, model, &pmi_catwalk_landing, out, info_out, plan_out, err);
}

void pm_catwalk_plan_free(pm_catwalk_plan *plan) {
    if (!plan) return;
    pmi_free(&plan->allocator, plan->ankles);
    pmi_free(&plan->allocator, plan->contact);
    pmi_free(&plan->allocator, plan->strikes);
    plan->ankles = NULL;
    plan->contact = NULL;
    plan->strikes = NULL;
    plan->strike_count = 0;
}

pm_result pmi_catwalk_generate(const pm_catwalk_params *params, const pm_target_model *model, const pmi_catwalk_closing *closing,
                               pm_vmd **out, pm_catwalk_info *info_out, pm_catwalk_plan *plan_out, pm_error *err) {
    if (plan_out) memset(plan_out, 0, sizeof *plan_out);
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: no output motion");
    *out = NULL;
    pm_catwalk_info info_local, *info = info_out ? info_out : &info_local;
    memset(info, 0, sizeof *info);
    cw c;
    memset(&c, 0, sizeof c);
    const bool standard = !model || (!model->skeleton && !model->bone_names && !model->bone_count);
    if (!closing && (standard || model->skeleton))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                        "catwalk: %s is landed and measured (the closing step: the rig analysis, the MMD-exact evaluator, "
                        "IK), which this entry does not carry; give bone names, or use the entry that lands (the motion module's)",
                        standard ? "the standard figure (no model, no bone names)" : "a walk on a model's skeleton");
    c.closing = closing;
    pm_result r = pmi_catwalk_resolve_params(params, &c.p, err);
    if (r) return r;
    const pm_allocator *a = &c.p.allocator;
    const pm_catwalk_params *p = &c.p;
    c.knee_min = (1 + 40 * p->stance_knee.value) * DEG;
    /* the skeleton the legs are landed and measured on: the model's, or for the standard figure the
     * built-in mannequin's (the same figure and names; its morphs are not used) */
    pm_skeleton *standard_sk = NULL;
    pm_target_model standard_model;
    const pm_target_model *m = model;
    float *plan = NULL, *plan_rot = NULL, *played = NULL;
    if (standard) {
        pm_mannequin_options mo = {0};
        mo.allocator = *a;
        if ((r = closing->standard_skeleton(&mo, &standard_sk, err))) return r;
        memset(&standard_model, 0, sizeof standard_model);
        standard_model.skeleton = standard_sk;
        m = &standard_model;
    }
    c.sk = m->skeleton;
    c.standard = standard;
    if (c.sk) {
        pm_rig_options ro = {0};
        ro.allocator = *a;
        if ((r = closing->rig_analyze(c.sk, &ro, &c.rig, err))) goto early;
    }
    if ((r = resolve_model(&c, m, a, err))) goto early;
    if (standard)
        for (int b = 0; b < CW_BONES; b++) c.name[b] = c.idx[b] != PM_NO_INDEX ? BONES[b].canonical : NULL;
    /* which legs are landed: a leg whose IK bone is the rig's leg chain (target the ankle) */
    bool land[2] = {false, false};
    for (int s = 0; s < 2 && c.rig; s++) {
        const pm_rig_leg *lg = &c.rig->legs[s];
        land[s] = lg->present && lg->ik_chain != PM_NO_INDEX && c.rig->chains[lg->ik_chain].ik_bone == c.idx[CB_LEG_IK_L + s] &&
                  c.rig->chains[lg->ik_chain].target == lg->ankle && c.idx[CG_ANKLE_L + s] == lg->ankle;
    }
    /* both legs or neither (the report's limbs are the left and the right leg) */
    c.landing = land[0] && land[1];
    land[0] = land[1] = c.landing;

    /* tempo */
    const bool has_grid = pm_beat_grid_is_set(&p->grid);
    bool has_bpm = p->bpm != 0 || has_grid;
    double bpm = has_grid ? p->grid.bpm : has_bpm ? p->bpm : 120.0 * p->speed;
    double beat = 1800.0 / bpm;
    const double cad = p->cadence == PM_CATWALK_CADENCE_BEAT ? 1 : 2;
    c.spb = cad;
    c.T = beat * cad;
    /* a grid keeps its tempo: a step spans a power of two of beats that keeps it in the BPM range's steps */
    while (has_grid && c.T < 9 * cad - 1e-9) c.spb *= 2, c.T *= 2;
    while (has_grid && c.T > 30 * cad + 1e-9) c.spb /= 2, c.T /= 2;

    /* amounts */
    double L = 0.5 * (c.leg_len[0] + c.leg_len[1]);
    set_amounts(&c, L);
    double drift = 0;
    choose_loop(&c, has_bpm, &drift);
    if (has_grid && (r = place_on_grid(&c, &drift, err))) goto early;
    if ((r = build_steps(&c, a, err))) goto early;

    /* which bones get which channels */
    cw_track tracks[CB_COUNT];
    int nt = 0;
    int pelvis_bone = c.pelvis_on_waist ? CB_WAIST : CB_LOWER;
    for (int b = 0; b < CB_COUNT; b++) {
        if (c.idx[b] == PM_NO_INDEX || b == CB_TOE_IK_L || b == CB_TOE_IK_R) continue;
        if ((b == CB_LEG_IK_L && land[0]) || (b == CB_LEG_IK_R && land[1])) continue; /* keyed by the landing */
        if ((b == CB_WAIST || b == CB_LOWER) && b != pelvis_bone) continue;
        cw_track *t = &tracks[nt++];
        memset(t, 0, sizeof *t);
        t->bone = b;
        if (b == CB_CENTER) t->pos[0] = t->pos[1] = t->pos[2] = true, t->rot = c.uturn;
        else if (b == CB_GROOVE) t->pos[0] = true;
        else if (b == CB_LEG_IK_L || b == CB_LEG_IK_R) t->pos[0] = t->pos[1] = t->pos[2] = t->rot = true;
        else t->rot = true;
    }
    const uint32_t per_frame = 2, ns = c.Lf * per_frame + 1;
    size_t doubles = 0;
    for (int i = 0; i < nt; i++) doubles += (size_t)ns * ((tracks[i].pos[0] + tracks[i].pos[1] + tracks[i].pos[2]) + 4 * tracks[i].rot);
    doubles += 2 * (size_t)ns; /* crouch profile and scratch */
    double *pool = pmi_alloc_array(a, doubles + 1, sizeof(double), err, "catwalk: samples");
    uint8_t *forced = pool ? pmi_alloc_array(a, 2 * ((size_t)c.Lf + 1), 1, err, "catwalk: events") : NULL;
    pmi_keyfit_key *keys = forced ? pmi_alloc_array(a, (size_t)c.Lf + 1, sizeof(pmi_keyfit_key), err, "catwalk: keys") : NULL;
    pmi_keyfit *fit = keys ? pmi_keyfit_create(a, c.Lf, per_frame, err) : NULL;
    /* the plan: both ankles at every sample, and the leg IK bones' rotations (foot yaw and pitch) */
    plan = fit ? pmi_alloc_array(a, (size_t)ns * 6, sizeof(float), err, "catwalk: plan") : NULL;
    plan_rot = plan ? pmi_alloc_array(a, (size_t)ns * 8, sizeof(float), err, "catwalk: plan") : NULL;
    pm_vmd *vmd = NULL;
    if (!plan_rot) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    double *cursor = pool;
    double *need = cursor, *tmp = cursor + ns;
    cursor += 2 * (size_t)ns;
    for (int i = 0; i < nt; i++) {
        for (int axis = 0; axis < 3; axis++)
            if (tracks[i].pos[axis]) tracks[i].p[axis] = cursor, cursor += ns;
        if (tracks[i].rot) tracks[i].q = cursor, cursor += 4 * (size_t)ns;
    }
    /* gait events force keys on the leg IK bones */
    for (int64_t k = c.k_lo; k <= c.k_hi; k++) {
        const cw_step *st = step_at(&c, k);
        uint8_t *ev = forced + (size_t)(k & 1) * (c.Lf + 1);
        int64_t fr[4] = {st->f_strike, st->f_flat, st->f_heeloff, st->f_toeoff};
        for (int e = 0; e < 4; e++) {
            if (c.warp) {
                if (fr[e] >= 0 && fr[e] <= (int64_t)c.Lf) ev[fr[e]] = 1;
                continue;
            }
            int64_t f = fr[e] % (int64_t)c.Lf;
            if (f < 0) f += c.Lf;
            ev[f] = 1;
            if (f == 0) ev[c.Lf] = 1;
        }
    }

    /* sample the continuous motion */
    for (uint32_t i = 0; i < ns; i++) {
        cw_pose o;
        eval_pose(&c, (double)i / per_frame, &o);
        need[i] = o.crouch_need;
        for (int s = 0; s < 2; s++) {
            float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)i, *pr = plan_rot + (size_t)s * 4 * ns + 4 * (size_t)i;
            pl[0] = (float)o.ankle[s].x, pl[1] = (float)o.ankle[s].y, pl[2] = (float)o.ankle[s].z;
            pmi_dq q = o.ik_rot[s];
            if (i > 0 && pr[-4] * q.x + pr[-3] * q.y + pr[-2] * q.z + pr[-1] * q.w < 0) q = (pmi_dq){-q.x, -q.y, -q.z, -q.w};
            pr[0] = (float)q.x, pr[1] = (float)q.y, pr[2] = (float)q.z, pr[3] = (float)q.w;
        }
        for (int k = 0; k < nt; k++) {
            cw_track *t = &tracks[k];
            const double *pos = (const double *)((const char *)&o + POSE_POS[t->bone]);
            for (int axis = 0; axis < 3; axis++)
                if (t->pos[axis]) t->p[axis][i] = pos[axis] + 0.0; /* (+ 0.0 turns -0 into 0) */
            if (t->rot) pmi_keyfit_put_rotation(t->q, i, *(const pmi_dq *)((const char *)&o + POSE_ROT[t->bone]));
        }
    }
    double crouch = pm_landing_smooth_need(need, tmp, ns - 1, (uint32_t)(0.5 * c.T * per_frame) + 1, 0.25 * L);
    for (int k = 0; k < nt; k++)
        if (tracks[k].bone == CB_CENTER)
            for (uint32_t i = 0; i < ns; i++) tracks[k].p[1][i] -= need[i];

    /* fit and write */
    if ((r = pm_vmd_create(a, &vmd, err)) || (r = pm_vmd_set_model_name(vmd, "Catwalk", err))) goto done;
    {
        const char *ik_names[4];
        bool ik_on[4] = {true, true, true, true};
        uint32_t nik = 0;
        const int ik_bones[4] = {CB_LEG_IK_L, CB_LEG_IK_R, CB_TOE_IK_L, CB_TOE_IK_R};
        for (int i = 0; i < 4; i++)
            if (c.idx[ik_bones[i]] != PM_NO_INDEX) ik_names[nik++] = c.name[ik_bones[i]];
        if (nik) {
            if ((r = pm_vmd_add_property_key(vmd, 0, true, nik, ik_names, ik_on, err))) goto done;
            info->property_key_count = 1;
        }
    }
    double max_pos = 0, max_rot = 0;
    for (int k = 0; k < nt; k++) {
        cw_track *t = &tracks[k];
        pmi_keyfit_track kt = {c.Lf, per_frame, {t->p[0], t->p[1], t->p[2]}, t->q, NULL, p->position_tolerance,
                               p->rotation_tolerance * DEG, 2 * c.T};
        if (t->bone == CB_LEG_IK_L || t->bone == CB_LEG_IK_R) kt.forced = forced + (size_t)(t->bone - CB_LEG_IK_L) * (c.Lf + 1);
        pmi_keyfit_result fr;
        if ((r = pmi_keyfit_track_fit(fit, &kt, keys, &fr, err))) goto done;
        max_pos = maxd(max_pos, fr.max_pos_error);
        max_rot = maxd(max_rot, fr.max_rot_error);
        if ((r = pmi_keyfit_add_keys(vmd, c.name[t->bone], keys, fr.count, err))) goto done;
        info->key_count += fr.count;
        info->used[info->used_count++] = c.name[t->bone];
    }
    for (int s = 0; s < 2; s++)
        if (land[s]) info->used[info->used_count++] = c.name[CB_LEG_IK_L + s];
    for (int b = CB_TOE_IK_L; b <= CB_TOE_IK_R; b++)
        if (c.idx[b] != PM_NO_INDEX) info->used[info->used_count++] = c.name[b];
    for (int b = 0; b < CB_COUNT; b++) {
        if (c.idx[b] != PM_NO_INDEX || b == CB_WAIST) continue;
        info->missing[info->missing_count++] = BONES[b].canonical;
    }
    if ((r = add_morphs(&c, model, vmd, info, err))) goto done;
    info->morph_key_count = vmd->morphs.count;
    if (has_bpm && c.landing &&
        !(played = pmi_alloc_array(a, 2 * 16 * ((size_t)c.Lf + 1), sizeof(float), err, "catwalk: played feet"))) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if (c.landing && (r = closing->land(&c, land, played, plan, plan_rot, ns, per_frame, forced, &vmd, info, err))) goto done;
    if (has_bpm && (r = measure_strikes(&c, played, info, plan_out, err))) goto done;
    if (plan_out && (r = keep_plan(&c, plan, ns, per_frame, plan_out, err))) goto done;
    info->key_count = vmd->bones.count;
    info->property_key_count = vmd->properties.count;

    info->params = c.p;
    info->loop_frames = c.Lf;
    info->steps = c.warp ? c.M : c.N;
    info->looping = !c.warp;
    info->synced = has_bpm;
    info->first_strike_beat = c.b0;
    info->beats_per_step = c.spb;
    info->beat_frames = beat;
    info->step_frames = c.T;
    info->bpm = bpm;
    info->drift_frames_per_minute = drift;
    info->max_position_error = max_pos;
    info->max_rotation_error = max_rot / DEG;
    info->leg_length = L;
    info->step_length = c.S;
    info->traverse_distance = c.D;
    info->crouch = crouch;
    info->lift = c.lift;
    *out = vmd;
    vmd = NULL;
done:
    pm_vmd_free(vmd);
    pmi_keyfit_free(fit);
    pmi_free(a, keys);
    pmi_free(a, forced);
    pmi_free(a, pool);
    pmi_free(a, c.steps);
early:
    pmi_free(a, played);
    pmi_free(a, plan);
    pmi_free(a, plan_rot);
    if (c.rig) closing->rig_free(c.rig);
    pm_skeleton_free(standard_sk);
    if (r) pm_catwalk_plan_free(plan_out);
    return r;
}
