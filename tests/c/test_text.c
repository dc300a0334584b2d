/* text: UTF-8 <-> Shift-JIS (WHATWG Shift_JIS / Windows-31J) as MMD names use it. */
#include "pm_test.h"

#include "pm_abi.h"
#include "procmotion/text.h"
#include "text/sjis_encoder.h"
#include "text/sjis_table.h"

#include <stdbool.h>
#include <stdint.h>

int32_t pm_abi_sjis_encode(const char *utf8, uint32_t len, uint8_t *out, uint32_t cap, uint32_t *out_len, char *errbuf);
uint32_t pm_abi_sjis_decode(const uint8_t *in, uint32_t len, char *out, uint32_t cap);
void pm_abi_sjis_table(uint32_t *slots);

/* ---- helpers ------------------------------------------------------------------------------ */

/* UTF-8 of a scalar value, written independently of sjis.c's encoder (the test's oracle). */
static size_t put_utf8(uint32_t cp, char *buf) {
    static const uint8_t first_byte_mark[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (size_t k = n - 1; k > 0; k--, cp >>= 6) buf[k] = (char)(0x80 | (cp & 0x3F));
    buf[0] = (char)(first_byte_mark[n] | cp);
    return n;
}

/* Encode a NUL-terminated string into a 64-byte buffer; returns the result, fills *n. */
static pm_result encode(const char *s, uint8_t out[64], size_t *n, pm_error *err) {
    return pm_utf8_to_sjis(s, strlen(s), out, 64, n, NULL, err);
}

/* Decode bytes to a NUL-terminated string in buf (256 bytes); returns the full length. */
static size_t decode(const uint8_t *bytes, size_t size, char buf[256]) { return pm_sjis_to_utf8(bytes, size, buf, 256); }

static bool same_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

/* Encode `utf8` and compare with `want`; then decode `want` and compare with `utf8`. */
#define CHECK_ROUND_TRIP(utf8, ...)                                                                      \
    do {                                                                                                 \
        static const uint8_t want_[] = {__VA_ARGS__};                                                    \
        uint8_t got_[64];                                                                                \
        size_t n_ = 0;                                                                                   \
        pm_error err_ = {0};                                                                             \
        PM_CHECK_OK(encode((utf8), got_, &n_, &err_), &err_);                                            \
        PM_CHECK_MSG(same_bytes(got_, n_, want_, sizeof want_), "encoding %s gave other bytes", (utf8)); \
        char text_[256];                                                                                 \
        PM_CHECK_EQ_INT(decode(want_, sizeof want_, text_), strlen(utf8));                               \
        PM_CHECK_STR(text_, (utf8));                                                                     \
    } while (0)

/* ---- known byte sequences ----------------------------------------------------------------- */

PM_TEST(ascii_is_itself_both_ways) {
    CHECK_ROUND_TRIP("Camera 01", 'C', 'a', 'm', 'e', 'r', 'a', ' ', '0', '1');
    for (uint32_t b = 0; b < 0x80; b++) {
        uint8_t byte = (uint8_t)b, out[4];
        char text[8];
        PM_CHECK_EQ_INT(pm_sjis_to_utf8(&byte, 1, text, sizeof text), 1);
        PM_CHECK_EQ_INT((uint8_t)text[0], b);
        char c = (char)b;
        size_t n = 0;
        PM_CHECK_EQ_INT(pm_utf8_to_sjis(&c, 1, out, sizeof out, &n, NULL, NULL), PM_OK);
        PM_CHECK_EQ_INT(n, 1);
        PM_CHECK_EQ_INT(out[0], b);
    }
}

PM_TEST(half_width_katakana_is_one_byte) {
    CHECK_ROUND_TRIP("ｳｨﾝｸ", 0xB3, 0xA8, 0xDD, 0xB8);
    for (uint32_t b = 0xA1; b <= 0xDF; b++) {
        uint8_t byte = (uint8_t)b, out[4];
        char text[8], want[4];
        size_t len = put_utf8(0xFF61 + b - 0xA1, want);
        PM_CHECK_EQ_INT(pm_sjis_to_utf8(&byte, 1, text, sizeof text), 3);
        PM_CHECK(memcmp(text, want, len) == 0);
        size_t n = 0;
        PM_CHECK_EQ_INT(pm_utf8_to_sjis(want, len, out, sizeof out, &n, NULL, NULL), PM_OK);
        PM_CHECK(n == 1 && out[0] == b);
    }
}

PM_TEST(standard_bone_names_have_their_known_bytes) {
    CHECK_ROUND_TRIP("センター", 0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B);
    CHECK_ROUND_TRIP("グルーブ", 0x83, 0x4F, 0x83, 0x8B, 0x81, 0x5B, 0x83, 0x75);
    CHECK_ROUND_TRIP("上半身2", 0x8F, 0xE3, 0x94, 0xBC, 0x90, 0x67, 0x32);
    CHECK_ROUND_TRIP("左足ＩＫ", 0x8D, 0xB6, 0x91, 0xAB, 0x82, 0x68, 0x82, 0x6A);
    CHECK_ROUND_TRIP("右つま先ＩＫ", 0x89, 0x45, 0x82, 0xC2, 0x82, 0xDC, 0x90, 0xE6, 0x82, 0x68, 0x82, 0x6A);
    CHECK_ROUND_TRIP("全ての親", 0x91, 0x53, 0x82, 0xC4, 0x82, 0xCC, 0x90, 0x65);
    CHECK_ROUND_TRIP("左ひじ", 0x8D, 0xB6, 0x82, 0xD0, 0x82, 0xB6);
}

/* Every line of tests/data/mmd-names.tsv (bytes from an independent encoder, checked with Node's
 * TextDecoder): our encoder gives those bytes and our decoder gives the name back. */
PM_TEST(every_standard_mmd_name_round_trips_with_known_bytes) {
    char path[1024];
    const char *slash = strrchr(__FILE__, '/');
    int dir_len = slash ? (int)(slash - __FILE__) : 1;
    snprintf(path, sizeof path, "%.*s/../data/mmd-names.tsv", dir_len, slash ? __FILE__ : ".");
    FILE *f = fopen(path, "r");
    PM_CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return;
    char line[512];
    int names = 0, bones = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *name = strchr(line, '\t');
        char *hex = name ? strchr(name + 1, '\t') : NULL;
        PM_CHECK_MSG(hex != NULL, "bad line in %s: %s", path, line);
        if (!hex) continue;
        *name++ = '\0';
        *hex++ = '\0';
        uint8_t want[64];
        size_t want_len = 0;
        for (char *p = hex; *p && *p != '\n' && want_len < sizeof want;) {
            want[want_len++] = (uint8_t)strtoul(p, &p, 16);
            while (*p == ' ') p++;
        }
        uint8_t got[64];
        size_t n = 0;
        pm_error err = {0};
        PM_CHECK_OK(encode(name, got, &n, &err), &err);
        PM_CHECK_MSG(same_bytes(got, n, want, want_len), "%s: encoded bytes differ", name);
        PM_CHECK_MSG(want_len <= 15, "%s does not fit a VMD name field", name);
        char text[256];
        PM_CHECK_EQ_INT(decode(want, want_len, text), strlen(name));
        PM_CHECK_STR(text, name);
        names++;
        bones += strcmp(line, "bone") == 0;
    }
    fclose(f);
    PM_CHECK_MSG(bones >= 90 && names >= 140, "only %d names (%d bones) in %s", names, bones, path);
}

