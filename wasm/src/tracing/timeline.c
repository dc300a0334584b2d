/* The tracing timeline: keyframes at beats, playback with per-frame IK on traced segments, keyframe
 * generation along a trajectory (see procmotion/tracing.h). */
#include "tracing_internal.h"

#include "math/inline.h"
#include "procmotion/ik.h"
#include "procmotion/rig.h"

#include <math.h>

/* ---- easing ------------------------------------------------------------------------------------ */

static const pm_easing presets[PM_EASING_PRESET_COUNT] = {
    {20, 20, 107, 107}, {53, 0, 127, 127}, {0, 0, 74, 127}, {53, 0, 74, 127}};
static const char *const preset_names[PM_EASING_PRESET_COUNT] = {"linear", "ease-in", "ease-out", "ease-in-out"};

pm_easing pm_easing_from_preset(pm_easing_preset preset) {
    return (unsigned)preset < PM_EASING_PRESET_COUNT ? presets[preset] : presets[0];
}

static bool easing_linear(const pm_easing *e) { return e->x1 == e->y1 && e->x2 == e->y2; }

const char *pm_easing_name(pm_easing e) {
    if (easing_linear(&e)) return preset_names[PM_EASING_LINEAR];
    for (int i = 1; i < PM_EASING_PRESET_COUNT; i++)
        if (memcmp(&e, &presets[i], sizeof e) == 0) return preset_names[i];
    return NULL;
}

/* babylon-mmd's BezierInterpolate (bisection, 15 steps, eps 1e-5), in double as pose sampling does. */
double pm_easing_eval(pm_easing e, double p) {
    if (!(p > 0)) return 0;
    if (p >= 1) return 1;
    if (easing_linear(&e)) return p;
    return pmi_bezier_mmd(e.x1 / 127.0, e.x2 / 127.0, e.y1 / 127.0, e.y2 / 127.0, p);
}

/* ---- create / free ----------------------------------------------------------------------------- */

/* Finite and within PMI_MAX_COORD: large enough for any scene, small enough that squares stay finite. */
static bool sane(float v) { return isfinite(v) && fabsf(v) <= PMI_MAX_COORD; }
static bool sane3(const pm_vec3 *v) { return sane(v->x) && sane(v->y) && sane(v->z); }

pm_result pmi_timeline_check_bpm(double bpm, pm_error *err) {
    if (!isfinite(bpm) || bpm < PM_TIMELINE_MIN_BPM || bpm > PM_TIMELINE_MAX_BPM)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: bpm %g is outside %g..%g", bpm, PM_TIMELINE_MIN_BPM,
                        PM_TIMELINE_MAX_BPM);
    return PM_OK;
}

static void find_limbs(pm_timeline *tl) {
    const pm_skeleton *sk = tl->skeleton;
    for (int l = 0; l < PM_LIMB_COUNT; l++) {
        pmi_limb *limb = &tl->limbs[l];
        limb->ik = PM_NO_INDEX;
        limb->ok = pm_limb_bones(sk, (pm_limb)l, limb->bone, NULL) == PM_OK;
        if (!limb->ok) continue;
        limb->reach = 0; /* the two bone lengths, summed in double */
        for (int k = 0; k < 2; k++)
            limb->reach += pmi_vec3_distance(sk->bones[limb->bone[k]].position, sk->bones[limb->bone[k + 1]].position);
        limb->ik = pm_rig_find_ik(sk, limb->bone[2], limb->bone[1]);
    }
}

void pm_timeline_free(pm_timeline *tl) {
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC) return;
    pm_allocator a = tl->allocator;
    pm_timeline_clear(tl);
    pmi_free(&a, tl->kf);
    pmi_free(&a, tl->extra_names);
    pmi_free(&a, tl->extra_arena);
    pmi_free(&a, tl->tmp_rot);
    pmi_free(&a, tl->tmp_trans);
    pm_pose_free(tl->pose);
    pm_pose_workspace_free(tl->ws);
    tl->magic = 0;
    pmi_free(&a, tl);
}

