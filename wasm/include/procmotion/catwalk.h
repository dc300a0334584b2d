/*
 * procmotion/catwalk.h -- a procedural runway walk ("catwalk") written as a looping VMD.
 *
 * USAGE
 *       pm_catwalk_params p = {0};              // every field zero = its default
 *       p.bpm = 128;                            // or 0: no music, the tempo follows `speed`
 *       p.hip_sway = PM_AMOUNT(0.8f);    // amounts are {set, value}: unset = default
 *       pm_vmd *vmd = NULL;
 *       pm_catwalk_info info;
 *       pm_error err = {0};
 *       if (pm_catwalk_generate(&p, &model, &vmd, &info, &err) != PM_OK) puts(err.message);
 *       // write with pm_vmd_write, free with pm_vmd_free
 *
 *   `model` names the bones and morphs of the target model (pm_target_model below); NULL means
 *   "a model with every semi-standard bone and no morphs" with the standard ~20-unit proportions.
 *
 * WHAT IS GENERATED (every bone only if the model has it; see BONES)
 *   - a property key at frame 0 that turns the leg IK on (足ＩＫ and つま先ＩＫ, both sides);
 *   - センター: the walk's path (traverse / U-turn), the body bob and the crouch that keeps the
 *     feet reachable; its rotation carries the heading during a U-turn;
 *   - グルーブ: the lateral hip sway (folded into センター when there is no グルーブ);
 *   - 下半身: hip twist and pelvis drop, turning about the hips' midpoint (on 腰 when the model has
 *     no 下半身);
 *   - 上半身 / 上半身2: shoulder-line turn, counter-sway and lean; 首 / 頭: what of the torso's turn
 *     the head follows;
 *   - 左右の肩 / 腕 / ひじ / 手首: shoulder posture, contralateral arm swing with relaxed elbows and
 *     trailing hands, or the static 'posed' arms;
 *   - 左右の足ＩＫ: foot positions (planted while they bear weight) and foot rotations; the
 *     rotation pitches the child つま先ＩＫ, which gives the heel strike (toes up on contact) and the
 *     toe-off (heel raised, rolling over the ball of the foot);
 *   - morphs, when the model has them: blinks (まばたき) at 2-6 s intervals and a light smile.
 *
 * TIMING AND LOOP LENGTH
 *   A step is one heel strike. With a BPM (clamped to [60, 200]) a step lasts one beat ('beat') or
 *   two ('2beat'): step = 1800 / bpm * (1 or 2) frames (VMD runs at 30 fps). The loop holds
 *   N = 8 * m steps (m >= 1; m >= 2 with a U-turn, more when a traverse distance needs it) and
 *   loop_frames = round(N * step). Heel strike k lands on frame round(k * step), so every strike is
 *   within half a frame of its true beat inside the loop. Played back to back, the loop drifts
 *   against the true tempo by |loop_frames - N * step| frames per loop; m is the smallest value
 *   that keeps this drift under 0.75 frames per minute of playback (a loop of one minute or more
 *   always does, so m is bounded). Without a BPM the tempo is 120 * speed BPM and m is the
 *   smallest allowed. The key at loop_frames equals the key at frame 0 on every bone and morph.
 *
 * BEAT GRID (params.grid; procmotion/beats.h: a BPM and an offset, tap tempo, or detected beats)
 *   Heel strikes land on the grid's beats: strike k (k even = left) on beat b0 + k * s, s beats a step
 *   (1 for 'beat', 2 for '2beat', halved or doubled while the grid's tempo would make a step shorter
 *   than 9 (resp. 18) or longer than 30 (60) frames), b0 the first beat at or after 0 s that starts a
 *   bar (a downbeat of the grid) or, when s does not divide the bar, the first beat at or after 0 s;
 *   each strike on the whole frame nearest its beat (frame 0 = 0 s of the song). Every event of the
 *   gait follows the step's own length: the walk is time-warped to the song.
 *   - A plain grid (bpm and offset, no beats listed: a BPM, tap tempo, a manual offset) keeps the loop
 *     of TIMING below, its strikes shifted to the grid's phase (the loop stays a loop).
 *   - A grid with beats (a detection) gives one motion from 0 s through the step after the last
 *     listed beat, rounded up to a whole pattern of steps (8 m, as in TIMING): not a loop (info.looping
 *     false); strikes before the first and after the last listed beat follow the grid's extrapolation
 *     (the first and the last interval's tempo). At most PM_CATWALK_MAX_FRAMES frames (PM_ERR_LIMIT).
 *   A grid that fails pm_beat_grid_check, or listed beats closer than 4 frames a step, is
 *   PM_ERR_INVALID_ARGUMENT naming what is wrong. With a grid or a BPM, info.sync states how far each
 *   heel strike is from its beat as MMD plays it (measured on the landed motion, see LANDING: the
 *   first frame from which the played heel stays on its foothold; per strike in plan.strikes).
 *
 * GAIT (all lengths scale with the model's leg length, hip to ankle, when positions are given)
 *   Each foot: heel strike -> foot flat (15 % of a step later) -> heel off (70 %) -> toe off
 *   (120 %) -> swing -> next heel strike (200 %); events fall on whole frames. A planted foot's
 *   IK target does not move at all between foot flat and heel off (rolling about the heel before,
 *   about the ball after). In place (default) the stance foot slides back at the walking speed and
 *   センター has no net movement: a treadmill walk. With `traverse` the walk goes along the model's
 *   facing direction (-Z) and back: the planted foot stays fixed in the world, the body walks out a
 *   distance D, steps in place once and walks back (0 -> D -> 0, stepping backwards); with `u_turn`
 *   it turns 180 degrees about Y over three steps at each end instead and walks back facing the
 *   other way. The pelvis is lowest at mid double support. センター is lowered just enough that no
 *   leg is ever stretched beyond the knee bend `stance_knee` asks for, so MMD's leg IK always
 *   reaches its target (knees bend forward).
 *
 * KEYS
 *   Every channel is sampled at every half frame of the continuous motion and fitted with VMD
 *   Bezier curves: keys sit on whole frames, a key is forced at gait events, at the loop ends and at
 *   the ends of runs where a bone does not move, and in between a key is placed only where one
 *   cubic segment per channel (positions: one curve per axis; rotation: one slerp curve) can no
 *   longer stay within position_tolerance (units) and rotation_tolerance (degrees) of the continuous
 *   motion at every half frame (checked exactly; between half frames the measured excess is 5 %).
 *   The largest deviation found is reported in pm_catwalk_info.
 *
 * BONES (found by role with the rig resolver, procmotion/rig.h: semi-standard, PMX Editor English,
 * VRoid, Mixamo, Biped, Daz, Chinese names; full-width and half-width alike; a bone's English name
 * counts when known). The roles: センター center (without one, a VRoid / Mixamo-style hips bone:
 *   J_Bip_C_Hips, mixamorig:Hips), グルーブ groove, 腰 waist, 下半身 lowerBody, 上半身 upperBody,
 *   上半身2 upperBody2, 首 neck, 頭 head, 左肩 leftShoulder, 左腕 leftArm, 左ひじ leftElbow, 左手首
 *   leftWrist, 左足ＩＫ leftLegIk, 左つま先ＩＫ leftToeIk (right side alike); read for proportions: 足,
 *   ひざ, 足首, つま先. Morph names (blink, smile) match by their rig key (case, width and separators ignored).
 *   A missing bone drops only its own channels (グルーブ folds into センター, 上半身2 into 上半身, 首 into
 *   頭, 下半身 moves to 腰) and is listed in info.missing; bones that received keys (or, for つま先ＩＫ,
 *   the IK switch) are listed in info.used. Without つま先ＩＫ the feet stay flat (no roll).
 *   The leg IK bones must hang from 全ての親 or 足IK親 (as in every semi-standard model), never from
 *   センター: their keys are world offsets. 全ての親 itself is never keyed, so a viewer can still
 *   place the model with it.
 *
 * LANDING (procmotion/landing.h, docs/landing.md)
 *   With a skeleton (model->skeleton), or with no model at all (then on the built-in mannequin, the
 *   standard figure), the walk closes the loop: it plans the ankles (each foothold at the ankle's
 *   standing height, the heel and ball pivots on the rig's floor), lowers センター so that no knee opens
 *   past 2.5 degrees beyond its rest bend (pm_landing_leg_reach: what MMD's knee limit allows), and hands
 *   the plan to pm_landing_close, which keys the leg IK bones on it, pre-poses 足 / ひざ / 足首 (a key per
 *   frame) so MMD's CCD finds the targets reached, switches a leg's IK off where a PMD knee as babylon-mmd
 *   limits it could not follow, and measures the result (info.report, info.verified). The plan comes
 *   with pm_catwalk_generate_plan. With bone names (and positions) alone the leg IK bones are keyed on
 *   the ankle plan and nothing is measured.
 *
 * PARAMETERS: see pm_catwalk_params. An amount outside its range is PM_ERR_INVALID_ARGUMENT naming
 * the parameter, the value and the range; bpm, speed, traverse_distance and the tolerances clamp
 * (info.params holds what was used). NaN or Inf anywhere is PM_ERR_INVALID_ARGUMENT naming the
 * parameter, and so is an enum outside its range.
 *
 * STYLES (params.style): the defaults of the amounts left unset, each chosen so that the walk's
 * features (bench/walk-features.mjs: elbows, arm swing, shoulder and hip turns, sway, head, knees)
 * lie in the range of a family of motion-captured walks (docs/catwalk.md has the figures):
 *   runway    the defaults of pm_catwalk_params;
 *   feminine  hip_sway 0.25, pelvis_drop 0.28, torso_twist 0.3, torso_sway 0.3, arm_swing 0.2,
 *             elbow_bend 0.4, stance_knee 0.4, step_height 0.4;
 *   casual    cross_step 0.1, hip_sway 0.45, pelvis_drop 0.25, torso_sway 0.1, lean 0, heel_strike 0.5,
 *             stance_knee 0.35;
 *   strut     bob 0.9, cross_step 0.4, hip_sway 0.65, pelvis_drop 0.19, torso_twist 0.6, torso_sway 0,
 *             arm_swing 0.35, stance_knee 0.
 *
 * OWNERSHIP AND COST
 *   *out is a new motion (pm_vmd_free). info.used points into the model's name strings (valid as
 *   long as they are); info.missing points to static strings. Nothing else is kept (the plan's arrays
 *   belong to the caller's pm_catwalk_plan). A default loop with its landing (240 frames) takes about
 *   2.5 ms natively, 3 ms in wasm (bench/bench_catwalk.c; docs/benchmarks.md has the figures).
 */
