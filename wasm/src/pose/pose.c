/* Pose evaluation: sampling a bound animation, append transforms, world matrices in babylon-mmd's
 * order (see procmotion/pose.h; the CCD IK solver is in ik_ccd.c). */
#include "pose_internal.h"

#include "math/inline.h"

#include <float.h>

/* ---- workspace ------------------------------------------------------------------------------- */

void pm_pose_workspace_free(pm_pose_workspace *ws) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC) return;
    const pm_allocator *a = &ws->allocator;
    pmi_free(a, ws->bones);
    pmi_free(a, ws->st);
    pmi_free(a, ws->order);
    pmi_free(a, ws->children);
    pmi_free(a, ws->stack);
    pmi_free(a, ws->cursor);
    pmi_free(a, ws->ik_mode);
    pmi_free(a, ws->ik_prop);
    pmi_free(a, ws->ik_on);
    pmi_free(a, ws->iks);
    pmi_free(a, ws->links);
    pmi_free(a, ws->path);
    pmi_free(a, ws->path_of_link);
    pmi_free(a, ws->prev_ik_rot);
    pmi_free(a, ws->sampled);
    pmi_free(a, ws->run);
    ws->magic = 0;
    pm_allocator copy = *a;
    pmi_free(&copy, ws);
}

static bool finite3(pm_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* Check every index and value the evaluator will use; the skeleton module validates too, but a pose
 * never indexes with an unchecked value. */
static pm_result check_skeleton(const pm_skeleton *sk, const pm_allocator *al, pm_error *err) {
    const uint32_t n = sk->bone_count;
    if (n && !sk->bones) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: skeleton has %u bones but no array", n);
    for (uint32_t i = 0; i < n; i++) {
        const pm_bone *b = &sk->bones[i];
        if (b->parent != PM_NO_INDEX && b->parent >= n)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u has parent %u of %u bones", i, b->parent, n);
        const bool appends = (b->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) != 0;
        if (appends && b->append_parent != PM_NO_INDEX && b->append_parent >= n)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u appends bone %u of %u", i, b->append_parent, n);
        if (!finite3(b->position) || (appends && !isfinite(b->append_ratio)) ||
            ((b->flags & PM_BONE_FIXED_AXIS) && !finite3(b->fixed_axis)))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u has a non-finite position, ratio or axis", i);
        if (!b->has_ik) continue;
        if (b->ik.target >= n)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK bone %u has target %u of %u", i, b->ik.target, n);
        if (b->ik.link_count && !b->ik.links)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK bone %u has %u links but no array", i,
                            b->ik.link_count);
        if (!isfinite(b->ik.limit_angle))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK bone %u has a non-finite limit angle", i);
        for (uint32_t k = 0; k < b->ik.link_count; k++) {
            const pm_ik_link *l = &b->ik.links[k];
            if (l->bone >= n)
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK bone %u link %u is bone %u of %u", i, k, l->bone,
                                n);
            if (l->has_limit && (!finite3(l->limit_min) || !finite3(l->limit_max)))
                return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK bone %u link %u has non-finite limits", i, k);
        }
    }
    /* parent cycles would make the rest-position walk below loop forever. Marking walk, O(n) (walking up
     * from every bone was O(n * depth): seconds for a 65 536-bone chain, found by the hostile tests) */
    if (!n) return PM_OK;
    uint8_t *state = pmi_alloc_array(al, n, 1, err, "pose: workspace");
    if (!state) return PM_ERR_OUT_OF_MEMORY;
    pm_result r = PM_OK;
    for (uint32_t i = 0; i < n && r == PM_OK; i++) {
        uint32_t j = i;
        while (j != PM_NO_INDEX && state[j] == 0) state[j] = 1, j = sk->bones[j].parent;
        if (j != PM_NO_INDEX && state[j] == 1)
            r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u is in a parent cycle", j);
        for (j = i; j != PM_NO_INDEX && state[j] == 1; j = sk->bones[j].parent) state[j] = 2;
    }
    pmi_free(al, state);
    return r;
}

static bool layer_less(uint32_t a, uint32_t b, const void *bones) {
    return ((const pm_bone *)bones)[a].transform_order < ((const pm_bone *)bones)[b].transform_order;
}

