/* PMD 1.0 writer for the zoo (see zoo.h): the layout pm_pmd_read and babylon-mmd's PmdReader read,
 * bones typed so that both convert them back to the skeleton given. */
#include "zoo.h"

#include "common/internal.h"
#include "procmotion/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct pw {
    uint8_t *out;
    size_t cap, n;
} pw;

static void put(pw *w, const void *p, size_t n) {
    if (w->out && w->n + n <= w->cap) memcpy(w->out + w->n, p, n);
    w->n += n;
}
static void u8(pw *w, uint8_t v) { put(w, &v, 1); }
static void u16(pw *w, uint16_t v) {
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}
static void u32(pw *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}
static void f32(pw *w, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    u32(w, u);
}
static void vec3(pw *w, pm_vec3 v) { f32(w, v.x), f32(w, v.y), f32(w, v.z); }

/* A NUL-padded Shift-JIS field; a name that does not fit whole is refused (a cut name would not be
 * found by the motions). */
static pm_result field(pw *w, const char *utf8, size_t width, pm_error *err) {
    uint8_t buf[256] = {0};
    size_t len = 0;
    bool cut = false;
    pm_result r = pm_utf8_to_sjis(utf8 ? utf8 : "", utf8 ? strlen(utf8) : 0, buf, width, &len, &cut, err);
    if (r != PM_OK) return r;
    if (cut) return pmi_fail(err, PM_ERR_LIMIT, "pmd: \"%s\" does not fit a %zu-byte field", utf8, width);
    put(w, buf, width);
    return PM_OK;
}

static pm_result refuse(pm_error *err, uint32_t bone, const char *name, const char *why) {
    return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmd: bone %u (%s): %s", bone, name, why);
}

/* PMD bone types (babylon-mmd's PmdObject.Bone.Type). */
enum { T_ROTATE = 0, T_ROTATE_MOVE = 1, T_IK = 2, T_ROTATE_EFFECT = 5, T_INVISIBLE = 7 };

static pm_result check_bones(const pm_skeleton *s, pm_error *err) {
    if (s->bone_count > 0xFFFF) return refuse(err, 0, "", "more than 65535 bones");
    for (uint32_t i = 0; i < s->bone_count; i++) {
        const pm_bone *b = &s->bones[i];
        if (b->flags & (PM_BONE_APPEND_TRANSLATE | PM_BONE_LOCAL_APPEND))
            return refuse(err, i, b->name.data, "PMD has no append translation or local append");
        if ((b->flags & PM_BONE_APPEND_ROTATE) && (b->append_parent == PM_NO_INDEX || b->has_ik))
            return refuse(err, i, b->name.data, "a PMD append needs a source and cannot be an IK bone");
        if (b->transform_order != (b->has_ik ? 1 : 0) || (b->flags & PM_BONE_AFTER_PHYSICS))
            return refuse(err, i, b->name.data, "PMD's deform order is 1 for IK bones and 0 for the others");
        if (b->flags & (PM_BONE_FIXED_AXIS | PM_BONE_LOCAL_AXES | PM_BONE_EXTERNAL_PARENT))
            return refuse(err, i, b->name.data, "PMD has no fixed axis, local axes or external parent");
        if (b->has_ik && (b->ik.target == PM_NO_INDEX || b->ik.link_count > 255 || b->ik.loop_count > 0xFFFF))
            return refuse(err, i, b->name.data, "a PMD IK chain needs a target, at most 255 links and 65535 loops");
    }
    return PM_OK;
}

static uint8_t bone_type(const pm_bone *b) {
    if (b->has_ik) return T_IK;
    if (b->flags & PM_BONE_APPEND_ROTATE) return T_ROTATE_EFFECT;
    if (b->flags & PM_BONE_TRANSLATABLE) return T_ROTATE_MOVE;
    return (b->flags & PM_BONE_VISIBLE) ? T_ROTATE : T_INVISIBLE;
}

