/* The dance's summary as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_DANCE_INFO_H
#define PROCMOTION_DANCE_INFO_H

#include "common/internal.h"
#include "procmotion/dance.h"

#include <cjson/cJSON.h>

/* frames, loopFrames, bpm, beatCount, firstGridBeat, gridBeatsPerBeat, keyCount, maxPositionError, maxRotationErrorDeg, usedBones,
 * missingBones, crouch, phrases [{ start, end, firstBeat, id, section, step, arms, ending, mirrored, size }],
 * distinctPhrases, longestRepeat, sectionCount, stepError, params, report (the feet's landing report, or
 * null) and body (pm_landing_body_report, or null). NULL when out of memory. */
cJSON *pmi_dance_info_json(const pm_dance_info *info);

#endif
