/* The tracing timeline as JSON (schema in docs/tracing.md). Reading validates every field and names
 * it in the error ("timeline JSON: keyframes[2].traces.leftHand.t: ..."). */
#include "tracing_internal.h"

#include "common/json.h"
#include "common/strings.h"
#include "text/utf.h"
#include "math/inline.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#define FORMAT_NAME "procmotion-timeline"
#define FORMAT_VERSION 1

/* ---- writing ----------------------------------------------------------------------------------- */

/* A float as the shortest decimal that reads back as the same float (0.1f is written 0.1). */
static cJSON *num_float(float f) {
    char buf[32];
    for (int prec = 6; prec <= 9; prec++) {
        pmi_format(buf, sizeof buf, "%.*g", prec, (double)f);
        double d = pmi_strtod(buf, NULL);
        if ((float)d == f || prec == 9) return cJSON_CreateNumber(d);
    }
    return cJSON_CreateNumber(f);
}

/* Every cJSON call is checked (pmi_json_add): an allocation failure is an error, never a shorter JSON. */
static cJSON *floats_json(const float *v, int n, bool *ok) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n && a; i++) pmi_json_add(a, NULL, num_float(v[i]), ok);
    return a;
}

static cJSON *vec3_json(const pm_vec3 *v, bool *ok) {
    const float f[3] = {v->x, v->y, v->z};
    return floats_json(f, 3, ok);
}

static cJSON *points_json(const pm_vec3 *p, uint32_t n, bool *ok) {
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n && a; i++) pmi_json_add(a, NULL, vec3_json(&p[i], ok), ok);
    return a;
}

static cJSON *easing_json(const pm_easing *e) {
    const char *name = pm_easing_name(*e);
    if (name) return cJSON_CreateString(name);
    const int v[4] = {e->x1, e->y1, e->x2, e->y2};
    return cJSON_CreateIntArray(v, 4);
}

/* A trace's or a draft's path: "mode", "points" and (pole != NULL) "pole". */
static void add_path(cJSON *o, pm_trajectory_mode mode, const pm_vec3 *points, uint32_t n, const pm_vec3 *pole, bool *ok) {
    pmi_json_add_string(o, "mode", pm_trajectory_mode_name(mode), ok);
    pmi_json_add(o, "points", points_json(points, n, ok), ok);
    if (pole) pmi_json_add(o, "pole", vec3_json(pole, ok), ok);
}

static cJSON *keyframe_json(const pm_timeline *tl, const pmi_keyframe *kf, bool *ok) {
    cJSON *j = cJSON_CreateObject();
    pmi_json_add_number(j, "beat", kf->beat, ok);
    pmi_json_add(j, "easing", easing_json(&kf->easing), ok);
    cJSON *rot = pmi_json_add_object(j, "rotations", ok);
    cJSON *trans = pmi_json_add_object(j, "translations", ok);
    for (uint32_t k = 0; k < tl->joint_count && *ok; k++) {
        const pm_quat *q = &kf->rot[k];
        const char *name = pm_timeline_joint_name(tl, k).data;
        if (!pmi_is_identity(q)) {
            const float v[4] = {q->x, q->y, q->z, q->w};
            pmi_json_add(rot, name, floats_json(v, 4, ok), ok);
        }
        if (!pmi_is_zero3(&kf->trans[k])) pmi_json_add(trans, name, vec3_json(&kf->trans[k], ok), ok);
    }
    cJSON *traces = NULL;
    for (int l = 0; l < PM_LIMB_COUNT && *ok; l++) {
        const pm_trace *t = &kf->trace[l];
        if (!t->id) continue;
        if (!traces) traces = pmi_json_add_object(j, "traces", ok);
        cJSON *tj = pmi_json_add(traces, pm_limb_name((pm_limb)l), cJSON_CreateObject(), ok);
        pmi_json_add_number(tj, "id", t->id, ok);
        add_path(tj, t->mode, t->points, t->point_count, &t->pole, ok);
        pmi_json_add(tj, "t", num_float(t->t), ok);
    }
    if (!j) *ok = false;
    return j;
}

