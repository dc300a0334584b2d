// The dance on real songs: each song's beats detected, danced on the mannequin, and the dance's accents
// (bench/dance-beats.mjs: the body's stops and the feet's contacts, as the MMD-exact evaluator plays it)
// locked against the detected beats and, for recordings with human beat annotations
// ($PM_ANNOTATED_MUSIC, as bench/beats.mjs reads it), against the annotations. Also the phrases'
// variety and the time to generate and land the dance in wasm.
//   node bench/dance.mjs [--no-write]
// Not a test: it prints figures and (without --no-write) rewrites the table in docs/benchmarks.md
// (between '<!-- dance-table -->' and '<!-- /dance-table -->').
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../js-glue/index.js';
import { beatLock, motionAccents } from './dance-beats.mjs';
import { annotatedSongs, debianMusic } from './songs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WRITE = !process.argv.includes('--no-write');
const DIR = join(tmpdir(), 'procmotion-beats-bench');
mkdirSync(DIR, { recursive: true });
const pm = await createProcMotion({ load: FEATURE_MODULES });

const { songs: debian, skips } = debianMusic(DIR);
const annotated = annotatedSongs(process.env.PM_ANNOTATED_MUSIC, DIR);
const songs = [
  ...debian.map((s) => ({ id: `${s.pkg}: ${s.file} (${s.licence})`, wav: s.wav, truth: null })),
  ...annotated.map((s) => ({ id: `${s.id} (annotated, not in the repository)`, wav: s.wav, truth: s.beats })),
];
const f2 = (x) => x.toFixed(2);
const rows = [];
for (const song of songs) {
  const audio = pm.readWav(readFileSync(song.wav));
  const beats = pm.detectBeats(audio.samples, audio.sampleRate, { channels: audio.channels });
  const t0 = performance.now();
  const r = pm.generateAutoDanceVmd({}, beats, null, null);
  const ms = performance.now() - t0;
  const m = motionAccents(pm, r.vmd, null, { frames: r.frames });
  const lock = (grid) => {
    const first = Math.round(30 * grid[0]), last = Math.round(30 * grid.at(-1));
    return beatLock(m.accents.filter((f) => f >= first && f <= last), grid, { from: first, frames: last });
  };
  // the dancer's beats on the detection (every other one above 160 BPM, half beats below 70)
  const danced = [];
  for (let k = 0; k < r.beatCount; k++) danced.push(pm.beatGridTime(pm.beatGrid(beats), r.firstGridBeat + k * r.gridBeatsPerBeat));
  const own = lock(danced);
  const truth = song.truth ? lock(song.truth) : null;
  const row = `| ${song.id} | ${(audio.frames / audio.sampleRate).toFixed(0)} s | ${beats.bpm.toFixed(1)} | ${r.bpm.toFixed(1)} | ` +
    `${f2(own.R)} / ${f2(own.coverage)} | ${truth ? `${f2(truth.R)} / ${f2(truth.coverage)} (phase ${f2(truth.meanPhase)})` : '-'} | ${r.phrases.length} / ${r.distinctPhrases} / ${r.longestRepeat} | ` +
    `${r.sectionCount} | ${r.report.maxSlide.toFixed(4)} | ${Math.min(r.body.hands.left.clearance, r.body.hands.right.clearance).toFixed(2)} | ${ms.toFixed(0)} ms |`;
  console.error(`dance: ${row}`);
  rows.push(row);
}
const head = [
  '| song | length | detected BPM | danced at | R / coverage, detected beats | R / coverage, annotated beats | phrases / distinct / most in a row | sections | stance slide (units a frame) | hands clear (units) | generate + land (wasm) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const note = skips.length ? `\nNot measured in this run: ${skips.join('; ')}.\n` : '';
const stamp = `_Written by \`node bench/dance.mjs\` on ${new Date().toISOString().slice(0, 10)}._`;
const table = [...head, ...rows].join('\n');
console.log(table + note);
if (WRITE) {
  const benchMd = join(ROOT, 'docs/benchmarks.md');
  const text = readFileSync(benchMd, 'utf8');
  const a = text.indexOf('<!-- dance-table -->'), b = text.indexOf('<!-- /dance-table -->');
  if (a < 0 || b < a) throw new Error('docs/benchmarks.md has no <!-- dance-table --> section');
  writeFileSync(benchMd, `${text.slice(0, a)}<!-- dance-table -->\n${stamp}\n\n${table}\n${note}${text.slice(b)}`);
  console.error('dance: wrote docs/benchmarks.md');
}
