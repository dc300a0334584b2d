/* Binary FBX: the node tree, the Model objects and their animation curves (see procmotion/fbx.h). */
#include "procmotion/fbx.h"

#include "common/internal.h"
#include "common/strings.h"
#include "fbx/inflate.h"
#include "text/utf.h"

#include <math.h>

#define PMI_FBX_MAGIC 0x58424246u        /* "FBBX" */
#define FBX_TICKS_PER_SECOND 46186158000.0
#define FBX_MAX_DEPTH 64
#define FBX_MAX_ARRAY_BYTES (256u << 20)

/* ---- the node tree -------------------------------------------------------------------------------- */

typedef struct fbx_prop {
    uint8_t type;        /* 'Y' 'C' 'I' 'F' 'D' 'L' 'S' 'R' or an array type 'f' 'd' 'l' 'i' 'b' */
    uint32_t count;      /* a string's bytes, an array's elements */
    uint32_t encoding;   /* arrays: 0 plain, 1 zlib */
    uint32_t bytes;      /* arrays: stored bytes */
    const uint8_t *p;    /* the value, the string's bytes or the stored array */
} fbx_prop;

typedef struct fbx_node {
    const uint8_t *name;
    uint32_t name_len;
    uint32_t prop, prop_count;
    uint32_t child, next; /* first child, next sibling (PM_NO_INDEX) */
} fbx_node;

typedef struct fbx_tree {
    const uint8_t *data;
    size_t size;
    bool wide;           /* 64-bit record headers (7.5 and later) */
    pmi_buf nodes, props;
    pm_error *err;
} fbx_tree;

static fbx_node *node_at(const fbx_tree *t, uint32_t i) { return (fbx_node *)t->nodes.data + i; }
static const fbx_prop *prop_at(const fbx_tree *t, uint32_t i) { return (const fbx_prop *)t->props.data + i; }

static uint64_t le64(const uint8_t *p) { return (uint64_t)pmi_le32(p) | (uint64_t)pmi_le32(p + 4) << 32; }

static pm_result read_props(fbx_tree *t, size_t at, size_t end, uint64_t count, const char *node) {
    const uint8_t *d = t->data;
    for (uint64_t k = 0; k < count; k++) {
        if (at >= end) return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: record %s announces %llu properties, its bytes hold %llu", node,
                                       (unsigned long long)count, (unsigned long long)k);
        fbx_prop p = {d[at++], 0, 0, 0, NULL};
        size_t n = 0;
        switch (p.type) {
        case 'C': n = 1; break;
        case 'Y': n = 2; break;
        case 'I': case 'F': n = 4; break;
        case 'D': case 'L': n = 8; break;
        case 'S': case 'R':
            if (end - at < 4) break;
            p.count = pmi_le32(d + at);
            at += 4, n = p.count;
            break;
        case 'f': case 'i': case 'd': case 'l': case 'b': case 'c': {
            if (end - at < 12) break;
            p.count = pmi_le32(d + at), p.encoding = pmi_le32(d + at + 4), p.bytes = pmi_le32(d + at + 8);
            at += 12, n = p.bytes;
            const uint64_t elem = p.type == 'b' || p.type == 'c' ? 1 : p.type == 'd' || p.type == 'l' ? 8 : 4;
            if (p.encoding > 1)
                return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: an array of %s has encoding %u (0 plain and 1 zlib exist)", node, p.encoding);
            if (p.encoding == 0 && (uint64_t)p.count * elem != p.bytes)
                return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: an array of %s holds %u elements in %u bytes", node, p.count, p.bytes);
            break;
        }
        default:
            return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: a property of %s has the unknown type 0x%02x at byte %zu", node, p.type, at - 1);
        }
        if (end - at < n) return pmi_fail(t->err, PM_ERR_TRUNCATED, "fbx: a property of %s runs past its record (byte %zu)", node, at);
        p.p = d + at;
        at += n;
        fbx_prop *slot = (fbx_prop *)pmi_buf_grow(&t->props, sizeof *slot);
        if (!slot) return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
        *slot = p;
    }
    if (at != end) return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: the properties of %s do not fill their %zu bytes", node, end);
    return PM_OK;
}

