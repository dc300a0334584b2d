/* The binary FBX reader: a real Blender export played as three.js's FBXLoader plays it, a 7.5 file with
 * 64-bit records and compressed arrays, Mixamo-style empty stacks, and hostile bytes. */
#include "pm_test.h"

#include "procmotion/fbx.h"
#include "procmotion/humanoid.h"
#include "procmotion/keypoints.h"

#include <cjson/cJSON.h>
#include <math.h>

/* The model named like three.js names it (without '.'), or PM_NO_INDEX. */
static uint32_t model_named(const pm_fbx *f, const char *three_name) {
    for (uint32_t m = 0; m < f->model_count; m++) {
        char plain[64];
        size_t n = 0;
        for (const char *c = f->models[m].name.data; *c && n + 1 < sizeof plain; c++)
            if (*c != '.') plain[n++] = *c;
        plain[n] = '\0';
        if (strcmp(plain, three_name) == 0) return m;
    }
    return PM_NO_INDEX;
}

PM_TEST(a_blender_export_plays_as_three_js_plays_it) {
    size_t size = 0, ref_size = 0;
    unsigned char *data = pm_test_read_file("data/fbx/blender-huesitos.fbx", &size);
    char *ref = (char *)pm_test_read_file("data/fbx/blender-huesitos.three.json", &ref_size);
    PM_CHECK(data && ref);
    if (!data || !ref) return;
    pm_error err = {0};
    pm_fbx *f = NULL;
    PM_CHECK_OK(pm_fbx_read(data, size, NULL, &f, &err), &err);
    cJSON *json = cJSON_ParseWithLength(ref, ref_size);
    PM_CHECK(json != NULL);
    if (f && json) {
        PM_CHECK_EQ_INT(f->version, 7400);
        PM_CHECK_EQ_INT(f->stack_count, 1);
        PM_CHECK_STR(f->stacks[0].name.data, cJSON_GetObjectItem(json, "clip")->valuestring);
        PM_CHECK(fabs(f->frame_rate - 25) < 1e-9);
        pm_mat4 *world = calloc(f->model_count, sizeof *world);
        const cJSON *times = cJSON_GetObjectItem(json, "times"), *bones = cJSON_GetObjectItem(json, "bones");
        double worst = 0;
        uint32_t compared = 0;
        for (int k = 0; k < cJSON_GetArraySize(times); k++) {
            PM_CHECK_OK(pm_fbx_world_matrices(f, 0, cJSON_GetArrayItem(times, k)->valuedouble, world, &err), &err);
            for (const cJSON *b = bones->child; b; b = b->next) {
                const uint32_t m = model_named(f, b->string);
                PM_CHECK_MSG(m != PM_NO_INDEX, "no model %s", b->string);
                if (m == PM_NO_INDEX) continue;
                PM_CHECK(f->models[m].bone);
                const cJSON *p = cJSON_GetArrayItem(b, k);
                for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(world[m].m[12 + c] - cJSON_GetArrayItem(p, c)->valuedouble));
                compared++;
            }
        }
        printf("  %u bone positions at %d key times: within %.5f units of three.js's\n", compared,
               cJSON_GetArraySize(times), worst);
        PM_CHECK(compared >= 100 && worst <= 0.002);
        free(world);
    }
    cJSON_Delete(json);
    pm_fbx_free(f);
    free(ref);
    free(data);
}

PM_TEST(fbx_7_5_records_and_compressed_arrays_are_read) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/fbx/box-fbx75-compressed.fbx", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    pm_error err = {0};
    pm_fbx *f = NULL;
    PM_CHECK_OK(pm_fbx_read(data, size, NULL, &f, &err), &err);
    if (f) {
        PM_CHECK_EQ_INT(f->version, 7500);
        PM_CHECK_EQ_INT(f->model_count, 1);
        PM_CHECK_STR(f->models[0].type.data, "Mesh");
        PM_CHECK(!f->models[0].bone);
        PM_CHECK_EQ_INT(f->stack_count, 0);
    }
    pm_fbx_free(f);
    free(data);
}

/* A motion with no humanoid: the keypoints and humanoid readers say so, naming the joints. */
PM_TEST(an_fbx_without_a_humanoid_is_refused_naming_its_bones) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/fbx/blender-huesitos.fbx", &size);
    if (!data) return;
    pm_error err = {0};
    pm_humanoid_motion *m = NULL;
    PM_CHECK(pm_humanoid_motion_read(data, size, NULL, &m, &err) == PM_ERR_NOT_FOUND);
    PM_CHECK(m == NULL && strstr(err.message, "Bone.001") != NULL);
    PM_CHECK_EQ_INT(pm_kp_detect_format(data, size), PM_KP_FORMAT_FBX);
    free(data);
}

PM_TEST(hostile_fbx_bytes_fail_with_a_message) {
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/fbx/blender-huesitos.fbx", &size);
    if (!data) return;
    pm_error err = {0};
    pm_fbx *f = NULL;
    /* every cut of the first 4 KB and every 61st after: truncation, never a crash */
    uint32_t refused = 0, cuts = 0;
    for (size_t n = 0; n < size; n += n < 4096 ? 1 : 61, cuts++) {
        err.message[0] = '\0';
        pm_result r = pm_fbx_read(data, n, NULL, &f, &err);
        if (r == PM_OK) pm_fbx_free(f);
        else {
            refused++;
            PM_CHECK(err.message[0] != '\0');
        }
    }
    PM_CHECK(refused >= cuts - 2);
    /* bytes changed at random: whatever comes out is finite */
    unsigned char *copy = malloc(size);
    uint32_t seed = 12345, read_back = 0;
    for (int trial = 0; trial < (pm_test_quick() ? 200 : 2000); trial++) {
        memcpy(copy, data, size);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            copy[27 + (seed >> 8) % (size - 27)] ^= (unsigned char)(1u << (seed & 7));
        }
        if (pm_fbx_read(copy, size, NULL, &f, &err) != PM_OK) continue;
        read_back++;
        pm_mat4 *world = calloc(f->model_count ? f->model_count : 1, sizeof *world);
        for (uint32_t s = 0; s <= f->stack_count; s++) /* what was read evaluates (values may be huge: fuzz checks bounds) */
            PM_CHECK_OK(pm_fbx_world_matrices(f, s < f->stack_count ? s : PM_NO_INDEX, 0.5, world, &err), &err);
        free(world);
        pm_fbx_free(f);
    }
    printf("  %u of %u cuts refused; %u changed files still read\n", refused, cuts, read_back);
    free(copy);
    /* headers */
    PM_CHECK(pm_fbx_read((const uint8_t *)"; FBX 7.4.0 project file\n", 25, NULL, &f, &err) == PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "ASCII") != NULL);
    memcpy(copy = malloc(size), data, size);
    copy[23] = 0x70, copy[24] = 0x17; /* 6000 */
    PM_CHECK(pm_fbx_read(copy, size, NULL, &f, &err) == PM_ERR_BAD_FORMAT);
    PM_CHECK(strstr(err.message, "version 6") != NULL);
    free(copy);
    PM_CHECK(pm_fbx_read(data, size, NULL, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    free(data);
}

int main(void) { return pm_test_run_all(); }
