/* The streaming front end of the beat tracker: downmix, decimation, mel SuperFlux onsets, bass flux,
 * chroma. Every value depends only on the samples, never on how they were split into pushes. */
#include "beats_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define PMI_CHUNK 65536u       /* input frames analysed at a time inside a push */
#define PMI_LOG_GAIN 1000.0f   /* log(1 + gain * magnitude): the log range starts 60 dB under full scale */
#define PMI_BASS_HZ 200.0
#define PMI_CLIP 1000.0f      /* samples beyond +-1000 (float files can hold anything) are clipped */
#define PMI_BAND_MIN_HZ 30.0
#define PMI_BAND_MAX_HZ 5500.0

double pmi_opt_min_bpm(const pm_beats_options *o) { return o->min_bpm > 0 ? o->min_bpm : 55.0; }
double pmi_opt_max_bpm(const pm_beats_options *o) { return o->max_bpm > 0 ? o->max_bpm : 215.0; }
double pmi_opt_prior_bpm(const pm_beats_options *o) { return o->prior_bpm > 0 ? o->prior_bpm : 120.0; }
double pmi_opt_tightness(const pm_beats_options *o) { return o->tightness > 0 ? o->tightness : 100.0; }

static pm_result check_options(const pm_beats_options *o, pm_error *err) {
    double lo = pmi_opt_min_bpm(o), hi = pmi_opt_max_bpm(o), prior = pmi_opt_prior_bpm(o), tight = pmi_opt_tightness(o);
    if (!isfinite(o->min_bpm) || !isfinite(o->max_bpm) || o->min_bpm < 0 || o->max_bpm < 0 || lo < 30 || hi > 300 || hi < 1.5 * lo)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                        "beats: the tempo range %g..%g BPM is not usable (min >= 30, max <= 300, max >= 1.5 x min)", lo, hi);
    if (!isfinite(o->prior_bpm) || o->prior_bpm < 0 || prior < 30 || prior > 300)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: prior_bpm %g is not in 30..300", prior);
    if (!isfinite(o->tightness) || o->tightness < 0 || tight > 10000)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: tightness %g is not in (0, 10000]", tight);
    if (o->beats_per_bar == 1 || o->beats_per_bar > 12)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: beats_per_bar %u is not 0 (detect) or 2..12", o->beats_per_bar);
    if (!isfinite(o->max_seconds) || o->max_seconds < 0)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: max_seconds %g is not a duration", o->max_seconds);
    if (o->flags & ~PM_BEATS_STEADY) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: unknown flags 0x%x", o->flags);
    return PM_OK;
}

static bool framer_init(const pm_allocator *a, pmi_framer *f, double rate, double fps, uint32_t window, uint32_t fft) {
    memset(f, 0, sizeof *f);
    f->rate = rate, f->fps = fps, f->window = window, f->fft = fft;
    f->hann = pmi_alloc_array(a, window, sizeof(float), NULL, "");
    if (!f->hann) return false;
    for (uint32_t i = 0; i < window; i++) f->hann[i] = (float)(0.5 - 0.5 * cos(2 * M_PI * (i + 0.5) / window));
    return true;
}

static void framer_release(const pm_allocator *a, pmi_framer *f) {
    pmi_free(a, f->hann);
    pmi_floats_release(a, &f->buf);
}

/* First sample of frame i (may be negative: zeros before the start). */
static int64_t frame_start(const pmi_framer *f, uint64_t i) {
    int64_t centre = (int64_t)floor((double)i * f->rate / f->fps + 0.5);
    return centre - (int64_t)(f->window / 2);
}

/* Fill out[0 .. fft) with frame i windowed (zero padded) when the samples are there. */
static bool framer_take(pmi_framer *f, uint64_t available, float *out) {
    int64_t start = frame_start(f, f->next);
    if (start + (int64_t)f->window > (int64_t)available) return false;
    for (uint32_t j = 0; j < f->window; j++) {
        int64_t idx = start + j;
        out[j] = idx < (int64_t)f->base ? 0.0f : f->buf.v[idx - (int64_t)f->base] * f->hann[j];
    }
    for (uint32_t j = f->window; j < f->fft; j++) out[j] = 0.0f;
    f->next++;
    return true;
}

