/* beats: the beat tracker on synthetic clicks and kicks (tempo, beats, meter), streaming equals offline,
 * bad input, the real-time estimate, the beat grid and tap tempo. The accuracy on musical test tracks is
 * measured by tests/node/beats.test.mjs and the benchmark (docs/music.md). */
#include "pm_test.h"

#include "counting_alloc.h"
#include "procmotion/beats.h"

#include <stdint.h>

#define PI 3.14159265358979323846

/* A drum loop: a kick on every beat (a low-pitched one on downbeats), a noise hat between the beats, a
 * tone whose pitch changes every bar (the harmonic change). start = first beat (s). */
static float *drums(double rate, uint32_t channels, double seconds, double bpm, uint32_t meter, double start, uint64_t *frames) {
    uint64_t n = (uint64_t)(rate * seconds);
    float *x = calloc(n * channels, sizeof(float));
    uint32_t seed = 12345;
    double h1 = 0, h2 = 0;
    double period = 60.0 / bpm;
    for (int b = 0; start + b * period < seconds; b++) {
        double t0 = start + b * period;
        int down = b % (int)meter == 0;
        double f0 = down ? 55.0 : 80.0, tone = 220.0 * pow(2.0, ((b / (int)meter) % 4) * 3 / 12.0);
        for (uint64_t k = (uint64_t)(t0 * rate); k < n && k < (uint64_t)((t0 + period) * rate); k++) {
            double t = k / rate - t0;
            double v = (t < 0.3 ? 0.7 * sin(2 * PI * (f0 + 60 * exp(-t / 0.03)) * t) * exp(-t / 0.12) : 0) +
                       0.08 * sin(2 * PI * tone * t) * fmin(1, t / 0.01);
            double th = t - period / 2;
            if (th >= 0 && th < 0.05) { /* a hat: noise, differenced twice (high-passed) */
                seed = seed * 1664525u + 1013904223u;
                double w = (seed >> 8) / 8388608.0 - 1.0, hp = w - 2 * h1 + h2;
                h2 = h1, h1 = w;
                v += 0.05 * hp * exp(-th / 0.01);
            }
            for (uint32_t c = 0; c < channels; c++) x[k * channels + c] = (float)v;
        }
    }
    *frames = n;
    return x;
}

static pm_beats *detect(const float *x, uint64_t n, uint32_t ch, double rate, const pm_beats_options *o) {
    pm_beats *b = NULL;
    pm_error err = {0};
    pm_result r = pm_beats_detect(x, n, ch, rate, o, &b, &err);
    PM_CHECK_MSG(r == PM_OK, "pm_beats_detect: %s", err.message);
    return b;
}

/* Beats within 30 ms of the truth after the first second, and none missing or extra. */
static void check_beats(const pm_beats *b, double bpm, double start, double seconds) {
    double period = 60.0 / bpm;
    uint32_t hits = 0, truth = 0;
    for (double t = start; t < seconds - 0.1; t += period)
        if (t >= 1.0) {
            truth++;
            for (uint32_t i = 0; i < b->beat_count; i++)
                if (fabs(b->beats[i] - t) < 0.03) {
                    hits++;
                    break;
                }
        }
    uint32_t est = 0;
    for (uint32_t i = 0; i < b->beat_count; i++) est += b->beats[i] >= 1.0 && b->beats[i] < seconds - 0.1;
    PM_CHECK_MSG(hits == truth && est <= truth + 1, "%u of %u beats within 30 ms, %u detected", hits, truth, est);
}

PM_TEST(tempo_and_beats_of_a_drum_loop_at_several_rates) {
    static const double rates[] = {8000, 22050, 44100, 48000, 96000};
    static const double bpms[] = {120, 90, 128, 174, 100};
    for (int r = 0; r < 5; r++) {
        double bpm = bpms[r];
        uint64_t n;
        float *x = drums(rates[r], 1, 8, bpm, 4, 0.37, &n);
        pm_beats *b = detect(x, n, 1, rates[r], NULL);
        if (b) {
            PM_CHECK_MSG(fabs(b->bpm / bpm - 1) < 0.01, "%g Hz: %g BPM, wanted %g", rates[r], b->bpm, bpm);
            check_beats(b, bpm, 0.37, 8);
            PM_CHECK(b->steady);
            PM_CHECK_EQ_INT(b->beats_per_bar, 4);
            PM_CHECK(b->confidence > 0.5 && b->confidence <= 1);
            PM_CHECK_EQ_INT(b->onset_count, (uint32_t)(8 * 100) - 2);
            PM_CHECK_NEAR(b->onset_rate, 100, 0);
            for (uint32_t i = 0; i < b->onset_count; i++) PM_CHECK(b->onset_envelope[i] >= 0 && b->onset_envelope[i] <= 1);
            PM_CHECK_EQ_INT(b->tempo_point_count, 1);
            PM_CHECK_NEAR(b->offset, b->beats[0], 0);
        }
        pm_beats_free(b);
        free(x);
    }
}

