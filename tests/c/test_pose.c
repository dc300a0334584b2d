/* Pose evaluation on hand-built skeletons and motions: tracks, Bezier per channel, slerp, append,
 * transform order, CCD IK with knee limits, property keys, overrides, and no NaN under random input. */
#include "pm_test.h"
#include "pose_builders.h"

#include "procmotion/pose.h"

typedef struct ctx {
    pm_anim *anim;
    pm_pose_workspace *ws;
    pm_pose *pose;
    pm_error err;
} ctx;

static void ctx_open(ctx *c, const pm_skeleton *sk, const pm_vmd *vmd) {
    memset(c, 0, sizeof *c);
    if (vmd) PM_CHECK_OK(pm_anim_bind(sk, vmd, NULL, &c->anim, &c->err), &c->err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &c->ws, &c->err), &c->err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &c->pose, &c->err), &c->err);
}

static void ctx_eval(ctx *c, double frame) {
    PM_CHECK_OK(pm_pose_evaluate(c->anim, c->ws, frame, c->pose, NULL, &c->err), &c->err);
}

static void ctx_close(ctx *c) {
    pm_pose_free(c->pose);
    pm_pose_workspace_free(c->ws);
    pm_anim_free(c->anim);
}

static pm_vmd *new_vmd(void) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &err), &err);
    return v;
}

static double vdist(pm_vec3 a, pm_vec3 b) { return pm_vec3_distance(a, b); }
/* Angle of the rotation between two quaternions, accurate near zero (unlike acos of a dot). */
static double qangle(pm_quat a, pm_quat b) {
    a = pm_quat_normalize(a), b = pm_quat_normalize(b);
    double w = (double)a.w * b.w + (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
    double x = (double)a.w * b.x - (double)a.x * b.w - (double)a.y * b.z + (double)a.z * b.y;
    double y = (double)a.w * b.y + (double)a.x * b.z - (double)a.y * b.w - (double)a.z * b.x;
    double z = (double)a.w * b.z - (double)a.x * b.y + (double)a.y * b.x - (double)a.z * b.w;
    return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}
static pm_quat rot_x(double deg) { return pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), (float)(deg * PM_PI / 180)); }
static pm_quat rot_y(double deg) { return pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), (float)(deg * PM_PI / 180)); }

/* A two-bone arm along +X: 肩 at origin, ひじ at (2,0,0), 手首 at (4,0,0). */
static void arm(tb_skel *t, uint32_t *sh, uint32_t *el, uint32_t *wr) {
    tb_init(t);
    *sh = tb_bone(t, "肩", 0, 0, 0, PM_NO_INDEX);
    *el = tb_bone(t, "ひじ", 2, 0, 0, *sh);
    *wr = tb_bone(t, "手首", 4, 0, 0, *el);
}

PM_TEST(rest_pose_without_animation_is_the_bind_pose) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    ctx c;
    ctx_open(&c, &t.sk, NULL);
    ctx_eval(&c, 0);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, wr), pm_vec3_make(4, 0, 0)) < 1e-6);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, el), pm_vec3_make(2, 0, 0)) < 1e-6);
    ctx_close(&c);
}

