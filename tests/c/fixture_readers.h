/* fixture_readers.h -- a shared fixture read as a model's skeleton or as a VMD, for C tests: NULL when it
 * cannot be read (pm_test_read_fixture: a SKIP without ../shared, a failure when the fixture is missing
 * from it); a file the reader rejects fails the test. The caller frees the result. */
#ifndef PM_FIXTURE_READERS_H
#define PM_FIXTURE_READERS_H

#include "pm_test.h"

#include "procmotion/pmx.h"
#include "procmotion/vmd.h"

static inline pm_skeleton *pm_test_read_model(const char *rel) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture(rel, &size);
    if (!data) return NULL;
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_model_read(data, size, NULL, &sk, &err), &err);
    free(data);
    return sk;
}

static inline pm_vmd *pm_test_read_vmd(const char *rel) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture(rel, &size);
    if (!data) return NULL;
    pm_vmd *v = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_vmd_read(data, size, NULL, &v, &err), &err);
    free(data);
    return v;
}

/* A BVH with every joint renamed j0, j1, ... (names that say nothing; never longer than the originals).
 * The caller frees the result; *out_size gets its size. */
static inline char *pm_test_anonymous_bvh(const unsigned char *data, size_t size, size_t *out_size) {
    char *renamed = malloc(size + 1);
    size_t out = 0;
    uint32_t joint = 0;
    for (size_t i = 0; i < size;) {
        const char *key = strncmp((const char *)data + i, "ROOT ", 5) == 0 ? "ROOT " : strncmp((const char *)data + i, "JOINT ", 6) == 0 ? "JOINT " : NULL;
        if (!key || (i > 0 && data[i - 1] != '\t' && data[i - 1] != ' ' && data[i - 1] != '\n')) {
            renamed[out++] = (char)data[i++];
            continue;
        }
        size_t k = strlen(key), e = i + k;
        while (e < size && data[e] != '\r' && data[e] != '\n') e++;
        out += (size_t)snprintf(renamed + out, size + 1 - out, "%sj%u", key, joint++);
        i = e;
    }
    *out_size = out;
    return renamed;
}

#endif
