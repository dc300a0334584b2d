/* PMX/PMD model -> VRM 1.0 (glTF 2.0 binary). See procmotion/vrm.h and docs/vrm.md. */
#include "procmotion/vrm.h"
#include "procmotion/text.h"

#include "common/json.h"
#include "gltf/glb.h"
#include "procmotion/rig.h"
#include "vrm/vrm_internal.h"
#include "math/inline.h"

#include <stdlib.h>

#define PMI_VRM_MAGIC 0x314d5256u /* "VRM1" */
#define MMD_TO_METRES 0.08f

/* glTF constants */
enum { GL_BYTE_UNSIGNED = 5121, GL_USHORT = 5123, GL_UINT = 5125, GL_FLOAT = 5126 };
enum { GL_ARRAY_BUFFER = 34962, GL_ELEMENT_ARRAY_BUFFER = 34963 };

/* ---- VRM human bones from rig roles -------------------------------------------------------------- */

/* The VRM bone kinds, numbered from 1 (0: none) */
enum {
    V_HIPS = 1, V_SPINE, V_CHEST, V_UPPER_CHEST, V_NECK, V_HEAD, V_EYE, V_SHOULDER, V_UPPER_ARM, V_LOWER_ARM,
    V_HAND, V_UPPER_LEG, V_LOWER_LEG, V_FOOT, V_TOES, V_THUMB_METACARPAL, V_THUMB_PROXIMAL, V_THUMB_DISTAL,
    V_INDEX_PROXIMAL, V_INDEX_INTERMEDIATE, V_INDEX_DISTAL, V_MIDDLE_PROXIMAL, V_MIDDLE_INTERMEDIATE,
    V_MIDDLE_DISTAL, V_RING_PROXIMAL, V_RING_INTERMEDIATE, V_RING_DISTAL, V_LITTLE_PROXIMAL,
    V_LITTLE_INTERMEDIATE, V_LITTLE_DISTAL
};

typedef struct vrm_bone {
    uint8_t role;       /* pm_rig_role: the left role for sided bones (side 0), the centre role otherwise */
    bool sided;
    uint8_t parents[3]; /* VRM parents (kinds; a sided one on the same side) in order of preference, 0 = none */
} vrm_bone;

static const vrm_bone vrm_bones[] = {
    {PM_RIG_LOWER_BODY, false, {0}},
    {PM_RIG_UPPER_BODY, false, {V_HIPS}},
    {PM_RIG_UPPER_BODY2, false, {V_SPINE}},
    {PM_RIG_UPPER_BODY3, false, {V_CHEST}},
    {PM_RIG_NECK, false, {V_UPPER_CHEST, V_CHEST, V_SPINE}},
    {PM_RIG_HEAD, false, {V_NECK, V_UPPER_CHEST, V_CHEST}},
    {PM_RIG_LEFT_EYE, true, {V_HEAD}},
    {PM_RIG_LEFT_SHOULDER, true, {V_UPPER_CHEST, V_CHEST, V_SPINE}},
    {PM_RIG_LEFT_ARM, true, {V_SHOULDER, V_UPPER_CHEST, V_CHEST}},
    {PM_RIG_LEFT_ELBOW, true, {V_UPPER_ARM}},
    {PM_RIG_LEFT_WRIST, true, {V_LOWER_ARM}},
    {PM_RIG_LEFT_LEG, true, {V_HIPS}},
    {PM_RIG_LEFT_KNEE, true, {V_UPPER_LEG}},
    {PM_RIG_LEFT_ANKLE, true, {V_LOWER_LEG}},
    {PM_RIG_LEFT_TOE, true, {V_FOOT}},
    {PM_RIG_LEFT_THUMB0, true, {V_HAND}},
    {PM_RIG_LEFT_THUMB1, true, {V_THUMB_METACARPAL, V_HAND}},
    {PM_RIG_LEFT_THUMB2, true, {V_THUMB_PROXIMAL}},
    {PM_RIG_LEFT_INDEX1, true, {V_HAND}},
    {PM_RIG_LEFT_INDEX2, true, {V_INDEX_PROXIMAL}},
    {PM_RIG_LEFT_INDEX3, true, {V_INDEX_INTERMEDIATE}},
    {PM_RIG_LEFT_MIDDLE1, true, {V_HAND}},
    {PM_RIG_LEFT_MIDDLE2, true, {V_MIDDLE_PROXIMAL}},
    {PM_RIG_LEFT_MIDDLE3, true, {V_MIDDLE_INTERMEDIATE}},
    {PM_RIG_LEFT_RING1, true, {V_HAND}},
    {PM_RIG_LEFT_RING2, true, {V_RING_PROXIMAL}},
    {PM_RIG_LEFT_RING3, true, {V_RING_INTERMEDIATE}},
    {PM_RIG_LEFT_LITTLE1, true, {V_HAND}},
    {PM_RIG_LEFT_LITTLE2, true, {V_LITTLE_PROXIMAL}},
    {PM_RIG_LEFT_LITTLE3, true, {V_LITTLE_INTERMEDIATE}},
};
#define VRM_BONE_KINDS (sizeof vrm_bones / sizeof vrm_bones[0])
#define VRM_SLOTS (2 * VRM_BONE_KINDS)

/* The VRM names: the 6 centre kinds, then the 24 sided ones on the left, then on the right. */
static const char *const vrm_names[] = {
    "hips", "spine", "chest", "upperChest", "neck", "head",
    "leftEye", "leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand", "leftUpperLeg", "leftLowerLeg",
    "leftFoot", "leftToes", "leftThumbMetacarpal", "leftThumbProximal", "leftThumbDistal", "leftIndexProximal",
    "leftIndexIntermediate", "leftIndexDistal", "leftMiddleProximal", "leftMiddleIntermediate",
    "leftMiddleDistal", "leftRingProximal", "leftRingIntermediate", "leftRingDistal", "leftLittleProximal",
    "leftLittleIntermediate", "leftLittleDistal",
    "rightEye", "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand", "rightUpperLeg",
    "rightLowerLeg", "rightFoot", "rightToes", "rightThumbMetacarpal", "rightThumbProximal",
    "rightThumbDistal", "rightIndexProximal", "rightIndexIntermediate", "rightIndexDistal",
    "rightMiddleProximal", "rightMiddleIntermediate", "rightMiddleDistal", "rightRingProximal",
    "rightRingIntermediate", "rightRingDistal", "rightLittleProximal", "rightLittleIntermediate",
    "rightLittleDistal"};
_Static_assert(sizeof vrm_names / sizeof vrm_names[0] == 6 + 2 * (VRM_BONE_KINDS - 6), "6 centre kinds first");

/* The full VRM name of slot s (kind s / 2, side s % 2). */
static const char *slot_name(size_t s) {
    size_t k = s / 2;
    return vrm_names[k < 6 ? k : k + (s % 2) * (VRM_BONE_KINDS - 6)];
}

const char *pm_vrm_bone_name(int rig_role) {
    for (size_t k = 0; k < VRM_BONE_KINDS; k++) {
        const vrm_bone *b = &vrm_bones[k];
        if ((int)b->role == rig_role) return vrm_names[k];
        if (b->sided && (int)PM_RIG_SIDED(b->role, 1) == rig_role) return vrm_names[k + VRM_BONE_KINDS - 6];
    }
    return NULL;
}

/* ---- expressions -------------------------------------------------------------------------------- */

/* Each VRM preset, then the MMD morph names it takes (the first found wins), then an empty name. */
static const char preset_text[] =
    "aa\0" "\xe3\x81\x82" "\0" "\0" /* あ */
    "ih\0" "\xe3\x81\x84" "\0" "\0" /* い */
    "ou\0" "\xe3\x81\x86" "\0" "\0" /* う */
    "ee\0" "\xe3\x81\x88" "\0" "\0" /* え */
    "oh\0" "\xe3\x81\x8a" "\0" "\0" /* お */
    "blink\0" "\xe3\x81\xbe\xe3\x81\xb0\xe3\x81\x9f\xe3\x81\x8d" "\0" "\0" /* まばたき */
    "blinkLeft\0" "\xe3\x82\xa6\xe3\x82\xa3\xe3\x83\xb3\xe3\x82\xaf" "\0" "\xe3\x82\xa6\xe3\x82\xa3\xe3\x83\xb3\xe3\x82\xaf\xef\xbc\x92" "\0" "\0" /* ウィンク, ウィンク２ */
    "blinkRight\0" "\xe3\x82\xa6\xe3\x82\xa3\xe3\x83\xb3\xe3\x82\xaf\xe5\x8f\xb3" "\0" "\xe3\x82\xa6\xe3\x82\xa3\xe3\x83\xb3\xe3\x82\xaf\xef\xbc\x92\xe5\x8f\xb3" "\0" "\xef\xbd\xb3\xef\xbd\xa8\xef\xbe\x9d\xef\xbd\xb8\xef\xbc\x92\xe5\x8f\xb3" "\0" "\0" /* ウィンク右, ウィンク２右, ｳｨﾝｸ２右 */
    "happy\0" "\xe7\xac\x91\xe3\x81\x84" "\0" "\0" /* 笑い */
    "angry\0" "\xe6\x80\x92\xe3\x82\x8a" "\0" "\0" /* 怒り */
    "sad\0" "\xe5\x9b\xb0\xe3\x82\x8b" "\0" "\0" /* 困る */
    "relaxed\0" "\xe3\x81\xaa\xe3\x81\x94\xe3\x81\xbf" "\0" "\0" /* なごみ */
    "surprised\0" "\xe3\x81\xb3\xe3\x81\xa3\xe3\x81\x8f\xe3\x82\x8a" "\0" "\0" /* びっくり */;
#define PRESET_COUNT 13

/* Shade colours (bottom row) of the shared toons toon01..toon10 as babylon-mmd ships them. */
static const uint8_t shared_toon_shade[10][3] = {
    {205, 205, 205}, {245, 225, 225}, {154, 154, 154}, {248, 239, 235}, {254, 232, 223},
    {195, 172, 3},   {255, 255, 255}, {255, 255, 255}, {255, 255, 255}, {255, 255, 255}};

/* ---- the writer's state ------------------------------------------------------------------------- */

