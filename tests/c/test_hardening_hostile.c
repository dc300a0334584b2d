/* Hostile inputs, one named test each: counts claiming billions in tiny files (rejected before
 * any large allocation: the counting allocator's largest request stays small), hierarchies 100 000 deep
 * (run on a thread with a 512 KiB stack, half of the wasm build's, so recursion would overflow), cyclic
 * parents, IK chains that name themselves, NaN and Inf inside every format, zero-length bones, invalid
 * UTF-8 names, GLB files whose chunk lengths lie, and tempos of 0, NaN or 1e9 for the catwalk, the groove
 * and the tracing timeline. */
#define _POSIX_C_SOURCE 200809L
#include "counting_alloc.h"
#include "pm_test.h"
#include "pmx_builder.h"
#include "pose_builders.h"
#include "sample_inputs.h"

#include "procmotion/bvh.h"
#include "procmotion/catwalk.h"
#include "procmotion/gltf.h"
#include "procmotion/groove.h"
#include "procmotion/humanoid.h"
#include "procmotion/ik.h"
#include "procmotion/keypoints.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/text.h"
#include "procmotion/tracing.h"
#include "procmotion/vmd.h"

#include <pthread.h>

/* Largest single allocation a hostile count may cause. */
#define SMALL_ALLOCATION (64u * 1024u)

/* ---- helpers -------------------------------------------------------------------------------------- */

typedef pm_result (*parse_fn)(const uint8_t *data, size_t size, const pm_allocator *a, pm_error *err);

static pm_result parse_vmd(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_vmd_read_options o = {.allocator = *a};
    pm_vmd *v = NULL;
    pm_result r = pm_vmd_read(d, n, &o, &v, err);
    pm_vmd_free(v);
    return r;
}
static pm_result parse_model(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_model_read_options o = {.allocator = *a};
    pm_skeleton *s = NULL;
    pm_result r = pm_model_read(d, n, &o, &s, err);
    pm_skeleton_free(s);
    return r;
}
static pm_result parse_bvh(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_bvh_read_options o = {.allocator = *a};
    pm_bvh *b = NULL;
    pm_result r = pm_bvh_read(d, n, &o, &b, err);
    pm_bvh_free(b);
    return r;
}
static pm_result parse_gltf(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_gltf_read_options o = {.allocator = *a};
    pm_gltf *g = NULL;
    pm_result r = pm_gltf_read(d, n, &o, &g, err);
    pm_gltf_free(g);
    return r;
}
static pm_result parse_names(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_name_list *l = NULL;
    pm_result r = pm_gltf_node_names(d, n, a, &l, err);
    pm_name_list_free(l);
    return r;
}
static pm_result parse_kp(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_kp_options o = {.allocator = *a};
    pm_kp_sequence *s = NULL;
    pm_result r = pm_kp_from_data(d, n, PM_KP_FORMAT_AUTO, &o, &s, err);
    pm_kp_free(s);
    return r;
}
static pm_result parse_skeleton_json(const uint8_t *d, size_t n, const pm_allocator *a, pm_error *err) {
    pm_skeleton *s = NULL;
    pm_result r = pm_skeleton_from_json((const char *)d, n, a, &s, err);
    pm_skeleton_free(s);
    return r;
}

/* The input must fail with a message, leak nothing and never ask for much memory. Returns the result. */
static pm_result expect_rejected(const char *what, parse_fn parse, const void *data, size_t size) {
    counter c = {0};
    pm_allocator a = counter_allocator(&c);
    pm_error err = {0};
    counter_begin(&c);
    pm_result r = parse(data, size, &a, &err);
    counter_end(&c);
    PM_CHECK_MSG(r != PM_OK, "%s: accepted", what);
    PM_CHECK_MSG(r == PM_OK || (err.type == r && err.message[0]), "%s: no message", what);
    PM_CHECK_MSG(c.largest <= SMALL_ALLOCATION, "%s: asked for %zu bytes in one allocation (%s)", what, c.largest,
                 err.message);
    PM_CHECK_MSG(c.live == 0, "%s: %ld blocks leaked", what, c.live);
    return r;
}

static void put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* Run fn(arg) on a thread whose stack is 512 KiB (recursion 100 000 deep would not fit). */
static void on_small_stack(void *(*fn)(void *), void *arg) {
    pthread_attr_t attr;
    pthread_t th;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512 * 1024);
    PM_CHECK(pthread_create(&th, &attr, fn, arg) == 0);
    pthread_join(th, NULL);
    pthread_attr_destroy(&attr);
}

