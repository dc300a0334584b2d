/* Memory management and version exports shared by every module of the ABI. */
#include "pm_abi.h"

#include "procmotion/common.h"

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
