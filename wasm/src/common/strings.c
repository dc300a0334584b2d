/* String arena and string -> index map (see strings.h). */
#include "strings.h"

#include "skeleton/utf.h"

struct pmi_arena_chunk {
    pmi_arena_chunk *next;
    size_t used, size;
    char data[];
};

#define PMI_ARENA_CHUNK 4096

char *pmi_arena_strdup(pmi_arena *arena, const char *s, size_t len) {
    if (len > SIZE_MAX / 2) return NULL;
    size_t need = len + 1;
    pmi_arena_chunk *c = arena->chunks;
    if (!c || c->size - c->used < need) {
        size_t size = need > PMI_ARENA_CHUNK ? need : PMI_ARENA_CHUNK;
        c = pmi_alloc(arena->allocator, sizeof(pmi_arena_chunk) + size);
        if (!c) return NULL;
        c->used = 0;
        c->size = size;
        if (need > PMI_ARENA_CHUNK && arena->chunks) {
            /* keep the partly used chunk at the head for small strings */
            c->next = arena->chunks->next;
            arena->chunks->next = c;
        } else {
            c->next = arena->chunks;
            arena->chunks = c;
        }
    }
    char *out = c->data + c->used;
    if (len && s) memcpy(out, s, len); /* s NULL: reserve only (pmi_arena_strdup_utf8) */
    out[len] = '\0';
    c->used += need;
    return out;
}

char *pmi_arena_strdup_utf8(pmi_arena *arena, const char *s, size_t len, size_t *out_len) {
    const char *nul = len ? memchr(s, 0, len) : NULL;
    if (nul) len = (size_t)(nul - s);
    size_t n = pmi_utf8_sanitize((const uint8_t *)s, len, NULL, 0);
    char *c = pmi_arena_strdup(arena, n == len ? s : NULL, n); /* valid already: one copy */
    if (c && n != len) pmi_utf8_sanitize((const uint8_t *)s, len, c, n);
    if (c) *out_len = n;
    return c;
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
    /* FNV-1a */
    const uint8_t *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

uint32_t pmi_strmap_get(const pmi_strmap *map, const char *key, size_t len) {
    if (!map->capacity) return PM_NO_INDEX;
    uint32_t h = pmi_hash_bytes(key, len), mask = map->capacity - 1;
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

bool pmi_strmap_put(pmi_strmap *map, const char *key, size_t len, uint32_t value) {
    if (len > UINT32_MAX) return false;
    if ((map->count + 1) * 2 > map->capacity) {
        uint32_t cap = map->capacity ? map->capacity * 2 : 16;
        if (cap < map->capacity) return false;
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
    }
    strmap_insert(map->slots, map->capacity, key, (uint32_t)len, pmi_hash_bytes(key, len), value);
    map->count++;
    return true;
}

void pmi_strmap_release(pmi_strmap *map) {
    pmi_free(map->allocator, map->slots);
    map->slots = NULL;
    map->capacity = map->count = 0;
}