PM_TEST(keys_hold_before_the_first_and_after_the_last_frame) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    PM_CHECK_OK(tb_key(v, "肩", 10, 0, 0, 0, rot_y(30), NULL), &(pm_error){0});
    PM_CHECK_OK(tb_key(v, "肩", 20, 0, 0, 0, rot_y(90), NULL), &(pm_error){0});
    ctx c;
    ctx_open(&c, &t.sk, v);
    /* At a segment's first frame babylon-mmd's bisection leaves a Bezier weight of ~1e-5, not 0, so
     * key A holds only to that precision (here 60 degrees * 1e-5). */
    ctx_eval(&c, -5);
    PM_CHECK(qangle(c.pose->rotation[sh], rot_y(30)) < 2e-5);
    ctx_eval(&c, 10);
    PM_CHECK(qangle(c.pose->rotation[sh], rot_y(30)) < 2e-5);
    ctx_eval(&c, 20);
    PM_CHECK(qangle(c.pose->rotation[sh], rot_y(90)) < 1e-6);
    ctx_eval(&c, 1000);
    PM_CHECK(qangle(c.pose->rotation[sh], rot_y(90)) < 1e-6);
    /* rotating 90 degrees about +Y takes the wrist from +X to -Z */
    PM_CHECK(vdist(pm_pose_world_position(c.pose, wr), pm_vec3_make(0, 0, -4)) < 1e-5);
    pm_anim_info info;
    pm_anim_get_info(c.anim, &info);
    PM_CHECK_EQ_INT(info.track_count, 1);
    PM_CHECK_EQ_INT(info.first_frame, 10);
    PM_CHECK_EQ_INT(info.last_frame, 20);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(slerp_between_keys_with_a_linear_curve_follows_the_fraction) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    tb_key(v, "肩", 0, 0, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 30, 0, 0, 0, rot_y(90), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    for (double f = 0; f <= 30; f += 2.5) {
        ctx_eval(&c, f);
        /* the default curve (20, 20, 107, 107) is linear: y = x, up to the bisection's 1e-5 */
        PM_CHECK_NEAR(qangle(c.pose->rotation[sh], rot_y(0)) * 180 / PM_PI, 3 * f, 90 * 2e-5);
    }
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(position_channels_use_their_own_bezier_curves_of_key_b) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    /* key A carries a curve that must be ignored for the segment A -> B */
    const uint8_t curves_a[4][4] = {{127, 0, 127, 0}, {127, 0, 127, 0}, {127, 0, 127, 0}, {127, 0, 127, 0}};
    const uint8_t curves_b[4][4] = {{20, 20, 107, 107}, {100, 10, 120, 30}, {10, 100, 30, 120}, {64, 0, 64, 127}};
    tb_key(v, "肩", 0, 0, 0, 0, rot_y(0), curves_a);
    tb_key(v, "肩", 10, 10, 20, 30, rot_y(60), curves_b);
    ctx c;
    ctx_open(&c, &t.sk, v);
    for (double f = 0.5; f < 10; f += 1.25) {
        ctx_eval(&c, f);
        double x = f / 10;
        PM_CHECK_NEAR(c.pose->translation[sh].x, 10 * pm_bezier_eval_mmd(20, 20, 107, 107, (float)x), 1e-5);
        PM_CHECK_NEAR(c.pose->translation[sh].y, 20 * pm_bezier_eval_mmd(100, 10, 120, 30, (float)x), 1e-5);
        PM_CHECK_NEAR(c.pose->translation[sh].z, 30 * pm_bezier_eval_mmd(10, 100, 30, 120, (float)x), 1e-5);
        double w = pm_bezier_eval_mmd(64, 0, 64, 127, (float)x);
        PM_CHECK_NEAR(qangle(c.pose->rotation[sh], rot_y(0)) * 180 / PM_PI, 60 * w, 1e-3);
        /* the bone moves: world = rest + offset, rotation about the bone's own origin */
        pm_vec3 p = pm_pose_world_position(c.pose, sh);
        PM_CHECK(vdist(p, c.pose->translation[sh]) < 1e-5);
    }
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(fractional_frames_and_unsorted_keys_interpolate_in_frame_order) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    tb_key(v, "肩", 20, 2, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 0, 0, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 10, 1, 0, 0, rot_y(0), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 5.5);
    PM_CHECK_NEAR(c.pose->translation[sh].x, 0.55, 1e-4);
    ctx_eval(&c, 15.25);
    PM_CHECK_NEAR(c.pose->translation[sh].x, 1.525, 1e-4);
    ctx_eval(&c, 0.001); /* a frame far from the cached cursor */
    PM_CHECK_NEAR(c.pose->translation[sh].x, 0.0001, 1e-4);
    uint32_t frames[4];
    PM_CHECK_EQ_INT(pm_anim_track_keys(c.anim, sh, frames, 4), 3);
    PM_CHECK(frames[0] == 0 && frames[1] == 10 && frames[2] == 20);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(duplicate_frames_switch_at_that_frame_and_keep_file_order) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    tb_key(v, "肩", 0, 0, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 10, 1, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 10, 5, 0, 0, rot_y(0), NULL);
    tb_key(v, "肩", 20, 5, 0, 0, rot_y(0), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 9.5); /* toward the first key of frame 10 */
    PM_CHECK_NEAR(c.pose->translation[sh].x, 0.95, 1e-4);
    ctx_eval(&c, 10); /* the later key of frame 10 holds from frame 10 on */
    PM_CHECK_NEAR(c.pose->translation[sh].x, 5, 1e-6);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(unmatched_names_are_reported_not_fatal) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    tb_key(v, "肩", 0, 0, 0, 0, rot_y(10), NULL);
    tb_key(v, "しっぽ", 0, 0, 0, 0, rot_y(10), NULL);
    const char *ik_names[1] = {"右足ＩＫ"};
    const bool on[1] = {false};
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_add_property_key(v, 0, true, 1, ik_names, on, &err), &err);
    ctx c;
    ctx_open(&c, &t.sk, v);
    pm_anim_info info;
    pm_anim_get_info(c.anim, &info);
    PM_CHECK_EQ_INT(info.unmatched_bone_count, 1);
    PM_CHECK_EQ_INT(info.unmatched_ik_count, 1);
    PM_CHECK_STR(pm_anim_unmatched_bone(c.anim, 0).data, "しっぽ");
    PM_CHECK_STR(pm_anim_unmatched_ik(c.anim, 0).data, "右足ＩＫ");
    PM_CHECK_EQ_INT(pm_anim_unmatched_bone(c.anim, 5).length, 0);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(append_rotation_takes_a_ratio_of_the_source_and_chains) {
    tb_skel t;
    tb_init(&t);
    uint32_t a = tb_bone(&t, "A", 0, 0, 0, PM_NO_INDEX);
    uint32_t b = tb_bone(&t, "B", 0, 1, 0, PM_NO_INDEX);
    uint32_t bt = tb_bone(&t, "Btip", 1, 1, 0, b);
    uint32_t c3 = tb_bone(&t, "C", 0, 2, 0, PM_NO_INDEX);
    tb_append(&t, b, a, 0.5f, PM_BONE_APPEND_ROTATE);
    tb_append(&t, c3, b, 1.0f, PM_BONE_APPEND_ROTATE); /* C follows B's appended rotation */
    pm_vmd *v = new_vmd();
    tb_key(v, "A", 0, 0, 0, 0, rot_y(80), NULL);
    tb_key(v, "B", 0, 0, 0, 0, rot_x(0), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    pm_quat wb = pm_mat4_get_rotation(&c.pose->world[b]), wc = pm_mat4_get_rotation(&c.pose->world[c3]);
    PM_CHECK(qangle(wb, rot_y(40)) < 1e-5);
    PM_CHECK(qangle(wc, rot_y(40)) < 1e-5);
    PM_CHECK(qangle(c.pose->final_rotation[b], rot_y(40)) < 1e-5);
    /* Btip rides on B's appended rotation: (1,0,0) rotated 40 degrees about +Y, from (0,1,0) */
    pm_vec3 tip = pm_pose_world_position(c.pose, bt);
    PM_CHECK_NEAR(tip.x, cos(40 * PM_PI / 180), 1e-5);
    PM_CHECK_NEAR(tip.z, -sin(40 * PM_PI / 180), 1e-5);
    /* switching append off leaves B at rest */
    pm_pose_options no_append = {PM_POSE_NO_APPEND, 0};
    PM_CHECK_OK(pm_pose_evaluate(c.anim, c.ws, 0, c.pose, &no_append, &c.err), &c.err);
    PM_CHECK(qangle(pm_mat4_get_rotation(&c.pose->world[b]), pm_quat_identity()) < 1e-6);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(append_translation_and_negative_ratio) {
    tb_skel t;
    tb_init(&t);
    uint32_t a = tb_bone(&t, "A", 0, 0, 0, PM_NO_INDEX);
    uint32_t b = tb_bone(&t, "B", 5, 0, 0, PM_NO_INDEX);
    tb_append(&t, b, a, -0.5f, PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE);
    pm_vmd *v = new_vmd();
    tb_key(v, "A", 0, 2, 4, 6, rot_y(60), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, b), pm_vec3_make(4, -2, -3)) < 1e-5);
    PM_CHECK(qangle(pm_mat4_get_rotation(&c.pose->world[b]), rot_y(-30)) < 1e-5);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(local_append_uses_the_sources_world_transform) {
    tb_skel t;
    tb_init(&t);
    uint32_t p = tb_bone(&t, "P", 0, 0, 0, PM_NO_INDEX);
    uint32_t a = tb_bone(&t, "A", 0, 3, 0, p);
    uint32_t b = tb_bone(&t, "B", 1, 0, 0, PM_NO_INDEX);
    tb_append(&t, b, a, 1.0f, PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE | PM_BONE_LOCAL_APPEND);
    pm_vmd *v = new_vmd();
    tb_key(v, "P", 0, 1, 0, 0, rot_y(90), NULL); /* A's world rotation comes from its parent */
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    PM_CHECK(qangle(pm_mat4_get_rotation(&c.pose->world[b]), rot_y(90)) < 1e-5);
    /* translation = A's world position minus its rest position = (1, 0, 0) */
    PM_CHECK(vdist(pm_pose_world_position(c.pose, b), pm_vec3_make(2, 0, 0)) < 1e-5);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(transform_order_decides_what_an_append_chain_sees) {
    /* C appends B which appends A. With B in a later layer than C, C is evaluated first and sees B's
     * append state still reset (identity), exactly as babylon-mmd does. */
    for (int late = 0; late < 2; late++) {
        tb_skel t;
        tb_init(&t);
        uint32_t a = tb_bone(&t, "A", 0, 0, 0, PM_NO_INDEX);
        uint32_t b = tb_bone(&t, "B", 0, 1, 0, PM_NO_INDEX);
        uint32_t c3 = tb_bone(&t, "C", 0, 2, 0, PM_NO_INDEX);
        tb_append(&t, b, a, 1.0f, PM_BONE_APPEND_ROTATE);
        tb_append(&t, c3, b, 1.0f, PM_BONE_APPEND_ROTATE);
        if (late) t.bones[b].transform_order = 1;
        pm_vmd *v = new_vmd();
        tb_key(v, "A", 0, 0, 0, 0, rot_y(50), NULL);
        ctx c;
        ctx_open(&c, &t.sk, v);
        ctx_eval(&c, 0);
        double got = qangle(pm_mat4_get_rotation(&c.pose->world[c3]), pm_quat_identity()) * 180 / PM_PI;
        PM_CHECK_NEAR(got, late ? 0 : 50, 1e-3);
        ctx_close(&c);
        pm_vmd_free(v);
    }
}

PM_TEST(after_physics_bones_evaluate_after_the_others) {
    tb_skel t;
    tb_init(&t);
    uint32_t a = tb_bone(&t, "A", 0, 0, 0, PM_NO_INDEX);
    uint32_t b = tb_bone(&t, "B", 0, 1, 0, PM_NO_INDEX);
    uint32_t c3 = tb_bone(&t, "C", 0, 2, 0, PM_NO_INDEX);
    tb_append(&t, b, a, 1.0f, PM_BONE_APPEND_ROTATE);
    tb_append(&t, c3, b, 1.0f, PM_BONE_APPEND_ROTATE);
    t.bones[c3].transform_order = -5; /* earliest layer, but after physics: still after B */
    t.bones[c3].flags |= PM_BONE_AFTER_PHYSICS;
    pm_vmd *v = new_vmd();
    tb_key(v, "A", 0, 0, 0, 0, rot_y(50), NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    PM_CHECK(qangle(pm_mat4_get_rotation(&c.pose->world[c3]), rot_y(50)) < 1e-5);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(fixed_axis_bones_project_their_rotation_onto_the_axis) {
    tb_skel t;
    tb_init(&t);
    uint32_t a = tb_bone(&t, "捩", 0, 0, 0, PM_NO_INDEX);
    t.bones[a].flags |= PM_BONE_FIXED_AXIS;
    t.bones[a].fixed_axis = pm_vec3_make(2, 0, 0); /* normalised inside */
    pm_vmd *v = new_vmd();
    pm_quat q = pm_quat_mul(rot_x(40), rot_y(30));
    tb_key(v, "捩", 0, 0, 0, 0, q, NULL);
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    pm_quat w = pm_mat4_get_rotation(&c.pose->world[a]);
    PM_CHECK(fabs(w.y) < 1e-6 && fabs(w.z) < 1e-6);
    /* the angle is the whole rotation's angle, signed by the axis */
    pm_vec3 axis;
    float angle;
    pm_quat_to_axis_angle(q, &axis, &angle);
    PM_CHECK_NEAR(qangle(w, pm_quat_identity()), angle, 1e-5);
    ctx_close(&c);
    pm_vmd_free(v);
}

/* ---- IK ------------------------------------------------------------------------------------------ */

static pm_vmd *leg_motion(float ikx, float iky, float ikz) {
    pm_vmd *v = new_vmd();
    tb_key(v, "左足ＩＫ", 0, ikx, iky, ikz, pm_quat_identity(), NULL);
    return v;
}

/* babylon-mmd's CCD skips a link when the angle it would turn is below 1e-4 rad (the squared length
 * of the rotation axis below 1e-8), so it stops about 1e-4 * (link distance) short: within 1e-4 on a
 * unit-scale chain, about 1e-3 on a 9-unit MMD leg (pose-oracle.test.mjs shows babylon-mmd stops at the
 * very same points). */
PM_TEST(ik_reaches_a_reachable_target_within_1e4_on_a_unit_chain) {
    tb_skel t;
    tb_init(&t);
    uint32_t root = tb_bone(&t, "root", 0, 0, 0, PM_NO_INDEX);
    uint32_t a = tb_bone(&t, "a", 0, 0.4f, 0, root);
    uint32_t b = tb_bone(&t, "b", 0, 0.2f, 0.04f, a);
    uint32_t e = tb_bone(&t, "e", 0, 0, 0, b);
    uint32_t goal = tb_bone(&t, "goal", 0, 0, 0, root);
    const pm_ik_link links[2] = {tb_link(b), tb_link(a)};
    tb_ik(&t, goal, e, 64, 1.0f, links, 2);
    const float targets[][3] = {{0.13f, 0.07f, 0.07f}, {-0.13f, 0.2f, 0.13f}, {0.07f, 0.4f, -0.2f}, {0.2f, 0.2f, 0.2f}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        pm_vmd *v = new_vmd();
        tb_key(v, "goal", 0, targets[i][0], targets[i][1], targets[i][2], pm_quat_identity(), NULL);
        ctx c;
        ctx_open(&c, &t.sk, v);
        ctx_eval(&c, 0);
        double d = vdist(pm_pose_world_position(c.pose, goal), pm_pose_world_position(c.pose, e));
        PM_CHECK_MSG(d <= 1e-4, "target %zu: end %g from the goal", i, d);
        ctx_close(&c);
        pm_vmd_free(v);
    }
}

PM_TEST(leg_ik_reaches_reachable_targets_with_the_knee_inside_its_limits) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    const float targets[][3] = {{0, 2, -1}, {0.5f, 3, -2}, {-0.3f, 1, 1}, {0.2f, 4, -3}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        pm_vmd *v = leg_motion(targets[i][0], targets[i][1], targets[i][2]);
        ctx c;
        ctx_open(&c, &t.sk, v);
        ctx_eval(&c, 0);
        pm_vec3 goal = pm_pose_world_position(c.pose, r.leg_ik), ankle = pm_pose_world_position(c.pose, r.ankle);
        PM_CHECK_MSG(vdist(goal, ankle) <= 2e-3, "target %zu: ankle %g from the IK bone", i, vdist(goal, ankle));
        PM_CHECK(pm_pose_ik_enabled(c.ws, r.leg_ik));
        /* knee: only X rotation, within -180..-0.5 degrees (bends forward) */
        pm_quat k = c.pose->final_rotation[r.knee];
        float ex, ey, ez;
        pm_quat_to_euler(k, PM_EULER_YXZ, &ey, &ex, &ez);
        PM_CHECK_MSG(fabs(ey) < 1e-4 && fabs(ez) < 1e-4, "knee twists: y %g z %g", ey, ez);
        PM_CHECK_MSG(ex <= -0.5 * PM_PI / 180 + 1e-5, "knee X %g degrees", ex * 180 / PM_PI);
        /* the ankle bends forward: the knee is in front of (-Z of) the hip-ankle line */
        pm_vec3 hip = pm_pose_world_position(c.pose, r.leg), knee = pm_pose_world_position(c.pose, r.knee);
        PM_CHECK(knee.z < 0.5f * (hip.z + ankle.z));
        ctx_close(&c);
        pm_vmd_free(v);
    }
}

PM_TEST(unreachable_ik_targets_stay_finite_and_respect_the_knee_limit) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    const float targets[][3] = {{0, -20, 0}, {30, 0, 0}, {0, 50, 0}, {0, 9.5f, 0}, {0, 0, 40}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        pm_vmd *v = leg_motion(targets[i][0], targets[i][1], targets[i][2]);
        ctx c;
        ctx_open(&c, &t.sk, v);
        ctx_eval(&c, 0);
        for (uint32_t b = 0; b < t.sk.bone_count; b++)
            for (int k = 0; k < 16; k++) PM_CHECK(isfinite(c.pose->world[b].m[k]));
        float ex, ey, ez;
        pm_quat_to_euler(c.pose->final_rotation[r.knee], PM_EULER_YXZ, &ey, &ex, &ez);
        PM_CHECK_MSG(ex <= -0.5 * PM_PI / 180 + 1e-4 && ex >= -PM_PI - 1e-4, "target %zu: knee X %g degrees", i,
                     ex * 180 / PM_PI);
        /* a far target: the leg points at it */
        pm_vec3 goal = pm_pose_world_position(c.pose, r.leg_ik), hip = pm_pose_world_position(c.pose, r.leg);
        pm_vec3 ankle = pm_pose_world_position(c.pose, r.ankle);
        if (vdist(goal, hip) > 15) {
            double cosang = pm_vec3_dot(pm_vec3_normalize(pm_vec3_sub(ankle, hip)), pm_vec3_normalize(pm_vec3_sub(goal, hip)));
            PM_CHECK_MSG(cosang > cos(15 * PM_PI / 180), "target %zu: leg %g degrees off", i, acos(cosang) * 180 / PM_PI);
        }
        ctx_close(&c);
        pm_vmd_free(v);
    }
}

PM_TEST(property_keys_toggle_ik_stepwise_and_overrides_win) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    pm_vmd *v = leg_motion(0, 2, -1);
    pm_error err = {0};
    const char *names[2] = {"左足ＩＫ", "左つま先ＩＫ"};
    const bool off[2] = {false, true}, on[2] = {true, true};
    PM_CHECK_OK(pm_vmd_add_property_key(v, 10, true, 2, names, off, &err), &err);
    PM_CHECK_OK(pm_vmd_add_property_key(v, 20, true, 2, names, on, &err), &err);
    ctx c;
    ctx_open(&c, &t.sk, v);
    pm_vec3 rest_ankle = t.bones[r.ankle].position;
    const double frames[] = {0, 9.9, 10, 15.5, 19.99, 20, 100};
    const int expect_on[] = {0, 0, 0, 0, 0, 1, 1}; /* before the first key: the first key holds */
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        ctx_eval(&c, frames[i]);
        PM_CHECK_EQ_INT(pm_pose_ik_enabled(c.ws, r.leg_ik), expect_on[i]);
        pm_vec3 ankle = pm_pose_world_position(c.pose, r.ankle);
        if (expect_on[i]) PM_CHECK(vdist(ankle, pm_pose_world_position(c.pose, r.leg_ik)) <= 2e-3);
        else PM_CHECK(vdist(ankle, rest_ankle) < 1e-5);
    }
    /* a forced mode beats the property keys */
    PM_CHECK_OK(pm_pose_set_ik_mode(c.ws, r.leg_ik, PM_IK_FORCE_ON, &err), &err);
    ctx_eval(&c, 12);
    PM_CHECK(pm_pose_ik_enabled(c.ws, r.leg_ik));
    PM_CHECK(vdist(pm_pose_world_position(c.pose, r.ankle), pm_pose_world_position(c.pose, r.leg_ik)) <= 2e-3);
    PM_CHECK_OK(pm_pose_set_ik_mode(c.ws, r.leg_ik, PM_IK_FORCE_OFF, &err), &err);
    ctx_eval(&c, 30);
    PM_CHECK(!pm_pose_ik_enabled(c.ws, r.leg_ik));
    PM_CHECK(pm_pose_set_ik_mode(c.ws, r.knee, PM_IK_FORCE_ON, &err) == PM_ERR_INVALID_ARGUMENT);
    /* PM_POSE_NO_IK switches every chain off for one call */
    PM_CHECK_OK(pm_pose_set_ik_mode(c.ws, r.leg_ik, PM_IK_AUTO, &err), &err);
    pm_pose_options no_ik = {PM_POSE_NO_IK, 0};
    PM_CHECK_OK(pm_pose_evaluate(c.anim, c.ws, 30, c.pose, &no_ik, &err), &err);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, r.ankle), rest_ankle) < 1e-5);
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(ik_names_missing_from_a_property_key_repeat_the_previous_key) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    pm_vmd *v = leg_motion(0, 2, -1);
    pm_error err = {0};
    const char *leg[1] = {"左足ＩＫ"}, *toe[1] = {"左つま先ＩＫ"};
    const bool off[1] = {false}, on[1] = {true};
    PM_CHECK_OK(pm_vmd_add_property_key(v, 0, true, 1, toe, on, &err), &err);  /* leg IK absent: off */
    PM_CHECK_OK(pm_vmd_add_property_key(v, 5, true, 1, leg, on, &err), &err);  /* toe repeats on */
    PM_CHECK_OK(pm_vmd_add_property_key(v, 9, true, 1, toe, off, &err), &err); /* leg repeats on */
    ctx c;
    ctx_open(&c, &t.sk, v);
    ctx_eval(&c, 0);
    PM_CHECK(!pm_pose_ik_enabled(c.ws, r.leg_ik) && pm_pose_ik_enabled(c.ws, r.toe_ik));
    ctx_eval(&c, 6);
    PM_CHECK(pm_pose_ik_enabled(c.ws, r.leg_ik) && pm_pose_ik_enabled(c.ws, r.toe_ik));
    ctx_eval(&c, 9);
    PM_CHECK(pm_pose_ik_enabled(c.ws, r.leg_ik) && !pm_pose_ik_enabled(c.ws, r.toe_ik));
    ctx_close(&c);
    pm_vmd_free(v);
}

