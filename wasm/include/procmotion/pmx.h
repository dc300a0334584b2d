/*
 * procmotion/pmx.h -- read PMX 2.0/2.1 and PMD model files into a pm_skeleton; write PMX 2.0.
 *
 * USAGE
 *       pm_skeleton *sk = NULL;
 *       pm_error err = {0};
 *       if (pm_model_read(bytes, size, NULL, &sk, &err) != PM_OK) puts(err.message);
 *       uint32_t knee = pm_skeleton_find_mmd(sk, "左ひざ");
 *       pm_skeleton_free(sk);
 *
 *   pm_model_read looks at the magic ("PMX " or "Pmd") and calls pm_pmx_read or pm_pmd_read.
 *
 * WHAT IS READ (PMX)
 *   header (magic, version 2.0 or 2.1, the globals: text encoding 0 = UTF-16LE / 1 = UTF-8,
 *   additional UV count 0..4, six index sizes each 1, 2 or 4), model name, English name, comment
 *   and English comment; vertices, faces, textures and materials are walked record by record and
 *   checked but not kept (only their counts land in skeleton->source); then every bone field of
 *   skeleton.h (IK links with angle limits included) and the morph names with their panels. Morph
 *   bodies are skipped by their type-specific sizes (types 0..10: group, vertex, bone, UV, extra
 *   UV 1-4, material, and the 2.1 flip and impulse morphs). Display frames, rigid bodies, joints
 *   and 2.1 soft bodies after the morphs are not read.
 *
 * WHAT IS CHECKED (failures name the section and the element, e.g. "pmx: bone 12 of 114: ...")
 *   - every count is read as a signed 32-bit value; a negative count is PM_ERR_BAD_FORMAT and a
 *     count larger than the bytes left could hold (count * smallest record) is PM_ERR_TRUNCATED,
 *     both before anything is allocated. Bone counts above max_bones are PM_ERR_LIMIT;
 *   - data ending inside any record is PM_ERR_TRUNCATED;
 *   - vertex indices of size 1 and 2 are unsigned (0..255, 0..65535), of size 4 signed and >= 0;
 *     bone, texture, material, morph and rigid-body indices are signed with -1 meaning none
 *     (stored as PM_NO_INDEX); any other negative index is PM_ERR_BAD_FORMAT;
 *   - weight types BDEF1, BDEF2, BDEF4, SDEF and QDEF (QDEF only in 2.1), the bones a vertex
 *     names (< bone count, checked once the bones are read), face indices < vertex count and a
 *     multiple of 3, material texture indices, sphere mode 0..3, toon flag 0/1, the sum of
 *     material face counts <= the face indices, morph types 0..10, extra-UV morphs only up to the
 *     declared additional UV count, morph offsets' vertex, bone, material and morph indices;
 *   - the skeleton invariants of skeleton.h (pm_skeleton_validate): indices in range, no parent
 *     cycles, no IK chain naming its own bone, finite values;
 *   - text: UTF-16LE with an unpaired surrogate or an odd trailing byte, and invalid UTF-8, decode
 *     to U+FFFD (like TextDecoder); a text length larger than the bytes left is PM_ERR_TRUNCATED; a
 *     NUL character ends the text (as in PMD and VMD's fixed fields), so names never hold one. Such a
 *     text keeps the bytes the file stored (pm_model_raw_text), and pm_pmx_write writes them back.
 *   Bytes after the morph section are not looked at.
 *
 * PMD (pm_pmd_read)
 *   header "Pmd" + float version, model name (20 bytes) and comment (256), Shift-JIS (text.h);
 *   vertices (38 bytes, bone indices checked), face indices (u16, < vertex count), materials
 *   (70 bytes), bones (39 bytes: name 20, parent u16 with 0xFFFF = none, tail u16, type u8, IK /
 *   append field u16, position), IK chains (IK bone u16, target u16, link count u8, iterations u16,
 *   limit float, links u16[]), morphs (the first, "base", is not a morph and is dropped; the
 *   others keep their names and categories), display lists, and when present the English names.
 *   Toon textures, rigid bodies and joints are not read; a file that ends right after the display
 *   lists (common in old models) is fine. Names are decoded as text.h describes (U+FFFD where the
 *   bytes are not CP932, e.g. a name cut inside a double-byte character); such a name keeps its
 *   whole field (pm_model_raw_text). PMD bones become PMX-like bones exactly as babylon-mmd
 *   1.3's PmdReader converts them, because babylon-mmd is what procmotion's poses must agree with:
 *     - every bone: ROTATABLE | VISIBLE | ENABLED, tail = the tail bone (0 = none), order 0;
 *     - type 1 (rotate+move): + TRANSLATABLE;
 *     - IK bones (type 2, or named by an IK chain): + TRANSLATABLE | IK, transform order 1;
 *     - type 5 (rotation influenced): APPEND_ROTATE from the *tail* bone with ratio = IK field *
 *       0.01, no tail, not visible (babylon-mmd's reading);
 *     - type 8 (twist): FIXED_AXIS = the normalised direction to its tail bone, no tail bone;
 *     - IK limit angle = the PMD value * 4 (PMD stores it in units of pi/4 per MMD);
 *     - a second IK chain on the same bone becomes an extra bone "<name>+" appended after the
 *       others, child of that bone (babylon-mmd does the same). babylon-mmd's re-ordering of IK
 *       bones whose chains are listed out of bone order is not reproduced.
 *     - knees: PMD has no per-link limits; MMD limits links named 左ひざ / 右ひざ to a bend about X.
 *       babylon-mmd 1.3 takes PMX Editor's table (-180 .. -0.5, degrees) but stores the numbers as
 *       radians, so its PMD knees are clamped to X in [-180, -0.5] *radians* (a knee bent at least
 *       28.6 degrees). pmd_knee_limit chooses; the default follows babylon-mmd (see docs/models.md).
 *
 * WRITING (pm_pmx_write)
 *   PMX 2.0 with UTF-16LE (or UTF-8) text and the smallest index sizes that fit: vertices (BDEF1
 *   when the second bone is PM_NO_INDEX or its weight is 1, else BDEF2), faces, materials without
 *   textures (shared toon or none), every bone field of the skeleton, vertex morphs, display frames,
 *   and zero rigid bodies and joints. Skeleton morph names that have no morph body in the model are
 *   written as empty vertex morphs, so reading the output gives back the same skeleton (bones, morph
 *   names and panels, model names and comments). Without explicit display frames the writer makes
 *   "Root" (special, bone 0), "表情" (special, every morph) and "Bones" (every other bone).
 *   Same calling convention as pm_vmd_write: out == NULL computes the exact size. A skeleton text
 *   that kept its file's bytes (pm_model_raw_text: an unpaired surrogate, invalid UTF-8, a NUL inside)
 *   is written as those bytes when the output has the file's encoding and the text was not replaced,
 *   so a PMX read and written again gives its names back byte for byte.
 *
 * OWNERSHIP
 *   Readers borrow `data` during the call only; the skeleton owns copies of everything. On failure
 *   *out is NULL and nothing is leaked.
 */
