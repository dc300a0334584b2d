/*
 * procmotion/idle.h -- a character standing at ease, written as a looping VMD: weight shifts, breathing,
 * a head that looks around and settles, relaxed arms, and now and then a small gesture.
 *
 * USAGE
 *       pm_idle_params p = {0};                 // every amount unset = its default
 *       p.bpm = 120;                            // or 0: its own pace
 *       p.body_sway = PM_AMOUNT(0.7);
 *       pm_vmd *vmd = NULL;
 *       pm_idle_info info;
 *       if (pm_idle_generate(&p, &model, &vmd, &info, &err) != PM_OK) puts(err.message);
 *       // model: pm_target_model (rig.h), NULL = the standard figure (the built-in mannequin)
 *
 * WHAT IS GENERATED (every bone only if the model has it, found by role with the rig resolver)
 *   - Stance: both feet planted where they stand in the bind pose (toes turned out a little), the leg IK
 *     on. The weight rests on one leg: センター (グルーブ's lateral part folded in when there is none) moves
 *     over the standing foot, 下半身 (else 腰) tilts so the free hip drops, the free knee softens. Every
 *     few seconds (3-7 s at speed 1) the weight shifts to the other leg (sometimes to both) in a
 *     minimum-jerk move of about a second; the feet never move.
 *   - The spine (上半身, 上半身2) leans back over the feet against the hips and follows them 0.15 s late;
 *     the head follows 0.3 s late and keeps itself level.
 *   - Breathing: 上半身2 and the shoulders, a 4 s cycle (a whole number of cycles per loop).
 *   - The head (首, 頭) looks somewhere, holds, and comes back to rest (looks of 1.5-4 s); the eyes (両目,
 *     else 左目 and 右目) go first and settle as the head arrives.
 *   - The arms (腕, ひじ, 手首) hang relaxed, the upper arm as far down as keeps the wrist clear of the
 *     thigh and the torso, the elbow a little bent, and drift; they swing a little after each weight
 *     shift (a damped pendulum).
 *   - Gestures, chosen by the seed and never twice in a row: touch the hair, look at a hand, adjust the
 *     clothes, stretch. Each reaches (about 1 s), holds (1-2.5 s) and returns; hands are placed by
 *     two-bone IK on targets set from the model's own proportions (the side of the head, in front of the
 *     chest, the front of the hips, above the head).
 *   - The blink morph (pm_rig_target_morph) blinks as the lifelike layer does (procmotion/lifelike.h).
 *   Nothing is a sine on one bone: each move has an ease, the body parts overlap in time, and holds keep
 *   a slow drift.
 *
 * TIMING
 *   Events fall on whole units: a beat at the BPM (halved or doubled into 0.33-1 s), else 0.5 s / speed.
 *   The loop is at least `duration` seconds (default 32), a whole number of bars (4 units) with a BPM, and
 *   closes exactly: every key at loop_frames equals the one at 0. With a beat grid its tempo and the phase
 *   of its first downbeat are used (a loop keeps one tempo).
 *
 * LANDING (procmotion/landing.h)
 *   With a skeleton (or no model: the mannequin) the feet are landed with pm_landing_close (the ankles'
 *   plan is their stance, every frame a flat contact), センター lowered where a leg would not reach, and
 *   the result is measured as MMD plays it: info.report (feet) and info.body (hands against the body's
 *   capsules, wrist range, head turn, pelvis speed, the loop's seam). With names alone the leg IK bones are
 *   keyed on the plan and nothing is measured.
 *
 * PARAMETERS (pm_idle_params; JSON names in brackets): a value out of its range is
 * PM_ERR_INVALID_ARGUMENT naming it ("idle: bodySway must be a number in [0, 1], got 2").
 *
 * OWNERSHIP AND COST
 *   *out is a new motion (pm_vmd_free). info's names point into the model (or static strings). A 32 s
 *   loop with its landing and body measure takes about 30 ms in wasm (docs/benchmarks.md).
 */
#ifndef PROCMOTION_IDLE_H
#define PROCMOTION_IDLE_H

