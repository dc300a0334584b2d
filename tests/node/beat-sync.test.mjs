// Motion on the music's beats through the npm package and the CLI: the catwalk,
// the groove (bake and runtime layer) and the tracing bake take a beat grid where they take a BPM (a
// number, { bpm, offset }, a detectBeats result), their heel strikes / bounce valleys / keyframes land
// within half a frame of the grid's beats as measured on what they wrote, on every model (zoo, the
// mannequin, the fixtures) and on a generated track whose true beats are known; bad grids throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { TRACKS, renderTrack } from '../data/gen-beat-tracks.mjs';
import { everyModel } from './support/zoo.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'build/native/procmotion');
const pm = await createProcMotion({ load: ['motion', 'beats'] });
const tmp = mkdtempSync(join(tmpdir(), 'procmotion-sync-'));

/** A listed grid: 100 BPM for 16 beats, then 140, from 0.35 s (a tempo change and an offset). */
function changeGrid() {
  const beats = [];
  let t = 0.35;
  for (let i = 0; i < 40; i++) beats.push(t), (t += 60 / (i < 16 ? 100 : 140));
  return { bpm: 120, beats: Float64Array.from(beats), beatsPerBar: 4, firstDownbeat: 0 };
}

test('catwalk on a tempo change: every model, every strike within half a frame of its beat as played', () => {
  const grid = changeGrid();
  const models = everyModel(pm);
  assert.ok(models.length >= 3);
  for (const m of models) {
    const r = pm.generateCatwalkVmd({}, grid, null, null, { skeleton: m.bytes() });
    assert.equal(r.looping, false, m.id);
    assert.equal(r.sync.measured, 'played', m.id);
    assert.ok(r.sync.count >= 20 && r.sync.maxErrorFrames <= 0.5, `${m.id}: ${JSON.stringify(r.sync)}`);
    assert.equal(r.plan.strikes.length, r.sync.count);
    for (const s of r.plan.strikes) assert.ok(Math.abs(s.frame - s.beatFrame) <= 0.5 + 1e-6, `${m.id}: ${JSON.stringify(s)}`);
    assert.ok(r.loopFrames >= 30 * grid.beats.at(-1) - 0.5, `${m.id}: ${r.loopFrames} frames`);
    assert.ok(r.report.maxError < 0.01 && r.report.stanceGap < 0.01, `${m.id}: report ${JSON.stringify(r.report).slice(0, 120)}`);
  }
});

test('catwalk on { bpm, offset } (tap tempo, a manual offset) stays a loop shifted to the phase', () => {
  const tap = pm.beatGridFromTaps([10.25, 10.72, 11.19, 11.66, 12.13]);
  for (const grid of [{ bpm: 128, offset: 0.25 }, tap]) {
    const r = pm.generateCatwalkVmd({}, grid);
    assert.equal(r.looping, true);
    assert.ok(r.sync.maxErrorFrames <= 0.5, JSON.stringify(r.sync));
    const step = r.stepFrames;
    for (const s of r.plan.strikes) {
      const k = Math.round((s.frame / 30 - pm.beatGridTime(grid, 0)) / (step / 30));
      assert.ok(Math.abs(s.beatFrame - 30 * pm.beatGridTime(grid, r.firstStrikeBeat) - (s.beat - r.firstStrikeBeat) / r.beatsPerStep * step) < 1e-3);
      assert.ok(Number.isInteger(k));
    }
  }
  // a number is the plain BPM as before (no grid object): same motion as { bpm, offset: 0 }
  const a = pm.generateCatwalkVmd({}, 128), b = pm.generateCatwalkVmd({}, { bpm: 128, offset: 0 });
  assert.deepEqual(a.vmd, b.vmd);
});

test('a generated track: detectBeats -> catwalk, heel strikes on the track\'s true beats', () => {
  const t = renderTrack(TRACKS.find((x) => x.id === 'house-124'), { seconds: 16 });
  const beats = pm.detectBeats(t.samples, t.sampleRate, { channels: t.channels });
  const r = pm.generateCatwalkVmd({ stepCadence: 'beat' }, beats);
  assert.ok(r.sync.maxErrorFrames <= 0.5);
  // each strike against the nearest true beat: the detection's error (MIREX window 70 ms) plus half a frame
  let worst = 0;
  for (const s of r.plan.strikes) {
    const sec = s.frame / 30;
    if (sec < t.beats[0] || sec > t.beats.at(-1)) continue;
    const d = Math.min(...Array.from(t.beats, (b) => Math.abs(b - sec)));
    worst = Math.max(worst, d);
  }
  assert.ok(worst <= 0.07 + 0.5 / 30, `a strike ${(worst * 1000).toFixed(1)} ms from the track's beat`);
});

