/* The huge-argument branch of sin, cos, sinf, cosf (and tan, tanf) in the wasm builds, without musl's
 * tables.
 *
 * musl reduces x mod pi/2 for |x| < 2^20*pi/2 (about 1.6e6; sinf/cosf: 2^28*pi/2, about 4.2e8) with
 * a three-part pi/2 in __rem_pio2 / __rem_pio2f, and beyond that with Payne-Hanek in
 * __rem_pio2_large: 2244 bytes of code and its 2760-byte table of 2/pi (the ipio2 digits) in the
 * core module, for arguments no input produces. The Emscripten and WASI links pass
 * --wrap=__rem_pio2_large (build-scripts/link-wasm.mjs, CMakeLists.txt), so musl's __rem_pio2 and
 * __rem_pio2f call this function instead and the table is not linked. Arguments below those
 * thresholds never get here: their results are musl's, bit for bit (the pose evaluator's
 * bit-exactness with babylon-mmd depends on that). Native builds keep their libm and never call it.
 *
 * The trade: this reduces x exactly modulo P = pi/2 rounded to double (0x3FF921FB54442D18, below
 * pi/2 by 6.1e-17) instead of modulo pi/2, so the reduced angle is off by about |x| * 3.9e-17 rad:
 * 6.4e-11 at 1.6e6, 1.6e-8 at sinf's 4.2e8 (a quarter of a float ulp near 1), a whole turn by about
 * 1.6e17. The result is always finite and in [-1, 1] for finite x; NaN and infinities never get
 * here. No motion, model or setting reaches such angles (docs/reliability.md, "Trigonometry of huge
 * arguments"); tests/node/trig-huge.test.mjs checks it in the wasm build (tests/wasm/trig_huge.c) and
 * test_fdlibm natively.
 *
 * The interface is musl's (src/math/__rem_pio2_large.c): |x| = sum of x[i] * 2^(e0 - 24 i),
 * i < nx, each x[i] an integer in [0, 2^24) and x[0] >= 2^23; writes the remainder to y[0] (and
 * zero tails to y[1], y[2] for prec 1..3) and returns the quotient's low three bits. The callers
 * pass |x| >= 2^20, so the leading bit's exponent e0 + 23 is positive. */
#include "fdlibm/fdlibm.h"

#include <stdint.h>

int __wrap___rem_pio2_large(double *x, double *y, int e0, int nx, int prec) {
    const double p = 1.57079632679489655800e+00; /* pi/2 rounded to double */
    const int top = e0 + 23;                      /* exponent of x[0]'s leading bit */
    const int last = e0 - 24 * (nx - 1);          /* exponent of x[nx-1]'s lowest bit */
    double r = 0.0;                               /* the integer bits so far, mod p: in [0, p) */
    double frac = 0.0, w = 1.0;                   /* the bits below 2^0 (at most 32 of them) */
    unsigned q = 0;                               /* the quotient, mod 2^32 */
    /* Long division by p, one bit at a time from the top: every step is exact (r < 2 and p are
     * multiples of 2^-52, 2r + 1 < 2p + 1 < 4 is a multiple of 2^-51). */
    for (int k = top; k >= 0 || k >= last; k--) {
        int bit = 0;
        if (k >= last) {
            int j = top - k;
            bit = (int)((uint32_t)x[j / 24] >> (23 - j % 24)) & 1;
        }
        if (k >= 0) {
            r = 2.0 * r + bit;
            q *= 2u;
            if (r >= 2.0 * p) {
                r -= 2.0 * p;
                q += 2u;
            } else if (r >= p) {
                r -= p;
                q += 1u;
            }
        } else {
            w *= 0.5;
            if (bit) frac += w;
        }
    }
    r += frac;
    if (r >= p) {
        r -= p;
        q += 1u;
    }
    if (r > 0.5 * p) { /* to [-p/2, p/2], as the kernels expect */
        r -= p;
        q += 1u;
    }
    y[0] = r;
    if (prec >= 1) y[1] = 0.0;
    if (prec >= 3) y[2] = 0.0;
    return (int)(q & 7u);
}
