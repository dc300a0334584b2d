/* Pose evaluation on the shared fixtures (real PMX models and VMD motions): every name of the oracle
 * pairs binds, every frame evaluates finite, reachable leg IK targets are reached.
 *
 * The same executable is the native side of the babylon-mmd oracle (tests/node/pose-oracle.test.mjs):
 *   test_pose_fixtures --dump MODEL.pmx MOTION.vmd FIRST COUNT STEP
 * prints JSON: bone names, which bones IK moves, the motion's last frame, and per frame the world
 * position of every bone and the IK bones whose target stayed out of reach.
 *   test_pose_fixtures --mannequin DIR
 * writes DIR/mannequin.pmx (the built-in model) and DIR/mannequin_motion.vmd (generated_motion()
 * below) for the oracle's mannequin case. */
#include "pm_test.h"

#include "procmotion/mannequin.h"
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
    unsigned char *model = pm_test_read_file(argv[2], &ms), *motion = pm_test_read_file(argv[3], &vs);
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

/* A generated motion for the mannequin: body and arm rotations, a bobbing centre, stepping feet
 * (leg IK, mostly reachable, sometimes not), varied Bezier curves, and the right leg's IK switched off
 * for frames 40..49 by property keys. */
static pm_result generated_motion(pm_vmd **out, pm_error *err) {
    pm_vmd *v = NULL;
    pm_result r = pm_vmd_create(NULL, &v, err);
    if (r != PM_OK) return r;
    const uint8_t curves[3][4][4] = {
        {{20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}},
        {{64, 0, 64, 127}, {100, 10, 27, 117}, {10, 100, 117, 27}, {127, 0, 0, 127}},
        {{0, 64, 127, 64}, {40, 0, 87, 127}, {64, 0, 64, 127}, {90, 30, 40, 100}},
    };
    for (uint32_t k = 0; k <= 6 && r == PM_OK; k++) {
        const uint32_t f = k * 10;
        const double ph = k * 0.9;
        uint8_t ip[64];
        pm_vmd_interp_pack(curves[k % 3], ip);
        const float zero[3] = {0, 0, 0};
        const float center[3] = {(float)(0.4 * sin(ph)), (float)(-0.6 + 0.5 * cos(2 * ph)), (float)(0.3 * sin(ph * 0.5))};
        const float lfoot[3] = {(float)(0.3 * sin(ph)), (float)(1.2 + 1.2 * sin(ph)), (float)(-1.5 * cos(ph))};
        const float rfoot[3] = {(float)(-0.2 * cos(ph)), (float)(k == 3 ? 9.0 : 1.0 + 1.0 * cos(ph)), (float)(1.5 * cos(ph))};
        struct {
            const char *name;
            const float *pos;
            pm_quat rot;
        } keys[] = {
            {"センター", center, pm_quat_from_euler(0, (float)(0.3 * sin(ph)), 0, PM_EULER_YXZ)},
            {"上半身", zero, pm_quat_from_euler((float)(0.2 * sin(ph)), (float)(0.4 * cos(ph)), 0, PM_EULER_YXZ)},
            {"頭", zero, pm_quat_from_euler((float)(-0.3 * cos(ph)), (float)(0.5 * sin(ph)), (float)(0.1 * k), PM_EULER_YXZ)},
            {"左腕", zero, pm_quat_from_euler(0.2f, 0, (float)(0.7 * sin(ph)), PM_EULER_YXZ)},
            {"右腕", zero, pm_quat_from_euler(-0.2f, 0.3f, (float)(-0.7 * cos(ph)), PM_EULER_YXZ)},
            {"左ひじ", zero, pm_quat_from_euler(0, (float)(-1.2 * (1 + sin(ph)) / 2), 0, PM_EULER_YXZ)},
            {"両目", zero, pm_quat_from_euler((float)(0.1 * sin(ph)), (float)(0.2 * cos(ph)), 0, PM_EULER_YXZ)},
            {"左足ＩＫ", lfoot, pm_quat_from_euler((float)(0.3 * sin(ph)), 0, 0, PM_EULER_YXZ)},
            {"右足ＩＫ", rfoot, pm_quat_identity()},
        };
        for (size_t i = 0; i < sizeof keys / sizeof keys[0] && r == PM_OK; i++) {
            const float rot[4] = {keys[i].rot.x, keys[i].rot.y, keys[i].rot.z, keys[i].rot.w};
            r = pm_vmd_add_bone_key(v, keys[i].name, f, keys[i].pos, rot, ip, err);
        }
    }
    const char *ik[2] = {"右足ＩＫ", "左足ＩＫ"};
    const bool off[2] = {false, true}, on[2] = {true, true};
    if (r == PM_OK) r = pm_vmd_add_property_key(v, 0, true, 2, ik, on, err);
    if (r == PM_OK) r = pm_vmd_add_property_key(v, 40, true, 2, ik, off, err);
    if (r == PM_OK) r = pm_vmd_add_property_key(v, 50, true, 2, ik, on, err);
    if (r != PM_OK) {
        pm_vmd_free(v);
        return r;
    }
    *out = v;
    return PM_OK;
}

