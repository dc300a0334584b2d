/* PMX 2.0 / 2.1 reader: header, geometry walked and checked, bones, morph names (see pmx.h). */
#include "procmotion/pmx.h"

#include "pmx/pmx_internal.h"
#include "skeleton/skeleton_internal.h"
#include "skeleton/utf.h"

#include <math.h>

typedef struct rd {
    pmi_model_reader m;
    uint8_t encoding, add_uv, vsize, tsize, msize, bsize, morph_size, rsize;
    float version;
    uint32_t vertex_count, index_count, texture_count, material_count, bone_count, morph_count;
} rd;

#define TRY PMI_TRY
#define fail(r, ...) pmi_mr_fail(&(r)->m, __VA_ARGS__)
#define enter(r, ...) pmi_mr_enter(&(r)->m, __VA_ARGS__)
#define get_bytes(r, ...) pmi_mr_take(&(r)->m, __VA_ARGS__)

/* ---- shared with pmd.c (pmx_internal.h) ------------------------------------------------------- */

pm_result pmi_mr_fail(pmi_model_reader *r, pm_result type, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    pmi_vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->index == UINT32_MAX) return pmi_fail(r->err, type, "%s: %s: %s", r->format, r->section, msg);
    return pmi_fail(r->err, type, "%s: %s %u of %u: %s", r->format, r->section, r->index, r->count, msg);
}

void pmi_mr_enter(pmi_model_reader *r, const char *section, uint32_t index, uint32_t count) {
    r->section = section;
    r->index = index;
    r->count = count;
}

pm_result pmi_mr_take(pmi_model_reader *r, size_t n, const uint8_t **p, const char *field) {
    *p = pmi_take(&r->c, n);
    if (*p) return PM_OK;
    return pmi_mr_fail(r, PM_ERR_TRUNCATED, "%s is truncated (needs %zu bytes at offset %zu, %zu left)", field, n,
                       pmi_offset(&r->c), pmi_left(&r->c));
}

pm_result pmi_mr_check_count(pmi_model_reader *r, uint64_t count, size_t min_record, const char *what) {
    if (min_record && count > pmi_left(&r->c) / min_record)
        return pmi_mr_fail(r, PM_ERR_TRUNCATED, "%s %llu needs at least %llu bytes but only %zu are left", what,
                           (unsigned long long)count, (unsigned long long)count * min_record, pmi_left(&r->c));
    return PM_OK;
}

pm_result pmi_mr_run(const char *format, const uint8_t *data, size_t size, const pm_model_read_options *opts,
                     pm_skeleton **out, pm_error *err, pmi_model_read_fn read, void *reader, size_t reader_size) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: out is NULL", format);
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: data is NULL", format);
    if (opts && (unsigned)opts->pmd_knee_limit >= PM_PMD_KNEE_LIMIT_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: pmd_knee_limit %u is not a pm_pmd_knee_limit", format,
                        (unsigned)opts->pmd_knee_limit);
    memset(reader, 0, reader_size);
    pmi_model_reader *r = reader;
    static const uint8_t nothing[1] = {0};
    r->c = pmi_cursor_make(data ? data : nothing, size); /* NULL + 0 is UB in pointer arithmetic */
    r->err = err;
    r->format = format;
    pm_result res = read(r, opts);
    if (res != PM_OK) {
        pm_skeleton_free(r->s);
        return res;
    }
    *out = r->s;
    return PM_OK;
}

pm_result pmi_mr_validate(pmi_model_reader *r, const pm_skeleton *s) {
    pm_result v = pm_skeleton_validate(s, r->err);
    if (v != PM_OK && r->err) {
        char msg[PM_ERROR_MESSAGE_SIZE];
        memcpy(msg, r->err->message, sizeof msg);
        pmi_fail(r->err, v, "%s: %s", r->format, msg);
    }
    return v;
}

/* ---- PMX primitives --------------------------------------------------------------------------- */

static pm_result skip(rd *r, size_t n, const char *field) {
    const uint8_t *p;
    return get_bytes(r, n, &p, field);
}

static pm_result get_u8(rd *r, uint8_t *v, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 1, &p, field));
    *v = p[0];
    return PM_OK;
}

