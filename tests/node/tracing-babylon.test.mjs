// The baked tracing VMD on a real model: evaluated by babylon-mmd's MmdRuntime and by our pose evaluator
// on the shared yw_test_model.pmx, the wrist (FK arm) and the ankle (leg IK on, 足ＩＫ keyed) stay on
// their paths around the shoulder and hip of the same frame, while the body twists and squats.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { boneIndex, createMmdScene, disposeMmdScene, evaluateWorldPositions, fixturesAvailable, readFixture } from './support/babylon.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

const HAND = [[1.5, -1, -2], [2.5, 0, -2], [1.5, 1.2, -2.5], [0.3, 0.8, -3]];
const FOOT = [[0, -7.5, -1], [0, -6, -3], [0.3, -4.5, -4]];

function pathDistance(q, mode, points, origin, dense = 2000) {
  const p = pm.sampleTrajectory(mode, points, Array.from({ length: dense + 1 }, (_, i) => i / dense));
  const l = [q[0] - origin[0], q[1] - origin[1], q[2] - origin[2]];
  let best = Infinity;
  for (let i = 1; i <= dense; i++) {
    const a = p.subarray(3 * i - 3, 3 * i), b = p.subarray(3 * i, 3 * i + 3);
    const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], aq = [l[0] - a[0], l[1] - a[1], l[2] - a[2]];
    const l2 = ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2;
    const s = l2 > 0 ? Math.min(1, Math.max(0, (aq[0] * ab[0] + aq[1] * ab[1] + aq[2] * ab[2]) / l2)) : 0;
    best = Math.min(best, Math.hypot(aq[0] - ab[0] * s, aq[1] - ab[1] * s, aq[2] - ab[2] * s));
  }
  return best;
}

const at = (positions, i) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];

/** A timeline on the model: torso twist and squat keyed at beats 0 and 4, the left hand traced over
 * beats 0..4 (5 keyframes), the right foot over beats 0..4 (3 keyframes). */
function makeTimeline(model, bpm) {
  const tl = pm.createTimeline(model, { bpm });
  tl.addKeyframe({ beat: 0, rotations: {} });
  tl.addKeyframe({ beat: 4, rotations: { 上半身: [0, 0.2955, 0, 0.9553], 上半身2: [0.1494, 0, 0, 0.9888] }, translations: { センター: [0.2, -1.5, 0] } });
  tl.generateKeyframes('leftHand', { count: 5, mode: 'curve', points: HAND });
  tl.generateKeyframes('rightFoot', { count: 3, beatStep: 2, mode: 'curve', points: FOOT });
  return tl;
}

