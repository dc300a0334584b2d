/* WAV (RIFF WAVE, RF64) reader and writer (procmotion/audio.h). */
#include "common/internal.h"
#include "procmotion/audio.h"

#define PMI_AUDIO_MAGIC 0x4f445541u /* "AUDO" */
#define PMI_WAV_DEFAULT_MAX_SAMPLES ((uint64_t)1 << 28)
#define PMI_WAV_UNKNOWN_SIZE 0xFFFFFFFFu

static const char *const encoding_names[PM_WAV_ENCODING_COUNT] = {"default", "pcm_u8",  "pcm_s16", "pcm_s24",
                                                                  "pcm_s32", "float32", "float64"};

const char *pm_wav_encoding_name(pm_wav_encoding e) {
    return (unsigned)e < PM_WAV_ENCODING_COUNT ? encoding_names[e] : "unknown";
}

/* The 14 bytes after the sub-format code in WAVE_FORMAT_EXTENSIBLE's GUID (KSDATAFORMAT_SUBTYPE_*). */
static const uint8_t guid_tail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};

static uint64_t le64(const uint8_t *p) { return (uint64_t)pmi_le32(p) | ((uint64_t)pmi_le32(p + 4) << 32); }

static const char *tag_name(uint32_t tag) {
    switch (tag) {
    case 2: return " (MS ADPCM)";
    case 6: return " (A-law)";
    case 7: return " (mu-law)";
    case 0x11: return " (IMA ADPCM)";
    case 0x31: return " (GSM 6.10)";
    case 0x50: return " (MPEG)";
    case 0x55: return " (MP3)";
    case 0xFF: return " (AAC)";
    default: return "";
    }
}

typedef struct wav_fmt {
    uint32_t tag, channels, rate, block_align, bits, valid_bits, mask;
    pm_wav_encoding encoding;
} wav_fmt;

static pm_result parse_fmt(const uint8_t *p, uint64_t n, wav_fmt *f, pm_error *err) {
    if (n < 16) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: the fmt chunk is %llu bytes, a format needs 16", (unsigned long long)n);
    f->tag = pmi_le16(p);
    f->channels = pmi_le16(p + 2);
    f->rate = pmi_le32(p + 4);
    f->block_align = pmi_le16(p + 12);
    f->bits = pmi_le16(p + 14);
    f->valid_bits = f->bits;
    uint32_t code = f->tag;
    if (f->tag == 0xFFFE) {
        if (n < 40)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: WAVE_FORMAT_EXTENSIBLE needs a 40-byte fmt chunk, this one is %llu",
                            (unsigned long long)n);
        if (pmi_le16(p + 16) < 22)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: WAVE_FORMAT_EXTENSIBLE with an extension of %u bytes (needs 22)",
                            pmi_le16(p + 16));
        f->valid_bits = pmi_le16(p + 18);
        f->mask = pmi_le32(p + 20);
        code = pmi_le16(p + 24);
        if (memcmp(p + 26, guid_tail, sizeof guid_tail) != 0)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: WAVE_FORMAT_EXTENSIBLE with a sub-format GUID that is not PCM or IEEE float");
        if (f->valid_bits == 0) f->valid_bits = f->bits;
        if (f->valid_bits > f->bits)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: %u valid bits in a %u-bit container", f->valid_bits, f->bits);
    }
    if (code == 1) {
        f->encoding = f->bits == 8 ? PM_WAV_PCM_U8 : f->bits == 16 ? PM_WAV_PCM_S16 : f->bits == 24 ? PM_WAV_PCM_S24
                    : f->bits == 32 ? PM_WAV_PCM_S32 : PM_WAV_DEFAULT;
        if (!f->encoding) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: %u-bit PCM is not supported (8, 16, 24 or 32)", f->bits);
    } else if (code == 3) {
        f->encoding = f->bits == 32 ? PM_WAV_FLOAT32 : f->bits == 64 ? PM_WAV_FLOAT64 : PM_WAV_DEFAULT;
        if (!f->encoding) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: %u-bit float is not supported (32 or 64)", f->bits);
        f->valid_bits = f->bits;
    } else {
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: format tag %u%s is not supported (PCM, IEEE float or WAVE_FORMAT_EXTENSIBLE)",
                        code, tag_name(code));
    }
    if (f->channels == 0 || f->channels > 64)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: %u channels (1 to 64 are supported)", f->channels);
    if (f->rate == 0 || f->rate > 1000000)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: sample rate %u Hz is out of range (1 to 1000000)", f->rate);
    if (f->block_align != f->channels * (f->bits / 8))
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: block align %u does not match %u channels of %u bits (%u)", f->block_align,
                        f->channels, f->bits, f->channels * (f->bits / 8));
    return PM_OK;
}

