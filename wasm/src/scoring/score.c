/* Dance scoring: keypoint features, banded subsequence DTW (coarse, then refined), part scores and
 * timing, and the streaming form (see procmotion/scoring.h). */
#include "procmotion/scoring.h"

#include "common/internal.h"
#include "fdlibm/fdlibm.h"

#include <math.h>

#define NP PM_KP_POINT_COUNT
#define NA PM_KP_ANGLE_COUNT
#define SIGMA 0.4
#define REFINE_RADIUS 6
#define MAX_FRAMES 1000000u
#define COARSE_ROWS 900u

/* One frame's features: points about the hips in torso lengths, the angle cosines, which points were seen. */
typedef struct feat {
    float p[NP * 3];
    float a[NA];
    uint8_t seen[NP];
} feat;

static const uint8_t MIRROR[NP] = {0,  4,  5,  6,  1,  2,  3,  8,  7,  10, 9,  12, 11, 14, 13, 16, 15,
                                   18, 17, 20, 19, 22, 21, 24, 23, 26, 25, 28, 27, 30, 29, 32, 31};

/* The parts: their points and angles (angles index keypoints.h's ten). */
static const uint8_t PART_POINTS[PM_SCORE_PART_COUNT][5] = {
    {11, 13, 15, 255, 255}, {12, 14, 16, 255, 255}, {23, 25, 27, 255, 255}, {24, 26, 28, 255, 255}, {0, 11, 12, 23, 24}};
static const uint8_t PART_ANGLES[PM_SCORE_PART_COUNT][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 9}};

const char *pm_score_part_name(uint32_t part) {
    static const char *const names[PM_SCORE_PART_COUNT] = {"left_arm", "right_arm", "left_leg", "right_leg", "torso"};
    return part < PM_SCORE_PART_COUNT ? names[part] : NULL;
}

/* ---- features ------------------------------------------------------------------------------------- */

/* Centre on the hips, scale by the torso, mirror when asked, and the angles. */
static void normalise(feat *f, bool mirror, float last_torso) {
    float *p = f->p;
    const float cx = 0.5f * (p[23 * 3] + p[24 * 3]), cy = 0.5f * (p[23 * 3 + 1] + p[24 * 3 + 1]), cz = 0.5f * (p[23 * 3 + 2] + p[24 * 3 + 2]);
    const float sx = 0.5f * (p[11 * 3] + p[12 * 3]) - cx, sy = 0.5f * (p[11 * 3 + 1] + p[12 * 3 + 1]) - cy,
                sz = 0.5f * (p[11 * 3 + 2] + p[12 * 3 + 2]) - cz;
    float torso = sqrtf(sx * sx + sy * sy + sz * sz);
    if (!(torso > 1e-6f)) torso = last_torso > 1e-6f ? last_torso : 1;
    for (int k = 0; k < NP; k++) {
        p[k * 3] = (p[k * 3] - cx) / torso, p[k * 3 + 1] = (p[k * 3 + 1] - cy) / torso, p[k * 3 + 2] = (p[k * 3 + 2] - cz) / torso;
    }
    if (mirror) {
        feat m = *f;
        for (int k = 0; k < NP; k++) {
            const int from = MIRROR[k];
            f->p[k * 3] = -m.p[from * 3], f->p[k * 3 + 1] = m.p[from * 3 + 1], f->p[k * 3 + 2] = m.p[from * 3 + 2];
            f->seen[k] = m.seen[from];
        }
    }
    pm_kp_angles(f->p, f->a);
}

