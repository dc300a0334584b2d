/* VMD -> keypoints on the MMD standard skeleton (mmd_standard.c): Bezier-interpolated tracks at 30 fps,
 * FK with append (付与) rotation and translation, leg drive per motion (analytic two-bone leg IK with
 * the knee towards the character's front and toe IK aiming the foot, or FK), mirrored to the
 * right-handed keypoint world frame. */
#include "kp_internal.h"
#include "math/inline.h"
#include "mmd_standard.h"
#include "procmotion/pmx.h"
#include "procmotion/text.h"
#include "procmotion/pose.h"
#include "procmotion/rig.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdlib.h>

/* A key at frame 4294967295 asks for 2^32 frames (found by fuzzing: the count wrapped to 0). */
static pm_result too_many_frames(uint32_t last, pm_error *err) {
    return pmi_fail(err, PM_ERR_LIMIT, "keypoints: a key at frame %u asks for more frames than any limit", last);
}

#define MMD_FPS 30.0

typedef struct leg {
    uint32_t ik, toe_ik;            /* 足ＩＫ, つま先ＩＫ */
    uint32_t hip, knee, ankle, toe; /* 足, ひざ, 足首, つま先 */
    uint32_t ik_name;               /* index into vmd->ik_names, PM_NO_INDEX when never named */
} leg;

typedef struct vmd_ctx {
    const pm_vmd *vmd;
    uint32_t n;                   /* bones in the table */
    uint32_t *track_start;        /* [n + 1] into keys */
    uint32_t *keys;               /* bone key indices grouped per bone, sorted by frame */
    uint32_t *cursor;             /* [n] last key at or before the previous frame */
    pm_quat *key_rot;             /* [key count] normalised key rotations */
    pm_vec3 *anim_t, *final_t;    /* per bone: sampled offset, offset after append */
    pm_quat *anim_q, *final_q;    /* per bone: sampled rotation, rotation after append and IK */
    pm_quat *wq;                  /* world rotation (MMD space) */
    pm_vec3 *wp;                  /* world position (MMD space) */
    uint8_t *override;            /* final_q fixed by IK */
    uint32_t *active;             /* bones that influence an output, in table (parents-first) order */
    uint8_t *legs_below;          /* bones below a leg's hip (through parents or append sources) */
    uint32_t *leg_active;         /* the active bones below a leg's hip, in table order */
    uint32_t active_count;        /* 0 until the first frame */
    uint32_t leg_active_count;
    pm_vec3 *rest;                /* [n] table rest positions */
    /* Bezier results of the current frame: motions share curves (and keys share frames), so a curve
     * solved once per frame serves every channel with the same control points and x */
    struct {
        uint32_t cv;
        float x, y;
    } curve_memo[16];
    bool leg_ik;
    leg legs[2];
} vmd_ctx;

/* The table bone with this name (compared as MMD names: 足ＩＫ == 足IK), or PM_NO_INDEX. */
static uint32_t find_standard(const char *name, size_t len) {
    for (uint32_t i = 0; i < pmi_mmd_standard_count; i++)
        if (pm_names_equal(pmi_mmd_standard[i].name, strlen(pmi_mmd_standard[i].name), name, len)) return i;
    return PM_NO_INDEX;
}

/* The role a VMD name plays among the semi-standard (mmd) names. */
static pm_rig_role mmd_role(const char *name, size_t len) {
    pm_rig_resolve_options o = {PM_RIG_NAMING_BIT(PM_RIG_NAMING_MMD)};
    return pm_rig_name_role(name, len, &o, NULL);
}

typedef struct keyref {
    uint32_t bone, frame, index;
} keyref;

static int by_bone_frame(const void *x, const void *y) {
    const keyref *a = x, *b = y;
    if (a->bone != b->bone) return a->bone < b->bone ? -1 : 1;
    if (a->frame != b->frame) return a->frame < b->frame ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index; /* the later key of a frame last */
}

