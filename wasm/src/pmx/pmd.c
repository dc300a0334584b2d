/* PMD reader (bones converted the way babylon-mmd's PmdReader does) and pm_model_read (see pmx.h). */
#include "procmotion/pmx.h"
#include "procmotion/text.h"

#include "pmx/pmx_internal.h"
#include "skeleton/build.h"
#include "math/inline.h"

#include <math.h>

typedef struct pmd_rd {
    pmi_model_reader m;
} pmd_rd;

#define TRY PMI_TRY
#define fail(r, ...) pmi_mr_fail(&(r)->m, __VA_ARGS__)
#define enter(r, ...) pmi_mr_enter(&(r)->m, __VA_ARGS__)
#define take(r, ...) pmi_mr_take(&(r)->m, __VA_ARGS__)

/* A count of `bytes` (1, 2 or 4) bytes whose records take at least min_record bytes. */
static pm_result get_count(pmd_rd *r, int bytes, size_t min_record, uint32_t *out, const char *what) {
    const uint8_t *p;
    TRY(take(r, (size_t)bytes, &p, what));
    *out = bytes == 1 ? p[0] : bytes == 2 ? pmi_le16(p) : pmi_le32(p);
    return pmi_mr_check_count(&r->m, *out, min_record, what);
}

/* A fixed Shift-JIS field into the skeleton (model false) or a model string (pm_model_load). A skeleton
 * name whose bytes are not CP932 (U+FFFD in its text: Shift-JIS has no U+FFFD) keeps its whole field
 * (pm_model_raw_text). */
static pm_result decode_to(pmd_rd *r, const uint8_t *field, size_t size, pm_string *dst, bool model) {
    size_t n = pm_sjis_field_length(field, size);
    size_t len = pm_sjis_to_utf8(field, n, NULL, 0);
    char *buf;
    TRY(model ? pmi_model_string_buffer(&r->m, dst, len, &buf) : pmi_skeleton_string_buffer(r->m.s, dst, len, &buf, r->m.err));
    pm_sjis_to_utf8(field, n, buf, len + 1);
    for (size_t i = 0; i + 2 < len && !model; i++)
        if ((uint8_t)buf[i] == 0xEF && (uint8_t)buf[i + 1] == 0xBF && (uint8_t)buf[i + 2] == 0xBD)
            return pmi_skeleton_keep_raw(r->m.s, dst, 2, field, size, r->m.err);
    return PM_OK;
}
#define decode(r, field, size, dst) decode_to((r), (field), (size), (dst), false)
#define decode_model(r, field, size, dst) decode_to((r), (field), (size), (dst), true)

/* Where the display lists are in the file (pm_model_load turns them into display frames). */
typedef struct pmd_lists {
    uint32_t morph_count, name_count, bone_count;
    const uint8_t *morphs, *names, *bones;
    const uint8_t *english; /* English morph names, then display names (NULL: none) */
} pmd_lists;

typedef struct pmd_ik {
    uint16_t bone, target, iterations;
    uint8_t link_count;
    float limit;
    const uint8_t *links; /* link_count u16 values in the file */
} pmd_ik;

static const char knee_left[] = "\xe5\xb7\xa6\xe3\x81\xb2\xe3\x81\x96";  /* 左ひざ */
static const char knee_right[] = "\xe5\x8f\xb3\xe3\x81\xb2\xe3\x81\x96"; /* 右ひざ */

static bool is_knee(const pm_string *name) {
    return (name->length == sizeof knee_left - 1 && memcmp(name->data, knee_left, name->length) == 0) ||
           (name->length == sizeof knee_right - 1 && memcmp(name->data, knee_right, name->length) == 0);
}

/* ---- pm_model_load's part (the skeleton reader walks the same bytes) ---------------------------- */

/* PMD morph `i` (after the base) as a vertex morph on the base's vertices. */
static pm_result pmd_vertex_morph(pmd_rd *r, uint32_t i, uint8_t category, const uint8_t *base, const uint8_t *offs,
                                  uint32_t n) {
    pm_model_morph *mm = &r->m.model->morphs[i];
    mm->name = r->m.s->morph_names[i];
    mm->panel = category;
    mm->type = PM_MORPH_VERTEX;
    mm->offset_count = n;
    if (!(mm->offsets = pmi_model_array(&r->m, n, sizeof *mm->offsets, "pmd morph offsets"))) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *o = offs + 16 * (size_t)k;
        mm->offsets[k].index = pmi_le32(base + 16 * (size_t)pmi_le32(o)); /* checked < base count */
        pmi_le32s(mm->offsets[k].value, o + 4, 3);
    }
    return PM_OK;
}

