/* The built-in mannequin: semi-standard skeleton, capsule/ellipsoid body, face morphs (see
 * procmotion/mannequin.h and docs/models.md). */
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/text.h"

#include "mannequin/mannequin_internal.h"
#include "skeleton/build.h"
#include "math/inline.h"

#include <math.h>

/* ---- skeleton --------------------------------------------------------------------------------- */

enum {
    R = PM_BONE_ROTATABLE,
    T = PM_BONE_TRANSLATABLE,
    V = PM_BONE_VISIBLE,
    E = PM_BONE_ENABLED,
    TB = PM_BONE_TAIL_IS_BONE,
    AR = PM_BONE_APPEND_ROTATE
};

/* Bone indices (the eye bones come last so that omitting them shortens the table). */
enum {
    B_MASTER, B_CENTER, B_GROOVE, B_WAIST, B_UPPER, B_UPPER2, B_NECK, B_HEAD, B_LOWER,
    B_SHOULDER_L, B_ARM_L, B_ELBOW_L, B_WRIST_L,
    B_SHOULDER_R, B_ARM_R, B_ELBOW_R, B_WRIST_R,
    B_LEG_L, B_KNEE_L, B_ANKLE_L, B_TOE_L,
    B_LEG_R, B_KNEE_R, B_ANKLE_R, B_TOE_R,
    B_LEG_IK_L, B_TOE_IK_L, B_LEG_IK_R, B_TOE_IK_R,
    B_EYES, B_EYE_L, B_EYE_R,
    B_COUNT,
    B_COUNT_NO_EYES = B_EYES
};

typedef struct mq_bone {
    const char *name, *name_en;
    int parent;
    float x, y, z;
    uint32_t flags;
    int tail;           /* tail bone or -1 */
    float tx, ty, tz;   /* tail offset when tail < 0 */
    int order;
} mq_bone;

#define EYE_X 0.36f
#define EYE_Y 17.95f
#define EYE_Z (-1.05f)

/* Positions: NOTES.md's semi-standard table; +X is the model's left; right side mirrors x. */
static const mq_bone table[B_COUNT] = {
    {"全ての親", "master", -1, 0, 0, 0, R | T | V | E | TB, B_CENTER, 0, 0, 0, 0},
    {"センター", "center", B_MASTER, 0, 8, 0, R | T | V | E, -1, 0, -1.5f, 0, 0},
    {"グルーブ", "groove", B_CENTER, 0, 8.2f, 0, R | T | V | E, -1, 0, 1.4f, 0, 0},
    {"腰", "waist", B_GROOVE, 0, 11.749f, 0.265f, R | V | E, -1, 0, 0.6f, -0.6f, 0},
    {"上半身", "upper body", B_WAIST, 0, 13.301f, -0.255f, R | V | E | TB, B_UPPER2, 0, 0, 0, 0},
    {"上半身2", "upper body2", B_UPPER, 0, 14.392f, -0.166f, R | V | E | TB, B_NECK, 0, 0, 0, 0},
    {"首", "neck", B_UPPER2, 0, 16.418f, 0, R | V | E | TB, B_HEAD, 0, 0, 0, 0},
    {"頭", "head", B_NECK, 0, 16.799f, 0, R | V | E, -1, 0, 2.2f, 0, 0},
    {"下半身", "lower body", B_WAIST, 0, 13.243f, -0.255f, R | V | E, -1, 0, -2.49f, 0, 0},
    {"左肩", "shoulder_L", B_UPPER2, 0.136f, 16.130f, 0.265f, R | V | E | TB, B_ARM_L, 0, 0, 0, 0},
    {"左腕", "arm_L", B_SHOULDER_L, 1.005f, 16.034f, 0.318f, R | V | E | TB, B_ELBOW_L, 0, 0, 0, 0},
    {"左ひじ", "elbow_L", B_ARM_L, 3.175f, 13.808f, 0.282f, R | V | E | TB, B_WRIST_L, 0, 0, 0, 0},
    {"左手首", "wrist_L", B_ELBOW_L, 4.397f, 11.978f, 0.272f, R | V | E, -1, 0.5f, -0.75f, 0, 0},
    {"右肩", "shoulder_R", B_UPPER2, -0.136f, 16.130f, 0.265f, R | V | E | TB, B_ARM_R, 0, 0, 0, 0},
    {"右腕", "arm_R", B_SHOULDER_R, -1.005f, 16.034f, 0.318f, R | V | E | TB, B_ELBOW_R, 0, 0, 0, 0},
    {"右ひじ", "elbow_R", B_ARM_R, -3.175f, 13.808f, 0.282f, R | V | E | TB, B_WRIST_R, 0, 0, 0, 0},
    {"右手首", "wrist_R", B_ELBOW_R, -4.397f, 11.978f, 0.272f, R | V | E, -1, -0.5f, -0.75f, 0, 0},
    {"左足", "leg_L", B_LOWER, 0.797f, 10.753f, -0.073f, R | V | E | TB, B_KNEE_L, 0, 0, 0, 0},
    {"左ひざ", "knee_L", B_LEG_L, 0.684f, 5.984f, -0.817f, R | V | E | TB, B_ANKLE_L, 0, 0, 0, 0},
    {"左足首", "ankle_L", B_KNEE_L, 0.874f, 1.470f, -0.001f, R | V | E | TB, B_TOE_L, 0, 0, 0, 0},
    {"左つま先", "toe_L", B_ANKLE_L, 0.927f, 0.033f, -2.409f, R | E, -1, 0, 0, -0.5f, 0},
    {"右足", "leg_R", B_LOWER, -0.797f, 10.753f, -0.073f, R | V | E | TB, B_KNEE_R, 0, 0, 0, 0},
    {"右ひざ", "knee_R", B_LEG_R, -0.684f, 5.984f, -0.817f, R | V | E | TB, B_ANKLE_R, 0, 0, 0, 0},
    {"右足首", "ankle_R", B_KNEE_R, -0.874f, 1.470f, -0.001f, R | V | E | TB, B_TOE_R, 0, 0, 0, 0},
    {"右つま先", "toe_R", B_ANKLE_R, -0.927f, 0.033f, -2.409f, R | E, -1, 0, 0, -0.5f, 0},
    /* IK bones on their targets (NOTES lists 足ＩＫ at y 1.34, つま先ＩＫ at y 0: a gap the IK would
     * close at rest, bending the legs) */
    {"左足ＩＫ", "leg IK_L", B_MASTER, 0.874f, 1.470f, -0.001f, R | T | V | E | PM_BONE_IK, -1, 0, 0, 1.0f, 1},
    {"左つま先ＩＫ", "toe IK_L", B_LEG_IK_L, 0.927f, 0.033f, -2.409f, R | T | V | E | PM_BONE_IK, -1, 0, -0.7f, 0, 1},
    {"右足ＩＫ", "leg IK_R", B_MASTER, -0.874f, 1.470f, -0.001f, R | T | V | E | PM_BONE_IK, -1, 0, 0, 1.0f, 1},
    {"右つま先ＩＫ", "toe IK_R", B_LEG_IK_R, -0.927f, 0.033f, -2.409f, R | T | V | E | PM_BONE_IK, -1, 0, -0.7f, 0, 1},
    {"両目", "eyes", B_HEAD, 0, 20.2f, -0.7f, R | V | E, -1, 0, 0, -0.8f, 0},
    {"左目", "eye_L", B_HEAD, EYE_X, EYE_Y, EYE_Z, R | V | E | AR, -1, 0, 0, -0.5f, 0},
    {"右目", "eye_R", B_HEAD, -EYE_X, EYE_Y, EYE_Z, R | V | E | AR, -1, 0, 0, -0.5f, 0},
};

