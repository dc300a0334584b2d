/* Bezier key fitting for VMD bone tracks (see keyfit.h). */
#include "keyfit/keyfit.h"
#include "math/math_internal.h"

#include <math.h>

/* X(s) and Y(s) of an MMD curve with control points (p1, p2) in [0,1]. */
static inline double bez(double p1, double p2, double s) {
    double r = 1.0 - s;
    return 3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s;
}
double pmi_keyfit_bezier(const uint8_t c[4], double x) {
    double s = pmi_bezier_param(c[0] / 127.0, c[2] / 127.0, x);
    return bez(c[1] / 127.0, c[3] / 127.0, s);
}

static const uint8_t LINEAR[4] = {20, 20, 107, 107};

/* Handle pairs (x1, x2) tried for one axis: near-linear time first, shorter handles for steep ends. */
static const uint8_t HANDLES[][2] = {{42, 85}, {16, 85}, {42, 111}, {16, 111}, {6, 121}};
enum { HANDLE_COUNT = sizeof HANDLES / sizeof HANDLES[0] };

typedef struct seg {
    uint32_t i0, n;  /* first sample, samples in the segment minus one (end = i0 + n) */
    double *s[HANDLE_COUNT]; /* per handle pair: s_i of each sample, computed on demand */
    bool have_s[HANDLE_COUNT];
} seg;

static const double *seg_s(seg *g, int h) {
    if (!g->have_s[h]) {
        double x1 = HANDLES[h][0] / 127.0, x2 = HANDLES[h][1] / 127.0;
        for (uint32_t j = 0; j <= g->n; j++) g->s[h][j] = pmi_bezier_param(x1, x2, (double)j / g->n);
        g->have_s[h] = true;
    }
    return g->s[h];
}

static uint8_t q127(double v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 127;
    return (uint8_t)lrint(v * 127.0);
}

/* Least-squares y1, y2 for normalised targets y[j] (j = 1 .. n-1) at parameters s[j], nudged toward
 * the straight line so one-sample segments are determined; clamped to [0,1] and quantised. */
static void ls_handles(const double *y, const double *s, uint32_t n, double hx1, double hx2, uint8_t *qy1,
                       uint8_t *qy2) {
    const double ridge = 1e-6;
    double aa = ridge, ab = 0, bb = ridge, ar = ridge * hx1, br = ridge * hx2;
    for (uint32_t j = 1; j < n; j++) {
        double t = s[j], r = 1.0 - t;
        double A = 3.0 * r * r * t, B = 3.0 * r * t * t, rem = y[j] - t * t * t;
        aa += A * A, ab += A * B, bb += B * B, ar += A * rem, br += B * rem;
    }
    double det = aa * bb - ab * ab, y1, y2;
    if (fabs(det) < 1e-18) {
        y1 = hx1, y2 = hx2;
    } else {
        y1 = (ar * bb - br * ab) / det;
        y2 = (aa * br - ab * ar) / det;
    }
    /* When one handle leaves [0,1], clamp it and solve the other alone. */
    if (y1 < 0 || y1 > 1) {
        y1 = y1 < 0 ? 0 : 1;
        y2 = (br - ab * y1) / bb;
    } else if (y2 < 0 || y2 > 1) {
        y2 = y2 < 0 ? 0 : 1;
        y1 = (ar - ab * y2) / aa;
    }
    *qy1 = q127(y1);
    *qy2 = q127(y2);
}

/* ---- one scalar axis --------------------------------------------------------------------------- */

/* Normalised samples of a position axis into y[0..n]; returns the endpoint delta. */
static double fit_scalar(seg *g, const double *v, double tol, double *y, uint8_t curve[4], double *err_out) {
    double va = v[g->i0], vb = v[g->i0 + g->n], d = vb - va;
    double err = 0;
    if (fabs(d) <= 1e-12) {
        for (uint32_t j = 1; j < g->n; j++) err = fmax(err, fabs(v[g->i0 + j] - va));
        memcpy(curve, LINEAR, 4);
        *err_out = err + fabs(d);
        return err + fabs(d) <= tol;
    }
    double slack = tol / fabs(d);
    for (uint32_t j = 0; j <= g->n; j++) {
        y[j] = (v[g->i0 + j] - va) / d;
        if (y[j] < -slack || y[j] > 1 + slack) {
            *err_out = INFINITY;
            return false; /* overshoot: a VMD curve stays between its keys */
        }
    }
    /* Steep ends (normalised slope > 2.5) get the shorter handles as well. */
    double m0 = (y[1] - y[0]) * g->n, m1 = (y[g->n] - y[g->n - 1]) * g->n;
    int tries = (m0 > 2.5 || m1 > 2.5) && g->n >= 3 ? HANDLE_COUNT : 1;
    double best = INFINITY;
    for (int h = 0; h < tries; h++) {
        const double *s = seg_s(g, h);
        uint8_t y1, y2;
        ls_handles(y, s, g->n, HANDLES[h][0] / 127.0, HANDLES[h][1] / 127.0, &y1, &y2);
        double py1 = y1 / 127.0, py2 = y2 / 127.0, e = 0;
        for (uint32_t j = 1; j < g->n; j++) e = fmax(e, fabs(bez(py1, py2, s[j]) - y[j]));
        e *= fabs(d);
        if (e < best) {
            best = e;
            curve[0] = HANDLES[h][0], curve[1] = y1, curve[2] = HANDLES[h][1], curve[3] = y2;
        }
        if (best <= tol) break;
    }
    *err_out = best;
    return best <= tol;
}

