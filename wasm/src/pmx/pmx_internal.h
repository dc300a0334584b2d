/* Shared reading context for the PMX and PMD readers: bounded takes and errors that name the
 * section and the element ("pmx: bone 12 of 114: ..."). */
#ifndef PROCMOTION_PMX_INTERNAL_H
#define PROCMOTION_PMX_INTERNAL_H

#include "common/internal.h"
#include "procmotion/pmx.h"
#include "procmotion/skeleton.h"

#include <stddef.h>

#define PMI_TRY(x)                                                                                       \
    do {                                                                                                 \
        pm_result try_r_ = (x);                                                                          \
        if (try_r_ != PM_OK) return try_r_;                                                              \
    } while (0)

typedef struct pmi_model_reader {
    pmi_cursor c;
    pm_error *err;
    const char *format;  /* "pmx" or "pmd" */
    const char *section; /* for messages */
    uint32_t index, count; /* element being read; index == UINT32_MAX: none */
    pm_skeleton *s;        /* the result being built (freed by pmi_mr_run on failure) */
    const struct pm_model_load_options *load; /* pm_model_load's options (may be NULL) */
    struct pm_model *model; /* pm_model_load: where everything else is kept (NULL: skeleton only) */
} pmi_model_reader;

pm_result pmi_mr_fail(pmi_model_reader *r, pm_result type, const char *fmt, ...) PMI_PRINTF(3, 4);
void pmi_mr_enter(pmi_model_reader *r, const char *section, uint32_t index, uint32_t count);
/* Take n bytes or fail with PM_ERR_TRUNCATED naming `field`. */
pm_result pmi_mr_take(pmi_model_reader *r, size_t n, const uint8_t **p, const char *field);
/* Check `count` records of at least min_record bytes can fit in what is left. */
pm_result pmi_mr_check_count(pmi_model_reader *r, uint64_t count, size_t min_record, const char *what);
/* idx (PM_NO_INDEX: none, accepted) must be < count: "<field> %u is out of range (%u <things>)". */
pm_result pmi_mr_check_index(pmi_model_reader *r, uint32_t idx, uint32_t count, const char *field, const char *things);
/* v must be at most max: "<field> %u is not <allowed>". */
pm_result pmi_mr_check_max(pmi_model_reader *r, uint32_t v, uint32_t max, const char *field, const char *allowed);
#define PMI_SHAPES "0 (sphere), 1 (box) or 2 (capsule)"
/* PM_ERR_BAD_FORMAT "<what> <k> names <thing> <idx> (<count> <thing>s)", idx printed signed (-1: none). */
pm_result pmi_mr_fail_names(pmi_model_reader *r, const char *what, uint32_t k, const char *thing, uint32_t idx,
                            uint32_t count);
/* n must be at most limit: PM_ERR_LIMIT "%u <things> is more than the limit of %u". */
pm_result pmi_mr_check_limit(pmi_model_reader *r, uint32_t n, uint32_t limit, const char *things);
/* A face index count: a multiple of 3 and, for pm_model_load, within max_indices. */
pm_result pmi_mr_face_count(pmi_model_reader *r, uint32_t n);
/* A material's face index count n: a multiple of 3 (pm_model_load), added to *drawn, which may not pass
 * the model's total. */
pm_result pmi_mr_material_faces(pmi_model_reader *r, uint64_t *drawn, uint32_t n, uint32_t total);
/* The highest bone a vertex weight names (max_bone_vertex PM_NO_INDEX: none) must be a bone; the
 * message names that vertex. */
pm_result pmi_mr_check_weights(pmi_model_reader *r, uint32_t max_bone, uint32_t max_bone_vertex, uint32_t vertex_count,
                               uint32_t bone_count);
/* The common entry point: argument checks, then `read` on a zeroed reader of reader_size bytes
 * (whose first member is the pmi_model_reader), then hand over or free the skeleton. */
typedef pm_result (*pmi_model_read_fn)(pmi_model_reader *r, const struct pm_model_read_options *opts);
pm_result pmi_mr_run(const char *format, const uint8_t *data, size_t size, const struct pm_model_read_options *opts,
                     pm_skeleton **out, pm_error *err, pmi_model_read_fn read, void *reader, size_t reader_size);
/* The same keeping the whole model (pm_model_load): r->model is `model` during the read. */
pm_result pmi_mr_run_model(const char *format, const uint8_t *data, size_t size,
                           const struct pm_model_load_options *opts, struct pm_model *model, pm_error *err,
                           pmi_model_read_fn read, void *reader, size_t reader_size);

/* ---- the whole model (model.c) ---- */
/* count * elem zeroed bytes owned by the model; NULL + err (PM_ERR_OUT_OF_MEMORY) on failure. */
void *pmi_model_array(pmi_model_reader *r, size_t count, size_t elem, const char *what);
/* Copy len bytes of valid UTF-8 into the model. */
pm_result pmi_model_string(pmi_model_reader *r, pm_string *dst, const char *utf8, size_t len);
/* Reserve len + 1 zeroed bytes for a string the caller fills (*buf). */
pm_result pmi_model_string_buffer(pmi_model_reader *r, pm_string *dst, size_t len, char **buf);
/* max_vertices / max_indices with their defaults. */
uint32_t pmi_model_max_vertices(const pmi_model_reader *r);
uint32_t pmi_model_max_indices(const pmi_model_reader *r);
/* The readers' whole-model entry points (pmx.c, pmd.c); model is zeroed with its arena set up. */
pm_result pmi_pmx_read_model(const uint8_t *data, size_t size, const struct pm_model_load_options *opts,
                             struct pm_model *model, pm_error *err);
pm_result pmi_pmd_read_model(const uint8_t *data, size_t size, const struct pm_model_load_options *opts,
                             struct pm_model *model, pm_error *err);

/* n little-endian 32-bit words (floats or integers, bits copied as they are) at p into dst: an array,
 * or a run of float fields of a model struct that the file stores in the same order (the runs below,
 * checked here), so each reader unpacks a record with one call instead of a field at a time. */
void pmi_le32s(void *dst, const uint8_t *p, size_t n);
#define PMI_FLOAT_RUN(type, first, last, n) (offsetof(type, last) == offsetof(type, first) + 4 * ((n) - 1))
_Static_assert(PMI_FLOAT_RUN(pm_model_vertex, position.x, uv[1], 8) && PMI_FLOAT_RUN(pm_model_vertex, sdef_c.x, sdef_r1.z, 9) &&
                   PMI_FLOAT_RUN(pm_model_material, diffuse[0], ambient[2], 11) &&
                   PMI_FLOAT_RUN(pm_model_material, edge_color[0], edge_size, 5) &&
                   PMI_FLOAT_RUN(pm_model_material_offset, diffuse[0], toon[3], 28) &&
                   PMI_FLOAT_RUN(pm_model_rigid_body, size.x, friction, 14) &&
                   PMI_FLOAT_RUN(pm_model_joint, position.x, spring_rotation.z, 24),
               "the float runs the readers unpack in one call");

/* pm_skeleton_validate with the format prefixed to its message. */
pm_result pmi_mr_validate(pmi_model_reader *r, const pm_skeleton *s);

#endif
