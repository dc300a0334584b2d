/* The retarget path shared by every source: rest-pose plan, per-frame points, pelvis to origin, adaptive
 * scale, projection, angles; sequences, checks and feature vectors (see procmotion/keypoints.h). */
#include "kp_internal.h"
#include "math/inline.h"

#include <math.h>

#define PMI_KP_MAGIC 0x3133504bu /* "KP31" */

/* ---- sequences --------------------------------------------------------------------------------- */

pm_result pmi_kp_sequence_new(const pm_allocator *allocator, uint32_t frame_count, pm_kp_sequence **out, pm_error *err) {
    *out = NULL;
    pm_allocator a = allocator ? *allocator : (pm_allocator){0};
    pm_kp_sequence *s = pmi_alloc(&a, sizeof *s);
    if (!s) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "keypoints: out of memory");
    memset(s, 0, sizeof *s);
    s->allocator = a;
    s->magic = PMI_KP_MAGIC;
    s->frame_count = frame_count;
    s->timestamp_ms = pmi_alloc_array(&s->allocator, frame_count, sizeof(double), err, "keypoints: timestamps");
    s->points = pmi_alloc_array(&s->allocator, (size_t)frame_count * PM_KP_POINT_COUNT * 3, sizeof(float), err, "keypoints: points");
    s->visibility = pmi_alloc_array(&s->allocator, (size_t)frame_count * PM_KP_POINT_COUNT, sizeof(float), err, "keypoints: visibility");
    s->angles = pmi_alloc_array(&s->allocator, (size_t)frame_count * PM_KP_ANGLE_COUNT, sizeof(float), err, "keypoints: angles");
    if (!s->timestamp_ms || !s->points || !s->visibility || !s->angles) {
        pm_kp_free(s);
        return PM_ERR_OUT_OF_MEMORY;
    }
    *out = s;
    return PM_OK;
}

void pm_kp_free(pm_kp_sequence *seq) {
    if (!seq || seq->magic != PMI_KP_MAGIC) return;
    pm_allocator a = seq->allocator;
    pmi_free(&a, seq->timestamp_ms);
    pmi_free(&a, seq->points);
    pmi_free(&a, seq->visibility);
    pmi_free(&a, seq->angles);
    seq->magic = 0;
    pmi_free(&a, seq);
}

pm_result pm_kp_from_arrays(uint32_t frames, const double *timestamp_ms, const float *points, const float *visibility,
                            bool mirrored, const pm_allocator *allocator, pm_kp_sequence **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: out is NULL");
    *out = NULL;
    if (frames && (!timestamp_ms || !points || !visibility))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: timestamps, points or visibility is NULL");
    pm_kp_sequence *s = NULL;
    pm_result r = pmi_kp_sequence_new(allocator, frames, &s, err);
    if (r) return r;
    s->mirrored = mirrored;
    memcpy(s->timestamp_ms, timestamp_ms, (size_t)frames * sizeof(double));
    memcpy(s->points, points, (size_t)frames * PM_KP_POINT_COUNT * 3 * sizeof(float));
    memcpy(s->visibility, visibility, (size_t)frames * PM_KP_POINT_COUNT * sizeof(float));
    for (uint32_t f = 0; f < frames; f++) {
        pm_kp_angles(s->points + (size_t)f * PM_KP_POINT_COUNT * 3, s->angles + (size_t)f * PM_KP_ANGLE_COUNT);
        pm_kp_sequence one = *s;
        one.frame_count = 1;
        one.timestamp_ms += f, one.points += (size_t)f * PM_KP_POINT_COUNT * 3;
        one.visibility += (size_t)f * PM_KP_POINT_COUNT, one.angles += (size_t)f * PM_KP_ANGLE_COUNT;
        uint32_t nan = 0, oor = 0;
        pm_kp_check(&one, &nan, &oor);
        if (nan || oor || (f && timestamp_ms[f] < timestamp_ms[f - 1]) || timestamp_ms[f] < 0) {
            pm_kp_free(s);
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                            "keypoints: frame %u holds a non-finite or out-of-range value or a timestamp going back", f);
        }
    }
    s->fps = pmi_kp_even_fps(s->timestamp_ms, frames);
    s->stats.family = "keypoints";
    pmi_kp_count_tiers(s);
    *out = s;
    return PM_OK;
}

