/* The lifelike layer: settings, the model's channels, and the layer as a function of time (see
 * procmotion/lifelike.h). */
#include "lifelike/lifelike_internal.h"

#include "common/params.h"
#include "lifelike/signal.h"
#include "math/inline.h"

#include <stddef.h>

#define DEG (PM_PI / 180.0)

/* ---- settings ----------------------------------------------------------------------------------- */

#define P(name, member, lo, hi, def, unit) {name, offsetof(pm_lifelike_settings, member), lo, hi, def, unit}
static const pmi_param PARAMS[] = {
    P("blink", blink, 0, 1, 1, NULL),
    P("blinkIntervalMin", blink_interval_min, 0.5f, 60, 2, " (seconds)"),
    P("blinkIntervalMax", blink_interval_max, 0.5f, 60, 10, " (seconds)"),
    P("blinkDuration", blink_duration, 0, 1, 0.5f, NULL),
    P("breathRate", breath_rate, 0, 1, 0.3f, NULL),
    P("breathDepth", breath_depth, 0, 1, 0.5f, NULL),
    P("microMoveExtent", micro_move_extent, 0, 1, 0.25f, NULL),
    P("microMoveCycle", micro_move_cycle, 1, 10, 3, " (seconds)"),
    P("eyeContact", eye_contact, 0, 45, 12, " (degrees)"),
    P("headTurn", head_turn, 0, 1, 0.7f, NULL),
    P("gazeRange", gaze_range, 0, 60, 10, " (degrees)"),
    P("saccades", saccades, 0, 1, 1, NULL),
};
#undef P
#define PARAM_COUNT (sizeof PARAMS / sizeof PARAMS[0])
static const char FIELDS[] = "blink, blinkInterval, blinkDuration, breathRate, breathDepth, microMoveExtent, microMoveCycle, "
                             "eyeContact, headTurn, gazeRange, saccades, seed";

pm_result pmi_lifelike_resolve(const pm_lifelike_settings *in, pm_lifelike_settings *out, pm_error *err) {
    pm_lifelike_settings s;
    memset(&s, 0, sizeof s);
    if (in) s = *in;
    pm_result r = pmi_params_resolve("lifelike", PARAMS, PARAM_COUNT, &s, err);
    if (r != PM_OK) return r;
    if (s.blink_interval_max.value < s.blink_interval_min.value)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: blinkInterval must be [min, max] with min <= max, got [%g, %g]",
                        (double)s.blink_interval_min.value, (double)s.blink_interval_max.value);
    if (s.seed == 0) s.seed = 1;
    *out = s;
    return PM_OK;
}

pm_result pm_lifelike_settings_from_json(const char *json, size_t len, pm_lifelike_settings *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: no output settings");
    memset(out, 0, sizeof *out);
    if (!json) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: no JSON");
    pm_result why;
    cJSON *root = pmi_json_parse_for(json, len, "lifelike", &why, err);
    if (!root) return why;
    const pmi_json_at at = {"lifelike", "", PM_ERR_INVALID_ARGUMENT, err};
    pm_lifelike_settings s;
    memset(&s, 0, sizeof s);
    pm_result r = PM_OK;
    if (!cJSON_IsObject(root)) r = pmi_json_fail(&at, NULL, root, "an object");
    for (const cJSON *v = root->child; v && r == PM_OK; v = v->next) {
        const char *k = v->string;
        const pmi_param *p = pmi_params_find(PARAMS, PARAM_COUNT, k);
        if (p) {
            r = pmi_params_read(&at, p, v, &s);
        } else if (strcmp(k, "blinkInterval") == 0) {
            /* [min, max] seconds, or null for the default */
            if (cJSON_IsNull(v)) {
                s.blink_interval_min.set = s.blink_interval_max.set = false;
                continue;
            }
            float mm[2];
            r = pmi_json_floats(&at, k, v, 2, 60, mm);
            if (r == PM_OK && !(mm[0] >= 0.5f && mm[1] >= mm[0]))
                r = pmi_json_fail(&at, k, v, "[min, max] seconds with 0.5 <= min <= max <= 60");
            if (r == PM_OK) s.blink_interval_min = PM_AMOUNT(mm[0]), s.blink_interval_max = PM_AMOUNT(mm[1]);
        } else if (strcmp(k, "seed") == 0) {
            double x = 0;
            if (!cJSON_IsNull(v)) r = pmi_json_whole(&at, k, v, 0, 4294967295.0, &x);
            s.seed = (uint32_t)x;
        } else {
            r = pmi_json_unknown(&at, k, FIELDS);
        }
    }
    cJSON_Delete(root);
    if (r == PM_OK) {
        pm_lifelike_settings check;
        r = pmi_lifelike_resolve(&s, &check, err);
    }
    if (r == PM_OK) *out = s;
    return r;
}

