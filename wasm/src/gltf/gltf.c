/* glTF 2.0 / GLB reader: hierarchy, skins, animations, VRM humanoid table; FK (see procmotion/gltf.h). */
#include "procmotion/gltf.h"

#include "common/internal.h"
#include "common/strings.h"
#include "text/utf.h"

#include "common/json.h"
#include "gltf/glb.h"
#include "math/inline.h"
#include <math.h>
#include <stdlib.h>

#define PMI_GLTF_MAGIC 0x31544c47u /* "GLT1" */

typedef struct gltf_internal {
    pmi_arena arena;
} gltf_internal;

typedef struct buffer {
    const uint8_t *data;
    size_t size;
    uint8_t *owned; /* decoded data: URI */
} buffer;

typedef struct view {
    uint32_t buffer;
    uint64_t offset, length;
    uint32_t stride; /* 0 = tightly packed */
} view;

typedef struct reader {
    pm_gltf *g;
    const cJSON *root;
    buffer *buffers;
    uint32_t buffer_count;
    view *views;
    uint32_t view_count;
    const cJSON *accessors;
    uint32_t accessor_count;
    /* direct access to array elements: cJSON_GetArrayItem walks the list, and calling it per node, channel
     * or accessor made reading quadratic (a 100 000-node chain took seconds; found by the hostile tests) */
    const cJSON **accessor_items; /* [accessor_count] */
    const cJSON **node_children;  /* [node_count]: each node's "children" */
    const cJSON **sampler_items;  /* the current animation's samplers */
    uint32_t sampler_count, sampler_capacity;
    pm_error *err;
} reader;

/* The first element of an array; NULL for anything else (an object's members are not elements: the
 * loops below fill arrays of array_size() entries). */
static const cJSON *first_item(const cJSON *a) { return cJSON_IsArray(a) ? a->child : NULL; }

/* Fill items[0..n) with the elements of array `a` (n = its size). */
static void list_items(const cJSON *a, const cJSON **items) {
    uint32_t i = 0;
    for (const cJSON *e = first_item(a); e; e = e->next) items[i++] = e;
}

/* ---- small JSON helpers ---------------------------------------------------------------------------- */

static uint32_t array_size(const cJSON *a) { return cJSON_IsArray(a) ? (uint32_t)cJSON_GetArraySize(a) : 0; }

/* Whether `it` is an integer in [0, count); if so *out is it (else *out is left alone). */
static bool index_below(const cJSON *it, uint32_t count, uint32_t *out) {
    double v = cJSON_IsNumber(it) ? it->valuedouble : -1;
    if (!(v >= 0) || v != floor(v) || v >= count) return false;
    *out = (uint32_t)v;
    return true;
}

/* The shared field idiom (common/json.h) at "<array>[<at>]": "gltf: nodes[3].mesh must be ..., got ...". */
typedef struct gltf_at {
    char path[40];
    pmi_json_at at;
} gltf_at;
static const pmi_json_at *at_of(gltf_at *g, reader *rd, const char *array, uint32_t at) {
    pmi_format(g->path, sizeof g->path, "%s[%u]", array, at);
    g->at = (pmi_json_at){"gltf", g->path, PM_ERR_BAD_FORMAT, rd->err};
    return &g->at;
}

/* An optional index (absent -> PM_NO_INDEX); present must be an integer in [0, count). */
static pm_result get_index(reader *rd, const cJSON *obj, const char *key, uint32_t count, bool required, uint32_t *out,
                           const char *array, uint32_t at) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = PM_NO_INDEX;
    if (!it && !required) return PM_OK;
    gltf_at g;
    if (!index_below(it, count, out)) return pmi_json_fail(at_of(&g, rd, array, at), key, it, "an index below %u", count);
    return PM_OK;
}

static pm_result get_uint(reader *rd, const cJSON *obj, const char *key, uint64_t dflt, uint64_t *out, const char *array,
                          uint32_t at) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) {
        *out = dflt;
        return PM_OK;
    }
    gltf_at g;
    double v;
    pm_result r = pmi_json_whole(at_of(&g, rd, array, at), key, it, 0, 9007199254740992.0, &v);
    if (r == PM_OK) *out = (uint64_t)v;
    return r;
}

/* n finite numbers from an optional array (absent -> leave out alone). */
static pm_result get_floats(reader *rd, const cJSON *obj, const char *key, int n, float *out, const char *array, uint32_t at) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a) return PM_OK;
    gltf_at g;
    return pmi_json_floats(at_of(&g, rd, array, at), key, a, n, 3.4e38, out);
}

