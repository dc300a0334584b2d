/* The VRM meta fields by number, shared by the writer and the ABI's options reader. */
#ifndef PROCMOTION_VRM_META_H
#define PROCMOTION_VRM_META_H

#include "procmotion/vrm.h"

#include <stddef.h>
#include <stdint.h>

/* The VRM 1.0 meta keys of pm_vrm_meta's 13 texts then its 5 flags, in the struct's order, each ended by
 * a NUL (vrm.c writes them, abi_vrm.c reads them from the options); pmi_vrm_meta_text / _flag address a
 * field by its number. */
extern const char pmi_vrm_meta_keys[];
#define PMI_VRM_META_TEXTS 13
#define PMI_VRM_META_FLAGS 5
#define pmi_vrm_meta_text(mt, k) (*(const char **)((char *)(mt) + (k) * sizeof(const char *)))
#define pmi_vrm_meta_flag(mt, k) (((uint8_t *)(mt) + offsetof(pm_vrm_meta, allow_excessively_violent_usage))[k])

#endif