static int write_file(const char *dir, const char *name, const uint8_t *data, size_t size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static int mannequin_files(const char *dir) {
    pm_error err = {0};
    size_t size = 0, vsize = 0;
    pm_vmd *v = NULL;
    uint8_t *pmx = NULL, *vmd = NULL;
    int ok = pm_mannequin_pmx(NULL, NULL, 0, &size, &err) == PM_OK && (pmx = malloc(size)) != NULL &&
             pm_mannequin_pmx(NULL, pmx, size, &size, &err) == PM_OK && generated_motion(&v, &err) == PM_OK &&
             pm_vmd_write(v, NULL, 0, &vsize, &err) == PM_OK && (vmd = malloc(vsize)) != NULL &&
             pm_vmd_write(v, vmd, vsize, &vsize, &err) == PM_OK && write_file(dir, "mannequin.pmx", pmx, size) &&
             write_file(dir, "mannequin_motion.vmd", vmd, vsize);
    if (!ok) fprintf(stderr, "mannequin: %s\n", err.message[0] ? err.message : "cannot write the files");
    pm_vmd_free(v);
    free(pmx);
    free(vmd);
    return ok ? 0 : 1;
}

PM_TEST(the_mannequin_with_a_generated_motion_reaches_its_feet_and_toggles_ik) {
    pm_error err = {0};
    pm_skeleton *sk = NULL;
    pm_vmd *v = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    PM_CHECK_OK(generated_motion(&v, &err), &err);
    PM_CHECK_OK(pm_anim_bind(sk, v, NULL, &anim, &err), &err);
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    if (pose) {
        pm_anim_info info;
        pm_anim_get_info(anim, &info);
        PM_CHECK_EQ_INT(info.unmatched_bone_count, 0);
        PM_CHECK_EQ_INT(info.unmatched_ik_count, 0);
        uint32_t rik = pm_skeleton_find(sk, "右足ＩＫ"), lik = pm_skeleton_find(sk, "左足ＩＫ");
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, 45, pose, NULL, &err), &err);
        PM_CHECK(!pm_pose_ik_enabled(ws, rik) && pm_pose_ik_enabled(ws, lik));
        PM_CHECK_OK(pm_pose_evaluate(anim, ws, 20, pose, NULL, &err), &err);
        PM_CHECK(pm_pose_ik_enabled(ws, rik));
        double miss = pm_vec3_distance(pm_pose_world_position(pose, lik),
                                       pm_pose_world_position(pose, sk->bones[lik].ik.target));
        PM_CHECK_MSG(miss < 5e-3, "left foot %g from its IK bone at frame 20", miss);
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(v);
    pm_skeleton_free(sk);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--dump") == 0) return dump(argc, argv);
    if (argc == 3 && strcmp(argv[1], "--mannequin") == 0) return mannequin_files(argv[2]);
    return pm_test_run_all();
}
