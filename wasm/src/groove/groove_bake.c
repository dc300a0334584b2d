/* The groove baked into a VMD: sample the base motion with the groove on top every half frame, fit
 * Bezier keys to the touched bones (keyfit), copy everything else (see procmotion/groove.h, THE BAKE). */
#include "groove_internal.h"

#include "beats/grid.h"
#include "common/json.h"
#include "keyfit/keyfit.h"
#include "landing/report_json.h"
#include "procmotion/rig.h"
#include "procmotion/text.h"
#include "math/inline.h"

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
    const pm_beat_grid *grid; /* NULL: the bpm */
    double bpm;
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
        double d = pmi_vec3_distance(sk->bones[l[0]].position, sk->bones[l[1]].position) +
                   pmi_vec3_distance(sk->bones[l[1]].position, sk->bones[l[2]].position);
        if (d > len) len = d;
    }
    double tol = len > 0 ? o->position_tolerance / len : 0;
    double base = o->rotation_tolerance * (PM_PI / 180.0);
    return tol > 0 && tol < base ? tol : base;
}

/* Copy every key of the base except the touched bones' bone keys (pm_vmd_append: the base's names go
 * first, by their bytes, so a name read from a file is written back as it was, also one MMD cut inside
 * a double-byte character, whose text Shift-JIS cannot encode). */
static pm_result copy_base(bake *b, uint32_t *copied, pm_error *err) {
    const char *names[MAX_TRACKS];
    for (uint32_t t = 0; t < b->track_count; t++) names[t] = b->sk->bones[b->tracks[t].bone].name.data;
    return pm_vmd_append(b->out, b->base, names, b->track_count, false, copied, err);
}

/* The beat at a frame: on the grid, else at the bpm. */
static double beat_at(const bake *b, double frame) {
    return b->grid ? pm_beat_grid_beat(b->grid, frame / 30.0) : pm_groove_beat(frame / 30.0, b->bpm);
}

/* Sample every half frame: the groove on top of the base (or the rest pose). */
static pm_result sample(bake *b, bool legs, pm_groove_bake_report *rep, pm_error *err) {
    pm_pose *pose = b->g->pose;
    for (uint32_t i = 0; i < b->samples; i++) {
        const double frame = (double)i / PER_FRAME;
        pm_result r = pm_pose_sample(b->anim, b->g->ws, frame, pose, err);
        if (r != PM_OK) return r;
        pm_groove_frame fr;
        r = pmi_groove_apply(b->g, beat_at(b, frame), legs ? 0 : PM_GROOVE_OFFSETS_ONLY, &fr, err);
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
        if ((r = pmi_keyfit_add_keys(b->out, b->sk->bones[tr->bone].name.data, b->keys, res.count, err)) != PM_OK) return r;
        rep->key_count += res.count;
        if (res.max_pos_error > rep->max_position_error) rep->max_position_error = res.max_pos_error;
        double deg = res.max_rot_error * (180.0 / PM_PI);
        if (deg > rep->max_rotation_error) rep->max_rotation_error = deg;
    }
    rep->keyed_bones = b->track_count;
    return PM_OK;
}

/* On the rest pose the top of the bounce is the rest pose itself, where a knee that rests bent cannot
 * open as far as MMD's knee limit asks (rest bend + 0.5 degrees) to follow the IK: the body goes down
 * by what keeps every knee 1.5 degrees beyond its rest bend (a few millimetres), so MMD's leg IK holds
 * the feet everywhere. */