static pm_result get_i32(rd *r, int32_t *v, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 4, &p, field));
    *v = (int32_t)pmi_le32(p);
    return PM_OK;
}

static pm_result get_f32(rd *r, float *v, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 4, &p, field));
    *v = pmi_lef32(p);
    return PM_OK;
}

static pm_result get_vec3(rd *r, pm_vec3 *v, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 12, &p, field));
    v->x = pmi_lef32(p);
    v->y = pmi_lef32(p + 4);
    v->z = pmi_lef32(p + 8);
    return PM_OK;
}

/* A signed index of `size` bytes: -1 -> PM_NO_INDEX, other negatives are an error. */
static pm_result get_index(rd *r, uint8_t size, uint32_t *out, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, size, &p, field));
    int32_t v = size == 1 ? (int8_t)p[0] : size == 2 ? (int16_t)pmi_le16(p) : (int32_t)pmi_le32(p);
    if (v < -1) return fail(r, PM_ERR_BAD_FORMAT, "%s is %d (only -1 may be negative)", field, (int)v);
    *out = v == -1 ? PM_NO_INDEX : (uint32_t)v;
    return PM_OK;
}

/* A vertex index: unsigned for sizes 1 and 2, signed and >= 0 for size 4. */
static pm_result get_vertex_index(rd *r, uint32_t *out, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, r->vsize, &p, field));
    if (r->vsize == 1) *out = p[0];
    else if (r->vsize == 2) *out = pmi_le16(p);
    else {
        int32_t v = (int32_t)pmi_le32(p);
        if (v < 0) return fail(r, PM_ERR_BAD_FORMAT, "%s is negative (%d)", field, (int)v);
        *out = (uint32_t)v;
    }
    if (*out >= r->vertex_count)
        return fail(r, PM_ERR_BAD_FORMAT, "%s %u is out of range (%u vertices)", field, *out, r->vertex_count);
    return PM_OK;
}

/* A signed count whose records take at least min_record bytes each. */
static pm_result get_count(rd *r, size_t min_record, uint32_t *out, const char *what) {
    int32_t v;
    TRY(get_i32(r, &v, what));
    if (v < 0) return fail(r, PM_ERR_BAD_FORMAT, "%s is negative (%d)", what, (int)v);
    TRY(pmi_mr_check_count(&r->m, (uint64_t)v, min_record, what));
    *out = (uint32_t)v;
    return PM_OK;
}

/* A text field: int32 byte length + bytes. Returns a view of the raw bytes. */
static pm_result get_text_raw(rd *r, const uint8_t **p, size_t *n, const char *field) {
    int32_t len;
    TRY(get_i32(r, &len, field));
    if (len < 0) return fail(r, PM_ERR_BAD_FORMAT, "%s has a negative length (%d)", field, (int)len);
    *n = (size_t)len;
    return get_bytes(r, *n, p, field);
}

/* Whether the n stored bytes decoded to `t` without loss (so writing t gives them back): UTF-8 that
 * was valid, UTF-16LE of even length without an unpaired surrogate; neither with a NUL inside. */
static bool text_round_trips(const rd *r, const uint8_t *p, size_t n, const pm_string *t) {
    if (r->encoding == 1) return t->length == n && memcmp(t->data, p, n) == 0;
    if (n % 2) return false;
    for (size_t i = 0; i < n; i += 2) {
        const uint32_t u = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8;
        if (u == 0 || (u >= 0xDC00 && u <= 0xDFFF)) return false;
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (n - i < 4) return false;
            const uint32_t v = (uint32_t)p[i + 2] | (uint32_t)p[i + 3] << 8;
            if (v < 0xDC00 || v > 0xDFFF) return false;
            i += 2;
        }
    }
    return true;
}

/* Decode raw PMX text into the skeleton; a text whose stored bytes its UTF-8 does not give back keeps
 * them (pm_model_raw_text). */
