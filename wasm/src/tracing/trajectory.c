/* Trajectories: the polyline and the centripetal Catmull-Rom spline through a limb's control points,
 * sampled by arc length (see procmotion/tracing.h, docs/tracing.md). Computed in double. */
#include "procmotion/tracing.h"

#include "common/internal.h"
#include "procmotion/rig.h"
#include "math/inline.h"

#include <math.h>

/* Points and vectors as double[3]; each component is computed by the same operations, in the same
 * order, one rounding per statement, as three scalar expressions would be. */
static void dv_of(double out[3], const pm_vec3 *v) { out[0] = v->x, out[1] = v->y, out[2] = v->z; }
static double dv_len(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
static pm_vec3 dv_out(const double v[3]) { return pmi_vec3_make((float)v[0], (float)v[1], (float)v[2]); }

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
    double c[4][3];
} cubic;

static pm_vec3 cubic_at(const cubic *c, double u) {
    double p[3];
    for (int k = 0; k < 3; k++) {
        double a = c->c[3][k] * u;
        a = (c->c[2][k] + a) * u;
        a = (c->c[1][k] + a) * u;
        p[k] = c->c[0][k] + a;
    }
    return dv_out(p);
}

static double cubic_speed(const cubic *c, double u) {
    const double u3 = 3.0 * u;
    double d[3];
    for (int k = 0; k < 3; k++) {
        double a = c->c[2][k] * 2.0, b = c->c[3][k] * u3;
        a = (a + b) * u;
        d[k] = c->c[1][k] + a;
    }
    return dv_len(d);
}

/* Segment i of the open curve through pts[0..n), ends mirrored (p[-1] = 2 p0 - p1): three.js
 * CubicPoly.initNonuniformCatmullRom with the centripetal knot spacing of CatmullRomCurve3.getPoint
 * (dt = |d|^0.5, tiny intervals replaced as three.js does). */
static void curve_segment(const pm_vec3 *pts, uint32_t n, uint32_t i, cubic *c) {
    double p[4][3], d[3][3], dt[3], t[2][3];
    for (uint32_t j = 0; j < 4; j++)
        if (i + j - 1 < n) dv_of(p[j], &pts[i + j - 1]); /* i + j - 1 wraps past n for j = 0 at i = 0 */
    for (int j = 0; j < 4; j += 3)
        if (i + j - 1 >= n)
            for (int k = 0; k < 3; k++) {
                const double a = p[j ? 2 : 1][k] * 2.0;
                p[j][k] = a - p[j ? 1 : 2][k];
            }
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++) d[j][k] = p[j + 1][k] - p[j][k];
        dt[j] = pow(dv_len(d[j]), 0.5);
    }
    if (dt[1] < 1e-4) dt[1] = 1.0;
    if (dt[0] < 1e-4) dt[0] = dt[1];
    if (dt[2] < 1e-4) dt[2] = dt[1];
    for (int j = 0; j < 2; j++) { /* the tangents at p1 and p2 */
        const double s0 = 1.0 / dt[j], s1 = 1.0 / (dt[j] + dt[j + 1]), s2 = 1.0 / dt[j + 1];
        for (int k = 0; k < 3; k++) {
            double a = d[j][k] * s0, b = (p[j + 2][k] - p[j][k]) * s1, e = d[j + 1][k] * s2;
            a = a - b;
            a = a + e;
            t[j][k] = a * dt[1];
        }
    }
    for (int k = 0; k < 3; k++) {
        double a = p[1][k] * -3.0, b = p[2][k] * 3.0;
        a = a + b;
        b = t[0][k] * 2.0;
        a = a - b;
        c->c[2][k] = a - t[1][k];
        a = p[1][k] * 2.0, b = p[2][k] * 2.0;
        a = a - b;
        a = a + t[0][k];
        c->c[3][k] = a + t[1][k];
        c->c[0][k] = p[1][k];
        c->c[1][k] = t[0][k];
    }
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

static bool is_curve(pm_trajectory_mode mode, uint32_t n) { return mode == PM_TRAJECTORY_CURVE && n >= 3; }

