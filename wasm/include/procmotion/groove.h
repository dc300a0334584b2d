/*
 * procmotion/groove.h -- a BPM oscillation layer ("groove") on top of any pose or VMD.
 *
 * Two mechanisms share one beat clock:
 *   1. joint oscillation (FK): each joint (pelvis, spine chain, neck, head, shoulders, arms, elbows)
 *      gets an offset rotation about one of its local axes, post-multiplied onto the posed bone's
 *      local rotation: rotation' = rotation * offset. The source pose or keyframes are never changed.
 *   2. squat bounce (legs by IK): the whole body moves down (and sideways) on the beat while both feet
 *      stay on anchors captured on the first frame: each leg is solved with the analytic two-bone IK
 *      (knee toward the front) and the ankle's world rotation is locked to its anchor.
 *
 * USAGE (a viewer, per frame)
 *       pm_groove_config cfg = {0};                      // zero = the defaults
 *       pm_groove_config_parse(json, len, &cfg, &err);   // merge user settings (only changed fields)
 *       pm_groove *g = NULL;
 *       pm_groove_create(skeleton, &cfg, NULL, &g, &err);
 *       for each frame:
 *           pm_pose_sample(anim, ws, frame, pose, &err); // or any animated local pose
 *           pm_groove_frame out;
 *           pm_groove_offsets(g, pose, seconds, bpm, 0, &out, &err);
 *           // rotation[b] *= out.bone_offset[b]; body bone translation += out.body_offset;
 *           // and, with the leg IK switched off, the six leg bones take out.leg_rotation
 *       pm_groove_free(g);
 *
 *   The bake: pm_groove_apply_to_vmd(base_or_NULL, skeleton, &cfg, bpm, NULL, &vmd, &report, &err)
 *   writes a new VMD with the groove on top of the base motion (or of the rest pose).
 *
 * WAVES AND THE CLOCK
 *   beat = seconds * bpm / 60 (continuous: it never resets at keyframes). For a joint of frequency f
 *   (cycles per beat) and phase d (cycles, a delay): p = f * beat - d, and
 *     bounce(p) = (1 - cos 2 pi p) / 2   in [0, 1], valley (0) exactly on the beat when d = 0;
 *     sine(p)   = sin 2 pi p             in [-1, 1].
 *   The joint turns by amp * wave(p) degrees about its axis. A larger phase is a later joint: with the
 *   defaults the phase rises up the spine (pelvis 0, spine 0.03, chest 0.06, upper chest 0.09, neck
 *   0.12, head 0.15) so the motion travels upward like a wave; right-side joints are half a cycle
 *   (0.5) behind their left-side partners.
 *   Squat bounce: u = bounce(p) (or (1 + sine(p)) / 2 with wave = sine), body offset =
 *   (lateral * sin 2 pi p, vertical * (u - 1), 0) / 8 MMD units (cm / 8): the body's height follows
 *   the wave, its low point (-vertical) on the wave's valley, back to the rest height at the top.
 *
 * DEFAULTS (docs/groove.md has the table): pelvis 下半身, spine 上半身, chest 上半身2, upperChest
 *   上半身3 bounce about x; neck 首 and head 頭 sine about z; shoulders 左肩/右肩 sine about z; arms
 *   左腕/右腕 sine about x; elbows 左ひじ/右ひじ bounce about y (mirrored amplitudes). Squat: on,
 *   3 cm down, 1.5 cm sideways, 1 cycle per beat, bounce.
 *
 * SETTINGS (pm_groove_config) AND JSON
 *   A pm_groove_config holds what the user changed: per joint a bit mask of PM_GROOVE_FIELD_* and the
 *   values of those fields only; the rest come from the defaults. Zero-initialised it is the defaults.
 *   pm_groove_config_parse merges a JSON document into a config (schema in docs/groove.md):
 *       { "joints": { "head": { "amp": 5 }, "neck": null }, "squat": { "vertical": 4 },
 *         "reset": "all" | ["head", "squat"] }
 *   null resets a joint (or "squat", or all "joints"); "reset" resets before the rest applies; a
 *   field set to its default value is dropped from the changes. Unknown joints, fields or bad values
 *   (wrong type, NaN/Inf, out of range) fail with PM_ERR_INVALID_ARGUMENT naming them, e.g.
 *   "groove: joints.head.amp must be a number in [-180, 180] (degrees), got 500", and the config is
 *   left unchanged. pm_groove_config_to_json writes the merged config (every field) or only the
 *   changes (PM_GROOVE_JSON_CHANGED).
 *   Ranges: amp [-180, 180] degrees; freq [0, 16] cycles per beat; phase [0, 1]; squat vertical
 *   [0, 100] cm, lateral [-100, 100] cm; bpm (0, 1000].
 *
 * BONES
 *   Resolved by role with the rig resolver (procmotion/rig.h: semi-standard names full-width and
 *   half-width alike, English, VRoid, Mixamo ... names too). A joint whose
 *   bone is missing is skipped and listed in pm_groove_info.skipped. The body bone is グルーブ, else
 *   センター, else the root above 左足; its translation (VMD semantics: an offset in its parent's
 *   frame) takes the body offset. The legs are 左足/左ひざ/左足首 and 右足/右ひざ/右足首; without all
 *   six (or without a body bone) the squat bounce is skipped ("squat" in the skipped list).
 *
 * THE SQUAT BOUNCE AT RUN TIME (pm_groove_offsets)
 *   The pose (animated local rotations and translations) plus the joint offsets is evaluated with the
 *   workspace's IK settings (pm_groove_workspace; leg IK on by default). On the first frame (or after
 *   pm_groove_reset_anchors / PM_GROOVE_RESET_ANCHORS) the ankles' world positions and rotations
 *   become the anchors. Then the body offset moves the body bone, each leg is solved by pm_pose_leg_ik
 *   (pole in front of the knee: opts.forward, default -Z, turned with the body bone) so the ankle
 *   lands on its anchor, and the ankle's local rotation is derived from its parent's current world
 *   rotation so that its world rotation equals the anchor's. leg_rotation holds the resulting local
 *   rotations of the six leg bones (after any IK correction): apply them with the leg IK chains
 *   (those whose links are leg bones, e.g. 足ＩＫ and つま先ＩＫ) switched off. A viewer that keeps
 *   MMD's leg IK on can ignore leg_rotation: moving the body bone and leaving 足ＩＫ where it is plants
 *   the feet the MMD way (what the bake does).
 *   PM_GROOVE_LEG_IK_USER (the user is posing the legs by IK): the squat bounce yields completely -
 *   no body offset, no leg solve, the anchors are dropped and captured again when it resumes.
 *
 * THE BAKE (pm_groove_apply_to_vmd)
 *   Samples the base motion (or the rest pose) every half frame with the groove on top, and fits keys
 *   with VMD Bezier curves on whole frames, keys only where the tolerance needs them (default 0.002
 *   units, 0.05 degrees; the deviation measured over every half frame is in the report). Keyed bones:
 *   the joint bones (rotation = base * offset) and the body bone (translation = base + body offset);
 *   their base keys are replaced, every other key (bones, morphs, camera, light, shadow, property) is
 *   copied. The feet stay where the base motion (or the rest pose) puts them as MMD plays it: those
 *   played ankles are the plan. On a model whose legs are driven by 足ＩＫ chains the legs then go
 *   through the closed loop (procmotion/landing.h): the 足ＩＫ bones are keyed on the plan, the legs
 *   pre-posed so MMD's CCD finds the targets reached, IK switched off (property keys) where the knee
 *   limit could not hold them (PMD knees as babylon-mmd reads them), and the result is played and
 *   measured: report.max_foot_error and report.landing. On a model without leg IK the analytic
 *   solution is baked into the six leg bones and measured the same way.
 *
 * PREVIEW WITHOUT PLAYBACK (pm_groove_preview)
 *   When nothing resets the body position between steps, each step first removes the offset it added
 *   on the previous step, then adds the new one. The stepper remembers the value it wrote: when the
 *   position still holds it (in double or in float), the base is taken as stored, so any number of
 *   steps leaves the rest position exactly where it was; a position moved by someone else becomes the
 *   new base.
 *
 * ALLOCATION AND THREADS
 *   pm_groove_create and pm_groove_apply_to_vmd allocate; pm_groove_offsets never does (its outputs
 *   live in the pm_groove, valid until the next call). No global state. The skeleton is borrowed and
 *   must outlive the pm_groove.
 */
