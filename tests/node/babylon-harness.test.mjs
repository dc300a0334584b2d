// Proves the peer harness (tests/node/support/babylon.mjs) on real data: both VMD parsers on a real
// motion, and babylon-mmd's JS and wasm runtimes playing it on a real model under NullEngine.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  FIXTURES, boneIndex, createMmdScene, createMmdWasmScene, disposeMmdScene, evaluateWorldPositions,
  fixturesAvailable, loadBabylonMmd, loadVmdAnimation, animationTracks, parseVmdBabylon,
  parseVmdMmdParser, readFixture,
} from './support/babylon.mjs';

const HAVE = fixturesAvailable();
const SKIP = HAVE ? false : `SKIP: shared fixtures not found at ${FIXTURES} (../shared beside the repo, or PM_FIXTURES)`;
if (!HAVE) console.log(`# ${SKIP}`);

const ms = (t0) => `${(performance.now() - t0).toFixed(0)} ms`;

test('babylon-mmd and mmd-parser read every key of mei_wait.vmd alike', { skip: SKIP }, async () => {
  const bytes = readFixture('vmd/mei_wait.vmd');
  const t0 = performance.now();
  const b = await parseVmdBabylon(bytes);
  const t1 = performance.now();
  const m = await parseVmdMmdParser(bytes);
  console.log(`# mei_wait.vmd: babylon-mmd ${(t1 - t0).toFixed(1)} ms (incl. first import), mmd-parser ${ms(t1)}`);

  // fixtures/SOURCES.md: 406 bone keys over 142 bones, 120 frames, no property section.
  assert.equal(b.bones.length, 406);
  assert.equal(m.bones.length, 406);
  assert.equal(new Set(b.bones.map((k) => k.name)).size, 142);
  assert.equal(Math.max(...b.bones.map((k) => k.frame)), 120);
  assert.equal(b.morphs.length, m.morphs.length);
  assert.equal(b.cameras.length, 0);
  assert.deepEqual(b.properties, []);
  assert.equal(b.modelName, m.modelName);
  assert.equal(b.modelName, 'Mei');

  for (let i = 0; i < b.bones.length; i++) {
    const x = b.bones[i];
    const y = m.bones[i];
    assert.equal(x.name, y.name, `bone key ${i} name`);
    assert.equal(x.frame, y.frame, `bone key ${i} frame`);
    assert.deepEqual(x.position, y.position, `bone key ${i} position`);
    assert.deepEqual(x.rotation, y.rotation, `bone key ${i} rotation`);
    assert.deepEqual(x.interpolation, y.interpolation, `bone key ${i} interpolation`);
    assert.ok(Math.abs(Math.hypot(...x.rotation) - 1) < 1e-3, `bone key ${i} rotation is a unit quaternion`);
  }
  for (let i = 0; i < b.morphs.length; i++) {
    assert.deepEqual(b.morphs[i], m.morphs[i], `morph key ${i}`);
  }
  // The readers differ in where they take the Z and rotation curves from (NOTES.md): babylon-mmd
  // the first column of rows 2 and 3, three.js row 0 bytes 2 and 3. Both see the same X curve.
  const k = b.bones.find((key) => key.frame > 0);
  assert.deepEqual(k.curves.x, m.bones[b.bones.indexOf(k)].curves.x);
  // mei_wait.vmd is an old-style file: bytes 2-3 hold curve values, not a physics toggle.
  assert.equal(b.bones[0].physicsToggle, 'unknown');
});

test('VmdLoader builds an MmdAnimation from mei_wait.vmd', { skip: SKIP }, async () => {
  const bytes = readFixture('vmd/mei_wait.vmd');
  const warnings = [];
  const all = animationTracks(await loadVmdAnimation(bytes, { optimizeEmptyTracks: false, warnings }));
  assert.equal(all.bones.length, 142);
  assert.equal(all.bones.reduce((s, t) => s + t.frames.length, 0), 406);
  assert.ok(warnings.some((w) => w.startsWith('Unknown physics toggle info')), 'physics toggle warning seen');
  const opt = animationTracks(await loadVmdAnimation(bytes));
  assert.equal(opt.bones.length, all.bones.length, 'every mei_wait track moves: optimizeEmptyTracks drops none');
  assert.ok(opt.bones.some((t) => t.movable) && opt.bones.some((t) => !t.movable));
  for (const t of all.bones) {
    for (let i = 1; i < t.frames.length; i++) assert.ok(t.frames[i - 1] <= t.frames[i], `${t.name} sorted`);
  }
});

