/* Pose evaluation on the shared fixtures (real PMX models and VMD motions): every name of the oracle
 * pairs binds, every frame evaluates finite, reachable leg IK targets are reached.
 *
 * The same executable is the native side of the babylon-mmd oracle (tests/node/pose-oracle.test.mjs):
 *   test_pose_fixtures --dump MODEL.pmx MOTION.vmd FIRST COUNT STEP
 * prints JSON: bone names, which bones IK moves, the motion's last frame, and per frame the world
 * position of every bone and the IK bones whose target stayed out of reach. */
#include "pm_test.h"

#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/vmd.h"

typedef struct loaded {
    pm_skeleton *sk;
    pm_vmd *vmd;
    pm_anim *anim;
    pm_pose_workspace *ws;
    pm_pose *pose;
} loaded;

static unsigned char *read_path(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    *size = fread(buf, 1, (size_t)(n > 0 ? n : 0), f);
    fclose(f);
    return buf;
}

static void unload(loaded *l) {
    pm_pose_free(l->pose);
    pm_pose_workspace_free(l->ws);
    pm_anim_free(l->anim);
    pm_vmd_free(l->vmd);
    pm_skeleton_free(l->sk);
    memset(l, 0, sizeof *l);
}

static int load(loaded *l, const unsigned char *model, size_t model_size, const unsigned char *motion,
                size_t motion_size, pm_error *err) {
    memset(l, 0, sizeof *l);
    if (pm_model_read(model, model_size, NULL, &l->sk, err) != PM_OK ||
        pm_vmd_read(motion, motion_size, NULL, &l->vmd, err) != PM_OK ||
        pm_anim_bind(l->sk, l->vmd, NULL, &l->anim, err) != PM_OK ||
        pm_pose_workspace_create(l->sk, NULL, &l->ws, err) != PM_OK || pm_pose_create(l->sk, NULL, &l->pose, err) != PM_OK) {
        unload(l);
        return 0;
    }
    return 1;
}

/* Bones whose world transform IK can change: links, their descendants, and bones appending from
 * any of those (to a fixed point). */
static void ik_affected(const pm_skeleton *sk, unsigned char *mark) {
    memset(mark, 0, sk->bone_count);
    for (uint32_t i = 0; i < sk->bone_count; i++)
        if (sk->bones[i].has_ik)
            for (uint32_t k = 0; k < sk->bones[i].ik.link_count; k++) mark[sk->bones[i].ik.links[k].bone] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < sk->bone_count; i++) {
            if (mark[i]) continue;
            const pm_bone *b = &sk->bones[i];
            int m = (b->parent != PM_NO_INDEX && mark[b->parent]) ||
                    ((b->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) && b->append_parent != PM_NO_INDEX &&
                     mark[b->append_parent]);
            if (m) mark[i] = 1, changed = 1;
        }
    }
}

/* An IK bone whose target ends farther than this is "out of reach" (babylon-mmd's CCD itself stops
 * ~1e-3 short on a leg). */
#define OUT_OF_REACH 5e-3

