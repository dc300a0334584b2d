/* A deflate decoder (RFC 1951) inside a zlib wrapper (RFC 1950): stored, fixed and dynamic Huffman
 * blocks, canonical codes decoded a bit at a time (small code, enough for FBX's arrays). */
#include "fbx/inflate.h"

#include <string.h>

typedef struct inflate_state {
    const uint8_t *in;
    size_t in_len, in_pos;
    uint32_t bit_buf;
    unsigned bit_count;
    uint8_t *out;
    size_t out_len, out_pos;
} inflate_state;

/* A canonical Huffman code: how many codes of each length, and the symbols in code order. */
typedef struct huffman {
    uint16_t count[16];
    uint16_t symbol[288];
} huffman;

static const char *const TRUNCATED = "the compressed data ends early";

/* `need` (<= 16) bits, least significant first; false when the input ends. */
static int take_bits(inflate_state *s, unsigned need, uint32_t *value) {
    uint32_t v = s->bit_buf;
    while (s->bit_count < need) {
        if (s->in_pos >= s->in_len) return 0;
        v |= (uint32_t)s->in[s->in_pos++] << s->bit_count;
        s->bit_count += 8;
    }
    s->bit_buf = v >> need;
    s->bit_count -= need;
    *value = v & ((1u << need) - 1u);
    return 1;
}

/* Build a code from code lengths. Returns the number of unused codes (0 = complete), or -1 when the
 * lengths over-subscribe the code space. */
static int build(huffman *h, const uint8_t *length, unsigned n) {
    uint16_t offset[16];
    memset(h->count, 0, sizeof h->count);
    for (unsigned i = 0; i < n; i++) h->count[length[i]]++;
    if (h->count[0] == n) return 0;
    int left = 1;
    for (unsigned len = 1; len < 16; len++) {
        left <<= 1;
        left -= h->count[len];
        if (left < 0) return -1;
    }
    offset[1] = 0;
    for (unsigned len = 1; len < 15; len++) offset[len + 1] = (uint16_t)(offset[len] + h->count[len]);
    for (unsigned i = 0; i < n; i++)
        if (length[i]) h->symbol[offset[length[i]]++] = (uint16_t)i;
    return left;
}