static float torso_of(const feat *f) {
    const float *p = f->p;
    const float dx = 0.5f * (p[33] + p[36] - p[69] - p[72]), dy = 0.5f * (p[34] + p[37] - p[70] - p[73]), dz = 0.5f * (p[35] + p[38] - p[71] - p[74]);
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Features of `count` frames of raw points and visibilities (pm_kp_features fills the unseen points);
 * NaN points fail, naming the frame. */
static pm_result features(const float *points, const float *vis, uint32_t count, bool mirror, const char *what, const pm_allocator *a,
                          feat **out, pm_error *err) {
    *out = NULL;
    for (size_t q = 0; q < (size_t)count * NP * 3; q++)
        if (!isfinite(points[q])) {
            const uint32_t k = (uint32_t)(q / 3 % NP);
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: the %s's frame %u point %u (%s) is not a finite number", what,
                            (uint32_t)(q / (3 * NP)), k, pm_kp_point_name(k));
        }
    feat *f = pmi_alloc_array_unzeroed(a, count ? count : 1, sizeof *f, err, "scoring: features");
    float *filled = f ? pmi_alloc_array_unzeroed(a, (size_t)(count ? count : 1) * PM_KP_FEATURE_SIZE, sizeof *filled, err, "scoring: features") : NULL;
    if (!filled) {
        pmi_free(a, f);
        return PM_ERR_OUT_OF_MEMORY;
    }
    pm_kp_sequence view = {0};
    view.frame_count = count, view.points = (float *)points, view.visibility = (float *)vis, view.allocator = *a;
    pm_result r = pm_kp_features(&view, filled, (size_t)count * PM_KP_FEATURE_SIZE, err);
    float last = 0;
    for (uint32_t i = 0; r == PM_OK && i < count; i++) {
        /* a camera's jitter smoothed out: weights 1 2 3 2 1 over five frames (the ends held) */
        static const float W[5] = {1.0f / 9, 2.0f / 9, 3.0f / 9, 2.0f / 9, 1.0f / 9};
        for (int q = 0; q < NP * 3; q++) {
            float v = 0;
            for (int t = -2; t <= 2; t++) {
                const int64_t g = (int64_t)i + t;
                v += W[t + 2] * filled[(size_t)(g < 0 ? 0 : g >= count ? count - 1 : g) * PM_KP_FEATURE_SIZE + q];
            }
            f[i].p[q] = v;
        }
        for (int k = 0; k < NP; k++) f[i].seen[k] = vis[(size_t)i * NP + k] >= 0.5f;
        const float torso = torso_of(&f[i]);
        normalise(&f[i], mirror, last);
        if (torso > 1e-6f) last = torso;
    }
    pmi_free(a, filled);
    if (r) {
        pmi_free(a, f);
        return r;
    }
    *out = f;
    return PM_OK;
}

/* ---- cost ----------------------------------------------------------------------------------------- */

static float cost(const feat *a, const feat *b) {
    float sum = 0, wsum = 0;
    for (int k = 0; k < NP; k++) {
        if (!a->seen[k] || !b->seen[k]) continue;
        const float w = k <= 10 ? 1.0f / 11 : 1.0f; /* the face's eleven points count as one */
        const float dx = a->p[k * 3] - b->p[k * 3], dy = a->p[k * 3 + 1] - b->p[k * 3 + 1], dz = a->p[k * 3 + 2] - b->p[k * 3 + 2];
        sum += w * sqrtf(dx * dx + dy * dy + dz * dz), wsum += w;
    }
    float ang = 0;
    for (int k = 0; k < NA; k++) ang += fabsf(a->a[k] - b->a[k]);
    return 0.5f * (wsum > 0 ? sum / wsum : 0) + 0.5f * ang / NA;
}

/* The pose a fraction u of the way from a to b (points between, seen where both are, angles anew). */
static void lerp_feat(const feat *a, const feat *b, float u, feat *out) {
    for (int q = 0; q < NP * 3; q++) out->p[q] = a->p[q] + u * (b->p[q] - a->p[q]);
    for (int k = 0; k < NP; k++) out->seen[k] = a->seen[k] && b->seen[k];
    pm_kp_angles(out->p, out->a);
}

