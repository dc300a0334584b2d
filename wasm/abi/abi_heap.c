/* The wasm builds' allocator: Emscripten's emmalloc, with the count of bytes in use that
 * pm_abi_heap_in_use reports (the host's leak checks: `heapInUse` in the glue).
 *
 * Emscripten's emmalloc (linked with -sMALLOC=emmalloc, build-scripts/link-wasm.mjs) defines malloc,
 * free, realloc, calloc, memalign, aligned_alloc, posix_memalign and malloc_usable_size as weak
 * symbols over its emmalloc_* functions; the strong definitions here replace them, so every
 * allocation of the module (the core's default allocator, cJSON, the ABI's host buffers, libc) passes
 * through this file and is counted. emmalloc's own figures cannot serve: its mallinfo().uordblks
 * counts free blocks' headers and the heap's sentinels, and a block's usable size can grow after it
 * was handed out (aligning a later block's payload widens the block before it), so neither returns to
 * where it was when everything is freed. Each block therefore carries its size in a header of its
 * own: HEADER bytes before the pointer handed out, the requested size and the distance back to the
 * start of emmalloc's block; the count is the sum of the requested sizes of the blocks not freed.
 *
 * The count is the one piece of mutable state here, and it is part of the heap's state (the heap is
 * the module's mutable state already, one per instance; the wasm build has no threads): the core's C
 * stays free of global state. The native and WASI builds keep their libc's malloc (wasi-libc's is
 * dlmalloc) and report 0. */
#include "pm_abi.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten/emmalloc.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { HEADER = 8 }; /* malloc's alignment: the payload after it stays 8-byte aligned */
typedef struct {
    uint32_t offset; /* from the start of emmalloc's block to the payload (HEADER, or memalign's alignment) */
    uint32_t size;   /* the bytes requested: what the count holds for this block */
} block_header;

static size_t heap_in_use; /* the requested sizes of the blocks handed out and not freed */

static block_header *header_of(void *payload) { return (block_header *)((char *)payload - sizeof(block_header)); }

/* Hands out `base` (from emmalloc, `offset` bytes before the payload) for `size` bytes, counted. */
static void *hand_out(void *base, size_t offset, size_t size) {
    if (!base) return NULL;
    void *payload = (char *)base + offset;
    *header_of(payload) = (block_header){(uint32_t)offset, (uint32_t)size};
    heap_in_use += size;
    return payload;
}

void *malloc(size_t size) {
    if (size > SIZE_MAX - HEADER) return NULL;
    return hand_out(emmalloc_malloc(HEADER + size), HEADER, size);
}

void free(void *ptr) {
    if (!ptr) return;
    const block_header h = *header_of(ptr);
    heap_in_use -= h.size;
    emmalloc_free((char *)ptr - h.offset);
}

/* emmalloc_realloc's steps (resize in place, else allocate, copy, free), on the block with its header. */
void *realloc(void *ptr, size_t size) {
    if (!ptr) return malloc(size);
    if (!size) {
        free(ptr);
        return NULL;
    }
    block_header *h = header_of(ptr);
    if (h->offset == HEADER && size <= SIZE_MAX - HEADER && emmalloc_realloc_try((char *)ptr - HEADER, HEADER + size)) {
        heap_in_use = heap_in_use - h->size + size;
        h->size = (uint32_t)size;
        return ptr;
    }
    void *moved = malloc(size);
    if (!moved) return NULL; /* the old block stays as it was */
    memcpy(moved, ptr, h->size < size ? h->size : size);
    free(ptr);
    return moved;
}

void *calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL; /* emmalloc_calloc would wrap the product */
    void *p = malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

size_t malloc_usable_size(void *ptr) { return ptr ? header_of(ptr)->size : 0; }

/* An alignment above malloc's: the header takes `alignment` bytes, so the payload stays aligned. */
void *memalign(size_t alignment, size_t size) {
    if (alignment <= HEADER) return malloc(size);
    if ((alignment & (alignment - 1)) || size > SIZE_MAX - alignment) return NULL;
    return hand_out(emmalloc_memalign(alignment, alignment + size), alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (alignment == 0 || size % alignment != 0) return NULL; /* any power of two (C11); memalign refuses the rest */
    return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1))) return EINVAL;
    *out = memalign(alignment, size);
    return *out ? 0 : ENOMEM;
}

/* Bytes currently allocated (the requested sizes of the blocks not freed): the host checks that calls
 * leak nothing by comparing it before and after. */
PM_EXPORT uint32_t pm_abi_heap_in_use(void) { return (uint32_t)heap_in_use; }
#else
/* Not tracked outside the Emscripten build. */
PM_EXPORT uint32_t pm_abi_heap_in_use(void) { return 0; }
#endif
