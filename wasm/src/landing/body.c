/* The whole body as MMD plays a motion: hand clearance from the body capsules, wrist range, head turn,
 * pelvis speed and the loop's seam (procmotion/landing.h, pm_landing_measure_body). */
#include "common/internal.h"
#include "math/inline.h"
#include "procmotion/landing.h"
#include "procmotion/pose.h"

#include <math.h>

static pmi_dv point_of(const pm_mat4 *w, pmi_dv rel) {
    const float *m = w->m;
    return pmi_dv_make(m[0] * rel.x + m[4] * rel.y + m[8] * rel.z + m[12], m[1] * rel.x + m[5] * rel.y + m[9] * rel.z + m[13],
                       m[2] * rel.x + m[6] * rel.y + m[10] * rel.z + m[14]);
}

/* The angle between two rotation matrices' frames, degrees. */
static double angle_between(const pm_mat4 *a, const pm_mat4 *b) {
    double tr = 0;
    for (int c = 0; c < 3; c++) {
        const float *x = a->m + 4 * c, *y = b->m + 4 * c;
        double la = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
        double lb = sqrt((double)y[0] * y[0] + (double)y[1] * y[1] + (double)y[2] * y[2]);
        if (la > 0 && lb > 0) tr += ((double)x[0] * y[0] + (double)x[1] * y[1] + (double)x[2] * y[2]) / (la * lb);
    }
    double c = 0.5 * (tr - 1);
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    return acos(c) * (180.0 / PM_PI);
}

