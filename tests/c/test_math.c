/* Vectors, quaternions, Euler orders, matrices and the MMD Bezier curve. */
#include "pm_test.h"

#include "procmotion/math.h"

static unsigned long long rng = 0x2545F4914F6CDD1Dull;
static float frand(float lo, float hi) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (float)((rng >> 11) * (1.0 / 9007199254740992.0));
}

static pm_quat random_quat(void) {
    pm_quat q = {frand(-1, 1), frand(-1, 1), frand(-1, 1), frand(-1, 1)};
    return pm_quat_normalize(q);
}

static double quat_angle_between(pm_quat a, pm_quat b) {
    double d = fabs((double)pm_quat_dot(a, b));
    if (d > 1) d = 1;
    return 2 * acos(d);
}

PM_TEST(quaternion_multiply_rotates_b_then_a) {
    pm_quat a = pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), (float)(PM_PI / 2));
    pm_quat b = pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), (float)(PM_PI / 2));
    pm_vec3 v = pm_vec3_make(0, 0, 1);
    pm_vec3 ab = pm_quat_rotate(pm_quat_mul(a, b), v);
    pm_vec3 seq = pm_quat_rotate(a, pm_quat_rotate(b, v));
    PM_CHECK_NEAR(ab.x, seq.x, 1e-6);
    PM_CHECK_NEAR(ab.y, seq.y, 1e-6);
    PM_CHECK_NEAR(ab.z, seq.z, 1e-6);
    /* b takes +Z to -Y, then a (about Y) leaves -Y alone */
    PM_CHECK_NEAR(seq.y, -1, 1e-6);
}

PM_TEST(slerp_takes_the_shortest_path_and_hits_endpoints) {
    for (int i = 0; i < 1000; i++) {
        pm_quat a = random_quat(), b = random_quat();
        pm_quat s0 = pm_quat_slerp(a, b, 0), s1 = pm_quat_slerp(a, b, 1), h = pm_quat_slerp(a, b, 0.5f);
        PM_CHECK(quat_angle_between(s0, a) < 1e-3);
        PM_CHECK(quat_angle_between(s1, b) < 1e-3);
        /* the midpoint is equally far from both ends, at most 90 degrees (shortest path) */
        double da = quat_angle_between(h, a), db = quat_angle_between(h, b);
        PM_CHECK_NEAR(da, db, 2e-3);
        PM_CHECK(da <= PM_PI / 2 + 1e-3);
    }
    pm_quat q = pm_quat_from_axis_angle(pm_vec3_make(0, 0, 1), 1.0f);
    pm_quat neg = {-q.x, -q.y, -q.z, -q.w};
    PM_CHECK(quat_angle_between(pm_quat_slerp(q, neg, 0.5f), q) < 1e-3);
}

PM_TEST(euler_round_trips_in_every_order) {
    for (int order = 0; order < PM_EULER_ORDER_COUNT; order++) {
        for (int i = 0; i < 2000; i++) {
            float a = frand(-3.1f, 3.1f), b = frand(-1.5f, 1.5f), c = frand(-3.1f, 3.1f);
            pm_quat q = pm_quat_from_euler(a, b, c, (pm_euler_order)order);
            float x, y, z;
            pm_quat_to_euler(q, (pm_euler_order)order, &x, &y, &z);
            pm_quat back = pm_quat_from_euler(x, y, z, (pm_euler_order)order);
            PM_CHECK_MSG(quat_angle_between(q, back) < 1e-3, "order %d: %g %g %g -> %g %g %g", order, a, b, c, x, y, z);
        }
    }
    /* XYZ means Rx * Ry * Rz applied to column vectors: Z first */
    pm_quat q = pm_quat_from_euler(0.3f, 0.2f, 0.1f, PM_EULER_XYZ);
    pm_quat m = pm_quat_mul(pm_quat_mul(pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), 0.3f),
                                        pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), 0.2f)),
                            pm_quat_from_axis_angle(pm_vec3_make(0, 0, 1), 0.1f));
    PM_CHECK(quat_angle_between(q, m) < 1e-6);
}

PM_TEST(euler_gimbal_lock_stays_finite_and_equivalent) {
    for (int order = 0; order < PM_EULER_ORDER_COUNT; order++) {
        pm_quat q = pm_quat_from_euler(0.7f, (float)(PM_PI / 2), -0.4f, (pm_euler_order)order);
        float x, y, z;
        pm_quat_to_euler(q, (pm_euler_order)order, &x, &y, &z);
        PM_CHECK(isfinite(x) && isfinite(y) && isfinite(z));
        PM_CHECK(quat_angle_between(q, pm_quat_from_euler(x, y, z, (pm_euler_order)order)) < 2e-3);
    }
}

PM_TEST(matrices_compose_invert_and_decompose) {
    for (int i = 0; i < 500; i++) {
        pm_quat r = random_quat();
        pm_vec3 t = pm_vec3_make(frand(-10, 10), frand(-10, 10), frand(-10, 10));
        pm_mat4 m = pm_mat4_from_rotation_translation(r, t);
        pm_mat4 inv = pm_mat4_inverse_affine(&m);
        pm_mat4 id = pm_mat4_mul(&m, &inv);
        for (int k = 0; k < 16; k++) PM_CHECK_NEAR(id.m[k], (k % 5 == 0) ? 1 : 0, 1e-4);
        PM_CHECK(quat_angle_between(pm_mat4_get_rotation(&m), r) < 1e-3);
        pm_vec3 p = pm_vec3_make(1, 2, 3);
        pm_vec3 a = pm_mat4_transform_point(&m, p), b = pm_vec3_add(pm_quat_rotate(r, p), t);
        PM_CHECK_NEAR(pm_vec3_distance(a, b), 0, 1e-4);
    }
    pm_mat4 zero = {{0}};
    pm_mat4 inv = pm_mat4_inverse_affine(&zero);
    PM_CHECK_EQ_INT(inv.m[0], 1); /* singular -> identity, never NaN */
}

