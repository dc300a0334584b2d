/* The offline analysis of the tracker's features: tempo (global and local), DP beats, metrical level,
 * trimming, beat times, tempo curve, downbeats, confidence and the result. */
#include "beats_internal.h"

#include <stdlib.h>

#ifdef PMI_BEATS_DEBUG /* a tuning aid: build with -DPMI_BEATS_DEBUG to trace the decisions on stderr */
#include <stdio.h>
#define PMI_TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define PMI_TRACE(...) ((void)0)
#endif

/* Where a spectral flux peak sits relative to the onset that caused it (measured on clicks and drum
 * hits, docs/music.md): beat time = frame time + this. */
#define PMI_ONSET_LATENCY 0.002
#define PMI_BASS_WEIGHT 0.3 /* bass flux added to the onsets, both at unit deviation */
#define PMI_WINDOW_S 8.0  /* local tempo windows */
#define PMI_HOP_S 1.0
#define PMI_STEP_PENALTY 0.15 /* Viterbi: cost of a 5 % tempo step between 1 s windows */
#define PMI_UP_RATIO 0.75   /* beats at twice the tempo this strong (mean, vs the beats): double it */
#define PMI_UP_MAYBE 0.60   /* between MAYBE and RATIO the level nearer the prior wins */
#define PMI_DOWN_RATIO 0.25 /* alternate beats this weak vs the others: halve the tempo */
#define PMI_DOWN_MAYBE 0.50

typedef struct scratch {
    const pm_allocator *a;
    size_t n;
    float *o;       /* prepared onsets */
    float *period;  /* per frame, or NULL when steady */
    double *score;
    int32_t *back;
    uint32_t *beats;
    double *logd;
    uint32_t logd_n;
} scratch;

static void scratch_release(scratch *s) {
    pmi_free(s->a, s->o);
    pmi_free(s->a, s->period);
    pmi_free(s->a, s->score);
    pmi_free(s->a, s->back);
    pmi_free(s->a, s->beats);
    pmi_free(s->a, s->logd);
}

static float peak_near(const float *o, size_t n, double at, int spread) {
    int64_t c = (int64_t)floor(at + 0.5);
    float best = 0;
    for (int64_t k = c - spread; k <= c + spread; k++)
        if (k >= 0 && k < (int64_t)n && o[k] > best) best = o[k];
    return best;
}

/* Local tempo: per 1 s hop, the salience of every lag in an 8 s Hann window; a Viterbi path through
 * them. Writes the path (fractional lags) into path[0 .. windows). Returns the window count. */
