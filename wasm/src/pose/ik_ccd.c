/* MMD CCD IK as babylon-mmd 1.3's IkSolver does it (itself based on saba's MMDIkSolver): see
 * procmotion/pose.h and docs/pose.md. The names follow babylon-mmd: the "IK position" is where the IK
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

/* MmdRuntimeBone.updateIkChainWorldMatrix */
static void update_link_world(pm_pose_workspace *ws, uint32_t b) {
    const pmi_bone *bone = &ws->bones[b];
    pmi_bone_state *st = &ws->st[b];
    pmi_dq rot = pmi_dq_mul(st->ik_rot, st->local_rot);
    float *w = ws->world + (size_t)b * 16;
    pmi_mat_from_dq(rot, w);
    w[12] = (float)(bone->rest[0] + st->local_pos.x);
    w[13] = (float)(bone->rest[1] + st->local_pos.y);
    w[14] = (float)(bone->rest[2] + st->local_pos.z);
    if (bone->parent != PM_NO_INDEX) pmi_mat_mul(w, ws->world + (size_t)bone->parent * 16, w);
    st->fin_rot = rot;
    st->fin_pos = st->local_pos;
    pmi_pose_update_children(ws, b);
}

/* Clamp a limited link's rotation (ik_rot * local_rot) in Euler angles and store the correction. */
static void clamp_euler(pm_pose_workspace *ws, const pmi_ik_link *link, bool use_axis) {
    pmi_bone_state *st = &ws->st[link->bone];
    float m[16];
    pmi_mat_from_dq(pmi_dq_mul(st->ik_rot, st->local_rot), m);
    const double threshold = 88 * PM_PI / 180;
    const pmi_dv right = {1, 0, 0}, up = {0, 1, 0}, forward = {0, 0, 1};
    double rx, ry, rz, c;
    pmi_dq q;
    switch (link->order) {
    case PMI_ORDER_YXZ:
        rx = asin(clamp_unit(-(double)m[9]));
        if (fabs(rx) > threshold) rx = rx < 0 ? -threshold : threshold;
        c = cos(rx);
        if (c != 0) c = 1 / c;
        ry = atan2(m[8] * c, m[10] * c);
        rz = atan2(m[1] * c, m[5] * c);
        rx = limit_angle(rx, link->min.x, link->max.x, use_axis);
        ry = limit_angle(ry, link->min.y, link->max.y, use_axis);
        rz = limit_angle(rz, link->min.z, link->max.z, use_axis);
        q = pmi_dq_axis_angle(up, ry);
        q = pmi_dq_mul(q, pmi_dq_axis_angle(right, rx));
        q = pmi_dq_mul(q, pmi_dq_axis_angle(forward, rz));
        break;
    case PMI_ORDER_ZYX:
        ry = asin(clamp_unit(-(double)m[2]));
        if (fabs(ry) > threshold) ry = ry < 0 ? -threshold : threshold;
        c = cos(ry);
        if (c != 0) c = 1 / c;
        rx = atan2(m[6] * c, m[10] * c);
        rz = atan2(m[1] * c, m[0] * c);
        rx = limit_angle(rx, link->min.x, link->max.x, use_axis);
        ry = limit_angle(ry, link->min.y, link->max.y, use_axis);
        rz = limit_angle(rz, link->min.z, link->max.z, use_axis);
        q = pmi_dq_axis_angle(forward, rz);
        q = pmi_dq_mul(q, pmi_dq_axis_angle(up, ry));
        q = pmi_dq_mul(q, pmi_dq_axis_angle(right, rx));
        break;
    default: /* XZY */
        rz = asin(clamp_unit(-(double)m[4]));
        if (fabs(rz) > threshold) rz = rz < 0 ? -threshold : threshold;
        c = cos(rz);
        if (c != 0) c = 1 / c;
        rx = atan2(m[6] * c, m[5] * c);
        ry = atan2(m[8] * c, m[0] * c);
        rx = limit_angle(rx, link->min.x, link->max.x, use_axis);
        ry = limit_angle(ry, link->min.y, link->max.y, use_axis);
        rz = limit_angle(rz, link->min.z, link->max.z, use_axis);
        q = pmi_dq_axis_angle(right, rx);
        q = pmi_dq_mul(q, pmi_dq_axis_angle(forward, rz));
        q = pmi_dq_mul(q, pmi_dq_axis_angle(up, ry));
        break;
    }
    st->ik_rot = pmi_dq_mul(q, pmi_dq_conj(st->local_rot));
}

/* IkSolver._solveChain */
static void solve_link(pm_pose_workspace *ws, const pmi_ik *ik, uint32_t index, pmi_dv ik_pos, pmi_dv *target_pos,
                       bool use_axis) {
    const pmi_ik_link *link = &ws->links[ik->link_first + index];
    const uint32_t b = link->bone;
    pmi_dv chain_pos = world_t(ws, b);
    pmi_dv target_vec = pmi_dv_normalize(pmi_dv_sub(chain_pos, *target_pos));
    pmi_dv ik_vec = pmi_dv_normalize(pmi_dv_sub(chain_pos, ik_pos));
    pmi_dv axis = pmi_dv_cross(target_vec, ik_vec);
    if (pmi_dv_len_sq(axis) < 1.0e-8) return;
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
    for (uint32_t i = index + 1; i-- > 0;) update_link_world(ws, ws->links[ik->link_first + i].bone);
    pmi_pose_update_bone(ws, ik->target, false);
    *target_pos = world_t(ws, ik->target);
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
    for (uint32_t it = 0; it < iterations; it++) {
        for (uint32_t c = 0; c < ik->link_count; c++)
            if (ws->links[ik->link_first + c].axis != PMI_AXIS_FIXED)
                solve_link(ws, ik, c, ik_pos, &target_pos, it < half);
        if (dist_sq(ik_pos, target_pos) < 1.0e-8) break;
    }
done:
    ws->ik_depth--;
}
