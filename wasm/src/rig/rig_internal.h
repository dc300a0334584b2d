/* Internal: the rig module's naming tables (for tests) and the name readings shared by its files. */
#ifndef PROCMOTION_RIG_INTERNAL_H
#define PROCMOTION_RIG_INTERNAL_H

#include "common/internal.h"
#include "procmotion/rig.h"

#define PMI_RIG_MAGIC 0x52494731u /* "RIG1" */
#define PMI_RIG_KEY_CAP 64

/* One row of a naming table: `key` (rule 1, no side) plays `role` (the left one when sided). */
typedef struct pmi_rig_entry {
    uint8_t naming;   /* pm_rig_naming */
    uint8_t role;     /* pm_rig_role (< 256) */
    uint8_t sided;
    uint8_t rank;     /* lower wins inside the table */
    uint8_t len;      /* strlen(key) */
    const char *key;
} pmi_rig_entry;

typedef struct pmi_rig_hit {
    pm_rig_role role; /* PM_RIG_ROLE_NONE: no match */
    uint8_t rank;
} pmi_rig_hit;

/* A name after rules 1-2 (key) with the side written at its end (0 none, 1 left, 2 right). */
typedef struct pmi_rig_name {
    char key[PMI_RIG_KEY_CAP];
    size_t len;
    uint8_t suffix_side;
} pmi_rig_name;

uint32_t pmi_rig_entry_count(void);
const pmi_rig_entry *pmi_rig_entry_at(uint32_t i);

/* The side a name is written for (0 none, 1 left, 2 right): a written suffix (.L, 左), then a leading
 * left/right, 左/右 (rule 3 without the one-letter l/r). For chains whose bones play no role. */
int pmi_rig_name_side(const char *name, size_t len);

#endif
