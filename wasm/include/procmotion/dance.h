/*
 * procmotion/dance.h -- a dance to a song's beats, or a looping dance at a tempo, written as a VMD: steps,
 * bounces, hip sways and arm moves phrased over 8 beats, the feet landed on the model.
 *
 * USAGE
 *       pm_dance_params p = {0};                // every amount unset = its default
 *       p.grid = grid;                          // the song's beats (pm_beats_grid), or p.bpm = 120: a loop
 *       p.onset = beats->onset_envelope, p.onset_count = beats->onset_count, p.onset_rate = beats->onset_rate;
 *       p.style = PM_DANCE_POP;
 *       pm_vmd *vmd = NULL;
 *       pm_dance_info *info = malloc(sizeof *info);   // large: not on the stack
 *       if (pm_dance_generate(&p, &model, &vmd, info, &err) != PM_OK) puts(err.message);
 *       // model: pm_target_model (rig.h), NULL = the standard figure (the built-in mannequin)
 *
 * THE MOVES (each lasts 2 or 4 beats and has a mirrored twin that leads with the other side)
 *   Steps: stepTouch (out, together, back, together), sideStep (out and in, the weight across), kick,
 *   kneeUp, rock (forward and back), tap (a toe touched out without weight), pivot (an eighth of a turn
 *   about one foot and back), groove (the feet stay, the weight rocks), bodyRoll (the chest rolls
 *   forward and back over the hips).
 *   Arms: swing (low, against the feet), clap, armsUp, point, wave, hips (hands on the hips), cross,
 *   punch, roll (forearms rolling in front of the chest).
 *   Every beat is a pose; between poses the body moves with a minimum-jerk ease that draws back a little
 *   first (anticipation) and settles (follow-through), so the body stops on the beat. The hips bounce
 *   down on the beat (up on it in the idol style), sway over the foot that holds the weight, and the
 *   chest and head answer them.
 *
 * PHRASING
 *   A phrase is two bars (8 beats in 4/4) and starts on a downbeat: a step and its mirror, repeated, and
 *   an arm pattern and its mirror; the phrase ends with a bigger move on its last two beats (a kick, arms
 *   up, a point). With a song, its energy (the onset envelope's mean over each bar, against the song's
 *   own range) sets each phrase's size: quiet bars groove in place with small arms, loud bars step wide
 *   with big arms. A change of energy starts a new section; a section that comes back at an energy
 *   heard before (a chorus) comes back with that section's phrase. Within a section a phrase plays at
 *   most twice, then changes its arms or its steps (variety sets how soon).
 *
 * TIMING
 *   With a grid (pm_beat_grid, its beats listed or bpm and offset) the dance lasts from frame 0 to one
 *   beat after `duration` seconds (default: the last listed beat, or 60 s for a grid of bpm and offset;
 *   at most PM_DANCE_MAX_SECONDS), follows every beat's time (tempo changes included), starts its
 *   phrases on downbeats and stands still before the first beat. Without, it is a loop of whole phrases
 *   at `bpm` (default 120) at least `duration` seconds long (default 16) that closes exactly. The
 *   dancer's beat is the grid's beat between 70 and 160 BPM; above it every other beat (the stronger
 *   ones in the onset envelope); below it, half beats.
 *
 * LANDING (procmotion/landing.h)
 *   With a skeleton (or no model: the mannequin) the feet are landed with pm_landing_close on their plan
 *   (flat while they stand, lifted between), センター lowered where a leg would not reach, and the result
 *   is measured as MMD plays it: info.report (feet), info.body (hands against the body's capsules) and
 *   info.sync (each foot coming to rest, as played, against the nearest danced beat).
 *   With names alone the leg IK bones are keyed on the plan and nothing is measured.
 *
 * PARAMETERS (pm_dance_params; JSON names in brackets): a value out of its range is
 * PM_ERR_INVALID_ARGUMENT naming it ("dance: energy must be a number in [0, 1], got 2").
 *
 * OWNERSHIP AND COST
 *   *out is a new motion (pm_vmd_free). info's names point into the model (or static strings). A
 *   4-minute song takes a few hundred milliseconds in wasm (docs/benchmarks.md).
 */
#ifndef PROCMOTION_DANCE_H
#define PROCMOTION_DANCE_H

#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Styles: which moves come often and how the body bounces. */
typedef enum pm_dance_style {
    PM_DANCE_POP = 0, /* "pop": every move; down on the beat */
    PM_DANCE_HIPHOP,  /* "hiphop": heavy knees, a deep bounce down on the beat, punches, rocks and grooves */
    PM_DANCE_IDOL,    /* "idol": light and up on the beat, claps, waves, points and arms up */
    PM_DANCE_STYLE_COUNT
} pm_dance_style;

/* Zero-initialise: every unset amount is its default. */
typedef struct pm_dance_params {
    float bpm;                /* 0 = 120 (a loop); else [40, 240] */
    pm_beat_grid grid;        /* zero = none (a loop at bpm); set: the dance follows its beats. Borrowed. */
    const float *onset;       /* optional: the song's onset envelope (pm_beats), for its energy. Borrowed. */
    uint32_t onset_count;
    double onset_rate;        /* values a second (100) */
    pm_amount energy;         /* [energy] [0, 1] 0.6: how big the moves are (the song's energy scales it) */
    pm_amount variety;        /* [variety] [0, 1] 0.5: how soon a phrase changes (0: every 2 phrases, 1: every phrase) */
    pm_amount arms;           /* [arms] [0, 1] 0.5: emphasis on the arms */
    pm_amount legs;           /* [legs] [0, 1] 0.5: emphasis on the steps */
    pm_amount body;           /* [body] [0, 1] 0.5: emphasis on the bounce, sway and chest */
    pm_amount duration;       /* [duration] a loop: [8, 120] 16 seconds, the shortest loop; with a grid
                                 (0 = to the last beat) [1, 3600] seconds */
    pm_dance_style style;     /* [style] "pop", "hiphop" or "idol" */
    uint32_t seed;            /* [seed] 0 = 1 */
    float position_tolerance; /* 0 = 0.01 units: key fit, [0.0005, 0.5] */
    float rotation_tolerance; /* 0 = 0.2 degrees: key fit, [0.01, 10] */
    pm_allocator allocator;   /* zero = malloc/free; the motion keeps it */
} pm_dance_params;