/* ASCII case-insensitive equality of a pm_string and a C string. */
static bool same_path(const pm_string *a, const char *b, size_t blen) {
    if (a->length != blen) return false;
    for (size_t i = 0; i < blen; i++) {
        char x = a->data[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (char)(y + 32);
        if (x != y) return false;
    }
    return true;
}

/* The index of `path` in the model's texture table, adding it when new (the table has room for every
 * material's two paths and the ten toons). */
static pm_result texture_index(pmd_rd *r, const char *path, size_t len, uint32_t *out) {
    pm_model *m = r->m.model;
    *out = PM_NO_INDEX;
    if (!len) return PM_OK;
    for (uint32_t t = 0; t < m->texture_count; t++)
        if (same_path(&m->textures[t], path, len)) {
            *out = t;
            return PM_OK;
        }
    PMI_TRY(pmi_model_string(&r->m, &m->textures[m->texture_count], path, len));
    *out = m->texture_count++;
    return PM_OK;
}

/* "toon01.bmp" .. "toon10.bmp" (any folder, any case): the shared toon 0..9, else -1. */
static int default_toon(const pm_string *name) {
    const char *s = name->data;
    size_t n = name->length;
    if (n < 10) return -1;
    const char *t = s + n - 10;
    static const char pat[] = "toon";
    for (int i = 0; i < 4; i++)
        if ((t[i] | 32) != pat[i]) return -1;
    if (t[4] < '0' || t[4] > '9' || t[5] < '0' || t[5] > '9') return -1;
    if (t[6] != '.' || (t[7] | 32) != 'b' || (t[8] | 32) != 'm' || (t[9] | 32) != 'p') return -1;
    int k = (t[4] - '0') * 10 + (t[5] - '0');
    if (n > 10 && s[n - 11] != '/' && s[n - 11] != '\\') return -1;
    return k >= 1 && k <= 10 ? k - 1 : -1;
}

static pm_result pmd_materials(pmd_rd *r, uint32_t nm, const uint8_t *data, const pm_string toons[10]) {
    pm_model *m = r->m.model;
    if (!(m->materials = pmi_model_array(&r->m, nm, sizeof *m->materials, "pmd materials")) ||
        !(m->textures = pmi_model_array(&r->m, 2u * (size_t)nm + 10, sizeof *m->textures, "pmd textures")))
        return PM_ERR_OUT_OF_MEMORY;
    m->material_count = nm;
    uint32_t start = 0;
    for (uint32_t i = 0; i < nm; i++) {
        const uint8_t *d = data + 70 * (size_t)i;
        pm_model_material *mat = &m->materials[i];
        pmi_le32s(mat->diffuse, d, 4);
        mat->specular_power = pmi_lef32(d + 16);
        pmi_le32s(mat->specular, d + 20, 3);
        pmi_le32s(mat->ambient, d + 32, 3);
        mat->edge_color[3] = 1.0f;
        mat->edge_size = 1.0f;
        if (d[45]) mat->flags |= PM_PMX_MATERIAL_EDGE | PM_PMX_MATERIAL_GROUND_SHADOW;
        if (mat->diffuse[3] != 0.98f) mat->flags |= PM_PMX_MATERIAL_CAST_SHADOW | PM_PMX_MATERIAL_RECEIVE_SHADOW;
        if (mat->diffuse[3] < 1.0f) mat->flags |= PM_PMX_MATERIAL_DOUBLE_SIDED;
        mat->index_start = start;
        mat->index_count = pmi_le32(d + 46);
        start += mat->index_count;
        /* "tex.bmp*sphere.sph": the name is the whole field, as babylon-mmd names it */
        PMI_TRY(decode_model(r, d + 50, 20, &mat->name));
        mat->texture = mat->sphere_texture = mat->toon = PM_NO_INDEX;
        const char *p = mat->name.data, *end = p + mat->name.length;
        while (p <= end) {
            const char *star = p;
            while (star < end && *star != '*') star++;
            size_t len = (size_t)(star - p);
            const char *dot = NULL;
            for (const char *q = p; q < star; q++)
                if (*q == '.') dot = q;
            bool sph = dot && star - dot == 4 && (dot[1] | 32) == 's' && (dot[2] | 32) == 'p' && (dot[3] | 32) == 'h';
            bool spa = dot && star - dot == 4 && (dot[1] | 32) == 's' && (dot[2] | 32) == 'p' && (dot[3] | 32) == 'a';
            if (len && (sph || spa)) {
                PMI_TRY(texture_index(r, p, len, &mat->sphere_texture));
                mat->sphere_mode = sph ? 1 : 2;
            } else if (len) PMI_TRY(texture_index(r, p, len, &mat->texture));
            p = star + 1;
        }
        int8_t toon = (int8_t)d[44];
        if (toon >= 0 && toon < 10) {
            int shared = default_toon(&toons[toon]);
            if (shared >= 0) {
                mat->shared_toon = true;
                mat->toon = (uint32_t)shared;
            } else PMI_TRY(texture_index(r, toons[toon].data, toons[toon].length, &mat->toon));
        }
    }
    return PM_OK;
}

static pm_result pmd_display_frames(pmd_rd *r, uint32_t nmorph, const pmd_lists *l) {
    pm_model *m = r->m.model;
    uint32_t nb = r->m.s->bone_count;
    uint32_t n = 2 + l->name_count;
    if (!(m->display_frames = pmi_model_array(&r->m, n, sizeof *m->display_frames, "pmd display frames")))
        return PM_ERR_OUT_OF_MEMORY;
    m->display_frame_count = n;
    pm_model_display_frame *root = &m->display_frames[0], *face = &m->display_frames[1];
    PMI_TRY(pmi_model_string(&r->m, &root->name, "Root", 4));
    PMI_TRY(pmi_model_string(&r->m, &root->name_en, "Root", 4));
    PMI_TRY(pmi_model_string(&r->m, &face->name, "\xe8\xa1\xa8\xe6\x83\x85", 6)); /* 表情 */
    PMI_TRY(pmi_model_string(&r->m, &face->name_en, "Exp", 3));
    root->special = face->special = true;
    if (nb) {
        if (!(root->items = pmi_model_array(&r->m, 1, sizeof *root->items, "pmd display items")))
            return PM_ERR_OUT_OF_MEMORY;
        root->item_count = 1;
    }
    if (!(face->items = pmi_model_array(&r->m, l->morph_count, sizeof *face->items, "pmd display items")))
        return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < l->morph_count; k++) { /* indices count the base morph: 1 = the first real one */
        uint32_t idx = pmi_le16(l->morphs + 2 * k);
        if (idx == 0 || idx > nmorph) continue;
        face->items[face->item_count].is_morph = 1;
        face->items[face->item_count++].index = idx - 1;
    }
    uint32_t *counts = pmi_model_array(&r->m, l->name_count ? l->name_count : 1, sizeof *counts, "pmd display items");
    if (!counts) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < l->bone_count; k++) {
        const uint8_t *b = l->bones + 3 * (size_t)k;
        if (pmi_le16(b) < nb && b[2] >= 1 && b[2] <= l->name_count) counts[b[2] - 1]++;
    }
    for (uint32_t f = 0; f < l->name_count; f++) {
        pm_model_display_frame *df = &m->display_frames[2 + f];
        PMI_TRY(decode_model(r, l->names + 50 * (size_t)f, 50, &df->name));
        if (l->english) PMI_TRY(decode_model(r, l->english + 20 * (size_t)nmorph + 50 * (size_t)f, 50, &df->name_en));
        if (!(df->items = pmi_model_array(&r->m, counts[f], sizeof *df->items, "pmd display items")))
            return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < l->bone_count; k++) { /* bones that are out of range are dropped, as babylon-mmd does */
        const uint8_t *b = l->bones + 3 * (size_t)k;
        if (pmi_le16(b) >= nb || b[2] < 1 || b[2] > l->name_count) continue;
        pm_model_display_frame *df = &m->display_frames[2 + b[2] - 1];
        df->items[df->item_count++].index = pmi_le16(b);
    }
    return PM_OK;
}

