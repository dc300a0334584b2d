/* A humanoid motion retargeted to an MMD model as a VMD (see procmotion/retarget.h). */
#include "procmotion/retarget.h"
#include "retarget/report.h"

#include "common/internal.h"
#include "common/json.h"
#include "landing/report_json.h"
#include "keyfit/keyfit.h"
#include "math/inline.h"
#include "procmotion/mannequin.h"
#include "procmotion/pose.h"
#include "procmotion/rig.h"

#include <math.h>

#define DEG (PM_PI / 180.0)

/* A role the converter carries, the roles whose joint gives its rest direction (the first both rigs
 * have), and the role whose alignment it takes when none of them is there. */
typedef struct role_def {
    pm_rig_role role, next[3], parent;
} role_def;

#define NO PM_RIG_ROLE_NONE
#define SIDE(r) PM_RIG_LEFT_##r
static const role_def CENTRE_ROLES[] = {
    {PM_RIG_LOWER_BODY, {NO, NO, NO}, NO},
    {PM_RIG_UPPER_BODY, {PM_RIG_UPPER_BODY2, PM_RIG_UPPER_BODY3, PM_RIG_NECK}, NO},
    {PM_RIG_UPPER_BODY2, {PM_RIG_UPPER_BODY3, PM_RIG_NECK, NO}, PM_RIG_UPPER_BODY},
    {PM_RIG_UPPER_BODY3, {PM_RIG_NECK, NO, NO}, PM_RIG_UPPER_BODY2},
    {PM_RIG_NECK, {PM_RIG_HEAD, NO, NO}, PM_RIG_UPPER_BODY3},
    {PM_RIG_HEAD, {NO, NO, NO}, NO},
};
static const role_def SIDE_ROLES[] = {
    {SIDE(SHOULDER), {SIDE(ARM), NO, NO}, NO},
    {SIDE(ARM), {SIDE(ELBOW), NO, NO}, SIDE(SHOULDER)},
    {SIDE(ELBOW), {SIDE(WRIST), NO, NO}, SIDE(ARM)},
    {SIDE(WRIST), {SIDE(MIDDLE1), SIDE(INDEX1), SIDE(RING1)}, SIDE(ELBOW)},
    {SIDE(THUMB0), {SIDE(THUMB1), NO, NO}, SIDE(WRIST)},
    {SIDE(THUMB1), {SIDE(THUMB2), NO, NO}, SIDE(THUMB0)},
    {SIDE(THUMB2), {NO, NO, NO}, SIDE(THUMB1)},
    {SIDE(INDEX1), {SIDE(INDEX2), NO, NO}, SIDE(WRIST)},
    {SIDE(INDEX2), {SIDE(INDEX3), NO, NO}, SIDE(INDEX1)},
    {SIDE(INDEX3), {NO, NO, NO}, SIDE(INDEX2)},
    {SIDE(MIDDLE1), {SIDE(MIDDLE2), NO, NO}, SIDE(WRIST)},
    {SIDE(MIDDLE2), {SIDE(MIDDLE3), NO, NO}, SIDE(MIDDLE1)},
    {SIDE(MIDDLE3), {NO, NO, NO}, SIDE(MIDDLE2)},
    {SIDE(RING1), {SIDE(RING2), NO, NO}, SIDE(WRIST)},
    {SIDE(RING2), {SIDE(RING3), NO, NO}, SIDE(RING1)},
    {SIDE(RING3), {NO, NO, NO}, SIDE(RING2)},
    {SIDE(LITTLE1), {SIDE(LITTLE2), NO, NO}, SIDE(WRIST)},
    {SIDE(LITTLE2), {SIDE(LITTLE3), NO, NO}, SIDE(LITTLE1)},
    {SIDE(LITTLE3), {NO, NO, NO}, SIDE(LITTLE2)},
    {SIDE(LEG), {SIDE(KNEE), NO, NO}, NO},
    {SIDE(KNEE), {SIDE(ANKLE), NO, NO}, SIDE(LEG)},
    {SIDE(ANKLE), {SIDE(TOE), NO, NO}, SIDE(KNEE)},
};
#define N_CENTRE (sizeof CENTRE_ROLES / sizeof CENTRE_ROLES[0])
#define N_SIDE (sizeof SIDE_ROLES / sizeof SIDE_ROLES[0])
#define N_ROLES (N_CENTRE + 2 * N_SIDE)

static role_def role_at(size_t i) {
    if (i < N_CENTRE) return CENTRE_ROLES[i];
    size_t k = i - N_CENTRE, side = k / N_SIDE;
    role_def d = SIDE_ROLES[k % N_SIDE];
    const uint32_t off = (uint32_t)(side * PM_RIG_SIDE_ROLE_COUNT);
    d.role = (pm_rig_role)(d.role + off);
    for (int n = 0; n < 3; n++)
        if (d.next[n] != NO) d.next[n] = (pm_rig_role)(d.next[n] + off);
    if (d.parent != NO) d.parent = (pm_rig_role)(d.parent + off);
    return d;
}

/* One bone the converter keys. */
typedef struct carried {
    pm_rig_role role;
    uint32_t bone, joint, depth;
    pmi_dq align;     /* the model's rest direction onto the source's (model axes) */
    pmi_dq rest_inv;  /* the inverse of the source joint's rest world rotation, in model axes */
    double *q;        /* [(frames + 1) * 4] local rotations */
} carried;

typedef struct converter {
    const pm_humanoid_motion *src;
    double axes[3][3];  /* source -> model axes (rows: left, up, back) */
    pmi_dq axes_q;      /* the same as a rotation (the negated matrix when it is a reflection) */
    double scale;
} converter;

static pmi_dv to_model(const converter *c, pmi_dv v) {
    return pmi_dv_make(c->axes[0][0] * v.x + c->axes[0][1] * v.y + c->axes[0][2] * v.z,
                       c->axes[1][0] * v.x + c->axes[1][1] * v.y + c->axes[1][2] * v.z,
                       c->axes[2][0] * v.x + c->axes[2][1] * v.y + c->axes[2][2] * v.z);
}

/* The rotation of a world matrix (columns normalised: a glTF node may carry scale), in model axes. */
static pmi_dq rot_in_model(const converter *c, const pm_mat4 *w) {
    float m[16];
    memcpy(m, w->m, sizeof m);
    for (int col = 0; col < 3; col++) {
        double n = sqrt((double)m[4 * col] * m[4 * col] + (double)m[4 * col + 1] * m[4 * col + 1] + (double)m[4 * col + 2] * m[4 * col + 2]);
        if (n > 1e-12)
            for (int k = 0; k < 3; k++) m[4 * col + k] = (float)(m[4 * col + k] / n);
    }
    pmi_dq q = pmi_dq_from_mat(m);
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 1e-12)) return pmi_dq_identity();
    q = (pmi_dq){q.x / n, q.y / n, q.z / n, q.w / n};
    return pmi_dq_mul(pmi_dq_mul(c->axes_q, q), pmi_dq_conj(c->axes_q));
}

static pmi_dq bone_world_rot(const pm_pose *pose, uint32_t bone) {
    if (bone == PM_NO_INDEX) return pmi_dq_identity();
    pmi_dq q = pmi_dq_from_mat(pose->world[bone].m);
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 1e-12 ? (pmi_dq){q.x / n, q.y / n, q.z / n, q.w / n} : pmi_dq_identity();
}

static pm_vec3 vec3_of(pmi_dv v) { return pm_vec3_make((float)v.x, (float)v.y, (float)v.z); }

