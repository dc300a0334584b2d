/* Generators close the loop: IK targets on the plan, an FK pre-pose the CCD accepts at once, IK off
 * where the CCD could not hold it, then the result played and measured (see procmotion/landing.h). */
#include "procmotion/landing.h"

#include "common/internal.h"
#include "keyfit/keyfit.h"
#include "math/inline.h"
#include "procmotion/pose.h"

#include <float.h>

enum { MAX_PER_FRAME = 8 };

/* ---- small double helpers (math/inline.h has the rest) ------------------------------------------ */

/* Column-major float matrix (math.h): rotation columns m[0..2], m[4..6], m[8..10], translation m[12..14]. */
static pmi_dv mat_rotate(const float *m, pmi_dv v) {
    return pmi_dv_make(m[0] * v.x + m[4] * v.y + m[8] * v.z, m[1] * v.x + m[5] * v.y + m[9] * v.z,
                       m[2] * v.x + m[6] * v.y + m[10] * v.z);
}
static pmi_dv mat_rotate_t(const float *m, pmi_dv v) { /* the transposed rotation (the inverse) */
    return pmi_dv_make(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[4] * v.x + m[5] * v.y + m[6] * v.z,
                       m[8] * v.x + m[9] * v.y + m[10] * v.z);
}
static pmi_dv mat_point(const float *m, pmi_dv v) { return pmi_dv_add(mat_rotate(m, v), pmi_dv_make(m[12], m[13], m[14])); }

/* Rodrigues: v turned by angle about unit axis n. */
static pmi_dv rotate_axis(pmi_dv n, double angle, pmi_dv v) {
    double c = cos(angle), s = sin(angle), k = pmi_dv_dot(n, v) * (1 - c);
    pmi_dv x = pmi_dv_cross(n, v);
    return pmi_dv_make(v.x * c + x.x * s + n.x * k, v.y * c + x.y * s + n.y * k, v.z * c + x.z * s + n.z * k);
}
static double wrap_pi(double a) {
    while (a > PM_PI) a -= 2 * PM_PI;
    while (a <= -PM_PI) a += 2 * PM_PI;
    return a;
}

/* ---- planning helpers --------------------------------------------------------------------------- */

double pm_landing_leg_reach(const pm_rig_leg *leg, double knee_bend) {
    if (!leg || !leg->present) return 0;
    double least = leg->knee_rest_bend + 0.5 * (PM_PI / 180.0); /* MMD's knee limit: -0.5 degrees */
    double bend = knee_bend > least ? knee_bend : least;
    double t = leg->thigh, s = leg->shin;
    double r2 = t * t + s * s + 2 * t * s * cos(bend);
    return r2 > 0 ? sqrt(r2) : 0;
}

