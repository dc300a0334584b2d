/* Internal UTF-8 / UTF-16LE helpers for every module that reads, writes or compares names.
 * Length-based: nothing here needs a NUL terminator. */
#ifndef PROCMOTION_TEXT_UTF_H
#define PROCMOTION_TEXT_UTF_H

#include "common/internal.h"
#include "common/strings.h"

#include <stddef.h>
#include <stdint.h>

#define PMI_REPLACEMENT 0xFFFDu

/* Decode the code point at s[*i] (i < len) and advance *i. Invalid, overlong, surrogate or cut-off
 * sequences decode as U+FFFD and advance by one byte. */
uint32_t pmi_utf8_next(const char *s, size_t len, size_t *i);

/* UTF-16LE bytes -> UTF-8. Unpaired surrogates and a trailing odd byte become U+FFFD. Writes at most
 * out_cap bytes (whole characters only) and returns the full UTF-8 length; out may be NULL. No NUL. */
size_t pmi_utf16le_to_utf8(const uint8_t *data, size_t size, char *out, size_t out_cap);

/* UTF-8 -> UTF-8 with every invalid sequence replaced by U+FFFD (same contract as above). */
size_t pmi_utf8_sanitize(const uint8_t *data, size_t size, char *out, size_t out_cap);

/* UTF-8 (invalid sequences as U+FFFD) -> UTF-16LE bytes; same contract. */
size_t pmi_utf8_to_utf16le(const char *s, size_t len, uint8_t *out, size_t out_cap);

/* Full-width ASCII (U+FF01..U+FF5E) folded onto ASCII 0x21..0x7E; any other code point unchanged. */
static inline uint32_t pmi_fold_fullwidth(uint32_t cp) {
    return (cp >= 0xFF01u && cp <= 0xFF5Eu) ? cp - 0xFF01u + 0x21u : cp;
}

/* A name from a file into the arena as readers hand names out: invalid UTF-8 (also a character cut by
 * the end) becomes U+FFFD and a NUL ends it. *out_len gets the stored length. NULL when out of memory. */
char *pmi_arena_strdup_utf8(pmi_arena *arena, const char *s, size_t len, size_t *out_len);

#endif
