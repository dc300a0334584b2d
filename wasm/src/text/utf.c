/* UTF-8 / UTF-16LE conversion for every module that reads or writes names (see utf.h). */
#include "text/utf.h"

#include "procmotion/text.h"

#include <string.h>

uint32_t pmi_utf8_next(const char *str, size_t len, size_t *i) {
    uint32_t cp;
    size_t n = pm_utf8_decode(str + *i, len - *i, &cp);
    *i += n ? n : 1;
    return n ? cp : PMI_REPLACEMENT;
}

/* Append one code point; once a character does not fit, nothing more is written. */
static void emit(uint32_t cp, char *out, size_t out_cap, size_t *n, int *full) {
    char tmp[4];
    size_t k = pm_utf8_encode(cp, tmp);
    if (out && !*full) {
        if (*n + k <= out_cap) memcpy(out + *n, tmp, k);
        else *full = 1;
    }
    *n += k;
}

size_t pmi_utf16le_to_utf8(const uint8_t *data, size_t size, char *out, size_t out_cap) {
    size_t n = 0, i = 0;
    int full = 0;
    while (i + 1 < size) {
        uint32_t u = (uint32_t)data[i] | ((uint32_t)data[i + 1] << 8);
        i += 2;
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (i + 1 < size) {
                uint32_t v = (uint32_t)data[i] | ((uint32_t)data[i + 1] << 8);
                if (v >= 0xDC00 && v <= 0xDFFF) {
                    i += 2;
                    emit(0x10000u + ((u - 0xD800u) << 10) + (v - 0xDC00u), out, out_cap, &n, &full);
                    continue;
                }
            }
            u = PMI_REPLACEMENT;
        } else if (u >= 0xDC00 && u <= 0xDFFF) {
            u = PMI_REPLACEMENT;
        }
        emit(u, out, out_cap, &n, &full);
    }
    if (i < size) emit(PMI_REPLACEMENT, out, out_cap, &n, &full);
    return n;
}

size_t pmi_utf8_sanitize(const uint8_t *data, size_t size, char *out, size_t out_cap) {
    size_t n = 0, i = 0;
    int full = 0;
    while (i < size) emit(pmi_utf8_next((const char *)data, size, &i), out, out_cap, &n, &full);
    return n;
}

size_t pmi_utf8_to_utf16le(const char *s, size_t len, uint8_t *out, size_t out_cap) {
    size_t n = 0, i = 0;
    int full = 0;
    while (i < len) {
        uint32_t cp = pmi_utf8_next(s, len, &i);
        uint16_t units[2];
        size_t k = 1;
        if (cp >= 0x10000u) {
            units[0] = (uint16_t)(0xD800u + ((cp - 0x10000u) >> 10));
            units[1] = (uint16_t)(0xDC00u + ((cp - 0x10000u) & 0x3FFu));
            k = 2;
        } else {
            units[0] = (uint16_t)cp;
        }
        if (out && !full) {
            if (n + 2 * k <= out_cap) {
                for (size_t j = 0; j < k; j++) {
                    out[n + 2 * j] = (uint8_t)units[j];
                    out[n + 2 * j + 1] = (uint8_t)(units[j] >> 8);
                }
            } else {
                full = 1;
            }
        }
        n += 2 * k;
    }
    return n;
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
