/* The groove baked into a VMD: sample the base motion with the groove on top every half frame, fit
 * Bezier keys to the touched bones (keyfit), copy everything else (see procmotion/groove.h, THE BAKE). */
#include "groove_internal.h"

#include "keyfit/keyfit.h"
#include "procmotion/text.h"

#include <math.h>

enum { PER_FRAME = 2, MAX_TRACKS = PM_GROOVE_JOINT_COUNT + 1 + 6 };

typedef struct track {
    uint32_t bone;
    double period; /* frames per cycle of its oscillation (0 = none) */
    double rot_tol; /* radians; 0 = the options' */
    double *pos;   /* [3 * samples]: x block, y block, z block */
    double *rot;   /* [4 * samples] */
} track;

typedef struct bake {
    const pm_vmd *base;
    const pm_skeleton *sk;
    pm_allocator allocator;
    pm_groove *g;
    pm_anim *anim;
    uint32_t frames, samples;
    uint32_t track_count;
    track tracks[MAX_TRACKS];
    double *pool;
    pmi_keyfit_key *keys;
    pmi_keyfit *fit;
    pm_vmd *out;
} bake;

static void bake_free(bake *b) {
    pmi_free(&b->allocator, b->pool);
    pmi_free(&b->allocator, b->keys);
    pmi_keyfit_free(b->fit);
    pm_anim_free(b->anim);
    pm_groove_free(b->g);
    pm_vmd_free(b->out);
}

static double cycle_frames(double freq, double bpm) { return freq > 0 ? 30.0 * 60.0 / bpm / freq : 0; }

static void add_track(bake *b, uint32_t bone, double period, double rot_tol) {
    for (uint32_t t = 0; t < b->track_count; t++)
        if (b->tracks[t].bone == bone) return;
    if (bone == PM_NO_INDEX || b->track_count >= MAX_TRACKS) return;
    b->tracks[b->track_count].bone = bone;
    b->tracks[b->track_count].rot_tol = rot_tol;
    b->tracks[b->track_count++].period = period;
}

/* Leg keys carry the foot: their rotation tolerance is the position tolerance over the leg's length,
 * so at the sampled frames the planted ankle stays within about the position tolerance. (Between
 * whole frames a one-frame segment cannot follow a hip that flexes and sways at once: VMD gives a
 * rotation one progress curve; see docs/groove.md for the measured ankle deviation.) */
static double leg_rot_tol(const pm_skeleton *sk, const pm_groove_info *info, const pm_groove_bake_options *o) {
    double len = 0;
    for (int s = 0; s < 2; s++) {
        const uint32_t *l = info->leg_bone[s];
        double d = pm_vec3_distance(sk->bones[l[0]].position, sk->bones[l[1]].position) +
                   pm_vec3_distance(sk->bones[l[1]].position, sk->bones[l[2]].position);
        if (d > len) len = d;
    }
    double tol = len > 0 ? o->position_tolerance / len : 0;
    double base = o->rotation_tolerance * (PM_PI / 180.0);
    return tol > 0 && tol < base ? tol : base;
}

/* Copy every key of the base except the touched bones' bone keys. */
static pm_result copy_base(bake *b, uint32_t *copied, pm_error *err) {
    const char *names[MAX_TRACKS];
    for (uint32_t t = 0; t < b->track_count; t++) names[t] = b->sk->bones[b->tracks[t].bone].name.data;
    return pm_vmd_append(b->out, b->base, names, b->track_count, false, copied, err);
}

