// The baked groove played by babylon-mmd 1.3 (NullEngine, JS MmdRuntime, physics off) on the shared
// yw_test_model.pmx: the ankles stay within 0.05 units of where they were (rest pose, or the base
// motion) while the pelvis bounces, its low points on the beat times; our pose evaluator agrees with
// babylon-mmd on the baked motion.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyGrooveToMmdModel } from '../../js-glue/babylon.js';
import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { boneIndex, createMmdScene, disposeMmdScene, evaluateFrame, evaluateWorldPositions, fixturesAvailable, readFixture,
  setMotion }
  from './support/babylon.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';
const MODEL = 'pmx/yw_test_model/yw_test_model.pmx';

/** Local minima of a sampled curve: [frame, value] pairs. */
function minima(frames, values) {
  const out = [];
  for (let i = 1; i + 1 < values.length; i++) {
    if (values[i] < values[i - 1] && values[i] <= values[i + 1]) out.push([frames[i], values[i]]);
  }
  return out;
}

async function play(model, vmd, frames) {
  const ctx = await createMmdScene(model);
  try {
    const positions = await evaluateWorldPositions(ctx, vmd, frames);
    return { ctx, positions };
  } finally {
    disposeMmdScene(ctx);
  }
}

test('babylon-mmd plays the baked groove: ankles stay, the pelvis bounces on the beat', { skip: SKIP }, async () => {
  const model = readFixture(MODEL);
  const skeleton = pm.readPmx(model);
  const restOf = (name) => skeleton.bones.find((b) => b.name === name).position;
  for (const bpm of [120, 128]) {
    const { vmd, report } = pm.bakeGroove(null, model, null, bpm);
    assert.equal(report.legMode, 'mmd-ik');
    const frames = Array.from({ length: report.frames * 4 + 1 }, (_, i) => i / 4);
    const { ctx, positions } = await play(model, vmd, frames);
    const ankles = ['左足首', '右足首'].map((n) => [boneIndex(ctx, n), restOf(n)]);
    let ankleDev = 0;
    for (const p of positions) {
      for (const [i, rest] of ankles) {
        ankleDev = Math.max(ankleDev, Math.hypot(p[3 * i] - rest[0], p[3 * i + 1] - rest[1], p[3 * i + 2] - rest[2]));
      }
    }
    const pelvis = boneIndex(ctx, '下半身');
    const ys = positions.map((p) => p[3 * pelvis + 1]);
    const lows = minima(frames, ys);
    const beatFrames = 1800 / bpm;
    const interior = Math.ceil(report.frames / beatFrames - 1e-9) - 1;
    const offBeat = Math.max(...lows.map(([f]) => Math.abs(f - Math.round(f / beatFrames) * beatFrames)));
    const depth = Math.max(...ys) - Math.min(...ys);
    console.log(`${bpm} bpm: ${report.keys} keys over ${report.frames} frames (deviation ${report.maxPositionError.toExponential(2)} `
      + `units, ${report.maxRotationErrorDeg.toFixed(3)} deg); in babylon-mmd the ankles stay within ${ankleDev.toExponential(2)} `
      + `units of rest, the pelvis bounces ${depth.toFixed(3)} units with ${lows.length} low points, at most `
      + `${offBeat.toFixed(3)} frames from a beat`);
    assert.ok(ankleDev < 0.05, `ankles moved ${ankleDev}`);
    assert.equal(lows.length, interior, 'one low point per beat');
    // keys sit on whole frames: exactly on the beat at 120 bpm (15 frames), within half a frame at 128
    assert.ok(offBeat <= (Number.isInteger(beatFrames) ? 1e-9 : 0.5 + 1e-9), `low point ${offBeat} frames off the beat`);
    assert.ok(Math.abs(depth - 3 / 8) < 0.02, `bounce depth ${depth}`);
  }
});

test('on a base motion the ankles follow the base and our evaluator matches babylon-mmd', { skip: SKIP }, async () => {
  const model = readFixture(MODEL);
  const base = readFixture('vmd/mei_wait.vmd');
  const { vmd, report } = pm.bakeGroove(base, model, { squat: { vertical: 5 } }, 128);
  const frames = Array.from({ length: report.frames * 2 + 1 }, (_, i) => i / 2);
  const baked = await play(model, vmd, frames);
  const orig = await play(model, base, frames);
  const ankles = ['左足首', '右足首'].map((n) => boneIndex(baked.ctx, n));
  let dev = 0;
  baked.positions.forEach((p, f) => {
    for (const i of ankles) {
      const q = orig.positions[f];
      dev = Math.max(dev, Math.hypot(p[3 * i] - q[3 * i], p[3 * i + 1] - q[3 * i + 1], p[3 * i + 2] - q[3 * i + 2]));
    }
  });
  // our pose evaluator on the same baked file
  const ev = pm.createPoseEvaluator(vmd, model);
  let worst = 0;
  try {
    frames.forEach((f, k) => {
      const ours = ev.evaluate(f).positions, theirs = baked.positions[k];
      for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i] - theirs[i]));
    });
  } finally {
    ev.dispose();
  }
  console.log(`mei_wait + groove at 128 bpm: ${report.keys} keys written, ${report.copiedKeys} copied; ankles within `
    + `${dev.toExponential(2)} units of the base motion's in babylon-mmd; our evaluator vs babylon-mmd ${worst.toExponential(2)}`);
  assert.ok(dev < 0.05, `ankles moved ${dev} from the base motion`);
  assert.ok(worst < 1e-5, `our evaluator differs from babylon-mmd by ${worst}`);
});

