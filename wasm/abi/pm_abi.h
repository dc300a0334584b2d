/* The flat C ABI exported from the wasm builds (see docs/abi.md). Pointers are wasm32 offsets into
 * the module's memory; every buffer the host passes in was allocated with pm_abi_alloc and is freed by
 * the host with pm_abi_free. Errors are written as NUL-terminated UTF-8 into a host-provided
 * PM_ABI_ERROR_SIZE-byte buffer. */
#ifndef PROCMOTION_ABI_H
#define PROCMOTION_ABI_H

#include "procmotion/common.h"

#include <stdint.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#define PM_EXPORT EMSCRIPTEN_KEEPALIVE
#elif defined(__wasm__)
#define PM_EXPORT __attribute__((visibility("default"), used))
#else
#define PM_EXPORT
#endif

#define PM_ABI_ERROR_SIZE 256

/* Copy an error's message into a host error buffer (PM_ABI_ERROR_SIZE bytes; NULL is ignored). */
void pm_abi_set_error(char *errbuf, const pm_error *err);
/* pm_abi_set_error, then r as the int32 the exports return. */
int32_t pm_abi_fail(char *errbuf, const pm_error *err, pm_result r);

/* A beat grid as the host passes it (procmotion/beats.h): doubles [bpm, offset, beats_per_bar,
 * first_downbeat, beat_count, beats...]; NULL = no grid (*out zeroed). The beats are borrowed from the
 * block. PM_ERR_INVALID_ARGUMENT for a count that is not a whole number. */
#include "procmotion/beats.h"
pm_result pm_abi_grid_in(const double *block, pm_beat_grid *out, pm_error *err);

#endif
