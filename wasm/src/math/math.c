/* Vectors, quaternions, affine matrices and MMD Bezier curves (see procmotion/math.h). */
#include "procmotion/math.h"
#include "math/inline.h"

#include <math.h>

/* ---- vec3 ------------------------------------------------------------------------------------ */

pm_vec3 pm_vec3_make(float x, float y, float z) { return pmi_vec3_make(x, y, z); }
pm_vec3 pm_vec3_add(pm_vec3 a, pm_vec3 b) { return pmi_vec3_add(a, b); }
pm_vec3 pm_vec3_sub(pm_vec3 a, pm_vec3 b) { return pmi_vec3_sub(a, b); }
pm_vec3 pm_vec3_scale(pm_vec3 a, float s) { return pmi_vec3_scale(a, s); }
pm_vec3 pm_vec3_lerp(pm_vec3 a, pm_vec3 b, float t) { return pmi_vec3_lerp(a, b, t); }
float pm_vec3_dot(pm_vec3 a, pm_vec3 b) { return pmi_vec3_dot(a, b); }
pm_vec3 pm_vec3_cross(pm_vec3 a, pm_vec3 b) { return pmi_vec3_cross(a, b); }
float pm_vec3_length(pm_vec3 a) { return pmi_vec3_length(a); }
float pm_vec3_distance(pm_vec3 a, pm_vec3 b) { return pmi_vec3_distance(a, b); }
pm_vec3 pm_vec3_normalize(pm_vec3 a) { return pmi_vec3_normalize(a); }

/* ---- quaternions ----------------------------------------------------------------------------- */

pm_quat pm_quat_identity(void) { return pmi_quat_identity(); }

pm_quat pm_quat_normalize(pm_quat q) {
    double n = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    if (!(n > 1e-30) || !isfinite(n)) return pm_quat_identity();
    double s = 1.0 / sqrt(n);
    pm_quat r = {(float)(q.x * s), (float)(q.y * s), (float)(q.z * s), (float)(q.w * s)};
    return r;
}

pm_quat pm_quat_mul(pm_quat a, pm_quat b) { return pmi_quat_mul(a, b); }

pm_quat pm_quat_conjugate(pm_quat q) { return pmi_quat_conjugate(q); }

pm_quat pm_quat_inverse(pm_quat q) {
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(n > 1e-30f) || !isfinite(n)) return pm_quat_identity();
    pm_quat c = pm_quat_conjugate(q);
    pm_quat r = {c.x / n, c.y / n, c.z / n, c.w / n};
    return r;
}

float pm_quat_dot(pm_quat a, pm_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

pm_quat pm_quat_slerp(pm_quat a, pm_quat b, float t) {
    double cosom = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
    double sign = 1.0;
    if (cosom < 0) {
        cosom = -cosom;
        sign = -1.0;
    }
    double s0, s1;
    if (cosom < 0.9999) {
        double omega = acos(cosom);
        double sinom = sin(omega);
        s0 = sin((1.0 - t) * omega) / sinom;
        s1 = sign * sin(t * omega) / sinom;
    } else {
        s0 = 1.0 - t;
        s1 = sign * t;
    }
    pm_quat r = {(float)(s0 * a.x + s1 * b.x), (float)(s0 * a.y + s1 * b.y), (float)(s0 * a.z + s1 * b.z),
                 (float)(s0 * a.w + s1 * b.w)};
    return pm_quat_normalize(r);
}

pm_quat pm_quat_from_axis_angle(pm_vec3 axis, float angle) {
    pm_vec3 n = pm_vec3_normalize(axis);
    if (n.x == 0 && n.y == 0 && n.z == 0) return pm_quat_identity();
    if (!isfinite(angle)) return pm_quat_identity();
    double h = 0.5 * angle, s = sin(h);
    pm_quat q = {(float)(n.x * s), (float)(n.y * s), (float)(n.z * s), (float)cos(h)};
    return q;
}

void pm_quat_to_axis_angle(pm_quat q, pm_vec3 *axis, float *angle) {
    q = pm_quat_normalize(q);
    double w = q.w < -1 ? -1 : q.w > 1 ? 1 : q.w;
    double s = sqrt(1.0 - w * w);
    double a = 2.0 * acos(w);
    if (s < 1e-7) {
        *axis = pm_vec3_make(1, 0, 0);
        *angle = 0;
        return;
    }
    *axis = pm_vec3_make((float)(q.x / s), (float)(q.y / s), (float)(q.z / s));
    *angle = (float)a;
}

pm_vec3 pm_quat_rotate(pm_quat q, pm_vec3 v) { return pmi_quat_rotate(q, v); }

static pm_quat axis_quat(int axis, float angle) {
    double h = 0.5 * angle, s = sin(h);
    pm_quat q = {0, 0, 0, (float)cos(h)};
    if (axis == 0) q.x = (float)s;
    else if (axis == 1) q.y = (float)s;
    else q.z = (float)s;
    return q;
}

/* Axis index of each order's first, second and third rotation. */
static const int euler_axes[PM_EULER_ORDER_COUNT][3] = {
    {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
};

pm_quat pm_quat_from_euler(float a, float b, float c, pm_euler_order order) {
    if ((unsigned)order >= PM_EULER_ORDER_COUNT) order = PM_EULER_XYZ;
    const int *ax = euler_axes[order];
    return pm_quat_normalize(pm_quat_mul(pm_quat_mul(axis_quat(ax[0], a), axis_quat(ax[1], b)), axis_quat(ax[2], c)));
}

/* Rotation matrix element (row r, column c) of a unit quaternion, in double. */
static void quat_to_rows(pm_quat q, double m[3][3]) {
    double x = q.x, y = q.y, z = q.z, w = q.w;
    m[0][0] = 1 - 2 * (y * y + z * z);
    m[0][1] = 2 * (x * y - z * w);
    m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w);
    m[1][1] = 1 - 2 * (x * x + z * z);
    m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w);
    m[2][1] = 2 * (y * z + x * w);
    m[2][2] = 1 - 2 * (x * x + y * y);
}

