/* procmotion humanoid FILE and procmotion mannequin -o FILE. */
#include "cli.h"
#include "procmotion/bvh.h"
#include "procmotion/gltf.h"
#include "procmotion/humanoid.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_humanoid_usage[] =
    "usage: procmotion humanoid FILE\n"
    "\n"
    "Map the bones of FILE (.pmx, .pmd, .gltf, .glb, .vrm, .bvh) to the 22 humanoid bones and print JSON:\n"
    "the bone found for each (with the naming table that matched), humanoidMapped / humanoidTotal,\n"
    "the missing required bones (16 are required) and whether the model is drivable.\n";

const char cmd_mannequin_usage[] =
    "usage: procmotion mannequin -o FILE.pmx\n"
    "\n"
    "Write the built-in mannequin, a licence-free PMX 2.0 model with the semi-standard MMD bones,\n"
    "IK legs and the morphs まばたき, あ, 笑い (see docs/models.md).\n";

int cmd_humanoid(int argc, char **argv) {
    if (argc != 2) return cli_fail("humanoid", "expected one FILE (see procmotion humanoid --help)");
    size_t size = 0;
    uint8_t *data = cli_read_file(argv[1], &size);
    if (!data) return 1;
    pm_error err = {0};
    pm_humanoid_map map;
    const char **names = NULL;
    uint32_t count = 0;
    pm_skeleton *skel = NULL;
    pm_name_list *list = NULL;
    pm_bvh *bvh = NULL;
    int rc = 0;
    if (size >= 4 && (memcmp(data, "PMX ", 4) == 0 || memcmp(data, "Pmd", 3) == 0)) {
        if (pm_model_read(data, size, NULL, &skel, &err) != PM_OK) {
            rc = cli_fail("humanoid", "%s: %s", argv[1], err.message);
            goto done;
        }
        count = skel->bone_count;
        names = malloc(sizeof *names * (count ? count : 1));
        for (uint32_t i = 0; i < count; i++) names[i] = skel->bones[i].name.data;
    } else if (size >= 9 && memcmp(data, "HIERARCHY", 9) == 0) {
        if (pm_bvh_read(data, size, NULL, &bvh, &err) != PM_OK) {
            rc = cli_fail("humanoid", "%s: %s", argv[1], err.message);
            goto done;
        }
        names = malloc(sizeof *names * (bvh->joint_count ? bvh->joint_count : 1));
        for (uint32_t i = 0; i < bvh->joint_count; i++)
            if (!bvh->joints[i].end_site) names[count++] = bvh->joints[i].name.data;
    } else {
        if (pm_gltf_node_names(data, size, NULL, &list, &err) != PM_OK) {
            rc = cli_fail("humanoid", "%s: %s", argv[1], err.message);
            goto done;
        }
        count = list->count;
        names = malloc(sizeof *names * (count ? count : 1));
        for (uint32_t i = 0; i < count; i++) names[i] = list->names[i];
    }
    if (pm_humanoid_map_names(names, count, &map, &err) != PM_OK) {
        rc = cli_fail("humanoid", "%s: %s", argv[1], err.message);
        goto done;
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", argv[1]);
    cJSON_AddNumberToObject(j, "boneCount", count);
    cJSON *bones = cJSON_AddObjectToObject(j, "bones");
    for (int b = 0; b < PM_HUMANOID_BONE_COUNT; b++) {
        if (map.bone[b] == PM_NO_INDEX) {
            cJSON_AddNullToObject(bones, pm_humanoid_bone_name((pm_humanoid_bone)b));
            continue;
        }
        cJSON *e = cJSON_AddObjectToObject(bones, pm_humanoid_bone_name((pm_humanoid_bone)b));
        cJSON_AddStringToObject(e, "name", names[map.bone[b]]);
        cJSON_AddStringToObject(e, "naming", pm_rig_naming_name(map.naming[b]));
    }
    cJSON_AddNumberToObject(j, "humanoidMapped", map.mapped);
    cJSON_AddNumberToObject(j, "humanoidTotal", map.total);
    cJSON *missing = cJSON_AddArrayToObject(j, "missingRequired");
    for (uint32_t k = 0; k < map.missing_required_count; k++)
        cJSON_AddItemToArray(missing, cJSON_CreateString(pm_humanoid_bone_name(map.missing_required[k])));
    cJSON_AddBoolToObject(j, "drivable", map.drivable);
    cli_print_json(j);
done:
    free(names);
    pm_skeleton_free(skel);
    pm_name_list_free(list);
    pm_bvh_free(bvh);
    free(data);
    return rc;
}

int cmd_mannequin(int argc, char **argv) {
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc) out = argv[++i];
        else return cli_fail("mannequin", "unknown argument '%s' (see procmotion mannequin --help)", argv[i]);
    }
    if (!out) return cli_fail("mannequin", "missing -o FILE.pmx");
    pm_error err = {0};
    size_t n = 0;
    if (pm_mannequin_pmx(NULL, NULL, 0, &n, &err) != PM_OK) return cli_fail_error("mannequin", &err);
    uint8_t *buf = malloc(n);
    if (!buf || pm_mannequin_pmx(NULL, buf, n, &n, &err) != PM_OK) {
        free(buf);
        return cli_fail_error("mannequin", &err);
    }
    bool ok = cli_write_file(out, buf, n);
    free(buf);
    if (ok) fprintf(stderr, "procmotion mannequin: wrote %s (%zu bytes)\n", out, n);
    return ok ? 0 : 1;
}