/* ---- sampling ------------------------------------------------------------------------------------- */

/* Curve `axis` of a key's interpolation block at x (pm_vmd_interp_unpack's layout, babylon-mmd's
 * solver), through the per-frame memo. */
static inline float curve(vmd_ctx *c, const uint8_t *ip, int axis, float x) {
    const uint8_t *b = ip + 16 * axis;
    if (b[0] == b[4] && b[8] == b[12]) return x; /* linear */
    const uint32_t cv = (uint32_t)b[0] | (uint32_t)b[4] << 8 | (uint32_t)b[8] << 16 | (uint32_t)b[12] << 24;
    uint32_t slot = (cv ^ (cv >> 13) ^ (cv >> 21)) & 15;
    if (c->curve_memo[slot].cv == cv && c->curve_memo[slot].x == x) return c->curve_memo[slot].y;
    float y = pm_bezier_eval_mmd(b[0], b[4], b[8], b[12], x);
    c->curve_memo[slot].cv = cv, c->curve_memo[slot].x = x, c->curve_memo[slot].y = y;
    return y;
}

static void sample_track(vmd_ctx *c, uint32_t bone, uint32_t frame, pm_vec3 *t, pm_quat *q) {
    uint32_t s = c->track_start[bone], e = c->track_start[bone + 1];
    const pm_vmd_bone_keys *k = &c->vmd->bones;
    if (s == e) {
        const pm_vec3 zero = {0, 0, 0};
        const pm_quat identity = {0, 0, 0, 1};
        *t = zero, *q = identity;
        return;
    }
    /* last key with frame <= frame: frames come in order, so step the cursor (search after a jump back) */
    uint32_t lo = c->cursor[bone];
    if (lo < s || lo >= e || k->frame[c->keys[lo]] > frame) {
        uint32_t l = s, h = e;
        while (h - l > 1) {
            uint32_t m = l + (h - l) / 2;
            if (k->frame[c->keys[m]] <= frame) l = m;
            else h = m;
        }
        lo = l;
    }
    while (lo + 1 < e && k->frame[c->keys[lo + 1]] <= frame) lo++;
    c->cursor[bone] = lo;
    uint32_t a = c->keys[lo];
    const float *pa = k->position + (size_t)a * 3;
    if (frame <= k->frame[a] || lo + 1 == e) {
        const pm_vec3 p = {pa[0], pa[1], pa[2]};
        *t = p;
        *q = c->key_rot[a];
        return;
    }
    uint32_t b = c->keys[lo + 1];
    const float *pb = k->position + (size_t)b * 3;
    float x = (float)((double)(frame - k->frame[a]) / (double)(k->frame[b] - k->frame[a]));
    const uint8_t *ip = k->interpolation + (size_t)b * PM_VMD_INTERP_SIZE; /* key B's curve (babylon-mmd) */
    float v[3];
    for (int axis = 0; axis < 3; axis++)
        v[axis] = pa[axis] == pb[axis] ? pa[axis] : pa[axis] + (pb[axis] - pa[axis]) * curve(c, ip, axis, x);
    const pm_vec3 p = {v[0], v[1], v[2]};
    *t = p;
    pm_quat qa = c->key_rot[a], qb = c->key_rot[b];
    if (memcmp(&qa, &qb, sizeof qa) == 0) *q = qa;
    else *q = pm_quat_slerp(qa, qb, curve(c, ip, PM_VMD_AXIS_R, x));
}

/* Leg IK state at a frame from the property keys (stepwise; a key that does not name the leg keeps the
 * previous state; on before any key). */
static bool leg_ik_enabled(const vmd_ctx *c, const leg *l, uint32_t frame) {
    const pm_vmd_property_keys *p = &c->vmd->properties;
    if (l->ik_name == PM_NO_INDEX) return true;
    bool on = true;
    uint32_t best = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        if (p->frame[i] > frame || (i && p->frame[i] < best)) continue;
        for (uint32_t s = p->ik_start[i]; s < p->ik_start[i + 1]; s++)
            if (p->ik_name_index[s] == l->ik_name) {
                on = p->ik_enabled[s] != 0;
                best = p->frame[i];
            }
    }
    return on;
}

