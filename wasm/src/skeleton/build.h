/* Building a pm_skeleton: the helpers the PMX/PMD readers, the JSON reader and the mannequin share. */
#ifndef PROCMOTION_SKELETON_BUILD_H
#define PROCMOTION_SKELETON_BUILD_H

#include "common/internal.h"
#include "procmotion/skeleton.h"

#define PMI_SKELETON_MAGIC 0x4c454b53u /* "SKEL" */

/* A skeleton with bone_count bones (every index field PM_NO_INDEX, names empty, flags 0) and
 * morph_count empty morph names; strings and IK links come from its arena. NULL + err on failure. */
pm_skeleton *pmi_skeleton_new(const pm_allocator *allocator, uint32_t bone_count, uint32_t morph_count,
                              pm_error *err);

/* Replace the morph name table by `count` empty names (and, when with_panels, a zeroed panel array
 * from the arena). */
pm_result pmi_skeleton_set_morph_count(pm_skeleton *s, uint32_t count, bool with_panels, pm_error *err);

/* size bytes (8-aligned, zeroed) owned by the skeleton; NULL + err when out of memory. */
void *pmi_skeleton_arena_alloc(pm_skeleton *s, size_t size, pm_error *err);

/* Copy len bytes of UTF-8 into the skeleton and point *dst at the NUL-terminated copy. The text
 * must already be valid UTF-8 (callers decode or sanitise first). */
pm_result pmi_skeleton_set_string(pm_skeleton *s, pm_string *dst, const char *utf8, size_t len, pm_error *err);

/* Record a reader's warning (printf format) in s->source (the first PM_MODEL_MAX_WARNINGS kept, every
 * one counted). */
pm_result pmi_skeleton_warn(pm_skeleton *s, pm_error *err, const char *fmt, ...) PMI_PRINTF(3, 4);

/* Reserve len + 1 zeroed bytes for a string the caller fills in (*buf); *dst points at it with
 * length len. */
pm_result pmi_skeleton_string_buffer(pm_skeleton *s, pm_string *dst, size_t len, char **buf, pm_error *err);

/* Keep the bytes a model file stored for the text at `owner` (a pm_string of s, just decoded from them)
 * when its UTF-8 does not give them back (pmx.h, pm_model_raw_text): `encoding` 0 UTF-16LE, 1 UTF-8,
 * 2 Shift-JIS (a fixed field: the bytes, NUL and padding). */
pm_result pmi_skeleton_keep_raw(pm_skeleton *s, const pm_string *owner, uint8_t encoding, const uint8_t *bytes,
                                size_t size, pm_error *err);
/* The bytes kept for the text at `owner` while it still holds what was decoded from them (the same
 * string), else NULL. */
const uint8_t *pmi_skeleton_raw(const pm_skeleton *s, const pm_string *owner, uint8_t *encoding, size_t *size);

#endif
