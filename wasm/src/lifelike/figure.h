/* The figure a generator of this layer drives (idle, dance): the model, or the built-in mannequin when
 * none is given, its bones found by role with their rest positions, a two-bone arm solved in the rest
 * frame, and the two feet landed on their plan with pm_landing_close. */
#ifndef PROCMOTION_LIFELIKE_FIGURE_H
#define PROCMOTION_LIFELIKE_FIGURE_H

#include "common/internal.h"
#include "math/inline.h"
#include "procmotion/landing.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

/* A bone a generator keys or reads: its semi-standard name and its role. */
typedef struct pmi_figure_bone {
    const char *canonical;
    pm_rig_role role;
} pmi_figure_bone;

typedef struct pmi_figure {
    const pm_target_model *model; /* the caller's model, or the mannequin's */
    bool standard;                /* no model was given: the mannequin */
    pm_rig *rig;                  /* with a skeleton, else NULL */
    pm_skeleton *standard_sk;
    pm_target_model standard_model;
} pmi_figure;

/* Open the figure for `model` (NULL, or one without bones: the mannequin) and analyse its rig when it
 * has a skeleton. Close it with pmi_figure_close, also after a failure. */
pm_result pmi_figure_open(pmi_figure *f, const pm_target_model *model, const pm_allocator *a, pm_error *err);
void pmi_figure_close(pmi_figure *f);

/* Find table[count] on the figure by role: idx (PM_NO_INDEX when missing), name (the model's; the
 * canonical one on the mannequin) and pos, the rest position (where the model gives none, the mannequin's
 * scaled to the legs of the table's hip, knee and ankle roles). *leg_len: thigh + shin, both legs' mean. */
pm_result pmi_figure_bones(const pmi_figure *f, const char *who, const pmi_figure_bone *table, uint32_t count, uint32_t *idx,
                           const char **name, pmi_dv *pos, double *leg_len, const pm_allocator *a, pm_error *err);

/* Whether `ancestor` is among bone's parents on the figure. */
bool pmi_figure_descends(const pmi_figure *f, uint32_t bone, uint32_t ancestor);

/* Two-bone IK in the rest frame: the upper arm's and the forearm's local rotations that put the wrist
 * (rest position W, elbow E, shoulder joint S) on `target`, the elbow toward `pole` (a direction). */
void pmi_figure_arm_ik(pmi_dv S, pmi_dv E, pmi_dv W, pmi_dv target, pmi_dv pole, pmi_dq *arm, pmi_dq *elbow);

/* The same solve, continuous where the elbow folds (no twist flip near full flexion): the upper arm
 * turns the rest frame (its direction and the elbow's hinge axis; a straight arm bends toward the
 * front) onto the solved one, and the elbow bends about its rest hinge. */
void pmi_figure_arm_ik_hinge(pmi_dv S, pmi_dv E, pmi_dv W, pmi_dv target, pmi_dv pole, pmi_dq *arm, pmi_dq *elbow);

/* A rotation of `angle` radians about a unit axis (the identity for 0). */
static inline pmi_dq pmi_figure_rot(double ax, double ay, double az, double angle) {
    if (angle == 0) return pmi_dq_identity();
    double s = sin(0.5 * angle);
    pmi_dq q = {ax * s, ay * s, az * s, cos(0.5 * angle)};
    return q;
}

/* A keyed bone's samples: rotations (x y z w per sample) and, for `pos`, positions (one array per axis). */
typedef struct pmi_figure_track {
    int bone;
    bool pos;
    double *p[3];
    double *q;
} pmi_figure_track;

/* One allocation for the tracks' samples (ns each) and `extra` more doubles (*extra_out); NULL when out of
 * memory. Free it with pmi_free. */
double *pmi_figure_samples(const pm_allocator *a, pmi_figure_track *tracks, int count, uint32_t ns, size_t extra, double **extra_out,
                           const char *who, pm_error *err);

/* What keying the tracks did: the names keyed (appended to used[]) and the fit's worst errors. */
typedef struct pmi_figure_keyed {
    const char **used;
    uint32_t used_count;
    double max_position_error, max_rotation_error; /* units, degrees */
} pmi_figure_keyed;

/* Fit every track with VMD Bezier keys (tolerances in units and degrees) and add them to vmd under
 * names[track.bone]. */
pm_result pmi_figure_key_tracks(pm_vmd *vmd, const pmi_figure_track *tracks, int count, const char *const *names, uint32_t frames,
                                uint32_t per_frame, float position_tolerance, float rotation_tolerance, const pm_allocator *a,
                                pmi_figure_keyed *keyed, pm_error *err);

/* A property key at frame 0 with the named IK bones on (NULL names are skipped). */
pm_result pmi_figure_ik_on(pm_vmd *vmd, const char *const names[4], pm_error *err);

/* The feet's plan (both legs, left first), as pm_landing_limb takes it. */
typedef struct pmi_figure_feet {
    uint32_t ankle[2], ik[2];     /* bone indices */
    uint32_t per_frame;
    const float *plan;            /* [2][frames * per_frame + 1][3] */
    const float *ik_rotation;     /* [2][frames * per_frame + 1][4] */
    const uint8_t *contact;       /* [2][frames + 1] */
    float floor[2];
    pm_vec3 heel[2], ball[2];
    float *played[2];             /* optional [frames + 1][16] each: the ankle as played (pm_landing_limb.played) */
} pmi_figure_feet;

/* Whether the figure's feet can be landed: a skeleton whose leg chains are these IK bones and ankles. */
bool pmi_figure_can_land(const pmi_figure *f, const uint32_t ik[2], const uint32_t ankle[2]);

/* Land the feet: *vmd is replaced by the landed motion (see pm_landing_close). */
pm_result pmi_figure_land_feet(const pmi_figure *f, const pmi_figure_feet *feet, uint32_t frames, const pm_landing_options *opts,
                               pm_vmd **vmd, pm_landing_report *report, pm_error *err);

#endif
