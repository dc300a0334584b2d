/* procmotion retarget: a humanoid motion from another rig (BVH, FBX, glTF/GLB, VRM, VRM Animation) as a VMD. */
#include "cli.h"
#include "procmotion/humanoid.h"
#include "procmotion/retarget.h"
#include "procmotion/vmd.h"
#include "retarget/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_retarget_usage[] =
    "usage: procmotion retarget MOTION [--model M] [--animation N] -o out.vmd\n"
    "\n"
    "Play a BVH, FBX, glTF/GLB, VRM or VRM Animation (.vrma) motion on an MMD model: each bone turns as the\n"
    "source's, the hips move scaled by the legs, the feet stay planted where the source's stand and the\n"
    "hands keep out of the body. The summary says what was mapped and how the result plays (MMD-exact\n"
    "evaluator).\n"
    "\n"
    "  -o, --output FILE   where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --model FILE        the PMX/PMD model (default: the built-in mannequin)\n"
    "  --animation N       a glTF's animation or an FBX's take (default 0)\n";

int cmd_retarget(int argc, char **argv) {
    const char *output = NULL, *model_path = NULL, *motion_path = NULL;
    pm_humanoid_motion_options mo = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (motion_path) return cli_fail("retarget", "one motion file, got '%s' and '%s'", motion_path, a), 2;
            motion_path = a;
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v) return cli_fail("retarget", "%s needs a value (see procmotion retarget --help)", a), 2;
        double d = 0;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) output = v;
        else if (strcmp(a, "--model") == 0) model_path = v;
        else if (strcmp(a, "--animation") == 0) {
            if (!cli_parse_double(v, &d) || d < 0 || d > 65535 || d != (double)(uint32_t)d)
                return cli_fail("retarget", "--animation must be a whole number >= 0, got '%s'", v), 2;
            mo.animation = (uint32_t)d;
        } else {
            return cli_fail("retarget", "unknown option '%s' (see procmotion retarget --help)", a), 2;
        }
    }
    if (!output || !motion_path) return cli_fail("retarget", "needs a motion file and -o (see procmotion retarget --help)"), 2;
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    pm_humanoid_motion *m = NULL;
    pm_vmd *out = NULL;
    uint8_t *data = NULL;
    int rc = 1;
    size_t in_size = 0;
    pm_retarget_report rep;
    if (model_path && !cli_read_skeleton("retarget", model_path, &sk)) goto done;
    if (!(data = cli_read_file(motion_path, &in_size))) goto done;
    if (pm_humanoid_motion_read(data, in_size, &mo, &m, &err) != PM_OK) {
        rc = cli_fail("retarget", "%s: %s", motion_path, err.message);
        goto done;
    }
    if (pm_retarget(m, sk, NULL, &out, &rep, &err) != PM_OK) {
        rc = cli_fail_error("retarget", &err);
        goto done;
    }
    rc = cli_write_vmd_summary("retarget", output, out, pmi_retarget_report_json(&rep));
done:
    free(data);
    pm_vmd_free(out);
    pm_humanoid_motion_free(m);
    pm_skeleton_free(sk);
    return rc;
}
