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

#endif
