/* The whole-model reader (pm_model_load, pmx.h): the shared PMX fixtures, the mannequin and every zoo
 * model (PMX and PMD), PMD against PMX of the same model, truncation at every offset, hostile counts
 * and limits, and allocation failures. */
#include "pm_test.h"
#include "counting_alloc.h"

#include "common/internal.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "zoo.h"

static const char *const fixtures[2] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};

/* What every loaded model must satisfy (the model's own invariants, against the skeleton reader). */
static void check_model(const char *what, const pm_model *m, const uint8_t *bytes, size_t size) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    PM_CHECK_OK(pm_model_read(bytes, size, NULL, &s, &err), &err);
    if (!s) return;
    PM_CHECK_MSG(m->skeleton && m->skeleton->bone_count == s->bone_count, "%s: bone count", what);
    for (uint32_t i = 0; m->skeleton && i < s->bone_count && i < m->skeleton->bone_count; i++) {
        PM_CHECK_MSG(strcmp(m->skeleton->bones[i].name.data, s->bones[i].name.data) == 0, "%s: bone %u name", what, i);
        PM_CHECK_MSG(m->skeleton->bones[i].parent == s->bones[i].parent, "%s: bone %u parent", what, i);
    }
    PM_CHECK_EQ_INT(m->vertex_count, s->source.vertex_count);
    PM_CHECK_EQ_INT(m->index_count, s->source.face_count * 3);
    PM_CHECK_EQ_INT(m->material_count, s->source.material_count);
    PM_CHECK_EQ_INT(m->morph_count, s->morph_count);
    if (s->source.format == PM_MODEL_FORMAT_PMX) PM_CHECK_EQ_INT(m->texture_count, s->source.texture_count);
    uint64_t drawn = 0;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_model_material *mat = &m->materials[i];
        PM_CHECK_MSG(mat->index_start == drawn, "%s: material %u starts at %u, not %llu", what, i, mat->index_start,
                     (unsigned long long)drawn);
        PM_CHECK(mat->index_count % 3 == 0);
        PM_CHECK(mat->texture == PM_NO_INDEX || mat->texture < m->texture_count);
        PM_CHECK(mat->sphere_texture == PM_NO_INDEX || mat->sphere_texture < m->texture_count);
        PM_CHECK(mat->shared_toon ? mat->toon < 10 : (mat->toon == PM_NO_INDEX || mat->toon < m->texture_count));
        PM_CHECK(mat->name.data != NULL && mat->memo.data != NULL);
        drawn += mat->index_count;
    }
    PM_CHECK(drawn <= m->index_count);
    for (uint32_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count) {
            PM_FAIL_AT("%s: index %u = %u >= %u vertices", what, i, m->indices[i], m->vertex_count);
            break;
        }
    uint32_t bad = 0;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const pm_model_vertex *v = &m->vertices[i];
        PM_CHECK(v->weight_type < PM_WEIGHT_TYPE_COUNT);
        int n = v->weight_type == PM_WEIGHT_BDEF1 ? 1 : (v->weight_type == PM_WEIGHT_BDEF2 || v->weight_type == PM_WEIGHT_SDEF) ? 2 : 4;
        float sum = 0;
        for (int k = 0; k < n; k++) {
            PM_CHECK(v->bone[k] == PM_NO_INDEX || v->bone[k] < s->bone_count);
            if (v->bone[k] != PM_NO_INDEX) sum += v->weight[k];
        }
        for (int k = n; k < 4; k++) PM_CHECK(v->bone[k] == PM_NO_INDEX);
        if (v->weight_type != PM_WEIGHT_BDEF4 && v->weight_type != PM_WEIGHT_QDEF && fabsf(sum - 1.0f) > 1e-4f) bad++;
    }
    PM_CHECK_MSG(bad == 0, "%s: %u vertices whose BDEF1/2 weights do not add up to 1", what, bad);
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const pm_model_morph *mm = &m->morphs[i];
        PM_CHECK(strcmp(mm->name.data, s->morph_names[i].data) == 0);
        PM_CHECK(mm->type < PM_MORPH_TYPE_COUNT);
        for (uint32_t k = 0; mm->type == PM_MORPH_VERTEX && k < mm->offset_count; k++)
            PM_CHECK(mm->offsets[k].index < m->vertex_count);
    }
    for (uint32_t i = 0; i < m->display_frame_count; i++)
        for (uint32_t k = 0; k < m->display_frames[i].item_count; k++) {
            const pm_pmx_display_item *it = &m->display_frames[i].items[k];
            PM_CHECK(it->index < (it->is_morph ? m->morph_count : s->bone_count));
        }
    for (uint32_t i = 0; i < m->rigid_body_count; i++)
        PM_CHECK(m->rigid_bodies[i].bone == PM_NO_INDEX || m->rigid_bodies[i].bone < s->bone_count);
    for (uint32_t i = 0; i < m->joint_count; i++)
        PM_CHECK(m->joints[i].body_a == PM_NO_INDEX || m->joints[i].body_a < m->rigid_body_count);
    pm_skeleton_free(s);
}