pm_result pmi_timeline_alloc(const pm_skeleton *skeleton, const pm_timeline_options *opts, uint32_t extra_count,
                             const char *const *extra_names, pm_timeline **out, pm_error *err) {
    if (out) *out = NULL;
    if (!skeleton || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: pm_timeline_create needs a skeleton and an output");
    double bpm = opts && opts->bpm != 0 ? opts->bpm : PM_TIMELINE_DEFAULT_BPM;
    pm_result r = pmi_timeline_check_bpm(bpm, err);
    if (r != PM_OK) return r;
    pm_allocator al = {0};
    if (opts) al = opts->allocator;
    pm_timeline *tl = pmi_alloc_array(&al, 1, sizeof *tl, err, "tracing: timeline");
    if (!tl) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    tl->magic = PMI_TIMELINE_MAGIC;
    tl->allocator = al;
    tl->skeleton = skeleton;
    tl->bpm = bpm;
    tl->next_id = 1;
    tl->bone_count = skeleton->bone_count;
    tl->extra_count = extra_count;
    tl->joint_count = skeleton->bone_count + extra_count;
    if ((r = pm_pose_workspace_create(skeleton, &al, &tl->ws, err)) != PM_OK ||
        (r = pm_pose_create(skeleton, &al, &tl->pose, err)) != PM_OK)
        goto fail;
    r = PM_ERR_OUT_OF_MEMORY;
    tl->tmp_rot = pmi_alloc_array(&al, tl->joint_count, sizeof *tl->tmp_rot, err, "tracing: timeline");
    tl->tmp_trans = pmi_alloc_array(&al, tl->joint_count, sizeof *tl->tmp_trans, err, "tracing: timeline");
    if (!tl->tmp_rot || !tl->tmp_trans) goto fail;
    if (extra_count) {
        size_t bytes = 0;
        for (uint32_t i = 0; i < extra_count; i++) bytes += strlen(extra_names[i]) + 1;
        tl->extra_names = pmi_alloc_array(&al, extra_count, sizeof *tl->extra_names, err, "tracing: joint names");
        tl->extra_arena = pmi_alloc_array(&al, bytes, 1, err, "tracing: joint names");
        if (!tl->extra_names || !tl->extra_arena) goto fail;
        char *at = tl->extra_arena;
        for (uint32_t i = 0; i < extra_count; i++) {
            size_t n = strlen(extra_names[i]);
            memcpy(at, extra_names[i], n + 1);
            tl->extra_names[i].data = at;
            tl->extra_names[i].length = (uint32_t)n;
            at += n + 1;
        }
    }
    find_limbs(tl);
    *out = tl;
    return PM_OK;
fail:
    pm_timeline_free(tl);
    return r;
}

pm_result pm_timeline_create(const pm_skeleton *skeleton, const pm_timeline_options *opts, pm_timeline **out,
                             pm_error *err) {
    return pmi_timeline_alloc(skeleton, opts, 0, NULL, out, err);
}

static bool valid(const pm_timeline *tl) { return tl && tl->magic == PMI_TIMELINE_MAGIC; }

static pm_result check_timeline(const pm_timeline *tl, pm_error *err) {
    return valid(tl) ? PM_OK : pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: no timeline");
}

const pm_skeleton *pm_timeline_skeleton(const pm_timeline *tl) { return valid(tl) ? tl->skeleton : NULL; }
double pm_timeline_bpm(const pm_timeline *tl) { return valid(tl) ? tl->bpm : 0; }
uint32_t pm_timeline_joint_count(const pm_timeline *tl) { return valid(tl) ? tl->joint_count : 0; }
uint32_t pm_timeline_next_trace_id(const pm_timeline *tl) { return valid(tl) ? tl->next_id : 0; }
uint32_t pm_timeline_keyframe_count(const pm_timeline *tl) { return valid(tl) ? tl->kf_count : 0; }

pm_result pm_timeline_set_bpm(pm_timeline *tl, double bpm, pm_error *err) {
    pm_result r = check_timeline(tl, err);
    if (r == PM_OK) r = pmi_timeline_check_bpm(bpm, err);
    if (r == PM_OK) tl->bpm = bpm;
    return r;
}

pm_string pm_timeline_joint_name(const pm_timeline *tl, uint32_t joint) {
    pm_string none = {"", 0};
    if (!valid(tl) || joint >= tl->joint_count) return none;
    if (joint < tl->bone_count) return tl->skeleton->bones[joint].name;
    return tl->extra_names[joint - tl->bone_count];
}

uint32_t pmi_timeline_find_joint(const pm_timeline *tl, const char *name) {
    uint32_t b = pm_skeleton_find_mmd(tl->skeleton, name);
    if (b != PM_NO_INDEX) return b;
    for (uint32_t i = 0; i < tl->extra_count; i++)
        if (strcmp(tl->extra_names[i].data, name) == 0) return tl->bone_count + i;
    return PM_NO_INDEX;
}

/* ---- keyframe storage -------------------------------------------------------------------------- */

pm_result pmi_keyframe_init(pm_timeline *tl, pmi_keyframe *kf, pm_error *err) {
    memset(kf, 0, sizeof *kf);
    const size_t n = tl->joint_count;
    uint8_t *block = pmi_alloc_array(&tl->allocator, n, sizeof(pm_quat) + sizeof(pm_vec3), err, "tracing: keyframe");
    if (!block) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    kf->rot = (pm_quat *)block;
    kf->trans = (pm_vec3 *)(block + n * sizeof(pm_quat));
    for (size_t j = 0; j < n; j++) kf->rot[j] = pmi_quat_identity();
    return PM_OK;
}

static void trace_release(pm_timeline *tl, pm_trace *t) {
    pmi_free(&tl->allocator, (void *)t->points); /* owned by the keyframe */
    memset(t, 0, sizeof *t);
}

void pmi_keyframe_release(pm_timeline *tl, pmi_keyframe *kf) {
    pmi_free(&tl->allocator, kf->rot);
    for (int l = 0; l < PM_LIMB_COUNT; l++) trace_release(tl, &kf->trace[l]);
    memset(kf, 0, sizeof *kf);
}

pm_result pmi_trace_copy(pm_timeline *tl, pm_trace *dst, const pm_trace *src, pm_error *err) {
    trace_release(tl, dst);
    if (!src || !src->id) return PM_OK;
    pm_vec3 *pts = pmi_alloc_array(&tl->allocator, src->point_count, sizeof *pts, err, "tracing: trace points");
    if (!pts) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    memcpy(pts, src->points, src->point_count * sizeof *pts);
    *dst = *src;
    dst->points = pts;
    return PM_OK;
}

static pm_result check_trace(const pm_trace *t, pm_limb limb, pm_error *err) {
    const char *ln = pm_limb_name(limb);
    if ((unsigned)t->mode >= PM_TRAJECTORY_MODE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: trace %s: mode %d is neither line nor curve", ln,
                        (int)t->mode);
    if (t->point_count < 1 || t->point_count > PM_TRAJECTORY_MAX_POINTS || !t->points)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: trace %s: %u points (1..%d)", ln, t->point_count,
                        PM_TRAJECTORY_MAX_POINTS);
    for (uint32_t i = 0; i < t->point_count; i++)
        if (!sane3(&t->points[i]))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: trace %s: point %u is not finite (or beyond 1e6)", ln, i);
    if (!sane3(&t->pole))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: trace %s: pole is not finite (or beyond 1e6)", ln);
    if (!isfinite(t->t) || t->t < 0 || t->t > 1)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: trace %s: t %g is outside 0..1", ln, (double)t->t);
    return PM_OK;
}