/* A name into the arena (invalid UTF-8 as U+FFFD, at most 4096 bytes of the file); running out of memory
 * is an error (it used to leave the name empty). */
static pm_result intern_text(reader *rd, const char *s, pm_string *out) {
    size_t n = strlen(s), stored = 0;
    if (n > 4096) n = 4096;
    gltf_internal *in = rd->g->internal;
    char *c = pmi_arena_strdup_utf8(&in->arena, s, n, &stored);
    if (!c) return pmi_fail(rd->err, PM_ERR_OUT_OF_MEMORY, "gltf: out of memory for names");
    *out = (pm_string){c, (uint32_t)stored};
    return PM_OK;
}
static pm_result intern(reader *rd, const cJSON *obj, const char *key, pm_string *out) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return intern_text(rd, cJSON_IsString(it) ? it->valuestring : "", out);
}

/* ---- buffers ------------------------------------------------------------------------------------ */

static int b64(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

static pm_result decode_data_uri(reader *rd, const char *uri, uint32_t index, buffer *out) {
    /* The first comma, and whether the first ";base64," ends there: exactly when the 7 bytes before it
     * are ";base64". (Loops and memcmp rather than strchr and strstr: no other code of the wasm modules
     * calls those two, 1.6 KB of libc.) */
    const char *comma = uri;
    while (*comma && *comma != ',') comma++;
    if (!*comma || comma - uri < 7 || memcmp(comma - 7, ";base64", 7) != 0)
        return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: buffer %u: only base64 data: URIs are supported", index);
    const uint8_t *p = (const uint8_t *)comma + 1;
    size_t n = strlen((const char *)p);
    uint8_t *dst = pmi_alloc_array(&rd->g->allocator, n / 4 * 3 + 3, 1, rd->err, "gltf: buffer");
    if (!dst) return PM_ERR_OUT_OF_MEMORY;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '=') break;
        int v = b64(p[i]);
        if (v < 0) {
            pmi_free(&rd->g->allocator, dst);
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: buffer %u: invalid base64 at character %zu", index, i);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            dst[o++] = (uint8_t)(acc >> bits);
        }
    }
    out->owned = dst;
    out->data = dst;
    out->size = o;
    return PM_OK;
}

static pm_result read_buffers(reader *rd, const uint8_t *bin, size_t bin_size, bool glb) {
    const cJSON *bufs = cJSON_GetObjectItemCaseSensitive(rd->root, "buffers");
    rd->buffer_count = array_size(bufs);
    rd->buffers = pmi_alloc_array(&rd->g->allocator, rd->buffer_count, sizeof *rd->buffers, rd->err, "gltf: buffers");
    if (!rd->buffers) return PM_ERR_OUT_OF_MEMORY;
    uint32_t i = 0;
    pm_result r;
    for (const cJSON *b = first_item(bufs); b; b = b->next, i++) {
        uint64_t len = 0;
        if ((r = get_uint(rd, b, "byteLength", UINT64_MAX, &len, "buffers", i))) return r;
        if (len == UINT64_MAX) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: buffer %u has no byteLength", i);
        const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
        if (!uri) {
            if (!glb || i != 0 || !bin)
                return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: buffer %u has no uri and there is no GLB BIN chunk for it", i);
            if (len > bin_size)
                return pmi_fail(rd->err, PM_ERR_TRUNCATED, "gltf: buffer 0 claims %llu bytes but the BIN chunk holds %zu",
                                (unsigned long long)len, bin_size);
            rd->buffers[i].data = bin;
            rd->buffers[i].size = (size_t)len;
        } else if (!cJSON_IsString(uri)) {
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: buffer %u: uri is not a string", i);
        } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
            if ((r = decode_data_uri(rd, uri->valuestring, i, &rd->buffers[i]))) return r;
            if (len > rd->buffers[i].size)
                return pmi_fail(rd->err, PM_ERR_TRUNCATED, "gltf: buffer %u claims %llu bytes but its data: URI holds %zu", i,
                                (unsigned long long)len, rd->buffers[i].size);
            rd->buffers[i].size = (size_t)len;
        } else {
            return pmi_fail(rd->err, PM_ERR_NOT_FOUND,
                            "gltf: buffer %u refers to the external file '%.80s'; only GLB and data: URIs are supported "
                            "(pack the model as .glb)",
                            i, uri->valuestring);
        }
    }
    const cJSON *views = cJSON_GetObjectItemCaseSensitive(rd->root, "bufferViews");
    rd->view_count = array_size(views);
    rd->views = pmi_alloc_array(&rd->g->allocator, rd->view_count, sizeof *rd->views, rd->err, "gltf: bufferViews");
    if (!rd->views) return PM_ERR_OUT_OF_MEMORY;
    i = 0;
    for (const cJSON *v = first_item(views); v; v = v->next, i++) {
        view *w = &rd->views[i];
        uint64_t stride = 0;
        if ((r = get_index(rd, v, "buffer", rd->buffer_count, true, &w->buffer, "bufferViews", i)) ||
            (r = get_uint(rd, v, "byteOffset", 0, &w->offset, "bufferViews", i)) ||
            (r = get_uint(rd, v, "byteLength", UINT64_MAX, &w->length, "bufferViews", i)) ||
            (r = get_uint(rd, v, "byteStride", 0, &stride, "bufferViews", i)))
            return r;
        if (w->length == UINT64_MAX) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: bufferView %u has no byteLength", i);
        if (stride > 255 || (stride && stride < 4))
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: bufferView %u: byteStride %llu is not in 4..252", i,
                            (unsigned long long)stride);
        w->stride = (uint32_t)stride;
        size_t bsize = rd->buffers[w->buffer].size;
        if (w->offset > bsize || w->length > bsize - w->offset)
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT,
                            "gltf: bufferView %u (offset %llu, length %llu) lies outside buffer %u (%zu bytes)", i,
                            (unsigned long long)w->offset, (unsigned long long)w->length, w->buffer, bsize);
    }
    rd->accessors = cJSON_GetObjectItemCaseSensitive(rd->root, "accessors");
    rd->accessor_count = array_size(rd->accessors);
    rd->accessor_items = pmi_alloc_array(&rd->g->allocator, rd->accessor_count, sizeof *rd->accessor_items, rd->err,
                                         "gltf: accessors");
    if (!rd->accessor_items) return PM_ERR_OUT_OF_MEMORY;
    list_items(rd->accessors, rd->accessor_items);
    return PM_OK;
}

