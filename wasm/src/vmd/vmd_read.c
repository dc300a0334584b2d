/* VMD reader (see procmotion/vmd.h for the format and the guarantees). */
#include "procmotion/text.h"
#include "vmd_internal.h"

#include <math.h>

#define PMI_VMD_DEFAULT_MAX_KEYS 50000000u

static const char *const section_names[6] = {"bone", "morph", "camera", "light", "self-shadow", "property"};

typedef struct reader {
    pmi_cursor c;
    pm_vmd *vmd;
    pm_error *err;
    uint32_t max_keys;
    pm_result status; /* the first failure */
    const uint8_t *last_field; /* the previous key's name field, its index and whether it was a variant: */
    uint32_t last_index;       /* files group keys by name */
    bool last_variant;
} reader;

/* Whether two name fields of `width` bytes (8..20) are equal: overlapping 8-byte words (loads, where a
 * memcmp call would compare byte by byte in wasm). */
static inline bool same_field(const uint8_t *a, const uint8_t *b, size_t width) {
    uint64_t x[3], y[3];
    memcpy(&x[0], a, 8), memcpy(&y[0], b, 8);
    memcpy(&x[1], a + width / 2 - 4, 8), memcpy(&y[1], b + width / 2 - 4, 8);
    memcpy(&x[2], a + width - 8, 8), memcpy(&y[2], b + width - 8, 8);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])) == 0;
}

/* Intern key `key`'s fixed-width Shift-JIS name field into `table` (by its bytes; a field whose padding
 * differs from its name's is kept as a variant); returns the index or PM_NO_INDEX on error. */
static uint32_t intern_field(reader *r, pm_vmd_names *table, int id, uint32_t key, const uint8_t *field,
                             size_t width) {
    uint32_t idx;
    bool variant;
    if (r->last_field && same_field(r->last_field, field, width)) { /* the whole field, padding too */
        idx = r->last_index;
        variant = r->last_variant;
    } else {
        size_t len = pm_sjis_field_length(field, width);
        const uint32_t hash = pmi_hash_bytes(field, len);
        const pmi_vmd_internal *in = r->vmd->internal;
        idx = pmi_strmap_get_hashed(&in->bytes[id], (const char *)field, len, hash);
        if (idx == PM_NO_INDEX) {
            if ((r->status = pmi_vmd_add_field(r->vmd, id, field, len, hash, &idx, r->err)) != PM_OK) return PM_NO_INDEX;
            variant = false;
        } else {
            variant = !same_field(table->fields + (size_t)idx * width, field, width);
        }
        r->last_field = field, r->last_index = idx, r->last_variant = variant;
    }
    if (variant && (r->status = pmi_vmd_add_variant(r->vmd, table, key, field, r->err)) != PM_OK) return PM_NO_INDEX;
    return idx;
}

/* Read a section count. Returns 1 when a count was read, 0 at a clean end of file, -1 on error. */
static int read_count(reader *r, int section, uint32_t record_min, uint32_t *count) {
    size_t left = pmi_left(&r->c);
    if (left == 0) return 0;
    if (left < 4) {
        r->status = pmi_fail(r->err, PM_ERR_TRUNCATED, "vmd: %s section count is truncated (%zu of 4 bytes at offset %zu)",
                 section_names[section], left, pmi_offset(&r->c));
        return -1;
    }
    *count = pmi_le32(pmi_take(&r->c, 4));
    if (*count > r->max_keys) {
        r->status = pmi_fail(r->err, PM_ERR_LIMIT, "vmd: %s section claims %u keys, more than the limit of %u",
                 section_names[section], *count, r->max_keys);
        return -1;
    }
    left = pmi_left(&r->c);
    if ((uint64_t)*count * record_min > left) {
        /* name the first key that cannot be complete */
        uint64_t whole = left / record_min;
        r->status = pmi_fail(r->err, PM_ERR_TRUNCATED,
                 "vmd: %s key %llu of %u is truncated (the section needs at least %llu bytes at offset %zu, %zu left)",
                 section_names[section], (unsigned long long)whole, *count, (unsigned long long)*count * record_min,
                 pmi_offset(&r->c), left);
        return -1;
    }
    return 1;
}

static void read_floats(const uint8_t *p, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = pmi_lef32(p + 4 * i);
}