/* One record at *pos (within limit): *out = its index, or PM_NO_INDEX for the null record ending a list. */
static pm_result read_node(fbx_tree *t, size_t *pos, size_t limit, unsigned depth, uint32_t *out) {
    const size_t header = t->wide ? 25 : 13;
    *out = PM_NO_INDEX;
    if (limit - *pos < header) return pmi_fail(t->err, PM_ERR_TRUNCATED, "fbx: the record at byte %zu is cut off", *pos);
    const uint8_t *h = t->data + *pos;
    const uint64_t end = t->wide ? le64(h) : pmi_le32(h);
    const uint64_t nprops = t->wide ? le64(h + 8) : pmi_le32(h + 4);
    const uint64_t plen = t->wide ? le64(h + 16) : pmi_le32(h + 8);
    const uint32_t nlen = h[header - 1];
    if (end == 0 && nprops == 0 && plen == 0 && nlen == 0) {
        *pos += header;
        return PM_OK;
    }
    char name[48];
    pmi_format(name, sizeof name, "\"%.*s\" at byte %zu", (int)(nlen < 24 ? nlen : 24),
               (limit - *pos - header >= nlen) ? (const char *)h + header : "", *pos);
    const size_t start = *pos + header;
    if (end > limit || end < start || end - start < nlen || end - start - nlen < plen)
        return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: record %s ends at byte %llu, outside its parent (which ends at %zu)", name,
                        (unsigned long long)end, limit);
    if (depth > FBX_MAX_DEPTH) return pmi_fail(t->err, PM_ERR_LIMIT, "fbx: records nest deeper than %d (%s)", FBX_MAX_DEPTH, name);
    if (nprops > plen) return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: record %s has %llu properties in %llu bytes", name,
                                       (unsigned long long)nprops, (unsigned long long)plen);
    const uint32_t index = (uint32_t)(t->nodes.size / sizeof(fbx_node));
    fbx_node *n = (fbx_node *)pmi_buf_grow(&t->nodes, sizeof *n);
    if (!n || index == PM_NO_INDEX) return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
    n->name = h + header, n->name_len = nlen;
    n->prop = (uint32_t)(t->props.size / sizeof(fbx_prop)), n->prop_count = (uint32_t)nprops;
    n->child = n->next = PM_NO_INDEX;
    pm_result r = read_props(t, start + nlen, start + nlen + (size_t)plen, nprops, name);
    if (r) return r;
    size_t at = start + nlen + (size_t)plen;
    uint32_t last = PM_NO_INDEX;
    while (at < end) {
        uint32_t c;
        if ((r = read_node(t, &at, (size_t)end, depth + 1, &c))) return r;
        if (c == PM_NO_INDEX) break;
        if (last == PM_NO_INDEX) node_at(t, index)->child = c;
        else node_at(t, last)->next = c;
        last = c;
    }
    *pos = (size_t)end;
    *out = index;
    return PM_OK;
}

static bool node_is(const fbx_tree *t, uint32_t i, const char *name) {
    const fbx_node *n = node_at(t, i);
    return n->name_len == strlen(name) && memcmp(n->name, name, n->name_len) == 0;
}

static uint32_t child_named(const fbx_tree *t, uint32_t parent, const char *name) {
    for (uint32_t c = parent == PM_NO_INDEX ? 0 : node_at(t, parent)->child; c != PM_NO_INDEX; c = node_at(t, c)->next)
        if (node_is(t, c, name)) return c;
    return PM_NO_INDEX;
}

/* Property k of node i, or NULL. */
static const fbx_prop *prop_of(const fbx_tree *t, uint32_t i, uint32_t k) {
    const fbx_node *n = node_at(t, i);
    return k < n->prop_count ? prop_at(t, n->prop + k) : NULL;
}

static bool prop_number(const fbx_prop *p, double *v) {
    if (!p) return false;
    switch (p->type) {
    case 'C': *v = p->p[0]; return true;
    case 'Y': *v = (int16_t)pmi_le16(p->p); return true;
    case 'I': *v = (int32_t)pmi_le32(p->p); return true;
    case 'F': *v = pmi_lef32(p->p); return true;
    case 'L': *v = (double)(int64_t)le64(p->p); return true;
    case 'D': {
        uint64_t u = le64(p->p);
        memcpy(v, &u, 8);
        return true;
    }
    default: return false;
    }
}

static bool prop_string_is(const fbx_prop *p, const char *s) {
    return p && (p->type == 'S' || p->type == 'R') && p->count == strlen(s) && memcmp(p->p, s, p->count) == 0;
}

/* A Properties70 "P" entry named `name` under node i: its index, or PM_NO_INDEX. */
static uint32_t p70(const fbx_tree *t, uint32_t i, const char *name) {
    const uint32_t props = child_named(t, i, "Properties70");
    if (props == PM_NO_INDEX) return PM_NO_INDEX;
    for (uint32_t c = node_at(t, props)->child; c != PM_NO_INDEX; c = node_at(t, c)->next)
        if (node_is(t, c, "P") && prop_string_is(prop_of(t, c, 0), name)) return c;
    return PM_NO_INDEX;
}

/* The `count` numbers of a Properties70 entry (they start at its fifth property); false when absent. */
static bool p70_numbers(const fbx_tree *t, uint32_t i, const char *name, double *v, uint32_t count) {
    const uint32_t e = p70(t, i, name);
    if (e == PM_NO_INDEX) return false;
    for (uint32_t k = 0; k < count; k++)
        if (!prop_number(prop_of(t, e, 4 + k), &v[k])) return false;
    return true;
}

