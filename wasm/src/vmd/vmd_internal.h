/* Internal state of a pm_vmd: the string arena and the name -> index maps of its three name tables. */
#ifndef PROCMOTION_VMD_INTERNAL_H
#define PROCMOTION_VMD_INTERNAL_H

#include "common/strings.h"
#include "procmotion/vmd.h"

typedef struct pmi_vmd_internal {
    pmi_arena arena;
    pmi_strmap maps[3]; /* UTF-8 name -> index: bone_names, morph_names, ik_names */
} pmi_vmd_internal;

/* Room for `count` names in the table's name -> index map (a reader's guess; false when out of memory). */
bool pmi_vmd_reserve_names(pm_vmd *vmd, const pm_vmd_names *table, uint32_t count);
/* An empty motion with sections = 0 (the reader sets it). */
pm_result pmi_vmd_new(const pm_allocator *allocator, pm_vmd **out, pm_error *err);

#endif