static pm_result check_beat(double beat, pm_error *err) {
    if (!isfinite(beat) || beat < 0 || beat > PM_TIMELINE_MAX_BEAT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: beat %g is outside 0..%g", beat, PM_TIMELINE_MAX_BEAT);
    return PM_OK;
}

/* A keyframe's beat, then its easing. */
static pm_result check_beat_easing(double beat, const pm_easing *e, pm_error *err) {
    pm_result r = check_beat(beat, err);
    if (r == PM_OK && (e->x1 > 127 || e->y1 > 127 || e->x2 > 127 || e->y2 > 127))
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: easing values must be 0..127 (%u, %u, %u, %u)", e->x1, e->y1,
                     e->x2, e->y2);
    return r;
}

pm_result pmi_keyframe_check(const pm_timeline *tl, const pm_keyframe *kf, pm_error *err) {
    pm_result r;
    if (!kf) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: no keyframe");
    if ((r = check_beat_easing(kf->beat, &kf->easing, err)) != PM_OK) return r;
    for (uint32_t j = 0; j < tl->joint_count; j++) {
        if (kf->rotations) {
            const pm_quat *q = &kf->rotations[j];
            if (!sane(q->x) || !sane(q->y) || !sane(q->z) || !sane(q->w) ||
                !(q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w > 1e-12f))
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: rotation of joint %u (%s) is not a finite non-zero quaternion",
                                j, pm_timeline_joint_name(tl, j).data);
        }
        if (kf->translations && !sane3(&kf->translations[j]))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: translation of joint %u (%s) is not finite (or beyond 1e6)", j,
                            pm_timeline_joint_name(tl, j).data);
    }
    for (int l = 0; l < PM_LIMB_COUNT; l++)
        if (kf->traces[l].id && (r = check_trace(&kf->traces[l], (pm_limb)l, err)) != PM_OK) return r;
    return PM_OK;
}

/* First keyframe index with beat >= `beat` - epsilon. */
static uint32_t lower_bound(const pm_timeline *tl, double beat) {
    uint32_t lo = 0, hi = tl->kf_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tl->kf[mid].beat < beat - PMI_BEAT_EPSILON) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool same_beat(double a, double b) { return fabs(a - b) <= PMI_BEAT_EPSILON; }

static pm_result reserve(pm_timeline *tl, uint32_t extra, pm_error *err) {
    if (extra > PM_TIMELINE_MAX_KEYFRAMES || tl->kf_count > PM_TIMELINE_MAX_KEYFRAMES - extra)
        return pmi_fail(err, PM_ERR_LIMIT, "tracing: a timeline holds at most %d keyframes", PM_TIMELINE_MAX_KEYFRAMES);
    uint32_t need = tl->kf_count + extra;
    if (need <= tl->kf_cap) return PM_OK;
    uint32_t cap = tl->kf_cap ? tl->kf_cap * 2 : 16;
    if (cap < need) cap = need;
    pmi_keyframe *kf = pmi_alloc_array(&tl->allocator, cap, sizeof *kf, err, "tracing: keyframes");
    if (!kf) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    if (tl->kf_count) memcpy(kf, tl->kf, tl->kf_count * sizeof *kf);
    pmi_free(&tl->allocator, tl->kf);
    tl->kf = kf;
    tl->kf_cap = cap;
    return PM_OK;
}