PM_TEST(the_shared_fixtures_load_whole) {
    /* figures of the two files, as PMX Editor lists them */
    for (int f = 0; f < 2; f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(fixtures[f], &n);
        if (!d) continue;
        pm_error err = {0};
        pm_model *m = NULL;
        PM_CHECK_OK(pm_model_load(d, n, NULL, &m, &err), &err);
        if (m) {
            check_model(fixtures[f], m, d, n);
            printf("  %s: %u vertices, %u faces, %u textures, %u materials, %u morphs, %u display frames, %u rigid "
                   "bodies, %u joints\n",
                   fixtures[f], m->vertex_count, m->index_count / 3, m->texture_count, m->material_count,
                   m->morph_count, m->display_frame_count, m->rigid_body_count, m->joint_count);
            PM_CHECK(m->vertex_count > 1000);
            PM_CHECK(m->material_count >= 1);
            PM_CHECK(m->display_frame_count >= 2);
            PM_CHECK(m->display_frames[0].special); /* Root */
            if (f == 0) { /* yw_test_model: tex/diffuse.png on its materials */
                int found = 0;
                for (uint32_t t = 0; t < m->texture_count; t++) found |= strstr(m->textures[t].data, "diffuse.png") != NULL;
                PM_CHECK_MSG(found, "yw_test_model names tex/diffuse.png");
            }
            /* positions are finite and the figure stands about 20 units tall */
            float ymin = 1e9f, ymax = -1e9f;
            for (uint32_t i = 0; i < m->vertex_count; i++) {
                float y = m->vertices[i].position.y;
                ymin = y < ymin ? y : ymin;
                ymax = y > ymax ? y : ymax;
            }
            PM_CHECK(ymin > -1.0f && ymin < 1.0f);
            PM_CHECK(ymax > 15.0f && ymax < 25.0f);
        }
        pm_model_free(m);
        free(d);
    }
}

PM_TEST(every_zoo_model_and_the_mannequin_load_whole) {
    pm_error err = {0};
    pm_zoo_entry *all = NULL;
    size_t count = 0, fixtures_found = 0;
    PM_CHECK_OK(pm_zoo_entries(NULL, &all, &count, &fixtures_found, &err), &err);
    size_t pmd = 0;
    for (size_t i = 0; i < count; i++) {
        pm_model *m = NULL;
        PM_CHECK_OK(pm_model_load(all[i].bytes, all[i].size, NULL, &m, &err), &err);
        if (!m) continue;
        check_model(all[i].id, m, all[i].bytes, all[i].size);
        PM_CHECK_MSG(m->vertex_count > 100 && m->material_count >= 1, "%s has a mesh", all[i].id);
        pmd += all[i].format == PM_MODEL_FORMAT_PMD;
        pm_model_free(m);
    }
    PM_CHECK(count >= 29);
    PM_CHECK(pmd >= 10);
    pm_zoo_entries_free(all, count);
}

/* The PMD and PMX files of the same zoo model carry the same mesh: positions, weights (PMD keeps them in
 * percent), faces, material runs and the morph offsets (PMD's base-relative indices resolved). */
