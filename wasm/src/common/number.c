/*
 * Number text, exact both ways, with no long double (in wasm32 that is IEEE quad done in software:
 * ~16 KB of musl's strtod and compiler-rt's *tf3 routines) and no locale, stdio or global state:
 *
 * - decimal -> double (pmi_scan_double, under pmi_parse_double, pmi_strtod and cJSON's strtod in the
 *   wasm builds): correctly rounded, half to even, like glibc's strtod. Fast path (Clinger): up to 19
 *   significant digits whose value is an exact double times an exact power of ten (10^0..10^22): one
 *   correctly rounded operation. Otherwise a double approximation within a few ulps is corrected by
 *   exact comparisons of the decimal value with the halfway points next to it, in a fixed-size bignum
 *   (uint32 limbs, on the stack). Digits past the 800th significant one only matter as "more than
 *   what is kept" (a halfway point of two doubles has at most 767 significant digits).
 * - double -> decimal digits (pmi_decimal_digits, pmi_decimal_fixed, used by format.c): the first
 *   `count` significant digits, or the digits of round(x * 10^prec), rounded half to even from the
 *   exact binary value, like glibc's printf. Fast path: x * 10^s = m * 5^s * 2^(q+s) in 128-bit
 *   integer arithmetic for 0 <= s <= 27; otherwise the bignum.
 */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* ---- a small fixed-size bignum ------------------------------------------------------------------
 * Only the slow paths use it: its functions are (for size in the wasm builds).
 * Magnitudes here stay under 2^2720 (the largest: (2m+1) * 5^1124 << 49 when comparing an 800-digit
 * input near 2^-1075 with its halfway point); 96 limbs hold 3072 bits. Nothing writes past the end:
 * a carry out of the last limb is dropped (which the bound above says never happens). */
#define BN_LIMBS 96

typedef struct bn {
    int n; /* limbs in use; d[n - 1] != 0 unless n == 0 */
    uint32_t d[BN_LIMBS];
} bn;

static void bn_set(bn *a, uint64_t v) {
    a->n = 0;
    while (v) {
        a->d[a->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void bn_copy(bn *dst, const bn *src) {
    dst->n = src->n;
    memcpy(dst->d, src->d, (size_t)src->n * sizeof src->d[0]);
}

static void bn_push(bn *a, uint32_t carry) {
    if (carry && a->n < BN_LIMBS) a->d[a->n++] = carry;
}

/* a = a * f + add */
static void bn_muladd(bn *a, uint32_t f, uint32_t add) {
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * f + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    bn_push(a, (uint32_t)carry);
}

static void bn_shl(bn *a, int bits);

static void bn_add(bn *a, const bn *b) {
    uint64_t carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        uint64_t t = carry + (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    a->n = n;
    bn_push(a, (uint32_t)carry);
}

/* a -= b, for a >= b */
static void bn_sub(bn *a, const bn *b) {
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)t;
    }
    while (a->n && !a->d[a->n - 1]) a->n--;
}

/* a *= f (64-bit) */
static void bn_mul64(bn *a, uint64_t f) {
    uint32_t hi = (uint32_t)(f >> 32);
    bn t;
    if (hi) bn_copy(&t, a);
    bn_muladd(a, (uint32_t)f, 0);
    if (!hi) return;
    bn_muladd(&t, hi, 0);
    bn_shl(&t, 32);
    bn_add(a, &t);
}

static void bn_mul_pow5(bn *a, int k) {
    while (k >= 13) {
        bn_muladd(a, 1220703125u, 0); /* 5^13 */
        k -= 13;
    }
    static const uint32_t p5[13] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625};
    if (k) bn_muladd(a, p5[k], 0);
}

static void bn_shl(bn *a, int bits) {
    if (a->n == 0 || bits <= 0) return;
    int w = bits / 32, b = bits % 32;
    int n = a->n + w + 1;
    if (n > BN_LIMBS) n = BN_LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int s = i - w; /* source limb for the high part */
        uint32_t hi = s >= 0 && s < a->n ? a->d[s] : 0;
        uint32_t lo = s - 1 >= 0 && s - 1 < a->n ? a->d[s - 1] : 0;
        a->d[i] = b ? (hi << b) | (lo >> (32 - b)) : hi;
    }
    a->n = n;
    while (a->n && !a->d[a->n - 1]) a->n--;
}

