/* The VRM writer (procmotion/vrm.h): every shared PMX, the mannequin and the zoo convert; the GLB's
 * structure, the humanoid against the resolver, the coordinate conversion and the T-pose bake measured on
 * the written nodes; missing bones, images (BMP / TGA decoded, PNG written), hostile input and
 * allocation failures. The validator, three-vrm and the screenshots are the Node and browser tests'
 * (tests/node/vrm.test.mjs, tests/browser/vrm.test.mjs). */
#include "pm_test.h"
#include "counting_alloc.h"

#include "common/internal.h"
#include "procmotion/humanoid.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/vrm.h"
#include "vrm/vrm_internal.h"
#include "zoo.h"

#include <cjson/cJSON.h>

static const char *const fixtures[2] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};

/* The JSON chunk of a GLB, parsed (NULL when the container is wrong). */
static cJSON *glb_json(const uint8_t *g, size_t n) {
    if (n < 20 || memcmp(g, "glTF", 4) != 0 || pmi_le32(g + 4) != 2 || pmi_le32(g + 8) != n) return NULL;
    uint32_t jl = pmi_le32(g + 12);
    if (memcmp(g + 16, "JSON", 4) != 0 || 20 + (size_t)jl + 8 > n || jl % 4) return NULL;
    uint32_t bl = pmi_le32(g + 20 + jl);
    if (memcmp(g + 24 + jl, "BIN\0", 4) != 0 || 28 + (size_t)jl + bl != n) return NULL;
    return cJSON_ParseWithLength((const char *)g + 20, jl);
}

static const float *node_translation(cJSON *nodes, int i, float out[3]) {
    cJSON *t = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, i), "translation");
    for (int k = 0; k < 3; k++) out[k] = t ? (float)cJSON_GetArrayItem(t, k)->valuedouble : 0.0f;
    return out;
}

/* World rest position of node i (translation-only nodes). */
static void node_world(cJSON *nodes, int i, float out[3]) {
    int n = cJSON_GetArraySize(nodes);
    int *parent = malloc(sizeof(int) * (size_t)n);
    for (int k = 0; k < n; k++) parent[k] = -1;
    for (int k = 0; k < n; k++) {
        cJSON *ch = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, k), "children"), *c;
        cJSON_ArrayForEach(c, ch) parent[c->valueint] = k;
    }
    out[0] = out[1] = out[2] = 0;
    for (int k = i; k >= 0; k = parent[k]) {
        float t[3];
        node_translation(nodes, k, t);
        for (int a = 0; a < 3; a++) out[a] += t[a];
    }
    free(parent);
}

static int human_node(cJSON *json, const char *name) {
    cJSON *hb = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "extensions"), "VRMC_vrm"), "humanoid"),
        "humanBones");
    cJSON *b = cJSON_GetObjectItem(hb, name);
    return b ? cJSON_GetObjectItem(b, "node")->valueint : -1;
}

