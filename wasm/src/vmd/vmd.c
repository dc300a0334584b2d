/* VMD motions in memory: creation, name interning, appending keys, freeing (see procmotion/vmd.h). */
#include "procmotion/text.h"
#include "vmd_internal.h"

#include <math.h>

#define PMI_VMD_MAGIC 0x31444d56u /* "VMD1" */

static pmi_vmd_internal *internal_of(pm_vmd *vmd) { return (pmi_vmd_internal *)vmd->internal; }

pm_result pmi_vmd_new(const pm_allocator *allocator, pm_vmd **out, pm_error *err) {
    *out = NULL;
    pm_allocator a = allocator ? *allocator : (pm_allocator){0};
    pm_vmd *vmd = pmi_alloc(&a, sizeof *vmd);
    if (!vmd) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory");
    memset(vmd, 0, sizeof *vmd);
    vmd->allocator = a;
    pmi_vmd_internal *in = pmi_alloc(&vmd->allocator, sizeof *in);
    if (!in) {
        pmi_free(&vmd->allocator, vmd);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory");
    }
    memset(in, 0, sizeof *in);
    in->arena.allocator = &vmd->allocator;
    for (int i = 0; i < 3; i++) in->maps[i].allocator = in->bytes[i].allocator = &vmd->allocator;
    vmd->internal = in;
    vmd->magic = PMI_VMD_MAGIC;
    vmd->version = 2;
    vmd->model_name.data = "";
    *out = vmd;
    return PM_OK;
}

pm_result pm_vmd_create(const pm_allocator *allocator, pm_vmd **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: out is NULL");
    pm_result r = pmi_vmd_new(allocator, out, err);
    if (r == PM_OK) (*out)->sections = 6;
    return r;
}

static void free_arrays(pm_vmd *v) {
    const pm_allocator *a = &v->allocator;
    void *ptrs[] = {v->bone_names.items,   v->morph_names.items,     v->ik_names.items,
                    v->bone_names.fields,  v->morph_names.fields,    v->ik_names.fields,
                    v->bone_names.variant_key, v->morph_names.variant_key, v->ik_names.variant_key,
                    v->bone_names.variant_field, v->morph_names.variant_field, v->ik_names.variant_field,
                    v->bones.name_index,   v->bones.frame,           v->bones.position,
                    v->bones.rotation,     v->bones.interpolation,   v->morphs.name_index,
                    v->morphs.frame,       v->morphs.weight,         v->cameras.frame,
                    v->cameras.distance,   v->cameras.position,      v->cameras.rotation,
                    v->cameras.interpolation, v->cameras.fov,        v->cameras.perspective,
                    v->lights.frame,       v->lights.color,          v->lights.direction,
                    v->shadows.frame,      v->shadows.mode,          v->shadows.distance,
                    v->properties.frame,   v->properties.visible,    v->properties.ik_start,
                    v->properties.ik_name_index, v->properties.ik_enabled};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) pmi_free(a, ptrs[i]);
}

void pm_vmd_free(pm_vmd *vmd) {
    if (!vmd || vmd->magic != PMI_VMD_MAGIC) return;
    pm_allocator a = vmd->allocator;
    free_arrays(vmd);
    pmi_vmd_internal *in = internal_of(vmd);
    if (in) {
        pmi_arena_release(&in->arena);
        for (int i = 0; i < 3; i++) {
            pmi_strmap_release(&in->maps[i]);
            pmi_strmap_release(&in->bytes[i]);
        }
        pmi_sjis_encoder_free(in->encoder);
        pmi_free(&vmd->allocator, in);
    }
    vmd->magic = 0;
    pmi_free(&a, vmd);
}

int pmi_vmd_table_id(const pm_vmd *vmd, const pm_vmd_names *table) {
    if (table == &vmd->bone_names) return 0;
    if (table == &vmd->morph_names) return 1;
    if (table == &vmd->ik_names) return 2;
    return -1;
}

size_t pmi_vmd_table_width(int id) { return id == 2 ? PM_VMD_IK_NAME_SIZE : PM_VMD_BONE_NAME_SIZE; }