/* Key i of n of `section` (named `name`, or NULL) holds NaN or Inf: record the failure, return false. */
static bool not_finite(reader *r, const char *section, uint32_t i, uint32_t n, const char *name, uint32_t frame) {
    if (name)
        r->status = pmi_fail(r->err, PM_ERR_BAD_FORMAT, "vmd: %s key %u of %u (\"%s\", frame %u) holds NaN or Inf",
                             section, i, n, name, frame);
    else
        r->status = pmi_fail(r->err, PM_ERR_BAD_FORMAT, "vmd: %s key %u of %u (frame %u) holds NaN or Inf", section,
                             i, n, frame);
    return false;
}

#define ALLOC(ptr, n, elem, what)                                                                          \
    do {                                                                                                   \
        (ptr) = pmi_alloc_array_unzeroed(&v->allocator, (n), (elem), r->err, what);                        \
        if (!(ptr)) {                                                                                      \
            r->status = PM_ERR_OUT_OF_MEMORY;                                                              \
            return false;                                                                                  \
        }                                                                                                  \
    } while (0)

static bool read_bones(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_bone_keys *k = &v->bones;
    ALLOC(k->name_index, n, 4, "vmd: bone keys");
    ALLOC(k->frame, n, 4, "vmd: bone keys");
    ALLOC(k->position, n, 12, "vmd: bone keys");
    ALLOC(k->rotation, n, 16, "vmd: bone keys");
    ALLOC(k->interpolation, n, 64, "vmd: bone keys");
    k->capacity = n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, PM_VMD_BONE_KEY_SIZE); /* count was checked: never NULL */
        uint32_t idx = intern_field(r, &v->bone_names, 0, i, p, PM_VMD_BONE_NAME_SIZE);
        if (idx == PM_NO_INDEX) return false;
        k->name_index[i] = idx;
        k->frame[i] = pmi_le32(p + 15);
        read_floats(p + 19, k->position + 3 * (size_t)i, 3);
        read_floats(p + 31, k->rotation + 4 * (size_t)i, 4);
        memcpy(k->interpolation + 64 * (size_t)i, p + 47, 64);
        k->count = i + 1;
        if (!pmi_all_finite(k->position + 3 * (size_t)i, 3) || !pmi_all_finite(k->rotation + 4 * (size_t)i, 4))
            return not_finite(r, "bone", i, n, v->bone_names.items[idx].data, k->frame[i]);
    }
    return true;
}

static bool read_morphs(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_morph_keys *k = &v->morphs;
    ALLOC(k->name_index, n, 4, "vmd: morph keys");
    ALLOC(k->frame, n, 4, "vmd: morph keys");
    ALLOC(k->weight, n, 4, "vmd: morph keys");
    k->capacity = n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, PM_VMD_MORPH_KEY_SIZE);
        uint32_t idx = intern_field(r, &v->morph_names, 1, i, p, PM_VMD_BONE_NAME_SIZE);
        if (idx == PM_NO_INDEX) return false;
        k->name_index[i] = idx;
        k->frame[i] = pmi_le32(p + 15);
        k->weight[i] = pmi_lef32(p + 19);
        k->count = i + 1;
        if (!isfinite(k->weight[i])) return not_finite(r, "morph", i, n, v->morph_names.items[idx].data, k->frame[i]);
    }
    return true;
}

static bool read_cameras(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_camera_keys *k = &v->cameras;
    ALLOC(k->frame, n, 4, "vmd: camera keys");
    ALLOC(k->distance, n, 4, "vmd: camera keys");
    ALLOC(k->position, n, 12, "vmd: camera keys");
    ALLOC(k->rotation, n, 12, "vmd: camera keys");
    ALLOC(k->interpolation, n, 24, "vmd: camera keys");
    ALLOC(k->fov, n, 4, "vmd: camera keys");
    ALLOC(k->perspective, n, 1, "vmd: camera keys");
    k->capacity = n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, PM_VMD_CAMERA_KEY_SIZE);
        k->frame[i] = pmi_le32(p);
        k->distance[i] = pmi_lef32(p + 4);
        read_floats(p + 8, k->position + 3 * (size_t)i, 3);
        read_floats(p + 20, k->rotation + 3 * (size_t)i, 3);
        memcpy(k->interpolation + 24 * (size_t)i, p + 32, 24);
        k->fov[i] = pmi_le32(p + 56);
        k->perspective[i] = p[60];
        k->count = i + 1;
        if (!isfinite(k->distance[i]) || !pmi_all_finite(k->position + 3 * (size_t)i, 3) ||
            !pmi_all_finite(k->rotation + 3 * (size_t)i, 3))
            return not_finite(r, "camera", i, n, NULL, k->frame[i]);
    }
    return true;
}