pm_result pm_timeline_to_json(const pm_timeline *tl, char *out, size_t out_cap, size_t *out_size, pm_error *err) {
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC || !out_size)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "timeline JSON: to_json needs a timeline and out_size");
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    pmi_json_add_string(root, "format", FORMAT_NAME, &ok);
    pmi_json_add_number(root, "version", FORMAT_VERSION, &ok);
    pmi_json_add_number(root, "bpm", tl->bpm, &ok);
    pmi_json_add_number(root, "nextTraceId", tl->next_id, &ok);
    cJSON *kfs = pmi_json_add_array(root, "keyframes", &ok);
    for (uint32_t i = 0; i < tl->kf_count && ok; i++) pmi_json_add(kfs, NULL, keyframe_json(tl, &tl->kf[i], &ok), &ok);
    cJSON *drafts = pmi_json_add_object(root, "trajectories", &ok);
    for (int l = 0; l < PM_LIMB_COUNT && ok; l++) {
        const pmi_draft *d = &tl->drafts[l];
        if (!d->has) continue;
        cJSON *dj = pmi_json_add(drafts, pm_limb_name((pm_limb)l), cJSON_CreateObject(), &ok);
        add_path(dj, d->mode, d->points, d->point_count, d->has_pole ? &d->pole : NULL, &ok);
    }
    return pmi_json_print(root, ok, out, out_cap, out_size, "timeline JSON", err);
}

pm_result pm_timeline_keyframe_to_json(const pm_timeline *tl, uint32_t index, char *out, size_t out_cap,
                                       size_t *out_size, pm_error *err) {
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC || !out_size)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "timeline JSON: keyframe_to_json needs a timeline and out_size");
    if (index >= tl->kf_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "timeline JSON: keyframe %u of %u", index, tl->kf_count);
    bool ok = true;
    cJSON *j = keyframe_json(tl, &tl->kf[index], &ok);
    return pmi_json_print(j, ok, out, out_cap, out_size, "timeline JSON", err);
}

/* ---- reading ----------------------------------------------------------------------------------- */

typedef struct reader {
    pm_error *err;
    pm_result status;
    char path[192]; /* where we are, e.g. "keyframes[3].traces.leftHand" */
} reader;

/* The shared field idiom (common/json.h) at the reader's path. */
static pmi_json_at at_of(reader *r) { return (pmi_json_at){"timeline JSON", r->path, PM_ERR_BAD_FORMAT, r->err}; }
static bool ok_or_stop(reader *r, pm_result res) {
    if (res != PM_OK && r->status == PM_OK) r->status = res;
    return res == PM_OK;
}
/* "timeline JSON: <path>.<field> must be <what>, got <v>" */
static bool fail(reader *r, const char *field, const cJSON *v, const char *what) {
    if (r->status != PM_OK) return false;
    const pmi_json_at at = at_of(r);
    return ok_or_stop(r, pmi_json_fail(&at, field[0] ? field : NULL, v, "%s", what));
}

/* Push ".name" (or "[i]" when name is NULL) onto the path; returns the old length for pop(). */
static size_t push(reader *r, const char *name, int index) {
    size_t n = strlen(r->path);
    if (name) pmi_format(r->path + n, sizeof r->path - n, "%s%s", n ? "." : "", name);
    else pmi_format(r->path + n, sizeof r->path - n, "[%d]", index);
    return n;
}
static void pop(reader *r, size_t n) { r->path[n] = '\0'; }

/* An object whose fields are all among `allowed` (NULL-terminated). */
static bool check_object(reader *r, const cJSON *obj, const char *const *allowed) {
    if (!cJSON_IsObject(obj)) return fail(r, "", obj, "an object");
    for (const cJSON *c = obj->child; c; c = c->next) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++) ok = strcmp(c->string, allowed[i]) == 0;
        if (ok) continue;
        char list[128] = "";
        for (int i = 0; allowed[i]; i++) pmi_format(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", allowed[i]);
        const pmi_json_at at = at_of(r);
        return ok_or_stop(r, pmi_json_unknown(&at, c->string, list));
    }
    return true;
}

