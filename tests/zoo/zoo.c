/* The model zoo: mannequin skeletons edited to look like real models, their files, their figures,
 * and the evaluator-side harness (see zoo.h and docs/zoo.md). */
#include "zoo.h"

#include "common/internal.h"
#include "mannequin/mannequin_internal.h"
#include "procmotion/mannequin.h"
#include "procmotion/pose.h"
#include "skeleton/build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)

/* ---- the catalogue ------------------------------------------------------------------------------ */

#define PMX PM_MODEL_FORMAT_PMX
#define PMD PM_MODEL_FORMAT_PMD
#define ARMS(a) .set_arms = true, .arm_deg = (a)
#define KNEES(l, r) .set_knees = true, .knee_deg = {(l), (r)}

/* Each edit once as PMX and once as PMD (except the D-bone rigs, which PMD's fixed transform order
 * cannot express), and two combinations like the measured real models. */
static const pm_zoo_model zoo[] = {
    {"apose30", PMX, "A-pose: upper arms 30 degrees below horizontal", {ARMS(30)}},
    {"apose45", PMX, "A-pose: upper arms 45 degrees below horizontal", {ARMS(45)}},
    {"tpose", PMX, "T-pose: upper arms horizontal", {ARMS(0)}},
    {"knee0", PMX, "knees resting straight (0 degrees)", {KNEES(0, 0)}},
    {"knee15", PMX, "knees resting bent 15 degrees", {KNEES(15, 15)}},
    {"knee31", PMX, "knees resting bent 31 degrees", {KNEES(31, 31)}},
    {"ikdrop", PMX, "足ＩＫ 0.36 units below 足首 at rest", {.ik_drop = 0.36f}},
    {"ikparent", PMX, "足IK親 between 全ての親 and 足ＩＫ", {.ik_parent = true}},
    {"dbones", PMX, "足D, ひざD, 足首D (legs skinned to them) driven by a ひざDIK chain of their own", {.d_bones = true}},
    {"waistcancel", PMX, "腰キャンセル左/右 (append -1 of 腰) above 足", {.waist_cancel = true}},
    {"nogroove", PMX, "no グルーブ and no 上半身2", {.no_groove = true, .no_upper2 = true}},
    {"asym", PMX, "asymmetric rest: left knee bent 31 degrees, right 2", {KNEES(31, 2)}},
    {"scale05", PMX, "half size (0.5x)", {.scale = 0.5f}},
    {"scale2", PMX, "double size (2x)", {.scale = 2.0f}},
    {"realpmx", PMX, "like a modern PMX model: arms 30, knees 31/2, 足IK親, 腰キャンセル, D bones with ひざDIK",
     {ARMS(30), KNEES(31, 2), .ik_parent = true, .waist_cancel = true, .d_bones = true}},
    {"unity", PMX, "like a Unity-exported PMX: 1.3x (about 25 units tall), no グルーブ, NaN tail offsets on 頭, 手首 and つま先, 4 bytes after the last section",
     {.scale = 1.3f, .no_groove = true, .unity_quirks = true}},
    {"apose30-pmd", PMD, "PMD: A-pose 30 degrees", {ARMS(30)}},
    {"apose45-pmd", PMD, "PMD: A-pose 45 degrees", {ARMS(45)}},
    {"tpose-pmd", PMD, "PMD: T-pose", {ARMS(0)}},
    {"knee0-pmd", PMD, "PMD: knees straight", {KNEES(0, 0)}},
    {"knee15-pmd", PMD, "PMD: knees bent 15 degrees", {KNEES(15, 15)}},
    {"knee31-pmd", PMD, "PMD: knees bent 31 degrees", {KNEES(31, 31)}},
    {"ikdrop-pmd", PMD, "PMD: 足ＩＫ 0.36 units below 足首", {.ik_drop = 0.36f}},
    {"ikparent-pmd", PMD, "PMD: 足IK親", {.ik_parent = true}},
    {"waistcancel-pmd", PMD, "PMD: 腰キャンセル", {.waist_cancel = true}},
    {"nogroove-pmd", PMD, "PMD: no グルーブ and no 上半身2", {.no_groove = true, .no_upper2 = true}},
    {"asym-pmd", PMD, "PMD: left knee 31 degrees, right 2", {KNEES(31, 2)}},
    {"scale05-pmd", PMD, "PMD: half size", {.scale = 0.5f}},
    {"scale2-pmd", PMD, "PMD: double size", {.scale = 2.0f}},
    {"realpmd", PMD, "like an older PMD model: 足ＩＫ 0.36 below 足首, knees 4, arms 35, no グルーブ or 上半身2",
     {ARMS(35), KNEES(4, 4), .ik_drop = 0.36f, .no_groove = true, .no_upper2 = true}},
};

