// The idle on every model of the "every model" iteration (the test zoo, the mannequin, the shared PMX
// fixtures), landed on the model's own skeleton and played by babylon-mmd 1.3 (MmdRuntime, its own CCD
// IK) at every frame of the loop: the feet stay on the floor and do not slide, the loop closes, the
// body is alive (wrists move, the head turns), the pelvis moves no faster than a slow weight shift,
// and the hands stay out of the body (the report's clearance, measured with the MMD-exact evaluator).
// Figures go to the test's diagnostics.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { createPlayer, frameRange } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });

const SIDES = ['左', '右'];
const NAMES = ['左足首', '右足首', '左手首', '右手首', '頭', '下半身'];
/** The pelvis never moves faster than this share of the leg length a second (0.15 L/s: 11 cm/s on a
 * 1.6 m figure, a slow weight shift). */
const PELVIS_SPEED = 0.15;

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Figures of one played idle loop. */
function figures(played, skeleton, result) {
  const bone = (n) => skeleton.bones.find((b) => b.name === n);
  const L = SIDES.reduce((s, side) => s + dist(bone(`${side}足`).position, bone(`${side}ひざ`).position) +
    dist(bone(`${side}ひざ`).position, bone(`${side}足首`).position), 0) / 2;
  const out = { L, below: 0, slide: 0, loopGap: 0, wrist: [0, 0], headTurn: 0, pelvisSpeed: 0 };
  const n = played.frames.length;
  for (const [k, side] of SIDES.entries()) {
    const ankle = `${side}足首`, ground = bone(ankle).position[1];
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let fi = 0; fi < n; fi++) {
      const a = played.at(fi, ankle);
      out.below = Math.max(out.below, ground - a[1]);
      if (fi > 0) out.slide = Math.max(out.slide, dist(a, played.at(fi - 1, ankle)));
      const w = played.at(fi, `${side}手首`);
      for (let c = 0; c < 3; c++) lo[c] = Math.min(lo[c], w[c]), hi[c] = Math.max(hi[c], w[c]);
    }
    out.wrist[k] = Math.max(...hi.map((h, c) => h - lo[c]));
  }
  for (const name of played.names) out.loopGap = Math.max(out.loopGap, dist(played.at(0, name), played.at(n - 1, name)));
  // the head's turn: the direction from 頭 to the eyes (両目, else the midpoint of 左目 and 右目)
  const eyes = played.names.includes('両目') ? (fi) => played.at(fi, '両目') : null;
  if (eyes) {
    const dir = (fi) => { const h = played.at(fi, '頭'), e = eyes(fi); return [e[0] - h[0], e[1] - h[1], e[2] - h[2]]; };
    const d0 = dir(0);
    for (let fi = 0; fi < n; fi++) {
      const d = dir(fi), c = (d[0] * d0[0] + d[1] * d0[1] + d[2] * d0[2]) / (Math.hypot(...d) * Math.hypot(...d0));
      out.headTurn = Math.max(out.headTurn, (Math.acos(Math.min(1, c)) * 180) / Math.PI);
    }
  }
  for (let fi = 1; fi < n; fi++) out.pelvisSpeed = Math.max(out.pelvisSpeed, 30 * dist(played.at(fi, '下半身'), played.at(fi - 1, '下半身')));
  out.hands = result.body ? Math.min(result.body.hands.left.clearance, result.body.hands.right.clearance) : null;
  return out;
}