static pm_result decode_text(rd *r, const uint8_t *p, size_t n, pm_string *dst) {
    size_t len = r->encoding == 0 ? pmi_utf16le_to_utf8(p, n, NULL, 0) : pmi_utf8_sanitize(p, n, NULL, 0);
    char *buf;
    TRY(pmi_skeleton_string_buffer(r->m.s, dst, len, &buf, r->m.err));
    if (r->encoding == 0) pmi_utf16le_to_utf8(p, n, buf, len);
    else pmi_utf8_sanitize(p, n, buf, len);
    dst->length = (uint32_t)strlen(buf); /* a NUL ends the text (C strings, JSON and lookups agree) */
    if (!text_round_trips(r, p, n, dst)) TRY(pmi_skeleton_keep_raw(r->m.s, dst, r->encoding, p, n, r->m.err));
    return PM_OK;
}

static pm_result get_text(rd *r, pm_string *dst, const char *field) {
    const uint8_t *p = NULL;
    size_t n = 0;
    TRY(get_text_raw(r, &p, &n, field));
    return dst ? decode_text(r, p, n, dst) : PM_OK;
}

/* ---- header ----------------------------------------------------------------------------------- */

static pm_result read_header(rd *r, const uint8_t *text[4], size_t text_len[4]) {
    enter(r, "header", UINT32_MAX, 0);
    const uint8_t *p;
    TRY(get_bytes(r, 4, &p, "magic"));
    if (memcmp(p, "PMX ", 4) != 0) return fail(r, PM_ERR_BAD_FORMAT, "magic is not \"PMX \"");
    TRY(get_f32(r, &r->version, "version"));
    if (!(r->version > 1.99f && r->version < 2.11f))
        return fail(r, PM_ERR_BAD_FORMAT, "version %g is not 2.0 or 2.1", (double)r->version);
    uint8_t nglobals;
    TRY(get_u8(r, &nglobals, "globals count"));
    if (nglobals < 8) return fail(r, PM_ERR_BAD_FORMAT, "globals count %u is less than 8", nglobals);
    const uint8_t *g;
    TRY(get_bytes(r, nglobals, &g, "globals"));
    r->encoding = g[0];
    r->add_uv = g[1];
    r->vsize = g[2];
    r->tsize = g[3];
    r->msize = g[4];
    r->bsize = g[5];
    r->morph_size = g[6];
    r->rsize = g[7];
    if (r->encoding > 1) return fail(r, PM_ERR_BAD_FORMAT, "text encoding %u is neither 0 (UTF-16LE) nor 1 (UTF-8)", r->encoding);
    if (r->add_uv > 4) return fail(r, PM_ERR_BAD_FORMAT, "additional UV count %u is more than 4", r->add_uv);
    static const char *const names[6] = {"vertex", "texture", "material", "bone", "morph", "rigid body"};
    for (int i = 0; i < 6; i++)
        if (g[2 + i] != 1 && g[2 + i] != 2 && g[2 + i] != 4)
            return fail(r, PM_ERR_BAD_FORMAT, "%s index size %u is not 1, 2 or 4", names[i], g[2 + i]);
    static const char *const fields[4] = {"model name", "English model name", "comment", "English comment"};
    for (int i = 0; i < 4; i++) TRY(get_text_raw(r, &text[i], &text_len[i], fields[i]));
    return PM_OK;
}

/* ---- geometry (walked and checked, not kept) -------------------------------------------------- */