/* yw_test_model.pmx's values (read with pm_pmx_read): 2.0000007 rad is 114.5916 degrees in float */
#define LEG_IK_LOOPS 200u
#define LEG_IK_LIMIT 2.0000007152557373f
#define TOE_IK_LOOPS 50u
#define TOE_IK_LIMIT 4.0f
#define KNEE_MIN_X (-2.967059850692749f)   /* -170 degrees */
#define KNEE_MAX_X (-0.008726646192371845f) /* -0.5 degrees */

_Static_assert(B_TOE_IK_L == B_LEG_IK_L + 1 && B_LEG_IK_R == B_LEG_IK_L + 2 && B_TOE_IK_R == B_LEG_IK_L + 3 &&
                   B_LEG_R - B_LEG_L == 4 && B_KNEE_L == B_LEG_L + 1 && B_ANKLE_L == B_LEG_L + 2 && B_TOE_L == B_LEG_L + 3,
               "the IK bones and the legs in the order build_skeleton counts them");

static const char *const morph_names[3] = {"まばたき", "あ", "笑い"};
static const char *const morph_names_en[3] = {"blink", "a", "smile"};
static const uint8_t morph_panels[3] = {2, 3, 2};

bool pm_mannequin_rest_position(const char *name, pm_vec3 *out) {
    for (int i = 0; name && i < B_COUNT; i++)
        if (pm_names_equal(table[i].name, strlen(table[i].name), name, strlen(name))) {
            if (out) *out = pmi_vec3_make(table[i].x, table[i].y, table[i].z);
            return true;
        }
    return false;
}

