/* Name folding and equality for bone and morph names (procmotion/text.h, NAMES). */
#include "procmotion/text.h"

#include "text/utf.h"

#include <string.h>

/* What a key keeps: ASCII letters (already lower case) and digits, CJK ideographs, hiragana, katakana
 * (the long-vowel mark included) and the iteration mark. */
static bool keep(uint32_t cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x3041 && cp <= 0x309F) ||
           (cp >= 0x30A1 && cp <= 0x30FA) || (cp >= 0x30FC && cp <= 0x30FF) || cp == 0x3005;
}

size_t pm_name_key(const char *name, size_t len, char *out, size_t cap) {
    size_t n = 0, written = 0, i = 0;
    while (name && i < len) {
        uint32_t cp = pmi_fold_fullwidth(pmi_utf8_next(name, len, &i));
        if (cp >= 'A' && cp <= 'Z') cp += 'a' - 'A';
        if (!keep(cp)) continue;
        char tmp[4];
        size_t k = pm_utf8_encode(cp, tmp);
        if (out && written == n && n + k < cap) {
            memcpy(out + n, tmp, k);
            written += k;
        }
        n += k;
    }
    if (out && cap) out[written] = 0;
    return n;
}

bool pm_names_equal(const char *a, size_t alen, const char *b, size_t blen) {
    if (!a || !b) return false;
    size_t i = 0, j = 0;
    while (i < alen && j < blen)
        if (pmi_fold_fullwidth(pmi_utf8_next(a, alen, &i)) != pmi_fold_fullwidth(pmi_utf8_next(b, blen, &j))) return false;
    return i == alen && j == blen;
}
