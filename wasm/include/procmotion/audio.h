/*
 * procmotion/audio.h -- PCM audio in and out: the WAV (RIFF WAVE) reader and writer.
 *
 * USAGE
 *       pm_audio *a = NULL;
 *       pm_error err = {0};
 *       if (pm_wav_read(bytes, size, NULL, &a, &err) != PM_OK) fprintf(stderr, "%s\n", err.message);
 *       // a->samples: a->frame_count * a->channels floats, interleaved, a->sample_rate Hz
 *       pm_beats_detect(a->samples, a->frame_count, a->channels, a->sample_rate, NULL, &beats, &err);
 *       pm_audio_free(a);
 *
 *       size_t n = 0;                                   // the writer: ask for the size, then write
 *       pm_wav_write(samples, frames, channels, rate, PM_WAV_PCM_S16, NULL, 0, &n, &err);
 *       uint8_t *out = malloc(n);
 *       pm_wav_write(samples, frames, channels, rate, PM_WAV_PCM_S16, out, n, &n, &err);
 *
 * WHAT THE READER ACCEPTS
 *   RIFF (little-endian) WAVE files, and RF64 (the 64-bit variant ffmpeg writes for large files, with
 *   its ds64 chunk). Format tags 1 (PCM: 8-bit unsigned, 16-, 24- and 32-bit signed), 3 (IEEE float,
 *   32 and 64 bit) and 0xFFFE (WAVE_FORMAT_EXTENSIBLE with the PCM or IEEE-float sub-format GUID,
 *   valid bits <= container bits; the channel mask is reported). 1 to 64 channels, 1 Hz to 1 MHz.
 *   Chunks other than "fmt " and "data" (LIST, fact, cue, bext, ...) are skipped; chunks are padded
 *   to even sizes as RIFF requires, and a missing pad byte at the very end is tolerated.
 *   A data chunk whose size is 0 or 0xFFFFFFFF while the file goes on (what a writer to a pipe
 *   leaves, e.g. `ffmpeg -f wav -`), or a RIFF size of the same kind, means "to the end of the
 *   file". A trailing partial frame is dropped.
 *   Rejected with PM_ERR_BAD_FORMAT or PM_ERR_TRUNCATED and a message naming the problem: not RIFF
 *   or RIFX (big-endian; named as unsupported), not WAVE, no fmt chunk before the data, a fmt chunk
 *   too short for its tag, unsupported tags (A-law, mu-law, ADPCM, MP3, ... named by number),
 *   zero channels or sample rate, a block align that does not match channels x container bytes,
 *   a chunk that runs past the end of the file, no data chunk, float samples that are NaN or
 *   infinite (the sample index is named: no NaN reaches the output).
 *
 * SAMPLES
 *   Always float, interleaved, integer formats scaled to [-1, 1): 8-bit (u - 128) / 128, 16-bit
 *   s / 32768, 24-bit s / 8388608, 32-bit s / 2147483648. Float files keep their values (they may
 *   exceed +-1). With the writer's matching encoding, a file the reader accepted is written back
 *   with the same sample values for 8-, 16- and 24-bit PCM and 32-bit float (32-bit PCM and 64-bit
 *   float keep float precision, 24 bits); the header is normalised (canonical fmt, no other chunks).
 *
 * LIMITS
 *   pm_wav_options.max_samples (0 = 2^28 samples, 1 GiB of floats): more is PM_ERR_LIMIT. Every
 *   count is checked against the bytes left before anything is allocated.
 *
 * OWNERSHIP
 *   pm_wav_read allocates the result with options->allocator (zero = malloc); free it with
 *   pm_audio_free (NULL is fine). pm_wav_write writes into the caller's buffer and allocates nothing.
 */
#ifndef PROCMOTION_AUDIO_H
#define PROCMOTION_AUDIO_H

#include "procmotion/common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How samples are stored in a WAV file. */
typedef enum pm_wav_encoding {
    PM_WAV_DEFAULT = 0, /* the writer: PM_WAV_PCM_S16 */
    PM_WAV_PCM_U8,
    PM_WAV_PCM_S16,
    PM_WAV_PCM_S24,
    PM_WAV_PCM_S32,
    PM_WAV_FLOAT32,
    PM_WAV_FLOAT64,
    PM_WAV_ENCODING_COUNT,
    PM_WAV_ENCODING_FORCE_U32 = 0x7fffffff
} pm_wav_encoding;

/* "pcm_u8", "pcm_s16", "pcm_s24", "pcm_s32", "float32", "float64" ("default" for 0). */
const char *pm_wav_encoding_name(pm_wav_encoding e);

/* Reader options. Zero-initialised: malloc, at most 2^28 samples. */
typedef struct pm_wav_options {
    pm_allocator allocator;
    uint64_t max_samples; /* 0 = 2^28 (frames x channels) */
} pm_wav_options;

typedef struct pm_audio {
    uint32_t magic;
    pm_allocator allocator;
    float *samples;           /* frame_count * channels floats, interleaved */
    uint64_t frame_count;
    uint32_t channels;
    uint32_t sample_rate;     /* Hz */
    pm_wav_encoding encoding; /* how the file stored them */
    uint32_t valid_bits;      /* bits per sample that carry data (WAVE_FORMAT_EXTENSIBLE may say fewer) */
    uint16_t format_tag;      /* 1, 3 or 0xFFFE as in the file */
    bool rf64;                /* the file was RF64 */
    uint32_t channel_mask;    /* WAVE_FORMAT_EXTENSIBLE's speaker mask, else 0 */
} pm_audio;

pm_result pm_wav_read(const uint8_t *data, size_t size, const pm_wav_options *options, pm_audio **out, pm_error *err);
void pm_audio_free(pm_audio *audio);

/*
 * Write frames x channels interleaved samples as a canonical WAV (RIFF, a 16-byte fmt chunk with
 * tag 1 or 3, or 40-byte WAVE_FORMAT_EXTENSIBLE when channels > 2 or encoding is PCM_S24 / S32;
 * then the data chunk). Integer encodings clamp to the format's range and round to nearest.
 * *written receives the size needed (always); with out == NULL or cap too small nothing is written
 * and the call returns PM_OK / PM_ERR_LIMIT respectively. Samples must be finite
 * (PM_ERR_INVALID_ARGUMENT otherwise); files over 4 GiB are PM_ERR_LIMIT.
 */
pm_result pm_wav_write(const float *samples, uint64_t frames, uint32_t channels, uint32_t sample_rate,
                       pm_wav_encoding encoding, uint8_t *out, size_t cap, size_t *written, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