/* The source's axes from its rest pose. */
static pm_result find_axes(converter *c, pm_retarget_report *rep, pm_error *err) {
    const pm_humanoid_motion *s = c->src;
    const pm_rig_roles *ro = &s->roles;
    pmi_dv hl = pmi_mat_translation(s->rest[ro->bone[PM_RIG_LEFT_LEG]].m), hr = pmi_mat_translation(s->rest[ro->bone[PM_RIG_RIGHT_LEG]].m);
    pmi_dv al = pmi_mat_translation(s->rest[ro->bone[PM_RIG_LEFT_ARM]].m), ar = pmi_mat_translation(s->rest[ro->bone[PM_RIG_RIGHT_ARM]].m);
    pmi_dv left = pmi_dv_sub(hl, hr);
    if (pmi_dv_len(left) < 1e-6 * (1 + pmi_dv_len(pmi_dv_sub(al, hl)))) left = pmi_dv_sub(al, ar);
    pmi_dv up = pmi_dv_sub(pmi_dv_scale(pmi_dv_add(al, ar), 0.5), pmi_dv_scale(pmi_dv_add(hl, hr), 0.5));
    if (!(pmi_dv_len(left) > 0) || !(pmi_dv_len(up) > 0))
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "retarget: the source's rest pose has its hips or shoulders on one point");
    pmi_dv L = pmi_dv_normalize(left);
    pmi_dv U = pmi_dv_sub(up, pmi_dv_scale(L, pmi_dv_dot(up, L)));
    if (!(pmi_dv_len(U) > 1e-9 * pmi_dv_len(up)))
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "retarget: the source's rest pose has its shoulders level with its hips");
    U = pmi_dv_normalize(U);
    pmi_dv F = pmi_dv_cross(L, U); /* forward, as a right-handed file has it */
    double toes = 0;
    for (int side = 0; side < 2; side++) {
        uint32_t a = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, side)], t = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_TOE, side)];
        if (a != PM_NO_INDEX && t != PM_NO_INDEX) toes += pmi_dv_dot(pmi_dv_sub(pmi_mat_translation(s->rest[t].m), pmi_mat_translation(s->rest[a].m)), F);
    }
    rep->forward_from_toes = toes != 0;
    if (toes < 0) F = pmi_dv_scale(F, -1);
    const pmi_dv rows[3] = {L, U, pmi_dv_scale(F, -1)};
    for (int r = 0; r < 3; r++) c->axes[r][0] = rows[r].x, c->axes[r][1] = rows[r].y, c->axes[r][2] = rows[r].z;
    /* a reflection conjugates as its negation, a rotation */
    double det = pmi_dv_dot(rows[0], pmi_dv_cross(rows[1], rows[2])), sgn = det < 0 ? -1 : 1;
    float m[16] = {0};
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++) m[4 * col + r] = (float)(sgn * c->axes[r][col]);
    m[15] = 1;
    c->axes_q = pmi_dq_from_mat(m);
    double n = sqrt(c->axes_q.x * c->axes_q.x + c->axes_q.y * c->axes_q.y + c->axes_q.z * c->axes_q.z + c->axes_q.w * c->axes_q.w);
    c->axes_q = (pmi_dq){c->axes_q.x / n, c->axes_q.y / n, c->axes_q.z / n, c->axes_q.w / n};
    return PM_OK;
}

/* The two-bone limbs: root, middle, end (left roles). */
static const pm_rig_role LIMBS[2][3] = {{PM_RIG_LEFT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_LEFT_ANKLE},
                                        {PM_RIG_LEFT_ARM, PM_RIG_LEFT_ELBOW, PM_RIG_LEFT_WRIST}};

/* Whether the source's limb bends less than 10 degrees at its middle joint at rest. */
static bool straight_at_rest(const pm_humanoid_motion *s, pm_rig_role root, pm_rig_role mid, pm_rig_role end) {
    uint32_t a = s->roles.bone[root], b = s->roles.bone[mid], c = s->roles.bone[end];
    if (a == PM_NO_INDEX || b == PM_NO_INDEX || c == PM_NO_INDEX) return false;
    pmi_dv u = pmi_dv_sub(pmi_mat_translation(s->rest[b].m), pmi_mat_translation(s->rest[a].m)), v = pmi_dv_sub(pmi_mat_translation(s->rest[c].m), pmi_mat_translation(s->rest[b].m));
    double lu = pmi_dv_len(u), lv = pmi_dv_len(v);
    return lu > 0 && lv > 0 && pmi_dv_dot(u, v) / (lu * lv) > cos(10 * DEG);
}

/* The child joint farthest from `joint` at rest (PM_NO_INDEX for a leaf). */
static uint32_t farthest_child(const pm_humanoid_motion *s, uint32_t joint) {
    uint32_t best = PM_NO_INDEX;
    double far = 0;
    for (uint32_t j = 0; j < s->joint_count; j++) {
        if (s->parents[j] != joint) continue;
        double d = pmi_dv_len(pmi_dv_sub(pmi_mat_translation(s->rest[j].m), pmi_mat_translation(s->rest[joint].m)));
        if (d > far) far = d, best = j;
    }
    return best;
}

static double leg_length(pmi_dv hip, pmi_dv knee, pmi_dv ankle) { return pmi_dv_len(pmi_dv_sub(hip, knee)) + pmi_dv_len(pmi_dv_sub(knee, ankle)); }

/* ---- hands and the body ------------------------------------------------------------------------ */

/* The body's capsules on the source, as pm_rig_body_capsules makes them on a model (in the source's
 * units, each end carried by a joint), and the hand points. */
typedef struct src_body {
    bool present[PM_RIG_CAPSULE_COUNT];
    uint32_t joint[PM_RIG_CAPSULE_COUNT][2];
    pm_vec3 local[PM_RIG_CAPSULE_COUNT][2]; /* the end in its joint's rest frame */
    double radius[PM_RIG_CAPSULE_COUNT];
    uint32_t hand[2][2];                    /* wrist (or the elbow's farthest child) and middle fingertip */
    double leg;                             /* mean leg length */
} src_body;

static void carry(src_body *b, const pm_humanoid_motion *s, int c, int k, uint32_t joint, pmi_dv end) {
    pm_mat4 inv = pm_mat4_inverse_affine(&s->rest[joint]);
    b->joint[c][k] = joint;
    b->local[c][k] = pm_mat4_transform_point(&inv, vec3_of(end));
}

static void source_body(const converter *c, double leg, src_body *b) {
    const pm_humanoid_motion *s = c->src;
    const uint32_t *role = s->roles.bone;
    memset(b, 0, sizeof *b);
    b->leg = leg;
    const pmi_dv up = pmi_dv_make(c->axes[1][0], c->axes[1][1], c->axes[1][2]); /* source axes */
    uint32_t pelvis = role[PM_RIG_LOWER_BODY];
    uint32_t chest = role[PM_RIG_UPPER_BODY2] != PM_NO_INDEX ? role[PM_RIG_UPPER_BODY2] : role[PM_RIG_UPPER_BODY];
    uint32_t neck = role[PM_RIG_NECK] != PM_NO_INDEX ? role[PM_RIG_NECK] : role[PM_RIG_HEAD];
    if (chest == PM_NO_INDEX) chest = pelvis;
    if (neck != PM_NO_INDEX) {
        double r = PM_RIG_TORSO_RADIUS * leg;
        pmi_dv hips = pmi_dv_scale(pmi_dv_add(pmi_mat_translation(s->rest[role[PM_RIG_LEFT_LEG]].m), pmi_mat_translation(s->rest[role[PM_RIG_RIGHT_LEG]].m)), 0.5);
        carry(b, s, PM_RIG_CAPSULE_TORSO, 0, pelvis, pmi_dv_add(hips, pmi_dv_scale(up, 0.6 * r)));
        carry(b, s, PM_RIG_CAPSULE_TORSO, 1, chest, pmi_dv_sub(pmi_mat_translation(s->rest[neck].m), pmi_dv_scale(up, 0.5 * r)));
        b->radius[PM_RIG_CAPSULE_TORSO] = r;
        b->present[PM_RIG_CAPSULE_TORSO] = true;
    }
    if (role[PM_RIG_HEAD] != PM_NO_INDEX) {
        double r = PM_RIG_HEAD_RADIUS * leg;
        pmi_dv top = pmi_dv_add(pmi_mat_translation(s->rest[role[PM_RIG_HEAD]].m), pmi_dv_scale(up, r));
        carry(b, s, PM_RIG_CAPSULE_HEAD, 0, role[PM_RIG_HEAD], top);
        carry(b, s, PM_RIG_CAPSULE_HEAD, 1, role[PM_RIG_HEAD], top);
        b->radius[PM_RIG_CAPSULE_HEAD] = r;
        b->present[PM_RIG_CAPSULE_HEAD] = true;
    }
    for (int side = 0; side < 2; side++) {
        int cap = PM_RIG_CAPSULE_LEFT_THIGH + side;
        uint32_t hip = role[PM_RIG_SIDED(PM_RIG_LEFT_LEG, side)], knee = role[PM_RIG_SIDED(PM_RIG_LEFT_KNEE, side)];
        carry(b, s, cap, 0, hip, pmi_mat_translation(s->rest[hip].m));
        carry(b, s, cap, 1, knee, pmi_mat_translation(s->rest[knee].m));
        b->radius[cap] = PM_RIG_THIGH_RADIUS * leg;
        b->present[cap] = true;
        uint32_t wrist = role[PM_RIG_SIDED(PM_RIG_LEFT_WRIST, side)], elbow = role[PM_RIG_SIDED(PM_RIG_LEFT_ELBOW, side)];
        b->hand[side][0] = wrist != PM_NO_INDEX ? wrist : elbow != PM_NO_INDEX ? farthest_child(s, elbow) : PM_NO_INDEX;
        b->hand[side][1] = role[PM_RIG_SIDED(PM_RIG_LEFT_MIDDLE3, side)];
    }
}

/* The source hand's least clearance from the body's capsules, in leg lengths. */
static double source_clearance(const src_body *b, const pm_mat4 *world, int side) {
    double best = INFINITY;
    for (int k = 0; k < 2; k++) {
        uint32_t h = b->hand[side][k];
        if (h == PM_NO_INDEX) continue;
        pmi_dv p = pmi_mat_translation(world[h].m);
        for (int c = 0; c < PM_RIG_CAPSULE_COUNT; c++) {
            if (!b->present[c]) continue;
            pmi_dv e[2];
            for (int j = 0; j < 2; j++) e[j] = pmi_dv_of(pm_mat4_transform_point(&world[b->joint[c][j]], b->local[c][j]));
            best = fmin(best, (pmi_dv_segment_distance(p, e[0], e[1]) - b->radius[c]) / b->leg);
        }
    }
    return best;
}

