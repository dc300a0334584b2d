/* Catwalk parameters: defaults, ranges, validation and clamping; JSON in and out. */
#include "beats/grid.h"
#include "catwalk/entry.h"
#include "common/json.h"
#include "landing/report_json.h"

#include <math.h>
#include <stddef.h>

/* One parameter: where it lives in pm_catwalk_params, its JSON name, default and range. */
typedef struct cw_field {
    size_t offset;
    const char *c_name;
    const char *json_name;
    float def, min, max;
} cw_field;

#define FIELD(field, json, d, lo, hi) {offsetof(pm_catwalk_params, field), #field, json, d, lo, hi}

/* Amounts (pm_amount: unset = default). */
static const cw_field AMOUNTS[] = {
    FIELD(hip_sway, "hipSway", 0.6f, 0, 1),
    FIELD(step_height, "stepHeight", 0.5f, 0, 1),
    FIELD(stride, "stride", 0.5f, 0, 1),
    FIELD(cross_step, "crossStep", 0.55f, 0, 1),
    FIELD(hip_twist, "hipTwist", 0.5f, 0, 1),
    FIELD(pelvis_drop, "pelvisDrop", 0.5f, 0, 1),
    FIELD(torso_twist, "torsoTwist", 0.5f, -1, 1),
    FIELD(torso_sway, "torsoSway", 0.15f, 0, 1),
    FIELD(lean, "lean", -0.1f, -1, 1),
    FIELD(head_follow, "headFollow", 0.3f, 0, 1),
    FIELD(toe_off, "toeOff", 0.5f, 0, 1),
    FIELD(heel_strike, "heelStrike", 0.4f, 0, 1),
    FIELD(bob, "bob", 0.5f, 0, 1),
    FIELD(stance_knee, "stanceKnee", 0.3f, 0, 1),
    FIELD(arm_swing, "armSwing", 0.5f, 0, 1),
    FIELD(elbow_bend, "elbowBend", 0.5f, 0, 1),
    FIELD(pose_shoulder, "poseShoulder", 70, 0, 90),
    FIELD(pose_elbow, "poseElbow", 30, 0, 150),
    FIELD(blink, "blink", 1, 0, 1),
    FIELD(expression, "expression", 0.25f, 0, 1),
};
enum { AMOUNT_COUNT = sizeof AMOUNTS / sizeof AMOUNTS[0] };

/* The styles' defaults where they differ from the runway's (the table above). */
static const struct {
    pm_catwalk_style style;
    size_t offset;
    float value;
} STYLE_DEFAULTS[] = {
#define S(style, field, v) {PM_CATWALK_STYLE_##style, offsetof(pm_catwalk_params, field), v}
    S(FEMININE, hip_sway, 0.25f),    S(FEMININE, pelvis_drop, 0.28f), S(FEMININE, torso_twist, 0.3f),
    S(FEMININE, torso_sway, 0.3f),   S(FEMININE, arm_swing, 0.2f),    S(FEMININE, elbow_bend, 0.4f),
    S(FEMININE, stance_knee, 0.4f),  S(FEMININE, step_height, 0.4f),
    S(CASUAL, cross_step, 0.1f),     S(CASUAL, hip_sway, 0.45f),      S(CASUAL, pelvis_drop, 0.25f),
    S(CASUAL, torso_sway, 0.1f),     S(CASUAL, lean, 0),              S(CASUAL, heel_strike, 0.5f),
    S(CASUAL, stance_knee, 0.35f),
    S(STRUT, bob, 0.9f),             S(STRUT, cross_step, 0.4f),      S(STRUT, hip_sway, 0.65f),
    S(STRUT, pelvis_drop, 0.19f),    S(STRUT, torso_twist, 0.6f),     S(STRUT, torso_sway, 0),
    S(STRUT, arm_swing, 0.35f),      S(STRUT, stance_knee, 0),
#undef S
};

/* An amount's default under a style. */
static float amount_default(int i, pm_catwalk_style style) {
    for (size_t k = 0; k < sizeof STYLE_DEFAULTS / sizeof STYLE_DEFAULTS[0]; k++)
        if (STYLE_DEFAULTS[k].style == style && STYLE_DEFAULTS[k].offset == AMOUNTS[i].offset) return STYLE_DEFAULTS[k].value;
    return AMOUNTS[i].def;
}