/* Read accessor `index` as floats: `comps` components (1 SCALAR, 3 VEC3, 4 VEC4); integer components only
 * when normalized and `allow_int`. *count must be what the caller expects (0 = anything, set on return). */
static pm_result read_accessor(reader *rd, uint32_t index, int comps, bool allow_int, uint32_t *count, float **out) {
    *out = NULL;
    const cJSON *acc = index < rd->accessor_count ? rd->accessor_items[index] : NULL;
    static const char *const types[5] = {NULL, "SCALAR", NULL, "VEC3", "VEC4"};
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(acc, "type");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, types[comps]) != 0)
        return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u must be %s", index, types[comps]);
    if (cJSON_GetObjectItemCaseSensitive(acc, "sparse"))
        return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u is sparse (not supported)", index);
    uint64_t ctype = 0, n = 0, offset = 0;
    uint32_t vi;
    pm_result r;
    if ((r = get_uint(rd, acc, "componentType", 0, &ctype, "accessors", index)) ||
        (r = get_uint(rd, acc, "count", 0, &n, "accessors", index)) ||
        (r = get_uint(rd, acc, "byteOffset", 0, &offset, "accessors", index)) ||
        (r = get_index(rd, acc, "bufferView", rd->view_count, false, &vi, "accessors", index)))
        return r;
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(acc, "normalized");
    int csize;
    switch (ctype) {
    case 5126: csize = 4; break;
    case 5120: case 5121: csize = 1; break;
    case 5122: case 5123: csize = 2; break;
    default: return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u: componentType %llu is not usable here", index, (unsigned long long)ctype);
    }
    if (ctype != 5126 && (!allow_int || !cJSON_IsTrue(norm)))
        return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u: integer components must be normalized %s", index,
                        allow_int ? "rotations" : "(and are only allowed for rotations)");
    if (n == 0) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u has no elements", index);
    if (*count && n != *count)
        return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u holds %llu elements, %u expected", index, (unsigned long long)n, *count);
    uint64_t elem = (uint64_t)csize * (uint64_t)comps;
    const uint8_t *base = NULL;
    uint64_t stride = elem;
    if (vi != PM_NO_INDEX) {
        const view *w = &rd->views[vi];
        if (w->stride) stride = w->stride;
        if (stride < elem)
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u: byteStride %llu is smaller than an element (%llu)", index,
                            (unsigned long long)stride, (unsigned long long)elem);
        /* offset + stride * (count - 1) + element <= view length, without overflow */
        if (offset > w->length || n - 1 > (w->length - offset) / stride || stride * (n - 1) + elem > w->length - offset)
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT,
                            "gltf: accessor %u (%llu elements of %llu bytes, stride %llu, offset %llu) overruns bufferView %u (%llu bytes)",
                            index, (unsigned long long)n, (unsigned long long)elem, (unsigned long long)stride,
                            (unsigned long long)offset, vi, (unsigned long long)w->length);
        base = rd->buffers[w->buffer].data + w->offset + offset;
    } else if (n > 100000000) {
        return pmi_fail(rd->err, PM_ERR_LIMIT, "gltf: accessor %u: %llu elements without data", index, (unsigned long long)n);
    }
    float *dst = pmi_alloc_array(&rd->g->allocator, (size_t)n * (size_t)comps, sizeof(float), rd->err, "gltf: accessor");
    if (!dst) return PM_ERR_OUT_OF_MEMORY;
    for (uint64_t e = 0; e < n && base; e++) {
        const uint8_t *p = base + e * stride;
        for (int k = 0; k < comps; k++) {
            const uint8_t *q = p + (size_t)k * csize;
            float v;
            switch (ctype) {
            case 5126: v = pmi_lef32(q); break;
            case 5120: v = fmaxf((int8_t)q[0] / 127.0f, -1.0f); break;
            case 5121: v = q[0] / 255.0f; break;
            case 5122: v = fmaxf((int16_t)pmi_le16(q) / 32767.0f, -1.0f); break;
            default: v = pmi_le16(q) / 65535.0f; break;
            }
            if (!isfinite(v)) {
                pmi_free(&rd->g->allocator, dst);
                return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: accessor %u element %llu holds a non-finite value", index,
                                (unsigned long long)e);
            }
            dst[e * comps + k] = v;
        }
    }
    *count = (uint32_t)n;
    *out = dst;
    return PM_OK;
}

