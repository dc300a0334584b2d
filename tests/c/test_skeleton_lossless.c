/* A lossless skeleton: on every zoo model, the mannequin and the shared PMX fixtures, the skeleton read
 * from the file, the same skeleton through the skeleton JSON and through pm_bone_desc are equal field by
 * field, and pose evaluation of a motion that keys every bone gives bit-identical world matrices. */
#include "pm_test.h"
#include "zoo.h"

#include "procmotion/pose.h"

#include <math.h>

static int vec_eq(pm_vec3 a, pm_vec3 b) { return memcmp(&a, &b, sizeof a) == 0; }

static int finite3(pm_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* A display-only vector: bit for bit, or not finite on both sides (JSON writes such a vector as null). */
static int display_eq(pm_vec3 a, pm_vec3 b) { return vec_eq(a, b) || (!finite3(a) && !finite3(b)); }

static int str_eq(pm_string a, pm_string b) { return a.length == b.length && memcmp(a.data, b.data, a.length) == 0; }

/* The first field where two skeletons differ ("" when none); model names only when `model_names`
 * (pm_skeleton_create takes none). */
static const char *skeleton_diff(const pm_skeleton *a, const pm_skeleton *b, bool model_names, uint32_t *bone) {
    *bone = PM_NO_INDEX;
    if (a->bone_count != b->bone_count) return "bone count";
    if (a->morph_count != b->morph_count) return "morph count";
    for (uint32_t i = 0; i < a->morph_count; i++)
        if (!str_eq(a->morph_names[i], b->morph_names[i])) return "morph name";
    if (model_names && (!str_eq(a->model_name, b->model_name) || !str_eq(a->model_name_en, b->model_name_en)))
        return "model name";
    for (uint32_t i = 0; i < a->bone_count; i++) {
        const pm_bone *x = &a->bones[i], *y = &b->bones[i];
        *bone = i;
        if (!str_eq(x->name, y->name) || !str_eq(x->name_en, y->name_en)) return "name";
        if (!vec_eq(x->position, y->position)) return "position";
        if (x->parent != y->parent) return "parent";
        if (x->transform_order != y->transform_order) return "transform order";
        if (x->flags != y->flags) return "flags";
        if (!display_eq(x->tail_offset, y->tail_offset) || x->tail_bone != y->tail_bone) return "tail";
        if (x->append_parent != y->append_parent || memcmp(&x->append_ratio, &y->append_ratio, 4)) return "append";
        if (!vec_eq(x->fixed_axis, y->fixed_axis)) return "fixed axis";
        if (!display_eq(x->local_x, y->local_x) || !display_eq(x->local_z, y->local_z)) return "local axes";
        if (x->external_parent_key != y->external_parent_key) return "external parent";
        if (x->has_ik != y->has_ik) return "has_ik";
        if (!x->has_ik) continue;
        if (x->ik.target != y->ik.target || x->ik.loop_count != y->ik.loop_count || x->ik.link_count != y->ik.link_count ||
            memcmp(&x->ik.limit_angle, &y->ik.limit_angle, 4))
            return "IK";
        for (uint32_t k = 0; k < x->ik.link_count; k++) {
            const pm_ik_link *l = &x->ik.links[k], *m = &y->ik.links[k];
            if (l->bone != m->bone || l->has_limit != m->has_limit) return "IK link";
            if (l->has_limit && (!vec_eq(l->limit_min, m->limit_min) || !vec_eq(l->limit_max, m->limit_max)))
                return "IK link limits";
        }
    }
    *bone = PM_NO_INDEX;
    return "";
}

static pm_skeleton *through_json(const pm_skeleton *s, char **text) {
    pm_error err = {0};
    size_t n = 0;
    PM_CHECK_OK(pm_skeleton_to_json(s, NULL, 0, &n, &err), &err);
    *text = malloc(n + 1);
    PM_CHECK_OK(pm_skeleton_to_json(s, *text, n + 1, &n, &err), &err);
    pm_skeleton *out = NULL;
    PM_CHECK_OK(pm_skeleton_from_json(*text, n, NULL, &out, &err), &err);
    return out;
}

static pm_skeleton *through_descs(const pm_skeleton *s) {
    pm_error err = {0};
    pm_bone_desc *d = calloc(s->bone_count ? s->bone_count : 1, sizeof *d);
    const char **morphs = calloc(s->morph_count ? s->morph_count : 1, sizeof *morphs);
    for (uint32_t i = 0; i < s->bone_count; i++) PM_CHECK_OK(pm_skeleton_bone_desc(s, i, &d[i], &err), &err);
    for (uint32_t i = 0; i < s->morph_count; i++) morphs[i] = s->morph_names[i].data;
    pm_skeleton *out = NULL;
    PM_CHECK_OK(pm_skeleton_create(d, s->bone_count, morphs, s->morph_count, NULL, &out, &err), &err);
    free(d);
    free(morphs);
    return out;
}

/* World matrices of every bone at frames 0, 5, ..., 30 of `vmd`. */
static float *evaluate(const pm_skeleton *s, const pm_vmd *vmd, size_t *floats) {
    pm_error err = {0};
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    *floats = (size_t)7 * 16 * s->bone_count;
    float *out = calloc(*floats ? *floats : 1, sizeof(float));
    PM_CHECK_OK(pm_anim_bind(s, vmd, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(s, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(s, NULL, &pose, &err), &err);
    for (int f = 0; f < 7 && anim && ws && pose; f++) {
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, 5.0 * f, pose, NULL, &err), &err);
        memcpy(out + (size_t)f * 16 * s->bone_count, pose->world, 16 * sizeof(float) * s->bone_count);
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    return out;
}

PM_TEST(every_model_keeps_its_skeleton_through_json_and_descs_and_poses_bit_for_bit) {
    pm_zoo_entry *all = NULL;
    size_t n = 0, fixtures = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_zoo_entries(pm_test_fixture_dir(), &all, &n, &fixtures, &err), &err);
    PM_CHECK(n >= pm_zoo_count() + 1);
    for (size_t i = 0; i < n; i++) {
        const pm_skeleton *s = all[i].skeleton;
        char *text = NULL, *text2 = NULL;
        pm_skeleton *j = through_json(s, &text), *d = through_descs(s);
        pm_skeleton *j2 = j ? through_json(j, &text2) : NULL;
        uint32_t bone;
        const char *what;
        if (j) PM_CHECK_MSG(!*(what = skeleton_diff(s, j, true, &bone)), "%s: JSON loses the %s of bone %u", all[i].id, what, bone);
        if (d) PM_CHECK_MSG(!*(what = skeleton_diff(s, d, false, &bone)), "%s: descs lose the %s of bone %u", all[i].id, what, bone);
        /* the JSON text of the JSON skeleton differs only in "format" and "source" (a reader's) */
        if (text2) PM_CHECK_MSG(strcmp(strstr(text, "\"bones\""), strstr(text2, "\"bones\"")) == 0, "%s: JSON is not a fixed point", all[i].id);
        pm_vmd *motion = NULL;
        PM_CHECK_OK(pm_zoo_every_bone_motion(s, &motion, &err), &err);
        size_t fa = 0, fj = 0, fd = 0;
        float *wa = evaluate(s, motion, &fa), *wj = j ? evaluate(j, motion, &fj) : NULL, *wd = d ? evaluate(d, motion, &fd) : NULL;
        if (wj) PM_CHECK_MSG(fa == fj && memcmp(wa, wj, fa * sizeof(float)) == 0, "%s: the JSON skeleton poses differently", all[i].id);
        if (wd) PM_CHECK_MSG(fa == fd && memcmp(wa, wd, fa * sizeof(float)) == 0, "%s: the desc skeleton poses differently", all[i].id);
        /* the motion moves every bone (a check that could fail): frame 30 differs from the rest pose */
        size_t moved = 0;
        for (uint32_t b = 0; b < s->bone_count; b++) {
            const float *rest = wa + (size_t)16 * b, *late = wa + (size_t)6 * 16 * s->bone_count + (size_t)16 * b;
            moved += memcmp(rest, late, 16 * sizeof(float)) != 0;
        }
        PM_CHECK_MSG(moved == s->bone_count, "%s: the motion moved %zu of %u bones", all[i].id, moved, s->bone_count);
        free(wa), free(wj), free(wd), free(text), free(text2);
        pm_vmd_free(motion);
        pm_skeleton_free(j), pm_skeleton_free(j2), pm_skeleton_free(d);
    }
    /* a fixture missing from a present fixtures folder fails; an absent folder skips (pm_test.h) */
    for (int k = 0; k < 2 && fixtures < 2; k++) {
        size_t size;
        free(pm_test_read_fixture(pm_zoo_fixture_paths[k], &size));
    }
    pm_zoo_entries_free(all, n);
}

/* What the old JSON reader dropped matters: a skeleton whose twist bones lose their fixed axes poses
 * differently under the every-bone motion (so the bit-for-bit test above can fail). */
PM_TEST(losing_the_fixed_axes_would_show) {
    size_t size = 0;
    unsigned char *bytes = pm_test_read_fixture("pmx/yw_test_model/yw_test_model.pmx", &size);
    if (!bytes) return;
    pm_error err = {0};
    pm_skeleton *s = NULL, *lossy = NULL;
    PM_CHECK_OK(pm_model_read(bytes, size, NULL, &s, &err), &err);
    PM_CHECK_OK(pm_model_read(bytes, size, NULL, &lossy, &err), &err);
    uint32_t twisted = 0;
    for (uint32_t i = 0; lossy && i < lossy->bone_count; i++)
        if (lossy->bones[i].flags & PM_BONE_FIXED_AXIS) lossy->bones[i].fixed_axis = pm_vec3_make(0, 0, 0), twisted++;
    PM_CHECK(twisted >= 4); /* 腕捩 and 手捩, both sides */
    pm_vmd *motion = NULL;
    PM_CHECK_OK(pm_zoo_every_bone_motion(s, &motion, &err), &err);
    size_t fa, fb;
    float *a = evaluate(s, motion, &fa), *b = evaluate(lossy, motion, &fb);
    double worst = 0;
    for (size_t i = 0; i < fa; i++) worst = fmax(worst, fabs((double)a[i] - b[i]));
    PM_CHECK_MSG(worst > 0.1, "zeroed fixed axes moved nothing (%g)", worst);
    free(a), free(b), free(bytes);
    pm_vmd_free(motion);
    pm_skeleton_free(s), pm_skeleton_free(lossy);
}

/* The flag-guarded desc fields: absent flags leave them zero; PM_BONE_EXACT_FLAGS keeps a bone with no
 * flags at all; the old zero-initialised descs still mean a plain rotatable bone. */
PM_TEST(bone_desc_fields_follow_their_flags) {
    pm_bone_desc d[3] = {
        {.name = "root", .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX},
        {.name = "twist", .parent = 0, .flags = PM_BONE_ROTATABLE | PM_BONE_FIXED_AXIS | PM_BONE_LOCAL_AXES | PM_BONE_TAIL_IS_BONE,
         .append_parent = PM_NO_INDEX, .fixed_axis = {1, 0, 0}, .local_x = {0, 1, 0}, .local_z = {0, 0, 1},
         .tail_bone = 2, .tail_offset = {9, 9, 9}},
        {.name = "none", .parent = 1, .flags = PM_BONE_EXACT_FLAGS, .append_parent = PM_NO_INDEX,
         .fixed_axis = {5, 5, 5}, .tail_offset = {0, 1, 0}, .external_parent_key = 7},
    };
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_create(d, 3, NULL, 0, NULL, &s, &err), &err);
    if (!s) return;
    PM_CHECK_EQ_INT(s->bones[0].flags, PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED);
    PM_CHECK_EQ_INT(s->bones[0].tail_bone, PM_NO_INDEX);
    PM_CHECK(vec_eq(s->bones[1].fixed_axis, pm_vec3_make(1, 0, 0)) && vec_eq(s->bones[1].local_z, pm_vec3_make(0, 0, 1)));
    PM_CHECK_EQ_INT(s->bones[1].tail_bone, 2);
    PM_CHECK(vec_eq(s->bones[1].tail_offset, pm_vec3_make(0, 0, 0))); /* a tail bone, so no offset */
    PM_CHECK_EQ_INT(s->bones[2].flags, 0);
    PM_CHECK(vec_eq(s->bones[2].fixed_axis, pm_vec3_make(0, 0, 0))); /* no FIXED_AXIS flag */
    PM_CHECK(vec_eq(s->bones[2].tail_offset, pm_vec3_make(0, 1, 0)));
    PM_CHECK_EQ_INT(s->bones[2].external_parent_key, 0);
    pm_bone_desc back;
    PM_CHECK_OK(pm_skeleton_bone_desc(s, 2, &back, &err), &err);
    PM_CHECK_EQ_INT(back.flags, PM_BONE_EXACT_FLAGS);
    PM_CHECK_EQ_INT(pm_skeleton_bone_desc(s, 3, &back, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_skeleton_bone_desc(NULL, 0, &back, &err), PM_ERR_INVALID_ARGUMENT);
    d[1].tail_bone = 3; /* out of range */
    pm_skeleton *bad = NULL;
    PM_CHECK_EQ_INT(pm_skeleton_create(d, 3, NULL, 0, NULL, &bad, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "tail bone 3"), "%s", err.message);
    pm_skeleton_free(s);
}

/* The JSON fields that imply their flags when "flags" is absent, and exact flags when present. */
PM_TEST(skeleton_json_reads_axes_tails_and_exact_flags) {
    const char *json = "{\"modelName\": \"m\", \"bones\": ["
                       "{\"name\": \"a\", \"position\": [0, 0, 0], \"parent\": -1, \"tailBone\": 1},"
                       "{\"name\": \"b\", \"position\": [0, 1, 0], \"parent\": 0, \"fixedAxis\": [0, 1, 0],"
                       " \"localAxes\": {\"x\": [1, 0, 0], \"z\": [0, 0, 1]}, \"externalParent\": 3, \"tail\": [0, 2, 0]},"
                       "{\"name\": \"c\", \"position\": [0, 2, 0], \"parent\": 1, \"flags\": 0, \"fixedAxis\": [0, 1, 0]}]}";
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_from_json(json, strlen(json), NULL, &s, &err), &err);
    if (!s) return;
    PM_CHECK_STR(s->model_name.data, "m");
    PM_CHECK(s->bones[0].flags & PM_BONE_TAIL_IS_BONE);
    PM_CHECK_EQ_INT(s->bones[0].tail_bone, 1);
    PM_CHECK_EQ_INT(s->bones[1].flags, PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED | PM_BONE_FIXED_AXIS |
                                           PM_BONE_LOCAL_AXES | PM_BONE_EXTERNAL_PARENT);
    PM_CHECK(vec_eq(s->bones[1].local_x, pm_vec3_make(1, 0, 0)) && vec_eq(s->bones[1].tail_offset, pm_vec3_make(0, 2, 0)));
    PM_CHECK_EQ_INT(s->bones[1].external_parent_key, 3);
    PM_CHECK_EQ_INT(s->bones[2].flags, 0); /* explicit flags 0: the axis is not used */
    PM_CHECK(vec_eq(s->bones[2].fixed_axis, pm_vec3_make(0, 0, 0)));
    pm_skeleton_free(s);
    const char *bad = "{\"bones\": [{\"name\": \"a\", \"position\": [0, 0, 0], \"parent\": -1, \"localAxes\": {\"x\": [1, 0, 0]}}]}";
    PM_CHECK_EQ_INT(pm_skeleton_from_json(bad, strlen(bad), NULL, &s, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_MSG(strstr(err.message, "bones[0].localAxes.z must be three finite numbers"), "%s", err.message);
}

int main(void) { return pm_test_run_all(); }
