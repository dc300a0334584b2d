// The web demo's tracing mode without a browser (web-demo/src/modes/tracing-core.js): the vector
// helpers of the drag and the tests, every label it uses in all five languages, and the session on
// the built-in mannequin played by babylon-mmd (MmdRuntime, NullEngine): the live pose puts the
// wrist on the sphere, points are stored relative to the limb root, the generated keyframes keep the
// wrist on the path and loop seamlessly, and the input mistakes are TraceInputErrors naming the limb.
import './support/register.mjs';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { REPO_ROOT, boneIndex, createMmdScene, disposeMmdScene, evaluateWorldPositions } from './support/babylon.mjs';

const SRC = join(REPO_ROOT, 'web-demo/src');
const { TABLE, LANGUAGES } = await import(join(SRC, 'i18n.js'));
const core = await import(join(SRC, 'modes/tracing-core.js'));
const {
  LIMB_IDS, TRACE_LIMBS, TRACE_PARAMS, TraceInputError, TraceSession, newTraceState,
  rayPlane, rotateAbout, distanceToPolyline, drawingTs, mean, HOLD_BEATS, RETURN_BEATS,
} = core;

const pm = await createProcMotion({ load: FEATURE_MODULES });
const mannequin = pm.mannequinPmx();
const near = (a, b, tol, what) => {
  const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  assert.ok(d <= tol, `${what}: ${a} vs ${b} (${d})`);
};
const at = (positions, i) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];

test('rayPlane: the hit on the plane, null when parallel or behind the origin', () => {
  near(rayPlane([0, 0, -10], [0, 0, 1], [1, 2, 3], [0, 0, 1]), [0, 0, 3], 1e-12, 'straight on');
  const p = rayPlane([1, 1, 1], [1, 0, 0], [5, 0, 0], [2, 0, 0]);
  near(p, [5, 1, 1], 1e-12, 'unnormalised normal');
  const oblique = rayPlane([0, 0, 0], [0.6, 0.8, 0], [0, 4, 0], [0, 1, 0]);
  near(oblique, [3, 4, 0], 1e-12, 'oblique');
  assert.equal(rayPlane([0, 0, 0], [1, 0, 0], [0, 5, 0], [0, 1, 0]), null, 'parallel');
  assert.equal(rayPlane([0, 0, 0], [0, 0, -1], [0, 0, 5], [0, 0, 1]), null, 'behind');
});

test('rotateAbout: Rodrigues rotation about an axis through the origin', () => {
  near(rotateAbout([1, 0, 0], [0, 0, 1], 90), [0, 1, 0], 1e-12, 'x about z by 90°');
  near(rotateAbout([1, 0, 0], [0, 0, 5], -90), [0, -1, 0], 1e-12, 'axis length does not matter');
  near(rotateAbout([0, 0, 2], [0, 0, 1], 123), [0, 0, 2], 1e-12, 'on the axis it stays');
  near(rotateAbout([1, 2, 3], [1, 1, 0], 0), [1, 2, 3], 0, '0°');
  near(rotateAbout([1, 2, 3], [0, 0, 0], 45), [1, 2, 3], 0, 'no axis');
  const v = [1.5, -5.3, 2.6], axis = [3, -2, -1];
  for (const deg of [30, 90, 180, -135]) {
    const r = rotateAbout(v, axis, deg);
    assert.ok(Math.abs(Math.hypot(...r) - Math.hypot(...v)) < 1e-12, 'length kept');
    const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    assert.ok(Math.abs(dot(r, axis) - dot(v, axis)) < 1e-12, 'component along the axis kept');
    const perp2 = dot(v, v) - dot(v, axis) ** 2 / dot(axis, axis); // |v_perp|^2
    const perp = (x) => x.map((c, i) => c - (dot(x, axis) / dot(axis, axis)) * axis[i]);
    const angle = Math.acos(Math.max(-1, Math.min(1, dot(perp(v), perp(r)) / perp2))) * 180 / Math.PI;
    assert.ok(Math.abs(angle - Math.abs(deg)) < 1e-6, `turned by ${deg}°: ${angle}`);
  }
  near(rotateAbout([1, 2, 3], [0, 1, 0], 360), [1, 2, 3], 1e-12, 'a full turn');
});

