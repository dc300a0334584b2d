/*
 * procmotion/keypoints.h -- motion (BVH, VMD, glTF/GLB, FBX, keypoint JSON) to MediaPipe Pose 33-point
 * sequences, joint-angle features, and the 239-byte binary and NDJSON codecs.
 *
 * USAGE
 *       pm_kp_sequence *seq = NULL;
 *       if (pm_kp_from_data(bytes, size, PM_KP_FORMAT_AUTO, NULL, &seq, &err) != PM_OK) ...;
 *       for (uint32_t f = 0; f < seq->frame_count; f++) {
 *           const float *p = seq->points + f * PM_KP_POINT_COUNT * 3;      // x, y, z per point
 *           const float *v = seq->visibility + f * PM_KP_POINT_COUNT;
 *           const float *a = seq->angles + f * PM_KP_ANGLE_COUNT;          // cosines
 *       }
 *       pm_kp_write_ndjson(seq, NULL, 0, &size, &err);                      // size query, then write
 *       pm_kp_free(seq);
 *
 * TOPOLOGY (the contract: seeds/003 section 1 to 3; MediaPipe Pose 33 only)
 *   Points 0..32 as pm_kp_point_name() lists them (nose, eyes, ears, mouth, shoulders, elbows, wrists,
 *   pinky/index/thumb, hips, knees, ankles, heels, foot index). Virtual points 33 = neck (midpoint of
 *   the shoulders 11, 12) and 34 = pelvis (midpoint of the hips 23, 24) take part in the parent table
 *   (pm_kp_point_parent) and in angles only; they are never in a sequence.
 *
 * COORDINATES AND PROJECTION
 *   Every source is first brought to one world frame: right-handed, Y up, the character facing +Z
 *   (towards the camera) with its left side on +X. MMD data (left-handed, facing -Z) is mirrored in Z
 *   first (rotations (x, y, z, w) -> (-x, -y, z, w), translations z -> -z); then, for every rig, the
 *   rest pose picks the axis permutation that makes hips-to-shoulders +Y and right-hip-to-left-hip +X
 *   (a proper rotation: it turns a Z-up or -Z-facing rig around, it never mirrors). Per frame the pelvis
 *   (point 34) goes to the origin. One scale for the whole motion, s = 0.35 / max(|x|, |y|, |z|) over all
 *   frames and all points with confidence > 0, then
 *       x_img = 0.5 + x s,   y_img = 0.5 - y s,   z_img = -z s
 *   so x, y are in [0.15, 0.85], y grows downwards, z is in [-0.35, 0.35], negative towards the camera,
 *   with the pelvis at (0.5, 0.5, 0). The character's left appears on the image's right (as a camera
 *   facing the person sees it, unmirrored).
 *
 * CONFIDENCE (visibility) TIERS
 *   1.0: the point is a joint of the source (shoulder = upper-arm joint, elbow, wrist = hand joint, hip =
 *        upper-leg joint, knee, ankle = foot joint, foot index = toe joint, eyes and fingers when the rig
 *        has them). 0.5: inferred from the hierarchy: carried rigidly by a joint's frame from a rest
 *        offset (nose, eyes, ears and mouth by the head; pinky, index and thumb by the hand; heels, and
 *        the foot index without a toe joint, by the foot), or the joint taken from the hierarchy when the
 *        name is missing (a wrist = first child of the lower arm). 0.0: cannot be inferred; the point then
 *        sits on its parent in the topology. Points of JSON input keep their own visibility.
 *
 * ANGLES (seeds/003 section 5)
 *   Ten cosines, angle(a, b, c) = dot(normalize(a - b), normalize(c - b)) in [-1, 1] (0 when a vector
 *   is zero): shoulder_L, shoulder_R, elbow_L, elbow_R, hip_L, hip_R, knee_L, knee_R, neck, spine
 *   (pm_kp_angle_name). The contract calls them nine while listing ten: all ten are emitted by name and
 *   a feature vector has 33 * 3 + 10 = 109 values (docs/keypoints.md records the decision).
 *
 * SOURCES
 *   BVH (bvh.h): at its own frame rate, or resampled to options.fps. glTF/GLB (gltf.h): animation
 *   options.animation sampled at 30 fps (or options.fps); a file without animations gives one rest
 *   frame. Binary FBX (fbx.h): the same, with the file's animation stacks and its bones as the joints. VMD: always 30 fps whatever options.fps says; played by the pose evaluator (pose.h: the
 *   MMD-exact evaluator, babylon-mmd's append and CCD IK with the skeleton's limits) on options.model
 *   (PMX/PMD) or, without one, on the built-in mannequin (mannequin.h: the 32 semi-standard bones);
 *   bone names are matched with full-width and half-width ASCII alike (足ＩＫ = 足IK) and bones the
 *   skeleton lacks are ignored and counted (stats.ignored_bones). Leg drive is decided once per motion:
 *   a 足ＩＫ track with a non-zero translation -> leg IK, otherwise FK, which
 *   switches the skeleton's 足ＩＫ/つま先ＩＫ chains off. JSON keypoints (mediapipe33@0.1.0, see
 *   docs/keypoints.md): validated, then taken back to the world frame (x - 0.5, 0.5 - y, -z) and
 *   normalised like every other source. NDJSON and binary streams written by this module are read
 *   back as they are (no renormalisation).
 *
 * JOINT NAMES
 *   Source joint names are normalised (lower case, ASCII letters and digits plus CJK/kana kept,
 *   full-width ASCII folded, the prefixes "mixamorig", "J_Bip", "Bip01" and anything before ':' or '|'
 *   dropped; sides from left/right, l/r, .L/_R suffixes and 左/右) and matched exactly against the
 *   table of one family, the family that maps most core joints: MMD, CMU (bvh11 and ASF names),
 *   Mixamo/MotionBuilder, Daz/Poser, 3ds Max Biped, humanoid (VRM/Unity/Blender names), each one
 *   table of the rig resolver (procmotion/rig.h) used on its own, and humanoid.h (the resolver with
 *   every table). A VRM's own
 *   humanoid table (VRMC_vrm or VRM 0.x) is used when present. stats.family names the choice.
 *
 * NO NaN
 *   Outputs never hold NaN or Inf: a non-finite computed value becomes the point's parent position
 *   with visibility 0 and is counted in stats.nan_count; values outside x, y in [0, 1], z in [-1, 1]
 *   are clamped and counted in stats.out_of_range. Both are 0 for every fixture (tests/c).
 *
 * CODECS
 *   Binary frame (PM_KP_FRAME_SIZE = 239 bytes, little-endian): magic "KP" (0x4B 0x50), version u8 = 1,
 *   flags u8 (bit 0 = mirrored), timestamp u32 milliseconds; then 33 x (x, y, z int16 = round(v * 32767)
 *   clamped to [-32767, 32767], visibility u8 = round(v * 255)). A stream is frames back to back.
 *   NDJSON: one frame per line, {"timestamp":ms,"mirrored":false,"points":[[x,y,z,v] x 33],
 *   "angles":{"shoulder_L":c,...}} with 6 decimals. Both read back with pm_kp_read_binary /
 *   pm_kp_read_ndjson; NDJSON -> binary -> NDJSON agrees within the quantisation (1/32767, 1/255,
 *   1 ms). The readers keep the sequence ranges: a value outside x, y in [0, 1], z in [-1, 1],
 *   visibility in [0, 1] (a binary x or y below 0, an edited NDJSON line) or a timestamp going back is
 *   PM_ERR_BAD_FORMAT naming the frame and point.
 *
 * OWNERSHIP
 *   A sequence owns its arrays; pm_kp_free(NULL) is fine. Input bytes are only read during the call.
 */