pm_result pmi_timeline_insert(pm_timeline *tl, pmi_keyframe *kf, uint32_t *index, pm_error *err) {
    uint32_t at = lower_bound(tl, kf->beat);
    if (at < tl->kf_count && same_beat(tl->kf[at].beat, kf->beat)) {
        pmi_keyframe_release(tl, &tl->kf[at]);
    } else {
        pm_result r = reserve(tl, 1, err);
        if (r != PM_OK) {
            pmi_keyframe_release(tl, kf);
            return r;
        }
        memmove(&tl->kf[at + 1], &tl->kf[at], (tl->kf_count - at) * sizeof *tl->kf);
        tl->kf_count++;
    }
    tl->kf[at] = *kf;
    memset(kf, 0, sizeof *kf);
    if (index) *index = at;
    return PM_OK;
}

pm_result pm_timeline_set_keyframe(pm_timeline *tl, const pm_keyframe *desc, uint32_t *index, pm_error *err) {
    pm_result r = check_timeline(tl, err);
    if (r == PM_OK) r = pmi_keyframe_check(tl, desc, err);
    if (r != PM_OK) return r;
    pmi_keyframe kf;
    if ((r = pmi_keyframe_init(tl, &kf, err)) != PM_OK) return r;
    kf.beat = desc->beat;
    kf.easing = desc->easing;
    for (uint32_t j = 0; j < tl->joint_count; j++) {
        if (desc->rotations) pmi_unit_quat(&kf.rot[j], &desc->rotations[j]);
        if (desc->translations) kf.trans[j] = desc->translations[j];
    }
    for (int l = 0; l < PM_LIMB_COUNT; l++)
        if ((r = pmi_trace_copy(tl, &kf.trace[l], &desc->traces[l], err)) != PM_OK) {
            pmi_keyframe_release(tl, &kf);
            return r;
        }
    if (desc->traces[0].id || desc->traces[1].id || desc->traces[2].id || desc->traces[3].id)
        for (int l = 0; l < PM_LIMB_COUNT; l++)
            if (desc->traces[l].id >= tl->next_id) tl->next_id = desc->traces[l].id + 1;
    return pmi_timeline_insert(tl, &kf, index, err);
}

static pm_result check_index(const pm_timeline *tl, uint32_t index, pm_error *err) {
    return index < tl->kf_count ? PM_OK : pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: keyframe %u of %u", index, tl->kf_count);
}

