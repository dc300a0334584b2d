/* Groove settings: the joint table and defaults, merging the user's changes, JSON in and out (see
 * procmotion/groove.h, SETTINGS, and docs/groove.md). */
#include "groove_internal.h"

#include "common/json.h"
#include <math.h>
#include <stddef.h>

typedef struct joint_def {
    const char *name; /* JSON name */
    const char *bone; /* MMD bone */
    pm_rig_role role; /* the role the rig resolver finds it by (procmotion/rig.h) */
    pm_groove_joint value;
} joint_def;

/* Phase rises up the spine (0, 0.03, ... 0.15); right-side joints are half a cycle behind the left. */
static const joint_def JOINTS[PM_GROOVE_JOINT_COUNT] = {
    {"pelvis", "下半身", PM_RIG_LOWER_BODY, {PM_GROOVE_AXIS_X, PM_GROOVE_BOUNCE, 2, 1, 0}},
    {"spine", "上半身", PM_RIG_UPPER_BODY, {PM_GROOVE_AXIS_X, PM_GROOVE_BOUNCE, 2, 1, 0.03}},
    {"chest", "上半身2", PM_RIG_UPPER_BODY2, {PM_GROOVE_AXIS_X, PM_GROOVE_BOUNCE, 1.5, 1, 0.06}},
    {"upperChest", "上半身3", PM_RIG_UPPER_BODY3, {PM_GROOVE_AXIS_X, PM_GROOVE_BOUNCE, 1, 1, 0.09}},
    {"neck", "首", PM_RIG_NECK, {PM_GROOVE_AXIS_Z, PM_GROOVE_SINE, 2, 0.5, 0.12}},
    {"head", "頭", PM_RIG_HEAD, {PM_GROOVE_AXIS_Z, PM_GROOVE_SINE, 3, 0.5, 0.15}},
    {"leftShoulder", "左肩", PM_RIG_LEFT_SHOULDER, {PM_GROOVE_AXIS_Z, PM_GROOVE_SINE, 3, 1, 0.06}},
    {"rightShoulder", "右肩", PM_RIG_RIGHT_SHOULDER, {PM_GROOVE_AXIS_Z, PM_GROOVE_SINE, 3, 1, 0.56}},
    {"leftArm", "左腕", PM_RIG_LEFT_ARM, {PM_GROOVE_AXIS_X, PM_GROOVE_SINE, 4, 0.5, 0.09}},
    {"rightArm", "右腕", PM_RIG_RIGHT_ARM, {PM_GROOVE_AXIS_X, PM_GROOVE_SINE, 4, 0.5, 0.59}},
    {"leftElbow", "左ひじ", PM_RIG_LEFT_ELBOW, {PM_GROOVE_AXIS_Y, PM_GROOVE_BOUNCE, 5, 1, 0.12}},
    {"rightElbow", "右ひじ", PM_RIG_RIGHT_ELBOW, {PM_GROOVE_AXIS_Y, PM_GROOVE_BOUNCE, -5, 1, 0.62}},
};

static const pm_groove_squat SQUAT_DEFAULT = {true, PM_GROOVE_BOUNCE, 3, 1.5, 1, 0};

static const char *const AXIS_NAMES[PM_GROOVE_AXIS_COUNT] = {"x", "y", "z"};
static const char *const WAVE_NAMES[PM_GROOVE_WAVE_COUNT] = {"bounce", "sine"};

const char *pm_groove_joint_name(uint32_t joint) { return joint < PM_GROOVE_JOINT_COUNT ? JOINTS[joint].name : NULL; }
const char *pm_groove_joint_bone(uint32_t joint) { return joint < PM_GROOVE_JOINT_COUNT ? JOINTS[joint].bone : NULL; }
pm_rig_role pmi_groove_joint_role(uint32_t joint) { return joint < PM_GROOVE_JOINT_COUNT ? JOINTS[joint].role : PM_RIG_ROLE_NONE; }

uint32_t pm_groove_joint_find(const char *name) {
    if (!name) return PM_NO_INDEX;
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++)
        if (strcmp(JOINTS[j].name, name) == 0) return j;
    return PM_NO_INDEX;
}

void pm_groove_defaults(pm_groove_params *out) {
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) out->joints[j] = JOINTS[j].value;
    out->squat = SQUAT_DEFAULT;
}

void pm_groove_config_reset(pm_groove_config *cfg) {
    if (cfg) memset(cfg, 0, sizeof *cfg);
}