static pm_result build_skeleton(const pm_mannequin_options *o, pm_skeleton **out, pm_error *err) {
    uint32_t n = o->omit_eye_bones ? B_COUNT_NO_EYES : B_COUNT;
    pm_skeleton *s = pmi_skeleton_new(&o->allocator, n, 0, err);
    if (!s) return PM_ERR_OUT_OF_MEMORY;
    pm_result r = pmi_skeleton_set_morph_count(s, 3, true, err);
    r = r == PM_OK ? pmi_skeleton_set_string(s, &s->model_name, "マネキン", strlen("マネキン"), err) : r;
    r = r == PM_OK ? pmi_skeleton_set_string(s, &s->model_name_en, "procmotion mannequin", 20, err) : r;
    static const char comment[] = "procmotion の内蔵マネキン。CC0（パブリックドメイン）: 自由に使えます。";
    static const char comment_en[] = "procmotion built-in mannequin. CC0 (public domain): no rights reserved.";
    r = r == PM_OK ? pmi_skeleton_set_string(s, &s->source.model_comment, comment, sizeof comment - 1, err) : r;
    r = r == PM_OK ? pmi_skeleton_set_string(s, &s->source.model_comment_en, comment_en, sizeof comment_en - 1, err) : r;
    for (uint32_t i = 0; i < 3 && r == PM_OK; i++) {
        r = pmi_skeleton_set_string(s, &s->morph_names[i], morph_names[i], strlen(morph_names[i]), err);
        s->morph_panel[i] = morph_panels[i];
    }
    for (uint32_t i = 0; i < n && r == PM_OK; i++) {
        const mq_bone *t = &table[i];
        pm_bone *b = &s->bones[i];
        r = pmi_skeleton_set_string(s, &b->name, t->name, strlen(t->name), err);
        if (r == PM_OK) r = pmi_skeleton_set_string(s, &b->name_en, t->name_en, strlen(t->name_en), err);
        b->position = pmi_vec3_make(t->x, t->y, t->z);
        b->parent = t->parent < 0 ? PM_NO_INDEX : (uint32_t)t->parent;
        b->flags = t->flags;
        b->transform_order = t->order;
        if (t->tail >= 0) b->tail_bone = (uint32_t)t->tail;
        else b->tail_offset = pmi_vec3_make(t->tx, t->ty, t->tz);
        if (t->flags & AR) {
            b->append_parent = B_EYES;
            b->append_ratio = 1.0f;
        }
        if (!(t->flags & PM_BONE_IK)) continue;
        /* 足ＩＫ, つま先ＩＫ, then the right side 4 table bones on: a toe IK is the leg IK one bone down
         * the leg (target つま先 for 足首, link 足首 for ひざ) */
        const uint32_t toe = (i - B_LEG_IK_L) & 1, side = (i - B_LEG_IK_L) / 2 * (B_LEG_R - B_LEG_L);
        const bool leg = !toe;
        b->has_ik = true;
        b->ik.loop_count = leg ? LEG_IK_LOOPS : TOE_IK_LOOPS;
        b->ik.limit_angle = leg ? LEG_IK_LIMIT : TOE_IK_LIMIT;
        b->ik.target = B_ANKLE_L + side + toe;
        b->ik.link_count = leg ? 2 : 1;
        b->ik.links = pmi_skeleton_arena_alloc(s, b->ik.link_count * sizeof(pm_ik_link), err);
        if (!b->ik.links) {
            r = PM_ERR_OUT_OF_MEMORY;
            break;
        }
        b->ik.links[0].bone = B_KNEE_L + side + toe;
        if (leg) {
            b->ik.links[0].has_limit = true;
            b->ik.links[0].limit_min = pmi_vec3_make(KNEE_MIN_X, 0, 0);
            b->ik.links[0].limit_max = pmi_vec3_make(KNEE_MAX_X, 0, 0);
            b->ik.links[1].bone = B_LEG_L + side;
        }
    }
    if (r == PM_OK) r = pm_skeleton_validate(s, err);
    if (r != PM_OK) {
        pm_skeleton_free(s);
        return r;
    }
    *out = s;
    return PM_OK;
}

static const pm_mannequin_options default_options;

static pm_result check_options(const pm_mannequin_options **o, pm_error *err) {
    if (!*o) *o = &default_options;
    if ((*o)->encoding > 1)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "mannequin: encoding %u is not 0 or 1", (*o)->encoding);
    return PM_OK;
}

pm_result pm_mannequin_skeleton(const pm_mannequin_options *opts, pm_skeleton **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "mannequin: out is NULL");
    *out = NULL;
    pm_result r = check_options(&opts, err);
    return r == PM_OK ? build_skeleton(opts, out, err) : r;
}

/* ---- mesh ------------------------------------------------------------------------------------- */

enum { M_SKIN, M_SHIRT, M_TROUSERS, M_SHOES, M_HAIR, M_EYES, M_MOUTH, M_COUNT };

typedef struct mesh {
    pmi_buf vertices;         /* pm_pmx_vertex */
    pmi_buf indices[M_COUNT]; /* uint32_t per material */
} mesh;

static uint32_t vertex_count(const mesh *m) { return (uint32_t)(m->vertices.size / sizeof(pm_pmx_vertex)); }

static uint32_t add_vertex(mesh *m, pm_vec3 p, pm_vec3 n, uint32_t bone) {
    pm_pmx_vertex *v = (pm_pmx_vertex *)pmi_buf_grow(&m->vertices, sizeof(pm_pmx_vertex));
    uint32_t i = vertex_count(m) - 1;
    if (!v) return 0;
    v->position = p;
    v->normal = pmi_vec3_normalize(n);
    v->bone[0] = bone;
    v->bone[1] = PM_NO_INDEX;
    v->weight = 1.0f;
    v->edge_scale = 1.0f;
    return i;
}

/* A triangle wound so that it faces where its vertex normals point: in PMX's left-handed space a
 * front face is clockwise seen from the front, i.e. cross(b - a, c - a) points outwards. */
static void add_triangle(mesh *m, int material, uint32_t a, uint32_t b, uint32_t c) {
    if (m->vertices.failed) return;
    const pm_pmx_vertex *v = (const pm_pmx_vertex *)m->vertices.data;
    pm_vec3 face = pmi_vec3_cross(pmi_vec3_sub(v[b].position, v[a].position), pmi_vec3_sub(v[c].position, v[a].position));
    pm_vec3 normal = pmi_vec3_add(pmi_vec3_add(v[a].normal, v[b].normal), v[c].normal);
    if (pmi_vec3_dot(face, normal) < 0) {
        uint32_t t = b;
        b = c;
        c = t;
    }
    uint8_t *p = pmi_buf_grow(&m->indices[material], 3 * sizeof(uint32_t));
    if (!p) return;
    uint32_t tri[3] = {a, b, c};
    memcpy(p, tri, sizeof tri);
}