#ifndef PROCMOTION_PMX_H
#define PROCMOTION_PMX_H

#include "procmotion/common.h"
#include "procmotion/skeleton.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How PMD knees (links named 左ひざ / 右ひざ) are limited; see the manual above. */
typedef enum pm_pmd_knee_limit {
    PM_PMD_KNEE_LIMIT_DEFAULT = 0,  /* = PM_PMD_KNEE_LIMIT_BABYLON_MMD */
    PM_PMD_KNEE_LIMIT_BABYLON_MMD,  /* X in [-180, -0.5] taken as radians, as babylon-mmd 1.3 does */
    PM_PMD_KNEE_LIMIT_MMD,          /* X in [-pi, -0.5 deg] (PMX Editor's table in radians) */
    PM_PMD_KNEE_LIMIT_NONE,         /* no limit */
    PM_PMD_KNEE_LIMIT_COUNT,
    PM_PMD_KNEE_LIMIT_FORCE_U32 = 0x7fffffff
} pm_pmd_knee_limit;

/*
 * Reading options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, no memory limit, at most 65536 bones and 65536 morphs,
 * PMD knees as babylon-mmd limits them.
 */
typedef struct pm_model_read_options {
    pm_allocator allocator;
    uint32_t max_bones;  /* 0 = 65536; more is PM_ERR_LIMIT */
    uint32_t max_morphs; /* 0 = 65536; more is PM_ERR_LIMIT */
    pm_pmd_knee_limit pmd_knee_limit;
} pm_model_read_options;

