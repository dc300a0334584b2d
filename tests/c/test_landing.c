/* Generators close the loop (procmotion/landing.h): on every zoo model, the mannequin and
 * both PMX fixtures, the catwalk (in place, traverse, U-turn at 60, 128 and 200 BPM, both cadences) and
 * the groove bake put the played ankles on their plan, as the pose evaluator (babylon-mmd's, checked
 * against it in tests/node/landing-babylon.test.mjs) plays them; the reports agree with what the
 * harness (tests/zoo, a full evaluation) measures. PM_TEST_QUICK (valgrind) takes a stride. */
#include "pm_test.h"
#include "every_model.h"

#include "procmotion/catwalk.h"
#include "procmotion/groove.h"
#include "procmotion/landing.h"
#include "procmotion/pmx.h"
#include "procmotion/rig.h"

#include <math.h>
#include <stdlib.h>

typedef struct sweep_worst {
    double error, below, gap, slide, report_vs_harness, loop;
    int strike_off; /* heel strikes more than half a frame from their beat */
    uint32_t runs, ik_off_runs;
} sweep_worst;

/* Ankles (left, right) of a skeleton through its rig. */
static bool ankle_names(const pm_skeleton *sk, const char *names[2]) {
    pm_rig *rig = NULL;
    pm_error err = {0};
    if (pm_rig_analyze(sk, NULL, &rig, &err) != PM_OK) return false;
    bool ok = rig->legs[0].present && rig->legs[1].present;
    if (ok)
        for (int s = 0; s < 2; s++) names[s] = sk->bones[rig->legs[s].ankle].name.data;
    pm_rig_free(rig);
    return ok;
}

/* One catwalk on one model: every figure of "What must hold", measured by the harness. */
static void check_catwalk(const pm_zoo_entry *e, const pm_catwalk_params *p, const char *what, sweep_worst *w) {
    pm_error err = {0};
    pm_target_model m = {0};
    m.skeleton = e->skeleton;
    pm_vmd *v = NULL;
    pm_catwalk_info info;
    pm_catwalk_plan plan;
    PM_CHECK_OK(pm_catwalk_generate_plan(p, &m, &v, &info, &plan, &err), &err);
    if (!v) return;
    const char *names[2];
    PM_CHECK(ankle_names(e->skeleton, names));
    const uint32_t F = info.loop_frames, n1 = F + 1;
    float *played = malloc(sizeof(float) * 6 * n1);
    PM_CHECK_OK(pm_zoo_play(e->skeleton, v, names, 2, 0, 1, n1, played, &err), &err);
    PM_CHECK_MSG(info.verified && info.report.limb_count == 2, "%s %s: not verified", e->id, what);
    /* played ankles on the plan, and the report says what the harness measures */
    size_t worst_at = 0;
    double d = pm_zoo_max_distance(played, plan.ankles, 2 * (size_t)n1, &worst_at);
    PM_CHECK_MSG(d < 0.01, "%s %s: ankle %g from the plan at frame %zu", e->id, what, d, worst_at / 2);
    PM_CHECK_MSG(fabs(d - info.report.max_error) < 1e-6, "%s %s: report %g, harness %g", e->id, what, info.report.max_error, d);
    w->error = fmax(w->error, d);
    w->report_vs_harness = fmax(w->report_vs_harness, fabs(d - info.report.max_error));
    /* no ankle below its standing height; every stance reaches the floor (the stance under way at the
     * loop's end continues the one under way at frame 0) */
    double below = 0, gap = 0;
    for (int s = 0; s < 2; s++) {
        double run_low = INFINITY, first_low = INFINITY;
        bool in = false, first = false;
        for (uint32_t f = 0; f <= F; f++) {
            double h = played[6 * f + 3 * s + 1] - plan.floor[s];
            below = fmax(below, -h);
            bool stance = plan.contact[2 * f + s] != PM_LANDING_SWING;
            if (stance) {
                if (!in) in = true, run_low = h, first = f == 0;
                run_low = fmin(run_low, h);
            }
            if ((!stance || f == F) && in) {
                if (first && f < F) first_low = run_low;
                else gap = fmax(gap, f == F && isfinite(first_low) ? fmin(run_low, first_low) : run_low);
                in = first = false;
            }
        }
    }
    PM_CHECK_MSG(below < 0.01, "%s %s: an ankle %g below its standing height", e->id, what, below);
    PM_CHECK_MSG(gap < 0.01, "%s %s: a stance stays %g above the floor", e->id, what, gap);
    PM_CHECK_MSG(fabs(info.report.penetration - below) < 1e-6 && info.report.stance_gap < 0.01, "%s %s: report %g / %g", e->id,
                 what, info.report.penetration, info.report.stance_gap);
    w->below = fmax(w->below, below);
    w->gap = fmax(w->gap, gap);
    /* walking in the world, the stance foot's pivot holds still (0.005 a frame on a model of the standard
     * figure's size or smaller; on a larger one the stride, and the keys' rounding of it, grow with it) */
    const double size = fmax(1, info.leg_length / 9.419);
    if (p->traverse) {
        PM_CHECK_MSG(info.report.max_slide < 0.005 * size, "%s %s: the stance pivot slides %g a frame (frame %u)", e->id, what,
                     info.report.max_slide, info.report.limbs[0].max_slide > info.report.limbs[1].max_slide
                                                ? info.report.limbs[0].slide_frame
                                                : info.report.limbs[1].slide_frame);
        w->slide = fmax(w->slide, info.report.max_slide);
    }
    /* the loop closes */
    /* (to the float rounding of a world path turned twice by 180 degrees, which grows with the model) */
    double loop = pm_zoo_max_distance(played, played + 6 * (size_t)F, 2, NULL);
    PM_CHECK_MSG(loop < 1e-4 * size, "%s %s: frame 0 and frame %u differ by %g", e->id, what, F, loop);
    w->loop = fmax(w->loop, loop);
    /* heel strikes on the beats: a foot's contact begins within half a frame of a step */
    for (int s = 0; s < 2; s++)
        for (uint32_t f = 1; f <= F; f++)
            if (plan.contact[2 * f + s] == PM_LANDING_HEEL && plan.contact[2 * (f - 1) + s] == PM_LANDING_SWING) {
                double k = round(f / info.step_frames);
                if (fabs(f - k * info.step_frames) > 0.5 + 1e-9) w->strike_off++;
            }
    w->runs++;
    if (info.report.ik_off_frames) w->ik_off_runs++;
    free(played);
    pm_catwalk_plan_free(&plan);
    pm_vmd_free(v);
}

