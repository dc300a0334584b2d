/*
 * procmotion/landing.h -- generators close the loop: effectors (ankles, hands) land where the plan
 * says, as MMD plays the keys, and the report says what was measured.
 *
 * A generator (catwalk, the groove bake, the tracing bake, ...) plans the world path of each effector
 * (a leg's ankle, a hand), writes its keys, and hands both to pm_landing_close. The mechanism keys the
 * legs so that MMD's leg IK puts each ankle on its plan, then plays the result with the MMD-exact
 * evaluator (procmotion/pose.h: babylon-mmd's FK, append and CCD IK with limits) at every whole frame
 * and measures: effector error, floor penetration, stance reach and stance-foot slide per limb. The
 * report is what babylon-mmd will show, never what a simpler model predicts.
 *
 * USAGE
 *       pm_landing_limb legs[2] = {0};
 *       legs[0].effector = rig->legs[0].ankle;                       // 左足首
 *       legs[0].ik_bone = rig->chains[rig->legs[0].ik_chain].ik_bone; // 左足ＩＫ
 *       legs[0].per_frame = 2;                                       // plan samples per frame
 *       legs[0].plan = left_ankle_world;                             // [(frames * 2 + 1) * 3]
 *       ... the right leg ...
 *       pm_vmd *landed = NULL;
 *       pm_landing_report rep;
 *       if (pm_landing_close(skeleton, vmd, frames, legs, 2, NULL, &landed, &rep, &err) == PM_OK) ...
 *       // rep.max_error: the played ankles' largest distance from the plan, measured
 *
 * WHAT pm_landing_close DOES for a "leg" limb (its ik_bone's chain has the effector as target and two
 * links, the effector's parent (the knee, ひざ) and its parent (the hip, 足))
 *   1. IK target. The IK bone's position keys are rewritten so that its world position is the plan:
 *      the IK bone's rest offset from the effector (a 足ＩＫ 0.36 below its ankle) is thereby taken
 *      care of, and so is its parent (足IK親). Its rotation keeps the generator's (limb.ik_rotation
 *      samples, or the input's keys). Positions are fitted with VMD Bezier keys within
 *      position_tolerance; limb.forced frames keep a key.
 *   2. FK pre-pose. The hip and knee get rotation keys that put the effector exactly on the IK bone's
 *      played position at every whole frame: the knee turns about its own X axis (its fixed axis, if
 *      it has one), as MMD's knee limit allows, and the hip by the shortest arc in its parent's frame.
 *      MMD's CCD (and babylon-mmd's, which follows saba) first checks whether the target is already
 *      reached (distance < 1e-4) and then stops at once, so the played effector is the plan whatever
 *      the CCD's precision: no dependence on its iteration count, its float rounding or the knee
 *      limit's behaviour near full extension (docs/models.md), and the same result in MMD, babylon-mmd's
 *      JS and wasm runtimes. Between whole frames the CCD starts from the interpolated pre-pose.
 *   3. IK off where the CCD could not hold it. A frame whose knee angle lies outside the knee link's
 *      limit as the skeleton carries it (a PMD knee read the babylon-mmd way: 28.6 degrees beyond rest
 *      at least; a plan nearer than MMD's limit allows) would be clamped by the CCD between whole
 *      frames: property keys switch that leg's IK off for those frames and on again after, so the
 *      FK keys alone play there. A plan out of reach (farther than thigh and shin stretched) keeps the
 *      leg stretched toward it; its error is reported (generators keep plans within reach: see
 *      pm_landing_leg_reach).
 *   4. With limb.keep_children, IK bones hanging from the limb's IK bone (つま先ＩＫ) get a constant
 *      offset of the IK bone's rest offset, so they keep their rest relation to the effector (the
 *      foot's pitch is unchanged when 足ＩＫ moves up to the ankle).
 *   5. Verification: the result is played at every whole frame 0..frames and measured (the report).
 *   Every other key of the input (other bones, morphs, camera, light, shadow, property keys) is kept.
 *   A leg without IK (limb.fk_only) gets step 2 alone, onto the plan itself. A motion of one frame
 *   (frames 0) is only measured. Any other limb without
 *   such a chain (a hand without IK) is only measured; so is every limb with
 *   PM_LANDING_MEASURE_ONLY, and pm_landing_measure measures a motion as it is.
 *
 * THE REPORT (every figure measured by playing the result at whole frames 0..frames)
 *   error       |played effector - plan| over the limb's active frames: max, RMS, worst frame
 *   penetration with limb.contact: how far the effector goes below limb.floor at any active frame (0 if never)
 *   stance_gap  with limb.contact: over every stance (a run of contact frames), the lowest effector
 *               height above limb.floor within it; the largest of those (0: every stance reaches the floor)
 *   slide       with limb.contact: the largest distance a pivot moves between two consecutive frames of
 *               the same contact kind: the heel point (heel), the effector (flat), the ball (ball); a
 *               pivot is limb.heel / limb.ball carried by the effector bone's played world matrix
 *   ik_off_frames  whole frames keyed with that leg's IK off; unreachable_frames: plans out of reach
 *   The whole report takes the worst (max) and the RMS over all limbs.
 *
 * PLANNING HELPERS (so that generators plan what MMD can play)
 *   pm_landing_leg_reach: the hip-ankle distance a rig leg reaches with the knee bent at least
 *   `knee_bend` and within MMD's knee limit (rest bend + 0.5 degrees); pm_landing_reach_need: how far a
 *   hip must come down for a target to be within a reach; pm_landing_smooth_need: the smallest smooth
 *   profile above such needs (how generators lower the pelvis where the plan is out of reach).
 *
 * OWNERSHIP, COST, THREADS
 *   *out is a new motion (pm_vmd_free); everything else is borrowed for the call. Cost: one evaluation
 *   without IK and one verifying evaluation per whole frame (the CCD stops at once), plus the key
 *   fitting; a 240-frame catwalk on the mannequin takes about 2 ms natively. No global state.
 *
 * ERRORS
 *   PM_ERR_INVALID_ARGUMENT names the parameter (a NULL plan, a bone out of range, a NaN or infinite
 *   plan sample, more than PM_LANDING_MAX_LIMBS limbs, frames above PM_LANDING_MAX_FRAMES);
 *   PM_ERR_OUT_OF_MEMORY; the pose evaluator's errors for bad keys.
 */
