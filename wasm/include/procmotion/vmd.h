/*
 * procmotion/vmd.h -- read, build and write VMD (Vocaloid Motion Data) files.
 *
 * FORMAT (all little-endian; see docs/formats.md for the full table)
 *   header  30 bytes "Vocaloid Motion Data 0002" NUL-padded, model name 20 bytes Shift-JIS
 *           (the old "Vocaloid Motion Data file" header has a 10-byte model name)
 *   then six sections, each a u32 count and fixed-size records:
 *     bone 111 (name 15, frame u32, position 3 f32, rotation quaternion x y z w, interpolation 64)
 *     morph 23 (name 15, frame u32, weight f32)
 *     camera 61 (frame, distance, position 3, rotation 3 (Euler, radians), interpolation 24,
 *                fov u32 degrees, perspective u8 (0 = on))
 *     light 28 (frame, colour rgb 3 f32, direction 3 f32)
 *     self-shadow 9 (frame, mode u8, distance f32)
 *     property (frame, visible u8, u32 IK count, IK count x (name 20, enabled u8))
 *   A file may end after any complete section (real files often stop after the light or shadow
 *   section); the reader accepts that and reports how many sections were present.
 *
 * LAYOUT IN MEMORY
 *   Keys are stored per section as parallel arrays (structure of arrays) in file order, with a
 *   table of distinct names per section and a name index per key, so each distinct name is
 *   decoded from Shift-JIS once. Arrays of a section with count 0 may be NULL.
 *
 * READING
 *   pm_vmd_read(data, size, opts, &vmd, &err) parses a whole file. Every count is checked against
 *   the bytes left before anything is allocated; truncated data fails with PM_ERR_TRUNCATED and a
 *   message naming the section and key index. Free the result with pm_vmd_free().
 *
 * NAMES: THE BYTES ARE THE NAME, THE TEXT IS FOR DISPLAY AND LOOKUP
 *   A name is its bytes before the field's first NUL. Keys whose names have the same bytes share one
 *   entry of the section's table (and one name_index), whatever their text; two different byte
 *   strings are two entries even when they decode to the same text (a name cut inside a double-byte
 *   character, bytes that are not CP932, or the NEC/IBM duplicate pairs). items[i] is the decoded
 *   text (text.h: never fails, U+FFFD where the bytes are bad); fields[i] is the whole field as the
 *   file stored it: the bytes, the NUL and the padding after it (MMD leaves junk such as 0xFD there).
 *   A key whose field has its name's bytes but other padding is a variant (variant_key /
 *   variant_field), so every field of the file is kept. The model name keeps its field the same way
 *   (model_field), the header its bytes after the magic (header), and bytes after the property
 *   section are kept in `trailing`.
 *
 * BUILDING
 *   pm_vmd_create() returns an empty motion; pm_vmd_add_*() append keys (names are UTF-8 and are
 *   interned: an existing entry with that text, else a new one whose field is the text's Shift-JIS
 *   encoding). pm_vmd_intern_field() interns a name by its field bytes (copying names between
 *   motions without losing bytes). A motion read from a file can be extended the same way.
 *
 * WRITING
 *   pm_vmd_write(vmd, out, cap, &size, &err) (or pm_vmd_write_with(vmd, &opts, ...)): with out == NULL
 *   it only computes the exact size and validates. Floats and interpolation bytes are written exactly
 *   as stored, keys in the order stored. A name whose text is unchanged (items[i] is what fields[i]
 *   decodes to) is written as its stored bytes, so a damaged name that was read never makes the
 *   writer fail; a name the caller changed or added is encoded to Shift-JIS, cut to 15 bytes (bone,
 *   morph) or 20 bytes (model, IK) without splitting a double-byte character, NUL-padded, and a name
 *   Shift-JIS cannot encode fails with PM_ERR_ENCODING naming it.
 *   Default (lossless): a file read by pm_vmd_read and written without edits is byte-identical: the
 *   header as read (version 1 stays version 1, with its 10-byte model name), every field with its
 *   padding, only the sections the file had (plus any later section that now holds keys), and the
 *   trailing bytes. A built motion has six sections, a zero header and no padding, so it is written
 *   canonically either way.
 *   canonical = true: the form procmotion generates: the 0002 header with NUL after the magic, names
 *   as their bytes with NUL padding (variants dropped), all six section counts, nothing after them.
 *
 * INTERPOLATION
 *   The 64-byte block is four 16-byte rows, row r being the canonical 16 bytes
 *   (X_x1 Y_x1 Z_x1 R_x1 X_y1 Y_y1 Z_y1 R_y1 X_x2 Y_x2 Z_x2 R_x2 X_y2 Y_y2 Z_y2 R_y2) shifted left
 *   by r bytes with zeros appended; bytes 2 and 3 of row 0 hold babylon-mmd's physics toggle
 *   (0x00 0x00 = physics on, 0x63 0x0F = off). Readers take axis a's curve from the first column
 *   of row a: x1 = b[16a], y1 = b[16a + 4], x2 = b[16a + 8], y2 = b[16a + 12].
 *   The curve of key B applies to the segment from the previous key A to B.
 */