/* Decode array property p into `out` as doubles; its type must be one of `types`. */
static pm_result array_doubles(fbx_tree *t, const fbx_prop *p, const char *types, const pm_allocator *a, double **out,
                               uint32_t *count, const char *what) {
    *out = NULL, *count = 0;
    if (!p || !strchr(types, p->type) || p->type == 0)
        return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: %s is not an array of the expected type", what);
    const size_t elem = p->type == 'd' || p->type == 'l' ? 8 : 4;
    const uint64_t bytes = (uint64_t)p->count * elem;
    if (bytes > FBX_MAX_ARRAY_BYTES || (p->encoding == 1 && bytes > (uint64_t)p->bytes * 1032u + 64u))
        return pmi_fail(t->err, PM_ERR_LIMIT, "fbx: %s announces %u elements, more than its %u stored bytes can hold", what, p->count, p->bytes);
    double *v = pmi_alloc_array_unzeroed(a, p->count ? p->count : 1, sizeof *v, t->err, "fbx: arrays");
    if (!v) return PM_ERR_OUT_OF_MEMORY;
    const uint8_t *raw = p->p;
    uint8_t *inflated = NULL;
    if (p->encoding == 1) {
        inflated = pmi_alloc_array_unzeroed(a, bytes ? (size_t)bytes : 1, 1, t->err, "fbx: arrays");
        if (!inflated) {
            pmi_free(a, v);
            return PM_ERR_OUT_OF_MEMORY;
        }
        const char *why = pmi_inflate_zlib(p->p, p->bytes, inflated, (size_t)bytes);
        if (why) {
            pmi_free(a, inflated), pmi_free(a, v);
            return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: the compressed array of %s does not decode: %s", what, why);
        }
        raw = inflated;
    }
    for (uint32_t k = 0; k < p->count; k++) {
        const uint8_t *e = raw + (size_t)k * elem;
        fbx_prop one = {p->type == 'f' ? 'F' : p->type == 'd' ? 'D' : p->type == 'l' ? 'L' : 'I', 0, 0, 0, e};
        prop_number(&one, &v[k]);
    }
    pmi_free(a, inflated);
    *out = v, *count = p->count;
    return PM_OK;
}

/* ---- the scene ------------------------------------------------------------------------------------ */

enum { OBJ_MODEL = 1, OBJ_STACK, OBJ_LAYER, OBJ_CURVE_NODE, OBJ_CURVE };

typedef struct curve_node {
    uint32_t model, layer;
    pm_fbx_path path;
    uint32_t curve[3];   /* fbx tree nodes of the AnimationCurves, PM_NO_INDEX */
    double value[3];     /* the d|X, d|Y, d|Z values */
    uint32_t node;
} curve_node;

typedef struct scene {
    fbx_tree *t;
    pm_fbx *f;
    pmi_arena *arena;    /* the result's */
    pmi_strmap ids;      /* 8-byte ids -> kind << 28 | index */
    uint32_t *model_node;
    uint32_t *stack_node, *stack_layer; /* first layer of each stack */
    uint32_t layer_count;
    curve_node *nodes;
    uint32_t node_count;
    uint32_t *curve_record; /* the tree node of each AnimationCurve */
} scene;

static uint32_t object(const scene *s, const fbx_prop *id) {
    if (!id || id->type != 'L') return PM_NO_INDEX;
    return pmi_strmap_get(&s->ids, (const char *)id->p, 8);
}

/* A name as readers hand names out: up to its first NUL (FBX's "Name\0\1Class"), invalid UTF-8 as U+FFFD. */
static pm_string arena_string(scene *s, const fbx_prop *p) {
    size_t len = 0, stored = 0;
    if (p && (p->type == 'S' || p->type == 'R'))
        while (len < p->count && p->p[len]) len++;
    char *c = pmi_arena_strdup_utf8(s->arena, len ? (const char *)p->p : "", len, &stored);
    return (pm_string){c, c ? (uint32_t)stored : 0};
}

