/* sample_inputs.h -- small, deterministic files of every input format, made with the library or byte by
 * byte: the fuzz seed generator (fuzz/gen_seeds.c) writes them as seeds, and the hardening tests sweep
 * them (allocation failures, byte patches, truncations). Not a test by itself. Every function aborts on
 * a library failure (the inputs are fixed). Buffers are malloc'd; the caller frees them. */
#ifndef PM_SAMPLE_INPUTS_H
#define PM_SAMPLE_INPUTS_H

#include "pmx_builder.h"

#include "procmotion/groove.h"
#include "procmotion/keypoints.h"
#include "procmotion/mannequin.h"
#include "procmotion/tracing.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void smp_die(const char *what, const pm_error *err) {
    fprintf(stderr, "sample_inputs: %s: %s\n", what, err ? err->message : "failed");
    abort();
}

/* ---- VMD ----------------------------------------------------------------------------------------- */

static inline uint8_t *pm_sample_vmd_bytes(const pm_vmd *v, size_t *size) {
    pm_error err = {0};
    if (pm_vmd_write(v, NULL, 0, size, &err) != PM_OK) smp_die("vmd size", &err);
    uint8_t *out = malloc(*size);
    if (pm_vmd_write(v, out, *size, size, &err) != PM_OK) smp_die("vmd write", &err);
    return out;
}

/* A short dance on the MMD standard bones with every section: Bezier and linear keys, leg IK with
 * translation, morphs, a camera, a light, a self-shadow and IK on/off property keys. */
static inline uint8_t *pm_sample_vmd(size_t *size) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    if (pm_vmd_create(NULL, &v, &err) != PM_OK) smp_die("vmd create", &err);
    pm_vmd_set_model_name(v, "procmotion seed", &err);
    const uint8_t curves[4][4] = {{20, 20, 107, 107}, {64, 0, 64, 127}, {0, 64, 127, 64}, {10, 90, 30, 120}};
    uint8_t ease[64];
    pm_vmd_interp_pack(curves, ease);
    static const char *bones[] = {"センター", "上半身", "下半身", "左足ＩＫ", "右足ＩＫ", "左腕", "右ひじ", "頭", "グルーブ"};
    for (uint32_t b = 0; b < sizeof bones / sizeof bones[0]; b++)
        for (uint32_t k = 0; k < 3; k++) {
            float a = 0.3f * (float)(k + b);
            const float pos[3] = {0.5f * (float)k, b == 0 ? 1.0f * (float)k : 0.0f, b >= 3 && b <= 4 ? -2.0f * (float)k : 0};
            const float rot[4] = {sinf(a) * 0.3f, 0.1f * (float)k, 0, cosf(a)};
            if (pm_vmd_add_bone_key(v, bones[b], 15 * k, pos, rot, k == 1 ? ease : NULL, &err) != PM_OK)
                smp_die("bone key", &err);
        }
    pm_vmd_add_morph_key(v, "まばたき", 0, 0, &err);
    pm_vmd_add_morph_key(v, "まばたき", 10, 1, &err);
    pm_vmd_add_morph_key(v, "あ", 20, 0.5f, &err);
    uint8_t cam[24];
    for (int i = 0; i < 24; i++) cam[i] = (uint8_t)(i % 2 ? 107 : 20);
    const float cpos[3] = {0, 10, 0}, crot[3] = {0.1f, 3.1f, 0}, col[3] = {0.6f, 0.6f, 0.6f}, dir[3] = {-0.5f, -1, 0.5f};
    pm_vmd_add_camera_key(v, 0, -35, cpos, crot, cam, 30, 0, &err);
    pm_vmd_add_camera_key(v, 30, -20, cpos, crot, cam, 45, 1, &err);
    pm_vmd_add_light_key(v, 0, col, dir, &err);
    pm_vmd_add_shadow_key(v, 0, 1, 0.0125f, &err);
    const char *iks[2] = {"左足ＩＫ", "右足ＩＫ"};
    const bool on[2] = {true, true}, off[2] = {false, true};
    pm_vmd_add_property_key(v, 0, true, 2, iks, on, &err);
    if (pm_vmd_add_property_key(v, 20, true, 2, iks, off, &err) != PM_OK) smp_die("property key", &err);
    uint8_t *out = pm_sample_vmd_bytes(v, size);
    pm_vmd_free(v);
    return out;
}

