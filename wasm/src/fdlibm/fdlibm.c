/* log, log2, exp and pow without tables: Sun's fdlibm as FreeBSD msun has it (e_log.c, e_log2.c, e_exp.c,
 * e_pow.c), log, log2 and pow by way of musl (src/math/log_small.c, log2_small.c, pow_small.c), under
 * Sun's notice:
 *
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunSoft, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 *
 * Changes: pmi_ names; the word access through a union; no FORCE_EVAL of the floating-point exceptions
 * (the core never reads them) and no errno; log ends with e_log2.c's extra-precision sum (below); exp's
 * underflow returns 0 and its overflow 2^1023 * 2^1023 (not through volatile constants).
 * Otherwise the arithmetic, its order and every constant are fdlibm's. Compiled with -ffp-contract=off
 * (CMakeLists.txt): no fused multiply-add, the same bits on every target. */
#include "fdlibm/fdlibm.h"

#include "common/internal.h"

#include <math.h>
#include <stdint.h>

typedef union {
    double f;
    uint64_t i;
} pmi_dbits;

static inline uint32_t hi_word(double x) { return (uint32_t)((pmi_dbits){x}.i >> 32); }
static inline uint32_t lo_word(double x) { return (uint32_t)(pmi_dbits){x}.i; }
static inline double with_lo_word(double x, uint32_t lo) {
    pmi_dbits u = {x};
    u.i = (u.i & 0xffffffff00000000ull) | lo;
    return u.f;
}
static inline double with_hi_word(double x, uint32_t hi) {
    pmi_dbits u = {x};
    u.i = (u.i & 0xffffffffull) | (uint64_t)hi << 32;
    return u.f;
}

/* ---- log (e_log.c, with e_log2.c's final sum) ---------------------------------------------------------------
 * x = 2^k (1+f), sqrt(2)/2 < 1+f < sqrt(2); s = f/(2+f); log(1+f) = f - hfsq + s*(hfsq+R), hfsq = f*f/2,
 * R(z) ~ Lg1*s^2 + ... + Lg7*s^14 (Remez on [0, 0.1716], error < 2^-58.45). */
static const double ln2_hi = 6.93147180369123816490e-01, /* 3fe62e42 fee00000 */
    ln2_lo = 1.90821492927058770002e-10,                 /* 3dea39ef 35793c76 */
    Lg1 = 6.666666666666735130e-01,                      /* 3FE55555 55555593 */
    Lg2 = 3.999999999940941908e-01,                      /* 3FD99999 9997FA04 */
    Lg3 = 2.857142874366239149e-01,                      /* 3FD24924 94229359 */
    Lg4 = 2.222219843214978396e-01,                      /* 3FCC71C5 1D8E78AF */
    Lg5 = 1.818357216161805012e-01,                      /* 3FC74664 96CB03DE */
    Lg6 = 1.531383769920937332e-01,                      /* 3FC39A09 D078C69F */
    Lg7 = 1.479819860511658591e-01;                      /* 3FC2F112 DF3E5244 */

/* The special cases and the reduction (e_log.c): returns 1 with *out set when x is a special case, else
 * 0 with k and log(1+f) = hi + lo in extra precision (e_log2.c): f - hfsq + s*(hfsq+R), hi = f - hfsq
 * with its low word cleared. log and log2 both scale this sum. */
static inline int log_reduce(double x, double *out, double *hi, double *lo, int *k) {
    pmi_dbits u = {x};
    uint32_t hx = (uint32_t)(u.i >> 32);
    *k = 0;
    if (hx < 0x00100000 || hx >> 31) {
        if (u.i << 1 == 0) return *out = -1 / (x * x), 1; /* log(+-0) = -inf */
        if (hx >> 31) return *out = (x - x) / 0.0, 1;     /* log(-#) = NaN */
        /* subnormal number, scale x up */
        *k -= 54;
        x *= 0x1p54;
        u.f = x;
        hx = (uint32_t)(u.i >> 32);
    } else if (hx >= 0x7ff00000) {
        return *out = x, 1;
    } else if (hx == 0x3ff00000 && u.i << 32 == 0) {
        return *out = 0, 1;
    }
    /* reduce x into [sqrt(2)/2, sqrt(2)] */
    hx += 0x3ff00000 - 0x3fe6a09e;
    *k += (int)(hx >> 20) - 0x3ff;
    hx = (hx & 0x000fffff) + 0x3fe6a09e;
    u.i = (uint64_t)hx << 32 | (u.i & 0xffffffff);
    x = u.f;
    double f = x - 1.0;
    double hfsq = 0.5 * f * f;
    double s = f / (2.0 + f);
    double z = s * s, w = z * z;
    double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    double R = t2 + t1;
    u.f = f - hfsq;
    u.i &= (uint64_t)-1 << 32;
    *hi = u.f;
    *lo = f - *hi - hfsq + s * (hfsq + R);
    return 0;
}

