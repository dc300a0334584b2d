/* Internal: the MMD standard skeleton measured from the CC0 reference model (mmd_standard.c is generated
 * by build-scripts/gen-mmd-standard-skeleton.mjs). */
#ifndef PROCMOTION_MMD_STANDARD_H
#define PROCMOTION_MMD_STANDARD_H

#include <stdint.h>

typedef struct pmi_mmd_bone {
    const char *name;    /* UTF-8 */
    int16_t parent;      /* index in the table, -1 for a root */
    float position[3];   /* rest position, MMD units */
    int16_t append;      /* append (付与) parent, -1 for none */
    float append_ratio;
    uint16_t flags;      /* PMX bone flags (0x20 IK, 0x100 append rotation, 0x200 append translation) */
} pmi_mmd_bone;

extern const pmi_mmd_bone pmi_mmd_standard[];
extern const uint32_t pmi_mmd_standard_count;

#endif
