/* VMD -> keypoints on the MMD standard skeleton (mmd_standard.c): Bezier-interpolated tracks at 30 fps,
 * FK with append (付与) rotation and translation, leg drive per motion (analytic two-bone leg IK with
 * the knee towards the character's front and toe IK aiming the foot, or FK), mirrored to the
 * right-handed keypoint world frame. */
#include "kp_internal.h"
#include "mmd_standard.h"
#include "procmotion/vmd.h"

#include <math.h>
#include <stdlib.h>

#define MMD_FPS 30.0

typedef struct leg {
    uint32_t ik, toe_ik;          /* 足ＩＫ, つま先ＩＫ */
    uint32_t hip, knee, ankle, toe; /* 足, ひざ, 足首, つま先 */
    uint32_t ik_name;             /* index into vmd->ik_names, PM_NO_INDEX when never named */
} leg;

typedef struct vmd_ctx {
    const pm_vmd *vmd;
    uint32_t n;                   /* bones in the table */
    uint32_t *track_start;        /* [n + 1] into keys */
    uint32_t *keys;               /* bone key indices grouped per bone, sorted by frame */
    pm_vec3 *anim_t, *final_t;
    pm_quat *anim_q, *final_q;
    uint8_t *override;            /* final_q fixed by IK */
    pm_mat4 *world;               /* MMD space */
    bool leg_ik;
    leg legs[2];
} vmd_ctx;

/* Names compared with full-width ASCII folded (足ＩＫ == 足IK). */
static size_t fold(const char *s, size_t n, char *out, size_t cap) {
    const uint8_t *p = (const uint8_t *)s;
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 < cap;) {
        if (p[i] == 0xEF && i + 2 < n && (p[i + 1] == 0xBC || p[i + 1] == 0xBD)) {
            unsigned cp = 0xF000u | ((unsigned)(p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3Fu);
            if (cp >= 0xFF01 && cp <= 0xFF5E) {
                out[o++] = (char)(cp - 0xFF01 + 0x21);
                i += 3;
                continue;
            }
        }
        out[o++] = (char)p[i++];
    }
    out[o] = '\0';
    return o;
}

