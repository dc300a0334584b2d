/* VMD reader and writer: real fixtures round-trip, truncation at every offset, hostile counts,
 * the builder, interpolation layout. */
#include "pm_test.h"
#include "pmx_builder.h"

#include "procmotion/text.h"
#include "procmotion/vmd.h"

static const char *const fixtures[] = {
    "vmd/mei_wait.vmd",      "vmd/mei_greeting.vmd",    "vmd/gene_stand.vmd",
    "vmd/gene_02_laugh.vmd", "vmd/babylon_physics_toggle_test_yyb10th.vmd", "vmd/mmt_test_model_test_motion.vmd",
    "vmd/wavefile_camera.vmd",
};

/* The bytes the canonical writer must produce for a file: names NUL-padded after their terminator, the
 * v2 header padded with NUL, and missing trailing section counts appended as zero. */
static unsigned char *canonical(const unsigned char *in, size_t size, size_t *out_size) {
    unsigned char *c = calloc(1, size + 64);
    memcpy(c, in, size);
    size_t n = size;
    memset(c + 25, 0, 5); /* header padding */
    size_t p = 50;
#define ZERO_AFTER_NUL(off, width)                                                                                     \
    do {                                                                                                               \
        unsigned char *f_ = c + (off);                                                                                 \
        size_t k_ = 0;                                                                                                 \
        while (k_ < (width) && f_[k_]) k_++;                                                                           \
        if (k_ < (width)) memset(f_ + k_, 0, (width) - k_);                                                            \
    } while (0)
    ZERO_AFTER_NUL(30, 20);
    const size_t rec[5] = {111, 23, 61, 28, 9};
    for (int s = 0; s < 6; s++) {
        if (p == n) { /* the file ended here: the writer adds a zero count */
            memset(c + n, 0, 4);
            n += 4;
            p += 4;
            continue;
        }
        uint32_t count = (uint32_t)c[p] | (uint32_t)c[p + 1] << 8 | (uint32_t)c[p + 2] << 16 | (uint32_t)c[p + 3] << 24;
        p += 4;
        for (uint32_t i = 0; i < count; i++) {
            if (s == 0 || s == 1) {
                ZERO_AFTER_NUL(p, 15);
                p += rec[s];
            } else if (s < 5) {
                p += rec[s];
            } else {
                uint32_t ik = (uint32_t)c[p + 5] | (uint32_t)c[p + 6] << 8 | (uint32_t)c[p + 7] << 16 |
                              (uint32_t)c[p + 8] << 24;
                p += 9;
                for (uint32_t j = 0; j < ik; j++, p += 21) ZERO_AFTER_NUL(p, 20);
            }
        }
    }
    *out_size = p; /* bytes after the property section are not written */
    return c;
}

/* Write `v` (lossless, or canonical) into a new buffer; NULL (and a failed check) on error. */
static unsigned char *write_all(const pm_vmd *v, bool canonical_form, size_t *size) {
    pm_error err = {0};
    pm_vmd_write_options o = {canonical_form};
    *size = 0;
    if (pm_vmd_write_with(v, &o, NULL, 0, size, &err) != PM_OK) {
        PM_FAIL_AT("write: %s", err.message);
        return NULL;
    }
    unsigned char *buf = malloc(*size ? *size : 1);
    if (pm_vmd_write_with(v, &o, buf, *size, size, &err) != PM_OK) {
        PM_FAIL_AT("write: %s", err.message);
        free(buf);
        return NULL;
    }
    return buf;
}

static void check_same_content(const pm_vmd *a, const pm_vmd *b) {
    PM_CHECK_STR(a->model_name.data, b->model_name.data);
    PM_CHECK_EQ_INT(a->bones.count, b->bones.count);
    PM_CHECK_EQ_INT(a->morphs.count, b->morphs.count);
    PM_CHECK_EQ_INT(a->cameras.count, b->cameras.count);
    PM_CHECK_EQ_INT(a->lights.count, b->lights.count);
    PM_CHECK_EQ_INT(a->shadows.count, b->shadows.count);
    PM_CHECK_EQ_INT(a->properties.count, b->properties.count);
    PM_CHECK_EQ_INT(a->properties.ik_count, b->properties.ik_count);
    if (a->bones.count != b->bones.count || a->morphs.count != b->morphs.count) return;
    for (uint32_t i = 0; i < a->bones.count; i++) {
        PM_CHECK_STR(a->bone_names.items[a->bones.name_index[i]].data, b->bone_names.items[b->bones.name_index[i]].data);
        PM_CHECK_EQ_INT(a->bones.frame[i], b->bones.frame[i]);
        PM_CHECK(memcmp(a->bones.position + 3 * i, b->bones.position + 3 * i, 12) == 0);
        PM_CHECK(memcmp(a->bones.rotation + 4 * i, b->bones.rotation + 4 * i, 16) == 0);
        PM_CHECK(memcmp(a->bones.interpolation + 64 * i, b->bones.interpolation + 64 * i, 64) == 0);
    }
    for (uint32_t i = 0; i < a->morphs.count; i++) {
        PM_CHECK_STR(a->morph_names.items[a->morphs.name_index[i]].data,
                     b->morph_names.items[b->morphs.name_index[i]].data);
        PM_CHECK_EQ_INT(a->morphs.frame[i], b->morphs.frame[i]);
        PM_CHECK(memcmp(&a->morphs.weight[i], &b->morphs.weight[i], 4) == 0);
    }
    if (a->cameras.count == b->cameras.count)
        for (uint32_t i = 0; i < a->cameras.count; i++) {
            PM_CHECK_EQ_INT(a->cameras.frame[i], b->cameras.frame[i]);
            PM_CHECK(memcmp(a->cameras.interpolation + 24 * i, b->cameras.interpolation + 24 * i, 24) == 0);
            PM_CHECK_EQ_INT(a->cameras.fov[i], b->cameras.fov[i]);
        }
    if (a->properties.ik_count == b->properties.ik_count)
        for (uint32_t i = 0; i < a->properties.ik_count; i++) {
            PM_CHECK_STR(a->ik_names.items[a->properties.ik_name_index[i]].data,
                         b->ik_names.items[b->properties.ik_name_index[i]].data);
            PM_CHECK_EQ_INT(a->properties.ik_enabled[i], b->properties.ik_enabled[i]);
        }
}