/* n finite numbers (|v| <= 1e6) as floats. */
static bool read_floats(reader *r, const cJSON *a, const char *field, float *out, int n) {
    const pmi_json_at at = at_of(r);
    return r->status == PM_OK && ok_or_stop(r, pmi_json_floats(&at, field, a, n, PMI_MAX_COORD, out));
}

static bool read_vec3(reader *r, const cJSON *a, const char *field, pm_vec3 *out) {
    float v[3];
    if (!read_floats(r, a, field, v, 3)) return false;
    *out = pmi_vec3_make(v[0], v[1], v[2]);
    return true;
}

static bool read_number(reader *r, const cJSON *v, const char *field, double lo, double hi, double *out) {
    const pmi_json_at at = at_of(r);
    return r->status == PM_OK && ok_or_stop(r, pmi_json_number(&at, field, v, lo, hi, NULL, out));
}

static bool read_mode(reader *r, const cJSON *v, pm_trajectory_mode *out) {
    if (cJSON_IsString(v) && strcmp(v->valuestring, "line") == 0) *out = PM_TRAJECTORY_LINE;
    else if (cJSON_IsString(v) && strcmp(v->valuestring, "curve") == 0) *out = PM_TRAJECTORY_CURVE;
    else return fail(r, "mode", v, "\"line\" or \"curve\"");
    return true;
}

/* points: 1..64 points, each [x, y, z]. */
static bool read_points(reader *r, const cJSON *a, pm_vec3 *out, uint32_t *count, uint32_t min) {
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < (int)min || cJSON_GetArraySize(a) > PM_TRAJECTORY_MAX_POINTS)
        return fail(r, "points", a, min == 1 ? "an array of 1 to 64 points" : "an array of 2 to 64 points");
    uint32_t i = 0;
    char field[24];
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        pmi_format(field, sizeof field, "points[%u]", i);
        if (!read_vec3(r, e, field, &out[i])) return false;
    }
    *count = i;
    return true;
}

static bool read_easing(reader *r, const cJSON *v, pm_easing *out) {
    *out = pm_easing_from_preset(PM_EASING_LINEAR);
    if (!v) return true;
    if (cJSON_IsString(v)) {
        static const char *const names[PM_EASING_PRESET_COUNT] = {"linear", "ease-in", "ease-out", "ease-in-out"};
        for (int i = 0; i < PM_EASING_PRESET_COUNT; i++)
            if (strcmp(v->valuestring, names[i]) == 0) {
                *out = pm_easing_from_preset((pm_easing_preset)i);
                return true;
            }
    } else if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 4) {
        uint8_t b[4];
        int i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || e->valuedouble != floor(e->valuedouble) || e->valuedouble < 0 || e->valuedouble > 127)
                goto bad;
            b[i] = (uint8_t)e->valuedouble;
        }
        out->x1 = b[0], out->y1 = b[1], out->x2 = b[2], out->y2 = b[3];
        return true;
    }
bad:
    return fail(r, "easing", v, "\"linear\", \"ease-in\", \"ease-out\", \"ease-in-out\" or [x1, y1, x2, y2] in [0, 127]");
}

/* A trace's or a draft's "mode", "points" (1..64) and "pole" (required, or optional: *has_pole says). */
static bool read_path(reader *r, const cJSON *j, pm_trajectory_mode *mode, pm_vec3 *pts, uint32_t *count, pm_vec3 *pole,
                      bool *has_pole) {
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "pole");
    if (has_pole) *has_pole = p != NULL;
    return read_mode(r, cJSON_GetObjectItemCaseSensitive(j, "mode"), mode) &&
           read_points(r, cJSON_GetObjectItemCaseSensitive(j, "points"), pts, count, 1) &&
           (!p && has_pole ? true : read_vec3(r, p, "pole", pole));
}

static bool read_limb(reader *r, const cJSON *c, pm_limb *out) {
    for (int l = 0; l < PM_LIMB_COUNT; l++)
        if (strcmp(c->string, pm_limb_name((pm_limb)l)) == 0) {
            *out = (pm_limb)l;
            return true;
        }
    const pmi_json_at at = at_of(r);
    return ok_or_stop(r, pmi_json_unknown(&at, c->string, "leftHand, rightHand, leftFoot, rightFoot"));
}

