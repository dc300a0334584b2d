// The dance through the npm package, babylon-mmd and the CLI: on every model of the "every model"
// iteration (the test zoo, the mannequin, the shared PMX fixtures) a loop in each style, played by
// babylon-mmd 1.3 (MmdRuntime, its own CCD IK), keeps its feet on the floor without sliding and its
// hands out of the body; its accents (the body's stops and the feet's contacts, bench/dance-beats.mjs)
// lock to the beats it was made for; a generated track's detection is danced from its first beat to
// its last on the track's true beats; names only, the state forms, bad parameters; and the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { beatLock, beatTimes, motionAccents } from '../../bench/dance-beats.mjs';
import { TRACKS, renderTrack } from '../data/gen-beat-tracks.mjs';
import { createPlayer, frameRange } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'build/native/procmotion');
const pm = await createProcMotion({ load: FEATURE_MODULES });
const mmt = new Uint8Array(readFileSync(new URL('../../../shared/fixtures/pmx/mmt_test_model.pmx', import.meta.url)));
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const STYLES = ['pop', 'hiphop', 'idol'];

/** Thigh + shin of a readPmx skeleton, both legs' mean. */
function skeletonL(skeleton) {
  const p = (n) => skeleton.bones.find((b) => b.name === n).position;
  return ['左', '右'].reduce((s, side) => s + dist(p(`${side}足`), p(`${side}ひざ`)) + dist(p(`${side}ひざ`), p(`${side}足首`)), 0) / 2;
}

test('a dance loop in each style holds on every zoo model and fixture as babylon-mmd plays it', { skip: zooSkip(), timeout: 900_000 }, async (t) => {
  const models = everyModel(pm);
  const worst = { below: 0, slide: 0, seam: 0, hands: Infinity, wrist: Infinity, gap: 0 };
  for (const [i, m] of models.entries()) {
    const bytes = m.bytes();
    const skeleton = pm.readPmx(bytes);
    const ground = Object.fromEntries(['左足首', '右足首'].map((n) => [n, skeleton.bones.find((b) => b.name === n).position[1]]));
    const player = await createPlayer(m);
    try {
      const style = STYLES[i % 3];
      const r = pm.generateAutoDanceVmd({ style, energy: 0.9, seed: 1 + i }, 124, null, null, { skeleton: bytes });
      const where = `${m.id} (${style})`;
      assert.ok(r.loopFrames >= 480 && r.report.landed, `${where}: ${r.loopFrames} frames, landed ${r.report.landed}`);
      const joints = ['左足首', '右足首', '左手首', '右手首'];
      const played = await player.play(r.vmd, joints, frameRange(r.loopFrames));
      const n = played.frames.length;
      // babylon-mmd against the MMD-exact evaluator the report was measured with
      const ev = pm.createPoseEvaluator(r.vmd, bytes);
      try {
        const count = ev.boneCount, pos = ev.positions(0, n), index = joints.map((j) => ev.boneNames.indexOf(j));
        for (let fi = 0; fi < n; fi++)
          for (const [k, j] of joints.entries()) {
            const b = index[k], e = [pos[(fi * count + b) * 3], pos[(fi * count + b) * 3 + 1], pos[(fi * count + b) * 3 + 2]];
            worst.gap = Math.max(worst.gap, dist(e, played.at(fi, j)));
          }
      } finally {
        ev.dispose();
      }
      for (const ankle of ['左足首', '右足首']) {
        for (let fi = 0; fi < n; fi++) worst.below = Math.max(worst.below, ground[ankle] - played.at(fi, ankle)[1]);
        worst.seam = Math.max(worst.seam, dist(played.at(0, ankle), played.at(n - 1, ankle)));
      }
      for (const wrist of ['左手首', '右手首']) {
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        for (let fi = 0; fi < n; fi++) played.at(fi, wrist).forEach((v, c) => { lo[c] = Math.min(lo[c], v); hi[c] = Math.max(hi[c], v); });
        worst.wrist = Math.min(worst.wrist, Math.max(...hi.map((h, c) => h - lo[c])) / skeletonL(skeleton));
      }
      worst.slide = Math.max(worst.slide, r.report.maxSlide);
      worst.hands = Math.min(worst.hands, r.body.hands.left.clearance, r.body.hands.right.clearance);
      assert.ok(worst.below <= 0.005, `${where}: an ankle ${worst.below.toFixed(4)} below the ground`);
      assert.ok(r.body.hands.left.clearance > 0 && r.body.hands.right.clearance > 0, `${where}: hands ${JSON.stringify(r.body.hands)}`);
      assert.ok(worst.seam <= 1e-3, `${where}: the loop's seam ${worst.seam}`);
      assert.ok(r.report.maxSlide <= 0.003 && worst.gap <= 1e-3, `${where}: slide ${r.report.maxSlide}, babylon-mmd ${worst.gap} from the evaluator`);
    } finally {
      player.dispose();
    }
  }
  assert.ok(worst.wrist > 0.2, `the wrists move ${worst.wrist} leg lengths`);
  t.diagnostic(`${models.length} models: ankles at most ${worst.below.toFixed(4)} below the ground, stance slide <= ${worst.slide.toFixed(4)} a frame, ` +
    `seam ${worst.seam.toExponential(1)}, babylon-mmd within ${worst.gap.toExponential(1)} of the evaluator, ` +
    `hands >= ${worst.hands.toFixed(3)} clear of the body, wrists move >= ${worst.wrist.toFixed(2)} L`);
});