pm_result pmi_kp_check_decoded(const pm_kp_sequence *s, uint32_t f, const char *where, size_t at, pm_error *err) {
    const float *p = s->points + (size_t)f * PM_KP_POINT_COUNT * 3, *v = s->visibility + (size_t)f * PM_KP_POINT_COUNT;
    double t = s->timestamp_ms[f];
    if (!(t >= 0) || (f && t < s->timestamp_ms[f - 1]))
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: %s %zu: timestamp %g goes back in time", where, at, t);
    for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
        for (int k = 0; k < 3; k++)
            if (!(p[i * 3 + k] >= (k < 2 ? 0.0f : -1.0f) && p[i * 3 + k] <= 1.0f))
                return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: %s %zu point %d: %c = %g is outside %s", where, at, i,
                                "xyz"[k], p[i * 3 + k], k < 2 ? "0..1" : "-1..1");
        if (!(v[i] >= 0 && v[i] <= 1))
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "keypoints: %s %zu point %d: visibility %g is outside 0..1", where, at, i,
                            v[i]);
    }
    return PM_OK;
}

uint32_t pmi_kp_max_frames(const pm_kp_options *opts) {
    return opts && opts->max_frames ? opts->max_frames : 1000000u;
}

pm_result pmi_kp_frames_for(double duration, double fps, const pm_kp_options *opts, uint32_t *frames, pm_error *err) {
    double nf = floor(duration * fps + 1e-6) + 1;
    if (nf > pmi_kp_max_frames(opts))
        return pmi_fail(err, PM_ERR_LIMIT, "keypoints: %.0f frames at %g fps exceed the limit of %u", nf, fps, pmi_kp_max_frames(opts));
    *frames = (uint32_t)nf;
    return PM_OK;
}

void pmi_kp_count_tiers(pm_kp_sequence *s) {
    s->stats.direct_points = s->stats.inferred_points = s->stats.missing_points = 0;
    for (int i = 0; i < PM_KP_POINT_COUNT && s->frame_count; i++) {
        float c = s->visibility[i];
        if (c >= 0.75f) s->stats.direct_points++;
        else if (c >= 0.25f) s->stats.inferred_points++;
        else s->stats.missing_points++;
    }
}

/* ---- raw world points ---------------------------------------------------------------------------- */

pm_result pmi_kp_raw_init(pmi_kp_raw *raw, const pm_allocator *allocator, uint32_t frame_count, pm_error *err) {
    memset(raw, 0, sizeof *raw);
    raw->allocator = allocator;
    raw->frame_count = frame_count;
    raw->timestamp_ms = pmi_alloc_array(allocator, frame_count, sizeof(double), err, "keypoints: timestamps");
    raw->pos = pmi_alloc_array(allocator, (size_t)frame_count * PM_KP_POINT_COUNT * 3, sizeof(float), err, "keypoints: points");
    raw->conf = pmi_alloc_array(allocator, (size_t)frame_count * PM_KP_POINT_COUNT, sizeof(float), err, "keypoints: visibility");
    if (!raw->timestamp_ms || !raw->pos || !raw->conf) {
        pmi_kp_raw_release(raw);
        return PM_ERR_OUT_OF_MEMORY;
    }
    return PM_OK;
}

void pmi_kp_raw_release(pmi_kp_raw *raw) {
    pmi_free(raw->allocator, raw->timestamp_ms);
    pmi_free(raw->allocator, raw->pos);
    pmi_free(raw->allocator, raw->conf);
    raw->timestamp_ms = NULL;
    raw->pos = raw->conf = NULL;
}

void pmi_kp_raw_uniform_time(pmi_kp_raw *raw, double fps) {
    raw->fps = fps;
    for (uint32_t f = 0; f < raw->frame_count; f++) raw->timestamp_ms[f] = fps > 0 ? f * 1000.0 / fps : 0.0;
}

static bool finite3(const float *p) { return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]); }

