/* The lifelike layer's exports: settings JSON (checked, defaults filled), a runtime handle per skeleton
 * sampled per frame, and the bake over a VMD (the caller is js-glue/lifelike.js). `skeleton` is a
 * pm_skeleton* from the skeleton exports (it must outlive the handle), `vmd` a pm_vmd* from
 * pm_abi_vmd_read or 0. int32 results are 0 or a pm_result with a message in errbuf. */
#include "pm_abi.h"

#include "common/json.h"
#include "lifelike/report.h"
#include "math/inline.h"
#include "procmotion/lifelike.h"

#include <stdlib.h>

enum { PM_ABI_LAYOUT_LIFELIKE_OUT(PM_ABI_SLOT_ENUM, LO_) LO_COUNT };
_Static_assert(LO_COUNT == 1 + 4 * PM_LIFELIKE_CHANNEL_COUNT, "one rotation per lifelike channel");

typedef struct pm_abi_lifelike {
    pm_lifelike *l;
    float out[LO_COUNT];
} pm_abi_lifelike;

static pm_result settings_in(const char *json, uint32_t len, pm_lifelike_settings *s, pm_error *err) {
    memset(s, 0, sizeof *s);
    return json && len ? pm_lifelike_settings_from_json(json, len, s, err) : PM_OK;
}

/* The settings with every default filled in, as JSON in *out (host frees). */
PM_EXPORT int32_t pm_abi_lifelike_settings(const char *json, uint32_t len, char **out, uint32_t *out_len, char *errbuf) {
    pm_error err = {0};
    pm_lifelike_settings s;
    *out = NULL;
    *out_len = 0;
    size_t n = 0;
    pm_result r = settings_in(json, len, &s, &err);
    if (r == PM_OK) r = pm_lifelike_settings_to_json(&s, NULL, 0, &n, &err);
    char *text = r == PM_OK ? malloc(n + 1) : NULL;
    if (r == PM_OK && !text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "lifelike: out of memory for JSON");
    if (r == PM_OK) r = pm_lifelike_settings_to_json(&s, text, n + 1, &n, &err);
    if (r != PM_OK) {
        free(text);
        return pm_abi_fail(errbuf, &err, r);
    }
    *out = text;
    *out_len = (uint32_t)n;
    return 0;
}

PM_EXPORT void pm_abi_lifelike_free(pm_abi_lifelike *h) {
    if (!h) return;
    pm_lifelike_free(h->l);
    free(h);
}

/* A runtime handle for a skeleton (free with pm_abi_lifelike_free), or 0 with errbuf filled. */
PM_EXPORT pm_abi_lifelike *pm_abi_lifelike_create(const pm_skeleton *skeleton, const char *json, uint32_t len, char *errbuf) {
    pm_error err = {0};
    pm_lifelike_settings s;
    pm_target_model m;
    memset(&m, 0, sizeof m);
    m.skeleton = skeleton;
    pm_result r = skeleton ? settings_in(json, len, &s, &err) : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "lifelike: no skeleton");
    pm_abi_lifelike *h = r == PM_OK ? calloc(1, sizeof *h) : NULL;
    if (r == PM_OK && !h) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "lifelike: out of memory");
    if (r == PM_OK) r = pm_lifelike_create(&m, &s, NULL, &h->l, &err);
    if (r != PM_OK) {
        pm_abi_fail(errbuf, &err, r);
        pm_abi_lifelike_free(h);
        return NULL;
    }
    return h;
}

/* The handle's channels and settings as JSON in *out (host frees): { channels: [{ name, bone, boneName }],
 * blinkMorph, breathSeconds, settings }. */
PM_EXPORT int32_t pm_abi_lifelike_info(const pm_abi_lifelike *h, char **out, uint32_t *out_len, char *errbuf) {
    pm_error err = {0};
    *out = NULL;
    *out_len = 0;
    if (!h) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: no lifelike handle"));
    static const char *const CHANNELS[PM_LIFELIKE_CHANNEL_COUNT] = {"eyes", "leftEye", "rightEye", "head", "neck", "spine",
                                                                   "chest", "leftShoulder", "rightShoulder"};
    pm_lifelike_info info;
    pm_lifelike_get_info(h->l, &info);
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    cJSON *ch = pmi_json_add_array(j, "channels", &ok);
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
        cJSON *o = pmi_json_add_object(ch, NULL, &ok);
        pmi_json_add_string(o, "name", CHANNELS[c], &ok);
        pmi_json_add_number(o, "bone", info.bone[c] == PM_NO_INDEX ? -1 : (double)info.bone[c], &ok);
        if (info.bone_name[c]) pmi_json_add_string(o, "boneName", info.bone_name[c], &ok);
        else pmi_json_add(o, "boneName", cJSON_CreateNull(), &ok);
    }
    if (info.blink_morph) pmi_json_add_string(j, "blinkMorph", info.blink_morph, &ok);
    else pmi_json_add(j, "blinkMorph", cJSON_CreateNull(), &ok);
    pmi_json_add_number(j, "breathSeconds", info.breath_seconds, &ok);
    char *text = ok && j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text) return pm_abi_fail(errbuf, &err, pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "lifelike: out of memory for JSON"));
    *out = text;
    *out_len = (uint32_t)strlen(text);
    return 0;
}

/* The layer at `seconds`: the handle's output block (PM_ABI_LAYOUT_LIFELIKE_OUT), valid until the next
 * call; 0 for no handle. */
PM_EXPORT const float *pm_abi_lifelike_sample(pm_abi_lifelike *h, double seconds) {
    if (!h) return NULL;
    pm_lifelike_frame fr;
    pm_lifelike_sample(h->l, seconds, &fr);
    h->out[LO_BLINK] = fr.blink;
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
        float *q = h->out + LO_ROTATION + 4 * c;
        q[0] = fr.rotation[c].x, q[1] = fr.rotation[c].y, q[2] = fr.rotation[c].z, q[3] = fr.rotation[c].w;
    }
    return h->out;
}

/* Bake the layer over `vmd` (0: the rest pose) for `skeleton` (pm_lifelike_bake): the VMD bytes in
 * *out_vmd / *out_size and the report JSON in *out_report / *out_report_len (host frees both). */
PM_EXPORT int32_t pm_abi_lifelike_bake(const pm_skeleton *skeleton, const pm_vmd *vmd, const char *json, uint32_t len, uint32_t frames,
                                       uint8_t **out_vmd, uint32_t *out_size, char **out_report, uint32_t *out_report_len,
                                       char *errbuf) {
    pm_error err = {0};
    pm_lifelike_settings s;
    pm_target_model m;
    memset(&m, 0, sizeof m);
    m.skeleton = skeleton;
    pm_lifelike_bake_options o = {0};
    o.frames = frames;
    pm_lifelike_report rep;
    pm_vmd *res = NULL;
    pm_result r = skeleton ? settings_in(json, len, &s, &err) : pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "lifelike: no skeleton");
    if (r == PM_OK) r = pm_lifelike_bake(vmd, &m, &s, &o, &res, &rep, &err);
    return pm_abi_bake_out(r, &err, "lifelike", res, r == PM_OK ? pmi_lifelike_report_json(&rep) : NULL, out_vmd, out_size, out_report,
                           out_report_len, errbuf);
}
