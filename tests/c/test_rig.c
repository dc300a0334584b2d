/* The rig analysis (procmotion/rig.h): the resolver's tables and rules, and every figure of the analysis
 * checked against the pose evaluator (babylon-mmd's FK and CCD) on the mannequin, skeletons varied from
 * it (knees bent at rest, the IK bone below the ankle, PMD knee limits, no グルーブ / 上半身2, English,
 * VRoid and Mixamo names, 足IK親, D-bone, arm and hair chains) and both shared PMX fixtures. */
#include "counting_alloc.h"
#include "pm_test.h"

#include "rig/rig_internal.h"
#include "procmotion/mannequin.h"
#include "procmotion/text.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/rig.h"

#include <cjson/cJSON.h>

#define N(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))
#define DEG (PM_PI / 180.0)

/* ---- helpers ------------------------------------------------------------------------------------------ */

static pm_skeleton *mannequin(void) {
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_mannequin_skeleton(NULL, &sk, &err), &err);
    return sk;
}

static pm_rig *analyze(const pm_skeleton *sk) {
    pm_rig *rig = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_rig_analyze(sk, NULL, &rig, &err), &err);
    return rig;
}

/* A copy of a skeleton as bone descriptions to edit (names point into the source or into `names`). */
typedef struct variant {
    pm_bone_desc d[256];
    pm_ik_link links[64][8];
    char names[256][48];
    uint32_t count;
} variant;

static void variant_of(variant *v, const pm_skeleton *sk) {
    memset(v, 0, sizeof *v);
    uint32_t nik = 0;
    v->count = sk->bone_count;
    for (uint32_t i = 0; i < sk->bone_count; i++) {
        pm_bone_desc *d = &v->d[i];
        pm_error err = {0};
        PM_CHECK_OK(pm_skeleton_bone_desc(sk, i, d, &err), &err);
        snprintf(v->names[i], sizeof v->names[i], "%s", d->name);
        d->name = v->names[i];
        if (d->has_ik) {
            memcpy(v->links[nik], d->ik.links, d->ik.link_count * sizeof(pm_ik_link));
            d->ik.links = v->links[nik++];
        }
    }
}

static uint32_t vfind(const variant *v, const char *name) {
    for (uint32_t i = 0; i < v->count; i++)
        if (strcmp(v->d[i].name, name) == 0) return i;
    PM_FAIL_AT("variant has no %s", name);
    return 0;
}

/* Remove a bone: its children move to its parent, every index after it shifts down. */
static void vremove(variant *v, const char *name) {
    uint32_t k = vfind(v, name), parent = v->d[k].parent;
    for (uint32_t i = 0; i < v->count; i++)
        if (v->d[i].parent == k) v->d[i].parent = parent;
    for (uint32_t i = k; i + 1 < v->count; i++) {
        v->d[i] = v->d[i + 1];
        memcpy(v->names[i], v->names[i + 1], sizeof v->names[i]);
        v->d[i].name = v->names[i];
    }
    v->count--;
    for (uint32_t i = 0; i < v->count; i++) {
        pm_bone_desc *d = &v->d[i];
        if (d->parent != PM_NO_INDEX && d->parent > k) d->parent--;
        if (d->append_parent != PM_NO_INDEX && d->append_parent > k) d->append_parent--;
        if (d->tail_bone != PM_NO_INDEX && d->tail_bone >= k) d->tail_bone = d->tail_bone == k ? PM_NO_INDEX : d->tail_bone - 1;
        if (d->has_ik) {
            if (d->ik.target != PM_NO_INDEX && d->ik.target > k) d->ik.target--;
            for (uint32_t l = 0; l < d->ik.link_count; l++)
                if (d->ik.links[l].bone > k) ((pm_ik_link *)d->ik.links)[l].bone--;
        }
    }
}

static uint32_t vadd(variant *v, const char *name, pm_vec3 pos, uint32_t parent) {
    uint32_t i = v->count++;
    memset(&v->d[i], 0, sizeof v->d[i]);
    snprintf(v->names[i], sizeof v->names[i], "%s", name);
    v->d[i].name = v->names[i];
    v->d[i].position = pos;
    v->d[i].parent = parent;
    v->d[i].append_parent = PM_NO_INDEX;
    v->d[i].tail_bone = PM_NO_INDEX;
    return i;
}

static void vrename(variant *v, const char *from, const char *to) { snprintf(v->names[vfind(v, from)], 48, "%s", to); }

static pm_skeleton *vbuild(const variant *v) {
    pm_skeleton *sk = NULL;
    pm_error err = {0};
    PM_CHECK_OK(pm_skeleton_create(v->d, v->count, NULL, 0, NULL, &sk, &err), &err);
    return sk;
}

/* Put the knee of side s (0 左, 1 右) so that the leg bends by `deg` at rest in its sagittal plane
 * (the knee in front of the hip-ankle line), keeping hip and ankle where they are. */
static void bend_knee(variant *v, int s, double deg) {
    uint32_t h = vfind(v, s ? "右足" : "左足"), k = vfind(v, s ? "右ひざ" : "左ひざ"), a = vfind(v, s ? "右足首" : "左足首");
    pm_vec3 H = v->d[h].position, A = v->d[a].position;
    double half = pm_vec3_distance(H, A) / 2, d = half * tan(deg * DEG / 2);
    v->d[k].position = pm_vec3_make((H.x + A.x) / 2, (H.y + A.y) / 2, (float)((H.z + A.z) / 2 - d));
}

/* The pose evaluator, independently of the rig: the rest pose with the IK bone moved so that it sits at
 * `goal` (world), solved; returns the world position of `bone`. */
static pm_vec3 solved_at(const pm_skeleton *sk, uint32_t ik_bone, pm_vec3 goal, uint32_t bone) {
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_error err = {0};
    pm_vec3 out = {0, 0, 0};
    PM_CHECK_OK(pm_pose_workspace_create(sk, NULL, &ws, &err), &err);
    PM_CHECK_OK(pm_pose_create(sk, NULL, &pose, &err), &err);
    if (ws && pose) {
        PM_CHECK_OK(pm_pose_sample(NULL, ws, 0, pose, &err), &err);
        if (ik_bone != PM_NO_INDEX) pose->translation[ik_bone] = pm_vec3_sub(goal, sk->bones[ik_bone].position);
        PM_CHECK_OK(pm_pose_evaluate_local(ws, pose, NULL, &err), &err);
        out = pm_pose_world_position(pose, bone);
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    return out;
}

static double bend_deg(pm_vec3 h, pm_vec3 k, pm_vec3 a) {
    pm_vec3 u = pm_vec3_sub(k, h), w = pm_vec3_sub(a, k);
    double c = pm_vec3_dot(u, w) / (pm_vec3_length(u) * pm_vec3_length(w));
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) / DEG;
}