double pmi_log(double x) {
    double out, hi, lo;
    int k;
    if (log_reduce(x, &out, &hi, &lo, &k)) return out;
    /* e_log.c returns s*(hfsq+R) + dk*ln2_lo - hfsq + f + dk*ln2_hi; here the sum is e_log2.c's, in
     * extra precision: hi+lo, then dk*ln2_hi + hi exactly (Fast2Sum). Nearer the correctly rounded
     * result: the same bits as musl's table-driven log for every integer 1..9169 (the beat tracker's
     * log(d)), and for 99 % of doubles. */
    double dk = k, y = dk * ln2_hi, val_hi = y + hi;
    double val_lo = fabs(y) >= fabs(hi) ? (y - val_hi) + hi : (hi - val_hi) + y;
    val_lo += lo + dk * ln2_lo;
    return val_lo + val_hi;
}

/* ---- log2 (e_log2.c) -----------------------------------------------------------------------------------
 * log's reduction, then log2(x) = (hi + lo) / ln2 + k, the division a product by 1/ln2 =
 * ivln2hi + ivln2lo in extra precision and k added by Fast2Sum (|k| >= 1 > |val_hi| when k != 0). */
static const double ivln2hi = 1.44269504072144627571e+00, /* 0x3ff71547, 0x65200000 */
    ivln2lo = 1.67517131648865118353e-10;                 /* 0x3de705fc, 0x2eefa200 */

double pmi_log2(double x) {
    double out, hi, lo;
    int k;
    if (log_reduce(x, &out, &hi, &lo, &k)) return out;
    double val_hi = hi * ivln2hi;
    double val_lo = (lo + hi) * ivln2lo + lo * ivln2hi;
    double y = k, w = y + val_hi;
    val_lo += (y - w) + val_hi;
    return val_lo + w;
}

/* ---- exp (e_exp.c) -------------------------------------------------------------------------------------
 * x = k*ln2 + r, |r| <= ln2/2, r = hi - lo; exp(r) = 1 + r + r*R1(r) / (2 - R1(r)) with
 * R1(r) = r - (P1*r^2 + ... + P5*r^10) (Remez on [0, 0.34658], error < 2^-59); then exp(x) = 2^k exp(r).
 * The polynomial is shared with pow's 2^z. */
static const double P1 = 1.66666666666666019037e-01,  /* 0x3FC55555, 0x5555553E */
    P2 = -2.77777777770155933842e-03, /* 0xBF66C16C, 0x16BEBD93 */
    P3 = 6.61375632143793436117e-05,  /* 0x3F11566A, 0xAF25DE2C */
    P4 = -1.65339022054652515390e-06, /* 0xBEBBBD41, 0xC5D26BF1 */
    P5 = 4.13813679705723846039e-08;  /* 0x3E663769, 0x72BEA4D0 */
static const double o_threshold = 7.09782712893383973096e+02, /* 0x40862E42, 0xFEFA39EF */
    u_threshold = -7.45133219101941108420e+02,                /* 0xc0874910, 0xD52D3051 */
    invln2 = 1.44269504088896338700e+00,                      /* 0x3ff71547, 0x652b82fe */
    twom1000 = 9.33263618503218878990e-302;                   /* 2**-1000=0x01700000,0 */