static pm_result keep_knees_bent(bake *b, const pm_groove_info *info, pm_groove_bake_report *rep, pm_error *err) {
    pm_rig *rig = NULL;
    pm_rig_options ro = {0};
    ro.allocator = b->allocator;
    pm_result r = pm_rig_analyze(b->sk, &ro, &rig, err);
    if (r != PM_OK) return r;
    double drop = 0;
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *leg = &rig->legs[s];
        if (!leg->present) continue;
        double reach = pm_landing_leg_reach(leg, leg->knee_rest_bend + 1.5 * (PM_PI / 180.0));
        double need = pm_landing_reach_need(b->sk->bones[leg->hip].position, b->sk->bones[leg->ankle].position, reach);
        if (need > drop) drop = need;
    }
    pm_rig_free(rig);
    (void)info;
    for (uint32_t t = 0; t < b->track_count && drop > 0; t++) {
        if (b->tracks[t].bone != info->body_bone) continue;
        double *y = b->tracks[t].pos + b->samples;
        for (uint32_t i = 0; i < b->samples; i++) y[i] -= drop;
    }
    rep->crouch = drop;
    return PM_OK;
}

/* The feet stay where the base motion (or the rest pose) puts them as MMD plays it: the played ankles
 * at every half frame are the plan, the legs are landed on it (MMD IK legs) and measured. */
