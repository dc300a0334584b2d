/* The Shift-JIS encoder's map of double-byte code points, derived from the decode table when a call
 * first needs it (text/sjis.c; docs/formats.md). Internal: for callers that encode many names
 * (pm_vmd_intern and the VMD writer), which keep one map across their calls instead of one per call. */
#ifndef PROCMOTION_SJIS_ENCODER_H
#define PROCMOTION_SJIS_ENCODER_H

#include "procmotion/text.h"

/* About 50 KB from `allocator` (NULL: malloc); the caller frees it with pmi_sjis_encoder_free. */
typedef struct pmi_sjis_encoder pmi_sjis_encoder;
/* NULL when out of memory (the encoder then searches the decode table: slower, same bytes). */
pmi_sjis_encoder *pmi_sjis_encoder_create(const pm_allocator *allocator);
void pmi_sjis_encoder_free(pmi_sjis_encoder *encoder);

/* pm_utf8_to_sjis, with the map in *encoder: made with `allocator` when *encoder is NULL and a
 * character needs it, then kept there for the caller's next calls (and to free). */
pm_result pmi_utf8_to_sjis_with(pmi_sjis_encoder **encoder, const pm_allocator *allocator, const char *utf8,
                                 size_t len, uint8_t *out, size_t out_cap, size_t *out_len, bool *truncated,
                                 pm_error *err);

#endif