static void framer_trim(pmi_framer *f) {
    int64_t keep = frame_start(f, f->next);
    if (keep <= (int64_t)f->base) return;
    size_t drop = (size_t)(keep - (int64_t)f->base);
    if (drop > f->buf.n) drop = f->buf.n;
    memmove(f->buf.v, f->buf.v + drop, (f->buf.n - drop) * sizeof(float));
    f->buf.n -= drop;
    f->base += drop;
}

static double hz_to_mel(double f) { return 2595.0 * log10(1.0 + f / 700.0); }
static double mel_to_hz(double m) { return 700.0 * (pmi_pow(10.0, m / 2595.0) - 1.0); }

static bool init_bands(pm_beat_tracker *t) {
    const pm_allocator *a = &t->allocator;
    uint32_t bins = PMI_FFT / 2 + 1;
    t->band_lo = pmi_alloc_array(a, PMI_BANDS, sizeof(uint16_t), NULL, "");
    t->band_hi = pmi_alloc_array(a, PMI_BANDS, sizeof(uint16_t), NULL, "");
    t->band_w = pmi_alloc_array(a, (size_t)PMI_BANDS * bins, sizeof(float), NULL, "");
    if (!t->band_lo || !t->band_hi || !t->band_w) return false;
    double fmax = pmi_fmin(PMI_BAND_MAX_HZ, 0.49 * t->work_rate);
    double m0 = hz_to_mel(PMI_BAND_MIN_HZ), m1 = hz_to_mel(fmax);
    double bin_hz = t->work_rate / PMI_FFT;
    t->bass_bands = 0;
    for (uint32_t b = 0; b < PMI_BANDS; b++) {
        double lo = mel_to_hz(m0 + (m1 - m0) * b / (PMI_BANDS + 1));
        double mid = mel_to_hz(m0 + (m1 - m0) * (b + 1) / (PMI_BANDS + 1));
        double hi = mel_to_hz(m0 + (m1 - m0) * (b + 2) / (PMI_BANDS + 1));
        if (mid < PMI_BASS_HZ) t->bass_bands = b + 1;
        float *w = t->band_w + (size_t)b * bins;
        uint32_t first = bins, last = 0;
        for (uint32_t k = 1; k < bins; k++) {
            double f = k * bin_hz, v = f <= lo || f >= hi ? 0 : f <= mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid);
            if (v <= 0) continue;
            w[k] = (float)v;
            if (k < first) first = k;
            last = k;
        }
        if (first > last) { /* narrower than a bin: take the nearest bin */
            uint32_t k = (uint32_t)floor(mid / bin_hz + 0.5);
            if (k < 1) k = 1;
            if (k >= bins) k = bins - 1;
            w[k] = 1.0f;
            first = last = k;
        }
        t->band_lo[b] = (uint16_t)first;
        t->band_hi[b] = (uint16_t)last;
    }
    return true;
}

static bool init_chroma(pm_beat_tracker *t) {
    const pm_allocator *a = &t->allocator;
    uint32_t bins = PMI_CHROMA_FFT / 2 + 1;
    t->pitch_class = pmi_alloc_array(a, bins, 1, NULL, "");
    t->pitch_weight = pmi_alloc_array(a, bins, sizeof(float), NULL, "");
    if (!t->pitch_class || !t->pitch_weight) return false;
    double bin_hz = t->chroma_rate / PMI_CHROMA_FFT, fmax = pmi_fmin(1300.0, 0.45 * t->chroma_rate);
    for (uint32_t k = 0; k < bins; k++) {
        double f = k * bin_hz;
        t->pitch_class[k] = -1;
        if (f < 55.0 || f > fmax) continue;
        double p = 12.0 * pmi_log2(f / 440.0) + 69.0;
        double r = floor(p + 0.5);
        int pc = ((int)r % 12 + 12) % 12;
        double c = cos(M_PI * (p - r)); /* 1 on the pitch, 0 half a semitone away */
        t->pitch_class[k] = (int8_t)pc;
        t->pitch_weight[k] = (float)(c * c);
    }
    return true;
}

