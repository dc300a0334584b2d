/* The timeline bake's landing report as JSON, shared with the ABI and the CLI. */
#ifndef PROCMOTION_TRACING_REPORT_H
#define PROCMOTION_TRACING_REPORT_H

#include "common/internal.h"
#include "procmotion/tracing.h"

#include <cjson/cJSON.h>

/* The bake's landing report as JSON under `key` (limbs named leftHand, rightHand, leftFoot, rightFoot;
 * their bones from the skeleton), as pmi_landing_report_json. */
void pmi_trace_report_json(cJSON *to, const char *key, const pm_landing_report *report, const pm_skeleton *skeleton,
                           bool *ok);

#endif
