/* procmotion groove --model M --bpm N [--vmd BASE] [--config C] -o OUT: bake the groove into a VMD;
 * procmotion groove --print-config [--config C] [--changed]: the merged settings as JSON. */
#include "cli.h"
#include "groove/report.h"
#include "procmotion/groove.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_groove_usage[] =
    "usage: procmotion groove --model MODEL.pmx --bpm N [--offset S] [--vmd BASE.vmd] [--config GROOVE.json]\n"
    "                         [--frames N] [--position-tolerance UNITS] [--rotation-tolerance DEG] -o OUT.vmd\n"
    "       procmotion groove --model MODEL.pmx --beats BEATS.json [the same options] -o OUT.vmd\n"
    "       procmotion groove --print-config [--config GROOVE.json] [--changed]\n"
    "\n"
    "Bake the groove (docs/groove.md) into a new VMD: a BPM oscillation of the pelvis, spine, neck, head,\n"
    "shoulders, arms and elbows, and a squat bounce that lowers the body on the beat while the feet stay\n"
    "planted (by the model's 足ＩＫ, or by analytic leg IK on a model without leg IK), on top of BASE.vmd\n"
    "(or of the rest pose). GROOVE.json holds the settings to change, e.g.\n"
    "  {\"joints\": {\"head\": {\"amp\": 5}}, \"squat\": {\"vertical\": 4}}\n"
    "--frames: the last frame to bake (default: the base motion's last frame, or 16 beats). Prints a JSON\n"
    "report: frames, keys written and copied, the keys' largest deviation, joints the model lacks.\n"
    "--beats: the waves on the beats of `procmotion beats` output (a bounce valley on every beat, the\n"
    "song's offset and tempo drift; without a base motion the bake runs to the last beat); the report's\n"
    "sync says how far each valley is from its beat (frames). --offset: seconds of beat 0 (with --bpm),\n"
    "or a shift of --beats' times.\n"
    "--print-config prints the merged settings (every field), or with --changed only the changed fields.\n";


static bool read_config(const char *path, pm_groove_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    if (!path) return true;
    size_t size = 0;
    uint8_t *text = cli_read_file(path, &size);
    if (!text) return false;
    pm_error err = {0};
    bool ok = pm_groove_config_parse((const char *)text, size, cfg, &err) == PM_OK;
    if (!ok) cli_fail("groove", "%s: %s", path, err.message);
    free(text);
    return ok;
}

static int print_config(const pm_groove_config *cfg, bool changed) {
    pm_error err = {0};
    size_t n = 0;
    uint32_t flags = changed ? PM_GROOVE_JSON_CHANGED : 0;
    if (pm_groove_config_to_json(cfg, flags, NULL, 0, &n, &err) != PM_OK) return cli_fail_error("groove", &err);
    char *text = malloc(n + 1);
    if (!text) return cli_fail("groove", "out of memory");
    int rc = pm_groove_config_to_json(cfg, flags, text, n + 1, &n, &err) == PM_OK ? 0 : cli_fail_error("groove", &err);
    if (!rc) cli_print_json(cJSON_Parse(text));
    free(text);
    return rc;
}

static bool parse_positive(const char *flag, const char *text, double *out) {
    if (cli_parse_double(text, out) && isfinite(*out) && *out > 0) return true;
    cli_fail("groove", "%s must be a positive number, got '%s'", flag, text);
    return false;
}

static void print_report(const char *out_path, const pm_groove_bake_report *rep, size_t bytes, const pm_skeleton *sk) {
    cJSON *j = pmi_groove_bake_report_json(rep, sk);
    if (!j) {
        cli_fail("groove", "out of memory for the report");
        return;
    }
    cJSON_AddStringToObject(j, "output", out_path);
    cJSON_AddNumberToObject(j, "bytes", (double)bytes);
    cli_print_json(j);
}