test('a babylon-mmd viewer applies the groove per frame (applyGrooveToMmdModel): same as the bake, nothing accumulates', { skip: SKIP }, async () => {
  const model = readFixture(MODEL);
  const base = readFixture('vmd/mei_wait.vmd');
  const bpm = 128;
  const { vmd, report } = pm.bakeGroove(base, model, null, bpm);
  const frames = Array.from({ length: report.frames * 2 + 1 }, (_, i) => i / 2);
  const baked = await play(model, vmd, frames);
  const plain = await play(model, base, frames);
  // the runtime layer hooked into babylon-mmd's animation step
  const ctx = await createMmdScene(model);
  const groove = pm.createGroove(null, model);
  let live;
  try {
    await setMotion(ctx, base);
    const anim = ctx.model.currentAnimation, animate = anim.animate.bind(anim);
    anim.animate = (frameTime) => {
      animate(frameTime);
      applyGrooveToMmdModel(groove, ctx.model, frameTime / 30, bpm);
    };
    live = [];
    for (const f of frames) {
      const w = await evaluateFrame(ctx, f);
      live.push(Float64Array.from({ length: ctx.boneNames.length * 3 }, (_, k) => w[16 * Math.floor(k / 3) + 12 + (k % 3)]));
    }
  } finally {
    disposeMmdScene(ctx);
  }
  // the bake keys the legs so the ankles stay where the base motion puts them (docs/landing.md); the
  // runtime layer leaves them to babylon-mmd's CCD: legs are compared through the ankles below
  const isLeg = (name) => /足|ひざ|つま先/.test(name);
  let vsBake = 0, bakeAnkles = 0, ankleDev = 0, worstBone = '';
  const ankles = ['左足首', '右足首'].map((n) => boneIndex(baked.ctx, n));
  const pelvis = boneIndex(baked.ctx, '下半身');
  const drop = [];
  live.forEach((p, k) => {
    for (let i = 0; i < p.length; i++) {
      const d = Math.abs(p[i] - baked.positions[k][i]), name = baked.ctx.boneNames[Math.floor(i / 3)];
      if (!isLeg(name) && d > vsBake) [vsBake, worstBone] = [d, `${name} at frame ${frames[k]}`];
    }
    for (const a of ankles) {
      const q = plain.positions[k], b = baked.positions[k];
      ankleDev = Math.max(ankleDev, Math.hypot(p[3 * a] - q[3 * a], p[3 * a + 1] - q[3 * a + 1], p[3 * a + 2] - q[3 * a + 2]));
      bakeAnkles = Math.max(bakeAnkles, Math.hypot(b[3 * a] - q[3 * a], b[3 * a + 1] - q[3 * a + 1], b[3 * a + 2] - q[3 * a + 2]));
    }
    drop.push(p[3 * pelvis + 1] - plain.positions[k][3 * pelvis + 1]);
  });
  const lows = minima(frames, drop);
  const beatFrames = 1800 / bpm;
  const offBeat = Math.max(...lows.map(([f]) => Math.abs(f - Math.round(f / beatFrames) * beatFrames)));
  console.log(`applyGrooveToMmdModel in babylon-mmd (mei_wait, ${bpm} bpm): every bone but the legs within ${vsBake.toExponential(2)} `
    + `units of the baked VMD (worst: ${worstBone}); ankles within ${ankleDev.toExponential(2)} of the plain motion (the bake's `
    + `within ${bakeAnkles.toExponential(2)}, every half frame); pelvis drop low points at most ${offBeat.toFixed(3)} frames from a beat`);
  assert.ok(vsBake < 0.02, `runtime vs bake ${vsBake}`);
  assert.ok(bakeAnkles < 0.01, `the bake's ankles ${bakeAnkles} from the plain motion's`);
  assert.ok(ankleDev < 0.05);
  assert.ok(offBeat <= 0.5 + 1e-9 && lows.length >= 8);

  // a model without motion: bones nobody rewrites; 500 applications leave no trace of the earlier ones
  const still = await createMmdScene(model);
  const g2 = pm.createGroove(null, model);
  try {
    const snapshot = () => {
      still.model.beforePhysics(null);
      still.model.afterPhysics();
      return Float64Array.from(still.model.worldTransformMatrices);
    };
    for (let i = 0; i < 500; i++) applyGrooveToMmdModel(g2, still.model, i * 0.0137, 97);
    applyGrooveToMmdModel(g2, still.model, 1.5, 97);
    const after = snapshot();
    const fresh = await createMmdScene(model);
    const g3 = pm.createGroove(null, model);
    try {
      applyGrooveToMmdModel(g3, fresh.model, 1.5, 97);
      fresh.model.beforePhysics(null);
      fresh.model.afterPhysics();
      let diff = 0;
      fresh.model.worldTransformMatrices.forEach((v, i) => { diff = Math.max(diff, Math.abs(v - after[i])); });
      assert.ok(diff < 1e-5, `500 earlier frames left ${diff}`);
    } finally {
      g3.dispose();
      disposeMmdScene(fresh);
    }
    assert.throws(() => applyGrooveToMmdModel(g2, { runtimeBones: [] }, 0, 120), /the groove's 114 bones/);
  } finally {
    g2.dispose();
    disposeMmdScene(still);
  }
  groove.dispose();
});