static pm_result read_vertices(rd *r, uint32_t *max_bone, uint32_t *max_bone_vertex) {
    enter(r, "vertices", UINT32_MAX, 0);
    size_t fixed = 32u + 16u * r->add_uv; /* position, normal, uv, additional uvs */
    TRY(get_count(r, fixed + 1 + r->bsize + 4, &r->vertex_count, "vertex count"));
    *max_bone = 0;
    *max_bone_vertex = PM_NO_INDEX;
    for (uint32_t i = 0; i < r->vertex_count; i++) {
        enter(r, "vertex", i, r->vertex_count);
        uint8_t type;
        TRY(skip(r, fixed, "position/normal/uv"));
        TRY(get_u8(r, &type, "weight type"));
        int bones;
        size_t extra;
        switch (type) {
        case 0: bones = 1, extra = 0; break;       /* BDEF1 */
        case 1: bones = 2, extra = 4; break;       /* BDEF2: weight */
        case 2: bones = 4, extra = 16; break;      /* BDEF4: 4 weights */
        case 3: bones = 2, extra = 4 + 36; break;  /* SDEF: weight, C, R0, R1 */
        case 4:                                    /* QDEF (2.1) */
            if (r->version < 2.05f) return fail(r, PM_ERR_BAD_FORMAT, "weight type 4 (QDEF) needs PMX 2.1");
            bones = 4, extra = 16;
            break;
        default: return fail(r, PM_ERR_BAD_FORMAT, "weight type %u is not 0..4", type);
        }
        for (int k = 0; k < bones; k++) {
            uint32_t b = PM_NO_INDEX;
            TRY(get_index(r, r->bsize, &b, "weight bone index"));
            if (b != PM_NO_INDEX && (*max_bone_vertex == PM_NO_INDEX || b > *max_bone)) {
                *max_bone = b;
                *max_bone_vertex = i;
            }
        }
        TRY(skip(r, extra + 4, "weights/edge scale"));
    }
    return PM_OK;
}

static pm_result read_faces(rd *r) {
    enter(r, "faces", UINT32_MAX, 0);
    TRY(get_count(r, r->vsize, &r->index_count, "face index count"));
    if (r->index_count % 3) return fail(r, PM_ERR_BAD_FORMAT, "%u face indices is not a multiple of 3", r->index_count);
    for (uint32_t i = 0; i < r->index_count; i++) {
        enter(r, "face index", i, r->index_count);
        uint32_t v;
        TRY(get_vertex_index(r, &v, "vertex index"));
    }
    return PM_OK;
}

static pm_result read_textures(rd *r) {
    enter(r, "textures", UINT32_MAX, 0);
    TRY(get_count(r, 4, &r->texture_count, "texture count"));
    for (uint32_t i = 0; i < r->texture_count; i++) {
        enter(r, "texture", i, r->texture_count);
        TRY(get_text(r, NULL, "path"));
    }
    return PM_OK;
}

static pm_result check_texture(rd *r, uint32_t t, const char *field) {
    if (t != PM_NO_INDEX && t >= r->texture_count)
        return fail(r, PM_ERR_BAD_FORMAT, "%s %u is out of range (%u textures)", field, t, r->texture_count);
    return PM_OK;
}

static pm_result read_materials(rd *r) {
    enter(r, "materials", UINT32_MAX, 0);
    /* names 8, colours 44, flags 1, edge 20, textures 2*tsize, sphere mode 1, toon flag 1, toon >= 1,
     * memo 4, face count 4 */
    TRY(get_count(r, 8 + 44 + 1 + 20 + 2u * r->tsize + 1 + 1 + 1 + 4 + 4, &r->material_count, "material count"));
    uint64_t faces = 0;
    for (uint32_t i = 0; i < r->material_count; i++) {
        enter(r, "material", i, r->material_count);
        uint32_t tex, sphere, toon;
        uint8_t mode, toon_flag;
        int32_t nfaces;
        TRY(get_text(r, NULL, "name"));
        TRY(get_text(r, NULL, "English name"));
        TRY(skip(r, 44 + 1 + 20, "colours/flags/edge"));
        TRY(get_index(r, r->tsize, &tex, "texture index"));
        TRY(check_texture(r, tex, "texture index"));
        TRY(get_index(r, r->tsize, &sphere, "sphere texture index"));
        TRY(check_texture(r, sphere, "sphere texture index"));
        TRY(get_u8(r, &mode, "sphere mode"));
        if (mode > 3) return fail(r, PM_ERR_BAD_FORMAT, "sphere mode %u is not 0..3", mode);
        TRY(get_u8(r, &toon_flag, "toon flag"));
        if (toon_flag > 1) return fail(r, PM_ERR_BAD_FORMAT, "toon flag %u is not 0 or 1", toon_flag);
        if (toon_flag == 0) {
            TRY(get_index(r, r->tsize, &toon, "toon texture index"));
            TRY(check_texture(r, toon, "toon texture index"));
        } else {
            uint8_t shared;
            TRY(get_u8(r, &shared, "shared toon index"));
        }
        TRY(get_text(r, NULL, "memo"));
        TRY(get_i32(r, &nfaces, "face index count"));
        if (nfaces < 0) return fail(r, PM_ERR_BAD_FORMAT, "face index count is negative (%d)", (int)nfaces);
        faces += (uint32_t)nfaces;
        if (faces > r->index_count)
            return fail(r, PM_ERR_BAD_FORMAT, "materials draw %llu face indices but the model has %u",
                        (unsigned long long)faces, r->index_count);
    }
    return PM_OK;
}

