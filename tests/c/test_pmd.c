/* PMD reader: a hand-made model in the PMD layout (Shift-JIS names), converted the way babylon-mmd
 * converts PMD bones; knee limits; every truncation. */
#include "pm_test.h"
#include "pmx_builder.h"

#include "procmotion/pmx.h"

/* Shift-JIS names */
#define SJ_CENTER "\x83\x5a\x83\x93\x83\x5e\x81\x5b" /* センター */
#define SJ_LEG "\x8d\xb6\x91\xab"                    /* 左足 */
#define SJ_KNEE "\x8d\xb6\x82\xd0\x82\xb4"           /* 左ひざ */
#define SJ_ANKLE "\x8d\xb6\x91\xab\x8e\xf1"          /* 左足首 */
#define SJ_LEG_IK "\x8d\xb6\x91\xab\x82\x68\x82\x6a" /* 左足ＩＫ */
#define SJ_BLINK "\x82\xdc\x82\xce\x82\xbd\x82\xab"  /* まばたき */

static void bone(tb *b, const char *name, uint16_t parent, uint16_t tail, uint8_t type, uint16_t ik, float y) {
    tb_field(b, name, strlen(name), 20);
    tb_u16(b, parent);
    tb_u16(b, tail);
    tb_u8(b, type);
    tb_u16(b, ik);
    tb_vec3(b, 0.5f, y, 0);
}

/* Returns the file; *display_end is the offset where the display lists end (English names follow). */
static tb make_pmd(int two_chains, size_t *display_end) {
    tb b = {0};
    tb_put(&b, "Pmd", 3);
    tb_f32(&b, 1.0f);
    tb_field(&b, "test", 4, 20);
    tb_field(&b, "comment", 7, 256);
    tb_u32(&b, 3); /* vertices */
    for (int i = 0; i < 3; i++) {
        tb_zero(&b, 32);
        tb_u16(&b, (uint16_t)i);
        tb_u16(&b, 0);
        tb_u8(&b, 100);
        tb_u8(&b, 0);
    }
    tb_u32(&b, 3); /* faces */
    tb_u16(&b, 0), tb_u16(&b, 1), tb_u16(&b, 2);
    tb_u32(&b, 1); /* one material, 70 bytes, drawing 3 indices */
    tb_zero(&b, 46);
    tb_u32(&b, 3);
    tb_zero(&b, 20);
    tb_u16(&b, 7); /* bones */
    bone(&b, SJ_CENTER, 0xFFFF, 1, 1, 0, 8);          /* 0 rotate+move */
    bone(&b, SJ_LEG, 0, 2, 0, 0, 10);                 /* 1 */
    bone(&b, SJ_KNEE, 1, 3, 0, 0, 6);                 /* 2 */
    bone(&b, SJ_ANKLE, 2, 0, 0, 0, 1);                /* 3 tail 0 = none */
    bone(&b, SJ_LEG_IK, 0xFFFF, 0, 2, 3, 1);          /* 4 IK */
    bone(&b, "eye", 0, 1, 5, 50, 17);                 /* 5 rotation influenced by bone 1 (tail), 50% */
    bone(&b, "twist", 1, 2, 8, 0, 9);                 /* 6 twist towards bone 2 */
    tb_u16(&b, (uint16_t)(two_chains ? 2 : 1));       /* IK chains */
    for (int c = 0; c < (two_chains ? 2 : 1); c++) {
        tb_u16(&b, 4);
        tb_u16(&b, 3);
        tb_u8(&b, 2);
        tb_u16(&b, 40);
        tb_f32(&b, 0.5f);
        tb_u16(&b, 2);
        tb_u16(&b, 1);
    }
    tb_u16(&b, 2); /* morphs: base + まばたき */
    tb_field(&b, "base", 4, 20);
    tb_u32(&b, 2);
    tb_u8(&b, 0);
    for (int i = 0; i < 2; i++) tb_u32(&b, (uint32_t)i), tb_vec3(&b, 0, 0, 0);
    tb_field(&b, SJ_BLINK, strlen(SJ_BLINK), 20);
    tb_u32(&b, 1);
    tb_u8(&b, 2);
    tb_u32(&b, 1), tb_vec3(&b, 0, -0.1f, 0);
    tb_u8(&b, 1); /* morph display list */
    tb_u16(&b, 1);
    tb_u8(&b, 1); /* bone display names */
    tb_field(&b, "legs", 4, 50);
    tb_u32(&b, 2);
    tb_u16(&b, 1), tb_u8(&b, 1);
    tb_u16(&b, 2), tb_u8(&b, 1);
    *display_end = b.n;
    tb_u8(&b, 1); /* English names */
    tb_field(&b, "Test", 4, 20);
    tb_field(&b, "Comment", 7, 256);
    const char *en[7] = {"center", "leg_L", "knee_L", "ankle_L", "leg IK_L", "eye", "twist"};
    for (int i = 0; i < 7; i++) tb_field(&b, en[i], strlen(en[i]), 20);
    tb_field(&b, "blink", 5, 20);
    tb_field(&b, "Legs", 4, 50);
    tb_zero(&b, 1000); /* toon textures (10 x 100), not read; rigid bodies and joints absent */
    return b;
}

