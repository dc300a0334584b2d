/* The rig analysis: roles, IK chains, rest geometry, with the figures MMD's IK decides measured by the
 * pose evaluator (procmotion/rig.h, docs/models.md). */
#include "rig/rig_internal.h"

#include "procmotion/pose.h"
#include "procmotion/text.h"
#include "math/inline.h"

#include <math.h>
#include <stddef.h>

/* The standard figure's leg (NOTES.md, Animasa Miku table): |足 - ひざ| + |ひざ - 足首|. */
static const pm_vec3 STD_HIP = {0.797f, 10.753f, -0.073f}, STD_KNEE = {0.684f, 5.984f, -0.817f},
                     STD_ANKLE = {0.874f, 1.470f, -0.001f};

const char *pm_rig_chain_kind_name(pm_rig_chain_kind k) {
    static const char *const names[PM_RIG_CHAIN_KIND_COUNT] = {"other", "leg", "toe", "legD", "arm", "hair"};
    return (unsigned)k < PM_RIG_CHAIN_KIND_COUNT ? names[k] : "other";
}

static bool descends(const pm_skeleton *sk, uint32_t bone, uint32_t ancestor) {
    if (bone >= sk->bone_count || ancestor >= sk->bone_count) return false;
    uint32_t p = sk->bones[bone].parent;
    for (uint32_t steps = 0; p != PM_NO_INDEX && steps <= sk->bone_count; steps++, p = sk->bones[p].parent)
        if (p == ancestor) return true;
    return false;
}

uint32_t pm_rig_find_ik(const pm_skeleton *sk, uint32_t target, uint32_t link) {
    if (!sk || target == PM_NO_INDEX) return PM_NO_INDEX;
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        const pm_bone *bone = &sk->bones[b];
        if (!bone->has_ik || bone->ik.target != target) continue;
        if (link == PM_NO_INDEX) return b;
        for (uint32_t k = 0; k < bone->ik.link_count; k++)
            if (bone->ik.links[k].bone == link) return b;
    }
    return PM_NO_INDEX;
}

/* The role bone b plays, or PM_RIG_ROLE_NONE. */
static pm_rig_role role_of(const pm_rig_roles *roles, uint32_t b) {
    if (b == PM_NO_INDEX) return PM_RIG_ROLE_NONE;
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++)
        if (roles->bone[r] == b) return (pm_rig_role)r;
    return PM_RIG_ROLE_NONE;
}

/* The left form of a sided role (centre roles unchanged, NONE stays NONE). */
static pm_rig_role left_form(pm_rig_role r) { return pm_rig_role_side(r) == 2 ? pm_rig_role_mirror(r) : r; }

static bool is_arm_role(pm_rig_role r) {
    r = left_form(r);
    return r >= PM_RIG_LEFT_SHOULDER_P && r <= PM_RIG_LEFT_LITTLE3;
}
static bool is_d_role(pm_rig_role r) {
    r = left_form(r);
    return r == PM_RIG_LEFT_LEG_D || r == PM_RIG_LEFT_KNEE_D || r == PM_RIG_LEFT_ANKLE_D || r == PM_RIG_LEFT_TOE_EX;
}

/* Whether a bone's name (its key, rule 1) holds one of the words. A plain scan, the same answer as
 * strstr for these short keys and words: libc's two-way strstr (1.4 KB of wasm) had no other caller. */
static bool name_has(const pm_bone *b, const char *const *words, size_t count) {
    char key[PMI_RIG_KEY_CAP * 2];
    pm_name_key(b->name.data, b->name.length, key, sizeof key);
    for (size_t w = 0; w < count; w++) {
        size_t n = strlen(words[w]);
        for (const char *s = key; *s; s++)
            if (!strncmp(s, words[w], n)) return true;
    }
    return false;
}

