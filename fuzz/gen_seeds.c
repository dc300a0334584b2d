/* pm_fuzz_seeds OUTDIR [FIXTURES]: write the seed corpora of the fuzz targets, one folder per target
 * (OUTDIR/vmd, OUTDIR/pmx, ...), from small files made here with the library (a motion with every VMD
 * section, the mannequin PMX, hand-made PMX 2.1 and PMD files, BVH, glTF/GLB with every sampler kind,
 * keypoint JSON/NDJSON/binary, Shift-JIS names, skeleton JSON) and, when the fixtures folder is there,
 * from ../shared/fixtures: small fixtures whole, large ones cut down (a VMD's first keys, a BVH's first
 * frames). Nothing is copied into the repository: build-scripts/fuzz.sh writes into build/fuzz/seeds.
 * Output is deterministic. */
#include "pm_test.h" /* pm_test_read_file */
#include "pmx_builder.h"

#include "procmotion/keypoints.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/skeleton.h"
#include "procmotion/text.h"
#include "procmotion/vmd.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *g_out;
static int g_files;

static void die(const char *what, const pm_error *err) {
    fprintf(stderr, "pm_fuzz_seeds: %s: %s\n", what, err ? err->message : strerror(errno));
    exit(1);
}

/* Write OUT/<target>/<name>. */
static void seed(const char *target, const char *name, const void *data, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", g_out, target);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/%s/%s", g_out, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) die(path, NULL);
    g_files++;
}

static uint32_t seed_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static unsigned char *read_file(const char *dir, const char *rel, size_t *size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return pm_test_read_file(path, size);
}

/* ---- VMD ----------------------------------------------------------------------------------------- */

static uint8_t *vmd_bytes(const pm_vmd *v, size_t *size) {
    pm_error err = {0};
    if (pm_vmd_write(v, NULL, 0, size, &err) != PM_OK) die("vmd size", &err);
    uint8_t *out = malloc(*size);
    if (pm_vmd_write(v, out, *size, size, &err) != PM_OK) die("vmd write", &err);
    return out;
}

/* A short dance on the MMD standard bones with every section: Bezier and linear keys, leg IK with
 * translation, morphs, a camera, a light, a self-shadow and IK on/off property keys. */
static uint8_t *make_vmd(size_t *size) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    if (pm_vmd_create(NULL, &v, &err) != PM_OK) die("vmd create", &err);
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
                die("bone key", &err);
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
    if (pm_vmd_add_property_key(v, 20, true, 2, iks, off, &err) != PM_OK) die("property key", &err);
    uint8_t *out = vmd_bytes(v, size);
    pm_vmd_free(v);
    return out;
}

/* About `keep` keys of every section of a fixture, taken evenly over the file (so several bones and
 * frames), as a new small file (names that Shift-JIS cannot encode back are left out). */
static uint8_t *cut_vmd(const uint8_t *data, size_t n, uint32_t keep, size_t *size) {
    pm_vmd *in = NULL, *v = NULL;
    pm_error err = {0};
    if (pm_vmd_read(data, n, NULL, &in, &err) != PM_OK) return NULL;
    pm_vmd_create(NULL, &v, &err);
    pm_vmd_set_model_name(v, in->model_name.data, &err);
    uint32_t step = in->bones.count / keep + 1;
    for (uint32_t i = 0; i < in->bones.count; i += step)
        pm_vmd_add_bone_key(v, in->bone_names.items[in->bones.name_index[i]].data, in->bones.frame[i],
                            in->bones.position + 3 * i, in->bones.rotation + 4 * i, in->bones.interpolation + 64 * i, &err);
    for (uint32_t i = 0; i < in->morphs.count && i < keep / 4; i++)
        pm_vmd_add_morph_key(v, in->morph_names.items[in->morphs.name_index[i]].data, in->morphs.frame[i],
                             in->morphs.weight[i], &err);
    const pm_vmd_camera_keys *c = &in->cameras;
    for (uint32_t i = 0; i < c->count && i < keep / 4; i++)
        pm_vmd_add_camera_key(v, c->frame[i], c->distance[i], c->position + 3 * i, c->rotation + 3 * i,
                              c->interpolation + 24 * i, c->fov[i], c->perspective[i], &err);
    *size = 0;
    uint8_t *out = NULL;
    size_t need = 0;
    if (pm_vmd_write(v, NULL, 0, &need, &err) == PM_OK) out = vmd_bytes(v, size);
    pm_vmd_free(v);
    pm_vmd_free(in);
    return out;
}