/* ---- truncation ---------------------------------------------------------------------------- */

static size_t sjis_char_len(uint8_t b) { return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC) ? 2 : 1; }

/* Cutting to any width keeps whole characters only, as many as fit, and says it cut. */
static void check_cuts(const char *s) {
    uint8_t full[64];
    size_t full_len = 0;
    pm_error err = {0};
    PM_CHECK_OK(encode(s, full, &full_len, &err), &err);
    for (size_t cap = 0; cap <= full_len + 1; cap++) {
        uint8_t out[64];
        size_t n = 99;
        bool truncated = false;
        PM_CHECK_OK(pm_utf8_to_sjis(s, strlen(s), out, cap, &n, &truncated, &err), &err);
        PM_CHECK(n <= cap);
        PM_CHECK(memcmp(out, full, n) == 0);
        PM_CHECK_EQ_INT(truncated, n < full_len);
        /* n is a character boundary of the full encoding, and the next character did not fit */
        size_t boundary = 0, next = 0;
        while (boundary < n) boundary += sjis_char_len(full[boundary]);
        PM_CHECK_MSG(boundary == n, "%s cut to %zu bytes splits a character", s, cap);
        if (n < full_len) {
            next = sjis_char_len(full[n]);
            PM_CHECK_MSG(n + next > cap, "%s cut to %zu bytes dropped a character that fits", s, cap);
        }
    }
}