/* Two unit vectors perpendicular to d and to each other. */
static void frame(pm_vec3 d, pm_vec3 *u, pm_vec3 *w) {
    pm_vec3 ref = fabsf(d.y) < 0.9f ? pmi_vec3_make(0, 1, 0) : pmi_vec3_make(1, 0, 0);
    *u = pmi_vec3_normalize(pmi_vec3_cross(ref, d));
    *w = pmi_vec3_cross(d, *u);
}

#define SIDES 10

/* Rings between two poles: ring k has centre c[k], radius r[k] and normals pointing away from
 * sphere centre s[k]; the poles are p0 and p1. */
static void lathe(mesh *m, int material, uint32_t bone, pm_vec3 d, pm_vec3 p0, pm_vec3 p1, int rings,
                  const pm_vec3 *c, const float *r, const pm_vec3 *s) {
    pm_vec3 u, w;
    frame(d, &u, &w);
    uint32_t first = vertex_count(m);
    uint32_t top = add_vertex(m, p0, pmi_vec3_scale(d, -1), bone);
    for (int k = 0; k < rings; k++)
        for (int j = 0; j < SIDES; j++) {
            float a = (float)(2 * PM_PI * j / SIDES);
            pm_vec3 off = pmi_vec3_add(pmi_vec3_scale(u, cosf(a) * r[k]), pmi_vec3_scale(w, sinf(a) * r[k]));
            pm_vec3 p = pmi_vec3_add(c[k], off);
            add_vertex(m, p, pmi_vec3_sub(p, s[k]), bone);
        }
    uint32_t bottom = add_vertex(m, p1, d, bone);
    uint32_t ring0 = first + 1;
    for (int j = 0; j < SIDES; j++) {
        uint32_t j1 = (uint32_t)((j + 1) % SIDES);
        add_triangle(m, material, top, ring0 + (uint32_t)j, ring0 + j1);
        for (int k = 0; k + 1 < rings; k++) {
            uint32_t a = ring0 + (uint32_t)(k * SIDES), b = a + SIDES;
            add_triangle(m, material, a + (uint32_t)j, b + (uint32_t)j, b + j1);
            add_triangle(m, material, a + (uint32_t)j, b + j1, a + j1);
        }
        uint32_t last = ring0 + (uint32_t)((rings - 1) * SIDES);
        add_triangle(m, material, bottom, last + j1, last + (uint32_t)j);
    }
}

/* A capsule from a (radius ra) to b (radius rb) with rounded ends. */
static void capsule(mesh *m, int material, uint32_t bone, pm_vec3 a, pm_vec3 b, float ra, float rb) {
    pm_vec3 d = pmi_vec3_normalize(pmi_vec3_sub(b, a));
    const float c60 = 0.5f, s60 = 0.8660254f;
    pm_vec3 c[4] = {pmi_vec3_sub(a, pmi_vec3_scale(d, ra * c60)), a, b, pmi_vec3_add(b, pmi_vec3_scale(d, rb * c60))};
    float r[4] = {ra * s60, ra, rb, rb * s60};
    pm_vec3 s[4] = {a, a, b, b};
    lathe(m, material, bone, d, pmi_vec3_sub(a, pmi_vec3_scale(d, ra)), pmi_vec3_add(b, pmi_vec3_scale(d, rb)), 4, c, r, s);
}

/* An ellipsoid with radii (rx, ry, rz) along the axes. Returns its first vertex. */
static uint32_t ellipsoid(mesh *m, int material, uint32_t bone, pm_vec3 centre, pm_vec3 radii) {
    enum { RINGS = 7 };
    pm_vec3 c[RINGS], s[RINGS];
    float r[RINGS];
    for (int k = 0; k < RINGS; k++) { /* a unit sphere along Y, scaled below */
        float t = (float)(PM_PI * (k + 1) / (RINGS + 1));
        c[k] = pmi_vec3_make(0, cosf(t), 0);
        r[k] = sinf(t);
        s[k] = pmi_vec3_make(0, 0, 0);
    }
    uint32_t first = vertex_count(m);
    lathe(m, material, bone, pmi_vec3_make(0, -1, 0), pmi_vec3_make(0, 1, 0), pmi_vec3_make(0, -1, 0), RINGS, c, r, s);
    uint32_t last = vertex_count(m);
    pm_pmx_vertex *v = (pm_pmx_vertex *)m->vertices.data;
    for (uint32_t i = first; i < last && !m->vertices.failed; i++) {
        pm_vec3 p = v[i].position, n = v[i].normal;
        v[i].position = pmi_vec3_make(centre.x + p.x * radii.x, centre.y + p.y * radii.y, centre.z + p.z * radii.z);
        v[i].normal = pmi_vec3_normalize(pmi_vec3_make(n.x / radii.x, n.y / radii.y, n.z / radii.z));
    }
    return first;
}

static pm_vec3 table_pos(int b) { return pmi_vec3_make(table[b].x, table[b].y, table[b].z); }

/* The body fitted to a skeleton: where each table bone is in it (a missing bone is placed from its
 * table parent by the table offset, scaled) and which of its bones the part is skinned to (a missing
 * bone's parts go to its parent's bone; legs go to 足D / ひざD / 足首D when the skeleton has them). */
typedef struct fit {
    pm_vec3 pos[B_COUNT];
    uint32_t skin[B_COUNT];
    float scale; /* the head's height over the table's */
} fit;