void pm_groove_config_reset_joint(pm_groove_config *cfg, uint32_t joint) {
    if (!cfg || joint >= PM_GROOVE_JOINT_COUNT) return;
    memset(&cfg->joints[joint], 0, sizeof cfg->joints[joint]);
    cfg->joint_set[joint] = 0;
}

void pm_groove_config_reset_squat(pm_groove_config *cfg) {
    if (!cfg) return;
    memset(&cfg->squat, 0, sizeof cfg->squat);
    cfg->squat_set = 0;
}

/* ---- checking values ----------------------------------------------------------------------------- */

typedef struct range {
    const char *field;
    double lo, hi;
    const char *unit;
} range;

static const range R_AMP = {"amp", -PMI_GROOVE_AMP_MAX, PMI_GROOVE_AMP_MAX, " (degrees)"};
static const range R_FREQ = {"freq", 0, PMI_GROOVE_FREQ_MAX, " (cycles per beat)"};
static const range R_PHASE = {"phase", 0, 1, " (cycles)"};
static const range R_VERTICAL = {"vertical", 0, PMI_GROOVE_VERTICAL_MAX, " (cm)"};
static const range R_LATERAL = {"lateral", -PMI_GROOVE_LATERAL_MAX, PMI_GROOVE_LATERAL_MAX, " (cm)"};

static bool in_range(double v, const range *r) { return isfinite(v) && v >= r->lo && v <= r->hi; }

static pm_result range_fail(pm_error *err, const char *where, const range *r, const char *got) {
    return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: %s.%s must be a number in [%g, %g]%s, got %s", where,
                    r->field, r->lo, r->hi, r->unit, got);
}

static pm_result check_number(double v, const char *where, const range *r, pm_error *err) {
    if (in_range(v, r)) return PM_OK;
    char got[40];
    pmi_format(got, sizeof got, "%g", v);
    return range_fail(err, where, r, got);
}

static pm_result check_enum(uint32_t v, uint32_t count, const char *where, const char *field, pm_error *err) {
    if (v < count) return PM_OK;
    return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: %s.%s must be %s, got %u", where, field,
                    count == PM_GROOVE_AXIS_COUNT ? "0, 1 or 2 (x, y, z)" : "0 or 1 (bounce, sine)", v);
}

/* The fields of a joint and of the squat, in the JSON writers' order; one table drives checking, merging,
 * reading and writing both. */
enum { F_BOOL, F_AXIS, F_WAVE, F_NUMBER };
typedef struct field {
    const char *name;
    uint8_t kind;  /* F_* */
    uint8_t bit;   /* PM_GROOVE_FIELD_* */
    uint8_t off;   /* offsetof in pm_groove_joint / pm_groove_squat */
    const range *r; /* F_NUMBER */
} field;

#define JF(name, kind, bit, member, r) {name, kind, bit, offsetof(pm_groove_joint, member), r}
#define SF(name, kind, bit, member, r) {name, kind, bit, offsetof(pm_groove_squat, member), r}
static const field JOINT_FIELDS[] = {
    JF("axis", F_AXIS, PM_GROOVE_FIELD_AXIS, axis, NULL),     JF("amp", F_NUMBER, PM_GROOVE_FIELD_AMP, amp, &R_AMP),
    JF("freq", F_NUMBER, PM_GROOVE_FIELD_FREQ, freq, &R_FREQ), JF("phase", F_NUMBER, PM_GROOVE_FIELD_PHASE, phase, &R_PHASE),
    JF("wave", F_WAVE, PM_GROOVE_FIELD_WAVE, wave, NULL),
};
static const field SQUAT_FIELDS[] = {
    SF("enabled", F_BOOL, PM_GROOVE_FIELD_ENABLED, enabled, NULL),
    SF("vertical", F_NUMBER, PM_GROOVE_FIELD_VERTICAL, vertical, &R_VERTICAL),
    SF("lateral", F_NUMBER, PM_GROOVE_FIELD_LATERAL, lateral, &R_LATERAL),
    SF("freq", F_NUMBER, PM_GROOVE_FIELD_FREQ, freq, &R_FREQ),
    SF("phase", F_NUMBER, PM_GROOVE_FIELD_PHASE, phase, &R_PHASE),
    SF("wave", F_WAVE, PM_GROOVE_FIELD_WAVE, wave, NULL),
};
#define JOINT_FIELD_COUNT (sizeof JOINT_FIELDS / sizeof JOINT_FIELDS[0])
#define SQUAT_FIELD_COUNT (sizeof SQUAT_FIELDS / sizeof SQUAT_FIELDS[0])

