/* glTF/GLB reader: the RobotExpressive and VRM fixtures, samplers (LINEAR, STEP, CUBICSPLINE) on a GLB
 * built here, data: URIs, external URIs, lying chunk lengths, bad indices and cycles, and truncation
 * sweeps under ASan. */
#include "pm_test.h"

#include "procmotion/gltf.h"

#include <stdint.h>

/* ---- a tiny GLB built in memory ------------------------------------------------------------------ */

typedef struct glb {
    unsigned char *data;
    size_t size;
} glb;

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

/* JSON + BIN into a GLB (both padded to 4 bytes). */
static glb make_glb(const char *json, const void *bin, size_t bin_size) {
    size_t jn = strlen(json), jp = (jn + 3) & ~(size_t)3, bp = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + jp + (bin ? 8 + bp : 0);
    glb g = {calloc(1, total), total};
    memcpy(g.data, "glTF", 4);
    put32(g.data + 4, 2);
    put32(g.data + 8, (uint32_t)total);
    put32(g.data + 12, (uint32_t)jp);
    memcpy(g.data + 16, "JSON", 4);
    memset(g.data + 20, ' ', jp);
    memcpy(g.data + 20, json, jn);
    if (bin) {
        put32(g.data + 20 + jp, (uint32_t)bp);
        memcpy(g.data + 24 + jp, "BIN\0", 4);
        memcpy(g.data + 28 + jp, bin, bin_size);
    }
    return g;
}

/* Two nodes (root -> child at +1 Y); one animation with three channels on the child:
 * translation LINEAR (0 s: 0,1,0 -> 1 s: 2,1,0), rotation STEP (0 s: identity, 1 s: 90 deg about Z),
 * scale CUBICSPLINE (keys 0 s: 1 and 1 s: 3, zero tangents). */
static const char *anim_json =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"child\",\"translation\":[0,1,0]}],"
    "\"buffers\":[{\"byteLength\":%d}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
    "{\"buffer\":0,\"byteOffset\":32,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":64,\"byteLength\":72}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"}],"
    "\"animations\":[{\"name\":\"a\",\"samplers\":[{\"input\":0,\"output\":1},"
    "{\"input\":0,\"output\":2,\"interpolation\":\"STEP\"},{\"input\":0,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},{\"sampler\":2,\"target\":{\"node\":1,\"path\":\"scale\"}}]}]}";

static void anim_bin(float out[34]) {
    const float s = 0.70710678f;
    const float v[34] = {0, 1,                       /* times */
                         0, 1, 0, 2, 1, 0,           /* translations */
                         0, 0, 0, 1, 0, 0, s, s,     /* rotations */
                         0, 0, 0, 1, 1, 1, 0, 0, 0,  /* cubic key 0: in-tangent, value, out-tangent */
                         0, 0, 0, 3, 3, 3, 0, 0, 0}; /* cubic key 1 */
    memcpy(out, v, sizeof v);
}

static glb anim_glb(void) {
    char json[4096];
    snprintf(json, sizeof json, anim_json, 136);
    float bin[34];
    anim_bin(bin);
    return make_glb(json, bin, sizeof bin);
}

