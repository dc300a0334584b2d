/* audio: the WAV reader and writer (formats, WAVE_FORMAT_EXTENSIBLE, RF64, streamed sizes, hostile files). */
#include "pm_test.h"

#include "procmotion/audio.h"

#include <stdint.h>

static const float ramp[8] = {0.0f, 0.5f, -0.5f, 0.25f, -1.0f, 0.75f, 0.125f, -0.875f};

static uint8_t *write(const float *x, uint64_t frames, uint32_t ch, pm_wav_encoding e, size_t *n) {
    pm_error err = {0};
    PM_CHECK(pm_wav_write(x, frames, ch, 44100, e, NULL, 0, n, &err) == PM_OK);
    uint8_t *buf = malloc(*n);
    PM_CHECK(pm_wav_write(x, frames, ch, 44100, e, buf, *n, n, &err) == PM_OK);
    return buf;
}

PM_TEST(every_encoding_round_trips_the_sample_values) {
    for (int e = PM_WAV_PCM_U8; e < PM_WAV_ENCODING_COUNT; e++) {
        size_t n = 0;
        uint8_t *buf = write(ramp, 4, 2, (pm_wav_encoding)e, &n);
        pm_audio *a = NULL;
        pm_error err = {0};
        PM_CHECK_MSG(pm_wav_read(buf, n, NULL, &a, &err) == PM_OK, "%s: %s", pm_wav_encoding_name((pm_wav_encoding)e), err.message);
        if (a) {
            PM_CHECK_EQ_INT(a->channels, 2);
            PM_CHECK_EQ_INT(a->frame_count, 4);
            PM_CHECK_EQ_INT(a->sample_rate, 44100);
            PM_CHECK_EQ_INT(a->encoding, e);
            PM_CHECK_EQ_INT(a->format_tag, e == PM_WAV_PCM_S24 || e == PM_WAV_PCM_S32 ? 0xFFFE : e >= PM_WAV_FLOAT32 ? 3 : 1);
            double tol = e == PM_WAV_PCM_U8 ? 1.0 / 128 : e == PM_WAV_PCM_S16 ? 1.0 / 32768 : 1e-7;
            for (int i = 0; i < 8; i++) {
                double want = ramp[i] >= 1.0f && e <= PM_WAV_PCM_S32 ? 1.0 - tol : ramp[i];
                PM_CHECK_NEAR(a->samples[i], want, tol);
            }
            /* written back with the same encoding: the same bytes */
            size_t n2 = 0;
            uint8_t *again = write(a->samples, 4, 2, (pm_wav_encoding)e, &n2);
            PM_CHECK(n2 == n && memcmp(again, buf, n) == 0);
            free(again);
        }
        pm_audio_free(a);
        free(buf);
    }
}

PM_TEST(streamed_sizes_mean_to_the_end_and_odd_chunks_are_padded) {
    size_t n = 0;
    uint8_t *buf = write(ramp, 8, 1, PM_WAV_PCM_S16, &n);
    /* a LIST chunk of 3 bytes (+1 pad) before data, and data size 0xFFFFFFFF as a pipe writer leaves it */
    uint8_t *big = malloc(n + 12);
    memcpy(big, buf, 36);
    memcpy(big + 36, "LIST\x03\x00\x00\x00" "abc\x00", 12);
    memcpy(big + 48, buf + 36, n - 36);
    memset(big + 52, 0xFF, 4);
    pm_audio *a = NULL;
    pm_error err = {0};
    PM_CHECK_MSG(pm_wav_read(big, n + 12, NULL, &a, &err) == PM_OK, "%s", err.message);
    if (a) PM_CHECK_EQ_INT(a->frame_count, 8);
    pm_audio_free(a);
    free(big);
    free(buf);
}

static void expect_error(const uint8_t *data, size_t n, pm_result want, const char *needle) {
    pm_audio *a = NULL;
    pm_error err = {0};
    pm_result r = pm_wav_read(data, n, NULL, &a, &err);
    PM_CHECK_MSG(r == want, "got %s (%s), wanted %s", pm_result_name(r), err.message, pm_result_name(want));
    PM_CHECK_MSG(strstr(err.message, needle) != NULL, "message '%s' does not say '%s'", err.message, needle);
    PM_CHECK(a == NULL);
}