typedef struct texture_state {
    const char *status;   /* "embedded", "converted", "missing", "unsupported", "unreadable", "unused" */
    char detail[160];
    int32_t image;        /* glTF image / texture index, -1 = none */
    bool has_alpha;
    bool used;
    float shade[3];       /* as a toon: the bottom row colour (decoded BMP/TGA only) */
    bool has_shade;
} texture_state;

typedef struct ctx {
    bool ok;              /* JSON building (first: &c->ok is c) */
    const pm_model *m;
    const pm_skeleton *s;
    const pm_vrm_options *o;
    pm_allocator a;
    pm_error *err;
    pmi_buf bin;
    cJSON *views, *accessors;
    uint32_t view_count, accessor_count;
    /* per bone */
    pm_vec3 *rest;        /* posed (T-pose) rest positions, MMD units */
    pm_quat *rot;         /* world rotation of the bake */
    bool *moved;
    uint32_t *parent;     /* node parents after re-parenting */
    /* per vertex */
    uint16_t *joints;     /* [4 * vertex_count] */
    float *weights;       /* [4 * vertex_count] */
    uint32_t sdef, qdef, renormalized, non_finite;
    texture_state *tex;
} ctx;

/* The writer's arrays: one call with the state instead of its allocator and error at every site. */
static void *alloc_array(ctx *c, size_t count, size_t elem, const char *what) {
    return pmi_alloc_array(&c->a, count, elem, c->err, what);
}

static float finite_or_zero(ctx *c, float v) {
    if (isfinite(v)) return v;
    c->non_finite++;
    return 0.0f;
}
/* (vectors by pointer here: a pm_vec3 by value is a copy in memory at every call in wasm) */
/* a + b * s component by component: s = 1 is pm_vec3_add, s = -1 pm_vec3_sub (x + -y is x - y), exactly;
 * the product apart from the sum, as pmi_vec3_add(a, pmi_vec3_scale(b, s)) had it: no compiler fuses them */
static pm_vec3 add_scaled(const pm_vec3 *a, const pm_vec3 *b, float s) {
    const pm_vec3 bs = {b->x * s, b->y * s, b->z * s};
    return (pm_vec3){a->x + bs.x, a->y + bs.y, a->z + bs.z};
}
/* q turns a - b (b NULL: a) */
static pm_vec3 turn(const pm_quat *q, const pm_vec3 *a, const pm_vec3 *b) {
    return pm_quat_rotate(*q, b ? add_scaled(a, b, -1) : *a);
}
static pm_vec3 finite_vec(ctx *c, const pm_vec3 *v) {
    return pmi_vec3_make(finite_or_zero(c, v->x), finite_or_zero(c, v->y), finite_or_zero(c, v->z));
}
/* MMD -> glTF of v - origin (origin NULL: of v; x - +0 is x): metres, z mirrored; anything that
 * overflowed on the way is written as 0 (counted). */
static pm_vec3 gl(ctx *c, const pm_vec3 *v, const pm_vec3 *origin) {
    static const pm_vec3 zero = {0, 0, 0};
    const pm_vec3 *o = origin ? origin : &zero;
    pm_vec3 d = {(v->x - o->x) * MMD_TO_METRES, (v->y - o->y) * MMD_TO_METRES, -(v->z - o->z) * MMD_TO_METRES};
    return finite_vec(c, &d);
}

/* Append bytes to the BIN chunk (4-aligned) as a bufferView; returns its index or -1. */
static int32_t add_view(ctx *c, const void *data, size_t n, int target) {
    size_t pad = (4 - c->bin.size % 4) % 4;
    if (pad + n) {
        uint8_t *p = pmi_buf_grow(&c->bin, pad + n);
        if (!p) {
            c->ok = false;
            return -1;
        }
        if (n) memcpy(p + pad, data, n);
    }
    size_t offset = c->bin.size - n;
    cJSON *v = pmi_json_add_object(c->views, NULL, &c->ok);
    pmi_json_add_number(v, "buffer", 0, &c->ok);
    pmi_json_add_number(v, "byteOffset", (double)offset, &c->ok);
    pmi_json_add_number(v, "byteLength", (double)n, &c->ok);
    if (target) pmi_json_add_number(v, "target", target, &c->ok);
    return (int32_t)c->view_count++;
}

/* to[key] = [v[0], .., v[n - 1]] */
static void add_floats(ctx *c, cJSON *to, const char *key, const float *v, int n) {
    cJSON *a = pmi_json_add_array(to, key, &c->ok);
    for (int i = 0; a && i < n; i++) pmi_json_add_number(a, NULL, v[i], &c->ok);
}

/* An accessor on `view` (-1: none, all zeros); min / max for VEC3 when given. */
static int32_t add_accessor(ctx *c, int32_t view, int component, uint32_t count, const char *type, const float *min,
                            const float *max, cJSON **out) {
    cJSON *a = pmi_json_add_object(c->accessors, NULL, &c->ok);
    if (view >= 0) pmi_json_add_number(a, "bufferView", view, &c->ok);
    pmi_json_add_number(a, "componentType", component, &c->ok);
    pmi_json_add_number(a, "count", count, &c->ok);
    pmi_json_add_string(a, "type", type, &c->ok);
    if (min) add_floats(c, a, "min", min, 3);
    if (max) add_floats(c, a, "max", max, 3);
    if (out) *out = a;
    return (int32_t)c->accessor_count++;
}

static void bounds(const float *v, uint32_t n, float mn[3], float mx[3]) {
    for (int k = 0; k < 3; k++) mn[k] = n ? v[k] : 0, mx[k] = n ? v[k] : 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            mn[k] = fminf(mn[k], v[3 * i + k]);
            mx[k] = fmaxf(mx[k], v[3 * i + k]);
        }
}

/* ---- weights ------------------------------------------------------------------------------------ */

/* glTF joints and weights of vertex i: BDEF1/2/4 as written, SDEF as BDEF2, QDEF as BDEF4; bones that
 * are -1 or weigh <= 0 dropped, duplicates merged, normalised so they add up to 1 in float. */
static void vertex_weights(ctx *c, uint32_t i) {
    const pm_model_vertex *v = &c->m->vertices[i];
    int n = v->weight_type == PM_WEIGHT_BDEF1 ? 1 : (v->weight_type == PM_WEIGHT_BDEF2 || v->weight_type == PM_WEIGHT_SDEF) ? 2 : 4;
    if (v->weight_type == PM_WEIGHT_SDEF) c->sdef++;
    if (v->weight_type == PM_WEIGHT_QDEF) c->qdef++;
    uint32_t jb[4];
    float jw[4];
    int k = 0;
    float sum = 0;
    for (int t = 0; t < n; t++) {
        uint32_t b = v->bone[t];
        float w = n == 1 ? 1.0f : v->weight[t];
        if (b == PM_NO_INDEX || b >= c->s->bone_count || !isfinite(w) || w <= 0) continue;
        if (w > 1) w = 1;
        int dup = -1;
        for (int q = 0; q < k; q++)
            if (jb[q] == b) dup = q;
        if (dup >= 0) jw[dup] += w;
        else jb[k] = b, jw[k++] = w;
        sum += w;
    }
    if (k == 0) { /* no usable weight: the first named bone (or bone 0) takes the vertex */
        jb[0] = v->bone[0] < c->s->bone_count ? v->bone[0] : 0;
        jw[0] = sum = 1;
        k = 1;
    }
    if (fabsf(sum - 1.0f) > 1e-4f && n > 1) c->renormalized++;
    int big = 0;
    float rest = 0;
    for (int q = 0; q < k; q++) {
        jw[q] /= sum;
        if (jw[q] > jw[big]) big = q;
    }
    for (int q = 0; q < k; q++)
        if (q != big) rest += jw[q];
    jw[big] = 1.0f - rest;
    for (int q = 0; q < 4; q++) {
        c->joints[4 * (size_t)i + q] = q < k ? (uint16_t)jb[q] : 0;
        c->weights[4 * (size_t)i + q] = q < k ? jw[q] : 0.0f;
    }
}

/* ---- T-pose ------------------------------------------------------------------------------------- */

/* The bones in an order where each comes after its parent. */
static uint32_t *parent_order(ctx *c) {
    uint32_t n = c->s->bone_count;
    uint32_t *depth = alloc_array(c, n, sizeof *depth, "vrm bone order");
    uint32_t *order = alloc_array(c, n, sizeof *order, "vrm bone order");
    if (!depth || !order) {
        pmi_free(&c->a, depth);
        pmi_free(&c->a, order);
        return NULL;
    }
    uint32_t maxd = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = 0;
        for (uint32_t p = c->s->bones[i].parent; p != PM_NO_INDEX && d <= n; p = c->s->bones[p].parent) d++;
        depth[i] = d;
        if (d > maxd) maxd = d;
    }
    uint32_t k = 0;
    for (uint32_t d = 0; d <= maxd && k < n; d++) /* O(n * depth); skeletons are a few hundred bones deep at most */
        for (uint32_t i = 0; i < n; i++)
            if (depth[i] == d) order[k++] = i;
    pmi_free(&c->a, depth);
    return order;
}

static float arm_degrees_below(const pm_skeleton *s, uint32_t arm, uint32_t elbow) {
    pm_vec3 d = add_scaled(&s->bones[elbow].position, &s->bones[arm].position, -1);
    float len = pmi_vec3_length(d);
    if (!(len > 0)) return 0;
    return (float)(asin(fmax(-1.0, fmin(1.0, -d.y / len))) * 180.0 / PM_PI);
}

