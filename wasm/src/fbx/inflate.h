/* Internal: zlib streams (RFC 1950 around RFC 1951 deflate) decoded into a buffer of known size, as
 * FBX's compressed arrays need. */
#ifndef PROCMOTION_FBX_INFLATE_H
#define PROCMOTION_FBX_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* Decode the zlib stream in[0..in_len) into out, which must come out exactly out_len bytes long.
 * Returns NULL on success, else what is wrong ("a distance reaches before the start", ...). Reads and
 * writes stay inside both buffers whatever the input; the Adler-32 check is verified. */
const char *pmi_inflate_zlib(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);

#endif