/* Every leg figure of `rig` against the pose evaluator. */
static void check_leg_figures(const char *what, const pm_skeleton *sk, const pm_rig *rig) {
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *l = &rig->legs[s];
        PM_CHECK_MSG(l->present, "%s: leg %d not found", what, s);
        if (!l->present) continue;
        pm_vec3 H = sk->bones[l->hip].position, K = sk->bones[l->knee].position, A = sk->bones[l->ankle].position;
        PM_CHECK_NEAR(l->thigh, pm_vec3_distance(H, K), 1e-5);
        PM_CHECK_NEAR(l->shin, pm_vec3_distance(K, A), 1e-5);
        PM_CHECK_NEAR(l->knee_rest_bend / DEG, bend_deg(H, K, A), 1e-3);
        PM_CHECK_MSG(l->ik_chain != PM_NO_INDEX, "%s: leg %d has no IK chain", what, s);
        if (l->ik_chain == PM_NO_INDEX) continue;
        const pm_rig_chain *c = &rig->chains[l->ik_chain];
        PM_CHECK_EQ_INT(c->target, l->ankle);
        PM_CHECK_EQ_INT(c->kind, PM_RIG_CHAIN_LEG);
        PM_CHECK_EQ_INT(c->side, s + 1);
        /* rest: the evaluator's ankle after the rest solve */
        pm_vec3 ik_rest = sk->bones[c->ik_bone].position;
        pm_vec3 ankle0 = solved_at(sk, c->ik_bone, ik_rest, l->ankle);
        PM_CHECK_NEAR(c->rest_error, pm_vec3_distance(ankle0, ik_rest), 1e-5);
        PM_CHECK_NEAR(c->rest_shift, pm_vec3_distance(ankle0, A), 1e-5);
        PM_CHECK_NEAR(pm_vec3_distance(c->rest_offset, pm_vec3_sub(ik_rest, A)), 0, 1e-6);
        /* reach_max: far targets stretch the leg to it (straight below, 35 degrees forward, 20 sideways);
         * a target 0.05 beyond it is missed, one 0.2 inside it is reached (CCD lands within 0.01) */
        for (int dir = 0; dir < 3; dir++) {
            double ang = dir == 1 ? 35 * DEG : dir == 2 ? 20 * DEG : 0;
            pm_vec3 down = dir == 2 ? pm_vec3_make((float)((s ? -1 : 1) * sin(ang)), (float)-cos(ang), 0)
                                    : pm_vec3_make(0, (float)-cos(ang), (float)-sin(ang));
            pm_vec3 far = pm_vec3_add(H, pm_vec3_scale(down, 3 * l->length));
            double stretched = pm_vec3_distance(solved_at(sk, c->ik_bone, far, l->ankle), H);
            PM_CHECK_MSG(stretched <= l->reach_max + 1e-3 && stretched > l->reach_max - 0.015,
                         "%s leg %d dir %d: the stretched leg is %.4f long, reach_max %.4f", what, s, dir, stretched, l->reach_max);
            pm_vec3 beyond = pm_vec3_add(H, pm_vec3_scale(down, l->reach_max + 0.05f));
            PM_CHECK_MSG(pm_vec3_distance(solved_at(sk, c->ik_bone, beyond, l->ankle), beyond) > 0.04,
                         "%s leg %d dir %d: a target 0.05 beyond reach_max is reached", what, s, dir);
            pm_vec3 inside = pm_vec3_add(H, pm_vec3_scale(down, l->reach_max - 0.2f));
            double miss = pm_vec3_distance(solved_at(sk, c->ik_bone, inside, l->ankle), inside);
            PM_CHECK_MSG(miss < 0.01, "%s leg %d dir %d: a target 0.2 inside reach_max is missed by %.4f", what, s, dir, miss);
        }
        /* reach_min (the knee folded to its limit): targets between it and reach_max are reached */
        PM_CHECK(l->reach_min < 0.3 * l->length);
        PM_CHECK(l->reach_max <= l->length + 1e-4);
        for (int k = 1; k <= 3; k++) {
            double d = l->reach_min + (l->reach_max - l->reach_min) * k / 4.0;
            pm_vec3 t = pm_vec3_add(H, pm_vec3_make(0, (float)(-d * 0.8), (float)(-d * 0.6)));
            double miss = pm_vec3_distance(solved_at(sk, c->ik_bone, t, l->ankle), t);
            PM_CHECK_MSG(miss < 0.01, "%s leg %d: a target %.3f from the hip is missed by %.4f", what, s, d, miss);
        }
        if (l->knee_limited) {
            /* nothing folds the leg further than reach_min: a target at the hip stops there */
            pm_vec3 t = pm_vec3_add(H, pm_vec3_make(0, -0.05f, -0.05f));
            double got = pm_vec3_distance(solved_at(sk, c->ik_bone, t, l->ankle), H);
            PM_CHECK_MSG(got > l->reach_min - 0.02, "%s leg %d: the ankle comes %.4f near the hip, reach_min %.4f", what, s, got,
                         l->reach_min);
        }
        /* the most open knee MMD allows: the stretched leg's knee bend (CCD) is knee_bend_min */
        if (l->knee_limited) {
            pm_vec3 goal = pm_vec3_add(H, pm_vec3_make(0, -3 * l->length, 0));
            pm_vec3 kh = solved_at(sk, c->ik_bone, goal, l->hip), kk = solved_at(sk, c->ik_bone, goal, l->knee),
                    ka = solved_at(sk, c->ik_bone, goal, l->ankle);
            PM_CHECK_MSG(fabs(bend_deg(kh, kk, ka) - l->knee_bend_min / DEG) < 0.05, "%s leg %d: stretched knee bends %.3f deg, bend_min %.3f",
                         what, s, bend_deg(kh, kk, ka), l->knee_bend_min / DEG);
            PM_CHECK(l->knee_bend_max > l->knee_bend_min);
        }
    }
    /* the floor: the lowest ankle / heel / toe at rest (evaluated) */
    float lowest = INFINITY;
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *l = &rig->legs[s];
        const uint32_t pts[3] = {l->ankle, l->heel, l->toe};
        for (int k = 0; k < 3; k++)
            if (pts[k] != PM_NO_INDEX) {
                pm_vec3 p = solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), pts[k]);
                if (p.y < lowest) lowest = p.y;
            }
    }
    PM_CHECK_NEAR(rig->floor_height, lowest, 1e-5);
    /* hips and ankles in the solved rest pose; arm lengths between the evaluated joints */
    double hips = 0;
    for (int s = 0; s < 2; s++) {
        hips += solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), rig->legs[s].hip).y / 2;
        PM_CHECK_NEAR(rig->legs[s].ankle_height, solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), rig->legs[s].ankle).y, 1e-5);
        const pm_rig_arm *m = &rig->arms[s];
        if (!m->present) continue;
        pm_vec3 a = solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), m->arm), e = solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), m->elbow),
                w = solved_at(sk, PM_NO_INDEX, pm_vec3_make(0, 0, 0), m->wrist);
        PM_CHECK_NEAR(m->length, pm_vec3_distance(a, e) + pm_vec3_distance(e, w), 1e-4);
        PM_CHECK_NEAR(m->elbow_rest_bend / DEG, bend_deg(a, e, w), 1e-2);
    }
    PM_CHECK_NEAR(rig->hip_height, hips, 1e-5);
}