/* Convert one model and check what every output must satisfy; returns the parsed JSON (caller deletes). */
static cJSON *convert(const char *what, const uint8_t *bytes, size_t size, const pm_vrm_options *o, pm_vrm_result **keep) {
    pm_error err = {0};
    pm_model *m = NULL;
    pm_vrm_result *res = NULL;
    PM_CHECK_OK(pm_model_load(bytes, size, NULL, &m, &err), &err);
    if (!m) return NULL;
    PM_CHECK_OK(pm_vrm_from_model(m, o, &res, &err), &err);
    cJSON *json = NULL;
    if (res) {
        json = glb_json(res->glb, res->glb_size);
        PM_CHECK_MSG(json != NULL, "%s: the GLB container or its JSON is wrong", what);
        cJSON *report = cJSON_ParseWithLength(res->report_json, res->report_json_length);
        PM_CHECK_MSG(report != NULL, "%s: the report is not JSON", what);
        /* the report's humanoid figures are the humanoid map's */
        pm_humanoid_map map;
        PM_CHECK_OK(pm_humanoid_map_skeleton(m->skeleton, &map, &err), &err);
        PM_CHECK_EQ_INT(res->humanoid_mapped, map.mapped);
        PM_CHECK_EQ_INT(res->humanoid_total, 22);
        PM_CHECK(res->drivable == map.drivable);
        PM_CHECK_EQ_INT(cJSON_GetObjectItem(report, "humanoidMapped")->valueint, map.mapped);
        PM_CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(report, "missingRequiredBones")), map.missing_required_count);
        /* every humanoid bone the report names is a humanBones node with that bone's name */
        cJSON *hb = cJSON_GetObjectItem(report, "humanBones"), *it;
        cJSON *nodes = cJSON_GetObjectItem(json, "nodes");
        int named = 0;
        cJSON_ArrayForEach(it, hb) {
            int node = human_node(json, it->string);
            PM_CHECK_MSG(node >= 0, "%s: %s is in the report but not in humanBones", what, it->string);
            if (node >= 0)
                PM_CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, node), "name")->valuestring, it->valuestring) == 0);
            named++;
        }
        PM_CHECK_EQ_INT(named, res->human_bones);
        for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++)
            if (map.bone[h] != PM_NO_INDEX) PM_CHECK_EQ_INT(human_node(json, pm_humanoid_bone_name((pm_humanoid_bone)h)), map.bone[h]);
        PM_CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(json, "nodes")), m->skeleton->bone_count + 1);
        PM_CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "extensions"), "VRMC_vrm"), "specVersion")->valuestring, "1.0") == 0);
        PM_CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "meshes"), 0), "primitives")), res->primitives);
        cJSON_Delete(report);
    }
    if (keep) *keep = res;
    else pm_vrm_result_free(res);
    pm_model_free(m);
    return json;
}

PM_TEST(every_shared_pmx_the_mannequin_and_the_zoo_convert) {
    pm_error err = {0};
    pm_zoo_entry *all = NULL;
    size_t n = 0, found = 0;
    PM_CHECK_OK(pm_zoo_entries(pm_test_fixture_dir(), &all, &n, &found, &err), &err);
    size_t converted = 0;
    for (size_t i = 0; i < n; i++) {
        pm_vrm_result *res = NULL;
        cJSON *json = convert(all[i].id, all[i].bytes, all[i].size, NULL, &res);
        if (json && res) {
            converted++;
            printf("  %-12s %5zu bytes in, %7zu out: humanoid %u/%u, %u VRM bones, %u primitives, %u morph targets, "
                   "%u expressions, arms %.1f/%.1f deg below horizontal -> T-pose\n",
                   all[i].id, all[i].size, res->glb_size, res->humanoid_mapped, res->humanoid_total, res->human_bones,
                   res->primitives, res->morph_targets, res->expressions, (double)res->arm_degrees[0],
                   (double)res->arm_degrees[1]);
        }
        cJSON_Delete(json);
        pm_vrm_result_free(res);
    }
    PM_CHECK_EQ_INT(converted, n);
    PM_CHECK(n >= 30);
    pm_zoo_entries_free(all, n);
}

/* The conversion measured on the written nodes: metres (1 unit = 8 cm), z mirrored so the model faces
 * +Z (toes in front of the ankles), +X the model's left, and the arms on the sides after the bake. */
