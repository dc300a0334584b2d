/* fuzz_targets.h -- the bodies of procmotion's fuzz targets, shared by the libFuzzer executables
 * (fuzz_main.c, one per target) and the regression replay test (tests/c/test_fuzz_regressions.c).
 *
 * Each target parses its input, exercises the result a little (writes it back and reads that again,
 * evaluates a few frames, converts to JSON and back) and frees everything. Besides what ASan and UBSan
 * catch, PM_FUZZ_CHECK states the library's documented promises: a written file reads back to the same
 * bytes, a validated skeleton round-trips through JSON, keypoint outputs hold no NaN and stay in range,
 * and evaluation of bounded input stays finite. The fuzzer aborts on a failed check (a crash it saves);
 * the regression test defines PM_FUZZ_CHECK to record a failure instead.
 *
 * No global mutable state reaches the library: the pose target keeps one mannequin skeleton, made once
 * (the harness's state, not the core's).
 */
#ifndef PM_FUZZ_TARGETS_H
#define PM_FUZZ_TARGETS_H

#include "procmotion/audio.h"
#include "procmotion/beats.h"
#include "procmotion/bvh.h"
#include "procmotion/catwalk.h"
#include "procmotion/fbx.h"
#include "procmotion/gltf.h"
#include "procmotion/groove.h"
#include "procmotion/humanoid.h"
#include "procmotion/dance.h"
#include "procmotion/idle.h"
#include "procmotion/lifelike.h"
#include "procmotion/ik.h"
#include "procmotion/keypoints.h"
#include "procmotion/retarget.h"
#include "procmotion/scoring.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/rig.h"
#include "procmotion/pose.h"
#include "procmotion/skeleton.h"
#include "procmotion/text.h"
#include "procmotion/tracing.h"
#include "procmotion/vmd.h"
#include "procmotion/vrm.h"

#include "common/json.h" /* internal: the JSON error classifier has its own target */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PM_FUZZ_CHECK
#define PM_FUZZ_CHECK(cond)                                                                              \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);               \
            abort();                                                                                     \
        }                                                                                                \
    } while (0)
#endif

/* Values at most this large (in magnitude) must give finite evaluations. */
#define PM_FUZZ_BOUND 1.0e4f

static int pm_fuzz_all_finite(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}
static int pm_fuzz_all_bounded(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(v[i]) <= PM_FUZZ_BOUND)) return 0;
    return 1;
}
/* memmem without _GNU_SOURCE */
static int pm_fuzz_contains(const void *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; k <= n && i <= n - k; i++)
        if (memcmp((const char *)hay + i, needle, k) == 0) return 1;
    return 0;
}
static int pm_fuzz_valid_utf8(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = pm_utf8_decode(s + i, n - i, &cp);
        if (!k || cp == 0) return 0;
        i += k;
    }
    return 1;
}

/* Names a reader hands out: NUL-terminated at `length`, valid UTF-8 (U+FFFD for what was not), no NUL
 * inside (C-string consumers and JSON must see the same name). */
static int pm_fuzz_good_name(pm_string n) {
    return n.data && n.data[n.length] == '\0' && strlen(n.data) == n.length && pm_fuzz_valid_utf8(n.data, n.length);
}

/* ---- VMD --------------------------------------------------------------------------------------- */

static int pm_fuzz_vmd_bounded(const pm_vmd *v) {
    return pm_fuzz_all_bounded(v->bones.position, 3 * (size_t)v->bones.count) &&
           pm_fuzz_all_bounded(v->bones.rotation, 4 * (size_t)v->bones.count);
}

/* Write a motion (size query, then the bytes); NULL when the writer refuses it (only a name that was
 * changed or added and that Shift-JIS cannot encode; a motion as read always writes). */
static uint8_t *pm_fuzz_vmd_write(const pm_vmd *v, bool canonical, size_t *size) {
    pm_error err = {0};
    const pm_vmd_write_options o = {canonical};
    if (pm_vmd_write_with(v, &o, NULL, 0, size, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.type == PM_ERR_ENCODING && err.message[0]);
        return NULL;
    }
    uint8_t *out = malloc(*size ? *size : 1);
    size_t written = 0;
    PM_FUZZ_CHECK(pm_vmd_write_with(v, &o, out, *size, &written, &err) == PM_OK && written == *size);
    return out;
}

/* Whether name ia of ta and name ib of tb (fields of w bytes) have the same bytes and the same text. */
static int pm_fuzz_same_name(const pm_vmd_names *ta, uint32_t ia, const pm_vmd_names *tb, uint32_t ib, size_t w) {
    const uint8_t *fa = ta->fields + (size_t)ia * w, *fb = tb->fields + (size_t)ib * w;
    size_t na = pm_sjis_field_length(fa, w), nb = pm_sjis_field_length(fb, w);
    return na == nb && memcmp(fa, fb, na) == 0 && strcmp(ta->items[ia].data, tb->items[ib].data) == 0;
}

/* Two motions with the same content: every key of every section, each named by the same bytes. */
static int pm_fuzz_vmd_same(const pm_vmd *a, const pm_vmd *b) {
    const pm_vmd_bone_keys *x = &a->bones, *y = &b->bones;
    if (x->count != y->count || a->morphs.count != b->morphs.count || a->cameras.count != b->cameras.count ||
        a->lights.count != b->lights.count || a->shadows.count != b->shadows.count ||
        a->properties.count != b->properties.count || a->properties.ik_count != b->properties.ik_count ||
        strcmp(a->model_name.data, b->model_name.data) != 0)
        return 0;
    for (uint32_t i = 0; i < x->count; i++)
        if (!pm_fuzz_same_name(&a->bone_names, x->name_index[i], &b->bone_names, y->name_index[i], 15) ||
            x->frame[i] != y->frame[i] || memcmp(x->position + 3 * i, y->position + 3 * i, 12) ||
            memcmp(x->rotation + 4 * i, y->rotation + 4 * i, 16) || memcmp(x->interpolation + 64 * i, y->interpolation + 64 * i, 64))
            return 0;
    for (uint32_t i = 0; i < a->morphs.count; i++)
        if (!pm_fuzz_same_name(&a->morph_names, a->morphs.name_index[i], &b->morph_names, b->morphs.name_index[i], 15) ||
            a->morphs.frame[i] != b->morphs.frame[i] || memcmp(&a->morphs.weight[i], &b->morphs.weight[i], 4))
            return 0;
    const pm_vmd_camera_keys *c = &a->cameras, *d = &b->cameras;
    for (uint32_t i = 0; i < c->count; i++)
        if (c->frame[i] != d->frame[i] || memcmp(&c->distance[i], &d->distance[i], 4) ||
            memcmp(c->position + 3 * i, d->position + 3 * i, 12) || memcmp(c->rotation + 3 * i, d->rotation + 3 * i, 12) ||
            memcmp(c->interpolation + 24 * i, d->interpolation + 24 * i, 24) || c->fov[i] != d->fov[i] ||
            c->perspective[i] != d->perspective[i])
            return 0;
    for (uint32_t i = 0; i < a->lights.count; i++)
        if (a->lights.frame[i] != b->lights.frame[i] || memcmp(a->lights.color + 3 * i, b->lights.color + 3 * i, 12) ||
            memcmp(a->lights.direction + 3 * i, b->lights.direction + 3 * i, 12))
            return 0;
    for (uint32_t i = 0; i < a->shadows.count; i++)
        if (a->shadows.frame[i] != b->shadows.frame[i] || a->shadows.mode[i] != b->shadows.mode[i] ||
            memcmp(&a->shadows.distance[i], &b->shadows.distance[i], 4))
            return 0;
    const pm_vmd_property_keys *p = &a->properties, *q = &b->properties;
    for (uint32_t i = 0; i < p->count; i++)
        if (p->frame[i] != q->frame[i] || p->visible[i] != q->visible[i] || p->ik_start[i + 1] != q->ik_start[i + 1])
            return 0;
    for (uint32_t j = 0; j < p->ik_count; j++)
        if (!pm_fuzz_same_name(&a->ik_names, p->ik_name_index[j], &b->ik_names, q->ik_name_index[j], 20) ||
            p->ik_enabled[j] != q->ik_enabled[j])
            return 0;
    return 1;
}

