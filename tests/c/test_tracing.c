/* Tracing: trajectories sampled by arc length, the keyframe timeline with per-frame IK on traced
 * segments (effector on the continuous path whatever the keyframe count, following a moving body with
 * no lag), slerp fallback, JSON round trip and validation, and the baked VMD evaluated again. */
#include "pm_test.h"

#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/tracing.h"

static double dist(pm_vec3 a, pm_vec3 b) { return pm_vec3_distance(a, b); }

static double rnd(unsigned long long *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static pm_vec3 sample(pm_trajectory_mode mode, const pm_vec3 *p, uint32_t n, double t) {
    pm_vec3 out = {0, 0, 0};
    pm_error err = {0};
    PM_CHECK_OK(pm_trajectory_sample(mode, p, n, (float)t, &out, &err), &err);
    return out;
}

/* Distance from q to the segment ab. */
static double seg_dist(pm_vec3 q, pm_vec3 a, pm_vec3 b) {
    pm_vec3 ab = pm_vec3_sub(b, a);
    double l2 = pm_vec3_dot(ab, ab), s = l2 > 0 ? pm_vec3_dot(pm_vec3_sub(q, a), ab) / l2 : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    return dist(q, pm_vec3_add(a, pm_vec3_scale(ab, (float)s)));
}

/* Distance from q to the path offset by `origin`, through a dense polyline of the path (the last path's
 * polyline is cached). */
static double path_dist(pm_vec3 q, pm_trajectory_mode mode, const pm_vec3 *p, uint32_t n, pm_vec3 origin) {
    enum { M = 4000 };
    static pm_vec3 dense[M + 1], key[PM_TRAJECTORY_MAX_POINTS];
    static uint32_t key_n;
    static pm_trajectory_mode key_mode;
    if (key_n != n || key_mode != mode || memcmp(key, p, n * sizeof *p) != 0) {
        for (int k = 0; k <= M; k++) dense[k] = sample(mode, p, n, (double)k / M);
        memcpy(key, p, n * sizeof *p);
        key_n = n;
        key_mode = mode;
    }
    double best = 1e30;
    pm_vec3 local = pm_vec3_sub(q, origin);
    for (int k = 1; k <= M; k++) {
        double d = seg_dist(local, dense[k - 1], dense[k]);
        if (d < best) best = d;
    }
    return best;
}

/* ---- trajectories ------------------------------------------------------------------------------ */

static const pm_vec3 ARC[] = {{2, -1, -2}, {3, 0, -2.5f}, {2, 1.5f, -3}, {0.5f, 1, -3.5f}};

PM_TEST(line_is_the_polyline_by_arc_length) {
    const pm_vec3 p[] = {{0, 0, 0}, {3, 0, 0}, {3, 4, 0}};
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_LINE, p, 3, 0.5), pm_vec3_make(3, 0.5f, 0)), 0, 1e-6);
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_LINE, p, 3, 0.3), pm_vec3_make(2.1f, 0, 0)), 0, 1e-6);
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_LINE, p, 3, 1), p[2]), 0, 0);
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_LINE, p, 3, -3), p[0]), 0, 0);
    double len = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_trajectory_length(PM_TRAJECTORY_LINE, p, 3, &len, &err), &err);
    PM_CHECK_NEAR(len, 7, 1e-12);
    /* one point: that point; repeated points are passed over */
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_CURVE, p + 1, 1, 0.7), p[1]), 0, 0);
    const pm_vec3 dup[] = {{0, 0, 0}, {0, 0, 0}, {2, 0, 0}, {2, 0, 0}};
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_LINE, dup, 4, 0.25), pm_vec3_make(0.5f, 0, 0)), 0, 1e-6);
    PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_CURVE, dup, 4, 0.25), pm_vec3_make(0.5f, 0, 0)), 0, 1e-5);
}

PM_TEST(a_two_point_curve_is_the_line) {
    const pm_vec3 p[] = {{1, 2, 3}, {4, -2, 0}};
    for (int k = 0; k <= 10; k++) {
        double t = k / 10.0;
        PM_CHECK_NEAR(dist(sample(PM_TRAJECTORY_CURVE, p, 2, t), sample(PM_TRAJECTORY_LINE, p, 2, t)), 0, 0);
    }
}

PM_TEST(curve_passes_through_every_point_and_leaves_the_polyline) {
    /* through the points: each control point lies on the sampled curve */
    for (uint32_t i = 0; i < 4; i++)
        PM_CHECK_MSG(path_dist(ARC[i], PM_TRAJECTORY_CURVE, ARC, 4, pm_vec3_make(0, 0, 0)) < 1e-4,
                     "point %u is %g off the curve", i, path_dist(ARC[i], PM_TRAJECTORY_CURVE, ARC, 4, pm_vec3_make(0, 0, 0)));
    /* and bends between them: the curve's midpoint is away from the polyline, the line's is on it */
    double off_curve = 0, off_line = 0;
    for (int k = 1; k < 50; k++) {
        pm_vec3 c = sample(PM_TRAJECTORY_CURVE, ARC, 4, k / 50.0), l = sample(PM_TRAJECTORY_LINE, ARC, 4, k / 50.0);
        double dc = 1e30, dl = 1e30;
        for (int s = 0; s < 3; s++) {
            double a = seg_dist(c, ARC[s], ARC[s + 1]), b = seg_dist(l, ARC[s], ARC[s + 1]);
            dc = a < dc ? a : dc;
            dl = b < dl ? b : dl;
        }
        off_curve = dc > off_curve ? dc : off_curve;
        off_line = dl > off_line ? dl : off_line;
    }
    PM_CHECK_MSG(off_curve > 0.1, "the curve stays within %g of the polyline", off_curve);
    PM_CHECK_MSG(off_line < 1e-5, "the line leaves the polyline by %g", off_line);
}

