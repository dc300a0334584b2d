/* procmotion pose --model M --vmd V (--frame F | --frames A:B[:STEP]): bone world positions as JSON. */
#include "cli.h"
#include "procmotion/pose.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_pose_usage[] =
    "usage: procmotion pose --model MODEL.pmx --vmd MOTION.vmd (--frame F | --frames A:B[:STEP]) [--no-ik]\n"
    "\n"
    "Evaluate MOTION on MODEL as babylon-mmd does (Bezier channels, slerp, append transforms, MMD CCD IK\n"
    "with limits, IK on/off property keys) and print JSON: the bone names and, per frame, the world\n"
    "position of every bone (x, y, z in MMD units). Frames may be fractional; A:B is inclusive, STEP\n"
    "defaults to 1. Without --vmd the rest pose is evaluated.\n";

static void print_json_string(const char *text) {
    cJSON *s = cJSON_CreateString(text);
    char *t = cJSON_PrintUnformatted(s);
    fputs(t ? t : "\"\"", stdout);
    cJSON_free(t);
    cJSON_Delete(s);
}

int cmd_pose(int argc, char **argv) {
    const char *model_path = NULL, *vmd_path = NULL, *frame_arg = NULL, *frames_arg = NULL;
    bool no_ik = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--model") == 0 && i + 1 < argc) model_path = argv[++i];
        else if (strcmp(a, "--vmd") == 0 && i + 1 < argc) vmd_path = argv[++i];
        else if (strcmp(a, "--frame") == 0 && i + 1 < argc) frame_arg = argv[++i];
        else if (strcmp(a, "--frames") == 0 && i + 1 < argc) frames_arg = argv[++i];
        else if (strcmp(a, "--no-ik") == 0) no_ik = true;
        else return cli_fail("pose", "unknown argument '%s' (see procmotion pose --help)", a);
    }
    if (!model_path) return cli_fail("pose", "missing --model MODEL.pmx");
    double first = 0, last = 0, step = 1;
    if (frame_arg && frames_arg) return cli_fail("pose", "give --frame or --frames, not both");
    if (frame_arg) {
        if (!cli_parse_double(frame_arg, &first) || !isfinite(first))
            return cli_fail("pose", "--frame must be a number, got '%s'", frame_arg);
        last = first;
    } else if (frames_arg) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", frames_arg);
        char *b = strchr(buf, ':');
        char *c = b ? strchr(b + 1, ':') : NULL;
        if (!b) return cli_fail("pose", "--frames must be A:B or A:B:STEP, got '%s'", frames_arg);
        *b = '\0';
        if (c) *c = '\0';
        if (!cli_parse_double(buf, &first) || !cli_parse_double(b + 1, &last) || (c && !cli_parse_double(c + 1, &step)) ||
            !isfinite(first) || !isfinite(last) || !(step > 0) || last < first)
            return cli_fail("pose", "--frames must be A:B[:STEP] with A <= B and STEP > 0, got '%s'", frames_arg);
        if ((last - first) / step > 100000) return cli_fail("pose", "--frames spans more than 100 000 frames");
    }

    int rc = 1;
    pm_error err = {0};
    size_t vsize = 0;
    uint8_t *vdata = NULL;
    pm_skeleton *skel = NULL;
    pm_vmd *vmd = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    if (!cli_read_skeleton("pose", model_path, &skel)) goto done;
    if (vmd_path) {
        if (!(vdata = cli_read_file(vmd_path, &vsize))) goto done;
        if (pm_vmd_read(vdata, vsize, NULL, &vmd, &err) != PM_OK ||
            pm_anim_bind(skel, vmd, NULL, &anim, &err) != PM_OK) {
            cli_fail("pose", "%s: %s", vmd_path, err.message);
            goto done;
        }
    }
    if (pm_pose_workspace_create(skel, NULL, &ws, &err) != PM_OK || pm_pose_create(skel, NULL, &pose, &err) != PM_OK) {
        cli_fail_error("pose", &err);
        goto done;
    }
    pm_pose_options opts = {0};
    if (no_ik) opts.flags |= PM_POSE_NO_IK;
    printf("{\"model\":");
    print_json_string(model_path);
    printf(",\"bones\":[");
    for (uint32_t b = 0; b < skel->bone_count; b++) {
        if (b) putchar(',');
        print_json_string(skel->bones[b].name.data);
    }
    printf("],\"frames\":[");
    long count = (long)floor((last - first) / step + 1e-9) + 1;
    for (long k = 0; k < count; k++) {
        double f = first + step * (double)k;
        if (pm_pose_evaluate(anim, ws, f, pose, &opts, &err) != PM_OK) {
            printf("]}\n");
            cli_fail_error("pose", &err);
            goto done;
        }
        printf("%s\n{\"frame\":%.6g,\"positions\":[", k ? "," : "", f);
        for (uint32_t b = 0; b < skel->bone_count; b++) {
            const float *m = pose->world[b].m;
            printf("%s[%.6g,%.6g,%.6g]", b ? "," : "", m[12], m[13], m[14]);
        }
        printf("]}");
    }
    printf("]}\n");
    rc = 0;
done:
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(vmd);
    pm_skeleton_free(skel);
    free(vdata);
    return rc;
}
