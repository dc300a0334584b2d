/* Bezier key fitting for VMD bone tracks (see keyfit.h). */
#include "keyfit/keyfit.h"
#include "math/inline.h"

#include <math.h>

double pmi_keyfit_bezier(const uint8_t c[4], double x) {
    double s = pmi_bezier_param(c[0] / 127.0, c[2] / 127.0, x);
    return pmi_bezier_y(c[1] / 127.0, c[3] / 127.0, s);
}

static const uint8_t LINEAR[4] = {20, 20, 107, 107};

/* fmax/fmin without NaN handling: inlined (libm's are calls). Inputs here are never NaN. */
static inline double maxd(double a, double b) { return a > b ? a : b; }
static inline double mind(double a, double b) { return a < b ? a : b; }

/* Handle pairs (x1, x2) tried for one axis: near-linear time first, shorter handles for steep ends. */
static const uint8_t HANDLES[][2] = {{42, 85}, {16, 85}, {42, 111}, {16, 111}, {6, 121}};
enum { HANDLE_COUNT = sizeof HANDLES / sizeof HANDLES[0] };

/* Segments of up to this many samples share a table of the first handle pair's parameters. */
enum { S_CACHE_MAX = 128 };

struct pmi_keyfit {
    const pm_allocator *allocator;
    uint32_t frames, per_frame, samples;
    double *y, *alpha, *rho, *room;       /* per sample of the current segment */
    double *s[HANDLE_COUNT];              /* s[h][j]: parameters of the current segment (h > 0) */
    double *s_cache;                      /* triangle: n = 1 .. S_CACHE_MAX, entries 0 .. n */
    uint8_t *s_cached;                    /* [S_CACHE_MAX + 1] */
    uint8_t *forced;                      /* [frames + 1] */
};

/* The current segment: samples i0 .. i0 + n, looked at every `step` samples. */
typedef struct seg {
    pmi_keyfit *k;
    uint32_t i0, n, step;
    bool exact;  /* the final check: measure the error exactly */
    bool anyway; /* the segment is kept whatever the error: fit as well as possible, no early exit */
    const double *s[HANDLE_COUNT];
} seg;

static const double *seg_s(seg *g, int h) {
    if (g->s[h]) return g->s[h];
    pmi_keyfit *k = g->k;
    double x1 = HANDLES[h][0] / 127.0, x2 = HANDLES[h][1] / 127.0;
    double *out;
    if (h == 0 && g->n <= S_CACHE_MAX) {
        out = k->s_cache + (size_t)g->n * (g->n + 1) / 2 - 1; /* rows n = 1.. have n + 1 entries */
        if (!k->s_cached[g->n]) {
            for (uint32_t j = 0; j <= g->n; j++) out[j] = pmi_bezier_param(x1, x2, (double)j / g->n);
            k->s_cached[g->n] = 1;
        }
    } else {
        out = k->s[h];
        for (uint32_t j = 0; j <= g->n; j += g->step) out[j] = pmi_bezier_param(x1, x2, (double)j / g->n);
    }
    g->s[h] = out;
    return out;
}

static uint8_t q127(double v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 127;
    return (uint8_t)lrint(v * 127.0);
}

/* Least-squares y1, y2 for normalised targets y[j] (interior samples of the segment) at parameters
 * s[j], nudged toward the straight line so one-sample segments are determined; clamped to [0,1] and
 * quantised. */