test('babylon-mmd plays the baked trace with the wrist and ankle on their paths', { skip: SKIP }, async () => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  for (const bpm of [120, 128]) {
    const tl = makeTimeline(model, bpm);
    const vmd = tl.bake().vmd;
    const lastFrame = Math.round(4 * 1800 / bpm);
    // every frame, and the half frames in between (where babylon-mmd interpolates two per-frame keys)
    const frames = Array.from({ length: 2 * lastFrame + 1 }, (_, f) => f / 2);
    tl.dispose();
    const ctx = await createMmdScene(model);
    let theirs;
    try {
      theirs = await evaluateWorldPositions(ctx, vmd, frames);
    } finally {
      disposeMmdScene(ctx);
    }
    const ev = pm.createPoseEvaluator(vmd, model);
    const ours = frames.map((f) => ev.evaluate(f).positions);
    const names = ev.boneNames;
    ev.dispose();
    const idx = (n) => ({ b: boneIndex(ctx, n), o: names.indexOf(n) });
    const shoulder = idx('左腕'), wrist = idx('左手首'), hip = idx('右足'), ankle = idx('右足首');
    const worst = { babylonWrist: 0, babylonAnkle: 0, oursWrist: 0, oursAnkle: 0, oursVsBabylon: 0, shoulderTravel: 0, halfFrameWrist: 0 };
    frames.forEach((f, k) => {
      const t = theirs[k], o = ours[k];
      if (!Number.isInteger(f)) {
        worst.halfFrameWrist = Math.max(worst.halfFrameWrist, pathDistance(at(t, wrist.b), 'curve', HAND, at(t, shoulder.b)));
        return;
      }
      worst.babylonWrist = Math.max(worst.babylonWrist, pathDistance(at(t, wrist.b), 'curve', HAND, at(t, shoulder.b)));
      worst.babylonAnkle = Math.max(worst.babylonAnkle, pathDistance(at(t, ankle.b), 'curve', FOOT, at(t, hip.b)));
      worst.oursWrist = Math.max(worst.oursWrist, pathDistance(at(o, wrist.o), 'curve', HAND, at(o, shoulder.o)));
      worst.oursAnkle = Math.max(worst.oursAnkle, pathDistance(at(o, ankle.o), 'curve', FOOT, at(o, hip.o)));
      for (const j of [shoulder, wrist, hip, ankle]) {
        const a = at(t, j.b), b = at(o, j.o);
        worst.oursVsBabylon = Math.max(worst.oursVsBabylon, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
      }
      const s0 = at(theirs[0], shoulder.b), s = at(t, shoulder.b);
      worst.shoulderTravel = Math.max(worst.shoulderTravel, Math.hypot(s[0] - s0[0], s[1] - s0[1], s[2] - s0[2]));
    });
    console.log(`yw_test_model at ${bpm} BPM, frames 0..${lastFrame}: ` +
      Object.entries(worst).map(([k, v]) => `${k} ${v.toExponential(2)}`).join(', '));
    assert.ok(worst.shoulderTravel > 1, 'the body moves');
    // on whole frames the keys put the limbs on the path (measured ~2e-6); half a frame between two
    // per-frame keys cuts the curve's chord (~2.4e-3)
    for (const k of ['babylonWrist', 'babylonAnkle', 'oursWrist', 'oursAnkle']) assert.ok(worst[k] < 1e-4, `${k} ${worst[k]}`);
    assert.ok(worst.halfFrameWrist < 0.01, `halfFrameWrist ${worst.halfFrameWrist}`);
    assert.ok(worst.oursVsBabylon < 1e-5, `ours vs babylon ${worst.oursVsBabylon}`);
  }
});

test('the bake says where the hands and feet are meant to be, and its report is what babylon-mmd shows', { skip: SKIP }, async (t) => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  const tl = makeTimeline(model, 128);
  const { vmd, plan, report } = tl.bake();
  tl.dispose();
  assert.deepEqual(vmd, (() => { const again = makeTimeline(model, 128); try { return again.bake().vmd; } finally { again.dispose(); } })());
  const n1 = plan.frames + 1;
  assert.equal(plan.frames, Math.round(4 * 1800 / 128));
  assert.ok(plan.hands.length === 6 * n1 && plan.ankles.length === 6 * n1 && plan.active.length === 4 * n1);
  assert.deepEqual(Object.keys(report.limbs), ['leftHand', 'rightHand', 'leftFoot', 'rightFoot']);
  assert.equal(report.limbs.leftHand.frames, n1); // traced from beat 0 to 4
  assert.equal(report.limbs.rightHand.frames, 0); // never traced: not measured
  const ctx = await createMmdScene(model);
  let positions;
  try {
    positions = await evaluateWorldPositions(ctx, vmd, Array.from({ length: n1 }, (_, f) => f));
    const limbs = [['leftHand', '左手首', plan.hands, 0, 0], ['leftFoot', '左足首', plan.ankles, 0, 2], ['rightFoot', '右足首', plan.ankles, 1, 3]];
    for (const [limb, bone, arr, side, k] of limbs) {
      const i = boneIndex(ctx, bone);
      let worst = 0;
      positions.forEach((p, f) => {
        if (!plan.active[4 * f + k]) return;
        worst = Math.max(worst, Math.hypot(...[0, 1, 2].map((a) => p[3 * i + a] - arr[6 * f + 3 * side + a])));
      });
      assert.ok(worst < 0.01, `${limb}: babylon-mmd ${worst} from the plan`);
      assert.ok(Math.abs(worst - report.limbs[limb].maxError) < 1e-3, `${limb}: report ${report.limbs[limb].maxError}, babylon-mmd ${worst}`);
      t.diagnostic(`${limb}: ${worst.toExponential(2)} from the plan (report ${report.limbs[limb].maxError.toExponential(2)})`);
    }
  } finally {
    disposeMmdScene(ctx);
  }
});