static int bn_cmp(const bn *a, const bn *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* ---- decimal -> double ------------------------------------------------------------------------ */

#define MAX_BIG_DIGITS 800

static const uint64_t pow10_u64[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
                                       10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
                                       100000000000ULL, 1000000000000ULL, 10000000000000ULL,
                                       100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
                                       100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 10^n (0 <= n <= 511) within a few ulps: 10^(n mod 16) exact times 1e16, 1e32, 1e64, 1e128, 1e256. */
static double pow10_approx(int n) {
    static const double big[5] = {1e16, 1e32, 1e64, 1e128, 1e256};
    double r = pow10_exact[n & 15];
    for (int i = 0; i < 5; i++)
        if (n & (16 << i)) r *= big[i];
    return r;
}

typedef struct dec_in {
    const char *sig;  /* first significant digit */
    const char *stop; /* end of the digits (before any exponent) */
    int nd;           /* significant digits up to the last non-zero one */
    int lead10;       /* the value is 0.d1d2d3... * 10^lead10 */
} dec_in;

/* m * 2^q for a positive finite double */
static void split_double(double v, uint64_t *m, int *q) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int be = (int)((bits >> 52) & 0x7ff);
    *m = bits & ((UINT64_C(1) << 52) - 1);
    if (be) *m |= UINT64_C(1) << 52;
    *q = (be ? be : 1) - 1075;
}

/* The exact decimal value: A = D * 5^max(e,0), P = 5^max(-e,0), where value = D * 10^e (+ sticky). */
typedef struct dec_big {
    bn a, p;
    int e;
    bool sticky;
} dec_big;

/* sign of value - M * 2^Q */
static int dec_cmp(const dec_big *x, uint64_t M, int Q) {
    bn l, r;
    bn_copy(&l, &x->a);
    bn_copy(&r, &x->p);
    bn_mul64(&r, M);
    if (x->e > Q) bn_shl(&l, x->e - Q);
    else bn_shl(&r, Q - x->e);
    int c = bn_cmp(&l, &r);
    return c == 0 && x->sticky ? 1 : c;
}

static double next_toward(double v, int dir) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = dir > 0 ? bits + 1 : bits - 1;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Correctly rounded value of the digits in `in`, starting from an approximation b (>= 0). */
static double dec_correct(const dec_in *in, double b) {
    dec_big x;
    int kd = in->nd < MAX_BIG_DIGITS ? in->nd : MAX_BIG_DIGITS;
    x.sticky = in->nd > MAX_BIG_DIGITS;
    x.e = in->lead10 - kd;
    x.a.n = 0;
    uint32_t chunk = 0, scale = 1;
    int taken = 0;
    for (const char *s = in->sig; taken < kd && s < in->stop; s++) {
        if (*s == '.') continue;
        chunk = chunk * 10 + (uint32_t)(*s - '0');
        scale *= 10;
        taken++;
        if (scale == 1000000000u || taken == kd) {
            bn_muladd(&x.a, scale, chunk);
            chunk = 0, scale = 1;
        }
    }
    bn_set(&x.p, 1);
    if (x.e > 0) bn_mul_pow5(&x.a, x.e);
    else bn_mul_pow5(&x.p, -x.e);
    if (!(b <= DBL_MAX)) b = DBL_MAX;
    for (;;) {
        uint64_t m;
        int q;
        split_double(b, &m, &q);
        int c = dec_cmp(&x, 2 * m + 1, q - 1); /* against the halfway point above */
        if (c > 0 || (c == 0 && (m & 1))) {
            b = next_toward(b, 1);
            if (isinf(b)) return b;
            continue;
        }
        if (b == 0) return b;
        /* the halfway point below: a quarter ulp down at a power of two (not for the smallest normal) */
        bool edge = m == UINT64_C(1) << 52 && q > -1074;
        c = edge ? dec_cmp(&x, 4 * m - 1, q - 2) : dec_cmp(&x, 2 * m - 1, q - 1);
        if (c < 0 || (c == 0 && (m & 1))) {
            b = next_toward(b, -1);
            continue;
        }
        return b;
    }
}

const char *pmi_scan_double(const char *p, const char *end, double *out) {
    const char *s = p;
    bool neg = false;
    if (s < end && (*s == '+' || *s == '-')) neg = *s++ == '-';
    const char *sig = NULL; /* the first significant digit */
    uint64_t mant = 0;      /* the first 19 digits from there */
    int all = 0, nd = 0, int_digits = 0, frac_lz = 0;
    bool any = false, frac = false;
    for (; s < end; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d >= 10) {
            if (*s == '.' && !frac) {
                frac = true;
                continue;
            }
            break;
        }
        any = true;
        if (!sig) {
            if (!d) {
                frac_lz += frac;
                continue;
            }
            sig = s;
        }
        int_digits += !frac;
        if (all < 19) mant = mant * 10 + d;
        all++;
        if (d) nd = all; /* significant digits up to the last non-zero one */
    }
    if (all > nd && nd < 19) /* trailing zeros taken into mant */
        mant /= pow10_u64[(all < 19 ? all : 19) - nd];
    if (!any) return p;
    const char *stop = s;
    long exp10 = 0;
    if (s < end && (*s == 'e' || *s == 'E')) {
        const char *e = s + 1;
        bool eneg = false;
        if (e < end && (*e == '+' || *e == '-')) eneg = *e++ == '-';
        if (e < end && *e >= '0' && *e <= '9') {
            while (e < end && *e >= '0' && *e <= '9') {
                if (exp10 < 100000) exp10 = exp10 * 10 + (*e - '0');
                e++;
            }
            if (eneg) exp10 = -exp10;
            s = e;
        }
    }
    double v;
    long lead = (sig ? (int_digits ? int_digits : -frac_lz) : 0) + exp10;
    if (!sig || lead < -324) {
        v = 0.0;
    } else if (lead > 310) {
        v = HUGE_VAL;
    } else {
        int k = nd < 19 ? nd : 19;
        int e = (int)lead - k;
        if (nd <= 19 && mant <= (UINT64_C(1) << 53) && e >= -22 && e <= 22 + 15) {
            /* Clinger: exact operands, one correctly rounded operation; above 10^22, 10^(e-22) goes
             * into the mantissa first when the product stays an exact integer of at most 2^53 */
            double dm = (double)mant;
            bool exact = true;
            if (e > 22) {
                exact = mant <= (UINT64_C(1) << 53) / pow10_u64[e - 22];
                dm *= pow10_exact[e - 22];
                e = 22;
            }
            if (exact) {
                v = e < 0 ? dm / pow10_exact[-e] : dm * pow10_exact[e];
                *out = neg ? -v : v;
                return s;
            }
            e = (int)lead - k;
        }
        double a = (double)mant;
        if (e >= 0) {
            if (e > 300) a *= 1e300, e -= 300;
            a *= pow10_approx(e);
        } else {
            if (e < -300) a /= 1e300, e += 300;
            a /= pow10_approx(-e);
        }
        dec_in in = {sig, stop, nd, (int)lead};
        v = dec_correct(&in, a);
    }
    *out = neg ? -v : v;
    return s;
}

