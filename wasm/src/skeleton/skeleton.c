/* pm_skeleton: construction, validation and lookup (see procmotion/skeleton.h). */
#include "skeleton/build.h"

#include <stdarg.h>
#include "common/strings.h"
#include "text/utf.h"
#include "procmotion/text.h"

#include <math.h>

/* ---- arena ------------------------------------------------------------------------------------ */

/* A text kept with the bytes its file stored (only texts whose UTF-8 does not give them back). */
typedef struct pmi_raw_text {
    struct pmi_raw_text *next;
    const pm_string *owner; /* where the text lives in the skeleton */
    const char *decoded;    /* owner->data when it was read: a replaced string is not the same text */
    uint32_t decoded_length;
    uint32_t size;
    uint8_t encoding;
    uint8_t bytes[];
} pmi_raw_text;

typedef struct pmi_skeleton_internal {
    pmi_arena arena;   /* names, IK links, morph panels, raw texts */
    pmi_raw_text *raw; /* newest first */
} pmi_skeleton_internal;

pm_result pmi_skeleton_keep_raw(pm_skeleton *s, const pm_string *owner, uint8_t encoding, const uint8_t *bytes,
                                size_t size, pm_error *err) {
    if (size > UINT32_MAX - sizeof(pmi_raw_text))
        return pmi_fail(err, PM_ERR_LIMIT, "skeleton: a text of %zu bytes is too long", size);
    pmi_raw_text *t = pmi_skeleton_arena_alloc(s, sizeof *t + size, err);
    if (!t) return PM_ERR_OUT_OF_MEMORY;
    pmi_skeleton_internal *in = s->internal;
    t->owner = owner;
    t->decoded = owner->data;
    t->decoded_length = owner->length;
    t->size = (uint32_t)size;
    t->encoding = encoding;
    if (size) memcpy(t->bytes, bytes, size);
    t->next = in->raw;
    in->raw = t;
    return PM_OK;
}

const uint8_t *pmi_skeleton_raw(const pm_skeleton *s, const pm_string *owner, uint8_t *encoding, size_t *size) {
    const pmi_skeleton_internal *in = s && s->magic == PMI_SKELETON_MAGIC ? s->internal : NULL;
    for (const pmi_raw_text *t = in ? in->raw : NULL; t; t = t->next)
        if (t->owner == owner) {
            if (owner->data != t->decoded || owner->length != t->decoded_length) return NULL;
            if (encoding) *encoding = t->encoding;
            if (size) *size = t->size;
            return t->bytes;
        }
    return NULL;
}

void *pmi_skeleton_arena_alloc(pm_skeleton *s, size_t size, pm_error *err) {
    pmi_skeleton_internal *in = s->internal;
    void *p = pmi_arena_alloc(&in->arena, size);
    if (!p) pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "skeleton: out of memory allocating %zu bytes", size);
    return p;
}

pm_result pmi_skeleton_string_buffer(pm_skeleton *s, pm_string *dst, size_t len, char **buf, pm_error *err) {
    *buf = NULL;
    if (len >= UINT32_MAX) return pmi_fail(err, PM_ERR_LIMIT, "skeleton: a name of %zu bytes is too long", len);
    char *p = pmi_skeleton_arena_alloc(s, len + 1, err);
    if (!p) return PM_ERR_OUT_OF_MEMORY;
    dst->data = p;
    dst->length = (uint32_t)len;
    *buf = p;
    return PM_OK;
}

/* Names from callers (pm_skeleton_create, skeleton JSON) may hold invalid UTF-8: store it with U+FFFD
 * for every invalid sequence, as the model readers do. */
pm_result pmi_skeleton_set_string(pm_skeleton *s, pm_string *dst, const char *utf8, size_t len, pm_error *err) {
    char *p;
    size_t n = pmi_utf8_sanitize((const uint8_t *)utf8, len, NULL, 0);
    pm_result r = pmi_skeleton_string_buffer(s, dst, n, &p, err);
    if (r == PM_OK && n) pmi_utf8_sanitize((const uint8_t *)utf8, len, p, n);
    return r;
}

