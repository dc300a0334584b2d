/* The GLB container (see glb.h). */
#include "gltf/glb.h"

pm_result pmi_glb_split(const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size, const uint8_t **bin,
                        size_t *bin_size, pm_error *err) {
    pmi_cursor c = pmi_cursor_make(data, size);
    const uint8_t *h = pmi_take(&c, 12);
    if (!h) return pmi_fail(err, PM_ERR_TRUNCATED, "gltf: a GLB header needs 12 bytes, the file has %zu", size);
    uint32_t version = pmi_le32(h + 4), length = pmi_le32(h + 8);
    if (version != 2) return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: GLB version %u is not supported (2 is)", version);
    if (length > size) return pmi_fail(err, PM_ERR_TRUNCATED, "gltf: the GLB header says %u bytes, the file has %zu", length, size);
    if (length < 20) return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: the GLB header length %u is too small for a JSON chunk", length);
    c.end = data + length;
    *bin = NULL;
    *bin_size = 0;
    for (uint32_t k = 0; pmi_left(&c) > 0; k++) {
        const uint8_t *ch = pmi_take(&c, 8);
        if (!ch) return pmi_fail(err, PM_ERR_TRUNCATED, "gltf: GLB chunk %u header is cut (offset %zu)", k, pmi_offset(&c));
        uint32_t len = pmi_le32(ch), type = pmi_le32(ch + 4);
        const uint8_t *body = pmi_take(&c, len);
        if (!body)
            return pmi_fail(err, PM_ERR_TRUNCATED, "gltf: GLB chunk %u claims %u bytes but only %zu are left", k, len, pmi_left(&c));
        if (k == 0) {
            if (type != 0x4E4F534Au) return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: the first GLB chunk is not JSON");
            *json = body;
            *json_size = len;
        } else if (type == 0x004E4942u && !*bin) {
            *bin = body;
            *bin_size = len;
        }
        while (pmi_left(&c) && pmi_left(&c) < 8 && *c.p == 0) c.p++; /* tolerate trailing padding */
    }
    return PM_OK;
}

pm_result pmi_gltf_json_text(const uint8_t *data, size_t size, const char **json, size_t *json_size, pm_error *err) {
    if (pmi_glb_is(data, size)) {
        const uint8_t *j = NULL, *bin = NULL;
        size_t bin_size = 0;
        pm_result r = pmi_glb_split(data, size, &j, json_size, &bin, &bin_size, err);
        *json = (const char *)j;
        return r;
    }
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) i++;
    if (i + 3 <= size && data[i] == 0xEF && data[i + 1] == 0xBB && data[i + 2] == 0xBF) i += 3; /* BOM */
    if (i >= size || data[i] != '{') return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: neither GLB nor JSON");
    *json = (const char *)data + i;
    *json_size = size - i;
    return PM_OK;
}

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

size_t pmi_glb_size(size_t json_size, size_t bin_size) {
    size_t total = 12 + 8 + pad4(json_size) + 8 + pad4(bin_size);
    return total > UINT32_MAX ? 0 : total;
}

void pmi_glb_write(uint8_t *out, const char *json, size_t json_size, const uint8_t *bin, size_t bin_size) {
    size_t jp = pad4(json_size), total = pmi_glb_size(json_size, bin_size);
    memcpy(out, "glTF", 4);
    pmi_put32(out + 4, 2);
    pmi_put32(out + 8, (uint32_t)total);
    pmi_put32(out + 12, (uint32_t)jp);
    memcpy(out + 16, "JSON", 4);
    memcpy(out + 20, json, json_size);
    memset(out + 20 + json_size, ' ', jp - json_size);
    uint8_t *b = out + 20 + jp;
    pmi_put32(b, (uint32_t)pad4(bin_size));
    memcpy(b + 4, "BIN\0", 4);
    if (bin_size) memcpy(b + 8, bin, bin_size);
    memset(b + 8 + bin_size, 0, pad4(bin_size) - bin_size);
}