static void pm_fuzz_vmd(const uint8_t *data, size_t size) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    if (pm_vmd_read(data, size, NULL, &v, &err) != PM_OK) {
        PM_FUZZ_CHECK(v == NULL && err.type != PM_OK && err.message[0]);
        return;
    }
    PM_FUZZ_CHECK(v->bones.count + v->morphs.count + v->cameras.count <= size);
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->bones.position, 3 * (size_t)v->bones.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->bones.rotation, 4 * (size_t)v->bones.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->morphs.weight, v->morphs.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->cameras.position, 3 * (size_t)v->cameras.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->lights.color, 3 * (size_t)v->lights.count));
    for (uint32_t i = 0; i < v->bones.count; i++) PM_FUZZ_CHECK(v->bones.name_index[i] < v->bone_names.count);
    for (uint32_t i = 0; i < v->properties.ik_count; i++)
        PM_FUZZ_CHECK(v->properties.ik_name_index[i] < v->ik_names.count);
    for (uint32_t i = 0; i < v->bone_names.count; i++) PM_FUZZ_CHECK(pm_fuzz_good_name(v->bone_names.items[i]));
    for (uint32_t i = 0; i < v->morph_names.count; i++) PM_FUZZ_CHECK(pm_fuzz_good_name(v->morph_names.items[i]));
    PM_FUZZ_CHECK(pm_fuzz_good_name(v->model_name));
    /* whatever the reader accepts, the writer writes: the same bytes (lossless), and the canonical form
     * reads back to the same content and is a fixed point */
    size_t n1 = 0, n2 = 0, n3 = 0;
    uint8_t *w1 = pm_fuzz_vmd_write(v, false, &n1);
    PM_FUZZ_CHECK(w1 && n1 == size && memcmp(w1, data, size) == 0);
    uint8_t *w2 = pm_fuzz_vmd_write(v, true, &n2);
    PM_FUZZ_CHECK(w2 != NULL);
    if (w2) {
        pm_vmd *v2 = NULL;
        PM_FUZZ_CHECK(pm_vmd_read(w2, n2, NULL, &v2, &err) == PM_OK);
        if (v2) {
            PM_FUZZ_CHECK(v2->sections == 6 && pm_fuzz_vmd_same(v, v2));
            uint8_t *w3 = pm_fuzz_vmd_write(v2, false, &n3);
            PM_FUZZ_CHECK(w3 && n3 == n2 && memcmp(w2, w3, n2) == 0);
            free(w3);
        }
        pm_vmd_free(v2);
    }
    free(w2);
    free(w1);
    /* building on a read motion works too, and every name it had keeps its index */
    const float pos[3] = {0, 1, 0}, rot[4] = {0, 0, 0, 1};
    const uint32_t names = v->bone_names.count;
    PM_FUZZ_CHECK(pm_vmd_add_bone_key(v, "センター", 7, pos, rot, NULL, &err) == PM_OK);
    PM_FUZZ_CHECK(v->bone_names.count <= names + 1);
    if (names) {
        uint32_t idx = PM_NO_INDEX;
        PM_FUZZ_CHECK(pm_vmd_intern_field(v, &v->bone_names, v->bone_names.fields, 15, &idx, &err) == PM_OK && idx == 0);
    }
    pm_vmd_free(v);
}

/* ---- PMX / PMD and skeleton JSON ------------------------------------------------------------------- */

static char *pm_fuzz_skeleton_json(const pm_skeleton *s, size_t *n) {
    pm_error err = {0};
    PM_FUZZ_CHECK(pm_skeleton_to_json(s, NULL, 0, n, &err) == PM_OK);
    char *text = malloc(*n + 1);
    text[0] = '\0';
    size_t n2 = 0;
    PM_FUZZ_CHECK(pm_skeleton_to_json(s, text, *n + 1, &n2, &err) == PM_OK && n2 == *n && text[*n] == '\0');
    PM_FUZZ_CHECK(pm_fuzz_valid_utf8(text, *n));
    return text;
}

/* A valid skeleton: lookups by its own names work, and its JSON reads back losslessly: the second JSON
 * text equals the first from "bones" on (only "format" and the "source" block, a reader's, are not
 * read back; docs/formats.md), and is a fixed point after that. */
static void pm_fuzz_check_skeleton(const pm_skeleton *s) {
    pm_error err = {0};
    PM_FUZZ_CHECK(pm_skeleton_validate(s, &err) == PM_OK);
    PM_FUZZ_CHECK(pm_fuzz_good_name(s->model_name) && pm_fuzz_good_name(s->model_name_en));
    for (uint32_t i = 0; i < s->morph_count; i++) PM_FUZZ_CHECK(pm_fuzz_good_name(s->morph_names[i]));
    for (uint32_t i = 0; i < s->bone_count && i < 64; i++) {
        PM_FUZZ_CHECK(pm_fuzz_good_name(s->bones[i].name) && pm_fuzz_good_name(s->bones[i].name_en));
        uint32_t found = pm_skeleton_find(s, s->bones[i].name.data);
        PM_FUZZ_CHECK(found != PM_NO_INDEX && strcmp(s->bones[found].name.data, s->bones[i].name.data) == 0);
        (void)pm_skeleton_find_mmd(s, s->bones[i].name.data);
    }
    size_t n1 = 0, n2 = 0, n3 = 0;
    char *j1 = pm_fuzz_skeleton_json(s, &n1);
    pm_skeleton *s2 = NULL, *s3 = NULL;
    PM_FUZZ_CHECK(pm_skeleton_from_json(j1, n1, NULL, &s2, &err) == PM_OK);
    if (s2) {
        PM_FUZZ_CHECK(s2->bone_count == s->bone_count && s2->morph_count == s->morph_count);
        for (uint32_t i = 0; i < s->bone_count && i < s2->bone_count; i++)
            PM_FUZZ_CHECK(s2->bones[i].parent == s->bones[i].parent && s2->bones[i].has_ik == s->bones[i].has_ik);
        char *j2 = pm_fuzz_skeleton_json(s2, &n2);
        /* the key, not a string that holds "bones" (the PMD comment in the source block): inside a JSON
         * string a quote is escaped, so `,"bones":` is only ever the key */
        const char *b1 = strstr(j1, ",\"bones\":"), *b2 = strstr(j2, ",\"bones\":");
        PM_FUZZ_CHECK(b1 && b2 && strcmp(b1, b2) == 0);
        PM_FUZZ_CHECK(pm_skeleton_from_json(j2, n2, NULL, &s3, &err) == PM_OK);
        if (s3) {
            char *j3 = pm_fuzz_skeleton_json(s3, &n3);
            PM_FUZZ_CHECK(n2 == n3 && strcmp(j2, j3) == 0);
            free(j3);
        }
        free(j2);
    }
    pm_skeleton_free(s3);
    pm_skeleton_free(s2);
    free(j1);
}

/* Whether text `which`/`index` kept the same stored bytes in a and b (or in neither). */
static int pm_fuzz_same_raw(const pm_skeleton *a, const pm_skeleton *b, pm_model_text which, uint32_t index) {
    const uint8_t *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    int ka = pm_model_raw_text(a, which, index, &ra, &na, NULL), kb = pm_model_raw_text(b, which, index, &rb, &nb, NULL);
    return ka == kb && na == nb && (!ka || memcmp(ra, rb, na) == 0);
}

/* Write a read skeleton as PMX (bones and morph names only; in the file's own encoding when it was a
 * PMX) and read it back: the same bones, and every text that kept its stored bytes keeps the same. */