pm_result pm_lifelike_settings_to_json(const pm_lifelike_settings *in, char *out, size_t out_cap, size_t *out_size, pm_error *err) {
    pm_lifelike_settings s;
    pm_result r = pmi_lifelike_resolve(in, &s, err);
    if (r != PM_OK) return r;
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    for (size_t i = 0; i < PARAM_COUNT; i++) {
        if (PARAMS[i].offset == offsetof(pm_lifelike_settings, blink_interval_min)) {
            cJSON *a = pmi_json_add_array(j, "blinkInterval", &ok);
            pmi_json_add_number(a, NULL, s.blink_interval_min.value, &ok);
            pmi_json_add_number(a, NULL, s.blink_interval_max.value, &ok);
            continue;
        }
        if (PARAMS[i].offset == offsetof(pm_lifelike_settings, blink_interval_max)) continue;
        pmi_params_json(j, &PARAMS[i], 1, &s, &ok);
    }
    pmi_json_add_number(j, "seed", s.seed, &ok);
    return pmi_json_print(j, ok && j, out, out_cap, out_size, "lifelike", err);
}

/* ---- events: blinks and saccades ---------------------------------------------------------------- */

enum { S_BLINK = 1, S_BLINK_SHAPE, S_SACCADE, S_SACCADE_TARGET, S_GAZE_YAW, S_GAZE_PITCH, S_MICRO = 16 };

static double gap_of(const pmi_events *e, int64_t k) { return e->lo + (e->hi - e->lo) * pmi_uniform(e->seed, e->stream, k); }

void pmi_events_init(pmi_events *e, uint32_t seed, uint32_t stream, double lo, double hi) {
    memset(e, 0, sizeof *e);
    e->seed = seed, e->stream = stream, e->lo = lo, e->hi = hi;
}

double pmi_events_time(const pmi_events *e, int64_t k) {
    const double mean = 0.5 * (e->lo + e->hi), a = 0.25 * (e->hi - e->lo);
    return mean * ((double)k + 0.5) + a * (2 * pmi_uniform(e->seed, e->stream + 1000, k) - 1);
}

int64_t pmi_events_at(const pmi_events *e, double x, double *t) {
    const double mean = 0.5 * (e->lo + e->hi);
    double q = floor(x / mean);
    q = q < -9e15 ? -9e15 : q > 9e15 ? 9e15 : q;
    int64_t k = (int64_t)q + 1; /* event k - 2 is always at or before x, k + 1 never is */
    while ((*t = pmi_events_time(e, k)) > x) k--;
    return k;
}

/* ---- the layer ---------------------------------------------------------------------------------- */

static const pm_rig_role CHANNEL_ROLE[PM_LIFELIKE_CHANNEL_COUNT] = {
    PM_RIG_EYES, PM_RIG_LEFT_EYE, PM_RIG_RIGHT_EYE, PM_RIG_HEAD, PM_RIG_NECK, PM_RIG_UPPER_BODY, PM_RIG_UPPER_BODY2,
    PM_RIG_LEFT_SHOULDER, PM_RIG_RIGHT_SHOULDER};

static const char *target_bone_name(const pm_target_model *m, uint32_t i) {
    return m->skeleton ? m->skeleton->bones[i].name.data : m->bone_names[i];
}