pm_result pmi_kp_finish(pmi_kp_raw *raw, pm_kp_sequence **out, pm_error *err) {
    *out = NULL;
    const pm_allocator *a = raw->allocator;
    float *angles = pmi_alloc_array(a, (size_t)raw->frame_count * PM_KP_ANGLE_COUNT, sizeof(float), err, "keypoints: angles");
    pm_kp_sequence *s = angles ? pmi_alloc(a, sizeof *s) : NULL;
    if (!s) {
        pmi_free(a, angles);
        pmi_kp_raw_release(raw);
        return angles ? pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "keypoints: out of memory") : PM_ERR_OUT_OF_MEMORY;
    }
    memset(s, 0, sizeof *s);
    s->allocator = a ? *a : (pm_allocator){0};
    s->magic = PMI_KP_MAGIC;
    s->frame_count = raw->frame_count;
    s->fps = raw->fps;
    s->mirrored = raw->mirrored;
    s->timestamp_ms = raw->timestamp_ms;
    s->points = raw->pos;
    s->visibility = raw->conf;
    s->angles = angles;
    s->stats = raw->stats;
    raw->timestamp_ms = NULL;
    raw->pos = raw->conf = NULL;

    /* non-finite points lose their confidence and sit on their parent; then the pelvis goes to 0 */
    double maxabs = 0;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        float *p = s->points + (size_t)f * PM_KP_POINT_COUNT * 3;
        float *c = s->visibility + (size_t)f * PM_KP_POINT_COUNT;
        bool bad = false;
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
            if (!isfinite(c[i])) c[i] = 0, s->stats.nan_count++;
            if (!finite3(p + i * 3)) {
                s->stats.nan_count++;
                memset(p + i * 3, 0, 3 * sizeof(float));
                c[i] = 0;
                bad = true;
            }
        }
        if (bad) pmi_kp_fill_missing(p, c);
        float pelvis[3];
        for (int k = 0; k < 3; k++) pelvis[k] = 0.5f * (p[23 * 3 + k] + p[24 * 3 + k]);
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
            for (int k = 0; k < 3; k++) {
                p[i * 3 + k] -= pelvis[k];
                if (c[i] > 0 && fabsf(p[i * 3 + k]) > maxabs) maxabs = fabsf(p[i * 3 + k]);
            }
        }
    }
    double scale = maxabs > 1e-30 && isfinite(maxabs) ? 0.35 / maxabs : 1.0;
    s->stats.scale = (float)scale;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        float *p = s->points + (size_t)f * PM_KP_POINT_COUNT * 3;
        float *c = s->visibility + (size_t)f * PM_KP_POINT_COUNT;
        for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
            float *q = p + i * 3;
            float v[3] = {(float)(0.5 + q[0] * scale), (float)(0.5 - q[1] * scale), (float)(-q[2] * scale)};
            const float lo[3] = {0, 0, -1}, hi[3] = {1, 1, 1};
            for (int k = 0; k < 3; k++) {
                if (!isfinite(v[k])) {
                    s->stats.nan_count++;
                    v[k] = k < 2 ? 0.5f : 0.0f;
                    c[i] = 0;
                } else if (v[k] < lo[k] || v[k] > hi[k]) {
                    s->stats.out_of_range++;
                    v[k] = v[k] < lo[k] ? lo[k] : hi[k];
                }
                q[k] = v[k];
            }
            if (c[i] < 0) c[i] = 0, s->stats.out_of_range++;
            if (c[i] > 1) c[i] = 1, s->stats.out_of_range++;
        }
        pm_kp_angles(p, s->angles + (size_t)f * PM_KP_ANGLE_COUNT);
    }
    pmi_kp_count_tiers(s);
    *out = s;
    return PM_OK;
}

/* ---- rest-pose plan -------------------------------------------------------------------------------- */

static pm_vec3 snap_axis(pm_vec3 v) {
    float ax = fabsf(v.x), ay = fabsf(v.y), az = fabsf(v.z);
    if (ax >= ay && ax >= az) return pmi_vec3_make(v.x < 0 ? -1.f : 1.f, 0, 0);
    if (ay >= az) return pmi_vec3_make(0, v.y < 0 ? -1.f : 1.f, 0);
    return pmi_vec3_make(0, 0, v.z < 0 ? -1.f : 1.f);
}

/* The canonical frame from the rest translations of the upper legs and arms. */
static pm_mat4 canon_from_rest(pm_vec3 lhip, pm_vec3 rhip, pm_vec3 lsh, pm_vec3 rsh) {
    pm_vec3 up = pmi_vec3_sub(pmi_vec3_scale(pmi_vec3_add(lsh, rsh), 0.5f), pmi_vec3_scale(pmi_vec3_add(lhip, rhip), 0.5f));
    pm_vec3 lat = pmi_vec3_sub(lhip, rhip);
    if (pmi_vec3_length(lat) < 1e-6f * (pmi_vec3_length(up) + 1e-30f)) lat = pmi_vec3_sub(lsh, rsh);
    if (!(pmi_vec3_length(up) > 0) || !(pmi_vec3_length(lat) > 0)) return pm_mat4_identity();
    pm_vec3 u = snap_axis(up);
    lat = pmi_vec3_sub(lat, pmi_vec3_scale(u, pmi_vec3_dot(lat, u)));
    if (!(pmi_vec3_length(lat) > 0)) return pm_mat4_identity();
    pm_vec3 l = snap_axis(lat);
    pm_vec3 f = pmi_vec3_cross(l, u);
    pm_mat4 c = pm_mat4_identity();
    c.m[0] = l.x, c.m[4] = l.y, c.m[8] = l.z;
    c.m[1] = u.x, c.m[5] = u.y, c.m[9] = u.z;
    c.m[2] = f.x, c.m[6] = f.y, c.m[10] = f.z;
    return c;
}