PM_TEST(cutting_to_15_bytes_never_splits_a_double_byte_character) {
    /* 上半身センターグルーブ: seven double-byte characters fill 14 bytes, the eighth does not fit */
    const char *name = "上半身センターグルーブ";
    uint8_t out[15];
    size_t n = 0;
    bool truncated = false;
    pm_error err = {0};
    PM_CHECK_OK(pm_utf8_to_sjis(name, strlen(name), out, 15, &n, &truncated, &err), &err);
    PM_CHECK_EQ_INT(n, 14);
    PM_CHECK(truncated);
    char text[64];
    pm_sjis_to_utf8(out, n, text, sizeof text);
    PM_CHECK_STR(text, "上半身センター");
    /* an ASCII character after the cut is not written even though it would fit */
    const char *mixed = "a上半身センターグルx";
    PM_CHECK_OK(pm_utf8_to_sjis(mixed, strlen(mixed), out, 15, &n, &truncated, &err), &err);
    PM_CHECK_EQ_INT(n, 15);
    PM_CHECK(truncated);
    PM_CHECK_EQ_INT(out[14], 0x5B); /* the trail byte of ー */
    PM_CHECK_OK(pm_utf8_to_sjis("上半身センターーxy", strlen("上半身センターーxy"), out, 15, &n, &truncated, &err),
                &err);
    PM_CHECK_EQ_INT(n, 14);
    PM_CHECK(truncated);

    check_cuts(name);
    check_cuts(mixed);
    check_cuts("左つま先ＩＫ右つま先ＩＫ");
    check_cuts("ｳｨﾝｸ２右ウィンク２ab");
    check_cuts("");
}

PM_TEST(decoded_text_is_cut_at_a_whole_utf8_character_and_nul_terminated) {
    static const uint8_t center[] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}; /* センター */
    PM_CHECK_EQ_INT(pm_sjis_to_utf8(center, sizeof center, NULL, 0), 12);
    char full[13];
    PM_CHECK_EQ_INT(pm_sjis_to_utf8(center, sizeof center, full, sizeof full), 12);
    PM_CHECK_STR(full, "センター");
    for (size_t cap = 1; cap <= 13; cap++) {
        char out[16];
        memset(out, 'x', sizeof out);
        PM_CHECK_EQ_INT(pm_sjis_to_utf8(center, sizeof center, out, cap), 12);
        size_t len = strlen(out);
        PM_CHECK(len < cap);
        PM_CHECK_EQ_INT(len, (cap - 1) / 3 * 3); /* whole 3-byte characters only */
        PM_CHECK(memcmp(out, full, len) == 0);
        PM_CHECK_EQ_INT(out[cap], 'x'); /* nothing written past out_cap */
    }
    char one = 'x';
    PM_CHECK_EQ_INT(pm_sjis_to_utf8(center, sizeof center, &one, 1), 12);
    PM_CHECK_EQ_INT(one, '\0');
}

/* ---- invalid input ------------------------------------------------------------------------- */

#define CHECK_DECODES_TO(expected, ...)                                                                  \
    do {                                                                                                 \
        static const uint8_t in_[] = {__VA_ARGS__};                                                      \
        char out_[64];                                                                                   \
        size_t n_ = pm_sjis_to_utf8(in_, sizeof in_, out_, sizeof out_);                                 \
        PM_CHECK_EQ_INT(n_, sizeof(expected) - 1);                                                       \
        PM_CHECK_MSG(memcmp(out_, expected, sizeof(expected)) == 0, "decoding gave \"%s\"", out_);      \
    } while (0)