static pm_result read_model(scene *s, uint32_t node, pm_fbx_model *m) {
    fbx_tree *t = s->t;
    m->name = arena_string(s, prop_of(t, node, 1)); /* "mixamorig:Hips\0\1Model" */
    m->type = arena_string(s, prop_of(t, node, 2));
    if (!m->name.data || !m->type.data) return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
    m->parent = PM_NO_INDEX;
    static const char *const VEC[] = {"Lcl Translation", "Lcl Rotation",   "Lcl Scaling",    "PreRotation",   "PostRotation",
                                      "RotationOffset",  "RotationPivot", "ScalingOffset", "ScalingPivot"};
    pm_vec3 *dst[9] = {&m->trs[0], &m->trs[1], &m->trs[2], &m->pre_rotation, &m->post_rotation,
                       &m->rotation_offset, &m->rotation_pivot, &m->scaling_offset, &m->scaling_pivot};
    for (int k = 0; k < 9; k++) {
        double v[3] = {0, 0, 0};
        if (k == 2) v[0] = v[1] = v[2] = 1;
        p70_numbers(t, node, VEC[k], v, 3);
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: model \"%.40s\" has a %s that is not finite", m->name.data, VEC[k]);
        *dst[k] = pm_vec3_make((float)v[0], (float)v[1], (float)v[2]);
    }
    double order = 0;
    p70_numbers(t, node, "RotationOrder", &order, 1);
    m->rotation_order = order >= 0 && order <= 5 ? (uint32_t)order : 0; /* 6, spheric XYZ, evaluates as XYZ */
    return PM_OK;
}

