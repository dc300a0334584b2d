/* NDJSON keypoint frames (write by hand, read with cJSON) and mediapipe33@0.1.0 keypoint JSON input. */
#include "kp_internal.h"

#include <float.h>

#include "common/json.h"
#include <math.h>

/* ---- writing ------------------------------------------------------------------------------------ */

typedef struct writer {
    char *out;
    size_t cap, n;
} writer;

static void put(writer *w, const char *s, size_t len) {
    if (w->out && w->n + len <= w->cap) memcpy(w->out + w->n, s, len);
    w->n += len;
}

static void puts_(writer *w, const char *s) { put(w, s, strlen(s)); }

static void putf(writer *w, const char *fmt, double v) {
    char tmp[64];
    size_t n = pmi_format(tmp, sizeof tmp, fmt, v);
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    /* "-0.000000" reads back as 0 anyway; keep the output clean */
    if (tmp[0] == '-') {
        bool zero = true;
        for (size_t i = 1; i < n; i++)
            if (tmp[i] != '0' && tmp[i] != '.') zero = false;
        if (zero) {
            put(w, tmp + 1, n - 1);
            return;
        }
    }
    put(w, tmp, n);
}

static double finite_or(double v, double fallback) { return isfinite(v) ? v : fallback; }

pm_result pm_kp_write_ndjson(const pm_kp_sequence *seq, char *out, size_t out_cap, size_t *out_size, pm_error *err) {
    if (!seq || !out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: sequence or out_size is NULL");
    writer w = {out, out ? out_cap : 0, 0};
    for (uint32_t f = 0; f < seq->frame_count; f++) {
        const float *p = seq->points + (size_t)f * PM_KP_POINT_COUNT * 3;
        const float *v = seq->visibility + (size_t)f * PM_KP_POINT_COUNT;
        const float *a = seq->angles + (size_t)f * PM_KP_ANGLE_COUNT;
        puts_(&w, "{\"timestamp\":");
        putf(&w, "%.3f", finite_or(seq->timestamp_ms[f], 0));
        puts_(&w, seq->mirrored ? ",\"mirrored\":true,\"points\":[" : ",\"mirrored\":false,\"points\":[");
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
            puts_(&w, i ? ",[" : "[");
            for (int k = 0; k < 3; k++) {
                putf(&w, "%.6f", finite_or(p[i * 3 + k], 0));
                put(&w, ",", 1);
            }
            putf(&w, "%.6f", finite_or(v[i], 0));
            put(&w, "]", 1);
        }
        puts_(&w, "],\"angles\":{");
        for (int i = 0; i < PM_KP_ANGLE_COUNT; i++) {
            puts_(&w, i ? ",\"" : "\"");
            puts_(&w, pm_kp_angle_name((uint32_t)i));
            puts_(&w, "\":");
            putf(&w, "%.6f", finite_or(a[i], 0));
        }
        puts_(&w, "}}\n");
    }
    *out_size = w.n;
    if (out && w.n > out_cap)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: %zu bytes of NDJSON needed, %zu given", w.n, out_cap);
    return PM_OK;
}

/* ---- reading helpers ----------------------------------------------------------------------------- */

static bool number(const cJSON *item, double *v) {
    if (!cJSON_IsNumber(item)) return false;
    *v = item->valuedouble;
    return isfinite(*v);
}

/* A point as [x, y, z, visibility] or {"x", "y", "z", "visibility"}; at: the point ("frames[1].points[5]"). */
static pm_result read_point(const cJSON *item, float *xyz, float *vis, const pmi_json_at *at) {
    double v[4];
    static const char *const keys[4] = {"x", "y", "z", "visibility"};
    static const double lim[4][2] = {{-1e6, 1e6}, {-1e6, 1e6}, {-1e6, 1e6}, {0, 1}};
    const bool arr = cJSON_IsArray(item);
    if (arr && cJSON_GetArraySize(item) != 4) return pmi_json_fail(at, NULL, item, "[x, y, z, visibility]");
    if (!arr && !cJSON_IsObject(item)) return pmi_json_fail(at, NULL, item, "an array or an object");
    for (int k = 0; k < 4; k++) {
        pm_result r = pmi_json_number(at, keys[k], arr ? cJSON_GetArrayItem(item, k) : cJSON_GetObjectItemCaseSensitive(item, keys[k]),
                                      lim[k][0], lim[k][1], NULL, &v[k]);
        if (r) return r;
    }
    for (int k = 0; k < 3; k++) xyz[k] = (float)v[k];
    *vis = (float)v[3];
    return PM_OK;
}

