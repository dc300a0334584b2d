/* The built-in mannequin: its skeleton (NOTES figures, IK as in yw_test_model.pmx), the PMX it
 * writes (read back by our reader; mesh walked here: skinning, winding, facing, morphs).
 * With PM_WRITE_MANNEQUIN=path set, the PMX is also written to that file. */
#include "pm_test.h"

#include "procmotion/humanoid.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"

#include <math.h>

static pm_skeleton *mannequin_skeleton(bool omit_eyes) {
    pm_mannequin_options o = {0};
    o.omit_eye_bones = omit_eyes;
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_mannequin_skeleton(&o, &s, &err), &err);
    return s;
}

static unsigned char *mannequin_bytes(const pm_mannequin_options *o, size_t *size) {
    pm_error err = {0};
    *size = 0;
    PM_CHECK_OK(pm_mannequin_pmx(o, NULL, 0, size, &err), &err);
    unsigned char *d = malloc(*size ? *size : 1);
    size_t written = 0;
    PM_CHECK_OK(pm_mannequin_pmx(o, d, *size, &written, &err), &err);
    PM_CHECK_EQ_INT(written, *size);
    return d;
}

PM_TEST(skeleton_has_the_semi_standard_bones_at_the_documented_figures) {
    pm_skeleton *s = mannequin_skeleton(false);
    if (!s) return;
    PM_CHECK_EQ_INT(s->bone_count, 32);
    struct {
        const char *name, *parent;
        float x, y, z;
    } figures[] = {
        {"全ての親", NULL, 0, 0, 0},                 {"センター", "全ての親", 0, 8, 0},
        {"グルーブ", "センター", 0, 8.2f, 0},        {"腰", "グルーブ", 0, 11.749f, 0.265f},
        {"上半身", "腰", 0, 13.301f, -0.255f},       {"上半身2", "上半身", 0, 14.392f, -0.166f},
        {"首", "上半身2", 0, 16.418f, 0},            {"頭", "首", 0, 16.799f, 0},
        {"下半身", "腰", 0, 13.243f, -0.255f},       {"左肩", "上半身2", 0.136f, 16.130f, 0.265f},
        {"左腕", "左肩", 1.005f, 16.034f, 0.318f},   {"左ひじ", "左腕", 3.175f, 13.808f, 0.282f},
        {"左手首", "左ひじ", 4.397f, 11.978f, 0.272f}, {"左足", "下半身", 0.797f, 10.753f, -0.073f},
        {"左ひざ", "左足", 0.684f, 5.984f, -0.817f}, {"左足首", "左ひざ", 0.874f, 1.470f, -0.001f},
        {"左つま先", "左足首", 0.927f, 0.033f, -2.409f}, {"左足ＩＫ", "全ての親", 0.874f, 1.470f, -0.001f},
        {"左つま先ＩＫ", "左足ＩＫ", 0.927f, 0.033f, -2.409f}, {"右ひじ", "右腕", -3.175f, 13.808f, 0.282f},
        {"右つま先ＩＫ", "右足ＩＫ", -0.927f, 0.033f, -2.409f}, {"両目", "頭", 0, 20.2f, -0.7f},
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        uint32_t b = pm_skeleton_find(s, figures[i].name);
        PM_CHECK_MSG(b != PM_NO_INDEX, "no bone %s", figures[i].name);
        if (b == PM_NO_INDEX) continue;
        const pm_bone *bone = &s->bones[b];
        PM_CHECK_NEAR(bone->position.x, figures[i].x, 1e-6);
        PM_CHECK_NEAR(bone->position.y, figures[i].y, 1e-6);
        PM_CHECK_NEAR(bone->position.z, figures[i].z, 1e-6);
        if (figures[i].parent) PM_CHECK_STR(s->bones[bone->parent].name.data, figures[i].parent);
        else PM_CHECK_EQ_INT(bone->parent, PM_NO_INDEX);
        PM_CHECK(bone->parent == PM_NO_INDEX || bone->parent < b); /* parents first */
    }
    const pm_bone *eye = &s->bones[pm_skeleton_find(s, "左目")];
    PM_CHECK(eye->flags & PM_BONE_APPEND_ROTATE);
    PM_CHECK_STR(s->bones[eye->append_parent].name.data, "両目");
    PM_CHECK_NEAR(eye->append_ratio, 1.0, 0);
    PM_CHECK_EQ_INT(s->morph_count, 3);
    PM_CHECK_STR(s->morph_names[0].data, "まばたき");
    PM_CHECK_STR(s->morph_names[1].data, "あ");
    PM_CHECK_STR(s->morph_names[2].data, "笑い");
    pm_humanoid_map m;
    pm_error err = {0};
    PM_CHECK_OK(pm_humanoid_map_skeleton(s, &m, &err), &err);
    PM_CHECK_EQ_INT(m.mapped, 21);
    PM_CHECK(m.drivable);
    pm_skeleton_free(s);

    s = mannequin_skeleton(true);
    if (s) {
        PM_CHECK_EQ_INT(s->bone_count, 29);
        PM_CHECK_EQ_INT(pm_skeleton_find(s, "両目"), PM_NO_INDEX);
    }
    pm_skeleton_free(s);
}

