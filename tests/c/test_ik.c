/* Analytic two-bone IK and MMD-style leg IK: exactness, the pole's bend plane, reach limits,
 * degenerate input, a 10 000-target random sweep, and leg IK on a pose without IK data. */
#include "pm_test.h"
#include "pose_builders.h"

#include "procmotion/ik.h"

static double dist(pm_vec3 a, pm_vec3 b) { return pm_vec3_distance(a, b); }

static double rnd(unsigned long long *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static pm_vec3 rnd_vec(unsigned long long *s, double scale) {
    pm_vec3 v;
    v.x = (float)((rnd(s) * 2 - 1) * scale);
    v.y = (float)((rnd(s) * 2 - 1) * scale);
    v.z = (float)((rnd(s) * 2 - 1) * scale);
    return v;
}

static bool finite_result(const pm_two_bone_ik_result *r) {
    const float v[] = {r->root_delta.x, r->root_delta.y, r->root_delta.z, r->root_delta.w, r->mid_delta.x,
                       r->mid_delta.y,  r->mid_delta.z,  r->mid_delta.w,  r->mid.x,        r->mid.y,
                       r->mid.z,        r->end.x,        r->end.y,        r->end.z,        r->miss};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* The deltas applied to the original joints give the solved joints. */
static void check_deltas_consistent(pm_vec3 root, pm_vec3 mid, pm_vec3 end, const pm_two_bone_ik_result *r,
                                    double tol) {
    pm_vec3 m = pm_vec3_add(root, pm_quat_rotate(r->root_delta, pm_vec3_sub(mid, root)));
    pm_vec3 e = pm_vec3_add(m, pm_quat_rotate(pm_quat_mul(r->mid_delta, r->root_delta), pm_vec3_sub(end, mid)));
    PM_CHECK_MSG(dist(m, r->mid) <= tol, "root_delta puts mid %g from the solved mid", dist(m, r->mid));
    PM_CHECK_MSG(dist(e, r->end) <= tol, "the deltas put end %g from the solved end", dist(e, r->end));
}

PM_TEST(two_bone_ik_reaches_reachable_targets_exactly_and_keeps_bone_lengths) {
    pm_vec3 root = pm_vec3_make(0, 10, 0), mid = pm_vec3_make(0, 5.5f, -0.5f), end = pm_vec3_make(0, 1, 0);
    const pm_vec3 targets[] = {{0, 3, -1}, {1, 2, 2}, {0, 9, 0}, {-3, 6, -2}, {0.5f, 1.2f, 0}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        pm_two_bone_ik_result r;
        pm_error err = {0};
        PM_CHECK_OK(pm_two_bone_ik(root, mid, end, targets[i], pm_vec3_make(0, 5, -10), &r, &err), &err);
        PM_CHECK_MSG(dist(r.end, targets[i]) <= 1e-5, "target %zu: %g away", i, dist(r.end, targets[i]));
        PM_CHECK(r.reached && r.miss <= 1e-5f);
        PM_CHECK_NEAR(dist(r.mid, root), dist(mid, root), 1e-5);
        PM_CHECK_NEAR(dist(r.end, r.mid), dist(end, mid), 1e-5);
        check_deltas_consistent(root, mid, end, &r, 1e-4);
        /* the pole is at -Z: the knee comes out in front */
        PM_CHECK(r.mid.z < 0.5f * (root.z + targets[i].z));
    }
}

PM_TEST(the_pole_picks_the_bend_plane_and_the_mid_delta_is_a_hinge) {
    pm_vec3 root = pm_vec3_make(0, 0, 0), mid = pm_vec3_make(1, 0, 0.3f), end = pm_vec3_make(2, 0, 0);
    pm_vec3 target = pm_vec3_make(1.5f, 0, 0);
    const pm_vec3 poles[] = {{0.75f, 5, 0}, {0.75f, -5, 0}, {0.75f, 0, 5}, {0.75f, 3, -3}};
    for (size_t i = 0; i < sizeof poles / sizeof poles[0]; i++) {
        pm_two_bone_ik_result r;
        pm_error err = {0};
        PM_CHECK_OK(pm_two_bone_ik(root, mid, end, target, poles[i], &r, &err), &err);
        /* mid lies in the plane through the root-target line and the pole, on the pole's side */
        pm_vec3 dir = pm_vec3_normalize(pm_vec3_sub(target, root));
        pm_vec3 side = pm_vec3_sub(poles[i], root);
        side = pm_vec3_normalize(pm_vec3_sub(side, pm_vec3_scale(dir, pm_vec3_dot(side, dir))));
        pm_vec3 normal = pm_vec3_cross(dir, side);
        pm_vec3 m = pm_vec3_sub(r.mid, root);
        PM_CHECK_MSG(fabs(pm_vec3_dot(m, normal)) < 1e-5, "pole %zu: mid %g off the plane", i, pm_vec3_dot(m, normal));
        PM_CHECK(pm_vec3_dot(m, side) > 0.1f);
        /* the limb was bent, so the lower bone turns about the new plane's normal only */
        pm_vec3 axis;
        float angle;
        pm_quat_to_axis_angle(r.mid_delta, &axis, &angle);
        if (angle > 1e-4f) PM_CHECK_MSG(fabs(fabs(pm_vec3_dot(axis, normal)) - 1) < 1e-4, "pole %zu: not a hinge", i);
        check_deltas_consistent(root, mid, end, &r, 1e-5);
    }
}

PM_TEST(unreachable_targets_give_a_straight_limb_pointing_at_them) {
    pm_vec3 root = pm_vec3_make(0, 0, 0), mid = pm_vec3_make(0, -2, -0.2f), end = pm_vec3_make(0, -4, 0);
    double a = dist(mid, root), b = dist(end, mid);
    const pm_vec3 targets[] = {{0, -10, 0}, {7, 3, 1}, {0, 0, -100}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        pm_two_bone_ik_result r;
        pm_error err = {0};
        PM_CHECK_OK(pm_two_bone_ik(root, mid, end, targets[i], pm_vec3_make(0, -2, -5), &r, &err), &err);
        PM_CHECK(!r.reached);
        pm_vec3 dir = pm_vec3_normalize(targets[i]);
        PM_CHECK(dist(r.end, pm_vec3_scale(dir, (float)(a + b))) < 1e-4);
        PM_CHECK(dist(r.mid, pm_vec3_scale(dir, (float)a)) < 1e-4);
        PM_CHECK_NEAR(r.miss, dist(targets[i], root) - (a + b), 1e-4);
        check_deltas_consistent(root, mid, end, &r, 1e-4);
    }
    /* nearer than |a - b|: the limb folds toward the target */
    pm_vec3 mid2 = pm_vec3_make(0, -3, 0);
    pm_two_bone_ik_result r;
    pm_error err = {0};
    PM_CHECK_OK(pm_two_bone_ik(root, mid2, end, pm_vec3_make(0, -1, 0.5f), pm_vec3_make(0, 0, -1), &r, &err), &err);
    PM_CHECK(!r.reached && finite_result(&r));
    PM_CHECK_NEAR(dist(r.end, root), 2, 1e-4);
}

PM_TEST(degenerate_input_stays_finite) {
    pm_vec3 o = pm_vec3_make(0, 0, 0), x = pm_vec3_make(1, 0, 0), x2 = pm_vec3_make(2, 0, 0);
    pm_two_bone_ik_result r;
    pm_error err = {0};
    /* zero-length upper bone: aim only */
    PM_CHECK_OK(pm_two_bone_ik(o, o, x, pm_vec3_make(0, 3, 0), x, &r, &err), &err);
    PM_CHECK(finite_result(&r));
    PM_CHECK(dist(r.end, pm_vec3_make(0, 1, 0)) < 1e-5);
    /* everything at one point */
    PM_CHECK_OK(pm_two_bone_ik(o, o, o, o, o, &r, &err), &err);
    PM_CHECK(finite_result(&r));
    /* target at the root: the limb folds along its current direction */
    PM_CHECK_OK(pm_two_bone_ik(o, x, x2, o, pm_vec3_make(1, 1, 0), &r, &err), &err);
    PM_CHECK(finite_result(&r));
    PM_CHECK(dist(r.end, o) < 1e-5); /* equal bone lengths fold exactly onto the root */
    /* pole on the root-target line, straight limb: some plane, still exact */
    PM_CHECK_OK(pm_two_bone_ik(o, x, x2, pm_vec3_make(1.5f, 0, 0), pm_vec3_make(3, 0, 0), &r, &err), &err);
    PM_CHECK(finite_result(&r) && dist(r.end, pm_vec3_make(1.5f, 0, 0)) < 1e-5);
    /* pole at the root, bent limb: the current bend plane (z) is kept */
    PM_CHECK_OK(pm_two_bone_ik(o, pm_vec3_make(1, 0, 1), x2, pm_vec3_make(1.5f, 0, 0), o, &r, &err), &err);
    PM_CHECK(finite_result(&r) && r.mid.z > 0.1f && fabs(r.mid.y) < 1e-5);
    /* NaN and infinity are refused, naming the parameter */
    PM_CHECK(pm_two_bone_ik(o, x, x2, pm_vec3_make(NAN, 0, 0), o, &r, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "target") != NULL);
    PM_CHECK(pm_two_bone_ik(o, x, x2, o, pm_vec3_make(0, INFINITY, 0), &r, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "pole") != NULL);
    PM_CHECK(pm_two_bone_ik(o, x, x2, o, o, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
}

PM_TEST(ten_thousand_random_limbs_and_targets_never_give_nan) {
    unsigned long long s = 0x9E3779B97F4A7C15ull;
    int bad = 0, inexact = 0;
    for (int i = 0; i < 10000; i++) {
        double scale = i % 4 == 0 ? 1e-3 : i % 4 == 1 ? 100 : 3;
        pm_vec3 root = rnd_vec(&s, scale), mid = rnd_vec(&s, scale), end = rnd_vec(&s, scale);
        pm_vec3 target = rnd_vec(&s, scale * 2), pole = rnd_vec(&s, scale);
        if (i % 97 == 0) mid = root;     /* zero-length bones */
        if (i % 89 == 0) target = root;  /* target at the root */
        if (i % 83 == 0) pole = target;  /* pole on the line */
        pm_two_bone_ik_result r;
        pm_error err = {0};
        if (pm_two_bone_ik(root, mid, end, target, pole, &r, &err) != PM_OK || !finite_result(&r)) {
            bad++;
            continue;
        }
        double a = dist(mid, root), b = dist(end, mid), d = dist(target, root);
        if (a > 1e-3 * scale && b > 1e-3 * scale && d < a + b && d > fabs(a - b) && dist(r.end, target) > 1e-4 * scale)
            inexact++;
    }
    PM_CHECK_EQ_INT(bad, 0);
    PM_CHECK_EQ_INT(inexact, 0);
}

PM_TEST(leg_ik_bends_the_knee_forward) {
    pm_vec3 hip = pm_vec3_make(0.8f, 10.75f, -0.07f), knee = pm_vec3_make(0.7f, 6, -0.8f), ankle = pm_vec3_make(0.87f, 1.47f, 0);
    pm_two_bone_ik_result r;
    pm_error err = {0};
    /* default forward (zero vector) = -Z */
    PM_CHECK_OK(pm_leg_ik(hip, knee, ankle, pm_vec3_make(0.9f, 3, 0.5f), pm_vec3_make(0, 0, 0), &r, &err), &err);
    PM_CHECK(r.reached && r.mid.z < -0.5f);
    /* a model turned around: forward = +Z, the knee follows */
    PM_CHECK_OK(pm_leg_ik(hip, knee, ankle, pm_vec3_make(0.9f, 3, 0.5f), pm_vec3_make(0, 0, 1), &r, &err), &err);
    PM_CHECK(r.reached && r.mid.z > 0.5f);
    PM_CHECK(pm_leg_ik(hip, knee, ankle, ankle, pm_vec3_make(NAN, 0, 0), &r, &err) == PM_ERR_INVALID_ARGUMENT);
}

PM_TEST(delta_to_local_conjugates_by_the_parent) {
    pm_quat parent = pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), 1.0f);
    pm_quat delta = pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), 0.5f);
    pm_quat local = pm_ik_delta_to_local(parent, delta);
    /* parent * local == delta * parent */
    pm_quat a = pm_quat_mul(parent, local), b = pm_quat_mul(delta, parent);
    PM_CHECK(fabs(fabs(pm_quat_dot(a, b)) - 1) < 1e-6);
}

