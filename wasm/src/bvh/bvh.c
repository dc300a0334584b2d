/* BVH reader and forward kinematics (see procmotion/bvh.h). */
#include "procmotion/bvh.h"

#include "common/internal.h"
#include "common/strings.h"
#include "text/utf.h"
#include "math/inline.h"

#include <float.h>
#include <math.h>

#define PMI_BVH_MAGIC 0x31485642u /* "BVH1" */

typedef struct bvh_internal {
    pmi_arena arena;
    uint32_t joint_capacity;
} bvh_internal;

/* ---- lexer ----------------------------------------------------------------------------------- */

typedef struct lexer {
    const char *p, *end;
    uint32_t line; /* 1-based line of p */
} lexer;

typedef struct token {
    const char *s;
    size_t n;
    uint32_t line;
} token;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

static void skip_space(lexer *lx) {
    while (lx->p < lx->end && is_space(*lx->p)) {
        if (*lx->p == '\n') lx->line++;
        lx->p++;
    }
}

/* Next whitespace-separated token; '{' and '}' are tokens of their own. n == 0 at the end. */
static token next_token(lexer *lx) {
    skip_space(lx);
    token t = {lx->p, 0, lx->line};
    if (lx->p >= lx->end) return t;
    if (*lx->p == '{' || *lx->p == '}') {
        lx->p++;
        t.n = 1;
        return t;
    }
    while (lx->p < lx->end && !is_space(*lx->p) && *lx->p != '{' && *lx->p != '}') lx->p++;
    t.n = (size_t)(lx->p - t.s);
    return t;
}

static bool tok_is(token t, const char *word) {
    size_t n = strlen(word);
    return t.n == n && memcmp(t.s, word, n) == 0;
}

