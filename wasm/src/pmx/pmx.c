/* PMX 2.0 / 2.1 reader: header, geometry walked and checked, bones, morph names (see pmx.h). */
#include "procmotion/pmx.h"

#include "pmx/pmx_internal.h"
#include "skeleton/build.h"
#include "text/utf.h"

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

pm_result pmi_mr_check_index(pmi_model_reader *r, uint32_t idx, uint32_t count, const char *field, const char *things) {
    if (idx == PM_NO_INDEX || idx < count) return PM_OK;
    return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "%s %u is out of range (%u %s)", field, idx, count, things);
}

pm_result pmi_mr_check_max(pmi_model_reader *r, uint32_t v, uint32_t max, const char *field, const char *allowed) {
    if (v <= max) return PM_OK;
    return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "%s %u is not %s", field, v, allowed);
}

pm_result pmi_mr_fail_names(pmi_model_reader *r, const char *what, uint32_t k, const char *thing, uint32_t idx,
                            uint32_t count) {
    return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "%s %u names %s %d (%u %ss)", what, k, thing, (int)idx, count, thing);
}

pm_result pmi_mr_check_limit(pmi_model_reader *r, uint32_t n, uint32_t limit, const char *things) {
    if (n <= limit) return PM_OK;
    return pmi_mr_fail(r, PM_ERR_LIMIT, "%u %s is more than the limit of %u", n, things, limit);
}

pm_result pmi_mr_face_count(pmi_model_reader *r, uint32_t n) {
    if (n % 3) return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "%u face indices is not a multiple of 3", n);
    return r->model ? pmi_mr_check_limit(r, n, pmi_model_max_indices(r), "face indices") : PM_OK;
}

pm_result pmi_mr_material_faces(pmi_model_reader *r, uint64_t *drawn, uint32_t n, uint32_t total) {
    if (r->model && n % 3) return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "face index count %u is not a multiple of 3", n);
    *drawn += n;
    if (*drawn > total)
        return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "materials draw %llu face indices but the model has %u",
                           (unsigned long long)*drawn, total);
    return PM_OK;
}

pm_result pmi_mr_check_weights(pmi_model_reader *r, uint32_t max_bone, uint32_t max_bone_vertex, uint32_t vertex_count,
                               uint32_t bone_count) {
    if (max_bone_vertex == PM_NO_INDEX || max_bone < bone_count) return PM_OK;
    pmi_mr_enter(r, "vertex", max_bone_vertex, vertex_count);
    return pmi_mr_fail(r, PM_ERR_BAD_FORMAT, "weight names bone %u (%u bones)", max_bone, bone_count);
}

pm_result pmi_mr_check_count(pmi_model_reader *r, uint64_t count, size_t min_record, const char *what) {
    if (min_record && count > pmi_left(&r->c) / min_record)
        return pmi_mr_fail(r, PM_ERR_TRUNCATED, "%s %llu needs at least %llu bytes but only %zu are left", what,
                           (unsigned long long)count, (unsigned long long)count * min_record, pmi_left(&r->c));
    return PM_OK;
}

static pm_result mr_run(const char *format, const uint8_t *data, size_t size, const pm_model_read_options *opts,
                        const pm_model_load_options *load, pm_skeleton **out, pm_model *model, pm_error *err, pmi_model_read_fn read, void *reader,
                        size_t reader_size) {
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
    r->model = model;
    r->load = load;
    pm_result res = read(r, opts);
    if (res != PM_OK) {
        pm_skeleton_free(r->s);
        return res;
    }
    *out = r->s;
    return PM_OK;
}

pm_result pmi_mr_run(const char *format, const uint8_t *data, size_t size, const pm_model_read_options *opts,
                     pm_skeleton **out, pm_error *err, pmi_model_read_fn read, void *reader, size_t reader_size) {
    return mr_run(format, data, size, opts, NULL, out, NULL, err, read, reader, reader_size);
}

pm_result pmi_mr_run_model(const char *format, const uint8_t *data, size_t size, const pm_model_load_options *opts,
                           pm_model *model, pm_error *err, pmi_model_read_fn read, void *reader, size_t reader_size) {
    return mr_run(format, data, size, opts ? &opts->read : NULL, opts, &model->skeleton, model, err, read, reader,
                  reader_size);
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

void pmi_le32s(void *dst, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u = pmi_le32(p + 4 * i);
        memcpy((uint8_t *)dst + 4 * i, &u, 4);
    }
}