static pm_result index_objects(scene *s, uint32_t objects) {
    fbx_tree *t = s->t;
    pm_fbx *f = s->f;
    uint32_t counts[6] = {0};
    static const char *const KIND[6] = {"", "Model", "AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"};
    for (int pass = 0; pass < 2; pass++) {
        uint32_t at[6] = {0};
        for (uint32_t c = node_at(t, objects)->child; c != PM_NO_INDEX; c = node_at(t, c)->next) {
            int kind = 0;
            for (int k = 1; k < 6 && !kind; k++)
                if (node_is(t, c, KIND[k])) kind = k;
            const fbx_prop *id = prop_of(t, c, 0);
            if (!kind || !id || id->type != 'L') continue;
            if (pass == 0) {
                counts[kind]++;
                continue;
            }
            if (pmi_strmap_get(&s->ids, (const char *)id->p, 8) != PM_NO_INDEX) continue; /* a repeated id: the first wins */
            const uint32_t i = at[kind]++;
            if (!pmi_strmap_put(&s->ids, (const char *)id->p, 8, (uint32_t)kind << 28 | i))
                return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
            if (kind == OBJ_MODEL) s->model_node[i] = c;
            else if (kind == OBJ_STACK) s->stack_node[i] = c;
            else if (kind == OBJ_CURVE) s->curve_record[i] = c;
            else if (kind == OBJ_CURVE_NODE) {
                curve_node *n = &s->nodes[i];
                n->model = n->layer = PM_NO_INDEX;
                n->curve[0] = n->curve[1] = n->curve[2] = PM_NO_INDEX;
                n->node = c;
                for (int k = 0; k < 3; k++) {
                    static const char *const AXIS[3] = {"d|X", "d|Y", "d|Z"};
                    p70_numbers(t, c, AXIS[k], &n->value[k], 1);
                }
            }
        }
        if (pass == 0) {
            uint32_t total = 0;
            for (int k = 1; k < 6; k++) {
                if (counts[k] >= (1u << 28)) return pmi_fail(t->err, PM_ERR_LIMIT, "fbx: more than 2^28 %s objects", KIND[k]);
                total += counts[k];
            }
            const pm_allocator *a = &f->allocator;
            if (!pmi_strmap_reserve(&s->ids, total)) return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
            f->model_count = counts[OBJ_MODEL];
            f->models = pmi_arena_alloc(s->arena, (f->model_count ? f->model_count : 1) * sizeof *f->models);
            f->order = pmi_arena_alloc(s->arena, (f->model_count ? f->model_count : 1) * sizeof *f->order);
            s->model_node = pmi_alloc_array(a, f->model_count + 1, sizeof *s->model_node, t->err, "fbx: objects");
            s->stack_node = pmi_alloc_array(a, counts[OBJ_STACK] + 1, sizeof *s->stack_node, t->err, "fbx: objects");
            s->stack_layer = pmi_alloc_array(a, counts[OBJ_STACK] + 1, sizeof *s->stack_layer, t->err, "fbx: objects");
            s->nodes = pmi_alloc_array(a, counts[OBJ_CURVE_NODE] + 1, sizeof *s->nodes, t->err, "fbx: objects");
            s->curve_record = pmi_alloc_array(a, counts[OBJ_CURVE] + 1, sizeof *s->curve_record, t->err, "fbx: objects");
            if (!f->models || !f->order || !s->model_node || !s->stack_node || !s->stack_layer || !s->nodes ||
                !s->curve_record)
                return pmi_fail(t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
            f->stack_count = counts[OBJ_STACK];
            s->layer_count = counts[OBJ_LAYER];
            s->node_count = counts[OBJ_CURVE_NODE];
            for (uint32_t k = 0; k <= f->stack_count; k++) s->stack_layer[k] = PM_NO_INDEX;
        } else {
            f->model_count = at[OBJ_MODEL], f->stack_count = at[OBJ_STACK], s->layer_count = at[OBJ_LAYER], s->node_count = at[OBJ_CURVE_NODE];
        }
    }
    bool skeleton = false;
    for (uint32_t m = 0; m < f->model_count; m++) {
        pm_result r = read_model(s, s->model_node[m], &f->models[m]);
        if (r) return r;
        const char *type = f->models[m].type.data;
        f->models[m].bone = strcmp(type, "LimbNode") == 0 || strcmp(type, "Root") == 0;
        skeleton = skeleton || f->models[m].bone;
    }
    for (uint32_t m = 0; m < f->model_count && !skeleton; m++) {
        const char *type = f->models[m].type.data;
        f->models[m].bone = strcmp(type, "Mesh") != 0 && strcmp(type, "Camera") != 0 && strcmp(type, "Light") != 0;
    }
    return PM_OK;
}

static void connect(scene *s, uint32_t connections) {
    fbx_tree *t = s->t;
    pm_fbx *f = s->f;
    for (uint32_t c = node_at(t, connections)->child; c != PM_NO_INDEX; c = node_at(t, c)->next) {
        if (!node_is(t, c, "C")) continue;
        const uint32_t child = object(s, prop_of(t, c, 1)), parent = object(s, prop_of(t, c, 2));
        if (child == PM_NO_INDEX || parent == PM_NO_INDEX) continue;
        const uint32_t ck = child >> 28, ci = child & 0x0fffffffu, pk = parent >> 28, pi = parent & 0x0fffffffu;
        const fbx_prop *what = prop_of(t, c, 3);
        if (ck == OBJ_MODEL && pk == OBJ_MODEL) {
            if (f->models[ci].parent == PM_NO_INDEX && ci != pi) f->models[ci].parent = pi;
        } else if (ck == OBJ_LAYER && pk == OBJ_STACK) {
            if (s->stack_layer[pi] == PM_NO_INDEX) s->stack_layer[pi] = ci;
        } else if (ck == OBJ_CURVE_NODE && pk == OBJ_LAYER) {
            if (s->nodes[ci].layer == PM_NO_INDEX) s->nodes[ci].layer = pi;
        } else if (ck == OBJ_CURVE_NODE && pk == OBJ_MODEL) {
            static const char *const PATH[3] = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
            for (int k = 0; k < 3; k++)
                if (prop_string_is(what, PATH[k]) && s->nodes[ci].model == PM_NO_INDEX)
                    s->nodes[ci].model = pi, s->nodes[ci].path = (pm_fbx_path)k;
        } else if (ck == OBJ_CURVE && pk == OBJ_CURVE_NODE) {
            static const char *const AXIS[3] = {"d|X", "d|Y", "d|Z"};
            for (int k = 0; k < 3; k++)
                if (prop_string_is(what, AXIS[k]) && s->nodes[pi].curve[k] == PM_NO_INDEX) s->nodes[pi].curve[k] = ci;
        }
    }
}

/* Parents before children (breadth first from the roots); a cycle is an error. */
static pm_result order_models(scene *s) {
    pm_fbx *f = s->f;
    const uint32_t n = f->model_count;
    uint32_t *first = pmi_alloc_array(&f->allocator, n + 1, sizeof *first, s->t->err, "fbx: models");
    if (!first) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t m = 0; m < n; m++)
        if (f->models[m].parent != PM_NO_INDEX) first[f->models[m].parent + 1]++;
    for (uint32_t m = 0; m < n; m++) first[m + 1] += first[m];
    uint32_t *children = pmi_alloc_array(&f->allocator, n + 1, sizeof *children, s->t->err, "fbx: models");
    if (!children) {
        pmi_free(&f->allocator, first);
        return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t m = 0; m < n; m++) {
        const uint32_t p = f->models[m].parent;
        if (p != PM_NO_INDEX) children[first[p]++] = m;
    }
    for (uint32_t m = n; m > 0; m--) first[m] = first[m - 1]; /* back to the starts */
    first[0] = 0;
    uint32_t count = 0;
    for (uint32_t m = 0; m < n; m++)
        if (f->models[m].parent == PM_NO_INDEX) f->order[count++] = m;
    for (uint32_t k = 0; k < count; k++)
        for (uint32_t c = first[f->order[k]]; c < first[f->order[k] + 1]; c++) f->order[count++] = children[c];
    pmi_free(&f->allocator, first);
    pmi_free(&f->allocator, children);
    if (count != n) return pmi_fail(s->t->err, PM_ERR_BAD_FORMAT, "fbx: the models' parents form a cycle");
    return PM_OK;
}

