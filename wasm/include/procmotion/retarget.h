/*
 * procmotion/retarget.h -- a humanoid motion from another rig (BVH, glTF, VRM, VRM Animation) as a VMD
 * for an MMD model.
 *
 * USAGE
 *       pm_humanoid_motion *src = NULL;                       // procmotion/humanoid.h
 *       pm_humanoid_motion_read(bvh_bytes, bvh_size, NULL, &src, &err);
 *       pm_vmd *vmd = NULL;
 *       pm_retarget_report rep;
 *       if (pm_retarget(src, skeleton, NULL, &vmd, &rep, &err) == PM_OK)   // skeleton NULL: the mannequin
 *           ... pm_vmd_write(vmd, ...) ...;                   // rep.frames + 1 frames at 30 fps
 *       pm_vmd_free(vmd); pm_humanoid_motion_free(src);
 *
 * METHOD
 *   Axes. The source's rest pose gives its axes: left from the right hip to the left hip, up from the
 *   hips to the shoulders, forward the way the toes point (without toes: left x up, as a right-handed
 *   file has it). They map onto the model's (+X left, +Y up, facing -Z), a reflection when the file is
 *   right-handed.
 *   Rotations. Each bone the source and the model both have turns, in world space, as the source's
 *   turns from its rest pose; the model's rest direction is first turned onto the source's (shortest
 *   arc from its bone towards the next one: an A-pose model plays a T-pose motion with the arms where
 *   the source has them). A limb the source holds straight at rest (a knee or an elbow bent less than
 *   10 degrees) is aligned whole, from its root to its end, and its middle joint keeps the model's rest
 *   bend: an MMD knee sits in front of the hip-ankle line of a straight leg. The hips' turn goes on センター; every other bone gets the local rotation that
 *   gives it its world rotation under its parent as MMD plays the parent (append and fixed axes
 *   included). Bones between them (twist bones, shoulder P/C, 腰キャンセル) keep their rest.
 *   Hands. The body's capsules (pm_rig_body_capsules) are built on the source too, scaled by its legs:
 *   where a hand of the model would go deeper into the torso, head or a thigh than the source's hand
 *   goes into the source's (or into it at all, when the source's stays out), the upper arm turns out
 *   until it does not; where the source's hand touches its body (within 0.01 leg lengths), the model's
 *   is turned in to within 0.02 leg lengths of the model's.
 *   Translation. センター moves the hips as the source's move, scaled by the ratio of the legs (hip to
 *   ankle at rest), with the height taken above the floor the source stands on (its ankles'
 *   low point) and the horizontal start at the model's own place.
 *   Feet. A source foot stands where its ankle is within 0.04 leg lengths of the source's floor and
 *   moves less than 0.012 leg lengths a frame (runs of 3 frames or more). Through each stance the model's
 *   ankle is held still on the model's ground, where the FK legs have it on average; in the swings it
 *   follows the FK path, carried by an offset that blends from one stance's to the next's, never below
 *   the ground. The hips come down where a plan is beyond the leg's reach, and the landing module keys
 *   足ＩＫ (its rotation the FK foot's) and checks every frame with the MMD-exact evaluator
 *   (procmotion/landing.h). A model without leg IK plays the legs by FK.
 *   Arm IK chains are turned off by a property key at frame 0 (the arms are keyed by FK).
 *   Keys. Every bone's samples at 30 fps are fitted with VMD Bezier keys within the tolerances.
 *
 * THE REPORT
 *   the source (format, naming, rate, duration), the scale, the model bones keyed and the source's
 *   bones the model lacks, the key count and the fit's largest errors, and the body as MMD plays the
 *   result (hands against the body's capsules, procmotion/landing.h).
 *
 * OWNERSHIP AND ERRORS
 *   *out is a new motion (pm_vmd_free); the source and the skeleton are borrowed for the call. A
 *   skeleton without センター, hips, legs or arms the resolver finds is PM_ERR_NOT_FOUND naming the
 *   role; a clip longer than max_frames is PM_ERR_LIMIT; the source's sampling errors pass through.
 */
#ifndef PROCMOTION_RETARGET_H
#define PROCMOTION_RETARGET_H

#include "procmotion/common.h"
#include "procmotion/humanoid.h"
#include "procmotion/landing.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PM_RETARGET_MAX_BONES 64

/* Options; zero-initialise for the defaults (or pass NULL): malloc/free, keys within 0.002 units and
 * 0.1 degrees, at most two hours. */
typedef struct pm_retarget_options {
    pm_allocator allocator;
    float position_tolerance; /* 0 = 0.002 units */
    float rotation_tolerance; /* 0 = 0.1 degrees */
    uint32_t max_frames;      /* 0 = PM_LANDING_MAX_FRAMES */
} pm_retarget_options;

typedef struct pm_retarget_report {
    pm_humanoid_motion_format format;
    const char *naming;             /* the source's naming: "vrm", "mixamo", "cmu", ..., "inferred" (static) */
    double confidence;              /* 1 for names; the hierarchy inference's otherwise (humanoid.h) */
    double source_fps, duration;    /* the source's rate and length (seconds) */
    uint32_t frames;                /* the VMD's last frame (frames 0 .. frames at 30 fps) */
    double scale;                   /* model units per source unit (the legs' ratio, hip to ankle at rest) */
    bool forward_from_toes;         /* the source's forward came from its toes */
    uint32_t mapped_count;          /* roles keyed from the source (bones of the model) */
    const char *mapped[PM_RETARGET_MAX_BONES]; /* their role names (rig.h, static) */
    uint32_t unmapped_count;        /* roles the source has and the model lacks */
    const char *unmapped[PM_RETARGET_MAX_BONES]; /* role names (static) */
    uint32_t key_count;             /* bone keys written */
    double max_position_error;      /* units: the key fit's largest error */
    double max_rotation_error;      /* degrees */
    double source_hand_clearance[2]; /* model units: the least clearance of the source's hands (0 left, 1 right)
                                        from its body, scaled to the model (capsules as pm_rig_body_capsules) */
    uint32_t hand_frames[2];        /* frames whose arm was turned (out of the body, or in to touch it) */
    uint32_t touch_frames[2];       /* frames where the source's hand touched its body (within 0.01 leg lengths) */
    double touch_gap[2];            /* units: the most the model's hand stayed away from the body beyond 0.02 leg
                                       lengths in those frames (0: always within): the landed motion played with
                                       the MMD-exact evaluator, the arm corrected, before its keys are fitted again
                                       (within 0.1 degrees) */
    bool feet_landed;               /* the legs were keyed by IK onto the plan (the model has leg IK) */
    uint32_t stances[2];            /* the source feet's stances (0 left, 1 right) */
    double crouch;                  /* units: the most the hips were lowered to keep a plan within reach */
    pm_landing_report feet;         /* the feet as MMD plays them (procmotion/landing.h) */
    pm_landing_body_report body;    /* as MMD plays the result */
} pm_retarget_report;

pm_result pm_retarget(const pm_humanoid_motion *source, const pm_skeleton *model, const pm_retarget_options *opts, pm_vmd **out,
                      pm_retarget_report *report, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