/* ---- PMX primitives --------------------------------------------------------------------------- */

static pm_result get_u8(rd *r, uint8_t *v, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 1, &p, field));
    *v = p[0];
    return PM_OK;
}

/* A byte that is at most max ("<field> %u is not <allowed>"). */
static pm_result get_u8_max(rd *r, uint8_t *v, uint8_t max, const char *field, const char *allowed) {
    TRY(get_u8(r, v, field));
    return pmi_mr_check_max(&r->m, *v, max, field, allowed);
}

/* n 32-bit words into dst (floats or integers: an array or a run of a struct's fields, pmi_le32s). */
static pm_result get_words(rd *r, void *dst, size_t n, const char *field) {
    const uint8_t *p;
    TRY(get_bytes(r, 4 * n, &p, field));
    pmi_le32s(dst, p, n);
    return PM_OK;
}
/* the typed forms (the compiler checks the destination's type; one routine reads them) */
static pm_result get_i32(rd *r, int32_t *v, const char *field) { return get_words(r, v, 1, field); }
static pm_result get_f32(rd *r, float *v, const char *field) { return get_words(r, v, 1, field); }
static pm_result get_vec3(rd *r, pm_vec3 *v, const char *field) { return get_words(r, v, 3, field); }

/* A signed 32-bit number that may not be negative ("<field> is negative (%d)"). */
static pm_result check_not_negative(rd *r, int32_t v, const char *field) {
    return v < 0 ? fail(r, PM_ERR_BAD_FORMAT, "%s is negative (%d)", field, (int)v) : PM_OK;
}
static pm_result get_not_negative(rd *r, uint32_t *out, const char *field) {
    int32_t v;
    TRY(get_i32(r, &v, field));
    TRY(check_not_negative(r, v, field));
    *out = (uint32_t)v;
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
        TRY(check_not_negative(r, (int32_t)pmi_le32(p), field));
        *out = pmi_le32(p);
    }
    return pmi_mr_check_index(&r->m, *out, r->vertex_count, field, "vertices"); /* never PM_NO_INDEX here */
}

