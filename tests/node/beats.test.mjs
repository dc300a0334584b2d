// Beat tracking through the npm package and the CLI: accuracy on a small subset of the generated test
// tracks (MIREX F-measure, tempo Acc1, meter; the full table is bench/rows/beats.mjs, docs/music.md),
// AudioBuffer and streaming input, the beat grid and tap tempo, WAV in and out, `procmotion beats` on
// WAV and (through ffmpeg) FLAC, and its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { TRACKS, TEST_SUBSET, renderTrack } from '../data/gen-beat-tracks.mjs';
import { evaluateTrack, fMeasure, tempoAccuracy } from '../data/beat-metrics.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'build/native/procmotion');
const pm = await createProcMotion({ load: FEATURE_MODULES });
const SECONDS = 20;
const tracks = new Map(TEST_SUBSET.map((id) => [id, renderTrack(TRACKS.find((t) => t.id === id), { seconds: SECONDS })]));
const tmp = mkdtempSync(join(tmpdir(), 'procmotion-beats-'));

test('the metrics: F-measure within 70 ms after 5 s, Acc1 within 4 %, Acc2 octaves', () => {
  const ref = Array.from({ length: 20 }, (_, i) => i * 0.5);
  assert.equal(fMeasure(ref, ref), 1);
  assert.equal(fMeasure(ref, ref.map((t) => t + 0.069)), 1);
  assert.equal(fMeasure(ref, ref.map((t) => t + 0.071)), 0);
  assert.ok(Math.abs(fMeasure(ref, ref.filter((_, i) => i % 2 === 0)) - 2 / 3) < 0.05, 'half the beats: F = 2/3');
  assert.deepEqual(tempoAccuracy(124, 120), { acc1: true, acc2: true });
  assert.deepEqual(tempoAccuracy(60, 120), { acc1: false, acc2: true });
  assert.deepEqual(tempoAccuracy(100, 120), { acc1: false, acc2: false });
});

for (const [id, t] of tracks) {
  test(`${id}: beats F >= 0.95${t.steady ? ', tempo within 4 %' : ''}, ${t.meter}/4 bars`, () => {
    const r = pm.detectBeats(t.samples, t.sampleRate, { channels: t.channels });
    const e = evaluateTrack(t, r);
    assert.ok(e.f >= 0.95, `F ${e.f.toFixed(3)}`);
    if (t.steady) assert.ok(e.acc1, `bpm ${r.bpm} for ${t.bpm}`);
    assert.equal(r.beatsPerBar, t.meter);
    assert.ok(e.downbeatF >= 0.9, `downbeat F ${e.downbeatF.toFixed(3)}`);
    assert.ok(e.timing.mean < 0.015, `mean timing error ${(e.timing.mean * 1000).toFixed(1)} ms`);
    assert.equal(r.steady, t.steady);
    if (!t.steady) {
      const first = r.tempoCurve[0].bpm, last = r.tempoCurve.at(-1).bpm;
      assert.ok(first < 100 && last > 120, `the tempo curve rises (${first.toFixed(1)} -> ${last.toFixed(1)})`);
    }
    assert.equal(r.onsetEnvelope.length, r.duration * r.onsetRate - 2);
    assert.ok(r.onsetEnvelope.every((v) => v >= 0 && v <= 1));
    assert.deepEqual(Array.from(r.downbeats), Array.from(r.beats).filter((_, i) => r.barPositions[i] === 1));
  });
}