pm_result pm_timeline_get_keyframe(const pm_timeline *tl, uint32_t index, pm_keyframe *out, pm_error *err) {
    if (!valid(tl) || !out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: no timeline or output");
    pm_result r = check_index(tl, index, err);
    if (r != PM_OK) return r;
    const pmi_keyframe *kf = &tl->kf[index];
    memset(out, 0, sizeof *out);
    out->beat = kf->beat;
    out->easing = kf->easing;
    out->rotations = kf->rot;
    out->translations = kf->trans;
    memcpy(out->traces, kf->trace, sizeof kf->trace);
    return PM_OK;
}

pm_result pm_timeline_remove_keyframe(pm_timeline *tl, uint32_t index, pm_error *err) {
    pm_result r = check_timeline(tl, err);
    if (r == PM_OK) r = check_index(tl, index, err);
    if (r != PM_OK) return r;
    pmi_keyframe_release(tl, &tl->kf[index]);
    memmove(&tl->kf[index], &tl->kf[index + 1], (tl->kf_count - index - 1) * sizeof *tl->kf);
    tl->kf_count--;
    return PM_OK;
}

void pm_timeline_clear(pm_timeline *tl) {
    if (!valid(tl)) return;
    for (uint32_t i = 0; i < tl->kf_count; i++) pmi_keyframe_release(tl, &tl->kf[i]);
    tl->kf_count = 0;
}

/* ---- drafts and poles -------------------------------------------------------------------------- */

/* A timeline and a pm_limb (which the skeleton may lack). */
static pm_result check_limb_index(const pm_timeline *tl, pm_limb limb, pm_error *err) {
    pm_result r = check_timeline(tl, err);
    if (r == PM_OK && (unsigned)limb >= PM_LIMB_COUNT)
        r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: limb %d is not a pm_limb", (int)limb);
    return r;
}

/* A timeline and a limb its skeleton has. */
static pm_result check_limb(const pm_timeline *tl, pm_limb limb, pm_error *err) {
    pm_result r = check_limb_index(tl, limb, err);
    if (r == PM_OK && !tl->limbs[limb].ok) {
        uint32_t bones[3];
        r = pm_limb_bones(tl->skeleton, limb, bones, err); /* names the missing bone */
    }
    return r;
}

pm_result pm_timeline_default_pole(const pm_timeline *tl, pm_limb limb, pm_vec3 *out, pm_error *err) {
    pm_result r = check_limb(tl, limb, err);
    if (r != PM_OK) return r;
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: no output");
    const float L = (float)tl->limbs[limb].reach;
    if (limb == PM_LIMB_LEFT_HAND || limb == PM_LIMB_RIGHT_HAND) {
        float side = limb == PM_LIMB_LEFT_HAND ? 1.0f : -1.0f; /* +X is the model's left */
        *out = pmi_vec3_make(side * 0.3f * L, -L, 0.5f * L);    /* the elbow hangs, a little out and back */
    } else {
        *out = pmi_vec3_make(0, -0.5f * L, -L); /* the knee bends forward (-Z) */
    }
    return PM_OK;
}

pm_result pm_timeline_set_trajectory(pm_timeline *tl, pm_limb limb, const pm_trajectory *tr, pm_error *err) {
    pm_result r = check_limb_index(tl, limb, err);
    if (r != PM_OK) return r;
    pmi_draft *d = &tl->drafts[limb];
    if (!tr || tr->point_count == 0) {
        memset(d, 0, sizeof *d);
        return PM_OK;
    }
    pm_trace check = {1, tr->mode, tr->point_count, tr->points, tr->has_pole ? tr->pole : pmi_vec3_make(0, 0, 0), 0};
    if ((r = check_trace(&check, limb, err)) != PM_OK) return r;
    d->has = true;
    d->mode = tr->mode;
    d->point_count = tr->point_count;
    memcpy(d->points, tr->points, tr->point_count * sizeof *tr->points);
    d->has_pole = tr->has_pole;
    d->pole = check.pole;
    return PM_OK;
}

bool pm_timeline_get_trajectory(const pm_timeline *tl, pm_limb limb, pm_trajectory *out) {
    if (!valid(tl) || (unsigned)limb >= PM_LIMB_COUNT || !out || !tl->drafts[limb].has) return false;
    const pmi_draft *d = &tl->drafts[limb];
    out->mode = d->mode;
    out->point_count = d->point_count;
    out->points = d->points;
    out->has_pole = d->has_pole;
    out->pole = d->pole;
    return true;
}

/* ---- playback ---------------------------------------------------------------------------------- */

double pmi_timeline_frame_of(double beat, double bpm) { return beat * 1800.0 / bpm; }

void pmi_timeline_locate(const pm_timeline *tl, double beat, pmi_segment *seg) {
    const uint32_t n = tl->kf_count;
    memset(seg, 0, sizeof *seg);
    if (n == 0) return;
    if (beat <= tl->kf[0].beat) beat = tl->kf[0].beat;
    if (beat >= tl->kf[n - 1].beat) {
        seg->a = seg->b = n - 1;
        seg->at_key = true;
        return;
    }
    /* last keyframe with beat <= `beat` */
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tl->kf[mid].beat <= beat) lo = mid;
        else hi = mid;
    }
    seg->a = lo;
    seg->b = lo + 1;
    const double a = tl->kf[lo].beat, b = tl->kf[lo + 1].beat;
    seg->at_key = beat == a;
    seg->e = seg->at_key ? 0 : pm_easing_eval(tl->kf[lo + 1].easing, (beat - a) / (b - a));
}

/* a + (b - a) e per component, in double. */
static pm_vec3 lerp3(const pm_vec3 *a, const pm_vec3 *b, double e) {
    return pmi_vec3_make((float)(a->x + ((double)b->x - a->x) * e), (float)(a->y + ((double)b->y - a->y) * e),
                        (float)(a->z + ((double)b->z - a->z) * e));
}

void pmi_timeline_request(const pm_timeline *tl, const pmi_segment *seg, pm_limb limb, pmi_request *req) {
    memset(req, 0, sizeof *req);
    if (!tl->kf_count || !tl->limbs[limb].ok) return;
    const pm_trace *A = &tl->kf[seg->a].trace[limb], *B = &tl->kf[seg->b].trace[limb];
    const pm_trace *src = NULL;
    double e = seg->e;
    if (seg->a != seg->b && A->id && A->id == B->id) {
        src = A;
    } else if (seg->at_key && seg->a > 0 && A->id && tl->kf[seg->a - 1].trace[limb].id == A->id) {
        src = B = A; /* exactly at the end of a traced segment */
        e = 0;
    }
    if (!src) return;
    req->active = true;
    req->tr = *src;
    req->tr.t = (float)(A->t + ((double)B->t - A->t) * e);
    req->tr.pole = lerp3(&A->pole, &B->pole, e);
}

