/*
 * tests/zoo/zoo.h -- the model zoo for the tests: skeletons like real models', built from the
 * mannequin, and the measuring harness that plays a motion on them with procmotion's evaluator.
 *
 * WHY
 *   yw_test_model.pmx is one well-made model; real models differ (A-pose, knees resting bent 15 or
 *   31 degrees, 足ＩＫ below the ankle, 足IK親, D bones with their own IK, 腰キャンセル, missing
 *   グルーブ / 上半身2, asymmetric rest poses, other sizes, PMD files whose knees MMD limits by name;
 *   ../shared/NOTES.md "What real models do"). A generator is done when it holds on every one of them.
 *
 * THE ZOO (docs/zoo.md lists every model with its measured figures)
 *   Each model is the built-in mannequin's skeleton with edits (pm_zoo_edits), dressed with the
 *   mannequin's body (fitted to the edited bones, legs skinned to D bones when present) and written as
 *   PMX 2.0 by pm_pmx_write or as PMD by pm_zoo_write_pmd. Nothing is committed: zoo_gen writes the
 *   files and their manifest (zoo.json) into build/native/zoo/ at build time for the Node and browser
 *   tests; C tests build them in memory.
 *
 * USAGE (C tests)
 *       for (size_t i = 0; i < pm_zoo_count(); i++) {
 *           const pm_zoo_model *m = pm_zoo_at(i);
 *           uint8_t *bytes; size_t size; pm_skeleton *sk;
 *           pm_zoo_file(m, &bytes, &size, &err);           // the PMX / PMD file
 *           pm_zoo_skeleton(m, &sk, &err);                 // that file read back by pm_model_read
 *       }
 *       pm_zoo_entry *all; size_t n, fixtures;             // every zoo model, the mannequin and the
 *       pm_zoo_entries(pm_test_fixture_dir(), &all, &n, &fixtures, &err);   // shared PMX fixtures, loaded
 *       pm_zoo_entries_free(all, n);                       // (in a test: pm_test_every_model, every_model.h)
 *
 * HARNESS
 *   pm_zoo_play gives the world positions of named bones per frame as procmotion's MMD-exact evaluator
 *   plays a VMD (IK, limits, append, what babylon-mmd shows; tests/node/support/played.mjs gives the
 *   same from babylon-mmd itself). pm_zoo_max_distance compares them with a plan:
 *       float played[2 * 3 * 241];
 *       pm_zoo_play(sk, vmd, (const char *[]){"左足首", "右足首"}, 2, 0, 1, 241, played, &err);
 *       PM_CHECK(pm_zoo_max_distance(played, plan_ankles, 2 * 241, NULL) < 0.01f);
 *
 * Test support, not part of the library: links procmotion_core and uses internal headers.
 */
#ifndef PM_ZOO_H
#define PM_ZOO_H

#include "procmotion/pmx.h"
#include "procmotion/vmd.h"

#include <stdbool.h>
#include <stddef.h>

/* What a zoo model changes on the mannequin; zero-initialised = the mannequin itself. */
typedef struct pm_zoo_edits {
    bool set_arms;
    float arm_deg;          /* the upper arm (腕 -> ひじ) this far below horizontal, both sides */
    bool set_knees;
    float knee_deg[2];      /* rest bend of the left and right knee (angle between thigh and shin) */
    float ik_drop;          /* 足ＩＫ this far below 足首 (both sides) */
    bool ik_parent;         /* 左足IK親 / 右足IK親 between 全ての親 and 足ＩＫ */
    bool d_bones;           /* 足D, ひざD, 足首D, 足先EX and ひざDIK (an IK chain of its own) */
    bool waist_cancel;      /* 腰キャンセル左 / 右 (append -1 of 腰) above 足 */
    bool no_groove;         /* グルーブ removed (腰 hangs from センター) */
    bool no_upper2;         /* 上半身2 removed (首 and 肩 hang from 上半身) */
    float scale;            /* 0 = 1 */
    bool unity_quirks;      /* as a Unity-exported PMX has them: tail offsets of 頭, 手首 and つま先 that
                               are NaN, 4 bytes after the last section (babylon-mmd loads such files) */
} pm_zoo_edits;

typedef struct pm_zoo_model {
    const char *id;          /* file stem: "knee31", "knee31-pmd" */
    pm_model_format format;  /* PM_MODEL_FORMAT_PMX or PM_MODEL_FORMAT_PMD */
    const char *description;
    pm_zoo_edits edits;
} pm_zoo_model;

size_t pm_zoo_count(void);
const pm_zoo_model *pm_zoo_at(size_t index);     /* NULL past the end */
const pm_zoo_model *pm_zoo_find(const char *id); /* NULL when absent */