#ifndef PROCMOTION_GROOVE_H
#define PROCMOTION_GROOVE_H

#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/landing.h"
#include "procmotion/math.h"
#include "procmotion/pose.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The joints (JSON names in pm_groove_joint_name, MMD bones in pm_groove_joint_bone). */
typedef enum pm_groove_joint_id {
    PM_GROOVE_PELVIS = 0,     /* pelvis 下半身 */
    PM_GROOVE_SPINE,          /* spine 上半身 */
    PM_GROOVE_CHEST,          /* chest 上半身2 */
    PM_GROOVE_UPPER_CHEST,    /* upperChest 上半身3 */
    PM_GROOVE_NECK,           /* neck 首 */
    PM_GROOVE_HEAD,           /* head 頭 */
    PM_GROOVE_LEFT_SHOULDER,  /* leftShoulder 左肩 */
    PM_GROOVE_RIGHT_SHOULDER, /* rightShoulder 右肩 */
    PM_GROOVE_LEFT_ARM,       /* leftArm 左腕 */
    PM_GROOVE_RIGHT_ARM,      /* rightArm 右腕 */
    PM_GROOVE_LEFT_ELBOW,     /* leftElbow 左ひじ */
    PM_GROOVE_RIGHT_ELBOW,    /* rightElbow 右ひじ */
    PM_GROOVE_JOINT_COUNT
} pm_groove_joint_id;