PM_TEST(catwalk_lands_on_every_model) {
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    const bool quick = pm_test_quick();
    sweep_worst w;
    memset(&w, 0, sizeof w);
    const float bpms[3] = {60, 128, 200};
    for (size_t i = 0; i < n; i++) {
        bool pmd = all[i].format == PM_MODEL_FORMAT_PMD;
        for (int mode = 0; mode < 3; mode++)
            for (int b = 0; b < 3; b++)
                for (int cad = 0; cad < 2; cad++) {
                    /* valgrind: every model once, in one of the combinations */
                    if (quick && (size_t)(mode * 6 + b * 2 + cad) != i % 18) continue;
                    pm_catwalk_params p = {0};
                    p.traverse = mode == 1;
                    p.u_turn = mode == 2;
                    p.bpm = bpms[b];
                    p.cadence = cad ? PM_CATWALK_CADENCE_BEAT : PM_CATWALK_CADENCE_TWO_BEAT;
                    char what[64];
                    snprintf(what, sizeof what, "%s %g BPM %s", mode == 0 ? "in place" : mode == 1 ? "traverse" : "U-turn",
                             (double)p.bpm, cad ? "beat" : "2beat");
                    uint32_t before = w.ik_off_runs;
                    check_catwalk(&all[i], &p, what, &w);
                    /* MMD's leg IK stays on everywhere on PMX models (the plan keeps the knees within their
                     * limit); PMD knees as babylon-mmd reads them are keyed by FK with the IK off */
                    if (!pmd) PM_CHECK_MSG(w.ik_off_runs == before, "%s %s: the leg IK was switched off", all[i].id, what);
                }
    }
    PM_CHECK_EQ_INT(w.strike_off, 0);
    printf("  %u catwalks on %zu models: ankles within %.4f of the plan, %.4f below the standing height at most, every "
           "stance within %.4f of the floor, traverse pivots slide %.4f a frame at most, loops close to %.1e, report vs "
           "harness %.1e; IK off somewhere in %u (PMD knees)\n",
           w.runs, n, w.error, w.below, w.gap, w.slide, w.loop, w.report_vs_harness, w.ik_off_runs);
    pm_zoo_entries_free(all, n);
}

