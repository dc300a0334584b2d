/* Internal state of the beat tracker (procmotion/beats.h): the streaming front end, the DSP helpers
 * and the offline analysis. See docs/music.md for the method and its parameters. */
#ifndef PROCMOTION_BEATS_INTERNAL_H
#define PROCMOTION_BEATS_INTERNAL_H

#include "common/internal.h"
#include "fdlibm/fdlibm.h"
#include "math/inline.h"
#include "procmotion/beats.h"

#define PMI_BEATS_MAGIC 0x54414542u   /* "BEAT" */
#define PMI_TRACKER_MAGIC 0x4b435254u /* "TRCK" */

#define PMI_FPS 100.0            /* onset envelope frames a second */
#define PMI_FFT 512              /* spectral frame FFT size */
#define PMI_BANDS 36             /* mel bands */
#define PMI_CHROMA_FPS 10.0      /* chroma frames a second */
#define PMI_CHROMA_FFT 1024
#define PMI_CHROMA_RATE 2756.0   /* approximate rate of the chroma path */
#define PMI_FLUX_LAG 2           /* SuperFlux: frames between the compared spectra */

/* A growable float array. */
typedef struct pmi_floats {
    float *v;
    size_t n, cap;
} pmi_floats;

bool pmi_floats_reserve(const pm_allocator *a, pmi_floats *f, size_t n);
bool pmi_floats_push(const pm_allocator *a, pmi_floats *f, float x);
void pmi_floats_release(const pm_allocator *a, pmi_floats *f);

/* qsort comparison of doubles, and the median of v[0..n) (sorts v in place; 0 when n == 0). */
int pmi_cmp_double(const void *a, const void *b);
double pmi_median(double *v, size_t n);

/* In-place complex FFT of n = 2^k points (re, im interleaved), with tables from pmi_fft_init. */
typedef struct pmi_fft {
    uint32_t n;        /* complex points */
    float *twiddle;    /* n/2 complex */
    uint32_t *bitrev;  /* n */
    float *post;       /* real-FFT post-processing twiddles: n complex (for the 2n-point real FFT) */
    float *work;       /* 2n floats */
} pmi_fft;

bool pmi_fft_init(const pm_allocator *a, pmi_fft *f, uint32_t real_size);
void pmi_fft_release(const pm_allocator *a, pmi_fft *f);
/* Magnitudes of the real FFT of in[0 .. 2n): mag[0 .. n] (n + 1 values). */
void pmi_fft_real_magnitude(pmi_fft *f, const float *in, float *mag);

/* A decimating windowed-sinc FIR: y[m] = sum_j h[j] x[m * factor + j - half]. */
typedef struct pmi_decimator {
    uint32_t factor, taps, half;
    float *h;
    pmi_floats in;     /* input not yet consumed, starting at absolute index in_base */
    uint64_t in_base;  /* absolute index of in.v[0] */
    uint64_t in_total; /* samples pushed */
    uint64_t out_next; /* next output index */
} pmi_decimator;

bool pmi_decimator_init(const pm_allocator *a, pmi_decimator *d, uint32_t factor, uint32_t taps_per_factor);
void pmi_decimator_release(const pm_allocator *a, pmi_decimator *d);
/* Append n input samples, then write every output that is now computable to `out` (appended). */
bool pmi_decimator_push(const pm_allocator *a, pmi_decimator *d, const float *x, size_t n, pmi_floats *out);

/* A sliding analysis of a sample stream into frames centred on i * rate / fps. */
typedef struct pmi_framer {
    double rate, fps;
    uint32_t window, fft;
    float *hann;
    pmi_floats buf;    /* samples from absolute index base */
    uint64_t base;
    uint64_t next;     /* next frame index */
} pmi_framer;

struct pm_beat_tracker {
    uint32_t magic;
    pm_allocator allocator;
    pm_beats_options opts;
    double sample_rate;
    uint32_t channels;
    uint64_t frames_in;      /* input frames pushed */
    double next_progress;    /* seconds */
    pmi_floats mono;         /* scratch: the downmixed chunk */
    /* spectral path */
    pmi_decimator dec;       /* input -> working rate */
    double work_rate;
    pmi_framer spec;
    pmi_fft fft;
    float *mag;              /* PMI_FFT / 2 + 1 */
    float *frame;            /* PMI_FFT */
    uint16_t *band_lo, *band_hi; /* mel filter bin ranges */
    float *band_w;           /* weights, PMI_BANDS x (PMI_FFT / 2 + 1) sparse by range */
    uint32_t bass_bands;     /* bands whose centre is under 200 Hz */
    float *logspec;          /* (PMI_FLUX_LAG + 1) x PMI_BANDS ring */
    uint64_t spec_frames;
    pmi_floats onset;        /* SuperFlux, one value per frame */
    pmi_floats bass;         /* bass flux per frame */
    pmi_floats work_samples; /* scratch: decimated samples of a push */
    /* chroma path */
    pmi_decimator dec2;      /* working rate -> chroma rate */
    double chroma_rate;
    pmi_framer chr;
    pmi_fft fft2;
    float *mag2;
    float *frame2;
    int8_t *pitch_class;     /* per bin of the chroma FFT: 0..11 or -1 */
    float *pitch_weight;
    pmi_floats chroma;       /* 12 values per chroma frame */
    pmi_floats chroma_samples;
    /* real-time cache */
    double rt_period;        /* frames */
    uint64_t rt_period_at;   /* onset frame count when rt_period was computed */
};

/* The offline analysis (analysis.c) of the features in t. */
pm_result pmi_beats_analyse(const pm_beat_tracker *t, pm_beats **out, pm_error *err);

/* Shared by analysis.c and realtime.c. */
typedef struct pmi_tempo_scan {
    uint32_t lag_min, lag_max; /* beat periods considered (frames) */
    uint32_t acf_lags;         /* lags computed (4 x lag_max + 4) */
} pmi_tempo_scan;

pmi_tempo_scan pmi_tempo_scan_make(const pm_beats_options *o);
/* Resolved option values (zero = defaults). */
double pmi_opt_min_bpm(const pm_beats_options *o);
double pmi_opt_max_bpm(const pm_beats_options *o);
double pmi_opt_prior_bpm(const pm_beats_options *o);
double pmi_opt_tightness(const pm_beats_options *o);
/* Normalised autocorrelation of x[0..n) for lags 0..lags-1 into acf (mean removed). */
void pmi_autocorrelate(const float *x, size_t n, uint32_t lags, double *acf);
/* Comb-filtered, prior-weighted tempo salience for lags lag_min..lag_max: sal[lag - lag_min]. */
void pmi_tempo_salience(const double *acf, const pmi_tempo_scan *s, double prior_bpm, double *sal);
/* The best lag (fractional, parabolic refinement) of a salience vector. */
double pmi_best_lag(const double *sal, const pmi_tempo_scan *s);
/* Ellis' dynamic programme over o[0..n) with period[k] frames (or a constant when period == NULL).
 * logd[d] = log(d) for d < logd_n. Writes beat frames into beats (capacity n), returns their count.
 * score/back are n-sized scratch. */
uint32_t pmi_dp_beats(const float *o, size_t n, const float *period, double constant_period, double tightness,
                      const double *logd, uint32_t logd_n, double *score, int32_t *back, uint32_t *beats);
/* The onset envelope prepared for the tempo and DP stages: local mean removed, clipped at 0,
 * scaled to unit standard deviation. */
void pmi_prepare_onsets(const float *raw, size_t n, float *out);

#endif
