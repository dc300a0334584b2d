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