PM_TEST(samplers_linear_step_cubicspline_on_a_built_glb) {
    glb g = anim_glb();
    pm_gltf *gl = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_gltf_read(g.data, g.size, NULL, &gl, &err), &err);
    if (gl) {
        PM_CHECK_EQ_INT(gl->node_count, 2);
        PM_CHECK_EQ_INT(gl->nodes[1].parent, 0);
        PM_CHECK_EQ_INT(gl->animation_count, 1);
        PM_CHECK_EQ_INT(gl->animations[0].channel_count, 3);
        PM_CHECK_NEAR(gl->animations[0].duration, 1, 0);
        pm_mat4 w[2];
        PM_CHECK_OK(pm_gltf_world_matrices(gl, 0, 0.25f, w, &err), &err);
        pm_vec3 p = pm_mat4_get_translation(&w[1]);
        PM_CHECK_NEAR(p.x, 0.5, 1e-6); /* LINEAR: a quarter of the way to 2 */
        PM_CHECK_NEAR(p.y, 1, 1e-6);
        /* STEP holds identity until t = 1; CUBICSPLINE with zero tangents: 1 + 2 * (3s^2 - 2s^3) at s = 0.25 */
        float sc = 1 + 2 * (3 * 0.0625f - 2 * 0.015625f);
        PM_CHECK_NEAR(w[1].m[0], sc, 1e-5);
        PM_CHECK_NEAR(w[1].m[1], 0, 1e-6);
        PM_CHECK_OK(pm_gltf_world_matrices(gl, 0, 1.0f, w, &err), &err);
        /* at t = 1 the 90 degree Z rotation holds: the x axis maps onto +Y (scaled by 3) */
        PM_CHECK_NEAR(w[1].m[0], 0, 1e-5);
        PM_CHECK_NEAR(w[1].m[1], 3, 1e-5);
        PM_CHECK_NEAR(pm_mat4_get_translation(&w[1]).x, 2, 1e-6);
        /* after the last key the last value holds; the rest pose ignores the animation */
        PM_CHECK_OK(pm_gltf_world_matrices(gl, 0, 5.0f, w, &err), &err);
        PM_CHECK_NEAR(pm_mat4_get_translation(&w[1]).x, 2, 1e-6);
        PM_CHECK_OK(pm_gltf_world_matrices(gl, PM_NO_INDEX, 0.5f, w, &err), &err);
        PM_CHECK_NEAR(pm_mat4_get_translation(&w[1]).x, 0, 0);
        PM_CHECK_NEAR(pm_mat4_get_translation(&w[1]).y, 1, 0);
        PM_CHECK(pm_gltf_world_matrices(gl, 1, 0, w, &err) == PM_ERR_INVALID_ARGUMENT);
        PM_CHECK(pm_gltf_world_matrices(gl, 0, NAN, w, &err) == PM_ERR_INVALID_ARGUMENT);
        pm_gltf_free(gl);
    }
    free(g.data);
}

PM_TEST(data_uri_buffers_work_and_external_uris_say_so) {
    /* the same animation as a .gltf with the buffer base64-encoded */
    float bin[34];
    anim_bin(bin);
    const unsigned char *b = (const unsigned char *)bin;
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char b64[256];
    size_t o = 0;
    for (size_t i = 0; i < sizeof bin; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < sizeof bin ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < sizeof bin ? b[i + 2] : 0);
        b64[o++] = tbl[v >> 18 & 63], b64[o++] = tbl[v >> 12 & 63];
        b64[o++] = i + 1 < sizeof bin ? tbl[v >> 6 & 63] : '=';
        b64[o++] = i + 2 < sizeof bin ? tbl[v & 63] : '=';
    }
    b64[o] = 0;
    char uri[400], json[5000], bl[5000];
    snprintf(uri, sizeof uri, "{\"byteLength\":136,\"uri\":\"data:application/octet-stream;base64,%s\"}", b64);
    snprintf(json, sizeof json, anim_json, 136);
    char *at = strstr(json, "{\"byteLength\":136}");
    snprintf(bl, sizeof bl, "%s%s", uri, at + strlen("{\"byteLength\":136}"));
    strcpy(at, bl);
    pm_gltf *gl = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_gltf_read((const uint8_t *)json, strlen(json), NULL, &gl, &err), &err);
    if (gl) {
        pm_mat4 w[2];
        PM_CHECK_OK(pm_gltf_world_matrices(gl, 0, 0.5f, w, &err), &err);
        PM_CHECK_NEAR(pm_mat4_get_translation(&w[1]).x, 1, 1e-6);
        pm_gltf_free(gl);
    }
    char ext[5000];
    snprintf(ext, sizeof ext, anim_json, 136);
    at = strstr(ext, "{\"byteLength\":136}");
    snprintf(bl, sizeof bl, "{\"byteLength\":136,\"uri\":\"scene.bin\"}%s", at + strlen("{\"byteLength\":136}"));
    strcpy(at, bl);
    PM_CHECK_EQ_INT(pm_gltf_read((const uint8_t *)ext, strlen(ext), NULL, &gl, &err), PM_ERR_NOT_FOUND);
    PM_CHECK(strstr(err.message, "external file 'scene.bin'") != NULL);
    PM_CHECK(gl == NULL);
}