test('distanceToPolyline, drawingTs, mean', () => {
  const line = [0, 0, 0, 10, 0, 0, 10, 10, 0];
  assert.equal(distanceToPolyline([5, 3, 0], line), 3);
  assert.equal(distanceToPolyline([-4, 3, 0], line), 5, 'beyond the first end');
  assert.equal(distanceToPolyline([12, 5, 0], line), 2, 'second segment');
  assert.equal(distanceToPolyline([13, 14, 0], line), 5, 'beyond the last end');
  assert.equal(distanceToPolyline([3, 4, 0], [0, 0, 0]), 5, 'one point');
  assert.equal(distanceToPolyline([3, 4, 0], [1, 1, 1, 1, 1, 1]), Math.hypot(2, 3, 1), 'a zero-length segment');
  const ts = drawingTs(4, 10);
  assert.equal(ts.length, 31);
  assert.equal(ts[0], 0);
  assert.equal(ts.at(-1), 1);
  assert.ok(ts.every((v, i) => i === 0 || v > ts[i - 1]));
  assert.deepEqual(drawingTs(1, 10), [0, 1]);
  assert.deepEqual(mean([[0, 0, 0], [2, 4, 6]]), [1, 2, 3]);
});

test('every tracing label exists in all five languages', () => {
  const used = new Set(['mode.tracing', 'info.keyframes', 'info.keyframesValue']);
  for (const f of ['modes/tracing.js', 'modes/tracing-core.js']) {
    const src = readFileSync(join(SRC, f), 'utf8');
    for (const m of src.matchAll(/\bt\('([\w.]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/'((?:err|trace)\.[\w.-]+)'/g)) used.add(m[1]);
  }
  for (const id of LIMB_IDS) used.add(`trace.limb.${id}`);
  for (const p of TRACE_PARAMS) {
    used.add(p.label);
    for (const o of p.options ?? []) used.add(`${p.label}.${o}`);
  }
  const missing = [...used].filter((k) => !(k in TABLE));
  assert.deepEqual(missing, []);
  for (const k of used) for (const { id } of LANGUAGES) assert.ok(TABLE[k][id]?.trim(), `${k}: ${id}`);
  assert.ok(used.size > 30, `${used.size} keys`);
  // the limb names and the parameter ranges the panel offers match the core
  assert.deepEqual(TRACE_LIMBS.map((l) => l.id), ['leftHand', 'rightHand', 'leftFoot', 'rightFoot']);
  const count = TRACE_PARAMS.find((p) => p.key === 'trace.count');
  assert.deepEqual([count.min, count.max], [2, 20]);
});

test('session on the mannequin: rest positions, the live pose reaches the target in babylon-mmd', async () => {
  const session = new TraceSession(pm, mannequin);
  const ctx = await createMmdScene(mannequin);
  try {
    for (const limb of LIMB_IDS) {
      assert.ok(session.canTrace(limb), limb);
      near(session.limbRest(limb).root, session.timeline.rootPosition(limb, 0), 1e-6, `${limb} root`);
    }
    const state = newTraceState();
    // nothing moved: the rest pose
    const [rest] = await evaluateWorldPositions(ctx, session.previewVmd(state, 120), [0]);
    near(at(rest, boneIndex(ctx, '左手首')), session.rest.leftHand.end, 1e-4, 'rest wrist');
    // the sphere moved: the wrist is on it, in babylon-mmd
    state.targets.leftHand = [4, 15, -2];
    state.limb = 'leftHand';
    const t0 = performance.now();
    const vmd = session.previewVmd(state, 120);
    const ms = performance.now() - t0;
    const [pose] = await evaluateWorldPositions(ctx, vmd, [0, 7]);
    near(at(pose, boneIndex(ctx, '左手首')), [4, 15, -2], 1e-4, 'wrist on the target');
    near(at(pose, boneIndex(ctx, '右手首')), session.rest.rightHand.end, 1e-4, 'the other hand rests');
    console.log(`# tracing demo: live pose (two-bone IK, bake) in ${ms.toFixed(2)} ms, ${vmd.length} bytes`);
    // a foot with 足ＩＫ: the ankle reaches the target too
    state.limb = 'rightFoot';
    state.targets.rightFoot = [-1.5, 4, -2.5];
    const [foot] = await evaluateWorldPositions(ctx, session.previewVmd(state, 128), [3]);
    near(at(foot, boneIndex(ctx, '右足首')), [-1.5, 4, -2.5], 1e-3, 'ankle on the target');
    // the pole turns the bend: same wrist, another elbow
    state.limb = 'leftHand';
    state.targets.leftHand = [3, 14, -3];
    const [a] = await evaluateWorldPositions(ctx, session.previewVmd(state, 120), [0]);
    state.drafts.leftHand.poleAngle = 90;
    const [b] = await evaluateWorldPositions(ctx, session.previewVmd(state, 120), [0]);
    near(at(b, boneIndex(ctx, '左手首')), [3, 14, -3], 1e-4, 'wrist with the pole turned');
    const elbow = boneIndex(ctx, '左ひじ');
    const moved = Math.hypot(...[0, 1, 2].map((k) => at(a, elbow)[k] - at(b, elbow)[k]));
    assert.ok(moved > 1, `turning the pole 90° moves the elbow: ${moved}`);
  } finally {
    disposeMmdScene(ctx);
    session.dispose();
  }
});

test('points are stored relative to the limb root; other limbs sit on their paths at the progress', () => {
  const session = new TraceSession(pm, mannequin);
  try {
    const state = newTraceState();
    const root = session.rest.rightHand.root;
    session.addPoint(state, 'rightHand', [-4, 15, -2]);
    session.addPoint(state, 'rightHand', [-5, 12, -3]);
    near(state.drafts.rightHand.points[0], [-4 - root[0], 15 - root[1], -2 - root[2]], 1e-5, 'offset from 右腕');
    near(session.world('rightHand', state.drafts.rightHand.points[1]), [-5, 12, -3], 1e-5, 'back to world');
    assert.deepEqual(session.timeline.getTrajectory('rightHand').points, state.drafts.rightHand.points, 'the core holds the draft');
    state.progress = 0.5;
    const targets = session.previewTargets(state); // the chosen limb (leftHand) has no target: only the right hand
    assert.deepEqual(targets.map((x) => x.limb), ['rightHand']);
    near(session.world('rightHand', targets[0].rel), [-4.5, 13.5, -2.5], 1e-5, 'the middle of the line');
    const path = session.pathWorld('rightHand', state.drafts.rightHand);
    assert.ok(distanceToPolyline([-4.5, 13.5, -2.5], path) < 1e-5);
    assert.equal(session.pathWorld('leftHand', state.drafts.leftHand), null, 'no path under two points');
  } finally {
    session.dispose();
  }
});

test('generated keyframes: the wrist on the path in babylon-mmd, a hold, a seamless loop; two limbs at once', async () => {
  const session = new TraceSession(pm, mannequin);
  const ctx = await createMmdScene(mannequin);
  try {
    const state = newTraceState();
    for (const p of [[3, 15, -2], [4.5, 17, -1], [3.5, 13.5, -2], [3, 12.5, -1.5]]) session.addPoint(state, 'leftHand', p); // within reach (arm 5.3)
    state.drafts.leftHand.mode = 'curve';
    for (const p of [[-0.8, 4, -2], [-0.8, 6, -3.5]]) session.addPoint(state, 'rightFoot', p);
    Object.assign(state, { count: 6, beatStep: 0.5, easing: 'ease-in-out' });
    const bpm = 128;
    const r = session.playback(state, bpm);
    assert.deepEqual(r.limbs, ['leftHand', 'rightFoot']);
    assert.equal(r.keyframes, 6);
    assert.equal(r.timelineKeyframes, 8, 'six on the paths, the hold, the return');
    assert.equal(r.traceBeats, 2.5);
    assert.equal(r.loopBeats, 2.5 + HOLD_BEATS + RETURN_BEATS);
    const beat = 1800 / bpm;
    const traceFrames = r.traceBeats * beat;
    // whole frames (the VMD keys the traced limbs on every frame) and frames in between (as the page plays)
    const traced = Array.from({ length: 11 }, (_, i) => Math.round((i * traceFrames) / 10));
    const between = Array.from({ length: 10 }, (_, i) => Math.floor((i * traceFrames) / 10) + 0.5);
    const loopFrame = r.loopBeats * beat;
    const frames = [...traced, (r.traceBeats + 0.5) * beat, loopFrame, ...between];
    const poses = await evaluateWorldPositions(ctx, r.vmd, frames);
    const hand = session.pathWorld('leftHand', state.drafts.leftHand, 200);
    const foot = session.pathWorld('rightFoot', state.drafts.rightFoot, 200);
    const off = (pose) => Math.max(distanceToPolyline(at(pose, boneIndex(ctx, '左手首')), hand),
      distanceToPolyline(at(pose, boneIndex(ctx, '右足首')), foot));
    const worst = Math.max(...traced.map((_, i) => off(poses[i])));
    const worstBetween = Math.max(...between.map((_, i) => off(poses[traced.length + 2 + i])));
    console.log(`# tracing demo: generated keyframes at ${bpm} BPM, wrist and ankle off their paths by at most `
      + `${worst.toExponential(2)} on frames, ${worstBetween.toExponential(2)} half a frame between`);
    assert.ok(worst < 1e-3, `on the paths: ${worst}`);
    assert.ok(worstBetween < 0.05, `between frames: ${worstBetween}`);
    near(at(poses[0], boneIndex(ctx, '左手首')), session.world('leftHand', state.drafts.leftHand.points[0]), 1e-3, 'starts on the first point');
    near(at(poses[10], boneIndex(ctx, '左手首')), session.world('leftHand', state.drafts.leftHand.points[3]), 0.01, 'ends on the last point (its key lands on a whole frame)');
    near(at(poses[11], boneIndex(ctx, '左手首')), at(poses[10], boneIndex(ctx, '左手首')), 1e-3, 'holds');
    for (const bone of ['左手首', '左ひじ', '右足首', '右ひざ']) {
      near(at(poses[traced.length + 1], boneIndex(ctx, bone)), at(poses[0], boneIndex(ctx, bone)), 1e-3, `${bone}: the loop end is its start`);
    }
    // the BPM only changes the timing: the same keyframes at 90 BPM
    const slow = session.playback(state, 90);
    assert.ok(slow.vmd.length > 0 && pm.readVmd(slow.vmd).bones.frames.reduce((m, f) => Math.max(m, f), 0)
      === Math.round(r.loopBeats * 20), 'the last key at the loop end (20 frames a beat)');
  } finally {
    disposeMmdScene(ctx);
    session.dispose();
  }
});

test('playback on a beat grid: a late or early beat 0, the cycle repeated to cover a song, keyframes on its beats', () => {
  const session = new TraceSession(pm, mannequin);
  try {
    const state = newTraceState();
    for (const p of [[3, 15, -2], [4.5, 17, -1]]) session.addPoint(state, 'leftHand', p);
    const plain = session.playback(state, 120);
    assert.equal(plain.plan.frames, Math.round(plain.loopBeats * 15), 'a BPM: the loop is loopBeats beats');
    assert.equal(plain.report.sync, null);
    // a typed offset: one cycle from 0.25 s (beat 0), the loop as the bake wrote it
    const late = session.playback(state, pm.beatGrid({ bpm: 120, offset: 0.25 }));
    assert.equal(late.cycles, 1);
    assert.equal(late.startBeat, 0);
    assert.equal(late.plan.frames, Math.round(30 * (0.25 + late.loopBeats * 0.5)));
    assert.ok(late.report.sync.maxErrorFrames <= 0.5, JSON.stringify(late.report.sync));
    assert.equal(late.plan.active.findIndex((a, i) => i % 4 === 0 && a === 1) / 4, Math.round(30 * 0.25), 'the trace starts on beat 0');
    // beat 0 before 0 s: the cycle starts on the first beat after it
    const early = session.playback(state, pm.beatGrid({ bpm: 120, offset: -0.3 }));
    assert.equal(early.startBeat, 1);
    assert.equal(early.plan.active.findIndex((a, i) => i % 4 === 0 && a === 1) / 4, Math.round(30 * 0.2));
    // a song's beats (a tempo change at beat 12): cycles to its end, every cycle's first keyframe on its beat
    const beats = Float64Array.from({ length: 30 }, (_, i) => 0.4 + (i <= 12 ? 0.5 * i : 6 + 0.4 * (i - 12)));
    const grid = pm.beatGrid({ bpm: 120, offset: 0.4, beats });
    const song = session.playback(state, grid, { until: beats.at(-1) });
    assert.equal(song.cycles, Math.ceil(29 / song.loopBeats));
    assert.ok(song.plan.frames >= 30 * beats.at(-1) - 0.5, `${song.plan.frames} frames`);
    assert.ok(song.report.sync.maxErrorFrames <= 0.5 && song.report.sync.count === song.timelineKeyframes, JSON.stringify(song.report.sync));
    const starts = [];
    for (let f = 0; f <= song.plan.frames; f++) if (song.plan.active[4 * f] && !(f && song.plan.active[4 * (f - 1)])) starts.push(f);
    // a traced frame is one whose beat (from its time) is inside the span: on a key that lands on a whole
    // frame, rounding may leave that frame to the segment before
    const keyed = Array.from({ length: song.cycles }, (_, k) => Math.round(30 * pm.beatGridTime(grid, k * song.loopBeats)));
    assert.equal(starts.length, song.cycles);
    assert.ok(starts.every((f, k) => f - keyed[k] >= 0 && f - keyed[k] <= 1), `trace starts ${starts}, keys ${keyed}`);
  } finally {
    session.dispose();
  }
});

test('input mistakes are TraceInputErrors with their label key; a model without 左腕 cannot trace the left hand', () => {
  const session = new TraceSession(pm, mannequin);
  try {
    const state = newTraceState();
    const err = (fn) => { try { fn(); } catch (e) { assert.ok(e instanceof TraceInputError, e.stack); return [e.key, e.vars]; } assert.fail('no error'); };
    assert.deepEqual(err(() => session.playback(state, 120)), ['err.traceNoPath', {}]);
    session.addPoint(state, 'leftHand', [3, 15, -2]);
    session.addPoint(state, 'leftFoot', [1, 4, -2]);
    session.addPoint(state, 'leftFoot', [1, 5, -3]);
    assert.deepEqual(err(() => session.playback(state, 120)), ['err.tracePoints', { limb: 'leftHand', points: 1 }]);
    session.addPoint(state, 'leftHand', [4, 16, -2]);
    state.count = 21;
    assert.deepEqual(err(() => session.playback(state, 120)), ['err.traceCount', { count: 21 }]);
    state.count = 2;
    assert.equal(session.playback(state, 120).keyframes, 2);
    for (let i = 0; i < 62; i++) session.addPoint(state, 'rightHand', [-3, 14 + i * 0.01, -2]);
    session.addPoint(state, 'rightHand', [-3, 13, -2]);
    session.addPoint(state, 'rightHand', [-3, 12, -2]);
    assert.deepEqual(err(() => session.addPoint(state, 'rightHand', [-3, 11, -2])), ['err.traceTooMany', { limb: 'rightHand', max: 64 }]);
  } finally {
    session.dispose();
  }
  // a skeleton object (what the page sends for a model loaded by URL) without 左腕
  const bones = pm.readPmx(mannequin).bones.filter((b) => b.name !== '左腕');
  const names = pm.readPmx(mannequin).bones.map((b) => b.name);
  const skeleton = { bones: bones.map((b) => ({ name: b.name, position: Array.from(b.position),
    parent: b.parent < 0 ? -1 : bones.findIndex((x) => x.name === names[b.parent]) })) };
  const broken = new TraceSession(pm, skeleton);
  try {
    assert.equal(broken.canTrace('leftHand'), false);
    assert.equal(broken.canTrace('rightHand'), true);
    const state = newTraceState();
    state.targets.leftHand = [3, 15, -2];
    assert.deepEqual(broken.previewTargets(state), [], 'the left hand is left out of the live pose');
    assert.ok(broken.previewVmd(state, 120).length > 0);
    const e = (() => { try { broken.addPoint(state, 'leftHand', [3, 15, -2]); } catch (x) { return x; } return null; })();
    assert.ok(e instanceof TraceInputError);
    assert.deepEqual([e.key, e.vars], ['err.traceBones', { limb: 'leftHand', bones: '左腕' }]);
  } finally {
    broken.dispose();
  }
});