PM_TEST(coordinates_and_the_t_pose_on_the_written_nodes) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    if (!d) return;
    pm_vrm_result *res = NULL;
    cJSON *json = convert(fixtures[0], d, n, NULL, &res);
    cJSON *nodes = cJSON_GetObjectItem(json, "nodes");
    float head[3], lfoot[3], ltoe[3], lhand[3], rhand[3], larm[3], lelbow[3];
    node_world(nodes, human_node(json, "head"), head);
    node_world(nodes, human_node(json, "leftFoot"), lfoot);
    node_world(nodes, human_node(json, "leftToes"), ltoe);
    node_world(nodes, human_node(json, "leftHand"), lhand);
    node_world(nodes, human_node(json, "rightHand"), rhand);
    node_world(nodes, human_node(json, "leftUpperArm"), larm);
    node_world(nodes, human_node(json, "leftLowerArm"), lelbow);
    printf("  head y %.3f m, left toe z %.3f > ankle z %.3f, hands x %.3f / %.3f, y %.3f vs shoulder joint %.3f\n",
           (double)head[1], (double)ltoe[2], (double)lfoot[2], (double)lhand[0], (double)rhand[0], (double)lhand[1],
           (double)larm[1]);
    PM_CHECK_NEAR(head[1], 16.799 * 0.08, 0.1);   /* yw_test_model's head is the standard figure's */
    PM_CHECK(ltoe[2] > lfoot[2] + 0.1f);            /* facing +Z */
    PM_CHECK(lfoot[0] > 0 && lhand[0] > 0 && rhand[0] < 0); /* +X is the model's left */
    PM_CHECK_NEAR(lhand[1], larm[1], 0.005);       /* arm horizontal: the T-pose */
    PM_CHECK_NEAR(lelbow[1], larm[1], 0.005);
    PM_CHECK_NEAR(lhand[2], larm[2], 0.005);
    PM_CHECK(res && res->t_pose && res->arm_degrees[0] > 30 && res->arm_degrees[0] < 45);
    cJSON_Delete(json);
    pm_vrm_result_free(res);
    /* keep_rest_pose: the arm keeps its angle */
    pm_vrm_options o = {.keep_rest_pose = true};
    json = convert(fixtures[0], d, n, &o, &res);
    nodes = cJSON_GetObjectItem(json, "nodes");
    node_world(nodes, human_node(json, "leftHand"), lhand);
    node_world(nodes, human_node(json, "leftUpperArm"), larm);
    PM_CHECK(larm[1] - lhand[1] > 0.2f);
    PM_CHECK(res && !res->t_pose);
    cJSON_Delete(json);
    pm_vrm_result_free(res);
    free(d);
}

