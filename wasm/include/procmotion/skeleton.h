/*
 * procmotion/skeleton.h -- the bone hierarchy every motion module works on.
 *
 * A pm_skeleton is what the PMX/PMD readers (pmx.h), the built-in mannequin and the JS glue
 * (from a babylon-mmd model) produce, and what pose evaluation, IK, catwalk, groove, tracing and
 * keypoints consume. It carries the rest pose and the MMD bone semantics needed to evaluate a VMD
 * the way babylon-mmd does: parent, transform order, append (inherit) rotation/translation, and
 * IK chains with per-link angle limits.
 *
 * COORDINATES
 *   MMD units (1 unit = 8 cm), Y up, left-handed, the model faces -Z; +X is the model's left.
 *   Bone positions are world-space rest positions, as stored in PMX.
 *
 * OWNERSHIP
 *   A skeleton made by a reader or by pm_skeleton_create owns all its arrays and strings; free it
 *   with pm_skeleton_free (NULL is fine).
 *
 * VALIDATION (always run by pm_skeleton_validate, which every producer calls)
 *   every index (parent, tail bone, append parent, IK target, IK link) is < bone_count or
 *   PM_NO_INDEX (IK links: always a bone); parent chains have no cycles (an O(n) visited walk); an IK
 *   chain does not name its own IK bone as target or link; a bone does not append itself; has_ik
 *   agrees with PM_BONE_IK; positions, fixed axes, append ratios, limit angles and link limits are
 *   finite (tail offsets and local axes are display-only: a reader keeps them as the file has them and
 *   warns in source.warnings when they are not finite). Failures are PM_ERR_BAD_FORMAT naming the bone: "skeleton: bone 12 (左ひざ): parent
 *   200 is out of range (114 bones)". An IK bone may have target PM_NO_INDEX (the chain does nothing;
 *   PMX files with target -1 exist) and zero links.
 *
 * LOOKUP
 *   pm_skeleton_find: exact UTF-8 bytes. pm_skeleton_find_mmd: exact first, then full-width ASCII
 *   (U+FF01..U+FF5E) folded onto ASCII on both sides, so 左足IK finds 左足ＩＫ and 右人指1 finds
 *   右人指１; case is kept (左足ik does not match): pm_names_equal (text.h). Both are linear scans.
 *   To find a bone by what it does (センター, 足ＩＫ, an English or VRoid name) use the rig resolver.
 *
 * PM_SKELETON_CREATE
 *   Names are copied into the skeleton. flags 0 means ROTATABLE | VISIBLE | ENABLED; with
 *   PM_BONE_EXACT_FLAGS the other bits are taken as they are (0 included). Append: with
 *   APPEND_ROTATE or APPEND_TRANSLATE in flags, append_parent and append_ratio are taken as given
 *   (PM_NO_INDEX: no source, as PMX allows); without them append is on when append_parent is not
 *   PM_NO_INDEX and not (0 with ratio 0), and APPEND_ROTATE is then added; otherwise append is off
 *   (LOCAL_APPEND cleared). has_ik sets PM_BONE_IK (and !has_ik clears it); IK links are copied. The
 *   flag-guarded fields are copied when their flag is set and zero otherwise: tail_bone with
 *   TAIL_IS_BONE (else tail_offset), fixed_axis with FIXED_AXIS, local_x / local_z with LOCAL_AXES,
 *   external_parent_key with EXTERNAL_PARENT. So a zero-initialised desc (plus name and parents) is a
 *   plain rotatable bone, and pm_skeleton_bone_desc's desc of a bone gives that bone back exactly.
 *   morph_panel stays NULL and `source` zero (format NONE, empty comments).
 *
 * ADDITIONS (skeleton branch; new fields only, nothing existing changed)
 *   pm_model_format, pm_model_info and pm_skeleton.source (what a reader saw: format, version,
 *   encoding, vertex / face / texture / material counts, comments), pm_skeleton.morph_panel.
 */
#ifndef PROCMOTION_SKELETON_H
#define PROCMOTION_SKELETON_H

#include "procmotion/common.h"
#include "procmotion/math.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bone flags (PMX 2.0 bit values). */
enum {
    PM_BONE_TAIL_IS_BONE = 0x0001,
    PM_BONE_ROTATABLE = 0x0002,
    PM_BONE_TRANSLATABLE = 0x0004,
    PM_BONE_VISIBLE = 0x0008,
    PM_BONE_ENABLED = 0x0010,
    PM_BONE_IK = 0x0020,
    PM_BONE_LOCAL_APPEND = 0x0080,
    PM_BONE_APPEND_ROTATE = 0x0100,
    PM_BONE_APPEND_TRANSLATE = 0x0200,
    PM_BONE_FIXED_AXIS = 0x0400,
    PM_BONE_LOCAL_AXES = 0x0800,
    PM_BONE_AFTER_PHYSICS = 0x1000,
    PM_BONE_EXTERNAL_PARENT = 0x2000
};

