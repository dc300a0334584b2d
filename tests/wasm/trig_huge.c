/* sin, cos, tan, sinf, cosf, tanf as the wasm modules compute them, for tests/node/trig-huge.test.mjs.
 * The Emscripten build (CMakeLists.txt) links this file twice: trig-huge.wasm with
 * --wrap=__rem_pio2_large and wasm/src/fdlibm/rem_pio2_huge.c, as build-scripts/link-wasm.mjs links
 * the npm modules, and trig-musl.wasm with musl's own Payne-Hanek reduction, the reference. */
#include <math.h>

double pmt_sin(double x) { return sin(x); }
double pmt_cos(double x) { return cos(x); }
double pmt_tan(double x) { return tan(x); }
float pmt_sinf(float x) { return sinf(x); }
float pmt_cosf(float x) { return cosf(x); }
float pmt_tanf(float x) { return tanf(x); }

static int bad(double v) { return !isnan(v) && !(v >= -1.0 && v <= 1.0); }
static int bad_tan(double v) { return !isnan(v) && !isfinite(v); }

/* Huge and hostile arguments: the number of sin/cos results that are neither NaN nor in [-1, 1], of
 * tan results neither NaN nor finite, and of NaN results for finite arguments (0 = pass). */
int pmt_hostile(void) {
    static const double xs[] = {1e300, -1e300, -1e20, 1e20, 1.7976931348623157e308, -1.7976931348623157e308,
                                1647099.3291652855, 1647100.0, 3e9, 1e15, 9007199254740993.0, 2.5e-308,
                                INFINITY, -INFINITY, NAN};
    static const float fs[] = {3e9f, -3e9f, 3.4028235e38f, -3.4028235e38f, 421657440.0f, 1e20f, -1e30f,
                               INFINITY, -INFINITY, NAN};
    int n = 0;
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i], s = sin(x), c = cos(x), t = tan(x);
        n += bad(s) + bad(c) + bad_tan(t);
        if (isfinite(x)) n += isnan(s) + isnan(c) + isnan(t) + (fabs(s * s + c * c - 1.0) > 1e-15);
        else n += !isnan(s) + !isnan(c) + !isnan(t);
    }
    for (unsigned i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        float x = fs[i], s = sinf(x), c = cosf(x), t = tanf(x);
        n += bad(s) + bad(c) + bad_tan(t);
        if (isfinite(x)) n += isnan(s) + isnan(c) + isnan(t) + (fabsf(s * s + c * c - 1.0f) > 1e-6f);
        else n += !isnan(s) + !isnan(c) + !isnan(t);
    }
    return n;
}
