/*
 * procmotion/math.h -- vectors, quaternions, 4x4 affine matrices and MMD Bezier curves.
 *
 * CONVENTIONS
 *   - float storage (matching VMD/PMX); internal accumulation in double where it matters.
 *   - Quaternions are {x, y, z, w}; pm_quat_mul(a, b) is the Hamilton product a * b, which
 *     rotates by b first, then a (v' = a * (b * v)).
 *   - Matrices are column-major like OpenGL/three.js/Babylon's m[] when read as columns:
 *     m[12], m[13], m[14] hold the translation; a point transforms as p' = M p.
 *   - Euler angles are radians. PM_EULER_XYZ means R = Rx * Ry * Rz applied to column vectors,
 *     i.e. intrinsic X then Y then Z (BVH channel order "Xrotation Yrotation Zrotation"). The
 *     order names list the rotations as they appear left to right in the product.
 *   - MMD's own Euler decomposition for limited IK links is YXZ; VMD camera keys carry Euler
 *     radians, read and written as stored.
 *   - Every function is total: normalising a zero or non-finite quaternion gives identity,
 *     zero-length vectors normalise to zero, and no NaN comes out of finite input.
 */
#ifndef PROCMOTION_MATH_H
#define PROCMOTION_MATH_H

#include "procmotion/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PM_PI 3.14159265358979323846

typedef struct pm_vec3 {
    float x, y, z;
} pm_vec3;
typedef struct pm_quat {
    float x, y, z, w;
} pm_quat;
typedef struct pm_mat4 {
    float m[16];
} pm_mat4;

typedef enum pm_euler_order {
    PM_EULER_XYZ = 0,
    PM_EULER_XZY,
    PM_EULER_YXZ,
    PM_EULER_YZX,
    PM_EULER_ZXY,
    PM_EULER_ZYX,
    PM_EULER_ORDER_COUNT
} pm_euler_order;

pm_vec3 pm_vec3_make(float x, float y, float z);
pm_vec3 pm_vec3_add(pm_vec3 a, pm_vec3 b);
pm_vec3 pm_vec3_sub(pm_vec3 a, pm_vec3 b);
pm_vec3 pm_vec3_scale(pm_vec3 a, float s);
pm_vec3 pm_vec3_lerp(pm_vec3 a, pm_vec3 b, float t);
float pm_vec3_dot(pm_vec3 a, pm_vec3 b);
pm_vec3 pm_vec3_cross(pm_vec3 a, pm_vec3 b);
float pm_vec3_length(pm_vec3 a);
float pm_vec3_distance(pm_vec3 a, pm_vec3 b);
pm_vec3 pm_vec3_normalize(pm_vec3 a);

pm_quat pm_quat_identity(void);
pm_quat pm_quat_normalize(pm_quat q);
pm_quat pm_quat_mul(pm_quat a, pm_quat b);
pm_quat pm_quat_conjugate(pm_quat q);
pm_quat pm_quat_inverse(pm_quat q);
float pm_quat_dot(pm_quat a, pm_quat b);
/* Spherical interpolation along the shortest path (negates b when dot < 0). */
pm_quat pm_quat_slerp(pm_quat a, pm_quat b, float t);
/* Rotation by `angle` radians about `axis` (normalised inside; a zero axis gives identity). */
pm_quat pm_quat_from_axis_angle(pm_vec3 axis, float angle);
/* Axis and angle (0..2pi) of a unit quaternion; identity gives axis (1,0,0), angle 0. */
void pm_quat_to_axis_angle(pm_quat q, pm_vec3 *axis, float *angle);
pm_vec3 pm_quat_rotate(pm_quat q, pm_vec3 v);
pm_quat pm_quat_from_euler(float a, float b, float c, pm_euler_order order);
/* Inverse of pm_quat_from_euler for the same order; angles in (-pi, pi]. */
void pm_quat_to_euler(pm_quat q, pm_euler_order order, float *a, float *b, float *c);
/* The shortest rotation taking direction `from` onto direction `to`. */
pm_quat pm_quat_from_to(pm_vec3 from, pm_vec3 to);

pm_mat4 pm_mat4_identity(void);
pm_mat4 pm_mat4_mul(const pm_mat4 *a, const pm_mat4 *b);
/* T * R * S. */
pm_mat4 pm_mat4_compose(pm_vec3 translation, pm_quat rotation, pm_vec3 scale);
pm_mat4 pm_mat4_from_rotation_translation(pm_quat rotation, pm_vec3 translation);
/* Inverse of an affine matrix (rotation, translation, uniform or non-uniform scale). A singular
 * matrix gives the identity. */
pm_mat4 pm_mat4_inverse_affine(const pm_mat4 *m);
pm_vec3 pm_mat4_transform_point(const pm_mat4 *m, pm_vec3 p);
pm_vec3 pm_mat4_transform_dir(const pm_mat4 *m, pm_vec3 d);
pm_vec3 pm_mat4_get_translation(const pm_mat4 *m);
/* Rotation of a matrix without scale or shear. */
pm_quat pm_mat4_get_rotation(const pm_mat4 *m);

/*
 * MMD Bezier interpolation: the curve runs from (0,0) through control points (x1/127, y1/127) and
 * (x2/127, y2/127) to (1,1). Given progress x in [0,1], find s with X(s) = x and return Y(s).
 * Accurate to 1e-5 (Newton iterations with a bisection fallback); x outside [0,1] is clamped;
 * a linear curve (x1 == y1 and x2 == y2) returns x exactly.
 */
float pm_bezier_eval(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float x);

/*
 * The same curve solved exactly as babylon-mmd and three.js do it (bisection on the parameter,
 * 15 steps, eps 1e-5). Pose evaluation uses this so that our poses match babylon-mmd's.
 */
float pm_bezier_eval_mmd(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float x);

#ifdef __cplusplus
}
#endif

#endif