/* The rest of the current line, trimmed (a joint name); stops before a '{' on the same line. */
static token rest_of_line(lexer *lx) {
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t')) lx->p++;
    token t = {lx->p, 0, lx->line};
    while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r' && *lx->p != '{') lx->p++;
    const char *e = lx->p;
    while (e > t.s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    t.n = (size_t)(e - t.s);
    return t;
}

/* A short, printable excerpt of a token for messages. */
static int excerpt_len(token t) { return t.n > 32 ? 32 : (int)t.n; }

/* ---- building -------------------------------------------------------------------------------- */

typedef struct parser {
    lexer lx;
    pm_bvh *bvh;
    bvh_internal *in;
    uint32_t max_depth, max_joints, max_frames;
    pm_error *err;
} parser;

static pm_result bad(parser *ps, uint32_t line, const char *what, token t) {
    if (t.n == 0) return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: line %u: the file ends where %s was expected", line, what);
    return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: expected %s, found '%.*s'", line, what, excerpt_len(t), t.s);
}

static pm_result add_joint(parser *ps, const char *name, size_t name_len, uint32_t parent, bool end_site,
                           uint32_t *index) {
    pm_bvh *b = ps->bvh;
    if (b->joint_count >= ps->max_joints)
        return pmi_fail(ps->err, PM_ERR_LIMIT, "bvh: line %u: more than %u joints", ps->lx.line, ps->max_joints);
    uint32_t depth = parent == PM_NO_INDEX ? 0 : b->joints[parent].depth + 1;
    if (depth > ps->max_depth)
        return pmi_fail(ps->err, PM_ERR_LIMIT, "bvh: line %u: joints nested deeper than %u levels", ps->lx.line,
                        ps->max_depth);
    if (b->joint_count == ps->in->joint_capacity) {
        uint32_t cap = ps->in->joint_capacity ? ps->in->joint_capacity * 2 : 32;
        if (cap > ps->max_joints) cap = ps->max_joints;
        pm_bvh_joint *j = pmi_alloc_array(&b->allocator, cap, sizeof *j, ps->err, "bvh: joints");
        if (!j) return PM_ERR_OUT_OF_MEMORY;
        if (b->joint_count) memcpy(j, b->joints, b->joint_count * sizeof *j);
        pmi_free(&b->allocator, b->joints);
        b->joints = j;
        ps->in->joint_capacity = cap;
    }
    size_t stored = 0; /* invalid UTF-8 -> U+FFFD, a NUL ends the name */
    char *copy = pmi_arena_strdup_utf8(&ps->in->arena, name, name_len, &stored);
    if (!copy) return pmi_fail(ps->err, PM_ERR_OUT_OF_MEMORY, "bvh: out of memory for joint names");
    pm_bvh_joint *j = &b->joints[b->joint_count];
    memset(j, 0, sizeof *j);
    j->name.data = copy;
    j->name.length = (uint32_t)stored;
    j->parent = parent;
    j->depth = depth;
    j->end_site = end_site;
    j->first_channel = b->channel_count;
    *index = b->joint_count++;
    return PM_OK;
}

static pm_result read_number(parser *ps, const char *what, double *v) {
    token t = next_token(&ps->lx);
    const char *next = NULL;
    if (t.n == 0 || !pmi_parse_double(t.s, t.s + t.n, v, &next) || next != t.s + t.n) {
        if (t.n && (t.s[0] == 'n' || t.s[0] == 'N' || t.s[0] == 'i' || t.s[0] == 'I' ||
                    ((t.s[0] == '-' || t.s[0] == '+') && t.n > 1 && (t.s[1] == 'n' || t.s[1] == 'N' || t.s[1] == 'i' || t.s[1] == 'I'))))
            return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: %s is '%.*s', not a finite number", t.line, what,
                            excerpt_len(t), t.s);
        return bad(ps, t.line, what, t);
    }
    return PM_OK;
}

static pm_result read_float(parser *ps, const char *what, float *out) {
    double v;
    pm_result r = read_number(ps, what, &v);
    if (r) return r;
    if (fabs(v) > FLT_MAX)
        return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: %s %g is outside the float range", ps->lx.line, what, v);
    *out = (float)v;
    return PM_OK;
}

static int channel_of(token t) {
    static const char *const names[PM_BVH_CHANNEL_COUNT] = {"Xposition", "Yposition", "Zposition",
                                                            "Xrotation", "Yrotation", "Zrotation"};
    for (int i = 0; i < PM_BVH_CHANNEL_COUNT; i++)
        if (tok_is(t, names[i])) return i;
    return -1;
}

static pm_result parse_channels(parser *ps, uint32_t joint) {
    pm_bvh_joint *j = &ps->bvh->joints[joint];
    uint32_t line = ps->lx.line;
    if (j->end_site) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: an End Site cannot have CHANNELS", line);
    if (j->channel_count) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: joint '%s' has two CHANNELS lines", line, j->name.data);
    double n;
    pm_result r = read_number(ps, "the channel count", &n);
    if (r) return r;
    if (n < 0 || n > 6 || n != floor(n))
        return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: channel count %g is not 0..6", line, n);
    unsigned seen = 0;
    for (uint32_t i = 0; i < (uint32_t)n; i++) {
        token t = next_token(&ps->lx);
        int c = channel_of(t);
        if (c < 0) return bad(ps, t.line, "a channel name (Xposition .. Zrotation)", t);
        if (seen & (1u << c))
            return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: channel '%.*s' repeated", t.line, excerpt_len(t), t.s);
        seen |= 1u << c;
        j->channels[i] = (uint8_t)c;
    }
    j->channel_count = (uint32_t)n;
    j->first_channel = ps->bvh->channel_count;
    ps->bvh->channel_count += (uint32_t)n;
    return PM_OK;
}

static pm_result parse_hierarchy(parser *ps) {
    lexer *lx = &ps->lx;
    pm_bvh *b = ps->bvh;
    token t = next_token(lx);
    if (!tok_is(t, "HIERARCHY")) {
        if (t.n == 0) return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: empty file (no HIERARCHY)");
        return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: not a BVH file (it does not start with HIERARCHY)");
    }
    uint32_t current = PM_NO_INDEX;
    bool root_done = false;
    pm_result r;
    for (;;) {
        t = next_token(lx);
        if (t.n == 0) {
            if (!b->joint_count) return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: the file ends before ROOT");
            if (current != PM_NO_INDEX)
                return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: the file ends inside joint '%s' (missing '}')",
                                b->joints[current].name.data);
            return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: the file ends before MOTION");
        }
        bool is_root = tok_is(t, "ROOT"), is_joint = tok_is(t, "JOINT"), is_end = tok_is(t, "End");
        if (is_root || is_joint || is_end) {
            uint32_t line = t.line;
            if (is_root && (current != PM_NO_INDEX || root_done))
                return pmi_fail(ps->err, PM_ERR_BAD_FORMAT,
                                current != PM_NO_INDEX ? "bvh: line %u: ROOT inside a joint"
                                                       : "bvh: line %u: a second ROOT (only one skeleton per file is supported)",
                                line);
            if (!is_root && current == PM_NO_INDEX)
                return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: '%.*s' outside ROOT", line, excerpt_len(t), t.s);
            if (!is_root && b->joints[current].end_site)
                return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: an End Site cannot have children", line);
            uint32_t idx;
            if (is_end) {
                token site = next_token(lx);
                if (!tok_is(site, "Site")) return bad(ps, site.line, "'Site' after 'End'", site);
                const pm_string *pn = &b->joints[current].name;
                char name[96];
                size_t n = pmi_format(name, sizeof name, "%.*s_End", pn->length > 80 ? 80 : (int)pn->length, pn->data);
                if (n >= sizeof name) n = sizeof name - 1;
                r = add_joint(ps, name, n, current, true, &idx);
            } else {
                token name = rest_of_line(lx);
                if (name.n == 0) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: %s without a name", line, is_root ? "ROOT" : "JOINT");
                if (name.n > 1024) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: a joint name longer than 1024 bytes", line);
                r = add_joint(ps, name.s, name.n, current, false, &idx);
            }
            if (r) return r;
            token brace = next_token(lx);
            if (!tok_is(brace, "{")) return bad(ps, brace.line, "'{'", brace);
            current = idx;
        } else if (tok_is(t, "OFFSET")) {
            if (current == PM_NO_INDEX) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: OFFSET outside a joint", t.line);
            pm_vec3 *o = &b->joints[current].offset;
            if ((r = read_float(ps, "OFFSET x", &o->x)) || (r = read_float(ps, "OFFSET y", &o->y)) ||
                (r = read_float(ps, "OFFSET z", &o->z)))
                return r;
        } else if (tok_is(t, "CHANNELS")) {
            if (current == PM_NO_INDEX) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: CHANNELS outside a joint", t.line);
            if ((r = parse_channels(ps, current))) return r;
        } else if (tok_is(t, "}")) {
            if (current == PM_NO_INDEX) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: '}' without a joint", t.line);
            current = b->joints[current].parent;
            if (current == PM_NO_INDEX) root_done = true;
        } else if (tok_is(t, "MOTION")) {
            if (current != PM_NO_INDEX)
                return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: MOTION inside joint '%s' (missing '}')", t.line,
                                b->joints[current].name.data);
            if (!root_done) return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: MOTION before any ROOT", t.line);
            return PM_OK;
        } else {
            return bad(ps, t.line, "ROOT, JOINT, End Site, OFFSET, CHANNELS, '}' or MOTION", t);
        }
    }
}