static float part_cost(const feat *a, const feat *b, int part) {
    float sum = 0, n = 0;
    for (int i = 0; i < 5; i++) {
        const int k = PART_POINTS[part][i];
        if (k == 255 || !a->seen[k] || !b->seen[k]) continue;
        const float dx = a->p[k * 3] - b->p[k * 3], dy = a->p[k * 3 + 1] - b->p[k * 3 + 1], dz = a->p[k * 3 + 2] - b->p[k * 3 + 2];
        sum += sqrtf(dx * dx + dy * dy + dz * dz), n++;
    }
    const float ang = 0.5f * (fabsf(a->a[PART_ANGLES[part][0]] - b->a[PART_ANGLES[part][0]]) +
                              fabsf(a->a[PART_ANGLES[part][1]] - b->a[PART_ANGLES[part][1]]));
    return 0.5f * (n > 0 ? sum / n : 0) + 0.5f * ang;
}

/* fdlibm's exp of the float argument, rounded to float: expf's value without musl's table */
static double similarity(double c) { return 100.0 * (float)pmi_exp((float)(-c / SIGMA)); }

/* ---- banded subsequence DTW ------------------------------------------------------------------------ */

/* Row i (reference frame ref[i * step]) holds cells lo[i]..hi[i] (performance frames perf[j * step]). */
typedef struct band {
    uint32_t rows, cols, step;
    uint32_t *lo, *hi;
    size_t *at; /* first cell of each row */
    size_t cells;
} band;

/* The path (pairs, row then column, in order) through the band; *len pairs. */
static pm_result dtw(const feat *ref, uint32_t n_ref, const feat *perf, uint32_t n_perf, const band *b, uint32_t start_cols,
                     const pm_allocator *a, uint32_t **path, uint32_t *len, pm_error *err) {
    float *d = pmi_alloc_array_unzeroed(a, b->cells ? b->cells : 1, sizeof *d, err, "scoring: alignment");
    uint8_t *dir = d ? pmi_alloc_array_unzeroed(a, b->cells ? b->cells : 1, 1, err, "scoring: alignment") : NULL;
    if (!dir) {
        pmi_free(a, d);
        return PM_ERR_OUT_OF_MEMORY;
    }
#define CELL(i, j) (((j) >= b->lo[i] && (j) <= b->hi[i]) ? d[b->at[i] + ((j)-b->lo[i])] : INFINITY)
    for (uint32_t i = 0; i < b->rows; i++) {
        const feat *r = &ref[i * b->step < n_ref ? i * b->step : n_ref - 1];
        for (uint32_t j = b->lo[i]; j <= b->hi[i]; j++) {
            const float c = cost(r, &perf[j * b->step < n_perf ? j * b->step : n_perf - 1]);
            float best = INFINITY;
            uint8_t how = 3;
            if (i == 0 && j < start_cols) best = 0; /* a free start */
            if (i > 0 && j > 0 && CELL(i - 1, j - 1) < best) best = CELL(i - 1, j - 1), how = 0;
            if (i > 0 && CELL(i - 1, j) < best) best = CELL(i - 1, j), how = 1;
            if (j > 0 && CELL(i, j - 1) < best) best = CELL(i, j - 1), how = 2;
            const size_t at = b->at[i] + (j - b->lo[i]);
            d[at] = best + c, dir[at] = how;
        }
    }
    /* a free end: the cheapest cell of the last row */
    const uint32_t last = b->rows - 1;
    uint32_t j = b->lo[last];
    for (uint32_t k = b->lo[last]; k <= b->hi[last]; k++)
        if (CELL(last, k) < CELL(last, j)) j = k;
    uint32_t *p = isfinite(CELL(last, j)) ? pmi_alloc_array_unzeroed(a, 2 * ((size_t)b->rows + b->cols), sizeof *p, err, "scoring: path") : NULL;
    if (!p) {
        pmi_free(a, d), pmi_free(a, dir);
        return isfinite(CELL(last, j)) ? PM_ERR_OUT_OF_MEMORY
                                       : pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: the performance cannot be aligned within the band");
    }
    size_t n = 0;
    for (uint32_t i = last;;) {
        p[2 * n] = i, p[2 * n + 1] = j, n++;
        const uint8_t how = dir[b->at[i] + (j - b->lo[i])];
        if (how == 3) break;
        if (how == 0) i--, j--;
        else if (how == 1) i--;
        else j--;
    }
#undef CELL
    for (size_t k = 0; k < n / 2; k++) { /* into order */
        const uint32_t r0 = p[2 * k], c0 = p[2 * k + 1];
        p[2 * k] = p[2 * (n - 1 - k)], p[2 * k + 1] = p[2 * (n - 1 - k) + 1];
        p[2 * (n - 1 - k)] = r0, p[2 * (n - 1 - k) + 1] = c0;
    }
    pmi_free(a, d), pmi_free(a, dir);
    *path = p, *len = (uint32_t)n;
    return PM_OK;
}

