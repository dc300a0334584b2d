#include "kp_internal.h"
pm_result pmi_kp_from_vmd(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    (void)data, (void)size, (void)opts, (void)out;
    return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: vmd not yet");
}