static pm_vec3 rest_pos(const pmi_kp_rig *rig, const pm_mat4 *canon, uint32_t j) {
    pm_vec3 p = pmi_mat4_get_translation(&rig->rest[j]);
    return pm_mat4_transform_dir(canon, p);
}

/* The midpoint of two joints' rest positions (pmi_vec3_scale(pmi_vec3_add(p, q), 0.5f) by component). */
static pm_vec3 rest_mid(const pmi_kp_rig *rig, const pm_mat4 *canon, uint32_t a, uint32_t b) {
    pm_vec3 p = rest_pos(rig, canon, a), q = rest_pos(rig, canon, b);
    return pmi_vec3_make((p.x + q.x) * 0.5f, (p.y + q.y) * 0.5f, (p.z + q.z) * 0.5f);
}

/* Carry the world-rest point base + (ox, oy, oz) with joint j at confidence 0.5 (the offset by components and
 * the base by pointer: no vector passed by value, a copy in memory at each call in wasm). */
static void put(const pmi_kp_rig *rig, pmi_kp_plan *plan, int point, uint32_t j, const pm_vec3 *base, float ox, float oy,
                float oz) {
    pm_mat4 cw = pm_mat4_mul(&plan->canon, &rig->rest[j]);
    pm_mat4 inv = pm_mat4_inverse_affine(&cw);
    plan->joint[point] = j;
    plan->local[point] = pm_mat4_transform_point(&inv, pmi_vec3_make(base->x + ox, base->y + oy, base->z + oz));
    plan->conf[point] = 0.5f;
}

static void put_direct(pmi_kp_plan *plan, int point, uint32_t j, float c) {
    plan->joint[point] = j;
    plan->local[point] = pmi_vec3_make(0, 0, 0);
    plan->conf[point] = c;
}

/* The knee where a camera sees it: an MMD knee bone stands in front of the line from the hip to the ankle
 * (a straight leg would read bent), so on a leg that is nearly straight at rest (bent less than 35
 * degrees, the knee more than 1 % of the leg off the line) the point is that line's nearest point,
 * carried by the thigh, which holds the knee's centre as the leg bends. */
static void knee_on_axis(const pmi_kp_rig *rig, pmi_kp_plan *plan, int point, uint32_t thigh, uint32_t knee, uint32_t ankle) {
    const pm_mat4 *C = &plan->canon;
    const pm_vec3 h = rest_pos(rig, C, thigh), k = rest_pos(rig, C, knee), a = rest_pos(rig, C, ankle);
    const pm_vec3 axis = pmi_vec3_sub(a, h), up = pmi_vec3_sub(h, k), down = pmi_vec3_sub(a, k);
    const float len2 = pmi_vec3_dot(axis, axis), lu = pmi_vec3_length(up), ld = pmi_vec3_length(down);
    if (!(len2 > 0 && lu > 0 && ld > 0)) return;
    const float bend = 180.0f - acosf(fmaxf(-1, fminf(1, pmi_vec3_dot(up, down) / (lu * ld)))) * (float)(180.0 / PM_PI);
    const pm_vec3 on = pmi_vec3_add(h, pmi_vec3_scale(axis, pmi_vec3_dot(pmi_vec3_sub(k, h), axis) / len2));
    if (!(bend < 35) || !(pmi_vec3_distance(on, k) > 0.01f * sqrtf(len2))) return;
    put(rig, plan, point, thigh, &on, 0, 0, 0);
    plan->conf[point] = 1.0f;
}

/* The first child joint of j away from j (a wrist under a lower arm without a named hand). */
static uint32_t first_child(const pmi_kp_rig *rig, const pm_mat4 *canon, uint32_t j) {
    if (j == PM_NO_INDEX || !rig->parent) return PM_NO_INDEX;
    pm_vec3 pj = rest_pos(rig, canon, j);
    for (uint32_t k = 0; k < rig->joint_count; k++)
        if (rig->parent[k] == j && pmi_vec3_distance(rest_pos(rig, canon, k), pj) > 0) return k;
    return PM_NO_INDEX;
}

