/* Internal helpers of the math module shared with other modules (key fitting, pose sampling, tracing
 * easing). */
#ifndef PROCMOTION_MATH_INTERNAL_H
#define PROCMOTION_MATH_INTERNAL_H

#include <math.h>

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

/* The parameter s in [0,1] at which an MMD Bezier's X(s) = x, for control x values x1, x2 in [0,1]
 * (not /127): Newton with a bisection bracket, accurate to 1e-12. x outside (0,1) clamps; NaN gives 0. */
double pmi_bezier_param(double x1, double x2, double x);

#endif
