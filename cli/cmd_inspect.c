/* procmotion inspect FILE: a JSON summary of a VMD. */
#include "cli.h"
#include "procmotion/pmx.h"
#include "procmotion/vmd.h"

#include <stdlib.h>
#include <string.h>

const char cmd_inspect_usage[] =
    "usage: procmotion inspect FILE\n"
    "\n"
    "Print a JSON summary of FILE to stdout.\n"
    "  .vmd: model name, header version, sections present, key counts per section, the distinct bone\n"
    "        and morph names with their key counts, and the last frame.\n"
    "  .pmx / .pmd: the skeleton as JSON (docs/skeleton-json.md): every bone with its position,\n"
    "        parent, flags, append (inherit) settings and IK chain, and the morph names.\n";

static int inspect_model(const char *path, const uint8_t *data, size_t size) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    if (pm_model_read(data, size, NULL, &s, &err) != PM_OK) return cli_fail("inspect", "%s: %s", path, err.message);
    size_t n = 0;
    pm_skeleton_to_json(s, NULL, 0, &n, &err);
    char *text = malloc(n + 1);
    pm_result r = text ? pm_skeleton_to_json(s, text, n + 1, &n, &err) : PM_ERR_OUT_OF_MEMORY;
    pm_skeleton_free(s);
    if (r != PM_OK) {
        free(text);
        return cli_fail("inspect", "%s: %s", path, err.message);
    }
    cJSON *j = cJSON_Parse(text);
    free(text);
    cJSON_AddItemToObject(j, "file", cJSON_CreateString(path));
    cli_print_json(j);
    return 0;
}

static cJSON *name_counts(const pm_vmd_names *names, const uint32_t *index, uint32_t count) {
    uint32_t *n = calloc(names->count ? names->count : 1, sizeof *n);
    for (uint32_t i = 0; i < count; i++) n[index[i]]++;
    cJSON *obj = cJSON_CreateObject();
    for (uint32_t i = 0; i < names->count; i++) cJSON_AddNumberToObject(obj, names->items[i].data, n[i]);
    free(n);
    return obj;
}

static uint32_t max_frame(const uint32_t *frames, uint32_t count, uint32_t m) {
    for (uint32_t i = 0; i < count; i++)
        if (frames[i] > m) m = frames[i];
    return m;
}

static int inspect_vmd(const char *path, const uint8_t *data, size_t size) {
    pm_error err = {0};
    pm_vmd *v = NULL;
    if (pm_vmd_read(data, size, NULL, &v, &err) != PM_OK) return cli_fail("inspect", "%s: %s", path, err.message);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", path);
    cJSON_AddStringToObject(j, "format", "vmd");
    cJSON_AddNumberToObject(j, "version", v->version);
    cJSON_AddStringToObject(j, "modelName", v->model_name.data);
    cJSON_AddNumberToObject(j, "sections", v->sections);
    cJSON *counts = cJSON_AddObjectToObject(j, "counts");
    cJSON_AddNumberToObject(counts, "bone", v->bones.count);
    cJSON_AddNumberToObject(counts, "morph", v->morphs.count);
    cJSON_AddNumberToObject(counts, "camera", v->cameras.count);
    cJSON_AddNumberToObject(counts, "light", v->lights.count);
    cJSON_AddNumberToObject(counts, "selfShadow", v->shadows.count);
    cJSON_AddNumberToObject(counts, "property", v->properties.count);
    uint32_t last = 0;
    last = max_frame(v->bones.frame, v->bones.count, last);
    last = max_frame(v->morphs.frame, v->morphs.count, last);
    last = max_frame(v->cameras.frame, v->cameras.count, last);
    last = max_frame(v->lights.frame, v->lights.count, last);
    last = max_frame(v->shadows.frame, v->shadows.count, last);
    last = max_frame(v->properties.frame, v->properties.count, last);
    cJSON_AddNumberToObject(j, "lastFrame", last);
    cJSON_AddItemToObject(j, "bones", name_counts(&v->bone_names, v->bones.name_index, v->bones.count));
    cJSON_AddItemToObject(j, "morphs", name_counts(&v->morph_names, v->morphs.name_index, v->morphs.count));
    pm_vmd_free(v);
    cli_print_json(j);
    return 0;
}

int cmd_inspect(int argc, char **argv) {
    if (argc != 2) return cli_fail("inspect", "expected one FILE (see procmotion inspect --help)");
    const char *path = argv[1];
    size_t size = 0;
    uint8_t *data = cli_read_file(path, &size);
    if (!data) return 1;
    int rc;
    if (size >= 20 && memcmp(data, "Vocaloid Motion Data", 20) == 0) rc = inspect_vmd(path, data, size);
    else if (size >= 4 && (memcmp(data, "PMX ", 4) == 0 || memcmp(data, "Pmd", 3) == 0))
        rc = inspect_model(path, data, size);
    else rc = inspect_vmd(path, data, size);
    free(data);
    return rc;
}
