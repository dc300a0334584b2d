// The catwalk played by babylon-mmd 1.3 (MmdRuntime, NullEngine, its own CCD IK) on the CC0
// yw_test_model: the helpers of procmotion/babylon read the model and load the VMD with VmdLoader;
// then, frame by frame, the ankles reach their IK targets, lift during swing and never sink below the
// floor, the knees bend forward, the pelvis stays put in place and advances in a traverse, and the
// loop closes. The measured figures are printed as test diagnostics (docs/catwalk.md quotes them).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import {
  createCatwalkAnimationAsync, getModelInfo, loadVmdAnimationAsync, loopRuntimeAnimation,
} from '../../js-glue/babylon.js';
import {
  boneIndex, createMmdScene, disposeMmdScene, evaluateWorldPositions, fixturesAvailable, loadBabylonMmd, readFixture,
} from './support/babylon.mjs';

const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found';
const MODEL = 'pmx/yw_test_model/yw_test_model.pmx';

const pm = await createProcMotion({ load: FEATURE_MODULES });

/** Plays `state` at `bpm` on the model; returns { result, at(frame, bone) -> [x, y, z], frames }. */
async function play(ctx, state, bpm, step = 1) {
  const { VmdLoader } = await loadBabylonMmd();
  const { animation, result } = await createCatwalkAnimationAsync(pm, ctx.model, state, bpm, { VmdLoader });
  const frames = [];
  for (let f = 0; f <= result.loopFrames; f += step) frames.push(f);
  const P = await evaluateWorldPositions(ctx, animation, frames);
  const at = (fi, name) => {
    const i = boneIndex(ctx, name);
    return [P[fi][3 * i], P[fi][3 * i + 1], P[fi][3 * i + 2]];
  };
  return { result, at, frames };
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a) => Math.sqrt(dot(a, a));

/** Per-frame checks shared by every variant; returns the figures. */
function measure(ctx, run) {
  const { at, frames, result } = run;
  const rest = { 左: 1.329, 右: 1.329 }; // yw_test_model's ankles stand at y = 1.329
  const out = { ankleLow: Infinity, ankleHigh: -Infinity, toeLow: Infinity, ikMiss: 0, kneeAhead: Infinity, pelvisZ: [Infinity, -Infinity], pelvisX: [Infinity, -Infinity] };
  frames.forEach((_, fi) => {
    const hipL = at(fi, '左足'), hipR = at(fi, '右足');
    const lateral = sub(hipL, hipR);
    const forward = [lateral[2], 0, -lateral[0]]; // up x lateral: the way the pelvis faces (-Z at rest)
    const fl = len(forward);
    for (const s of ['左', '右']) {
      const ankle = at(fi, `${s}足首`), knee = at(fi, `${s}ひざ`), hip = at(fi, `${s}足`), ik = at(fi, `${s}足ＩＫ`);
      out.ankleLow = Math.min(out.ankleLow, ankle[1] - rest[s]);
      out.ankleHigh = Math.max(out.ankleHigh, ankle[1] - rest[s]);
      out.toeLow = Math.min(out.toeLow, at(fi, `${s}つま先`)[1]);
      out.ikMiss = Math.max(out.ikMiss, len(sub(ankle, ik)));
      // the knee against the hip-ankle line, along the facing direction (+ = in front)
      const u = (hip[1] - knee[1]) / (hip[1] - ankle[1]);
      const onLine = [hip[0] + (ankle[0] - hip[0]) * u, knee[1], hip[2] + (ankle[2] - hip[2]) * u];
      out.kneeAhead = Math.min(out.kneeAhead, dot(sub(knee, onLine), forward) / fl);
    }
    const pelvis = at(fi, '下半身');
    out.pelvisZ = [Math.min(out.pelvisZ[0], pelvis[2]), Math.max(out.pelvisZ[1], pelvis[2])];
    out.pelvisX = [Math.min(out.pelvisX[0], pelvis[0]), Math.max(out.pelvisX[1], pelvis[0])];
  });
  // every swing lifts its foot: 0.4 step before each heel strike the landing foot is in the air
  out.swingLow = Infinity;
  for (let k = 1; k <= result.steps; k++) {
    const f = Math.round((k - 0.4) * result.stepFrames);
    const fi = frames.indexOf(f);
    if (fi < 0) continue;
    out.swingLow = Math.min(out.swingLow, at(fi, `${k % 2 ? '右' : '左'}足首`)[1] - 1.329);
  }
  out.lift = result.lift;
  out.loopGap = 0;
  for (const name of ['左足首', '右足首', '下半身', '頭', '左手首']) out.loopGap = Math.max(out.loopGap, len(sub(at(0, name), at(frames.length - 1, name))));
  return out;
}