/* Face points relative to the head joint, in units of the torso length (x = the character's left). */
static const struct {
    int point;
    float x, y, z;
} face[] = {
    {0, 0.0f, 0.09f, 0.17f},     {1, 0.030f, 0.15f, 0.13f},   {2, 0.065f, 0.15f, 0.12f},  {3, 0.095f, 0.15f, 0.11f},
    {4, -0.030f, 0.15f, 0.13f},  {5, -0.065f, 0.15f, 0.12f},  {6, -0.095f, 0.15f, 0.11f}, {7, 0.14f, 0.10f, 0.0f},
    {8, -0.14f, 0.10f, 0.0f},    {9, 0.045f, 0.03f, 0.14f},   {10, -0.045f, 0.03f, 0.14f},
};

pm_result pmi_kp_make_plan(const pmi_kp_rig *rig, pmi_kp_plan *plan, pm_error *err) {
    const uint32_t *sl = rig->slots;
    uint32_t lua = sl[PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)], rua = sl[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_ARM)];
    uint32_t lul = sl[PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)], rul = sl[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)];
    if (lua == PM_NO_INDEX || rua == PM_NO_INDEX || lul == PM_NO_INDEX || rul == PM_NO_INDEX)
        return pmi_fail(err, PM_ERR_NOT_FOUND, "keypoints: the skeleton lacks %s (both upper arms and both upper legs are needed)",
                        lua == PM_NO_INDEX ? "a left upper arm" : rua == PM_NO_INDEX ? "a right upper arm"
                        : lul == PM_NO_INDEX ? "a left upper leg" : "a right upper leg");
    for (int i = 0; i < PM_KP_POINT_COUNT; i++) plan->joint[i] = PM_NO_INDEX, plan->conf[i] = 0, plan->local[i] = pmi_vec3_make(0, 0, 0);
    plan->canon = canon_from_rest(pmi_mat4_get_translation(&rig->rest[lul]), pmi_mat4_get_translation(&rig->rest[rul]),
                                  pmi_mat4_get_translation(&rig->rest[lua]), pmi_mat4_get_translation(&rig->rest[rua]));
    const pm_mat4 *C = &plan->canon;
    pm_vec3 hipmid = rest_mid(rig, C, lul, rul), shmid = rest_mid(rig, C, lua, rua);
    float torso = pmi_vec3_distance(hipmid, shmid);
    if (!(torso > 0)) torso = 1.0f;

    for (int side = 0; side < 2; side++) {
        float sx = side == 0 ? 1.0f : -1.0f;
#define SLOT(s) sl[PMI_SLOT_LEFT(s) + side * PMI_SIDE_COUNT] /* PMI_SLOT_RIGHT(s) on the right */
        int o = side; /* left points are even-offset pairs: 11/12, 13/14, ... */
        put_direct(plan, 11 + o, SLOT(PMI_SIDE_UPPER_ARM), 1.0f);
        put_direct(plan, 23 + o, SLOT(PMI_SIDE_UPPER_LEG), 1.0f);
        uint32_t elbow = SLOT(PMI_SIDE_LOWER_ARM), knee = SLOT(PMI_SIDE_LOWER_LEG);
        if (elbow != PM_NO_INDEX) put_direct(plan, 13 + o, elbow, 1.0f);
        if (knee != PM_NO_INDEX) put_direct(plan, 25 + o, knee, 1.0f);
        uint32_t wrist = SLOT(PMI_SIDE_HAND);
        if (wrist != PM_NO_INDEX) put_direct(plan, 15 + o, wrist, 1.0f);
        else if ((wrist = first_child(rig, C, elbow)) != PM_NO_INDEX) put_direct(plan, 15 + o, wrist, 0.5f);
        uint32_t ankle = SLOT(PMI_SIDE_FOOT);
        if (ankle != PM_NO_INDEX) put_direct(plan, 27 + o, ankle, 1.0f);
        else if ((ankle = first_child(rig, C, knee)) != PM_NO_INDEX) put_direct(plan, 27 + o, ankle, 0.5f);
        if (knee != PM_NO_INDEX && ankle != PM_NO_INDEX) knee_on_axis(rig, plan, 25 + o, SLOT(PMI_SIDE_UPPER_LEG), knee, ankle);

        /* hand: pinky 17, index 19, thumb 21 */
        if (wrist != PM_NO_INDEX) {
            pm_vec3 w = rest_pos(rig, C, wrist);
            pm_vec3 e = elbow != PM_NO_INDEX ? rest_pos(rig, C, elbow) : rest_pos(rig, C, SLOT(PMI_SIDE_UPPER_ARM));
            pm_vec3 d = pmi_vec3_sub(w, e);
            float len = pmi_vec3_length(d);
            if (!(len > 0)) d = pmi_vec3_make(sx, 0, 0), len = 0.3f * torso;
            d = pmi_vec3_normalize(d);
            const pm_vec3 fwd = {0, 0, 1};
            pm_vec3 f = pmi_vec3_sub(fwd, pmi_vec3_scale(d, pmi_vec3_dot(d, fwd)));
            f = pmi_vec3_length(f) > 1e-3f ? pmi_vec3_normalize(f) : pmi_vec3_make(0, -1, 0);
            static const struct {
                int point, slot;
                float along, fwd;
            } fingers[] = {{17, PMI_SIDE_LITTLE, 0.30f, -0.10f}, {19, PMI_SIDE_INDEX, 0.36f, 0.08f}, {21, PMI_SIDE_THUMB, 0.20f, 0.18f}};
            for (int k = 0; k < 3; k++) {
                uint32_t j = SLOT(fingers[k].slot);
                if (j != PM_NO_INDEX) put_direct(plan, fingers[k].point + o, j, 1.0f);
                else {
                    pm_vec3 off = pmi_vec3_add(pmi_vec3_scale(d, fingers[k].along * len), pmi_vec3_scale(f, fingers[k].fwd * len));
                    put(rig, plan, fingers[k].point + o, wrist, &w, off.x, off.y, off.z);
                }
            }
        }
        /* foot: heel 29, foot index 31 */
        if (ankle != PM_NO_INDEX) {
            pm_vec3 an = rest_pos(rig, C, ankle);
            float leg = pmi_vec3_distance(an, rest_pos(rig, C, SLOT(PMI_SIDE_UPPER_LEG)));
            if (!(leg > 0)) leg = torso;
            put(rig, plan, 29 + o, ankle, &an, 0, -0.08f * leg, -0.06f * leg);
            uint32_t toe = SLOT(PMI_SIDE_TOES);
            if (toe != PM_NO_INDEX) put_direct(plan, 31 + o, toe, 1.0f);
            else put(rig, plan, 31 + o, ankle, &an, 0, -0.08f * leg, 0.20f * leg);
        }
#undef SLOT
    }
    /* face: eyes direct when the rig has them, the rest carried by the head (or the neck) */
    uint32_t head = sl[PMI_SLOT_HEAD] != PM_NO_INDEX ? sl[PMI_SLOT_HEAD] : sl[PMI_SLOT_NECK];
    if (head != PM_NO_INDEX) {
        pm_vec3 h = rest_pos(rig, C, head);
        for (size_t k = 0; k < sizeof face / sizeof face[0]; k++)
            put(rig, plan, face[k].point, head, &h, face[k].x * torso, face[k].y * torso, face[k].z * torso);
    }
    if (sl[PMI_SLOT_LEFT(PMI_SIDE_EYE)] != PM_NO_INDEX) put_direct(plan, 2, sl[PMI_SLOT_LEFT(PMI_SIDE_EYE)], 1.0f);
    if (sl[PMI_SLOT_RIGHT(PMI_SIDE_EYE)] != PM_NO_INDEX) put_direct(plan, 5, sl[PMI_SLOT_RIGHT(PMI_SIDE_EYE)], 1.0f);
    return PM_OK;
}