PM_TEST(evaluate_local_and_update_subtree_follow_caller_changes) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    ctx c;
    ctx_open(&c, &t.sk, NULL);
    PM_CHECK_OK(pm_pose_sample(NULL, c.ws, 0, c.pose, &c.err), &c.err);
    c.pose->rotation[el] = rot_y(90);
    c.pose->translation[sh] = pm_vec3_make(0, 1, 0);
    PM_CHECK_OK(pm_pose_evaluate_local(c.ws, c.pose, NULL, &c.err), &c.err);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, wr), pm_vec3_make(2, 1, -2)) < 1e-5);
    /* change the elbow again and refresh only its subtree */
    c.pose->rotation[el] = rot_y(-90);
    PM_CHECK_OK(pm_pose_update_subtree(c.ws, c.pose, el, NULL, &c.err), &c.err);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, wr), pm_vec3_make(2, 1, 2)) < 1e-5);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, sh), pm_vec3_make(0, 1, 0)) < 1e-6);
    /* a NaN from the caller is refused with the bone named */
    c.pose->rotation[el].x = NAN;
    PM_CHECK(pm_pose_evaluate_local(c.ws, c.pose, NULL, &c.err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(c.err.message, "bone 1") != NULL);
    PM_CHECK(pm_pose_evaluate(NULL, c.ws, NAN, c.pose, NULL, &c.err) == PM_ERR_INVALID_ARGUMENT);
    ctx_close(&c);
}

