/* Pose rows for procmotion_bench (see bench.c).
 *
 *   procmotion_bench pose MODEL VMD [RUNS]   every bone, IK on, every frame 0..last key; items = frames.
 *                                            Also prints the same with IK off ("native, IK off").
 *   procmotion_bench two-bone-ik [RUNS]      pm_two_bone_ik on 100 000 prepared random limbs; items = solves.
 *   procmotion_bench pose-hash MODEL VMD...  a hash of every evaluated pose (bit-identity checks; not timed).
 *
 * Binding (pm_anim_bind) and the workspace are made once outside the timing, as a viewer does. */
#include "bench.h"

#include "procmotion/ik.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const pm_error *err) {
    fprintf(stderr, "procmotion_bench: %s\n", err->message);
    exit(1);
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int bench_pose(int argc, char **argv) {
    if (argc < 2) return fprintf(stderr, "usage: pose MODEL VMD [RUNS]\n"), 2;
    int runs = argc > 2 ? atoi(argv[2]) : 20;
    if (runs < 1) runs = 1;
    pm_error err = {0};
    size_t msize, vsize;
    uint8_t *mdata = bench_read_file(argv[0], &msize), *vdata = bench_read_file(argv[1], &vsize);
    pm_skeleton *sk = NULL;
    pm_vmd *vmd = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    if (pm_model_read(mdata, msize, NULL, &sk, &err) != PM_OK || pm_vmd_read(vdata, vsize, NULL, &vmd, &err) != PM_OK ||
        pm_anim_bind(sk, vmd, NULL, &anim, &err) != PM_OK || pm_pose_workspace_create(sk, NULL, &ws, &err) != PM_OK ||
        pm_pose_create(sk, NULL, &pose, &err) != PM_OK)
        die(&err);
    pm_anim_info info;
    pm_anim_get_info(anim, &info);
    const uint32_t frames = info.last_frame + 1;
    double *t = malloc(sizeof(double) * (size_t)runs);
    double sink = 0;
    for (int mode = 0; mode < 2; mode++) {
        pm_pose_options opts = {mode ? PM_POSE_NO_IK : 0, 0};
        for (int r = -1; r < runs; r++) { /* r = -1: warm-up */
            double t0 = bench_now_ms();
            for (uint32_t f = 0; f < frames; f++) {
                if (pm_pose_evaluate(anim, ws, f, pose, &opts, &err) != PM_OK) die(&err);
                sink += pose->world[sk->bone_count - 1].m[13];
            }
            if (r >= 0) t[r] = bench_now_ms() - t0;
        }
        char input[256];
        snprintf(input, sizeof input, "%s on %s", base_name(argv[1]), base_name(argv[0]));
        bench_report_impl("pose", input, mode ? "native, IK off" : "native", bench_median(t, runs), runs, frames,
                          "frames");
    }
    if (sink == 12345.678) fprintf(stderr, "\n"); /* keep the work observable */
    free(t);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    free(mdata);
    free(vdata);
    return 0;
}

/* xorshift32 in [-1, 1) */
static float rnd(uint32_t *s) {
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
    return (float)((*s >> 8) * (2.0 / 16777216.0) - 1.0);
}