PM_TEST(every_fixture_is_written_back_byte_identical_and_canonically_on_request) {
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t size;
        unsigned char *data = pm_test_read_fixture(fixtures[f], &size);
        if (!data) continue;
        pm_error err = {0};
        pm_vmd *a = NULL, *b = NULL;
        PM_CHECK_OK(pm_vmd_read(data, size, NULL, &a, &err), &err);
        if (!a) {
            free(data);
            continue;
        }
        size_t wsize = 0, csize = 0, esize = 0;
        unsigned char *w = write_all(a, false, &wsize);
        PM_CHECK_MSG(w && wsize == size && memcmp(w, data, size) == 0, "%s: not written back byte-identical", fixtures[f]);
        unsigned char *cw = write_all(a, true, &csize);
        unsigned char *expect = canonical(data, size, &esize);
        PM_CHECK_MSG(cw && csize == esize && memcmp(cw, expect, esize) == 0,
                     "%s: canonical bytes differ from the canonical original", fixtures[f]);
        PM_CHECK_OK(pm_vmd_read(cw, csize, NULL, &b, &err), &err);
        if (b) check_same_content(a, b);
        size_t differing = 0;
        for (size_t i = 0; i < size && i < csize; i++) differing += data[i] != cw[i];
        printf("  %s: %u sections, %u bone / %u morph / %u camera keys, %zu bytes, written back identical; canonical: "
               "%zu bytes differ (name padding), %zu appended (section counts)\n",
               fixtures[f], a->sections, a->bones.count, a->morphs.count, a->cameras.count, size, differing,
               csize > size ? csize - size : 0);
        free(expect);
        free(cw);
        free(w);
        pm_vmd_free(a);
        pm_vmd_free(b);
        free(data);
    }
}

PM_TEST(fixture_counts_match_their_sources) {
    struct {
        const char *file;
        uint32_t bones, morphs, cameras, sections;
    } expect[] = {
        {"vmd/mei_wait.vmd", 406, 0, 0, 0},
        {"vmd/mei_greeting.vmd", 376, 0, 0, 0},
        {"vmd/gene_02_laugh.vmd", 548, 393, 0, 0},
        {"vmd/wavefile_camera.vmd", 0, 0, 70, 4},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        size_t size;
        unsigned char *data = pm_test_read_fixture(expect[i].file, &size);
        if (!data) continue;
        pm_error err = {0};
        pm_vmd *v = NULL;
        PM_CHECK_OK(pm_vmd_read(data, size, NULL, &v, &err), &err);
        if (v) {
            PM_CHECK_EQ_INT(v->bones.count, expect[i].bones);
            if (expect[i].morphs) PM_CHECK_EQ_INT(v->morphs.count, expect[i].morphs);
            PM_CHECK_EQ_INT(v->cameras.count, expect[i].cameras);
            if (expect[i].sections) PM_CHECK_EQ_INT(v->sections, expect[i].sections);
        }
        pm_vmd_free(v);
        free(data);
    }
}

PM_TEST(known_bone_names_decode_from_shift_jis) {
    size_t size;
    unsigned char *data = pm_test_read_fixture("vmd/mei_wait.vmd", &size);
    if (!data) return;
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_vmd_read(data, size, NULL, &v, &err), &err);
    int found_center = 0, found_ik = 0;
    for (uint32_t i = 0; v && i < v->bone_names.count; i++) {
        if (strcmp(v->bone_names.items[i].data, "センター") == 0) found_center = 1;
        if (strcmp(v->bone_names.items[i].data, "左足ＩＫ") == 0) found_ik = 1;
    }
    PM_CHECK(found_center);
    PM_CHECK(found_ik);
    pm_vmd_free(v);
    free(data);
}