PM_TEST(solve_ik_runs_one_chain_on_demand) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    pm_vmd *v = leg_motion(0, 2, -1);
    ctx c;
    ctx_open(&c, &t.sk, v);
    pm_pose_options no_ik = {PM_POSE_NO_IK, 0};
    PM_CHECK_OK(pm_pose_evaluate(c.anim, c.ws, 0, c.pose, &no_ik, &c.err), &c.err);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, r.ankle), pm_pose_world_position(c.pose, r.leg_ik)) > 0.5);
    PM_CHECK_OK(pm_pose_solve_ik(c.ws, c.pose, r.leg_ik, NULL, &c.err), &c.err);
    PM_CHECK(vdist(pm_pose_world_position(c.pose, r.ankle), pm_pose_world_position(c.pose, r.leg_ik)) <= 2e-3);
    ctx_close(&c);
    pm_vmd_free(v);
}

static double rnd(unsigned long long *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

PM_TEST(random_motions_and_ik_targets_never_give_nan) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    /* an append bone on the knee and a second chain without limits for variety */
    uint32_t d = tb_bone(&t, "左ひざD", 0.684f, 5.984f, -0.817f, r.leg);
    tb_append(&t, d, r.knee, 1.0f, PM_BONE_APPEND_ROTATE);
    uint32_t ctrl = tb_bone(&t, "ctrl", 0, 0, 0, r.root);
    const pm_ik_link free_links[2] = {tb_link(r.lower), tb_link(r.center)};
    tb_ik(&t, ctrl, r.knee, 20, 0.5f, free_links, 2);
    ctx c;
    ctx_open(&c, &t.sk, NULL);
    unsigned long long s = 0x243F6A8885A308D3ull;
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
        PM_CHECK_OK(pm_pose_sample(NULL, c.ws, 0, c.pose, &c.err), &c.err);
        for (uint32_t b = 0; b < t.sk.bone_count; b++) {
            pm_quat q;
            q.x = (float)(rnd(&s) * 2 - 1), q.y = (float)(rnd(&s) * 2 - 1);
            q.z = (float)(rnd(&s) * 2 - 1), q.w = (float)(rnd(&s) * 2 - 1);
            c.pose->rotation[b] = rnd(&s) < 0.3 ? pm_quat_identity() : q; /* unnormalised on purpose */
        }
        float scale = i % 3 == 0 ? 40.0f : 8.0f;
        pm_vec3 *ik = &c.pose->translation[r.leg_ik], *ct = &c.pose->translation[ctrl];
        ik->x = (float)(rnd(&s) - 0.5) * scale, ik->y = (float)(rnd(&s) - 0.5) * scale;
        ik->z = (float)(rnd(&s) - 0.5) * scale;
        ct->x = (float)(rnd(&s) - 0.5) * scale, ct->y = (float)(rnd(&s) * scale), ct->z = 0;
        if (i % 1000 == 0) c.pose->translation[r.leg_ik] = pm_vec3_make(0, 0, 0); /* on the ankle */
        PM_CHECK_OK(pm_pose_evaluate_local(c.ws, c.pose, NULL, &c.err), &c.err);
        for (uint32_t b = 0; b < t.sk.bone_count; b++) {
            for (int k = 0; k < 16; k++) bad += !isfinite(c.pose->world[b].m[k]);
            pm_quat q = c.pose->final_rotation[b];
            bad += !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w);
        }
    }
    PM_CHECK_EQ_INT(bad, 0);
    ctx_close(&c);
}

