/* The catwalk's entry points, shared by the catwalk module, its ABI exports and the CLI. */
#ifndef PROCMOTION_CATWALK_ENTRY_H
#define PROCMOTION_CATWALK_ENTRY_H

#include "common/internal.h"
#include "procmotion/catwalk.h"
#include "procmotion/mannequin.h"
#include "procmotion/rig.h"

#include <cjson/cJSON.h>

struct pmi_catwalk_closing;

/* The JSON object the ABI returns and the CLI prints: loopFrames, beatFrames, stepFrames, steps, bpm,
 * driftFramesPerMinute, keyCount, morphKeyCount, usedBones, missingBones, maxPositionError,
 * maxRotationErrorDeg, legLength, stepLength, traverseDistance, crouch, lift, blinkMorph,
 * expressionMorph, params (the values used, with the names pm_catwalk_params_from_json reads), verified,
 * report (the landing report, written by closing->report_json, or null) and, with a plan, plan: { frames,
 * floor, heel, ball } (the arrays travel separately); `closing`: what the walk was generated with.
 * NULL when out of memory. */
cJSON *pmi_catwalk_info_json(const pm_catwalk_info *info, const pm_catwalk_plan *plan, const struct pmi_catwalk_closing *closing);
/* The landing report of a verified walk as info_json's "report" (pmi_catwalk_closing.report_json). */
void pmi_catwalk_report_json(cJSON *info_json, const pm_catwalk_info *info, bool *ok);
/* The info JSON's table of pow(10, n), n = -32 .. 51 (0 outside): for the test that it is libm's. */
double pmi_catwalk_pow10(int n);

/* Fill every default (the style's), check for NaN/Inf, amounts out of range and bad enums, clamp the
 * floats (catwalk_params.c, used by pm_catwalk_generate). */
pm_result pmi_catwalk_resolve_params(const pm_catwalk_params *in, pm_catwalk_params *out, pm_error *err);

/* The parameters one by one, in the order of the ABI's parameter block (PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK
 * in wasm/abi/pm_abi_table.h: abi_catwalk.c checks that the two agree, name by name). The amounts, the
 * plain floats (both in catwalk_params.c's table order), then bpm, the two enums, the two flags, seed. */
typedef enum pmi_catwalk_field {
    PMI_CW_HIP_SWAY, PMI_CW_STEP_HEIGHT, PMI_CW_STRIDE, PMI_CW_CROSS_STEP, PMI_CW_HIP_TWIST, PMI_CW_PELVIS_DROP,
    PMI_CW_TORSO_TWIST, PMI_CW_TORSO_SWAY, PMI_CW_LEAN, PMI_CW_HEAD_FOLLOW, PMI_CW_TOE_OFF, PMI_CW_HEEL_STRIKE,
    PMI_CW_BOB, PMI_CW_STANCE_KNEE, PMI_CW_ARM_SWING, PMI_CW_ELBOW_BEND, PMI_CW_POSE_SHOULDER, PMI_CW_POSE_ELBOW,
    PMI_CW_BLINK, PMI_CW_EXPRESSION,
    PMI_CW_SPEED, PMI_CW_TRAVERSE_DISTANCE, PMI_CW_POSITION_TOLERANCE, PMI_CW_ROTATION_TOLERANCE,
    PMI_CW_BPM, PMI_CW_STEP_CADENCE, PMI_CW_ARM_POSE, PMI_CW_STYLE, PMI_CW_TRAVERSE, PMI_CW_U_TURN, PMI_CW_SEED,
    PMI_CW_FIELD_COUNT
} pmi_catwalk_field;

/* An enum field's value for its JSON string (1 for the first choice), or -1 when the string is none of
 * them (or the field is not an enum); pmi_catwalk_param_set then names the choices. */
int pmi_catwalk_choice(pmi_catwalk_field field, const char *text);

/* Set one parameter from a number: the one place where a given value is checked, for the JSON reader
 * and the ABI's parameter block alike. NaN/Inf: "catwalk: NAME is not a finite number"; an amount must
 * lie in its range ("catwalk: NAME must be in [lo, hi], got v"); a float is stored as float (huge values
 * saturate, and clamp later); an explicit 0 of a float whose minimum is above 0 is that minimum (0 is
 * "default" only when not given); bpm as given (0 = no music); an enum must be one of its values (0 =
 * default), a flag 0 or 1, seed a whole number in [0, 2^32). `name` names the value in messages (NULL:
 * the field's JSON name). */
pm_result pmi_catwalk_param_set(pm_catwalk_params *p, pmi_catwalk_field field, double value, const char *name,
                                pm_error *err);

/* The catwalk's closing step (docs/landing.md): the standard figure's skeleton (the
 * mannequin's), the rig analysis, landing the legs with pm_landing_close (the MMD-exact evaluator and
 * CCD IK), measuring the played heel strikes, and the report's JSON. The generator reaches them only
 * through this table, which its caller passes (no global or registered state), so an entry that passes
 * none links none of that code: the npm core's catwalk export (pm_abi_catwalk_generate) generates the
 * unlanded walk; the motion module's (pm_abi_catwalk_generate_landed), the CLI and the public
 * pm_catwalk_generate* pass pmi_catwalk_landing (the core module never links the landing). */
struct pmi_catwalk;
typedef struct pmi_catwalk_closing {
    pm_result (*standard_skeleton)(const pm_mannequin_options *opts, pm_skeleton **out, pm_error *err);
    pm_result (*rig_analyze)(const pm_skeleton *sk, const pm_rig_options *opts, pm_rig **out, pm_error *err);
    void (*rig_free)(pm_rig *rig);
    /* the legs landed on c's skeleton (plan, pre-pose, IK, measured: info->report); played: where the
     * ankles' world matrices go (16 floats per frame and leg) or NULL */
    pm_result (*land)(struct pmi_catwalk *c, const bool land[2], float *played, const float *plan, const float *plan_rot,
                      uint32_t ns, uint32_t per_frame, const uint8_t *forced, pm_vmd **vmd, pm_catwalk_info *info,
                      pm_error *err);
    /* the played heel strike of the step whose keyed strike is `strike` and foot flat `flat` (frames),
     * from one leg's played ankle matrices */
    int64_t (*played_strike)(const struct pmi_catwalk *c, const float *ankle, int64_t strike, int64_t flat);
    /* the info JSON's report (pmi_catwalk_report_json) */
    void (*report_json)(cJSON *info_json, const pm_catwalk_info *info, bool *ok);
} pmi_catwalk_closing;

/* What pm_catwalk_generate and pm_catwalk_generate_plan land with (catwalk.c). */
extern const pmi_catwalk_closing pmi_catwalk_landing;

/* pm_catwalk_generate_plan with the closing step given: `closing` NULL is the unlanded walk, which
 * takes bone names (with rest positions and parents, or none) and refuses, with PM_ERR_INVALID_ARGUMENT
 * and a message saying so, what would land: no model (the standard figure, landed on the mannequin) or
 * a model's skeleton. */
pm_result pmi_catwalk_generate(const pm_catwalk_params *params, const pm_target_model *model, const pmi_catwalk_closing *closing,
                               pm_vmd **out, pm_catwalk_info *info, pm_catwalk_plan *plan, pm_error *err);

#endif