static int all_finite(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* ---- counts claiming billions ------------------------------------------------------------------------ */

PM_TEST(a_count_claiming_billions_of_keys_in_a_tiny_file_is_rejected_before_allocating) {
    /* VMD: each of the six sections in turn claims 0xFFFFFFFF keys, the earlier ones empty */
    for (int section = 0; section < 6; section++) {
        uint8_t v[50 + 6 * 4 + 16] = {0};
        memcpy(v, "Vocaloid Motion Data 0002", 25);
        put_u32(v + 50 + 4 * section, 0xFFFFFFFFu);
        char what[64];
        snprintf(what, sizeof what, "VMD section %d with 4294967295 keys", section);
        expect_rejected(what, parse_vmd, v, 50 + 4 * (size_t)section + 4 + 16);
    }
    /* a property key claiming 4 billion IK states */
    uint8_t pk[50 + 5 * 4 + 4 + 9 + 16] = {0};
    memcpy(pk, "Vocaloid Motion Data 0002", 25);
    put_u32(pk + 70, 1);
    put_u32(pk + 74 + 5, 0xFFFFFFFFu);
    expect_rejected("VMD property key with 4294967295 IK states", parse_vmd, pk, sizeof pk);

    /* PMX: vertices, then (with empty geometry) bones, then morphs, then a text length, each 2^31 - 1 */
    tb_pmx_sizes z = {2.0f, 0, 4, 4, 4, 4, 4, 4};
    for (int which = 0; which < 4; which++) {
        tb b = {0};
        tb_pmx_header(&b, z);
        if (which == 0) {
            tb_i32(&b, 0x7FFFFFFF);
        } else {
            tb_pmx_no_geometry(&b);
            if (which == 1) tb_i32(&b, 0x7FFFFFFF);
            if (which == 2) tb_i32(&b, 0), tb_i32(&b, 0x7FFFFFFF);
            if (which == 3) tb_i32(&b, 1), tb_i32(&b, 0x7FFFFFFF); /* a bone whose name claims 2 GB */
        }
        tb_zero(&b, 64);
        static const char *what[4] = {"PMX with 2^31-1 vertices", "PMX with 2^31-1 bones", "PMX with 2^31-1 morphs",
                                      "PMX bone name of 2^31-1 bytes"};
        expect_rejected(what[which], parse_model, b.d, b.n);
        free(b.d);
    }
    /* PMD: 4 billion vertices; 65535 bones in a few bytes */
    uint8_t pmd[3 + 4 + 20 + 256 + 4 + 64] = {0};
    memcpy(pmd, "Pmd", 3);
    memcpy(pmd + 3, "\x00\x00\x80\x3f", 4);
    put_u32(pmd + 283, 0xFFFFFFFFu);
    expect_rejected("PMD with 4294967295 vertices", parse_model, pmd, sizeof pmd);
    /* BVH: 4 billion frames of 6 channels in one short line */
    const char *bvh = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation "
                      "Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 4000000000\n"
                      "Frame Time: 0.033\n0 0 0 0 0 0\n";
    expect_rejected("BVH with 4000000000 frames", parse_bvh, bvh, strlen(bvh));
    expect_rejected("keypoints of a BVH with 4000000000 frames", parse_kp, bvh, strlen(bvh));
    /* glTF: an accessor claiming 4 billion keys over a 12-byte buffer */
    const char *gltf = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],\"animations\":[{\"channels\":[{"
                       "\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,"
                       "\"output\":1}]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4000000000,"
                       "\"type\":\"SCALAR\"},{\"bufferView\":0,\"componentType\":5126,\"count\":4000000000,\"type\":"
                       "\"VEC3\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],\"buffers\":[{\"byteLength\":12,"
                       "\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}]}";
    expect_rejected("glTF accessor with 4000000000 keys", parse_gltf, gltf, strlen(gltf));
    expect_rejected("keypoints of a glTF accessor with 4000000000 keys", parse_kp, gltf, strlen(gltf));
    /* a keypoint binary stream that is not whole frames, and JSON claiming a huge fps */
    uint8_t kp[PM_KP_FRAME_SIZE + 5] = {'K', 'P', 1};
    expect_rejected("binary keypoints of 244 bytes", parse_kp, kp, sizeof kp);
}

/* ---- deep hierarchies ------------------------------------------------------------------------------- */

#define DEEP 100000

static char *deep_bvh(size_t *n) {
    size_t cap = (size_t)DEEP * 64 + 256;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n");
    for (int i = 0; i < DEEP; i++) p += sprintf(p, "JOINT j%d\n{\nOFFSET 0 1 0\nCHANNELS 1 Xrotation\n", i);
    for (int i = 0; i <= DEEP; i++) p += sprintf(p, "}\n");
    p += sprintf(p, "MOTION\nFrames: 1\nFrame Time: 1\n0 0 0");
    for (int i = 0; i < DEEP; i++) p += sprintf(p, " 1");
    p += sprintf(p, "\n");
    *n = (size_t)(p - text);
    return text;
}

static void *deep_bvh_thread(void *arg) {
    (void)arg;
    size_t n;
    char *text = deep_bvh(&n);
    pm_bvh *b = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_bvh_read((const uint8_t *)text, n, NULL, &b, &err), PM_ERR_LIMIT); /* default depth 256 */
    pm_bvh_read_options o = {.max_depth = DEEP + 1, .max_joints = DEEP + 2};
    PM_CHECK_OK(pm_bvh_read((const uint8_t *)text, n, &o, &b, &err), &err);
    if (b) {
        pm_mat4 *world = malloc(b->joint_count * sizeof *world);
        PM_CHECK_OK(pm_bvh_world_matrices(b, 0, world, &err), &err);
        PM_CHECK_OK(pm_bvh_sample(b, 0.5, world, &err), &err);
        PM_CHECK(all_finite(world[0].m, 16 * (size_t)b->joint_count));
        free(world);
        pm_bvh_free(b);
    }
    /* the keypoint converter (default limits) refuses it cleanly too */
    pm_kp_sequence *s = NULL;
    PM_CHECK(pm_kp_from_data((const uint8_t *)text, n, PM_KP_FORMAT_BVH, NULL, &s, &err) != PM_OK && !s);
    free(text);
    return NULL;
}

PM_TEST(a_bvh_nested_100000_deep_is_read_without_recursion) { on_small_stack(deep_bvh_thread, NULL); }

/* glTF: a chain of nodes 99 999 long (each the only child of the one before), and JSON nested 100 000
 * deep (cJSON stops at 1000 levels). */