void pmi_kp_plan_points(const pmi_kp_plan *plan, const pm_mat4 *world, float *pos) {
    for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
        uint32_t j = plan->joint[i];
        if (j == PM_NO_INDEX) continue;
        pm_vec3 p = pm_mat4_transform_point(&world[j], plan->local[i]);
        p = pm_mat4_transform_dir(&plan->canon, p);
        pos[i * 3] = p.x, pos[i * 3 + 1] = p.y, pos[i * 3 + 2] = p.z;
    }
    pmi_kp_fill_missing(pos, plan->conf);
}

void pmi_kp_mirror_z(const pm_mat4 *m, pm_mat4 *out) {
    /* S M S, S = diag(1, 1, -1): negate the z row and the z column (their crossing twice = kept) */
    *out = *m;
    for (int c = 0; c < 4; c++) out->m[c * 4 + 2] = -out->m[c * 4 + 2];
    for (int k = 0; k < 4; k++) out->m[2 * 4 + k] = -out->m[2 * 4 + k];
}

/* ---- rigs and running them ----------------------------------------------------------------------------------- */

pm_result pmi_kp_rig_alloc(pmi_kp_rig *rig, const pm_allocator *a, uint32_t n, pm_error *err) {
    memset(rig, 0, sizeof *rig);
    rig->joint_count = n;
    for (int k = 0; k < PMI_SLOT_COUNT; k++) rig->slots[k] = PM_NO_INDEX;
    rig->names = pmi_alloc_array(a, n, sizeof *rig->names, err, "keypoints: joint names");
    rig->parent = pmi_alloc_array(a, n, sizeof *rig->parent, err, "keypoints: joint parents");
    rig->rest = pmi_alloc_array(a, n, sizeof *rig->rest, err, "keypoints: rest pose");
    rig->candidate = pmi_alloc_array(a, n, 1, err, "keypoints: joints");
    if (!rig->names || !rig->parent || !rig->rest || !rig->candidate) {
        pmi_kp_rig_release(rig, a);
        return PM_ERR_OUT_OF_MEMORY;
    }
    memset(rig->candidate, 1, n);
    return PM_OK;
}