static pm_rig_chain_kind kind_of(const pm_skeleton *sk, const pm_rig_roles *roles, const pm_rig_chain *c) {
    pm_rig_role tr = left_form(role_of(roles, c->target));
    bool knee_link = false, d_link = false, arm_link = false;
    for (uint32_t k = 0; k < c->link_count; k++) {
        pm_rig_role lr = left_form(role_of(roles, c->links[k].bone));
        knee_link |= lr == PM_RIG_LEFT_KNEE;
        d_link |= is_d_role(lr);
        arm_link |= is_arm_role(lr);
    }
    if (tr == PM_RIG_LEFT_ANKLE && !d_link && (knee_link || c->link_count == 0)) return PM_RIG_CHAIN_LEG;
    if (tr == PM_RIG_LEFT_TOE) return PM_RIG_CHAIN_TOE;
    if (is_d_role(tr) || d_link) return PM_RIG_CHAIN_LEG_D;
    if (tr == PM_RIG_LEFT_ANKLE) return PM_RIG_CHAIN_LEG;
    static const char *const sleeve[] = {"袖", "sleeve"};
    const pm_bone *ik = &sk->bones[c->ik_bone], *t = c->target != PM_NO_INDEX ? &sk->bones[c->target] : NULL;
    if (is_arm_role(tr) || arm_link || name_has(ik, sleeve, 2) || (t && name_has(t, sleeve, 2))) return PM_RIG_CHAIN_ARM;
    static const char *const hair[] = {"髪", "hair", "ヘア", "ポニ", "ツインテ", "おさげ", "もみあげ"};
    if (name_has(ik, hair, 7) || (t && name_has(t, hair, 7))) return PM_RIG_CHAIN_HAIR;
    return PM_RIG_CHAIN_OTHER;
}

static uint8_t side_of(const pm_skeleton *sk, const pm_rig_roles *roles, const pm_rig_chain *c) {
    int s = pm_rig_role_side(role_of(roles, c->target));
    if (!s) s = pm_rig_role_side(role_of(roles, c->ik_bone));
    for (uint32_t k = 0; k < c->link_count && !s; k++) s = pm_rig_role_side(role_of(roles, c->links[k].bone));
    if (!s) s = pmi_rig_name_side(sk->bones[c->ik_bone].name.data, sk->bones[c->ik_bone].name.length);
    if (!s && c->target != PM_NO_INDEX) s = pmi_rig_name_side(sk->bones[c->target].name.data, sk->bones[c->target].name.length);
    return (uint8_t)s;
}

static double angle_between(pm_vec3 a, pm_vec3 b) {
    double la = pmi_vec3_length(a), lb = pmi_vec3_length(b);
    if (!(la > 1e-9 && lb > 1e-9)) return 0;
    double c = pmi_vec3_dot(a, b) / (la * lb);
    if (!isfinite(c)) return 0;
    return acos(c < -1 ? -1 : c > 1 ? 1 : c);
}

/* The bend at a joint: the angle between (mid - root) and (end - mid); 0 = straight. */
static float bend_at(pm_vec3 root, pm_vec3 mid, pm_vec3 end) {
    return (float)angle_between(pmi_vec3_sub(mid, root), pmi_vec3_sub(end, mid));
}

/* ---- structure ------------------------------------------------------------------------------------ */

static void build_chains(pm_rig *rig) {
    const pm_skeleton *sk = rig->skeleton;
    uint32_t n = 0;
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        const pm_bone *bone = &sk->bones[b];
        if (!bone->has_ik) continue;
        pm_rig_chain *c = &rig->chains[n++];
        c->ik_bone = b;
        c->target = bone->ik.target;
        c->link_count = bone->ik.link_count;
        c->links = bone->ik.links;
        c->loop_count = bone->ik.loop_count;
        c->limit_angle = bone->ik.limit_angle;
        c->parent = bone->parent;
        c->parent_role = role_of(&rig->roles, bone->parent);
        c->kind = kind_of(sk, &rig->roles, c);
        c->side = side_of(sk, &rig->roles, c);
        if (c->target != PM_NO_INDEX) {
            c->rest_offset = pmi_vec3_sub(bone->position, sk->bones[c->target].position);
            c->rest_distance = pmi_vec3_length(c->rest_offset);
        }
    }
    rig->chain_count = n;
}

