/* Byte-patch and truncation sweeps (ufbx's "patch each byte, truncate at every length"): every sample
 * input of every format, and the small fixtures, go through their fuzz target (fuzz/fuzz_targets.h:
 * parse, write back, re-read, evaluate, with the targets' checks as test failures) with each byte set to
 * 0x00, 0xFF and its value + 1, and cut at each length (the bytes after the cut poisoned under ASan).
 * Bounded: at most PATCH_RUNS patched runs and TRUNC_RUNS cuts per input, so large inputs use a stride
 * (printed); PM_TEST_QUICK=1 (valgrind) divides both by 10. */
#include "pm_test.h"
#include <time.h>
#include "sample_inputs.h"

#define PM_FUZZ_CHECK(cond) PM_CHECK_MSG(cond, "fuzz check failed: %s", #cond)
#include "../../fuzz/fuzz_targets.h"

#define PATCH_RUNS 3000
#define TRUNC_RUNS 800

static void (*target_fn(const char *name))(const uint8_t *, size_t) {
    for (size_t t = 0; t < PM_FUZZ_TARGET_COUNT; t++)
        if (strcmp(pm_fuzz_targets[t].name, name) == 0) return pm_fuzz_targets[t].fn;
    return NULL;
}

/* Sweep one input through one target. `in` is copied into an exact-size heap block. */
static void sweep(const char *what, const char *target, const void *in, size_t size) {
    void (*fn)(const uint8_t *, size_t) = target_fn(target);
    PM_CHECK_MSG(fn != NULL, "no fuzz target %s", target);
    if (!fn || !size) return;
    unsigned char *d = malloc(size);
    memcpy(d, in, size);
    size_t patch_budget = pm_test_quick() ? PATCH_RUNS / 10 : PATCH_RUNS, trunc_budget = pm_test_quick() ? TRUNC_RUNS / 10 : TRUNC_RUNS;
    size_t pstride = (3 * size + patch_budget - 1) / patch_budget, tstride = (size + trunc_budget - 1) / trunc_budget;
    int before = pm_test_failed_checks;
    size_t runs = 0;
    clock_t t0 = clock();
    for (size_t i = 0; i < size; i += pstride) {
        const unsigned char orig = d[i], values[3] = {0x00, 0xFF, (unsigned char)(orig + 1)};
        for (int v = 0; v < 3; v++) {
            if (values[v] == orig) continue;
            d[i] = values[v];
            fn(d, size);
            runs++;
            if (pm_test_failed_checks != before) {
                fprintf(stderr, "  ^ %s through %s with byte %zu = 0x%02X (was 0x%02X)\n", what, target, i, values[v], orig);
                before = pm_test_failed_checks;
            }
        }
        d[i] = orig;
    }
    for (size_t cut = 0; cut < size; cut += tstride) {
        pm_test_cut(d, size, cut);
        fn(d, cut);
        runs++;
        if (pm_test_failed_checks != before) {
            fprintf(stderr, "  ^ %s through %s cut at %zu of %zu bytes\n", what, target, cut, size);
            before = pm_test_failed_checks;
        }
    }
    pm_test_uncut(d, size);
    printf("  %-34s %-14s %7zu bytes, patch stride %zu, cut stride %zu: %zu runs, %.1f s\n", what, target, size, pstride,
           tstride, runs, (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(d);
}

static void sweep_fixture(const char *rel, const char *target) {
    size_t n = 0;
    unsigned char *d = pm_test_read_fixture(rel, &n);
    if (!d) return;
    sweep(rel, target, d, n);
    free(d);
}

PM_TEST(vmd_files_patched_at_every_byte_and_cut_at_every_length_fail_cleanly) {
    size_t n;
    uint8_t *vmd = pm_sample_vmd(&n);
    sweep("sample VMD (all six sections)", "vmd", vmd, n);
    sweep("sample VMD on the mannequin", "pose", vmd, n);
    sweep_fixture("vmd/wavefile_camera.vmd", "vmd");
    free(vmd);
}

PM_TEST(model_files_patched_at_every_byte_and_cut_at_every_length_fail_cleanly) {
    tb pmx = {0}, pmd = {0};
    pm_sample_pmx21(&pmx);
    pm_sample_pmd(&pmd);
    sweep("hand-made PMX 2.1", "pmx", pmx.d, pmx.n);
    sweep("hand-made PMD", "pmd", pmd.d, pmd.n);
    pm_skeleton *s = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_pmx_read(pmx.d, pmx.n, NULL, &s, &err), &err);
    if (s) {
        size_t jn = 0;
        pm_skeleton_to_json(s, NULL, 0, &jn, &err);
        char *json = malloc(jn + 1);
        pm_skeleton_to_json(s, json, jn + 1, &jn, &err);
        sweep("skeleton JSON of the PMX 2.1", "skeleton_json", json, jn);
        free(json);
        pm_skeleton_free(s);
    }
    free(pmx.d);
    free(pmd.d);
}

PM_TEST(bvh_and_gltf_files_patched_at_every_byte_and_cut_at_every_length_fail_cleanly) {
    smp_text bvh = pm_sample_bvh(1, 2);
    tb glb = pm_sample_gltf(2, 1), gltf = pm_sample_gltf(1, 0);
    sweep("sample BVH (mixed channels)", "bvh", bvh.d, bvh.n);
    sweep("sample GLB (VRM 1.0)", "gltf", glb.d, glb.n);
    sweep("sample glTF (VRM 0.x, data URI)", "gltf", gltf.d, gltf.n);
    if (!pm_test_quick()) sweep_fixture("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm", "gltf");
    free(bvh.d);
    free(glb.d);
    free(gltf.d);
}

PM_TEST(keypoint_files_patched_at_every_byte_and_cut_at_every_length_fail_cleanly) {
    smp_text json = pm_sample_kp_json(1), bvh = pm_sample_bvh(0, 2);
    sweep("sample keypoint JSON", "kp_json", json.d, json.n);
    sweep("sample BVH to keypoints", "kp_auto", bvh.d, bvh.n);
    smp_text nd;
    tb bin;
    pm_sample_kp_streams(&bvh, &nd, &bin);
    sweep("NDJSON of the BVH", "kp_ndjson", nd.d, nd.n);
    sweep("binary frames of the BVH", "kp_frame", bin.d, bin.n);
    free(nd.d);
    free(bin.d);
    free(json.d);
    free(bvh.d);
}

PM_TEST(text_patched_at_every_byte_decodes_and_encodes_cleanly) {
    const char *names = "センター 左足ＩＫ ｾﾝﾀｰ ①Ⅰ㈱ 纊褜 \xEE\x80\x80 ascii";
    sweep("UTF-8 names", "sjis", names, strlen(names));
    uint8_t sj[128];
    size_t n = 0;
    pm_error err = {0};
    PM_CHECK_OK(pm_utf8_to_sjis(names, strlen(names), sj, sizeof sj, &n, NULL, &err), &err);
    sweep("Shift-JIS names", "sjis", sj, n);
}

PM_TEST(generator_settings_patched_at_every_byte_and_cut_at_every_length_fail_cleanly) {
    smp_text c = pm_sample_catwalk_json(1), g = pm_sample_groove_json(), t = pm_sample_timeline_json();
    sweep("catwalk parameters", "catwalk_json", c.d, c.n);
    sweep("groove settings", "groove_json", g.d, g.n);
    sweep("tracing timeline", "timeline_json", t.d, t.n);
    free(c.d);
    free(g.d);
    free(t.d);
}

int main(void) { return pm_test_run_all(); }
