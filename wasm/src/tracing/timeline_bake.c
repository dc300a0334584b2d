/* Baking a tracing timeline to a VMD: minimal keys for ordinary joints, per-frame keys for the root,
 * middle and IK bone of traced limbs, solved on the pose the minimal keys produce (see tracing.h). */
#include "tracing_internal.h"

#include "beats/grid.h"

#include "landing/report_json.h"

#include <math.h>

typedef struct baker {
    pm_timeline *tl;
    double bpm;
    uint32_t n;        /* keyframes */
    const pm_beat_grid *grid; /* NULL: bpm */
    uint32_t *frame;   /* [n] frame of each keyframe */
    uint8_t *keep;     /* [joint_count * n] ordinary key (joint, keyframe) wanted */
    pm_vmd *pass1;     /* the ordinary keys only */
    pm_vmd *out;
    uint32_t keys;     /* bone keys written to `out` */
    float *plan;       /* optional [PM_LIMB_COUNT][(last + 1) * 3]: the traced targets */
    uint8_t *active;   /* [PM_LIMB_COUNT][last + 1] */
    uint32_t last;     /* the last keyframe's frame */
} baker;

static bool same_key(const pm_timeline *tl, uint32_t j, uint32_t a, uint32_t b) {
    return pmi_same_quat(&tl->kf[a].rot[j], &tl->kf[b].rot[j]) && pmi_same_vec3(&tl->kf[a].trans[j], &tl->kf[b].trans[j]);
}

/* Which ordinary keys a joint needs: none when it rests in every keyframe; else the first, and every
 * other key that differs from its predecessor or its successor. */
static uint32_t plan_joint(baker *bk, uint32_t j) {
    const pm_timeline *tl = bk->tl;
    const uint32_t n = bk->n;
    uint8_t *keep = bk->keep + (size_t)j * n;
    bool moves = false;
    for (uint32_t k = 0; k < n && !moves; k++) moves = !pmi_is_identity(&tl->kf[k].rot[j]) || !pmi_is_zero3(&tl->kf[k].trans[j]);
    uint32_t count = 0;
    for (uint32_t k = 0; k < n; k++) {
        bool need = moves && (k == 0 || !same_key(tl, j, k - 1, k) || (k + 1 < n && !same_key(tl, j, k, k + 1)));
        keep[k] = need;
        count += need;
    }
    return count;
}

/* A key whose four curves (X, Y, Z, rotation) all have easing e. */
static pm_result add_key(baker *bk, pm_vmd *vmd, uint32_t joint, uint32_t frame, const pm_quat *q, const pm_vec3 *t,
                         const pm_easing *e, pm_error *err) {
    if (vmd == bk->out && ++bk->keys > PM_TIMELINE_MAX_BAKED_KEYS)
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: the baked motion would need more than %u bone keys",
                        PM_TIMELINE_MAX_BAKED_KEYS);
    uint8_t c[4][4], interp[64];
    for (int i = 0; i < 4; i++) c[i][0] = e->x1, c[i][1] = e->y1, c[i][2] = e->x2, c[i][3] = e->y2;
    pm_vmd_interp_pack(c, interp);
    const float pos[3] = {t->x, t->y, t->z}, rot[4] = {q->x, q->y, q->z, q->w};
    return pm_vmd_add_bone_key(vmd, pm_timeline_joint_name(bk->tl, joint).data, frame, pos, rot, interp, err);
}