void pm_beat_tracker_free(pm_beat_tracker *t) {
    if (!t || t->magic != PMI_TRACKER_MAGIC) return;
    const pm_allocator *a = &t->allocator;
    pmi_floats_release(a, &t->mono);
    pmi_decimator_release(a, &t->dec);
    framer_release(a, &t->spec);
    pmi_fft_release(a, &t->fft);
    pmi_free(a, t->mag);
    pmi_free(a, t->frame);
    pmi_free(a, t->band_lo);
    pmi_free(a, t->band_hi);
    pmi_free(a, t->band_w);
    pmi_free(a, t->logspec);
    pmi_floats_release(a, &t->onset);
    pmi_floats_release(a, &t->bass);
    pmi_floats_release(a, &t->work_samples);
    pmi_decimator_release(a, &t->dec2);
    framer_release(a, &t->chr);
    pmi_fft_release(a, &t->fft2);
    pmi_free(a, t->mag2);
    pmi_free(a, t->frame2);
    pmi_free(a, t->pitch_class);
    pmi_free(a, t->pitch_weight);
    pmi_floats_release(a, &t->chroma);
    pmi_floats_release(a, &t->chroma_samples);
    t->magic = 0;
    pm_allocator copy = *a;
    pmi_free(&copy, t);
}

pm_result pm_beat_tracker_create(double sample_rate, uint32_t channels, const pm_beats_options *options, pm_beat_tracker **out,
                                 pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no output pointer");
    *out = NULL;
    if (!isfinite(sample_rate) || sample_rate < PM_BEATS_MIN_SAMPLE_RATE || sample_rate > PM_BEATS_MAX_SAMPLE_RATE)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: sample rate %g Hz is not in 8000..96000", sample_rate);
    if (channels < 1 || channels > PM_BEATS_MAX_CHANNELS)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: %u channels (1 to %u are supported)", channels, PM_BEATS_MAX_CHANNELS);
    pm_beats_options o = options ? *options : (pm_beats_options){0};
    pm_result r = check_options(&o, err);
    if (r != PM_OK) return r;
    pm_beat_tracker *t = pmi_alloc_array(&o.allocator, 1, sizeof *t, err, "beats: tracker");
    if (!t) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    t->magic = PMI_TRACKER_MAGIC;
    t->allocator = o.allocator;
    t->opts = o;
    t->sample_rate = sample_rate;
    t->channels = channels;
    t->next_progress = 1.0;
    const pm_allocator *a = &t->allocator;
    uint32_t factor = (uint32_t)floor(sample_rate / 11025.0 + 1e-9);
    if (factor < 1) factor = 1;
    t->work_rate = sample_rate / factor;
    uint32_t window = (uint32_t)floor(0.04644 * t->work_rate + 0.5);
    if (window > PMI_FFT) window = PMI_FFT;
    uint32_t factor2 = (uint32_t)floor(t->work_rate / PMI_CHROMA_RATE + 0.5);
    if (factor2 < 1) factor2 = 1;
    t->chroma_rate = t->work_rate / factor2;
    uint32_t window2 = (uint32_t)floor(0.3715 * t->chroma_rate + 0.5);
    if (window2 > PMI_CHROMA_FFT) window2 = PMI_CHROMA_FFT;
    bool ok = pmi_decimator_init(a, &t->dec, factor, 8) && framer_init(a, &t->spec, t->work_rate, PMI_FPS, window, PMI_FFT) &&
              pmi_fft_init(a, &t->fft, PMI_FFT) && (t->mag = pmi_alloc_array(a, PMI_FFT / 2 + 1, sizeof(float), NULL, "")) &&
              (t->frame = pmi_alloc_array(a, PMI_FFT, sizeof(float), NULL, "")) && init_bands(t) &&
              (t->logspec = pmi_alloc_array(a, (size_t)(PMI_FLUX_LAG + 1) * PMI_BANDS, sizeof(float), NULL, "")) &&
              pmi_decimator_init(a, &t->dec2, factor2, 16) &&
              framer_init(a, &t->chr, t->chroma_rate, PMI_CHROMA_FPS, window2, PMI_CHROMA_FFT) &&
              pmi_fft_init(a, &t->fft2, PMI_CHROMA_FFT) &&
              (t->mag2 = pmi_alloc_array(a, PMI_CHROMA_FFT / 2 + 1, sizeof(float), NULL, "")) &&
              (t->frame2 = pmi_alloc_array(a, PMI_CHROMA_FFT, sizeof(float), NULL, "")) && init_chroma(t);
    if (!ok) {
        pm_beat_tracker_free(t);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "beats: out of memory creating the tracker");
    }
    *out = t;
    return PM_OK;
}

