/* pmx_builder.h -- byte-level builders for hand-made PMX/PMD files in the C tests (UTF-8 PMX text).
 * Not a test by itself (only tests/c/test_*.c are). */
#ifndef PMX_BUILDER_H
#define PMX_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tb {
    unsigned char *d;
    size_t n, cap;
} tb;

static inline void tb_put(tb *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        b->d = realloc(b->d, cap);
        b->cap = cap;
    }
    if (n) memcpy(b->d + b->n, p, n);
    b->n += n;
}
static inline void tb_u8(tb *b, uint8_t v) { tb_put(b, &v, 1); }
static inline void tb_u16(tb *b, uint16_t v) {
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_put(b, x, 2);
}
static inline void tb_u32(tb *b, uint32_t v) {
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    tb_put(b, x, 4);
}
static inline void tb_i32(tb *b, int32_t v) { tb_u32(b, (uint32_t)v); }
static inline void tb_f32(tb *b, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    tb_u32(b, u);
}
static inline void tb_vec3(tb *b, float x, float y, float z) {
    tb_f32(b, x);
    tb_f32(b, y);
    tb_f32(b, z);
}
static inline void tb_zero(tb *b, size_t n) {
    for (size_t i = 0; i < n; i++) tb_u8(b, 0);
}
/* Index of 1, 2 or 4 bytes (two's complement). */
static inline void tb_idx(tb *b, int size, int32_t v) {
    if (size == 1) tb_u8(b, (uint8_t)v);
    else if (size == 2) tb_u16(b, (uint16_t)v);
    else tb_i32(b, v);
}
static inline void tb_text(tb *b, const char *s) {
    tb_i32(b, (int32_t)strlen(s));
    tb_put(b, s, strlen(s));
}
/* Fixed-width NUL-padded field (PMD). */
static inline void tb_field(tb *b, const void *s, size_t len, size_t width) {
    tb_put(b, s, len < width ? len : width);
    if (len < width) tb_zero(b, width - len);
}

typedef struct tb_pmx_sizes {
    float version;
    uint8_t add_uv, vsize, tsize, msize, bsize, morph_size, rsize;
} tb_pmx_sizes;

/* Header with UTF-8 text and the given sizes; model name "t". */
static inline void tb_pmx_header(tb *b, tb_pmx_sizes z) {
    tb_put(b, "PMX ", 4);
    tb_f32(b, z.version);
    tb_u8(b, 8);
    uint8_t g[8] = {1, z.add_uv, z.vsize, z.tsize, z.msize, z.bsize, z.morph_size, z.rsize};
    tb_put(b, g, 8);
    tb_text(b, "t");
    tb_text(b, "");
    tb_text(b, "");
    tb_text(b, "");
}

/* A BDEF1 vertex on `bone`. */
static inline void tb_pmx_vertex(tb *b, tb_pmx_sizes z, int32_t bone) {
    tb_zero(b, 32 + 16u * z.add_uv);
    tb_u8(b, 0);
    tb_idx(b, z.bsize, bone);
    tb_f32(b, 1);
}

/* A plain bone with a tail offset, optionally an IK chain (links without limits except link 0
 * when limit0 is set). */
static inline void tb_pmx_bone(tb *b, tb_pmx_sizes z, const char *name, int32_t parent, float y, int ik_target,
                               int nlinks, const int32_t *links, int limit0) {
    tb_text(b, name);
    tb_text(b, "");
    tb_vec3(b, 0, y, 0);
    tb_idx(b, z.bsize, parent);
    tb_i32(b, 0);
    uint16_t flags = 0x001A | (ik_target >= -1 && nlinks >= 0 && links ? 0x0020 : 0);
    tb_u16(b, flags);
    tb_vec3(b, 0, 1, 0);
    if (flags & 0x0020) {
        tb_idx(b, z.bsize, ik_target);
        tb_i32(b, 40);
        tb_f32(b, 2.0f);
        tb_i32(b, nlinks);
        for (int k = 0; k < nlinks; k++) {
            tb_idx(b, z.bsize, links[k]);
            tb_u8(b, k == 0 && limit0 ? 1 : 0);
            if (k == 0 && limit0) {
                tb_vec3(b, -3.14159f, 0, 0);
                tb_vec3(b, -0.008727f, 0, 0);
            }
        }
    }
}

/* Empty geometry sections (vertices, faces, textures, materials). */
static inline void tb_pmx_no_geometry(tb *b) {
    tb_i32(b, 0);
    tb_i32(b, 0);
    tb_i32(b, 0);
    tb_i32(b, 0);
}

#endif