pm_result pm_pmx_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                      pm_error *err);
pm_result pm_pmd_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                      pm_error *err);
/* PMX or PMD by magic; anything else is PM_ERR_BAD_FORMAT. */
pm_result pm_model_read(const uint8_t *data, size_t size, const pm_model_read_options *opts, pm_skeleton **out,
                        pm_error *err);

/* ---- the whole model (pm_model_load) ---------------------------------------------------------
 *
 * pm_model_load reads everything a PMX 2.0/2.1 or PMD file holds that a converter needs: the skeleton
 * (exactly what pm_model_read gives), vertices with their weights, faces, textures, materials, every
 * morph with its offsets, display frames, rigid bodies and joints. It is the same reader as
 * pm_model_read (one pass, the same checks and messages) keeping what the skeleton reader only walks.
 *
 *       pm_model *m = NULL;
 *       if (pm_model_load(bytes, size, NULL, &m, &err) != PM_OK) puts(err.message);
 *       m->vertices[0].bone[0]; m->materials[0].index_count; m->skeleton->bones[0].name.data;
 *       pm_model_free(m);
 *
 * WHAT IS CHECKED besides pm_model_read's checks: rigid bodies (shape 0..2, mode 0..2, bone index in
 * range or -1), joints (type 0..5, rigid body indices in range or -1), display items (type 0/1, the
 * bone or morph in range), PMD rigid-body bones and joint bodies; every count against the bytes left
 * before anything is allocated (PM_ERR_TRUNCATED), max_vertices and max_indices (PM_ERR_LIMIT).
 * Sections that end the file early: a PMX that stops after the morphs, display frames or rigid bodies
 * and a PMD that stops after the display lists, English names or toon textures read as having none
 * of the sections after that point (as MMD and babylon-mmd accept them). PMX 2.1 soft bodies are not
 * read.
 *
 * HOW PMD IS PRESENTED (as PMX, the way babylon-mmd's PmdReader converts it)
 *   vertices: BDEF2 with weight = byte / 100, edge_scale = edge flag ? 1 : 0; materials: "tex.bmp*s.sph"
 *   split into a texture and a sphere texture (.sph multiply, .spa add), the texture table built from
 *   the distinct paths in material order; the toon index names one of the ten toon file names: the
 *   default toon01..toon10.bmp become shared toons 0..9, other names join the texture table; flags:
 *   edge -> EDGE | GROUND_SHADOW, alpha != 0.98 -> CAST | RECEIVE_SHADOW, alpha < 1 -> DOUBLE_SIDED.
 *   Morphs: the base morph is dropped and every other morph becomes a vertex morph on the base's
 *   vertices (type 1, panel = the PMD category). Display frames: "Root" (bone 0) and "表情" (the morph
 *   display list), then the named bone frames. Rigid bodies: the position is stored relative to the
 *   bone in PMD and is made a world position (bone 0 when the body names none), as babylon-mmd does.
 *
 * OWNERSHIP
 *   The model owns every array and string (pm_model_free, NULL is fine); `data` is borrowed during the
 *   call only. On failure *out is NULL and nothing is leaked. The skeleton belongs to the model.
 */

typedef enum pm_weight_type {
    PM_WEIGHT_BDEF1 = 0,
    PM_WEIGHT_BDEF2,
    PM_WEIGHT_BDEF4,
    PM_WEIGHT_SDEF,
    PM_WEIGHT_QDEF, /* PMX 2.1 */
    PM_WEIGHT_TYPE_COUNT,
    PM_WEIGHT_TYPE_FORCE_U32 = 0x7fffffff
} pm_weight_type;

