/* Locale-independent decimal number parsing (see internal.h). */
#include "internal.h"

#include <float.h>
#include <math.h>

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 10^e in long double by repeated squaring (|e| <= 400 here). */
static long double pow10l_small(int e) {
    long double r = 1.0L, b = 10.0L;
    unsigned n = (unsigned)(e < 0 ? -e : e);
    while (n) {
        if (n & 1) r *= b;
        b *= b;
        n >>= 1;
    }
    return e < 0 ? 1.0L / r : r;
}

bool pmi_parse_double(const char *p, const char *end, double *out, const char **next) {
    const char *s = p;
    bool neg = false;
    if (s < end && (*s == '+' || *s == '-')) neg = *s++ == '-';
    uint64_t mant = 0;
    int digits = 0, dropped = 0, frac = 0;
    bool any = false;
    while (s < end && *s >= '0' && *s <= '9') {
        any = true;
        if (mant == 0 && *s == '0') {
            s++;
            continue;
        }
        if (digits < 19) mant = mant * 10 + (uint64_t)(*s - '0'), digits++;
        else dropped++;
        s++;
    }
    if (s < end && *s == '.') {
        s++;
        while (s < end && *s >= '0' && *s <= '9') {
            any = true;
            if (mant == 0 && *s == '0') {
                frac++;
            } else if (digits < 19) {
                mant = mant * 10 + (uint64_t)(*s - '0'), digits++, frac++;
            }
            s++;
        }
    }
    if (!any) return false;
    long exp10 = (long)dropped - frac;
    if (s < end && (*s == 'e' || *s == 'E')) {
        const char *e = s + 1;
        bool eneg = false;
        if (e < end && (*e == '+' || *e == '-')) eneg = *e++ == '-';
        if (e < end && *e >= '0' && *e <= '9') {
            long ev = 0;
            while (e < end && *e >= '0' && *e <= '9') {
                if (ev < 100000) ev = ev * 10 + (*e - '0');
                e++;
            }
            exp10 += eneg ? -ev : ev;
            s = e;
        }
    }
    double v;
    if (mant == 0) {
        v = 0.0;
    } else if (exp10 >= -22 && exp10 <= 22 && mant <= (UINT64_C(1) << 53)) {
        /* exact operands: one correctly rounded operation */
        v = exp10 < 0 ? (double)mant / pow10_exact[-exp10] : (double)mant * pow10_exact[exp10];
    } else if (exp10 + digits > 330) {
        return false; /* overflows any double */
    } else if (exp10 + digits < -330) {
        v = 0.0;
    } else {
        v = (double)((long double)mant * pow10l_small((int)exp10));
    }
    if (!isfinite(v)) return false;
    *out = neg ? -v : v;
    if (next) *next = s;
    return true;
}