/* Curve segment i into c and its arc-length table; returns its length. */
static double curve_table(const pm_vec3 *pts, uint32_t n, uint32_t i, cubic *c, double table[SUBDIV + 1]) {
    curve_segment(pts, n, i, c);
    segment_table(c, table);
    return table[SUBDIV];
}

/* The total length of the path; each segment's (line or curve) into each[0..n-1). */
static double path_lengths(pm_trajectory_mode mode, const pm_vec3 *pts, uint32_t n, double *each) {
    double total = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        double len, a[3], b[3], table[SUBDIV + 1];
        cubic c;
        if (is_curve(mode, n)) {
            len = curve_table(pts, n, i, &c, table);
        } else {
            dv_of(a, &pts[i]), dv_of(b, &pts[i + 1]);
            for (int k = 0; k < 3; k++) b[k] -= a[k];
            len = dv_len(b);
        }
        total += each[i] = len;
    }
    return total;
}

/* Check the input and copy its points without consecutive repeats into points (a point added twice would
 * make the curve loop); *n becomes their count. `fn` names the caller for a missing output. */
static pm_result take_points(pm_trajectory_mode mode, const pm_vec3 *input, uint32_t *n, const void *out, const char *fn,
                             pm_vec3 *points, pm_error *err) {
    if ((unsigned)mode >= PM_TRAJECTORY_MODE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: mode %d is neither line nor curve", (int)mode);
    if (*n == 0 || !input) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: a trajectory needs at least one point");
    if (*n > PM_TRAJECTORY_MAX_POINTS)
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: %u points, at most %d", *n, PM_TRAJECTORY_MAX_POINTS);
    /* coordinates are bounded so that no overshoot of the curve can leave the float range */
    for (uint32_t i = 0; i < *n; i++)
        if (!(fabsf(input[i].x) <= 1e6f && fabsf(input[i].y) <= 1e6f && fabsf(input[i].z) <= 1e6f))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: point %u is not finite (or beyond 1e6)", i);
    uint32_t m = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (m == 0 || input[i].x != points[m - 1].x || input[i].y != points[m - 1].y || input[i].z != points[m - 1].z)
            points[m++] = input[i];
    *n = m;
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: %s needs an output", fn);
    return PM_OK;
}

pm_result pm_trajectory_length(pm_trajectory_mode mode, const pm_vec3 *input, uint32_t n, double *out,
                               pm_error *err) {
    pm_vec3 points[PM_TRAJECTORY_MAX_POINTS];
    double each[PM_TRAJECTORY_MAX_POINTS];
    pm_result r = take_points(mode, input, &n, out, "pm_trajectory_length", points, err);
    if (r == PM_OK) *out = path_lengths(mode, points, n, each);
    return r;
}

pm_result pm_trajectory_sample(pm_trajectory_mode mode, const pm_vec3 *input, uint32_t n, float t, pm_vec3 *out,
                               pm_error *err) {
    pm_vec3 points[PM_TRAJECTORY_MAX_POINTS];
    pm_result r = take_points(mode, input, &n, out, "pm_trajectory_sample", points, err);
    if (r != PM_OK) return r;
    if (!isfinite(t)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: t is not finite");
    if (n == 1 || t <= 0 || t >= 1) {
        *out = points[n == 1 || t <= 0 ? 0 : n - 1];
        return PM_OK;
    }
    double lengths[PM_TRAJECTORY_MAX_POINTS];
    double s = (double)t * path_lengths(mode, points, n, lengths);
    uint32_t i = 0;
    /* the segment holding s */
    while (i + 2 < n && s > lengths[i]) s -= lengths[i++];
    if (s > lengths[i]) s = lengths[i];
    if (!is_curve(mode, n)) {
        double f = lengths[i] > 0 ? s / lengths[i] : 0, a[3], b[3];
        dv_of(a, &points[i]), dv_of(b, &points[i + 1]);
        for (int k = 0; k < 3; k++) {
            const double d = (b[k] - a[k]) * f;
            a[k] += d;
        }
        *out = dv_out(a);
        return PM_OK;
    }
    cubic c;
    double table[SUBDIV + 1];
    curve_table(points, n, i, &c, table);
    *out = cubic_at(&c, invert_segment(&c, table, s));
    return PM_OK;
}
