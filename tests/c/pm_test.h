/* pm_test.h -- the minimal harness for procmotion's C unit tests (one executable per file).
 *
 *   #include "pm_test.h"
 *   PM_TEST(bezier_linear_is_identity) { PM_CHECK_NEAR(pm_bezier_eval(20,20,107,107,0.3f), 0.3, 1e-6); }
 *   int main(void) { return pm_test_run_all(); }
 *
 * Tests register themselves through a constructor; a failed check prints file:line and the values
 * and marks the test failed (the test goes on). pm_test_read_fixture() reads a file under
 * ../shared/fixtures (or $PM_FIXTURES) and returns NULL, after printing "SKIP", when that folder is
 * absent (a fixture missing from a present folder fails the test).
 */
#ifndef PM_TEST_H
#define PM_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*pm_test_fn)(void);
typedef struct pm_test_entry {
    const char *name;
    pm_test_fn fn;
} pm_test_entry;

static pm_test_entry pm_test_entries[512];
static int pm_test_count;
static int pm_test_failed_checks;
static int pm_test_current_failed;
static int pm_test_skipped;

#define PM_TEST(tname)                                                                                   \
    static void pm_test_##tname(void);                                                                   \
    __attribute__((constructor)) static void pm_test_register_##tname(void) {                          \
        pm_test_entries[pm_test_count].name = #tname;                                                    \
        pm_test_entries[pm_test_count++].fn = pm_test_##tname;                                           \
    }                                                                                                    \
    static void pm_test_##tname(void)

#define PM_FAIL_AT(...)                                                                                  \
    do {                                                                                                 \
        fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                                               \
        fprintf(stderr, __VA_ARGS__);                                                                    \
        fprintf(stderr, "\n");                                                                           \
        pm_test_failed_checks++;                                                                         \
        pm_test_current_failed = 1;                                                                      \
    } while (0)

#define PM_CHECK(cond)                                                                                   \
    do {                                                                                                 \
        if (!(cond)) PM_FAIL_AT("check failed: %s", #cond);                                             \
    } while (0)

#define PM_CHECK_MSG(cond, ...)                                                                          \
    do {                                                                                                 \
        if (!(cond)) PM_FAIL_AT(__VA_ARGS__);                                                            \
    } while (0)

#define PM_CHECK_EQ_INT(a, b)                                                                            \
    do {                                                                                                 \
        long long pm_a_ = (long long)(a), pm_b_ = (long long)(b);                                        \
        if (pm_a_ != pm_b_) PM_FAIL_AT("%s == %s failed: %lld != %lld", #a, #b, pm_a_, pm_b_);         \
    } while (0)

#define PM_CHECK_NEAR(a, b, tol)                                                                         \
    do {                                                                                                 \
        double pm_a_ = (double)(a), pm_b_ = (double)(b);                                                 \
        if (!(fabs(pm_a_ - pm_b_) <= (tol)))                                                             \
            PM_FAIL_AT("%s ~= %s failed: %.9g vs %.9g (tol %g)", #a, #b, pm_a_, pm_b_, (double)(tol));  \
    } while (0)

#define PM_CHECK_STR(a, b)                                                                               \
    do {                                                                                                 \
        const char *pm_a_ = (a), *pm_b_ = (b);                                                           \
        if (!pm_a_ || !pm_b_ || strcmp(pm_a_, pm_b_) != 0)                                               \
            PM_FAIL_AT("%s == %s failed: \"%s\" vs \"%s\"", #a, #b, pm_a_ ? pm_a_ : "(null)",            \
                       pm_b_ ? pm_b_ : "(null)");                                                        \
    } while (0)

/* Check a pm_result is PM_OK; print the error message otherwise. */
#define PM_CHECK_OK(expr, errp)                                                                          \
    do {                                                                                                 \
        int pm_r_ = (int)(expr);                                                                         \
        if (pm_r_ != 0) PM_FAIL_AT("%s failed with %d: %s", #expr, pm_r_, (errp)->message);              \
    } while (0)

static inline const char *pm_test_fixture_dir(void) {
    const char *env = getenv("PM_FIXTURES");
    return env && *env ? env : "../../shared/fixtures";
}

/* Read a whole file (NULL when it cannot be opened). Caller frees. */
static inline unsigned char *pm_test_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = fread(buf, 1, n > 0 ? (size_t)n : 0, f);
    fclose(f);
    *size = got;
    return buf;
}

/* Read a whole fixture file (relative to the fixtures dir). Caller frees. Returns NULL when it cannot
 * be read: with the fixtures dir absent (no ../shared beside the repo) that prints SKIP; with the dir
 * present (as in CI) a missing fixture is a failure of the current test, so a renamed or mistyped
 * fixture cannot pass as a skip. */
static inline unsigned char *pm_test_read_fixture(const char *rel, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", pm_test_fixture_dir(), rel);
    unsigned char *buf = pm_test_read_file(path, size);
    if (!buf) {
        char sources[1024];
        snprintf(sources, sizeof sources, "%s/SOURCES.md", pm_test_fixture_dir());
        FILE *dir_probe = fopen(sources, "rb");
        if (dir_probe) {
            fclose(dir_probe);
            PM_FAIL_AT("fixture %s not found, though %s exists", path, sources);
        } else {
            fprintf(stderr, "  SKIP: fixture %s not found (is ../shared beside the repo?)\n", path);
            pm_test_skipped++;
        }
    }
    return buf;
}

/* Truncation sweeps: make only the first `cut` bytes of a `size`-byte heap buffer addressable, so that
 * ASan reports any read past the cut (no copy per cut). pm_test_uncut() restores the whole buffer. */
#if defined(__SANITIZE_ADDRESS__)
#define PM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PM_TEST_ASAN 1
#endif
#endif
#ifdef PM_TEST_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
static inline void pm_test_cut(const unsigned char *buf, size_t size, size_t cut) {
    __asan_unpoison_memory_region(buf, size);
    if (cut < size) __asan_poison_memory_region(buf + cut, size - cut);
}
static inline void pm_test_uncut(const unsigned char *buf, size_t size) { __asan_unpoison_memory_region(buf, size); }
#else
static inline void pm_test_cut(const unsigned char *buf, size_t size, size_t cut) { (void)buf, (void)size, (void)cut; }
static inline void pm_test_uncut(const unsigned char *buf, size_t size) { (void)buf, (void)size; }
#endif

/* PM_TEST_QUICK=1 (the valgrind stage of build-scripts/test.sh): sweeps take a stride instead of every
 * step. PM_TEST_VALGRIND=1: running under valgrind, whose x87 emulation computes long double at double
 * precision (tests that need 64-bit mantissas skip). */
static inline int pm_test_env_flag(const char *name) {
    const char *v = getenv(name);
    return v && *v && *v != '0';
}
static inline int pm_test_quick(void) { return pm_test_env_flag("PM_TEST_QUICK"); }

static inline int pm_test_run_all(void) {
    int failed_tests = 0;
    for (int i = 0; i < pm_test_count; i++) {
        pm_test_current_failed = 0;
        pm_test_entries[i].fn();
        printf("%s %s\n", pm_test_current_failed ? "FAIL" : "ok  ", pm_test_entries[i].name);
        failed_tests += pm_test_current_failed;
    }
    printf("%d tests, %d failed, %d skipped (a fixture or environment missing)\n", pm_test_count, failed_tests, pm_test_skipped);
    return failed_tests ? 1 : 0;
}

#endif
