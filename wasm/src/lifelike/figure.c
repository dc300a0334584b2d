/* The figure a generator drives (see lifelike/figure.h). */
#include "lifelike/figure.h"

#include "keyfit/keyfit.h"
#include "procmotion/mannequin.h"

#include <math.h>
#include <string.h>

pm_result pmi_figure_open(pmi_figure *f, const pm_target_model *model, const pm_allocator *a, pm_error *err) {
    memset(f, 0, sizeof *f);
    f->standard = !model || (!model->skeleton && !model->bone_names && !model->bone_count);
    f->model = model;
    pm_result r;
    if (f->standard) {
        pm_mannequin_options mo = {0};
        mo.allocator = *a;
        if ((r = pm_mannequin_skeleton(&mo, &f->standard_sk, err))) return r;
        f->standard_model.skeleton = f->standard_sk;
        f->model = &f->standard_model;
    }
    if (f->model->skeleton) {
        pm_rig_options ro = {0};
        ro.allocator = *a;
        if ((r = pm_rig_analyze(f->model->skeleton, &ro, &f->rig, err))) return r;
    }
    return PM_OK;
}

void pmi_figure_close(pmi_figure *f) {
    pm_rig_free(f->rig);
    pm_skeleton_free(f->standard_sk);
    memset(f, 0, sizeof *f);
}

static uint32_t parent_of(const pm_target_model *m, uint32_t b) {
    const pm_skeleton *sk = m->skeleton;
    return sk ? sk->bones[b].parent : m->bone_parents ? (uint32_t)m->bone_parents[b] : PM_NO_INDEX;
}

bool pmi_figure_descends(const pmi_figure *f, uint32_t bone, uint32_t ancestor) {
    const pm_target_model *m = f->model;
    uint32_t n = m->skeleton ? m->skeleton->bone_count : m->bone_count;
    if (bone >= n || ancestor >= n) return false;
    for (uint32_t q = parent_of(m, bone), guard = 0; q != PM_NO_INDEX && q < n && guard < n; guard++) {
        if (q == ancestor) return true;
        q = parent_of(m, q);
    }
    return false;
}

static int find_role(const pmi_figure_bone *t, uint32_t count, pm_rig_role role) {
    for (uint32_t i = 0; i < count; i++)
        if (t[i].role == role) return (int)i;
    return -1;
}