static pm_result band_alloc(band *b, uint32_t rows, const pm_allocator *a, pm_error *err) {
    b->rows = rows;
    b->lo = pmi_alloc_array(a, rows, sizeof *b->lo, err, "scoring: band");
    b->hi = b->lo ? pmi_alloc_array(a, rows, sizeof *b->hi, err, "scoring: band") : NULL;
    b->at = b->hi ? pmi_alloc_array(a, rows, sizeof *b->at, err, "scoring: band") : NULL;
    return b->at ? PM_OK : PM_ERR_OUT_OF_MEMORY;
}

static void band_free(band *b, const pm_allocator *a) {
    pmi_free(a, b->lo), pmi_free(a, b->hi), pmi_free(a, b->at);
    b->lo = b->hi = NULL, b->at = NULL;
}

static void band_count(band *b) {
    b->cells = 0;
    for (uint32_t i = 0; i < b->rows; i++) b->at[i] = b->cells, b->cells += b->hi[i] - b->lo[i] + 1;
}

/* ---- resampling ----------------------------------------------------------------------------------- */

/* The performance's points and visibilities at the reference's rate (linear between its timestamps). */
static pm_result resample(const pm_kp_sequence *s, double fps, const pm_allocator *a, float **points, float **vis, uint32_t *count,
                          pm_error *err) {
    const double t0 = s->timestamp_ms[0], t1 = s->timestamp_ms[s->frame_count - 1];
    const double frames = floor((t1 - t0) / 1000.0 * fps + 1e-6) + 1;
    if (!(frames >= 1 && frames <= MAX_FRAMES))
        return pmi_fail(err, PM_ERR_LIMIT, "scoring: the performance resampled to %g fps has more than %u frames", fps, MAX_FRAMES);
    const uint32_t n = (uint32_t)frames;
    float *p = pmi_alloc_array_unzeroed(a, (size_t)n * NP * 3, sizeof *p, err, "scoring: resampling");
    float *v = p ? pmi_alloc_array_unzeroed(a, (size_t)n * NP, sizeof *v, err, "scoring: resampling") : NULL;
    if (!v) {
        pmi_free(a, p);
        return PM_ERR_OUT_OF_MEMORY;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double t = t0 + i * 1000.0 / fps;
        while (k + 1 < s->frame_count - 1 && s->timestamp_ms[k + 1] <= t) k++;
        const uint32_t k1 = k + 1 < s->frame_count ? k + 1 : k;
        const double span = s->timestamp_ms[k1] - s->timestamp_ms[k];
        const float u = span > 0 ? (float)fmin(1, fmax(0, (t - s->timestamp_ms[k]) / span)) : 0;
        for (int q = 0; q < NP * 3; q++) {
            const float x0 = s->points[(size_t)k * NP * 3 + q], x1 = s->points[(size_t)k1 * NP * 3 + q];
            p[(size_t)i * NP * 3 + q] = x0 + u * (x1 - x0);
        }
        for (int q = 0; q < NP; q++) v[(size_t)i * NP + q] = fminf(s->visibility[(size_t)k * NP + q], s->visibility[(size_t)k1 * NP + q]);
    }
    *points = p, *vis = v, *count = n;
    return PM_OK;
}

/* ---- the whole performance ----------------------------------------------------------------------- */