PM_TEST(curve_arc_length_is_exact_on_collinear_uneven_points) {
    /* Catmull-Rom through collinear points is the segment itself, traversed at uneven speed: arc-length
     * sampling must land at exactly t * length. */
    const pm_vec3 p[] = {{0, 0, 0}, {0.2f, 0, 0}, {5, 0, 0}, {5.5f, 0, 0}, {9, 0, 0}};
    double worst = 0;
    for (int k = 0; k <= 1000; k++) {
        double t = k / 1000.0;
        pm_vec3 q = sample(PM_TRAJECTORY_CURVE, p, 5, t);
        double e = fabs(q.x - (double)(float)t * 9) + fabs(q.y) + fabs(q.z);
        worst = e > worst ? e : worst;
    }
    printf("  collinear curve: max |x - 9t| = %.3g\n", worst);
    PM_CHECK_MSG(worst < 2e-6, "arc length error %g on a 9-unit line", worst);
}

PM_TEST(curve_samples_are_evenly_spaced) {
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    double worst = 0;
    for (int trial = 0; trial < 20; trial++) {
        pm_vec3 p[8];
        uint32_t n = 3 + (uint32_t)(rnd(&seed) * 6);
        for (uint32_t i = 0; i < n; i++)
            p[i] = pm_vec3_make((float)(rnd(&seed) * 6 - 3), (float)(rnd(&seed) * 6 - 3), (float)(rnd(&seed) * 6 - 3));
        double len = 0;
        pm_error err = {0};
        PM_CHECK_OK(pm_trajectory_length(PM_TRAJECTORY_CURVE, p, n, &len, &err), &err);
        /* 200 steps of t, each measured as the polyline through 64 sub-samples: a mapping that is not by
         * arc length shows as uneven steps (at sharp bends the sub-chords still cut the corner a little) */
        enum { M = 200, SUB = 64 };
        pm_vec3 prev = sample(PM_TRAJECTORY_CURVE, p, n, 0);
        double sum = 0;
        for (int k = 0; k < M; k++) {
            double d = 0;
            for (int j = 1; j <= SUB; j++) {
                pm_vec3 cur = sample(PM_TRAJECTORY_CURVE, p, n, (k + (double)j / SUB) / M);
                d += dist(prev, cur);
                prev = cur;
            }
            double dev = fabs(d - len / M) / (len / M);
            worst = dev > worst ? dev : worst;
            sum += d;
        }
        PM_CHECK_MSG(fabs(sum - len) < 1e-3 * len, "polyline %g vs arc length %g", sum, len);
    }
    printf("  random curves, 200 steps: max step deviation %.3g of the mean step\n", worst);
    PM_CHECK_MSG(worst < 0.01, "uneven steps: %g", worst);
}

PM_TEST(trajectory_rejects_bad_input_naming_it) {
    const pm_vec3 p[] = {{0, 0, 0}, {NAN, 0, 0}};
    pm_vec3 out;
    pm_error err = {0};
    PM_CHECK(pm_trajectory_sample(PM_TRAJECTORY_LINE, p, 2, 0.5f, &out, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "point 1") != NULL);
    PM_CHECK(pm_trajectory_sample(PM_TRAJECTORY_LINE, p, 1, NAN, &out, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "t is not finite") != NULL);
    PM_CHECK(pm_trajectory_sample((pm_trajectory_mode)7, p, 1, 0, &out, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_trajectory_sample(PM_TRAJECTORY_LINE, p, 0, 0, &out, &err) == PM_ERR_INVALID_ARGUMENT);
    pm_vec3 many[PM_TRAJECTORY_MAX_POINTS + 1] = {{0, 0, 0}};
    PM_CHECK(pm_trajectory_sample(PM_TRAJECTORY_LINE, many, PM_TRAJECTORY_MAX_POINTS + 1, 0, &out, &err) == PM_ERR_LIMIT);
}

/* ---- timeline on the mannequin ----------------------------------------------------------------- */

static pm_skeleton *mannequin(void) {
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &s, &err), &err);
    return s;
}

static pm_timeline *timeline(const pm_skeleton *s) {
    pm_timeline *tl = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_create(s, NULL, &tl, &err), &err);
    return tl;
}

static pm_pose *new_pose(const pm_skeleton *s) {
    pm_pose *pose = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pose_create(s, NULL, &pose, &err), &err);
    return pose;
}

static uint32_t bone(const pm_skeleton *s, const char *name) {
    uint32_t b = pm_skeleton_find(s, name);
    PM_CHECK_MSG(b != PM_NO_INDEX, "no bone %s", name);
    return b;
}

static uint32_t generate(pm_timeline *tl, pm_limb limb, pm_trajectory_mode mode, const pm_vec3 *pts, uint32_t n,
                         uint32_t count, double start, double step) {
    pm_trajectory tr = {mode, n, pts, false, {0, 0, 0}};
    pm_trace_generate g = {limb, &tr, count, start, step, {0, 0, 0, 0}};
    uint32_t id = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_generate(tl, &g, &id, &err), &err);
    return id;
}

/* A keyframe at `beat` with the upper body twisted `twist` radians about Y and the centre lowered. */
static void body_key(pm_timeline *tl, const pm_skeleton *s, double beat, float twist, float squat) {
    uint32_t n = pm_timeline_joint_count(tl);
    pm_quat *rot = calloc(n, sizeof *rot);
    pm_vec3 *trans = calloc(n, sizeof *trans);
    for (uint32_t j = 0; j < n; j++) rot[j] = pm_quat_identity();
    rot[bone(s, "上半身")] = pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), twist);
    rot[bone(s, "上半身2")] = pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), 0.5f * twist);
    trans[bone(s, "センター")] = pm_vec3_make(0.3f * twist, -squat, 0);
    pm_keyframe kf = {0};
    kf.beat = beat;
    kf.rotations = rot;
    kf.translations = trans;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_set_keyframe(tl, &kf, NULL, &err), &err);
    free(rot);
    free(trans);
}

