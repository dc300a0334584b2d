/*
 * procmotion/lifelike.h -- the small motions of a living body on top of any motion: blinks, breathing,
 * eye saccades and a wandering gaze, micro-moves of head, neck and spine.
 *
 * USAGE
 *       pm_lifelike_settings s = {0};                  // every amount unset = its default
 *       s.eye_contact = PM_AMOUNT(15);                 // or pm_lifelike_settings_from_json(json, ...)
 *       // baked over a motion: its keys kept, the layer added where the motion leaves room
 *       pm_lifelike_bake(base_vmd, &model, &s, NULL, &vmd, &report, &err);
 *       // or per frame in a viewer
 *       pm_lifelike *l = NULL;
 *       pm_lifelike_create(&model, &s, NULL, &l, &err);
 *       pm_lifelike_frame fr;
 *       pm_lifelike_sample(l, seconds, &fr);           // fr.rotation[i] onto fr.bone[i]; fr.blink
 *       pm_lifelike_free(l);
 *
 * WHAT IT DOES (each part only where the model has the bone or morph, found by role with the rig
 * resolver, procmotion/rig.h)
 *   Blinks     the blink morph (pm_rig_target_morph: まばたき, 瞬き, blink, ...) closes at random
 *              intervals within blink_interval (each blink jittered about a lattice of the range's mean,
 *              so that any time is found at once); one blink in seven is followed by a second 0.1-0.2 s
 *              later. A blink lasts 0.1 + 0.2 x
 *              blink_duration seconds (+-15 %): it closes in 35 % of that, stays shut 15 %, and opens in
 *              the remaining half (slower than it closed). Weights lie in [0, blink].
 *   Breathing  上半身2 (else 上半身) pitches back and the shoulders (左肩, 右肩) rise on the inhale: a
 *              cycle of 5 - 2 x breath_rate seconds, 40 % inhaling (eased) and 60 % exhaling; up to 2.5
 *              degrees of chest and 1.5 of shoulder at breath_depth 1.
 *   Gaze       the eyes (両目, else 左目 and 右目) follow a gaze that wanders within gaze_range degrees
 *              (smooth noise) and jumps in saccades (every 0.4-2.5 s, a 2-frame jump of up to 4 degrees,
 *              scaled by `saccades`). The eyes turn at most eye_contact degrees; what the gaze asks beyond
 *              that, the head (頭) takes, head_turn of it, 0.2 s later.
 *   Micro-moves  頭, 首 and 上半身 wander (smooth noise, cycles of about micro_move_cycle seconds): up to 6,
 *              3 and 1.5 degrees at micro_move_extent 1.
 *   Every signal is a function of time and the seed: the same seconds give the same frame, and sampling
 *   may go backwards (seeking).
 *
 * THE BAKE (pm_lifelike_bake)
 *   Over frames 0 .. N (N: the base motion's last key, or options.frames, or 30 s without a base), every
 *   channel is periodic with period N (the noise wraps, no blink or saccade straddles the seam), so a base
 *   that loops keeps looping. Every key of the base is copied unchanged. A bone the base keys is left
 *   alone (the base's motion stays as it is), and so is a morph it keys; report.skipped names them. The
 *   layer's bones are sampled every half frame and fitted with VMD Bezier keys (within 0.05 degrees at every
 *   whole frame; the largest deviation between frames is report.max_rotation_error); the blink is written as morph keys at the blink's corners (exact: VMD morphs
 *   interpolate linearly, and so does the per-frame form between the same corners).
 *
 * SETTINGS (pm_lifelike_settings; JSON names in brackets, docs/lifelike.md)
 *   blink [blink] 1, blink_interval [blinkInterval: [min, max] seconds] [2, 10], blink_duration
 *   [blinkDuration] 0.5, breath_rate [breathRate] 0.3, breath_depth [breathDepth] 0.5, micro_move_extent
 *   [microMoveExtent] 0.25, micro_move_cycle [microMoveCycle] 3 s, eye_contact [eyeContact] 12 degrees,
 *   head_turn [headTurn] 0.7, gaze_range [gazeRange] 10 degrees, saccades [saccades] 1, seed [seed] 1.
 *   A value out of its range (pm_lifelike_settings_from_json and pm_lifelike_create alike) fails with
 *   PM_ERR_INVALID_ARGUMENT: "lifelike: eyeContact must be a number in [0, 45] (degrees), got 90".
 *
 * OWNERSHIP AND COST
 *   The model (pm_target_model, rig.h: names or a skeleton) is read at create time; the names in
 *   pm_lifelike_info and the report point into it. The pm_lifelike owns its state; pm_lifelike_sample never allocates. The bake's *out is a new motion
 *   (pm_vmd_free). No global state.
 */
#ifndef PROCMOTION_LIFELIKE_H
#define PROCMOTION_LIFELIKE_H

#include "procmotion/common.h"
#include "procmotion/math.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise: every unset amount is its default (see SETTINGS above). */
typedef struct pm_lifelike_settings {
    pm_amount blink;             /* [0, 1] 1: the blink morph's weight when shut; 0 = no blinks */
    pm_amount blink_interval_min; /* [0.5, 60] 2: seconds between blinks, at least */
    pm_amount blink_interval_max; /* [0.5, 60] 10: and at most (at least the minimum) */
    pm_amount blink_duration;    /* [0, 1] 0.5: 0 = 0.1 s a blink, 1 = 0.3 s */
    pm_amount breath_rate;       /* [0, 1] 0.3: 0 = a breath every 5 s, 1 = every 3 s */
    pm_amount breath_depth;      /* [0, 1] 0.5: 0 = no breathing */
    pm_amount micro_move_extent; /* [0, 1] 0.25: 0 = no micro-moves */
    pm_amount micro_move_cycle;  /* [1, 10] 3: seconds */
    pm_amount eye_contact;       /* [0, 45] 12: degrees the eyes turn before the head follows */
    pm_amount head_turn;         /* [0, 1] 0.7: the share of the gaze beyond eye_contact the head takes */
    pm_amount gaze_range;        /* [0, 60] 10: degrees the gaze wanders */
    pm_amount saccades;          /* [0, 1] 1: saccade size; 0 = none */
    uint32_t seed;               /* 0 = 1 */
} pm_lifelike_settings;