/* The model hand's points against the capsules: the least clearance (units); when `depth_axis` is
 * given, the sum over every point and capsule closer than `allowed` of depth * (lever x outward normal)
 * about `pivot` (the turn that takes them all out); when `nearest` is, the nearest hand point and the
 * nearest point of that capsule's axis. */
static double model_clearance(const pm_rig *rig, const pm_rig_capsule *caps, const pm_pose *pose, const uint32_t hand[2], double allowed,
                              pmi_dv pivot, pmi_dv *depth_axis, pmi_dv nearest[2]) {
    const pm_skeleton *sk = rig->skeleton;
    double best = INFINITY;
    if (depth_axis) *depth_axis = pmi_dv_make(0, 0, 0);
    for (int k = 0; k < 2; k++) {
        if (hand[k] == PM_NO_INDEX) continue;
        pmi_dv p = pmi_mat_translation(pose->world[hand[k]].m);
        for (int c = 0; c < PM_RIG_CAPSULE_COUNT; c++) {
            if (!caps[c].present) continue;
            pmi_dv e[2];
            for (int j = 0; j < 2; j++) {
                pm_vec3 rel = pm_vec3_make(caps[c].end[j].x - sk->bones[caps[c].bone[j]].position.x,
                                           caps[c].end[j].y - sk->bones[caps[c].bone[j]].position.y,
                                           caps[c].end[j].z - sk->bones[caps[c].bone[j]].position.z);
                e[j] = pmi_dv_of(pm_mat4_transform_point(&pose->world[caps[c].bone[j]], rel));
            }
            const double d = pmi_dv_segment_distance(p, e[0], e[1]) - caps[c].radius;
            if (nearest && d < best) nearest[0] = p, nearest[1] = pmi_dv_segment_nearest(p, e[0], e[1]);
            best = fmin(best, d);
            if (depth_axis && d < allowed) {
                pmi_dv out = pmi_dv_sub(p, pmi_dv_segment_nearest(p, e[0], e[1]));
                if (pmi_dv_len(out) > 1e-9)
                    *depth_axis = pmi_dv_add(*depth_axis, pmi_dv_scale(pmi_dv_cross(pmi_dv_sub(p, pivot), pmi_dv_normalize(out)), allowed - d));
            }
        }
    }
    return best;
}

/* Turn the upper arm out until the hand is as clear of the body as the source's was (never deeper
 * than it, never into the body when the source's hand was outside): about the axis that takes every
 * point out of every capsule it is in, by small steps. With `touch` finite (the source's hand touched
 * its body), turn it in until the hand is within `touch` of the body. */
static pm_result keep_hand_clear(const pm_rig *rig, const pm_rig_capsule *caps, pm_pose_workspace *ws, pm_pose *pose, uint32_t arm,
                                 const uint32_t hand[2], double allowed, double touch, const pm_pose_options *po, uint32_t *corrected,
                                 pm_error *err) {
    const pm_skeleton *sk = rig->skeleton;
    const double target = allowed + 0.002 * rig->leg_length;
    /* the side away from the body: the arm's rest offset from the body's middle, turned with its parent */
    const uint32_t torso = caps[PM_RIG_CAPSULE_TORSO].present ? caps[PM_RIG_CAPSULE_TORSO].bone[1] : sk->bones[arm].parent;
    const double side = sk->bones[arm].position.x >= (torso != PM_NO_INDEX ? sk->bones[torso].position.x : 0) ? 1 : -1;
    for (int iter = 0; iter < 40; iter++) {
        const pmi_dv shoulder = pmi_mat_translation(pose->world[arm].m);
        pmi_dv axis = {0, 0, 0}, near[2] = {{0, 0, 0}, {0, 0, 0}};
        double d = model_clearance(rig, caps, pose, hand, target, shoulder, &axis, near);
        const bool in = d > touch && iter < 24; /* reach in towards the nearest capsule */
        if (!(d < allowed - 1e-4) && !in) break;
        if (iter == 0) ++*corrected;
        if (in) {
            axis = pmi_dv_cross(pmi_dv_sub(near[0], shoulder), pmi_dv_sub(near[1], near[0]));
        } else if (iter >= 12) { /* caught between two capsules: out to the side, as a person lifts the arm */
            pmi_dv out = pmi_dq_rotate(bone_world_rot(pose, torso), pmi_dv_make(side, 0, 0)), p = shoulder;
            for (int k = 0; k < 2; k++)
                if (hand[k] != PM_NO_INDEX) p = pmi_mat_translation(pose->world[hand[k]].m);
            axis = pmi_dv_cross(pmi_dv_sub(p, shoulder), out);
        }
        double len = pmi_dv_len(axis);
        if (!(len > 1e-9)) break;
        /* the step: the depth over the arm's length, at most 6 degrees */
        double reach = 0;
        for (int k = 0; k < 2; k++)
            if (hand[k] != PM_NO_INDEX) reach = fmax(reach, pmi_dv_len(pmi_dv_sub(pmi_mat_translation(pose->world[hand[k]].m), shoulder)));
        const double need = in ? d - touch + 0.002 * rig->leg_length : target - d; /* the distance to cover */
        double step = fmin(need / fmax(reach, 1e-6), 6 * DEG);
        pmi_dq turn = pmi_dq_axis_angle(axis, step);
        pmi_dq world_rot = pmi_dq_mul(turn, bone_world_rot(pose, arm));
        pmi_dq local = pmi_dq_mul(pmi_dq_conj(bone_world_rot(pose, sk->bones[arm].parent)), world_rot);
        pose->rotation[arm] = pmi_dq_to_quat(local);
        pm_result r = pm_pose_update_subtree(ws, pose, arm, po, err);
        if (r) return r;
    }
    return PM_OK;
}

/* ---- the torso ------------------------------------------------------------------------------------ */

static pmi_dv joint_mid(const pm_mat4 *world, uint32_t a, uint32_t b) {
    return pmi_dv_scale(pmi_dv_add(pmi_mat_translation(world[a].m), pmi_mat_translation(world[b].m)), 0.5);
}

/* The line from the hips to the shoulders as the source's: a spine proportioned otherwise (a long 上半身
 * under a short 上半身2, where the source bends low in the back, or a model with one spine bone) puts the
 * shoulders elsewhere. 上半身 is turned so the shoulders' midpoint lies on the source's line, at most 60
 * degrees; the keyed bones on it (上半身2, or the shoulders and the neck) keep their world turns. */
/* What 上半身 carries round on the way to an arm: the keyed bone on it above the arm (上半身2, or a
 * shoulder) keeps its world turn below, so only that bone's joint moves; an arm with none moves whole. */
static uint32_t torso_end(const pm_skeleton *model, uint32_t ub, const carried *bones, uint32_t nb, uint32_t arm) {
    uint32_t b = arm;
    for (uint32_t guard = 0; b != PM_NO_INDEX && model->bones[b].parent != ub && guard < model->bone_count; guard++)
        b = model->bones[b].parent;
    for (uint32_t i = 0; b != PM_NO_INDEX && i < nb; i++)
        if (bones[i].bone == b) return b;
    return arm;
}

