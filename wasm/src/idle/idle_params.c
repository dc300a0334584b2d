/* The idle's parameters: defaults, checks, JSON (see procmotion/idle.h). */
#include "idle/idle_internal.h"

#include "common/params.h"
#include "idle/info.h"
#include "landing/report_json.h"

#include <stddef.h>

#define P(name, member, lo, hi, def, unit) {name, offsetof(pm_idle_params, member), lo, hi, def, unit}
static const pmi_param PARAMS[] = {
    P("intensity", intensity, 0, 1, 0.5f, NULL),
    P("speed", speed, 0.25f, 3, 1, NULL),
    P("bodySway", body_sway, 0, 1, 0.5f, NULL),
    P("headMovement", head_movement, 0, 1, 0.5f, NULL),
    P("gestureFrequency", gesture_frequency, 0, 1, 0.5f, NULL),
    P("duration", duration, 30, 300, 32, " (seconds)"),
    P("blink", blink, 0, 1, 1, NULL),
};
#undef P
#define PARAM_COUNT (sizeof PARAMS / sizeof PARAMS[0])
static const char FIELDS[] = "bpm, intensity, speed, bodySway, headMovement, gestureFrequency, duration, blink, seed, positionTolerance, "
                             "rotationTolerance";

pm_result pmi_idle_resolve_params(const pm_idle_params *in, pm_idle_params *out, pm_error *err) {
    pm_idle_params p;
    memset(&p, 0, sizeof p);
    if (in) p = *in;
    pm_result r = pmi_params_resolve("idle", PARAMS, PARAM_COUNT, &p, err);
    if (r != PM_OK) return r;
    if (!(isfinite(p.bpm) && (p.bpm == 0 || (p.bpm >= 40 && p.bpm <= 240))))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "idle: bpm must be 0 (none) or a number in [40, 240], got %g", (double)p.bpm);
    if (pm_beat_grid_is_set(&p.grid) && (r = pm_beat_grid_check(&p.grid, err)) != PM_OK) return r;
    if (pm_beat_grid_is_set(&p.grid) && !(p.grid.bpm >= 40 && p.grid.bpm <= 240))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "idle: the beat grid's bpm must be in [40, 240], got %g", p.grid.bpm);
    if ((r = pmi_params_tolerances("idle", &p.position_tolerance, &p.rotation_tolerance, err)) != PM_OK) return r;
    if (p.seed == 0) p.seed = 1;
    *out = p;
    return PM_OK;
}

pm_result pm_idle_params_from_json(const char *json, size_t len, pm_idle_params *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "idle: no output parameters");
    memset(out, 0, sizeof *out);
    static const pmi_params_common_at COMMON = {offsetof(pm_idle_params, bpm), offsetof(pm_idle_params, seed),
                                                offsetof(pm_idle_params, position_tolerance), offsetof(pm_idle_params, rotation_tolerance)};
    pm_idle_params p;
    pm_result r = pmi_params_from_json("idle", json, len, PARAMS, PARAM_COUNT, &COMMON, NULL, FIELDS, &p, sizeof p, err);
    if (r == PM_OK) {
        pm_idle_params check;
        r = pmi_idle_resolve_params(&p, &check, err);
    }
    if (r == PM_OK) *out = p;
    return r;
}

const char *pm_idle_event_name(pm_idle_event_kind k) {
    static const char *const names[PM_IDLE_EVENT_KIND_COUNT] = {"shift", "touchHair", "lookAtHand", "adjustClothes", "stretch"};
    return (unsigned)k < PM_IDLE_EVENT_KIND_COUNT ? names[k] : NULL;
}

/* The parameters used, as JSON (for the info). */
void pmi_idle_params_json(cJSON *obj, const pm_idle_params *p, bool *ok) {
    pmi_json_add_number(obj, "bpm", pmi_json_float(p->bpm), ok);
    pmi_params_json(obj, PARAMS, PARAM_COUNT, p, ok);
    pmi_json_add_number(obj, "seed", p->seed, ok);
    pmi_json_add_number(obj, "positionTolerance", pmi_json_float(p->position_tolerance), ok);
    pmi_json_add_number(obj, "rotationTolerance", pmi_json_float(p->rotation_tolerance), ok);
}