/* ---- PMX and PMD ---------------------------------------------------------------------------------- */

/* A PMX 2.1 with 1-byte indices, one additional UV, a triangle, a texture, a material, bones with
 * every optional field (tail bone, append, fixed axis, local axes, external parent, IK with limits)
 * and one morph of every type the reader knows. */
static inline void pm_sample_pmx21(tb *b) {
    tb_pmx_sizes z = {2.1f, 1, 1, 1, 1, 1, 1, 1};
    tb_pmx_header(b, z);
    tb_i32(b, 3); /* vertices */
    for (int i = 0; i < 3; i++) tb_pmx_vertex(b, z, i % 2);
    tb_i32(b, 3); /* faces */
    tb_idx(b, 1, 0), tb_idx(b, 1, 1), tb_idx(b, 1, 2);
    tb_i32(b, 1); /* textures */
    tb_text(b, "tex/diffuse.png");
    tb_i32(b, 1); /* materials */
    tb_text(b, "mat");
    tb_text(b, "");
    tb_zero(b, 16 + 12 + 4 + 12);
    tb_u8(b, 0x1F);
    tb_zero(b, 16 + 4);
    tb_idx(b, 1, 0);  /* texture */
    tb_idx(b, 1, -1); /* sphere */
    tb_u8(b, 1);      /* sphere mode */
    tb_u8(b, 1);      /* shared toon */
    tb_u8(b, 3);
    tb_text(b, "memo");
    tb_i32(b, 3);
    tb_i32(b, 5); /* bones */
    const int32_t links[2] = {1, 0};
    tb_pmx_bone(b, z, "センター", -1, 8, -2, -1, NULL, 0);
    tb_pmx_bone(b, z, "左足", 0, 10, -2, -1, NULL, 0);
    tb_pmx_bone(b, z, "左ひざ", 1, 6, -2, -1, NULL, 0);
    tb_pmx_bone(b, z, "左足ＩＫ", 0, 1, 2, 2, links, 1);
    /* bone 4: tail bone, append rotate + translate (local), fixed axis, local axes, external parent */
    tb_text(b, "左目");
    tb_text(b, "eye_L");
    tb_vec3(b, 0.3f, 17, -0.5f);
    tb_idx(b, 1, 0);
    tb_i32(b, 2);
    tb_u16(b, 0x0001 | 0x0002 | 0x0008 | 0x0010 | 0x0080 | 0x0100 | 0x0200 | 0x0400 | 0x0800 | 0x2000);
    tb_idx(b, 1, 2);
    tb_idx(b, 1, 1);
    tb_f32(b, 0.5f);
    tb_vec3(b, 0, 0, 1);
    tb_vec3(b, 1, 0, 0);
    tb_vec3(b, 0, 0, 1);
    tb_i32(b, 7);
    tb_i32(b, 8); /* morphs: group, vertex, bone, UV, additional UV 1, material, flip, impulse */
    const uint8_t types[8] = {0, 1, 2, 3, 4, 8, 9, 10};
    for (int m = 0; m < 8; m++) {
        char name[16];
        snprintf(name, sizeof name, "morph%d", m);
        tb_text(b, name);
        tb_text(b, "");
        tb_u8(b, (uint8_t)(m % 4 + 1));
        tb_u8(b, types[m]);
        tb_i32(b, 1);
        switch (types[m]) {
        case 0: case 9: tb_idx(b, 1, 1), tb_f32(b, 0.5f); break;
        case 1: tb_idx(b, 1, 0), tb_vec3(b, 0, 0.1f, 0); break;
        case 2: tb_idx(b, 1, 1), tb_vec3(b, 0, 1, 0), tb_f32(b, 0), tb_f32(b, 0), tb_f32(b, 0), tb_f32(b, 1); break;
        case 3: case 4: tb_idx(b, 1, 2), tb_zero(b, 16); break;
        case 8: tb_idx(b, 1, -1), tb_u8(b, 1), tb_zero(b, 112); break;
        default: tb_idx(b, 1, 0), tb_u8(b, 1), tb_vec3(b, 1, 0, 0), tb_vec3(b, 0, 1, 0); break;
        }
    }
    tb_i32(b, 0); /* display frames, rigid bodies, joints, soft bodies: none */
    tb_i32(b, 0);
    tb_i32(b, 0);
    tb_i32(b, 0);
}

