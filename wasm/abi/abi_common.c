/* Memory management and version exports shared by every module of the ABI. */
#include "pm_abi.h"

#include "common/internal.h"
#include "procmotion/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pm_abi_set_error(char *errbuf, const pm_error *err) {
    if (!errbuf || !err) return;
    size_t n = 0;
    while (n < PM_ABI_ERROR_SIZE - 1 && err->message[n]) n++;
    memcpy(errbuf, err->message, n);
    errbuf[n] = '\0';
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

#if defined(__EMSCRIPTEN__)
#include <malloc.h>
/* Bytes currently allocated by malloc (dlmalloc's uordblks): lets the host check that calls leak nothing. */
PM_EXPORT uint32_t pm_abi_heap_in_use(void) { return (uint32_t)mallinfo().uordblks; }
#else
/* Not tracked outside the Emscripten build. */
PM_EXPORT uint32_t pm_abi_heap_in_use(void) { return 0; }
#endif

pm_result pm_abi_grid_in(const double *b, pm_beat_grid *out, pm_error *err) {
    memset(out, 0, sizeof *out);
    if (!b) return PM_OK;
    if (!(b[4] >= 0 && b[4] <= 4294967295.0 && b[4] == floor(b[4])) || !(b[2] >= 0 && b[2] <= 64) || !(b[3] >= 0 && b[3] < 4294967295.0))
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "abi: a beat grid block with %g beats, %g a bar, downbeat %g", b[4], b[2], b[3]);
    out->bpm = b[0];
    out->offset = b[1];
    out->beats_per_bar = (uint32_t)b[2];
    out->first_downbeat = (uint32_t)b[3];
    out->beat_count = (uint32_t)b[4];
    out->beats = out->beat_count ? b + 5 : NULL;
    return PM_OK;
}
