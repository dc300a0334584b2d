/* The transition export (the caller is js-glue/transition.js): two VMD handles (pm_abi_vmd_read), a
 * skeleton handle, out come the VMD bytes and the report JSON. */
#include "pm_abi.h"

#include "procmotion/transition.h"
#include "transition/report.h"

#include <stdlib.h>

/* Bake a transition (pm_transition_bake): the VMD bytes in *out_vmd / *out_size and the report JSON in
 * *out_report / *out_report_len (host frees both). */
PM_EXPORT int32_t pm_abi_transition_bake(const pm_skeleton *skeleton, const pm_vmd *from, const pm_vmd *to, double from_frame,
                                         double to_frame, uint32_t frames, uint32_t to_loop_frames, uint8_t **out_vmd,
                                         uint32_t *out_size, char **out_report, uint32_t *out_report_len, char *errbuf) {
    pm_error err = {0};
    pm_transition_options o = {0};
    o.frames = frames;
    o.from_frame = from_frame;
    o.to_frame = to_frame;
    o.to_loop_frames = to_loop_frames;
    pm_transition_report rep;
    pm_vmd *res = NULL;
    pm_result r = pm_transition_bake(from, to, skeleton, &o, &res, &rep, &err);
    return pm_abi_bake_out(r, &err, "transition", res, r == PM_OK ? pmi_transition_report_json(&rep) : NULL, out_vmd, out_size,
                           out_report, out_report_len, errbuf);
}