/* Plain floats: 0 = default. */
static const cw_field FLOATS[] = {
    FIELD(speed, "speed", 1, 0.5f, 200.0f / 120.0f),
    FIELD(traverse_distance, "traverseDistance", 0, 0, 400),
    FIELD(position_tolerance, "positionTolerance", 0.01f, 0.0005f, 0.5f),
    FIELD(rotation_tolerance, "rotationTolerance", 0.2f, 0.01f, 10),
};
enum { FLOAT_COUNT = sizeof FLOATS / sizeof FLOATS[0] };

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

pm_result pmi_catwalk_resolve_params(const pm_catwalk_params *in, pm_catwalk_params *out, pm_error *err) {
    pm_catwalk_params p;
    if (in) p = *in;
    else memset(&p, 0, sizeof p);
    if (!isfinite(p.bpm)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: bpm must be a finite number, got %g", p.bpm);
    if (p.bpm != 0) p.bpm = clampf(p.bpm, 60, 200);
    if (pm_beat_grid_is_set(&p.grid)) {
        pm_result r = pmi_beat_grid_check_for("catwalk", &p.grid, 1u << 20, err);
        if (r) return r;
    }
    for (int i = 0; i < FLOAT_COUNT; i++) {
        float *v = (float *)((char *)&p + FLOATS[i].offset);
        if (!isfinite(*v))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be a finite number, got %g", FLOATS[i].c_name,
                            (double)*v);
        if (*v == 0) *v = FLOATS[i].def;
        else *v = clampf(*v, FLOATS[i].min, FLOATS[i].max);
    }
    if ((uint32_t)p.style >= PM_CATWALK_STYLE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: parameter style has the invalid value %u", (unsigned)p.style);
    if (p.style == PM_CATWALK_STYLE_DEFAULT) p.style = PM_CATWALK_STYLE_RUNWAY;
    for (int i = 0; i < AMOUNT_COUNT; i++) {
        pm_amount *v = (pm_amount *)((char *)&p + AMOUNTS[i].offset);
        if (!v->set) {
            v->set = true;
            v->value = amount_default(i, p.style);
            continue;
        }
        if (!isfinite(v->value))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be a finite number, got %g", AMOUNTS[i].c_name,
                            (double)v->value);
        if (!(v->value >= AMOUNTS[i].min && v->value <= AMOUNTS[i].max))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be in [%g, %g], got %g", AMOUNTS[i].c_name,
                            (double)AMOUNTS[i].min, (double)AMOUNTS[i].max, (double)v->value);
    }
    if ((uint32_t)p.cadence >= PM_CATWALK_CADENCE_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: parameter cadence has the invalid value %u",
                        (unsigned)p.cadence);
    if ((uint32_t)p.arm_pose >= PM_CATWALK_ARMS_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: parameter arm_pose has the invalid value %u",
                        (unsigned)p.arm_pose);
    if (p.cadence == PM_CATWALK_CADENCE_DEFAULT) p.cadence = PM_CATWALK_CADENCE_TWO_BEAT;
    if (p.arm_pose == PM_CATWALK_ARMS_DEFAULT) p.arm_pose = PM_CATWALK_ARMS_SWING;
    if (p.u_turn) p.traverse = true;
    if (p.seed == 0) p.seed = 1;
    *out = p;
    return PM_OK;
}

/* ---- one value in (JSON and the ABI's parameter block) -------------------------------------------- */

/* The fields after the amounts and the floats, by JSON name (pmi_catwalk_field order). */
static const char *const OTHER_NAMES[] = {"bpm", "stepCadence", "armPose", "style", "traverse", "uTurn", "seed"};
enum { FIRST_OTHER = AMOUNT_COUNT + FLOAT_COUNT };
_Static_assert((int)AMOUNT_COUNT == (int)PMI_CW_SPEED && (int)FIRST_OTHER == (int)PMI_CW_BPM &&
                   FIRST_OTHER + sizeof OTHER_NAMES / sizeof OTHER_NAMES[0] == (size_t)PMI_CW_FIELD_COUNT,
               "the catwalk's field list and its tables differ");