static void ls_handles(const seg *g, const double *y, const double *s, double hx1, double hx2, uint8_t *qy1,
                       uint8_t *qy2) {
    const double ridge = 1e-6;
    double aa = ridge, ab = 0, bb = ridge, ar = ridge * hx1, br = ridge * hx2;
    for (uint32_t j = g->step; j < g->n; j += g->step) {
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

/* How many handle pairs to try: all of them when an end is steep (normalised slope > 2.5). */
static int handle_tries(const seg *g, const double *y) {
    if (g->n < 3 * g->step) return 1;
    double m0 = (y[g->step] - y[0]) * g->n / g->step, m1 = (y[g->n] - y[g->n - g->step]) * g->n / g->step;
    return m0 > 2.5 || m1 > 2.5 ? HANDLE_COUNT : 1;
}

/* ---- one position axis ------------------------------------------------------------------------- */

static bool fit_scalar(seg *g, const double *v, double tol, uint8_t curve[4], double *err_out) {
    double *y = g->k->y;
    double va = v[g->i0], vb = v[g->i0 + g->n], d = vb - va;
    double err = 0;
    if (fabs(d) <= 1e-12) {
        for (uint32_t j = g->step; j < g->n; j += g->step) err = maxd(err, fabs(v[g->i0 + j] - va));
        memcpy(curve, LINEAR, 4);
        *err_out = err + fabs(d);
        return err + fabs(d) <= tol;
    }
    double slack = tol / fabs(d);
    memcpy(curve, LINEAR, 4);
    for (uint32_t j = 0; j <= g->n; j += g->step) {
        y[j] = (v[g->i0 + j] - va) / d;
        if ((y[j] < -slack || y[j] > 1 + slack) && !g->anyway) {
            *err_out = INFINITY;
            return false; /* overshoot: a VMD curve stays between its keys */
        }
    }
    int tries = handle_tries(g, y);
    double best = INFINITY;
    for (int h = 0; h < tries; h++) {
        const double *s = seg_s(g, h);
        uint8_t y1, y2;
        ls_handles(g, y, s, HANDLES[h][0] / 127.0, HANDLES[h][1] / 127.0, &y1, &y2);
        double py1 = y1 / 127.0, py2 = y2 / 127.0, e = 0;
        for (uint32_t j = g->step; j < g->n; j += g->step) e = maxd(e, fabs(pmi_bezier_y(py1, py2, s[j]) - y[j]));
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

/* acos(x)^2 for x near 1: 2u + u^2/3 + 8u^3/45, u = 1 - x (a hair low, so the check stays safe);
 * libm beyond the series' range. */
static double acos2_near_1(double x) {
    double u = 1.0 - x;
    if (u <= 0) return 0;
    if (u > 0.004) {
        double a = acos(x);
        return a * a;
    }
    return u * (2.0 + u * (1.0 / 3.0 + u * (8.0 / 45.0))) * (1.0 - 1e-12);
}

/* atan2(y, x) for x > 0 and |y / x| <= 1/4 by its series (error < 1e-10), else libm's. */
static double small_atan2(double y, double x) {
    if (x > 0 && fabs(y) <= 0.25 * x) {
        double t = y / x, t2 = t * t;
        return t * (1 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11 + t2 / 13))))));
    }
    return atan2(y, x);
}

/*
 * Each sample q_j is written in the plane of qa and qb: angle alpha_j from qa (the slerp parameter
 * times theta that reaches it) and in-plane length rho_j (1 when q_j lies on the arc). The curve's
 * point at parameter lambda has dot(q_j, point) = rho_j cos(alpha_j - lambda theta), so q_j is
 * within `tol` exactly when |alpha_j - lambda theta| <= acos(cos(tol / 2) / rho_j): that bound
 * (squared) is computed once per sample and the handles are checked without trigonometry.
 */