#ifndef PROCMOTION_LANDING_H
#define PROCMOTION_LANDING_H

#include "procmotion/common.h"
#include "procmotion/math.h"
#include "procmotion/rig.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_LANDING_MAX_LIMBS 4
#define PM_LANDING_MAX_FRAMES 216000u /* two hours at 30 fps */

typedef enum pm_landing_contact {
    PM_LANDING_SWING = 0, /* no contact */
    PM_LANDING_HEEL,      /* stance, rolling about the heel */
    PM_LANDING_FLAT,      /* stance, the foot flat: the effector is the pivot */
    PM_LANDING_BALL,      /* stance, rolling about the ball of the foot */
    PM_LANDING_CONTACT_COUNT
} pm_landing_contact;

typedef struct pm_landing_limb {
    uint32_t effector;        /* the bone that follows the plan (足首, 手首) */
    uint32_t ik_bone;         /* the IK bone that steers it, PM_NO_INDEX: measured only */
    uint32_t per_frame;       /* samples per frame of plan and ik_rotation (0 = 1; at most 8) */
    const float *plan;        /* [(frames * per_frame + 1) * 3] world positions, frame 0 .. frames */
    const float *ik_rotation; /* optional [(frames * per_frame + 1) * 4]: the IK bone's local rotation
                                 (x y z w) at the same samples; NULL = the input's keys of that bone */
    const uint8_t *forced;    /* optional [frames + 1]: whole frames where the IK bone keeps a key */
    const uint8_t *active;    /* optional [frames + 1]: 0 = no plan at this frame (left alone, not
                                 measured); NULL = every frame */
    const uint8_t *contact;   /* optional [frames + 1]: pm_landing_contact per whole frame */
    float floor;              /* the effector's height when it stands (with contact) */
    pm_vec3 heel, ball;       /* pivots: offsets from the effector's rest position, model axes at rest */
    bool keep_children;       /* IK bones under ik_bone keep their rest relation to the effector */
    bool fk_only;             /* a leg without IK (ik_bone PM_NO_INDEX): its hip and knee (the
                                 effector's grandparent and parent) are keyed by FK onto the plan */
    float *played;            /* optional output [(frames + 1) * 16]: the effector's world matrix as the
                                 verification played it at every whole frame (column-major, math.h);
                                 for measuring events on the result (heel strikes against beats) */
} pm_landing_limb;

enum {
    PM_LANDING_MEASURE_ONLY = 1u << 0, /* change nothing: copy the input and measure it */
    PM_LANDING_NO_IK_OFF = 1u << 1,    /* never switch a leg's IK off (keep IK on everywhere) */
    PM_LANDING_LOOP = 1u << 2,         /* a loop: frame `frames` is frame 0 again, and the keys the
                                          mechanism writes there equal those at frame 0 */
};

/*
 * Options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, landed within 0.01 units, IK bone positions fitted within 0.002
 * units and rotations within 0.05 degrees.
 */
typedef struct pm_landing_options {
    pm_allocator allocator;
    float tolerance;          /* 0 = 0.01 units: report.landed when every error is within it */
    float position_tolerance; /* 0 = 0.002 units: key fit of the IK bones' positions, [1e-5, 0.1] */
    float rotation_tolerance; /* 0 = 0.05 degrees: key fit of the IK bones' rotations, [1e-4, 5] */
    double period;            /* optional key-fit hint: the motion roughly repeats every `period` frames */
    uint32_t flags;           /* PM_LANDING_* */
    float fk_tolerance;       /* 0 = the pre-pose keyed on every whole frame (exact); else degrees: its keys
                                 fitted within this (fewer keys; MMD's CCD closes what remains where the IK
                                 is on) */
} pm_landing_options;