/* The enums' choices after 0 (= default), as their JSON strings, NULL after the last (room for four). */
enum { MAX_CHOICES = 4 };
static const char *const CADENCES[MAX_CHOICES + 1] = {"beat", "2beat"}, *const ARM_POSES[MAX_CHOICES + 1] = {"swing", "posed"},
                         *const STYLES[MAX_CHOICES + 1] = {"runway", "feminine", "casual", "strut"};

/* The choices of an enum field, or NULL. */
static const char *const *choices_of(int f) {
    return f == PMI_CW_STEP_CADENCE ? CADENCES : f == PMI_CW_ARM_POSE ? ARM_POSES : f == PMI_CW_STYLE ? STYLES : NULL;
}

int pmi_catwalk_choice(pmi_catwalk_field field, const char *text) {
    const char *const *c = choices_of((int)field);
    for (int k = 0; c && text && k < MAX_CHOICES && c[k]; k++)
        if (strcmp(text, c[k]) == 0) return k + 1;
    return -1;
}

static const char *field_name(int f) {
    return f < AMOUNT_COUNT ? AMOUNTS[f].json_name
           : f < FIRST_OTHER ? FLOATS[f - AMOUNT_COUNT].json_name
                             : OTHER_NAMES[f - FIRST_OTHER];
}

/* A double into a float without overflowing to Inf: huge values clamp later anyway. */
static float to_float(double v) { return v > 3e38 ? 3e38f : v < -3e38 ? -3e38f : (float)v; }

pm_result pmi_catwalk_param_set(pm_catwalk_params *p, pmi_catwalk_field field, double v, const char *name,
                                pm_error *err) {
    int f = (int)field;
    if (f < 0 || f >= PMI_CW_FIELD_COUNT) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: no parameter %d", f);
    if (!name) name = field_name(f);
    if (!isfinite(v)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be a finite number, got %g", name, v);
    if (f < AMOUNT_COUNT) {
        if (!(v >= AMOUNTS[f].min && v <= AMOUNTS[f].max))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be in [%g, %g], got %g", name,
                            (double)AMOUNTS[f].min, (double)AMOUNTS[f].max, v);
        *(pm_amount *)((char *)p + AMOUNTS[f].offset) = PM_AMOUNT((float)v);
        return PM_OK;
    }
    if (f < FIRST_OTHER) {
        const cw_field *d = &FLOATS[f - AMOUNT_COUNT];
        float x = to_float(v);
        /* an explicit 0 is a value, not "default": it clamps to the minimum (except where 0 means
         * automatic, as for traverseDistance) */
        if (x == 0 && d->min > 0) x = d->min;
        *(float *)((char *)p + d->offset) = x;
        return PM_OK;
    }
    switch (field) {
    case PMI_CW_BPM: p->bpm = to_float(v); return PM_OK; /* 0 = no music, as in C */
    case PMI_CW_STEP_CADENCE:
    case PMI_CW_ARM_POSE:
    case PMI_CW_STYLE: {
        /* value k >= 1 is choice k - 1 */
        const char *const *c = choices_of(f);
        int n = 0;
        while (n < MAX_CHOICES && c[n]) n++;
        if (!(v >= 0 && v <= n && v == floor(v)))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                            n == 2   ? "catwalk: %s must be \"%s\" or \"%s\""
                            : n == 3 ? "catwalk: %s must be \"%s\", \"%s\" or \"%s\""
                                     : "catwalk: %s must be \"%s\", \"%s\", \"%s\" or \"%s\"",
                            name, c[0], c[1], c[2], c[3]);
        if (field == PMI_CW_STEP_CADENCE) p->cadence = (pm_catwalk_cadence)v;
        else if (field == PMI_CW_ARM_POSE) p->arm_pose = (pm_catwalk_arm_pose)v;
        else p->style = (pm_catwalk_style)v;
        return PM_OK;
    }
    case PMI_CW_TRAVERSE:
    case PMI_CW_U_TURN:
        if (!(v == 0 || v == 1)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: %s must be true or false", name);
        *(field == PMI_CW_TRAVERSE ? &p->traverse : &p->u_turn) = v == 1;
        return PM_OK;
    default: /* PMI_CW_SEED */
        if (v < 0 || v > 4294967295.0 || v != floor(v))
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: seed must be a whole number in [0, 2^32)");
        p->seed = (uint32_t)v;
        return PM_OK;
    }
}

