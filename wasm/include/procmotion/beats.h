/*
 * procmotion/beats.h -- beat tracking: tempo, beats, downbeats and the onset envelope of music, and the
 * beat grid the generators take.
 *
 * USAGE (a whole song)
 *       pm_beats *b = NULL;
 *       pm_error err = {0};
 *       pm_beats_detect(samples, frames, channels, sample_rate, NULL, &b, &err);  // float PCM
 *       // b->bpm, b->beats[0 .. beat_count), b->bar_positions (1 = downbeat), b->tempo_curve,
 *       // b->confidence, b->onset_envelope (b->onset_rate values a second)
 *       pm_beats_free(b);
 *
 * USAGE (streaming: a file read in pieces, a microphone, playback)
 *       pm_beat_tracker *t = NULL;
 *       pm_beat_tracker_create(sample_rate, channels, NULL, &t, &err);
 *       while (more) {
 *           pm_beat_tracker_push(t, chunk, chunk_frames, &err);   // any chunk size, same result
 *           pm_beat_now now;                                        // real-time mode: causal estimate
 *           pm_beat_tracker_now(t, &now, &err);                     // tempo, last and next beat
 *       }
 *       pm_beat_tracker_finish(t, &b, &err);                        // the full offline analysis
 *       pm_beat_tracker_free(t);
 *   pm_beats_detect is create + one push + finish, so streaming in pieces gives bit-identical results.
 *   The tracker keeps only the features (a few hundred floats per second of audio), never the audio.
 *
 * INPUT
 *   Float PCM, interleaved, 1 to 32 channels (averaged to mono), 8000 to 96000 Hz (any rate, not only
 *   the common ones). Samples must be finite (PM_ERR_INVALID_ARGUMENT names the first bad one);
 *   their level does not matter (the features are log-compressed; samples beyond +-1000 are clipped),
 *   digital silence gives no beats.
 *
 * METHOD (docs/music.md has the references, parameters and measurements)
 *   1. Front end: the mono signal is decimated (windowed-sinc low-pass) to 8-16 kHz; a 46 ms Hann
 *      window every 10 ms gives a 36-band mel spectrum, log-compressed. The onset envelope is its
 *      spectral flux with SuperFlux's maximum filter (Boeck & Widmer 2013), summed over bands; a
 *      bass flux (bands under 200 Hz) and, from a second decimation to ~2.7 kHz with a 370 ms window,
 *      a 12-bin chroma every 93 ms are kept for the downbeats.
 *   2. Tempo: the autocorrelation of the onset envelope, summed with its 2x, 3x and 4x lags (a comb,
 *      Davies & Plumbley 2007) and weighted by a log-Gaussian tempo prior (Ellis 2007), over the
 *      whole song and in 8 s windows; a Viterbi path through the windows' candidates is the local
 *      tempo (tempo ramps and changes).
 *   3. Beats: dynamic programming (Ellis 2007): each beat's score is its onset strength plus the best
 *      previous beat's score minus tightness x log^2(interval / local period); backtracked from the
 *      best end. The metrical level (the tempo octave) is then checked against the onsets between
 *      the beats: strong half-beats double the tempo, weak alternate beats halve it.
 *   4. Downbeats: beat-synchronous chroma and mel changes (harmonic changes happen at bar lines,
 *      Davies & Plumbley 2006) and bass onsets, folded at 3 and 4 beats a bar: the meter and phase
 *      with the strongest contrast win (options.beats_per_bar fixes the meter).
 *   Deterministic: the same samples give the same result on every platform (no random numbers,
 *   no threads; float arithmetic in a fixed order).
 *
 * OWNERSHIP
 *   Results and trackers use options->allocator (zero = malloc) and are freed with their own
 *   pm_*_free (NULL is fine). Nothing is global: every call is reentrant.
 */
#ifndef PROCMOTION_BEATS_H
#define PROCMOTION_BEATS_H

#include "procmotion/common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_BEATS_MIN_SAMPLE_RATE 8000.0
#define PM_BEATS_MAX_SAMPLE_RATE 96000.0
#define PM_BEATS_MAX_CHANNELS 32u

