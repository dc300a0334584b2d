/* The real-time estimate (pm_beat_tracker_now): the tempo and beat phase of the last 8 s, causal. */
#include "beats_internal.h"

#define PMI_RT_WINDOW 800u /* frames (8 s) */
#define PMI_RT_MIN 300u    /* frames (3 s) before an estimate */
#define PMI_RT_REFRESH 50u /* recompute the tempo every 0.5 s */

pm_result pm_beat_tracker_now(pm_beat_tracker *t, pm_beat_now *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no output pointer");
    memset(out, 0, sizeof *out);
    out->last_beat = out->next_beat = -1;
    if (!t || t->magic != PMI_TRACKER_MAGIC) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no tracker");
    out->time = (double)t->frames_in / t->sample_rate;
    size_t total = t->onset.n;
    if (total < PMI_RT_MIN) return PM_OK;
    size_t n = total < PMI_RT_WINDOW ? total : PMI_RT_WINDOW, start = total - n;
    const pm_allocator *a = &t->allocator;
    pmi_tempo_scan scan = pmi_tempo_scan_make(&t->opts);
    scan.acf_lags = 2 * scan.lag_max + 2;
    uint32_t states = scan.lag_max - scan.lag_min + 1, logd_n = 2 * scan.lag_max + 4;
    float *o = pmi_alloc_array(a, n, sizeof(float), err, "beats: real time");
    double *score = pmi_alloc_array(a, n, sizeof(double), err, "beats: real time");
    int32_t *back = pmi_alloc_array(a, n, sizeof(int32_t), err, "beats: real time");
    uint32_t *beats = pmi_alloc_array(a, n, sizeof(uint32_t), err, "beats: real time");
    double *acf = pmi_alloc_array(a, scan.acf_lags, sizeof(double), err, "beats: real time");
    double *sal = pmi_alloc_array(a, states, sizeof(double), err, "beats: real time");
    double *logd = pmi_alloc_array(a, logd_n, sizeof(double), err, "beats: real time");
    pm_result r = PM_OK;
    if (!o || !score || !back || !beats || !acf || !sal || !logd) {
        r = err && err->type ? err->type : PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    /* causal preparation: minus the mean of the previous second, clipped, unit deviation */
    {
        const float *raw = t->onset.v;
        double sum = 0, s1 = 0, ss = 0;
        size_t lo = start >= (size_t)PMI_FPS ? start - (size_t)PMI_FPS : 0;
        for (size_t k = lo; k < start; k++) sum += raw[k];
        for (size_t k = start; k < total; k++) {
            size_t from = k >= (size_t)PMI_FPS ? k - (size_t)PMI_FPS : 0;
            double mean = k > from ? sum / (double)(k - from) : 0;
            double v = raw[k] - mean;
            o[k - start] = v > 0 ? (float)v : 0.0f;
            sum += raw[k];
            if (k >= (size_t)PMI_FPS) sum -= raw[k - (size_t)PMI_FPS];
            s1 += o[k - start], ss += (double)o[k - start] * o[k - start];
        }
        double var = (ss - s1 * s1 / n) / (n - 1);
        double inv = var > 1e-12 ? 1.0 / sqrt(var) : 0;
        for (size_t k = 0; k < n; k++) o[k] = (float)(o[k] * inv);
        if (inv == 0) goto done; /* silence */
    }
    for (uint32_t d = 1; d < logd_n; d++) logd[d] = pmi_log((double)d);
    if (t->rt_period <= 0 || total - t->rt_period_at >= PMI_RT_REFRESH) {
        pmi_autocorrelate(o, n, scan.acf_lags, acf);
        pmi_tempo_salience(acf, &scan, pmi_opt_prior_bpm(&t->opts), sal);
        t->rt_period = pmi_best_lag(sal, &scan);
        t->rt_period_at = total;
    }
    double p = t->rt_period;
    uint32_t count = pmi_dp_beats(o, n, NULL, p, pmi_opt_tightness(&t->opts), logd, logd_n, score, back, beats);
    if (count == 0) goto done;
    out->bpm = 60.0 * PMI_FPS / p;
    out->last_beat = (double)(start + beats[count - 1]) / PMI_FPS;
    out->next_beat = out->last_beat + p / PMI_FPS;
    while (out->next_beat < out->time) out->last_beat = out->next_beat, out->next_beat += p / PMI_FPS;
    out->phase = (out->time - out->last_beat) / (out->next_beat - out->last_beat);
    double on = 0, off = 0;
    for (uint32_t i = 0; i < count; i++) {
        double k = beats[i];
        on += o[(size_t)k];
        size_t q = (size_t)(k + 0.25 * p + 0.5), q3 = (size_t)(k + 0.75 * p + 0.5);
        off += 0.5 * ((q < n ? o[q] : 0) + (q3 < n ? o[q3] : 0));
    }
    out->confidence = on > 0 ? pmi_fmin(1.0, pmi_fmax(0.0, 1.0 - off / on)) : 0;
done:
    pmi_free(a, o);
    pmi_free(a, score);
    pmi_free(a, back);
    pmi_free(a, beats);
    pmi_free(a, acf);
    pmi_free(a, sal);
    pmi_free(a, logd);
    return r;
}