#define SMP_SJ_CENTER "\x83\x5a\x83\x93\x83\x5e\x81\x5b" /* センター */
#define SMP_SJ_LEG "\x8d\xb6\x91\xab"                    /* 左足 */
#define SMP_SJ_KNEE "\x8d\xb6\x82\xd0\x82\xb4"           /* 左ひざ */
#define SMP_SJ_ANKLE "\x8d\xb6\x91\xab\x8e\xf1"          /* 左足首 */
#define SMP_SJ_LEG_IK "\x8d\xb6\x91\xab\x82\x68\x82\x6a" /* 左足ＩＫ */

static inline void smp_pmd_bone(tb *b, const char *name, uint16_t parent, uint16_t tail, uint8_t type, uint16_t ik, float y) {
    tb_field(b, name, strlen(name), 20);
    tb_u16(b, parent), tb_u16(b, tail), tb_u8(b, type), tb_u16(b, ik);
    tb_vec3(b, 0.5f, y, 0);
}

/* A PMD with a triangle, a material, bones of types 0, 1, 2, 5 and 8, two IK chains on one bone
 * (babylon-mmd's "+" bone), morphs, display lists and English names. */
static inline void pm_sample_pmd(tb *b) {
    tb_put(b, "Pmd", 3);
    tb_f32(b, 1.0f);
    tb_field(b, "seed", 4, 20);
    tb_field(b, "comment", 7, 256);
    tb_u32(b, 3);
    for (int i = 0; i < 3; i++) tb_zero(b, 32), tb_u16(b, (uint16_t)(i % 4)), tb_u16(b, 0), tb_u8(b, 100), tb_u8(b, 0);
    tb_u32(b, 3);
    tb_u16(b, 0), tb_u16(b, 1), tb_u16(b, 2);
    tb_u32(b, 1);
    tb_zero(b, 46), tb_u32(b, 3), tb_zero(b, 20);
    tb_u16(b, 7);
    smp_pmd_bone(b, SMP_SJ_CENTER, 0xFFFF, 1, 1, 0, 8);
    smp_pmd_bone(b, SMP_SJ_LEG, 0, 2, 0, 0, 10);
    smp_pmd_bone(b, SMP_SJ_KNEE, 1, 3, 0, 0, 6);
    smp_pmd_bone(b, SMP_SJ_ANKLE, 2, 0, 0, 0, 1);
    smp_pmd_bone(b, SMP_SJ_LEG_IK, 0xFFFF, 0, 2, 3, 1);
    smp_pmd_bone(b, "eye", 0, 1, 5, 50, 17);
    smp_pmd_bone(b, "twist", 1, 2, 8, 0, 9);
    tb_u16(b, 2);
    for (int c = 0; c < 2; c++) tb_u16(b, 4), tb_u16(b, 3), tb_u8(b, 2), tb_u16(b, 40), tb_f32(b, 0.5f), tb_u16(b, 2), tb_u16(b, 1);
    tb_u16(b, 2);
    tb_field(b, "base", 4, 20), tb_u32(b, 2), tb_u8(b, 0);
    for (int i = 0; i < 2; i++) tb_u32(b, (uint32_t)i), tb_vec3(b, 0, 0, 0);
    tb_field(b, "blink", 5, 20), tb_u32(b, 1), tb_u8(b, 2), tb_u32(b, 1), tb_vec3(b, 0, -0.1f, 0);
    tb_u8(b, 1), tb_u16(b, 1);
    tb_u8(b, 1), tb_field(b, "legs", 4, 50);
    tb_u32(b, 2), tb_u16(b, 1), tb_u8(b, 1), tb_u16(b, 2), tb_u8(b, 1);
    tb_u8(b, 1);
    tb_field(b, "Seed", 4, 20), tb_field(b, "Comment", 7, 256);
    const char *en[7] = {"center", "leg_L", "knee_L", "ankle_L", "leg IK_L", "eye", "twist"};
    for (int i = 0; i < 7; i++) tb_field(b, en[i], strlen(en[i]), 20);
    tb_field(b, "blink", 5, 20), tb_field(b, "Legs", 4, 50);
}