PM_TEST(hostile_files_get_clear_errors) {
    size_t n = 0;
    uint8_t *buf = write(ramp, 8, 1, PM_WAV_PCM_S16, &n);
    uint8_t *c = malloc(n);
    expect_error(buf, 10, PM_ERR_TRUNCATED, "too short");
    memcpy(c, buf, n), memcpy(c, "RIFX", 4);
    expect_error(c, n, PM_ERR_BAD_FORMAT, "big-endian");
    memcpy(c, buf, n), memcpy(c + 8, "AVI ", 4);
    expect_error(c, n, PM_ERR_BAD_FORMAT, "not WAVE");
    memcpy(c, buf, n), c[20] = 0x55; /* MP3 */
    expect_error(c, n, PM_ERR_BAD_FORMAT, "MP3");
    memcpy(c, buf, n), c[22] = 0;    /* zero channels */
    expect_error(c, n, PM_ERR_BAD_FORMAT, "0 channels");
    memcpy(c, buf, n), c[32] = 7;    /* block align */
    expect_error(c, n, PM_ERR_BAD_FORMAT, "block align");
    memcpy(c, buf, n), c[34] = 12;   /* 12-bit PCM */
    expect_error(c, n, PM_ERR_BAD_FORMAT, "12-bit");
    memcpy(c, buf, n), c[40] = 0x40, c[41] = 0x42; /* data announces more than the file has */
    expect_error(c, n, PM_ERR_TRUNCATED, "truncated");
    memcpy(c, buf, n), memcpy(c + 12, "junk", 4); /* no fmt chunk before data */
    expect_error(c, n, PM_ERR_BAD_FORMAT, "before any fmt");
    expect_error(buf, 40, PM_ERR_TRUNCATED, "cut off");
    expect_error(buf, 36, PM_ERR_BAD_FORMAT, "no data chunk");
    free(c);
    free(buf);
    /* NaN in a float file */
    float bad[2] = {0.0f, NAN};
    uint8_t *f = write(ramp, 2, 1, PM_WAV_FLOAT32, &n);
    memcpy(f + 48, &bad[1], 4);
    expect_error(f, n, PM_ERR_BAD_FORMAT, "NaN");
    free(f);
    /* a sample limit */
    f = write(ramp, 8, 1, PM_WAV_PCM_S16, &n);
    pm_wav_options o = {.max_samples = 4};
    pm_audio *a = NULL;
    pm_error err = {0};
    PM_CHECK(pm_wav_read(f, n, &o, &a, &err) == PM_ERR_LIMIT);
    free(f);
}

PM_TEST(every_truncation_and_byte_patch_is_handled) {
    size_t n = 0;
    uint8_t *buf = write(ramp, 4, 2, PM_WAV_PCM_S24, &n);
    uint8_t *c = malloc(n);
    for (size_t len = 0; len <= n; len++) {
        pm_audio *a = NULL;
        pm_error err = {0};
        pm_result r = pm_wav_read(buf, len, NULL, &a, &err);
        PM_CHECK(r == PM_OK ? a != NULL : a == NULL && err.message[0]);
        pm_audio_free(a);
    }
    for (size_t i = 0; i < n; i++)
        for (int v = 0; v < 256; v += 51) {
            memcpy(c, buf, n);
            c[i] = (uint8_t)v;
            pm_audio *a = NULL;
            pm_error err = {0};
            pm_result r = pm_wav_read(c, n, NULL, &a, &err);
            PM_CHECK(r == PM_OK ? a != NULL : a == NULL && err.message[0]);
            pm_audio_free(a);
        }
    free(c);
    free(buf);
}

PM_TEST(the_writer_refuses_what_it_cannot_write) {
    pm_error err = {0};
    size_t n = 0;
    float nan[1] = {NAN};
    uint8_t out[64];
    PM_CHECK(pm_wav_write(nan, 1, 1, 8000, PM_WAV_PCM_S16, out, sizeof out, &n, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_wav_write(ramp, 1, 0, 8000, PM_WAV_PCM_S16, NULL, 0, &n, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_wav_write(ramp, 1, 1, 0, PM_WAV_PCM_S16, NULL, 0, &n, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_wav_write(ramp, 8, 1, 8000, PM_WAV_PCM_S16, out, 10, &n, &err) == PM_ERR_LIMIT);
}

int main(void) { return pm_test_run_all(); }