void pmi_timeline_sample(pm_timeline *tl, const pmi_segment *seg) {
    const uint32_t n = tl->joint_count;
    if (!tl->kf_count) {
        for (uint32_t j = 0; j < n; j++) tl->tmp_rot[j] = pmi_quat_identity(), tl->tmp_trans[j] = pmi_vec3_make(0, 0, 0);
        return;
    }
    const pmi_keyframe *A = &tl->kf[seg->a], *B = &tl->kf[seg->b];
    if (seg->a == seg->b || seg->e == 0) {
        memcpy(tl->tmp_rot, A->rot, n * sizeof *A->rot);
        memcpy(tl->tmp_trans, A->trans, n * sizeof *A->trans);
        return;
    }
    const double e = seg->e;
    for (uint32_t j = 0; j < n; j++) {
        /* as babylon-mmd samples a VMD: Babylon's slerp of the two keys, lerped offsets */
        tl->tmp_rot[j] = pmi_dq_to_quat(pmi_dq_slerp(pmi_dq_from_quat(A->rot[j]), pmi_dq_from_quat(B->rot[j]), e));
        tl->tmp_trans[j] = lerp3(&A->trans[j], &B->trans[j], e);
    }
}

/* Pre-multiply a world-space rotation `delta` onto bone b's local rotation (its IK is off, so its
 * world rotation is parent * local): local' = (P^-1 D P) local. */
static void apply_delta(pm_pose *pose, const pm_skeleton *sk, uint32_t b, const pm_quat *delta) {
    uint32_t parent = sk->bones[b].parent;
    pm_quat pw = parent != PM_NO_INDEX ? pm_mat4_get_rotation(&pose->world[parent]) : pmi_quat_identity();
    pose->rotation[b] = pm_quat_normalize(pm_quat_mul(pm_ik_delta_to_local(pw, *delta), pose->rotation[b]));
}

/* The offset that puts IK bone `ik` at world position w under its parent's current world matrix. */
static pm_vec3 ik_offset_for(const pm_pose *pose, const pm_skeleton *sk, uint32_t ik, pm_vec3 w) {
    const pm_bone *b = &sk->bones[ik];
    pm_vec3 local = w, rest = b->position;
    if (b->parent != PM_NO_INDEX) {
        pm_mat4 inv = pm_mat4_inverse_affine(&pose->world[b->parent]);
        local = pm_mat4_transform_point(&inv, w);
        rest = pmi_vec3_sub(b->position, sk->bones[b->parent].position);
    }
    return pmi_vec3_sub(local, rest);
}

pm_result pmi_timeline_solve(pm_timeline *tl, pm_pose *pose, const pmi_request req[PM_LIMB_COUNT], pm_error *err) {
    pm_result r;
    bool any = false;
    memset(tl->state, 0, sizeof tl->state);
    for (int l = 0; l < PM_LIMB_COUNT; l++) {
        if (!req[l].active) continue;
        any = true;
        if (tl->limbs[l].ik != PM_NO_INDEX) pm_pose_set_ik_mode(tl->ws, tl->limbs[l].ik, PM_IK_FORCE_OFF, NULL);
    }
    r = pm_pose_evaluate_local(tl->ws, pose, NULL, err);
    if (r != PM_OK || !any) goto done;
    for (int l = 0; l < PM_LIMB_COUNT && r == PM_OK; l++) {
        if (!req[l].active) continue;
        const pmi_limb *limb = &tl->limbs[l];
        pm_trace_state *st = &tl->state[l];
        pm_vec3 rel;
        const pm_trace *tr = &req[l].tr;
        if ((r = pm_trajectory_sample(tr->mode, tr->points, tr->point_count, tr->t, &rel, err)) != PM_OK) break;
        const pm_vec3 root = pm_pose_world_position(pose, limb->bone[0]);
        st->active = true;
        st->id = tr->id;
        st->t = tr->t;
        st->root = root;
        st->target = pmi_vec3_add(root, rel);
        st->pole = pmi_vec3_add(root, tr->pole);
        pm_two_bone_ik_result res;
        if ((r = pm_two_bone_ik(root, pm_pose_world_position(pose, limb->bone[1]),
                                pm_pose_world_position(pose, limb->bone[2]), st->target, st->pole, &res, err)) != PM_OK)
            break;
        st->miss = res.miss;
        for (int k = 0; k < 2 && r == PM_OK; k++) { /* the root, then the middle bone */
            apply_delta(pose, tl->skeleton, limb->bone[k], k ? &res.mid_delta : &res.root_delta);
            r = pm_pose_update_subtree(tl->ws, pose, limb->bone[k], NULL, err);
        }
        if (r == PM_OK && limb->ik != PM_NO_INDEX)
            pose->translation[limb->ik] =
                ik_offset_for(pose, tl->skeleton, limb->ik, pm_pose_world_position(pose, limb->bone[2]));
    }
done:
    for (int l = 0; l < PM_LIMB_COUNT; l++)
        if (req[l].active && tl->limbs[l].ik != PM_NO_INDEX)
            pm_pose_set_ik_mode(tl->ws, tl->limbs[l].ik, PM_IK_AUTO, NULL);
    /* the pose as a VMD player will evaluate these locals (append, MMD IK) */
    if (r == PM_OK && any) r = pm_pose_evaluate_local(tl->ws, pose, NULL, err);
    return r;
}

