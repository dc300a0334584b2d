/* The flat C ABI exported from the wasm builds. Pointers are wasm32 offsets into the module's memory;
 * every buffer the host passes in was allocated with pm_abi_alloc and is freed by the host with
 * pm_abi_free. Errors go into a host-provided PM_ABI_ERROR_SIZE-byte buffer laid out as
 * PM_ABI_LAYOUT_ERROR: the message (NUL-terminated UTF-8) and the pm_result. What is exported, from
 * which wasm module, and every slot layout: pm_abi_table.h. */
#ifndef PROCMOTION_ABI_H
#define PROCMOTION_ABI_H

#include "pm_abi_table.h"
#include "procmotion/common.h"

#include <stdint.h>

#if defined(__EMSCRIPTEN__)
/* Exported by name: the Emscripten links export exactly PM_ABI_EXPORTS (build-scripts/link-wasm.mjs). */
#define PM_EXPORT
#elif defined(__wasm__)
#define PM_EXPORT __attribute__((visibility("default"), used))
#else
#define PM_EXPORT
#endif

enum { PM_ABI_LAYOUT_ERROR(PM_ABI_SLOT_ENUM, PM_ABI_ERROR_) PM_ABI_ERROR_SIZE };

/* Copy an error's message (cut at a whole character to fit) and type into a host error buffer
 * (PM_ABI_ERROR_SIZE bytes; NULL is ignored). A cleared pm_error writes "" and PM_OK. */
void pm_abi_set_error(char *errbuf, const pm_error *err);
/* pm_abi_set_error, then r as the int32 the exports return. */
int32_t pm_abi_fail(char *errbuf, const pm_error *err, pm_result r);

/* A beat grid as the host passes it (procmotion/beats.h): doubles laid out as PM_ABI_LAYOUT_GRID_IN
 * [bpm, offset, beats_per_bar, first_downbeat, beat_count, beats...] (PM_ABI_GRID_HEADER + beat_count
 * doubles); NULL = no grid (*out zeroed). The beats are borrowed from the block.
 * PM_ERR_INVALID_ARGUMENT for a count that is not a whole number. */
#include "procmotion/beats.h"
enum { PM_ABI_LAYOUT_GRID_IN(PM_ABI_SLOT_ENUM, PM_ABI_GRID_) PM_ABI_GRID_HEADER };
pm_result pm_abi_grid_in(const double *block, pm_beat_grid *out, pm_error *err);

/* A model given by name lists as the host passes it (procmotion/rig.h's pm_target_model): seven slots
 * from `d`, in the order of PM_ABI_LAYOUT_CATWALK's HAS_MODEL .. PARENTS (bit 0 of HAS_MODEL: a model is
 * given, bit 1: its bone names are given; name slot pairs as in the VMD descriptor for writing; optional
 * float[3 * bones] world rest positions and int32[bones] parents, -1 = none). `what` starts messages. On
 * PM_OK *t holds the model and what it owns (pm_abi_target_free); t->given is false without one. */
#include "procmotion/rig.h"
typedef struct pm_abi_target {
    bool given;
    pm_target_model model;
    char **bones, **morphs;
    pm_vec3 *positions;
    uint32_t *parents;
} pm_abi_target;
pm_result pm_abi_target_in(const uint32_t *d, const char *what, pm_abi_target *t, pm_error *err);
void pm_abi_target_free(pm_abi_target *t);

/* A motion's VMD bytes in a new buffer for the host (which frees it with pm_abi_free): *out and *size
 * on PM_OK; `what` starts the message when memory runs out. */
#include "procmotion/vmd.h"
pm_result pm_abi_vmd_bytes(const pm_vmd *vmd, const char *what, uint8_t **out, size_t *size, pm_error *err);

/* The end of a bake export: on r == PM_OK the motion's bytes go to *out_vmd / *out_size and the report
 * (`report`, NULL = out of memory) as JSON text to *out_report / *out_len, both host-freed; else (or
 * when that runs out of memory) errbuf takes the error. Frees `vmd` and `report`. Returns the export's
 * result. */
#include <cjson/cJSON.h>
int32_t pm_abi_bake_out(pm_result r, pm_error *err, const char *what, pm_vmd *vmd, cJSON *report, uint8_t **out_vmd,
                        uint32_t *out_size, char **out_report, uint32_t *out_len, char *errbuf);

#endif
