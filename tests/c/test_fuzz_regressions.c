/* Replays every saved fuzz input (tests/data/regressions/<target>/: the inputs that crashed a fuzz target
 * once, kept after the fix) and every fixture through EVERY fuzz target of fuzz/fuzz_targets.h, with the
 * targets' checks (write-back and re-read, JSON fixed point, finite evaluation, keypoint ranges) turned
 * into test failures. docs/reliability.md lists what each saved input was. */
#define _POSIX_C_SOURCE 200809L
#include "pm_test.h"

#define PM_FUZZ_CHECK(cond) PM_CHECK_MSG(cond, "fuzz check failed: %s", #cond)
#include "../../fuzz/fuzz_targets.h"

#include <dirent.h>
#include <sys/stat.h>

/* Run one input through every target; returns how many runs it made. */
static int replay_all(const char *path, const unsigned char *data, size_t size) {
    int runs = 0;
    for (size_t t = 0; t < PM_FUZZ_TARGET_COUNT; t++) {
        int before = pm_test_failed_checks;
        pm_fuzz_targets[t].fn(data, size);
        if (pm_test_failed_checks != before) fprintf(stderr, "  ^ %s through target %s\n", path, pm_fuzz_targets[t].name);
        runs++;
    }
    return runs;
}

static int is_target(const char *name) {
    for (size_t t = 0; t < PM_FUZZ_TARGET_COUNT; t++)
        if (strcmp(pm_fuzz_targets[t].name, name) == 0) return 1;
    return 0;
}

PM_TEST(every_saved_fuzz_input_passes_every_target) {
    const char *root = "data/regressions";
    DIR *top = opendir(root);
    PM_CHECK_MSG(top != NULL, "cannot open tests/%s", root);
    if (!top) return;
    int files = 0, runs = 0;
    struct dirent *d;
    while ((d = readdir(top))) {
        if (d->d_name[0] == '.') continue;
        PM_CHECK_MSG(is_target(d->d_name), "tests/%s/%s is not named after a fuzz target", root, d->d_name);
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", root, d->d_name);
        DIR *sub = opendir(dir);
        if (!sub) continue;
        struct dirent *e;
        while ((e = readdir(sub))) {
            if (e->d_name[0] == '.') continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            size_t size = 0;
            unsigned char *data = pm_test_read_file(path, &size);
            PM_CHECK_MSG(data != NULL, "cannot read %s", path);
            if (!data) continue;
            runs += replay_all(path, data, size);
            files++;
            free(data);
        }
        closedir(sub);
    }
    closedir(top);
    printf("  %d saved inputs, %d target runs\n", files, runs);
    PM_CHECK(files >= 6);
}

PM_TEST(every_fixture_passes_every_target) {
    static const char *fixtures[] = {
        "vmd/mei_wait.vmd", "vmd/gene_02_laugh.vmd", "vmd/wavefile_camera.vmd", "vmd/mmt_test_model_test_motion.vmd",
        "pmx/mmt_test_model.pmx", "pmx/yw_test_model/yw_test_model.pmx", "bvh/cmu_131_01.bvh",
        "gltf/RobotExpressive.glb", "vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm",
    };
    int n = 0;
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        if (pm_test_quick() && i % 3) continue; /* valgrind: every third fixture */
        size_t size = 0;
        unsigned char *data = pm_test_read_fixture(fixtures[i], &size);
        if (!data) continue;
        replay_all(fixtures[i], data, size);
        n++;
        free(data);
    }
    printf("  %d fixtures through %zu targets\n", n, PM_FUZZ_TARGET_COUNT);
}

int main(void) { return pm_test_run_all(); }