static pm_vmd_names *table_of(pm_vmd *vmd, int id) {
    return id == 0 ? &vmd->bone_names : id == 1 ? &vmd->morph_names : &vmd->ik_names;
}

/* Grow one array to `cap` elements of `elem` bytes, keeping `count` of them. */
static bool grow(const pm_allocator *a, void **p, uint32_t count, uint32_t cap, size_t elem) {
    void *n = pmi_alloc(a, (size_t)cap * elem);
    if (!n) return false;
    if (*p && count) memcpy(n, *p, (size_t)count * elem);
    pmi_free(a, *p);
    *p = n;
    return true;
}

static uint32_t next_cap(uint32_t cap) { return cap < 16 ? 16 : cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2; }

/* Room for `want` names in the table's arrays (its texts and its fields). */
static bool reserve_arrays(pm_vmd *vmd, pm_vmd_names *t, size_t width, uint32_t want) {
    if (want <= t->capacity) return true;
    uint32_t cap = next_cap(t->capacity);
    while (cap < want) cap = next_cap(cap);
    if (!grow(&vmd->allocator, (void **)&t->items, t->count, cap, sizeof(pm_string)) ||
        !grow(&vmd->allocator, (void **)&t->fields, t->count, cap, width))
        return false;
    t->capacity = cap;
    return true;
}

bool pmi_vmd_reserve_names(pm_vmd *vmd, const pm_vmd_names *table, uint32_t count) {
    int id = pmi_vmd_table_id(vmd, table);
    if (id < 0 || count > UINT32_MAX - 1 - table->count) return false;
    pmi_vmd_internal *in = internal_of(vmd);
    return pmi_strmap_reserve(&in->bytes[id], table->count + count) &&
           reserve_arrays(vmd, table_of(vmd, id), pmi_vmd_table_width(id), table->count + count);
}

/* Room for one more name. */
static pm_result reserve_entry(pm_vmd *vmd, pm_vmd_names *t, size_t width, pm_error *err) {
    if (t->count == UINT32_MAX - 1) return pmi_fail(err, PM_ERR_LIMIT, "vmd: too many names");
    if (!reserve_arrays(vmd, t, width, t->count + 1))
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory growing a name table");
    return PM_OK;
}

/* Register the texts of entries indexed[id] .. count - 1 (each unless an earlier entry has its text). */
static bool index_texts(pm_vmd *vmd, int id) {
    pmi_vmd_internal *in = internal_of(vmd);
    const pm_vmd_names *t = table_of(vmd, id);
    if (in->indexed[id] < t->count && !pmi_strmap_reserve(&in->maps[id], t->count + 1)) return false;
    for (; in->indexed[id] < t->count; in->indexed[id]++) {
        const pm_string *s = &t->items[in->indexed[id]];
        const uint32_t h = pmi_hash_bytes(s->data, s->length);
        if (pmi_strmap_get_hashed(&in->maps[id], s->data, s->length, h) == PM_NO_INDEX &&
            !pmi_strmap_put_hashed(&in->maps[id], s->data, s->length, h, in->indexed[id]))
            return false;
    }
    return true;
}

/* Store a new entry: its text and, unless NULL, its name bytes (`len` of them, hashed to raw_hash, not in
 * the table yet), both already in the arena, and its field (field_width bytes, NUL-padded to the
 * table's width). Its text is registered when pm_vmd_intern next looks texts up. */
static pm_result put_entry(pm_vmd *vmd, int id, const char *text, size_t text_len, const char *raw, size_t len,
                           uint32_t raw_hash, const uint8_t *field, size_t field_width, uint32_t *index,
                           pm_error *err) {
    pmi_vmd_internal *in = internal_of(vmd);
    pm_vmd_names *t = table_of(vmd, id);
    const size_t width = pmi_vmd_table_width(id);
    const uint32_t i = t->count;
    if (raw && !pmi_strmap_put_hashed(&in->bytes[id], raw, len, raw_hash, i))
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing a name");
    uint8_t *row = t->fields + (size_t)i * width;
    memcpy(row, field, field_width);
    memset(row + field_width, 0, width - field_width);
    t->items[i].data = text;
    t->items[i].length = (uint32_t)text_len;
    *index = t->count++;
    return PM_OK;
}

