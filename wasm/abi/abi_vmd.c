/* VMD exports: read a file into a motion the host inspects through a descriptor of pointers and counts,
 * and write a motion the host describes the same way (slots: PM_ABI_LAYOUT_VMD in pm_abi_table.h). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/vmd.h"

#include <stdlib.h>

/* Descriptor slots (uint32 each). Pointers are offsets into the module's memory. */
enum { PM_ABI_LAYOUT_VMD(PM_ABI_SLOT_ENUM, D_) D_COUNT };
PM_ABI_ENUM_VMD_FIELD(PM_ABI_CHECK_ENUM, vmd_field)

/* The name tables in slot order (bone, morph, IK), their field widths and their first raw slot. */
static const size_t table_width[3] = {PM_VMD_BONE_NAME_SIZE, PM_VMD_BONE_NAME_SIZE, PM_VMD_IK_NAME_SIZE};
static const int table_raw_slot[3] = {D_BONE_FIELDS, D_MORPH_FIELDS, D_IK_FIELDS};

static uint32_t ptr(const void *p) { return (uint32_t)(uintptr_t)p; }

/* Number of descriptor slots the host must provide. */
PM_EXPORT uint32_t pm_abi_vmd_descriptor_slots(void) { return D_COUNT; }

/* Parse a VMD. Returns the motion (free with pm_abi_vmd_free) or NULL with a message in errbuf. */
PM_EXPORT pm_vmd *pm_abi_vmd_read(const uint8_t *data, uint32_t size, char *errbuf) {
    pm_error err = {0};
    pm_vmd *vmd = NULL;
    if (pm_vmd_read(data, size, NULL, &vmd, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return vmd;
}

PM_EXPORT void pm_abi_vmd_free(pm_vmd *vmd) { pm_vmd_free(vmd); }

/* Fill `d` (pm_abi_vmd_descriptor_slots() uint32 slots) with the motion's counts and array offsets.
 * Name tables are arrays of {uint32 utf8_offset, uint32 byte_length}. */
PM_EXPORT void pm_abi_vmd_describe(const pm_vmd *v, uint32_t *d) {
    memset(d, 0, D_COUNT * sizeof *d);
    if (!v) return;
    d[D_VERSION] = v->version;
    d[D_SECTIONS] = v->sections;
    d[D_MODEL_NAME] = ptr(v->model_name.data);
    d[D_MODEL_NAME_LEN] = v->model_name.length;
    d[D_BONE_NAMES] = v->bone_names.count, d[D_BONE_NAMES_PTR] = ptr(v->bone_names.items);
    d[D_MORPH_NAMES] = v->morph_names.count, d[D_MORPH_NAMES_PTR] = ptr(v->morph_names.items);
    d[D_IK_NAMES] = v->ik_names.count, d[D_IK_NAMES_PTR] = ptr(v->ik_names.items);
    const pm_vmd_bone_keys *b = &v->bones;
    d[D_BONES] = b->count, d[D_BONE_NAME_INDEX] = ptr(b->name_index), d[D_BONE_FRAME] = ptr(b->frame);
    d[D_BONE_POSITION] = ptr(b->position), d[D_BONE_ROTATION] = ptr(b->rotation), d[D_BONE_INTERP] = ptr(b->interpolation);
    const pm_vmd_morph_keys *m = &v->morphs;
    d[D_MORPHS] = m->count, d[D_MORPH_NAME_INDEX] = ptr(m->name_index), d[D_MORPH_FRAME] = ptr(m->frame);
    d[D_MORPH_WEIGHT] = ptr(m->weight);
    const pm_vmd_camera_keys *c = &v->cameras;
    d[D_CAMERAS] = c->count, d[D_CAMERA_FRAME] = ptr(c->frame), d[D_CAMERA_DISTANCE] = ptr(c->distance);
    d[D_CAMERA_POSITION] = ptr(c->position), d[D_CAMERA_ROTATION] = ptr(c->rotation);
    d[D_CAMERA_INTERP] = ptr(c->interpolation), d[D_CAMERA_FOV] = ptr(c->fov), d[D_CAMERA_PERSPECTIVE] = ptr(c->perspective);
    const pm_vmd_light_keys *l = &v->lights;
    d[D_LIGHTS] = l->count, d[D_LIGHT_FRAME] = ptr(l->frame), d[D_LIGHT_COLOR] = ptr(l->color);
    d[D_LIGHT_DIRECTION] = ptr(l->direction);
    const pm_vmd_shadow_keys *s = &v->shadows;
    d[D_SHADOWS] = s->count, d[D_SHADOW_FRAME] = ptr(s->frame), d[D_SHADOW_MODE] = ptr(s->mode);
    d[D_SHADOW_DISTANCE] = ptr(s->distance);
    const pm_vmd_property_keys *p = &v->properties;
    d[D_PROPS] = p->count, d[D_PROP_FRAME] = ptr(p->frame), d[D_PROP_VISIBLE] = ptr(p->visible);
    d[D_PROP_IK_START] = ptr(p->ik_start), d[D_PROP_IK_COUNT] = p->ik_count;
    d[D_PROP_IK_NAME_INDEX] = ptr(p->ik_name_index), d[D_PROP_IK_ENABLED] = ptr(p->ik_enabled);
    d[D_HEADER] = ptr(v->header), d[D_MODEL_FIELD] = ptr(v->model_field);
    d[D_TRAILING] = ptr(v->trailing), d[D_TRAILING_SIZE] = v->trailing_size;
    const pm_vmd_names *tables[3] = {&v->bone_names, &v->morph_names, &v->ik_names};
    for (int t = 0; t < 3; t++) {
        const int at = table_raw_slot[t];
        d[at] = ptr(tables[t]->fields), d[at + 1] = tables[t]->variant_count;
        d[at + 2] = ptr(tables[t]->variant_key), d[at + 3] = ptr(tables[t]->variant_field);
    }
}

/* ---- one call, one block ------------------------------------------------------------------------ */

typedef struct packer {
    uint8_t *base; /* NULL: measuring */
    size_t at;
} packer;

/* Reserve n bytes (4-aligned), copy src there when writing; returns the offset. */
static uint32_t pack(packer *pk, const void *src, size_t n) {
    pk->at = (pk->at + 3) & ~(size_t)3;
    uint32_t off = (uint32_t)pk->at;
    if (pk->base && n) memcpy(pk->base + off, src, n);
    pk->at += n;
    return off;
}

/* Append one name to the text blob, NUL-separated from the one before (names hold no NUL). */
static void pack_text(packer *pk, const pm_string *t, bool first) {
    if (!first) {
        if (pk->base) pk->base[pk->at] = 0;
        pk->at++;
    }
    if (pk->base && t->length) memcpy(pk->base + pk->at, t->data, t->length);
    pk->at += t->length;
}

static void pack_all(packer *pk, const pm_vmd *v, uint32_t *d) {
    memset(d, 0, D_COUNT * sizeof *d);
    d[D_VERSION] = v->version;
    d[D_SECTIONS] = v->sections;
    d[D_MODEL_NAME_LEN] = v->model_name.length;
    d[D_BONE_NAMES] = v->bone_names.count, d[D_MORPH_NAMES] = v->morph_names.count, d[D_IK_NAMES] = v->ik_names.count;
    const pm_vmd_bone_keys *b = &v->bones;
    const size_t nb = b->count;
    d[D_BONES] = b->count;
    d[D_BONE_NAME_INDEX] = pack(pk, b->name_index, nb * 4), d[D_BONE_FRAME] = pack(pk, b->frame, nb * 4);
    d[D_BONE_POSITION] = pack(pk, b->position, nb * 12), d[D_BONE_ROTATION] = pack(pk, b->rotation, nb * 16);
    d[D_BONE_INTERP] = pack(pk, b->interpolation, nb * 64);
    const pm_vmd_morph_keys *m = &v->morphs;
    const size_t nm = m->count;
    d[D_MORPHS] = m->count;
    d[D_MORPH_NAME_INDEX] = pack(pk, m->name_index, nm * 4), d[D_MORPH_FRAME] = pack(pk, m->frame, nm * 4);
    d[D_MORPH_WEIGHT] = pack(pk, m->weight, nm * 4);
    const pm_vmd_camera_keys *c = &v->cameras;
    const size_t nc = c->count;
    d[D_CAMERAS] = c->count;
    d[D_CAMERA_FRAME] = pack(pk, c->frame, nc * 4), d[D_CAMERA_DISTANCE] = pack(pk, c->distance, nc * 4);
    d[D_CAMERA_POSITION] = pack(pk, c->position, nc * 12), d[D_CAMERA_ROTATION] = pack(pk, c->rotation, nc * 12);
    d[D_CAMERA_INTERP] = pack(pk, c->interpolation, nc * 24), d[D_CAMERA_FOV] = pack(pk, c->fov, nc * 4);
    d[D_CAMERA_PERSPECTIVE] = pack(pk, c->perspective, nc);
    const pm_vmd_light_keys *l = &v->lights;
    const size_t nl = l->count;
    d[D_LIGHTS] = l->count;
    d[D_LIGHT_FRAME] = pack(pk, l->frame, nl * 4), d[D_LIGHT_COLOR] = pack(pk, l->color, nl * 12);
    d[D_LIGHT_DIRECTION] = pack(pk, l->direction, nl * 12);
    const pm_vmd_shadow_keys *sh = &v->shadows;
    const size_t ns = sh->count;
    d[D_SHADOWS] = sh->count;
    d[D_SHADOW_FRAME] = pack(pk, sh->frame, ns * 4), d[D_SHADOW_MODE] = pack(pk, sh->mode, ns);
    d[D_SHADOW_DISTANCE] = pack(pk, sh->distance, ns * 4);
    const pm_vmd_property_keys *p = &v->properties;
    const size_t np = p->count, ni = p->ik_count;
    d[D_PROPS] = p->count;
    d[D_PROP_FRAME] = pack(pk, p->frame, np * 4), d[D_PROP_VISIBLE] = pack(pk, p->visible, np);
    d[D_PROP_IK_START] = pack(pk, p->ik_start, np ? (np + 1) * 4 : 0), d[D_PROP_IK_COUNT] = p->ik_count;
    d[D_PROP_IK_NAME_INDEX] = pack(pk, p->ik_name_index, ni * 4), d[D_PROP_IK_ENABLED] = pack(pk, p->ik_enabled, ni);
    d[D_HEADER] = pack(pk, v->header, PM_VMD_HEADER_SIZE), d[D_MODEL_FIELD] = pack(pk, v->model_field, PM_VMD_MODEL_NAME_SIZE);
    d[D_TRAILING] = pack(pk, v->trailing, v->trailing_size), d[D_TRAILING_SIZE] = v->trailing_size;
    const pm_vmd_names *tables[3] = {&v->bone_names, &v->morph_names, &v->ik_names};
    for (int t = 0; t < 3; t++) {
        const pm_vmd_names *n = tables[t];
        const int at = table_raw_slot[t];
        d[at] = pack(pk, n->fields, n->fields ? n->count * table_width[t] : 0), d[at + 1] = n->variant_count;
        d[at + 2] = pack(pk, n->variant_key, (size_t)n->variant_count * 4);
        d[at + 3] = pack(pk, n->variant_field, n->variant_count * table_width[t]);
    }
    d[D_TEXT] = pack(pk, NULL, 0);
    pack_text(pk, &v->model_name, true);
    for (int t = 0; t < 3; t++)
        for (uint32_t i = 0; i < tables[t]->count; i++) pack_text(pk, &tables[t]->items[i], false);
    d[D_TEXT_BYTES] = (uint32_t)(pk->at - d[D_TEXT]);
    d[D_PACKED_SIZE] = (uint32_t)pk->at;
}

/*
 * Parse a VMD and hand everything back in one malloc'd block (the host copies it out once and frees it
 * with pm_abi_free): `d` gets the pm_abi_vmd_describe slots with every array slot an offset into the
 * block (each 4-aligned) and the name-table counts (their pointer slots unused), D_PACKED_SIZE, and
 * D_TEXT / D_TEXT_BYTES: the model name, then every bone, morph and IK name in table order, all
 * joined by NUL (one text decode on the host, split in 1 + three counts strings). Returns the block,
 * or NULL with a message in errbuf.
 */
PM_EXPORT uint8_t *pm_abi_vmd_read_packed(const uint8_t *data, uint32_t size, uint32_t *d, char *errbuf) {
    pm_error err = {0};
    pm_vmd *vmd = NULL;
    if (pm_vmd_read(data, size, NULL, &vmd, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    packer pk = {NULL, 0};
    pack_all(&pk, vmd, d);
    if (pk.at > UINT32_MAX - 4) {
        pm_vmd_free(vmd);
        pmi_fail(&err, PM_ERR_LIMIT, "abi: the motion needs more than 4 GB");
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    pk.base = malloc(pk.at ? pk.at : 1);
    if (!pk.base) {
        pm_vmd_free(vmd);
        pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "abi: out of memory for a %zu-byte motion", pk.at);
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    pk.at = 0;
    pack_all(&pk, vmd, d);
    pm_vmd_free(vmd);
    return pk.base;
}

/* Name tables on the way in: a UTF-8 blob and count + 1 offsets into it, and the fields and variants
 * (raw_slot: the table's D_*_FIELDS). */
static pm_result names_in(const uint32_t *d, int slot, int raw_slot, pm_vmd_names *t, pm_error *err) {
    uint32_t count = d[slot];
    const uint32_t *offsets = (const uint32_t *)(uintptr_t)d[slot + 1];
    t->count = count;
    t->fields = (uint8_t *)(uintptr_t)d[raw_slot];
    t->variant_count = d[raw_slot + 1];
    t->variant_key = (uint32_t *)(uintptr_t)d[raw_slot + 2];
    t->variant_field = (uint8_t *)(uintptr_t)d[raw_slot + 3];
    if (!count) return PM_OK;
    const char *blob = (const char *)(uintptr_t)offsets[count + 1];
    t->items = pmi_alloc_array(NULL, count, sizeof(pm_string), err, "abi: names");
    if (!t->items) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < count; i++) {
        if (offsets[i + 1] < offsets[i]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "abi: bad name offsets");
        t->items[i].data = blob + offsets[i];
        t->items[i].length = offsets[i + 1] - offsets[i];
    }
    return PM_OK;
}

/*
 * Serialise a motion described by `d` (same slots as pm_abi_vmd_describe, except that each name slot
 * pair is {count, offsets} where offsets holds count + 1 byte offsets followed by one more uint32: the
 * address of the UTF-8 blob). D_VERSION and D_SECTIONS are the motion's (version 0 means 2); the raw
 * slots may be 0 (no header, model field or trailing bytes; no stored fields: every name is encoded);
 * a fields slot must hold count x width bytes. D_CANONICAL non-zero writes the canonical form. On
 * success returns 0, stores a malloc'd buffer in *out (host frees with pm_abi_free) and its size in
 * *out_size; otherwise returns the pm_result and fills errbuf.
 */
PM_EXPORT int32_t pm_abi_vmd_write(const uint32_t *d, uint8_t **out, uint32_t *out_size, char *errbuf) {
    pm_error err = {0};
    pm_vmd v;
    memset(&v, 0, sizeof v);
    *out = NULL;
    *out_size = 0;
    const pm_vmd_write_options wo = {d[D_CANONICAL] != 0};
    v.version = d[D_VERSION] ? d[D_VERSION] : 2;
    v.sections = d[D_SECTIONS];
    if (d[D_HEADER]) memcpy(v.header, (const void *)(uintptr_t)d[D_HEADER], PM_VMD_HEADER_SIZE);
    if (d[D_MODEL_FIELD]) memcpy(v.model_field, (const void *)(uintptr_t)d[D_MODEL_FIELD], PM_VMD_MODEL_NAME_SIZE);
    v.trailing = (const uint8_t *)(uintptr_t)d[D_TRAILING];
    v.trailing_size = v.trailing ? d[D_TRAILING_SIZE] : 0;
    v.model_name.data = (const char *)(uintptr_t)d[D_MODEL_NAME];
    v.model_name.length = d[D_MODEL_NAME_LEN];
    if (!v.model_name.data) v.model_name.data = "", v.model_name.length = 0;
    pm_result r;
    uint8_t *buf = NULL;
    size_t size = 0;
    if ((r = names_in(d, D_BONE_NAMES, D_BONE_FIELDS, &v.bone_names, &err)) ||
        (r = names_in(d, D_MORPH_NAMES, D_MORPH_FIELDS, &v.morph_names, &err)) ||
        (r = names_in(d, D_IK_NAMES, D_IK_FIELDS, &v.ik_names, &err)))
        goto done;
#define P(type, slot) ((type *)(uintptr_t)d[slot])
    v.bones = (pm_vmd_bone_keys){d[D_BONES], P(uint32_t, D_BONE_NAME_INDEX), P(uint32_t, D_BONE_FRAME),
                                 P(float, D_BONE_POSITION), P(float, D_BONE_ROTATION), P(uint8_t, D_BONE_INTERP), 0};
    v.morphs = (pm_vmd_morph_keys){d[D_MORPHS], P(uint32_t, D_MORPH_NAME_INDEX), P(uint32_t, D_MORPH_FRAME),
                                   P(float, D_MORPH_WEIGHT), 0};
    v.cameras = (pm_vmd_camera_keys){d[D_CAMERAS], P(uint32_t, D_CAMERA_FRAME), P(float, D_CAMERA_DISTANCE),
                                     P(float, D_CAMERA_POSITION), P(float, D_CAMERA_ROTATION),
                                     P(uint8_t, D_CAMERA_INTERP), P(uint32_t, D_CAMERA_FOV),
                                     P(uint8_t, D_CAMERA_PERSPECTIVE), 0};
    v.lights = (pm_vmd_light_keys){d[D_LIGHTS], P(uint32_t, D_LIGHT_FRAME), P(float, D_LIGHT_COLOR),
                                   P(float, D_LIGHT_DIRECTION), 0};
    v.shadows = (pm_vmd_shadow_keys){d[D_SHADOWS], P(uint32_t, D_SHADOW_FRAME), P(uint8_t, D_SHADOW_MODE),
                                     P(float, D_SHADOW_DISTANCE), 0};
    v.properties = (pm_vmd_property_keys){d[D_PROPS], P(uint32_t, D_PROP_FRAME), P(uint8_t, D_PROP_VISIBLE),
                                          P(uint32_t, D_PROP_IK_START), d[D_PROP_IK_COUNT],
                                          P(uint32_t, D_PROP_IK_NAME_INDEX), P(uint8_t, D_PROP_IK_ENABLED), 0, 0};
#undef P
    /* every array of a non-empty section must be there */
    static const uint8_t groups[][9] = {
        {D_BONES, D_BONE_NAME_INDEX, D_BONE_FRAME, D_BONE_POSITION, D_BONE_ROTATION, D_BONE_INTERP},
        {D_MORPHS, D_MORPH_NAME_INDEX, D_MORPH_FRAME, D_MORPH_WEIGHT},
        {D_CAMERAS, D_CAMERA_FRAME, D_CAMERA_DISTANCE, D_CAMERA_POSITION, D_CAMERA_ROTATION, D_CAMERA_INTERP,
         D_CAMERA_FOV, D_CAMERA_PERSPECTIVE},
        {D_LIGHTS, D_LIGHT_FRAME, D_LIGHT_COLOR, D_LIGHT_DIRECTION},
        {D_SHADOWS, D_SHADOW_FRAME, D_SHADOW_MODE, D_SHADOW_DISTANCE},
        {D_PROPS, D_PROP_FRAME, D_PROP_VISIBLE, D_PROP_IK_START},
    };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (int k = 1; k < 9 && groups[g][k]; k++)
            if (d[groups[g][0]] && !d[groups[g][k]]) {
                r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: a non-empty VMD section is missing an array");
                goto done;
            }
    if (d[D_PROP_IK_COUNT] && (!d[D_PROP_IK_NAME_INDEX] || !d[D_PROP_IK_ENABLED])) {
        r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "abi: property IK states are missing an array");
        goto done;
    }
    if ((r = pm_vmd_write_with(&v, &wo, NULL, 0, &size, &err))) goto done;
    buf = malloc(size ? size : 1);
    if (!buf) {
        r = pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "vmd: out of memory for a %zu-byte file", size);
        goto done;
    }
    if ((r = pm_vmd_write_with(&v, &wo, buf, size, &size, &err))) goto done;
    *out = buf;
    *out_size = (uint32_t)size;
    buf = NULL;
done:
    free(buf);
    free(v.bone_names.items);
    free(v.morph_names.items);
    free(v.ik_names.items);
    if (r) pm_abi_set_error(errbuf, &err);
    return (int32_t)r;
}
