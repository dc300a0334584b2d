#!/usr/bin/env node
// gen-sjis-table.mjs -- generate wasm/src/text/sjis_table.c, procmotion's Shift-JIS tables, from
// Node's `new TextDecoder('shift_jis', { fatal: true })` (the WHATWG Encoding Standard's Shift_JIS,
// i.e. Windows-31J / CP932).
//
//   node build-scripts/gen-sjis-table.mjs           write wasm/src/text/sjis_table.c
//   node build-scripts/gen-sjis-table.mjs --check   exit 1 if the committed file differs
//   node build-scripts/gen-sjis-table.mjs --bin OUT write the committed C table as OUT, its values as
//                                                   little-endian uint16s (procmotion-sjis.bin: the npm
//                                                   package's table for hosts without a Shift_JIS
//                                                   TextDecoder; the Emscripten build runs this)
//
// What it does:
//   1. Decodes every double-byte pair (lead 0x81-0x9F, 0xE0-0xFC; trail 0x40-0x7E, 0x80-0xFC) with
//      js-glue/sjis-table.js, the procedure the npm package's glue fills its table with at startup (one
//      decode call, each pair's output ended by a line feed). A pair that decodes to one character is a
//      mapping; one that does not is unmapped (0 in the table). The decode table is indexed by the
//      WHATWG "pointer" of the pair (60 leads x 188 trails). The checksum the core verifies the filled
//      table with (pmi_hash_bytes of its bytes) is written beside it.
//   2. Counts the encodable code points (the encoder's choice is not stored: sjis.c derives it from
//      the decode table when a call needs it), checking that for a code point with several pairs the
//      WHATWG encoder's choice ("index Shift_JIS pointer": the lowest pointer outside 8272..8835, the
//      NEC-selected IBM extensions, lead 0xED-0xEE) exists. The user-defined area
//      (pointers 8836..10715, lead 0xF0-0xF9 <-> U+E000..U+E757) is left out of both tables: sjis_table.h
//      decodes and sjis.c encodes it arithmetically (see docs/formats.md).
//   3. Decodes every single byte and checks it against the WHATWG rules that sjis.c implements in
//      code (ASCII and 0x80 as themselves, 0xA1-0xDF half-width katakana, the rest invalid). Node's
//      decoder is ICU's ibm-943_P15A-2003, which differs on exactly four bytes (0x1A, 0x1C, 0x7F
//      rotated as IBM control codes, 0x80 rejected); those are listed below and procmotion follows
//      WHATWG there. Any other difference stops the script.
// The output depends only on the decoder's answers, so it is deterministic; the generated file
// must not be edited by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SJIS_POINTER_COUNT, decodeShiftJisPairs, sjisStoredTable } from '../js-glue/sjis-table.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'wasm/src/text/sjis_table.c');

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const LEADS = [...range(0x81, 0x9f), ...range(0xe0, 0xfc)];
const TRAILS = [...range(0x40, 0x7e), ...range(0x80, 0xfc)];
const POINTER_COUNT = LEADS.length * TRAILS.length; // 11280
if (POINTER_COUNT !== SJIS_POINTER_COUNT) fail(`js-glue/sjis-table.js counts ${SJIS_POINTER_COUNT} pointers, not ${POINTER_COUNT}`);
const EXCLUDED_FIRST = 8272; // WHATWG "index Shift_JIS pointer" skips 8272..8835
const EXCLUDED_LAST = 8835;
const EUDC_FIRST = 8836; // WHATWG decoder: pointers 8836..10715 -> U+E000..U+E757
const EUDC_LAST = 10715;

// Known single-byte differences between Node's ICU decoder and the WHATWG decoder.
// Value: what Node returns (null = error). procmotion follows WHATWG for these.
const NODE_SINGLE_BYTE_DEVIATIONS = new Map([
    [0x1a, 0x1c],
    [0x1c, 0x7f],
    [0x7f, 0x1a],
    [0x80, null],
]);

function fail(message) {
    console.error(`gen-sjis-table: ${message}`);
    process.exit(1);
}