/* "<name>D" in the skeleton (the deform bones real models skin their legs to), or PM_NO_INDEX. */
static uint32_t find_d_bone(const pm_skeleton *s, const char *name) {
    char d[64];
    size_t n = strlen(name);
    if (n + 2 > sizeof d) return PM_NO_INDEX;
    memcpy(d, name, n);
    d[n] = 'D';
    d[n + 1] = 0;
    return pm_skeleton_find(s, d);
}

static pm_result fit_skeleton(const pm_skeleton *s, bool eye_bones, fit *f, pm_error *err) {
    uint32_t master = pm_skeleton_find(s, table[B_MASTER].name), head = pm_skeleton_find(s, table[B_HEAD].name);
    if (master == PM_NO_INDEX || head == PM_NO_INDEX)
        return pmi_fail(err, PM_ERR_NOT_FOUND, "mannequin: the skeleton has no %s or %s to fit the body to",
                        table[B_MASTER].name, table[B_HEAD].name);
    f->scale = (s->bones[head].position.y - s->bones[master].position.y) / table[B_HEAD].y;
    if (!(f->scale > 1e-3f) || !(f->scale < 1e3f))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "mannequin: the head is at %g above the root, not a body",
                        (double)(s->bones[head].position.y - s->bones[master].position.y));
    for (int b = 0; b < B_COUNT; b++) { /* table parents come first */
        uint32_t i = (b >= B_EYES && !eye_bones) ? PM_NO_INDEX : pm_skeleton_find(s, table[b].name);
        int p = table[b].parent;
        if (i != PM_NO_INDEX) {
            f->pos[b] = s->bones[i].position;
            f->skin[b] = i;
        } else if (p >= 0) {
            f->pos[b] = pmi_vec3_add(f->pos[p], pmi_vec3_scale(pmi_vec3_sub(table_pos(b), table_pos(p)), f->scale));
            f->skin[b] = f->skin[p];
        } else {
            return pmi_fail(err, PM_ERR_NOT_FOUND, "mannequin: the skeleton has no %s", table[b].name);
        }
    }
    for (int b = B_LEG_L; b <= B_ANKLE_R; b++) {
        if (b == B_TOE_L) continue;
        uint32_t d = find_d_bone(s, table[b].name);
        if (d != PM_NO_INDEX) f->skin[b] = d;
    }
    f->skin[B_TOE_L] = f->skin[B_ANKLE_L], f->skin[B_TOE_R] = f->skin[B_ANKLE_R];
    return PM_OK;
}

/* The point (x, y, z) of the table's figure, carried with table bone b to where the fit puts it. The
 * arithmetic is exact for the table's own skeleton (double differences of floats), so the built-in
 * mannequin's vertices are the table's numbers. */
static pm_vec3 at(const fit *f, int b, float x, float y, float z) {
    const double s = f->scale;
    return pmi_vec3_make((float)(f->pos[b].x + s * ((double)x - table[b].x)),
                        (float)(f->pos[b].y + s * ((double)y - table[b].y)),
                        (float)(f->pos[b].z + s * ((double)z - table[b].z)));
}

static pm_vec3 sized(const fit *f, float x, float y, float z) {
    return pmi_vec3_make(x * f->scale, y * f->scale, z * f->scale);
}

typedef struct face_parts {
    uint32_t eye_first[2], eye_end[2]; /* vertex ranges of the eyes */
    uint32_t mouth_first, mouth_end;
    pm_vec3 eye[2], mouth;             /* their centres */
    float scale;
} face_parts;

/* The ellipsoids in the order they are built (the neck's capsule comes before the torso): material,
 * the table bone the part is skinned to and the one it is carried with, its centre in the table's
 * figure, its radii over the fit's scale. */
static const struct {
    uint8_t material, skin, bone;
    float x, y, z, rx, ry, rz;
} ellipsoids[] = {
    {M_SKIN, B_HEAD, B_HEAD, 0, 17.9f, -0.05f, 1.05f, 1.15f, 1.1f},
    {M_HAIR, B_HEAD, B_HEAD, 0, 18.1f, 0.12f, 1.1f, 1.05f, 1.05f},
    {M_SKIN, B_HEAD, B_HEAD, 0, 17.6f, -1.13f, 0.09f, 0.14f, 0.12f}, /* nose */
    {M_EYES, B_EYE_L, B_HEAD, EYE_X, EYE_Y, EYE_Z, 0.14f, 0.2f, 0.08f},
    {M_EYES, B_EYE_R, B_HEAD, -EYE_X, EYE_Y, EYE_Z, 0.14f, 0.2f, 0.08f},
    {M_MOUTH, B_HEAD, B_HEAD, 0, 17.25f, -0.93f, 0.22f, 0.05f, 0.06f},
    {M_SHIRT, B_UPPER2, B_UPPER2, 0, 15.25f, -0.1f, 1.3f, 1.3f, 0.8f},
    {M_SHIRT, B_UPPER, B_UPPER, 0, 13.85f, -0.15f, 1.05f, 1.1f, 0.7f},
    {M_TROUSERS, B_LOWER, B_LOWER, 0, 12.0f, -0.1f, 1.2f, 1.35f, 0.8f},
};
enum { E_EYE_L = 3, E_MOUTH = 5, E_TORSO = 6 };

/* The limbs' capsules, left side (the right one is 4 table bones on): material, skin bone, the ends
 * (build_body's points) and their radii over the fit's scale. */