static uint32_t find_chain(const pm_rig *rig, pm_rig_chain_kind kind, int side, uint32_t target) {
    for (uint32_t i = 0; i < rig->chain_count; i++) {
        const pm_rig_chain *c = &rig->chains[i];
        if (c->kind != kind) continue;
        if (target != PM_NO_INDEX ? c->target == target : c->side == side) return i;
    }
    return PM_NO_INDEX;
}

static void build_limbs(pm_rig *rig) {
    const pm_skeleton *sk = rig->skeleton;
    const pm_rig_roles *ro = &rig->roles;
    for (int s = 0; s < 2; s++) {
        pm_rig_leg *l = &rig->legs[s];
        l->hip = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, s)];
        l->knee = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_KNEE, s)];
        l->ankle = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, s)];
        l->toe = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_TOE, s)];
        l->heel = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_HEEL, s)];
        l->ik_chain = l->toe_chain = l->d_chain = PM_NO_INDEX;
        l->present = l->hip != PM_NO_INDEX && l->knee != PM_NO_INDEX && l->ankle != PM_NO_INDEX &&
                     descends(sk, l->knee, l->hip) && descends(sk, l->ankle, l->knee);
        if (l->present) {
            pm_vec3 h = sk->bones[l->hip].position, k = sk->bones[l->knee].position, a = sk->bones[l->ankle].position;
            l->thigh = pmi_vec3_distance(h, k);
            l->shin = pmi_vec3_distance(k, a);
            l->length = l->thigh + l->shin;
            l->knee_rest_bend = bend_at(h, k, a);
            l->reach_rest = pmi_vec3_distance(h, a);
            l->ankle_height = a.y;
            if (l->toe != PM_NO_INDEX) {
                pm_vec3 t = sk->bones[l->toe].position;
                l->foot_length = sqrtf((t.x - a.x) * (t.x - a.x) + (t.z - a.z) * (t.z - a.z));
            }
            l->ik_chain = find_chain(rig, PM_RIG_CHAIN_LEG, s + 1, l->ankle);
            if (l->ik_chain != PM_NO_INDEX) {
                const pm_rig_chain *c = &rig->chains[l->ik_chain];
                for (uint32_t k2 = 0; k2 < c->link_count; k2++)
                    if (c->links[k2].bone == l->knee && c->links[k2].has_limit) {
                        l->knee_limited = true;
                        l->knee_limit_min = c->links[k2].limit_min;
                        l->knee_limit_max = c->links[k2].limit_max;
                    }
            }
        }
        l->toe_chain = l->toe != PM_NO_INDEX ? find_chain(rig, PM_RIG_CHAIN_TOE, s + 1, l->toe) : PM_NO_INDEX;
        if (l->toe_chain == PM_NO_INDEX) l->toe_chain = find_chain(rig, PM_RIG_CHAIN_TOE, s + 1, PM_NO_INDEX);
        l->d_chain = find_chain(rig, PM_RIG_CHAIN_LEG_D, s + 1, PM_NO_INDEX);

        pm_rig_arm *m = &rig->arms[s];
        m->shoulder = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_SHOULDER, s)];
        m->arm = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, s)];
        m->elbow = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_ELBOW, s)];
        m->wrist = ro->bone[PM_RIG_SIDED(PM_RIG_LEFT_WRIST, s)];
        m->ik_chain = find_chain(rig, PM_RIG_CHAIN_ARM, s + 1, PM_NO_INDEX);
        m->present = m->arm != PM_NO_INDEX && m->elbow != PM_NO_INDEX && m->wrist != PM_NO_INDEX &&
                     descends(sk, m->elbow, m->arm) && descends(sk, m->wrist, m->elbow);
        if (m->present) {
            pm_vec3 a = sk->bones[m->arm].position, e = sk->bones[m->elbow].position, w = sk->bones[m->wrist].position;
            m->upper = pmi_vec3_distance(a, e);
            m->fore = pmi_vec3_distance(e, w);
            m->length = m->upper + m->fore;
            m->elbow_rest_bend = bend_at(a, e, w);
        }
    }
    /* the figure (heights: measure() takes them from the solved rest pose) */
    int legs = 0, feet = 0;
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *l = &rig->legs[s];
        if (!l->present) continue;
        legs++;
        rig->leg_length += l->length;
        if (l->toe != PM_NO_INDEX) feet++, rig->foot_length += l->foot_length;
    }
    if (legs) {
        rig->leg_length /= (float)legs;
        float std_leg = pmi_vec3_distance(STD_HIP, STD_KNEE) + pmi_vec3_distance(STD_KNEE, STD_ANKLE);
        rig->scale = rig->leg_length / std_leg;
    }
    if (feet) rig->foot_length /= (float)feet;
}