static pm_result check_options(const pm_score_options *o, double *band_, double *max_offset, pm_error *err) {
    *band_ = 0.35, *max_offset = 5;
    if (!o) return PM_OK;
    if (!(o->band >= 0 && o->band <= 1)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: band must be in 0..1 (0 = 0.35), got %g", o->band);
    if (!isfinite(o->max_offset) || o->max_offset > 3600)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: max_offset must be at most 3600 seconds, got %g", o->max_offset);
    if (o->band > 0) *band_ = o->band;
    if (o->max_offset != 0) *max_offset = fmax(0, o->max_offset);
    return PM_OK;
}

static pm_result check_sequence(const pm_kp_sequence *s, const char *what, pm_error *err) {
    if (!s) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: the %s is NULL", what);
    if (!s->frame_count) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: the %s has no frames", what);
    if (s->frame_count > MAX_FRAMES) return pmi_fail(err, PM_ERR_LIMIT, "scoring: the %s has more than %u frames", what, MAX_FRAMES);
    return PM_OK;
}

void pm_score_result_free(pm_score_result *s) {
    if (!s) return;
    pm_allocator a = s->allocator;
    pmi_free(&a, s->per_frame), pmi_free(&a, s->match), pmi_free(&a, s->path);
    pmi_free(&a, s);
}

pm_result pm_score_dance(const pm_kp_sequence *reference, const pm_kp_sequence *performance, const pm_score_options *opts,
                         pm_score_result **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: out is NULL");
    *out = NULL;
    double band_w, max_offset;
    pm_result r = check_sequence(reference, "reference", err);
    if (r == PM_OK) r = check_sequence(performance, "performance", err);
    if (r == PM_OK) r = check_options(opts, &band_w, &max_offset, err);
    if (r) return r;
    const pm_allocator a = opts ? opts->allocator : (pm_allocator){0};
    const double fps = reference->fps > 0 ? reference->fps : 30;
    const bool resampled = fabs((performance->fps > 0 ? performance->fps : 0) - fps) > 1e-3 * fps && performance->frame_count > 1;
    float *rp = NULL, *rv = NULL;
    uint32_t n_perf = performance->frame_count;
    if (resampled && (r = resample(performance, fps, &a, &rp, &rv, &n_perf, err))) return r;
    feat *ref = NULL, *perf = NULL;
    r = features(reference->points, reference->visibility, reference->frame_count, false, "reference", &a, &ref, err);
    if (r == PM_OK)
        r = features(rp ? rp : performance->points, rp ? rv : performance->visibility, n_perf, opts && opts->mirrored, "performance", &a, &perf, err);
    pmi_free(&a, rp), pmi_free(&a, rv);
    const uint32_t n_ref = reference->frame_count;
    pm_score_result *s = NULL;
    uint32_t *coarse = NULL, coarse_len = 0;
    band b = {0};
    if (r) goto done;
    s = pmi_alloc(&a, sizeof *s);
    if (!s) {
        r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "scoring: out of memory");
        goto done;
    }
    memset(s, 0, sizeof *s);
    s->allocator = a, s->fps = fps, s->resampled = resampled, s->frame_count = n_ref;
    /* the coarse pass: every step-th frame, the whole band */
    const uint32_t step = n_ref > COARSE_ROWS ? (n_ref + COARSE_ROWS - 1) / COARSE_ROWS : 1;
    const uint32_t rows = (n_ref + step - 1) / step, cols = (n_perf + step - 1) / step;
    const double offset_cols = max_offset * fps / step;
    if ((r = band_alloc(&b, rows, &a, err))) goto done;
    b.cols = cols, b.step = step;
    for (uint32_t i = 0; i < rows; i++) {
        const double lo = floor(i * (1 - band_w)), hi = ceil(i * (1 + band_w) + offset_cols) + 1;
        b.lo[i] = (uint32_t)fmin(lo, cols - 1), b.hi[i] = (uint32_t)fmin(hi, cols - 1);
    }
    band_count(&b);
    const uint32_t start_cols = (uint32_t)fmin(cols, floor(offset_cols) + 1);
    if ((r = dtw(ref, n_ref, perf, n_perf, &b, start_cols, &a, &coarse, &coarse_len, err))) goto done;
    if (step > 1) { /* refined at full rate within REFINE_RADIUS frames of the coarse path */
        band_free(&b, &a);
        if ((r = band_alloc(&b, n_ref, &a, err))) goto done;
        b.cols = n_perf, b.step = 1;
        for (uint32_t i = 0; i < n_ref; i++) b.lo[i] = UINT32_MAX, b.hi[i] = 0;
        for (uint32_t k = 0; k < coarse_len; k++) {
            const uint32_t ic = coarse[2 * k], jc = coarse[2 * k + 1];
            const int64_t lo = (int64_t)jc * step - REFINE_RADIUS, hi = (int64_t)jc * step + step - 1 + REFINE_RADIUS;
            for (uint32_t i = ic * step; i < n_ref && i < ic * step + step; i++) {
                b.lo[i] = (uint32_t)fmin(b.lo[i], lo < 0 ? 0 : (double)lo);
                b.hi[i] = (uint32_t)fmax(b.hi[i], fmin((double)hi, n_perf - 1));
            }
        }
        for (uint32_t i = 1; i < n_ref; i++) { /* a connected corridor: never narrowing backwards */
            if (b.lo[i] < b.lo[i - 1]) b.lo[i] = b.lo[i - 1];
            if (b.hi[i] < b.hi[i - 1]) b.hi[i] = b.hi[i - 1];
            if (b.lo[i] > b.hi[i - 1] + 1) b.lo[i] = b.hi[i - 1] + 1;
            if (b.lo[i] > b.hi[i]) b.lo[i] = b.hi[i];
        }
        band_count(&b);
        pmi_free(&a, coarse);
        coarse = NULL;
        if ((r = dtw(ref, n_ref, perf, n_perf, &b, b.hi[0] + 1, &a, &coarse, &coarse_len, err))) goto done;
    }
    s->path = coarse, s->path_length = coarse_len;
    coarse = NULL;
    s->per_frame = pmi_alloc_array(&a, n_ref, sizeof *s->per_frame, err, "scoring: result");
    s->match = s->per_frame ? pmi_alloc_array(&a, n_ref, sizeof *s->match, err, "scoring: result") : NULL;
    if (!s->match) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t i = 0; i < n_ref; i++) s->per_frame[i] = -1;
    for (uint32_t k = 0; k < s->path_length; k++) {
        const uint32_t i = s->path[2 * k], j = s->path[2 * k + 1];
        const float sc = (float)similarity(cost(&ref[i], &perf[j]));
        if (sc > s->per_frame[i]) s->per_frame[i] = sc, s->match[i] = j;
    }
    /* between frames: a performer's camera samples the motion at other instants than the reference's
       frames, so each reference frame also meets the performance a quarter, half and three quarters of
       the way to the frames beside its match */
    for (uint32_t i = 0; i < n_ref; i++) {
        const uint32_t j = s->match[i];
        for (int side = -1; side <= 1; side += 2) {
            if ((side < 0 && j == 0) || (side > 0 && j + 1 >= n_perf)) continue;
            for (int q = 1; q <= 3; q++) {
                feat mid;
                lerp_feat(&perf[j], &perf[side < 0 ? j - 1 : j + 1], 0.25f * q, &mid);
                const float sc = (float)similarity(cost(&ref[i], &mid));
                if (sc > s->per_frame[i]) s->per_frame[i] = sc;
            }
        }
    }
    double total = 0;
    for (uint32_t i = 0; i < n_ref; i++) total += s->per_frame[i];
    s->score = total / n_ref;
    s->offset_seconds = s->match[0] / fps;
    /* the parts: their score along the matches, and the shift within 0.5 s that suits them best */
    const int lag_max = (int)floor(0.5 * fps);
    for (int part = 0; part < PM_SCORE_PART_COUNT; part++) {
        double sum = 0, best = INFINITY;
        for (uint32_t i = 0; i < n_ref; i++) sum += similarity(part_cost(&ref[i], &perf[s->match[i]], part));
        s->part_score[part] = (float)(sum / n_ref);
        const uint32_t stride = n_ref > 2000 ? 2 : 1;
        int best_lag = 0;
        for (int lag = -lag_max; lag <= lag_max; lag++) {
            double c = 0;
            for (uint32_t i = 0; i < n_ref; i += stride) {
                const int64_t j = (int64_t)s->match[i] + lag;
                c += part_cost(&ref[i], &perf[j < 0 ? 0 : j >= n_perf ? n_perf - 1 : j], part);
            }
            const int mag = lag < 0 ? -lag : lag, best_mag = best_lag < 0 ? -best_lag : best_lag;
            if (c < best - 1e-9 || (c <= best + 1e-9 && mag < best_mag)) best = fmin(best, c), best_lag = lag;
        }
        s->part_lag[part] = (float)(best_lag / fps);
    }
