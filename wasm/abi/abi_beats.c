/* Beat tracking and WAV exports : a tracker handle fed in chunks, its real-time
 * estimate, the offline result as one packed block, the beat grid evaluated in batches, tap tempo, and
 * the WAV reader and writer.
 *
 * Functions returning int32 return 0 (PM_OK) or a pm_result with a message in errbuf
 * (PM_ABI_ERROR_SIZE bytes). Blocks handed out through (out, size) pairs are malloc'd: the host frees
 * them with pm_abi_free. */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/audio.h"
#include "procmotion/beats.h"

#include <stdlib.h>

/* Options as doubles: min_bpm, max_bpm, prior_bpm, tightness, beats_per_bar, flags, max_seconds
 * (n may be shorter: the rest are 0 = defaults). */
static pm_beats_options unpack_options(const double *v, uint32_t n) {
    pm_beats_options o = {0};
    double x[7] = {0};
    for (uint32_t i = 0; i < n && i < 7; i++) x[i] = v[i];
    o.min_bpm = x[0], o.max_bpm = x[1], o.prior_bpm = x[2], o.tightness = x[3];
    o.beats_per_bar = x[4] >= 0 && x[4] <= 1000 ? (uint32_t)x[4] : 1; /* 1 is rejected with a message */
    o.flags = x[5] >= 0 && x[5] < 4294967296.0 ? (uint32_t)x[5] : 0xffffffffu;
    o.max_seconds = x[6];
    return o;
}

/* A tracker for `channels` interleaved channels at `rate` Hz; 0 with a message on failure. */
PM_EXPORT pm_beat_tracker *pm_abi_beats_create(double rate, uint32_t channels, const double *options, uint32_t n_options,
                                               char *errbuf) {
    pm_error err = {0};
    pm_beats_options o = unpack_options(options, options ? n_options : 0);
    pm_beat_tracker *t = NULL;
    pm_result r = pm_beat_tracker_create(rate, channels, &o, &t, &err);
    if (r != PM_OK) pm_abi_fail(errbuf, &err, r);
    return t;
}

