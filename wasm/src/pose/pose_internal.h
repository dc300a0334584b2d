/* Internal state of pose evaluation (anim.c, pose.c, ik_ccd.c) and the Babylon.js math it replicates.
 *
 * babylon-mmd's JS runtime keeps quaternions and vectors in JS numbers (double) and matrices in
 * Float32Array: every matrix element is computed in double and rounded to float when stored, and
 * matrix products read float elements and sum in double. The helpers below follow Babylon.js's own
 * formulas term by term (operation order included) so that our poses round like babylon-mmd's. */
#ifndef PROCMOTION_POSE_INTERNAL_H
#define PROCMOTION_POSE_INTERNAL_H

#include "procmotion/pose.h"

#include "common/internal.h"
#include "math/inline.h"

#include <math.h>

#define PMI_ANIM_MAGIC 0x414e494du      /* "ANIM" */
#define PMI_WORKSPACE_MAGIC 0x57535053u /* "WSPS" */

/* A bone's world matrix as babylon-mmd computes it: Matrix.FromQuaternionToRef(rot) with the local
 * translation (rest + offset) set, both stored as float, then Matrix.multiplyToRef(parent world)
 * (parent NULL for a root). Babylon sums all four products of each element in double; the products
 * left out here are exact zeros (both matrices are affine), so the sums and their float rounding are
 * the same (the sign of an exact zero aside). Written straight into `out` (no aliasing with parent).
 * pmi_world_rotation_from_local writes the rotation part only (out[0..11]) and
 * pmi_world_translation_from_local the translation only (out[12..14]): each element depends only on its
 * own part of the local matrix, so the split computes the same bits. */
static inline void pmi_world_rotation_from_local(pmi_dq q, const float *parent, float *out) {
    const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, zw = q.z * q.w, zx = q.z * q.x,
                 yw = q.y * q.w, yz = q.y * q.z, xw = q.x * q.w;
    /* the local matrix, rounded to float like Babylon's Float32Array (row r = Babylon's row r) */
    const float l00 = (float)(1.0 - 2.0 * (yy + zz)), l01 = (float)(2.0 * (xy + zw)), l02 = (float)(2.0 * (zx - yw));
    const float l10 = (float)(2.0 * (xy - zw)), l11 = (float)(1.0 - 2.0 * (zz + xx)), l12 = (float)(2.0 * (yz + xw));
    const float l20 = (float)(2.0 * (zx + yw)), l21 = (float)(2.0 * (yz - xw)), l22 = (float)(1.0 - 2.0 * (yy + xx));
    out[3] = out[7] = out[11] = 0;
    if (!parent) {
        out[0] = l00, out[1] = l01, out[2] = l02;
        out[4] = l10, out[5] = l11, out[6] = l12;
        out[8] = l20, out[9] = l21, out[10] = l22;
        return;
    }
    const double p00 = parent[0], p01 = parent[1], p02 = parent[2];
    const double p10 = parent[4], p11 = parent[5], p12 = parent[6];
    const double p20 = parent[8], p21 = parent[9], p22 = parent[10];
#define PMI_ROW(r, a0, a1, a2)                                                                                         \
    out[(r) * 4 + 0] = (float)((double)(a0) * p00 + (double)(a1) * p10 + (double)(a2) * p20);                        \
    out[(r) * 4 + 1] = (float)((double)(a0) * p01 + (double)(a1) * p11 + (double)(a2) * p21);                        \
    out[(r) * 4 + 2] = (float)((double)(a0) * p02 + (double)(a1) * p12 + (double)(a2) * p22)
    PMI_ROW(0, l00, l01, l02);
    PMI_ROW(1, l10, l11, l12);
    PMI_ROW(2, l20, l21, l22);
#undef PMI_ROW
}

