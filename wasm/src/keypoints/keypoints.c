/* Format detection and dispatch (see procmotion/keypoints.h). */
#include "kp_internal.h"

static const uint8_t *skip_ws(const uint8_t *p, const uint8_t *end) {
    if (end - p >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

static bool has(const uint8_t *p, const uint8_t *end, const char *word) {
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* Whether a JSON object's first kilobytes mention "key" as a key. */
static bool mentions(const uint8_t *p, const uint8_t *end, const char *key) {
    size_t n = strlen(key);
    if (end - p > 4096) end = p + 4096;
    for (; p + n <= end; p++)
        if (memcmp(p, key, n) == 0) return true;
    return false;
}

pm_kp_format pm_kp_detect_format(const uint8_t *data, size_t size) {
    if (!data || !size) return PM_KP_FORMAT_AUTO;
    const uint8_t *end = data + size;
    if (has(data, end, "glTF")) return PM_KP_FORMAT_GLTF;
    if (has(data, end, "Kaydara FBX Binary") || has(data, end, "; FBX")) return PM_KP_FORMAT_FBX;
    if (has(data, end, "Vocaloid Motion Data")) return PM_KP_FORMAT_VMD;
    if (size % PM_KP_FRAME_SIZE == 0 && data[0] == 'K' && data[1] == 'P') return PM_KP_FORMAT_BINARY;
    const uint8_t *p = skip_ws(data, end);
    if (has(p, end, "HIERARCHY")) return PM_KP_FORMAT_BVH;
    if (p < end && *p == '{') {
        if (mentions(p, end, "\"asset\"")) return PM_KP_FORMAT_GLTF;
        if (mentions(p, end, "\"format\"") || mentions(p, end, "\"frames\"")) return PM_KP_FORMAT_JSON;
        if (mentions(p, end, "\"timestamp\"")) return PM_KP_FORMAT_NDJSON;
    }
    return PM_KP_FORMAT_AUTO;
}

pm_result pm_kp_from_data(const uint8_t *data, size_t size, pm_kp_format format, const pm_kp_options *opts,
                          pm_kp_sequence **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: data is NULL");
    if (opts && !(opts->fps >= 0 && opts->fps <= 1000))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: fps must be a number in 0..1000 (0 = the source's rate)");
    if (format == PM_KP_FORMAT_AUTO) format = pm_kp_detect_format(data, size);
    if (opts && opts->model && format != PM_KP_FORMAT_VMD)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: a model is only used with a VMD (the input is %s)",
                        pm_kp_format_name(format));
    switch (format) {
    case PM_KP_FORMAT_BVH: return pmi_kp_from_bvh(data, size, opts, out, err);
    case PM_KP_FORMAT_VMD:
        return pmi_kp_from_vmd(data, size, opts, out, err);
    case PM_KP_FORMAT_GLTF: return pmi_kp_from_gltf(data, size, opts, out, err);
    case PM_KP_FORMAT_FBX: return pmi_kp_from_fbx(data, size, opts, out, err);
    case PM_KP_FORMAT_JSON: return pmi_kp_from_json(data, size, opts, out, err);
    case PM_KP_FORMAT_NDJSON: return pm_kp_read_ndjson(data, size, opts, out, err);
    case PM_KP_FORMAT_BINARY: return pm_kp_read_binary(data, size, opts, out, err);
    case PM_KP_FORMAT_AUTO:
        if (!size) return pmi_fail(err, PM_ERR_TRUNCATED, "keypoints: the input is empty");
        return pmi_fail(err, PM_ERR_BAD_FORMAT,
                        "keypoints: unrecognised input (expected BVH, VMD, glTF/GLB, FBX, mediapipe33 JSON, NDJSON or binary "
                        "keypoint frames)");
    default: return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: unknown format %d", (int)format);
    }
}
