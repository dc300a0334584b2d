/* Images for the VRM writer: sniffing, BMP and TGA decoding, PNG encoding (see vrm_internal.h). */
#include "vrm/vrm_internal.h"

static bool ends_with_ci(const char *s, size_t n, const char *suffix) {
    size_t k = strlen(suffix);
    if (!s || n < k) return false;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c != suffix[i]) return false;
    }
    return true;
}

static bool tga_header_ok(const uint8_t *d, size_t size) {
    if (size < 18) return false;
    uint8_t cmap = d[1], type = d[2], bpp = d[16];
    if (cmap > 1) return false;
    switch (type) {
    case 1: case 9: return cmap == 1 && bpp == 8;
    case 2: case 10: return bpp == 15 || bpp == 16 || bpp == 24 || bpp == 32;
    case 3: case 11: return bpp == 8;
    default: return false;
    }
}

pmi_image_kind pmi_image_sniff(const uint8_t *d, size_t size, const char *name, size_t name_len) {
    if (size >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return PMI_IMAGE_PNG;
    if (size >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return PMI_IMAGE_JPEG;
    if (size >= 4 && memcmp(d, "DDS ", 4) == 0) return PMI_IMAGE_DDS;
    if (size >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) return PMI_IMAGE_GIF;
    if (size >= 2 && d[0] == 'B' && d[1] == 'M') return PMI_IMAGE_BMP;
    if (ends_with_ci(name, name_len, ".tga") && tga_header_ok(d, size)) return PMI_IMAGE_TGA;
    return PMI_IMAGE_UNKNOWN;
}

const char *pmi_image_kind_name(pmi_image_kind kind) {
    switch (kind) {
    case PMI_IMAGE_PNG: return "image/png";
    case PMI_IMAGE_JPEG: return "image/jpeg";
    case PMI_IMAGE_BMP: return "bmp";
    case PMI_IMAGE_TGA: return "tga";
    case PMI_IMAGE_DDS: return "dds";
    case PMI_IMAGE_GIF: return "gif";
    default: return "unknown";
    }
}

static pm_result alloc_pixels(const pm_allocator *a, uint64_t w, uint64_t h, pmi_rgba *out, const char *what,
                              pm_error *err) {
    if (w == 0 || h == 0) return pmi_fail(err, PM_ERR_BAD_FORMAT, "%s: the image is %llux%llu", what,
                                          (unsigned long long)w, (unsigned long long)h);
    if (w * h > PMI_IMAGE_MAX_PIXELS)
        return pmi_fail(err, PM_ERR_LIMIT, "%s: %llux%llu pixels is more than the limit of %u", what,
                        (unsigned long long)w, (unsigned long long)h, PMI_IMAGE_MAX_PIXELS);
    out->pixels = pmi_alloc_array_unzeroed(a, (size_t)(w * h), 4, err, what);
    if (!out->pixels) return PM_ERR_OUT_OF_MEMORY;
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    out->has_alpha = false;
    return PM_OK;
}

/* ---- BMP ---------------------------------------------------------------------------------------- */

static int mask_shift(uint32_t m) {
    int s = 0;
    if (!m) return 0;
    while (!(m & 1)) m >>= 1, s++;
    return s;
}
static uint8_t mask_value(uint32_t px, uint32_t m) {
    if (!m) return 255;
    uint32_t v = (px & m) >> mask_shift(m), max = m >> mask_shift(m);
    return (uint8_t)(max ? (v * 255 + max / 2) / max : 0);
}

pm_result pmi_bmp_decode(const uint8_t *d, size_t size, const pm_allocator *a, pmi_rgba *out, pm_error *err) {
    memset(out, 0, sizeof *out);
    if (size < 26 || d[0] != 'B' || d[1] != 'M') return pmi_fail(err, PM_ERR_BAD_FORMAT, "bmp: no BM header");
    uint32_t offset = pmi_le32(d + 10), hsize = pmi_le32(d + 14);
    int64_t w, h;
    uint32_t bpp, comp = 0, colors = 0;
    size_t pal_entry = 4;
    if (hsize == 12) {
        w = pmi_le16(d + 18);
        h = (int16_t)pmi_le16(d + 20);
        bpp = pmi_le16(d + 24);
        pal_entry = 3;
    } else if (hsize >= 40 && size >= 14 + 40) {
        w = (int32_t)pmi_le32(d + 18);
        h = (int32_t)pmi_le32(d + 22);
        bpp = pmi_le16(d + 28);
        comp = pmi_le32(d + 30);
        colors = pmi_le32(d + 46);
    } else return pmi_fail(err, PM_ERR_BAD_FORMAT, "bmp: header size %u is not supported", hsize);
    bool top_down = h < 0;
    if (h < 0) h = -h;
    if (w <= 0 || h <= 0) return pmi_fail(err, PM_ERR_BAD_FORMAT, "bmp: the image is %lldx%lld", (long long)w, (long long)h);
    uint32_t masks[4] = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0};
    if (comp == 3 && (bpp == 16 || bpp == 32)) {
        if (size < 14 + 40 + 12) return pmi_fail(err, PM_ERR_TRUNCATED, "bmp: the bit field masks are cut off");
        for (int k = 0; k < 3; k++) masks[k] = pmi_le32(d + 54 + 4 * k);
        masks[3] = hsize >= 56 && size >= 14 + 56 ? pmi_le32(d + 66) : 0;
    } else if (comp != 0) {
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "bmp: compression %u (RLE or embedded) is not supported", comp);
    } else if (bpp == 16) {
        masks[0] = 0x7C00, masks[1] = 0x03E0, masks[2] = 0x001F;
    }
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "bmp: %u bits per pixel is not supported", bpp);
    const uint8_t *pal = d + 14 + hsize;
    if (bpp <= 8) {
        uint32_t n = colors ? colors : (1u << bpp);
        if (n > 256) n = 256;
        if ((size_t)(pal - d) + (size_t)n * pal_entry > size)
            return pmi_fail(err, PM_ERR_TRUNCATED, "bmp: the palette is cut off");
        colors = n;
    }
    uint64_t stride = (((uint64_t)w * bpp + 31) / 32) * 4;
    if (offset > size || stride * (uint64_t)h > size - offset)
        return pmi_fail(err, PM_ERR_TRUNCATED, "bmp: %lldx%lld pixels need %llu bytes after offset %u, the file has %zu",
                        (long long)w, (long long)h, (unsigned long long)(stride * (uint64_t)h), offset, size);
    pm_result r = alloc_pixels(a, (uint64_t)w, (uint64_t)h, out, "bmp", err);
    if (r != PM_OK) return r;
    bool any_alpha = false;
    for (int64_t y = 0; y < h; y++) {
        const uint8_t *row = d + offset + stride * (uint64_t)(top_down ? y : h - 1 - y);
        uint8_t *o = out->pixels + (size_t)y * (size_t)w * 4;
        for (int64_t x = 0; x < w; x++, o += 4) {
            uint32_t px;
            switch (bpp) {
            case 1: case 4: case 8: {
                uint32_t bit = (uint32_t)x * bpp;
                uint32_t idx = (row[bit / 8] >> (8 - bpp - bit % 8)) & ((1u << bpp) - 1);
                if (idx >= colors) idx = 0;
                const uint8_t *c = pal + idx * pal_entry;
                o[0] = c[2], o[1] = c[1], o[2] = c[0], o[3] = 255;
                continue;
            }
            case 24: o[0] = row[3 * x + 2], o[1] = row[3 * x + 1], o[2] = row[3 * x], o[3] = 255; continue;
            case 16: px = pmi_le16(row + 2 * x); break;
            default: px = pmi_le32(row + 4 * x); break;
            }
            o[0] = mask_value(px, masks[0]);
            o[1] = mask_value(px, masks[1]);
            o[2] = mask_value(px, masks[2]);
            if (bpp == 32 && comp == 0) { /* BI_RGB 32-bit: the fourth byte is alpha only when some pixel uses it */
                o[3] = (uint8_t)(px >> 24);
                any_alpha |= o[3] != 0;
            } else o[3] = masks[3] ? mask_value(px, masks[3]) : 255;
        }
    }
    if (bpp == 32 && comp == 0 && !any_alpha)
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) out->pixels[4 * i + 3] = 255;
    for (size_t i = 0; i < (size_t)w * (size_t)h && !out->has_alpha; i++) out->has_alpha = out->pixels[4 * i + 3] != 255;
    return PM_OK;
}