function checkCommon(t, label, m) {
  t.diagnostic(`${label}: ankle ${m.ankleLow.toFixed(4)} .. +${m.ankleHigh.toFixed(3)} around rest, lowest toe y ${m.toeLow.toFixed(3)}, mid-swing ankles >= +${m.swingLow.toFixed(3)}, IK miss ${m.ikMiss.toFixed(4)}, knee in front of the hip-ankle line by >= ${m.kneeAhead.toFixed(3)}, pelvis x ${m.pelvisX.map((v) => v.toFixed(3)).join('..')} z ${m.pelvisZ.map((v) => v.toFixed(2)).join('..')}, loop gap ${m.loopGap.toExponential(1)}`);
  assert.ok(m.ankleLow > -0.05, `${label}: an ankle goes ${m.ankleLow} below its standing height`);
  assert.ok(m.toeLow > -0.05, `${label}: a toe goes ${m.toeLow} below the floor`);
  assert.ok(m.ankleHigh > 0.5 * m.lift, `${label}: the swing lifts the ankle only ${m.ankleHigh}`);
  assert.ok(Number.isFinite(m.swingLow) && m.swingLow > 0.3 * m.lift, `${label}: a swinging ankle is only ${m.swingLow} up`);
  assert.ok(m.ikMiss < 0.05, `${label}: the leg IK misses its target by ${m.ikMiss}`);
  assert.ok(m.kneeAhead > 0.05, `${label}: a knee is not bent forward (${m.kneeAhead})`);
  assert.ok(m.loopGap < 1e-3, `${label}: the loop does not close (${m.loopGap})`);
}

test('getModelInfo reads names, morphs and the rest skeleton of an MmdModel and an MmdMesh', { skip: SKIP }, async () => {
  const ctx = await createMmdScene(readFixture(MODEL));
  try {
    // a freshly loaded mesh (full metadata), and the model's mesh (trimmed by createMmdModel)
    const { LoadAssetContainerAsync, MmdMesh } = await loadBabylonMmd();
    const container = await LoadAssetContainerAsync(readFixture(MODEL), ctx.scene, { pluginExtension: '.pmx' });
    const fresh = container.meshes.find((m) => MmdMesh.isMmdSkinnedMesh(m));
    const fromModel = getModelInfo(ctx.model), fromMesh = getModelInfo(fresh), fromTrimmed = getModelInfo(ctx.mesh);
    assert.deepEqual(fromModel.boneNames, ctx.boneNames);
    assert.deepEqual(fromMesh.boneNames, fromModel.boneNames);
    assert.deepEqual(fromTrimmed.boneNames, fromModel.boneNames);
    assert.deepEqual(fromMesh.morphNames, fromModel.morphNames);
    assert.deepEqual(fromTrimmed.skeleton.positions, fromModel.skeleton.positions);
    assert.deepEqual(fromTrimmed.skeleton.parents, fromModel.skeleton.parents);
    const pmx = pm.readPmx(readFixture(MODEL));
    let worst = 0;
    pmx.bones.forEach((b, i) => {
      const j = fromModel.boneNames.indexOf(b.name);
      for (let k = 0; k < 3; k++) {
        worst = Math.max(worst, Math.abs(fromModel.skeleton.positions[3 * j + k] - b.position[k]));
        worst = Math.max(worst, Math.abs(fromMesh.skeleton.positions[3 * j + k] - b.position[k]));
      }
      if (b.parent >= 0) assert.equal(fromModel.boneNames[fromModel.skeleton.parents[j]], pmx.bones[b.parent].name);
    });
    assert.ok(worst < 1e-4, `rest positions differ from the PMX by ${worst}`);
    container.dispose();
    // the VMD also loads without handing over a VmdLoader (dynamic import of babylon-mmd)
    const anim = await loadVmdAnimationAsync(pm.generateCatwalkVmd({}, null, null, null).vmd);
    assert.equal(anim.name, 'Catwalk');
    assert.ok(anim.movableBoneTracks.some((tr) => tr.name === '左足ＩＫ'));
  } finally {
    disposeMmdScene(ctx);
  }
});