static bool read_trace(reader *r, pm_timeline *tl, const cJSON *j, pm_trace *out) {
    static const char *const keys[] = {"id", "mode", "points", "pole", "t", NULL};
    if (!check_object(r, j, keys)) return false;
    double id = 0, t = 0;
    pm_vec3 pts[PM_TRAJECTORY_MAX_POINTS];
    pm_trace tr = {0};
    const pmi_json_at at = at_of(r);
    if (!ok_or_stop(r, pmi_json_whole(&at, "id", cJSON_GetObjectItemCaseSensitive(j, "id"), 1, 4294967295.0, &id))) return false;
    if (!read_path(r, j, &tr.mode, pts, &tr.point_count, &tr.pole, NULL) ||
        !read_number(r, cJSON_GetObjectItemCaseSensitive(j, "t"), "t", 0, 1, &t))
        return false;
    tr.id = (uint32_t)id;
    tr.points = pts;
    tr.t = (float)t;
    pm_result res = pmi_trace_copy(tl, out, &tr, r->err);
    if (res != PM_OK) r->status = res;
    return res == PM_OK;
}

static bool read_limbs(reader *r, pm_timeline *tl, const cJSON *j, const char *field, pm_trace *traces);

/* A keyframe object into kf (initialised). */
static bool read_keyframe(reader *r, pm_timeline *tl, const cJSON *j, pmi_keyframe *kf) {
    static const char *const keys[] = {"beat", "easing", "rotations", "translations", "traces", NULL};
    if (!check_object(r, j, keys)) return false;
    if (!read_number(r, cJSON_GetObjectItemCaseSensitive(j, "beat"), "beat", 0, PM_TIMELINE_MAX_BEAT, &kf->beat) ||
        !read_easing(r, cJSON_GetObjectItemCaseSensitive(j, "easing"), &kf->easing))
        return false;
    const char *maps[2] = {"rotations", "translations"};
    for (int m = 0; m < 2; m++) {
        const cJSON *map = cJSON_GetObjectItemCaseSensitive(j, maps[m]);
        if (!map) continue;
        if (!cJSON_IsObject(map)) return fail(r, maps[m], map, "an object of bone name -> values");
        size_t at = push(r, maps[m], 0);
        for (const cJSON *c = map->child; c; c = c->next) {
            uint32_t joint = pmi_timeline_find_joint(tl, c->string);
            if (joint == PM_NO_INDEX)
                return ok_or_stop(r, pmi_fail(r->err, PM_ERR_BAD_FORMAT, "timeline JSON: %s.%.64s names no bone or joint of the skeleton",
                                             r->path, c->string));
            if (m == 0) {
                float q[4];
                if (!read_floats(r, c, c->string, q, 4)) return false;
                if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12f))
                    return fail(r, c->string, c, "a rotation (a quaternion that is not zero)");
                const pm_quat read = {q[0], q[1], q[2], q[3]};
                pmi_unit_quat(&kf->rot[joint], &read);
            } else if (!read_vec3(r, c, c->string, &kf->trans[joint])) {
                return false;
            }
        }
        pop(r, at);
    }
    const cJSON *traces = cJSON_GetObjectItemCaseSensitive(j, "traces");
    return !traces || read_limbs(r, tl, traces, "traces", kf->trace);
}

static bool read_draft(reader *r, pm_timeline *tl, const cJSON *j, pm_limb limb) {
    static const char *const keys[] = {"mode", "points", "pole", NULL};
    if (!check_object(r, j, keys)) return false;
    pm_vec3 pts[PM_TRAJECTORY_MAX_POINTS];
    pm_trajectory tr = {0};
    if (!read_path(r, j, &tr.mode, pts, &tr.point_count, &tr.pole, &tr.has_pole)) return false;
    tr.points = pts;
    pm_result res = pm_timeline_set_trajectory(tl, limb, &tr, r->err);
    if (res != PM_OK) r->status = res;
    return res == PM_OK;
}

