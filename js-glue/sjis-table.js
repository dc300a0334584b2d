// procmotion's Shift-JIS decode table from the host's TextDecoder: the one procedure that both
// build-scripts/gen-sjis-table.mjs (which writes wasm/src/text/sjis_table.c from it) and the glue's
// startup (which fills the npm core's zero storage with it, main.js) use, so that the table the npm
// package decodes with is built exactly as the compiled one was. No dependencies; docs/formats.md.
//
// The table: for each WHATWG "pointer" of a double-byte pair (60 lead bytes 0x81-0x9F, 0xE0-0xFC x 188
// trail bytes 0x40-0x7E, 0x80-0xFC), the UTF-16 code unit it decodes to, or 0 when it has no mapping.
// Internal: not part of the public API.

/** How many pointers there are: 60 lead bytes x 188 trail bytes. */
export const SJIS_POINTER_COUNT = 11280;

/**
 * The code unit of every pointer from `new TextDecoderClass('shift_jis')` (default: the host's
 * TextDecoder), as a Uint16Array(SJIS_POINTER_COUNT); null when the host has no Shift_JIS decoder (the
 * constructor throws, as on runtimes built with small ICU, or gives another encoding).
 *
 * One decode call for all 11 280 pairs, each followed by a line feed: LF is ASCII and never a trail
 * byte, so every decoder (WHATWG's, which reads an unmapped pair's ASCII trail byte again as its own
 * character, and ICU's, which replaces the pair with one U+FFFD) ends each pair's output at its LF. A
 * pair maps when its output is one code unit that is not U+FFFD and not below 0x81 (no double-byte pair
 * decodes to ASCII or U+0080); anything else is unmapped. That is what a fatal decoder says pair by pair
 * (decodes, or throws), without the exception per unmapped pair (1 676 of them), which costs ms.
 */
export function decodeShiftJisPairs(TextDecoderClass = globalThis.TextDecoder) {
  let decoder;
  try {
    decoder = new TextDecoderClass('shift_jis');
  } catch {
    return null;
  }
  if (decoder.encoding !== 'shift_jis') return null;
  // pointer order: lead l = 0..59 is 0x81 + l (0xE0 + l - 31 from l = 31), trail t = 0..187 is 0x40 + t
  // (0x41 + t from t = 63). Index loops, not for...of: this runs once, cold, at startup (for...of over
  // arrays of the bytes took 4 ms in Node, this 0.3 ms)
  const row = new Uint8Array(188 * 3), input = new Uint8Array(SJIS_POINTER_COUNT * 3);
  for (let t = 0; t < 188; t++) {
    row[3 * t + 1] = t < 63 ? 0x40 + t : 0x41 + t;
    row[3 * t + 2] = 0x0a;
  }
  for (let l = 0; l < 60; l++) {
    for (let t = 0; t < 188; t++) row[3 * t] = l < 31 ? 0x81 + l : 0xc1 + l;
    input.set(row, l * row.length);
  }
  const text = decoder.decode(input);
  const table = new Uint16Array(SJIS_POINTER_COUNT);
  let pointer = 0;
  for (let start = 0, end; pointer < SJIS_POINTER_COUNT && (end = text.indexOf('\n', start)) >= 0; start = end + 1) {
    const unit = text.charCodeAt(start);
    if (end - start === 1 && unit !== 0xfffd && unit >= 0x81) table[pointer] = unit;
    pointer++;
  }
  return pointer === SJIS_POINTER_COUNT ? table : null;
}

/**
 * The table as the core stores it: every pointer but the user-defined area's `eudcCount` pointers from
 * `eudcPointer` (which the core computes), those after it moved down. A new Uint16Array.
 */
export function sjisStoredTable(table, eudcPointer, eudcCount) {
  const out = new Uint16Array(table.length - eudcCount);
  out.set(table.subarray(0, eudcPointer));
  out.set(table.subarray(eudcPointer + eudcCount), eudcPointer);
  return out;
}
