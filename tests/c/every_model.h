/* every_model.h -- the "every model" iteration of tests/zoo/zoo.h for a C test, loaded in one call: every
 * zoo model and the mannequin, plus the shared PMX fixtures when asked (a line says when they are
 * missing). A load failure fails the test. Not a test by itself.
 *
 *   size_t n = 0;
 *   pm_zoo_entry *all = pm_test_every_model(true, &n);
 *   for (size_t i = 0; i < n; i++) ... all[i].skeleton ...
 *   pm_zoo_entries_free(all, n);
 */
#ifndef PM_EVERY_MODEL_H
#define PM_EVERY_MODEL_H

#include "pm_test.h"
#include "zoo.h"

#include <stdbool.h>

/* NULL and *n = 0 when loading failed (the test is then failed). */
static inline pm_zoo_entry *pm_test_every_model(bool with_fixtures, size_t *n) {
    pm_error err = {0};
    pm_zoo_entry *all = NULL;
    size_t fixtures = 0;
    *n = 0;
    PM_CHECK_OK(pm_zoo_entries(with_fixtures ? pm_test_fixture_dir() : NULL, &all, n, &fixtures, &err), &err);
    if (with_fixtures && all && fixtures < 2) printf("  (the shared PMX fixtures are missing: zoo and mannequin only)\n");
    return all;
}

#endif
