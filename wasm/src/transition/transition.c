/* A transition between two motions: the held outgoing pose blended into the playing incoming motion, the
 * feet planted until their step, landed and measured (see procmotion/transition.h). */
#include "common/internal.h"
#include "common/json.h"
#include "keyfit/keyfit.h"
#include "landing/report_json.h"
#include "transition/report.h"
#include "lifelike/signal.h"
#include "math/inline.h"
#include "procmotion/landing.h"
#include "procmotion/pose.h"
#include "procmotion/rig.h"
#include "procmotion/transition.h"

#include <math.h>

enum { PF = 2 };
#define DEG (PM_PI / 180.0)
#define STEP_MIN 0.02

typedef struct foot {
    bool ik;                /* the leg has a leg IK chain: planned and landed */
    uint32_t ankle, ik_bone, toe_ik;
    double a, b;            /* the step's window, frames (a == b: no step) */
    bool step;
    double floor;
    pmi_dv held;            /* the ankle where the outgoing pose plants it */
} foot;

/* The blend weight of sample i of n: minimum jerk. */
static double weight(uint32_t i, uint32_t n) { return pmi_minjerk((double)i / (double)(n - 1)); }

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static pmi_dq slerp(pmi_dq a, pmi_dq b, double t) {
    if (t <= 0) return a;
    if (t >= 1) return b;
    pmi_dq q = pmi_dq_slerp(a, b, t);
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 0 ? (pmi_dq){q.x / n, q.y / n, q.z / n, q.w / n} : a;
}

/* A foot's own blend weight at frame t: 0 until its step, then up over the step's window, 1 after. */
static double foot_weight(const foot *f, double t, double D) {
    if (!f->step) return pmi_minjerk(t / D);
    return pmi_minjerk((t - f->a) / (f->b - f->a));
}

/* The incoming motion's frame t frames into the blend (wrapped when it loops). */
static double to_frame_at(const pm_transition_options *o, double t) {
    double f = o->to_frame + t;
    return o->to_loop_frames ? fmod(f, o->to_loop_frames) : f;
}

/* A morph's weight at a (fractional) frame: linear between its keys (VMD morphs), 0 without keys. */
static double morph_at(const pm_vmd *v, uint32_t name, double frame) {
    double w = 0, best_lo = -1, best_hi = INFINITY, w_lo = 0, w_hi = 0;
    bool lo = false, hi = false;
    for (uint32_t k = 0; k < v->morphs.count; k++) {
        if (v->morphs.name_index[k] != name) continue;
        double f = v->morphs.frame[k];
        if (f <= frame && f >= best_lo) best_lo = f, w_lo = v->morphs.weight[k], lo = true;
        if (f >= frame && f < best_hi) best_hi = f, w_hi = v->morphs.weight[k], hi = true;
    }
    if (lo && hi) w = best_hi > best_lo ? w_lo + (w_hi - w_lo) * (frame - best_lo) / (best_hi - best_lo) : w_lo;
    else if (lo) w = w_lo;
    else if (hi) w = w_hi;
    return isfinite(w) ? w : 0;
}

static uint32_t find_name(const pm_vmd_names *t, const char *name) {
    for (uint32_t i = 0; i < t->count; i++)
        if (strcmp(t->items[i].data, name) == 0) return i;
    return PM_NO_INDEX;
}

/* Morphs either motion keys: the held weight blended into the playing one, a key per frame where it
 * changes. */