/* ---- nodes, skins, animations, VRM ------------------------------------------------------------------ */

static pm_result read_nodes(reader *rd, uint32_t max_nodes) {
    pm_gltf *g = rd->g;
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(rd->root, "nodes");
    uint32_t n = array_size(nodes);
    if (n > max_nodes) return pmi_fail(rd->err, PM_ERR_LIMIT, "gltf: %u nodes exceed the limit of %u", n, max_nodes);
    g->nodes = pmi_alloc_array(&g->allocator, n, sizeof *g->nodes, rd->err, "gltf: nodes");
    g->order = pmi_alloc_array(&g->allocator, n, sizeof *g->order, rd->err, "gltf: nodes");
    rd->node_children = pmi_alloc_array(&g->allocator, n, sizeof *rd->node_children, rd->err, "gltf: nodes");
    if (!g->nodes || !g->order || !rd->node_children) return PM_ERR_OUT_OF_MEMORY;
    g->node_count = n;
    for (uint32_t i = 0; i < n; i++) g->nodes[i].parent = PM_NO_INDEX;
    uint32_t i = 0;
    pm_result r;
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(rd->root, "skins");
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(rd->root, "meshes");
    for (const cJSON *nd = first_item(nodes); nd; nd = nd->next, i++) {
        pm_gltf_node *node = &g->nodes[i];
        if ((r = intern(rd, nd, "name", &node->name))) return r;
        node->translation = pmi_vec3_make(0, 0, 0);
        node->rotation = pmi_quat_identity();
        node->scale = pmi_vec3_make(1, 1, 1);
        float q[4] = {0, 0, 0, 1};
        if ((r = get_index(rd, nd, "mesh", array_size(meshes), false, &node->mesh, "nodes", i)) ||
            (r = get_index(rd, nd, "skin", array_size(skins), false, &node->skin, "nodes", i)) ||
            (r = get_floats(rd, nd, "translation", 3, &node->translation.x, "nodes", i)) ||
            (r = get_floats(rd, nd, "rotation", 4, q, "nodes", i)) ||
            (r = get_floats(rd, nd, "scale", 3, &node->scale.x, "nodes", i)))
            return r;
        node->rotation = pm_quat_normalize((pm_quat){q[0], q[1], q[2], q[3]});
        if (cJSON_GetObjectItemCaseSensitive(nd, "matrix")) {
            if ((r = get_floats(rd, nd, "matrix", 16, node->matrix.m, "nodes", i))) return r;
            node->has_matrix = true;
        }
        const cJSON *ch = cJSON_GetObjectItemCaseSensitive(nd, "children");
        if (ch && !cJSON_IsArray(ch)) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: node %u: children is not an array", i);
        rd->node_children[i] = ch;
        for (const cJSON *c = first_item(ch); c; c = c->next) {
            uint32_t k;
            if (!index_below(c, n, &k))
                return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: node %u: a child is not a node index below %u", i, n);
            if (k == i) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: node %u is its own child", i);
            if (g->nodes[k].parent != PM_NO_INDEX)
                return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: node %u has two parents (%u and %u)", k, g->nodes[k].parent, i);
            g->nodes[k].parent = i;
        }
    }
    /* breadth-first from the roots: a node never reached sits on a cycle */
    uint32_t head = 0, tail = 0;
    for (uint32_t k = 0; k < n; k++)
        if (g->nodes[k].parent == PM_NO_INDEX) g->order[tail++] = k;
    while (head < tail) {
        uint32_t p = g->order[head++];
        const cJSON *ch = rd->node_children[p];
        for (const cJSON *c = first_item(ch); c; c = c->next) g->order[tail++] = (uint32_t)c->valuedouble;
    }
    if (tail != n) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: the node hierarchy has a cycle (%u of %u nodes reachable)", tail, n);
    return PM_OK;
}