PM_TEST(downbeats_follow_the_bars_in_three_and_four) {
    for (uint32_t meter = 3; meter <= 4; meter++) {
        uint64_t n;
        float *x = drums(22050, 1, 12, 110, meter, 0.5, &n);
        pm_beats *b = detect(x, n, 1, 22050, NULL);
        if (b) {
            PM_CHECK_EQ_INT(b->beats_per_bar, meter);
            uint32_t wrong = 0;
            for (uint32_t i = 0; i < b->beat_count; i++) {
                long k = lround((b->beats[i] - 0.5) * 110 / 60);
                wrong += (k % meter == 0) != (b->bar_positions[i] == 1);
            }
            PM_CHECK_MSG(wrong == 0, "meter %u: %u beats with the wrong bar position", meter, wrong);
        }
        pm_beats_free(b);
        free(x);
    }
}

PM_TEST(pushing_in_pieces_gives_the_same_result_bit_for_bit) {
    uint64_t n;
    float *x = drums(44100, 2, 6, 128, 4, 0.2, &n);
    pm_beats *whole = detect(x, n, 2, 44100, NULL);
    static const uint64_t sizes[] = {1, 441, 4097, 65537};
    for (int s = 0; s < 4 && whole; s++) {
        pm_beat_tracker *t = NULL;
        pm_error err = {0};
        PM_CHECK(pm_beat_tracker_create(44100, 2, NULL, &t, &err) == PM_OK);
        uint64_t step = sizes[s] == 1 ? 3 : sizes[s];
        for (uint64_t i = 0; i < n; i += step) {
            uint64_t m = n - i < step ? n - i : step;
            if (sizes[s] == 1 && i > 10000) m = n - i < 44100 ? n - i : 44100; /* a few tiny pushes, then big */
            PM_CHECK(pm_beat_tracker_push(t, x + i * 2, m, &err) == PM_OK);
            if (sizes[s] == 1 && i > 10000) step = m;
        }
        pm_beats *b = NULL;
        PM_CHECK(pm_beat_tracker_finish(t, &b, &err) == PM_OK);
        if (b) {
            PM_CHECK_EQ_INT(b->beat_count, whole->beat_count);
            PM_CHECK_EQ_INT(b->onset_count, whole->onset_count);
            PM_CHECK(b->beat_count == whole->beat_count && memcmp(b->beats, whole->beats, 8 * b->beat_count) == 0);
            PM_CHECK(b->onset_count == whole->onset_count &&
                     memcmp(b->onset_envelope, whole->onset_envelope, 4 * b->onset_count) == 0);
            PM_CHECK(b->bpm == whole->bpm);
        }
        pm_beats_free(b);
        pm_beat_tracker_free(t);
    }
    /* the same music as mono */
    float *mono = malloc(n * sizeof(float));
    for (uint64_t i = 0; i < n; i++) mono[i] = x[2 * i];
    pm_beats *m = detect(mono, n, 1, 44100, NULL);
    if (m && whole) PM_CHECK(m->beat_count == whole->beat_count && memcmp(m->beats, whole->beats, 8 * m->beat_count) == 0);
    pm_beats_free(m);
    free(mono);
    pm_beats_free(whole);
    free(x);
}

PM_TEST(silence_and_short_input_give_no_beats) {
    float *zero = calloc(44100 * 5, sizeof(float));
    pm_beats *b = detect(zero, 44100 * 5, 1, 44100, NULL);
    if (b) {
        PM_CHECK_EQ_INT(b->beat_count, 0);
        PM_CHECK(b->bpm == 0 && b->confidence == 0);
        PM_CHECK_NEAR(b->duration, 5, 1e-9);
    }
    pm_beats_free(b);
    b = detect(zero, 44100, 1, 44100, NULL); /* 1 s */
    if (b) PM_CHECK_EQ_INT(b->beat_count, 0);
    pm_beats_free(b);
    b = detect(NULL, 0, 1, 44100, NULL);
    if (b) PM_CHECK_EQ_INT(b->onset_count, 0);
    pm_beats_free(b);
    free(zero);
}

