/* Rig export: the analysis of a skeleton handle (procmotion/rig.h) as JSON (pm.analyzeRig). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/rig.h"

#include <stdlib.h>

/* Analyse skeleton `s` and return the JSON of pm_rig_to_json in *out (malloc'd, host frees with
 * pm_abi_free; *out_len bytes without the NUL). 0 or a pm_result with errbuf filled. */
PM_EXPORT int32_t pm_abi_rig_json(const pm_skeleton *s, char **out, uint32_t *out_len, char *errbuf) {
    pm_error err = {0};
    *out = NULL;
    *out_len = 0;
    pm_rig *rig = NULL;
    size_t n = 0;
    char *text = NULL;
    pm_result r = pm_rig_analyze(s, NULL, &rig, &err);
    if (r == PM_OK) r = pm_rig_to_json(rig, NULL, 0, &n, &err);
    if (r == PM_OK && n >= UINT32_MAX) r = pmi_fail(&err, PM_ERR_LIMIT, "rig: the JSON is too large");
    if (r == PM_OK && !(text = malloc(n + 1))) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "rig: out of memory for JSON");
    if (r == PM_OK) r = pm_rig_to_json(rig, text, n + 1, &n, &err);
    pm_rig_free(rig);
    if (r) {
        free(text);
        return pm_abi_fail(errbuf, &err, r);
    }
    *out = text;
    *out_len = (uint32_t)n;
    return 0;
}