bool pmi_parse_double(const char *p, const char *end, double *out, const char **next) {
    double v;
    const char *s = pmi_scan_double(p, end, &v);
    if (s == p || isinf(v)) return false;
    *out = v;
    if (next) *next = s;
    return true;
}

double pmi_strtod(const char *str, char **endptr) {
    const char *s = str;
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
    double v = 0.0;
    const char *next = pmi_scan_double(s, s + strlen(s), &v);
    if (endptr) *endptr = (char *)(next == s ? str : next);
    return v;
}

/* ---- double -> decimal digits ----------------------------------------------------------------- */

typedef struct u128 {
    uint64_t hi, lo;
} u128;

static u128 mul_64x64(uint64_t a, uint64_t b) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    u128 r = {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (uint32_t)p00};
    return r;
}

/* sign of x - 2^bit */
static int u128_cmp_pow2(u128 x, int bit) {
    if (bit >= 128) return -1;
    u128 h = {bit >= 64 ? UINT64_C(1) << (bit - 64) : 0, bit < 64 ? UINT64_C(1) << bit : 0};
    if (x.hi != h.hi) return x.hi < h.hi ? -1 : 1;
    return x.lo < h.lo ? -1 : x.lo > h.lo;
}

/*
 * floor(m * 2^q * 10^s) for 0 <= s <= 27 (m < 2^53: m * 5^s < 2^117), and *half = the sign of the
 * remainder minus one half. False when the result does not fit 128 bits.
 */
