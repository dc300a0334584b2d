/* Model exports: PMX/PMD to skeleton JSON, skeleton handles built from JSON (used by pose, catwalk,
 * groove, tracing), humanoid mapping and the built-in mannequin. */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/humanoid.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/skeleton.h"

#include <stdlib.h>

/* Slots of pm_abi_humanoid_map's output (PM_ABI_LAYOUT_HUMANOID). */
enum { PM_ABI_LAYOUT_HUMANOID(PM_ABI_SLOT_ENUM, H_) H_COUNT };
_Static_assert(H_NAMING - H_BONE == PM_HUMANOID_BONE_COUNT && H_MAPPED - H_NAMING == PM_HUMANOID_BONE_COUNT,
               "one humanoid slot per bone");
_Static_assert(H_DRIVABLE - H_MISSING == PM_HUMANOID_REQUIRED_COUNT, "one slot per required humanoid bone");
PM_ABI_ENUM_HUMANOID_NAMING(PM_ABI_CHECK_ENUM, humanoid_naming)
_Static_assert(0 PM_ABI_ENUM_HUMANOID_NAMING(PM_ABI_COUNT_ENUM, ) == PM_RIG_NAMING_COUNT,
               "PM_ABI_ENUM_HUMANOID_NAMING lists every pm_rig_naming");

/* Serialise a skeleton into a malloc'd NUL-terminated JSON text (host frees with pm_abi_free). */
static int32_t skeleton_json_out(const pm_skeleton *s, char **out, uint32_t *out_len, pm_error *err) {
    size_t n = 0;
    pm_result r = pm_skeleton_to_json(s, NULL, 0, &n, err);
    if (r) return (int32_t)r;
    char *text = malloc(n + 1);
    if (!text) return (int32_t)pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "skeleton: out of memory for JSON");
    if ((r = pm_skeleton_to_json(s, text, n + 1, &n, err))) {
        free(text);
        return (int32_t)r;
    }
    *out = text;
    *out_len = (uint32_t)n;
    return 0;
}

/* Read a PMX or PMD file and return its skeleton as JSON in *out (host frees). 0 or a pm_result. */
PM_EXPORT int32_t pm_abi_model_read_json(const uint8_t *data, uint32_t size, char **out, uint32_t *out_len,
                                         char *errbuf) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    *out = NULL;
    *out_len = 0;
    int32_t r = (int32_t)pm_model_read(data, size, NULL, &s, &err);
    if (r == 0) r = skeleton_json_out(s, out, out_len, &err);
    pm_skeleton_free(s);
    if (r) pm_abi_set_error(errbuf, &err);
    return r;
}

/* A skeleton handle from JSON (free with pm_abi_skeleton_free), or NULL with errbuf filled. */
PM_EXPORT pm_skeleton *pm_abi_skeleton_from_json(const char *json, uint32_t len, char *errbuf) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    if (pm_skeleton_from_json(json, len, NULL, &s, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return s;
}

/* A skeleton handle straight from PMX/PMD bytes (no JSON round trip). */
PM_EXPORT pm_skeleton *pm_abi_skeleton_from_model(const uint8_t *data, uint32_t size, char *errbuf) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    if (pm_model_read(data, size, NULL, &s, &err) != PM_OK) {
        pm_abi_set_error(errbuf, &err);
        return NULL;
    }
    return s;
}

PM_EXPORT void pm_abi_skeleton_free(pm_skeleton *s) { pm_skeleton_free(s); }

PM_EXPORT uint32_t pm_abi_skeleton_bone_count(const pm_skeleton *s) { return s ? s->bone_count : 0; }

PM_EXPORT int32_t pm_abi_skeleton_to_json(const pm_skeleton *s, char **out, uint32_t *out_len, char *errbuf) {
    pm_error err = {0};
    *out = NULL;
    *out_len = 0;
    int32_t r = skeleton_json_out(s, out, out_len, &err);
    if (r) pm_abi_set_error(errbuf, &err);
    return r;
}