static uint32_t local_tempo(const scratch *s, const pmi_tempo_scan *scan, double prior, double *path, uint32_t max_windows,
                            pm_error *err, bool *oom) {
    size_t n = s->n;
    uint32_t win = (uint32_t)(PMI_WINDOW_S * PMI_FPS), hop = (uint32_t)(PMI_HOP_S * PMI_FPS);
    uint32_t windows = n > win ? (uint32_t)((n - win) / hop) + 1 : 1;
    if (windows > max_windows) windows = max_windows;
    uint32_t states = scan->lag_max - scan->lag_min + 1;
    pmi_tempo_scan local = *scan;
    local.acf_lags = 2 * scan->lag_max + 2;
    uint32_t wlen = n < win ? (uint32_t)n : win;
    double *acf = pmi_alloc_array(s->a, local.acf_lags, sizeof(double), err, "beats: tempo");
    double *sal = pmi_alloc_array(s->a, (size_t)windows * states, sizeof(double), err, "beats: tempo");
    double *cost = pmi_alloc_array(s->a, (size_t)windows * states, sizeof(double), err, "beats: tempo");
    int32_t *from = pmi_alloc_array(s->a, (size_t)windows * states, sizeof(int32_t), err, "beats: tempo");
    float *seg = pmi_alloc_array(s->a, wlen, sizeof(float), err, "beats: tempo");
    uint32_t result = 0;
    if (!acf || !sal || !cost || !from || !seg) {
        *oom = true;
        goto done;
    }
    for (uint32_t w = 0; w < windows; w++) {
        size_t start = (size_t)w * hop;
        for (uint32_t i = 0; i < wlen; i++) {
            double h = 0.5 - 0.5 * cos(2 * 3.14159265358979323846 * (i + 0.5) / wlen);
            seg[i] = (float)(s->o[start + i] * h);
        }
        pmi_autocorrelate(seg, wlen, local.acf_lags, acf);
        double *row = sal + (size_t)w * states;
        /* comb over 2 multiples only (the window is short) */
        for (uint32_t lag = scan->lag_min; lag <= scan->lag_max; lag++) {
            double v = acf[lag] + (2 * lag + 1 < local.acf_lags ? 0.5 * pmi_fmax(acf[2 * lag], pmi_fmax(acf[2 * lag - 1], acf[2 * lag + 1])) : 0);
            double bpm = 60.0 * PMI_FPS / lag, oct = pmi_log2(bpm / prior);
            row[lag - scan->lag_min] = (v > 0 ? v : 0) * pmi_exp(-0.5 * oct * oct);
        }
        double mx = 0;
        for (uint32_t i = 0; i < states; i++) mx = pmi_fmax(mx, row[i]);
        for (uint32_t i = 0; i < states; i++) row[i] = mx > 0 ? row[i] / mx : 0;
    }
    /* Viterbi: maximise sum of salience minus step penalties; lg[i] = log(lag_min + i), from the
     * scratch's log(d) table (the same pmi_log values) */
    const double step = pmi_log(1.05);
    const double *lg = s->logd + scan->lag_min;
    for (uint32_t i = 0; i < states; i++) cost[i] = sal[i], from[i] = -1;
    for (uint32_t w = 1; w < windows; w++) {
        const double *prev = cost + (size_t)(w - 1) * states;
        double *cur = cost + (size_t)w * states;
        for (uint32_t i = 0; i < states; i++) {
            double best = -1e300;
            int32_t arg = 0;
            double li = lg[i];
            for (uint32_t j = 0; j < states; j++) {
                double v = prev[j] - PMI_STEP_PENALTY * fabs(li - lg[j]) / step;
                if (v > best) best = v, arg = (int32_t)j;
            }
            cur[i] = best + sal[(size_t)w * states + i];
            from[(size_t)w * states + i] = arg;
        }
    }
    uint32_t at = 0;
    const double *last = cost + (size_t)(windows - 1) * states;
    for (uint32_t i = 1; i < states; i++)
        if (last[i] > last[at]) at = i;
    for (int64_t w = windows - 1; w >= 0; w--) {
        const double *row = sal + (size_t)w * states;
        double d = 0;
        if (at > 0 && at + 1 < states) {
            double a = row[at - 1], b = row[at], c = row[at + 1], den = a - 2 * b + c;
            if (den < 0) d = pmi_fmin(0.5, pmi_fmax(-0.5, 0.5 * (a - c) / den));
        }
        path[w] = scan->lag_min + at + d;
        if (w > 0) at = (uint32_t)from[(size_t)w * states + at];
    }
    result = windows;
done:
    pmi_free(s->a, acf);
    pmi_free(s->a, sal);
    pmi_free(s->a, cost);
    pmi_free(s->a, from);
    pmi_free(s->a, seg);
    return result;
}

/* Run the DP at `scale` x the tempo; returns the beat count in s->beats. */
static uint32_t track(scratch *s, double period, double scale, double tightness) {
    if (s->period) {
        /* the path is stored at scale 1: scale in place, run, restore */
        for (size_t k = 0; k < s->n; k++) s->period[k] = (float)(s->period[k] / scale);
        uint32_t c = pmi_dp_beats(s->o, s->n, s->period, 0, tightness, s->logd, s->logd_n, s->score, s->back, s->beats);
        for (size_t k = 0; k < s->n; k++) s->period[k] = (float)(s->period[k] * scale);
        return c;
    }
    return pmi_dp_beats(s->o, s->n, NULL, period / scale, tightness, s->logd, s->logd_n, s->score, s->back, s->beats);
}

/* Onset strength at the beats, between them (half-beats) and at alternate beats. */
typedef struct level_stats {
    double on, mid, even, odd;
} level_stats;

