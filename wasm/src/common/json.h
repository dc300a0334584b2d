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
/* cJSON_PrintUnformatted(root) into out / *out_size as every to_json does (out == NULL: size only; out_cap
 * must hold the text and its NUL); deletes root. root NULL or ok false: PM_ERR_OUT_OF_MEMORY. `what`
 * starts the messages ("groove"). */
pm_result pmi_json_print(cJSON *root, bool ok, char *out, size_t out_cap, size_t *out_size, const char *what,
                         pm_error *err);

#endif
