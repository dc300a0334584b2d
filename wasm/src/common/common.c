/* Results, failures, allocation and the growable buffer shared by every module. */
#include "internal.h"

#include <stdlib.h>

const char *pm_result_name(pm_result result) {
    switch (result) {
    case PM_OK: return "PM_OK";
    case PM_ERR_INVALID_ARGUMENT: return "PM_ERR_INVALID_ARGUMENT";
    case PM_ERR_TRUNCATED: return "PM_ERR_TRUNCATED";
    case PM_ERR_BAD_FORMAT: return "PM_ERR_BAD_FORMAT";
    case PM_ERR_OUT_OF_MEMORY: return "PM_ERR_OUT_OF_MEMORY";
    case PM_ERR_LIMIT: return "PM_ERR_LIMIT";
    case PM_ERR_ENCODING: return "PM_ERR_ENCODING";
    case PM_ERR_NOT_FOUND: return "PM_ERR_NOT_FOUND";
    case PM_ERR_IO: return "PM_ERR_IO";
    default: return "PM_ERR_UNKNOWN";
    }
}

static void fill_error(pm_error *err, const char *file, int line, pm_result type, const char *fmt, va_list ap) {
    if (!err) return;
    err->type = type;
    err->file = file;
    err->line = line;
    pmi_vformat(err->message, sizeof err->message, fmt, ap);
}

pm_result pmi_fail_at(pm_error *err, const char *file, int line, pm_result type, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fill_error(err, file, line, type, fmt, ap);
    va_end(ap);
    return type;
}

#if !PMI_ERROR_SOURCE
pm_result pmi_fail_unplaced(pm_error *err, pm_result type, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fill_error(err, NULL, 0, type, fmt, ap);
    va_end(ap);
    return type;
}
#endif

void *pmi_alloc(const pm_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (a && a->memory_limit && size > a->memory_limit) return NULL;
    if (a && a->alloc) return a->alloc(a->user, size);
    return malloc(size);
}

void pmi_free(const pm_allocator *a, void *ptr) {
    if (!ptr) return;
    if (a && a->alloc) {
        if (a->free) a->free(a->user, ptr);
        return;
    }
    free(ptr);
}

void *pmi_alloc_array_unzeroed(const pm_allocator *a, size_t count, size_t elem, pm_error *err, const char *what) {
    if (elem && count > SIZE_MAX / 2 / elem) {
        pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "%s: %zu elements of %zu bytes overflow the address space", what, count,
                 elem);
        return NULL;
    }
    size_t size = count * elem;
    void *p = pmi_alloc(a, size);
    if (!p) pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "%s: out of memory allocating %zu bytes", what, size);
    return p;
}

void *pmi_alloc_array(const pm_allocator *a, size_t count, size_t elem, pm_error *err, const char *what) {
    void *p = pmi_alloc_array_unzeroed(a, count, elem, err, what);
    if (p) memset(p, 0, count && elem ? count * elem : 1);
    return p;
}

uint8_t *pmi_buf_grow(pmi_buf *buf, size_t n) {
    if (buf->failed) return NULL;
    if (n > SIZE_MAX / 4 - buf->size) {
        buf->failed = true;
        return NULL;
    }
    if (!buf->data || buf->size + n > buf->capacity) { /* n = 0 on an empty buffer too: never NULL + 0, memset(NULL) */
        size_t cap = buf->capacity ? buf->capacity : 256;
        while (cap < buf->size + n) cap *= 2;
        uint8_t *p = pmi_alloc(buf->allocator, cap);
        if (!p) {
            buf->failed = true;
            return NULL;
        }
        if (buf->size) memcpy(p, buf->data, buf->size);
        pmi_free(buf->allocator, buf->data);
        buf->data = p;
        buf->capacity = cap;
    }
    uint8_t *out = buf->data + buf->size;
    memset(out, 0, n);
    buf->size += n;
    return out;
}

void pmi_buf_release(pmi_buf *buf) {
    pmi_free(buf->allocator, buf->data);
    buf->data = NULL;
    buf->size = buf->capacity = 0;
}