/* The CCD shortcuts (path-only updates in the loop, stopping at an exact fixed point) must give the
 * very same bits as babylon-mmd's step-for-step order (PM_POSE_REFERENCE_IK), on a chain with a bone
 * between its links, a knee limit, a twist bone under the chain and an append inside it (which turns
 * the shortcuts off for that chain). */
PM_TEST(ik_shortcuts_give_the_same_bits_as_the_reference_order) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    uint32_t twist = tb_bone(&t, "左足捩", 0.74f, 8.4f, -0.45f, r.leg); /* between 足 and ひざ */
    t.bones[r.knee].parent = twist;
    uint32_t leaf = tb_bone(&t, "左ひざ飾り", 0.7f, 6, -1.2f, r.knee); /* a leaf under the chain... */
    t.bones[leaf].transform_order = -1; /* ...evaluated before the IK, so only the IK's updates move it */
    uint32_t arm = tb_bone(&t, "腕", 2, 15, 0, r.center);
    uint32_t elbow = tb_bone(&t, "ひじ", 4, 13, 0.3f, arm);
    uint32_t elbow_d = tb_bone(&t, "ひじD", 4, 13, 0.3f, arm);
    tb_append(&t, elbow_d, elbow, 0.5f, PM_BONE_APPEND_ROTATE); /* an append inside the arm chain */
    uint32_t wrist = tb_bone(&t, "手首", 5.5f, 11, 0.2f, elbow);
    uint32_t hand_ik = tb_bone(&t, "手ＩＫ", 5.5f, 11, 0.2f, r.root);
    const pm_ik_link arm_links[2] = {tb_link(elbow), tb_link(arm)};
    tb_ik(&t, hand_ik, wrist, 30, 0.8f, arm_links, 2);
    ctx a, b;
    ctx_open(&a, &t.sk, NULL);
    ctx_open(&b, &t.sk, NULL);
    pm_pose_options ref = {PM_POSE_REFERENCE_IK, 0};
    unsigned long long s = 0x0123456789ABCDEFull;
    int differ = 0;
    for (int i = 0; i < 300; i++) {
        PM_CHECK_OK(pm_pose_sample(NULL, a.ws, 0, a.pose, &a.err), &a.err);
        for (uint32_t k = 0; k < t.sk.bone_count; k++) {
            a.pose->rotation[k] = pm_quat_normalize(pm_quat_from_euler((float)(rnd(&s) - 0.5), (float)(rnd(&s) - 0.5),
                                                                       (float)(rnd(&s) - 0.5), PM_EULER_YXZ));
        }
        a.pose->translation[r.leg_ik] = pm_vec3_make((float)(rnd(&s) - 0.5) * 6, (float)(rnd(&s) * 8), (float)(rnd(&s) - 0.5) * 6);
        a.pose->translation[hand_ik] = pm_vec3_make((float)(rnd(&s) - 0.5) * 6, (float)(rnd(&s) - 0.5) * 6, (float)(rnd(&s) - 0.5) * 6);
        PM_CHECK_OK(pm_pose_sample(NULL, b.ws, 0, b.pose, &b.err), &b.err);
        memcpy(b.pose->rotation, a.pose->rotation, t.sk.bone_count * sizeof(pm_quat));
        memcpy(b.pose->translation, a.pose->translation, t.sk.bone_count * sizeof(pm_vec3));
        PM_CHECK_OK(pm_pose_evaluate_local(a.ws, a.pose, NULL, &a.err), &a.err);
        PM_CHECK_OK(pm_pose_evaluate_local(b.ws, b.pose, &ref, &b.err), &b.err);
        differ += memcmp(a.pose->world, b.pose->world, t.sk.bone_count * sizeof(pm_mat4)) != 0;
        differ += memcmp(a.pose->final_rotation, b.pose->final_rotation, t.sk.bone_count * sizeof(pm_quat)) != 0;
    }
    PM_CHECK_EQ_INT(differ, 0);
    ctx_close(&a);
    ctx_close(&b);
}