/* ---- FK (MMD space, rotations and positions) ---------------------------------------------------------- */

static pm_vec3 rest_of(uint32_t i) {
    const float *p = pmi_mmd_standard[i].position;
    return (pm_vec3){p[0], p[1], p[2]};
}

static pm_quat append_rot(pm_quat src, float ratio) {
    if (ratio == 1.0f) return src;
    if (ratio == -1.0f) return pmi_quat_conjugate(src);
    if (ratio < 0) return pm_quat_slerp((pm_quat){0, 0, 0, 1}, pmi_quat_conjugate(src), -ratio);
    return pm_quat_slerp((pm_quat){0, 0, 0, 1}, src, ratio);
}

/* FK over the bones listed (the active bones, or those below a leg's hip after IK), in table order. */
static void fk(vmd_ctx *c, const uint32_t *list, uint32_t count) {
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = list[k];
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        pm_quat q = c->anim_q[i];
        pm_vec3 t = c->anim_t[i];
        if (b->append >= 0) {
            if (b->flags & 0x100) q = pmi_quat_mul(q, append_rot(c->final_q[b->append], b->append_ratio));
            if (b->flags & 0x200) t = pmi_vec3_add(t, pmi_vec3_scale(c->final_t[b->append], b->append_ratio));
        }
        if (c->override[i]) q = c->final_q[i];
        else c->final_q[i] = q;
        c->final_t[i] = t;
        pm_vec3 off = pmi_vec3_add(c->rest[i], t);
        if (b->parent >= 0) {
            off = pmi_vec3_sub(off, c->rest[b->parent]);
            c->wq[i] = pmi_quat_mul(c->wq[b->parent], q);
            c->wp[i] = pmi_vec3_add(c->wp[b->parent], pmi_quat_rotate(c->wq[b->parent], off));
        } else {
            c->wq[i] = q;
            c->wp[i] = off;
        }
    }
}

/* Analytic two-bone IK of one leg in MMD space: the ankle goes to the IK bone (or as far towards it as
 * the leg reaches), the knee bends towards the character's front (-Z of the lower body). */
static void solve_leg(vmd_ctx *c, const leg *l) {
    uint32_t parent = (uint32_t)pmi_mmd_standard[l->hip].parent;
    pm_quat rp = pm_quat_normalize(c->wq[parent]);
    pm_vec3 h = c->wp[l->hip], target = c->wp[l->ik];
    pm_vec3 thigh_rest = pmi_vec3_sub(rest_of(l->knee), rest_of(l->hip));
    pm_vec3 shin_rest = pmi_vec3_sub(rest_of(l->ankle), rest_of(l->knee));
    float a = pmi_vec3_length(thigh_rest), b = pmi_vec3_length(shin_rest);
    pm_vec3 d = pmi_vec3_sub(target, h);
    float dist = pmi_vec3_length(d);
    pm_vec3 u = dist > 1e-6f ? pmi_vec3_scale(d, 1.0f / dist) : pmi_vec3_normalize(pmi_quat_rotate(rp, pmi_vec3_add(thigh_rest, shin_rest)));
    float lo = fabsf(a - b) + 1e-4f, hi = (a + b) * (1.0f - 1e-6f);
    if (dist < lo) dist = lo;
    if (dist > hi) dist = hi; /* out of reach: the leg straightens towards the target */
    pm_vec3 front = pmi_quat_rotate(rp, pmi_vec3_make(0, 0, -1));
    pm_vec3 v = pmi_vec3_sub(front, pmi_vec3_scale(u, pmi_vec3_dot(front, u)));
    if (pmi_vec3_length(v) < 1e-4f) { /* leg pointing straight forward or back: bend the knee upwards */
        pm_vec3 up = pmi_quat_rotate(rp, pmi_vec3_make(0, 1, 0));
        v = pmi_vec3_sub(up, pmi_vec3_scale(u, pmi_vec3_dot(up, u)));
    }
    v = pmi_vec3_normalize(v);
    double cosa = ((double)a * a + (double)dist * dist - (double)b * b) / (2.0 * a * dist);
    if (cosa > 1) cosa = 1;
    if (cosa < -1) cosa = -1;
    double sina = sqrt(1 - cosa * cosa);
    pm_vec3 k = pmi_vec3_add(h, pmi_vec3_add(pmi_vec3_scale(u, (float)(a * cosa)), pmi_vec3_scale(v, (float)(a * sina))));
    pm_vec3 an = pmi_vec3_add(h, pmi_vec3_scale(u, dist));
    /* world rotations: the parent's, turned so the rest bone directions point at the solved joints */
    pm_quat r_hip = pm_quat_normalize(pmi_quat_mul(pm_quat_from_to(pmi_quat_rotate(rp, thigh_rest), pmi_vec3_sub(k, h)), rp));
    pm_quat r_knee = pm_quat_normalize(pmi_quat_mul(pm_quat_from_to(pmi_quat_rotate(r_hip, shin_rest), pmi_vec3_sub(an, k)), r_hip));
    c->final_q[l->hip] = pm_quat_normalize(pmi_quat_mul(pmi_quat_conjugate(rp), r_hip));
    c->final_q[l->knee] = pm_quat_normalize(pmi_quat_mul(pmi_quat_conjugate(r_hip), r_knee));
    c->override[l->hip] = c->override[l->knee] = 1;
}