static pm_result read_skins(reader *rd) {
    pm_gltf *g = rd->g;
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(rd->root, "skins");
    uint32_t n = array_size(skins);
    g->skins = pmi_alloc_array(&g->allocator, n, sizeof *g->skins, rd->err, "gltf: skins");
    if (!g->skins) return PM_ERR_OUT_OF_MEMORY;
    g->skin_count = n;
    uint32_t i = 0;
    pm_result r;
    for (const cJSON *s = first_item(skins); s; s = s->next, i++) {
        pm_gltf_skin *sk = &g->skins[i];
        if ((r = intern(rd, s, "name", &sk->name))) return r;
        if ((r = get_index(rd, s, "skeleton", g->node_count, false, &sk->skeleton, "skins", i))) return r;
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(s, "joints");
        if (!cJSON_IsArray(joints)) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: skin %u has no joints array", i);
        sk->joint_count = array_size(joints);
        sk->joints = pmi_alloc_array(&g->allocator, sk->joint_count, sizeof *sk->joints, rd->err, "gltf: skin joints");
        if (!sk->joints) return PM_ERR_OUT_OF_MEMORY;
        uint32_t k = 0;
        for (const cJSON *j = joints->child; j; j = j->next, k++) {
            if (!index_below(j, g->node_count, &sk->joints[k]))
                return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: skin %u joint %u is not a node index", i, k);
        }
    }
    return PM_OK;
}

static pm_result read_channel(reader *rd, const cJSON *ch, uint32_t ai, uint32_t ci, pm_gltf_channel *out, bool *skip) {
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
    pm_result r;
    uint32_t si, node;
    *skip = false;
    if ((r = get_index(rd, ch, "sampler", rd->sampler_count, true, &si, "channels", ci)) ||
        (r = get_index(rd, target, "node", rd->g->node_count, false, &node, "channels", ci)))
        return r;
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
    if (!cJSON_IsString(path)) return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: animation %u channel %u has no target path", ai, ci);
    int comps;
    if (strcmp(path->valuestring, "translation") == 0) out->path = PM_GLTF_TRANSLATION, comps = 3;
    else if (strcmp(path->valuestring, "rotation") == 0) out->path = PM_GLTF_ROTATION, comps = 4;
    else if (strcmp(path->valuestring, "scale") == 0) out->path = PM_GLTF_SCALE, comps = 3;
    else comps = 0; /* weights and extension paths: not needed for joints */
    if (!comps || node == PM_NO_INDEX || rd->g->nodes[node].has_matrix) {
        *skip = true;
        return PM_OK;
    }
    const cJSON *sm = rd->sampler_items[si];
    const cJSON *interp = cJSON_GetObjectItemCaseSensitive(sm, "interpolation");
    out->interpolation = PM_GLTF_LINEAR;
    if (interp) {
        const char *s = cJSON_IsString(interp) ? interp->valuestring : "";
        if (strcmp(s, "LINEAR") == 0) out->interpolation = PM_GLTF_LINEAR;
        else if (strcmp(s, "STEP") == 0) out->interpolation = PM_GLTF_STEP;
        else if (strcmp(s, "CUBICSPLINE") == 0) out->interpolation = PM_GLTF_CUBICSPLINE;
        else return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: animation %u sampler %u: unknown interpolation '%.20s'", ai, si, s);
    }
    uint32_t in_acc, out_acc;
    if ((r = get_index(rd, sm, "input", rd->accessor_count, true, &in_acc, "samplers", si)) ||
        (r = get_index(rd, sm, "output", rd->accessor_count, true, &out_acc, "samplers", si)))
        return r;
    uint32_t keys = 0;
    if ((r = read_accessor(rd, in_acc, 1, false, &keys, &out->times))) return r;
    for (uint32_t k = 0; k < keys; k++)
        if (k && out->times[k] < out->times[k - 1])
            return pmi_fail(rd->err, PM_ERR_BAD_FORMAT, "gltf: animation %u sampler %u: key times go backwards at key %u", ai, si, k);
    if (out->interpolation == PM_GLTF_CUBICSPLINE && keys > UINT32_MAX / 3)
        return pmi_fail(rd->err, PM_ERR_LIMIT, "gltf: animation %u sampler %u has too many keys", ai, si);
    uint32_t values = out->interpolation == PM_GLTF_CUBICSPLINE ? keys * 3 : keys;
    out->key_count = keys;
    out->components = (uint32_t)comps;
    out->node = node;
    if ((r = read_accessor(rd, out_acc, comps, out->path == PM_GLTF_ROTATION, &values, &out->values))) return r;
    return PM_OK;
}

