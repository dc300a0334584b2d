/* procmotion catwalk: write a procedural runway walk as a looping VMD. */
#include "catwalk/entry.h"
#include "cli.h"
#include "procmotion/catwalk.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_catwalk_usage[] =
    "usage: procmotion catwalk [options] -o walk.vmd\n"
    "\n"
    "Write a looping runway walk as a VMD and print a JSON summary (loop length, keys,\n"
    "bones used and missing, fit error) to stdout. Amounts are 0..1 unless stated.\n"
    "\n"
    "  -o, --output FILE      where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --model FILE           take bone/morph names and proportions from a PMX/PMD model; the legs are\n"
    "                         landed on it and the summary's report is measured on it (without a\n"
    "                         model: on the built-in mannequin, the standard figure)\n"
    "  --plan FILE            also write the plan as JSON: frames, ankles (per frame: left xyz, right\n"
    "                         xyz, world), contact (per frame: left, right; 0 swing, 1 heel, 2 flat, 3 ball)\n"
    "  --params FILE          read parameters from a JSON file (the JS glue's names); flags override\n"
    "  --bpm N                music tempo, clamped to 60..200 (default: none, tempo = 120 * speed)\n"
    "  --beats FILE           the heel strikes on the beats of `procmotion beats` output (or {bpm,\n"
    "                         offset}): the walk is time-warped to the song (docs/music.md); the\n"
    "                         summary's sync says how far each strike is from its beat (frames)\n"
    "  --offset S             seconds of the first beat with --bpm (tap tempo, a manual offset), or a\n"
    "                         shift of --beats' times\n"
    "  --speed X              tempo without a BPM (default 1; 0.5..1.66)\n"
    "  --cadence beat|2beat   one step per beat or every two beats (default 2beat)\n"
    "  --arms swing|posed     swinging arms or a still pose (default swing)\n"
    "  --style runway|feminine|casual|strut  the defaults of the amounts not given (default runway)\n"
    "  --traverse             walk out along -Z and back instead of in place\n"
    "  --uturn                turn 180 degrees at each end (implies --traverse)\n"
    "  --distance X           traverse distance in MMD units (default: what the steps cover)\n"
    "  --hip-sway X (0.6)  --step-height X (0.5)  --stride X (0.5)  --cross-step X (0.55)\n"
    "  --hip-twist X (0.5)  --pelvis-drop X (0.5)  --torso-twist X (-1..1, 0.5; < 0 turns with the hips)\n"
    "  --torso-sway X (0.5)  --lean X (-1..1, -0.1)  --head-follow X (0.3; 0 keeps the head level)\n"
    "  --toe-off X (0.5)  --heel-strike X (0.4)  --bob X (0.5)  --knee X (stance knee, 0.3)\n"
    "  --arm-swing X (0.5)  --elbow X (elbow bend, 0.5)\n"
    "  --pose-shoulder DEG (70)  --pose-elbow DEG (30)  --blink X (1)  --expression X (0.25)\n"
    "  --seed N               blink timing (default 1)\n"
    "  --tolerance X          key fit tolerance in units (default 0.01)\n"
    "  --rotation-tolerance D key fit tolerance in degrees (default 0.2)\n";

#define AF(flag, field) {flag, offsetof(pm_catwalk_params, field)}
static const cli_amount_flag AMOUNT_FLAGS[] = {
    AF("--hip-sway", hip_sway),       AF("--step-height", step_height), AF("--stride", stride),
    AF("--cross-step", cross_step),   AF("--hip-twist", hip_twist),     AF("--pelvis-drop", pelvis_drop),
    AF("--torso-twist", torso_twist), AF("--torso-sway", torso_sway),   AF("--lean", lean),
    AF("--head-follow", head_follow), AF("--toe-off", toe_off),         AF("--heel-strike", heel_strike),
    AF("--bob", bob),                 AF("--knee", stance_knee),        AF("--arm-swing", arm_swing),
    AF("--elbow", elbow_bend),
    AF("--pose-shoulder", pose_shoulder), AF("--pose-elbow", pose_elbow), AF("--blink", blink),
    AF("--expression", expression),
};

static int number_arg(const char *flag, const char *text, double *out) {
    if (!text) return cli_fail("catwalk", "%s needs a value", flag);
    if (!cli_parse_double(text, out)) return cli_fail("catwalk", "%s: '%s' is not a number", flag, text);
    return 0;
}