/* Posed positions and rotations: the arms (腕, then ひじ) turned onto the sides. */
static pm_result bake_pose(ctx *c, const pm_rig_roles *roles, pm_vrm_result *res) {
    const pm_skeleton *s = c->s;
    uint32_t n = s->bone_count;
    for (uint32_t i = 0; i < n; i++) {
        c->rest[i] = finite_vec(c, &s->bones[i].position);
        c->rot[i] = pmi_quat_identity();
    }
    uint32_t driven[4] = {PM_NO_INDEX, PM_NO_INDEX, PM_NO_INDEX, PM_NO_INDEX}, aim[4];
    float side_x[4];
    for (int side = 0; side < 2; side++) {
        uint32_t arm = roles->bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, side)];
        uint32_t elbow = roles->bone[PM_RIG_SIDED(PM_RIG_LEFT_ELBOW, side)];
        uint32_t wrist = roles->bone[PM_RIG_SIDED(PM_RIG_LEFT_WRIST, side)];
        if (arm == PM_NO_INDEX || elbow == PM_NO_INDEX || wrist == PM_NO_INDEX) continue;
        res->arm_degrees[side] = arm_degrees_below(s, arm, elbow);
        res->elbow_degrees[side] = arm_degrees_below(s, elbow, wrist) - res->arm_degrees[side];
        driven[2 * side] = arm, aim[2 * side] = elbow;
        driven[2 * side + 1] = elbow, aim[2 * side + 1] = wrist;
        side_x[2 * side] = side_x[2 * side + 1] = side ? -1.0f : 1.0f;
    }
    if (c->o->keep_rest_pose) return PM_OK;
    uint32_t *order = parent_order(c);
    if (!order) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t b = order[k], p = s->bones[b].parent;
        if (p != PM_NO_INDEX) {
            c->rot[b] = c->rot[p];
            pm_vec3 at = finite_vec(c, &s->bones[b].position), from = finite_vec(c, &s->bones[p].position);
            pm_vec3 t = turn(&c->rot[p], &at, &from);
            c->rest[b] = add_scaled(&c->rest[p], &t, 1);
        }
        for (int d = 0; d < 4; d++) {
            if (driven[d] != b) continue;
            pm_vec3 dir = turn(&c->rot[b], &s->bones[aim[d]].position, &s->bones[b].position);
            if (!(pmi_vec3_length(dir) > 1e-6f)) continue;
            pm_quat to_side = pm_quat_from_to(pmi_vec3_normalize(dir), pmi_vec3_make(side_x[d], 0, 0));
            c->rot[b] = pm_quat_normalize(pm_quat_mul(to_side, c->rot[b]));
        }
    }
    pmi_free(&c->a, order);
    for (uint32_t i = 0; i < n; i++) {
        pm_quat q = c->rot[i];
        c->moved[i] = fabsf(q.w) < 1.0f - 1e-7f;
        res->t_pose |= c->moved[i];
    }
    return PM_OK;
}

/* A point (point = true) or a direction of vertex i through the bake (linear blend skinning with the
 * written weights): each weighted bone turns it about its rest position (a direction only turns). */
static pm_vec3 skin(const ctx *c, uint32_t i, const pm_vec3 *v, bool point) {
    const uint16_t *j = c->joints + 4 * (size_t)i;
    const float *w = c->weights + 4 * (size_t)i;
    bool any = false;
    for (int k = 0; k < 4; k++) any |= w[k] > 0 && c->moved[j[k]];
    if (!any) return *v;
    pm_vec3 out = {0, 0, 0};
    for (int k = 0; k < 4; k++) { /* out += (rest + turn (v - bone)) * w */
        if (w[k] <= 0) continue;
        uint32_t b = j[k];
        pm_vec3 t = turn(&c->rot[b], v, point ? &c->s->bones[b].position : NULL);
        if (point) t = add_scaled(&c->rest[b], &t, 1);
        out = add_scaled(&out, &t, w[k]);
    }
    return out;
}

/* ---- re-parenting for VRM's human hierarchy ------------------------------------------------------- */

static bool is_ancestor(const uint32_t *parent, uint32_t n, uint32_t anc, uint32_t b) {
    uint32_t steps = 0;
    for (uint32_t p = parent[b]; p != PM_NO_INDEX && steps <= n; p = parent[p], steps++)
        if (p == anc) return true;
    return false;
}

static uint32_t slot_bone(const uint32_t *slots, unsigned kind, int side) {
    return slots[2 * (kind - 1) + (vrm_bones[kind - 1].sided ? side : 0)];
}

/* ---- textures ----------------------------------------------------------------------------------- */

static bool path_char_eq(char a, char b) {
    if (a == '\\') a = '/';
    if (b == '\\') b = '/';
    if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
    if (b >= 'A' && b <= 'Z') b = (char)(b + 32);
    return a == b;
}
static bool path_eq(const char *a, size_t an, const char *b, size_t bn) {
    while (an >= 2 && a[0] == '.' && (a[1] == '/' || a[1] == '\\')) a += 2, an -= 2;
    while (bn >= 2 && b[0] == '.' && (b[1] == '/' || b[1] == '\\')) b += 2, bn -= 2;
    if (an != bn) return false;
    for (size_t i = 0; i < an; i++)
        if (!path_char_eq(a[i], b[i])) return false;
    return true;
}
static const char *base_name(const char *p, size_t n, size_t *len) {
    size_t i = n;
    while (i > 0 && p[i - 1] != '/' && p[i - 1] != '\\') i--;
    *len = n - i;
    return p + i;
}

static const pm_vrm_texture *find_texture(const pm_vrm_options *o, const pm_string *path) {
    for (uint32_t k = 0; k < o->texture_count; k++)
        if (o->textures[k].path && path_eq(o->textures[k].path, strlen(o->textures[k].path), path->data, path->length))
            return &o->textures[k];
    size_t bn, tn;
    const char *b = base_name(path->data, path->length, &bn);
    for (uint32_t k = 0; k < o->texture_count; k++) {
        if (!o->textures[k].path) continue;
        const char *t = base_name(o->textures[k].path, strlen(o->textures[k].path), &tn);
        if (path_eq(t, tn, b, bn)) return &o->textures[k];
    }
    return NULL;
}

/* Decode BMP / TGA, or NULL pixels with a detail. */
static pm_result decode_image(ctx *c, pmi_image_kind kind, const pm_vrm_texture *t, pmi_rgba *img, char *detail,
                              size_t cap) {
    pm_error e = {0};
    pm_result r = kind == PMI_IMAGE_BMP ? pmi_bmp_decode(t->data, t->size, &c->a, img, &e)
                                        : pmi_tga_decode(t->data, t->size, &c->a, img, &e);
    if (r != PM_OK) pmi_format(detail, cap, "%s", e.message);
    return r;
}

static int32_t add_image(ctx *c, cJSON *images, cJSON *textures, const uint8_t *data, size_t n, const char *mime,
                         const char *name) {
    int32_t view = add_view(c, data, n, 0);
    cJSON *im = pmi_json_add_object(images, NULL, &c->ok);
    pmi_json_add_string(im, "name", name, &c->ok);
    pmi_json_add_number(im, "bufferView", view, &c->ok);
    pmi_json_add_string(im, "mimeType", mime, &c->ok);
    int32_t index = cJSON_GetArraySize(images) - 1;
    cJSON *tx = pmi_json_add_object(textures, NULL, &c->ok);
    pmi_json_add_number(tx, "sampler", 0, &c->ok);
    pmi_json_add_number(tx, "source", index, &c->ok);
    return index;
}

static pm_result write_textures(ctx *c, cJSON *root, pm_vrm_result *res) {
    const pm_model *m = c->m;
    cJSON *images = pmi_json_add_array(root, "images", &c->ok);
    cJSON *textures = pmi_json_add_array(root, "textures", &c->ok);
    cJSON *samplers = pmi_json_add_array(root, "samplers", &c->ok);
    cJSON *smp = pmi_json_add_object(samplers, NULL, &c->ok);
    pmi_json_add_number(smp, "magFilter", 9729, &c->ok);
    pmi_json_add_number(smp, "minFilter", 9987, &c->ok);
    bool *toon = alloc_array(c, m->texture_count, 1, "vrm textures");
    if (!toon) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const pm_model_material *mat = &m->materials[i];
        if (!mat->index_count) continue;
        if (mat->texture != PM_NO_INDEX) c->tex[mat->texture].used = true;
        if (mat->sphere_texture != PM_NO_INDEX && mat->sphere_mode == 2) c->tex[mat->sphere_texture].used = true;
        if (!mat->shared_toon && mat->toon != PM_NO_INDEX) toon[mat->toon] = true;
    }
    pm_result r = PM_OK;
    for (uint32_t t = 0; t < m->texture_count && r == PM_OK; t++) {
        texture_state *ts = &c->tex[t];
        ts->image = -1;
        ts->status = "unused";
        if (!ts->used && !toon[t]) continue;
        const pm_vrm_texture *src = find_texture(c->o, &m->textures[t]);
        if (!src || !src->data) {
            ts->status = "missing";
            pmi_format(ts->detail, sizeof ts->detail, "not among the %u textures given", c->o->texture_count);
            res->textures_skipped += ts->used;
            continue;
        }
        pmi_image_kind kind = pmi_image_sniff(src->data, src->size, m->textures[t].data, m->textures[t].length);
        if (toon[t] && (kind == PMI_IMAGE_BMP || kind == PMI_IMAGE_TGA)) { /* the shade of a toon: bottom row */
            pmi_rgba img;
            char detail[160];
            if (decode_image(c, kind, src, &img, detail, sizeof detail) == PM_OK) {
                const uint8_t *px = img.pixels + ((size_t)(img.height - 1) * img.width + img.width / 2) * 4;
                for (int k = 0; k < 3; k++) ts->shade[k] = px[k] / 255.0f;
                ts->has_shade = true;
                pmi_free(&c->a, img.pixels);
            }
        }
        if (!ts->used) {
            ts->status = ts->has_shade ? "toon" : "unused";
            if (!ts->has_shade) pmi_format(ts->detail, sizeof ts->detail, "a toon texture that is not BMP or TGA (shade 0.8 used)");
            continue;
        }
        if (kind == PMI_IMAGE_PNG || kind == PMI_IMAGE_JPEG) {
            ts->image = add_image(c, images, textures, src->data, src->size, pmi_image_kind_name(kind), m->textures[t].data);
            ts->has_alpha = kind == PMI_IMAGE_PNG && pmi_png_has_alpha(src->data, src->size);
            ts->status = "embedded";
            res->textures_embedded++;
        } else if (kind == PMI_IMAGE_BMP || kind == PMI_IMAGE_TGA) {
            pmi_rgba img;
            if (decode_image(c, kind, src, &img, ts->detail, sizeof ts->detail) != PM_OK) {
                ts->status = "unreadable";
                res->textures_skipped++;
                continue;
            }
            pmi_buf png = {.allocator = &c->a};
            pmi_png_encode(&img, &png);
            pmi_free(&c->a, img.pixels);
            if (png.failed) {
                pmi_buf_release(&png);
                r = pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory converting texture %u", t);
                break;
            }
            ts->image = add_image(c, images, textures, png.data, png.size, "image/png", m->textures[t].data);
            ts->has_alpha = img.has_alpha;
            pmi_buf_release(&png);
            ts->status = "converted";
            pmi_format(ts->detail, sizeof ts->detail, "%s %ux%u to PNG", pmi_image_kind_name(kind), img.width, img.height);
            res->textures_converted++;
        } else {
            ts->status = "unsupported";
            pmi_format(ts->detail, sizeof ts->detail, "%s is not converted (only PNG, JPEG, BMP and TGA are)",
                       pmi_image_kind_name(kind));
            res->textures_skipped++;
        }
    }
    pmi_free(&c->a, toon);
    if (c->ok && cJSON_GetArraySize(images) == 0) { /* glTF forbids empty arrays */
        cJSON_DeleteItemFromObjectCaseSensitive(root, "images");
        cJSON_DeleteItemFromObjectCaseSensitive(root, "textures");
        cJSON_DeleteItemFromObjectCaseSensitive(root, "samplers");
    }
    return r;
}