double pmi_exp(double x) {
    double hi = 0.0, lo = 0.0, c, t, y;
    int32_t k = 0;
    uint32_t hx = hi_word(x);
    int xsb = (int)(hx >> 31); /* sign bit of x */
    hx &= 0x7fffffff;          /* high word of |x| */

    /* filter out non-finite argument */
    if (hx >= 0x40862E42) { /* if |x| >= 709.78... */
        if (hx >= 0x7ff00000) {
            if (((hx & 0xfffff) | lo_word(x)) != 0) return x + x; /* NaN */
            return xsb == 0 ? x : 0.0;                            /* exp(+-inf) = {inf, 0} */
        }
        if (x > o_threshold) return 0x1p1023 * 0x1p1023; /* overflow */
        if (x < u_threshold) return 0.0;                 /* underflow */
    }

    /* argument reduction */
    if (hx > 0x3fd62e42) {     /* if |x| > 0.5 ln2 */
        if (hx < 0x3FF0A2B2) { /* and |x| < 1.5 ln2 */
            hi = xsb ? x + ln2_hi : x - ln2_hi;
            lo = xsb ? -ln2_lo : ln2_lo;
            k = 1 - xsb - xsb;
        } else {
            k = (int32_t)(invln2 * x + (xsb ? -0.5 : 0.5));
            t = k;
            hi = x - t * ln2_hi; /* t*ln2_hi is exact here */
            lo = t * ln2_lo;
        }
        x = hi - lo;
    } else if (hx < 0x3e300000) { /* when |x| < 2**-28 */
        return 1.0 + x;
    }

    /* x is now in primary range */
    t = x * x;
    double twopk = with_hi_word(0.0, (uint32_t)(0x3ff00000 + (k >= -1021 ? k : k + 1000) * (1 << 20)));
    c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k < -1021) return y * twopk * twom1000; /* subnormal result */
    if (k == 1024) return y * 2.0 * 0x1p1023;
    return y * twopk;
}

/* ---- pow (e_pow.c) -----------------------------------------------------------------------------------
 * pow(x, y) = 2^(y * log2(x)): log2(x) = t1 + t2 in extra precision, y = y1 + y2, the product
 * p_h + p_l, then 2^(p_h + p_l) as exp. */
static const double bp[] = {1.0, 1.5}, dp_h[] = {0.0, 5.84962487220764160156e-01}, /* 0x3FE2B803, 0x40000000 */
    dp_l[] = {0.0, 1.35003920212974897128e-08},                                      /* 0x3E4CFDEB, 0x43CFD006 */
    two53 = 9007199254740992.0,                                                      /* 0x43400000, 0x00000000 */
    huge = 1.0e300, tiny = 1.0e-300,
    /* poly coefs for (3/2)*(log(x)-2s-2/3*s**3 */
    L1 = 5.99999999999994648725e-01,                 /* 0x3FE33333, 0x33333303 */
    L2 = 4.28571428578550184252e-01,                 /* 0x3FDB6DB6, 0xDB6FABFF */
    L3 = 3.33333329818377432918e-01,                 /* 0x3FD55555, 0x518F264D */
    L4 = 2.72728123808534006489e-01,                 /* 0x3FD17460, 0xA91D4101 */
    L5 = 2.30660745775561754067e-01,                 /* 0x3FCD864A, 0x93C9DB65 */
    L6 = 2.06975017800338417784e-01,                 /* 0x3FCA7E28, 0x4A454EEF */
    lg2 = 6.93147180559945286227e-01,                /* 0x3FE62E42, 0xFEFA39EF */
    lg2_h = 6.93147182464599609375e-01,              /* 0x3FE62E43, 0x00000000 */
    lg2_l = -1.90465429995776804525e-09,             /* 0xBE205C61, 0x0CA86C39 */
    ovt = 8.0085662595372944372e-17,                 /* -(1024-log2(ovfl+.5ulp)) */
    cp = 9.61796693925975554329e-01,                 /* 0x3FEEC709, 0xDC3A03FD =2/(3ln2) */
    cp_h = 9.61796700954437255859e-01,               /* 0x3FEEC709, 0xE0000000 =(float)cp */
    cp_l = -7.02846165095275826516e-09,              /* 0xBE3E2FE0, 0x145B01F5 =tail of cp_h*/
    ivln2 = 1.44269504088896338700e+00,              /* 0x3FF71547, 0x652B82FE =1/ln2 */
    ivln2_h = 1.44269502162933349609e+00,            /* 0x3FF71547, 0x60000000 =24b 1/ln2*/
    ivln2_l = 1.92596299112661746887e-08;            /* 0x3E54AE0B, 0xF85DDF44 =1/ln2 tail*/

