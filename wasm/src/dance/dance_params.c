/* The dance's parameters: defaults, checks, JSON (see procmotion/dance.h). */
#include "dance/dance_internal.h"

#include "common/params.h"
#include "dance/info.h"
#include "beats/grid.h"
#include "landing/report_json.h"

#include <stddef.h>

#define P(name, member, lo, hi, def, unit) {name, offsetof(pm_dance_params, member), lo, hi, def, unit}
static const pmi_param PARAMS[] = {
    P("energy", energy, 0, 1, 0.6f, NULL),
    P("variety", variety, 0, 1, 0.5f, NULL),
    P("arms", arms, 0, 1, 0.5f, NULL),
    P("legs", legs, 0, 1, 0.5f, NULL),
    P("body", body, 0, 1, 0.5f, NULL),
    P("duration", duration, 0, 900, 0, " (seconds)"),
};
#undef P
#define PARAM_COUNT (sizeof PARAMS / sizeof PARAMS[0])
static const char FIELDS[] = "bpm, energy, variety, arms, legs, body, duration, style, seed, positionTolerance, rotationTolerance";

const char *pm_dance_style_name(pm_dance_style s) {
    static const char *const names[PM_DANCE_STYLE_COUNT] = {"pop", "hiphop", "idol"};
    return (unsigned)s < PM_DANCE_STYLE_COUNT ? names[s] : NULL;
}

pm_result pmi_dance_resolve_params(const pm_dance_params *in, pm_dance_params *out, pm_error *err) {
    pm_dance_params p;
    memset(&p, 0, sizeof p);
    if (in) p = *in;
    pm_result r = pmi_params_resolve("dance", PARAMS, PARAM_COUNT, &p, err);
    if (r != PM_OK) return r;
    if (!(isfinite(p.bpm) && (p.bpm == 0 || (p.bpm >= 40 && p.bpm <= 240))))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: bpm must be 0 (120) or a number in [40, 240], got %g", (double)p.bpm);
    if ((unsigned)p.style >= PM_DANCE_STYLE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: style must be pop, hiphop or idol, got %d", (int)p.style);
    const bool grid = pm_beat_grid_is_set(&p.grid);
    if (grid && (r = pmi_beat_grid_check_for("dance", &p.grid, UINT32_MAX, err)) != PM_OK) return r;
    if (grid && !(p.grid.bpm >= 20 && p.grid.bpm <= 500))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: the beat grid's bpm must be in [20, 500], got %g", p.grid.bpm);
    if (!grid) {
        if (p.duration.value == 0) p.duration.value = 16;
        if (!(p.duration.value >= 8 && p.duration.value <= 120))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: duration of a loop must be in [8, 120] seconds, got %g",
                            (double)p.duration.value);
    } else if (p.duration.value != 0 && p.duration.value < 1) {
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: duration must be 0 (the whole song) or in [1, 900] seconds, got %g",
                        (double)p.duration.value);
    }
    if (p.onset && !(p.onset_rate > 0 && isfinite(p.onset_rate)))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: onset_rate must be a positive number with an onset envelope, got %g",
                        p.onset_rate);
    if ((r = pmi_params_tolerances("dance", &p.position_tolerance, &p.rotation_tolerance, err)) != PM_OK) return r;
    if (p.seed == 0) p.seed = 1;
    *out = p;
    return PM_OK;
}

/* "style": "pop", "hiphop" or "idol" (null: the default). */
static pm_result read_style(const pmi_json_at *at, const char *k, const cJSON *v, void *params, bool *handled) {
    if (strcmp(k, "style") != 0) return PM_OK;
    *handled = true;
    if (cJSON_IsNull(v)) return PM_OK;
    for (int s = 0; s < PM_DANCE_STYLE_COUNT && cJSON_IsString(v); s++)
        if (strcmp(v->valuestring, pm_dance_style_name((pm_dance_style)s)) == 0) {
            ((pm_dance_params *)params)->style = (pm_dance_style)s;
            return PM_OK;
        }
    return pmi_json_fail(at, k, v, "\"pop\", \"hiphop\" or \"idol\"");
}

pm_result pm_dance_params_from_json(const char *json, size_t len, pm_dance_params *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "dance: no output parameters");
    memset(out, 0, sizeof *out);
    static const pmi_params_common_at COMMON = {offsetof(pm_dance_params, bpm), offsetof(pm_dance_params, seed),
                                                offsetof(pm_dance_params, position_tolerance), offsetof(pm_dance_params, rotation_tolerance)};
    pm_dance_params p;
    pm_result r = pmi_params_from_json("dance", json, len, PARAMS, PARAM_COUNT, &COMMON, read_style, FIELDS, &p, sizeof p, err);
    if (r == PM_OK) *out = p;
    return r;
}

void pmi_dance_params_json(cJSON *obj, const pm_dance_params *p, bool *ok) {
    pmi_params_json(obj, PARAMS, PARAM_COUNT, p, ok);
    pmi_json_add_string(obj, "style", pm_dance_style_name(p->style), ok);
    pmi_params_json_common(obj, p->bpm, p->seed, p->position_tolerance, p->rotation_tolerance, ok);
}