static pm_result parse_motion(parser *ps) {
    lexer *lx = &ps->lx;
    pm_bvh *b = ps->bvh;
    pm_result r;
    token t = next_token(lx);
    double frames;
    if (t.n > 7 && memcmp(t.s, "Frames:", 7) == 0) { /* "Frames:994" */
        const char *next = NULL;
        if (!pmi_parse_double(t.s + 7, t.s + t.n, &frames, &next) || next != t.s + t.n) return bad(ps, t.line, "a frame count", t);
    } else {
        if (!tok_is(t, "Frames:")) return bad(ps, t.line, "'Frames:'", t);
        if ((r = read_number(ps, "the frame count", &frames))) return r;
    }
    if (frames < 0 || frames != floor(frames))
        return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: frame count %g is not a whole number", t.line, frames);
    if (frames > ps->max_frames)
        return pmi_fail(ps->err, PM_ERR_LIMIT, "bvh: line %u: %g frames exceed the limit of %u", t.line, frames, ps->max_frames);
    t = next_token(lx);
    if (!tok_is(t, "Frame")) return bad(ps, t.line, "'Frame Time:'", t);
    t = next_token(lx);
    double ft;
    if (t.n > 5 && memcmp(t.s, "Time:", 5) == 0) {
        const char *next = NULL;
        if (!pmi_parse_double(t.s + 5, t.s + t.n, &ft, &next) || next != t.s + t.n) return bad(ps, t.line, "a frame time", t);
    } else {
        if (!tok_is(t, "Time:")) return bad(ps, t.line, "'Time:'", t);
        if ((r = read_number(ps, "the frame time", &ft))) return r;
    }
    if (!(ft > 0))
        return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: frame time %g is not positive", t.line, ft);
    b->frame_time = ft;
    uint32_t nf = (uint32_t)frames;
    /* every value needs at least one character and one separator */
    size_t left = (size_t)(lx->end - lx->p);
    if (b->channel_count && (uint64_t)nf * b->channel_count > left / 2 + 1)
        return pmi_fail(ps->err, PM_ERR_TRUNCATED,
                        "bvh: %u frames of %u channels announced but only %zu bytes of motion data follow", nf,
                        b->channel_count, left);
    b->motion = pmi_alloc_array(&b->allocator, (size_t)nf * b->channel_count, sizeof(float), ps->err, "bvh: motion");
    if (!b->motion) return PM_ERR_OUT_OF_MEMORY;
    b->frame_count = nf;
    float *m = b->motion;
    for (uint32_t f = 0; f < nf; f++) {
        for (uint32_t c = 0; c < b->channel_count; c++) {
            skip_space(lx);
            if (lx->p >= lx->end)
                return pmi_fail(ps->err, PM_ERR_TRUNCATED, "bvh: the motion ends in frame %u of %u (value %u of %u)", f + 1,
                                nf, c + 1, b->channel_count);
            double v;
            if ((r = read_number(ps, "a motion value", &v))) return r;
            if (fabs(v) > FLT_MAX)
                return pmi_fail(ps->err, PM_ERR_BAD_FORMAT, "bvh: line %u: motion value %g is outside the float range",
                                lx->line, v);
            *m++ = (float)v;
        }
    }
    return PM_OK;
}

