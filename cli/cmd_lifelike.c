/* procmotion lifelike: bake the lifelike layer (blinks, breathing, gaze, micro-moves) over a VMD. */
#include "cli.h"
#include "lifelike/report.h"
#include "procmotion/lifelike.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_lifelike_usage[] =
    "usage: procmotion lifelike --model M [--vmd base.vmd] [options] -o out.vmd\n"
    "\n"
    "Bake the lifelike layer over a motion (or over the rest pose without --vmd): every key of the base is\n"
    "kept, and blinks, breathing, the gaze and micro-moves are added where the base leaves room (a bone or\n"
    "morph the base keys stays the base's). The layer repeats with the base's length, so a loop stays a\n"
    "loop. Prints a JSON summary to stdout.\n"
    "\n"
    "  -o, --output FILE      where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --model FILE           the PMX/PMD model (its bones and blink morph)\n"
    "  --vmd FILE             the base motion (default: the rest pose)\n"
    "  --settings FILE        settings as JSON (docs/lifelike.md: blinkInterval, eyeContact, ...)\n"
    "  --frames N             the layer's length (default: the base's last key, or 900)\n"
    "  --seed N               what happens when (default 1)\n";

int cmd_lifelike(int argc, char **argv) {
    const char *output = NULL, *model_path = NULL, *vmd_path = NULL, *settings_path = NULL;
    double frames = 0, seed = -1;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return cli_fail("lifelike", "%s needs a value (see procmotion lifelike --help)", a), 2;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) output = v;
        else if (strcmp(a, "--model") == 0) model_path = v;
        else if (strcmp(a, "--vmd") == 0) vmd_path = v;
        else if (strcmp(a, "--settings") == 0) settings_path = v;
        else if (strcmp(a, "--frames") == 0 || strcmp(a, "--seed") == 0) {
            double d;
            if (!cli_parse_double(v, &d) || d < 0 || d > 4294967295.0 || d != (double)(uint32_t)d)
                return cli_fail("lifelike", "%s must be a whole number, got '%s'", a, v), 2;
            *(a[2] == 'f' ? &frames : &seed) = d;
        } else {
            return cli_fail("lifelike", "unknown option '%s' (see procmotion lifelike --help)", a), 2;
        }
    }
    if (!output) return cli_fail("lifelike", "no output file (-o out.vmd)"), 2;
    if (!model_path) return cli_fail("lifelike", "no model (--model model.pmx)"), 2;
    pm_error err = {0};
    pm_lifelike_settings s;
    memset(&s, 0, sizeof s);
    if (settings_path) {
        size_t size = 0;
        uint8_t *text = cli_read_file(settings_path, &size);
        if (!text) return 1;
        pm_result r = pm_lifelike_settings_from_json((const char *)text, size, &s, &err);
        free(text);
        if (r) return cli_fail("lifelike", "%s: %s", settings_path, err.message);
    }
    if (seed >= 0) s.seed = (uint32_t)seed;
    pm_skeleton *sk = NULL;
    pm_vmd *base = NULL, *out = NULL;
    int rc = 0;
    if (!cli_read_skeleton("lifelike", model_path, &sk)) return 1;
    if (vmd_path) {
        size_t size = 0;
        uint8_t *data = cli_read_file(vmd_path, &size);
        if (!data) {
            rc = 1;
            goto done;
        }
        pm_result r = pm_vmd_read(data, size, NULL, &base, &err);
        free(data);
        if (r) {
            rc = cli_fail("lifelike", "%s: %s", vmd_path, err.message);
            goto done;
        }
    }
    pm_target_model m;
    memset(&m, 0, sizeof m);
    m.skeleton = sk;
    pm_lifelike_bake_options o = {0};
    o.frames = (uint32_t)frames;
    pm_lifelike_report rep;
    if (pm_lifelike_bake(base, &m, &s, &o, &out, &rep, &err) != PM_OK) {
        rc = cli_fail_error("lifelike", &err);
        goto done;
    }
    rc = cli_write_vmd_summary("lifelike", output, out, pmi_lifelike_report_json(&rep));
done:
    pm_vmd_free(out);
    pm_vmd_free(base);
    pm_skeleton_free(sk);
    return rc;
}