typedef struct pm_model_vertex {
    pm_vec3 position;
    pm_vec3 normal;
    float uv[2];
    uint8_t weight_type;       /* pm_weight_type */
    uint32_t bone[4];          /* PM_NO_INDEX where the file has -1 or the type names fewer bones */
    float weight[4];           /* as in the file: BDEF1 {1}, BDEF2 / SDEF {w, 1 - w}, BDEF4 / QDEF four */
    pm_vec3 sdef_c, sdef_r0, sdef_r1; /* SDEF only */
    float edge_scale;
} pm_model_vertex;

typedef struct pm_model_material {
    pm_string name, name_en;
    float diffuse[4];          /* RGBA */
    float specular[3];
    float specular_power;
    float ambient[3];
    uint8_t flags;             /* PM_PMX_MATERIAL_* (below) */
    float edge_color[4];
    float edge_size;
    uint32_t texture;          /* index into textures, PM_NO_INDEX = none */
    uint32_t sphere_texture;   /* index into textures, PM_NO_INDEX = none */
    uint8_t sphere_mode;       /* 0 off, 1 multiply, 2 add, 3 sub-texture */
    bool shared_toon;          /* toon is 0..9 (toon01..toon10.bmp) */
    uint32_t toon;             /* shared index, or a texture index, PM_NO_INDEX = none */
    pm_string memo;
    uint32_t index_start;      /* first face index drawn (materials take consecutive runs) */
    uint32_t index_count;      /* a multiple of 3 */
} pm_model_material;

typedef enum pm_morph_type {
    PM_MORPH_GROUP = 0,
    PM_MORPH_VERTEX,
    PM_MORPH_BONE,
    PM_MORPH_UV,
    PM_MORPH_UV1, PM_MORPH_UV2, PM_MORPH_UV3, PM_MORPH_UV4,
    PM_MORPH_MATERIAL,
    PM_MORPH_FLIP,    /* 2.1 */
    PM_MORPH_IMPULSE, /* 2.1 */
    PM_MORPH_TYPE_COUNT,
    PM_MORPH_TYPE_FORCE_U32 = 0x7fffffff
} pm_morph_type;

/* One offset of a non-material morph. `index` is a vertex (vertex, UV), a bone, a morph (group,
 * flip) or a rigid body (impulse). value: vertex xyz; UV xyzw; bone translation xyz then rotation
 * quaternion xyzw; group / flip weight in value[0]; impulse velocity xyz then torque xyz, `local` the
 * local flag. */
typedef struct pm_model_morph_offset {
    uint32_t index;
    float value[7];
    uint8_t local;
} pm_model_morph_offset;

typedef struct pm_model_material_offset {
    uint32_t material;         /* PM_NO_INDEX = every material */
    uint8_t operation;         /* 0 multiply, 1 add */
    float diffuse[4], specular[3], specular_power, ambient[3], edge_color[4], edge_size;
    float texture[4], sphere[4], toon[4];
} pm_model_material_offset;

typedef struct pm_model_morph {
    pm_string name, name_en;
    uint8_t panel;             /* 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other */
    uint8_t type;              /* pm_morph_type */
    uint32_t offset_count;
    pm_model_morph_offset *offsets;            /* [offset_count] unless type is MATERIAL */
    pm_model_material_offset *material_offsets; /* [offset_count] when type is MATERIAL */
} pm_model_morph;

typedef struct pm_model_display_frame {
    pm_string name, name_en;
    bool special;
    uint32_t item_count;
    struct pm_pmx_display_item *items; /* {is_morph, index} */
} pm_model_display_frame;

