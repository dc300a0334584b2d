/* Internal helpers shared by the core modules: failures, allocation, bounded reading.
 * Not installed; public code includes only the procmotion headers. */
#ifndef PROCMOTION_INTERNAL_H
#define PROCMOTION_INTERNAL_H

#include "procmotion/common.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define PMI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PMI_PRINTF(a, b)
#endif

/* printf-style formatting without stdio (format.c): %% %c %s %d %i %u %x %X %f %e %g with flags,
 * width, precision and h/l/ll/z modifiers. Always NUL-terminates when cap > 0; returns the length the
 * full text needs. */
size_t pmi_vformat(char *buf, size_t cap, const char *fmt, va_list ap);
size_t pmi_format(char *buf, size_t cap, const char *fmt, ...) PMI_PRINTF(3, 4);

/* Every failure goes through here: a good place for a breakpoint. Returns `type`. */
pm_result pmi_fail_at(pm_error *err, const char *file, int line, pm_result type, const char *fmt, ...)
    PMI_PRINTF(5, 6);
/* pmi_fail(err, type, fmt, ...): a failure with its source position (err->file, err->line), but in the
 * wasm builds: their errors leave the module through the ABI's error buffer (pm_abi_table.h's ERROR
 * layout: the message and the code), which has no position, so there a failure does not pass one
 * (err->file stays NULL, err->line 0) and the ~650 call sites carry two arguments and the build its
 * source paths less. PMI_ERROR_SOURCE=1 (or 0) chooses for any build. */
#ifndef PMI_ERROR_SOURCE
#if defined(__wasm__)
#define PMI_ERROR_SOURCE 0
#else
#define PMI_ERROR_SOURCE 1
#endif
#endif
#if PMI_ERROR_SOURCE
#define pmi_fail(err, type, ...) pmi_fail_at((err), __FILE__, __LINE__, (type), __VA_ARGS__)
#else
pm_result pmi_fail_unplaced(pm_error *err, pm_result type, const char *fmt, ...) PMI_PRINTF(3, 4);
#define pmi_fail(err, type, ...) pmi_fail_unplaced((err), (type), __VA_ARGS__)
#endif

/* Number text (number.c): exact both ways, no long double, no locale, no global state. */

/* Parse a decimal number from [p, end) without locale: [+-] digits [. digits] [(e|E) [+-] digits], or a
 * leading '.' ("0.5", ".0083333", "-12", "1e-3"). No "nan", "inf", hex or leading spaces. Returns false
 * (and leaves *out alone) when there is no number at p or the value overflows a double; on success
 * *next (when not NULL) points after the number. Correctly rounded (half to even), as glibc's strtod. */
bool pmi_parse_double(const char *p, const char *end, double *out, const char **next);
/* The same grammar, overflow included: sets *out to the correctly rounded value (+-HUGE_VAL past
 * DBL_MAX, denormals and +-0 below) and returns the end of the number, or p (and *out unset) when there
 * is none. */
const char *pmi_scan_double(const char *p, const char *end, double *out);
/* strtod for decimal text (what cJSON's parse_number and our readers pass): leading white space, then
 * pmi_scan_double's grammar; *endptr = str when there is no number. No locale, hex, "inf" or "nan". */
double pmi_strtod(const char *str, char **endptr);
/* The first `count` (1..17) significant decimal digits of v (finite, > 0), rounded half to even from
 * its exact binary value, into digits[] (no NUL); returns the decimal exponent of the first digit. */
int pmi_decimal_digits(double v, int count, char *digits);
/* The decimal digits of round(v * 10^prec), half to even from the exact value (v finite, 0 <= v < 1e17,
 * 0 <= prec <= 20), at least prec + 1 of them (zero-padded), into out (>= 48 bytes, no NUL); returns
 * how many. */
size_t pmi_decimal_fixed(double v, int prec, char *out);

/* Whether all n floats are finite (no NaN, no Inf). */
static inline bool pmi_all_finite(const void *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float f;
        memcpy(&f, (const unsigned char *)v + sizeof f * i, sizeof f); /* floats of a struct's run too */
        if (!isfinite(f)) return false;
    }
    return true;
}

/* ---- allocation --------------------------------------------------------------------------- */

void *pmi_alloc(const pm_allocator *a, size_t size);
void pmi_free(const pm_allocator *a, void *ptr);
/* Zeroed array of count * elem bytes; fails (NULL + err) on overflow, on memory_limit or when the
 * allocator fails. count == 0 returns a valid 1-byte allocation so callers need no special case. */
void *pmi_alloc_array(const pm_allocator *a, size_t count, size_t elem, pm_error *err, const char *what);
/* The same without zeroing, for arrays the caller fills before anything reads them (a parser's key
 * arrays: only the first `count` elements it has written are ever read). */
void *pmi_alloc_array_unzeroed(const pm_allocator *a, size_t count, size_t elem, pm_error *err, const char *what);

/* ---- bounded little-endian reading -------------------------------------------------------- */

typedef struct pmi_cursor {
    const uint8_t *start;
    const uint8_t *p;
    const uint8_t *end;
} pmi_cursor;

static inline pmi_cursor pmi_cursor_make(const uint8_t *data, size_t size) {
    pmi_cursor c = {data, data, data ? data + size : data}; /* no NULL + 0 */
    return c;
}
static inline size_t pmi_left(const pmi_cursor *c) { return (size_t)(c->end - c->p); }
static inline size_t pmi_offset(const pmi_cursor *c) { return (size_t)(c->p - c->start); }

static inline uint32_t pmi_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint16_t pmi_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline float pmi_lef32(const uint8_t *p) {
    uint32_t u = pmi_le32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline void pmi_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void pmi_putf32(uint8_t *p, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    pmi_put32(p, u);
}

/* Take n bytes: returns a pointer to them and advances, or NULL when fewer than n are left. */
static inline const uint8_t *pmi_take(pmi_cursor *c, size_t n) {
    if (pmi_left(c) < n) return NULL;
    const uint8_t *p = c->p;
    c->p += n;
    return p;
}

/* ---- growable byte buffer (writers) ------------------------------------------------------- */

typedef struct pmi_buf {
    const pm_allocator *allocator;
    uint8_t *data;
    size_t size;
    size_t capacity;
    bool failed;
} pmi_buf;

/* Reserve n more bytes and return a pointer to them (zeroed; n may be 0), or NULL after an allocation
 * failure (buf->failed stays set; later calls keep returning NULL). */
uint8_t *pmi_buf_grow(pmi_buf *buf, size_t n);
void pmi_buf_release(pmi_buf *buf);

#endif