/* つま先ＩＫ: turn the ankle so the toe points at the toe IK bone. */
static void solve_toe(vmd_ctx *c, const leg *l) {
    pm_vec3 an = c->wp[l->ankle], from = pmi_vec3_sub(c->wp[l->toe], an), to = pmi_vec3_sub(c->wp[l->toe_ik], an);
    if (pmi_vec3_length(from) < 1e-6f || pmi_vec3_length(to) < 1e-6f) return;
    pm_quat r = pmi_quat_mul(pm_quat_from_to(from, to), c->wq[l->ankle]);
    c->final_q[l->ankle] = pm_quat_normalize(pmi_quat_mul(pmi_quat_conjugate(c->wq[l->knee]), r));
    c->override[l->ankle] = 1;
}

/* The bones whose pose reaches an output: the needed bones, their ancestors and append sources (and
 * theirs), and with leg IK the IK bones and leg chains. */
PMI_COLD static void find_active(vmd_ctx *c, const uint8_t *needed) {
    uint8_t *mark = (uint8_t *)c->override; /* scratch: cleared before the first frame */
    memset(mark, 0, c->n);
    for (uint32_t i = 0; i < c->n; i++) mark[i] = needed[i] != 0;
    if (c->leg_ik)
        for (int s = 0; s < 2; s++) {
            const uint32_t bones[6] = {c->legs[s].ik, c->legs[s].toe_ik, c->legs[s].hip, c->legs[s].knee, c->legs[s].ankle, c->legs[s].toe};
            for (int k = 0; k < 6; k++)
                if (bones[k] != PM_NO_INDEX) mark[bones[k]] = 1;
        }
    /* children come after parents and append sources before their users: one backward sweep suffices */
    for (uint32_t i = c->n; i-- > 0;) {
        if (!mark[i]) continue;
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        if (b->parent >= 0) mark[b->parent] = 1;
        if (b->append >= 0) mark[b->append] = 1;
    }
    c->active_count = 0;
    for (uint32_t i = 0; i < c->n; i++)
        if (mark[i]) c->active[c->active_count++] = i;
    memset(mark, 0, c->n);
    /* what the leg IK changes: the hips and every bone whose parent or append source is below them */
    memset(c->legs_below, 0, c->n);
    for (int s = 0; s < 2; s++)
        if (c->legs[s].hip != PM_NO_INDEX) c->legs_below[c->legs[s].hip] = 1;
    for (uint32_t i = 0; i < c->n; i++) {
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        if ((b->parent >= 0 && c->legs_below[b->parent]) || (b->append >= 0 && c->legs_below[b->append])) c->legs_below[i] = 1;
    }
    c->leg_active_count = 0;
    for (uint32_t k = 0; k < c->active_count; k++)
        if (c->legs_below[c->active[k]]) c->leg_active[c->leg_active_count++] = c->active[k];
}