static void json_string(pm_string s) {
    putchar('"');
    for (uint32_t i = 0; i < s.length; i++) {
        unsigned char c = (unsigned char)s.data[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static int dump(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: test_pose_fixtures --dump MODEL MOTION FIRST COUNT STEP\n");
        return 2;
    }
    size_t ms = 0, vs = 0;
    unsigned char *model = read_path(argv[2], &ms), *motion = read_path(argv[3], &vs);
    double first = atof(argv[4]), step = atof(argv[6]);
    long count = atol(argv[5]);
    pm_error err = {0};
    loaded l;
    if (!model || !motion || !load(&l, model, ms, motion, vs, &err)) {
        fprintf(stderr, "dump: %s\n", model && motion ? err.message : "cannot read the files");
        free(model);
        free(motion);
        return 1;
    }
    const pm_skeleton *sk = l.sk;
    unsigned char *mark = malloc(sk->bone_count + 1);
    ik_affected(sk, mark);
    printf("{\"bones\":[");
    for (uint32_t i = 0; i < sk->bone_count; i++) {
        if (i) putchar(',');
        json_string(sk->bones[i].name);
    }
    printf("],\"ikAffected\":[");
    for (uint32_t i = 0; i < sk->bone_count; i++) printf("%s%d", i ? "," : "", mark[i]);
    pm_anim_info info;
    pm_anim_get_info(l.anim, &info);
    printf("],\"unmatchedBones\":%u,\"unmatchedIk\":%u,\"lastFrame\":%u,\"frames\":[", info.unmatched_bone_count,
           info.unmatched_ik_count, info.last_frame);
    int rc = 0;
    for (long f = 0; f < count; f++) {
        double frame = first + step * (double)f;
        if (pm_pose_evaluate(l.anim, l.ws, frame, l.pose, NULL, &err) != PM_OK) {
            fprintf(stderr, "dump: frame %g: %s\n", frame, err.message);
            rc = 1;
            break;
        }
        printf("%s{\"f\":%.17g,\"p\":[", f ? "," : "", frame);
        for (uint32_t b = 0; b < sk->bone_count; b++) {
            pm_vec3 p = pm_pose_world_position(l.pose, b);
            printf("%s%.9g,%.9g,%.9g", b ? "," : "", p.x, p.y, p.z);
        }
        printf("],\"unreached\":[");
        int any = 0;
        for (uint32_t b = 0; b < sk->bone_count; b++) {
            if (!sk->bones[b].has_ik || !pm_pose_ik_enabled(l.ws, b)) continue;
            double d = pm_vec3_distance(pm_pose_world_position(l.pose, b), pm_pose_world_position(l.pose, sk->bones[b].ik.target));
            if (d > OUT_OF_REACH) printf("%s%u", any++ ? "," : "", b);
        }
        printf("]}");
    }
    printf("]}\n");
    free(mark);
    unload(&l);
    free(model);
    free(motion);
    return rc;
}

typedef struct pair {
    const char *model, *motion;
    uint32_t unmatched; /* distinct bone names the motion keys and the model lacks */
} pair;

static const pair pairs[] = {
    {"pmx/mmt_test_model.pmx", "vmd/mmt_test_model_test_motion.vmd", 0},
    {"pmx/yw_test_model/yw_test_model.pmx", "vmd/mei_wait.vmd", 57},
    {"pmx/yw_test_model/yw_test_model.pmx", "vmd/gene_stand.vmd", 145},
    {"pmx/yw_test_model/yw_test_model.pmx", "vmd/babylon_physics_toggle_test_yyb10th.vmd", 328},
};

PM_TEST(fixture_motions_bind_and_evaluate_finite_at_every_frame) {
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        size_t ms = 0, vs = 0;
        unsigned char *model = pm_test_read_fixture(pairs[i].model, &ms);
        unsigned char *motion = pm_test_read_fixture(pairs[i].motion, &vs);
        pm_error err = {0};
        loaded l;
        if (model && motion && load(&l, model, ms, motion, vs, &err)) {
            pm_anim_info info;
            pm_anim_get_info(l.anim, &info);
            PM_CHECK_MSG(info.track_count > 0, "%s: no track bound", pairs[i].motion);
            PM_CHECK_MSG(info.unmatched_bone_count == pairs[i].unmatched, "%s: %u unmatched", pairs[i].motion,
                         info.unmatched_bone_count);
            int bad = 0;
            for (double f = -1; f <= info.last_frame + 1; f += 0.5) {
                PM_CHECK_OK(pm_pose_evaluate(l.anim, l.ws, f, l.pose, NULL, &err), &err);
                for (uint32_t b = 0; b < l.sk->bone_count; b++)
                    for (int k = 0; k < 16; k++) bad += !isfinite(l.pose->world[b].m[k]);
            }
            PM_CHECK_EQ_INT(bad, 0);
            unload(&l);
        } else if (model && motion) {
            PM_FAIL_AT("%s on %s: %s", pairs[i].motion, pairs[i].model, err.message);
        }
        free(model);
        free(motion);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--dump") == 0) return dump(argc, argv);
    return pm_test_run_all();
}