/* ---- the tables -------------------------------------------------------------------------------------- */

PM_TEST(tables_are_keys_unique_and_each_entry_resolves_to_its_role) {
    uint32_t n = pmi_rig_entry_count();
    PM_CHECK(n > 250);
    for (uint32_t i = 0; i < n; i++) {
        const pmi_rig_entry *e = pmi_rig_entry_at(i);
        char key[64];
        pm_name_key(e->key, strlen(e->key), key, sizeof key);
        PM_CHECK_MSG(strcmp(key, e->key) == 0, "entry %u (%s) is not a key", i, e->key);
        PM_CHECK_EQ_INT(e->len, strlen(e->key));
        PM_CHECK(e->naming > PM_RIG_NAMING_NONE && e->naming < PM_RIG_NAMING_COUNT);
        PM_CHECK(e->role < PM_RIG_ROLE_COUNT && pm_rig_role_side((pm_rig_role)e->role) == (e->sided ? 1 : 0));
        for (uint32_t j = 0; j < i; j++) {
            const pmi_rig_entry *f = pmi_rig_entry_at(j);
            PM_CHECK_MSG(!(f->naming == e->naming && f->sided == e->sided && strcmp(f->key, e->key) == 0),
                         "%s is listed twice in table %s", e->key, pm_rig_naming_name((pm_rig_naming)e->naming));
        }
        /* alone, in its own table: the role (sided entries with 左 / "left" / ".R") */
        pm_rig_resolve_options o = {PM_RIG_NAMING_BIT(e->naming)};
        char name[80];
        for (int side = 0; side < (e->sided ? 2 : 1); side++) {
            if (!e->sided) snprintf(name, sizeof name, "%s", e->key);
            else if (e->naming == PM_RIG_NAMING_MMD || e->naming == PM_RIG_NAMING_CHINESE)
                snprintf(name, sizeof name, "%s%s", side ? "右" : "左", e->key);
            else snprintf(name, sizeof name, "%s.%c", e->key, side ? 'R' : 'L');
            pm_rig_roles roles;
            const char *one[1] = {name};
            pm_error err = {0};
            PM_CHECK_OK(pm_rig_resolve_names(one, NULL, 1, &o, &roles, &err), &err);
            pm_rig_role want = PM_RIG_SIDED((pm_rig_role)e->role, e->sided ? side : 0);
            PM_CHECK_MSG(roles.bone[want] == 0 && roles.found == 1, "%s (%s) does not resolve to %s", name,
                         pm_rig_naming_name((pm_rig_naming)e->naming), pm_rig_role_name(want));
        }
    }
}

PM_TEST(role_names_sides_mirrors_and_the_humanoid_bones) {
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) {
        pm_rig_role role = (pm_rig_role)r;
        PM_CHECK(pm_rig_role_name(role) && pm_rig_role_mmd_name(role));
        PM_CHECK_EQ_INT(pm_rig_role_find(pm_rig_role_name(role)), r);
        PM_CHECK_EQ_INT(pm_rig_role_mirror(pm_rig_role_mirror(role)), r);
        /* the semi-standard name of every role is found as that role */
        const char *mmd = pm_rig_role_mmd_name(role);
        pm_rig_naming naming;
        PM_CHECK_MSG(pm_rig_name_role(mmd, strlen(mmd), NULL, &naming) == role, "%s is not %s", mmd, pm_rig_role_name(role));
        PM_CHECK_EQ_INT(naming, PM_RIG_NAMING_MMD);
        int side = pm_rig_role_side(role);
        if (side == 1) PM_CHECK(strncmp(pm_rig_role_name(role), "left", 4) == 0);
        if (side == 2) PM_CHECK(strncmp(pm_rig_role_name(role), "right", 5) == 0);
    }
    PM_CHECK_EQ_INT(pm_rig_role_find("nope"), PM_RIG_ROLE_NONE);
    PM_CHECK(pm_rig_role_name(PM_RIG_ROLE_NONE) == NULL);
    PM_CHECK_STR(pm_rig_role_mmd_name(PM_RIG_RIGHT_WAIST_CANCEL), "腰キャンセル右");
    PM_CHECK_STR(pm_rig_role_mmd_name(PM_RIG_RIGHT_LEG_IK), "右足ＩＫ");
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++)
        PM_CHECK_EQ_INT(pm_rig_role_humanoid(pm_rig_role_of_humanoid((pm_humanoid_bone)h)), h);
    PM_CHECK_EQ_INT(pm_rig_role_of_humanoid(PM_HUMANOID_LEFT_UPPER_LEG), PM_RIG_LEFT_LEG);
    PM_CHECK_EQ_INT(pm_rig_role_humanoid(PM_RIG_CENTER), PM_HUMANOID_BONE_COUNT);
}

/* ---- the resolver's rules --------------------------------------------------------------------------- */

static pm_rig_role role_of(const char *name) { return pm_rig_name_role(name, strlen(name), NULL, NULL); }

