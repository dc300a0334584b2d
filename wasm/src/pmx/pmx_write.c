/* PMX 2.0 writer (see pmx.h): geometry, bones, vertex morphs, display frames, no physics. */
#include "procmotion/pmx.h"

#include "pmx/pmx_internal.h"
#include "skeleton/build.h"
#include "text/utf.h"

#include <math.h>

typedef struct wr {
    uint8_t *out; /* NULL while measuring */
    size_t pos;
    uint8_t encoding;
    uint8_t vsize, msize, bsize, morph_size;
    uint32_t morph_count; /* written_morph_count */
} wr;

static void put(wr *w, const void *p, size_t n) {
    if (w->out && n) memcpy(w->out + w->pos, p, n);
    w->pos += n;
}
static void put_u8(wr *w, uint8_t v) { put(w, &v, 1); }
static void put_u16(wr *w, uint16_t v) {
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}
static void put_u32(wr *w, uint32_t v) {
    uint8_t b[4];
    pmi_put32(b, v);
    put(w, b, 4);
}
static void put_f32(wr *w, float f) {
    uint8_t b[4];
    pmi_putf32(b, f);
    put(w, b, 4);
}
/* n floats from float storage: an array or a run of a struct's float fields (as pmi_le32s reads them) */
static void put_floats(wr *w, const void *f, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float v;
        memcpy(&v, (const uint8_t *)f + 4 * i, 4);
        put_f32(w, v);
    }
}
static void put_vec3(wr *w, pm_vec3 v) { put_floats(w, &v, 3); }
/* Signed index, PM_NO_INDEX -> -1. */
static void put_index(wr *w, uint8_t size, uint32_t idx) {
    int32_t v = idx == PM_NO_INDEX ? -1 : (int32_t)idx;
    if (size == 1) put_u8(w, (uint8_t)(int8_t)v);
    else if (size == 2) put_u16(w, (uint16_t)(int16_t)v);
    else put_u32(w, (uint32_t)v);
}
static void put_vertex_index(wr *w, uint32_t idx) {
    if (w->vsize == 1) put_u8(w, (uint8_t)idx);
    else if (w->vsize == 2) put_u16(w, (uint16_t)idx);
    else put_u32(w, idx);
}
static void put_text(wr *w, const char *s, size_t len) {
    if (!s) s = "", len = 0;
    size_t n = w->encoding == 0 ? pmi_utf8_to_utf16le(s, len, NULL, 0) : pmi_utf8_sanitize((const uint8_t *)s, len, NULL, 0);
    put_u32(w, (uint32_t)n);
    if (w->out) {
        if (w->encoding == 0) pmi_utf8_to_utf16le(s, len, w->out + w->pos, n);
        else pmi_utf8_sanitize((const uint8_t *)s, len, (char *)w->out + w->pos, n);
    }
    w->pos += n;
}
static void put_cstr(wr *w, const char *s) { put_text(w, s, s ? strlen(s) : 0); }
/* A text of the skeleton: the bytes its file stored when it kept them in this encoding (pmx.h). */
static void put_string(wr *w, const pm_skeleton *sk, const pm_string *s) {
    uint8_t encoding = 0;
    size_t size = 0;
    const uint8_t *raw = pmi_skeleton_raw(sk, s, &encoding, &size);
    if (!raw || encoding != w->encoding) {
        put_text(w, s->data, s->data ? s->length : 0);
        return;
    }
    put_u32(w, (uint32_t)size);
    put(w, raw, size);
}

static uint8_t signed_size(size_t count) { return count <= 127 ? 1 : count <= 32767 ? 2 : 4; }
static uint8_t vertex_size(size_t count) { return count < 255 ? 1 : count < 65535 ? 2 : 4; }

_Static_assert(PMI_FLOAT_RUN(pm_pmx_vertex, position.x, uv[1], 8) && PMI_FLOAT_RUN(pm_pmx_material, diffuse[0], ambient[2], 11) &&
                   PMI_FLOAT_RUN(pm_pmx_material, edge_color[0], edge_size, 5),
               "the float runs the writer writes in one call");