#ifndef PROCMOTION_CATWALK_H
#define PROCMOTION_CATWALK_H

#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/math.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_catwalk_cadence {
    PM_CATWALK_CADENCE_DEFAULT = 0, /* = PM_CATWALK_CADENCE_TWO_BEAT */
    PM_CATWALK_CADENCE_BEAT,        /* one step per beat */
    PM_CATWALK_CADENCE_TWO_BEAT,    /* one step every two beats: slower, more deliberate */
    PM_CATWALK_CADENCE_COUNT,
    PM_CATWALK_CADENCE_FORCE_U32 = 0x7fffffff
} pm_catwalk_cadence;

/* Style: the family of real walks the unset amounts follow (STYLES below). */
typedef enum pm_catwalk_style {
    PM_CATWALK_STYLE_DEFAULT = 0, /* = PM_CATWALK_STYLE_RUNWAY */
    PM_CATWALK_STYLE_RUNWAY,      /* a fashion runway walk: crossing steps, hips that roll, loose arms */
    PM_CATWALK_STYLE_FEMININE,    /* a softer feminine walk: less roll and sway, arms close and straighter */
    PM_CATWALK_STYLE_CASUAL,      /* an everyday walk: feet under the hips, little sway, a freer torso */
    PM_CATWALK_STYLE_STRUT,       /* a strut: long straight-legged steps, hips level, shoulders turning
                                     against them, the head riding out over the standing foot */
    PM_CATWALK_STYLE_COUNT,
    PM_CATWALK_STYLE_FORCE_U32 = 0x7fffffff
} pm_catwalk_style;

