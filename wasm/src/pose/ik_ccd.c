/* MMD CCD IK as babylon-mmd 1.3's IkSolver does it (itself based on saba's MMDIkSolver): see
 * procmotion/pose.h and docs/c-library.md. The names follow babylon-mmd: the "IK position" is where the IK
 * bone is (the goal), the "target position" is where the target bone (e.g. 足首) is. */
#include "pose_internal.h"

/* IkChain's constructor: order limits, pick the Euler order and the single-axis case. */
void pmi_ik_link_init(pmi_ik_link *link, const pm_ik_link *src) {
    memset(link, 0, sizeof *link);
    link->bone = src->bone;
    link->axis = PMI_AXIS_NONE;
    link->order = PMI_ORDER_XZY;
    if (!src->has_limit) return;
    link->has_limit = 1;
    const pm_vec3 a = src->limit_min, b = src->limit_max;
    link->min = pmi_dv_make(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
    link->max = pmi_dv_make(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
    const pmi_dv mn = link->min, mx = link->max;
    const double half_pi = PM_PI * 0.5;
    if (-half_pi < mn.x && mx.x < half_pi) link->order = PMI_ORDER_YXZ;
    else if (-half_pi < mn.y && mx.y < half_pi) link->order = PMI_ORDER_ZYX;
    else link->order = PMI_ORDER_XZY;
    const bool zx = mn.x == 0 && mx.x == 0, zy = mn.y == 0 && mx.y == 0, zz = mn.z == 0 && mx.z == 0;
    if (zx && zy && zz) link->axis = PMI_AXIS_FIXED;
    else if (zy && zz) link->axis = PMI_AXIS_X;
    else if (zx && zz) link->axis = PMI_AXIS_Y;
    else if (zx && zy) link->axis = PMI_AXIS_Z;
    else link->axis = PMI_AXIS_NONE;
}

static inline pmi_dv world_t(const pm_pose_workspace *ws, uint32_t b) {
    return pmi_mat_translation(ws->world + (size_t)b * 16);
}

static inline double dist_sq(pmi_dv a, pmi_dv b) {
    double x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return x * x + y * y + z * z;
}

static double limit_angle(double angle, double min, double max, bool use_axis) {
    if (angle < min) {
        double diff = 2 * min - angle;
        return (diff <= max && use_axis) ? diff : min;
    }
    if (angle > max) {
        double diff = 2 * max - angle;
        return (diff >= min && use_axis) ? diff : max;
    }
    return angle;
}

static inline double clamp_unit(double v) { return v < -1 ? -1 : v > 1 ? 1 : v; }

/* MmdRuntimeBone.updateIkChainWorldMatrix without the update of the children. With rotation_only, the
 * world translation is left as it is: the caller knows that neither the parent's world matrix nor the
 * local offset changed since it was computed (it depends on nothing else). */
static void update_link(pm_pose_workspace *ws, uint32_t b, bool rotation_only) {
    const pmi_bone *bone = &ws->bones[b];
    pmi_bone_state *st = &ws->st[b];
    pmi_dq rot = pmi_dq_mul(st->ik_rot, st->local_rot);
    const float *parent = bone->parent != PM_NO_INDEX ? ws->world + (size_t)bone->parent * 16 : NULL;
    float *out = ws->world + (size_t)b * 16;
    pmi_world_rotation_from_local(rot, parent, out);
    if (!rotation_only)
        pmi_world_translation_from_local(bone->rest[0] + st->local_pos.x, bone->rest[1] + st->local_pos.y,
                                         bone->rest[2] + st->local_pos.z, parent, out);
    st->fin_rot = rot;
    st->fin_pos = st->local_pos;
}

/* MmdRuntimeBone.updateIkChainWorldMatrix */
static void update_link_world(pm_pose_workspace *ws, uint32_t b) {
    update_link(ws, b, false);
    pmi_pose_update_children(ws, b);
}

/* After link `index` of a simple chain turned: links index..0 and the bones between them down to the
 * target, top-down. babylon-mmd also recomputes every other bone under those links here; nothing in
 * the solver reads them, so they are recomputed once when the solve ends, from the same final values
 * (pmi_ik_solve). */
static void update_path(pm_pose_workspace *ws, const pmi_ik *ik, uint32_t index) {
    for (uint32_t j = index + 1; j-- > 0;) {
        /* the link that turned keeps its world translation (its parent is above it and did not move) */
        update_link(ws, ws->links[ik->link_first + j].bone, j == index);
        const uint32_t *range = ws->path_of_link[ik->link_first + j];
        for (uint32_t k = 0; k < range[1]; k++) pmi_pose_update_bone(ws, ws->path[range[0] + k], false);
    }
}

/* The three Euler decompositions of IkSolver._solveChain. The rotation is R(outer) R(mid) R(inner)
 * about the axes below (0 = X, 1 = Y, 2 = Z); mid = asin(-m[asin_index]) clamped to 88 degrees,
 * outer = atan2(m[a] / cos, m[b] / cos), inner = atan2(m[c] / cos, m[d] / cos). */
typedef struct pmi_euler_layout {
    uint8_t outer, mid, inner;
    uint8_t asin_index, outer_num, outer_den, inner_num, inner_den;
} pmi_euler_layout;

static const pmi_euler_layout euler_layouts[3] = {
    [PMI_ORDER_YXZ] = {1, 0, 2, 9, 8, 10, 1, 5},
    [PMI_ORDER_ZYX] = {2, 1, 0, 2, 1, 0, 6, 10},
    [PMI_ORDER_XZY] = {0, 2, 1, 4, 6, 5, 8, 0},
};

/* limit_angle(atan2(y, x), min, max, use_axis) for an axis limited to [0, 0] (the knee's Y and Z),
 * without atan2. Such a limit keeps only whether the angle is zero, negative or positive: a non-zero
 * angle becomes min (below) or max (above), whatever use_axis, and ±0 stays. atan2 (C Annex F) is ±0
 * (the sign of y) when y is ±0 and x > 0 or x is +0, ±pi when y is ±0 and x < 0 or x is -0, and has the
 * sign of y otherwise; it is never 0 for a non-zero y here (y and x are float matrix elements times
 * 1 / cos(mid) >= 1, so y / x cannot underflow). */
static double limit_zero_range_atan2(double y, double x, double min, double max) {
    if (y == 0) {
        if (x > 0 || (x == 0 && !signbit(x))) return y;
        return signbit(y) ? min : max;
    }
    return y < 0 ? min : max;
}

/* 2^-27: below it asin(s) = s and cos(s) = 1 (the correctly rounded values, which the libm
 * implementations we build with (glibc, musl, fdlibm in V8) return from an early branch). */
#define PMI_TINY_ANGLE 7.450580596923828125e-9

/* Clamp a limited link's rotation (ik_rot * local_rot) in Euler angles and store the correction.
 * Exact shortcuts (same bits as the plain formulas): axes limited to [0, 0] skip their atan2, and a
 * tiny middle angle (the knee turning about its own X axis) skips asin and cos. */
static void clamp_euler(pm_pose_workspace *ws, const pmi_ik_link *link, bool use_axis) {
    static const pmi_dv unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const pmi_euler_layout *l = &euler_layouts[link->order < 3 ? link->order : PMI_ORDER_XZY];
    pmi_bone_state *st = &ws->st[link->bone];
    float m[16];
    pmi_mat_from_dq(pmi_dq_mul(st->ik_rot, st->local_rot), m);
    const double threshold = 88 * PM_PI / 180;
    const double mins[3] = {link->min.x, link->min.y, link->min.z}, maxs[3] = {link->max.x, link->max.y, link->max.z};
    const bool zero_range[3] = {mins[0] == 0 && maxs[0] == 0, mins[1] == 0 && maxs[1] == 0,
                                mins[2] == 0 && maxs[2] == 0};
    double r[3];
    const double sine = clamp_unit(-(double)m[l->asin_index]);
    double mid, c;
    if (fabs(sine) < PMI_TINY_ANGLE) {
        mid = sine; /* asin(s) = s, cos(s) = 1 */
        c = 1;
    } else {
        mid = asin(sine);
        if (fabs(mid) > threshold) mid = mid < 0 ? -threshold : threshold;
        c = cos(mid);
        if (c != 0) c = 1 / c;
    }
    r[l->mid] = limit_angle(mid, mins[l->mid], maxs[l->mid], use_axis);
    const double on = m[l->outer_num] * c, od = m[l->outer_den] * c;
    const double in = m[l->inner_num] * c, id = m[l->inner_den] * c;
    r[l->outer] = zero_range[l->outer] ? limit_zero_range_atan2(on, od, mins[l->outer], maxs[l->outer])
                                       : limit_angle(atan2(on, od), mins[l->outer], maxs[l->outer], use_axis);
    r[l->inner] = zero_range[l->inner] ? limit_zero_range_atan2(in, id, mins[l->inner], maxs[l->inner])
                                       : limit_angle(atan2(in, id), mins[l->inner], maxs[l->inner], use_axis);
    pmi_dq q = pmi_dq_axis_angle(unit[l->outer], r[l->outer]);
    q = pmi_dq_mul(q, pmi_dq_axis_angle(unit[l->mid], r[l->mid]));
    q = pmi_dq_mul(q, pmi_dq_axis_angle(unit[l->inner], r[l->inner]));
    st->ik_rot = pmi_dq_mul(q, pmi_dq_conj(st->local_rot));
}

/* IkSolver._solveChain. Returns whether the link turned (and the links below it were updated). */
static bool solve_link(pm_pose_workspace *ws, const pmi_ik *ik, uint32_t index, pmi_dv ik_pos, pmi_dv *target_pos,
                       bool use_axis, bool fast) {
    const pmi_ik_link *link = &ws->links[ik->link_first + index];
    const uint32_t b = link->bone;
    pmi_dv chain_pos = world_t(ws, b);
    pmi_dv target_vec = pmi_dv_normalize(pmi_dv_sub(chain_pos, *target_pos));
    pmi_dv ik_vec = pmi_dv_normalize(pmi_dv_sub(chain_pos, ik_pos));
    pmi_dv axis = pmi_dv_cross(target_vec, ik_vec);
    if (pmi_dv_len_sq(axis) < 1.0e-8) return false;
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const uint32_t parent = ws->bones[b].parent;
    const float *p = parent != PM_NO_INDEX ? ws->world + (size_t)parent * 16 : identity;
    uint8_t mode = (link->has_limit && use_axis) ? link->axis : PMI_AXIS_NONE;
    double d;
    switch (mode) {
    case PMI_AXIS_X:
        d = axis.x * p[0] + axis.y * p[1] + axis.z * p[2];
        axis = pmi_dv_make(0 <= d ? 1 : -1, 0, 0);
        break;
    case PMI_AXIS_Y:
        d = axis.x * p[4] + axis.y * p[5] + axis.z * p[6];
        axis = pmi_dv_make(0, 0 <= d ? 1 : -1, 0);
        break;
    case PMI_AXIS_Z:
        d = axis.x * p[8] + axis.y * p[9] + axis.z * p[10];
        axis = pmi_dv_make(0, 0, 0 <= d ? 1 : -1);
        break;
    default: /* into the parent's frame: the transposed rotation applied as a normal */
        axis = pmi_dv_normalize(pmi_dv_make(axis.x * p[0] + axis.y * p[1] + axis.z * p[2],
                                            axis.x * p[4] + axis.y * p[5] + axis.z * p[6],
                                            axis.x * p[8] + axis.y * p[9] + axis.z * p[10]));
        break;
    }
    double dot = clamp_unit(pmi_dv_dot(target_vec, ik_vec));
    double step = ik->limit_angle * (index + 1), full = acos(dot);
    double angle = step < full ? step : full;
    pmi_bone_state *st = &ws->st[b];
    st->ik_rot = pmi_dq_mul(pmi_dq_axis_angle(axis, angle), st->ik_rot);
    if (link->has_limit) clamp_euler(ws, link, use_axis);
    if (fast) {
        update_path(ws, ik, index);
        /* only the target's position is read until the solve ends, which recomputes the whole bone */
        pmi_pose_update_translation(ws, ik->target);
    } else {
        for (uint32_t i = index + 1; i-- > 0;) update_link_world(ws, ws->links[ik->link_first + i].bone);
        pmi_pose_update_bone(ws, ik->target, false);
    }
    *target_pos = world_t(ws, ik->target);
    return true;
}

/* Whether the links' IK rotations equal those after the previous iteration (bit for bit); keeps a
 * copy of them for the next call. */
static bool same_as_before(pm_pose_workspace *ws, const pmi_ik *ik) {
    bool same = true;
    for (uint32_t c = 0; c < ik->link_count; c++) {
        pmi_dq *prev = &ws->prev_ik_rot[ik->link_first + c];
        const pmi_dq *now = &ws->st[ws->links[ik->link_first + c].bone].ik_rot;
        if (memcmp(prev, now, sizeof *now) != 0) same = false;
        *prev = *now;
    }
    return same;
}

/* Decide whether `ik` is a simple chain and list the bones between its links (top-down); with `path`
 * NULL only counts them. `mark` is bone_count zeroed bytes (left zeroed). Returns the bones listed. */
uint32_t pmi_ik_plan(pm_pose_workspace *ws, pmi_ik *ik, uint32_t *path, uint32_t at, uint8_t *mark) {
    const uint32_t n = ws->bone_count;
    uint32_t listed = 0;
    ik->simple = false;
    if (ik->link_count == 0) return 0;
    /* the whole chain is checked before anything is written: a chain that fails at a later link counts
     * 0, so writing its earlier links would overrun the path the counting pass sized (found by the rig
     * analysis on patched PMD files) */
    for (int write = 0; write < (path ? 2 : 1); write++) {
        listed = 0;
        for (uint32_t j = 0; j < ik->link_count; j++) {
            const uint32_t top = ws->links[ik->link_first + j].bone;
            const uint32_t lower = j ? ws->links[ik->link_first + j - 1].bone : ik->target;
            /* walk up from the lower bone's parent to this link */
            uint32_t count = 0, p = ws->bones[lower].parent;
            while (p != PM_NO_INDEX && p != top && count <= n) p = ws->bones[p].parent, count++;
            if (p != top || lower == top) return 0;
            if (write) {
                ws->path_of_link[ik->link_first + j][0] = at + listed;
                ws->path_of_link[ik->link_first + j][1] = count;
                p = ws->bones[lower].parent;
                for (uint32_t k = count; k-- > 0; p = ws->bones[p].parent) path[at + listed + k] = p;
            }
            listed += count;
        }
    }
    /* no bone under the root-most link may append from another bone under it */
    const uint32_t root = ws->links[ik->link_first + ik->link_count - 1].bone;
    uint32_t top = 0;
    ws->stack[top++] = root;
    while (top) {
        uint32_t b = ws->stack[--top];
        mark[b] = 1;
        for (uint32_t c = 0; c < ws->bones[b].child_count && top < n; c++)
            ws->stack[top++] = ws->children[ws->bones[b].child_first + c];
    }
    bool simple = true;
    for (uint32_t b = 0; b < n; b++)
        if (mark[b] && ws->bones[b].append_src != PM_NO_INDEX && mark[ws->bones[b].append_src]) simple = false;
    memset(mark, 0, n);
    ik->simple = simple;
    return listed;
}

/* IkSolver.solve(usePhysics = false) */
void pmi_ik_solve(pm_pose_workspace *ws, const pmi_ik *ik) {
    if (ik->link_count == 0) return;
    /* babylon-mmd evaluates the target with IK on, so a target that has IK of its own solves it here;
     * a chain of such targets is cut at a fixed depth (babylon-mmd would recurse without end). */
    if (ws->ik_depth >= 8) return;
    ws->ik_depth++;
    for (uint32_t i = 0; i < ik->link_count; i++) ws->st[ws->links[ik->link_first + i].bone].ik_rot = pmi_dq_identity();
    pmi_dv ik_pos = world_t(ws, ik->bone);
    pmi_pose_update_bone(ws, ik->target, true);
    pmi_dv target_pos = world_t(ws, ik->target);
    if (dist_sq(ik_pos, target_pos) < 1.0e-8) goto done;
    for (uint32_t i = ik->link_count; i-- > 0;) pmi_pose_update_bone(ws, ws->links[ik->link_first + i].bone, false);
    pmi_pose_update_bone(ws, ik->target, false);
    target_pos = world_t(ws, ik->target);
    if (dist_sq(ik_pos, target_pos) < 1.0e-8) goto done;
    uint32_t iterations = ik->iterations < ws->max_iterations ? ik->iterations : ws->max_iterations;
    uint32_t half = iterations >> 1;
    const bool fast = ik->simple && !(ws->flags & PM_POSE_REFERENCE_IK);
    uint32_t top = 0; /* 1 + the highest link that turned */
    if (fast)
        for (uint32_t c = 0; c < ik->link_count; c++) ws->prev_ik_rot[ik->link_first + c] = pmi_dq_identity();
    for (uint32_t it = 0; it < iterations; it++) {
        for (uint32_t c = 0; c < ik->link_count; c++)
            if (ws->links[ik->link_first + c].axis != PMI_AXIS_FIXED &&
                solve_link(ws, ik, c, ik_pos, &target_pos, it < half, fast) && c + 1 > top)
                top = c + 1;
        if (dist_sq(ik_pos, target_pos) < 1.0e-8) break;
        /* An iteration that changed nothing bit for bit is a fixed point: every later iteration with the
         * same axis mode (the first or the second half) would change nothing either. */
        if (fast && same_as_before(ws, ik)) {
            if (it + 1 >= half) break;
            it = half - 1;
        }
    }
    if (fast && top) update_link_world(ws, ws->links[ik->link_first + top - 1].bone);
done:
    ws->ik_depth--;
}