pm_result pmi_figure_bones(const pmi_figure *f, const char *who, const pmi_figure_bone *table, uint32_t count, uint32_t *idx,
                           const char **name, pmi_dv *pos, double *leg_len, const pm_allocator *a, pm_error *err) {
    const pm_target_model *m = f->model;
    const pm_skeleton *sk = m->skeleton;
    uint32_t n = sk ? sk->bone_count : m->bone_count;
    if (!sk && n && !m->bone_names)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: the model has %u bones but no bone names", who, (unsigned)n);
    pm_rig_roles roles;
    pm_result r;
    if (sk) {
        r = pm_rig_resolve_skeleton(sk, NULL, &roles, err);
    } else {
        const char **names = n ? pmi_alloc_array(a, n, sizeof *names, err, who) : NULL;
        if (n && !names) return PM_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < n; i++) names[i] = m->bone_names[i] ? m->bone_names[i] : "";
        r = pm_rig_resolve_names(names, NULL, n, NULL, &roles, err);
        pmi_free(a, names);
    }
    if (r != PM_OK) return r;
    pm_rig_roles_hips_as_center(&roles);
    bool known[64];
    pmi_dv std[64];
    if (count > 64) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: more than 64 bones", who);
    for (uint32_t b = 0; b < count; b++) {
        idx[b] = roles.bone[table[b].role];
        name[b] = idx[b] == PM_NO_INDEX ? NULL : f->standard ? table[b].canonical : sk ? sk->bones[idx[b]].name.data : m->bone_names[idx[b]];
        pm_vec3 p = {0, 0, 0};
        pm_mannequin_rest_position(table[b].canonical, &p);
        std[b] = pmi_dv_of(p);
        known[b] = false;
        pos[b] = pmi_dv_make(0, 0, 0);
        if (idx[b] == PM_NO_INDEX) continue;
        pm_vec3 q = sk ? sk->bones[idx[b]].position : m->bone_positions ? m->bone_positions[idx[b]] : pm_vec3_make(NAN, 0, 0);
        if (isfinite(q.x) && isfinite(q.y) && isfinite(q.z)) pos[b] = pmi_dv_of(q), known[b] = true;
    }
    /* the legs: the standard figure's scaled to the model's */
    const pm_rig_role legs_roles[2][3] = {{PM_RIG_LEFT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_LEFT_ANKLE},
                                          {PM_RIG_RIGHT_LEG, PM_RIG_RIGHT_KNEE, PM_RIG_RIGHT_ANKLE}};
    int li[2][3];
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            li[s][k] = find_role(table, count, legs_roles[s][k]);
            if (li[s][k] < 0) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: the bone table has no legs", who);
        }
    double std_leg = 0, leg = 0;
    int legs = 0;
    for (int s = 0; s < 2; s++) {
        int h = li[s][0], k = li[s][1], an = li[s][2];
        std_leg += pmi_dv_len(pmi_dv_sub(std[h], std[k])) + pmi_dv_len(pmi_dv_sub(std[k], std[an]));
        if (known[h] && known[k] && known[an]) {
            leg += pmi_dv_len(pmi_dv_sub(pos[h], pos[k])) + pmi_dv_len(pmi_dv_sub(pos[k], pos[an]));
            legs++;
        }
    }
    std_leg *= 0.5;
    double scale = legs && leg / legs > 1e-3 ? (leg / legs) / std_leg : 1.0;
    for (uint32_t b = 0; b < count; b++)
        if (!known[b]) pos[b] = pmi_dv_scale(std[b], scale);
    double L = 0;
    for (int s = 0; s < 2; s++)
        L += 0.5 * (pmi_dv_len(pmi_dv_sub(pos[li[s][0]], pos[li[s][1]])) + pmi_dv_len(pmi_dv_sub(pos[li[s][1]], pos[li[s][2]])));
    *leg_len = L;
    return PM_OK;
}

void pmi_figure_arm_ik(pmi_dv S, pmi_dv E, pmi_dv W, pmi_dv target, pmi_dv pole, pmi_dq *arm, pmi_dq *elbow) {
    double a = pmi_dv_len(pmi_dv_sub(E, S)), b = pmi_dv_len(pmi_dv_sub(W, E));
    pmi_dv d = pmi_dv_sub(target, S);
    double c = pmi_dv_len(d), lo = fabs(a - b) + 1e-3, hi = a + b - 1e-3;
    c = c < lo ? lo : c > hi ? hi : c;
    pmi_dv n = pmi_dv_normalize(d);
    pmi_dv v = pmi_dv_sub(pole, pmi_dv_scale(n, pmi_dv_dot(pole, n)));
    v = pmi_dv_len(v) > 1e-9 ? pmi_dv_normalize(v) : pmi_dv_make(0, -1, 0);
    double ca = (a * a + c * c - b * b) / (2 * a * c);
    ca = ca < -1 ? -1 : ca > 1 ? 1 : ca;
    pmi_dv E2 = pmi_dv_add(S, pmi_dv_add(pmi_dv_scale(n, a * ca), pmi_dv_scale(v, a * sqrt(1 - ca * ca))));
    pmi_dv W2 = pmi_dv_add(S, pmi_dv_scale(n, c));
    *arm = pmi_dq_arc(pmi_dv_normalize(pmi_dv_sub(E, S)), pmi_dv_normalize(pmi_dv_sub(E2, S)));
    pmi_dv fore = pmi_dq_rotate(pmi_dq_conj(*arm), pmi_dv_sub(W2, E2));
    *elbow = pmi_dq_arc(pmi_dv_normalize(pmi_dv_sub(W, E)), pmi_dv_normalize(fore));
}