/* The next symbol, or -1 (input ended or no such code). */
static int decode(inflate_state *s, const huffman *h) {
    int code = 0, first = 0, index = 0;
    for (unsigned len = 1; len < 16; len++) {
        uint32_t bit;
        if (!take_bits(s, 1, &bit)) return -1;
        code |= (int)bit;
        const int count = h->count[len];
        if (code - count < first) return h->symbol[index + (code - first)];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

static const uint16_t LENGTH_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LENGTH_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DIST_BASE[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static const char *codes(inflate_state *s, const huffman *lengths, const huffman *distances) {
    for (;;) {
        int symbol = decode(s, lengths);
        if (symbol < 0) return "a literal/length code is invalid or cut off";
        if (symbol < 256) {
            if (s->out_pos >= s->out_len) return "the data decodes to more bytes than the array holds";
            s->out[s->out_pos++] = (uint8_t)symbol;
            continue;
        }
        if (symbol == 256) return NULL;
        symbol -= 257;
        if (symbol >= 29) return "a length code is out of range";
        uint32_t extra;
        if (!take_bits(s, LENGTH_EXTRA[symbol], &extra)) return TRUNCATED;
        const size_t len = LENGTH_BASE[symbol] + extra;
        symbol = decode(s, distances);
        if (symbol < 0 || symbol >= 30) return "a distance code is invalid or cut off";
        if (!take_bits(s, DIST_EXTRA[symbol], &extra)) return TRUNCATED;
        const size_t dist = DIST_BASE[symbol] + extra;
        if (dist > s->out_pos) return "a distance reaches before the start of the data";
        if (len > s->out_len - s->out_pos) return "the data decodes to more bytes than the array holds";
        for (size_t k = 0; k < len; k++, s->out_pos++) s->out[s->out_pos] = s->out[s->out_pos - dist];
    }
}

static const char *stored(inflate_state *s) {
    s->bit_buf = 0, s->bit_count = 0; /* to the byte boundary */
    if (s->in_len - s->in_pos < 4) return TRUNCATED;
    const uint8_t *p = s->in + s->in_pos;
    const unsigned len = p[0] | (unsigned)p[1] << 8, nlen = p[2] | (unsigned)p[3] << 8;
    if (len != (~nlen & 0xffffu)) return "a stored block's length does not match its complement";
    s->in_pos += 4;
    if (s->in_len - s->in_pos < len) return TRUNCATED;
    if (s->out_len - s->out_pos < len) return "the data decodes to more bytes than the array holds";
    memcpy(s->out + s->out_pos, s->in + s->in_pos, len);
    s->in_pos += len, s->out_pos += len;
    return NULL;
}

static const char *fixed(inflate_state *s) {
    uint8_t length[288];
    huffman lengths, distances;
    for (unsigned i = 0; i < 288; i++) length[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
    build(&lengths, length, 288);
    memset(length, 5, 30);
    build(&distances, length, 30);
    return codes(s, &lengths, &distances);
}

static const char *dynamic(inflate_state *s) {
    static const uint8_t ORDER[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint8_t length[320];
    huffman lengths, distances;
    uint32_t nlen, ndist, ncode, v;
    if (!take_bits(s, 5, &nlen) || !take_bits(s, 5, &ndist) || !take_bits(s, 4, &ncode)) return TRUNCATED;
    nlen += 257, ndist += 1, ncode += 4;
    if (nlen > 286 || ndist > 30) return "a dynamic block counts too many codes";
    memset(length, 0, 19);
    for (unsigned i = 0; i < ncode; i++) {
        if (!take_bits(s, 3, &v)) return TRUNCATED;
        length[ORDER[i]] = (uint8_t)v;
    }
    if (build(&lengths, length, 19) != 0) return "a dynamic block's code-length code is incomplete";
    for (unsigned i = 0; i < nlen + ndist;) {
        const int symbol = decode(s, &lengths);
        if (symbol < 0) return "a code length is invalid or cut off";
        if (symbol < 16) {
            length[i++] = (uint8_t)symbol;
            continue;
        }
        uint8_t value = 0;
        unsigned repeat;
        if (symbol == 16) {
            if (i == 0) return "a repeated code length has nothing before it";
            value = length[i - 1];
            if (!take_bits(s, 2, &v)) return TRUNCATED;
            repeat = 3 + v;
        } else if (symbol == 17) {
            if (!take_bits(s, 3, &v)) return TRUNCATED;
            repeat = 3 + v;
        } else {
            if (!take_bits(s, 7, &v)) return TRUNCATED;
            repeat = 11 + v;
        }
        if (i + repeat > nlen + ndist) return "code lengths run past the codes";
        while (repeat--) length[i++] = value;
    }
    if (length[256] == 0) return "a dynamic block has no end-of-block code";
    int left = build(&lengths, length, nlen);
    if (left < 0 || (left > 0 && nlen - lengths.count[0] != 1)) return "a dynamic block's literal/length code is incomplete";
    left = build(&distances, length + nlen, ndist);
    if (left < 0 || (left > 0 && ndist - distances.count[0] != 1)) return "a dynamic block's distance code is incomplete";
    return codes(s, &lengths, &distances);
}

const char *pmi_inflate_zlib(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len) {
    if (in_len < 6) return TRUNCATED;
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0)
        return "not a zlib stream (its two header bytes are wrong)";
    if (in[1] & 0x20) return "a zlib stream that needs a preset dictionary";
    inflate_state s = {in, in_len, 2, 0, 0, out, out_len, 0};
    uint32_t last = 0, type;
    while (!last) {
        if (!take_bits(&s, 1, &last) || !take_bits(&s, 2, &type)) return TRUNCATED;
        const char *why = type == 0 ? stored(&s) : type == 1 ? fixed(&s) : type == 2 ? dynamic(&s) : "a block of the reserved type 3";
        if (why) return why;
    }
    if (s.out_pos != out_len) return "the data decodes to fewer bytes than the array holds";
    if (s.in_len - s.in_pos < 4) return TRUNCATED; /* the Adler-32 follows, byte aligned */
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < out_len; i++) {
        a = (a + out[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    const uint8_t *p = in + s.in_pos;
    const uint32_t want = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (b << 16 | a) == want ? NULL : "the Adler-32 check of the decoded data fails";
}