static pm_result pmd_physics(pmd_rd *r) {
    pm_model *m = r->m.model;
    const pm_skeleton *s = r->m.s;
    const uint8_t *p;
    uint32_t n;
    enter(r, "rigid bodies", UINT32_MAX, 0);
    if (!pmi_left(&r->m.c)) return PM_OK;
    PMI_TRY(get_count(r, 4, 83, &n, "rigid body count"));
    if (!(m->rigid_bodies = pmi_model_array(&r->m, n, sizeof *m->rigid_bodies, "pmd rigid bodies")))
        return PM_ERR_OUT_OF_MEMORY;
    m->rigid_body_count = n;
    for (uint32_t i = 0; i < n; i++) {
        enter(r, "rigid body", i, n);
        PMI_TRY(take(r, 83, &p, "rigid body"));
        pm_model_rigid_body *b = &m->rigid_bodies[i];
        PMI_TRY(decode_model(r, p, 20, &b->name));
        uint16_t bone = pmi_le16(p + 20);
        b->bone = bone == 0xFFFF ? PM_NO_INDEX : bone;
        PMI_TRY(pmi_mr_check_index(&r->m, b->bone, s->bone_count, "bone index", "bones"));
        b->group = p[22];
        b->no_collision_mask = pmi_le16(p + 23);
        b->shape = p[25];
        PMI_TRY(pmi_mr_check_max(&r->m, b->shape, 2, "shape", PMI_SHAPES));
        pmi_le32s(&b->size, p + 26, 14); /* size .. friction */
        pm_vec3 at = s->bone_count ? s->bones[b->bone == PM_NO_INDEX ? 0 : b->bone].position : pmi_vec3_make(0, 0, 0);
        b->position = pmi_vec3_add(b->position, at); /* PMD: relative to the bone */
        b->mode = p[82];
        PMI_TRY(pmi_mr_check_max(&r->m, b->mode, 2, "physics mode", "0..2"));
    }
    enter(r, "joints", UINT32_MAX, 0);
    if (!pmi_left(&r->m.c)) return PM_OK;
    PMI_TRY(get_count(r, 4, 124, &n, "joint count"));
    if (!(m->joints = pmi_model_array(&r->m, n, sizeof *m->joints, "pmd joints"))) return PM_ERR_OUT_OF_MEMORY;
    m->joint_count = n;
    for (uint32_t i = 0; i < n; i++) {
        enter(r, "joint", i, n);
        PMI_TRY(take(r, 124, &p, "joint"));
        pm_model_joint *j = &m->joints[i];
        PMI_TRY(decode_model(r, p, 20, &j->name));
        uint32_t a = pmi_le32(p + 20), b = pmi_le32(p + 24);
        if (a >= m->rigid_body_count || b >= m->rigid_body_count)
            return fail(r, PM_ERR_BAD_FORMAT, "rigid bodies %u and %u: out of range (%u rigid bodies)", a, b,
                        m->rigid_body_count);
        j->body_a = a;
        j->body_b = b;
        pmi_le32s(&j->position, p + 28, 24); /* position .. spring_rotation */
    }
    return PM_OK;
}

