/* Groove exports: settings JSON (validate, merge, serialise), a runtime handle per skeleton (per-frame
 * offsets, preview stepping, IK modes), and the VMD bake.
 *
 * Handles: `skeleton` is a pm_skeleton* from the skeleton/PMX exports (it must outlive the groove
 * handle), `vmd` a pm_vmd* from pm_abi_vmd_read or 0. Settings are JSON text (len bytes, 0 = the
 * defaults). int32 results are 0 (PM_OK) or a pm_result with a message in errbuf
 * (PM_ABI_ERROR_SIZE bytes). */
#include "pm_abi.h"

#include "common/internal.h"
#include "groove/report.h"
#include "procmotion/groove.h"
#include "math/inline.h"

#include <math.h>
#include <stdlib.h>

/* Output floats of pm_abi_groove_output (PM_ABI_LAYOUT_GROOVE_OUT: a header, then 4 per bone). */
enum { PM_ABI_LAYOUT_GROOVE_OUT(PM_ABI_SLOT_ENUM, OUT_) OUT_COUNT };
/* Info slots of pm_abi_groove_info (PM_ABI_LAYOUT_GROOVE_INFO). */
enum { PM_ABI_LAYOUT_GROOVE_INFO(PM_ABI_SLOT_ENUM, INFO_) INFO_SLOTS };
/* pm_abi_groove_bake's report (PM_ABI_LAYOUT_GROOVE_REPORT, double each). */
enum { PM_ABI_LAYOUT_GROOVE_REPORT(PM_ABI_SLOT_ENUM, REPORT_) REPORT_COUNT };
_Static_assert(INFO_BODY - INFO_JOINT_BONE == PM_GROOVE_JOINT_COUNT, "one info slot per groove joint");
_Static_assert(INFO_LEG_MODE - INFO_LEG_BONE == 6 && INFO_SLOTS - INFO_LEG_IK == 8, "groove info: leg slots");
_Static_assert(OUT_LEG_ROT - OUT_ANCHOR_ROT == 8 && OUT_BONE_OFFSET - OUT_LEG_ROT == 24, "groove output: leg slots");
PM_ABI_ENUM_LEG_MODE(PM_ABI_CHECK_ENUM, leg_mode)
PM_ABI_ENUM_IK_MODE(PM_ABI_CHECK_ENUM, ik_mode)

typedef struct pm_abi_groove {
    pm_groove *g;
    uint32_t bone_count;
    pm_quat *rotation;    /* host-writable input */
    pm_vec3 *translation; /* host-writable input */
    float *out;           /* OUT_BONE_OFFSET + 4 * bone_count */
    pm_groove_preview preview;
    double *grid;         /* a copy of the grid block set with pm_abi_groove_set_grid (NULL = none) */
} pm_abi_groove;

static pm_result settings(const char *json, uint32_t len, pm_groove_config *cfg, pm_error *err) {
    memset(cfg, 0, sizeof *cfg);
    return json && len ? pm_groove_config_parse(json, len, cfg, err) : PM_OK;
}

/* Merge `json` over `base` (either may be empty) and write the merged settings (flags 0) or only the
 * changes (flags 1) as JSON in *out (host frees). */
