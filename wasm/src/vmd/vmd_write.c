/* VMD writer (see procmotion/vmd.h). */
#include "procmotion/text.h"
#include "text/sjis_encoder.h"
#include "vmd_internal.h"

#include <math.h>

/* Whether `text` is what the field's bytes (before its NUL) decode to: the name was not changed. */
static bool field_holds(const uint8_t *field, size_t width, const pm_string *text) {
    char utf8[3 * PM_VMD_MODEL_NAME_SIZE + 1];
    size_t n = pm_sjis_to_utf8(field, pm_sjis_field_length(field, width), utf8, sizeof utf8);
    return n == text->length && (n == 0 || memcmp(utf8, text->data, n) == 0);
}

/* The `width` bytes written for a name: its stored field when its text is unchanged (canonical: the
 * field's bytes up to the NUL, then NUL), else the text in Shift-JIS, NUL-padded. `out` is zeroed. */
static pm_result encode_name(const pm_string *text, const uint8_t *field, size_t width, bool canonical, uint8_t *out,
                             pmi_sjis_encoder **encoder, const pm_allocator *allocator, pm_error *err) {
    if (field && field_holds(field, width, text)) {
        memcpy(out, field, canonical ? pm_sjis_field_length(field, width) : width);
        return PM_OK;
    }
    return pmi_utf8_to_sjis_with(encoder, allocator, text->data ? text->data : "", text->length, out, width, NULL, NULL,
                                 err);
}

/* The fields written for every name of a table (width bytes each). */
static pm_result encode_table(const pm_vmd *vmd, const pm_vmd_names *t, size_t width, bool canonical, const char *what,
                              uint8_t **out, pmi_sjis_encoder **encoder, pm_error *err) {
    *out = pmi_alloc_array(&vmd->allocator, t->count, width, err, "vmd: writing names");
    if (!*out) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < t->count; i++) {
        pm_error e = {0};
        const pm_string *s = &t->items[i];
        if (encode_name(s, t->fields ? t->fields + (size_t)i * width : NULL, width, canonical, *out + (size_t)i * width,
                        encoder, &vmd->allocator, &e) != PM_OK)
            return pmi_fail(err, PM_ERR_ENCODING, "vmd: %s name \"%s\" cannot be written as Shift-JIS: %s", what,
                            s->data ? s->data : "", e.message);
    }
    return PM_OK;
}

/* The field written for key `key` whose name is written as `row`: a variant the file stored for this key
 * when it holds the same name bytes (lossless only), else `row`. *next walks the ascending variants. */
static const uint8_t *key_field(const pm_vmd_names *t, size_t width, bool canonical, const uint8_t *row, uint32_t key,
                                uint32_t *next) {
    if (canonical || *next >= t->variant_count || t->variant_key[*next] != key) return row;
    const uint8_t *v = t->variant_field + (size_t)(*next)++ * width;
    const size_t n = pm_sjis_field_length(row, width);
    return pm_sjis_field_length(v, width) == n && memcmp(v, row, n) == 0 ? v : row;
}

static pm_result check_variants(const pm_vmd_names *t, const char *what, pm_error *err) {
    if (!t->variant_count) return PM_OK;
    if (!t->variant_key || !t->variant_field)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: %s name variants are missing an array", what);
    for (uint32_t i = 1; i < t->variant_count; i++)
        if (t->variant_key[i] <= t->variant_key[i - 1])
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: %s name variant %u (key %u) is not after key %u", what,
                            i, t->variant_key[i], t->variant_key[i - 1]);
    return PM_OK;
}

/* How the file is laid out: header version, model-name width, section count, trailing bytes. */
typedef struct layout {
    bool canonical;
    uint32_t version;
    size_t model_width;
    uint32_t sections;
    size_t trailing;
} layout;

static layout layout_of(const pm_vmd *v, const pm_vmd_write_options *opts) {
    layout l = {opts && opts->canonical, 2, PM_VMD_MODEL_NAME_SIZE, 6, 0};
    if (l.canonical) return l;
    if (v->version == 1) l.version = 1, l.model_width = PM_VMD_MODEL_NAME_SIZE_V1;
    const uint32_t counts[6] = {v->bones.count,  v->morphs.count,  v->cameras.count,
                                v->lights.count, v->shadows.count, v->properties.count};
    l.sections = v->sections < 6 ? v->sections : 6;
    for (uint32_t s = l.sections; s < 6; s++)
        if (counts[s]) l.sections = s + 1; /* a section the file did not have, holding keys now */
    if (l.sections == 6 && v->trailing) l.trailing = v->trailing_size;
    return l;
}

static pm_result check_indices(const uint32_t *idx, uint32_t n, uint32_t names, const char *what, pm_error *err) {
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] >= names)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: %s key %u refers to name %u of %u", what, i, idx[i],
                            names);
    return PM_OK;
}