size_t pm_zoo_count(void) { return sizeof zoo / sizeof zoo[0]; }

const pm_zoo_model *pm_zoo_at(size_t i) { return i < pm_zoo_count() ? &zoo[i] : NULL; }

const pm_zoo_model *pm_zoo_find(const char *id) {
    for (size_t i = 0; id && i < pm_zoo_count(); i++)
        if (strcmp(zoo[i].id, id) == 0) return &zoo[i];
    return NULL;
}

/* ---- editing a skeleton through its descs ---------------------------------------------------------- */

enum { ZB = 80, ZL = 4, ZN = 48 };

typedef struct draft {
    uint32_t n;
    pm_bone_desc b[ZB];
    char name[ZB][ZN], name_en[ZB][ZN];
    pm_ik_link links[ZB][ZL];
} draft;

static uint32_t dfind(const draft *d, const char *name) {
    for (uint32_t i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return i;
    return PM_NO_INDEX;
}

static pm_vec3 *dpos(draft *d, const char *name) {
    uint32_t i = dfind(d, name);
    return i == PM_NO_INDEX ? NULL : &d->b[i].position;
}

/* Every bone index a desc holds goes through fn. */
static void renumber(draft *d, uint32_t (*fn)(uint32_t, uint32_t, uint32_t), uint32_t at, uint32_t to) {
    for (uint32_t i = 0; i < d->n; i++) {
        pm_bone_desc *b = &d->b[i];
        b->parent = fn(b->parent, at, to);
        b->append_parent = fn(b->append_parent, at, to);
        if (b->flags & PM_BONE_TAIL_IS_BONE) b->tail_bone = fn(b->tail_bone, at, to);
        if (b->has_ik) {
            b->ik.target = fn(b->ik.target, at, to);
            for (uint32_t k = 0; k < b->ik.link_count; k++) d->links[i][k].bone = fn(d->links[i][k].bone, at, to);
        }
    }
}

static uint32_t shift_up(uint32_t v, uint32_t at, uint32_t to) {
    (void)to;
    return v != PM_NO_INDEX && v >= at ? v + 1 : v;
}

static uint32_t shift_down(uint32_t v, uint32_t at, uint32_t to) {
    return v == PM_NO_INDEX ? v : v == at ? to : v > at ? v - 1 : v;
}

static void move_entry(draft *d, uint32_t to, uint32_t from) {
    d->b[to] = d->b[from];
    memcpy(d->name[to], d->name[from], ZN);
    memcpy(d->name_en[to], d->name_en[from], ZN);
    memcpy(d->links[to], d->links[from], sizeof d->links[0]);
}

/* A new bone at index `at` (references given in the numbering after the insertion). */
static uint32_t dinsert(draft *d, uint32_t at, const char *name, const char *name_en, pm_vec3 pos, uint32_t parent,
                        uint32_t flags) {
    renumber(d, shift_up, at, 0);
    for (uint32_t i = d->n; i > at; i--) move_entry(d, i, i - 1);
    d->n++;
    pm_bone_desc *b = &d->b[at];
    memset(b, 0, sizeof *b);
    memset(d->links[at], 0, sizeof d->links[0]);
    snprintf(d->name[at], ZN, "%s", name);
    snprintf(d->name_en[at], ZN, "%s", name_en);
    b->position = pos;
    b->parent = parent;
    b->flags = flags | PM_BONE_EXACT_FLAGS;
    b->append_parent = PM_NO_INDEX;
    b->tail_bone = PM_NO_INDEX;
    b->ik.target = PM_NO_INDEX;
    return at;
}

/* Remove a bone nobody appends or solves with: its children hang from its parent, a bone whose tail
 * it was points at its tail instead. */
static void dremove(draft *d, uint32_t i) {
    const pm_bone_desc gone = d->b[i];
    for (uint32_t j = 0; j < d->n; j++) {
        pm_bone_desc *b = &d->b[j];
        if (b->parent == i) b->parent = gone.parent;
        if ((b->flags & PM_BONE_TAIL_IS_BONE) && b->tail_bone == i) {
            if (gone.flags & PM_BONE_TAIL_IS_BONE) b->tail_bone = gone.tail_bone;
            else b->flags &= ~(uint32_t)PM_BONE_TAIL_IS_BONE, b->tail_offset = gone.tail_offset;
        }
    }
    renumber(d, shift_down, i, PM_NO_INDEX);
    for (uint32_t j = i; j + 1 < d->n; j++) move_entry(d, j, j + 1);
    d->n--;
}

static pm_result draft_from(draft *d, const pm_skeleton *s, pm_error *err) {
    memset(d, 0, sizeof *d);
    if (s->bone_count > ZB) return pmi_fail(err, PM_ERR_LIMIT, "zoo: %s has too many bones", "the skeleton");
    for (uint32_t i = 0; i < s->bone_count; i++) {
        pm_result r = pm_skeleton_bone_desc(s, i, &d->b[i], err);
        if (r != PM_OK) return r;
        snprintf(d->name[i], ZN, "%s", s->bones[i].name.data);
        snprintf(d->name_en[i], ZN, "%s", s->bones[i].name_en.data);
        if (d->b[i].ik.link_count > ZL) return pmi_fail(err, PM_ERR_LIMIT, "zoo: %s has too many IK links", d->name[i]);
        if (d->b[i].ik.link_count) memcpy(d->links[i], d->b[i].ik.links, d->b[i].ik.link_count * sizeof(pm_ik_link));
    }
    d->n = s->bone_count;
    return PM_OK;
}

static const char *const side_name[2] = {"左", "右"};

static void sided(char *out, int side, const char *bone) { snprintf(out, ZN, "%s%s", side_name[side], bone); }

/* Where the knee goes for a rest bend of `deg` with hip and ankle kept: on the plane of the leg, the
 * foot of its perpendicular where it was along the hip-ankle line. */
static pm_vec3 knee_for_bend(pm_vec3 hip, pm_vec3 knee, pm_vec3 ankle, double deg) {
    double a[3] = {ankle.x - hip.x, ankle.y - hip.y, ankle.z - hip.z};
    double k[3] = {knee.x - hip.x, knee.y - hip.y, knee.z - hip.z};
    double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double u[3] = {a[0] / len, a[1] / len, a[2] / len};
    double along = k[0] * u[0] + k[1] * u[1] + k[2] * u[2];
    double perp[3] = {k[0] - along * u[0], k[1] - along * u[1], k[2] - along * u[2]};
    double pl = sqrt(perp[0] * perp[0] + perp[1] * perp[1] + perp[2] * perp[2]);
    if (pl < 1e-6) { /* straight: bend forward (-Z) */
        double fz[3] = {0, 0, -1}, d = -u[2];
        for (int i = 0; i < 3; i++) perp[i] = fz[i] - d * u[i];
        pl = sqrt(perp[0] * perp[0] + perp[1] * perp[1] + perp[2] * perp[2]);
    }
    double r0 = along, r1 = len - along, target = deg * DEG, lo = 0, hi = 10 * len;
    for (int it = 0; it < 200; it++) { /* atan(h / r0) + atan(h / r1) = bend */
        double h = 0.5 * (lo + hi);
        if (atan(h / r0) + atan(h / r1) < target) lo = h;
        else hi = h;
    }
    double h = deg == 0 ? 0 : 0.5 * (lo + hi);
    return pm_vec3_make((float)(hip.x + along * u[0] + h * perp[0] / pl), (float)(hip.y + along * u[1] + h * perp[1] / pl),
                        (float)(hip.z + along * u[2] + h * perp[2] / pl));
}

static pm_vec3 rotate_z_about(pm_vec3 p, pm_vec3 c, double angle) {
    double x = p.x - c.x, y = p.y - c.y, cs = cos(angle), sn = sin(angle);
    return pm_vec3_make((float)(c.x + cs * x - sn * y), (float)(c.y + sn * x + cs * y), p.z);
}

static pm_result edit(draft *d, const pm_zoo_edits *e, pm_error *err) {
    char n0[ZN], n1[ZN], n2[ZN];
    for (int side = 0; side < 2; side++) {
        if (e->set_knees) {
            sided(n0, side, "足"), sided(n1, side, "ひざ"), sided(n2, side, "足首");
            pm_vec3 *hip = dpos(d, n0), *knee = dpos(d, n1), *ankle = dpos(d, n2);
            *knee = knee_for_bend(*hip, *knee, *ankle, e->knee_deg[side]);
        }
        if (e->set_arms) { /* turn ひじ and 手首 about 腕 in the frontal plane */
            sided(n0, side, "腕"), sided(n1, side, "ひじ"), sided(n2, side, "手首");
            pm_vec3 arm = *dpos(d, n0), *elbow = dpos(d, n1), *wrist = dpos(d, n2);
            double dx = fabs((double)elbow->x - arm.x), dy = (double)elbow->y - arm.y;
            double now = atan2(-dy, dx), turn = (now - e->arm_deg * DEG) * (side ? -1 : 1);
            *elbow = rotate_z_about(*elbow, arm, turn);
            *wrist = rotate_z_about(*wrist, arm, turn);
            pm_bone_desc *w = &d->b[dfind(d, n2)];
            w->tail_offset = rotate_z_about(w->tail_offset, pm_vec3_make(0, 0, 0), turn);
        }
    }
    if (e->no_groove) dremove(d, dfind(d, "グルーブ"));
    if (e->no_upper2) dremove(d, dfind(d, "上半身2"));
    const uint32_t plain = PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED;
    for (int side = 0; side < 2; side++) {
        if (e->waist_cancel) { /* as yw_test_model has them: hidden, rotation appended from 腰 at -1 */
            sided(n0, side, "足"), snprintf(n1, ZN, "腰キャンセル%s", side_name[side]);
            uint32_t leg = dfind(d, n0);
            uint32_t c = dinsert(d, leg, n1, side ? "waist cancel_R" : "waist cancel_L", d->b[leg].position,
                                 d->b[leg].parent, PM_BONE_ROTATABLE | PM_BONE_ENABLED | PM_BONE_APPEND_ROTATE);
            d->b[c].append_parent = dfind(d, "腰");
            d->b[c].append_ratio = -1.0f;
            d->b[c + 1].parent = c;
        }
        if (e->ik_parent) { /* on the floor under the ankle */
            sided(n0, side, "足ＩＫ"), sided(n1, side, "足IK親");
            uint32_t ik = dfind(d, n0);
            pm_vec3 at = d->b[ik].position;
            at.y = 0;
            uint32_t p = dinsert(d, ik, n1, side ? "leg IKP_R" : "leg IKP_L", at, d->b[ik].parent,
                                 plain | PM_BONE_TRANSLATABLE);
            d->b[p].tail_offset = pm_vec3_make(0, 1.0f, 0);
            d->b[p + 1].parent = p;
        }
    }
    if (e->d_bones)
        for (int side = 0; side < 2; side++) { /* after every other bone, deform layer 2 */
            char nd[4][ZN];
            static const char *const base[4] = {"足", "ひざ", "足首", "つま先"};
            static const char *const dname[4] = {"足D", "ひざD", "足首D", "足先EX"};
            static const char *const dname_en[4] = {"leg D", "knee D", "ankle D", "toe EX"};
            uint32_t src[4], dn[4];
            for (int k = 0; k < 4; k++) sided(n0, side, base[k]), src[k] = dfind(d, n0), sided(nd[k], side, dname[k]);
            uint32_t parent = d->b[src[0]].parent; /* 下半身 or 腰キャンセル */
            for (int k = 0; k < 4; k++) {
                char en[ZN];
                snprintf(en, ZN, "%s_%s", dname_en[k], side ? "R" : "L");
                dn[k] = dinsert(d, d->n, nd[k], en, d->b[src[k]].position, k ? dn[k - 1] : parent,
                                k == 3 ? PM_BONE_ROTATABLE | PM_BONE_ENABLED : plain);
                d->b[dn[k]].transform_order = 2;
                if (k < 3) d->b[dn[k]].flags |= PM_BONE_TAIL_IS_BONE; /* the next D bone, set below */
            }
            for (int k = 0; k < 3; k++) d->b[dn[k]].tail_bone = dn[k + 1];
            d->b[dn[2]].flags |= PM_BONE_APPEND_ROTATE; /* 足首D turns with 足首 */
            d->b[dn[2]].append_parent = src[2];
            d->b[dn[2]].append_ratio = 1.0f;
            /* ひざDIK rides on 足首 and pulls 足首D onto it through ひざD and 足D */
            sided(n0, side, "ひざDIK");
            uint32_t ik = dinsert(d, d->n, n0, side ? "knee D IK_R" : "knee D IK_L", d->b[src[2]].position, src[2],
                                  PM_BONE_ROTATABLE | PM_BONE_ENABLED | PM_BONE_IK);
            pm_bone_desc *b = &d->b[ik];
            b->transform_order = 2;
            b->tail_offset = pm_vec3_make(0, 0, 1.0f);
            b->has_ik = true;
            b->ik.target = dn[2];
            b->ik.loop_count = 40;
            b->ik.limit_angle = 2.0f;
            b->ik.link_count = 2;
            sided(n1, side, "足ＩＫ");
            d->links[ik][0] = d->links[dfind(d, n1)][0]; /* the main knee's limits */
            d->links[ik][0].bone = dn[1];
            d->links[ik][1] = (pm_ik_link){dn[0], false, {0, 0, 0}, {0, 0, 0}};
        }
    if (e->ik_drop != 0)
        for (int side = 0; side < 2; side++) {
            sided(n0, side, "足ＩＫ"), sided(n1, side, "足首");
            dpos(d, n0)->y = dpos(d, n1)->y - e->ik_drop;
        }
    if (e->scale != 0 && e->scale != 1)
        for (uint32_t i = 0; i < d->n; i++) {
            d->b[i].position = pm_vec3_scale(d->b[i].position, e->scale);
            d->b[i].tail_offset = pm_vec3_scale(d->b[i].tail_offset, e->scale);
        }
    if (e->unity_quirks) { /* display-only tails that are not numbers */
        static const char *const bare[] = {"頭", "左手首", "右手首", "左つま先", "右つま先"};
        for (size_t k = 0; k < sizeof bare / sizeof bare[0]; k++) {
            pm_bone_desc *b = &d->b[dfind(d, bare[k])];
            b->flags &= ~(uint32_t)PM_BONE_TAIL_IS_BONE;
            b->tail_bone = PM_NO_INDEX;
            b->tail_offset = pm_vec3_make(NAN, NAN, NAN);
        }
    }
    if (d->n > ZB) return pmi_fail(err, PM_ERR_LIMIT, "zoo: %s", "too many bones");
    return PM_OK;
}

static const char *const morph_names[3] = {"まばたき", "あ", "笑い"};

pm_result pm_zoo_build_skeleton(const pm_zoo_edits *e, pm_skeleton **out, pm_error *err) {
    static const pm_zoo_edits none;
    if (!e) e = &none;
    *out = NULL;
    pm_skeleton *base = NULL;
    pm_result r = pm_mannequin_skeleton(NULL, &base, err);
    if (r != PM_OK) return r;
    draft *d = calloc(1, sizeof *d);
    if (!d) r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "zoo: %s", "out of memory");
    if (r == PM_OK) r = draft_from(d, base, err);
    if (r == PM_OK) r = edit(d, e, err);
    if (r == PM_OK) {
        for (uint32_t i = 0; i < d->n; i++) {
            d->b[i].name = d->name[i];
            d->b[i].name_en = d->name_en[i];
            d->b[i].ik.links = d->links[i];
        }
        r = pm_skeleton_create(d->b, d->n, morph_names, 3, NULL, out, err);
    }
    if (r == PM_OK) {
        pm_skeleton *s = *out;
        static const char comment[] = "procmotion のテスト用モデル（マネキンの変形）。CC0: 自由に使えます。";
        static const char comment_en[] = "procmotion test zoo model (an edited mannequin). CC0: no rights reserved.";
        r = pmi_skeleton_set_string(s, &s->model_name, "マネキン変種", strlen("マネキン変種"), err);
        if (r == PM_OK) r = pmi_skeleton_set_string(s, &s->model_name_en, "procmotion zoo", 14, err);
        if (r == PM_OK) r = pmi_skeleton_set_string(s, &s->source.model_comment, comment, sizeof comment - 1, err);
        if (r == PM_OK)
            r = pmi_skeleton_set_string(s, &s->source.model_comment_en, comment_en, sizeof comment_en - 1, err);
        if (r != PM_OK) pm_skeleton_free(s), *out = NULL;
    }
    free(d);
    pm_skeleton_free(base);
    return r;
}