/* ---- JSON in ------------------------------------------------------------------------------------ */

/* A JSON number for pmi_catwalk_param_set (which checks it further). */
static pm_result json_number(const cJSON *item, const char *key, double *out, pm_error *err) {
    const pmi_json_at at = {"catwalk", "", PM_ERR_INVALID_ARGUMENT, err};
    if (!cJSON_IsNumber(item)) return pmi_json_fail(&at, key, item, "a number");
    *out = item->valuedouble;
    return PM_OK;
}

static pm_result json_pose_angles(const cJSON *item, pm_catwalk_params *p, pm_error *err) {
    const cJSON *sh = NULL, *el = NULL;
    if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item);
        if (n < 1 || n > 2)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: poseArmAngle must be [shoulder, elbow] in degrees");
        sh = cJSON_GetArrayItem(item, 0);
        el = n > 1 ? cJSON_GetArrayItem(item, 1) : NULL;
    } else if (cJSON_IsObject(item)) {
        for (const cJSON *c = item->child; c; c = c->next) {
            if (strcmp(c->string, "shoulder") == 0) sh = c;
            else if (strcmp(c->string, "elbow") == 0) el = c;
            else return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: poseArmAngle has an unknown key '%s'", c->string);
        }
    } else if (cJSON_IsNumber(item)) {
        sh = item;
    } else {
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: poseArmAngle must be {shoulder, elbow} in degrees");
    }
    double v = 0;
    pm_result r;
    if (sh && !cJSON_IsNull(sh)) {
        const char *key = "poseArmAngle.shoulder";
        if ((r = json_number(sh, key, &v, err)) || (r = pmi_catwalk_param_set(p, PMI_CW_POSE_SHOULDER, v, key, err)))
            return r;
    }
    if (el && !cJSON_IsNull(el)) {
        const char *key = "poseArmAngle.elbow";
        if ((r = json_number(el, key, &v, err)) || (r = pmi_catwalk_param_set(p, PMI_CW_POSE_ELBOW, v, key, err)))
            return r;
    }
    return PM_OK;
}

static pm_result json_key(const cJSON *c, pm_catwalk_params *p, pm_error *err) {
    const char *key = c->string;
    if (strcmp(key, "poseArmAngle") == 0) return cJSON_IsNull(c) ? PM_OK : json_pose_angles(c, p, err);
    int f = 0;
    while (f < PMI_CW_FIELD_COUNT && strcmp(key, field_name(f)) != 0) f++;
    if (f == PMI_CW_FIELD_COUNT) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: unknown parameter '%s'", key);
    if (cJSON_IsNull(c)) return PM_OK;
    double v = -1; /* not a choice, not a flag: pmi_catwalk_param_set names what is expected */
    if (choices_of(f)) {
        v = pmi_catwalk_choice((pmi_catwalk_field)f, cJSON_GetStringValue(c));
    } else if (f == PMI_CW_TRAVERSE || f == PMI_CW_U_TURN) {
        if (cJSON_IsBool(c)) v = cJSON_IsTrue(c);
    } else {
        pm_result r = json_number(c, key, &v, err);
        if (r) return r;
    }
    return pmi_catwalk_param_set(p, (pmi_catwalk_field)f, v, key, err);
}

pm_result pm_catwalk_params_from_json(const char *json, size_t len, pm_catwalk_params *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: no output parameters");
    memset(out, 0, sizeof *out);
    if (!json || len == 0) return PM_OK;
    pm_result why;
    cJSON *root = pmi_json_parse(json, len, &why);
    if (!root)
        return why == PM_ERR_OUT_OF_MEMORY ? pmi_fail(err, why, "catwalk: out of memory parsing the parameters")
                                           : pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: the parameters are not valid JSON");
    pm_result r = PM_OK;
    if (!cJSON_IsObject(root)) r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "catwalk: the parameters must be a JSON object");
    for (const cJSON *c = root->child; c && r == PM_OK; c = c->next) r = json_key(c, out, err);
    cJSON_Delete(root);
    if (r) memset(out, 0, sizeof *out);
    return r;
}

/* ---- JSON out ----------------------------------------------------------------------------------- */