static bool fit_rotation(seg *g, const double *q, double tol, uint8_t curve[4], double *err_out) {
    double *y = g->k->y, *alpha = g->k->alpha, *rho = g->k->rho, *room = g->k->room;
    const double *qa = q + 4 * (size_t)g->i0;
    double qb[4];
    memcpy(qb, q + 4 * (size_t)(g->i0 + g->n), sizeof qb);
    double c = dot4(qa, qb);
    if (c < 0) {
        for (int k = 0; k < 4; k++) qb[k] = -qb[k];
        c = -c;
    }
    if (c > 1) c = 1;
    double theta = acos(c), cos_tol = cos(0.5 * tol);
    if (theta < 1e-9) {
        double worst = 1;
        for (uint32_t j = g->step; j < g->n; j += g->step) worst = mind(worst, fabs(dot4(q + 4 * (size_t)(g->i0 + j), qa)));
        memcpy(curve, LINEAR, 4);
        *err_out = qangle(worst) + theta;
        return *err_out <= tol;
    }
    double st = sin(theta), qp[4];
    for (int k = 0; k < 4; k++) qp[k] = (qb[k] - qa[k] * c) / st;
    double slack = tol / theta;
    memcpy(curve, LINEAR, 4);
    y[0] = 0, y[g->n] = 1;
    for (uint32_t j = g->step; j < g->n; j += g->step) {
        const double *qi = q + 4 * (size_t)(g->i0 + j);
        double ca = dot4(qi, qa), cp = dot4(qi, qp);
        if (ca < 0 && ca * c + cp * st < 0) ca = -ca, cp = -cp; /* the same rotation, other sign */
        rho[j] = sqrt(ca * ca + cp * cp);
        alpha[j] = small_atan2(cp, ca);
        y[j] = alpha[j] / theta;
        if ((y[j] < -slack || y[j] > 1 + slack || rho[j] < cos_tol) && !g->anyway) {
            *err_out = INFINITY; /* past an end of the arc, or too far off its plane */
            return false;
        }
        room[j] = rho[j] > cos_tol ? acos2_near_1(cos_tol / rho[j]) : 0; /* squared */
    }
    int tries = handle_tries(g, y);
    double best = INFINITY; /* largest (alpha - lambda theta)^2 - room^2 */
    for (int h = 0; h < tries && best > 0; h++) {
        const double *s = seg_s(g, h);
        uint8_t y1, y2;
        ls_handles(g, y, s, HANDLES[h][0] / 127.0, HANDLES[h][1] / 127.0, &y1, &y2);
        double py1 = y1 / 127.0, py2 = y2 / 127.0, over = -INFINITY;
        for (uint32_t j = g->step; j < g->n; j += g->step) {
            double d = alpha[j] - pmi_bezier_y(py1, py2, s[j]) * theta;
            over = maxd(over, d * d - room[j]);
        }
        if (over < best) {
            best = over;
            curve[0] = HANDLES[h][0], curve[1] = y1, curve[2] = HANDLES[h][1], curve[3] = y2;
        }
    }
    bool ok = best <= 0;
    if ((ok || g->anyway) && g->exact) {
        /* the exact worst angle of the chosen curve */
        double py1 = curve[1] / 127.0, py2 = curve[3] / 127.0, worst = 1;
        int h = 0;
        for (int k = 0; k < HANDLE_COUNT; k++)
            if (curve[0] == HANDLES[k][0] && curve[2] == HANDLES[k][1]) h = k;
        const double *s = seg_s(g, h);
        for (uint32_t j = g->step; j < g->n; j += g->step) {
            double d = alpha[j] - pmi_bezier_y(py1, py2, s[j]) * theta, d2 = d * d;
            /* cos by its series where the angle is small (error < 1e-16 below 0.01 rad) */
            double cd = d2 < 1e-4 ? 1 - d2 * (0.5 - d2 / 24) : cos(d);
            worst = mind(worst, fabs(rho[j] * cd));
        }
        *err_out = qangle(worst);
    } else {
        *err_out = ok ? tol : INFINITY;
    }
    return ok;
}

/* ---- the track -------------------------------------------------------------------------------- */

typedef struct fitter {
    pmi_keyfit *k;
    const pmi_keyfit_track *t;
    /* the last segment accepted by an exact check */
    uint32_t ok_b;
    uint8_t ok_curve[4][4];
    double ok_pos_err, ok_rot_err;
} fitter;

/* Fit the segment a..b (frames), on whole frames (exact = false) or on every sample (exact = true);
 * an exact fit that passes (or is forced) becomes the last good one. */