/* One spectral frame: log mel bands, SuperFlux onset and bass flux. */
static bool spectral_frame(pm_beat_tracker *t) {
    const pm_allocator *a = &t->allocator;
    pmi_fft_real_magnitude(&t->fft, t->frame, t->mag);
    uint32_t bins = PMI_FFT / 2 + 1;
    float scale = 4.0f / (float)t->spec.window;
    float *cur = t->logspec + (size_t)(t->spec_frames % (PMI_FLUX_LAG + 1)) * PMI_BANDS;
    for (uint32_t b = 0; b < PMI_BANDS; b++) {
        const float *w = t->band_w + (size_t)b * bins;
        float e = 0;
        for (uint32_t k = t->band_lo[b]; k <= t->band_hi[b]; k++) e += w[k] * t->mag[k];
        cur[b] = log1pf(PMI_LOG_GAIN * scale * e);
    }
    float flux = 0, bass = 0;
    if (t->spec_frames >= PMI_FLUX_LAG) {
        const float *prev = t->logspec + (size_t)((t->spec_frames - PMI_FLUX_LAG) % (PMI_FLUX_LAG + 1)) * PMI_BANDS;
        for (uint32_t b = 0; b < PMI_BANDS; b++) {
            float m = prev[b];
            if (b > 0 && prev[b - 1] > m) m = prev[b - 1];
            if (b + 1 < PMI_BANDS && prev[b + 1] > m) m = prev[b + 1];
            float d = cur[b] - m;
            if (d > 0) {
                flux += d;
                if (b < t->bass_bands) bass += d;
            }
        }
    }
    t->spec_frames++;
    return pmi_floats_push(a, &t->onset, flux) && pmi_floats_push(a, &t->bass, bass);
}

static bool chroma_frame(pm_beat_tracker *t) {
    pmi_fft_real_magnitude(&t->fft2, t->frame2, t->mag2);
    float c[12] = {0};
    float scale = 4.0f / (float)t->chr.window;
    for (uint32_t k = 0; k <= PMI_CHROMA_FFT / 2; k++) {
        int pc = t->pitch_class[k];
        if (pc >= 0) c[pc] += t->pitch_weight[k] * log1pf(PMI_LOG_GAIN * scale * t->mag2[k]);
    }
    float norm = 0;
    for (int i = 0; i < 12; i++) norm += c[i] * c[i];
    norm = sqrtf(norm);
    if (!pmi_floats_reserve(&t->allocator, &t->chroma, t->chroma.n + 12)) return false;
    for (int i = 0; i < 12; i++) t->chroma.v[t->chroma.n++] = norm > 1e-6f ? c[i] / norm : 0.0f;
    return true;
}

