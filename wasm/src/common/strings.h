/* Internal: a string arena and a hash map from strings to indices, used by every module that keeps a
 * table of distinct names (VMD sections, skeletons). */
#ifndef PROCMOTION_STRINGS_H
#define PROCMOTION_STRINGS_H

#include "internal.h"

typedef struct pmi_arena_chunk pmi_arena_chunk;

/* Bump allocator for NUL-terminated strings and small records; everything is freed at once.
 * Zero-initialise. */
typedef struct pmi_arena {
    const pm_allocator *allocator;
    pmi_arena_chunk *chunks;
    size_t chunk_size; /* bytes per chunk; 0 = 4096 (a larger request gets a chunk of its own) */
} pmi_arena;

/* Copy `len` bytes plus a NUL into the arena. Returns NULL when out of memory. */
char *pmi_arena_strdup(pmi_arena *arena, const char *s, size_t len);
/* `size` zeroed bytes aligned to 8. Returns NULL when out of memory. */
void *pmi_arena_alloc(pmi_arena *arena, size_t size);
void pmi_arena_release(pmi_arena *arena);

/* Open-addressing map from byte strings to uint32 values. Keys are not copied: the caller keeps
 * them alive (typically in an arena). Zero-initialise. */
typedef struct pmi_strmap {
    const pm_allocator *allocator;
    uint32_t capacity; /* power of two, or 0 */
    uint32_t count;
    struct pmi_strmap_slot *slots;
} pmi_strmap;

/* Value for key, or PM_NO_INDEX. */
uint32_t pmi_strmap_get(const pmi_strmap *map, const char *key, size_t len);
/* Insert (the key must not be present). Returns false when out of memory. */
bool pmi_strmap_put(pmi_strmap *map, const char *key, size_t len, uint32_t value);
/* The same with the key's pmi_hash_bytes already computed (a lookup that missed, then the insert). */
uint32_t pmi_strmap_get_hashed(const pmi_strmap *map, const char *key, size_t len, uint32_t hash);
bool pmi_strmap_put_hashed(pmi_strmap *map, const char *key, size_t len, uint32_t hash, uint32_t value);
/* Make room for `count` entries in total without growing again. Returns false when out of memory. */
bool pmi_strmap_reserve(pmi_strmap *map, uint32_t count);
void pmi_strmap_release(pmi_strmap *map);

uint32_t pmi_hash_bytes(const void *data, size_t len);

#endif
