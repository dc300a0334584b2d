/* The idle's summary as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_IDLE_INFO_H
#define PROCMOTION_IDLE_INFO_H

#include "common/internal.h"
#include "procmotion/idle.h"

#include <cjson/cJSON.h>

/* loopFrames, bpm, unitFrames, keyCount, morphKeyCount, maxPositionError, maxRotationErrorDeg,
 * usedBones, missingBones, blinkMorph, crouch, armHangDeg, events [{ kind, start, end, value }], params,
 * plan { ankles [[x, y, z] x2], floor, heel, ball }, report (the feet's landing report, or null) and
 * body (pm_landing_body_report, or null). NULL when out of memory. */
cJSON *pmi_idle_info_json(const pm_idle_info *info);

#endif