int bench_two_bone_ik(int argc, char **argv) {
    int runs = argc > 0 ? atoi(argv[0]) : 20;
    if (runs < 1) runs = 1;
    enum { N = 100000 };
    pm_vec3 *in = malloc(sizeof(pm_vec3) * 5 * N);
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        pm_vec3 *v = in + 5 * i;
        /* a leg-sized limb (hip, knee, ankle), a target within about its reach, a pole in front */
        v[0] = pm_vec3_make(rnd(&seed), 10 + rnd(&seed), rnd(&seed));
        v[1] = pm_vec3_make(v[0].x + 0.3f * rnd(&seed), v[0].y - 4.5f, v[0].z - 0.5f + 0.3f * rnd(&seed));
        v[2] = pm_vec3_make(v[1].x + 0.3f * rnd(&seed), v[1].y - 4.5f, v[1].z + 0.5f + 0.3f * rnd(&seed));
        v[3] = pm_vec3_make(v[0].x + 3 * rnd(&seed), v[0].y - 6 + 3 * rnd(&seed), v[0].z + 3 * rnd(&seed));
        v[4] = pm_vec3_make(v[0].x, v[0].y - 4, v[0].z - 5);
    }
    double *t = malloc(sizeof(double) * (size_t)runs);
    double sink = 0;
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now_ms();
        for (int i = 0; i < N; i++) {
            const pm_vec3 *v = in + 5 * i;
            pm_two_bone_ik_result res;
            pm_error err = {0};
            if (pm_two_bone_ik(v[0], v[1], v[2], v[3], v[4], &res, &err) != PM_OK) die(&err);
            sink += res.miss;
        }
        if (r >= 0) t[r] = bench_now_ms() - t0;
    }
    if (sink < 0) fprintf(stderr, "\n");
    bench_report("two-bone-ik", "random leg-sized limbs", bench_median(t, runs), runs, N, "solves");
    free(t);
    free(in);
    return 0;
}

/* procmotion_bench pose-hash MODEL VMD...: FNV-1a over the world matrices and final rotations and
 * translations of every bone at every half frame from -2 to the last key + 2, IK on, per motion. Not
 * timed: optimisations of the evaluator must leave these hashes unchanged (bit-identical results). */
int bench_pose_hash(int argc, char **argv) {
    if (argc < 2) return fprintf(stderr, "usage: pose-hash MODEL VMD...\n"), 2;
    pm_error err = {0};
    size_t msize;
    uint8_t *mdata = bench_read_file(argv[0], &msize);
    pm_skeleton *sk = NULL;
    if (pm_model_read(mdata, msize, NULL, &sk, &err) != PM_OK) die(&err);
    for (int a = 1; a < argc; a++) {
        /* a trailing number is the RUNS argument bench.mjs appends: ignore it */
        if (strspn(argv[a], "0123456789") == strlen(argv[a])) continue;
        size_t vsize;
        uint8_t *vdata = bench_read_file(argv[a], &vsize);
        pm_vmd *vmd = NULL;
        pm_anim *anim = NULL;
        pm_pose_workspace *ws = NULL;
        pm_pose *pose = NULL;
        if (pm_vmd_read(vdata, vsize, NULL, &vmd, &err) != PM_OK || pm_anim_bind(sk, vmd, NULL, &anim, &err) != PM_OK ||
            pm_pose_workspace_create(sk, NULL, &ws, &err) != PM_OK || pm_pose_create(sk, NULL, &pose, &err) != PM_OK)
            die(&err);
        pm_anim_info info;
        pm_anim_get_info(anim, &info);
        uint64_t h = 1469598103934665603ull;
        for (double f = -2; f <= info.last_frame + 2.0; f += 0.5) {
            if (pm_pose_evaluate(anim, ws, f, pose, NULL, &err) != PM_OK) die(&err);
            const size_t n = sk->bone_count;
            const uint8_t *parts[3] = {(const uint8_t *)pose->world, (const uint8_t *)pose->final_rotation,
                                       (const uint8_t *)pose->final_translation};
            const size_t sizes[3] = {n * sizeof(pm_mat4), n * sizeof(pm_quat), n * sizeof(pm_vec3)};
            for (int p = 0; p < 3; p++)
                for (size_t i = 0; i < sizes[p]; i++) h = (h ^ parts[p][i]) * 1099511628211ull;
        }
        printf("%016llx %s\n", (unsigned long long)h, base_name(argv[a]));
        pm_pose_free(pose);
        pm_pose_workspace_free(ws);
        pm_anim_free(anim);
        pm_vmd_free(vmd);
        free(vdata);
    }
    pm_skeleton_free(sk);
    free(mdata);
    return 0;
}
