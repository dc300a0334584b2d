/* Memory management and version exports shared by every module of the ABI. */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

PM_ABI_RESULTS(PM_ABI_CHECK_RESULT, )
_Static_assert(PM_ABI_ERROR_MESSAGE % 4 == 0 && PM_ABI_ERROR_CODE % 4 == 0, "error buffer: aligned code");

void pm_abi_set_error(char *errbuf, const pm_error *err) {
    if (!errbuf || !err) return;
    size_t n = 0;
    while (n < PM_ABI_ERROR_CODE - 1 && err->message[n]) n++;
    if (err->message[n]) /* cut: never inside a UTF-8 sequence */
        while (n > 0 && ((unsigned char)err->message[n] & 0xC0) == 0x80) n--;
    memcpy(errbuf, err->message, n);
    errbuf[n] = '\0';
    const int32_t code = (int32_t)err->type;
    memcpy(errbuf + PM_ABI_ERROR_CODE, &code, sizeof code);
}

int32_t pm_abi_fail(char *errbuf, const pm_error *err, pm_result r) {
    pm_abi_set_error(errbuf, err);
    return (int32_t)r;
}

/* Allocate `size` bytes in the module's memory (NULL when out of memory; never aborts). */
PM_EXPORT void *pm_abi_alloc(uint32_t size) { return malloc(size ? size : 1); }

/* Free memory from pm_abi_alloc or from any pm_abi_* call documented as host-freed. NULL is fine. */
PM_EXPORT void pm_abi_free(void *ptr) { free(ptr); }

/* Library version as MAJOR * 10000 + MINOR * 100 + PATCH. */
PM_EXPORT uint32_t pm_abi_version(void) { return PM_VERSION_MAJOR * 10000 + PM_VERSION_MINOR * 100 + PM_VERSION_PATCH; }

pm_result pm_abi_grid_in(const double *b, pm_beat_grid *out, pm_error *err) {
    memset(out, 0, sizeof *out);
    if (!b) return PM_OK;
    const double count = b[PM_ABI_GRID_BEAT_COUNT], per_bar = b[PM_ABI_GRID_BEATS_PER_BAR], down = b[PM_ABI_GRID_FIRST_DOWNBEAT];
    if (!(count >= 0 && count <= 4294967295.0 && count == floor(count)) || !(per_bar >= 0 && per_bar <= 64) ||
        !(down >= 0 && down < 4294967295.0))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "abi: a beat grid block with %g beats, %g a bar, downbeat %g", count, per_bar, down);
    out->bpm = b[PM_ABI_GRID_BPM];
    out->offset = b[PM_ABI_GRID_OFFSET];
    out->beats_per_bar = (uint32_t)per_bar;
    out->first_downbeat = (uint32_t)down;
    out->beat_count = (uint32_t)count;
    out->beats = out->beat_count ? b + PM_ABI_GRID_BEATS : NULL;
    return PM_OK;
}

/* count names given as byte offsets into a blob -> NUL-terminated copies in one allocation */
static char **names_in(uint32_t count, const uint32_t *offsets, const char *what, pm_error *err) {
    if (!count) return NULL;
    if (!offsets) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "abi: %s names are missing", what), NULL;
    const char *blob = (const char *)(uintptr_t)offsets[count + 1];
    for (uint32_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "abi: bad name offsets"), NULL;
    size_t bytes = (size_t)offsets[count] + count;
    char **out = pmi_alloc_array(NULL, (size_t)count * sizeof(char *) + bytes, 1, err, "abi: names");
    if (!out) return NULL;
    char *text = (char *)(out + count);
    for (uint32_t i = 0; i < count; i++) {
        size_t n = offsets[i + 1] - offsets[i];
        memcpy(text, blob + offsets[i], n);
        text[n] = '\0';
        out[i] = text;
        text += n + 1;
    }
    return out;
}

enum { T_HAS_MODEL, T_BONES, T_BONE_OFFSETS, T_MORPHS, T_MORPH_OFFSETS, T_POSITIONS, T_PARENTS };