PM_TEST(pose_leg_ik_places_the_ankle_on_a_skeleton_without_ik_data) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig g = tb_leg(&t);
    t.bones[g.leg_ik].has_ik = false; /* no IK data: the layer above solves the leg itself */
    t.bones[g.toe_ik].has_ik = false;
    pm_error err = {0};
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_pose_workspace_create(&t.sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(&t.sk, NULL, &pose, &err), &err);
    PM_CHECK_OK(pm_pose_sample(NULL, ws, 0, pose, &err), &err);
    pose->translation[g.center] = pm_vec3_make(0, -1.5f, 0); /* crouch */
    pose->rotation[g.lower] = pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), 0.3f);
    PM_CHECK_OK(pm_pose_evaluate_local(ws, pose, NULL, &err), &err);
    pm_vec3 target = pm_vec3_make(0.9f, 1.5f, -0.3f);
    pm_two_bone_ik_result r;
    PM_CHECK_OK(pm_pose_leg_ik(ws, pose, g.leg, g.knee, g.ankle, target, pm_vec3_make(0, 0, -1), &r, &err), &err);
    PM_CHECK_MSG(dist(pm_pose_world_position(pose, g.ankle), target) < 1e-4, "ankle %g from the target",
                 dist(pm_pose_world_position(pose, g.ankle), target));
    pm_vec3 hip = pm_pose_world_position(pose, g.leg), knee = pm_pose_world_position(pose, g.knee);
    PM_CHECK(knee.z < 0.5f * (hip.z + target.z));
    /* the toe followed the ankle (the subtree was refreshed) */
    PM_CHECK_NEAR(dist(pm_pose_world_position(pose, g.toe), pm_pose_world_position(pose, g.ankle)),
                  dist(t.bones[g.toe].position, t.bones[g.ankle].position), 1e-4);
    /* a full re-evaluation from the changed local rotations gives the same pose */
    PM_CHECK_OK(pm_pose_evaluate_local(ws, pose, NULL, &err), &err);
    PM_CHECK(dist(pm_pose_world_position(pose, g.ankle), target) < 1e-4);
    PM_CHECK(pm_pose_leg_ik(ws, pose, g.knee, g.leg, g.ankle, target, pm_vec3_make(0, 0, -1), &r, &err) ==
             PM_ERR_INVALID_ARGUMENT);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
}

int main(void) { return pm_test_run_all(); }