PM_TEST(a_model_without_required_bones_fails_naming_them) {
    pm_error err = {0};
    const pm_bone_desc bones[] = {{.name = "センター", .parent = PM_NO_INDEX}, {.name = "頭", .parent = 0}};
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_skeleton_create(bones, 2, NULL, 0, NULL, &sk, &err), &err);
    pm_pmx_vertex v[3] = {{.bone = {0, PM_NO_INDEX}}, {.position = {1, 0, 0}, .bone = {1, PM_NO_INDEX}}, {.position = {0, 1, 0}, .bone = {0, PM_NO_INDEX}}};
    uint32_t idx[3] = {0, 1, 2};
    pm_pmx_material mat = {.name = "m", .diffuse = {1, 1, 1, 1}, .index_count = 3};
    pm_pmx_model pm = {.skeleton = sk, .vertex_count = 3, .vertices = v, .index_count = 3, .indices = idx, .material_count = 1, .materials = &mat};
    size_t size = 0;
    PM_CHECK_OK(pm_pmx_write(&pm, NULL, NULL, 0, &size, &err), &err);
    uint8_t *buf = malloc(size);
    PM_CHECK_OK(pm_pmx_write(&pm, NULL, buf, size, &size, &err), &err);
    pm_model *m = NULL;
    PM_CHECK_OK(pm_model_load(buf, size, NULL, &m, &err), &err);
    pm_vrm_result *res = NULL;
    PM_CHECK_EQ_INT(pm_vrm_from_model(m, NULL, &res, &err), PM_ERR_NOT_FOUND);
    printf("  %s\n", err.message);
    PM_CHECK(res == NULL);
    PM_CHECK(strstr(err.message, "15 required humanoid bones") != NULL);
    PM_CHECK(strstr(err.message, "hips, spine") != NULL && strstr(err.message, "rightFoot") != NULL);
    PM_CHECK_EQ_INT(pm_vrm_from_model(NULL, NULL, &res, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_vrm_from_model(m, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    pm_vrm_options bad = {.materials = (pm_vrm_materials)7};
    PM_CHECK_EQ_INT(pm_vrm_from_model(m, &bad, &res, &err), PM_ERR_INVALID_ARGUMENT);
    pm_vrm_result_free(NULL);
    pm_model_free(m);
    pm_skeleton_free(sk);
    free(buf);
    /* the mannequin with 左足首 renamed 左足X: one bone missing, named with its MMD name */
    const pm_zoo_model *zm = pm_zoo_find("knee15");
    uint8_t *b = NULL;
    size = 0;
    PM_CHECK_OK(pm_zoo_file(zm, &b, &size, &err), &err);
    static const uint8_t ankle[6] = {0xE6, 0x5D, 0xB3, 0x8D, 0x96, 0x99}; /* 左足首, UTF-16LE */
    int patched = 0;
    for (size_t i = 0; b && i + 6 <= size; i++)
        if (memcmp(b + i, ankle, 6) == 0) b[i + 4] = 'X', b[i + 5] = 0, patched++;
    static const uint8_t ankle_en[14] = {'a', 0, 'n', 0, 'k', 0, 'l', 0, 'e', 0, '_', 0, 'L', 0}; /* its English name */
    for (size_t i = 0; b && i + 14 <= size; i++)
        if (memcmp(b + i, ankle_en, 14) == 0) b[i] = 'x';
    PM_CHECK_EQ_INT(patched, 1);
    m = NULL;
    PM_CHECK_OK(pm_model_load(b, size, NULL, &m, &err), &err);
    PM_CHECK_EQ_INT(pm_vrm_from_model(m, NULL, &res, &err), PM_ERR_NOT_FOUND);
    printf("  %s\n", err.message);
    PM_CHECK(strstr(err.message, "lacks 1 required humanoid bone: leftFoot (左足首)") != NULL);
    pm_vrm_result_free(res);
    pm_model_free(m);
    free(b);
}

/* A 3x2 BMP (24-bit, bottom-up) and the same image as a TGA (RLE, bottom-up) decode to the same pixels;
 * the PNG written from them has valid chunk CRCs and an Adler-32 over the raw rows. */
PM_TEST(bmp_and_tga_decode_and_png_encodes) {
    const uint8_t px[2][3][3] = {{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}}, {{10, 20, 30}, {40, 50, 60}, {70, 80, 90}}}; /* top row first */
    uint8_t bmp[54 + 2 * 12] = {'B', 'M'};
    pmi_put32(bmp + 2, sizeof bmp);
    pmi_put32(bmp + 10, 54);
    pmi_put32(bmp + 14, 40);
    pmi_put32(bmp + 18, 3);
    pmi_put32(bmp + 22, 2);
    bmp[26] = 1, bmp[28] = 24;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int k = 0; k < 3; k++) bmp[54 + (1 - y) * 12 + x * 3 + k] = px[y][x][2 - k];
    uint8_t tga[18 + 32] = {0, 0, 10};
    tga[12] = 3, tga[14] = 2, tga[16] = 24;
    size_t at = 18;
    for (int y = 1; y >= 0; y--) { /* bottom-up; first row as one raw packet, second as a raw packet too */
        tga[at++] = 2; /* 3 raw pixels */
        for (int x = 0; x < 3; x++)
            for (int k = 0; k < 3; k++) tga[at++] = px[y][x][2 - k];
    }
    pm_error err = {0};
    pmi_rgba a, b;
    PM_CHECK(pmi_image_sniff(bmp, sizeof bmp, "t.bmp", 5) == PMI_IMAGE_BMP);
    PM_CHECK(pmi_image_sniff(tga, at, "t.TGA", 5) == PMI_IMAGE_TGA);
    PM_CHECK_OK(pmi_bmp_decode(bmp, sizeof bmp, NULL, &a, &err), &err);
    PM_CHECK_OK(pmi_tga_decode(tga, at, NULL, &b, &err), &err);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int k = 0; k < 3; k++) {
                PM_CHECK_EQ_INT(a.pixels[(y * 3 + x) * 4 + k], px[y][x][k]);
                PM_CHECK_EQ_INT(b.pixels[(y * 3 + x) * 4 + k], px[y][x][k]);
            }
    PM_CHECK(!a.has_alpha && !b.has_alpha);
    pmi_buf png = {0};
    pmi_png_encode(&a, &png);
    PM_CHECK(!png.failed && png.size > 8 && pmi_image_sniff(png.data, png.size, "", 0) == PMI_IMAGE_PNG);
    /* walk the chunks: lengths add up, CRCs match */
    uint32_t table[256];
    for (uint32_t k = 0; k < 256; k++) {
        uint32_t c = k;
        for (int j = 0; j < 8; j++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[k] = c;
    }
    size_t p = 8;
    int chunks = 0;
    while (p + 12 <= png.size) {
        uint32_t len = ((uint32_t)png.data[p] << 24) | (png.data[p + 1] << 16) | (png.data[p + 2] << 8) | png.data[p + 3];
        uint32_t crc = 0xFFFFFFFFu;
        for (size_t i = p + 4; i < p + 8 + len; i++) crc = table[(crc ^ png.data[i]) & 0xFF] ^ (crc >> 8);
        crc ^= 0xFFFFFFFFu;
        const uint8_t *cp = png.data + p + 8 + len;
        PM_CHECK_EQ_INT(crc, ((uint32_t)cp[0] << 24) | (cp[1] << 16) | (cp[2] << 8) | cp[3]);
        p += 12 + len;
        chunks++;
    }
    PM_CHECK_EQ_INT(p, png.size);
    PM_CHECK_EQ_INT(chunks, 3);
    pmi_buf_release(&png);
    /* hostile headers */
    uint8_t big[sizeof bmp];
    memcpy(big, bmp, sizeof bmp);
    pmi_put32(big + 18, 100000);
    pmi_rgba c2;
    PM_CHECK_EQ_INT(pmi_bmp_decode(big, sizeof big, NULL, &c2, &err), PM_ERR_TRUNCATED);
    tga[12] = 0xFF, tga[13] = 0xFF;
    PM_CHECK(pmi_tga_decode(tga, at, NULL, &c2, &err) != PM_OK);
    free(a.pixels);
    free(b.pixels);
}