static inline void pmi_world_translation_from_local(double tx, double ty, double tz, const float *parent, float *out) {
    const float l30 = (float)tx, l31 = (float)ty, l32 = (float)tz;
    out[15] = 1;
    if (!parent) {
        out[12] = l30, out[13] = l31, out[14] = l32;
        return;
    }
    out[12] = (float)((double)l30 * parent[0] + (double)l31 * parent[4] + (double)l32 * parent[8] + parent[12]);
    out[13] = (float)((double)l30 * parent[1] + (double)l31 * parent[5] + (double)l32 * parent[9] + parent[13]);
    out[14] = (float)((double)l30 * parent[2] + (double)l31 * parent[6] + (double)l32 * parent[10] + parent[14]);
}

static inline void pmi_world_from_local(pmi_dq q, double tx, double ty, double tz, const float *parent, float *out) {
    pmi_world_rotation_from_local(q, parent, out);
    pmi_world_translation_from_local(tx, ty, tz, parent, out);
}

/* ---- bound animation --------------------------------------------------------------------------- */

typedef struct pmi_track {
    uint32_t bone;
    uint32_t first; /* first key in the anim's key arrays */
    uint32_t count;
} pmi_track;

struct pm_anim {
    uint32_t magic;
    pm_allocator allocator;
    const pm_skeleton *skeleton;
    uint32_t bone_count;
    uint32_t *track_of_bone; /* [bone_count]: track index or PM_NO_INDEX */
    uint32_t track_count;
    pmi_track *tracks;
    uint32_t key_count;
    uint32_t *frames;  /* [key_count], sorted within each track */
    float *positions;  /* [key_count * 3] */
    float *rotations;  /* [key_count * 4] */
    uint8_t *curves;   /* [key_count * 16]: axis a (X, Y, Z, R) at 4a: x1, y1, x2, y2 */
    /* property keys, duplicates resolved, each a full state row over the bound IK bones */
    uint32_t prop_count;
    uint32_t *prop_frames;  /* [prop_count] */
    uint32_t prop_ik_count; /* bound IK names */
    uint32_t *prop_ik_bone; /* [prop_ik_count] */
    uint8_t *prop_states;   /* [prop_count * prop_ik_count] */
    uint32_t unmatched_bone_count, unmatched_ik_count;
    pm_string *unmatched; /* bones first, then IK names */
    char *names;          /* arena holding the unmatched names */
    pm_anim_info info;
};

/* ---- workspace --------------------------------------------------------------------------------- */

enum { PMI_APPEND_ROT = 1, PMI_APPEND_POS = 2, PMI_APPEND_LOCAL = 4 };
enum { PMI_AXIS_NONE = 0, PMI_AXIS_FIXED, PMI_AXIS_X, PMI_AXIS_Y, PMI_AXIS_Z };
enum { PMI_ORDER_YXZ = 0, PMI_ORDER_ZYX, PMI_ORDER_XZY };

typedef struct pmi_bone {
    uint32_t parent;
    uint32_t append_src; /* PM_NO_INDEX: no append solver */
    uint32_t ik;         /* index into ws->iks, or PM_NO_INDEX */
    uint32_t child_first, child_count;
    uint8_t append_flags; /* PMI_APPEND_* */
    uint8_t is_link;      /* in an IK chain (babylon-mmd's ikChainInfo) */
    uint8_t has_axis;     /* fixed axis */
    uint8_t after_physics;
    double append_ratio;
    pmi_dv axis;    /* normalised fixed axis */
    float rest[3];  /* local rest translation (position - parent position) */
    float bind[3];  /* model-space rest position as Babylon accumulates it */
} pmi_bone;

typedef struct pmi_bone_state {
    pmi_dv off;    /* animated offset from rest (before append) */
    pmi_dq rot;    /* animated rotation (before the fixed axis and append) */
    pmi_dv pos;    /* rest + off: babylon-mmd's linkedBone.position */
    pmi_dq ik_rot; /* IK correction (links) */
    pmi_dq local_rot; /* rotation after append, before IK (links) */
    pmi_dv local_pos; /* offset after append (links) */
    pmi_dq app_rot;
    pmi_dv app_pos;
    pmi_dq fin_rot; /* rotation used for the world matrix */
    pmi_dv fin_pos; /* offset used for the world matrix */
} pmi_bone_state;

