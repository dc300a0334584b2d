/* Flat exports for the JS glue: Shift-JIS <-> UTF-8 (procmotion/text.h). Thin wrappers only. */
#include "pm_abi.h"
#include "procmotion/text.h"
#include "text/sjis_table.h"

#include <string.h>

enum { PM_ABI_LAYOUT_SJIS_TABLE(PM_ABI_SLOT_ENUM, ST_) ST_COUNT };

/* Encode len bytes of UTF-8 into out (cap bytes), cut at a whole character when it does not fit.
 * Returns a pm_result (0 = PM_OK). *out_len gets the bytes written (0 on failure). errbuf, when not
 * NULL, must hold PM_ABI_ERROR_SIZE (256) bytes: it receives the error, or "" and PM_OK on success. */
PM_EXPORT int32_t pm_abi_sjis_encode(const char *utf8, uint32_t len, uint8_t *out, uint32_t cap, uint32_t *out_len,
                                     char *errbuf) {
    pm_error err = {0};
    size_t written = 0;
    pm_result r = pm_utf8_to_sjis(utf8, len, out, cap, &written, NULL, &err);
    if (out_len) *out_len = (uint32_t)written;
    pm_abi_set_error(errbuf, &err);
    return (int32_t)r;
}

/* Decode len bytes of Shift-JIS into out as NUL-terminated UTF-8 (at most cap bytes including the NUL,
 * cut at a whole character). Returns the full UTF-8 length without the NUL (at most 3 * len): when it
 * is >= cap the output was cut. */
PM_EXPORT uint32_t pm_abi_sjis_decode(const uint8_t *in, uint32_t len, char *out, uint32_t cap) {
    size_t n = pm_sjis_to_utf8(in, len, out, cap);
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Where the decode table is and what it holds: fills the SJIS_TABLE layout (pm_abi_table.h), ST_COUNT
 * uint32 slots at `slots`. In the npm build the host calls it once to find the storage it fills, and again
 * after filling to compare CHECKSUM with EXPECTED. */
PM_EXPORT void pm_abi_sjis_table(uint32_t *slots) {
    if (!slots) return;
    slots[ST_TABLE] = (uint32_t)(uintptr_t)pmi_sjis_decode_table;
    slots[ST_ENTRIES] = PMI_SJIS_DECODE_ENTRIES;
    slots[ST_EUDC_POINTER] = PMI_SJIS_EUDC_POINTER;
    slots[ST_EUDC_COUNT] = PMI_SJIS_EUDC_COUNT;
#if defined(PM_SJIS_TABLE_FROM_HOST)
    slots[ST_FROM_HOST] = 1;
#else
    slots[ST_FROM_HOST] = 0;
#endif
    slots[ST_CHECKSUM] = pmi_sjis_table_checksum();
    slots[ST_EXPECTED] = pmi_sjis_decode_checksum;
}
