/* PMX reader and writer: the shared fixtures, truncation at every offset, hostile counts, index
 * sizes, weight and morph types, bad skeletons, and write -> read round trips. */
#include "pm_test.h"
#include "pmx_builder.h"

#include "procmotion/pmx.h"

static const char *const fixtures[2] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};

/* An allocator that records the largest request and can fail the Nth allocation. */
typedef struct counting {
    size_t largest, count, live;
    long fail_at; /* -1: never */
} counting;
static void *counting_alloc(void *user, size_t size) {
    counting *c = user;
    if (c->fail_at >= 0 && (long)c->count == c->fail_at) {
        c->count++;
        return NULL;
    }
    c->count++;
    if (size > c->largest) c->largest = size;
    void *p = malloc(size);
    if (p) c->live++;
    return p;
}
static void counting_free(void *user, void *p) {
    counting *c = user;
    if (p) c->live--;
    free(p);
}

static pm_skeleton *read_ok(const unsigned char *d, size_t n) {
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pmx_read(d, n, NULL, &s, &err), &err);
    return s;
}

PM_TEST(fixtures_have_the_semi_standard_skeleton) {
    for (int f = 0; f < 2; f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(fixtures[f], &n);
        if (!d) continue;
        pm_skeleton *s = read_ok(d, n);
        if (!s) {
            free(d);
            continue;
        }
        PM_CHECK_EQ_INT(s->bone_count, 114);
        PM_CHECK_EQ_INT(s->morph_count, 0);
        PM_CHECK_EQ_INT(s->source.format, PM_MODEL_FORMAT_PMX);
        PM_CHECK_NEAR(s->source.version, 2.0, 1e-6);
        PM_CHECK_EQ_INT(s->source.encoding, 0);
        PM_CHECK_EQ_INT(s->source.face_count, 3516);
        PM_CHECK_EQ_INT(s->source.vertex_count, f == 0 ? 2141 : 1822);
        PM_CHECK_STR(s->model_name.data, f == 0 ? "YWテスト用モデル" : "MMTテスト用モデル");
        PM_CHECK_STR(s->bones[0].name.data, "操作中心");
        PM_CHECK_STR(s->bones[1].name.data, "全ての親");
        PM_CHECK_STR(s->bones[1].name_en.data, "master");
        PM_CHECK_EQ_INT(s->bones[1].parent, PM_NO_INDEX);
        PM_CHECK_EQ_INT(s->bones[1].tail_bone, 2);
        uint32_t center = pm_skeleton_find(s, "センター");
        PM_CHECK_EQ_INT(center, 2);
        PM_CHECK_EQ_INT(s->bones[center].parent, 1);
        PM_CHECK_NEAR(s->bones[center].position.y, f == 0 ? 8.0 : 10.0, 1e-6);
        PM_CHECK_EQ_INT(s->bones[center].flags, 0x1E);
        /* 上半身 -> 腰 -> グルーブ -> センター -> 全ての親 */
        uint32_t j = pm_skeleton_find(s, "上半身");
        const char *chain[] = {"腰", "グルーブ", "センター", "全ての親"};
        for (int k = 0; k < 4 && j != PM_NO_INDEX; k++) {
            j = s->bones[j].parent;
            PM_CHECK(j != PM_NO_INDEX);
            if (j != PM_NO_INDEX) PM_CHECK_STR(s->bones[j].name.data, chain[k]);
        }
        /* 左足ＩＫ: target 左足首, 200 loops, ~2 rad, links 左ひざ (X -170..-0.5 deg) then 左足 */
        uint32_t ik = pm_skeleton_find(s, "左足ＩＫ");
        PM_CHECK_EQ_INT(ik, 9);
        PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足IK"), ik);
        PM_CHECK_EQ_INT(pm_skeleton_find(s, "左足IK"), PM_NO_INDEX);
        if (ik != PM_NO_INDEX) {
            const pm_bone *b = &s->bones[ik];
            PM_CHECK(b->has_ik);
            PM_CHECK(b->flags & PM_BONE_IK);
            PM_CHECK_EQ_INT(b->transform_order, 1);
            PM_CHECK_STR(s->bones[b->parent].name.data, "左足IK親");
            PM_CHECK_STR(s->bones[b->ik.target].name.data, "左足首");
            PM_CHECK_EQ_INT(b->ik.loop_count, 200);
            PM_CHECK_NEAR(b->ik.limit_angle, 2.0, 1e-5);
            PM_CHECK_EQ_INT(b->ik.link_count, 2);
            if (b->ik.link_count == 2) {
                const pm_ik_link *knee = &b->ik.links[0], *leg = &b->ik.links[1];
                PM_CHECK_STR(s->bones[knee->bone].name.data, "左ひざ");
                PM_CHECK(knee->has_limit);
                PM_CHECK_NEAR(knee->limit_min.x, -170.0 * PM_PI / 180.0, 1e-5);
                PM_CHECK_NEAR(knee->limit_max.x, -0.5 * PM_PI / 180.0, 1e-6);
                PM_CHECK_NEAR(knee->limit_min.y, 0, 0);
                PM_CHECK_NEAR(knee->limit_max.z, 0, 0);
                PM_CHECK_STR(s->bones[leg->bone].name.data, "左足");
                PM_CHECK(!leg->has_limit);
            }
            const pm_bone *toe = &s->bones[pm_skeleton_find(s, "左つま先ＩＫ")];
            PM_CHECK_EQ_INT(toe->parent, ik);
            PM_CHECK_STR(s->bones[toe->ik.target].name.data, "左つま先");
            PM_CHECK_EQ_INT(toe->ik.loop_count, 50);
            PM_CHECK_NEAR(toe->ik.limit_angle, 4.0, 1e-6);
        }
        /* append: 右肩C takes -1 x 右肩P's rotation; local axes on the legs */
        const pm_bone *c = &s->bones[pm_skeleton_find(s, "右肩C")];
        PM_CHECK(c->flags & PM_BONE_APPEND_ROTATE);
        PM_CHECK_STR(s->bones[c->append_parent].name.data, "右肩P");
        PM_CHECK_NEAR(c->append_ratio, -1.0, 0);
        const pm_bone *leg = &s->bones[pm_skeleton_find(s, "左足")];
        PM_CHECK(leg->flags & PM_BONE_LOCAL_AXES);
        PM_CHECK_NEAR(leg->local_x.x, 0.9945669174194336, 1e-7);
        PM_CHECK(leg->position.x > 0); /* +X is the model's left */
        PM_CHECK_OK(pm_skeleton_validate(s, &(pm_error){0}), &(pm_error){0});
        pm_skeleton_free(s);
        free(d);
    }
}

