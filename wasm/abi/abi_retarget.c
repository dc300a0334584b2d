/* The retarget export (the caller is js-glue/retarget.js): the motion file's bytes and a skeleton handle
 * (0: the mannequin), out come the VMD bytes and the report JSON. */
#include "pm_abi.h"

#include "procmotion/retarget.h"
#include "retarget/report.h"

#include <stdlib.h>

/* Retarget (pm_humanoid_motion_read, then pm_retarget): the VMD bytes in *out_vmd / *out_size and the report
 * JSON in *out_report / *out_report_len (host frees both). */
PM_EXPORT int32_t pm_abi_retarget(const uint8_t *motion, uint32_t motion_size, uint32_t animation, const pm_skeleton *skeleton,
                                  uint8_t **out_vmd, uint32_t *out_size, char **out_report, uint32_t *out_report_len, char *errbuf) {
    pm_error err = {0};
    pm_humanoid_motion_options mo = {0};
    mo.animation = animation;
    pm_humanoid_motion *m = NULL;
    pm_retarget_report rep;
    pm_vmd *res = NULL;
    pm_result r = pm_humanoid_motion_read(motion, motion_size, &mo, &m, &err);
    if (r == PM_OK) r = pm_retarget(m, skeleton, NULL, &res, &rep, &err);
    pm_humanoid_motion_free(m);
    return pm_abi_bake_out(r, &err, "retarget", res, r == PM_OK ? pmi_retarget_report_json(&rep) : NULL, out_vmd, out_size, out_report,
                           out_report_len, errbuf);
}
