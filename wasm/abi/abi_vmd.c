/* VMD exports: read a file into a motion the host inspects through a descriptor of pointers and counts,
 * and write a motion the host describes the same way (slots: PM_ABI_LAYOUT_VMD in pm_abi_table.h). */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/vmd.h"

#include <stddef.h>
#include <stdlib.h>

/* Descriptor slots (uint32 each). Pointers are offsets into the module's memory. */
enum { PM_ABI_LAYOUT_VMD(PM_ABI_SLOT_ENUM, D_) D_COUNT };
PM_ABI_ENUM_VMD_FIELD(PM_ABI_CHECK_ENUM, vmd_field)

/* The name tables in slot order (bone, morph, IK), their field widths and their first raw slot. */
static const size_t table_width[3] = {PM_VMD_BONE_NAME_SIZE, PM_VMD_BONE_NAME_SIZE, PM_VMD_IK_NAME_SIZE};
static const int table_raw_slot[3] = {D_BONE_FIELDS, D_MORPH_FIELDS, D_IK_FIELDS};

static uint32_t ptr(const void *p) { return (uint32_t)(uintptr_t)p; }

/* The key sections once for describe, read_packed and write: where pm_vmd keeps each count and each
 * key array, the array's descriptor slot, the slot of its count and its bytes per key (the property
 * keys' ik_start holds count + 1 entries). In pack order: the packed block's layout follows it. */
typedef struct vmd_count {
    uint8_t slot;
    uint16_t offset; /* of the uint32_t count in pm_vmd */
} vmd_count;
typedef struct vmd_array {
    uint8_t slot, count_slot, bytes, plus_one;
    uint16_t offset; /* of the pointer in pm_vmd */
} vmd_array;
#define C(slot, member) {slot, offsetof(pm_vmd, member)}
static const vmd_count counts[] = {C(D_BONES, bones.count),     C(D_MORPHS, morphs.count),
                                   C(D_CAMERAS, cameras.count), C(D_LIGHTS, lights.count),
                                   C(D_SHADOWS, shadows.count), C(D_PROPS, properties.count),
                                   C(D_PROP_IK_COUNT, properties.ik_count)};
#undef C
#define A(slot, count_slot, bytes, member) {slot, count_slot, bytes, 0, offsetof(pm_vmd, member)}
static const vmd_array arrays[] = {
    A(D_BONE_NAME_INDEX, D_BONES, 4, bones.name_index),
    A(D_BONE_FRAME, D_BONES, 4, bones.frame),
    A(D_BONE_POSITION, D_BONES, 12, bones.position),
    A(D_BONE_ROTATION, D_BONES, 16, bones.rotation),
    A(D_BONE_INTERP, D_BONES, 64, bones.interpolation),
    A(D_MORPH_NAME_INDEX, D_MORPHS, 4, morphs.name_index),
    A(D_MORPH_FRAME, D_MORPHS, 4, morphs.frame),
    A(D_MORPH_WEIGHT, D_MORPHS, 4, morphs.weight),
    A(D_CAMERA_FRAME, D_CAMERAS, 4, cameras.frame),
    A(D_CAMERA_DISTANCE, D_CAMERAS, 4, cameras.distance),
    A(D_CAMERA_POSITION, D_CAMERAS, 12, cameras.position),
    A(D_CAMERA_ROTATION, D_CAMERAS, 12, cameras.rotation),
    A(D_CAMERA_INTERP, D_CAMERAS, 24, cameras.interpolation),
    A(D_CAMERA_FOV, D_CAMERAS, 4, cameras.fov),
    A(D_CAMERA_PERSPECTIVE, D_CAMERAS, 1, cameras.perspective),
    A(D_LIGHT_FRAME, D_LIGHTS, 4, lights.frame),
    A(D_LIGHT_COLOR, D_LIGHTS, 12, lights.color),
    A(D_LIGHT_DIRECTION, D_LIGHTS, 12, lights.direction),
    A(D_SHADOW_FRAME, D_SHADOWS, 4, shadows.frame),
    A(D_SHADOW_MODE, D_SHADOWS, 1, shadows.mode),
    A(D_SHADOW_DISTANCE, D_SHADOWS, 4, shadows.distance),
    A(D_PROP_FRAME, D_PROPS, 4, properties.frame),
    A(D_PROP_VISIBLE, D_PROPS, 1, properties.visible),
    {D_PROP_IK_START, D_PROPS, 4, 1, offsetof(pm_vmd, properties.ik_start)},
    A(D_PROP_IK_NAME_INDEX, D_PROP_IK_COUNT, 4, properties.ik_name_index),
    A(D_PROP_IK_ENABLED, D_PROP_IK_COUNT, 1, properties.ik_enabled),
};
#undef A
#define N_COUNTS (sizeof counts / sizeof counts[0])
#define N_ARRAYS (sizeof arrays / sizeof arrays[0])
_Static_assert(D_COUNT < 256, "VMD descriptor slots fit the tables' uint8_t");
_Static_assert(sizeof(pm_vmd) < 65536, "pm_vmd offsets fit the tables' uint16_t");

/* A count or pointer member of a pm_vmd by its offset (memcpy: the members are of several types). */
static uint32_t count_at(const pm_vmd *v, size_t offset) {
    uint32_t n;
    memcpy(&n, (const char *)v + offset, sizeof n);
    return n;
}
static const void *array_at(const pm_vmd *v, size_t offset) {
    const void *p;
    memcpy(&p, (const char *)v + offset, sizeof p);
    return p;
}

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
    for (size_t i = 0; i < N_COUNTS; i++) d[counts[i].slot] = count_at(v, counts[i].offset);
    for (size_t i = 0; i < N_ARRAYS; i++) d[arrays[i].slot] = ptr(array_at(v, arrays[i].offset));
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
    for (size_t i = 0; i < N_COUNTS; i++) d[counts[i].slot] = count_at(v, counts[i].offset);
    for (size_t i = 0; i < N_ARRAYS; i++) {
        const vmd_array *a = &arrays[i];
        const size_t n = d[a->count_slot];
        d[a->slot] = pack(pk, array_at(v, a->offset), (n && a->plus_one ? n + 1 : n) * a->bytes);
    }
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
    for (size_t i = 0; i < N_COUNTS; i++) memcpy((char *)&v + counts[i].offset, &d[counts[i].slot], sizeof(uint32_t));
    /* every array of a non-empty section must be there */
    for (size_t i = 0; i < N_ARRAYS; i++) {
        const vmd_array *a = &arrays[i];
        const void *p = (const void *)(uintptr_t)d[a->slot];
        if (d[a->count_slot] && !p) {
            r = pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, a->count_slot == D_PROP_IK_COUNT
                                                            ? "abi: property IK states are missing an array"
                                                            : "abi: a non-empty VMD section is missing an array");
            goto done;
        }
        memcpy((char *)&v + a->offset, &p, sizeof p);
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