#ifndef PROCMOTION_KEYPOINTS_H
#define PROCMOTION_KEYPOINTS_H

#include "procmotion/common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_KP_POINT_COUNT 33
#define PM_KP_VIRTUAL_NECK 33
#define PM_KP_VIRTUAL_PELVIS 34
#define PM_KP_ALL_POINT_COUNT 35
#define PM_KP_ANGLE_COUNT 10
#define PM_KP_FEATURE_SIZE (PM_KP_POINT_COUNT * 3 + PM_KP_ANGLE_COUNT)
#define PM_KP_FRAME_SIZE 239
#define PM_KP_FRAME_HEADER_SIZE 8
#define PM_KP_FRAME_VERSION 1
#define PM_KP_JSON_FORMAT "mediapipe33@0.1.0"

typedef enum pm_kp_format {
    PM_KP_FORMAT_AUTO = 0, /* decided from the bytes */
    PM_KP_FORMAT_BVH,
    PM_KP_FORMAT_VMD,
    PM_KP_FORMAT_GLTF,   /* .gltf (JSON) or .glb */
    PM_KP_FORMAT_JSON,   /* mediapipe33@0.1.0 keypoint JSON */
    PM_KP_FORMAT_NDJSON, /* this module's NDJSON */
    PM_KP_FORMAT_BINARY, /* this module's 239-byte frames */
    PM_KP_FORMAT_FBX,    /* binary FBX 7.x (procmotion/fbx.h) */
    PM_KP_FORMAT_COUNT
} pm_kp_format;