PM_TEST(mmd_names_with_full_and_half_width_ik_digits_and_sides) {
    struct {
        const char *name;
        pm_rig_role role;
    } cases[] = {
        {"左足ＩＫ", PM_RIG_LEFT_LEG_IK},     {"左足IK", PM_RIG_LEFT_LEG_IK},        {"右つま先ＩＫ", PM_RIG_RIGHT_TOE_IK},
        {"右つま先IK", PM_RIG_RIGHT_TOE_IK},  {"左足IK親", PM_RIG_LEFT_LEG_IK_PARENT}, {"右足ＩＫ親", PM_RIG_RIGHT_LEG_IK_PARENT},
        {"上半身２", PM_RIG_UPPER_BODY2},    {"上半身2", PM_RIG_UPPER_BODY2},       {"右人指１", PM_RIG_RIGHT_INDEX1},
        {"右人指1", PM_RIG_RIGHT_INDEX1},    {"左親指０", PM_RIG_LEFT_THUMB0},      {"腰キャンセル左", PM_RIG_LEFT_WAIST_CANCEL},
        {"腰キャンセル右", PM_RIG_RIGHT_WAIST_CANCEL}, {"左足D", PM_RIG_LEFT_LEG_D}, {"右ひざＤ", PM_RIG_RIGHT_KNEE_D},
        {"左足首D", PM_RIG_LEFT_ANKLE_D},    {"右足先EX", PM_RIG_RIGHT_TOE_EX},     {"左腕捩", PM_RIG_LEFT_ARM_TWIST},
        {"右手捩", PM_RIG_RIGHT_WRIST_TWIST}, {"左肩P", PM_RIG_LEFT_SHOULDER_P},    {"左膝", PM_RIG_LEFT_KNEE},
        {"右肘", PM_RIG_RIGHT_ELBOW},        {"全ての親", PM_RIG_ROOT},             {"両目", PM_RIG_EYES},
        {"左目", PM_RIG_LEFT_EYE},           {"グルーブ", PM_RIG_GROOVE},           {"操作中心", PM_RIG_VIEW_CENTER},
        /* English (PMX Editor), VRoid, Mixamo, Biped, Daz, Chinese */
        {"leg IK_L", PM_RIG_LEFT_LEG_IK},     {"leg IKP_R", PM_RIG_RIGHT_LEG_IK_PARENT}, {"toe IK_L", PM_RIG_LEFT_TOE_IK},
        {"upper body2", PM_RIG_UPPER_BODY2}, {"arm twist_R", PM_RIG_RIGHT_ARM_TWIST}, {"toe2_L", PM_RIG_LEFT_TOE_EX},
        {"master", PM_RIG_ROOT},             {"J_Bip_L_UpperArm", PM_RIG_LEFT_ARM},  {"J_Bip_C_Hips", PM_RIG_LOWER_BODY},
        {"J_Bip_R_ToeBase", PM_RIG_RIGHT_TOE}, {"mixamorig:LeftUpLeg", PM_RIG_LEFT_LEG}, {"mixamorig1:RightHandIndex1", PM_RIG_RIGHT_INDEX1},
        {"Bip01 L Thigh", PM_RIG_LEFT_LEG},   {"lShldrBend", PM_RIG_LEFT_ARM},       {"左大腿", PM_RIG_LEFT_LEG},
        {"UpperArm.L", PM_RIG_LEFT_ARM},     {"thigh.R", PM_RIG_RIGHT_LEG},          {"leftThumbDistal", PM_RIG_LEFT_THUMB2},
        {"Armature|Head", PM_RIG_HEAD},
        /* never: the IK bone is not the leg, helpers keep their prefix */
        {"J_Sec_L_UpperLeg", PM_RIG_ROLE_NONE}, {"J_Aim_L_Hand", PM_RIG_ROLE_NONE}, {"左足首先", PM_RIG_ROLE_NONE},
        {"", PM_RIG_ROLE_NONE},
    };
    for (uint32_t i = 0; i < N(cases); i++)
        PM_CHECK_MSG(role_of(cases[i].name) == cases[i].role, "%s -> %s, want %s", cases[i].name,
                     role_of(cases[i].name) == PM_RIG_ROLE_NONE ? "none" : pm_rig_role_name(role_of(cases[i].name)),
                     cases[i].role == PM_RIG_ROLE_NONE ? "none" : pm_rig_role_name(cases[i].role));
    PM_CHECK(pm_names_equal("左足ＩＫ", strlen("左足ＩＫ"), "左足IK", strlen("左足IK")));
    PM_CHECK(pm_names_equal("右人指１", strlen("右人指１"), "右人指1", strlen("右人指1")));
    PM_CHECK(!pm_names_equal("左足ik", strlen("左足ik"), "左足IK", strlen("左足IK")));
    PM_CHECK(!pm_names_equal("左足", strlen("左足"), "左足IK", strlen("左足IK")));
}