/*
 * Options. Zero-initialised: malloc, tempo 55 to 215 BPM, prior centred on 120 BPM, meter detected.
 */
typedef struct pm_beats_options {
    pm_allocator allocator;
    double min_bpm;         /* 0 = 55; the lowest tempo reported, >= 30 */
    double max_bpm;         /* 0 = 215; the highest, <= 300 and >= 1.5 x min_bpm */
    double prior_bpm;       /* 0 = 120; the centre of the tempo prior (where octave doubt resolves to) */
    double tightness;       /* 0 = 100; how strongly beat intervals keep to the local period (Ellis' alpha) */
    uint32_t beats_per_bar; /* 0 = detect 3 or 4; 2..12 fixes the meter */
    uint32_t flags;         /* PM_BEATS_* below */
    double max_seconds;     /* 0 = 4 hours: a longer input fails with PM_ERR_LIMIT */
    /* Called while the audio is analysed (after each second pushed) and once at the end with
     * done == total; total is 0 while the total is unknown (streaming). May be NULL. */
    void (*progress)(void *user, double done_seconds, double total_seconds);
    void *progress_user;
} pm_beats_options;

/* The tempo stays the same throughout: skip the local tempo path (faster, steadier on steady music). */
#define PM_BEATS_STEADY 0x1u

/* A knot of the tempo curve: the tempo is piecewise linear between knots, constant outside. */
typedef struct pm_tempo_point {
    double time; /* seconds */
    double bpm;
} pm_tempo_point;

typedef struct pm_beats {
    uint32_t magic;
    pm_allocator allocator;
    double bpm;             /* the main tempo: 60 / median beat interval (0 when no beat was found) */
    double confidence;      /* 0..1: how clearly the beats stand out of the onsets (docs/music.md) */
    double duration;        /* seconds of audio analysed */
    double offset;          /* the first beat's time (seconds); 0 without beats */
    bool steady;            /* the tempo curve stays within 2 % of bpm */
    uint32_t beats_per_bar; /* 3 or 4 detected, or the one asked for */
    double *beats;          /* beat times in seconds, increasing */
    uint8_t *bar_positions; /* per beat: 1 = downbeat, 2 .. beats_per_bar */
    uint32_t beat_count;
    uint32_t first_downbeat; /* index of the first beat with bar position 1 (beat_count when none) */
    pm_tempo_point *tempo_curve; /* at least one knot when there are two beats or more */
    uint32_t tempo_point_count;
    float *onset_envelope; /* onset strength, >= 0, normalised to a maximum of 1; value i at i / onset_rate s */
    uint32_t onset_count;
    double onset_rate;      /* envelope values a second (100) */
} pm_beats;

/* Analyse a whole buffer: frames x channels interleaved floats at sample_rate Hz. */
pm_result pm_beats_detect(const float *samples, uint64_t frames, uint32_t channels, double sample_rate,
                          const pm_beats_options *options, pm_beats **out, pm_error *err);
void pm_beats_free(pm_beats *beats);

/* ---- streaming and real time ---------------------------------------------------------------- */

typedef struct pm_beat_tracker pm_beat_tracker;

pm_result pm_beat_tracker_create(double sample_rate, uint32_t channels, const pm_beats_options *options,
                                 pm_beat_tracker **out, pm_error *err);
/* Feed the next `frames` frames (interleaved as at creation). */
pm_result pm_beat_tracker_push(pm_beat_tracker *tracker, const float *samples, uint64_t frames, pm_error *err);

/* The real-time estimate after what was pushed so far: causal (it uses only the past). */
typedef struct pm_beat_now {
    double time;       /* seconds pushed so far */
    double bpm;        /* the current tempo estimate (0 until about 3 s of music) */
    double last_beat;  /* time of the latest beat detected (seconds; < 0 when none yet) */
    double next_beat;  /* the predicted next beat (last_beat + 60 / bpm) */
    double phase;      /* 0..1: how far time is from last_beat to next_beat */
    double confidence; /* 0..1, as pm_beats.confidence over the last 8 s */
} pm_beat_now;
pm_result pm_beat_tracker_now(pm_beat_tracker *tracker, pm_beat_now *out, pm_error *err);

