/* Parameter tables: defaults, checks, JSON in and out (common/params.h). */
#include "common/params.h"

static pm_amount *amount_at(void *params, const pmi_param *p) { return (pm_amount *)((char *)params + p->offset); }

pm_result pmi_params_resolve(const char *module, const pmi_param *table, size_t n, void *params, pm_error *err) {
    for (size_t i = 0; i < n; i++) {
        pm_amount *a = amount_at(params, &table[i]);
        if (!a->set) {
            a->set = true;
            a->value = table[i].def;
        } else if (!(isfinite(a->value) && a->value >= table[i].lo && a->value <= table[i].hi)) {
            char got[40];
            pmi_format(got, sizeof got, "%g", (double)a->value);
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: %s must be a number in [%g, %g]%s, got %s", module, table[i].name,
                            (double)table[i].lo, (double)table[i].hi, table[i].unit ? table[i].unit : "", got);
        }
    }
    return PM_OK;
}

const pmi_param *pmi_params_find(const pmi_param *table, size_t n, const char *key) {
    for (size_t i = 0; key && i < n; i++)
        if (strcmp(table[i].name, key) == 0) return &table[i];
    return NULL;
}

pm_result pmi_params_read(const pmi_json_at *at, const pmi_param *p, const cJSON *v, void *params) {
    pm_amount *a = amount_at(params, p);
    if (cJSON_IsNull(v)) {
        a->set = false;
        a->value = 0;
        return PM_OK;
    }
    double x;
    pm_result r = pmi_json_number(at, p->name, v, p->lo, p->hi, p->unit, &x);
    if (r != PM_OK) return r;
    a->set = true;
    a->value = (float)x;
    return PM_OK;
}

void pmi_params_json(cJSON *obj, const pmi_param *table, size_t n, const void *params, bool *ok) {
    for (size_t i = 0; i < n; i++)
        pmi_json_add_number(obj, table[i].name, pmi_json_float(((const pm_amount *)((const char *)params + table[i].offset))->value), ok);
}

pm_result pmi_params_tolerances(const char *module, float *position, float *rotation, pm_error *err) {
    if (*position == 0) *position = 0.01f;
    if (*rotation == 0) *rotation = 0.2f;
    if (!(*position >= 0.0005f && *position <= 0.5f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: positionTolerance must be a number in [0.0005, 0.5] (units), got %g", module,
                        (double)*position);
    if (!(*rotation >= 0.01f && *rotation <= 10))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: rotationTolerance must be a number in [0.01, 10] (degrees), got %g", module,
                        (double)*rotation);
    return PM_OK;
}

pm_result pmi_params_read_common(const pmi_json_at *at, const char *k, const cJSON *v, float *bpm, uint32_t *seed, float *position,
                                 float *rotation, bool *handled) {
    double x = 0;
    pm_result r = PM_OK;
    *handled = true;
    if (strcmp(k, "bpm") == 0) {
        if (!cJSON_IsNull(v) && (r = pmi_json_finite(at, k, v, &x)) == PM_OK && x != 0 && !(x >= 40 && x <= 240))
            r = pmi_json_fail(at, k, v, "null, 0 or a number in [40, 240]");
        *bpm = (float)x;
    } else if (strcmp(k, "seed") == 0) {
        if (!cJSON_IsNull(v)) r = pmi_json_whole(at, k, v, 0, 4294967295.0, &x);
        *seed = (uint32_t)x;
    } else if (strcmp(k, "positionTolerance") == 0) {
        if (!cJSON_IsNull(v)) r = pmi_json_number(at, k, v, 0.0005, 0.5, " (units)", &x);
        *position = (float)x;
    } else if (strcmp(k, "rotationTolerance") == 0) {
        if (!cJSON_IsNull(v)) r = pmi_json_number(at, k, v, 0.01, 10, " (degrees)", &x);
        *rotation = (float)x;
    } else {
        *handled = false;
    }
    return r;
}

void pmi_params_json_common(cJSON *obj, float bpm, uint32_t seed, float position, float rotation, bool *ok) {
    pmi_json_add_number(obj, "bpm", pmi_json_float(bpm), ok);
    pmi_json_add_number(obj, "seed", seed, ok);
    pmi_json_add_number(obj, "positionTolerance", pmi_json_float(position), ok);
    pmi_json_add_number(obj, "rotationTolerance", pmi_json_float(rotation), ok);
}

pm_result pmi_params_from_json(const char *module, const char *json, size_t len, const pmi_param *table, size_t n,
                               const pmi_params_common_at *common, pmi_params_other_fn other, const char *fields, void *params,
                               size_t params_size, pm_error *err) {
    memset(params, 0, params_size);
    if (!json) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: no JSON", module);
    pm_result why;
    cJSON *root = pmi_json_parse_for(json, len, module, &why, err);
    if (!root) return why;
    const pmi_json_at at = {module, "", PM_ERR_INVALID_ARGUMENT, err};
    char *base = params;
    pm_result r = PM_OK;
    if (!cJSON_IsObject(root)) r = pmi_json_fail(&at, NULL, root, "an object");
    for (const cJSON *v = root->child; v && r == PM_OK; v = v->next) {
        const char *k = v->string;
        const pmi_param *pp = pmi_params_find(table, n, k);
        bool handled = false;
        if (pp) {
            r = pmi_params_read(&at, pp, v, params);
            continue;
        }
        if ((r = pmi_params_read_common(&at, k, v, (float *)(base + common->bpm), (uint32_t *)(base + common->seed),
                                        (float *)(base + common->position_tolerance), (float *)(base + common->rotation_tolerance),
                                        &handled)) != PM_OK ||
            handled)
            continue;
        if (other && ((r = other(&at, k, v, params, &handled)) != PM_OK || handled)) continue;
        r = pmi_json_unknown(&at, k, fields);
    }
    cJSON_Delete(root);
    return r;
}