static pm_result blend_morphs(const pm_vmd *from, const pm_vmd *to, const pm_transition_options *o, uint32_t D, pm_vmd *out, pm_error *err) {
    const double f0 = o->from_frame;
    const pm_vmd *src[2] = {from, to};
    for (int m = 0; m < 2; m++)
        for (uint32_t n = 0; n < src[m]->morph_names.count; n++) {
            const char *name = src[m]->morph_names.items[n].data;
            if (m == 1 && find_name(&from->morph_names, name) != PM_NO_INDEX) continue; /* done with `from` */
            uint32_t nf = find_name(&from->morph_names, name), nt = find_name(&to->morph_names, name);
            double held = nf == PM_NO_INDEX ? 0 : morph_at(from, nf, f0);
            double last = NAN;
            for (uint32_t f = 0; f <= D; f++) {
                double playing = nt == PM_NO_INDEX ? 0 : morph_at(to, nt, to_frame_at(o, f));
                double w = held + (playing - held) * pmi_minjerk((double)f / D);
                if (f > 0 && f < D && w == last) continue;
                pm_result r = pm_vmd_add_morph_key(out, name, f, (float)clampd(w, -1e6, 1e6), err);
                if (r != PM_OK) return r;
                last = w;
            }
        }
    return PM_OK;
}