static void init_bones(pm_pose_workspace *ws) {
    const pm_skeleton *sk = ws->skeleton;
    const uint32_t n = ws->bone_count;
    for (uint32_t i = 0; i < n; i++) {
        const pm_bone *b = &sk->bones[i];
        pmi_bone *o = &ws->bones[i];
        o->parent = b->parent;
        o->ik = PM_NO_INDEX;
        o->after_physics = (b->flags & PM_BONE_AFTER_PHYSICS) != 0;
        pm_vec3 r = b->position;
        if (b->parent != PM_NO_INDEX) r = pmi_vec3_sub(r, sk->bones[b->parent].position);
        o->rest[0] = r.x, o->rest[1] = r.y, o->rest[2] = r.z;
        o->append_src = PM_NO_INDEX;
        if ((b->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) && b->append_parent != PM_NO_INDEX) {
            o->append_src = b->append_parent;
            o->append_flags = (uint8_t)(((b->flags & PM_BONE_APPEND_ROTATE) ? PMI_APPEND_ROT : 0) |
                                        ((b->flags & PM_BONE_APPEND_TRANSLATE) ? PMI_APPEND_POS : 0) |
                                        ((b->flags & PM_BONE_LOCAL_APPEND) ? PMI_APPEND_LOCAL : 0));
            o->append_ratio = b->append_ratio;
        }
        if (b->flags & PM_BONE_FIXED_AXIS) {
            o->has_axis = 1;
            o->axis = pmi_dv_normalize(pmi_dv_make(b->fixed_axis.x, b->fixed_axis.y, b->fixed_axis.z));
        }
    }
    /* children in index order (CSR) */
    uint32_t *count = ws->stack;
    memset(count, 0, (size_t)n * sizeof *count);
    for (uint32_t i = 0; i < n; i++)
        if (ws->bones[i].parent != PM_NO_INDEX) count[ws->bones[i].parent]++;
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        ws->bones[i].child_first = at;
        at += count[i];
        count[i] = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = ws->bones[i].parent;
        if (p != PM_NO_INDEX) ws->children[ws->bones[p].child_first + ws->bones[p].child_count++] = i;
    }
    /* model-space rest positions as Babylon accumulates its absolute bind matrices (root first) */
    for (uint32_t r = 0; r < n; r++) {
        if (ws->bones[r].parent != PM_NO_INDEX) continue;
        uint32_t top = 0;
        ws->stack[top++] = r;
        memcpy(ws->bones[r].bind, ws->bones[r].rest, sizeof ws->bones[r].bind);
        while (top) {
            uint32_t b = ws->stack[--top];
            const pmi_bone *pb = &ws->bones[b];
            for (uint32_t c = 0; c < pb->child_count; c++) {
                pmi_bone *cb = &ws->bones[ws->children[pb->child_first + c]];
                for (int k = 0; k < 3; k++) cb->bind[k] = (float)((double)cb->rest[k] + pb->bind[k]);
                ws->stack[top++] = ws->children[pb->child_first + c];
            }
        }
    }
    /* evaluation order */
    for (uint32_t i = 0; i < n; i++) ws->order[i] = i;
    /* stable by transform order, as babylon-mmd sorts with Array.prototype.sort */
    pmi_sort_indices(ws->order, ws->stack, n, layer_less, sk->bones);
    /* IK solvers and links */
    uint32_t li = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pm_bone *b = &sk->bones[i];
        if (!b->has_ik) continue;
        pmi_ik *ik = &ws->iks[ws->ik_count];
        ws->bones[i].ik = ws->ik_count++;
        ik->bone = i;
        ik->target = b->ik.target;
        ik->iterations = b->ik.loop_count < PM_POSE_MAX_IK_ITERATIONS ? b->ik.loop_count : PM_POSE_MAX_IK_ITERATIONS;
        ik->limit_angle = b->ik.limit_angle;
        ik->link_first = li;
        ik->link_count = b->ik.link_count;
        for (uint32_t k = 0; k < b->ik.link_count; k++, li++) {
            pmi_ik_link_init(&ws->links[li], &b->ik.links[k]);
            ws->bones[b->ik.links[k].bone].is_link = 1;
        }
        ws->ik_prop[i] = 1;
        ws->ik_on[i] = 1;
    }
    ws->link_count = li;
}