/* What MMD itself (knee limit -0.5 degrees, not babylon-mmd's radians) plays of a catwalk made for
 * babylon-mmd on PMD models: the legs are FK with the IK off where babylon-mmd's limit would bite, so
 * MMD plays the same (the difference printed is what docs/landing.md states). */
PM_TEST(pmd_catwalk_plays_the_same_in_mmd) {
    double worst = 0;
    uint32_t models = 0;
    for (size_t i = 0; i < pm_zoo_count(); i++) {
        const pm_zoo_model *zm = pm_zoo_at(i);
        if (zm->format != PM_MODEL_FORMAT_PMD || (pm_test_quick() && i % 4)) continue;
        pm_error err = {0};
        uint8_t *bytes = NULL;
        size_t size = 0;
        pm_skeleton *babylon = NULL, *mmd = NULL;
        PM_CHECK_OK(pm_zoo_file(zm, &bytes, &size, &err), &err);
        pm_model_read_options o = {0};
        PM_CHECK_OK(pm_model_read(bytes, size, &o, &babylon, &err), &err);
        o.pmd_knee_limit = PM_PMD_KNEE_LIMIT_MMD;
        PM_CHECK_OK(pm_model_read(bytes, size, &o, &mmd, &err), &err);
        pm_target_model m = {0};
        m.skeleton = babylon;
        pm_vmd *v = NULL;
        pm_catwalk_info info;
        pm_catwalk_plan plan;
        pm_catwalk_params p = {0};
        p.bpm = 128;
        p.traverse = true;
        if (babylon && mmd) PM_CHECK_OK(pm_catwalk_generate_plan(&p, &m, &v, &info, &plan, &err), &err);
        if (v) {
            const char *names[2];
            PM_CHECK(ankle_names(mmd, names));
            float *a = malloc(sizeof(float) * 6 * (info.loop_frames + 1)), *b = malloc(sizeof(float) * 6 * (info.loop_frames + 1));
            PM_CHECK_OK(pm_zoo_play(babylon, v, names, 2, 0, 1, info.loop_frames + 1, a, &err), &err);
            PM_CHECK_OK(pm_zoo_play(mmd, v, names, 2, 0, 1, info.loop_frames + 1, b, &err), &err);
            double d = pm_zoo_max_distance(a, b, 2 * (size_t)(info.loop_frames + 1), NULL);
            worst = fmax(worst, d);
            models++;
            free(a), free(b);
            pm_catwalk_plan_free(&plan);
        }
        pm_vmd_free(v);
        pm_skeleton_free(babylon);
        pm_skeleton_free(mmd);
        free(bytes);
    }
    printf("  PMD catwalks on %u models: MMD's own knee limit plays the ankles within %.2e of babylon-mmd's\n", models, worst);
    PM_CHECK(worst < 0.01);
}

PM_TEST(groove_bake_keeps_the_feet_on_their_anchors_on_every_model) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    double whole = 0, half_ik = 0, half_fk = 0, crouch = 0;
    for (size_t i = 0; i < n; i++) {
        if (pm_test_quick() && i % 4) continue;
        const pm_skeleton *sk = all[i].skeleton;
        pm_vmd *v = NULL;
        pm_groove_bake_report rep;
        PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, sk, NULL, 128, NULL, &v, &rep, &err), &err);
        if (!v) continue;
        const char *names[2];
        PM_CHECK(ankle_names(sk, names));
        const uint32_t ns = 2 * rep.frames + 1;
        float rest[6], *played = malloc(sizeof(float) * 6 * ns);
        PM_CHECK_OK(pm_zoo_play(sk, NULL, names, 2, 0, 1, 1, rest, &err), &err);
        PM_CHECK_OK(pm_zoo_play(sk, v, names, 2, 0, 0.5, ns, played, &err), &err);
        double w = 0, h = 0;
        for (uint32_t k = 0; k < ns; k++) {
            double d = pm_zoo_max_distance(played + 6 * (size_t)k, rest, 2, NULL);
            if (k % 2 == 0) w = fmax(w, d);
            else h = fmax(h, d);
        }
        PM_CHECK_MSG(rep.verified && w < 0.01, "%s: an ankle %g off its anchor", all[i].id, w);
        PM_CHECK_MSG(fabs(w - rep.max_foot_error) < 1e-6, "%s: maxFootError %g, harness %g", all[i].id, rep.max_foot_error, w);
        /* between frames (a 60 fps player): MMD's IK refines the IK legs; FK legs (PMD knees under
         * babylon-mmd, IK off) follow VMD's one rotation curve per key (docs/landing.md) */
        if (rep.landing.ik_off_frames == 0) {
            PM_CHECK_MSG(h < 0.01, "%s: %g between frames", all[i].id, h);
            half_ik = fmax(half_ik, h);
        } else {
            PM_CHECK_MSG(h < 0.05, "%s: %g between frames", all[i].id, h);
            half_fk = fmax(half_fk, h);
        }
        whole = fmax(whole, w);
        crouch = fmax(crouch, rep.crouch);
        free(played);
        pm_vmd_free(v);
    }
    printf("  groove bake at 128 BPM on %zu models: ankles within %.1e of their anchors at every frame; between frames "
           "%.4f (leg IK on) and %.4f (FK legs, IK off); the body %.4f lower at most\n",
           n, whole, half_ik, half_fk, crouch);
    pm_zoo_entries_free(all, n);
}

