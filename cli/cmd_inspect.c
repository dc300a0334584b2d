/* procmotion inspect FILE: a JSON summary of a VMD. */
#include "cli.h"
#include "procmotion/pmx.h"
#include "procmotion/text.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_inspect_usage[] =
    "usage: procmotion inspect FILE\n"
    "\n"
    "Print a JSON summary of FILE to stdout.\n"
    "  .vmd: model name, header version, sections present, key counts per section, the distinct bone\n"
    "        and morph names with their key counts, and the last frame.\n"
    "  .pmx / .pmd: the skeleton as JSON (docs/formats.md): every bone with its position,\n"
    "        parent, flags, append (inherit) settings and IK chain, and the morph names.\n"
    "A name whose bytes do not decode cleanly (a name MMD cut inside a double-byte character, bytes\n"
    "that are not Shift-JIS, UTF-16 with an unpaired surrogate) shows as U+FFFD; \"damagedNames\" lists\n"
    "each with its bytes in hex, and in the VMD key counts its text is followed by them: \"name <hex>\".\n";

/* "83 77 83 62" */
static void hex_bytes(const uint8_t *p, size_t n, char *out, size_t cap) {
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && at + 4 <= cap; i++) at += (size_t)snprintf(out + at, cap - at, i ? " %02X" : "%02X", p[i]);
}

static bool damaged(const char *text) { return strstr(text, "\xEF\xBF\xBD") != NULL; }

/* {"section": ..., "name": text, "bytes": hex} appended to list (index: the bone or morph, or -1). */
static cJSON *add_damaged(cJSON *list, const char *section, long index, const char *text, const uint8_t *bytes, size_t n) {
    char hex[3 * 256 + 1];
    hex_bytes(bytes, n, hex, sizeof hex);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "section", section);
    if (index >= 0) cJSON_AddNumberToObject(o, "index", (double)index);
    cJSON_AddStringToObject(o, "name", text);
    cJSON_AddStringToObject(o, "bytes", hex);
    cJSON_AddItemToArray(list, o);
    return o;
}

static int inspect_model(const char *path, const uint8_t *data, size_t size) {
    pm_error err = {0};
    pm_skeleton *s = NULL;
    if (pm_model_read(data, size, NULL, &s, &err) != PM_OK) return cli_fail("inspect", "%s: %s", path, err.message);
    size_t n = 0;
    pm_skeleton_to_json(s, NULL, 0, &n, &err);
    char *text = malloc(n + 1);
    pm_result r = text ? pm_skeleton_to_json(s, text, n + 1, &n, &err) : PM_ERR_OUT_OF_MEMORY;
    if (r != PM_OK) {
        pm_skeleton_free(s);
        free(text);
        return cli_fail("inspect", "%s: %s", path, err.message);
    }
    cJSON *j = cJSON_Parse(text);
    free(text);
    cJSON_AddItemToObject(j, "file", cJSON_CreateString(path));
    /* texts the file stored in a form their UTF-8 does not give back (a PMD field: its bytes before NUL) */
    static const struct {
        pm_model_text which;
        const char *section;
    } kinds[] = {{PM_MODEL_TEXT_MODEL_NAME, "model"},      {PM_MODEL_TEXT_MODEL_NAME_EN, "modelEn"},
                 {PM_MODEL_TEXT_COMMENT, "comment"},       {PM_MODEL_TEXT_COMMENT_EN, "commentEn"},
                 {PM_MODEL_TEXT_BONE_NAME, "bone"},        {PM_MODEL_TEXT_BONE_NAME_EN, "boneEn"},
                 {PM_MODEL_TEXT_MORPH_NAME, "morph"}};
    cJSON *list = cJSON_CreateArray();
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const bool indexed = kinds[k].which >= PM_MODEL_TEXT_BONE_NAME; /* per bone or per morph */
        const uint32_t n = !indexed ? 1 : kinds[k].which == PM_MODEL_TEXT_MORPH_NAME ? s->morph_count : s->bone_count;
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *raw = NULL;
            size_t size = 0;
            uint8_t enc = 0;
            if (!pm_model_raw_text(s, kinds[k].which, i, &raw, &size, &enc)) continue;
            if (enc == 2) size = pm_sjis_field_length(raw, size);
            add_damaged(list, kinds[k].section, indexed ? (long)i : -1,
                        pm_model_text_of(s, kinds[k].which, i)->data, raw, size);
        }
    }
    pm_skeleton_free(s);
    cJSON_AddItemToObject(j, "damagedNames", list);
    cli_print_json(j);
    return 0;
}

/* Key counts per name; a damaged name is "text <hex bytes>" there and in `damaged_list` too. */
static cJSON *name_counts(const pm_vmd_names *names, size_t width, const uint32_t *index, uint32_t count,
                          const char *section, cJSON *damaged_list) {
    uint32_t *n = calloc(names->count ? names->count : 1, sizeof *n);
    for (uint32_t i = 0; i < count; i++) n[index[i]]++;
    cJSON *obj = cJSON_CreateObject();
    for (uint32_t i = 0; i < names->count; i++) {
        const char *text = names->items[i].data;
        if (!damaged(text) || !names->fields) {
            cJSON_AddNumberToObject(obj, text, n[i]);
            continue;
        }
        const uint8_t *f = names->fields + (size_t)i * width;
        cJSON *d = add_damaged(damaged_list, section, -1, text, f, pm_sjis_field_length(f, width));
        cJSON_AddNumberToObject(d, "keys", n[i]);
        char key[256];
        snprintf(key, sizeof key, "%s <%s>", text, cJSON_GetObjectItem(d, "bytes")->valuestring);
        cJSON_AddNumberToObject(obj, key, n[i]);
    }
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
    cJSON *list = cJSON_CreateArray();
    if (damaged(v->model_name.data))
        add_damaged(list, "model", -1, v->model_name.data, v->model_field,
                    pm_sjis_field_length(v->model_field, v->version == 1 ? 10 : PM_VMD_MODEL_NAME_SIZE));
    cJSON_AddItemToObject(j, "bones", name_counts(&v->bone_names, PM_VMD_BONE_NAME_SIZE, v->bones.name_index,
                                                  v->bones.count, "bone", list));
    cJSON_AddItemToObject(j, "morphs", name_counts(&v->morph_names, PM_VMD_BONE_NAME_SIZE, v->morphs.name_index,
                                                   v->morphs.count, "morph", list));
    /* IK names have no counts in the summary: their damaged ones are listed */
    cJSON_Delete(name_counts(&v->ik_names, PM_VMD_IK_NAME_SIZE, v->properties.ik_name_index, v->properties.ik_count,
                             "ik", list));
    cJSON_AddItemToObject(j, "damagedNames", list);
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