/* The plan as JSON: frames, ankles [[lx, ly, lz, rx, ry, rz], ...], contact [[l, r], ...]. */
static bool write_plan(const char *path, const pm_catwalk_plan *plan) {
    cJSON *j = cJSON_CreateObject(), *ankles = cJSON_CreateArray(), *contact = cJSON_CreateArray();
    bool ok = j && ankles && contact && cJSON_AddItemToObject(j, "ankles", ankles) && cJSON_AddItemToObject(j, "contact", contact);
    if (!ok) cJSON_Delete(ankles), cJSON_Delete(contact), ankles = contact = NULL;
    ok = ok && cJSON_AddNumberToObject(j, "frames", plan->frames);
    for (uint32_t f = 0; ok && f <= plan->frames; f++) {
        cJSON *a = cJSON_CreateArray(), *c = cJSON_CreateArray();
        ok = a && c && cJSON_AddItemToArray(ankles, a) && cJSON_AddItemToArray(contact, c);
        if (!ok) {
            cJSON_Delete(a), cJSON_Delete(c);
            break;
        }
        for (int k = 0; k < 6 && ok; k++) ok = cJSON_AddItemToArray(a, cJSON_CreateNumber(round(plan->ankles[6 * f + k] * 1e6) / 1e6));
        for (int k = 0; k < 2 && ok; k++) ok = cJSON_AddItemToArray(c, cJSON_CreateNumber(plan->contact[2 * f + k]));
    }
    char *text = ok ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text) return cli_fail("catwalk", "out of memory writing the plan"), false;
    bool wrote = cli_write_file(path, (const uint8_t *)text, strlen(text));
    free(text);
    return wrote;
}