enum { L_SHOULDER, L_ARM, L_ELBOW, L_WRIST, L_HAND, L_HAND_TIP, L_LEG, L_KNEE, L_ANKLE, L_SHOE, L_HEEL, L_TIP };
static const struct {
    uint8_t material, skin, a, b;
    float ra, rb;
} limbs[] = {
    {M_SHIRT, B_SHOULDER_L, L_SHOULDER, L_ARM, 0.42f, 0.4f},  {M_SHIRT, B_ARM_L, L_ARM, L_ELBOW, 0.38f, 0.32f},
    {M_SKIN, B_ELBOW_L, L_ELBOW, L_WRIST, 0.29f, 0.23f},      {M_SKIN, B_WRIST_L, L_HAND, L_HAND_TIP, 0.24f, 0.19f},
    {M_TROUSERS, B_LEG_L, L_LEG, L_KNEE, 0.7f, 0.48f},        {M_TROUSERS, B_KNEE_L, L_KNEE, L_ANKLE, 0.46f, 0.32f},
    {M_SHOES, B_ANKLE_L, L_ANKLE, L_SHOE, 0.34f, 0.38f},      {M_SHOES, B_ANKLE_L, L_HEEL, L_TIP, 0.42f, 0.32f},
};
_Static_assert(B_SHOULDER_R - B_SHOULDER_L == 4 && B_LEG_R - B_LEG_L == 4 && B_WRIST_L == B_ARM_L + 2 &&
                   B_ANKLE_L == B_LEG_L + 2, "the right side is 4 table bones on; arm to wrist and leg to ankle in a row");

static void build_body(mesh *m, const fit *f, face_parts *fp) {
    const float k = f->scale;
    const uint32_t *sk = f->skin;
    /* head, hair, face; the neck; the torso */
    fp->scale = k;
    for (int e = 0; e < (int)(sizeof ellipsoids / sizeof ellipsoids[0]); e++) {
        if (e == E_TORSO) capsule(m, M_SKIN, sk[B_NECK], f->pos[B_NECK], at(f, B_NECK, 0, 17.1f, 0), 0.36f * k, 0.36f * k);
        pm_vec3 c = at(f, ellipsoids[e].bone, ellipsoids[e].x, ellipsoids[e].y, ellipsoids[e].z);
        uint32_t first = ellipsoid(m, ellipsoids[e].material, sk[ellipsoids[e].skin], c,
                                   sized(f, ellipsoids[e].rx, ellipsoids[e].ry, ellipsoids[e].rz));
        if (e == E_EYE_L || e == E_EYE_L + 1) {
            fp->eye[e - E_EYE_L] = c;
            fp->eye_first[e - E_EYE_L] = first;
            fp->eye_end[e - E_EYE_L] = vertex_count(m);
        } else if (e == E_MOUTH) {
            fp->mouth = c;
            fp->mouth_first = first;
            fp->mouth_end = vertex_count(m);
        }
    }
    for (int side = 0; side < 2; side++) {
        const int o = side * (B_SHOULDER_R - B_SHOULDER_L); /* the same as B_LEG_R - B_LEG_L */
        pm_vec3 p[12];
        for (int i = 0; i < 3; i++) { /* arm, elbow, wrist; leg, knee, ankle */
            p[L_ARM + i] = f->pos[B_ARM_L + o + i];
            p[L_LEG + i] = f->pos[B_LEG_L + o + i];
        }
        p[L_SHOULDER] = pmi_vec3_add(f->pos[B_SHOULDER_L + o], sized(f, side ? -0.25f : 0.25f, 0, -0.25f));
        pm_vec3 dir = pmi_vec3_normalize(pmi_vec3_sub(p[L_WRIST], p[L_ELBOW]));
        p[L_HAND] = pmi_vec3_add(p[L_WRIST], pmi_vec3_scale(dir, 0.2f * k));
        p[L_HAND_TIP] = pmi_vec3_add(p[L_WRIST], pmi_vec3_scale(dir, 0.75f * k));
        int ankle = B_ANKLE_L + o, toe = B_TOE_L + o;
        p[L_SHOE] = at(f, ankle, table[ankle].x, 0.55f, 0.05f);
        p[L_HEEL] = at(f, ankle, table[ankle].x, 0.42f, 0.3f);
        p[L_TIP] = at(f, toe, table[toe].x, 0.32f, table[toe].z + 0.05f);
        for (size_t i = 0; i < sizeof limbs / sizeof limbs[0]; i++)
            capsule(m, limbs[i].material, sk[limbs[i].skin + o], p[limbs[i].a], p[limbs[i].b], limbs[i].ra * k,
                    limbs[i].rb * k);
    }
}

/* Face morphs: blink closes the eyes onto their centre line, あ opens the mouth, 笑い narrows the
 * eyes from below and lifts the mouth corners. */