/* The world matrix of a bone in the keypoint frame: S [R(q) | p] S with S = diag(1, 1, -1), i.e. the
 * rotation (x, y, z, w) -> (-x, -y, z, w) and the position z -> -z. */
static void mirrored_matrix(pm_quat q, pm_vec3 p, pm_mat4 *m) {
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    float s = n > 1e-12f ? 2.0f / n : 0.0f; /* products of unit quaternions drift: normalise here */
    float x = -q.x, y = -q.y, z = q.z, w = q.w;
    float xx = x * x * s, yy = y * y * s, zz = z * z * s, xy = x * y * s, xz = x * z * s, yz = y * z * s;
    float wx = w * x * s, wy = w * y * s, wz = w * z * s;
    const pm_mat4 r = {{1 - yy - zz, xy + wz, xz - wy, 0, xy - wz, 1 - xx - zz, yz + wx, 0, xz + wy, yz - wx, 1 - xx - yy, 0,
                        p.x, p.y, -p.z, 1}};
    *m = r;
}

static pm_result eval_vmd(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)time, (void)err;
    vmd_ctx *c = ctx;
    if (!c->active_count) find_active(c, needed);
    for (uint32_t k = 0; k < c->active_count; k++) {
        uint32_t i = c->active[k];
        sample_track(c, i, frame, &c->anim_t[i], &c->anim_q[i]);
        c->override[i] = 0;
    }
    fk(c, c->active, c->active_count);
    if (c->leg_ik) {
        bool on[2];
        for (int s = 0; s < 2; s++)
            if ((on[s] = leg_ik_enabled(c, &c->legs[s], frame))) solve_leg(c, &c->legs[s]);
        if (on[0] || on[1]) {
            fk(c, c->leg_active, c->leg_active_count);
            for (int s = 0; s < 2; s++)
                if (on[s] && c->legs[s].toe_ik != PM_NO_INDEX && c->legs[s].toe != PM_NO_INDEX) solve_toe(c, &c->legs[s]);
            fk(c, c->leg_active, c->leg_active_count);
        }
    }
    for (uint32_t i = 0; i < c->n; i++)
        if (needed[i]) mirrored_matrix(c->wq[i], c->wp[i], &world[i]);
    return PM_OK;
}

/* Whether a 足ＩＫ (or 足IK) track has a key with a non-zero translation: the motion drives its legs by IK. */
PMI_COLD static bool moves_leg_ik(const pm_vmd *vmd) {
    for (uint32_t i = 0; i < vmd->bones.count; i++) {
        const float *p = vmd->bones.position + (size_t)i * 3;
        if (p[0] == 0 && p[1] == 0 && p[2] == 0) continue;
        const pm_string *nm = &vmd->bone_names.items[vmd->bones.name_index[i]];
        pm_rig_role r = mmd_role(nm->data, nm->length);
        if (r == PM_RIG_LEFT_LEG_IK || r == PM_RIG_RIGHT_LEG_IK) return true;
    }
    return false;
}

/* ---- setup ----------------------------------------------------------------------------------------- */

static void release(vmd_ctx *c, const pm_allocator *a) {
    void *p[] = {c->track_start, c->keys,   c->cursor,     c->key_rot,    c->anim_t, c->final_t, c->anim_q,
                 c->final_q,     c->wq,     c->wp,         c->override,   c->active, c->legs_below,
                 c->leg_active,  c->rest};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) pmi_free(a, p[i]);
}