pm_result pmi_vmd_add_field(pm_vmd *vmd, int id, const uint8_t *field, size_t len, uint32_t hash, uint32_t *index,
                            pm_error *err) {
    const size_t width = pmi_vmd_table_width(id);
    pm_result r = reserve_entry(vmd, table_of(vmd, id), width, err);
    if (r) return r;
    char utf8[3 * PM_VMD_IK_NAME_SIZE + 1];
    size_t n = pm_sjis_to_utf8(field, len, utf8, sizeof utf8);
    /* one arena block: the text and its NUL, then the name bytes the bytes map points at */
    char *text = pmi_arena_strdup(&internal_of(vmd)->arena, NULL, n + 1 + len);
    if (!text) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing a name");
    memcpy(text, utf8, n);
    text[n] = '\0';
    memcpy(text + n + 1, field, len);
    return put_entry(vmd, id, text, n, text + n + 1, len, hash, field, width, index, err);
}

pm_result pm_vmd_intern_field(pm_vmd *vmd, pm_vmd_names *table, const uint8_t *field, size_t width, uint32_t *index,
                              pm_error *err) {
    int id = vmd && table ? pmi_vmd_table_id(vmd, table) : -1;
    if (id < 0) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: not a name table of this motion");
    if (!index || (!field && width)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: intern_field with a NULL argument");
    if (width > pmi_vmd_table_width(id))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a field of %zu bytes is wider than the table's %zu", width,
                        pmi_vmd_table_width(id));
    uint8_t padded[PM_VMD_IK_NAME_SIZE] = {0};
    if (width) memcpy(padded, field, width);
    const size_t len = pm_sjis_field_length(padded, width);
    const uint32_t hash = pmi_hash_bytes(padded, len);
    uint32_t found = pmi_strmap_get_hashed(&internal_of(vmd)->bytes[id], (const char *)padded, len, hash);
    if (found != PM_NO_INDEX) {
        *index = found;
        return PM_OK;
    }
    return pmi_vmd_add_field(vmd, id, padded, len, hash, index, err);
}

pm_result pm_vmd_intern(pm_vmd *vmd, pm_vmd_names *table, const char *name, size_t len, uint32_t *index,
                        pm_error *err) {
    int id = vmd && table ? pmi_vmd_table_id(vmd, table) : -1;
    if (id < 0) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: not a name table of this motion");
    pmi_vmd_internal *in = internal_of(vmd);
    if (!index_texts(vmd, id)) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory indexing names");
    uint32_t found = pmi_strmap_get(&in->maps[id], name, len);
    if (found != PM_NO_INDEX) {
        *index = found;
        return PM_OK;
    }
    const size_t width = pmi_vmd_table_width(id);
    pm_result r = reserve_entry(vmd, table, width, err);
    if (r) return r;
    const char *text = pmi_arena_strdup(&in->arena, name, len);
    if (!text) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing a name");
    /* the field the writer would make (all zero when the text has no Shift-JIS encoding: the writer
     * then fails on it, naming it) */
    uint8_t field[PM_VMD_IK_NAME_SIZE] = {0};
    size_t n = 0;
    bool encoded = pmi_utf8_to_sjis_with(&in->encoder, &vmd->allocator, name, len, field, width, &n, NULL, NULL) == PM_OK;
    if (!encoded) memset(field, 0, sizeof field);
    const uint32_t hash = pmi_hash_bytes(field, n);
    const char *raw = NULL;
    if (encoded && pmi_strmap_get_hashed(&in->bytes[id], (const char *)field, n, hash) == PM_NO_INDEX &&
        !(raw = pmi_arena_strdup(&in->arena, (const char *)field, n)))
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing a name");
    return put_entry(vmd, id, text, len, raw, n, hash, field, width, index, err);
}