/* Whether skeleton morph i also appears among the model's vertex morphs (then it is not repeated). */
static bool morph_in_model(const pm_pmx_model *m, pm_string name) {
    for (uint32_t k = 0; k < m->morph_count; k++) {
        const char *n = m->morphs[k].name ? m->morphs[k].name : "";
        if (strlen(n) == name.length && memcmp(n, name.data, name.length) == 0) return true;
    }
    return false;
}

static uint32_t written_morph_count(const pm_pmx_model *m) {
    uint32_t n = m->morph_count;
    for (uint32_t i = 0; i < m->skeleton->morph_count; i++)
        if (!morph_in_model(m, m->skeleton->morph_names[i])) n++;
    return n;
}

/* Validate everything the writer relies on; *nmorphs gets written_morph_count. */
static pm_result check_model(const pm_pmx_model *m, uint32_t *nmorphs, pm_error *err) {
    if (!m || !m->skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: model or skeleton is NULL");
    pm_result r = pm_skeleton_validate(m->skeleton, err);
    if (r != PM_OK) return r;
    const pm_skeleton *s = m->skeleton;
    const uint32_t big = 0x7fffffffu;
    if ((m->vertex_count && !m->vertices) || (m->index_count && !m->indices) ||
        (m->material_count && !m->materials) || (m->morph_count && !m->morphs) ||
        (m->display_frame_count && !m->display_frames))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: an array with a non-zero count is NULL");
    if (m->vertex_count > big || m->index_count > big || m->material_count > big || s->bone_count > big ||
        (uint64_t)m->morph_count + s->morph_count > big || m->display_frame_count > big)
        return pmi_fail(err, PM_ERR_LIMIT, "pmx write: a count does not fit PMX's signed 32-bit counts");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const pm_pmx_vertex *v = &m->vertices[i];
        if (!pmi_all_finite(&v->position, 8) || !isfinite(v->weight) || !isfinite(v->edge_scale)) /* position, normal, uv */
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: vertex %u has a NaN or infinite value", i);
        if (v->bone[0] >= s->bone_count || (v->bone[1] != PM_NO_INDEX && v->bone[1] >= s->bone_count))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: vertex %u names a bone out of range (%u bones)", i,
                            s->bone_count);
    }
    if (m->index_count % 3)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: %u face indices is not a multiple of 3", m->index_count);
    for (uint32_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: face index %u is %u (%u vertices)", i,
                            m->indices[i], m->vertex_count);
    uint64_t drawn = 0;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_pmx_material *mt = &m->materials[i];
        if (!pmi_all_finite(mt->diffuse, 11) || !pmi_all_finite(mt->edge_color, 5))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: material %u has a NaN or infinite value", i);
        if (mt->index_count % 3)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: material %u draws %u indices (not a multiple of 3)",
                            i, mt->index_count);
        drawn += mt->index_count;
    }
    if (drawn != m->index_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: materials draw %llu face indices, the model has %u",
                        (unsigned long long)drawn, m->index_count);
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const pm_pmx_vertex_morph *mo = &m->morphs[i];
        if (mo->offset_count && (!mo->vertex || !mo->offset))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: morph %u has NULL offsets", i);
        if (mo->offset_count > big)
            return pmi_fail(err, PM_ERR_LIMIT, "pmx write: morph %u has too many offsets", i);
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            if (mo->vertex[k] >= m->vertex_count)
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: morph %u offset %u names vertex %u (%u vertices)",
                                i, k, mo->vertex[k], m->vertex_count);
            if (!pmi_all_finite(&mo->offset[k], 3))
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: morph %u offset %u is not finite", i, k);
        }
    }
    *nmorphs = written_morph_count(m);
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        const pm_pmx_display_frame *f = &m->display_frames[i];
        if (f->item_count && !f->items)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: display frame %u has NULL items", i);
        for (uint32_t k = 0; k < f->item_count; k++) {
            uint32_t limit = f->items[k].is_morph ? *nmorphs : s->bone_count;
            if (f->items[k].index >= limit)
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: display frame %u item %u names %s %u (%u)", i, k,
                                f->items[k].is_morph ? "morph" : "bone", f->items[k].index, limit);
        }
    }
    return PM_OK;
}

