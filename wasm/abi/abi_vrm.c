/* VRM export (procmotion/vrm.h): PMX/PMD bytes + textures + meta JSON -> GLB bytes and the report
 * (pm.pmxToVrm, js-glue/vrm.js). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/pmx.h"
#include "procmotion/vrm.h"
#include "vrm/meta.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

/* meta JSON keys (the VRM 1.0 names) -> pm_vrm_meta fields */
static const char *meta_string(const cJSON *meta, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}
static uint8_t meta_flag(const cJSON *meta, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, key);
    return cJSON_IsBool(v) ? (cJSON_IsTrue(v) ? 2 : 1) : 0;
}
/* A string or an array of strings as '\n'-separated text (malloc'd; NULL when absent). */
static char *meta_list(const cJSON *meta, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, key);
    if (cJSON_IsString(v)) {
        size_t n = strlen(v->valuestring) + 1;
        char *s = malloc(n);
        if (s) memcpy(s, v->valuestring, n);
        return s;
    }
    if (!cJSON_IsArray(v)) return NULL;
    size_t n = 1;
    const cJSON *it;
    cJSON_ArrayForEach(it, v) if (cJSON_IsString(it)) n += strlen(it->valuestring) + 1;
    char *s = malloc(n), *p = s;
    if (!s) return NULL;
    cJSON_ArrayForEach(it, v) if (cJSON_IsString(it)) {
        size_t k = strlen(it->valuestring);
        memcpy(p, it->valuestring, k);
        p += k;
        *p++ = '\n';
    }
    *p = '\0';
    return s;
}

/*
 * Convert the model in data/size. Textures: `texture_count` paths in the UTF-8 blob `paths` at
 * path_offsets[0..count] and their bytes in `blob` at blob_offsets[0..count]. options: a JSON object
 * { meta: { name, version, authors, copyrightInformation, contactInformation, references,
 * thirdPartyLicenses, licenseUrl, avatarPermission, commercialUsage, creditNotation, modification,
 * otherLicenseUrl, allow* }, materials: "mtoon" | "unlit", keepRestPose } (len 0: none). Out: the GLB
 * in *glb / *glb_size and the report JSON in *report / *report_len (both malloc'd, host frees with
 * pm_abi_free). Returns 0 or a pm_result with errbuf filled.
 */
PM_EXPORT int32_t pm_abi_vrm_from_model(const uint8_t *data, uint32_t size, const char *paths,
                                        const uint32_t *path_offsets, const uint8_t *blob,
                                        const uint32_t *blob_offsets, uint32_t texture_count, const char *options,
                                        uint32_t options_len, uint8_t **glb, uint32_t *glb_size, char **report,
                                        uint32_t *report_len, char *errbuf) {
    pm_error err = {0};
    *glb = NULL, *glb_size = 0, *report = NULL, *report_len = 0;
    pm_vrm_options o = {0};
    cJSON *opt = NULL;
    char *authors = NULL, *refs = NULL, **names = NULL;
    pm_vrm_texture *tex = NULL;
    pm_model *m = NULL;
    pm_vrm_result *res = NULL;
    pm_result r = PM_OK;
    if (options_len) {
        opt = cJSON_ParseWithLength(options, options_len);
        if (!cJSON_IsObject(opt)) r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "vrm: the options are not a JSON object");
    }
    const cJSON *meta = opt ? cJSON_GetObjectItemCaseSensitive(opt, "meta") : NULL;
    if (r == PM_OK && meta && !cJSON_IsObject(meta)) r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "vrm: meta is not an object");
    if (r == PM_OK && meta) {
        const char *key = pmi_vrm_meta_keys;
        for (int k = 0; k < PMI_VRM_META_TEXTS + PMI_VRM_META_FLAGS; k++, key += strlen(key) + 1)
            if (k >= PMI_VRM_META_TEXTS) pmi_vrm_meta_flag(&o.meta, k - PMI_VRM_META_TEXTS) = meta_flag(meta, key);
            else if (k == 2) o.meta.authors = authors = meta_list(meta, key);
            else if (k == 5) o.meta.references = refs = meta_list(meta, key);
            else pmi_vrm_meta_text(&o.meta, k) = meta_string(meta, key);
    }
    const char *mat = opt ? meta_string(opt, "materials") : NULL;
    if (r == PM_OK && mat) {
        if (strcmp(mat, "unlit") == 0) o.materials = PM_VRM_MATERIALS_UNLIT;
        else if (strcmp(mat, "mtoon") == 0) o.materials = PM_VRM_MATERIALS_MTOON;
        else r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "vrm: materials \"%s\" is neither \"mtoon\" nor \"unlit\"", mat);
    }
    o.keep_rest_pose = opt && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "keepRestPose"));
    if (r == PM_OK && texture_count) {
        tex = calloc(texture_count, sizeof *tex);
        names = calloc(texture_count, sizeof *names);
        if (!tex || !names) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory for %u textures", texture_count);
        for (uint32_t t = 0; t < texture_count && r == PM_OK; t++) {
            if (path_offsets[t + 1] < path_offsets[t] || blob_offsets[t + 1] < blob_offsets[t]) {
                r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "vrm: texture %u has bad offsets", t);
                break;
            }
            uint32_t n = path_offsets[t + 1] - path_offsets[t];
            if (!(names[t] = malloc(n + 1))) {
                r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory");
                break;
            }
            memcpy(names[t], paths + path_offsets[t], n);
            names[t][n] = '\0';
            tex[t].path = names[t];
            tex[t].data = blob + blob_offsets[t];
            tex[t].size = blob_offsets[t + 1] - blob_offsets[t];
        }
        o.textures = tex;
        o.texture_count = texture_count;
    }
    if (r == PM_OK) r = pm_model_load(data, size, NULL, &m, &err);
    if (r == PM_OK) r = pm_vrm_from_model(m, &o, &res, &err);
    if (r == PM_OK && res->glb_size > UINT32_MAX) r = pmi_fail(&err, PM_ERR_LIMIT, "vrm: the file is too large");
    if (r == PM_OK) {
        /* hand the buffers over (the result's allocator is malloc: o.allocator is zero) */
        *glb = res->glb, *glb_size = (uint32_t)res->glb_size;
        *report = res->report_json, *report_len = (uint32_t)res->report_json_length;
        res->glb = NULL;
        res->report_json = NULL;
    }
    pm_vrm_result_free(res);
    pm_model_free(m);
    for (uint32_t t = 0; names && t < texture_count; t++) free(names[t]);
    free(names), free(tex), free(authors), free(refs);
    cJSON_Delete(opt);
    if (r) return pm_abi_fail(errbuf, &err, r);
    return 0;
}