pm_result pm_zoo_file(const pm_zoo_model *m, uint8_t **bytes, size_t *size, pm_error *err) {
    *bytes = NULL;
    *size = 0;
    if (!m) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "zoo: %s", "no model");
    pm_skeleton *s = NULL;
    pm_result r = pm_zoo_build_skeleton(&m->edits, &s, err);
    pmi_mannequin_body body;
    memset(&body, 0, sizeof body);
    if (r == PM_OK) r = pmi_mannequin_body_build(s, NULL, &body, err);
    size_t n = 0;
    const bool pmd = m->format == PM_MODEL_FORMAT_PMD;
    if (r == PM_OK) r = pmd ? pm_zoo_write_pmd(&body.model, NULL, 0, &n, err) : pm_pmx_write(&body.model, NULL, NULL, 0, &n, err);
    const size_t extra = m->edits.unity_quirks ? 4 : 0; /* zero bytes after the last section */
    if (r == PM_OK && !(*bytes = calloc(1, n + extra))) r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "zoo: %s", "out of memory");
    if (r == PM_OK)
        r = pmd ? pm_zoo_write_pmd(&body.model, *bytes, n, size, err) : pm_pmx_write(&body.model, NULL, *bytes, n, size, err);
    if (r == PM_OK) *size += extra;
    if (r != PM_OK) free(*bytes), *bytes = NULL, *size = 0;
    pmi_mannequin_body_free(&body);
    pm_skeleton_free(s);
    return r;
}