/* ---- measurements (pose.h: babylon-mmd's FK and CCD) ---------------------------------------------- */

typedef struct meter {
    const pm_skeleton *sk;
    pm_pose_workspace *ws;
    pm_pose *pose;
} meter;

/* The rest pose with every IK on, evaluated after `edit` changed pose->translation / rotation. */
static pm_result rest(meter *m, pm_error *err) { return pm_pose_sample(NULL, m->ws, 0, m->pose, err); }
static pm_result solve(meter *m, uint32_t flags, pm_error *err) {
    pm_pose_options o = {flags, 0};
    return pm_pose_evaluate_local(m->ws, m->pose, &o, err);
}
static pm_vec3 at(const meter *m, uint32_t b) { return pm_pose_world_position(m->pose, b); }

/* Clamp a knee limit to what the Euler decomposition can give (X in [-pi, pi]). */
static double clamp_pi(double a) { return a < -PM_PI ? -PM_PI : a > PM_PI ? PM_PI : a; }

/* The knee turned by `a` about X from rest (what the limit allows: babylon-mmd's knee turns about X
 * in its parent's frame, its Y and Z held at 0): the bend and the hip-ankle distance. */
typedef struct knee_at {
    double bend, reach;
} knee_at;

static knee_at knee_turned(pm_vec3 thigh, pm_vec3 shin, double a) {
    double c = cos(a), sn = sin(a);
    pm_vec3 s2 = pmi_vec3_make(shin.x, (float)(shin.y * c - shin.z * sn), (float)(shin.y * sn + shin.z * c));
    knee_at k = {angle_between(thigh, s2), pmi_vec3_length(pmi_vec3_add(thigh, s2))};
    return k;
}

/* Objective q of the knee turned by a: 0 the bend, 1 minus the bend, 2 the hip-ankle distance. */
static double knee_objective(pm_vec3 thigh, pm_vec3 shin, double a, int q) {
    knee_at k = knee_turned(thigh, shin, a);
    return q == 0 ? k.bend : q == 1 ? -k.bend : k.reach;
}

/* Over the knee's X range [lo, hi]: the least and the largest bend, and the least hip-ankle distance
 * (sampled every degree or finer, each extreme then refined by ternary search to 1e-9 rad; the three
 * are smooth in the angle, with one extreme between neighbouring samples). */
static void knee_range(pm_vec3 thigh, pm_vec3 shin, double lo, double hi, double *bend_min, double *bend_max,
                       double *reach_min) {
    enum { STEPS = 360 };
    double best[3] = {INFINITY, INFINITY, INFINITY}, best_a[3] = {lo, lo, lo};
    for (int i = 0; i <= STEPS; i++) {
        double a = lo + (hi - lo) * i / STEPS;
        knee_at k = knee_turned(thigh, shin, a);
        const double f[3] = {k.bend, -k.bend, k.reach};
        for (int q = 0; q < 3; q++)
            if (f[q] < best[q]) best[q] = f[q], best_a[q] = a;
    }
    double step = (hi - lo) / STEPS;
    for (int q = 0; q < 3; q++) {
        double x0 = fmax(lo, best_a[q] - step), x1 = fmin(hi, best_a[q] + step);
        for (int it = 0; it < 80 && x1 - x0 > 1e-9; it++) {
            double m0 = x0 + (x1 - x0) / 3, m1 = x1 - (x1 - x0) / 3;
            if (knee_objective(thigh, shin, m0, q) < knee_objective(thigh, shin, m1, q)) x1 = m1;
            else x0 = m0;
        }
        double f = knee_objective(thigh, shin, 0.5 * (x0 + x1), q);
        if (f < best[q]) best[q] = f;
    }
    *bend_min = best[0];
    *bend_max = -best[1];
    *reach_min = best[2];
}