static bool scaled_floor_fast(uint64_t m, int q, int s, u128 *out, int *half) {
    uint64_t p5 = 1;
    for (int i = 0; i < s; i++) p5 *= 5;
    u128 p = mul_64x64(m, p5);
    int t = -(q + s); /* right shift */
    if (t <= 0) {
        int l = -t;
        if (l >= 64) {
            if (l >= 128 || p.hi || (l > 64 && p.lo >> (128 - l))) return false;
            p.hi = p.lo << (l - 64);
            p.lo = 0;
        } else if (l > 0) {
            if (p.hi >> (64 - l)) return false;
            p.hi = (p.hi << l) | (p.lo >> (64 - l));
            p.lo <<= l;
        }
        *out = p;
        *half = -1;
        return true;
    }
    u128 n, r;
    if (t >= 128) {
        n.hi = n.lo = 0;
        r = p;
    } else if (t >= 64) {
        n.hi = 0;
        n.lo = p.hi >> (t - 64);
        r.hi = t == 64 ? 0 : p.hi & ((UINT64_C(1) << (t - 64)) - 1);
        r.lo = p.lo;
    } else {
        n.hi = p.hi >> t;
        n.lo = (p.hi << (64 - t)) | (p.lo >> t);
        r.hi = 0;
        r.lo = p.lo & ((UINT64_C(1) << t) - 1);
    }
    *out = n;
    *half = u128_cmp_pow2(r, t - 1);
    return true;
}

static int bn_bitlen(const bn *a) {
    if (!a->n) return 0;
    int b = 32;
    while (!(a->d[a->n - 1] >> (b - 1))) b--;
    return (a->n - 1) * 32 + b;
}

static bool bn_bit(const bn *a, int i) {
    return i >= 0 && i / 32 < a->n && (a->d[i / 32] >> (i % 32)) & 1;
}