/* ---- materials ---------------------------------------------------------------------------------- */

static float clamp01(float v) { return v > 1 ? 1 : v < 0 ? 0 : isfinite(v) ? v : 0; }

static void texture_info(ctx *c, cJSON *to, const char *key, int32_t index) {
    cJSON *t = pmi_json_add_object(to, key, &c->ok);
    pmi_json_add_number(t, "index", index, &c->ok);
}

static void write_material(ctx *c, cJSON *materials, const pm_model_material *mat) {
    cJSON *o = pmi_json_add_object(materials, NULL, &c->ok);
    pmi_json_add_string(o, "name", mat->name.data, &c->ok);
    float base[4];
    for (int k = 0; k < 4; k++) base[k] = clamp01(mat->diffuse[k]);
    int32_t tex = mat->texture != PM_NO_INDEX ? c->tex[mat->texture].image : -1;
    bool alpha_tex = mat->texture != PM_NO_INDEX && c->tex[mat->texture].has_alpha;
    cJSON *pbr = pmi_json_add_object(o, "pbrMetallicRoughness", &c->ok);
    add_floats(c, pbr, "baseColorFactor", base, 4);
    if (tex >= 0) texture_info(c, pbr, "baseColorTexture", tex);
    pmi_json_add_number(pbr, "metallicFactor", 0, &c->ok);
    pmi_json_add_number(pbr, "roughnessFactor", 1, &c->ok);
    bool blend = base[3] < 0.999f || alpha_tex;
    if (blend) pmi_json_add_string(o, "alphaMode", "BLEND", &c->ok);
    if (mat->flags & PM_PMX_MATERIAL_DOUBLE_SIDED) pmi_json_add_bool(o, "doubleSided", true, &c->ok);
    cJSON *ext = pmi_json_add_object(o, "extensions", &c->ok);
    if (c->o->materials == PM_VRM_MATERIALS_UNLIT) {
        pmi_json_add_object(ext, "KHR_materials_unlit", &c->ok);
        return;
    }
    float shade[3] = {0.8f, 0.8f, 0.8f};
    if (mat->shared_toon && mat->toon < 10)
        for (int k = 0; k < 3; k++) shade[k] = shared_toon_shade[mat->toon][k] / 255.0f;
    else if (!mat->shared_toon && mat->toon != PM_NO_INDEX && c->tex[mat->toon].has_shade)
        for (int k = 0; k < 3; k++) shade[k] = c->tex[mat->toon].shade[k];
    cJSON *mt = pmi_json_add_object(ext, "VRMC_materials_mtoon", &c->ok);
    pmi_json_add_string(mt, "specVersion", "1.0", &c->ok);
    if (blend) pmi_json_add_bool(mt, "transparentWithZWrite", true, &c->ok);
    float sc[3];
    for (int k = 0; k < 3; k++) sc[k] = clamp01(base[k] * shade[k]);
    add_floats(c, mt, "shadeColorFactor", sc, 3);
    if (tex >= 0) texture_info(c, mt, "shadeMultiplyTexture", tex);
    pmi_json_add_number(mt, "shadingShiftFactor", 0, &c->ok);
    pmi_json_add_number(mt, "shadingToonyFactor", 0.9, &c->ok);
    if (mat->sphere_texture != PM_NO_INDEX && mat->sphere_mode == 2 && c->tex[mat->sphere_texture].image >= 0) {
        float one[3] = {1, 1, 1};
        add_floats(c, mt, "matcapFactor", one, 3);
        texture_info(c, mt, "matcapTexture", c->tex[mat->sphere_texture].image);
    }
    pmi_json_add_string(mt, "outlineWidthMode", "none", &c->ok);
}

/* ---- springs from rigid bodies (VRMC_springBone) --------------------------------------------- */

typedef struct spring_figures {
    uint32_t springs, joints, colliders, collider_groups;
} spring_figures;

static float body_radius(const pm_model_rigid_body *b) {
    float r = b->shape == 1 ? (b->size.x + b->size.y + b->size.z) / 3.0f : b->size.x; /* a box: a sphere of its mean half extent */
    return isfinite(r) && r > 0 ? r : 0;
}

/* Whether MMD lets bodies a and b collide: neither's non-collision mask has the other's group. */
static bool bodies_collide(const pm_model_rigid_body *a, const pm_model_rigid_body *b) {
    return !((a->no_collision_mask >> (b->group & 15)) & 1) && !((b->no_collision_mask >> (a->group & 15)) & 1);
}

/* Static bodies on bones become colliders (sphere, capsule; a box as a sphere); chains of bones moved by
 * physics bodies become springs, each with the colliders its first body collides with in MMD. Human
 * bones are never spring joints. */