PM_TEST(pmd_reads_as_the_same_mesh_as_pmx) {
    const char *ids[2][2] = {{"knee31", "knee31-pmd"}, {"apose45", "apose45-pmd"}};
    for (int k = 0; k < 2; k++) {
        const pm_zoo_model *zx = pm_zoo_find(ids[k][0]), *zd = pm_zoo_find(ids[k][1]);
        PM_CHECK(zx && zd);
        if (!zx || !zd) continue;
        pm_error err = {0};
        uint8_t *bx = NULL, *bd = NULL;
        size_t nx = 0, nd = 0;
        PM_CHECK_OK(pm_zoo_file(zx, &bx, &nx, &err), &err);
        PM_CHECK_OK(pm_zoo_file(zd, &bd, &nd, &err), &err);
        pm_model *mx = NULL, *md = NULL;
        PM_CHECK_OK(pm_model_load(bx, nx, NULL, &mx, &err), &err);
        PM_CHECK_OK(pm_model_load(bd, nd, NULL, &md, &err), &err);
        if (mx && md) {
            PM_CHECK_EQ_INT(mx->vertex_count, md->vertex_count);
            PM_CHECK_EQ_INT(mx->index_count, md->index_count);
            PM_CHECK_EQ_INT(mx->material_count, md->material_count);
            PM_CHECK_EQ_INT(mx->morph_count, md->morph_count);
            float dpos = 0, dw = 0;
            for (uint32_t i = 0; i < mx->vertex_count && i < md->vertex_count; i++) {
                const pm_model_vertex *a = &mx->vertices[i], *b = &md->vertices[i];
                dpos = fmaxf(dpos, pm_vec3_length(pm_vec3_sub(a->position, b->position)));
                float wa0 = a->bone[1] == PM_NO_INDEX ? 1.0f : a->weight[0];
                dw = fmaxf(dw, fabsf(wa0 - b->weight[0]));
                PM_CHECK(a->bone[0] == b->bone[0]);
            }
            PM_CHECK(dpos == 0.0f);
            PM_CHECK_MSG(dw <= 0.005f, "weights differ by %g (PMD keeps percent)", (double)dw);
            for (uint32_t i = 0; i < mx->index_count && i < md->index_count; i++)
                if (mx->indices[i] != md->indices[i]) {
                    PM_FAIL_AT("face index %u differs", i);
                    break;
                }
            for (uint32_t i = 0; i < mx->material_count && i < md->material_count; i++)
                PM_CHECK(mx->materials[i].index_count == md->materials[i].index_count);
            for (uint32_t i = 0; i < mx->morph_count && i < md->morph_count; i++) {
                const pm_model_morph *a = &mx->morphs[i], *b = &md->morphs[i];
                PM_CHECK(strcmp(a->name.data, b->name.data) == 0);
                PM_CHECK_EQ_INT(a->offset_count, b->offset_count);
                for (uint32_t o = 0; o < a->offset_count && o < b->offset_count && a->type == PM_MORPH_VERTEX; o++) {
                    PM_CHECK(a->offsets[o].index == b->offsets[o].index);
                    PM_CHECK(a->offsets[o].value[1] == b->offsets[o].value[1]);
                }
            }
            PM_CHECK(md->display_frame_count >= 2);
        }
        pm_model_free(mx);
        pm_model_free(md);
        free(bx);
        free(bd);
    }
}

/* Every prefix of the files fails cleanly or reads (a PMX that ends after the morphs, or a PMD after
 * its display lists, is complete); ASan poisons the bytes past the cut. */