PM_TEST(a_models_own_naming_decides_ambiguous_names) {
    /* Mixamo: LeftLeg is the shin */
    const char *mixamo[] = {"Hips", "Spine", "Head", "LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm",
                            "RightHand", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"};
    pm_rig_roles r;
    pm_error err = {0};
    PM_CHECK_OK(pm_rig_resolve_names(mixamo, NULL, N(mixamo), NULL, &r, &err), &err);
    PM_CHECK_EQ_INT(r.primary, PM_RIG_NAMING_MIXAMO);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_KNEE], 10);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_LEG], 9);
    /* PMX Editor's English names: leg_L is the thigh, knee_L the shin */
    const char *english[] = {"center", "upper body", "lower body", "head", "arm_L", "elbow_L", "wrist_L", "arm_R",
                             "elbow_R", "wrist_R", "leg_L", "knee_L", "ankle_L", "leg_R", "knee_R", "ankle_R", "leg IK_L"};
    PM_CHECK_OK(pm_rig_resolve_names(english, NULL, N(english), NULL, &r, &err), &err);
    PM_CHECK_EQ_INT(r.primary, PM_RIG_NAMING_ENGLISH);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_LEG], 10);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_KNEE], 11);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_CENTER], 0);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_LEG_IK], 16);
    /* CMU (signed by LeftCollar): LeftShoulder is the upper arm; without a signature it is Mixamo's clavicle */
    const char *cmu[] = {"Hips", "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist", "LeftHip", "LeftKnee", "LeftAnkle"};
    PM_CHECK_OK(pm_rig_resolve_names(cmu, NULL, N(cmu), NULL, &r, &err), &err);
    PM_CHECK(r.cmu_signature);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_ARM], 2);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_SHOULDER], 1);
    const char *unsigned_[] = {"Hips", "LeftShoulder", "LeftArm"};
    PM_CHECK_OK(pm_rig_resolve_names(unsigned_, NULL, N(unsigned_), NULL, &r, &err), &err);
    PM_CHECK(!r.cmu_signature);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_SHOULDER], 1);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_ARM], 2);
    /* a bone plays one role: the fill never gives a bone a second one; MMD roles beside a VRoid rig */
    const char *mixed[] = {"J_Bip_C_Hips", "J_Bip_L_UpperLeg", "J_Bip_R_UpperLeg", "J_Bip_L_UpperArm", "J_Bip_R_UpperArm",
                           "センター", "左足ＩＫ", "left leg"};
    PM_CHECK_OK(pm_rig_resolve_names(mixed, NULL, N(mixed), NULL, &r, &err), &err);
    PM_CHECK_EQ_INT(r.primary, PM_RIG_NAMING_VROID);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LOWER_BODY], 0);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_CENTER], 5);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_LEG_IK], 6);
    PM_CHECK_EQ_INT(r.bone[PM_RIG_LEFT_LEG], 1); /* not "left leg" */
    uint32_t seen[16] = {0};
    for (int k = 0; k < PM_RIG_ROLE_COUNT; k++)
        if (r.bone[k] != PM_NO_INDEX) PM_CHECK_MSG(seen[r.bone[k]]++ == 0, "bone %u plays two roles", r.bone[k]);
    /* errors */
    const char *bad[] = {"a", NULL};
    PM_CHECK_EQ_INT(pm_rig_resolve_names(bad, NULL, 2, NULL, &r, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_rig_resolve_names(NULL, NULL, 2, NULL, &r, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_rig_resolve_names(bad, NULL, 1, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_EQ_INT(pm_rig_resolve_skeleton(NULL, NULL, &r, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_OK(pm_rig_resolve_names(NULL, NULL, 0, NULL, &r, &err), &err);
    PM_CHECK_EQ_INT(r.found, 0);
    PM_CHECK_EQ_INT(r.primary, PM_RIG_NAMING_NONE);
}

PM_TEST(english_names_fill_what_the_names_lack) {
    pm_skeleton *sk = mannequin();
    if (!sk) return;
    variant v;
    variant_of(&v, sk);
    for (uint32_t i = 0; i < v.count; i++) snprintf(v.names[i], sizeof v.names[i], "bone%u", i); /* English names only */
    pm_skeleton *en = vbuild(&v);
    pm_rig_roles a, b;
    pm_error err = {0};
    if (en) {
        PM_CHECK_OK(pm_rig_resolve_skeleton(sk, NULL, &a, &err), &err);
        PM_CHECK_OK(pm_rig_resolve_skeleton(en, NULL, &b, &err), &err);
        PM_CHECK_EQ_INT(b.found, a.found);
        for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) {
            PM_CHECK_MSG(a.bone[r] == b.bone[r], "%s: %u by name, %u by English name", pm_rig_role_name((pm_rig_role)r), a.bone[r], b.bone[r]);
            PM_CHECK(!a.from_english[r]);
            if (b.bone[r] != PM_NO_INDEX) PM_CHECK(b.from_english[r] && b.naming[r] == PM_RIG_NAMING_ENGLISH);
        }
    }
    pm_skeleton_free(en);
    pm_skeleton_free(sk);
}

/* ---- the analysis ------------------------------------------------------------------------------------ */

PM_TEST(mannequin_roles_chains_and_figures_agree_with_the_evaluator) {
    pm_skeleton *sk = mannequin();
    pm_rig *rig = sk ? analyze(sk) : NULL;
    if (!rig) {
        pm_skeleton_free(sk);
        return;
    }
    PM_CHECK_EQ_INT(rig->roles.primary, PM_RIG_NAMING_MMD);
    PM_CHECK_EQ_INT(rig->roles.found, 32);
    PM_CHECK_EQ_INT(rig->chain_count, 4);
    PM_CHECK_EQ_INT(rig->chains[rig->legs[0].toe_chain].kind, PM_RIG_CHAIN_TOE);
    PM_CHECK_EQ_INT(rig->chains[rig->legs[0].ik_chain].parent_role, PM_RIG_ROOT);
    PM_CHECK_EQ_INT(rig->chains[rig->legs[1].toe_chain].parent_role, PM_RIG_RIGHT_LEG_IK);
    PM_CHECK_EQ_INT(rig->legs[0].d_chain, PM_NO_INDEX);
    check_leg_figures("mannequin", sk, rig);
    /* the mannequin's knees rest bent by 19.5 degrees; MMD's limit (-170..-0.5 deg) opens them by 0.5 at
     * most, so the stretched leg is shorter than at rest */
    PM_CHECK_NEAR(rig->legs[0].knee_rest_bend / DEG, 19.467, 0.01);
    PM_CHECK_NEAR((rig->legs[0].knee_bend_min - rig->legs[0].knee_rest_bend) / DEG, 0.5, 0.02);
    PM_CHECK(rig->legs[0].reach_max < rig->legs[0].reach_rest);
    PM_CHECK_NEAR(rig->floor_height, 0.033, 1e-6);
    PM_CHECK_NEAR(rig->hip_height, 10.753, 1e-5);
    PM_CHECK_NEAR(rig->scale, 1.0, 1e-6);
    PM_CHECK_NEAR(rig->legs[0].foot_length, hypot(0.927 - 0.874, -2.409 + 0.001), 1e-5);
    PM_CHECK(rig->arms[0].present && rig->arms[1].present);
    PM_CHECK_NEAR(rig->arms[0].length,
                  pm_vec3_distance(sk->bones[10].position, sk->bones[11].position) + pm_vec3_distance(sk->bones[11].position, sk->bones[12].position),
                  1e-5);
    PM_CHECK_EQ_INT(rig->arms[0].ik_chain, PM_NO_INDEX);
    pm_rig_free(rig);
    pm_skeleton_free(sk);
}

PM_TEST(knees_bent_at_rest_keep_the_leg_short_of_thigh_plus_shin) {
    pm_skeleton *base = mannequin();
    if (!base) return;
    const double bends[] = {0, 15, 31};
    for (uint32_t i = 0; i < N(bends); i++) {
        variant v;
        variant_of(&v, base);
        bend_knee(&v, 0, bends[i]);
        bend_knee(&v, 1, i == 2 ? 2 : bends[i]); /* one model's knees differ: 31 and 2 degrees */
        pm_skeleton *sk = vbuild(&v);
        pm_rig *rig = sk ? analyze(sk) : NULL;
        if (rig) {
            char what[32];
            snprintf(what, sizeof what, "knee %g", bends[i]);
            check_leg_figures(what, sk, rig);
            PM_CHECK_NEAR(rig->legs[0].knee_rest_bend / DEG, bends[i], 1e-3);
            PM_CHECK_NEAR((rig->legs[0].knee_bend_min - rig->legs[0].knee_rest_bend) / DEG, 0.5, 0.01);
            /* the analytic length lies: the leg stays bent by rest + 0.5 degrees */
            const pm_rig_leg *l = &rig->legs[0];
            double open = sqrt(l->thigh * l->thigh + l->shin * l->shin + 2 * l->thigh * l->shin * cos(l->knee_bend_min));
            PM_CHECK_NEAR(l->reach_max, open, 2e-3);
            if (bends[i] >= 15) PM_CHECK(l->length - l->reach_max > 0.08);
            printf("  knee %4.1f deg: length %.4f, reach max %.4f (rest %.4f), min %.4f\n", bends[i], l->length, l->reach_max,
                   l->reach_rest, l->reach_min);
        }
        pm_rig_free(rig);
        pm_skeleton_free(sk);
    }
    pm_skeleton_free(base);
}

PM_TEST(an_ik_bone_below_the_ankle_and_pmd_knee_limits) {
    pm_skeleton *base = mannequin();
    if (!base) return;
    /* the 足ＩＫ bone 0.36 below its ankle (one PMD model): the rest solve leaves the ankle 0.36 above it */
    variant v;
    variant_of(&v, base);
    for (int s = 0; s < 2; s++) v.d[vfind(&v, s ? "右足ＩＫ" : "左足ＩＫ")].position.y -= 0.36f;
    pm_skeleton *sk = vbuild(&v);
    pm_rig *rig = sk ? analyze(sk) : NULL;
    if (rig) {
        check_leg_figures("ik below", sk, rig);
        const pm_rig_chain *c = &rig->chains[rig->legs[0].ik_chain];
        PM_CHECK_NEAR(c->rest_offset.y, -0.36, 1e-6);
        PM_CHECK_NEAR(c->rest_distance, 0.36, 1e-6);
        PM_CHECK(c->rest_error > 0.34 && c->rest_error < 0.37);
        printf("  IK 0.36 below: rest error %.4f, the rest solve moves the ankle %.4f\n", c->rest_error, c->rest_shift);
    }
    pm_rig_free(rig);
    pm_skeleton_free(sk);
    /* PMD knees under babylon-mmd: X in [-180, -0.5] taken as radians, so at least 28.6 degrees more bend */
    variant_of(&v, base);
    for (int s = 0; s < 2; s++) {
        pm_bone_desc *d = &v.d[vfind(&v, s ? "右足ＩＫ" : "左足ＩＫ")];
        pm_ik_link *knee = (pm_ik_link *)&d->ik.links[0];
        knee->limit_min = pm_vec3_make(-180, 0, 0);
        knee->limit_max = pm_vec3_make(-0.5f, 0, 0);
    }
    sk = vbuild(&v);
    rig = sk ? analyze(sk) : NULL;
    if (rig) {
        check_leg_figures("pmd knees", sk, rig);
        const pm_rig_leg *l = &rig->legs[0];
        PM_CHECK((l->knee_bend_min - l->knee_rest_bend) / DEG > 27); /* 28.6 about X; the mannequin's knee plane is tilted */
        PM_CHECK(l->length - l->reach_max > 0.5);
        printf("  PMD knee limits: bend at least %.2f deg, reach max %.4f of %.4f\n", l->knee_bend_min / DEG, l->reach_max, l->length);
    }
    pm_rig_free(rig);
    pm_skeleton_free(sk);
    pm_skeleton_free(base);
}

PM_TEST(parents_d_bones_arm_and_hair_chains_and_missing_bones) {
    pm_skeleton *base = mannequin();
    if (!base) return;
    variant v;
    variant_of(&v, base);
    vremove(&v, "グルーブ");
    vremove(&v, "上半身2");
    uint32_t root = vfind(&v, "全ての親");
    /* 足IK親 under 全ての親, 足ＩＫ under it */
    uint32_t ikp = vadd(&v, "左足IK親", pm_vec3_make(0.874f, 0, -0.001f), root);
    v.d[vfind(&v, "左足ＩＫ")].parent = ikp;
    /* D bones following the legs, with their own IK (ひざD style) */
    uint32_t ld = vadd(&v, "左足D", v.d[vfind(&v, "左足")].position, vfind(&v, "下半身"));
    uint32_t kd = vadd(&v, "左ひざD", v.d[vfind(&v, "左ひざ")].position, ld);
    uint32_t ad = vadd(&v, "左足首D", v.d[vfind(&v, "左足首")].position, kd);
    uint32_t dik = vadd(&v, "左ひざDIK", v.d[ad].position, root);
    static pm_ik_link dlinks[2] = {{0, true, {-2.967f, 0, 0}, {-0.0087f, 0, 0}}, {0, false, {0, 0, 0}, {0, 0, 0}}};
    dlinks[0].bone = kd, dlinks[1].bone = ld;
    v.d[dik].has_ik = true;
    v.d[dik].flags = 0x3e;
    v.d[dik].ik = (pm_ik){ad, 40, 1.0f, 2, dlinks};
    /* an arm IK (左手首IK -> 左手首 [左ひじ, 左腕]) and a hair chain */
    uint32_t wik = vadd(&v, "左手首IK", v.d[vfind(&v, "左手首")].position, root);
    static pm_ik_link alinks[2];
    alinks[0] = (pm_ik_link){vfind(&v, "左ひじ"), false, {0, 0, 0}, {0, 0, 0}};
    alinks[1] = (pm_ik_link){vfind(&v, "左腕"), false, {0, 0, 0}, {0, 0, 0}};
    v.d[wik].has_ik = true, v.d[wik].flags = 0x3e, v.d[wik].ik = (pm_ik){vfind(&v, "左手首"), 20, 1.0f, 2, alinks};
    uint32_t hair = vadd(&v, "後髪1", pm_vec3_make(0, 17, 0.5f), vfind(&v, "頭"));
    uint32_t hair2 = vadd(&v, "後髪2", pm_vec3_make(0, 15, 0.6f), hair);
    uint32_t hik = vadd(&v, "後髪IK", pm_vec3_make(0, 15, 0.6f), vfind(&v, "頭"));
    static pm_ik_link hlinks[1];
    hlinks[0] = (pm_ik_link){hair, false, {0, 0, 0}, {0, 0, 0}};
    v.d[hik].has_ik = true, v.d[hik].flags = 0x3e, v.d[hik].ik = (pm_ik){hair2, 10, 1.0f, 1, hlinks};
    pm_skeleton *sk = vbuild(&v);
    pm_rig *rig = sk ? analyze(sk) : NULL;
    if (rig) {
        PM_CHECK_EQ_INT(rig->roles.bone[PM_RIG_GROOVE], PM_NO_INDEX);
        PM_CHECK_EQ_INT(rig->roles.bone[PM_RIG_UPPER_BODY2], PM_NO_INDEX);
        PM_CHECK_EQ_INT(rig->roles.bone[PM_RIG_LEFT_LEG_IK_PARENT], ikp);
        PM_CHECK_EQ_INT(rig->roles.bone[PM_RIG_LEFT_KNEE_D], kd);
        check_leg_figures("variant", sk, rig);
        const pm_rig_leg *l = &rig->legs[0];
        PM_CHECK_EQ_INT(rig->chains[l->ik_chain].parent_role, PM_RIG_LEFT_LEG_IK_PARENT);
        PM_CHECK_EQ_INT(rig->chains[rig->legs[1].ik_chain].parent_role, PM_RIG_ROOT);
        PM_CHECK(l->d_chain != PM_NO_INDEX);
        if (l->d_chain != PM_NO_INDEX) {
            PM_CHECK_EQ_INT(rig->chains[l->d_chain].kind, PM_RIG_CHAIN_LEG_D);
            PM_CHECK_EQ_INT(rig->chains[l->d_chain].ik_bone, dik);
            PM_CHECK_EQ_INT(rig->chains[l->d_chain].side, 1);
        }
        PM_CHECK(rig->arms[0].ik_chain != PM_NO_INDEX && rig->chains[rig->arms[0].ik_chain].ik_bone == wik);
        PM_CHECK_EQ_INT(rig->arms[1].ik_chain, PM_NO_INDEX);
        bool hair_found = false;
        for (uint32_t i = 0; i < rig->chain_count; i++)
            if (rig->chains[i].ik_bone == hik) hair_found = rig->chains[i].kind == PM_RIG_CHAIN_HAIR && rig->chains[i].side == 0;
        PM_CHECK(hair_found);
        /* the JSON names what is missing */
        size_t n = 0;
        pm_error err = {0};
        PM_CHECK_OK(pm_rig_to_json(rig, NULL, 0, &n, &err), &err);
        char *text = malloc(n + 1);
        PM_CHECK_OK(pm_rig_to_json(rig, text, n + 1, &n, &err), &err);
        cJSON *j = cJSON_ParseWithLength(text, n);
        const cJSON *missing = cJSON_GetObjectItem(j, "missing");
        PM_CHECK_EQ_INT(cJSON_GetArraySize(missing), 2);
        PM_CHECK_STR(cJSON_GetArrayItem(missing, 0)->valuestring, "groove");
        PM_CHECK_STR(cJSON_GetArrayItem(missing, 1)->valuestring, "upperBody2");
        const cJSON *chains = cJSON_GetObjectItem(j, "chains");
        PM_CHECK_EQ_INT(cJSON_GetArraySize(chains), (int)rig->chain_count);
        const cJSON *first = cJSON_GetArrayItem(chains, 0);
        PM_CHECK_STR(cJSON_GetObjectItem(first, "kind")->valuestring, "leg");
        const cJSON *parents = cJSON_GetObjectItem(first, "parents");
        (void)parents;
        cJSON_Delete(j);
        /* too small a buffer is an error, not an overflow */
        PM_CHECK_EQ_INT(pm_rig_to_json(rig, text, n, &n, &err), PM_ERR_INVALID_ARGUMENT);
        free(text);
    }
    pm_rig_free(rig);
    pm_skeleton_free(sk);
    pm_skeleton_free(base);
}

PM_TEST(english_vroid_and_mixamo_names_give_the_same_analysis) {
    pm_skeleton *base = mannequin();
    pm_rig *ref = base ? analyze(base) : NULL;
    if (!ref) {
        pm_skeleton_free(base);
        return;
    }
    static const char *const vroid[][2] = {
        {"センター", "J_Bip_C_Hips"}, {"上半身", "J_Bip_C_Spine"}, {"上半身2", "J_Bip_C_Chest"}, {"首", "J_Bip_C_Neck"},
        {"頭", "J_Bip_C_Head"}, {"左肩", "J_Bip_L_Shoulder"}, {"右肩", "J_Bip_R_Shoulder"}, {"左腕", "J_Bip_L_UpperArm"},
        {"右腕", "J_Bip_R_UpperArm"}, {"左ひじ", "J_Bip_L_LowerArm"}, {"右ひじ", "J_Bip_R_LowerArm"}, {"左手首", "J_Bip_L_Hand"},
        {"右手首", "J_Bip_R_Hand"}, {"左足", "J_Bip_L_UpperLeg"}, {"右足", "J_Bip_R_UpperLeg"}, {"左ひざ", "J_Bip_L_LowerLeg"},
        {"右ひざ", "J_Bip_R_LowerLeg"}, {"左足首", "J_Bip_L_Foot"}, {"右足首", "J_Bip_R_Foot"}, {"左つま先", "J_Bip_L_ToeBase"},
        {"右つま先", "J_Bip_R_ToeBase"}, {"下半身", "J_Sec_LowerBody"}};
    static const char *const mixamo[][2] = {
        {"センター", "mixamorig:Hips"}, {"上半身", "mixamorig:Spine"}, {"上半身2", "mixamorig:Spine1"}, {"首", "mixamorig:Neck"},
        {"頭", "mixamorig:Head"}, {"左肩", "mixamorig:LeftShoulder"}, {"右肩", "mixamorig:RightShoulder"},
        {"左腕", "mixamorig:LeftArm"}, {"右腕", "mixamorig:RightArm"}, {"左ひじ", "mixamorig:LeftForeArm"},
        {"右ひじ", "mixamorig:RightForeArm"}, {"左手首", "mixamorig:LeftHand"}, {"右手首", "mixamorig:RightHand"},
        {"左足", "mixamorig:LeftUpLeg"}, {"右足", "mixamorig:RightUpLeg"}, {"左ひざ", "mixamorig:LeftLeg"},
        {"右ひざ", "mixamorig:RightLeg"}, {"左足首", "mixamorig:LeftFoot"}, {"右足首", "mixamorig:RightFoot"},
        {"左つま先", "mixamorig:LeftToeBase"}, {"右つま先", "mixamorig:RightToeBase"}, {"下半身", "mixamorig:Pelvis_helper"}};
    for (int f = 0; f < 3; f++) {
        variant v;
        variant_of(&v, base);
        if (f == 0)
            for (uint32_t i = 0; i < v.count; i++) snprintf(v.names[i], sizeof v.names[i], "%s", base->bones[i].name_en.data);
        const char *const(*map)[2] = f == 1 ? vroid : mixamo;
        if (f > 0)
            for (int k = 0; k < 22; k++) vrename(&v, map[k][0], map[k][1]);
        if (f > 0)
            for (uint32_t i = 0; i < v.count; i++) v.d[i].name_en = NULL;
        pm_skeleton *sk = vbuild(&v);
        pm_rig *rig = sk ? analyze(sk) : NULL;
        if (rig) {
            const char *what = f == 0 ? "english" : f == 1 ? "vroid" : "mixamo";
            PM_CHECK_EQ_INT(rig->roles.primary, f == 0 ? PM_RIG_NAMING_ENGLISH : f == 1 ? PM_RIG_NAMING_VROID : PM_RIG_NAMING_MIXAMO);
            check_leg_figures(what, sk, rig);
            for (int s = 0; s < 2; s++) {
                const pm_rig_leg *a = &ref->legs[s], *b = &rig->legs[s];
                PM_CHECK_MSG(a->hip == b->hip && a->knee == b->knee && a->ankle == b->ankle && a->toe == b->toe, "%s: leg %d bones", what, s);
                PM_CHECK_NEAR(a->reach_max, b->reach_max, 1e-6);
                PM_CHECK_NEAR(a->knee_bend_min, b->knee_bend_min, 1e-6);
                PM_CHECK_EQ_INT(a->ik_chain, b->ik_chain);
                PM_CHECK(b->present && rig->arms[s].present && rig->arms[s].wrist == ref->arms[s].wrist);
            }
            /* the humanoid bones */
            for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++) {
                pm_rig_role r = pm_rig_role_of_humanoid((pm_humanoid_bone)h);
                if (h == PM_HUMANOID_HIPS && f > 0) continue; /* VRoid / Mixamo hips is the renamed センター */
                PM_CHECK_MSG(rig->roles.bone[r] == ref->roles.bone[r], "%s: %s", what, pm_humanoid_bone_name((pm_humanoid_bone)h));
            }
        }
        pm_rig_free(rig);
        pm_skeleton_free(sk);
    }
    pm_rig_free(ref);
    pm_skeleton_free(base);
}

PM_TEST(shared_pmx_fixtures) {
    const char *files[] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};
    for (uint32_t f = 0; f < N(files); f++) {
        size_t n;
        unsigned char *d = pm_test_read_fixture(files[f], &n);
        if (!d) continue;
        pm_skeleton *sk = NULL;
        pm_error err = {0};
        PM_CHECK_OK(pm_pmx_read(d, n, NULL, &sk, &err), &err);
        pm_rig *rig = sk ? analyze(sk) : NULL;
        if (rig) {
            PM_CHECK_EQ_INT(rig->roles.found, 83); /* all but upperBody3 and the heels */
            PM_CHECK_EQ_INT(rig->chain_count, 4);
            check_leg_figures(files[f], sk, rig);
            for (int s = 0; s < 2; s++) {
                const pm_rig_chain *c = &rig->chains[rig->legs[s].ik_chain];
                PM_CHECK_EQ_INT(c->parent_role, PM_RIG_SIDED(PM_RIG_LEFT_LEG_IK_PARENT, s));
                PM_CHECK_EQ_INT(c->loop_count, 200);
                PM_CHECK(rig->legs[s].toe_chain != PM_NO_INDEX);
                PM_CHECK(rig->roles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM_TWIST, s)] != PM_NO_INDEX);
                PM_CHECK(sk->bones[rig->roles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM_TWIST, s)]].flags & PM_BONE_FIXED_AXIS);
            }
            PM_CHECK_NEAR(rig->legs[0].knee_rest_bend / DEG, 2.91, 0.01); /* NOTES.md: yw_test_model 3 degrees */
            printf("  %s: knee %.2f deg (opens to %.2f), reach %.4f..%.4f of %.4f, floor %.4f, scale %.4f\n", files[f],
                   rig->legs[0].knee_rest_bend / DEG, rig->legs[0].knee_bend_min / DEG, rig->legs[0].reach_min,
                   rig->legs[0].reach_max, rig->legs[0].length, rig->floor_height, rig->scale);
        }
        pm_rig_free(rig);
        pm_skeleton_free(sk);
        free(d);
    }
}

