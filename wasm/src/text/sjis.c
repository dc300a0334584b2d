/* UTF-8 <-> Shift-JIS as the WHATWG Encoding Standard defines Shift_JIS (Windows-31J / CP932).
 * The double-byte tables are generated (sjis_table.c); single bytes, the user-defined area and the
 * encoder's three special cases are coded here. Behaviour and provenance: docs/formats.md. */
#include "procmotion/text.h"

#include <limits.h>

#include "common/internal.h"
#include "common/strings.h"
#include "text/sjis_encoder.h"
#include "text/sjis_table.h"

static bool sjis_is_lead(uint8_t b) { return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC); }
static bool sjis_is_trail(uint8_t b) { return (b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFC); }

size_t pm_sjis_field_length(const uint8_t *field, size_t size) {
    if (!field) return 0;
    const uint8_t *nul = memchr(field, 0, size);
    return nul ? (size_t)(nul - field) : size;
}

/* ---- decoding ----------------------------------------------------------------------------- */

/* Decode the character at data[*pos] (pos < size) and advance *pos past the bytes it used.
 * This is the WHATWG Shift_JIS decoder, with U+FFFD for each error. */
static inline uint32_t sjis_decode_next(const uint8_t *data, size_t size, size_t *pos) {
    uint8_t b = data[*pos];
    if (b <= 0x80) {
        *pos += 1;
        return b;
    }
    if (b >= 0xA1 && b <= 0xDF) {
        *pos += 1;
        return 0xFF61u - 0xA1u + b;
    }
    if (!sjis_is_lead(b) || size - *pos < 2) { /* 0xA0, 0xFD-0xFF, or a lead byte cut off */
        *pos += 1;
        return 0xFFFD;
    }
    uint8_t t = data[*pos + 1];
    if (sjis_is_trail(t)) {
        size_t pointer = (size_t)(b - (b < 0xA0 ? 0x81 : 0xC1)) * 188 + (size_t)(t - (t < 0x7F ? 0x40 : 0x41));
        uint16_t unit = pmi_sjis_decode_pointer((uint32_t)pointer);
        if (unit) {
            *pos += 2;
            return unit;
        }
    }
    /* No mapping: the pair is one error, except that an ASCII trail byte is read again. */
    *pos += t < 0x80 ? 1 : 2;
    return 0xFFFD;
}

