// The JS glue over the real wasm module: readVmd / writeVmd on the shared fixtures, Shift-JIS through
// the glue against TextDecoder, errors, and the wasm heap staying put over many calls.
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion, ProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { SJIS_NAMES, STANDARD_BONE_NAMES } from './sjis-names.mjs';

const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const haveFixtures = existsSync(FIXTURES);
const fixture = (rel) => new Uint8Array(readFileSync(new URL(rel, FIXTURES)));
const VMDS = [
  'vmd/mei_wait.vmd', 'vmd/mei_greeting.vmd', 'vmd/gene_stand.vmd', 'vmd/gene_02_laugh.vmd',
  'vmd/babylon_physics_toggle_test_yyb10th.vmd', 'vmd/mmt_test_model_test_motion.vmd', 'vmd/wavefile_camera.vmd',
];
const skipNoFixtures = haveFixtures ? false : 'SKIP: ../shared/fixtures not found beside the repo';

const pm = await createProcMotion({ load: FEATURE_MODULES });

test('readVmd returns typed arrays and a name table per section', { skip: skipNoFixtures }, () => {
  const vmd = pm.readVmd(fixture('vmd/mei_wait.vmd'));
  assert.equal(vmd.version, 2);
  assert.equal(vmd.bones.count, 406);
  assert.ok(vmd.bones.frames instanceof Uint32Array);
  assert.equal(vmd.bones.positions.length, 406 * 3);
  assert.equal(vmd.bones.rotations.length, 406 * 4);
  assert.equal(vmd.bones.interpolations.length, 406 * 64);
  assert.ok(vmd.bones.names.includes('センター'));
  assert.ok(vmd.bones.names.includes('左足ＩＫ'));
  assert.equal(new Set(vmd.bones.names).size, vmd.bones.names.length, 'names are distinct');
  const key = ProcMotion.boneKey(vmd, 0);
  assert.equal(typeof key.name, 'string');
  assert.equal(key.rotation.length, 4);
});

test('every fixture survives readVmd -> writeVmd -> readVmd unchanged, byte for byte, canonical on request', { skip: skipNoFixtures }, () => {
  for (const file of VMDS) {
    const original = fixture(file);
    const a = pm.readVmd(original);
    const bytes = pm.writeVmd(a);
    assert.ok(Buffer.from(bytes).equals(Buffer.from(original)), `${file}: written back byte-identical`);
    const canonical = pm.readVmd(pm.writeVmd(a, { canonical: true }));
    assert.equal(canonical.sections, 6, file);
    for (const b of [pm.readVmd(bytes), canonical]) {
      for (const sec of ['bones', 'morphs', 'cameras', 'lights', 'shadows', 'properties']) {
        for (const [k, v] of Object.entries(a[sec])) {
          if (k === 'count') assert.equal(b[sec].count, v, `${file} ${sec}.count`);
          else if (b === canonical && /^raw/.test(k)) continue; // the canonical form drops the padding
          else assert.deepEqual(b[sec][k], v, `${file} ${sec}.${k}`);
        }
      }
      assert.equal(b.modelName, a.modelName);
    }
    assert.equal(pm.readVmd(bytes).sections, a.sections, file);
  }
});

test('writeVmd accepts plain arrays and builds a file from scratch', () => {
  const bytes = pm.writeVmd({
    modelName: 'mannequin',
    bones: {
      names: ['センター', '左足ＩＫ'],
      nameIndex: [0, 1, 0],
      frames: [0, 0, 30],
      positions: [0, 0, 0, 0, 1, 0, 0, -1, 0],
      rotations: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0.7071, 0.7071],
      interpolations: new Uint8Array(64 * 3).fill(20),
    },
    morphs: { names: ['まばたき'], nameIndex: [0], frames: [10], weights: [1] },
    properties: { frames: [0], visible: [1], ikStart: [0, 2], ikNames: ['左足ＩＫ', '右足ＩＫ'], ikNameIndex: [0, 1], ikEnabled: [1, 1] },
  });
  assert.equal(bytes.length, 50 + 24 + 3 * 111 + 23 + 9 + 2 * 21);
  const back = pm.readVmd(bytes);
  assert.deepEqual(back.bones.names, ['センター', '左足ＩＫ']);
  assert.deepEqual([...back.bones.frames], [0, 0, 30]);
  assert.deepEqual(back.properties.ikNames, ['左足ＩＫ', '右足ＩＫ']);
  assert.equal(back.morphs.weights[0], 1);
});