pm_result pm_zoo_skeleton(const pm_zoo_model *m, pm_skeleton **out, pm_error *err) {
    uint8_t *bytes;
    size_t size;
    *out = NULL;
    pm_result r = pm_zoo_file(m, &bytes, &size, err);
    if (r == PM_OK) r = pm_model_read(bytes, size, NULL, out, err);
    free(bytes);
    return r;
}

/* ---- figures ---------------------------------------------------------------------------------- */

static pm_result need(const pm_skeleton *s, int side, const char *bone, pm_vec3 *out, pm_error *err) {
    char name[ZN];
    if (side >= 0) sided(name, side, bone);
    else snprintf(name, ZN, "%s", bone);
    uint32_t i = pm_skeleton_find(s, name);
    if (i == PM_NO_INDEX) return pmi_fail(err, PM_ERR_NOT_FOUND, "zoo: the skeleton has no %s", name);
    *out = s->bones[i].position;
    return PM_OK;
}

static double angle_deg(pm_vec3 a, pm_vec3 b) {
    double dot = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
    double la = sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
    double lb = sqrt((double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z);
    double c = dot / (la * lb);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) / DEG;
}

pm_result pm_zoo_measure(const pm_skeleton *s, pm_zoo_figures *f, pm_error *err) {
    memset(f, 0, sizeof *f);
    pm_vec3 head;
    pm_result r = need(s, -1, "頭", &head, err);
    f->head_y = head.y;
    for (int side = 0; side < 2 && r == PM_OK; side++) {
        pm_vec3 hip, knee, ankle, ik, arm, elbow;
        if ((r = need(s, side, "足", &hip, err)) || (r = need(s, side, "ひざ", &knee, err)) ||
            (r = need(s, side, "足首", &ankle, err)) || (r = need(s, side, "足ＩＫ", &ik, err)) ||
            (r = need(s, side, "腕", &arm, err)) || (r = need(s, side, "ひじ", &elbow, err)))
            break;
        f->knee_bend_deg[side] = (float)angle_deg(pm_vec3_sub(knee, hip), pm_vec3_sub(ankle, knee));
        f->arm_deg[side] = (float)(atan2(-((double)elbow.y - arm.y), fabs((double)elbow.x - arm.x)) / DEG);
        f->ik_offset[side] = pm_vec3_sub(ik, ankle);
        f->ankle_y[side] = ankle.y;
        f->hip_y[side] = hip.y;
        f->leg[side] = pm_vec3_distance(hip, ankle);
    }
    return r;
}