static void add_vec(cJSON *to, const char *key, pm_vec3 v, bool *ok) {
    cJSON *a = pmi_json_add_array(to, key, ok);
    pmi_json_add_number(a, NULL, v.x, ok);
    pmi_json_add_number(a, NULL, v.y, ok);
    pmi_json_add_number(a, NULL, v.z, ok);
}

cJSON *pmi_idle_info_json(const pm_idle_info *info) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    if (!j) return NULL;
    pmi_json_add_number(j, "loopFrames", info->loop_frames, &ok);
    pmi_json_add_number(j, "bpm", info->bpm, &ok);
    pmi_json_add_number(j, "unitFrames", info->unit_frames, &ok);
    pmi_json_add_number(j, "keyCount", info->key_count, &ok);
    pmi_json_add_number(j, "morphKeyCount", info->morph_key_count, &ok);
    pmi_json_add_number(j, "maxPositionError", info->max_position_error, &ok);
    pmi_json_add_number(j, "maxRotationErrorDeg", info->max_rotation_error, &ok);
    cJSON *used = pmi_json_add_array(j, "usedBones", &ok);
    for (uint32_t i = 0; i < info->used_count; i++) pmi_json_add_string(used, NULL, info->used[i], &ok);
    cJSON *missing = pmi_json_add_array(j, "missingBones", &ok);
    for (uint32_t i = 0; i < info->missing_count; i++) pmi_json_add_string(missing, NULL, info->missing[i], &ok);
    if (info->blink_morph) pmi_json_add_string(j, "blinkMorph", info->blink_morph, &ok);
    else pmi_json_add(j, "blinkMorph", cJSON_CreateNull(), &ok);
    pmi_json_add_number(j, "crouch", info->crouch, &ok);
    pmi_json_add_number(j, "armHangDeg", info->arm_hang_deg, &ok);
    cJSON *events = pmi_json_add_array(j, "events", &ok);
    for (uint32_t i = 0; i < info->event_count; i++) {
        const pm_idle_event *e = &info->events[i];
        cJSON *o = pmi_json_add_object(events, NULL, &ok);
        pmi_json_add_string(o, "kind", pm_idle_event_name(e->kind), &ok);
        pmi_json_add_number(o, "start", e->start, &ok);
        pmi_json_add_number(o, "end", e->end, &ok);
        if (e->kind == PM_IDLE_SHIFT) pmi_json_add_number(o, "weight", round(e->value * 1e4) / 1e4, &ok);
        else pmi_json_add_string(o, "hand", e->value == 0 ? "left" : e->value == 1 ? "right" : "both", &ok);
    }
    pmi_idle_params_json(pmi_json_add_object(j, "params", &ok), &info->params, &ok);
    cJSON *plan = pmi_json_add_object(j, "plan", &ok);
    cJSON *ankles = pmi_json_add_array(plan, "ankles", &ok), *floor = pmi_json_add_array(plan, "floor", &ok);
    cJSON *heel = pmi_json_add_array(plan, "heel", &ok), *ball = pmi_json_add_array(plan, "ball", &ok);
    for (int s = 0; s < 2; s++) {
        add_vec(ankles, NULL, info->ankles[s], &ok);
        pmi_json_add_number(floor, NULL, info->floor[s], &ok);
        add_vec(heel, NULL, info->heel[s], &ok);
        add_vec(ball, NULL, info->ball[s], &ok);
    }
    if (info->verified) {
        const char *limbs[2] = {"left", "right"};
        pmi_landing_report_json(j, "report", &info->report, 0.01, NULL, limbs, &ok);
        pmi_landing_body_json(j, "body", &info->body, &ok);
    } else {
        pmi_json_add(j, "report", cJSON_CreateNull(), &ok);
        pmi_json_add(j, "body", cJSON_CreateNull(), &ok);
    }
    if (ok) return j;
    cJSON_Delete(j);
    return NULL;
}