static size_t field_size(const field *f) {
    return f->kind == F_BOOL ? sizeof(bool) : f->kind == F_NUMBER ? sizeof(double) : sizeof(uint32_t);
}

/* A field's value as a double (bool and enum values are exact in one). */
static double field_get(const field *f, const void *v) {
    const char *p = (const char *)v + f->off;
    if (f->kind == F_BOOL) return *(const bool *)p;
    if (f->kind == F_NUMBER) return *(const double *)p;
    return *(const uint32_t *)p;
}

/* The enums first, then the numbers (each in table order): the order the messages have always come in. */
static pm_result check_fields(const void *v, const field *fields, size_t n, const char *where, pm_error *err) {
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            const field *f = &fields[i];
            pm_result r = PM_OK;
            if (pass == 0 && (f->kind == F_AXIS || f->kind == F_WAVE))
                r = check_enum((uint32_t)field_get(f, v), f->kind == F_AXIS ? PM_GROOVE_AXIS_COUNT : PM_GROOVE_WAVE_COUNT,
                               where, f->name, err);
            else if (pass == 1 && f->kind == F_NUMBER) r = check_number(field_get(f, v), where, f->r, err);
            if (r != PM_OK) return r;
        }
    return PM_OK;
}

static void merge_fields(void *dst, const void *src, uint32_t set, const field *fields, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (set & fields[i].bit) memcpy((char *)dst + fields[i].off, (const char *)src + fields[i].off, field_size(&fields[i]));
}

pm_result pm_groove_config_resolve(const pm_groove_config *cfg, pm_groove_params *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: resolve needs an output");
    pm_groove_params p;
    pm_groove_defaults(&p);
    if (cfg) {
        for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++)
            merge_fields(&p.joints[j], &cfg->joints[j], cfg->joint_set[j], JOINT_FIELDS, JOINT_FIELD_COUNT);
        merge_fields(&p.squat, &cfg->squat, cfg->squat_set, SQUAT_FIELDS, SQUAT_FIELD_COUNT);
    }
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) {
        char where[40];
        pmi_format(where, sizeof where, "joints.%s", JOINTS[j].name);
        pm_result r = check_fields(&p.joints[j], JOINT_FIELDS, JOINT_FIELD_COUNT, where, err);
        if (r != PM_OK) return r;
    }
    pm_result r = check_fields(&p.squat, SQUAT_FIELDS, SQUAT_FIELD_COUNT, "squat", err);
    if (r != PM_OK) return r;
    *out = p;
    return PM_OK;
}

/* ---- JSON in ------------------------------------------------------------------------------------- */

static pm_result read_number(const cJSON *v, const char *where, const range *r, double *out, pm_error *err) {
    const pmi_json_at at = {"groove", where, PM_ERR_INVALID_ARGUMENT, err};
    return pmi_json_number(&at, r->field, v, r->lo, r->hi, r->unit, out);
}

static pm_result read_name(const cJSON *v, const char *where, const char *field, const char *const *names,
                           uint32_t count, uint32_t *out, pm_error *err) {
    if (cJSON_IsString(v))
        for (uint32_t i = 0; i < count; i++)
            if (strcmp(v->valuestring, names[i]) == 0) {
                *out = i;
                return PM_OK;
            }
    const pmi_json_at at = {"groove", where, PM_ERR_INVALID_ARGUMENT, err};
    return pmi_json_fail(&at, field, v, "%s", count == PM_GROOVE_AXIS_COUNT ? "\"x\", \"y\" or \"z\"" : "\"bounce\" or \"sine\"");
}

/* A joint's or the squat's object (null: back to the defaults) into v (its defaults: def), the fields given
 * marked in *set; `list` names the fields for the unknown-field message. */