void pm_bvh_free(pm_bvh *bvh) {
    if (!bvh || bvh->magic != PMI_BVH_MAGIC) return;
    pm_allocator a = bvh->allocator;
    bvh_internal *in = bvh->internal;
    if (in) {
        pmi_arena_release(&in->arena);
        pmi_free(&a, in);
    }
    pmi_free(&a, bvh->joints);
    pmi_free(&a, bvh->motion);
    bvh->magic = 0;
    pmi_free(&a, bvh);
}

pm_result pm_bvh_read(const uint8_t *data, size_t size, const pm_bvh_read_options *opts, pm_bvh **out,
                      pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: data is NULL");
    pm_bvh_read_options o = opts ? *opts : (pm_bvh_read_options){0};
    pm_bvh *b = pmi_alloc(&o.allocator, sizeof *b);
    if (!b) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "bvh: out of memory");
    memset(b, 0, sizeof *b);
    b->allocator = o.allocator;
    b->magic = PMI_BVH_MAGIC;
    bvh_internal *in = pmi_alloc(&b->allocator, sizeof *in);
    if (!in) {
        pmi_free(&b->allocator, b);
        return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "bvh: out of memory");
    }
    memset(in, 0, sizeof *in);
    in->arena.allocator = &b->allocator;
    b->internal = in;
    const char *text = (const char *)data;
    size_t n = size;
    if (n >= 3 && (uint8_t)text[0] == 0xEF && (uint8_t)text[1] == 0xBB && (uint8_t)text[2] == 0xBF) text += 3, n -= 3;
    parser ps = {{text, text + n, 1}, b, in, o.max_depth ? o.max_depth : 256, o.max_joints ? o.max_joints : 10000,
                 o.max_frames ? o.max_frames : 10000000, err};
    pm_result r = parse_hierarchy(&ps);
    if (r == PM_OK) r = parse_motion(&ps);
    if (r) {
        pm_bvh_free(b);
        return r;
    }
    *out = b;
    return PM_OK;
}

uint32_t pm_bvh_find(const pm_bvh *bvh, const char *name) {
    if (!bvh || !name) return PM_NO_INDEX;
    for (uint32_t i = 0; i < bvh->joint_count; i++)
        if (strcmp(bvh->joints[i].name.data, name) == 0) return i;
    return PM_NO_INDEX;
}

