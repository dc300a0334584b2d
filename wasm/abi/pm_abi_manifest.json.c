/* Not compiled: build-scripts/link-wasm.mjs runs the C preprocessor over this file (cc -E -P) and
 * reads the output as JSON, the wasm interface of pm_abi_table.h as data: modules, exports (module,
 * name), layouts (slot name, values), enums (name, value) and results. From it the script writes
 * js-glue/dist/abi.js and the export list of each wasm module. */
#include "pm_abi_table.h"

#define M_MODULE(P, NAME) #NAME,
#define M_EXPORT(P, MODULE, NAME) [#MODULE, #NAME],
#define M_SLOT(P, NAME, N) [#NAME, N],
#define M_LAYOUT(P, MODULE, L) #L: [#MODULE, PM_ABI_LAYOUT_##L(M_SLOT, ) null],
#define M_VALUE(P, NAME, VALUE, CONSTANT) [#NAME, VALUE],
#define M_ENUM(P, MODULE, E) #E: [#MODULE, PM_ABI_ENUM_##E(M_VALUE, ) null],
#define M_RESULT(P, NAME, VALUE) [#NAME, VALUE],

{
  "modules": [PM_ABI_MODULES(M_MODULE, ) null],
  "exports": [PM_ABI_EXPORTS(M_EXPORT, ) null],
  "layouts": { PM_ABI_LAYOUTS(M_LAYOUT, ) "": null },
  "enums": { PM_ABI_ENUMS(M_ENUM, ) "": null },
  "results": [PM_ABI_RESULTS(M_RESULT, ) null]
}
