/* Internal: cJSON parsing that tells a syntax error from running out of memory (cJSON_ParseWithLength
 * returns NULL for both, so JSON readers reported an allocation failure as "not valid JSON"). */
#ifndef PROCMOTION_JSON_H
#define PROCMOTION_JSON_H

#include "common/internal.h"

#include <cjson/cJSON.h>

/* cJSON_ParseWithLength; on NULL, *why is PM_ERR_OUT_OF_MEMORY when the text is valid JSON as cJSON
 * reads it (so an allocation failed) and PM_ERR_BAD_FORMAT otherwise. */
cJSON *pmi_json_parse(const char *text, size_t len, pm_result *why);

/* Whether cJSON_ParseWithLength would accept the text, checked without allocating and at least as
 * strictly: an optional UTF-8 BOM, bytes <= 0x20 as whitespace, one value (bytes after it ignored),
 * nesting up to 1000, strict JSON numbers of at most 63 characters, escapes \b \f \n \r \t \" \\ \/
 * and \uXXXX with surrogates in pairs. */
bool pmi_json_syntax_ok(const char *text, size_t len);

#endif