#define FFFD "\xEF\xBF\xBD"

PM_TEST(invalid_shift_jis_decodes_to_replacement_characters_as_whatwg_says) {
    CHECK_DECODES_TO(FFFD, 0x81);                       /* lead byte cut off by the end */
    CHECK_DECODES_TO("A" FFFD, 'A', 0x9F);              /* likewise after text */
    CHECK_DECODES_TO(FFFD FFFD FFFD FFFD, 0xA0, 0xFD, 0xFE, 0xFF); /* bytes that are never valid */
    CHECK_DECODES_TO(FFFD "\x7F" "A", 0x81, 0x7F, 'A'); /* a bad ASCII trail byte is read again */
    CHECK_DECODES_TO(FFFD "\n", 0x81, 0x0A);
    CHECK_DECODES_TO(FFFD "@", 0x85, 0x40);             /* unmapped pair, ASCII trail: read again */
    CHECK_DECODES_TO(FFFD "A", 0x81, 0xAD, 'A');        /* unmapped pair, other trail: one error */
    CHECK_DECODES_TO(FFFD "A", 0x81, 0xFD, 'A');        /* trail out of range, not ASCII: consumed */
    CHECK_DECODES_TO(FFFD "@", 0x85, 0x85, 0x40);      /* unmapped pair: its trail is not a new lead */
    CHECK_DECODES_TO("\xC2\x80", 0x80);                 /* WHATWG: 0x80 is U+0080 */
    CHECK_DECODES_TO("\\~", 0x5C, 0x7E);                /* ASCII, not YEN SIGN / OVERLINE */
    CHECK_DECODES_TO("\xEE\x80\x80\xEE\x9D\x97", 0xF0, 0x40, 0xF9, 0xFC); /* user-defined -> U+E000, U+E757 */
    /* NUL is an ordinary byte: callers cut fields with pm_sjis_field_length */
    static const uint8_t nul[] = {'a', 0, 'b'};
    char out[8];
    PM_CHECK_EQ_INT(pm_sjis_to_utf8(nul, sizeof nul, out, sizeof out), 3);
    PM_CHECK(memcmp(out, "a\0b", 4) == 0);
    /* NULL input is empty */
    PM_CHECK_EQ_INT(pm_sjis_to_utf8(NULL, 5, out, sizeof out), 0);
    PM_CHECK_STR(out, "");
}

PM_TEST(field_length_stops_at_the_first_nul) {
    static const uint8_t field[15] = {0x83, 0x5A, 0x83, 0x93, 0, 0xFD, 0xFD};
    PM_CHECK_EQ_INT(pm_sjis_field_length(field, sizeof field), 4);
    static const uint8_t full[3] = {'a', 'b', 'c'};
    PM_CHECK_EQ_INT(pm_sjis_field_length(full, sizeof full), 3);
    PM_CHECK_EQ_INT(pm_sjis_field_length(full, 0), 0);
    PM_CHECK_EQ_INT(pm_sjis_field_length(NULL, 15), 0);
}

/* Encode `s`, expect PM_ERR_ENCODING and a message containing `want`. */
static void check_encode_error(const char *s, size_t len, size_t cap, const char *want) {
    uint8_t out[64];
    size_t n = 99;
    bool truncated = true;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_utf8_to_sjis(s, len, out, cap, &n, &truncated, &err), PM_ERR_ENCODING);
    PM_CHECK_EQ_INT(err.type, PM_ERR_ENCODING);
    PM_CHECK_MSG(strstr(err.message, want) != NULL, "message \"%s\" lacks \"%s\"", err.message, want);
    PM_CHECK_EQ_INT(n, 0);
    PM_CHECK(!truncated);
}

