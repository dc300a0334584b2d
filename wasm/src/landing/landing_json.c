/* The landing reports as JSON (landing/report_json.h). */
#include "landing/report_json.h"

#include "common/json.h"

static double tidy(double v) { return isfinite(v) ? round(v * 1e7) / 1e7 : 0; }

void pmi_landing_report_json(cJSON *to, const char *key, const pm_landing_report *r, double tolerance,
                             const char *const *bone_names, const char *const *limb_names, bool *ok) {
    cJSON *j = pmi_json_add_object(to, key, ok);
    pmi_json_add_number(j, "maxError", tidy(r->max_error), ok);
    pmi_json_add_number(j, "rmsError", tidy(r->rms_error), ok);
    pmi_json_add_number(j, "penetration", tidy(r->penetration), ok);
    pmi_json_add_number(j, "stanceGap", tidy(r->stance_gap), ok);
    pmi_json_add_number(j, "maxSlide", tidy(r->max_slide), ok);
    pmi_json_add_number(j, "ikOffFrames", r->ik_off_frames, ok);
    pmi_json_add_number(j, "unreachableFrames", r->unreachable_frames, ok);
    pmi_json_add_number(j, "keyCount", r->key_count, ok);
    pmi_json_add_number(j, "propertyKeyCount", r->property_key_count, ok);
    pmi_json_add_number(j, "frames", r->frames, ok);
    pmi_json_add_number(j, "tolerance", tidy(tolerance), ok);
    pmi_json_add_bool(j, "landed", r->landed, ok);
    cJSON *limbs = pmi_json_add_object(j, "limbs", ok);
    for (uint32_t i = 0; i < r->limb_count && *ok; i++) {
        const pm_landing_limb_report *l = &r->limbs[i];
        cJSON *o = pmi_json_add_object(limbs, limb_names[i], ok);
        if (bone_names && bone_names[i]) pmi_json_add_string(o, "bone", bone_names[i], ok);
        pmi_json_add_bool(o, "steered", l->steered, ok);
        pmi_json_add_number(o, "frames", l->frames, ok);
        pmi_json_add_number(o, "maxError", tidy(l->max_error), ok);
        pmi_json_add_number(o, "rmsError", tidy(l->rms_error), ok);
        pmi_json_add_number(o, "worstFrame", l->worst_frame, ok);
        pmi_json_add_number(o, "penetration", tidy(l->penetration), ok);
        pmi_json_add_number(o, "stanceGap", tidy(l->stance_gap), ok);
        pmi_json_add_number(o, "stances", l->stances, ok);
        pmi_json_add_number(o, "maxSlide", tidy(l->max_slide), ok);
        pmi_json_add_number(o, "slideFrame", l->slide_frame, ok);
        pmi_json_add_number(o, "ikOffFrames", l->ik_off_frames, ok);
        pmi_json_add_number(o, "unreachableFrames", l->unreachable_frames, ok);
    }
}

void pmi_landing_body_json(cJSON *to, const char *key, const pm_landing_body_report *r, bool *ok) {
    cJSON *j = pmi_json_add_object(to, key, ok);
    pmi_json_add_number(j, "frames", r->frames, ok);
    if (r->hands) {
        cJSON *hands = pmi_json_add_object(j, "hands", ok);
        static const char *const side[2] = {"left", "right"};
        for (int s = 0; s < 2; s++) {
            cJSON *h = pmi_json_add_object(hands, side[s], ok);
            pmi_json_add_number(h, "clearance", tidy(r->hand_clearance[s]), ok);
            pmi_json_add_number(h, "frame", r->clearance_frame[s], ok);
            pmi_json_add_string(h, "capsule", pm_rig_capsule_name(r->clearance_capsule[s]), ok);
        }
    } else {
        pmi_json_add(j, "hands", cJSON_CreateNull(), ok);
    }
    cJSON *w = pmi_json_add_array(j, "wristRange", ok);
    for (int s = 0; s < 2; s++) pmi_json_add_number(w, NULL, tidy(r->wrist_range[s]), ok);
    pmi_json_add_number(j, "headTurnDeg", tidy(r->head_turn), ok);
    pmi_json_add_number(j, "pelvisSpeed", tidy(r->pelvis_speed), ok);
    pmi_json_add_number(j, "loopGap", tidy(r->loop_gap), ok);
}
