/* Helpers shared by the abi_*.c exports (not exported themselves). */
#ifndef PROCMOTION_ABI_INTERNAL_H
#define PROCMOTION_ABI_INTERNAL_H

#include "pm_abi.h"

#include "procmotion/common.h"

#include <string.h>

/* Copy an error message into the host's PM_ABI_ERROR_SIZE-byte buffer (NULL is fine). */
static inline void pm_abi_set_error(char *errbuf, const pm_error *err) {
    if (!errbuf) return;
    size_t n = strlen(err->message);
    if (n >= PM_ABI_ERROR_SIZE) n = PM_ABI_ERROR_SIZE - 1;
    memcpy(errbuf, err->message, n);
    errbuf[n] = '\0';
}

#endif
