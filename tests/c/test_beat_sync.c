/* Motion on a beat grid: catwalk heel strikes, groove bounce valleys and tracing
 * keyframes land within half a frame of the grid's beats, on generated grids with an offset, a tempo
 * ramp and a tempo change, on every model of the zoo and the shared fixtures; the landing reports stay
 * within their bounds; bad grids are rejected with the problem named. */
#include "pm_test.h"

#include "procmotion/beats.h"
#include "procmotion/catwalk.h"
#include "procmotion/groove.h"
#include "procmotion/tracing.h"
#include "every_model.h"

#include <stdlib.h>

/* ---- generated grids --------------------------------------------------------------------------- */

enum { GRID_PLAIN, GRID_STEADY, GRID_RAMP, GRID_CHANGE, GRID_KINDS };
static const char *const GRID_NAMES[GRID_KINDS] = {"plain 128 BPM + 0.37 s", "steady 120 BPM from 0.45 s",
                                                   "ramp 120 -> 150 BPM", "change 100 -> 140 BPM"};

/* beats[] must hold 64 */
static pm_beat_grid make_grid(int kind, double *beats) {
    if (kind == GRID_PLAIN) return pm_beat_grid_from_bpm(128, 0.37);
    uint32_t n = 0;
    double t = kind == GRID_STEADY ? 0.45 : 0.2;
    for (; n < 48; n++) {
        beats[n] = t;
        double bpm = kind == GRID_STEADY ? 120 : kind == GRID_RAMP ? 120 + 30.0 * n / 47 : n < 20 ? 100 : 140;
        t += 60.0 / bpm;
    }
    pm_beat_grid g = pm_beat_grid_from_bpm(kind == GRID_CHANGE ? 120 : kind == GRID_RAMP ? 135 : 120, beats[0]);
    g.beats = beats;
    g.beat_count = n;
    g.beats_per_bar = 4;
    g.first_downbeat = 1;
    return g;
}

/* ---- catwalk ------------------------------------------------------------------------------------ */

PM_TEST(catwalk_heel_strikes_land_on_the_grid_on_every_model) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    const bool quick = pm_test_quick();
    double worst = 0, worst_report = 0;
    uint32_t runs = 0, strikes = 0;
    for (size_t i = 0; i < n; i++)
        for (int kind = 0; kind < GRID_KINDS; kind++)
            for (int mode = 0; mode < 2; mode++) {
                if (quick && (size_t)(kind * 2 + mode) != i % (2 * GRID_KINDS)) continue;
                if (!quick && mode == 1 && kind != (int)(i % GRID_KINDS)) continue; /* U-turns: one grid a model */
                double beats[64];
                pm_catwalk_params p = {0};
                p.grid = make_grid(kind, beats);
                p.u_turn = mode == 1;
                p.cadence = (i + kind) & 1 ? PM_CATWALK_CADENCE_BEAT : PM_CATWALK_CADENCE_TWO_BEAT;
                pm_target_model m = {0};
                m.skeleton = all[i].skeleton;
                pm_vmd *v = NULL;
                pm_catwalk_info info;
                pm_catwalk_plan plan;
                PM_CHECK_OK(pm_catwalk_generate_plan(&p, &m, &v, &info, &plan, &err), &err);
                if (!v) continue;
                const char *what = GRID_NAMES[kind];
                PM_CHECK_MSG(info.verified && info.synced, "%s %s: not verified / synced", all[i].id, what);
                PM_CHECK_MSG(info.looping == (kind == GRID_PLAIN), "%s %s: looping %d", all[i].id, what, info.looping);
                /* every strike of the motion measured, each within half a frame of its beat as played */
                PM_CHECK_MSG(info.sync.count == plan.strike_count && info.sync.count >= 8, "%s %s: %u strikes measured, %u listed",
                             all[i].id, what, info.sync.count, plan.strike_count);
                PM_CHECK_MSG(info.sync.max_error <= 0.5 + 1e-6, "%s %s: strike %u is %.3f frames from its beat", all[i].id,
                             what, info.sync.worst, info.sync.max_error);
                /* the strikes are where the grid says: the beat's own time, alternate feet, consecutive beats */
                for (uint32_t k = 0; k < plan.strike_count; k++) {
                    const pm_catwalk_strike *s = &plan.strikes[k];
                    PM_CHECK_NEAR(s->beat_frame, 30.0 * pm_beat_grid_time(&p.grid, s->beat), 1e-6);
                    if (k) PM_CHECK_MSG(s->side != plan.strikes[k - 1].side, "%s %s: strike %u with the same foot", all[i].id, what, k);
                    if (k) PM_CHECK_NEAR(s->beat - plan.strikes[k - 1].beat, info.beats_per_step, 1e-9);
                }
                /* the listed grid: the motion covers the song, to the last listed beat */
                if (kind != GRID_PLAIN) {
                    PM_CHECK_MSG(info.loop_frames >= 30.0 * beats[47] - 0.5, "%s %s: %u frames, the last beat at %g", all[i].id,
                                 what, info.loop_frames, 30.0 * beats[47]);
                    /* strike 0 (left foot) on the first beat at or after 0 s whose bar position lets the left
                     * foot strike on every downbeat (beat 1 is the first downbeat, 4 beats a bar) */
                    double b0 = info.first_strike_beat;
                    PM_CHECK_MSG(fmod(b0 - 1 + 64, 2 * info.beats_per_step) == 0 && pm_beat_grid_time(&p.grid, b0) >= 0 &&
                                     pm_beat_grid_time(&p.grid, b0 - 2 * info.beats_per_step) < 0,
                                 "%s %s: strike 0 on beat %g", all[i].id, what, b0);
                    for (uint32_t k = 0; k < plan.strike_count; k++)
                        if (plan.strikes[k].beat == b0) PM_CHECK_EQ_INT(plan.strikes[k].side, 0);
                }
                /* the landing still lands */
                PM_CHECK_MSG(info.report.max_error < 0.01 && info.report.stance_gap < 0.01 && info.report.penetration < 0.01,
                             "%s %s: report max %g gap %g below %g", all[i].id, what, info.report.max_error,
                             info.report.stance_gap, info.report.penetration);
                worst = fmax(worst, info.sync.max_error);
                worst_report = fmax(worst_report, info.report.max_error);
                strikes += info.sync.count;
                runs++;
                pm_catwalk_plan_free(&plan);
                pm_vmd_free(v);
            }
    printf("  %u catwalks on %zu models and 4 grids: %u heel strikes, each within %.3f frames of its beat as played; "
           "ankles within %.4f of the plan\n",
           runs, n, strikes, worst, worst_report);
    pm_zoo_entries_free(all, n);
}