typedef struct pm_model_rigid_body {
    pm_string name, name_en;
    uint32_t bone;             /* PM_NO_INDEX = none */
    uint8_t group;             /* 0..15 */
    uint16_t no_collision_mask;
    uint8_t shape;             /* 0 sphere (size.x radius), 1 box (half extents), 2 capsule (radius, height) */
    pm_vec3 size;
    pm_vec3 position;          /* world, MMD units */
    pm_vec3 rotation;          /* Euler radians (MMD: Y, X, Z order) */
    float mass, linear_damping, angular_damping, restitution, friction;
    uint8_t mode;              /* 0 follows the bone, 1 physics, 2 physics + bone position */
} pm_model_rigid_body;

typedef struct pm_model_joint {
    pm_string name, name_en;
    uint8_t type;              /* 0 spring 6DOF (2.1: 1..5 other kinds, same fields) */
    uint32_t body_a, body_b;   /* rigid bodies, PM_NO_INDEX = none */
    pm_vec3 position, rotation;
    pm_vec3 position_min, position_max, rotation_min, rotation_max;
    pm_vec3 spring_position, spring_rotation;
} pm_model_joint;

typedef struct pm_model {
    uint32_t magic;            /* internal */
    pm_skeleton *skeleton;     /* owned by the model */
    uint32_t vertex_count;
    pm_model_vertex *vertices;
    uint8_t additional_uv_count;   /* 0..4 */
    float *additional_uv;          /* [vertex_count * additional_uv_count * 4], NULL when none */
    uint32_t index_count;          /* face indices, a multiple of 3 */
    uint32_t *indices;
    uint32_t texture_count;
    pm_string *textures;           /* paths as in the file (UTF-8; '\\' kept) */
    uint32_t material_count;
    pm_model_material *materials;
    uint32_t morph_count;          /* = skeleton->morph_count */
    pm_model_morph *morphs;
    uint32_t display_frame_count;
    pm_model_display_frame *display_frames;
    uint32_t rigid_body_count;
    pm_model_rigid_body *rigid_bodies;
    uint32_t joint_count;
    pm_model_joint *joints;
    pm_allocator allocator;
    void *internal;                /* internal: the arena */
} pm_model;

/* Options; zero-initialise (or pass NULL) for the defaults: pm_model_read's, at most 16777216 vertices
 * and 67108864 face indices. */
typedef struct pm_model_load_options {
    pm_model_read_options read; /* allocator (the model's too), bone and morph limits, PMD knees */
    uint32_t max_vertices;      /* 0 = 16777216; more is PM_ERR_LIMIT */
    uint32_t max_indices;       /* 0 = 67108864; more is PM_ERR_LIMIT */
} pm_model_load_options;

pm_result pm_model_load(const uint8_t *data, size_t size, const pm_model_load_options *opts, pm_model **out,
                        pm_error *err);
void pm_model_free(pm_model *model);

/* Which text of a skeleton pm_model_raw_text looks at. */
typedef enum pm_model_text {
    PM_MODEL_TEXT_MODEL_NAME = 0,
    PM_MODEL_TEXT_MODEL_NAME_EN,
    PM_MODEL_TEXT_COMMENT,
    PM_MODEL_TEXT_COMMENT_EN,
    PM_MODEL_TEXT_BONE_NAME,    /* index: the bone */
    PM_MODEL_TEXT_BONE_NAME_EN, /* index: the bone */
    PM_MODEL_TEXT_MORPH_NAME,   /* index: the morph */
    PM_MODEL_TEXT_COUNT,
    PM_MODEL_TEXT_FORCE_U32 = 0x7fffffff
} pm_model_text;

/*
 * The bytes the file stored for a text that did not decode cleanly: PMX UTF-16LE with an unpaired
 * surrogate or an odd length, invalid UTF-8, a text with a NUL inside; PMD Shift-JIS that is not CP932
 * (the whole 20- or 256-byte field). Returns true and sets *bytes (owned by the skeleton), *size and
 * *encoding (0 UTF-16LE, 1 UTF-8, 2 Shift-JIS); false when the text decoded cleanly, the index is out
 * of range, or the skeleton was not read from a file. Any output pointer may be NULL.
 */
bool pm_model_raw_text(const pm_skeleton *skeleton, pm_model_text which, uint32_t index, const uint8_t **bytes,
                       size_t *size, uint8_t *encoding);
