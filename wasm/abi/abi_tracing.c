/* Tracing exports: trajectories sampled by arc length, and a timeline handle (keyframes as JSON objects,
 * drafts, generation, evaluation into module-memory pose arrays, trace states, baking to VMD bytes, the
 * whole timeline as JSON).
 *
 * `skeleton` is a pm_skeleton* from the skeleton/PMX exports; it must outlive the timeline handle.
 * Functions returning int32 return 0 (PM_OK) or a pm_result with a message in errbuf
 * (PM_ABI_ERROR_SIZE bytes). Text and bytes handed out through (out, size) pairs are malloc'd: the host
 * frees them with pm_abi_free. An easing is packed as x1 | y1 << 8 | x2 << 16 | y2 << 24. */
#include "pm_abi.h"

#include "common/internal.h"
#include "beats/grid.h"
#include "tracing/report.h"
#include "procmotion/tracing.h"
#include "math/inline.h"

#include <stdlib.h>

/* Slots of pm_abi_timeline_trace_state and pm_abi_timeline_trajectory (pm_abi_table.h). */
enum { PM_ABI_LAYOUT_TRACE_STATE(PM_ABI_SLOT_ENUM, TS_) TS_COUNT };
enum { PM_ABI_LAYOUT_TRAJECTORY(PM_ABI_SLOT_ENUM, TJ_) TJ_COUNT };
enum { PM_ABI_LAYOUT_TRAJECTORY_INFO(PM_ABI_SLOT_ENUM, TI_) TI_COUNT };
enum { PM_ABI_LAYOUT_TRACE_BAKE(PM_ABI_SLOT_ENUM, TB_) TB_COUNT };
_Static_assert(TJ_POLE - TJ_POINTS == 3 * PM_TRAJECTORY_MAX_POINTS, "trajectory: 3 floats per point");
PM_ABI_ENUM_LIMB(PM_ABI_CHECK_ENUM, limb)
PM_ABI_ENUM_TRAJECTORY_MODE(PM_ABI_CHECK_ENUM, trajectory_mode)

typedef struct pm_abi_timeline {
    pm_timeline *tl;
    pm_pose *pose;
    double *grid; /* the bake's beat grid block (pm_abi_timeline_set_grid), NULL = none */
} pm_abi_timeline;

static int32_t no_handle(char *errbuf) {
    pm_error err = {0};
    return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no timeline handle"));
}

static pm_easing unpack_easing(uint32_t v) {
    pm_easing e = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return e;
}

/* Sample the path through points (n x 3 floats) at `count` values of t, writing count x 3 floats. */
PM_EXPORT int32_t pm_abi_trajectory_sample(uint32_t mode, const float *points, uint32_t n, const float *ts,
                                           uint32_t count, float *out, char *errbuf) {
    pm_error err = {0};
    if ((n && !points) || (count && (!ts || !out)))
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no buffers"));
    for (uint32_t i = 0; i < count; i++) {
        pm_vec3 p;
        pm_result r = pm_trajectory_sample((pm_trajectory_mode)mode, (const pm_vec3 *)points, n, ts[i], &p, &err);
        if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
        out[3 * i] = p.x, out[3 * i + 1] = p.y, out[3 * i + 2] = p.z;
    }
    return 0;
}

