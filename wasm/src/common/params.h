/* Internal: parameter tables. A generator whose parameters are amounts (pm_amount: set or default)
 * describes them once in a table (JSON name, place in its struct, range, default) and reads, checks and
 * writes them through these, with the JSON readers' message shape (common/json.h). */
#ifndef PROCMOTION_PARAMS_H
#define PROCMOTION_PARAMS_H

#include "common/json.h"

typedef struct pmi_param {
    const char *name;  /* the JSON name, "blinkDuration" */
    uint32_t offset;   /* offsetof the pm_amount in the parameter struct */
    float lo, hi, def; /* the range and the default */
    const char *unit;  /* follows the range in messages, " (seconds)"; NULL for none */
} pmi_param;

/* Every unset amount of `params` gets its default; a set one must be finite and within its range:
 * "<module>: <name> must be a number in [lo, hi]<unit>, got <v>" (PM_ERR_INVALID_ARGUMENT). */
pm_result pmi_params_resolve(const char *module, const pmi_param *table, size_t n, void *params, pm_error *err);

/* The table entry named `key`, or NULL. */
const pmi_param *pmi_params_find(const pmi_param *table, size_t n, const char *key);

/* Read one JSON value into the amount `p` names: null leaves it unset (the default), a number in range
 * sets it, anything else fails with at's message. */
pm_result pmi_params_read(const pmi_json_at *at, const pmi_param *p, const cJSON *v, void *params);

/* Every amount of resolved `params` into `obj` under its JSON name. */
void pmi_params_json(cJSON *obj, const pmi_param *table, size_t n, const void *params, bool *ok);

/* The key fit's tolerances every generator takes: 0 = 0.01 units and 0.2 degrees; else within [0.0005,
 * 0.5] units and [0.01, 10] degrees ("<module>: positionTolerance must be ..."). */
pm_result pmi_params_tolerances(const char *module, float *position, float *rotation, pm_error *err);

/* The JSON fields every generator reads besides its table: bpm (null, 0 or in [40, 240]), seed, and
 * positionTolerance and rotationTolerance. *handled is false for any other key. */
pm_result pmi_params_read_common(const pmi_json_at *at, const char *key, const cJSON *v, float *bpm, uint32_t *seed, float *position,
                                 float *rotation, bool *handled);

/* Where a parameter struct keeps the common fields (offsetof each: float bpm, uint32_t seed, float
 * position and rotation tolerances). */
typedef struct pmi_params_common_at {
    size_t bpm, seed, position_tolerance, rotation_tolerance;
} pmi_params_common_at;

/* Reads a key the table and the common fields do not: sets *handled when it knows `key`. */
typedef pm_result (*pmi_params_other_fn)(const pmi_json_at *at, const char *key, const cJSON *v, void *params, bool *handled);

/* A generator's parameters from JSON text into `params` (params_size bytes, zeroed first): an object
 * whose keys are the table's amounts, the common fields (at `common`'s offsets) or what `other` reads
 * (may be NULL). Any other key fails, listing `fields`. */
pm_result pmi_params_from_json(const char *module, const char *json, size_t len, const pmi_param *table, size_t n,
                               const pmi_params_common_at *common, pmi_params_other_fn other, const char *fields, void *params,
                               size_t params_size, pm_error *err);

/* The same fields as pmi_params_read_common reads, into obj. */
void pmi_params_json_common(cJSON *obj, float bpm, uint32_t seed, float position, float rotation, bool *ok);

#endif