static pm_result build_morphs(const mesh *m, const face_parts *f, const pm_allocator *a, pm_pmx_vertex_morph morphs[3],
                              uint32_t **vbuf, pm_vec3 **obuf, pm_error *err) {
    uint32_t eyes = (f->eye_end[0] - f->eye_first[0]) + (f->eye_end[1] - f->eye_first[1]);
    uint32_t mouth = f->mouth_end - f->mouth_first;
    uint32_t total = eyes + mouth + (eyes + mouth);
    *vbuf = pmi_alloc_array(a, total, sizeof(uint32_t), err, "mannequin morphs");
    *obuf = *vbuf ? pmi_alloc_array(a, total, sizeof(pm_vec3), err, "mannequin morphs") : NULL;
    if (!*obuf) return PM_ERR_OUT_OF_MEMORY;
    const pm_pmx_vertex *v = (const pm_pmx_vertex *)m->vertices.data;
    uint32_t k = 0;
    for (int i = 0; i < 3; i++) {
        morphs[i].name = morph_names[i];
        morphs[i].name_en = morph_names_en[i];
        morphs[i].panel = morph_panels[i];
        morphs[i].vertex = *vbuf + k;
        morphs[i].offset = *obuf + k;
        uint32_t start = k;
        if (i != 1) /* eyes */
            for (int side = 0; side < 2; side++)
                for (uint32_t j = f->eye_first[side]; j < f->eye_end[side]; j++) {
                    float dy = v[j].position.y - f->eye[side].y;
                    float move = i == 0 ? -0.92f * dy : (dy < 0 ? -0.8f * dy : -0.25f * dy);
                    (*vbuf)[k] = j;
                    (*obuf)[k++] = pmi_vec3_make(0, move, i == 0 ? 0.02f * f->scale : 0.0f);
                }
        if (i != 0) /* mouth */
            for (uint32_t j = f->mouth_first; j < f->mouth_end; j++) {
                pm_vec3 p = v[j].position;
                float dx = p.x - f->mouth.x, dy = p.y - f->mouth.y, ax = fabsf(dx) / (0.22f * f->scale);
                pm_vec3 off = i == 1 ? pmi_vec3_make(-0.15f * dx, (dy < 0 ? -0.22f : 0.03f) * f->scale,
                                                    (dy < 0 ? 0.04f : 0.0f) * f->scale)
                                     : pmi_vec3_make(0.1f * dx, 0.09f * f->scale * ax * ax, 0);
                (*vbuf)[k] = j;
                (*obuf)[k++] = off;
            }
        morphs[i].offset_count = k - start;
    }
    return PM_OK;
}

static const struct {
    const char *name, *name_en;
    float r, g, b;
    uint8_t edge;
} materials[M_COUNT] = {
    {"肌", "skin", 1.0f, 0.86f, 0.76f, 1},     {"シャツ", "shirt", 0.26f, 0.46f, 0.78f, 1},
    {"ズボン", "trousers", 0.2f, 0.22f, 0.3f, 1}, {"靴", "shoes", 0.42f, 0.26f, 0.16f, 1},
    {"髪", "hair", 0.25f, 0.16f, 0.1f, 1},      {"目", "eyes", 0.08f, 0.08f, 0.1f, 0},
    {"口", "mouth", 0.55f, 0.2f, 0.2f, 0},
};

/* Display frames: Root, 表情 and the usual groups. */
static const char *const frame_names[8][2] = {{"Root", "Root"}, {"表情", "Exp"}, {"センター", "Center"},
                                              {"体(上)", "Upper body"}, {"腕", "Arms"}, {"体(下)", "Lower body"},
                                              {"足", "Legs"}, {"IK", "IK"}};
static const int8_t frame_bones[8][10] = {
    {B_MASTER, -1}, {-1}, {B_CENTER, B_GROOVE, -1}, {B_UPPER, B_UPPER2, B_NECK, B_HEAD, B_EYES, -1},
    {B_SHOULDER_L, B_ARM_L, B_ELBOW_L, B_WRIST_L, B_SHOULDER_R, B_ARM_R, B_ELBOW_R, B_WRIST_R, -1},
    {B_WAIST, B_LOWER, -1}, {B_LEG_L, B_KNEE_L, B_ANKLE_L, B_TOE_L, B_LEG_R, B_KNEE_R, B_ANKLE_R, B_TOE_R, -1},
    {B_LEG_IK_L, B_TOE_IK_L, B_LEG_IK_R, B_TOE_IK_R, -1}};

void pmi_mannequin_body_free(pmi_mannequin_body *body) {
    if (!body || !body->allocator) return;
    const pm_allocator *a = body->allocator;
    pmi_free(a, body->vertices);
    pmi_free(a, body->indices);
    pmi_free(a, body->morph_vertices);
    pmi_free(a, body->morph_offsets);
    pmi_free(a, body->display_items);
    memset(body, 0, sizeof *body);
}