/* at: the frame ("frames[1]", "line 2"). */
static pm_result read_points(const cJSON *frame_obj, float *xyz, float *vis, const pmi_json_at *at) {
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(frame_obj, "points");
    if (!pts) pts = cJSON_GetObjectItemCaseSensitive(frame_obj, "landmarks");
    if (!cJSON_IsArray(pts) || cJSON_GetArraySize(pts) != PM_KP_POINT_COUNT) return pmi_json_fail(at, "points", pts, "an array of 33 points");
    int i = 0;
    pm_result r;
    char path[48];
    pmi_json_at pat = *at;
    pat.path = path;
    for (const cJSON *it = pts->child; it; it = it->next, i++) {
        pmi_format(path, sizeof path, "%s.points[%d]", at->path, i);
        if ((r = read_point(it, xyz + i * 3, vis + i, &pat))) return r;
    }
    return PM_OK;
}

/* ---- NDJSON ---------------------------------------------------------------------------------------- */

/* The line at *p without its leading blanks (spaces, tabs, CRs) as [*b, *e); *p moves past its newline.
 * The line is blank when *b == *e. Both passes of the reader split lines here, so they count the same frames. */
static void next_line(const char **p, const char *end, const char **b, const char **e) {
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    *e = nl ? nl : end;
    *b = *p;
    while (*b < *e && (**b == ' ' || **b == '\t' || **b == '\r')) (*b)++;
    *p = nl ? nl + 1 : end;
}

pm_result pm_kp_read_ndjson(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: data is NULL");
    const char *text = (const char *)data, *end = text + size;
    /* count the non-blank lines first: the frame count is known before allocating */
    size_t lines = 0;
    for (const char *p = text, *q, *e; p < end;) {
        next_line(&p, end, &q, &e);
        lines += q != e;
    }
    if (!lines) return pmi_fail(err, PM_ERR_TRUNCATED, "keypoints: the NDJSON holds no frame");
    if (lines > pmi_kp_max_frames(opts)) return pmi_fail(err, PM_ERR_LIMIT, "keypoints: %zu NDJSON frames exceed the limit", lines);
    pm_kp_sequence *s = NULL;
    pm_result r = pmi_kp_sequence_new(opts ? &opts->allocator : NULL, (uint32_t)lines, &s, err);
    if (r) return r;
    uint32_t f = 0, line = 0;
    for (const char *p = text, *q, *e; p < end && r == PM_OK;) {
        next_line(&p, end, &q, &e);
        line++;
        if (q == e) continue;
        pm_result why;
        cJSON *obj = pmi_json_parse(q, (size_t)(e - q), &why);
        if (why == PM_ERR_OUT_OF_MEMORY) {
            r = pmi_fail(err, why, "keypoints: out of memory parsing NDJSON line %u", line);
        } else if (!cJSON_IsObject(obj)) {
            r = pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: NDJSON line %u is not a JSON object", line);
        } else {
            double t = 0;
            bool m;
            char path[24];
            pmi_format(path, sizeof path, "line %u", line);
            const pmi_json_at at = {"keypoints", path, PM_ERR_BAD_FORMAT, err};
            const cJSON *mir = cJSON_GetObjectItemCaseSensitive(obj, "mirrored"), *ts = cJSON_GetObjectItemCaseSensitive(obj, "timestamp");
            if ((r = pmi_json_number(&at, "timestamp", ts, f ? s->timestamp_ms[f - 1] : 0, DBL_MAX, " (milliseconds, not going back)", &t)))
                ;
            else if (mir && (r = pmi_json_bool(&at, "mirrored", mir, &m)))
                ;
            else
                r = read_points(obj, s->points + (size_t)f * PM_KP_POINT_COUNT * 3, s->visibility + (size_t)f * PM_KP_POINT_COUNT, &at);
            if (r == PM_OK) {
                s->timestamp_ms[f] = t;
                r = pmi_kp_check_decoded(s, f, "NDJSON line", line, err); /* read back as is: must be in range */
            }
            if (r == PM_OK) {
                if (f == 0) s->mirrored = cJSON_IsTrue(mir);
                float *a = s->angles + (size_t)f * PM_KP_ANGLE_COUNT;
                pm_kp_angles(s->points + (size_t)f * PM_KP_POINT_COUNT * 3, a);
                /* angles written by the line win over the recomputed ones when all ten are valid */
                const cJSON *ang = cJSON_GetObjectItemCaseSensitive(obj, "angles");
                float given[PM_KP_ANGLE_COUNT];
                int ok = 0;
                for (int i = 0; cJSON_IsObject(ang) && i < PM_KP_ANGLE_COUNT; i++) {
                    double v;
                    if (number(cJSON_GetObjectItemCaseSensitive(ang, pm_kp_angle_name((uint32_t)i)), &v) && v >= -1 && v <= 1)
                        given[i] = (float)v, ok++;
                }
                if (ok == PM_KP_ANGLE_COUNT) memcpy(a, given, sizeof given);
                f++;
            }
        }
        cJSON_Delete(obj);
    }
    if (r) {
        pm_kp_free(s);
        return r;
    }
    s->fps = pmi_kp_even_fps(s->timestamp_ms, s->frame_count);
    s->stats.format = PM_KP_FORMAT_NDJSON;
    s->stats.family = "keypoints";
    pmi_kp_count_tiers(s);
    *out = s;
    return PM_OK;
}