static void pm_fuzz_pmx_roundtrip(const pm_skeleton *s) {
    pm_pmx_model model = {.skeleton = s};
    pm_pmx_write_options wo = {s->source.format == PM_MODEL_FORMAT_PMX ? s->source.encoding : 0};
    pm_error err = {0};
    size_t need = 0;
    if (pm_pmx_write(&model, &wo, NULL, 0, &need, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    uint8_t *out = malloc(need);
    size_t got = 0;
    PM_FUZZ_CHECK(pm_pmx_write(&model, &wo, out, need, &got, &err) == PM_OK && got == need);
    pm_skeleton *s2 = NULL;
    PM_FUZZ_CHECK(pm_pmx_read(out, got, NULL, &s2, &err) == PM_OK);
    if (s2) {
        PM_FUZZ_CHECK(s2->bone_count == s->bone_count && s2->morph_count == s->morph_count);
        size_t n1 = 0, n2 = 0;
        char *j1 = pm_fuzz_skeleton_json(s, &n1), *j2 = pm_fuzz_skeleton_json(s2, &n2);
        const char *b1 = strstr(j1, "\"bones\":["), *b2 = strstr(j2, "\"bones\":[");
        PM_FUZZ_CHECK(b1 && b2 && strcmp(b1, b2) == 0);
        if (s->source.format == PM_MODEL_FORMAT_PMX) {
            for (int w = PM_MODEL_TEXT_MODEL_NAME; w <= PM_MODEL_TEXT_COMMENT_EN; w++)
                PM_FUZZ_CHECK(pm_fuzz_same_raw(s, s2, (pm_model_text)w, 0));
            for (uint32_t i = 0; i < s->bone_count && i < s2->bone_count; i++)
                PM_FUZZ_CHECK(pm_fuzz_same_raw(s, s2, PM_MODEL_TEXT_BONE_NAME, i) &&
                              pm_fuzz_same_raw(s, s2, PM_MODEL_TEXT_BONE_NAME_EN, i));
            for (uint32_t i = 0; i < s->morph_count && i < s2->morph_count; i++)
                PM_FUZZ_CHECK(pm_fuzz_same_raw(s, s2, PM_MODEL_TEXT_MORPH_NAME, i));
        }
        free(j1);
        free(j2);
    }
    pm_skeleton_free(s2);
    free(out);
}

/* The rig analysis of any skeleton a reader accepted: a clean error or finite figures and JSON. */
static void pm_fuzz_rig(const pm_skeleton *s) {
    pm_rig *rig = NULL;
    pm_error err = {0};
    if (pm_rig_analyze(s, NULL, &rig, &err) != PM_OK) {
        PM_FUZZ_CHECK(rig == NULL && err.message[0]);
        return;
    }
    for (int l = 0; l < 2; l++) {
        const pm_rig_leg *g = &rig->legs[l];
        const float f[] = {g->reach_min, g->reach_max, g->knee_bend_min, g->knee_bend_max, g->length, g->ankle_height};
        PM_FUZZ_CHECK(pmi_all_finite(f, sizeof f / sizeof f[0]));
    }
    for (uint32_t c = 0; c < rig->chain_count; c++) PM_FUZZ_CHECK(isfinite(rig->chains[c].rest_error));
    PM_FUZZ_CHECK(isfinite(rig->floor_height) && isfinite(rig->scale));
    size_t n = 0;
    PM_FUZZ_CHECK(pm_rig_to_json(rig, NULL, 0, &n, &err) == PM_OK || err.type == PM_ERR_OUT_OF_MEMORY);
    pm_rig_free(rig);
}

static void pm_fuzz_model(const uint8_t *data, size_t size, int pmd) {
    pm_skeleton *s = NULL;
    pm_error err = {0};
    pm_result r = pmd ? pm_pmd_read(data, size, NULL, &s, &err) : pm_pmx_read(data, size, NULL, &s, &err);
    if (r != PM_OK) {
        PM_FUZZ_CHECK(s == NULL && err.type == r && err.message[0]);
        return;
    }
    PM_FUZZ_CHECK(s->bone_count <= size);
    pm_fuzz_check_skeleton(s);
    pm_fuzz_pmx_roundtrip(s);
    pm_fuzz_rig(s);
    pm_skeleton_free(s);
}
static void pm_fuzz_pmx(const uint8_t *data, size_t size) { pm_fuzz_model(data, size, 0); }

/* The whole-model reader: every index it hands out is in range and the skeleton is the skeleton
 * reader's. */
static void pm_fuzz_model_load(const uint8_t *data, size_t size) {
    pm_model *m = NULL;
    pm_error err = {0};
    pm_result r = pm_model_load(data, size, NULL, &m, &err);
    if (r != PM_OK) {
        PM_FUZZ_CHECK(m == NULL && err.type == r && err.message[0]);
        return;
    }
    PM_FUZZ_CHECK(m->vertex_count <= size && m->index_count <= size && m->skeleton);
    for (uint32_t i = 0; i < m->index_count; i++) PM_FUZZ_CHECK(m->indices[i] < m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count; i++)
        for (int k = 0; k < 4; k++)
            PM_FUZZ_CHECK(m->vertices[i].bone[k] == PM_NO_INDEX || m->vertices[i].bone[k] < m->skeleton->bone_count);
    uint64_t drawn = 0;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_model_material *mat = &m->materials[i];
        PM_FUZZ_CHECK(mat->index_start == drawn && mat->index_count % 3 == 0);
        PM_FUZZ_CHECK(mat->texture == PM_NO_INDEX || mat->texture < m->texture_count);
        drawn += mat->index_count;
    }
    PM_FUZZ_CHECK(drawn <= m->index_count);
    for (uint32_t i = 0; i < m->morph_count; i++)
        for (uint32_t k = 0; m->morphs[i].type == PM_MORPH_VERTEX && k < m->morphs[i].offset_count; k++)
            PM_FUZZ_CHECK(m->morphs[i].offsets[k].index < m->vertex_count);
    pm_fuzz_check_skeleton(m->skeleton);
    pm_model_free(m);
}

/* The VRM writer on whatever the model reader accepts: a model without the humanoid bones is refused
 * with a message; anything written is a GLB whose JSON chunk holds no null (cJSON's rendering of a NaN
 * or Inf: none may reach the file). */
static void pm_fuzz_vrm(const uint8_t *data, size_t size) {
    pm_model *m = NULL;
    pm_error err = {0};
    if (pm_model_load(data, size, NULL, &m, &err) != PM_OK) return;
    pm_vrm_result *res = NULL;
    pm_result r = pm_vrm_from_model(m, NULL, &res, &err);
    if (r != PM_OK) {
        PM_FUZZ_CHECK(res == NULL && err.message[0]);
    } else {
        PM_FUZZ_CHECK(res->glb_size >= 28 && memcmp(res->glb, "glTF", 4) == 0);
        uint32_t jl = (uint32_t)res->glb[12] | ((uint32_t)res->glb[13] << 8) | ((uint32_t)res->glb[14] << 16) |
                      ((uint32_t)res->glb[15] << 24);
        PM_FUZZ_CHECK(20 + (size_t)jl <= res->glb_size);
        PM_FUZZ_CHECK(!pm_fuzz_contains(res->glb + 20, jl, "null"));
        PM_FUZZ_CHECK(res->report_json && !pm_fuzz_contains(res->report_json, res->report_json_length, "null"));
        PM_FUZZ_CHECK(res->drivable && res->humanoid_total == 22);
    }
    pm_vrm_result_free(res);
    pm_model_free(m);
}
static void pm_fuzz_pmd(const uint8_t *data, size_t size) { pm_fuzz_model(data, size, 1); }

static void pm_fuzz_skeleton_from_json(const uint8_t *data, size_t size) {
    pm_skeleton *s = NULL;
    pm_error err = {0};
    if (pm_skeleton_from_json((const char *)data, size, NULL, &s, &err) != PM_OK) {
        PM_FUZZ_CHECK(s == NULL && err.message[0]);
        return;
    }
    pm_fuzz_check_skeleton(s);
    pm_skeleton_free(s);
}

/* ---- BVH ------------------------------------------------------------------------------------------ */

static void pm_fuzz_bvh(const uint8_t *data, size_t size) {
    pm_bvh *b = NULL;
    pm_error err = {0};
    if (pm_bvh_read(data, size, NULL, &b, &err) != PM_OK) {
        PM_FUZZ_CHECK(b == NULL && err.message[0]);
        return;
    }
    PM_FUZZ_CHECK(b->joint_count >= 1 && b->frame_time > 0);
    PM_FUZZ_CHECK(pm_fuzz_all_finite(b->motion, (size_t)b->frame_count * b->channel_count));
    int bounded = pm_fuzz_all_bounded(b->motion, (size_t)b->frame_count * b->channel_count);
    for (uint32_t j = 0; j < b->joint_count; j++) {
        const pm_bvh_joint *jt = &b->joints[j];
        PM_FUZZ_CHECK(j == 0 ? jt->parent == PM_NO_INDEX : jt->parent < j);
        PM_FUZZ_CHECK(pm_fuzz_good_name(jt->name));
        PM_FUZZ_CHECK(jt->channel_count <= 6 && jt->first_channel + jt->channel_count <= b->channel_count);
        bounded = bounded && pm_fuzz_all_bounded(&jt->offset.x, 3);
    }
    pm_mat4 *world = malloc(b->joint_count * sizeof *world);
    uint32_t frames[3] = {0, b->frame_count / 2, b->frame_count ? b->frame_count - 1 : 0};
    for (int k = 0; k < 3; k++) {
        PM_FUZZ_CHECK(pm_bvh_world_matrices(b, frames[k], world, &err) == PM_OK);
        if (bounded) PM_FUZZ_CHECK(pm_fuzz_all_finite(world[0].m, 16 * (size_t)b->joint_count));
    }
    const double times[3] = {-1.0, b->frame_time * 0.5, b->frame_time * (b->frame_count + 2.0)};
    for (int k = 0; k < 3; k++) {
        PM_FUZZ_CHECK(pm_bvh_sample(b, times[k], world, &err) == PM_OK);
        if (bounded) PM_FUZZ_CHECK(pm_fuzz_all_finite(world[0].m, 16 * (size_t)b->joint_count));
    }
    PM_FUZZ_CHECK(pm_bvh_find(b, b->joints[0].name.data) == 0);
    free(world);
    pm_bvh_free(b);
}

/* ---- glTF / GLB / VRM ----------------------------------------------------------------------------- */

static void pm_fuzz_gltf(const uint8_t *data, size_t size) {
    pm_gltf *g = NULL;
    pm_error err = {0};
    if (pm_gltf_read(data, size, NULL, &g, &err) != PM_OK) {
        PM_FUZZ_CHECK(g == NULL && err.message[0]);
    } else {
        int bounded = 1;
        for (uint32_t i = 0; i < g->node_count; i++) {
            const pm_gltf_node *n = &g->nodes[i];
            PM_FUZZ_CHECK(n->parent == PM_NO_INDEX || n->parent < g->node_count);
            PM_FUZZ_CHECK(pm_fuzz_good_name(n->name));
            bounded = bounded && pm_fuzz_all_bounded(n->matrix.m, 16) && pm_fuzz_all_bounded(&n->translation.x, 3) &&
                      pm_fuzz_all_bounded(&n->scale.x, 3);
        }
        for (uint32_t i = 0; i < g->node_count; i++) PM_FUZZ_CHECK(g->order[i] < g->node_count);
        for (uint32_t a = 0; a < g->animation_count; a++)
            for (uint32_t c = 0; c < g->animations[a].channel_count; c++) {
                const pm_gltf_channel *ch = &g->animations[a].channels[c];
                size_t nv = (size_t)ch->key_count * ch->components * (ch->interpolation == PM_GLTF_CUBICSPLINE ? 3 : 1);
                PM_FUZZ_CHECK(ch->node < g->node_count && ch->key_count >= 1);
                PM_FUZZ_CHECK(pm_fuzz_all_finite(ch->times, ch->key_count) && pm_fuzz_all_finite(ch->values, nv));
                bounded = bounded && pm_fuzz_all_bounded(ch->values, nv);
            }
        pm_mat4 *world = malloc((g->node_count ? g->node_count : 1) * sizeof *world);
        uint32_t anims = g->animation_count < 3 ? g->animation_count : 3;
        for (uint32_t a = 0; a <= anims; a++) {
            uint32_t anim = a == anims ? PM_NO_INDEX : a;
            float end = anim == PM_NO_INDEX ? 0 : g->animations[anim].duration;
            const float times[4] = {-1.0f, 0.0f, end * 0.37f, end + 1.0f};
            for (int k = 0; k < 4; k++) {
                PM_FUZZ_CHECK(pm_gltf_world_matrices(g, anim, times[k], world, &err) == PM_OK);
                if (bounded) PM_FUZZ_CHECK(pm_fuzz_all_finite(world[0].m, 16 * (size_t)g->node_count));
            }
        }
        free(world);
        pm_gltf_free(g);
    }
    /* the minimal node-name reader of humanoid.h: valid UTF-8 names the humanoid mapper takes (it does not
     * always agree with pm_gltf_read: it needs no asset.version but every node an object, every name a string) */
    pm_name_list *names = NULL;
    if (pm_gltf_node_names(data, size, NULL, &names, &err) == PM_OK) {
        for (uint32_t i = 0; i < names->count; i++)
            PM_FUZZ_CHECK(names->names[i] && pm_fuzz_valid_utf8(names->names[i], strlen(names->names[i])));
        pm_humanoid_map map;
        (void)pm_humanoid_map_names(names->names, names->count, &map, &err);
    } else {
        PM_FUZZ_CHECK(names == NULL);
    }
    pm_name_list_free(names);
}

/* ---- keypoints: JSON, NDJSON, binary frames, and every source through pm_kp_from_data ------------ */

static void pm_fuzz_check_kp(const pm_kp_sequence *seq) {
    uint32_t nan = 0, oor = 0;
    pm_kp_check(seq, &nan, &oor);
    PM_FUZZ_CHECK(nan == 0 && oor == 0);
}

/* Same frames within the codecs' quantisation. */
static void pm_fuzz_kp_same(const pm_kp_sequence *a, const pm_kp_sequence *b, float tol) {
    PM_FUZZ_CHECK(a->frame_count == b->frame_count);
    if (a->frame_count != b->frame_count) return;
    for (size_t i = 0; i < (size_t)a->frame_count * PM_KP_POINT_COUNT * 3; i++)
        PM_FUZZ_CHECK(fabsf(a->points[i] - b->points[i]) <= tol);
    for (size_t i = 0; i < (size_t)a->frame_count * PM_KP_POINT_COUNT; i++)
        PM_FUZZ_CHECK(fabsf(a->visibility[i] - b->visibility[i]) <= 1.0f / 255 + 1e-6f);
    for (uint32_t f = 0; f < a->frame_count; f++) PM_FUZZ_CHECK(fabs(a->timestamp_ms[f] - b->timestamp_ms[f]) <= 1.0);
}

/* Features, then NDJSON and binary out and back in. */
static void pm_fuzz_kp_exercise(const pm_kp_sequence *seq) {
    pm_error err = {0};
    pm_fuzz_check_kp(seq);
    size_t nf = (size_t)seq->frame_count * PM_KP_FEATURE_SIZE;
    float *features = malloc((nf ? nf : 1) * sizeof *features);
    PM_FUZZ_CHECK(pm_kp_features(seq, features, nf, &err) == PM_OK);
    PM_FUZZ_CHECK(pm_fuzz_all_finite(features, nf));
    free(features);
    size_t n = 0;
    if (pm_kp_write_ndjson(seq, NULL, 0, &n, &err) == PM_OK) {
        char *text = malloc(n + 1);
        PM_FUZZ_CHECK(pm_kp_write_ndjson(seq, text, n + 1, &n, &err) == PM_OK);
        pm_kp_sequence *back = NULL;
        PM_FUZZ_CHECK(pm_kp_read_ndjson((const uint8_t *)text, n, NULL, &back, &err) == PM_OK);
        if (back) pm_fuzz_kp_same(seq, back, 1e-6f);
        pm_kp_free(back);
        free(text);
    } else {
        PM_FUZZ_CHECK(err.message[0]);
    }
    if (pm_kp_write_binary(seq, NULL, 0, &n, &err) == PM_OK) {
        uint8_t *bin = malloc(n ? n : 1);
        PM_FUZZ_CHECK(pm_kp_write_binary(seq, bin, n, &n, &err) == PM_OK && n == (size_t)seq->frame_count * PM_KP_FRAME_SIZE);
        pm_kp_sequence *back = NULL;
        if (seq->frame_count) {
            PM_FUZZ_CHECK(pm_kp_read_binary(bin, n, NULL, &back, &err) == PM_OK);
            if (back) pm_fuzz_kp_same(seq, back, 1.0f / 32767 + 1e-6f);
        }
        pm_kp_free(back);
        free(bin);
    } else {
        PM_FUZZ_CHECK(err.message[0]);
    }
}

static void pm_fuzz_kp_format(const uint8_t *data, size_t size, pm_kp_format format) {
    pm_kp_options opts = {.max_frames = 120}; /* more frames only repeat the same work */
    pm_kp_sequence *seq = NULL;
    pm_error err = {0};
    if (pm_kp_from_data(data, size, format, &opts, &seq, &err) != PM_OK) {
        PM_FUZZ_CHECK(seq == NULL && err.message[0]);
        return;
    }
    PM_FUZZ_CHECK(seq->frame_count <= 120);
    pm_fuzz_kp_exercise(seq);
    pm_kp_free(seq);
}

static void pm_fuzz_kp_json(const uint8_t *data, size_t size) { pm_fuzz_kp_format(data, size, PM_KP_FORMAT_JSON); }
static void pm_fuzz_kp_ndjson(const uint8_t *data, size_t size) { pm_fuzz_kp_format(data, size, PM_KP_FORMAT_NDJSON); }
/* Every source the keypoint converter detects (BVH, VMD, glTF/GLB, JSON, NDJSON, binary). */
static void pm_fuzz_kp_auto(const uint8_t *data, size_t size) { pm_fuzz_kp_format(data, size, PM_KP_FORMAT_AUTO); }

static void pm_fuzz_kp_frame(const uint8_t *data, size_t size) {
    pm_kp_frame frame;
    pm_error err = {0};
    if (pm_kp_decode_frame(data, size, &frame, &err) == PM_OK) {
        PM_FUZZ_CHECK(size == PM_KP_FRAME_SIZE);
        PM_FUZZ_CHECK(pm_fuzz_all_finite(frame.points, PM_KP_POINT_COUNT * 3));
        for (int i = 0; i < PM_KP_POINT_COUNT * 3; i++) PM_FUZZ_CHECK(fabsf(frame.points[i]) <= 1.0f);
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) PM_FUZZ_CHECK(frame.visibility[i] >= 0 && frame.visibility[i] <= 1);
    } else {
        PM_FUZZ_CHECK(err.message[0]);
    }
    /* the stream reader takes the same bytes (a multiple of 239) */
    pm_kp_sequence *seq = NULL;
    if (pm_kp_read_binary(data, size, NULL, &seq, &err) == PM_OK) {
        PM_FUZZ_CHECK(seq->frame_count == size / PM_KP_FRAME_SIZE);
        pm_fuzz_kp_exercise(seq);
    } else {
        PM_FUZZ_CHECK(seq == NULL && err.message[0]);
    }
    pm_kp_free(seq);
}