PM_TEST(every_truncation_of_every_fixture_fails_cleanly_or_ends_at_a_section) {
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t size;
        unsigned char *data = pm_test_read_fixture(fixtures[f], &size);
        if (!data) continue;
        pm_error err = {0};
        pm_vmd *full = NULL;
        pm_vmd_read(data, size, NULL, &full, &err);
        uint32_t full_sections = full ? full->sections : 0;
        pm_vmd_free(full);
        size_t accepted = 0;
        for (size_t cut = 0; cut < size; cut += pm_test_quick() ? 7 : 1) {
            pm_test_cut(data, size, cut); /* ASan reports any read past the cut */
            pm_vmd *v = NULL;
            pm_error e = {0};
            pm_result r = pm_vmd_read(data, cut, NULL, &v, &e);
            pm_test_uncut(data, size);
            if (r == PM_OK) {
                accepted++;
                PM_CHECK_MSG(v->sections < full_sections, "%s cut at %zu accepted with all sections", fixtures[f], cut);
            } else {
                PM_CHECK_MSG(v == NULL && e.message[0] != '\0', "%s cut at %zu: no message", fixtures[f], cut);
                PM_CHECK_MSG(r == PM_ERR_TRUNCATED, "%s cut at %zu: %s", fixtures[f], cut, e.message);
            }
            pm_vmd_free(v);
        }
        PM_CHECK_MSG(accepted <= 6, "%s: %zu truncations accepted", fixtures[f], accepted);
        free(data);
    }
}

PM_TEST(truncation_message_names_section_and_key) {
    size_t size;
    unsigned char *data = pm_test_read_fixture("vmd/mei_wait.vmd", &size);
    if (!data) return;
    pm_vmd *v = NULL;
    pm_error e = {0};
    /* cut inside bone key 12 */
    PM_CHECK_EQ_INT(pm_vmd_read(data, 54 + 111 * 12 + 40, NULL, &v, &e), PM_ERR_TRUNCATED);
    PM_CHECK_MSG(strstr(e.message, "bone key 12 of 406") != NULL, "message: %s", e.message);
    free(data);
}

PM_TEST(hostile_counts_are_rejected_before_allocation) {
    unsigned char file[60] = "Vocaloid Motion Data 0002";
    /* bone count = 0xFFFFFFFF in a 54-byte file */
    file[50] = file[51] = file[52] = file[53] = 0xFF;
    pm_allocator limited = {0};
    limited.memory_limit = 1 << 20; /* anything big would fail loudly as out-of-memory, not truncated */
    pm_vmd_read_options o = {limited, 0};
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_EQ_INT(pm_vmd_read(file, 54, &o, &v, &e), PM_ERR_LIMIT);
    file[53] = 0x01; /* 16.7 M keys: under the key limit, but the file is tiny */
    PM_CHECK_EQ_INT(pm_vmd_read(file, 54, &o, &v, &e), PM_ERR_TRUNCATED);
    PM_CHECK(strstr(e.message, "bone key 0 of") != NULL);
    PM_CHECK(v == NULL);
}

PM_TEST(non_vmd_input_is_bad_format) {
    const unsigned char png[] = "\x89PNG\r\n\x1a\n0000000000000000000000000000000000000000000000000000";
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_EQ_INT(pm_vmd_read(png, sizeof png - 1, NULL, &v, &e), PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(e.message, "not a VMD") != NULL);
    PM_CHECK_EQ_INT(pm_vmd_read(NULL, 0, NULL, &v, &e), PM_ERR_TRUNCATED);
}

PM_TEST(nan_in_a_file_is_rejected_with_the_key_named) {
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &e), &e);
    float pos[3] = {1, 2, 3}, rot[4] = {0, 0, 0, 1};
    PM_CHECK_OK(pm_vmd_add_bone_key(v, "センター", 7, pos, rot, NULL, &e), &e);
    size_t size;
    PM_CHECK_OK(pm_vmd_write(v, NULL, 0, &size, &e), &e);
    unsigned char *buf = malloc(size);
    PM_CHECK_OK(pm_vmd_write(v, buf, size, &size, &e), &e);
    const unsigned char nan[4] = {0x00, 0x00, 0xC0, 0x7F};
    memcpy(buf + 54 + 19, nan, 4);
    pm_vmd *w = NULL;
    PM_CHECK_EQ_INT(pm_vmd_read(buf, size, NULL, &w, &e), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(e.message, "センター") && strstr(e.message, "frame 7"), "message: %s", e.message);
    pos[0] = NAN;
    PM_CHECK_EQ_INT(pm_vmd_add_bone_key(v, "センター", 8, pos, rot, NULL, &e), PM_ERR_INVALID_ARGUMENT);
    free(buf);
    pm_vmd_free(v);
}