static const char *cadence_name(pm_catwalk_cadence c) { return c == PM_CATWALK_CADENCE_BEAT ? "beat" : "2beat"; }
static const char *arm_pose_name(pm_catwalk_arm_pose p) { return p == PM_CATWALK_ARMS_POSED ? "posed" : "swing"; }
static const char *style_name(pm_catwalk_style s) { return s > 0 && s < PM_CATWALK_STYLE_COUNT ? STYLES[s - 1] : "runway"; }

/* pow(10, n) for n = -32 .. 51, as libm's pow gives it (musl and glibc alike: test_catwalk checks), so
 * that tidy() needs no pow: its code and tables are 6 KB of the wasm download. */
static const double POW10[84] = {
    0x1.9f623d5a8a733p-107, 0x1.039d66589688p-103, 0x1.4484bfeebc2ap-100, 0x1.95a5efea6b347p-97,
    0x1.fb0f6be506019p-94, 0x1.3ce9a36f23c1p-90, 0x1.8c240c4aecb14p-87, 0x1.ef2d0f5da7dd9p-84,
    0x1.357c299a88ea7p-80, 0x1.82db34012b251p-77, 0x1.e392010175ee6p-74, 0x1.2e3b40a0e9b4fp-70,
    0x1.79ca10c924223p-67, 0x1.d83c94fb6d2acp-64, 0x1.2725dd1d243acp-60, 0x1.70ef54646d497p-57,
    0x1.cd2b297d889bcp-54, 0x1.203af9ee75616p-50, 0x1.6849b86a12b9bp-47, 0x1.c25c268497682p-44,
    0x1.19799812dea11p-40, 0x1.5fd7fe1796495p-37, 0x1.b7cdfd9d7bdbbp-34, 0x1.12e0be826d695p-30,
    0x1.5798ee2308c3ap-27, 0x1.ad7f29abcaf48p-24, 0x1.0c6f7a0b5ed8dp-20, 0x1.4f8b588e368f1p-17,
    0x1.a36e2eb1c432dp-14, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-4,
    0x1p+0, 0x1.4p+3, 0x1.9p+6, 0x1.f4p+9,
    0x1.388p+13, 0x1.86ap+16, 0x1.e848p+19, 0x1.312dp+23,
    0x1.7d784p+26, 0x1.dcd65p+29, 0x1.2a05f2p+33, 0x1.74876e8p+36,
    0x1.d1a94a2p+39, 0x1.2309ce54p+43, 0x1.6bcc41e9p+46, 0x1.c6bf52634p+49,
    0x1.1c37937e08p+53, 0x1.6345785d8ap+56, 0x1.bc16d674ec8p+59, 0x1.158e460913dp+63,
    0x1.5af1d78b58c4p+66, 0x1.b1ae4d6e2ef5p+69, 0x1.0f0cf064dd592p+73, 0x1.52d02c7e14af7p+76,
    0x1.a784379d99db4p+79, 0x1.08b2a2c280291p+83, 0x1.4adf4b7320335p+86, 0x1.9d971e4fe8402p+89,
    0x1.027e72f1f1281p+93, 0x1.431e0fae6d721p+96, 0x1.93e5939a08ceap+99, 0x1.f8def8808b024p+102,
    0x1.3b8b5b5056e17p+106, 0x1.8a6e32246c99cp+109, 0x1.ed09bead87c03p+112, 0x1.3426172c74d82p+116,
    0x1.812f9cf7920e3p+119, 0x1.e17b84357691bp+122, 0x1.2ced32a16a1b1p+126, 0x1.78287f49c4a1dp+129,
    0x1.d6329f1c35ca5p+132, 0x1.25dfa371a19e7p+136, 0x1.6f578c4e0a061p+139, 0x1.cb2d6f618c879p+142,
    0x1.1efc659cf7d4cp+146, 0x1.66bb7f0435c9ep+149, 0x1.c06a5ec5433c6p+152, 0x1.18427b3b4a05cp+156,
    0x1.5e531a0a1c873p+159, 0x1.b5e7e08ca3a8fp+162, 0x1.11b0ec57e649ap+166, 0x1.561d276ddfdcp+169,
};

