/*
 * procmotion/common.h -- results, errors and allocators shared by every module.
 *
 * USAGE
 *   Every fallible call returns a pm_result and takes an optional `pm_error *err` as its last
 *   argument. PM_OK (0) is success; anything else is a failure and, when `err` is not NULL,
 *   err->message holds a human sentence naming what was wrong and where, for example
 *   "vmd: bone key 12 of 406 is truncated (needs 111 bytes at offset 1372, 40 left)".
 *
 *       pm_error err = {0};
 *       pm_vmd *vmd = NULL;
 *       if (pm_vmd_read(data, size, NULL, &vmd, &err) != PM_OK)
 *           fprintf(stderr, "%s\n", err.message);
 *
 * OWNERSHIP
 *   Whoever allocates documents who frees. Results made by procmotion are freed with the
 *   module's own pm_x_free(), which accepts NULL. A result remembers the allocator it was
 *   made with.
 *
 * THREADS AND WASM
 *   There is no global mutable state: every call is reentrant and may run on any thread.
 *   The core uses only the C library (no stdio, no Emscripten calls), so it builds for
 *   wasm32-wasi with zero imports.
 */
#ifndef PROCMOTION_COMMON_H
#define PROCMOTION_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_VERSION_MAJOR 0
#define PM_VERSION_MINOR 1
#define PM_VERSION_PATCH 0
#define PM_VERSION_STRING "0.1.0"

/* An index that refers to nothing (a missing parent, an unresolved bone). */
#define PM_NO_INDEX UINT32_MAX

typedef enum pm_result {
    PM_OK = 0,
    PM_ERR_INVALID_ARGUMENT, /* a parameter is NULL, NaN, Inf or otherwise unusable */
    PM_ERR_TRUNCATED,        /* the data ends before a record it announces */
    PM_ERR_BAD_FORMAT,       /* wrong magic, bad enum value, inconsistent structure */
    PM_ERR_OUT_OF_MEMORY,    /* the allocator failed or memory_limit was reached */
    PM_ERR_LIMIT,            /* a count or depth exceeds a documented limit */
    PM_ERR_ENCODING,         /* text that cannot be encoded or decoded */
    PM_ERR_NOT_FOUND,        /* a named bone, joint or file is not there */
    PM_ERR_IO,               /* reading or writing a file failed (CLI only) */
    PM_RESULT_COUNT,
    PM_RESULT_FORCE_U32 = 0x7fffffff
} pm_result;

#define PM_ERROR_MESSAGE_SIZE 256

/* Filled by a failing call. Zero-initialise it; it needs no freeing. */
typedef struct pm_error {
    pm_result type;                      /* PM_OK while nothing has failed */
    char message[PM_ERROR_MESSAGE_SIZE]; /* NUL-terminated UTF-8, one sentence */
    const char *file;                    /* source file of the failing check (debug aid; NULL in */
    int line;                            /* the wasm builds) and its line (0 there) */
} pm_error;

/* Name of a result code, e.g. "PM_ERR_TRUNCATED". Never NULL. */
const char *pm_result_name(pm_result result);

/*
 * Custom allocation. Zero-initialised means malloc/free with no limit.
 *   alloc(user, size) returns NULL on failure; free(user, ptr) accepts NULL.
 *   memory_limit: 0 = no limit; otherwise a single allocation larger than this fails with
 *   PM_ERR_OUT_OF_MEMORY (a guard against hostile counts, checked before calling alloc).
 */
typedef struct pm_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
    size_t memory_limit;
} pm_allocator;

/* A view of UTF-8 text owned by whoever holds the containing result. NUL-terminated. */
typedef struct pm_string {
    const char *data;
    uint32_t length; /* bytes, without the NUL */
} pm_string;

/* An amount that may be left at its default: {false, *} = the default, {true, v} = v (then clamped to
 * the parameter's range). Zero-initialised it is the default. */
typedef struct pm_amount {
    bool set;
    float value;
} pm_amount;

#ifdef __cplusplus
#define PM_AMOUNT(v) (pm_amount{true, (float)(v)})
#else
#define PM_AMOUNT(v) ((pm_amount){true, (float)(v)})
#endif

#ifdef __cplusplus
}
#endif

#endif