pm_result pmi_vmd_add_variant(pm_vmd *vmd, pm_vmd_names *t, uint32_t key, const uint8_t *field, pm_error *err) {
    const size_t width = pmi_vmd_table_width(pmi_vmd_table_id(vmd, t));
    if (t->variant_count == t->variant_capacity) {
        uint32_t cap = next_cap(t->variant_capacity);
        if (t->variant_count == UINT32_MAX) return pmi_fail(err, PM_ERR_LIMIT, "vmd: too many name fields");
        if (!grow(&vmd->allocator, (void **)&t->variant_key, t->variant_count, cap, sizeof(uint32_t)) ||
            !grow(&vmd->allocator, (void **)&t->variant_field, t->variant_count, cap, width))
            return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing a name field");
        t->variant_capacity = cap;
    }
    t->variant_key[t->variant_count] = key;
    memcpy(t->variant_field + (size_t)t->variant_count * width, field, width);
    t->variant_count++;
    return PM_OK;
}

pm_result pm_vmd_set_model_name(pm_vmd *vmd, const char *name, pm_error *err) {
    if (!vmd || !name) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: model name is NULL");
    size_t len = strlen(name);
    char *copy = pmi_arena_strdup(&internal_of(vmd)->arena, name, len);
    if (!copy) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory storing the model name");
    vmd->model_name.data = copy;
    vmd->model_name.length = (uint32_t)len;
    return PM_OK;
}

#define ENSURE(section, what, ...)                                                                                \
    do {                                                                                                          \
        if ((section)->count == (section)->capacity) {                                                            \
            uint32_t cap_ = next_cap((section)->capacity);                                                        \
            if ((section)->count == UINT32_MAX) return pmi_fail(err, PM_ERR_LIMIT, "vmd: too many " what);        \
            struct {                                                                                              \
                void **p;                                                                                         \
                size_t elem;                                                                                      \
            } arrays_[] = {__VA_ARGS__};                                                                          \
            for (size_t i_ = 0; i_ < sizeof arrays_ / sizeof arrays_[0]; i_++)                                     \
                if (!grow(&vmd->allocator, arrays_[i_].p, (section)->count, cap_, arrays_[i_].elem))               \
                    return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory adding " what);                \
            (section)->capacity = cap_;                                                                           \
        }                                                                                                         \
    } while (0)

#define ARR(section, field, elem) {(void **)&(section)->field, (elem)}

pm_result pm_vmd_add_bone_key(pm_vmd *vmd, const char *name, uint32_t frame, const float position[3],
                              const float rotation[4], const uint8_t interpolation[64], pm_error *err) {
    if (!vmd || !name || !position || !rotation)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: bone key with a NULL argument");
    if (!pmi_all_finite(position, 3) || !pmi_all_finite(rotation, 4))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: bone key for \"%s\" at frame %u is not finite", name,
                        frame);
    pm_vmd_bone_keys *k = &vmd->bones;
    ENSURE(k, "bone keys", ARR(k, name_index, 4), ARR(k, frame, 4), ARR(k, position, 12), ARR(k, rotation, 16),
           ARR(k, interpolation, 64));
    uint32_t idx;
    pm_result r = pm_vmd_intern(vmd, &vmd->bone_names, name, strlen(name), &idx, err);
    if (r) return r;
    uint32_t i = k->count++;
    k->name_index[i] = idx;
    k->frame[i] = frame;
    memcpy(k->position + 3 * (size_t)i, position, 12);
    memcpy(k->rotation + 4 * (size_t)i, rotation, 16);
    if (interpolation) memcpy(k->interpolation + 64 * (size_t)i, interpolation, 64);
    else pm_vmd_interp_linear(k->interpolation + 64 * (size_t)i);
    return PM_OK;
}

pm_result pm_vmd_add_morph_key(pm_vmd *vmd, const char *name, uint32_t frame, float weight, pm_error *err) {
    if (!vmd || !name) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: morph key with a NULL argument");
    if (!isfinite(weight))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: morph key for \"%s\" at frame %u is not finite", name,
                        frame);
    pm_vmd_morph_keys *k = &vmd->morphs;
    ENSURE(k, "morph keys", ARR(k, name_index, 4), ARR(k, frame, 4), ARR(k, weight, 4));
    uint32_t idx;
    pm_result r = pm_vmd_intern(vmd, &vmd->morph_names, name, strlen(name), &idx, err);
    if (r) return r;
    uint32_t i = k->count++;
    k->name_index[i] = idx;
    k->frame[i] = frame;
    k->weight[i] = weight;
    return PM_OK;
}

