/*
 * procmotion/bvh.h -- read BioVision Hierarchy (BVH) motion capture files and evaluate them (FK).
 *
 * USAGE
 *       pm_bvh *bvh = NULL;
 *       if (pm_bvh_read(data, size, NULL, &bvh, &err) != PM_OK) ...;
 *       pm_mat4 *world = malloc(bvh->joint_count * sizeof *world);
 *       for (uint32_t f = 0; f < bvh->frame_count; f++) {
 *           pm_bvh_world_matrices(bvh, f, world, &err);     // world[j] for every joint and End Site
 *           ... pm_mat4_get_translation(&world[j]) ...
 *       }
 *       pm_bvh_free(bvh);
 *
 * WHAT IS READ
 *   HIERARCHY with one ROOT (a second ROOT is an error), JOINT and End Site blocks in braces, OFFSET x y z,
 *   CHANNELS n followed by n distinct names out of Xposition Yposition Zposition Xrotation Yrotation
 *   Zrotation in any order (n = 0..6; 3 and 6 are usual; End Sites have none), then MOTION,
 *   "Frames: N", "Frame Time: T" and N rows of as many numbers as there are channels in total.
 *   Keywords are case-sensitive as in the format; a joint's name is the rest of its line (so names
 *   may hold spaces or ':' as in "mixamorig:Hips"). Line breaks inside the motion rows do not matter.
 *   Numbers are parsed without the C locale (pmi_parse_double): "-1.5", ".0083333", "1e-3".
 *
 * JOINTS
 *   joints[] lists every ROOT/JOINT and every End Site in file order, so a parent always comes before
 *   its children. An End Site has end_site = true, no channels, and the name "<parent>_End" (it is
 *   the tip of its parent's bone: head top, finger tip, toe tip).
 *
 * SEMANTICS (what FK computes)
 *   Rotation channels are degrees. A joint's local transform is
 *       T(offset + (Xposition, Yposition, Zposition)) * R(c1) * R(c2) * ...
 *   where c1, c2, ... are its rotation channels in the order the file lists them, R(c) the rotation
 *   about that axis (right-handed, counter-clockwise looking down the axis), applied to column
 *   vectors: for "Zrotation Xrotation Yrotation" a point is rotated about Y first, then X, then Z
 *   (intrinsic Z-X-Y), which is what BVH writers (CMU, Motionbuilder, Blender, bvh11) mean. Position
 *   channels add to the OFFSET for every joint, root included (the root's OFFSET is usually zero).
 *   world(joint) = world(parent) * local(joint); the root's parent is the identity. Channels a joint
 *   does not list are zero. No unit conversion: positions are in the file's units.
 *
 * LIMITS AND HOSTILE INPUT
 *   Nesting is tracked with an explicit stack, never recursion: a BVH nested deeper than max_depth
 *   (default 256) fails with PM_ERR_LIMIT, whatever its size. joint_count <= max_joints (default
 *   10 000), frame_count <= max_frames (default 10 000 000), and Frames x channels must fit in the
 *   bytes left (each value needs at least two bytes) before anything is allocated. A NaN, Inf or
 *   out-of-float-range value, a missing brace, an unknown or repeated channel, Frame Time <= 0 and a
 *   motion shorter than announced are errors naming the line. Values after the last announced frame
 *   are ignored.
 *
 * OWNERSHIP
 *   pm_bvh_read allocates one pm_bvh (free with pm_bvh_free, NULL is fine); `data` is only read during
 *   the call. Evaluation functions allocate nothing and write caller buffers of joint_count entries.
 */
#ifndef PROCMOTION_BVH_H
#define PROCMOTION_BVH_H

#include "procmotion/common.h"
#include "procmotion/math.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pm_bvh_channel {
    PM_BVH_XPOSITION = 0,
    PM_BVH_YPOSITION,
    PM_BVH_ZPOSITION,
    PM_BVH_XROTATION,
    PM_BVH_YROTATION,
    PM_BVH_ZROTATION,
    PM_BVH_CHANNEL_COUNT
} pm_bvh_channel;

typedef struct pm_bvh_joint {
    pm_string name;         /* UTF-8 as in the file; End Sites are named "<parent>_End" */
    uint32_t parent;        /* PM_NO_INDEX for the root */
    uint32_t depth;         /* 0 for the root */
    pm_vec3 offset;         /* OFFSET, in the parent's frame */
    uint32_t channel_count; /* 0..6 */
    uint8_t channels[6];    /* pm_bvh_channel, in file order */
    uint32_t first_channel; /* column of channels[0] in a motion row */
    bool end_site;
} pm_bvh_joint;

typedef struct pm_bvh {
    uint32_t magic;         /* internal */
    uint32_t joint_count;   /* joints and End Sites */
    pm_bvh_joint *joints;
    uint32_t channel_count; /* values per frame */
    uint32_t frame_count;   /* may be 0 */
    double frame_time;      /* seconds, > 0 */
    float *motion;          /* [frame_count * channel_count], as in the file (degrees for rotations) */
    pm_allocator allocator;
    void *internal;         /* internal: name arena */
} pm_bvh;

/*
 * Reading options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, no memory limit, max_depth 256, max_joints 10 000,
 * max_frames 10 000 000.
 */
typedef struct pm_bvh_read_options {
    pm_allocator allocator;
    uint32_t max_depth;  /* 0 = 256 */
    uint32_t max_joints; /* 0 = 10 000 (End Sites count) */
    uint32_t max_frames; /* 0 = 10 000 000 */
} pm_bvh_read_options;

pm_result pm_bvh_read(const uint8_t *data, size_t size, const pm_bvh_read_options *opts, pm_bvh **out,
                      pm_error *err);
void pm_bvh_free(pm_bvh *bvh);

/* Index of the first joint with this exact name, or PM_NO_INDEX. */
uint32_t pm_bvh_find(const pm_bvh *bvh, const char *name);

/* Local translation and rotation of every joint at `frame` (as SEMANTICS above); frame_count == 0
 * or frame >= frame_count gives the rest pose (all channels zero). Either array may be NULL. */
void pm_bvh_local_pose(const pm_bvh *bvh, uint32_t frame, pm_vec3 *translation, pm_quat *rotation);

/* World matrices of every joint at `frame`. Fails with PM_ERR_INVALID_ARGUMENT when frame >=
 * frame_count (use frame_count 0 with frame 0 for the rest pose). */
pm_result pm_bvh_world_matrices(const pm_bvh *bvh, uint32_t frame, pm_mat4 *world, pm_error *err);

/* World matrices at `time` seconds: each joint's rotation slerped and translation lerped between the
 * two neighbouring frames; time is clamped to [0, (frame_count - 1) * frame_time]. A non-finite time
 * is PM_ERR_INVALID_ARGUMENT. */
pm_result pm_bvh_sample(const pm_bvh *bvh, double time, pm_mat4 *world, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
