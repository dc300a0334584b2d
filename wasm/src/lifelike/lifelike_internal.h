/* Internal: the lifelike layer's state, shared by its files. */
#ifndef PROCMOTION_LIFELIKE_INTERNAL_H
#define PROCMOTION_LIFELIKE_INTERNAL_H

#include "common/internal.h"
#include "procmotion/lifelike.h"

/* Events at random times, every gap within [lo, hi]: event k sits at k x the mean gap, moved by a jitter
 * of up to a quarter of (hi - lo) either way (drawn from the seed, the stream and k). Any event is found
 * in constant time, at any time, in any order. */
typedef struct pmi_events {
    uint32_t seed, stream;
    double lo, hi;
} pmi_events;

void pmi_events_init(pmi_events *e, uint32_t seed, uint32_t stream, double lo, double hi);
/* The time of event k. */
double pmi_events_time(const pmi_events *e, int64_t k);
/* The last event at or before x: its index, its time in *t. */
int64_t pmi_events_at(const pmi_events *e, double x, double *t);

struct pm_lifelike {
    pm_allocator allocator;
    pm_lifelike_settings s;
    pm_lifelike_info info;
    double period;             /* seconds, 0 = none */
    double gaze_cell, micro_cell; /* noise cell lengths, seconds */
    int64_t gaze_cells, micro_cells; /* with a period: cells per period */
    pmi_events blinks, saccades;
    double *blink_list, *saccade_list; /* with a period: the events in [0, period) */
    uint32_t blink_count, saccade_count;
};

/* Every default filled in and checked. */
pm_result pmi_lifelike_resolve(const pm_lifelike_settings *in, pm_lifelike_settings *out, pm_error *err);
/* The model's bone per channel (両目 replaces the single eyes) and its name. */
pm_result pmi_lifelike_channels(const pm_target_model *m, const pm_allocator *a, uint32_t bone[PM_LIFELIKE_CHANNEL_COUNT],
                                const char *name[PM_LIFELIKE_CHANNEL_COUNT], pm_error *err);
/* The corners (frames) of the blink of event k starting at t seconds, and of its second blink when it is
 * a double one: returns 1 or 2. */
int pmi_lifelike_blink_shape(const pm_lifelike *l, int64_t k, double t, int64_t corners[2][4]);

#endif
