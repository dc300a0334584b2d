// The npm core carries no Shift-JIS decode table: createProcMotion fills its zero storage from the host's
// TextDecoder('shift_jis') (js-glue/sjis-table.js), or, on a host without one, from procmotion-sjis.bin,
// and the core checks the result against the compiled table's checksum (docs/formats.md). Here: the
// host-built table is the compiled C table entry by entry (read out of procmotion-wasi.wasm, which
// compiles it in), the file is too, the fallback gives the same table and the same names, a decoder
// that gives another table is not trusted, and a missing or wrong file is a clear error.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { SJIS_TABLE } from '../../js-glue/dist/abi.js';
import { createProcMotion } from '../../js-glue/index.js';
import { decodeShiftJisPairs, sjisStoredTable } from '../../js-glue/sjis-table.js';
import { SJIS_NAMES } from './sjis-names.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WASI = join(ROOT, 'build/wasi/procmotion-wasi.wasm');
const BIN = join(ROOT, 'js-glue/procmotion-sjis.bin');
const FIXTURES = join(ROOT, '../shared/fixtures');
const skip = existsSync(BIN) ? false : 'SKIP: js-glue/procmotion-sjis.bin not built (bash build-scripts/build.sh wasm)';

/** The SJIS_TABLE slots of a module's exports (`x`: pm_abi_alloc, pm_abi_sjis_table, memory). */
function tableInfo(x, alloc = x.pm_abi_alloc) {
  const slots = alloc(SJIS_TABLE.COUNT * 4);
  x.pm_abi_sjis_table(slots);
  const t = new Uint32Array(x.memory.buffer, slots, SJIS_TABLE.COUNT).slice();
  const info = Object.fromEntries(Object.keys(SJIS_TABLE).filter((k) => k !== 'COUNT').map((k) => [k, t[SJIS_TABLE[k]]]));
  info.units = new Uint16Array(x.memory.buffer, info.TABLE, info.ENTRIES).slice();
  return info;
}
/** The table a ProcMotion's core holds now. */
function coreTable(pm) {
  const x = { memory: pm.mod.memory, pm_abi_sjis_table: pm.mod.pm_abi_sjis_table };
  const p = [];
  const info = tableInfo(x, (n) => (p.push(pm.mod.pm_abi_alloc(n)), p.at(-1)));
  for (const q of p) pm.mod.pm_abi_free(q);
  return info;
}
const fileUnits = () => {
  const b = readFileSync(BIN);
  return new Uint16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
/** The first index where two tables differ, or -1 (they are equal). */
function firstDifference(a, b) {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Run fn with globalThis.TextDecoder replaced by `Decoder` (restored after). */
async function withTextDecoder(Decoder, fn) {
  const real = globalThis.TextDecoder;
  globalThis.TextDecoder = Decoder;
  try {
    return await fn();
  } finally {
    globalThis.TextDecoder = real;
  }
}
const Real = globalThis.TextDecoder;
/** A host built with small ICU: utf-8 and friends only, shift_jis throws RangeError as Node's does. */
class NoShiftJis extends Real {
  constructor(label = 'utf-8', options) {
    if (/shift_jis|sjis|windows-31j|ms_kanji/i.test(String(label))) throw new RangeError(`The "${label}" encoding is not supported`);
    super(label, options);
  }
}
/** A host whose Shift_JIS differs from WHATWG's in one pair (0x889F decodes to another kanji). */
class OtherShiftJis extends Real {
  decode(input, options) {
    const s = super.decode(input, options);
    return this.encoding === 'shift_jis' ? s.replace(/亜/g, '唖') : s;
  }
}

test("the table built from Node's TextDecoder is the compiled C table, entry by entry, and so is procmotion-sjis.bin", { skip }, async () => {
  const host = decodeShiftJisPairs();
  assert.ok(host, "Node's TextDecoder has shift_jis");
  if (existsSync(WASI)) {
    const { instance: { exports: x } } = await WebAssembly.instantiate(readFileSync(WASI), {});
    x._initialize();
    const compiled = tableInfo(x);
    assert.equal(compiled.FROM_HOST, 0, 'the WASI module compiles the table in');
    assert.equal(compiled.CHECKSUM, compiled.EXPECTED, 'the generated checksum is the compiled table');
    const stored = sjisStoredTable(host, compiled.EUDC_POINTER, compiled.EUDC_COUNT);
    assert.equal(firstDifference(stored, compiled.units), -1, 'the host-built table differs from the compiled one');
    assert.equal(firstDifference(fileUnits(), compiled.units), -1, 'procmotion-sjis.bin differs from the compiled table');
    assert.equal(compiled.units.filter((u) => u).length, 9604 - 1880, 'mapped pairs outside the user-defined area');
  } else console.log('# SKIP: build/wasi not built: the compiled table not read out of procmotion-wasi.wasm');

  const pm = await createProcMotion();
  assert.equal(pm._shiftJisTable, 'TextDecoder');
  const t = coreTable(pm);
  assert.equal(t.FROM_HOST, 1, 'the npm core takes its table from the host');
  assert.equal(t.ENTRIES, 11280 - 1880);
  assert.equal(t.CHECKSUM, t.EXPECTED);
  assert.equal(firstDifference(t.units, fileUnits()), -1);
  assert.equal(pm.heapInUse, 0, 'filling the table leaves nothing allocated');
});

test('without a Shift_JIS TextDecoder the table comes from procmotion-sjis.bin: the same table and names', { skip }, async () => {
  const viaDecoder = await createProcMotion({ load: ['motion'] });
  const viaFile = await withTextDecoder(NoShiftJis, () => createProcMotion({ load: ['motion'] }));
  assert.equal(viaFile._shiftJisTable, 'file');
  const t = coreTable(viaFile);
  assert.equal(t.CHECKSUM, t.EXPECTED);
  assert.equal(firstDifference(t.units, coreTable(viaDecoder).units), -1);
  for (const { name, bytes } of SJIS_NAMES) {
    assert.equal(viaFile.decodeShiftJis(bytes), name);
    assert.deepEqual(viaFile.encodeShiftJis(name), bytes, name);
  }
  // a Shift-JIS VMD read by both: the same names, and the writer's bytes
  const vmdFile = join(FIXTURES, 'vmd/mei_wait.vmd');
  if (existsSync(vmdFile)) {
    const data = readFileSync(vmdFile);
    const a = viaDecoder.readVmd(data), b = viaFile.readVmd(data);
    assert.ok(b.bones.names.length > 10);
    assert.deepEqual(b.bones.names, a.bones.names);
    assert.ok(b.bones.names.includes('センター'));
    assert.deepEqual(viaFile.writeVmd(b), viaDecoder.writeVmd(a));
    assert.deepEqual(viaFile.writeVmd({ ...b, bones: { ...b.bones, names: b.bones.names.map((n) => n + '2') } }),
      viaDecoder.writeVmd({ ...a, bones: { ...a.bones, names: a.bones.names.map((n) => n + '2') } }), 'renamed names encode alike');
  } else console.log('# SKIP: ../shared/fixtures not found: mei_wait.vmd not read');
  const walk = (p) => p.generateCatwalkVmd({}, 120, null, null).vmd;
  assert.deepEqual(walk(viaFile), walk(viaDecoder));
});

test('a TextDecoder that gives another table is not trusted: the core sees the checksum differ and the glue reads the file', { skip }, async () => {
  assert.notEqual(firstDifference(decodeShiftJisPairs(OtherShiftJis), decodeShiftJisPairs()), -1, 'the stub changes the table');
  const pm = await withTextDecoder(OtherShiftJis, () => createProcMotion());
  assert.equal(pm._shiftJisTable, 'file');
  assert.equal(pm.decodeShiftJis(Uint8Array.of(0x88, 0x9f)), '亜');
});

test('createProcMotion({ shiftJisTable }) takes bytes or a URL; a core given by URL has the file looked for beside it; a missing or wrong file is a clear error', { skip }, async () => {
  const bin = readFileSync(BIN);
  const reject = (options, pattern) => withTextDecoder(NoShiftJis, () => assert.rejects(createProcMotion(options), (e) => {
    assert.equal(e.name, 'ProcMotionError');
    assert.equal(e.code, 'PM_ERR_WASM');
    assert.equal(e.module, 'loader');
    assert.match(e.message, pattern);
    return true;
  }));
  const fromBytes = await withTextDecoder(NoShiftJis, () => createProcMotion({ shiftJisTable: new Uint8Array(bin) }));
  assert.equal(fromBytes._shiftJisTable, 'file');
  const fromUrl = await withTextDecoder(NoShiftJis, () => createProcMotion({ shiftJisTable: pathToFileURL(BIN) }));
  assert.equal(fromUrl._shiftJisTable, 'file');
  // with a decoder, the file is not read at all
  const notRead = await createProcMotion({ shiftJisTable: pathToFileURL('/nowhere/procmotion-sjis.bin') });
  assert.equal(notRead._shiftJisTable, 'TextDecoder');
  await reject({ shiftJisTable: pathToFileURL('/nowhere/procmotion-sjis.bin') }, /procmotion-sjis\.bin: .*nowhere/);
  await reject({ shiftJisTable: bin.subarray(0, 1000) }, /procmotion-sjis\.bin \(1000 bytes\) is not this procmotion\.wasm's Shift-JIS table/);
  const changed = new Uint8Array(bin);
  changed[2 * 100] ^= 1;
  await reject({ shiftJisTable: changed }, /is not this procmotion\.wasm's Shift-JIS table/);
  await reject({ shiftJisTable: 42 }, /expected a URL, bytes or a Response/);

  // a core from elsewhere by URL: procmotion-sjis.bin beside it
  const dir = join(ROOT, 'test-results/sjis-table');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ROOT, 'js-glue/procmotion.wasm'), join(dir, 'procmotion.wasm'));
  await reject({ wasm: pathToFileURL(join(dir, 'procmotion.wasm')) }, /sjis-table\/procmotion-sjis\.bin/);
  copyFileSync(BIN, join(dir, 'procmotion-sjis.bin'));
  const beside = await withTextDecoder(NoShiftJis, () => createProcMotion({ wasm: { core: pathToFileURL(join(dir, 'procmotion.wasm')) } }));
  assert.equal(beside._shiftJisTable, 'file');
});