PM_TEST(catwalk_without_a_grid_is_unchanged_and_a_bpm_is_a_plain_grid) {
    pm_error err = {0};
    pm_catwalk_params a = {0}, b = {0};
    a.bpm = 128;
    b.grid = pm_beat_grid_from_bpm(128, 0);
    pm_vmd *va = NULL, *vb = NULL;
    pm_catwalk_info ia, ib;
    PM_CHECK_OK(pm_catwalk_generate(&a, NULL, &va, &ia, &err), &err);
    PM_CHECK_OK(pm_catwalk_generate(&b, NULL, &vb, &ib, &err), &err);
    if (!va || !vb) return;
    PM_CHECK_EQ_INT(ia.loop_frames, ib.loop_frames);
    PM_CHECK_EQ_INT(va->bones.count, vb->bones.count);
    PM_CHECK(va->bones.count == vb->bones.count &&
             memcmp(va->bones.position, vb->bones.position, sizeof(float) * 3 * va->bones.count) == 0);
    PM_CHECK(ia.synced && ia.looping && ia.sync.max_error <= 0.5);
    pm_vmd_free(va);
    pm_vmd_free(vb);
}

PM_TEST(bad_grids_are_rejected_naming_the_problem) {
    pm_error err = {0};
    double beats[4] = {0.5, 1.0, 0.9, 2.0};
    struct {
        pm_beat_grid g;
        const char *needle;
    } bad[] = {
        {pm_beat_grid_from_bpm(NAN, 0), "bpm"},
        {pm_beat_grid_from_bpm(-10, 0), "bpm"},
        {pm_beat_grid_from_bpm(120, INFINITY), "offset"},
        {{120, 0.5, beats, 4, 4, 0}, "beat 2"},
        {{120, 0.5, NULL, 4, 4, 0}, "no array"},
        {{120, 0.5, beats, 1, 4, 0}, "at least 2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pm_catwalk_params p = {0};
        p.grid = bad[i].g;
        pm_vmd *v = NULL;
        PM_CHECK(pm_catwalk_generate(&p, NULL, &v, NULL, &err) == PM_ERR_INVALID_ARGUMENT && !v);
        PM_CHECK_MSG(strstr(err.message, "catwalk") && strstr(err.message, bad[i].needle), "grid %zu: %s", i, err.message);
    }
    /* a huge listed grid: the motion would run for hours */
    uint32_t big = 200000;
    double *many = malloc(sizeof(double) * big);
    for (uint32_t i = 0; i < big; i++) many[i] = 0.5 * i;
    pm_catwalk_params p = {0};
    p.grid = (pm_beat_grid){120, 0, many, big, 4, 0};
    pm_vmd *v = NULL;
    PM_CHECK(pm_catwalk_generate(&p, NULL, &v, NULL, &err) == PM_ERR_LIMIT && !v);
    PM_CHECK_MSG(strstr(err.message, "frames"), "%s", err.message);
    /* beats closer than a step can take */
    for (uint32_t i = 0; i < 64; i++) many[i] = i < 30 ? 0.5 * i : 15 + 0.01 * (i - 30);
    p.grid = (pm_beat_grid){120, 0, many, 64, 4, 0};
    PM_CHECK(pm_catwalk_generate(&p, NULL, &v, NULL, &err) == PM_ERR_INVALID_ARGUMENT && !v);
    PM_CHECK_MSG(strstr(err.message, "frames (at least 6)"), "%s", err.message);
    free(many);
}
/* ---- groove ------------------------------------------------------------------------------------- */

PM_TEST(groove_bounce_valleys_land_on_the_grid_on_every_model) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    const bool quick = pm_test_quick();
    double worst = 0, worst_foot = 0;
    uint32_t runs = 0, valleys = 0;
    for (size_t i = 0; i < n; i++)
        for (int kind = 0; kind < GRID_KINDS; kind++) {
            if ((quick || kind != GRID_CHANGE) && kind != (int)(i % GRID_KINDS)) continue; /* every grid on some models */
            double beats[64];
            pm_groove_bake_options o = {0};
            o.grid = make_grid(kind, beats);
            if (kind == GRID_PLAIN) o.frames = 300;
            pm_vmd *v = NULL;
            pm_groove_bake_report rep;
            PM_CHECK_OK(pm_groove_apply_to_vmd(NULL, all[i].skeleton, NULL, 0, &o, &v, &rep, &err), &err);
            if (!v) continue;
            const char *what = GRID_NAMES[kind];
            if (rep.leg_mode == PM_GROOVE_LEGS_NONE) {
                PM_CHECK(!rep.synced);
                pm_vmd_free(v);
                continue;
            }
            if (kind != GRID_PLAIN) PM_CHECK_EQ_INT(rep.frames, (uint32_t)ceil(30 * beats[47] - 1e-9));
            /* one valley a beat (default squat: bounce, 1 a beat, phase 0), each within half a frame */
            uint32_t expect = 0;
            for (int b = -8; b < 200; b++) {
                double at = 30 * pm_beat_grid_time(&o.grid, b);
                expect += at >= 2 && at <= rep.frames - 2;
            }
            PM_CHECK_MSG(rep.synced && rep.sync.count == expect, "%s %s: %u valleys measured, %u beats", all[i].id, what,
                         rep.sync.count, expect);
            PM_CHECK_MSG(rep.sync.max_error <= 0.5, "%s %s: valley %u is %.3f frames from its beat", all[i].id, what,
                         rep.sync.worst, rep.sync.max_error);
            PM_CHECK_MSG(rep.verified && rep.max_foot_error < 0.01, "%s %s: feet %g from their anchors", all[i].id, what,
                         rep.max_foot_error);
            worst = fmax(worst, rep.sync.max_error);
            worst_foot = fmax(worst_foot, rep.max_foot_error);
            valleys += rep.sync.count;
            runs++;
            pm_vmd_free(v);
        }
    printf("  %u groove bakes on %zu models: %u bounce valleys, each within %.3f frames of its beat as written; feet "
           "within %.4f of their anchors\n",
           runs, n, valleys, worst, worst_foot);
    pm_zoo_entries_free(all, n);
}