/* pm_bone_desc.flags only: take the other bits exactly, even when they are all 0 (without it, flags 0
 * means ROTATABLE | VISIBLE | ENABLED). Never stored in a skeleton. */
#define PM_BONE_EXACT_FLAGS 0x80000000u

typedef struct pm_ik_link {
    uint32_t bone;          /* index of the link bone */
    bool has_limit;         /* angle limits present */
    pm_vec3 limit_min;      /* radians, Euler X Y Z, as stored in PMX (MMD's coordinate system) */
    pm_vec3 limit_max;
} pm_ik_link;

typedef struct pm_ik {
    uint32_t target;        /* the bone that should reach the IK bone (e.g. 足首 for 足ＩＫ) */
    uint32_t loop_count;    /* iterations */
    float limit_angle;      /* radians per iteration step */
    uint32_t link_count;
    pm_ik_link *links;      /* from the bone nearest the target up the chain (e.g. ひざ, 足) */
} pm_ik;

typedef struct pm_bone {
    pm_string name;         /* Japanese name (UTF-8) */
    pm_string name_en;      /* English name, may be empty */
    pm_vec3 position;       /* world rest position */
    uint32_t parent;        /* PM_NO_INDEX for a root */
    int32_t transform_order; /* PMX "deform layer"; bones evaluate by (after_physics, order, index) */
    uint32_t flags;         /* PM_BONE_* */
    pm_vec3 tail_offset;    /* when !(flags & PM_BONE_TAIL_IS_BONE); display-only, may be NaN */
    uint32_t tail_bone;     /* when flags & PM_BONE_TAIL_IS_BONE, else PM_NO_INDEX */
    uint32_t append_parent; /* PM_NO_INDEX unless APPEND_ROTATE or APPEND_TRANSLATE */
    float append_ratio;
    pm_vec3 fixed_axis;     /* when PM_BONE_FIXED_AXIS */
    pm_vec3 local_x, local_z; /* when PM_BONE_LOCAL_AXES; display-only, may be NaN */
    int32_t external_parent_key;
    bool has_ik;            /* flags & PM_BONE_IK, with `ik` filled */
    pm_ik ik;
} pm_bone;

/* The file a skeleton was read from (pmx.h fills it; pm_skeleton_create leaves it zero). */
typedef enum pm_model_format {
    PM_MODEL_FORMAT_NONE = 0, /* built in memory (pm_skeleton_create, the mannequin) */
    PM_MODEL_FORMAT_PMX,
    PM_MODEL_FORMAT_PMD,
    PM_MODEL_FORMAT_COUNT,
    PM_MODEL_FORMAT_FORCE_U32 = 0x7fffffff
} pm_model_format;

#define PM_MODEL_MAX_WARNINGS 4

typedef struct pm_model_info {
    pm_model_format format;
    float version;          /* 2.0 or 2.1 for PMX, the header float (1.0) for PMD */
    uint8_t encoding;       /* PMX: 0 UTF-16LE, 1 UTF-8; PMD: 2 (Shift-JIS) */
    uint8_t additional_uv;  /* PMX additional UV count 0..4 */
    uint32_t vertex_count;
    uint32_t face_count;    /* triangles (vertex indices / 3) */
    uint32_t texture_count;
    uint32_t material_count;
    pm_string model_comment;    /* UTF-8 (PMX comment / PMD comment) */
    pm_string model_comment_en;
    /* What the reader accepted though it is not as the format says, in fields nothing poses with (a
     * display-only value that is not finite, bytes after the last section): one sentence each, the
     * first PM_MODEL_MAX_WARNINGS kept; warning_count counts them all. */
    uint32_t warning_count;
    pm_string warnings[PM_MODEL_MAX_WARNINGS];
} pm_model_info;

typedef struct pm_skeleton {
    uint32_t magic;         /* internal */
    uint32_t bone_count;
    pm_bone *bones;
    uint32_t morph_count;   /* morph names only (for generators that key blinks and mouths) */
    pm_string *morph_names;
    pm_string model_name;
    pm_string model_name_en;
    pm_allocator allocator;
    void *internal;         /* internal: string arena */
    /* -- additions (skeleton branch); zero for skeletons made by pm_skeleton_create -- */
    uint8_t *morph_panel;   /* [morph_count] PMX panel (0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other)
                               or NULL when unknown. PMD morphs get their category (1..4). */
    pm_model_info source;   /* what the reader saw: format, version, encoding, element counts */
} pm_skeleton;