pm_result pmi_skeleton_warn(pm_skeleton *s, pm_error *err, const char *fmt, ...) {
    if (s->source.warning_count++ >= PM_MODEL_MAX_WARNINGS) return PM_OK;
    char text[PM_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    pmi_vformat(text, sizeof text, fmt, ap);
    va_end(ap);
    return pmi_skeleton_set_string(s, &s->source.warnings[s->source.warning_count - 1], text, strlen(text), err);
}

static const pm_string empty_string = {"", 0};

pm_skeleton *pmi_skeleton_new(const pm_allocator *allocator, uint32_t bone_count, uint32_t morph_count,
                              pm_error *err) {
    pm_allocator a = {0};
    if (allocator) a = *allocator;
    pm_skeleton *s = pmi_alloc_array(&a, 1, sizeof *s, err, "skeleton");
    if (!s) return NULL;
    s->allocator = a;
    s->magic = PMI_SKELETON_MAGIC;
    s->model_name = s->model_name_en = empty_string;
    s->source.model_comment = s->source.model_comment_en = empty_string;
    pmi_skeleton_internal *in = pmi_alloc_array(&a, 1, sizeof *in, err, "skeleton");
    if (in) {
        in->arena.allocator = &s->allocator;
        in->arena.chunk_size = 16384;
    }
    s->internal = in;
    s->bones = s->internal ? pmi_alloc_array(&a, bone_count, sizeof(pm_bone), err, "skeleton bones") : NULL;
    s->morph_names = s->bones ? pmi_alloc_array(&a, morph_count, sizeof(pm_string), err, "skeleton morphs") : NULL;
    if (!s->morph_names) {
        pm_skeleton_free(s);
        return NULL;
    }
    s->bone_count = bone_count;
    s->morph_count = morph_count;
    for (uint32_t i = 0; i < bone_count; i++) {
        pm_bone *b = &s->bones[i];
        b->name = b->name_en = empty_string;
        b->parent = b->tail_bone = b->append_parent = b->ik.target = PM_NO_INDEX;
    }
    for (uint32_t i = 0; i < morph_count; i++) s->morph_names[i] = empty_string;
    return s;
}

pm_result pmi_skeleton_set_morph_count(pm_skeleton *s, uint32_t count, bool with_panels, pm_error *err) {
    pm_string *names = pmi_alloc_array(&s->allocator, count, sizeof(pm_string), err, "skeleton morphs");
    if (!names) return PM_ERR_OUT_OF_MEMORY;
    uint8_t *panels = NULL;
    if (with_panels && !(panels = pmi_skeleton_arena_alloc(s, count ? count : 1, err))) {
        pmi_free(&s->allocator, names);
        return PM_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < count; i++) names[i] = empty_string;
    pmi_free(&s->allocator, s->morph_names);
    s->morph_names = names;
    s->morph_count = count;
    s->morph_panel = panels;
    return PM_OK;
}

void pm_skeleton_free(pm_skeleton *s) {
    if (!s || s->magic != PMI_SKELETON_MAGIC) return;
    pm_allocator a = s->allocator;
    pmi_skeleton_internal *in = s->internal;
    if (in) {
        pmi_arena_release(&in->arena);
        pmi_free(&a, in);
    }
    pmi_free(&a, s->bones);
    pmi_free(&a, s->morph_names);
    s->magic = 0;
    pmi_free(&a, s);
}

/* ---- create ----------------------------------------------------------------------------------- */

pm_result pm_skeleton_create(const pm_bone_desc *bones, uint32_t bone_count, const char *const *morph_names,
                             uint32_t morph_count, const pm_allocator *allocator, pm_skeleton **out,
                             pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: out is NULL");
    *out = NULL;
    if (bone_count && !bones) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bones is NULL");
    if (morph_count && !morph_names)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: morph_names is NULL");
    for (uint32_t i = 0; i < bone_count; i++) {
        if (!bones[i].name) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone %u has no name", i);
        if (bones[i].has_ik && bones[i].ik.link_count && !bones[i].ik.links)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone %u has %u IK links but links is NULL", i,
                            bones[i].ik.link_count);
    }
    for (uint32_t i = 0; i < morph_count; i++)
        if (!morph_names[i]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: morph name %u is NULL", i);

    pm_skeleton *s = pmi_skeleton_new(allocator, bone_count, morph_count, err);
    if (!s) return PM_ERR_OUT_OF_MEMORY;
    pm_result r = PM_OK;
    for (uint32_t i = 0; i < bone_count && r == PM_OK; i++) {
        const pm_bone_desc *d = &bones[i];
        pm_bone *b = &s->bones[i];
        r = pmi_skeleton_set_string(s, &b->name, d->name, strlen(d->name), err);
        if (r == PM_OK && d->name_en) r = pmi_skeleton_set_string(s, &b->name_en, d->name_en, strlen(d->name_en), err);
        if (r != PM_OK) break;
        b->position = d->position;
        b->parent = d->parent;
        b->transform_order = d->transform_order;
        if (d->flags & PM_BONE_EXACT_FLAGS) b->flags = d->flags & ~PM_BONE_EXACT_FLAGS;
        else b->flags = d->flags ? d->flags : (PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED);
        const uint32_t append_flags = PM_BONE_APPEND_ROTATE | PM_BONE_APPEND_TRANSLATE;
        bool append = (b->flags & append_flags) ||
                      (d->append_parent != PM_NO_INDEX && !(d->append_parent == 0 && d->append_ratio == 0.0f));
        if (append) {
            b->append_parent = d->append_parent;
            b->append_ratio = d->append_ratio;
            if (!(b->flags & append_flags)) b->flags |= PM_BONE_APPEND_ROTATE;
        } else if (!(d->flags & PM_BONE_EXACT_FLAGS)) {
            b->flags &= ~(uint32_t)PM_BONE_LOCAL_APPEND;
        }
        if (b->flags & PM_BONE_TAIL_IS_BONE) b->tail_bone = d->tail_bone;
        else b->tail_offset = d->tail_offset;
        if (b->flags & PM_BONE_FIXED_AXIS) b->fixed_axis = d->fixed_axis;
        if (b->flags & PM_BONE_LOCAL_AXES) b->local_x = d->local_x, b->local_z = d->local_z;
        if (b->flags & PM_BONE_EXTERNAL_PARENT) b->external_parent_key = d->external_parent_key;
        if (d->has_ik) {
            b->flags |= PM_BONE_IK;
            b->has_ik = true;
            b->ik = d->ik;
            b->ik.links = NULL;
            if (d->ik.link_count) {
                if ((uint64_t)d->ik.link_count * sizeof(pm_ik_link) > SIZE_MAX / 2) {
                    r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "skeleton: bone %u: too many IK links", i);
                    break;
                }
                b->ik.links = pmi_skeleton_arena_alloc(s, d->ik.link_count * sizeof(pm_ik_link), err);
                if (!b->ik.links) {
                    r = PM_ERR_OUT_OF_MEMORY;
                    break;
                }
                memcpy(b->ik.links, d->ik.links, d->ik.link_count * sizeof(pm_ik_link));
            }
        } else {
            b->flags &= ~(uint32_t)PM_BONE_IK;
        }
    }
    for (uint32_t i = 0; i < morph_count && r == PM_OK; i++)
        r = pmi_skeleton_set_string(s, &s->morph_names[i], morph_names[i], strlen(morph_names[i]), err);
    if (r == PM_OK) r = pm_skeleton_validate(s, err);
    if (r != PM_OK) {
        pm_skeleton_free(s);
        return r;
    }
    *out = s;
    return PM_OK;
}