static pm_result check_pose(const pm_timeline *tl, const pm_pose *pose, pm_error *err) {
    pm_result r = check_timeline(tl, err);
    if (r != PM_OK) return r;
    if (!pose || pose->bone_count != tl->bone_count || !pose->rotation || !pose->translation || !pose->world)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: the pose must be made for the timeline's skeleton (%u bones)",
                        tl->bone_count);
    return PM_OK;
}

/* Locals of the keyframes at `beat` into pose and tl->tmp_*, and the trace requests. */
static pm_result prepare(pm_timeline *tl, double beat, pm_pose *pose, pmi_segment *seg, pmi_request req[PM_LIMB_COUNT],
                         pm_error *err) {
    pm_result r = pm_pose_sample(NULL, tl->ws, 0, pose, err); /* resets the IK states */
    if (r != PM_OK) return r;
    pmi_timeline_locate(tl, beat, seg);
    pmi_timeline_sample(tl, seg);
    memcpy(pose->rotation, tl->tmp_rot, tl->bone_count * sizeof *pose->rotation);
    memcpy(pose->translation, tl->tmp_trans, tl->bone_count * sizeof *pose->translation);
    for (int l = 0; l < PM_LIMB_COUNT; l++) pmi_timeline_request(tl, seg, (pm_limb)l, &req[l]);
    return PM_OK;
}

