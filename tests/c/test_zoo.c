/* The test zoo (tests/zoo): every model's file reads back with the figures it is built for, measured
 * on the read-back skeleton (knee rest bend, arm angle, 足ＩＫ offset, heights, scale), with the bones
 * and IK chains it should have; PMD files as babylon-mmd converts them (knees limited by name); the
 * PMX files give back the built skeleton exactly; the harness plays the rest pose. */
#include "pm_test.h"
#include "zoo.h"

#include <math.h>

static const pm_bone *bone(const pm_skeleton *s, const char *name) {
    uint32_t i = pm_skeleton_find(s, name);
    return i == PM_NO_INDEX ? NULL : &s->bones[i];
}

PM_TEST(every_zoo_model_measures_as_built) {
    PM_CHECK(pm_zoo_count() >= 29);
    for (size_t i = 0; i < pm_zoo_count(); i++) {
        const pm_zoo_model *m = pm_zoo_at(i);
        pm_error err = {0};
        pm_skeleton *s = NULL;
        PM_CHECK_OK(pm_zoo_skeleton(m, &s, &err), &err);
        if (!s) continue;
        PM_CHECK_EQ_INT(s->source.format, m->format);
        pm_zoo_figures got, want;
        PM_CHECK_OK(pm_zoo_measure(s, &got, &err), &err);
        PM_CHECK_OK(pm_zoo_expected(m, &want, &err), &err);
        for (int side = 0; side < 2; side++) {
            PM_CHECK_MSG(fabsf(got.knee_bend_deg[side] - want.knee_bend_deg[side]) < 1e-3f, "%s: knee %d bends %g, built for %g",
                         m->id, side, got.knee_bend_deg[side], want.knee_bend_deg[side]);
            PM_CHECK_MSG(fabsf(got.arm_deg[side] - want.arm_deg[side]) < 1e-3f, "%s: arm %d at %g, built for %g", m->id, side,
                         got.arm_deg[side], want.arm_deg[side]);
            PM_CHECK_MSG(pm_vec3_distance(got.ik_offset[side], want.ik_offset[side]) < 1e-5f, "%s: 足ＩＫ offset %g %g %g", m->id,
                         got.ik_offset[side].x, got.ik_offset[side].y, got.ik_offset[side].z);
            PM_CHECK_MSG(fabsf(got.ankle_y[side] - want.ankle_y[side]) < 1e-5f && fabsf(got.hip_y[side] - want.hip_y[side]) < 1e-4f &&
                             fabsf(got.leg[side] - want.leg[side]) < 1e-4f,
                         "%s: ankle %g hip %g leg %g", m->id, got.ankle_y[side], got.hip_y[side], got.leg[side]);
        }
        PM_CHECK_MSG(fabsf(got.head_y - want.head_y) < 1e-4f, "%s: head at %g", m->id, got.head_y);
        const pm_zoo_edits *e = &m->edits;
        PM_CHECK_MSG((bone(s, "左足IK親") != NULL) == e->ik_parent, "%s: 足IK親", m->id);
        PM_CHECK_MSG((bone(s, "腰キャンセル右") != NULL) == e->waist_cancel, "%s: 腰キャンセル", m->id);
        PM_CHECK_MSG((bone(s, "グルーブ") == NULL) == e->no_groove && (bone(s, "上半身2") == NULL) == e->no_upper2, "%s: グルーブ/上半身2",
                     m->id);
        const pm_bone *leg_ik = bone(s, "右足ＩＫ");
        PM_CHECK(leg_ik && leg_ik->has_ik && leg_ik->ik.link_count == 2);
        if (leg_ik && e->ik_parent) PM_CHECK_STR(s->bones[leg_ik->parent].name.data, "右足IK親");
        if (e->waist_cancel) {
            const pm_bone *c = bone(s, "腰キャンセル左");
            PM_CHECK(c && (c->flags & PM_BONE_APPEND_ROTATE) && c->append_ratio == -1.0f);
            if (c) PM_CHECK_STR(s->bones[c->append_parent].name.data, "腰");
            PM_CHECK(c && s->bones[bone(s, "左足")->parent].name.data == c->name.data);
        }
        if (e->d_bones) { /* the D chain solves by its own IK onto 足首, from the main chain's 足首 */
            const pm_bone *ik = bone(s, "左ひざDIK"), *ankle_d = bone(s, "左足首D");
            PM_CHECK(ik && ik->has_ik && ik->ik.link_count == 2 && ik->transform_order == 2);
            if (ik) {
                PM_CHECK_STR(s->bones[ik->ik.target].name.data, "左足首D");
                PM_CHECK_STR(s->bones[ik->ik.links[0].bone].name.data, "左ひざD");
                PM_CHECK(ik->ik.links[0].has_limit);
                PM_CHECK_STR(s->bones[ik->parent].name.data, "左足首");
            }
            PM_CHECK(ankle_d && (ankle_d->flags & PM_BONE_APPEND_ROTATE));
        }
        if (m->format == PM_MODEL_FORMAT_PMD) { /* PMD has no limits: our reader limits the knees by name as babylon-mmd does */
            const pm_bone *ik = bone(s, "左足ＩＫ");
            PM_CHECK(ik && ik->transform_order == 1 && ik->ik.links[0].has_limit && ik->ik.links[0].limit_min.x == -180.0f &&
                     !ik->ik.links[1].has_limit);
        } else { /* PMX files give back the built skeleton */
            pm_skeleton *built = NULL;
            PM_CHECK_OK(pm_zoo_build_skeleton(e, &built, &err), &err);
            if (built) {
                PM_CHECK_EQ_INT(s->bone_count, built->bone_count);
                for (uint32_t b = 0; b < s->bone_count && b < built->bone_count; b++) {
                    const pm_bone *x = &s->bones[b], *y = &built->bones[b];
                    PM_CHECK_MSG(strcmp(x->name.data, y->name.data) == 0 && memcmp(&x->position, &y->position, sizeof x->position) == 0 &&
                                     x->parent == y->parent && x->flags == y->flags && x->transform_order == y->transform_order,
                                 "%s: bone %u (%s) differs from the built one", m->id, b, y->name.data);
                }
            }
            pm_skeleton_free(built);
        }
        pm_skeleton_free(s);
    }
}