pm_result pm_abi_target_in(const uint32_t *d, const char *what, pm_abi_target *t, pm_error *err) {
    memset(t, 0, sizeof *t);
    if (!d[T_HAS_MODEL]) return PM_OK;
    t->given = true;
    uint32_t nb = d[T_BONES], nm = d[T_MORPHS];
    t->bones = names_in(nb, (const uint32_t *)(uintptr_t)d[T_BONE_OFFSETS], what, err);
    t->morphs = names_in(nm, (const uint32_t *)(uintptr_t)d[T_MORPH_OFFSETS], what, err);
    if ((nb && !t->bones) || (nm && !t->morphs)) {
        pm_result r = err->type ? err->type : PM_ERR_OUT_OF_MEMORY;
        pm_abi_target_free(t);
        return r;
    }
    static const char *const no_names[1] = {0};
    t->model.bone_count = nb;
    t->model.bone_names = (d[T_HAS_MODEL] & 2) ? (t->bones ? (const char *const *)t->bones : no_names) : NULL;
    t->model.morph_count = nm;
    t->model.morph_names = (const char *const *)t->morphs;
    if (d[T_POSITIONS] && nb) {
        const float *f = (const float *)(uintptr_t)d[T_POSITIONS];
        if (!(t->positions = pmi_alloc_array(NULL, nb, sizeof *t->positions, err, "abi: positions"))) {
            pm_abi_target_free(t);
            return PM_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < nb; i++) t->positions[i] = (pm_vec3){f[3 * i], f[3 * i + 1], f[3 * i + 2]};
        t->model.bone_positions = t->positions;
    }
    if (d[T_PARENTS] && nb) {
        const int32_t *pi = (const int32_t *)(uintptr_t)d[T_PARENTS];
        if (!(t->parents = pmi_alloc_array(NULL, nb, sizeof *t->parents, err, "abi: parents"))) {
            pm_abi_target_free(t);
            return PM_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < nb; i++) t->parents[i] = pi[i] >= 0 && (uint32_t)pi[i] < nb ? (uint32_t)pi[i] : PM_NO_INDEX;
        t->model.bone_parents = t->parents;
    }
    return PM_OK;
}

void pm_abi_target_free(pm_abi_target *t) {
    pmi_free(NULL, t->bones);
    pmi_free(NULL, t->morphs);
    pmi_free(NULL, t->positions);
    pmi_free(NULL, t->parents);
    memset(t, 0, sizeof *t);
}

pm_result pm_abi_vmd_bytes(const pm_vmd *vmd, const char *what, uint8_t **out, size_t *size, pm_error *err) {
    *out = NULL;
    *size = 0;
    size_t n = 0;
    pm_result r = pm_vmd_write(vmd, NULL, 0, &n, err);
    if (r != PM_OK) return r;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "%s: out of memory for a %zu-byte VMD", what, n);
    if ((r = pm_vmd_write(vmd, buf, n, &n, err)) != PM_OK) {
        free(buf);
        return r;
    }
    *out = buf;
    *size = n;
    return PM_OK;
}

int32_t pm_abi_bake_out(pm_result r, pm_error *err, const char *what, pm_vmd *vmd, cJSON *report, uint8_t **out_vmd,
                        uint32_t *out_size, char **out_report, uint32_t *out_len, char *errbuf) {
    *out_vmd = NULL, *out_size = 0, *out_report = NULL, *out_len = 0;
    uint8_t *buf = NULL;
    size_t size = 0;
    char *text = NULL;
    if (r == PM_OK) r = pm_abi_vmd_bytes(vmd, what, &buf, &size, err);
    if (r == PM_OK && !(text = report ? cJSON_PrintUnformatted(report) : NULL))
        r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "%s: out of memory for the report", what);
    cJSON_Delete(report);
    pm_vmd_free(vmd);
    if (r != PM_OK) {
        free(buf);
        free(text);
        return pm_abi_fail(errbuf, err, r);
    }
    *out_vmd = buf, *out_size = (uint32_t)size, *out_report = text, *out_len = (uint32_t)strlen(text);
    return 0;
}