pm_result pm_vmd_add_camera_key(pm_vmd *vmd, uint32_t frame, float distance, const float position[3],
                                const float rotation[3], const uint8_t interpolation[24], uint32_t fov,
                                uint8_t perspective, pm_error *err) {
    if (!vmd || !position || !rotation)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: camera key with a NULL argument");
    if (!isfinite(distance) || !pmi_all_finite(position, 3) || !pmi_all_finite(rotation, 3))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: camera key at frame %u is not finite", frame);
    pm_vmd_camera_keys *k = &vmd->cameras;
    ENSURE(k, "camera keys", ARR(k, frame, 4), ARR(k, distance, 4), ARR(k, position, 12), ARR(k, rotation, 12),
           ARR(k, interpolation, 24), ARR(k, fov, 4), ARR(k, perspective, 1));
    uint32_t i = k->count++;
    k->frame[i] = frame;
    k->distance[i] = distance;
    memcpy(k->position + 3 * (size_t)i, position, 12);
    memcpy(k->rotation + 3 * (size_t)i, rotation, 12);
    if (interpolation) memcpy(k->interpolation + 24 * (size_t)i, interpolation, 24);
    else
        for (int a = 0; a < 6; a++) {
            uint8_t *b = k->interpolation + 24 * (size_t)i + 4 * a;
            b[0] = 20, b[1] = 107, b[2] = 20, b[3] = 107; /* x1 x2 y1 y2 per axis */
        }
    k->fov[i] = fov;
    k->perspective[i] = perspective;
    return PM_OK;
}

pm_result pm_vmd_add_light_key(pm_vmd *vmd, uint32_t frame, const float color[3], const float direction[3],
                               pm_error *err) {
    if (!vmd || !color || !direction)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: light key with a NULL argument");
    if (!pmi_all_finite(color, 3) || !pmi_all_finite(direction, 3))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: light key at frame %u is not finite", frame);
    pm_vmd_light_keys *k = &vmd->lights;
    ENSURE(k, "light keys", ARR(k, frame, 4), ARR(k, color, 12), ARR(k, direction, 12));
    uint32_t i = k->count++;
    k->frame[i] = frame;
    memcpy(k->color + 3 * (size_t)i, color, 12);
    memcpy(k->direction + 3 * (size_t)i, direction, 12);
    return PM_OK;
}

pm_result pm_vmd_add_shadow_key(pm_vmd *vmd, uint32_t frame, uint8_t mode, float distance, pm_error *err) {
    if (!vmd) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: motion is NULL");
    if (!isfinite(distance))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: self-shadow key at frame %u is not finite", frame);
    pm_vmd_shadow_keys *k = &vmd->shadows;
    ENSURE(k, "self-shadow keys", ARR(k, frame, 4), ARR(k, mode, 1), ARR(k, distance, 4));
    uint32_t i = k->count++;
    k->frame[i] = frame;
    k->mode[i] = mode;
    k->distance[i] = distance;
    return PM_OK;
}