/* After the English names: toon file names, then materials, display frames and physics. */
static pm_result pmd_model_rest(pmd_rd *r, uint32_t nm, const uint8_t *material_data, uint32_t nmorph,
                                const pmd_lists *l) {
    pm_model *m = r->m.model;
    pm_string toons[10];
    const uint8_t *p;
    for (int t = 0; t < 10; t++) { /* files without the section use the default names */
        static const char *const defaults[10] = {"toon01.bmp", "toon02.bmp", "toon03.bmp", "toon04.bmp", "toon05.bmp",
                                                 "toon06.bmp", "toon07.bmp", "toon08.bmp", "toon09.bmp", "toon10.bmp"};
        toons[t].data = defaults[t];
        toons[t].length = 10;
    }
    enter(r, "toon textures", UINT32_MAX, 0);
    if (pmi_left(&r->m.c)) {
        PMI_TRY(take(r, 1000, &p, "toon texture names"));
        for (int t = 0; t < 10; t++) PMI_TRY(decode_model(r, p + 100 * t, 100, &toons[t]));
    }
    enter(r, "materials", UINT32_MAX, 0);
    PMI_TRY(pmd_materials(r, nm, material_data, toons));
    if (l->english)
        for (uint32_t i = 0; i < nmorph; i++)
            PMI_TRY(decode_model(r, l->english + 20 * (size_t)i, 20, &m->morphs[i].name_en));
    PMI_TRY(pmd_display_frames(r, nmorph, l));
    return pmd_physics(r);
}