void pm_quat_to_euler(pm_quat q, pm_euler_order order, float *a, float *b, float *c) {
    if ((unsigned)order >= PM_EULER_ORDER_COUNT) order = PM_EULER_XYZ;
    q = pm_quat_normalize(q);
    double m[3][3];
    quat_to_rows(q, m);
    const int i = euler_axes[order][0], j = euler_axes[order][1], k = euler_axes[order][2];
    /* R = R_i(a) R_j(b) R_k(c). For an even permutation (i,j,k) = (0,1,2) cyclic the sign is +1. */
    double sign = ((i + 1) % 3 == j) ? 1.0 : -1.0;
    double sb = sign * m[i][k];
    if (sb > 1) sb = 1;
    if (sb < -1) sb = -1;
    double bb = asin(sb), aa, cc;
    if (fabs(sb) < 0.9999999) {
        aa = atan2(-sign * m[j][k], m[k][k]);
        cc = atan2(-sign * m[i][j], m[i][i]);
    } else {
        /* gimbal lock: put everything into the first angle */
        aa = atan2(sign * m[k][j], m[j][j]);
        cc = 0;
    }
    *a = (float)aa;
    *b = (float)bb;
    *c = (float)cc;
}

pm_quat pm_quat_from_to(pm_vec3 from, pm_vec3 to) {
    pm_vec3 f = pm_vec3_normalize(from), t = pm_vec3_normalize(to);
    if ((f.x == 0 && f.y == 0 && f.z == 0) || (t.x == 0 && t.y == 0 && t.z == 0)) return pm_quat_identity();
    double d = (double)pm_vec3_dot(f, t);
    if (d < -0.999999) {
        pm_vec3 axis = pm_vec3_cross(pm_vec3_make(1, 0, 0), f);
        if (pm_vec3_length(axis) < 1e-6f) axis = pm_vec3_cross(pm_vec3_make(0, 1, 0), f);
        return pm_quat_from_axis_angle(axis, (float)PM_PI);
    }
    pm_vec3 c = pm_vec3_cross(f, t);
    pm_quat q = {c.x, c.y, c.z, (float)(1.0 + d)};
    return pm_quat_normalize(q);
}

/* ---- matrices (column-major) ------------------------------------------------------------------- */

pm_mat4 pm_mat4_identity(void) {
    pm_mat4 r = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return r;
}

pm_mat4 pm_mat4_mul(const pm_mat4 *a, const pm_mat4 *b) {
    pm_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

pm_mat4 pm_mat4_compose(pm_vec3 t, pm_quat q, pm_vec3 s) {
    double m[3][3];
    quat_to_rows(q, m);
    pm_mat4 r;
    const float sc[3] = {s.x, s.y, s.z};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) r.m[c * 4 + row] = (float)(m[row][c] * sc[c]);
        r.m[c * 4 + 3] = 0;
    }
    r.m[12] = t.x;
    r.m[13] = t.y;
    r.m[14] = t.z;
    r.m[15] = 1;
    return r;
}

pm_mat4 pm_mat4_from_rotation_translation(pm_quat rotation, pm_vec3 translation) {
    return pm_mat4_compose(translation, rotation, pm_vec3_make(1, 1, 1));
}