typedef struct pmi_ik_link {
    uint32_t bone;
    uint8_t has_limit;
    uint8_t order; /* PMI_ORDER_* */
    uint8_t axis;  /* PMI_AXIS_* */
    pmi_dv min, max;
} pmi_ik_link;

typedef struct pmi_ik {
    uint32_t bone, target;
    uint32_t iterations;
    double limit_angle;
    uint32_t link_first, link_count;
    /* A "simple" chain: every link is an ancestor of the one before it and of the target, and no bone
     * under the root-most link appends from another bone under it. Its iterations then update only
     * the path from the changed link to the target and recompute the rest of the subtree once at the
     * end, with the same results as babylon-mmd's recursive updates (see ik_ccd.c). */
    bool simple;
    uint32_t path_first; /* per link j: ws->path_of_link[link_first + j] = {first, count} into ws->path */
} pmi_ik;

#define PMI_CURVE_MEMO 64
typedef struct pmi_curve_memo {
    bool valid;
    uint32_t cx; /* x1, x2 */
    double x, w[3]; /* pmi_bezier_mmd_solve */
} pmi_curve_memo;

struct pm_pose_workspace {
    uint32_t magic;
    pm_allocator allocator;
    const pm_skeleton *skeleton;
    uint32_t bone_count;
    pmi_bone *bones;
    pmi_bone_state *st;
    uint32_t *order;    /* [bone_count] stable-sorted by transform order */
    uint32_t *children; /* CSR, index order */
    uint32_t *stack;    /* [bone_count] DFS stack */
    uint32_t *cursor;   /* [bone_count] last upper-bound index per bone's track */
    uint8_t *ik_mode;   /* [bone_count] pm_ik_mode */
    uint8_t *ik_prop;   /* [bone_count] state from property keys (1 = on) */
    uint8_t *ik_on;     /* [bone_count] effective state of the last evaluation */
    uint32_t ik_count;
    pmi_ik *iks;
    uint32_t link_count;
    pmi_ik_link *links;
    uint32_t *path;          /* bones between consecutive links (and link 0 and the target), top-down */
    uint32_t (*path_of_link)[2]; /* [link_count] {first, count} into path */
    pmi_dq *prev_ik_rot;     /* [link_count] the links' IK rotations after the previous iteration */
    /* per call */
    float *world; /* pose->world as floats */
    uint32_t flags;
    uint32_t max_iterations;
    const uint8_t *subset; /* pm_pose_set_subset: the bones evaluated (NULL = all) */
    uint32_t *sampled;     /* [bone_count] the bones of the subset in index order (pm_pose_sample) */
    uint32_t *run;         /* [bone_count] the bones of the subset in evaluation order, stage 0 then 1 */
    uint32_t sampled_count, run_count;
    uint32_t ik_depth; /* nesting of IK solves (a target with IK of its own) */
    pmi_curve_memo curve_memo[PMI_CURVE_MEMO]; /* recent Bezier solves (pm_pose_sample) */
};

/* anim.c: stable merge sort of indices (tmp has room for n); less(a, b) compares two indices. */
typedef bool (*pmi_less_fn)(uint32_t a, uint32_t b, const void *ctx);
void pmi_sort_indices(uint32_t *idx, uint32_t *tmp, uint32_t n, pmi_less_fn less, const void *ctx);
/* pose.c */
void pmi_pose_update_bone(pm_pose_workspace *ws, uint32_t b, bool compute_ik);
void pmi_pose_update_children(pm_pose_workspace *ws, uint32_t b);
/* The world translation of bone b only (its parent's world matrix current), for the IK target during the
 * CCD iterations of a simple chain; the rest of the bone is recomputed when the solve ends. */
void pmi_pose_update_translation(pm_pose_workspace *ws, uint32_t b);
/* ik_ccd.c */
void pmi_ik_solve(pm_pose_workspace *ws, const pmi_ik *ik);
void pmi_ik_link_init(pmi_ik_link *link, const pm_ik_link *src);
uint32_t pmi_ik_plan(pm_pose_workspace *ws, pmi_ik *ik, uint32_t *path, uint32_t at, uint8_t *mark);

#endif