typedef enum pm_kp_leg_drive {
    PM_KP_LEGS_NONE = 0, /* not a VMD */
    PM_KP_LEGS_FK,
    PM_KP_LEGS_IK
} pm_kp_leg_drive;

typedef struct pm_kp_stats {
    pm_kp_format format;        /* the format read */
    const char *family;         /* joint naming family ("mmd", "cmu", "mixamo", "daz", "biped", "humanoid",
                                   "vrm", "keypoints"); static string */
    uint32_t source_joints;     /* joints or bones of the source skeleton */
    uint32_t ignored_bones;     /* VMD: distinct bone names with keys that the skeleton does not use */
    uint32_t direct_points;     /* points with confidence 1.0 */
    uint32_t inferred_points;   /* 0.5 */
    uint32_t missing_points;    /* 0.0 */
    uint32_t nan_count;         /* non-finite values caught (and replaced) on the way out */
    uint32_t out_of_range;      /* values clamped into the normalised range */
    float scale;                /* s of the projection */
    pm_kp_leg_drive legs;       /* VMD leg drive */
} pm_kp_stats;

typedef struct pm_kp_sequence {
    uint32_t magic;         /* internal */
    uint32_t frame_count;
    double fps;             /* frames per second of the timestamps (0 when they are irregular) */
    bool mirrored;          /* the flag of the binary header; carried, never applied */
    double *timestamp_ms;   /* [frame_count] */
    float *points;          /* [frame_count * 33 * 3] x, y, z */
    float *visibility;      /* [frame_count * 33] */
    float *angles;          /* [frame_count * 10] cosines */
    pm_kp_stats stats;
    pm_allocator allocator;
} pm_kp_sequence;

/* Progress of a long conversion: `done` of `total` frames. */
typedef void (*pm_kp_progress_fn)(void *user, uint32_t done, uint32_t total);

/*
 * Conversion options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, the source's frame rate (BVH: its Frame Time; glTF: 30 fps;
 * VMD: always 30), glTF animation 0, at most 1 000 000 frames, no progress callback.
 */
typedef struct pm_kp_options {
    pm_allocator allocator;
    double fps;            /* 0 = source rate; BVH and glTF are resampled to it; ignored for VMD */
    uint32_t animation;    /* glTF animation index */
    uint32_t max_frames;   /* 0 = 1 000 000; more is PM_ERR_LIMIT */
    const uint8_t *model;  /* VMD only: a PMX or PMD model whose own skeleton and IK to use (NULL = the built-in
                              mannequin); borrowed during the call */
    size_t model_size;
    pm_kp_progress_fn progress;
    void *progress_user;
} pm_kp_options;

/* Names: pm_kp_point_name(0..34) ("nose" .. "right_foot_index", "neck", "pelvis"), NULL past 34;
 * pm_kp_angle_name(0..9), NULL past 9. */