/* The keys of one axis of a curve node: its AnimationCurve's, or one key holding the node's value. */
static pm_result curve_keys(scene *s, const curve_node *cn, int axis, double **times, double **values, uint32_t *count) {
    fbx_tree *t = s->t;
    const pm_allocator *a = &s->f->allocator;
    *times = *values = NULL, *count = 0;
    if (cn->curve[axis] == PM_NO_INDEX) return PM_OK;
    const uint32_t node = s->curve_record[cn->curve[axis]];
    const uint32_t kt = child_named(t, node, "KeyTime");
    uint32_t kv = child_named(t, node, "KeyValueFloat");
    if (kv == PM_NO_INDEX) kv = child_named(t, node, "KeyValueDouble");
    if (kt == PM_NO_INDEX || kv == PM_NO_INDEX) return PM_OK;
    uint32_t nt = 0, nv = 0;
    pm_result r = array_doubles(t, prop_of(t, kt, 0), "l", a, times, &nt, "an AnimationCurve's KeyTime");
    if (r == PM_OK) r = array_doubles(t, prop_of(t, kv, 0), "fd", a, values, &nv, "an AnimationCurve's KeyValueFloat");
    if (r == PM_OK && nt != nv)
        r = pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: an AnimationCurve has %u key times and %u values", nt, nv);
    for (uint32_t k = 0; r == PM_OK && k < nt; k++) {
        if (!isfinite((*values)[k])) r = pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: an AnimationCurve's value %u is not finite", k);
        else if (k && (*times)[k] < (*times)[k - 1]) r = pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: an AnimationCurve's key times go back at key %u", k);
    }
    if (r) {
        pmi_free(a, *times), pmi_free(a, *values);
        *times = *values = NULL;
        return r;
    }
    *count = nt;
    return PM_OK;
}