static void vmd_seeds(const char *fixtures) {
    size_t n;
    uint8_t *vmd = make_vmd(&n);
    const char *targets[] = {"vmd", "pose", "kp_auto"};
    for (int t = 0; t < 3; t++) seed(targets[t], "dance.vmd", vmd, n);
    /* the old header: "Vocaloid Motion Data file" with a 10-byte model name */
    uint8_t *v1 = malloc(n);
    memset(v1, 0, 40);
    memcpy(v1, "Vocaloid Motion Data file", 25);
    memcpy(v1 + 30, "old model", 9);
    memcpy(v1 + 40, vmd + 50, n - 50);
    seed("vmd", "v1-header.vmd", v1, n - 10);
    free(v1);
    /* a file that stops after the light section (common in real files) */
    size_t off = 50;
    const size_t rec[4] = {PM_VMD_BONE_KEY_SIZE, PM_VMD_MORPH_KEY_SIZE, PM_VMD_CAMERA_KEY_SIZE, PM_VMD_LIGHT_KEY_SIZE};
    for (int s = 0; s < 4; s++) off += 4 + rec[s] * seed_le32(vmd + off);
    seed("vmd", "ends-after-light.vmd", vmd, off);
    seed("pose", "ends-after-light.vmd", vmd, off);
    free(vmd);
    if (!fixtures) return;
    static const char *files[] = {"mei_wait.vmd", "gene_02_laugh.vmd", "babylon_physics_toggle_test_yyb10th.vmd",
                                  "mmt_test_model_test_motion.vmd", "wavefile_camera.vmd"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "vmd/%s", files[i]);
        size_t fn;
        uint8_t *data = read_file(fixtures, rel, &fn);
        if (!data) continue;
        size_t cn;
        uint8_t *cut = cut_vmd(data, fn, 80, &cn);
        if (cut) {
            for (int t = 0; t < 3; t++) seed(targets[t], files[i], cut, cn);
            free(cut);
        }
        if (fn <= 16384) {
            char whole[300];
            snprintf(whole, sizeof whole, "whole-%s", files[i]);
            seed("vmd", whole, data, fn);
        }
        free(data);
    }
}

/* ---- PMX, PMD, skeleton JSON --------------------------------------------------------------------- */

static void skeleton_json_seed(const pm_skeleton *s, const char *name) {
    pm_error err = {0};
    size_t n = 0;
    if (pm_skeleton_to_json(s, NULL, 0, &n, &err) != PM_OK) die("skeleton json", &err);
    char *text = malloc(n + 1);
    pm_skeleton_to_json(s, text, n + 1, &n, &err);
    seed("skeleton_json", name, text, n);
    free(text);
}

/* A PMX 2.1 with 1-byte indices, one additional UV, a triangle, a texture, a material, bones with
 * every optional field (tail bone, append, fixed axis, local axes, external parent, IK with limits)
 * and one morph of every type the reader knows. */