pm_result pm_zoo_expected(const pm_zoo_model *m, pm_zoo_figures *f, pm_error *err) {
    pm_skeleton *base = NULL;
    pm_result r = pm_mannequin_skeleton(NULL, &base, err);
    if (r == PM_OK) r = pm_zoo_measure(base, f, err);
    pm_skeleton_free(base);
    if (r != PM_OK) return r;
    const pm_zoo_edits *e = &m->edits;
    const float k = e->scale != 0 ? e->scale : 1;
    for (int side = 0; side < 2; side++) {
        if (e->set_knees) f->knee_bend_deg[side] = e->knee_deg[side];
        if (e->set_arms) f->arm_deg[side] = e->arm_deg;
        f->ik_offset[side] = pm_vec3_make(0, e->ik_drop != 0 ? -e->ik_drop * k : 0, 0);
        f->ankle_y[side] *= k;
        f->hip_y[side] *= k;
        f->leg[side] *= k;
    }
    f->head_y *= k;
    return PM_OK;
}

/* ---- every model -------------------------------------------------------------------------------- */

const char *const pm_zoo_fixture_paths[2] = {"pmx/yw_test_model/yw_test_model.pmx", "pmx/mmt_test_model.pmx"};

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc(n ? (size_t)n : 1)) &&
        fread(buf, 1, (size_t)n, f) != (size_t)n)
        free(buf), buf = NULL;
    fclose(f);
    *size = buf ? (size_t)n : 0;
    return buf;
}