PM_TEST(groove_runtime_layer_follows_the_grid) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(false, &n);
    PM_CHECK(n > 0);
    if (n == 0) return;
    pm_groove *g = NULL;
    PM_CHECK_OK(pm_groove_create(all[0].skeleton, NULL, NULL, &g, &err), &err);
    if (!g) {
        pm_zoo_entries_free(all, n);
        return;
    }
    double beats[64];
    pm_beat_grid grid = make_grid(GRID_CHANGE, beats);
    for (int b = 0; b < 47; b++) {
        /* the body is lowest on the beat (bounce wave, phase 0) and at mid-beat highest */
        pm_groove_frame fr;
        PM_CHECK_OK(pm_groove_offsets_grid(g, NULL, beats[b], &grid, PM_GROOVE_OFFSETS_ONLY, &fr, &err), &err);
        PM_CHECK_NEAR(fr.beat, b, 1e-9);
        double low = fr.body_offset.y;
        PM_CHECK_OK(pm_groove_offsets_grid(g, NULL, 0.5 * (beats[b] + beats[b + 1]), &grid, PM_GROOVE_OFFSETS_ONLY, &fr, &err), &err);
        PM_CHECK(fr.body_offset.y > low + 0.3);
    }
    /* beyond the listed beats: the last tempo */
    pm_groove_frame fr;
    PM_CHECK_OK(pm_groove_offsets_grid(g, NULL, beats[47] + 3 * 60.0 / 140, &grid, PM_GROOVE_OFFSETS_ONLY, &fr, &err), &err);
    PM_CHECK_NEAR(fr.beat, 50, 1e-6);
    pm_beat_grid bad = pm_beat_grid_from_bpm(0, 0);
    PM_CHECK(pm_groove_offsets_grid(g, NULL, 1, &bad, 0, &fr, &err) == PM_ERR_INVALID_ARGUMENT && strstr(err.message, "groove"));
    pm_groove_bake_options o = {0};
    o.grid = (pm_beat_grid){120, 0, beats, 3, 4, 0};
    beats[2] = beats[0];
    pm_vmd *v = NULL;
    PM_CHECK(pm_groove_apply_to_vmd(NULL, all[0].skeleton, NULL, 0, &o, &v, NULL, &err) == PM_ERR_INVALID_ARGUMENT && !v);
    PM_CHECK_MSG(strstr(err.message, "groove: beat grid: beat 2"), "%s", err.message);
    pm_groove_free(g);
    pm_zoo_entries_free(all, n);
}