static pm_result write_springs(ctx *c, cJSON *ext, cJSON *used, const uint32_t *slots, spring_figures *f) {
    const pm_model *m = c->m;
    const pm_skeleton *s = c->s;
    uint32_t nb = s->bone_count, nr = m->rigid_body_count;
    if (!nr) return PM_OK;
    uint32_t *dyn = alloc_array(c, nb, sizeof *dyn, "vrm springs");    /* body moving each bone */
    uint32_t *next = alloc_array(c, nb, sizeof *next, "vrm springs");   /* chosen dynamic child */
    int32_t *collider = alloc_array(c, nr, sizeof *collider, "vrm springs"); /* body -> collider */
    uint32_t *groups = alloc_array(c, nb, sizeof *groups, "vrm springs"); /* group -> (group << 16 | mask) */
    pm_result r = dyn && next && collider && groups ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    cJSON *sb = NULL, *colliders = NULL, *cgroups = NULL, *springs = NULL;
    if (r == PM_OK) {
        for (uint32_t i = 0; i < nb; i++) dyn[i] = next[i] = PM_NO_INDEX;
        for (uint32_t i = 0; i < nr; i++) {
            const pm_model_rigid_body *b = &m->rigid_bodies[i];
            collider[i] = -1;
            if (b->mode == 0 || b->bone == PM_NO_INDEX || dyn[b->bone] != PM_NO_INDEX) continue;
            bool human = false;
            for (size_t k = 0; k < VRM_SLOTS; k++) human |= slots[k] == b->bone;
            if (!human) dyn[b->bone] = i;
        }
        for (uint32_t i = 0; i < nb; i++) { /* each dynamic bone continues its parent's chain through the first dynamic child */
            uint32_t p = s->bones[i].parent;
            if (dyn[i] != PM_NO_INDEX && p != PM_NO_INDEX && dyn[p] != PM_NO_INDEX && next[p] == PM_NO_INDEX) next[p] = i;
        }
        sb = cJSON_CreateObject();
        colliders = pmi_json_add_array(sb, "colliders", &c->ok);
        cgroups = pmi_json_add_array(sb, "colliderGroups", &c->ok);
        springs = pmi_json_add_array(sb, "springs", &c->ok);
        pmi_json_add_string(sb, "specVersion", "1.0", &c->ok);
    }
    for (uint32_t i = 0; i < nr && r == PM_OK; i++) { /* colliders */
        const pm_model_rigid_body *b = &m->rigid_bodies[i];
        if (b->mode != 0 || b->bone == PM_NO_INDEX) continue;
        float radius = body_radius(b) * MMD_TO_METRES;
        pm_vec3 bp = finite_vec(c, &s->bones[b->bone].position);
        pm_vec3 bb = finite_vec(c, &b->position), turned = turn(&c->rot[b->bone], &bb, &bp);
        pm_vec3 center = add_scaled(&c->rest[b->bone], &turned, 1);
        pm_quat q = pm_quat_mul(c->rot[b->bone], pm_quat_from_euler(finite_or_zero(c, b->rotation.y), finite_or_zero(c, b->rotation.x),
                                                                    finite_or_zero(c, b->rotation.z), PM_EULER_YXZ));
        cJSON *co = pmi_json_add_object(colliders, NULL, &c->ok);
        pmi_json_add_number(co, "node", b->bone, &c->ok);
        cJSON *shape = pmi_json_add_object(co, "shape", &c->ok);
        pm_vec3 off = gl(c, &center, &c->rest[b->bone]);
        if (b->shape == 2 && b->size.y > 0 && isfinite(b->size.y)) {
            static const pm_vec3 up = {0, 1, 0};
            pm_vec3 half = pmi_vec3_scale(turn(&q, &up, NULL), b->size.y * 0.5f);
            pm_vec3 lo = add_scaled(&center, &half, -1), hi = add_scaled(&center, &half, 1);
            pm_vec3 a = gl(c, &lo, &c->rest[b->bone]), t = gl(c, &hi, &c->rest[b->bone]);
            cJSON *cap = pmi_json_add_object(shape, "capsule", &c->ok);
            add_floats(c, cap, "offset", &a.x, 3);
            pmi_json_add_number(cap, "radius", radius, &c->ok);
            add_floats(c, cap, "tail", &t.x, 3);
        } else {
            cJSON *sp = pmi_json_add_object(shape, "sphere", &c->ok);
            add_floats(c, sp, "offset", &off.x, 3);
            pmi_json_add_number(sp, "radius", radius, &c->ok);
        }
        collider[i] = (int32_t)f->colliders++;
    }
    for (uint32_t head = 0; head < nb && r == PM_OK; head++) { /* springs: one per chain head */
        if (dyn[head] == PM_NO_INDEX) continue;
        uint32_t p = s->bones[head].parent;
        if (p != PM_NO_INDEX && dyn[p] != PM_NO_INDEX && next[p] == head) continue; /* inside a chain */
        const pm_model_rigid_body *hb = &m->rigid_bodies[dyn[head]];
        /* the colliders this chain meets (they depend only on its body's group and mask), as a group shared
         * by the chains that meet the same ones */
        uint32_t key = (uint32_t)(hb->group & 15) << 16 | hb->no_collision_mask;
        bool any = false;
        for (uint32_t i = 0; i < nr && !any; i++) any = collider[i] >= 0 && bodies_collide(hb, &m->rigid_bodies[i]);
        int32_t group = -1;
        for (uint32_t g = 0; g < f->collider_groups && group < 0 && any; g++)
            if (groups[g] == key) group = (int32_t)g;
        if (group < 0 && any) {
            groups[f->collider_groups] = key;
            cJSON *cg = pmi_json_add_object(cgroups, NULL, &c->ok);
            pmi_json_add_string(cg, "name", hb->name.data, &c->ok);
            cJSON *list = pmi_json_add_array(cg, "colliders", &c->ok);
            for (uint32_t i = 0; i < nr; i++)
                if (collider[i] >= 0 && bodies_collide(hb, &m->rigid_bodies[i])) pmi_json_add_number(list, NULL, collider[i], &c->ok);
            group = (int32_t)f->collider_groups++;
        }
        cJSON *sp = pmi_json_add_object(springs, NULL, &c->ok);
        pmi_json_add_string(sp, "name", s->bones[head].name.data, &c->ok);
        cJSON *joints = pmi_json_add_array(sp, "joints", &c->ok);
        uint32_t last = head, count = 0;
        for (uint32_t b = head; b != PM_NO_INDEX && count <= nb; b = next[b], count++) {
            const pm_model_rigid_body *rb = &m->rigid_bodies[dyn[b]];
            cJSON *j = pmi_json_add_object(joints, NULL, &c->ok);
            pmi_json_add_number(j, "node", b, &c->ok);
            pmi_json_add_number(j, "hitRadius", fminf(body_radius(rb) * MMD_TO_METRES, 0.5f), &c->ok);
            pmi_json_add_number(j, "stiffness", 1.0, &c->ok);
            pmi_json_add_number(j, "gravityPower", 0.2, &c->ok);
            pmi_json_add_number(j, "dragForce", clamp01(0.4f + 0.5f * clamp01(rb->angular_damping)), &c->ok);
            last = b;
            f->joints++;
        }
        uint32_t tail = s->bones[last].flags & PM_BONE_TAIL_IS_BONE ? s->bones[last].tail_bone : PM_NO_INDEX;
        if (tail != PM_NO_INDEX && tail < nb && s->bones[tail].parent == last && dyn[tail] == PM_NO_INDEX) {
            cJSON *j = pmi_json_add_object(joints, NULL, &c->ok); /* the tip the last joint points at */
            pmi_json_add_number(j, "node", tail, &c->ok);
            f->joints++;
        }
        if (group >= 0) {
            cJSON *gl = pmi_json_add_array(sp, "colliderGroups", &c->ok);
            pmi_json_add_number(gl, NULL, group, &c->ok);
        }
        f->springs++;
    }
    if (r == PM_OK && (f->colliders || f->springs)) {
        if (!f->springs) cJSON_DeleteItemFromObjectCaseSensitive(sb, "springs");
        if (!f->collider_groups) cJSON_DeleteItemFromObjectCaseSensitive(sb, "colliderGroups");
        if (!f->colliders) cJSON_DeleteItemFromObjectCaseSensitive(sb, "colliders");
        pmi_json_add(ext, "VRMC_springBone", sb, &c->ok);
        pmi_json_add_string(used, NULL, "VRMC_springBone", &c->ok);
        sb = NULL;
    }
    cJSON_Delete(sb);
    pmi_free(&c->a, dyn), pmi_free(&c->a, next), pmi_free(&c->a, collider), pmi_free(&c->a, groups);
    return r;
}

/* ---- the report ----------------------------------------------------------------------------------- */

static pm_result write_report(ctx *c, pm_vrm_result *res, const pm_humanoid_map *map, const uint32_t *slots,
                              const int32_t *preset_morph, const char *const *preset_name, uint32_t material_count, const char *const *meta_defaults,
                              int meta_default_count, uint32_t faces_not_drawn, const spring_figures *sf) {
    bool *ok = &c->ok; /* true here: the file was built */
    cJSON *r = cJSON_CreateObject(); /* NULL: each add below clears *ok, and the report fails at its end */
    pmi_json_add_number(r, "humanoidMapped", map->mapped, ok);
    pmi_json_add_number(r, "humanoidTotal", map->total, ok);
    cJSON *miss = pmi_json_add_array(r, "missingRequiredBones", ok);
    for (uint32_t k = 0; k < map->missing_required_count; k++)
        pmi_json_add_string(miss, NULL, pm_humanoid_bone_name(map->missing_required[k]), ok);
    pmi_json_add_bool(r, "drivable", map->drivable, ok);
    cJSON *hb = pmi_json_add_object(r, "humanBones", ok);
    for (size_t s = 0; s < VRM_SLOTS; s++)
        if (slots[s] != PM_NO_INDEX) pmi_json_add_string(hb, slot_name(s), c->s->bones[slots[s]].name.data, ok);
    cJSON *tp = pmi_json_add_object(r, "tPose", ok);
    pmi_json_add_bool(tp, "applied", res->t_pose, ok);
    cJSON *ad = pmi_json_add_object(tp, "armDegrees", ok);
    pmi_json_add_number(ad, "left", res->arm_degrees[0], ok);
    pmi_json_add_number(ad, "right", res->arm_degrees[1], ok);
    cJSON *ed = pmi_json_add_object(tp, "elbowDegrees", ok);
    pmi_json_add_number(ed, "left", res->elbow_degrees[0], ok);
    pmi_json_add_number(ed, "right", res->elbow_degrees[1], ok);
    cJSON *tx = pmi_json_add_array(r, "textures", ok);
    for (uint32_t t = 0; t < c->m->texture_count; t++) {
        cJSON *o = pmi_json_add_object(tx, NULL, ok);
        pmi_json_add_string(o, "path", c->m->textures[t].data, ok);
        pmi_json_add_string(o, "status", c->tex[t].status ? c->tex[t].status : "unused", ok);
        if (c->tex[t].detail[0]) pmi_json_add_string(o, "detail", c->tex[t].detail, ok);
    }
    pmi_json_add_number(r, "materials", material_count, ok);
    pmi_json_add_number(r, "primitives", res->primitives, ok);
    pmi_json_add_number(r, "morphTargets", res->morph_targets, ok);
    cJSON *ex = pmi_json_add_object(r, "expressions", ok);
    for (size_t p = 0; p < PRESET_COUNT; p++)
        if (preset_morph[p] >= 0) pmi_json_add_string(ex, preset_name[p], c->m->morphs[preset_morph[p]].name.data, ok);
    pmi_json_add_number(r, "morphsSkipped", res->morphs_skipped, ok);
    cJSON *sp = pmi_json_add_object(r, "springs", ok);
    pmi_json_add_number(sp, "springs", sf->springs, ok);
    pmi_json_add_number(sp, "joints", sf->joints, ok);
    pmi_json_add_number(sp, "colliders", sf->colliders, ok);
    pmi_json_add_number(sp, "colliderGroups", sf->collider_groups, ok);
    cJSON *md = pmi_json_add_array(r, "metaDefaults", ok);
    for (int k = 0; k < meta_default_count; k++) pmi_json_add_string(md, NULL, meta_defaults[k], ok);
    cJSON *w = pmi_json_add_object(r, "weights", ok);
    pmi_json_add_number(w, "sdefAsBdef2", c->sdef, ok);
    pmi_json_add_number(w, "qdefAsBdef4", c->qdef, ok);
    pmi_json_add_number(w, "renormalized", c->renormalized, ok);
    pmi_json_add_number(r, "nonFinite", c->non_finite, ok);
    pmi_json_add_number(r, "facesNotDrawn", faces_not_drawn, ok);
    pmi_json_add_number(r, "glbBytes", (double)res->glb_size, ok);
    char *text = *ok ? cJSON_PrintUnformatted(r) : NULL;
    cJSON_Delete(r);
    size_t n = text ? strlen(text) : 0;
    if (text && (res->report_json = pmi_alloc(&c->a, n + 1))) memcpy(res->report_json, text, n + 1);
    cJSON_free(text);
    if (!res->report_json) return pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory for the report");
    res->report_json_length = n;
    return PM_OK;
}

/* ---- meta ---------------------------------------------------------------------------------------- */

static void add_list(ctx *c, cJSON *to, const char *key, const char *text) {
    cJSON *a = pmi_json_add_array(to, key, &c->ok);
    const char *p = text;
    while (a && *p) {
        size_t n = 0; /* up to the line's end (a loop: libc's strchr had no other caller in the wasm modules) */
        while (p[n] && p[n] != '\n') n++;
        char item[512];
        if (n >= sizeof item) n = sizeof item - 1;
        memcpy(item, p, n);
        item[n] = '\0';
        if (n) pmi_json_add_string(a, NULL, item, &c->ok);
        p += n;
        while (*p && *p != '\n') p++; /* the rest of an over-long item */
        if (*p == '\n') p++;
    }
}

_Static_assert(offsetof(pm_vrm_meta, other_license_url) == (PMI_VRM_META_TEXTS - 1) * sizeof(const char *) &&
                   offsetof(pm_vrm_meta, allow_redistribution) ==
                       offsetof(pm_vrm_meta, allow_excessively_violent_usage) + PMI_VRM_META_FLAGS - 1,
               "pm_vrm_meta: the texts, then the flags");