void pm_zoo_entries_free(pm_zoo_entry *e, size_t n) {
    for (size_t i = 0; e && i < n; i++) {
        free(e[i].bytes);
        pm_skeleton_free(e[i].skeleton);
    }
    free(e);
}

pm_result pm_zoo_entries(const char *fixture_dir, pm_zoo_entry **out, size_t *count, size_t *fixtures_found,
                         pm_error *err) {
    size_t cap = pm_zoo_count() + 1 + 2, n = 0;
    *out = NULL;
    *count = 0;
    if (fixtures_found) *fixtures_found = 0;
    pm_zoo_entry *e = calloc(cap, sizeof *e);
    if (!e) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "zoo: %s", "out of memory");
    pm_result r = PM_OK;
    for (size_t i = 0; i < pm_zoo_count() && r == PM_OK; i++, n++) {
        snprintf(e[n].id, sizeof e[n].id, "%s", zoo[i].id);
        e[n].kind = "zoo";
        e[n].model = &zoo[i];
        e[n].format = zoo[i].format;
        r = pm_zoo_file(&zoo[i], &e[n].bytes, &e[n].size, err);
    }
    if (r == PM_OK) {
        snprintf(e[n].id, sizeof e[n].id, "mannequin");
        e[n].kind = "mannequin";
        e[n].format = PM_MODEL_FORMAT_PMX;
        r = pm_mannequin_pmx(NULL, NULL, 0, &e[n].size, err);
        if (r == PM_OK && !(e[n].bytes = malloc(e[n].size))) r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "zoo: %s", "out of memory");
        if (r == PM_OK) r = pm_mannequin_pmx(NULL, e[n].bytes, e[n].size, &e[n].size, err);
        n++;
    }
    for (int i = 0; i < 2 && r == PM_OK && fixture_dir; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", fixture_dir, pm_zoo_fixture_paths[i]);
        size_t size;
        uint8_t *bytes = read_file(path, &size);
        if (!bytes) continue;
        const char *stem = strrchr(pm_zoo_fixture_paths[i], '/') + 1;
        snprintf(e[n].id, sizeof e[n].id, "%.*s", (int)(strlen(stem) - 4), stem);
        e[n].kind = "fixture";
        e[n].format = PM_MODEL_FORMAT_PMX;
        e[n].bytes = bytes;
        e[n].size = size;
        n++;
        if (fixtures_found) (*fixtures_found)++;
    }
    for (size_t i = 0; i < n && r == PM_OK; i++) r = pm_model_read(e[i].bytes, e[i].size, NULL, &e[i].skeleton, err);
    if (r != PM_OK) {
        pm_zoo_entries_free(e, n);
        return r;
    }
    *out = e;
    *count = n;
    return PM_OK;
}

