/* procmotion keypoints IN -o OUT.ndjson [--binary OUT.kpb]: motion -> MediaPipe Pose 33 keypoints. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mkstemps */
#include "cli.h"
#include "procmotion/keypoints.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char cmd_keypoints_usage[] =
    "usage: procmotion keypoints IN -o OUT.ndjson [--binary OUT.kpb] [options]\n"
    "\n"
    "Convert a motion to a MediaPipe Pose 33-point keypoint sequence (docs/keypoints.md).\n"
    "IN: .bvh, .vmd, .fbx (binary), .gltf/.glb/.vrm, mediapipe33@0.1.0 .json, keypoint .ndjson or .kpb;\n"
    "    .dae and ASCII .fbx go through the optional `assimp` command (apt-get install assimp-utils).\n"
    "  -o PATH          write NDJSON, one frame per line ('-' = stdout)\n"
    "  --binary PATH    also write 239-byte binary frames\n"
    "  --fps N          resample BVH/glTF to N frames per second (VMD is always 30)\n"
    "  --animation K    glTF/FBX: animation index (default 0)\n"
    "  --format F       bvh, vmd, gltf, fbx, json, ndjson or binary instead of detecting it\n"
    "  --model M.pmx    VMD: play it on this PMX/PMD model's own skeleton and IK (default: the\n"
    "                   built-in mannequin)\n"
    "A progress bar is drawn on a terminal for long inputs; a summary (frames, NaN count, out-of-range\n"
    "count, ignored bones) goes to stderr. Exit status 0, 1 on bad input, 2 on a usage error.\n";