PM_TEST(landing_rejects_bad_input_and_measures_as_it_is) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(false, &n);
    const pm_skeleton *sk = n ? all[0].skeleton : NULL;
    if (!sk) return;
    pm_vmd *v = NULL, *out = NULL;
    PM_CHECK_OK(pm_vmd_create(NULL, &v, &err), &err);
    float plan[3 * 11];
    for (int i = 0; i < 33; i++) plan[i] = 1;
    pm_landing_limb l = {0};
    l.effector = pm_skeleton_find(sk, "左足首");
    l.ik_bone = pm_skeleton_find(sk, "左足ＩＫ");
    l.plan = plan;
    pm_landing_report rep;
    plan[4] = NAN;
    PM_CHECK_EQ_INT(pm_landing_close(sk, v, 10, &l, 1, NULL, &out, &rep, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "NaN") != NULL && out == NULL);
    plan[4] = 1;
    l.effector = 100000;
    PM_CHECK_EQ_INT(pm_landing_close(sk, v, 10, &l, 1, NULL, &out, &rep, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "effector") != NULL);
    l.effector = pm_skeleton_find(sk, "左足首");
    PM_CHECK_EQ_INT(pm_landing_close(sk, v, 10, &l, 9, NULL, &out, &rep, &err), PM_ERR_INVALID_ARGUMENT);
    l.plan = NULL;
    PM_CHECK_EQ_INT(pm_landing_close(sk, v, 10, &l, 1, NULL, &out, &rep, &err), PM_ERR_INVALID_ARGUMENT);
    /* measuring changes nothing: the rest pose's ankle is where the rest pose puts it */
    pm_vec3 a = sk->bones[l.effector].position;
    for (int i = 0; i < 11; i++) plan[3 * i] = a.x, plan[3 * i + 1] = a.y, plan[3 * i + 2] = a.z;
    l.plan = plan;
    PM_CHECK_OK(pm_landing_measure(sk, v, 10, &l, 1, NULL, &rep, &err), &err);
    PM_CHECK(rep.limbs[0].frames == 11 && rep.max_error < 1e-4 && rep.landed && !rep.limbs[0].steered);
    /* one frame: nothing to key between frames, measured as it is */
    PM_CHECK_OK(pm_landing_close(sk, v, 0, &l, 1, NULL, &out, &rep, &err), &err);
    PM_CHECK(out && rep.limbs[0].frames == 1 && !rep.limbs[0].steered && rep.max_error < 1e-4);
    pm_vmd_free(out);
    out = NULL;
    /* a plan out of reach: the leg stretched toward it, the frames counted, the error reported */
    for (int i = 0; i < 11; i++) plan[3 * i + 1] = a.y - 5;
    PM_CHECK_OK(pm_landing_close(sk, v, 10, &l, 1, NULL, &out, &rep, &err), &err);
    PM_CHECK(rep.unreachable_frames == 11 && rep.max_error > 4 && !rep.landed);
    pm_vmd_free(out);
    pm_vmd_free(v);
    pm_zoo_entries_free(all, n);
}

int main(void) { return pm_test_run_all(); }