static pm_result build_stacks(scene *s) {
    pm_fbx *f = s->f;
    const pm_allocator *a = &f->allocator;
    f->stacks = pmi_arena_alloc(s->arena, (f->stack_count ? f->stack_count : 1) * sizeof *f->stacks);
    if (!f->stacks) return pmi_fail(s->t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
    uint32_t kept = 0;
    for (uint32_t st = 0; st < f->stack_count; st++) {
        const uint32_t layer = s->stack_layer[st];
        uint32_t total = 0;
        for (uint32_t n = 0; n < s->node_count; n++)
            if (layer != PM_NO_INDEX && s->nodes[n].layer == layer && s->nodes[n].model != PM_NO_INDEX) total += 3;
        if (!total) continue; /* an empty stack (Mixamo's "Take 001") is no animation */
        pm_fbx_stack *stack = &f->stacks[kept++];
        stack->name = arena_string(s, prop_of(s->t, s->stack_node[st], 1)); /* "mixamo.com\0\1AnimStack" */
        stack->model_curves = pmi_arena_alloc(s->arena, ((size_t)f->model_count + 1) * sizeof *stack->model_curves);
        stack->curves = pmi_arena_alloc(s->arena, (total ? total : 1) * sizeof *stack->curves);
        if (!stack->name.data || !stack->model_curves || !stack->curves) return pmi_fail(s->t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
        for (uint32_t n = 0; n < s->node_count; n++)
            if (s->nodes[n].layer == layer && s->nodes[n].model != PM_NO_INDEX) stack->model_curves[s->nodes[n].model + 1] += 3;
        for (uint32_t m = 0; m < f->model_count; m++) stack->model_curves[m + 1] += stack->model_curves[m];
        double first = INFINITY, last = -INFINITY;
        for (uint32_t n = 0; n < s->node_count; n++) {
            const curve_node *cn = &s->nodes[n];
            if (cn->layer != layer || cn->model == PM_NO_INDEX) continue;
            for (int axis = 0; axis < 3; axis++) {
                double *times = NULL, *values = NULL;
                uint32_t count = 0;
                pm_result r = curve_keys(s, cn, axis, &times, &values, &count);
                if (r) return r;
                pm_fbx_curve *c = &stack->curves[stack->model_curves[cn->model]++];
                c->model = cn->model, c->path = cn->path, c->axis = (uint32_t)axis;
                c->key_count = count ? count : 1;
                c->times = pmi_arena_alloc(s->arena, c->key_count * sizeof *c->times);
                c->values = pmi_arena_alloc(s->arena, c->key_count * sizeof *c->values);
                if (c->times && c->values) {
                    for (uint32_t k = 0; k < count; k++) c->times[k] = times[k] / FBX_TICKS_PER_SECOND, c->values[k] = (float)values[k];
                    if (!count) c->values[0] = (float)cn->value[axis];
                    if (count) first = fmin(first, c->times[0]), last = fmax(last, c->times[count - 1]);
                }
                pmi_free(a, times), pmi_free(a, values);
                if (!c->times || !c->values) return pmi_fail(s->t->err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
                if (!isfinite(c->values[0])) return pmi_fail(s->t->err, PM_ERR_BAD_FORMAT, "fbx: an AnimationCurveNode's value is not finite");
            }
        }
        for (uint32_t m = f->model_count; m > 0; m--) stack->model_curves[m] = stack->model_curves[m - 1]; /* back to the starts */
        stack->model_curves[0] = 0;
        stack->curve_count = total;
        if (!(first <= last)) first = last = 0;
        for (uint32_t c = 0; c < total; c++)
            for (uint32_t k = 0; k < stack->curves[c].key_count; k++) stack->curves[c].times[k] -= first;
        stack->duration = last - first;
    }
    f->stack_count = kept;
    return PM_OK;
}

static void global_settings(const fbx_tree *t, pm_fbx *f) {
    f->unit_scale = 1, f->up_axis = 1, f->up_axis_sign = 1, f->front_axis = 2, f->front_axis_sign = 1;
    const uint32_t g = child_named(t, PM_NO_INDEX, "GlobalSettings");
    if (g == PM_NO_INDEX) return;
    double v;
    if (p70_numbers(t, g, "UnitScaleFactor", &v, 1) && isfinite(v) && v > 0) f->unit_scale = v;
    if (p70_numbers(t, g, "UpAxis", &v, 1) && v >= 0 && v <= 2) f->up_axis = (int32_t)v;
    if (p70_numbers(t, g, "UpAxisSign", &v, 1) && (v == 1 || v == -1)) f->up_axis_sign = (int32_t)v;
    if (p70_numbers(t, g, "FrontAxis", &v, 1) && v >= 0 && v <= 2) f->front_axis = (int32_t)v;
    if (p70_numbers(t, g, "FrontAxisSign", &v, 1) && (v == 1 || v == -1)) f->front_axis_sign = (int32_t)v;
    static const double RATE[19] = {0, 120, 100, 60, 50, 48, 30, 30, 29.97002997, 29.97002997, 25, 24, 1000, 23.976, 0, 96, 72, 59.94, 119.88};
    if (p70_numbers(t, g, "TimeMode", &v, 1) && v >= 0 && v < 19) f->frame_rate = RATE[(int)v];
    if (f->frame_rate == 0 && p70_numbers(t, g, "CustomFrameRate", &v, 1) && isfinite(v) && v > 0 && v < 10000) f->frame_rate = v;
}

void pm_fbx_free(pm_fbx *f) {
    if (!f || f->magic != PMI_FBX_MAGIC) return;
    pm_allocator a = f->allocator;
    if (f->internal) {
        pmi_arena_release(f->internal);
        pmi_free(&a, f->internal);
    }
    f->magic = 0;
    pmi_free(&a, f);
}

static pm_result read_scene(fbx_tree *t, pm_fbx *f) {
    size_t pos = 27;
    uint32_t last = PM_NO_INDEX;
    while (pos < t->size) {
        uint32_t n;
        pm_result r = read_node(t, &pos, t->size, 0, &n);
        if (r) return r;
        if (n == PM_NO_INDEX) break;
        if (last != PM_NO_INDEX) node_at(t, last)->next = n;
        last = n;
    }
    if (last == PM_NO_INDEX) return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: the file holds no records");
    const uint32_t objects = child_named(t, PM_NO_INDEX, "Objects");
    if (objects == PM_NO_INDEX) return pmi_fail(t->err, PM_ERR_BAD_FORMAT, "fbx: the file has no Objects section");
    global_settings(t, f);
    scene s = {t, f, f->internal, {&f->allocator, 0, 0, NULL}, NULL, NULL, NULL, 0, NULL, 0, NULL};
    pm_result r = index_objects(&s, objects);
    if (r == PM_OK) {
        const uint32_t connections = child_named(t, PM_NO_INDEX, "Connections");
        if (connections != PM_NO_INDEX) connect(&s, connections);
        r = order_models(&s);
    }
    if (r == PM_OK) r = build_stacks(&s);
    pmi_strmap_release(&s.ids);
    pmi_free(&f->allocator, s.model_node), pmi_free(&f->allocator, s.stack_node), pmi_free(&f->allocator, s.stack_layer);
    pmi_free(&f->allocator, s.nodes), pmi_free(&f->allocator, s.curve_record);
    return r;
}

pm_result pm_fbx_read(const uint8_t *data, size_t size, const pm_fbx_read_options *opts, pm_fbx **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "fbx: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "fbx: data is NULL");
    if (size >= 5 && memcmp(data, "; FBX", 5) == 0)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "fbx: an ASCII FBX file, which procmotion does not read: export it as binary FBX");
    if (size < 27 || memcmp(data, "Kaydara FBX Binary  \0", 21) != 0)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "fbx: not a binary FBX file (no \"Kaydara FBX Binary\" header)");
    const uint32_t version = pmi_le32(data + 23);
    if (version < 7000 || version >= 8000)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "fbx: FBX version %u.%u, procmotion reads 7.x (save it as FBX 2011 or later)",
                        version / 1000, version % 1000 / 100);
    pm_allocator a = opts ? opts->allocator : (pm_allocator){0};
    pm_fbx *f = pmi_alloc(&a, sizeof *f);
    if (!f) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
    memset(f, 0, sizeof *f);
    f->magic = PMI_FBX_MAGIC;
    f->allocator = a;
    f->version = version;
    pmi_arena *arena = pmi_alloc(&a, sizeof *arena);
    if (!arena) {
        pm_fbx_free(f);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "fbx: out of memory");
    }
    memset(arena, 0, sizeof *arena);
    arena->allocator = &f->allocator;
    f->internal = arena;
    fbx_tree t = {data, size, version >= 7500, {&f->allocator, NULL, 0, 0, false}, {&f->allocator, NULL, 0, 0, false}, err};
    pm_result r = read_scene(&t, f);
    pmi_buf_release(&t.nodes);
    pmi_buf_release(&t.props);
    if (r) {
        pm_fbx_free(f);
        return r;
    }
    *out = f;
    return PM_OK;
}

