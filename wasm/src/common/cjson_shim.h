/* Force-included into cJSON.c in the wasm builds: declares the libc-free replacements that the
 * build maps sprintf/sscanf to (see CMakeLists.txt and format.c). */
#ifndef PROCMOTION_CJSON_SHIM_H
#define PROCMOTION_CJSON_SHIM_H
int pmi_cjson_sprintf(char *out, const char *fmt, ...);
int pmi_cjson_sscanf(const char *in, const char *fmt, ...);
#endif
