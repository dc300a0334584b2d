/* VMD writer (see procmotion/vmd.h). */
#include "procmotion/text.h"
#include "vmd_internal.h"

#include <math.h>

/* Encode every name of a table into fixed-width fields (width bytes each, NUL-padded). */
static pm_result encode_table(const pm_vmd *vmd, const pm_vmd_names *t, size_t width, const char *what,
                              uint8_t **out, pm_error *err) {
    *out = pmi_alloc_array(&vmd->allocator, t->count, width, err, "vmd: writing names");
    if (!*out) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < t->count; i++) {
        size_t len = 0;
        pm_error e = {0};
        const pm_string *s = &t->items[i];
        if (pm_utf8_to_sjis(s->data ? s->data : "", s->length, *out + (size_t)i * width, width, &len, NULL, &e) != PM_OK)
            return pmi_fail(err, PM_ERR_ENCODING, "vmd: %s name \"%s\" cannot be written as Shift-JIS: %s", what,
                            s->data ? s->data : "", e.message);
    }
    return PM_OK;
}

static pm_result check_indices(const uint32_t *idx, uint32_t n, uint32_t names, const char *what, pm_error *err) {
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] >= names)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: %s key %u refers to name %u of %u", what, i, idx[i],
                            names);
    return PM_OK;
}

/* Validate everything the writer relies on; computes the file size. */
static pm_result validate(const pm_vmd *v, size_t *size, pm_error *err) {
    pm_result r;
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
    uint64_t total = 30 + 20 + 6 * 4;
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
    if (!v || !out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: write needs a motion and out_size");
    size_t size = 0;
    pm_result r = validate(v, &size, err);
    if (r) return r;
    *out_size = size;

    uint8_t *bone = NULL, *morph = NULL, *ik = NULL;
    uint8_t model[PM_VMD_MODEL_NAME_SIZE] = {0};
    size_t model_len = 0;
    if ((r = pm_utf8_to_sjis(v->model_name.data ? v->model_name.data : "", v->model_name.length, model, sizeof model,
                             &model_len, NULL, err)) != PM_OK) {
        char msg[PM_ERROR_MESSAGE_SIZE];
        memcpy(msg, err ? err->message : "", err ? sizeof msg : 1);
        return pmi_fail(err, PM_ERR_ENCODING, "vmd: the model name cannot be written as Shift-JIS: %s", msg);
    }
    if ((r = encode_table(v, &v->bone_names, 15, "bone", &bone, err)) ||
        (r = encode_table(v, &v->morph_names, 15, "morph", &morph, err)) ||
        (r = encode_table(v, &v->ik_names, 20, "IK", &ik, err)))
        goto done;
    if (!out) goto done;
    if (out_cap < size) {
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vmd: output buffer of %zu bytes is smaller than the %zu needed",
                     out_cap, size);
        goto done;
    }

    uint8_t *p = out;
    memset(p, 0, 50);
    memcpy(p, "Vocaloid Motion Data 0002", 25);
    memcpy(p + 30, model, 20);
    p += 50;

    const pm_vmd_bone_keys *b = &v->bones;
    pmi_put32(p, b->count), p += 4;
    for (uint32_t i = 0; i < b->count; i++, p += PM_VMD_BONE_KEY_SIZE) {
        memcpy(p, bone + (size_t)b->name_index[i] * 15, 15);
        pmi_put32(p + 15, b->frame[i]);
        put_floats(p + 19, b->position + 3 * (size_t)i, 3);
        put_floats(p + 31, b->rotation + 4 * (size_t)i, 4);
        memcpy(p + 47, b->interpolation + 64 * (size_t)i, 64);
    }
    const pm_vmd_morph_keys *m = &v->morphs;
    pmi_put32(p, m->count), p += 4;
    for (uint32_t i = 0; i < m->count; i++, p += PM_VMD_MORPH_KEY_SIZE) {
        memcpy(p, morph + (size_t)m->name_index[i] * 15, 15);
        pmi_put32(p + 15, m->frame[i]);
        pmi_putf32(p + 19, m->weight[i]);
    }
    const pm_vmd_camera_keys *c = &v->cameras;
    pmi_put32(p, c->count), p += 4;
    for (uint32_t i = 0; i < c->count; i++, p += PM_VMD_CAMERA_KEY_SIZE) {
        pmi_put32(p, c->frame[i]);
        pmi_putf32(p + 4, c->distance[i]);
        put_floats(p + 8, c->position + 3 * (size_t)i, 3);
        put_floats(p + 20, c->rotation + 3 * (size_t)i, 3);
        memcpy(p + 32, c->interpolation + 24 * (size_t)i, 24);
        pmi_put32(p + 56, c->fov[i]);
        p[60] = c->perspective[i];
    }
    const pm_vmd_light_keys *l = &v->lights;
    pmi_put32(p, l->count), p += 4;
    for (uint32_t i = 0; i < l->count; i++, p += PM_VMD_LIGHT_KEY_SIZE) {
        pmi_put32(p, l->frame[i]);
        put_floats(p + 4, l->color + 3 * (size_t)i, 3);
        put_floats(p + 16, l->direction + 3 * (size_t)i, 3);
    }
    const pm_vmd_shadow_keys *s = &v->shadows;
    pmi_put32(p, s->count), p += 4;
    for (uint32_t i = 0; i < s->count; i++, p += PM_VMD_SHADOW_KEY_SIZE) {
        pmi_put32(p, s->frame[i]);
        p[4] = s->mode[i];
        pmi_putf32(p + 5, s->distance[i]);
    }
    const pm_vmd_property_keys *pr = &v->properties;
    pmi_put32(p, pr->count), p += 4;
    for (uint32_t i = 0; i < pr->count; i++) {
        uint32_t n = pr->ik_start[i + 1] - pr->ik_start[i];
        pmi_put32(p, pr->frame[i]);
        p[4] = pr->visible[i];
        pmi_put32(p + 5, n);
        p += 9;
        for (uint32_t j = pr->ik_start[i]; j < pr->ik_start[i + 1]; j++, p += 21) {
            memcpy(p, ik + (size_t)pr->ik_name_index[j] * 20, 20);
            p[20] = pr->ik_enabled[j];
        }
    }
done:
    pmi_free(&v->allocator, bone);
    pmi_free(&v->allocator, morph);
    pmi_free(&v->allocator, ik);
    return r;
}