PM_TEST(lying_glb_chunks_fail_cleanly) {
    glb g = anim_glb();
    pm_gltf *gl = NULL;
    pm_error err = {0};
    unsigned char *d = malloc(g.size);
    /* header length larger than the file */
    memcpy(d, g.data, g.size);
    put32(d + 8, (uint32_t)g.size + 1);
    PM_CHECK_EQ_INT(pm_gltf_read(d, g.size, NULL, &gl, &err), PM_ERR_TRUNCATED);
    /* JSON chunk claims more than is left */
    memcpy(d, g.data, g.size);
    put32(d + 12, 0x7ffffff0u);
    PM_CHECK_EQ_INT(pm_gltf_read(d, g.size, NULL, &gl, &err), PM_ERR_TRUNCATED);
    PM_CHECK(strstr(err.message, "chunk 0 claims") != NULL);
    /* BIN chunk claims more than is left */
    memcpy(d, g.data, g.size);
    size_t jp = (size_t)d[12] | (size_t)d[13] << 8;
    put32(d + 20 + jp, 0xfffffff0u);
    PM_CHECK_EQ_INT(pm_gltf_read(d, g.size, NULL, &gl, &err), PM_ERR_TRUNCATED);
    /* the buffer claims more than the BIN chunk holds */
    memcpy(d, g.data, g.size);
    memcpy(d + 20 + jp, "\x08\x00\x00\x00", 4);
    PM_CHECK(pm_gltf_read(d, g.size, NULL, &gl, &err) != PM_OK);
    /* first chunk not JSON, version 1 */
    memcpy(d, g.data, g.size);
    memcpy(d + 16, "BIN\0", 4);
    PM_CHECK_EQ_INT(pm_gltf_read(d, g.size, NULL, &gl, &err), PM_ERR_BAD_FORMAT);
    memcpy(d, g.data, g.size);
    put32(d + 4, 1);
    PM_CHECK_EQ_INT(pm_gltf_read(d, g.size, NULL, &gl, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK(gl == NULL);
    free(d);
    free(g.data);
}

/* Replace the first occurrence of `from` in the animation JSON and read it as a GLB. */
static pm_result read_patched(const char *from, const char *to, pm_error *err) {
    char json[4096], out[4096];
    snprintf(json, sizeof json, anim_json, 136);
    char *at = strstr(json, from);
    if (!at) return PM_ERR_INVALID_ARGUMENT;
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - json), json, to, at + strlen(from));
    float bin[34];
    anim_bin(bin);
    glb g = make_glb(out, bin, sizeof bin);
    pm_gltf *gl = NULL;
    pm_result r = pm_gltf_read(g.data, g.size, NULL, &gl, err);
    pm_gltf_free(gl);
    free(g.data);
    return r;
}