static void *deep_gltf_thread(void *arg) {
    (void)arg;
    const int n = 99999;
    size_t cap = (size_t)n * 56 + 256;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (int i = 0; i < n; i++) p += sprintf(p, i + 1 < n ? "%s{\"translation\":[0,1,0],\"children\":[%d]}" : "%s{}", i ? "," : "", i + 1);
    p += sprintf(p, "]}");
    pm_gltf *g = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_gltf_read((const uint8_t *)text, (size_t)(p - text), NULL, &g, &err), &err);
    if (g) {
        pm_mat4 *world = malloc(g->node_count * sizeof *world);
        PM_CHECK_OK(pm_gltf_world_matrices(g, PM_NO_INDEX, 0, world, &err), &err);
        PM_CHECK_NEAR(world[n - 1].m[13], n - 1, 1e-3 * n);
        free(world);
        pm_gltf_free(g);
    }
    pm_name_list *l = NULL;
    PM_CHECK_OK(pm_gltf_node_names((const uint8_t *)text, (size_t)(p - text), NULL, &l, &err), &err);
    pm_name_list_free(l);
    free(text);
    /* JSON nesting */
    text = malloc(2 * (size_t)DEEP + 64);
    p = text + sprintf(text, "{\"asset\":");
    for (int i = 0; i < DEEP; i++) *p++ = '[';
    for (int i = 0; i < DEEP; i++) *p++ = ']';
    *p++ = '}';
    PM_CHECK_EQ_INT(pm_gltf_read((const uint8_t *)text, (size_t)(p - text), NULL, &g, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_skeleton_from_json(text, (size_t)(p - text), NULL, &(pm_skeleton *){NULL}, &err), PM_ERR_BAD_FORMAT);
    free(text);
    return NULL;
}

PM_TEST(a_gltf_node_chain_and_json_nested_100000_deep_are_read_without_recursion) { on_small_stack(deep_gltf_thread, NULL); }

/* A skeleton JSON of 65 536 bones, each the child of the one before, with an IK chain over all of them:
 * validation, binding and evaluation are loops. */
static void *deep_skeleton_thread(void *arg) {
    (void)arg;
    const int n = 65536;
    size_t cap = (size_t)n * 96 + 4096;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "{\"bones\":[");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s{\"name\":\"b%d\",\"position\":[0,%d,0],\"parent\":%d}", i ? "," : "", i, i, i - 1);
    p += sprintf(p, "]}");
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_from_json(text, (size_t)(p - text), NULL, &sk, &err), &err);
    free(text);
    if (!sk) return NULL;
    pm_vmd *v = NULL;
    pm_vmd_create(NULL, &v, &err);
    const float pos[3] = {0, 0, 0}, rot[4] = {0.1f, 0, 0, 0.995f};
    for (int i = 0; i < n; i += 97) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        pm_vmd_add_bone_key(v, name, 0, pos, rot, NULL, &err);
    }
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_anim_bind(sk, v, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    if (anim && ws && pose) {
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, 0, pose, NULL, &err), &err);
        PM_CHECK(all_finite(pose->world[0].m, 16 * (size_t)n));
        PM_CHECK_OK(pm_pose_update_subtree(ws, pose, 0, NULL, &err), &err);
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(v);
    pm_skeleton_free(sk);
    return NULL;
}

PM_TEST(a_skeleton_65536_bones_deep_binds_and_evaluates_without_recursion) { on_small_stack(deep_skeleton_thread, NULL); }

/* ---- cycles and self-references ---------------------------------------------------------------------- */

static tb pmx_with_bones(int variant) {
    tb_pmx_sizes z = {2.0f, 0, 1, 1, 1, 1, 1, 1};
    tb b = {0};
    tb_pmx_header(&b, z);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 4);
    if (variant == 0) { /* 0 -> 2 -> 1 -> 0 */
        tb_pmx_bone(&b, z, "a", 2, 1, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "b", 0, 2, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "c", 1, 3, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "d", -1, 4, -2, -1, NULL, 0);
    } else if (variant == 1) { /* a bone that is its own parent */
        tb_pmx_bone(&b, z, "a", -1, 1, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "b", 1, 2, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "c", 1, 3, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "d", 0, 4, -2, -1, NULL, 0);
    } else { /* IK bone 3 naming itself: as target (variant 2) or as a link (variant 3) */
        tb_pmx_bone(&b, z, "a", -1, 1, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "b", 0, 2, -2, -1, NULL, 0);
        tb_pmx_bone(&b, z, "c", 1, 3, -2, -1, NULL, 0);
        const int32_t links[2] = {variant == 3 ? 3 : 1, 0};
        tb_pmx_bone(&b, z, "ik", 0, 4, variant == 2 ? 3 : 2, 2, links, 0);
    }
    tb_i32(&b, 0); /* morphs */
    return b;
}

PM_TEST(cyclic_parents_are_rejected_in_pmx_skeleton_json_and_gltf) {
    for (int variant = 0; variant < 2; variant++) {
        tb b = pmx_with_bones(variant);
        pm_error err = {0};
        counter c = {0};
        pm_allocator a = counter_allocator(&c);
        PM_CHECK_EQ_INT(parse_model(b.d, b.n, &a, &err), PM_ERR_BAD_FORMAT);
        PM_CHECK_MSG(strstr(err.message, "cycle") || strstr(err.message, "itself"), "%s", err.message);
        PM_CHECK_EQ_INT(c.live, 0);
        free(b.d);
    }
    const char *json = "{\"bones\":[{\"name\":\"a\",\"position\":[0,0,0],\"parent\":1},"
                       "{\"name\":\"b\",\"position\":[0,1,0],\"parent\":0}]}";
    PM_CHECK_EQ_INT(expect_rejected("skeleton JSON with a parent cycle", parse_skeleton_json, json, strlen(json)),
                    PM_ERR_BAD_FORMAT);
    const char *cyc = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0]}]}";
    expect_rejected("glTF with a child cycle", parse_gltf, cyc, strlen(cyc));
    expect_rejected("glTF with a child cycle (keypoints)", parse_kp, cyc, strlen(cyc));
    const char *two = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}";
    expect_rejected("glTF node with two parents", parse_gltf, two, strlen(two));
    const char *self = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[0]}]}";
    expect_rejected("glTF node that is its own child", parse_gltf, self, strlen(self));
}

