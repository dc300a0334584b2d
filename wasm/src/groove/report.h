/* The groove bake's report as JSON, shared with the ABI and the CLI. */
#ifndef PROCMOTION_GROOVE_REPORT_H
#define PROCMOTION_GROOVE_REPORT_H

#include "common/internal.h"
#include "procmotion/groove.h"

#include <cjson/cJSON.h>

/* The bake report as JSON (the CLI's summary, the glue's bakeGroove().report): frames, legMode, keyedBones,
 * keys, copiedKeys, maxPositionError, maxRotationError (degrees), maxFootError, skipped, landing (the
 * landing report, or null). NULL when out of memory. */
cJSON *pmi_groove_bake_report_json(const pm_groove_bake_report *report, const pm_skeleton *skeleton);

#endif