/* ---- bones ------------------------------------------------------------------------------------ */

static pm_result read_bone(rd *r, pm_bone *b) {
    int32_t order;
    const uint8_t *p;
    TRY(get_text(r, &b->name, "name"));
    TRY(get_text(r, &b->name_en, "English name"));
    TRY(get_vec3(r, &b->position, "position"));
    TRY(get_index(r, r->bsize, &b->parent, "parent index"));
    TRY(get_i32(r, &order, "transform order"));
    b->transform_order = order;
    TRY(get_bytes(r, 2, &p, "flags"));
    b->flags = pmi_le16(p);
    if (b->flags & PM_BONE_TAIL_IS_BONE) TRY(get_index(r, r->bsize, &b->tail_bone, "tail bone index"));
    else TRY(get_vec3(r, &b->tail_offset, "tail offset"));
    if (b->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) {
        TRY(get_index(r, r->bsize, &b->append_parent, "append parent index"));
        TRY(get_f32(r, &b->append_ratio, "append ratio"));
    }
    if (b->flags & PM_BONE_FIXED_AXIS) TRY(get_vec3(r, &b->fixed_axis, "fixed axis"));
    if (b->flags & PM_BONE_LOCAL_AXES) {
        TRY(get_vec3(r, &b->local_x, "local X axis"));
        TRY(get_vec3(r, &b->local_z, "local Z axis"));
    }
    if (b->flags & PM_BONE_EXTERNAL_PARENT) TRY(get_i32(r, &b->external_parent_key, "external parent key"));
    if (!(b->flags & PM_BONE_IK)) return PM_OK;
    pm_ik *ik = &b->ik;
    int32_t loops;
    b->has_ik = true;
    TRY(get_index(r, r->bsize, &ik->target, "IK target index"));
    TRY(get_i32(r, &loops, "IK loop count"));
    if (loops < 0) return fail(r, PM_ERR_BAD_FORMAT, "IK loop count is negative (%d)", (int)loops);
    ik->loop_count = (uint32_t)loops;
    TRY(get_f32(r, &ik->limit_angle, "IK limit angle"));
    TRY(get_count(r, r->bsize + 1u, &ik->link_count, "IK link count"));
    if (!ik->link_count) return PM_OK;
    ik->links = pmi_skeleton_arena_alloc(r->m.s, (size_t)ik->link_count * sizeof(pm_ik_link), r->m.err);
    if (!ik->links) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < ik->link_count; k++) {
        pm_ik_link *l = &ik->links[k];
        uint8_t has_limit;
        TRY(get_index(r, r->bsize, &l->bone, "IK link bone index"));
        if (l->bone == PM_NO_INDEX) return fail(r, PM_ERR_BAD_FORMAT, "IK link %u names no bone (-1)", k);
        TRY(get_u8(r, &has_limit, "IK link limit flag"));
        if (has_limit > 1) return fail(r, PM_ERR_BAD_FORMAT, "IK link %u limit flag %u is not 0 or 1", k, has_limit);
        l->has_limit = has_limit;
        if (has_limit) {
            TRY(get_vec3(r, &l->limit_min, "IK link lower limit"));
            TRY(get_vec3(r, &l->limit_max, "IK link upper limit"));
        }
    }
    return PM_OK;
}

/* ---- morphs ----------------------------------------------------------------------------------- */