pm_result pm_landing_measure_body(const pm_rig *rig, const pm_vmd *vmd, uint32_t frames, const pm_landing_body_options *opts,
                                  pm_landing_body_report *rep, pm_error *err) {
    if (!rig || !rig->skeleton || !vmd || !rep)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: pm_landing_measure_body needs a rig, a motion and a report");
    if (frames > PM_LANDING_MAX_FRAMES)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "landing: %u frames (at most %u)", (unsigned)frames, PM_LANDING_MAX_FRAMES);
    pm_landing_body_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    memset(rep, 0, sizeof *rep);
    rep->frames = frames;
    const pm_skeleton *sk = rig->skeleton;
    const uint32_t n = sk->bone_count;
    pm_rig_capsule caps[PM_RIG_CAPSULE_COUNT];
    pm_rig_body_capsules(rig, caps);
    bool any_capsule = false;
    for (int c = 0; c < PM_RIG_CAPSULE_COUNT; c++) any_capsule |= caps[c].present;
    rep->hands = any_capsule && rig->arms[0].present && rig->arms[1].present;
    /* the hand points: the wrist and, when the model has one, the middle finger's last joint */
    uint32_t hand_bones[2][2];
    for (int s = 0; s < 2; s++) {
        hand_bones[s][0] = rig->arms[s].present ? rig->arms[s].wrist : PM_NO_INDEX;
        hand_bones[s][1] = rig->roles.bone[PM_RIG_SIDED(PM_RIG_LEFT_MIDDLE3, s)];
        rep->hand_clearance[s] = INFINITY;
    }
    uint32_t head = rig->roles.bone[PM_RIG_HEAD];
    uint32_t pelvis = rig->roles.bone[PM_RIG_LOWER_BODY];

    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_anim_bind_options bo = {.allocator = o.allocator};
    double *first = NULL; /* [n * 3] frame 0's positions */
    double wmin[2][3] = {{0}}, wmax[2][3] = {{0}};
    pm_mat4 head0;
    pmi_dv prev_pelvis = {0, 0, 0};
    pm_result r = pm_anim_bind(sk, vmd, &bo, &anim, err);
    if (r == PM_OK) r = pm_pose_workspace_create(sk, &o.allocator, &ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, &o.allocator, &pose, err);
    if (r == PM_OK && !(first = pmi_alloc_array(&o.allocator, (size_t)n * 3 + 1, sizeof(double), err, "landing: body")))
        r = PM_ERR_OUT_OF_MEMORY;
    for (uint32_t f = 0; f <= frames && r == PM_OK; f++) {
        if ((r = pm_pose_evaluate(anim, ws, f, pose, NULL, err)) != PM_OK) break;
        const pm_mat4 *W = pose->world;
        /* hands against the capsules */
        for (int s = 0; s < 2 && rep->hands; s++)
            for (int k = 0; k < 2; k++) {
                uint32_t hb = hand_bones[s][k];
                if (hb == PM_NO_INDEX) continue;
                pmi_dv p = pmi_dv_make(W[hb].m[12], W[hb].m[13], W[hb].m[14]);
                for (int c = 0; c < PM_RIG_CAPSULE_COUNT; c++) {
                    const pm_rig_capsule *cap = &caps[c];
                    if (!cap->present) continue;
                    pmi_dv e[2];
                    for (int j = 0; j < 2; j++) {
                        pm_vec3 base = sk->bones[cap->bone[j]].position;
                        e[j] = point_of(&W[cap->bone[j]], pmi_dv_make((double)cap->end[j].x - base.x, (double)cap->end[j].y - base.y,
                                                                      (double)cap->end[j].z - base.z));
                    }
                    double d = pmi_dv_segment_distance(p, e[0], e[1]) - cap->radius;
                    if (d < rep->hand_clearance[s]) {
                        rep->hand_clearance[s] = d;
                        rep->clearance_frame[s] = f;
                        rep->clearance_capsule[s] = (pm_rig_capsule_id)c;
                    }
                }
            }
        for (int s = 0; s < 2; s++) {
            uint32_t wb = hand_bones[s][0];
            for (int a = 0; a < 3 && wb != PM_NO_INDEX; a++) {
                double v = W[wb].m[12 + a];
                if (f == 0 || v < wmin[s][a]) wmin[s][a] = v;
                if (f == 0 || v > wmax[s][a]) wmax[s][a] = v;
            }
        }
        /* the head's turn from frame 0 */
        if (head != PM_NO_INDEX) {
            if (f == 0) head0 = W[head];
            double a = angle_between(&head0, &W[head]);
            if (a > rep->head_turn) rep->head_turn = a;
        }
        /* the pelvis's speed */
        pmi_dv pv;
        if (pelvis != PM_NO_INDEX) pv = pmi_dv_make(W[pelvis].m[12], W[pelvis].m[13], W[pelvis].m[14]);
        else if (rig->legs[0].present && rig->legs[1].present) {
            const float *a = W[rig->legs[0].hip].m, *b = W[rig->legs[1].hip].m;
            pv = pmi_dv_make(0.5 * (a[12] + b[12]), 0.5 * (a[13] + b[13]), 0.5 * (a[14] + b[14]));
        } else pv = pmi_dv_make(0, 0, 0);
        if (f > 0) {
            double v = 30.0 * pmi_dv_len(pmi_dv_sub(pv, prev_pelvis));
            if (v > rep->pelvis_speed) rep->pelvis_speed = v;
        }
        prev_pelvis = pv;
        /* the seam */
        for (uint32_t b = 0; b < n && (f == 0 || f == frames); b++) {
            double *q = first + 3 * (size_t)b;
            if (f == 0) {
                q[0] = W[b].m[12], q[1] = W[b].m[13], q[2] = W[b].m[14];
            } else if (o.flags & PM_LANDING_LOOP) {
                double d = sqrt((W[b].m[12] - q[0]) * (W[b].m[12] - q[0]) + (W[b].m[13] - q[1]) * (W[b].m[13] - q[1]) +
                                (W[b].m[14] - q[2]) * (W[b].m[14] - q[2]));
                if (d > rep->loop_gap) rep->loop_gap = d;
            }
        }
    }
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < 3; a++)
            if (wmax[s][a] - wmin[s][a] > rep->wrist_range[s]) rep->wrist_range[s] = wmax[s][a] - wmin[s][a];
    for (int s = 0; s < 2; s++)
        if (!rep->hands) rep->hand_clearance[s] = 0;
    pmi_free(&o.allocator, first);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    return r;
}