PM_TEST(textures_are_embedded_converted_or_reported) {
    size_t n, tn;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    unsigned char *png = pm_test_read_fixture("pmx/yw_test_model/tex/diffuse.png", &tn);
    if (!d || !png) {
        free(d);
        free(png);
        return;
    }
    static const uint8_t dds[128] = {'D', 'D', 'S', ' '};
    pm_vrm_texture tex[2] = {{"TEX\\Diffuse.PNG", png, tn}, {"sph.png", dds, sizeof dds}};
    pm_vrm_options o = {.textures = tex, .texture_count = 2};
    pm_vrm_result *res = NULL;
    cJSON *json = convert(fixtures[0], d, n, &o, &res);
    PM_CHECK(res && res->textures_embedded == 1 && res->textures_skipped == 1);
    if (res) {
        PM_CHECK(strstr(res->report_json, "\"status\":\"embedded\"") != NULL);
        PM_CHECK(strstr(res->report_json, "dds is not converted") != NULL);
    }
    PM_CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(json, "images")), 1);
    cJSON_Delete(json);
    pm_vrm_result_free(res);
    free(d);
    free(png);
}

static pm_result convert_and_free(void *user, pm_allocator a, pm_error *err) {
    pm_vrm_options o = {.allocator = a};
    pm_vrm_result *res = NULL;
    pm_result r = pm_vrm_from_model(user, &o, &res, err);
    pm_vrm_result_free(res);
    return r;
}