/* Validate everything the writer relies on; computes the file size. */
static pm_result validate(const pm_vmd *v, const layout *l, size_t *size, pm_error *err) {
    pm_result r;
    if ((r = check_variants(&v->bone_names, "bone", err)) || (r = check_variants(&v->morph_names, "morph", err)) ||
        (r = check_variants(&v->ik_names, "IK", err)))
        return r;
    if ((r = check_indices(v->bones.name_index, v->bones.count, v->bone_names.count, "bone", err))) return r;
    if ((r = check_indices(v->morphs.name_index, v->morphs.count, v->morph_names.count, "morph", err))) return r;
    if ((r = check_indices(v->properties.ik_name_index, v->properties.ik_count, v->ik_names.count, "property IK", err)))
        return r;
    if (!pmi_all_finite(v->bones.position, 3 * (size_t)v->bones.count) ||
        !pmi_all_finite(v->bones.rotation, 4 * (size_t)v->bones.count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a bone key holds NaN or Inf");
    if (!pmi_all_finite(v->morphs.weight, v->morphs.count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a morph key holds NaN or Inf");
    if (!pmi_all_finite(v->cameras.distance, v->cameras.count) ||
        !pmi_all_finite(v->cameras.position, 3 * (size_t)v->cameras.count) ||
        !pmi_all_finite(v->cameras.rotation, 3 * (size_t)v->cameras.count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a camera key holds NaN or Inf");
    if (!pmi_all_finite(v->lights.color, 3 * (size_t)v->lights.count) ||
        !pmi_all_finite(v->lights.direction, 3 * (size_t)v->lights.count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a light key holds NaN or Inf");
    if (!pmi_all_finite(v->shadows.distance, v->shadows.count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: a self-shadow key holds NaN or Inf");
    const pm_vmd_property_keys *p = &v->properties;
    if (p->count && (!p->ik_start || p->ik_start[0] != 0 || p->ik_start[p->count] != p->ik_count))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: property keys' IK ranges are inconsistent");
    for (uint32_t i = 0; i < p->count; i++)
        if (p->ik_start[i + 1] < p->ik_start[i])
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: property key %u has a negative IK range", i);
    uint64_t total = PM_VMD_HEADER_SIZE + l->model_width + 4 * (uint64_t)l->sections + l->trailing;
    total += (uint64_t)v->bones.count * PM_VMD_BONE_KEY_SIZE + (uint64_t)v->morphs.count * PM_VMD_MORPH_KEY_SIZE +
             (uint64_t)v->cameras.count * PM_VMD_CAMERA_KEY_SIZE + (uint64_t)v->lights.count * PM_VMD_LIGHT_KEY_SIZE +
             (uint64_t)v->shadows.count * PM_VMD_SHADOW_KEY_SIZE + (uint64_t)p->count * 9 + (uint64_t)p->ik_count * 21;
    if (total > SIZE_MAX / 2) return pmi_fail(err, PM_ERR_LIMIT, "vmd: motion too large to write");
    *size = (size_t)total;
    return PM_OK;
}

static void put_floats(uint8_t *p, const float *v, int n) {
    for (int i = 0; i < n; i++) pmi_putf32(p + 4 * i, v[i]);
}

pm_result pm_vmd_write(const pm_vmd *v, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err) {
    return pm_vmd_write_with(v, NULL, out, out_cap, out_size, err);
}

pm_result pm_vmd_write_with(const pm_vmd *v, const pm_vmd_write_options *opts, uint8_t *out, size_t out_cap,
                            size_t *out_size, pm_error *err) {
    if (!v || !out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: write needs a motion and out_size");
    const layout l = layout_of(v, opts);
    const bool canon = l.canonical;
    size_t size = 0;
    pm_result r = validate(v, &l, &size, err);
    if (r) return r;
    *out_size = size;

    uint8_t *bone = NULL, *morph = NULL, *ik = NULL;
    uint8_t model[PM_VMD_MODEL_NAME_SIZE] = {0};
    pmi_sjis_encoder *encoder = NULL; /* made by the first name that needs it, for all of this write */
    if ((r = encode_name(&v->model_name, v->model_field, l.model_width, canon, model, &encoder, &v->allocator, err)) !=
        PM_OK) {
        pmi_sjis_encoder_free(encoder);
        char msg[PM_ERROR_MESSAGE_SIZE];
        memcpy(msg, err ? err->message : "", err ? sizeof msg : 1);
        return pmi_fail(err, PM_ERR_ENCODING, "vmd: the model name cannot be written as Shift-JIS: %s", msg);
    }
    if ((r = encode_table(v, &v->bone_names, PM_VMD_BONE_NAME_SIZE, canon, "bone", &bone, &encoder, err)) ||
        (r = encode_table(v, &v->morph_names, PM_VMD_BONE_NAME_SIZE, canon, "morph", &morph, &encoder, err)) ||
        (r = encode_table(v, &v->ik_names, PM_VMD_IK_NAME_SIZE, canon, "IK", &ik, &encoder, err)))
        goto done;
    if (!out) goto done;
    if (out_cap < size) {
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: output buffer of %zu bytes is smaller than the %zu needed",
                     out_cap, size);
        goto done;
    }

    uint8_t *p = out;
    memset(p, 0, PM_VMD_HEADER_SIZE);
    memcpy(p, l.version == 1 ? "Vocaloid Motion Data file" : "Vocaloid Motion Data 0002", 25);
    if (!canon) memcpy(p + 25, v->header + 25, PM_VMD_HEADER_SIZE - 25);
    memcpy(p + PM_VMD_HEADER_SIZE, model, l.model_width);
    p += PM_VMD_HEADER_SIZE + l.model_width;

    uint32_t next = 0;
    const pm_vmd_bone_keys *b = &v->bones;
    if (l.sections >= 1) pmi_put32(p, b->count), p += 4;
    for (uint32_t i = 0; i < b->count; i++, p += PM_VMD_BONE_KEY_SIZE) {
        memcpy(p, key_field(&v->bone_names, 15, canon, bone + (size_t)b->name_index[i] * 15, i, &next), 15);
        pmi_put32(p + 15, b->frame[i]);
        put_floats(p + 19, b->position + 3 * (size_t)i, 3);
        put_floats(p + 31, b->rotation + 4 * (size_t)i, 4);
        memcpy(p + 47, b->interpolation + 64 * (size_t)i, 64);
    }
    const pm_vmd_morph_keys *m = &v->morphs;
    if (l.sections >= 2) pmi_put32(p, m->count), p += 4;
    next = 0;
    for (uint32_t i = 0; i < m->count; i++, p += PM_VMD_MORPH_KEY_SIZE) {
        memcpy(p, key_field(&v->morph_names, 15, canon, morph + (size_t)m->name_index[i] * 15, i, &next), 15);
        pmi_put32(p + 15, m->frame[i]);
        pmi_putf32(p + 19, m->weight[i]);
    }
    const pm_vmd_camera_keys *c = &v->cameras;
    if (l.sections >= 3) pmi_put32(p, c->count), p += 4;
    for (uint32_t i = 0; i < c->count; i++, p += PM_VMD_CAMERA_KEY_SIZE) {
        pmi_put32(p, c->frame[i]);
        pmi_putf32(p + 4, c->distance[i]);
        put_floats(p + 8, c->position + 3 * (size_t)i, 3);
        put_floats(p + 20, c->rotation + 3 * (size_t)i, 3);
        memcpy(p + 32, c->interpolation + 24 * (size_t)i, 24);
        pmi_put32(p + 56, c->fov[i]);
        p[60] = c->perspective[i];
    }
    const pm_vmd_light_keys *lk = &v->lights;
    if (l.sections >= 4) pmi_put32(p, lk->count), p += 4;
    for (uint32_t i = 0; i < lk->count; i++, p += PM_VMD_LIGHT_KEY_SIZE) {
        pmi_put32(p, lk->frame[i]);
        put_floats(p + 4, lk->color + 3 * (size_t)i, 3);
        put_floats(p + 16, lk->direction + 3 * (size_t)i, 3);
    }
    const pm_vmd_shadow_keys *s = &v->shadows;
    if (l.sections >= 5) pmi_put32(p, s->count), p += 4;
    for (uint32_t i = 0; i < s->count; i++, p += PM_VMD_SHADOW_KEY_SIZE) {
        pmi_put32(p, s->frame[i]);
        p[4] = s->mode[i];
        pmi_putf32(p + 5, s->distance[i]);
    }
    const pm_vmd_property_keys *pr = &v->properties;
    if (l.sections >= 6) pmi_put32(p, pr->count), p += 4;
    next = 0;
    for (uint32_t i = 0; i < pr->count; i++) {
        uint32_t n = pr->ik_start[i + 1] - pr->ik_start[i];
        pmi_put32(p, pr->frame[i]);
        p[4] = pr->visible[i];
        pmi_put32(p + 5, n);
        p += 9;
        for (uint32_t j = pr->ik_start[i]; j < pr->ik_start[i + 1]; j++, p += 21) {
            memcpy(p, key_field(&v->ik_names, 20, canon, ik + (size_t)pr->ik_name_index[j] * 20, j, &next), 20);
            p[20] = pr->ik_enabled[j];
        }
    }
    if (l.trailing) memcpy(p, v->trailing, l.trailing);
done:
    pmi_sjis_encoder_free(encoder);
    pmi_free(&v->allocator, bone);
    pmi_free(&v->allocator, morph);
    pmi_free(&v->allocator, ik);
    return r;
}