static void make_pmx21(tb *b) {
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

#define SJ_CENTER "\x83\x5a\x83\x93\x83\x5e\x81\x5b" /* センター */
#define SJ_LEG "\x8d\xb6\x91\xab"                    /* 左足 */
#define SJ_KNEE "\x8d\xb6\x82\xd0\x82\xb4"           /* 左ひざ */
#define SJ_ANKLE "\x8d\xb6\x91\xab\x8e\xf1"          /* 左足首 */
#define SJ_LEG_IK "\x8d\xb6\x91\xab\x82\x68\x82\x6a" /* 左足ＩＫ */

static void pmd_bone(tb *b, const char *name, uint16_t parent, uint16_t tail, uint8_t type, uint16_t ik, float y) {
    tb_field(b, name, strlen(name), 20);
    tb_u16(b, parent), tb_u16(b, tail), tb_u8(b, type), tb_u16(b, ik);
    tb_vec3(b, 0.5f, y, 0);
}

/* A PMD with a triangle, a material, bones of types 0, 1, 2, 5 and 8, two IK chains on one bone
 * (babylon-mmd's "+" bone), morphs, display lists and English names. */
static void make_pmd(tb *b) {
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
    pmd_bone(b, SJ_CENTER, 0xFFFF, 1, 1, 0, 8);
    pmd_bone(b, SJ_LEG, 0, 2, 0, 0, 10);
    pmd_bone(b, SJ_KNEE, 1, 3, 0, 0, 6);
    pmd_bone(b, SJ_ANKLE, 2, 0, 0, 0, 1);
    pmd_bone(b, SJ_LEG_IK, 0xFFFF, 0, 2, 3, 1);
    pmd_bone(b, "eye", 0, 1, 5, 50, 17);
    pmd_bone(b, "twist", 1, 2, 8, 0, 9);
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

static void model_seeds(const char *fixtures) {
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    if (pm_mannequin_skeleton(NULL, &sk, &err) != PM_OK) die("mannequin", &err);
    skeleton_json_seed(sk, "mannequin.json");
    for (uint8_t enc = 0; enc < 2; enc++) {
        pm_pmx_model model = {.skeleton = sk};
        pm_pmx_write_options wo = {.encoding = enc};
        size_t n = 0;
        pm_pmx_write(&model, &wo, NULL, 0, &n, &err);
        uint8_t *out = malloc(n);
        if (pm_pmx_write(&model, &wo, out, n, &n, &err) != PM_OK) die("pmx write", &err);
        seed("pmx", enc ? "mannequin-bones-utf8.pmx" : "mannequin-bones-utf16.pmx", out, n);
        free(out);
    }
    pm_skeleton_free(sk);
    size_t n = 0;
    pm_mannequin_pmx(NULL, NULL, 0, &n, &err);
    uint8_t *full = malloc(n);
    if (pm_mannequin_pmx(NULL, full, n, &n, &err) != PM_OK) die("mannequin pmx", &err);
    seed("pmx", "mannequin.pmx", full, n);
    free(full);

    tb b = {0};
    make_pmx21(&b);
    seed("pmx", "hand-made-2.1.pmx", b.d, b.n);
    if (pm_pmx_read(b.d, b.n, NULL, &sk, &err) != PM_OK) die("hand-made PMX does not read", &err);
    skeleton_json_seed(sk, "hand-made-2.1.json");
    pm_skeleton_free(sk);
    free(b.d);
    b = (tb){0};
    make_pmd(&b);
    seed("pmd", "hand-made.pmd", b.d, b.n);
    if (pm_pmd_read(b.d, b.n, NULL, &sk, &err) != PM_OK) die("hand-made PMD does not read", &err);
    skeleton_json_seed(sk, "hand-made-pmd.json");
    pm_skeleton_free(sk);
    free(b.d);

    if (!fixtures) return;
    static const char *files[] = {"pmx/mmt_test_model.pmx", "pmx/yw_test_model/yw_test_model.pmx"};
    for (int i = 0; i < 2; i++) {
        size_t fn;
        uint8_t *data = read_file(fixtures, files[i], &fn);
        if (!data) continue;
        const char *base = strrchr(files[i], '/') + 1;
        seed("pmx", base, data, fn);
        if (pm_pmx_read(data, fn, NULL, &sk, &err) == PM_OK) {
            char name[256];
            snprintf(name, sizeof name, "%s.json", base);
            skeleton_json_seed(sk, name);
            pm_skeleton_free(sk);
        }
        free(data);
    }
}

/* ---- BVH ------------------------------------------------------------------------------------------ */

typedef struct seed_joint {
    const char *name;
    int parent; /* index in the table, -1 for the root */
    float x, y, z;
    int end;    /* has an End Site */
} seed_joint;

/* Mixamo names, so the keypoint converter maps them. */
static const seed_joint seed_rig[] = {
    {"Hips", -1, 0, 40, 0, 0},        {"Spine", 0, 0, 10, 0, 0},        {"Neck", 1, 0, 15, 0, 0},
    {"Head", 2, 0, 5, 0, 1},          {"LeftShoulder", 1, 2, 13, 0, 0}, {"LeftArm", 4, 4, 0, 0, 0},
    {"LeftForeArm", 5, 10, 0, 0, 0},  {"LeftHand", 6, 8, 0, 0, 1},      {"RightShoulder", 1, -2, 13, 0, 0},
    {"RightArm", 8, -4, 0, 0, 0},     {"RightForeArm", 9, -10, 0, 0, 0}, {"RightHand", 10, -8, 0, 0, 1},
    {"LeftUpLeg", 0, 4, -2, 0, 0},    {"LeftLeg", 12, 0, -18, 0, 0},    {"LeftFoot", 13, 0, -17, 0, 0},
    {"LeftToeBase", 14, 0, -3, 5, 1}, {"RightUpLeg", 0, -4, -2, 0, 0},  {"RightLeg", 16, 0, -18, 0, 0},
    {"RightFoot", 17, 0, -17, 0, 0},  {"RightToeBase", 18, 0, -3, 5, 1},
};
#define SEED_RIG_COUNT (int)(sizeof seed_rig / sizeof seed_rig[0])

typedef struct text {
    char *d;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
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
static void emit_joint(text *t, int j, int depth, int variant) {
    const seed_joint *s = &seed_rig[j];
    const char *nl = variant ? "\r\n" : "\n";
    put(t, "%*s%s %s%s%*s{%s", 2 * depth, "", j == 0 ? "ROOT" : "JOINT", s->name, nl, 2 * depth, "", nl);
    put(t, "%*s  OFFSET %g %g %g%s", 2 * depth, "", s->x, s->y, s->z, nl);
    if (j == 0) put(t, "%*s  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation%s", 2 * depth, "", nl);
    else if (variant && j == 2) put(t, "%*s  CHANNELS 0%s", 2 * depth, "", nl);
    else if (variant && j == 5) put(t, "%*s  CHANNELS 4 Xrotation Yrotation Zrotation Xposition%s", 2 * depth, "", nl);
    else if (variant && j % 3 == 1) put(t, "%*s  CHANNELS 3 Yrotation Xrotation Zrotation%s", 2 * depth, "", nl);
    else put(t, "%*s  CHANNELS 3 Zrotation Xrotation Yrotation%s", 2 * depth, "", nl);
    for (int c = 0; c < SEED_RIG_COUNT; c++)
        if (seed_rig[c].parent == j) emit_joint(t, c, depth + 1, variant);
    if (s->end)
        put(t, "%*s  End Site%s%*s  {%s%*s    OFFSET 0 3 0%s%*s  }%s", 2 * depth, "", nl, 2 * depth, "", nl, 2 * depth, "",
            nl, 2 * depth, "", nl);
    put(t, "%*s}%s", 2 * depth, "", nl);
}

static text make_bvh(int variant, int frames) {
    text t = {0};
    put(&t, "HIERARCHY%s", variant ? "\r\n" : "\n");
    emit_joint(&t, 0, 0, variant);
    int channels = 6;
    for (int j = 1; j < SEED_RIG_COUNT; j++) channels += variant && j == 2 ? 0 : variant && j == 5 ? 4 : 3;
    if (variant) put(&t, "MOTION\r\nFrames:%d\r\nFrame Time: .0333333\r\n", frames);
    else put(&t, "MOTION\nFrames: %d\nFrame Time: 0.033333\n", frames);
    for (int f = 0; f < frames; f++) {
        for (int c = 0; c < channels; c++) {
            double v = c < 3 ? (c == 1 ? 40.0 : 0.5 * f) : 10.0 * sin(0.7 * f + 0.3 * c);
            put(&t, c ? " %.4f" : "%.4f", v);
        }
        put(&t, "\n");
    }
    return t;
}

/* The first `frames` frames of a BVH fixture: its hierarchy, "Frames: n" and n motion lines. */
static text cut_bvh(const char *data, size_t n, int frames) {
    text t = {0};
    const char *motion = strstr(data, "MOTION");
    const char *ft = motion ? strstr(motion, "Frame Time:") : NULL;
    if (!ft) return t;
    const char *line = memchr(ft, '\n', n - (size_t)(ft - data));
    if (!line) return t;
    put(&t, "%.*sMOTION\nFrames: %d\n%.*s", (int)(motion - data), data, frames, (int)(line + 1 - ft), ft);
    const char *p = line + 1, *end = data + n;
    for (int f = 0; f < frames && p < end; f++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        e = e ? e + 1 : end;
        put(&t, "%.*s", (int)(e - p), p);
        p = e;
    }
    return t;
}

static void bvh_seeds(const char *fixtures) {
    for (int variant = 0; variant < 2; variant++) {
        text t = make_bvh(variant, variant ? 2 : 4);
        seed("bvh", variant ? "mixed-channels.bvh" : "mixamo.bvh", t.d, t.n);
        seed("kp_auto", variant ? "mixed-channels.bvh" : "mixamo.bvh", t.d, t.n);
        free(t.d);
    }
    if (!fixtures) return;
    size_t n;
    char *data = (char *)read_file(fixtures, "bvh/cmu_131_01.bvh", &n);
    if (!data) return;
    data = realloc(data, n + 1);
    data[n] = '\0';
    text t = cut_bvh(data, n, 3);
    if (t.d) {
        seed("bvh", "cmu_131_01-3-frames.bvh", t.d, t.n);
        seed("kp_auto", "cmu_131_01-3-frames.bvh", t.d, t.n);
    }
    free(t.d);
    free(data);
}

/* ---- glTF, GLB, VRM 0.x and 1.0 --------------------------------------------------------------------- */

typedef struct seed_node {
    const char *name;
    int parent;
    float x, y, z;
} seed_node;

static const seed_node seed_nodes[] = {
    {"Hips", -1, 0, 1, 0},           {"Spine", 0, 0, 0.15f, 0},        {"Neck", 1, 0, 0.3f, 0},
    {"Head", 2, 0, 0.1f, 0},         {"LeftUpperArm", 1, 0.2f, 0.25f, 0}, {"LeftLowerArm", 4, 0.25f, 0, 0},
    {"LeftHand", 5, 0.22f, 0, 0},    {"RightUpperArm", 1, -0.2f, 0.25f, 0}, {"RightLowerArm", 7, -0.25f, 0, 0},
    {"RightHand", 8, -0.22f, 0, 0},  {"LeftUpperLeg", 0, 0.1f, -0.05f, 0}, {"LeftLowerLeg", 10, 0, -0.42f, 0},
    {"LeftFoot", 11, 0, -0.4f, 0},   {"LeftToes", 12, 0, -0.05f, 0.12f}, {"RightUpperLeg", 0, -0.1f, -0.05f, 0},
    {"RightLowerLeg", 14, 0, -0.42f, 0}, {"RightFoot", 15, 0, -0.4f, 0}, {"RightToes", 16, 0, -0.05f, 0.12f},
};
#define SEED_NODE_COUNT (int)(sizeof seed_nodes / sizeof seed_nodes[0])

static void put_f32(tb *b, const float *v, int n) {
    for (int i = 0; i < n; i++) tb_f32(b, v[i]);
}

static char *base64(const uint8_t *d, size_t n) {
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
static void gltf_buffer(tb *bin, text *views) {
    const float times[3] = {0, 0.5f, 1};
    const float tr[9] = {0, 1, 0, 0.1f, 1.02f, 0, 0.2f, 1, 0};
    const float rot[12] = {0, 0, 0, 1, 0.259f, 0, 0, 0.966f, 0, 0.383f, 0, 0.924f};
    float cubic[36] = {0};
    for (int k = 0; k < 3; k++) memcpy(cubic + 12 * k + 4, rot + 4 * k, 16), cubic[12 * k + 8] = 0.1f;
    const size_t offs[6] = {0, 12, 48, 96, 240, 288};
    put_f32(bin, times, 3);
    put_f32(bin, tr, 9);
    put_f32(bin, rot, 12);
    put_f32(bin, cubic, 36);
    for (int k = 0; k < 3; k++) { /* scale, stride 16 */
        const float sc[4] = {1, 1 + 0.1f * (float)k, 1, 0};
        put_f32(bin, sc, 4);
    }
    const int16_t q[12] = {0, 0, 0, 32767, 8481, 0, 0, 31651, 0, 0, 12539, 30273};
    for (int i = 0; i < 12; i++) tb_u16(bin, (uint16_t)q[i]);
    put(views,
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":144},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48,\"byteStride\":16},{\"buffer\":0,"
        "\"byteOffset\":%zu,\"byteLength\":24}],",
        offs[0], offs[1], offs[2], offs[3], offs[4], offs[5]);
    put(views, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\","
               "\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
               "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":3,"
               "\"componentType\":5126,\"count\":9,\"type\":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,"
               "\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":5,\"componentType\":5122,\"normalized\":true,"
               "\"count\":3,\"type\":\"VEC4\"}],");
}

/* vrm: 0 none, 1 VRM 0.x, 2 VRMC_vrm 1.0. uri: the buffer as a data: URI (else the GLB BIN chunk). */
static text gltf_json(const tb *bin, const char *views, int vrm, int uri) {
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"procmotion seeds\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],");
    put(&t, "\"nodes\":[");
    for (int i = 0; i < SEED_NODE_COUNT; i++) {
        const seed_node *n = &seed_nodes[i];
        put(&t, "%s{\"name\":\"%s\"", i ? "," : "", n->name);
        if (i == 3) put(&t, ",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,%g,%g,%g,1]", n->x, n->y, n->z);
        else put(&t, ",\"translation\":[%g,%g,%g]", n->x, n->y, n->z);
        if (i == 1) put(&t, ",\"rotation\":[0,0,0,1],\"scale\":[1,1,1]");
        int first = 1;
        for (int c = 0; c < SEED_NODE_COUNT; c++)
            if (seed_nodes[c].parent == i) put(&t, "%s%d", first ? ",\"children\":[" : ",", c), first = 0;
        put(&t, "%s}", first ? "" : "]");
    }
    put(&t, "],\"skins\":[{\"name\":\"body\",\"skeleton\":0,\"joints\":[");
    for (int i = 0; i < SEED_NODE_COUNT; i++) put(&t, "%s%d", i ? "," : "", i);
    put(&t, "]}],");
    put(&t, "\"animations\":[{\"name\":\"dance\",\"channels\":["
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
    put(&t, "%s", views);
    if (uri) {
        char *b64 = base64(bin->d, bin->n);
        put(&t, "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}]", bin->n, b64);
        free(b64);
    } else {
        put(&t, "\"buffers\":[{\"byteLength\":%zu}]", bin->n);
    }
    if (vrm == 1) {
        put(&t, ",\"extensionsUsed\":[\"VRM\"],\"extensions\":{\"VRM\":{\"specVersion\":\"0.0\",\"humanoid\":{\"humanBones\":[");
        for (int i = 0; i < SEED_NODE_COUNT; i++)
            put(&t, "%s{\"bone\":\"%c%s\",\"node\":%d}", i ? "," : "", seed_nodes[i].name[0] + 32, seed_nodes[i].name + 1, i);
        put(&t, "]}}}");
    } else if (vrm == 2) {
        put(&t, ",\"extensionsUsed\":[\"VRMC_vrm\"],\"extensions\":{\"VRMC_vrm\":{\"specVersion\":\"1.0\",\"humanoid\":{\"humanBones\":{");
        for (int i = 0; i < SEED_NODE_COUNT; i++)
            put(&t, "%s\"%c%s\":{\"node\":%d}", i ? "," : "", seed_nodes[i].name[0] + 32, seed_nodes[i].name + 1, i);
        put(&t, "}}}}");
    }
    put(&t, "}");
    return t;
}

static tb glb(const text *json, const tb *bin) {
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

static void gltf_seeds(const char *fixtures) {
    tb bin = {0};
    text views = {0};
    gltf_buffer(&bin, &views);
    text t = gltf_json(&bin, views.d, 0, 1);
    seed("gltf", "humanoid.gltf", t.d, t.n);
    seed("kp_auto", "humanoid.gltf", t.d, t.n);
    free(t.d);
    static const char *names[3] = {"humanoid.glb", "humanoid-vrm0.vrm", "humanoid-vrm1.vrm"};
    for (int vrm = 0; vrm < 3; vrm++) {
        t = gltf_json(&bin, views.d, vrm, 0);
        tb b = glb(&t, &bin);
        seed("gltf", names[vrm], b.d, b.n);
        seed("kp_auto", names[vrm], b.d, b.n);
        free(b.d);
        free(t.d);
    }
    free(bin.d);
    free(views.d);
    if (!fixtures) return;
    static const char *files[] = {"vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm",
                                  "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"};
    for (int i = 0; i < 2; i++) {
        size_t n;
        uint8_t *data = read_file(fixtures, files[i], &n);
        if (!data) continue;
        seed("gltf", strrchr(files[i], '/') + 1, data, n);
        free(data);
    }
}

/* ---- keypoints: mediapipe33 JSON, NDJSON, binary frames ------------------------------------------- */

static void kp_seeds(void) {
    /* JSON: one frame as arrays with timestamps, one as objects; and an fps-only variant */
    for (int variant = 0; variant < 2; variant++) {
        text t = {0};
        put(&t, "{\"format\":\"%s\",\"fps\":30,\"mirrored\":%s,\"frames\":[", PM_KP_JSON_FORMAT, variant ? "true" : "false");
        for (int f = 0; f < 3; f++) {
            put(&t, "%s{", f ? "," : "");
            if (!variant) put(&t, "\"timestamp\":%d,", 33 * f);
            put(&t, "\"%s\":[", f == 1 ? "landmarks" : "points");
            for (int p = 0; p < PM_KP_POINT_COUNT; p++) {
                double x = 0.5 + 0.01 * ((p * 7) % 11 - 5) + 0.002 * f, y = 0.2 + 0.02 * p, z = -0.01 * (p % 5);
                double v = p % 9 == 8 ? 0.3 : 0.95;
                if (variant && f == 2) put(&t, "%s{\"x\":%.4f,\"y\":%.4f,\"z\":%.4f,\"visibility\":%.2f}", p ? "," : "", x, y, z, v);
                else put(&t, "%s[%.4f,%.4f,%.4f,%.2f]", p ? "," : "", x, y, z, v);
            }
            put(&t, "]}");
        }
        put(&t, "]}");
        const char *name = variant ? "fps-objects.json" : "timestamps.json";
        seed("kp_json", name, t.d, t.n);
        seed("kp_auto", name, t.d, t.n);
        free(t.d);
    }
    /* NDJSON and binary from the small BVH */
    text bvh = make_bvh(0, 4);
    pm_kp_sequence *seq = NULL;
    pm_error err = {0};
    if (pm_kp_from_data((const uint8_t *)bvh.d, bvh.n, PM_KP_FORMAT_BVH, NULL, &seq, &err) != PM_OK) die("kp", &err);
    free(bvh.d);
    size_t n = 0;
    pm_kp_write_ndjson(seq, NULL, 0, &n, &err);
    char *nd = malloc(n + 1);
    if (pm_kp_write_ndjson(seq, nd, n + 1, &n, &err) != PM_OK) die("ndjson", &err);
    seed("kp_ndjson", "mixamo.ndjson", nd, n);
    seed("kp_auto", "mixamo.ndjson", nd, n);
    const char *line2 = strchr(nd, '\n');
    if (line2) seed("kp_ndjson", "one-line.ndjson", nd, (size_t)(line2 - nd));
    free(nd);
    pm_kp_write_binary(seq, NULL, 0, &n, &err);
    uint8_t *bin = malloc(n);
    if (pm_kp_write_binary(seq, bin, n, &n, &err) != PM_OK) die("binary", &err);
    seed("kp_frame", "one-frame.kp", bin, PM_KP_FRAME_SIZE);
    seed("kp_frame", "four-frames.kp", bin, n);
    seed("kp_auto", "four-frames.kp", bin, n);
    free(bin);
    pm_kp_free(seq);
}

/* ---- Shift-JIS names and UTF-8 text; IK limbs -------------------------------------------------------- */

static void sjis_seeds(void) {
    static const char *utf8[] = {
        "センター", "左足ＩＫ", "右人指１", "ｾﾝﾀｰ half-width", "①②Ⅰ㈱ NEC row 13", "纊褜鍈 IBM extensions",
        "\xEE\x80\x80\xEE\x9D\x97 user-defined", "mixed ascii 左腕 and ～", "表情 まばたき あ 笑い",
    };
    for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0]; i++) {
        uint8_t out[128];
        size_t n = 0;
        pm_error err = {0};
        char name[32];
        snprintf(name, sizeof name, "utf8-%zu.txt", i);
        seed("sjis", name, utf8[i], strlen(utf8[i]));
        if (pm_utf8_to_sjis(utf8[i], strlen(utf8[i]), out, sizeof out, &n, NULL, &err) != PM_OK) die(utf8[i], &err);
        snprintf(name, sizeof name, "sjis-%zu.bin", i);
        seed("sjis", name, out, n);
    }
    const uint8_t invalid[] = {0x81, 0x7F, 0xA0, 0x85, 0x40, 0xFD, 0xFE, 0xFF, 0x82};
    seed("sjis", "invalid-pairs.bin", invalid, sizeof invalid);
}

static void ik_seeds(void) {
    const float limbs[4][15] = {
        {0, 10, 0, 0, 6, 0, 0, 1, 0, 0, 3, -1, 0, 6, -5},     /* bent leg, reachable */
        {0, 10, 0, 0, 6, 0, 0, 1, 0, 0, -20, 0, 0, 6, -5},    /* out of reach */
        {0, 10, 0, 0, 10, 0, 0, 1, 0, 0, 3, 0, 0, 6, -5},     /* zero-length upper bone */
        {0, 10, 0, 0, 6, 0, 0, 2, 0, 0, 10, 0, 0, 8, 0},      /* target on the root, pole on the line */
    };
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "limb-%d.f32", i);
        seed("ik", name, limbs[i], sizeof limbs[i]);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: pm_fuzz_seeds OUTDIR [FIXTURES]\n");
        return 2;
    }
    g_out = argv[1];
    mkdir(g_out, 0777);
    const char *fixtures = argc > 2 ? argv[2] : getenv("PM_FIXTURES");
    struct stat st;
    if (fixtures && stat(fixtures, &st) != 0) {
        fprintf(stderr, "pm_fuzz_seeds: no fixtures at %s: generated seeds only\n", fixtures);
        fixtures = NULL;
    }
    vmd_seeds(fixtures);
    model_seeds(fixtures);
    bvh_seeds(fixtures);
    gltf_seeds(fixtures);
    kp_seeds();
    sjis_seeds();
    ik_seeds();
    printf("pm_fuzz_seeds: %d files in %s%s\n", g_files, g_out, fixtures ? "" : " (no fixtures)");
    return 0;
}
