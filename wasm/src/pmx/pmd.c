/* PMD reader (bones converted the way babylon-mmd's PmdReader does) and pm_model_read (see pmx.h). */
#include "procmotion/pmx.h"
#include "procmotion/text.h"

#include "pmx/pmx_internal.h"
#include "skeleton/skeleton_internal.h"

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

/* A Shift-JIS field into the skeleton; a name whose bytes are not CP932 (U+FFFD in its text: Shift-JIS
 * has no U+FFFD) keeps its whole field (pm_model_raw_text). */
static pm_result decode(pmd_rd *r, const uint8_t *field, size_t size, pm_string *dst) {
    size_t n = pm_sjis_field_length(field, size);
    size_t len = pm_sjis_to_utf8(field, n, NULL, 0);
    char *buf;
    TRY(pmi_skeleton_string_buffer(r->m.s, dst, len, &buf, r->m.err));
    pm_sjis_to_utf8(field, n, buf, len + 1);
    for (size_t i = 0; i + 2 < len; i++)
        if ((uint8_t)buf[i] == 0xEF && (uint8_t)buf[i + 1] == 0xBF && (uint8_t)buf[i + 2] == 0xBD)
            return pmi_skeleton_keep_raw(r->m.s, dst, 2, field, size, r->m.err);
    return PM_OK;
}

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
    for (uint32_t i = 0; i < nv; i++) {
        TRY(take(r, 38, &p, "vertex"));
        for (int k = 0; k < 2; k++) {
            uint32_t b = pmi_le16(p + 32 + 2 * k);
            if (max_bone_vertex == PM_NO_INDEX || b > max_bone) max_bone = b, max_bone_vertex = i;
        }
    }
    enter(r, "faces", UINT32_MAX, 0);
    TRY(get_count(r, 4, 2, &ni, "face index count"));
    if (ni % 3) return fail(r, PM_ERR_BAD_FORMAT, "%u face indices is not a multiple of 3", ni);
    for (uint32_t i = 0; i < ni; i++) {
        TRY(take(r, 2, &p, "face index"));
        if (pmi_le16(p) >= nv) {
            enter(r, "face index", i, ni);
            return fail(r, PM_ERR_BAD_FORMAT, "vertex index %u is out of range (%u vertices)", pmi_le16(p), nv);
        }
    }
    enter(r, "materials", UINT32_MAX, 0);
    TRY(get_count(r, 4, 70, &nm, "material count"));
    uint64_t drawn = 0;
    for (uint32_t i = 0; i < nm; i++) {
        TRY(take(r, 70, &p, "material"));
        drawn += pmi_le32(p + 46);
        if (drawn > ni) {
            enter(r, "material", i, nm);
            return fail(r, PM_ERR_BAD_FORMAT, "materials draw %llu face indices but the model has %u",
                        (unsigned long long)drawn, ni);
        }
    }

    enter(r, "bones", UINT32_MAX, 0);
    TRY(get_count(r, 2, 39, &nb, "bone count"));
    uint32_t max_bones = o && o->max_bones ? o->max_bones : 65536u;
    if (nb > max_bones) return fail(r, PM_ERR_LIMIT, "%u bones is more than the limit of %u", nb, max_bones);
    if (max_bone_vertex != PM_NO_INDEX && max_bone >= nb) {
        enter(r, "vertex", max_bone_vertex, nv);
        return fail(r, PM_ERR_BAD_FORMAT, "weight names bone %u (%u bones)", max_bone, nb);
    }
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
        if (ik->bone >= nb) res = fail(r, PM_ERR_BAD_FORMAT, "IK bone %u is out of range (%u bones)", ik->bone, nb);
        else if (ik->target >= nb) res = fail(r, PM_ERR_BAD_FORMAT, "IK target %u is out of range (%u bones)", ik->target, nb);
        for (uint32_t k = 0; k < ik->link_count && res == PM_OK; k++)
            if (pmi_le16(ik->links + 2 * k) >= nb)
                res = fail(r, PM_ERR_BAD_FORMAT, "IK link %u names bone %u (%u bones)", k, pmi_le16(ik->links + 2 * k), nb);
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
    if (res == PM_OK) {
        uint32_t n;
        enter(r, "display lists", UINT32_MAX, 0);
        if ((res = get_count(r, 1, 2, &n, "morph display count")) == PM_OK &&
            (res = take(r, 2u * n, &p, "morph display list")) == PM_OK &&
            (res = get_count(r, 1, 50, &display_names, "bone display name count")) == PM_OK &&
            (res = take(r, 50u * display_names, &p, "bone display names")) == PM_OK &&
            (res = get_count(r, 4, 3, &n, "bone display count")) == PM_OK)
            res = take(r, (size_t)n * 3, &p, "bone display list");
    }
    if (res == PM_OK && nb + extra > max_bones) {
        enter(r, "bones", UINT32_MAX, 0);
        res = fail(r, PM_ERR_LIMIT, "%u bones is more than the limit of %u", nb + extra, max_bones);
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
        b->position = pm_vec3_make(pmi_lef32(d + 27), pmi_lef32(d + 31), pmi_lef32(d + 35));
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
        b->fixed_axis = pm_vec3_normalize(pm_vec3_sub(to, b->position));
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
                    l->limit_min = pm_vec3_make((float)-PM_PI, 0, 0);
                    l->limit_max = pm_vec3_make((float)(-0.5 * PM_PI / 180.0), 0, 0);
                } else {
                    l->limit_min = pm_vec3_make(-180.0f, 0, 0);
                    l->limit_max = pm_vec3_make(-0.5f, 0, 0);
                }
            }
        }
    }
    pmi_free(&a, iks);

    /* morph names and categories (the base morph is dropped) */
    if (res == PM_OK && nmorph) {
        pmi_cursor mc = pmi_cursor_make(morph_start, (size_t)(r->m.c.end - morph_start));
        for (uint32_t i = 0; i < nmorph && res == PM_OK; i++) {
            const uint8_t *m = pmi_take(&mc, 25);
            uint32_t n = pmi_le32(m + 20);
            pmi_take(&mc, (size_t)n * 16);
            if (i == 0) continue;
            s->morph_panel[i - 1] = m[24];
            res = decode(r, m, 20, &s->morph_names[i - 1]);
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
            }
        }
    }
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
