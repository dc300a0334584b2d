/* Catwalk export: parameters as a block of numbers, the model as name lists (and optional rest positions and
 * parents), out come the VMD bytes and an info JSON (the slots below are PM_ABI_LAYOUT_CATWALK* in
 * pm_abi_table.h; the caller is js-glue/main.js). */
#include "pm_abi.h"

#include "catwalk/entry.h"
#include "procmotion/vmd.h"
#include "math/inline.h"

#include <stdlib.h>

/* Input descriptor slots (uint32 each; pointers are offsets into the module's memory), as
 * PM_ABI_LAYOUT_CATWALK: the parameters (0, or a PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK block, read below); HAS_MODEL bit 0: a model is given
 * (else the standard figure, no morphs), bit 1: its bone names are given (else every semi-standard
 * bone); bone and morph names as count, then count + 1 byte offsets + the UTF-8 blob address; optional
 * float[3 * bones] world rest positions and int32[bones] parents (-1 = none); SKELETON: an optional
 * pm_skeleton handle (pm_abi_skeleton_from_*), the model (names, morphs, proportions, and the legs
 * landed on it), the name lists and positions then ignored; GRID: an optional beat grid block
 * (PM_ABI_LAYOUT_GRID_IN, read by pm_abi_grid_in): params.grid. */
enum { PM_ABI_LAYOUT_CATWALK(PM_ABI_SLOT_ENUM, CW_) CW_COUNT };
_Static_assert(CW_PARENTS - CW_HAS_MODEL == 6, "the model's slots, as pm_abi_target_in reads them");
/* Output slots (PM_ABI_LAYOUT_CATWALK_OUT): VMD bytes, info JSON, the plan's ankles
 * (float[6 * (loopFrames + 1)]) and contact (uint8[2 * (loopFrames + 1)]), all host-freed with
 * pm_abi_free. */
enum { PM_ABI_LAYOUT_CATWALK_OUT(PM_ABI_SLOT_ENUM, CW_OUT_) CW_OUT_COUNT };
/* The parameter block: a {given, value} pair per pmi_catwalk_field, in its order, name by name. */
enum { PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK(PM_ABI_SLOT_ENUM, CP_) CP_COUNT };
#define CHECK_FIELD(P, NAME, N) _Static_assert(CP_##NAME == 2 * PMI_CW_##NAME && (N) == 2, "catwalk parameter " #NAME);
PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK(CHECK_FIELD, )
_Static_assert(CP_COUNT == 2 * PMI_CW_FIELD_COUNT, "the catwalk's parameter block lists every field");
PM_ABI_ENUM_CATWALK_CADENCE(PM_ABI_CHECK_ENUM, catwalk_cadence)
PM_ABI_ENUM_CATWALK_ARMS(PM_ABI_CHECK_ENUM, catwalk_arms)
PM_ABI_ENUM_CATWALK_STYLE(PM_ABI_CHECK_ENUM, catwalk_style)
_Static_assert(0 PM_ABI_ENUM_CATWALK_CADENCE(PM_ABI_COUNT_ENUM, ) == PM_CATWALK_CADENCE_COUNT &&
                   0 PM_ABI_ENUM_CATWALK_ARMS(PM_ABI_COUNT_ENUM, ) == PM_CATWALK_ARMS_COUNT &&
                   0 PM_ABI_ENUM_CATWALK_STYLE(PM_ABI_COUNT_ENUM, ) == PM_CATWALK_STYLE_COUNT,
               "the catwalk's enums list every value");

/* The parameter block -> *p (zeroed first, and again on an error): each given value through the
 * checks pm_catwalk_params_from_json applies (pmi_catwalk_param_set), in field order. */
static pm_result params_in(const double *b, pm_catwalk_params *p, pm_error *err) {
    memset(p, 0, sizeof *p);
    for (int f = 0; b && f < PMI_CW_FIELD_COUNT; f++) {
        if (b[2 * f] == 0) continue;
        pm_result r = pmi_catwalk_param_set(p, (pmi_catwalk_field)f, b[2 * f + 1], NULL, err);
        if (r) {
            memset(p, 0, sizeof *p);
            return r;
        }
    }
    return PM_OK;
}

PM_EXPORT uint32_t pm_abi_catwalk_descriptor_slots(void) { return CW_COUNT; }