static int by_node(const void *a, const void *b) {
    const pm_gltf_channel *x = a, *y = b;
    if (x->node != y->node) return x->node < y->node ? -1 : 1;
    return x->path < y->path ? -1 : x->path > y->path;
}

static pm_result read_animations(reader *rd) {
    pm_gltf *g = rd->g;
    const cJSON *anims = cJSON_GetObjectItemCaseSensitive(rd->root, "animations");
    uint32_t n = array_size(anims);
    g->animations = pmi_alloc_array(&g->allocator, n, sizeof *g->animations, rd->err, "gltf: animations");
    if (!g->animations) return PM_ERR_OUT_OF_MEMORY;
    g->animation_count = n;
    uint32_t ai = 0;
    pm_result r;
    for (const cJSON *a = first_item(anims); a; a = a->next, ai++) {
        pm_gltf_animation *an = &g->animations[ai];
        if ((r = intern(rd, a, "name", &an->name))) return r;
        const cJSON *chs = cJSON_GetObjectItemCaseSensitive(a, "channels");
        const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(a, "samplers");
        rd->sampler_count = array_size(samplers);
        if (rd->sampler_count > rd->sampler_capacity) {
            pmi_free(&g->allocator, rd->sampler_items);
            rd->sampler_capacity = 0;
            rd->sampler_items = pmi_alloc_array(&g->allocator, rd->sampler_count, sizeof *rd->sampler_items, rd->err,
                                                "gltf: samplers");
            if (!rd->sampler_items) return PM_ERR_OUT_OF_MEMORY;
            rd->sampler_capacity = rd->sampler_count;
        }
        list_items(samplers, rd->sampler_items);
        uint32_t nc = array_size(chs);
        an->channels = pmi_alloc_array(&g->allocator, nc, sizeof *an->channels, rd->err, "gltf: channels");
        if (!an->channels) return PM_ERR_OUT_OF_MEMORY;
        uint32_t ci = 0;
        for (const cJSON *c = first_item(chs); c; c = c->next, ci++) {
            pm_gltf_channel *out = &an->channels[an->channel_count];
            memset(out, 0, sizeof *out);
            bool skip;
            r = read_channel(rd, c, ai, ci, out, &skip);
            if (r) {
                pmi_free(&g->allocator, out->times);
                pmi_free(&g->allocator, out->values);
                return r;
            }
            if (skip) continue;
            an->channel_count++;
            float last = out->times[out->key_count - 1];
            if (last > an->duration) an->duration = last;
        }
        if (an->channel_count > 1) qsort(an->channels, an->channel_count, sizeof *an->channels, by_node);
    }
    return PM_OK;
}