const char *pm_kp_point_name(uint32_t point);
const char *pm_kp_angle_name(uint32_t angle);
/* Parent in the contract's table (-1 for the pelvis, -2 past 34). */
int32_t pm_kp_point_parent(uint32_t point);
const char *pm_kp_format_name(pm_kp_format format);

/* Guess the format from the first bytes (BVH "HIERARCHY", VMD header, GLB magic, FBX header, JSON with "asset" =
 * glTF, JSON with "format" = keypoint JSON, a line starting {"timestamp" = NDJSON, "KP" frames =
 * binary). PM_KP_FORMAT_AUTO when unknown. */
pm_kp_format pm_kp_detect_format(const uint8_t *data, size_t size);

/* Convert any supported input to a sequence. */
pm_result pm_kp_from_data(const uint8_t *data, size_t size, pm_kp_format format, const pm_kp_options *opts,
                          pm_kp_sequence **out, pm_error *err);
void pm_kp_free(pm_kp_sequence *seq);

/* A sequence from caller arrays: timestamps [frames] (ms, non-decreasing), points [frames * 99] (x, y in
 * [0, 1], z in [-1, 1]), visibility [frames * 33] ([0, 1]); values are copied and checked (a non-finite
 * or out-of-range value is PM_ERR_INVALID_ARGUMENT naming the frame), angles computed, fps taken from
 * evenly spaced timestamps. For encoding keypoints that came from elsewhere. `allocator` may be NULL. */
pm_result pm_kp_from_arrays(uint32_t frames, const double *timestamp_ms, const float *points, const float *visibility,
                            bool mirrored, const pm_allocator *allocator, pm_kp_sequence **out, pm_error *err);

/* Count non-finite values and values outside x, y in [0, 1], z in [-1, 1], visibility and angles in their
 * ranges, and timestamps that go backwards (a check for tests and the CLI summary). */
void pm_kp_check(const pm_kp_sequence *seq, uint32_t *nan_count, uint32_t *out_of_range);

/* Joint-angle cosines of one frame of 33 points (x, y, z each). */
void pm_kp_angles(const float *points, float angles[PM_KP_ANGLE_COUNT]);

/* Feature vectors for a matcher: frame_count x PM_KP_FEATURE_SIZE floats (33 x (x, y, z), then the ten
 * angle cosines recomputed from the filled points). Points with visibility < 0.5 are filled by linear
 * interpolation between the nearest frames where that point is visible (held at the ends; left as is
 * when it is never visible). out_cap counts floats; too small is PM_ERR_INVALID_ARGUMENT. */
pm_result pm_kp_features(const pm_kp_sequence *seq, float *out, size_t out_cap, pm_error *err);

/* ---- codecs ------------------------------------------------------------------------------------ */

/* One frame as the binary codec carries it. */
typedef struct pm_kp_frame {
    double timestamp_ms;
    bool mirrored;
    float points[PM_KP_POINT_COUNT * 3];
    float visibility[PM_KP_POINT_COUNT];
} pm_kp_frame;

/* Encode frame `frame` of seq into exactly PM_KP_FRAME_SIZE bytes. */
pm_result pm_kp_encode_frame(const pm_kp_sequence *seq, uint32_t frame, uint8_t out[PM_KP_FRAME_SIZE], pm_error *err);
/* Decode one frame; size must be PM_KP_FRAME_SIZE and the magic "KP" (PM_ERR_BAD_FORMAT otherwise; a
 * newer version is PM_ERR_BAD_FORMAT too). */
pm_result pm_kp_decode_frame(const uint8_t *data, size_t size, pm_kp_frame *out, pm_error *err);

/* Whole sequences. out == NULL: only *out_size is set. */
pm_result pm_kp_write_binary(const pm_kp_sequence *seq, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err);
pm_result pm_kp_write_ndjson(const pm_kp_sequence *seq, char *out, size_t out_cap, size_t *out_size, pm_error *err);
/* Read a binary stream (size a multiple of 239) or NDJSON text back; angles are recomputed for binary. */
pm_result pm_kp_read_binary(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out,
                            pm_error *err);
pm_result pm_kp_read_ndjson(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out,
                            pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