pm_result pm_timeline_evaluate_beat(pm_timeline *tl, double beat, pm_pose *pose, pm_error *err) {
    pm_result r = check_pose(tl, pose, err);
    if (r != PM_OK) return r;
    if (!isfinite(beat)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: beat is not finite");
    pmi_segment seg;
    pmi_request req[PM_LIMB_COUNT];
    if ((r = prepare(tl, beat, pose, &seg, req, err)) != PM_OK) return r;
    return pmi_timeline_solve(tl, pose, req, err);
}

pm_result pm_timeline_evaluate(pm_timeline *tl, double seconds, pm_pose *pose, pm_error *err) {
    if (!isfinite(seconds)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: time is not finite");
    return pm_timeline_evaluate_beat(tl, valid(tl) ? seconds * tl->bpm / 60.0 : 0, pose, err);
}

void pm_timeline_trace_state(const pm_timeline *tl, pm_limb limb, pm_trace_state *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (valid(tl) && (unsigned)limb < PM_LIMB_COUNT) *out = tl->state[limb];
}

/* ---- keyframes from the played pose ------------------------------------------------------------- */

/* Fill kf's joint arrays from tl->pose (bones) and tl->tmp_* (extra joints). */
static void capture_joints(const pm_timeline *tl, pmi_keyframe *kf) {
    for (uint32_t j = 0; j < tl->joint_count; j++) {
        const bool bone = j < tl->bone_count;
        pmi_unit_quat(&kf->rot[j], bone ? &tl->pose->rotation[j] : &tl->tmp_rot[j]);
        kf->trans[j] = bone ? tl->pose->translation[j] : tl->tmp_trans[j];
    }
}

pm_result pm_timeline_capture_keyframe(pm_timeline *tl, double beat, pm_easing easing, uint32_t *index, pm_error *err) {
    pm_result r;
    if ((r = check_timeline(tl, err)) != PM_OK || (r = check_beat_easing(beat, &easing, err)) != PM_OK) return r;
    if ((r = pm_timeline_evaluate_beat(tl, beat, tl->pose, err)) != PM_OK) return r;
    pmi_keyframe kf;
    if ((r = pmi_keyframe_init(tl, &kf, err)) != PM_OK) return r;
    kf.beat = beat;
    kf.easing = easing;
    capture_joints(tl, &kf);
    return pmi_timeline_insert(tl, &kf, index, err);
}

/* Whether a keyframe at `beat` (before the span's last sample) lies strictly inside the span from `first`,
 * off every sample `step` apart. */
static bool inner_keyframe(double beat, double first, double step) {
    double k = (beat - first) / step;
    return beat > first + PMI_BEAT_EPSILON && !same_beat(beat, first + step * floor(k + 0.5));
}

pm_result pm_timeline_generate(pm_timeline *tl, const pm_trace_generate *g, uint32_t *id_out, pm_error *err) {
    if (!g) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: no generation parameters");
    pm_result r = check_limb(tl, g->limb, err);
    if (r != PM_OK) return r;
    const pm_limb limb = g->limb;
    pm_trajectory draft;
    const pm_trajectory *tr = g->trajectory;
    if (!tr) {
        if (!pm_timeline_get_trajectory(tl, limb, &draft))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: the %s has no trajectory to generate from",
                            pm_limb_name(limb));
        tr = &draft;
    }
    if (tr->point_count < 2)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: generating needs a trajectory of at least 2 points, got %u",
                        tr->point_count);
    if (g->count < PM_TRACE_MIN_KEYFRAMES || g->count > PM_TRACE_MAX_KEYFRAMES)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: count %u is outside %d..%d", g->count,
                        PM_TRACE_MIN_KEYFRAMES, PM_TRACE_MAX_KEYFRAMES);
    const double step = g->beat_step == 0 ? 1.0 : g->beat_step;
    if (!isfinite(step) || step <= 0)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "tracing: beat_step %g must be positive", g->beat_step);
    if ((r = check_beat(g->start_beat, err)) != PM_OK ||
        (r = check_beat_easing(g->start_beat + step * (g->count - 1), &g->easing, err)) != PM_OK)
        return r;
    pm_trace tmpl = {tl->next_id, tr->mode, tr->point_count, tr->points, tr->pole, 0};
    if (!tr->has_pole && (r = pm_timeline_default_pole(tl, limb, &tmpl.pole, err)) != PM_OK) return r;
    if ((r = check_trace(&tmpl, limb, err)) != PM_OK) return r;

    /* The samples, and the keyframes already strictly inside the span (they join the trace at the t of
     * their beat, so it runs on through them). All are evaluated on the timeline as it is, then inserted. */
    const uint32_t n = g->count;
    const double first = g->start_beat, last = g->start_beat + step * (n - 1);
    const uint32_t x0 = lower_bound(tl, first);
    uint32_t inner = 0;
    for (uint32_t x = x0; x < tl->kf_count && tl->kf[x].beat < last - PMI_BEAT_EPSILON; x++)
        inner += inner_keyframe(tl->kf[x].beat, first, step);
    const uint32_t total = n + inner;
    pmi_keyframe *made = pmi_alloc_array(&tl->allocator, total, sizeof *made, err, "tracing: generation");
    if (!made) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0, x = x0; i < inner; x++)
        if (inner_keyframe(tl->kf[x].beat, first, step)) made[n + i++].beat = tl->kf[x].beat;
    const pmi_limb *lb = &tl->limbs[limb];
    for (uint32_t i = 0; i < total && r == PM_OK; i++) {
        pmi_keyframe *kf = &made[i];
        const double beat = i < n ? first + step * i : kf->beat;
        if ((r = pmi_keyframe_init(tl, kf, err)) != PM_OK) break;
        kf->beat = beat;
        kf->easing = g->easing;
        pmi_segment seg;
        pmi_request req[PM_LIMB_COUNT];
        if ((r = prepare(tl, kf->beat, tl->pose, &seg, req, err)) != PM_OK) break;
        tmpl.t = i < n ? (float)((double)i / (n - 1)) : (float)((beat - first) / (last - first));
        req[limb] = (pmi_request){true, tmpl};
        if ((r = pmi_timeline_solve(tl, tl->pose, req, err)) != PM_OK) break;
        uint32_t at = lower_bound(tl, kf->beat);
        const pmi_keyframe *old = at < tl->kf_count && same_beat(tl->kf[at].beat, kf->beat) ? &tl->kf[at] : NULL;
        if (old) {
            /* an existing keyframe keeps its other joints, easing and traces */
            kf->easing = old->easing;
            memcpy(kf->rot, old->rot, tl->joint_count * sizeof *kf->rot);
            memcpy(kf->trans, old->trans, tl->joint_count * sizeof *kf->trans);
            for (int k = 0; k < 2; k++) pmi_unit_quat(&kf->rot[lb->bone[k]], &tl->pose->rotation[lb->bone[k]]);
            if (lb->ik != PM_NO_INDEX) kf->trans[lb->ik] = tl->pose->translation[lb->ik];
        } else {
            capture_joints(tl, kf);
        }
        /* the limb gets this trace; an existing keyframe keeps its other traces, a new one keeps the other
         * limbs traced through this beat on their paths (an inactive request's trace is all zero: none) */
        for (int l = 0; l < PM_LIMB_COUNT && r == PM_OK; l++)
            r = pmi_trace_copy(tl, &kf->trace[l], l == (int)limb ? &tmpl : old ? &old->trace[l] : &req[l].tr, err);
    }
    if (r == PM_OK) r = reserve(tl, n, err);
    if (r != PM_OK) {
        for (uint32_t i = 0; i < total; i++) pmi_keyframe_release(tl, &made[i]);
        pmi_free(&tl->allocator, made);
        return r;
    }
    for (uint32_t i = 0; i < total; i++) pmi_timeline_insert(tl, &made[i], NULL, NULL); /* capacity reserved: cannot fail */
    pmi_free(&tl->allocator, made);
    if (id_out) *id_out = tmpl.id;
    tl->next_id++;
    return PM_OK;
}