static double axis_of(pmi_dv v, int i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

void pmi_figure_arm_ik_hinge(pmi_dv S, pmi_dv E, pmi_dv W, pmi_dv target, pmi_dv pole, pmi_dq *arm, pmi_dq *elbow) {
    double a = pmi_dv_len(pmi_dv_sub(E, S)), b = pmi_dv_len(pmi_dv_sub(W, E));
    pmi_dv n = pmi_dv_normalize(pmi_dv_sub(target, S));
    double c = pmi_dv_len(pmi_dv_sub(target, S)), lo = fabs(a - b) + 1e-3, hi = a + b - 1e-3;
    c = c < lo ? lo : c > hi ? hi : c;
    pmi_dv v = pmi_dv_sub(pole, pmi_dv_scale(n, pmi_dv_dot(pole, n)));
    v = pmi_dv_len(v) > 1e-9 ? pmi_dv_normalize(v) : pmi_dv_make(0, -1, 0);
    double ca = (a * a + c * c - b * b) / (2 * a * c);
    ca = ca < -1 ? -1 : ca > 1 ? 1 : ca;
    pmi_dv u2 = pmi_dv_add(pmi_dv_scale(n, ca), pmi_dv_scale(v, sqrt(1 - ca * ca)));
    pmi_dv E2 = pmi_dv_add(S, pmi_dv_scale(u2, a)), W2 = pmi_dv_add(S, pmi_dv_scale(n, c));
    pmi_dv f2 = pmi_dv_normalize(pmi_dv_sub(W2, E2));
    pmi_dv h2 = pmi_dv_normalize(pmi_dv_cross(n, pmi_dv_scale(v, -1)));
    double bend = acos(fmax(-1.0, fmin(1.0, pmi_dv_dot(u2, f2))));
    /* the rest arm: its bend and hinge (a straight arm bends its forearm toward the front) */
    pmi_dv u0 = pmi_dv_normalize(pmi_dv_sub(E, S)), f0 = pmi_dv_normalize(pmi_dv_sub(W, E));
    double bend0 = acos(fmax(-1.0, fmin(1.0, pmi_dv_dot(u0, f0))));
    pmi_dv h0 = pmi_dv_cross(u0, f0);
    if (bend0 < 1e-3 || pmi_dv_len(h0) < 1e-6) h0 = pmi_dv_cross(u0, pmi_dv_make(0, 0, -1)), bend0 = 0;
    h0 = pmi_dv_normalize(h0);
    /* the frames (direction, hinge, their cross) at rest and solved; the arm turns one onto the other */
    pmi_dv a0[3] = {u0, h0, pmi_dv_cross(u0, h0)}, a2[3] = {u2, h2, pmi_dv_cross(u2, h2)};
    float m[16] = {0};
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) {
            double x = 0;
            for (int k = 0; k < 3; k++) x += axis_of(a2[k], row) * axis_of(a0[k], col);
            m[col * 4 + row] = (float)x;
        }
    m[15] = 1;
    *arm = pmi_dq_from_mat(m);
    *elbow = pmi_dq_axis_angle(h0, bend - bend0);
}

bool pmi_figure_can_land(const pmi_figure *f, const uint32_t ik[2], const uint32_t ankle[2]) {
    bool land = f->rig != NULL;
    for (int s = 0; s < 2 && land; s++) {
        const pm_rig_leg *lg = &f->rig->legs[s];
        land = lg->present && lg->ik_chain != PM_NO_INDEX && f->rig->chains[lg->ik_chain].ik_bone == ik[s] &&
               f->rig->chains[lg->ik_chain].target == lg->ankle && ankle[s] == lg->ankle;
    }
    return land;
}

