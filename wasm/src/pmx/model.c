/* pm_model_load: the whole PMX / PMD model (see pmx.h, "the whole model"). The readers are pmx.c and
 * pmd.c; this file owns the model's memory. */
#include "procmotion/pmx.h"

#include "common/strings.h"
#include "pmx/pmx_internal.h"

#define PMI_MODEL_MAGIC 0x4c444f4du /* "MODL" */

typedef struct model_internal {
    pmi_arena arena; /* every array and string of the model */
} model_internal;

void *pmi_model_array(pmi_model_reader *r, size_t count, size_t elem, const char *what) {
    model_internal *in = r->model->internal;
    if (elem && count > SIZE_MAX / 4 / elem) {
        pmi_fail(r->err, PM_ERR_OUT_OF_MEMORY, "%s: %zu elements of %zu bytes overflow the address space", what,
                 count, elem);
        return NULL;
    }
    size_t size = count * elem;
    void *p = pmi_arena_alloc(&in->arena, size ? size : 1);
    if (!p) pmi_fail(r->err, PM_ERR_OUT_OF_MEMORY, "%s: out of memory allocating %zu bytes", what, size);
    return p;
}

pm_result pmi_model_string_buffer(pmi_model_reader *r, pm_string *dst, size_t len, char **buf) {
    if (len >= UINT32_MAX) return pmi_fail(r->err, PM_ERR_LIMIT, "%s: a text of %zu bytes is too long", r->format, len);
    char *p = pmi_model_array(r, len + 1, 1, "model text");
    if (!p) return PM_ERR_OUT_OF_MEMORY;
    dst->data = p;
    dst->length = (uint32_t)len;
    *buf = p;
    return PM_OK;
}

pm_result pmi_model_string(pmi_model_reader *r, pm_string *dst, const char *utf8, size_t len) {
    char *buf = NULL; /* set by pmi_model_string_buffer on success (GCC -O3 cannot see it: -Wmaybe-uninitialized) */
    PMI_TRY(pmi_model_string_buffer(r, dst, len, &buf));
    if (len) memcpy(buf, utf8, len);
    return PM_OK;
}

uint32_t pmi_model_max_vertices(const pmi_model_reader *r) {
    return r->load && r->load->max_vertices ? r->load->max_vertices : 16777216u;
}
uint32_t pmi_model_max_indices(const pmi_model_reader *r) {
    return r->load && r->load->max_indices ? r->load->max_indices : 67108864u;
}

static const char empty[1] = "";

/* Every pm_string the reader left unset points at "" so callers never meet a NULL data pointer. */
static void fill_strings(pm_model *m) {
#define FIX(s) ((s).data ? (void)0 : (void)((s).data = empty, (s).length = 0))
    for (uint32_t i = 0; i < m->texture_count; i++) FIX(m->textures[i]);
    for (uint32_t i = 0; i < m->material_count; i++) {
        FIX(m->materials[i].name);
        FIX(m->materials[i].name_en);
        FIX(m->materials[i].memo);
    }
    for (uint32_t i = 0; i < m->morph_count; i++) {
        FIX(m->morphs[i].name);
        FIX(m->morphs[i].name_en);
    }
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        FIX(m->display_frames[i].name);
        FIX(m->display_frames[i].name_en);
    }
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        FIX(m->rigid_bodies[i].name);
        FIX(m->rigid_bodies[i].name_en);
    }
    for (uint32_t i = 0; i < m->joint_count; i++) {
        FIX(m->joints[i].name);
        FIX(m->joints[i].name_en);
    }
#undef FIX
}

pm_result pm_model_load(const uint8_t *data, size_t size, const pm_model_load_options *opts, pm_model **out,
                        pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "model: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "model: data is NULL");
    bool pmx = data && size >= 4 && memcmp(data, "PMX ", 4) == 0;
    bool pmd = data && size >= 3 && memcmp(data, "Pmd", 3) == 0;
    if (!pmx && !pmd) return pmi_fail(err, PM_ERR_BAD_FORMAT, "model: not a PMX or PMD file (no \"PMX \" or \"Pmd\" magic)");
    pm_allocator a = {0};
    if (opts) a = opts->read.allocator;
    pm_model *m = pmi_alloc_array(&a, 1, sizeof *m, err, "model");
    if (!m) return PM_ERR_OUT_OF_MEMORY;
    model_internal *in = pmi_alloc_array(&a, 1, sizeof *in, err, "model");
    if (!in) {
        pmi_free(&a, m);
        return PM_ERR_OUT_OF_MEMORY;
    }
    m->magic = PMI_MODEL_MAGIC;
    m->allocator = a;
    m->internal = in;
    in->arena.allocator = &m->allocator;
    in->arena.chunk_size = 65536;
    pm_result r = pmx ? pmi_pmx_read_model(data, size, opts, m, err) : pmi_pmd_read_model(data, size, opts, m, err);
    if (r != PM_OK) {
        pm_model_free(m);
        return r;
    }
    fill_strings(m);
    *out = m;
    return PM_OK;
}

void pm_model_free(pm_model *m) {
    if (!m || m->magic != PMI_MODEL_MAGIC) return;
    pm_skeleton_free(m->skeleton);
    model_internal *in = m->internal;
    pm_allocator a = m->allocator;
    if (in) pmi_arena_release(&in->arena);
    m->magic = 0;
    pmi_free(&a, in);
    pmi_free(&a, m);
}