test('an AudioBuffer, a tracker fed in pieces and a Float32Array give the same beats', () => {
  const t = tracks.get('house-124');
  const whole = pm.detectBeats(t.samples, t.sampleRate, { channels: 2 });
  const n = t.samples.length / 2, left = new Float32Array(n), right = new Float32Array(n);
  for (let i = 0; i < n; i++) left[i] = t.samples[2 * i], right[i] = t.samples[2 * i + 1];
  const buffer = { sampleRate: t.sampleRate, length: n, numberOfChannels: 2, getChannelData: (c) => (c ? right : left) };
  const progress = [];
  const fromBuffer = pm.detectBeats(buffer, { onProgress: (d, total) => progress.push([d, total]) });
  assert.ok(fMeasure(whole.beats, fromBuffer.beats) > 0.99, 'the AudioBuffer path (averaged in JS) agrees');
  assert.equal(progress.at(-1)[0], progress.at(-1)[1]);
  const tracker = pm.createBeatTracker(t.sampleRate, { channels: 2 });
  for (let i = 0; i < t.samples.length; i += 2 * 12345) tracker.push(t.samples.subarray(i, Math.min(t.samples.length, i + 2 * 12345)));
  const now = tracker.now();
  assert.ok(Math.abs(now.bpm - 124) < 3, `real time ${now.bpm} BPM`);
  assert.ok(now.nextBeat >= now.time && now.phase >= 0 && now.phase <= 1);
  const streamed = tracker.finish();
  tracker.dispose();
  assert.deepEqual(Array.from(streamed.beats), Array.from(whole.beats), 'pieces: bit for bit');
  assert.throws(() => tracker.push(new Float32Array(2)), /freed/);
  assert.equal(pm.heapInUse, 0, 'nothing left allocated in the module');
});

test('bad input throws ProcMotionError naming it', () => {
  assert.throws(() => pm.detectBeats(new Float32Array(100), 4000), /8000\.\.96000/);
  assert.throws(() => pm.detectBeats(new Float32Array([0, NaN, 0]), 44100), (e) => e instanceof ProcMotionError && /sample 1/.test(e.message));
  assert.throws(() => pm.detectBeats([0, 1], 44100), /Float32Array or an AudioBuffer/);
  assert.throws(() => pm.detectBeats(new Float32Array(3), 44100, { channels: 2 }), /whole frames/);
  assert.throws(() => pm.detectBeats(new Float32Array(3), 44100, { minBpm: -1 }), /minBpm/);
  assert.throws(() => pm.detectBeats(new Float32Array(3), 44100, { beatsPerBar: 1 }), /beats_per_bar/);
  const silence = pm.detectBeats(new Float32Array(44100 * 3), 44100);
  assert.equal(silence.beats.length, 0);
  assert.equal(silence.bpm, 0);
});

test('the beat grid: a BPM, { bpm, offset }, a detection; tap tempo gives the same type', () => {
  const plain = pm.beatGrid(128);
  assert.deepEqual(plain, { bpm: 128, offset: 0, beats: null, beatsPerBar: 4, firstDownbeat: 0 });
  const manual = pm.beatGrid({ bpm: 120, offset: 0.25 });
  assert.equal(pm.beatGridTime(manual, 4), 2.25);
  assert.deepEqual(Array.from(pm.beatGridBeat(manual, [0.25, 1.25])), [0, 2]);
  const r = pm.detectBeats(tracks.get('ramp-90-130').samples, 44100, { channels: 2 });
  const g = pm.beatGrid(r);
  assert.equal(g.beats.length, r.beats.length);
  assert.deepEqual(Array.from(pm.beatGridTime(g, [0, 5, 10])), [r.beats[0], r.beats[5], r.beats[10]]);
  const n = r.beats.length, lastGap = r.beats[n - 1] - r.beats[n - 2];
  assert.ok(Math.abs(pm.beatGridTime(g, n + 1) - (r.beats[n - 1] + 2 * lastGap)) < 1e-9, 'beyond the song: the last tempo');
  assert.ok(pm.beatGridBpmAt(g, 2) < pm.beatGridBpmAt(g, 18), 'the ramp');
  assert.equal(pm.beatGrid(null), null);
  assert.throws(() => pm.beatGrid({ bpm: NaN }), /bpm must be a number in \(0, 1000\]/);
  assert.throws(() => pm.beatGrid('fast'), /expected a BPM/);
  // tap tempo: median of the last taps, one sloppy tap moves nothing, a pause starts over
  const tap = pm.createTapTempo();
  assert.equal(tap.tap(1), null);
  assert.equal(tap.tap(1.5), null);
  assert.equal(tap.tap(2), null);
  assert.deepEqual(tap.tap(2.5), { bpm: 120, offset: 1, beats: null, beatsPerBar: 4, firstDownbeat: 0 });
  assert.equal(tap.tap(3.01).bpm, 120);
  assert.equal(tap.tap(6), null, 'a pause of more than 2 s starts over');
  assert.throws(() => pm.beatGridFromTaps([1]), /at least 2 taps/);
});

