/*
 * procmotion/transition.h -- a change of motion without a pop: a short VMD that blends the pose the
 * outgoing motion has when the change comes into the incoming motion, the feet planted or stepping.
 *
 * USAGE
 *       pm_transition_options o = {0};
 *       o.from_frame = 412;                  // where the outgoing motion is when the change comes
 *       o.to_frame = 0;                      // where the incoming motion starts
 *       o.frames = 30;                       // the blend (a beat or two)
 *       pm_vmd *vmd = NULL;
 *       pm_transition_report rep;
 *       pm_transition_bake(idle, catwalk, skeleton, &o, &vmd, &rep, &err);
 *       // play vmd (frames 0 .. o.frames), then the incoming motion from frame to_frame + frames
 *
 * WHAT IT DOES
 *   Frame 0 is the outgoing motion's pose at from_frame (held); the incoming motion plays from to_frame
 *   on, and over `frames` frames every bone either motion keys turns from the held pose into the playing
 *   one (a minimum-jerk weight: no jump at either end, nor in speed). Frame `frames` is the incoming
 *   motion's pose at to_frame + frames (wrapped into its loop with to_loop_frames), so playing it on from
 *   there continues without a seam.
 *   The feet: each ankle stays where the outgoing pose plants it until it is its turn to step; a foot
 *   that must move more than 0.02 units lifts and lands on where the incoming motion has it, the higher
 *   (or the farther) foot first, one after the other (first half, second half); after its step it
 *   follows the incoming motion. The leg IK bones are keyed on that plan and landed with
 *   pm_landing_close (procmotion/landing.h); センター comes down where a leg would not reach. The report
 *   measures the planted frames as MMD plays them (slide, floor, error).
 *   Every other key type: the incoming motion's morphs blend in the same way; property keys (IK on) are
 *   the landing's.
 *
 * OWNERSHIP AND COST
 *   Both motions and the skeleton are borrowed for the call; *out is a new motion (pm_vmd_free). A
 *   30-frame transition costs a few evaluations per frame.
 */
#ifndef PROCMOTION_TRANSITION_H
#define PROCMOTION_TRANSITION_H

#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise for the defaults. */
typedef struct pm_transition_options {
    pm_allocator allocator;
    uint32_t frames;          /* 0 = 30: the blend's length, [4, 300] */
    double from_frame;        /* the outgoing motion's frame when the change comes (>= 0) */
    double to_frame;          /* the incoming motion's frame the blend starts at (>= 0) */
    uint32_t to_loop_frames;  /* 0 = the incoming motion plays on; else it loops over [0, to_loop_frames) */
} pm_transition_options;

typedef struct pm_transition_report {
    uint32_t frames;          /* the transition's length */
    uint32_t steps;           /* feet that stepped */
    double step_distance[2];  /* how far each foot moved (units; 0: it stayed) */
    bool verified;            /* the feet were landed and measured (the model's legs have IK) */
    pm_landing_report landing; /* limbs: left, right ankle; stances are the planted frames */
    uint32_t keyed_bones, key_count;
} pm_transition_report;

/* Bake the transition from `from` (at options.from_frame) into `to` (from options.to_frame). */
pm_result pm_transition_bake(const pm_vmd *from, const pm_vmd *to, const pm_skeleton *skeleton, const pm_transition_options *opts,
                             pm_vmd **out, pm_transition_report *report, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