#ifndef PROCMOTION_VMD_H
#define PROCMOTION_VMD_H

#include "procmotion/common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_VMD_BONE_NAME_SIZE 15
#define PM_VMD_MODEL_NAME_SIZE 20
#define PM_VMD_MODEL_NAME_SIZE_V1 10 /* the model-name field of a version 1 file ("Vocaloid Motion Data file") */
#define PM_VMD_IK_NAME_SIZE 20
#define PM_VMD_BONE_KEY_SIZE 111
#define PM_VMD_MORPH_KEY_SIZE 23
#define PM_VMD_CAMERA_KEY_SIZE 61
#define PM_VMD_LIGHT_KEY_SIZE 28
#define PM_VMD_SHADOW_KEY_SIZE 9
#define PM_VMD_INTERP_SIZE 64
#define PM_VMD_CAMERA_INTERP_SIZE 24
#define PM_VMD_HEADER_SIZE 30

/* Interpolation axes of a bone key. */
enum { PM_VMD_AXIS_X = 0, PM_VMD_AXIS_Y = 1, PM_VMD_AXIS_Z = 2, PM_VMD_AXIS_R = 3 };

/* A table of distinct names (one per distinct byte string). Field width: PM_VMD_BONE_NAME_SIZE for
 * bone and morph names, PM_VMD_IK_NAME_SIZE for IK names. */
typedef struct pm_vmd_names {
    uint32_t count;
    pm_string *items;        /* [count] UTF-8 text decoded from the bytes (U+FFFD where they are bad) */
    uint8_t *fields;         /* [count * width] each name's field: bytes, NUL, padding as the file stored
                                them (an added name: its Shift-JIS encoding, NUL-padded; all zero when
                                it has none). NULL means no stored fields (every name is encoded). */
    uint32_t variant_count;  /* keys whose field holds their name's bytes with other padding */
    uint32_t *variant_key;   /* [variant_count] ascending key index (IK names: index of the IK state) */
    uint8_t *variant_field;  /* [variant_count * width] those keys' fields */
    uint32_t capacity;         /* internal */
    uint32_t variant_capacity; /* internal */
} pm_vmd_names;

typedef struct pm_vmd_bone_keys {
    uint32_t count;
    uint32_t *name_index;   /* [count], index into pm_vmd.bone_names */
    uint32_t *frame;        /* [count] */
    float *position;        /* [count * 3], offset from the bone's rest position */
    float *rotation;        /* [count * 4], quaternion x, y, z, w */
    uint8_t *interpolation; /* [count * 64], as stored in the file */
    uint32_t capacity;      /* internal */
} pm_vmd_bone_keys;

typedef struct pm_vmd_morph_keys {
    uint32_t count;
    uint32_t *name_index; /* [count], index into pm_vmd.morph_names */
    uint32_t *frame;
    float *weight;
    uint32_t capacity; /* internal */
} pm_vmd_morph_keys;