typedef enum pm_groove_wave {
    PM_GROOVE_BOUNCE = 0, /* (1 - cos 2 pi p) / 2 */
    PM_GROOVE_SINE,       /* sin 2 pi p */
    PM_GROOVE_WAVE_COUNT
} pm_groove_wave;

typedef enum pm_groove_axis { PM_GROOVE_AXIS_X = 0, PM_GROOVE_AXIS_Y, PM_GROOVE_AXIS_Z, PM_GROOVE_AXIS_COUNT } pm_groove_axis;

/* One joint's oscillation. */
typedef struct pm_groove_joint {
    uint32_t axis;  /* pm_groove_axis: the bone's local (parent-frame) x, y or z */
    uint32_t wave;  /* pm_groove_wave */
    double amp;     /* degrees, [-180, 180] */
    double freq;    /* cycles per beat, [0, 16] */
    double phase;   /* cycles of delay, [0, 1] */
} pm_groove_joint;

/* The squat bounce. */
typedef struct pm_groove_squat {
    bool enabled;   /* solve the legs and move the body */
    uint32_t wave;  /* vertical wave (the lateral one is always a sine) */
    double vertical; /* cm, [0, 100]: depth of the bounce */
    double lateral; /* cm, [-100, 100]: sideways amplitude (+ = the model's left, +X) */
    double freq;    /* cycles per beat, [0, 16] */
    double phase;   /* cycles of delay, [0, 1] */
} pm_groove_squat;

/* Every value, resolved (defaults merged with the user's changes). */
typedef struct pm_groove_params {
    pm_groove_joint joints[PM_GROOVE_JOINT_COUNT];
    pm_groove_squat squat;
} pm_groove_params;

/* Field bits of pm_groove_config.joint_set / squat_set. */
enum {
    PM_GROOVE_FIELD_AXIS = 1u << 0,
    PM_GROOVE_FIELD_WAVE = 1u << 1,
    PM_GROOVE_FIELD_AMP = 1u << 2,
    PM_GROOVE_FIELD_FREQ = 1u << 3,
    PM_GROOVE_FIELD_PHASE = 1u << 4,
    PM_GROOVE_FIELD_ENABLED = 1u << 5,  /* squat */
    PM_GROOVE_FIELD_VERTICAL = 1u << 6, /* squat */
    PM_GROOVE_FIELD_LATERAL = 1u << 7   /* squat */
};

/*
 * The user's settings: only the fields whose bit is set count, the others take the defaults.
 * Default configuration: all zero = every joint and the squat at their defaults.
 */