/* A float parameter as the decimal a person typed (7 significant digits), not its binary expansion. */
static double tidy(float f) {
    double v = f;
    if (v == 0 || !isfinite(v)) return v;
    int n = 6 - (int)floor(log10(fabs(v))); /* -32 .. 51 for any finite non-zero float */
    if (n < -32) n = -32;
    if (n > 51) n = 51;
    double scale = POW10[n + 32];
    return round(v * scale) / scale;
}

double pmi_catwalk_pow10(int n) { return n < -32 || n > 51 ? 0 : POW10[n + 32]; }

/* The parameters as an object under `key` of `to`, every cJSON call checked (pmi_json_add). */
static void add_params(cJSON *to, const char *key, const pm_catwalk_params *p, bool *ok) {
    cJSON *j = pmi_json_add_object(to, key, ok);
    if (p->bpm != 0) pmi_json_add_number(j, "bpm", tidy(p->bpm), ok);
    else pmi_json_add(j, "bpm", cJSON_CreateNull(), ok);
    pmi_json_add_string(j, "stepCadence", cadence_name(p->cadence), ok);
    pmi_json_add_string(j, "armPose", arm_pose_name(p->arm_pose), ok);
    pmi_json_add_string(j, "style", style_name(p->style), ok);
    pmi_json_add_bool(j, "traverse", p->traverse, ok);
    pmi_json_add_bool(j, "uTurn", p->u_turn, ok);
    for (int i = 0; i < FLOAT_COUNT; i++)
        pmi_json_add_number(j, FLOATS[i].json_name, tidy(*(const float *)((const char *)p + FLOATS[i].offset)), ok);
    for (int i = 0; i < AMOUNT_COUNT; i++) {
        const pm_amount *v = (const pm_amount *)((const char *)p + AMOUNTS[i].offset);
        if (AMOUNTS[i].offset == offsetof(pm_catwalk_params, pose_shoulder) ||
            AMOUNTS[i].offset == offsetof(pm_catwalk_params, pose_elbow))
            continue;
        pmi_json_add_number(j, AMOUNTS[i].json_name, tidy(v->value), ok);
    }
    cJSON *pose = pmi_json_add_object(j, "poseArmAngle", ok);
    pmi_json_add_number(pose, "shoulder", tidy(p->pose_shoulder.value), ok);
    pmi_json_add_number(pose, "elbow", tidy(p->pose_elbow.value), ok);
    pmi_json_add_number(j, "seed", p->seed, ok);
}

static void add_string_list(cJSON *to, const char *key, const char *const *items, uint32_t n, bool *ok) {
    cJSON *a = pmi_json_add_array(to, key, ok);
    for (uint32_t i = 0; i < n && *ok; i++) pmi_json_add_string(a, NULL, items[i], ok);
}

/* The numbers of pm_catwalk_info, by JSON name. */
static const struct {
    const char *name;
    size_t offset;
    bool is_u32; /* else double */
} INFO_NUMBERS[] = {
    {"loopFrames", offsetof(pm_catwalk_info, loop_frames), true},
    {"beatFrames", offsetof(pm_catwalk_info, beat_frames), false},
    {"stepFrames", offsetof(pm_catwalk_info, step_frames), false},
    {"steps", offsetof(pm_catwalk_info, steps), true},
    {"bpm", offsetof(pm_catwalk_info, bpm), false},
    {"driftFramesPerMinute", offsetof(pm_catwalk_info, drift_frames_per_minute), false},
    {"keyCount", offsetof(pm_catwalk_info, key_count), true},
    {"morphKeyCount", offsetof(pm_catwalk_info, morph_key_count), true},
    {"propertyKeyCount", offsetof(pm_catwalk_info, property_key_count), true},
    {"maxPositionError", offsetof(pm_catwalk_info, max_position_error), false},
    {"maxRotationErrorDeg", offsetof(pm_catwalk_info, max_rotation_error), false},
    {"legLength", offsetof(pm_catwalk_info, leg_length), false},
    {"stepLength", offsetof(pm_catwalk_info, step_length), false},
    {"traverseDistance", offsetof(pm_catwalk_info, traverse_distance), false},
    {"crouch", offsetof(pm_catwalk_info, crouch), false},
    {"lift", offsetof(pm_catwalk_info, lift), false},
    {"beatsPerStep", offsetof(pm_catwalk_info, beats_per_step), false},
    {"firstStrikeBeat", offsetof(pm_catwalk_info, first_strike_beat), false},
};

