/* Link anchor for the wasm executables (the exports live in the other abi_*.c files). */
#include "pm_abi.h"
