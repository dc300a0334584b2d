/* Baking a tracing timeline to a VMD: minimal keys for ordinary joints, per-frame keys for the root,
 * middle and IK bone of traced limbs, solved on the pose the minimal keys produce (see tracing.h). */
#include "tracing_internal.h"

#include <math.h>

typedef struct baker {
    pm_timeline *tl;
    double bpm;
    uint32_t n;        /* keyframes */
    uint32_t *frame;   /* [n] frame of each keyframe */
    uint8_t *keep;     /* [joint_count * n] ordinary key (joint, keyframe) wanted */
    pm_vmd *pass1;     /* the ordinary keys only */
    pm_vmd *out;
    uint32_t keys;     /* bone keys written to `out` */
} baker;

static bool same_rot(pm_quat a, pm_quat b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
static bool same_vec(pm_vec3 a, pm_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static bool same_key(const pm_timeline *tl, uint32_t j, uint32_t a, uint32_t b) {
    return same_rot(tl->kf[a].rot[j], tl->kf[b].rot[j]) && same_vec(tl->kf[a].trans[j], tl->kf[b].trans[j]);
}

/* Which ordinary keys a joint needs: none when it rests in every keyframe; else the first, and every
 * other key that differs from its predecessor or its successor. */
static uint32_t plan_joint(baker *bk, uint32_t j) {
    const pm_timeline *tl = bk->tl;
    const uint32_t n = bk->n;
    uint8_t *keep = bk->keep + (size_t)j * n;
    bool moves = false;
    for (uint32_t k = 0; k < n && !moves; k++) {
        const pm_quat q = tl->kf[k].rot[j];
        const pm_vec3 t = tl->kf[k].trans[j];
        moves = !(q.x == 0 && q.y == 0 && q.z == 0 && q.w == 1) || !(t.x == 0 && t.y == 0 && t.z == 0);
    }
    uint32_t count = 0;
    for (uint32_t k = 0; k < n; k++) {
        bool need = moves && (k == 0 || !same_key(tl, j, k - 1, k) || (k + 1 < n && !same_key(tl, j, k, k + 1)));
        keep[k] = need;
        count += need;
    }
    return count;
}

static void pack_easing(pm_easing e, uint8_t out[64]) {
    const uint8_t c[4][4] = {{e.x1, e.y1, e.x2, e.y2}, {e.x1, e.y1, e.x2, e.y2}, {e.x1, e.y1, e.x2, e.y2},
                             {e.x1, e.y1, e.x2, e.y2}};
    pm_vmd_interp_pack(c, out);
}

static pm_result add_key(baker *bk, pm_vmd *vmd, uint32_t joint, uint32_t frame, pm_quat q, pm_vec3 t, pm_easing e,
                         pm_error *err) {
    if (vmd == bk->out && ++bk->keys > PM_TIMELINE_MAX_BAKED_KEYS)
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: the baked motion would need more than %u bone keys",
                        PM_TIMELINE_MAX_BAKED_KEYS);
    uint8_t interp[64];
    pack_easing(e, interp);
    const float pos[3] = {t.x, t.y, t.z}, rot[4] = {q.x, q.y, q.z, q.w};
    return pm_vmd_add_bone_key(vmd, pm_timeline_joint_name(bk->tl, joint).data, frame, pos, rot, interp, err);
}

/* The ordinary keys of every joint into `vmd`, skipping those marked in `drop` (may be NULL). */
static pm_result add_ordinary(baker *bk, pm_vmd *vmd, const uint8_t *drop, pm_error *err) {
    const pm_timeline *tl = bk->tl;
    for (uint32_t j = 0; j < tl->joint_count; j++)
        for (uint32_t k = 0; k < bk->n; k++) {
            size_t at = (size_t)j * bk->n + k;
            if (!bk->keep[at] || (drop && drop[at])) continue;
            pm_result r = add_key(bk, vmd, j, bk->frame[k], tl->kf[k].rot[j], tl->kf[k].trans[j], tl->kf[k].easing, err);
            if (r != PM_OK) return r;
        }
    return PM_OK;
}

static pm_result make_vmd(baker *bk, const pm_timeline_bake_options *opts, pm_vmd **out, pm_error *err) {
    const pm_allocator *al = opts ? &opts->allocator : NULL;
    pm_result r = pm_vmd_create(al, out, err);
    if (r != PM_OK) return r;
    const char *name = opts && opts->model_name ? opts->model_name : bk->tl->skeleton->model_name.data;
    return pm_vmd_set_model_name(*out, name ? name : "", err);
}

/* The first keyframe whose frame is >= f (frames are sorted). */
static uint32_t first_at(const baker *bk, uint32_t f) {
    uint32_t lo = 0, hi = bk->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bk->frame[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Whether limb l (found in the skeleton) follows one trace from keyframe a to a + 1. */
static bool traced_segment(const pm_timeline *tl, uint32_t a, int l) {
    return tl->kf[a].trace[l].id && tl->kf[a].trace[l].id == tl->kf[a + 1].trace[l].id && tl->limbs[l].ok;
}

/* Per-frame keys over the traced segments; marks the ordinary keys they replace in `drop`. */
static pm_result bake_traces(baker *bk, uint8_t *drop, pm_error *err) {
    pm_timeline *tl = bk->tl;
    pm_anim *anim = NULL;
    pm_anim_bind_options bo = {.allocator = bk->pass1->allocator}; /* the caller's allocator, not malloc */
    pm_result r = pm_anim_bind(tl->skeleton, bk->pass1, &bo, &anim, err);
    if (r != PM_OK) return r;
    uint64_t frames = 0; /* an upper bound of the keys to come, checked before the slow part */
    for (uint32_t a = 0; a + 1 < bk->n; a++)
        for (int l = 0; l < PM_LIMB_COUNT; l++)
            if (traced_segment(tl, a, l))
                frames += (uint64_t)(bk->frame[a + 1] - bk->frame[a] + 1) * 2;
    if (frames > PM_TIMELINE_MAX_BAKED_KEYS) {
        pm_anim_free(anim);
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: the traced segments would need about %llu bone keys, at most %u",
                        (unsigned long long)frames, PM_TIMELINE_MAX_BAKED_KEYS);
    }
    uint32_t last[PM_LIMB_COUNT];
    for (int l = 0; l < PM_LIMB_COUNT; l++) last[l] = UINT32_MAX;
    uint32_t done_to = 0; /* frames below this were baked */
    bool any_done = false;
    for (uint32_t a = 0; a + 1 < bk->n && r == PM_OK; a++) {
        bool traced = false;
        for (int l = 0; l < PM_LIMB_COUNT; l++)
            traced |= traced_segment(tl, a, l);
        if (!traced) continue;
        uint32_t f0 = bk->frame[a], f1 = bk->frame[a + 1];
        if (any_done && f0 < done_to) f0 = done_to;
        for (uint32_t f = f0; f <= f1 && r == PM_OK; f++) {
            pmi_segment seg;
            pmi_request req[PM_LIMB_COUNT];
            pmi_timeline_locate(tl, f * bk->bpm / 1800.0, &seg);
            bool active = false;
            for (int l = 0; l < PM_LIMB_COUNT; l++) {
                pmi_timeline_request(tl, &seg, (pm_limb)l, &req[l]);
                active |= req[l].active;
            }
            if (!active) continue;
            if ((r = pm_pose_sample(anim, tl->ws, f, tl->pose, err)) != PM_OK ||
                (r = pmi_timeline_solve(tl, tl->pose, req, err)) != PM_OK)
                break;
            for (int l = 0; l < PM_LIMB_COUNT && r == PM_OK; l++) {
                if (!req[l].active) continue;
                /* a run of per-frame keys starts with the easing of the keyframe it starts on */
                pm_easing e = pm_easing_from_preset(PM_EASING_LINEAR);
                const uint32_t k0 = first_at(bk, f);
                if ((last[l] == UINT32_MAX || last[l] + 1 != f) && k0 < bk->n && bk->frame[k0] == f) e = tl->kf[k0].easing;
                last[l] = f;
                const pmi_limb *lb = &tl->limbs[l];
                const uint32_t bones[3] = {lb->bone[0], lb->bone[1], lb->ik};
                for (int b = 0; b < 3 && r == PM_OK; b++) {
                    const uint32_t j = bones[b];
                    if (j == PM_NO_INDEX) continue;
                    r = add_key(bk, bk->out, j, f, pm_quat_normalize(tl->pose->rotation[j]), tl->pose->translation[j], e, err);
                    for (uint32_t k = k0; k < bk->n && bk->frame[k] == f; k++) drop[(size_t)j * bk->n + k] = 1;
                }
            }
        }
        done_to = f1 + 1;
        any_done = true;
    }
    pm_anim_free(anim);
    return r;
}

pm_result pm_timeline_bake(pm_timeline *tl, const pm_timeline_bake_options *opts, pm_vmd **out, pm_error *err) {
    if (out) *out = NULL;
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_timeline_bake needs a timeline and an output");
    double bpm = opts && opts->bpm != 0 ? opts->bpm : tl->bpm;
    pm_result r = pmi_timeline_check_bpm(bpm, err);
    if (r != PM_OK) return r;
    baker bk = {tl, bpm, tl->kf_count, NULL, NULL, NULL, NULL, 0};
    uint8_t *drop = NULL;
    const pm_allocator *al = &tl->allocator;
    r = make_vmd(&bk, opts, &bk.out, err);
    if (r != PM_OK || bk.n == 0) goto done;
    r = PM_ERR_OUT_OF_MEMORY;
    bk.frame = pmi_alloc_array(al, bk.n, sizeof *bk.frame, err, "tracing: bake");
    bk.keep = pmi_alloc_array(al, (size_t)tl->joint_count, bk.n, err, "tracing: bake");
    drop = pmi_alloc_array(al, (size_t)tl->joint_count, bk.n, err, "tracing: bake");
    if (!bk.frame || !bk.keep || !drop) goto done;
    for (uint32_t k = 0; k < bk.n; k++) bk.frame[k] = (uint32_t)llround(pmi_timeline_frame_of(tl->kf[k].beat, bpm));
    for (uint32_t j = 0; j < tl->joint_count; j++) plan_joint(&bk, j);
    /* pass 1: the ordinary keys alone, the pose the traced limbs are solved on */
    if ((r = pm_vmd_create(al, &bk.pass1, err)) != PM_OK || (r = add_ordinary(&bk, bk.pass1, NULL, err)) != PM_OK) goto done;
    if ((r = bake_traces(&bk, drop, err)) != PM_OK) goto done;
    r = add_ordinary(&bk, bk.out, drop, err);
done:
    pmi_free(al, bk.frame);
    pmi_free(al, bk.keep);
    pmi_free(al, drop);
    pm_vmd_free(bk.pass1);
    if (r != PM_OK) {
        pm_vmd_free(bk.out);
        return r;
    }
    *out = bk.out;
    return PM_OK;
}
