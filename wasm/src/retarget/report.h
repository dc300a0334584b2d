/* The retarget report as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_RETARGET_REPORT_H
#define PROCMOTION_RETARGET_REPORT_H

#include "common/internal.h"
#include "procmotion/retarget.h"

#include <cjson/cJSON.h>

/* format, naming, confidence, sourceFps, duration, frames, scale, forwardFromToes, mapped, unmapped, keyCount,
 * maxPositionError, maxRotationErrorDeg, stances [left, right], crouch, feet (the landing report, or null
 * when the legs play by FK), hands: { sourceClearance, correctedFrames, touchFrames, touchGap (each [left, right]) }, body.
 * NULL when out of memory. */
cJSON *pmi_retarget_report_json(const pm_retarget_report *report);

#endif