/* A signed count whose records take at least min_record bytes each. */
static pm_result get_count(rd *r, size_t min_record, uint32_t *out, const char *what) {
    TRY(get_not_negative(r, out, what));
    return pmi_mr_check_count(&r->m, *out, min_record, what);
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

/* Decode raw PMX text into the skeleton (model false) or a model string (pm_model_load); dst->length is
 * the text up to the first NUL (C strings, JSON and lookups agree). A skeleton text whose stored bytes
 * its UTF-8 does not give back keeps them (pm_model_raw_text). */
static pm_result decode_text_to(rd *r, const uint8_t *p, size_t n, pm_string *dst, bool model) {
    size_t len = r->encoding == 0 ? pmi_utf16le_to_utf8(p, n, NULL, 0) : pmi_utf8_sanitize(p, n, NULL, 0);
    char *buf;
    TRY(model ? pmi_model_string_buffer(&r->m, dst, len, &buf)
              : pmi_skeleton_string_buffer(r->m.s, dst, len, &buf, r->m.err));
    if (r->encoding == 0) pmi_utf16le_to_utf8(p, n, buf, len);
    else pmi_utf8_sanitize(p, n, buf, len);
    dst->length = (uint32_t)strlen(buf);
    if (!model && !text_round_trips(r, p, n, dst)) TRY(pmi_skeleton_keep_raw(r->m.s, dst, r->encoding, p, n, r->m.err));
    return PM_OK;
}
#define decode_text(r, p, n, dst) decode_text_to((r), (p), (n), (dst), false)

/* A text field decoded into the skeleton (model false), or kept in the model (pm_model_load) or skipped. */
static pm_result read_text(rd *r, pm_string *dst, const char *field, bool model) {
    const uint8_t *p = NULL;
    size_t n = 0;
    TRY(get_text_raw(r, &p, &n, field));
    return model && !r->m.model ? PM_OK : decode_text_to(r, p, n, dst, model);
}
#define get_text(r, dst, field) read_text((r), (dst), (field), false)
#define get_model_text(r, dst, field) read_text((r), (dst), (field), true)

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

/* ---- geometry (walked and checked; kept by pm_model_load) -------------------------------------- */

#define MODEL(r) ((r)->m.model)

static pm_result read_vertices(rd *r, uint32_t *max_bone, uint32_t *max_bone_vertex) {
    enter(r, "vertices", UINT32_MAX, 0);
    size_t fixed = 32u + 16u * r->add_uv; /* position, normal, uv, additional uvs */
    TRY(get_count(r, fixed + 1 + r->bsize + 4, &r->vertex_count, "vertex count"));
    *max_bone = 0;
    *max_bone_vertex = PM_NO_INDEX;
    pm_model *m = MODEL(r);
    if (m) {
        TRY(pmi_mr_check_limit(&r->m, r->vertex_count, pmi_model_max_vertices(&r->m), "vertices"));
        if (!(m->vertices = pmi_model_array(&r->m, r->vertex_count, sizeof *m->vertices, "pmx vertices")))
            return PM_ERR_OUT_OF_MEMORY;
        m->vertex_count = r->vertex_count;
        m->additional_uv_count = r->add_uv;
        if (r->add_uv && !(m->additional_uv = pmi_model_array(&r->m, (size_t)r->vertex_count * r->add_uv, 16,
                                                               "pmx additional UVs")))
            return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < r->vertex_count; i++) {
        enter(r, "vertex", i, r->vertex_count);
        uint8_t type;
        const uint8_t *p;
        pm_model_vertex tmp, *v = m ? &m->vertices[i] : &tmp; /* the model's are zeroed */
        TRY(get_bytes(r, fixed, &p, "position/normal/uv"));
        pmi_le32s(&v->position, p, 8); /* position, normal, uv */
        if (m && r->add_uv) pmi_le32s(m->additional_uv + (size_t)i * 4 * r->add_uv, p + 32, 4u * r->add_uv);
        TRY(get_u8(r, &type, "weight type"));
        int bones;
        switch (type) {
        case 0: bones = 1; break; /* BDEF1 */
        case 1: bones = 2; break; /* BDEF2: weight */
        case 2: bones = 4; break; /* BDEF4: 4 weights */
        case 3: bones = 2; break; /* SDEF: weight, C, R0, R1 */
        case 4:                   /* QDEF (2.1) */
            if (r->version < 2.05f) return fail(r, PM_ERR_BAD_FORMAT, "weight type 4 (QDEF) needs PMX 2.1");
            bones = 4;
            break;
        default: return fail(r, PM_ERR_BAD_FORMAT, "weight type %u is not 0..4", type);
        }
        for (int k = 0; k < 4; k++) v->bone[k] = PM_NO_INDEX;
        for (int k = 0; k < bones; k++) {
            uint32_t b = PM_NO_INDEX;
            TRY(get_index(r, r->bsize, &b, "weight bone index"));
            v->bone[k] = b;
            if (b != PM_NO_INDEX && (*max_bone_vertex == PM_NO_INDEX || b > *max_bone)) {
                *max_bone = b;
                *max_bone_vertex = i;
            }
        }
        v->weight[0] = 1; /* BDEF1 */
        if (type == 1 || type == 3) {
            TRY(get_f32(r, &v->weight[0], "weight"));
            v->weight[1] = 1.0f - v->weight[0];
        } else if (type == 2 || type == 4) TRY(get_words(r, v->weight, 4, "weights"));
        if (type == 3) TRY(get_words(r, &v->sdef_c, 9, "SDEF C/R0/R1")); /* sdef_c, sdef_r0, sdef_r1 */
        TRY(get_f32(r, &v->edge_scale, "edge scale"));
        v->weight_type = type;
    }
    return PM_OK;
}

static pm_result read_faces(rd *r) {
    enter(r, "faces", UINT32_MAX, 0);
    TRY(get_count(r, r->vsize, &r->index_count, "face index count"));
    TRY(pmi_mr_face_count(&r->m, r->index_count));
    pm_model *m = MODEL(r);
    if (m) {
        if (!(m->indices = pmi_model_array(&r->m, r->index_count, sizeof *m->indices, "pmx face indices")))
            return PM_ERR_OUT_OF_MEMORY;
        m->index_count = r->index_count;
    }
    for (uint32_t i = 0; i < r->index_count; i++) {
        enter(r, "face index", i, r->index_count);
        uint32_t v = 0;
        TRY(get_vertex_index(r, &v, "vertex index"));
        if (m) m->indices[i] = v;
    }
    return PM_OK;
}

static pm_result read_textures(rd *r) {
    enter(r, "textures", UINT32_MAX, 0);
    TRY(get_count(r, 4, &r->texture_count, "texture count"));
    pm_model *m = MODEL(r);
    if (m) {
        if (!(m->textures = pmi_model_array(&r->m, r->texture_count, sizeof *m->textures, "pmx textures")))
            return PM_ERR_OUT_OF_MEMORY;
        m->texture_count = r->texture_count;
    }
    for (uint32_t i = 0; i < r->texture_count; i++) {
        enter(r, "texture", i, r->texture_count);
        TRY(get_model_text(r, m ? &m->textures[i] : NULL, "path"));
    }
    return PM_OK;
}

/* A texture index (-1: none) that names one of the textures. */
static pm_result get_texture_index(rd *r, uint32_t *t, const char *field) {
    TRY(get_index(r, r->tsize, t, field));
    return pmi_mr_check_index(&r->m, *t, r->texture_count, field, "textures");
}

static pm_result read_materials(rd *r) {
    enter(r, "materials", UINT32_MAX, 0);
    /* names 8, colours 44, flags 1, edge 20, textures 2*tsize, sphere mode 1, toon flag 1, toon >= 1,
     * memo 4, face count 4 */
    TRY(get_count(r, 8 + 44 + 1 + 20 + 2u * r->tsize + 1 + 1 + 1 + 4 + 4, &r->material_count, "material count"));
    pm_model *m = MODEL(r);
    if (m) {
        if (!(m->materials = pmi_model_array(&r->m, r->material_count, sizeof *m->materials, "pmx materials")))
            return PM_ERR_OUT_OF_MEMORY;
        m->material_count = r->material_count;
    }
    uint64_t faces = 0;
    for (uint32_t i = 0; i < r->material_count; i++) {
        enter(r, "material", i, r->material_count);
        pm_model_material tmp, *mat = m ? &m->materials[i] : &tmp;
        uint8_t mode, toon_flag;
        uint32_t nfaces;
        TRY(get_model_text(r, &mat->name, "name"));
        TRY(get_model_text(r, &mat->name_en, "English name"));
        TRY(get_words(r, mat->diffuse, 11, "colours"));
        TRY(get_u8(r, &mat->flags, "flags"));
        TRY(get_words(r, mat->edge_color, 5, "edge"));
        TRY(get_texture_index(r, &mat->texture, "texture index"));
        TRY(get_texture_index(r, &mat->sphere_texture, "sphere texture index"));
        TRY(get_u8_max(r, &mode, 3, "sphere mode", "0..3"));
        mat->sphere_mode = mode;
        TRY(get_u8_max(r, &toon_flag, 1, "toon flag", "0 or 1"));
        mat->shared_toon = toon_flag == 1;
        if (toon_flag == 0) {
            TRY(get_texture_index(r, &mat->toon, "toon texture index"));
        } else {
            uint8_t shared;
            TRY(get_u8(r, &shared, "shared toon index"));
            mat->toon = shared;
        }
        TRY(get_model_text(r, &mat->memo, "memo"));
        TRY(get_not_negative(r, &nfaces, "face index count"));
        mat->index_start = (uint32_t)faces;
        mat->index_count = nfaces;
        TRY(pmi_mr_material_faces(&r->m, &faces, nfaces, r->index_count));
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
    b->has_ik = true;
    TRY(get_index(r, r->bsize, &ik->target, "IK target index"));
    TRY(get_not_negative(r, &ik->loop_count, "IK loop count"));
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

static pm_result read_morph_offsets(rd *r, uint8_t type, uint32_t n, pm_model_morph *mm) {
    if (mm) {
        mm->offset_count = n;
        if (type == PM_MORPH_MATERIAL)
            mm->material_offsets = pmi_model_array(&r->m, n, sizeof *mm->material_offsets, "pmx morph offsets");
        else mm->offsets = pmi_model_array(&r->m, n, sizeof *mm->offsets, "pmx morph offsets");
        if (!mm->offsets && !mm->material_offsets) return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t idx;
        pm_model_morph_offset tmp, *o = mm && mm->offsets ? &mm->offsets[k] : &tmp;
        switch (type) {
        case 0: /* group */
        case 9: /* flip (2.1) */
            TRY(get_index(r, r->morph_size, &idx, "offset morph index"));
            if (idx == PM_NO_INDEX || idx >= r->morph_count) return pmi_mr_fail_names(&r->m, "offset", k, "morph", idx, r->morph_count);
            TRY(get_words(r, o->value, 1, "offset weight"));
            break;
        case 1: /* vertex */
            TRY(get_vertex_index(r, &idx, "offset vertex index"));
            TRY(get_words(r, o->value, 3, "offset translation"));
            break;
        case 2: /* bone */
            TRY(get_index(r, r->bsize, &idx, "offset bone index"));
            if (idx != PM_NO_INDEX && idx >= r->bone_count) return pmi_mr_fail_names(&r->m, "offset", k, "bone", idx, r->bone_count);
            TRY(get_words(r, o->value, 7, "offset translation/rotation"));
            break;
        case 3: case 4: case 5: case 6: case 7: /* UV, additional UV 1..4 */
            TRY(get_vertex_index(r, &idx, "offset vertex index"));
            TRY(get_words(r, o->value, 4, "offset UV"));
            break;
        case 8: { /* material */
            uint8_t op;
            pm_model_material_offset mtmp, *mo = mm ? &mm->material_offsets[k] : &mtmp;
            TRY(get_index(r, r->msize, &idx, "offset material index"));
            if (idx != PM_NO_INDEX && idx >= r->material_count)
                return pmi_mr_fail_names(&r->m, "offset", k, "material", idx, r->material_count);
            TRY(get_u8(r, &op, "offset operation"));
            if (op > 1) return fail(r, PM_ERR_BAD_FORMAT, "offset %u operation %u is not 0 or 1", k, op);
            TRY(get_words(r, mo->diffuse, 28, "offset colours"));
            mo->material = idx;
            mo->operation = op;
            break;
        }
        case 10: /* impulse (2.1): rigid body, local flag, velocity, torque */
            TRY(get_index(r, r->rsize, &idx, "offset rigid body index"));
            TRY(get_u8(r, &o->local, "offset local flag"));
            TRY(get_words(r, o->value, 6, "offset impulse"));
            break;
        default: return pmi_mr_check_max(&r->m, type, 10, "morph type", "0..10");
        }
        o->index = idx;
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
    TRY(pmi_mr_check_limit(&r->m, r->morph_count, max_morphs, "morphs"));
    TRY(pmi_skeleton_set_morph_count(r->m.s, r->morph_count, true, r->m.err));
    pm_model *m = MODEL(r);
    if (m) {
        if (!(m->morphs = pmi_model_array(&r->m, r->morph_count, sizeof *m->morphs, "pmx morphs")))
            return PM_ERR_OUT_OF_MEMORY;
        m->morph_count = r->morph_count;
    }
    for (uint32_t i = 0; i < r->morph_count; i++) {
        enter(r, "morph", i, r->morph_count);
        uint8_t panel, type;
        uint32_t n;
        pm_model_morph *mm = m ? &m->morphs[i] : NULL;
        TRY(get_text(r, &r->m.s->morph_names[i], "name"));
        TRY(get_model_text(r, mm ? &mm->name_en : NULL, "English name"));
        TRY(get_u8(r, &panel, "panel"));
        TRY(get_u8(r, &type, "type"));
        TRY(pmi_mr_check_max(&r->m, type, 10, "morph type", "0..10"));
        if (type >= 4 && type <= 7 && type - 3 > r->add_uv)
            return fail(r, PM_ERR_BAD_FORMAT, "morph type %u uses additional UV %u but the model declares %u", type,
                        type - 3, r->add_uv);
        r->m.s->morph_panel[i] = panel;
        if (mm) {
            mm->name = r->m.s->morph_names[i];
            mm->panel = panel;
            mm->type = type;
        }
        TRY(get_count(r, morph_offset_min(r, type), &n, "offset count"));
        TRY(read_morph_offsets(r, type, n, mm));
    }
    return PM_OK;
}

/* ---- display frames, rigid bodies, joints (pm_model_load) ------------------------------------- */

static pm_result read_display_frames(rd *r) {
    pm_model *m = MODEL(r);
    enter(r, "display frames", UINT32_MAX, 0);
    if (!pmi_left(&r->m.c)) return PM_OK; /* the file ends after the morphs */
    uint32_t n;
    TRY(get_count(r, 8 + 1 + 4, &n, "display frame count"));
    if (!(m->display_frames = pmi_model_array(&r->m, n, sizeof *m->display_frames, "pmx display frames")))
        return PM_ERR_OUT_OF_MEMORY;
    m->display_frame_count = n;
    for (uint32_t i = 0; i < n; i++) {
        enter(r, "display frame", i, n);
        pm_model_display_frame *f = &m->display_frames[i];
        uint8_t special;
        TRY(get_model_text(r, &f->name, "name"));
        TRY(get_model_text(r, &f->name_en, "English name"));
        TRY(get_u8_max(r, &special, 1, "special flag", "0 or 1"));
        f->special = special;
        TRY(get_count(r, 1u + (r->bsize < r->morph_size ? r->bsize : r->morph_size), &f->item_count, "item count"));
        if (!(f->items = pmi_model_array(&r->m, f->item_count, sizeof *f->items, "pmx display items")))
            return PM_ERR_OUT_OF_MEMORY;
        for (uint32_t k = 0; k < f->item_count; k++) {
            uint8_t type;
            uint32_t idx = PM_NO_INDEX;
            TRY(get_u8(r, &type, "item type"));
            if (type > 1) return fail(r, PM_ERR_BAD_FORMAT, "item %u type %u is not 0 (bone) or 1 (morph)", k, type);
            TRY(get_index(r, type ? r->morph_size : r->bsize, &idx, type ? "item morph index" : "item bone index"));
            uint32_t limit = type ? r->morph_count : r->bone_count;
            if (idx == PM_NO_INDEX || idx >= limit) return pmi_mr_fail_names(&r->m, "item", k, type ? "morph" : "bone", idx, limit);
            f->items[k].is_morph = type;
            f->items[k].index = idx;
        }
    }
    return PM_OK;
}

static pm_result read_rigid_bodies(rd *r) {
    pm_model *m = MODEL(r);
    enter(r, "rigid bodies", UINT32_MAX, 0);
    if (!pmi_left(&r->m.c)) return PM_OK;
    uint32_t n;
    TRY(get_count(r, 8u + r->bsize + 1 + 2 + 1 + 36 + 20 + 1, &n, "rigid body count"));
    if (!(m->rigid_bodies = pmi_model_array(&r->m, n, sizeof *m->rigid_bodies, "pmx rigid bodies")))
        return PM_ERR_OUT_OF_MEMORY;
    m->rigid_body_count = n;
    for (uint32_t i = 0; i < n; i++) {
        enter(r, "rigid body", i, n);
        pm_model_rigid_body *b = &m->rigid_bodies[i];
        const uint8_t *p;
        TRY(get_model_text(r, &b->name, "name"));
        TRY(get_model_text(r, &b->name_en, "English name"));
        TRY(get_index(r, r->bsize, &b->bone, "bone index"));
        TRY(pmi_mr_check_index(&r->m, b->bone, r->bone_count, "bone index", "bones"));
        TRY(get_bytes(r, 4, &p, "group/mask/shape"));
        b->group = p[0];
        b->no_collision_mask = pmi_le16(p + 1);
        b->shape = p[3];
        TRY(pmi_mr_check_max(&r->m, b->shape, 2, "shape", PMI_SHAPES));
        TRY(get_words(r, &b->size, 14, "shape/mass/damping")); /* size .. friction */
        TRY(get_u8_max(r, &b->mode, 2, "physics mode", "0..2"));
    }
    return PM_OK;
}

static pm_result read_joints(rd *r) {
    pm_model *m = MODEL(r);
    enter(r, "joints", UINT32_MAX, 0);
    if (!pmi_left(&r->m.c)) return PM_OK;
    uint32_t n;
    TRY(get_count(r, 8u + 1 + 2u * r->rsize + 96, &n, "joint count"));
    if (!(m->joints = pmi_model_array(&r->m, n, sizeof *m->joints, "pmx joints"))) return PM_ERR_OUT_OF_MEMORY;
    m->joint_count = n;
    for (uint32_t i = 0; i < n; i++) {
        enter(r, "joint", i, n);
        pm_model_joint *j = &m->joints[i];
        TRY(get_model_text(r, &j->name, "name"));
        TRY(get_model_text(r, &j->name_en, "English name"));
        TRY(get_u8_max(r, &j->type, 5, "type", "0..5"));
        TRY(get_index(r, r->rsize, &j->body_a, "rigid body A index"));
        TRY(get_index(r, r->rsize, &j->body_b, "rigid body B index"));
        TRY(pmi_mr_check_index(&r->m, j->body_a, m->rigid_body_count, "rigid body A index", "rigid bodies"));
        TRY(pmi_mr_check_index(&r->m, j->body_b, m->rigid_body_count, "rigid body B index", "rigid bodies"));
        TRY(get_words(r, &j->position, 24, "position/rotation/limits/springs")); /* position .. spring_rotation */
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
    TRY(pmi_mr_check_limit(&r->m, r->bone_count, max_bones, "bones"));
    r->m.s = pmi_skeleton_new(o ? &o->allocator : NULL, r->bone_count, 0, r->m.err);
    if (!r->m.s) return PM_ERR_OUT_OF_MEMORY;
    pm_skeleton *s = r->m.s;
    TRY(decode_text(r, text[0], text_len[0], &s->model_name));
    TRY(decode_text(r, text[1], text_len[1], &s->model_name_en));
    TRY(decode_text(r, text[2], text_len[2], &s->source.model_comment));
    TRY(decode_text(r, text[3], text_len[3], &s->source.model_comment_en));
    uint32_t odd_tails = 0, odd_axes = 0, first_tail = PM_NO_INDEX;
    for (uint32_t i = 0; i < r->bone_count; i++) {
        enter(r, "bone", i, r->bone_count);
        const pm_bone *b = &s->bones[i];
        TRY(read_bone(r, &s->bones[i]));
        if (!(isfinite(b->tail_offset.x) && isfinite(b->tail_offset.y) && isfinite(b->tail_offset.z))) {
            if (!odd_tails++) first_tail = i;
        }
        if (!(isfinite(b->local_x.x) && isfinite(b->local_x.y) && isfinite(b->local_x.z) && isfinite(b->local_z.x) &&
              isfinite(b->local_z.y) && isfinite(b->local_z.z)))
            odd_axes++;
    }
    if (odd_tails)
        TRY(pmi_skeleton_warn(s, r->m.err, "pmx: %u bone%s a tail offset that is not a finite number (the first: %s); "
                              "only editors draw it, and it is kept as it is", odd_tails, odd_tails > 1 ? "s have" : " has",
                              s->bones[first_tail].name.data));
    if (odd_axes)
        TRY(pmi_skeleton_warn(s, r->m.err, "pmx: %u bone%s local axes that are not finite; they are only used by editors and are "
                              "kept as they are", odd_axes, odd_axes > 1 ? "s have" : " has"));
    TRY(pmi_mr_check_weights(&r->m, max_bone, max_bone_vertex, r->vertex_count, r->bone_count));
    TRY(read_morphs(r, o && o->max_morphs ? o->max_morphs : 65536u));
    if (MODEL(r)) {
        TRY(read_display_frames(r));
        TRY(read_rigid_bodies(r));
        TRY(read_joints(r));
        size_t left = pmi_left(&r->m.c);
        if (left && r->version < 2.05f)
            TRY(pmi_skeleton_warn(s, r->m.err, "pmx: %zu byte%s after the last section (ignored)", left, left > 1 ? "s" : ""));
    }

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

pm_result pmi_pmx_read_model(const uint8_t *data, size_t size, const pm_model_load_options *opts, pm_model *model,
                             pm_error *err) {
    rd r;
    return pmi_mr_run_model("pmx", data, size, opts, model, err, read_pmx_entry, &r, sizeof r);
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