PM_TEST(an_ik_chain_that_names_itself_is_rejected) {
    for (int variant = 2; variant < 4; variant++) {
        tb b = pmx_with_bones(variant);
        pm_error err = {0};
        counter c = {0};
        pm_allocator a = counter_allocator(&c);
        PM_CHECK_EQ_INT(parse_model(b.d, b.n, &a, &err), PM_ERR_BAD_FORMAT);
        PM_CHECK_MSG(strstr(err.message, "itself") || strstr(err.message, "IK bone"), "%s", err.message);
        PM_CHECK_EQ_INT(c.live, 0);
        free(b.d);
    }
    const char *json = "{\"bones\":[{\"name\":\"a\",\"position\":[0,0,0],\"parent\":-1},{\"name\":\"ik\",\"position\":"
                       "[0,1,0],\"parent\":0,\"ik\":{\"target\":1,\"links\":[{\"bone\":0}]}}]}";
    expect_rejected("skeleton JSON IK naming itself as target", parse_skeleton_json, json, strlen(json));
    const char *link = "{\"bones\":[{\"name\":\"a\",\"position\":[0,0,0],\"parent\":-1},{\"name\":\"ik\",\"position\":"
                       "[0,1,0],\"parent\":0,\"ik\":{\"target\":0,\"links\":[{\"bone\":1}]}}]}";
    expect_rejected("skeleton JSON IK naming itself as a link", parse_skeleton_json, link, strlen(link));
    /* the C API refuses it the same way (pm_skeleton_create validates) */
    pm_ik_link l = {.bone = 1};
    pm_bone_desc d[2] = {{.name = "a", .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
                         {.name = "ik", .parent = 0, .append_parent = PM_NO_INDEX, .has_ik = true,
                          .ik = {.target = 0, .loop_count = 10, .limit_angle = 1, .link_count = 1, .links = &l}}};
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_skeleton_create(d, 2, NULL, 0, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(s == NULL);
}

/* ---- NaN and Inf ------------------------------------------------------------------------------------ */

PM_TEST(nan_and_inf_inside_vmd_pmx_bvh_gltf_and_json_files_are_rejected) {
    const float nan = NAN, inf = INFINITY;
    /* VMD: a bone position, a rotation, a morph weight, a camera distance, a light colour, a shadow distance */
    size_t n;
    uint8_t *vmd = pm_sample_vmd(&n);
    pm_vmd *v = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_read(vmd, n, NULL, &v, &err), &err);
    size_t bones = 54, morphs = bones + 111 * v->bones.count + 4, cams = morphs + 23 * v->morphs.count + 4;
    size_t lights = cams + 61 * v->cameras.count + 4, shadows = lights + 28 * v->lights.count + 4;
    const size_t at[6] = {bones + 19, bones + 19 + 12 + 8, morphs + 19, cams + 4, lights + 4, shadows + 5};
    static const char *what[6] = {"VMD bone position NaN", "VMD bone rotation Inf", "VMD morph weight NaN",
                                  "VMD camera distance Inf", "VMD light colour NaN", "VMD shadow distance Inf"};
    for (int k = 0; k < 6; k++) {
        uint8_t *c = malloc(n);
        memcpy(c, vmd, n);
        memcpy(c + at[k], k % 2 ? &inf : &nan, 4);
        expect_rejected(what[k], parse_vmd, c, n);
        PM_CHECK_MSG(strstr(err.message, "") != NULL, "-");
        free(c);
    }
    pm_vmd_free(v);
    free(vmd);
    /* PMX: the hand-made 2.1 model with a NaN bone position, an Inf append ratio, a NaN IK limit */
    tb pmx = {0};
    pm_sample_pmx21(&pmx);
    pm_skeleton *s = NULL;
    PM_CHECK_OK(pm_pmx_read(pmx.d, pmx.n, NULL, &s, &err), &err);
    pm_skeleton_free(s);
    for (size_t i = 0; i + 4 <= pmx.n; i++) { /* find the float fields by value */
        float f;
        memcpy(&f, pmx.d + i, 4);
        if (f == 17.0f || f == 0.5f || f == 2.0f) {
            uint8_t *c = malloc(pmx.n);
            memcpy(c, pmx.d, pmx.n);
            memcpy(c + i, f == 0.5f ? &inf : &nan, 4);
            pm_skeleton *t = NULL;
            pm_result r = pm_pmx_read(c, pmx.n, NULL, &t, &err);
            /* every float the skeleton keeps is checked; a material float may be ignored */
            if (r == PM_OK) {
                PM_CHECK(pm_skeleton_validate(t, &err) == PM_OK);
                for (uint32_t b = 0; b < t->bone_count; b++) {
                    PM_CHECK(all_finite(&t->bones[b].position.x, 3) && isfinite(t->bones[b].append_ratio));
                    PM_CHECK(isfinite(t->bones[b].ik.limit_angle));
                }
            }
            pm_skeleton_free(t);
            free(c);
        }
    }
    free(pmx.d);
    /* BVH: nan, inf and beyond-float values in OFFSET and in the motion */
    static const char *bvh_bad[] = {"nan", "inf", "-inf", "1e39", "NaN", "Infinity"};
    for (size_t k = 0; k < sizeof bvh_bad / sizeof bvh_bad[0]; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "HIERARCHY\nROOT Hips\n{\nOFFSET 0 %s 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\n"
                 "OFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.033\n0 0 0\n", bvh_bad[k]);
        expect_rejected("BVH OFFSET not finite", parse_bvh, text, strlen(text));
        snprintf(text, sizeof text,
                 "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\n"
                 "OFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.033\n0 %s 0\n", bvh_bad[k]);
        expect_rejected("BVH motion value not finite", parse_bvh, text, strlen(text));
    }
    /* glTF: a node translation beyond float range, NaN and Inf in the animation data */
    const char *node = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[0,1e39,0]}]}";
    expect_rejected("glTF node translation 1e39", parse_gltf, node, strlen(node));
    const char *inf_json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,1e400,1]}]}";
    expect_rejected("glTF node scale 1e400 (Inf once parsed)", parse_gltf, inf_json, strlen(inf_json));
    for (int k = 0; k < 2; k++) {
        /* times [0, NaN|Inf] and values; base64 of floats {0, x, 0,0,0, 0,0,0} */
        const char *b64 = k ? "AAAAAAAAgH8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" : "AAAAAAAAwH8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"animations\":[{\"channels\":[{\"sampler\":0,"
                 "\"target\":{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}],"
                 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
                 "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],\"bufferViews\":[{\"buffer\""
                 ":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],\"buffers\":[{\"byteLength\":32,"
                 "\"uri\":\"data:application/octet-stream;base64,%s\"}]}", b64);
        expect_rejected(k ? "glTF keyframe time Inf" : "glTF keyframe time NaN", parse_gltf, text, strlen(text));
    }
    /* JSON readers: skeleton JSON, keypoint JSON and NDJSON with numbers that overflow to Inf */
    const char *sk = "{\"bones\":[{\"name\":\"a\",\"position\":[0,1e400,0],\"parent\":-1}]}";
    expect_rejected("skeleton JSON position 1e400", parse_skeleton_json, sk, strlen(sk));
    smp_text kp = pm_sample_kp_json(0);
    char *hit = strstr(kp.d, "0.5");
    PM_CHECK(hit != NULL);
    if (hit) {
        char *bad = malloc(kp.n + 8);
        size_t off = (size_t)(hit - kp.d);
        memcpy(bad, kp.d, off);
        memcpy(bad + off, "1e400", 5);
        memcpy(bad + off + 5, hit + 3, kp.n - off - 3);
        expect_rejected("keypoint JSON coordinate 1e400", parse_kp, bad, kp.n + 2);
        free(bad);
    }
    free(kp.d);
    const char *nd = "{\"timestamp\":1e400,\"points\":[]}\n";
    expect_rejected("NDJSON timestamp 1e400", parse_kp, nd, strlen(nd));
}