/* ---- tracing ------------------------------------------------------------------------------------ */

PM_TEST(tracing_keyframes_land_on_the_grid) {
    pm_error err = {0};
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(false, &n);
    for (int kind = 0; kind < GRID_KINDS; kind++) {
        const pm_skeleton *sk = all[(size_t)kind % n].skeleton;
        pm_timeline *tl = NULL;
        PM_CHECK_OK(pm_timeline_create(sk, NULL, &tl, &err), &err);
        if (!tl) continue;
        const pm_vec3 pts[3] = {{2, -4, -2}, {3, -2, -3}, {1, -1, -4}};
        pm_trajectory tr = {PM_TRAJECTORY_CURVE, 3, pts, false, {0, 0, 0}};
        pm_trace_generate gen = {PM_LIMB_RIGHT_HAND, &tr, 8, 1, 1.5, {0, 0, 0, 0}};
        PM_CHECK_OK(pm_timeline_generate(tl, &gen, NULL, &err), &err);
        double beats[64];
        pm_timeline_bake_options o = {0};
        o.grid = make_grid(kind, beats);
        pm_vmd *v = NULL;
        pm_trace_plan plan;
        pm_landing_report rep;
        PM_CHECK_OK(pm_timeline_bake_plan(tl, &o, &v, &plan, &rep, &err), &err);
        if (v) {
            PM_CHECK(plan.synced && plan.sync.count == 8 && plan.sync.max_error <= 0.5);
            /* every keyframe's beat has a key on its frame, and the traced hand is where the plan says */
            for (uint32_t k = 0; k < 8; k++) {
                uint32_t f = (uint32_t)llround(30 * pm_beat_grid_time(&o.grid, 1 + 1.5 * k));
                bool keyed = false;
                for (uint32_t i = 0; i < v->bones.count; i++) keyed |= v->bones.frame[i] == f;
                PM_CHECK_MSG(keyed, "%s: no key on frame %u (keyframe %u)", GRID_NAMES[kind], f, k);
            }
            PM_CHECK_MSG(plan.frames == (uint32_t)llround(30 * pm_beat_grid_time(&o.grid, 11.5)), "%s: %u frames", GRID_NAMES[kind],
                         plan.frames);
            PM_CHECK_MSG(rep.max_error < 0.01, "%s: hand %g from the plan", GRID_NAMES[kind], rep.max_error);
        }
        pm_trace_plan_free(&plan);
        pm_vmd_free(v);
        /* a grid that puts a keyframe before 0 s */
        o.grid = pm_beat_grid_from_bpm(120, -3);
        PM_CHECK(pm_timeline_bake(tl, &o, &v, &err) == PM_ERR_INVALID_ARGUMENT && !v);
        PM_CHECK_MSG(strstr(err.message, "before the motion starts"), "%s", err.message);
        pm_timeline_free(tl);
    }
    pm_zoo_entries_free(all, n);
}

int main(void) { return pm_test_run_all(); }