typedef enum pm_catwalk_arm_pose {
    PM_CATWALK_ARMS_DEFAULT = 0, /* = PM_CATWALK_ARMS_SWING */
    PM_CATWALK_ARMS_SWING,       /* arms hang and swing opposite to the legs */
    PM_CATWALK_ARMS_POSED,       /* a still fashion pose: pose_shoulder / pose_elbow */
    PM_CATWALK_ARMS_COUNT,
    PM_CATWALK_ARMS_FORCE_U32 = 0x7fffffff
} pm_catwalk_arm_pose;

/*
 * Catwalk parameters. Zero-initialise: every zero field means its default.
 * Default configuration (a runway walk): no BPM (120 BPM at speed 1), '2beat' cadence (one step
 * every 1 s), swinging arms, in place; hip_sway 0.6, step_height 0.5, stride 0.5, cross_step 0.55,
 * hip_twist 0.5, pelvis_drop 0.5, torso_twist 0.5, torso_sway 0.15, lean -0.1, head_follow 0.3,
 * toe_off 0.5, heel_strike 0.4, bob 0.5, stance_knee 0.3, arm_swing 0.5, elbow_bend 0.5, pose_shoulder 70 deg,
 * pose_elbow 30 deg, blink 1, expression 0.25, seed 1, tolerances 0.01 units and 0.2 degrees.
 * "L" below is the leg length (hip to ankle: 9.42 units for the standard figure).
 */