static bool analyse_chunk(pm_beat_tracker *t, const float *x, size_t frames) {
    const pm_allocator *a = &t->allocator;
    if (!pmi_floats_reserve(a, &t->mono, frames)) return false;
    uint32_t ch = t->channels;
    float inv = 1.0f / (float)ch;
    for (size_t i = 0; i < frames; i++) {
        float s = 0;
        for (uint32_t c = 0; c < ch; c++) s += pmi_fminf(PMI_CLIP, pmi_fmaxf(-PMI_CLIP, x[i * ch + c]));
        t->mono.v[i] = ch == 1 ? s : s * inv;
    }
    size_t before = t->spec.buf.n;
    if (!pmi_decimator_push(a, &t->dec, t->mono.v, frames, &t->spec.buf)) return false;
    size_t added = t->spec.buf.n - before;
    uint64_t spec_available = t->spec.base + t->spec.buf.n;
    /* nothing added (a chunk too short for one decimated sample): buf.v may still be NULL, and NULL +
       0 is undefined behaviour in C */
    if (added && !pmi_decimator_push(a, &t->dec2, t->spec.buf.v + before, added, &t->chr.buf)) return false;
    while (framer_take(&t->spec, spec_available, t->frame))
        if (!spectral_frame(t)) return false;
    framer_trim(&t->spec);
    uint64_t chr_available = t->chr.base + t->chr.buf.n;
    while (framer_take(&t->chr, chr_available, t->frame2))
        if (!chroma_frame(t)) return false;
    framer_trim(&t->chr);
    return true;
}

static double max_seconds(const pm_beat_tracker *t) { return t->opts.max_seconds > 0 ? t->opts.max_seconds : 4 * 3600.0; }

pm_result pm_beat_tracker_push(pm_beat_tracker *t, const float *samples, uint64_t frames, pm_error *err) {
    if (!t || t->magic != PMI_TRACKER_MAGIC) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no tracker");
    if (frames && !samples) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no samples");
    if (frames > UINT64_MAX / PM_BEATS_MAX_CHANNELS || (double)(t->frames_in + frames) / t->sample_rate > max_seconds(t))
        return pmi_fail(err, PM_ERR_LIMIT, "beats: the audio is longer than the limit of %g s", max_seconds(t));
    uint64_t count = frames * t->channels;
    for (uint64_t i = 0; i < count; i++)
        if (!isfinite(samples[i]))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: sample %llu (frame %llu, channel %u) is not finite",
                            (unsigned long long)i, (unsigned long long)(t->frames_in + i / t->channels),
                            (unsigned)(i % t->channels));
    uint64_t done = 0;
    while (done < frames) {
        uint64_t n = frames - done < PMI_CHUNK ? frames - done : PMI_CHUNK;
        if (!analyse_chunk(t, samples + done * t->channels, (size_t)n))
            return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "beats: out of memory after %.1f s of audio",
                            (double)t->frames_in / t->sample_rate);
        done += n;
        t->frames_in += n;
        double secs = (double)t->frames_in / t->sample_rate;
        if (t->opts.progress && secs >= t->next_progress) {
            t->opts.progress(t->opts.progress_user, secs, 0);
            t->next_progress = floor(secs) + 1.0;
        }
    }
    return PM_OK;
}

pm_result pm_beat_tracker_finish(pm_beat_tracker *t, pm_beats **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no output pointer");
    *out = NULL;
    if (!t || t->magic != PMI_TRACKER_MAGIC) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no tracker");
    return pmi_beats_analyse(t, out, err);
}

typedef struct progress_wrap {
    const pm_beats_options *o;
    double total;
} progress_wrap;

static void wrapped_progress(void *user, double done, double total) {
    (void)total;
    progress_wrap *w = user;
    w->o->progress(w->o->progress_user, done, w->total);
}

pm_result pm_beats_detect(const float *samples, uint64_t frames, uint32_t channels, double sample_rate,
                          const pm_beats_options *options, pm_beats **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "beats: no output pointer");
    *out = NULL;
    pm_beats_options o = options ? *options : (pm_beats_options){0};
    progress_wrap w = {options, isfinite(sample_rate) && sample_rate > 0 ? (double)frames / sample_rate : 0};
    if (o.progress) {
        o.progress = wrapped_progress;
        o.progress_user = &w;
    }
    pm_beat_tracker *t = NULL;
    pm_result r = pm_beat_tracker_create(sample_rate, channels, &o, &t, err);
    if (r == PM_OK) r = pm_beat_tracker_push(t, samples, frames, err);
    if (r == PM_OK) r = pm_beat_tracker_finish(t, out, err);
    if (r == PM_OK && options && options->progress) options->progress(options->progress_user, w.total, w.total);
    pm_beat_tracker_free(t);
    return r;
}