static pm_result aim_torso(const converter *c, const pm_skeleton *model, const pm_rig_roles *sr, const pm_rig_roles *tr,
                           const pm_mat4 *world, const carried *bones, uint32_t nb, const uint32_t ends[2],
                           pm_pose_workspace *ws, pm_pose *pose, const pm_pose_options *po, pm_error *err) {
    const uint32_t ub = tr->bone[PM_RIG_UPPER_BODY];
    const pmi_dv sp = to_model(c, joint_mid(world, sr->bone[PM_RIG_LEFT_LEG], sr->bone[PM_RIG_RIGHT_LEG]));
    const pmi_dv ss = to_model(c, joint_mid(world, sr->bone[PM_RIG_LEFT_ARM], sr->bone[PM_RIG_RIGHT_ARM]));
    const pmi_dv d = pmi_dv_normalize(pmi_dv_sub(ss, sp));
    const pmi_dv p0 = joint_mid(pose->world, tr->bone[PM_RIG_LEFT_LEG], tr->bone[PM_RIG_RIGHT_LEG]);
    const pmi_dv sh = joint_mid(pose->world, tr->bone[PM_RIG_LEFT_ARM], tr->bone[PM_RIG_RIGHT_ARM]);
    const pmi_dv p1 = pmi_mat_translation(pose->world[ub].m);
    /* the shoulders move with what 上半身 carries round (torso_end): on the sphere of radius |v| about
       centre, nearest where they are, on the line p0 + t d */
    const pmi_dv carried_end = joint_mid(pose->world, ends[0], ends[1]);
    const pmi_dv v = pmi_dv_sub(carried_end, p1), centre = pmi_dv_sub(sh, v), rel = pmi_dv_sub(p0, centre);
    const double b = pmi_dv_dot(d, rel), disc = b * b - (pmi_dv_dot(rel, rel) - pmi_dv_dot(v, v));
    double t = -b;
    if (disc > 0) {
        const double t1 = -b - sqrt(disc), t2 = -b + sqrt(disc);
        const pmi_dv x1 = pmi_dv_add(p0, pmi_dv_scale(d, t1)), x2 = pmi_dv_add(p0, pmi_dv_scale(d, t2));
        t = pmi_dv_len(pmi_dv_sub(x1, sh)) <= pmi_dv_len(pmi_dv_sub(x2, sh)) ? t1 : t2;
    }
    const pmi_dv to = pmi_dv_sub(pmi_dv_add(p0, pmi_dv_scale(d, t)), centre);
    if (!(pmi_dv_len(v) > 1e-9 && pmi_dv_len(to) > 1e-9)) return PM_OK;
    pmi_dq turn = pmi_dq_arc(pmi_dv_normalize(v), pmi_dv_normalize(to));
    const double limit = cos(30 * DEG); /* the w of a 60-degree turn (pmi_dq_arc's w is never negative) */
    if (turn.w < limit) { /* at most 60 degrees, about the same axis */
        const double k = sqrt(1 - limit * limit) / sqrt(fmax(1e-24, 1 - turn.w * turn.w));
        turn = (pmi_dq){turn.x * k, turn.y * k, turn.z * k, limit};
    }
    const pmi_dq upper = pmi_dq_mul(turn, bone_world_rot(pose, ub));
    for (uint32_t i = 0; i < nb; i++)
        if (model->bones[bones[i].bone].parent == ub)
            pose->rotation[bones[i].bone] = pmi_dq_to_quat(pmi_dq_mul(pmi_dq_conj(upper), bone_world_rot(pose, bones[i].bone)));
    pose->rotation[ub] = pmi_dq_to_quat(pmi_dq_mul(pmi_dq_conj(bone_world_rot(pose, model->bones[ub].parent)), upper));
    return pm_pose_update_subtree(ws, pose, ub, po, err);
}

/* ---- keys --------------------------------------------------------------------------------------- */

typedef struct keyer {
    pmi_keyfit *fit;
    pmi_keyfit_key *keys;
    uint32_t frames;
    double pos_tol, rot_tol;
} keyer;

/* Fit one bone's samples (rotation, and position when pos[0]) with keys and add them to vmd. */
static pm_result add_track(const keyer *k, pm_vmd *vmd, const char *name, const double *q, double *const pos[3],
                           pm_retarget_report *rep, pm_error *err) {
    if (k->frames == 0) { /* one pose (a file without animation): its key, nothing to fit */
        const float p[3] = {pos ? (float)pos[0][0] : 0, pos ? (float)pos[1][0] : 0, pos ? (float)pos[2][0] : 0};
        const float r4[4] = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
        return pm_vmd_add_bone_key(vmd, name, 0, p, r4, NULL, err);
    }
    pmi_keyfit_track kt = {k->frames, 1, {pos ? pos[0] : NULL, pos ? pos[1] : NULL, pos ? pos[2] : NULL}, q, NULL, k->pos_tol, k->rot_tol, 0};
    pmi_keyfit_result fr;
    pm_result r = pmi_keyfit_track_fit(k->fit, &kt, k->keys, &fr, err);
    if (r) return r;
    rep->max_position_error = fmax(rep->max_position_error, fr.max_pos_error);
    rep->max_rotation_error = fmax(rep->max_rotation_error, fr.max_rot_error / DEG);
    return pmi_keyfit_add_keys(vmd, name, k->keys, fr.count, err);
}

/* The hands once more, on the motion as MMD plays it after the landing (the legs by IK, the hips lowered:
 * the thighs have moved): an arm turned out where a hand went deeper than allowed is keyed again. */
typedef struct hand_pass {
    const pm_rig *rig;
    const pm_rig_capsule *caps;
    pm_pose_workspace *ws;
    pm_pose *pose;
    uint32_t arm[2], hand[2][2];
    double *allowed[2], *touch[2], *q[2]; /* per frame: the depth allowed, the distance a touching hand may
                                             keep (INFINITY: not touching), the arm's local rotation samples */
    const keyer *keys;
    pm_allocator alloc;
} hand_pass;

static pm_result hands_after_landing(hand_pass *h, pm_vmd *in, pm_vmd **out, pm_retarget_report *rep, pm_error *err) {
    const pm_skeleton *sk = h->rig->skeleton;
    pm_anim *anim = NULL;
    pm_anim_bind_options bo = {.allocator = h->alloc};
    pm_result r = pm_anim_bind(sk, in, &bo, &anim, err);
    bool changed[2] = {false, false};
    const pm_pose_options po = {PM_POSE_NO_IK, 0};
    for (uint32_t f = 0; f <= h->keys->frames && r == PM_OK; f++) {
        if ((r = pm_pose_evaluate(anim, h->ws, f, h->pose, NULL, err))) break;
        for (int s = 0; s < 2 && r == PM_OK; s++) {
            if (h->arm[s] == PM_NO_INDEX || !h->q[s]) continue;
            const double lo = h->allowed[s][f], hi = h->touch[s][f];
            double d = model_clearance(h->rig, h->caps, h->pose, h->hand[s], 0, pmi_dv_make(0, 0, 0), NULL, NULL);
            rep->touch_frames[s] += isfinite(hi);
            if (!(d < lo - 1e-3) && !(d > hi + 1e-3)) continue;
            if ((r = keep_hand_clear(h->rig, h->caps, h->ws, h->pose, h->arm[s], h->hand[s], lo, hi, &po, &rep->hand_frames[s], err)))
                break;
            d = model_clearance(h->rig, h->caps, h->pose, h->hand[s], 0, pmi_dv_make(0, 0, 0), NULL, NULL);
            if (isfinite(hi)) rep->touch_gap[s] = fmax(rep->touch_gap[s], d - hi);
            pmi_keyfit_put_rotation(h->q[s], f, pmi_dq_from_quat(h->pose->rotation[h->arm[s]]));
            changed[s] = true;
        }
    }
    pm_anim_free(anim);
    if (r || (!changed[0] && !changed[1])) return r;
    pm_vmd *res = NULL;
    const char *skip[2];
    uint32_t n = 0;
    for (int s = 0; s < 2; s++)
        if (changed[s]) skip[n++] = sk->bones[h->arm[s]].name.data;
    if ((r = pm_vmd_create(&h->alloc, &res, err)) || (r = pm_vmd_set_model_name(res, "Retarget", err)) ||
        (r = pm_vmd_append(res, in, skip, n, false, NULL, err)))
        goto fail;
    for (int s = 0; s < 2; s++)
        if (changed[s] && (r = add_track(h->keys, res, sk->bones[h->arm[s]].name.data, h->q[s], NULL, rep, err))) goto fail;
    pm_vmd_free(in);
    *out = res;
    return PM_OK;
fail:
    pm_vmd_free(res);
    return r;
}

/* ---- the feet ----------------------------------------------------------------------------------- */

/* Per frame and side (0 left, 1 right): the ankle and the hip as FK puts them on the model, the source's
 * ankle scaled to the model (its height above the source's floor), the ankle's world rotation. */
typedef struct feet {
    double *fk[2][3], *hip[2][3], *src[2][3], *rot[2];
} feet;
#define FEET_DOUBLES 27 /* with the floor's scratch row */

/* The source foot's stances: within 0.04 leg lengths of its floor and moving less than 0.012 leg lengths
 * a frame; a gap shorter than 3 frames is filled and a stance shorter than 3 frames dropped. */
static uint32_t find_stances(const feet *ft, int s, uint32_t ns, double L, uint8_t *contact) {
    for (uint32_t f = 0; f < ns; f++) {
        uint32_t g = f ? f - 1 : (ns > 1 ? 1 : 0);
        pmi_dv d = pmi_dv_make(ft->src[s][0][f] - ft->src[s][0][g], ft->src[s][1][f] - ft->src[s][1][g], ft->src[s][2][f] - ft->src[s][2][g]);
        contact[f] = ft->src[s][1][f] < 0.04 * L && pmi_dv_len(d) < 0.012 * L ? PM_LANDING_FLAT : PM_LANDING_SWING;
    }
    for (int pass = 0; pass < 2; pass++) { /* gaps, then short stances */
        const uint8_t kind = pass == 0 ? PM_LANDING_SWING : PM_LANDING_FLAT;
        for (uint32_t f = 0; f < ns;) {
            uint32_t e = f;
            while (e < ns && contact[e] == contact[f]) e++;
            bool inner = f > 0 && e < ns;
            if (contact[f] == kind && e - f < 3 && (pass == 1 || inner)) memset(contact + f, kind == PM_LANDING_SWING ? PM_LANDING_FLAT : PM_LANDING_SWING, e - f);
            f = e;
        }
    }
    uint32_t stances = 0;
    for (uint32_t f = 0; f < ns; f++) stances += contact[f] && (f == 0 || !contact[f - 1]);
    return stances;
}

