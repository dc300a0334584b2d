/* procmotion transition: bake a transition from one motion into another (a mode change without a pop). */
#include "cli.h"
#include "transition/report.h"
#include "procmotion/transition.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_transition_usage[] =
    "usage: procmotion transition --model M --from a.vmd --to b.vmd [options] -o t.vmd\n"
    "\n"
    "Bake the blend from the pose --from has at --from-frame into --to playing from --to-frame: play\n"
    "t.vmd, then b.vmd from frame to-frame + frames. The feet stay planted or step; the summary's landing\n"
    "report says how they play (MMD-exact evaluator).\n"
    "\n"
    "  -o, --output FILE      where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --model FILE           the PMX/PMD model\n"
    "  --from FILE, --to FILE the outgoing and the incoming motion\n"
    "  --from-frame F         where the outgoing motion is when the change comes (default 0)\n"
    "  --to-frame F           where the incoming motion starts (default 0)\n"
    "  --frames N             the blend's length (default 30, 4..300)\n"
    "  --loop N               the incoming motion's loop length, when it loops (default: it plays on)\n";

static pm_vmd *read_vmd(const char *path, pm_error *err) {
    size_t size = 0;
    uint8_t *data = cli_read_file(path, &size);
    if (!data) return NULL;
    pm_vmd *v = NULL;
    if (pm_vmd_read(data, size, NULL, &v, err) != PM_OK) cli_fail("transition", "%s: %s", path, err->message);
    free(data);
    return v;
}

int cmd_transition(int argc, char **argv) {
    const char *output = NULL, *model_path = NULL, *from_path = NULL, *to_path = NULL;
    pm_transition_options o = {0};
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return cli_fail("transition", "%s needs a value (see procmotion transition --help)", a), 2;
        double d = 0;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) output = v;
        else if (strcmp(a, "--model") == 0) model_path = v;
        else if (strcmp(a, "--from") == 0) from_path = v;
        else if (strcmp(a, "--to") == 0) to_path = v;
        else if (strcmp(a, "--from-frame") == 0 || strcmp(a, "--to-frame") == 0 || strcmp(a, "--frames") == 0 || strcmp(a, "--loop") == 0) {
            if (!cli_parse_double(v, &d) || d < 0 || d > 4294967295.0) return cli_fail("transition", "%s must be a number >= 0, got '%s'", a, v), 2;
            if (strcmp(a, "--from-frame") == 0) o.from_frame = d;
            else if (strcmp(a, "--to-frame") == 0) o.to_frame = d;
            else if (strcmp(a, "--frames") == 0) o.frames = (uint32_t)d;
            else o.to_loop_frames = (uint32_t)d;
        } else {
            return cli_fail("transition", "unknown option '%s' (see procmotion transition --help)", a), 2;
        }
    }
    if (!output || !model_path || !from_path || !to_path)
        return cli_fail("transition", "needs --model, --from, --to and -o (see procmotion transition --help)"), 2;
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    pm_vmd *from = NULL, *to = NULL, *out = NULL;
    int rc = 1;
    pm_transition_report rep;
    if (!cli_read_skeleton("transition", model_path, &sk) || !(from = read_vmd(from_path, &err)) || !(to = read_vmd(to_path, &err)))
        goto done;
    if (pm_transition_bake(from, to, sk, &o, &out, &rep, &err) != PM_OK) {
        rc = cli_fail_error("transition", &err);
        goto done;
    }
    cJSON *j = pmi_transition_report_json(&rep);
    if (j) cJSON_AddNumberToObject(j, "nextFrame", o.to_loop_frames ? fmod(o.to_frame + rep.frames, o.to_loop_frames) : o.to_frame + rep.frames);
    rc = cli_write_vmd_summary("transition", output, out, j);
done:
    pm_vmd_free(out);
    pm_vmd_free(from);
    pm_vmd_free(to);
    pm_skeleton_free(sk);
    return rc;
}
