/* Number text (wasm/src/common/number.c): the parser against glibc's strtod and the formatter's digits
 * against glibc's printf, bit for bit, on edge cases and on random doubles and digit strings.
 * PM_TEST_QUICK=1 (valgrind) takes a stride of the random sweeps. */
#include "pm_test.h"

#include "common/internal.h"

#include <float.h>
#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static double pow10_small(int k) {
    double p = 1;
    while (k--) p *= 10;
    return p;
}

static int sweep(int n) { return pm_test_quick() ? n / 100 : n; }

static uint64_t bits_of(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double from_bits(uint64_t b) {
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* A random finite double: one in eight from random bits (every binade equally likely: the bignum
 * paths), the rest ordinary magnitudes (a 53-bit integer times 10^-k, k = 0..15: the fast paths). */
static double random_double(void) {
    for (;;) {
        uint64_t r = rnd();
        double v = from_bits(r);
        if ((r >> 61) != 0) v = (double)(int64_t)(rnd() >> 11) / pow10_small((int)(r % 16));
        if (isfinite(v)) return v;
    }
}

static int parse_failures;

/* ours == glibc's strtod, value bits and end */
static void check_parse(const char *s) {
    char *e1 = NULL, *e2 = NULL;
    double ours = pmi_strtod(s, &e1), libc = strtod(s, &e2);
    if (bits_of(ours) != bits_of(libc) || e1 != e2) {
        if (parse_failures++ < 10)
            PM_FAIL_AT("parse \"%.80s\": ours %a (end +%td), glibc %a (end +%td)", s, ours, e1 - s,
                       libc, e2 - s);
        else
            pm_test_current_failed = 1;
    }
    /* pmi_parse_double: the same value, false on overflow */
    double v = 0;
    const char *next = NULL;
    bool ok = pmi_parse_double(s, s + strlen(s), &v, &next);
    if (e2 != s && !(*s == 0x20 || (*s >= 0x09 && *s <= 0x0d)) && !isinf(libc)) {
        PM_CHECK_MSG(ok && bits_of(v) == bits_of(libc) && next == e2, "pmi_parse_double \"%.80s\"", s);
    } else if (isinf(libc)) {
        PM_CHECK_MSG(!ok, "pmi_parse_double \"%.80s\" overflows: should fail", s);
    } else if (e2 == s) {
        PM_CHECK_MSG(!ok, "pmi_parse_double \"%.80s\" holds no number: should fail", s);
    }
}

static int format_failures;

static void check_format_double(const char *fmt, double v) {
    char ours[512], libc[512];
    size_t n = pmi_format(ours, sizeof ours, fmt, v);
    int m = snprintf(libc, sizeof libc, fmt, v);
    if (strcmp(ours, libc) != 0 || (int)n != m) {
        if (format_failures++ < 10)
            PM_FAIL_AT("format \"%s\" of %a: ours \"%s\", glibc \"%s\"", fmt, v, ours, libc);
        else
            pm_test_current_failed = 1;
    }
}

PM_TEST(parser_matches_glibc_on_edge_cases) {
    static const char *cases[] = {
        "0", "-0", "+0", "0.0", ".0", "0.", "1", "-1", "1.5", ".5", "5.", "00012.5000", "1e0", "1E+2", "1e-2",
        "0.30000000000000004", "0.1", "0.2", "0.3", "1e23", "8.589973e9", "9007199254740993", "9007199254740992",
        "9007199254740991", "9007199254740995", "18014398509481985", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1.797693134862315807937289714053e308",
        "1.7976931348623158079372897140530341507993413271003782693617377898044496829276475094664736e308",
        "1.7976931348623158079372897140530341507993413271003782693617377898044496829276475094664735e308",
        "2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308", "4.9406564584124654e-324",
        "4.9e-324", "5e-324", "2e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817996"
        "189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491051844"
        "359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795585513329"
        "278343384093519780155312465972635795746227664652728272200563740064854999770965994704540208281662262"
        "378573934507363390079677619305775067401763246736009689513405355374585166611342237666786041621596804"
        "619144672918403005300575308490487653917113865916462395249126236538818796362393732804238910186723484"
        "976682350898633885879256283027559956575244555072551893136908362547791869486679949683240497058210285"
        "131854513962138377228261454376934125320985913276672363281255e-324",
        "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817996"
        "189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491051844"
        "359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795585513329"
        "278343384093519780155312465972635795746227664652728272200563740064854999770965994704540208281662262"
        "378573934507363390079677619305775067401763246736009689513405355374585166611342237666786041621596804"
        "619144672918403005300575308490487653917113865916462395249126236538818796362393732804238910186723484"
        "976682350898633885879256283027559956575244555072551893136908362547791869486679949683240497058210285"
        "131854513962138377228261454376934125320985913276672363281250e-324",
        "1e308", "1e309", "-1e309", "1e400", "1e-400", "-1e-400", "1e-324", "1e-325", "1e-323", "1e-320",
        "123456789012345678901234567890123456789012345678901234567890", "0.000000000000000000000000000000000001",
        "0.1000000000000000055511151231257827021181583404541015625",
        "0.1000000000000000055511151231257827021181583404541015624",
        "0.1000000000000000055511151231257827021181583404541015626", "1e22", "1e21", "1.2345678901234567e22",
        "123456789012345678e5", "4503599627370496.5", "4503599627370497.5", "1e-22", "1e-23", "12e-23",
        "1e", "1e+", "1e-x", "-", "+", ".", "-.", "e5", "", "  12", "\t-3.5e2x", "12abc", "1.2.3", "1..2",
        "0e999999999", "1e-99999999999", "1e99999999999", "0000000000000000000000000000000001e-5",
        "100000000000000000000000", "1000000000000000000000000000000000000000e-40", "7.2057594037927933e16",
        "7.205759403792793199999e16", "7.2057594037927936e16", "2.2250738585072012e-308", "9.5e-323",
        "1.50000000000000000000", "0.100000000000000000000", "12345678901234567890000e-4", "9.0000000000000000001",
        "123456789012345678900000000000", "0.0000000000000000000000000000000000000000000000000000000000001e60",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_parse(cases[i]);
    char buf[128];
    for (int e = -400; e <= 400; e++) { /* every exponent, a short and a long mantissa */
        snprintf(buf, sizeof buf, "1e%d", e);
        check_parse(buf);
        snprintf(buf, sizeof buf, "-7.3e%d", e);
        check_parse(buf);
        snprintf(buf, sizeof buf, "9.87654321098765432109876543210987654321e%d", e);
        check_parse(buf);
    }
}

PM_TEST(parser_matches_glibc_on_halfway_cases) {
    /* b + ulp/2 exactly, and just above and below it */
    if (pm_test_env_flag("PM_TEST_VALGRIND")) { /* valgrind computes long double at double precision */
        fprintf(stderr, "  SKIP: the midpoints need x87 long double, which valgrind does not emulate\n");
        pm_test_skipped++;
        return;
    }
    char buf[1200];
    int n = sweep(10000);
    for (int i = 0; i < n; i++) {
        double b = fabs(random_double());
        if (i % 7 == 0) b = from_bits(rnd() % 0x0010000000000000ull); /* denormals */
        if (isinf(nextafter(b, INFINITY))) continue;
        /* the midpoint (2m+1) * 2^(q-1): exact in x87's long double (64-bit mantissa), and glibc
         * prints its exact digits (at most 767 significant ones) */
        uint64_t bits = bits_of(b);
        int be = (int)(bits >> 52);
        uint64_t m = bits & ((1ull << 52) - 1);
        if (be) m |= 1ull << 52;
        int q = (be ? be : 1) - 1075;
        uint64_t M = 2 * m + 1;
        long double mid = ldexpl((long double)M, q - 1);
        int len = snprintf(buf, sizeof buf, "%.*Le", 780, mid);
        if (len <= 0 || len >= (int)sizeof buf) continue;
        /* trim trailing zeros of the mantissa: exact value has at most 767 significant digits */
        char *e = strchr(buf, 'e');
        char tail[16];
        snprintf(tail, sizeof tail, "%s", e);
        char *z = e;
        while (z[-1] == '0') z--;
        strcpy(z, tail);
        check_parse(buf); /* exactly halfway: to even */
        /* above: a 1 after the last digit; below: the last digit minus one, then 9s */
        size_t zl = (size_t)(z - buf);
        char above[1200], below[1200];
        memcpy(above, buf, zl);
        snprintf(above + zl, sizeof above - zl, "0000001%s", tail);
        check_parse(above);
        memcpy(below, buf, zl);
        below[zl - 1] = (char)(below[zl - 1] - 1); /* last digit is non-zero (trimmed) */
        snprintf(below + zl, sizeof below - zl, "9999999%s", tail);
        check_parse(below);
        /* and the 17- and 18-digit neighbours of the midpoint */
        snprintf(buf, sizeof buf, "%.16Le", mid);
        check_parse(buf);
        snprintf(buf, sizeof buf, "%.17Le", mid);
        check_parse(buf);
    }
}

PM_TEST(parser_reads_back_random_doubles_printed_three_ways) {
    char buf[320];
    int n = sweep(500000);
    for (int i = 0; i < n; i++) {
        double v = random_double();
        snprintf(buf, sizeof buf, "%.17g", v);
        double back = pmi_strtod(buf, NULL);
        if (bits_of(back) != bits_of(v)) check_parse(buf);
        snprintf(buf, sizeof buf, "%.15g", v);
        check_parse(buf);
        /* the shortest text that reads back (glibc decides; more digits never stop reading back) */
        int lo = 1, hi = 17;
        while (lo < hi) {
            int p = (lo + hi) / 2;
            snprintf(buf, sizeof buf, "%.*g", p, v);
            if (strtod(buf, NULL) == v) hi = p;
            else lo = p + 1;
        }
        snprintf(buf, sizeof buf, "%.*g", lo, v);
        back = pmi_strtod(buf, NULL);
        if (bits_of(back) != bits_of(v)) check_parse(buf);
    }
}

PM_TEST(parser_matches_glibc_on_random_digit_strings) {
    char buf[128];
    int n = sweep(200000);
    for (int i = 0; i < n; i++) {
        uint64_t r = rnd();
        int digits = 1 + (int)(r % 45), point = (int)((r >> 8) % (uint64_t)(digits + 2)) - 1;
        size_t k = 0;
        if (r & (1ull << 20)) buf[k++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point) buf[k++] = '.';
            uint64_t x = rnd();
            /* runs of 0s and 9s make halfway and carry cases */
            buf[k++] = (x & 3) == 0 ? '0' : (x & 3) == 1 ? '9' : (char)('0' + (int)((x >> 2) % 10));
        }
        int ex = (int)((rnd() % 801)) - 400;
        if (r & (1ull << 21)) k += (size_t)snprintf(buf + k, sizeof buf - k, "e%d", ex);
        buf[k] = 0;
        check_parse(buf);
    }
}

PM_TEST(formatter_matches_glibc_on_edge_cases) {
    static const double cases[] = {
        0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, 0.125, 0.3, 0.30000000000000004, 1e23, 9007199254740993.0,
        DBL_MAX, -DBL_MAX, DBL_MIN, 4.9406564584124654e-324, 2.2250738585072009e-308, 1e-300, 1e300, 123456.5,
        1234567890123455.0, 999999999999999.5, 9.9999999999999995e22, 0.000123456, 1e-5, 1e15, 1e16, 1e17,
        99999999999999990.0, 5e-324, 1.7976931348623157e308, 3.0517578125e-05, 0.15, 0.25, 0.35, 1e21, 1e22,
        0.0625, 1.0 / 3, 2.0 / 3, 1e-7, 123.456, 1024.0, 65536.5,
    };
    static const char *fmts[] = {"%g", "%1.15g", "%1.17g", "%.1g", "%.3g", "%.6g", "%.16g", "%e", "%.0e",
                                 "%.2e", "%.16e", "%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.6f", "%.17f"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
            if (fmts[f][strlen(fmts[f]) - 1] == 'f' && fabs(cases[i]) >= 1e17) continue; /* ours: %e there */
            check_format_double(fmts[f], cases[i]);
        }
    for (int e = -324; e <= 308; e++) {
        check_format_double("%1.17g", pow(10, e));
        check_format_double("%1.15g", pow(10, e));
        check_format_double("%.3g", 5 * pow(10, e));
    }
}

PM_TEST(formatter_matches_glibc_on_random_doubles) {
    int n = sweep(600000);
    for (int i = 0; i < n; i++) {
        double v = random_double();
        check_format_double("%1.17g", v);
        check_format_double("%1.15g", v);
        if (i % 4 == 0) {
            check_format_double("%.6g", v);
            check_format_double("%.3e", v);
            if (fabs(v) < 1e17) check_format_double("%.3f", v), check_format_double("%.6f", v);
        }
    }
}

PM_TEST(formatter_prints_halfway_digit_strings_to_even) {
    /* numbers whose exact value is a tie at the printed precision: integers and dyadic fractions */
    int n = sweep(100000);
    for (int i = 0; i < n; i++) {
        uint64_t r = rnd();
        double v = (double)(r >> 11) / (double)(1ull << (r % 40));
        check_format_double("%1.15g", v);
        check_format_double("%1.17g", v);
        check_format_double("%.2f", v / 1e6);
        check_format_double("%.0f", v / 1e9);
    }
}

int main(void) { return pm_test_run_all(); }
