/* Dance: parameters (defaults, JSON errors naming the field), the loop on every model of the iteration,
 * the three styles in turn (landed, the seam closed, feet on the floor and not sliding, hands clear of the body, finite keys), a
 * song's beat grid followed from the first beat to the last with its phrases varied, and names only. */
#include "every_model.h"
#include "pm_test.h"

#include "procmotion/dance.h"
#include "procmotion/mannequin.h"

#include <stdlib.h>

PM_TEST(params_json_and_errors) {
    pm_error err = {0};
    pm_dance_params p;
    const char *ok = "{\"bpm\": 96, \"energy\": 0.8, \"style\": \"hiphop\", \"seed\": 9, \"arms\": null}";
    PM_CHECK_OK(pm_dance_params_from_json(ok, strlen(ok), &p, &err), &err);
    PM_CHECK(p.bpm == 96 && p.energy.set && p.energy.value == 0.8f && p.seed == 9 && !p.arms.set && p.style == PM_DANCE_HIPHOP);
    static const struct {
        const char *json, *message;
    } bad[] = {
        {"{\"energy\": 2}", "dance: energy must be a number in [0, 1], got 2"},
        {"{\"style\": \"salsa\"}", "dance: style must be \"pop\", \"hiphop\" or \"idol\", got \"salsa\""},
        {"{\"bpm\": 500}", "dance: bpm must be null, 0 or a number in [40, 240], got 500"},
        {"{\"moves\": 1}", "dance: moves is not a field here (fields: bpm, energy, variety, arms, legs, body, duration, style, seed, "
                           "positionTolerance, rotationTolerance)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = (pm_error){0};
        PM_CHECK_EQ_INT(pm_dance_params_from_json(bad[i].json, strlen(bad[i].json), &p, &err), PM_ERR_INVALID_ARGUMENT);
        PM_CHECK_STR(err.message, bad[i].message);
    }
    pm_dance_params c = {0};
    c.duration = PM_AMOUNT(4);
    pm_vmd *v = NULL;
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_dance_generate(&c, NULL, &v, NULL, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK_STR(err.message, "dance: duration of a loop must be in [8, 120] seconds, got 4");
    PM_CHECK(v == NULL);
}

PM_TEST(loop_on_every_model) {
    size_t n = 0;
    pm_zoo_entry *all = pm_test_every_model(true, &n);
    double worst_error = 0, worst_seam = 0, least_clearance = 1e9, worst_slide = 0, worst_pen = 0;
    pm_dance_info *info = malloc(sizeof *info);
    const size_t stride = pm_test_quick() ? 5 : 1; /* 5: the styles still take turns */
    for (size_t i = 0; i < n && info; i += stride) {
        const int style = (int)(i % PM_DANCE_STYLE_COUNT); /* the styles in turn */
        pm_error err = {0};
        pm_target_model m = {0};
        m.skeleton = all[i].skeleton;
        pm_vmd *v = NULL;
        pm_dance_params p = {0};
        p.bpm = 124;
        p.energy = PM_AMOUNT(0.9);
        p.style = (pm_dance_style)style;
        p.seed = (uint32_t)(3 + i);
        PM_CHECK_OK(pm_dance_generate(&p, &m, &v, info, &err), &err);
        if (!v) continue;
        PM_CHECK_MSG(info->verified && info->report.landed, "%s: landed (%g)", all[i].id, info->report.max_error);
        for (uint32_t k = 0; k < v->bones.count; k++)
            for (int c = 0; c < 4; c++) PM_CHECK(isfinite(v->bones.rotation[4 * k + c]));
        worst_error = fmax(worst_error, info->report.max_error);
        worst_seam = fmax(worst_seam, info->body.loop_gap);
        worst_slide = fmax(worst_slide, info->report.max_slide);
        worst_pen = fmax(worst_pen, info->report.penetration);
        for (int s = 0; s < 2; s++) least_clearance = fmin(least_clearance, info->body.hand_clearance[s]);
        PM_CHECK_MSG(info->body.hand_clearance[0] > 0 && info->body.hand_clearance[1] > 0, "%s %d: hands %g %g", all[i].id, style,
                     info->body.hand_clearance[0], info->body.hand_clearance[1]);
        PM_CHECK_MSG(info->report.max_slide <= 0.003, "%s %d: slide %g at %u", all[i].id, style, info->report.max_slide,
                     info->report.limbs[0].max_slide > info->report.limbs[1].max_slide ? info->report.limbs[0].slide_frame
                                                                                          : info->report.limbs[1].slide_frame);
        PM_CHECK_MSG(info->report.penetration <= 0.005, "%s %d: below the floor %g", all[i].id, style, info->report.penetration);
        PM_CHECK_MSG(info->body.loop_gap < 1e-3, "%s: the seam %g", all[i].id, info->body.loop_gap);
        pm_vmd_free(v);
    }
    printf("  %zu models, the styles in turn: ankles within %.4f of the plan, slide %.4f, below the floor %.4f, seam %.1e, hands at least %.3f clear\n",
           n, worst_error, worst_slide, worst_pen, worst_seam, least_clearance);
    free(info);
    pm_zoo_entries_free(all, n);
}

/* A three-minute song: 100 BPM, then 112 from 90 s; the first downbeat is beat 2; loud and quiet
 * passages of 32 s take turns in the onset envelope. */
PM_TEST(a_song_from_its_first_beat_to_its_last) {
    enum { RATE = 100, SECONDS = 180 };
    static double beats[400];
    static float onset[SECONDS * RATE];
    uint32_t n = 0;
    for (double t = 0.8; t < SECONDS && n < 400; t += t < 90 ? 0.6 : 60.0 / 112) beats[n++] = t;
    for (int i = 0; i < SECONDS * RATE; i++) {
        double t = (double)i / RATE;
        bool loud = ((int)(t / 32)) % 2 == 1;
        onset[i] = (float)((loud ? 0.7 : 0.15) + 0.1 * ((i * 7919) % 13) / 13.0);
    }
    pm_dance_params p = {0};
    p.grid.bpm = 100, p.grid.offset = beats[0], p.grid.beats = beats, p.grid.beat_count = n, p.grid.beats_per_bar = 4;
    p.grid.first_downbeat = 2;
    p.onset = onset, p.onset_count = SECONDS * RATE, p.onset_rate = RATE;
    pm_dance_info *info = malloc(sizeof *info);
    pm_error err = {0};
    pm_vmd *v = NULL;
    PM_CHECK_OK(pm_dance_generate(&p, NULL, &v, info, &err), &err);
    if (!v || !info) return;
    PM_CHECK(info->loop_frames == 0 && info->frames >= beats[n - 1] * 30 && info->verified && info->on_mannequin);
    PM_CHECK_MSG(info->report.landed && info->report.max_slide <= 0.003 && info->report.penetration <= 0.005, "feet %g slide %g below %g",
                 info->report.max_error, info->report.max_slide, info->report.penetration);
    PM_CHECK(info->body.hand_clearance[0] > 0 && info->body.hand_clearance[1] > 0);
    /* the feet come to rest on the beats, as played */
    PM_CHECK_MSG(info->synced && info->sync.count >= 100 && info->sync.max_error <= 2.5, "%u landings, worst %g frames from a beat",
                 info->sync.count, info->sync.max_error);
    /* phrases of two bars start on downbeats (grid beats 2, 6, 10 ...) */
    double quiet = 0, loud = 0;
    int nq = 0, nl = 0, returns = 0;
    for (uint32_t i = 0; i < info->phrase_count; i++) {
        const pm_dance_phrase *ph = &info->phrases[i];
        uint32_t k = 0;
        for (uint32_t j = 0; j < n; j++)
            if (fabs(beats[j] * 30 - ph->start) < fabs(beats[k] * 30 - ph->start)) k = j;
        PM_CHECK_MSG(k % 4 == 2 && fabs(beats[k] * 30 - ph->start) <= 0.5, "phrase %u starts at frame %u, beat %u", i, ph->start, k);
        double t = ph->start / 30.0;
        if (((int)(t / 32)) % 2 == 1 && ((int)((ph->end / 30.0) / 32)) % 2 == 1) loud += ph->size, nl++;
        if (((int)(t / 32)) % 2 == 0 && ((int)((ph->end / 30.0) / 32)) % 2 == 0) quiet += ph->size, nq++;
        /* a section that comes back at a level heard before starts with that level's phrase */
        if (i > 0 && ph->section != info->phrases[i - 1].section)
            for (uint32_t j = 0; j < i; j++)
                if (info->phrases[j].id == ph->id) {
                    returns++;
                    break;
                }
    }
    printf("  %u phrases, %u distinct, at most %u in a row, %u sections (%d come back); size quiet %.2f, loud %.2f; %u landings within %.1f "
           "frames of a beat\n",
           info->phrase_count, info->distinct_phrases, info->longest_repeat, info->section_count, returns, quiet / nq, loud / nl,
           info->sync.count, info->sync.max_error);
    PM_CHECK(info->phrase_count >= 30 && info->distinct_phrases >= 12 && info->longest_repeat <= 2);
    PM_CHECK(info->section_count >= 4 && returns >= 2);
    PM_CHECK(nq && nl && loud / nl > quiet / nq + 0.2);
    /* the plan: the ankles and contact per frame, the danced beats */
    pm_dance_plan plan;
    pm_vmd *v2 = NULL;
    PM_CHECK_OK(pm_dance_generate_plan(&p, NULL, &v2, info, &plan, &err), &err);
    PM_CHECK(plan.frames == info->frames && plan.ankles && plan.contact && plan.beat_count == info->beat_count);
    PM_CHECK(v2 && v2->bones.count == v->bones.count);
    for (uint32_t k = 0; k + 1 <= plan.beat_count && plan.beats; k++) PM_CHECK(plan.beats[k + 1] > plan.beats[k]);
    pm_dance_plan_free(&plan);
    pm_dance_plan_free(&plan);
    pm_vmd_free(v2);
    pm_vmd_free(v);
    /* a fast song is danced every other beat; a slow one on half beats */
    pm_dance_params fast = {0};
    fast.grid.bpm = 184, fast.grid.offset = 0.2, fast.duration = PM_AMOUNT(20);
    PM_CHECK_OK(pm_dance_generate(&fast, NULL, &v, info, &err), &err);
    PM_CHECK_MSG(fabs(info->bpm - 92) < 1e-9 && info->frames >= 600, "dancer's tempo %g, %u frames", info->bpm, info->frames);
    pm_vmd_free(v);
    fast.grid.bpm = 60;
    PM_CHECK_OK(pm_dance_generate(&fast, NULL, &v, info, &err), &err);
    PM_CHECK_MSG(fabs(info->bpm - 120) < 1e-9, "dancer's tempo %g", info->bpm);
    pm_vmd_free(v);
    /* beats too dense to dance, and beats out of order: messages naming the grid */
    static double dense[2000];
    for (int i = 0; i < 2000; i++) dense[i] = 0.01 * i;
    pm_dance_params bad = {0};
    bad.grid.bpm = 120, bad.grid.beats = dense, bad.grid.beat_count = 2000;
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_dance_generate(&bad, NULL, &v, info, &err), PM_ERR_LIMIT);
    PM_CHECK_STR(err.message, "dance: the beat grid has 2000 beats within 19.99 s (at most 10 a second)");
    dense[5] = 0;
    err = (pm_error){0};
    PM_CHECK_EQ_INT(pm_dance_generate(&bad, NULL, &v, info, &err), PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strncmp(err.message, "dance: beat grid:", 17) == 0);
    /* names only: the leg IK bones keyed on the plan, nothing measured */
    const char *names[] = {"センター", "下半身", "上半身", "首", "頭", "左腕", "右腕", "左ひじ", "右ひじ", "左足ＩＫ", "右足ＩＫ"};
    pm_target_model m = {11, names, NULL, NULL, 0, NULL, NULL};
    PM_CHECK_OK(pm_dance_generate(NULL, &m, &v, info, &err), &err);
    PM_CHECK(!info->verified && info->used_count == 11 && info->missing_count > 0);
    pm_vmd_free(v);
    free(info);
}

int main(void) { return pm_test_run_all(); }