PM_TEST(playback_keeps_the_hand_on_the_continuous_curve_whatever_the_keyframe_count) {
    pm_skeleton *s = mannequin();
    uint32_t shoulder = bone(s, "左腕"), wrist = bone(s, "左手首");
    pm_pose *pose = new_pose(s);
    pm_error err = {0};
    const uint32_t counts[] = {2, 5, 20};
    pm_vec3 at_n[3][41];
    for (int c = 0; c < 3; c++) {
        pm_timeline *tl = timeline(s);
        const uint32_t n = counts[c];
        generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, n, 0, 4.0 / (n - 1));
        PM_CHECK_EQ_INT(pm_timeline_keyframe_count(tl), n);
        double worst = 0;
        for (int k = 0; k <= 40; k++) {
            double seconds = k * 0.05; /* 2 s = 4 beats at 120 BPM */
            PM_CHECK_OK(pm_timeline_evaluate(tl, seconds, pose, &err), &err);
            pm_vec3 w = pm_pose_world_position(pose, wrist);
            double d = path_dist(w, PM_TRAJECTORY_CURVE, ARC, 4, pm_pose_world_position(pose, shoulder));
            worst = d > worst ? d : worst;
            pm_trace_state st;
            pm_timeline_trace_state(tl, PM_LIMB_LEFT_HAND, &st);
            PM_CHECK(st.active && st.id == 1);
            PM_CHECK_MSG(dist(w, st.target) < 1e-4, "N=%u t=%g: wrist %g from its target", n, seconds, dist(w, st.target));
            at_n[c][k] = w;
        }
        printf("  N=%u: wrist at most %.3g off the curve\n", n, worst);
        PM_CHECK_MSG(worst < 1e-3, "N=%u: wrist %g off the curve", n, worst);
        pm_timeline_free(tl);
    }
    /* with linear easing the path parameter is linear in time for every N: the same motion */
    for (int k = 0; k <= 40; k++)
        PM_CHECK_MSG(dist(at_n[0][k], at_n[2][k]) < 1e-4 && dist(at_n[1][k], at_n[2][k]) < 1e-4,
                     "step %d: N=2 and N=20 differ by %g", k, dist(at_n[0][k], at_n[2][k]));
    pm_pose_free(pose);
    pm_skeleton_free(s);
}

PM_TEST(the_path_follows_a_twisting_squatting_body_with_no_frame_of_lag) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    uint32_t shoulder = bone(s, "左腕"), wrist = bone(s, "左手首");
    body_key(tl, s, 0, 0, 0);
    body_key(tl, s, 4, 1.0f, 3.0f);
    /* the trace's keyframes land on the body keyframes (merged) and in between (captured body) */
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 5, 0, 1);
    PM_CHECK_EQ_INT(pm_timeline_keyframe_count(tl), 5);
    pm_pose *pose = new_pose(s);
    pm_error err = {0};
    double worst = 0, worst_lagged = 0, moved = 0;
    pm_vec3 prev_root = {0, 0, 0};
    for (int f = 0; f <= 60; f++) { /* 30 fps frames over 4 beats */
        PM_CHECK_OK(pm_timeline_evaluate(tl, f / 30.0, pose, &err), &err);
        pm_vec3 root = pm_pose_world_position(pose, shoulder), w = pm_pose_world_position(pose, wrist);
        double d = path_dist(w, PM_TRAJECTORY_CURVE, ARC, 4, root);
        worst = d > worst ? d : worst;
        if (f > 0) {
            double lag = path_dist(w, PM_TRAJECTORY_CURVE, ARC, 4, prev_root);
            worst_lagged = lag > worst_lagged ? lag : worst_lagged;
            moved = dist(root, prev_root) > moved ? dist(root, prev_root) : moved;
        }
        prev_root = root;
    }
    printf("  moving body: wrist %.3g off the path around this frame's shoulder; %.3g off the previous frame's "
           "(the shoulder moves up to %.3g per frame)\n",
           worst, worst_lagged, moved);
    PM_CHECK_MSG(worst < 1e-3, "wrist %g off the path", worst);
    PM_CHECK_MSG(moved > 0.05 && worst_lagged > 20 * worst, "the test would not see a one-frame lag");
    /* the shoulder really moved: twist and squat changed its world position */
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 0, pose, &err), &err);
    pm_vec3 r0 = pm_pose_world_position(pose, shoulder);
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 4, pose, &err), &err);
    PM_CHECK(dist(r0, pm_pose_world_position(pose, shoulder)) > 2);
    pm_pose_free(pose);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(line_and_curve_playback_differ_as_the_paths_do) {
    pm_skeleton *s = mannequin();
    uint32_t shoulder = bone(s, "左腕"), wrist = bone(s, "左手首");
    pm_pose *pose = new_pose(s);
    pm_error err = {0};
    double line_off_curve = 0;
    for (int m = 0; m < 2; m++) {
        pm_trajectory_mode mode = m ? PM_TRAJECTORY_CURVE : PM_TRAJECTORY_LINE;
        pm_timeline *tl = timeline(s);
        generate(tl, PM_LIMB_LEFT_HAND, mode, ARC, 4, 4, 0, 1);
        for (int k = 0; k <= 30; k++) {
            PM_CHECK_OK(pm_timeline_evaluate_beat(tl, k * 0.1, pose, &err), &err);
            pm_vec3 root = pm_pose_world_position(pose, shoulder), w = pm_pose_world_position(pose, wrist);
            PM_CHECK(path_dist(w, mode, ARC, 4, root) < 1e-3);
            if (!m) {
                double d = path_dist(w, PM_TRAJECTORY_CURVE, ARC, 4, root);
                line_off_curve = d > line_off_curve ? d : line_off_curve;
            }
        }
        pm_timeline_free(tl);
    }
    PM_CHECK_MSG(line_off_curve > 0.1, "the line mode stays within %g of the curve", line_off_curve);
    /* a 2-point curve plays as the line */
    pm_timeline *a = timeline(s), *b = timeline(s);
    generate(a, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 2, 3, 0, 1);
    generate(b, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_LINE, ARC, 2, 3, 0, 1);
    pm_pose *pose_b = NULL;
    PM_CHECK_OK(pm_pose_create(s, NULL, &pose_b, &err), &err);
    for (int k = 0; k <= 20; k++) {
        PM_CHECK_OK(pm_timeline_evaluate_beat(a, k * 0.1, pose, &err), &err);
        PM_CHECK_OK(pm_timeline_evaluate_beat(b, k * 0.1, pose_b, &err), &err);
        PM_CHECK(dist(pm_pose_world_position(pose, wrist), pm_pose_world_position(pose_b, wrist)) < 1e-6);
    }
    pm_pose_free(pose_b);
    pm_timeline_free(a);
    pm_timeline_free(b);
    pm_pose_free(pose);
    pm_skeleton_free(s);
}