/* Build a skeleton from bone descriptions supplied by the caller (for example the glue passing a
 * babylon-mmd model's bones). Names are copied; the result validates as described above. A desc
 * carries every field of pm_bone, so any skeleton can be rebuilt (or edited) through descs. */
typedef struct pm_bone_desc {
    const char *name;       /* UTF-8, required */
    const char *name_en;    /* may be NULL */
    pm_vec3 position;
    uint32_t parent;        /* PM_NO_INDEX for a root */
    uint32_t flags;         /* PM_BONE_*; 0 means ROTATABLE | VISIBLE | ENABLED (see PM_BONE_EXACT_FLAGS) */
    int32_t transform_order;
    uint32_t append_parent; /* PM_NO_INDEX (or 0 with append_ratio 0 when no append flag is set) for none */
    float append_ratio;
    bool has_ik;
    pm_ik ik;               /* links are copied */
    /* -- the rest of pm_bone, each used only when its flag is set (zero-initialise for none) -- */
    pm_vec3 tail_offset;    /* display tail when !(flags & PM_BONE_TAIL_IS_BONE) */
    uint32_t tail_bone;     /* when flags & PM_BONE_TAIL_IS_BONE: a bone or PM_NO_INDEX */
    pm_vec3 fixed_axis;     /* when flags & PM_BONE_FIXED_AXIS */
    pm_vec3 local_x, local_z; /* when flags & PM_BONE_LOCAL_AXES */
    int32_t external_parent_key; /* when flags & PM_BONE_EXTERNAL_PARENT */
} pm_bone_desc;

pm_result pm_skeleton_create(const pm_bone_desc *bones, uint32_t bone_count, const char *const *morph_names,
                             uint32_t morph_count, const pm_allocator *allocator, pm_skeleton **out,
                             pm_error *err);

/*
 * The desc of bone `index` (for pm_skeleton_create): every field of the bone (flags with
 * PM_BONE_EXACT_FLAGS), its name, English name and IK links borrowed from the skeleton (valid while
 * it lives). pm_skeleton_create on the descs of
 * all bones gives a skeleton whose bones equal these field by field. PM_ERR_INVALID_ARGUMENT for a
 * NULL skeleton or desc or an index out of range.
 */
pm_result pm_skeleton_bone_desc(const pm_skeleton *skeleton, uint32_t index, pm_bone_desc *out, pm_error *err);
void pm_skeleton_free(pm_skeleton *skeleton);

/* Check the invariants listed above. */
pm_result pm_skeleton_validate(const pm_skeleton *skeleton, pm_error *err);

/* Index of the bone with this exact UTF-8 name, or PM_NO_INDEX. */
uint32_t pm_skeleton_find(const pm_skeleton *skeleton, const char *name);

/*
 * Find a bone by MMD name with normalisation: full-width and half-width ASCII are treated alike
 * (so 左足ＩＫ and 左足IK match), as are the 全角 digits. Returns PM_NO_INDEX when absent.
 */
uint32_t pm_skeleton_find_mmd(const pm_skeleton *skeleton, const char *name);

/*
 * Skeletons as JSON, the interchange of the JS glue and the CLI (schema: docs/formats.md).
 * pm_skeleton_to_json: out == NULL only sets *out_size (the length without the NUL); otherwise out_cap
 * must hold out_size + 1 bytes. pm_skeleton_from_json: bones with name, position, parent (-1 = root),
 * optional nameEn, flags, transformOrder, tail or tailBone, append {parent, ratio, rotate, translate,
 * local}, fixedAxis, localAxes {x, z}, externalParent, ik {target, loopCount, limitAngle, links
 * [{bone, limitMin, limitMax}]}, and modelName, modelNameEn, morphNames; every index is checked and
 * the result validated as pm_skeleton_create does. Errors name the bone and the field. What
 * pm_skeleton_to_json writes comes back with every bone field, the model names and the morph names
 * unchanged (bit for bit: numbers are printed so that they read back exactly).
 */
pm_result pm_skeleton_to_json(const pm_skeleton *skeleton, char *out, size_t out_cap, size_t *out_size, pm_error *err);
pm_result pm_skeleton_from_json(const char *json, size_t len, const pm_allocator *allocator, pm_skeleton **out,
                                pm_error *err);

#ifdef __cplusplus
}
#endif

#endif