static void write_bone(wr *w, const pm_skeleton *sk, const pm_bone *b) {
    put_string(w, sk, &b->name);
    put_string(w, sk, &b->name_en);
    put_vec3(w, b->position);
    put_index(w, w->bsize, b->parent);
    put_u32(w, (uint32_t)b->transform_order);
    uint16_t f = (uint16_t)(b->flags & 0xffffu);
    f = b->has_ik ? (uint16_t)(f | PM_BONE_IK) : (uint16_t)(f & ~PM_BONE_IK);
    put_u16(w, f);
    if (f & PM_BONE_TAIL_IS_BONE) put_index(w, w->bsize, b->tail_bone);
    else put_vec3(w, b->tail_offset);
    if (f & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) {
        put_index(w, w->bsize, b->append_parent);
        put_f32(w, b->append_ratio);
    }
    if (f & PM_BONE_FIXED_AXIS) put_vec3(w, b->fixed_axis);
    if (f & PM_BONE_LOCAL_AXES) {
        put_vec3(w, b->local_x);
        put_vec3(w, b->local_z);
    }
    if (f & PM_BONE_EXTERNAL_PARENT) put_u32(w, (uint32_t)b->external_parent_key);
    if (!b->has_ik) return;
    put_index(w, w->bsize, b->ik.target);
    put_u32(w, b->ik.loop_count > 0x7fffffffu ? 0x7fffffffu : b->ik.loop_count);
    put_f32(w, b->ik.limit_angle);
    put_u32(w, b->ik.link_count);
    for (uint32_t k = 0; k < b->ik.link_count; k++) {
        const pm_ik_link *l = &b->ik.links[k];
        put_index(w, w->bsize, l->bone);
        put_u8(w, l->has_limit ? 1 : 0);
        if (l->has_limit) {
            put_vec3(w, l->limit_min);
            put_vec3(w, l->limit_max);
        }
    }
}

