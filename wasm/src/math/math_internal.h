/* Internal helpers of the math module shared with other modules (key fitting, pose sampling, tracing
 * easing, the beat tracker's fmin/fmax). */
#ifndef PROCMOTION_MATH_INTERNAL_H
#define PROCMOTION_MATH_INTERNAL_H

#include "common/internal.h"
#include "procmotion/math.h"

#include <math.h>

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

/* A matrix's translation column as a vector (pm_mat4_get_translation's, inline). */
static inline pm_vec3 pmi_mat4_get_translation(const pm_mat4 *m) { return pmi_vec3_make(m->m[12], m->m[13], m->m[14]); }

/* fmin, fmax, fminf and fmaxf as Emscripten's musl computes them (system/lib/libc/musl/src/math/fmin.c
 * and the others: a NaN argument gives the other one, else wasm's min/max, under which -0 < +0), inline:
 * libm's are calls, which the link (it inlines little: docs/benchmarks.md "size17g: the -Os link") leaves
 * out of line in the beat tracker's loops. The same results as libm's by construction; other targets
 * call their libm. */
#ifdef __EMSCRIPTEN__
PMI_INLINE double pmi_fmin(double x, double y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_min_f64(x, y); }
PMI_INLINE double pmi_fmax(double x, double y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_max_f64(x, y); }
PMI_INLINE float pmi_fminf(float x, float y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_min_f32(x, y); }
PMI_INLINE float pmi_fmaxf(float x, float y) { return isnan(x) ? y : isnan(y) ? x : __builtin_wasm_max_f32(x, y); }
#else
PMI_INLINE double pmi_fmin(double x, double y) { return fmin(x, y); }
PMI_INLINE double pmi_fmax(double x, double y) { return fmax(x, y); }
PMI_INLINE float pmi_fminf(float x, float y) { return fminf(x, y); }
PMI_INLINE float pmi_fmaxf(float x, float y) { return fmaxf(x, y); }
#endif

/* The parameter s in [0,1] at which an MMD Bezier's X(s) = x, for control x values x1, x2 in [0,1]
 * (not /127): Newton with a bisection bracket, accurate to 1e-12. x outside (0,1) clamps; NaN gives 0. */
double pmi_bezier_param(double x1, double x2, double x);

#endif