pm_result pm_pose_workspace_create(const pm_skeleton *skeleton, const pm_allocator *allocator,
                                   pm_pose_workspace **out, pm_error *err) {
    if (out) *out = NULL;
    if (!skeleton || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: pm_pose_workspace_create needs a skeleton and an output");
    pm_allocator al = {0};
    if (allocator) al = *allocator;
    pm_result res = check_skeleton(skeleton, &al, err);
    if (res != PM_OK) return res;
    pm_pose_workspace *ws = pmi_alloc_array(&al, 1, sizeof *ws, err, "pose: workspace");
    if (!ws) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    ws->magic = PMI_WORKSPACE_MAGIC;
    ws->allocator = al;
    ws->skeleton = skeleton;
    const uint32_t n = ws->bone_count = skeleton->bone_count;
    uint32_t links = 0;
    for (uint32_t i = 0; i < n; i++)
        if (skeleton->bones[i].has_ik) links += skeleton->bones[i].ik.link_count;
#define WS_ALLOC(ptr, count)                                                                                           \
    do {                                                                                                               \
        (ptr) = pmi_alloc_array(&al, (size_t)(count) + 1, sizeof *(ptr), err, "pose: workspace");                     \
        if (!(ptr)) goto fail;                                                                                         \
    } while (0)
    WS_ALLOC(ws->bones, n);
    WS_ALLOC(ws->st, n);
    WS_ALLOC(ws->order, n);
    WS_ALLOC(ws->children, n);
    WS_ALLOC(ws->stack, n);
    WS_ALLOC(ws->cursor, n);
    WS_ALLOC(ws->ik_mode, n);
    WS_ALLOC(ws->ik_prop, n);
    WS_ALLOC(ws->ik_on, n);
    WS_ALLOC(ws->iks, n);
    WS_ALLOC(ws->links, links);
    WS_ALLOC(ws->path_of_link, links);
    WS_ALLOC(ws->prev_ik_rot, links);
    WS_ALLOC(ws->sampled, n);
    WS_ALLOC(ws->run, n);
    init_bones(ws);
    pm_pose_set_subset(ws, NULL);
    {
        /* plan the IK chains: count, allocate, fill */
        uint8_t *mark = pmi_alloc_array(&al, (size_t)n + 1, 1, err, "pose: workspace");
        if (!mark) goto fail;
        uint32_t total = 0;
        for (uint32_t i = 0; i < ws->ik_count; i++) total += pmi_ik_plan(ws, &ws->iks[i], NULL, 0, mark);
        ws->path = pmi_alloc_array(&al, (size_t)total + 1, sizeof *ws->path, err, "pose: workspace");
        if (ws->path)
            for (uint32_t i = 0, at = 0; i < ws->ik_count; i++) at += pmi_ik_plan(ws, &ws->iks[i], ws->path, at, mark);
        pmi_free(&al, mark);
        if (!ws->path) goto fail;
    }
#undef WS_ALLOC
    for (uint32_t i = 0; i < n; i++) {
        ws->st[i].rot = ws->st[i].ik_rot = ws->st[i].local_rot = ws->st[i].app_rot = ws->st[i].fin_rot =
            pmi_dq_identity();
        ws->st[i].pos = pmi_dv_from_floats(ws->bones[i].rest);
    }
    *out = ws;
    return PM_OK;
fail:
    res = err ? err->type : PM_ERR_OUT_OF_MEMORY;
    pm_pose_workspace_free(ws);
    return res;
}

pm_result pm_pose_set_ik_mode(pm_pose_workspace *ws, uint32_t ik_bone, pm_ik_mode mode, pm_error *err) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: pm_pose_set_ik_mode needs a workspace");
    if (ik_bone >= ws->bone_count || ws->bones[ik_bone].ik == PM_NO_INDEX)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u has no IK", ik_bone);
    if ((unsigned)mode >= PM_IK_MODE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: IK mode %d is not a pm_ik_mode", (int)mode);
    ws->ik_mode[ik_bone] = (uint8_t)mode;
    return PM_OK;
}

void pm_pose_set_subset(pm_pose_workspace *ws, const uint8_t *subset) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC) return;
    ws->subset = subset;
    /* the lists the evaluation walks (read once here: a call per change of the mask) */
    ws->sampled_count = ws->run_count = 0;
    for (uint32_t i = 0; i < ws->bone_count; i++)
        if (!subset || subset[i]) ws->sampled[ws->sampled_count++] = i;
    for (uint8_t stage = 0; stage < 2; stage++)
        for (uint32_t k = 0; k < ws->bone_count; k++) {
            const uint32_t b = ws->order[k];
            if (ws->bones[b].after_physics == stage && (!subset || subset[b])) ws->run[ws->run_count++] = b;
        }
}

bool pm_pose_ik_enabled(const pm_pose_workspace *ws, uint32_t ik_bone) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC || ik_bone >= ws->bone_count) return false;
    return ws->bones[ik_bone].ik != PM_NO_INDEX && ws->ik_on[ik_bone];
}

/* ---- poses ------------------------------------------------------------------------------------- */

typedef struct pmi_pose_alloc {
    pm_pose pose;
    pm_allocator allocator;
} pmi_pose_alloc;