done:
    band_free(&b, &a);
    pmi_free(&a, coarse);
    pmi_free(&a, ref), pmi_free(&a, perf);
    if (r) {
        pm_score_result_free(s);
        return r;
    }
    *out = s;
    return PM_OK;
}

/* ---- streaming ------------------------------------------------------------------------------------ */

struct pm_score_stream {
    pm_allocator allocator;
    feat *ref;
    uint32_t n;
    double fps, band, max_offset;
    bool mirrored;
    float *d[2], *sim[2]; /* accumulated cost and similarity, the previous column and this one */
    uint32_t *len[2];
    uint32_t lo, hi;      /* the rows of the previous column */
    uint32_t at;
    float last_seen[NP * 3];
    uint8_t ever_seen[NP];
    float last_torso;
    float ring[5][NP * 3];   /* the last five frames, for the smoothing the batch form does */
    uint8_t ring_seen[5][NP];
    uint32_t pushed;
};

void pm_score_stream_free(pm_score_stream *s) {
    if (!s) return;
    pm_allocator a = s->allocator;
    pmi_free(&a, s->ref);
    for (int k = 0; k < 2; k++) pmi_free(&a, s->d[k]), pmi_free(&a, s->sim[k]), pmi_free(&a, s->len[k]);
    pmi_free(&a, s);
}