PM_TEST(bad_input_and_every_allocation_failing) {
    pm_error err = {0};
    pm_rig *rig = (pm_rig *)1;
    PM_CHECK_EQ_INT(pm_rig_analyze(NULL, NULL, &rig, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(rig == NULL);
    PM_CHECK_EQ_INT(pm_rig_analyze(NULL, NULL, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    size_t n;
    PM_CHECK_EQ_INT(pm_rig_to_json(NULL, NULL, 0, &n, &err), PM_ERR_INVALID_ARGUMENT);
    pm_rig_free(NULL);
    /* an empty skeleton and one without any known bone: no roles, no legs, no error */
    pm_skeleton *sk = NULL;
    pm_bone_desc one = {.name = "foo", .position = {0, 1, 0}, .parent = PM_NO_INDEX, .append_parent = PM_NO_INDEX, .tail_bone = PM_NO_INDEX};
    PM_CHECK_OK(pm_skeleton_create(&one, 1, NULL, 0, NULL, &sk, &err), &err);
    if (sk) {
        PM_CHECK_OK(pm_rig_analyze(sk, NULL, &rig, &err), &err);
        if (rig) {
            PM_CHECK_EQ_INT(rig->roles.found, 0);
            PM_CHECK(!rig->legs[0].present && !rig->arms[1].present);
            PM_CHECK_EQ_INT(rig->scale, 0);
            PM_CHECK_OK(pm_rig_to_json(rig, NULL, 0, &n, &err), &err);
        }
        pm_rig_free(rig);
        pm_skeleton_free(sk);
    }
    /* huge positions (lengths and squares overflow the float range): every figure stays finite */
    pm_skeleton *huge_base = mannequin();
    for (int pass = 0; pass < 2 && huge_base; pass++) {
        float big = pass ? 1e20f : 3e38f;
        variant v;
        variant_of(&v, huge_base);
        v.d[vfind(&v, "左ひざ")].position = pm_vec3_make(big, -big, big);
        v.d[vfind(&v, "右足首")].position = pm_vec3_make(-big, big, 1);
        pm_skeleton *huge = vbuild(&v);
        pm_rig *hr = huge ? analyze(huge) : NULL;
        if (hr) {
            for (int s = 0; s < 2; s++) {
                const pm_rig_leg *l = &hr->legs[s];
                const float f[] = {l->thigh, l->shin, l->length, l->knee_rest_bend, l->knee_bend_min, l->knee_bend_max,
                                   l->reach_rest, l->reach_min, l->reach_max, l->foot_length, l->ankle_height};
                for (size_t k = 0; k < N(f); k++) PM_CHECK_MSG(isfinite(f[k]), "leg %d figure %zu is %g", s, k, f[k]);
            }
            for (uint32_t c = 0; c < hr->chain_count; c++)
                PM_CHECK(isfinite(hr->chains[c].rest_error) && isfinite(hr->chains[c].rest_distance));
            PM_CHECK(isfinite(hr->floor_height) && isfinite(hr->scale) && isfinite(hr->leg_length));
        }
        pm_rig_free(hr);
        pm_skeleton_free(huge);
    }
    pm_skeleton_free(huge_base);
    /* fail each allocation of an analysis in turn: a clean error and nothing leaked */
    pm_skeleton *m = mannequin();
    if (!m) return;
    long total = 0, stride = 1;
    for (long k = 0; k <= total; k += k ? stride : 1) { /* k = 0: no failure, counts the allocations */
        counter c = {.fail_at = k};
        counter_begin(&c);
        pm_rig_options o = {.allocator = counter_allocator(&c)};
        pm_error e = {0};
        pm_rig *r = NULL;
        pm_result res = pm_rig_analyze(m, &o, &r, &e);
        if (res == PM_OK) {
            size_t sz = 0;
            res = pm_rig_to_json(r, NULL, 0, &sz, &e);
        }
        pm_rig_free(r);
        counter_end(&c);
        PM_CHECK_MSG(c.live == 0, "allocation %ld failing: %ld blocks leaked", k, c.live);
        if (k == 0) {
            PM_CHECK_OK(res, &e);
            total = c.calls;
            if (pm_test_quick()) stride = total / 100 + 1; /* valgrind: about 100 failure runs */
            continue;
        }
        PM_CHECK_MSG(c.hit && res == PM_ERR_OUT_OF_MEMORY && e.message[0], "allocation %ld of %ld failing gave %d (%s)", k, total,
                     (int)res, e.message);
    }
    printf("  an analysis and its JSON make %ld allocations (cJSON's included); each failing one%s is a clean error\n", total,
           stride > 1 ? " (every k-th, PM_TEST_QUICK)" : "");
    PM_CHECK(total > 3);
    pm_skeleton_free(m);
}

int main(void) { return pm_test_run_all(); }