pm_result pm_pose_create(const pm_skeleton *skeleton, const pm_allocator *allocator, pm_pose **out, pm_error *err) {
    if (out) *out = NULL;
    if (!skeleton || !out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: pm_pose_create needs a skeleton");
    pm_allocator al = {0};
    if (allocator) al = *allocator;
    const size_t n = skeleton->bone_count;
    /* one block: header, then the five arrays (each element size is a multiple of 4) */
    size_t per = 2 * sizeof(pm_vec3) + 2 * sizeof(pm_quat) + sizeof(pm_mat4);
    pmi_pose_alloc *p = pmi_alloc_array(&al, 1, sizeof *p + n * per, err, "pose: pose buffers");
    if (!p) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    p->allocator = al;
    uint8_t *at = (uint8_t *)(p + 1);
    pm_pose *pose = &p->pose;
    pose->bone_count = (uint32_t)n;
    pose->world = (pm_mat4 *)at, at += n * sizeof(pm_mat4);
    pose->rotation = (pm_quat *)at, at += n * sizeof(pm_quat);
    pose->final_rotation = (pm_quat *)at, at += n * sizeof(pm_quat);
    pose->translation = (pm_vec3 *)at, at += n * sizeof(pm_vec3);
    pose->final_translation = (pm_vec3 *)at;
    for (size_t i = 0; i < n; i++) {
        pose->rotation[i] = pose->final_rotation[i] = pmi_quat_identity();
        pm_vec3 pos = skeleton->bones ? skeleton->bones[i].position : pmi_vec3_make(0, 0, 0);
        pose->world[i] = pm_mat4_from_rotation_translation(pmi_quat_identity(), pos);
    }
    *out = pose;
    return PM_OK;
}

void pm_pose_free(pm_pose *pose) {
    if (!pose) return;
    pmi_pose_alloc *p = (pmi_pose_alloc *)pose; /* the pose is the first member */
    pm_allocator al = p->allocator;
    pmi_free(&al, p);
}

pm_vec3 pm_pose_world_position(const pm_pose *pose, uint32_t bone) {
    if (!pose || !pose->world || bone >= pose->bone_count) return pmi_vec3_make(0, 0, 0);
    return pmi_mat4_get_translation(&pose->world[bone]);
}

/* ---- sampling ---------------------------------------------------------------------------------- */

static uint32_t upper_bound(const uint32_t *frames, uint32_t n, double t, uint32_t *cursor) {
    uint32_t i = *cursor;
    if (i <= n && (i == 0 || frames[i - 1] <= t) && (i == n || t < frames[i])) return i;
    if (i < n && frames[i] <= t && (i + 1 == n || t < frames[i + 1])) return *cursor = i + 1;
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + ((hi - lo) >> 1);
        if (t < frames[mid]) hi = mid;
        else lo = mid + 1;
    }
    return *cursor = lo;
}

/* babylon-mmd's BezierInterpolate of a key's curve (x1, y1, x2, y2 bytes) in double (pm_bezier_eval_mmd
 * rounds to float), through the workspace's memo of solves: the parameter depends on the X handles and x
 * alone, and a motion's keys share a few X handles (key fitting picks from five pairs) and its bones share
 * key frames, so one solve serves many curves (same inputs, same bits). */