const char pmi_vrm_meta_keys[] = "name\0version\0authors\0copyrightInformation\0contactInformation\0references\0"
                                 "thirdPartyLicenses\0licenseUrl\0avatarPermission\0commercialUsage\0creditNotation\0"
                                 "modification\0otherLicenseUrl\0allowExcessivelyViolentUsage\0allowExcessivelySexualUsage\0"
                                 "allowPoliticalOrReligiousUsage\0allowAntisocialOrHateUsage\0allowRedistribution";

/* The meta in the struct's order: a text that is set (non-empty; version, copyrightInformation,
 * contactInformation and thirdPartyLicenses also when empty); name, authors and licenseUrl always, from
 * the model's name or a default (listed in `defaults`); authors and references as lists; the flags set. */
static int write_meta(ctx *c, cJSON *vrm, const char **defaults) {
    const pm_vrm_meta *mt = &c->o->meta;
    int nd = 0;
    cJSON *meta = pmi_json_add_object(vrm, "meta", &c->ok);
    const char *key = pmi_vrm_meta_keys;
    for (int k = 0; k < PMI_VRM_META_TEXTS + PMI_VRM_META_FLAGS; k++, key += strlen(key) + 1) {
        if (k >= PMI_VRM_META_TEXTS) {
            uint8_t f = pmi_vrm_meta_flag(mt, k - PMI_VRM_META_TEXTS);
            if (f) pmi_json_add_bool(meta, key, f == 2, &c->ok);
            continue;
        }
        const char *v = pmi_vrm_meta_text(mt, k);
        bool set = v && *v;
        if (!set && (k == 0 || k == 2 || k == 7)) {
            set = true;
            if (k == 0 && c->s->model_name.length) v = c->s->model_name.data;
            else {
                v = k == 0 ? "model" : k == 2 ? "unknown" : "https://vrm.dev/licenses/1.0/";
                defaults[nd++] = key;
            }
        }
        if (k == 2 || k == 5) {
            if (set) add_list(c, meta, key, v);
        } else if (set || (v && (k == 1 || k == 3 || k == 4 || k == 6)))
            pmi_json_add_string(meta, key, v, &c->ok);
    }
    return nd;
}

/* ---- the file ------------------------------------------------------------------------------------ */

typedef struct sparse_pair {
    uint32_t vertex;
    pm_vec3 delta;
} sparse_pair;

static int cmp_pair(const void *a, const void *b) {
    uint32_t x = ((const sparse_pair *)a)->vertex, y = ((const sparse_pair *)b)->vertex;
    return x < y ? -1 : x > y;
}

/* Morph targets: one per vertex morph, sparse POSITION deltas (after the bake, in glTF space). */
static pm_result write_morph_targets(ctx *c, int32_t *target_of, cJSON **targets_out, cJSON **names_out,
                                     pm_vrm_result *res) {
    const pm_model *m = c->m;
    cJSON *targets = cJSON_CreateArray(), *names = cJSON_CreateArray();
    *targets_out = targets, *names_out = names;
    if (!targets || !names) return pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory");
    uint32_t most = 0;
    for (uint32_t i = 0; i < m->morph_count; i++)
        if (m->morphs[i].type == PM_MORPH_VERTEX && m->morphs[i].offset_count > most) most = m->morphs[i].offset_count;
    sparse_pair *pairs = alloc_array(c, most, sizeof *pairs, "vrm morph targets");
    uint32_t *idx = alloc_array(c, most, sizeof *idx, "vrm morph targets");
    float *val = alloc_array(c, most, 3 * sizeof *val, "vrm morph targets");
    pm_result r = PM_OK;
    if (!pairs || !idx || !val) r = PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < m->morph_count && r == PM_OK; i++) {
        const pm_model_morph *mm = &m->morphs[i];
        target_of[i] = -1;
        if (mm->type != PM_MORPH_VERTEX && mm->type != PM_MORPH_GROUP) res->morphs_skipped++;
        if (mm->type != PM_MORPH_VERTEX) continue;
        uint32_t n = 0;
        for (uint32_t k = 0; k < mm->offset_count; k++) {
            uint32_t v = mm->offsets[k].index;
            pm_vec3 d = finite_vec(c, &(pm_vec3){mm->offsets[k].value[0], mm->offsets[k].value[1], mm->offsets[k].value[2]});
            d = skin(c, v, &d, false);
            pairs[n].vertex = v;
            pairs[n++].delta = gl(c, &d, NULL);
        }
        qsort(pairs, n, sizeof *pairs, cmp_pair);
        uint32_t u = 0; /* merge repeats (summed, as the offsets add up when MMD applies them) */
        for (uint32_t k = 0; k < n; k++) {
            if (u && pairs[u - 1].vertex == pairs[k].vertex) pairs[u - 1].delta = add_scaled(&pairs[u - 1].delta, &pairs[k].delta, 1);
            else pairs[u++] = pairs[k];
        }
        uint32_t nz = 0;
        for (uint32_t k = 0; k < u; k++)
            if (pairs[k].delta.x != 0 || pairs[k].delta.y != 0 || pairs[k].delta.z != 0) {
                idx[nz] = pairs[k].vertex;
                val[3 * nz] = pairs[k].delta.x, val[3 * nz + 1] = pairs[k].delta.y, val[3 * nz + 2] = pairs[k].delta.z;
                nz++;
            }
        float mn[3], mx[3];
        bounds(val, nz, mn, mx);
        for (int k = 0; k < 3; k++) mn[k] = fminf(mn[k], 0), mx[k] = fmaxf(mx[k], 0);
        cJSON *acc;
        int32_t a = add_accessor(c, -1, GL_FLOAT, m->vertex_count, "VEC3", mn, mx, &acc);
        if (nz) {
            cJSON *sp = pmi_json_add_object(acc, "sparse", &c->ok);
            pmi_json_add_number(sp, "count", nz, &c->ok);
            cJSON *si = pmi_json_add_object(sp, "indices", &c->ok);
            pmi_json_add_number(si, "bufferView", add_view(c, idx, (size_t)nz * 4, 0), &c->ok);
            pmi_json_add_number(si, "componentType", GL_UINT, &c->ok);
            cJSON *sv = pmi_json_add_object(sp, "values", &c->ok);
            pmi_json_add_number(sv, "bufferView", add_view(c, val, (size_t)nz * 12, 0), &c->ok);
        }
        cJSON *t = pmi_json_add_object(targets, NULL, &c->ok);
        pmi_json_add_number(t, "POSITION", a, &c->ok);
        pmi_json_add_string(names, NULL, mm->name.data, &c->ok);
        target_of[i] = (int32_t)res->morph_targets++;
    }
    pmi_free(&c->a, pairs);
    pmi_free(&c->a, idx);
    pmi_free(&c->a, val);
    return r;
}