static level_stats stats_of(const scratch *s, uint32_t count) {
    level_stats st = {0};
    uint32_t ne = 0, no = 0, nm = 0;
    for (uint32_t i = 0; i < count; i++) {
        double v = peak_near(s->o, s->n, s->beats[i], 2);
        st.on += v;
        if (i % 2) st.odd += v, no++;
        else st.even += v, ne++;
        if (i + 1 < count) st.mid += peak_near(s->o, s->n, 0.5 * (s->beats[i] + s->beats[i + 1]), 2), nm++;
    }
    st.on /= count ? count : 1;
    st.mid /= nm ? nm : 1;
    st.even /= ne ? ne : 1;
    st.odd /= no ? no : 1;
    return st;
}

/* Smoothed raw onsets: where the music is (for trimming beats in silence). */
static void trim_beats(const pm_beat_tracker *t, scratch *s, uint32_t *count) {
    const float *raw = t->onset.v;
    size_t n = s->n;
    double total = 0;
    for (size_t k = 0; k < n; k++) total += raw[k];
    double mean = n ? total / n : 0;
    const int half = 25; /* +-0.25 s */
    uint32_t first = 0, last = *count;
    while (first < last) {
        double e = 0;
        int64_t c = s->beats[first];
        for (int64_t k = c - half; k <= c + half; k++)
            if (k >= 0 && k < (int64_t)n) e += raw[k];
        if (e / (2 * half + 1) >= 0.1 * mean) break;
        first++;
    }
    while (last > first) {
        double e = 0;
        int64_t c = s->beats[last - 1];
        for (int64_t k = c - half; k <= c + half; k++)
            if (k >= 0 && k < (int64_t)n) e += raw[k];
        if (e / (2 * half + 1) >= 0.1 * mean) break;
        last--;
    }
    if (first) memmove(s->beats, s->beats + first, (last - first) * sizeof(uint32_t));
    *count = last - first;
}

/* Downbeats: beat-synchronous chroma change and bass onsets folded at 3 and 4 beats a bar. */
static void downbeats(const pm_beat_tracker *t, const double *times, uint32_t nb, const uint32_t *frames, uint32_t fixed,
                      double *feat, uint32_t *meter, uint32_t *phase) {
    uint32_t nchroma = (uint32_t)(t->chroma.n / 12);
    const float *chroma = t->chroma.v;
    double prev[12] = {0}, cur[12];
    double hm = 0, hs = 0, bm = 0, bs = 0;
    double *bass = feat + nb; /* second half of the scratch */
    for (uint32_t i = 0; i < nb; i++) {
        double a = times[i], b = i + 1 < nb ? times[i + 1] : times[i] + (i ? times[i] - times[i - 1] : 0.5);
        for (int c = 0; c < 12; c++) cur[c] = 0;
        uint32_t j0 = (uint32_t)pmi_fmax(0, ceil(a * PMI_CHROMA_FPS)), j1 = (uint32_t)pmi_fmax(0, ceil(b * PMI_CHROMA_FPS));
        if (j1 <= j0) j1 = j0 + 1;
        for (uint32_t j = j0; j < j1 && j < nchroma; j++)
            for (int c = 0; c < 12; c++) cur[c] += chroma[12 * (size_t)j + c];
        double dot = 0, n1 = 0, n2 = 0;
        for (int c = 0; c < 12; c++) dot += cur[c] * prev[c], n1 += cur[c] * cur[c], n2 += prev[c] * prev[c];
        feat[i] = i > 0 && n1 > 1e-12 && n2 > 1e-12 ? 1.0 - dot / sqrt(n1 * n2) : 0;
        memcpy(prev, cur, sizeof prev);
        bass[i] = peak_near(t->bass.v, t->bass.n, frames[i], 3);
        hm += feat[i], bm += bass[i];
    }
    hm /= nb, bm /= nb;
    for (uint32_t i = 0; i < nb; i++) hs += (feat[i] - hm) * (feat[i] - hm), bs += (bass[i] - bm) * (bass[i] - bm);
    hs = sqrt(hs / nb), bs = sqrt(bs / nb);
    for (uint32_t i = 0; i < nb; i++)
        feat[i] = (hs > 1e-9 ? (feat[i] - hm) / hs : 0) + 0.5 * (bs > 1e-9 ? (bass[i] - bm) / bs : 0);
    double best = -1e300;
    *meter = fixed ? fixed : 4;
    *phase = 0;
    for (uint32_t m = fixed ? fixed : 3; m <= (fixed ? fixed : 4); m++) {
        for (uint32_t p = 0; p < m; p++) {
            double in = 0, out = 0;
            uint32_t ni = 0, no = 0;
            for (uint32_t i = 1; i < nb; i++) { /* beat 0 has no previous chroma */
                if (i % m == p) in += feat[i], ni++;
                else out += feat[i], no++;
            }
            double d = (ni ? in / ni : 0) - (no ? out / no : 0);
            if (m == 4) d *= 1.05; /* 4/4 is far more common: it wins ties */
            if (d > best) best = d, *meter = m, *phase = p;
        }
    }
}

