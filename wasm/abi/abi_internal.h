/* Helpers shared by the abi_*.c exports (not exported themselves). */
#ifndef PROCMOTION_ABI_INTERNAL_H
#define PROCMOTION_ABI_INTERNAL_H

#include "pm_abi.h"

#include "procmotion/common.h"

/* pm_abi_set_error (copy an error message into the host's buffer) is declared in pm_abi.h. */

#endif