pm_result pm_transition_bake(const pm_vmd *from, const pm_vmd *to, const pm_skeleton *sk, const pm_transition_options *opts,
                             pm_vmd **out, pm_transition_report *report, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "transition: no output motion");
    *out = NULL;
    if (!from || !to || !sk) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "transition: needs the outgoing motion, the incoming one and a skeleton");
    pm_transition_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    if (o.frames == 0) o.frames = 30;
    if (o.frames < 4 || o.frames > 300) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "transition: frames must be in [4, 300], got %u", (unsigned)o.frames);
    if (!(isfinite(o.from_frame) && o.from_frame >= 0 && o.from_frame < 1e7))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "transition: from_frame must be a frame >= 0, got %g", o.from_frame);
    if (!(isfinite(o.to_frame) && o.to_frame >= 0 && o.to_frame < 1e7))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "transition: to_frame must be a frame >= 0, got %g", o.to_frame);
    const pm_allocator *a = &o.allocator;
    const uint32_t D = o.frames, ns = D * PF + 1, n = sk->bone_count;
    pm_transition_report rep;
    memset(&rep, 0, sizeof rep);
    rep.frames = D;

    pm_rig *rig = NULL;
    pm_anim *af = NULL, *at = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_vmd *vmd = NULL, *landed = NULL;
    pmi_keyfit *fit = NULL;
    pmi_keyfit_key *keys = NULL;
    uint32_t *keyed = NULL;
    double *held = NULL, *play = NULL, *samples = NULL, *need = NULL;
    float *plan = NULL, *plan_rot = NULL;
    uint8_t *contact = NULL;
    pm_rig_options ro = {0};
    ro.allocator = *a;
    pm_anim_bind_options bo = {.allocator = *a};
    pm_result r = pm_rig_analyze(sk, &ro, &rig, err);
    if (r == PM_OK) r = pm_anim_bind(sk, from, &bo, &af, err);
    if (r == PM_OK) r = pm_anim_bind(sk, to, &bo, &at, err);
    if (r == PM_OK) r = pm_pose_workspace_create(sk, a, &ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, a, &pose, err);
    if (r != PM_OK) goto done;

    /* the bones either motion keys */
    uint32_t K = 0;
    if (!(keyed = pmi_alloc_array(a, n ? n : 1, sizeof *keyed, err, "transition: bones"))) goto oom;
    for (uint32_t b = 0; b < n; b++)
        if (pm_anim_track_keys(af, b, NULL, 0) || pm_anim_track_keys(at, b, NULL, 0)) keyed[K++] = b;
    /* the feet */
    foot feet[2];
    memset(feet, 0, sizeof feet);
    bool land = true;
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *lg = &rig->legs[s];
        foot *f = &feet[s];
        f->ik = lg->present && lg->ik_chain != PM_NO_INDEX && rig->chains[lg->ik_chain].target == lg->ankle;
        f->ankle = lg->ankle;
        f->ik_bone = f->ik ? rig->chains[lg->ik_chain].ik_bone : PM_NO_INDEX;
        f->toe_ik = f->ik && lg->toe_chain != PM_NO_INDEX && sk->bones[rig->chains[lg->toe_chain].ik_bone].parent == f->ik_bone
                        ? rig->chains[lg->toe_chain].ik_bone
                        : PM_NO_INDEX;
        f->floor = lg->present ? sk->bones[lg->ankle].position.y : 0;
        land &= f->ik;
    }

    /* the held pose and the playing one: local rotations and offsets of the keyed bones (7 doubles a
     * bone: x y z w, tx ty tz), and the ankles as MMD plays them */
    held = pmi_alloc_array(a, (size_t)K * 7 + 1, sizeof *held, err, "transition: held pose");
    play = held ? pmi_alloc_array(a, (size_t)ns * (K * 7 + 6), sizeof *play, err, "transition: playing pose") : NULL;
    if (!play) goto oom;
    if ((r = pm_pose_evaluate(af, ws, o.from_frame, pose, NULL, err)) != PM_OK) goto done;
    for (uint32_t k = 0; k < K; k++) {
        pm_quat q = pose->rotation[keyed[k]];
        pm_vec3 t = pose->translation[keyed[k]];
        double *h = held + 7 * (size_t)k;
        h[0] = q.x, h[1] = q.y, h[2] = q.z, h[3] = q.w, h[4] = t.x, h[5] = t.y, h[6] = t.z;
    }
    for (int s = 0; s < 2; s++)
        if (feet[s].ik) feet[s].held = pmi_dv_of(pm_pose_world_position(pose, feet[s].ankle));
    const size_t stride = (size_t)K * 7 + 6;
    for (uint32_t i = 0; i < ns; i++) {
        if ((r = pm_pose_evaluate(at, ws, to_frame_at(&o, (double)i / PF), pose, NULL, err)) != PM_OK) goto done;
        double *p = play + i * stride;
        for (uint32_t k = 0; k < K; k++) {
            pm_quat q = pose->rotation[keyed[k]];
            pm_vec3 t = pose->translation[keyed[k]];
            double *d = p + 7 * (size_t)k;
            d[0] = q.x, d[1] = q.y, d[2] = q.z, d[3] = q.w, d[4] = t.x, d[5] = t.y, d[6] = t.z;
        }
        for (int s = 0; s < 2; s++) {
            pm_vec3 v = feet[s].ik ? pm_pose_world_position(pose, feet[s].ankle) : pm_vec3_make(0, 0, 0);
            p[7 * (size_t)K + 3 * s] = v.x, p[7 * (size_t)K + 3 * s + 1] = v.y, p[7 * (size_t)K + 3 * s + 2] = v.z;
        }
    }
    /* the steps: a foot that must move more than STEP_MIN steps, the higher (or farther) one first */
    double far[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        for (uint32_t i = 0; i < ns && feet[s].ik; i++) {
            const double *p = play + i * stride + 7 * (size_t)K + 3 * s;
            double d = pmi_dv_len(pmi_dv_sub(pmi_dv_make(p[0], p[1], p[2]), feet[s].held));
            if (d > far[s]) far[s] = d;
        }
    int first = 0;
    double up0 = feet[0].held.y - feet[0].floor, up1 = feet[1].held.y - feet[1].floor;
    if (fabs(up0 - up1) > 0.01 ? up1 > up0 : far[1] > far[0]) first = 1;
    for (int k = 0; k < 2; k++) {
        foot *f = &feet[k == 0 ? first : 1 - first];
        f->step = f->ik && far[k == 0 ? first : 1 - first] > STEP_MIN;
        f->a = (k == 0 ? 0.05 : 0.5) * D;
        f->b = (k == 0 ? 0.5 : 0.95) * D;
        if (f->step) rep.steps++;
    }
    for (int s = 0; s < 2; s++) rep.step_distance[s] = feet[s].step ? far[s] : 0;

    /* the blended pose every half frame; the plan of the ankles and their IK bones' rotations */
    samples = pmi_alloc_array(a, (size_t)ns * (K ? K : 1) * 7, sizeof *samples, err, "transition: samples");
    plan = samples ? pmi_alloc_array(a, (size_t)ns * 6, sizeof *plan, err, "transition: plan") : NULL;
    plan_rot = plan ? pmi_alloc_array(a, (size_t)ns * 8, sizeof *plan_rot, err, "transition: plan") : NULL;
    need = plan_rot ? pmi_alloc_array(a, (size_t)ns * 2, sizeof *need, err, "transition: crouch") : NULL;
    contact = need ? pmi_alloc_array(a, 2 * ((size_t)D + 1), 1, err, "transition: contact") : NULL;
    if (!contact) goto oom;
    const double L = rig->leg_length > 0 ? rig->leg_length : 9.419;
    for (uint32_t i = 0; i < ns; i++) {
        const double t = (double)i / PF, w = weight(i, ns);
        const double *p = play + i * stride;
        for (uint32_t k = 0; k < K; k++) {
            const double *h = held + 7 * (size_t)k, *q = p + 7 * (size_t)k;
            double bw = w;
            for (int s = 0; s < 2; s++) /* the feet's own bones follow their step */
                if (feet[s].ik && (keyed[k] == feet[s].ik_bone || keyed[k] == feet[s].toe_ik)) bw = foot_weight(&feet[s], t, D);
            pmi_dq qq = slerp((pmi_dq){h[0], h[1], h[2], h[3]}, (pmi_dq){q[0], q[1], q[2], q[3]}, bw);
            double *d = samples + ((size_t)k * ns + i) * 7;
            if (i > 0 && d[-7] * qq.x + d[-6] * qq.y + d[-5] * qq.z + d[-4] * qq.w < 0) qq = (pmi_dq){-qq.x, -qq.y, -qq.z, -qq.w};
            d[0] = qq.x, d[1] = qq.y, d[2] = qq.z, d[3] = qq.w;
            for (int c = 0; c < 3; c++) d[4 + c] = h[4 + c] + (q[4 + c] - h[4 + c]) * bw;
        }
        for (int s = 0; s < 2; s++) {
            const foot *f = &feet[s];
            const double *pa = p + 7 * (size_t)K + 3 * s;
            pmi_dv target = pmi_dv_make(pa[0], pa[1], pa[2]), at_ = f->held;
            double fw = foot_weight(f, t, D);
            pmi_dv pos = pmi_dv_add(at_, pmi_dv_scale(pmi_dv_sub(target, at_), fw));
            if (f->step) { /* lifted during the step: more for a longer step */
                double v = clampd((t - f->a) / (f->b - f->a), 0, 1);
                pos.y += fmin(0.08 * L, 0.05 * L + 0.3 * far[s]) * sin(PM_PI * v) * sin(PM_PI * v);
            }
            float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)i;
            pl[0] = (float)pos.x, pl[1] = (float)pos.y, pl[2] = (float)pos.z;
        }
    }
    for (int s = 0; s < 2; s++)
        for (uint32_t f = 0; f <= D; f++)
            contact[(size_t)s * (D + 1) + f] = feet[s].ik && (!feet[s].step || f <= (uint32_t)floor(feet[s].a)) ? PM_LANDING_FLAT : PM_LANDING_SWING;

    /* センター down where a leg would not reach the plan (the blended pose evaluated without IK) */
    uint32_t center = rig->roles.bone[PM_RIG_CENTER];
    int32_t center_k = -1;
    for (uint32_t k = 0; k < K; k++)
        if (keyed[k] == center) center_k = (int32_t)k;
    if (land && center != PM_NO_INDEX && center_k >= 0) {
        double reach[2];
        for (int s = 0; s < 2; s++) reach[s] = pm_landing_leg_reach(&rig->legs[s], rig->legs[s].knee_rest_bend + 2.5 * DEG);
        pm_pose_options noik = {PM_POSE_NO_IK, 0};
        for (uint32_t i = 0; i < ns && r == PM_OK; i++) {
            for (uint32_t b = 0; b < n; b++) pose->rotation[b] = pm_quat_identity(), pose->translation[b] = pm_vec3_make(0, 0, 0);
            for (uint32_t k = 0; k < K; k++) {
                const double *d = samples + ((size_t)k * ns + i) * 7;
                pose->rotation[keyed[k]] = (pm_quat){(float)d[0], (float)d[1], (float)d[2], (float)d[3]};
                pose->translation[keyed[k]] = pm_vec3_make((float)d[4], (float)d[5], (float)d[6]);
            }
            if ((r = pm_pose_evaluate_local(ws, pose, &noik, err)) != PM_OK) break;
            need[i] = 0;
            for (int s = 0; s < 2; s++) {
                const float *pl = plan + (size_t)s * 3 * ns + 3 * (size_t)i;
                double nd = pm_landing_reach_need(pm_pose_world_position(pose, rig->legs[s].hip), pm_vec3_make(pl[0], pl[1], pl[2]), reach[s]);
                if (nd > need[i]) need[i] = nd;
            }
        }
        if (r != PM_OK) goto done;
        /* a smooth profile above the needs (a sliding maximum over a quarter second, then a box filter),
         * none at the ends (the motions there are what they are) */
        double *tmp = need + ns;
        const int R = PF * 8;
        for (uint32_t i = 0; i < ns; i++) {
            double m = 0;
            for (int j = -R; j <= R; j++) {
                int64_t k = (int64_t)i + j;
                if (k >= 0 && k < (int64_t)ns && need[k] > m) m = need[k];
            }
            tmp[i] = m;
        }
        for (uint32_t i = 0; i < ns; i++) {
            double sum = 0;
            int cnt = 0;
            for (int j = -R / 2; j <= R / 2; j++) {
                int64_t k = (int64_t)i + j;
                if (k >= 0 && k < (int64_t)ns) sum += tmp[k], cnt++;
            }
            double taper = fmin(1.0, fmin((double)i, (double)(ns - 1 - i)) / (PF * 3.0));
            need[i] = fmin(sum / cnt, 0.25 * L) * pmi_smooth(taper);
        }
        for (uint32_t i = 0; i < ns; i++) samples[((size_t)center_k * ns + i) * 7 + 5] -= need[i];
    }

    /* keys */
    if ((r = pm_vmd_create(a, &vmd, err)) != PM_OK || (r = pm_vmd_set_model_name(vmd, "Transition", err)) != PM_OK) goto done;
    if (!(keys = pmi_alloc_array(a, (size_t)D + 1, sizeof *keys, err, "transition: keys")) || !(fit = pmi_keyfit_create(a, D, PF, err)))
        goto oom;
    double *ch = pmi_alloc_array(a, (size_t)ns * 7, sizeof *ch, err, "transition: channel");
    if (!ch) goto oom;
    for (uint32_t k = 0; k < K && r == PM_OK; k++) {
        uint32_t b = keyed[k];
        bool leg_ik = false;
        for (int s = 0; s < 2; s++) leg_ik |= land && b == feet[s].ik_bone;
        if (leg_ik) continue; /* the landing keys them on the plan */
        const double *d0 = samples + (size_t)k * ns * 7;
        bool moves = false;
        for (uint32_t i = 0; i < ns; i++) {
            for (int c = 0; c < 4; c++) ch[3 * ns + 4 * i + c] = d0[7 * i + c];
            for (int c = 0; c < 3; c++) {
                ch[c * ns + i] = d0[7 * i + 4 + c];
                moves |= d0[7 * i + 4 + c] != 0;
            }
        }
        pmi_keyfit_track kt = {D, PF, {moves ? ch : NULL, moves ? ch + ns : NULL, moves ? ch + 2 * ns : NULL}, ch + 3 * ns, NULL, 0.002,
                               0.05 * DEG, 0};
        pmi_keyfit_result fr;
        if ((r = pmi_keyfit_track_fit(fit, &kt, keys, &fr, err)) != PM_OK) break;
        r = pmi_keyfit_add_keys(vmd, sk->bones[b].name.data, keys, fr.count, err);
        rep.keyed_bones++;
    }
    pmi_free(a, ch);
    if (r == PM_OK) r = blend_morphs(from, to, &o, D, vmd, err);
    if (r != PM_OK) goto done;

    if (land) {
        /* the IK bones' rotations follow each foot's step */
        for (int s = 0; s < 2; s++) {
            int32_t ik_k = -1;
            for (uint32_t k = 0; k < K; k++)
                if (keyed[k] == feet[s].ik_bone) ik_k = (int32_t)k;
            for (uint32_t i = 0; i < ns; i++) {
                float *pr = plan_rot + (size_t)s * 4 * ns + 4 * (size_t)i;
                if (ik_k < 0) {
                    pr[0] = pr[1] = pr[2] = 0, pr[3] = 1;
                    continue;
                }
                const double *d = samples + ((size_t)ik_k * ns + i) * 7;
                pr[0] = (float)d[0], pr[1] = (float)d[1], pr[2] = (float)d[2], pr[3] = (float)d[3];
            }
        }
        const char *names[4];
        bool on[4] = {true, true, true, true};
        uint32_t nik = 0;
        for (int s = 0; s < 2; s++) {
            names[nik++] = sk->bones[feet[s].ik_bone].name.data;
            if (feet[s].toe_ik != PM_NO_INDEX) names[nik++] = sk->bones[feet[s].toe_ik].name.data;
        }
        if ((r = pm_vmd_add_property_key(vmd, 0, true, nik, names, on, err)) != PM_OK) goto done;
        pm_landing_limb limbs[2];
        memset(limbs, 0, sizeof limbs);
        for (int s = 0; s < 2; s++) {
            pm_landing_limb *l = &limbs[s];
            l->effector = feet[s].ankle;
            l->ik_bone = feet[s].ik_bone;
            l->per_frame = PF;
            l->plan = plan + (size_t)s * 3 * ns;
            l->ik_rotation = plan_rot + (size_t)s * 4 * ns;
            l->contact = contact + (size_t)s * (D + 1);
            l->floor = (float)feet[s].floor; /* the ankle's standing height: a held foot in the air comes down to it */
        }
        pm_landing_options lo = {0};
        lo.allocator = *a;
        if ((r = pm_landing_close(sk, vmd, D, limbs, 2, &lo, &landed, &rep.landing, err)) != PM_OK) goto done;
        pm_vmd_free(vmd);
        vmd = landed;
        landed = NULL;
        rep.verified = true;
    }
    rep.key_count = vmd->bones.count;
    *out = vmd;
    vmd = NULL;
    if (report) *report = rep;
    goto done;