/* The ordinary keys of every joint into `vmd`, skipping those marked in `drop` (may be NULL). */
static pm_result add_ordinary(baker *bk, pm_vmd *vmd, const uint8_t *drop, pm_error *err) {
    const pm_timeline *tl = bk->tl;
    for (uint32_t j = 0; j < tl->joint_count; j++)
        for (uint32_t k = 0; k < bk->n; k++) {
            size_t at = (size_t)j * bk->n + k;
            if (!bk->keep[at] || (drop && drop[at])) continue;
            pm_result r = add_key(bk, vmd, j, bk->frame[k], &tl->kf[k].rot[j], &tl->kf[k].trans[j], &tl->kf[k].easing, err);
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

/* Where limb l's frame f sits in bk->active (times 3: in bk->plan). */
static size_t plan_at(const baker *bk, int l, uint32_t f) { return (size_t)l * (bk->last + 1) + f; }

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
    memset(last, 0xff, sizeof last); /* UINT32_MAX: no key yet */
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
            pmi_timeline_locate(tl, bk->grid ? pm_beat_grid_beat(bk->grid, f / 30.0) : f * bk->bpm / 1800.0, &seg);
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
                if (bk->plan && f <= bk->last) {
                    memcpy(bk->plan + 3 * plan_at(bk, l, f), &tl->state[l].target, 3 * sizeof(float));
                    bk->active[plan_at(bk, l, f)] = 1;
                }
                const pmi_limb *lb = &tl->limbs[l];
                const uint32_t bones[3] = {lb->bone[0], lb->bone[1], lb->ik};
                for (int b = 0; b < 3 && r == PM_OK; b++) {
                    const uint32_t j = bones[b];
                    if (j == PM_NO_INDEX) continue;
                    const pm_quat q = pm_quat_normalize(tl->pose->rotation[j]);
                    r = add_key(bk, bk->out, j, f, &q, &tl->pose->translation[j], &e, err);
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
    return pm_timeline_bake_plan(tl, opts, out, NULL, NULL, err);
}

void pm_trace_plan_free(pm_trace_plan *plan) {
    if (!plan) return;
    pmi_free(&plan->allocator, plan->hands);
    pmi_free(&plan->allocator, plan->ankles);
    pmi_free(&plan->allocator, plan->active);
    plan->hands = plan->ankles = NULL;
    plan->active = NULL;
}

/* The plan where no trace is followed (the bake as played), then the report: every limb the skeleton
 * has, measured against the plan over its traced frames. */
static pm_result plan_and_measure(baker *bk, pm_trace_plan *plan, pm_landing_report *report, pm_error *err) {
    const pm_timeline *tl = bk->tl;
    const pm_skeleton *sk = tl->skeleton;
    const pm_allocator *al = &tl->allocator;
    const uint32_t n1 = bk->last + 1;
    pm_anim *anim = NULL;
    pm_anim_bind_options bo = {.allocator = *al};
    pm_result r = pm_anim_bind(sk, bk->out, &bo, &anim, err);
    for (uint32_t f = 0; f < n1 && r == PM_OK; f++) {
        bool need = false;
        for (int l = 0; l < PM_LIMB_COUNT; l++) need |= tl->limbs[l].ok && !bk->active[plan_at(bk, l, f)];
        if (!need) continue;
        if ((r = pm_pose_evaluate(anim, tl->ws, f, tl->pose, NULL, err)) != PM_OK) break;
        for (int l = 0; l < PM_LIMB_COUNT; l++) {
            if (!tl->limbs[l].ok || bk->active[plan_at(bk, l, f)]) continue;
            const pm_vec3 p = pm_pose_world_position(tl->pose, tl->limbs[l].bone[2]);
            memcpy(bk->plan + 3 * plan_at(bk, l, f), &p, 3 * sizeof(float));
        }
    }
    pm_anim_free(anim);
    if (r != PM_OK) return r;
    if (report) {
        pm_landing_limb limbs[PM_LIMB_COUNT];
        uint32_t count = 0;
        memset(limbs, 0, sizeof limbs);
        for (int l = 0; l < PM_LIMB_COUNT; l++) {
            if (!tl->limbs[l].ok) continue;
            pm_landing_limb *lm = &limbs[count++];
            lm->effector = tl->limbs[l].bone[2];
            lm->ik_bone = PM_NO_INDEX;
            lm->plan = bk->plan + 3 * plan_at(bk, l, 0);
            lm->active = bk->active + plan_at(bk, l, 0);
        }
        pm_landing_options o = {0};
        o.allocator = *al;
        if ((r = pm_landing_measure(sk, bk->out, bk->last, limbs, count, &o, report, err)) != PM_OK) return r;
    }
    if (!plan) return PM_OK;
    plan->allocator = *al;
    plan->frames = bk->last;
    plan->hands = pmi_alloc_array(al, (size_t)n1 * 6, sizeof(float), err, "tracing: plan");
    plan->ankles = plan->hands ? pmi_alloc_array(al, (size_t)n1 * 6, sizeof(float), err, "tracing: plan") : NULL;
    plan->active = plan->ankles ? pmi_alloc_array(al, (size_t)n1 * 4, 1, err, "tracing: plan") : NULL;
    if (!plan->active) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t f = 0; f < n1; f++)
        for (int l = 0; l < PM_LIMB_COUNT; l++) {
            float *dst = (l < 2 ? plan->hands : plan->ankles) + 6 * (size_t)f + 3 * (l & 1);
            memcpy(dst, bk->plan + 3 * plan_at(bk, l, f), 3 * sizeof(float));
            plan->active[4 * (size_t)f + l] = bk->active[plan_at(bk, l, f)];
        }
    return PM_OK;
}

pm_result pm_timeline_bake_plan(pm_timeline *tl, const pm_timeline_bake_options *opts, pm_vmd **out, pm_trace_plan *plan,
                                pm_landing_report *report, pm_error *err) {
    if (plan) memset(plan, 0, sizeof *plan);
    if (report) memset(report, 0, sizeof *report);
    if (out) *out = NULL;
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_timeline_bake needs a timeline and an output");
    double bpm = opts && opts->bpm != 0 ? opts->bpm : tl->bpm;
    pm_result r = pmi_timeline_check_bpm(bpm, err);
    if (r != PM_OK) return r;
    const pm_beat_grid *grid = opts && pm_beat_grid_is_set(&opts->grid) ? &opts->grid : NULL;
    if (grid && (r = pmi_beat_grid_check_for("tracing", grid, UINT32_MAX, err)) != PM_OK) return r;
    baker bk = {tl, bpm, tl->kf_count, grid, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0};
    uint8_t *drop = NULL;
    const pm_allocator *al = &tl->allocator;
    r = make_vmd(&bk, opts, &bk.out, err);
    if (r != PM_OK || bk.n == 0) goto done;
    r = PM_ERR_OUT_OF_MEMORY;
    bk.frame = pmi_alloc_array(al, bk.n, sizeof *bk.frame, err, "tracing: bake");
    bk.keep = pmi_alloc_array(al, (size_t)tl->joint_count, bk.n, err, "tracing: bake");
    drop = pmi_alloc_array(al, (size_t)tl->joint_count, bk.n, err, "tracing: bake");
    if (!bk.frame || !bk.keep || !drop) goto done;
    pm_beat_sync sync = {0};
    for (uint32_t k = 0; k < bk.n; k++) {
        double at = grid ? 30.0 * pm_beat_grid_time(grid, tl->kf[k].beat) : pmi_timeline_frame_of(tl->kf[k].beat, bpm);
        if (!(at >= -0.5) || !(at < 4294967295.0)) {
            r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: keyframe %u (beat %g) falls at %g s on the beat grid, %s", k,
                         tl->kf[k].beat, at / 30.0, at < 0 ? "before the motion starts" : "too late");
            goto done;
        }
        bk.frame[k] = (uint32_t)llround(at);
        pm_beat_sync_add(&sync, (double)bk.frame[k] - at);
    }
    for (uint32_t j = 0; j < tl->joint_count; j++) plan_joint(&bk, j);
    if (plan || report) {
        bk.last = bk.frame[bk.n - 1];
        if (bk.last > PM_LANDING_MAX_FRAMES) {
            r = pmi_fail(err, PM_ERR_LIMIT, "tracing: a plan of %u frames (at most %u)", bk.last, PM_LANDING_MAX_FRAMES);
            goto done;
        }
        bk.plan = pmi_alloc_array(al, (size_t)PM_LIMB_COUNT * 3 * ((size_t)bk.last + 1), sizeof(float), err, "tracing: plan");
        bk.active = bk.plan ? pmi_alloc_array(al, (size_t)PM_LIMB_COUNT * ((size_t)bk.last + 1), 1, err, "tracing: plan") : NULL;
        if (!bk.active) goto done;
    }
    /* pass 1: the ordinary keys alone, the pose the traced limbs are solved on */
    if ((r = pm_vmd_create(al, &bk.pass1, err)) != PM_OK || (r = add_ordinary(&bk, bk.pass1, NULL, err)) != PM_OK) goto done;
    if ((r = bake_traces(&bk, drop, err)) != PM_OK) goto done;
    r = add_ordinary(&bk, bk.out, drop, err);
    if (r == PM_OK && bk.plan) r = plan_and_measure(&bk, plan, report, err);
    if (r == PM_OK && plan && grid) plan->synced = true, plan->sync = sync;
done:
    pmi_free(al, bk.plan);
    pmi_free(al, bk.active);
    if (r != PM_OK) pm_trace_plan_free(plan);
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

void pmi_trace_report_json(cJSON *to, const char *key, const pm_landing_report *rep, const pm_skeleton *sk, bool *ok) {
    const char *names[PM_LANDING_MAX_LIMBS], *bones[PM_LANDING_MAX_LIMBS];
    for (uint32_t i = 0; i < rep->limb_count && i < PM_LANDING_MAX_LIMBS; i++) {
        const uint32_t e = rep->limbs[i].effector;
        bones[i] = e < sk->bone_count ? sk->bones[e].name.data : NULL;
        names[i] = "";
        for (int l = 0; l < PM_LIMB_COUNT; l++) {
            uint32_t b[3];
            if (pm_limb_bones(sk, (pm_limb)l, b, NULL) == PM_OK && b[2] == e) names[i] = pm_limb_name((pm_limb)l);
        }
    }
    pmi_landing_report_json(to, key, rep, 0.01, bones, names, ok);
}