pm_result pmi_figure_land_feet(const pmi_figure *f, const pmi_figure_feet *feet, uint32_t frames, const pm_landing_options *opts,
                               pm_vmd **vmd, pm_landing_report *report, pm_error *err) {
    const size_t ns = (size_t)frames * feet->per_frame + 1;
    pm_landing_limb limbs[2];
    memset(limbs, 0, sizeof limbs);
    for (int s = 0; s < 2; s++) {
        pm_landing_limb *l = &limbs[s];
        l->effector = feet->ankle[s];
        l->ik_bone = feet->ik[s];
        l->per_frame = feet->per_frame;
        l->plan = feet->plan + (size_t)s * 3 * ns;
        l->ik_rotation = feet->ik_rotation + (size_t)s * 4 * ns;
        l->contact = feet->contact + (size_t)s * (frames + 1);
        l->floor = feet->floor[s];
        l->heel = feet->heel[s];
        l->ball = feet->ball[s];
        l->keep_children = true;
        l->played = feet->played[s];
    }
    pm_vmd *landed = NULL;
    pm_result r = pm_landing_close(f->model->skeleton, *vmd, frames, limbs, 2, opts, &landed, report, err);
    if (r) return r;
    pm_vmd_free(*vmd);
    *vmd = landed;
    return PM_OK;
}

double *pmi_figure_samples(const pm_allocator *a, pmi_figure_track *tracks, int count, uint32_t ns, size_t extra, double **extra_out,
                           const char *who, pm_error *err) {
    size_t doubles = extra;
    for (int i = 0; i < count; i++) doubles += (size_t)ns * (4 + (tracks[i].pos ? 3 : 0));
    double *pool = pmi_alloc_array(a, doubles, sizeof(double), err, who);
    if (!pool) return NULL;
    double *cursor = pool;
    *extra_out = cursor;
    cursor += extra;
    for (int i = 0; i < count; i++) {
        if (tracks[i].pos)
            for (int k = 0; k < 3; k++) tracks[i].p[k] = cursor, cursor += ns;
        tracks[i].q = cursor, cursor += 4 * (size_t)ns;
    }
    return pool;
}

pm_result pmi_figure_key_tracks(pm_vmd *vmd, const pmi_figure_track *tracks, int count, const char *const *names, uint32_t frames,
                                uint32_t per_frame, float position_tolerance, float rotation_tolerance, const pm_allocator *a,
                                pmi_figure_keyed *keyed, pm_error *err) {
    const double deg = PM_PI / 180.0;
    pmi_keyfit_key *keys = pmi_alloc_array(a, (size_t)frames + 1, sizeof *keys, err, "keys");
    pmi_keyfit *fit = keys ? pmi_keyfit_create(a, frames, per_frame, err) : NULL;
    pm_result r = fit ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < count && r == PM_OK; k++) {
        const pmi_figure_track *t = &tracks[k];
        pmi_keyfit_track kt = {frames, per_frame, {t->pos ? t->p[0] : NULL, t->pos ? t->p[1] : NULL, t->pos ? t->p[2] : NULL}, t->q, NULL,
                               position_tolerance, rotation_tolerance * deg, 0};
        pmi_keyfit_result fr;
        if ((r = pmi_keyfit_track_fit(fit, &kt, keys, &fr, err))) break;
        keyed->max_position_error = fmax(keyed->max_position_error, fr.max_pos_error);
        keyed->max_rotation_error = fmax(keyed->max_rotation_error, fr.max_rot_error / deg);
        if ((r = pmi_keyfit_add_keys(vmd, names[t->bone], keys, fr.count, err))) break;
        keyed->used[keyed->used_count++] = names[t->bone];
    }
    pmi_keyfit_free(fit);
    pmi_free(a, keys);
    return r;
}

pm_result pmi_figure_ik_on(pm_vmd *vmd, const char *const names[4], pm_error *err) {
    const char *on_names[4];
    bool on[4] = {true, true, true, true};
    uint32_t n = 0;
    for (int i = 0; i < 4; i++)
        if (names[i]) on_names[n++] = names[i];
    return n ? pm_vmd_add_property_key(vmd, 0, true, n, on_names, on, err) : PM_OK;
}