static void expect_fail(pm_result r, const pm_error *err, const char *needle) {
    PM_CHECK_MSG(r == PM_ERR_INVALID_ARGUMENT || r == PM_ERR_LIMIT, "result %s", pm_result_name(r));
    PM_CHECK_MSG(strstr(err->message, needle) != NULL, "message '%s' does not say '%s'", err->message, needle);
}

PM_TEST(bad_input_is_named) {
    float x[4] = {0, 0, NAN, 0};
    pm_beats *b = NULL;
    pm_error err = {0};
    expect_fail(pm_beats_detect(x, 4, 1, 7999, NULL, &b, &err), &err, "8000..96000");
    expect_fail(pm_beats_detect(x, 4, 1, NAN, NULL, &b, &err), &err, "sample rate");
    expect_fail(pm_beats_detect(x, 2, 0, 44100, NULL, &b, &err), &err, "0 channels");
    expect_fail(pm_beats_detect(x, 1, 33, 44100, NULL, &b, &err), &err, "33 channels");
    expect_fail(pm_beats_detect(x, 4, 1, 44100, NULL, &b, &err), &err, "sample 2");
    pm_beats_options o = {.min_bpm = 10};
    expect_fail(pm_beats_detect(x, 1, 1, 44100, &o, &b, &err), &err, "tempo range");
    o = (pm_beats_options){.min_bpm = 100, .max_bpm = 120};
    expect_fail(pm_beats_detect(x, 1, 1, 44100, &o, &b, &err), &err, "tempo range");
    o = (pm_beats_options){.beats_per_bar = 1};
    expect_fail(pm_beats_detect(x, 1, 1, 44100, &o, &b, &err), &err, "beats_per_bar");
    o = (pm_beats_options){.flags = 8};
    expect_fail(pm_beats_detect(x, 1, 1, 44100, &o, &b, &err), &err, "flags");
    o = (pm_beats_options){.max_seconds = 0.5};
    float *y = calloc(44100, sizeof(float));
    expect_fail(pm_beats_detect(y, 44100, 1, 44100, &o, &b, &err), &err, "longer than");
    free(y);
    PM_CHECK(b == NULL);
    PM_CHECK(pm_beat_tracker_push(NULL, x, 1, &err) == PM_ERR_INVALID_ARGUMENT);
    pm_beat_tracker_free(NULL);
    pm_beats_free(NULL);
}

PM_TEST(a_fixed_meter_and_a_steady_flag_are_honoured) {
    uint64_t n;
    float *x = drums(16000, 1, 12, 100, 4, 0.3, &n);
    pm_beats_options o = {.beats_per_bar = 3, .flags = PM_BEATS_STEADY};
    pm_beats *b = detect(x, n, 1, 16000, &o);
    if (b) {
        PM_CHECK_EQ_INT(b->beats_per_bar, 3);
        for (uint32_t i = 0; i < b->beat_count; i++) PM_CHECK(b->bar_positions[i] >= 1 && b->bar_positions[i] <= 3);
        PM_CHECK(b->first_downbeat < 3);
        PM_CHECK_EQ_INT(b->bar_positions[b->first_downbeat], 1);
    }
    pm_beats_free(b);
    free(x);
}

PM_TEST(the_real_time_estimate_locks_on_within_a_few_seconds) {
    uint64_t n;
    float *x = drums(44100, 1, 10, 120, 4, 0.25, &n);
    pm_beat_tracker *t = NULL;
    pm_error err = {0};
    PM_CHECK(pm_beat_tracker_create(44100, 1, NULL, &t, &err) == PM_OK);
    pm_beat_now now;
    PM_CHECK(pm_beat_tracker_push(t, x, 44100, &err) == PM_OK);
    PM_CHECK(pm_beat_tracker_now(t, &now, &err) == PM_OK);
    PM_CHECK(now.bpm == 0 && now.last_beat < 0); /* 1 s: too early */
    for (uint64_t i = 44100; i < n; i += 4410) PM_CHECK(pm_beat_tracker_push(t, x + i, n - i < 4410 ? n - i : 4410, &err) == PM_OK);
    PM_CHECK(pm_beat_tracker_now(t, &now, &err) == PM_OK);
    PM_CHECK_NEAR(now.time, 10, 1e-6);
    PM_CHECK_MSG(fabs(now.bpm - 120) < 2.5, "bpm %g", now.bpm);
    double k = (now.next_beat - 0.25) / 0.5;
    PM_CHECK_MSG(fabs(k - floor(k + 0.5)) * 0.5 < 0.03, "next beat %g is off the grid", now.next_beat);
    PM_CHECK(now.next_beat >= now.time && now.last_beat <= now.time && now.phase >= 0 && now.phase <= 1);
    PM_CHECK(now.confidence > 0.5);
    pm_beat_tracker_free(t);
    free(x);
}