/* ---- harness ------------------------------------------------------------------------------------ */

pm_result pm_zoo_play(const pm_skeleton *s, const pm_vmd *vmd, const char *const *names, uint32_t name_count,
                      double first, double step, uint32_t count, float *out, pm_error *err) {
    uint32_t idx[64];
    if (name_count > 64) return pmi_fail(err, PM_ERR_LIMIT, "zoo: %s", "at most 64 bones can be played");
    for (uint32_t k = 0; k < name_count; k++)
        if ((idx[k] = pm_skeleton_find(s, names[k])) == PM_NO_INDEX)
            return pmi_fail(err, PM_ERR_NOT_FOUND, "zoo: the skeleton has no %s", names[k]);
    pm_vmd *empty = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_result r = vmd ? PM_OK : pm_vmd_create(NULL, &empty, err);
    if (r == PM_OK) r = pm_anim_bind(s, vmd ? vmd : empty, NULL, &anim, err);
    if (r == PM_OK) r = pm_pose_workspace_create(s, NULL, &ws, err);
    if (r == PM_OK) r = pm_pose_create(s, NULL, &pose, err);
    for (uint32_t f = 0; f < count && r == PM_OK; f++) {
        r = pm_pose_evaluate(anim, ws, first + step * f, pose, NULL, err);
        for (uint32_t k = 0; k < name_count && r == PM_OK; k++) {
            pm_vec3 p = pm_pose_world_position(pose, idx[k]);
            float *o = out + ((size_t)f * name_count + k) * 3;
            o[0] = p.x, o[1] = p.y, o[2] = p.z;
        }
    }
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(empty);
    return r;
}

