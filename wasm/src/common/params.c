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