PM_TEST(builder_interns_names_and_writes_every_section) {
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &e), &e);
    PM_CHECK_OK(pm_vmd_set_model_name(v, "procmotion テスト", &e), &e);
    float pos[3] = {0, 1, 0}, rot[4] = {0, 0, 0, 1};
    for (uint32_t f = 0; f < 100; f++) {
        PM_CHECK_OK(pm_vmd_add_bone_key(v, f % 2 ? "左足ＩＫ" : "センター", f, pos, rot, NULL, &e), &e);
        PM_CHECK_OK(pm_vmd_add_morph_key(v, "まばたき", f, (float)f / 100, &e), &e);
    }
    float cpos[3] = {0, 10, 0}, crot[3] = {0.1f, 0, 0}, color[3] = {0.6f, 0.6f, 0.6f}, dir[3] = {-0.5f, -1, 0.5f};
    PM_CHECK_OK(pm_vmd_add_camera_key(v, 0, -45, cpos, crot, NULL, 30, 0, &e), &e);
    PM_CHECK_OK(pm_vmd_add_light_key(v, 0, color, dir, &e), &e);
    PM_CHECK_OK(pm_vmd_add_shadow_key(v, 0, 1, 0.01f, &e), &e);
    const char *ik[2] = {"左足ＩＫ", "右足ＩＫ"};
    const bool on[2] = {true, false};
    PM_CHECK_OK(pm_vmd_add_property_key(v, 0, true, 2, ik, on, &e), &e);
    PM_CHECK_OK(pm_vmd_add_property_key(v, 30, false, 0, NULL, NULL, &e), &e);
    PM_CHECK_EQ_INT(v->bone_names.count, 2);
    PM_CHECK_EQ_INT(v->morph_names.count, 1);
    size_t size;
    PM_CHECK_OK(pm_vmd_write(v, NULL, 0, &size, &e), &e);
    PM_CHECK_EQ_INT(size, 50 + 24 + 100 * 111 + 100 * 23 + 61 + 28 + 9 + 9 + 2 * 21 + 9);
    unsigned char *buf = malloc(size);
    PM_CHECK_OK(pm_vmd_write(v, buf, size, &size, &e), &e);
    PM_CHECK_EQ_INT(pm_vmd_write(v, buf, size - 1, &size, &e), PM_ERR_INVALID_ARGUMENT);
    pm_vmd *r = NULL;
    PM_CHECK_OK(pm_vmd_read(buf, size, NULL, &r, &e), &e);
    if (r) {
        check_same_content(v, r);
        PM_CHECK_EQ_INT(r->sections, 6);
        PM_CHECK_EQ_INT(r->properties.ik_start[1], 2);
        PM_CHECK_EQ_INT(r->properties.ik_start[2], 2);
        PM_CHECK_EQ_INT(r->properties.visible[1], 0);
    }
    pm_vmd_free(r);
    free(buf);
    pm_vmd_free(v);
    pm_vmd_free(NULL);
}

PM_TEST(unencodable_name_is_an_error_naming_it) {
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &e), &e);
    float pos[3] = {0}, rot[4] = {0, 0, 0, 1};
    PM_CHECK_OK(pm_vmd_add_bone_key(v, "bone😀", 0, pos, rot, NULL, &e), &e);
    size_t size;
    PM_CHECK_EQ_INT(pm_vmd_write(v, NULL, 0, &size, &e), PM_ERR_ENCODING);
    PM_CHECK_MSG(strstr(e.message, "bone😀") && strstr(e.message, "U+1F600"), "message: %s", e.message);
    pm_vmd_free(v);
}

PM_TEST(long_names_are_cut_at_15_bytes_without_splitting_a_character) {
    pm_vmd *v = NULL;
    pm_error e = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &e), &e);
    float pos[3] = {0}, rot[4] = {0, 0, 0, 1};
    /* 8 double-byte characters = 16 bytes: the writer keeps 7 (14 bytes) and a NUL */
    PM_CHECK_OK(pm_vmd_add_bone_key(v, "左右左右左右左右", 0, pos, rot, NULL, &e), &e);
    size_t size;
    PM_CHECK_OK(pm_vmd_write(v, NULL, 0, &size, &e), &e);
    unsigned char *buf = malloc(size);
    PM_CHECK_OK(pm_vmd_write(v, buf, size, &size, &e), &e);
    PM_CHECK_EQ_INT(buf[54 + 14], 0);
    pm_vmd *r = NULL;
    PM_CHECK_OK(pm_vmd_read(buf, size, NULL, &r, &e), &e);
    if (r) PM_CHECK_STR(r->bone_names.items[0].data, "左右左右左右左");
    pm_vmd_free(r);
    free(buf);
    pm_vmd_free(v);
}

