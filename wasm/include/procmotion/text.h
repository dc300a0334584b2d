/*
 * procmotion/text.h -- UTF-8 <-> Shift-JIS as MMD files use it.
 *
 * MMD's VMD and PMD files store names as Shift-JIS in fixed-width, NUL-padded fields. The
 * encoding is Windows-31J (CP932), exactly as the WHATWG Encoding Standard's "Shift_JIS"
 * decoder defines it (which is what `new TextDecoder('shift_jis')` does in browsers and Node):
 * ASCII, half-width katakana 0xA1-0xDF, and the double-byte JIS X 0208 table with the NEC and
 * IBM extensions. The tables in src/text/sjis_table.c are generated from that decoder by
 * build-scripts/gen-sjis-table.mjs and committed.
 *
 * DECODING (bytes -> UTF-8) never fails:
 *   - 0x00-0x80 decode as U+0000-U+0080, 0xA1-0xDF as half-width katakana U+FF61-U+FF9F, the
 *     double-byte pairs through the table, the user-defined pairs 0xF040-0xF9FC as U+E000-U+E757;
 *   - a byte or pair with no mapping, and a lead byte cut off by the end of the input, each become
 *     U+FFFD (the WHATWG rule: when a pair has no mapping and its second byte is ASCII, that byte
 *     is read again as a character of its own; otherwise the pair is one U+FFFD);
 *   - NUL bytes are decoded like any other byte; callers that read fixed fields pass the length
 *     up to the first NUL (see pm_sjis_field_length).
 *
 * ENCODING (UTF-8 -> bytes):
 *   - a code point with several CP932 encodings gets the one the WHATWG encoder picks (JIS X 0208
 *     first, then NEC row 13, then the IBM extensions 0xFA-0xFC; never the NEC-selected IBM
 *     duplicates 0xED-0xEE);
 *   - as the WHATWG encoder does, U+00A5 YEN SIGN -> 0x5C, U+203E OVERLINE -> 0x7E and U+2212 MINUS
 *     SIGN -> 0x817C; these three are one-way (the bytes decode to backslash, tilde and U+FF0D);
 *   - beyond WHATWG (whose encoder rejects them), U+E000-U+E757 encode to the user-defined pairs
 *     0xF040-0xF9FC as in Windows' CP932, so a decoded name that uses them encodes back to them;
 *   - invalid UTF-8, or a code point that Shift-JIS cannot encode, fails with PM_ERR_ENCODING and
 *     a message naming the character (U+XXXX) and its byte offset in the input; the whole input is
 *     checked, also the part a cut would drop;
 *   - when the encoded text does not fit the output field, it is cut after the last whole character
 *     that fits: a double-byte character is never split, and nothing after it is written.
 *
 * Node's own TextDecoder('shift_jis') (ICU) differs from WHATWG and from browsers on four single
 * bytes (0x1A, 0x1C, 0x7F, 0x80) and on how many U+FFFD an invalid pair gives; the double-byte table
 * is the same. docs/formats.md has the details and the provenance of the tables.
 */
#ifndef PROCMOTION_TEXT_H
#define PROCMOTION_TEXT_H

#include "procmotion/common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Length of a NUL-padded field: the bytes before the first NUL, or `size` if there is none
 * (0 for field == NULL). */
size_t pm_sjis_field_length(const uint8_t *field, size_t size);

/*
 * Decode `size` bytes of Shift-JIS to UTF-8.
 * Writes at most `out_cap` bytes into `out` and always NUL-terminates when out_cap > 0 (the text is
 * cut at a whole UTF-8 character when it does not fit). Returns the UTF-8 length of the whole
 * decoded text (without the NUL): call with out = NULL, out_cap = 0 to size the buffer.
 * The UTF-8 output is at most 3 * size bytes. data == NULL is empty input; out == NULL counts as
 * out_cap == 0.
 */
size_t pm_sjis_to_utf8(const uint8_t *data, size_t size, char *out, size_t out_cap);

/*
 * Encode `len` bytes of UTF-8 to Shift-JIS into `out` (capacity `out_cap`, not NUL-terminated).
 * On success *out_len (if not NULL) is the number of bytes written and *truncated (if not NULL)
 * tells whether characters were dropped to fit. On failure *out_len is 0, *truncated false, nothing
 * useful is in `out` and err names the offending character and its byte offset.
 * utf8 may be NULL only with len == 0 and out only with out_cap == 0 (else PM_ERR_INVALID_ARGUMENT).
 */
pm_result pm_utf8_to_sjis(const char *utf8, size_t len, uint8_t *out, size_t out_cap, size_t *out_len,
                          bool *truncated, pm_error *err);

/* Decode one UTF-8 code point at s[0..len). Returns its byte length (1..4) and stores the code point,
 * or returns 0 for an invalid or cut-off sequence (overlong forms and surrogates are invalid). */
size_t pm_utf8_decode(const char *s, size_t len, uint32_t *codepoint);

/* Encode one code point as UTF-8 into out (1..4 bytes, returned). A surrogate or a value above
 * U+10FFFF is written as U+FFFD. */
size_t pm_utf8_encode(uint32_t codepoint, char out[4]);

/* ---- NAMES ------------------------------------------------------------------------------------------
 * Bone and morph names compare the way MMD users write them. */

/* Whether two names are the same bone name: equal after full-width ASCII (U+FF01..U+FF5E) is folded
 * onto ASCII on both sides (足ＩＫ = 足IK, 人指１ = 人指1); case and everything else kept. This is what
 * pm_skeleton_find_mmd and the pose evaluator's name matching compare with. */
bool pm_names_equal(const char *a, size_t alen, const char *b, size_t blen);

/* The lookup key of `len` bytes of UTF-8: ASCII letters to lower case, full-width ASCII to ASCII, then
 * only a-z, 0-9, CJK ideographs, hiragana, katakana (ー included) and 々 kept (左足ＩＫ -> 左足ik,
 * "leg IK_L" -> legikl). Written into out (NUL-terminated when cap > 0, cut at a whole character);
 * returns the full key length. The role resolver (procmotion/rig.h) matches keys. */
size_t pm_name_key(const char *name, size_t len, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
