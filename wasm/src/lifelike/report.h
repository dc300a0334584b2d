/* The lifelike bake's report as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_LIFELIKE_REPORT_H
#define PROCMOTION_LIFELIKE_REPORT_H

#include "common/internal.h"
#include "procmotion/lifelike.h"

#include <cjson/cJSON.h>

/* frames, keyedBones, boneKeys, morphKeys, copiedKeys, blinks, minBlinkInterval, maxBlinkInterval,
 * maxRotationErrorDeg, skipped. NULL when out of memory. */
cJSON *pmi_lifelike_report_json(const pm_lifelike_report *report);

#endif
