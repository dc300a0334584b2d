/* The MediaPipe Pose 33 topology of the contract (seeds/003 sections 1-3, 5): names, parents, angles. */
#include "kp_internal.h"

#include <math.h>

static const char *const point_names[PM_KP_ALL_POINT_COUNT] = {
    "nose",           "left_eye_inner", "left_eye",        "left_eye_outer",  "right_eye_inner", "right_eye",
    "right_eye_outer", "left_ear",      "right_ear",       "mouth_left",      "mouth_right",     "left_shoulder",
    "right_shoulder", "left_elbow",     "right_elbow",     "left_wrist",      "right_wrist",     "left_pinky",
    "right_pinky",    "left_index",     "right_index",     "left_thumb",      "right_thumb",     "left_hip",
    "right_hip",      "left_knee",      "right_knee",      "left_ankle",      "right_ankle",     "left_heel",
    "right_heel",     "left_foot_index", "right_foot_index", "neck",          "pelvis",
};

/* Contract section 3. */
static const int8_t point_parent[PM_KP_ALL_POINT_COUNT] = {
    33, 0,  0,  0,  0,  0,  0,  3,  6,  0,  0,  33, 33, 11, 12, 13, 14, 15,
    16, 15, 16, 15, 16, 34, 34, 23, 24, 25, 26, 27, 28, 29, 30, 34, -1,
};

/* An order in which every parent comes before its children (contract section 3, top to bottom). */
static const uint8_t parent_first[PM_KP_POINT_COUNT] = {
    23, 24, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 26, 27, 28, 29, 30, 31, 32,
    13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
};

static const char *const angle_names[PM_KP_ANGLE_COUNT] = {
    "shoulder_L", "shoulder_R", "elbow_L", "elbow_R", "hip_L", "hip_R", "knee_L", "knee_R", "neck", "spine",
};

/* a, b, c of each angle; 35 = midpoint of the ankles (27, 28). */
static const uint8_t angle_points[PM_KP_ANGLE_COUNT][3] = {
    {13, 11, 23}, {14, 12, 24}, {11, 13, 15}, {12, 14, 16}, {11, 23, 25},
    {12, 24, 26}, {23, 25, 27}, {24, 26, 28}, {0, 33, 34},  {33, 34, 35},
};

const char *pm_kp_point_name(uint32_t point) { return point < PM_KP_ALL_POINT_COUNT ? point_names[point] : NULL; }
const char *pm_kp_angle_name(uint32_t angle) { return angle < PM_KP_ANGLE_COUNT ? angle_names[angle] : NULL; }
int32_t pm_kp_point_parent(uint32_t point) { return point < PM_KP_ALL_POINT_COUNT ? point_parent[point] : -2; }

const char *pm_kp_format_name(pm_kp_format format) {
    static const char *const names[PM_KP_FORMAT_COUNT] = {"auto", "bvh", "vmd", "gltf", "json", "ndjson", "binary", "fbx"};
    return (unsigned)format < PM_KP_FORMAT_COUNT ? names[format] : "unknown";
}

static void mid(const float *a, const float *b, float *out) {
    for (int k = 0; k < 3; k++) out[k] = 0.5f * (a[k] + b[k]);
}

void pmi_kp_fill_missing(float *pos, const float *conf) {
    float neck[3], pelvis[3];
    mid(pos + 11 * 3, pos + 12 * 3, neck);
    mid(pos + 23 * 3, pos + 24 * 3, pelvis);
    for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
        int p = parent_first[i];
        if (conf[p] > 0) continue;
        int q = point_parent[p];
        const float *src = q == 33 ? neck : q == 34 ? pelvis : pos + q * 3;
        memcpy(pos + p * 3, src, 3 * sizeof(float));
    }
}

static float cos_angle(const float *a, const float *b, const float *c) {
    double u[3], v[3], nu = 0, nv = 0, d = 0;
    for (int k = 0; k < 3; k++) {
        u[k] = (double)a[k] - b[k];
        v[k] = (double)c[k] - b[k];
        nu += u[k] * u[k];
        nv += v[k] * v[k];
        d += u[k] * v[k];
    }
    if (!(nu > 1e-20) || !(nv > 1e-20)) return 0.0f;
    double r = d / sqrt(nu * nv);
    if (!(r >= -1.0)) r = -1.0; /* also NaN */
    if (r > 1.0) r = 1.0;
    return (float)r;
}

void pm_kp_angles(const float *points, float angles[PM_KP_ANGLE_COUNT]) {
    float extra[3][3]; /* 33 neck, 34 pelvis, 35 ankle midpoint */
    mid(points + 11 * 3, points + 12 * 3, extra[0]);
    mid(points + 23 * 3, points + 24 * 3, extra[1]);
    mid(points + 27 * 3, points + 28 * 3, extra[2]);
    for (int i = 0; i < PM_KP_ANGLE_COUNT; i++) {
        const float *p[3];
        for (int k = 0; k < 3; k++) {
            int idx = angle_points[i][k];
            p[k] = idx < PM_KP_POINT_COUNT ? points + idx * 3 : extra[idx - PM_KP_POINT_COUNT];
        }
        angles[i] = cos_angle(p[0], p[1], p[2]);
    }
}
