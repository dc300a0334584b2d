/* Keypoint exports: convert any supported input to a sequence the host reads through a descriptor of
 * doubles (counts, pointers, stats), build a sequence from host arrays, and encode sequences as NDJSON,
 * binary frames or feature vectors (see docs/keypoints.md). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/keypoints.h"

#include <math.h>
#include <stdlib.h>

/* Descriptor slots (double each; pointers are offsets into the module's memory): PM_ABI_LAYOUT_KEYPOINTS. */
enum { PM_ABI_LAYOUT_KEYPOINTS(PM_ABI_SLOT_ENUM, K_) K_COUNT };
PM_ABI_ENUM_KP_FORMAT(PM_ABI_CHECK_ENUM, kp_format)
PM_ABI_ENUM_KP_LEGS(PM_ABI_CHECK_ENUM, kp_legs)

PM_EXPORT uint32_t pm_abi_kp_descriptor_slots(void) { return K_COUNT; }

/* Point and angle names (static NUL-terminated UTF-8), NULL past the end. */
PM_EXPORT const char *pm_abi_kp_point_name(uint32_t i) { return pm_kp_point_name(i); }
PM_EXPORT const char *pm_abi_kp_angle_name(uint32_t i) { return pm_kp_angle_name(i); }

/* Convert `data` (format: pm_kp_format, 0 = detect). fps <= 0 = the source's rate; model (may be NULL) =
 * a PMX/PMD for a VMD. Returns the sequence (free with pm_abi_kp_free) or NULL with a message in errbuf. */
PM_EXPORT pm_kp_sequence *pm_abi_kp_from_data(const uint8_t *data, uint32_t size, uint32_t format, double fps,
                                              uint32_t animation, uint32_t max_frames, const uint8_t *model,
                                              uint32_t model_size, char *errbuf) {
    pm_error err = {0};
    pm_kp_options o = {.fps = fps > 0 ? fps : 0, .animation = animation, .max_frames = max_frames, .model = model,
                       .model_size = model_size};
    if (!isfinite(fps)) o.fps = NAN; /* reported by pm_kp_from_data */
    pm_kp_sequence *s = NULL;
    if (pm_kp_from_data(data, size, (pm_kp_format)format, &o, &s, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return s;
}

/* A sequence from host arrays (see pm_kp_from_arrays). */
PM_EXPORT pm_kp_sequence *pm_abi_kp_make(uint32_t frames, const double *timestamps, const float *points,
                                         const float *visibility, uint32_t mirrored, char *errbuf) {
    pm_error err = {0};
    pm_kp_sequence *s = NULL;
    if (pm_kp_from_arrays(frames, timestamps, points, visibility, mirrored != 0, NULL, &s, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return s;
}

PM_EXPORT void pm_abi_kp_free(pm_kp_sequence *s) { pm_kp_free(s); }

PM_EXPORT void pm_abi_kp_describe(const pm_kp_sequence *s, double *d) {
    for (int i = 0; i < K_COUNT; i++) d[i] = 0;
    if (!s) return;
    d[K_FRAMES] = s->frame_count;
    d[K_FPS] = s->fps;
    d[K_MIRRORED] = s->mirrored;
    d[K_TIMESTAMPS] = (double)(uintptr_t)s->timestamp_ms;
    d[K_POINTS] = (double)(uintptr_t)s->points;
    d[K_VISIBILITY] = (double)(uintptr_t)s->visibility;
    d[K_ANGLES] = (double)(uintptr_t)s->angles;
    d[K_FORMAT] = s->stats.format;
    d[K_FAMILY] = (double)(uintptr_t)(s->stats.family ? s->stats.family : "");
    d[K_SOURCE_JOINTS] = s->stats.source_joints;
    d[K_IGNORED] = s->stats.ignored_bones;
    d[K_DIRECT] = s->stats.direct_points;
    d[K_INFERRED] = s->stats.inferred_points;
    d[K_MISSING] = s->stats.missing_points;
    d[K_NAN] = s->stats.nan_count;
    d[K_OUT_OF_RANGE] = s->stats.out_of_range;
    d[K_SCALE] = s->stats.scale;
    d[K_LEGS] = s->stats.legs;
}

/* Encode as NDJSON (kind 0), binary frames (1) or feature vectors (2, f32 x frames x 109). On success
 * returns 0 and stores a malloc'd buffer in *out (host frees with pm_abi_free) and its byte size. */
PM_EXPORT int32_t pm_abi_kp_encode(const pm_kp_sequence *s, uint32_t kind, uint8_t **out, uint32_t *out_size, char *errbuf) {
    pm_error err = {0};
    *out = NULL;
    *out_size = 0;
    size_t size = 0;
    pm_result r;
    if (kind == 0) r = pm_kp_write_ndjson(s, NULL, 0, &size, &err);
    else if (kind == 1) r = pm_kp_write_binary(s, NULL, 0, &size, &err);
    else if (kind == 2 && s) size = (size_t)s->frame_count * PM_KP_FEATURE_SIZE * sizeof(float), r = PM_OK;
    else r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "keypoints: unknown encoding %u", kind);
    uint8_t *buf = r ? NULL : malloc(size ? size : 1);
    if (!r && !buf) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "keypoints: out of memory for %zu bytes", size);
    if (!r) {
        if (kind == 0) r = pm_kp_write_ndjson(s, (char *)buf, size, &size, &err);
        else if (kind == 1) r = pm_kp_write_binary(s, buf, size, &size, &err);
        else r = pm_kp_features(s, (float *)(void *)buf, size / sizeof(float), &err);
    }
    if (r) {
        free(buf);
        pm_abi_set_error(errbuf, &err);
        return (int32_t)r;
    }
    *out = buf;
    *out_size = (uint32_t)size;
    return 0;
}