/* The path's arc length into *out. */
PM_EXPORT int32_t pm_abi_trajectory_length(uint32_t mode, const float *points, uint32_t n, double *out, char *errbuf) {
    pm_error err = {0};
    pm_result r = pm_trajectory_length((pm_trajectory_mode)mode, (const pm_vec3 *)points, n, out, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

PM_EXPORT void pm_abi_timeline_free(pm_abi_timeline *h) {
    if (!h) return;
    pm_pose_free(h->pose);
    pm_timeline_free(h->tl);
    free(h->grid);
    free(h);
}

/* The beat grid the bakes land the keyframes on (a block as pm_abi_grid_in reads it, copied; 0 = none).
 * Checked. */
PM_EXPORT int32_t pm_abi_timeline_set_grid(pm_abi_timeline *h, const double *block, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_beat_grid g;
    pm_result r = pm_abi_grid_in(block, &g, &err);
    if (r == PM_OK && block) r = pm_beat_grid_check(&g, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    double *copy = NULL;
    if (block && !(copy = malloc((PM_ABI_GRID_HEADER + (size_t)g.beat_count) * sizeof *copy)))
        return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "tracing: out of memory for the grid"));
    if (copy) memcpy(copy, block, (PM_ABI_GRID_HEADER + (size_t)g.beat_count) * sizeof *copy);
    free(h->grid);
    h->grid = copy;
    return 0;
}

static pm_abi_timeline *wrap(const pm_skeleton *skeleton, pm_timeline *tl, pm_result r, pm_error *err, char *errbuf) {
    pm_abi_timeline *h = NULL;
    if (r == PM_OK) {
        h = calloc(1, sizeof *h);
        if (!h) r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for a timeline handle");
    }
    if (h) {
        h->tl = tl;
        r = pm_pose_create(skeleton, NULL, &h->pose, err);
    }
    if (r != PM_OK) {
        if (h) pm_abi_timeline_free(h);
        else pm_timeline_free(tl);
        pm_abi_fail(errbuf, err, r);
        return NULL;
    }
    return h;
}

/* An empty timeline on `skeleton` (bpm 0 = 120). Returns the handle or 0 with a message in errbuf. */
PM_EXPORT pm_abi_timeline *pm_abi_timeline_create(const pm_skeleton *skeleton, double bpm, char *errbuf) {
    pm_error err = {0};
    pm_timeline *tl = NULL;
    pm_timeline_options o = {{0}, bpm};
    pm_result r = pm_timeline_create(skeleton, &o, &tl, &err);
    return wrap(skeleton, tl, r, &err, errbuf);
}

/* A timeline from JSON text (UTF-8, len bytes). */
PM_EXPORT pm_abi_timeline *pm_abi_timeline_from_json(const pm_skeleton *skeleton, const char *json, uint32_t len,
                                                     char *errbuf) {
    pm_error err = {0};
    pm_timeline *tl = NULL;
    pm_result r = pm_timeline_from_json(json, len, skeleton, NULL, &tl, &err);
    return wrap(skeleton, tl, r, &err, errbuf);
}

/* Hand malloc'd text to the host through (out, len). */
static int32_t give_text(pm_result r, char *text, size_t n, char **out, uint32_t *len, const pm_error *err,
                         char *errbuf) {
    if (r != PM_OK) {
        free(text);
        return pm_abi_fail(errbuf, err, r);
    }
    *out = text;
    *len = (uint32_t)n;
    return 0;
}

/* The whole timeline (whole) or keyframe `index` as JSON text. */
static pm_result timeline_json(const pm_timeline *tl, bool whole, uint32_t index, char *out, size_t cap, size_t *n,
                               pm_error *err) {
    return whole ? pm_timeline_to_json(tl, out, cap, n, err) : pm_timeline_keyframe_to_json(tl, index, out, cap, n, err);
}

/* timeline_json's text handed to the host: measured, then written. */
static int32_t give_json(const pm_abi_timeline *h, bool whole, uint32_t index, char **out, uint32_t *len, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    size_t n = 0;
    pm_result r = timeline_json(h->tl, whole, index, NULL, 0, &n, &err);
    char *text = r == PM_OK ? malloc(n + 1) : NULL;
    if (r == PM_OK && !text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for %zu bytes of JSON", n);
    if (r == PM_OK) r = timeline_json(h->tl, whole, index, text, n + 1, &n, &err);
    return give_text(r, text, n, out, len, &err, errbuf);
}

PM_EXPORT int32_t pm_abi_timeline_to_json(const pm_abi_timeline *h, char **out, uint32_t *len, char *errbuf) {
    return give_json(h, true, 0, out, len, errbuf);
}

PM_EXPORT int32_t pm_abi_timeline_keyframe_json(const pm_abi_timeline *h, uint32_t index, char **out, uint32_t *len,
                                                char *errbuf) {
    return give_json(h, false, index, out, len, errbuf);
}

PM_EXPORT double pm_abi_timeline_bpm(const pm_abi_timeline *h) { return h ? pm_timeline_bpm(h->tl) : 0; }

PM_EXPORT int32_t pm_abi_timeline_set_bpm(pm_abi_timeline *h, double bpm, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_result r = pm_timeline_set_bpm(h->tl, bpm, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

PM_EXPORT uint32_t pm_abi_timeline_keyframe_count(const pm_abi_timeline *h) {
    return h ? pm_timeline_keyframe_count(h->tl) : 0;
}

/* Beat of keyframe i (-1 when out of range). */
PM_EXPORT double pm_abi_timeline_keyframe_beat(const pm_abi_timeline *h, uint32_t i) {
    pm_keyframe kf;
    return h && pm_timeline_get_keyframe(h->tl, i, &kf, NULL) == PM_OK ? kf.beat : -1;
}

PM_EXPORT uint32_t pm_abi_timeline_next_trace_id(const pm_abi_timeline *h) {
    return h ? pm_timeline_next_trace_id(h->tl) : 0;
}

/* Insert (or replace at its beat) a keyframe given as a JSON object; its position goes to *index. */
PM_EXPORT int32_t pm_abi_timeline_set_keyframe_json(pm_abi_timeline *h, const char *json, uint32_t len, uint32_t *index,
                                                    char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_result r = pm_timeline_set_keyframe_json(h->tl, json, len, index, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Insert the pose played at `beat` as a hand-made keyframe. */
PM_EXPORT int32_t pm_abi_timeline_capture_keyframe(pm_abi_timeline *h, double beat, uint32_t easing, uint32_t *index,
                                                   char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_result r = pm_timeline_capture_keyframe(h->tl, beat, unpack_easing(easing), index, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

PM_EXPORT int32_t pm_abi_timeline_remove_keyframe(pm_abi_timeline *h, uint32_t index, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_result r = pm_timeline_remove_keyframe(h->tl, index, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

PM_EXPORT void pm_abi_timeline_clear(pm_abi_timeline *h) {
    if (h) pm_timeline_clear(h->tl);
}

/* Set a limb's draft: n points (3 floats each; n = 0 clears), pole (3 floats) used when has_pole. */
PM_EXPORT int32_t pm_abi_timeline_set_trajectory(pm_abi_timeline *h, uint32_t limb, uint32_t mode, const float *points,
                                                 uint32_t n, uint32_t has_pole, const float *pole, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_trajectory tr = {(pm_trajectory_mode)mode, n, (const pm_vec3 *)points, has_pole != 0, {0, 0, 0}};
    if (has_pole && pole) tr.pole = pmi_vec3_make(pole[0], pole[1], pole[2]);
    pm_result r = pm_timeline_set_trajectory(h->tl, (pm_limb)limb, &tr, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* A limb's draft: returns its point count (0 = none); out receives TJ_COUNT floats (the points, 3 each,
 * then the pole); info receives TI_COUNT values (mode, has_pole). */
PM_EXPORT uint32_t pm_abi_timeline_trajectory(const pm_abi_timeline *h, uint32_t limb, float *out, uint32_t *info) {
    pm_trajectory tr;
    if (!h || !out || !info || !pm_timeline_get_trajectory(h->tl, (pm_limb)limb, &tr)) return 0;
    memcpy(out + TJ_POINTS, tr.points, tr.point_count * sizeof *tr.points);
    out[TJ_POLE] = tr.pole.x;
    out[TJ_POLE + 1] = tr.pole.y;
    out[TJ_POLE + 2] = tr.pole.z;
    info[TI_MODE] = (uint32_t)tr.mode;
    info[TI_HAS_POLE] = tr.has_pole ? 1 : 0;
    return tr.point_count;
}

PM_EXPORT int32_t pm_abi_timeline_default_pole(const pm_abi_timeline *h, uint32_t limb, float *out, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_vec3 p;
    pm_result r = pm_timeline_default_pole(h->tl, (pm_limb)limb, &p, &err);
    if (r != PM_OK) return pm_abi_fail(errbuf, &err, r);
    out[0] = p.x, out[1] = p.y, out[2] = p.z;
    return 0;
}

/* Generate `count` keyframes along the limb's draft from `start` beat, `step` beats apart (0 = 1). */
PM_EXPORT int32_t pm_abi_timeline_generate(pm_abi_timeline *h, uint32_t limb, uint32_t count, double start, double step,
                                           uint32_t easing, uint32_t *id, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_trace_generate g = {(pm_limb)limb, NULL, count, start, step, unpack_easing(easing)};
    pm_result r = pm_timeline_generate(h->tl, &g, id, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* Evaluate at `seconds` (by_beat 0) or at a beat (by_beat 1) into the handle's pose. */
PM_EXPORT int32_t pm_abi_timeline_evaluate(pm_abi_timeline *h, double when, uint32_t by_beat, char *errbuf) {
    pm_error err = {0};
    if (!h) return no_handle(errbuf);
    pm_result r = by_beat ? pm_timeline_evaluate_beat(h->tl, when, h->pose, &err)
                          : pm_timeline_evaluate(h->tl, when, h->pose, &err);
    return r == PM_OK ? 0 : pm_abi_fail(errbuf, &err, r);
}

/* The handle's pose, valid until pm_abi_timeline_free: world matrices (16 floats per bone), local
 * rotations and offsets (what the keyframes and the VMD hold), final rotations (after append and IK). */
PM_EXPORT float *pm_abi_timeline_world(pm_abi_timeline *h) { return h ? (float *)h->pose->world : NULL; }
PM_EXPORT float *pm_abi_timeline_rotations(pm_abi_timeline *h) { return h ? (float *)h->pose->rotation : NULL; }
PM_EXPORT float *pm_abi_timeline_translations(pm_abi_timeline *h) { return h ? (float *)h->pose->translation : NULL; }
PM_EXPORT float *pm_abi_timeline_final_rotations(pm_abi_timeline *h) {
    return h ? (float *)h->pose->final_rotation : NULL;
}

/* The last evaluation's state of a limb into TS_COUNT floats: active, id, t, root xyz, target xyz, pole
 * xyz, miss. */
PM_EXPORT void pm_abi_timeline_trace_state(const pm_abi_timeline *h, uint32_t limb, float *out) {
    pm_trace_state s;
    pm_timeline_trace_state(h ? h->tl : NULL, (pm_limb)limb, &s);
    out[TS_ACTIVE] = s.active ? 1.0f : 0.0f, out[TS_ID] = (float)s.id, out[TS_T] = s.t;
    memcpy(out + TS_ROOT, &s.root, 3 * sizeof(float));
    memcpy(out + TS_TARGET, &s.target, 3 * sizeof(float));
    memcpy(out + TS_POLE, &s.pole, 3 * sizeof(float));
    out[TS_MISS] = s.miss;
}

/* Bake with the handle's grid (bpm 0 = the timeline's; plan and report may be NULL) to malloc'd VMD
 * bytes in *bytes (NULL, or bytes the caller frees whatever the result). */
static pm_result bake_bytes(const pm_abi_timeline *h, double bpm, pm_trace_plan *plan, pm_landing_report *rep,
                            uint8_t **bytes, size_t *n, pm_error *err) {
    pm_timeline_bake_options o = {{0}, bpm, NULL, {0, 0, NULL, 0, 0, 0}};
    pm_abi_grid_in(h->grid, &o.grid, err);
    pm_vmd *vmd = NULL;
    *bytes = NULL;
    pm_result r = pm_timeline_bake_plan(h->tl, &o, &vmd, plan, rep, err);
    if (r == PM_OK) r = pm_abi_vmd_bytes(vmd, "tracing", bytes, n, err);
    pm_vmd_free(vmd);
    return r;
}

/*
 * The bake with its plan and report. o receives TB_COUNT uint32 slots (PM_ABI_LAYOUT_TRACE_BAKE), every
 * pointer host-freed with pm_abi_free: VMD bytes and size; hands (float, 6 per frame) and their float
 * count; ankles likewise; active (uint8, 4 per frame) and its size; the landing report as JSON and its
 * length (limbs named leftHand, rightHand, leftFoot, rightFoot).
 */
PM_EXPORT int32_t pm_abi_timeline_bake_plan(pm_abi_timeline *h, double bpm, uint32_t *o, char *errbuf) {
    pm_error err = {0};
    memset(o, 0, TB_COUNT * sizeof *o);
    if (!h) return no_handle(errbuf);
    pm_trace_plan plan;
    pm_landing_report rep;
    size_t n = 0;
    uint8_t *bytes;
    char *text = NULL;
    pm_result r = bake_bytes(h, bpm, &plan, &rep, &bytes, &n, &err);
    if (r == PM_OK) {
        bool ok = true;
        cJSON *j = cJSON_CreateObject();
        pmi_trace_report_json(j, "report", &rep, pm_timeline_skeleton(h->tl), &ok);
        cJSON *rj = cJSON_GetObjectItemCaseSensitive(j, "report"); /* report.sync: the keyframes on the grid */
        if (rj && plan.synced) pmi_beat_sync_json(rj, "sync", &plan.sync, &ok);
        else if (rj) cJSON_AddItemToObject(rj, "sync", cJSON_CreateNull());
        cJSON *inner = ok ? cJSON_DetachItemFromObjectCaseSensitive(j, "report") : NULL;
        text = inner ? cJSON_PrintUnformatted(inner) : NULL;
        cJSON_Delete(inner);
        cJSON_Delete(j);
        if (!text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for the report");
    }
    if (r != PM_OK) {
        free(bytes);
        pm_trace_plan_free(&plan);
        return pm_abi_fail(errbuf, &err, r);
    }
    const uint32_t n1 = plan.hands ? plan.frames + 1 : 0;
    o[TB_VMD] = (uint32_t)(uintptr_t)bytes, o[TB_VMD_SIZE] = (uint32_t)n;
    o[TB_HANDS] = (uint32_t)(uintptr_t)plan.hands, o[TB_HANDS_FLOATS] = 6 * n1;
    o[TB_ANKLES] = (uint32_t)(uintptr_t)plan.ankles, o[TB_ANKLES_FLOATS] = 6 * n1;
    o[TB_ACTIVE] = (uint32_t)(uintptr_t)plan.active, o[TB_ACTIVE_SIZE] = 4 * n1;
    o[TB_REPORT] = (uint32_t)(uintptr_t)text, o[TB_REPORT_LEN] = (uint32_t)strlen(text);
    return 0;
}
