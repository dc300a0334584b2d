/* A pm_beat_sync as JSON (see grid.h). */
#include "beats/grid.h"

#include "common/json.h"

#include <math.h>

static double tidy(double v) { return isfinite(v) ? round(v * 1e6) / 1e6 : 0; }

cJSON *pmi_beat_sync_json(cJSON *to, const char *key, const pm_beat_sync *s, bool *ok) {
    cJSON *j = pmi_json_add_object(to, key, ok);
    pmi_json_add_number(j, "count", s->count, ok);
    pmi_json_add_number(j, "maxErrorFrames", tidy(s->max_error), ok);
    pmi_json_add_number(j, "meanErrorFrames", tidy(s->mean_error), ok);
    pmi_json_add_number(j, "worst", s->worst, ok);
    pmi_json_add_bool(j, "withinHalfFrame", s->max_error <= 0.5, ok);
    return j;
}