pm_result pm_vmd_add_property_key(pm_vmd *vmd, uint32_t frame, bool visible, uint32_t ik_count,
                                  const char *const *ik_names, const bool *ik_enabled, pm_error *err) {
    if (!vmd || (ik_count && (!ik_names || !ik_enabled)))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: property key with a NULL argument");
    pm_vmd_property_keys *k = &vmd->properties;
    /* ik_start has count + 1 entries */
    if (k->count + 1 >= k->capacity) {
        uint32_t cap = next_cap(k->capacity);
        if (!grow(&vmd->allocator, (void **)&k->frame, k->count, cap, 4) ||
            !grow(&vmd->allocator, (void **)&k->visible, k->count, cap, 1) ||
            !grow(&vmd->allocator, (void **)&k->ik_start, k->count + 1, cap, 4))
            return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory adding property keys");
        if (k->count == 0) k->ik_start[0] = 0;
        k->capacity = cap;
    }
    if (ik_count > UINT32_MAX - k->ik_count - 1) return pmi_fail(err, PM_ERR_LIMIT, "vmd: too many IK states");
    if (k->ik_count + ik_count > k->ik_capacity) {
        uint32_t cap = next_cap(k->ik_capacity);
        while (cap < k->ik_count + ik_count) cap = next_cap(cap);
        if (!grow(&vmd->allocator, (void **)&k->ik_name_index, k->ik_count, cap, 4) ||
            !grow(&vmd->allocator, (void **)&k->ik_enabled, k->ik_count, cap, 1))
            return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory adding IK states");
        k->ik_capacity = cap;
    }
    for (uint32_t j = 0; j < ik_count; j++) {
        if (!ik_names[j]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: property key IK name %u is NULL", j);
        uint32_t idx;
        pm_result r = pm_vmd_intern(vmd, &vmd->ik_names, ik_names[j], strlen(ik_names[j]), &idx, err);
        if (r) return r;
        k->ik_name_index[k->ik_count + j] = idx;
        k->ik_enabled[k->ik_count + j] = ik_enabled[j] ? 1 : 0;
    }
    uint32_t i = k->count++;
    k->frame[i] = frame;
    k->visible[i] = visible ? 1 : 0;
    k->ik_count += ik_count;
    k->ik_start[i + 1] = k->ik_count;
    return PM_OK;
}

/* ---- interpolation --------------------------------------------------------------------------- */

void pm_vmd_interp_pack(const uint8_t curves[4][4], uint8_t out[64]) {
    uint8_t canon[16];
    for (int a = 0; a < 4; a++) {
        for (int c = 0; c < 4; c++) {
            uint8_t v = curves[a][c] > 127 ? 127 : curves[a][c];
            canon[c * 4 + a] = v; /* x1 row, y1 row, x2 row, y2 row; columns X Y Z R */
        }
    }
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 16; j++) out[r * 16 + j] = j + r < 16 ? canon[j + r] : 0;
    out[2] = 0; /* physics on (babylon-mmd's toggle bytes) */
    out[3] = 0;
}

void pm_vmd_interp_unpack(const uint8_t in[64], int axis, uint8_t curve[4]) {
    if (axis < 0 || axis > 3) axis = 0;
    curve[0] = in[16 * axis];
    curve[1] = in[16 * axis + 4];
    curve[2] = in[16 * axis + 8];
    curve[3] = in[16 * axis + 12];
}

