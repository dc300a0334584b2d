/* Skeletons as JSON (the interchange the JS glue, the CLI and `procmotion inspect` use); the schema
 * is documented in docs/formats.md. */
#include "common/internal.h"
#include "common/json.h"
#include "procmotion/skeleton.h"
#include "skeleton/build.h"
#include "math/inline.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

static cJSON *vec3_json(pm_vec3 v) {
    const double a[3] = {v.x, v.y, v.z};
    return cJSON_CreateDoubleArray(a, 3);
}

/* A display-only vector (a tail offset, a local axis): null when the file held a value that is not
 * finite (JSON has no NaN; get_display_vec3 reads null back as NaN). */
static cJSON *display_json(pm_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z) ? vec3_json(v) : cJSON_CreateNull();
}

static const char *format_name(pm_model_format f) {
    switch (f) {
    case PM_MODEL_FORMAT_PMX: return "pmx";
    case PM_MODEL_FORMAT_PMD: return "pmd";
    default: return "memory";
    }
}

static cJSON *skeleton_to_cjson(const pm_skeleton *s) {
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    pmi_json_add_string(root, "format", format_name(s->source.format), &ok);
    pmi_json_add_string(root, "modelName", s->model_name.data, &ok);
    pmi_json_add_string(root, "modelNameEn", s->model_name_en.data, &ok);
    if (s->source.format != PM_MODEL_FORMAT_NONE) {
        cJSON *src = pmi_json_add_object(root, "source", &ok);
        pmi_json_add_number(src, "version", s->source.version, &ok);
        pmi_json_add_number(src, "vertices", s->source.vertex_count, &ok);
        pmi_json_add_number(src, "faces", s->source.face_count, &ok);
        pmi_json_add_number(src, "textures", s->source.texture_count, &ok);
        pmi_json_add_number(src, "materials", s->source.material_count, &ok);
        pmi_json_add_string(src, "comment", s->source.model_comment.data, &ok);
        cJSON *warnings = pmi_json_add_array(src, "warnings", &ok);
        for (uint32_t w = 0; w < s->source.warning_count && w < PM_MODEL_MAX_WARNINGS; w++)
            pmi_json_add_string(warnings, NULL, s->source.warnings[w].data, &ok);
        if (s->source.warning_count > PM_MODEL_MAX_WARNINGS)
            pmi_json_add_string(warnings, NULL, "(more warnings)", &ok);
    }
    cJSON *bones = pmi_json_add_array(root, "bones", &ok);
    for (uint32_t i = 0; i < s->bone_count && ok; i++) {
        const pm_bone *b = &s->bones[i];
        cJSON *j = pmi_json_add_object(bones, NULL, &ok);
        pmi_json_add_string(j, "name", b->name.data, &ok);
        pmi_json_add_string(j, "nameEn", b->name_en.data, &ok);
        pmi_json_add(j, "position", vec3_json(b->position), &ok);
        pmi_json_add_number(j, "parent", b->parent == PM_NO_INDEX ? -1.0 : (double)b->parent, &ok);
        pmi_json_add_number(j, "transformOrder", b->transform_order, &ok);
        pmi_json_add_number(j, "flags", b->flags, &ok);
        if (b->flags & PM_BONE_TAIL_IS_BONE)
            pmi_json_add_number(j, "tailBone", b->tail_bone == PM_NO_INDEX ? -1.0 : (double)b->tail_bone, &ok);
        else pmi_json_add(j, "tail", display_json(b->tail_offset), &ok);
        if (b->flags & (PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE)) {
            cJSON *ap = pmi_json_add_object(j, "append", &ok);
            pmi_json_add_number(ap, "parent", b->append_parent == PM_NO_INDEX ? -1.0 : (double)b->append_parent, &ok);
            pmi_json_add_number(ap, "ratio", b->append_ratio, &ok);
            pmi_json_add_bool(ap, "rotate", (b->flags & PM_BONE_APPEND_ROTATE) != 0, &ok);
            pmi_json_add_bool(ap, "translate", (b->flags & PM_BONE_APPEND_TRANSLATE) != 0, &ok);
            pmi_json_add_bool(ap, "local", (b->flags & PM_BONE_LOCAL_APPEND) != 0, &ok);
        }
        if (b->flags & PM_BONE_FIXED_AXIS) pmi_json_add(j, "fixedAxis", vec3_json(b->fixed_axis), &ok);
        if (b->flags & PM_BONE_LOCAL_AXES) {
            cJSON *la = pmi_json_add_object(j, "localAxes", &ok);
            pmi_json_add(la, "x", display_json(b->local_x), &ok);
            pmi_json_add(la, "z", display_json(b->local_z), &ok);
        }
        if (b->flags & PM_BONE_EXTERNAL_PARENT) pmi_json_add_number(j, "externalParent", b->external_parent_key, &ok);
        if (b->has_ik) {
            cJSON *ik = pmi_json_add_object(j, "ik", &ok);
            pmi_json_add_number(ik, "target", b->ik.target == PM_NO_INDEX ? -1.0 : (double)b->ik.target, &ok);
            pmi_json_add_number(ik, "loopCount", b->ik.loop_count, &ok);
            pmi_json_add_number(ik, "limitAngle", b->ik.limit_angle, &ok);
            cJSON *links = pmi_json_add_array(ik, "links", &ok);
            for (uint32_t k = 0; k < b->ik.link_count && ok; k++) {
                const pm_ik_link *l = &b->ik.links[k];
                cJSON *lj = pmi_json_add_object(links, NULL, &ok);
                pmi_json_add_number(lj, "bone", l->bone, &ok);
                if (l->has_limit) {
                    pmi_json_add(lj, "limitMin", vec3_json(l->limit_min), &ok);
                    pmi_json_add(lj, "limitMax", vec3_json(l->limit_max), &ok);
                }
            }
        }
    }
    cJSON *morphs = pmi_json_add_array(root, "morphNames", &ok);
    for (uint32_t i = 0; i < s->morph_count && ok; i++) pmi_json_add_string(morphs, NULL, s->morph_names[i].data, &ok);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

pm_result pm_skeleton_to_json(const pm_skeleton *skeleton, char *out, size_t out_cap, size_t *out_size, pm_error *err) {
    if (!skeleton || !out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: to_json needs a skeleton");
    return pmi_json_print(skeleton_to_cjson(skeleton), true, out, out_cap, out_size, "skeleton", err);
}

/* ---- from JSON -------------------------------------------------------------------------------- */

typedef struct reader {
    pm_error *err;
    pm_result status;
    uint32_t bone_count;
    char path[48]; /* the object being read: "bones[3]", "bones[3].ik.links[1]" */
} reader;

static bool stop(reader *r, pm_result res) {
    if (res != PM_OK && r->status == PM_OK) r->status = res;
    return res == PM_OK;
}
/* "skeleton JSON: <path>.<key> must be <what>, got <v>" (common/json.h's idiom) */
static bool fail(reader *r, const char *key, const cJSON *v, const char *what) {
    const pmi_json_at at = {"skeleton JSON", r->path, PM_ERR_BAD_FORMAT, r->err};
    return r->status == PM_OK ? stop(r, pmi_json_fail(&at, key, v, "%s", what)) : false;
}

static bool get_vec3(reader *r, const cJSON *obj, const char *key, pm_vec3 *out, bool required) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a) return required ? fail(r, key, NULL, "three finite numbers") : true;
    const pmi_json_at at = {"skeleton JSON", r->path, PM_ERR_BAD_FORMAT, r->err};
    float v[3];
    if (!stop(r, pmi_json_floats(&at, key, a, 3, FLT_MAX, v))) return false;
    *out = pmi_vec3_make(v[0], v[1], v[2]);
    return true;
}