/* The edited skeleton as built (PMX semantics, before any file). Free with pm_skeleton_free. */
pm_result pm_zoo_build_skeleton(const pm_zoo_edits *edits, pm_skeleton **out, pm_error *err);
/* The model's file (PMX or PMD), malloc'd: free(*bytes). */
pm_result pm_zoo_file(const pm_zoo_model *model, uint8_t **bytes, size_t *size, pm_error *err);
/* The model's file read back with pm_model_read (default options): what a user's program sees. */
pm_result pm_zoo_skeleton(const pm_zoo_model *model, pm_skeleton **out, pm_error *err);

/*
 * A PMD 1.0 file of `model` (its skeleton and mesh; Shift-JIS names). What PMD cannot hold is refused
 * with PM_ERR_INVALID_ARGUMENT naming the bone: append translation or local append, a transform order
 * other than PMD's (1 for IK bones, 0 for the others), fixed axes. IK link limits are not written:
 * PMD has none, readers limit links named 左ひざ / 右ひざ by name. out == NULL: size only.
 */
pm_result pm_zoo_write_pmd(const pm_pmx_model *model, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err);

/* ---- measuring -------------------------------------------------------------------------------- */

/* Rest figures of a skeleton with the semi-standard names (exact names; index 0 left, 1 right). */
typedef struct pm_zoo_figures {
    float knee_bend_deg[2];  /* angle between 足->ひざ and ひざ->足首 */
    float arm_deg[2];        /* 腕->ひじ below horizontal */
    pm_vec3 ik_offset[2];    /* 足ＩＫ minus 足首 */
    float ankle_y[2];        /* 足首 height */
    float hip_y[2];          /* 足 height */
    float leg[2];            /* 足 to 足首 */
    float head_y;            /* 頭 height: 16.799 x scale on the zoo */
} pm_zoo_figures;

/* PM_ERR_NOT_FOUND naming the first bone missing (足, ひざ, 足首, 足ＩＫ, 腕, ひじ, 頭). */
pm_result pm_zoo_measure(const pm_skeleton *skeleton, pm_zoo_figures *out, pm_error *err);
/* What a model's figures are meant to be (from its edits and the mannequin's own figures). */
pm_result pm_zoo_expected(const pm_zoo_model *model, pm_zoo_figures *out, pm_error *err);

/* ---- every model -------------------------------------------------------------------------------- */

typedef struct pm_zoo_entry {
    char id[48];               /* zoo id, "mannequin", or the fixture's file stem */
    const char *kind;          /* "zoo", "mannequin" or "fixture" */
    const pm_zoo_model *model; /* zoo models only */
    pm_model_format format;
    uint8_t *bytes;
    size_t size;
    pm_skeleton *skeleton;     /* bytes read back with pm_model_read */
} pm_zoo_entry;

/* The shared PMX fixtures the "every model" iteration includes (paths relative to the fixtures dir). */
extern const char *const pm_zoo_fixture_paths[2];

/*
 * Every zoo model, the mannequin, and the shared PMX fixtures found under fixture_dir (NULL or a
 * directory without them: none; *fixtures_found says how many were). Free with pm_zoo_entries_free.
 */
pm_result pm_zoo_entries(const char *fixture_dir, pm_zoo_entry **out, size_t *count, size_t *fixtures_found,
                         pm_error *err);
void pm_zoo_entries_free(pm_zoo_entry *entries, size_t count);

/* ---- harness ------------------------------------------------------------------------------------ */

/*
 * World positions of `name_count` named bones (exact names) for frames first, first + step, ...
 * (count of them), as procmotion's pose evaluator plays `vmd` (NULL: the rest pose) on `skeleton`:
 * out[(f * name_count + k) * 3 + axis]. PM_ERR_NOT_FOUND naming a bone the skeleton lacks.
 */
pm_result pm_zoo_play(const pm_skeleton *skeleton, const pm_vmd *vmd, const char *const *names, uint32_t name_count,
                      double first, double step, uint32_t count, float *out, pm_error *err);

/* The largest distance between points a[i] and b[i] (3 floats each), i < points; *worst (if not NULL)
 * gets its index. */
float pm_zoo_max_distance(const float *a, const float *b, size_t points, size_t *worst);

/* A motion that keys every bone of the skeleton (rotations about varied axes, translations, two keys a
 * bone, frames 0 and 30): it exercises fixed axes, append, local axes and IK. Free with pm_vmd_free. */
pm_result pm_zoo_every_bone_motion(const pm_skeleton *skeleton, pm_vmd **out, pm_error *err);

#endif