static pm_result measure(pm_rig *rig, meter *m, pm_error *err) {
    const pm_skeleton *sk = rig->skeleton;
    pm_result r;
    /* the rest pose, solved */
    if ((r = rest(m, err)) || (r = solve(m, 0, err))) return r;
    for (uint32_t i = 0; i < rig->chain_count; i++) {
        pm_rig_chain *c = &rig->chains[i];
        if (c->target == PM_NO_INDEX) continue;
        pm_vec3 e = at(m, c->target);
        c->rest_error = pmi_vec3_distance(e, at(m, c->ik_bone));
        c->rest_shift = pmi_vec3_distance(e, sk->bones[c->target].position);
    }
    /* heights in the solved rest pose: what MMD shows before any key */
    int legs = 0;
    float lowest = INFINITY;
    for (int s = 0; s < 2; s++) {
        pm_rig_leg *l = &rig->legs[s];
        if (!l->present) continue;
        legs++;
        rig->hip_height += at(m, l->hip).y;
        l->ankle_height = at(m, l->ankle).y;
        const uint32_t pts[3] = {l->ankle, l->heel, l->toe};
        for (int k = 0; k < 3; k++)
            if (pts[k] != PM_NO_INDEX && at(m, pts[k]).y < lowest) lowest = at(m, pts[k]).y;
    }
    if (legs) {
        rig->hip_height /= (float)legs;
        rig->floor_height = lowest;
    }
    /* what the knee limit allows (its X range, from the rest pose) */
    for (int s = 0; s < 2; s++) {
        pm_rig_leg *l = &rig->legs[s];
        if (!l->present || !l->knee_limited) continue;
        double lo = clamp_pi(fmin(l->knee_limit_min.x, l->knee_limit_max.x));
        double hi = clamp_pi(fmax(l->knee_limit_min.x, l->knee_limit_max.x));
        pm_vec3 h = sk->bones[l->hip].position, k = sk->bones[l->knee].position, a = sk->bones[l->ankle].position;
        double bmin, bmax, rmin;
        knee_range(pmi_vec3_sub(k, h), pmi_vec3_sub(a, k), lo, hi, &bmin, &bmax, &rmin);
        l->knee_bend_min = (float)bmin;
        l->knee_bend_max = (float)bmax;
        l->reach_min = (float)rmin;
    }
    /* reach_max: the leg IK bones far below the hips (both legs in one evaluation); reach_min of an
     * unlimited knee: the IK bones at the hips */
    bool any = false;
    for (int s = 0; s < 2; s++) any |= rig->legs[s].present && rig->legs[s].ik_chain != PM_NO_INDEX;
    if (!any) return PM_OK;
    for (int pass = 0; pass < 2; pass++) {
        if ((r = rest(m, err))) return r;
        bool moved = false;
        for (int s = 0; s < 2; s++) {
            const pm_rig_leg *l = &rig->legs[s];
            if (!l->present || l->ik_chain == PM_NO_INDEX || (pass == 1 && l->knee_limited)) continue;
            uint32_t ik = rig->chains[l->ik_chain].ik_bone;
            pm_vec3 hip = sk->bones[l->hip].position;
            pm_vec3 goal = pass == 0 ? pmi_vec3_make(hip.x, hip.y - 2.0f * l->length, hip.z) : hip;
            pm_vec3 offset = pmi_vec3_sub(goal, sk->bones[ik].position);
            if (!isfinite(offset.x) || !isfinite(offset.y) || !isfinite(offset.z)) continue; /* beyond the float range */
            m->pose->translation[ik] = offset;
            moved = true;
        }
        if (!moved) continue;
        if ((r = solve(m, 0, err))) return r;
        for (int s = 0; s < 2; s++) {
            pm_rig_leg *l = &rig->legs[s];
            if (!l->present || l->ik_chain == PM_NO_INDEX || (pass == 1 && l->knee_limited)) continue;
            float d = pmi_vec3_distance(at(m, l->hip), at(m, l->ankle));
            if (pass == 0) l->reach_max = d;
            else l->reach_min = d;
        }
    }
    return PM_OK;
}