pm_result pmi_lifelike_channels(const pm_target_model *m, const pm_allocator *a, uint32_t bone[PM_LIFELIKE_CHANNEL_COUNT],
                                const char *name[PM_LIFELIKE_CHANNEL_COUNT], pm_error *err) {
    pm_rig_roles roles;
    pm_result r;
    if (m->skeleton) {
        r = pm_rig_resolve_skeleton(m->skeleton, NULL, &roles, err);
    } else {
        if (m->bone_count && !m->bone_names)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: the model has %u bones but no bone names", (unsigned)m->bone_count);
        /* the resolver takes a name for every entry: "" for a NULL one */
        const char **names = m->bone_count ? pmi_alloc_array(a, m->bone_count, sizeof *names, err, "lifelike: bone names") : NULL;
        if (m->bone_count && !names) return PM_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < m->bone_count; i++) names[i] = m->bone_names[i] ? m->bone_names[i] : "";
        r = pm_rig_resolve_names(names, NULL, m->bone_count, NULL, &roles, err);
        pmi_free(a, names);
    }
    if (r != PM_OK) return r;
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
        bone[c] = roles.bone[CHANNEL_ROLE[c]];
        name[c] = bone[c] != PM_NO_INDEX ? target_bone_name(m, bone[c]) : NULL;
    }
    /* 両目 carries both eyes (左目 and 右目 follow it by append): the single eyes only without it */
    if (bone[PM_LIFELIKE_EYES] != PM_NO_INDEX)
        for (int c = PM_LIFELIKE_LEFT_EYE; c <= PM_LIFELIKE_RIGHT_EYE; c++) bone[c] = PM_NO_INDEX, name[c] = NULL;
    return PM_OK;
}

/* A periodic list of event times in [0, period): n gaps drawn in [lo, hi] (n the whole number nearest
 * period / mean gap that such gaps can fill), then evened out to sum to the period exactly (each moved
 * toward it as far as its range lets), from a random start. Empty when the period is shorter than lo. */
static pm_result list_events(const pmi_events *e, double period, const pm_allocator *a, double **out, uint32_t *count,
                             pm_error *err) {
    *out = NULL;
    *count = 0;
    double fewest = ceil(period / e->hi - 1e-9), most = floor(period / e->lo + 1e-9);
    if (most < 1 || fewest > most) return PM_OK;
    double want = round(period / (0.5 * (e->lo + e->hi)));
    uint32_t n = (uint32_t)(want < fewest ? fewest : want > most ? most : want);
    double *t = pmi_alloc_array(a, n, sizeof *t, err, "lifelike: events");
    if (!t) return PM_ERR_OUT_OF_MEMORY;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) sum += t[i] = gap_of(e, i);
    for (int pass = 0; pass < 32 && fabs(period - sum) > 1e-9; pass++) {
        uint32_t room = 0;
        for (uint32_t i = 0; i < n; i++) room += period > sum ? t[i] < e->hi : t[i] > e->lo;
        if (!room) break;
        double step = (period - sum) / room;
        sum = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (period > sum ? t[i] < e->hi : t[i] > e->lo) t[i] += step;
            t[i] = t[i] < e->lo ? e->lo : t[i] > e->hi ? e->hi : t[i];
            sum += t[i];
        }
    }
    /* gaps to times: the first somewhere within the last gap, the rest in order (wrapped, then sorted by
     * rotating: they stay in cyclic order) */
    double x = t[n - 1] * pmi_uniform(e->seed, e->stream, -1);
    for (uint32_t i = 0; i < n; i++) {
        double g = t[i];
        t[i] = x;
        x += g;
    }
    for (uint32_t i = 0; i < n; i++) t[i] = fmod(t[i], period);
    uint32_t first = 0;
    for (uint32_t i = 1; i < n; i++)
        if (t[i] < t[first]) first = i;
    for (uint32_t k = 0; k < first; k++) { /* rotate left by `first` */
        double v = t[0];
        memmove(t, t + 1, (n - 1) * sizeof *t);
        t[n - 1] = v;
    }
    *out = t;
    *count = n;
    return PM_OK;
}

