/* Internal: the VRM writer's image helpers (vrm_image.c). */
#ifndef PROCMOTION_VRM_INTERNAL_H
#define PROCMOTION_VRM_INTERNAL_H

#include "common/internal.h"
#include "procmotion/vrm.h"
#include "vrm/meta.h"

#include <stddef.h>

typedef enum pmi_image_kind {
    PMI_IMAGE_UNKNOWN = 0,
    PMI_IMAGE_PNG,
    PMI_IMAGE_JPEG,
    PMI_IMAGE_BMP,
    PMI_IMAGE_TGA,
    PMI_IMAGE_DDS,
    PMI_IMAGE_GIF
} pmi_image_kind;

/* What the bytes are (by magic; TGA, which has none, by a header that makes sense and a name ending in
 * ".tga"). */
pmi_image_kind pmi_image_sniff(const uint8_t *data, size_t size, const char *name, size_t name_len);
/* "image/png", ... or a short name ("bmp", "dds") for the report. */
const char *pmi_image_kind_name(pmi_image_kind kind);

/* An image decoded to 8-bit RGBA, top row first (pixels from the allocator; pmi_free). */
typedef struct pmi_rgba {
    uint8_t *pixels;
    uint32_t width, height;
    bool has_alpha; /* some pixel is not opaque */
} pmi_rgba;

#define PMI_IMAGE_MAX_PIXELS (16u * 1024u * 1024u)

/* BMP (BI_RGB 1/4/8/24/32-bit, BI_BITFIELDS 16/32-bit) and TGA (types 1, 2, 3, 9, 10, 11) decoders.
 * Failures fill err (PM_ERR_BAD_FORMAT / TRUNCATED / LIMIT / OUT_OF_MEMORY) with a message naming what
 * is wrong; nothing is left allocated. */
pm_result pmi_bmp_decode(const uint8_t *data, size_t size, const pm_allocator *a, pmi_rgba *out, pm_error *err);
pm_result pmi_tga_decode(const uint8_t *data, size_t size, const pm_allocator *a, pmi_rgba *out, pm_error *err);

/* The image as a PNG (RGBA, or RGB when opaque; stored deflate blocks: no compression) appended to buf. */
void pmi_png_encode(const pmi_rgba *img, pmi_buf *buf);

/* Whether a PNG declares an alpha channel (grey+alpha or RGBA) or a tRNS chunk. */
bool pmi_png_has_alpha(const uint8_t *data, size_t size);

#endif