/* An object of limb -> trace (into traces[limb]) or, traces NULL, of limb -> trajectory (the drafts). */
static bool read_limbs(reader *r, pm_timeline *tl, const cJSON *j, const char *field, pm_trace *traces) {
    if (!cJSON_IsObject(j)) return fail(r, field, j, traces ? "an object of limb -> trace" : "an object of limb -> trajectory");
    size_t at = push(r, field, 0);
    for (const cJSON *c = j->child; c; c = c->next) {
        pm_limb limb = (pm_limb)0;
        if (!read_limb(r, c, &limb)) return false;
        size_t at2 = push(r, c->string, 0);
        if (!(traces ? read_trace(r, tl, c, &traces[limb]) : read_draft(r, tl, c, limb))) return false;
        pop(r, at2);
    }
    pop(r, at);
    return true;
}

/* Names in keyframes[].rotations / translations that the skeleton lacks (distinct, first-seen order).
 * Every keyframe stores a value per joint (bones + these names), so their number is capped: a small
 * file naming thousands of bones across thousands of keyframes would otherwise ask for gigabytes.
 * A name that is not valid UTF-8 is an error (it could match no bone and could not be written back). */
static bool collect_extras(reader *r, const pm_skeleton *sk, const cJSON *kfs, const pm_allocator *a,
                           const char ***names, uint32_t *count) {
    const char **list = pmi_alloc_array(a, PMI_TIMELINE_MAX_EXTRA_BONES, sizeof *list, r->err, "timeline JSON: joint names");
    pmi_strmap seen = {a, 0, 0, NULL};
    if (!list) {
        r->status = PM_ERR_OUT_OF_MEMORY;
        return false;
    }
    *names = list;
    uint32_t n = 0;
    bool ok = true;
    for (const cJSON *k = kfs->child; k && ok; k = k->next)
        for (int m = 0; m < 2 && ok; m++) {
            const cJSON *map = cJSON_GetObjectItemCaseSensitive(k, m ? "translations" : "rotations");
            if (!cJSON_IsObject(map)) continue;
            for (const cJSON *c = map->child; c && ok; c = c->next) {
                size_t len = strlen(c->string);
                if (!len || pm_skeleton_find_mmd(sk, c->string) != PM_NO_INDEX) continue;
                if (pmi_strmap_get(&seen, c->string, len) != PM_NO_INDEX) continue;
                if (pmi_utf8_sanitize((const uint8_t *)c->string, len, NULL, 0) != len)
                    ok = fail(r, m ? "translations" : "rotations", c, "an object whose bone names are valid UTF-8");
                else if (n == PMI_TIMELINE_MAX_EXTRA_BONES)
                    ok = false, r->status = pmi_fail(r->err, PM_ERR_LIMIT,
                                                     "timeline JSON: more than %d bone names the skeleton lacks",
                                                     PMI_TIMELINE_MAX_EXTRA_BONES);
                else if (!pmi_strmap_put(&seen, c->string, len, n))
                    ok = false, r->status = pmi_fail(r->err, PM_ERR_OUT_OF_MEMORY, "timeline JSON: out of memory");
                else list[n++] = c->string;
            }
        }
    pmi_strmap_release(&seen);
    *count = n;
    return ok;
}

