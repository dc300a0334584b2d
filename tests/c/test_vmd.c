/* VMD reader and writer: real fixtures round-trip, truncation at every offset, hostile counts,
 * the builder, interpolation layout. */
#include "pm_test.h"

#include "procmotion/vmd.h"

static const char *const fixtures[] = {
    "vmd/mei_wait.vmd",      "vmd/mei_greeting.vmd",    "vmd/gene_stand.vmd",
    "vmd/gene_02_laugh.vmd", "vmd/babylon_physics_toggle_test_yyb10th.vmd", "vmd/mmt_test_model_test_motion.vmd",
    "vmd/wavefile_camera.vmd",
};

/* The bytes our writer must produce for a file: names NUL-padded after their terminator, the v2 header
 * padded with NUL, and missing trailing section counts appended as zero. */
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
    *out_size = n;
    return c;
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

PM_TEST(every_fixture_round_trips_with_identical_content_and_canonical_bytes) {
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
        size_t wsize = 0;
        PM_CHECK_OK(pm_vmd_write(a, NULL, 0, &wsize, &err), &err);
        unsigned char *w = malloc(wsize);
        PM_CHECK_OK(pm_vmd_write(a, w, wsize, &wsize, &err), &err);
        PM_CHECK_OK(pm_vmd_read(w, wsize, NULL, &b, &err), &err);
        if (b) check_same_content(a, b);
        size_t csize;
        unsigned char *canon = canonical(data, size, &csize);
        PM_CHECK_MSG(csize == wsize && memcmp(canon, w, wsize) == 0, "%s: written bytes differ from the canonical original",
                     fixtures[f]);
        size_t differing = 0;
        for (size_t i = 0; i < size && i < wsize; i++) differing += data[i] != w[i];
        printf("  %s: %u sections, %u bone / %u morph / %u camera keys, %zu bytes; %zu bytes differ from the "
               "original (name padding), %zu appended\n",
               fixtures[f], a->sections, a->bones.count, a->morphs.count, a->cameras.count, size, differing,
               wsize > size ? wsize - size : 0);
        free(canon);
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

int main(void) { return pm_test_run_all(); }
