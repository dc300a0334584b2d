// The beat tracker beside its peers on the generated test tracks (tests/data/gen-beat-tracks.mjs):
// MIREX F-measure (+-70 ms, beats before 5 s ignored), tempo Acc1 / Acc2, downbeat F, analysis time, and
// the time of a 4-minute song. The peers (bench/beat-peers.mjs) run on the same WAV files in the same
// run: Debian's aubio, and the npm packages web-audio-beat-detector (in Chromium), music-tempo and
// essentia.js (Node; AGPL, a devDependency of the benchmark only). Two sets: the tuning set (the tracks
// the parameters were chosen on) and a held-out set (the same styles at 7 % faster tempi, other start
// times and noise seeds, never tuned on). Then freely licensed music Debian ships (asc-music, GPL-2+;
// bench.sh installs it): no ground truth there, so the table gives each tool's tempo and how many
// peers agree with ours. With $PM_ANNOTATED_MUSIC, real recordings with human beat annotations from that
// directory (annotatedSongs below) are measured like the generated tracks.
//   node bench/beats.mjs [--quick] [--no-write]
// Not a test: it prints figures and (without --quick or --no-write) rewrites the tables in docs/benchmarks.md (between
// '<!-- beats-table -->' and '<!-- /beats-table -->').
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../js-glue/index.js';
import { TRACKS, renderTrack } from '../tests/data/gen-beat-tracks.mjs';
import { evaluateTrack, fMeasure, tempoAccuracy } from '../tests/data/beat-metrics.mjs';
import { mono44k, startPeers } from './beat-peers.mjs';
import { annotatedSongs, debianMusic } from './songs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const WRITE = !QUICK && !args.includes('--no-write');
const DIR = join(tmpdir(), 'procmotion-beats-bench');
mkdirSync(DIR, { recursive: true });
const pm = await createProcMotion({ load: FEATURE_MODULES });
const { peers, skipped, close } = await startPeers(DIR);
for (const s of skipped) console.error(`beats: SKIP peer ${s}`);


const scaleTempo = (t, k) => (typeof t === 'number' ? Math.round(t * k * 10) / 10
  : t.ramp ? { ramp: t.ramp.map((x) => x * k) } : { change: [t.change[0] * k, t.change[1] * k, t.change[2]] });
const heldOut = TRACKS.map((t) => ({ ...t, id: `${t.id}-h`, tempo: scaleTempo(t.tempo, 1.07), start: (t.start ?? 0.5) + 0.13, seed: 7 }))
  .filter((t) => typeof t.tempo !== 'number' || t.tempo <= 210);

/** Every peer on one file: { [peer id]: { f, bpm, acc1, acc2, ms } } (f and acc against `truth` when given). */
async function runPeers(path, sampleRate, truth) {
  const out = {};
  let mono = null;
  const o = { sampleRate, mono: () => (mono ??= mono44k(path)) };
  for (const p of peers) {
    try {
      const r = await p.run(path, o);
      out[p.id] = { bpm: r.bpm, beats: r.beats, ms: r.ms, ...(truth ? { f: fMeasure(truth.beats, r.beats), ...(truth.bpm ? tempoAccuracy(r.bpm, truth.bpm) : {}) } : {}) };
    } catch (e) {
      console.error(`beats: ${p.id} failed on ${basename(path)}: ${String(e.message ?? e).split('\n')[0]}`);
      out[p.id] = { bpm: 0, beats: [], ms: NaN, f: 0, acc1: false, acc2: false, failed: true };
    }
  }
  return out;
}

async function runSet(name, specs) {
  const rows = [];
  for (const spec of QUICK ? specs.slice(0, 6) : specs) {
    const t = renderTrack(spec);
    const wav = join(DIR, `${spec.id}.wav`);
    if (!existsSync(wav)) writeFileSync(wav, pm.writeWav(t.samples, t.sampleRate, { channels: t.channels }));
    const t0 = performance.now();
    const ours = pm.detectBeats(t.samples, t.sampleRate, { channels: t.channels });
    const ms = performance.now() - t0;
    const e = evaluateTrack(t, ours);
    const row = { set: name, id: spec.id, steady: t.steady, bpm: t.bpm, ours: { ...e, bpm: ours.bpm, ms }, peers: await runPeers(wav, t.sampleRate, t) };
    rows.push(row);
    console.error(`beats: ${spec.id.padEnd(20)} ours F ${e.f.toFixed(3)} ${ours.bpm.toFixed(1)} BPM` +
      peers.map((p) => `   ${p.id} F ${row.peers[p.id].f.toFixed(3)} ${Number(row.peers[p.id].bpm).toFixed(1)}`).join(''));
  }
  return rows;
}