/* Sample every half frame: the groove on top of the base (or the rest pose). */
static pm_result sample(bake *b, double bpm, bool legs, pm_groove_bake_report *rep, pm_error *err) {
    pm_pose *pose = b->g->pose;
    for (uint32_t i = 0; i < b->samples; i++) {
        const double frame = (double)i / PER_FRAME;
        pm_result r = pm_pose_sample(b->anim, b->g->ws, frame, pose, err);
        if (r != PM_OK) return r;
        pm_groove_frame fr;
        r = pmi_groove_apply(b->g, pm_groove_beat(frame / 30.0, bpm), legs ? 0 : PM_GROOVE_OFFSETS_ONLY, &fr, err);
        if (r != PM_OK) return r;
        if (fr.legs_solved)
            for (int s = 0; s < 2; s++)
                if (fr.foot_error[s] > rep->max_foot_error) rep->max_foot_error = fr.foot_error[s];
        for (uint32_t t = 0; t < b->track_count; t++) {
            const track *tr = &b->tracks[t];
            const pm_vec3 p = pose->translation[tr->bone];
            /* analytic legs: the solved local rotations (no IK bones on this model: final = animated) */
            const pm_quat q = pose->rotation[tr->bone];
            tr->pos[i] = p.x, tr->pos[b->samples + i] = p.y, tr->pos[2 * (size_t)b->samples + i] = p.z;
            double *o = tr->rot + 4 * (size_t)i;
            o[0] = q.x, o[1] = q.y, o[2] = q.z, o[3] = q.w;
            /* keep the sign continuous (shortest path between samples) */
            if (i > 0 && o[0] * o[-4] + o[1] * o[-3] + o[2] * o[-2] + o[3] * o[-1] < 0)
                for (int c = 0; c < 4; c++) o[c] = -o[c];
        }
    }
    return PM_OK;
}

static pm_result fit_and_write(bake *b, const pm_groove_bake_options *o, pm_groove_bake_report *rep, pm_error *err) {
    for (uint32_t t = 0; t < b->track_count; t++) {
        const track *tr = &b->tracks[t];
        pmi_keyfit_track kt = {0};
        kt.frames = b->frames;
        kt.per_frame = PER_FRAME;
        for (int a = 0; a < 3; a++) kt.pos[a] = tr->pos + (size_t)a * b->samples;
        kt.rot = tr->rot;
        kt.pos_tol = o->position_tolerance;
        kt.rot_tol = tr->rot_tol > 0 ? tr->rot_tol : o->rotation_tolerance * (PM_PI / 180.0);
        kt.period = tr->period;
        pmi_keyfit_result res;
        pm_result r = pmi_keyfit_track_fit(b->fit, &kt, b->keys, &res, err);
        if (r != PM_OK) return r;
        const char *name = b->sk->bones[tr->bone].name.data;
        for (uint32_t k = 0; k < res.count; k++) {
            uint8_t interp[PM_VMD_INTERP_SIZE];
            pm_vmd_interp_pack((const uint8_t(*)[4])b->keys[k].curve, interp);
            if ((r = pm_vmd_add_bone_key(b->out, name, b->keys[k].frame, b->keys[k].pos, b->keys[k].rot, interp, err)) !=
                PM_OK)
                return r;
        }
        rep->key_count += res.count;
        if (res.max_pos_error > rep->max_position_error) rep->max_position_error = res.max_pos_error;
        double deg = res.max_rot_error * (180.0 / PM_PI);
        if (deg > rep->max_rotation_error) rep->max_rotation_error = deg;
    }
    rep->keyed_bones = b->track_count;
    return PM_OK;
}

/* The model name for the output: the base's, else the skeleton's when Shift-JIS can hold it. */
static pm_result set_model_name(bake *b, pm_error *err) {
    const char *name = b->base ? b->base->model_name.data : b->sk->model_name.data;
    if (!name) return PM_OK;
    uint8_t sjis[PM_VMD_MODEL_NAME_SIZE];
    size_t n = 0;
    if (pm_utf8_to_sjis(name, strlen(name), sjis, sizeof sjis, &n, NULL, NULL) != PM_OK) return PM_OK;
    return pm_vmd_set_model_name(b->out, name, err);
}