/* ---- mediapipe33@0.1.0 JSON ------------------------------------------------------------------------- */

pm_result pmi_kp_from_json(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    pm_result why;
    cJSON *root = pmi_json_parse((const char *)data, size, &why);
    if (!root)
        return pmi_fail(err, why, why == PM_ERR_OUT_OF_MEMORY ? "keypoints: out of memory parsing the keypoint JSON"
                                                              : "keypoints: the keypoint JSON does not parse as JSON");
    pm_result r = PM_OK;
    pmi_kp_raw raw;
    memset(&raw, 0, sizeof raw);
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(root, "frames");
    const cJSON *fps_item = cJSON_GetObjectItemCaseSensitive(root, "fps");
    const cJSON *mir = cJSON_GetObjectItemCaseSensitive(root, "mirrored");
    double fps = 0;
    bool m;
    const pmi_json_at at = {"keypoints", "", PM_ERR_BAD_FORMAT, err};
    if (!cJSON_IsObject(root)) {
        r = pmi_json_fail(&at, NULL, root, "an object");
    } else if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, PM_KP_JSON_FORMAT) != 0) {
        r = pmi_json_fail(&at, "format", fmt, "\"%s\"", PM_KP_JSON_FORMAT);
    } else if (fps_item && ((r = pmi_json_number(&at, "fps", fps_item, 1e-3, 1000, NULL, &fps)))) {
    } else if (mir && (r = pmi_json_bool(&at, "mirrored", mir, &m))) {
    } else if (!cJSON_IsArray(frames) || cJSON_GetArraySize(frames) == 0) {
        r = pmi_json_fail(&at, "frames", frames, "a non-empty array");
    } else if ((uint32_t)cJSON_GetArraySize(frames) > pmi_kp_max_frames(opts)) {
        r = pmi_fail(err, PM_ERR_LIMIT, "keypoints: %d frames exceed the limit", cJSON_GetArraySize(frames));
    }
    if (r == PM_OK) r = pmi_kp_raw_init(&raw, opts ? &opts->allocator : NULL, (uint32_t)cJSON_GetArraySize(frames), err);
    uint32_t f = 0;
    for (const cJSON *fr = r == PM_OK ? frames->child : NULL; fr && r == PM_OK; fr = fr->next, f++) {
        char path[24];
        pmi_format(path, sizeof path, "frames[%u]", f);
        const pmi_json_at fat = {"keypoints", path, PM_ERR_BAD_FORMAT, err};
        if (!cJSON_IsObject(fr)) {
            r = pmi_json_fail(&fat, NULL, fr, "an object");
            break;
        }
        double t = 0;
        const cJSON *ts = cJSON_GetObjectItemCaseSensitive(fr, "timestamp");
        if (ts || fps <= 0) r = pmi_json_number(&fat, "timestamp", ts, f ? raw.timestamp_ms[f - 1] : 0, DBL_MAX,
                                                fps > 0 ? " (milliseconds, not going back)" : " (milliseconds; the file has no fps)", &t);
        else t = f * 1000.0 / fps;
        if (r == PM_OK && f && t < raw.timestamp_ms[f - 1])
            r = pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: %s has no timestamp; at %g fps it would be at %g ms, before the frame before it (%g ms)",
                         path, fps, t, raw.timestamp_ms[f - 1]);
        if (r) break;
        raw.timestamp_ms[f] = t;
        float *xyz = raw.pos + (size_t)f * PM_KP_POINT_COUNT * 3;
        if ((r = read_points(fr, xyz, raw.conf + (size_t)f * PM_KP_POINT_COUNT, &fat))) break;
        /* back to the world frame, the inverse of the projection up to its scale: x right, y down, z negative
         * towards the camera -> X = x - 0.5, Y = 0.5 - y, Z = -z */
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
            float *q = xyz + i * 3;
            q[0] = q[0] - 0.5f;
            q[1] = 0.5f - q[1];
            q[2] = -q[2];
        }
    }
    if (r == PM_OK) {
        raw.fps = fps > 0 && !cJSON_GetObjectItemCaseSensitive(frames->child, "timestamp") ? fps
                                                                                            : pmi_kp_even_fps(raw.timestamp_ms, raw.frame_count);
        raw.mirrored = cJSON_IsTrue(mir);
        raw.stats.format = PM_KP_FORMAT_JSON;
        raw.stats.family = "keypoints";
        raw.stats.source_joints = PM_KP_POINT_COUNT;
    }
    cJSON_Delete(root);
    if (r) {
        pmi_kp_raw_release(&raw);
        return r;
    }
    return pmi_kp_finish(&raw, out, err);
}