/* ---- forward kinematics ---------------------------------------------------------------------- */

static void joint_local(const pm_bvh *b, uint32_t j, const float *row, pm_vec3 *t, pm_quat *q) {
    const pm_bvh_joint *jt = &b->joints[j];
    pm_vec3 p = jt->offset;
    pm_quat r = pmi_quat_identity();
    for (uint32_t c = 0; c < jt->channel_count; c++) {
        float v = row ? row[jt->first_channel + c] : 0.0f;
        switch (jt->channels[c]) {
        case PM_BVH_XPOSITION: p.x += v; break;
        case PM_BVH_YPOSITION: p.y += v; break;
        case PM_BVH_ZPOSITION: p.z += v; break;
        default: {
            int axis = jt->channels[c] - PM_BVH_XROTATION;
            pm_vec3 ax = pmi_vec3_make(axis == 0, axis == 1, axis == 2);
            r = pm_quat_mul(r, pm_quat_from_axis_angle(ax, (float)(v * (PM_PI / 180.0))));
        }
        }
    }
    *t = p;
    *q = pm_quat_normalize(r);
}

static const float *frame_row(const pm_bvh *b, uint32_t frame) {
    if (frame >= b->frame_count || !b->motion) return NULL;
    return b->motion + (size_t)frame * b->channel_count;
}

void pm_bvh_local_pose(const pm_bvh *bvh, uint32_t frame, pm_vec3 *translation, pm_quat *rotation) {
    if (!bvh) return;
    const float *row = frame_row(bvh, frame);
    for (uint32_t j = 0; j < bvh->joint_count; j++) {
        pm_vec3 t;
        pm_quat q;
        joint_local(bvh, j, row, &t, &q);
        if (translation) translation[j] = t;
        if (rotation) rotation[j] = q;
    }
}

static void compose_world(const pm_bvh *b, uint32_t j, pm_vec3 t, pm_quat q, pm_mat4 *world) {
    pm_mat4 local = pm_mat4_from_rotation_translation(q, t);
    uint32_t p = b->joints[j].parent;
    world[j] = p == PM_NO_INDEX ? local : pm_mat4_mul(&world[p], &local);
}

pm_result pm_bvh_world_matrices(const pm_bvh *bvh, uint32_t frame, pm_mat4 *world, pm_error *err) {
    if (!bvh || !world) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: bvh or world is NULL");
    if (frame >= bvh->frame_count && !(frame == 0 && bvh->frame_count == 0))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: frame %u is past the last frame (%u frames)", frame,
                        bvh->frame_count);
    const float *row = frame_row(bvh, frame);
    for (uint32_t j = 0; j < bvh->joint_count; j++) {
        pm_vec3 t;
        pm_quat q;
        joint_local(bvh, j, row, &t, &q);
        compose_world(bvh, j, t, q, world);
    }
    return PM_OK;
}

pm_result pm_bvh_sample(const pm_bvh *bvh, double time, pm_mat4 *world, pm_error *err) {
    if (!bvh || !world) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: bvh or world is NULL");
    if (!isfinite(time)) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "bvh: time is not finite");
    if (bvh->frame_count <= 1) return pm_bvh_world_matrices(bvh, 0, world, err);
    double f = time / bvh->frame_time;
    double last = (double)(bvh->frame_count - 1);
    if (!(f > 0)) f = 0;
    if (f > last) f = last;
    uint32_t f0 = (uint32_t)f;
    if (f0 >= bvh->frame_count - 1) f0 = bvh->frame_count - 2;
    float a = (float)(f - f0);
    const float *r0 = frame_row(bvh, f0), *r1 = frame_row(bvh, f0 + 1);
    for (uint32_t j = 0; j < bvh->joint_count; j++) {
        pm_vec3 t0, t1;
        pm_quat q0, q1;
        joint_local(bvh, j, r0, &t0, &q0);
        joint_local(bvh, j, r1, &t1, &q1);
        compose_world(bvh, j, pmi_vec3_lerp(t0, t1, a), pm_quat_slerp(q0, q1, a), world);
    }
    return PM_OK;
}
