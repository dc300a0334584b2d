/* The landing report as JSON, shared by the modules that report it (catwalk, groove, tracing), their ABI
 *  exports and the CLI. */
#ifndef PROCMOTION_LANDING_REPORT_JSON_H
#define PROCMOTION_LANDING_REPORT_JSON_H

#include "common/internal.h"
#include "procmotion/landing.h"
#include "procmotion/skeleton.h"

#include <cjson/cJSON.h>

/* The report as the JSON object the glue hands out (docs/landing.md): maxError, rmsError, penetration,
 * stanceGap, maxSlide, ikOffFrames, unreachableFrames, keyCount, propertyKeyCount, frames, landed,
 * tolerance, and limbs: { <limb_names[i]>: { bone (bone_names[i], when given), steered, frames, maxError, rmsError, worstFrame,
 * penetration, stanceGap, stances, maxSlide, slideFrame, ikOffFrames, unreachableFrames } }. Numbers are
 * rounded to 1e-7. Attached to `to` under `key` (*ok cleared on failure, as pmi_json_add). */
void pmi_landing_report_json(cJSON *to, const char *key, const pm_landing_report *report, double tolerance,
                             const char *const *bone_names, const char *const *limb_names, bool *ok);

/* The body report as JSON: frames, hands (left and right: { clearance, frame, capsule }, or null without
 * arms), wristRange [left, right], headTurnDeg, pelvisSpeed (units per second), loopGap. */
void pmi_landing_body_json(cJSON *to, const char *key, const pm_landing_body_report *report, bool *ok);

#endif
