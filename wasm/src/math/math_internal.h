/* Internal helpers of the math module shared with other modules (key fitting). */
#ifndef PROCMOTION_MATH_INTERNAL_H
#define PROCMOTION_MATH_INTERNAL_H

/* The parameter s in [0,1] at which an MMD Bezier's X(s) = x, for control x values x1, x2 in [0,1]
 * (not /127): Newton with a bisection bracket, accurate to 1e-12. x outside (0,1) clamps; NaN gives 0. */
double pmi_bezier_param(double x1, double x2, double x);

#endif