static pm_result read_pmd(pmd_rd *r, const pm_model_read_options *o) {
    const uint8_t *p, *header;
    enter(r, "header", UINT32_MAX, 0);
    TRY(take(r, 3 + 4 + 20 + 256, &header, "header"));
    if (memcmp(header, "Pmd", 3) != 0) return fail(r, PM_ERR_BAD_FORMAT, "magic is not \"Pmd\"");
    float version = pmi_lef32(header + 3);
    if (!isfinite(version)) return fail(r, PM_ERR_BAD_FORMAT, "version is not a finite number");

    uint32_t nv = 0, ni = 0, nm = 0, nb = 0, nik = 0, nmorph = 0;
    enter(r, "vertices", UINT32_MAX, 0);
    TRY(get_count(r, 4, 38, &nv, "vertex count"));
    uint32_t max_bone = 0, max_bone_vertex = PM_NO_INDEX;
    pm_model *model = r->m.model;
    if (model) {
        TRY(pmi_mr_check_limit(&r->m, nv, pmi_model_max_vertices(&r->m), "vertices"));
        if (!(model->vertices = pmi_model_array(&r->m, nv, sizeof *model->vertices, "pmd vertices")))
            return PM_ERR_OUT_OF_MEMORY;
        model->vertex_count = nv;
    }
    for (uint32_t i = 0; i < nv; i++) {
        TRY(take(r, 38, &p, "vertex"));
        for (int k = 0; k < 2; k++) {
            uint32_t b = pmi_le16(p + 32 + 2 * k);
            if (max_bone_vertex == PM_NO_INDEX || b > max_bone) max_bone = b, max_bone_vertex = i;
        }
        if (model) { /* as babylon-mmd: BDEF2, weight = byte / 100, edge scale = the edge flag */
            pm_model_vertex *v = &model->vertices[i];
            pmi_le32s(&v->position, p, 8); /* position, normal, uv */
            v->weight_type = PM_WEIGHT_BDEF2;
            v->bone[0] = pmi_le16(p + 32);
            v->bone[1] = pmi_le16(p + 34);
            v->bone[2] = v->bone[3] = PM_NO_INDEX;
            v->weight[0] = (float)p[36] / 100.0f;
            v->weight[1] = 1.0f - v->weight[0];
            v->edge_scale = p[37] ? 1.0f : 0.0f;
        }
    }
    enter(r, "faces", UINT32_MAX, 0);
    TRY(get_count(r, 4, 2, &ni, "face index count"));
    TRY(pmi_mr_face_count(&r->m, ni));
    if (model) {
        if (!(model->indices = pmi_model_array(&r->m, ni, sizeof *model->indices, "pmd face indices")))
            return PM_ERR_OUT_OF_MEMORY;
        model->index_count = ni;
    }
    for (uint32_t i = 0; i < ni; i++) {
        TRY(take(r, 2, &p, "face index"));
        if (model) model->indices[i] = pmi_le16(p);
        if (pmi_le16(p) >= nv) {
            enter(r, "face index", i, ni);
            return pmi_mr_check_index(&r->m, pmi_le16(p), nv, "vertex index", "vertices");
        }
    }
    enter(r, "materials", UINT32_MAX, 0);
    TRY(get_count(r, 4, 70, &nm, "material count"));
    const uint8_t *material_data = r->m.c.p;
    uint64_t drawn = 0;
    for (uint32_t i = 0; i < nm; i++) {
        enter(r, "material", i, nm); /* the count was checked: the take cannot fail */
        TRY(take(r, 70, &p, "material"));
        TRY(pmi_mr_material_faces(&r->m, &drawn, pmi_le32(p + 46), ni));
    }

    enter(r, "bones", UINT32_MAX, 0);
    TRY(get_count(r, 2, 39, &nb, "bone count"));
    uint32_t max_bones = o && o->max_bones ? o->max_bones : 65536u;
    TRY(pmi_mr_check_limit(&r->m, nb, max_bones, "bones"));
    TRY(pmi_mr_check_weights(&r->m, max_bone, max_bone_vertex, nv, nb));
    const uint8_t *bone_data;
    TRY(take(r, (size_t)nb * 39, &bone_data, "bones"));

    enter(r, "IK chains", UINT32_MAX, 0);
    TRY(get_count(r, 2, 11, &nik, "IK count"));
    pm_allocator a = {0};
    if (o) a = o->allocator;
    pmd_ik *iks = pmi_alloc_array(&a, nik, sizeof(pmd_ik), r->m.err, "pmd IK chains");
    if (!iks) return PM_ERR_OUT_OF_MEMORY;
    pm_result res = PM_OK;
    uint32_t extra = 0; /* IK chains on a bone that already has one become extra bones */
    for (uint32_t i = 0; i < nik && res == PM_OK; i++) {
        enter(r, "IK chain", i, nik);
        if ((res = take(r, 11, &p, "IK chain")) != PM_OK) break;
        pmd_ik *ik = &iks[i];
        ik->bone = pmi_le16(p);
        ik->target = pmi_le16(p + 2);
        ik->link_count = p[4];
        ik->iterations = pmi_le16(p + 5);
        ik->limit = pmi_lef32(p + 7);
        if ((res = take(r, 2u * ik->link_count, &ik->links, "IK links")) != PM_OK) break;
        if ((res = pmi_mr_check_index(&r->m, ik->bone, nb, "IK bone", "bones")) == PM_OK)
            res = pmi_mr_check_index(&r->m, ik->target, nb, "IK target", "bones");
        for (uint32_t k = 0; k < ik->link_count && res == PM_OK; k++)
            if (pmi_le16(ik->links + 2 * k) >= nb) res = pmi_mr_fail_names(&r->m, "IK link", k, "bone", pmi_le16(ik->links + 2 * k), nb);
        for (uint32_t j = 0; j < i && res == PM_OK; j++)
            if (iks[j].bone == ik->bone) {
                extra++;
                break;
            }
    }

    /* morphs: the first is the "base" (vertex indices); the others index into it */
    uint32_t base_count = 0;
    const uint8_t *morph_start = NULL;
    if (res == PM_OK) {
        enter(r, "morphs", UINT32_MAX, 0);
        res = get_count(r, 2, 25, &nmorph, "morph count");
        morph_start = r->m.c.p;
    }
    for (uint32_t i = 0; i < nmorph && res == PM_OK; i++) {
        enter(r, "morph", i, nmorph);
        uint32_t n;
        if ((res = take(r, 20, &p, "name")) != PM_OK) break;
        if ((res = get_count(r, 4, 16, &n, "offset count")) != PM_OK) break;
        if ((res = take(r, 1, &p, "category")) != PM_OK) break;
        const uint8_t *offs;
        if ((res = take(r, (size_t)n * 16, &offs, "offsets")) != PM_OK) break;
        uint32_t limit = i == 0 ? nv : base_count;
        for (uint32_t k = 0; k < n && res == PM_OK; k++)
            if (pmi_le32(offs + 16 * k) >= limit)
                res = fail(r, PM_ERR_BAD_FORMAT, "offset %u index %u is out of range (%u %s)", k, pmi_le32(offs + 16 * k),
                           limit, i == 0 ? "vertices" : "base vertices");
        if (i == 0) base_count = n;
    }
    uint32_t display_names = 0;
    pmd_lists lists = {0};
    if (res == PM_OK) {
        enter(r, "display lists", UINT32_MAX, 0);
        if ((res = get_count(r, 1, 2, &lists.morph_count, "morph display count")) == PM_OK &&
            (res = take(r, 2u * lists.morph_count, &lists.morphs, "morph display list")) == PM_OK &&
            (res = get_count(r, 1, 50, &display_names, "bone display name count")) == PM_OK &&
            (res = take(r, 50u * display_names, &lists.names, "bone display names")) == PM_OK &&
            (res = get_count(r, 4, 3, &lists.bone_count, "bone display count")) == PM_OK)
            res = take(r, (size_t)lists.bone_count * 3, &lists.bones, "bone display list");
        lists.name_count = display_names;
    }
    if (res == PM_OK && nb + extra > max_bones) {
        enter(r, "bones", UINT32_MAX, 0);
        res = pmi_mr_check_limit(&r->m, nb + extra, max_bones, "bones");
    }
    if (res == PM_OK && !(r->m.s = pmi_skeleton_new(&a, nb + extra, 0, r->m.err))) res = PM_ERR_OUT_OF_MEMORY;
    if (res == PM_OK) res = pmi_skeleton_set_morph_count(r->m.s, nmorph ? nmorph - 1 : 0, true, r->m.err);
    if (res != PM_OK) {
        pmi_free(&a, iks);
        return res;
    }

    pm_skeleton *s = r->m.s;
    s->source.format = PM_MODEL_FORMAT_PMD;
    s->source.version = version;
    s->source.encoding = 2;
    s->source.vertex_count = nv;
    s->source.face_count = ni / 3;
    s->source.material_count = nm;
    if ((res = decode(r, header + 7, 20, &s->model_name)) == PM_OK)
        res = decode(r, header + 27, 256, &s->source.model_comment);

    /* bones, as babylon-mmd's PmdReader._ConvertBones */
    for (uint32_t i = 0; i < nb && res == PM_OK; i++) {
        const uint8_t *d = bone_data + 39 * (size_t)i;
        pm_bone *b = &s->bones[i];
        if ((res = decode(r, d, 20, &b->name)) != PM_OK) break;
        uint16_t parent = pmi_le16(d + 20), tail = pmi_le16(d + 22);
        uint8_t type = d[24];
        int16_t ikfield = (int16_t)pmi_le16(d + 25);
        b->position = pmi_vec3_make(pmi_lef32(d + 27), pmi_lef32(d + 31), pmi_lef32(d + 35));
        b->parent = parent == 0xFFFF ? PM_NO_INDEX : parent;
        /* babylon-mmd reads the tail as int16 and treats <= 0 as none; an index past the bones is
         * display-only data, dropped here */
        uint32_t tail_bone = (tail == 0 || tail >= 0x8000 || tail >= nb) ? PM_NO_INDEX : tail;
        b->flags = PM_BONE_TAIL_IS_BONE | PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED;
        b->tail_bone = tail_bone;
        bool is_ik = type == 2;
        for (uint32_t k = 0; k < nik && !is_ik; k++) is_ik = iks[k].bone == i;
        if (type == 1) b->flags |= PM_BONE_TRANSLATABLE;
        if (type == 5) { /* babylon-mmd: append from the raw tail field (int16, so >= 0x8000 is none) */
            b->flags |= PM_BONE_APPEND_ROTATE;
            b->flags &= ~(uint32_t)(PM_BONE_TAIL_IS_BONE | PM_BONE_VISIBLE);
            b->tail_bone = PM_NO_INDEX;
            b->append_parent = tail < nb ? tail : PM_NO_INDEX;
            b->append_ratio = (float)ikfield * 0.01f;
        }
        if (is_ik) {
            b->flags |= PM_BONE_TRANSLATABLE;
            b->transform_order = 1;
        }
    }
    for (uint32_t i = 0; i < nb && res == PM_OK; i++) { /* twist bones: fixed axis towards the tail */
        const uint8_t *d = bone_data + 39 * (size_t)i;
        if (d[24] != 8) continue;
        uint16_t tail = pmi_le16(d + 22);
        pm_bone *b = &s->bones[i];
        pm_vec3 to = s->bones[tail < nb ? tail : 0].position;
        b->fixed_axis = pmi_vec3_normalize(pmi_vec3_sub(to, b->position));
        b->flags |= PM_BONE_FIXED_AXIS;
        b->flags &= ~(uint32_t)PM_BONE_TAIL_IS_BONE;
        b->tail_bone = PM_NO_INDEX;
    }
    uint32_t next_extra = nb;
    pm_pmd_knee_limit knee = o ? o->pmd_knee_limit : PM_PMD_KNEE_LIMIT_DEFAULT;
    for (uint32_t k = 0; k < nik && res == PM_OK; k++) {
        const pmd_ik *ik = &iks[k];
        pm_bone *b = &s->bones[ik->bone];
        if (b->has_ik) { /* a second chain on the same bone: an extra bone "<name>+" */
            pm_bone *e = &s->bones[next_extra];
            *e = *b;
            char *buf;
            if ((res = pmi_skeleton_string_buffer(s, &e->name, b->name.length + 1, &buf, r->m.err)) != PM_OK) break;
            memcpy(buf, b->name.data, b->name.length);
            buf[b->name.length] = '+';
            e->parent = ik->bone;
            e->flags &= ~(uint32_t)(PM_BONE_VISIBLE | PM_BONE_TAIL_IS_BONE);
            e->tail_bone = PM_NO_INDEX;
            e->ik.links = NULL;
            b = e;
            next_extra++;
        }
        b->has_ik = true;
        b->flags |= PM_BONE_IK;
        b->ik.target = ik->target;
        b->ik.loop_count = ik->iterations;
        b->ik.limit_angle = ik->limit * 4.0f;
        b->ik.link_count = ik->link_count;
        if (ik->link_count &&
            !(b->ik.links = pmi_skeleton_arena_alloc(s, ik->link_count * sizeof(pm_ik_link), r->m.err))) {
            res = PM_ERR_OUT_OF_MEMORY;
            break;
        }
        for (uint32_t j = 0; j < ik->link_count; j++) {
            pm_ik_link *l = &b->ik.links[j];
            l->bone = pmi_le16(ik->links + 2 * j);
            if (knee != PM_PMD_KNEE_LIMIT_NONE && is_knee(&s->bones[l->bone].name)) {
                l->has_limit = true;
                if (knee == PM_PMD_KNEE_LIMIT_MMD) {
                    l->limit_min = pmi_vec3_make((float)-PM_PI, 0, 0);
                    l->limit_max = pmi_vec3_make((float)(-0.5 * PM_PI / 180.0), 0, 0);
                } else {
                    l->limit_min = pmi_vec3_make(-180.0f, 0, 0);
                    l->limit_max = pmi_vec3_make(-0.5f, 0, 0);
                }
            }
        }
    }
    pmi_free(&a, iks);

    /* morph names and categories (the base morph is dropped) */
    if (res == PM_OK && nmorph && model) {
        model->morph_count = nmorph - 1;
        if (!(model->morphs = pmi_model_array(&r->m, nmorph - 1, sizeof *model->morphs, "pmd morphs")))
            res = PM_ERR_OUT_OF_MEMORY;
    }
    if (res == PM_OK && nmorph) {
        pmi_cursor mc = pmi_cursor_make(morph_start, (size_t)(r->m.c.end - morph_start));
        const uint8_t *base = NULL;
        for (uint32_t i = 0; i < nmorph && res == PM_OK; i++) {
            const uint8_t *m = pmi_take(&mc, 25);
            uint32_t n = pmi_le32(m + 20);
            const uint8_t *offs = pmi_take(&mc, (size_t)n * 16);
            if (i == 0) {
                base = offs;
                continue;
            }
            s->morph_panel[i - 1] = m[24];
            res = decode(r, m, 20, &s->morph_names[i - 1]);
            if (res == PM_OK && model) res = pmd_vertex_morph(r, i - 1, m[24], base, offs, n);
        }
    }

    /* optional English names */
    if (res == PM_OK && pmi_left(&r->m.c) > 0) {
        enter(r, "English names", UINT32_MAX, 0);
        if ((res = take(r, 1, &p, "flag")) == PM_OK && p[0]) {
            const uint8_t *en;
            size_t need = 20 + 256 + 20 * (size_t)nb + 20 * (size_t)(nmorph ? nmorph - 1 : 0) + 50 * (size_t)display_names;
            if ((res = take(r, need, &en, "English names")) == PM_OK) {
                res = decode(r, en, 20, &s->model_name_en);
                if (res == PM_OK) res = decode(r, en + 20, 256, &s->source.model_comment_en);
                for (uint32_t i = 0; i < nb && res == PM_OK; i++)
                    res = decode(r, en + 276 + 20 * (size_t)i, 20, &s->bones[i].name_en);
                if (model) lists.english = en + 276 + 20 * (size_t)nb;
            }
        }
    }
    if (res == PM_OK && model) res = pmd_model_rest(r, nm, material_data, nmorph ? nmorph - 1 : 0, &lists);
    if (res != PM_OK) return res;
    return pmi_mr_validate(&r->m, s);
}

static pm_result read_pmd_entry(pmi_model_reader *m, const pm_model_read_options *o) { return read_pmd((pmd_rd *)m, o); }

pm_result pm_pmd_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                      pm_error *err) {
    pmd_rd r;
    return pmi_mr_run("pmd", data, size, opts, out, err, read_pmd_entry, &r, sizeof r);
}

pm_result pm_model_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                        pm_error *err) {
    if (out) *out = NULL;
    if (data && size >= 4 && memcmp(data, "PMX ", 4) == 0) return pm_pmx_read(data, size, opts, out, err);
    if (data && size >= 3 && memcmp(data, "Pmd", 3) == 0) return pm_pmd_read(data, size, opts, out, err);
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "model: out is NULL");
    return pmi_fail(err, PM_ERR_BAD_FORMAT, "model: not a PMX or PMD file (no \"PMX \" or \"Pmd\" magic)");
}

pm_result pmi_pmd_read_model(const uint8_t *data, size_t size, const pm_model_load_options *opts, pm_model *model,
                             pm_error *err) {
    pmd_rd r;
    return pmi_mr_run_model("pmd", data, size, opts, model, err, read_pmd_entry, &r, sizeof r);
}
