/* counting_alloc.h -- a pm_allocator for the hardening tests: counts allocations, live blocks and bytes,
 * the largest single request, and fails the Nth allocation on demand. cJSON (which the JSON readers use
 * directly, with malloc) is routed through the same counter with cJSON_InitHooks, so "the Nth
 * allocation" covers both. Under ASan the process-wide malloc hook also counts every malloc, which
 * tells how many allocations bypassed both (a module calling malloc itself). Not a test by itself.
 *
 *   counter c = {.fail_at = 7};
 *   counter_begin(&c);                                  // cJSON and malloc counting now go to c
 *   pm_vmd_read_options o = {.allocator = counter_allocator(&c)};
 *   ... pm_vmd_read(data, size, &o, &vmd, &err) ... pm_vmd_free(vmd);
 *   counter_end(&c);                                    // c.live == 0: nothing leaked
 *
 * counter_fail_each() runs that loop over every allocation of a call in turn (the call in a
 * counter_run_fn); test_hardening_alloc.c's sweep() is the larger one that also compares outputs.
 */
#ifndef PM_COUNTING_ALLOC_H
#define PM_COUNTING_ALLOC_H

#include "pm_test.h"
#include "procmotion/common.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct counter {
    long fail_at;        /* fail this allocation (1-based, counting both paths); 0 = never */
    long calls;          /* allocations asked for (pm_allocator and cJSON) */
    long json_calls;     /* of which through cJSON */
    int hit;             /* the fail_at-th allocation happened (and failed) */
    long live;           /* blocks not freed yet */
    size_t live_bytes, peak_bytes, largest;
    long mallocs_seen;   /* ASan only: every malloc in the process between begin and end */
    long own_mallocs;    /* mallocs made by this counter (and by test helpers, counter_tmalloc) */
} counter;

/* The test's global state (cJSON hooks and the malloc hook are process-wide). */
static counter *counter_current;
static long counter_process_mallocs;

typedef struct counter_header {
    counter *owner; /* NULL: allocated while nothing was counted */
    size_t size;
    size_t pad;     /* keeps the block 16-byte aligned after a 24-byte header on 64-bit (and 12 on 32) */
} counter_header;
#define COUNTER_HEADER 32

static void *counter_alloc_in(counter *c, size_t size, int json) {
    if (c) {
        c->calls++;
        if (json) c->json_calls++;
        if (size > c->largest) c->largest = size;
        if (c->fail_at && c->calls == c->fail_at) {
            c->hit = 1;
            return NULL;
        }
    }
    unsigned char *p = malloc(size + COUNTER_HEADER);
    if (!p) return NULL;
    counter_header h = {c, size, 0};
    memcpy(p, &h, sizeof h);
    if (c) {
        c->own_mallocs++;
        c->live++;
        c->live_bytes += size;
        if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
    }
    return p + COUNTER_HEADER;
}

static void counter_free_in(void *ptr) {
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - COUNTER_HEADER;
    counter_header h;
    memcpy(&h, p, sizeof h);
    if (h.owner) {
        h.owner->live--;
        h.owner->live_bytes -= h.size;
    }
    free(p);
}

static void *counter_pm_alloc(void *user, size_t size) { return counter_alloc_in(user, size, 0); }
static void counter_pm_free(void *user, void *ptr) {
    (void)user;
    counter_free_in(ptr);
}
static void *counter_json_malloc(size_t size) { return counter_alloc_in(counter_current, size, 1); }
static void counter_json_free(void *ptr) { counter_free_in(ptr); }

static inline pm_allocator counter_allocator(counter *c) {
    pm_allocator a = {counter_pm_alloc, counter_pm_free, c, 0};
    return a;
}

/* ASan's hook: count every malloc of the process. */
#if defined(__SANITIZE_ADDRESS__)
#define COUNTER_MALLOC_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNTER_MALLOC_HOOK 1
#endif
#endif
#ifdef COUNTER_MALLOC_HOOK
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
static void counter_malloc_hook(const volatile void *p, size_t size) {
    (void)p, (void)size;
    counter_process_mallocs++;
}
static void counter_free_hook(const volatile void *p) { (void)p; }
#endif

/* Install the hooks once (cJSON blocks made before keep working: every block carries its owner). */
static inline void counter_install(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    cJSON_Hooks hooks = {counter_json_malloc, counter_json_free};
    cJSON_InitHooks(&hooks);
#ifdef COUNTER_MALLOC_HOOK
    __sanitizer_install_malloc_and_free_hooks(counter_malloc_hook, counter_free_hook);
#endif
}

static inline void counter_begin(counter *c) {
    counter_install();
    counter_current = c;
    c->mallocs_seen = -counter_process_mallocs;
}
static inline void counter_end(counter *c) {
    c->mallocs_seen += counter_process_mallocs;
    counter_current = NULL;
}
/* Mallocs that went around the counter (-1 when not measurable: no ASan). */
static inline long counter_plain_mallocs(const counter *c) {
#ifdef COUNTER_MALLOC_HOOK
    return c->mallocs_seen - c->own_mallocs;
#else
    (void)c;
    return -1;
#endif
}
/* A test-side buffer made while counting (not a library allocation, not counted as plain). */
static inline void *counter_tmalloc(counter *c, size_t size) {
    if (c) c->own_mallocs++;
    return malloc(size ? size : 1);
}

/* One call under test: makes everything with `a`, frees all it made, returns the call's result. */
typedef pm_result (*counter_run_fn)(void *user, pm_allocator a, pm_error *err);

/* Fail allocation 1, 2, ... of run in turn (counting cJSON's too), below `limit`: each failure must give
 * PM_ERR_OUT_OF_MEMORY and leak nothing; the first run that ends before the failing allocation must
 * succeed. Returns how many allocations a successful run needs, or -1 when `limit` came first. */
static inline long counter_fail_each(counter_run_fn run, void *user, long limit) {
    for (long k = 1; k < limit; k++) {
        counter c = {.fail_at = k};
        pm_error err = {0};
        counter_begin(&c);
        pm_result r = run(user, counter_allocator(&c), &err);
        counter_end(&c);
        PM_CHECK_MSG(c.live == 0, "allocation %ld failing leaked %ld blocks", k, c.live);
        if (!c.hit) {
            PM_CHECK_OK(r, &err);
            return k - 1;
        }
        PM_CHECK_MSG(r == PM_ERR_OUT_OF_MEMORY, "allocation %ld failing gave %d: %s", k, (int)r, err.message);
    }
    return -1;
}

#endif