static bool try_segment(fitter *f, uint32_t a, uint32_t b, bool exact, bool accept_anyway) {
    const pmi_keyfit_track *t = f->t;
    /* coarse checks look at whole frames, every other one on long segments */
    uint32_t coarse = (b - a) >= 8 ? 2 * t->per_frame : t->per_frame;
    seg g = {f->k, a * t->per_frame, (b - a) * t->per_frame, exact ? 1 : coarse, exact, accept_anyway, {0}};
    uint8_t curve[4][4];
    double pos_err = 0, rot_err = 0;
    bool ok = true;
    for (int axis = 0; axis < 3 && (ok || accept_anyway); axis++) {
        if (!t->pos[axis]) {
            memcpy(curve[axis], LINEAR, 4);
            continue;
        }
        double e;
        ok = fit_scalar(&g, t->pos[axis], t->pos_tol, curve[axis], &e) && ok;
        pos_err = maxd(pos_err, e);
    }
    if (!t->rot) {
        memcpy(curve[3], LINEAR, 4);
    } else if (ok || accept_anyway) {
        double e;
        ok = fit_rotation(&g, t->rot, t->rot_tol, curve[3], &e) && ok;
        rot_err = e;
    }
    if (exact && (ok || accept_anyway)) {
        f->ok_b = b;
        memcpy(f->ok_curve, curve, sizeof curve);
        f->ok_pos_err = pos_err;
        f->ok_rot_err = rot_err;
    }
    return ok;
}

/* All channels bit-for-bit equal at samples i and j. */
static bool samples_equal(const pmi_keyfit_track *t, uint32_t i, uint32_t j) {
    for (int axis = 0; axis < 3; axis++)
        if (t->pos[axis] && t->pos[axis][i] != t->pos[axis][j]) return false;
    if (t->rot)
        for (int k = 0; k < 4; k++)
            if (t->rot[4 * (size_t)i + k] != t->rot[4 * (size_t)j + k]) return false;
    return true;
}

pmi_keyfit *pmi_keyfit_create(const pm_allocator *a, uint32_t frames, uint32_t per_frame, pm_error *err) {
    if (per_frame == 0 || frames == 0) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keyfit: empty track"), NULL;
    pmi_keyfit *k = pmi_alloc_array(a, 1, sizeof *k, err, "keyfit: context");
    if (!k) return NULL;
    k->allocator = a;
    k->frames = frames, k->per_frame = per_frame, k->samples = frames * per_frame + 1;
    size_t per = k->samples, cache = (size_t)(S_CACHE_MAX + 1) * (S_CACHE_MAX + 2) / 2;
    double *pool = pmi_alloc_array(a, per * (4 + HANDLE_COUNT) + cache, sizeof(double), err, "keyfit: scratch");
    k->s_cached = pool ? pmi_alloc_array(a, S_CACHE_MAX + 1, 1, err, "keyfit: cache") : NULL;
    k->forced = k->s_cached ? pmi_alloc_array(a, frames + 1, 1, err, "keyfit: forced keys") : NULL;
    if (!k->forced) {
        pmi_free(a, k->s_cached);
        pmi_free(a, pool);
        pmi_free(a, k);
        return NULL;
    }
    k->y = pool, k->alpha = pool + per, k->rho = pool + 2 * per, k->room = pool + 3 * per;
    for (int h = 0; h < HANDLE_COUNT; h++) k->s[h] = pool + (4 + h) * per;
    k->s_cache = pool + (4 + HANDLE_COUNT) * per;
    return k;
}

void pmi_keyfit_free(pmi_keyfit *k) {
    if (!k) return;
    const pm_allocator *a = k->allocator;
    pmi_free(a, k->forced);
    pmi_free(a, k->s_cached);
    pmi_free(a, k->y);
    pmi_free(a, k);
}