/* The IK chains carry yw_test_model.pmx's numbers exactly. */
PM_TEST(ik_chains_match_the_yw_fixture) {
    pm_skeleton *s = mannequin_skeleton(false);
    size_t n;
    unsigned char *d = pm_test_read_fixture("pmx/yw_test_model/yw_test_model.pmx", &n);
    pm_skeleton *yw = NULL;
    pm_error err = {0};
    if (d) PM_CHECK_OK(pm_pmx_read(d, n, NULL, &yw, &err), &err);
    const char *iks[4] = {"左足ＩＫ", "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ"};
    for (int i = 0; i < 4 && s; i++) {
        const pm_bone *b = &s->bones[pm_skeleton_find(s, iks[i])];
        PM_CHECK(b->has_ik && (b->flags & PM_BONE_IK) && (b->flags & PM_BONE_TRANSLATABLE));
        PM_CHECK_EQ_INT(b->transform_order, 1);
        /* the IK bone sits on its target */
        PM_CHECK(memcmp(&b->position, &s->bones[b->ik.target].position, sizeof(pm_vec3)) == 0);
        PM_CHECK_EQ_INT(b->ik.link_count, i < 2 ? 2 : 1);
        if (!yw) continue;
        const pm_bone *y = &yw->bones[pm_skeleton_find(yw, iks[i])];
        PM_CHECK_STR(s->bones[b->ik.target].name.data, yw->bones[y->ik.target].name.data);
        PM_CHECK_EQ_INT(b->ik.loop_count, y->ik.loop_count);
        PM_CHECK(b->ik.limit_angle == y->ik.limit_angle);
        PM_CHECK_EQ_INT(b->ik.link_count, y->ik.link_count);
        for (uint32_t k = 0; k < b->ik.link_count && k < y->ik.link_count; k++) {
            const pm_ik_link *l = &b->ik.links[k], *m = &y->ik.links[k];
            PM_CHECK_STR(s->bones[l->bone].name.data, yw->bones[m->bone].name.data);
            PM_CHECK_EQ_INT(l->has_limit, m->has_limit);
            PM_CHECK(memcmp(&l->limit_min, &m->limit_min, sizeof(pm_vec3)) == 0);
            PM_CHECK(memcmp(&l->limit_max, &m->limit_max, sizeof(pm_vec3)) == 0);
        }
    }
    pm_skeleton_free(yw);
    pm_skeleton_free(s);
    free(d);
}

/* ---- the PMX -------------------------------------------------------------------------------- */

typedef struct walked {
    uint32_t vertex_count, index_count, material_count;
    float *pos, *normal; /* 3 per vertex */
    int *bone;           /* BDEF1 bone, -1 if another weight type */
    uint32_t *index;
    uint32_t mat_count[16];
    char mat_name[16][32];
} walked;