PM_TEST(allocation_failures_leak_nothing) {
    pm_error err = {0};
    uint8_t *bytes = NULL;
    size_t size = 0;
    PM_CHECK_OK(pm_zoo_file(pm_zoo_find("realpmd"), &bytes, &size, &err), &err);
    pm_model *m = NULL;
    PM_CHECK_OK(pm_model_load(bytes, size, NULL, &m, &err), &err);
    long needed = m ? counter_fail_each(convert_and_free, m, 2000) : -1;
    printf("  realpmd: %ld allocations (ours and cJSON's), each failing in turn, nothing leaked\n", needed);
    PM_CHECK(needed > 10);
    pm_model_free(m);
    free(bytes);
}

/* PMX text: int32 byte length + UTF-16LE (ASCII and the BMP). */
static size_t put_text(uint8_t *p, const char *ascii) {
    size_t n = strlen(ascii);
    pmi_put32(p, (uint32_t)(2 * n));
    for (size_t i = 0; i < n; i++) p[4 + 2 * i] = (uint8_t)ascii[i], p[5 + 2 * i] = 0;
    return 4 + 2 * n;
}
static size_t put_floats(uint8_t *p, const float *v, int n) {
    for (int i = 0; i < n; i++) pmi_putf32(p + 4 * i, v[i]);
    return 4u * (size_t)n;
}

/* The mannequin with a three-bone hair chain under 頭 moved by physics bodies, and a static sphere on the
 * head: one spring (髪1 -> 髪2 -> 髪3 and 髪3's tail bone), one collider in the spring's group. */