void pmi_kp_rig_release(pmi_kp_rig *rig, const pm_allocator *a) {
    pmi_free(a, rig->names);
    pmi_free(a, rig->parent);
    pmi_free(a, rig->rest);
    pmi_free(a, rig->candidate);
    rig->names = NULL, rig->parent = NULL, rig->rest = NULL, rig->candidate = NULL;
}

/* A file whose rest pose lies down (its zero rotations are not upright) but whose motion stands: the
 * axes come from where the motion holds the hips and shoulders on average when that up is more than
 * 60 degrees from the rest pose's. */
static void upright(const pmi_kp_plan *plan, const pm_vec3 sum[4], uint32_t frames, pmi_kp_raw *raw) {
    if (!frames) return;
    const pm_mat4 m = canon_from_rest(sum[0], sum[1], sum[2], sum[3]); /* the means' directions: the sums do */
    const float dot = plan->canon.m[1] * m.m[1] + plan->canon.m[5] * m.m[5] + plan->canon.m[9] * m.m[9];
    if (dot >= 0.5f) return;
    const pm_mat4 back = pm_mat4_inverse_affine(&plan->canon), turn = pm_mat4_mul(&m, &back);
    for (size_t i = 0; i < (size_t)frames * PM_KP_POINT_COUNT; i++) {
        float *p = raw->pos + i * 3;
        const pm_vec3 q = pm_mat4_transform_dir(&turn, pmi_vec3_make(p[0], p[1], p[2]));
        p[0] = q.x, p[1] = q.y, p[2] = q.z;
    }
}

pm_result pmi_kp_run_rig(pmi_kp_rig *rig, uint32_t frame_count, double fps, pmi_kp_eval_fn eval, void *ctx,
                         const pm_kp_options *opts, pm_kp_stats *stats, pm_kp_sequence **out, pm_error *err) {
    pm_result r;
    if (!rig->family && (r = pmi_kp_map_names(rig, opts ? &opts->allocator : NULL, err))) return r;
    pmi_kp_plan plan;
    if ((r = pmi_kp_make_plan(rig, &plan, err))) return r;
    if (frame_count > pmi_kp_max_frames(opts))
        return pmi_fail(err, PM_ERR_LIMIT, "keypoints: %u frames exceed the limit of %u", frame_count, pmi_kp_max_frames(opts));
    const pm_allocator *a = opts ? &opts->allocator : NULL;
    pm_mat4 *world = pmi_alloc_array(a, rig->joint_count, sizeof *world, err, "keypoints: world matrices");
    uint8_t *needed = world ? pmi_alloc_array(a, rig->joint_count, 1, err, "keypoints: world matrices") : NULL;
    if (!needed) {
        pmi_free(a, world);
        return PM_ERR_OUT_OF_MEMORY;
    }
    memset(needed, 0, rig->joint_count);
    for (int i = 0; i < PM_KP_POINT_COUNT; i++)
        if (plan.joint[i] != PM_NO_INDEX) needed[plan.joint[i]] = 1;
    pmi_kp_raw raw;
    if ((r = pmi_kp_raw_init(&raw, a, frame_count, err))) {
        pmi_free(a, world);
        pmi_free(a, needed);
        return r;
    }
    pmi_kp_raw_uniform_time(&raw, fps);
    const uint32_t limbs[4] = {rig->slots[PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)], rig->slots[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)],
                               rig->slots[PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)], rig->slots[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_ARM)]};
    pm_vec3 sum[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}; /* the hips and shoulders as the motion holds them */
    for (uint32_t f = 0; f < frame_count; f++) {
        if ((r = eval(ctx, f, fps > 0 ? f / fps : 0.0, needed, world, err))) break;
        for (int k = 0; k < 4; k++) sum[k] = pmi_vec3_add(sum[k], pmi_mat4_get_translation(&world[limbs[k]]));
        pmi_kp_plan_points(&plan, world, raw.pos + (size_t)f * PM_KP_POINT_COUNT * 3);
        memcpy(raw.conf + (size_t)f * PM_KP_POINT_COUNT, plan.conf, sizeof plan.conf);
        if (opts && opts->progress && ((f & 255) == 255 || f + 1 == frame_count)) opts->progress(opts->progress_user, f + 1, frame_count);
    }
    pmi_free(a, world);
    pmi_free(a, needed);
    if (r) {
        pmi_kp_raw_release(&raw);
        return r;
    }
    upright(&plan, sum, frame_count, &raw);
    raw.stats = *stats;
    raw.stats.family = rig->family;
    raw.stats.source_joints = 0;
    for (uint32_t j = 0; j < rig->joint_count; j++) raw.stats.source_joints += rig->candidate[j] != 0;
    return pmi_kp_finish(&raw, out, err);
}

