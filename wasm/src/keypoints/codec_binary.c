/* The 239-byte binary keypoint frame (see CODECS in procmotion/keypoints.h and docs/keypoints.md).
 *
 *   offset size  field
 *   0      2     magic 'K' 'P'
 *   2      1     version (1)
 *   3      1     flags: bit 0 = mirrored, bits 1-7 reserved (written 0, ignored on reading)
 *   4      4     timestamp, milliseconds, u32 little-endian
 *   8      231   33 x {x i16, y i16, z i16, visibility u8} (7 bytes each), i16 = round(v * 32767)
 */
#include "kp_internal.h"

#include <math.h>

static int16_t quantize16(float v) {
    double d = isfinite(v) ? v : 0.0;
    if (d < -1) d = -1;
    if (d > 1) d = 1;
    return (int16_t)lround(d * 32767.0);
}

static uint8_t quantize8(float v) {
    double d = isfinite(v) ? v : 0.0;
    if (d < 0) d = 0;
    if (d > 1) d = 1;
    return (uint8_t)lround(d * 255.0);
}

static void put16(uint8_t *p, int16_t v) {
    uint16_t u = (uint16_t)v;
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
}

pm_result pm_kp_encode_frame(const pm_kp_sequence *seq, uint32_t frame, uint8_t out[PM_KP_FRAME_SIZE], pm_error *err) {
    if (!seq || !out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: sequence or output is NULL");
    if (frame >= seq->frame_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: frame %u of a %u-frame sequence", frame, seq->frame_count);
    double t = seq->timestamp_ms[frame];
    if (!isfinite(t) || t < 0 || t > 4294967295.0)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: timestamp %g ms of frame %u does not fit the u32 field", t, frame);
    out[0] = 'K';
    out[1] = 'P';
    out[2] = PM_KP_FRAME_VERSION;
    out[3] = seq->mirrored ? 1 : 0;
    pmi_put32(out + 4, (uint32_t)llround(t));
    const float *p = seq->points + (size_t)frame * PM_KP_POINT_COUNT * 3;
    const float *v = seq->visibility + (size_t)frame * PM_KP_POINT_COUNT;
    uint8_t *q = out + PM_KP_FRAME_HEADER_SIZE;
    for (int i = 0; i < PM_KP_POINT_COUNT; i++, q += 7) {
        for (int k = 0; k < 3; k++) put16(q + 2 * k, quantize16(p[i * 3 + k]));
        q[6] = quantize8(v[i]);
    }
    return PM_OK;
}

pm_result pm_kp_decode_frame(const uint8_t *data, size_t size, pm_kp_frame *out, pm_error *err) {
    if (!out || (!data && size)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: data or output is NULL");
    if (size != PM_KP_FRAME_SIZE)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: a binary frame is %d bytes, got %zu", PM_KP_FRAME_SIZE, size);
    if (data[0] != 'K' || data[1] != 'P')
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: bad frame magic 0x%02X%02X (expected 'KP')", data[0], data[1]);
    if (data[2] != PM_KP_FRAME_VERSION)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: frame version %u is not supported (this reader knows %d)", data[2],
                        PM_KP_FRAME_VERSION);
    out->mirrored = (data[3] & 1) != 0;
    out->timestamp_ms = pmi_le32(data + 4);
    const uint8_t *q = data + PM_KP_FRAME_HEADER_SIZE;
    for (int i = 0; i < PM_KP_POINT_COUNT; i++, q += 7) {
        for (int k = 0; k < 3; k++) {
            float v = (float)(int16_t)pmi_le16(q + 2 * k) / 32767.0f;
            out->points[i * 3 + k] = v < -1 ? -1 : v;
        }
        out->visibility[i] = q[6] / 255.0f;
    }
    return PM_OK;
}

pm_result pm_kp_write_binary(const pm_kp_sequence *seq, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err) {
    if (!seq || !out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: sequence or out_size is NULL");
    size_t need = (size_t)seq->frame_count * PM_KP_FRAME_SIZE;
    *out_size = need;
    if (!out) return PM_OK;
    if (out_cap < need) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: %zu bytes needed, %zu given", need, out_cap);
    for (uint32_t f = 0; f < seq->frame_count; f++) {
        pm_result r = pm_kp_encode_frame(seq, f, out + (size_t)f * PM_KP_FRAME_SIZE, err);
        if (r) return r;
    }
    return PM_OK;
}

double pmi_kp_even_fps(const double *t, uint32_t n) {
    if (n < 2 || !(t[n - 1] > t[0])) return 0;
    double step = (t[n - 1] - t[0]) / (n - 1);
    for (uint32_t i = 1; i < n; i++)
        if (fabs(t[i] - t[0] - step * i) > 1.0) return 0;
    return 1000.0 / step;
}

pm_result pm_kp_read_binary(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: data is NULL");
    if (size == 0 || size % PM_KP_FRAME_SIZE)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: a binary stream is a whole number of %d-byte frames, got %zu bytes",
                        PM_KP_FRAME_SIZE, size);
    size_t n = size / PM_KP_FRAME_SIZE;
    if (n > pmi_kp_max_frames(opts)) return pmi_fail(err, PM_ERR_LIMIT, "keypoints: %zu frames exceed the limit", n);
    pm_kp_sequence *s = NULL;
    pm_result r = pmi_kp_sequence_new(opts ? &opts->allocator : NULL, (uint32_t)n, &s, err);
    if (r) return r;
    pm_kp_frame fr;
    for (size_t f = 0; f < n; f++) {
        pm_error e = {0};
        if ((r = pm_kp_decode_frame(data + f * PM_KP_FRAME_SIZE, PM_KP_FRAME_SIZE, &fr, &e))) {
            pm_kp_free(s);
            return pmi_fail(err, r, "keypoints: binary frame %zu: %s", f, e.message + strlen("keypoints: "));
        }
        if (f == 0) s->mirrored = fr.mirrored;
        s->timestamp_ms[f] = fr.timestamp_ms;
        memcpy(s->points + f * PM_KP_POINT_COUNT * 3, fr.points, sizeof fr.points);
        memcpy(s->visibility + f * PM_KP_POINT_COUNT, fr.visibility, sizeof fr.visibility);
        if ((r = pmi_kp_check_decoded(s, (uint32_t)f, "binary frame", f, err))) { /* x, y < 0 fit in int16 */
            pm_kp_free(s);
            return r;
        }
        pm_kp_angles(fr.points, s->angles + f * PM_KP_ANGLE_COUNT);
    }
    s->fps = pmi_kp_even_fps(s->timestamp_ms, s->frame_count);
    s->stats.format = PM_KP_FORMAT_BINARY;
    s->stats.family = "keypoints";
    pmi_kp_count_tiers(s);
    *out = s;
    return PM_OK;
}