test('the idle holds on every zoo model and fixture as babylon-mmd plays it', { skip: zooSkip(), timeout: 600_000 }, async (t) => {
  const models = everyModel(pm);
  const worst = { below: 0, slide: 0, loopGap: 0, wrist: Infinity, headTurn: Infinity, pelvis: 0, hands: Infinity };
  for (const m of models) {
    const bytes = m.bytes();
    const skeleton = pm.readPmx(bytes);
    const names = NAMES.concat(skeleton.bones.some((b) => b.name === '両目') ? ['両目'] : []);
    const player = await createPlayer(m);
    try {
      for (const [label, state, bpm] of [['defaults', {}, null], ['gestures at 128 BPM', { gestureFrequency: 1, seed: 7 }, 128]]) {
        const r = pm.generateIdleVmd(state, bpm, null, null, { skeleton: bytes });
        assert.ok(r.loopFrames >= 900, `${m.id}: a loop of ${r.loopFrames} frames (30 s at least)`);
        assert.deepEqual(r.missingBones, (m.expect?.absent ?? []).filter((b) => ['上半身2', '首', '両目', 'グルーブ'].includes(b) && b !== 'グルーブ'),
          `${m.id}: missing bones`);
        const played = await player.play(r.vmd, names, frameRange(r.loopFrames));
        const f = figures(played, skeleton, r);
        const where = `${m.id} (${label})`;
        assert.ok(f.below <= 0.005, `${where}: an ankle goes ${f.below.toFixed(4)} below the ground`);
        assert.ok(f.slide <= 0.003, `${where}: a planted ankle slides ${f.slide.toFixed(4)} in a frame`);
        assert.ok(f.loopGap <= 1e-3, `${where}: the loop's seam is ${f.loopGap.toExponential(2)}`);
        assert.ok(f.wrist[0] > 0.1 && f.wrist[1] > 0.1, `${where}: the wrists move ${f.wrist.map((w) => w.toFixed(3))}`);
        if (names.includes('両目')) assert.ok(f.headTurn > 5, `${where}: the head turns ${f.headTurn.toFixed(1)} degrees`);
        assert.ok(f.pelvisSpeed <= PELVIS_SPEED * f.L, `${where}: the pelvis moves ${f.pelvisSpeed.toFixed(3)} units/s (${(f.pelvisSpeed / f.L).toFixed(3)} L/s)`);
        assert.ok(f.hands > 0, `${where}: a hand comes ${f.hands.toFixed(3)} into the body`);
        assert.ok(r.report.maxError < 0.003 && r.body.loopGap < 1e-3, `${where}: the report ${JSON.stringify(r.report.maxError)}`);
        worst.below = Math.max(worst.below, f.below);
        worst.slide = Math.max(worst.slide, f.slide);
        worst.loopGap = Math.max(worst.loopGap, f.loopGap);
        worst.wrist = Math.min(worst.wrist, ...f.wrist);
        if (names.includes('両目')) worst.headTurn = Math.min(worst.headTurn, f.headTurn);
        worst.pelvis = Math.max(worst.pelvis, f.pelvisSpeed / f.L);
        worst.hands = Math.min(worst.hands, f.hands / (f.L / 9.419));
      }
    } finally {
      player.dispose();
    }
  }
  t.diagnostic(`${models.length} models x 2: ankles at most ${worst.below.toFixed(4)} below the ground, planted slide ${worst.slide.toFixed(4)}/frame, ` +
    `seam ${worst.loopGap.toExponential(1)}, wrists move >= ${worst.wrist.toFixed(2)}, head turns >= ${worst.headTurn.toFixed(1)} deg, ` +
    `pelvis <= ${worst.pelvis.toFixed(3)} L/s, hands >= ${worst.hands.toFixed(3)} (standard units) clear of the body`);
});

test('the idle: names only, the standard figure, a beat grid, bad parameters', () => {
  const standard = pm.generateIdleVmd({}, null, null, null);
  assert.equal(standard.blinkMorph, 'まばたき');
  assert.ok(standard.report.landed && standard.body.hands.left.clearance > 0);
  const names = pm.readPmx(pm.mannequinPmx()).bones.map((b) => b.name);
  const byName = pm.generateIdleVmd({}, null, [], names);
  assert.equal(byName.report, null, 'names only: nothing measured');
  assert.equal(byName.loopFrames, standard.loopFrames);
  // with a BPM every event starts on a beat (whole units of the beat) and the loop is whole bars
  const beat = pm.generateIdleVmd({ gestureFrequency: 1 }, 100, null, null);
  assert.equal(beat.unitFrames, 18);
  assert.equal(beat.loopFrames % (4 * 18), 0);
  for (const e of beat.events) assert.equal(e.start % 18, 0, `${e.kind} at ${e.start}`);
  // a grid's phase: the events move with its downbeat
  const shifted = pm.generateIdleVmd({ gestureFrequency: 1 }, { bpm: 100, offset: 0.2 }, null, null);
  for (const e of shifted.events) assert.equal((e.start - 6 + 18) % 18, 0, `${e.kind} at ${e.start}`);
  assert.throws(() => pm.generateIdleVmd({ bodySway: 2 }, null, null, null), { code: 'PM_ERR_INVALID_ARGUMENT', message: 'idle: bodySway must be a number in [0, 1], got 2' });
  assert.throws(() => pm.generateIdleVmd({ idle: { speed: Number.NaN } }, null, null, null), { message: 'idle: speed must be a finite number, got NaN' });
  assert.throws(() => pm.generateIdleVmd({}, 500, null, null), { message: /idle: bpm must be null, 0 or a number in \[40, 240\], got 500/ });
  // state as the host app keeps it: nested, prefixed or plain (nested wins)
  const a = pm.generateIdleVmd({ idle: { seed: 5 }, idleSeed: 6, seed: 7 }, null, null, null);
  const b = pm.generateIdleVmd({ seed: 5 }, null, null, null);
  assert.deepEqual(a.vmd, b.vmd);
  assert.equal(a.params.seed, 5);
});