PMI_COLD pm_result pmi_kp_from_vmd(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
    pm_vmd_read_options ro = {0};
    if (opts) ro.allocator = opts->allocator;
    pm_vmd *vmd = NULL;
    pm_result r = pm_vmd_read(data, size, &ro, &vmd, err);
    if (r) return r;
    const pm_allocator *a = &vmd->allocator;
    vmd_ctx c;
    memset(&c, 0, sizeof c);
    c.vmd = vmd;
    c.n = pmi_mmd_standard_count;
    uint32_t n = c.n, nk = vmd->bones.count, nn = vmd->bone_names.count;
    keyref *refs = NULL;
    uint32_t *name_bone = NULL;
    pmi_kp_rig rig;
    memset(&rig, 0, sizeof rig);
    c.track_start = pmi_alloc_array(a, (size_t)n + 1, sizeof(uint32_t), err, "keypoints: tracks");
    c.keys = pmi_alloc_array(a, nk, sizeof(uint32_t), err, "keypoints: tracks");
    c.cursor = pmi_alloc_array(a, n, sizeof(uint32_t), err, "keypoints: tracks");
    c.key_rot = pmi_alloc_array(a, nk, sizeof(pm_quat), err, "keypoints: tracks");
    c.anim_t = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    c.final_t = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    c.anim_q = pmi_alloc_array(a, n, sizeof(pm_quat), err, "keypoints: pose");
    c.final_q = pmi_alloc_array(a, n, sizeof(pm_quat), err, "keypoints: pose");
    c.wq = pmi_alloc_array(a, n, sizeof(pm_quat), err, "keypoints: pose");
    c.wp = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    c.override = pmi_alloc_array(a, n, 1, err, "keypoints: pose");
    c.active = pmi_alloc_array(a, n, sizeof(uint32_t), err, "keypoints: pose");
    c.legs_below = pmi_alloc_array(a, n, 1, err, "keypoints: pose");
    c.leg_active = pmi_alloc_array(a, n, sizeof(uint32_t), err, "keypoints: pose");
    c.rest = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    refs = pmi_alloc_array(a, nk, sizeof *refs, err, "keypoints: tracks");
    name_bone = pmi_alloc_array(a, nn, sizeof *name_bone, err, "keypoints: tracks");
    if (!c.track_start || !c.keys || !c.cursor || !c.key_rot || !c.anim_t || !c.final_t || !c.anim_q || !c.final_q || !c.wq ||
        !c.wp || !c.override || !c.active || !c.legs_below || !c.leg_active || !c.rest || !refs || !name_bone || pmi_kp_rig_alloc(&rig, a, n, err)) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) c.rest[i] = rest_of(i);
    for (int i = 0; i < 16; i++) c.curve_memo[i].x = -1; /* no x is negative: every slot starts empty */
    pm_kp_stats stats = {.format = PM_KP_FORMAT_VMD, .legs = PM_KP_LEGS_FK};
    /* VMD names -> table bones; every name in the table has a key, so unmatched names are ignored bones */
    for (uint32_t i = 0; i < nn; i++) {
        name_bone[i] = find_standard(vmd->bone_names.items[i].data, vmd->bone_names.items[i].length);
        stats.ignored_bones += name_bone[i] == PM_NO_INDEX;
    }
    /* tracks: a stable counting sort by bone keeps file order; a track whose frames are out of order is
     * sorted on its own (by frame, then file order) */
    uint32_t last = 0;
    memset(c.track_start, 0, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < nk; i++) {
        uint32_t bone = name_bone[vmd->bones.name_index[i]];
        if (bone == PM_NO_INDEX) continue;
        c.track_start[bone + 1]++;
        if (vmd->bones.frame[i] > last) last = vmd->bones.frame[i];
        const float *q = vmd->bones.rotation + (size_t)i * 4;
        c.key_rot[i] = pm_quat_normalize((pm_quat){q[0], q[1], q[2], q[3]});
    }
    for (uint32_t i = 0; i < n; i++) c.track_start[i + 1] += c.track_start[i];
    memcpy(c.cursor, c.track_start, (size_t)n * sizeof(uint32_t)); /* fill positions */
    for (uint32_t i = 0; i < nk; i++) {
        uint32_t bone = name_bone[vmd->bones.name_index[i]];
        if (bone != PM_NO_INDEX) c.keys[c.cursor[bone]++] = i;
    }
    for (uint32_t b = 0; b < n; b++) {
        uint32_t s0 = c.track_start[b], e0 = c.track_start[b + 1];
        bool sorted = true;
        for (uint32_t k = s0 + 1; k < e0 && sorted; k++) sorted = vmd->bones.frame[c.keys[k]] >= vmd->bones.frame[c.keys[k - 1]];
        if (sorted) continue;
        for (uint32_t k = s0; k < e0; k++) refs[k - s0] = (keyref){b, vmd->bones.frame[c.keys[k]], c.keys[k]};
        qsort(refs, e0 - s0, sizeof *refs, by_bone_frame);
        for (uint32_t k = s0; k < e0; k++) c.keys[k] = refs[k - s0].index;
    }
    for (uint32_t i = 0; i < n; i++) c.cursor[i] = c.track_start[i];
    /* legs: the table's bones by role */
    {
        const char **table_names = pmi_alloc_array(a, n, sizeof *table_names, err, "keypoints: bones");
        if (!table_names) {
            r = PM_ERR_OUT_OF_MEMORY;
            goto done;
        }
        for (uint32_t i = 0; i < n; i++) table_names[i] = pmi_mmd_standard[i].name;
        pm_rig_roles roles;
        r = pm_rig_resolve_names(table_names, NULL, n, NULL, &roles, err);
        pmi_free(a, table_names);
        if (r) goto done;
        static const pm_rig_role leg_roles[6] = {PM_RIG_LEFT_LEG_IK, PM_RIG_LEFT_TOE_IK, PM_RIG_LEFT_LEG,
                                                 PM_RIG_LEFT_KNEE,   PM_RIG_LEFT_ANKLE,  PM_RIG_LEFT_TOE};
        for (int s = 0; s < 2; s++) {
            leg *l = &c.legs[s];
            uint32_t *f[6] = {&l->ik, &l->toe_ik, &l->hip, &l->knee, &l->ankle, &l->toe};
            for (int k = 0; k < 6; k++) *f[k] = roles.bone[PM_RIG_SIDED(leg_roles[k], s)];
            l->ik_name = PM_NO_INDEX;
            for (uint32_t i = 0; i < vmd->ik_names.count; i++)
                if (mmd_role(vmd->ik_names.items[i].data, vmd->ik_names.items[i].length) == PM_RIG_SIDED(PM_RIG_LEFT_LEG_IK, s))
                    l->ik_name = i;
        }
    }
    c.leg_ik = moves_leg_ik(vmd);
    if (c.leg_ik) stats.legs = PM_KP_LEGS_IK;
    /* the rig: table names, parents, rest positions mirrored to the keypoint world frame */
    for (uint32_t i = 0; i < n; i++) {
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        rig.names[i] = (pm_string){b->name, (uint32_t)strlen(b->name)};
        rig.parent[i] = b->parent >= 0 ? (uint32_t)b->parent : PM_NO_INDEX;
        mirrored_matrix((pm_quat){0, 0, 0, 1}, rest_of(i), &rig.rest[i]);
    }
    r = last == UINT32_MAX ? too_many_frames(last, err) /* last + 1 would wrap to 0 frames */
                           : pmi_kp_run_rig(&rig, last + 1, MMD_FPS, eval_vmd, &c, opts, &stats, out, err);