static bool read_lights(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_light_keys *k = &v->lights;
    ALLOC(k->frame, n, 4, "vmd: light keys");
    ALLOC(k->color, n, 12, "vmd: light keys");
    ALLOC(k->direction, n, 12, "vmd: light keys");
    k->capacity = n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, PM_VMD_LIGHT_KEY_SIZE);
        k->frame[i] = pmi_le32(p);
        read_floats(p + 4, k->color + 3 * (size_t)i, 3);
        read_floats(p + 16, k->direction + 3 * (size_t)i, 3);
        k->count = i + 1;
        if (!pmi_all_finite(k->color + 3 * (size_t)i, 3) || !pmi_all_finite(k->direction + 3 * (size_t)i, 3))
            return not_finite(r, "light", i, n, NULL, k->frame[i]);
    }
    return true;
}

static bool read_shadows(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_shadow_keys *k = &v->shadows;
    ALLOC(k->frame, n, 4, "vmd: self-shadow keys");
    ALLOC(k->mode, n, 1, "vmd: self-shadow keys");
    ALLOC(k->distance, n, 4, "vmd: self-shadow keys");
    k->capacity = n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, PM_VMD_SHADOW_KEY_SIZE);
        k->frame[i] = pmi_le32(p);
        k->mode[i] = p[4];
        k->distance[i] = pmi_lef32(p + 5);
        k->count = i + 1;
        if (!isfinite(k->distance[i])) return not_finite(r, "self-shadow", i, n, NULL, k->frame[i]);
    }
    return true;
}

static bool read_properties(reader *r, uint32_t n) {
    pm_vmd *v = r->vmd;
    pm_vmd_property_keys *k = &v->properties;
    /* First pass: walk the variable-size records to validate them and count the IK states. */
    pmi_cursor scan = r->c;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&scan, 9);
        if (!p) {
            r->status = pmi_fail(r->err, PM_ERR_TRUNCATED, "vmd: property key %u of %u is truncated (needs 9 bytes at offset %zu, %zu left)",
                     i, n, pmi_offset(&scan), pmi_left(&scan));
            return false;
        }
        uint32_t ik = pmi_le32(p + 5);
        if ((uint64_t)ik * 21 > pmi_left(&scan)) {
            r->status = pmi_fail(r->err, PM_ERR_TRUNCATED,
                     "vmd: property key %u of %u claims %u IK states but only %zu bytes are left at offset %zu", i, n,
                     ik, pmi_left(&scan), pmi_offset(&scan));
            return false;
        }
        scan.p += (size_t)ik * 21;
        total += ik;
    }
    if (total > r->max_keys) {
        r->status = pmi_fail(r->err, PM_ERR_LIMIT, "vmd: property section holds %llu IK states, more than the limit of %u",
                 (unsigned long long)total, r->max_keys);
        return false;
    }
    ALLOC(k->frame, n, 4, "vmd: property keys");
    ALLOC(k->visible, n, 1, "vmd: property keys");
    ALLOC(k->ik_start, (size_t)n + 1, 4, "vmd: property keys");
    ALLOC(k->ik_name_index, total, 4, "vmd: property IK states");
    ALLOC(k->ik_enabled, total, 1, "vmd: property IK states");
    k->capacity = n + 1;
    k->ik_capacity = (uint32_t)total;
    k->ik_start[0] = 0;
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = pmi_take(&r->c, 9);
        k->frame[i] = pmi_le32(p);
        k->visible[i] = p[4];
        uint32_t ik = pmi_le32(p + 5);
        k->ik_start[i] = s;
        for (uint32_t j = 0; j < ik; j++, s++) {
            const uint8_t *q = pmi_take(&r->c, 21);
            uint32_t idx = intern_field(r, &v->ik_names, 2, s, q, PM_VMD_IK_NAME_SIZE);
            if (idx == PM_NO_INDEX) return false;
            k->ik_name_index[s] = idx;
            k->ik_enabled[s] = q[20];
        }
        k->count = i + 1;
        k->ik_count = s;
        k->ik_start[i + 1] = s;
    }
    return true;
}