int cmd_catwalk(int argc, char **argv) {
    pm_catwalk_params p, flags;
    memset(&p, 0, sizeof p);
    memset(&flags, 0, sizeof flags);
    bool set_bpm = false, set_speed = false, set_cadence = false, set_arms = false, set_style = false, set_distance = false;
    bool set_seed = false, set_tol = false, set_rtol = false;
    const char *output = NULL, *model_path = NULL, *params_path = NULL, *plan_path = NULL, *beats_path = NULL, *offset_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!v) return cli_fail("catwalk", "%s needs a file", a), 2;
            output = v, i++;
        } else if (strcmp(a, "--model") == 0) {
            if (!v) return cli_fail("catwalk", "--model needs a file"), 2;
            model_path = v, i++;
        } else if (strcmp(a, "--plan") == 0) {
            if (!v) return cli_fail("catwalk", "--plan needs a file"), 2;
            plan_path = v, i++;
        } else if (strcmp(a, "--beats") == 0 || strcmp(a, "--offset") == 0) {
            if (!v) return cli_fail("catwalk", "%s needs a value", a), 2;
            *(a[2] == 'b' ? &beats_path : &offset_arg) = v, i++;
        } else if (strcmp(a, "--params") == 0) {
            if (!v) return cli_fail("catwalk", "--params needs a file"), 2;
            params_path = v, i++;
        } else if (strcmp(a, "--traverse") == 0) {
            flags.traverse = true;
        } else if (strcmp(a, "--uturn") == 0) {
            flags.u_turn = true;
        } else if (strcmp(a, "--cadence") == 0 || strcmp(a, "--arms") == 0 || strcmp(a, "--style") == 0) {
            /* the core's choices and its message naming them */
            const pmi_catwalk_field f = a[2] == 'c' ? PMI_CW_STEP_CADENCE : a[2] == 'a' ? PMI_CW_ARM_POSE : PMI_CW_STYLE;
            pm_error e = {0};
            if (pmi_catwalk_param_set(&flags, f, pmi_catwalk_choice(f, v), a, &e)) return cli_fail_error("catwalk", &e), 2;
            *(f == PMI_CW_STEP_CADENCE ? &set_cadence : f == PMI_CW_ARM_POSE ? &set_arms : &set_style) = true, i++;
        } else if (strcmp(a, "--bpm") == 0 || strcmp(a, "--speed") == 0 || strcmp(a, "--distance") == 0 ||
                   strcmp(a, "--seed") == 0 || strcmp(a, "--tolerance") == 0 || strcmp(a, "--rotation-tolerance") == 0) {
            if (number_arg(a, v, &d)) return 2;
            i++;
            if (strcmp(a, "--bpm") == 0) flags.bpm = (float)d, set_bpm = true;
            else if (strcmp(a, "--speed") == 0) flags.speed = (float)d, set_speed = true;
            else if (strcmp(a, "--distance") == 0) flags.traverse_distance = (float)d, set_distance = true;
            else if (strcmp(a, "--seed") == 0) {
                if (d < 0 || d > 4294967295.0) return cli_fail("catwalk", "--seed must be in 0..4294967295"), 2;
                flags.seed = (uint32_t)d, set_seed = true;
            } else if (strcmp(a, "--tolerance") == 0) flags.position_tolerance = (float)d, set_tol = true;
            else flags.rotation_tolerance = (float)d, set_rtol = true;
        } else {
            const cli_amount_flag *af = cli_find_amount(AMOUNT_FLAGS, sizeof AMOUNT_FLAGS / sizeof AMOUNT_FLAGS[0], a);
            if (!af) return cli_fail("catwalk", "unknown option '%s' (see procmotion catwalk --help)", a), 2;
            if (number_arg(a, v, &d)) return 2;
            i++;
            *(pm_amount *)((char *)&flags + af->offset) = PM_AMOUNT(d);
        }
    }
    if (!output) return cli_fail("catwalk", "no output file (-o walk.vmd)"), 2;

    pm_error err = {0};
    if (params_path) {
        size_t size = 0;
        uint8_t *text = cli_read_file(params_path, &size);
        if (!text) return 1;
        pm_result r = pm_catwalk_params_from_json((const char *)text, size, &p, &err);
        free(text);
        if (r) return cli_fail("catwalk", "%s: %s", params_path, err.message);
    }
    /* flags override the file */
    if (set_bpm) p.bpm = flags.bpm;
    if (set_speed) p.speed = flags.speed;
    if (set_cadence) p.cadence = flags.cadence;
    if (set_arms) p.arm_pose = flags.arm_pose;
    if (set_style) p.style = flags.style;
    if (set_distance) p.traverse_distance = flags.traverse_distance;
    if (set_seed) p.seed = flags.seed;
    if (set_tol) p.position_tolerance = flags.position_tolerance;
    if (set_rtol) p.rotation_tolerance = flags.rotation_tolerance;
    if (flags.traverse) p.traverse = true;
    if (flags.u_turn) p.u_turn = true;
    cli_merge_amounts(AMOUNT_FLAGS, sizeof AMOUNT_FLAGS / sizeof AMOUNT_FLAGS[0], &flags, &p);

    double *grid_beats = NULL;
    if (!cli_read_grid("catwalk", beats_path, offset_arg, p.bpm, &p.grid, &grid_beats)) return 1;
    pm_target_model model;
    memset(&model, 0, sizeof model);
    const pm_target_model *mp = NULL;
    pm_skeleton *sk = NULL;
    if (model_path) {
        if (!cli_read_skeleton("catwalk", model_path, &sk)) return free(grid_beats), 1;
        model.skeleton = sk;
        mp = &model;
    }

    pm_vmd *vmd = NULL;
    pm_catwalk_info info;
    pm_catwalk_plan plan;
    int rc = 0;
    uint8_t *bytes = NULL;
    if (pm_catwalk_generate_plan(&p, mp, &vmd, &info, &plan, &err) != PM_OK) {
        rc = cli_fail_error("catwalk", &err);
        goto done;
    }
    size_t size = 0;
    if (pm_vmd_write(vmd, NULL, 0, &size, &err) != PM_OK || !(bytes = malloc(size)) ||
        pm_vmd_write(vmd, bytes, size, &size, &err) != PM_OK) {
        rc = cli_fail_error("catwalk", &err);
        goto done;
    }
    if (!cli_write_file(output, bytes, size) || (plan_path && !write_plan(plan_path, &plan))) {
        rc = 1;
        goto done;
    }
    {
        cJSON *j = pmi_catwalk_info_json(&info, &plan, &pmi_catwalk_landing);
        cJSON_AddStringToObject(j, "output", output);
        if (model_path) cJSON_AddStringToObject(j, "model", model_path);
        cJSON_AddNumberToObject(j, "bytes", (double)size);
        cli_print_summary(j, output);
    }
done:
    pm_catwalk_plan_free(&plan);
    free(bytes);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    free(grid_beats);
    return rc;
}