done:
    release(&c, a);
    pmi_free(a, refs);
    pmi_free(a, name_bone);
    pmi_kp_rig_release(&rig, a);
    pm_vmd_free(vmd);
    return r;
}

/* ---- a VMD on a model's own skeleton (pose.h) -------------------------------------------------------- */

typedef struct model_ctx {
    const pm_anim *anim;
    pm_pose_workspace *ws;
    pm_pose *pose;
} model_ctx;

static pm_result eval_model(void *ctx, uint32_t frame, double time, const uint8_t *needed, pm_mat4 *world, pm_error *err) {
    (void)time;
    model_ctx *m = ctx;
    pm_result r = pm_pose_evaluate(m->anim, m->ws, frame, m->pose, NULL, err);
    if (r) return r;
    for (uint32_t i = 0; i < m->pose->bone_count; i++)
        if (needed[i]) pmi_kp_mirror_z(&m->pose->world[i], &world[i]);
    return PM_OK;
}

PMI_COLD pm_result pmi_kp_from_vmd_model(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out,
                                pm_error *err) {
    const pm_allocator *a = &opts->allocator;
    pm_model_read_options mo = {.allocator = opts->allocator};
    pm_vmd_read_options vo = {.allocator = opts->allocator};
    pm_skeleton *sk = NULL;
    pm_vmd *vmd = NULL;
    pm_anim *anim = NULL;
    model_ctx m = {0};
    pmi_kp_rig rig;
    memset(&rig, 0, sizeof rig);
    pm_result r = pm_model_read(opts->model, opts->model_size, &mo, &sk, err);
    if (r == PM_OK) r = pm_vmd_read(data, size, &vo, &vmd, err);
    pm_anim_bind_options bo = {.allocator = opts->allocator, .normalized_names = true};
    if (r == PM_OK) r = pm_anim_bind(sk, vmd, &bo, &anim, err);
    if (r == PM_OK) r = pm_pose_workspace_create(sk, a, &m.ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, a, &m.pose, err);
    if (r == PM_OK) r = pmi_kp_rig_alloc(&rig, a, sk->bone_count, err);
    if (r) goto done;
    m.anim = anim;
    pm_anim_info info;
    pm_anim_get_info(anim, &info);
    pm_kp_stats stats = {.format = PM_KP_FORMAT_VMD, .legs = PM_KP_LEGS_FK, .ignored_bones = info.unmatched_bone_count};
    if (moves_leg_ik(vmd)) stats.legs = PM_KP_LEGS_IK;
    else {
        /* an FK motion: the model's leg and toe IK would pin the feet to the IK bones' rest positions */
        pm_rig_roles roles;
        if ((r = pm_rig_resolve_skeleton(sk, NULL, &roles, err))) goto done;
        static const pm_rig_role legs_ik[4] = {PM_RIG_LEFT_LEG_IK, PM_RIG_RIGHT_LEG_IK, PM_RIG_LEFT_TOE_IK, PM_RIG_RIGHT_TOE_IK};
        for (int k = 0; k < 4; k++) {
            uint32_t b = roles.bone[legs_ik[k]];
            if (b != PM_NO_INDEX && sk->bones[b].has_ik && (r = pm_pose_set_ik_mode(m.ws, b, PM_IK_FORCE_OFF, err))) goto done;
        }
    }
    for (uint32_t i = 0; i < sk->bone_count; i++) {
        rig.names[i] = sk->bones[i].name;
        rig.parent[i] = sk->bones[i].parent;
        pm_mat4 t = pm_mat4_from_rotation_translation((pm_quat){0, 0, 0, 1}, sk->bones[i].position);
        pmi_kp_mirror_z(&t, &rig.rest[i]);
    }
    r = info.last_frame == UINT32_MAX ? too_many_frames(info.last_frame, err)
                                      : pmi_kp_run_rig(&rig, info.last_frame + 1, MMD_FPS, eval_model, &m, opts, &stats, out, err);
done:
    pmi_kp_rig_release(&rig, a);
    pm_pose_free(m.pose);
    pm_pose_workspace_free(m.ws);
    pm_anim_free(anim);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    return r;
}