test('groove bake and runtime layer on a grid: valleys on the beats, feet planted', () => {
  const grid = changeGrid();
  for (const m of everyModel(pm, { zoo: false })) {
    const { report } = pm.bakeGroove(null, m.bytes(), {}, grid);
    assert.ok(report.sync && report.sync.maxErrorFrames <= 0.5, `${m.id}: ${JSON.stringify(report.sync)}`);
    assert.ok(report.sync.count >= 35);
    assert.ok(report.maxFootError < 0.01, `${m.id}: feet ${report.maxFootError}`);
    assert.equal(report.frames, Math.ceil(30 * grid.beats.at(-1) - 1e-9));
  }
  const g = pm.createGroove({}, pm.mannequinPmx());
  try {
    for (let b = 0; b < 39; b++) {
      const low = g.offsets(null, grid.beats[b], grid, { offsetsOnly: true });
      assert.ok(Math.abs(low.beat - b) < 1e-4, `beat ${low.beat} at beat ${b}`);
      const y = low.bodyOffset[1];
      const mid = g.offsets(null, 0.5 * (grid.beats[b] + grid.beats[b + 1]), grid, { offsetsOnly: true });
      assert.ok(mid.bodyOffset[1] > y + 0.3);
    }
    assert.ok(Math.abs(g.offsets(null, 1, 120).beat - 2) < 1e-6, 'a number is a plain BPM again');
  } finally {
    g.dispose();
  }
});

test('tracing bake on a grid: keyframe beats on the grid\'s beats', () => {
  const tl = pm.createTimeline(pm.mannequinPmx());
  try {
    tl.setTrajectory('rightHand', { mode: 'curve', points: [[-2, -4, -2], [-3, -2, -3], [-1, -1, -4]] });
    tl.generateKeyframes('rightHand', { count: 6, startBeat: 1, beatStep: 2 });
    const grid = changeGrid();
    const { vmd, report, plan } = tl.bake(grid);
    assert.ok(report.sync && report.sync.count === 6 && report.sync.maxErrorFrames <= 0.5, JSON.stringify(report.sync));
    assert.equal(plan.frames, Math.round(30 * pm.beatGridTime(grid, 11)));
    assert.ok(report.maxError < 0.01);
    const frames = new Set(pm.readVmd(tl.bake(grid).vmd).bones.frames);
    for (let k = 0; k < 6; k++) assert.ok(frames.has(Math.round(30 * pm.beatGridTime(grid, 1 + 2 * k))), `keyframe ${k}`);
    assert.ok(vmd.length > 0);
    assert.equal(tl.bake(120).report.sync, null, 'a number: no grid');
  } finally {
    tl.dispose();
  }
});

test('bad grids throw ProcMotionError naming the problem', () => {
  const cases = [
    [{ bpm: NaN, offset: 0 }, /bpm/],
    [{ bpm: -5, offset: 0 }, /bpm/],
    [{ bpm: 120, offset: Infinity }, /offset/],
    [{ bpm: 120, beats: [0.5, 1, 0.9, 2] }, /beat 2/],
  ];
  for (const [grid, re] of cases) {
    assert.throws(() => pm.generateCatwalkVmd({}, grid), (e) => e instanceof ProcMotionError && re.test(e.message), JSON.stringify(grid));
    assert.throws(() => pm.bakeGroove(null, pm.mannequinPmx(), {}, grid), (e) => e instanceof ProcMotionError && re.test(e.message));
  }
  const huge = { bpm: 120, beats: Float64Array.from({ length: 100000 }, (_, i) => 0.5 * i) };
  assert.throws(() => pm.generateCatwalkVmd({}, huge), (e) => e instanceof ProcMotionError && /frames/.test(e.message));
});

