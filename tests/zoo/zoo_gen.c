/* zoo_gen DIR: write every zoo model (DIR/<id>.pmx or .pmd) and the manifest DIR/zoo.json that the
 * Node and browser tests read (tests/node/support/zoo.mjs). Run by the native build (CMake target
 * zoo_files), so build/native/zoo/ always matches the sources. See zoo.h and docs/zoo.md. */
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pair(FILE *f, const char *key, const float v[2], const char *sep) {
    fprintf(f, "\"%s\": [%.9g, %.9g]%s", key, v[0], v[1], sep);
}

static void names(FILE *f, const char *key, const char *const *list, int n, const char *sep) {
    fprintf(f, "\"%s\": [", key);
    for (int i = 0; i < n; i++) fprintf(f, "%s\"%s\"", i ? ", " : "", list[i]);
    fprintf(f, "]%s", sep);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: zoo_gen DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/zoo.json", dir);
    FILE *manifest = fopen(path, "wb");
    if (!manifest) {
        fprintf(stderr, "zoo_gen: cannot write %s\n", path);
        return 1;
    }
    fprintf(manifest, "{\n  \"about\": \"procmotion test zoo, written by tests/zoo/zoo_gen.c (docs/zoo.md)\",\n  \"models\": [\n");
    int status = 0;
    for (size_t i = 0; i < pm_zoo_count() && !status; i++) {
        const pm_zoo_model *m = pm_zoo_at(i);
        const char *ext = m->format == PM_MODEL_FORMAT_PMD ? "pmd" : "pmx";
        pm_error err = {0};
        uint8_t *bytes = NULL;
        size_t size = 0;
        pm_zoo_figures x;
        if (pm_zoo_file(m, &bytes, &size, &err) != PM_OK || pm_zoo_expected(m, &x, &err) != PM_OK) {
            fprintf(stderr, "zoo_gen: %s: %s\n", m->id, err.message);
            status = 1;
            break;
        }
        char file[64]; /* knee31.pmx, knee31.pmd (the id "knee31-pmd") */
        size_t stem = strlen(m->id);
        if (stem > 4 && strcmp(m->id + stem - 4, "-pmd") == 0) stem -= 4;
        snprintf(file, sizeof file, "%.*s.%s", (int)stem, m->id, ext);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, size, f) != size) status = 1;
        if (f && fclose(f) != 0) status = 1;
        free(bytes);
        if (status) {
            fprintf(stderr, "zoo_gen: cannot write %s\n", path);
            break;
        }
        const pm_zoo_edits *e = &m->edits;
        const char *present[12], *absent[2], *ik[6];
        int np = 0, na = 0, nik = 0;
        ik[nik++] = "左足ＩＫ", ik[nik++] = "右足ＩＫ", ik[nik++] = "左つま先ＩＫ", ik[nik++] = "右つま先ＩＫ";
        if (e->ik_parent) present[np++] = "左足IK親", present[np++] = "右足IK親";
        if (e->waist_cancel) present[np++] = "腰キャンセル左", present[np++] = "腰キャンセル右";
        if (e->d_bones) {
            present[np++] = "左足D", present[np++] = "左ひざD", present[np++] = "左足首D", present[np++] = "左足先EX";
            present[np++] = "右足D", present[np++] = "右ひざD";
            ik[nik++] = "左ひざDIK", ik[nik++] = "右ひざDIK";
        }
        if (e->no_groove) absent[na++] = "グルーブ";
        if (e->no_upper2) absent[na++] = "上半身2";
        fprintf(manifest, "    {\"id\": \"%s\", \"file\": \"%s\", \"format\": \"%s\", \"bytes\": %zu,\n", m->id, file, ext, size);
        fprintf(manifest, "     \"description\": \"%s\",\n     \"expect\": {", m->description);
        pair(manifest, "kneeBendDeg", x.knee_bend_deg, ", ");
        pair(manifest, "armDeg", x.arm_deg, ", ");
        fprintf(manifest, "\"ikOffset\": [[%.9g, %.9g, %.9g], [%.9g, %.9g, %.9g]], ", x.ik_offset[0].x, x.ik_offset[0].y,
                x.ik_offset[0].z, x.ik_offset[1].x, x.ik_offset[1].y, x.ik_offset[1].z);
        pair(manifest, "ankleY", x.ankle_y, ", ");
        pair(manifest, "hipY", x.hip_y, ", ");
        pair(manifest, "leg", x.leg, ", ");
        fprintf(manifest, "\"headY\": %.9g, \"scale\": %.9g,\n                ", x.head_y, e->scale != 0 ? e->scale : 1.0);
        names(manifest, "present", present, np, ", ");
        names(manifest, "absent", absent, na, ", ");
        names(manifest, "ikBones", ik, nik, "");
        fprintf(manifest, "}}%s\n", i + 1 < pm_zoo_count() ? "," : "");
    }
    fprintf(manifest, "  ]\n}\n");
    if (fclose(manifest) != 0) status = 1;
    return status;
}