static void write_all(wr *w, const pm_pmx_model *m) {
    const pm_skeleton *s = m->skeleton;
    const uint32_t nmorphs = w->morph_count;
    /* header */
    put(w, "PMX ", 4);
    put_f32(w, 2.0f);
    put_u8(w, 8);
    const uint8_t globals[8] = {w->encoding, 0, w->vsize, 1, w->msize, w->bsize, w->morph_size, 1};
    put(w, globals, 8);
    put_string(w, s, &s->model_name);
    put_string(w, s, &s->model_name_en);
    put_string(w, s, &s->source.model_comment);
    put_string(w, s, &s->source.model_comment_en);
    /* vertices */
    put_u32(w, m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const pm_pmx_vertex *v = &m->vertices[i];
        put_floats(w, &v->position, 8); /* position, normal, uv */
        if (v->bone[1] == PM_NO_INDEX || v->weight >= 1.0f) {
            put_u8(w, 0);
            put_index(w, w->bsize, v->bone[0]);
        } else {
            put_u8(w, 1);
            put_index(w, w->bsize, v->bone[0]);
            put_index(w, w->bsize, v->bone[1]);
            put_f32(w, v->weight);
        }
        put_f32(w, v->edge_scale == 0.0f ? 1.0f : v->edge_scale);
    }
    /* faces, textures */
    put_u32(w, m->index_count);
    for (uint32_t i = 0; i < m->index_count; i++) put_vertex_index(w, m->indices[i]);
    put_u32(w, 0);
    /* materials */
    put_u32(w, m->material_count);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_pmx_material *mt = &m->materials[i];
        put_cstr(w, mt->name);
        put_cstr(w, mt->name_en);
        put_floats(w, mt->diffuse, 11); /* diffuse .. ambient */
        put_u8(w, mt->flags);
        put_floats(w, mt->edge_color, 5);
        put_index(w, 1, PM_NO_INDEX); /* texture */
        put_index(w, 1, PM_NO_INDEX); /* sphere */
        put_u8(w, 0);                 /* sphere mode: none */
        if (mt->shared_toon >= 0 && mt->shared_toon <= 9) {
            put_u8(w, 1);
            put_u8(w, (uint8_t)mt->shared_toon);
        } else {
            put_u8(w, 0);
            put_index(w, 1, PM_NO_INDEX);
        }
        put_cstr(w, "");
        put_u32(w, mt->index_count);
    }
    /* bones */
    put_u32(w, s->bone_count);
    for (uint32_t i = 0; i < s->bone_count; i++) write_bone(w, s, &s->bones[i]);
    /* morphs: the model's vertex morphs, then the skeleton's other names as empty vertex morphs */
    put_u32(w, nmorphs);
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const pm_pmx_vertex_morph *mo = &m->morphs[i];
        put_cstr(w, mo->name);
        put_cstr(w, mo->name_en);
        put_u8(w, mo->panel);
        put_u8(w, 1);
        put_u32(w, mo->offset_count);
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            put_vertex_index(w, mo->vertex[k]);
            put_vec3(w, mo->offset[k]);
        }
    }
    for (uint32_t i = 0; i < s->morph_count; i++) {
        if (morph_in_model(m, s->morph_names[i])) continue;
        put_string(w, s, &s->morph_names[i]);
        put_cstr(w, "");
        put_u8(w, s->morph_panel ? s->morph_panel[i] : 4);
        put_u8(w, 1);
        put_u32(w, 0);
    }
    /* display frames */
    if (m->display_frame_count) {
        put_u32(w, m->display_frame_count);
        for (uint32_t i = 0; i < m->display_frame_count; i++) {
            const pm_pmx_display_frame *f = &m->display_frames[i];
            put_cstr(w, f->name);
            put_cstr(w, f->name_en);
            put_u8(w, f->special ? 1 : 0);
            put_u32(w, f->item_count);
            for (uint32_t k = 0; k < f->item_count; k++) {
                put_u8(w, f->items[k].is_morph ? 1 : 0);
                put_index(w, f->items[k].is_morph ? w->morph_size : w->bsize, f->items[k].index);
            }
        }
    } else {
        put_u32(w, s->bone_count > 1 ? 3 : 2);
        put_cstr(w, "Root");
        put_cstr(w, "Root");
        put_u8(w, 1);
        put_u32(w, s->bone_count ? 1 : 0);
        if (s->bone_count) {
            put_u8(w, 0);
            put_index(w, w->bsize, 0);
        }
        put_cstr(w, "表情");
        put_cstr(w, "Exp");
        put_u8(w, 1);
        put_u32(w, nmorphs);
        for (uint32_t i = 0; i < nmorphs; i++) {
            put_u8(w, 1);
            put_index(w, w->morph_size, i);
        }
        if (s->bone_count > 1) {
            put_cstr(w, "Bones");
            put_cstr(w, "Bones");
            put_u8(w, 0);
            put_u32(w, s->bone_count - 1);
            for (uint32_t i = 1; i < s->bone_count; i++) {
                put_u8(w, 0);
                put_index(w, w->bsize, i);
            }
        }
    }
    put_u32(w, 0); /* rigid bodies */
    put_u32(w, 0); /* joints */
}

pm_result pm_pmx_write(const pm_pmx_model *model, const pm_pmx_write_options *opts, uint8_t *out, size_t out_cap,
                       size_t *out_size, pm_error *err) {
    if (!out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: out_size is NULL");
    *out_size = 0;
    uint8_t encoding = opts ? opts->encoding : 0;
    if (encoding > 1) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: encoding %u is not 0 or 1", encoding);
    wr w = {0};
    pm_result r = check_model(model, &w.morph_count, err);
    if (r != PM_OK) return r;
    w.encoding = encoding;
    w.vsize = vertex_size(model->vertex_count);
    w.msize = signed_size(model->material_count);
    w.bsize = signed_size(model->skeleton->bone_count);
    w.morph_size = signed_size(w.morph_count);
    write_all(&w, model);
    size_t size = w.pos;
    if (out) {
        if (out_cap < size)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmx write: the output needs %zu bytes, out_cap is %zu", size,
                            out_cap);
        w.out = out;
        w.pos = 0;
        write_all(&w, model);
    }
    *out_size = size;
    return PM_OK;
}
