/* procmotion trace TIMELINE.json [--model M] -o OUT.vmd [--bpm B]: bake a tracing timeline to a VMD. */
#include "cli.h"
#include "beats/grid.h"
#include "tracing/report.h"
#include "procmotion/mannequin.h"
#include "procmotion/tracing.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_trace_usage[] =
    "usage: procmotion trace TIMELINE.json [--model MODEL.pmx] -o OUT.vmd [--bpm BPM] [--beats BEATS.json]\n"
    "                        [--offset S]\n"
    "\n"
    "Bake a tracing timeline (the JSON that Timeline.toJSON() writes; schema in docs/tracing.md) to a\n"
    "30 fps VMD for MODEL (default: the built-in mannequin). Traced hands and feet get a key on every\n"
    "frame of their traced segments, solved on MODEL so the wrist or ankle stays on its path; other bones\n"
    "get one key per keyframe. A traced foot on a model with 足ＩＫ keys the IK bone (leg IK stays on).\n"
    "--bpm overrides the timeline's tempo. --beats puts keyframe beat b on beat b of `procmotion beats`\n"
    "output (the song's offset and tempo drift); --offset: seconds of beat 0 (with the tempo), or a shift\n"
    "of --beats' times; the summary's sync says how far each keyframe is from its beat (frames).\n"
    "Prints a JSON summary to stdout.\n";

int cmd_trace(int argc, char **argv) {
    const char *json_path = NULL, *model_path = NULL, *out_path = NULL, *bpm_arg = NULL, *beats_path = NULL, *offset_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--model") == 0 && i + 1 < argc) model_path = argv[++i];
        else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(a, "--bpm") == 0 && i + 1 < argc) bpm_arg = argv[++i];
        else if (strcmp(a, "--beats") == 0 && i + 1 < argc) beats_path = argv[++i];
        else if (strcmp(a, "--offset") == 0 && i + 1 < argc) offset_arg = argv[++i];
        else if (a[0] != '-' && !json_path) json_path = a;
        else return cli_fail("trace", "unknown argument '%s' (see procmotion trace --help)", a);
    }
    if (!json_path) return cli_fail("trace", "missing TIMELINE.json");
    if (!out_path) return cli_fail("trace", "missing -o OUT.vmd");
    double bpm = 0;
    if (bpm_arg && (!cli_parse_double(bpm_arg, &bpm) || !(bpm > 0)))
        return cli_fail("trace", "--bpm must be a positive number, got '%s'", bpm_arg);

    int rc = 1;
    pm_error err = {0};
    size_t jsize = 0, vsize = 0;
    uint8_t *jdata = cli_read_file(json_path, &jsize), *vbytes = NULL;
    pm_skeleton *skel = NULL;
    pm_timeline *tl = NULL;
    pm_vmd *vmd = NULL;
    double *grid_beats = NULL;
    pm_trace_plan plan;
    memset(&plan, 0, sizeof plan);
    if (!jdata) goto done;
    if (model_path) {
        if (!cli_read_skeleton("trace", model_path, &skel)) goto done;
    } else if (pm_mannequin_skeleton(NULL, &skel, &err) != PM_OK) {
        cli_fail_error("trace", &err);
        goto done;
    }
    if (pm_timeline_from_json((const char *)jdata, jsize, skel, NULL, &tl, &err) != PM_OK) {
        cli_fail("trace", "%s: %s", json_path, err.message);
        goto done;
    }
    pm_timeline_bake_options opts = {0};
    opts.bpm = bpm;
    if (!cli_read_grid("trace", beats_path, offset_arg, bpm > 0 ? bpm : pm_timeline_bpm(tl), &opts.grid, &grid_beats)) goto done;
    pm_landing_report rep;
    if (pm_timeline_bake_plan(tl, &opts, &vmd, &plan, &rep, &err) != PM_OK || pm_vmd_write(vmd, NULL, 0, &vsize, &err) != PM_OK ||
        !(vbytes = malloc(vsize ? vsize : 1)) || pm_vmd_write(vmd, vbytes, vsize, &vsize, &err) != PM_OK) {
        cli_fail_error("trace", &err);
        goto done;
    }
    if (!cli_write_file(out_path, vbytes, vsize)) goto done;
    uint32_t last = 0;
    for (uint32_t i = 0; i < vmd->bones.count; i++)
        if (vmd->bones.frame[i] > last) last = vmd->bones.frame[i];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "output", out_path);
    cJSON_AddStringToObject(j, "model", model_path ? model_path : "(built-in mannequin)");
    cJSON_AddNumberToObject(j, "bpm", bpm > 0 ? bpm : pm_timeline_bpm(tl));
    cJSON_AddNumberToObject(j, "keyframes", pm_timeline_keyframe_count(tl));
    cJSON_AddNumberToObject(j, "boneKeys", vmd->bones.count);
    cJSON_AddNumberToObject(j, "bones", vmd->bone_names.count);
    cJSON_AddNumberToObject(j, "lastFrame", last);
    cJSON_AddNumberToObject(j, "bytes", (double)vsize);
    bool ok = true; /* the bake played and measured against its plan (docs/landing.md) */
    pmi_trace_report_json(j, "report", &rep, skel, &ok);
    if (plan.synced) pmi_beat_sync_json(j, "sync", &plan.sync, &ok);
    else cJSON_AddNullToObject(j, "sync");
    cli_print_json(j);
    rc = 0;
done:
    pm_vmd_free(vmd);
    pm_timeline_free(tl);
    pm_skeleton_free(skel);
    free(vbytes);
    free(jdata);
    free(grid_beats);
    pm_trace_plan_free(&plan);
    return rc;
}