/* The ankle's plan from a path (fk: the ankle as FK puts it, its height the source's where the body
 * does not stand): held still through each stance (where the path is on average, at the source foot's
 * lowest height and never below the ground), and in the swings the path carried by an offset that blends
 * from one stance's to the next's (across; the height's fades within LIFT_FRAMES of a stance). */
#define LIFT_FRAMES 4.0

static void plan_foot(const feet *ft, int s, uint32_t ns, const uint8_t *contact, double ground, float *plan) {
    double prev[3] = {0, 0, 0}, next[3] = {0, 0, 0};
    bool have_prev = false;
    for (uint32_t f = 0; f < ns;) {
        uint32_t e = f;
        while (e < ns && (contact[e] != 0) == (contact[f] != 0)) e++;
        if (contact[f]) {
            double m[2] = {0, 0}, low = INFINITY;
            for (uint32_t g = f; g < e; g++) m[0] += ft->fk[s][0][g], m[1] += ft->fk[s][2][g], low = fmin(low, ground + ft->src[s][1][g]);
            for (uint32_t g = f; g < e; g++)
                plan[3 * g] = (float)(m[0] / (e - f)), plan[3 * g + 1] = (float)fmax(ground, low), plan[3 * g + 2] = (float)(m[1] / (e - f));
        } else {
            /* the next stance's offset at its first frame, the previous one's at its last */
            bool have_next = e < ns;
            if (have_next) {
                uint32_t x = e, y = e;
                while (y < ns && contact[y]) y++;
                double m[2] = {0, 0}, low = INFINITY;
                for (uint32_t g = x; g < y; g++) m[0] += ft->fk[s][0][g], m[1] += ft->fk[s][2][g], low = fmin(low, ground + ft->src[s][1][g]);
                next[0] = m[0] / (y - x) - ft->fk[s][0][x], next[1] = fmax(ground, low) - ft->fk[s][1][x], next[2] = m[1] / (y - x) - ft->fk[s][2][x];
            }
            for (uint32_t g = f; g < e; g++) {
                double u = (double)(g - f + 1) / (double)(e - f + 1), w = pmi_smooth(u);
                for (int k = 0; k < 3; k += 2) {
                    double off = have_prev && have_next ? prev[k] + (next[k] - prev[k]) * w : have_prev ? prev[k] : have_next ? next[k] : 0;
                    plan[3 * g + k] = (float)(ft->fk[s][k][g] + off);
                }
                /* the height: the path's, the stances' offsets fading within a few frames of them (a foot
                   that lifts, lifts at once, not gliding on the ground) */
                const double a = fmin(1, (double)(g - f + 1) / LIFT_FRAMES), b = fmin(1, (double)(e - g) / LIFT_FRAMES);
                const double off = (have_prev ? prev[1] * (1 - pmi_smooth(a)) : 0) + (have_next ? next[1] * (1 - pmi_smooth(b)) : 0);
                plan[3 * g + 1] = (float)fmax(ground, ft->fk[s][1][g] + off);
            }
        }
        if (contact[f]) {
            const uint32_t last = e - 1;
            for (int k = 0; k < 3; k++) prev[k] = plan[3 * last + k] - ft->fk[s][k][last];
            have_prev = true;
        }
        f = e;
    }
}

/* The k-th smallest of v[0..n) (v is reordered; k < n). */
static double kth_smallest(double *v, size_t n, size_t k) {
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j], v[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else break;
    }
    return v[k];
}