static pm_result read_fields(const cJSON *obj, const char *where, const field *fields, size_t n, const char *list,
                             void *v, size_t v_size, const void *def, uint32_t *set, pm_error *err) {
    const pmi_json_at at = {"groove", where, PM_ERR_INVALID_ARGUMENT, err};
    if (cJSON_IsNull(obj)) {
        memset(v, 0, v_size);
        *set = 0;
        return PM_OK;
    }
    if (!cJSON_IsObject(obj)) return pmi_json_fail(&at, NULL, obj, "an object or null");
    for (const cJSON *j = obj->child; j; j = j->next) {
        const char *k = j->string;
        const field *f = NULL;
        for (size_t i = 0; i < n && !f; i++)
            if (strcmp(k, fields[i].name) == 0) f = &fields[i];
        if (!f) return pmi_json_unknown(&at, k, list);
        char *p = (char *)v + f->off;
        pm_result r = PM_OK;
        if (f->kind == F_BOOL) {
            r = pmi_json_bool(&at, k, j, (bool *)p);
        } else if (f->kind == F_NUMBER) {
            r = read_number(j, where, f->r, (double *)p, err);
        } else {
            r = f->kind == F_AXIS ? read_name(j, where, k, AXIS_NAMES, PM_GROOVE_AXIS_COUNT, (uint32_t *)p, err)
                                  : read_name(j, where, k, WAVE_NAMES, PM_GROOVE_WAVE_COUNT, (uint32_t *)p, err);
        }
        if (r != PM_OK) return r;
        /* a value equal to the default is no change */
        const bool same = field_get(f, v) == field_get(f, def);
        *set = same ? *set & ~(uint32_t)f->bit : *set | f->bit;
    }
    return PM_OK;
}

static pm_result read_joint(const cJSON *obj, uint32_t joint, pm_groove_config *cfg, pm_error *err) {
    char where[40];
    pmi_format(where, sizeof where, "joints.%s", JOINTS[joint].name);
    return read_fields(obj, where, JOINT_FIELDS, JOINT_FIELD_COUNT, "axis, wave, amp, freq, phase", &cfg->joints[joint],
                       sizeof cfg->joints[joint], &JOINTS[joint].value, &cfg->joint_set[joint], err);
}

static pm_result unknown_joint(const char *name, pm_error *err) {
    return pmi_fail(err, PM_ERR_INVALID_ARGUMENT,
                    "groove: unknown joint \"%.32s\" (joints: pelvis, spine, chest, upperChest, neck, head, "
                    "leftShoulder, rightShoulder, leftArm, rightArm, leftElbow, rightElbow)",
                    name);
}

/* "reset": "all" | "joints" | "squat" | a joint name, or an array of those. */
static pm_result apply_reset_item(const cJSON *v, pm_groove_config *cfg, pm_error *err) {
    if (!cJSON_IsString(v)) {
        const pmi_json_at at = {"groove", "", PM_ERR_INVALID_ARGUMENT, err};
        return pmi_json_fail(&at, "reset", v, "\"all\", \"joints\", \"squat\", a joint name or an array of them");
    }
    const char *s = v->valuestring;
    if (strcmp(s, "all") == 0) pm_groove_config_reset(cfg);
    else if (strcmp(s, "squat") == 0) pm_groove_config_reset_squat(cfg);
    else if (strcmp(s, "joints") == 0)
        for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) pm_groove_config_reset_joint(cfg, j);
    else {
        uint32_t j = pm_groove_joint_find(s);
        if (j == PM_NO_INDEX) return unknown_joint(s, err);
        pm_groove_config_reset_joint(cfg, j);
    }
    return PM_OK;
}

static pm_result parse_root(const cJSON *root, pm_groove_config *cfg, pm_error *err) {
    if (!cJSON_IsObject(root)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: the settings must be a JSON object");
    pm_result r;
    for (const cJSON *f = root->child; f; f = f->next) {
        const char *k = f->string;
        if (strcmp(k, "reset") != 0 && strcmp(k, "joints") != 0 && strcmp(k, "squat") != 0)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: unknown setting \"%.32s\" (settings: joints, squat, reset)",
                            k);
    }
    const cJSON *reset = cJSON_GetObjectItemCaseSensitive(root, "reset");
    if (cJSON_IsArray(reset)) {
        for (const cJSON *e = reset->child; e; e = e->next)
            if ((r = apply_reset_item(e, cfg, err)) != PM_OK) return r;
    } else if (reset && (r = apply_reset_item(reset, cfg, err)) != PM_OK) {
        return r;
    }
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(root, "joints");
    if (cJSON_IsNull(joints)) {
        for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT; j++) pm_groove_config_reset_joint(cfg, j);
    } else if (joints) {
        if (!cJSON_IsObject(joints)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: joints must be an object or null");
        for (const cJSON *e = joints->child; e; e = e->next) {
            uint32_t j = pm_groove_joint_find(e->string);
            if (j == PM_NO_INDEX) return unknown_joint(e->string, err);
            if ((r = read_joint(e, j, cfg, err)) != PM_OK) return r;
        }
    }
    const cJSON *squat = cJSON_GetObjectItemCaseSensitive(root, "squat");
    if (squat && (r = read_fields(squat, "squat", SQUAT_FIELDS, SQUAT_FIELD_COUNT,
                                  "enabled, wave, vertical, lateral, freq, phase", &cfg->squat, sizeof cfg->squat,
                                  &SQUAT_DEFAULT, &cfg->squat_set, err)) != PM_OK)
        return r;
    return PM_OK;
}