PM_TEST(rigid_bodies_become_springs_and_colliders) {
    pm_error err = {0};
    pm_skeleton *base = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &base, &err), &err);
    if (!base) return;
    uint32_t nb = base->bone_count, head = pm_skeleton_find(base, "頭");
    pm_bone_desc *d = calloc(nb + 4, sizeof *d);
    for (uint32_t i = 0; i < nb; i++) PM_CHECK_OK(pm_skeleton_bone_desc(base, i, &d[i], &err), &err);
    const char *hair[4] = {"hair1", "hair2", "hair3", "hair_tip"};
    pm_vec3 at = base->bones[head].position;
    for (int k = 0; k < 4; k++) {
        d[nb + k] = (pm_bone_desc){.name = hair[k], .parent = k ? nb + k - 1 : head,
                                   .position = pm_vec3_make(at.x + 0.6f, at.y + 1.5f - 1.2f * (float)k, at.z + 0.8f)};
        if (k < 3) d[nb + k].flags = PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED | PM_BONE_TAIL_IS_BONE | PM_BONE_EXACT_FLAGS,
                   d[nb + k].tail_bone = nb + k + 1;
    }
    pm_skeleton *sk = NULL;
    PM_CHECK_OK(pm_skeleton_create(d, nb + 4, NULL, 0, NULL, &sk, &err), &err);
    free(d);
    pm_skeleton_free(base);
    if (!sk) return;
    pm_pmx_vertex v[3] = {{.bone = {head, PM_NO_INDEX}, .normal = {0, 0, -1}}, {.position = {1, 0, 0}, .bone = {nb, PM_NO_INDEX}, .normal = {0, 0, -1}},
                          {.position = {0, 1, 0}, .bone = {nb + 1, PM_NO_INDEX}, .normal = {0, 0, -1}}};
    uint32_t idx[3] = {0, 1, 2};
    pm_pmx_material mat = {.name = "m", .diffuse = {1, 1, 1, 1}, .index_count = 3};
    pm_pmx_model pm = {.skeleton = sk, .vertex_count = 3, .vertices = v, .index_count = 3, .indices = idx, .material_count = 1, .materials = &mat};
    size_t size = 0;
    PM_CHECK_OK(pm_pmx_write(&pm, NULL, NULL, 0, &size, &err), &err);
    uint8_t *buf = malloc(size + 4096);
    PM_CHECK_OK(pm_pmx_write(&pm, NULL, buf, size, &size, &err), &err);
    uint8_t bsize = buf[14];
    PM_CHECK(bsize == 1 || bsize == 2);
    size_t at_end = size - 8, p = at_end; /* replace "0 rigid bodies, 0 joints" */
    pmi_put32(buf + p, 4);
    p += 4;
    for (int k = 0; k < 4; k++) {
        static const char *const names[4] = {"head", "hair1", "hair2", "hair3"};
        uint32_t bone = k == 0 ? head : nb + (uint32_t)k - 1;
        p += put_text(buf + p, names[k]);
        p += put_text(buf + p, "");
        if (bsize == 1) buf[p++] = (uint8_t)bone;
        else pmi_put32(buf + p, bone), p += 2; /* little-endian low half */
        buf[p++] = k ? 1 : 0;                  /* group */
        buf[p++] = 0, buf[p++] = 0;            /* collides with every group */
        buf[p++] = k ? 2 : 0;                  /* capsule / sphere */
        pm_vec3 bp = sk->bones[bone].position;
        float f[14] = {k ? 0.3f : 1.5f, k ? 1.0f : 0, 0, bp.x, bp.y - (k ? 0.6f : -1.0f), bp.z, 0, 0, 0, 1, 0.5f, 0.6f, 0, 0.5f};
        p += put_floats(buf + p, f, 14);
        buf[p++] = k ? 1 : 0; /* physics / follows the bone */
    }
    pmi_put32(buf + p, 0); /* joints */
    p += 4;
    pm_model *m = NULL;
    PM_CHECK_OK(pm_model_load(buf, p, NULL, &m, &err), &err);
    pm_vrm_result *res = NULL;
    if (m) {
        PM_CHECK_EQ_INT(m->rigid_body_count, 4);
        PM_CHECK_OK(pm_vrm_from_model(m, NULL, &res, &err), &err);
    }
    cJSON *json = res ? glb_json(res->glb, res->glb_size) : NULL;
    cJSON *sb = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "extensions"), "VRMC_springBone");
    PM_CHECK(sb != NULL);
    cJSON *springs = cJSON_GetObjectItem(sb, "springs"), *colliders = cJSON_GetObjectItem(sb, "colliders");
    PM_CHECK_EQ_INT(cJSON_GetArraySize(springs), 1);
    PM_CHECK_EQ_INT(cJSON_GetArraySize(colliders), 1);
    cJSON *joints = cJSON_GetObjectItem(cJSON_GetArrayItem(springs, 0), "joints");
    PM_CHECK_EQ_INT(cJSON_GetArraySize(joints), 4);
    for (int k = 0; k < 4 && k < cJSON_GetArraySize(joints); k++)
        PM_CHECK_EQ_INT(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, k), "node")->valueint, nb + (uint32_t)k);
    PM_CHECK_EQ_INT(cJSON_GetObjectItem(cJSON_GetArrayItem(colliders, 0), "node")->valueint, head);
    cJSON *sphere = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(colliders, 0), "shape"), "sphere");
    PM_CHECK(sphere && fabs(cJSON_GetObjectItem(sphere, "radius")->valuedouble - 1.5 * 0.08) < 1e-6);
    PM_CHECK(sphere && fabs(cJSON_GetArrayItem(cJSON_GetObjectItem(sphere, "offset"), 1)->valuedouble - 0.08) < 1e-6);
    PM_CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(springs, 0), "colliderGroups")), 1);
    cJSON *used = cJSON_GetObjectItem(json, "extensionsUsed"), *u;
    int found = 0;
    cJSON_ArrayForEach(u, used) found |= strcmp(u->valuestring, "VRMC_springBone") == 0;
    PM_CHECK(found);
    PM_CHECK(res && strstr(res->report_json, "\"springs\":{\"springs\":1,\"joints\":4,\"colliders\":1,\"colliderGroups\":1}") != NULL);
    cJSON_Delete(json);
    pm_vrm_result_free(res);
    pm_model_free(m);
    pm_skeleton_free(sk);
    free(buf);
}

int main(void) { return pm_test_run_all(); }