static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static float rdf(const unsigned char *p) {
    uint32_t u = rd32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static size_t skip_text(const unsigned char *d, size_t at) { return at + 4 + rd32(d + at); }

/* Walk the writer's own layout: UTF-16, no extra UVs, BDEF1, index sizes from the header. */
static int walk(const unsigned char *d, size_t n, walked *w) {
    memset(w, 0, sizeof *w);
    int vsize = d[11], bsize = d[14];
    PM_CHECK_EQ_INT(d[10], 0);
    size_t at = 17;
    for (int i = 0; i < 4; i++) at = skip_text(d, at);
    w->vertex_count = rd32(d + at), at += 4;
    w->pos = malloc(12 * (size_t)w->vertex_count);
    w->normal = malloc(12 * (size_t)w->vertex_count);
    w->bone = malloc(sizeof(int) * w->vertex_count);
    for (uint32_t i = 0; i < w->vertex_count; i++) {
        for (int k = 0; k < 3; k++) w->pos[3 * i + k] = rdf(d + at + 4 * k), w->normal[3 * i + k] = rdf(d + at + 12 + 4 * k);
        at += 32;
        uint8_t type = d[at++];
        w->bone[i] = type == 0 ? (bsize == 1 ? (int8_t)d[at] : (int16_t)(d[at] | d[at + 1] << 8)) : -1;
        if (type != 0) return 0;
        at += (size_t)bsize + 4;
    }
    w->index_count = rd32(d + at), at += 4;
    w->index = malloc(4 * (size_t)w->index_count);
    for (uint32_t i = 0; i < w->index_count; i++, at += (size_t)vsize)
        w->index[i] = vsize == 1 ? d[at] : vsize == 2 ? (uint32_t)(d[at] | d[at + 1] << 8) : rd32(d + at);
    at += 4; /* textures: 0 */
    w->material_count = rd32(d + at), at += 4;
    for (uint32_t i = 0; i < w->material_count && i < 16; i++) {
        at = skip_text(d, at); /* name */
        uint32_t enlen = rd32(d + at); /* English name, ASCII in UTF-16LE */
        for (uint32_t k = 0; k < enlen / 2 && k < 31; k++) w->mat_name[i][k] = (char)d[at + 4 + 2 * k];
        at = skip_text(d, at);
        at += 44 + 1 + 20;  /* colours, flags, edge */
        at += 2 + 1 + 2;    /* texture and sphere indices (1 byte each), sphere mode, toon flag + index */
        at = skip_text(d, at); /* memo */
        w->mat_count[i] = rd32(d + at), at += 4;
    }
    uint32_t bones = rd32(d + at);
    (void)n;
    return (int)bones;
}

static void walked_free(walked *w) {
    free(w->pos);
    free(w->normal);
    free(w->bone);
    free(w->index);
}

PM_TEST(pmx_reads_back_with_the_same_skeleton) {
    for (uint8_t enc = 0; enc < 2; enc++) {
        pm_mannequin_options o = {0};
        o.encoding = enc;
        size_t size;
        unsigned char *d = mannequin_bytes(&o, &size);
        pm_skeleton *s = NULL, *ref = mannequin_skeleton(false);
        pm_error err = {0};
        PM_CHECK_OK(pm_pmx_read(d, size, NULL, &s, &err), &err);
        if (s && ref) {
            PM_CHECK_EQ_INT(s->source.encoding, enc);
            PM_CHECK_NEAR(s->source.version, 2.0, 0);
            PM_CHECK_EQ_INT(s->source.material_count, 7);
            PM_CHECK(s->source.vertex_count > 1000 && s->source.vertex_count < 5000);
            PM_CHECK_EQ_INT(s->bone_count, ref->bone_count);
            PM_CHECK_STR(s->model_name.data, "マネキン");
            PM_CHECK_STR(s->model_name_en.data, "procmotion mannequin");
            PM_CHECK(strstr(s->source.model_comment_en.data, "CC0") != NULL);
            for (uint32_t i = 0; i < s->bone_count; i++) {
                const pm_bone *a = &s->bones[i], *b = &ref->bones[i];
                PM_CHECK_STR(a->name.data, b->name.data);
                PM_CHECK(a->parent == b->parent && a->flags == b->flags && a->tail_bone == b->tail_bone &&
                         memcmp(&a->position, &b->position, sizeof(pm_vec3)) == 0 && a->has_ik == b->has_ik &&
                         a->append_parent == b->append_parent && a->transform_order == b->transform_order);
            }
            PM_CHECK_EQ_INT(s->morph_count, 3);
            PM_CHECK_STR(s->morph_names[2].data, "笑い");
            PM_CHECK_EQ_INT(s->morph_panel[0], 2);
            PM_CHECK_EQ_INT(s->morph_panel[1], 3);
        }
        pm_skeleton_free(s);
        pm_skeleton_free(ref);
        free(d);
    }
}

PM_TEST(mesh_is_skinned_wound_outwards_and_faces_minus_z) {
    size_t size;
    unsigned char *d = mannequin_bytes(NULL, &size);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pmx_read(d, size, NULL, &s, &err), &err);
    walked w;
    int bones = walk(d, size, &w);
    PM_CHECK_EQ_INT(bones, 32);
    PM_CHECK(s && w.vertex_count == s->source.vertex_count && w.index_count == 3 * s->source.face_count);
    /* BDEF1 on a real bone; the figure spans the documented box */
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    uint32_t per_bone[32] = {0};
    for (uint32_t i = 0; i < w.vertex_count; i++) {
        PM_CHECK(w.bone[i] >= 0 && w.bone[i] < 32);
        if (w.bone[i] >= 0 && w.bone[i] < 32) per_bone[w.bone[i]]++;
        for (int k = 0; k < 3; k++) {
            PM_CHECK(isfinite(w.pos[3 * i + k]));
            if (w.pos[3 * i + k] < lo[k]) lo[k] = w.pos[3 * i + k];
            if (w.pos[3 * i + k] > hi[k]) hi[k] = w.pos[3 * i + k];
        }
        float nl = sqrtf(w.normal[3 * i] * w.normal[3 * i] + w.normal[3 * i + 1] * w.normal[3 * i + 1] +
                         w.normal[3 * i + 2] * w.normal[3 * i + 2]);
        PM_CHECK_NEAR(nl, 1.0, 1e-4);
    }
    printf("  %u vertices, %u triangles, box x %.2f..%.2f y %.2f..%.2f z %.2f..%.2f\n", w.vertex_count, w.index_count / 3,
           lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    PM_CHECK(lo[1] > -0.2f && lo[1] < 0.1f); /* soles on the ground */
    PM_CHECK(hi[1] > 19.0f && hi[1] < 19.3f); /* head top ~19 */
    PM_CHECK(hi[0] > 4.5f && hi[0] < 5.5f && fabsf(lo[0] + hi[0]) < 1e-4f); /* hands; symmetric */
    PM_CHECK(lo[2] < -2.5f && hi[2] < 1.5f); /* toes point to -Z */
    /* every bone that moves the body carries geometry; control bones carry none */
    const char *with_mesh[] = {"頭", "首", "上半身", "上半身2", "下半身", "左肩", "左腕", "左ひじ", "左手首", "右手首",
                               "左足", "左ひざ", "左足首", "右足首", "左目", "右目"};
    for (size_t i = 0; s && i < sizeof with_mesh / sizeof with_mesh[0]; i++)
        PM_CHECK_MSG(per_bone[pm_skeleton_find(s, with_mesh[i])] > 0, "%s has no vertices", with_mesh[i]);
    const char *without[] = {"全ての親", "センター", "グルーブ", "腰", "左足ＩＫ", "両目", "左つま先"};
    for (size_t i = 0; s && i < sizeof without / sizeof without[0]; i++)
        PM_CHECK_EQ_INT(per_bone[pm_skeleton_find(s, without[i])], 0);
    /* winding: cross(b - a, c - a) points along the vertex normals (PMX front faces, as in the fixtures) */
    uint32_t inward = 0;
    for (uint32_t t = 0; t + 2 < w.index_count; t += 3) {
        const float *a = &w.pos[3 * w.index[t]], *b = &w.pos[3 * w.index[t + 1]], *c = &w.pos[3 * w.index[t + 2]];
        float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float cr[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        float nsum[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) nsum[j] += w.normal[3 * w.index[t + k] + j];
        if (cr[0] * nsum[0] + cr[1] * nsum[1] + cr[2] * nsum[2] <= 0) inward++;
    }
    PM_CHECK_EQ_INT(inward, 0);
    /* materials: skin, shirt, trousers, shoes, hair, eyes, mouth; all drawn */
    PM_CHECK_EQ_INT(w.material_count, 7);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < w.material_count; i++) {
        PM_CHECK(w.mat_count[i] > 0 && w.mat_count[i] % 3 == 0);
        sum += w.mat_count[i];
    }
    PM_CHECK_EQ_INT(sum, w.index_count);
    PM_CHECK_STR(w.mat_name[5], "eyes");
    /* the face is on -Z: every eye and mouth vertex is in front of the head's centre plane */
    uint32_t first = 0;
    for (uint32_t i = 0; i < 5; i++) first += w.mat_count[i];
    for (uint32_t k = first; k < w.index_count; k++) PM_CHECK(w.pos[3 * w.index[k] + 2] < -0.7f);
    walked_free(&w);
    pm_skeleton_free(s);

    const char *path = getenv("PM_WRITE_MANNEQUIN");
    if (path && *path) {
        FILE *f = fopen(path, "wb");
        PM_CHECK(f && fwrite(d, 1, size, f) == size);
        if (f) fclose(f);
        printf("  wrote %s (%zu bytes)\n", path, size);
    }
    free(d);
}

PM_TEST(options_and_failures) {
    pm_mannequin_options o = {0};
    o.encoding = 2;
    size_t size;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_mannequin_pmx(&o, NULL, 0, &size, &err), PM_ERR_INVALID_ARGUMENT);
    pm_skeleton *s = (pm_skeleton *)1;
    PM_CHECK_EQ_INT(pm_mannequin_skeleton(&o, &s, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(s == NULL);
    PM_CHECK_EQ_INT(pm_mannequin_pmx(NULL, NULL, 0, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_OK(pm_mannequin_pmx(NULL, NULL, 0, &size, &err), &err);
    unsigned char *d = malloc(size);
    size_t got;
    PM_CHECK_EQ_INT(pm_mannequin_pmx(NULL, d, size - 1, &got, &err), PM_ERR_INVALID_ARGUMENT);
    /* without eye bones the eyes ride on 頭 and the file is still valid */
    o.encoding = 0;
    o.omit_eye_bones = true;
    size_t size2;
    unsigned char *d2 = mannequin_bytes(&o, &size2);
    pm_skeleton *t = NULL;
    PM_CHECK_OK(pm_pmx_read(d2, size2, NULL, &t, &err), &err);
    PM_CHECK(t && t->bone_count == 29);
    pm_skeleton_free(t);
    free(d2);
    free(d);
}

typedef struct failing {
    long fail_at, count, live;
} failing;
static void *failing_alloc(void *user, size_t size) {
    failing *f = user;
    if (f->count++ == f->fail_at) return NULL;
    f->live++;
    return malloc(size);
}
static void failing_free(void *user, void *p) {
    failing *f = user;
    if (p) f->live--;
    free(p);
}

PM_TEST(allocation_failures_are_clean) {
    int ok = 0;
    for (long k = 0; k < 400 && !ok; k++) {
        failing f = {k, 0, 0};
        pm_mannequin_options o = {0};
        o.allocator = (pm_allocator){failing_alloc, failing_free, &f, 0};
        size_t size;
        pm_error err = {0};
        pm_result r = pm_mannequin_pmx(&o, NULL, 0, &size, &err);
        if (r == PM_OK) ok = 1;
        else PM_CHECK_MSG(r == PM_ERR_OUT_OF_MEMORY, "failing allocation %ld: %s", k, err.message);
        PM_CHECK_EQ_INT(f.live, 0);
    }
    PM_CHECK(ok);
}

int main(void) { return pm_test_run_all(); }