/* ---- TGA ---------------------------------------------------------------------------------------- */

/* One pixel of `bpp` bits (15/16 BGR555, 24 BGR, 32 BGRA, 8 grey) as RGBA. */
static void tga_pixel(const uint8_t *p, uint32_t bpp, uint8_t *o) {
    if (bpp == 8) o[0] = o[1] = o[2] = p[0], o[3] = 255;
    else if (bpp == 15 || bpp == 16) {
        uint32_t v = pmi_le16(p);
        o[0] = (uint8_t)(((v >> 10) & 31) * 255 / 31);
        o[1] = (uint8_t)(((v >> 5) & 31) * 255 / 31);
        o[2] = (uint8_t)((v & 31) * 255 / 31);
        o[3] = 255;
    } else {
        o[0] = p[2], o[1] = p[1], o[2] = p[0];
        o[3] = bpp == 32 ? p[3] : 255;
    }
}

pm_result pmi_tga_decode(const uint8_t *d, size_t size, const pm_allocator *a, pmi_rgba *out, pm_error *err) {
    memset(out, 0, sizeof *out);
    if (!tga_header_ok(d, size)) return pmi_fail(err, PM_ERR_BAD_FORMAT, "tga: not a supported TGA header");
    uint8_t idlen = d[0], type = d[2], bpp = d[16], desc = d[17];
    uint32_t cmap_first = pmi_le16(d + 3), cmap_len = pmi_le16(d + 5), cmap_bits = d[7];
    uint32_t w = pmi_le16(d + 12), h = pmi_le16(d + 14);
    size_t at = 18u + idlen;
    const uint8_t *cmap = NULL;
    uint32_t cmap_bytes = (cmap_bits + 7) / 8;
    if (d[1] == 1) {
        if (cmap_bits != 15 && cmap_bits != 16 && cmap_bits != 24 && cmap_bits != 32)
            return pmi_fail(err, PM_ERR_BAD_FORMAT, "tga: colour map entries of %u bits", cmap_bits);
        if (at + (size_t)cmap_len * cmap_bytes > size) return pmi_fail(err, PM_ERR_TRUNCATED, "tga: the colour map is cut off");
        cmap = d + at;
        at += (size_t)cmap_len * cmap_bytes;
    }
    if (at > size) return pmi_fail(err, PM_ERR_TRUNCATED, "tga: the header is cut off");
    pm_result r = alloc_pixels(a, w, h, out, "tga", err);
    if (r != PM_OK) return r;
    uint32_t pbytes = (bpp + 7) / 8;
    bool rle = type >= 9;
    size_t n = (size_t)w * h, i = 0;
    const uint8_t *p = d + at, *end = d + size;
    while (i < n) {
        uint32_t run = 1;
        bool packet_rle = false;
        if (rle) {
            if (p >= end) break;
            packet_rle = (*p & 0x80) != 0;
            run = (uint32_t)(*p & 0x7F) + 1;
            p++;
        }
        for (uint32_t k = 0; k < run && i < n; k++, i++) {
            if ((size_t)(end - p) < pbytes) {
                i = n + 1; /* cut off */
                break;
            }
            uint8_t *o = out->pixels + 4 * i;
            if (type == 1 || type == 9) {
                uint32_t idx = p[0];
                if (idx < cmap_first || idx - cmap_first >= cmap_len) o[0] = o[1] = o[2] = 0, o[3] = 255;
                else tga_pixel(cmap + (idx - cmap_first) * cmap_bytes, cmap_bits, o);
            } else tga_pixel(p, bpp, o);
            if (!packet_rle || k + 1 == run) p += pbytes;
        }
    }
    if (i != n) {
        pmi_free(a, out->pixels);
        out->pixels = NULL;
        return pmi_fail(err, PM_ERR_TRUNCATED, "tga: the pixel data of %ux%u is cut off", w, h);
    }
    if (!(desc & 0x20)) { /* bottom-up: flip the rows */
        for (uint32_t y = 0; y < h / 2; y++) {
            uint8_t *ra = out->pixels + (size_t)y * w * 4, *rb = out->pixels + (size_t)(h - 1 - y) * w * 4;
            for (size_t x = 0; x < (size_t)w * 4; x++) {
                uint8_t t = ra[x];
                ra[x] = rb[x];
                rb[x] = t;
            }
        }
    }
    for (size_t k = 0; k < n && !out->has_alpha; k++) out->has_alpha = out->pixels[4 * k + 3] != 255;
    return PM_OK;
}

