/* procmotion idle: write a character standing at ease as a looping VMD. */
#include "cli.h"
#include "idle/info.h"
#include "procmotion/idle.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_idle_usage[] =
    "usage: procmotion idle [options] -o idle.vmd\n"
    "\n"
    "Write a looping idle (weight shifts, breathing, looking around, relaxed arms, small gestures) as a\n"
    "VMD and print a JSON summary to stdout: loop length, events, bones used and missing, and, on a\n"
    "model or the built-in mannequin, what MMD plays (the feet's landing report, the body's figures).\n"
    "Amounts are 0..1 unless stated.\n"
    "\n"
    "  -o, --output FILE      where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --model FILE           a PMX/PMD model: its bones, proportions and blink morph; the feet are\n"
    "                         landed on it (without a model: on the built-in mannequin)\n"
    "  --params FILE          read parameters from a JSON file (the JS glue's names); flags override\n"
    "  --bpm N                weight shifts and gestures on the beats (40..240; default: none)\n"
    "  --beats FILE           the tempo and downbeat phase of `procmotion beats` output\n"
    "  --offset S             seconds of the first beat with --bpm, or a shift of --beats' times\n"
    "  --seed N               what happens when (default 1)\n"
    "  --intensity X (0.5)  --speed X (0.25..3, 1)  --body-sway X (0.5)  --head-movement X (0.5)\n"
    "  --gestures X (gesture frequency, 0.5)  --duration S (30..300, 32)  --blink X (1)\n";

#define AF(flag, field) {flag, offsetof(pm_idle_params, field)}
static const cli_amount_flag AMOUNT_FLAGS[] = {
    AF("--intensity", intensity), AF("--speed", speed), AF("--body-sway", body_sway), AF("--head-movement", head_movement),
    AF("--gestures", gesture_frequency), AF("--duration", duration), AF("--blink", blink),
};
#define AMOUNT_FLAG_COUNT (sizeof AMOUNT_FLAGS / sizeof AMOUNT_FLAGS[0])

int cmd_idle(int argc, char **argv) {
    pm_idle_params p, flags;
    memset(&p, 0, sizeof p);
    memset(&flags, 0, sizeof flags);
    bool set_bpm = false, set_seed = false;
    const char *output = NULL, *model_path = NULL, *params_path = NULL, *beats_path = NULL, *offset_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--model") == 0 || strcmp(a, "--params") == 0 ||
            strcmp(a, "--beats") == 0 || strcmp(a, "--offset") == 0) {
            if (!v) return cli_fail("idle", "%s needs a value", a), 2;
            if (a[1] == 'o' || strcmp(a, "--output") == 0) output = v;
            else if (strcmp(a, "--model") == 0) model_path = v;
            else if (strcmp(a, "--params") == 0) params_path = v;
            else if (strcmp(a, "--beats") == 0) beats_path = v;
            else offset_arg = v;
            i++;
            continue;
        }
        const cli_amount_flag *af = cli_find_amount(AMOUNT_FLAGS, AMOUNT_FLAG_COUNT, a);
        if (!af && strcmp(a, "--bpm") != 0 && strcmp(a, "--seed") != 0)
            return cli_fail("idle", "unknown option '%s' (see procmotion idle --help)", a), 2;
        if (!v) return cli_fail("idle", "%s needs a value", a), 2;
        if (!cli_parse_double(v, &d)) return cli_fail("idle", "%s: '%s' is not a number", a, v), 2;
        i++;
        if (af) *(pm_amount *)((char *)&flags + af->offset) = PM_AMOUNT(d);
        else if (strcmp(a, "--bpm") == 0) flags.bpm = (float)d, set_bpm = true;
        else {
            if (d < 0 || d > 4294967295.0 || d != (double)(uint32_t)d) return cli_fail("idle", "--seed must be a whole number in 0..4294967295"), 2;
            flags.seed = (uint32_t)d, set_seed = true;
        }
    }
    if (!output) return cli_fail("idle", "no output file (-o idle.vmd)"), 2;
    pm_error err = {0};
    if (params_path) {
        size_t size = 0;
        uint8_t *text = cli_read_file(params_path, &size);
        if (!text) return 1;
        pm_result r = pm_idle_params_from_json((const char *)text, size, &p, &err);
        free(text);
        if (r) return cli_fail("idle", "%s: %s", params_path, err.message);
    }
    if (set_bpm) p.bpm = flags.bpm;
    if (set_seed) p.seed = flags.seed;
    cli_merge_amounts(AMOUNT_FLAGS, AMOUNT_FLAG_COUNT, &flags, &p);
    double *grid_beats = NULL;
    if (!cli_read_grid("idle", beats_path, offset_arg, p.bpm, &p.grid, &grid_beats)) return 1;
    pm_target_model model;
    memset(&model, 0, sizeof model);
    pm_skeleton *sk = NULL;
    if (model_path && !cli_read_skeleton("idle", model_path, &sk)) return free(grid_beats), 1;
    model.skeleton = sk;

    pm_vmd *vmd = NULL;
    pm_idle_info info;
    int rc = 0;
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (pm_idle_generate(&p, sk ? &model : NULL, &vmd, &info, &err) != PM_OK || pm_vmd_write(vmd, NULL, 0, &size, &err) != PM_OK ||
        !(bytes = malloc(size ? size : 1)) || pm_vmd_write(vmd, bytes, size, &size, &err) != PM_OK) {
        rc = err.type ? cli_fail_error("idle", &err) : cli_fail("idle", "out of memory");
        goto done;
    }
    if (!cli_write_file(output, bytes, size)) {
        rc = 1;
        goto done;
    }
    cJSON *j = pmi_idle_info_json(&info);
    if (!j) {
        rc = cli_fail("idle", "out of memory");
        goto done;
    }
    cJSON_AddStringToObject(j, "output", output);
    if (model_path) cJSON_AddStringToObject(j, "model", model_path);
    cJSON_AddNumberToObject(j, "bytes", (double)size);
    cli_print_summary(j, output);
done:
    free(bytes);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    free(grid_beats);
    return rc;
}