/* Offset of the bone section (the bone count) in a fixture: the first bone is 操作中心 (UTF-16LE). */
static size_t bone_section_offset(const unsigned char *d, size_t n) {
    static const unsigned char first[] = {0xcd, 0x64, 0x5c, 0x4f, 0x2d, 0x4e, 0xc3, 0x5f}; /* 操作中心 */
    for (size_t i = 8; i + sizeof first <= n; i++)
        if (memcmp(d + i, first, sizeof first) == 0 && d[i - 4] == 8) return i - 8;
    return 0;
}

PM_TEST(every_truncation_fails_cleanly) {
    /* yw: every offset in the header (first 256 bytes) and from the bone section to the end; a stride
     * of 61 bytes through vertices, faces and materials (the full sweep takes minutes under ASan).
     * mmt (same skeleton, other exporter): the same with a stride of 5 in the bone section. */
    for (int f = 0; f < 2; f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(fixtures[f], &n);
        if (!d) continue;
        size_t bones = bone_section_offset(d, n);
        PM_CHECK(bones > 1000);
        size_t first_ok = 0, checked = 0;
        int order_ok = 1;
        size_t bone_step = (f == 0 ? 1 : 5) * (pm_test_quick() ? 7 : 1); /* PM_TEST_QUICK: valgrind */
        for (size_t cut = 0; cut < n; cut = cut < 256 ? cut + 1 : cut >= bones ? cut + bone_step : (cut + 61 < bones ? cut + 61 : bones)) {
            unsigned char *copy = malloc(cut ? cut : 1); /* exact-size copy: ASan sees any over-read */
            memcpy(copy, d, cut);
            pm_skeleton *s = (pm_skeleton *)1;
            pm_error err = {0};
            pm_result r = pm_pmx_read(copy, cut, NULL, &s, &err);
            checked++;
            if (r == PM_OK) {
                if (!first_ok) first_ok = cut;
                pm_skeleton_free(s);
            } else {
                if (first_ok) order_ok = 0;
                PM_CHECK_MSG(r == PM_ERR_TRUNCATED, "cut at %zu: %s (%s)", cut, pm_result_name(r), err.message);
                PM_CHECK(s == NULL);
                PM_CHECK(strncmp(err.message, "pmx: ", 5) == 0);
            }
            free(copy);
        }
        /* reading stops after the morph section: everything shorter fails, everything longer reads */
        PM_CHECK(order_ok);
        PM_CHECK(first_ok > bones + 114 * 40);
        printf("  %s: %zu truncations checked, bones at %zu, reads from %zu of %zu bytes\n", fixtures[f], checked, bones,
               first_ok, n);
        free(d);
    }
}

/* Patch 1-4 random bytes (fixed seed; 1500 files, PM_PATCH_ITERATIONS for more) in the header, the bone and morph sections or anywhere, and
 * read: never a crash or a sanitizer report; either an error that starts "pmx: " or a skeleton
 * that validates. */
PM_TEST(random_byte_patches_never_crash) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    if (!d) return;
    size_t bones = bone_section_offset(d, n);
    unsigned char *copy = malloc(n);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int ok = 0, failed = 0, iterations = getenv("PM_PATCH_ITERATIONS") ? atoi(getenv("PM_PATCH_ITERATIONS")) : 1500;
    for (int it = 0; it < iterations; it++) {
        memcpy(copy, d, n);
        int patches = 1 + (int)((seed >> 60) & 3);
        for (int k = 0; k < patches; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t region = (seed >> 33) % 4;
            size_t at = region == 0 ? (seed >> 40) % 120 : region == 3 ? (seed >> 20) % n : bones + (seed >> 20) % (n - bones);
            copy[at] = (uint8_t)(seed >> 12);
        }
        pm_skeleton *s = NULL;
        pm_error err = {0};
        pm_result r = pm_pmx_read(copy, n, NULL, &s, &err);
        if (r == PM_OK) {
            ok++;
            PM_CHECK_OK(pm_skeleton_validate(s, &err), &err);
            pm_skeleton_free(s);
        } else {
            failed++;
            PM_CHECK_MSG(strncmp(err.message, "pmx: ", 5) == 0 && s == NULL, "patched read: %s", err.message);
        }
    }
    printf("  %d patched files (PM_PATCH_ITERATIONS): %d read, %d refused\n", iterations, ok, failed);
    free(copy);
    free(d);
}