/* ---- Shift-JIS ------------------------------------------------------------------------------------ */

static void pm_fuzz_sjis(const uint8_t *data, size_t size) {
    /* decode: the size query, the whole text, and a cut buffer; always NUL-terminated valid UTF-8 */
    size_t n = pm_sjis_to_utf8(data, size, NULL, 0);
    PM_FUZZ_CHECK(n <= 3 * size);
    char *text = malloc(n + 1);
    PM_FUZZ_CHECK(pm_sjis_to_utf8(data, size, text, n + 1) == n && text[n] == '\0');
    size_t cap = size % 13 + 1;
    char *cut = malloc(cap);
    PM_FUZZ_CHECK(pm_sjis_to_utf8(data, size, cut, cap) == n);
    size_t cl = strlen(cut);
    PM_FUZZ_CHECK(cl < cap && memcmp(cut, text, cl) == 0);
    free(cut);
    /* the decoded text encodes back to bytes that decode to it again (U+FFFD cannot be encoded) */
    int has_nul = memchr(text, 0, n) != NULL;
    if (!has_nul) PM_FUZZ_CHECK(pm_fuzz_valid_utf8(text, n));
    uint8_t *back = malloc(2 * n + 1);
    size_t bl = 0;
    bool truncated = false;
    pm_error err = {0};
    if (pm_utf8_to_sjis(text, n, back, 2 * n + 1, &bl, &truncated, &err) == PM_OK) {
        PM_FUZZ_CHECK(!truncated);
        char *again = malloc(3 * bl + 1);
        size_t n2 = pm_sjis_to_utf8(back, bl, again, 3 * bl + 1);
        PM_FUZZ_CHECK(n2 == n && memcmp(again, text, n) == 0);
        free(again);
    } else {
        PM_FUZZ_CHECK(err.type == PM_ERR_ENCODING && pm_fuzz_contains(text, n, "\xEF\xBF\xBD"));
    }
    free(back);
    free(text);
    /* the input taken as UTF-8: encode into a roomy and a tight buffer; a cut never splits a character */
    uint8_t *enc = malloc(2 * size + 1);
    size_t el = 0;
    if (pm_utf8_to_sjis((const char *)data, size, enc, 2 * size + 1, &el, &truncated, &err) == PM_OK) {
        PM_FUZZ_CHECK(!truncated && el <= 2 * size);
        size_t tight = 0, tcap = el / 2;
        bool cut_short = false;
        uint8_t *short_out = malloc(tcap + 1);
        PM_FUZZ_CHECK(pm_utf8_to_sjis((const char *)data, size, short_out, tcap, &tight, &cut_short, &err) == PM_OK);
        PM_FUZZ_CHECK(tight <= tcap && (tight == el) == !cut_short && memcmp(enc, short_out, tight) == 0);
        free(short_out);
        /* decode(encode(s)) == s except for the three one-way characters (YEN, OVERLINE, MINUS) */
        if (!pm_fuzz_contains(data, size, "\xC2\xA5") && !pm_fuzz_contains(data, size, "\xE2\x80\xBE") &&
            !pm_fuzz_contains(data, size, "\xE2\x88\x92")) {
            char *dec = malloc(3 * el + 1);
            size_t dl = pm_sjis_to_utf8(enc, el, dec, 3 * el + 1);
            PM_FUZZ_CHECK(dl == size && memcmp(dec, data, size) == 0);
            free(dec);
        }
    } else {
        PM_FUZZ_CHECK(err.type == PM_ERR_ENCODING && el == 0);
    }
    free(enc);
}