void pm_vmd_interp_linear(uint8_t out[64]) {
    static const uint8_t linear[4][4] = {{20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pm_vmd_interp_pack(linear, out);
}

/* The property keys of src (names looked up per key: a key holds few). */
static pm_result append_properties(pm_vmd *dst, const pm_vmd *src, pm_error *err) {
    const pm_vmd_property_keys *p = &src->properties;
    if (!p->count) return PM_OK;
    uint32_t most = 0;
    for (uint32_t k = 0; k < p->count; k++)
        if (p->ik_start[k + 1] - p->ik_start[k] > most) most = p->ik_start[k + 1] - p->ik_start[k];
    const char **names = pmi_alloc_array(&dst->allocator, most, sizeof *names, err, "vmd: IK names");
    bool *on = names ? pmi_alloc_array(&dst->allocator, most, sizeof *on, err, "vmd: IK states") : NULL;
    pm_result r = on ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < p->count && r == PM_OK; k++) {
        uint32_t n = p->ik_start[k + 1] - p->ik_start[k];
        for (uint32_t i = 0; i < n; i++) {
            names[i] = src->ik_names.items[p->ik_name_index[p->ik_start[k] + i]].data;
            on[i] = p->ik_enabled[p->ik_start[k] + i] != 0;
        }
        r = pm_vmd_add_property_key(dst, p->frame[k], p->visible[k] != 0, n, names, on, err);
    }
    pmi_free(&dst->allocator, names);
    pmi_free(&dst->allocator, on);
    return r;
}

pm_result pm_vmd_append(pm_vmd *dst, const pm_vmd *src, const char *const *skip_bones, uint32_t skip_count,
                        bool skip_properties, uint32_t *bone_keys_copied, pm_error *err) {
    if (bone_keys_copied) *bone_keys_copied = 0;
    if (!dst || !src || dst == src || (skip_count && !skip_bones))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: pm_vmd_append needs two different motions");
    pm_result r = PM_OK;
    /* which bone names are skipped, once per name (not per key) */
    uint8_t *skip = pmi_alloc_array(&dst->allocator, src->bone_names.count, 1, err, "vmd: append");
    if (!skip) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < src->bone_names.count; i++)
        for (uint32_t s = 0; s < skip_count && !skip[i]; s++)
            skip[i] = skip_bones[s] && strcmp(src->bone_names.items[i].data, skip_bones[s]) == 0;
    /* the names first, by their bytes (a read motion's fields), so that the keys added by name below join
     * them and a name read from a file is written back as it was (also one MMD cut inside a double-byte
     * character, whose text Shift-JIS cannot encode) */
    const pm_vmd_names *from[3] = {&src->bone_names, &src->morph_names, &src->ik_names};
    pm_vmd_names *to[3] = {&dst->bone_names, &dst->morph_names, &dst->ik_names};
    for (int t = 0; t < 3 && r == PM_OK; t++) {
        const size_t width = t == 2 ? PM_VMD_IK_NAME_SIZE : PM_VMD_BONE_NAME_SIZE;
        uint32_t idx;
        for (uint32_t i = 0; from[t]->fields && i < from[t]->count && r == PM_OK; i++)
            if (t != 0 || !skip[i]) r = pm_vmd_intern_field(dst, to[t], from[t]->fields + (size_t)i * width, width, &idx, err);
    }
    const pm_vmd_bone_keys *bk = &src->bones;
    uint32_t copied = 0;
    for (uint32_t k = 0; k < bk->count && r == PM_OK; k++) {
        if (skip[bk->name_index[k]]) continue;
        r = pm_vmd_add_bone_key(dst, src->bone_names.items[bk->name_index[k]].data, bk->frame[k], bk->position + 3 * (size_t)k,
                                bk->rotation + 4 * (size_t)k, bk->interpolation + 64 * (size_t)k, err);
        copied++;
    }
    pmi_free(&dst->allocator, skip);
    for (uint32_t k = 0; k < src->morphs.count && r == PM_OK; k++)
        r = pm_vmd_add_morph_key(dst, src->morph_names.items[src->morphs.name_index[k]].data, src->morphs.frame[k],
                                 src->morphs.weight[k], err);
    const pm_vmd_camera_keys *c = &src->cameras;
    for (uint32_t k = 0; k < c->count && r == PM_OK; k++)
        r = pm_vmd_add_camera_key(dst, c->frame[k], c->distance[k], c->position + 3 * (size_t)k, c->rotation + 3 * (size_t)k,
                                  c->interpolation + 24 * (size_t)k, c->fov[k], c->perspective[k], err);
    for (uint32_t k = 0; k < src->lights.count && r == PM_OK; k++)
        r = pm_vmd_add_light_key(dst, src->lights.frame[k], src->lights.color + 3 * (size_t)k,
                                 src->lights.direction + 3 * (size_t)k, err);
    for (uint32_t k = 0; k < src->shadows.count && r == PM_OK; k++)
        r = pm_vmd_add_shadow_key(dst, src->shadows.frame[k], src->shadows.mode[k], src->shadows.distance[k], err);
    if (r == PM_OK && !skip_properties) r = append_properties(dst, src, err);
    if (bone_keys_copied) *bone_keys_copied = copied;
    return r;
}