static float sample_at(const uint8_t *p, pm_wav_encoding e) {
    switch (e) {
    case PM_WAV_PCM_U8: return ((float)p[0] - 128.0f) * (1.0f / 128.0f);
    case PM_WAV_PCM_S16: return (float)(int16_t)pmi_le16(p) * (1.0f / 32768.0f);
    case PM_WAV_PCM_S24: {
        int32_t v = (int32_t)((uint32_t)p[0] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 24) >> 8;
        return (float)v * (1.0f / 8388608.0f);
    }
    case PM_WAV_PCM_S32: return (float)((double)(int32_t)pmi_le32(p) * (1.0 / 2147483648.0));
    case PM_WAV_FLOAT32: return pmi_lef32(p);
    case PM_WAV_FLOAT64: {
        uint64_t u = le64(p);
        double d;
        memcpy(&d, &u, 8);
        return (float)d;
    }
    default: return 0.0f;
    }
}

pm_result pm_wav_read(const uint8_t *data, size_t size, const pm_wav_options *options, pm_audio **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: no output pointer");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: no data");
    pm_wav_options o = options ? *options : (pm_wav_options){0};
    uint64_t max_samples = o.max_samples ? o.max_samples : PMI_WAV_DEFAULT_MAX_SAMPLES;
    if (size < 12) return pmi_fail(err, PM_ERR_TRUNCATED, "wav: %zu bytes is too short for a RIFF header (12)", size);
    bool rf64 = memcmp(data, "RF64", 4) == 0;
    if (memcmp(data, "RIFX", 4) == 0)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: big-endian RIFX files are not supported");
    if (!rf64 && memcmp(data, "RIFF", 4) != 0) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: not a RIFF file (no 'RIFF' at the start)");
    if (memcmp(data + 8, "WAVE", 4) != 0) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: a RIFF file but not WAVE");
    uint64_t ds64_data = 0;
    bool have_ds64 = false, have_fmt = false;
    wav_fmt f = {0};
    pmi_cursor c = pmi_cursor_make(data + 12, size - 12);
    while (pmi_left(&c) > 0) {
        size_t at = pmi_offset(&c) + 12;
        const uint8_t *h = pmi_take(&c, 8);
        if (!h) {
            if (pmi_left(&c) <= 1) break; /* a pad byte */
            return pmi_fail(err, PM_ERR_TRUNCATED, "wav: a chunk header at offset %zu is cut off", at);
        }
        uint64_t n = pmi_le32(h + 4);
        bool is_data = memcmp(h, "data", 4) == 0;
        if (rf64 && have_ds64 && is_data && n == PMI_WAV_UNKNOWN_SIZE) n = ds64_data;
        if (is_data) {
            if (!have_fmt) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: the data chunk at offset %zu comes before any fmt chunk", at);
            uint64_t left = pmi_left(&c);
            if ((n == 0 || n == PMI_WAV_UNKNOWN_SIZE) && left > 0) n = left; /* streamed: to the end */
            if (n > left)
                return pmi_fail(err, PM_ERR_TRUNCATED, "wav: the data chunk announces %llu bytes but only %llu are left (the file is truncated)",
                                (unsigned long long)n, (unsigned long long)left);
            uint64_t frames = n / f.block_align;
            if (frames > max_samples / f.channels)
                return pmi_fail(err, PM_ERR_LIMIT, "wav: %llu frames x %u channels exceed the limit of %llu samples",
                                (unsigned long long)frames, f.channels, (unsigned long long)max_samples);
            pm_audio *a = pmi_alloc_array(&o.allocator, 1, sizeof *a, err, "wav");
            if (!a) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
            a->allocator = o.allocator;
            a->magic = PMI_AUDIO_MAGIC;
            size_t count = (size_t)(frames * f.channels);
            a->samples = pmi_alloc_array_unzeroed(&o.allocator, count, sizeof(float), err, "wav samples");
            if (!a->samples) {
                pm_audio_free(a);
                return err ? err->type : PM_ERR_OUT_OF_MEMORY;
            }
            const uint8_t *p = c.p;
            size_t bytes = f.bits / 8;
            for (size_t i = 0; i < count; i++, p += bytes) {
                float v = sample_at(p, f.encoding);
                if (!isfinite(v)) {
                    pm_audio_free(a);
                    return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: sample %zu (frame %zu, channel %zu) is %s", i, i / f.channels,
                                    i % f.channels, isnan(v) ? "NaN" : "infinite or beyond float range");
                }
                a->samples[i] = v;
            }
            a->frame_count = frames;
            a->channels = f.channels;
            a->sample_rate = f.rate;
            a->encoding = f.encoding;
            a->valid_bits = f.valid_bits;
            a->format_tag = (uint16_t)f.tag;
            a->channel_mask = f.mask;
            a->rf64 = rf64;
            *out = a;
            return PM_OK;
        }
        if (n > pmi_left(&c))
            return pmi_fail(err, PM_ERR_TRUNCATED, "wav: chunk '%.4s' at offset %zu announces %llu bytes but only %zu are left",
                            (const char *)h, at, (unsigned long long)n, pmi_left(&c));
        const uint8_t *body = pmi_take(&c, (size_t)n);
        if (memcmp(h, "fmt ", 4) == 0) {
            if (have_fmt) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: a second fmt chunk at offset %zu", at);
            pm_result r = parse_fmt(body, n, &f, err);
            if (r != PM_OK) return r;
            have_fmt = true;
        } else if (rf64 && memcmp(h, "ds64", 4) == 0) {
            if (n < 24) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: the RF64 ds64 chunk is %llu bytes (needs 24)", (unsigned long long)n);
            ds64_data = le64(body + 8);
            have_ds64 = true;
        }
        if ((n & 1) && pmi_left(&c) > 0) pmi_take(&c, 1); /* RIFF pads chunks to even sizes */
    }
    if (!have_fmt) return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: no fmt chunk");
    return pmi_fail(err, PM_ERR_BAD_FORMAT, "wav: no data chunk");
}