PM_EXPORT int32_t pm_abi_groove_config(const char *json, uint32_t len, const char *base, uint32_t base_len,
                                       uint32_t flags, char **out, uint32_t *out_len, char *errbuf) {
    pm_error err = {0};
    pm_groove_config cfg;
    *out = NULL;
    *out_len = 0;
    pm_result r = settings(base, base_len, &cfg, &err);
    if (r == PM_OK && json && len) r = pm_groove_config_parse(json, len, &cfg, &err);
    size_t n = 0;
    if (r == PM_OK) r = pm_groove_config_to_json(&cfg, flags & PM_GROOVE_JSON_CHANGED, NULL, 0, &n, &err);
    char *text = r == PM_OK ? malloc(n + 1) : NULL;
    if (r == PM_OK && !text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory for JSON");
    if (r == PM_OK) r = pm_groove_config_to_json(&cfg, flags & PM_GROOVE_JSON_CHANGED, text, n + 1, &n, &err);
    if (r != PM_OK) {
        free(text);
        return pm_abi_fail(errbuf, &err, r);
    }
    *out = text;
    *out_len = (uint32_t)n;
    return 0;
}

PM_EXPORT void pm_abi_groove_free(pm_abi_groove *h) {
    if (!h) return;
    pm_groove_free(h->g);
    free(h->rotation);
    free(h->translation);
    free(h->out);
    free(h->grid);
    free(h);
}

/* The beat grid the runtime layer follows (a block as pm_abi_grid_in reads it, copied; 0 = none: the
 * bpm passed to pm_abi_groove_offsets). Checked. */
PM_EXPORT int32_t pm_abi_groove_set_grid(pm_abi_groove *h, const double *block, char *errbuf) {
    pm_error err = {0};
    if (!h) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no groove handle"));
    pm_beat_grid g;
    pm_result r = pm_abi_grid_in(block, &g, &err);
    if (r == PM_OK && block) r = pm_beat_grid_check(&g, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    double *copy = NULL;
    if (block) {
        size_t n = PM_ABI_GRID_HEADER + (size_t)g.beat_count;
        if (!(copy = malloc(n * sizeof *copy)))
            return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory for the grid"));
        memcpy(copy, block, n * sizeof *copy);
    }
    free(h->grid);
    h->grid = copy;
    return 0;
}

/* A runtime handle (free with pm_abi_groove_free), or 0 with errbuf filled. */
PM_EXPORT pm_abi_groove *pm_abi_groove_create(const pm_skeleton *skeleton, const char *json, uint32_t len,
                                              char *errbuf) {
    pm_error err = {0};
    pm_groove_config cfg;
    pm_result r = settings(json, len, &cfg, &err);
    pm_abi_groove *h = r == PM_OK ? calloc(1, sizeof *h) : NULL;
    if (r == PM_OK && !h) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory");
    if (r == PM_OK) r = pm_groove_create(skeleton, &cfg, NULL, &h->g, &err);
    if (r == PM_OK) {
        const uint32_t n = h->bone_count = skeleton->bone_count;
        h->rotation = calloc(n ? n : 1, sizeof *h->rotation);
        h->translation = calloc(n ? n : 1, sizeof *h->translation);
        h->out = calloc(OUT_BONE_OFFSET + 4 * (size_t)n, sizeof *h->out);
        if (!h->rotation || !h->translation || !h->out) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory");
        for (uint32_t b = 0; r == PM_OK && b < n; b++) h->rotation[b] = pmi_quat_identity();
    }
    if (r != PM_OK) {
        pm_abi_fail(errbuf, &err, r);
        pm_abi_groove_free(h);
        return NULL;
    }
    return h;
}

/* Replace the settings (the anchors are kept). */
PM_EXPORT int32_t pm_abi_groove_set_config(pm_abi_groove *h, const char *json, uint32_t len, char *errbuf) {
    pm_error err = {0};
    pm_groove_config cfg;
    pm_result r = h ? settings(json, len, &cfg, &err) : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no groove handle");
    if (r == PM_OK) r = pm_groove_set_config(h->g, &cfg, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* INFO_SLOTS uint32 values: bone per joint, body bone, six leg bones (left hip, knee, ankle, right ...),
 * leg mode (0 none, 1 analytic, 2 MMD IK), leg IK count, up to 8 leg IK bones; PM_NO_INDEX = none. */
PM_EXPORT uint32_t pm_abi_groove_info(const pm_abi_groove *h, uint32_t *out) {
    pm_groove_info info;
    pm_groove_get_info(h ? h->g : NULL, &info);
    if (!out) return INFO_SLOTS;
    memcpy(out + INFO_JOINT_BONE, info.joint_bone, sizeof info.joint_bone);
    out[INFO_BODY] = h ? info.body_bone : PM_NO_INDEX;
    memcpy(out + INFO_LEG_BONE, info.leg_bone, sizeof info.leg_bone);
    out[INFO_LEG_MODE] = info.leg_mode;
    out[INFO_LEG_IK_COUNT] = info.leg_ik_count;
    memcpy(out + INFO_LEG_IK, info.leg_ik, sizeof info.leg_ik);
    return INFO_SLOTS;
}

/* The handle's input arrays (4 and 3 floats per bone), writable by the host. */
PM_EXPORT float *pm_abi_groove_rotations(pm_abi_groove *h) { return h ? (float *)h->rotation : NULL; }
PM_EXPORT float *pm_abi_groove_translations(pm_abi_groove *h) { return h ? (float *)h->translation : NULL; }
/* The output floats (layout: OUT_* above, bone offsets from OUT_BONE_OFFSET) and the grooved pose's world
 * matrices (16 floats per bone), valid until pm_abi_groove_free. */
PM_EXPORT float *pm_abi_groove_output(pm_abi_groove *h) { return h ? h->out : NULL; }
PM_EXPORT float *pm_abi_groove_world(pm_abi_groove *h) {
    return h ? (float *)pm_groove_pose(h->g)->world : NULL;
}

/* One frame. rotations: 4 floats per bone (the handle's own array, a pose handle's, or 0 = rest pose);
 * translations: 3 floats per bone or 0 = zero offsets. flags: 1 = leg IK user-controlled, 2 = capture
 * the anchors again, 4 = offsets only (no evaluation, no leg solve). */
PM_EXPORT int32_t pm_abi_groove_offsets(pm_abi_groove *h, const float *rotations, const float *translations,
                                        double time_seconds, double bpm, uint32_t flags, char *errbuf) {
    pm_error err = {0};
    if (!h) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no groove handle"));
    pm_pose in = {0};
    in.bone_count = h->bone_count;
    in.rotation = (pm_quat *)rotations;
    in.translation = (pm_vec3 *)translations;
    pm_groove_frame fr;
    pm_beat_grid grid;
    pm_result r = pm_abi_grid_in(h->grid, &grid, &err);
    if (r == PM_OK)
        r = h->grid ? pm_groove_offsets_grid(h->g, rotations ? &in : NULL, time_seconds, &grid, flags, &fr, &err)
                    : pm_groove_offsets(h->g, rotations ? &in : NULL, time_seconds, bpm, flags, &fr, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    float *o = h->out;
    o[OUT_BEAT] = (float)fr.beat;
    memcpy(o + OUT_BODY, &fr.body_offset, 3 * sizeof(float));
    o[OUT_LEGS_SOLVED] = fr.legs_solved ? 1.0f : 0.0f;
    memcpy(o + OUT_FOOT_ERROR, fr.foot_error, 2 * sizeof(float));
    memcpy(o + OUT_ANCHOR, fr.anchor, 6 * sizeof(float));
    memcpy(o + OUT_ANCHOR_ROT, fr.anchor_rotation, 8 * sizeof(float));
    memcpy(o + OUT_LEG_ROT, fr.leg_rotation, 24 * sizeof(float));
    memcpy(o + OUT_BONE_OFFSET, fr.bone_offset, 4 * sizeof(float) * (size_t)h->bone_count);
    return 0;
}

/* Preview stepping on a host position (3 doubles): remove the previous step's body offset, add the one
 * for this time (zero when the squat bounce is off, skipped, or flags has 1 = leg IK user-controlled). */
PM_EXPORT int32_t pm_abi_groove_preview_step(pm_abi_groove *h, double *position, double time_seconds, double bpm,
                                             uint32_t flags, char *errbuf) {
    pm_error err = {0};
    pm_result r = h && position ? pm_groove_preview_update(h->g, &h->preview, position, time_seconds, bpm, flags, &err)
                                : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no groove handle or position");
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Remove the last preview offset from the position. */
PM_EXPORT void pm_abi_groove_preview_stop(pm_abi_groove *h, double *position) {
    if (h && position) pm_groove_preview_stop(&h->preview, position);
}

PM_EXPORT void pm_abi_groove_reset_anchors(pm_abi_groove *h) {
    if (h) pm_groove_reset_anchors(h->g);
}

/* IK mode of an IK bone in the groove's own evaluation: 0 auto, 1 on, 2 off. */
PM_EXPORT int32_t pm_abi_groove_set_ik_mode(pm_abi_groove *h, uint32_t bone, uint32_t mode, char *errbuf) {
    pm_error err = {0};
    pm_result r = h ? pm_pose_set_ik_mode(pm_groove_workspace(h->g), bone, (pm_ik_mode)mode, &err)
                    : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no groove handle");
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

static pm_result bake(const pm_skeleton *skeleton, const pm_vmd *base, const char *json, uint32_t len, double bpm,
                      uint32_t frames, float position_tolerance, float rotation_tolerance, const double *grid, uint8_t **out,
                      uint32_t *out_size, pm_groove_bake_report *rep, pm_error *err) {
    pm_groove_config cfg;
    *out = NULL;
    *out_size = 0;
    pm_result r = settings(json, len, &cfg, err);
    pm_groove_bake_options o = {0};
    o.frames = frames;
    o.position_tolerance = position_tolerance;
    o.rotation_tolerance = rotation_tolerance;
    if (r == PM_OK) r = pm_abi_grid_in(grid, &o.grid, err);
    pm_vmd *v = NULL;
    if (r == PM_OK) r = pm_groove_apply_to_vmd(base, skeleton, &cfg, bpm, &o, &v, rep, err);
    size_t n = 0;
    uint8_t *bytes = NULL;
    if (r == PM_OK) r = pm_abi_vmd_bytes(v, "groove", &bytes, &n, err);
    pm_vmd_free(v);
    if (r != PM_OK) {
        free(bytes);
        return r;
    }
    *out = bytes;
    *out_size = (uint32_t)n;
    return PM_OK;
}

/*
 * Bake: a new VMD file in *out (host frees). frames 0 = the base motion's length (16 beats without one);
 * tolerances 0 = defaults. report (8 doubles, may be 0): last frame, leg mode, keyed bones, keys written,
 * base keys copied, max position deviation (units), max rotation deviation (degrees), max foot error
 * (measured).
 */
PM_EXPORT int32_t pm_abi_groove_bake(const pm_skeleton *skeleton, const pm_vmd *base, const char *json, uint32_t len,
                                     double bpm, uint32_t frames, float position_tolerance, float rotation_tolerance,
                                     uint8_t **out, uint32_t *out_size, double *report, char *errbuf) {
    pm_error err = {0};
    pm_groove_bake_report rep;
    pm_result r = bake(skeleton, base, json, len, bpm, frames, position_tolerance, rotation_tolerance, NULL, out, out_size, &rep, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    if (report) {
        report[REPORT_FRAMES] = rep.frames, report[REPORT_LEG_MODE] = rep.leg_mode;
        report[REPORT_KEYED_BONES] = rep.keyed_bones, report[REPORT_KEYS] = rep.key_count;
        report[REPORT_COPIED_KEYS] = rep.copied_keys, report[REPORT_MAX_POSITION_ERROR] = rep.max_position_error;
        report[REPORT_MAX_ROTATION_ERROR] = rep.max_rotation_error, report[REPORT_MAX_FOOT_ERROR] = rep.max_foot_error;
    }
    return 0;
}

/* The same with the whole report as JSON in *report / *report_len (host frees; pmi_groove_bake_report_json's
 * fields, the landing report and the beat sync included), on a beat grid block (pm_abi_grid_in; 0 = the bpm). */
PM_EXPORT int32_t pm_abi_groove_bake_json(const pm_skeleton *skeleton, const pm_vmd *base, const char *json, uint32_t len,
                                          double bpm, uint32_t frames, float position_tolerance, float rotation_tolerance,
                                          const double *grid, uint8_t **out, uint32_t *out_size, char **report,
                                          uint32_t *report_len, char *errbuf) {
    pm_error err = {0};
    pm_groove_bake_report rep;
    *report = NULL;
    *report_len = 0;
    pm_result r = bake(skeleton, base, json, len, bpm, frames, position_tolerance, rotation_tolerance, grid, out, out_size, &rep, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    cJSON *j = pmi_groove_bake_report_json(&rep, skeleton);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text) {
        free(*out);
        *out = NULL;
        *out_size = 0;
        r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory for the report");
        return pm_abi_fail(errbuf, &err, r);
    }
    *report = text;
    *report_len = (uint32_t)strlen(text);
    return 0;
}
