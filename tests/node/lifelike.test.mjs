// The lifelike layer through the package: settings checked like the groove's, the per-frame layer on a
// babylon-mmd model (after the motion, nothing accumulating, the blink morph closing), and the bake over
// real motion and over the catwalk on every model of the iteration (base keys kept, blinks 2-10 s apart,
// weights in [0, 1], a loop that stays a loop as babylon-mmd plays it).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { applyLifelikeToMmdModel } from '../../js-glue/babylon.js';
import { createMmdScene, disposeMmdScene, evaluateFrame, fixturesAvailable, readFixture, setMotion } from './support/babylon.mjs';
import { createPlayer } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found';

test('settings: defaults filled in, checked like the groove\'s', () => {
  const s = pm.lifelikeSettings({ eyeContact: 20, blinkInterval: [3, 6] });
  assert.deepEqual(s, { blink: 1, blinkInterval: [3, 6], blinkDuration: 0.5, breathRate: 0.3, breathDepth: 0.5, microMoveExtent: 0.25,
    microMoveCycle: 3, eyeContact: 20, headTurn: 0.7, gazeRange: 10, saccades: 1, seed: 1 });
  assert.deepEqual(pm.lifelikeSettings(JSON.stringify(s)), s);
  assert.throws(() => pm.lifelikeSettings({ eyeContact: 90 }), { code: 'PM_ERR_INVALID_ARGUMENT', module: 'lifelike',
    message: 'lifelike: eyeContact must be a number in [0, 45] (degrees), got 90' });
  assert.throws(() => pm.lifelikeSettings({ breathRate: Infinity }), { message: 'lifelike: breathRate must be a finite number, got Infinity' });
  assert.throws(() => pm.lifelikeSettings({ blinks: 1 }), { message: /^lifelike: blinks is not a field here/ });
  assert.throws(() => pm.lifelikeSettings('{'), { message: 'lifelike: not valid JSON' });
});

test('per frame on a babylon-mmd model: after the motion, nothing accumulates, the blink closes', { skip: SKIP }, async () => {
  const bytes = pm.mannequinPmx();
  const life = pm.createLifelike({ blinkInterval: [2, 3] }, bytes);
  assert.equal(life.blinkMorph, 'まばたき');
  assert.deepEqual(life.channels.filter((c) => c.bone >= 0).map((c) => c.name), ['eyes', 'head', 'neck', 'spine', 'chest', 'leftShoulder', 'rightShoulder']);
  const ctx = await createMmdScene(bytes);
  try {
    await setMotion(ctx, readFixture('vmd/mei_wait.vmd'));
    const head = ctx.model.runtimeBones.find((b) => b.name === '頭').linkedBone;
    const eyes = ctx.model.runtimeBones.find((b) => b.name === '両目').linkedBone;
    let closed = 0, lastEye = null;
    for (let f = 0; f <= 300; f++) {
      await ctx.runtime.seekAnimation(f, true);
      const q0 = head.rotationQuaternion.clone();
      const fr = applyLifelikeToMmdModel(life, ctx.model, f / 30);
      // on a bone the motion keys: motion x offset, once (a second call at the same time gives the same)
      const q1 = head.rotationQuaternion.clone();
      applyLifelikeToMmdModel(life, ctx.model, f / 30);
      assert.ok(q1.equalsWithEpsilon(head.rotationQuaternion, 1e-6), `frame ${f}: applying twice moved the head`);
      const o = fr.rotations.subarray(12, 16); // head
      const want = q0.multiply(new q0.constructor(o[0], o[1], o[2], o[3]));
      assert.ok(want.equalsWithEpsilon(q1, 1e-5), `frame ${f}: head = motion x offset`);
      const w = ctx.model.morph.getMorphWeight('まばたき');
      assert.ok(w >= 0 && w <= 1);
      if (w > 0.99) closed++;
      lastEye = eyes.rotationQuaternion.clone();
      ctx.runtime.beforePhysics(0);
      ctx.runtime.afterPhysics();
    }
    assert.ok(closed >= 3, `the eyes shut in ${closed} frames of 10 s`);
    assert.ok(lastEye && Math.abs(lastEye.w) < 1, 'the eyes move');
  } finally {
    life.dispose();
    disposeMmdScene(ctx);
  }
});

test('baked over real motion: every base key kept, the bones it keys left to it', { skip: SKIP }, () => {
  const base = readFixture('vmd/mei_wait.vmd');
  const { vmd, report } = pm.bakeLifelike(base, readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  const a = pm.readVmd(base), b = pm.readVmd(vmd);
  assert.equal(report.copiedKeys, a.bones.count + a.morphs.count);
  assert.deepEqual(report.skipped.sort(), ['上半身', '上半身2', '両目', '右肩', '左肩', '頭', '首'].sort());
  assert.deepEqual(b.bones.rotations.subarray(0, 4 * a.bones.count), a.bones.rotations);
  assert.deepEqual(b.bones.positions.subarray(0, 3 * a.bones.count), a.bones.positions);
  assert.deepEqual(b.bones.frames.subarray(0, a.bones.count), a.bones.frames);
});

test('baked over the catwalk on every model: blinks 2-10 s apart, weights in [0, 1], the loop closes in babylon-mmd',
  { skip: zooSkip(), timeout: 300_000 }, async (t) => {
    let blinks = 0, minGap = Infinity, maxGap = 0, worstSeam = 0;
    for (const m of everyModel(pm)) {
      const bytes = m.bytes();
      const walk = pm.generateCatwalkVmd({ blink: 0 }, 120, null, null, { skeleton: bytes }); // the layer's blinks, not the walk's
      const { vmd, report } = pm.bakeLifelike(walk.vmd, bytes, null, { frames: 3 * walk.loopFrames });
      const out = pm.readVmd(vmd), base = pm.readVmd(walk.vmd);
      assert.deepEqual(out.bones.rotations.subarray(0, 4 * base.bones.count), base.bones.rotations, `${m.id}: base keys`);
      for (const w of out.morphs.weights) assert.ok(w >= 0 && w <= 1, `${m.id}: a morph weight ${w}`);
      if (report.blinks > 1) {
        minGap = Math.min(minGap, report.minBlinkInterval);
        maxGap = Math.max(maxGap, report.maxBlinkInterval);
      }
      blinks += report.blinks;
      // the catwalk keys head, neck, spine and shoulders: the layer keys the eyes
      assert.ok(report.skipped.includes('頭') && report.keyedBones >= 1, `${m.id}: ${JSON.stringify(report)}`);
      const player = await createPlayer(m);
      try {
        const played = await player.play(vmd, ['両目', '頭', '左手首'], [0, report.frames]);
        for (const name of played.names) {
          const p = played.at(0, name), q = played.at(1, name);
          worstSeam = Math.max(worstSeam, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
        }
      } finally {
        player.dispose();
      }
    }
    assert.ok(blinks > 0 && minGap >= 2 && maxGap <= 10, `${blinks} blinks, intervals ${minGap}..${maxGap}`);
    assert.ok(worstSeam < 1e-3, `the seam ${worstSeam}`);
    t.diagnostic(`${blinks} blinks on the models with a blink morph, ${minGap.toFixed(2)}-${maxGap.toFixed(2)} s apart; seam ${worstSeam.toExponential(1)}`);
  });
