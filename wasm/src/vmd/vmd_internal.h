/* Internal state of a pm_vmd: the string arena and, per name table (bone_names, morph_names,
 * ik_names), a map from the UTF-8 text and a map from the name bytes to the index. */
#ifndef PROCMOTION_VMD_INTERNAL_H
#define PROCMOTION_VMD_INTERNAL_H

#include "common/strings.h"
#include "procmotion/vmd.h"
#include "text/sjis_encoder.h"

typedef struct pmi_vmd_internal {
    pmi_arena arena;
    pmi_strmap maps[3];  /* UTF-8 text -> the first index with that text, for entries < indexed[] */
    uint32_t indexed[3]; /* entries in maps[] so far: the reader fills only bytes[]; pm_vmd_intern
                            catches maps[] up on first use */
    pmi_strmap bytes[3]; /* name bytes (before the field's NUL) -> index */
    pmi_sjis_encoder *encoder; /* Shift-JIS map for the names added (made by the first that needs it) */
} pmi_vmd_internal;

/* 0, 1, 2 for the motion's bone, morph and IK name tables, -1 for anything else. */
int pmi_vmd_table_id(const pm_vmd *vmd, const pm_vmd_names *table);
/* Field width of table id: 15 for bone and morph names, 20 for IK names. */
size_t pmi_vmd_table_width(int id);
/* Room for `count` names in the table's maps (a reader's guess; false when out of memory). */
bool pmi_vmd_reserve_names(pm_vmd *vmd, const pm_vmd_names *table, uint32_t count);
/* A new entry for a field (width bytes of table id's width) whose `len` name bytes hash to `hash` and
 * are not in the table yet. */
pm_result pmi_vmd_add_field(pm_vmd *vmd, int id, const uint8_t *field, size_t len, uint32_t hash, uint32_t *index,
                            pm_error *err);
/* Record that key `key` of the table's section stores `field` (the table's width) instead of its
 * name's field. Keys must come in ascending order. */
pm_result pmi_vmd_add_variant(pm_vmd *vmd, pm_vmd_names *table, uint32_t key, const uint8_t *field, pm_error *err);
/* An empty motion with sections = 0 (the reader sets it). */
pm_result pmi_vmd_new(const pm_allocator *allocator, pm_vmd **out, pm_error *err);

#endif
