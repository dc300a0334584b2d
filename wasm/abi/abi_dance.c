/* The dance export: parameters as JSON, a beat grid and the song's onset envelope, the model as a skeleton
 * handle or name lists; out come the VMD bytes and the info JSON (PM_ABI_LAYOUT_DANCE / IDLE_OUT in
 * pm_abi_table.h; the caller is js-glue/dance.js), and the plan's ankles and contact. */
#include "pm_abi.h"

#include "dance/info.h"
#include "procmotion/dance.h"

#include <stdlib.h>

enum { PM_ABI_LAYOUT_DANCE(PM_ABI_SLOT_ENUM, D_) D_COUNT };
enum { PM_ABI_LAYOUT_DANCE_OUT(PM_ABI_SLOT_ENUM, DO_) DO_COUNT };
_Static_assert(D_PARENTS - D_HAS_MODEL == 6, "the model's slots, as pm_abi_target_in reads them");

/* Generate a dance (pm_dance_generate). Returns 0, or the pm_result with a message in errbuf. */
PM_EXPORT int32_t pm_abi_dance_generate(const uint32_t *d, uint32_t *o, char *errbuf) {
    pm_error err = {0};
    memset(o, 0, DO_COUNT * sizeof *o);
    pm_dance_params p;
    memset(&p, 0, sizeof p);
    pm_abi_target target;
    memset(&target, 0, sizeof target);
    pm_vmd *vmd = NULL;
    cJSON *info_json = NULL;
    pm_dance_info *info = malloc(sizeof *info); /* large: not on the stack */
    pm_result r = info ? PM_OK : pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "dance: out of memory");
    if (r == PM_OK && d[D_JSON]) r = pm_dance_params_from_json((const char *)(uintptr_t)d[D_JSON], d[D_JSON_LEN], &p, &err);
    if (r == PM_OK) r = pm_abi_grid_in((const double *)(uintptr_t)d[D_GRID], &p.grid, &err);
    if (r == PM_OK && d[D_ONSET]) {
        p.onset = (const float *)(uintptr_t)d[D_ONSET];
        p.onset_count = d[D_ONSET_COUNT];
        p.onset_rate = d[D_ONSET_MILLIRATE] / 1000.0;
    }
    if (r == PM_OK) r = pm_abi_target_in(d + D_HAS_MODEL, "dance", &target, &err);
    if (r == PM_OK && d[D_SKELETON]) {
        memset(&target.model, 0, sizeof target.model);
        target.model.skeleton = (const pm_skeleton *)(uintptr_t)d[D_SKELETON];
        target.given = true;
    }
    pm_dance_plan plan;
    memset(&plan, 0, sizeof plan);
    if (r == PM_OK) r = pm_dance_generate_plan(&p, target.given ? &target.model : NULL, &vmd, info, &plan, &err);
    if (r == PM_OK) info_json = pmi_dance_info_json(info, &plan);
    free(info);
    pm_abi_target_free(&target);
    uint8_t *bytes = NULL;
    char *text = NULL;
    int32_t rc = pm_abi_bake_out(r, &err, "dance", vmd, info_json, &bytes, &o[DO_VMD_SIZE], &text, &o[DO_INFO_LEN], errbuf);
    o[DO_VMD] = (uint32_t)(uintptr_t)bytes;
    o[DO_INFO] = (uint32_t)(uintptr_t)text;
    if (rc == 0) {
        /* the plan's arrays came from malloc (the params' default allocator): the host frees them */
        o[DO_PLAN] = (uint32_t)(uintptr_t)plan.ankles;
        o[DO_PLAN_FLOATS] = (plan.frames + 1) * 6;
        o[DO_CONTACT] = (uint32_t)(uintptr_t)plan.contact;
        o[DO_CONTACT_SIZE] = (plan.frames + 1) * 2;
        plan.ankles = NULL, plan.contact = NULL;
    }
    pm_dance_plan_free(&plan);
    return rc;
}