typedef struct pm_landing_limb_report {
    uint32_t effector;
    bool steered;             /* keyed by the mechanism (a leg limb), else only measured */
    uint32_t frames;          /* active whole frames measured */
    double max_error;         /* units, |played - plan| */
    double rms_error;
    uint32_t worst_frame;
    double penetration;       /* units below limb.floor, 0 when never (needs contact) */
    double stance_gap;        /* units: the worst stance's lowest height above the floor (needs contact) */
    uint32_t stances;         /* stances seen (needs contact) */
    double max_slide;         /* units per frame, pivot movement within a contact kind (needs contact) */
    uint32_t slide_frame;     /* where (the later frame) */
    uint32_t ik_off_frames;   /* frames keyed with the IK off */
    uint32_t unreachable_frames; /* frames whose plan is out of the leg's reach */
} pm_landing_limb_report;

typedef struct pm_landing_report {
    uint32_t frames;          /* last frame measured (frames 0 .. frames) */
    uint32_t limb_count;
    pm_landing_limb_report limbs[PM_LANDING_MAX_LIMBS];
    double max_error, rms_error, penetration, stance_gap, max_slide; /* worst (RMS over all) */
    uint32_t ik_off_frames, unreachable_frames;
    uint32_t key_count;       /* bone keys the mechanism wrote (IK bones, hips, knees, child IK bones) */
    uint32_t property_key_count; /* property keys in the result */
    bool landed;              /* max_error <= tolerance */
} pm_landing_report;

/* Land the limbs (see above) and measure. *out is a new motion; report may be NULL. */
pm_result pm_landing_close(const pm_skeleton *skeleton, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                           uint32_t limb_count, const pm_landing_options *opts, pm_vmd **out, pm_landing_report *report,
                           pm_error *err);

/* Measure `vmd` as it is (no change). */
pm_result pm_landing_measure(const pm_skeleton *skeleton, const pm_vmd *vmd, uint32_t frames, const pm_landing_limb *limbs,
                             uint32_t limb_count, const pm_landing_options *opts, pm_landing_report *report, pm_error *err);

/* ---- planning helpers ------------------------------------------------------------------------- */

/* The hip-ankle distance a rig leg reaches with its knee bent at least `knee_bend` radians and at
 * least MMD's limit (rest bend + 0.5 degrees): thigh and shin at that bend (0 for a missing leg). */
double pm_landing_leg_reach(const pm_rig_leg *leg, double knee_bend);

/* How far (units, may be negative) the hip at `hip` must come down so that `target` lies within
 * `reach` of it; horizontally farther than 0.95 reach counts as 0.95 reach (the hip then comes down
 * to 0.3 reach above the target). */
double pm_landing_reach_need(pm_vec3 hip, pm_vec3 target, double reach);

/* The crouch over a loop of n periodic samples (need[n] must exist and receives need[0]): the
 * smallest smooth profile at or above the needs (clamped to [0, cap]), a sliding maximum over
 * +-radius samples then two box filters of half-width radius / 2; `tmp` holds n doubles. Replaces
 * need[] with the profile and returns its maximum. */
double pm_landing_smooth_need(double *need, double *tmp, uint32_t n, uint32_t radius, double cap);

/* ---- the body as it plays --------------------------------------------------------------------- */

/* Options of pm_landing_measure_body; zero-initialise (or pass NULL) for the defaults: malloc/free, not
 * a loop. */
typedef struct pm_landing_body_options {
    pm_allocator allocator;
    uint32_t flags; /* PM_LANDING_LOOP: frame `frames` is frame 0 again (loop_gap is measured) */
} pm_landing_body_options;

/* What the whole body does when MMD plays a motion: measured with the MMD-exact evaluator (FK, append
 * and CCD IK) at every whole frame 0 .. frames. */
typedef struct pm_landing_body_report {
    uint32_t frames;
    bool hands;                   /* the rig has arms and capsules: the hand figures hold */
    double hand_clearance[2];     /* units, per hand (0 left, 1 right): the least distance from the wrist or
                                     the middle fingertip to the surface of a body capsule (pm_rig_body_capsules;
                                     negative: inside it) */
    uint32_t clearance_frame[2];  /* where */
    pm_rig_capsule_id clearance_capsule[2]; /* and which capsule */
    double wrist_range[2];        /* units: how far each wrist moves, the largest of its ranges along X, Y and
                                     Z over the motion */
    double head_turn;             /* degrees: the largest angle between the head's orientation at any frame
                                     and at frame 0 (0 without a head) */
    double pelvis_speed;          /* units per second: the fastest the pelvis (下半身, or the hips' midpoint)
                                     moves from one frame to the next */
    double loop_gap;              /* with PM_LANDING_LOOP: units, the largest distance between a bone's
                                     position at frame `frames` and at frame 0 */
} pm_landing_body_report;

/* Measure `vmd` played on the rig's skeleton (see pm_landing_body_report). Costs one full evaluation per
 * whole frame. */
pm_result pm_landing_measure_body(const pm_rig *rig, const pm_vmd *vmd, uint32_t frames, const pm_landing_body_options *opts,
                                  pm_landing_body_report *report, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