PM_TEST(pmd_bones_are_converted_like_babylon_mmd) {
    size_t display_end;
    tb b = make_pmd(0, &display_end);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pmd_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) {
        PM_CHECK_EQ_INT(s->source.format, PM_MODEL_FORMAT_PMD);
        PM_CHECK_STR(s->model_name.data, "test");
        PM_CHECK_STR(s->model_name_en.data, "Test");
        PM_CHECK_STR(s->source.model_comment.data, "comment");
        PM_CHECK_EQ_INT(s->bone_count, 7);
        PM_CHECK_STR(s->bones[0].name.data, "センター");
        PM_CHECK_STR(s->bones[4].name.data, "左足ＩＫ");
        PM_CHECK_STR(s->bones[2].name_en.data, "knee_L");
        PM_CHECK_EQ_INT(s->bones[0].parent, PM_NO_INDEX);
        PM_CHECK_EQ_INT(s->bones[2].parent, 1);
        PM_CHECK_EQ_INT(s->bones[0].flags, PM_BONE_TAIL_IS_BONE | PM_BONE_ROTATABLE | PM_BONE_VISIBLE |
                                               PM_BONE_ENABLED | PM_BONE_TRANSLATABLE);
        PM_CHECK_EQ_INT(s->bones[3].tail_bone, PM_NO_INDEX);
        PM_CHECK_EQ_INT(s->bones[1].tail_bone, 2);
        const pm_bone *ik = &s->bones[4];
        PM_CHECK(ik->has_ik && (ik->flags & PM_BONE_IK) && (ik->flags & PM_BONE_TRANSLATABLE));
        PM_CHECK_EQ_INT(ik->transform_order, 1);
        PM_CHECK_EQ_INT(ik->ik.target, 3);
        PM_CHECK_EQ_INT(ik->ik.loop_count, 40);
        PM_CHECK_NEAR(ik->ik.limit_angle, 2.0, 0); /* PMD 0.5 * 4 */
        PM_CHECK_EQ_INT(ik->ik.link_count, 2);
        if (ik->ik.link_count == 2) {
            PM_CHECK_EQ_INT(ik->ik.links[0].bone, 2);
            PM_CHECK(ik->ik.links[0].has_limit); /* 左ひざ: babylon-mmd's numbers, as radians */
            PM_CHECK_NEAR(ik->ik.links[0].limit_min.x, -180.0, 0);
            PM_CHECK_NEAR(ik->ik.links[0].limit_max.x, -0.5, 0);
            PM_CHECK(!ik->ik.links[1].has_limit);
        }
        const pm_bone *eye = &s->bones[5];
        PM_CHECK(eye->flags & PM_BONE_APPEND_ROTATE);
        PM_CHECK(!(eye->flags & (PM_BONE_VISIBLE | PM_BONE_TAIL_IS_BONE)));
        PM_CHECK_EQ_INT(eye->append_parent, 1);
        PM_CHECK_NEAR(eye->append_ratio, 0.5, 1e-7);
        const pm_bone *tw = &s->bones[6];
        PM_CHECK(tw->flags & PM_BONE_FIXED_AXIS);
        PM_CHECK_NEAR(tw->fixed_axis.y, -1.0, 1e-6);
        PM_CHECK_EQ_INT(s->morph_count, 1); /* the base morph is not a morph */
        PM_CHECK_STR(s->morph_names[0].data, "まばたき");
        PM_CHECK_EQ_INT(s->morph_panel[0], 2);
    }
    pm_skeleton_free(s);

    pm_model_read_options o = {0};
    o.pmd_knee_limit = PM_PMD_KNEE_LIMIT_MMD;
    PM_CHECK_OK(pm_model_read(b.d, b.n, &o, &s, &err), &err);
    if (s) {
        PM_CHECK_NEAR(s->bones[4].ik.links[0].limit_min.x, -PM_PI, 1e-6);
        PM_CHECK_NEAR(s->bones[4].ik.links[0].limit_max.x, -0.5 * PM_PI / 180.0, 1e-7);
    }
    pm_skeleton_free(s);
    o.pmd_knee_limit = PM_PMD_KNEE_LIMIT_NONE;
    PM_CHECK_OK(pm_model_read(b.d, b.n, &o, &s, &err), &err);
    if (s) PM_CHECK(!s->bones[4].ik.links[0].has_limit);
    pm_skeleton_free(s);
    o.pmd_knee_limit = (pm_pmd_knee_limit)9;
    PM_CHECK_EQ_INT(pm_model_read(b.d, b.n, &o, &s, &err), PM_ERR_INVALID_ARGUMENT);

    /* a file that ends right after the display lists is fine (no English names) */
    PM_CHECK_OK(pm_pmd_read(b.d, display_end, NULL, &s, &err), &err);
    if (s) PM_CHECK_STR(s->bones[2].name_en.data, "");
    pm_skeleton_free(s);
    free(b.d);
}