static double bezier_memo(pm_pose_workspace *ws, const uint8_t *c, double x) {
    const uint32_t cx = (uint32_t)c[0] | (uint32_t)c[2] << 8;
    uint64_t xb;
    memcpy(&xb, &x, sizeof xb);
    const uint64_t h = (xb ^ (xb >> 29) ^ cx * 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    pmi_curve_memo *m = &ws->curve_memo[(h >> 58) & (PMI_CURVE_MEMO - 1)];
    if (!(m->valid && m->cx == cx && m->x == x)) {
        m->valid = true, m->cx = cx, m->x = x;
        pmi_bezier_mmd_solve(c[0] / 127.0, c[2] / 127.0, x, m->w);
    }
    return pmi_bezier_mmd_y(m->w, c[1] / 127.0, c[3] / 127.0);
}

static void sample_track(pm_pose_workspace *ws, const pm_anim *anim, const pmi_track *tr, double frame,
                         uint32_t *cursor, pmi_bone_state *st) {
    const uint32_t *fr = anim->frames + tr->first;
    const uint32_t n = tr->count;
    double t = frame < fr[0] ? fr[0] : frame > fr[n - 1] ? fr[n - 1] : frame;
    uint32_t ub = upper_bound(fr, n, t, cursor);
    uint32_t a = tr->first + (ub ? ub - 1 : 0);
    const float *pa = anim->positions + (size_t)a * 3, *ra = anim->rotations + (size_t)a * 4;
    if (ub >= n || ub == 0) {
        st->off = pmi_dv_from_floats(pa);
        pmi_dq q = {ra[0], ra[1], ra[2], ra[3]};
        st->rot = q;
        return;
    }
    const uint32_t b = a + 1;
    const float *pb = anim->positions + (size_t)b * 3, *rb = anim->rotations + (size_t)b * 4;
    const uint8_t *cb = anim->curves + (size_t)b * 16;
    double g = (t - fr[ub - 1]) / ((double)fr[ub] - fr[ub - 1]);
    /* channels often share a curve: solve each distinct one once. A position channel equal in both keys
     * needs no solve: its weight multiplies (pb - pa) = +-0, and any weight (always > 0) gives pa + +-0,
     * the same bits as a weight of 0 (rotation-only keys are the common case) */
    double w[4];
    const bool need[4] = {pa[0] != pb[0], pa[1] != pb[1], pa[2] != pb[2], true};
    for (int ch = 0; ch < 4; ch++) {
        w[ch] = 0;
        if (!need[ch]) continue;
        int same = -1;
        for (int j = 0; j < ch && same < 0; j++)
            if (need[j] && memcmp(cb + 4 * j, cb + 4 * ch, 4) == 0) same = j;
        w[ch] = same >= 0 ? w[same] : bezier_memo(ws, cb + 4 * ch, g);
    }
    const double wr = w[3];
    st->off.x = pa[0] + ((double)pb[0] - pa[0]) * w[0];
    st->off.y = pa[1] + ((double)pb[1] - pa[1]) * w[1];
    st->off.z = pa[2] + ((double)pb[2] - pa[2]) * w[2];
    pmi_dq qa = {ra[0], ra[1], ra[2], ra[3]}, qb = {rb[0], rb[1], rb[2], rb[3]};
    st->rot = pmi_dq_slerp(qa, qb, wr);
}

static pm_result check_ws_pose(const pm_pose_workspace *ws, const pm_pose *pose, pm_error *err) {
    if (!ws || ws->magic != PMI_WORKSPACE_MAGIC)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: no workspace (use pm_pose_workspace_create)");
    if (!pose || pose->bone_count != ws->bone_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: the pose has %u bones, the skeleton %u",
                        pose ? pose->bone_count : 0, ws->bone_count);
    if (ws->bone_count && (!pose->translation || !pose->rotation || !pose->world))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: translation, rotation and world buffers are required");
    return PM_OK;
}

pm_result pm_pose_sample(const pm_anim *anim, pm_pose_workspace *ws, double frame, pm_pose *pose, pm_error *err) {
    pm_result res = check_ws_pose(ws, pose, err);
    if (res != PM_OK) return res;
    if (!isfinite(frame)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: frame is not finite");
    if (anim && (anim->magic != PMI_ANIM_MAGIC || anim->skeleton != ws->skeleton))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: the animation is bound to another skeleton");
    const uint32_t n = ws->bone_count;
    for (uint32_t k = 0; k < ws->sampled_count; k++) { /* the others are not evaluated: left as they are */
        const uint32_t i = ws->sampled[k];
        pmi_bone_state *st = &ws->st[i];
        st->off = pmi_dv_make(0, 0, 0);
        st->rot = pmi_dq_identity();
        if (anim && anim->track_of_bone[i] != PM_NO_INDEX)
            sample_track(ws, anim, &anim->tracks[anim->track_of_bone[i]], frame, &ws->cursor[i], st);
        /* keys near the float limit (or Bezier bytes above 127) can interpolate beyond it: an error naming
         * the bone, never Inf in the pose (found by fuzzing) */
        if (!(fabs(st->off.x) <= FLT_MAX && fabs(st->off.y) <= FLT_MAX && fabs(st->off.z) <= FLT_MAX &&
              fabs(st->rot.x) <= FLT_MAX && fabs(st->rot.y) <= FLT_MAX && fabs(st->rot.z) <= FLT_MAX &&
              fabs(st->rot.w) <= FLT_MAX)) {
            for (uint32_t k = 0; k < n; k++) pose->translation[k] = pmi_vec3_make(0, 0, 0), pose->rotation[k] = pmi_quat_identity();
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "pose: the keys of bone %u (%s) go beyond the float range at frame %g", i,
                            ws->skeleton->bones[i].name.data, frame);
        }
        pose->translation[i] = pmi_vec3_make((float)st->off.x, (float)st->off.y, (float)st->off.z);
        pose->rotation[i] = pmi_dq_to_quat(st->rot);
        if (ws->bones[i].ik != PM_NO_INDEX) ws->ik_prop[i] = 1;
    }
    if (anim && anim->prop_count) {
        const uint32_t *fr = anim->prop_frames;
        double t = frame < fr[0] ? fr[0] : frame > fr[anim->prop_count - 1] ? fr[anim->prop_count - 1] : frame;
        uint32_t cur = 0;
        uint32_t step = upper_bound(fr, anim->prop_count, t, &cur) - 1;
        const uint8_t *row = anim->prop_states + (size_t)step * anim->prop_ik_count;
        for (uint32_t c = 0; c < anim->prop_ik_count; c++) ws->ik_prop[anim->prop_ik_bone[c]] = row[c];
    }
    return PM_OK;
}

/* ---- evaluation -------------------------------------------------------------------------------- */

static inline float *world_of(pm_pose_workspace *ws, uint32_t b) { return ws->world + (size_t)b * 16; }

/* MmdRuntimeBone.getAnimatedRotationToRef: the animated rotation, projected on the fixed axis. */
static pmi_dq animated_rotation(const pm_pose_workspace *ws, uint32_t b) {
    const pmi_bone *bone = &ws->bones[b];
    pmi_dq q = ws->st[b].rot;
    if (!bone->has_axis) return q;
    pmi_dv axis = bone->axis;
    if (axis.x == 0 && axis.y == 0 && axis.z == 0) return pmi_dq_identity();
    /* QuaternionToAxisAngle */
    pmi_dv anim_axis = pmi_dv_make(q.x, q.y, q.z);
    double len = sqrt(pmi_dv_len_sq(anim_axis)), angle = 0;
    if (len >= 1.0e-8) {
        angle = 2.0 * atan2(len, q.w);
        double s = 1.0 / len;
        anim_axis = pmi_dv_make(anim_axis.x * s, anim_axis.y * s, anim_axis.z * s);
    } else {
        anim_axis = pmi_dv_make(1, 0, 0);
    }
    if (pmi_dv_dot(anim_axis, axis) < 0) angle = -angle;
    return pmi_dq_axis_angle(axis, angle);
}

/* getAnimationPositionOffsetToRef: linkedBone.position - rest, rounded as babylon-mmd does. */
static inline pmi_dv animated_offset(const pm_pose_workspace *ws, uint32_t b) {
    const float *r = ws->bones[b].rest;
    pmi_dv p = ws->st[b].pos;
    return pmi_dv_make(p.x - r[0], p.y - r[1], p.z - r[2]);
}

/* AppendTransformSolver.update */
static void append_update(pm_pose_workspace *ws, uint32_t b, pmi_dq *rot, pmi_dv *off) {
    const pmi_bone *bone = &ws->bones[b];
    const uint32_t src = bone->append_src;
    const pmi_bone *sb = &ws->bones[src];
    pmi_bone_state *st = &ws->st[b];
    const pmi_bone_state *ss = &ws->st[src];
    const bool local = bone->append_flags & PMI_APPEND_LOCAL;
    const double ratio = bone->append_ratio;
    if (bone->append_flags & PMI_APPEND_ROT) {
        pmi_dq ar;
        if (local) ar = pmi_dq_from_mat(world_of(ws, src));
        else if (sb->append_src != PM_NO_INDEX && (sb->append_flags & PMI_APPEND_ROT)) ar = ss->app_rot;
        else ar = animated_rotation(ws, src);
        if (sb->is_link && !local) ar = pmi_dq_mul(ss->ik_rot, ar);
        if (ratio != 1) ar = pmi_dq_slerp(pmi_dq_identity(), ar, ratio);
        st->app_rot = pmi_dq_mul(*rot, ar);
        *rot = st->app_rot;
    }
    if (bone->append_flags & PMI_APPEND_POS) {
        pmi_dv ap;
        if (local) {
            const float *w = world_of(ws, src);
            ap = pmi_dv_make((float)((double)w[12] - sb->bind[0]), (float)((double)w[13] - sb->bind[1]),
                             (float)((double)w[14] - sb->bind[2]));
        } else if (sb->append_src != PM_NO_INDEX && (sb->append_flags & PMI_APPEND_POS)) {
            ap = ss->app_pos;
        } else {
            ap = animated_offset(ws, src);
        }
        if (ratio != 1) ap = pmi_dv_make(ap.x * ratio, ap.y * ratio, ap.z * ratio);
        st->app_pos = pmi_dv_make(ap.x + off->x, ap.y + off->y, ap.z + off->z);
        *off = st->app_pos;
    }
}

/* World matrix from a local rotation and offset and the parent's world matrix. */
static void compose_world(pm_pose_workspace *ws, uint32_t b, pmi_dq rot, pmi_dv off) {
    const pmi_bone *bone = &ws->bones[b];
    pmi_world_from_local(rot, bone->rest[0] + off.x, bone->rest[1] + off.y, bone->rest[2] + off.z,
                         bone->parent != PM_NO_INDEX ? world_of(ws, bone->parent) : NULL, world_of(ws, b));
    ws->st[b].fin_rot = rot;
    ws->st[b].fin_pos = off;
}

/* MmdRuntimeBone.updateWorldMatrix(usePhysics = false, computeIk) */
void pmi_pose_update_bone(pm_pose_workspace *ws, uint32_t b, bool compute_ik) {
    const pmi_bone *bone = &ws->bones[b];
    pmi_bone_state *st = &ws->st[b];
    pmi_dq rot = animated_rotation(ws, b);
    pmi_dv off = animated_offset(ws, b);
    if (bone->append_src != PM_NO_INDEX && !(ws->flags & PM_POSE_NO_APPEND)) append_update(ws, b, &rot, &off);
    if (bone->is_link) {
        st->local_rot = rot;
        st->local_pos = off;
        rot = pmi_dq_mul(st->ik_rot, rot);
    }
    compose_world(ws, b, rot, off);
    if (compute_ik && bone->ik != PM_NO_INDEX) pmi_ik_solve(ws, &ws->iks[bone->ik]);
}

void pmi_pose_update_translation(pm_pose_workspace *ws, uint32_t b) {
    const pmi_bone *bone = &ws->bones[b];
    if (bone->append_src != PM_NO_INDEX && (bone->append_flags & PMI_APPEND_POS) && !(ws->flags & PM_POSE_NO_APPEND)) {
        pmi_pose_update_bone(ws, b, false); /* the offset depends on the append source: the whole update */
        return;
    }
    const pmi_dv off = animated_offset(ws, b);
    pmi_world_translation_from_local(bone->rest[0] + off.x, bone->rest[1] + off.y, bone->rest[2] + off.z,
                                     bone->parent != PM_NO_INDEX ? world_of(ws, bone->parent) : NULL, world_of(ws, b));
}

/* For each child: _updateWorldMatrixRecursive (a depth-first walk with an explicit stack). */
void pmi_pose_update_children(pm_pose_workspace *ws, uint32_t b) {
    const pmi_bone *bone = &ws->bones[b];
    for (uint32_t c = 0; c < bone->child_count; c++) {
        uint32_t top = 0;
        ws->stack[top++] = ws->children[bone->child_first + c];
        while (top) {
            uint32_t x = ws->stack[--top];
            pmi_pose_update_bone(ws, x, false);
            const pmi_bone *xb = &ws->bones[x];
            for (uint32_t k = 0; k < xb->child_count && top < ws->bone_count; k++)
                ws->stack[top++] = ws->children[xb->child_first + k];
        }
    }
}

/* Take the caller's pose->translation / rotation; keep our double values where the pose still holds
 * their float rounding (so sample + evaluate rounds like babylon-mmd). `sampled`: the pose holds what
 * pm_pose_sample just wrote from our own (finite) values, so there is nothing to check or take. */
static pm_result load_inputs(pm_pose_workspace *ws, const pm_pose *pose, const pm_pose_options *opts, bool sampled,
                             pm_error *err) {
    pm_result res = check_ws_pose(ws, pose, err);
    if (res != PM_OK) return res;
    ws->world = (float *)pose->world;
    ws->flags = opts ? opts->flags : 0;
    uint32_t max = opts && opts->max_ik_iterations ? opts->max_ik_iterations : PM_POSE_MAX_IK_ITERATIONS;
    ws->max_iterations = max < PM_POSE_MAX_IK_ITERATIONS ? max : PM_POSE_MAX_IK_ITERATIONS;
    if (sampled) {
        for (uint32_t k = 0; k < ws->sampled_count; k++) {
            const uint32_t i = ws->sampled[k];
            pmi_bone_state *st = &ws->st[i];
            const float *r = ws->bones[i].rest;
            st->pos = pmi_dv_make(r[0] + st->off.x, r[1] + st->off.y, r[2] + st->off.z);
        }
        return PM_OK;
    }
    for (uint32_t i = 0; i < ws->bone_count; i++) {
        pmi_bone_state *st = &ws->st[i];
        pm_vec3 t = pose->translation[i];
        pm_quat q = pose->rotation[i];
        if (!finite3(t) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u has a non-finite translation or rotation", i);
        if ((float)st->off.x != t.x || (float)st->off.y != t.y || (float)st->off.z != t.z)
            st->off = pmi_dv_make(t.x, t.y, t.z);
        pm_quat mine = pmi_dq_to_quat(st->rot);
        if (mine.x != q.x || mine.y != q.y || mine.z != q.z || mine.w != q.w) st->rot = pmi_dq_from_quat(q);
        const float *r = ws->bones[i].rest;
        st->pos = pmi_dv_make(r[0] + st->off.x, r[1] + st->off.y, r[2] + st->off.z);
    }
    return PM_OK;
}

static void store_finals(const pm_pose_workspace *ws, pm_pose *pose) {
    if (!pose->final_rotation && !pose->final_translation) return;
    for (uint32_t i = 0; i < ws->bone_count; i++) {
        const pmi_bone_state *st = &ws->st[i];
        if (pose->final_rotation) pose->final_rotation[i] = pm_quat_normalize(pmi_dq_to_quat(st->fin_rot));
        if (pose->final_translation)
            pose->final_translation[i] = pmi_vec3_make((float)st->fin_pos.x, (float)st->fin_pos.y, (float)st->fin_pos.z);
    }
}

static pm_result evaluate_local(pm_pose_workspace *ws, pm_pose *pose, const pm_pose_options *opts, bool sampled,
                                pm_error *err) {
    pm_result res = load_inputs(ws, pose, opts, sampled, err);
    if (res != PM_OK) return res;
    const uint32_t n = ws->bone_count;
    /* resetTransformState */
    const uint8_t *keep = (ws->flags & PM_POSE_KEEP_OTHERS) ? ws->subset : NULL;
    for (uint32_t i = 0; i < n; i++) {
        pmi_bone_state *st = &ws->st[i];
        if (!keep || keep[i]) pmi_mat_identity(world_of(ws, i));
        st->ik_rot = st->local_rot = st->app_rot = pmi_dq_identity();
        st->local_pos = st->app_pos = pmi_dv_make(0, 0, 0);
        if (ws->bones[i].ik != PM_NO_INDEX) {
            uint8_t mode = ws->ik_mode[i];
            ws->ik_on[i] = (ws->flags & PM_POSE_NO_IK) ? 0
                           : mode == PM_IK_FORCE_ON ? 1
                           : mode == PM_IK_FORCE_OFF ? 0
                                                      : ws->ik_prop[i];
        }
    }
    for (uint32_t k = 0; k < ws->run_count; k++) {
        const uint32_t b = ws->run[k];
        pmi_pose_update_bone(ws, b, ws->bones[b].ik == PM_NO_INDEX || ws->ik_on[b]);
    }
    store_finals(ws, pose);
    return PM_OK;
}

pm_result pm_pose_evaluate_local(pm_pose_workspace *ws, pm_pose *pose, const pm_pose_options *opts, pm_error *err) {
    return evaluate_local(ws, pose, opts, false, err);
}

pm_result pm_pose_evaluate(const pm_anim *anim, pm_pose_workspace *ws, double frame, pm_pose *pose,
                           const pm_pose_options *opts, pm_error *err) {
    pm_result res = pm_pose_sample(anim, ws, frame, pose, err);
    if (res != PM_OK) return res;
    return evaluate_local(ws, pose, opts, true, err);
}

pm_result pm_pose_update_subtree(pm_pose_workspace *ws, pm_pose *pose, uint32_t bone, const pm_pose_options *opts,
                                 pm_error *err) {
    pm_result res = load_inputs(ws, pose, opts, false, err);
    if (res != PM_OK) return res;
    if (bone >= ws->bone_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u of %u", bone, ws->bone_count);
    pmi_pose_update_bone(ws, bone, false);
    pmi_pose_update_children(ws, bone);
    store_finals(ws, pose);
    return PM_OK;
}

pm_result pm_pose_solve_ik(pm_pose_workspace *ws, pm_pose *pose, uint32_t ik_bone, const pm_pose_options *opts,
                           pm_error *err) {
    pm_result res = load_inputs(ws, pose, opts, false, err);
    if (res != PM_OK) return res;
    if (ik_bone >= ws->bone_count || ws->bones[ik_bone].ik == PM_NO_INDEX)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone %u has no IK", ik_bone);
    pmi_ik_solve(ws, &ws->iks[ws->bones[ik_bone].ik]);
    store_finals(ws, pose);
    return PM_OK;
}

/* ---- subsets ----------------------------------------------------------------------------------- */

pm_result pm_pose_subset(const pm_skeleton *sk, const uint32_t *bones, uint32_t count, uint8_t *mask,
                         const pm_allocator *allocator, pm_error *err) {
    if (!sk || !mask || (count && !bones)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: pm_pose_subset needs a skeleton and a mask");
    const uint32_t n = sk->bone_count;
    pm_allocator al = {0};
    if (allocator) al = *allocator;
    /* which chains have each bone as a link (CSR), and a work stack */
    size_t links = 0;
    for (uint32_t b = 0; b < n; b++)
        if (sk->bones[b].has_ik) links += sk->bones[b].ik.link_count;
    uint32_t *first = pmi_alloc_array(&al, (size_t)n + 1, sizeof *first, err, "pose: subset");
    uint32_t *chain = first ? pmi_alloc_array(&al, links + 1, sizeof *chain, err, "pose: subset") : NULL;
    /* each bone is pushed at most once per reason: parent, append, and once per chain it takes part in */
    size_t cap = 2 * (size_t)n + 3 * links + count + 1;
    uint32_t *stack = chain ? pmi_alloc_array(&al, cap, sizeof *stack, err, "pose: subset") : NULL;
    if (!stack) {
        pmi_free(&al, first);
        pmi_free(&al, chain);
        return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t b = 0; b < n; b++)
        if (sk->bones[b].has_ik)
            for (uint32_t k = 0; k < sk->bones[b].ik.link_count; k++)
                if (sk->bones[b].ik.links[k].bone < n) first[sk->bones[b].ik.links[k].bone + 1]++;
    for (uint32_t b = 0; b < n; b++) first[b + 1] += first[b];
    uint32_t *fill = stack; /* borrowed as the fill cursor */
    for (uint32_t b = 0; b < n; b++) fill[b] = first[b];
    for (uint32_t b = 0; b < n; b++)
        if (sk->bones[b].has_ik)
            for (uint32_t k = 0; k < sk->bones[b].ik.link_count; k++)
                if (sk->bones[b].ik.links[k].bone < n) chain[fill[sk->bones[b].ik.links[k].bone]++] = b;
    size_t top = 0;
    for (uint32_t i = 0; i < count; i++)
        if (bones[i] < n) stack[top++] = bones[i];
    uint8_t *done = pmi_alloc_array(&al, (size_t)n + 1, 1, err, "pose: subset"); /* chains already pushed */
    if (!done) {
        pmi_free(&al, first), pmi_free(&al, chain), pmi_free(&al, stack);
        return PM_ERR_OUT_OF_MEMORY;
    }
    while (top) {
        const uint32_t b = stack[--top];
        if (b >= n || mask[b]) continue;
        mask[b] = 1;
        const pm_bone *bone = &sk->bones[b];
        if (bone->parent < n && !mask[bone->parent] && top < cap) stack[top++] = bone->parent;
        if ((bone->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) && bone->append_parent < n &&
            !mask[bone->append_parent] && top < cap)
            stack[top++] = bone->append_parent;
        /* a chain that turns this bone: its IK bone, target and links */
        for (uint32_t c = first[b]; c < first[b + 1]; c++) {
            const uint32_t ik = chain[c];
            if (done[ik]) continue;
            done[ik] = 1;
            const pm_bone *ib = &sk->bones[ik];
            if (top < cap) stack[top++] = ik;
            if (ib->ik.target < n && top < cap) stack[top++] = ib->ik.target;
            for (uint32_t k = 0; k < ib->ik.link_count && top < cap; k++) stack[top++] = ib->ik.links[k].bone;
        }
    }
    pmi_free(&al, done);
    pmi_free(&al, first);
    pmi_free(&al, chain);
    pmi_free(&al, stack);
    return PM_OK;
}