/* slerp of two keyframes' local rotations of `joint` at eased progress e (the timeline's formula up to
 * float rounding) */
static pm_quat kf_slerp(const pm_timeline *tl, uint32_t a, uint32_t b, uint32_t joint, float e) {
    pm_keyframe A, B;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_get_keyframe(tl, a, &A, &err), &err);
    PM_CHECK_OK(pm_timeline_get_keyframe(tl, b, &B, &err), &err);
    return pm_quat_slerp(A.rotations[joint], B.rotations[joint], e);
}

static double quat_diff(pm_quat a, pm_quat b) {
    double d = fabs(pm_quat_dot(a, b));
    return d >= 1 ? 0 : 2 * acos(d);
}

PM_TEST(different_ids_and_hand_made_keyframes_fall_back_to_slerp) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    uint32_t shoulder = bone(s, "左腕"), elbow = bone(s, "左ひじ");
    const pm_vec3 other[] = {{-1, -3, -1}, {1, -3.5f, -1.5f}};
    uint32_t id1 = generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 3, 0, 1);  /* beats 0, 1, 2 */
    uint32_t id2 = generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_LINE, other, 2, 2, 4, 2); /* beats 4, 6 */
    PM_CHECK(id1 == 1 && id2 == 2);
    pm_pose *pose = new_pose(s);
    pm_error err = {0};
    /* beat 3: between keyframe 2 (id 1) and 3 (id 2): plain slerp of the stored rotations */
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 3, pose, &err), &err);
    pm_trace_state st;
    pm_timeline_trace_state(tl, PM_LIMB_LEFT_HAND, &st);
    PM_CHECK(!st.active);
    PM_CHECK(quat_diff(pose->rotation[shoulder], kf_slerp(tl, 2, 3, shoulder, 0.5f)) < 1e-5);
    PM_CHECK(quat_diff(pose->rotation[elbow], kf_slerp(tl, 2, 3, elbow, 0.5f)) < 1e-5);
    /* inside id 2's segment the IK runs */
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 5, pose, &err), &err);
    pm_timeline_trace_state(tl, PM_LIMB_LEFT_HAND, &st);
    PM_CHECK(st.active && st.id == id2 && fabs(st.t - 0.5) < 1e-6);
    /* a keyframe made by hand inside id 2's segment: both halves slerp now */
    uint32_t idx = 0;
    PM_CHECK_OK(pm_timeline_capture_keyframe(tl, 5, pm_easing_from_preset(PM_EASING_LINEAR), &idx, &err), &err);
    PM_CHECK_EQ_INT(idx, 4);
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 5.5, pose, &err), &err);
    pm_timeline_trace_state(tl, PM_LIMB_LEFT_HAND, &st);
    PM_CHECK(!st.active);
    PM_CHECK(quat_diff(pose->rotation[shoulder], kf_slerp(tl, 4, 5, shoulder, 0.5f)) < 1e-5);
    /* the end joint keeps its own slerp inside a traced segment */
    pm_timeline_free(tl);
    tl = timeline(s);
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 2, 0, 2);
    pm_keyframe kf;
    PM_CHECK_OK(pm_timeline_get_keyframe(tl, 1, &kf, &err), &err);
    uint32_t n = pm_timeline_joint_count(tl), wrist = bone(s, "左手首");
    pm_quat *rot = malloc(n * sizeof *rot);
    memcpy(rot, kf.rotations, n * sizeof *rot);
    rot[wrist] = pm_quat_from_axis_angle(pm_vec3_make(0, 0, 1), 1.2f);
    pm_keyframe edited = kf;
    edited.rotations = rot;
    PM_CHECK_OK(pm_timeline_set_keyframe(tl, &edited, NULL, &err), &err);
    free(rot);
    PM_CHECK_OK(pm_timeline_evaluate_beat(tl, 1, pose, &err), &err);
    pm_timeline_trace_state(tl, PM_LIMB_LEFT_HAND, &st);
    PM_CHECK(st.active);
    PM_CHECK(quat_diff(pose->rotation[wrist], pm_quat_from_axis_angle(pm_vec3_make(0, 0, 1), 0.6f)) < 1e-5);
    pm_pose_free(pose);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(a_traced_foot_places_its_leg_ik_bone_on_the_path) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    const pm_vec3 kick[] = {{0, -8, -1}, {0, -6, -4}, {0.5f, -4, -5}};
    uint32_t hip = bone(s, "左足"), ankle = bone(s, "左足首"), ik = bone(s, "左足ＩＫ");
    generate(tl, PM_LIMB_LEFT_FOOT, PM_TRAJECTORY_CURVE, kick, 3, 3, 0, 1);
    pm_pose *pose = new_pose(s);
    pm_error err = {0};
    double worst = 0;
    for (int k = 0; k <= 20; k++) {
        PM_CHECK_OK(pm_timeline_evaluate_beat(tl, k * 0.1, pose, &err), &err);
        pm_vec3 a = pm_pose_world_position(pose, ankle);
        double d = path_dist(a, PM_TRAJECTORY_CURVE, kick, 3, pm_pose_world_position(pose, hip));
        worst = d > worst ? d : worst;
        PM_CHECK_MSG(dist(pm_pose_world_position(pose, ik), a) < 1e-4, "IK bone %g from the ankle",
                     dist(pm_pose_world_position(pose, ik), a));
    }
    PM_CHECK_MSG(worst < 1e-3, "ankle %g off the path", worst);
    /* the generated keyframes hold the IK bone's offset */
    pm_keyframe kf;
    PM_CHECK_OK(pm_timeline_get_keyframe(tl, 2, &kf, &err), &err);
    PM_CHECK(pm_vec3_length(kf.translations[ik]) > 1);
    pm_pose_free(pose);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(generation_and_limbs_reject_bad_input) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    pm_error err = {0};
    pm_trajectory tr = {PM_TRAJECTORY_CURVE, 4, ARC, false, {0, 0, 0}};
    pm_trace_generate g = {PM_LIMB_LEFT_HAND, &tr, 1, 0, 1, {0, 0, 0, 0}};
    PM_CHECK(pm_timeline_generate(tl, &g, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "count 1") != NULL);
    g.count = 21;
    PM_CHECK(pm_timeline_generate(tl, &g, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    g.count = 3;
    g.trajectory = NULL; /* no draft yet */
    PM_CHECK(pm_timeline_generate(tl, &g, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "leftHand has no trajectory") != NULL);
    PM_CHECK_OK(pm_timeline_set_trajectory(tl, PM_LIMB_LEFT_HAND, &tr, &err), &err);
    uint32_t id = 0;
    PM_CHECK_OK(pm_timeline_generate(tl, &g, &id, &err), &err);
    PM_CHECK_EQ_INT(id, 1);
    PM_CHECK_EQ_INT(pm_timeline_next_trace_id(tl), 2);
    g.start_beat = NAN;
    PM_CHECK(pm_timeline_generate(tl, &g, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_timeline_set_bpm(tl, 0.5, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(pm_timeline_evaluate(tl, INFINITY, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    pm_timeline_free(tl);
    /* a skeleton without arms: the hand names the missing bone */
    pm_bone_desc d[2] = {{.name = "センター", .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
                         {.name = "左腕", .parent = 0, .append_parent = PM_NO_INDEX}};
    pm_skeleton *bare = NULL;
    PM_CHECK_OK(pm_skeleton_create(d, 2, NULL, 0, NULL, &bare, &err), &err);
    tl = timeline(bare);
    PM_CHECK(pm_timeline_generate(tl, &(pm_trace_generate){PM_LIMB_LEFT_HAND, &tr, 3, 0, 1, {0, 0, 0, 0}}, NULL, &err) ==
             PM_ERR_NOT_FOUND);
    PM_CHECK(strstr(err.message, "左ひじ") != NULL);
    /* but it plays (rest pose) and bakes an empty motion */
    pm_vmd *vmd = NULL;
    PM_CHECK_OK(pm_timeline_bake(tl, NULL, &vmd, &err), &err);
    PM_CHECK_EQ_INT(vmd->bones.count, 0);
    pm_vmd_free(vmd);
    pm_timeline_free(tl);
    pm_skeleton_free(bare);
    pm_skeleton_free(s);
}

/* ---- JSON -------------------------------------------------------------------------------------- */

static char *to_json(const pm_timeline *tl) {
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_to_json(tl, NULL, 0, &n, &err), &err);
    char *text = malloc(n + 1);
    PM_CHECK_OK(pm_timeline_to_json(tl, text, n + 1, &n, &err), &err);
    return text;
}

PM_TEST(timeline_round_trips_through_json) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    body_key(tl, s, 0, 0, 0);
    body_key(tl, s, 4, 0.7f, 1.0f);
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 5, 0, 1);
    const pm_vec3 kick[] = {{0, -8, -1}, {0, -6, -4}};
    generate(tl, PM_LIMB_RIGHT_FOOT, PM_TRAJECTORY_LINE, kick, 2, 2, 1, 2);
    pm_trajectory draft = {PM_TRAJECTORY_CURVE, 3, ARC, true, {0, -2, 1}};
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_set_trajectory(tl, PM_LIMB_RIGHT_HAND, &draft, &err), &err);
    char *a = to_json(tl);
    pm_timeline *back = NULL;
    PM_CHECK_OK(pm_timeline_from_json(a, strlen(a), s, NULL, &back, &err), &err);
    char *b = back ? to_json(back) : NULL;
    PM_CHECK_STR(a, b);
    PM_CHECK(strstr(a, "\"nextTraceId\":3") != NULL);
    PM_CHECK(strstr(a, "\"mode\":\"curve\"") != NULL);
    /* the same motion */
    pm_pose *p1 = NULL, *p2 = NULL;
    PM_CHECK_OK(pm_pose_create(s, NULL, &p1, &err), &err);
    PM_CHECK_OK(pm_pose_create(s, NULL, &p2, &err), &err);
    for (int k = 0; k <= 16; k++) {
        PM_CHECK_OK(pm_timeline_evaluate_beat(tl, k * 0.25, p1, &err), &err);
        PM_CHECK_OK(pm_timeline_evaluate_beat(back, k * 0.25, p2, &err), &err);
        for (uint32_t i = 0; i < s->bone_count; i++)
            PM_CHECK(dist(pm_pose_world_position(p1, i), pm_pose_world_position(p2, i)) < 1e-5);
    }
    /* names the skeleton lacks survive (kept and written back) */
    const char *extra = "{\"keyframes\":[{\"beat\":0,\"rotations\":{\"しっぽ\":[0,0,0.6,0.8]}}]}";
    pm_timeline *x = NULL;
    PM_CHECK_OK(pm_timeline_from_json(extra, strlen(extra), s, NULL, &x, &err), &err);
    PM_CHECK_EQ_INT(pm_timeline_joint_count(x), s->bone_count + 1);
    char *xj = to_json(x);
    PM_CHECK(strstr(xj, "\"しっぽ\":[0,0,0.6,0.8]") != NULL);
    free(xj);
    pm_timeline_free(x);
    pm_pose_free(p1);
    pm_pose_free(p2);
    free(a);
    free(b);
    pm_timeline_free(back);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(bad_json_is_rejected_naming_the_field) {
    pm_skeleton *s = mannequin();
    static const struct {
        const char *json, *field;
    } cases[] = {
        {"[1,2]", "the JSON must be an object, got an array of 2"},
        {"{\"keyframes\":{}}", "keyframes must be an array, got an object"},
        {"{\"keyframes\":[],\"bpm\":0}", "bpm must be a number in [1, 1000], got 0"},
        {"{\"keyframes\":[],\"format\":\"x\"}", "format must be \"procmotion-timeline\", got \"x\""},
        {"{\"keyframes\":[],\"extra\":1}", "extra is not a field here (fields: "},
        {"{\"keyframes\":[{}]}", "keyframes[0].beat must be a number in [0, 100000], got nothing"},
        {"{\"keyframes\":[{\"beat\":-1}]}", "keyframes[0].beat"},
        {"{\"keyframes\":[{\"beat\":0},{\"beat\":0}]}", "keyframes[1].beat must be a beat no other keyframe has, got 0"},
        {"{\"keyframes\":[{\"beat\":0,\"easing\":\"bouncy\"}]}", "keyframes[0].easing must be \"linear\", \"ease-in\", \"ease-out\", \"ease-in-out\" or [x1, y1, x2, y2] in [0, 127], got \"bouncy\""},
        {"{\"keyframes\":[{\"beat\":0,\"easing\":[0,0,0,128]}]}", "keyframes[0].easing"},
        {"{\"keyframes\":[{\"beat\":0,\"rotations\":{\"左腕\":[0,0,1]}}]}", "keyframes[0].rotations.左腕 must be an array of 4 numbers in [-1e+06, 1e+06], got an array of 3"},
        {"{\"keyframes\":[{\"beat\":0,\"rotations\":{\"左腕\":[0,0,0,0]}}]}", "keyframes[0].rotations.左腕 must be a rotation (a quaternion that is not zero)"},
        {"{\"keyframes\":[{\"beat\":0,\"translations\":{\"センター\":[0,\"a\",0]}}]}", "keyframes[0].translations.センター"},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftElbow\":{}}}]}", "keyframes[0].traces.leftElbow is not a field here (fields: leftHand, rightHand, leftFoot, rightFoot)"},
        {"{\"keyframes\":[{\"beat\":0},{\"beat\":1,\"traces\":{\"leftHand\":{\"id\":1,\"mode\":\"spline\",\"points\":[[0,0,0]],"
         "\"pole\":[0,0,0],\"t\":0}}}]}",
         "keyframes[1].traces.leftHand.mode must be \"line\" or \"curve\", got \"spline\""},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftHand\":{\"id\":1,\"mode\":\"line\",\"points\":[],\"pole\":[0,0,0],"
         "\"t\":0}}}]}",
         "keyframes[0].traces.leftHand.points must be an array of 1 to 64 points, got an array of 0"},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftHand\":{\"id\":1,\"mode\":\"line\",\"points\":[[0,0,0],[1,1]],"
         "\"pole\":[0,0,0],\"t\":0}}}]}",
         "keyframes[0].traces.leftHand.points[1]"},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftHand\":{\"id\":1,\"mode\":\"line\",\"points\":[[0,0,0]],"
         "\"pole\":[0,0,0],\"t\":1.5}}}]}",
         "keyframes[0].traces.leftHand.t must be a number in [0, 1], got 1.5"},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftHand\":{\"id\":0.5,\"mode\":\"line\",\"points\":[[0,0,0]],"
         "\"pole\":[0,0,0],\"t\":0}}}]}",
         "keyframes[0].traces.leftHand.id"},
        {"{\"keyframes\":[{\"beat\":0,\"traces\":{\"leftHand\":{\"id\":1,\"mode\":\"line\",\"points\":[[0,0,0]],"
         "\"t\":0}}}]}",
         "keyframes[0].traces.leftHand.pole"},
        {"{\"keyframes\":[],\"trajectories\":{\"rightFoot\":{\"mode\":\"curve\",\"points\":[[0,0,1e999]]}}}",
         "trajectories.rightFoot.points[0]"},
        {"{\"keyframes\":[", "not valid JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pm_timeline *tl = NULL;
        pm_error err = {0};
        pm_result r = pm_timeline_from_json(cases[i].json, strlen(cases[i].json), s, NULL, &tl, &err);
        PM_CHECK_MSG(r == PM_ERR_BAD_FORMAT && tl == NULL, "case %zu accepted (%d)", i, (int)r);
        PM_CHECK_MSG(strstr(err.message, cases[i].field) != NULL, "case %zu: \"%s\" does not name \"%s\"", i, err.message,
                     cases[i].field);
        pm_timeline_free(tl);
    }
    /* one keyframe at a time: unknown bone names are errors there */
    pm_timeline *tl = timeline(s);
    pm_error err = {0};
    const char *bad = "{\"beat\":1,\"rotations\":{\"nope\":[0,0,0,1]}}";
    PM_CHECK(pm_timeline_set_keyframe_json(tl, bad, strlen(bad), NULL, &err) == PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "keyframe.rotations.nope names no bone or joint") != NULL);
    const char *good = "{\"beat\":1,\"easing\":\"ease-in-out\",\"rotations\":{\"左腕\":[0,0,0.6,0.8]}}";
    uint32_t idx = 9;
    PM_CHECK_OK(pm_timeline_set_keyframe_json(tl, good, strlen(good), &idx, &err), &err);
    PM_CHECK_EQ_INT(idx, 0);
    char buf[512];
    size_t n = 0;
    PM_CHECK_OK(pm_timeline_keyframe_to_json(tl, 0, buf, sizeof buf, &n, &err), &err);
    PM_CHECK_STR(buf, "{\"beat\":1,\"easing\":\"ease-in-out\",\"rotations\":{\"左腕\":[0,0,0.6,0.8]},\"translations\":{}}");
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(mutated_json_never_crashes) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 3, 0, 1);
    char *text = to_json(tl);
    pm_timeline_free(tl);
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    unsigned long long seed = 42;
    int accepted = 0;
    static const char junk[] = "{}[],:\"0123456789-.eE ntfx";
    for (int trial = 0; trial < 3000; trial++) {
        memcpy(copy, text, n + 1);
        for (int k = 0; k < 1 + trial % 4; k++) copy[(size_t)(rnd(&seed) * n)] = junk[(size_t)(rnd(&seed) * (sizeof junk - 1))];
        size_t cut = trial % 7 == 0 ? (size_t)(rnd(&seed) * n) : n;
        pm_timeline *x = NULL;
        pm_error err = {0};
        pm_result r = pm_timeline_from_json(copy, cut, s, NULL, &x, &err);
        PM_CHECK((r == PM_OK) == (x != NULL));
        PM_CHECK(r == PM_OK || err.message[0]);
        if (x) {
            accepted++;
            pm_pose *pose = new_pose(s);
            pm_error e2 = {0};
            for (int k = 0; k < 5; k++) pm_timeline_evaluate_beat(x, k * 0.5, pose, &e2); /* may fail, must not crash */
            pm_pose_free(pose);
        }
        pm_timeline_free(x);
    }
    printf("  3000 mutated timelines: %d still valid, none crashed\n", accepted);
    free(copy);
    free(text);
    pm_skeleton_free(s);
}

