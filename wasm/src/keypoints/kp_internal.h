/* Internal: the one retarget path every keypoint source goes through.
 *
 *   source (BVH / glTF / VMD) --world matrices per frame--> rig + plan --33 world points--> raw
 *   raw (also filled directly by JSON input) --pelvis, scale, projection, angles--> pm_kp_sequence
 */
#ifndef PROCMOTION_KP_INTERNAL_H
#define PROCMOTION_KP_INTERNAL_H

#include "common/internal.h"
#include "procmotion/keypoints.h"
#include "procmotion/math.h"

/* Humanoid slots the joint map fills: 5 centre slots, then 12 per side (left, then right). */
enum {
    PMI_SLOT_HIPS = 0,
    PMI_SLOT_SPINE,
    PMI_SLOT_CHEST,
    PMI_SLOT_NECK,
    PMI_SLOT_HEAD,
    PMI_SLOT_CENTER_COUNT
};
enum {
    PMI_SIDE_SHOULDER = 0,
    PMI_SIDE_UPPER_ARM,
    PMI_SIDE_LOWER_ARM,
    PMI_SIDE_HAND,
    PMI_SIDE_UPPER_LEG,
    PMI_SIDE_LOWER_LEG,
    PMI_SIDE_FOOT,
    PMI_SIDE_TOES,
    PMI_SIDE_EYE,
    PMI_SIDE_THUMB,
    PMI_SIDE_INDEX,
    PMI_SIDE_LITTLE,
    PMI_SIDE_COUNT
};
#define PMI_SLOT_LEFT(s) (PMI_SLOT_CENTER_COUNT + (s))
#define PMI_SLOT_RIGHT(s) (PMI_SLOT_CENTER_COUNT + PMI_SIDE_COUNT + (s))
#define PMI_SLOT_COUNT (PMI_SLOT_CENTER_COUNT + 2 * PMI_SIDE_COUNT)

/* A source skeleton. World matrices (rest and per frame) are in the source's own space; `canon` (made
 * by the plan) turns them into the keypoint world frame. */
typedef struct pmi_kp_rig {
    uint32_t joint_count;
    pm_string *names;          /* [joint_count] (views of the source's strings) */
    uint32_t *parent;          /* [joint_count], PM_NO_INDEX for roots */
    pm_mat4 *rest;             /* [joint_count] world rest matrices */
    uint8_t *candidate;        /* [joint_count]: 0 = not a joint for name matching (all 1 after alloc) */
    uint32_t slots[PMI_SLOT_COUNT]; /* joint per slot (PM_NO_INDEX = none) */
    const char *family;        /* set by pmi_kp_map_names, or by the source */
} pmi_kp_rig;

/* Allocate the four arrays of a rig of `joint_count` joints (candidate all 1, slots empty, family NULL);
 * pmi_kp_rig_release frees them (safe on a partly allocated rig). */
pm_result pmi_kp_rig_alloc(pmi_kp_rig *rig, const pm_allocator *allocator, uint32_t joint_count, pm_error *err);
void pmi_kp_rig_release(pmi_kp_rig *rig, const pm_allocator *allocator);

/* Fill rig->slots and rig->family from the names (the family that maps most core joints), else from the
 * hierarchy and the rest pose (family "inferred", pm_humanoid_infer_roles). Fails with PM_ERR_NOT_FOUND
 * when neither finds both upper legs and both upper arms. */
pm_result pmi_kp_map_names(pmi_kp_rig *rig, const pm_allocator *allocator, pm_error *err);
/* The slot of a single name in the named family's table, or PM_NO_INDEX (the VRM humanoid table, tests). */
uint32_t pmi_kp_name_slot(const char *family, const char *name);

/* How each of the 33 points comes out of a frame's world matrices. */
typedef struct pmi_kp_plan {
    pm_mat4 canon;                        /* source space -> keypoint world frame */
    uint32_t joint[PM_KP_POINT_COUNT];    /* carrying joint, PM_NO_INDEX = missing */
    pm_vec3 local[PM_KP_POINT_COUNT];     /* offset in the carrying joint's frame */
    float conf[PM_KP_POINT_COUNT];
} pmi_kp_plan;