/* ---- zero-length bones ------------------------------------------------------------------------------- */

PM_TEST(zero_length_bones_keep_pose_and_two_bone_ik_finite) {
    tb_skel t;
    tb_init(&t);
    tb_leg_rig r = tb_leg(&t);
    /* collapse the leg: hip, knee, ankle and toe at one point, the IK bone on it too */
    pm_vec3 hip = t.bones[r.leg].position;
    t.bones[r.knee].position = t.bones[r.ankle].position = t.bones[r.toe].position = hip;
    t.bones[r.leg_ik].position = t.bones[r.toe_ik].position = hip;
    pm_error err = {0};
    pm_vmd *v = NULL;
    pm_vmd_create(NULL, &v, &err);
    tb_key(v, "左足ＩＫ", 0, 0, 0, 0, pm_quat_identity(), NULL);
    tb_key(v, "左足ＩＫ", 30, 2, -3, 1, pm_quat_identity(), NULL);
    tb_key(v, "左ひざ", 0, 0, 0, 0, pm_quat_from_axis_angle(pm_vec3_make(1, 0, 0), -0.7f), NULL);
    tb_key(v, "下半身", 30, 0, 0, 0, pm_quat_from_axis_angle(pm_vec3_make(0, 1, 0), 0.3f), NULL);
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_anim_bind(&t.sk, v, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(&t.sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(&t.sk, NULL, &pose, &err), &err);
    for (double f = 0; anim && ws && pose && f <= 30; f += 2.5) {
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, f, pose, NULL, &err), &err);
        PM_CHECK(all_finite(pose->world[0].m, 16 * (size_t)t.sk.bone_count));
        PM_CHECK(all_finite(&pose->final_rotation[0].x, 4 * (size_t)t.sk.bone_count));
        pm_two_bone_ik_result res;
        pm_result lr = pm_pose_leg_ik(ws, pose, r.leg, r.knee, r.ankle, pm_vec3_make(1, 2, -1), pm_vec3_make(0, 0, 0),
                                      &res, &err);
        PM_CHECK_MSG(lr == PM_OK, "%s", err.message);
        PM_CHECK(all_finite(&res.root_delta.x, 4) && all_finite(&res.mid_delta.x, 4) && all_finite(&res.end.x, 3));
        PM_CHECK(all_finite(pose->world[0].m, 16 * (size_t)t.sk.bone_count));
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(v);
    /* analytic two-bone IK with every point on one spot, or one bone of length zero */
    const pm_vec3 o = {0, 0, 0}, up = {0, 1, 0}, far = {0, 5, 0}, pole = {0, 0, -1};
    const pm_vec3 cases[4][4] = {{o, o, o, o}, {o, o, up, far}, {o, up, up, far}, {o, up, far, o}};
    for (int k = 0; k < 4; k++) {
        pm_two_bone_ik_result res;
        PM_CHECK_OK(pm_two_bone_ik(cases[k][0], cases[k][1], cases[k][2], cases[k][3], pole, &res, &err), &err);
        PM_CHECK(all_finite(&res.root_delta.x, 4) && all_finite(&res.mid_delta.x, 4));
        PM_CHECK(all_finite(&res.mid.x, 3) && all_finite(&res.end.x, 3) && isfinite(res.miss));
        PM_CHECK_OK(pm_leg_ik(cases[k][0], cases[k][1], cases[k][2], cases[k][3], o, &res, &err), &err);
        PM_CHECK(all_finite(&res.root_delta.x, 4) && all_finite(&res.mid_delta.x, 4) && all_finite(&res.end.x, 3));
    }
    /* keypoints of a BVH whose every OFFSET is zero: finite and in range */
    smp_text bvh = pm_sample_bvh(0, 3);
    for (char *p = strstr(bvh.d, "OFFSET"); p; p = strstr(p + 1, "OFFSET")) {
        char *e = strchr(p, '\n');
        for (char *q = p + 6; q < e; q++) *q = *q == '-' || *q == '.' || (*q >= '1' && *q <= '9') ? '0' : *q;
    }
    pm_kp_sequence *seq = NULL;
    pm_result kr = pm_kp_from_data((const uint8_t *)bvh.d, bvh.n, PM_KP_FORMAT_BVH, NULL, &seq, &err);
    if (kr == PM_OK) {
        uint32_t nan_count = 0, oor = 0;
        pm_kp_check(seq, &nan_count, &oor);
        PM_CHECK_EQ_INT(nan_count, 0);
        PM_CHECK_EQ_INT(oor, 0);
    } else {
        PM_CHECK_MSG(err.message[0], "a failure needs a message");
    }
    pm_kp_free(seq);
    free(bvh.d);
}