PM_TEST(pmd_second_ik_chain_on_a_bone_becomes_an_extra_bone) {
    size_t display_end;
    tb b = make_pmd(1, &display_end);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pmd_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) {
        PM_CHECK_EQ_INT(s->bone_count, 8);
        PM_CHECK_STR(s->bones[7].name.data, "左足ＩＫ+");
        PM_CHECK_EQ_INT(s->bones[7].parent, 4);
        PM_CHECK(s->bones[7].has_ik);
        PM_CHECK(!(s->bones[7].flags & PM_BONE_VISIBLE));
        PM_CHECK(s->bones[7].ik.links != s->bones[4].ik.links);
    }
    pm_skeleton_free(s);
    free(b.d);
}

PM_TEST(pmd_every_truncation_fails_cleanly) {
    size_t display_end;
    tb b = make_pmd(1, &display_end);
    size_t english_end = b.n - 1000;
    for (size_t cut = 0; cut <= b.n; cut++) {
        unsigned char *copy = malloc(cut ? cut : 1);
        memcpy(copy, b.d, cut);
        pm_skeleton *s = (pm_skeleton *)1;
        pm_error err = {0};
        pm_result r = pm_pmd_read(copy, cut, NULL, &s, &err);
        int should_read = cut == display_end || cut >= english_end;
        if (should_read) {
            PM_CHECK_MSG(r == PM_OK, "cut %zu: %s", cut, err.message);
            pm_skeleton_free(s);
        } else {
            PM_CHECK_MSG(r == PM_ERR_TRUNCATED, "cut %zu: %s %s", cut, pm_result_name(r), err.message);
            PM_CHECK(s == NULL);
        }
        free(copy);
    }
    free(b.d);
}

PM_TEST(pmd_bad_references_are_rejected) {
    size_t display_end;
    tb b = make_pmd(0, &display_end);
    /* IK target (offset of the first IK chain + 2) -> 99 */
    size_t ik_at = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 70 + 2 + 7 * 39 + 2;
    PM_CHECK_EQ_INT(b.d[ik_at], 4);
    b.d[ik_at + 2] = 99;
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_pmd_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "pmd: IK chain 0 of 1: IK target 99"), "%s", err.message);
    b.d[ik_at + 2] = 3;
    /* parent cycle: 左足 (1) -> 左ひざ (2) -> 左足 */
    size_t bones_at = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 70 + 2;
    b.d[bones_at + 39 + 20] = 2;
    PM_CHECK_EQ_INT(pm_pmd_read(b.d, b.n, NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "pmd: skeleton: ") && strstr(err.message, "cycle"), "%s", err.message);
    free(b.d);
}

PM_TEST(pmd_names_that_are_not_cp932_read_as_u_fffd_and_keep_their_field) {
    size_t display_end = 0;
    tb b = make_pmd(0, &display_end);
    /* bone 5: "eye" becomes 9 double-byte characters, 'a' and the lead byte of a tenth (cut at 20 bytes:
     * the field is full, no NUL) */
    const size_t bone5 = 3 + 4 + 20 + 256 + 4 + 3 * 38 + 4 + 6 + 4 + 70 + 2 + 5 * 39;
    PM_CHECK(memcmp(b.d + bone5, "eye", 3) == 0);
    for (int k = 0; k < 9; k++) b.d[bone5 + 2 * k] = 0x83, b.d[bone5 + 2 * k + 1] = 0x77; /* ヘ */
    b.d[bone5 + 18] = 'a', b.d[bone5 + 19] = 0x83;
    pm_error err = {0};
    pm_skeleton *s = NULL;
    PM_CHECK_OK(pm_pmd_read(b.d, b.n, NULL, &s, &err), &err);
    if (s) {
        PM_CHECK_STR(s->bones[5].name.data, "ヘヘヘヘヘヘヘヘヘa\xEF\xBF\xBD");
        const uint8_t *raw = NULL;
        size_t size = 0;
        uint8_t enc = 0;
        PM_CHECK(pm_model_raw_text(s, PM_MODEL_TEXT_BONE_NAME, 5, &raw, &size, &enc));
        PM_CHECK(size == 20 && enc == 2 && raw && memcmp(raw, b.d + bone5, 20) == 0);
        PM_CHECK(!pm_model_raw_text(s, PM_MODEL_TEXT_BONE_NAME, 0, &raw, &size, &enc));
        PM_CHECK(!pm_model_raw_text(s, PM_MODEL_TEXT_MORPH_NAME, 0, &raw, &size, &enc));
    }
    pm_skeleton_free(s);
    free(b.d);
}

int main(void) { return pm_test_run_all(); }