static double dmin(double a, double b) { return a < b ? a : b; }

pm_result pmi_beats_analyse(const pm_beat_tracker *t, pm_beats **out, pm_error *err) {
    const pm_allocator *a = &t->allocator;
    const pm_beats_options *opt = &t->opts;
    size_t n = t->onset.n;
    pm_beats *b = pmi_alloc_array(a, 1, sizeof *b, err, "beats: result");
    if (!b) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    b->magic = PMI_BEATS_MAGIC;
    b->allocator = *a;
    b->duration = (double)t->frames_in / t->sample_rate;
    b->onset_rate = PMI_FPS;
    b->beats_per_bar = opt->beats_per_bar ? opt->beats_per_bar : 4;
    scratch s = {a, n, 0, 0, 0, 0, 0, 0, 0};
    pm_result r = PM_OK;
    double *path = NULL, *tmp = NULL;
    /* the envelope handed out: raw flux over its 99.5th percentile, clipped to 1 */
    b->onset_envelope = pmi_alloc_array(a, n, sizeof(float), err, "beats: onset envelope");
    tmp = pmi_alloc_array(a, n + 1, sizeof(double), err, "beats: scratch");
    if (!b->onset_envelope || !tmp) goto oom;
    b->onset_count = (uint32_t)n;
    for (size_t k = 0; k < n; k++) tmp[k] = t->onset.v[k];
    double top = n ? (qsort(tmp, n, sizeof *tmp, pmi_cmp_double), tmp[(size_t)floor(0.995 * (n - 1))]) : 0;
    if (n && top <= 0) top = tmp[n - 1];
    for (size_t k = 0; k < n; k++) b->onset_envelope[k] = top > 0 ? (float)dmin(1.0, t->onset.v[k] / top) : 0.0f;
    if (n < (size_t)(2 * PMI_FPS) || top <= 1e-9) goto finish; /* under 2 s, or silence: no beats */

    pmi_tempo_scan scan = pmi_tempo_scan_make(opt);
    double prior = pmi_opt_prior_bpm(opt), tightness = pmi_opt_tightness(opt);
    s.o = pmi_alloc_array(a, n, sizeof(float), err, "beats: onsets");
    s.score = pmi_alloc_array(a, n, sizeof(double), err, "beats: dp");
    s.back = pmi_alloc_array(a, n, sizeof(int32_t), err, "beats: dp");
    s.beats = pmi_alloc_array(a, n, sizeof(uint32_t), err, "beats: dp");
    s.logd_n = 4 * scan.lag_max + 8;
    s.logd = pmi_alloc_array(a, s.logd_n, sizeof(double), err, "beats: dp");
    double *acf = pmi_alloc_array(a, scan.acf_lags, sizeof(double), err, "beats: tempo");
    double *sal = pmi_alloc_array(a, scan.lag_max - scan.lag_min + 1, sizeof(double), err, "beats: tempo");
    if (!s.o || !s.score || !s.back || !s.beats || !s.logd || !acf || !sal) {
        pmi_free(a, acf);
        pmi_free(a, sal);
        goto oom;
    }
    for (uint32_t d = 1; d < s.logd_n; d++) s.logd[d] = pmi_log((double)d);
    /* the full-band flux plus the bass flux, each at unit deviation: a kick counts as much as a
     * broadband hit (a snare, a noisy hat) */
    pmi_prepare_onsets(t->onset.v, n, s.o);
    {
        float *bass = (float *)s.score; /* scratch: score is filled later */
        pmi_prepare_onsets(t->bass.v, n, bass);
        for (size_t k = 0; k < n; k++) s.o[k] += PMI_BASS_WEIGHT * bass[k];
    }
    pmi_autocorrelate(s.o, n, scan.acf_lags, acf);
    pmi_tempo_salience(acf, &scan, prior, sal);
    double lag = pmi_best_lag(sal, &scan);
#ifdef PMI_BEATS_DEBUG
    for (uint32_t l = scan.lag_min; l <= scan.lag_max; l++)
        if (sal[l - scan.lag_min] > 0.5 * sal[(uint32_t)(lag + 0.5) - scan.lag_min])
            PMI_TRACE("  salience lag %u (%.1f BPM): %.3f acf %.3f\n", l, 6000.0 / l, sal[l - scan.lag_min], acf[l]);
#endif
    pmi_free(a, acf);
    pmi_free(a, sal);

    /* local tempo */
    bool steady = true;
    if (!(opt->flags & PM_BEATS_STEADY) && n > (size_t)(PMI_WINDOW_S * PMI_FPS * 1.5)) {
        uint32_t maxw = (uint32_t)(n / (PMI_HOP_S * PMI_FPS)) + 2;
        path = pmi_alloc_array(a, maxw, sizeof(double), err, "beats: tempo path");
        if (!path) goto oom;
        bool oom = false;
        uint32_t windows = local_tempo(&s, &scan, prior, path, maxw, err, &oom);
        if (oom) goto oom;
        for (uint32_t w = 0; w < windows; w++) tmp[w] = path[w];
        double med = pmi_median(tmp, windows);
        uint32_t near = 0;
        for (uint32_t w = 0; w < windows; w++) near += fabs(path[w] / med - 1) < 0.04;
        steady = near >= 0.9 * windows;
        if (steady) {
            if (fabs(lag / med - 1) > 0.04) lag = med; /* the path's level wins over a global fluke */
        } else {
            s.period = pmi_alloc_array(a, n, sizeof(float), err, "beats: tempo path");
            if (!s.period) goto oom;
            double hop = PMI_HOP_S * PMI_FPS, c0 = PMI_WINDOW_S * PMI_FPS / 2;
            for (size_t k = 0; k < n; k++) {
                double x = ((double)k - c0) / hop;
                double v;
                if (x <= 0) v = path[0];
                else if (x >= windows - 1) v = path[windows - 1];
                else {
                    uint32_t i = (uint32_t)x;
                    v = path[i] + (path[i + 1] - path[i]) * (x - i);
                }
                s.period[k] = (float)v;
            }
        }
    }

    /* beats, then the metrical level: a faster level whose beats are nearly as strong, or a slower one
     * whose skipped beats are weak; in between, the level nearer the prior's centre */
    double scale = 1.0, bpm_est = 60.0 * PMI_FPS / lag;
    uint32_t count = track(&s, lag, scale, tightness);
    for (int iter = 0; iter < 3 && count >= 4; iter++) {
        level_stats st = stats_of(&s, count);
        double bpm = bpm_est * scale;
        double hi = pmi_fmax(st.even, st.odd), lo = pmi_fmin(st.even, st.odd), alt = hi > 0 ? lo / hi : 1;
        double here = fabs(pmi_log2(bpm / prior));
        PMI_TRACE("level %.2f BPM: on %.3f mid %.3f even %.3f odd %.3f (%.2f)\n", bpm, st.on, st.mid, st.even, st.odd, alt);
        if (iter < 2 && bpm * 2 <= pmi_opt_max_bpm(opt) && !(scale < 1 && iter > 0)) {
            uint32_t c2 = track(&s, lag, scale * 2, tightness);
            double up = st.on > 0 ? stats_of(&s, c2).on / st.on : 0;
            bool nearer = fabs(pmi_log2(2 * bpm / prior)) < here;
            /* alternate beats far apart in strength at a level that cannot be halved: the beats follow
             * an off-beat figure (swung notes), the faster level is then taken more readily */
            bool suspect = alt < PMI_DOWN_RATIO && bpm / 2 < pmi_opt_min_bpm(opt);
            PMI_TRACE("  x2: %.2f%s%s\n", up, nearer ? " (nearer the prior)" : "", suspect ? " (suspect level)" : "");
            if (up >= PMI_UP_RATIO || (up > PMI_UP_MAYBE && nearer) || (suspect && nearer && up > 0.5)) {
                scale *= 2, count = c2;
                continue;
            }
            count = track(&s, lag, scale, tightness);
        }
        if (bpm / 2 >= pmi_opt_min_bpm(opt) && scale <= 1) {
            bool nearer = fabs(pmi_log2(0.5 * bpm / prior)) < here;
            PMI_TRACE("  /2: alternate beats %.2f%s\n", alt, nearer ? " (nearer the prior)" : "");
            if (alt < PMI_DOWN_RATIO || (alt < PMI_DOWN_MAYBE && nearer)) {
                scale /= 2;
                count = track(&s, lag, scale, tightness);
                continue;
            }
        }
        break;
    }
    trim_beats(t, &s, &count);
    if (count < 2) goto finish;

    /* beat times: parabolic peak refinement */
    b->beats = pmi_alloc_array(a, count, sizeof(double), err, "beats: beats");
    b->bar_positions = pmi_alloc_array(a, count, 1, err, "beats: beats");
    if (!b->beats || !b->bar_positions) goto oom;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = s.beats[i];
        double d = 0;
        if (k > 0 && k + 1 < n) {
            double y0 = s.o[k - 1], y1 = s.o[k], y2 = s.o[k + 1], den = y0 - 2 * y1 + y2;
            if (y1 >= y0 && y1 >= y2 && den < 0) d = pmi_fmin(0.5, pmi_fmax(-0.5, 0.5 * (y0 - y2) / den));
        }
        double time = (k + d) / PMI_FPS + PMI_ONSET_LATENCY;
        if (time < 0) time = 0;
        if (i > 0 && time <= b->beats[i - 1]) time = b->beats[i - 1] + 1e-3;
        b->beats[i] = time;
    }
    b->beat_count = count;
    b->offset = b->beats[0];

    /* tempo: median interval; steady tracks by a least-squares line through the beats */
    for (uint32_t i = 0; i + 1 < count; i++) tmp[i] = b->beats[i + 1] - b->beats[i];
    double ibi = pmi_median(tmp, count - 1);
    b->bpm = 60.0 / ibi;
    {
        /* local tempo per interval, median of 5 */
        double *local = pmi_alloc_array(a, count, sizeof(double), err, "beats: tempo curve");
        if (!local) goto oom;
        for (uint32_t i = 0; i + 1 < count; i++) {
            double w[5];
            uint32_t m = 0;
            for (int64_t j = (int64_t)i - 2; j <= (int64_t)i + 2; j++)
                if (j >= 0 && j + 1 < (int64_t)count) w[m++] = b->beats[j + 1] - b->beats[j];
            local[i] = 60.0 / pmi_median(w, m);
        }
        uint32_t within = 0;
        for (uint32_t i = 0; i + 1 < count; i++) within += fabs(local[i] / b->bpm - 1) < 0.02;
        b->steady = within >= 0.95 * (count - 1);
        if (b->steady) {
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (uint32_t i = 0; i < count; i++) sx += i, sy += b->beats[i], sxx += (double)i * i, sxy += i * b->beats[i];
            double slope = (count * sxy - sx * sy) / (count * sxx - sx * sx);
            if (slope > 0) b->bpm = 60.0 / slope;
        }
        /* the curve: knots where the smoothed local tempo bends (Douglas-Peucker, 1.5 % tolerance) */
        pm_tempo_point *pts = pmi_alloc_array(a, count, sizeof(pm_tempo_point), err, "beats: tempo curve");
        uint8_t *keep = pmi_alloc_array(a, count, 1, err, "beats: tempo curve");
        uint32_t *stack = pmi_alloc_array(a, 2 * (size_t)count + 2, sizeof(uint32_t), err, "beats: tempo curve");
        if (!pts || !keep || !stack) {
            pmi_free(a, local);
            pmi_free(a, pts);
            pmi_free(a, keep);
            pmi_free(a, stack);
            goto oom;
        }
        uint32_t m = count - 1; /* one point per interval, at its middle */
        if (b->steady) {
            pts[0].time = b->beats[0];
            pts[0].bpm = b->bpm;
            b->tempo_point_count = 1;
        } else {
            keep[0] = keep[m - 1] = 1;
            uint32_t sp = 0;
            stack[sp++] = 0, stack[sp++] = m - 1;
            while (sp) {
                uint32_t hi = stack[--sp], lo = stack[--sp];
                if (hi <= lo + 1) continue;
                double t0 = 0.5 * (b->beats[lo] + b->beats[lo + 1]), t1 = 0.5 * (b->beats[hi] + b->beats[hi + 1]);
                double worst = 0;
                uint32_t at = lo;
                for (uint32_t i = lo + 1; i < hi; i++) {
                    double ti = 0.5 * (b->beats[i] + b->beats[i + 1]);
                    double lin = local[lo] + (local[hi] - local[lo]) * (ti - t0) / (t1 - t0);
                    double e = fabs(local[i] - lin) / local[i];
                    if (e > worst) worst = e, at = i;
                }
                if (worst > 0.015) {
                    keep[at] = 1;
                    stack[sp++] = lo, stack[sp++] = at, stack[sp++] = at, stack[sp++] = hi;
                }
            }
            uint32_t np = 0;
            for (uint32_t i = 0; i < m; i++)
                if (keep[i]) pts[np].time = 0.5 * (b->beats[i] + b->beats[i + 1]), pts[np].bpm = local[i], np++;
            b->tempo_point_count = np;
        }
        b->tempo_curve = pts;
        pmi_free(a, local);
        pmi_free(a, keep);
        pmi_free(a, stack);
    }

    /* downbeats */
    {
        double *feat = pmi_alloc_array(a, 2 * (size_t)count, sizeof(double), err, "beats: downbeats");
        if (!feat) goto oom;
        uint32_t meter = 4, phase = 0;
        downbeats(t, b->beats, count, s.beats, opt->beats_per_bar, feat, &meter, &phase);
        pmi_free(a, feat);
        b->beats_per_bar = meter;
        for (uint32_t i = 0; i < count; i++) b->bar_positions[i] = (uint8_t)(((i + meter - phase % meter) % meter) + 1);
        b->first_downbeat = phase < count ? phase : count;
    }

    /* confidence: onsets at the beats against onsets a quarter beat off */
    {
        double on = 0, off = 0;
        for (uint32_t i = 0; i + 1 < count; i++) {
            double k0 = s.beats[i], k1 = s.beats[i + 1];
            on += peak_near(s.o, n, k0, 1);
            off += 0.5 * (peak_near(s.o, n, k0 + 0.25 * (k1 - k0), 1) + peak_near(s.o, n, k0 + 0.75 * (k1 - k0), 1));
        }
        b->confidence = on > 0 ? pmi_fmin(1.0, pmi_fmax(0.0, 1.0 - off / on)) : 0;
    }
    (void)steady;
    goto finish;

oom:
    r = err && err->type ? err->type : pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "beats: out of memory");
finish:
    pmi_free(a, path);
    pmi_free(a, tmp);
    scratch_release(&s);
    if (r != PM_OK) {
        pm_beats_free(b);
        return r;
    }
    if (b->beat_count == 0) b->first_downbeat = 0;
    *out = b;
    return PM_OK;
}

void pm_beats_free(pm_beats *b) {
    if (!b || b->magic != PMI_BEATS_MAGIC) return;
    pm_allocator a = b->allocator;
    pmi_free(&a, b->beats);
    pmi_free(&a, b->bar_positions);
    pmi_free(&a, b->tempo_curve);
    pmi_free(&a, b->onset_envelope);
    b->magic = 0;
    pmi_free(&a, b);
}