test('errors throw ProcMotionError with the core message', () => {
  assert.throws(() => pm.readVmd(new Uint8Array([1, 2, 3])), (e) => e instanceof ProcMotionError && /truncated|VMD/.test(e.message));
  const png = new Uint8Array(64);
  png.set([0x89, 0x50, 0x4e, 0x47]);
  assert.throws(() => pm.readVmd(png), /not a VMD file/);
  assert.throws(() => pm.writeVmd({ bones: { names: ['😀'], nameIndex: [0], frames: [0], positions: [0, 0, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64) } }),
    (e) => e instanceof ProcMotionError && /U\+1F600/.test(e.message));
  assert.throws(() => pm.writeVmd({ bones: { names: ['a'], nameIndex: [0], frames: [0], positions: [NaN, 0, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64) } }),
    /NaN/);
  assert.throws(() => pm.writeVmd({ bones: { names: ['a'], nameIndex: [5], frames: [0], positions: [0, 0, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64) } }),
    /refers to name 5/);
  assert.throws(() => pm.readVmd('not bytes'), ProcMotionError);
});

test('every standard MMD name encodes to bytes TextDecoder reads back, matching cp932', () => {
  const decoder = new TextDecoder('shift_jis', { fatal: true });
  assert.ok(STANDARD_BONE_NAMES.length > 50);
  for (const { name, bytes } of SJIS_NAMES) {
    const ours = pm.encodeShiftJis(name);
    assert.deepEqual([...ours], [...bytes], name);
    assert.equal(decoder.decode(ours), name);
    assert.equal(pm.decodeShiftJis(ours), name);
  }
});

test('the whole double-byte table round-trips through the glue and TextDecoder', () => {
  const decoder = new TextDecoder('shift_jis');
  let checked = 0;
  for (let lead = 0x81; lead <= 0xfc; lead++) {
    if (lead > 0x9f && lead < 0xe0) continue;
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      if (trail === 0x7f) continue;
      const pair = new Uint8Array([lead, trail]);
      const text = decoder.decode(pair);
      if (text.length !== 1 || text === '\ufffd') continue;
      const code = text.codePointAt(0);
      if (code >= 0xe000 && code <= 0xf8ff) continue; // user-defined area: see docs/formats.md
      const enc = pm.encodeShiftJis(text);
      assert.equal(decoder.decode(enc), text, `0x${lead.toString(16)}${trail.toString(16)}`);
      assert.equal(pm.decodeShiftJis(pair), text);
      checked++;
    }
  }
  assert.ok(checked > 7000, `checked ${checked}`);
});

test('encodeShiftJis with a byte limit never splits a double-byte character', () => {
  const cut = pm.encodeShiftJis('左右左右左右左右', 15);
  assert.equal(cut.length, 14);
  assert.equal(pm.decodeShiftJis(cut), '左右左右左右左');
});

test('10 000 calls leave the wasm heap size and allocations unchanged', { skip: skipNoFixtures }, () => {
  const data = fixture('vmd/mei_greeting.vmd');
  for (let i = 0; i < 50; i++) pm.writeVmd(pm.readVmd(data)); // warm up: let the heap reach its working size
  const before = pm.heapSize;
  const inUse = pm.heapInUse;
  for (let i = 0; i < 10000; i++) {
    const v = pm.readVmd(data);
    if (i % 10 === 0) pm.writeVmd(v);
    if (i % 100 === 0) assert.throws(() => pm.readVmd(data.subarray(0, 1000)), ProcMotionError);
    if (i % 10 === 0) pm.encodeShiftJis('左足ＩＫ');
  }
  assert.equal(pm.heapSize, before);
  assert.equal(pm.heapInUse, inUse, 'every allocation was freed');
});