pm_result pmi_keyfit_track_fit(pmi_keyfit *k, const pmi_keyfit_track *t, pmi_keyfit_key *keys, pmi_keyfit_result *result,
                               pm_error *err) {
    memset(result, 0, sizeof *result);
    if (!k || t->frames != k->frames || t->per_frame != k->per_frame)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keyfit: the track does not match the context");
    const uint32_t frames = t->frames, pf = t->per_frame;
    uint8_t *forced = k->forced;
    fitter f = {k, t, 0, {{0}}, 0, 0};

    /* Forced keys: the ends, the caller's, and the ends of still runs of >= 2 frames. */
    if (t->forced) memcpy(forced, t->forced, frames + 1);
    else memset(forced, 0, frames + 1);
    forced[0] = forced[frames] = 1;
    for (uint32_t fr = 0; fr < frames;) {
        uint32_t end = fr;
        while (end < frames) {
            bool still = true;
            for (uint32_t j = 1; j <= pf && still; j++) still = samples_equal(t, end * pf, end * pf + j);
            if (!still) break;
            end++;
        }
        if (end - fr >= 2) forced[fr] = forced[end] = 1;
        fr = end > fr ? end : fr + 1;
    }

    uint32_t n = 0, a0 = 0, guess = 4, back = 0;
    for (;;) {
        const double *rq = t->rot ? t->rot + 4 * (size_t)a0 * pf : NULL;
        pmi_keyfit_key *key = &keys[n++];
        key->frame = a0;
        for (int axis = 0; axis < 3; axis++) key->pos[axis] = t->pos[axis] ? (float)t->pos[axis][a0 * pf] : 0.0f;
        if (rq) {
            double len = sqrt(dot4(rq, rq));
            for (int c = 0; c < 4; c++) key->rot[c] = (float)(rq[c] / len);
        } else {
            key->rot[0] = key->rot[1] = key->rot[2] = 0, key->rot[3] = 1;
        }
        if (n == 1) {
            for (int axis = 0; axis < 4; axis++) memcpy(key->curve[axis], LINEAR, 4);
        } else {
            memcpy(key->curve, f.ok_curve, sizeof f.ok_curve);
            result->max_pos_error = maxd(result->max_pos_error, f.ok_pos_err);
            result->max_rot_error = maxd(result->max_rot_error, f.ok_rot_err);
        }
        if (a0 == frames) break;

        uint32_t nf = a0 + 1;
        while (!forced[nf]) nf++;
        /* The first guess: the segment that started a period earlier (keys are in order), else the
         * last one. Widen the bracket from there on whole frames, then bisect between the longest fit
         * and the shortest failure. */
        if (t->period > 0 && n >= 2) {
            double want = a0 - t->period;
            while (back + 1 < n && keys[back + 1].frame <= want + 0.5) back++;
            if (back + 1 < n && fabs(keys[back].frame - want) <= 0.5) guess = keys[back + 1].frame - keys[back].frame;
        }
        uint32_t lo = a0 + 1, hi = nf + 1; /* lo fits (a single frame always does), hi fails */
        uint32_t b = a0 + (guess < 2 ? 2 : guess);
        if (b > nf) b = nf;
        if (b > lo) {
            if (try_segment(&f, a0, b, false, false)) {
                lo = b;
                for (uint32_t d = 1; lo < nf; d *= 2) {
                    b = lo + d > nf ? nf : lo + d;
                    if (try_segment(&f, a0, b, false, false)) lo = b;
                    else {
                        hi = b;
                        break;
                    }
                }
            } else {
                hi = b;
                for (uint32_t d = 1; hi - lo > 1; d *= 2) {
                    b = hi - lo > d ? hi - d : lo;
                    if (b <= lo) break;
                    if (try_segment(&f, a0, b, false, false)) {
                        lo = b;
                        break;
                    }
                    hi = b;
                }
            }
        }
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (try_segment(&f, a0, mid, false, false)) lo = mid;
            else hi = mid;
        }
        /* Every sample must fit too: shorten until it does (rare; a single frame is accepted as is). */
        while (lo > a0 + 1 && !try_segment(&f, a0, lo, true, false)) lo = a0 + (lo - a0) * 3 / 4;
        if (lo == a0 + 1) try_segment(&f, a0, lo, true, true);
        guess = lo - a0;
        a0 = lo;
    }
    result->count = n;
    return PM_OK;
}

pm_result pmi_keyfit_add_keys(pm_vmd *vmd, const char *name, const pmi_keyfit_key *keys, uint32_t count, pm_error *err) {
    for (uint32_t k = 0; k < count; k++) {
        uint8_t interp[PM_VMD_INTERP_SIZE];
        pm_vmd_interp_pack((const uint8_t(*)[4])keys[k].curve, interp);
        pm_result r = pm_vmd_add_bone_key(vmd, name, keys[k].frame, keys[k].pos, keys[k].rot, interp, err);
        if (r != PM_OK) return r;
    }
    return PM_OK;
}