PM_EXPORT int32_t pm_abi_beats_push(pm_beat_tracker *t, const float *samples, uint32_t frames, char *errbuf) {
    pm_error err = {0};
    pm_result r = pm_beat_tracker_push(t, samples, frames, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* out[6]: time, bpm, last_beat, next_beat, phase, confidence. */
PM_EXPORT int32_t pm_abi_beats_now(pm_beat_tracker *t, double *out, char *errbuf) {
    pm_error err = {0};
    pm_beat_now now;
    pm_result r = pm_beat_tracker_now(t, &now, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    if (!out) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no output"));
    out[0] = now.time, out[1] = now.bpm, out[2] = now.last_beat, out[3] = now.next_beat, out[4] = now.phase;
    out[5] = now.confidence;
    return 0;
}

PM_EXPORT void pm_abi_beats_free(pm_beat_tracker *t) { pm_beat_tracker_free(t); }

/* Header of the packed result (doubles), then beats (f64 x beat_count), the tempo curve (f64 time,
 * bpm x tempo_point_count), the onset envelope (f32 x onset_count), bar positions (u8 x beat_count). */
enum {
    PM_ABI_BEATS_BPM, PM_ABI_BEATS_CONFIDENCE, PM_ABI_BEATS_DURATION, PM_ABI_BEATS_OFFSET, PM_ABI_BEATS_STEADY,
    PM_ABI_BEATS_PER_BAR, PM_ABI_BEATS_COUNT, PM_ABI_BEATS_FIRST_DOWNBEAT, PM_ABI_BEATS_TEMPO_POINTS,
    PM_ABI_BEATS_ONSETS, PM_ABI_BEATS_ONSET_RATE, PM_ABI_BEATS_HEADER
};

PM_EXPORT int32_t pm_abi_beats_finish(pm_beat_tracker *t, uint8_t **out, uint32_t *size, char *errbuf) {
    pm_error err = {0};
    pm_beats *b = NULL;
    pm_result r = pm_beat_tracker_finish(t, &b, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    size_t n = PM_ABI_BEATS_HEADER * 8 + (size_t)b->beat_count * 8 + (size_t)b->tempo_point_count * 16 +
               (size_t)b->onset_count * 4 + b->beat_count;
    uint8_t *p = n <= UINT32_MAX ? malloc(n) : NULL;
    if (!p) {
        pm_beats_free(b);
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for %zu bytes of beats", n));
    }
    double h[PM_ABI_BEATS_HEADER] = {b->bpm, b->confidence, b->duration, b->offset, b->steady, b->beats_per_bar, b->beat_count,
                                     b->first_downbeat, b->tempo_point_count, b->onset_count, b->onset_rate};
    uint8_t *q = p;
    memcpy(q, h, sizeof h), q += sizeof h;
    memcpy(q, b->beats ? (const void *)b->beats : (const void *)h, (size_t)b->beat_count * 8), q += (size_t)b->beat_count * 8;
    for (uint32_t i = 0; i < b->tempo_point_count; i++) {
        double tp[2] = {b->tempo_curve[i].time, b->tempo_curve[i].bpm};
        memcpy(q, tp, 16), q += 16;
    }
    if (b->onset_count) memcpy(q, b->onset_envelope, (size_t)b->onset_count * 4), q += (size_t)b->onset_count * 4;
    if (b->beat_count) memcpy(q, b->bar_positions, b->beat_count);
    pm_beats_free(b);
    *out = p;
    *size = (uint32_t)n;
    return 0;
}

/* The beat grid evaluated at count inputs: mode 0 = time of beat, 1 = beat at time, 2 = BPM at time,
 * 3 = only check the grid (count may be 0). beats may be NULL (n = 0): a plain bpm + offset grid. */
PM_EXPORT int32_t pm_abi_beat_grid_eval(double bpm, double offset, const double *beats, uint32_t n, uint32_t mode,
                                        const double *in, uint32_t count, double *out, char *errbuf) {
    pm_error err = {0};
    pm_beat_grid g = pm_beat_grid_from_bpm(bpm, offset);
    g.beats = beats, g.beat_count = n;
    pm_result r = pm_beat_grid_check(&g, &err);
    if (r == PM_OK && mode > 3) r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: unknown beat grid mode %u", mode);
    if (r == PM_OK && count && (!in || !out)) r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no buffers");
    for (uint32_t i = 0; r == PM_OK && i < count; i++) {
        if (!isfinite(in[i])) r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "beat grid: input %u is not finite", i);
        else out[i] = mode == 0 ? pm_beat_grid_time(&g, in[i]) : mode == 1 ? pm_beat_grid_beat(&g, in[i]) : pm_beat_grid_bpm_at(&g, in[i]);
    }
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Tap tempo: out[2] = bpm, offset. */
PM_EXPORT int32_t pm_abi_beat_grid_from_taps(const double *taps, uint32_t n, double *out, char *errbuf) {
    pm_error err = {0};
    pm_beat_grid g;
    pm_result r = out ? pm_beat_grid_from_taps(taps, n, &g, &err) : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no output");
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    out[0] = g.bpm, out[1] = g.offset;
    return 0;
}

/* WAV bytes -> a packed block: u32 sample_rate, channels, frames (low, high), encoding, valid_bits,
 * format_tag, channel_mask, rf64, then frames x channels float samples. */
PM_EXPORT int32_t pm_abi_wav_read(const uint8_t *data, uint32_t size, uint8_t **out, uint32_t *out_size, char *errbuf) {
    pm_error err = {0};
    pm_audio *a = NULL;
    pm_result r = pm_wav_read(data, size, NULL, &a, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    size_t n = 36 + (size_t)(a->frame_count * a->channels) * 4;
    uint8_t *p = n <= UINT32_MAX ? malloc(n) : NULL;
    if (!p) {
        pm_audio_free(a);
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for %zu bytes of audio", n));
    }
    uint32_t h[9] = {a->sample_rate, a->channels, (uint32_t)a->frame_count, (uint32_t)(a->frame_count >> 32), (uint32_t)a->encoding,
                     a->valid_bits, a->format_tag, a->channel_mask, a->rf64};
    memcpy(p, h, sizeof h);
    if (n > 36) memcpy(p + 36, a->samples, n - 36);
    pm_audio_free(a);
    *out = p;
    *out_size = (uint32_t)n;
    return 0;
}

PM_EXPORT int32_t pm_abi_wav_write(const float *samples, uint32_t frames, uint32_t channels, uint32_t rate, uint32_t encoding,
                                   uint8_t **out, uint32_t *out_size, char *errbuf) {
    pm_error err = {0};
    size_t n = 0;
    pm_result r = pm_wav_write(samples, frames, channels, rate, (pm_wav_encoding)encoding, NULL, 0, &n, &err);
    uint8_t *p = r == PM_OK ? malloc(n) : NULL;
    if (r == PM_OK && !p) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for a %zu-byte WAV", n);
    if (r == PM_OK) r = pm_wav_write(samples, frames, channels, rate, (pm_wav_encoding)encoding, p, n, &n, &err);
    if (r != PM_OK) {
        free(p);
        return pm_abi_fail(errbuf, &err, r);
    }
    *out = p;
    *out_size = (uint32_t)n;
    return 0;
}