test('a beat grid needs no beats module: the catwalk on the core alone takes a plain and a listed grid', async () => {
  const core = await createProcMotion();
  assert.deepEqual(core.modules, ['core']);
  // a walk on bone names (babylon-mmd's getModelInfo): the core alone (a walk that lands needs motion)
  const names = ['センター', 'グルーブ', '下半身', '上半身', '首', '頭', '左腕', '右腕', '左足ＩＫ', '右足ＩＫ'];
  const plain = core.generateCatwalkVmd({}, { bpm: 124, offset: 0.2 }, null, names);
  const listed = core.generateCatwalkVmd({}, changeGrid(), null, names);
  assert.deepEqual(core.modules, ['core']);
  for (const r of [plain, listed]) assert.ok(r.sync.count >= 8 && r.sync.maxErrorFrames <= 0.5, JSON.stringify(r.sync));
  assert.equal(plain.looping, true);
  assert.equal(listed.looping, false);
  // the same walk as with the beats module loaded, and a bad grid is the core's error
  assert.deepEqual(listed.vmd, pm.generateCatwalkVmd({}, changeGrid(), null, names).vmd);
  assert.throws(() => core.generateCatwalkVmd({}, { bpm: NaN, offset: 0 }, null, names), (e) => e instanceof ProcMotionError && /bpm/.test(e.message));
});

test('CLI: catwalk, groove and trace take --beats (procmotion beats output) and --offset', () => {
  const t = renderTrack(TRACKS.find((x) => x.id === 'rock-140'), { seconds: 12 });
  const wav = join(tmp, 'rock.wav'), beatsJson = join(tmp, 'beats.json');
  writeFileSync(wav, pm.writeWav(t.samples, t.sampleRate, { channels: t.channels }));
  const run = (args) => spawnSync(CLI, args, { encoding: 'utf8' });
  const b = run(['beats', wav, '-o', beatsJson]);
  assert.equal(b.status, 0, b.stderr);
  const cw = run(['catwalk', '--beats', beatsJson, '-o', join(tmp, 'walk.vmd')]);
  assert.equal(cw.status, 0, cw.stderr);
  const s = JSON.parse(cw.stdout);
  assert.equal(s.looping, false);
  assert.ok(s.sync.maxErrorFrames <= 0.5 && s.sync.count > 10, JSON.stringify(s.sync).slice(0, 200));
  const off = JSON.parse(run(['catwalk', '--bpm', '128', '--offset', '0.3', '-o', join(tmp, 'w2.vmd')]).stdout);
  assert.ok(off.looping && off.sync.maxErrorFrames <= 0.5 && off.sync.strikes[0].beatFrame >= 9 - 1e-6);
  const model = join(tmp, 'm.pmx');
  writeFileSync(model, pm.mannequinPmx());
  const gr = run(['groove', '--model', model, '--beats', beatsJson, '-o', join(tmp, 'g.vmd')]);
  assert.equal(gr.status, 0, gr.stderr);
  assert.ok(JSON.parse(gr.stdout).sync.maxErrorFrames <= 0.5);
  const tlPath = join(tmp, 'tl.json');
  const tl = pm.createTimeline(pm.mannequinPmx());
  tl.setTrajectory('leftHand', { mode: 'line', points: [[2, -4, -2], [3, -2, -3]] });
  tl.generateKeyframes('leftHand', { count: 4, startBeat: 0, beatStep: 2 });
  writeFileSync(tlPath, JSON.stringify(tl));
  tl.dispose();
  const tr = run(['trace', tlPath, '--beats', beatsJson, '-o', join(tmp, 't.vmd')]);
  assert.equal(tr.status, 0, tr.stderr);
  assert.equal(JSON.parse(tr.stdout).sync.count, 4);
  // errors: a bad file, --offset without a tempo
  writeFileSync(join(tmp, 'bad.json'), JSON.stringify({ beats: [1, 0.5, 2] }));
  const bad = run(['catwalk', '--beats', join(tmp, 'bad.json'), '-o', join(tmp, 'x.vmd')]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /beat 1/);
  assert.match(run(['catwalk', '--offset', '1', '-o', join(tmp, 'x.vmd')]).stderr, /--offset needs --bpm/);
  assert.ok(readFileSync(join(tmp, 'walk.vmd')).length > 1000);
});