/* A subset gives its bones the full evaluation's bits; with PM_POSE_KEEP_OTHERS the parents' world
 * matrices come from the caller (here: copied from a full evaluation) and the legs still get the same
 * bits, while a bone outside keeps what the caller put there. Keys share X handles and frames and carry
 * still position channels, so the Bezier memo and the skipped channels are exercised too. */
PM_TEST(subsets_and_kept_parents_give_the_full_evaluations_bits) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    pm_vmd *v = new_vmd();
    const uint8_t ease[4][4] = {{42, 10, 85, 120}, {42, 30, 85, 100}, {16, 5, 111, 127}, {42, 0, 85, 127}};
    const uint8_t other[4][4] = {{42, 60, 85, 70}, {42, 90, 85, 20}, {16, 40, 111, 60}, {42, 127, 85, 0}};
    for (uint32_t f = 0; f <= 12; f += 4) {
        double a = 0.1 * f;
        tb_key(v, "センター", f, 0.1f * f, -0.05f * f, 0, pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), (float)a), ease);
        tb_key(v, "下半身", f, 0, 0, 0, pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), (float)(0.3 * a)), other);
        tb_key(v, "左足ＩＫ", f, 0.2f * (f % 8), 1.5f - 0.1f * f, -1.0f + 0.2f * f, pm_quat_identity(), ease);
        tb_key(v, "左足", f, 0, 0, 0, pm_quat_from_axis_angle(pm_vec3_make(0, 0, 1), (float)(0.2 * a)), other);
    }
    ctx full, part, kept;
    ctx_open(&full, &t.sk, v);
    ctx_open(&part, &t.sk, v);
    ctx_open(&kept, &t.sk, v);
    uint8_t mask[64] = {0}, given[64] = {0}, rest[64] = {0};
    const uint32_t want[2] = {r.ankle, r.toe}, parents[2] = {r.root, r.lower};
    PM_CHECK_OK(pm_pose_subset(&t.sk, want, 2, mask, NULL, &full.err), &full.err);
    PM_CHECK_OK(pm_pose_subset(&t.sk, parents, 2, given, NULL, &full.err), &full.err);
    for (uint32_t b = 0; b < t.sk.bone_count; b++) rest[b] = mask[b] && !given[b];
    PM_CHECK(mask[r.leg_ik] && mask[r.toe_ik] && !rest[r.center] && rest[r.leg] && rest[r.leg_ik]);
    pm_pose_set_subset(part.ws, mask);
    pm_pose_set_subset(kept.ws, rest);
    const pm_pose_options keep = {PM_POSE_KEEP_OTHERS, 0};
    const float marker[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 7, 8, 9, 1};
    for (double f = 0; f <= 13; f += 0.5) {
        ctx_eval(&full, f);
        ctx_eval(&part, f);
        memcpy(kept.pose->world[r.root].m, full.pose->world[r.root].m, sizeof marker);
        memcpy(kept.pose->world[r.lower].m, full.pose->world[r.lower].m, sizeof marker);
        memcpy(kept.pose->world[r.center].m, marker, sizeof marker); /* not read by the rest */
        PM_CHECK_OK(pm_pose_evaluate(kept.anim, kept.ws, f, kept.pose, &keep, &kept.err), &kept.err);
        for (uint32_t b = 0; b < t.sk.bone_count; b++) {
            if (mask[b]) PM_CHECK_MSG(memcmp(part.pose->world[b].m, full.pose->world[b].m, sizeof marker) == 0, "frame %g bone %u (subset)", f, b);
            if (rest[b]) PM_CHECK_MSG(memcmp(kept.pose->world[b].m, full.pose->world[b].m, sizeof marker) == 0, "frame %g bone %u (kept)", f, b);
        }
        PM_CHECK(memcmp(kept.pose->world[r.center].m, marker, sizeof marker) == 0);
    }
    ctx_close(&full);
    ctx_close(&part);
    ctx_close(&kept);
    pm_vmd_free(v);
}