/* A display-only vector (a tail offset, a local axis): null stands for a value that was not finite
 * (display_json) and reads back as NaN. */
static bool get_display_vec3(reader *r, const cJSON *obj, const char *key, pm_vec3 *out, bool required) {
    if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(obj, key))) return get_vec3(r, obj, key, out, required);
    *out = pmi_vec3_make(NAN, NAN, NAN);
    return true;
}

/* An index field: -1 (or absent when optional) = none. */
static bool get_index(reader *r, const cJSON *obj, const char *key, uint32_t *out, bool allow_none) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && allow_none) {
        *out = PM_NO_INDEX;
        return true;
    }
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (x == -1 && allow_none) {
        *out = PM_NO_INDEX;
        return true;
    }
    if (!(x >= 0 && x < r->bone_count) || x != floor(x)) {
        char what[48];
        pmi_format(what, sizeof what, "a bone index below %u%s", r->bone_count, allow_none ? " or -1" : "");
        return fail(r, key, v, what);
    }
    *out = (uint32_t)x;
    return true;
}

static bool get_number(reader *r, const cJSON *obj, const char *key, double lo, double hi, double def, double *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    const pmi_json_at at = {"skeleton JSON", r->path, PM_ERR_BAD_FORMAT, r->err};
    return stop(r, pmi_json_number(&at, key, v, lo, hi, NULL, out));
}