/* ---- pose evaluation: a fuzzed VMD on the mannequin ------------------------------------------------- */

static const pm_skeleton *pm_fuzz_mannequin(void) {
    static pm_skeleton *mannequin; /* the harness's own state, made once */
    if (!mannequin) {
        pm_error err = {0};
        if (pm_mannequin_skeleton(NULL, &mannequin, &err) != PM_OK) abort();
    }
    return mannequin;
}

static void pm_fuzz_pose(const uint8_t *data, size_t size) {
    pm_vmd *v = NULL;
    pm_error err = {0};
    if (pm_vmd_read(data, size, NULL, &v, &err) != PM_OK) return;
    const pm_skeleton *sk = pm_fuzz_mannequin();
    pm_anim_bind_options bopts = {.normalized_names = (size & 1) != 0};
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_FUZZ_CHECK(pm_anim_bind(sk, v, &bopts, &anim, &err) == PM_OK);
    PM_FUZZ_CHECK(pm_pose_workspace_create(sk, NULL, &ws, &err) == PM_OK);
    PM_FUZZ_CHECK(pm_pose_create(sk, NULL, &pose, &err) == PM_OK);
    if (anim && ws && pose) {
        pm_anim_info info;
        pm_anim_get_info(anim, &info);
        PM_FUZZ_CHECK(info.first_frame <= info.last_frame);
        int bounded = pm_fuzz_vmd_bounded(v);
        const double frames[5] = {-3.0, info.first_frame, 0.5 * info.first_frame + 0.5 * info.last_frame + 0.25,
                                  info.last_frame, info.last_frame + 10.0};
        for (int k = 0; k < 5; k++) {
            pm_pose_options popts = {.flags = k == 2 ? PM_POSE_NO_APPEND : 0, .max_ik_iterations = k == 3 ? 3 : 0};
            pm_result r = pm_pose_evaluate(anim, ws, frames[k], pose, &popts, &err);
            /* keys near the float limit may interpolate beyond it: a clean error, never Inf in the pose */
            PM_FUZZ_CHECK(r == PM_OK || (!bounded && r == PM_ERR_BAD_FORMAT && err.message[0]));
            if (r != PM_OK) PM_FUZZ_CHECK(pm_fuzz_all_finite(&pose->rotation[0].x, 4 * (size_t)pose->bone_count));
            if (bounded) {
                PM_FUZZ_CHECK(pm_fuzz_all_finite(pose->world[0].m, 16 * (size_t)pose->bone_count));
                PM_FUZZ_CHECK(pm_fuzz_all_finite(&pose->final_rotation[0].x, 4 * (size_t)pose->bone_count));
            }
        }
        /* analytic leg IK on the evaluated pose toward a target taken from the motion */
        uint32_t hip = pm_skeleton_find(sk, "左足"), knee = pm_skeleton_find(sk, "左ひざ");
        uint32_t ankle = pm_skeleton_find(sk, "左足首");
        pm_vec3 target = {1, 2, 0};
        if (v->bones.count) target = (pm_vec3){v->bones.position[0], v->bones.position[1], v->bones.position[2]};
        pm_two_bone_ik_result res;
        pm_vec3 forward = {0, 0, 0};
        if (pm_pose_leg_ik(ws, pose, hip, knee, ankle, target, forward, &res, &err) == PM_OK && bounded) {
            PM_FUZZ_CHECK(pm_fuzz_all_finite(&res.mid.x, 3) && pm_fuzz_all_finite(&res.end.x, 3));
            PM_FUZZ_CHECK(pm_fuzz_all_finite(pose->world[0].m, 16 * (size_t)pose->bone_count));
        }
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(v);
}

/* Two-bone IK on 15 floats from the input: finite input gives finite output. */
static void pm_fuzz_ik(const uint8_t *data, size_t size) {
    float f[15] = {0};
    memcpy(f, data, size < sizeof f ? size : sizeof f);
    pm_vec3 p[5];
    for (int i = 0; i < 5; i++) p[i] = (pm_vec3){f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    pm_two_bone_ik_result res;
    pm_error err = {0};
    int finite = pm_fuzz_all_finite(f, 15), bounded = pm_fuzz_all_bounded(f, 15);
    pm_result r = pm_two_bone_ik(p[0], p[1], p[2], p[3], p[4], &res, &err);
    PM_FUZZ_CHECK(finite ? r == PM_OK : r == PM_ERR_INVALID_ARGUMENT);
    if (r == PM_OK && bounded) {
        PM_FUZZ_CHECK(pm_fuzz_all_finite(&res.root_delta.x, 4) && pm_fuzz_all_finite(&res.mid_delta.x, 4));
        PM_FUZZ_CHECK(pm_fuzz_all_finite(&res.mid.x, 3) && pm_fuzz_all_finite(&res.end.x, 3) && isfinite(res.miss));
    }
    r = pm_leg_ik(p[0], p[1], p[2], p[3], p[4], &res, &err);
    if (r == PM_OK && bounded) {
        PM_FUZZ_CHECK(pm_fuzz_all_finite(&res.root_delta.x, 4) && pm_fuzz_all_finite(&res.mid_delta.x, 4));
        PM_FUZZ_CHECK(pm_fuzz_all_finite(&res.end.x, 3));
    }
}

/* ---- catwalk parameters, groove settings, tracing timelines (JSON) --------------------------------- */

/* Every float of a motion a generator made is finite, and the motion writes. */
static void pm_fuzz_check_motion(const pm_vmd *v) {
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->bones.position, 3 * (size_t)v->bones.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->bones.rotation, 4 * (size_t)v->bones.count));
    PM_FUZZ_CHECK(pm_fuzz_all_finite(v->morphs.weight, v->morphs.count));
    size_t n = 0;
    pm_error err = {0};
    pm_result r = pm_vmd_write(v, NULL, 0, &n, &err); /* a name Shift-JIS cannot hold is the writer's error */
    PM_FUZZ_CHECK(r == PM_OK || (r == PM_ERR_ENCODING && err.message[0]));
}