pm_result pmi_mannequin_body_build(const pm_skeleton *s, const pm_allocator *a, pmi_mannequin_body *body, pm_error *err) {
    memset(body, 0, sizeof *body);
    static const pm_allocator default_allocator;
    body->allocator = a ? a : &default_allocator;
    a = body->allocator;
    fit fitted;
    bool eye_bones = pm_skeleton_find(s, table[B_EYE_L].name) != PM_NO_INDEX;
    pm_result r = fit_skeleton(s, eye_bones, &fitted, err);
    if (r != PM_OK) return r;
    mesh m;
    memset(&m, 0, sizeof m);
    m.vertices.allocator = a;
    for (int i = 0; i < M_COUNT; i++) m.indices[i].allocator = a;
    face_parts f;
    memset(&f, 0, sizeof f); /* build_body sets every part; gcc -O1 cannot see that through its loops */
    build_body(&m, &fitted, &f);
    bool failed = m.vertices.failed;
    for (int i = 0; i < M_COUNT; i++) failed |= m.indices[i].failed;
    if (failed) r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "mannequin: out of memory building the mesh");
    if (r == PM_OK) r = build_morphs(&m, &f, a, body->morphs, &body->morph_vertices, &body->morph_offsets, err);
    /* one index array, material by material */
    size_t nindex = 0;
    for (int i = 0; i < M_COUNT; i++) nindex += m.indices[i].size / sizeof(uint32_t);
    if (r == PM_OK && !(body->indices = pmi_alloc_array(a, nindex, sizeof(uint32_t), err, "mannequin indices")))
        r = PM_ERR_OUT_OF_MEMORY;
    size_t at = 0;
    for (int i = 0; i < M_COUNT && r == PM_OK; i++) {
        memcpy(body->indices + at, m.indices[i].data, m.indices[i].size);
        at += m.indices[i].size / sizeof(uint32_t);
        pm_pmx_material *mt = &body->materials[i];
        mt->name = materials[i].name;
        mt->name_en = materials[i].name_en;
        float c[3] = {materials[i].r, materials[i].g, materials[i].b};
        for (int k = 0; k < 3; k++) {
            mt->diffuse[k] = c[k];
            mt->ambient[k] = c[k] * 0.6f;
            mt->specular[k] = 0.1f;
        }
        mt->diffuse[3] = 1.0f;
        mt->specular_power = 10.0f;
        mt->flags = PM_PMX_MATERIAL_GROUND_SHADOW | PM_PMX_MATERIAL_CAST_SHADOW | PM_PMX_MATERIAL_RECEIVE_SHADOW |
                    (materials[i].edge ? PM_PMX_MATERIAL_EDGE : 0);
        mt->edge_color[3] = 1.0f;
        mt->edge_size = 0.5f;
        mt->shared_toon = -1;
        mt->index_count = (uint32_t)(m.indices[i].size / sizeof(uint32_t));
    }
    /* display frames: the table's groups with the bones the skeleton has, and one more frame ("その他")
     * for the skeleton's bones that are not the mannequin's */
    uint8_t *listed = NULL;
    if (r == PM_OK && !(listed = pmi_alloc_array(a, s->bone_count, 1, err, "mannequin frames"))) r = PM_ERR_OUT_OF_MEMORY;
    if (r == PM_OK && !(body->display_items = pmi_alloc_array(a, (size_t)s->bone_count + 3, sizeof(pm_pmx_display_item),
                                                              err, "mannequin frames")))
        r = PM_ERR_OUT_OF_MEMORY;
    uint32_t nitems = 0, nframes = 0;
    for (int i = 0; i < 9 && r == PM_OK; i++) {
        pm_pmx_display_frame *fr = &body->display_frames[nframes];
        fr->name = i < 8 ? frame_names[i][0] : "\xe3\x81\x9d\xe3\x81\xae\xe4\xbb\x96"; /* その他 */
        fr->name_en = i < 8 ? frame_names[i][1] : "Others";
        fr->special = i < 2;
        fr->items = body->display_items + nitems;
        uint32_t start = nitems;
        if (i == 1)
            for (uint32_t k = 0; k < 3; k++) body->display_items[nitems++] = (pm_pmx_display_item){1, k};
        for (int k = 0; i < 8 && frame_bones[i][k] >= 0; k++) {
            uint32_t b = pm_skeleton_find(s, table[frame_bones[i][k]].name);
            if (b != PM_NO_INDEX && !listed[b]) listed[b] = 1, body->display_items[nitems++] = (pm_pmx_display_item){0, b};
        }
        if (i == 8) /* the bones that are not the mannequin's own (its eye bones have no frame) */
            for (int t = 0; t < B_COUNT; t++) {
                uint32_t b = pm_skeleton_find(s, table[t].name);
                if (b != PM_NO_INDEX) listed[b] = 1;
            }
        for (uint32_t b = 0; i == 8 && b < s->bone_count; b++)
            if (!listed[b]) body->display_items[nitems++] = (pm_pmx_display_item){0, b};
        fr->item_count = nitems - start;
        if (i < 8 || fr->item_count) nframes++;
    }
    pmi_free(a, listed);
    if (r == PM_OK) {
        body->vertices = (pm_pmx_vertex *)m.vertices.data; /* taken over from the buffer */
        m.vertices.data = NULL;
        body->model = (pm_pmx_model){s, vertex_count(&m), body->vertices, (uint32_t)nindex, body->indices,
                                     M_COUNT, body->materials, 3, body->morphs, nframes, body->display_frames};
    }
    pmi_buf_release(&m.vertices);
    for (int i = 0; i < M_COUNT; i++) pmi_buf_release(&m.indices[i]);
    if (r != PM_OK) pmi_mannequin_body_free(body);
    return r;
}

pm_result pm_mannequin_pmx(const pm_mannequin_options *opts, uint8_t *out, size_t out_cap, size_t *out_size,
                           pm_error *err) {
    if (!out_size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "mannequin: out_size is NULL");
    *out_size = 0;
    pm_result r = check_options(&opts, err);
    if (r != PM_OK) return r;
    pm_skeleton *s = NULL;
    if ((r = build_skeleton(opts, &s, err)) != PM_OK) return r;
    pmi_mannequin_body body;
    r = pmi_mannequin_body_build(s, &opts->allocator, &body, err);
    if (r == PM_OK) {
        pm_pmx_write_options wo = {opts->encoding};
        r = pm_pmx_write(&body.model, &wo, out, out_cap, out_size, err);
    }
    pmi_mannequin_body_free(&body);
    pm_skeleton_free(s);
    return r;
}