/* ---- invalid UTF-8 names ------------------------------------------------------------------------------ */

PM_TEST(invalid_utf8_names_fail_the_vmd_writer_and_read_as_u_fffd) {
    pm_error err = {0};
    /* writers: a VMD bone name, model name, morph and IK name that are not UTF-8 */
    static const char *bad[] = {"\xff\xfe", "ab\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int where = 0; where < 4; where++) {
            pm_vmd *v = NULL;
            pm_vmd_create(NULL, &v, &err);
            const float pos[3] = {0, 0, 0}, rot[4] = {0, 0, 0, 1};
            const char *ik[1] = {bad[k]};
            const bool on[1] = {true};
            if (where == 0) pm_vmd_add_bone_key(v, bad[k], 0, pos, rot, NULL, &err);
            if (where == 1) pm_vmd_set_model_name(v, bad[k], &err);
            if (where == 2) pm_vmd_add_morph_key(v, bad[k], 0, 1, &err);
            if (where == 3) pm_vmd_add_property_key(v, 0, true, 1, ik, on, &err);
            size_t n = 0;
            pm_error werr = {0};
            PM_CHECK_MSG(pm_vmd_write(v, NULL, 0, &n, &werr) == PM_ERR_ENCODING, "bad name %zu in place %d was written", k,
                         where);
            pm_vmd_free(v);
        }
        uint8_t out[16];
        size_t len = 99;
        PM_CHECK_EQ_INT(pm_utf8_to_sjis(bad[k], strlen(bad[k]), out, sizeof out, &len, NULL, &err), PM_ERR_ENCODING);
        PM_CHECK_EQ_INT(len, 0);
    }
    /* readers: PMX (UTF-8 and UTF-16), BVH, glTF, skeleton JSON, glTF node names, VMD (Shift-JIS) */
    const char *fffd = "\xEF\xBF\xBD";
    tb_pmx_sizes z = {2.0f, 0, 1, 1, 1, 1, 1, 1};
    tb b = {0};
    tb_pmx_header(&b, z);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 1);
    tb_pmx_bone(&b, z, "a\xff" "b", -1, 1, -2, -1, NULL, 0);
    tb_i32(&b, 0);
    pm_skeleton *s = NULL;
    PM_CHECK_OK(pm_pmx_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) PM_CHECK_STR(s->bones[0].name.data, "a\xEF\xBF\xBD" "b");
    pm_skeleton_free(s);
    free(b.d);
    /* UTF-16LE: an unpaired high surrogate, then 'x' */
    b = (tb){0};
    tb_put(&b, "PMX ", 4);
    tb_f32(&b, 2.0f);
    tb_u8(&b, 8);
    const uint8_t g[8] = {0, 0, 1, 1, 1, 1, 1, 1};
    tb_put(&b, g, 8);
    const uint8_t name16[4] = {0x00, 0xD8, 'x', 0};
    tb_i32(&b, 4), tb_put(&b, name16, 4);
    for (int i = 0; i < 3; i++) tb_i32(&b, 0);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 0), tb_i32(&b, 0);
    PM_CHECK_OK(pm_pmx_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) PM_CHECK_STR(s->model_name.data, "\xEF\xBF\xBDx");
    pm_skeleton_free(s);
    free(b.d);
    const char *bvh = "HIERARCHY\nROOT hip\xc3\x28s\n{\nOFFSET 0 0 0\nCHANNELS 0\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\n"
                      "MOTION\nFrames: 0\nFrame Time: 0.033\n";
    pm_bvh *bv = NULL;
    PM_CHECK_OK(pm_bvh_read((const uint8_t *)bvh, strlen(bvh), NULL, &bv, &err), &err);
    if (bv) {
        PM_CHECK_STR(bv->joints[0].name.data, "hip\xEF\xBF\xBD(s");
        PM_CHECK(strstr(bv->joints[1].name.data, fffd) != NULL);
    }
    pm_bvh_free(bv);
    const char *gl = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\xe3\x81\"},{\"name\":\"\xff\"}]}";
    pm_gltf *gg = NULL;
    PM_CHECK_OK(pm_gltf_read((const uint8_t *)gl, strlen(gl), NULL, &gg, &err), &err);
    if (gg) {
        PM_CHECK(strncmp(gg->nodes[0].name.data, "n\xEF\xBF\xBD", 4) == 0); /* one U+FFFD per bad byte */
        PM_CHECK_STR(gg->nodes[1].name.data, "\xEF\xBF\xBD");
    }
    pm_gltf_free(gg);
    pm_name_list *l = NULL;
    PM_CHECK_OK(pm_gltf_node_names((const uint8_t *)gl, strlen(gl), NULL, &l, &err), &err);
    if (l) PM_CHECK_STR(l->names[1], "\xEF\xBF\xBD");
    pm_name_list_free(l);
    const char *sj = "{\"bones\":[{\"name\":\"\xf0\x9f\",\"position\":[0,0,0],\"parent\":-1}],\"morphNames\":[\"\xc0\"]}";
    PM_CHECK_OK(pm_skeleton_from_json(sj, strlen(sj), NULL, &s, &err), &err);
    if (s) {
        PM_CHECK(strncmp(s->bones[0].name.data, "\xEF\xBF\xBD", 3) == 0);
        PM_CHECK_STR(s->morph_names[0].data, "\xEF\xBF\xBD");
    }
    pm_skeleton_free(s);
    /* VMD: a bone name with a lead byte cut by the field end and an unmapped pair */
    size_t n;
    uint8_t *vmd = pm_sample_vmd(&n);
    memcpy(vmd + 54, "\x82\xa0\x85\x40\x81", 5); /* あ, an unmapped pair (0x8540), a cut lead byte */
    memset(vmd + 59, 0, 10);
    vmd[54 + 14] = 0x81;
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_vmd_read(vmd, n, NULL, &v, &err), &err);
    if (v) PM_CHECK_MSG(strstr(v->bone_names.items[v->bones.name_index[0]].data, fffd) != NULL, "no U+FFFD in %s",
                        v->bone_names.items[v->bones.name_index[0]].data);
    pm_vmd_free(v);
    free(vmd);
}