test('the dance is on the beat: its stops and contacts lock to the tempo it was made for, not another', (t) => {
  for (const [name, model] of [['mannequin', null], ['mmt_test_model', mmt]]) {
    for (const style of STYLES) {
      const r = pm.generateAutoDanceVmd({ style }, 124, null, null, model ? { skeleton: model } : undefined);
      const m = motionAccents(pm, r.vmd, model, { loop: r.loopFrames });
      const own = beatLock(m.accents, beatTimes(124, 0, r.loopFrames / 30), { frames: r.loopFrames });
      const other = beatLock(m.accents, beatTimes(97, 0, r.loopFrames / 30), { frames: r.loopFrames });
      const msg = `${name} ${style}: at 124 BPM ${JSON.stringify(own)}, at 97 ${JSON.stringify(other)}`;
      t.diagnostic(msg);
      assert.ok(own.R >= 0.8 && own.coverage >= 0.8, msg);
      assert.ok(other.R < 0.5, msg);
    }
  }
});

test('a song: the detection danced from its first beat to its last, on the track\'s true beats', (t) => {
  const track = renderTrack(TRACKS.find((x) => x.id === 'ramp-90-130'), { seconds: 60 });
  const beats = pm.detectBeats(track.samples, track.sampleRate, { channels: track.channels });
  const r = pm.generateAutoDanceVmd({}, beats, null, null, { skeleton: mmt });
  assert.equal(r.loopFrames, 0);
  assert.ok(r.frames >= 30 * beats.beats.at(-1), `${r.frames} frames for beats to ${beats.beats.at(-1)} s`);
  assert.ok(r.phrases.length >= 6 && r.longestRepeat <= 2, JSON.stringify(r.phrases.map((p) => p.id)));
  const m = motionAccents(pm, r.vmd, mmt, { frames: r.frames });
  const first = Math.round(30 * track.beats[0]), last = Math.round(30 * track.beats.at(-1));
  const lock = beatLock(m.accents.filter((f) => f >= first && f <= last), Array.from(track.beats), { from: first, frames: last });
  t.diagnostic(`against the track's true beats: ${JSON.stringify(lock)}`);
  assert.ok(lock.R >= 0.8 && lock.coverage >= 0.8, JSON.stringify(lock));
  assert.ok(r.report.maxSlide <= 0.003 && r.report.penetration <= 0.005, JSON.stringify(r.report).slice(0, 200));
  assert.ok(r.sync.measured === 'played' && r.sync.count > 50 && r.sync.maxErrorFrames <= 2.5, JSON.stringify(r.sync));
  assert.equal(r.plan.ankles.length, 6 * (r.frames + 1));
  assert.equal(r.plan.contact.length, 2 * (r.frames + 1));
  assert.equal(r.plan.beats.length, r.beatCount + 1);
  // the groove rides on top, on the same beats, the feet still where the dance put them
  const grooved = pm.bakeGroove(r.vmd, mmt, {}, beats);
  assert.ok(grooved.report.maxFootError < 0.01 && grooved.report.sync.maxErrorFrames <= 0.5, JSON.stringify(grooved.report).slice(0, 300));
});

