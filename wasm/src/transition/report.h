/* The transition's report as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_TRANSITION_REPORT_H
#define PROCMOTION_TRANSITION_REPORT_H

#include "common/internal.h"
#include "procmotion/transition.h"

#include <cjson/cJSON.h>

/* frames, steps, stepDistance, keyedBones, keyCount, landing (the landing report, or null). NULL when
 * out of memory. */
cJSON *pmi_transition_report_json(const pm_transition_report *report);

#endif
