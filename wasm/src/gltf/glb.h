/* The GLB container (glTF 2.0 binary): one reader and one writer for every module that handles GLB, VRM
 * and VRM Animation files. */
#ifndef PROCMOTION_GLTF_GLB_H
#define PROCMOTION_GLTF_GLB_H

#include "common/internal.h"

/* Whether the bytes start with the GLB magic "glTF". */
static inline bool pmi_glb_is(const uint8_t *data, size_t size) { return size >= 4 && memcmp(data, "glTF", 4) == 0; }

/* The JSON chunk and the first BIN chunk (*bin NULL when there is none) of a GLB file: version 2, the
 * header's length within `size`, every chunk length checked, zero padding after the last chunk allowed.
 * Errors name what is wrong (PM_ERR_TRUNCATED, PM_ERR_BAD_FORMAT), prefixed "gltf: ". */
pm_result pmi_glb_split(const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size, const uint8_t **bin,
                        size_t *bin_size, pm_error *err);

/* The JSON text of a glTF file: a GLB's JSON chunk, or a .gltf file from its first '{' (leading
 * whitespace and a UTF-8 BOM skipped). */
pm_result pmi_gltf_json_text(const uint8_t *data, size_t size, const char **json, size_t *json_size, pm_error *err);

/* The size of a GLB holding json_size bytes of JSON and bin_size bytes of binary (each chunk padded to 4
 * bytes), or 0 when it would not fit GLB's 32-bit length. */
size_t pmi_glb_size(size_t json_size, size_t bin_size);
/* Write that GLB into out (pmi_glb_size bytes): the header, the JSON chunk padded with spaces, the BIN
 * chunk padded with zeros (written even when empty). */
void pmi_glb_write(uint8_t *out, const char *json, size_t json_size, const uint8_t *bin, size_t bin_size);

#endif
