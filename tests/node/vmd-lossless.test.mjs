// Real files come back as they were: readVmd -> writeVmd is byte-identical on every fixture
// and on generated files with names cut inside a double-byte character, 0xFD / zero / random padding,
// bytes that are not CP932 and files ending after each section; babylon-mmd (VmdObject.ParseFromBuffer)
// and mmd-parser read the same names from ours as from the original; edited files stay valid.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { fixturesAvailable, loadVmdAnimation, parseVmdBabylon, parseVmdMmdParser, readFixture } from './support/babylon.mjs';

const pm = await createProcMotion();
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';
const FILES = [
  'vmd/mei_wait.vmd', 'vmd/mei_greeting.vmd', 'vmd/gene_stand.vmd', 'vmd/gene_02_laugh.vmd',
  'vmd/babylon_physics_toggle_test_yyb10th.vmd', 'vmd/mmt_test_model_test_motion.vmd', 'vmd/wavefile_camera.vmd',
];
const same = (a, b) => Buffer.from(a).equals(Buffer.from(b));

/** The names each peer reads: model, bone, morph and IK names key by key (null when it rejects the file). */
async function peerNames(bytes) {
  const out = {};
  try {
    const b = await parseVmdBabylon(bytes);
    out.babylon = { model: b.modelName, bones: b.bones.map((k) => k.name), morphs: b.morphs.map((k) => k.name),
                    ik: b.properties.map((p) => p.ikStates.map((s) => s.name)) };
  } catch (e) {
    out.babylon = null;
  }
  try {
    const m = await parseVmdMmdParser(bytes);
    out.mmdParser = { model: m.modelName, bones: m.bones.map((k) => k.name), morphs: m.morphs.map((k) => k.name) };
  } catch (e) {
    out.mmdParser = null; // mmd-parser throws when a file has no camera count
  }
  return out;
}

/** Both peers read `ours` with the names they read from `original` (where they read the original). */
async function assertPeersAgree(label, original, ours) {
  const [a, b] = await Promise.all([peerNames(original), peerNames(ours)]);
  assert.ok(a.babylon, `${label}: babylon-mmd reads the original`);
  assert.deepEqual(b.babylon, a.babylon, `${label}: babylon-mmd names`);
  if (a.mmdParser) assert.deepEqual(b.mmdParser, a.mmdParser, `${label}: mmd-parser names`);
  return a;
}

/** Each key's stored name field, as readVmd hands it out: rawNames, or its variant. */
function keyField(section, rawKey, variantsKey, nameIndex, k, width) {
  const v = section[variantsKey];
  const at = v.keys.indexOf(k);
  return at >= 0 ? v.fields.subarray(at * width, at * width + width) : section[rawKey][nameIndex[k]];
}

test('every fixture comes back byte-identical, each key with its stored field, and both peers read the same names', { skip: SKIP }, async () => {
  for (const file of FILES) {
    const original = readFixture(file);
    const vmd = pm.readVmd(original);
    const written = pm.writeVmd(vmd);
    assert.ok(same(written, original), `${file}: byte-identical`);
    // rawNames are the file's own bytes: every bone key's 15 bytes at its offset
    for (let k = 0; k < vmd.bones.count; k++) {
      const field = keyField(vmd.bones, 'rawNames', 'rawNameVariants', vmd.bones.nameIndex, k, 15);
      assert.ok(same(field, original.subarray(54 + 111 * k, 54 + 111 * k + 15)), `${file}: bone key ${k} field`);
    }
    assert.ok(same(vmd.rawModelName, original.subarray(30, 50)), `${file}: model-name field`);
    assert.ok(same(vmd.rawHeader, original.subarray(0, 30)), `${file}: header`);
    await assertPeersAgree(file, original, written);
    await assertPeersAgree(`${file} (canonical)`, original, pm.writeVmd(vmd, { canonical: true }));
  }
});

// ---- generated files ----------------------------------------------------------------------------