async function runAnnotated(songs) {
  const rows = [];
  for (const song of songs) {
    const audio = pm.readWav(readFileSync(song.wav));
    const t0 = performance.now();
    const ours = pm.detectBeats(audio.samples, audio.sampleRate, { channels: audio.channels });
    const ms = performance.now() - t0;
    const e = evaluateTrack(song, ours);
    const row = { set: 'annotated', id: song.id, steady: true, bpm: Math.round(song.bpm * 10) / 10, ours: { ...e, bpm: ours.bpm, ms },
                  peers: await runPeers(song.wav, audio.sampleRate, song) };
    rows.push(row);
    console.error(`beats: ${song.id.padEnd(20)} ours F ${e.f.toFixed(3)} ${ours.bpm.toFixed(1)} BPM (annotated ${song.bpm.toFixed(1)})` +
      peers.map((p) => `   ${p.id} F ${row.peers[p.id].f.toFixed(3)} ${Number(row.peers[p.id].bpm).toFixed(1)}`).join(''));
  }
  return rows;
}

const all = [...await runSet('tuning', TRACKS), ...await runSet('held-out', heldOut),
             ...await runAnnotated(annotatedSongs(process.env.PM_ANNOTATED_MUSIC, DIR))];

// a 4-minute song (stereo, 44.1 kHz): our wasm time, median of 5, and each peer's on the same file (one run)
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
const songPeers = await runPeers(songWav, 44100, null);

// freely licensed music Debian ships (no ground truth): each tool's tempo, and which peers agree with ours
const debianSongs = [];
const { songs: debianFiles, skips: debianSkips } = debianMusic(DIR, QUICK ? 1 : 3);
for (const { pkg, licence, file, wav } of debianFiles) {
  {
    const m = { pkg, licence };
    const audio = pm.readWav(readFileSync(wav));
    const t0 = performance.now();
    const ours = pm.detectBeats(audio.samples, audio.sampleRate, { channels: audio.channels });
    const ms = performance.now() - t0;
    const others = await runPeers(wav, audio.sampleRate, null);
    debianSongs.push({ pkg: m.pkg, licence: m.licence, file, seconds: audio.frames / audio.sampleRate, ours: { bpm: ours.bpm, beats: ours.beats, ms }, peers: others });
    console.error(`beats: ${m.pkg}/${file}: ours ${ours.bpm.toFixed(1)} BPM` + peers.map((p) => `   ${p.id} ${Number(others[p.id].bpm).toFixed(1)}`).join(''));
  }
}
for (const s of debianSkips) console.error(`beats: SKIP Debian music: ${s}`);
await close();

// ---- the tables ---------------------------------------------------------------------------------
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const pct = (x) => `${(100 * x).toFixed(0)} %`;
const secs = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '-');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const bpm1 = (x) => (Number(x) > 0 ? Number(x).toFixed(1) : '-');
const summary = [];
for (const set of ['tuning', 'held-out', 'annotated']) {
  const rows = all.filter((r) => r.set === set), steady = rows.filter((r) => r.steady);
  if (!rows.length) continue;
  const total = (xs) => xs.filter(Number.isFinite).reduce((a, b) => a + b, 0);
  summary.push(`| ${set} (${rows.length} tracks) | mean F | Acc1 (steady) | Acc2 (steady) | downbeat F | meter | no result | time (all tracks) |`);
  summary.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  summary.push(`| procmotion (wasm) | ${f3(mean(rows.map((r) => r.ours.f)))} | ${pct(mean(steady.map((r) => +r.ours.acc1)))} | ${pct(mean(steady.map((r) => +r.ours.acc2)))} | ${f3(mean(rows.map((r) => r.ours.downbeatF)))} | ${rows.filter((r) => r.ours.meterOk).length}/${rows.length} | ${rows.filter((r) => !(r.ours.bpm > 0)).length} | ${secs(total(rows.map((r) => r.ours.ms)))} |`);
  for (const p of peers) {
    const v = (r) => r.peers[p.id];
    summary.push(`| ${p.label} | ${f3(mean(rows.map((r) => v(r).f)))} | ${pct(mean(steady.map((r) => +!!v(r).acc1)))} | ${pct(mean(steady.map((r) => +!!v(r).acc2)))} | - | - | ${rows.filter((r) => v(r).failed || !(v(r).bpm > 0)).length} | ${secs(total(rows.map((r) => v(r).ms)))} |`);
  }
  summary.push('');
}
summary.push('| 4-minute song (stereo, 44.1 kHz) | time |');
summary.push('|---|---:|');
summary.push(`| procmotion wasm (Node ${process.version}, median of 5) | ${times[2].toFixed(0)} ms |`);
const timeNotes = { aubio: 'native, one run, includes reading the file and Python start-up', wabd: 'one run, after decodeAudioData', mt: 'one run, on mono 44.1 kHz', es: 'one run, on mono 44.1 kHz' };
for (const p of peers) summary.push(`| ${p.label} (${timeNotes[p.id]}) | ${Number.isFinite(songPeers[p.id].ms) ? `${songPeers[p.id].ms.toFixed(0)} ms` : 'failed'} |`);
summary.push('');