/* floor(m * 2^q * 10^s) below 2^64 for any s, and *half as above (the bignum path). */
static bool scaled_floor_big(uint64_t m, int q, int s, uint64_t *out, int *half) {
    bn num, den;
    bn_set(&num, m);
    bn_set(&den, 1);
    if (s >= 0) bn_mul_pow5(&num, s);
    else bn_mul_pow5(&den, -s);
    int sh = q + s; /* the power of two left: num * 2^sh / den */
    if (sh > 0) bn_shl(&num, sh);
    else if (s >= 0) { /* den is 1: a shift right */
        int t = -sh;
        if (bn_bitlen(&num) - t > 64) return false;
        uint64_t n = 0;
        for (int i = 63; i >= 0; i--) n = n << 1 | bn_bit(&num, t + i);
        int h = bn_bit(&num, t - 1) ? 0 : -1;
        for (int i = 0; h == 0 && i < num.n && i * 32 < t - 1; i++) {
            int below = t - 1 - i * 32; /* bits of this limb under bit t - 1 */
            if (below >= 32 ? num.d[i] : num.d[i] & ((1u << below) - 1)) h = 1;
        }
        *out = n;
        *half = h;
        return true;
    } else
        bn_shl(&den, -sh);
    uint64_t n = 0;
    if (bn_cmp(&num, &den) >= 0) {
        int k = bn_bitlen(&num) - bn_bitlen(&den);
        if (k > 63) return false;
        bn d;
        bn_copy(&d, &den);
        bn_shl(&d, k);
        for (int i = k; i >= 0; i--) {
            if (bn_cmp(&num, &d) >= 0) {
                bn_sub(&num, &d);
                n |= UINT64_C(1) << i;
            }
            /* d >>= 1 */
            for (int j = 0; j < d.n; j++) d.d[j] = (d.d[j] >> 1) | (j + 1 < d.n ? d.d[j + 1] << 31 : 0);
            while (d.n && !d.d[d.n - 1]) d.n--;
        }
    }
    bn_shl(&num, 1);
    *out = n;
    *half = bn_cmp(&num, &den);
    return true;
}

int pmi_decimal_digits(double v, int count, char *digits) {
    uint64_t m;
    int q;
    split_double(v, &m, &q);
    int bits = 64;
    while (!(m >> (bits - 1))) bits--;
    int e10 = (int)floor((q + bits - 1) * 0.30102999566398120); /* floor(log10 v) or one less */
    /* which one, in doubles (a wrong answer next to a power of ten costs one more attempt below) */
    int up = e10 + 1;
    if (up >= 0 ? up <= 308 && v >= pow10_approx(up) : up >= -290 && v * pow10_approx(-up) >= 1.0) e10 = up;
    uint64_t n = 0;
    int half = -1;
    for (int attempt = 0; attempt < 4; attempt++) {
        int s = count - 1 - e10;
        u128 w;
        if (s >= 0 && s <= 27 && scaled_floor_fast(m, q, s, &w, &half) && !w.hi) n = w.lo;
        else if (!scaled_floor_big(m, q, s, &n, &half)) n = UINT64_MAX, half = -1; /* far too large */
        if (n < pow10_u64[count - 1]) e10--;
        else if (n >= pow10_u64[count]) e10++;
        else break;
    }
    if (half > 0 || (half == 0 && (n & 1))) n++;
    if (n >= pow10_u64[count]) { /* rounding carried into a new digit */
        n /= 10;
        e10++;
    }
    for (int i = count - 1; i >= 0; i--) {
        digits[i] = (char)('0' + (int)(n % 10));
        n /= 10;
    }
    return e10;
}

size_t pmi_decimal_fixed(double v, int prec, char *out) {
    u128 n = {0, 0};
    int half = -1;
    if (v != 0) {
        uint64_t m;
        int q;
        split_double(v, &m, &q);
        if (!scaled_floor_fast(m, q, prec, &n, &half)) n.hi = n.lo = 0; /* v < 1e17: never */
    }
    if (half > 0 || (half == 0 && (n.lo & 1))) n.hi += ++n.lo == 0;
    /* decimal digits, least significant first, by long division of four 32-bit limbs by 10 */
    char rev[48];
    size_t len = 0;
    uint32_t limb[4] = {(uint32_t)(n.hi >> 32), (uint32_t)n.hi, (uint32_t)(n.lo >> 32), (uint32_t)n.lo};
    do {
        uint64_t r = 0;
        bool any = false;
        for (int i = 0; i < 4; i++) {
            uint64_t cur = r << 32 | limb[i];
            limb[i] = (uint32_t)(cur / 10);
            r = cur % 10;
            any |= limb[i] != 0;
        }
        rev[len++] = (char)('0' + (int)r);
        if (!any) break;
    } while (len < sizeof rev);
    while (len < (size_t)prec + 1) rev[len++] = '0';
    for (size_t i = 0; i < len; i++) out[i] = rev[len - 1 - i];
    return len;
}