PM_TEST(interpolation_pack_uses_the_shifted_rows_and_physics_on) {
    const uint8_t curves[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
    uint8_t b[64];
    pm_vmd_interp_pack(curves, b);
    for (int a = 0; a < 4; a++) {
        uint8_t c[4];
        pm_vmd_interp_unpack(b, a, c);
        PM_CHECK(memcmp(c, curves[a], 4) == 0);
    }
    PM_CHECK_EQ_INT(b[2], 0);
    PM_CHECK_EQ_INT(b[3], 0);
    /* row 1 is row 0's canonical bytes shifted by one */
    PM_CHECK_EQ_INT(b[16], 5);  /* Y_x1 */
    PM_CHECK_EQ_INT(b[17], 9);  /* Z_x1 */
    PM_CHECK_EQ_INT(b[31], 0);  /* shifted-in zero */
    uint8_t lin[64];
    pm_vmd_interp_linear(lin);
    uint8_t c[4];
    pm_vmd_interp_unpack(lin, PM_VMD_AXIS_R, c);
    PM_CHECK(c[0] == 20 && c[1] == 20 && c[2] == 107 && c[3] == 107);
}

/* ---- generated files: damaged names, padding, sections --------------------------------------------- */

/* A VMD made byte by byte. Each name is given as its whole field. */
static void gen_header(tb *b, int version, const uint8_t *model, size_t model_width) {
    tb_put(b, version == 1 ? "Vocaloid Motion Data file" : "Vocaloid Motion Data 0002", 25);
    tb_zero(b, 5);
    tb_put(b, model, model_width);
}
static void gen_bone(tb *b, const uint8_t field[15], uint32_t frame) {
    uint8_t interp[64];
    pm_vmd_interp_linear(interp);
    tb_put(b, field, 15);
    tb_u32(b, frame);
    tb_vec3(b, 0.5f, 0, -0.25f);
    tb_f32(b, 0), tb_f32(b, 0), tb_f32(b, 0), tb_f32(b, 1);
    tb_put(b, interp, 64);
}
static void gen_morph(tb *b, const uint8_t field[15], uint32_t frame, float w) {
    tb_put(b, field, 15);
    tb_u32(b, frame);
    tb_f32(b, w);
}

/* A field of `width` bytes: the name bytes, then (when there is room) a NUL and the padding kind:
 * 0 zeros, 1 0xFD, 2 pseudo-random bytes. */
static void gen_field(uint8_t *field, size_t width, const uint8_t *name, size_t len, int padding, uint32_t seed) {
    memcpy(field, name, len);
    for (size_t k = len; k < width; k++) {
        seed = seed * 1103515245u + 12345u;
        field[k] = k == len ? 0 : padding == 0 ? 0 : padding == 1 ? 0xFD : (uint8_t)(seed >> 16);
    }
}

/* A file with one of everything: model field, bone and morph keys named `f15` (twice each, and a
 * clean name between), a camera, light and shadow key, and a property key with IK states named
 * `f20` and a clean one. */
static void gen_file(tb *b, const uint8_t model[20], const uint8_t f15[15], const uint8_t f20[20]) {
    static const uint8_t center[15] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}; /* センター */
    static const uint8_t leg_ik[20] = {0x8D, 0xB6, 0x91, 0xAB, 0x82, 0x68, 0x82, 0x6A};  /* 左足ＩＫ */
    gen_header(b, 2, model, 20);
    tb_u32(b, 3);
    gen_bone(b, f15, 0);
    gen_bone(b, center, 0);
    gen_bone(b, f15, 10);
    tb_u32(b, 2);
    gen_morph(b, f15, 0, 0.25f);
    gen_morph(b, f15, 5, 1.0f);
    tb_u32(b, 1); /* camera */
    tb_u32(b, 0), tb_f32(b, -45), tb_vec3(b, 0, 10, 0), tb_vec3(b, 0.1f, 0, 0);
    for (int k = 0; k < 6; k++) tb_u8(b, 20), tb_u8(b, 107), tb_u8(b, 20), tb_u8(b, 107);
    tb_u32(b, 30), tb_u8(b, 0);
    tb_u32(b, 1), tb_u32(b, 0), tb_vec3(b, 0.6f, 0.6f, 0.6f), tb_vec3(b, -0.5f, -1, 0.5f); /* light */
    tb_u32(b, 1), tb_u32(b, 0), tb_u8(b, 1), tb_f32(b, 0.01f);                              /* shadow */
    tb_u32(b, 1), tb_u32(b, 0), tb_u8(b, 1), tb_u32(b, 2);                                  /* property */
    tb_put(b, f20, 20), tb_u8(b, 1);
    tb_put(b, leg_ik, 20), tb_u8(b, 0);
}

/* Read `data`; check it is written back byte-identical, that the canonical form is `data` with the
 * padding zeroed, and that both read back to the same names (text and bytes). Returns the motion. */
static pm_vmd *check_round_trips(const char *what, const unsigned char *data, size_t size) {
    pm_error err = {0};
    pm_vmd *v = NULL;
    if (pm_vmd_read(data, size, NULL, &v, &err) != PM_OK) {
        PM_FAIL_AT("%s: read failed: %s", what, err.message);
        return NULL;
    }
    size_t wsize = 0, csize = 0, esize = 0;
    unsigned char *w = write_all(v, false, &wsize);
    PM_CHECK_MSG(w && wsize == size && memcmp(w, data, size) == 0, "%s: not written back byte-identical", what);
    unsigned char *c = write_all(v, true, &csize);
    unsigned char *expect = canonical(data, size, &esize);
    PM_CHECK_MSG(c && csize == esize && memcmp(c, expect, esize) == 0, "%s: canonical form differs", what);
    pm_vmd *back = NULL;
    if (c && pm_vmd_read(c, csize, NULL, &back, &err) == PM_OK) {
        check_same_content(v, back);
        const pm_vmd_names *ta[3] = {&v->bone_names, &v->morph_names, &v->ik_names};
        const pm_vmd_names *tb_[3] = {&back->bone_names, &back->morph_names, &back->ik_names};
        for (int t = 0; t < 3; t++) {
            const size_t width = t == 2 ? 20 : 15;
            PM_CHECK_EQ_INT(ta[t]->count, tb_[t]->count);
            for (uint32_t i = 0; i < ta[t]->count && i < tb_[t]->count; i++)
                PM_CHECK_MSG(pm_sjis_field_length(ta[t]->fields + i * width, width) ==
                                     pm_sjis_field_length(tb_[t]->fields + i * width, width) &&
                                 memcmp(ta[t]->fields + i * width, tb_[t]->fields + i * width,
                                        pm_sjis_field_length(ta[t]->fields + i * width, width)) == 0,
                             "%s: table %d name %u has other bytes after the canonical write", what, t, i);
        }
    } else {
        PM_FAIL_AT("%s: the canonical form does not read: %s", what, err.message);
    }
    pm_vmd_free(back);
    free(expect);
    free(c);
    free(w);
    return v;
}