typedef struct pm_catwalk_params {
    float bpm;   /* music tempo; 0 = none (tempo = 120 * speed). Clamped to [60, 200]. */
    pm_beat_grid grid; /* zero = none (bpm above). Set: the heel strikes land on its beats (BEAT GRID
                          below) and bpm is ignored. Borrowed for the call. */
    float speed; /* 0 = 1. Only without a BPM (with one, steps stay on the beats). [0.5, 1.66] */
    pm_catwalk_cadence cadence;   /* steps per beat: 'beat' or '2beat' (default) */
    pm_catwalk_arm_pose arm_pose; /* 'swing' (default) or 'posed' */
    pm_catwalk_style style;       /* 'runway' (default), 'feminine', 'casual' or 'strut': the defaults
                                     of the amounts left unset (STYLES above) */
    bool traverse;                /* walk out along -Z and back instead of in place */
    bool u_turn;                  /* turn 180 degrees at each end and walk back forwards (implies
                                     traverse) */
    float traverse_distance;      /* 0 = what the loop's steps cover; else units, [0, 400]: more
                                     distance lengthens the loop, never the stride */

    pm_amount hip_sway;           /* [0, 1] 0.6: lateral shift of the hips' midpoint toward the stance
                                     foot, up to +-0.072 L (0.6: +-3.2 cm on a 1.6 m figure) */
    pm_amount step_height;        /* [0, 1] 0.5: swing foot lift above the toe-off/heel-strike line,
                                     up to 0.14 L */
    pm_amount stride;             /* [0, 1] 0.5: step length = stride * 1.5 L (0 = step on the spot) */
    pm_amount cross_step;         /* [0, 1] 0.55: where feet land: 0 under the hips, 0.5 on the
                                     centre line, 1 a full hip width across it */
    pm_amount hip_twist;          /* [0, 1] 0.5: pelvis yaw, leading hip forward, up to +-16 deg */
    pm_amount pelvis_drop;        /* [0, 1] 0.5: pelvis roll about the hips, swing-side hip down, up
                                     to +-18 deg */
    pm_amount torso_twist;        /* [-1, 1] 0.5: shoulder-line yaw, up to +-20 deg: > 0 against the
                                     pelvis (the shoulder over the stance leg goes forward), < 0 with
                                     it */
    pm_amount torso_sway;         /* [0, 1] 0.15: how much the torso leans back over the centre
                                     against the hip sway (1 = shoulders stay over the centre) */
    pm_amount lean;               /* [-1, 1] -0.1: upper body pitch, up to +-15 deg, + = forward */
    pm_amount head_follow;        /* [0, 1] 0.3: share of the torso's turn and tilt the head follows
                                     (0 = the head stays level and faces the walking direction) */
    pm_amount toe_off;            /* [0, 1] 0.5: heel raised at toe-off, up to 60 deg */
    pm_amount heel_strike;        /* [0, 1] 0.4: toes up at heel strike, up to 30 deg */
    pm_amount bob;                /* [0, 1] 0.5: pelvis drop at double support against mid stance,
                                     up to 0.1 L (0.5: 4 cm on a 1.6 m figure) */
    pm_amount stance_knee;        /* [0, 1] 0.3: least knee bend beyond the model's rest bend,
                                     1 + 40 * x deg (0.3: 13 deg at mid stance) */
    pm_amount arm_swing;          /* [0, 1] 0.5: arm swing from the shoulder, up to +-44 deg */
    pm_amount elbow_bend;         /* [0, 1] 0.5: relaxed elbows, bent 30 * x deg with the arm back and
                                     60 * x deg more at the front of the swing; the hand trails */
    pm_amount pose_shoulder;      /* [0, 90] 70: 'posed' upper arm angle below horizontal, deg */
    pm_amount pose_elbow;         /* [0, 150] 30: 'posed' elbow bend (forearm forward), deg */
    pm_amount blink;              /* [0, 1] 1: blink morph weight; 0 = no blinks */
    pm_amount expression;         /* [0, 1] 0.25: smile morph weight; 0 = none */
    uint32_t seed;                /* 0 = 1: blink timing (deterministic) */
    float position_tolerance;     /* 0 = 0.01; key fit tolerance in units, [0.0005, 0.5] */
    float rotation_tolerance;     /* 0 = 0.2; key fit tolerance in degrees, [0.01, 10] */
    pm_allocator allocator;       /* zero = malloc/free; the motion keeps it */
} pm_catwalk_params;