pm_result pm_skeleton_bone_desc(const pm_skeleton *s, uint32_t index, pm_bone_desc *out, pm_error *err) {
    if (!s || s->magic != PMI_SKELETON_MAGIC || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone_desc needs a skeleton and an output");
    if (index >= s->bone_count)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone %u is out of range (%u bones)", index, s->bone_count);
    const pm_bone *b = &s->bones[index];
    memset(out, 0, sizeof *out);
    out->name = b->name.data;
    out->name_en = b->name_en.length ? b->name_en.data : NULL;
    out->position = b->position;
    out->parent = b->parent;
    out->flags = b->flags | PM_BONE_EXACT_FLAGS; /* a bone without any flag stays without */
    out->transform_order = b->transform_order;
    out->append_parent = b->append_parent;
    out->append_ratio = b->append_ratio;
    out->has_ik = b->has_ik;
    out->ik = b->ik;
    out->tail_offset = b->tail_offset;
    out->tail_bone = b->tail_bone;
    out->fixed_axis = b->fixed_axis;
    out->local_x = b->local_x;
    out->local_z = b->local_z;
    out->external_parent_key = b->external_parent_key;
    return PM_OK;
}

/* ---- validate --------------------------------------------------------------------------------- */

/* A bone's name for messages: at most ~48 bytes, cut at a character boundary. */
static const char *display_name(const pm_bone *b, char buf[64]) {
    size_t i = 0;
    const char *s = b->name.data ? b->name.data : "";
    size_t len = b->name.data ? b->name.length : 0;
    while (i < len) {
        size_t j = i;
        pmi_utf8_next(s, len, &j);
        if (j > 48) break;
        i = j;
    }
    memcpy(buf, s, i);
    buf[i] = 0;
    return buf;
}

static bool finite3(pm_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* "skeleton: bone <i> (<name>)<what>", what formatted with a, b, c (the ones it names): one call
 * sequence for every bone message instead of one per check. */
static pm_result bone_fail(pm_error *err, const pm_skeleton *s, uint32_t i, const char *what, uint32_t a, uint32_t b,
                           uint32_t c) {
    char nb[64], msg[PM_ERROR_MESSAGE_SIZE];
    pmi_format(msg, sizeof msg, what, a, b, c);
    return pmi_fail(err, PM_ERR_BAD_FORMAT, "skeleton: bone %u (%s)%s", i, display_name(&s->bones[i], nb), msg);
}

static pm_result bad_index(pm_error *err, const pm_skeleton *s, uint32_t i, const char *what, uint32_t value) {
    return bone_fail(err, s, i, what, value, s->bone_count, 0);
}

pm_result pm_skeleton_validate(const pm_skeleton *s, pm_error *err) {
    if (!s || s->magic != PMI_SKELETON_MAGIC)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: not a skeleton (NULL or freed)");
    if (s->bone_count && !s->bones) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bones is NULL");
    uint32_t n = s->bone_count;
    for (uint32_t i = 0; i < n; i++) {
        const pm_bone *b = &s->bones[i];
        if (!b->name.data) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone %u has no name", i);
        /* the tail offset and the local axes are display-only (nothing poses with them): a reader keeps
         * what the file holds there, finite or not, and says so in its warnings */
        if (!finite3(b->position) || !finite3(b->fixed_axis) || !isfinite(b->append_ratio))
            return bone_fail(err, s, i, " has a NaN or infinite value", 0, 0, 0);
        if (b->parent != PM_NO_INDEX && b->parent >= n) return bad_index(err, s, i, ": parent %u is out of range (%u bones)", b->parent);
        if (b->tail_bone != PM_NO_INDEX && b->tail_bone >= n) return bad_index(err, s, i, ": tail bone %u is out of range (%u bones)", b->tail_bone);
        if (b->append_parent != PM_NO_INDEX && b->append_parent >= n)
            return bad_index(err, s, i, ": append parent %u is out of range (%u bones)", b->append_parent);
        if (b->append_parent == i)
            return bone_fail(err, s, i, " appends its own rotation", 0, 0, 0);
        if (b->has_ik != ((b->flags & PM_BONE_IK) != 0))
            return bone_fail(err, s, i, ": has_ik disagrees with the IK flag", 0, 0, 0);
        if (!b->has_ik) continue;
        const pm_ik *ik = &b->ik;
        if (ik->target != PM_NO_INDEX && ik->target >= n) return bad_index(err, s, i, ": IK target %u is out of range (%u bones)", ik->target);
        if (ik->target == i)
            return bone_fail(err, s, i, ": IK chain names itself as its target", 0, 0, 0);
        if (!isfinite(ik->limit_angle))
            return bone_fail(err, s, i, ": IK limit angle is not finite", 0, 0, 0);
        if (ik->link_count && !ik->links)
            return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "skeleton: bone %u: IK links is NULL", i);
        for (uint32_t k = 0; k < ik->link_count; k++) {
            const pm_ik_link *l = &ik->links[k];
            if (l->bone >= n)
                return bone_fail(err, s, i, ": IK link %u refers to bone %u (%u bones)", k, l->bone, n);
            if (l->bone == i)
                return bone_fail(err, s, i, ": IK link %u names the IK bone itself", k, 0, 0);
            if (l->has_limit && (!finite3(l->limit_min) || !finite3(l->limit_max)))
                return bone_fail(err, s, i, ": IK link %u has a non-finite limit", k, 0, 0);
        }
    }
    /* Parent cycles: walk up from every bone, marking the path in progress (1) and then done (2);
     * meeting a bone in progress means the walk came back to itself. O(n) overall. */
    if (n == 0) return PM_OK;
    uint8_t *state = pmi_alloc_array(&s->allocator, n, 1, err, "skeleton validation");
    if (!state) return PM_ERR_OUT_OF_MEMORY;
    pm_result r = PM_OK;
    for (uint32_t i = 0; i < n && r == PM_OK; i++) {
        uint32_t j = i;
        while (j != PM_NO_INDEX && state[j] == 0) {
            state[j] = 1;
            j = s->bones[j].parent;
        }
        if (j != PM_NO_INDEX && state[j] == 1)
            r = bone_fail(err, s, j, " is its own ancestor (parent cycle)", 0, 0, 0);
        for (j = i; j != PM_NO_INDEX && state[j] == 1; j = s->bones[j].parent) state[j] = 2;
    }
    pmi_free(&s->allocator, state);
    return r;
}

/* ---- lookup ----------------------------------------------------------------------------------- */

uint32_t pm_skeleton_find(const pm_skeleton *s, const char *name) {
    if (!s || !name) return PM_NO_INDEX;
    size_t len = strlen(name);
    for (uint32_t i = 0; i < s->bone_count; i++)
        if (s->bones[i].name.length == len && memcmp(s->bones[i].name.data, name, len) == 0) return i;
    return PM_NO_INDEX;
}

uint32_t pm_skeleton_find_mmd(const pm_skeleton *s, const char *name) {
    uint32_t exact = pm_skeleton_find(s, name);
    if (exact != PM_NO_INDEX || !s || !name) return exact;
    size_t len = strlen(name);
    for (uint32_t i = 0; i < s->bone_count; i++)
        if (pm_names_equal(s->bones[i].name.data, s->bones[i].name.length, name, len)) return i;
    return PM_NO_INDEX;
}