/* The text a field decodes to. */
static void field_text(const uint8_t *field, size_t width, char *out, size_t cap) {
    pm_sjis_to_utf8(field, pm_sjis_field_length(field, width), out, cap);
}

PM_TEST(names_cut_inside_a_double_byte_character_round_trip_with_any_padding) {
    static const uint8_t he[2] = {0x83, 0x77}; /* ヘ */
    int cases = 0, damaged = 0;
    for (int lead_ascii = 0; lead_ascii <= 1; lead_ascii++)
        for (size_t cut = 0; cut <= 3; cut++)      /* name length = width - cut */
            for (int padding = 0; padding < 3; padding++) {
                uint8_t name15[15], name20[20], f15[15], f20[20];
                for (size_t k = 0; k < 20; k++) {
                    uint8_t byte = lead_ascii && k == 0 ? 'a' : he[(k - (size_t)lead_ascii) % 2];
                    if (k < 15) name15[k] = byte;
                    name20[k] = byte;
                }
                gen_field(f15, 15, name15, 15 - cut, padding, (uint32_t)(cut * 7 + padding));
                gen_field(f20, 20, name20, 20 - cut, padding, (uint32_t)(cut * 11 + padding));
                tb b = {0};
                gen_file(&b, f20, f15, f20);
                char what[96];
                snprintf(what, sizeof what, "ascii %d, cut %zu, padding %d", lead_ascii, cut, padding);
                pm_vmd *v = check_round_trips(what, b.d, b.n);
                if (v) {
                    char want[64];
                    field_text(f15, 15, want, sizeof want);
                    const bool bad = strstr(want, "\xEF\xBF\xBD") != NULL;
                    damaged += bad;
                    /* the same bytes are one name: keys 0 and 2, both morph keys */
                    PM_CHECK_EQ_INT(v->bones.name_index[0], v->bones.name_index[2]);
                    PM_CHECK(v->bones.name_index[0] != v->bones.name_index[1]);
                    PM_CHECK_EQ_INT(v->morphs.name_index[0], v->morphs.name_index[1]);
                    PM_CHECK_EQ_INT(v->bone_names.count, 2);
                    PM_CHECK_STR(v->bone_names.items[v->bones.name_index[0]].data, want);
                    PM_CHECK(memcmp(v->bone_names.fields + 15 * v->bones.name_index[0], f15, 15) == 0);
                    field_text(f20, 20, want, sizeof want);
                    PM_CHECK_STR(v->model_name.data, want);
                    PM_CHECK_STR(v->ik_names.items[v->properties.ik_name_index[0]].data, want);
                    PM_CHECK(memcmp(v->model_field, f20, 20) == 0);
                    PM_CHECK_EQ_INT(v->bone_names.variant_count, 0);
                }
                pm_vmd_free(v);
                free(b.d);
                cases++;
            }
    printf("  %d generated files, %d with a bone name cut inside a character\n", cases, damaged);
    PM_CHECK(damaged >= 6);
}

PM_TEST(bytes_that_are_not_cp932_round_trip_and_stay_distinct_names) {
    /* invalid lead bytes, invalid and unmapped trail bytes, a lead byte at the end of the field */
    static const struct {
        uint8_t bytes[6];
        size_t len;
    } bad[] = {
        {{0xFD}, 1},       {{0xFE}, 1},       {{0xFF, 0x41}, 2},       {{0xA0, 0x82, 0xA0}, 3}, {{0x81, 0x20}, 2},
        {{0x85, 0x40}, 2}, {{0x81, 0xFD, 0x41}, 3}, {{0xEF, 0xFC}, 2}, {{0x80, 0x81}, 2},       {{0x82}, 1},
    };
    const size_t n = sizeof bad / sizeof bad[0];
    tb b = {0};
    uint8_t model[20] = "model";
    gen_header(&b, 2, model, 20);
    tb_u32(&b, (uint32_t)(2 * n));
    for (size_t i = 0; i < 2 * n; i++) {
        uint8_t f[15];
        gen_field(f, 15, bad[i % n].bytes, bad[i % n].len, 1, 0);
        gen_bone(&b, f, (uint32_t)i);
    }
    pm_vmd *v = check_round_trips("invalid bytes", b.d, b.n);
    if (v) {
        /* 0xFD and 0xFE both read as one U+FFFD: still two names, each written back as its bytes */
        PM_CHECK_EQ_INT(v->bone_names.count, n);
        PM_CHECK_STR(v->bone_names.items[0].data, "\xEF\xBF\xBD");
        PM_CHECK_STR(v->bone_names.items[1].data, "\xEF\xBF\xBD");
        for (size_t i = 0; i < n; i++) PM_CHECK_EQ_INT(v->bones.name_index[i], v->bones.name_index[i + n]);
        /* lookup by text finds the first name with that text; by bytes, each its own */
        uint32_t idx = 99;
        pm_error err = {0};
        PM_CHECK_OK(pm_vmd_intern(v, &v->bone_names, "\xEF\xBF\xBD", 3, &idx, &err), &err);
        PM_CHECK_EQ_INT(idx, 0);
        const uint8_t fe[1] = {0xFE};
        PM_CHECK_OK(pm_vmd_intern_field(v, &v->bone_names, fe, 1, &idx, &err), &err);
        PM_CHECK_EQ_INT(idx, 1);
        PM_CHECK_EQ_INT(v->bone_names.count, n);
    }
    pm_vmd_free(v);
    free(b.d);
}