void pm_audio_free(pm_audio *audio) {
    if (!audio || audio->magic != PMI_AUDIO_MAGIC) return;
    pm_allocator a = audio->allocator;
    pmi_free(&a, audio->samples);
    audio->magic = 0;
    pmi_free(&a, audio);
}

/* ---- writer --------------------------------------------------------------------------------- */

static int64_t quantize(float v, double scale, int64_t lo, int64_t hi) {
    double x = (double)v * scale;
    x = x < 0 ? x - 0.5 : x + 0.5; /* round half away from zero */
    int64_t q = x <= (double)lo ? lo : x >= (double)hi ? hi : (int64_t)x;
    return q;
}

pm_result pm_wav_write(const float *samples, uint64_t frames, uint32_t channels, uint32_t sample_rate,
                       pm_wav_encoding encoding, uint8_t *out, size_t cap, size_t *written, pm_error *err) {
    if (!written) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: no size pointer");
    *written = 0;
    if (encoding == PM_WAV_DEFAULT) encoding = PM_WAV_PCM_S16;
    if ((unsigned)encoding >= PM_WAV_ENCODING_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: unknown encoding %d", (int)encoding);
    if (channels == 0 || channels > 64) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: %u channels (1 to 64)", channels);
    if (sample_rate == 0 || sample_rate > 1000000)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: sample rate %u Hz is out of range (1 to 1000000)", sample_rate);
    if (frames && !samples) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: no samples");
    static const uint32_t bits_of[PM_WAV_ENCODING_COUNT] = {0, 8, 16, 24, 32, 32, 64};
    uint32_t bits = bits_of[encoding], bytes = bits / 8;
    bool is_float = encoding == PM_WAV_FLOAT32 || encoding == PM_WAV_FLOAT64;
    bool extensible = channels > 2 || encoding == PM_WAV_PCM_S24 || encoding == PM_WAV_PCM_S32;
    uint64_t data_bytes = frames * channels * bytes;
    if (frames > UINT32_MAX || data_bytes > 0xFFFFFFFFull - 80)
        return pmi_fail(err, PM_ERR_LIMIT, "wav: %llu frames x %u channels do not fit a 4 GiB WAV file", (unsigned long long)frames,
                        channels);
    uint32_t fmt_size = extensible ? 40 : 16;
    uint64_t total = 12 + 8 + fmt_size + 8 + data_bytes + (data_bytes & 1);
    *written = (size_t)total;
    if (!out) return PM_OK;
    if (cap < total) return pmi_fail(err, PM_ERR_LIMIT, "wav: the buffer holds %zu bytes, the file needs %llu", cap, (unsigned long long)total);
    size_t count = (size_t)(frames * channels);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(samples[i]))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "wav: sample %zu (frame %zu, channel %zu) is not finite", i, i / channels,
                            i % channels);
    uint8_t *p = out;
    memcpy(p, "RIFF", 4);
    pmi_put32(p + 4, (uint32_t)(total - 8));
    memcpy(p + 8, "WAVEfmt ", 8);
    pmi_put32(p + 16, fmt_size);
    p += 20;
    uint16_t tag = extensible ? 0xFFFE : is_float ? 3 : 1;
    uint32_t align = channels * bytes;
    p[0] = (uint8_t)tag, p[1] = (uint8_t)(tag >> 8);
    p[2] = (uint8_t)channels, p[3] = (uint8_t)(channels >> 8);
    pmi_put32(p + 4, sample_rate);
    pmi_put32(p + 8, sample_rate * align);
    p[12] = (uint8_t)align, p[13] = (uint8_t)(align >> 8);
    p[14] = (uint8_t)bits, p[15] = 0;
    if (extensible) {
        p[16] = 22, p[17] = 0;
        p[18] = (uint8_t)bits, p[19] = 0;
        uint32_t mask = channels == 1 ? 0x4 : channels == 2 ? 0x3 : 0;
        pmi_put32(p + 20, mask);
        p[24] = is_float ? 3 : 1, p[25] = 0;
        memcpy(p + 26, guid_tail, sizeof guid_tail);
    }
    p += fmt_size;
    memcpy(p, "data", 4);
    pmi_put32(p + 4, (uint32_t)data_bytes);
    p += 8;
    for (size_t i = 0; i < count; i++, p += bytes) {
        float v = samples[i];
        switch (encoding) {
        case PM_WAV_PCM_U8: p[0] = (uint8_t)(quantize(v, 128.0, -128, 127) + 128); break;
        case PM_WAV_PCM_S16: {
            uint16_t q = (uint16_t)(int16_t)quantize(v, 32768.0, -32768, 32767);
            p[0] = (uint8_t)q, p[1] = (uint8_t)(q >> 8);
            break;
        }
        case PM_WAV_PCM_S24: {
            uint32_t q = (uint32_t)(int32_t)quantize(v, 8388608.0, -8388608, 8388607);
            p[0] = (uint8_t)q, p[1] = (uint8_t)(q >> 8), p[2] = (uint8_t)(q >> 16);
            break;
        }
        case PM_WAV_PCM_S32: pmi_put32(p, (uint32_t)(int32_t)quantize(v, 2147483648.0, INT32_MIN, INT32_MAX)); break;
        case PM_WAV_FLOAT32: pmi_putf32(p, v); break;
        case PM_WAV_FLOAT64: {
            double d = v;
            uint64_t u;
            memcpy(&u, &d, 8);
            pmi_put32(p, (uint32_t)u);
            pmi_put32(p + 4, (uint32_t)(u >> 32));
            break;
        }
        default: break;
        }
    }
    if (data_bytes & 1) *p = 0;
    return PM_OK;
}
