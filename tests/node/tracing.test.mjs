// Tracing through the JS glue: pm.sampleTrajectory, pm.createTimeline (drafts, control points,
// generation, evaluate, keyframes by hand), JSON round trip and validation, bakeVmd, the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { Timeline } from '../../js-glue/motion.js';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const mannequin = pm.mannequinPmx();
const ARC = [[2, -1, -2], [3, 0, -2.5], [2, 1.5, -3], [0.5, 1, -3.5]];
const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (v) => Math.hypot(v[0], v[1], v[2]);

/** Distance from q to a dense polyline of the path (relative points) offset by origin. */
function pathDistance(q, mode, points, origin, dense = 2000) {
  const ts = Array.from({ length: dense + 1 }, (_, i) => i / dense);
  const p = pm.sampleTrajectory(mode, points, ts);
  const local = sub(q, origin);
  let best = Infinity;
  for (let i = 1; i <= dense; i++) {
    const a = p.subarray(3 * i - 3, 3 * i), b = p.subarray(3 * i, 3 * i + 3);
    const ab = sub(b, a), aq = sub(local, a);
    const l2 = ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2;
    const s = l2 > 0 ? Math.min(1, Math.max(0, (aq[0] * ab[0] + aq[1] * ab[1] + aq[2] * ab[2]) / l2)) : 0;
    best = Math.min(best, len(sub(aq, [ab[0] * s, ab[1] * s, ab[2] * s])));
  }
  return best;
}

const position = (pose, name) => {
  const i = pose.boneNames.indexOf(name);
  assert.ok(i >= 0, `bone ${name}`);
  return Array.from(pose.positions.subarray(3 * i, 3 * i + 3));
};

test('sampleTrajectory: line by arc length, curve through the points, 2-point curve = line, arrays of t', () => {
  assert.deepEqual(pm.sampleTrajectory('line', [[0, 0, 0], [3, 0, 0], [3, 4, 0]], 0.5), [3, 0.5, 0]);
  assert.equal(pm.trajectoryLength('line', [[0, 0, 0], [3, 0, 0], [3, 4, 0]]), 7);
  const two = [[1, 2, 3], [4, -2, 0]];
  for (const t of [0, 0.3, 0.77, 1]) assert.deepEqual(pm.sampleTrajectory('curve', two, t), pm.sampleTrajectory('line', two, t));
  const many = pm.sampleTrajectory('curve', ARC, [0, 0.5, 1]);
  assert.ok(many instanceof Float32Array && many.length === 9);
  assert.deepEqual(Array.from(many.subarray(0, 3)), ARC[0]);
  assert.deepEqual(Array.from(many.subarray(6, 9)), ARC[3]);
  // the curve bends away from the polyline between the points
  const c = pm.sampleTrajectory('curve', ARC, 0.5), l = pm.sampleTrajectory('line', ARC, 0.5);
  assert.ok(len(sub(c, l)) > 0.05);
  assert.throws(() => pm.sampleTrajectory('spline', ARC, 0.5), /line" or "curve/);
  assert.throws(() => pm.sampleTrajectory('line', [[0, 0, 0], [0, NaN, 0]], 0.5), /point 1 is not finite/);
  assert.throws(() => pm.sampleTrajectory('line', ARC, NaN), /t is not finite/);
});

test('a generated trace keeps the wrist on the continuous curve for N = 2, 5 and 20', () => {
  const byN = [];
  for (const count of [2, 5, 20]) {
    const tl = pm.createTimeline(mannequin);
    try {
      tl.setTrajectory('leftHand', { mode: 'curve', points: ARC });
      const id = tl.generateKeyframes('leftHand', { count, startBeat: 0, beatStep: 4 / (count - 1) });
      assert.equal(id, 1);
      assert.equal(tl.keyframeCount, count);
      assert.equal(tl.nextTraceId, 2);
      let worst = 0;
      const wrists = [];
      for (let k = 0; k <= 40; k++) {
        const pose = tl.evaluate(k * 0.05);
        const w = position(pose, '左手首');
        worst = Math.max(worst, pathDistance(w, 'curve', ARC, position(pose, '左腕')));
        assert.equal(pose.traces.leftHand.active, true);
        assert.ok(len(sub(w, pose.traces.leftHand.target)) < 1e-4);
        wrists.push(w);
      }
      assert.ok(worst < 1e-3, `N=${count}: ${worst}`);
      byN.push(wrists);
    } finally {
      tl.dispose();
    }
  }
  for (let k = 0; k <= 40; k++) assert.ok(len(sub(byN[0][k], byN[2][k])) < 1e-4, 'N=2 and N=20 play the same motion');
});