/* ---- evaluation ------------------------------------------------------------------------------------ */

static float sample(const pm_fbx_curve *c, double t) {
    const uint32_t n = c->key_count;
    if (t <= c->times[0]) return c->values[0];
    if (t >= c->times[n - 1]) return c->values[n - 1];
    uint32_t lo = 0, hi = n - 1; /* times[lo] < t < times[hi] */
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (c->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    const double u = (t - c->times[lo]) / (c->times[hi] - c->times[lo]);
    return (float)(c->values[lo] + (c->values[hi] - c->values[lo]) * u);
}

/* Euler angles in degrees, applied in the order's letters (0 XYZ: X first). */
static pm_quat euler(pm_vec3 degrees, uint32_t order) {
    static const uint8_t AXES[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    const float angle[3] = {degrees.x, degrees.y, degrees.z};
    pm_quat q = pm_quat_identity();
    for (int k = 0; k < 3; k++) {
        const int axis = AXES[order][k];
        const pm_vec3 u = pm_vec3_make(axis == 0, axis == 1, axis == 2);
        q = pm_quat_mul(pm_quat_from_axis_angle(u, (float)(angle[axis] * (PM_PI / 180))), q);
    }
    return q;
}

static pm_mat4 local_matrix(const pm_fbx_model *m, const pm_vec3 trs[3]) {
    const pm_quat q = pm_quat_mul(pm_quat_mul(euler(m->pre_rotation, 0), euler(trs[1], m->rotation_order)),
                                  pm_quat_conjugate(euler(m->post_rotation, 0)));
    const pm_vec3 rp = m->rotation_pivot, sp = m->scaling_pivot, s = trs[2];
    const pm_mat4 rotation = pm_mat4_from_rotation_translation(q, pm_vec3_add(pm_vec3_add(trs[0], m->rotation_offset), rp));
    const pm_vec3 after = pm_vec3_make(-rp.x + m->scaling_offset.x + sp.x - s.x * sp.x, -rp.y + m->scaling_offset.y + sp.y - s.y * sp.y,
                                       -rp.z + m->scaling_offset.z + sp.z - s.z * sp.z);
    const pm_mat4 scaling = pm_mat4_compose(after, pm_quat_identity(), s);
    return pm_mat4_mul(&rotation, &scaling);
}

pm_result pm_fbx_world_matrices(const pm_fbx *f, uint32_t stack, double seconds, pm_mat4 *world, pm_error *err) {
    if (!f || f->magic != PMI_FBX_MAGIC || !world)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "fbx: %s", !world ? "world is NULL" : "not an FBX scene");
    if (stack != PM_NO_INDEX && stack >= f->stack_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "fbx: stack %u asked for, the file has %u", stack, f->stack_count);
    if (!isfinite(seconds)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "fbx: time %g is not finite", seconds);
    const pm_fbx_stack *st = stack == PM_NO_INDEX ? NULL : &f->stacks[stack];
    for (uint32_t k = 0; k < f->model_count; k++) {
        const uint32_t m = f->order[k];
        const pm_fbx_model *model = &f->models[m];
        pm_vec3 trs[3] = {model->trs[0], model->trs[1], model->trs[2]};
        if (st && st->curve_count)
            for (uint32_t c = st->model_curves[m]; c < st->model_curves[m + 1]; c++) {
                const pm_fbx_curve *curve = &st->curves[c];
                const float v = sample(curve, seconds);
                pm_vec3 *x = &trs[curve->path];
                if (curve->axis == 0) x->x = v;
                else if (curve->axis == 1) x->y = v;
                else x->z = v;
            }
        const pm_mat4 local = local_matrix(model, trs);
        world[m] = model->parent == PM_NO_INDEX ? local : pm_mat4_mul(&world[model->parent], &local);
    }
    return PM_OK;
}