double pmi_pow(double x, double y) {
    double z, ax, z_h, z_l, p_h, p_l;
    double y1, t1, t2, r, s, t, u, v, w;
    int32_t i, j, k, yisint, n;
    int32_t hx = (int32_t)hi_word(x), hy = (int32_t)hi_word(y), ix, iy;
    uint32_t lx = lo_word(x), ly = lo_word(y);
    ix = hx & 0x7fffffff;
    iy = hy & 0x7fffffff;

    /* x**0 = 1, even if x is NaN */
    if ((iy | ly) == 0) return 1.0;
    /* 1**y = 1, even if y is NaN */
    if (hx == 0x3ff00000 && lx == 0) return 1.0;
    /* NaN if either arg is NaN */
    if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0)) return x + y;

    /* yisint = 0: y is not an integer, 1: an odd int, 2: an even int (when x < 0) */
    yisint = 0;
    if (hx < 0) {
        if (iy >= 0x43400000)
            yisint = 2; /* even integer y */
        else if (iy >= 0x3ff00000) {
            k = (iy >> 20) - 0x3ff; /* exponent */
            if (k > 20) {
                uint32_t jj = ly >> (52 - k);
                if ((jj << (52 - k)) == ly) yisint = 2 - (int32_t)(jj & 1);
            } else if (ly == 0) {
                j = iy >> (20 - k);
                if ((j << (20 - k)) == iy) yisint = 2 - (j & 1);
            }
        }
    }

    /* special value of y */
    if (ly == 0) {
        if (iy == 0x7ff00000) {                  /* y is +-inf */
            if (((ix - 0x3ff00000) | lx) == 0)   /* (-1)**+-inf is 1 */
                return 1.0;
            else if (ix >= 0x3ff00000)           /* (|x|>1)**+-inf = inf,0 */
                return hy >= 0 ? y : 0.0;
            else                                 /* (|x|<1)**+-inf = 0,inf */
                return hy >= 0 ? 0.0 : -y;
        }
        if (iy == 0x3ff00000) { /* y is +-1 */
            if (hy >= 0) return x;
            return 1 / x;
        }
        if (hy == 0x40000000) return x * x; /* y is 2 */
        if (hy == 0x3fe00000) {             /* y is 0.5 */
            if (hx >= 0) return sqrt(x);    /* x >= +0 */
        }
    }

    ax = fabs(x);
    /* special value of x */
    if (lx == 0) {
        if (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000) { /* x is +-0,+-inf,+-1 */
            z = ax;
            if (hy < 0) z = 1.0 / z; /* z = (1/|x|) */
            if (hx < 0) {
                if (((ix - 0x3ff00000) | yisint) == 0)
                    z = (z - z) / (z - z); /* (-1)**non-int is NaN */
                else if (yisint == 1)
                    z = -z; /* (x<0)**odd = -(|x|**odd) */
            }
            return z;
        }
    }

    s = 1.0; /* sign of result */
    if (hx < 0) {
        if (yisint == 0) return (x - x) / (x - x); /* (x<0)**(non-int) is NaN */
        if (yisint == 1) s = -1.0;                 /* (x<0)**(odd int) */
    }

    /* |y| is huge */
    if (iy > 0x41e00000) {     /* if |y| > 2**31 */
        if (iy > 0x43f00000) { /* if |y| > 2**64, must o/uflow */
            if (ix <= 0x3fefffff) return hy < 0 ? huge * huge : tiny * tiny;
            if (ix >= 0x3ff00000) return hy > 0 ? huge * huge : tiny * tiny;
        }
        /* over/underflow if x is not close to one */
        if (ix < 0x3fefffff) return hy < 0 ? s * huge * huge : s * tiny * tiny;
        if (ix > 0x3ff00000) return hy > 0 ? s * huge * huge : s * tiny * tiny;
        /* now |1-x| is tiny <= 2**-20, suffice to compute log(x) by x-x^2/2+x^3/3-x^4/4 */
        t = ax - 1.0; /* t has 20 trailing zeros */
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        u = ivln2_h * t; /* ivln2_h has 21 sig. bits */
        v = t * ivln2_l - w * ivln2;
        t1 = with_lo_word(u + v, 0);
        t2 = v - (t1 - u);
    } else {
        double ss, s2, s_h, s_l, t_h, t_l;
        n = 0;
        /* take care subnormal number */
        if (ix < 0x00100000) {
            ax *= two53;
            n -= 53;
            ix = (int32_t)hi_word(ax);
        }
        n += ((ix) >> 20) - 0x3ff;
        j = ix & 0x000fffff;
        /* determine interval */
        ix = j | 0x3ff00000; /* normalize ix */
        if (j <= 0x3988E)    /* |x|<sqrt(3/2) */
            k = 0;
        else if (j < 0xBB67A) /* |x|<sqrt(3)   */
            k = 1;
        else {
            k = 0;
            n += 1;
            ix -= 0x00100000;
        }
        ax = with_hi_word(ax, (uint32_t)ix);

        /* compute ss = s_h+s_l = (x-1)/(x+1) or (x-1.5)/(x+1.5) */
        u = ax - bp[k]; /* bp[0]=1.0, bp[1]=1.5 */
        v = 1.0 / (ax + bp[k]);
        ss = u * v;
        s_h = with_lo_word(ss, 0);
        /* t_h=ax+bp[k] High */
        t_h = with_hi_word(0.0, (uint32_t)(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18)));
        t_l = ax - (t_h - bp[k]);
        s_l = v * ((u - s_h * t_h) - s_h * t_l);
        /* compute log(ax) */
        s2 = ss * ss;
        r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        t_h = with_lo_word(3.0 + s2 + r, 0);
        t_l = r - ((t_h - 3.0) - s2);
        /* u+v = ss*(1+...) */
        u = s_h * t_h;
        v = s_l * t_h + t_l * ss;
        /* 2/(3log2)*(ss+...) */
        p_h = with_lo_word(u + v, 0);
        p_l = v - (p_h - u);
        z_h = cp_h * p_h; /* cp_h+cp_l = 2/(3*log2) */
        z_l = cp_l * p_h + p_l * cp + dp_l[k];
        /* log2(ax) = (ss+..)*2/(3*log2) = n + dp_h + z_h + z_l */
        t = (double)n;
        t1 = with_lo_word(((z_h + z_l) + dp_h[k]) + t, 0);
        t2 = z_l - (((t1 - t) - dp_h[k]) - z_h);
    }

    /* split up y into y1+y2 and compute (y1+y2)*(t1+t2) */
    y1 = with_lo_word(y, 0);
    p_l = (y - y1) * t1 + y * t2;
    p_h = y1 * t1;
    z = p_l + p_h;
    j = (int32_t)hi_word(z);
    i = (int32_t)lo_word(z);
    if (j >= 0x40900000) {                            /* z >= 1024 */
        if (((j - 0x40900000) | i) != 0) return s * huge * huge; /* overflow */
        if (p_l + ovt > z - p_h) return s * huge * huge;          /* overflow */
    } else if ((j & 0x7fffffff) >= 0x4090cc00) {                  /* z <= -1075 */
        if ((((uint32_t)j - 0xc090cc00u) | (uint32_t)i) != 0) return s * tiny * tiny; /* z < -1075 */
        if (p_l <= z - p_h) return s * tiny * tiny;                                    /* underflow */
    }
    /* compute 2**(p_h+p_l) */
    i = j & 0x7fffffff;
    k = (i >> 20) - 0x3ff;
    n = 0;
    if (i > 0x3fe00000) { /* if |z| > 0.5, set n = [z+0.5] */
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7fffffff) >> 20) - 0x3ff; /* new k for n */
        t = with_hi_word(0.0, (uint32_t)(n & ~(0x000fffff >> k)));
        n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
        if (j < 0) n = -n;
        p_h -= t;
    }
    t = with_lo_word(p_l + p_h, 0);
    u = t * lg2_h;
    v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
    z = u + v;
    w = v - (z - u);
    t = z * z;
    t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    r = (z * t1) / (t1 - 2.0) - (w + z * w);
    z = 1.0 - (r - z);
    j = (int32_t)hi_word(z);
    j += (int32_t)((uint32_t)n << 20);
    if ((j >> 20) <= 0) /* subnormal output */
        z = scalbn(z, n);
    else
        z = with_hi_word(z, (uint32_t)j);
    return s * z;
}