PM_TEST(bad_indices_bounds_cycles_and_values_are_errors) {
    static const struct {
        const char *from, *to, *msg;
    } cases[] = {
        {"\"children\":[1]", "\"children\":[2]", "child"},
        {"\"children\":[1]", "\"children\":[0]", "own child"},
        {"\"children\":[1]", "\"children\":[1,1]", "two parents"},
        {"\"byteOffset\":0,\"byteLength\":8", "\"byteOffset\":0,\"byteLength\":4", "overruns"},
        {"\"count\":6", "\"count\":7", "expected"},
        {"\"byteOffset\":64,\"byteLength\":72", "\"byteOffset\":64,\"byteLength\":80", "outside buffer"},
        {"\"count\":2,\"type\":\"VEC3\"", "\"count\":3,\"type\":\"VEC3\"", "expected"},
        {"\"translation\":[0,1,0]", "\"translation\":[0,1e999,0]", "nodes[1].translation must be an array of 3 numbers"},
        {"\"interpolation\":\"STEP\"", "\"interpolation\":\"SMOOTH\"", "unknown interpolation"},
        {"{\"sampler\":0,", "{\"sampler\":9,", "sampler"},
        {"\"version\":\"2.0\"", "\"version\":\"1.0\"", "version"},
        {"\"type\":\"VEC4\"", "\"type\":\"VEC4\",\"sparse\":{}", "sparse"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pm_error err = {0};
        pm_result r = read_patched(cases[i].from, cases[i].to, &err);
        PM_CHECK_MSG(r != PM_OK && r != PM_ERR_INVALID_ARGUMENT, "case %zu accepted (%d)", i, (int)r);
        PM_CHECK_MSG(strstr(err.message, cases[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i, err.message, cases[i].msg);
    }
    /* a two-node cycle with no root */
    const char *cyc = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{\"children\":[0]}]}";
    pm_gltf *gl = NULL;
    pm_error err = {0};
    PM_CHECK(pm_gltf_read((const uint8_t *)cyc, strlen(cyc), NULL, &gl, &err) != PM_OK);
    PM_CHECK(strstr(err.message, "parents") != NULL || strstr(err.message, "cycle") != NULL);
    /* a longer cycle below a root */
    const char *cyc3 = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"children\":[2]},{\"children\":[3]},{\"children\":[1]}]}";
    PM_CHECK(pm_gltf_read((const uint8_t *)cyc3, strlen(cyc3), NULL, &gl, &err) != PM_OK);
    PM_CHECK(strstr(err.message, "cycle") != NULL);
}

PM_TEST(robot_expressive_fixture_reads_and_evaluates) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("gltf/RobotExpressive.glb", &size);
    if (!data) return;
    pm_gltf *g = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_gltf_read(data, size, NULL, &g, &err), &err);
    if (g) {
        PM_CHECK_EQ_INT(g->node_count, 74);
        PM_CHECK_EQ_INT(g->skin_count, 2);
        PM_CHECK_EQ_INT(g->skins[0].joint_count, 43);
        PM_CHECK_EQ_INT(g->animation_count, 14);
        PM_CHECK_EQ_INT(g->vrm_version, 0);
        PM_CHECK_STR(g->animations[0].name.data, "Dance");
        pm_mat4 *w = calloc(g->node_count, sizeof *w);
        size_t bad = 0;
        for (uint32_t a = 0; a < g->animation_count; a++) {
            PM_CHECK(g->animations[a].duration > 0);
            for (float t = 0; t <= g->animations[a].duration; t += 0.1f) {
                PM_CHECK_OK(pm_gltf_world_matrices(g, a, t, w, &err), &err);
                for (uint32_t i = 0; i < g->node_count; i++)
                    for (int k = 0; k < 16; k++) bad += !isfinite(w[i].m[k]);
            }
        }
        PM_CHECK_EQ_INT(bad, 0);
        free(w);
        pm_gltf_free(g);
    }
    free(data);
}

PM_TEST(vrm_fixtures_expose_their_humanoid_table) {
    static const char *const files[] = {"vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm", "vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm"};
    static const uint32_t bones[] = {53, 22};
    for (int f = 0; f < 2; f++) {
        size_t size = 0;
        unsigned char *data = pm_test_read_fixture(files[f], &size);
        if (!data) continue;
        pm_gltf *g = NULL;
        pm_error err = {0};
        PM_CHECK_OK(pm_gltf_read(data, size, NULL, &g, &err), &err);
        if (g) {
            PM_CHECK_EQ_INT(g->vrm_version, 2);
            PM_CHECK_EQ_INT(g->human_bone_count, bones[f]);
            bool hips = false;
            for (uint32_t i = 0; i < g->human_bone_count; i++) hips |= strcmp(g->human_bones[i].bone.data, "hips") == 0;
            PM_CHECK(hips);
            pm_gltf_free(g);
        }
        free(data);
    }
}

PM_TEST(truncation_sweeps_never_read_past_the_end) {
    /* the built GLB: every cut, with the header length as written (fails at once) and patched to the cut
     * (so the chunk checks see the short data) */
    glb g = anim_glb();
    unsigned char *buf = malloc(g.size);
    for (size_t cut = 0; cut <= g.size; cut++) {
        memcpy(buf, g.data, g.size);
        if (cut >= 12) put32(buf + 8, (uint32_t)cut);
        pm_test_cut(buf, g.size, cut);
        pm_gltf *gl = NULL;
        pm_error err = {0};
        pm_result r = pm_gltf_read(buf, cut, NULL, &gl, &err);
        PM_CHECK_MSG(cut == g.size || r != PM_OK, "cut %zu accepted", cut);
        pm_gltf_free(gl);
        pm_test_uncut(buf, g.size);
    }
    free(buf);
    free(g.data);
    /* the fixture: every 97th cut with the header length patched */
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("gltf/RobotExpressive.glb", &size);
    if (!data) return;
    for (size_t cut = 0; cut < size; cut += 97) {
        if (cut >= 12) put32(data + 8, (uint32_t)cut);
        pm_test_cut(data, size, cut);
        pm_gltf *gl = NULL;
        pm_error err = {0};
        PM_CHECK(pm_gltf_read(data, cut, NULL, &gl, &err) != PM_OK);
        pm_gltf_free(gl);
        pm_test_uncut(data, size);
    }
    free(data);
}

int main(void) { return pm_test_run_all(); }