test('in place on yw_test_model: feet plant, lift and reach, knees forward, no net pelvis motion', { skip: SKIP }, async (t) => {
  const ctx = await createMmdScene(readFixture(MODEL));
  try {
    for (const [state, bpm] of [[{}, null], [{ stepCadence: 'beat' }, 128], [{ stepHeight: 1, stride: 0.8 }, 200]]) {
      const run = await play(ctx, state, bpm);
      assert.deepEqual(run.result.missingBones, []);
      const m = measure(ctx, run);
      checkCommon(t, `in place ${JSON.stringify(state)} @ ${bpm}`, m);
      assert.ok(m.pelvisZ[1] - m.pelvisZ[0] < 0.5, `the pelvis wanders ${m.pelvisZ}`);
      // the hips sway to both sides
      assert.ok(m.pelvisX[0] < -0.2 && m.pelvisX[1] > 0.2, `hip sway ${m.pelvisX}`);
    }
  } finally {
    disposeMmdScene(ctx);
  }
});

test('traverse and U-turn on yw_test_model: the pelvis advances along -Z and comes back', { skip: SKIP }, async (t) => {
  const ctx = await createMmdScene(readFixture(MODEL));
  try {
    for (const state of [{ traverse: true }, { uTurn: true }]) {
      const run = await play(ctx, state, 128);
      const m = measure(ctx, run);
      checkCommon(t, JSON.stringify(state), m);
      const D = run.result.traverseDistance;
      assert.ok(D > 10);
      assert.ok(m.pelvisZ[0] < -0.9 * D, `the pelvis reaches z ${m.pelvisZ[0]}, the walk is ${D}`);
      const start = run.at(0, '下半身')[2], end = run.at(run.frames.length - 1, '下半身')[2];
      assert.ok(Math.abs(end - start) < 1e-3);
      // a planted foot holds its ground in the world: while an ankle stays at standing height, it
      // does not slide (babylon-mmd's IK included)
      let slide = 0;
      for (const s of ['左', '右']) {
        let anchor = null;
        run.frames.forEach((_, fi) => {
          const a = run.at(fi, `${s}足首`);
          if (Math.abs(a[1] - 1.329) < 2e-3) {
            anchor ??= a;
            slide = Math.max(slide, Math.hypot(a[0] - anchor[0], a[2] - anchor[2]));
          } else {
            anchor = null;
          }
        });
      }
      t.diagnostic(`${JSON.stringify(state)}: planted ankles slide at most ${slide.toFixed(4)} units`);
      assert.ok(slide < 0.05, `planted foot slides ${slide}`);
    }
  } finally {
    disposeMmdScene(ctx);
  }
});

