/* Analytic two-bone IK and MMD-style leg IK (see procmotion/ik.h). Computed in double. */
#include "procmotion/ik.h"
#include "math/inline.h"

#include "pose_internal.h"

static pm_vec3 v_out(pmi_dv v) { return pmi_vec3_make((float)v.x, (float)v.y, (float)v.z); }

/* Unit vector, or zero when the length is below `tiny`. */
static pmi_dv v_unit(pmi_dv a, double tiny) {
    double l = pmi_dv_len(a);
    return l > tiny ? pmi_dv_scale(a, 1.0 / l) : pmi_dv_make(0, 0, 0);
}

/* Some unit vector perpendicular to unit `d`. */
static pmi_dv v_perpendicular(pmi_dv d) {
    pmi_dv axis = fabs(d.x) < 0.9 ? pmi_dv_make(1, 0, 0) : pmi_dv_make(0, 1, 0);
    return v_unit(pmi_dv_cross(d, axis), 0);
}

static pmi_dq q_normalize(pmi_dq q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 1e-300) || !isfinite(n)) return pmi_dq_identity();
    pmi_dq r = {q.x / n, q.y / n, q.z / n, q.w / n};
    return r;
}

/* Rotation by `angle` about unit `axis` (Hamilton convention, as pm_quat_from_axis_angle). */
static pmi_dq q_axis_angle(pmi_dv axis, double angle) {
    double s = sin(angle * 0.5);
    pmi_dq q = {axis.x * s, axis.y * s, axis.z * s, cos(angle * 0.5)};
    return q;
}

/* Rotation whose matrix has rows r[0..2] (row i, column j = r[i][j]). */
static pmi_dq q_from_rows(double r[3][3]) {
    double tr = r[0][0] + r[1][1] + r[2][2];
    pmi_dq q;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q.w = 0.25 * s, q.x = (r[2][1] - r[1][2]) / s, q.y = (r[0][2] - r[2][0]) / s, q.z = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q.w = (r[2][1] - r[1][2]) / s, q.x = 0.25 * s, q.y = (r[0][1] + r[1][0]) / s, q.z = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q.w = (r[0][2] - r[2][0]) / s, q.x = (r[0][1] + r[1][0]) / s, q.y = 0.25 * s, q.z = (r[1][2] + r[2][1]) / s;
    } else {
        double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q.w = (r[1][0] - r[0][1]) / s, q.x = (r[0][2] + r[2][0]) / s, q.y = (r[1][2] + r[2][1]) / s, q.z = 0.25 * s;
    }
    return q_normalize(q);
}

/* The rotation taking the orthonormal frame (a0, b0, a0 x b0) onto (a1, b1, a1 x b1). */
static pmi_dq q_align_frames(pmi_dv a0, pmi_dv b0, pmi_dv a1, pmi_dv b1) {
    pmi_dv c0 = pmi_dv_cross(a0, b0), c1 = pmi_dv_cross(a1, b1);
    const pmi_dv f0[3] = {a0, b0, c0}, f1[3] = {a1, b1, c1};
    double r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) {
                const double e1[3] = {f1[k].x, f1[k].y, f1[k].z}, e0[3] = {f0[k].x, f0[k].y, f0[k].z};
                s += e1[i] * e0[j];
            }
            r[i][j] = s;
        }
    return q_from_rows(r);
}

static pm_quat q_out(pmi_dq q) { return pm_quat_normalize(pmi_dq_to_quat(q)); }

