/* The idle export: parameters as JSON, the model as a skeleton handle or name lists, out come the VMD
 * bytes and the info JSON (PM_ABI_LAYOUT_IDLE / IDLE_OUT in pm_abi_table.h; the caller is js-glue/idle.js). */
#include "pm_abi.h"

#include "idle/info.h"
#include "procmotion/idle.h"

#include <stdlib.h>

enum { PM_ABI_LAYOUT_IDLE(PM_ABI_SLOT_ENUM, I_) I_COUNT };
enum { PM_ABI_LAYOUT_IDLE_OUT(PM_ABI_SLOT_ENUM, IO_) IO_COUNT };
_Static_assert(I_PARENTS - I_HAS_MODEL == 6, "the model's slots, as pm_abi_target_in reads them");

/* Generate an idle loop (pm_idle_generate). Returns 0, or the pm_result with a message in errbuf. */
PM_EXPORT int32_t pm_abi_idle_generate(const uint32_t *d, uint32_t *o, char *errbuf) {
    pm_error err = {0};
    memset(o, 0, IO_COUNT * sizeof *o);
    pm_idle_params p;
    memset(&p, 0, sizeof p);
    pm_abi_target target;
    memset(&target, 0, sizeof target);
    pm_vmd *vmd = NULL;
    uint8_t *buf = NULL;
    char *info_text = NULL;
    cJSON *info_json = NULL;
    pm_idle_info *info = malloc(sizeof *info); /* large: not on the stack */
    pm_result r = info ? PM_OK : pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "idle: out of memory");
    if (r == PM_OK && d[I_JSON]) r = pm_idle_params_from_json((const char *)(uintptr_t)d[I_JSON], d[I_JSON_LEN], &p, &err);
    if (r == PM_OK) r = pm_abi_grid_in((const double *)(uintptr_t)d[I_GRID], &p.grid, &err);
    if (r == PM_OK) r = pm_abi_target_in(d + I_HAS_MODEL, "idle", &target, &err);
    if (r == PM_OK && d[I_SKELETON]) {
        memset(&target.model, 0, sizeof target.model);
        target.model.skeleton = (const pm_skeleton *)(uintptr_t)d[I_SKELETON];
        target.given = true;
    }
    if (r == PM_OK) r = pm_idle_generate(&p, target.given ? &target.model : NULL, &vmd, info, &err);
    size_t size = 0;
    if (r == PM_OK) r = pm_abi_vmd_bytes(vmd, "idle", &buf, &size, &err);
    if (r == PM_OK) {
        info_json = pmi_idle_info_json(info);
        info_text = info_json ? cJSON_PrintUnformatted(info_json) : NULL;
        if (!info_text) r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "idle: out of memory for the info");
    }
    if (r == PM_OK) {
        o[IO_VMD] = (uint32_t)(uintptr_t)buf;
        o[IO_VMD_SIZE] = (uint32_t)size;
        o[IO_INFO] = (uint32_t)(uintptr_t)info_text;
        o[IO_INFO_LEN] = (uint32_t)strlen(info_text);
        buf = NULL;
        info_text = NULL;
    }
    cJSON_Delete(info_json);
    free(info_text);
    free(buf);
    free(info);
    pm_vmd_free(vmd);
    pm_abi_target_free(&target);
    if (r) pm_abi_set_error(errbuf, &err);
    return (int32_t)r;
}