static pm_result read_morph_offsets(rd *r, uint8_t type, uint32_t n) {
    for (uint32_t k = 0; k < n; k++) {
        uint32_t idx;
        switch (type) {
        case 0: /* group */
        case 9: /* flip (2.1) */
            TRY(get_index(r, r->morph_size, &idx, "offset morph index"));
            if (idx == PM_NO_INDEX || idx >= r->morph_count)
                return fail(r, PM_ERR_BAD_FORMAT, "offset %u names morph %d (%u morphs)", k,
                            idx == PM_NO_INDEX ? -1 : (int)idx, r->morph_count);
            TRY(skip(r, 4, "offset weight"));
            break;
        case 1: /* vertex */
            TRY(get_vertex_index(r, &idx, "offset vertex index"));
            TRY(skip(r, 12, "offset translation"));
            break;
        case 2: /* bone */
            TRY(get_index(r, r->bsize, &idx, "offset bone index"));
            if (idx != PM_NO_INDEX && idx >= r->bone_count)
                return fail(r, PM_ERR_BAD_FORMAT, "offset %u names bone %u (%u bones)", k, idx, r->bone_count);
            TRY(skip(r, 28, "offset translation/rotation"));
            break;
        case 3: case 4: case 5: case 6: case 7: /* UV, additional UV 1..4 */
            TRY(get_vertex_index(r, &idx, "offset vertex index"));
            TRY(skip(r, 16, "offset UV"));
            break;
        case 8: { /* material */
            uint8_t op;
            TRY(get_index(r, r->msize, &idx, "offset material index"));
            if (idx != PM_NO_INDEX && idx >= r->material_count)
                return fail(r, PM_ERR_BAD_FORMAT, "offset %u names material %u (%u materials)", k, idx,
                            r->material_count);
            TRY(get_u8(r, &op, "offset operation"));
            if (op > 1) return fail(r, PM_ERR_BAD_FORMAT, "offset %u operation %u is not 0 or 1", k, op);
            TRY(skip(r, 112, "offset colours"));
            break;
        }
        case 10: /* impulse (2.1): rigid body, local flag, velocity, torque */
            TRY(get_index(r, r->rsize, &idx, "offset rigid body index"));
            TRY(skip(r, 25, "offset impulse"));
            break;
        default: return fail(r, PM_ERR_BAD_FORMAT, "morph type %u is not 0..10", type);
        }
    }
    return PM_OK;
}

static size_t morph_offset_min(const rd *r, uint8_t type) {
    switch (type) {
    case 0: case 9: return r->morph_size + 4u;
    case 1: return r->vsize + 12u;
    case 2: return r->bsize + 28u;
    case 8: return r->msize + 113u;
    case 10: return r->rsize + 25u;
    default: return r->vsize + 16u;
    }
}

static pm_result read_morphs(rd *r, uint32_t max_morphs) {
    enter(r, "morphs", UINT32_MAX, 0);
    TRY(get_count(r, 8 + 1 + 1 + 4, &r->morph_count, "morph count"));
    if (r->morph_count > max_morphs)
        return fail(r, PM_ERR_LIMIT, "%u morphs is more than the limit of %u", r->morph_count, max_morphs);
    TRY(pmi_skeleton_set_morph_count(r->m.s, r->morph_count, true, r->m.err));
    for (uint32_t i = 0; i < r->morph_count; i++) {
        enter(r, "morph", i, r->morph_count);
        uint8_t panel, type;
        uint32_t n;
        TRY(get_text(r, &r->m.s->morph_names[i], "name"));
        TRY(get_text(r, NULL, "English name"));
        TRY(get_u8(r, &panel, "panel"));
        TRY(get_u8(r, &type, "type"));
        if (type > 10) return fail(r, PM_ERR_BAD_FORMAT, "morph type %u is not 0..10", type);
        if (type >= 4 && type <= 7 && type - 3 > r->add_uv)
            return fail(r, PM_ERR_BAD_FORMAT, "morph type %u uses additional UV %u but the model declares %u", type,
                        type - 3, r->add_uv);
        r->m.s->morph_panel[i] = panel;
        TRY(get_count(r, morph_offset_min(r, type), &n, "offset count"));
        TRY(read_morph_offsets(r, type, n));
    }
    return PM_OK;
}

/* ---- entry point ------------------------------------------------------------------------------ */

