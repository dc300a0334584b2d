// The demo's planned and played foot heights and report line without a browser
// (web-demo/src/foot-heights.js), on the built-in mannequin: the catwalk's plan against what the
// evaluator plays, the groove's anchors (what its base plays) against the bake's own measured
// maxFootError, a tracing bake with a traced foot, and the line's units and cm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { createProcMotion } from 'procmotion';
import { REPO_ROOT } from './support/babylon.mjs';

const { CM_PER_UNIT, ankleBones, footHeights, planPlayedGap, reportFigures, unitsAndCm } = await import(join(REPO_ROOT, 'web-demo/src/foot-heights.js'));

const pm = await createProcMotion({ load: ['motion'] }); // the mannequin, the rig analysis and the catwalk on a model are motion's
const model = pm.mannequinPmx();
const rig = pm.analyzeRig(model);

test('catwalk: plan.ankles and the played ankles, heights above rest, within 0.01', () => {
  const r = pm.generateCatwalkVmd({ traverse: true }, 128, null, null, { skeleton: model });
  const feet = footHeights(pm, r, model, rig);
  assert.deepEqual(feet.bones, ['左足首', '右足首']);
  assert.equal(feet.frames, r.loopFrames);
  assert.equal(feet.played.left.length, r.loopFrames + 1);
  assert.ok(Math.abs(feet.rest[0] - r.plan.floor[0]) < 1e-5, `rest ${feet.rest[0]} vs the plan's floor ${r.plan.floor[0]}`);
  // the planned series is the plan's Y less the rest height, frame by frame
  for (const f of [0, 17, r.loopFrames]) assert.ok(Math.abs(feet.planned.right[f] + feet.rest[1] - r.plan.ankles[6 * f + 4]) < 1e-6);
  const gap = planPlayedGap(feet);
  assert.ok(gap <= r.report.maxError + 1e-6 && gap <= 0.01, `Y gap ${gap}, report ${r.report.maxError}`);
  assert.ok(Math.max(...feet.played.left) > 0.2, 'the feet lift');
  assert.deepEqual(Object.keys(reportFigures(r)), ['limbs', 'maxError', 'rmsError', 'penetration']);
  assert.equal(reportFigures(r).limbs, 'feet');
});

test('groove: the anchors are what the base plays, and the gap is the bake\'s measured maxFootError', () => {
  const base = pm.generateCatwalkVmd({}, 120, null, null, { skeleton: model }).vmd;
  for (const anchors of [null, base]) {
    const { vmd, report } = pm.bakeGroove(anchors, model, pm.grooveConfig(), 120, { frames: 240 });
    const motion = { vmd, report, loopFrames: 240, anchors };
    const feet = footHeights(pm, motion, model, rig);
    const gap = planPlayedGap(feet);
    assert.ok(gap <= report.maxFootError + 1e-6, `${anchors ? 'catwalk' : 'rest'}: Y gap ${gap} vs maxFootError ${report.maxFootError}`);
    assert.equal(reportFigures(motion).maxError, report.landing.maxError);
    if (!anchors) assert.ok(Math.max(...feet.planned.left.map(Math.abs)) < 1e-5, 'on the standing pose the anchors are the rest ankles');
  }
});

test('tracing: a traced foot has a plan, the report line says traced limbs', () => {
  const tl = pm.createTimeline(model, { bpm: 120 });
  try {
    tl.generateKeyframes('leftFoot', { count: 3, beatStep: 1, mode: 'curve', points: [[0, -8, -1], [0, -6.5, -2.5], [0, -7.5, -3]] });
    const baked = tl.bake();
    const motion = { ...baked, loopFrames: baked.plan.frames };
    assert.deepEqual(ankleBones(motion, null), ['左足首', '右足首']);
    const feet = footHeights(pm, motion, model, rig);
    assert.ok(planPlayedGap(feet) <= 0.01, `gap ${planPlayedGap(feet)}`);
    assert.ok(Math.max(...feet.planned.left) > 0.3, 'the traced foot rises');
    assert.equal(reportFigures(motion).limbs, 'traced');
  } finally {
    tl.dispose();
  }
});

test('the line\'s figures: units to 1e-4 and centimetres (1 unit = 8 cm); no report, no line', () => {
  assert.equal(CM_PER_UNIT, 8);
  assert.deepEqual(unitsAndCm(0.0024042), { units: '0.0024', cm: '0.02' });
  assert.deepEqual(unitsAndCm(0.0125), { units: '0.0125', cm: '0.10' });
  assert.deepEqual(unitsAndCm(0.0000019), { units: '0.0000', cm: '0.00' });
  assert.equal(reportFigures({ vmd: new Uint8Array(0), loopFrames: 10 }), null);
  assert.equal(reportFigures({ report: null }), null);
  assert.equal(reportFigures(null), null);
});