typedef struct pm_groove_config {
    pm_groove_joint joints[PM_GROOVE_JOINT_COUNT];
    uint32_t joint_set[PM_GROOVE_JOINT_COUNT]; /* PM_GROOVE_FIELD_* */
    pm_groove_squat squat;
    uint32_t squat_set;                        /* PM_GROOVE_FIELD_* */
} pm_groove_config;

/* "pelvis", "spine", ...; NULL when out of range. */
const char *pm_groove_joint_name(uint32_t joint);
/* The MMD bone of a joint ("下半身", ...); NULL when out of range. */
const char *pm_groove_joint_bone(uint32_t joint);
/* The joint with this JSON name, or PM_NO_INDEX. */
uint32_t pm_groove_joint_find(const char *name);

/* The defaults. */
void pm_groove_defaults(pm_groove_params *out);
/* Defaults merged with cfg (NULL = defaults), checked: NaN, Inf, out-of-range values and bad enums
 * fail with PM_ERR_INVALID_ARGUMENT naming the field ("groove: joints.head.amp ..."). */
pm_result pm_groove_config_resolve(const pm_groove_config *cfg, pm_groove_params *out, pm_error *err);
void pm_groove_config_reset(pm_groove_config *cfg);                      /* everything to defaults */
void pm_groove_config_reset_joint(pm_groove_config *cfg, uint32_t joint); /* one joint */
void pm_groove_config_reset_squat(pm_groove_config *cfg);
/* Merge a JSON document into *cfg (see SETTINGS above). On failure *cfg is unchanged. */
pm_result pm_groove_config_parse(const char *json, size_t len, pm_groove_config *cfg, pm_error *err);

enum { PM_GROOVE_JSON_CHANGED = 1u << 0 /* only the fields the user changed */ };
/* Serialise (compact JSON). out == NULL: only *out_size (length without the NUL); otherwise out_cap must
 * hold out_size + 1 bytes. */
pm_result pm_groove_config_to_json(const pm_groove_config *cfg, uint32_t flags, char *out, size_t out_cap,
                                   size_t *out_size, pm_error *err);

/* ---- waves and the clock ------------------------------------------------------------------------ */

/* The wave at p (cycles): bounce (1 - cos 2 pi p) / 2 or sine sin 2 pi p; p is reduced mod 1 first.
 * Non-finite p gives 0. */
double pm_groove_wave_value(uint32_t wave, double p);
/* Beats elapsed: seconds * bpm / 60. */
double pm_groove_beat(double seconds, double bpm);
/* A joint's angle in degrees at `beat`: amp * wave(freq * beat - phase). */
double pm_groove_joint_angle(const pm_groove_joint *joint, double beat);
/* The same as a rotation about the joint's axis (a unit quaternion; identity for a bad axis). */
pm_quat pm_groove_joint_offset(const pm_groove_joint *joint, double beat);
/* The squat bounce's body offset at `beat` in MMD units (zero when disabled). */
pm_vec3 pm_groove_body_offset(const pm_groove_squat *squat, double beat);

/* ---- the runtime layer -------------------------------------------------------------------------- */

typedef struct pm_groove pm_groove;

/*
 * Options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free; the knees bend toward -Z (the model's front) in the body bone's
 * frame.
 */
typedef struct pm_groove_options {
    pm_allocator allocator;
    pm_vec3 forward; /* zero = (0, 0, -1) */
} pm_groove_options;

typedef enum pm_groove_leg_mode {
    PM_GROOVE_LEGS_NONE = 0,  /* no legs (or no body bone): the squat bounce is skipped */
    PM_GROOVE_LEGS_ANALYTIC,  /* legs without IK bones: the analytic solve drives them */
    PM_GROOVE_LEGS_MMD_IK,    /* 足ＩＫ chains drive the legs (the bake leaves the legs to them) */
    PM_GROOVE_LEG_MODE_COUNT
} pm_groove_leg_mode;

enum { PM_GROOVE_LEG_LEFT = 0, PM_GROOVE_LEG_RIGHT = 1 };
enum { PM_GROOVE_HIP = 0, PM_GROOVE_KNEE = 1, PM_GROOVE_ANKLE = 2 };