/* ---- the rotation axis -------------------------------------------------------------------------- */

static inline double dot4(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

/* angle (radians) between unit quaternions given |dot| */
static inline double qangle(double absdot) { return 2.0 * acos(absdot > 1 ? 1 : absdot); }

static bool fit_rotation(seg *g, const double *q, double tol, double *y, double *alpha, double *rho, uint8_t curve[4],
                         double *err_out) {
    const double *qa = q + 4 * g->i0;
    double qb[4];
    memcpy(qb, q + 4 * (g->i0 + g->n), sizeof qb);
    double c = dot4(qa, qb);
    if (c < 0) {
        for (int k = 0; k < 4; k++) qb[k] = -qb[k];
        c = -c;
    }
    if (c > 1) c = 1;
    double theta = acos(c);
    double cos_tol = cos(0.5 * tol);
    if (theta < 1e-9) {
        double worst = 1;
        for (uint32_t j = 1; j < g->n; j++) worst = fmin(worst, fabs(dot4(q + 4 * (g->i0 + j), qa)));
        memcpy(curve, LINEAR, 4);
        *err_out = qangle(worst) + theta;
        return *err_out <= tol;
    }
    double st = sin(theta), qp[4];
    for (int k = 0; k < 4; k++) qp[k] = (qb[k] - qa[k] * c) / st;
    double slack = tol / theta;
    y[0] = 0, y[g->n] = 1;
    for (uint32_t j = 1; j < g->n; j++) {
        const double *qi = q + 4 * (g->i0 + j);
        double ca = dot4(qi, qa), cp = dot4(qi, qp);
        if (ca < 0 && ca * c + cp * st < 0) ca = -ca, cp = -cp; /* the same rotation, other sign */
        alpha[j] = atan2(cp, ca);
        rho[j] = sqrt(ca * ca + cp * cp);
        y[j] = alpha[j] / theta;
        if (y[j] < -slack || y[j] > 1 + slack) {
            *err_out = INFINITY;
            return false;
        }
    }
    double m0 = y[1] * g->n, m1 = (1 - y[g->n - 1]) * g->n;
    int tries = (m0 > 2.5 || m1 > 2.5) && g->n >= 3 ? HANDLE_COUNT : 1;
    double best_dot = -1;
    for (int h = 0; h < tries; h++) {
        const double *s = seg_s(g, h);
        uint8_t y1, y2;
        ls_handles(y, s, g->n, HANDLES[h][0] / 127.0, HANDLES[h][1] / 127.0, &y1, &y2);
        double py1 = y1 / 127.0, py2 = y2 / 127.0, worst = 1;
        for (uint32_t j = 1; j < g->n; j++) {
            double lam = bez(py1, py2, s[j]);
            worst = fmin(worst, fabs(rho[j] * cos(alpha[j] - lam * theta)));
        }
        if (worst > best_dot) {
            best_dot = worst;
            curve[0] = HANDLES[h][0], curve[1] = y1, curve[2] = HANDLES[h][1], curve[3] = y2;
        }
        if (best_dot >= cos_tol) break;
    }
    *err_out = qangle(best_dot);
    return best_dot >= cos_tol;
}

/* ---- the track -------------------------------------------------------------------------------- */

typedef struct fitter {
    const pmi_keyfit_track *t;
    seg g;
    double *y, *alpha, *rho;
    /* the last segment that fitted */
    uint32_t ok_b;
    uint8_t ok_curve[4][4];
    double ok_pos_err, ok_rot_err;
} fitter;

/* Fit the segment a..b (frames); on success remember it as the last good one. */
static bool try_segment(fitter *f, uint32_t a, uint32_t b, bool accept_anyway) {
    const pmi_keyfit_track *t = f->t;
    f->g.i0 = a * t->per_frame;
    f->g.n = (b - a) * t->per_frame;
    for (int h = 0; h < HANDLE_COUNT; h++) f->g.have_s[h] = false;
    uint8_t curve[4][4];
    double pos_err = 0, rot_err = 0;
    bool ok = true;
    for (int axis = 0; axis < 3 && (ok || accept_anyway); axis++) {
        if (!t->pos[axis]) {
            memcpy(curve[axis], LINEAR, 4);
            continue;
        }
        double e;
        ok = fit_scalar(&f->g, t->pos[axis], t->pos_tol, f->y, curve[axis], &e) && ok;
        pos_err = fmax(pos_err, e);
    }
    if (!t->rot) {
        memcpy(curve[3], LINEAR, 4);
    } else if (ok || accept_anyway) {
        double e;
        ok = fit_rotation(&f->g, t->rot, t->rot_tol, f->y, f->alpha, f->rho, curve[3], &e) && ok;
        rot_err = e;
    }
    if (ok || accept_anyway) {
        f->ok_b = b;
        memcpy(f->ok_curve, curve, sizeof curve);
        f->ok_pos_err = pos_err;
        f->ok_rot_err = rot_err;
    }
    return ok;
}

/* All channels bit-for-bit equal from sample i to sample j. */
static bool samples_equal(const pmi_keyfit_track *t, uint32_t i, uint32_t j) {
    for (int axis = 0; axis < 3; axis++)
        if (t->pos[axis] && t->pos[axis][i] != t->pos[axis][j]) return false;
    if (t->rot)
        for (int k = 0; k < 4; k++)
            if (t->rot[4 * i + k] != t->rot[4 * j + k]) return false;
    return true;
}

pm_result pmi_keyfit_track_fit(const pmi_keyfit_track *t, const pm_allocator *a, pmi_keyfit_key *keys,
                               pmi_keyfit_result *result, pm_error *err) {
    memset(result, 0, sizeof *result);
    const uint32_t frames = t->frames, pf = t->per_frame, samples = frames * pf + 1;
    uint8_t *forced = pmi_alloc_array(a, frames + 1, 1, err, "keyfit: forced keys");
    double *scratch = forced ? pmi_alloc_array(a, (size_t)samples * (3 + HANDLE_COUNT), sizeof(double), err,
                                               "keyfit: scratch")
                             : NULL;
    if (!scratch) {
        pmi_free(a, forced);
        return PM_ERR_OUT_OF_MEMORY;
    }
    fitter f = {.t = t};
    f.y = scratch, f.alpha = scratch + samples, f.rho = scratch + 2 * (size_t)samples;
    for (int h = 0; h < HANDLE_COUNT; h++) f.g.s[h] = scratch + (size_t)(3 + h) * samples;

    /* Forced keys: the ends, the caller's, and the ends of still runs of >= 2 frames. */
    if (t->forced) memcpy(forced, t->forced, frames + 1);
    forced[0] = forced[frames] = 1;
    for (uint32_t fr = 0; fr < frames;) {
        uint32_t end = fr;
        while (end < frames) {
            bool still = true;
            for (uint32_t k = 1; k <= pf && still; k++) still = samples_equal(t, end * pf, end * pf + k);
            if (!still) break;
            end++;
        }
        if (end - fr >= 2) forced[fr] = forced[end] = 1;
        fr = end > fr ? end : fr + 1;
    }

    uint32_t n = 0, a0 = 0, guess = 4;
    for (;;) {
        const double *rq = t->rot ? t->rot + 4 * (size_t)a0 * pf : NULL;
        pmi_keyfit_key *k = &keys[n++];
        k->frame = a0;
        for (int axis = 0; axis < 3; axis++) k->pos[axis] = t->pos[axis] ? (float)t->pos[axis][a0 * pf] : 0.0f;
        if (rq) {
            double len = sqrt(dot4(rq, rq));
            for (int c = 0; c < 4; c++) k->rot[c] = (float)(rq[c] / len);
        } else {
            k->rot[0] = k->rot[1] = k->rot[2] = 0, k->rot[3] = 1;
        }
        if (n == 1)
            for (int axis = 0; axis < 4; axis++) memcpy(k->curve[axis], LINEAR, 4);
        else {
            memcpy(k->curve, f.ok_curve, sizeof f.ok_curve);
            result->max_pos_error = fmax(result->max_pos_error, f.ok_pos_err);
            result->max_rot_error = fmax(result->max_rot_error, f.ok_rot_err);
        }
        if (a0 == frames) break;

        uint32_t nf = a0 + 1;
        while (!forced[nf]) nf++;
        /* Gallop from the last segment's length, then bisect between the longest fit and the
         * shortest failure. */
        uint32_t lo = a0 + 1, hi = nf + 1; /* lo fits (accepted anyway), hi fails (exclusive bound) */
        try_segment(&f, a0, lo, true);
        uint32_t b = a0 + (guess < 2 ? 2 : guess);
        if (b > nf) b = nf;
        if (b > lo) {
            if (try_segment(&f, a0, b, false)) {
                lo = b;
                while (lo < nf) {
                    b = a0 + 2 * (lo - a0);
                    if (b > nf) b = nf;
                    if (try_segment(&f, a0, b, false)) lo = b;
                    else {
                        hi = b;
                        break;
                    }
                }
            } else {
                hi = b;
            }
        }
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (try_segment(&f, a0, mid, false)) lo = mid;
            else hi = mid;
        }
        if (f.ok_b != lo) try_segment(&f, a0, lo, true);
        guess = lo - a0;
        a0 = lo;
    }
    result->count = n;
    pmi_free(a, scratch);
    pmi_free(a, forced);
    return PM_OK;
}
