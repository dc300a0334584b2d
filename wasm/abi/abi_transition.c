/* The transition export (the caller is js-glue/transition.js): two VMD handles (pm_abi_vmd_read), a
 * skeleton handle, out come the VMD bytes and the report JSON. */
#include "pm_abi.h"

#include "common/json.h"
#include "landing/report_json.h"
#include "procmotion/transition.h"

#include <stdlib.h>

/* Bake a transition (pm_transition_bake): the VMD bytes in *out_vmd / *out_size and the report JSON in
 * *out_report / *out_report_len (host frees both). */
PM_EXPORT int32_t pm_abi_transition_bake(const pm_skeleton *skeleton, const pm_vmd *from, const pm_vmd *to, double from_frame,
                                         double to_frame, uint32_t frames, uint32_t to_loop_frames, uint8_t **out_vmd,
                                         uint32_t *out_size, char **out_report, uint32_t *out_report_len, char *errbuf) {
    pm_error err = {0};
    *out_vmd = NULL, *out_size = 0, *out_report = NULL, *out_report_len = 0;
    pm_transition_options o = {0};
    o.frames = frames;
    o.from_frame = from_frame;
    o.to_frame = to_frame;
    o.to_loop_frames = to_loop_frames;
    pm_transition_report rep;
    pm_vmd *res = NULL;
    uint8_t *buf = NULL;
    char *text = NULL;
    size_t size = 0;
    pm_result r = pm_transition_bake(from, to, skeleton, &o, &res, &rep, &err);
    if (r == PM_OK) r = pm_abi_vmd_bytes(res, "transition", &buf, &size, &err);
    if (r == PM_OK) {
        bool ok = true;
        cJSON *j = cJSON_CreateObject();
        pmi_json_add_number(j, "frames", rep.frames, &ok);
        pmi_json_add_number(j, "steps", rep.steps, &ok);
        cJSON *d = pmi_json_add_array(j, "stepDistance", &ok);
        for (int s = 0; s < 2; s++) pmi_json_add_number(d, NULL, rep.step_distance[s], &ok);
        pmi_json_add_number(j, "keyedBones", rep.keyed_bones, &ok);
        pmi_json_add_number(j, "keyCount", rep.key_count, &ok);
        const char *limbs[2] = {"left", "right"};
        if (rep.verified) pmi_landing_report_json(j, "landing", &rep.landing, 0.01, NULL, limbs, &ok);
        else pmi_json_add(j, "landing", cJSON_CreateNull(), &ok);
        text = ok && j ? cJSON_PrintUnformatted(j) : NULL;
        cJSON_Delete(j);
        if (!text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "transition: out of memory for the report");
    }
    pm_vmd_free(res);
    if (r != PM_OK) {
        free(buf);
        free(text);
        return pm_abi_fail(errbuf, &err, r);
    }
    *out_vmd = buf, *out_size = (uint32_t)size, *out_report = text, *out_report_len = (uint32_t)strlen(text);
    return 0;
}
