/* The inline math every module shares: float vectors and quaternions, MMD Bezier curves, fmin/fmax,
 * easing curves, and the double-precision vectors, quaternions and matrices that follow Babylon.js. */
#ifndef PROCMOTION_MATH_INLINE_H
#define PROCMOTION_MATH_INLINE_H

#include "common/internal.h"
#include "procmotion/math.h"

#include <math.h>
#include <string.h>

/* The small vector and quaternion operations, inline. Other files cannot inline math.c's public
 * functions, and a call (or Binaryen's inlining of one) copies every struct argument and the result
 * through the shadow stack, which costs more code than the few float ops themselves. math.c defines
 * the public pm_vec3_* / pm_quat_* by these, so there is one implementation; each keeps its own
 * roundings (contraction works within one expression only, and these are separate expressions). */
static inline pm_vec3 pmi_vec3_make(float x, float y, float z) {
    pm_vec3 v = {x, y, z};
    return v;
}
static inline pm_vec3 pmi_vec3_add(pm_vec3 a, pm_vec3 b) { return pmi_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline pm_vec3 pmi_vec3_sub(pm_vec3 a, pm_vec3 b) { return pmi_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline pm_vec3 pmi_vec3_scale(pm_vec3 a, float s) { return pmi_vec3_make(a.x * s, a.y * s, a.z * s); }
static inline pm_vec3 pmi_vec3_lerp(pm_vec3 a, pm_vec3 b, float t) {
    return pmi_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
static inline float pmi_vec3_dot(pm_vec3 a, pm_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pm_vec3 pmi_vec3_cross(pm_vec3 a, pm_vec3 b) {
    return pmi_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float pmi_vec3_length(pm_vec3 a) { return sqrtf(pmi_vec3_dot(a, a)); }
static inline float pmi_vec3_distance(pm_vec3 a, pm_vec3 b) { return pmi_vec3_length(pmi_vec3_sub(a, b)); }

static inline pm_vec3 pmi_vec3_normalize(pm_vec3 a) {
    float len = pmi_vec3_length(a);
    if (!(len > 1e-20f) || !isfinite(len)) return pmi_vec3_make(0, 0, 0);
    return pmi_vec3_scale(a, 1.0f / len);
}

static inline pm_quat pmi_quat_identity(void) {
    pm_quat q = {0, 0, 0, 1};
    return q;
}
static inline pm_quat pmi_quat_conjugate(pm_quat q) {
    pm_quat r = {-q.x, -q.y, -q.z, q.w};
    return r;
}
static inline pm_quat pmi_quat_mul(pm_quat a, pm_quat b) {
    pm_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

/* v turned by unit quaternion q: v + 2w (u x v) + 2 u x (u x v). */
static inline pm_vec3 pmi_quat_rotate(pm_quat q, pm_vec3 v) {
    pm_vec3 u = {q.x, q.y, q.z};
    pm_vec3 t = pmi_vec3_scale(pmi_vec3_cross(u, v), 2.0f);
    return pmi_vec3_add(pmi_vec3_add(v, pmi_vec3_scale(t, q.w)), pmi_vec3_cross(u, t));
}

/* Y(s) (or X(s)) of an MMD Bezier with control values (p1, p2) in [0,1]. */
static inline double pmi_bezier_y(double p1, double p2, double s) {
    double r = 1.0 - s;
    return 3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s;
}

/* babylon-mmd's BezierInterpolate(x1, x2, y1, y2, x) step for step in JS doubles (bisection, 15 steps,
 * eps 1e-5), control values in [0,1] (not /127). Pose sampling, tracing easing and pm_bezier_eval_mmd
 * (which rounds to float) share it so that they round alike. */
static inline void pmi_bezier_mmd_solve(double x1, double x2, double x, double w[3]) {
    double k = 0.5, t = k, s = 1.0 - t, sst3 = 0, stt3 = 0, ttt = 0;
    for (int i = 0; i < 15; ++i) {
        sst3 = 3.0 * s * s * t;
        stt3 = 3.0 * s * t * t;
        ttt = t * t * t;
        double ft = (sst3 * x1) + (stt3 * x2) + ttt - x;
        if (fabs(ft) < 1e-5) break;
        k *= 0.5;
        t += (ft < 0) ? k : -k;
        s = 1.0 - t;
    }
    w[0] = sst3, w[1] = stt3, w[2] = ttt;
}
/* The Y of a solve (w from pmi_bezier_mmd_solve): the parameter depends on x1, x2 and x alone, so one
 * solve serves every curve with the same X handles (the same bits as a solve per curve). */
static inline double pmi_bezier_mmd_y(const double w[3], double y1, double y2) { return (w[0] * y1) + (w[1] * y2) + w[2]; }
static inline double pmi_bezier_mmd(double x1, double x2, double y1, double y2, double x) {
    double w[3];
    pmi_bezier_mmd_solve(x1, x2, x, w);
    return pmi_bezier_mmd_y(w, y1, y2);
}

/* 0 -> 1 with zero velocity and acceleration at both ends (minimum jerk), u clamped to [0, 1]. */
static inline double pmi_minjerk(double u) {
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u * u * u * (10 + u * (-15 + 6 * u));
}
/* 0 -> 1 with zero velocity at both ends, u clamped to [0, 1]. */
static inline double pmi_smooth(double u) {
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u * u * (3 - 2 * u);
}

/* A matrix's translation column as a vector (pm_mat4_get_translation's, inline). */
static inline pm_vec3 pmi_mat4_get_translation(const pm_mat4 *m) { return pmi_vec3_make(m->m[12], m->m[13], m->m[14]); }

/* fmin, fmax, fminf and fmaxf as Emscripten's musl computes them (system/lib/libc/musl/src/math/fmin.c
 * and the others: a NaN argument gives the other one, else wasm's min/max, under which -0 < +0), inline:
 * libm's are calls, which the wasm link does not inline and so leaves
 * out of line in the beat tracker's loops. The same results as libm's by construction; other targets
 * call their libm. */
#ifdef __EMSCRIPTEN__
static inline double pmi_fmin(double x, double y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_min_f64(x, y); }
static inline double pmi_fmax(double x, double y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_max_f64(x, y); }
static inline float pmi_fminf(float x, float y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_min_f32(x, y); }
static inline float pmi_fmaxf(float x, float y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_max_f32(x, y); }
#else
static inline double pmi_fmin(double x, double y) { return fmin(x, y); }
static inline double pmi_fmax(double x, double y) { return fmax(x, y); }
static inline float pmi_fminf(float x, float y) { return fminf(x, y); }
static inline float pmi_fmaxf(float x, float y) { return fmaxf(x, y); }
#endif

/* The parameter s in [0,1] at which an MMD Bezier's X(s) = x, for control x values x1, x2 in [0,1]
 * (not /127): Newton with a bisection bracket, accurate to 1e-12. x outside (0,1) clamps; NaN gives 0. */
double pmi_bezier_param(double x1, double x2, double x);

/* ---- double precision --------------------------------------------------------------------------
 * babylon-mmd's JS runtime keeps quaternions and vectors in JS numbers (double) and matrices in
 * Float32Array. These follow Babylon.js's own formulas term by term (operation order included), so
 * that every module that evaluates or builds poses rounds as babylon-mmd does. Matrices are column-major
 * float[16] (Babylon's row-vector layout). */

typedef struct pmi_dv {
    double x, y, z;
} pmi_dv;
typedef struct pmi_dq {
    double x, y, z, w;
} pmi_dq;

static inline pmi_dv pmi_dv_make(double x, double y, double z) {
    pmi_dv v = {x, y, z};
    return v;
}
static inline pmi_dq pmi_dq_identity(void) {
    pmi_dq q = {0, 0, 0, 1};
    return q;
}
static inline pmi_dv pmi_dv_sub(pmi_dv a, pmi_dv b) { return pmi_dv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline double pmi_dv_dot(pmi_dv a, pmi_dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double pmi_dv_len_sq(pmi_dv a) { return a.x * a.x + a.y * a.y + a.z * a.z; }
/* Vector3.CrossToRef */
static inline pmi_dv pmi_dv_cross(pmi_dv l, pmi_dv r) {
    return pmi_dv_make(l.y * r.z - l.z * r.y, l.z * r.x - l.x * r.z, l.x * r.y - l.y * r.x);
}
/* Vector3.normalize: unchanged when the length is 0 or 1, else scaled by 1 / length. */
static inline pmi_dv pmi_dv_normalize(pmi_dv v) {
    double len = sqrt(pmi_dv_len_sq(v));
    if (len == 0 || len == 1.0) return v;
    double s = 1.0 / len;
    return pmi_dv_make(v.x * s, v.y * s, v.z * s);
}
static inline pmi_dv pmi_dv_from_floats(const float *p) { return pmi_dv_make(p[0], p[1], p[2]); }
static inline pmi_dv pmi_dv_of(pm_vec3 v) { return pmi_dv_make(v.x, v.y, v.z); }
static inline pmi_dv pmi_dv_add(pmi_dv a, pmi_dv b) { return pmi_dv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline pmi_dv pmi_dv_scale(pmi_dv a, double s) { return pmi_dv_make(a.x * s, a.y * s, a.z * s); }
static inline double pmi_dv_len(pmi_dv a) { return sqrt(pmi_dv_len_sq(a)); }
/* The point of the segment a-b nearest to p. */
static inline pmi_dv pmi_dv_segment_nearest(pmi_dv p, pmi_dv a, pmi_dv b) {
    pmi_dv ab = pmi_dv_sub(b, a);
    double l2 = pmi_dv_dot(ab, ab), t = l2 > 1e-12 ? pmi_dv_dot(pmi_dv_sub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return pmi_dv_add(a, pmi_dv_scale(ab, t));
}
/* The distance from p to the segment a-b. */
static inline double pmi_dv_segment_distance(pmi_dv p, pmi_dv a, pmi_dv b) {
    pmi_dv ab = pmi_dv_sub(b, a), ap = pmi_dv_sub(p, a);
    double l2 = pmi_dv_dot(ab, ab), t = l2 > 1e-12 ? pmi_dv_dot(ap, ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return pmi_dv_len(pmi_dv_sub(ap, pmi_dv_scale(ab, t)));
}

/* Quaternion.multiplyToRef: the Hamilton product a * b. */
static inline pmi_dq pmi_dq_mul(pmi_dq a, pmi_dq b) {
    pmi_dq r;
    r.x = a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x;
    r.y = -a.x * b.z + a.y * b.w + a.z * b.x + a.w * b.y;
    r.z = a.x * b.y - a.y * b.x + a.z * b.w + a.w * b.z;
    r.w = -a.x * b.x - a.y * b.y - a.z * b.z + a.w * b.w;
    return r;
}
/* Quaternion.InverseToRef (a conjugate, no normalisation). */
static inline pmi_dq pmi_dq_conj(pmi_dq q) {
    pmi_dq r = {-q.x, -q.y, -q.z, q.w};
    return r;
}
/* Quaternion.RotationAxisToRef. A zero axis gives the identity (Babylon would give NaN). A zero angle
 * skips sin and cos: sin(±0) = ±0 and cos(±0) = 1 exactly (C Annex F), so the bits are the same. */
static inline pmi_dq pmi_dq_axis_angle(pmi_dv axis, double angle) {
    double len = sqrt(pmi_dv_len_sq(axis));
    if (!(len > 0)) return pmi_dq_identity();
    pmi_dq q;
    const double half = angle / 2;
    q.w = half == 0 ? 1.0 : cos(half);
    double s = (half == 0 ? half : sin(half)) / len;
    q.x = axis.x * s;
    q.y = axis.y * s;
    q.z = axis.z * s;
    return q;
}
/* Quaternion.SlerpToRef (no clamping of t, no normalisation). */
static inline pmi_dq pmi_dq_slerp(pmi_dq a, pmi_dq b, double t) {
    double num2, num3, num4 = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    int flag = 0;
    if (num4 < 0) {
        flag = 1;
        num4 = -num4;
    }
    if (num4 > 0.999999) {
        num3 = 1 - t;
        num2 = flag ? -t : t;
    } else {
        double num5 = acos(num4);
        double num6 = 1.0 / sin(num5);
        num3 = sin((1.0 - t) * num5) * num6;
        num2 = flag ? -sin(t * num5) * num6 : sin(t * num5) * num6;
    }
    pmi_dq r = {num3 * a.x + num2 * b.x, num3 * a.y + num2 * b.y, num3 * a.z + num2 * b.z, num3 * a.w + num2 * b.w};
    return r;
}
/* v turned by unit quaternion q: v + 2w (u x v) + 2 u x (u x v). */
static inline pmi_dv pmi_dq_rotate(pmi_dq q, pmi_dv v) {
    double tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
    return pmi_dv_make(v.x + q.w * tx + (q.y * tz - q.z * ty), v.y + q.w * ty + (q.z * tx - q.x * tz),
                       v.z + q.w * tz + (q.x * ty - q.y * tx));
}
/* The shortest rotation taking unit vector a onto unit vector b. */
static inline pmi_dq pmi_dq_arc(pmi_dv a, pmi_dv b) {
    double d = pmi_dv_dot(a, b);
    pmi_dv c = pmi_dv_cross(a, b);
    if (d < -1 + 1e-12) { /* opposite: any perpendicular axis */
        pmi_dv axis = fabs(a.x) < 0.9 ? pmi_dv_cross(a, pmi_dv_make(1, 0, 0)) : pmi_dv_cross(a, pmi_dv_make(0, 1, 0));
        return pmi_dq_axis_angle(axis, PM_PI);
    }
    pmi_dq q = {c.x, c.y, c.z, 1 + d};
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (pmi_dq){q.x / n, q.y / n, q.z / n, q.w / n};
}
static inline pmi_dq pmi_dq_from_quat(pm_quat q) {
    pmi_dq r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline pm_quat pmi_dq_to_quat(pmi_dq q) {
    pm_quat r = {(float)q.x, (float)q.y, (float)q.z, (float)q.w};
    return r;
}

/* Matrix.FromQuaternionToRef (float storage, Babylon's row-vector layout = our column-major). */
static inline void pmi_mat_from_dq(pmi_dq q, float *m) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, zw = q.z * q.w, zx = q.z * q.x,
           yw = q.y * q.w, yz = q.y * q.z, xw = q.x * q.w;
    m[0] = (float)(1.0 - 2.0 * (yy + zz));
    m[1] = (float)(2.0 * (xy + zw));
    m[2] = (float)(2.0 * (zx - yw));
    m[3] = 0;
    m[4] = (float)(2.0 * (xy - zw));
    m[5] = (float)(1.0 - 2.0 * (zz + xx));
    m[6] = (float)(2.0 * (yz + xw));
    m[7] = 0;
    m[8] = (float)(2.0 * (zx + yw));
    m[9] = (float)(2.0 * (yz - xw));
    m[10] = (float)(1.0 - 2.0 * (yy + xx));
    m[11] = 0;
    m[12] = 0;
    m[13] = 0;
    m[14] = 0;
    m[15] = 1;
}

static inline void pmi_mat_identity(float *m) {
    static const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(m, id, sizeof id);
}

/* Quaternion.FromRotationMatrixToRef. */
static inline pmi_dq pmi_dq_from_mat(const float *d) {
    double m11 = d[0], m12 = d[4], m13 = d[8];
    double m21 = d[1], m22 = d[5], m23 = d[9];
    double m31 = d[2], m32 = d[6], m33 = d[10];
    double trace = m11 + m22 + m33, s;
    pmi_dq r;
    if (trace > 0) {
        s = 0.5 / sqrt(trace + 1.0);
        r.w = 0.25 / s;
        r.x = (m32 - m23) * s;
        r.y = (m13 - m31) * s;
        r.z = (m21 - m12) * s;
    } else if (m11 > m22 && m11 > m33) {
        s = 2.0 * sqrt(1.0 + m11 - m22 - m33);
        r.w = (m32 - m23) / s;
        r.x = 0.25 * s;
        r.y = (m12 + m21) / s;
        r.z = (m13 + m31) / s;
    } else if (m22 > m33) {
        s = 2.0 * sqrt(1.0 + m22 - m11 - m33);
        r.w = (m13 - m31) / s;
        r.x = (m12 + m21) / s;
        r.y = 0.25 * s;
        r.z = (m23 + m32) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m33 - m11 - m22);
        r.w = (m21 - m12) / s;
        r.x = (m13 + m31) / s;
        r.y = (m23 + m32) / s;
        r.z = 0.25 * s;
    }
    return r;
}

static inline pmi_dv pmi_mat_translation(const float *m) { return pmi_dv_make(m[12], m[13], m[14]); }

#endif