test('WAV: the core writes and reads every encoding; a bad file names its problem', () => {
  const x = new Float32Array([0, 0.5, -0.5, 0.25, -1, 0.75]);
  for (const encoding of ['pcm_u8', 'pcm_s16', 'pcm_s24', 'pcm_s32', 'float32', 'float64']) {
    const bytes = pm.writeWav(x, 22050, { channels: 2, encoding });
    const a = pm.readWav(bytes);
    assert.equal(a.sampleRate, 22050);
    assert.equal(a.channels, 2);
    assert.equal(a.frames, 3);
    assert.equal(a.encoding, encoding);
    const tol = encoding === 'pcm_u8' ? 1 / 128 : 1e-4;
    a.samples.forEach((v, i) => assert.ok(Math.abs(v - x[i]) <= tol, `${encoding} sample ${i}`));
  }
  assert.throws(() => pm.readWav(new Uint8Array(8)), /too short/);
  const bad = pm.writeWav(x, 8000);
  bad[20] = 0x55;
  assert.throws(() => pm.readWav(bad), /format tag 85 \(MP3\)/);
  assert.throws(() => pm.writeWav(x, 8000, { encoding: 'mp3' }), /encoding must be one of/);
});

test('procmotion beats: JSON for a WAV and, through ffmpeg, a FLAC; usage and file errors', () => {
  const t = tracks.get('rock-140');
  const wav = join(tmp, 'rock-140.wav');
  writeFileSync(wav, pm.writeWav(t.samples, t.sampleRate, { channels: t.channels }));
  const r = JSON.parse(execFileSync(CLI, ['beats', wav], { encoding: 'utf8' }));
  assert.ok(Math.abs(r.bpm - 140) < 1, `bpm ${r.bpm}`);
  assert.equal(r.sampleRate, t.sampleRate);
  assert.equal(r.beatsPerBar, 4);
  assert.ok(fMeasure(t.beats, r.beats) >= 0.95);
  assert.equal(r.onsetEnvelope, undefined);
  const withEnv = JSON.parse(execFileSync(CLI, ['beats', wav, '--envelope', '--meter', '3'], { encoding: 'utf8' }));
  assert.equal(withEnv.onsetEnvelope.length, Math.round(withEnv.duration * 100) - 2);
  assert.equal(withEnv.beatsPerBar, 3);
  const flac = join(tmp, 'rock-140.flac');
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', wav, flac]);
  const viaFfmpeg = JSON.parse(execFileSync(CLI, ['beats', flac], { encoding: 'utf8' }));
  assert.ok(Math.abs(viaFfmpeg.bpm - r.bpm) < 0.2, `flac ${viaFfmpeg.bpm} vs wav ${r.bpm}`);
  const noFfmpeg = spawnSync(CLI, ['beats', flac], { encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent' } });
  assert.equal(noFfmpeg.status, 1);
  assert.match(noFfmpeg.stderr, /needs the ffmpeg command: apt-get install ffmpeg/);
  assert.equal(noFfmpeg.stdout, '');
  const notWav = join(tmp, 'not.wav');
  writeFileSync(notWav, 'hello, this is not audio');
  const bad = spawnSync(CLI, ['beats', notWav], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /procmotion beats: .*not\.wav: wav: not a RIFF file/);
  assert.equal(spawnSync(CLI, ['beats'], { encoding: 'utf8' }).status, 2);
  assert.equal(spawnSync(CLI, ['beats', wav, '--min-bpm', 'fast'], { encoding: 'utf8' }).status, 2);
  assert.doesNotMatch(spawnSync(CLI, ['beats', wav], { encoding: 'utf8' }).stderr, /\[#/, 'no progress bar when stderr is not a terminal');
});