const perTrack = [];
perTrack.push(`| track | truth BPM | procmotion F | BPM | ${peers.map((p) => `${p.id} F | BPM`).join(' | ')} |`);
perTrack.push(`|---|---:|---:|---:|${peers.map(() => '---:|---:|').join('')}`);
for (const r of all) {
  perTrack.push(`| ${r.id} | ${r.bpm ?? 'varies'} | ${f3(r.ours.f)} | ${bpm1(r.ours.bpm)} | ${peers.map((p) => `${f3(r.peers[p.id].f)} | ${bpm1(r.peers[p.id].bpm)}`).join(' | ')} |`);
}
perTrack.push('');
perTrack.push(`Peer ids: ${peers.map((p) => `${p.id} = ${p.label}`).join('; ')}.`);

const debian = [];
if (debianSongs.length) {
  const agree = (a, b, octave) => a > 0 && b > 0 && (octave ? tempoAccuracy(a, b).acc2 : tempoAccuracy(a, b).acc1);
  debian.push(`| Debian music (no ground truth) | length | procmotion BPM | ${peers.map((p) => `${p.id} BPM`).join(' | ')} | peers within 4 % of ours | within 4 % up to octaves | beats F of each peer against ours |`);
  debian.push(`|---|---:|---:|${peers.map(() => '---:|').join('')}---:|---:|---|`);
  for (const d of debianSongs) {
    const near = peers.filter((p) => agree(d.peers[p.id].bpm, d.ours.bpm, false)).length;
    const oct = peers.filter((p) => agree(d.peers[p.id].bpm, d.ours.bpm, true)).length;
    const fs = peers.map((p) => `${p.id} ${f3(fMeasure(d.ours.beats, d.peers[p.id].beats))}`).join(', ');
    debian.push(`| ${d.pkg}: ${d.file} (${d.licence}) | ${d.seconds.toFixed(0)} s | ${bpm1(d.ours.bpm)} | ${peers.map((p) => bpm1(d.peers[p.id].bpm)).join(' | ')} | ${near}/${peers.length} | ${oct}/${peers.length} | ${fs} |`);
  }
  debian.push('');
} else {
  debian.push(`Debian music: not measured in this run (${debianSkips.join('; ')}).`, '');
}
const skippedNote = skipped.length ? `Peers skipped in this run: ${skipped.join('; ')}.\n\n` : '';
const stamp = `_Written by \`node bench/beats.mjs\` on ${new Date().toISOString().slice(0, 10)}._`;
const table = [summary.join('\n'), debian.join('\n'), perTrack.join('\n')].join('\n');
console.log(table);
if (WRITE) {
  const benchMd = join(ROOT, 'docs/benchmarks.md');
  const text = readFileSync(benchMd, 'utf8');
  const a = text.indexOf('<!-- beats-table -->'), b = text.indexOf('<!-- /beats-table -->');
  if (a < 0 || b < a) throw new Error('docs/benchmarks.md has no <!-- beats-table --> section');
  writeFileSync(benchMd, `${text.slice(0, a)}<!-- beats-table -->\n${stamp}\n\n${skippedNote}${summary.join('\n')}\n${debian.join('\n')}\n${text.slice(b)}`);
  console.error('beats: wrote docs/benchmarks.md');
}