/* ---- baking ------------------------------------------------------------------------------------ */

static uint32_t keys_of(const pm_vmd *vmd, const char *name) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < vmd->bones.count; i++)
        if (strcmp(vmd->bone_names.items[vmd->bones.name_index[i]].data, name) == 0) count++;
    return count;
}

/* Bake `tl` and evaluate the motion on `s` at every frame of the traced span [f0, f1]: the limb's end
 * joint against the timeline's target and the path around the root. Returns the worst distance. */
static double check_baked(pm_timeline *tl, const pm_skeleton *s, pm_limb limb, const pm_vec3 *path, uint32_t n,
                          pm_trajectory_mode mode, uint32_t f0, uint32_t f1, pm_vmd **keep, double *vs_timeline) {
    pm_vmd *vmd = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_bake(tl, NULL, &vmd, &err), &err);
    if (!vmd) return 1e30;
    /* through the writer and reader, as a file */
    size_t size = 0;
    PM_CHECK_OK(pm_vmd_write(vmd, NULL, 0, &size, &err), &err);
    uint8_t *bytes = malloc(size);
    PM_CHECK_OK(pm_vmd_write(vmd, bytes, size, &size, &err), &err);
    pm_vmd *read = NULL;
    PM_CHECK_OK(pm_vmd_read(bytes, size, NULL, &read, &err), &err);
    free(bytes);
    uint32_t bones[3];
    PM_CHECK_OK(pm_limb_bones(s, limb, bones, &err), &err);
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL, *ref = NULL;
    PM_CHECK_OK(pm_anim_bind(s, read, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(s, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(s, NULL, &pose, &err), &err);
    PM_CHECK_OK(pm_pose_create(s, NULL, &ref, &err), &err);
    double worst = 0;
    if (vs_timeline) *vs_timeline = 0;
    for (uint32_t f = f0; f <= f1; f++) {
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, f, pose, NULL, &err), &err);
        PM_CHECK_OK(pm_timeline_evaluate(tl, f / 30.0, ref, &err), &err);
        pm_trace_state st;
        pm_timeline_trace_state(tl, limb, &st);
        pm_vec3 end = pm_pose_world_position(pose, bones[2]);
        double d = path_dist(end, mode, path, n, pm_pose_world_position(pose, bones[0]));
        double d2 = dist(end, st.target);
        worst = d > worst ? d : worst;
        if (vs_timeline && d2 > *vs_timeline) *vs_timeline = d2;
    }
    pm_pose_free(pose);
    pm_pose_free(ref);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(read);
    if (keep) *keep = vmd;
    else pm_vmd_free(vmd);
    return worst;
}