/* The longest motion a grid with beats gives (10 minutes at 30 fps). */
#define PM_CATWALK_MAX_FRAMES 18000u

/* Channels (bones) the catwalk knows, in this order in pm_catwalk_info. */
#define PM_CATWALK_BONE_COUNT 20

typedef struct pm_catwalk_info {
    pm_catwalk_params params;     /* what was used: every value set and clamped */
    uint32_t loop_frames;         /* the loop length; keys at 0 and loop_frames are equal */
    uint32_t steps;               /* heel strikes per loop (8 * m) */
    double beat_frames;           /* true frames per beat: 1800 / bpm */
    double step_frames;           /* true frames per step (beat_frames or twice that) */
    double bpm;                   /* the tempo used (clamped, or 120 * speed) */
    double drift_frames_per_minute; /* |loop_frames - steps * step_frames| per loop, per minute */
    uint32_t key_count;           /* bone keys */
    uint32_t morph_key_count;
    uint32_t property_key_count;
    double max_position_error;    /* largest deviation of the keys from the continuous motion,
                                     units, over every half frame and keyed position channel */
    double max_rotation_error;    /* the same for rotations, degrees */
    double leg_length;            /* units, hip to ankle (mean of both legs) */
    double step_length;           /* units, heel strike to the next heel strike (at full speed) */
    double traverse_distance;     /* units walked out (0 in place) */
    double crouch;                /* how far センター was lowered so the IK reaches (units) */
    double lift;                  /* swing foot lift (units) */
    uint32_t used_count;
    const char *used[PM_CATWALK_BONE_COUNT + 2]; /* the model's names of the keyed bones */
    uint32_t missing_count;
    const char *missing[PM_CATWALK_BONE_COUNT];  /* canonical names of bones the model lacks */
    const char *blink_morph;      /* the morph used for blinks, or NULL */
    const char *expression_morph; /* the morph used for the expression, or NULL */

    /* What MMD plays (see LANDING above). */
    bool verified;                /* the legs were landed and the report measured (a skeleton was
                                     given, or the standard figure: on the built-in mannequin) */
    pm_landing_report report;     /* measured by playing the result (valid when verified); its limbs
                                     are the left and the right leg */
    const char *report_bones[2];  /* the model's names of those limbs' ankles */
    bool on_mannequin;            /* verified on the built-in mannequin (no model was given) */

    /* The beat grid (BEAT GRID above). */
    bool looping;                 /* the motion is a loop (false with a grid that lists beats) */
    bool synced;                  /* a grid or a BPM was given: sync is measured (needs verified) */
    double first_strike_beat;     /* the grid beat of strike 0 (b0) */
    double beats_per_step;        /* s */
    pm_beat_sync sync;            /* the heel strikes (both feet, frames 0 .. loop_frames) against their
                                     beats, frames, as played (verified) or as keyed (names only) */
} pm_catwalk_info;