static bool finite_vec(pm_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

pm_result pm_two_bone_ik(pm_vec3 root_f, pm_vec3 mid_f, pm_vec3 end_f, pm_vec3 target_f, pm_vec3 pole_f,
                         pm_two_bone_ik_result *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: two-bone IK needs an output");
    const pm_vec3 in[5] = {root_f, mid_f, end_f, target_f, pole_f};
    static const char *const names[5] = {"root", "mid", "end", "target", "pole"};
    for (int i = 0; i < 5; i++)
        if (!finite_vec(in[i])) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: %s is not finite", names[i]);
    const pmi_dv root = pmi_dv_of(root_f), mid = pmi_dv_of(mid_f), end = pmi_dv_of(end_f), target = pmi_dv_of(target_f), pole = pmi_dv_of(pole_f);
    const pmi_dv upper = pmi_dv_sub(mid, root), lower = pmi_dv_sub(end, mid), to_target = pmi_dv_sub(target, root);
    const double a = pmi_dv_len(upper), b = pmi_dv_len(lower), d = pmi_dv_len(to_target);
    const double tiny = 1e-9 * (a + b + d + 1.0);
    pmi_dq root_delta = pmi_dq_identity(), mid_delta = pmi_dq_identity();
    pmi_dv new_mid, new_end;
    if (a <= tiny || b <= tiny) {
        /* a zero-length bone: aim the limb as a whole */
        pmi_dv limb = v_unit(pmi_dv_sub(end, root), tiny), dir = v_unit(to_target, tiny);
        if (pmi_dv_len_sq(limb) > 0 && pmi_dv_len_sq(dir) > 0) root_delta = pmi_dq_arc(limb, dir);
        new_mid = pmi_dv_add(root, pmi_dq_rotate(root_delta, upper));
        new_end = pmi_dv_add(root, pmi_dq_rotate(root_delta, pmi_dv_sub(end, root)));
    } else {
        pmi_dv dir = v_unit(to_target, tiny);
        if (pmi_dv_len_sq(dir) == 0) dir = v_unit(pmi_dv_sub(end, root), tiny); /* target at the root */
        if (pmi_dv_len_sq(dir) == 0) dir = v_unit(upper, tiny);
        /* bend side: the pole's offset from the root-target line, else the current bend */
        pmi_dv side = pmi_dv_sub(pole, root);
        side = v_unit(pmi_dv_sub(side, pmi_dv_scale(dir, pmi_dv_dot(side, dir))), 1e-6 * (a + b));
        if (pmi_dv_len_sq(side) == 0) side = v_unit(pmi_dv_sub(upper, pmi_dv_scale(dir, pmi_dv_dot(upper, dir))), 1e-6 * a);
        if (pmi_dv_len_sq(side) == 0) side = v_perpendicular(dir);
        const double lo = fabs(a - b), hi = a + b;
        const double dc = d < lo ? lo : d > hi ? hi : d;
        double cos_a = dc > tiny ? (a * a + dc * dc - b * b) / (2 * a * dc) : 0;
        cos_a = cos_a < -1 ? -1 : cos_a > 1 ? 1 : cos_a;
        const double sin_a = sqrt(1 - cos_a * cos_a);
        const pmi_dv new_upper = pmi_dv_add(pmi_dv_scale(dir, a * cos_a), pmi_dv_scale(side, a * sin_a));
        new_mid = pmi_dv_add(root, new_upper);
        new_end = pmi_dv_add(root, pmi_dv_scale(dir, dc));
        const pmi_dv u0 = pmi_dv_scale(upper, 1 / a), u1 = pmi_dv_scale(new_upper, 1 / a);
        const pmi_dv n0 = v_unit(pmi_dv_cross(upper, lower), 1e-6 * a * b);
        /* the new plane's normal, oriented as upper x lower is for a limb bent toward `side` */
        const pmi_dv n1 = v_unit(pmi_dv_cross(side, dir), 0);
        if (pmi_dv_len_sq(n0) > 0) {
            root_delta = q_align_frames(u0, n0, u1, n1);
            const pmi_dv l0 = pmi_dq_rotate(root_delta, lower), l1 = pmi_dv_sub(new_end, new_mid);
            double angle = atan2(pmi_dv_dot(n1, pmi_dv_cross(l0, l1)), pmi_dv_dot(l0, l1));
            mid_delta = q_axis_angle(n1, angle);
        } else {
            root_delta = pmi_dq_arc(u0, u1);
            const pmi_dv l0 = v_unit(pmi_dq_rotate(root_delta, lower), 0), l1 = v_unit(pmi_dv_sub(new_end, new_mid), 0);
            if (pmi_dv_len_sq(l0) > 0 && pmi_dv_len_sq(l1) > 0) mid_delta = pmi_dq_arc(l0, l1);
        }
    }
    out->root_delta = q_out(root_delta);
    out->mid_delta = q_out(mid_delta);
    out->mid = v_out(new_mid);
    out->end = v_out(new_end);
    double miss = pmi_dv_len(pmi_dv_sub(new_end, target));
    out->miss = (float)miss;
    out->reached = miss <= 1e-5 * (a + b + 1.0);
    return PM_OK;
}

pm_result pm_leg_ik(pm_vec3 hip, pm_vec3 knee, pm_vec3 ankle, pm_vec3 target, pm_vec3 forward,
                    pm_two_bone_ik_result *out, pm_error *err) {
    if (!finite_vec(forward)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: forward is not finite");
    if (!finite_vec(hip) || !finite_vec(knee) || !finite_vec(ankle) || !finite_vec(target))
        return pm_two_bone_ik(hip, knee, ankle, target, hip, out, err); /* names the parameter */
    pmi_dv f = v_unit(pmi_dv_of(forward), 1e-12);
    if (pmi_dv_len_sq(f) == 0) f = pmi_dv_make(0, 0, -1);
    double reach = pmi_dv_len(pmi_dv_sub(pmi_dv_of(knee), pmi_dv_of(hip))) + pmi_dv_len(pmi_dv_sub(pmi_dv_of(ankle), pmi_dv_of(knee)));
    /* a pole in front of the middle of the hip-target line */
    pmi_dv pole = pmi_dv_add(pmi_dv_scale(pmi_dv_add(pmi_dv_of(hip), pmi_dv_of(target)), 0.5), pmi_dv_scale(f, reach > 0 ? reach : 1));
    return pm_two_bone_ik(hip, knee, ankle, target, v_out(pole), out, err);
}

pm_quat pm_ik_delta_to_local(pm_quat parent_world, pm_quat delta) {
    pm_quat p = pm_quat_normalize(parent_world);
    return pm_quat_normalize(pm_quat_mul(pm_quat_mul(pmi_quat_conjugate(p), delta), p));
}

static bool descends(const pm_pose_workspace *ws, uint32_t bone, uint32_t ancestor) {
    uint32_t p = ws->bones[bone].parent;
    for (uint32_t steps = 0; p != PM_NO_INDEX && steps <= ws->bone_count; steps++, p = ws->bones[p].parent)
        if (p == ancestor) return true;
    return false;
}

/* Pre-multiply a world delta onto bone b's animated rotation, through its IK correction. */
static void apply_delta(pm_pose_workspace *ws, pm_pose *pose, uint32_t b, pm_quat delta) {
    uint32_t parent = ws->bones[b].parent;
    pm_quat pw = parent != PM_NO_INDEX ? pm_mat4_get_rotation(&pose->world[parent]) : pmi_quat_identity();
    pmi_dq local = pmi_dq_from_quat(pm_ik_delta_to_local(pw, delta));
    pmi_dq ik = ws->bones[b].is_link ? ws->st[b].ik_rot : pmi_dq_identity();
    pmi_dq r = pmi_dq_mul(pmi_dq_mul(pmi_dq_mul(pmi_dq_conj(ik), local), ik), pmi_dq_from_quat(pose->rotation[b]));
    pose->rotation[b] = q_out(r);
}

pm_result pm_pose_leg_ik(pm_pose_workspace *ws, pm_pose *pose, uint32_t hip, uint32_t knee, uint32_t ankle,
                         pm_vec3 target, pm_vec3 forward, pm_two_bone_ik_result *out, pm_error *err) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC || !pose || pose->bone_count != ws->bone_count || !pose->world ||
        !pose->rotation)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: leg IK needs a workspace and a pose of its skeleton");
    if (hip >= ws->bone_count || knee >= ws->bone_count || ankle >= ws->bone_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: leg bones %u, %u, %u of %u", hip, knee, ankle,
                        ws->bone_count);
    if (!descends(ws, knee, hip) || !descends(ws, ankle, knee))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "ik: bone %u must descend from %u and %u from %u", knee, hip,
                        ankle, knee);
    pm_two_bone_ik_result res;
    pm_result r = pm_leg_ik(pm_pose_world_position(pose, hip), pm_pose_world_position(pose, knee),
                            pm_pose_world_position(pose, ankle), target, forward, &res, err);
    if (r != PM_OK) return r;
    apply_delta(ws, pose, hip, res.root_delta);
    if ((r = pm_pose_update_subtree(ws, pose, hip, NULL, err)) != PM_OK) return r;
    apply_delta(ws, pose, knee, res.mid_delta);
    if ((r = pm_pose_update_subtree(ws, pose, knee, NULL, err)) != PM_OK) return r;
    if (out) *out = res;
    return PM_OK;
}
