/* pm_fuzz_seeds OUTDIR [FIXTURES]: write the seed corpora of the fuzz targets, one folder per target
 * (OUTDIR/vmd, OUTDIR/pmx, ...), from small files made here with the library (a motion with every VMD
 * section, the mannequin PMX, hand-made PMX 2.1 and PMD files, BVH, glTF/GLB with every sampler kind,
 * keypoint JSON/NDJSON/binary, Shift-JIS names, skeleton JSON) and, when the fixtures folder is there,
 * from ../shared/fixtures: small fixtures whole, large ones cut down (a VMD's first keys, a BVH's first
 * frames). Nothing is copied into the repository: build-scripts/fuzz.sh writes into build/fuzz/seeds.
 * Output is deterministic. */
#include "pm_test.h" /* pm_test_read_file */
#include "sample_inputs.h"

#include "procmotion/audio.h"
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
static void seed_one(const char *target, const char *name, const void *data, size_t size);
/* Write OUT/<target>/<name>; JSON seeds of any target also go to the JSON classifier's corpus, motion files to
 * the retargeter's. */
static void seed(const char *target, const char *name, const void *data, size_t size) {
    seed_one(target, name, data, size);
    if (strcmp(target, "bvh") == 0 || strcmp(target, "gltf") == 0 || strcmp(target, "fbx") == 0)
        seed_one("retarget", name, data, size); /* motion files */
    if (strcmp(target, "kp_auto") == 0) seed_one("score", name, data, size); /* what the scorer reads */
    if (strcmp(target, "pmx") == 0 || strcmp(target, "pmd") == 0) { /* the whole-model reader and the VRM writer */
        seed_one("model", name, data, size);
        seed_one("vrm", name, data, size);
    }
    if (strcmp(target, "json") != 0 && size && ((const char *)data)[0] == '{' && size < 65536) {
        char both[300];
        snprintf(both, sizeof both, "%s-%s", target, name);
        seed_one("json", both, data, size);
    }
}

static void seed_one(const char *target, const char *name, const void *data, size_t size) {
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
    if (pm_vmd_write(v, NULL, 0, &need, &err) == PM_OK) out = pm_sample_vmd_bytes(v, size);
    pm_vmd_free(v);
    pm_vmd_free(in);
    return out;
}