test('createCatwalkAnimationAsync on the core alone: the walk on the model\'s names and rest positions as with every module; modelBytes loads motion and lands it', { skip: SKIP }, async () => {
  const ctx = await createMmdScene(readFixture(MODEL));
  try {
    const { VmdLoader } = await loadBabylonMmd();
    const core = await createProcMotion();
    const alone = await createCatwalkAnimationAsync(core, ctx.model, { hipSway: 0.8 }, 128, { VmdLoader });
    assert.deepEqual(core.modules, ['core'], 'the unlanded walk loads nothing');
    assert.equal(alone.result.report, null);
    const all = await createCatwalkAnimationAsync(pm, ctx.model, { hipSway: 0.8 }, 128, { VmdLoader });
    assert.deepEqual(alone.result, all.result);
    const landed = await createCatwalkAnimationAsync(core, ctx.model, { hipSway: 0.8 }, 128, { VmdLoader, modelBytes: readFixture(MODEL) });
    assert.deepEqual(core.modules, ['core', 'motion']);
    assert.equal(landed.result.report.model, 'model');
    const reference = await createCatwalkAnimationAsync(pm, ctx.model, { hipSway: 0.8 }, 128, { VmdLoader, modelBytes: readFixture(MODEL) });
    assert.deepEqual(landed.result, reference.result);
  } finally {
    disposeMmdScene(ctx);
  }
});

test('blinks reach babylon-mmd as a morph track on the built-in mannequin', async () => {
  const ctx = await createMmdScene(pm.mannequinPmx());
  try {
    const info = getModelInfo(ctx.model);
    assert.ok(info.morphNames.includes('まばたき'), `morphs ${info.morphNames}`);
    const { VmdLoader } = await loadBabylonMmd();
    const { animation, result } = await createCatwalkAnimationAsync(pm, ctx.model, {}, 60, { VmdLoader });
    assert.equal(result.blinkMorph, 'まばたき');
    const track = animation.morphTracks.find((m) => m.name === 'まばたき');
    assert.ok(track && track.frameNumbers.length >= 6, 'a blink track with keys');
    assert.equal(Math.max(...track.weights), 1);
  } finally {
    disposeMmdScene(ctx);
  }
});

test('a catwalk loops in babylon-mmd with loopRuntimeAnimation: the clock wraps, the model keeps moving, dispose() stops it',
  { skip: SKIP }, async () => {
    const ctx = await createMmdScene(readFixture(MODEL));
    try {
      const { VmdLoader } = await loadBabylonMmd();
      const { animation, loopFrames } = await createCatwalkAnimationAsync(pm, ctx.model, {}, 128, { VmdLoader });
      ctx.model.setRuntimeAnimation(ctx.model.createRuntimeAnimation(animation));
      const loop = loopRuntimeAnimation(ctx.runtime, loopFrames);
      await ctx.runtime.playAnimation();
      const ankle = boneIndex(ctx, '左足首');
      const step = 7; // frames per tick, not a divisor of the loop
      const times = [], xs = [];
      for (let tick = 0; tick * step < 2.5 * loopFrames; tick++) {
        ctx.runtime.beforePhysics((step / 30) * 1000);
        ctx.runtime.afterPhysics();
        await new Promise((ok) => setImmediate(ok)); // the seek's promise
        times.push(ctx.runtime.currentFrameTime);
        xs.push(ctx.model.worldTransformMatrices[16 * ankle + 14]);
      }
      assert.ok(ctx.runtime.isAnimationPlaying, 'still playing after two loops');
      assert.ok(times.every((t) => t >= 0 && t < loopFrames), `the clock stays in [0, ${loopFrames})`);
      const wraps = times.filter((t, i) => i && t < times[i - 1]).length;
      assert.equal(wraps, 2, 'wrapped once per loop');
      // moving in the second loop as in the first: the ankle travels forward and back
      const second = xs.slice(Math.ceil(loopFrames / step), Math.floor((2 * loopFrames) / step));
      assert.ok(Math.max(...second) - Math.min(...second) > 1, `the ankle moves in the second loop (${Math.max(...second) - Math.min(...second)})`);
      loop.dispose();
      for (let tick = 0; tick < Math.ceil(loopFrames / step) + 2; tick++) ctx.runtime.beforePhysics((step / 30) * 1000), ctx.runtime.afterPhysics();
      assert.equal(ctx.runtime.isAnimationPlaying, false, 'after dispose() the runtime plays to the end and pauses');
    } finally {
      disposeMmdScene(ctx);
    }
  });