/* ---- BVH ------------------------------------------------------------------------------------------ */

typedef struct smp_joint {
    const char *name;
    int parent; /* index in the table, -1 for the root */
    float x, y, z;
    int end;    /* has an End Site */
} smp_joint;

/* Mixamo names, so the keypoint converter maps them. */
static const smp_joint smp_rig[] = {
    {"Hips", -1, 0, 40, 0, 0},        {"Spine", 0, 0, 10, 0, 0},        {"Neck", 1, 0, 15, 0, 0},
    {"Head", 2, 0, 5, 0, 1},          {"LeftShoulder", 1, 2, 13, 0, 0}, {"LeftArm", 4, 4, 0, 0, 0},
    {"LeftForeArm", 5, 10, 0, 0, 0},  {"LeftHand", 6, 8, 0, 0, 1},      {"RightShoulder", 1, -2, 13, 0, 0},
    {"RightArm", 8, -4, 0, 0, 0},     {"RightForeArm", 9, -10, 0, 0, 0}, {"RightHand", 10, -8, 0, 0, 1},
    {"LeftUpLeg", 0, 4, -2, 0, 0},    {"LeftLeg", 12, 0, -18, 0, 0},    {"LeftFoot", 13, 0, -17, 0, 0},
    {"LeftToeBase", 14, 0, -3, 5, 1}, {"RightUpLeg", 0, -4, -2, 0, 0},  {"RightLeg", 16, 0, -18, 0, 0},
    {"RightFoot", 17, 0, -17, 0, 0},  {"RightToeBase", 18, 0, -3, 5, 1},
};
#define SMP_RIG_COUNT (int)(sizeof smp_rig / sizeof smp_rig[0])

typedef struct smp_text {
    char *d;
    size_t n, cap;
} smp_text;