test('control points are stored relative to the limb root; hand-made keyframes and other ids slerp', () => {
  const tl = pm.createTimeline(pm.readPmx(mannequin), { bpm: 100 });
  try {
    assert.equal(tl.bpm, 100);
    const root = tl.rootPosition('leftHand', 0);
    for (const p of ARC) tl.addControlPoint('leftHand', [root[0] + p[0], root[1] + p[1], root[2] + p[2]], 0, 'curve');
    const draft = tl.getTrajectory('leftHand');
    assert.equal(draft.mode, 'curve');
    draft.points.forEach((p, i) => p.forEach((v, k) => assert.ok(Math.abs(v - ARC[i][k]) < 1e-5)));
    assert.equal(draft.pole, undefined);
    assert.equal(tl.defaultPole('leftHand').length, 3);
    tl.generateKeyframes('leftHand', { count: 3, startBeat: 0, beatStep: 1 });
    tl.generateKeyframes('leftHand', { count: 2, startBeat: 4, beatStep: 2, mode: 'line', points: [[-1, -3, -1], [1, -3.5, -1.5]] });
    assert.deepEqual(tl.keyframes.map((k) => k.beat), [0, 1, 2, 4, 6]);
    assert.equal(tl.getKeyframe(3).traces.leftHand.id, 2);
    // beat 3 lies between id 1 and id 2: slerp
    assert.equal(tl.evaluateBeat(3).traces.leftHand.active, false);
    assert.equal(tl.evaluateBeat(5).traces.leftHand.active, true);
    // a hand-made keyframe (captured pose) splits id 2's segment: slerp on both sides
    const index = tl.addKeyframe({ beat: 5 });
    assert.equal(index, 4);
    assert.equal(tl.getKeyframe(4).traces, undefined);
    assert.equal(tl.evaluateBeat(5.5).traces.leftHand.active, false);
    // explicit rotations: bones left out rest
    tl.addKeyframe({ beat: 8, easing: 'ease-in-out', rotations: { 上半身: [0, 0.2588190, 0, 0.9659258] } });
    const kf = tl.getKeyframe(tl.keyframeCount - 1);
    assert.deepEqual(Object.keys(kf.rotations), ['上半身']);
    assert.equal(kf.easing, 'ease-in-out');
    assert.throws(() => tl.addKeyframe({ beat: 9, rotations: { nope: [0, 0, 0, 1] } }), /keyframe.rotations.nope names no bone/);
    tl.removeKeyframe(0);
    assert.equal(tl.keyframeCount, 6);
    assert.throws(() => tl.removeKeyframe(99), ProcMotionError);
    assert.throws(() => tl.generateKeyframes('leftHand', { count: 21 }), /count 21/);
    assert.throws(() => tl.generateKeyframes('leftElbow', { count: 3 }), /limb must be one of/);
    tl.clearTrajectory('leftHand');
    assert.equal(tl.getTrajectory('leftHand'), null);
    assert.throws(() => tl.generateKeyframes('leftHand', { count: 3 }), /leftHand has no trajectory/);
  } finally {
    tl.dispose();
    tl.dispose();
  }
  assert.throws(() => tl.evaluate(0), /already disposed/);
});

test('the timeline round-trips through JSON and bad JSON names the field', () => {
  const tl = pm.createTimeline(mannequin);
  tl.addKeyframe({ beat: 0, translations: { センター: [0, 0, 0] } });
  tl.addKeyframe({ beat: 4, rotations: { 上半身: [0, 0.3826834, 0, 0.9238795] }, translations: { センター: [0, -2, 0] } });
  tl.generateKeyframes('leftHand', { count: 5, mode: 'curve', points: ARC, pole: [1, -4, 2] });
  tl.setTrajectory('rightFoot', { mode: 'line', points: [[0, -8, -1], [0, -6, -4]] });
  const json = JSON.stringify(tl);
  const back = pm.timelineFromJSON(json, mannequin);
  const fromObject = pm.timelineFromJSON(JSON.parse(json), pm.readPmx(mannequin));
  try {
    assert.equal(JSON.stringify(back), json);
    assert.equal(JSON.stringify(fromObject), json);
    const o = tl.toJSON();
    assert.equal(o.format, 'procmotion-timeline');
    assert.equal(o.keyframes.length, 5);
    assert.deepEqual(o.keyframes[2].traces.leftHand.pole, [1, -4, 2]);
    assert.deepEqual(o.trajectories.rightFoot.points, [[0, -8, -1], [0, -6, -4]]);
    for (const beat of [0.3, 1.7, 3.9]) assert.deepEqual(back.evaluateBeat(beat).positions, tl.evaluateBeat(beat).positions);
  } finally {
    tl.dispose();
    back.dispose();
    fromObject.dispose();
  }
  const bad = [
    ['{"keyframes":[{"beat":0,"traces":{"leftHand":{"id":1,"mode":"spline","points":[[0,0,0]],"pole":[0,0,0],"t":0}}}]}', 'keyframes[0].traces.leftHand.mode'],
    ['{"keyframes":[{"beat":0},{"beat":1,"rotations":{"左腕":[0,0,1]}}]}', 'keyframes[1].rotations.左腕'],
    ['{"keyframes":[],"bpm":"fast"}', 'bpm'],
    ['{"keyframes":[{"beat":0,"traces":{"leftHand":{"id":1,"mode":"line","points":[[0,0,0]],"pole":[0,0,0],"t":2}}}]}', 'keyframes[0].traces.leftHand.t'],
    ['{"frames":[]}', 'frames is not a field here'],
  ];
  for (const [text, field] of bad) {
    assert.throws(() => pm.timelineFromJSON(text, mannequin), (e) => e instanceof ProcMotionError && e.message.includes(field), field);
  }
});