PM_TEST(truncation_messages_name_the_section_and_element) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    if (!d) return;
    size_t bones = bone_section_offset(d, n);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    /* counts are checked against the bytes left first ... */
    PM_CHECK_EQ_INT(pm_pmx_read(d, bones + 4 + 300, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_MSG(strstr(err.message, "pmx: bones: bone count 114 needs at least"), "%s", err.message);
    PM_CHECK_EQ_INT(pm_pmx_read(d, 5000, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_MSG(strstr(err.message, "pmx: vertices: vertex count 2141 needs at least"), "%s", err.message);
    /* ... then a cut inside a record names the element */
    PM_CHECK_EQ_INT(pm_pmx_read(d, bones + 4 + 5000, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_MSG(strstr(err.message, "pmx: bone ") && strstr(err.message, " of 114: "), "%s", err.message);
    PM_CHECK_EQ_INT(pm_pmx_read(d, 120000, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_MSG(strstr(err.message, "pmx: vertex ") && strstr(err.message, " of 2141: "), "%s", err.message);
    free(d);
}

static const tb_pmx_sizes z1 = {2.0f, 0, 1, 1, 1, 1, 1, 1};

PM_TEST(hostile_counts_are_rejected_before_allocation) {
    struct {
        const char *what;
        int section; /* 0 vertices, 1 faces, 2 textures, 3 materials, 4 bones, 5 IK links, 6 morphs, 7 text */
        int32_t count;
        pm_result expect;
    } cases[] = {
        {"2e9 vertices", 0, 2000000000, PM_ERR_TRUNCATED}, {"-1 vertices", 0, -1, PM_ERR_BAD_FORMAT},
        {"2e9 face indices", 1, 1999999998, PM_ERR_TRUNCATED}, {"2e9 textures", 2, 2000000000, PM_ERR_TRUNCATED},
        {"2e9 materials", 3, 2000000000, PM_ERR_TRUNCATED}, {"2e9 bones", 4, 2000000000, PM_ERR_TRUNCATED},
        {"-5 bones", 4, -5, PM_ERR_BAD_FORMAT}, {"2e9 IK links", 5, 2000000000, PM_ERR_TRUNCATED},
        {"-2 IK links", 5, -2, PM_ERR_BAD_FORMAT}, {"2e9 morphs", 6, 2000000000, PM_ERR_TRUNCATED},
        {"2 GB name", 7, 0x7fffffff, PM_ERR_TRUNCATED}, {"negative name length", 7, -100, PM_ERR_BAD_FORMAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb b = {0};
        tb_pmx_header(&b, z1);
        int sec = cases[i].section;
        int32_t c = cases[i].count;
        tb_i32(&b, sec == 0 ? c : 0);
        tb_i32(&b, sec == 1 ? c : 0);
        tb_i32(&b, sec == 2 ? c : 0);
        tb_i32(&b, sec == 3 ? c : 0);
        if (sec <= 3) tb_zero(&b, 64);
        if (sec == 4) tb_i32(&b, c), tb_zero(&b, 64);
        if (sec == 5 || sec == 6 || sec == 7) {
            tb_i32(&b, 1);
            if (sec == 7) tb_i32(&b, c), tb_zero(&b, 64);
            else {
                tb_text(&b, "ik");
                tb_text(&b, "");
                tb_vec3(&b, 0, 0, 0);
                tb_idx(&b, 1, -1);
                tb_i32(&b, 0);
                tb_u16(&b, sec == 5 ? 0x003A : 0x001A);
                tb_vec3(&b, 0, 0, 0);
                if (sec == 5) {
                    tb_idx(&b, 1, -1);
                    tb_i32(&b, 40);
                    tb_f32(&b, 1);
                    tb_i32(&b, c);
                    tb_zero(&b, 64);
                } else {
                    tb_i32(&b, c);
                    tb_zero(&b, 64);
                }
            }
        }
        counting cnt = {0, 0, 0, -1};
        pm_model_read_options o = {{counting_alloc, counting_free, &cnt, 0}, 0, 0, 0};
        pm_skeleton *s = NULL;
        pm_error err = {0};
        pm_result r = pm_pmx_read(b.d, b.n, &o, &s, &err);
        PM_CHECK_MSG(r == cases[i].expect, "%s: got %s (%s)", cases[i].what, pm_result_name(r), err.message);
        PM_CHECK(s == NULL);
        PM_CHECK_MSG(cnt.largest < 65536, "%s: allocated %zu bytes", cases[i].what, cnt.largest);
        PM_CHECK_EQ_INT(cnt.live, 0);
        free(b.d);
    }
}

PM_TEST(bone_and_morph_limits) {
    tb b = {0};
    tb_pmx_header(&b, z1);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 3);
    for (int i = 0; i < 3; i++) tb_pmx_bone(&b, z1, "b", i - 1, (float)i, 0, 0, NULL, 0);
    tb_i32(&b, 0);
    pm_model_read_options o = {0};
    o.max_bones = 2;
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, &o, &s, &err), PM_ERR_LIMIT);
    o.max_bones = 3;
    PM_CHECK_OK(pm_pmx_read(b.d, b.n, &o, &s, &err), &err);
    pm_skeleton_free(s);
    free(b.d);
}

/* A model with `nv` vertices (vertex index size vsize), faces using the last vertex, one bone. */
static tb model_with_vertices(tb_pmx_sizes z, uint32_t nv, int weight_type) {
    tb b = {0};
    tb_pmx_header(&b, z);
    tb_i32(&b, (int32_t)nv);
    for (uint32_t i = 0; i < nv; i++) {
        tb_zero(&b, 32 + 16u * z.add_uv);
        tb_u8(&b, (uint8_t)weight_type);
        int bones = weight_type == 0 ? 1 : (weight_type == 1 || weight_type == 3) ? 2 : 4;
        for (int k = 0; k < bones; k++) tb_idx(&b, z.bsize, k == 0 ? 0 : -1);
        size_t extra = weight_type == 0 ? 0 : weight_type == 1 ? 4 : weight_type == 3 ? 40 : 16;
        tb_zero(&b, extra);
        tb_f32(&b, 1);
    }
    tb_i32(&b, 3);
    for (int k = 0; k < 3; k++) tb_idx(&b, z.vsize, (int32_t)(nv - 1)); /* unsigned for 1 and 2 bytes */
    tb_i32(&b, 0);                                                      /* textures */
    tb_i32(&b, 1);                                                      /* one material */
    tb_text(&b, "m");
    tb_text(&b, "");
    tb_zero(&b, 44 + 1 + 20);
    tb_idx(&b, z.tsize, -1);
    tb_idx(&b, z.tsize, -1);
    tb_u8(&b, 0);
    tb_u8(&b, 1);
    tb_u8(&b, 3);
    tb_text(&b, "");
    tb_i32(&b, 3);
    tb_i32(&b, 1);
    tb_pmx_bone(&b, z, "root", -1, 0, 0, 0, NULL, 0);
    tb_i32(&b, 0);
    return b;
}

PM_TEST(vertex_indices_are_unsigned_for_sizes_1_and_2) {
    tb_pmx_sizes z = z1;
    tb b = model_with_vertices(z, 255, 0); /* face index 254 = 0xFE; with 256 vertices 0xFF */
    pm_skeleton *s = read_ok(b.d, b.n);
    PM_CHECK(s && s->source.vertex_count == 255);
    pm_skeleton_free(s);
    free(b.d);
    b = model_with_vertices(z, 256, 0);
    s = read_ok(b.d, b.n); /* saba would read 0xFF as -1 */
    pm_skeleton_free(s);
    free(b.d);
    z.vsize = 2;
    b = model_with_vertices(z, 65536, 0); /* index 0xFFFF */
    s = read_ok(b.d, b.n);
    pm_skeleton_free(s);
    free(b.d);
    /* an index past the vertices is an error naming the face index */
    z.vsize = 1;
    tb c = {0};
    tb_pmx_header(&c, z);
    tb_i32(&c, 1);
    tb_pmx_vertex(&c, z, 0);
    tb_i32(&c, 3);
    tb_u8(&c, 0);
    tb_u8(&c, 0);
    tb_u8(&c, 200);
    tb_zero(&c, 64);
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmx_read(c.d, c.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "face index 2 of 3") && strstr(err.message, "200"), "%s", err.message);
    free(c.d);
}

PM_TEST(weight_types_and_versions) {
    for (int t = 0; t <= 4; t++) {
        tb_pmx_sizes z = z1;
        z.bsize = 2;
        tb b = model_with_vertices(z, 3, t);
        pm_skeleton *s = NULL;
        pm_error err = {0};
        pm_result r = pm_pmx_read(b.d, b.n, NULL, &s, &err);
        if (t == 4) { /* QDEF only in 2.1 */
            PM_CHECK_EQ_INT(r, PM_ERR_BAD_FORMAT);
            PM_CHECK_MSG(strstr(err.message, "QDEF"), "%s", err.message);
            free(b.d);
            z.version = 2.1f;
            b = model_with_vertices(z, 3, t);
            r = pm_pmx_read(b.d, b.n, NULL, &s, &err);
        }
        PM_CHECK_MSG(r == PM_OK, "weight type %d: %s", t, err.message);
        pm_skeleton_free(s);
        free(b.d);
    }
    tb b = model_with_vertices(z1, 3, 5);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "vertex 0 of 3: weight type 5"), "%s", err.message);
    free(b.d);
    /* a vertex naming a bone the model lacks */
    tb c = {0};
    tb_pmx_header(&c, z1);
    tb_i32(&c, 2);
    tb_pmx_vertex(&c, z1, 0);
    tb_pmx_vertex(&c, z1, 7);
    tb_i32(&c, 0);
    tb_i32(&c, 0);
    tb_i32(&c, 0);
    tb_i32(&c, 1);
    tb_pmx_bone(&c, z1, "root", -1, 0, 0, 0, NULL, 0);
    tb_i32(&c, 0);
    PM_CHECK_EQ_INT(pm_pmx_read(c.d, c.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "vertex 1 of 2: weight names bone 7"), "%s", err.message);
    free(c.d);
}

PM_TEST(header_checks) {
    struct {
        int byte; /* index into the 17-byte header prefix */
        uint8_t value;
        const char *needle;
    } cases[] = {{0, 'Q', "magic"}, {8, 7, "globals count"}, {9, 2, "encoding"}, {10, 5, "additional UV"},
                 {11, 3, "vertex index size"}, {14, 0, "bone index size"}, {16, 8, "rigid body index size"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb b = model_with_vertices(z1, 3, 0);
        b.d[cases[i].byte] = cases[i].value;
        pm_skeleton *s = NULL;
        pm_error err = {0};
        PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
        PM_CHECK_MSG(strstr(err.message, cases[i].needle), "%s", err.message);
        free(b.d);
    }
    tb b = model_with_vertices(z1, 3, 0);
    float v = 3.0f;
    memcpy(b.d + 4, &v, 4);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_pmx_read(NULL, 0, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_EQ_INT(pm_pmd_read(NULL, 0, NULL, &s, &err), PM_ERR_TRUNCATED);
    PM_CHECK_EQ_INT(pm_model_read(NULL, 0, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_pmx_read(NULL, 10, NULL, &s, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_model_read((const uint8_t *)"Vocaloid Motion Data 0002", 25, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_model_read(b.d, 2, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    memcpy(&v, (float[]){2.0f}, 4);
    memcpy(b.d + 4, &v, 4);
    PM_CHECK_OK(pm_model_read(b.d, b.n, NULL, &s, &err), &err);
    pm_skeleton_free(s);
    free(b.d);
}

/* Morph section with one morph of every type 0..10 (PMX 2.1, 4 additional UVs). */
PM_TEST(every_morph_type_is_skipped_by_its_size) {
    tb_pmx_sizes z = {2.1f, 4, 2, 1, 1, 2, 1, 1};
    tb b = {0};
    tb_pmx_header(&b, z);
    tb_i32(&b, 2);
    tb_pmx_vertex(&b, z, 0);
    tb_pmx_vertex(&b, z, 0);
    tb_i32(&b, 0);
    tb_i32(&b, 0);
    tb_i32(&b, 0);
    tb_i32(&b, 1);
    tb_pmx_bone(&b, z, "root", -1, 0, 0, 0, NULL, 0);
    tb_i32(&b, 11);
    for (int t = 0; t <= 10; t++) {
        char name[8] = {'m', (char)('0' + t / 10), (char)('0' + t % 10), 0};
        tb_text(&b, name);
        tb_text(&b, "");
        tb_u8(&b, (uint8_t)(t % 5));
        tb_u8(&b, (uint8_t)t);
        tb_i32(&b, 2);
        for (int k = 0; k < 2; k++) {
            switch (t) {
            case 0: case 9: tb_idx(&b, z.morph_size, 10 - k), tb_f32(&b, 0.5f); break;
            case 1: tb_idx(&b, z.vsize, 1), tb_vec3(&b, 0, 1, 0); break;
            case 2: tb_idx(&b, z.bsize, 0), tb_zero(&b, 28); break;
            case 8: tb_idx(&b, z.msize, -1), tb_u8(&b, 1), tb_zero(&b, 112); break;
            case 10: tb_idx(&b, z.rsize, 0), tb_u8(&b, 0), tb_zero(&b, 24); break;
            default: tb_idx(&b, z.vsize, 0), tb_zero(&b, 16); break;
            }
        }
    }
    tb_i32(&b, 0); /* display frames (not read) */
    pm_skeleton *s = read_ok(b.d, b.n);
    if (s) {
        PM_CHECK_EQ_INT(s->morph_count, 11);
        PM_CHECK_STR(s->morph_names[10].data, "m10");
        PM_CHECK_EQ_INT(s->morph_panel[3], 3);
        PM_CHECK_NEAR(s->source.version, 2.1, 1e-6);
        PM_CHECK_EQ_INT(s->source.additional_uv, 4);
    }
    pm_skeleton_free(s);
    /* morph type 7 (additional UV 4) in a model declaring 4 extra UVs is fine; declaring 3 is not */
    b.d[10] = 3;
    pm_error err = {0};
    s = NULL;
    PM_CHECK(pm_pmx_read(b.d, b.n, NULL, &s, &err) != PM_OK); /* the vertex layout changes too */
    free(b.d);
}

/* The additional-UV check on its own (above, the changed vertex layout fails the read first): one morph
 * of type 7 (additional UV 4) and no vertices, in models declaring 4 and 3 additional UVs. */
PM_TEST(uv_morph_beyond_the_declared_additional_uvs_is_rejected) {
    for (uint8_t add_uv = 3; add_uv <= 4; add_uv++) {
        tb_pmx_sizes z = {2.1f, add_uv, 1, 1, 1, 1, 1, 1};
        tb b = {0};
        tb_pmx_header(&b, z);
        tb_pmx_no_geometry(&b);
        tb_i32(&b, 1);
        tb_pmx_bone(&b, z, "root", -1, 0, 0, 0, NULL, 0);
        tb_i32(&b, 1);
        tb_text(&b, "uv4");
        tb_text(&b, "");
        tb_u8(&b, 4);
        tb_u8(&b, 7);
        tb_i32(&b, 0);
        tb_i32(&b, 0); /* display frames */
        pm_skeleton *s = NULL;
        pm_error err = {0};
        pm_result r = pm_pmx_read(b.d, b.n, NULL, &s, &err);
        if (add_uv == 4) {
            PM_CHECK_OK(r, &err);
        } else {
            PM_CHECK_EQ_INT(r, PM_ERR_BAD_FORMAT);
            PM_CHECK_MSG(strstr(err.message, "morph type 7 uses additional UV 4 but the model declares 3"), "%s",
                         err.message);
        }
        pm_skeleton_free(s);
        free(b.d);
    }
}

PM_TEST(bad_skeletons_are_rejected) {
    /* parents 0 -> 2 -> 1 -> 0 */
    tb b = {0};
    tb_pmx_header(&b, z1);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 4);
    tb_pmx_bone(&b, z1, "a", 2, 0, 0, 0, NULL, 0);
    tb_pmx_bone(&b, z1, "b", 0, 0, 0, 0, NULL, 0);
    tb_pmx_bone(&b, z1, "c", 1, 0, 0, 0, NULL, 0);
    tb_pmx_bone(&b, z1, "d", -1, 0, 0, 0, NULL, 0);
    tb_i32(&b, 0);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "parent cycle"), "%s", err.message);
    free(b.d);

    /* an IK chain naming itself as a link, then as its target */
    for (int variant = 0; variant < 4; variant++) {
        tb c = {0};
        tb_pmx_header(&c, z1);
        tb_pmx_no_geometry(&c);
        tb_i32(&c, 3);
        tb_pmx_bone(&c, z1, "root", -1, 0, 0, 0, NULL, 0);
        tb_pmx_bone(&c, z1, "leg", 0, 0, 0, 0, NULL, 0);
        int32_t links[2] = {1, variant == 0 ? 2 : variant == 2 ? 9 : 0};
        tb_pmx_bone(&c, z1, "IK", 0, 0, variant == 1 ? 2 : 1, 2, links, 1);
        tb_i32(&c, 0);
        pm_result r = pm_pmx_read(c.d, c.n, NULL, &s, &err);
        if (variant == 3) {
            PM_CHECK_OK(r, &err);
            pm_skeleton_free(s);
        } else {
            PM_CHECK_EQ_INT(r, PM_ERR_BAD_FORMAT);
            const char *want = variant == 0 ? "names the IK bone itself" : variant == 1 ? "names itself as its target" : "refers to bone 9";
            PM_CHECK_MSG(strstr(err.message, want) && strstr(err.message, "(IK)"), "%s", err.message);
        }
        free(c.d);
    }

    /* a parent index of -2 */
    tb d = {0};
    tb_pmx_header(&d, z1);
    tb_pmx_no_geometry(&d);
    tb_i32(&d, 1);
    tb_pmx_bone(&d, z1, "x", -2, 0, 0, 0, NULL, 0);
    tb_i32(&d, 0);
    PM_CHECK_EQ_INT(pm_pmx_read(d.d, d.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "bone 0 of 1: parent index is -2"), "%s", err.message);
    free(d.d);
}

/* Two bones, the second ("head") with the given tail offset, position and fixed axis, then empty
 * morph, display frame, rigid body and joint sections and `trailing` zero bytes. */
static tb quirky_pmx(float tail, float y, float axis, size_t trailing) {
    tb b = {0};
    tb_pmx_header(&b, z1);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 2);
    tb_pmx_bone(&b, z1, "root", -1, 0, 0, 0, NULL, 0);
    tb_text(&b, "head");
    tb_text(&b, "");
    tb_vec3(&b, 0, y, 0);
    tb_idx(&b, z1.bsize, 0);
    tb_i32(&b, 0);
    tb_u16(&b, 0x001A | 0x0400); /* rotatable, visible, enabled, fixed axis */
    tb_vec3(&b, tail, tail, tail);
    tb_vec3(&b, 0, axis, 0);
    for (int k = 0; k < 4; k++) tb_i32(&b, 0);
    tb_zero(&b, trailing);
    return b;
}

PM_TEST(display_only_quirks_are_warnings_and_what_poses_is_still_checked) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    /* what babylon-mmd loads from a Unity-exported model: a tail offset that is NaN, bytes after the end */
    tb b = quirky_pmx(NAN, 1, 1, 4);
    PM_CHECK_OK(pm_pmx_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) {
        PM_CHECK_EQ_INT(s->source.warning_count, 1);
        PM_CHECK_MSG(strstr(s->source.warnings[0].data, "1 bone has a tail offset that is not a finite number (the first: head)"),
                     "%s", s->source.warnings[0].data);
        PM_CHECK(isnan(s->bones[1].tail_offset.x)); /* kept as the file holds it */
        PM_CHECK_OK(pm_skeleton_validate(s, &err), &err);
    }
    pm_skeleton_free(s);
    pm_model *m = NULL;
    PM_CHECK_OK(pm_model_load(b.d, b.n, NULL, &m, &err), &err);
    if (m) {
        PM_CHECK_EQ_INT(m->skeleton->source.warning_count, 2);
        PM_CHECK_STR(m->skeleton->source.warnings[1].data, "pmx: 4 bytes after the last section (ignored)");
    }
    pm_model_free(m);
    free(b.d);
    /* a clean file has none */
    b = quirky_pmx(1, 1, 1, 0);
    PM_CHECK_OK(pm_pmx_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) PM_CHECK_EQ_INT(s->source.warning_count, 0);
    pm_skeleton_free(s);
    free(b.d);
    /* a position or a fixed axis is posed with: not finite, the file is refused */
    for (int k = 0; k < 2; k++) {
        b = k ? quirky_pmx(NAN, 1, INFINITY, 0) : quirky_pmx(1, NAN, 1, 0);
        PM_CHECK_EQ_INT(pm_pmx_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
        PM_CHECK_MSG(strstr(err.message, "bone 1 (head)") && strstr(err.message, "NaN or infinite"), "%s", err.message);
        free(b.d);
    }
}

PM_TEST(skeleton_create_validates) {
    pm_bone_desc bones[3] = {{.name = "root", .position = {0, 0, 0}, .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
                             {.name = "a", .name_en = "A", .position = {0, 1, 0}, .parent = 2, .append_parent = 0},
                             {.name = "b", .position = {0, 2, 0}, .parent = 1, .append_parent = PM_NO_INDEX}};
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_skeleton_create(bones, 3, NULL, 0, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "cycle"), "%s", err.message);
    PM_CHECK(s == NULL);
    bones[1].parent = 0;
    bones[2].position.y = NAN;
    PM_CHECK_EQ_INT(pm_skeleton_create(bones, 3, NULL, 0, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "bone 2 (b)") && strstr(err.message, "NaN"), "%s", err.message);
    bones[2].position.y = 2;
    pm_ik_link link = {1, true, {-3, 0, 0}, {0, 0, 0}};
    bones[2].has_ik = true;
    bones[2].ik = (pm_ik){1, 40, 2.0f, 1, &link};
    const char *morphs[] = {"まばたき"};
    PM_CHECK_OK(pm_skeleton_create(bones, 3, morphs, 1, NULL, &s, &err), &err);
    if (s) {
        PM_CHECK_EQ_INT(s->bones[0].flags, PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED);
        PM_CHECK_EQ_INT(s->bones[1].append_parent, PM_NO_INDEX); /* 0 with ratio 0 = none */
        PM_CHECK(s->bones[2].flags & PM_BONE_IK);
        PM_CHECK(s->bones[2].ik.links != &link); /* copied */
        PM_CHECK_STR(s->bones[1].name_en.data, "A");
        PM_CHECK_STR(s->bones[0].name_en.data, "");
        PM_CHECK_STR(s->morph_names[0].data, "まばたき");
        PM_CHECK_EQ_INT(s->source.format, PM_MODEL_FORMAT_NONE);
        PM_CHECK_EQ_INT(pm_skeleton_find(s, "b"), 2);
        PM_CHECK_EQ_INT(pm_skeleton_find(s, "c"), PM_NO_INDEX);
    }
    pm_skeleton_free(s);
    pm_skeleton_free(NULL);
    link.bone = 2; /* the IK bone as its own link */
    PM_CHECK_EQ_INT(pm_skeleton_create(bones, 3, morphs, 1, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    bones[0].name = NULL;
    PM_CHECK_EQ_INT(pm_skeleton_create(bones, 3, NULL, 0, NULL, &s, &err), PM_ERR_INVALID_ARGUMENT);
}

PM_TEST(find_mmd_folds_full_width_ascii) {
    pm_bone_desc bones[3] = {{.name = "左足ＩＫ", .position = {0, 0, 0}, .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
                             {.name = "右人指１", .position = {0, 0, 0}, .parent = 0, .append_parent = PM_NO_INDEX},
                             {.name = "IK2", .position = {0, 0, 0}, .parent = 0, .append_parent = PM_NO_INDEX}};
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_create(bones, 3, NULL, 0, NULL, &s, &err), &err);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足IK"), 0);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足ＩK"), 0);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "右人指1"), 1);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "ＩＫ２"), 2);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足ik"), PM_NO_INDEX); /* case is kept */
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足"), PM_NO_INDEX);
    PM_CHECK_EQ_INT(pm_skeleton_find_mmd(s, "左足ＩＫ2"), PM_NO_INDEX);
    pm_skeleton_free(s);
}

static void check_same_skeleton(const pm_skeleton *a, const pm_skeleton *b) {
    PM_CHECK_EQ_INT(a->bone_count, b->bone_count);
    PM_CHECK_STR(a->model_name.data, b->model_name.data);
    PM_CHECK_STR(a->model_name_en.data, b->model_name_en.data);
    PM_CHECK_STR(a->source.model_comment.data, b->source.model_comment.data);
    PM_CHECK_EQ_INT(a->morph_count, b->morph_count);
    for (uint32_t i = 0; i < a->morph_count && i < b->morph_count; i++) {
        PM_CHECK_STR(a->morph_names[i].data, b->morph_names[i].data);
        if (a->morph_panel && b->morph_panel) PM_CHECK_EQ_INT(a->morph_panel[i], b->morph_panel[i]);
    }
    for (uint32_t i = 0; i < a->bone_count && i < b->bone_count; i++) {
        const pm_bone *x = &a->bones[i], *y = &b->bones[i];
        PM_CHECK_STR(x->name.data, y->name.data);
        PM_CHECK_STR(x->name_en.data, y->name_en.data);
        int same = memcmp(&x->position, &y->position, sizeof x->position) == 0 && x->parent == y->parent &&
                   x->transform_order == y->transform_order && x->flags == y->flags &&
                   memcmp(&x->tail_offset, &y->tail_offset, sizeof(pm_vec3)) == 0 && x->tail_bone == y->tail_bone &&
                   x->append_parent == y->append_parent && x->append_ratio == y->append_ratio &&
                   memcmp(&x->fixed_axis, &y->fixed_axis, sizeof(pm_vec3)) == 0 &&
                   memcmp(&x->local_x, &y->local_x, sizeof(pm_vec3)) == 0 &&
                   memcmp(&x->local_z, &y->local_z, sizeof(pm_vec3)) == 0 &&
                   x->external_parent_key == y->external_parent_key && x->has_ik == y->has_ik;
        if (same && x->has_ik) {
            same = x->ik.target == y->ik.target && x->ik.loop_count == y->ik.loop_count &&
                   x->ik.limit_angle == y->ik.limit_angle && x->ik.link_count == y->ik.link_count;
            for (uint32_t k = 0; same && k < x->ik.link_count; k++) {
                const pm_ik_link *l = &x->ik.links[k], *m = &y->ik.links[k];
                same = l->bone == m->bone && l->has_limit == m->has_limit &&
                       (!l->has_limit || (memcmp(&l->limit_min, &m->limit_min, sizeof(pm_vec3)) == 0 &&
                                          memcmp(&l->limit_max, &m->limit_max, sizeof(pm_vec3)) == 0));
            }
        }
        PM_CHECK_MSG(same, "bone %u (%s) differs after the round trip", i, x->name.data);
    }
}

PM_TEST(fixture_skeletons_round_trip_through_the_writer) {
    for (int f = 0; f < 2; f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(fixtures[f], &n);
        if (!d) continue;
        pm_skeleton *s = read_ok(d, n);
        for (uint8_t enc = 0; s && enc < 2; enc++) {
            pm_pmx_model m = {0};
            m.skeleton = s;
            pm_pmx_write_options wo = {enc};
            size_t size = 0;
            pm_error err = {0};
            PM_CHECK_OK(pm_pmx_write(&m, &wo, NULL, 0, &size, &err), &err);
            unsigned char *out = malloc(size);
            size_t size2 = 0;
            PM_CHECK_EQ_INT(pm_pmx_write(&m, &wo, out, size - 1, &size2, &err), PM_ERR_INVALID_ARGUMENT);
            PM_CHECK_OK(pm_pmx_write(&m, &wo, out, size, &size2, &err), &err);
            PM_CHECK_EQ_INT(size2, size);
            pm_skeleton *t = read_ok(out, size);
            if (t) {
                check_same_skeleton(s, t);
                PM_CHECK_EQ_INT(t->source.encoding, enc);
                PM_CHECK_EQ_INT(t->source.vertex_count, 0);
            }
            pm_skeleton_free(t);
            free(out);
        }
        pm_skeleton_free(s);
        free(d);
    }
}

PM_TEST(writer_round_trips_geometry_morphs_and_frames) {
    pm_ik_link link = {1, true, {-3.0f, 0, 0}, {-0.01f, 0, 0}};
    pm_bone_desc bones[3] = {{.name = "root", .name_en = "Root", .position = {0, 0, 0}, .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
                             {.name = "ひざ", .position = {0, 5, 0}, .parent = 0, .append_parent = PM_NO_INDEX},
                             {.name = "足ＩＫ", .position = {0, 1, 0}, .parent = 0, .flags = 0x1E, .append_parent = PM_NO_INDEX, .has_ik = true, .ik = {1, 40, 2.0f, 1, &link}}};
    bones[1].append_parent = 0, bones[1].append_ratio = 0.5f;
    const char *names[] = {"extra", "あ"};
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_create(bones, 3, names, 2, NULL, &s, &err), &err);
    if (!s) return;
    pm_pmx_vertex v[300];
    memset(v, 0, sizeof v);
    uint32_t idx[300];
    for (int i = 0; i < 300; i++) {
        v[i].position = (pm_vec3){(float)i, 0, 0};
        v[i].bone[0] = (uint32_t)(i % 3);
        v[i].bone[1] = i % 2 ? 1u : PM_NO_INDEX;
        v[i].weight = 0.25f;
        idx[i] = (uint32_t)(299 - i);
    }
    pm_pmx_material mats[2] = {{"skin", NULL, {1, 0.8f, 0.7f, 1}, {0, 0, 0}, 5, {0.5f, 0.4f, 0.3f}, 0x0E, {0, 0, 0, 1}, 1, 1, 150},
                               {"cloth", "Cloth", {0, 0, 1, 1}, {0, 0, 0}, 5, {0, 0, 0.5f}, 0x1E, {0, 0, 0, 1}, 1, -1, 150}};
    uint32_t mv[2] = {299, 5};
    pm_vec3 mo[2] = {{0, 1, 0}, {0, -1, 0}};
    pm_pmx_vertex_morph morph = {"あ", "a", 3, 2, mv, mo};
    pm_pmx_display_item items[2] = {{0, 2}, {1, 0}};
    pm_pmx_display_frame frames[1] = {{"IK", "IK", false, 2, items}};
    pm_pmx_model m = {s, 300, v, 300, idx, 2, mats, 1, &morph, 1, frames};
    size_t size;
    PM_CHECK_OK(pm_pmx_write(&m, NULL, NULL, 0, &size, &err), &err);
    unsigned char *out = malloc(size);
    PM_CHECK_OK(pm_pmx_write(&m, NULL, out, size, &size, &err), &err);
    pm_skeleton *t = read_ok(out, size);
    if (t) {
        PM_CHECK_EQ_INT(t->source.vertex_count, 300);
        PM_CHECK_EQ_INT(t->source.face_count, 100);
        PM_CHECK_EQ_INT(t->source.material_count, 2);
        PM_CHECK_EQ_INT(t->bone_count, 3);
        PM_CHECK_EQ_INT(t->morph_count, 2); /* あ (with offsets) first, then the skeleton's "extra" */
        PM_CHECK_STR(t->morph_names[0].data, "あ");
        PM_CHECK_STR(t->morph_names[1].data, "extra");
        PM_CHECK_EQ_INT(t->morph_panel[0], 3);
        PM_CHECK_EQ_INT(t->bones[1].append_parent, 0);
        PM_CHECK_NEAR(t->bones[1].append_ratio, 0.5, 0);
        PM_CHECK_EQ_INT(t->bones[2].ik.links[0].bone, 1);
        PM_CHECK_NEAR(t->bones[2].ik.links[0].limit_max.x, -0.01, 1e-9);
        PM_CHECK_EQ_INT(t->bones[2].flags, 0x1E | PM_BONE_IK);
    }
    pm_skeleton_free(t);
    /* bad input is refused with a message */
    idx[7] = 300;
    PM_CHECK_EQ_INT(pm_pmx_write(&m, NULL, NULL, 0, &size, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_MSG(strstr(err.message, "face index 7"), "%s", err.message);
    idx[7] = 0;
    mats[1].index_count = 147;
    PM_CHECK_EQ_INT(pm_pmx_write(&m, NULL, NULL, 0, &size, &err), PM_ERR_INVALID_ARGUMENT);
    mats[1].index_count = 150;
    v[3].position.y = INFINITY;
    PM_CHECK_EQ_INT(pm_pmx_write(&m, NULL, NULL, 0, &size, &err), PM_ERR_INVALID_ARGUMENT);
    v[3].position.y = 0;
    items[0].index = 3;
    PM_CHECK_EQ_INT(pm_pmx_write(&m, NULL, NULL, 0, &size, &err), PM_ERR_INVALID_ARGUMENT);
    free(out);
    pm_skeleton_free(s);
}

/* ---- text that does not decode cleanly ------------------------------------------------------- */

static void raw_text(tb *b, const void *bytes, size_t n) {
    tb_i32(b, (int32_t)n);
    tb_put(b, bytes, n);
}

/* A PMX whose model name, bone names and morph name are the given raw texts (encoding 0 or 1). */
static tb pmx_with_texts(uint8_t encoding, const void *const *texts, const size_t *sizes) {
    tb b = {0};
    tb_put(&b, "PMX ", 4);
    tb_f32(&b, 2.0f);
    tb_u8(&b, 8);
    const uint8_t g[8] = {encoding, 0, 1, 1, 1, 1, 1, 1};
    tb_put(&b, g, 8);
    raw_text(&b, texts[0], sizes[0]); /* model name */
    raw_text(&b, "", 0);
    raw_text(&b, texts[1], sizes[1]); /* comment */
    raw_text(&b, "", 0);
    tb_pmx_no_geometry(&b);
    tb_i32(&b, 2);
    for (int k = 0; k < 2; k++) {
        raw_text(&b, texts[2 + k], sizes[2 + k]); /* bone names */
        raw_text(&b, k ? texts[5] : "", k ? sizes[5] : 0); /* bone 1's English name */
        tb_vec3(&b, 0, (float)k, 0);
        tb_idx(&b, 1, k - 1);
        tb_i32(&b, 0);
        tb_u16(&b, 0x001A);
        tb_vec3(&b, 0, 1, 0);
    }
    tb_i32(&b, 1);
    raw_text(&b, texts[4], sizes[4]); /* morph name */
    raw_text(&b, "", 0);
    tb_u8(&b, 4), tb_u8(&b, 1), tb_i32(&b, 0);
    return b;
}

static uint8_t *write_pmx(const pm_skeleton *s, uint8_t encoding, size_t *n) {
    pm_pmx_model m = {.skeleton = s};
    pm_pmx_write_options o = {encoding};
    pm_error err = {0};
    *n = 0;
    PM_CHECK_OK(pm_pmx_write(&m, &o, NULL, 0, n, &err), &err);
    uint8_t *out = malloc(*n ? *n : 1);
    PM_CHECK_OK(pm_pmx_write(&m, &o, out, *n, n, &err), &err);
    return out;
}

PM_TEST(unpaired_surrogates_and_invalid_utf8_read_as_u_fffd_and_are_written_back_as_stored) {
    static const pm_model_text which[6] = {PM_MODEL_TEXT_MODEL_NAME, PM_MODEL_TEXT_COMMENT, PM_MODEL_TEXT_BONE_NAME,
                                           PM_MODEL_TEXT_BONE_NAME, PM_MODEL_TEXT_MORPH_NAME, PM_MODEL_TEXT_BONE_NAME_EN};
    static const uint32_t index[6] = {0, 0, 0, 1, 0, 1};
    /* UTF-16LE: an unpaired high surrogate, a lone low surrogate, a clean name, an odd length, a NUL
     * inside, and a surrogate pair (clean) */
    const uint8_t u0[] = {0x00, 0xD8, 'x', 0}, u1[] = {'c', 0, 0x00, 0xDC}, u2[] = {0x2D, 0x4E, 0x0B, 0x4E};
    const uint8_t u3[] = {'a', 0, 'b'}, u4[] = {'m', 0, 0, 0, 'x', 0}, u5[] = {0x3D, 0xD8, 0x00, 0xDE};
    const void *t16[6] = {u0, u1, u2, u3, u4, u5};
    const size_t n16[6] = {4, 4, 4, 3, 6, 4};
    const bool bad16[6] = {true, true, false, true, true, false};
    /* UTF-8: a lone continuation byte, a cut sequence, clean text, an overlong form, a NUL, 0xFF */
    const void *t8[6] = {"m\x80", "c\xE3\x81", "\xE4\xB8\xAD", "\xC0\xAF", "m\0x", "\xFF"};
    const size_t n8[6] = {2, 3, 3, 2, 3, 1};
    const bool bad8[6] = {true, true, false, true, true, true};
    for (uint8_t enc = 0; enc <= 1; enc++) {
        tb b = pmx_with_texts(enc, enc ? t8 : t16, enc ? n8 : n16);
        pm_skeleton *s = read_ok(b.d, b.n);
        if (!s) {
            free(b.d);
            continue;
        }
        PM_CHECK(strstr(s->model_name.data, "\xEF\xBF\xBD") != NULL);
        for (int k = 0; k < 6; k++) {
            const uint8_t *raw = NULL;
            size_t size = 0;
            uint8_t e = 9;
            const bool kept = pm_model_raw_text(s, which[k], index[k], &raw, &size, &e);
            PM_CHECK_MSG(kept == (enc ? bad8[k] : bad16[k]), "encoding %u text %d kept %d", enc, k, kept);
            if (kept)
                PM_CHECK(e == enc && size == (enc ? n8 : n16)[k] && memcmp(raw, (enc ? t8 : t16)[k], size) == 0);
        }
        PM_CHECK(!pm_model_raw_text(s, PM_MODEL_TEXT_BONE_NAME, 2, NULL, NULL, NULL));
        /* written in the file's encoding: every text comes back as stored */
        size_t n = 0;
        uint8_t *w = write_pmx(s, enc, &n);
        pm_skeleton *back = read_ok(w, n);
        if (back) {
            PM_CHECK_STR(back->model_name.data, s->model_name.data);
            PM_CHECK_STR(back->bones[1].name.data, s->bones[1].name.data);
            PM_CHECK_STR(back->morph_names[0].data, s->morph_names[0].data);
            for (int k = 0; k < 6; k++) {
                const uint8_t *r1 = NULL, *r2 = NULL;
                size_t n1 = 0, n2 = 0;
                const bool k1 = pm_model_raw_text(s, which[k], index[k], &r1, &n1, NULL);
                const bool k2 = pm_model_raw_text(back, which[k], index[k], &r2, &n2, NULL);
                PM_CHECK_MSG(k1 == k2 && n1 == n2 && (!k1 || memcmp(r1, r2, n1) == 0), "encoding %u text %d", enc, k);
            }
        }
        pm_skeleton_free(back);
        free(w);
        /* in the other encoding the text is written as decoded (U+FFFD), which reads back clean */
        w = write_pmx(s, (uint8_t)!enc, &n);
        back = read_ok(w, n);
        if (back) {
            PM_CHECK_STR(back->bones[0].name.data, s->bones[0].name.data);
            PM_CHECK(!pm_model_raw_text(back, PM_MODEL_TEXT_MODEL_NAME, 0, NULL, NULL, NULL));
        }
        pm_skeleton_free(back);
        free(w);
        /* a text the caller replaced is written as the new text */
        s->bones[0].name = (pm_string){"hip", 3};
        w = write_pmx(s, enc, &n);
        back = read_ok(w, n);
        if (back) PM_CHECK_STR(back->bones[0].name.data, "hip");
        pm_skeleton_free(back);
        free(w);
        pm_skeleton_free(s);
        free(b.d);
    }
}

PM_TEST(allocation_failures_are_clean) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    if (!d) return;
    int succeeded = 0;
    for (long k = 0; k < 200 && !succeeded; k++) {
        counting c = {0, 0, 0, k};
        pm_model_read_options o = {{counting_alloc, counting_free, &c, 0}, 0, 0, 0};
        pm_skeleton *s = NULL;
        pm_error err = {0};
        pm_result r = pm_pmx_read(d, n, &o, &s, &err);
        if (r == PM_OK) {
            succeeded = 1;
            pm_skeleton_free(s);
        } else {
            PM_CHECK_MSG(r == PM_ERR_OUT_OF_MEMORY, "failing allocation %ld: %s", k, err.message);
        }
        PM_CHECK_EQ_INT(c.live, 0);
    }
    PM_CHECK(succeeded);
    free(d);
}

int main(void) { return pm_test_run_all(); }