static pm_result read_pmx(rd *r, const pm_model_read_options *o) {
    const uint8_t *text[4];
    size_t text_len[4];
    uint32_t max_bone, max_bone_vertex;
    TRY(read_header(r, text, text_len));
    TRY(read_vertices(r, &max_bone, &max_bone_vertex));
    TRY(read_faces(r));
    TRY(read_textures(r));
    TRY(read_materials(r));

    enter(r, "bones", UINT32_MAX, 0);
    size_t min_bone = 8 + 12 + r->bsize + 4 + 2 + (r->bsize < 12 ? r->bsize : 12);
    TRY(get_count(r, min_bone, &r->bone_count, "bone count"));
    uint32_t max_bones = o && o->max_bones ? o->max_bones : 65536u;
    if (r->bone_count > max_bones)
        return fail(r, PM_ERR_LIMIT, "%u bones is more than the limit of %u", r->bone_count, max_bones);
    r->m.s = pmi_skeleton_new(o ? &o->allocator : NULL, r->bone_count, 0, r->m.err);
    if (!r->m.s) return PM_ERR_OUT_OF_MEMORY;
    pm_skeleton *s = r->m.s;
    TRY(decode_text(r, text[0], text_len[0], &s->model_name));
    TRY(decode_text(r, text[1], text_len[1], &s->model_name_en));
    TRY(decode_text(r, text[2], text_len[2], &s->source.model_comment));
    TRY(decode_text(r, text[3], text_len[3], &s->source.model_comment_en));
    for (uint32_t i = 0; i < r->bone_count; i++) {
        enter(r, "bone", i, r->bone_count);
        TRY(read_bone(r, &s->bones[i]));
    }
    if (max_bone_vertex != PM_NO_INDEX && max_bone >= r->bone_count) {
        enter(r, "vertex", max_bone_vertex, r->vertex_count);
        return fail(r, PM_ERR_BAD_FORMAT, "weight names bone %u (%u bones)", max_bone, r->bone_count);
    }
    TRY(read_morphs(r, o && o->max_morphs ? o->max_morphs : 65536u));

    s->source.format = PM_MODEL_FORMAT_PMX;
    s->source.version = r->version;
    s->source.encoding = r->encoding;
    s->source.additional_uv = r->add_uv;
    s->source.vertex_count = r->vertex_count;
    s->source.face_count = r->index_count / 3;
    s->source.texture_count = r->texture_count;
    s->source.material_count = r->material_count;
    return pmi_mr_validate(&r->m, s);
}

static pm_result read_pmx_entry(pmi_model_reader *m, const pm_model_read_options *o) { return read_pmx((rd *)m, o); }

pm_result pm_pmx_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                      pm_error *err) {
    rd r;
    return pmi_mr_run("pmx", data, size, opts, out, err, read_pmx_entry, &r, sizeof r);
}

const pm_string *pm_model_text_of(const pm_skeleton *s, pm_model_text which, uint32_t index) {
    if (!s) return NULL;
    switch (which) {
    case PM_MODEL_TEXT_MODEL_NAME: return &s->model_name;
    case PM_MODEL_TEXT_MODEL_NAME_EN: return &s->model_name_en;
    case PM_MODEL_TEXT_COMMENT: return &s->source.model_comment;
    case PM_MODEL_TEXT_COMMENT_EN: return &s->source.model_comment_en;
    case PM_MODEL_TEXT_BONE_NAME: return index < s->bone_count ? &s->bones[index].name : NULL;
    case PM_MODEL_TEXT_BONE_NAME_EN: return index < s->bone_count ? &s->bones[index].name_en : NULL;
    case PM_MODEL_TEXT_MORPH_NAME: return index < s->morph_count && s->morph_names ? &s->morph_names[index] : NULL;
    default: return NULL;
    }
}

bool pm_model_raw_text(const pm_skeleton *s, pm_model_text which, uint32_t index, const uint8_t **bytes,
                       size_t *size, uint8_t *encoding) {
    const pm_string *owner = pm_model_text_of(s, which, index);
    size_t n = 0;
    uint8_t e = 0;
    const uint8_t *raw = owner ? pmi_skeleton_raw(s, owner, &e, &n) : NULL;
    if (!raw) return false;
    if (bytes) *bytes = raw;
    if (size) *size = n;
    if (encoding) *encoding = e;
    return true;
}