typedef struct pm_groove_info {
    uint32_t joint_bone[PM_GROOVE_JOINT_COUNT]; /* skeleton bone per joint, PM_NO_INDEX = skipped */
    uint32_t body_bone;                         /* PM_NO_INDEX when none */
    uint32_t leg_bone[2][3];                    /* [side][hip, knee, ankle], PM_NO_INDEX when missing */
    uint32_t leg_mode;                          /* pm_groove_leg_mode */
    uint32_t leg_ik_count;                      /* IK bones whose links include a leg bone */
    uint32_t leg_ik[8];                         /* ... their indices */
    uint32_t skipped_count;                     /* joints without a bone, then "squat" if skipped */
    const char *skipped[PM_GROOVE_JOINT_COUNT + 1]; /* JSON names (static strings) */
} pm_groove_info;

pm_result pm_groove_create(const pm_skeleton *skeleton, const pm_groove_config *cfg, const pm_groove_options *opts,
                           pm_groove **out, pm_error *err);
void pm_groove_free(pm_groove *groove);
/* Replace the settings (checked; on failure the old ones stay). The anchors are kept. */
pm_result pm_groove_set_config(pm_groove *groove, const pm_groove_config *cfg, pm_error *err);
void pm_groove_get_info(const pm_groove *groove, pm_groove_info *info);
/* The effective values in use. */
const pm_groove_params *pm_groove_get_params(const pm_groove *groove);
/* The workspace the groove evaluates with (set IK modes on it, e.g. a leg IK the user switched off). */
pm_pose_workspace *pm_groove_workspace(pm_groove *groove);
/* Capture the anchors again on the next call. */
void pm_groove_reset_anchors(pm_groove *groove);
/* The grooved pose of the last pm_groove_offsets call (rest pose before the first). */
const pm_pose *pm_groove_pose(const pm_groove *groove);

enum {
    PM_GROOVE_LEG_IK_USER = 1u << 0,      /* the user controls the legs by IK: the squat bounce yields */
    PM_GROOVE_RESET_ANCHORS = 1u << 1,    /* capture the anchors on this call */
    /* only the offsets: joint offsets and the body offset (also applied to frame.pose's animated
     * values), no evaluation and no leg solve (frame.pose's world matrices are not updated): for a
     * viewer whose own MMD leg IK plants the feet; cheap */
    PM_GROOVE_OFFSETS_ONLY = 1u << 2,
};

/* One frame of the layer. Pointers are owned by the pm_groove and valid until the next call. */
typedef struct pm_groove_frame {
    double beat;
    const pm_quat *bone_offset;    /* [bone_count]: post-multiply onto each bone's local rotation
                                      (identity for bones that are not joints) */
    pm_quat joint_offset[PM_GROOVE_JOINT_COUNT]; /* the same per joint (identity when skipped) */
    uint32_t body_bone;            /* PM_NO_INDEX when none */
    pm_vec3 body_offset;           /* add to the body bone's translation (MMD units); zero when the
                                      squat bounce is off, skipped or yielding */
    bool legs_solved;
    uint32_t leg_bone[6];          /* left hip, knee, ankle, right hip, knee, ankle (PM_NO_INDEX if absent) */
    pm_quat leg_rotation[6];       /* their local rotations (after IK): apply with the leg IK off */
    pm_vec3 anchor[2];             /* ankle anchors (world), valid when legs_solved */
    pm_quat anchor_rotation[2];
    float foot_error[2];           /* distance from each ankle to its anchor after the solve */
    const pm_pose *pose;           /* the grooved pose, evaluated (world matrices and final arrays) */
} pm_groove_frame;

/*
 * One frame: `pose` supplies the animated local rotations and translations (VMD semantics, as
 * pm_pose_sample fills them; only pose->rotation and pose->translation are read, translation may be
 * NULL = zero offsets; pose NULL = the rest pose). time and bpm must be finite, bpm in (0, 1000].
 * Never allocates.
 */
pm_result pm_groove_offsets(pm_groove *groove, const pm_pose *pose, double time_seconds, double bpm, uint32_t flags,
                            pm_groove_frame *out, pm_error *err);
/* The same on a beat grid (procmotion/beats.h: a BPM and an offset, tap tempo, detected beats): the
 * beat is pm_beat_grid_beat(grid, time_seconds), so the waves follow the music's beats, its offset and
 * tempo drift (a bounce valley on every beat with the default squat). The grid is checked
 * (PM_ERR_INVALID_ARGUMENT naming the problem); it is borrowed for the call. */