PM_TEST(truncation_at_every_offset_fails_cleanly) {
    const char *quick = getenv("PM_TEST_QUICK");
    size_t stride = quick && *quick == '1' ? 197 : 13; /* every 13th byte: each section and field is cut somewhere */
    for (int f = 0; f < 2; f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(fixtures[f], &n);
        if (!d) continue;
        size_t ok = 0, checked = 0;
        for (size_t cut = 0; cut < n; cut += stride) {
            pm_error err = {0};
            pm_model *m = NULL;
            pm_test_cut(d, n, cut);
            pm_result r = pm_model_load(d, cut, NULL, &m, &err);
            pm_test_uncut(d, n);
            checked++;
            if (r == PM_OK) {
                ok++;
                pm_model_free(m);
            } else if (!err.message[0] || m) {
                PM_FAIL_AT("%s cut at %zu: result %d without a message", fixtures[f], cut, (int)r);
                break;
            }
        }
        printf("  %s: %zu cuts, %zu read as complete (the file ends after a section)\n", fixtures[f], checked, ok);
        free(d);
    }
    /* a PMD from the zoo the same way */
    pm_error err = {0};
    uint8_t *b = NULL;
    size_t n = 0;
    PM_CHECK_OK(pm_zoo_file(pm_zoo_find("realpmd"), &b, &n, &err), &err);
    for (size_t cut = 0; b && cut < n; cut += stride * 3) {
        pm_model *m = NULL;
        pm_test_cut(b, n, cut);
        pm_result r = pm_model_load(b, cut, NULL, &m, &err);
        pm_test_uncut(b, n);
        if (r == PM_OK) pm_model_free(m);
        else if (m) PM_FAIL_AT("realpmd cut at %zu left a model", cut);
    }
    free(b);
}

PM_TEST(hostile_counts_and_limits_are_refused_before_allocating) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[0], &n);
    if (!d) return;
    pm_error err = {0};
    pm_model *m = NULL;
    /* the vertex count sits after the header: find it as the first i32 the reader checks */
    pm_skeleton *s = NULL;
    PM_CHECK_OK(pm_model_read(d, n, NULL, &s, &err), &err);
    uint32_t nv = s ? s->source.vertex_count : 0;
    pm_skeleton_free(s);
    size_t at = 0;
    for (size_t i = 17; i + 4 <= n && i < 4096; i++)
        if (pmi_le32(d + i) == nv) {
            at = i;
            break;
        }
    PM_CHECK(at > 0);
    unsigned char *h = malloc(n);
    memcpy(h, d, n);
    pmi_put32(h + at, 0x7fffffffu);
    PM_CHECK_EQ_INT(pm_model_load(h, n, NULL, &m, &err), PM_ERR_TRUNCATED);
    PM_CHECK(m == NULL && strstr(err.message, "vertex count") != NULL);
    pmi_put32(h + at, 0xfffffff0u);
    PM_CHECK_EQ_INT(pm_model_load(h, n, NULL, &m, &err), PM_ERR_BAD_FORMAT);
    pm_model_load_options o = {.max_vertices = 100};
    PM_CHECK_EQ_INT(pm_model_load(d, n, &o, &m, &err), PM_ERR_LIMIT);
    PM_CHECK(strstr(err.message, "limit of 100") != NULL);
    pm_model_load_options o2 = {.max_indices = 30};
    PM_CHECK_EQ_INT(pm_model_load(d, n, &o2, &m, &err), PM_ERR_LIMIT);
    PM_CHECK_EQ_INT(pm_model_load(d, 3, NULL, &m, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_model_load(NULL, 0, NULL, &m, &err), PM_ERR_BAD_FORMAT);
    PM_CHECK_EQ_INT(pm_model_load(d, n, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    pm_model_free(NULL);
    free(h);
    free(d);
}

typedef struct load_run {
    const unsigned char *d;
    size_t n;
} load_run;
static pm_result load_and_free(void *user, pm_allocator a, pm_error *err) {
    const load_run *x = user;
    pm_model_load_options o = {.read = {.allocator = a}};
    pm_model *m = NULL;
    pm_result r = pm_model_load(x->d, x->n, &o, &m, err);
    pm_model_free(m);
    return r;
}

PM_TEST(allocation_failures_leak_nothing) {
    size_t n;
    unsigned char *d = pm_test_read_fixture(fixtures[1], &n);
    if (!d) return;
    long needed = counter_fail_each(load_and_free, &(load_run){d, n}, 100000);
    printf("  mmt_test_model: %ld allocations, each failing in turn, nothing leaked\n", needed);
    PM_CHECK(needed > 2);
    free(d);
}

int main(void) { return pm_test_run_all(); }