pm_result pm_lifelike_create(const pm_target_model *model, const pm_lifelike_settings *settings, const pm_lifelike_options *opts,
                             pm_lifelike **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: no output");
    *out = NULL;
    if (!model) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: a model is needed (bone names or a skeleton)");
    pm_lifelike_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    if (!(isfinite(o.period) && o.period >= 0))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: period must be a finite number of seconds >= 0, got %g", o.period);
    pm_lifelike_settings s;
    pm_result r = pmi_lifelike_resolve(settings, &s, err);
    if (r != PM_OK) return r;
    pm_lifelike *l = pmi_alloc_array(&o.allocator, 1, sizeof *l, err, "lifelike");
    if (!l) return PM_ERR_OUT_OF_MEMORY;
    memset(l, 0, sizeof *l);
    l->allocator = o.allocator;
    l->s = s;
    l->period = o.period;
    if ((r = pmi_lifelike_channels(model, &l->allocator, l->info.bone, l->info.bone_name, err)) != PM_OK) goto fail;
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++)
        if (o.skip_channels & (1u << c)) l->info.bone[c] = PM_NO_INDEX, l->info.bone_name[c] = NULL;
    l->info.settings = s;
    l->info.blink_morph = o.skip_blink || s.blink.value <= 0 ? NULL : pm_rig_target_morph(model, PM_RIG_MORPH_BLINK);
    double breath = 5.0 - 2.0 * s.breath_rate.value;
    if (l->period > 0) breath = l->period / fmax(1.0, round(l->period / breath));
    l->info.breath_seconds = breath;
    /* periodic noise: whole cells per period */
    l->gaze_cell = 2.5;
    l->micro_cell = s.micro_move_cycle.value * 0.5;
    if (l->period > 0) {
        l->gaze_cells = (int64_t)fmax(1.0, round(l->period / l->gaze_cell));
        l->gaze_cell = l->period / (double)l->gaze_cells;
        l->micro_cells = (int64_t)fmax(1.0, round(l->period / l->micro_cell));
        l->micro_cell = l->period / (double)l->micro_cells;
    }
    pmi_events_init(&l->blinks, s.seed, S_BLINK, s.blink_interval_min.value, s.blink_interval_max.value);
    pmi_events_init(&l->saccades, s.seed, S_SACCADE, 0.4, 2.5);
    if (l->period > 0) {
        if ((r = list_events(&l->blinks, l->period, &l->allocator, &l->blink_list, &l->blink_count, err)) != PM_OK ||
            (r = list_events(&l->saccades, l->period, &l->allocator, &l->saccade_list, &l->saccade_count, err)) != PM_OK)
            goto fail;
    }
    *out = l;
    return PM_OK;
fail:
    pm_lifelike_free(l);
    return r;
}

void pm_lifelike_free(pm_lifelike *l) {
    if (!l) return;
    pm_allocator a = l->allocator;
    pmi_free(&a, l->blink_list);
    pmi_free(&a, l->saccade_list);
    pmi_free(&a, l);
}

void pm_lifelike_get_info(const pm_lifelike *l, pm_lifelike_info *info) {
    if (l && info) *info = l->info;
}

/* The event of a process at or before x: the cursor (aperiodic) or the periodic list (the last one of the
 * previous period before the first). Returns false when there is none. */
static bool event_at(const pm_lifelike *l, const pmi_events *e, const double *list, uint32_t count, double x, int64_t back, int64_t *k,
                     double *t) {
    if (l->period <= 0) {
        *k = pmi_events_at(e, x, t) - back;
        *t = pmi_events_time(e, *k);
        return true;
    }
    if (!count) return false;
    double cycles = floor(x / l->period), u = x - cycles * l->period;
    int64_t i = -1;
    uint32_t lo = 0, hi = count; /* the last list[i] <= u */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (list[mid] <= u) lo = mid + 1;
        else hi = mid;
    }
    i = (int64_t)lo - 1 - back;
    int64_t wraps = 0;
    while (i < 0) i += count, wraps++;
    *k = i;
    *t = list[i] + (cycles - (double)wraps) * l->period;
    return true;
}