/* Both exports: `closing` NULL (the core's) generates the unlanded walk only. */
static int32_t catwalk_generate(const uint32_t *d, uint32_t *o, char *errbuf, const pmi_catwalk_closing *closing) {
    pm_error err = {0};
    memset(o, 0, CW_OUT_COUNT * sizeof *o);
    pm_catwalk_params params;
    pm_abi_target target;
    memset(&target, 0, sizeof target);
    pm_target_model model;
    memset(&model, 0, sizeof model);
    pm_vmd *vmd = NULL;
    pm_catwalk_plan plan;
    memset(&plan, 0, sizeof plan);
    uint8_t *buf = NULL;
    char *info_text = NULL;
    cJSON *info_json = NULL;
    pm_result r = params_in((const double *)(uintptr_t)d[CW_PARAMS], &params, &err);
    if (r) goto done;
    if ((r = pm_abi_target_in(d + CW_HAS_MODEL, "catwalk", &target, &err))) goto done;
    model = target.model;
    if (d[CW_SKELETON]) {
        memset(&model, 0, sizeof model);
        model.skeleton = (const pm_skeleton *)(uintptr_t)d[CW_SKELETON];
    }
    if (r == PM_OK) r = pm_abi_grid_in((const double *)(uintptr_t)d[CW_GRID], &params.grid, &err);
    if (r) goto done;
    pm_catwalk_info info;
    const pm_target_model *mp = d[CW_SKELETON] || target.given ? &model : NULL;
    if ((r = pmi_catwalk_generate(&params, mp, closing, &vmd, &info, &plan, &err))) goto done;
    size_t size = 0;
    if ((r = pm_abi_vmd_bytes(vmd, "catwalk", &buf, &size, &err))) goto done;
    info_json = pmi_catwalk_info_json(&info, &plan, closing);
    info_text = info_json ? cJSON_PrintUnformatted(info_json) : NULL;
    if (!info_text) {
        r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "catwalk: out of memory for the info");
        goto done;
    }
    /* the plan's arrays came from malloc (the params' default allocator): the host frees them */
    o[CW_OUT_PLAN] = (uint32_t)(uintptr_t)plan.ankles;
    o[CW_OUT_PLAN_FLOATS] = (plan.frames + 1) * 6;
    o[CW_OUT_CONTACT] = (uint32_t)(uintptr_t)plan.contact;
    o[CW_OUT_CONTACT_SIZE] = (plan.frames + 1) * 2;
    plan.ankles = NULL;
    plan.contact = NULL;
    o[CW_OUT_VMD] = (uint32_t)(uintptr_t)buf;
    o[CW_OUT_VMD_SIZE] = (uint32_t)size;
    o[CW_OUT_INFO] = (uint32_t)(uintptr_t)info_text;
    o[CW_OUT_INFO_LEN] = (uint32_t)strlen(info_text);
    buf = NULL;
    info_text = NULL;
done:
    pm_catwalk_plan_free(&plan);
    cJSON_Delete(info_json);
    free(info_text);
    free(buf);
    pm_vmd_free(vmd);
    pm_abi_target_free(&target);
    if (r) pm_abi_set_error(errbuf, &err);
    return (int32_t)r;
}

/*
 * Generate a catwalk that is not landed (the core module): a model given by bone names (with rest
 * positions and parents, or none). `d` holds pm_abi_catwalk_descriptor_slots() input slots, `o`
 * receives CW_OUT_COUNT output slots. A call that would land (no model or no bone names: the standard
 * figure; SKELETON) fails with PM_ERR_INVALID_ARGUMENT (the glue sends those to the next export).
 * Returns 0, or the pm_result with a message in errbuf.
 */
PM_EXPORT int32_t pm_abi_catwalk_generate(const uint32_t *d, uint32_t *o, char *errbuf) { return catwalk_generate(d, o, errbuf, NULL); }

/*
 * Generate a catwalk with the closing step (the motion module): the same descriptor and outputs, and
 * what pm_catwalk_generate_plan does: the standard figure landed on the mannequin, a model's skeleton
 * landed on it, names as the core's export.
 */
PM_EXPORT int32_t pm_abi_catwalk_generate_landed(const uint32_t *d, uint32_t *o, char *errbuf) {
    return catwalk_generate(d, o, errbuf, &pmi_catwalk_landing);
}
