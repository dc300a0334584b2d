/* The dance's summary as JSON, shared by its ABI export and the CLI. */
#ifndef PROCMOTION_DANCE_INFO_H
#define PROCMOTION_DANCE_INFO_H

#include "common/internal.h"
#include "procmotion/dance.h"

#include <cjson/cJSON.h>

/* frames, loopFrames, bpm, beatCount, firstGridBeat, gridBeatsPerBeat, keyCount, maxPositionError, maxRotationErrorDeg, usedBones,
 * missingBones, crouch, phrases [{ start, end, firstBeat, id, section, step, arms, ending, mirrored, size }],
 * distinctPhrases, longestRepeat, sectionCount, params, report (the feet's landing report, or
 * null), body (pm_landing_body_report, or null), sync (the feet's landings against the beats, or null)
 * and, with a plan, plan { frames, floor, heel, ball, beats } (its ankles and contact go apart). NULL
 * when out of memory. */
cJSON *pmi_dance_info_json(const pm_dance_info *info, const pm_dance_plan *plan);

#endif