typedef struct pm_vmd_camera_keys {
    uint32_t count;
    uint32_t *frame;
    float *distance;
    float *position;        /* [count * 3] */
    float *rotation;        /* [count * 3], Euler radians */
    uint8_t *interpolation; /* [count * 24] */
    uint32_t *fov;          /* degrees */
    uint8_t *perspective;   /* 0 = perspective on (as MMD stores it) */
    uint32_t capacity;      /* internal */
} pm_vmd_camera_keys;

typedef struct pm_vmd_light_keys {
    uint32_t count;
    uint32_t *frame;
    float *color;     /* [count * 3] */
    float *direction; /* [count * 3] */
    uint32_t capacity; /* internal */
} pm_vmd_light_keys;

typedef struct pm_vmd_shadow_keys {
    uint32_t count;
    uint32_t *frame;
    uint8_t *mode;
    float *distance;
    uint32_t capacity; /* internal */
} pm_vmd_shadow_keys;

typedef struct pm_vmd_property_keys {
    uint32_t count;
    uint32_t *frame;
    uint8_t *visible;
    uint32_t *ik_start;    /* [count + 1]: key k owns IK states ik_start[k] .. ik_start[k+1]-1 */
    uint32_t ik_count;     /* total IK states */
    uint32_t *ik_name_index; /* [ik_count], index into pm_vmd.ik_names */
    uint8_t *ik_enabled;     /* [ik_count] */
    uint32_t capacity;       /* internal */
    uint32_t ik_capacity;    /* internal */
} pm_vmd_property_keys;

typedef struct pm_vmd {
    uint32_t magic;     /* internal: checked by pm_vmd_free */
    uint32_t version;   /* 2 for "Vocaloid Motion Data 0002", 1 for the old header */
    uint32_t sections;  /* how many of the six sections the file held (6 for a built motion) */
    pm_string model_name;               /* UTF-8, decoded from model_field */
    uint8_t header[PM_VMD_HEADER_SIZE]; /* the header as read: magic and the 5 bytes after it (zero: built) */
    uint8_t model_field[PM_VMD_MODEL_NAME_SIZE]; /* the model-name field as read (version 1: 10 bytes) */
    const uint8_t *trailing;            /* bytes after the property section (NULL when none) */
    uint32_t trailing_size;
    pm_vmd_names bone_names;
    pm_vmd_names morph_names;
    pm_vmd_names ik_names;
    pm_vmd_bone_keys bones;
    pm_vmd_morph_keys morphs;
    pm_vmd_camera_keys cameras;
    pm_vmd_light_keys lights;
    pm_vmd_shadow_keys shadows;
    pm_vmd_property_keys properties;
    pm_allocator allocator; /* the allocator everything above came from */
    void *internal;         /* internal: name interning state */
} pm_vmd;

/*
 * Reading options; zero-initialise for defaults (or pass NULL).
 * Default configuration: malloc/free, no memory limit, at most 50 000 000 keys per section.
 */
typedef struct pm_vmd_read_options {
    pm_allocator allocator;
    uint32_t max_keys; /* 0 = 50 000 000; a larger count fails with PM_ERR_LIMIT */
} pm_vmd_read_options;

/* Parse a VMD file. On success *out owns a new motion (free with pm_vmd_free); on failure *out is
 * NULL. `data` is only borrowed during the call. */
pm_result pm_vmd_read(const uint8_t *data, size_t size, const pm_vmd_read_options *opts, pm_vmd **out,
                      pm_error *err);

/* An empty motion (version 2, all six sections present, no keys). `allocator` may be NULL. */
pm_result pm_vmd_create(const pm_allocator *allocator, pm_vmd **out, pm_error *err);

/* Free a motion from pm_vmd_read or pm_vmd_create. Accepts NULL. */
void pm_vmd_free(pm_vmd *vmd);

/* Set the model name (UTF-8). */
pm_result pm_vmd_set_model_name(pm_vmd *vmd, const char *name, pm_error *err);

/* Intern a UTF-8 name in a table and return its index in *index: the first entry with this text when
 * there is one, else a new entry whose field is the text's Shift-JIS encoding. */
