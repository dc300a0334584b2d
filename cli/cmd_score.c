/* procmotion score: a performance's keypoints scored against a reference motion (JSON on stdout). */
#include "cli.h"
#include "procmotion/keypoints.h"
#include "procmotion/scoring.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double round3(double v) { return round(v * 1000) / 1000; }

const char cmd_score_usage[] =
    "usage: procmotion score REFERENCE PERFORMANCE [--model M] [--mirrored] [--band B] [--max-offset S] [--fps N]\n"
    "                        [--per-frame]\n"
    "\n"
    "Score a dance against a reference, 0 to 100 (docs/scoring.md): both are turned into MediaPipe Pose\n"
    "keypoints (VMD, BVH, FBX, glTF/GLB, keypoint JSON, NDJSON or .kpb), aligned in time (DTW) and compared\n"
    "pose by pose. Prints JSON: the score, where the performance starts, each part's score and timing.\n"
    "\n"
    "  --model FILE        play a VMD reference or performance on this PMX/PMD model (default: the mannequin)\n"
    "  --mirrored          the performance is mirrored (a selfie camera)\n"
    "  --band B            tempo drift allowed, 0..1 (default 0.35)\n"
    "  --max-offset S      seconds the performance may start late (default 5)\n"
    "  --fps N             read BVH, FBX and glTF motion at N frames per second (default 30)\n"
    "  --per-frame         also print every reference frame's score and matched performance frame\n";

static pm_kp_sequence *read_sequence(const char *path, const uint8_t *model, size_t model_size, double fps) {
    size_t size = 0;
    uint8_t *data = cli_read_file(path, &size);
    if (!data) return NULL;
    pm_kp_options o = {.fps = fps};
    if (pm_kp_detect_format(data, size) == PM_KP_FORMAT_VMD) o.model = model, o.model_size = model_size;
    pm_kp_sequence *s = NULL;
    pm_error err = {0};
    if (pm_kp_from_data(data, size, PM_KP_FORMAT_AUTO, &o, &s, &err) != PM_OK) cli_fail("score", "%s: %s", path, err.message);
    free(data);
    return s;
}

int cmd_score(int argc, char **argv) {
    const char *paths[2] = {NULL, NULL}, *model_path = NULL;
    pm_score_options o = {0};
    bool per_frame = false;
    double fps = 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            if (paths[1]) return cli_fail("score", "two files (reference, performance), got a third: '%s'", a), 2;
            paths[paths[0] ? 1 : 0] = a;
            continue;
        }
        if (strcmp(a, "--mirrored") == 0) {
            o.mirrored = true;
            continue;
        }
        if (strcmp(a, "--per-frame") == 0) {
            per_frame = true;
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v) return cli_fail("score", "%s needs a value (see procmotion score --help)", a), 2;
        double d = 0;
        if (strcmp(a, "--model") == 0) model_path = v;
        else if (strcmp(a, "--fps") == 0) {
            if (!cli_parse_double(v, &d) || d < 1 || d > 1000) return cli_fail("score", "--fps must be a number in 1..1000, got '%s'", v), 2;
            fps = d;
        }
        else if (strcmp(a, "--band") == 0) {
            if (!cli_parse_double(v, &d) || d <= 0 || d > 1) return cli_fail("score", "--band must be a number in (0, 1], got '%s'", v), 2;
            o.band = d;
        } else if (strcmp(a, "--max-offset") == 0) {
            if (!cli_parse_double(v, &d) || d < 0 || d > 3600) return cli_fail("score", "--max-offset must be seconds in 0..3600, got '%s'", v), 2;
            o.max_offset = d > 0 ? d : -1; /* 0 asks for no late start (the options' 0 is the default) */
        } else {
            return cli_fail("score", "unknown option '%s' (see procmotion score --help)", a), 2;
        }
    }
    if (!paths[1]) return cli_fail("score", "needs a reference and a performance (see procmotion score --help)"), 2;
    int rc = 1;
    size_t model_size = 0;
    uint8_t *model = NULL;
    pm_kp_sequence *ref = NULL, *perf = NULL;
    pm_score_result *r = NULL;
    pm_error err = {0};
    if (model_path && !(model = cli_read_file(model_path, &model_size))) goto done;
    if (!(ref = read_sequence(paths[0], model, model_size, fps)) || !(perf = read_sequence(paths[1], model, model_size, fps))) goto done;
    if (pm_score_dance(ref, perf, &o, &r, &err) != PM_OK) {
        rc = cli_fail_error("score", &err);
        goto done;
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "score", round3(r->score));
    cJSON_AddNumberToObject(j, "offset", round3(r->offset_seconds));
    cJSON_AddNumberToObject(j, "fps", r->fps);
    cJSON_AddBoolToObject(j, "resampled", r->resampled);
    cJSON_AddNumberToObject(j, "frames", r->frame_count);
    cJSON_AddNumberToObject(j, "performanceFrames", perf->frame_count);
    cJSON *joints = cJSON_AddObjectToObject(j, "joints");
    for (uint32_t p = 0; p < PM_SCORE_PART_COUNT; p++) {
        cJSON *part = cJSON_AddObjectToObject(joints, pm_score_part_name(p));
        cJSON_AddNumberToObject(part, "score", round3(r->part_score[p]));
        cJSON_AddNumberToObject(part, "lag", round3(r->part_lag[p]));
    }
    if (per_frame) {
        cJSON *scores = cJSON_AddArrayToObject(j, "perFrame"), *match = cJSON_AddArrayToObject(j, "match");
        for (uint32_t i = 0; i < r->frame_count; i++) {
            cJSON_AddItemToArray(scores, cJSON_CreateNumber(round3(r->per_frame[i])));
            cJSON_AddItemToArray(match, cJSON_CreateNumber(r->match[i]));
        }
    }
    cli_print_json(j);
    rc = 0;
done:
    pm_score_result_free(r);
    pm_kp_free(ref);
    pm_kp_free(perf);
    free(model);
    return rc;
}
