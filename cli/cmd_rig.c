/* procmotion rig MODEL: the rig analysis (procmotion/rig.h) as JSON. */
#include "cli.h"
#include "procmotion/pmx.h"
#include "procmotion/rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_rig_usage[] =
    "usage: procmotion rig MODEL\n"
    "\n"
    "Analyse the rig of MODEL (.pmx, .pmd, or a skeleton JSON as `procmotion inspect` writes it) and\n"
    "print JSON (docs/models.md): which bone plays which role (センター, グルーブ, 足ＩＫ, D bones, twist\n"
    "bones ... and the 22 humanoid bones), the IK chains as MMD solves them (target, links, limits,\n"
    "loop count, parents, kind), and the rest geometry: where each IK bone sits relative to its\n"
    "effector, knee bends and what the limits allow, hip-to-ankle reach measured with MMD's CCD,\n"
    "floor height, foot length, hip height, arm lengths and the scale.\n";

int cmd_rig(int argc, char **argv) {
    if (argc != 2) return cli_fail("rig", "expected one MODEL (see procmotion rig --help)");
    size_t size = 0;
    uint8_t *data = cli_read_file(argv[1], &size);
    if (!data) return 1;
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    pm_rig *rig = NULL;
    char *text = NULL;
    size_t n = 0;
    bool json = size > 0 && (data[0] == '{' || data[0] == ' ' || data[0] == '\n' || data[0] == '\t' || data[0] == '\r');
    pm_result r = json ? pm_skeleton_from_json((const char *)data, size, NULL, &sk, &err) : pm_model_read(data, size, NULL, &sk, &err);
    if (r == PM_OK) r = pm_rig_analyze(sk, NULL, &rig, &err);
    if (r == PM_OK) r = pm_rig_to_json(rig, NULL, 0, &n, &err);
    if (r == PM_OK && !(text = malloc(n + 1))) r = PM_ERR_OUT_OF_MEMORY, snprintf(err.message, sizeof err.message, "out of memory");
    if (r == PM_OK) r = pm_rig_to_json(rig, text, n + 1, &n, &err);
    int rc = 0;
    if (r == PM_OK) {
        /* {"file": MODEL, ...the analysis} */
        cJSON *root = cJSON_ParseWithLength(text, n), *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "file", argv[1]);
        while (root && root->child) {
            cJSON *item = root->child;
            const char *key = item->string;
            cJSON_AddItemToObject(out, key, cJSON_DetachItemViaPointer(root, item));
        }
        cJSON_Delete(root);
        cli_print_json(out);
    } else {
        rc = cli_fail("rig", "%s: %s", argv[1], err.message);
    }
    free(text);
    pm_rig_free(rig);
    pm_skeleton_free(sk);
    free(data);
    return rc;
}