static void add_string_or_null(cJSON *j, const char *name, const char *value, bool *ok) {
    if (value) pmi_json_add_string(j, name, value, ok);
    else pmi_json_add(j, name, cJSON_CreateNull(), ok);
}

static void add_vec(cJSON *to, pm_vec3 v, bool *ok) {
    cJSON *a = pmi_json_add_array(to, NULL, ok);
    pmi_json_add_number(a, NULL, tidy(v.x), ok);
    pmi_json_add_number(a, NULL, tidy(v.y), ok);
    pmi_json_add_number(a, NULL, tidy(v.z), ok);
}

void pmi_catwalk_report_json(cJSON *j, const pm_catwalk_info *info, bool *ok) {
    const char *limbs[2] = {"left", "right"};
    pmi_landing_report_json(j, "report", &info->report, 0.01, info->report_bones, limbs, ok);
    pmi_json_add_string(cJSON_GetObjectItemCaseSensitive(j, "report"), "model", info->on_mannequin ? "mannequin" : "model", ok);
}

cJSON *pmi_catwalk_info_json(const pm_catwalk_info *info, const pm_catwalk_plan *plan, const pmi_catwalk_closing *closing) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof INFO_NUMBERS / sizeof INFO_NUMBERS[0]; i++) {
        const char *at = (const char *)info + INFO_NUMBERS[i].offset;
        double v;
        if (INFO_NUMBERS[i].is_u32) {
            uint32_t u;
            memcpy(&u, at, sizeof u);
            v = u;
        } else {
            memcpy(&v, at, sizeof v);
        }
        pmi_json_add_number(j, INFO_NUMBERS[i].name, v, &ok);
    }
    add_string_list(j, "usedBones", info->used, info->used_count, &ok);
    add_string_list(j, "missingBones", info->missing, info->missing_count, &ok);
    add_string_or_null(j, "blinkMorph", info->blink_morph, &ok);
    add_string_or_null(j, "expressionMorph", info->expression_morph, &ok);
    add_params(j, "params", &info->params, &ok);
    if (plan) {
        cJSON *pl = pmi_json_add_object(j, "plan", &ok);
        pmi_json_add_number(pl, "frames", plan->frames, &ok);
        const char *keys[3] = {"floor", "heel", "ball"};
        for (int k = 0; k < 3; k++) {
            cJSON *a = pmi_json_add_array(pl, keys[k], &ok);
            for (int s = 0; s < 2; s++) {
                if (k == 0) pmi_json_add_number(a, NULL, tidy(plan->floor[s]), &ok);
                else add_vec(a, k == 1 ? plan->heel[s] : plan->ball[s], &ok);
            }
        }
    }
    pmi_json_add_bool(j, "looping", info->looping, &ok);
    if (info->synced) {
        cJSON *sy = pmi_beat_sync_json(j, "sync", &info->sync, &ok);
        pmi_json_add_string(sy, "measured", info->verified ? "played" : "keyed", &ok);
        if (plan && plan->strike_count) {
            cJSON *a = pmi_json_add_array(sy, "strikes", &ok);
            for (uint32_t i = 0; i < plan->strike_count && ok; i++) {
                const pm_catwalk_strike *k = &plan->strikes[i];
                cJSON *o = pmi_json_add_object(a, NULL, &ok);
                pmi_json_add_number(o, "frame", k->frame, &ok);
                pmi_json_add_string(o, "side", k->side ? "right" : "left", &ok);
                pmi_json_add_number(o, "beat", tidy(k->beat), &ok);
                pmi_json_add_number(o, "beatFrame", tidy(k->beat_frame), &ok);
                pmi_json_add_number(o, "errorFrames", tidy(k->error), &ok);
            }
        }
    } else {
        pmi_json_add(j, "sync", cJSON_CreateNull(), &ok);
    }
    pmi_json_add_bool(j, "verified", info->verified, &ok);
    if (info->verified && closing) {
        closing->report_json(j, info, &ok);
    } else {
        pmi_json_add(j, "report", cJSON_CreateNull(), &ok);
    }
    if (ok) return j;
    cJSON_Delete(j);
    return NULL;
}
