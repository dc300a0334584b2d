/* procmotion vrm MODEL [--textures DIR] -o OUT.vrm: a PMX/PMD model as VRM 1.0 (procmotion/vrm.h). */
#include "cli.h"
#include "procmotion/pmx.h"
#include "procmotion/vrm.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char cmd_vrm_usage[] =
    "usage: procmotion vrm MODEL [--textures DIR] [--unlit] [--keep-rest-pose] [META...] -o OUT.vrm\n"
    "\n"
    "Convert MODEL (.pmx or .pmd) to a VRM 1.0 file (glTF 2.0 binary, docs/vrm.md) and print the report as\n"
    "JSON: the humanoid figures (humanoidMapped, humanoidTotal, missingRequiredBones, drivable), the\n"
    "bones, textures (embedded, converted from BMP/TGA, or skipped and why), morph targets and\n"
    "expressions. A model lacking a required humanoid bone fails naming it.\n"
    "\n"
    "  --textures DIR      where the model's texture paths start (default: the model's folder); paths\n"
    "                      match with '\\' as '/' and letter case ignored\n"
    "  --unlit             KHR_materials_unlit instead of VRMC_materials_mtoon\n"
    "  --keep-rest-pose    keep the model's A-pose (no T-pose bake)\n"
    "  META: --name TEXT --version TEXT --authors A[,B...] --copyright TEXT --contact TEXT\n"
    "        --references URL[,URL...] --license-url URL --avatar-permission onlyAuthor|onlySeparatelyLicensedPerson|everyone\n"
    "        --commercial-usage personalNonProfit|personalProfit|corporation --credit-notation required|unnecessary\n"
    "        --modification prohibited|allowModification|allowModificationRedistribution --allow-redistribution yes|no\n"
    "        Nothing is invented: fields not given are left out (authors and licenseUrl, which VRM\n"
    "        requires, become \"unknown\" and the VRM Public License 1.0 URL, and the report says so).\n";

/* dir + "/" + rel with '\\' as '/', each component matched case-insensitively when the exact name
 * is absent. Returns a malloc'd path or NULL. */
static char *resolve_path(const char *dir, const char *rel) {
    size_t cap = strlen(dir) + strlen(rel) + 2;
    char *out = malloc(cap);
    if (!out) return NULL;
    snprintf(out, cap, "%s", dir);
    const char *p = rel;
    while (*p) {
        while (*p == '/' || *p == '\\') p++;
        const char *e = p;
        while (*e && *e != '/' && *e != '\\') e++;
        if (e == p) break;
        size_t n = (size_t)(e - p), at = strlen(out);
        char part[1024];
        if (n >= sizeof part) {
            free(out);
            return NULL;
        }
        memcpy(part, p, n);
        part[n] = '\0';
        snprintf(out + at, cap - at, "/%s", part);
        FILE *f = fopen(out, "rb");
        DIR *d = f ? NULL : opendir(out);
        if (f) fclose(f);
        if (!f && !d) { /* try the component case-insensitively */
            out[at] = '\0';
            DIR *dd = opendir(at ? out : ".");
            struct dirent *de;
            bool found = false;
            while (dd && (de = readdir(dd))) {
                if (strcasecmp(de->d_name, part) == 0) {
                    snprintf(out + at, cap - at, "/%s", de->d_name);
                    found = true;
                    break;
                }
            }
            if (dd) closedir(dd);
            if (!found) snprintf(out + at, cap - at, "/%s", part);
        }
        if (d) closedir(d);
        p = e;
    }
    return out;
}

static char *dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

static char *commas_to_lines(const char *s) {
    char *c = dup(s);
    for (char *p = c; c && *p; p++)
        if (*p == ',') *p = '\n';
    return c;
}