/* A humanoid map into pm_abi_humanoid_map's H_COUNT output slots. */
static void humanoid_out(const pm_humanoid_map *map, uint32_t *out) {
    for (int b = 0; b < PM_HUMANOID_BONE_COUNT; b++) {
        out[H_BONE + b] = map->bone[b];
        out[H_NAMING + b] = (uint32_t)map->naming[b];
    }
    out[H_MAPPED] = map->mapped;
    out[H_TOTAL] = map->total;
    out[H_MISSING_COUNT] = map->missing_required_count;
    for (uint32_t k = 0; k < PM_HUMANOID_REQUIRED_COUNT; k++)
        out[H_MISSING + k] = k < map->missing_required_count ? (uint32_t)map->missing_required[k] : 0xFFFFFFFFu;
    out[H_DRIVABLE] = map->drivable ? 1 : 0;
}

/*
 * Humanoid mapping of `count` names given as a UTF-8 blob with count + 1 byte offsets. Fills `out`
 * (H_COUNT uint32 slots): name index per humanoid bone (0xFFFFFFFF = unmapped), naming table per bone,
 * mapped, total, missing required count, the missing required bones, drivable. Returns 0 or a pm_result.
 */
PM_EXPORT int32_t pm_abi_humanoid_map(const char *blob, const uint32_t *offsets, uint32_t count, uint32_t *out,
                                      char *errbuf) {
    pm_error err = {0};
    char **names = calloc(count ? count : 1, sizeof *names);
    if (!names) {
        pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "humanoid: out of memory");
        pm_abi_set_error(errbuf, &err);
        return PM_ERR_OUT_OF_MEMORY;
    }
    int32_t r = 0;
    for (uint32_t i = 0; i < count && !r; i++) {
        if (offsets[i + 1] < offsets[i]) {
            r = (int32_t)pmi_fail(&err, PM_ERR_INVALID_ARGUMENT, "humanoid: bad name offsets");
            break;
        }
        uint32_t n = offsets[i + 1] - offsets[i];
        names[i] = malloc(n + 1);
        if (!names[i]) {
            r = (int32_t)pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "humanoid: out of memory");
            break;
        }
        memcpy(names[i], blob + offsets[i], n);
        names[i][n] = '\0';
    }
    pm_humanoid_map map;
    if (!r) r = (int32_t)pm_humanoid_map_names((const char *const *)names, count, &map, &err);
    if (!r) humanoid_out(&map, out);
    for (uint32_t i = 0; i < count; i++) free(names[i]);
    free(names);
    if (r) pm_abi_set_error(errbuf, &err);
    return r;
}

/* Humanoid mapping of a skeleton handle (pm_abi_skeleton_from_*): its names and, for what they leave
 * unmapped, its English names, through the rig resolver. `out` as pm_abi_humanoid_map's (the indices are
 * bone indices). Returns 0 or a pm_result. */
PM_EXPORT int32_t pm_abi_humanoid_map_skeleton(const pm_skeleton *s, uint32_t *out, char *errbuf) {
    pm_error err = {0};
    pm_humanoid_map map;
    pm_result r = pm_humanoid_map_skeleton(s, &map, &err);
    if (r) return pm_abi_fail(errbuf, &err, r);
    humanoid_out(&map, out);
    return 0;
}

/* The built-in mannequin as PMX 2.0 bytes in *out (host frees). 0 or a pm_result. */
PM_EXPORT int32_t pm_abi_mannequin_pmx(uint8_t **out, uint32_t *out_size, char *errbuf) {
    pm_error err = {0};
    size_t n = 0;
    *out = NULL;
    *out_size = 0;
    int32_t r = (int32_t)pm_mannequin_pmx(NULL, NULL, 0, &n, &err);
    uint8_t *buf = r ? NULL : malloc(n ? n : 1);
    if (!r && !buf) r = (int32_t)pmi_fail(&err, PM_ERR_OUT_OF_MEMORY, "mannequin: out of memory");
    if (!r) r = (int32_t)pm_mannequin_pmx(NULL, buf, n, &n, &err);
    if (r) {
        free(buf);
        pm_abi_set_error(errbuf, &err);
        return r;
    }
    *out = buf;
    *out_size = (uint32_t)n;
    return 0;
}