static inline void smp_put(smp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void smp_put(smp_text *t, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->d ? t->d + t->n : NULL, t->d ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (t->d && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        t->cap = (t->cap + (size_t)k + 1) * 2;
        t->d = realloc(t->d, t->cap);
    }
}

/* variant 0: ZXY rotations, 6 root channels; 1: mixed channel orders, a joint without channels, position
 * channels on a child, "Frames:" glued, CRLF line ends. */
static inline void smp_emit_joint(smp_text *t, int j, int depth, int variant) {
    const smp_joint *s = &smp_rig[j];
    const char *nl = variant ? "\r\n" : "\n";
    smp_put(t, "%*s%s %s%s%*s{%s", 2 * depth, "", j == 0 ? "ROOT" : "JOINT", s->name, nl, 2 * depth, "", nl);
    smp_put(t, "%*s  OFFSET %g %g %g%s", 2 * depth, "", s->x, s->y, s->z, nl);
    if (j == 0) smp_put(t, "%*s  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation%s", 2 * depth, "", nl);
    else if (variant && j == 2) smp_put(t, "%*s  CHANNELS 0%s", 2 * depth, "", nl);
    else if (variant && j == 5) smp_put(t, "%*s  CHANNELS 4 Xrotation Yrotation Zrotation Xposition%s", 2 * depth, "", nl);
    else if (variant && j % 3 == 1) smp_put(t, "%*s  CHANNELS 3 Yrotation Xrotation Zrotation%s", 2 * depth, "", nl);
    else smp_put(t, "%*s  CHANNELS 3 Zrotation Xrotation Yrotation%s", 2 * depth, "", nl);
    for (int c = 0; c < SMP_RIG_COUNT; c++)
        if (smp_rig[c].parent == j) smp_emit_joint(t, c, depth + 1, variant);
    if (s->end)
        smp_put(t, "%*s  End Site%s%*s  {%s%*s    OFFSET 0 3 0%s%*s  }%s", 2 * depth, "", nl, 2 * depth, "", nl, 2 * depth, "",
            nl, 2 * depth, "", nl);
    smp_put(t, "%*s}%s", 2 * depth, "", nl);
}

static inline smp_text pm_sample_bvh(int variant, int frames) {
    smp_text t = {0};
    smp_put(&t, "HIERARCHY%s", variant ? "\r\n" : "\n");
    smp_emit_joint(&t, 0, 0, variant);
    int channels = 6;
    for (int j = 1; j < SMP_RIG_COUNT; j++) channels += variant && j == 2 ? 0 : variant && j == 5 ? 4 : 3;
    if (variant) smp_put(&t, "MOTION\r\nFrames:%d\r\nFrame Time: .0333333\r\n", frames);
    else smp_put(&t, "MOTION\nFrames: %d\nFrame Time: 0.033333\n", frames);
    for (int f = 0; f < frames; f++) {
        for (int c = 0; c < channels; c++) {
            double v = c < 3 ? (c == 1 ? 40.0 : 0.5 * f) : 10.0 * sin(0.7 * f + 0.3 * c);
            smp_put(&t, c ? " %.4f" : "%.4f", v);
        }
        smp_put(&t, "\n");
    }
    return t;
}

/* ---- glTF, GLB, VRM 0.x and 1.0 --------------------------------------------------------------------- */

typedef struct smp_node {
    const char *name;
    int parent;
    float x, y, z;
} smp_node;

static const smp_node smp_nodes[] = {
    {"Hips", -1, 0, 1, 0},           {"Spine", 0, 0, 0.15f, 0},        {"Neck", 1, 0, 0.3f, 0},
    {"Head", 2, 0, 0.1f, 0},         {"LeftUpperArm", 1, 0.2f, 0.25f, 0}, {"LeftLowerArm", 4, 0.25f, 0, 0},
    {"LeftHand", 5, 0.22f, 0, 0},    {"RightUpperArm", 1, -0.2f, 0.25f, 0}, {"RightLowerArm", 7, -0.25f, 0, 0},
    {"RightHand", 8, -0.22f, 0, 0},  {"LeftUpperLeg", 0, 0.1f, -0.05f, 0}, {"LeftLowerLeg", 10, 0, -0.42f, 0},
    {"LeftFoot", 11, 0, -0.4f, 0},   {"LeftToes", 12, 0, -0.05f, 0.12f}, {"RightUpperLeg", 0, -0.1f, -0.05f, 0},
    {"RightLowerLeg", 14, 0, -0.42f, 0}, {"RightFoot", 15, 0, -0.4f, 0}, {"RightToes", 16, 0, -0.05f, 0.12f},
};
#define SMP_NODE_COUNT (int)(sizeof smp_nodes / sizeof smp_nodes[0])

static inline void smp_f32s(tb *b, const float *v, int n) {
    for (int i = 0; i < n; i++) tb_f32(b, v[i]);
}

static inline char *smp_base64(const uint8_t *d, size_t n) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        *o++ = a[v >> 18 & 63];
        *o++ = a[v >> 12 & 63];
        *o++ = i + 1 < n ? a[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? a[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* The animation data: times, translation, rotation, CUBICSPLINE rotation (in, value, out per key), a
 * byte-strided scale and a normalized-short rotation. Returns the bufferViews/accessors JSON. */
static inline void smp_gltf_buffer(tb *bin, smp_text *views) {
    const float times[3] = {0, 0.5f, 1};
    const float tr[9] = {0, 1, 0, 0.1f, 1.02f, 0, 0.2f, 1, 0};
    const float rot[12] = {0, 0, 0, 1, 0.259f, 0, 0, 0.966f, 0, 0.383f, 0, 0.924f};
    float cubic[36] = {0};
    for (int k = 0; k < 3; k++) memcpy(cubic + 12 * k + 4, rot + 4 * k, 16), cubic[12 * k + 8] = 0.1f;
    const size_t offs[6] = {0, 12, 48, 96, 240, 288};
    smp_f32s(bin, times, 3);
    smp_f32s(bin, tr, 9);
    smp_f32s(bin, rot, 12);
    smp_f32s(bin, cubic, 36);
    for (int k = 0; k < 3; k++) { /* scale, stride 16 */
        const float sc[4] = {1, 1 + 0.1f * (float)k, 1, 0};
        smp_f32s(bin, sc, 4);
    }
    const int16_t q[12] = {0, 0, 0, 32767, 8481, 0, 0, 31651, 0, 0, 12539, 30273};
    for (int i = 0; i < 12; i++) tb_u16(bin, (uint16_t)q[i]);
    smp_put(views,
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":144},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48,\"byteStride\":16},{\"buffer\":0,"
        "\"byteOffset\":%zu,\"byteLength\":24}],",
        offs[0], offs[1], offs[2], offs[3], offs[4], offs[5]);
    smp_put(views, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\","
               "\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
               "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":3,"
               "\"componentType\":5126,\"count\":9,\"type\":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,"
               "\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":5,\"componentType\":5122,\"normalized\":true,"
               "\"count\":3,\"type\":\"VEC4\"}],");
}

/* vrm: 0 none, 1 VRM 0.x, 2 VRMC_vrm 1.0. uri: the buffer as a data: URI (else the GLB BIN chunk). */
static inline smp_text smp_gltf_json(const tb *bin, const char *views, int vrm, int uri) {
    smp_text t = {0};
    smp_put(&t, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"procmotion seeds\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],");
    smp_put(&t, "\"nodes\":[");
    for (int i = 0; i < SMP_NODE_COUNT; i++) {
        const smp_node *n = &smp_nodes[i];
        smp_put(&t, "%s{\"name\":\"%s\"", i ? "," : "", n->name);
        if (i == 3) smp_put(&t, ",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,%g,%g,%g,1]", n->x, n->y, n->z);
        else smp_put(&t, ",\"translation\":[%g,%g,%g]", n->x, n->y, n->z);
        if (i == 1) smp_put(&t, ",\"rotation\":[0,0,0,1],\"scale\":[1,1,1]");
        int first = 1;
        for (int c = 0; c < SMP_NODE_COUNT; c++)
            if (smp_nodes[c].parent == i) smp_put(&t, "%s%d", first ? ",\"children\":[" : ",", c), first = 0;
        smp_put(&t, "%s}", first ? "" : "]");
    }
    smp_put(&t, "],\"skins\":[{\"name\":\"body\",\"skeleton\":0,\"joints\":[");
    for (int i = 0; i < SMP_NODE_COUNT; i++) smp_put(&t, "%s%d", i ? "," : "", i);
    smp_put(&t, "]}],");
    smp_put(&t, "\"animations\":[{\"name\":\"dance\",\"channels\":["
            "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
            "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
            "{\"sampler\":2,\"target\":{\"node\":4,\"path\":\"rotation\"}},"
            "{\"sampler\":3,\"target\":{\"node\":7,\"path\":\"rotation\"}},"
            "{\"sampler\":4,\"target\":{\"node\":0,\"path\":\"scale\"}},"
            "{\"sampler\":5,\"target\":{\"node\":11,\"path\":\"rotation\"}},"
            "{\"sampler\":6,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
            "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2,\"interpolation\":\"LINEAR\"},"
            "{\"input\":0,\"output\":2,\"interpolation\":\"STEP\"},{\"input\":0,\"output\":3,\"interpolation\":"
            "\"CUBICSPLINE\"},{\"input\":0,\"output\":4},{\"input\":0,\"output\":5},{\"input\":0,\"output\":0}]},"
            "{\"name\":\"nod\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}],"
            "\"samplers\":[{\"input\":0,\"output\":2,\"interpolation\":\"STEP\"}]}],");
    smp_put(&t, "%s", views);
    if (uri) {
        char *b64 = smp_base64(bin->d, bin->n);
        smp_put(&t, "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}]", bin->n, b64);
        free(b64);
    } else {
        smp_put(&t, "\"buffers\":[{\"byteLength\":%zu}]", bin->n);
    }
    if (vrm == 1) {
        smp_put(&t, ",\"extensionsUsed\":[\"VRM\"],\"extensions\":{\"VRM\":{\"specVersion\":\"0.0\",\"humanoid\":{\"humanBones\":[");
        for (int i = 0; i < SMP_NODE_COUNT; i++)
            smp_put(&t, "%s{\"bone\":\"%c%s\",\"node\":%d}", i ? "," : "", smp_nodes[i].name[0] + 32, smp_nodes[i].name + 1, i);
        smp_put(&t, "]}}}");
    } else if (vrm == 2) {
        smp_put(&t, ",\"extensionsUsed\":[\"VRMC_vrm\"],\"extensions\":{\"VRMC_vrm\":{\"specVersion\":\"1.0\",\"humanoid\":{\"humanBones\":{");
        for (int i = 0; i < SMP_NODE_COUNT; i++)
            smp_put(&t, "%s\"%c%s\":{\"node\":%d}", i ? "," : "", smp_nodes[i].name[0] + 32, smp_nodes[i].name + 1, i);
        smp_put(&t, "}}}}");
    }
    smp_put(&t, "}");
    return t;
}

static inline tb smp_glb(const smp_text *json, const tb *bin) {
    tb b = {0};
    size_t jn = (json->n + 3) & ~(size_t)3, bn = (bin->n + 3) & ~(size_t)3;
    tb_put(&b, "glTF", 4);
    tb_u32(&b, 2);
    tb_u32(&b, (uint32_t)(12 + 8 + jn + 8 + bn));
    tb_u32(&b, (uint32_t)jn);
    tb_put(&b, "JSON", 4);
    tb_put(&b, json->d, json->n);
    for (size_t i = json->n; i < jn; i++) tb_u8(&b, ' ');
    tb_u32(&b, (uint32_t)bn);
    tb_put(&b, "BIN\0", 4);
    tb_put(&b, bin->d, bin->n);
    tb_zero(&b, bn - bin->n);
    return b;
}

/* vrm: 0 plain glTF, 1 VRM 0.x, 2 VRM 1.0 (VRMC_vrm); binary: GLB (else .gltf JSON with a data: URI). */
static inline tb pm_sample_gltf(int vrm, int binary) {
    tb bin = {0}, out = {0};
    smp_text views = {0};
    smp_gltf_buffer(&bin, &views);
    smp_text t = smp_gltf_json(&bin, views.d, vrm, !binary);
    if (binary) out = smp_glb(&t, &bin);
    else tb_put(&out, t.d, t.n);
    free(t.d);
    free(views.d);
    free(bin.d);
    return out;
}

/* ---- keypoint JSON (mediapipe33@0.1.0) ------------------------------------------------------------ */

/* variant 0: timestamps, points as arrays; 1: fps only, mirrored, one frame as objects. */
static inline smp_text pm_sample_kp_json(int variant) {
    smp_text t = {0};
    smp_put(&t, "{\"format\":\"%s\",\"fps\":30,\"mirrored\":%s,\"frames\":[", PM_KP_JSON_FORMAT, variant ? "true" : "false");
    for (int f = 0; f < 3; f++) {
        smp_put(&t, "%s{", f ? "," : "");
        if (!variant) smp_put(&t, "\"timestamp\":%d,", 33 * f);
        smp_put(&t, "\"%s\":[", f == 1 ? "landmarks" : "points");
        for (int p = 0; p < PM_KP_POINT_COUNT; p++) {
            double x = 0.5 + 0.01 * ((p * 7) % 11 - 5) + 0.002 * f, y = 0.2 + 0.02 * p, z = -0.01 * (p % 5);
            double v = p % 9 == 8 ? 0.3 : 0.95;
            if (variant && f == 2) smp_put(&t, "%s{\"x\":%.4f,\"y\":%.4f,\"z\":%.4f,\"visibility\":%.2f}", p ? "," : "", x, y, z, v);
            else smp_put(&t, "%s[%.4f,%.4f,%.4f,%.2f]", p ? "," : "", x, y, z, v);
        }
        smp_put(&t, "]}");
    }
    smp_put(&t, "]}");
    return t;
}

/* The keypoints of a BVH as this module's NDJSON text and 239-byte binary frames. */
static inline void pm_sample_kp_streams(const smp_text *bvh, smp_text *ndjson, tb *binary) {
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    if (pm_kp_from_data((const uint8_t *)bvh->d, bvh->n, PM_KP_FORMAT_BVH, NULL, &s, &err) != PM_OK) smp_die("kp", &err);
    size_t n = 0;
    pm_kp_write_ndjson(s, NULL, 0, &n, &err);
    *ndjson = (smp_text){malloc(n + 1), n, n + 1};
    if (pm_kp_write_ndjson(s, ndjson->d, n + 1, &n, &err) != PM_OK) smp_die("ndjson", &err);
    pm_kp_write_binary(s, NULL, 0, &n, &err);
    *binary = (tb){malloc(n), n, n};
    if (pm_kp_write_binary(s, binary->d, n, &n, &err) != PM_OK) smp_die("binary", &err);
    pm_kp_free(s);
}

/* ---- catwalk parameters, groove settings, tracing timelines -------------------------------------- */

/* variant 0: every key set; 1: BPM with the posed arms and a traverse. */
static inline smp_text pm_sample_catwalk_json(int variant) {
    smp_text t = {0};
    if (variant == 0)
        smp_put(&t, "{\"bpm\":null,\"speed\":1.2,\"stepCadence\":\"beat\",\"armPose\":\"swing\",\"traverse\":false,"
                    "\"uTurn\":false,\"traverseDistance\":0,\"hipSway\":0.7,\"stepHeight\":0.4,\"stride\":0.6,"
                    "\"crossStep\":0.5,\"hipTwist\":0.5,\"pelvisDrop\":0.4,\"torsoTwist\":0.5,\"torsoSway\":0.5,"
                    "\"lean\":-0.1,\"headFollow\":0.3,\"toeOff\":0.5,\"heelStrike\":0.4,\"bob\":0.5,"
                    "\"stanceKnee\":0.3,\"armSwing\":0.5,\"elbowBend\":0.5,\"style\":\"feminine\",\"poseArmAngle\":[70,30],\"blink\":1,\"expression\":0.25,"
                    "\"seed\":7,\"positionTolerance\":0.02,\"rotationTolerance\":0.5}");
    else
        smp_put(&t, "{\"bpm\":128,\"stepCadence\":\"2beat\",\"armPose\":\"posed\",\"uTurn\":true,"
                    "\"traverseDistance\":40,\"poseArmAngle\":{\"shoulder\":60,\"elbow\":45},\"blink\":0}");
    return t;
}

/* The groove settings: every field (flags 0) after merging a few changes. */
static inline smp_text pm_sample_groove_json(void) {
    pm_groove_config cfg;
    pm_groove_config_reset(&cfg);
    pm_error err = {0};
    const char *change = "{\"joints\":{\"head\":{\"amp\":0.5}}}";
    if (pm_groove_config_parse(change, strlen(change), &cfg, &err) != PM_OK) smp_die("groove parse", &err);
    size_t n = 0;
    pm_groove_config_to_json(&cfg, 0, NULL, 0, &n, &err);
    smp_text t = {malloc(n + 1), n, n + 1};
    if (pm_groove_config_to_json(&cfg, 0, t.d, n + 1, &n, &err) != PM_OK) smp_die("groove json", &err);
    return t;
}

/* A timeline on the mannequin: a curved left-hand trace of 4 keyframes, a captured keyframe, 96 BPM. */
static inline smp_text pm_sample_timeline_json(void) {
    pm_skeleton *sk = NULL;
    pm_timeline *tl = NULL;
    pm_error err = {0};
    if (pm_mannequin_skeleton(NULL, &sk, &err) != PM_OK) smp_die("mannequin", &err);
    pm_timeline_options o = {.bpm = 96};
    if (pm_timeline_create(sk, &o, &tl, &err) != PM_OK) smp_die("timeline", &err);
    const pm_vec3 pts[4] = {{3, -2, -1}, {4, 0, -2}, {3, 2, -1}, {2, 1, 0}};
    pm_trajectory tr = {PM_TRAJECTORY_CURVE, 4, pts, false, {0, 0, 0}};
    pm_trace_generate gen = {.limb = PM_LIMB_LEFT_HAND, .trajectory = &tr, .count = 4, .start_beat = 1,
                             .easing = pm_easing_from_preset(PM_EASING_EASE_IN_OUT)};
    if (pm_timeline_generate(tl, &gen, NULL, &err) != PM_OK) smp_die("timeline generate", &err);
    if (pm_timeline_capture_keyframe(tl, 6, pm_easing_from_preset(PM_EASING_LINEAR), NULL, &err) != PM_OK)
        smp_die("timeline capture", &err);
    size_t n = 0;
    pm_timeline_to_json(tl, NULL, 0, &n, &err);
    smp_text t = {malloc(n + 1), n, n + 1};
    if (pm_timeline_to_json(tl, t.d, n + 1, &n, &err) != PM_OK) smp_die("timeline json", &err);
    pm_timeline_free(tl);
    pm_skeleton_free(sk);
    return t;
}

#endif