static const char *get_string(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* modelName / modelNameEn (optional strings) onto a skeleton made by pm_skeleton_create. */
static pm_result set_model_names(const cJSON *root, pm_skeleton *s, pm_error *err) {
    const char *name = get_string(root, "modelName"), *name_en = get_string(root, "modelNameEn");
    pm_result r = name ? pmi_skeleton_set_string(s, &s->model_name, name, strlen(name), err) : PM_OK;
    if (r == PM_OK && name_en) r = pmi_skeleton_set_string(s, &s->model_name_en, name_en, strlen(name_en), err);
    if (r != PM_OK) {
        pm_skeleton_free(s);
    }
    return r;
}

pm_result pm_skeleton_from_json(const char *json, size_t len, const pm_allocator *allocator, pm_skeleton **out,
                                pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton JSON: out is NULL");
    *out = NULL;
    if (!json) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton JSON: no text");
    pm_result why;
    cJSON *root = pmi_json_parse_for(json, len, "skeleton JSON", &why, err);
    if (!root) return why;
    reader r = {err, PM_OK, 0, ""};
    pm_bone_desc *descs = NULL;
    pm_ik_link *links = NULL;
    const char **morphs = NULL;
    const cJSON *bones = cJSON_GetObjectItemCaseSensitive(root, "bones");
    if (!cJSON_IsArray(bones)) {
        fail(&r, "bones", bones, "an array");
        goto done;
    }
    /* every skeleton the PMX/PMD readers make must come back: 0 to 65 536 bones (their max_bones) */
    int n = cJSON_GetArraySize(bones);
    if (n < 0 || n > 65536) {
        r.status = pmi_fail(err, PM_ERR_LIMIT, "skeleton JSON: bones must hold at most 65536 bones, got %d", n);
        goto done;
    }
    r.bone_count = (uint32_t)n;
    size_t total_links = 0;
    for (const cJSON *b = bones->child; b; b = b->next) {
        const cJSON *ik = cJSON_GetObjectItemCaseSensitive(b, "ik");
        const cJSON *l = ik ? cJSON_GetObjectItemCaseSensitive(ik, "links") : NULL;
        if (cJSON_IsArray(l)) total_links += (size_t)cJSON_GetArraySize(l);
    }
    descs = pmi_alloc_array(allocator, (size_t)n, sizeof *descs, err, "skeleton JSON");
    links = pmi_alloc_array(allocator, total_links, sizeof *links, err, "skeleton JSON");
    if (!descs || !links) {
        r.status = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    size_t link_used = 0;
    int i = 0;
    for (const cJSON *b = bones->child; b; b = b->next, i++) {
        pm_bone_desc *d = &descs[i];
        pmi_format(r.path, sizeof r.path, "bones[%d]", i);
        if (!cJSON_IsObject(b)) {
            fail(&r, NULL, b, "an object");
            goto done;
        }
        d->name = get_string(b, "name");
        if (!d->name) { /* PMX allows empty names, so JSON does too */
            fail(&r, "name", cJSON_GetObjectItemCaseSensitive(b, "name"), "a string");
            goto done;
        }
        d->name_en = get_string(b, "nameEn");
        double flags, order, ext;
        if (!get_vec3(&r, b, "position", &d->position, true) || !get_index(&r, b, "parent", &d->parent, true) ||
            !get_number(&r, b, "flags", 0, 0xFFFF, 0, &flags) ||
            !get_number(&r, b, "transformOrder", INT32_MIN, INT32_MAX, 0, &order) ||
            !get_display_vec3(&r, b, "tail", &d->tail_offset, false) || !get_index(&r, b, "tailBone", &d->tail_bone, true) ||
            !get_vec3(&r, b, "fixedAxis", &d->fixed_axis, false) ||
            !get_number(&r, b, "externalParent", INT32_MIN, INT32_MAX, 0, &ext))
            goto done;
        /* "flags" given: exactly those bits (0 too: PMX bones with no flags exist). Absent: rotatable,
         * visible, enabled, plus what the fields present imply. Append and IK add their bits either way. */
        const bool has_tail_bone = cJSON_GetObjectItemCaseSensitive(b, "tailBone") != NULL;
        const cJSON *la = cJSON_GetObjectItemCaseSensitive(b, "localAxes");
        if (la && !cJSON_IsObject(la)) {
            fail(&r, "localAxes", la, "an object with \"x\" and \"z\"");
            goto done;
        }
        if (la) {
            pmi_format(r.path, sizeof r.path, "bones[%d].localAxes", i);
            if (!get_display_vec3(&r, la, "x", &d->local_x, true) || !get_display_vec3(&r, la, "z", &d->local_z, true))
                goto done;
            pmi_format(r.path, sizeof r.path, "bones[%d]", i);
        }
        uint32_t f = (uint32_t)flags;
        if (!cJSON_GetObjectItemCaseSensitive(b, "flags")) {
            f = PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED;
            if (has_tail_bone) f |= PM_BONE_TAIL_IS_BONE;
            if (cJSON_GetObjectItemCaseSensitive(b, "fixedAxis")) f |= PM_BONE_FIXED_AXIS;
            if (la) f |= PM_BONE_LOCAL_AXES;
            if (cJSON_GetObjectItemCaseSensitive(b, "externalParent")) f |= PM_BONE_EXTERNAL_PARENT;
        }
        d->transform_order = (int32_t)order;
        d->external_parent_key = (int32_t)ext;
        d->append_parent = PM_NO_INDEX;
        const cJSON *ap = cJSON_GetObjectItemCaseSensitive(b, "append");
        if (ap) {
            double ratio;
            pmi_format(r.path, sizeof r.path, "bones[%d].append", i);
            if (!get_index(&r, ap, "parent", &d->append_parent, true) ||
                !get_number(&r, ap, "ratio", -FLT_MAX, FLT_MAX, 1, &ratio))
                goto done;
            d->append_ratio = (float)ratio;
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ap, "rotate"))) f |= PM_BONE_APPEND_ROTATE;
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ap, "translate"))) f |= PM_BONE_APPEND_TRANSLATE;
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ap, "local"))) f |= PM_BONE_LOCAL_APPEND;
        }
        d->flags = f | PM_BONE_EXACT_FLAGS;
        const cJSON *ik = cJSON_GetObjectItemCaseSensitive(b, "ik");
        if (ik) {
            double loops, limit;
            /* -1: no target (PMX files with IK target -1 exist; the chain does nothing) */
            pmi_format(r.path, sizeof r.path, "bones[%d].ik", i);
            if (!cJSON_GetObjectItemCaseSensitive(ik, "target")) {
                fail(&r, "target", NULL, "a bone index or -1");
                goto done;
            }
            if (!get_index(&r, ik, "target", &d->ik.target, true) ||
                !get_number(&r, ik, "loopCount", 0, INT32_MAX, 40, &loops) ||
                !get_number(&r, ik, "limitAngle", -FLT_MAX, FLT_MAX, 2, &limit))
                goto done;
            d->has_ik = true;
            d->ik.loop_count = (uint32_t)loops;
            d->ik.limit_angle = (float)limit;
            const cJSON *ls = cJSON_GetObjectItemCaseSensitive(ik, "links");
            if (ls && !cJSON_IsArray(ls)) {
                fail(&r, "links", ls, "an array");
                goto done;
            }
            d->ik.links = links + link_used;
            int k = 0;
            for (const cJSON *l = ls ? ls->child : NULL; l; l = l->next, k++) {
                pm_ik_link *lk = &links[link_used++];
                pmi_format(r.path, sizeof r.path, "bones[%d].ik.links[%d]", i, k);
                d->ik.link_count++;
                if (!get_index(&r, l, "bone", &lk->bone, false)) goto done;
                if (cJSON_GetObjectItemCaseSensitive(l, "limitMin") || cJSON_GetObjectItemCaseSensitive(l, "limitMax")) {
                    lk->has_limit = true;
                    if (!get_vec3(&r, l, "limitMin", &lk->limit_min, true) ||
                        !get_vec3(&r, l, "limitMax", &lk->limit_max, true))
                        goto done;
                }
            }
        }
    }
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(root, "morphNames");
    int morph_count = cJSON_IsArray(mn) ? cJSON_GetArraySize(mn) : 0;
    morphs = pmi_alloc_array(allocator, (size_t)morph_count, sizeof *morphs, err, "skeleton JSON");
    if (!morphs) {
        r.status = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int m = 0;
    for (const cJSON *e = morph_count ? mn->child : NULL; e; e = e->next, m++) {
        if (!cJSON_IsString(e)) {
            r.path[0] = 0;
            fail(&r, "morphNames", mn, "an array of strings");
            goto done;
        }
        morphs[m] = e->valuestring;
    }
    r.status = pm_skeleton_create(descs, (uint32_t)n, morphs, (uint32_t)morph_count, allocator, out, err);
    if (r.status == PM_OK && (r.status = set_model_names(root, *out, err)) != PM_OK) *out = NULL;
done:
    pmi_free(allocator, descs);
    pmi_free(allocator, links);
    pmi_free(allocator, morphs);
    cJSON_Delete(root);
    return r.status;
}