PM_TEST(unencodable_characters_are_errors_that_name_them) {
    check_encode_error("左😀", strlen("左😀"), 64, "U+1F600 \"😀\" at byte 3");
    check_encode_error("波〜", strlen("波〜"), 64, "U+301C"); /* WAVE DASH: CP932 has only U+FF5E */
    check_encode_error("한", strlen("한"), 64, "U+D55C");
    check_encode_error("\xC2\x85", 2, 64, "U+0085 at byte 0"); /* a C1 control is named, not shown */
    /* the whole text is checked, also what would be cut off */
    check_encode_error("ab😀", strlen("ab😀"), 2, "U+1F600");
    check_encode_error("ab😀", strlen("ab😀"), 0, "at byte 2");
}

PM_TEST(invalid_utf8_is_an_error_that_gives_the_byte_offset) {
    check_encode_error("ab\xC3\x28", 4, 64, "invalid UTF-8 (byte 0xC3) at byte 2");
    check_encode_error("\x80", 1, 64, "invalid UTF-8 (byte 0x80) at byte 0");
    check_encode_error("a\xC0\xAF", 3, 64, "at byte 1");     /* overlong '/' */
    check_encode_error("\xED\xA0\x80", 3, 64, "at byte 0");  /* a UTF-16 surrogate */
    check_encode_error("\xF4\x90\x80\x80", 4, 64, "at byte 0"); /* above U+10FFFF */
    check_encode_error("セ\xE3\x83", 5, 64, "at byte 3");    /* cut off */
    check_encode_error("\xFF", 1, 64, "byte 0xFF");
}