/* A blink's corners in frames from its start frame: shut at c[1] .. c[2], open at c[3]. */
static void blink_corners(const pm_lifelike *l, int64_t k, int64_t start, int64_t c[4]) {
    double d = 0.1 + 0.2 * l->s.blink_duration.value;
    d *= 1 + 0.3 * (pmi_uniform(l->s.seed, S_BLINK_SHAPE, 2 * k) - 0.5);
    int64_t D = (int64_t)llround(30.0 * d);
    if (D < 3) D = 3;
    int64_t close = (int64_t)llround(0.35 * (double)D), hold = (int64_t)llround(0.15 * (double)D);
    if (close < 1) close = 1;
    int64_t open = D - close - hold;
    if (open < 2) open = 2;
    c[0] = start, c[1] = start + close, c[2] = c[1] + hold, c[3] = c[2] + open;
}

int pmi_lifelike_blink_shape(const pm_lifelike *l, int64_t k, double t, int64_t corners[2][4]) {
    int64_t start = (int64_t)llround(30.0 * t);
    blink_corners(l, k, start, corners[0]);
    if (pmi_uniform(l->s.seed, S_BLINK_SHAPE, 2 * k + 1) >= 1.0 / 7.0) return 1;
    int64_t gap = (int64_t)llround(30.0 * (0.1 + 0.1 * pmi_uniform(l->s.seed, S_BLINK_SHAPE, -2 * k - 1)));
    blink_corners(l, -k - 1, corners[0][3] + gap, corners[1]);
    return 2;
}

static double corner_weight(const int64_t c[4], double f) {
    if (f <= (double)c[0] || f >= (double)c[3]) return 0;
    if (f < (double)c[1]) return (f - (double)c[0]) / (double)(c[1] - c[0]);
    if (f <= (double)c[2]) return 1;
    return ((double)c[3] - f) / (double)(c[3] - c[2]);
}

static double blink_weight(pm_lifelike *l, double x) {
    if (!l->info.blink_morph) return 0;
    double f = 30.0 * x, w = 0;
    for (int64_t back = 0; back < 2; back++) {
        int64_t k;
        double t;
        if (!event_at(l, &l->blinks, l->blink_list, l->blink_count, x, back, &k, &t)) break;
        int64_t c[2][4];
        int n = pmi_lifelike_blink_shape(l, k, t, c);
        for (int i = 0; i < n; i++) w = fmax(w, corner_weight(c[i], f));
    }
    return w * l->s.blink.value;
}

/* The saccades' offset of the gaze at x (yaw, pitch in degrees): held at each fixation, a 2-frame jump to
 * the next. */
static void saccade_offset(pm_lifelike *l, double x, double out[2]) {
    out[0] = out[1] = 0;
    if (l->s.saccades.value <= 0) return;
    int64_t k, kp;
    double t, tp;
    if (!event_at(l, &l->saccades, l->saccade_list, l->saccade_count, x, 0, &k, &t)) return;
    event_at(l, &l->saccades, l->saccade_list, l->saccade_count, x, 1, &kp, &tp);
    double a = 4.0 * l->s.saccades.value, u = pmi_smooth((x - t) / (2.0 / 30.0));
    for (int axis = 0; axis < 2; axis++) {
        double cur = a * (2 * pmi_uniform(l->s.seed, S_SACCADE_TARGET, 2 * k + axis) - 1);
        double prev = a * (2 * pmi_uniform(l->s.seed, S_SACCADE_TARGET, 2 * kp + axis) - 1);
        out[axis] = prev + (cur - prev) * u;
    }
}

/* Noise of a channel axis: period-aware. */
static double chan_noise(const pm_lifelike *l, uint32_t stream, double x, double cell, int64_t cells) {
    return pmi_noise(l->s.seed, stream, x / cell, l->period > 0 ? cells : 0);
}

/* The slow part of the gaze (yaw, pitch in degrees). */
static void gaze_slow(const pm_lifelike *l, double x, double out[2]) {
    double g = l->s.gaze_range.value;
    out[0] = g * chan_noise(l, S_GAZE_YAW, x, l->gaze_cell, l->gaze_cells);
    out[1] = 0.5 * g * chan_noise(l, S_GAZE_PITCH, x, l->gaze_cell, l->gaze_cells);
}