static pm_result read_vrm(reader *rd) {
    pm_gltf *g = rd->g;
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(rd->root, "extensions");
    const cJSON *v1 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ext, "VRMC_vrm"), "humanoid"), "humanBones");
    const cJSON *v0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ext, "VRM"), "humanoid"), "humanBones");
    const cJSON *va = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ext, "VRMC_vrm_animation"), "humanoid"), "humanBones");
    const cJSON *bones = cJSON_IsObject(v1) ? v1 : cJSON_IsArray(v0) ? v0 : cJSON_IsObject(va) ? va : NULL;
    if (!bones) return PM_OK;
    g->vrm_version = bones == v1 ? 2 : bones == v0 ? 1 : 3;
    uint32_t n = (uint32_t)cJSON_GetArraySize(bones);
    g->human_bones = pmi_alloc_array(&g->allocator, n, sizeof *g->human_bones, rd->err, "gltf: VRM humanoid");
    if (!g->human_bones) return PM_ERR_OUT_OF_MEMORY;
    uint32_t i = 0;
    pm_result r;
    for (const cJSON *b = bones->child; b; b = b->next, i++) {
        pm_gltf_human_bone *hb = &g->human_bones[g->human_bone_count];
        uint32_t node;
        if ((r = get_index(rd, b, "node", g->node_count, true, &node, "VRM human bone", i))) return r;
        if ((r = g->vrm_version != 1 ? intern_text(rd, b->string ? b->string : "", &hb->bone)
                                     : intern(rd, b, "bone", &hb->bone)))
            return r;
        hb->node = node;
        g->human_bone_count++;
    }
    return PM_OK;
}

void pm_gltf_free(pm_gltf *g) {
    if (!g || g->magic != PMI_GLTF_MAGIC) return;
    pm_allocator a = g->allocator;
    for (uint32_t i = 0; g->skins && i < g->skin_count; i++) pmi_free(&a, g->skins[i].joints);
    for (uint32_t i = 0; g->animations && i < g->animation_count; i++) {
        for (uint32_t k = 0; k < g->animations[i].channel_count; k++) {
            pmi_free(&a, g->animations[i].channels[k].times);
            pmi_free(&a, g->animations[i].channels[k].values);
        }
        pmi_free(&a, g->animations[i].channels);
    }
    pmi_free(&a, g->skins);
    pmi_free(&a, g->animations);
    pmi_free(&a, g->nodes);
    pmi_free(&a, g->order);
    pmi_free(&a, g->human_bones);
    gltf_internal *in = g->internal;
    if (in) {
        pmi_arena_release(&in->arena);
        pmi_free(&a, in);
    }
    g->magic = 0;
    pmi_free(&a, g);
}

pm_result pm_gltf_read(const uint8_t *data, size_t size, const pm_gltf_read_options *opts, pm_gltf **out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: data is NULL");
    pm_gltf_read_options o = opts ? *opts : (pm_gltf_read_options){0};
    const uint8_t *json = data, *bin = NULL;
    size_t json_size = size, bin_size = 0;
    bool glb = size >= 4 && memcmp(data, "glTF", 4) == 0;
    pm_result r;
    if (glb && (r = pmi_glb_split(data, size, &json, &json_size, &bin, &bin_size, err))) return r;
    if (json_size == 0) return pmi_fail(err, PM_ERR_TRUNCATED, "gltf: empty input");
    pm_result why;
    cJSON *root = pmi_json_parse((const char *)json, json_size, &why);
    if (why == PM_ERR_OUT_OF_MEMORY) return pmi_fail(err, why, "gltf: out of memory parsing the JSON");
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: the %s is not a JSON object", glb ? "GLB JSON chunk" : "file");
    }
    pm_gltf *g = pmi_alloc(&o.allocator, sizeof *g);
    gltf_internal *in = g ? pmi_alloc(&o.allocator, sizeof *in) : NULL;
    if (!in) {
        pmi_free(&o.allocator, g);
        cJSON_Delete(root);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "gltf: out of memory");
    }
    memset(g, 0, sizeof *g);
    memset(in, 0, sizeof *in);
    g->allocator = o.allocator;
    g->magic = PMI_GLTF_MAGIC;
    g->internal = in;
    in->arena.allocator = &g->allocator;
    reader rd = {.g = g, .root = root, .err = err};
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!cJSON_IsString(ver)) r = pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: no asset.version (not a glTF file?)");
    else if (ver->valuestring[0] != '2') r = pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: asset version %.10s is not supported (2.x is)", ver->valuestring);
    else if (!(r = read_buffers(&rd, bin, bin_size, glb)) && !(r = read_nodes(&rd, o.max_nodes ? o.max_nodes : 100000)) &&
             !(r = read_skins(&rd)) && !(r = read_animations(&rd)))
        r = read_vrm(&rd);
    for (uint32_t i = 0; rd.buffers && i < rd.buffer_count; i++) pmi_free(&g->allocator, rd.buffers[i].owned);
    pmi_free(&g->allocator, rd.buffers);
    pmi_free(&g->allocator, rd.views);
    pmi_free(&g->allocator, rd.accessor_items);
    pmi_free(&g->allocator, rd.node_children);
    pmi_free(&g->allocator, rd.sampler_items);
    cJSON_Delete(root);
    if (r) {
        pm_gltf_free(g);
        return r;
    }
    *out = g;
    return PM_OK;
}