double pm_landing_reach_need(pm_vec3 hip, pm_vec3 target, double reach) {
    double dy = (double)hip.y - target.y, dx = (double)hip.x - target.x, dz = (double)hip.z - target.z;
    double r2 = reach * reach, h2 = dx * dx + dz * dz;
    double room = r2 - h2 > 0.09 * r2 ? r2 - h2 : 0.09 * r2;
    return dy - sqrt(room);
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
static double maxd(double a, double b) { return a > b ? a : b; }

double pm_landing_smooth_need(double *need, double *tmp, uint32_t n, uint32_t radius, double cap) {
    if (!need || !tmp || n == 0) return 0;
    if (radius > n / 2) radius = n / 2;
    /* sliding maximum over [i - radius, i + radius] (periodic) by doubling: after the loop cur[i] is
     * the maximum over [i, i + w - 1], w the largest power of two <= 2 radius + 1, and two such
     * windows cover the wanted one */
    double *cur = need, *nxt = tmp, *swap;
    for (uint32_t i = 0; i < n; i++) cur[i] = clampd(cur[i], 0, cap);
    uint32_t w = 1;
    for (; 2 * w <= 2 * radius + 1; w *= 2) {
        for (uint32_t i = 0; i < n; i++) nxt[i] = maxd(cur[i], cur[(i + w) % n]);
        swap = cur, cur = nxt, nxt = swap;
    }
    for (uint32_t i = 0; i < n; i++) nxt[i] = maxd(cur[(i + n - radius) % n], cur[(i + radius + 1 - w + n) % n]);
    swap = cur, cur = nxt, nxt = swap;
    /* two box filters of half-width radius / 2 */
    uint32_t h = radius / 2;
    for (int pass = 0; pass < 2; pass++) {
        double sum = 0;
        for (uint32_t d = 0; d <= 2 * h; d++) sum += cur[(n - h + d) % n];
        for (uint32_t i = 0; i < n; i++) {
            nxt[i] = sum / (2 * h + 1);
            sum += cur[(i + h + 1) % n] - cur[(i + n - h) % n];
        }
        swap = cur, cur = nxt, nxt = swap;
    }
    double top = 0;
    for (uint32_t i = 0; i < n; i++) need[i] = cur[i], top = maxd(top, cur[i]);
    need[n] = need[0];
    return top;
}

/* ---- the mechanism ------------------------------------------------------------------------------ */

typedef struct leg {
    bool steer;          /* a leg limb the mechanism keys */
    bool fk_only;        /* without IK: the hip and knee keyed onto the plan itself */
    uint32_t ik, hip, knee, eff, ik_parent, hip_parent;
    pmi_dv ik_rest_local; /* the IK bone's rest offset from its parent */
    pmi_dv k0, a0;       /* hip -> knee, knee -> effector at rest */
    pmi_dv axis;         /* the knee's hinge axis (its local X or its fixed axis) */
    bool limited;
    pm_vec3 lim_min, lim_max;
    double thigh, shin;
    pmi_dv rest_offset;  /* IK rest - effector rest */
    uint32_t toe_ik, toe; /* a foot IK under the leg IK bone (つま先ＩＫ: one link, the effector) and its target */
    pmi_dv toe_ik_rel;   /* its rest offset from the leg IK bone */
    pmi_dv toe_dir;      /* effector -> toe at rest */
    /* per whole frame */
    /* per sample (ns of them, pf per frame) */
    float *ik_parent_world; /* [ns * 16] */
    float *hip_parent_world;/* [ns * 16] */
    pmi_dv *hip_pos;     /* [ns] */
    double *fk_hip, *fk_knee, *fk_foot; /* [ns * 4] rotation samples */
    pmi_dv *toe_off;     /* [ns]: the foot IK bone's animated offset in the input */
    uint8_t *ik_off;     /* [n1]: whole frame keyed with the IK off */
} leg;

typedef struct lnd {
    const pm_skeleton *sk;
    pm_allocator a;
    uint32_t frames, n1;
    uint32_t pf, ns;     /* the steered limbs' samples per frame (they share it) and samples */
    uint32_t count;
    const pm_landing_limb *limb;
    pm_landing_options o;
    leg legs[PM_LANDING_MAX_LIMBS];
    pm_pose_workspace *ws;
    pm_pose *pose;
    void *pool;
    uint8_t *subset;     /* [bone_count]: the bones the limbs depend on (pm_pose_subset) */
    /* the passes that read less evaluate less, each in a workspace of its own (a subset is set once) */
    uint8_t *rec_subset;  /* [bone_count]: what record() evaluates without IK (the hips, the IK bones' parents) */
    uint8_t *samp_subset; /* [bone_count]: what is only sampled (the IK bones, knees, effectors, foot IK bones) */
    pm_pose_workspace *ws_rec, *ws_samp;
    uint8_t *meas_subset; /* [bone_count]: what measure() evaluates when the legs' parents come from record() */
    bool meas_fast;       /* meas_subset holds (see plan_measure) */
} lnd;

static uint32_t per_frame(const pm_landing_limb *l) { return l->per_frame ? l->per_frame : 1; }
static bool active(const pm_landing_limb *l, uint32_t f) { return !l->active || l->active[f]; }
static pmi_dv plan_at(const pm_landing_limb *l, uint32_t sample) { return pmi_dv_from_floats(l->plan + 3 * (size_t)sample); }

static pm_result check_args(const pm_skeleton *sk, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                                     uint32_t count, const pm_landing_options *in, pm_landing_options *o, pm_error *err) {
    if (!sk || !vmd) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: needs a skeleton and a motion");
    if (count > PM_LANDING_MAX_LIMBS || (count && !limbs))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: %u limbs (at most %d)", count, PM_LANDING_MAX_LIMBS);
    if (frames > PM_LANDING_MAX_FRAMES)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: %u frames (at most %u)", frames, PM_LANDING_MAX_FRAMES);
    memset(o, 0, sizeof *o);
    if (in) *o = *in;
    if (o->tolerance == 0) o->tolerance = 0.01f;
    if (o->position_tolerance == 0) o->position_tolerance = 0.002f;
    if (o->rotation_tolerance == 0) o->rotation_tolerance = 0.05f;
    if (!(o->tolerance > 0 && o->tolerance <= 1e3f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: tolerance must be a positive number, got %g", (double)o->tolerance);
    if (!(o->position_tolerance >= 1e-5f && o->position_tolerance <= 0.1f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: position_tolerance must be in [1e-5, 0.1] units, got %g",
                        (double)o->position_tolerance);
    if (!(o->rotation_tolerance >= 1e-4f && o->rotation_tolerance <= 5.0f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: rotation_tolerance must be in [1e-4, 5] degrees, got %g",
                        (double)o->rotation_tolerance);
    if (!isfinite(o->period) || o->period < 0)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: period must be a finite number >= 0");
    if (!(o->fk_tolerance >= 0 && o->fk_tolerance <= 5.0f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: fk_tolerance must be 0 or in (0, 5] degrees, got %g",
                        (double)o->fk_tolerance);
    for (uint32_t i = 0; i < count; i++) {
        const pm_landing_limb *l = &limbs[i];
        if (l->effector >= sk->bone_count)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: effector %u of %u bones", i, l->effector, sk->bone_count);
        if (l->ik_bone != PM_NO_INDEX && l->ik_bone >= sk->bone_count)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: IK bone %u of %u bones", i, l->ik_bone, sk->bone_count);
        if (!l->plan) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u has no plan", i);
        if (per_frame(l) > MAX_PER_FRAME)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: per_frame %u (at most %d)", i, l->per_frame, MAX_PER_FRAME);
        if (!isfinite(l->floor) || !isfinite(l->heel.x) || !isfinite(l->heel.y) || !isfinite(l->heel.z) ||
            !isfinite(l->ball.x) || !isfinite(l->ball.y) || !isfinite(l->ball.z))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: floor or pivots are not finite", i);
        size_t ns = (size_t)frames * per_frame(l) + 1;
        if (!pmi_all_finite(l->plan, 3 * ns))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: the plan holds NaN or Inf", i);
        if (l->ik_rotation && !pmi_all_finite(l->ik_rotation, 4 * ns))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: ik_rotation holds NaN or Inf", i);
        if (l->contact)
            for (uint32_t f = 0; f <= frames; f++)
                if (l->contact[f] >= PM_LANDING_CONTACT_COUNT)
                    return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: limb %u: contact[%u] = %u", i, f, l->contact[f]);
    }
    return PM_OK;
}

/* A leg limb: ik_bone's chain has the effector as target and exactly two links, knee then hip, each the
 * parent of the one before (hip -> knee -> effector). */
static void classify(lnd *L, uint32_t i) {
    if (L->frames == 0) { /* a single frame: nothing to key between, measured only */
        memset(&L->legs[i], 0, sizeof L->legs[i]);
        L->legs[i].eff = L->limb[i].effector, L->legs[i].ik = L->limb[i].ik_bone;
        L->legs[i].toe_ik = L->legs[i].toe = PM_NO_INDEX;
        return;
    }
    const pm_skeleton *sk = L->sk;
    const pm_landing_limb *l = &L->limb[i];
    leg *g = &L->legs[i];
    memset(g, 0, sizeof *g);
    g->eff = l->effector;
    g->ik = l->ik_bone;
    g->toe_ik = g->toe = PM_NO_INDEX;
    if (L->o.flags & PM_LANDING_MEASURE_ONLY) return;
    const pm_bone *ik = NULL;
    if (g->ik == PM_NO_INDEX) {
        if (!l->fk_only) return;
        g->knee = sk->bones[g->eff].parent;
        g->hip = g->knee < sk->bone_count ? sk->bones[g->knee].parent : PM_NO_INDEX;
        if (g->hip >= sk->bone_count) return;
        g->fk_only = true;
    } else {
        ik = &sk->bones[g->ik];
        if (!ik->has_ik || ik->ik.target != l->effector || ik->ik.link_count != 2) return;
        g->knee = ik->ik.links[0].bone, g->hip = ik->ik.links[1].bone;
        if (g->knee >= sk->bone_count || g->hip >= sk->bone_count || sk->bones[g->eff].parent != g->knee ||
            sk->bones[g->knee].parent != g->hip)
            return;
    }
    g->steer = true;
    g->ik_parent = ik ? ik->parent : PM_NO_INDEX;
    g->hip_parent = sk->bones[g->hip].parent;
    pmi_dv ikp = ik ? pmi_dv_of(ik->position) : pmi_dv_of(sk->bones[g->eff].position);
    g->ik_rest_local = g->ik_parent != PM_NO_INDEX ? pmi_dv_sub(ikp, pmi_dv_of(sk->bones[g->ik_parent].position)) : ikp;
    pmi_dv H = pmi_dv_of(sk->bones[g->hip].position), K = pmi_dv_of(sk->bones[g->knee].position), A = pmi_dv_of(sk->bones[g->eff].position);
    g->k0 = pmi_dv_sub(K, H), g->a0 = pmi_dv_sub(A, K);
    g->thigh = pmi_dv_len(g->k0), g->shin = pmi_dv_len(g->a0);
    g->rest_offset = pmi_dv_sub(ikp, A);
    const pm_bone *kb = &sk->bones[g->knee];
    g->axis = pmi_dv_make(1, 0, 0);
    if (kb->flags & PM_BONE_FIXED_AXIS) {
        pmi_dv ax = pmi_dv_of(kb->fixed_axis);
        if (pmi_dv_len(ax) > 1e-6) g->axis = pmi_dv_scale(ax, 1 / pmi_dv_len(ax));
    }
    if (!ik) return; /* no limits, no foot IK */
    const pm_ik_link *kl = &ik->ik.links[0];
    g->limited = kl->has_limit;
    g->lim_min = kl->limit_min, g->lim_max = kl->limit_max;
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        const pm_bone *t = &sk->bones[b];
        if (t->parent != g->ik || !t->has_ik || t->ik.link_count != 1 || t->ik.links[0].bone != g->eff) continue;
        if (t->ik.target >= sk->bone_count || sk->bones[t->ik.target].parent != g->eff) continue;
        pmi_dv d = pmi_dv_sub(pmi_dv_of(sk->bones[t->ik.target].position), A);
        if (pmi_dv_len(d) < 1e-6) continue;
        g->toe_ik = b, g->toe = t->ik.target;
        g->toe_ik_rel = pmi_dv_sub(pmi_dv_of(t->position), ikp);
        g->toe_dir = pmi_dv_scale(d, 1 / pmi_dv_len(d));
        break;
    }
}

/* The hinge solve: the knee angle (about g->axis) and the hip rotation (in its parent's frame) that put
 * the effector at world `target`, given the hip's world position and its parent's world matrix.
 * Returns whether the target is within reach. */
static bool solve_leg(const leg *g, pmi_dv hip, const float *parent, pmi_dv target, pmi_dq *q_hip, pmi_dq *q_knee,
                      double *angle) {
    const pmi_dv n = g->axis, k0 = g->k0, a0 = g->a0;
    double kn = pmi_dv_dot(k0, n), an = pmi_dv_dot(a0, n);
    double A = pmi_dv_dot(k0, a0) - kn * an, B = pmi_dv_dot(k0, pmi_dv_cross(n, a0)), c0 = kn * an;
    double R = sqrt(A * A + B * B), phi = atan2(B, A);
    pmi_dv w = parent ? mat_rotate_t(parent, pmi_dv_sub(target, hip)) : pmi_dv_sub(target, hip);
    double d = pmi_dv_len(w);
    double base = pmi_dv_len_sq(k0) + pmi_dv_len_sq(a0) + 2 * c0;
    bool reach = true;
    double alpha;
    if (R < 1e-12) {
        alpha = 0; /* a knee whose shin lies along its axis: no bend changes the reach */
    } else {
        double c = (d * d - base) / (2 * R);
        if (c > 1) c = 1, reach = false;
        if (c < -1) c = -1, reach = false;
        double s = acos(c);
        double a1 = wrap_pi(phi - s), a2 = wrap_pi(phi + s);
        alpha = a1;
        if (g->limited) { /* prefer the solution the knee's limit allows */
            bool in1 = a1 >= g->lim_min.x && a1 <= g->lim_max.x, in2 = a2 >= g->lim_min.x && a2 <= g->lim_max.x;
            if (!in1 && in2) alpha = a2;
        }
    }
    pmi_dv u = pmi_dv_add(k0, rotate_axis(n, alpha, a0));
    *q_knee = pmi_dq_axis_angle(n, alpha);
    /* the hip: first turned about the hinge axis by gamma, which brings the bent leg back to the rest
     * leg's direction in the plane across the axis (the thigh comes forward as the knee bends), then by
     * the least arc onto the target. A plain least arc from the bent leg would twist the thigh by an
     * amount that changes with the bend: a rotation path a VMD slerp cannot follow between frames. */
    pmi_dv u0 = pmi_dv_add(k0, a0);
    pmi_dv pu = pmi_dv_sub(u, pmi_dv_scale(n, pmi_dv_dot(u, n))), p0 = pmi_dv_sub(u0, pmi_dv_scale(n, pmi_dv_dot(u0, n)));
    double gamma = 0;
    if (pmi_dv_len(pu) > 1e-9 && pmi_dv_len(p0) > 1e-9) gamma = atan2(pmi_dv_dot(n, pmi_dv_cross(pu, p0)), pmi_dv_dot(pu, p0));
    pmi_dq q_gamma = pmi_dq_axis_angle(n, gamma);
    pmi_dv v = rotate_axis(n, gamma, u);
    double vl = pmi_dv_len(v);
    pmi_dq arc = pmi_dq_identity();
    if (vl > 1e-12 && d > 1e-12) {
        pmi_dv from = pmi_dv_scale(v, 1 / vl), to = pmi_dv_scale(w, 1 / d);
        arc = pmi_dq_arc(from, to);
    }
    *q_hip = pmi_dq_mul(arc, q_gamma);
    *angle = alpha;
    return reach;
}

/* Whether the CCD would leave a knee at this angle alone between whole frames: inside the knee
 * link's limit (Y and Z of a pure hinge are 0). */
static bool knee_allowed(const leg *g, double alpha) {
    if (!g->limited) return true;
    const bool x_axis = g->axis.x == 1 && g->axis.y == 0 && g->axis.z == 0;
    if (!x_axis) return true; /* a fixed-axis knee turns only about its axis: no Euler clamp to check */
    return alpha >= g->lim_min.x - 1e-6 && alpha <= g->lim_max.x + 1e-6 && g->lim_min.y <= 0 && g->lim_max.y >= 0 &&
           g->lim_min.z <= 0 && g->lim_max.z >= 0;
}

static pm_result add_keys(pm_vmd *vmd, const char *name, const pmi_keyfit_key *keys, uint32_t count, uint32_t *written,
                          pm_error *err) {
    pm_result r = pmi_keyfit_add_keys(vmd, name, keys, count, err);
    if (r == PM_OK) *written += count;
    return r;
}

/* ---- measuring ---------------------------------------------------------------------------------- */

static pmi_dv pivot_of(const pm_landing_limb *l, uint8_t contact, const float *world) {
    pm_vec3 off = contact == PM_LANDING_HEEL ? l->heel : contact == PM_LANDING_BALL ? l->ball : pmi_vec3_make(0, 0, 0);
    return mat_point(world, pmi_dv_of(off));
}

typedef struct meter {
    double sum_sq;
    double low;          /* the current stance's lowest height above the floor */
    double first_low;    /* the lowest of a stance under way at frame 0 (joined with one under way at the end) */
    bool first_open;     /* that stance has not ended yet */
    bool first_seen;
    bool in_stance;
    uint8_t last_contact;
    bool have_last;
    pmi_dv last_pivot;
} meter;

/* A stance ends. One under way at frame 0 began before the motion: it is kept aside, to be joined
 * with a stance still under way at the last frame (a loop) or counted alone when there is none. */
static void end_stance(pm_landing_limb_report *r, meter *m) {
    if (!m->in_stance) return;
    m->in_stance = false;
    if (m->first_open) {
        m->first_open = false;
        m->first_low = m->low;
        return;
    }
    if (m->low > r->stance_gap) r->stance_gap = m->low;
}

static void measure_frame(const pm_landing_limb *l, uint32_t f, const pm_pose *pose, pm_landing_limb_report *r, meter *m) {
    const float *world = pose->world[l->effector].m;
    if (l->played) memcpy(l->played + 16 * (size_t)f, world, 16 * sizeof(float));
    if (!active(l, f)) {
        m->have_last = false;
        return;
    }
    pmi_dv e = pmi_dv_make(world[12], world[13], world[14]);
    pmi_dv p = plan_at(l, f * per_frame(l));
    double d = pmi_dv_len(pmi_dv_sub(e, p));
    r->frames++;
    m->sum_sq += d * d;
    if (d > r->max_error) r->max_error = d, r->worst_frame = f;
    if (!l->contact) return;
    double h = e.y - l->floor;
    if (-h > r->penetration) r->penetration = -h;
    uint8_t c = l->contact[f];
    if (c != PM_LANDING_SWING) {
        if (!m->in_stance) {
            m->in_stance = true, m->low = h;
            if (f == 0) m->first_open = m->first_seen = true;
            else r->stances++;
        }
        if (h < m->low) m->low = h;
        pmi_dv piv = pivot_of(l, c, world);
        if (m->have_last && m->last_contact == c) {
            double s = pmi_dv_len(pmi_dv_sub(piv, m->last_pivot));
            if (s > r->max_slide) r->max_slide = s, r->slide_frame = f;
        }
        m->last_pivot = piv, m->last_contact = c, m->have_last = true;
    } else {
        end_stance(r, m);
        m->have_last = false;
    }
}

/* Whether measure() can take the steered legs' parents' world matrices from record() (the same tracks,
 * which no IK moves) and evaluate only the rest of the subset: every other bone it evaluates has its
 * parent and append source among those evaluated or (parent only) those given. Fills meas_subset. */
static pm_result plan_measure(lnd *L, pm_error *err) {
    const pm_skeleton *sk = L->sk;
    const uint32_t n = sk->bone_count;
    uint8_t *given = L->meas_subset; /* first the given bones' closure, then the rest */
    memset(given, 0, n);
    uint32_t want[2 * PM_LANDING_MAX_LIMBS], nw = 0;
    for (uint32_t i = 0; i < L->count; i++) {
        const leg *g = &L->legs[i];
        if (!g->steer) return PM_OK; /* a limb record() has nothing for */
        if (g->ik_parent != PM_NO_INDEX) want[nw++] = g->ik_parent;
        if (g->hip_parent != PM_NO_INDEX) want[nw++] = g->hip_parent;
    }
    if (!nw) return PM_OK;
    pm_result r = pm_pose_subset(sk, want, nw, given, &L->a, err);
    if (r != PM_OK) return r;
    for (uint32_t b = 0; b < n; b++) { /* no IK chain may touch what is given */
        const pm_bone *bone = &sk->bones[b];
        if (!bone->has_ik) continue;
        if (given[b] || given[bone->ik.target]) return PM_OK;
        for (uint32_t k = 0; k < bone->ik.link_count; k++)
            if (given[bone->ik.links[k].bone]) return PM_OK;
    }
    uint8_t *top = given; /* the given bones themselves: 2, their closure: 1 */
    for (uint32_t k = 0; k < nw; k++) top[want[k]] = 2;
    for (uint32_t b = 0; b < n; b++) {
        if (!L->subset[b] || given[b]) continue;
        const pm_bone *bone = &sk->bones[b];
        if (bone->parent != PM_NO_INDEX && given[bone->parent] == 1) return PM_OK;
        if ((bone->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) && bone->append_parent < n &&
            given[bone->append_parent])
            return PM_OK;
    }
    for (uint32_t b = 0; b < n; b++) L->meas_subset[b] = L->subset[b] && !given[b];
    L->meas_fast = true;
    return PM_OK;
}

static pm_result measure(lnd *L, const pm_vmd *vmd, pm_landing_report *rep, pm_error *err) {
    pm_anim *anim = NULL;
    pm_anim_bind_options bo = {.allocator = L->a};
    pm_result r = pm_anim_bind(L->sk, vmd, &bo, &anim, err);
    if (r != PM_OK) return r;
    meter m[PM_LANDING_MAX_LIMBS];
    memset(m, 0, sizeof m);
    for (uint32_t i = 0; i < L->count; i++) rep->limbs[i].effector = L->limb[i].effector, rep->limbs[i].steered = L->legs[i].steer;
    /* the legs' parents as record() played them (fast), the rest evaluated */
    pm_pose_options keep = {PM_POSE_KEEP_OTHERS, 0};
    if (L->meas_fast) pm_pose_set_subset(L->ws, L->meas_subset);
    for (uint32_t f = 0; f <= L->frames && r == PM_OK; f++) {
        for (uint32_t i = 0; i < L->count && L->meas_fast; i++) {
            const leg *g = &L->legs[i];
            const size_t s = (size_t)f * L->pf;
            if (g->ik_parent != PM_NO_INDEX) memcpy(L->pose->world[g->ik_parent].m, g->ik_parent_world + 16 * s, 16 * sizeof(float));
            if (g->hip_parent != PM_NO_INDEX)
                memcpy(L->pose->world[g->hip_parent].m, g->hip_parent_world + 16 * s, 16 * sizeof(float));
        }
        if ((r = pm_pose_evaluate(anim, L->ws, f, L->pose, L->meas_fast ? &keep : NULL, err)) != PM_OK) break;
        for (uint32_t i = 0; i < L->count; i++) measure_frame(&L->limb[i], f, L->pose, &rep->limbs[i], &m[i]);
    }
    pm_anim_free(anim);
    if (r != PM_OK) return r;
    double sum = 0;
    uint32_t n = 0;
    rep->frames = L->frames;
    rep->limb_count = L->count;
    for (uint32_t i = 0; i < L->count; i++) {
        pm_landing_limb_report *lr = &rep->limbs[i];
        /* the stances cut by the ends: one under way at the last frame joins the one under way at frame 0
         * (a loop); either alone counts as it is */
        if (m[i].in_stance && !m[i].first_open) {
            double low = m[i].first_seen && m[i].first_low < m[i].low ? m[i].first_low : m[i].low;
            lr->stances++;
            if (low > lr->stance_gap) lr->stance_gap = low;
        } else if (m[i].first_seen) {
            double low = m[i].first_open ? m[i].low : m[i].first_low;
            lr->stances++;
            if (low > lr->stance_gap) lr->stance_gap = low;
        }
        lr->rms_error = lr->frames ? sqrt(m[i].sum_sq / lr->frames) : 0;
        sum += m[i].sum_sq, n += lr->frames;
        rep->max_error = maxd(rep->max_error, lr->max_error);
        rep->penetration = maxd(rep->penetration, lr->penetration);
        rep->stance_gap = maxd(rep->stance_gap, lr->stance_gap);
        rep->max_slide = maxd(rep->max_slide, lr->max_slide);
        rep->ik_off_frames += lr->ik_off_frames;
        rep->unreachable_frames += lr->unreachable_frames;
    }
    rep->rms_error = n ? sqrt(sum / n) : 0;
    rep->property_key_count = vmd->properties.count;
    rep->landed = rep->max_error <= L->o.tolerance;
    return PM_OK;
}

/* ---- landing ------------------------------------------------------------------------------------ */

static pm_result setup(lnd *L, const pm_skeleton *sk, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                                uint32_t count, const pm_landing_options *opts, pm_error *err) {
    memset(L, 0, sizeof *L);
    pm_result r = check_args(sk, vmd, frames, limbs, count, opts, &L->o, err);
    if (r != PM_OK) return r;
    L->sk = sk, L->a = L->o.allocator, L->frames = frames, L->n1 = frames + 1, L->count = count, L->limb = limbs;
    /* the workspace checks the skeleton (indices, IK links) before anything reads its chains */
    if ((r = pm_pose_workspace_create(sk, &L->a, &L->ws, err)) != PM_OK) return r;
    for (uint32_t i = 0; i < count; i++) classify(L, i);
    L->pf = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (!L->legs[i].steer) continue;
        if (L->pf && per_frame(&limbs[i]) != L->pf)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: the legs' plans have %u and %u samples per frame (one rate for all)",
                            L->pf, per_frame(&limbs[i]));
        L->pf = per_frame(&limbs[i]);
    }
    if (!L->pf) L->pf = 1;
    L->ns = frames * L->pf + 1;
    if ((r = pm_pose_create(sk, &L->a, &L->pose, err)) != PM_OK) return r;
    L->pose->final_rotation = NULL, L->pose->final_translation = NULL; /* not read: not computed */
    /* only what the effectors (and the feet their IK turns) depend on is evaluated: the same numbers a
     * full evaluation gives them, in a fraction of the time */
    if (!(L->subset = pmi_alloc_array(&L->a, sk->bone_count, 1, err, "landing: bones"))) return PM_ERR_OUT_OF_MEMORY;
    uint32_t want[3 * PM_LANDING_MAX_LIMBS];
    uint32_t nw = 0;
    for (uint32_t i = 0; i < count; i++) {
        want[nw++] = limbs[i].effector;
        if (L->legs[i].toe != PM_NO_INDEX && L->legs[i].steer) want[nw++] = L->legs[i].toe;
    }
    if ((r = pm_pose_subset(sk, want, nw, L->subset, &L->a, err)) != PM_OK) return r;
    pm_pose_set_subset(L->ws, L->subset);
    /* the smaller subsets of the passes that read less (each gives the bones it reads exactly what the
     * full evaluation gives them) */
    if (!(L->rec_subset = pmi_alloc_array(&L->a, 3 * (size_t)sk->bone_count, 1, err, "landing: bones")))
        return PM_ERR_OUT_OF_MEMORY;
    L->samp_subset = L->rec_subset + sk->bone_count;
    L->meas_subset = L->samp_subset + sk->bone_count;
    nw = 0;
    for (uint32_t i = 0; i < count; i++) {
        const leg *g = &L->legs[i];
        if (!g->steer) continue;
        /* without IK a hip's world matrix needs its parent's and its append source's (pm_pose_subset of
         * the hip itself would add the leg's IK chain, which record() turns off) */
        if (g->ik_parent != PM_NO_INDEX) want[nw++] = g->ik_parent;
        if (g->hip_parent != PM_NO_INDEX) want[nw++] = g->hip_parent;
        const pm_bone *hb = &sk->bones[g->hip];
        if ((hb->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) && hb->append_parent < sk->bone_count)
            want[nw++] = hb->append_parent;
    }
    if ((r = pm_pose_subset(sk, want, nw, L->rec_subset, &L->a, err)) != PM_OK) return r;
    for (uint32_t i = 0; i < count; i++) {
        const leg *g = &L->legs[i];
        if (!g->steer) continue;
        L->rec_subset[g->hip] = 1;
        /* sampled for their local rotations and offsets (their world matrices are not read) */
        L->samp_subset[g->knee] = L->samp_subset[g->eff] = 1;
        if (g->toe_ik != PM_NO_INDEX) L->samp_subset[g->toe_ik] = 1;
        if (g->ik != PM_NO_INDEX) L->samp_subset[g->ik] = 1;
    }
    if ((r = pm_pose_workspace_create(sk, &L->a, &L->ws_rec, err)) != PM_OK ||
        (r = pm_pose_workspace_create(sk, &L->a, &L->ws_samp, err)) != PM_OK)
        return r;
    pm_pose_set_subset(L->ws_rec, L->rec_subset);
    pm_pose_set_subset(L->ws_samp, L->samp_subset);
    return PM_OK;
}

static void teardown(lnd *L) {
    pmi_free(&L->a, L->subset);
    pmi_free(&L->a, L->rec_subset);
    pm_pose_free(L->pose);
    pm_pose_workspace_free(L->ws);
    pm_pose_workspace_free(L->ws_rec);
    pm_pose_workspace_free(L->ws_samp);
    pmi_free(&L->a, L->pool);
}

pm_result pm_landing_measure(const pm_skeleton *skeleton, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                             uint32_t limb_count, const pm_landing_options *opts, pm_landing_report *report, pm_error *err) {
    if (!report) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: pm_landing_measure needs a report");
    memset(report, 0, sizeof *report);
    lnd L;
    pm_landing_options o = opts ? *opts : (pm_landing_options){0};
    o.flags |= PM_LANDING_MEASURE_ONLY;
    pm_result r = setup(&L, skeleton, vmd, frames, limbs, limb_count, &o, err);
    if (r == PM_OK) r = measure(&L, vmd, report, err);
    teardown(&L);
    return r;
}

/* Pass 1: the input played without IK at every whole frame: the parents' world matrices and the hips'
 * positions (IK moves none of them), and the IK bones' and legs' animated rotations. */
static pm_result record(lnd *L, const pm_anim *anim, pm_error *err) {
    pm_pose_options no_ik = {PM_POSE_NO_IK, 0};
    for (uint32_t s = 0; s < L->ns; s++) {
        pm_result r = pm_pose_evaluate(anim, L->ws_rec, (double)s / L->pf, L->pose, &no_ik, err);
        if (r == PM_OK) r = pm_pose_sample(anim, L->ws_samp, (double)s / L->pf, L->pose, err);
        if (r != PM_OK) return r;
        for (uint32_t i = 0; i < L->count; i++) {
            leg *g = &L->legs[i];
            if (!g->steer) continue;
            static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
            memcpy(g->ik_parent_world + 16 * (size_t)s, g->ik_parent != PM_NO_INDEX ? L->pose->world[g->ik_parent].m : identity,
                   sizeof identity);
            memcpy(g->hip_parent_world + 16 * (size_t)s,
                   g->hip_parent != PM_NO_INDEX ? L->pose->world[g->hip_parent].m : identity, sizeof identity);
            g->hip_pos[s] = pmi_dv_from_floats(L->pose->world[g->hip].m + 12);
            /* the input's leg rotations stand where a frame has no plan */
            pm_quat h = L->pose->rotation[g->hip], k = L->pose->rotation[g->knee], e = L->pose->rotation[g->eff];
            pmi_keyfit_put_rotation(g->fk_hip, s, (pmi_dq){h.x, h.y, h.z, h.w});
            pmi_keyfit_put_rotation(g->fk_knee, s, (pmi_dq){k.x, k.y, k.z, k.w});
            pmi_keyfit_put_rotation(g->fk_foot, s, (pmi_dq){e.x, e.y, e.z, e.w});
            g->toe_off[s] = g->toe_ik != PM_NO_INDEX ? pmi_dv_of(L->pose->translation[g->toe_ik]) : pmi_dv_make(0, 0, 0);
        }
    }
    return PM_OK;
}

/* The IK bone's track: positions that put it on the plan, rotations from the limb or the input. */
static pm_result fit_ik(lnd *L, uint32_t i, const pm_anim *anim, pmi_keyfit **fit, uint32_t *fit_pf, pmi_keyfit_key *keys,
                        double *pool, uint32_t *key_count, pm_error *err) {
    const pm_landing_limb *l = &L->limb[i];
    const leg *g = &L->legs[i];
    const uint32_t pf = L->pf, ns = L->ns;
    double *px = pool, *py = px + ns, *pz = py + ns, *q = pz + ns;
    for (uint32_t s = 0; s < ns; s++) {
        const uint32_t f = s / pf;
        const bool on = active(l, f);
        pmi_dq rot = {0, 0, 0, 1};
        if (!l->ik_rotation || !on) {
            pm_result r = pm_pose_sample(anim, L->ws_samp, (double)s / pf, L->pose, err); /* only the IK bone is read */
            if (r != PM_OK) return r;
            pm_quat qq = L->pose->rotation[g->ik];
            pm_vec3 t = L->pose->translation[g->ik];
            rot = (pmi_dq){qq.x, qq.y, qq.z, qq.w};
            px[s] = t.x, py[s] = t.y, pz[s] = t.z; /* a frame without a plan keeps the input's */
        }
        if (l->ik_rotation && on) {
            const float *q4 = l->ik_rotation + 4 * (size_t)s;
            rot = (pmi_dq){q4[0], q4[1], q4[2], q4[3]};
        }
        if (on) {
            const float *pw = g->ik_parent_world + 16 * (size_t)s;
            pmi_dv local = pmi_dv_sub(mat_rotate_t(pw, pmi_dv_sub(plan_at(l, s), pmi_dv_make(pw[12], pw[13], pw[14]))),
                                      g->ik_rest_local);
            px[s] = local.x + 0.0, py[s] = local.y + 0.0, pz[s] = local.z + 0.0;
        }
        pmi_keyfit_put_rotation(q, s, rot);
    }
    if (L->o.flags & PM_LANDING_LOOP) { /* the last sample is the first one again */
        px[ns - 1] = px[0], py[ns - 1] = py[0], pz[ns - 1] = pz[0];
        pmi_keyfit_put_rotation(q, ns - 1, (pmi_dq){q[0], q[1], q[2], q[3]});
    }
    if (*fit && *fit_pf != pf) pmi_keyfit_free(*fit), *fit = NULL;
    if (!*fit) {
        if (!(*fit = pmi_keyfit_create(&L->a, L->frames, pf, err))) return PM_ERR_OUT_OF_MEMORY;
        *fit_pf = pf;
    }
    /* keys stay where the input had them on this bone (gait events), and where the limb asks */
    uint8_t *forced = (uint8_t *)(q + 4 * (size_t)ns);
    memset(forced, 0, L->n1);
    if (l->forced) memcpy(forced, l->forced, L->n1);
    uint32_t nk = pm_anim_track_keys(anim, g->ik, NULL, 0);
    uint32_t *frames = (uint32_t *)(forced + L->n1 + (4 - (L->n1 & 3)));
    if (nk > L->n1) nk = L->n1;
    if (nk) {
        pm_anim_track_keys(anim, g->ik, frames, nk);
        for (uint32_t k = 0; k < nk; k++)
            if (frames[k] <= L->frames) forced[frames[k]] = 1;
    }
    pmi_keyfit_track kt = {L->frames, pf, {px, py, pz}, q, forced, L->o.position_tolerance,
                           L->o.rotation_tolerance * (PM_PI / 180.0), L->o.period};
    pmi_keyfit_result res;
    pm_result r = pmi_keyfit_track_fit(*fit, &kt, keys, &res, err);
    *key_count = r == PM_OK ? res.count : 0;
    if (r == PM_OK && (L->o.flags & PM_LANDING_LOOP) && res.count > 1) { /* a loop ends on its first key */
        memcpy(keys[res.count - 1].pos, keys[0].pos, sizeof keys[0].pos);
        memcpy(keys[res.count - 1].rot, keys[0].rot, sizeof keys[0].rot);
    }
    return r;
}

/* The FK pre-pose at every whole frame: hip and knee rotations that put the effector on the IK bone's
 * played position (from the new keys). */
static pm_result pre_pose(lnd *L, const pm_anim *landed, pm_landing_report *rep, pm_error *err) {
    const bool loop = (L->o.flags & PM_LANDING_LOOP) && L->frames > 0;
    for (uint32_t s = 0; s < L->ns; s++) {
        const uint32_t f = s / L->pf;
        const bool whole = s % L->pf == 0;
        if (loop && s == L->ns - 1) { /* frame 0 again */
            for (uint32_t i = 0; i < L->count; i++) {
                leg *g = &L->legs[i];
                if (!g->steer) continue;
                double *arr[3] = {g->fk_hip, g->fk_knee, g->fk_foot};
                for (int k = 0; k < 3; k++) pmi_keyfit_put_rotation(arr[k], s, (pmi_dq){arr[k][0], arr[k][1], arr[k][2], arr[k][3]});
                g->ik_off[f] = g->ik_off[0];
                rep->limbs[i].ik_off_frames += g->ik_off[f];
            }
            break;
        }
        pm_result r = pm_pose_sample(landed, L->ws_samp, (double)s / L->pf, L->pose, err); /* only the IK bones are read */
        if (r != PM_OK) return r;
        for (uint32_t i = 0; i < L->count; i++) {
            leg *g = &L->legs[i];
            if (!g->steer || !active(&L->limb[i], f)) continue;
            const float *ipw = g->ik_parent_world + 16 * (size_t)s;
            pmi_dv target = g->fk_only ? plan_at(&L->limb[i], s)
                                       : mat_point(ipw, pmi_dv_add(g->ik_rest_local, pmi_dv_of(L->pose->translation[g->ik])));
            pmi_dq qh, qk;
            double alpha;
            const float *hpw = g->hip_parent != PM_NO_INDEX ? g->hip_parent_world + 16 * (size_t)s : NULL;
            bool reach = solve_leg(g, g->hip_pos[s], hpw, target, &qh, &qk, &alpha);
            if (whole && !reach) rep->limbs[i].unreachable_frames++;
            /* a frame's IK state holds until the next frame: any sample up to it outside the knee's limit
             * switches that frame's IK off */
            if (!g->fk_only && !knee_allowed(g, alpha) && !(L->o.flags & PM_LANDING_NO_IK_OFF) && !g->ik_off[f])
                g->ik_off[f] = 1, rep->limbs[i].ik_off_frames++;
            pmi_keyfit_put_rotation(g->fk_hip, s, qh);
            pmi_keyfit_put_rotation(g->fk_knee, s, qk);
            if (g->toe_ik != PM_NO_INDEX) {
                /* the foot: the IK bone's world rotation, turned by the least arc that aims the toe at the
                 * foot IK bone, so that the foot's CCD finds it aimed and leaves it (and the foot turns
                 * exactly as the IK bone does: heel and ball pivots as planned) */
                pm_quat ql = L->pose->rotation[g->ik];
                pmi_dq ik_parent = pmi_dq_from_mat(ipw), ik_local = {ql.x, ql.y, ql.z, ql.w};
                pmi_dq r_ik = pmi_dq_mul(ik_parent, ik_local);
                pmi_dv rel = pmi_dv_add(pmi_dv_add(g->toe_ik_rel, g->toe_off[s]), L->limb[i].keep_children ? g->rest_offset : pmi_dv_make(0, 0, 0));
                pmi_dv aim = pmi_dq_rotate(r_ik, rel);
                pmi_dq r_foot = r_ik;
                if (pmi_dv_len(aim) > 1e-9) {
                    pmi_dv now = pmi_dq_rotate(r_ik, g->toe_dir), to = pmi_dv_scale(aim, 1 / pmi_dv_len(aim));
                    pmi_dq arc = pmi_dq_arc(now, to);
                    r_foot = pmi_dq_mul(arc, r_ik);
                }
                pmi_dq hip_parent = hpw ? pmi_dq_from_mat(hpw) : pmi_dq_identity();
                pmi_dq r_hip = pmi_dq_mul(hip_parent, qh), r_knee = pmi_dq_mul(r_hip, qk), knee_inv = pmi_dq_conj(r_knee);
                pmi_keyfit_put_rotation(g->fk_foot, s, pmi_dq_mul(knee_inv, r_foot));
            }
        }
    }
    return PM_OK;
}

/* The input's IK state of IK bone `name` at frame f from its property keys: the key at or before f
 * (the first key before it); a key that does not name the bone repeats the previous key's state, or
 * is off in the first key; no key names it at all: on. */
static bool input_ik_state(const pm_vmd *v, const char *name, uint32_t f) {
    const pm_vmd_property_keys *p = &v->properties;
    bool named = false, state = false;
    for (uint32_t k = 0; k < p->count; k++)
        for (uint32_t j = p->ik_start[k]; j < p->ik_start[k + 1]; j++)
            if (strcmp(v->ik_names.items[p->ik_name_index[j]].data, name) == 0) named = true;
    if (!named) return true;
    for (uint32_t k = 0; k < p->count; k++) {
        if (k > 0 && p->frame[k] > f) break;
        bool found = false;
        for (uint32_t j = p->ik_start[k]; j < p->ik_start[k + 1]; j++)
            if (strcmp(v->ik_names.items[p->ik_name_index[j]].data, name) == 0) state = p->ik_enabled[j] != 0, found = true;
        if (!found && k == 0) state = false;
    }
    return state;
}

/* Property keys: the input's, merged with the legs' IK-off runs (every key names every IK bone either
 * side mentions). */
static pm_result write_properties(lnd *L, const pm_vmd *in, pm_vmd *out, bool *replaced, pm_error *err) {
    *replaced = false;
    bool any = false;
    for (uint32_t i = 0; i < L->count; i++)
        for (uint32_t f = 0; f <= L->frames && !any; f++) any = L->legs[i].steer && L->legs[i].ik_off[f];
    if (!any) return PM_OK;
    *replaced = true;
    /* the names: the input's, then the legs' IK bones */
    const pm_vmd_names *nm = &in->ik_names;
    uint32_t cap = nm->count + L->count;
    const char **names = pmi_alloc_array(&L->a, cap, sizeof *names, err, "landing: IK names");
    bool *on = names ? pmi_alloc_array(&L->a, cap, sizeof *on, err, "landing: IK states") : NULL;
    uint8_t *key_at = on ? pmi_alloc_array(&L->a, L->n1, 1, err, "landing: property frames") : NULL;
    pm_result r = key_at ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    uint32_t n = 0;
    if (r == PM_OK) {
        for (uint32_t k = 0; k < nm->count; k++) names[n++] = nm->items[k].data;
        for (uint32_t i = 0; i < L->count; i++) {
            if (!L->legs[i].steer || L->legs[i].fk_only) continue;
            const char *ik = L->sk->bones[L->legs[i].ik].name.data;
            bool have = false;
            for (uint32_t k = 0; k < n && !have; k++) have = strcmp(names[k], ik) == 0;
            if (!have) names[n++] = ik;
        }
        /* frames with a key: the input's, and where a leg's IK state changes (and frame 0) */
        key_at[0] = 1;
        for (uint32_t k = 0; k < in->properties.count; k++)
            if (in->properties.frame[k] <= L->frames) key_at[in->properties.frame[k]] = 1;
        for (uint32_t i = 0; i < L->count; i++)
            for (uint32_t f = 1; f <= L->frames; f++)
                if (L->legs[i].steer && L->legs[i].ik_off[f] != L->legs[i].ik_off[f - 1]) key_at[f] = 1;
    }
    for (uint32_t f = 0; f <= L->frames && r == PM_OK; f++) {
        if (!key_at[f]) continue;
        bool visible = true;
        for (uint32_t k = 0; k < in->properties.count; k++)
            if (in->properties.frame[k] <= f || k == 0) visible = in->properties.visible[k] != 0;
        for (uint32_t k = 0; k < n; k++) {
            on[k] = input_ik_state(in, names[k], f);
            for (uint32_t i = 0; i < L->count; i++)
                if (L->legs[i].steer && L->legs[i].ik_off[f] && strcmp(names[k], L->sk->bones[L->legs[i].ik].name.data) == 0)
                    on[k] = false;
        }
        r = pm_vmd_add_property_key(out, f, visible, n, names, on, err);
    }
    /* input keys after the last frame keep their place */
    for (uint32_t k = 0; k < in->properties.count && r == PM_OK; k++) {
        if (in->properties.frame[k] <= L->frames) continue;
        uint32_t m = in->properties.ik_start[k + 1] - in->properties.ik_start[k];
        for (uint32_t j = 0; j < m; j++) {
            names[j] = in->ik_names.items[in->properties.ik_name_index[in->properties.ik_start[k] + j]].data;
            on[j] = in->properties.ik_enabled[in->properties.ik_start[k] + j] != 0;
        }
        r = pm_vmd_add_property_key(out, in->properties.frame[k], in->properties.visible[k] != 0, m, names, on, err);
    }
    pmi_free(&L->a, names);
    pmi_free(&L->a, on);
    pmi_free(&L->a, key_at);
    return r;
}

/* IK bones hanging from a leg's IK bone (つま先ＩＫ) keep their rest relation to the effector: every
 * key (or two constant keys) shifted by the leg's rest offset. */
static pm_result shift_children(lnd *L, const pm_vmd *in, pm_vmd *out, const char **skip, uint32_t *nskip, bool write,
                                         uint32_t *written, pm_error *err) {
    for (uint32_t i = 0; i < L->count; i++) {
        const leg *g = &L->legs[i];
        if (!g->steer || g->fk_only || !L->limb[i].keep_children || pmi_dv_len(g->rest_offset) < 1e-6) continue;
        for (uint32_t b = 0; b < L->sk->bone_count; b++) {
            const pm_bone *bone = &L->sk->bones[b];
            if (bone->parent != g->ik || !bone->has_ik) continue;
            if (!write) {
                if (*nskip < 4 * PM_LANDING_MAX_LIMBS + 8) skip[(*nskip)++] = bone->name.data;
                continue;
            }
            const float d[3] = {(float)g->rest_offset.x, (float)g->rest_offset.y, (float)g->rest_offset.z};
            bool had = false;
            for (uint32_t k = 0; k < in->bones.count; k++) {
                if (strcmp(in->bone_names.items[in->bones.name_index[k]].data, bone->name.data) != 0) continue;
                const float *p = in->bones.position + 3 * (size_t)k;
                const float pos[3] = {p[0] + d[0], p[1] + d[1], p[2] + d[2]};
                pm_result r = pm_vmd_add_bone_key(out, bone->name.data, in->bones.frame[k], pos, in->bones.rotation + 4 * (size_t)k,
                                                  in->bones.interpolation + 64 * (size_t)k, err);
                if (r != PM_OK) return r;
                had = true, ++*written;
            }
            if (!had) {
                const float rot[4] = {0, 0, 0, 1};
                pm_result r = pm_vmd_add_bone_key(out, bone->name.data, 0, d, rot, NULL, err);
                if (r == PM_OK && L->frames > 0) r = pm_vmd_add_bone_key(out, bone->name.data, L->frames, d, rot, NULL, err);
                if (r != PM_OK) return r;
                *written += L->frames > 0 ? 2 : 1;
            }
        }
    }
    return PM_OK;
}

/* The pre-pose of one bone as keys: one on every whole frame (the CCD must find every whole frame
 * reached), each segment's curve fitted through the samples between (a player at 60 fps shows them); with
 * fk_tolerance, only where the fit within it needs one. */
static pm_result write_fk(lnd *L, const double *q, uint32_t bone, pmi_keyfit *fit, const uint8_t *every,
                          pmi_keyfit_key *keys, pm_vmd *out, uint32_t *written, pm_error *err) {
    const bool sparse = L->o.fk_tolerance > 0;
    pmi_keyfit_track kt = {L->frames, L->pf, {NULL, NULL, NULL}, q, sparse ? NULL : every, 1.0,
                           sparse ? L->o.fk_tolerance * (PM_PI / 180.0) : 1e-6, 0};
    pmi_keyfit_result res;
    pm_result r = pmi_keyfit_track_fit(fit, &kt, keys, &res, err);
    if (r != PM_OK) return r;
    if ((L->o.flags & PM_LANDING_LOOP) && res.count > 1) memcpy(keys[res.count - 1].rot, keys[0].rot, sizeof keys[0].rot);
    return add_keys(out, L->sk->bones[bone].name.data, keys, res.count, written, err);
}

pm_result pm_landing_close(const pm_skeleton *skeleton, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                           uint32_t limb_count, const pm_landing_options *opts, pm_vmd **out, pm_landing_report *report,
                           pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: no output motion");
    *out = NULL;
    pm_landing_report rep;
    memset(&rep, 0, sizeof rep);
    lnd L;
    pm_anim *anim = NULL, *landed_anim = NULL;
    pm_vmd *res = NULL, *stage = NULL;
    pmi_keyfit *fit = NULL;
    uint32_t fit_pf = 0;
    pmi_keyfit_key *keys = NULL;
    double *scratch = NULL;
    uint8_t *every = NULL;
    pm_result r = setup(&L, skeleton, vmd, frames, limbs, limb_count, opts, err);
    if (r != PM_OK) goto done;
    bool steer = false;
    for (uint32_t i = 0; i < L.count; i++) steer |= L.legs[i].steer;
    if ((r = pm_vmd_create(&L.a, &res, err)) != PM_OK || (r = pm_vmd_set_model_name(res, vmd->model_name.data, err)) != PM_OK)
        goto done;
    if (!steer) {
        if ((r = pm_vmd_append(res, vmd, NULL, 0, false, NULL, err)) != PM_OK) goto done;
        goto verify;
    }
    /* memory: per leg the parent matrices, hip positions, IK-off flags and FK samples */
    {
        size_t per_leg = (size_t)L.ns * (16 * 2 * sizeof(float) + 2 * sizeof(pmi_dv) + 12 * sizeof(double)) + L.n1 + 64;
        size_t bytes = per_leg * L.count;
        if (!(L.pool = pmi_alloc_array(&L.a, bytes, 1, err, "landing: frames"))) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        uint8_t *at = L.pool;
        for (uint32_t i = 0; i < L.count; i++) {
            leg *g = &L.legs[i];
            g->fk_hip = (double *)at, at += (size_t)L.ns * 4 * sizeof(double);
            g->fk_knee = (double *)at, at += (size_t)L.ns * 4 * sizeof(double);
            g->fk_foot = (double *)at, at += (size_t)L.ns * 4 * sizeof(double);
            g->toe_off = (pmi_dv *)at, at += (size_t)L.ns * sizeof(pmi_dv);
            g->hip_pos = (pmi_dv *)at, at += (size_t)L.ns * sizeof(pmi_dv);
            g->ik_parent_world = (float *)at, at += (size_t)L.ns * 16 * sizeof(float);
            g->hip_parent_world = (float *)at, at += (size_t)L.ns * 16 * sizeof(float);
            g->ik_off = at, at += L.n1;
            at += (8 - ((uintptr_t)at & 7)) & 7;
        }
        uint32_t most_pf = 1;
        for (uint32_t i = 0; i < L.count; i++)
            if (per_frame(&L.limb[i]) > most_pf) most_pf = per_frame(&L.limb[i]);
        size_t ns = (size_t)L.frames * most_pf + 1;
        /* samples (3 + 4 per sample), forced flags, key frames */
        scratch = pmi_alloc_array(&L.a, 7 * ns + (2 * (size_t)L.n1) / sizeof(double) + (size_t)L.n1 + 8, sizeof(double), err,
                                  "landing: samples");
        keys = scratch ? pmi_alloc_array(&L.a, L.n1, sizeof *keys, err, "landing: keys") : NULL;
        if (!keys) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
    }
    {
        pm_anim_bind_options bo = {.allocator = L.a};
        if ((r = pm_anim_bind(skeleton, vmd, &bo, &anim, err)) != PM_OK) goto done;
    }
    if ((r = record(&L, anim, err)) != PM_OK || (r = plan_measure(&L, err)) != PM_OK) goto done;
    /* the output: the input without the bones the mechanism keys, then the new IK tracks */
    const char *skip[4 * PM_LANDING_MAX_LIMBS + 8];
    uint32_t nskip = 0;
    for (uint32_t i = 0; i < L.count; i++)
        if (L.legs[i].steer) {
            if (!L.legs[i].fk_only) skip[nskip++] = skeleton->bones[L.legs[i].ik].name.data;
            skip[nskip++] = skeleton->bones[L.legs[i].hip].name.data;
            skip[nskip++] = skeleton->bones[L.legs[i].knee].name.data;
            if (L.legs[i].toe_ik != PM_NO_INDEX) skip[nskip++] = skeleton->bones[L.legs[i].eff].name.data;
        }
    if ((r = shift_children(&L, vmd, res, skip, &nskip, false, &rep.key_count, err)) != PM_OK) goto done;
    /* stage: the new IK tracks over the input (the IK bones' played positions for the pre-pose) */
    if ((r = pm_vmd_create(&L.a, &stage, err)) != PM_OK) goto done;
    for (uint32_t i = 0; i < L.count; i++) {
        if (!L.legs[i].steer || L.legs[i].fk_only) continue;
        uint32_t nk = 0;
        if ((r = fit_ik(&L, i, anim, &fit, &fit_pf, keys, scratch, &nk, err)) != PM_OK) goto done;
        uint32_t w = 0;
        if ((r = add_keys(stage, skeleton->bones[L.legs[i].ik].name.data, keys, nk, &w, err)) != PM_OK ||
            (r = add_keys(res, skeleton->bones[L.legs[i].ik].name.data, keys, nk, &rep.key_count, err)) != PM_OK)
            goto done;
    }
    {
        pm_anim_bind_options bo = {.allocator = L.a};
        if ((r = pm_anim_bind(skeleton, stage, &bo, &landed_anim, err)) != PM_OK) goto done;
    }
    if ((r = pre_pose(&L, landed_anim, &rep, err)) != PM_OK) goto done;
    if (fit_pf != L.pf) {
        pmi_keyfit_free(fit);
        fit = NULL;
        if (!(fit = pmi_keyfit_create(&L.a, L.frames, L.pf, err))) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        fit_pf = L.pf;
    }
    every = pmi_alloc_array(&L.a, L.n1, 1, err, "landing: frames");
    if (!every) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    memset(every, 1, L.n1);
    for (uint32_t i = 0; i < L.count && r == PM_OK; i++) {
        const leg *g = &L.legs[i];
        if (!g->steer) continue;
        if ((r = write_fk(&L, g->fk_hip, g->hip, fit, every, keys, res, &rep.key_count, err)) != PM_OK ||
            (r = write_fk(&L, g->fk_knee, g->knee, fit, every, keys, res, &rep.key_count, err)) != PM_OK ||
            (g->toe_ik != PM_NO_INDEX && (r = write_fk(&L, g->fk_foot, g->eff, fit, every, keys, res, &rep.key_count, err)) != PM_OK))
            goto done;
    }
    if ((r = shift_children(&L, vmd, res, NULL, NULL, true, &rep.key_count, err)) != PM_OK) goto done;
    bool replaced = false;
    if ((r = write_properties(&L, vmd, res, &replaced, err)) != PM_OK) goto done;
    if ((r = pm_vmd_append(res, vmd, skip, nskip, replaced, NULL, err)) != PM_OK) goto done;
verify:
    {
        uint32_t off[PM_LANDING_MAX_LIMBS], unreach[PM_LANDING_MAX_LIMBS], keyc = rep.key_count;
        for (uint32_t i = 0; i < L.count; i++) off[i] = rep.limbs[i].ik_off_frames, unreach[i] = rep.limbs[i].unreachable_frames;
        memset(&rep, 0, sizeof rep);
        for (uint32_t i = 0; i < L.count; i++) rep.limbs[i].ik_off_frames = off[i], rep.limbs[i].unreachable_frames = unreach[i];
        if ((r = measure(&L, res, &rep, err)) != PM_OK) goto done;
        rep.key_count = keyc;
    }
    *out = res;
    res = NULL;
    if (report) *report = rep;
done:
    pm_vmd_free(res);
    pm_vmd_free(stage);
    pm_anim_free(anim);
    pm_anim_free(landed_anim);
    pmi_keyfit_free(fit);
    pmi_free(&L.a, keys);
    pmi_free(&L.a, scratch);
    pmi_free(&L.a, every);
    teardown(&L);
    return r;
}
