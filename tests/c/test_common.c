/* Formatter, errors and allocation helpers. */
#include "pm_test.h"

#include "common/internal.h"

#include <float.h>

static void check_format(const char *fmt, ...) {
    char ours[256], libc[256];
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t n = pmi_vformat(ours, sizeof ours, fmt, ap);
    int m = vsnprintf(libc, sizeof libc, fmt, ap2);
    va_end(ap2);
    va_end(ap);
    PM_CHECK_MSG(strcmp(ours, libc) == 0 && (int)n == m, "format \"%s\": ours \"%s\" (%zu), libc \"%s\" (%d)", fmt,
                 ours, n, libc, m);
}

PM_TEST(formatter_matches_libc_for_integers_and_strings) {
    check_format("plain");
    check_format("%d %i %u %x %X", -42, 17, 4000000000u, 0xbeefu, 0xbeefu);
    check_format("%5d|%-5d|%05d|%+d", 42, 42, -42, 7);
    check_format("%zu %lu %lld", (size_t)123456789, 99ul, -123456789012345ll);
    check_format("%02X %04X %c %%", 0x5u, 0x3042u, 'Z');
    check_format("%s|%10s|%-6s|%.3s", "abc", "right", "left", "truncate");
    check_format("%.*s", 4, "abcdefgh");
}

PM_TEST(formatter_matches_libc_for_doubles) {
    const double values[] = {0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3.0, 2.5, 123456.789, 1e-7, 1e21, 9.999999999,
                             0.000123456, 3.14159265358979, 1e300, 5e-324, DBL_MAX, 100.0, 1234567.0, 0.5, 99.995};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        double v = values[i];
        check_format("%g", v);
        check_format("%1.15g", v);
        check_format("%1.17g", v);
        check_format("%.3g", v);
        check_format("%e", v);
        check_format("%.2e", v);
        if (v < 1e15) {
            check_format("%f", v);
            check_format("%.3f", v);
            check_format("%.0f", v);
        }
    }
}

PM_TEST(formatter_17_digits_round_trip_random_doubles) {
    unsigned long long s = 0x9E3779B97F4A7C15ull;
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double v;
        memcpy(&v, &s, sizeof v);
        if (!isfinite(v)) continue;
        char buf[64];
        pmi_format(buf, sizeof buf, "%1.17g", v);
        if (strtod(buf, NULL) != v) bad++;
    }
    PM_CHECK_EQ_INT(bad, 0);
}

PM_TEST(formatter_truncates_and_reports_full_length) {
    char buf[8];
    size_t n = pmi_format(buf, sizeof buf, "%s", "0123456789");
    PM_CHECK_EQ_INT(n, 10);
    PM_CHECK_STR(buf, "0123456");
}

PM_TEST(fail_fills_error_and_returns_type) {
    pm_error err = {0};
    pm_result r = pmi_fail(&err, PM_ERR_TRUNCATED, "vmd: bone key %u of %u is truncated", 3u, 9u);
    PM_CHECK_EQ_INT(r, PM_ERR_TRUNCATED);
    PM_CHECK_EQ_INT(err.type, PM_ERR_TRUNCATED);
    PM_CHECK_STR(err.message, "vmd: bone key 3 of 9 is truncated");
    PM_CHECK(err.line > 0);
    PM_CHECK_STR(pm_result_name(PM_ERR_LIMIT), "PM_ERR_LIMIT");
    PM_CHECK_EQ_INT(pmi_fail(NULL, PM_ERR_IO, "no error struct"), PM_ERR_IO);
}

PM_TEST(alloc_array_rejects_overflow_and_limit) {
    pm_error err = {0};
    pm_allocator a = {0};
    PM_CHECK(pmi_alloc_array(&a, SIZE_MAX / 4, 16, &err, "test") == NULL);
    PM_CHECK_EQ_INT(err.type, PM_ERR_OUT_OF_MEMORY);
    a.memory_limit = 1000;
    PM_CHECK(pmi_alloc_array(&a, 1001, 1, &err, "test") == NULL);
    void *p = pmi_alloc_array(&a, 10, 100, &err, "test");
    PM_CHECK(p != NULL);
    pmi_free(&a, p);
    void *z = pmi_alloc_array(NULL, 0, 8, &err, "empty");
    PM_CHECK(z != NULL);
    pmi_free(NULL, z);
}

PM_TEST(buf_grow_reserves_zeroed_bytes_even_none_and_stays_failed) {
    pmi_buf b = {0};
    uint8_t *none = pmi_buf_grow(&b, 0); /* an empty buffer: was NULL + 0 and memset(NULL, 0, 0), read as failure */
    PM_CHECK(none != NULL && !b.failed && b.size == 0);
    uint8_t *p = pmi_buf_grow(&b, 300);
    PM_CHECK(p != NULL && b.size == 300 && b.capacity >= 300);
    size_t zero = 0;
    for (size_t i = 0; p && i < 300; i++) zero += p[i] == 0;
    PM_CHECK_EQ_INT(zero, 300);
    if (p) memset(p, 0xab, 300);
    uint8_t *q = pmi_buf_grow(&b, 1000); /* moves: the first 300 bytes go along */
    PM_CHECK(q != NULL && b.size == 1300 && b.data[0] == 0xab && b.data[299] == 0xab && q[0] == 0 && q[999] == 0);
    PM_CHECK(pmi_buf_grow(&b, 0) == b.data + 1300);
    pmi_buf_release(&b);
    PM_CHECK(b.data == NULL && b.size == 0 && b.capacity == 0);
    PM_CHECK(pmi_buf_grow(&b, 0) != NULL); /* released, then empty again */
    PM_CHECK(pmi_buf_grow(&b, SIZE_MAX / 2) == NULL && b.failed);
    PM_CHECK(pmi_buf_grow(&b, 1) == NULL); /* failed stays failed */
    pmi_buf_release(&b);
}

int main(void) { return pm_test_run_all(); }