static uint32_t find_bone(const char *name) {
    char a[96], b[96];
    fold(name, strlen(name), a, sizeof a);
    for (uint32_t i = 0; i < pmi_mmd_standard_count; i++) {
        fold(pmi_mmd_standard[i].name, strlen(pmi_mmd_standard[i].name), b, sizeof b);
        if (strcmp(a, b) == 0) return i;
    }
    return PM_NO_INDEX;
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

static void sample_track(const vmd_ctx *c, uint32_t bone, double frame, pm_vec3 *t, pm_quat *q) {
    uint32_t s = c->track_start[bone], e = c->track_start[bone + 1];
    const pm_vmd_bone_keys *k = &c->vmd->bones;
    *t = pm_vec3_make(0, 0, 0);
    *q = pm_quat_identity();
    if (s == e) return;
    /* last key with frame <= frame */
    uint32_t lo = s, hi = e;
    while (hi - lo > 1) {
        uint32_t m = lo + (hi - lo) / 2;
        if (k->frame[c->keys[m]] <= frame) lo = m;
        else hi = m;
    }
    uint32_t a = c->keys[lo];
    const float *pa = k->position + (size_t)a * 3, *ra = k->rotation + (size_t)a * 4;
    if (frame <= k->frame[a] || lo + 1 == e) {
        *t = pm_vec3_make(pa[0], pa[1], pa[2]);
        *q = pm_quat_normalize((pm_quat){ra[0], ra[1], ra[2], ra[3]});
        return;
    }
    uint32_t b = c->keys[lo + 1];
    const float *pb = k->position + (size_t)b * 3, *rb = k->rotation + (size_t)b * 4;
    float x = (float)((frame - k->frame[a]) / (double)(k->frame[b] - k->frame[a]));
    const uint8_t *ip = k->interpolation + (size_t)b * PM_VMD_INTERP_SIZE; /* key B's curve (babylon-mmd) */
    float w[4];
    for (int axis = 0; axis < 4; axis++) {
        uint8_t cv[4];
        pm_vmd_interp_unpack(ip, axis, cv);
        w[axis] = pm_bezier_eval_mmd(cv[0], cv[1], cv[2], cv[3], x);
    }
    *t = pm_vec3_make(pa[0] + (pb[0] - pa[0]) * w[0], pa[1] + (pb[1] - pa[1]) * w[1], pa[2] + (pb[2] - pa[2]) * w[2]);
    *q = pm_quat_slerp(pm_quat_normalize((pm_quat){ra[0], ra[1], ra[2], ra[3]}),
                       pm_quat_normalize((pm_quat){rb[0], rb[1], rb[2], rb[3]}), w[3]);
}

/* Leg IK state at a frame from the property keys (stepwise; a key that does not name the leg keeps the
 * previous state; on before any key). */
static bool leg_ik_enabled(const vmd_ctx *c, const leg *l, double frame) {
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

/* ---- FK ------------------------------------------------------------------------------------------- */

static pm_quat append_rot(pm_quat src, float ratio) {
    if (ratio < 0) return pm_quat_slerp(pm_quat_identity(), pm_quat_conjugate(src), -ratio);
    return pm_quat_slerp(pm_quat_identity(), src, ratio);
}

static void fk(vmd_ctx *c) {
    for (uint32_t i = 0; i < c->n; i++) {
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        pm_quat q = c->anim_q[i];
        pm_vec3 t = c->anim_t[i];
        if (b->append >= 0) {
            if (b->flags & 0x100) q = pm_quat_mul(q, append_rot(c->final_q[b->append], b->append_ratio));
            if (b->flags & 0x200) t = pm_vec3_add(t, pm_vec3_scale(c->final_t[b->append], b->append_ratio));
        }
        if (c->override[i]) q = c->final_q[i];
        else c->final_q[i] = q;
        c->final_t[i] = t;
        pm_vec3 rest = pm_vec3_make(b->position[0], b->position[1], b->position[2]);
        pm_vec3 prest = b->parent >= 0 ? pm_vec3_make(pmi_mmd_standard[b->parent].position[0], pmi_mmd_standard[b->parent].position[1],
                                                      pmi_mmd_standard[b->parent].position[2])
                                       : pm_vec3_make(0, 0, 0);
        pm_mat4 local = pm_mat4_from_rotation_translation(q, pm_vec3_add(pm_vec3_sub(rest, prest), t));
        c->world[i] = b->parent >= 0 ? pm_mat4_mul(&c->world[b->parent], &local) : local;
    }
}

static pm_vec3 wpos(const vmd_ctx *c, uint32_t i) { return pm_mat4_get_translation(&c->world[i]); }
static pm_vec3 rest_of(uint32_t i) {
    return pm_vec3_make(pmi_mmd_standard[i].position[0], pmi_mmd_standard[i].position[1], pmi_mmd_standard[i].position[2]);
}

/* Analytic two-bone IK of one leg in MMD space: the ankle goes to the IK bone (or as far towards it as
 * the leg reaches), the knee bends towards the character's front (-Z of the lower body). */
static void solve_leg(vmd_ctx *c, const leg *l) {
    uint32_t parent = (uint32_t)pmi_mmd_standard[l->hip].parent;
    pm_quat rp = pm_mat4_get_rotation(&c->world[parent]);
    pm_vec3 h = wpos(c, l->hip), target = wpos(c, l->ik);
    pm_vec3 thigh_rest = pm_vec3_sub(rest_of(l->knee), rest_of(l->hip));
    pm_vec3 shin_rest = pm_vec3_sub(rest_of(l->ankle), rest_of(l->knee));
    float a = pm_vec3_length(thigh_rest), b = pm_vec3_length(shin_rest);
    pm_vec3 d = pm_vec3_sub(target, h);
    float dist = pm_vec3_length(d);
    pm_vec3 u = dist > 1e-6f ? pm_vec3_scale(d, 1.0f / dist) : pm_vec3_normalize(pm_quat_rotate(rp, pm_vec3_add(thigh_rest, shin_rest)));
    float lo = fabsf(a - b) + 1e-4f, hi = (a + b) * (1.0f - 1e-6f);
    if (dist < lo) dist = lo;
    if (dist > hi) dist = hi; /* out of reach: the leg straightens towards the target */
    pm_vec3 front = pm_quat_rotate(rp, pm_vec3_make(0, 0, -1));
    pm_vec3 v = pm_vec3_sub(front, pm_vec3_scale(u, pm_vec3_dot(front, u)));
    if (pm_vec3_length(v) < 1e-4f) { /* leg pointing straight forward or back: bend the knee upwards */
        pm_vec3 up = pm_quat_rotate(rp, pm_vec3_make(0, 1, 0));
        v = pm_vec3_sub(up, pm_vec3_scale(u, pm_vec3_dot(up, u)));
    }
    v = pm_vec3_normalize(v);
    double cosa = ((double)a * a + (double)dist * dist - (double)b * b) / (2.0 * a * dist);
    if (cosa > 1) cosa = 1;
    if (cosa < -1) cosa = -1;
    double sina = sqrt(1 - cosa * cosa);
    pm_vec3 k = pm_vec3_add(h, pm_vec3_add(pm_vec3_scale(u, (float)(a * cosa)), pm_vec3_scale(v, (float)(a * sina))));
    pm_vec3 an = pm_vec3_add(h, pm_vec3_scale(u, dist));
    /* world rotations: the parent's, turned so the rest bone directions point at the solved joints */
    pm_quat r_hip = pm_quat_mul(pm_quat_from_to(pm_quat_rotate(rp, thigh_rest), pm_vec3_sub(k, h)), rp);
    pm_quat r_knee = pm_quat_mul(pm_quat_from_to(pm_quat_rotate(r_hip, shin_rest), pm_vec3_sub(an, k)), r_hip);
    c->final_q[l->hip] = pm_quat_normalize(pm_quat_mul(pm_quat_conjugate(rp), r_hip));
    c->final_q[l->knee] = pm_quat_normalize(pm_quat_mul(pm_quat_conjugate(r_hip), r_knee));
    c->override[l->hip] = c->override[l->knee] = 1;
}

/* つま先ＩＫ: turn the ankle so the toe points at the toe IK bone. */
static void solve_toe(vmd_ctx *c, const leg *l) {
    pm_vec3 an = wpos(c, l->ankle), toe = wpos(c, l->toe), target = wpos(c, l->toe_ik);
    pm_quat r_knee = pm_mat4_get_rotation(&c->world[l->knee]);
    pm_quat r_ankle = pm_mat4_get_rotation(&c->world[l->ankle]);
    pm_vec3 from = pm_vec3_sub(toe, an), to = pm_vec3_sub(target, an);
    if (pm_vec3_length(from) < 1e-6f || pm_vec3_length(to) < 1e-6f) return;
    pm_quat r = pm_quat_mul(pm_quat_from_to(from, to), r_ankle);
    c->final_q[l->ankle] = pm_quat_normalize(pm_quat_mul(pm_quat_conjugate(r_knee), r));
    c->override[l->ankle] = 1;
}

static pm_result eval_vmd(void *ctx, uint32_t frame, double time, pm_mat4 *world, pm_error *err) {
    (void)time, (void)err;
    vmd_ctx *c = ctx;
    for (uint32_t i = 0; i < c->n; i++) {
        sample_track(c, i, frame, &c->anim_t[i], &c->anim_q[i]);
        c->override[i] = 0;
    }
    fk(c);
    if (c->leg_ik) {
        bool on[2];
        for (int s = 0; s < 2; s++)
            if ((on[s] = leg_ik_enabled(c, &c->legs[s], frame))) solve_leg(c, &c->legs[s]);
        if (on[0] || on[1]) {
            fk(c);
            for (int s = 0; s < 2; s++)
                if (on[s] && c->legs[s].toe_ik != PM_NO_INDEX && c->legs[s].toe != PM_NO_INDEX) solve_toe(c, &c->legs[s]);
            fk(c);
        }
    }
    for (uint32_t i = 0; i < c->n; i++) world[i] = pmi_kp_mirror_z(&c->world[i]);
    return PM_OK;
}

/* ---- setup ----------------------------------------------------------------------------------------- */

static void release(vmd_ctx *c, const pm_allocator *a) {
    void *p[] = {c->track_start, c->keys, c->anim_t, c->final_t, c->anim_q, c->final_q, c->override, c->world};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) pmi_free(a, p[i]);
}

pm_result pmi_kp_from_vmd(const uint8_t *data, size_t size, const pm_kp_options *opts, pm_kp_sequence **out, pm_error *err) {
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
    c.anim_t = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    c.final_t = pmi_alloc_array(a, n, sizeof(pm_vec3), err, "keypoints: pose");
    c.anim_q = pmi_alloc_array(a, n, sizeof(pm_quat), err, "keypoints: pose");
    c.final_q = pmi_alloc_array(a, n, sizeof(pm_quat), err, "keypoints: pose");
    c.override = pmi_alloc_array(a, n, 1, err, "keypoints: pose");
    c.world = pmi_alloc_array(a, n, sizeof(pm_mat4), err, "keypoints: pose");
    refs = pmi_alloc_array(a, nk, sizeof *refs, err, "keypoints: tracks");
    name_bone = pmi_alloc_array(a, nn, sizeof *name_bone, err, "keypoints: tracks");
    if (!c.track_start || !c.keys || !c.anim_t || !c.final_t || !c.anim_q || !c.final_q || !c.override || !c.world || !refs ||
        !name_bone || pmi_kp_rig_alloc(&rig, a, n, err)) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    pm_kp_stats stats = {.format = PM_KP_FORMAT_VMD, .legs = PM_KP_LEGS_FK};
    /* VMD names -> table bones; names with keys that the skeleton lacks are counted */
    for (uint32_t i = 0; i < nn; i++) name_bone[i] = find_bone(vmd->bone_names.items[i].data);
    for (uint32_t i = 0; i < nn; i++) stats.ignored_bones += name_bone[i] == PM_NO_INDEX; /* every name has a key */
    uint32_t m = 0, last = 0;
    for (uint32_t i = 0; i < nk; i++) {
        uint32_t bone = name_bone[vmd->bones.name_index[i]];
        if (bone == PM_NO_INDEX) continue;
        refs[m++] = (keyref){bone, vmd->bones.frame[i], i};
        if (vmd->bones.frame[i] > last) last = vmd->bones.frame[i];
    }
    qsort(refs, m, sizeof *refs, by_bone_frame);
    memset(c.track_start, 0, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < m; i++) c.track_start[refs[i].bone + 1]++;
    for (uint32_t i = 0; i < n; i++) c.track_start[i + 1] += c.track_start[i];
    for (uint32_t i = 0; i < m; i++) c.keys[i] = refs[i].index;
    /* legs */
    static const char *const leg_names[2][6] = {{"左足ＩＫ", "左つま先ＩＫ", "左足", "左ひざ", "左足首", "左つま先"},
                                                {"右足ＩＫ", "右つま先ＩＫ", "右足", "右ひざ", "右足首", "右つま先"}};
    for (int s = 0; s < 2; s++) {
        leg *l = &c.legs[s];
        uint32_t *f[6] = {&l->ik, &l->toe_ik, &l->hip, &l->knee, &l->ankle, &l->toe};
        for (int k = 0; k < 6; k++) *f[k] = find_bone(leg_names[s][k]);
        l->ik_name = PM_NO_INDEX;
        char want[64], got[96];
        fold(leg_names[s][0], strlen(leg_names[s][0]), want, sizeof want);
        for (uint32_t i = 0; i < vmd->ik_names.count; i++) {
            fold(vmd->ik_names.items[i].data, vmd->ik_names.items[i].length, got, sizeof got);
            if (strcmp(want, got) == 0) l->ik_name = i;
        }
        for (uint32_t k = c.track_start[l->ik]; k < c.track_start[l->ik + 1]; k++) {
            const float *p = vmd->bones.position + (size_t)c.keys[k] * 3;
            if (p[0] != 0 || p[1] != 0 || p[2] != 0) c.leg_ik = true;
        }
    }
    if (c.leg_ik) stats.legs = PM_KP_LEGS_IK;
    /* the rig: table names, parents, rest positions mirrored to the keypoint world frame */
    for (uint32_t i = 0; i < n; i++) {
        const pmi_mmd_bone *b = &pmi_mmd_standard[i];
        rig.names[i] = (pm_string){b->name, (uint32_t)strlen(b->name)};
        rig.parent[i] = b->parent >= 0 ? (uint32_t)b->parent : PM_NO_INDEX;
        pm_mat4 m4 = pm_mat4_from_rotation_translation(pm_quat_identity(), rest_of(i));
        rig.rest[i] = pmi_kp_mirror_z(&m4);
    }
    r = pmi_kp_run_rig(&rig, last + 1, MMD_FPS, eval_vmd, &c, opts, &stats, out, err);
done:
    release(&c, a);
    pmi_free(a, refs);
    pmi_free(a, name_bone);
    pmi_kp_rig_release(&rig, a);
    pm_vmd_free(vmd);
    return r;
}