static double excess(double v, double limit) { return v > limit ? v - limit : v < -limit ? v + limit : 0; }
static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static pm_quat quat_of(pmi_dq q) { return pm_quat_normalize((pm_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w}); }
static pmi_dq dq_axis(double ax, double ay, double az, double deg) {
    double h = 0.5 * deg * DEG, s = sin(h);
    return (pmi_dq){ax * s, ay * s, az * s, cos(h)};
}
/* yaw about Y, then pitch about X, then roll about Z (degrees) */
static pmi_dq dq_ypr(double yaw, double pitch, double roll) {
    return pmi_dq_mul(pmi_dq_mul(dq_axis(0, 1, 0, yaw), dq_axis(1, 0, 0, pitch)), dq_axis(0, 0, 1, roll));
}

void pm_lifelike_sample(pm_lifelike *l, double seconds, pm_lifelike_frame *out) {
    const pm_lifelike_settings *s = &l->s;
    double x = isfinite(seconds) ? seconds : 0;
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
        out->bone[c] = l->info.bone[c];
        out->rotation[c] = pm_quat_identity();
    }
    const uint32_t *bone = l->info.bone;
    /* gaze: eyes up to eye_contact, the head takes head_turn of the rest, 0.2 s later */
    double g[2], gl[2], sac[2], head_g[2], eye[2];
    gaze_slow(l, x, g);
    gaze_slow(l, x - 0.2, gl);
    saccade_offset(l, x, sac);
    const double ec = s->eye_contact.value;
    const bool head = bone[PM_LIFELIKE_HEAD] != PM_NO_INDEX;
    for (int a = 0; a < 2; a++) {
        head_g[a] = head ? s->head_turn.value * excess(gl[a], ec) : 0;
        eye[a] = clampd(g[a] + sac[a] - head_g[a], -ec, ec);
    }
    pmi_dq eyes = dq_ypr(eye[0], eye[1], 0);
    for (int c = PM_LIFELIKE_EYES; c <= PM_LIFELIKE_RIGHT_EYE; c++)
        if (bone[c] != PM_NO_INDEX) out->rotation[c] = quat_of(eyes);
    /* micro-moves */
    const double m = s->micro_move_extent.value;
    static const double AMP[3] = {6, 3, 1.5}; /* head, neck, spine (degrees at extent 1) */
    for (int j = 0; j < 3; j++) {
        int c = PM_LIFELIKE_HEAD + j;
        if (bone[c] == PM_NO_INDEX) continue;
        double v[3];
        for (int a = 0; a < 3; a++) v[a] = m * AMP[j] * (a == 2 ? 0.5 : 1) * chan_noise(l, S_MICRO + 3 * j + a, x, l->micro_cell, l->micro_cells);
        if (c == PM_LIFELIKE_HEAD) v[0] += head_g[0], v[1] += head_g[1];
        out->rotation[c] = quat_of(dq_ypr(v[0], v[1], v[2]));
    }
    /* breathing: the chest (else the spine) back, the shoulders up */
    const double b = s->breath_depth.value * pmi_breath(x / l->info.breath_seconds);
    int chest = bone[PM_LIFELIKE_CHEST] != PM_NO_INDEX ? PM_LIFELIKE_CHEST : PM_LIFELIKE_SPINE;
    if (bone[chest] != PM_NO_INDEX && b > 0) {
        pm_quat q = quat_of(dq_axis(1, 0, 0, 2.5 * b));
        out->rotation[chest] = pm_quat_normalize(pm_quat_mul(out->rotation[chest], q));
    }
    for (int side = 0; side < 2; side++) {
        int c = PM_LIFELIKE_LEFT_SHOULDER + side;
        if (bone[c] != PM_NO_INDEX) out->rotation[c] = quat_of(dq_axis(0, 0, side ? -1 : 1, 1.5 * b));
    }
    out->blink = (float)blink_weight(l, x);
}