/* The offline analysis of everything pushed so far (the tracker is unchanged: more can follow). */
pm_result pm_beat_tracker_finish(pm_beat_tracker *tracker, pm_beats **out, pm_error *err);
void pm_beat_tracker_free(pm_beat_tracker *tracker);

/* ---- the beat grid ---------------------------------------------------------------------------
 *
 * What the generators take for their timing: a tempo and where beat 0 is, and,
 * from a detection, the beats themselves. Three ways to make one, all the same type:
 *   pm_beat_grid_from_bpm(128, 0.25)        // a BPM and a manual offset (seconds of beat 0)
 *   pm_beat_grid_from_taps(times, n, &g)    // tap tempo: a least-squares fit of tap times
 *   pm_beat_grid_from_beats(beats)          // a detection (borrows its arrays)
 * Beat b (fractional, any sign) is at pm_beat_grid_time(g, b): with beats listed, linear between the
 * listed beats, before the first at the first interval's tempo, after the last at the tempo of the
 * last interval (the song's end continues at its last tempo); without, offset + b * 60 / bpm.
 * pm_beat_grid_beat is the inverse.
 */
typedef struct pm_beat_grid {
    double bpm;            /* the tempo (beats a minute) where no beats are listed: (0, 1000] */
    double offset;         /* seconds of beat 0 (= beats[0] when beats are listed) */
    const double *beats;   /* optional beat times, increasing (borrowed) */
    uint32_t beat_count;   /* 0 = a plain grid of bpm and offset */
    uint32_t beats_per_bar; /* 0 = 4 */
    uint32_t first_downbeat; /* index of a beat that starts a bar (bars repeat every beats_per_bar) */
} pm_beat_grid;

pm_beat_grid pm_beat_grid_from_bpm(double bpm, double offset);
pm_beat_grid pm_beat_grid_from_beats(const pm_beats *beats);
/* Tap tempo: n >= 2 tap times (seconds, increasing; at most 4096). Each tap is assigned the beat
 * nearest its time at the median tap interval (so a missed tap is a skipped beat); the period is the
 * median interval per beat and offset (the time of the first tap's beat) the median of
 * tap - beat x period, so one sloppy tap moves neither. */
pm_result pm_beat_grid_from_taps(const double *tap_times, uint32_t n, pm_beat_grid *out, pm_error *err);
/* PM_OK when the grid is usable: bpm finite in (0, 1000], offset finite, beats finite and increasing. */
pm_result pm_beat_grid_check(const pm_beat_grid *grid, pm_error *err);
double pm_beat_grid_time(const pm_beat_grid *grid, double beat);
double pm_beat_grid_beat(const pm_beat_grid *grid, double seconds);
/* The tempo (BPM) at a time: the local beat interval's. */
double pm_beat_grid_bpm_at(const pm_beat_grid *grid, double seconds);

/* Whether a grid is given: zero-initialised (bpm 0 and no beats) means "no grid" wherever a generator
 * takes one (catwalk, groove, tracing: they then use their plain BPM). */
bool pm_beat_grid_is_set(const pm_beat_grid *grid);

/* ---- how well motion follows the grid --------------------------------------------------------
 *
 * Generators that take a grid (catwalk heel strikes, groove bounce valleys, tracing keyframes) measure
 * each event on what they wrote and say how far it is from its beat, in frames (30 fps; + = late).
 * Zero-initialise, then pm_beat_sync_add each event's signed error.
 */
typedef struct pm_beat_sync {
    uint32_t count;    /* events measured */
    double max_error;  /* frames: the largest |event - beat| */
    double mean_error; /* frames: the mean |event - beat| */
    uint32_t worst;    /* the index (0 .. count - 1) of the event with max_error */
} pm_beat_sync;

void pm_beat_sync_add(pm_beat_sync *sync, double error_frames);

#ifdef __cplusplus
}
#endif

#endif