static pm_result check_options(const pm_groove_bake_options *in, pm_groove_bake_options *o, pm_error *err) {
    memset(o, 0, sizeof *o);
    if (in) *o = *in;
    if (o->position_tolerance == 0) o->position_tolerance = 0.002f;
    if (o->rotation_tolerance == 0) o->rotation_tolerance = 0.05f;
    if (o->max_frames == 0) o->max_frames = 108000;
    if (!(o->position_tolerance >= 1e-5f && o->position_tolerance <= 1.0f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: position_tolerance must be in [1e-5, 1] units, got %g",
                        (double)o->position_tolerance);
    if (!(o->rotation_tolerance >= 1e-4f && o->rotation_tolerance <= 10.0f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: rotation_tolerance must be in [1e-4, 10] degrees, got %g",
                        (double)o->rotation_tolerance);
    return PM_OK;
}

pm_result pm_groove_apply_to_vmd(const pm_vmd *base, const pm_skeleton *skeleton, const pm_groove_config *cfg,
                                 double bpm, const pm_groove_bake_options *opts, pm_vmd **out,
                                 pm_groove_bake_report *report, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: the bake needs an output");
    *out = NULL;
    if (!skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: the bake needs a skeleton");
    pm_groove_bake_options o;
    pm_result r = check_options(opts, &o, err);
    if (r != PM_OK) return r;
    if ((r = pmi_groove_check_clock(0, bpm, err)) != PM_OK) return r;
    pm_groove_bake_report rep;
    memset(&rep, 0, sizeof rep);
    bake b;
    memset(&b, 0, sizeof b);
    b.base = base;
    b.sk = skeleton;
    b.allocator = o.allocator;
    pm_groove_options go = {0};
    go.allocator = o.allocator;
    if ((r = pm_groove_create(skeleton, cfg, &go, &b.g, err)) != PM_OK) goto done;
    if (base && (r = pm_anim_bind(skeleton, base, NULL, &b.anim, err)) != PM_OK) goto done;
    uint32_t last = 0;
    if (b.anim) {
        pm_anim_info ai;
        pm_anim_get_info(b.anim, &ai);
        last = ai.last_frame;
    }
    double frames = o.frames ? o.frames : last > 0 ? last : ceil(16.0 * 60.0 / bpm * 30.0 - 1e-9);
    if (frames < 1) frames = 1;
    if (frames > o.max_frames) {
        r = pmi_fail(err, PM_ERR_LIMIT, "groove: %.0f frames exceed the bake's limit of %u", frames, o.max_frames);
        goto done;
    }
    b.frames = (uint32_t)frames;
    b.samples = b.frames * PER_FRAME + 1;
    /* what gets keys */
    const pm_groove_params *P = pm_groove_get_params(b.g);
    pm_groove_info info;
    pm_groove_get_info(b.g, &info);
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++)
        add_track(&b, info.joint_bone[j], cycle_frames(P->joints[j].freq, bpm), 0);
    const bool bounce = P->squat.enabled && info.leg_mode != PM_GROOVE_LEGS_NONE;
    const bool legs = bounce && info.leg_mode == PM_GROOVE_LEGS_ANALYTIC;
    if (bounce) add_track(&b, info.body_bone, cycle_frames(P->squat.freq, bpm), 0);
    if (legs) {
        const double leg_tol = leg_rot_tol(skeleton, &info, &o);
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 3; k++) add_track(&b, info.leg_bone[s][k], cycle_frames(P->squat.freq, bpm), leg_tol);
    }
    b.pool = pmi_alloc_array(&b.allocator, (size_t)b.samples * 7, (size_t)(b.track_count ? b.track_count : 1) * sizeof(double),
                             err, "groove: samples");
    b.keys = b.pool ? pmi_alloc_array(&b.allocator, (size_t)b.frames + 1, sizeof *b.keys, err, "groove: keys") : NULL;
    if (!b.keys) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t t = 0; t < b.track_count; t++) {
        b.tracks[t].pos = b.pool + (size_t)t * 7 * b.samples;
        b.tracks[t].rot = b.tracks[t].pos + 3 * (size_t)b.samples;
    }
    if (!(b.fit = pmi_keyfit_create(&b.allocator, b.frames, PER_FRAME, err))) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if ((r = sample(&b, bpm, legs, &rep, err)) != PM_OK) goto done;
    if ((r = pm_vmd_create(&b.allocator, &b.out, err)) != PM_OK) goto done;
    if ((r = set_model_name(&b, err)) != PM_OK) goto done;
    if (base && (r = copy_base(&b, &rep.copied_keys, err)) != PM_OK) goto done;
    if ((r = fit_and_write(&b, &o, &rep, err)) != PM_OK) goto done;
    rep.frames = b.frames;
    rep.leg_mode = bounce ? info.leg_mode : PM_GROOVE_LEGS_NONE;
    rep.skipped_count = info.skipped_count;
    memcpy(rep.skipped, info.skipped, sizeof rep.skipped);
    *out = b.out;
    b.out = NULL;
    if (report) *report = rep;
done:
    bake_free(&b);
    return r;
}