/* ---- GLB chunk lengths that lie ------------------------------------------------------------------------ */

PM_TEST(a_glb_whose_chunk_lengths_lie_fails_cleanly) {
    tb glb = pm_sample_gltf(2, 1);
    uint32_t json_len = (uint32_t)glb.d[12] | (uint32_t)glb.d[13] << 8 | (uint32_t)glb.d[14] << 16 | (uint32_t)glb.d[15] << 24;
    size_t bin_at = 20 + json_len; /* BIN chunk header */
    struct {
        const char *what;
        size_t at;
        uint32_t value;
        size_t size; /* 0: the whole file */
    } lies[] = {
        {"total length larger than the file", 8, (uint32_t)glb.n + 1, 0},
        {"total length 0xFFFFFFFF", 8, 0xFFFFFFFFu, 0},
        {"total length smaller than the chunks", 8, 20, 0},
        {"JSON chunk longer than the file", 12, (uint32_t)glb.n, 0},
        {"JSON chunk length 0xFFFFFFFF", 12, 0xFFFFFFFFu, 0},
        {"JSON chunk length 0xFFFFFFF8 (wraps an offset)", 12, 0xFFFFFFF8u, 0},
        {"JSON chunk length 0", 12, 0, 0},
        {"JSON chunk cut in the middle of the JSON", 12, json_len / 2, 0},
        {"BIN chunk longer than the file", bin_at, (uint32_t)glb.n, 0},
        {"BIN chunk length 0xFFFFFFF8", bin_at, 0xFFFFFFF8u, 0},
        {"first chunk typed BIN", 16, 0x004E4942u, 0},
        {"file cut inside the BIN chunk header", 8, (uint32_t)bin_at + 4, bin_at + 4},
        {"file cut inside the BIN chunk", 8, (uint32_t)bin_at + 10, bin_at + 10},
    };
    for (size_t k = 0; k < sizeof lies / sizeof lies[0]; k++) {
        size_t size = lies[k].size ? lies[k].size : glb.n;
        uint8_t *c = malloc(glb.n);
        memcpy(c, glb.d, glb.n);
        put_u32(c + lies[k].at, lies[k].value);
        char what[128];
        snprintf(what, sizeof what, "GLB: %s", lies[k].what);
        pm_result r = expect_rejected(what, parse_gltf, c, size);
        PM_CHECK_MSG(r == PM_ERR_TRUNCATED || r == PM_ERR_BAD_FORMAT, "%s: %s", what, pm_result_name(r));
        /* the other two GLB readers agree (the node-name reader only needs the JSON chunk) */
        snprintf(what, sizeof what, "GLB keypoints: %s", lies[k].what);
        expect_rejected(what, parse_kp, c, size);
        counter cn = {0};
        pm_allocator a = counter_allocator(&cn);
        pm_error err = {0};
        counter_begin(&cn);
        pm_result rn = parse_names(c, size, &a, &err);
        counter_end(&cn);
        PM_CHECK_MSG(rn == PM_OK || err.message[0], "%s: node names failed without a message", lies[k].what);
        PM_CHECK_MSG(cn.largest <= SMALL_ALLOCATION && cn.live == 0, "%s: node names: %zu bytes, %ld live", lies[k].what,
                     cn.largest, cn.live);
        free(c);
    }
    free(glb.d);
}

/* ---- tempo: BPM of 0, NaN, Inf, 1e9 ------------------------------------------------------------------ */