static void pm_fuzz_catwalk_json(const uint8_t *data, size_t size) {
    pm_catwalk_params p;
    pm_error err = {0};
    if (pm_catwalk_params_from_json((const char *)data, size, &p, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    /* the generator is expensive: the fuzzer's corpus mostly varies the parameters, so generate */
    pm_vmd *v = NULL;
    pm_catwalk_info info;
    if (pm_catwalk_generate(&p, NULL, &v, &info, &err) == PM_OK) {
        PM_FUZZ_CHECK(v != NULL && v->bones.count > 0);
        pm_fuzz_check_motion(v);
    } else {
        PM_FUZZ_CHECK(v == NULL && err.message[0]);
    }
    pm_vmd_free(v);
}

static char *pm_fuzz_groove_text(const pm_groove_config *cfg, uint32_t flags, size_t *n) {
    pm_error err = {0};
    PM_FUZZ_CHECK(pm_groove_config_to_json(cfg, flags, NULL, 0, n, &err) == PM_OK);
    char *t = malloc(*n + 1);
    t[0] = '\0';
    PM_FUZZ_CHECK(pm_groove_config_to_json(cfg, flags, t, *n + 1, n, &err) == PM_OK);
    return t;
}

static void pm_fuzz_groove_json(const uint8_t *data, size_t size) {
    pm_groove_config cfg;
    pm_groove_config_reset(&cfg);
    pm_error err = {0};
    if (pm_groove_config_parse((const char *)data, size, &cfg, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    pm_groove_params p1;
    if (pm_groove_config_resolve(&cfg, &p1, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    /* settings -> JSON -> settings -> JSON gives the same text, the "changed only" form too (cJSON writes
     * 15 significant digits when they read back within an epsilon, so the first trip may round a double) */
    for (uint32_t flags = 0; flags <= PM_GROOVE_JSON_CHANGED; flags++) {
        size_t n = 0, n2 = 0;
        char *text = pm_fuzz_groove_text(&cfg, flags, &n);
        pm_groove_config back;
        pm_groove_config_reset(&back);
        PM_FUZZ_CHECK(pm_groove_config_parse(text, n, &back, &err) == PM_OK);
        char *again = pm_fuzz_groove_text(&back, flags, &n2);
        PM_FUZZ_CHECK(n == n2 && strcmp(text, again) == 0);
        free(again);
        free(text);
    }
    pm_groove *g = NULL;
    if (pm_groove_create(pm_fuzz_mannequin(), &cfg, NULL, &g, &err) != PM_OK) {
        PM_FUZZ_CHECK(g == NULL && err.message[0]);
        return;
    }
    const double times[3] = {0, 0.37, 7.9}, bpms[3] = {128, 60, 999};
    for (int k = 0; k < 3; k++) {
        pm_groove_frame f;
        PM_FUZZ_CHECK(pm_groove_offsets(g, NULL, times[k], bpms[k], k == 1 ? PM_GROOVE_OFFSETS_ONLY : 0, &f, &err) == PM_OK);
        PM_FUZZ_CHECK(pm_fuzz_all_finite(&f.joint_offset[0].x, 4 * PM_GROOVE_JOINT_COUNT) && pm_fuzz_all_finite(&f.body_offset.x, 3));
        if (k != 1) PM_FUZZ_CHECK(pm_fuzz_all_finite(f.pose->world[0].m, 16 * (size_t)f.pose->bone_count));
    }
    pm_groove_free(g);
}

static char *pm_fuzz_timeline_text(const pm_timeline *tl, size_t *n) {
    pm_error err = {0};
    PM_FUZZ_CHECK(pm_timeline_to_json(tl, NULL, 0, n, &err) == PM_OK);
    char *t = malloc(*n + 1);
    t[0] = '\0';
    PM_FUZZ_CHECK(pm_timeline_to_json(tl, t, *n + 1, n, &err) == PM_OK);
    return t;
}

static void pm_fuzz_timeline_json(const uint8_t *data, size_t size) {
    const pm_skeleton *sk = pm_fuzz_mannequin();
    pm_timeline *tl = NULL;
    pm_error err = {0};
    if (pm_timeline_from_json((const char *)data, size, sk, NULL, &tl, &err) != PM_OK) {
        PM_FUZZ_CHECK(tl == NULL && err.message[0]);
        return;
    }
    /* JSON -> timeline -> JSON -> timeline -> JSON: the same text the second time */
    size_t n1 = 0, n2 = 0;
    char *j1 = pm_fuzz_timeline_text(tl, &n1);
    PM_FUZZ_CHECK(pm_fuzz_valid_utf8(j1, n1)); /* names from the JSON (also bones the skeleton lacks) */
    pm_timeline *t2 = NULL;
    PM_FUZZ_CHECK(pm_timeline_from_json(j1, n1, sk, NULL, &t2, &err) == PM_OK);
    if (t2) {
        char *j2 = pm_fuzz_timeline_text(t2, &n2);
        PM_FUZZ_CHECK(n1 == n2 && strcmp(j1, j2) == 0);
        free(j2);
    }
    pm_timeline_free(t2);
    free(j1);
    pm_pose *pose = NULL;
    if (pm_pose_create(sk, NULL, &pose, &err) == PM_OK) {
        const double beats[4] = {-1, 0.5, 3.25, 1e6};
        for (int k = 0; k < 4; k++) {
            PM_FUZZ_CHECK(pm_timeline_evaluate_beat(tl, beats[k], pose, &err) == PM_OK);
            PM_FUZZ_CHECK(pm_fuzz_all_finite(pose->world[0].m, 16 * (size_t)pose->bone_count));
            PM_FUZZ_CHECK(pm_fuzz_all_finite(&pose->rotation[0].x, 4 * (size_t)pose->bone_count));
        }
        pm_pose_free(pose);
    }
    pm_vmd *v = NULL;
    if (pm_timeline_bake(tl, NULL, &v, &err) == PM_OK) pm_fuzz_check_motion(v);
    else PM_FUZZ_CHECK(v == NULL && err.message[0]);
    pm_vmd_free(v);
    pm_timeline_free(tl);
}

/* ---- JSON: the syntax check that tells an allocation failure from bad JSON -------------------------- */

/* pmi_json_syntax_ok may be stricter than cJSON, never more lenient: whatever it accepts, cJSON parses
 * (otherwise a syntax error would be reported as running out of memory). */
static void pm_fuzz_json(const uint8_t *data, size_t size) {
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    if (pmi_json_syntax_ok((const char *)data, size)) PM_FUZZ_CHECK(root != NULL);
    pm_result why;
    cJSON *again = pmi_json_parse((const char *)data, size, &why);
    PM_FUZZ_CHECK((again != NULL) == (root != NULL) && (again ? why == PM_OK : why != PM_OK));
    cJSON_Delete(again);
    cJSON_Delete(root);
}

/* ---- WAV, and the beat tracker on what it read -------------------------------------------------------- */

/* A file the reader accepts holds finite samples, writes back (same encoding) to a file that reads to the
 * same values (exactly for 8/16/24-bit PCM and float32), and the beat tracker takes it without NaN out. */
static void pm_fuzz_wav(const uint8_t *data, size_t size) {
    pm_audio *a = NULL;
    pm_error err = {0};
    pm_wav_options o = {.max_samples = 1u << 20};
    if (pm_wav_read(data, size, &o, &a, &err) != PM_OK) {
        PM_FUZZ_CHECK(a == NULL && err.message[0]);
        return;
    }
    size_t count = (size_t)(a->frame_count * a->channels);
    PM_FUZZ_CHECK(pm_fuzz_all_finite(a->samples, count));
    size_t n = 0;
    if (pm_wav_write(a->samples, a->frame_count, a->channels, a->sample_rate, a->encoding, NULL, 0, &n, &err) == PM_OK) {
        uint8_t *out = malloc(n);
        PM_FUZZ_CHECK(out && pm_wav_write(a->samples, a->frame_count, a->channels, a->sample_rate, a->encoding, out, n, &n, &err) == PM_OK);
        pm_audio *b = NULL;
        PM_FUZZ_CHECK(pm_wav_read(out, n, &o, &b, &err) == PM_OK && b->frame_count == a->frame_count);
        bool exact = a->encoding != PM_WAV_PCM_S32 && a->encoding != PM_WAV_FLOAT64;
        if (b && exact) PM_FUZZ_CHECK(count == 0 || memcmp(a->samples, b->samples, count * sizeof(float)) == 0);
        pm_audio_free(b);
        free(out);
    }
    if (a->sample_rate >= 8000 && a->sample_rate <= 96000 && a->channels <= PM_BEATS_MAX_CHANNELS) {
        pm_beats *bt = NULL;
        if (pm_beats_detect(a->samples, a->frame_count, a->channels, a->sample_rate, NULL, &bt, &err) == PM_OK) {
            PM_FUZZ_CHECK(isfinite(bt->bpm) && isfinite(bt->confidence) && pm_fuzz_all_finite(bt->onset_envelope, bt->onset_count));
            for (uint32_t i = 0; i < bt->beat_count; i++) PM_FUZZ_CHECK(isfinite(bt->beats[i]) && (i == 0 || bt->beats[i] > bt->beats[i - 1]));
        } else {
            PM_FUZZ_CHECK(bt == NULL && err.message[0]);
        }
        pm_beats_free(bt);
    }
    pm_audio_free(a);
}

/* ---- the table ------------------------------------------------------------------------------------- */

typedef struct pm_fuzz_target {
    const char *name;
    void (*fn)(const uint8_t *data, size_t size);
} pm_fuzz_target;

/* Lifelike settings: what reads back writes the same, and the layer on the mannequin (aperiodic and
 * periodic) gives finite rotations and a blink weight within [0, 1] at any time. */
static void pm_fuzz_lifelike_json(const uint8_t *data, size_t size) {
    pm_lifelike_settings s;
    pm_error err = {0};
    if (pm_lifelike_settings_from_json((const char *)data, size, &s, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    size_t n = 0;
    PM_FUZZ_CHECK(pm_lifelike_settings_to_json(&s, NULL, 0, &n, &err) == PM_OK);
    char *text = malloc(n + 1);
    PM_FUZZ_CHECK(text && pm_lifelike_settings_to_json(&s, text, n + 1, &n, &err) == PM_OK);
    pm_lifelike_settings back;
    PM_FUZZ_CHECK(pm_lifelike_settings_from_json(text, n, &back, &err) == PM_OK);
    free(text);
    pm_target_model m = {0};
    m.skeleton = pm_fuzz_mannequin();
    static const double times[] = {0, 1.5, 1e4, -3, 0.25, 1e9};
    for (int period = 0; period < 2; period++) {
        pm_lifelike_options o = {0};
        o.period = period ? 7.3 : 0;
        pm_lifelike *l = NULL;
        PM_FUZZ_CHECK(pm_lifelike_create(&m, &s, &o, &l, &err) == PM_OK);
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            pm_lifelike_frame f;
            pm_lifelike_sample(l, times[k], &f);
            PM_FUZZ_CHECK(f.blink >= 0 && f.blink <= 1);
            for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++)
                PM_FUZZ_CHECK(isfinite(f.rotation[c].x) && isfinite(f.rotation[c].y) && isfinite(f.rotation[c].z) && isfinite(f.rotation[c].w));
        }
        pm_lifelike_free(l);
    }
}

/* Idle parameters: a loop on the mannequin, finite and writable, or a message. */
static void pm_fuzz_idle_json(const uint8_t *data, size_t size) {
    pm_idle_params p;
    pm_error err = {0};
    if (pm_idle_params_from_json((const char *)data, size, &p, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    pm_vmd *v = NULL;
    if (pm_idle_generate(&p, NULL, &v, NULL, &err) == PM_OK) {
        PM_FUZZ_CHECK(v != NULL && v->bones.count > 0);
        pm_fuzz_check_motion(v);
    } else {
        PM_FUZZ_CHECK(v == NULL && err.message[0]);
    }
    pm_vmd_free(v);
}

/* Dance parameters: a loop on the mannequin, finite and writable, or a message. */
static void pm_fuzz_dance_json(const uint8_t *data, size_t size) {
    pm_dance_params p;
    pm_error err = {0};
    if (pm_dance_params_from_json((const char *)data, size, &p, &err) != PM_OK) {
        PM_FUZZ_CHECK(err.message[0]);
        return;
    }
    pm_vmd *v = NULL;
    if (pm_dance_generate(&p, NULL, &v, NULL, &err) == PM_OK) {
        PM_FUZZ_CHECK(v != NULL && v->bones.count > 0);
        pm_fuzz_check_motion(v);
    } else {
        PM_FUZZ_CHECK(v == NULL && err.message[0]);
    }
    pm_vmd_free(v);
}

/* A binary FBX: models with parents in range, curves with sorted times and finite values, world matrices
 * finite wherever the values are bounded; or a message. */
static void pm_fuzz_fbx(const uint8_t *data, size_t size) {
    pm_fbx *f = NULL;
    pm_error err = {0};
    if (pm_fbx_read(data, size, NULL, &f, &err) != PM_OK) {
        PM_FUZZ_CHECK(f == NULL && err.message[0]);
        return;
    }
    int bounded = 1;
    for (uint32_t i = 0; i < f->model_count; i++) {
        const pm_fbx_model *m = &f->models[i];
        PM_FUZZ_CHECK(m->parent == PM_NO_INDEX || m->parent < f->model_count);
        PM_FUZZ_CHECK(f->order[i] < f->model_count && m->rotation_order <= 5);
        PM_FUZZ_CHECK(pm_fuzz_good_name(m->name) && pm_fuzz_good_name(m->type));
        const pm_vec3 *v[9] = {&m->trs[0], &m->trs[1], &m->trs[2], &m->pre_rotation, &m->post_rotation,
                               &m->rotation_offset, &m->rotation_pivot, &m->scaling_offset, &m->scaling_pivot};
        for (int k = 0; k < 9; k++) bounded = bounded && pm_fuzz_all_bounded(&v[k]->x, 1) && pm_fuzz_all_bounded(&v[k]->y, 1) &&
                                                pm_fuzz_all_bounded(&v[k]->z, 1);
    }
    for (uint32_t s = 0; s < f->stack_count; s++) {
        const pm_fbx_stack *st = &f->stacks[s];
        PM_FUZZ_CHECK(pm_fuzz_good_name(st->name) && st->curve_count > 0 && isfinite(st->duration) && st->duration >= 0);
        PM_FUZZ_CHECK(st->model_curves[f->model_count] == st->curve_count);
        for (uint32_t c = 0; c < st->curve_count; c++) {
            const pm_fbx_curve *cv = &st->curves[c];
            PM_FUZZ_CHECK(cv->model < f->model_count && cv->axis < 3 && cv->key_count >= 1);
            PM_FUZZ_CHECK(c >= st->model_curves[cv->model] && c < st->model_curves[cv->model + 1]);
            for (uint32_t k = 0; k < cv->key_count; k++) {
                PM_FUZZ_CHECK(isfinite(cv->times[k]) && isfinite(cv->values[k]) && (k == 0 || cv->times[k] >= cv->times[k - 1]));
                bounded = bounded && pm_fuzz_all_bounded(&cv->values[k], 1);
            }
        }
    }
    pm_mat4 *world = malloc((f->model_count ? f->model_count : 1) * sizeof *world);
    const uint32_t stacks = f->stack_count < 3 ? f->stack_count : 3;
    for (uint32_t s = 0; s <= stacks; s++) {
        const uint32_t stack = s == stacks ? PM_NO_INDEX : s;
        const double end = stack == PM_NO_INDEX ? 0 : f->stacks[stack].duration, times[4] = {-1, 0, end * 0.37, end + 1};
        for (int k = 0; k < 4; k++) {
            PM_FUZZ_CHECK(pm_fbx_world_matrices(f, stack, times[k], world, &err) == PM_OK);
            if (bounded) PM_FUZZ_CHECK(pm_fuzz_all_finite(world[0].m, 16 * (size_t)f->model_count));
        }
    }
    free(world);
    pm_fbx_free(f);
}

/* A motion file retargeted to the mannequin (at most 300 frames): a VMD whose every float is finite, feet
 * measured, or a message. */
static void pm_fuzz_retarget(const uint8_t *data, size_t size) {
    pm_humanoid_motion *m = NULL;
    pm_error err = {0};
    if (pm_humanoid_motion_read(data, size, NULL, &m, &err) != PM_OK) {
        PM_FUZZ_CHECK(m == NULL && err.message[0]);
        return;
    }
    pm_retarget_options o = {0};
    o.max_frames = 300;
    pm_vmd *v = NULL;
    pm_retarget_report rep;
    if (pm_retarget(m, NULL, &o, &v, &rep, &err) == PM_OK) {
        PM_FUZZ_CHECK(v != NULL && rep.frames <= 300 && isfinite(rep.scale) && rep.scale > 0);
        pm_fuzz_check_motion(v);
    } else {
        PM_FUZZ_CHECK(v == NULL && err.message[0]);
    }
    pm_vmd_free(v);
    pm_humanoid_motion_free(m);
}

/* Keypoint input (JSON, NDJSON, binary frames, any motion) read twice, halves scored against each other
 * and the whole streamed: a score in 0..100 and a path in range, or a message. */
static void pm_fuzz_score(const uint8_t *data, size_t size) {
    pm_kp_options o = {0};
    o.max_frames = 2000;
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    if (pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, &o, &s, &err) != PM_OK) {
        PM_FUZZ_CHECK(s == NULL && err.message[0]);
        return;
    }
    const uint32_t half = s->frame_count / 2;
    pm_kp_sequence a = *s, b = *s;
    a.frame_count = half ? half : s->frame_count;
    b.frame_count = s->frame_count - half, b.timestamp_ms += half, b.points += (size_t)half * 99, b.visibility += (size_t)half * 33;
    b.angles += (size_t)half * 10;
    for (int mirrored = 0; mirrored < 2; mirrored++) {
        pm_score_options so = {0};
        so.mirrored = mirrored;
        pm_score_result *r = NULL;
        if (pm_score_dance(&a, &b, &so, &r, &err) == PM_OK) {
            PM_FUZZ_CHECK(r && r->score >= 0 && r->score <= 100 && isfinite(r->offset_seconds) && r->frame_count == a.frame_count);
            for (uint32_t k = 0; k < r->path_length; k++) PM_FUZZ_CHECK(r->path[2 * k] < r->frame_count);
            for (uint32_t i = 0; i < r->frame_count; i++) PM_FUZZ_CHECK(r->per_frame[i] >= 0 && r->per_frame[i] <= 100);
            for (int p = 0; p < PM_SCORE_PART_COUNT; p++) PM_FUZZ_CHECK(isfinite(r->part_score[p]) && isfinite(r->part_lag[p]));
        } else {
            PM_FUZZ_CHECK(r == NULL && err.message[0]);
        }
        pm_score_result_free(r);
    }
    pm_score_stream *live = NULL;
    if (pm_score_stream_new(&a, NULL, &live, &err) == PM_OK) {
        pm_score_now now;
        for (uint32_t f = 0; f < b.frame_count && f < 200; f++)
            if (pm_score_stream_push(live, b.points + (size_t)f * 99, b.visibility + (size_t)f * 33, &now, &err) == PM_OK)
                PM_FUZZ_CHECK(now.score >= 0 && now.score <= 100 && now.reference_frame < a.frame_count);
        pm_score_stream_free(live);
    }
    pm_kp_free(s);
}

static const pm_fuzz_target pm_fuzz_targets[] = {
    {"vmd", pm_fuzz_vmd},
    {"pmx", pm_fuzz_pmx},
    {"pmd", pm_fuzz_pmd},
    {"model", pm_fuzz_model_load},
    {"vrm", pm_fuzz_vrm},
    {"skeleton_json", pm_fuzz_skeleton_from_json},
    {"bvh", pm_fuzz_bvh},
    {"gltf", pm_fuzz_gltf},
    {"fbx", pm_fuzz_fbx},
    {"kp_json", pm_fuzz_kp_json},
    {"kp_ndjson", pm_fuzz_kp_ndjson},
    {"kp_frame", pm_fuzz_kp_frame},
    {"kp_auto", pm_fuzz_kp_auto},
    {"sjis", pm_fuzz_sjis},
    {"pose", pm_fuzz_pose},
    {"ik", pm_fuzz_ik},
    {"json", pm_fuzz_json},
    {"catwalk_json", pm_fuzz_catwalk_json},
    {"groove_json", pm_fuzz_groove_json},
    {"timeline_json", pm_fuzz_timeline_json},
    {"lifelike_json", pm_fuzz_lifelike_json},
    {"idle_json", pm_fuzz_idle_json},
    {"dance_json", pm_fuzz_dance_json},
    {"retarget", pm_fuzz_retarget},
    {"score", pm_fuzz_score},
    {"wav", pm_fuzz_wav},
};
#define PM_FUZZ_TARGET_COUNT (sizeof pm_fuzz_targets / sizeof pm_fuzz_targets[0])

#endif