PM_TEST(files_ending_after_each_section_come_back_with_the_same_sections) {
    uint8_t model[20] = {0}, f15[15] = {0}, f20[20] = {0};
    memcpy(model, "cut", 3);
    memcpy(f15, "\x83\x5A\x83\x93\x83\x5E\x81\x5B", 8);
    memcpy(f20, "\x8D\xB6\x91\xAB\x82\x68\x82\x6A", 8);
    tb full = {0};
    gen_file(&full, model, f15, f20);
    /* the offsets where each section ends */
    const size_t ends[7] = {50, 54 + 3 * 111, 54 + 3 * 111 + 4 + 2 * 23, 54 + 3 * 111 + 4 + 2 * 23 + 4 + 61,
                            54 + 3 * 111 + 4 + 2 * 23 + 4 + 61 + 4 + 28,
                            54 + 3 * 111 + 4 + 2 * 23 + 4 + 61 + 4 + 28 + 4 + 9, full.n};
    for (uint32_t k = 0; k <= 6; k++) {
        char what[32];
        snprintf(what, sizeof what, "ends after %u sections", k);
        pm_vmd *v = check_round_trips(what, full.d, ends[k]);
        if (v) PM_CHECK_EQ_INT(v->sections, k);
        /* a key added to a section the file did not have: that section (and those before it) are written */
        if (v && k < 4) {
            pm_error err = {0};
            const float color[3] = {1, 1, 1}, dir[3] = {0, -1, 0};
            PM_CHECK_OK(pm_vmd_add_light_key(v, 3, color, dir, &err), &err);
            size_t size = 0;
            unsigned char *w = write_all(v, false, &size);
            PM_CHECK_EQ_INT(size, ends[k] + 4 * (4 - k) + 28);
            pm_vmd *r = NULL;
            PM_CHECK_OK(pm_vmd_read(w, size, NULL, &r, &err), &err);
            if (r) PM_CHECK(r->sections == 4 && r->lights.count == 1);
            pm_vmd_free(r);
            free(w);
        }
        pm_vmd_free(v);
    }
    /* bytes after the property section are kept (and dropped by the canonical form) */
    tb_put(&full, "MMM\0extra", 9);
    pm_vmd *v = check_round_trips("trailing bytes", full.d, full.n);
    if (v) PM_CHECK(v->trailing_size == 9 && memcmp(v->trailing, "MMM\0extra", 9) == 0);
    pm_vmd_free(v);
    free(full.d);
}

PM_TEST(padding_that_differs_between_keys_of_one_name_is_kept_per_key) {
    tb b = {0};
    uint8_t model[20] = "pad";
    gen_header(&b, 2, model, 20);
    const uint8_t name[4] = {0x93, 0xAA, 0x82, 0xA0}; /* 頭あ */
    tb_u32(&b, 5);
    for (uint32_t i = 0; i < 5; i++) {
        uint8_t f[15];
        gen_field(f, 15, name, 4, i < 2 ? 1 : 2, i); /* keys 0, 1: 0xFD; 2, 3, 4: different random bytes */
        gen_bone(&b, f, i);
    }
    pm_vmd *v = check_round_trips("padding per key", b.d, b.n);
    if (v) {
        PM_CHECK_EQ_INT(v->bone_names.count, 1);
        PM_CHECK_EQ_INT(v->bone_names.variant_count, 3);
        PM_CHECK(v->bone_names.variant_key[0] == 2 && v->bone_names.variant_key[2] == 4);
    }
    pm_vmd_free(v);
    free(b.d);
}

PM_TEST(a_version_1_file_keeps_its_header_and_10_byte_model_name) {
    tb b = {0};
    const uint8_t model[10] = {'o', 'l', 'd', 0, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD};
    gen_header(&b, 1, model, 10);
    b.d[27] = 'J'; /* junk after the magic */
    uint8_t f[15];
    gen_field(f, 15, (const uint8_t *)"\x93\xAA", 2, 1, 0);
    tb_u32(&b, 1);
    gen_bone(&b, f, 0);
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_vmd_read(b.d, b.n, NULL, &v, &err), &err);
    if (v) {
        PM_CHECK_EQ_INT(v->version, 1);
        PM_CHECK_STR(v->model_name.data, "old");
        size_t size = 0, csize = 0;
        unsigned char *w = write_all(v, false, &size);
        PM_CHECK(w && size == b.n && memcmp(w, b.d, size) == 0);
        unsigned char *c = write_all(v, true, &csize);
        PM_CHECK(c && csize == 50 + 4 + 111 + 20 && memcmp(c, "Vocaloid Motion Data 0002\0\0\0\0\0old\0", 34) == 0);
        free(w);
        free(c);
    }
    pm_vmd_free(v);
    free(b.d);
}