/* ---- PNG ---------------------------------------------------------------------------------------- */

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static uint32_t crc_update(const uint32_t table[256], uint32_t crc, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

/* Append a chunk of `n` data bytes whose data the caller writes at the returned pointer; the CRC is
 * computed by end_chunk. */
static uint8_t *begin_chunk(pmi_buf *b, const char *type, size_t n, size_t *start) {
    uint8_t *p = pmi_buf_grow(b, 8 + n + 4);
    if (!p) return NULL;
    *start = b->size - (8 + n + 4);
    put_be32(p, (uint32_t)n);
    memcpy(p + 4, type, 4);
    return p + 8;
}
static void end_chunk(pmi_buf *b, const uint32_t table[256], size_t start, size_t n) {
    if (b->failed) return;
    uint8_t *p = b->data + start;
    uint32_t crc = crc_update(table, 0xFFFFFFFFu, p + 4, 4 + n) ^ 0xFFFFFFFFu;
    put_be32(p + 8 + n, crc);
}

void pmi_png_encode(const pmi_rgba *img, pmi_buf *buf) {
    uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    const uint32_t ch = img->has_alpha ? 4 : 3;
    const size_t row = 1 + (size_t)img->width * ch, raw = row * img->height;
    const size_t blocks = raw / 65535 + 1;
    const size_t zlen = 2 + raw + 5 * blocks + 4;
    uint8_t *sig = pmi_buf_grow(buf, 8);
    if (!sig) return;
    memcpy(sig, "\x89PNG\r\n\x1a\n", 8);
    size_t start;
    uint8_t *h = begin_chunk(buf, "IHDR", 13, &start);
    if (!h) return;
    put_be32(h, img->width);
    put_be32(h + 4, img->height);
    h[8] = 8, h[9] = img->has_alpha ? 6 : 2, h[10] = h[11] = h[12] = 0;
    end_chunk(buf, table, start, 13);
    uint8_t *z = begin_chunk(buf, "IDAT", zlen, &start);
    if (!z) return;
    z[0] = 0x78, z[1] = 0x01;
    size_t zo = 2, left = raw, pos = 0;
    uint32_t s1 = 1, s2 = 0;
    uint8_t *block = NULL;
    size_t in_block = 0, block_len = 0;
    for (uint32_t y = 0; y < img->height; y++) {
        for (size_t x = 0; x < row; x++) {
            if (in_block == block_len) { /* start a stored block */
                block_len = left > 65535 ? 65535 : left;
                block = z + zo;
                block[0] = left <= 65535 ? 1 : 0;
                block[1] = (uint8_t)block_len, block[2] = (uint8_t)(block_len >> 8);
                block[3] = (uint8_t)~block_len, block[4] = (uint8_t)(~block_len >> 8);
                zo += 5 + block_len;
                in_block = 0;
                left -= block_len;
            }
            uint8_t v = x == 0 ? 0 : img->pixels[((size_t)y * img->width + (x - 1) / ch) * 4 + (x - 1) % ch];
            block[5 + in_block++] = v;
            s1 = (s1 + v) % 65521;
            s2 = (s2 + s1) % 65521;
            pos++;
        }
    }
    if (raw == 0) { /* an empty image still needs a final block */
        block = z + zo;
        block[0] = 1, block[1] = block[2] = 0, block[3] = block[4] = 0xFF;
        zo += 5;
    }
    put_be32(z + zo, (s2 << 16) | s1);
    zo += 4;
    (void)pos;
    /* blocks was an upper bound: shrink the chunk to what was written */
    if (zo < zlen) {
        size_t drop = zlen - zo;
        put_be32(buf->data + start, (uint32_t)zo);
        buf->size -= drop;
    }
    end_chunk(buf, table, start, zo);
    begin_chunk(buf, "IEND", 0, &start);
    end_chunk(buf, table, start, 0);
}

bool pmi_png_has_alpha(const uint8_t *d, size_t size) {
    if (size < 33 || memcmp(d + 12, "IHDR", 4) != 0) return false;
    uint8_t ct = d[25];
    if (ct == 4 || ct == 6) return true;
    size_t p = 8;
    while (p + 8 <= size) {
        uint32_t len = ((uint32_t)d[p] << 24) | ((uint32_t)d[p + 1] << 16) | ((uint32_t)d[p + 2] << 8) | d[p + 3];
        if (memcmp(d + p + 4, "tRNS", 4) == 0) return true;
        if (memcmp(d + p + 4, "IDAT", 4) == 0) return false;
        if (len > size - p - 8) return false;
        p += 12 + (size_t)len;
    }
    return false;
}