PM_TEST(bad_arguments_are_reported) {
    uint8_t out[4];
    size_t n = 7;
    pm_error err = {0};
    PM_CHECK_EQ_INT(pm_utf8_to_sjis(NULL, 3, out, sizeof out, &n, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "NULL") != NULL);
    PM_CHECK_EQ_INT(pm_utf8_to_sjis("ab", 2, NULL, 4, &n, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_utf8_to_sjis(NULL, 0, NULL, 0, &n, NULL, &err), PM_OK);
    PM_CHECK_EQ_INT(n, 0);
    bool truncated = false;
    PM_CHECK_EQ_INT(pm_utf8_to_sjis("ab", 2, NULL, 0, NULL, &truncated, NULL), PM_OK);
    PM_CHECK(truncated);
}

/* ---- the WHATWG encoder's choices ---------------------------------------------------------- */

PM_TEST(encoder_makes_the_whatwg_choices) {
    CHECK_ROUND_TRIP("\xC2\x80", 0x80);            /* U+0080 <-> 0x80 */
    CHECK_ROUND_TRIP("①", 0x87, 0x40);             /* NEC row 13 */
    CHECK_ROUND_TRIP("Ⅰ", 0x87, 0x54);             /* NEC row 13, not IBM 0xFA4A */
    CHECK_ROUND_TRIP("ⅰ", 0xFA, 0x40);             /* IBM extension, not NEC-selected 0xEEEF */
    CHECK_ROUND_TRIP("纊", 0xFA, 0x5C);            /* IBM extension, not NEC-selected 0xED40 */
    CHECK_ROUND_TRIP("￢", 0x81, 0xCA);            /* JIS X 0208, not 0xEEF9 or 0xFA54 */
    CHECK_ROUND_TRIP("∵", 0x81, 0xE6);             /* JIS X 0208, not 0x879A or 0xFA5B */
    CHECK_ROUND_TRIP("～", 0x81, 0x60);            /* FULLWIDTH TILDE is CP932's 0x8160 */
    CHECK_ROUND_TRIP("\xEE\x80\x80", 0xF0, 0x40);  /* user-defined area U+E000 */
    CHECK_ROUND_TRIP("\xEE\x9D\x97", 0xF9, 0xFC);  /* U+E757 */
    /* one-way: these encode to bytes that decode to another character */
    uint8_t out[64];
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(encode("¥‾−", out, &n, &err), &err); /* YEN SIGN, OVERLINE, MINUS SIGN */
    PM_CHECK(same_bytes(out, n, (const uint8_t[]){0x5C, 0x7E, 0x81, 0x7C}, 4));
    /* the IBM duplicates decode to the same characters */
    char text[256];
    decode((const uint8_t[]){0xEE, 0xEF, 0xED, 0x40, 0xFA, 0x4A, 0x87, 0x9A, 0xFA, 0x5B}, 10, text);
    PM_CHECK_STR(text, "ⅰ纊Ⅰ∵∵");
}

/* ---- whole tables ---------------------------------------------------------------------------- */

/* One code point through the encoder, with a map kept in *enc across calls (as the VMD code does). */
static size_t encode_cp(pmi_sjis_encoder **enc, uint32_t cp, uint8_t out[4], pm_result *r) {
    char utf8[4];
    size_t n = 0;
    *r = pmi_utf8_to_sjis_with(enc, NULL, utf8, put_utf8(cp, utf8), out, 4, &n, NULL, NULL);
    return n;
}

/* The encoder's map is derived from the decode table: every code point that a pointer outside
 * 8272..8835 decodes to encodes to the first such pointer (WHATWG's index Shift_JIS pointer), and no
 * other code point encodes to a pair. */
PM_TEST(the_derived_encoder_writes_the_lowest_pointer_of_every_code_point) {
    PM_CHECK(pmi_sjis_encode_count > 7000);
    pmi_sjis_encoder *enc = NULL;
    static bool seen[0x10000];
    memset(seen, 0, sizeof seen);
    size_t entries = 0;
    for (uint32_t pointer = 0; pointer < PMI_SJIS_POINTER_COUNT; pointer++) {
        const uint32_t cp = pmi_sjis_decode_pointer(pointer);
        if (!cp || (pointer >= 8272 && pointer <= 8835) || (cp >= PMI_SJIS_EUDC_FIRST && cp <= PMI_SJIS_EUDC_LAST) ||
            seen[cp])
            continue;
        seen[cp] = true;
        entries++;
        const unsigned lead = pointer / 188 + (pointer / 188 < 0x1F ? 0x81 : 0xC1);
        const unsigned trail = pointer % 188 + (pointer % 188 < 0x3F ? 0x40 : 0x41);
        char utf8[4];
        uint8_t bytes[4];
        size_t n = 0;
        pm_result r = pmi_utf8_to_sjis_with(&enc, NULL, utf8, put_utf8(cp, utf8), bytes, 4, &n, NULL, NULL);
        PM_CHECK_MSG(r == PM_OK && n == 2 && bytes[0] == lead && bytes[1] == trail, "U+%04X does not encode to %02X%02X",
                     (unsigned)cp, lead, trail);
        char want[4], text[8];
        size_t want_len = put_utf8(cp, want);
        PM_CHECK_EQ_INT(pm_sjis_to_utf8(bytes, 2, text, sizeof text), want_len);
        PM_CHECK_MSG(memcmp(text, want, want_len) == 0, "%02X%02X does not decode to U+%04X", lead, trail, (unsigned)cp);
    }
    PM_CHECK_EQ_INT(entries, pmi_sjis_encode_count); /* and no other code point: the test after the next */
    pmi_sjis_encoder_free(enc);
}

/* Without memory for the map the encoder searches the decode table: the same bytes. */
PM_TEST(the_encoder_without_memory_for_its_map_writes_the_same_bytes) {
    const pm_allocator tight = {.memory_limit = 1024};
    PM_CHECK(pmi_sjis_encoder_create(&tight) == NULL);
    const char *s = "上半身センター右つま先ＩＫ纊ⅰ−¥";
    uint8_t a[64], b[64];
    size_t na = 0, nb = 0;
    pmi_sjis_encoder *none = NULL;
    PM_CHECK_EQ_INT(pmi_utf8_to_sjis_with(&none, &tight, s, strlen(s), a, sizeof a, &na, NULL, NULL), PM_OK);
    PM_CHECK(none == NULL);
    PM_CHECK_EQ_INT(pm_utf8_to_sjis(s, strlen(s), b, sizeof b, &nb, NULL, NULL), PM_OK);
    PM_CHECK(same_bytes(a, na, b, nb));
    PM_CHECK_EQ_INT(pmi_utf8_to_sjis_with(&none, &tight, "\xE2\x82\xAC\xF0\x9F\x98\x80", 7, a, sizeof a, &na, NULL,
                                          NULL),
                    PM_ERR_ENCODING); /* U+20AC EURO SIGN has no pair either way */
}

/* Every pair the decoder maps re-encodes to a pair that decodes to the same character: 398 of them
 * are duplicates (NEC / IBM extensions) whose character is written with its preferred pair. */
PM_TEST(every_decodable_pair_decodes_encodes_and_decodes_the_same) {
    size_t mapped = 0, duplicates = 0;
    pmi_sjis_encoder *enc = NULL;
    for (uint32_t lead = 0x81; lead <= 0xFC; lead++) {
        for (uint32_t trail = 0x40; trail <= 0xFC; trail++) {
            uint8_t pair[2] = {(uint8_t)lead, (uint8_t)trail};
            char text[16];
            size_t len = pm_sjis_to_utf8(pair, 2, text, sizeof text);
            PM_CHECK(len <= 6);
            uint32_t cp = 0;
            if (pm_utf8_decode(text, len, &cp) != len || cp == 0xFFFD) continue; /* unmapped or 2 chars */
            mapped++;
            uint8_t again[4];
            pm_result r;
            size_t n = encode_cp(&enc, cp, again, &r);
            PM_CHECK_MSG(r == PM_OK && n == 2, "U+%04X from %02X%02X does not encode", cp, lead, trail);
            char text2[16];
            pm_sjis_to_utf8(again, n, text2, sizeof text2);
            PM_CHECK(strcmp(text, text2) == 0);
            duplicates += again[0] != lead || again[1] != trail;
        }
    }
    PM_CHECK_EQ_INT(mapped, 9604); /* 7724 JIS X 0208 + NEC + IBM pairs, 1880 user-defined */
    PM_CHECK_EQ_INT(duplicates, 398);
    pmi_sjis_encoder_free(enc);
}

/* Over every Unicode scalar value: encoding either fails or gives bytes that decode to the same
 * character, except the three documented one-way mappings. */
PM_TEST(every_code_point_encodes_faithfully_or_fails) {
    size_t encodable = 0;
    pmi_sjis_encoder *enc = NULL;
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue;
        uint8_t bytes[4];
        pm_result r;
        size_t n = encode_cp(&enc, cp, bytes, &r);
        if (r != PM_OK) {
            PM_CHECK_EQ_INT(r, PM_ERR_ENCODING);
            continue;
        }
        encodable++;
        char text[16], want[4];
        size_t want_len = put_utf8(cp, want);
        size_t len = pm_sjis_to_utf8(bytes, n, text, sizeof text);
        bool same = len == want_len && memcmp(text, want, len) == 0;
        bool one_way = cp == 0x00A5 || cp == 0x203E || cp == 0x2212;
        PM_CHECK_MSG(same != one_way, "U+%04X encodes to bytes that decode to \"%s\"", cp, text);
    }
    /* 128 ASCII + U+0080 + 63 katakana + 7326 table + 1880 user-defined + 3 one-way */
    PM_CHECK_EQ_INT(encodable, 128 + 1 + 63 + pmi_sjis_encode_count + 1880 + 3);
    pmi_sjis_encoder_free(enc);
}