/* The moves (steps first, then arm patterns, then the phrase endings). */
typedef enum pm_dance_move {
    PM_DANCE_GROOVE = 0, PM_DANCE_STEP_TOUCH, PM_DANCE_SIDE_STEP, PM_DANCE_KICK, PM_DANCE_KNEE_UP, PM_DANCE_ROCK,
    PM_DANCE_TAP, PM_DANCE_PIVOT, PM_DANCE_BODY_ROLL,
    PM_DANCE_SWING, PM_DANCE_CLAP, PM_DANCE_ARMS_UP, PM_DANCE_POINT, PM_DANCE_WAVE, PM_DANCE_HIPS, PM_DANCE_CROSS,
    PM_DANCE_PUNCH, PM_DANCE_ROLL,
    PM_DANCE_MOVE_COUNT
} pm_dance_move;

/* One phrase of the dance. */
typedef struct pm_dance_phrase {
    uint32_t start, end;      /* frames: its first beat and the beat after its last */
    uint32_t first_beat;      /* the dancer's beat it starts on */
    uint32_t id;              /* phrases with the same id are the same moves at the same size */
    uint32_t section;         /* sections count from 0 */
    pm_dance_move step, arms, ending; /* the step and arm pattern (each with its mirror), the last two beats' move */
    bool mirrored;            /* leads with the right side */
    float size;               /* 0..1: how big (energy) */
} pm_dance_phrase;

#define PM_DANCE_MAX_PHRASES 1024
/* The longest dance: a longer song is danced for its first 15 minutes. */
#define PM_DANCE_MAX_SECONDS 900

/* The plan: where the ankles are meant to be, per whole frame 0 .. frames, and the danced beats. */
typedef struct pm_dance_plan {
    uint32_t frames;
    float *ankles;            /* [(frames + 1) * 6]: world positions, left xyz then right xyz */
    uint8_t *contact;         /* [(frames + 1) * 2]: each foot's pm_landing_contact */
    float floor[2];           /* each ankle's standing height */
    pm_vec3 heel[2], ball[2]; /* the foot pivots: offsets from the ankle's rest position */
    uint32_t beat_count;
    double *beats;            /* [beat_count + 1]: the frame of each danced beat (the last: the end) */
    pm_allocator allocator;   /* what the arrays came from */
} pm_dance_plan;

/* Free a plan's arrays (NULL and repeated calls are fine). */
void pm_dance_plan_free(pm_dance_plan *plan);

typedef struct pm_dance_info {
    pm_dance_params params;   /* what was used: every amount filled in */
    uint32_t frames;          /* the motion's length (a loop: loop_frames) */
    uint32_t loop_frames;     /* 0 with a grid */
    double bpm;               /* the dancer's tempo (the grid's main tempo, halved or doubled into 70-160) */
    uint32_t beat_count;      /* the dancer's beats */
    double first_grid_beat;   /* with a grid: the grid beat the dancer's first beat is (pm_beat_grid_time) */
    double grid_beats_per_beat; /* with a grid: 1, 2 (every other beat) or 0.5 (half beats) */
    uint32_t key_count;
    double max_position_error, max_rotation_error; /* the key fit's (units, degrees) */
    uint32_t used_count;
    const char *used[24];     /* the model's names of the keyed bones */
    uint32_t missing_count;
    const char *missing[24];  /* semi-standard names of bones the model lacks */
    uint32_t phrase_count;
    pm_dance_phrase phrases[PM_DANCE_MAX_PHRASES];
    uint32_t distinct_phrases; /* distinct ids */
    uint32_t longest_repeat;  /* the most times one phrase plays in a row */
    uint32_t section_count;
    double crouch;            /* how far センター was lowered at most (units) */
    bool verified;            /* landed and measured (a skeleton or the standard figure) */
    bool on_mannequin;
    pm_landing_report report; /* the feet (limbs: left, right ankle) */
    pm_landing_body_report body;
    bool synced;              /* sync was measured (verified) */
    pm_beat_sync sync;        /* frames: each foot coming to rest, as played, against the nearest danced beat */
} pm_dance_info;

/* Generate the dance. params NULL = the defaults; model NULL = the standard figure; info may be NULL. */
pm_result pm_dance_generate(const pm_dance_params *params, const pm_target_model *model, pm_vmd **out, pm_dance_info *info,
                            pm_error *err);
/* The same, and the plan into *plan (may be NULL; free it with pm_dance_plan_free). */
pm_result pm_dance_generate_plan(const pm_dance_params *params, const pm_target_model *model, pm_vmd **out, pm_dance_info *info,
                                 pm_dance_plan *plan, pm_error *err);

/* Read parameters from JSON (the bracketed names above, plus bpm and seed; null = the default). *out is
 * zeroed first. */
pm_result pm_dance_params_from_json(const char *json, size_t len, pm_dance_params *out, pm_error *err);

/* "stepTouch", "clap", ...; NULL out of range. */
const char *pm_dance_move_name(pm_dance_move move);
/* "pop", "hiphop", "idol"; NULL out of range. */
const char *pm_dance_style_name(pm_dance_style style);

#ifdef __cplusplus
}
#endif

#endif