static pm_result write_all(pw *w, const pm_pmx_model *m, pm_error *err) {
    const pm_skeleton *s = m->skeleton;
    pm_result r;
    put(w, "Pmd", 3);
    f32(w, 1.0f);
    if ((r = field(w, s->model_name.data, 20, err)) || (r = field(w, s->source.model_comment.data, 256, err))) return r;
    u32(w, m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const pm_pmx_vertex *v = &m->vertices[i];
        vec3(w, v->position);
        vec3(w, v->normal);
        f32(w, v->uv[0]), f32(w, v->uv[1]);
        bool one = v->bone[1] == PM_NO_INDEX || v->weight >= 1.0f;
        u16(w, (uint16_t)v->bone[0]);
        u16(w, (uint16_t)(one ? v->bone[0] : v->bone[1]));
        u8(w, (uint8_t)(one ? 100 : lroundf(v->weight * 100)));
        u8(w, 0); /* edge on */
    }
    u32(w, m->index_count);
    for (uint32_t i = 0; i < m->index_count; i++) u16(w, (uint16_t)m->indices[i]);
    u32(w, m->material_count);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_pmx_material *mt = &m->materials[i];
        for (int k = 0; k < 4; k++) f32(w, mt->diffuse[k]);
        f32(w, mt->specular_power);
        for (int k = 0; k < 3; k++) f32(w, mt->specular[k]);
        for (int k = 0; k < 3; k++) f32(w, mt->ambient[k]);
        u8(w, mt->shared_toon >= 0 && mt->shared_toon <= 9 ? (uint8_t)mt->shared_toon : 0xFF);
        u8(w, (mt->flags & PM_PMX_MATERIAL_EDGE) ? 1 : 0);
        u32(w, mt->index_count);
        if ((r = field(w, "", 20, err))) return r;
    }
    /* bones: an appended bone keeps its source in the tail field and the ratio (x 100) in the IK field */
    u16(w, (uint16_t)s->bone_count);
    uint32_t chains = 0;
    for (uint32_t i = 0; i < s->bone_count; i++) {
        const pm_bone *b = &s->bones[i];
        if ((r = field(w, b->name.data, 20, err))) return r;
        u16(w, b->parent == PM_NO_INDEX ? 0xFFFF : (uint16_t)b->parent);
        uint8_t type = bone_type(b);
        uint16_t tail = (b->flags & PM_BONE_TAIL_IS_BONE) && b->tail_bone != PM_NO_INDEX ? (uint16_t)b->tail_bone : 0;
        int16_t ikf = 0;
        if (type == T_ROTATE_EFFECT) tail = (uint16_t)b->append_parent, ikf = (int16_t)lroundf(b->append_ratio * 100);
        if (type == T_IK) ikf = (int16_t)b->ik.target;
        u16(w, tail);
        u8(w, type);
        u16(w, (uint16_t)ikf);
        vec3(w, b->position);
        chains += b->has_ik;
    }
    u16(w, (uint16_t)chains);
    for (uint32_t i = 0; i < s->bone_count; i++) {
        const pm_bone *b = &s->bones[i];
        if (!b->has_ik) continue;
        u16(w, (uint16_t)i);
        u16(w, (uint16_t)b->ik.target);
        u8(w, (uint8_t)b->ik.link_count);
        u16(w, (uint16_t)b->ik.loop_count);
        f32(w, b->ik.limit_angle / 4.0f); /* PMD stores the limit in units of 4 radians (readers x 4) */
        for (uint32_t k = 0; k < b->ik.link_count; k++) u16(w, (uint16_t)b->ik.links[k].bone);
    }
    /* morphs: "base" lists every vertex a morph moves, with its rest position; the others index it */
    uint32_t base = 0;
    for (uint32_t i = 0; i < m->morph_count; i++) base += m->morphs[i].offset_count;
    u16(w, (uint16_t)(m->morph_count ? m->morph_count + 1 : 0));
    if (m->morph_count) {
        if ((r = field(w, "base", 20, err))) return r;
        u32(w, base);
        u8(w, 0);
        for (uint32_t i = 0; i < m->morph_count; i++)
            for (uint32_t k = 0; k < m->morphs[i].offset_count; k++) {
                u32(w, m->morphs[i].vertex[k]);
                vec3(w, m->vertices[m->morphs[i].vertex[k]].position);
            }
        uint32_t at = 0;
        for (uint32_t i = 0; i < m->morph_count; i++) {
            const pm_pmx_vertex_morph *mo = &m->morphs[i];
            if ((r = field(w, mo->name, 20, err))) return r;
            u32(w, mo->offset_count);
            u8(w, mo->panel >= 1 && mo->panel <= 4 ? mo->panel : 4);
            for (uint32_t k = 0; k < mo->offset_count; k++) u32(w, at++), vec3(w, mo->offset[k]);
        }
    }
    /* display: every morph; the non-special bone frames */
    u8(w, (uint8_t)m->morph_count);
    for (uint32_t i = 0; i < m->morph_count; i++) u16(w, (uint16_t)(i + 1));
    uint32_t frames = 0, items = 0;
    for (uint32_t i = 0; i < m->display_frame_count; i++)
        if (!m->display_frames[i].special) frames++;
    u8(w, (uint8_t)frames);
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        const pm_pmx_display_frame *fr = &m->display_frames[i];
        if (fr->special) continue;
        if ((r = field(w, fr->name, 50, err))) return r;
        for (uint32_t k = 0; k < fr->item_count; k++) items += !fr->items[k].is_morph;
    }
    u32(w, items);
    uint8_t frame_no = 0;
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        const pm_pmx_display_frame *fr = &m->display_frames[i];
        if (fr->special) continue;
        frame_no++;
        for (uint32_t k = 0; k < fr->item_count; k++)
            if (!fr->items[k].is_morph) u16(w, (uint16_t)fr->items[k].index), u8(w, frame_no);
    }
    /* English names, then the ten toon textures, no rigid bodies, no joints */
    u8(w, 1);
    if ((r = field(w, s->model_name_en.data, 20, err)) || (r = field(w, s->source.model_comment_en.data, 256, err)))
        return r;
    for (uint32_t i = 0; i < s->bone_count; i++)
        if ((r = field(w, s->bones[i].name_en.data, 20, err))) return r;
    for (uint32_t i = 0; i < m->morph_count; i++)
        if ((r = field(w, m->morphs[i].name_en, 20, err))) return r;
    for (uint32_t i = 0; i < m->display_frame_count; i++)
        if (!m->display_frames[i].special && (r = field(w, m->display_frames[i].name_en, 50, err))) return r;
    for (int i = 0; i < 10; i++) {
        char toon[16];
        snprintf(toon, sizeof toon, "toon%02d.bmp", i + 1);
        if ((r = field(w, toon, 100, err))) return r;
    }
    u32(w, 0);
    u32(w, 0);
    return PM_OK;
}

pm_result pm_zoo_write_pmd(const pm_pmx_model *m, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err) {
    *out_size = 0;
    if (!m || !m->skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmd: no model");
    pm_result r = check_bones(m->skeleton, err);
    if (r == PM_OK && (m->vertex_count > 0xFFFF || m->morph_count > 254))
        r = refuse(err, 0, "", "more than 65535 vertices or 254 morphs");
    pw w = {NULL, 0, 0};
    if (r == PM_OK) r = write_all(&w, m, err);
    if (r != PM_OK) return r;
    if (out) {
        if (out_cap < w.n) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pmd: %zu bytes needed, %zu given", w.n, out_cap);
        pw o = {out, out_cap, 0};
        write_all(&o, m, err);
    }
    *out_size = w.n;
    return PM_OK;
}
