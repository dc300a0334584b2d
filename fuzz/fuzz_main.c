/* One libFuzzer executable per target of fuzz_targets.h: fuzz/CMakeLists.txt builds this file once for
 * every entry of pm_fuzz_targets[] with PM_FUZZ_NAME set to the entry's name (fuzz_vmd, fuzz_pmx, ...).
 * Reproduce a saved crash with `build/fuzz/fuzz_<name> <file>`. */
#include "fuzz_targets.h"

#ifndef PM_FUZZ_NAME
#error "PM_FUZZ_NAME must name an entry of pm_fuzz_targets[]"
#endif

static void (*pm_fuzz_fn)(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    for (size_t i = 0; i < PM_FUZZ_TARGET_COUNT; i++)
        if (strcmp(pm_fuzz_targets[i].name, PM_FUZZ_NAME) == 0) pm_fuzz_fn = pm_fuzz_targets[i].fn;
    if (!pm_fuzz_fn) {
        fprintf(stderr, "fuzz: no target named %s\n", PM_FUZZ_NAME);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pm_fuzz_fn(data, size);
    return 0;
}
