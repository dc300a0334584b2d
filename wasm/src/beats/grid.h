/* The beat grid as the generators take it (catwalk, groove, tracing): checked with their prefix. */
#ifndef PROCMOTION_BEATS_GRID_H
#define PROCMOTION_BEATS_GRID_H

#include "common/internal.h"
#include "procmotion/beats.h"

#include <cjson/cJSON.h>

/* pm_beat_grid_check, the message prefixed with `who` ("catwalk: beat grid: beat 3 ... is not after ..."),
 * and a listed grid of at most max_beats beats (PM_ERR_LIMIT beyond). */
pm_result pmi_beat_grid_check_for(const char *who, const pm_beat_grid *grid, uint32_t max_beats, pm_error *err);

/* The sync as the JSON object the glue hands out: { count, maxErrorFrames, meanErrorFrames, worst, withinHalfFrame }
 * (frames), attached to `to` under `key`; returns it (*ok cleared on failure, as pmi_json_add). */
cJSON *pmi_beat_sync_json(cJSON *to, const char *key, const pm_beat_sync *sync, bool *ok);

#endif
