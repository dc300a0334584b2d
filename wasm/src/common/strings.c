/* String arena and string -> index map (see strings.h). */
#include "strings.h"

struct pmi_arena_chunk {
    pmi_arena_chunk *next;
    size_t used, size;
    char data[];
};

#define PMI_ARENA_CHUNK 4096

/* `need` bytes at an address that is a multiple of `align` (a power of two), from the head chunk or
 * a new one; NULL when out of memory. */
static char *arena_take(pmi_arena *arena, size_t need, size_t align) {
    if (need > SIZE_MAX / 2) return NULL;
    pmi_arena_chunk *c = arena->chunks;
    size_t pad = c ? (size_t)(-(uintptr_t)(c->data + c->used) & (align - 1)) : 0;
    if (!c || c->size - c->used < need + pad) {
        const size_t chunk = arena->chunk_size ? arena->chunk_size : PMI_ARENA_CHUNK;
        const size_t want = need + (align - 1); /* aligned wherever the chunk's data starts */
        size_t size = want > chunk ? want : chunk;
        c = pmi_alloc(arena->allocator, sizeof(pmi_arena_chunk) + size);
        if (!c) return NULL;
        c->used = 0;
        c->size = size;
        if (want > chunk && arena->chunks) {
            /* keep the partly used chunk at the head for small requests */
            c->next = arena->chunks->next;
            arena->chunks->next = c;
        } else {
            c->next = arena->chunks;
            arena->chunks = c;
        }
        pad = (size_t)(-(uintptr_t)c->data & (align - 1));
    }
    char *out = c->data + c->used + pad;
    c->used += pad + need;
    return out;
}

char *pmi_arena_strdup(pmi_arena *arena, const char *s, size_t len) {
    if (len > SIZE_MAX / 2) return NULL;
    char *out = arena_take(arena, len + 1, 1);
    if (!out) return NULL;
    if (len && s) memcpy(out, s, len); /* s NULL: reserve only (pmi_arena_strdup_utf8) */
    out[len] = '\0';
    return out;
}

void *pmi_arena_alloc(pmi_arena *arena, size_t size) {
    char *out = arena_take(arena, size, 8);
    if (out) memset(out, 0, size);
    return out;
}

void pmi_arena_release(pmi_arena *arena) {
    pmi_arena_chunk *c = arena->chunks;
    while (c) {
        pmi_arena_chunk *next = c->next;
        pmi_free(arena->allocator, c);
        c = next;
    }
    arena->chunks = NULL;
}

struct pmi_strmap_slot {
    const char *key;
    uint32_t len;
    uint32_t hash;
    uint32_t value; /* PM_NO_INDEX = empty */
};

uint32_t pmi_hash_bytes(const void *data, size_t len) {
    /* FNV-1a over 4-byte words (then the last 0-3 bytes), finished with a murmur3-style mix: names are
     * short, and a word per step is a quarter of the multiplications of the byte-wise FNV-1a */
    const uint8_t *p = data;
    uint32_t h = 2166136261u ^ (uint32_t)len;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
        h = (h ^ w) * 16777619u;
    }
    for (; i < len; i++) h = (h ^ p[i]) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return h;
}

uint32_t pmi_strmap_get(const pmi_strmap *map, const char *key, size_t len) {
    return map->capacity ? pmi_strmap_get_hashed(map, key, len, pmi_hash_bytes(key, len)) : PM_NO_INDEX;
}

uint32_t pmi_strmap_get_hashed(const pmi_strmap *map, const char *key, size_t len, uint32_t h) {
    if (!map->capacity) return PM_NO_INDEX;
    uint32_t mask = map->capacity - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        const struct pmi_strmap_slot *s = &map->slots[i];
        if (s->value == PM_NO_INDEX) return PM_NO_INDEX;
        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0) return s->value;
    }
}

static void strmap_insert(struct pmi_strmap_slot *slots, uint32_t capacity, const char *key, uint32_t len,
                          uint32_t hash, uint32_t value) {
    uint32_t mask = capacity - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        if (slots[i].value == PM_NO_INDEX) {
            slots[i].key = key;
            slots[i].len = len;
            slots[i].hash = hash;
            slots[i].value = value;
            return;
        }
    }
}

/* Grow to the smallest power of two >= 16 that keeps `count` entries at most half full. */
bool pmi_strmap_reserve(pmi_strmap *map, uint32_t count) {
    if (count > UINT32_MAX / 4) return false;
    if ((uint64_t)count * 2 <= map->capacity) return true;
    uint32_t cap = map->capacity ? map->capacity : 16;
    while ((uint64_t)count * 2 > cap) cap *= 2;
    struct pmi_strmap_slot *slots = pmi_alloc(map->allocator, (size_t)cap * sizeof *slots);
    if (!slots) return false;
    for (uint32_t i = 0; i < cap; i++) slots[i].value = PM_NO_INDEX;
    for (uint32_t i = 0; i < map->capacity; i++) {
        const struct pmi_strmap_slot *s = &map->slots[i];
        if (s->value != PM_NO_INDEX) strmap_insert(slots, cap, s->key, s->len, s->hash, s->value);
    }
    pmi_free(map->allocator, map->slots);
    map->slots = slots;
    map->capacity = cap;
    return true;
}

bool pmi_strmap_put(pmi_strmap *map, const char *key, size_t len, uint32_t value) {
    return pmi_strmap_put_hashed(map, key, len, pmi_hash_bytes(key, len), value);
}

bool pmi_strmap_put_hashed(pmi_strmap *map, const char *key, size_t len, uint32_t hash, uint32_t value) {
    if (len > UINT32_MAX) return false;
    if ((map->count + 1) * 2 > map->capacity && !pmi_strmap_reserve(map, map->capacity ? map->capacity : 8)) return false;
    strmap_insert(map->slots, map->capacity, key, (uint32_t)len, hash, value);
    map->count++;
    return true;
}

void pmi_strmap_release(pmi_strmap *map) {
    pmi_free(map->allocator, map->slots);
    map->slots = NULL;
    map->capacity = map->count = 0;
}