static void vmd_seeds(const char *fixtures) {
    size_t n;
    uint8_t *vmd = pm_sample_vmd(&n);
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
    pm_sample_pmx21(&b);
    seed("pmx", "hand-made-2.1.pmx", b.d, b.n);
    if (pm_pmx_read(b.d, b.n, NULL, &sk, &err) != PM_OK) die("hand-made PMX does not read", &err);
    skeleton_json_seed(sk, "hand-made-2.1.json");
    pm_skeleton_free(sk);
    free(b.d);
    b = (tb){0};
    pm_sample_pmd(&b);
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

/* The first `frames` frames of a BVH fixture: its hierarchy, "Frames: n" and n motion lines. */
static smp_text cut_bvh(const char *data, size_t n, int frames) {
    smp_text t = {0};
    const char *motion = strstr(data, "MOTION");
    const char *ft = motion ? strstr(motion, "Frame Time:") : NULL;
    if (!ft) return t;
    const char *line = memchr(ft, '\n', n - (size_t)(ft - data));
    if (!line) return t;
    smp_put(&t, "%.*sMOTION\nFrames: %d\n%.*s", (int)(motion - data), data, frames, (int)(line + 1 - ft), ft);
    const char *p = line + 1, *end = data + n;
    for (int f = 0; f < frames && p < end; f++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        e = e ? e + 1 : end;
        smp_put(&t, "%.*s", (int)(e - p), p);
        p = e;
    }
    return t;
}

static void bvh_seeds(const char *fixtures) {
    for (int variant = 0; variant < 2; variant++) {
        smp_text t = pm_sample_bvh(variant, variant ? 2 : 4);
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
    smp_text t = cut_bvh(data, n, 3);
    if (t.d) {
        seed("bvh", "cmu_131_01-3-frames.bvh", t.d, t.n);
        seed("kp_auto", "cmu_131_01-3-frames.bvh", t.d, t.n);
    }
    free(t.d);
    free(data);
}

/* ---- glTF, GLB, VRM 0.x and 1.0 --------------------------------------------------------------------- */

static void gltf_seeds(const char *fixtures) {
    static const char *names[4] = {"humanoid.glb", "humanoid-vrm0.vrm", "humanoid-vrm1.vrm", "humanoid.gltf"};
    for (int i = 0; i < 4; i++) {
        tb b = pm_sample_gltf(i % 3, i < 3);
        seed("gltf", names[i], b.d, b.n);
        seed("kp_auto", names[i], b.d, b.n);
        free(b.d);
    }
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

/* ---- FBX: the repository's real exports (run from the repository's root) ----------------------------- */

static void fbx_seeds(void) {
    static const char *files[] = {"fbx/blender-huesitos.fbx", "fbx/box-fbx75-compressed.fbx"};
    for (int i = 0; i < 2; i++) {
        size_t n;
        uint8_t *data = read_file("tests/data", files[i], &n);
        if (!data) continue;
        seed("fbx", strrchr(files[i], '/') + 1, data, n);
        seed_one("kp_auto", strrchr(files[i], '/') + 1, data, n);
        seed_one("score", strrchr(files[i], '/') + 1, data, n);
        free(data);
    }
}

/* ---- keypoints: mediapipe33 JSON, NDJSON, binary frames ------------------------------------------- */

static void kp_seeds(void) {
    /* JSON: one frame as arrays with timestamps, one as objects; and an fps-only variant */
    for (int variant = 0; variant < 2; variant++) {
        smp_text t = pm_sample_kp_json(variant);
        const char *name = variant ? "fps-objects.json" : "timestamps.json";
        seed("kp_json", name, t.d, t.n);
        seed("kp_auto", name, t.d, t.n);
        free(t.d);
    }
    /* NDJSON and binary from the small BVH */
    smp_text bvh = pm_sample_bvh(0, 4), nd;
    tb bin;
    pm_sample_kp_streams(&bvh, &nd, &bin);
    seed("kp_ndjson", "mixamo.ndjson", nd.d, nd.n);
    seed("kp_auto", "mixamo.ndjson", nd.d, nd.n);
    const char *line2 = strchr(nd.d, '\n');
    if (line2) seed("kp_ndjson", "one-line.ndjson", nd.d, (size_t)(line2 - nd.d));
    seed("kp_frame", "one-frame.kp", bin.d, PM_KP_FRAME_SIZE);
    seed("kp_frame", "four-frames.kp", bin.d, bin.n);
    seed("kp_auto", "four-frames.kp", bin.d, bin.n);
    free(bvh.d);
    free(nd.d);
    free(bin.d);
}

/* ---- WAV: every encoding, mono and stereo, a short drum-like signal ------------------------------------ */

static void wav_seeds(void) {
    float x[2 * 800];
    for (int i = 0; i < 800; i++) {
        double t = i / 8000.0, env = exp(-fmod(t, 0.05) / 0.01);
        x[2 * i] = (float)(0.8 * sin(2 * 3.14159265 * 60 * t) * env);
        x[2 * i + 1] = (float)(0.5 * sin(2 * 3.14159265 * 440 * t) * env);
    }
    for (int e = PM_WAV_PCM_U8; e < PM_WAV_ENCODING_COUNT; e++)
        for (uint32_t ch = 1; ch <= 2; ch++) {
            size_t n = 0;
            pm_error err = {0};
            if (pm_wav_write(x, 800 / ch, ch, 8000, (pm_wav_encoding)e, NULL, 0, &n, &err) != PM_OK) die("wav", &err);
            uint8_t *buf = malloc(n);
            if (!buf || pm_wav_write(x, 800 / ch, ch, 8000, (pm_wav_encoding)e, buf, n, &n, &err) != PM_OK) die("wav", &err);
            char name[48];
            snprintf(name, sizeof name, "%s-%uch.wav", pm_wav_encoding_name((pm_wav_encoding)e), ch);
            seed("wav", name, buf, n);
            free(buf);
        }
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

static void generator_seeds(void) {
    for (int v = 0; v < 2; v++) {
        smp_text c = pm_sample_catwalk_json(v);
        seed("catwalk_json", v ? "bpm-posed-uturn.json" : "every-key.json", c.d, c.n);
        free(c.d);
    }
    smp_text g = pm_sample_groove_json(), t = pm_sample_timeline_json();
    seed("groove_json", "every-field.json", g.d, g.n);
    const char *one = "{\"joints\":{\"head\":{\"amp\":0.5}},\"squat\":{}}";
    seed("groove_json", "one-change.json", one, strlen(one));
    seed("timeline_json", "left-hand-trace.json", t.d, t.n);
    const char *life = "{\"blinkInterval\":[2,4],\"eyeContact\":20,\"breathRate\":0.8,\"microMoveExtent\":1,\"seed\":3}";
    seed("lifelike_json", "settings.json", life, strlen(life));
    const char *idle = "{\"bpm\":120,\"gestureFrequency\":1,\"bodySway\":1,\"duration\":30,\"seed\":2}";
    seed("idle_json", "gestures.json", idle, strlen(idle));
    const char *dance = "{\"bpm\":128,\"style\":\"idol\",\"energy\":1,\"variety\":1,\"duration\":8,\"seed\":3}";
    seed("dance_json", "idol.json", dance, strlen(dance));
    free(g.d);
    free(t.d);
}

static void json_seeds(void) {
    static const char *texts[] = {
        "[1,-0.5e+3,true,false,null,\"a\\u00e9\\ud83d\\ude00\\n\"]", "\xEF\xBB\xBF {\"a\":{}} trailing",
        "[[[[[[[[[[]]]]]]]]]]", "{\"k\":\"\\ud800\"}", "[01, 1.]", "\"\\uZZZZ\"", "123456789012345678901234567890123456789012345678901234567890123456",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "tricky-%zu.json", i);
        seed_one("json", name, texts[i], strlen(texts[i]));
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
    fbx_seeds();
    kp_seeds();
    sjis_seeds();
    wav_seeds();
    ik_seeds();
    generator_seeds();
    json_seeds();
    printf("pm_fuzz_seeds: %d files in %s%s\n", g_files, g_out, fixtures ? "" : " (no fixtures)");
    return 0;
}