pm_result pm_retarget(const pm_humanoid_motion *src, const pm_skeleton *model, const pm_retarget_options *opts, pm_vmd **out,
                      pm_retarget_report *report, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "retarget: out is NULL");
    *out = NULL;
    if (!src || !src->rest) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "retarget: no source motion");
    pm_retarget_report rep_local, *rep = report ? report : &rep_local;
    memset(rep, 0, sizeof *rep);
    pm_allocator alloc = opts ? opts->allocator : (pm_allocator){0};
    const pm_allocator *a = &alloc;
    const double pos_tol = opts && opts->position_tolerance > 0 ? opts->position_tolerance : 0.002;
    const double rot_tol = (opts && opts->rotation_tolerance > 0 ? opts->rotation_tolerance : 0.1) * DEG;
    const uint32_t max_frames = opts && opts->max_frames ? opts->max_frames : PM_LANDING_MAX_FRAMES;
    if (!(pos_tol <= 1) || !(rot_tol <= 10 * DEG))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "retarget: tolerances must be at most 1 unit and 10 degrees, got %g and %g",
                        pos_tol, rot_tol / DEG);
    const double frames_f = floor(src->duration * 30.0 + 1e-6);
    if (!(frames_f <= max_frames))
        return pmi_fail(err, PM_ERR_LIMIT, "retarget: the source lasts %.1f s, more than %u frames at 30 fps", src->duration, max_frames);
    const uint32_t frames = (uint32_t)frames_f, ns = frames + 1;

    converter c;
    memset(&c, 0, sizeof c);
    c.src = src;
    pm_result r = PM_OK;
    pm_skeleton *mannequin = NULL;
    pm_rig *rig = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose pose_buffers = {0}, *pose = &pose_buffers; /* no final arrays: nothing here reads them, and every
                                                          subtree update would store them for every bone */
    pm_mat4 *world = NULL;
    double *pool = NULL, *heights = NULL, *need = NULL;
    uint8_t *subset = NULL;
    float *plan = NULL;
    uint8_t *contact = NULL;
    carried *bones = NULL;
    pmi_keyfit *fit = NULL;
    pmi_keyfit_key *keys = NULL;
    pm_vmd *vmd = NULL;
    if (!model) {
        pm_mannequin_options mo = {0};
        mo.allocator = alloc;
        if ((r = pm_mannequin_skeleton(&mo, &mannequin, err))) goto done;
        model = mannequin;
    }
    pm_rig_options rgo = {0};
    rgo.allocator = alloc;
    if ((r = pm_rig_analyze(model, &rgo, &rig, err))) goto done;
    pm_rig_roles troles = rig->roles;
    pm_rig_roles_hips_as_center(&troles);
    {
        const pm_rig_role need[] = {PM_RIG_CENTER, PM_RIG_LEFT_LEG, PM_RIG_RIGHT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_RIGHT_KNEE,
                                    PM_RIG_LEFT_ANKLE, PM_RIG_RIGHT_ANKLE};
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
            if (troles.bone[need[i]] == PM_NO_INDEX) {
                r = pmi_fail(err, PM_ERR_NOT_FOUND, "retarget: the model has no %s bone", pm_rig_role_name(need[i]));
                goto done;
            }
        const pm_rig_role sneed[] = {PM_RIG_LOWER_BODY, PM_RIG_LEFT_LEG, PM_RIG_RIGHT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_RIGHT_KNEE,
                                     PM_RIG_LEFT_ANKLE, PM_RIG_RIGHT_ANKLE, PM_RIG_LEFT_ARM, PM_RIG_RIGHT_ARM};
        for (size_t i = 0; i < sizeof sneed / sizeof sneed[0]; i++)
            if (src->roles.bone[sneed[i]] == PM_NO_INDEX) {
                r = pmi_fail(err, PM_ERR_NOT_FOUND, "retarget: the source has no %s joint", pm_rig_role_name(sneed[i]));
                goto done;
            }
    }
    if ((r = find_axes(&c, rep, err))) goto done;

    /* the scale: the legs' ratio, hip to ankle at rest (a straight source leg stands as the model's rest leg) */
    const pm_rig_roles *sr = &src->roles;
    double src_leg = 0, model_leg = 0, src_reach = 0, model_reach = 0;
    for (int s = 0; s < 2; s++) {
        src_reach += pmi_dv_len(pmi_dv_sub(pmi_mat_translation(src->rest[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)]].m),
                                           pmi_mat_translation(src->rest[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].m)));
        model_reach += pmi_dv_len(pmi_dv_sub(pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)]].position),
                                             pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].position)));
        src_leg += leg_length(pmi_mat_translation(src->rest[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)]].m),
                              pmi_mat_translation(src->rest[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_KNEE, s)]].m),
                              pmi_mat_translation(src->rest[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].m));
        model_leg += leg_length(pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)]].position),
                                pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_KNEE, s)]].position),
                                pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].position));
    }
    if (!(src_reach > 1e-9) || !(model_reach > 1e-9) || !(model_leg > 0)) {
        r = pmi_fail(err, PM_ERR_BAD_FORMAT, "retarget: the %s's legs have no length at rest", src_reach > 1e-9 ? "model" : "source");
        goto done;
    }
    c.scale = model_reach / src_reach;

    /* the bones carried: in both rigs; parents before children */
    bones = pmi_alloc_array(a, N_ROLES, sizeof *bones, err, "retarget: bones");
    if (!bones) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    uint32_t nb = 0;
    pmi_dq align_of[PM_RIG_ROLE_COUNT];
    for (size_t i = 0; i < N_ROLES; i++) {
        role_def d = role_at(i);
        uint32_t bone = troles.bone[d.role], joint = sr->bone[d.role];
        pmi_dq align = d.parent != NO ? align_of[d.parent] : pmi_dq_identity();
        /* a limb the source holds straight at rest is aligned whole (root to end) and its middle joint
           keeps the model's rest bend: an MMD knee sits in front of the hip-ankle line of a straight leg */
        int limb = -1, side = 0;
        for (int l = 0; l < 2; l++)
            for (int sd = 0; sd < 2; sd++)
                if (d.role == PM_RIG_SIDED(LIMBS[l][0], sd) || d.role == PM_RIG_SIDED(LIMBS[l][1], sd)) limb = l, side = sd;
        const bool whole = limb >= 0 && straight_at_rest(src, PM_RIG_SIDED(LIMBS[limb][0], side), PM_RIG_SIDED(LIMBS[limb][1], side),
                                                         PM_RIG_SIDED(LIMBS[limb][2], side));
        if (whole && d.role == PM_RIG_SIDED(LIMBS[limb][0], side)) d.next[0] = PM_RIG_SIDED(LIMBS[limb][2], side), d.next[1] = d.next[2] = NO;
        if (whole && d.role == PM_RIG_SIDED(LIMBS[limb][1], side)) d.next[0] = NO;
        for (int n = 0; n < 3 && d.next[n] != NO; n++) {
            uint32_t tb = troles.bone[d.next[n]], sj = sr->bone[d.next[n]];
            if (sj == PM_NO_INDEX && joint != PM_NO_INDEX) sj = farthest_child(src, joint); /* a hand the names miss */
            if (bone == PM_NO_INDEX || joint == PM_NO_INDEX || tb == PM_NO_INDEX || sj == PM_NO_INDEX) continue;
            pmi_dv td = pmi_dv_sub(pmi_dv_of(model->bones[tb].position), pmi_dv_of(model->bones[bone].position));
            pmi_dv sd = to_model(&c, pmi_dv_sub(pmi_mat_translation(src->rest[sj].m), pmi_mat_translation(src->rest[joint].m)));
            if (pmi_dv_len(td) > 1e-9 && pmi_dv_len(sd) > 1e-9) {
                align = pmi_dq_arc(pmi_dv_normalize(td), pmi_dv_normalize(sd));
                break;
            }
        }
        align_of[d.role] = align;
        if (joint != PM_NO_INDEX && bone == PM_NO_INDEX && rep->unmapped_count < PM_RETARGET_MAX_BONES)
            rep->unmapped[rep->unmapped_count++] = pm_rig_role_name(d.role);
        if (joint == PM_NO_INDEX || bone == PM_NO_INDEX) continue;
        carried *b = &bones[nb++];
        memset(b, 0, sizeof *b);
        b->role = d.role, b->bone = bone, b->joint = joint, b->align = align;
        b->rest_inv = pmi_dq_conj(rot_in_model(&c, &src->rest[joint]));
        for (uint32_t p = model->bones[bone].parent, guard = 0; p != PM_NO_INDEX && guard < model->bone_count; p = model->bones[p].parent, guard++)
            b->depth++;
    }
    for (uint32_t i = 1; i < nb; i++) /* insertion sort by depth, stable */
        for (uint32_t j = i; j > 0 && bones[j - 1].depth > bones[j].depth; j--) {
            carried t = bones[j];
            bones[j] = bones[j - 1], bones[j - 1] = t;
        }

    /* the samples */
    const uint32_t centre = troles.bone[PM_RIG_CENTER];
    pool = pmi_alloc_array(a, (size_t)ns * (4 * (size_t)(nb + 1) + 3), sizeof(double), err, "retarget: samples");
    heights = pool ? pmi_alloc_array(a, (size_t)ns * (FEET_DOUBLES + 4), sizeof(double), err, "retarget: feet") : NULL;
    world = heights ? pmi_alloc_array(a, src->joint_count ? src->joint_count : 1, sizeof *world, err, "retarget: source pose") : NULL;
    if (!world) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    feet ft;
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 3; k++) {
            ft.fk[s][k] = heights + (size_t)ns * (1 + 3 * s + k);
            ft.hip[s][k] = heights + (size_t)ns * (7 + 3 * s + k);
            ft.src[s][k] = heights + (size_t)ns * (13 + 3 * s + k);
        }
        ft.rot[s] = heights + (size_t)ns * (19 + 4 * s);
    }
    double *allowed[2] = {heights + (size_t)ns * FEET_DOUBLES, heights + (size_t)ns * (FEET_DOUBLES + 1)};
    double *touch[2] = {heights + (size_t)ns * (FEET_DOUBLES + 2), heights + (size_t)ns * (FEET_DOUBLES + 3)};
    for (uint32_t f = 0; f < ns; f++) allowed[0][f] = allowed[1][f] = -INFINITY, touch[0][f] = touch[1][f] = INFINITY;
    double *centre_q = pool, *centre_p[3] = {pool + 4 * (size_t)ns, pool + 5 * (size_t)ns, pool + 6 * (size_t)ns};
    for (uint32_t i = 0; i < nb; i++) bones[i].q = pool + (7 + 4 * (size_t)i) * ns;
    /* the floor the source stands on: a low point of its ankles over the clip */
    for (uint32_t f = 0; f < ns; f++) {
        if ((r = pm_humanoid_motion_world(src, f / 30.0, world, err))) goto done;
        double h = INFINITY;
        for (int s = 0; s < 2; s++) h = fmin(h, to_model(&c, pmi_mat_translation(world[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].m)).y);
        heights[f] = h;
    }
    const double src_floor = kth_smallest(heights, ns, (size_t)floor(0.05 * (ns - 1)));
    double model_ankle_y = 0;
    pmi_dv model_hips = pmi_dv_make(0, 0, 0);
    for (int s = 0; s < 2; s++) {
        model_ankle_y += 0.5 * model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].position.y;
        model_hips = pmi_dv_add(model_hips, pmi_dv_scale(pmi_dv_of(model->bones[troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)]].position), 0.5));
    }

    src_body body;
    source_body(&c, 0.5 * src_leg, &body);
    pm_rig_capsule caps[PM_RIG_CAPSULE_COUNT];
    pm_rig_body_capsules(rig, caps);
    uint32_t hand[2][2];
    for (int s = 0; s < 2; s++) hand[s][0] = rig->arms[s].wrist, hand[s][1] = troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_MIDDLE3, s)];
    if ((r = pm_pose_workspace_create(model, a, &ws, err))) goto done;
    pose->bone_count = model->bone_count;
    const size_t nbones = model->bone_count ? model->bone_count : 1;
    pose->translation = pmi_alloc_array(a, nbones, sizeof *pose->translation, err, "retarget: pose");
    pose->rotation = pose->translation ? pmi_alloc_array(a, nbones, sizeof *pose->rotation, err, "retarget: pose") : NULL;
    pose->world = pose->rotation ? pmi_alloc_array(a, nbones, sizeof *pose->world, err, "retarget: pose") : NULL;
    if (!pose->world) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t b = 0; b < model->bone_count; b++) pose->translation[b] = pm_vec3_make(0, 0, 0), pose->rotation[b] = pm_quat_identity();
    /* evaluate only what the carried bones, the hands, the capsules and the legs depend on (a model's hair
       and skirt bones can be most of it) */
    {
        uint32_t want[N_ROLES + 16], nw = 0;
        for (uint32_t i = 0; i < nb; i++) want[nw++] = bones[i].bone;
        want[nw++] = centre;
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < 2; k++) want[nw++] = hand[s][k];
            want[nw++] = rig->legs[s].hip, want[nw++] = rig->legs[s].ankle;
        }
        for (int c = 0; c < PM_RIG_CAPSULE_COUNT; c++)
            if (caps[c].present) want[nw++] = caps[c].bone[0], want[nw++] = caps[c].bone[1];
        if (!(subset = pmi_alloc_array(a, model->bone_count ? model->bone_count : 1, 1, err, "retarget: subset"))) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        memset(subset, 0, model->bone_count);
        if ((r = pm_pose_subset(model, want, nw, subset, a, err))) goto done;
        pm_pose_set_subset(ws, subset);
    }
    if ((r = pm_pose_evaluate_local(ws, pose, &(pm_pose_options){PM_POSE_NO_IK, 0}, err))) goto done; /* the rest pose's world */
    const pm_pose_options po = {PM_POSE_NO_IK, 0};
    bool torso_keyed = false; /* 上半身 carried: the torso can be aimed */
    for (uint32_t i = 0; i < nb; i++) torso_keyed = torso_keyed || bones[i].bone == troles.bone[PM_RIG_UPPER_BODY];
    uint32_t ends[2];
    for (int s = 0; s < 2; s++)
        ends[s] = torso_end(model, troles.bone[PM_RIG_UPPER_BODY], bones, nb, troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, s)]);
    const uint32_t hips_joint = sr->bone[PM_RIG_LOWER_BODY];
    const pmi_dq hips_rest_inv = pmi_dq_conj(rot_in_model(&c, &src->rest[hips_joint]));
    pmi_dv start = pmi_dv_make(0, 0, 0);
    for (uint32_t f = 0; f < ns; f++) {
        if ((r = pm_humanoid_motion_world(src, f / 30.0, world, err))) goto done;
        for (uint32_t b = 0; b < model->bone_count; b++) pose->translation[b] = pm_vec3_make(0, 0, 0), pose->rotation[b] = pm_quat_identity();
        /* centre: the hips' turn, then the hips where the source has them */
        pmi_dq hips_turn = pmi_dq_mul(rot_in_model(&c, &world[hips_joint]), hips_rest_inv);
        pmi_dq centre_local = pmi_dq_mul(pmi_dq_conj(bone_world_rot(pose, model->bones[centre].parent)), hips_turn);
        pose->rotation[centre] = pmi_dq_to_quat(centre_local);
        if ((r = pm_pose_evaluate_local(ws, pose, &po, err))) goto done;
        pmi_dv hips = pmi_dv_scale(pmi_dv_add(to_model(&c, pmi_mat_translation(world[sr->bone[PM_RIG_LEFT_LEG]].m)),
                                              to_model(&c, pmi_mat_translation(world[sr->bone[PM_RIG_RIGHT_LEG]].m))),
                                   0.5);
        if (f == 0) start = hips;
        pmi_dv want = pmi_dv_make(model_hips.x + c.scale * (hips.x - start.x), model_ankle_y + c.scale * (hips.y - src_floor),
                                  model_hips.z + c.scale * (hips.z - start.z));
        pmi_dv now = pmi_dv_scale(pmi_dv_add(pmi_mat_translation(pose->world[troles.bone[PM_RIG_LEFT_LEG]].m),
                                             pmi_mat_translation(pose->world[troles.bone[PM_RIG_RIGHT_LEG]].m)),
                                  0.5);
        pmi_dv move = pmi_dv_sub(want, now);
        pmi_dq parent_rot = bone_world_rot(pose, model->bones[centre].parent);
        move = pmi_dq_rotate(pmi_dq_conj(parent_rot), move); /* a key's offset is in its parent's axes */
        pose->translation[centre] = vec3_of(move);
        pmi_keyfit_put_rotation(centre_q, f, centre_local);
        centre_p[0][f] = move.x, centre_p[1][f] = move.y, centre_p[2][f] = move.z;
        if ((r = pm_pose_update_subtree(ws, pose, centre, &po, err))) goto done;
        /* every other bone: its world turn under its parent as played */
        for (uint32_t i = 0; i < nb; i++) {
            carried *b = &bones[i];
            if (b->bone == centre) continue;
            pmi_dq turn = pmi_dq_mul(rot_in_model(&c, &world[b->joint]), b->rest_inv);
            pmi_dq want_rot = b->role == PM_RIG_LOWER_BODY ? hips_turn : pmi_dq_mul(turn, b->align);
            pmi_dq local = pmi_dq_mul(pmi_dq_conj(bone_world_rot(pose, model->bones[b->bone].parent)), want_rot);
            pose->rotation[b->bone] = pmi_dq_to_quat(local);
            if ((r = pm_pose_update_subtree(ws, pose, b->bone, &po, err))) goto done;
        }
        if (torso_keyed && (r = aim_torso(&c, model, sr, &troles, world, bones, nb, ends, ws, pose, &po, err))) goto done;
        /* the hands no deeper in the body than the source's */
        for (int s = 0; s < 2; s++) {
            const uint32_t arm = troles.bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, s)];
            if (!rig->arms[s].present || arm == PM_NO_INDEX || sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, s)] == PM_NO_INDEX) continue;
            const double cs = source_clearance(&body, world, s) * rig->leg_length;
            rep->source_hand_clearance[s] = f ? fmin(rep->source_hand_clearance[s], cs) : cs;
            allowed[s][f] = fmin(0, cs);
            /* a source hand on its body (within 0.01 leg lengths) stays on the model's, within 0.02 */
            touch[s][f] = cs <= 0.01 * rig->leg_length ? fmax(cs, 0) + 0.02 * rig->leg_length : INFINITY;
            if ((r = keep_hand_clear(rig, caps, ws, pose, arm, hand[s], fmin(0, cs), touch[s][f], &po, &rep->hand_frames[s], err))) goto done;
        }
        for (uint32_t i = 0; i < nb; i++)
            if (bones[i].bone != centre) pmi_keyfit_put_rotation(bones[i].q, f, pmi_dq_from_quat(pose->rotation[bones[i].bone]));
        /* the feet as FK puts them, and the source's */
        for (int s = 0; s < 2; s++) {
            pmi_dv an = pmi_mat_translation(pose->world[rig->legs[s].ankle].m), hp = pmi_mat_translation(pose->world[rig->legs[s].hip].m);
            pmi_dv sa = pmi_dv_scale(to_model(&c, pmi_mat_translation(world[sr->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)]].m)), c.scale);
            const double av[3] = {an.x, an.y, an.z}, hv[3] = {hp.x, hp.y, hp.z}, sv[3] = {sa.x, sa.y - c.scale * src_floor, sa.z};
            for (int k = 0; k < 3; k++) ft.fk[s][k][f] = av[k], ft.hip[s][k][f] = hv[k], ft.src[s][k][f] = sv[k];
            pmi_keyfit_put_rotation(ft.rot[s], f, bone_world_rot(pose, rig->legs[s].ankle));
        }
    }

    /* the hips' height: where the model's own legs, turned as the source's, stand the lower foot at the
       source's height (a knee that rests bent then bends as much more as the source's, instead of as
       much as the source's scaled height implies); the feet are weighed by how near the lower one's
       height they are (none past 0.04 L above it), so the hips do not jump when the feet change */
    for (uint32_t f = 0; f < ns && rig->leg_length > 1e-6f; f++) {
        const double low = fmin(ft.src[0][1][f], ft.src[1][1][f]), soft = 0.02 * rig->leg_length;
        double sum = 0, wsum = 0;
        for (int s = 0; s < 2; s++) {
            const double w = 1 - pmi_smooth((ft.src[s][1][f] - low) / (2 * soft));
            sum += w * (rig->legs[s].ankle_height + ft.src[s][1][f] - ft.fk[s][1][f]), wsum += w;
        }
        /* only while standing: a body kneeling, sitting or lying keeps the source's height */
        const double stand = (0.5 * (ft.hip[0][1][f] + ft.hip[1][1][f]) - low - model_ankle_y) / rig->leg_length;
        const double standing = pmi_smooth((stand - 0.55) / 0.2), lift = standing * sum / wsum;
        centre_p[1][f] += lift;
        /* a foot's path: its height as FK puts it (the leg turned as the source's) while the body stands
           or the foot is well off the floor (a kick, a handstand), else the source's */
        for (int s = 0; s < 2; s++) {
            const double src_y = rig->legs[s].ankle_height + ft.src[s][1][f];
            const double w = fmax(standing, pmi_smooth((ft.src[s][1][f] / rig->leg_length - 0.15) / 0.15));
            ft.fk[s][1][f] = src_y + w * (ft.fk[s][1][f] + lift - src_y), ft.hip[s][1][f] += lift;
        }
    }

    /* the feet: planted through the source's stances by the leg IK, the hips lowered where a plan is
       out of the leg's reach */
    bool land = true;
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *lg = &rig->legs[s];
        land = land && lg->present && lg->ik_chain != PM_NO_INDEX && rig->chains[lg->ik_chain].target == lg->ankle;
    }
    if (land) {
        const uint32_t radius = 8;
        const size_t nn = (size_t)ns + 2 * radius;
        plan = pmi_alloc_array(a, (size_t)ns * 14, sizeof(float), err, "retarget: plan");
        contact = plan ? pmi_alloc_array(a, 2 * (size_t)ns, 1, err, "retarget: contact") : NULL;
        need = contact ? pmi_alloc_array(a, 2 * nn + 2, sizeof(double), err, "retarget: crouch") : NULL;
        if (!need) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        for (size_t i = 0; i < 2 * nn + 2; i++) need[i] = 0;
        double reach[2];
        for (int s = 0; s < 2; s++) {
            rep->stances[s] = find_stances(&ft, s, ns, rig->leg_length, contact + (size_t)s * ns);
            plan_foot(&ft, s, ns, contact + (size_t)s * ns, rig->legs[s].ankle_height, plan + (size_t)s * 3 * ns);
            float *rot = plan + (size_t)6 * ns + (size_t)s * 4 * ns;
            for (size_t i = 0; i < 4 * (size_t)ns; i++) rot[i] = (float)ft.rot[s][i];
            reach[s] = pm_landing_leg_reach(&rig->legs[s], rig->legs[s].knee_rest_bend + 2.5 * DEG);
        }
        for (uint32_t f = 0; f < ns; f++)
            for (int s = 0; s < 2; s++) {
                const float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)f;
                double n = pm_landing_reach_need(pm_vec3_make((float)ft.hip[s][0][f], (float)ft.hip[s][1][f], (float)ft.hip[s][2][f]),
                                                 pm_vec3_make(pl[0], pl[1], pl[2]), reach[s]);
                need[f] = fmax(need[f], n);
            }
        /* zeros after the clip keep its ends apart (the profile is periodic) */
        rep->crouch = pm_landing_smooth_need(need, need + nn + 1, (uint32_t)nn, radius, 0.25 * rig->leg_length);
        for (uint32_t f = 0; f < ns; f++) centre_p[1][f] -= need[f];
    }

    /* keys */
    keys = pmi_alloc_array(a, ns, sizeof *keys, err, "retarget: keys");
    fit = keys && frames ? pmi_keyfit_create(a, frames, 1, err) : NULL; /* one pose needs no fit (add_track) */
    if (!keys || (frames && !fit)) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if ((r = pm_vmd_create(a, &vmd, err)) || (r = pm_vmd_set_model_name(vmd, "Retarget", err))) goto done;
    {
        const char *ik_names[16];
        bool off[16];
        uint32_t nik = 0;
        for (uint32_t i = 0; i < rig->chain_count && nik < 16; i++) {
            const pm_rig_chain_kind kind = rig->chains[i].kind;
            if (!(kind == PM_RIG_CHAIN_ARM || (!land && (kind == PM_RIG_CHAIN_LEG || kind == PM_RIG_CHAIN_TOE)))) continue;
            uint32_t ik = rig->chains[i].ik_bone;
            bool seen = false;
            for (uint32_t k = 0; k < nik; k++) seen = seen || strcmp(ik_names[k], model->bones[ik].name.data) == 0;
            if (!seen) off[nik] = false, ik_names[nik++] = model->bones[ik].name.data;
        }
        if (nik && (r = pm_vmd_add_property_key(vmd, 0, true, nik, ik_names, off, err))) goto done;
    }
    const keyer kr = {fit, keys, frames, pos_tol, rot_tol};
    for (int32_t i = -1; i < (int32_t)nb; i++) {
        const bool is_centre = i < 0;
        if (!is_centre && bones[i].bone == centre) continue;
        const uint32_t bone = is_centre ? centre : bones[i].bone;
        if ((r = add_track(&kr, vmd, model->bones[bone].name.data, is_centre ? centre_q : bones[i].q, is_centre ? centre_p : NULL, rep, err)))
            goto done;
        if (rep->mapped_count < PM_RETARGET_MAX_BONES) rep->mapped[rep->mapped_count++] = pm_rig_role_name(is_centre ? PM_RIG_CENTER : bones[i].role);
    }

    if (land) {
        pm_landing_limb limbs[2];
        memset(limbs, 0, sizeof limbs);
        for (int s = 0; s < 2; s++) {
            const pm_rig_leg *lg = &rig->legs[s];
            pm_landing_limb *l = &limbs[s];
            l->effector = lg->ankle;
            l->ik_bone = rig->chains[lg->ik_chain].ik_bone;
            l->per_frame = 1;
            l->plan = plan + (size_t)s * 3 * ns;
            l->ik_rotation = plan + (size_t)6 * ns + (size_t)s * 4 * ns;
            l->contact = contact + (size_t)s * ns;
            l->floor = lg->ankle_height;
            l->heel = pm_vec3_make(0, rig->floor_height - lg->ankle_height, 0.25f * lg->foot_length);
            l->ball = pm_vec3_make(0, rig->floor_height - lg->ankle_height, -lg->foot_length);
            l->keep_children = true;
        }
        pm_landing_options lo = {0};
        lo.allocator = alloc;
        lo.position_tolerance = (float)fmin(pos_tol, 0.002);
        lo.rotation_tolerance = (float)fmin(rot_tol / DEG, 0.1);
        lo.fk_tolerance = (float)(0.001 / rig->leg_length / DEG);
        pm_vmd *landed = NULL;
        if ((r = pm_landing_close(model, vmd, frames, limbs, 2, &lo, &landed, &rep->feet, err))) goto done;
        pm_vmd_free(vmd);
        vmd = landed;
        rep->feet_landed = true;
        /* the legs as IK lands them (and the hips lowered) move the thighs: the hands once more */
        hand_pass hp = {rig, caps, ws, pose, {PM_NO_INDEX, PM_NO_INDEX}, {{hand[0][0], hand[0][1]}, {hand[1][0], hand[1][1]}},
                        {allowed[0], allowed[1]}, {touch[0], touch[1]}, {NULL, NULL}, &kr, alloc};
        for (uint32_t i = 0; i < nb; i++)
            for (int s = 0; s < 2; s++)
                if (bones[i].role == PM_RIG_SIDED(PM_RIG_LEFT_ARM, s) && rig->arms[s].present) hp.arm[s] = bones[i].bone, hp.q[s] = bones[i].q;
        if ((r = hands_after_landing(&hp, vmd, &vmd, rep, err))) goto done;
    }

    rep->key_count = vmd->bones.count;
    /* the body as MMD plays it */
    pm_landing_body_options bo = {0};
    bo.allocator = alloc;
    if ((r = pm_landing_measure_body(rig, vmd, frames, &bo, &rep->body, err))) goto done;
    rep->format = src->format;
    rep->naming = src->naming;
    rep->confidence = src->confidence;
    rep->source_fps = src->native_fps;
    rep->duration = src->duration;
    rep->frames = frames;
    rep->scale = c.scale;
    *out = vmd;
    vmd = NULL;