oom:
    r = PM_ERR_OUT_OF_MEMORY;
done:
    pm_vmd_free(vmd);
    pm_vmd_free(landed);
    pmi_keyfit_free(fit);
    pmi_free(a, keys);
    pmi_free(a, contact);
    pmi_free(a, need);
    pmi_free(a, plan_rot);
    pmi_free(a, plan);
    pmi_free(a, samples);
    pmi_free(a, play);
    pmi_free(a, held);
    pmi_free(a, keyed);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(at);
    pm_anim_free(af);
    pm_rig_free(rig);
    return r;
}

cJSON *pmi_transition_report_json(const pm_transition_report *rep) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    pmi_json_add_number(j, "frames", rep->frames, &ok);
    pmi_json_add_number(j, "steps", rep->steps, &ok);
    cJSON *d = pmi_json_add_array(j, "stepDistance", &ok);
    for (int s = 0; s < 2; s++) pmi_json_add_number(d, NULL, rep->step_distance[s], &ok);
    pmi_json_add_number(j, "keyedBones", rep->keyed_bones, &ok);
    pmi_json_add_number(j, "keyCount", rep->key_count, &ok);
    const char *limbs[2] = {"left", "right"};
    if (rep->verified) pmi_landing_report_json(j, "landing", &rep->landing, 0.01, NULL, limbs, &ok);
    else pmi_json_add(j, "landing", cJSON_CreateNull(), &ok);
    if (ok && j) return j;
    cJSON_Delete(j);
    return NULL;
}
