/* Internal to the catwalk module, its ABI export and the CLI. */
#ifndef PROCMOTION_CATWALK_INTERNAL_H
#define PROCMOTION_CATWALK_INTERNAL_H

#include "common/internal.h"
#include "procmotion/catwalk.h"

#include <cjson/cJSON.h>

/* The JSON object the ABI returns and the CLI prints: loopFrames, beatFrames, stepFrames, steps, bpm,
 * driftFramesPerMinute, keyCount, morphKeyCount, usedBones, missingBones, maxPositionError,
 * maxRotationErrorDeg, legLength, stepLength, traverseDistance, crouch, lift, blinkMorph,
 * expressionMorph, params (the values used, with the names pm_catwalk_params_from_json reads), verified,
 * report (the landing report, or null) and, with a plan, plan: { frames, floor, heel, ball } (the arrays
 * travel separately).
 * NULL when out of memory. */
cJSON *pmi_catwalk_info_json(const pm_catwalk_info *info, const pm_catwalk_plan *plan);
/* The info JSON's table of pow(10, n), n = -32 .. 51 (0 outside): for the test that it is libm's. */
double pmi_catwalk_pow10(int n);

/* Fill every default, check for NaN/Inf and bad enums, clamp (catwalk_params.c, used by
 * pm_catwalk_generate). */
pm_result pmi_catwalk_resolve_params(const pm_catwalk_params *in, pm_catwalk_params *out, pm_error *err);

#endif
