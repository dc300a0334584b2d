/* The beat grid (procmotion/beats.h): a BPM and an offset, tap tempo, or detected beats; beat <-> time. */
#include "beats_internal.h"
#include "beats/grid.h"

#include <stdlib.h>

pm_beat_grid pm_beat_grid_from_bpm(double bpm, double offset) {
    pm_beat_grid g = {0};
    g.bpm = bpm;
    g.offset = offset;
    return g;
}

pm_beat_grid pm_beat_grid_from_beats(const pm_beats *b) {
    pm_beat_grid g = {0};
    if (!b) return g;
    g.bpm = b->bpm > 0 ? b->bpm : 120.0;
    g.offset = b->beat_count ? b->beats[0] : 0;
    g.beats = b->beat_count >= 2 ? b->beats : NULL;
    g.beat_count = b->beat_count >= 2 ? b->beat_count : 0;
    g.beats_per_bar = b->beats_per_bar;
    g.first_downbeat = b->first_downbeat < b->beat_count ? b->first_downbeat : 0;
    return g;
}

pm_result pm_beat_grid_from_taps(const double *taps, uint32_t n, pm_beat_grid *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: no output");
    if (n < 2 || !taps) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: tap tempo needs at least 2 taps, got %u", n);
    if (n > 4096) return pmi_fail(err, PM_ERR_LIMIT, "beat grid: %u taps (at most 4096)", n);
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(taps[i])) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: tap %u is not finite", i);
        if (i && taps[i] <= taps[i - 1])
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: tap %u (%g s) is not after tap %u (%g s)", i, taps[i], i - 1,
                            taps[i - 1]);
    }
    double gaps[4096], per[4096];
    for (uint32_t i = 0; i + 1 < n; i++) gaps[i] = taps[i + 1] - taps[i];
    double med = pmi_median(gaps, n - 1);
    /* each tap's beat number at the median interval (a missed tap is a skipped beat); the period is the
     * median interval per beat, the offset the median of tap - beat * period: one sloppy tap moves neither */
    double beat[4096];
    beat[0] = 0;
    for (uint32_t i = 1; i < n; i++) {
        double k = pmi_fmax(1.0, floor((taps[i] - taps[i - 1]) / med + 0.5));
        beat[i] = beat[i - 1] + k;
        per[i - 1] = (taps[i] - taps[i - 1]) / k;
    }
    double period = pmi_median(per, n - 1);
    if (!(period > 0.06)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: the taps are too fast (%g s apart)", period);
    for (uint32_t i = 0; i < n; i++) per[i] = taps[i] - beat[i] * period;
    double offset = pmi_median(per, n);
    *out = pm_beat_grid_from_bpm(60.0 / period, offset);
    return pm_beat_grid_check(out, err);
}

pm_result pm_beat_grid_check(const pm_beat_grid *g, pm_error *err) {
    if (!g) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: none");
    if (!isfinite(g->bpm) || g->bpm <= 0 || g->bpm > 1000)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: bpm must be a number in (0, 1000], got %g", g->bpm);
    if (!isfinite(g->offset)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: offset must be finite, got %g", g->offset);
    if (g->beat_count && !g->beats) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: %u beats but no array", g->beat_count);
    if (g->beat_count == 1) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: a list of beats needs at least 2");
    for (uint32_t i = 0; i < g->beat_count; i++) {
        if (!isfinite(g->beats[i])) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: beat %u is not finite", i);
        if (i && g->beats[i] <= g->beats[i - 1])
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: beat %u (%g s) is not after beat %u (%g s)", i, g->beats[i],
                            i - 1, g->beats[i - 1]);
    }
    if (g->beats_per_bar > 64) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beat grid: %u beats a bar", g->beats_per_bar);
    return PM_OK;
}

double pm_beat_grid_time(const pm_beat_grid *g, double beat) {
    if (!g) return 0;
    if (g->beat_count < 2 || !g->beats) return g->offset + beat * 60.0 / g->bpm;
    uint32_t n = g->beat_count;
    if (beat <= 0) return g->beats[0] + beat * (g->beats[1] - g->beats[0]);
    if (beat >= n - 1) return g->beats[n - 1] + (beat - (n - 1)) * (g->beats[n - 1] - g->beats[n - 2]);
    uint32_t i = (uint32_t)beat;
    return g->beats[i] + (beat - i) * (g->beats[i + 1] - g->beats[i]);
}

double pm_beat_grid_beat(const pm_beat_grid *g, double t) {
    if (!g) return 0;
    if (g->beat_count < 2 || !g->beats) return (t - g->offset) * g->bpm / 60.0;
    uint32_t n = g->beat_count;
    if (t <= g->beats[0]) return (t - g->beats[0]) / (g->beats[1] - g->beats[0]);
    if (t >= g->beats[n - 1]) return (n - 1) + (t - g->beats[n - 1]) / (g->beats[n - 1] - g->beats[n - 2]);
    uint32_t lo = 0, hi = n - 1; /* beats[lo] <= t < beats[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->beats[mid] <= t) lo = mid;
        else hi = mid;
    }
    return lo + (t - g->beats[lo]) / (g->beats[lo + 1] - g->beats[lo]);
}

double pm_beat_grid_bpm_at(const pm_beat_grid *g, double t) {
    if (!g) return 0;
    if (g->beat_count < 2 || !g->beats) return g->bpm;
    double b = pm_beat_grid_beat(g, t);
    uint32_t n = g->beat_count, i = b <= 0 ? 0 : b >= n - 1 ? n - 2 : (uint32_t)b;
    return 60.0 / (g->beats[i + 1] - g->beats[i]);
}

bool pm_beat_grid_is_set(const pm_beat_grid *g) { return g && (g->bpm != 0 || g->beat_count != 0 || g->beats != NULL); }

void pm_beat_sync_add(pm_beat_sync *s, double e) {
    if (!s) return;
    double a = isfinite(e) ? fabs(e) : 1e9;
    if (s->count == 0 || a > s->max_error) s->max_error = a, s->worst = s->count;
    s->count++;
    s->mean_error += (a - s->mean_error) / s->count;
}

pm_result pmi_beat_grid_check_for(const char *who, const pm_beat_grid *g, uint32_t max_beats, pm_error *err) {
    pm_error e = {0};
    pm_result r = pm_beat_grid_check(g, &e);
    if (r != PM_OK) return pmi_fail(err, r, "%s: %s", who, e.message);
    if (g->beat_count > max_beats)
        return pmi_fail(err, PM_ERR_LIMIT, "%s: beat grid: %u beats (at most %u)", who, g->beat_count, max_beats);
    return PM_OK;
}
