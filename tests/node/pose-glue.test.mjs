// Pose evaluation through the JS glue (the path a viewer uses) against babylon-mmd's MmdRuntime, plus
// the glue's two-bone IK. The exhaustive per-file oracle is pose-oracle.test.mjs (native side).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { createMmdScene, disposeMmdScene, evaluateWorldPositions, fixturesAvailable, readFixture } from './support/babylon.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

test('createPoseEvaluator / evaluatePose agree with babylon-mmd on every bone', { skip: SKIP }, async () => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  for (const motion of ['vmd/mei_greeting.vmd', 'vmd/gene_02_laugh.vmd']) {
    const vmd = readFixture(motion);
    const ev = pm.createPoseEvaluator(vmd, model);
    const frames = Array.from({ length: 41 }, (_, i) => i * 1.5 - 2);
    let ours;
    try {
      assert.ok(ev.info.keys > 0);
      ours = frames.map((f) => ev.evaluate(f).positions);
      const batch = ev.positions(frames[0], frames.length, 1.5);
      assert.deepEqual(batch.subarray(0, ours[0].length), ours[0], 'positions() equals evaluate()');
    } finally {
      ev.dispose();
      ev.dispose(); // twice is harmless
    }
    const ctx = await createMmdScene(model);
    let theirs;
    try {
      theirs = await evaluateWorldPositions(ctx, vmd, frames);
    } finally {
      disposeMmdScene(ctx);
    }
    let worst = 0;
    frames.forEach((_, i) => {
      for (let k = 0; k < ours[i].length; k++) worst = Math.max(worst, Math.abs(ours[i][k] - theirs[i][k]));
    });
    console.log(`${motion} through the glue: max coordinate error vs babylon-mmd ${worst.toExponential(2)} units`);
    // the glue runs the same evaluator as pose-oracle.test.mjs: float precision, not the 1e-3
    assert.ok(worst < 1e-5, `max error ${worst}`);
  }
  const one = pm.evaluatePose(readFixture('vmd/mei_wait.vmd'), pm.readPmx(model), 30);
  assert.equal(one.boneNames.length, 114);
  assert.equal(one.world.length, 114 * 16);
  assert.ok(one.positions.every(Number.isFinite));
});

test('IK can be forced off, and the rest pose evaluates without a motion', { skip: SKIP }, () => {
  const model = pm.readPmx(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  const rest = pm.evaluatePose(null, model, 0);
  const ankle = rest.boneNames.indexOf('左足首');
  const restBone = model.bones[ankle].position;
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(rest.positions[3 * ankle + k] - restBone[k]) < 1e-4);
  // lift the left foot IK target 3 units; with IK off the ankle stays where FK puts it
  const lift = pm.writeVmd({ bones: { names: ['左足ＩＫ'], nameIndex: [0], frames: [0], positions: [0, 3, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64).fill(20) } });
  const ev = pm.createPoseEvaluator(lift, model);
  try {
    const on = ev.evaluate(0).positions[3 * ankle + 1];
    ev.setIkMode('左足ＩＫ', 'off');
    const off = ev.evaluate(0).positions[3 * ankle + 1];
    assert.ok(on > restBone[1] + 2.5, `IK lifts the ankle (${on})`);
    assert.ok(Math.abs(off - restBone[1]) < 1e-4, `IK off leaves it (${off})`);
    assert.throws(() => ev.setIkMode('no such bone', 'off'), ProcMotionError);
  } finally {
    ev.dispose();
  }
  assert.throws(() => pm.evaluatePose(null, model, NaN), /not finite/);
  // (an empty skeleton is valid: PMX files without bones read to one, and JSON takes back what readPmx gives)
  assert.throws(() => pm.createPoseEvaluator(null, { bones: [{ name: 'a', position: [0, 0, 0], parent: 1 }] }), ProcMotionError);
  assert.equal(pm.evaluatePose(null, { bones: [] }, 0).positions.length, 0);
});

test('solveTwoBoneIk reaches reachable targets exactly and stays finite on degenerate input', () => {
  const r = pm.solveTwoBoneIk([0, 10, 0], [0, 5, 0], [0, 0, 0], [0, 2, -3], [0, 5, -10]);
  assert.ok(r.reached);
  assert.ok(Math.hypot(r.end[0], r.end[1] - 2, r.end[2] + 3) < 1e-4);
  assert.ok(Math.abs(Math.hypot(r.mid[0], r.mid[1] - 10, r.mid[2]) - 5) < 1e-4, 'upper bone keeps its length');
  assert.ok(r.mid[2] < 0, 'the knee bends toward the pole (-Z)');
  const far = pm.solveTwoBoneIk([0, 10, 0], [0, 5, 0], [0, 0, 0], [0, -50, 0], [0, 5, -10]);
  assert.equal(far.reached, false);
  assert.ok(far.miss > 30);
  const degenerate = pm.solveTwoBoneIk([0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]);
  for (const v of [...degenerate.rootRotation, ...degenerate.midRotation, ...degenerate.mid, ...degenerate.end]) assert.ok(Number.isFinite(v));
  assert.throws(() => pm.solveTwoBoneIk([0, 0, NaN], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]), /root is not finite/);
});

test('10 000 pose evaluations leave the module heap unchanged', { skip: SKIP }, () => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  const vmd = readFixture('vmd/mei_wait.vmd');
  pm.createPoseEvaluator(vmd, model).dispose();
  const before = pm.heapInUse;
  const ev = pm.createPoseEvaluator(vmd, model);
  for (let i = 0; i < 10000; i++) ev.evaluate(i % 120);
  ev.dispose();
  for (let i = 0; i < 100; i++) pm.evaluatePose(vmd, model, i);
  assert.equal(pm.heapInUse, before);
});
