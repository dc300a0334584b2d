/* The lifelike layer baked over a motion: the base copied, the layer's channels sampled every half frame
 * and fitted with Bezier keys, the blinks written at their corners (procmotion/lifelike.h, THE BAKE). */
#include "lifelike/lifelike_internal.h"

#include "common/json.h"
#include "keyfit/keyfit.h"
#include "lifelike/report.h"
#include "procmotion/text.h"

#include <stdlib.h>

#include <math.h>

enum { PER_FRAME = 2, DEFAULT_FRAMES = 900 };

/* The base's last bone or morph key (0 without). */
static uint32_t last_frame(const pm_vmd *v) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < v->bones.count; i++)
        if (v->bones.frame[i] > last) last = v->bones.frame[i];
    for (uint32_t i = 0; i < v->morphs.count; i++)
        if (v->morphs.frame[i] > last) last = v->morphs.frame[i];
    return last;
}

static bool keys_bone(const pm_vmd *v, const char *name) {
    for (uint32_t i = 0; v && name && i < v->bones.count; i++)
        if (strcmp(v->bone_names.items[v->bones.name_index[i]].data, name) == 0) return true;
    return false;
}
static bool keys_morph(const pm_vmd *v, const char *name) {
    for (uint32_t i = 0; v && name && i < v->morphs.count; i++)
        if (strcmp(v->morph_names.items[v->morphs.name_index[i]].data, name) == 0) return true;
    return false;
}

/* The motion's model name: the base's, else the skeleton's when Shift-JIS can hold it. */
static pm_result set_model_name(pm_vmd *out, const pm_vmd *base, const pm_target_model *m, pm_error *err) {
    const char *name = base ? base->model_name.data : m->skeleton ? m->skeleton->model_name.data : "Lifelike";
    if (!name || !name[0]) return PM_OK;
    uint8_t sjis[PM_VMD_MODEL_NAME_SIZE];
    size_t n = 0;
    if (pm_utf8_to_sjis(name, strlen(name), sjis, sizeof sjis, &n, NULL, NULL) != PM_OK) return PM_OK;
    return pm_vmd_set_model_name(out, name, err);
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The blink morph's keys: at both ends and at every blink's corners (the layer's own weight
 * there: exact, as VMD and the layer both interpolate linearly between corners). */
static pm_result write_blinks(pm_lifelike *l, uint32_t frames, pm_vmd *out, pm_lifelike_report *rep, pm_error *err) {
    const char *morph = l->info.blink_morph;
    if (!morph || !l->blink_count) return PM_OK;
    const pm_allocator *a = &l->allocator;
    int64_t *corners = pmi_alloc_array(a, (size_t)l->blink_count * 24 + 2, sizeof *corners, err, "lifelike: blink keys");
    if (!corners) return PM_ERR_OUT_OF_MEMORY;
    uint32_t n = 0;
    corners[n++] = 0, corners[n++] = frames;
    for (uint32_t i = 0; i < l->blink_count; i++) {
        int64_t c[2][4];
        int shapes = pmi_lifelike_blink_shape(l, i, l->blink_list[i], c);
        /* a blink across the seam shows at both ends */
        for (int s = 0; s < shapes; s++)
            for (int k = 0; k < 4; k++)
                for (int64_t shift = -(int64_t)frames; shift <= (int64_t)frames; shift += frames) {
                    int64_t f = c[s][k] + shift;
                    if (f > 0 && f < (int64_t)frames) corners[n++] = f;
                }
    }
    qsort(corners, n, sizeof *corners, cmp_i64);
    pm_result r = PM_OK;
    pm_lifelike_frame fr;
    for (uint32_t i = 0; i < n && r == PM_OK; i++) {
        if (i > 0 && corners[i] == corners[i - 1]) continue;
        pm_lifelike_sample(l, (double)corners[i] / 30.0, &fr);
        r = pm_vmd_add_morph_key(out, morph, (uint32_t)corners[i], fr.blink, err);
        rep->morph_keys++;
    }
    pmi_free(a, corners);
    rep->blinks = l->blink_count;
    for (uint32_t i = 0; i < l->blink_count && l->blink_count > 1; i++) {
        double gap = i + 1 < l->blink_count ? l->blink_list[i + 1] - l->blink_list[i] : l->period - l->blink_list[i] + l->blink_list[0];
        if (i == 0 || gap < rep->min_blink_interval) rep->min_blink_interval = gap;
        if (gap > rep->max_blink_interval) rep->max_blink_interval = gap;
    }
    return r;
}

pm_result pm_lifelike_bake(const pm_vmd *base, const pm_target_model *model, const pm_lifelike_settings *settings,
                           const pm_lifelike_bake_options *opts, pm_vmd **out, pm_lifelike_report *report, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: the bake needs an output");
    *out = NULL;
    if (!model) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "lifelike: a model is needed (bone names or a skeleton)");
    pm_lifelike_bake_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    const pm_allocator *a = &o.allocator;
    uint32_t frames = o.frames ? o.frames : base ? last_frame(base) : 0;
    if (frames == 0) frames = DEFAULT_FRAMES;
    if (frames > 216000u) return pmi_fail(err, PM_ERR_LIMIT, "lifelike: %u frames (at most 216000, two hours)", (unsigned)frames);
    pm_lifelike_report rep;
    memset(&rep, 0, sizeof rep);
    rep.frames = frames;

    /* what the base keys stays the base's */
    uint32_t bone[PM_LIFELIKE_CHANNEL_COUNT];
    const char *name[PM_LIFELIKE_CHANNEL_COUNT];
    pm_result r = pmi_lifelike_channels(model, a, bone, name, err);
    if (r != PM_OK) return r;
    pm_lifelike_options lo = {0};
    lo.allocator = o.allocator;
    lo.period = frames / 30.0;
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++)
        if (name[c] && keys_bone(base, name[c])) {
            lo.skip_channels |= 1u << c;
            rep.skipped_channels |= 1u << c;
            rep.skipped[rep.skipped_count++] = name[c];
        }
    const char *blink_morph = pm_rig_target_morph(model, PM_RIG_MORPH_BLINK);
    if (blink_morph && keys_morph(base, blink_morph)) {
        lo.skip_blink = true;
        rep.skipped[rep.skipped_count++] = blink_morph;
    }
    pm_lifelike *l = NULL;
    pm_vmd *vmd = NULL;
    double *q = NULL;
    pmi_keyfit *fit = NULL;
    pmi_keyfit_key *keys = NULL;
    if ((r = pm_lifelike_create(model, settings, &lo, &l, err)) != PM_OK) return r;
    const uint32_t ns = frames * PER_FRAME + 1;
    if ((r = pm_vmd_create(a, &vmd, err)) != PM_OK || (r = set_model_name(vmd, base, model, err)) != PM_OK) goto done;
    if (base && (r = pm_vmd_append(vmd, base, NULL, 0, false, &rep.copied_keys, err)) != PM_OK) goto done;
    rep.copied_keys += base ? base->morphs.count : 0;
    q = pmi_alloc_array(a, (size_t)ns * 4 * PM_LIFELIKE_CHANNEL_COUNT, sizeof *q, err, "lifelike: samples");
    keys = q ? pmi_alloc_array(a, (size_t)frames + 1, sizeof *keys, err, "lifelike: keys") : NULL;
    fit = keys ? pmi_keyfit_create(a, frames, PER_FRAME, err) : NULL;
    if (!fit) {
        r = PM_ERR_OUT_OF_MEMORY;
        goto done;
    }
    pm_lifelike_frame fr;
    for (uint32_t i = 0; i < ns; i++) {
        pm_lifelike_sample(l, (double)i / (30.0 * PER_FRAME), &fr);
        for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT; c++) {
            double *d = q + ((size_t)c * ns + i) * 4;
            pm_quat v = fr.rotation[c];
            if (i > 0 && d[-4] * v.x + d[-3] * v.y + d[-2] * v.z + d[-1] * v.w < 0) v = (pm_quat){-v.x, -v.y, -v.z, -v.w};
            d[0] = v.x, d[1] = v.y, d[2] = v.z, d[3] = v.w;
        }
    }
    for (int c = 0; c < PM_LIFELIKE_CHANNEL_COUNT && r == PM_OK; c++) {
        if (l->info.bone[c] == PM_NO_INDEX) continue;
        pmi_keyfit_track kt = {0};
        kt.frames = frames;
        kt.per_frame = PER_FRAME;
        kt.rot = q + (size_t)c * ns * 4;
        kt.pos_tol = 0.002;
        kt.rot_tol = 0.05 * (PM_PI / 180.0);
        pmi_keyfit_result res;
        if ((r = pmi_keyfit_track_fit(fit, &kt, keys, &res, err)) != PM_OK) break;
        r = pmi_keyfit_add_keys(vmd, l->info.bone_name[c], keys, res.count, err);
        rep.keyed_bones++;
        rep.bone_keys += res.count;
        if (res.max_rot_error * (180.0 / PM_PI) > rep.max_rotation_error) rep.max_rotation_error = res.max_rot_error * (180.0 / PM_PI);
    }
    if (r == PM_OK) r = write_blinks(l, frames, vmd, &rep, err);
    if (r == PM_OK) {
        *out = vmd;
        vmd = NULL;
        if (report) *report = rep;
    }