PM_TEST(bad_arguments_fail_with_messages) {
    tb_skel t;
    uint32_t sh, el, wr;
    arm(&t, &sh, &el, &wr);
    pm_error err = {0};
    pm_pose_workspace *ws = NULL;
    t.bones[el].parent = 99;
    PM_CHECK(pm_pose_workspace_create(&t.sk, NULL, &ws, &err) == PM_ERR_INVALID_ARGUMENT && ws == NULL);
    PM_CHECK(strstr(err.message, "parent 99") != NULL);
    t.bones[el].parent = wr; /* a cycle: ひじ -> 手首 -> ひじ */
    PM_CHECK(pm_pose_workspace_create(&t.sk, NULL, &ws, &err) == PM_ERR_INVALID_ARGUMENT);
    t.bones[el].parent = sh;
    tb_skel other;
    arm(&other, &sh, &el, &wr);
    pm_vmd *v = new_vmd();
    pm_anim *anim = NULL;
    PM_CHECK_OK(pm_anim_bind(&other.sk, v, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(&t.sk, NULL, &ws, &err), &err);
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_pose_create(&t.sk, NULL, &pose, &err), &err);
    PM_CHECK(pm_pose_evaluate(anim, ws, 0, pose, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    pose->bone_count = 2;
    PM_CHECK(pm_pose_evaluate(NULL, ws, 0, pose, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    pose->bone_count = 3;
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_anim_free(NULL);
    pm_pose_free(NULL);
    pm_pose_workspace_free(NULL);
    pm_vmd_free(v);
}

PM_TEST(an_ik_chain_broken_at_a_later_link_plans_nothing_and_writes_nothing) {
    /* root - hip - mid - knee - ankle, IK on the ankle with links [hip (mid and knee between), stray]:
     * the second link is no ancestor of the first, so the chain plans no path; the planner used to write
     * the first link's two path entries before finding that (a heap overrun under ASan) */
    pm_bone_desc d[7];
    memset(d, 0, sizeof d);
    const char *names[7] = {"root", "hip", "mid", "knee", "ankle", "stray", "ik"};
    for (int i = 0; i < 7; i++) {
        d[i].name = names[i];
        d[i].parent = i == 0 ? PM_NO_INDEX : i == 5 || i == 6 ? 0 : (uint32_t)(i - 1);
        d[i].append_parent = PM_NO_INDEX;
        d[i].position = pm_vec3_make(0, 10.0f - 2.0f * (float)i, 0);
    }
    pm_ik_link links[2] = {{1, false, {0, 0, 0}, {0, 0, 0}}, {5, false, {0, 0, 0}, {0, 0, 0}}};
    d[6].has_ik = true;
    d[6].ik = (pm_ik){4, 10, 1.0f, 2, links};
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_skeleton_create(d, 7, NULL, 0, NULL, &sk, &err), &err);
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    if (sk) PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    if (ws) PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    if (pose) PM_CHECK_OK(pm_pose_evaluate(NULL, ws, 0, pose, NULL, &err), &err);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_skeleton_free(sk);
}

int main(void) { return pm_test_run_all(); }