PM_TEST(allocation_failures_are_reported_and_leak_nothing) {
    uint64_t n;
    float *x = drums(11025, 1, 4, 120, 4, 0.25, &n);
    for (long fail = 1; fail < 400; fail++) {
        counter c = {.fail_at = fail};
        counter_begin(&c);
        pm_beats_options o = {.allocator = counter_allocator(&c)};
        pm_beats *b = NULL;
        pm_error err = {0};
        pm_result r = pm_beats_detect(x, n, 1, 11025, &o, &b, &err);
        PM_CHECK(r == PM_OK ? b != NULL : r == PM_ERR_OUT_OF_MEMORY && b == NULL && err.message[0]);
        pm_beats_free(b);
        counter_end(&c);
        PM_CHECK_MSG(c.live == 0, "allocation %ld failed: %ld blocks leaked", fail, c.live);
        if (!c.hit) break;
    }
    free(x);
}

PM_TEST(the_beat_grid_maps_beats_and_times_both_ways) {
    pm_beat_grid g = pm_beat_grid_from_bpm(120, 0.25);
    pm_error err = {0};
    PM_CHECK(pm_beat_grid_check(&g, &err) == PM_OK);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, 4), 2.25, 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, -1), -0.25, 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_beat(&g, 2.25), 4, 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_bpm_at(&g, 100), 120, 0);
    /* a detection's beats, with a tempo change: listed beats exactly, the last interval beyond */
    double beats[6] = {1.0, 1.5, 2.0, 2.4, 2.8, 3.2};
    g.beats = beats, g.beat_count = 6, g.offset = 1.0;
    PM_CHECK(pm_beat_grid_check(&g, &err) == PM_OK);
    for (int i = 0; i < 6; i++) PM_CHECK_NEAR(pm_beat_grid_time(&g, i), beats[i], 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, 2.5), 2.2, 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, 7), 4.0, 1e-12);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, -2), 0.0, 1e-12);
    for (double t = -1; t < 5; t += 0.137) PM_CHECK_NEAR(pm_beat_grid_time(&g, pm_beat_grid_beat(&g, t)), t, 1e-9);
    PM_CHECK_NEAR(pm_beat_grid_bpm_at(&g, 1.2), 120, 1e-9);
    PM_CHECK_NEAR(pm_beat_grid_bpm_at(&g, 9), 150, 1e-9);
    double bad[3] = {1, 1, 2};
    g.beats = bad, g.beat_count = 3;
    PM_CHECK(pm_beat_grid_check(&g, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "beat 1"));
    g = pm_beat_grid_from_bpm(NAN, 0);
    PM_CHECK(pm_beat_grid_check(&g, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "bpm"));
}

PM_TEST(tap_tempo_takes_the_median_and_skips_a_missed_tap) {
    pm_beat_grid g;
    pm_error err = {0};
    double taps[5] = {10.0, 10.5, 11.0, 11.5, 12.01}; /* one sloppy tap */
    PM_CHECK(pm_beat_grid_from_taps(taps, 5, &g, &err) == PM_OK);
    PM_CHECK_NEAR(g.bpm, 120, 1e-9);
    PM_CHECK_NEAR(g.offset, 10.0, 1e-9);
    double missed[5] = {0.3, 0.8, 1.8, 2.3, 2.8}; /* the tap at 1.3 is missing */
    PM_CHECK(pm_beat_grid_from_taps(missed, 5, &g, &err) == PM_OK);
    PM_CHECK_NEAR(g.bpm, 120, 1e-9);
    PM_CHECK_NEAR(pm_beat_grid_time(&g, 3), 1.8, 1e-9);
    PM_CHECK(pm_beat_grid_from_taps(taps, 1, &g, &err) == PM_ERR_INVALID_ARGUMENT);
    double back[3] = {1, 0.5, 2};
    PM_CHECK(pm_beat_grid_from_taps(back, 3, &g, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "tap 1"));
}

int main(void) { return pm_test_run_all(); }