async function playMeiWait(create, label) {
  const t0 = performance.now();
  const ctx = await create(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  const tLoad = performance.now();
  try {
    assert.equal(ctx.boneNames.length, 114, 'yw_test_model has 114 bones (SOURCES.md)');
    const frames = [];
    for (let f = 0; f <= 120; f += 5) frames.push(f);
    frames.push(42.5);
    const pos = await evaluateWorldPositions(ctx, readFixture('vmd/mei_wait.vmd'), frames);
    assert.equal(pos.length, frames.length);
    const head = boneIndex(ctx, '頭');
    const ankle = boneIndex(ctx, '左足首');
    const rankle = boneIndex(ctx, '右足首');
    for (const p of pos) {
      assert.equal(p.length, 3 * ctx.boneNames.length);
      for (const v of p) assert.ok(Number.isFinite(v));
      assert.ok(p[3 * head + 1] > 15 && p[3 * head + 1] < 19, `head height ${p[3 * head + 1]}`);
      // Leg IK keeps the feet planted: ankles near the floor, left on +X, right on -X.
      assert.ok(p[3 * ankle + 1] > 0.5 && p[3 * ankle + 1] < 2, `left ankle height ${p[3 * ankle + 1]}`);
      assert.ok(p[3 * ankle] > 0.3 && p[3 * rankle] < -0.3, 'ankles on their sides');
    }
    // The head moves during the idle loop; the planted ankle barely does.
    const span = (i, axis) => {
      const v = pos.map((p) => p[3 * i + axis]);
      return Math.max(...v) - Math.min(...v);
    };
    const headMove = Math.max(span(head, 0), span(head, 1), span(head, 2));
    const ankleMove = Math.max(span(ankle, 0), span(ankle, 1), span(ankle, 2));
    assert.ok(headMove > 0.05, `head moves (${headMove})`);
    assert.ok(ankleMove < 0.05, `left ankle stays planted (${ankleMove})`);
    // Frame 120 of an idle loop returns to frame 0's pose.
    assert.ok(Math.abs(pos[0][3 * head + 2] - pos[24][3 * head + 2]) < 1e-2);
    console.log(`# ${label}: model ${(tLoad - t0).toFixed(0)} ms, ${frames.length} frames ${ms(tLoad)}; ` +
                `head moves ${headMove.toFixed(3)}, left ankle ${ankleMove.toFixed(4)} units`);
    return { ctx, pos, frames };
  } finally {
    disposeMmdScene(ctx);
  }
}

test('MmdRuntime (JS) plays mei_wait.vmd on yw_test_model.pmx under NullEngine', { skip: SKIP }, async () => {
  const { versions } = await loadBabylonMmd();
  console.log(`# babylon-mmd ${versions.babylonMmd}, @babylonjs/core ${versions.babylonCore}`);
  await playMeiWait(createMmdScene, 'MmdRuntime');
});

test('MmdWasmRuntime runs in Node and agrees with MmdRuntime', { skip: SKIP }, async () => {
  const js = await playMeiWait(createMmdScene, 'MmdRuntime');
  const wasm = await playMeiWait(createMmdWasmScene, 'MmdWasmRuntime');
  assert.deepEqual(wasm.ctx.boneNames, js.ctx.boneNames);
  let maxDiff = 0;
  for (let f = 0; f < js.pos.length; f++) {
    for (let i = 0; i < js.pos[f].length; i++) maxDiff = Math.max(maxDiff, Math.abs(js.pos[f][i] - wasm.pos[f][i]));
  }
  console.log(`# JS vs wasm runtime: max bone position difference ${maxDiff.toFixed(5)} units`);
  assert.ok(maxDiff < 0.05, `runtimes agree within 0.05 (NOTES.md), got ${maxDiff}`);
});