static void add_vec(cJSON *to, pm_vec3 v, bool *ok) {
    cJSON *a = pmi_json_add_array(to, NULL, ok);
    pmi_json_add_number(a, NULL, v.x, ok);
    pmi_json_add_number(a, NULL, v.y, ok);
    pmi_json_add_number(a, NULL, v.z, ok);
}

cJSON *pmi_dance_info_json(const pm_dance_info *info, const pm_dance_plan *plan) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    if (!j) return NULL;
    pmi_json_add_number(j, "frames", info->frames, &ok);
    pmi_json_add_number(j, "loopFrames", info->loop_frames, &ok);
    pmi_json_add_number(j, "bpm", info->bpm, &ok);
    pmi_json_add_number(j, "beatCount", info->beat_count, &ok);
    pmi_json_add_number(j, "firstGridBeat", info->first_grid_beat, &ok);
    pmi_json_add_number(j, "gridBeatsPerBeat", info->grid_beats_per_beat, &ok);
    pmi_json_add_number(j, "keyCount", info->key_count, &ok);
    pmi_json_add_number(j, "maxPositionError", info->max_position_error, &ok);
    pmi_json_add_number(j, "maxRotationErrorDeg", info->max_rotation_error, &ok);
    cJSON *used = pmi_json_add_array(j, "usedBones", &ok);
    for (uint32_t i = 0; i < info->used_count; i++) pmi_json_add_string(used, NULL, info->used[i], &ok);
    cJSON *missing = pmi_json_add_array(j, "missingBones", &ok);
    for (uint32_t i = 0; i < info->missing_count; i++) pmi_json_add_string(missing, NULL, info->missing[i], &ok);
    pmi_json_add_number(j, "crouch", info->crouch, &ok);
    cJSON *phrases = pmi_json_add_array(j, "phrases", &ok);
    for (uint32_t i = 0; i < info->phrase_count; i++) {
        const pm_dance_phrase *ph = &info->phrases[i];
        cJSON *o = pmi_json_add_object(phrases, NULL, &ok);
        pmi_json_add_number(o, "start", ph->start, &ok);
        pmi_json_add_number(o, "end", ph->end, &ok);
        pmi_json_add_number(o, "firstBeat", ph->first_beat, &ok);
        pmi_json_add_number(o, "id", ph->id, &ok);
        pmi_json_add_number(o, "section", ph->section, &ok);
        pmi_json_add_string(o, "step", pm_dance_move_name(ph->step), &ok);
        pmi_json_add_string(o, "arms", pm_dance_move_name(ph->arms), &ok);
        pmi_json_add_string(o, "ending", pm_dance_move_name(ph->ending), &ok);
        pmi_json_add(o, "mirrored", cJSON_CreateBool(ph->mirrored), &ok);
        pmi_json_add_number(o, "size", round(ph->size * 1e3) / 1e3, &ok);
    }
    pmi_json_add_number(j, "distinctPhrases", info->distinct_phrases, &ok);
    pmi_json_add_number(j, "longestRepeat", info->longest_repeat, &ok);
    pmi_json_add_number(j, "sectionCount", info->section_count, &ok);
    pmi_dance_params_json(pmi_json_add_object(j, "params", &ok), &info->params, &ok);
    if (info->verified) {
        const char *limbs[2] = {"left", "right"};
        pmi_landing_report_json(j, "report", &info->report, 0.01, NULL, limbs, &ok);
        pmi_landing_body_json(j, "body", &info->body, &ok);
    } else {
        pmi_json_add(j, "report", cJSON_CreateNull(), &ok);
        pmi_json_add(j, "body", cJSON_CreateNull(), &ok);
    }
    if (info->synced) pmi_json_add_string(pmi_beat_sync_json(j, "sync", &info->sync, &ok), "measured", "played", &ok);
    else pmi_json_add(j, "sync", cJSON_CreateNull(), &ok);
    if (plan && plan->beats) {
        cJSON *pl = pmi_json_add_object(j, "plan", &ok);
        pmi_json_add_number(pl, "frames", plan->frames, &ok);
        cJSON *floor = pmi_json_add_array(pl, "floor", &ok), *heel = pmi_json_add_array(pl, "heel", &ok), *ball = pmi_json_add_array(pl, "ball", &ok);
        for (int s = 0; s < 2; s++) {
            pmi_json_add_number(floor, NULL, plan->floor[s], &ok);
            add_vec(heel, plan->heel[s], &ok);
            add_vec(ball, plan->ball[s], &ok);
        }
        cJSON *beats = pmi_json_add_array(pl, "beats", &ok);
        for (uint32_t k = 0; k <= plan->beat_count; k++) pmi_json_add_number(beats, NULL, round(plan->beats[k] * 1e4) / 1e4, &ok);
    }
    if (ok) return j;
    cJSON_Delete(j);
    return NULL;
}