int cmd_vrm(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *tex_dir = NULL;
    pm_vrm_options o = {0};
    char *authors = NULL, *refs = NULL;
    int rc = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(flag, field)                                                                         \
    if (strcmp(a, flag) == 0) {                                                                  \
        if (!v) return cli_fail("vrm", "%s needs a value", flag);                                \
        field = v;                                                                               \
        i++;                                                                                     \
        continue;                                                                                \
    }
        OPT("-o", out)
        OPT("--textures", tex_dir)
        OPT("--name", o.meta.name)
        OPT("--version", o.meta.version)
        OPT("--copyright", o.meta.copyright_information)
        OPT("--contact", o.meta.contact_information)
        OPT("--license-url", o.meta.license_url)
        OPT("--avatar-permission", o.meta.avatar_permission)
        OPT("--commercial-usage", o.meta.commercial_usage)
        OPT("--credit-notation", o.meta.credit_notation)
        OPT("--modification", o.meta.modification)
        OPT("--other-license-url", o.meta.other_license_url)
#undef OPT
        if (strcmp(a, "--authors") == 0 && v) {
            free(authors);
            o.meta.authors = authors = commas_to_lines(v);
            i++;
        } else if (strcmp(a, "--references") == 0 && v) {
            free(refs);
            o.meta.references = refs = commas_to_lines(v);
            i++;
        } else if (strcmp(a, "--allow-redistribution") == 0 && v) {
            o.meta.allow_redistribution = strcmp(v, "yes") == 0 ? 2 : 1;
            i++;
        } else if (strcmp(a, "--unlit") == 0) o.materials = PM_VRM_MATERIALS_UNLIT;
        else if (strcmp(a, "--keep-rest-pose") == 0) o.keep_rest_pose = true;
        else if (a[0] == '-' && a[1]) {
            free(authors), free(refs);
            return cli_fail("vrm", "unknown option %s (see procmotion vrm --help)", a);
        } else if (!in) in = a;
        else {
            free(authors), free(refs);
            return cli_fail("vrm", "expected one MODEL, got %s too", a);
        }
    }
    if (!in || !out) {
        free(authors), free(refs);
        return cli_fail("vrm", "expected MODEL and -o OUT.vrm (see procmotion vrm --help)");
    }
    size_t size = 0;
    uint8_t *data = cli_read_file(in, &size);
    pm_error err = {0};
    pm_model *m = NULL;
    pm_vrm_result *res = NULL;
    pm_vrm_texture *tex = NULL;
    char **paths = NULL;
    uint8_t **blobs = NULL;
    uint32_t nt = 0;
    char dir[4096];
    if (!data) goto done;
    if (pm_model_load(data, size, NULL, &m, &err) != PM_OK) {
        cli_fail("vrm", "%s: %s", in, err.message);
        goto done;
    }
    if (!tex_dir) { /* the model's folder */
        snprintf(dir, sizeof dir, "%s", in);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
        else snprintf(dir, sizeof dir, ".");
        tex_dir = dir;
    }
    tex = calloc(m->texture_count + 1, sizeof *tex);
    paths = calloc(m->texture_count + 1, sizeof *paths);
    blobs = calloc(m->texture_count + 1, sizeof *blobs);
    if (!tex || !paths || !blobs) {
        cli_fail("vrm", "out of memory");
        goto done;
    }
    for (uint32_t t = 0; t < m->texture_count; t++) {
        char *path = resolve_path(tex_dir, m->textures[t].data);
        FILE *f = path ? fopen(path, "rb") : NULL;
        if (!f) {
            free(path);
            continue; /* reported as missing */
        }
        fclose(f);
        size_t n = 0;
        uint8_t *b = cli_read_file(path, &n);
        free(path);
        if (!b) continue;
        blobs[nt] = b;
        paths[nt] = dup(m->textures[t].data);
        tex[nt].path = paths[nt];
        tex[nt].data = b;
        tex[nt].size = n;
        nt++;
    }
    o.textures = tex;
    o.texture_count = nt;
    if (pm_vrm_from_model(m, &o, &res, &err) != PM_OK) {
        cli_fail("vrm", "%s: %s", in, err.message);
        goto done;
    }
    if (!cli_write_file(out, res->glb, res->glb_size)) goto done;
    cJSON *report = cJSON_ParseWithLength(res->report_json, res->report_json_length);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", in);
    cJSON_AddStringToObject(root, "output", out);
    while (report && report->child) {
        cJSON *item = report->child;
        cJSON_AddItemToObject(root, item->string, cJSON_DetachItemViaPointer(report, item));
    }
    cJSON_Delete(report);
    if (strcmp(out, "-") != 0) cli_print_json(root);
    else cJSON_Delete(root);
    rc = 0;
done:
    for (uint32_t t = 0; t < nt; t++) free(blobs[t]), free(paths[t]);
    free(blobs), free(paths), free(tex);
    pm_vrm_result_free(res);
    pm_model_free(m);
    free(data);
    free(authors), free(refs);
    return rc;
}