pm_result pm_score_stream_new(const pm_kp_sequence *reference, const pm_score_options *opts, pm_score_stream **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: out is NULL");
    *out = NULL;
    double band_w, max_offset;
    pm_result r = check_sequence(reference, "reference", err);
    if (r == PM_OK) r = check_options(opts, &band_w, &max_offset, err);
    if (r) return r;
    const pm_allocator a = opts ? opts->allocator : (pm_allocator){0};
    pm_score_stream *s = pmi_alloc(&a, sizeof *s);
    if (!s) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "scoring: out of memory");
    memset(s, 0, sizeof *s);
    s->allocator = a, s->n = reference->frame_count, s->fps = reference->fps > 0 ? reference->fps : 30;
    s->band = band_w, s->max_offset = max_offset, s->mirrored = opts && opts->mirrored;
    r = features(reference->points, reference->visibility, s->n, false, "reference", &a, &s->ref, err);
    for (int k = 0; r == PM_OK && k < 2; k++) {
        s->d[k] = pmi_alloc_array(&a, s->n, sizeof(float), err, "scoring: stream");
        s->sim[k] = s->d[k] ? pmi_alloc_array(&a, s->n, sizeof(float), err, "scoring: stream") : NULL;
        s->len[k] = s->sim[k] ? pmi_alloc_array(&a, s->n, sizeof(uint32_t), err, "scoring: stream") : NULL;
        if (!s->len[k]) r = PM_ERR_OUT_OF_MEMORY;
    }
    if (r) {
        pm_score_stream_free(s);
        return r;
    }
    *out = s;
    return PM_OK;
}