PM_TEST(edited_files_stay_valid_and_keep_what_was_not_edited) {
    /* ヘッドセット消 then the lead byte of し: the name MMD cut at 15 bytes */
    const uint8_t cut[15] = {0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5A, 0x83, 0x62, 0x83, 0x67, 0x8F, 0xC1, 0x82};
    uint8_t model[20], f20[20];
    gen_field(model, 20, (const uint8_t *)"\x83\x7E\x83\x4E", 4, 1, 0);
    gen_field(f20, 20, cut, 15, 1, 0);
    tb b = {0};
    gen_file(&b, model, cut, f20);
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_vmd_read(b.d, b.n, NULL, &v, &err), &err);
    if (!v) {
        free(b.d);
        return;
    }
    PM_CHECK_STR(v->morph_names.items[0].data, "ヘッドセット消\xEF\xBF\xBD");
    /* move one key: only its frame's bytes change */
    v->bones.frame[2] = 12;
    size_t size = 0;
    unsigned char *w = write_all(v, false, &size);
    size_t differ = 0;
    for (size_t i = 0; w && i < size && size == b.n; i++) differ += w[i] != b.d[i];
    PM_CHECK(w && size == b.n && differ == 1 && w[54 + 2 * 111 + 15] == 12);
    free(w);
    /* rename the damaged bone: written as the new name, the morph with the same old bytes stays */
    const uint32_t bi = v->bones.name_index[0];
    v->bone_names.items[bi].data = "頭";
    v->bone_names.items[bi].length = (uint32_t)strlen("頭");
    w = write_all(v, false, &size);
    pm_vmd *r = NULL;
    PM_CHECK_OK(pm_vmd_read(w, size, NULL, &r, &err), &err);
    if (r) {
        PM_CHECK_STR(r->bone_names.items[r->bones.name_index[0]].data, "頭");
        PM_CHECK_STR(r->bone_names.items[r->bones.name_index[2]].data, "頭");
        PM_CHECK(memcmp(r->bone_names.fields + 15 * r->bones.name_index[0], "\x93\xAA\0\0\0\0\0\0\0\0\0\0\0\0\0", 15) == 0);
        PM_CHECK(memcmp(r->morph_names.fields, cut, 15) == 0);
        PM_CHECK(memcmp(w + 54 + 3 * 111 + 4, b.d + 54 + 3 * 111 + 4, size - (54 + 3 * 111 + 4)) == 0);
    }
    pm_vmd_free(r);
    free(w);
    /* a new name that Shift-JIS cannot encode is still refused, naming it */
    v->bone_names.items[bi].data = "頭😀";
    v->bone_names.items[bi].length = (uint32_t)strlen("頭😀");
    size_t n = 0;
    PM_CHECK_EQ_INT(pm_vmd_write(v, NULL, 0, &n, &err), PM_ERR_ENCODING);
    PM_CHECK_MSG(strstr(err.message, "頭😀") && strstr(err.message, "U+1F600"), "message: %s", err.message);
    /* a key added by text joins the damaged name read from the file */
    uint32_t idx = 99;
    PM_CHECK_OK(pm_vmd_intern(v, &v->morph_names, v->morph_names.items[0].data, v->morph_names.items[0].length, &idx,
                              &err),
                &err);
    PM_CHECK_EQ_INT(idx, 0);
    pm_vmd_free(v);
    free(b.d);
}

PM_TEST(intern_field_copies_names_between_motions_with_their_bytes) {
    pm_vmd *a = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_create(NULL, &a, &err), &err);
    uint8_t f[15];
    gen_field(f, 15, (const uint8_t *)"\x8F\xC1\x82", 3, 1, 0); /* 消 + a cut lead byte, 0xFD padding */
    uint32_t i0 = 9, i1 = 9, i2 = 9;
    PM_CHECK_OK(pm_vmd_intern_field(a, &a->morph_names, f, 15, &i0, &err), &err);
    PM_CHECK_OK(pm_vmd_intern_field(a, &a->morph_names, f, 3, &i1, &err), &err); /* same bytes, no padding */
    PM_CHECK_OK(pm_vmd_intern(a, &a->morph_names, "消", strlen("消"), &i2, &err), &err);
    PM_CHECK(i0 == 0 && i1 == 0 && i2 == 1);
    PM_CHECK_STR(a->morph_names.items[0].data, "消\xEF\xBF\xBD");
    PM_CHECK(memcmp(a->morph_names.fields, f, 15) == 0);
    PM_CHECK(memcmp(a->morph_names.fields + 15, "\x8F\xC1\0", 3) == 0); /* an added name holds its encoding */
    PM_CHECK_EQ_INT(pm_vmd_intern_field(a, &a->morph_names, f, 21, &i0, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_OK(pm_vmd_add_morph_key(a, "消", 0, 1, &err), &err);
    PM_CHECK_OK(pm_vmd_add_morph_key(a, a->morph_names.items[0].data, 0, 1, &err), &err);
    PM_CHECK(a->morphs.name_index[0] == 1 && a->morphs.name_index[1] == 0);
    size_t size = 0;
    unsigned char *w = write_all(a, false, &size);
    PM_CHECK(w && size == 50 + 24 + 2 * 23 && memcmp(w + 58, "\x8F\xC1\0", 3) == 0 && memcmp(w + 58 + 23, f, 15) == 0);
    free(w);
    pm_vmd_free(a);
}

int main(void) { return pm_test_run_all(); }