pm_result pm_groove_offsets_grid(pm_groove *groove, const pm_pose *pose, double time_seconds, const pm_beat_grid *grid,
                                 uint32_t flags, pm_groove_frame *out, pm_error *err);

/* ---- preview without playback -------------------------------------------------------------------- */

/* Zero-initialise. */
typedef struct pm_groove_preview {
    bool active;
    double base[3];
    double offset[3];
    double written[3];
} pm_groove_preview;

/* position -= the previous step's offset; position += offset. */
void pm_groove_preview_step(pm_groove_preview *preview, double position[3], pm_vec3 offset);
/* Remove the last offset (position back to its base) and deactivate. */
void pm_groove_preview_stop(pm_groove_preview *preview, double position[3]);
/* One preview step with the body offset pm_groove_offsets would use at this time (zero when the squat
 * bounce is off or skipped, or with PM_GROOVE_LEG_IK_USER in flags). Checks time and bpm. */
pm_result pm_groove_preview_update(const pm_groove *groove, pm_groove_preview *preview, double position[3],
                                   double time_seconds, double bpm, uint32_t flags, pm_error *err);

/* ---- the bake ------------------------------------------------------------------------------------ */

/*
 * Options; zero-initialise for defaults (or pass NULL).
 * Default configuration: frames 0 .. the base motion's last frame (16 beats without a base motion or
 * when it ends at frame 0), tolerances 0.002 units and 0.05 degrees, at most 108 000 frames, malloc/free.
 */
typedef struct pm_groove_bake_options {
    pm_allocator allocator;
    uint32_t frames;            /* 0 = as above; otherwise the last frame baked */
    float position_tolerance;   /* 0 = 0.002 units, [1e-5, 1] */
    float rotation_tolerance;   /* 0 = 0.05 degrees, [1e-4, 10] */
    uint32_t max_frames;        /* 0 = 108 000 (an hour); more fails with PM_ERR_LIMIT */
    pm_beat_grid grid;          /* zero = none: the bpm argument. Set: the waves run on its beats (beat =
                                   pm_beat_grid_beat(grid, frame / 30)) and the bpm argument is ignored;
                                   without a base motion the bake runs through the last listed beat (or
                                   16 beats of a plain grid). Borrowed for the call. */
} pm_groove_bake_options;

typedef struct pm_groove_bake_report {
    uint32_t frames;            /* last frame baked */
    uint32_t leg_mode;          /* pm_groove_leg_mode used */
    uint32_t keyed_bones;       /* bones that received keys */
    uint32_t key_count;         /* bone keys written for them */
    uint32_t copied_keys;       /* base bone keys copied unchanged */
    double max_position_error;  /* units: keys vs the sampled groove, every half frame */
    double max_rotation_error;  /* degrees */
    double max_foot_error;      /* MEASURED: the largest distance of a played ankle from its anchor (the
                                   landing report's max_error), every whole frame; 0 without the squat */
    uint32_t skipped_count;
    const char *skipped[PM_GROOVE_JOINT_COUNT + 1];
    double crouch;              /* units the body was lowered on the rest pose so the knees stay within
                                   MMD's knee limit (0 with a base motion) */
    bool verified;              /* the squat bounce's legs were landed and measured (landing) */
    pm_landing_report landing;  /* what the bake plays like (procmotion/landing.h): limbs left, right */
    bool synced;                /* a grid was given and the squat bounce keyed: sync is measured */
    pm_beat_sync sync;          /* MEASURED: every bounce valley in the bake (the lowest point of the body
                                   bone's written height, less the base motion's, found to 0.01 frame
                                   between whole frames as babylon-mmd interpolates) against where the
                                   grid puts it (frames; a valley on every beat by default) */
} pm_groove_bake_report;

/* A new VMD (free with pm_vmd_free): the groove on top of `base` (NULL = the rest pose). The report
 * is optional. */
pm_result pm_groove_apply_to_vmd(const pm_vmd *base, const pm_skeleton *skeleton, const pm_groove_config *cfg,
                                 double bpm, const pm_groove_bake_options *opts, pm_vmd **out,
                                 pm_groove_bake_report *report, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