static pm_result build(ctx *c, pm_vrm_result *res, const pm_rig_roles *roles, const pm_humanoid_map *map) {
    const pm_model *m = c->m;
    const pm_skeleton *s = c->s;
    uint32_t nb = s->bone_count, nv = m->vertex_count;
    pm_result r;

    /* VRM human bones from the resolver's roles; a bone takes at most one */
    uint32_t slots[VRM_SLOTS];
    for (size_t k = 0; k < VRM_SLOTS; k++) {
        const vrm_bone *b = &vrm_bones[k / 2];
        uint32_t bone = PM_NO_INDEX;
        if (b->sided || k % 2 == 0) bone = roles->bone[b->sided ? PM_RIG_SIDED(b->role, k % 2) : b->role];
        for (size_t q = 0; q < k && bone != PM_NO_INDEX; q++)
            if (slots[q] == bone) bone = PM_NO_INDEX;
        slots[k] = bone;
        res->human_bones += bone != PM_NO_INDEX;
    }

    for (uint32_t i = 0; i < nv; i++) vertex_weights(c, i);
    if ((r = bake_pose(c, roles, res)) != PM_OK) return r;

    /* node parents, re-parented where VRM's human hierarchy needs it */
    for (uint32_t i = 0; i < nb; i++) c->parent[i] = s->bones[i].parent;
    for (size_t k = 0; k < VRM_SLOTS; k++) {
        uint32_t b = slots[k];
        const vrm_bone *vb = &vrm_bones[k / 2];
        if (b == PM_NO_INDEX) continue;
        uint32_t want = PM_NO_INDEX;
        for (int q = 0; q < 3 && vb->parents[q] && want == PM_NO_INDEX; q++) want = slot_bone(slots, vb->parents[q], (int)(k % 2));
        if (want == PM_NO_INDEX || is_ancestor(c->parent, nb, want, b) || is_ancestor(c->parent, nb, b, want) || want == b)
            continue;
        c->parent[b] = want;
    }

    cJSON *root = cJSON_CreateObject();
    if (!root) return pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory");
    cJSON *asset = pmi_json_add_object(root, "asset", &c->ok);
    pmi_json_add_string(asset, "version", "2.0", &c->ok);
    pmi_json_add_string(asset, "generator", "procmotion " PM_VERSION_STRING " (pm_vrm_from_model)", &c->ok);
    cJSON *used = pmi_json_add_array(root, "extensionsUsed", &c->ok);
    pmi_json_add_string(used, NULL, "VRMC_vrm", &c->ok);
    pmi_json_add_string(used, NULL, c->o->materials == PM_VRM_MATERIALS_UNLIT ? "KHR_materials_unlit" : "VRMC_materials_mtoon", &c->ok);
    c->views = pmi_json_add_array(root, "bufferViews", &c->ok);
    c->accessors = pmi_json_add_array(root, "accessors", &c->ok);

    /* vertex arrays (shared by every primitive) */
    float *pos = alloc_array(c, nv, 12, "vrm positions");
    float *nrm = alloc_array(c, nv, 12, "vrm normals");
    float *uv = alloc_array(c, nv, 8, "vrm uvs");
    if (!pos || !nrm || !uv) {
        pmi_free(&c->a, pos), pmi_free(&c->a, nrm), pmi_free(&c->a, uv);
        cJSON_Delete(root);
        return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < nv; i++) {
        const pm_model_vertex *v = &m->vertices[i];
        pm_vec3 p = finite_vec(c, &v->position), n = finite_vec(c, &v->normal);
        p = skin(c, i, &p, true);
        p = gl(c, &p, NULL);
        n = skin(c, i, &n, false);
        n = pmi_vec3_make(n.x, n.y, -n.z);
        float len = pmi_vec3_length(n);
        n = len > 1e-12f && isfinite(len) ? pmi_vec3_scale(n, 1.0f / len) : pmi_vec3_make(0, 1, 0);
        pos[3 * i] = p.x, pos[3 * i + 1] = p.y, pos[3 * i + 2] = p.z;
        nrm[3 * i] = n.x, nrm[3 * i + 1] = n.y, nrm[3 * i + 2] = n.z;
        uv[2 * i] = finite_or_zero(c, v->uv[0]), uv[2 * i + 1] = finite_or_zero(c, v->uv[1]);
    }
    float mn[3], mx[3];
    bounds(pos, nv, mn, mx);
    /* the vertex attributes, in the order of their accessors (POSITION with its bounds) */
    static const char attribute_names[] = "POSITION\0NORMAL\0TEXCOORD_0\0JOINTS_0\0WEIGHTS_0";
    static const struct {
        uint8_t bytes; /* per vertex */
        uint16_t component;
        char type[5];
    } attribute[5] = {{12, GL_FLOAT, "VEC3"}, {12, GL_FLOAT, "VEC3"}, {8, GL_FLOAT, "VEC2"}, {8, GL_USHORT, "VEC4"}, {16, GL_FLOAT, "VEC4"}};
    const void *attribute_data[5] = {pos, nrm, uv, c->joints, c->weights};
    int32_t attribute_accessor[5];
    for (int k = 0; k < 5; k++)
        attribute_accessor[k] = add_accessor(c, add_view(c, attribute_data[k], (size_t)nv * attribute[k].bytes, GL_ARRAY_BUFFER),
                                             attribute[k].component, nv, attribute[k].type, k ? NULL : mn, k ? NULL : mx, NULL);
    pmi_free(&c->a, pos), pmi_free(&c->a, nrm), pmi_free(&c->a, uv);

    /* inverse bind matrices: the (baked) rest translations */
    float *ibm = alloc_array(c, nb, 64, "vrm inverse bind matrices");
    if (!ibm) {
        cJSON_Delete(root);
        return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < nb; i++) {
        float *o = ibm + 16 * (size_t)i;
        o[0] = o[5] = o[10] = o[15] = 1;
        pm_vec3 t = gl(c, &c->rest[i], NULL);
        o[12] = -t.x, o[13] = -t.y, o[14] = -t.z;
    }
    int32_t a_ibm = add_accessor(c, add_view(c, ibm, (size_t)nb * 64, 0), GL_FLOAT, nb, "MAT4", NULL, NULL, NULL);
    pmi_free(&c->a, ibm);

    /* textures, materials */
    if ((r = write_textures(c, root, res)) != PM_OK) {
        cJSON_Delete(root);
        return r;
    }
    cJSON *materials = pmi_json_add_array(root, "materials", &c->ok);
    int32_t *target_of = alloc_array(c, m->morph_count, sizeof *target_of, "vrm morphs");
    uint32_t *tri = alloc_array(c, m->index_count, 4, "vrm indices");
    if (!target_of || !tri) {
        pmi_free(&c->a, target_of), pmi_free(&c->a, tri);
        cJSON_Delete(root);
        return PM_ERR_OUT_OF_MEMORY;
    }
    cJSON *targets = NULL, *names = NULL;
    r = write_morph_targets(c, target_of, &targets, &names, res);

    /* the mesh: one primitive per material that draws faces */
    cJSON *meshes = pmi_json_add_array(root, "meshes", &c->ok);
    cJSON *mesh = pmi_json_add_object(meshes, NULL, &c->ok);
    const char *mesh_name = s->model_name.length ? s->model_name.data : "mesh"; /* the mesh's and its node's */
    pmi_json_add_string(mesh, "name", mesh_name, &c->ok);
    cJSON *prims = pmi_json_add_array(mesh, "primitives", &c->ok);
    uint32_t drawn = 0, written_materials = 0;
    for (uint32_t i = 0; i < m->material_count && r == PM_OK; i++) {
        const pm_model_material *mat = &m->materials[i];
        uint32_t cnt = mat->index_count - mat->index_count % 3;
        drawn += mat->index_count;
        if (!cnt) continue;
        write_material(c, materials, mat);
        for (uint32_t k = 0; k < cnt; k += 3) { /* reversed winding: the mirror flips it */
            tri[k] = m->indices[mat->index_start + k];
            tri[k + 1] = m->indices[mat->index_start + k + 2];
            tri[k + 2] = m->indices[mat->index_start + k + 1];
        }
        bool short_index = nv <= 65535;
        if (short_index) {
            uint16_t *t16 = (uint16_t *)tri; /* in place, front to back */
            for (uint32_t k = 0; k < cnt; k++) t16[k] = (uint16_t)tri[k];
        }
        int32_t view = add_view(c, tri, (size_t)cnt * (short_index ? 2 : 4), GL_ELEMENT_ARRAY_BUFFER);
        int32_t acc = add_accessor(c, view, short_index ? GL_USHORT : GL_UINT, cnt, "SCALAR", NULL, NULL, NULL);
        cJSON *p = pmi_json_add_object(prims, NULL, &c->ok);
        cJSON *at = pmi_json_add_object(p, "attributes", &c->ok);
        const char *name = attribute_names;
        for (int k = 0; k < 5; k++, name += strlen(name) + 1) pmi_json_add_number(at, name, attribute_accessor[k], &c->ok);
        pmi_json_add_number(p, "indices", acc, &c->ok);
        pmi_json_add_number(p, "material", written_materials++, &c->ok);
        if (res->morph_targets) pmi_json_add(p, "targets", cJSON_Duplicate(targets, true), &c->ok);
        res->primitives++;
    }
    if (res->morph_targets) {
        cJSON *extras = pmi_json_add_object(mesh, "extras", &c->ok);
        pmi_json_add(extras, "targetNames", names, &c->ok);
        names = NULL;
    }
    cJSON_Delete(targets);
    cJSON_Delete(names);
    pmi_free(&c->a, tri);
    uint32_t faces_not_drawn = drawn < m->index_count ? (m->index_count - drawn) / 3 : 0;
    if (r == PM_OK && res->primitives == 0)
        r = pmi_fail(c->err, PM_ERR_BAD_FORMAT, "vrm: the model draws no faces (%u materials, %u face indices)",
                     m->material_count, m->index_count);

    /* nodes: the bones, then the mesh */
    cJSON *nodes = pmi_json_add_array(root, "nodes", &c->ok);
    cJSON **kids = r == PM_OK ? alloc_array(c, nb, sizeof *kids, "vrm nodes") : NULL;
    if (r == PM_OK && !kids) r = PM_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < nb && r == PM_OK; i++) {
        cJSON *n = pmi_json_add_object(nodes, NULL, &c->ok);
        pmi_json_add_string(n, "name", s->bones[i].name.data, &c->ok);
        pm_vec3 t = gl(c, &c->rest[i], c->parent[i] == PM_NO_INDEX ? NULL : &c->rest[c->parent[i]]);
        if (t.x != 0 || t.y != 0 || t.z != 0) add_floats(c, n, "translation", &t.x, 3);
        kids[i] = n;
    }
    for (uint32_t i = 0; i < nb && r == PM_OK; i++) {
        if (c->parent[i] == PM_NO_INDEX) continue;
        cJSON *pn = kids[c->parent[i]], *ch = cJSON_GetObjectItemCaseSensitive(pn, "children");
        if (!ch) ch = pmi_json_add_array(pn, "children", &c->ok);
        pmi_json_add_number(ch, NULL, i, &c->ok);
    }
    pmi_free(&c->a, kids);
    uint32_t mesh_node = nb;
    cJSON *mn_ = pmi_json_add_object(nodes, NULL, &c->ok);
    pmi_json_add_string(mn_, "name", mesh_name, &c->ok);
    pmi_json_add_number(mn_, "mesh", 0, &c->ok);
    pmi_json_add_number(mn_, "skin", 0, &c->ok);
    cJSON *skins = pmi_json_add_array(root, "skins", &c->ok);
    cJSON *skin = pmi_json_add_object(skins, NULL, &c->ok);
    pmi_json_add_number(skin, "inverseBindMatrices", a_ibm, &c->ok);
    cJSON *joints = pmi_json_add_array(skin, "joints", &c->ok);
    for (uint32_t i = 0; i < nb; i++) pmi_json_add_number(joints, NULL, i, &c->ok);
    cJSON *scenes = pmi_json_add_array(root, "scenes", &c->ok);
    cJSON *scene = pmi_json_add_object(scenes, NULL, &c->ok);
    cJSON *sn = pmi_json_add_array(scene, "nodes", &c->ok);
    for (uint32_t i = 0; i < nb; i++)
        if (c->parent[i] == PM_NO_INDEX) pmi_json_add_number(sn, NULL, i, &c->ok);
    pmi_json_add_number(sn, NULL, mesh_node, &c->ok);
    pmi_json_add_number(root, "scene", 0, &c->ok);

    /* VRMC_vrm */
    cJSON *ext = pmi_json_add_object(root, "extensions", &c->ok);
    cJSON *vrm = pmi_json_add_object(ext, "VRMC_vrm", &c->ok);
    pmi_json_add_string(vrm, "specVersion", "1.0", &c->ok);
    const char *meta_defaults[4];
    int nd = write_meta(c, vrm, meta_defaults);
    cJSON *hum = pmi_json_add_object(vrm, "humanoid", &c->ok);
    cJSON *hbs = pmi_json_add_object(hum, "humanBones", &c->ok);
    for (size_t k = 0; k < VRM_SLOTS; k++) {
        if (slots[k] == PM_NO_INDEX) continue;
        cJSON *o = pmi_json_add(hbs, slot_name(k), cJSON_CreateObject(), &c->ok);
        pmi_json_add_number(o, "node", slots[k], &c->ok);
    }
    /* expressions */
    int32_t preset_morph[PRESET_COUNT];
    const char *preset_name[PRESET_COUNT], *pt = preset_text;
    cJSON *exprs = pmi_json_add_object(vrm, "expressions", &c->ok);
    cJSON *pre = pmi_json_add_object(exprs, "preset", &c->ok);
    for (size_t p = 0; p < PRESET_COUNT; p++) {
        preset_morph[p] = -1;
        preset_name[p] = pt;
        pt += strlen(pt) + 1;
        for (; *pt; pt += strlen(pt) + 1)
            for (uint32_t i = 0; i < m->morph_count && r == PM_OK && preset_morph[p] < 0; i++) {
                const pm_string *nm = &m->morphs[i].name;
                const char *want = pt;
                if (!pm_names_equal(nm->data, nm->length, want, strlen(want))) continue;
                if (m->morphs[i].type != PM_MORPH_VERTEX && m->morphs[i].type != PM_MORPH_GROUP) continue;
                preset_morph[p] = (int32_t)i;
                break;
            }
        pt++; /* the empty name after the list */
        if (preset_morph[p] < 0) continue;
        const pm_model_morph *mm = &m->morphs[preset_morph[p]];
        cJSON *binds = cJSON_CreateArray();
        bool group = mm->type == PM_MORPH_GROUP; /* else a vertex morph: its own target, weight 1 */
        for (uint32_t k = 0; k < (group ? mm->offset_count : 1); k++) {
            uint32_t child = group ? mm->offsets[k].index : (uint32_t)preset_morph[p];
            if (child >= m->morph_count || target_of[child] < 0) continue;
            cJSON *b = pmi_json_add_object(binds, NULL, &c->ok);
            pmi_json_add_number(b, "node", mesh_node, &c->ok);
            pmi_json_add_number(b, "index", target_of[child], &c->ok);
            pmi_json_add_number(b, "weight", group ? clamp01(mm->offsets[k].value[0]) : 1, &c->ok);
        }
        if (binds && cJSON_GetArraySize(binds) == 0) {
            cJSON_Delete(binds);
            preset_morph[p] = -1;
            continue;
        }
        cJSON *e = pmi_json_add_object(pre, preset_name[p], &c->ok);
        pmi_json_add(e, "morphTargetBinds", binds, &c->ok);
        pmi_json_add_bool(e, "isBinary", false, &c->ok);
        res->expressions++;
    }
    /* lookAt from the eye bones */
    cJSON *look = pmi_json_add_object(vrm, "lookAt", &c->ok);
    uint32_t le = roles->bone[PM_RIG_LEFT_EYE], re = roles->bone[PM_RIG_RIGHT_EYE], head = roles->bone[PM_RIG_HEAD];
    bool eyes = le != PM_NO_INDEX && re != PM_NO_INDEX && head != PM_NO_INDEX;
    pmi_json_add_string(look, "type", eyes ? "bone" : "expression", &c->ok);
    if (eyes) {
        pm_vec3 mid = add_scaled(&c->rest[le], &c->rest[re], 1);
        mid = pmi_vec3_scale(mid, 0.5f);
        pm_vec3 off = gl(c, &mid, &c->rest[head]);
        add_floats(c, look, "offsetFromHeadBone", &off.x, 3);
        const char *maps[4] = {"rangeMapHorizontalInner", "rangeMapHorizontalOuter", "rangeMapVerticalDown", "rangeMapVerticalUp"};
        for (int k = 0; k < 4; k++) {
            cJSON *rm = pmi_json_add_object(look, maps[k], &c->ok);
            pmi_json_add_number(rm, "inputMaxValue", 90, &c->ok);
            pmi_json_add_number(rm, "outputScale", 10, &c->ok);
        }
    }
    cJSON *fp = pmi_json_add_object(vrm, "firstPerson", &c->ok);
    cJSON *ann = pmi_json_add_array(fp, "meshAnnotations", &c->ok);
    cJSON *an = pmi_json_add_object(ann, NULL, &c->ok);
    pmi_json_add_number(an, "node", mesh_node, &c->ok);
    pmi_json_add_string(an, "type", "auto", &c->ok);

    spring_figures springs = {0};
    if (r == PM_OK) r = write_springs(c, ext, used, slots, &springs);

    cJSON *buffers = pmi_json_add_array(root, "buffers", &c->ok);
    cJSON *buf = pmi_json_add_object(buffers, NULL, &c->ok);
    size_t bin_size = (c->bin.size + 3) & ~(size_t)3;
    pmi_json_add_number(buf, "byteLength", (double)bin_size, &c->ok);

    char *json = NULL;
    if (r == PM_OK && (c->bin.failed || !c->ok || !(json = cJSON_PrintUnformatted(root))))
        r = pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory building the file");
    cJSON_Delete(root);
    if (r == PM_OK) { /* GLB: header, JSON chunk (space padded), BIN chunk (zero padded) */
        size_t jl = strlen(json), total = pmi_glb_size(jl, bin_size);
        if (!total) r = pmi_fail(c->err, PM_ERR_LIMIT, "vrm: the file would be over 4 GiB (GLB's limit)");
        else if (!(res->glb = pmi_alloc(&c->a, total))) r = pmi_fail(c->err, PM_ERR_OUT_OF_MEMORY, "vrm: out of memory for %zu bytes", total);
        else {
            pmi_glb_write(res->glb, json, jl, c->bin.data, c->bin.size);
            res->glb_size = total;
        }
    }
    if (json) cJSON_free(json);
    if (r == PM_OK)
        r = write_report(c, res, map, slots, preset_morph, preset_name, written_materials, meta_defaults, nd, faces_not_drawn, &springs);
    pmi_free(&c->a, target_of);
    return r;
}

