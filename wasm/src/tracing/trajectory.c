/* Trajectories: the polyline and the centripetal Catmull-Rom spline through a limb's control points,
 * sampled by arc length (see procmotion/tracing.h, docs/tracing.md). Computed in double. */
#include "procmotion/tracing.h"

#include "common/internal.h"
#include "procmotion/rig.h"

#include <math.h>

typedef struct dv {
    double x, y, z;
} dv;

static dv dv_make(double x, double y, double z) {
    dv v = {x, y, z};
    return v;
}
static dv dv_of(pm_vec3 v) { return dv_make(v.x, v.y, v.z); }
static dv dv_add(dv a, dv b) { return dv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dv_sub(dv a, dv b) { return dv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dv_scale(dv a, double s) { return dv_make(a.x * s, a.y * s, a.z * s); }
static double dv_len(dv a) { return sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
static pm_vec3 dv_out(dv v) { return pm_vec3_make((float)v.x, (float)v.y, (float)v.z); }

const char *pm_limb_name(pm_limb limb) {
    static const char *const names[PM_LIMB_COUNT] = {"leftHand", "rightHand", "leftFoot", "rightFoot"};
    return (unsigned)limb < PM_LIMB_COUNT ? names[limb] : "";
}

const char *pm_trajectory_mode_name(pm_trajectory_mode mode) {
    return mode == PM_TRAJECTORY_LINE ? "line" : mode == PM_TRAJECTORY_CURVE ? "curve" : "";
}

pm_result pm_limb_bones(const pm_skeleton *skeleton, pm_limb limb, uint32_t out[3], pm_error *err) {
    static const pm_rig_role roles[PM_LIMB_COUNT][3] = {
        {PM_RIG_LEFT_ARM, PM_RIG_LEFT_ELBOW, PM_RIG_LEFT_WRIST}, {PM_RIG_RIGHT_ARM, PM_RIG_RIGHT_ELBOW, PM_RIG_RIGHT_WRIST},
        {PM_RIG_LEFT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_LEFT_ANKLE}, {PM_RIG_RIGHT_LEG, PM_RIG_RIGHT_KNEE, PM_RIG_RIGHT_ANKLE}};
    if (!skeleton || !out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_limb_bones needs a skeleton");
    if ((unsigned)limb >= PM_LIMB_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: limb %d is not a pm_limb", (int)limb);
    pm_rig_roles found;
    pm_result r = pm_rig_resolve_skeleton(skeleton, NULL, &found, err);
    if (r) return r;
    for (int k = 0; k < 3; k++) {
        out[k] = found.bone[roles[limb][k]];
        if (out[k] == PM_NO_INDEX)
            return pmi_fail(err, PM_ERR_NOT_FOUND, "tracing: the skeleton has no %s for the %s",
                            pm_rig_role_mmd_name(roles[limb][k]), pm_limb_name(limb));
    }
    return PM_OK;
}

/* ---- one Catmull-Rom segment as a cubic c0 + c1 u + c2 u^2 + c3 u^3, u in [0, 1] ---------------- */

typedef struct cubic {
    dv c0, c1, c2, c3;
} cubic;

static dv cubic_at(const cubic *c, double u) {
    return dv_add(c->c0, dv_scale(dv_add(c->c1, dv_scale(dv_add(c->c2, dv_scale(c->c3, u)), u)), u));
}

static double cubic_speed(const cubic *c, double u) {
    dv d = dv_add(c->c1, dv_scale(dv_add(dv_scale(c->c2, 2.0), dv_scale(c->c3, 3.0 * u)), u));
    return dv_len(d);
}

/* three.js CubicPoly.initNonuniformCatmullRom with the centripetal knot spacing of
 * CatmullRomCurve3.getPoint (dt = |d|^0.5, tiny intervals replaced as three.js does). */
static cubic centripetal_segment(dv p0, dv p1, dv p2, dv p3) {
    double dt0 = pow(dv_len(dv_sub(p1, p0)), 0.5), dt1 = pow(dv_len(dv_sub(p2, p1)), 0.5),
           dt2 = pow(dv_len(dv_sub(p3, p2)), 0.5);
    if (dt1 < 1e-4) dt1 = 1.0;
    if (dt0 < 1e-4) dt0 = dt1;
    if (dt2 < 1e-4) dt2 = dt1;
    dv t1 = dv_add(dv_sub(dv_scale(dv_sub(p1, p0), 1.0 / dt0), dv_scale(dv_sub(p2, p0), 1.0 / (dt0 + dt1))),
                   dv_scale(dv_sub(p2, p1), 1.0 / dt1));
    dv t2 = dv_add(dv_sub(dv_scale(dv_sub(p2, p1), 1.0 / dt1), dv_scale(dv_sub(p3, p1), 1.0 / (dt1 + dt2))),
                   dv_scale(dv_sub(p3, p2), 1.0 / dt2));
    t1 = dv_scale(t1, dt1);
    t2 = dv_scale(t2, dt1);
    cubic c;
    c.c0 = p1;
    c.c1 = t1;
    c.c2 = dv_sub(dv_sub(dv_add(dv_scale(p1, -3.0), dv_scale(p2, 3.0)), dv_scale(t1, 2.0)), t2);
    c.c3 = dv_add(dv_add(dv_sub(dv_scale(p1, 2.0), dv_scale(p2, 2.0)), t1), t2);
    return c;
}

/* Segment i of the open curve through pts[0..n), ends mirrored (p[-1] = 2 p0 - p1). */
static cubic curve_segment(const pm_vec3 *pts, uint32_t n, uint32_t i) {
    dv p1 = dv_of(pts[i]), p2 = dv_of(pts[i + 1]);
    dv p0 = i > 0 ? dv_of(pts[i - 1]) : dv_sub(dv_scale(p1, 2.0), p2);
    dv p3 = i + 2 < n ? dv_of(pts[i + 2]) : dv_sub(dv_scale(p2, 2.0), p1);
    return centripetal_segment(p0, p1, p2, p3);
}

/* Arc length of a segment between u = a and u = b: 5-point Gauss-Legendre. */
static double gauss_length(const cubic *c, double a, double b) {
    static const double x[5] = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                                0.9061798459386640};
    static const double w[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891,
                                0.2369268850561891};
    double h = 0.5 * (b - a), m = 0.5 * (a + b), s = 0;
    for (int k = 0; k < 5; k++) s += w[k] * cubic_speed(c, m + h * x[k]);
    return s * h;
}

#define SUBDIV 8 /* sub-intervals per segment in the arc-length table */

/* Cumulative lengths at u = k / SUBDIV, k = 0..SUBDIV. */
static void segment_table(const cubic *c, double table[SUBDIV + 1]) {
    table[0] = 0;
    for (int k = 0; k < SUBDIV; k++)
        table[k + 1] = table[k] + gauss_length(c, (double)k / SUBDIV, (double)(k + 1) / SUBDIV);
}

/* The parameter u where the arc length from 0 reaches s (0 <= s <= table[SUBDIV]). */
static double invert_segment(const cubic *c, const double table[SUBDIV + 1], double s) {
    int k = 0;
    while (k < SUBDIV - 1 && table[k + 1] < s) k++;
    double lo = (double)k / SUBDIV, hi = (double)(k + 1) / SUBDIV;
    double base = table[k], want = s - base, span = table[k + 1] - base;
    if (!(span > 0)) return lo;
    double u = lo + (hi - lo) * (want / span);
    double a = lo, b = hi; /* bracket */
    for (int it = 0; it < 12; it++) {
        double f = gauss_length(c, lo, u) - want;
        if (fabs(f) <= 1e-13 * (table[SUBDIV] + 1e-30)) break;
        if (f > 0) b = u;
        else a = u;
        double v = cubic_speed(c, u);
        double next = v > 0 ? u - f / v : 0.5 * (a + b);
        if (!(next > a && next < b)) next = 0.5 * (a + b); /* Newton left the bracket: bisect */
        u = next;
    }
    return u;
}

static pm_result check_input(pm_trajectory_mode mode, const pm_vec3 *points, uint32_t n, pm_error *err) {
    if ((unsigned)mode >= PM_TRAJECTORY_MODE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: mode %d is neither line nor curve", (int)mode);
    if (n == 0 || !points) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: a trajectory needs at least one point");
    if (n > PM_TRAJECTORY_MAX_POINTS)
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: %u points, at most %d", n, PM_TRAJECTORY_MAX_POINTS);
    /* coordinates are bounded so that no overshoot of the curve can leave the float range */
    for (uint32_t i = 0; i < n; i++)
        if (!(fabsf(points[i].x) <= 1e6f && fabsf(points[i].y) <= 1e6f && fabsf(points[i].z) <= 1e6f))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: point %u is not finite (or beyond 1e6)", i);
    return PM_OK;
}

static bool is_curve(pm_trajectory_mode mode, uint32_t n) { return mode == PM_TRAJECTORY_CURVE && n >= 3; }

/* Length of segment i (line or curve). */
static double segment_length(pm_trajectory_mode mode, const pm_vec3 *pts, uint32_t n, uint32_t i) {
    if (!is_curve(mode, n)) return dv_len(dv_sub(dv_of(pts[i + 1]), dv_of(pts[i])));
    cubic c = curve_segment(pts, n, i);
    double table[SUBDIV + 1];
    segment_table(&c, table);
    return table[SUBDIV];
}

/* Copy the points without consecutive repeats (a point added twice would make the curve loop). */
static uint32_t distinct(const pm_vec3 *points, uint32_t n, pm_vec3 *out) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || points[i].x != out[m - 1].x || points[i].y != out[m - 1].y || points[i].z != out[m - 1].z)
            out[m++] = points[i];
    return m;
}

pm_result pm_trajectory_length(pm_trajectory_mode mode, const pm_vec3 *input, uint32_t n, double *out,
                               pm_error *err) {
    pm_result r = check_input(mode, input, n, err);
    if (r != PM_OK) return r;
    pm_vec3 points[PM_TRAJECTORY_MAX_POINTS];
    n = distinct(input, n, points);
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_trajectory_length needs an output");
    double total = 0;
    for (uint32_t i = 0; i + 1 < n; i++) total += segment_length(mode, points, n, i);
    *out = total;
    return PM_OK;
}

pm_result pm_trajectory_sample(pm_trajectory_mode mode, const pm_vec3 *input, uint32_t n, float t, pm_vec3 *out,
                               pm_error *err) {
    pm_result r = check_input(mode, input, n, err);
    if (r != PM_OK) return r;
    pm_vec3 points[PM_TRAJECTORY_MAX_POINTS];
    n = distinct(input, n, points);
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_trajectory_sample needs an output");
    if (!isfinite(t)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: t is not finite");
    if (n == 1 || t <= 0) {
        *out = points[0];
        return PM_OK;
    }
    if (t >= 1) {
        *out = points[n - 1];
        return PM_OK;
    }
    double lengths[PM_TRAJECTORY_MAX_POINTS] = {0}, total = 0;
    for (uint32_t i = 0; i + 1 < n; i++) total += lengths[i] = segment_length(mode, points, n, i);
    double s = (double)t * total;
    uint32_t i = 0;
    /* the segment holding s */
    while (i + 2 < n && s > lengths[i]) s -= lengths[i++];
    if (s > lengths[i]) s = lengths[i];
    if (!is_curve(mode, n)) {
        double f = lengths[i] > 0 ? s / lengths[i] : 0;
        dv a = dv_of(points[i]), b = dv_of(points[i + 1]);
        *out = dv_out(dv_add(a, dv_scale(dv_sub(b, a), f)));
        return PM_OK;
    }
    cubic c = curve_segment(points, n, i);
    double table[SUBDIV + 1];
    segment_table(&c, table);
    *out = dv_out(cubic_at(&c, invert_segment(&c, table, s)));
    return PM_OK;
}