pm_result pm_vmd_read(const uint8_t *data, size_t size, const pm_vmd_read_options *opts, pm_vmd **out,
                      pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: data is NULL");
    pm_vmd_read_options o = opts ? *opts : (pm_vmd_read_options){0};
    reader r = {pmi_cursor_make(data, size), NULL, err, o.max_keys ? o.max_keys : PMI_VMD_DEFAULT_MAX_KEYS, PM_OK,
                NULL, 0, false};

    static const char v2[] = "Vocaloid Motion Data 0002";
    static const char v1[] = "Vocaloid Motion Data file";
    const uint8_t *head = pmi_take(&r.c, 30);
    if (!head) {
        size_t n = size < 25 ? size : 25;
        if (n == 0) return pmi_fail(err, PM_ERR_TRUNCATED, "vmd: the data is empty");
        if (memcmp(data, v2, n) != 0 && memcmp(data, v1, n) != 0)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "vmd: not a VMD file (no \"Vocaloid Motion Data\" header)");
        return pmi_fail(err, PM_ERR_TRUNCATED, "vmd: header is truncated (%zu of 30 bytes)", size);
    }
    uint32_t version;
    size_t name_size;
    if (memcmp(head, v2, 25) == 0) version = 2, name_size = PM_VMD_MODEL_NAME_SIZE;
    else if (memcmp(head, v1, 25) == 0) version = 1, name_size = PM_VMD_MODEL_NAME_SIZE_V1;
    else return pmi_fail(err, PM_ERR_BAD_FORMAT, "vmd: not a VMD file (no \"Vocaloid Motion Data\" header)");
    const uint8_t *name = pmi_take(&r.c, name_size);
    if (!name)
        return pmi_fail(err, PM_ERR_TRUNCATED, "vmd: model name is truncated (%zu of %zu bytes at offset 30)",
                        size - 30, name_size);

    pm_result res = pmi_vmd_new(&o.allocator, &r.vmd, err);
    if (res) return res;
    pm_vmd *v = r.vmd;
    v->version = version;
    memcpy(v->header, head, PM_VMD_HEADER_SIZE);
    memcpy(v->model_field, name, name_size);
    char model[3 * PM_VMD_MODEL_NAME_SIZE + 1];
    pm_sjis_to_utf8(name, pm_sjis_field_length(name, name_size), model, sizeof model);
    if ((res = pm_vmd_set_model_name(v, model, err)) != PM_OK) goto fail;

    static const uint32_t record_min[6] = {PM_VMD_BONE_KEY_SIZE,  PM_VMD_MORPH_KEY_SIZE,  PM_VMD_CAMERA_KEY_SIZE,
                                           PM_VMD_LIGHT_KEY_SIZE, PM_VMD_SHADOW_KEY_SIZE, 9};
    bool (*const readers[6])(reader *, uint32_t) = {read_bones,  read_morphs,  read_cameras,
                                                     read_lights, read_shadows, read_properties};
    for (int s = 0; s < 6; s++) {
        uint32_t count = 0;
        int got = read_count(&r, s, record_min[s], &count);
        if (got < 0) goto fail_set;
        if (got == 0) break;
        r.last_field = NULL; /* the name tables are per section */
        /* names are at most one per key: room for up to 256 of them at once instead of growing the maps
         * step by step (one map of the name bytes, one of the decoded names) */
        const uint32_t guess = count < 256 ? count : 256;
        pm_vmd_names *const tables[6] = {&v->bone_names, &v->morph_names, NULL, NULL, NULL, &v->ik_names};
        if (tables[s] && !pmi_vmd_reserve_names(v, tables[s], guess)) {
            r.status = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory interning names");
            goto fail_set;
        }
        if (!readers[s](&r, count)) goto fail_set;
        v->sections = (uint32_t)s + 1;
    }
    /* whatever follows the property section is kept, so that writing gives the file back */
    const size_t left = pmi_left(&r.c);
    if (left) {
        if (left > UINT32_MAX) {
            res = pmi_fail(err, PM_ERR_LIMIT, "vmd: %zu bytes after the property section are more than 4 GB", left);
            goto fail;
        }
        const uint8_t *rest = pmi_take(&r.c, left);
        char *copy = pmi_arena_strdup(&((pmi_vmd_internal *)v->internal)->arena, (const char *)rest, left);
        if (!copy) {
            res = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory keeping %zu bytes after the last section", left);
            goto fail;
        }
        v->trailing = (const uint8_t *)copy;
        v->trailing_size = (uint32_t)left;
    }
    *out = v;
    return PM_OK;

fail_set:
    res = r.status != PM_OK ? r.status : PM_ERR_BAD_FORMAT;
fail:
    pm_vmd_free(v);
    return res;
}