/* UTF-8 bytes of a Unicode scalar value; returns 1..4. */
static inline size_t utf8_encode(uint32_t cp, char buf[4]) {
    if (cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) cp = 0xFFFDu;
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xC0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xE0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t pm_utf8_encode(uint32_t cp, char buf[4]) { return utf8_encode(cp, buf); }

size_t pm_sjis_to_utf8(const uint8_t *data, size_t size, char *out, size_t out_cap) {
    if (!data) size = 0;
    if (!out) out_cap = 0;
    if (size < SIZE_MAX / 4 && out_cap > 3 * size) {
        /* room for the worst case (every byte a 3-byte character): no checks per character */
        size_t written = 0;
        for (size_t pos = 0; pos < size;) {
            uint32_t cp = data[pos];
            if (cp < 0x80) {
                out[written++] = (char)cp;
                pos++;
                continue;
            }
            written += utf8_encode(sjis_decode_next(data, size, &pos), out + written);
        }
        out[written] = '\0';
        return written;
    }
    size_t total = 0, written = 0;
    bool full = false;
    for (size_t pos = 0; pos < size;) {
        char buf[4];
        size_t n = utf8_encode(sjis_decode_next(data, size, &pos), buf);
        if (!full && n < out_cap - written) { /* leaves room for the NUL */
            for (size_t k = 0; k < n; k++) out[written + k] = buf[k]; /* n <= 4: no memcpy call */
            written += n;
        } else {
            full = true; /* nothing after a character that did not fit */
        }
        total = n > SIZE_MAX - total ? SIZE_MAX : total + n; /* saturates (32-bit wasm, > 1.4 GB) */
    }
    if (out_cap) out[written] = '\0';
    return total;
}

/* ---- encoding ----------------------------------------------------------------------------- */

size_t pm_utf8_decode(const char *s, size_t len, uint32_t *codepoint) {
    if (!s || len == 0) return 0;
    const uint8_t *p = (const uint8_t *)s;
    size_t n;
    uint32_t cp, min;
    if (p[0] < 0x80) {
        n = 1, cp = p[0], min = 0;
    } else if ((p[0] & 0xE0) == 0xC0) {
        n = 2, cp = p[0] & 0x1Fu, min = 0x80;
    } else if ((p[0] & 0xF0) == 0xE0) {
        n = 3, cp = p[0] & 0x0Fu, min = 0x800;
    } else if ((p[0] & 0xF8) == 0xF0) {
        n = 4, cp = p[0] & 0x07u, min = 0x10000;
    } else {
        return 0; /* a continuation byte or 0xF8-0xFF */
    }
    if (len < n) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((p[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[k] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    if (codepoint) *codepoint = cp;
    return n;
}

uint32_t pmi_sjis_table_checksum(void) { return pmi_hash_bytes(pmi_sjis_decode_table, sizeof pmi_sjis_decode_table); }

/* ---- the encoder's map ---------------------------------------------------------------------- */

/* The encoder's choice for a double-byte code point (the user-defined area aside) is the lowest
 * pointer outside 8272..8835 that decodes to it (WHATWG's "index Shift_JIS pointer"). It is derived
 * from the decode table when a call first needs it, instead of being stored (14.7 KB of the core):
 * 128 slots of pointer + 1 (0 = none) for each block of 128 code points that has a double-byte
 * character (the generated pmi_sjis_encode_block numbers those rows). */
struct pmi_sjis_encoder {
    const pm_allocator *allocator;
    uint16_t slots[]; /* pmi_sjis_encode_rows x 128 */
};

/* Double-byte characters pm_utf8_to_sjis searches for before it makes the map: about what making it
 * costs (one pass over the decode table each, against one and the map's memory). */
#define SJIS_SEARCHES 2

static bool sjis_encodes_pointer(uint32_t pointer) { return pointer < 8272 || pointer > 8835; }

pmi_sjis_encoder *pmi_sjis_encoder_create(const pm_allocator *allocator) {
    const size_t size = sizeof(pmi_sjis_encoder) + (size_t)pmi_sjis_encode_rows * 128 * sizeof(uint16_t);
    pmi_sjis_encoder *e = pmi_alloc(allocator, size);
    if (!e) return NULL;
    memset(e, 0, size);
    e->allocator = allocator;
    const size_t n = sizeof pmi_sjis_decode_table / sizeof pmi_sjis_decode_table[0];
    for (size_t i = 0; i < n; i++) { /* pointer order: the first pointer of a code point stays */
        const uint16_t unit = pmi_sjis_decode_table[i];
        const uint32_t pointer = pmi_sjis_pointer_of_index((uint32_t)i);
        const uint32_t row = pmi_sjis_encode_block[unit >> 7];
        /* row 0: no double-byte character in that block (never, with the generated table; a table a host
         * filled with other values must not make this write outside the map) */
        if (!unit || !row || !sjis_encodes_pointer(pointer)) continue;
        uint16_t *slot = &e->slots[(size_t)(row - 1) * 128 + (unit & 127)];
        if (!*slot) *slot = (uint16_t)(pointer + 1);
    }
    return e;
}

void pmi_sjis_encoder_free(pmi_sjis_encoder *e) {
    if (e) pmi_free(e->allocator, e);
}

/* The pointer of double-byte code point cp (+ 1), 0 when it has none: from the map, or (no map, out
 * of memory) by a search of the decode table that gives the same answer. */
static uint32_t sjis_pointer_of(const pmi_sjis_encoder *e, uint32_t cp) {
    if (cp >> 7 >= PMI_SJIS_ENCODE_BLOCKS) return 0;
    const uint32_t row = pmi_sjis_encode_block[cp >> 7];
    if (!row) return 0;
    if (e) return e->slots[(size_t)(row - 1) * 128 + (cp & 127)];
    const size_t n = sizeof pmi_sjis_decode_table / sizeof pmi_sjis_decode_table[0];
    for (size_t i = 0; i < n; i++) {
        if (pmi_sjis_decode_table[i] != cp) continue;
        const uint32_t pointer = pmi_sjis_pointer_of_index((uint32_t)i);
        if (sjis_encodes_pointer(pointer)) return pointer + 1;
    }
    return 0;
}

/* Shift-JIS bytes of one code point (the WHATWG encoder, plus the user-defined area): returns 1 or 2
 * and fills out, or 0 when Shift-JIS has no encoding for it. *e: the map, made (with allocator) by
 * the first double-byte character that needs it after *searches characters were searched for in the
 * decode table without one (a short name costs less that way than making the map). */
static size_t sjis_encode_char(uint32_t cp, uint8_t out[2], pmi_sjis_encoder **e, const pm_allocator *allocator,
                               unsigned *searches) {
    if (cp <= 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp == 0x00A5 || cp == 0x203E) { /* YEN SIGN, OVERLINE: the JIS X 0201 meaning of 0x5C, 0x7E */
        out[0] = cp == 0x00A5 ? 0x5C : 0x7E;
        return 1;
    }
    if (cp >= 0xFF61 && cp <= 0xFF9F) {
        out[0] = (uint8_t)(cp - 0xFF61 + 0xA1);
        return 1;
    }
    uint32_t pointer;
    if (cp >= PMI_SJIS_EUDC_FIRST && cp <= PMI_SJIS_EUDC_LAST) {
        pointer = PMI_SJIS_EUDC_POINTER + (cp - PMI_SJIS_EUDC_FIRST);
    } else {
        if (cp == 0x2212) cp = 0xFF0D; /* MINUS SIGN is written as FULLWIDTH HYPHEN-MINUS */
        if (!*e && *searches) --*searches;
        else if (!*e && !(*e = pmi_sjis_encoder_create(allocator))) *searches = UINT_MAX; /* no memory for the map: search */
        pointer = sjis_pointer_of(*e, cp);
        if (!pointer--) return 0;
    }
    uint32_t lead = pointer / 188, trail = pointer % 188;
    out[0] = (uint8_t)(lead + (lead < 0x1F ? 0x81 : 0xC1));
    out[1] = (uint8_t)(trail + (trail < 0x3F ? 0x40 : 0x41));
    return 2;
}

static pm_result utf8_to_sjis(pmi_sjis_encoder **encoder, const pm_allocator *allocator, unsigned searches,
                              const char *utf8, size_t len, uint8_t *out, size_t out_cap, size_t *out_len,
                              bool *truncated, pm_error *err) {
    if (out_len) *out_len = 0;
    if (truncated) *truncated = false;
    if (!utf8 && len) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "text: utf8 is NULL but len is %zu", len);
    if (!out && out_cap) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "text: out is NULL but out_cap is %zu", out_cap);
    size_t written = 0;
    bool cut = false;
    /* The whole input is checked, also past the cut: a name is encodable or it is not. */
    for (size_t pos = 0; pos < len;) {
        uint32_t cp = 0;
        size_t n = pm_utf8_decode(utf8 + pos, len - pos, &cp);
        if (!n)
            return pmi_fail(err, PM_ERR_ENCODING, "text: invalid UTF-8 (byte 0x%02X) at byte %zu",
                            (unsigned)(uint8_t)utf8[pos], pos);
        uint8_t bytes[2];
        size_t m = sjis_encode_char(cp, bytes, encoder, allocator, &searches);
        if (!m) {
            char shown[8] = {0}; /* the character itself, unless it is a C1 control */
            if (cp >= 0xA0) {
                shown[0] = ' ';
                shown[1] = '"';
                memcpy(shown + 2, utf8 + pos, n);
                shown[2 + n] = '"';
            }
            return pmi_fail(err, PM_ERR_ENCODING, "text: U+%04X%s at byte %zu has no Shift-JIS encoding", (unsigned)cp,
                            shown, pos);
        }
        if (!cut && m <= out_cap - written) {
            memcpy(out + written, bytes, m);
            written += m;
        } else {
            cut = true; /* never a later, shorter character after one that did not fit */
        }
        pos += n;
    }
    if (out_len) *out_len = written;
    if (truncated) *truncated = cut;
    return PM_OK;
}

pm_result pm_utf8_to_sjis(const char *utf8, size_t len, uint8_t *out, size_t out_cap, size_t *out_len,
                          bool *truncated, pm_error *err) {
    pmi_sjis_encoder *encoder = NULL; /* for a long text; a name's few characters are searched for */
    pm_result r = utf8_to_sjis(&encoder, NULL, SJIS_SEARCHES, utf8, len, out, out_cap, out_len, truncated, err);
    pmi_sjis_encoder_free(encoder);
    return r;
}

pm_result pmi_utf8_to_sjis_with(pmi_sjis_encoder **encoder, const pm_allocator *allocator, const char *utf8,
                                 size_t len, uint8_t *out, size_t out_cap, size_t *out_len, bool *truncated,
                                 pm_error *err) {
    return utf8_to_sjis(encoder, allocator, 0, utf8, len, out, out_cap, out_len, truncated, err);
}