const HE = [0x83, 0x77]; // ヘ
const CENTER = [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b]; // センター
const LEG_IK = [0x8d, 0xb6, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a]; // 左足ＩＫ

/** A width-byte field: the name bytes, a NUL when there is room, then padding 'zero' | 'fd' | 'random'. */
function field(name, width, padding = 'zero', seed = 1) {
  const f = new Uint8Array(width);
  f.set(name.slice(0, width));
  let x = seed;
  for (let k = name.length + 1; k < width; k++) {
    x = (x * 1103515245 + 12345) >>> 0;
    f[k] = padding === 'zero' ? 0 : padding === 'fd' ? 0xfd : (x >>> 16) & 0xff;
  }
  return f;
}

/** A VMD with every section: the bone and morph keys named `f15` (twice, around a clean name), a
 * property key naming `f20`, model field `model`. `sections` cuts the file after that many sections. */
function generate({ model, f15, f20, sections = 6, trailing = [] }) {
  const bytes = [];
  const u8 = (...v) => bytes.push(...v);
  const u32 = (v) => u8(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  const f32 = (v) => u8(...new Uint8Array(new Float32Array([v]).buffer));
  const put = (a) => bytes.push(...a);
  put([...'Vocaloid Motion Data 0002'].map((c) => c.charCodeAt(0)));
  put([0, 0, 0, 0, 0]);
  bytes.push(...model);
  const interp = new Uint8Array(64);
  for (let r = 0; r < 4; r++) for (let j = 0; j < 16; j++) interp[16 * r + j] = j + r < 16 ? [20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107][j + r] : 0;
  const bone = (f, frame) => { put(f); u32(frame); f32(0.5); f32(0); f32(-0.25); f32(0); f32(0); f32(0); f32(1); put(interp); };
  const parts = [
    () => { u32(3); bone(f15, 0); bone(field(CENTER, 15), 0); bone(f15, 10); },
    () => { u32(2); put(f15); u32(0); f32(0.25); put(f15); u32(5); f32(1); },
    () => { u32(1); u32(0); f32(-45); f32(0); f32(10); f32(0); f32(0.1); f32(0); f32(0); for (let k = 0; k < 6; k++) u8(20, 107, 20, 107); u32(30); u8(0); },
    () => { u32(1); u32(0); for (const v of [0.6, 0.6, 0.6, -0.5, -1, 0.5]) f32(v); },
    () => { u32(1); u32(0); u8(1); f32(0.01); },
    () => { u32(1); u32(0); u8(1); u32(2); put(f20); u8(1); put(field(LEG_IK, 20)); u8(0); },
  ];
  for (let s = 0; s < sections; s++) parts[s]();
  if (sections === 6) put(trailing);
  return new Uint8Array(bytes);
}

/** Names cut after each byte of a double-byte character at the 15- and 20-byte limits, with each padding. */
function* cutNameCases() {
  for (const lead of [[], [0x61]]) {
    for (let cut = 0; cut <= 3; cut++) {
      for (const padding of ['zero', 'fd', 'random']) {
        const run = (n) => Array.from({ length: n }, (_, k) => (k < lead.length ? lead[k] : HE[(k - lead.length) % 2]));
        yield { label: `lead ${lead.length}, cut ${cut}, ${padding}`,
                model: field(run(20 - cut), 20, padding, 3), f15: field(run(15 - cut), 15, padding, cut + 1), f20: field(run(20 - cut), 20, padding, cut + 7) };
      }
    }
  }
}

const BAD_BYTES = [[0xfd], [0xfe], [0xff, 0x41], [0xa0, 0x82, 0xa0], [0x81, 0x20], [0x85, 0x40], [0x81, 0xfd, 0x41], [0xef, 0xfc], [0x82]];

test('generated names cut inside a character, padded with 0xFD / zero / random bytes, or not CP932 come back byte-identical', async () => {
  let damaged = 0, n = 0;
  const cases = [...cutNameCases()];
  for (const bad of BAD_BYTES) cases.push({ label: `bytes ${bad.map((b) => b.toString(16))}`, model: field([0x61], 20), f15: field(bad, 15, 'fd'), f20: field(bad, 20, 'random', 5) });
  for (const c of cases) {
    const original = generate(c);
    const vmd = pm.readVmd(original);
    const written = pm.writeVmd(vmd);
    assert.ok(same(written, original), `${c.label}: byte-identical`);
    const name = vmd.bones.names[vmd.bones.nameIndex[0]];
    damaged += name.includes('\ufffd');
    assert.equal(vmd.bones.nameIndex[2], vmd.bones.nameIndex[0], `${c.label}: keys with the same bytes share a name`);
    assert.equal(vmd.bones.names.length, 2, c.label);
    assert.ok(same(vmd.bones.rawNames[vmd.bones.nameIndex[0]], c.f15), `${c.label}: rawNames holds the field`);
    assert.equal(name, pm.decodeShiftJis(c.f15.subarray(0, c.f15.indexOf(0) < 0 ? 15 : c.f15.indexOf(0))), c.label);
    await assertPeersAgree(c.label, original, written);
    const canonical = pm.writeVmd(vmd, { canonical: true });
    await assertPeersAgree(`${c.label} (canonical)`, original, canonical);
    assert.deepEqual(pm.readVmd(canonical).bones.names, vmd.bones.names, `${c.label}: canonical names`);
    n++;
  }
  assert.ok(damaged >= 12 + BAD_BYTES.length, `${damaged} of ${n} cases have a damaged bone name`);
});

test('generated files ending after each section come back with the sections they had', async () => {
  const c = { model: field([0x61], 20, 'fd'), f15: field(CENTER, 15, 'fd'), f20: field(LEG_IK, 20, 'random') };
  for (let sections = 0; sections <= 6; sections++) {
    const original = generate({ ...c, sections, trailing: [1, 2, 3] });
    const vmd = pm.readVmd(original);
    assert.equal(vmd.sections, sections);
    const written = pm.writeVmd(vmd);
    assert.ok(same(written, original), `${sections} sections: byte-identical`);
    if (sections === 6) assert.deepEqual([...vmd.trailingBytes], [1, 2, 3]);
    // babylon-mmd needs the bone and morph counts, and the light count once the camera count is there
    const babylonReads = [2, 4, 5, 6].includes(sections);
    assert.equal((await peerNames(original)).babylon !== null, babylonReads, `${sections} sections: babylon-mmd`);
    if (babylonReads) await assertPeersAgree(`${sections} sections`, original, written);
    const canonicalBytes = pm.writeVmd(vmd, { canonical: true });
    assert.ok((await peerNames(canonicalBytes)).babylon, `${sections} sections: babylon-mmd reads the canonical form`);
    const canonical = pm.readVmd(canonicalBytes);
    assert.equal(canonical.sections, 6);
    assert.equal(canonical.trailingBytes.length, 0);
  }
});

test('edits (rename a damaged bone, move one key) write a valid file that babylon-mmd reads', async () => {
  // ヘッドセット消 and the first byte of し: a morph name MMD cut at 15 bytes
  const cut = [0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5a, 0x83, 0x62, 0x83, 0x67, 0x8f, 0xc1, 0x82];
  const original = generate({ model: field([0x61], 20, 'fd'), f15: field(cut, 15), f20: field(LEG_IK, 20, 'fd') });
  const vmd = pm.readVmd(original);
  assert.equal(vmd.morphs.names[0], 'ヘッドセット消\ufffd');
  assert.ok(same(pm.writeVmd(vmd), original), 'unchanged: byte-identical, no error');

  vmd.bones.frames[2] = 12; // move one key
  const moved = pm.writeVmd(vmd);
  let differ = 0;
  for (let i = 0; i < original.length; i++) differ += moved[i] !== original[i];
  assert.equal(differ, 1);
  assert.deepEqual((await parseVmdBabylon(moved)).bones.map((k) => k.frame), [0, 0, 12]);

  const bi = vmd.bones.nameIndex[0];
  vmd.bones.names[bi] = '頭'; // rename the damaged bone; the morph with the same bytes keeps them
  const renamed = pm.writeVmd(vmd);
  const peer = await parseVmdBabylon(renamed);
  assert.deepEqual(peer.bones.map((k) => k.name), ['頭', 'センター', '頭']);
  assert.deepEqual(peer.morphs.map((k) => k.name), (await parseVmdBabylon(original)).morphs.map((k) => k.name));
  const anim = await loadVmdAnimation(renamed, { optimizeEmptyTracks: false });
  assert.ok(anim.movableBoneTracks.some((t) => t.name === '頭'), 'VmdLoader has a track for the renamed bone');
  assert.equal(pm.readVmd(renamed).morphs.names[0], 'ヘッドセット消\ufffd');

  vmd.bones.names[bi] = '頭😀'; // a name the user changed is validated as before
  assert.throws(() => pm.writeVmd(vmd), (e) => e instanceof ProcMotionError && /頭😀/.test(e.message) && /U\+1F600/.test(e.message));
});

test('the raw fields survive structuredClone and spreads, and rawNames can be replaced', async () => {
  const cut = [0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5a, 0x83, 0x62, 0x83, 0x67, 0x8f, 0xc1, 0x82];
  const original = generate({ model: field([0x61], 20, 'fd'), f15: field(cut, 15, 'fd'), f20: field([0xfd], 20, 'random') });
  const vmd = pm.readVmd(original);
  assert.ok(same(pm.writeVmd(structuredClone(vmd)), original), 'structuredClone (what postMessage does)');
  const spread = { ...vmd, bones: { ...vmd.bones }, morphs: { ...vmd.morphs }, properties: { ...vmd.properties } };
  assert.ok(same(pm.writeVmd(spread), original), 'spread copies');
  assert.equal(vmd.morphs.rawNames.length, 1);
  assert.ok(same(vmd.morphs.rawNames[0], field(cut, 15, 'fd')));
  assert.ok(same(pm.writeVmd({ ...vmd, morphs: { ...vmd.morphs } }), original), 'after rawNames was read');
  // a new field with the same text: written as given
  const other = field(cut, 15, 'zero');
  vmd.morphs.rawNames[0] = other;
  const w = pm.readVmd(pm.writeVmd(vmd));
  assert.ok(same(w.morphs.rawNames[0], other));
  assert.equal(w.morphs.names[0], vmd.morphs.names[0]);
});

test('a motion built in JS can carry raw name fields: unchanged text writes the given bytes', () => {
  const raw = field([0x8f, 0xc1, 0x82], 15, 'fd'); // 消 and a cut lead byte
  const text = pm.decodeShiftJis(raw.subarray(0, 3));
  assert.equal(text, '消\ufffd');
  const input = {
    bones: { names: [text, 'センター'], rawNames: [raw], nameIndex: [0, 1], frames: [0, 0],
             positions: new Float32Array(6), rotations: [0, 0, 0, 1, 0, 0, 0, 1], interpolations: new Uint8Array(128) },
  };
  const bytes = pm.writeVmd(input);
  assert.ok(same(bytes.subarray(54, 69), raw));
  assert.ok(same(bytes.subarray(54 + 111, 54 + 111 + 15), field(CENTER, 15)));
  // without the raw field the text cannot be encoded
  assert.throws(() => pm.writeVmd({ ...input, bones: { ...input.bones, rawNames: undefined } }), /U\+FFFD/);
  // two different byte strings with the same text stay two names
  const two = pm.readVmd(generate({ model: field([0x61], 20), f15: field([0xfd], 15), f20: field([0xfe], 20) }));
  const again = pm.readVmd(pm.writeVmd({ ...two, bones: { ...two.bones, names: [...two.bones.names] } }));
  assert.equal(again.properties.ikNames[0], '\ufffd');
  assert.equal(again.bones.names[0], '\ufffd');
  assert.equal(again.properties.rawIkNames[0][0], 0xfe);
});
