/* Tempo and beat-tracking building blocks: the prepared onset envelope, autocorrelation, the comb
 * salience with its tempo prior, and Ellis' dynamic programme. */
#include "beats_internal.h"

pmi_tempo_scan pmi_tempo_scan_make(const pm_beats_options *o) {
    pmi_tempo_scan s;
    s.lag_min = (uint32_t)floor(60.0 * PMI_FPS / pmi_opt_max_bpm(o));
    s.lag_max = (uint32_t)ceil(60.0 * PMI_FPS / pmi_opt_min_bpm(o));
    if (s.lag_min < 2) s.lag_min = 2;
    s.acf_lags = 4 * s.lag_max + 4;
    return s;
}

void pmi_prepare_onsets(const float *raw, size_t n, float *out) {
    const size_t half = (size_t)(PMI_FPS / 2); /* local mean over +-0.5 s */
    double sum = 0;
    size_t lo = 0, hi = 0; /* window [lo, hi) */
    for (size_t k = 0; k < n; k++) {
        size_t want_hi = k + half + 1 < n ? k + half + 1 : n;
        size_t want_lo = k > half ? k - half : 0;
        while (hi < want_hi) sum += raw[hi++];
        while (lo < want_lo) sum -= raw[lo++];
        double mean = sum / (double)(hi - lo);
        double v = raw[k] - mean;
        out[k] = v > 0 ? (float)v : 0.0f;
    }
    double ss = 0, s1 = 0;
    for (size_t k = 0; k < n; k++) s1 += out[k], ss += (double)out[k] * out[k];
    double var = n > 1 ? (ss - s1 * s1 / n) / (n - 1) : 0;
    double inv = var > 1e-12 ? 1.0 / sqrt(var) : 0.0;
    for (size_t k = 0; k < n; k++) out[k] = (float)(out[k] * inv);
}

void pmi_autocorrelate(const float *x, size_t n, uint32_t lags, double *acf) {
    double mean = 0;
    for (size_t k = 0; k < n; k++) mean += x[k];
    mean = n ? mean / n : 0;
    for (uint32_t l = 0; l < lags; l++) {
        double s = 0;
        for (size_t k = l; k < n; k++) s += (x[k] - mean) * (x[k - l] - mean);
        acf[l] = s;
    }
    double z = acf[0] > 1e-12 ? acf[0] : 1.0;
    for (uint32_t l = 0; l < lags; l++) acf[l] /= z;
}

static double acf_near(const double *acf, uint32_t lags, double at, uint32_t spread) {
    int64_t c = (int64_t)floor(at + 0.5);
    double best = -1e30;
    for (int64_t v = c - (int64_t)spread; v <= c + (int64_t)spread; v++)
        if (v >= 0 && v < (int64_t)lags && acf[v] > best) best = acf[v];
    return best > -1e30 ? best : 0.0;
}

void pmi_tempo_salience(const double *acf, const pmi_tempo_scan *s, double prior_bpm, double *sal) {
    for (uint32_t lag = s->lag_min; lag <= s->lag_max; lag++) {
        double comb = 0;
        for (uint32_t k = 1; k <= 4; k++) {
            double at = (double)lag * k;
            if (at >= s->acf_lags) break;
            comb += acf_near(acf, s->acf_lags, at, k - 1) / k;
        }
        double bpm = 60.0 * PMI_FPS / lag, o = pmi_log2(bpm / prior_bpm);
        sal[lag - s->lag_min] = (comb > 0 ? comb : 0) * pmi_exp(-0.5 * o * o);
    }
}

double pmi_best_lag(const double *sal, const pmi_tempo_scan *s) {
    uint32_t n = s->lag_max - s->lag_min + 1, best = 0;
    for (uint32_t i = 1; i < n; i++)
        if (sal[i] > sal[best]) best = i;
    double d = 0;
    if (best > 0 && best + 1 < n) {
        double a = sal[best - 1], b = sal[best], c = sal[best + 1], den = a - 2 * b + c;
        if (den < 0) d = 0.5 * (a - c) / den;
        if (d > 0.5) d = 0.5;
        if (d < -0.5) d = -0.5;
    }
    return s->lag_min + best + d;
}

uint32_t pmi_dp_beats(const float *o, size_t n, const float *period, double constant_period, double tightness,
                      const double *logd, uint32_t logd_n, double *score, int32_t *back, uint32_t *beats) {
    if (n == 0) return 0;
    for (size_t k = 0; k < n; k++) {
        double p = period ? period[k] : constant_period;
        int64_t lo = (int64_t)k - (int64_t)floor(2.0 * p + 0.5), hi = (int64_t)k - (int64_t)floor(0.5 * p + 0.5);
        if (lo < 0) lo = 0;
        double best = -1e300, lp = pmi_log(p);
        int32_t arg = -1;
        if (hi >= (int64_t)k) hi = (int64_t)k - 1;
        for (int64_t j = hi; j >= lo; j--) {
            size_t d = k - (size_t)j;
            double r = (d < logd_n ? logd[d] : pmi_log((double)d)) - lp;
            double v = score[j] - tightness * r * r;
            if (v > best) best = v, arg = (int32_t)j;
        }
        if (arg < 0 || best < 0) best = 0, arg = -1; /* start a new chain */
        score[k] = o[k] + best;
        back[k] = arg;
    }
    /* the end: the best score within the last period */
    double p_end = period ? period[n - 1] : constant_period;
    size_t from = n > (size_t)(p_end + 1) ? n - (size_t)(p_end + 1) : 0;
    size_t end = from;
    for (size_t k = from; k < n; k++)
        if (score[k] > score[end]) end = k;
    uint32_t count = 0;
    for (int64_t k = (int64_t)end; k >= 0; k = back[k]) beats[count++] = (uint32_t)k;
    for (uint32_t i = 0; i < count / 2; i++) {
        uint32_t tmp = beats[i];
        beats[i] = beats[count - 1 - i];
        beats[count - 1 - i] = tmp;
    }
    return count;
}