const hex = (v, w = 2) => '0x' + v.toString(16).toUpperCase().padStart(w, '0');

// ---- --bin OUT: the committed C table's values as little-endian uint16s --------------------------
// (from the C source, not from a decoder: the file must hold exactly what the native and WASI builds
// compile, and the build host's Node need not have a Shift_JIS decoder)
const binAt = process.argv.indexOf('--bin');
if (binAt >= 0) {
    const out = process.argv[binAt + 1];
    if (!out) fail('--bin needs the output path');
    const source = readFileSync(OUT, 'utf8');
    const body = /pmi_sjis_decode_table\[[^\]]*\]\s*=\s*\{([^}]*)\}/.exec(source.replace(/\/\*[\s\S]*?\*\//g, ''));
    if (!body) fail(`no pmi_sjis_decode_table initialiser in ${path.relative(ROOT, OUT)}`);
    const values = body[1].split(',').map((v) => v.trim()).filter(Boolean);
    const expected = POINTER_COUNT - (EUDC_LAST - EUDC_FIRST + 1);
    if (values.length !== expected) fail(`${path.relative(ROOT, OUT)}: ${values.length} table values, expected ${expected}`);
    const bytes = new Uint8Array(values.length * 2);
    values.forEach((v, i) => {
        if (!/^0x[0-9A-F]{4}$/.test(v)) fail(`${path.relative(ROOT, OUT)}: table value ${i} is ${v}`);
        const n = parseInt(v, 16);
        bytes[2 * i] = n & 0xff;
        bytes[2 * i + 1] = n >> 8;
    });
    writeFileSync(out, bytes);
    console.log(`gen-sjis-table: wrote ${out}: ${values.length} entries (${bytes.length} bytes, checksum ${hex(hashBytes(bytes), 8)})`);
    process.exit(0);
}

// pmi_hash_bytes (wasm/src/common/strings.c) of `bytes`: the checksum the core compares the filled table
// with (tests/c/test_text.c checks that the two agree on the compiled table).
function hashBytes(bytes) {
    let h = (2166136261 ^ bytes.length) >>> 0;
    let i = 0;
    for (; i + 4 <= bytes.length; i += 4) h = Math.imul(h ^ (bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | bytes[i + 3] << 24), 16777619) >>> 0;
    for (; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
    h = Math.imul(h, 0x85ebca6b) >>> 0;
    return (h ^ (h >>> 13)) >>> 0;
}

// The WHATWG pointer of a double-byte pair (Encoding Standard, Shift_JIS decoder).
function pointerOf(lead, trail) {
    const leadOffset = lead < 0xa0 ? 0x81 : 0xc1;
    const offset = trail < 0x7f ? 0x40 : 0x41;
    return (lead - leadOffset) * 188 + trail - offset;
}

function whatwgSingleByte(b) {
    if (b <= 0x80) return b;
    if (b >= 0xa1 && b <= 0xdf) return 0xff61 - 0xa1 + b;
    return null;
}

const decoder = new TextDecoder('shift_jis', { fatal: true });
if (decoder.encoding !== 'shift_jis') fail(`TextDecoder gave encoding ${decoder.encoding}`);

function decodeOrNull(bytes) {
    let s;
    try {
        s = decoder.decode(Uint8Array.from(bytes));
    } catch {
        return null;
    }
    if (s.length !== 1) fail(`${bytes.map((b) => hex(b)).join(' ')} decoded to ${s.length} code units`);
    return s.charCodeAt(0);
}

// ---- single bytes: check that the rules coded in sjis.c agree with the decoder -----------------
for (let b = 0; b < 256; b++) {
    const node = decodeOrNull([b]);
    const want = whatwgSingleByte(b);
    if (node === want) continue;
    if (NODE_SINGLE_BYTE_DEVIATIONS.has(b) && NODE_SINGLE_BYTE_DEVIATIONS.get(b) === node) continue;
    fail(`single byte ${hex(b)}: Node decodes ${node === null ? 'an error' : hex(node, 4)}, WHATWG ${want === null ? 'an error' : hex(want, 4)}`);
}

// ---- double bytes ------------------------------------------------------------------------------
// The table as the glue builds it (js-glue/sjis-table.js), checked against a fatal decoder asked about
// each pair alone (decodes to one code unit, or throws), as this script made the table before.
const decode = decodeShiftJisPairs(TextDecoder);
if (!decode) fail("Node's TextDecoder has no shift_jis (a Node built with small ICU?)");
let mapped = 0;
for (let li = 0; li < LEADS.length; li++) {
    for (let ti = 0; ti < TRAILS.length; ti++) {
        const lead = LEADS[li];
        const trail = TRAILS[ti];
        const pointer = pointerOf(lead, trail);
        if (pointer !== li * TRAILS.length + ti) fail(`pointer formula disagrees at ${hex(lead)} ${hex(trail)}`);
        const cu = decodeOrNull([lead, trail]);
        if ((cu ?? 0) !== decode[pointer]) fail(`${hex(lead)} ${hex(trail)}: the one-call decode gives ${hex(decode[pointer], 4)}, the fatal decoder ${cu === null ? 'an error' : hex(cu, 4)}`);
        if (cu === null) continue;
        if (cu === 0 || cu === 0xfffd || (cu >= 0xd800 && cu <= 0xdfff)) fail(`${hex(lead)} ${hex(trail)} decodes to ${hex(cu, 4)}`);
        if (cu < 0x81 || (cu >= 0xff61 && cu <= 0xff9f)) fail(`${hex(lead)} ${hex(trail)} duplicates a single byte (${hex(cu, 4)})`);
        mapped++;
    }
}
for (let p = EUDC_FIRST; p <= EUDC_LAST; p++) {
    if (decode[p] !== 0xe000 + p - EUDC_FIRST) fail(`user-defined pointer ${p} decodes to ${hex(decode[p], 4)}, not U+E000 + ${p - EUDC_FIRST}`);
}

// ---- encode table: the WHATWG encoder's choice ---------------------------------------------------
const encode = new Map(); // code point -> pointer
const onlyExcluded = new Set();
for (let p = 0; p < POINTER_COUNT; p++) {
    const cu = decode[p];
    if (!cu || (p >= EUDC_FIRST && p <= EUDC_LAST)) continue;
    if (p >= EXCLUDED_FIRST && p <= EXCLUDED_LAST) {
        onlyExcluded.add(cu);
        continue;
    }
    if (!encode.has(cu)) encode.set(cu, p);
}
for (const cu of encode.keys()) onlyExcluded.delete(cu);
if (onlyExcluded.size) fail(`code points only reachable through pointers 8272..8835: ${[...onlyExcluded].map((c) => hex(c, 4)).join(' ')}`);
const encodeEntries = [...encode.entries()].sort((a, b) => a[0] - b[0]);
const duplicates = mapped - (EUDC_LAST - EUDC_FIRST + 1) - encodeEntries.length;

// ---- emit --------------------------------------------------------------------------------------
const lines = [];
lines.push(
    '/* sjis_table.c -- GENERATED by build-scripts/gen-sjis-table.mjs. DO NOT EDIT: run',
    ' *     node build-scripts/gen-sjis-table.mjs            (regenerate)',
    ' *     node build-scripts/gen-sjis-table.mjs --check    (verify)',
    ' *',
    " * Source: Node's new TextDecoder('shift_jis'), the WHATWG Encoding Standard's Shift_JIS (Windows-31J /",
    ' * CP932), asked about every lead 0x81-0x9F, 0xE0-0xFC with every trail 0x40-0x7E, 0x80-0xFC by',
    ' * js-glue/sjis-table.js (which the npm build fills its table with at startup) and checked pair by pair',
    ' * with a fatal decoder. Single bytes are coded in sjis.c (checked by the script).',
    ` * Mapped pairs: ${mapped} (including ${EUDC_LAST - EUDC_FIRST + 1} user-defined pairs 0xF040-0xF9FC -> U+E000-U+E757).`,
    ` * Encode entries: ${encodeEntries.length} code points; ${duplicates} pairs are duplicates that only decode`,
    ' * (the encoder takes the lowest pointer outside 8272..8835, as the WHATWG encoder does).',
    ' * See docs/formats.md.',
    ' */',
    '#include "text/sjis_table.h"',
    '',
    '/* Code unit for each WHATWG pointer outside the user-defined area (computed: sjis_table.h), 0 = unmapped.',
    ' *   pointer = (lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 + trail - (trail < 0x7F ? 0x40 : 0x41)',
    ' * The Emscripten (npm) build compiles no values (PM_SJIS_TABLE_FROM_HOST): zero storage, no bytes in the',
    ' * download, which the JS glue fills with these values before any call (sjis_table.h). */',
    '#if defined(PM_SJIS_TABLE_FROM_HOST)',
    'uint16_t pmi_sjis_decode_table[PMI_SJIS_DECODE_ENTRIES];',
    '#else',
    'const uint16_t pmi_sjis_decode_table[PMI_SJIS_DECODE_ENTRIES] = {',
);
for (let li = 0; li < LEADS.length; li++) {
    if (li * 188 >= EUDC_FIRST && li * 188 <= EUDC_LAST) continue; // leads 0xF0-0xF9: the user-defined area
    lines.push(`    /* lead ${hex(LEADS[li])} */`);
    for (let t = 0; t < 188; t += 12) {
        const row = [];
        for (let k = t; k < Math.min(t + 12, 188); k++) row.push(hex(decode[li * 188 + k], 4));
        lines.push('    ' + row.join(', ') + ',');
    }
}
const stored = sjisStoredTable(decode, EUDC_FIRST, EUDC_LAST - EUDC_FIRST + 1);
lines.push(
    '};',
    '#endif',
    '',
    "/* pmi_hash_bytes of the table's bytes (little-endian): what the filled storage must hash to. */",
    `const uint32_t pmi_sjis_decode_checksum = ${hex(hashBytes(new Uint8Array(stored.buffer)), 8)}u;`,
    '',
);
// The encoder's choice is not stored: sjis.c derives it from the decode table when a call needs it
// (the lowest pointer outside 8272..8835 for each code point); the count is kept for its test.
// Which 128-code-point blocks hold such code points: the row of each in the encoder's map (1-based, 0 =
// none), so that sjis.c makes the map in one pass over the decode table.
const BLOCKS = 512;
const blockRow = new Array(BLOCKS).fill(0);
let rows = 0;
for (const [cu] of encodeEntries) if (!blockRow[cu >> 7]) blockRow[cu >> 7] = ++rows;
if (rows > 255) fail(`${rows} blocks need a map row: more than a byte can number`);
lines.push(
    '/* Code points the double-byte encoder writes (the user-defined area aside); sjis.c derives which pair',
    ' * from pmi_sjis_decode_table. */',
    `const size_t pmi_sjis_encode_count = ${encodeEntries.length};`,
    '',
    `/* For each block of 128 code points, its row in the encoder's map (1..${rows}), 0 when no code point of`,
    ' * the block has a pair. */',
    `const uint8_t pmi_sjis_encode_block[PMI_SJIS_ENCODE_BLOCKS] = {`,
);
for (let i = 0; i < BLOCKS; i += 16) lines.push('   ' + blockRow.slice(i, i + 16).map((v) => String(v).padStart(4)).join(',') + ',');
lines.push('};', `const uint32_t pmi_sjis_encode_rows = ${rows};`, '');
const text = lines.join('\n');

if (process.argv.includes('--check')) {
    let old = '';
    try {
        old = readFileSync(OUT, 'utf8');
    } catch {
        /* missing counts as different */
    }
    if (old !== text) fail(`${path.relative(ROOT, OUT)} is not what this script generates: regenerate it`);
    console.log(`gen-sjis-table: ${path.relative(ROOT, OUT)} is up to date`);
} else {
    writeFileSync(OUT, text);
    console.log(`gen-sjis-table: wrote ${path.relative(ROOT, OUT)}: ${mapped} mapped pairs, ${encodeEntries.length} encode entries, ${duplicates} duplicate pairs`);
}