pm_result pm_vmd_intern(pm_vmd *vmd, pm_vmd_names *table, const char *name, size_t len, uint32_t *index,
                        pm_error *err);
/* Intern a name by its field (`width` bytes, at most the table's width; the name is the bytes before
 * the first NUL): the entry with these bytes when there is one (its stored padding is kept), else a new
 * entry decoded from them that keeps the field (padded with NUL to the table's width). */
pm_result pm_vmd_intern_field(pm_vmd *vmd, pm_vmd_names *table, const uint8_t *field, size_t width, uint32_t *index,
                              pm_error *err);

/* Append keys. Names are UTF-8; `interpolation` NULL means linear (pm_vmd_interp_linear). Values must
 * be finite (PM_ERR_INVALID_ARGUMENT otherwise). */
pm_result pm_vmd_add_bone_key(pm_vmd *vmd, const char *name, uint32_t frame, const float position[3],
                              const float rotation[4], const uint8_t interpolation[64], pm_error *err);
pm_result pm_vmd_add_morph_key(pm_vmd *vmd, const char *name, uint32_t frame, float weight, pm_error *err);
pm_result pm_vmd_add_camera_key(pm_vmd *vmd, uint32_t frame, float distance, const float position[3],
                                const float rotation[3], const uint8_t interpolation[24], uint32_t fov,
                                uint8_t perspective, pm_error *err);
pm_result pm_vmd_add_light_key(pm_vmd *vmd, uint32_t frame, const float color[3], const float direction[3],
                               pm_error *err);
pm_result pm_vmd_add_shadow_key(pm_vmd *vmd, uint32_t frame, uint8_t mode, float distance, pm_error *err);
pm_result pm_vmd_add_property_key(pm_vmd *vmd, uint32_t frame, bool visible, uint32_t ik_count,
                                  const char *const *ik_names, const bool *ik_enabled, pm_error *err);

/* Append every key of `src` to `dst` (names re-interned, order kept), except the bone keys of the
 * `skip_count` bone names in `skip_bones` (exact UTF-8 names) and, with `skip_properties`, the
 * property keys. *bone_keys_copied (may be NULL) receives the bone keys appended. src == dst is
 * refused (PM_ERR_INVALID_ARGUMENT). */
pm_result pm_vmd_append(pm_vmd *dst, const pm_vmd *src, const char *const *skip_bones, uint32_t skip_count,
                        bool skip_properties, uint32_t *bone_keys_copied, pm_error *err);

/* Writing options; zero-initialise for the default (lossless), or pass NULL. */
typedef struct pm_vmd_write_options {
    bool canonical; /* true: 0002 header, NUL padding, all six section counts, no trailing bytes */
} pm_vmd_write_options;

/* Serialise. out == NULL: only *out_size is set (the exact size) and names are validated.
 * Otherwise out_cap must be >= that size (PM_ERR_INVALID_ARGUMENT if not). pm_vmd_write is
 * pm_vmd_write_with(vmd, NULL, ...): lossless. */
pm_result pm_vmd_write(const pm_vmd *vmd, uint8_t *out, size_t out_cap, size_t *out_size, pm_error *err);
pm_result pm_vmd_write_with(const pm_vmd *vmd, const pm_vmd_write_options *opts, uint8_t *out, size_t out_cap,
                            size_t *out_size, pm_error *err);

/* Interpolation helpers. curves[axis] = {x1, y1, x2, y2}, each 0..127 (larger values are clamped).
 * Writes the shifted-row block with physics on. */
void pm_vmd_interp_pack(const uint8_t curves[4][4], uint8_t out[64]);
/* Read axis 0..3 (X, Y, Z, R) the way babylon-mmd does. */
void pm_vmd_interp_unpack(const uint8_t in[64], int axis, uint8_t curve[4]);
/* The linear block every reader accepts: x1 = y1 = 20, x2 = y2 = 107 on every axis, physics on. */
void pm_vmd_interp_linear(uint8_t out[64]);

#ifdef __cplusplus
}
#endif

#endif
