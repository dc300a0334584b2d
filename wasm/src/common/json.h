/* Internal: cJSON parsing that tells a syntax error from running out of memory (cJSON_ParseWithLength
 * returns NULL for both, so JSON readers reported an allocation failure as "not valid JSON"). */
#ifndef PROCMOTION_JSON_H
#define PROCMOTION_JSON_H

#include "common/internal.h"

#include <cjson/cJSON.h>

/* cJSON_ParseWithLength; on NULL, *why is PM_ERR_OUT_OF_MEMORY when the text is valid JSON as cJSON
 * reads it (so an allocation failed) and PM_ERR_BAD_FORMAT otherwise. */
cJSON *pmi_json_parse(const char *text, size_t len, pm_result *why);
/* pmi_json_parse with the readers' messages: on NULL, *why is set and err says "<what>: out of memory
 * parsing the JSON" or "<what>: not valid JSON". */
cJSON *pmi_json_parse_for(const char *text, size_t len, const char *what, pm_result *why, pm_error *err);

/* Whether cJSON_ParseWithLength would accept the text, checked without allocating and at least as
 * strictly: an optional UTF-8 BOM, bytes <= 0x20 as whitespace, one value (bytes after it ignored),
 * nesting up to 1000, strict JSON numbers of at most 63 characters, escapes \b \f \n \r \t \" \\ \/
 * and \uXXXX with surrogates in pairs. */
bool pmi_json_syntax_ok(const char *text, size_t len);

/* Checked JSON building: every cJSON call can run out of memory, and an unchecked one leaves the output
 * silently incomplete (and leaks the detached item). Each helper attaches `item` to an object (key) or an
 * array (key NULL); a NULL item or a failed attach frees the item, clears *ok and returns NULL; with *ok
 * already false nothing more is built. Callers delete the root and fail when *ok is false. */
cJSON *pmi_json_add(cJSON *to, const char *key, cJSON *item, bool *ok);
/* pmi_json_add of a new empty object / array (one call instead of two at each of the writers' sites) */
cJSON *pmi_json_add_object(cJSON *to, const char *key, bool *ok);
cJSON *pmi_json_add_array(cJSON *to, const char *key, bool *ok);
void pmi_json_add_string(cJSON *to, const char *key, const char *v, bool *ok);
void pmi_json_add_number(cJSON *to, const char *key, double v, bool *ok);
void pmi_json_add_bool(cJSON *to, const char *key, bool v, bool *ok);
/* A float as the double that prints as its shortest decimal form (0.3f -> 0.3, not 0.300000011920929). */
double pmi_json_float(float v);
/* cJSON_PrintUnformatted(root) into out / *out_size as every to_json does (out == NULL: size only; out_cap
 * must hold the text and its NUL); deletes root. root NULL or ok false: PM_ERR_OUT_OF_MEMORY. `what`
 * starts the messages ("groove"). */
pm_result pmi_json_print(cJSON *root, bool ok, char *out, size_t out_cap, size_t *out_size, const char *what,
                         pm_error *err);

/* ---- reading fields ------------------------------------------------------------------------------
 * Every JSON reader checks its fields through these, so every message has one shape:
 *   "<module>: <path>.<key> must be <what>, got <value>"
 * for example "groove: joints.head.amp must be a number in [-180, 180] (degrees), got 200". */
typedef struct pmi_json_at {
    const char *module; /* "groove", "timeline JSON", "skeleton JSON", "gltf", "catwalk", "keypoints" */
    const char *path;   /* where the object is: "joints.head", "keyframes[0]"; "" or NULL at the root */
    pm_result code;     /* what a bad field gives: PM_ERR_BAD_FORMAT for files, PM_ERR_INVALID_ARGUMENT for settings */
    pm_error *err;
} pmi_json_at;

/* A value for a message: "200", "\"abc\"", "null", "true", "an array of 3", "an object"; "nothing" for NULL. */
void pmi_json_describe(const cJSON *v, char *buf, size_t cap);
/* Fails with "<module>: <path>.<key> must be <what>, got <v>" (`what` a printf format; key NULL: the
 * path alone). Returns at->code. */
pm_result pmi_json_fail(const pmi_json_at *at, const char *key, const cJSON *v, const char *what, ...) PMI_PRINTF(4, 5);
/* Fails with "<module>: <path>.<key> is not a field here (fields: <fields>)". Returns at->code. */
pm_result pmi_json_unknown(const pmi_json_at *at, const char *key, const char *fields);
/* v as a number in [lo, hi] (finite); `unit` (NULL for none) follows the range in the message, " (degrees)". */
pm_result pmi_json_number(const pmi_json_at *at, const char *key, const cJSON *v, double lo, double hi, const char *unit,
                          double *out);
/* v as a finite number. */
pm_result pmi_json_finite(const pmi_json_at *at, const char *key, const cJSON *v, double *out);
/* v as a whole number in [lo, hi]. */
pm_result pmi_json_whole(const pmi_json_at *at, const char *key, const cJSON *v, double lo, double hi, double *out);
/* v as an array of exactly n finite numbers within [-limit, limit], stored as floats. */
pm_result pmi_json_floats(const pmi_json_at *at, const char *key, const cJSON *v, int n, double limit, float *out);
/* v as true or false. */
pm_result pmi_json_bool(const pmi_json_at *at, const char *key, const cJSON *v, bool *out);

#endif