/* ---- UTF-8 --------------------------------------------------------------------------------- */

PM_TEST(utf8_decode_accepts_scalar_values_and_rejects_the_rest) {
    uint32_t cp = 0;
    PM_CHECK_EQ_INT(pm_utf8_decode("A", 1, &cp), 1);
    PM_CHECK_EQ_INT(cp, 'A');
    PM_CHECK_EQ_INT(pm_utf8_decode("\xC2\xA5", 2, &cp), 2);
    PM_CHECK_EQ_INT(cp, 0xA5);
    PM_CHECK_EQ_INT(pm_utf8_decode("セ", 3, &cp), 3);
    PM_CHECK_EQ_INT(cp, 0x30BB);
    PM_CHECK_EQ_INT(pm_utf8_decode("\xF4\x8F\xBF\xBF", 4, &cp), 4);
    PM_CHECK_EQ_INT(cp, 0x10FFFF);
    PM_CHECK_EQ_INT(pm_utf8_decode("\xEF\xBF\xBD", 3, NULL), 3);
    static const char *bad[] = {"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\xBF\xBF",
                                "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF8\x88\x80\x80\x80",
                                "\xFF", "\xC3\x28", "\xE3\x83\x28"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        PM_CHECK_MSG(pm_utf8_decode(bad[i], strlen(bad[i]), &cp) == 0, "bad sequence %zu accepted", i);
    PM_CHECK_EQ_INT(pm_utf8_decode("セ", 2, &cp), 0); /* cut off */
    PM_CHECK_EQ_INT(pm_utf8_decode("", 0, &cp), 0);
    PM_CHECK_EQ_INT(pm_utf8_decode(NULL, 3, &cp), 0);
}

/* ---- the flat ABI the JS glue calls ---------------------------------------------------------- */

PM_TEST(abi_encode_and_decode_wrap_the_core) {
    uint8_t out[16];
    uint32_t n = 99;
    char errbuf[256];
    memset(errbuf, 'x', sizeof errbuf);
    const char *name = "上半身センターグルーブ";
    PM_CHECK_EQ_INT(pm_abi_sjis_encode(name, (uint32_t)strlen(name), out, 15, &n, errbuf), PM_OK);
    PM_CHECK_EQ_INT(n, 14);
    PM_CHECK_STR(errbuf, "");
    PM_CHECK_EQ_INT(pm_abi_sjis_encode("左😀", (uint32_t)strlen("左😀"), out, 15, &n, errbuf), PM_ERR_ENCODING);
    PM_CHECK_EQ_INT(n, 0);
    PM_CHECK(strstr(errbuf, "U+1F600") != NULL);
    PM_CHECK_EQ_INT(pm_abi_sjis_encode("a", 1, out, 15, NULL, NULL), PM_OK);

    static const uint8_t center[] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B};
    char text[16];
    PM_CHECK_EQ_INT(pm_abi_sjis_decode(center, sizeof center, text, sizeof text), 12);
    PM_CHECK_STR(text, "センター");
    PM_CHECK_EQ_INT(pm_abi_sjis_decode(center, sizeof center, text, 5), 12);
    PM_CHECK_STR(text, "セ");
    PM_CHECK_EQ_INT(pm_abi_sjis_decode(center, sizeof center, NULL, 0), 12);
}