test('the dance: names only, the state forms, a seed, bad parameters', () => {
  const names = pm.readPmx(pm.mannequinPmx()).bones.map((b) => b.name);
  const byName = pm.generateAutoDanceVmd({}, null, [], names);
  assert.equal(byName.report, null, 'names only: nothing measured');
  assert.equal(byName.sync, null);
  assert.equal(byName.bpm, 120);
  const a = pm.generateAutoDanceVmd({ dance: { style: 'idol' }, style: 'pop' }, 120);
  const b = pm.generateAutoDanceVmd({ danceStyle: 'idol' }, 120);
  const c = pm.generateAutoDanceVmd({ style: 'idol' }, 120);
  assert.deepEqual(a.vmd, b.vmd);
  assert.deepEqual(b.vmd, c.vmd);
  assert.equal(a.params.style, 'idol');
  assert.notDeepEqual(pm.generateAutoDanceVmd({ seed: 2 }, 120).vmd, pm.generateAutoDanceVmd({ seed: 3 }, 120).vmd);
  assert.deepEqual(pm.generateAutoDanceVmd({ seed: 2 }, 120).vmd, pm.generateAutoDanceVmd({ seed: 2 }, 120).vmd);
  assert.throws(() => pm.generateAutoDanceVmd({ style: 'salsa' }, 120), { code: 'PM_ERR_INVALID_ARGUMENT', message: 'dance: style must be "pop", "hiphop" or "idol", got "salsa"' });
  assert.throws(() => pm.generateAutoDanceVmd({ energy: 2 }, 120), { message: 'dance: energy must be a number in [0, 1], got 2' });
  assert.throws(() => pm.generateAutoDanceVmd({ duration: 4 }, 120), { message: 'dance: duration of a loop must be in [8, 120] seconds, got 4' });
});

test('procmotion dance: a song file or a tempo, a VMD and its summary', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'procmotion-dance-'));
  const track = renderTrack(TRACKS.find((x) => x.id === 'house-124'), { seconds: 24 });
  const wav = join(tmp, 'song.wav');
  writeFileSync(wav, pm.writeWav(track.samples, track.sampleRate, { channels: track.channels }));
  const run = (...args) => spawnSync(CLI, ['dance', ...args], { encoding: 'utf8' });
  const song = run('--beats', wav, '--style', 'hiphop', '--seed', '4', '-o', join(tmp, 'song.vmd'));
  assert.equal(song.status, 0, song.stderr);
  const s = JSON.parse(song.stdout);
  assert.ok(s.loopFrames === 0 && s.frames >= 30 * 23 && s.report.landed && s.params.style === 'hiphop', song.stdout.slice(0, 300));
  assert.ok(pm.readVmd(readFileSync(join(tmp, 'song.vmd'))).bones.count > 100);
  const loop = run('--bpm', '100', '--energy', '0.9', '-o', join(tmp, 'loop.vmd'));
  assert.equal(loop.status, 0, loop.stderr);
  assert.equal(JSON.parse(loop.stdout).loopFrames, 576);
  const bad = run('--bpm', '100', '--style', 'salsa', '-o', join(tmp, 'x.vmd'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--style must be pop, hiphop or idol, got 'salsa'/);
});

test('createDanceAnimationAsync: the dance loads into babylon-mmd and plays as the evaluator says', { skip: zooSkip(), timeout: 120_000 }, async () => {
  const { createMmdScene, disposeMmdScene, loadBabylonMmd, boneIndex } = await import('./support/babylon.mjs');
  const { createDanceAnimationAsync } = await import('../../js-glue/babylon.js');
  const bytes = pm.mannequinPmx();
  const ctx = await createMmdScene(bytes);
  try {
    const { VmdLoader } = await loadBabylonMmd();
    const { animation, result, loopFrames } = await createDanceAnimationAsync(pm, ctx.model, { style: 'idol' }, 120, { VmdLoader, modelBytes: bytes });
    assert.equal(loopFrames, result.loopFrames);
    ctx.model.setRuntimeAnimation(ctx.model.createRuntimeAnimation(animation));
    await ctx.runtime.playAnimation();
    const wrist = boneIndex(ctx, '左手首');
    const ev = pm.createPoseEvaluator(result.vmd, bytes);
    try {
      const b = ev.boneNames.indexOf('左手首');
      let worst = 0;
      for (let tick = 1; tick <= 60; tick++) {
        ctx.runtime.beforePhysics(1000 / 30);
        ctx.runtime.afterPhysics();
        const w = ctx.model.worldTransformMatrices, f = Math.round(ctx.runtime.currentFrameTime);
        const e = ev.evaluate(f).positions;
        worst = Math.max(worst, dist([w[16 * wrist + 12], w[16 * wrist + 13], w[16 * wrist + 14]], [e[3 * b], e[3 * b + 1], e[3 * b + 2]]));
      }
      assert.ok(worst < 1e-3, `the left wrist ${worst} from the evaluator`);
    } finally {
      ev.dispose();
    }
  } finally {
    disposeMmdScene(ctx);
  }
});