/* One heel strike against its beat. */
typedef struct pm_catwalk_strike {
    uint32_t frame;     /* the played strike (see BEAT GRID) */
    uint32_t side;      /* 0 left, 1 right */
    double beat;        /* its grid beat */
    double beat_frame;  /* where that beat is: 30 x its time */
    double error;       /* frame - beat_frame */
} pm_catwalk_strike;

/* The plan: where the ankles are meant to be, per whole frame 0 .. frames (= loop_frames). */
typedef struct pm_catwalk_plan {
    uint32_t frames;
    float *ankles;                /* [(frames + 1) * 6]: world positions, left xyz then right xyz */
    uint8_t *contact;             /* [(frames + 1) * 2]: each foot's pm_landing_contact */
    float floor[2];               /* each ankle's standing height ("below rest" is measured from it) */
    pm_vec3 heel[2], ball[2];     /* the foot pivots: offsets from the ankle's rest position */
    uint32_t strike_count;
    pm_catwalk_strike *strikes;   /* [strike_count] (with a grid or a BPM): the strikes in 0 .. frames */
    pm_allocator allocator;       /* what the arrays came from */
} pm_catwalk_plan;

/* Free a plan's arrays (NULL and repeated calls are fine). */
void pm_catwalk_plan_free(pm_catwalk_plan *plan);

/*
 * Generate the loop. params NULL = all defaults; model NULL = every standard bone, standard
 * proportions; info may be NULL. On failure *out is NULL.
 */
pm_result pm_catwalk_generate(const pm_catwalk_params *params, const pm_target_model *model, pm_vmd **out,
                              pm_catwalk_info *info, pm_error *err);
/* The same, and the plan into *plan (may be NULL; free it with pm_catwalk_plan_free). */
pm_result pm_catwalk_generate_plan(const pm_catwalk_params *params, const pm_target_model *model, pm_vmd **out,
                                   pm_catwalk_info *info, pm_catwalk_plan *plan, pm_error *err);

/*
 * Read parameters from JSON text (an object; the JS glue's names): bpm (number or null), speed,
 * stepCadence ("beat" | "2beat"), armPose ("swing" | "posed"), style ("runway" | "feminine" | "casual" | "strut"),
 * traverse, uTurn, traverseDistance, hipSway, stepHeight, stride, crossStep, hipTwist, pelvisDrop,
 * torsoTwist, torsoSway, lean, headFollow, toeOff, heelStrike, bob, stanceKnee, armSwing, elbowBend, poseArmAngle ({shoulder, elbow}
 * or [shoulder, elbow], degrees), blink, expression, seed, positionTolerance, rotationTolerance.
 * null means the default. An unknown key, a wrong type or a bad enum string is
 * PM_ERR_INVALID_ARGUMENT naming the key. *out is zeroed first (then filled).
 */
pm_result pm_catwalk_params_from_json(const char *json, size_t len, pm_catwalk_params *out, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