PM_TEST(knee_edits_keep_hips_and_ankles_arm_edits_keep_shoulders) {
    pm_skeleton *base = NULL, *bent = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_zoo_build_skeleton(NULL, &base, &err), &err);
    PM_CHECK_OK(pm_zoo_build_skeleton(&pm_zoo_find("realpmx")->edits, &bent, &err), &err);
    if (!base || !bent) return;
    static const char *const kept[] = {"左足", "左足首", "左つま先", "右足首", "左腕", "左肩", "頭", "左足ＩＫ", "右つま先ＩＫ"};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        PM_CHECK_MSG(pm_vec3_distance(bone(base, kept[i])->position, bone(bent, kept[i])->position) < 1e-6f, "%s moved", kept[i]);
    PM_CHECK(pm_vec3_distance(bone(base, "左ひざ")->position, bone(bent, "左ひざ")->position) > 0.1f);
    PM_CHECK(pm_vec3_distance(bone(base, "左ひじ")->position, bone(bent, "左ひじ")->position) > 0.1f);
    /* the upper arm keeps its length */
    float l0 = pm_vec3_distance(bone(base, "右腕")->position, bone(base, "右ひじ")->position);
    float l1 = pm_vec3_distance(bone(bent, "右腕")->position, bone(bent, "右ひじ")->position);
    PM_CHECK_NEAR(l0, l1, 1e-5);
    pm_skeleton_free(base);
    pm_skeleton_free(bent);
}

PM_TEST(pmd_writer_refuses_what_pmd_cannot_hold) {
    uint8_t *bytes = NULL;
    size_t size = 0;
    pm_error err = {0};
    pm_zoo_model d_bones_pmd = *pm_zoo_find("dbones");
    d_bones_pmd.format = PM_MODEL_FORMAT_PMD;
    PM_CHECK_EQ_INT(pm_zoo_file(&d_bones_pmd, &bytes, &size, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_MSG(strstr(err.message, "D") && strstr(err.message, "order"), "%s", err.message);
    PM_CHECK(bytes == NULL && size == 0);
}

PM_TEST(every_model_iteration_and_the_harness) {
    pm_zoo_entry *all = NULL;
    size_t n = 0, fixtures = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_zoo_entries(pm_test_fixture_dir(), &all, &n, &fixtures, &err), &err);
    PM_CHECK_EQ_INT(n, pm_zoo_count() + 1 + fixtures);
    size_t have = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i].kind, "fixture") == 0) have++;
        /* the rest pose as the evaluator plays it: IK on, feet on their targets except where the
         * 足ＩＫ sits below the ankle */
        const char *names[4] = {"左足首", "右足首", "左足ＩＫ", "右足ＩＫ"};
        float p[2 * 4 * 3];
        PM_CHECK_OK(pm_zoo_play(all[i].skeleton, NULL, names, 4, 0, 1, 2, p, &err), &err);
        const pm_zoo_edits *e = all[i].model ? &all[i].model->edits : NULL;
        float gap = pm_vec3_distance(pm_vec3_make(p[0], p[1], p[2]), pm_vec3_make(p[6], p[7], p[8]));
        if (e && e->ik_drop) PM_CHECK_MSG(gap > 0.3f, "%s: ankle %g from 足ＩＫ", all[i].id, gap);
        else PM_CHECK_MSG(gap < 1e-4f, "%s: the rest pose misses 足ＩＫ by %g", all[i].id, gap);
        size_t worst = 9;
        PM_CHECK(pm_zoo_max_distance(p, p + 12, 4, &worst) == 0.0f && worst == 0); /* frames 0 and 1 are the same */
    }
    PM_CHECK_EQ_INT(have, fixtures);
    for (int k = 0; k < 2 && fixtures < 2; k++) { /* missing from a present folder: fail; no folder: skip */
        size_t size;
        free(pm_test_read_fixture(pm_zoo_fixture_paths[k], &size));
    }
    if (n) {
        const char *missing[1] = {"尻尾"};
        float p[3];
        PM_CHECK_EQ_INT(pm_zoo_play(all[0].skeleton, NULL, missing, 1, 0, 1, 1, p, &err), PM_ERR_NOT_FOUND);
        PM_CHECK_MSG(strstr(err.message, "尻尾"), "%s", err.message);
    }
    const float a[6] = {0, 0, 0, 1, 1, 1}, b[6] = {0, 0, 0, 1, 1, 3};
    size_t w;
    PM_CHECK_NEAR(pm_zoo_max_distance(a, b, 2, &w), 2.0, 1e-6);
    PM_CHECK_EQ_INT(w, 1);
    pm_zoo_entries_free(all, n);
}

int main(void) { return pm_test_run_all(); }