int cmd_groove(int argc, char **argv) {
    const char *model_path = NULL, *vmd_path = NULL, *config_path = NULL, *out_path = NULL, *bpm_arg = NULL, *beats_path = NULL,
               *offset_arg = NULL;
    bool print = false, changed = false;
    pm_groove_bake_options opts = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has = i + 1 < argc;
        double v = 0;
        if (strcmp(a, "--model") == 0 && has) model_path = argv[++i];
        else if (strcmp(a, "--vmd") == 0 && has) vmd_path = argv[++i];
        else if (strcmp(a, "--config") == 0 && has) config_path = argv[++i];
        else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && has) out_path = argv[++i];
        else if (strcmp(a, "--bpm") == 0 && has) bpm_arg = argv[++i];
        else if (strcmp(a, "--beats") == 0 && has) beats_path = argv[++i];
        else if (strcmp(a, "--offset") == 0 && has) offset_arg = argv[++i];
        else if (strcmp(a, "--print-config") == 0) print = true;
        else if (strcmp(a, "--changed") == 0) changed = true;
        else if (strcmp(a, "--frames") == 0 && has) {
            if (!parse_positive(a, argv[++i], &v)) return 1;
            if (v != floor(v) || v > 1e7) return cli_fail("groove", "--frames must be a whole number up to 10000000");
            opts.frames = (uint32_t)v;
        } else if (strcmp(a, "--position-tolerance") == 0 && has) {
            if (!parse_positive(a, argv[++i], &v)) return 1;
            opts.position_tolerance = (float)v;
        } else if (strcmp(a, "--rotation-tolerance") == 0 && has) {
            if (!parse_positive(a, argv[++i], &v)) return 1;
            opts.rotation_tolerance = (float)v;
        } else return cli_fail("groove", "unknown argument '%s' (see procmotion groove --help)", a);
    }
    pm_groove_config cfg;
    if (!read_config(config_path, &cfg)) return 1;
    if (print) return print_config(&cfg, changed);
    if (!model_path) return cli_fail("groove", "missing --model MODEL.pmx");
    if (!bpm_arg && !beats_path) return cli_fail("groove", "missing --bpm N (or --beats BEATS.json)");
    if (!out_path) return cli_fail("groove", "missing -o OUT.vmd");
    double bpm = 0;
    if (bpm_arg && !parse_positive("--bpm", bpm_arg, &bpm)) return 1;
    double *grid_beats = NULL;
    if (!cli_read_grid("groove", beats_path, offset_arg, bpm, &opts.grid, &grid_beats)) return 1;

    int rc = 1;
    pm_error err = {0};
    size_t vsize = 0, osize = 0;
    uint8_t *vdata = NULL, *odata = NULL;
    pm_skeleton *skel = NULL;
    pm_vmd *base = NULL, *out = NULL;
    pm_groove_bake_report rep;
    if (!cli_read_skeleton("groove", model_path, &skel)) goto done;
    if (vmd_path) {
        if (!(vdata = cli_read_file(vmd_path, &vsize))) goto done;
        if (pm_vmd_read(vdata, vsize, NULL, &base, &err) != PM_OK) {
            cli_fail("groove", "%s: %s", vmd_path, err.message);
            goto done;
        }
    }
    if (pm_groove_apply_to_vmd(base, skel, &cfg, bpm, &opts, &out, &rep, &err) != PM_OK ||
        pm_vmd_write(out, NULL, 0, &osize, &err) != PM_OK) {
        cli_fail_error("groove", &err);
        goto done;
    }
    odata = malloc(osize ? osize : 1);
    if (!odata) {
        cli_fail("groove", "out of memory");
        goto done;
    }
    if (pm_vmd_write(out, odata, osize, &osize, &err) != PM_OK) {
        cli_fail_error("groove", &err);
        goto done;
    }
    if (!cli_write_file(out_path, odata, osize)) goto done;
    if (strcmp(out_path, "-") != 0) print_report(out_path, &rep, osize, skel); /* stdout holds the VMD otherwise */
    rc = 0;
done:
    free(odata);
    pm_vmd_free(out);
    pm_vmd_free(base);
    pm_skeleton_free(skel);
    free(vdata);
    free(grid_beats);
    return rc;
}