pm_mat4 pm_mat4_inverse_affine(const pm_mat4 *m) {
    const float *a = m->m;
    /* 3x3 part: columns c0, c1, c2 */
    double a00 = a[0], a10 = a[1], a20 = a[2], a01 = a[4], a11 = a[5], a21 = a[6], a02 = a[8], a12 = a[9],
           a22 = a[10];
    double det = a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20);
    if (!(fabs(det) > 1e-30) || !isfinite(det)) return pm_mat4_identity();
    double id = 1.0 / det;
    double i00 = (a11 * a22 - a12 * a21) * id, i01 = (a02 * a21 - a01 * a22) * id, i02 = (a01 * a12 - a02 * a11) * id;
    double i10 = (a12 * a20 - a10 * a22) * id, i11 = (a00 * a22 - a02 * a20) * id, i12 = (a02 * a10 - a00 * a12) * id;
    double i20 = (a10 * a21 - a11 * a20) * id, i21 = (a01 * a20 - a00 * a21) * id, i22 = (a00 * a11 - a01 * a10) * id;
    double tx = a[12], ty = a[13], tz = a[14];
    pm_mat4 r;
    r.m[0] = (float)i00, r.m[1] = (float)i10, r.m[2] = (float)i20, r.m[3] = 0;
    r.m[4] = (float)i01, r.m[5] = (float)i11, r.m[6] = (float)i21, r.m[7] = 0;
    r.m[8] = (float)i02, r.m[9] = (float)i12, r.m[10] = (float)i22, r.m[11] = 0;
    r.m[12] = (float)-(i00 * tx + i01 * ty + i02 * tz);
    r.m[13] = (float)-(i10 * tx + i11 * ty + i12 * tz);
    r.m[14] = (float)-(i20 * tx + i21 * ty + i22 * tz);
    r.m[15] = 1;
    return r;
}

pm_vec3 pm_mat4_transform_point(const pm_mat4 *m, pm_vec3 p) {
    const float *a = m->m;
    return pm_vec3_make(a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12], a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
                        a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14]);
}

pm_vec3 pm_mat4_transform_dir(const pm_mat4 *m, pm_vec3 d) {
    const float *a = m->m;
    return pm_vec3_make(a[0] * d.x + a[4] * d.y + a[8] * d.z, a[1] * d.x + a[5] * d.y + a[9] * d.z,
                        a[2] * d.x + a[6] * d.y + a[10] * d.z);
}

pm_vec3 pm_mat4_get_translation(const pm_mat4 *m) { return pmi_mat4_get_translation(m); }

pm_quat pm_mat4_get_rotation(const pm_mat4 *m) {
    const float *a = m->m;
    /* element (row r, col c) = a[c*4 + r] */
    double m00 = a[0], m11 = a[5], m22 = a[10];
    double tr = m00 + m11 + m22;
    double x, y, z, w;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        w = 0.25 * s;
        x = (a[6] - a[9]) / s;
        y = (a[8] - a[2]) / s;
        z = (a[1] - a[4]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2;
        w = (a[6] - a[9]) / s;
        x = 0.25 * s;
        y = (a[4] + a[1]) / s;
        z = (a[8] + a[2]) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2;
        w = (a[8] - a[2]) / s;
        x = (a[4] + a[1]) / s;
        y = 0.25 * s;
        z = (a[9] + a[6]) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2;
        w = (a[1] - a[4]) / s;
        x = (a[8] + a[2]) / s;
        y = (a[9] + a[6]) / s;
        z = 0.25 * s;
    }
    pm_quat q = {(float)x, (float)y, (float)z, (float)w};
    return pm_quat_normalize(q);
}

/* ---- MMD Bezier --------------------------------------------------------------------------------- */

static double bez_d(double p1, double p2, double s) {
    double r = 1.0 - s;
    return 3.0 * r * r * p1 + 6.0 * r * s * (p2 - p1) + 3.0 * s * s * (1.0 - p2);
}

double pmi_bezier_param(double x1, double x2, double x) {
    if (!(x > 0)) return 0;
    if (x >= 1) return 1;
    /* X(s) is monotone on [0,1] for control x in [0,1]: bracket with bisection, refine with Newton. */
    double lo = 0, hi = 1, s = x;
    for (int i = 0; i < 64; i++) {
        double f = pmi_bezier_y(x1, x2, s) - x;
        if (fabs(f) < 1e-12) break;
        if (f < 0) lo = s;
        else hi = s;
        double d = bez_d(x1, x2, s);
        double next = d > 1e-9 ? s - f / d : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        s = next;
    }
    return s;
}

float pm_bezier_eval(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float xf) {
    if (!(xf > 0)) return 0.0f; /* also maps NaN to 0 */
    if (xf >= 1) return 1.0f;
    if (x1 > 127) x1 = 127;
    if (x2 > 127) x2 = 127;
    if (y1 > 127) y1 = 127;
    if (y2 > 127) y2 = 127;
    if (x1 == y1 && x2 == y2) return xf;
    double s = pmi_bezier_param(x1 / 127.0, x2 / 127.0, xf);
    return (float)pmi_bezier_y(y1 / 127.0, y2 / 127.0, s);
}

float pm_bezier_eval_mmd(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float xf) {
    if (!isfinite(xf)) return 0.0f;
    return (float)pmi_bezier_mmd(x1 / 127.0, x2 / 127.0, y1 / 127.0, y2 / 127.0, xf);
}