/* Read settings from JSON (an object with the names above; null = the default); *out is zeroed first.
 * An unknown key, a wrong type or a value out of range is PM_ERR_INVALID_ARGUMENT naming it. */
pm_result pm_lifelike_settings_from_json(const char *json, size_t len, pm_lifelike_settings *out, pm_error *err);
/* The settings with every default filled in (checked), as JSON; out == NULL only sets *out_size (the
 * length without the NUL), else out_cap must hold it and the NUL. */
pm_result pm_lifelike_settings_to_json(const pm_lifelike_settings *s, char *out, size_t out_cap, size_t *out_size, pm_error *err);

/* The channels, in pm_lifelike_frame order. */
typedef enum pm_lifelike_channel {
    PM_LIFELIKE_EYES = 0,   /* 両目 (the gaze) */
    PM_LIFELIKE_LEFT_EYE,   /* 左目, when the model has no 両目 */
    PM_LIFELIKE_RIGHT_EYE,  /* 右目, when the model has no 両目 */
    PM_LIFELIKE_HEAD,       /* 頭: micro-moves and the gaze's share */
    PM_LIFELIKE_NECK,       /* 首 */
    PM_LIFELIKE_SPINE,      /* 上半身 (micro-moves; breathing when there is no 上半身2) */
    PM_LIFELIKE_CHEST,      /* 上半身2: breathing */
    PM_LIFELIKE_LEFT_SHOULDER,
    PM_LIFELIKE_RIGHT_SHOULDER,
    PM_LIFELIKE_CHANNEL_COUNT
} pm_lifelike_channel;

/* One instant of the layer. */
typedef struct pm_lifelike_frame {
    uint32_t bone[PM_LIFELIKE_CHANNEL_COUNT]; /* the model's bone per channel, PM_NO_INDEX: none */
    pm_quat rotation[PM_LIFELIKE_CHANNEL_COUNT]; /* local rotation offsets, multiplied onto the bone's
                                                    (rotation' = rotation * offset); identity for none */
    float blink;                  /* the blink morph's weight, [0, settings.blink] */
} pm_lifelike_frame;

typedef struct pm_lifelike pm_lifelike;

typedef struct pm_lifelike_info {
    pm_lifelike_settings settings;          /* every value filled in */
    uint32_t bone[PM_LIFELIKE_CHANNEL_COUNT]; /* as in pm_lifelike_frame */
    const char *bone_name[PM_LIFELIKE_CHANNEL_COUNT]; /* the model's names (borrowed from the model) or NULL */
    const char *blink_morph;                /* the model's blink morph, or NULL */
    double breath_seconds;                  /* the breathing cycle */
} pm_lifelike_info;

/* Options; zero-initialise (or NULL). */
typedef struct pm_lifelike_options {
    pm_allocator allocator;
    double period;            /* seconds; > 0: every channel repeats with this period (the bake's loop) */
    uint32_t skip_channels;   /* bit c set: channel c stays identity (a bone the base motion keys) */
    bool skip_blink;          /* no blinks (the base motion keys the blink morph) */
} pm_lifelike_options;

/* A layer for `model` (bone names or a skeleton; NULL is PM_ERR_INVALID_ARGUMENT). */
pm_result pm_lifelike_create(const pm_target_model *model, const pm_lifelike_settings *settings, const pm_lifelike_options *opts,
                             pm_lifelike **out, pm_error *err);
void pm_lifelike_free(pm_lifelike *l);
void pm_lifelike_get_info(const pm_lifelike *l, pm_lifelike_info *info);
/* The layer at `seconds` (any finite value; NaN or Inf give the frame at 0). */
void pm_lifelike_sample(pm_lifelike *l, double seconds, pm_lifelike_frame *out);

/* ---- the bake ---------------------------------------------------------------------------------- */

typedef struct pm_lifelike_bake_options {
    pm_allocator allocator;
    uint32_t frames;          /* 0 = the base's last key (900 without a base, or when it has one frame) */
} pm_lifelike_bake_options;

typedef struct pm_lifelike_report {
    uint32_t frames;          /* the layer covers 0 .. frames, periodic with that period */
    uint32_t keyed_bones;     /* bones the layer keyed */
    uint32_t bone_keys, morph_keys; /* keys it wrote */
    uint32_t copied_keys;     /* keys of the base copied */
    uint32_t blinks;          /* blinks in 0 .. frames */
    double min_blink_interval, max_blink_interval; /* seconds between blink starts, the seam included
                                                      (0 with fewer than two) */
    double max_position_error, max_rotation_error; /* the key fit's, units and degrees */
    uint32_t skipped_count;
    const char *skipped[PM_LIFELIKE_CHANNEL_COUNT + 1]; /* bones and morph the base keys (model names) */
    uint32_t skipped_channels;    /* bit c: channel c's bone is one of them (pm_lifelike_options.skip_channels) */
} pm_lifelike_report;

/* Bake the layer over `base` (NULL: over the rest pose) for `model`. *out is a new motion; report may be
 * NULL. */
pm_result pm_lifelike_bake(const pm_vmd *base, const pm_target_model *model, const pm_lifelike_settings *settings,
                           const pm_lifelike_bake_options *opts, pm_vmd **out, pm_lifelike_report *report, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