static void check_motion_finite(const pm_vmd *v) {
    PM_CHECK(v && v->bones.count > 0);
    if (!v) return;
    PM_CHECK(all_finite(v->bones.position, 3 * (size_t)v->bones.count));
    PM_CHECK(all_finite(v->bones.rotation, 4 * (size_t)v->bones.count));
    PM_CHECK(all_finite(v->morphs.weight, v->morphs.count));
}

PM_TEST(a_bpm_of_0_nan_inf_or_1e9_is_the_default_an_error_or_clamped_never_nan) {
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    pm_error err = {0};
    /* catwalk: 0 = no tempo (the default), 1e9 and -5 clamp to [60, 200], NaN and Inf are errors naming bpm */
    const float ok_bpm[3] = {0, 1e9f, -5};
    for (int k = 0; k < 3; k++) {
        pm_catwalk_params p = {.bpm = ok_bpm[k]};
        pm_vmd *v = NULL;
        PM_CHECK_OK(pm_catwalk_generate(&p, NULL, &v, NULL, &err), &err);
        check_motion_finite(v);
        pm_vmd_free(v);
    }
    for (int k = 0; k < 3; k++) {
        pm_catwalk_params p = {.bpm = bad[k]};
        pm_vmd *v = NULL;
        pm_result r = pm_catwalk_generate(&p, NULL, &v, NULL, &err);
        PM_CHECK_MSG(r == PM_ERR_INVALID_ARGUMENT && !v && strstr(err.message, "bpm"), "catwalk bpm %g: %s", bad[k],
                     err.message);
        pm_vmd_free(v);
    }
    static const char *json[] = {"{\"bpm\":0}", "{\"bpm\":1e9}", "{\"bpm\":1e400}", "{\"bpm\":-1e400}"};
    for (int k = 0; k < 4; k++) {
        pm_catwalk_params p;
        pm_vmd *v = NULL;
        pm_result r = pm_catwalk_params_from_json(json[k], strlen(json[k]), &p, &err);
        if (r == PM_OK) r = pm_catwalk_generate(&p, NULL, &v, NULL, &err);
        if (k < 2) {
            PM_CHECK_MSG(r == PM_OK, "%s: %s", json[k], err.message);
            check_motion_finite(v);
        } else {
            PM_CHECK_MSG(r != PM_OK && strstr(err.message, "bpm"), "%s: %s", json[k], err.message);
        }
        pm_vmd_free(v);
    }
    /* groove: bpm must be in (0, 1000] for every frame */
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    pm_groove *g = NULL;
    PM_CHECK_OK(pm_groove_create(sk, NULL, NULL, &g, &err), &err);
    const double groove_bad[6] = {0, NAN, INFINITY, 1e9, -120, 1000.5};
    for (int k = 0; g && k < 6; k++) {
        pm_groove_frame f;
        pm_result r = pm_groove_offsets(g, NULL, 1.0, groove_bad[k], 0, &f, &err);
        PM_CHECK_MSG(r == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "bpm"), "groove bpm %g: %s", groove_bad[k],
                     err.message);
    }
    pm_groove_frame f;
    if (g) {
        PM_CHECK_OK(pm_groove_offsets(g, NULL, 1e9, 1000, 0, &f, &err), &err); /* a late time at the top tempo */
        PM_CHECK(all_finite(&f.joint_offset[0].x, 4 * PM_GROOVE_JOINT_COUNT) && all_finite(&f.body_offset.x, 3));
    }
    pm_groove_free(g);
    /* tracing: the timeline's BPM and the bake's */
    pm_timeline *tl = NULL;
    PM_CHECK_OK(pm_timeline_create(sk, NULL, &tl, &err), &err);
    for (int k = 0; tl && k < 6; k++) {
        pm_result r = pm_timeline_set_bpm(tl, groove_bad[k] == 1000.5 ? 1e9 : groove_bad[k], &err);
        PM_CHECK_MSG(r == PM_ERR_INVALID_ARGUMENT, "timeline bpm %g accepted", groove_bad[k]);
    }
    if (tl) {
        PM_CHECK_OK(pm_timeline_capture_keyframe(tl, 0, pm_easing_from_preset(PM_EASING_LINEAR), NULL, &err), &err);
        PM_CHECK_OK(pm_timeline_capture_keyframe(tl, 4, pm_easing_from_preset(PM_EASING_LINEAR), NULL, &err), &err);
        for (int k = 0; k < 3; k++) {
            pm_timeline_bake_options bo = {.bpm = bad[k]};
            pm_vmd *v = NULL;
            PM_CHECK_MSG(pm_timeline_bake(tl, &bo, &v, &err) == PM_ERR_INVALID_ARGUMENT && !v, "bake bpm %g", bad[k]);
        }
        pm_timeline_bake_options bo = {.bpm = 1e9};
        pm_vmd *v = NULL;
        pm_result r = pm_timeline_bake(tl, &bo, &v, &err);
        PM_CHECK_MSG(r == PM_ERR_INVALID_ARGUMENT || (r == PM_OK && v), "bake at 1e9 BPM: %s", err.message);
        pm_vmd_free(v);
        pm_pose *pose = NULL;
        PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
        if (pose) {
            PM_CHECK_EQ_INT(pm_timeline_evaluate(tl, NAN, pose, &err), PM_ERR_INVALID_ARGUMENT);
            PM_CHECK_OK(pm_timeline_evaluate(tl, 1e12, pose, &err), &err);
            PM_CHECK(all_finite(pose->world[0].m, 16 * (size_t)pose->bone_count));
        }
        pm_pose_free(pose);
    }
    pm_timeline_free(tl);
    pm_skeleton_free(sk);
}

int main(void) { return pm_test_run_all(); }
