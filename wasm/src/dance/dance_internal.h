/* Internal: the dance generator's state, shared by its files. */
#ifndef PROCMOTION_DANCE_INTERNAL_H
#define PROCMOTION_DANCE_INTERNAL_H

#include "common/internal.h"
#include "lifelike/figure.h"
#include "math/inline.h"
#include "procmotion/dance.h"

#include <cjson/cJSON.h>

/* Bones: the keyed ones first (DB_COUNT), then the ones only read. */
enum {
    DB_CENTER, DB_WAIST, DB_LOWER, DB_UPPER, DB_UPPER2, DB_NECK, DB_HEAD, DB_SHOULDER_L, DB_SHOULDER_R, DB_ARM_L, DB_ARM_R,
    DB_ELBOW_L, DB_ELBOW_R, DB_WRIST_L, DB_WRIST_R, DB_LEG_IK_L, DB_LEG_IK_R,
    DB_COUNT,
    DG_TOE_IK_L = DB_COUNT, DG_TOE_IK_R, DG_HIP_L, DG_HIP_R, DG_KNEE_L, DG_KNEE_R, DG_ANKLE_L, DG_ANKLE_R, DG_TOE_L, DG_TOE_R,
    DG_FINGER_L, DG_FINGER_R,
    DANCE_BONES
};

/* Arm shapes: where a hand goes, relative to its shoulder joint. */
typedef enum dance_arm {
    DA_LOW, DA_SWING_F, DA_SWING_B, DA_HIPS, DA_UP, DA_V, DA_OUT, DA_OPEN, DA_FRONT, DA_BENT, DA_POINT, DA_CLAP, DA_CROSS,
    DA_WAVE_A, DA_WAVE_B, DA_ROLL_HI, DA_ROLL_LO, DA_SHOULDER,
    DA_COUNT
} dance_arm;

/* The pose the body hits on one beat. Feet: offsets from the ankles' rest positions (units; y is the
 * lift), the left foot first. */
typedef struct dance_key {
    double foot[2][3];
    bool lifted[2];     /* in the air on this beat (a kick, a knee up) */
    double foot_yaw[2]; /* radians */
    double weight;      /* -1 on the right foot .. 1 on the left */
    double yaw;         /* the whole body's turn (radians) */
    double center[3];   /* units: センター's offset (from the feet and the weight) */
    double lean, twist; /* the chest: forward lean, twist (radians) */
    double look;        /* the head's turn (radians) */
    uint8_t arm[2];     /* dance_arm per hand */
    double arm_size[2]; /* 0 = the rest shape (DA_LOW), 1 = the shape in full */
    double wrist[2];    /* a flick (radians) */
    double pulse;       /* how much the body bounces and nods on this beat (0 before the dance and after) */
} dance_key;

typedef struct dance {
    pm_dance_params p;
    pm_rig *rig;
    uint32_t idx[DANCE_BONES];
    const char *name[DANCE_BONES];
    pmi_dv pos[DANCE_BONES];
    int pelvis_bone;
    bool pelvis_parents_upper;
    double L, arm_len[2], hand_len[2];
    double reach[2];
    pmi_dq toe_out[2];
    /* the body's capsules at rest (torso, head, thighs), for the hands' clearance */
    pmi_dv cap[4][2];
    double cap_r[4];
    /* amounts */
    double bounce, sway, nod, roll;
    /* the dancer's beats: frame of each (bt[nb] = the end) */
    uint32_t nb;
    double *bt;
    uint32_t first_down;   /* the first dancer beat that starts a phrase */
    uint32_t phrase_beats; /* beats of a phrase */
    bool loop;
    double first_grid_beat, grid_step; /* the dancer's first beat on the grid, grid beats per dancer beat */
    uint32_t frames;
    double bpm;
    dance_key *keys;       /* [nb + 1] */
    float *beat_energy;    /* [nb]: 0..1 */
} dance;

/* Plan the phrases and write every beat's key (dance_moves.c). */
pm_result pmi_dance_plan(dance *d, pm_dance_info *info, pm_error *err);

/* Every amount filled in and checked (dance_params.c). */
pm_result pmi_dance_resolve_params(const pm_dance_params *in, pm_dance_params *out, pm_error *err);
/* The parameters used as JSON, under the JSON names. */
void pmi_dance_params_json(cJSON *obj, const pm_dance_params *p, bool *ok);

#endif