/* Skeletons may hold any finite position (up to 3e38): a figure that overflowed becomes 0, so no NaN or
 * Inf ever leaves the analysis. The figures lie in runs of consecutive floats (asserted below): one loop
 * per run. */
static void fin(void *first, int n) {
    for (int i = 0; i < n; i++) {
        float v;
        memcpy(&v, (char *)first + i * sizeof v, sizeof v);
        if (!isfinite(v)) memset((char *)first + i * sizeof v, 0, sizeof v);
    }
}

#define PMI_RUN(T, a, b, n) _Static_assert(offsetof(T, b) == offsetof(T, a) + (n) * sizeof(float), #T " run")
PMI_RUN(pm_rig_chain, rest_offset, rest_shift, 5);
PMI_RUN(pm_rig_leg, thigh, knee_rest_bend, 3);
PMI_RUN(pm_rig_leg, knee_bend_min, ankle_height, 6);
PMI_RUN(pm_rig_arm, upper, elbow_rest_bend, 3);
PMI_RUN(pm_rig, floor_height, scale, 4);

static void sanitize(pm_rig *rig) {
    for (uint32_t i = 0; i < rig->chain_count; i++) fin(&rig->chains[i].rest_offset, 6);
    for (int s = 0; s < 2; s++) {
        fin(&rig->legs[s].thigh, 4), fin(&rig->legs[s].knee_bend_min, 7);
        fin(&rig->arms[s].upper, 4);
    }
    fin(&rig->floor_height, 5);
}

/* ---- the analysis --------------------------------------------------------------------------------- */

void pm_rig_free(pm_rig *rig) {
    if (!rig || rig->magic != PMI_RIG_MAGIC) return;
    pm_allocator a = rig->allocator;
    pmi_free(&a, rig->chains);
    rig->magic = 0;
    pmi_free(&a, rig);
}

pm_result pm_rig_analyze(const pm_skeleton *sk, const pm_rig_options *opts, pm_rig **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: out is NULL");
    *out = NULL;
    if (!sk) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: skeleton is NULL");
    pm_result r = pm_skeleton_validate(sk, err);
    if (r) return r;
    pm_allocator a = {0};
    if (opts) a = opts->allocator;
    pm_rig *rig = pmi_alloc_array(&a, 1, sizeof *rig, err, "rig");
    if (!rig) return PM_ERR_OUT_OF_MEMORY;
    rig->magic = PMI_RIG_MAGIC;
    rig->allocator = a;
    rig->skeleton = sk;
    uint32_t chains = 0;
    for (uint32_t b = 0; b < sk->bone_count; b++) chains += sk->bones[b].has_ik;
    rig->chains = pmi_alloc_array(&a, chains, sizeof *rig->chains, err, "rig: IK chains");
    meter m = {sk, NULL, NULL};
    if (!rig->chains) r = PM_ERR_OUT_OF_MEMORY;
    if (r == PM_OK) r = pm_rig_resolve_skeleton(sk, opts ? &opts->resolve : NULL, &rig->roles, err);
    if (r == PM_OK) {
        build_chains(rig);
        build_limbs(rig);
        if ((r = pm_pose_workspace_create(sk, &a, &m.ws, err)) == PM_OK && (r = pm_pose_create(sk, &a, &m.pose, err)) == PM_OK)
            r = measure(rig, &m, err);
        sanitize(rig);
    }
    pm_pose_free(m.pose);
    pm_pose_workspace_free(m.ws);
    if (r) {
        pm_rig_free(rig);
        return r;
    }
    *out = rig;
    return PM_OK;
}