done:
    pmi_keyfit_free(fit);
    pmi_free(a, keys);
    pmi_free(a, q);
    pm_vmd_free(vmd);
    pm_lifelike_free(l);
    return r;
}

cJSON *pmi_lifelike_report_json(const pm_lifelike_report *rep) {
    bool ok = true;
    cJSON *j = cJSON_CreateObject();
    pmi_json_add_number(j, "frames", rep->frames, &ok);
    pmi_json_add_number(j, "keyedBones", rep->keyed_bones, &ok);
    pmi_json_add_number(j, "boneKeys", rep->bone_keys, &ok);
    pmi_json_add_number(j, "morphKeys", rep->morph_keys, &ok);
    pmi_json_add_number(j, "copiedKeys", rep->copied_keys, &ok);
    pmi_json_add_number(j, "blinks", rep->blinks, &ok);
    pmi_json_add_number(j, "minBlinkInterval", rep->min_blink_interval, &ok);
    pmi_json_add_number(j, "maxBlinkInterval", rep->max_blink_interval, &ok);
    pmi_json_add_number(j, "maxRotationErrorDeg", rep->max_rotation_error, &ok);
    cJSON *sk = pmi_json_add_array(j, "skipped", &ok);
    for (uint32_t i = 0; i < rep->skipped_count; i++) pmi_json_add_string(sk, NULL, rep->skipped[i], &ok);
    if (ok && j) return j;
    cJSON_Delete(j);
    return NULL;
}