/* .dae or ASCII .fbx -> a temporary .glb through `assimp export IN TMP.glb`; returns its bytes. */
static uint8_t *via_assimp(const char *in, size_t *size) {
    if (!cli_on_path("assimp")) {
        cli_fail("keypoints", "%s: reading .dae or ASCII .fbx needs the assimp command: apt-get install assimp-utils", in);
        return NULL;
    }
    char tmp[] = "/tmp/procmotion-XXXXXX.glb";
    int fd = mkstemps(tmp, 4);
    if (fd < 0) {
        cli_fail("keypoints", "cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    char *argv[] = {"assimp", "export", (char *)in, tmp, "-fglb2", NULL};
    pid_t pid;
    int status = -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawnp(&pid, "assimp", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == 0) waitpid(pid, &status, 0);
    uint8_t *data = NULL;
    struct stat st;
    if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp, &st) != 0 || st.st_size == 0)
        cli_fail("keypoints", "%s: assimp could not convert it to glTF (assimp export exited with %d)", in,
                 rc ? rc : WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else
        data = cli_read_file(tmp, size);
    unlink(tmp);
    return data;
}

/* The bar for long inputs only (600 frames or more). */
static void draw(void *user, uint32_t done, uint32_t total) {
    if (total >= 600) cli_progress_draw(user, done, total);
}

int cmd_keypoints(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *bin = NULL, *model = NULL, *format = NULL;
    pm_kp_options o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "-o") == 0 && has_value) out = argv[++i];
        else if (strcmp(a, "--binary") == 0 && has_value) bin = argv[++i];
        else if (strcmp(a, "--model") == 0 && has_value) model = argv[++i];
        else if (strcmp(a, "--format") == 0 && has_value) format = argv[++i];
        else if (strcmp(a, "--fps") == 0 && has_value) {
            double v;
            if (!cli_parse_double(argv[++i], &v) || v <= 0 || v > 1000) {
                cli_fail("keypoints", "--fps must be a number in (0, 1000]");
                return 2;
            }
            o.fps = v;
        } else if (strcmp(a, "--animation") == 0 && has_value) {
            double v;
            if (!cli_parse_double(argv[++i], &v) || v < 0 || v != (double)(uint32_t)v) {
                cli_fail("keypoints", "--animation must be a whole number >= 0");
                return 2;
            }
            o.animation = (uint32_t)v;
        } else if (a[0] == '-' && a[1]) {
            cli_fail("keypoints", "unknown or incomplete option '%s' (see procmotion keypoints --help)", a);
            return 2;
        } else if (!in) in = a;
        else {
            cli_fail("keypoints", "more than one input ('%s')", a);
            return 2;
        }
    }
    if (!in || !out) {
        cli_fail("keypoints", "expected IN and -o OUT (see procmotion keypoints --help)");
        return 2;
    }
    pm_kp_format fmt = PM_KP_FORMAT_AUTO;
    if (format) {
        for (int f = 1; f < PM_KP_FORMAT_COUNT; f++)
            if (strcmp(format, pm_kp_format_name((pm_kp_format)f)) == 0) fmt = (pm_kp_format)f;
        if (strcmp(format, "glb") == 0) fmt = PM_KP_FORMAT_GLTF;
        if (fmt == PM_KP_FORMAT_AUTO) {
            cli_fail("keypoints", "unknown --format '%s' (bvh, vmd, gltf, fbx, json, ndjson, binary)", format);
            return 2;
        }
    }
    size_t model_size = 0;
    uint8_t *model_data = NULL;
    if (model && !(model_data = cli_read_file(model, &model_size))) return 1;
    o.model = model_data;
    o.model_size = model_size;
    size_t size = 0;
    uint8_t *data = cli_ends_with(in, ".dae") ? via_assimp(in, &size) : cli_read_file(in, &size);
    if (data && cli_ends_with(in, ".fbx") && size >= 5 && memcmp(data, "; FBX", 5) == 0) {
        free(data);
        data = via_assimp(in, &size);
    }
    if (!data) {
        free(model_data);
        return 1;
    }
    if (cli_ends_with(in, ".dae") || (cli_ends_with(in, ".fbx") && pm_kp_detect_format(data, size) != PM_KP_FORMAT_FBX)) fmt = PM_KP_FORMAT_GLTF;
    cli_progress prog;
    cli_progress_init(&prog, "keypoints", "frames");
    o.progress = draw;
    o.progress_user = &prog;
    pm_error err = {0};
    pm_kp_sequence *seq = NULL;
    pm_result r = pm_kp_from_data(data, size, fmt, &o, &seq, &err);
    free(data);
    free(model_data);
    if (r) return cli_fail("keypoints", "%s: %s", in, err.message);
    int rc = 0;
    size_t n = 0;
    pm_kp_write_ndjson(seq, NULL, 0, &n, &err);
    char *text = malloc(n ? n : 1);
    if (!text || pm_kp_write_ndjson(seq, text, n, &n, &err) != PM_OK || !cli_write_file(out, (const uint8_t *)text, n)) rc = 1;
    free(text);
    size_t bn = 0;
    if (!rc && bin) {
        pm_kp_write_binary(seq, NULL, 0, &bn, &err);
        uint8_t *b = malloc(bn ? bn : 1);
        if (!b || pm_kp_write_binary(seq, b, bn, &bn, &err) != PM_OK || !cli_write_file(bin, b, bn)) rc = 1;
        free(b);
    }
    uint32_t nan = 0, oor = 0;
    pm_kp_check(seq, &nan, &oor);
    const pm_kp_stats *st = &seq->stats;
    fprintf(stderr,
            "procmotion keypoints: %s: %u frames at %g fps (%s, %s naming, %u joints; %u direct, %u inferred, %u "
            "missing points%s)\n"
            "  NaN: %u, out of range: %u, ignored bones: %u; wrote %s (%zu bytes)\n",
            in, seq->frame_count, seq->fps, pm_kp_format_name(st->format), st->family ? st->family : "-",
            st->source_joints, st->direct_points, st->inferred_points, st->missing_points,
            st->legs == PM_KP_LEGS_IK ? "; legs by IK" : st->legs == PM_KP_LEGS_FK ? "; legs by FK" : "", nan + st->nan_count,
            oor + st->out_of_range, st->ignored_bones, out, n);
    if (bin) fprintf(stderr, "  wrote %s (%zu bytes: %u frames of %d)\n", bin, bn, seq->frame_count, PM_KP_FRAME_SIZE);
    pm_kp_free(seq);
    return rc;
}