/* ---- evaluation ------------------------------------------------------------------------------------------ */

void pm_gltf_sample_channel(const pm_gltf_channel *ch, float t, float *out) {
    uint32_t n = ch->key_count, c = ch->components;
    bool cubic = ch->interpolation == PM_GLTF_CUBICSPLINE;
    /* value of key k (the middle third of a cubic key) */
#define VAL(k) (ch->values + (size_t)(k) * c * (cubic ? 3 : 1) + (cubic ? c : 0))
    if (n == 1 || !(t > ch->times[0])) {
        memcpy(out, VAL(0), c * sizeof(float));
    } else if (t >= ch->times[n - 1]) {
        memcpy(out, VAL(n - 1), c * sizeof(float));
    } else {
        uint32_t lo = 0, hi = n - 1; /* times[lo] < t < times[hi] */
        while (hi - lo > 1) {
            uint32_t m = lo + (hi - lo) / 2;
            if (ch->times[m] <= t) lo = m;
            else hi = m;
        }
        float t0 = ch->times[lo], td = ch->times[hi] - t0;
        float s = td > 0 ? (t - t0) / td : 0;
        const float *a = VAL(lo), *b = VAL(hi);
        if (ch->interpolation == PM_GLTF_STEP) {
            memcpy(out, a, c * sizeof(float));
        } else if (cubic) {
            const float *aout = a + c, *bin = b - c; /* out-tangent of lo, in-tangent of hi */
            float s2 = s * s, s3 = s2 * s;
            float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
            for (uint32_t k = 0; k < c; k++) out[k] = h00 * a[k] + h10 * td * aout[k] + h01 * b[k] + h11 * td * bin[k];
        } else if (ch->path == PM_GLTF_ROTATION) {
            pm_quat q = pm_quat_slerp((pm_quat){a[0], a[1], a[2], a[3]}, (pm_quat){b[0], b[1], b[2], b[3]}, s);
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        } else {
            for (uint32_t k = 0; k < c; k++) out[k] = a[k] + (b[k] - a[k]) * s;
        }
    }
#undef VAL
    if (ch->path == PM_GLTF_ROTATION) {
        pm_quat q = pm_quat_normalize((pm_quat){out[0], out[1], out[2], out[3]});
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
    }
}

pm_result pm_gltf_world_matrices(const pm_gltf *g, uint32_t animation, float time, pm_mat4 *world, pm_error *err) {
    if (!g || !world) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: gltf or world is NULL");
    if (animation != PM_NO_INDEX && animation >= g->animation_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: animation %u of %u", animation, g->animation_count);
    if (!isfinite(time)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: time is not finite");
    /* local transforms into world[] first (rest TRS, then the channels), then compose in order */
    for (uint32_t i = 0; i < g->node_count; i++) {
        const pm_gltf_node *n = &g->nodes[i];
        world[i] = n->has_matrix ? n->matrix : pm_mat4_compose(n->translation, n->rotation, n->scale);
    }
    if (animation != PM_NO_INDEX) {
        /* channels are sorted by node (pm_gltf_read): rebuild each animated node from its TRS once */
        const pm_gltf_animation *an = &g->animations[animation];
        for (uint32_t c = 0; c < an->channel_count;) {
            uint32_t node = an->channels[c].node;
            const pm_gltf_node *n = &g->nodes[node];
            pm_vec3 t = n->translation, s = n->scale;
            pm_quat q = n->rotation;
            for (; c < an->channel_count && an->channels[c].node == node; c++) {
                const pm_gltf_channel *ch = &an->channels[c];
                float v[4];
                pm_gltf_sample_channel(ch, time, v);
                if (ch->path == PM_GLTF_TRANSLATION) t = pmi_vec3_make(v[0], v[1], v[2]);
                else if (ch->path == PM_GLTF_SCALE) s = pmi_vec3_make(v[0], v[1], v[2]);
                else q = (pm_quat){v[0], v[1], v[2], v[3]};
            }
            world[node] = pm_mat4_compose(t, q, s);
        }
    }
    for (uint32_t i = 0; i < g->node_count; i++) {
        uint32_t k = g->order[i];
        uint32_t p = g->nodes[k].parent;
        if (p != PM_NO_INDEX) world[k] = pm_mat4_mul(&world[p], &world[k]);
    }
    return PM_OK;
}