PM_TEST(baked_vmd_keeps_the_hand_on_the_path_with_per_frame_keys_only_where_traced) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    body_key(tl, s, 0, 0, 0);
    body_key(tl, s, 2, 0.5f, 1.0f);
    body_key(tl, s, 4, 0.5f, 1.0f); /* a held pose: its keys are redundant */
    body_key(tl, s, 8, 1.0f, 2.0f);
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, ARC, 4, 3, 1, 1.5); /* beats 1, 2.5, 4 = frames 15..60 */
    pm_vmd *vmd = NULL;
    double vs = 0;
    double worst = check_baked(tl, s, PM_LIMB_LEFT_HAND, ARC, 4, PM_TRAJECTORY_CURVE, 15, 60, &vmd, &vs);
    printf("  baked on the mannequin: wrist at most %.3g off the path, %.3g from the timeline's target\n", worst, vs);
    PM_CHECK_MSG(worst < 1e-3 && vs < 1e-3, "baked wrist %g off the path, %g off the timeline", worst, vs);
    if (vmd) {
        /* per-frame keys on 左腕 and 左ひじ over frames 15..60, plus their keyframe keys outside */
        PM_CHECK_EQ_INT(keys_of(vmd, "左腕"), 46 + 2);
        PM_CHECK_EQ_INT(keys_of(vmd, "左ひじ"), 46 + 2);
        /* minimal keys: the wrist and the other arm only rest; the twist is keyed at beats 0, 1, 2, 4, 8 (2.5
         * repeats both neighbours) */
        PM_CHECK_EQ_INT(keys_of(vmd, "左手首"), 0);
        PM_CHECK_EQ_INT(keys_of(vmd, "右腕"), 0);
        PM_CHECK_EQ_INT(keys_of(vmd, "上半身"), 5);
        PM_CHECK_EQ_INT(vmd->properties.count, 0);
        pm_vmd_free(vmd);
    }
    /* a bpm that puts keyframes between frames still keeps the hand on the path */
    pm_error err = {0};
    PM_CHECK_OK(pm_timeline_set_bpm(tl, 128, &err), &err);
    /* (the timeline itself then differs a little: its other joints' keyframes sit between frames) */
    worst = check_baked(tl, s, PM_LIMB_LEFT_HAND, ARC, 4, PM_TRAJECTORY_CURVE, 15, 56, NULL, &vs);
    printf("  at 128 BPM: wrist %.3g off the path around the baked shoulder, %.3g from the timeline's target\n", worst, vs);
    PM_CHECK(worst < 1e-3 && vs < 0.05);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(baked_traced_foot_keys_the_leg_ik_bone) {
    pm_skeleton *s = mannequin();
    pm_timeline *tl = timeline(s);
    const pm_vec3 kick[] = {{0, -8, -1}, {0, -6, -4}, {0.5f, -4, -5}};
    generate(tl, PM_LIMB_LEFT_FOOT, PM_TRAJECTORY_CURVE, kick, 3, 4, 0, 1);
    pm_vmd *vmd = NULL;
    double vs = 0, worst = check_baked(tl, s, PM_LIMB_LEFT_FOOT, kick, 3, PM_TRAJECTORY_CURVE, 0, 45, &vmd, &vs);
    printf("  baked foot on the mannequin (leg IK on, IK bone keyed): ankle %.3g off the path\n", worst);
    PM_CHECK(worst < 1e-3 && vs < 1e-3);
    if (vmd) {
        PM_CHECK_EQ_INT(keys_of(vmd, "左足ＩＫ"), 46);
        PM_CHECK_EQ_INT(keys_of(vmd, "左足"), 46);
        PM_CHECK_EQ_INT(vmd->properties.count, 0); /* leg IK stays on */
        pm_vmd_free(vmd);
    }
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

PM_TEST(baked_traces_on_the_yw_fixture_keep_wrist_and_ankle_on_their_paths) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("pmx/yw_test_model/yw_test_model.pmx", &size);
    if (!data) return;
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_model_read(data, size, NULL, &s, &err), &err);
    free(data);
    if (!s) return;
    pm_timeline *tl = timeline(s);
    body_key(tl, s, 0, 0, 0);
    body_key(tl, s, 4, 0.6f, 1.5f);
    const pm_vec3 hand[] = {{1.5f, -1, -2}, {2.5f, 0, -2}, {1.5f, 1.2f, -2.5f}, {0.3f, 0.8f, -3}};
    const pm_vec3 foot[] = {{0, -7.5f, -1}, {0, -6, -3}, {0.3f, -4.5f, -4}};
    generate(tl, PM_LIMB_LEFT_HAND, PM_TRAJECTORY_CURVE, hand, 4, 5, 0, 1);
    generate(tl, PM_LIMB_RIGHT_FOOT, PM_TRAJECTORY_CURVE, foot, 3, 3, 0, 2);
    double vs1 = 0, vs2 = 0;
    double wrist = check_baked(tl, s, PM_LIMB_LEFT_HAND, hand, 4, PM_TRAJECTORY_CURVE, 0, 60, NULL, &vs1);
    double ankle = check_baked(tl, s, PM_LIMB_RIGHT_FOOT, foot, 3, PM_TRAJECTORY_CURVE, 0, 60, NULL, &vs2);
    printf("  yw_test_model: wrist %.3g, ankle %.3g off their paths (%.3g, %.3g from the timeline)\n", wrist, ankle, vs1,
           vs2);
    PM_CHECK(wrist < 1e-3 && ankle < 1e-3 && vs1 < 1e-3 && vs2 < 1e-3);
    pm_timeline_free(tl);
    pm_skeleton_free(s);
}

int main(void) { return pm_test_run_all(); }