static pm_result land_feet(bake *b, const pm_groove_info *info, pm_groove_bake_report *rep, pm_error *err) {
    const pm_skeleton *sk = b->sk;
    const uint32_t ns = b->samples;
    float *plan = pmi_alloc_array(&b->allocator, (size_t)ns * 6, sizeof(float), err, "groove: plan");
    uint8_t *contact = plan ? pmi_alloc_array(&b->allocator, 2 * ((size_t)b->frames + 1), 1, err, "groove: contact") : NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_vmd *landed = NULL;
    pm_result r = contact ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    if (r == PM_OK) r = pm_pose_workspace_create(sk, &b->allocator, &ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, &b->allocator, &pose, err);
    for (uint32_t i = 0; i < ns && r == PM_OK; i++) {
        if ((r = pm_pose_evaluate(b->anim, ws, (double)i / PER_FRAME, pose, NULL, err)) != PM_OK) break;
        for (int s = 0; s < 2; s++) {
            pm_vec3 p = pm_pose_world_position(pose, info->leg_bone[s][PM_GROOVE_ANKLE]);
            float *o = plan + (size_t)s * 3 * ns + 3 * (size_t)i;
            o[0] = p.x, o[1] = p.y, o[2] = p.z;
        }
    }
    pm_landing_limb limbs[2];
    memset(limbs, 0, sizeof limbs);
    for (int s = 0; s < 2 && r == PM_OK; s++) {
        pm_landing_limb *l = &limbs[s];
        l->effector = info->leg_bone[s][PM_GROOVE_ANKLE];
        l->ik_bone = info->leg_mode == PM_GROOVE_LEGS_MMD_IK
                         ? pm_rig_find_ik(sk, info->leg_bone[s][PM_GROOVE_ANKLE], info->leg_bone[s][PM_GROOVE_KNEE])
                         : PM_NO_INDEX;
        l->per_frame = PER_FRAME;
        l->plan = plan + (size_t)s * 3 * ns;
        l->keep_children = !b->base; /* on the rest pose the toe IK keeps its relation to the ankle */
        l->fk_only = info->leg_mode == PM_GROOVE_LEGS_ANALYTIC; /* legs without IK: FK onto the anchors */
        if (!b->base) {
            /* on the rest pose both feet stand all along */
            memset(contact + (size_t)s * (b->frames + 1), PM_LANDING_FLAT, (size_t)b->frames + 1);
            l->contact = contact + (size_t)s * (b->frames + 1);
            l->floor = plan[(size_t)s * 3 * ns + 1];
        }
    }
    if (r == PM_OK) {
        pm_landing_options o = {0};
        o.allocator = b->allocator;
        o.position_tolerance = 0.002f;
        r = pm_landing_close(sk, b->out, b->frames, limbs, 2, &o, &landed, &rep->landing, err);
    }
    if (r == PM_OK) {
        /* the base keys the landing replaced are no longer copies */
        const pm_vmd *v = b->out;
        for (uint32_t k = 0; k < v->bones.count && b->base; k++) {
            const char *name = v->bone_names.items[v->bones.name_index[k]].data;
            for (int s = 0; s < 2; s++)
                for (int j = 0; j < 3; j++)
                    if (limbs[s].ik_bone != PM_NO_INDEX &&
                        (strcmp(name, sk->bones[info->leg_bone[s][j]].name.data) == 0 ||
                         (j == 0 && strcmp(name, sk->bones[limbs[s].ik_bone].name.data) == 0)))
                        rep->copied_keys -= rep->copied_keys > 0;
        }
        pm_vmd_free(b->out);
        b->out = landed;
        rep->verified = true;
        rep->max_foot_error = rep->landing.max_error;
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pmi_free(&b->allocator, plan);
    pmi_free(&b->allocator, contact);
    return r;
}

/* The body bone's written height less the base motion's at a (fractional) frame. */
static pm_result body_height(bake *b, const pm_anim *played, pm_pose *pose, uint32_t body, double frame, double *out, pm_error *err) {
    pm_result r = pm_pose_sample(played, b->g->ws, frame, pose, err);
    if (r != PM_OK) return r;
    double y = pose->translation[body].y;
    if (b->anim) {
        if ((r = pm_pose_sample(b->anim, b->g->ws, frame, pose, err)) != PM_OK) return r;
        y -= pose->translation[body].y;
    }
    *out = y;
    return PM_OK;
}

/* Every bounce valley the grid puts in frames 0 .. frames (where the vertical wave is lowest: phase 0
 * of 'bounce', 0.75 of 'sine'), found on the written motion: the lowest of the body's height within
 * +-2 frames of it at 0.05-frame steps, refined by a parabola through its neighbours. */
static pm_result measure_valleys(bake *b, const pm_groove_params *P, uint32_t body, pm_groove_bake_report *rep, pm_error *err) {
    const pm_groove_squat *sq = &P->squat;
    if (!(sq->freq > 0) || !(sq->vertical > 0)) return PM_OK;
    pm_anim *played = NULL;
    pm_pose *pose = NULL;
    pm_result r = pm_anim_bind(b->sk, b->out, NULL, &played, err);
    if (r == PM_OK) r = pm_pose_create(b->sk, &b->allocator, &pose, err);
    const double low = sq->wave == PM_GROOVE_SINE ? 0.75 : 0.0;
    /* valley n at beat (n + phase + low) / freq */
    double first = ceil(beat_at(b, 0) * sq->freq - sq->phase - low - 1e-9);
    for (double n = first; r == PM_OK; n++) {
        double at = 30.0 * pm_beat_grid_time(b->grid, (n + sq->phase + low) / sq->freq);
        if (at > b->frames + 1e-9) break;
        if (at < 2 || at > b->frames - 2) continue; /* a valley cut by either end */
        enum { STEPS = 80 };
        double y[STEPS + 1], best = INFINITY;
        int bi = 0;
        for (int i = 0; i <= STEPS && r == PM_OK; i++) {
            r = body_height(b, played, pose, body, at - 2 + 4.0 * i / STEPS, &y[i], err);
            if (r == PM_OK && y[i] < best) best = y[i], bi = i;
        }
        if (r != PM_OK) break;
        double d = 0;
        if (bi > 0 && bi < STEPS) {
            double den = y[bi - 1] - 2 * y[bi] + y[bi + 1];
            if (den > 0) d = 0.5 * (y[bi - 1] - y[bi + 1]) / den;
        }
        pm_beat_sync_add(&rep->sync, (at - 2 + 4.0 * (bi + d) / STEPS) - at);
    }
    rep->synced = r == PM_OK;
    pm_pose_free(pose);
    pm_anim_free(played);
    return r;
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
    const bool has_grid = pm_beat_grid_is_set(&o.grid);
    if (has_grid && (r = pmi_beat_grid_check_for("groove", &o.grid, UINT32_MAX, err)) != PM_OK) return r;
    if (has_grid) bpm = o.grid.bpm;
    if ((r = pmi_groove_check_clock(0, bpm, err)) != PM_OK) return r;
    pm_groove_bake_report rep;
    memset(&rep, 0, sizeof rep);
    bake b;
    memset(&b, 0, sizeof b);
    b.base = base;
    b.sk = skeleton;
    b.allocator = o.allocator;
    b.grid = has_grid ? &o.grid : NULL;
    b.bpm = bpm;
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
    if (!o.frames && !last && has_grid && o.grid.beat_count) frames = ceil(30.0 * o.grid.beats[o.grid.beat_count - 1] - 1e-9);
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
    if ((r = sample(&b, legs, &rep, err)) != PM_OK) goto done;
    if (bounce && !base && info.leg_mode == PM_GROOVE_LEGS_MMD_IK && (r = keep_knees_bent(&b, &info, &rep, err)) != PM_OK)
        goto done;
    if ((r = pm_vmd_create(&b.allocator, &b.out, err)) != PM_OK) goto done;
    if ((r = set_model_name(&b, err)) != PM_OK) goto done;
    if (base && (r = copy_base(&b, &rep.copied_keys, err)) != PM_OK) goto done;
    if ((r = fit_and_write(&b, &o, &rep, err)) != PM_OK) goto done;
    rep.max_foot_error = 0; /* measured below (the samples' figure is the analytic solve's, not what plays) */
    if (bounce && (r = land_feet(&b, &info, &rep, err)) != PM_OK) goto done;
    if (bounce && has_grid && (r = measure_valleys(&b, P, info.body_bone, &rep, err)) != PM_OK) goto done;
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

static const char *const LEG_MODE_NAMES[PM_GROOVE_LEG_MODE_COUNT] = {"none", "analytic", "mmd-ik"};

cJSON *pmi_groove_bake_report_json(const pm_groove_bake_report *rep, const pm_skeleton *skeleton) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    pmi_json_add_number(j, "frames", rep->frames, &ok);
    pmi_json_add_string(j, "legMode", LEG_MODE_NAMES[rep->leg_mode < PM_GROOVE_LEG_MODE_COUNT ? rep->leg_mode : 0], &ok);
    pmi_json_add_number(j, "keyedBones", rep->keyed_bones, &ok);
    pmi_json_add_number(j, "keys", rep->key_count, &ok);
    pmi_json_add_number(j, "copiedKeys", rep->copied_keys, &ok);
    pmi_json_add_number(j, "maxPositionError", rep->max_position_error, &ok);
    pmi_json_add_number(j, "maxRotationErrorDeg", rep->max_rotation_error, &ok);
    pmi_json_add_number(j, "maxFootError", rep->max_foot_error, &ok);
    pmi_json_add_number(j, "crouch", rep->crouch, &ok);
    if (rep->synced) pmi_beat_sync_json(j, "sync", &rep->sync, &ok);
    else pmi_json_add(j, "sync", cJSON_CreateNull(), &ok);
    cJSON *skipped = pmi_json_add_array(j, "skipped", &ok);
    for (uint32_t i = 0; i < rep->skipped_count && ok; i++) pmi_json_add_string(skipped, NULL, rep->skipped[i], &ok);
    if (rep->verified) {
        const char *limbs[2] = {"left", "right"}, *bones[2] = {NULL, NULL};
        for (uint32_t i = 0; i < 2 && i < rep->landing.limb_count; i++)
            if (skeleton && rep->landing.limbs[i].effector < skeleton->bone_count)
                bones[i] = skeleton->bones[rep->landing.limbs[i].effector].name.data;
        pmi_landing_report_json(j, "landing", &rep->landing, 0.01, bones, limbs, &ok);
    } else {
        pmi_json_add(j, "landing", cJSON_CreateNull(), &ok);
    }
    if (ok) return j;
    cJSON_Delete(j);
    return NULL;
}