/* The text itself (UTF-8, U+FFFD where the bytes were bad), or NULL for an index out of range. */
const pm_string *pm_model_text_of(const pm_skeleton *skeleton, pm_model_text which, uint32_t index);

/* ---- writing ---------------------------------------------------------------------------------- */

typedef struct pm_pmx_vertex {
    pm_vec3 position;
    pm_vec3 normal;
    float uv[2];
    uint32_t bone[2];  /* bone[1] == PM_NO_INDEX (or weight == 1): BDEF1 */
    float weight;      /* weight of bone[0] for BDEF2 */
    float edge_scale;  /* 0 is written as 1 */
} pm_pmx_vertex;

/* Material drawing flags (PMX). */
enum {
    PM_PMX_MATERIAL_DOUBLE_SIDED = 0x01,
    PM_PMX_MATERIAL_GROUND_SHADOW = 0x02,
    PM_PMX_MATERIAL_CAST_SHADOW = 0x04,
    PM_PMX_MATERIAL_RECEIVE_SHADOW = 0x08,
    PM_PMX_MATERIAL_EDGE = 0x10
};

typedef struct pm_pmx_material {
    const char *name;       /* UTF-8; NULL = "" */
    const char *name_en;
    float diffuse[4];       /* RGBA */
    float specular[3];
    float specular_power;
    float ambient[3];
    uint8_t flags;          /* PM_PMX_MATERIAL_* */
    float edge_color[4];
    float edge_size;
    int32_t shared_toon;    /* 0..9 = toon01..toon10.bmp; anything else = no toon */
    uint32_t index_count;   /* face indices drawn with this material (a multiple of 3); materials
                               take consecutive runs of the index array in order */
} pm_pmx_material;

typedef struct pm_pmx_vertex_morph {
    const char *name;       /* UTF-8 */
    const char *name_en;    /* may be NULL */
    uint8_t panel;          /* 1 eyebrow, 2 eye, 3 mouth, 4 other */
    uint32_t offset_count;
    const uint32_t *vertex; /* [offset_count] */
    const pm_vec3 *offset;  /* [offset_count] */
} pm_pmx_vertex_morph;

typedef struct pm_pmx_display_item {
    uint8_t is_morph;       /* 0 bone, 1 morph */
    uint32_t index;
} pm_pmx_display_item;

typedef struct pm_pmx_display_frame {
    const char *name;
    const char *name_en;
    bool special;           /* "Root" and "表情" are special frames */
    uint32_t item_count;
    const pm_pmx_display_item *items;
} pm_pmx_display_frame;

/* Everything the writer needs; the skeleton gives bones, model names, comments and morph names. */
typedef struct pm_pmx_model {
    const pm_skeleton *skeleton;        /* required */
    uint32_t vertex_count;
    const pm_pmx_vertex *vertices;
    uint32_t index_count;               /* a multiple of 3 */
    const uint32_t *indices;
    uint32_t material_count;
    const pm_pmx_material *materials;
    uint32_t morph_count;               /* vertex morphs; they come first in the morph section */
    const pm_pmx_vertex_morph *morphs;
    uint32_t display_frame_count;       /* 0 = the default frames described above */
    const pm_pmx_display_frame *display_frames;
} pm_pmx_model;

/* Default configuration: UTF-16LE text. */
typedef struct pm_pmx_write_options {
    uint8_t encoding; /* 0 UTF-16LE, 1 UTF-8 */
} pm_pmx_write_options;

/*
 * Serialise `model`. out == NULL: only *out_size is set (the exact size) and the model is checked.
 * Otherwise out_cap must be >= that size (PM_ERR_INVALID_ARGUMENT if not). Checks: the skeleton
 * validates, every vertex, morph and display index is in range, material index counts add up to
 * index_count, values are finite.
 */
pm_result pm_pmx_write(const pm_pmx_model *model, const pm_pmx_write_options *opts, uint8_t *out, size_t out_cap,
                       size_t *out_size, pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