pm_result pm_timeline_from_json(const char *json, size_t len, const pm_skeleton *skeleton,
                                const pm_timeline_options *opts, pm_timeline **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "timeline JSON: out is NULL");
    *out = NULL;
    if (!json || !skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "timeline JSON: needs text and a skeleton");
    pm_result why;
    cJSON *root = pmi_json_parse_for(json, len, "timeline JSON", &why, err);
    if (!root) return why;
    reader r = {err, PM_OK, ""};
    pm_timeline *tl = NULL;
    const char **extras = NULL;
    uint32_t extra_count = 0;
    static const char *const keys[] = {"format", "version", "bpm", "nextTraceId", "keyframes", "trajectories", NULL};
    const cJSON *kfs = cJSON_GetObjectItemCaseSensitive(root, "keyframes");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *drafts = cJSON_GetObjectItemCaseSensitive(root, "trajectories");
    double bpm = PM_TIMELINE_DEFAULT_BPM, next_id = 1, version = FORMAT_VERSION;
    if (!check_object(&r, root, keys)) goto done;
    if (fmt && !(cJSON_IsString(fmt) && strcmp(fmt->valuestring, FORMAT_NAME) == 0)) {
        fail(&r, "format", fmt, "\"" FORMAT_NAME "\"");
        goto done;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version"), *bpm_j = cJSON_GetObjectItemCaseSensitive(root, "bpm");
    const cJSON *next = cJSON_GetObjectItemCaseSensitive(root, "nextTraceId");
    if (ver && (!read_number(&r, ver, "version", 1, 1, &version))) goto done;
    if (bpm_j && !read_number(&r, bpm_j, "bpm", PM_TIMELINE_MIN_BPM, PM_TIMELINE_MAX_BPM, &bpm)) goto done;
    if (next && !read_number(&r, next, "nextTraceId", 1, 4294967295.0, &next_id)) goto done;
    if (!cJSON_IsArray(kfs)) {
        fail(&r, "keyframes", kfs, "an array");
        goto done;
    }
    if (cJSON_GetArraySize(kfs) > PM_TIMELINE_MAX_KEYFRAMES) {
        r.status = pmi_fail(err, PM_ERR_LIMIT, "timeline JSON: keyframes: more than %d keyframes", PM_TIMELINE_MAX_KEYFRAMES);
        goto done;
    }
    if (!collect_extras(&r, skeleton, kfs, opts ? &opts->allocator : NULL, &extras, &extra_count)) goto done;
    pm_timeline_options o = {0};
    if (opts) o = *opts;
    o.bpm = bpm;
    if ((r.status = pmi_timeline_alloc(skeleton, &o, extra_count, extras, &tl, err)) != PM_OK) goto done;
    int i = 0;
    for (const cJSON *k = kfs->child; k; k = k->next, i++) {
        pmi_keyframe kf;
        if ((r.status = pmi_keyframe_init(tl, &kf, err)) != PM_OK) goto done;
        size_t at = push(&r, "keyframes", 0);
        push(&r, NULL, i);
        if (!read_keyframe(&r, tl, k, &kf)) {
            pmi_keyframe_release(tl, &kf);
            goto done;
        }
        for (int l = 0; l < PM_LIMB_COUNT; l++)
            if (kf.trace[l].id >= next_id) next_id = (double)kf.trace[l].id + 1;
        const uint32_t before = tl->kf_count;
        if ((r.status = pmi_timeline_insert(tl, &kf, NULL, err)) != PM_OK) goto done;
        if (tl->kf_count == before) {
            fail(&r, "beat", cJSON_GetObjectItemCaseSensitive(k, "beat"), "a beat no other keyframe has");
            goto done;
        }
        pop(&r, at);
    }
    tl->next_id = next_id > 4294967295.0 ? UINT32_MAX : (uint32_t)next_id;
    if (drafts && !read_limbs(&r, tl, drafts, "trajectories", NULL)) goto done;
done:
    pmi_free(opts ? &opts->allocator : NULL, extras);
    cJSON_Delete(root);
    if (r.status != PM_OK) {
        pm_timeline_free(tl);
        return r.status;
    }
    *out = tl;
    return PM_OK;
}

pm_result pm_timeline_set_keyframe_json(pm_timeline *tl, const char *json, size_t len, uint32_t *index, pm_error *err) {
    if (!tl || tl->magic != PMI_TIMELINE_MAGIC || !json)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "keyframe JSON: needs a timeline and text");
    pm_result why;
    cJSON *root = pmi_json_parse_for(json, len, "keyframe JSON", &why, err);
    if (!root) return why;
    reader r = {err, PM_OK, "keyframe"};
    pmi_keyframe kf;
    if ((r.status = pmi_keyframe_init(tl, &kf, err)) == PM_OK) {
        if (read_keyframe(&r, tl, root, &kf)) {
            for (int l = 0; l < PM_LIMB_COUNT; l++)
                if (kf.trace[l].id >= tl->next_id) tl->next_id = kf.trace[l].id + 1;
            r.status = pmi_timeline_insert(tl, &kf, index, err);
        } else {
            pmi_keyframe_release(tl, &kf);
        }
    }
    cJSON_Delete(root);
    return r.status;
}