pm_result pm_vrm_from_model(const pm_model *model, const pm_vrm_options *opts, pm_vrm_result **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vrm: out is NULL");
    *out = NULL;
    if (!model || !model->skeleton) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vrm: model is NULL");
    static const pm_vrm_options defaults = {0};
    const pm_vrm_options *o = opts ? opts : &defaults;
    if ((unsigned)o->materials >= PM_VRM_MATERIALS_COUNT)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vrm: materials %u is not a pm_vrm_materials", (unsigned)o->materials);
    if (o->texture_count && !o->textures) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "vrm: textures is NULL");
    const pm_skeleton *s = model->skeleton;
    if (s->bone_count > 65536)
        return pmi_fail(err, PM_ERR_LIMIT, "vrm: %u bones is more than the 65536 JOINTS_0 can name", s->bone_count);
    pm_humanoid_map map;
    pm_rig_roles roles;
    pm_result r = pm_humanoid_map_skeleton(s, &map, err);
    if (r == PM_OK) r = pm_rig_resolve_skeleton(s, NULL, &roles, err);
    if (r != PM_OK) return r;
    if (!map.drivable) {
        char list[200] = "";
        size_t at = 0;
        for (uint32_t k = 0; k < map.missing_required_count; k++) {
            pm_humanoid_bone hb = map.missing_required[k];
            bool mmd = map.missing_required_count <= 4; /* with the semi-standard MMD name while the message has room */
            at += pmi_format(list + at, sizeof list - at, "%s%s%s%s%s", k ? ", " : "", pm_humanoid_bone_name(hb),
                             mmd ? " (" : "", mmd ? pm_rig_role_mmd_name(pm_rig_role_of_humanoid(hb)) : "", mmd ? ")" : "");
            if (at >= sizeof list) break;
        }
        return pmi_fail(err, PM_ERR_NOT_FOUND, "vrm: the model lacks %u required humanoid bone%s: %s",
                        map.missing_required_count, map.missing_required_count == 1 ? "" : "s", list);
    }
    if (!model->vertex_count || !model->index_count)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "vrm: the model has no mesh (%u vertices, %u face indices)",
                        model->vertex_count, model->index_count);
    ctx c = {.m = model, .s = s, .o = o, .a = o->allocator, .err = err, .ok = true};
    c.bin.allocator = &c.a;
    pm_vrm_result *res = alloc_array(&c, 1, sizeof *res, "vrm result");
    if (!res) return PM_ERR_OUT_OF_MEMORY;
    res->magic = PMI_VRM_MAGIC;
    res->allocator = c.a;
    res->humanoid_mapped = map.mapped;
    res->humanoid_total = map.total;
    res->missing_required_count = map.missing_required_count;
    memcpy(res->missing_required, map.missing_required, sizeof map.missing_required);
    res->drivable = map.drivable;
    uint32_t nb = s->bone_count, nv = model->vertex_count;
    c.rest = alloc_array(&c, nb, sizeof *c.rest, "vrm bones");
    c.rot = c.rest ? alloc_array(&c, nb, sizeof *c.rot, "vrm bones") : NULL;
    c.moved = c.rot ? alloc_array(&c, nb, sizeof *c.moved, "vrm bones") : NULL;
    c.parent = c.moved ? alloc_array(&c, nb, sizeof *c.parent, "vrm bones") : NULL;
    c.joints = c.parent ? alloc_array(&c, nv, 4 * sizeof *c.joints, "vrm joints") : NULL;
    c.weights = c.joints ? alloc_array(&c, nv, 4 * sizeof *c.weights, "vrm weights") : NULL;
    c.tex = c.weights ? alloc_array(&c, model->texture_count, sizeof *c.tex, "vrm textures") : NULL;
    r = c.tex ? build(&c, res, &roles, &map) : PM_ERR_OUT_OF_MEMORY;
    pmi_free(&c.a, c.rest), pmi_free(&c.a, c.rot), pmi_free(&c.a, c.moved), pmi_free(&c.a, c.parent);
    pmi_free(&c.a, c.joints), pmi_free(&c.a, c.weights), pmi_free(&c.a, c.tex);
    pmi_buf_release(&c.bin);
    if (r != PM_OK) {
        pm_vrm_result_free(res);
        return r;
    }
    *out = res;
    return PM_OK;
}

void pm_vrm_result_free(pm_vrm_result *res) {
    if (!res || res->magic != PMI_VRM_MAGIC) return;
    pm_allocator a = res->allocator;
    res->magic = 0;
    pmi_free(&a, res->glb);
    pmi_free(&a, res->report_json);
    pmi_free(&a, res);
}