pm_result pmi_kp_make_plan(const pmi_kp_rig *rig, pmi_kp_plan *plan, pm_error *err);
/* 33 world points (keypoint frame) from world matrices; missing points sit on their topology parent. */
void pmi_kp_plan_points(const pmi_kp_plan *plan, const pm_mat4 *world, float *pos);

/* Place points with confidence 0 on their parent in the topology (the virtual neck and pelvis are
 * computed from the shoulders and hips). */
void pmi_kp_fill_missing(float *pos, const float *conf);

/* World points before normalisation. */
typedef struct pmi_kp_raw {
    const pm_allocator *allocator;
    uint32_t frame_count;
    double fps;
    bool mirrored;
    double *timestamp_ms; /* [frame_count] */
    float *pos;           /* [frame_count * 33 * 3] keypoint world frame */
    float *conf;          /* [frame_count * 33] */
    pm_kp_stats stats;
} pmi_kp_raw;

pm_result pmi_kp_raw_init(pmi_kp_raw *raw, const pm_allocator *allocator, uint32_t frame_count, pm_error *err);
void pmi_kp_raw_release(pmi_kp_raw *raw);
/* Timestamps i * 1000 / fps. */
void pmi_kp_raw_uniform_time(pmi_kp_raw *raw, double fps);
/* Pelvis to origin, adaptive scale, projection, angles. Takes the arrays of `raw` (released either way). */
pm_result pmi_kp_finish(pmi_kp_raw *raw, pm_kp_sequence **out, pm_error *err);

/* stats.direct/inferred/missing_points from the first frame's visibility (>= 0.75, >= 0.25, below). */
void pmi_kp_count_tiers(pm_kp_sequence *seq);

/* A sequence with allocated arrays and nothing else set (codecs). */
pm_result pmi_kp_sequence_new(const pm_allocator *allocator, uint32_t frame_count, pm_kp_sequence **out, pm_error *err);

/* Evaluate world matrices of a rig at frame `frame` (time = frame / fps seconds). Only the joints with
 * needed[j] != 0 are read afterwards (the same mask every frame); a source may skip the others. */
typedef pm_result (*pmi_kp_eval_fn)(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world,
                                    pm_error *err);

/* Map names (unless the source set rig->family, and the slots with it), plan, evaluate every frame, finish. */
pm_result pmi_kp_run_rig(pmi_kp_rig *rig, uint32_t frame_count, double fps, pmi_kp_eval_fn eval, void *ctx,
                         const pm_kp_options *opts, pm_kp_stats *stats, pm_kp_sequence **out, pm_error *err);

uint32_t pmi_kp_max_frames(const pm_kp_options *opts);
/* Frames of a `duration`-second source sampled at `fps` (both ends included); PM_ERR_LIMIT past the limit. */
pm_result pmi_kp_frames_for(double duration, double fps, const pm_kp_options *opts, uint32_t *frames, pm_error *err);
/* Decoders: frame f of a sequence they fill must hold what every sequence holds (x, y in [0, 1], z in
 * [-1, 1], visibility in [0, 1], a timestamp >= 0 and >= the previous one); PM_ERR_BAD_FORMAT naming
 * `where` `at` (e.g. "NDJSON line" 7) and the value otherwise. */
pm_result pmi_kp_check_decoded(const pm_kp_sequence *s, uint32_t f, const char *where, size_t at, pm_error *err);
/* Frames per second when the timestamps (ms) are evenly spaced within 1 ms, else 0. */
double pmi_kp_even_fps(const double *timestamp_ms, uint32_t count);

/* Sources. */
pm_result pmi_kp_from_bvh(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err);
pm_result pmi_kp_from_gltf(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err);
pm_result pmi_kp_from_fbx(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err);
/* A VMD played on opts->model, or on the built-in mannequin. */
pm_result pmi_kp_from_vmd(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err);
pm_result pmi_kp_from_json(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err);

/* The world frame of MMD data: mirror Z (S M S with S = diag(1, 1, -1)) into *out (may be m). */
void pmi_kp_mirror_z(const pm_mat4 *m, pm_mat4 *out);

#endif