#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise: every unset amount is its default. */
typedef struct pm_idle_params {
    float bpm;                   /* 0 = none (its own pace); else [40, 240] */
    pm_beat_grid grid;           /* zero = none; set: its tempo and downbeat phase (bpm ignored). Borrowed. */
    pm_amount intensity;         /* [intensity] [0, 1] 0.5: how much everything moves */
    pm_amount speed;             /* [speed] [0.25, 3] 1: how often things happen (holds and moves / speed) */
    pm_amount body_sway;         /* [bodySway] [0, 1] 0.5: weight shifts, up to 0.16 L sideways */
    pm_amount head_movement;     /* [headMovement] [0, 1] 0.5: how far and how often the head looks around */
    pm_amount gesture_frequency; /* [gestureFrequency] [0, 1] 0.5: 0 = none, 0.5 = one every 16 s, 1 = 8 s */
    pm_amount duration;          /* [duration] [30, 300] 32: seconds, the shortest loop */
    pm_amount blink;             /* [blink] [0, 1] 1: the blink morph's weight; 0 = none */
    uint32_t seed;               /* [seed] 0 = 1 */
    float position_tolerance;    /* 0 = 0.01 units: key fit, [0.0005, 0.5] */
    float rotation_tolerance;    /* 0 = 0.2 degrees: key fit, [0.01, 10] */
    pm_allocator allocator;      /* zero = malloc/free; the motion keeps it */
} pm_idle_params;

/* Bones the idle keys, in pm_idle_info order. */
#define PM_IDLE_BONE_COUNT 21

/* A weight shift or a gesture. */
typedef enum pm_idle_event_kind {
    PM_IDLE_SHIFT = 0,       /* the weight moves (value: -1 right leg .. 1 left leg) */
    PM_IDLE_TOUCH_HAIR,      /* value: 0 left hand, 1 right */
    PM_IDLE_LOOK_AT_HAND,
    PM_IDLE_ADJUST_CLOTHES,
    PM_IDLE_STRETCH,
    PM_IDLE_EVENT_KIND_COUNT
} pm_idle_event_kind;

typedef struct pm_idle_event {
    pm_idle_event_kind kind;
    uint32_t start, end;     /* frames: the move (a gesture: reach, hold and return) */
    double value;
} pm_idle_event;

#define PM_IDLE_MAX_EVENTS 128

typedef struct pm_idle_info {
    pm_idle_params params;        /* what was used: every amount filled in */
    uint32_t loop_frames;
    double bpm;                   /* the tempo events follow (0 without one) */
    double unit_frames;           /* frames per unit (see TIMING) */
    uint32_t key_count, morph_key_count;
    double max_position_error, max_rotation_error; /* the key fit's (units, degrees) */
    uint32_t used_count;
    const char *used[PM_IDLE_BONE_COUNT + 4];  /* the model's names of the keyed bones */
    uint32_t missing_count;
    const char *missing[PM_IDLE_BONE_COUNT];    /* semi-standard names of bones the model lacks */
    const char *blink_morph;
    uint32_t event_count;
    pm_idle_event events[PM_IDLE_MAX_EVENTS];
    double crouch;                /* how far センター was lowered at most (units) */
    double arm_hang_deg;          /* the hanging upper arm's angle below horizontal */
    bool verified;                /* landed and measured (a skeleton or the standard figure) */
    bool on_mannequin;
    pm_landing_report report;     /* the feet (limbs: left, right ankle) */
    pm_landing_body_report body;  /* the whole body */
    /* the plan: where the ankles stand (the same at every frame, the foot flat) */
    pm_vec3 ankles[2];            /* world positions */
    float floor[2];               /* each ankle's standing height */
    pm_vec3 heel[2], ball[2];     /* the foot pivots: offsets from the ankle's rest position */
} pm_idle_info;


/* Generate the loop. params NULL = the defaults; model NULL = the standard figure; info may be NULL. */
pm_result pm_idle_generate(const pm_idle_params *params, const pm_target_model *model, pm_vmd **out, pm_idle_info *info,
                           pm_error *err);

/* Read parameters from JSON (the bracketed names above, plus bpm and seed; null = the default). *out is
 * zeroed first. */
pm_result pm_idle_params_from_json(const char *json, size_t len, pm_idle_params *out, pm_error *err);

/* "shift", "touchHair", "lookAtHand", "adjustClothes", "stretch". */
const char *pm_idle_event_name(pm_idle_event_kind kind);

#ifdef __cplusplus
}
#endif

#endif