pm_result pm_score_stream_push(pm_score_stream *s, const float *points, const float *visibility, pm_score_now *now, pm_error *err) {
    if (!s || !points) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: %s is NULL", s ? "points" : "the stream");
    for (int q = 0; q < NP * 3; q++)
        if (!isfinite(points[q]))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "scoring: frame %u point %d (%s) is not a finite number", s->pushed, q / 3,
                            pm_kp_point_name((uint32_t)(q / 3)));
    /* an unseen point holds where it was last seen */
    float *slot = s->ring[s->pushed % 5];
    uint8_t *slot_seen = s->ring_seen[s->pushed % 5];
    for (int k = 0; k < NP; k++) {
        const bool seen = !visibility || visibility[k] >= 0.5f;
        for (int c = 0; c < 3; c++) slot[k * 3 + c] = seen || !s->ever_seen[k] ? points[k * 3 + c] : s->last_seen[k * 3 + c];
        if (seen) {
            memcpy(&s->last_seen[k * 3], &points[k * 3], 3 * sizeof(float));
            s->ever_seen[k] = 1;
        }
        slot_seen[k] = (uint8_t)seen;
    }
    s->pushed++;
    if (now) memset(now, 0, sizeof *now), now->frames = s->pushed;
    if (s->pushed < 3) return PM_OK; /* frame k is smoothed with frames up to k + 2: two frames behind */
    const uint32_t k = s->pushed - 3; /* the frame to score */
    feat f;
    static const float W[5] = {1.0f / 9, 2.0f / 9, 3.0f / 9, 2.0f / 9, 1.0f / 9};
    for (int q = 0; q < NP * 3; q++) {
        float v = 0;
        for (int t = -2; t <= 2; t++) {
            const int64_t g = (int64_t)k + t < 0 ? 0 : (int64_t)k + t;
            v += W[t + 2] * s->ring[g % 5][q];
        }
        f.p[q] = v;
    }
    memcpy(f.seen, s->ring_seen[k % 5], NP);
    const float torso = torso_of(&f);
    normalise(&f, s->mirrored, s->last_torso);
    if (torso > 1e-6f) s->last_torso = torso;
    /* this column: the rows within the band of where the performer was */
    const uint32_t j = k, cur = j & 1, prev = cur ^ 1; /* this column: the frame scored */
    const double reach = fmax(2 * s->fps, s->band * (j + 1));
    const uint32_t lo = j == 0 ? 0 : (uint32_t)fmax(0, s->at - reach), hi = (uint32_t)fmin(s->n - 1, (j == 0 ? 0 : s->at) + reach);
    const bool free_start = j <= s->max_offset * s->fps;
    uint32_t best = lo;
    double best_norm = INFINITY;
    for (uint32_t i = lo; i <= hi; i++) {
        const float c = cost(&s->ref[i], &f);
        float bd = INFINITY, bs = 0;
        uint32_t bl = 0;
        if (i == 0 && free_start) bd = 0; /* a free start */
#define TRY(D, S, L)                                                                                     \
    do {                                                                                                 \
        if ((D) < bd) bd = (D), bs = (S), bl = (L);                                                      \
    } while (0)
        if (j > 0 && i > 0 && i - 1 >= s->lo && i - 1 <= s->hi) TRY(s->d[prev][i - 1], s->sim[prev][i - 1], s->len[prev][i - 1]);
        if (j > 0 && i >= s->lo && i <= s->hi) TRY(s->d[prev][i], s->sim[prev][i], s->len[prev][i]);
        if (i > lo) TRY(s->d[cur][i - 1], s->sim[cur][i - 1], s->len[cur][i - 1]);
#undef TRY
        s->d[cur][i] = bd + c, s->sim[cur][i] = bs + (float)similarity(c), s->len[cur][i] = bl + 1;
        const double norm = isfinite(s->d[cur][i]) ? s->d[cur][i] / s->len[cur][i] : INFINITY;
        if (norm < best_norm) best_norm = norm, best = i;
    }
    s->lo = lo, s->hi = hi, s->at = best;
    if (now) {
        now->scored = k + 1, now->reference_frame = best;
        now->score = isfinite(best_norm) ? s->sim[cur][best] / s->len[cur][best] : 0;
        now->frame_score = similarity(cost(&s->ref[best], &f));
    }
    return PM_OK;
}