pm_result pm_groove_config_parse(const char *json, size_t len, pm_groove_config *cfg, pm_error *err) {
    if (!cfg || (!json && len)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: parse needs a config and text");
    const char *text = json ? json : "", *at = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &at, false);
    if (!root && len && pmi_json_syntax_ok(text, len)) /* valid JSON: cJSON ran out of memory */
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "groove: out of memory parsing the settings");
    if (!root) {
        size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: the settings are not valid JSON (near byte %zu)", off);
    }
    pm_groove_config work = *cfg;
    pm_result r = parse_root(root, &work, err);
    cJSON_Delete(root);
    if (r == PM_OK) *cfg = work;
    return r;
}

/* ---- JSON out ------------------------------------------------------------------------------------ */

static void add_fields(cJSON *o, const void *v, uint32_t mask, const field *fields, size_t n, bool *ok) {
    for (size_t i = 0; i < n; i++) {
        const field *f = &fields[i];
        if (!(mask & f->bit)) continue;
        const double d = field_get(f, v);
        if (f->kind == F_BOOL) pmi_json_add_bool(o, f->name, d != 0, ok);
        else if (f->kind == F_NUMBER) pmi_json_add_number(o, f->name, d, ok);
        else /* an enum: d is a uint32_t's value */
            pmi_json_add_string(o, f->name, f->kind == F_AXIS ? AXIS_NAMES[(uint32_t)d % PM_GROOVE_AXIS_COUNT]
                                                              : WAVE_NAMES[(uint32_t)d % PM_GROOVE_WAVE_COUNT], ok);
    }
}

pm_result pm_groove_config_to_json(const pm_groove_config *cfg, uint32_t flags, char *out, size_t out_cap,
                                   size_t *out_size, pm_error *err) {
    if (!out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "groove: to_json needs out_size");
    const bool changed = (flags & PM_GROOVE_JSON_CHANGED) != 0;
    pm_groove_params p;
    pm_result r = pm_groove_config_resolve(cfg, &p, err);
    if (r != PM_OK) return r;
    const uint32_t all_joint = PM_GROOVE_FIELD_AXIS | PM_GROOVE_FIELD_WAVE | PM_GROOVE_FIELD_AMP | PM_GROOVE_FIELD_FREQ |
                               PM_GROOVE_FIELD_PHASE;
    const uint32_t all_squat = all_joint | PM_GROOVE_FIELD_ENABLED | PM_GROOVE_FIELD_VERTICAL | PM_GROOVE_FIELD_LATERAL;
    /* every cJSON call checked (pmi_json_add): an allocation failure is an error, never a shorter JSON */
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    cJSON *joints = cJSON_CreateObject();
    for (uint32_t j = 0; j < PM_GROOVE_JOINT_COUNT && ok; j++) {
        uint32_t mask = changed ? (cfg ? cfg->joint_set[j] & all_joint : 0) : all_joint;
        if (!mask) continue;
        cJSON *o = pmi_json_add_object(joints, JOINTS[j].name, &ok);
        add_fields(o, &p.joints[j], mask, JOINT_FIELDS, JOINT_FIELD_COUNT, &ok);
    }
    if (!joints || !changed || joints->child) pmi_json_add(root, "joints", joints, &ok); /* NULL: fails */
    else cJSON_Delete(joints);
    uint32_t smask = changed ? (cfg ? cfg->squat_set & all_squat : 0) : all_squat;
    if (smask) add_fields(pmi_json_add_object(root, "squat", &ok), &p.squat, smask, SQUAT_FIELDS, SQUAT_FIELD_COUNT, &ok);
    return pmi_json_print(root, ok, out, out_cap, out_size, "groove", err);
}