test('bakeVmd writes per-frame keys on the traced arm and minimal keys elsewhere', () => {
  const tl = pm.createTimeline(mannequin);
  try {
    tl.addKeyframe({ beat: 0, rotations: {} });
    tl.addKeyframe({ beat: 8, rotations: { 上半身: [0, 0.3826834, 0, 0.9238795] } });
    tl.generateKeyframes('leftHand', { count: 3, startBeat: 2, beatStep: 1, mode: 'curve', points: ARC });
    const vmd = pm.readVmd(tl.bake().vmd);
    const count = (name) => vmd.bones.nameIndex.filter((i) => vmd.bones.names[i] === name).length;
    assert.equal(count('左腕'), 31 + 2, 'frames 30..60 per frame, plus beats 0 and 8');
    assert.equal(count('左手首'), 0);
    assert.ok(count('上半身') >= 2 && count('上半身') <= 5);
    assert.ok(vmd.bones.frames.every((f) => f <= 120));
    // another BPM stretches the frames
    const slow = pm.readVmd(tl.bake(60).vmd);
    assert.equal(Math.max(...slow.bones.frames), 240);
  } finally {
    tl.dispose();
  }
});

test('many evaluations and bakes leave the module heap unchanged', () => {
  const warm = pm.createTimeline(mannequin);
  warm.dispose();
  const before = pm.heapInUse;
  const tl = pm.createTimeline(mannequin);
  assert.ok(tl instanceof Timeline);
  tl.generateKeyframes('rightHand', { count: 4, mode: 'curve', points: ARC.map(([x, y, z]) => [-x, y, z]) });
  for (let i = 0; i < 500; i++) tl.evaluate(i / 250);
  tl.bake().vmd;
  JSON.stringify(tl);
  tl.dispose();
  assert.equal(pm.heapInUse, before);
});

test('procmotion trace bakes a timeline JSON to a VMD', { skip: existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built' }, () => {
  const tl = pm.createTimeline(mannequin);
  tl.generateKeyframes('leftHand', { count: 4, mode: 'curve', points: ARC });
  const dir = mkdtempSync(join(tmpdir(), 'pm-trace-'));
  writeFileSync(join(dir, 't.json'), JSON.stringify(tl));
  writeFileSync(join(dir, 'm.pmx'), mannequin);
  const expected = tl.bake().vmd;
  tl.dispose();
  const r = spawnSync(CLI, ['trace', join(dir, 't.json'), '--model', join(dir, 'm.pmx'), '-o', join(dir, 'o.vmd')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.keyframes, 4);
  assert.equal(summary.lastFrame, 45);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'o.vmd'))), expected, 'the CLI bakes what the glue bakes');
  // without --model: the built-in mannequin
  assert.equal(spawnSync(CLI, ['trace', join(dir, 't.json'), '-o', join(dir, 'p.vmd')]).status, 0);
  writeFileSync(join(dir, 'bad.json'), '{"keyframes":[{"beat":0,"easing":"wobbly"}]}');
  const bad = spawnSync(CLI, ['trace', join(dir, 'bad.json'), '-o', join(dir, 'q.vmd')], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /keyframes\[0\]\.easing/);
  assert.equal(spawnSync(CLI, ['trace', join(dir, 't.json')]).status, 1);
});