PM_TEST(degenerate_input_stays_finite) {
    pm_quat nanq = {NAN, 0, 0, 1};
    pm_quat n = pm_quat_normalize(nanq);
    PM_CHECK(n.w == 1 && n.x == 0);
    pm_quat z = {0, 0, 0, 0};
    PM_CHECK_EQ_INT(pm_quat_normalize(z).w, 1);
    pm_vec3 v = pm_vec3_normalize(pm_vec3_make(0, 0, 0));
    PM_CHECK(v.x == 0 && v.y == 0 && v.z == 0);
    pm_quat ft = pm_quat_from_to(pm_vec3_make(0, 1, 0), pm_vec3_make(0, -1, 0));
    pm_vec3 r = pm_quat_rotate(ft, pm_vec3_make(0, 1, 0));
    PM_CHECK_NEAR(r.y, -1, 1e-5);
    PM_CHECK_EQ_INT(pm_quat_from_axis_angle(pm_vec3_make(0, 0, 0), 1).w, 1);
}

/* Reference: the curve evaluated by dense sampling of the parameter, then linear inversion. */
static double bezier_reference(double x1, double y1, double x2, double y2, double x) {
    double best = 0, bestd = 1e9;
    for (int i = 0; i <= 200000; i++) {
        double s = i / 200000.0, r = 1 - s;
        double bx = 3 * r * r * s * x1 + 3 * r * s * s * x2 + s * s * s;
        if (fabs(bx - x) < bestd) {
            bestd = fabs(bx - x);
            best = 3 * r * r * s * y1 + 3 * r * s * s * y2 + s * s * s;
        }
    }
    return best;
}

PM_TEST(bezier_is_accurate_to_1e5) {
    const uint8_t curves[][4] = {{20, 20, 107, 107}, {64, 0, 64, 127}, {127, 0, 0, 127}, {0, 127, 127, 0},
                                 {10, 90, 30, 120}, {127, 127, 127, 127}, {0, 0, 0, 0}};
    double worst = 0;
    for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++)
        for (int i = 0; i <= 20; i++) {
            double x = i / 20.0;
            double ref = bezier_reference(curves[c][0] / 127.0, curves[c][1] / 127.0, curves[c][2] / 127.0,
                                          curves[c][3] / 127.0, x);
            double got = pm_bezier_eval(curves[c][0], curves[c][1], curves[c][2], curves[c][3], (float)x);
            double e = fabs(got - ref);
            if (e > worst) worst = e;
            PM_CHECK_MSG(e < 1e-4, "curve %zu at x=%g: %g vs %g", c, x, got, ref);
        }
    printf("  worst Bezier error against a 200k-sample reference: %.2e\n", worst);
    /* linear curves return x exactly, out-of-range x clamps, NaN gives 0 */
    PM_CHECK_EQ_INT(pm_bezier_eval(20, 20, 107, 107, 0.375f) == 0.375f, 1);
    PM_CHECK_EQ_INT(pm_bezier_eval(64, 0, 64, 127, -1.0f) == 0.0f, 1);
    PM_CHECK_EQ_INT(pm_bezier_eval(64, 0, 64, 127, 2.0f) == 1.0f, 1);
    PM_CHECK_EQ_INT(pm_bezier_eval(64, 0, 64, 127, NAN) == 0.0f, 1);
}

PM_TEST(bezier_newton_solution_matches_exact_inverse_to_1e5) {
    /* the exact inverse: solve X(s) = x to machine precision by bisection, compare Y */
    for (int i = 0; i < 5000; i++) {
        uint8_t x1 = (uint8_t)frand(0, 127.99f), y1 = (uint8_t)frand(0, 127.99f), x2 = (uint8_t)frand(0, 127.99f),
                y2 = (uint8_t)frand(0, 127.99f);
        double x = frand(0, 1);
        double lo = 0, hi = 1;
        for (int k = 0; k < 200; k++) {
            double s = (lo + hi) / 2, r = 1 - s;
            double bx = 3 * r * r * s * (x1 / 127.0) + 3 * r * s * s * (x2 / 127.0) + s * s * s;
            if (bx < x) lo = s;
            else hi = s;
        }
        double s = lo, r = 1 - s;
        double y = 3 * r * r * s * (y1 / 127.0) + 3 * r * s * s * (y2 / 127.0) + s * s * s;
        double got = pm_bezier_eval(x1, y1, x2, y2, (float)x);
        PM_CHECK_MSG(fabs(got - y) < 1e-5, "curve %u %u %u %u at %g: %.9g vs %.9g", x1, y1, x2, y2, x, got, y);
    }
}

PM_TEST(bezier_mmd_variant_follows_babylon_mmd_bisection) {
    /* babylon-mmd stops when |X(t) - x| < 1e-5 after at most 15 halvings; it agrees with the exact curve
     * to about 1e-4 on steep curves and is exact for linear ones. */
    PM_CHECK_NEAR(pm_bezier_eval_mmd(20, 20, 107, 107, 0.5f), 0.5, 1e-6);
    double worst = 0;
    for (int i = 0; i <= 100; i++) {
        float x = i / 100.0f;
        double e = fabs(pm_bezier_eval_mmd(10, 90, 30, 120, x) - pm_bezier_eval(10, 90, 30, 120, x));
        if (e > worst) worst = e;
    }
    PM_CHECK(worst < 5e-3);
}

int main(void) { return pm_test_run_all(); }
