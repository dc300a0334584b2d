// The beat tracker beside its peers on the generated test tracks (tests/data/gen-beat-tracks.mjs):
// MIREX F-measure (+-70 ms, beats before 5 s ignored), tempo Acc1 / Acc2, downbeat F, and the time of
// a 4-minute song. Peers run on the same WAV files in the same run: Debian's aubio (`aubio beat`,
// `aubio tempo`, aubio-tools). Two sets: the tuning set (the tracks the parameters were chosen on) and a
// held-out set (the same styles at 7 % faster tempi, other start times and noise seeds, never tuned on).
//   node bench/beats.mjs [--out docs/beats.md] [--quick]
// Not a test: it prints figures (and rewrites the table in docs/beats.md after '<!-- beats-table -->').
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createProcMotion } from '../js-glue/index.js';
import { TRACKS, renderTrack } from '../tests/data/gen-beat-tracks.mjs';
import { evaluateTrack, fMeasure, tempoAccuracy } from '../tests/data/beat-metrics.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(ROOT, 'docs/beats.md');
const QUICK = args.includes('--quick');
const DIR = join(tmpdir(), 'procmotion-beats-bench');
mkdirSync(DIR, { recursive: true });
const pm = await createProcMotion();
const haveAubio = spawnSync('aubio', ['--help'], { encoding: 'utf8' }).status === 0;

const scaleTempo = (t, k) => (typeof t === 'number' ? Math.round(t * k * 10) / 10
  : t.ramp ? { ramp: t.ramp.map((x) => x * k) } : { change: [t.change[0] * k, t.change[1] * k, t.change[2]] });
const heldOut = TRACKS.map((t) => ({ ...t, id: `${t.id}-h`, tempo: scaleTempo(t.tempo, 1.07), start: (t.start ?? 0.5) + 0.13, seed: 7 }))
  .filter((t) => typeof t.tempo !== 'number' || t.tempo <= 210);

function aubio(path) {
  const beats = execFileSync('aubio', ['beat', path], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  const tempo = Number(/([\d.]+) bpm/.exec(execFileSync('aubio', ['tempo', path], { encoding: 'utf8' }))?.[1] ?? 0);
  return { beats, bpm: tempo };
}

function runSet(name, specs) {
  const rows = [];
  for (const spec of QUICK ? specs.slice(0, 6) : specs) {
    const t = renderTrack(spec);
    const wav = join(DIR, `${spec.id}.wav`);
    if (!existsSync(wav)) writeFileSync(wav, pm.writeWav(t.samples, t.sampleRate, { channels: t.channels }));
    const t0 = performance.now();
    const ours = pm.detectBeats(t.samples, t.sampleRate, { channels: t.channels });
    const ms = performance.now() - t0;
    const e = evaluateTrack(t, ours);
    const row = { set: name, id: spec.id, steady: t.steady, bpm: t.bpm, ours: { ...e, bpm: ours.bpm, ms } };
    if (haveAubio) {
      const a = aubio(wav);
      row.aubio = { f: fMeasure(t.beats, a.beats), bpm: a.bpm, ...(t.bpm ? tempoAccuracy(a.bpm, t.bpm) : {}) };
    }
    rows.push(row);
    console.error(`beats: ${spec.id.padEnd(20)} ours F ${e.f.toFixed(3)} ${ours.bpm.toFixed(1)} BPM` +
      (row.aubio ? `   aubio F ${row.aubio.f.toFixed(3)} ${row.aubio.bpm.toFixed(1)} BPM` : ''));
  }
  return rows;
}

const all = [...runSet('tuning', TRACKS), ...runSet('held-out', heldOut)];

// a 4-minute song (stereo, 44.1 kHz): our wasm time, median of 5, and aubio's on the same file
const song = renderTrack(TRACKS.find((t) => t.id === 'rock-100'), { seconds: 240 });
const songWav = join(DIR, 'song-4min.wav');
writeFileSync(songWav, pm.writeWav(song.samples, 44100, { channels: 2 }));
const times = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  pm.detectBeats(song.samples, 44100, { channels: 2 });
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
let aubioMs = null;
if (haveAubio) {
  const t0 = performance.now();
  execFileSync('aubio', ['beat', songWav], { encoding: 'utf8', maxBuffer: 1 << 24 });
  aubioMs = performance.now() - t0;
}

// ---- the tables ---------------------------------------------------------------------------------
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const pct = (x) => `${(100 * x).toFixed(0)} %`;
const lines = [];
for (const set of ['tuning', 'held-out']) {
  const rows = all.filter((r) => r.set === set), steady = rows.filter((r) => r.steady);
  lines.push(`| ${set} (${rows.length} tracks) | mean F | Acc1 (steady) | Acc2 (steady) | downbeat F | meter |`);
  lines.push('|---|---:|---:|---:|---:|---:|');
  lines.push(`| procmotion (wasm) | ${mean(rows.map((r) => r.ours.f)).toFixed(3)} | ${pct(mean(steady.map((r) => +r.ours.acc1)))} | ${pct(mean(steady.map((r) => +r.ours.acc2)))} | ${mean(rows.map((r) => r.ours.downbeatF)).toFixed(3)} | ${rows.filter((r) => r.ours.meterOk).length}/${rows.length} |`);
  if (haveAubio) lines.push(`| aubio 0.4.9 (\`aubio beat\`, \`aubio tempo\`) | ${mean(rows.map((r) => r.aubio.f)).toFixed(3)} | ${pct(mean(steady.map((r) => +r.aubio.acc1)))} | ${pct(mean(steady.map((r) => +r.aubio.acc2)))} | - | - |`);
  lines.push('');
}
lines.push('| track | truth BPM | procmotion F | procmotion BPM | aubio F | aubio BPM |');
lines.push('|---|---:|---:|---:|---:|---:|');
for (const r of all) {
  lines.push(`| ${r.id} | ${r.bpm ?? 'varies'} | ${r.ours.f.toFixed(3)} | ${r.ours.bpm.toFixed(1)} | ${r.aubio ? r.aubio.f.toFixed(3) : '-'} | ${r.aubio ? r.aubio.bpm.toFixed(1) : '-'} |`);
}
lines.push('');
lines.push('| 4-minute song (stereo, 44.1 kHz) | time |');
lines.push('|---|---:|');
lines.push(`| procmotion wasm (Node ${process.version}, median of 5) | ${times[2].toFixed(0)} ms |`);
if (aubioMs !== null) lines.push(`| aubio beat (native, one run, includes reading the file and Python start-up) | ${aubioMs.toFixed(0)} ms |`);
const table = lines.join('\n');
console.log(table);
if (!QUICK && existsSync(OUT)) {
  const head = readFileSync(OUT, 'utf8').split('<!-- beats-table -->')[0];
  writeFileSync(OUT, `${head}<!-- beats-table -->\n_Written by \`node bench/beats.mjs\` on ${new Date().toISOString().slice(0, 10)}._\n\n${table}\n`);
  console.error(`beats: wrote ${OUT}`);
}