float pm_zoo_max_distance(const float *a, const float *b, size_t points, size_t *worst) {
    double best = 0;
    size_t at = 0;
    for (size_t i = 0; i < points; i++) {
        double dx = a[3 * i] - b[3 * i], dy = a[3 * i + 1] - b[3 * i + 1], dz = a[3 * i + 2] - b[3 * i + 2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (d > best || !(d == d)) best = d == d ? d : INFINITY, at = i;
    }
    if (worst) *worst = at;
    return (float)best;
}

pm_result pm_zoo_every_bone_motion(const pm_skeleton *s, pm_vmd **out, pm_error *err) {
    pm_result r = pm_vmd_create(NULL, out, err);
    for (uint32_t i = 0; i < s->bone_count && r == PM_OK; i++)
        for (uint32_t k = 0; k < 2 && r == PM_OK; k++) {
            double angle = 0.3 + 0.01 * i + 0.2 * k, ax = sin(i), ay = cos(2.0 * i), az = sin(3.0 * i + 1);
            double l = sqrt(ax * ax + ay * ay + az * az), h = sin(angle / 2) / l;
            const float rot[4] = {(float)(ax * h), (float)(ay * h), (float)(az * h), (float)cos(angle / 2)};
            const float pos[3] = {(float)(0.1 * sin(i + k)), (float)(0.1 * cos(i)), 0.05f * (float)k};
            r = pm_vmd_add_bone_key(*out, s->bones[i].name.data, 30 * k, pos, rot, NULL, err);
        }
    if (r != PM_OK) pm_vmd_free(*out), *out = NULL;
    return r;
}