done:
    pm_vmd_free(vmd);
    pmi_keyfit_free(fit);
    pmi_free(a, keys);
    pmi_free(a, world);
    pmi_free(a, heights);
    pmi_free(a, need);
    pmi_free(a, contact);
    pmi_free(a, plan);
    pmi_free(a, pool);
    pmi_free(a, bones);
    pmi_free(a, pose_buffers.translation);
    pmi_free(a, pose_buffers.rotation);
    pmi_free(a, pose_buffers.world);
    pm_pose_workspace_free(ws);
    pmi_free(a, subset);
    pm_rig_free(rig);
    pm_skeleton_free(mannequin);
    return r;
}

cJSON *pmi_retarget_report_json(const pm_retarget_report *rep) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    pmi_json_add_string(j, "format", pm_humanoid_motion_format_name(rep->format), &ok);
    pmi_json_add_string(j, "naming", rep->naming ? rep->naming : "", &ok);
    pmi_json_add_number(j, "confidence", rep->confidence, &ok);
    pmi_json_add_number(j, "sourceFps", rep->source_fps, &ok);
    pmi_json_add_number(j, "duration", rep->duration, &ok);
    pmi_json_add_number(j, "frames", rep->frames, &ok);
    pmi_json_add_number(j, "scale", rep->scale, &ok);
    pmi_json_add_bool(j, "forwardFromToes", rep->forward_from_toes, &ok);
    cJSON *m = pmi_json_add_array(j, "mapped", &ok);
    for (uint32_t i = 0; i < rep->mapped_count; i++) pmi_json_add_string(m, NULL, rep->mapped[i], &ok);
    cJSON *u = pmi_json_add_array(j, "unmapped", &ok);
    for (uint32_t i = 0; i < rep->unmapped_count; i++) pmi_json_add_string(u, NULL, rep->unmapped[i], &ok);
    pmi_json_add_number(j, "keyCount", rep->key_count, &ok);
    pmi_json_add_number(j, "maxPositionError", rep->max_position_error, &ok);
    pmi_json_add_number(j, "maxRotationErrorDeg", rep->max_rotation_error, &ok);
    cJSON *st = pmi_json_add_array(j, "stances", &ok);
    for (int s = 0; s < 2; s++) pmi_json_add_number(st, NULL, rep->stances[s], &ok);
    pmi_json_add_number(j, "crouch", rep->crouch, &ok);
    const char *limbs[2] = {"left", "right"};
    if (rep->feet_landed) pmi_landing_report_json(j, "feet", &rep->feet, 0.01, NULL, limbs, &ok);
    else pmi_json_add(j, "feet", cJSON_CreateNull(), &ok);
    cJSON *h = pmi_json_add_object(j, "hands", &ok);
    cJSON *sc = pmi_json_add_array(h, "sourceClearance", &ok), *cf = pmi_json_add_array(h, "correctedFrames", &ok);
    cJSON *tf = pmi_json_add_array(h, "touchFrames", &ok), *tg = pmi_json_add_array(h, "touchGap", &ok);
    for (int s = 0; s < 2; s++) {
        pmi_json_add_number(sc, NULL, isfinite(rep->source_hand_clearance[s]) ? rep->source_hand_clearance[s] : 0, &ok);
        pmi_json_add_number(cf, NULL, rep->hand_frames[s], &ok);
        pmi_json_add_number(tf, NULL, rep->touch_frames[s], &ok);
        pmi_json_add_number(tg, NULL, rep->touch_gap[s], &ok);
    }
    pmi_landing_body_json(j, "body", &rep->body, &ok);
    if (ok && j) return j;
    cJSON_Delete(j);
    return NULL;
}