/* The npm build's table is storage the host fills and the core checks against pmi_sjis_decode_checksum
 * (sjis_table.h): the generated checksum is the compiled table's pmi_hash_bytes (the generator's own
 * copy of the hash agrees with strings.c), and pm_abi_sjis_table describes the table. */
PM_TEST(abi_sjis_table_describes_the_compiled_table_and_its_checksum) {
    enum { PM_ABI_LAYOUT_SJIS_TABLE(PM_ABI_SLOT_ENUM, ST_) ST_COUNT };
    uint32_t s[ST_COUNT + 1];
    memset(s, 0xEE, sizeof s);
    pm_abi_sjis_table(s);
    PM_CHECK_EQ_INT(s[ST_TABLE], (uint32_t)(uintptr_t)pmi_sjis_decode_table);
    PM_CHECK_EQ_INT(s[ST_ENTRIES], 11280 - 1880);
    PM_CHECK_EQ_INT(s[ST_ENTRIES], sizeof pmi_sjis_decode_table / sizeof pmi_sjis_decode_table[0]);
    PM_CHECK_EQ_INT(s[ST_EUDC_POINTER], 8836);
    PM_CHECK_EQ_INT(s[ST_EUDC_COUNT], 1880);
    PM_CHECK_EQ_INT(s[ST_FROM_HOST], 0); /* native: compiled in */
    PM_CHECK_EQ_INT(s[ST_CHECKSUM], pmi_sjis_table_checksum());
    PM_CHECK_EQ_INT(s[ST_EXPECTED], pmi_sjis_decode_checksum);
    PM_CHECK_EQ_INT(pmi_sjis_table_checksum(), pmi_sjis_decode_checksum);
    PM_CHECK_EQ_INT(s[ST_COUNT], 0xEEEEEEEEu); /* nothing written past the layout */
    pm_abi_sjis_table(NULL);
}

int main(void) { return pm_test_run_all(); }