/* ---- checks and features ------------------------------------------------------------------------------ */

void pm_kp_check(const pm_kp_sequence *seq, uint32_t *nan_count, uint32_t *out_of_range) {
    uint32_t nan = 0, oor = 0;
    if (seq) {
        for (uint32_t f = 0; f < seq->frame_count; f++) {
            const float *p = seq->points + (size_t)f * PM_KP_POINT_COUNT * 3;
            const float *v = seq->visibility + (size_t)f * PM_KP_POINT_COUNT;
            const float *a = seq->angles + (size_t)f * PM_KP_ANGLE_COUNT;
            for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
                for (int k = 0; k < 3; k++) {
                    float x = p[i * 3 + k];
                    if (!isfinite(x)) nan++;
                    else if (x < (k < 2 ? 0.0f : -1.0f) || x > 1.0f) oor++;
                }
                if (!isfinite(v[i])) nan++;
                else if (v[i] < 0 || v[i] > 1) oor++;
            }
            for (int i = 0; i < PM_KP_ANGLE_COUNT; i++) {
                if (!isfinite(a[i])) nan++;
                else if (a[i] < -1 || a[i] > 1) oor++;
            }
            if (!isfinite(seq->timestamp_ms[f])) nan++;
            else if (f && seq->timestamp_ms[f] < seq->timestamp_ms[f - 1]) oor++;
        }
    }
    if (nan_count) *nan_count = nan;
    if (out_of_range) *out_of_range = oor;
}

pm_result pm_kp_features(const pm_kp_sequence *seq, float *out, size_t out_cap, pm_error *err) {
    if (!seq || !out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: sequence or output is NULL");
    uint32_t n = seq->frame_count;
    if (out_cap / PM_KP_FEATURE_SIZE < n)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keypoints: features need %zu floats, the buffer holds %zu",
                        (size_t)n * PM_KP_FEATURE_SIZE, out_cap);
    uint32_t *next = pmi_alloc_array(&seq->allocator, n, sizeof *next, err, "keypoints: features");
    if (!next) return PM_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < PM_KP_POINT_COUNT; i++) {
        const float *vis = seq->visibility + i;
        uint32_t nx = PM_NO_INDEX;
        for (uint32_t f = n; f-- > 0;) {
            if (vis[(size_t)f * PM_KP_POINT_COUNT] >= 0.5f) nx = f;
            next[f] = nx;
        }
        uint32_t prev = PM_NO_INDEX;
        for (uint32_t f = 0; f < n; f++) {
            const float *src = seq->points + ((size_t)f * PM_KP_POINT_COUNT + i) * 3;
            float *dst = out + (size_t)f * PM_KP_FEATURE_SIZE + i * 3;
            if (vis[(size_t)f * PM_KP_POINT_COUNT] >= 0.5f) {
                memcpy(dst, src, 3 * sizeof(float));
                prev = f;
                continue;
            }
            uint32_t nf = next[f];
            const float *a = prev != PM_NO_INDEX ? seq->points + ((size_t)prev * PM_KP_POINT_COUNT + i) * 3 : NULL;
            const float *b = nf != PM_NO_INDEX ? seq->points + ((size_t)nf * PM_KP_POINT_COUNT + i) * 3 : NULL;
            if (a && b) {
                float t = (float)(f - prev) / (float)(nf - prev);
                for (int k = 0; k < 3; k++) dst[k] = a[k] + (b[k] - a[k]) * t;
            } else {
                memcpy(dst, a ? a : b ? b : src, 3 * sizeof(float));
            }
        }
    }
    pmi_free(&seq->allocator, next);
    for (uint32_t f = 0; f < n; f++) {
        float *row = out + (size_t)f * PM_KP_FEATURE_SIZE;
        pm_kp_angles(row, row + PM_KP_POINT_COUNT * 3);
    }
    return PM_OK;
}
