/* Force-included into cJSON.c in the wasm builds: declares the libc-free replacements that the
 * build maps sprintf/sscanf/strtod to (see CMakeLists.txt, format.c and number.c: no stdio, and no
 * musl strtod with its long double arithmetic). */
#ifndef PROCMOTION_CJSON_SHIM_H
#define PROCMOTION_CJSON_SHIM_H
int pmi_cjson_sprintf(char *out, const char *fmt, ...);
int pmi_cjson_sscanf(const char *in, const char *fmt, ...);
double pmi_strtod(const char *str, char **endptr);
#endif
