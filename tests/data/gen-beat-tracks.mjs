#!/usr/bin/env node
// Test tracks with known beats for the beat tracker (docs/benchmarks.md, "Beat tracking"): synthetic music in
// several styles (four-on-the-floor, backbeat, ballad, swing, syncopation, waltz, half-time, drumless
// piano), 60 to 200 BPM, tempo ramps and a tempo change, added noise and reverb, a quiet intro, sample
// rates from 8 to 96 kHz, mono and stereo. Every sound is placed at a known beat position, so the
// ground truth (beat times, bar positions, tempo) is exact. Deterministic: a seeded generator.
//
//   node tests/data/gen-beat-tracks.mjs OUTDIR [--only id1,id2] [--seconds N]
//       writes OUTDIR/<id>.wav (16-bit, with the core's writer: needs js-glue/dist, build.sh wasm), OUTDIR/<id>.beats.txt ("time barPosition" per line) and
//       OUTDIR/tracks.json (the specs and truths)
//
//   import { TRACKS, renderTrack } from './gen-beat-tracks.mjs';
//   const t = renderTrack(TRACKS.find((x) => x.id === 'house-124'));
//   // t.samples (Float32Array, interleaved), t.sampleRate, t.channels, t.beats (seconds),
//   // t.barPositions (1 = downbeat), t.bpm (null when the tempo is not steady), t.meter
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---- the track list -----------------------------------------------------------------------------
// tempo: a number (steady), { ramp: [from, to] } over the whole track, or { change: [from, to, at] }.
// style: see PATTERNS. Options: rate (Hz), channels, seconds, noise (SNR in dB), reverb (RT60 s),
// intro (seconds of quiet intro at -24 dB: pad, piano chords on the beats and hats, no drums or bass), start (first beat, s), seed.
export const TRACKS = [
  { id: 'house-124', style: 'four', tempo: 124, rate: 44100, channels: 2, start: 0.42 },
  { id: 'house-128-48k', style: 'four', tempo: 128, rate: 48000, channels: 2, start: 0.9 },
  { id: 'techno-138', style: 'four', tempo: 138, rate: 44100, channels: 2, start: 0.25 },
  { id: 'punk-200', style: 'four', tempo: 200, rate: 44100, channels: 2, start: 0.6 },
  { id: 'rock-100', style: 'backbeat', tempo: 100, rate: 44100, channels: 2, start: 0.7 },
  { id: 'rock-140', style: 'backbeat', tempo: 140, rate: 44100, channels: 1, start: 0.33 },
  { id: 'pop-116-22k', style: 'backbeat', tempo: 116, rate: 22050, channels: 2, start: 1.1 },
  { id: 'dnb-174', style: 'backbeat', tempo: 174, rate: 44100, channels: 2, start: 0.5 },
  { id: 'ballad-60', style: 'ballad', tempo: 60, rate: 44100, channels: 2, start: 0.8 },
  { id: 'ballad-72', style: 'ballad', tempo: 72, rate: 32000, channels: 2, start: 0.4 },
  { id: 'swing-92', style: 'swing', tempo: 92, rate: 44100, channels: 2, start: 0.55 },
  { id: 'swing-168', style: 'swing', tempo: 168, rate: 48000, channels: 2, start: 0.3 },
  { id: 'funk-104', style: 'syncopated', tempo: 104, rate: 44100, channels: 2, start: 0.65 },
  { id: 'reggaeton-96', style: 'syncopated', tempo: 96, rate: 44100, channels: 2, start: 0.2 },
  { id: 'waltz-88', style: 'waltz', tempo: 88, rate: 44100, channels: 2, start: 0.5, meter: 3 },
  { id: 'waltz-156', style: 'waltz', tempo: 156, rate: 44100, channels: 2, start: 0.35, meter: 3 },
  { id: 'halftime-140', style: 'halftime', tempo: 140, rate: 44100, channels: 2, start: 0.45 },
  { id: 'piano-96', style: 'piano', tempo: 96, rate: 44100, channels: 2, start: 0.6 },
  { id: 'piano-120-16k', style: 'piano', tempo: 120, rate: 16000, channels: 1, start: 0.3 },
  { id: 'noise-120', style: 'four', tempo: 120, rate: 44100, channels: 2, start: 0.5, noise: 3 },
  { id: 'noise-rock-110', style: 'backbeat', tempo: 110, rate: 44100, channels: 2, start: 0.75, noise: 6 },
  { id: 'reverb-100', style: 'backbeat', tempo: 100, rate: 44100, channels: 2, start: 0.4, reverb: 2.5 },
  { id: 'reverb-piano-84', style: 'piano', tempo: 84, rate: 44100, channels: 2, start: 0.5, reverb: 2 },
  { id: 'intro-128', style: 'four', tempo: 128, rate: 44100, channels: 2, start: 0.5, intro: 10 },
  { id: 'mono-8k-110', style: 'backbeat', tempo: 110, rate: 8000, channels: 1, start: 0.35 },
  { id: 'hires-96k-132', style: 'four', tempo: 132, rate: 96000, channels: 2, start: 0.6 },
  { id: 'ramp-90-130', style: 'backbeat', tempo: { ramp: [90, 130] }, rate: 44100, channels: 2, start: 0.5, seconds: 40 },
  { id: 'ramp-140-110', style: 'four', tempo: { ramp: [140, 110] }, rate: 44100, channels: 2, start: 0.3, seconds: 40 },
  { id: 'change-120-150', style: 'four', tempo: { change: [120, 150, 20] }, rate: 44100, channels: 2, start: 0.5, seconds: 40 },
  { id: 'change-100-80', style: 'backbeat', tempo: { change: [100, 80, 20] }, rate: 44100, channels: 2, start: 0.4, seconds: 40 },
];

/** The small subset the Node tests run (kept short so CI stays lean). */
export const TEST_SUBSET = ['house-124', 'rock-140', 'waltz-88', 'ramp-90-130'];

// ---- deterministic noise ------------------------------------------------------------------------
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function hash(s) {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

// ---- timing -------------------------------------------------------------------------------------
/** Beat times for a tempo spec over `seconds`, starting at `start`. */
function beatTimes(tempo, start, seconds) {
  const bpmAt = typeof tempo === 'number' ? () => tempo
    : tempo.ramp ? (t) => tempo.ramp[0] + (tempo.ramp[1] - tempo.ramp[0]) * Math.min(1, Math.max(0, t / seconds))
      : (t) => (t < tempo.change[2] ? tempo.change[0] : tempo.change[1]);
  const beats = [start];
  const dt = 1e-4;
  let phase = 0;
  for (let t = start; t < seconds + 2; t += dt) {
    const next = phase + (bpmAt(t) / 60) * dt;
    if (Math.floor(next) > Math.floor(phase)) beats.push(t + dt * ((Math.floor(next) - phase) / (next - phase)));
    phase = next;
  }
  return beats;
}

/** Time of beat position p (fractional beats) by linear interpolation of the beat times. */
function timeAt(beats, p) {
  const i = Math.floor(p);
  if (i < 0) return beats[0] + p * (beats[1] - beats[0]);
  if (i >= beats.length - 1) return beats[beats.length - 1] + (p - beats.length + 1) * (beats.at(-1) - beats.at(-2));
  return beats[i] + (p - i) * (beats[i + 1] - beats[i]);
}

// ---- instruments (each adds into a stereo mix at time t) -------------------------------------------
class Mix {
  constructor(rate, seconds) {
    this.rate = rate;
    this.n = Math.ceil(rate * seconds);
    this.l = new Float32Array(this.n);
    this.r = new Float32Array(this.n);
  }
  /** Add fn(k, dt) (k = sample index from the event's start) for `dur` seconds at time t, panned. */
  add(t, dur, gain, pan, fn) {
    const s0 = Math.round(t * this.rate), len = Math.round(dur * this.rate);
    const gl = gain * Math.cos((pan + 1) * Math.PI / 4), gr = gain * Math.sin((pan + 1) * Math.PI / 4);
    for (let k = 0; k < len; k++) {
      const i = s0 + k;
      if (i < 0) continue;
      if (i >= this.n) break;
      const v = fn(k / this.rate);
      this.l[i] += v * gl;
      this.r[i] += v * gr;
    }
  }
}

function kick(mix, t, g) {
  let ph = 0;
  mix.add(t, 0.45, g, 0, (x) => {
    const f = 48 + 110 * Math.exp(-x / 0.03);
    ph += (2 * Math.PI * f) / mix.rate;
    return Math.sin(ph) * Math.exp(-x / 0.16) + (x < 0.003 ? 0.3 * (1 - x / 0.003) : 0);
  });
}

function noiseHit(mix, t, g, pan, decay, dur, rand, color) {
  // color: 'high' (hats: differenced noise), 'band' (snare)
  let p1 = 0, p2 = 0, lp = 0;
  mix.add(t, dur, g, pan, (x) => {
    const w = rand() * 2 - 1;
    let v;
    if (color === 'high') {
      v = w - 2 * p1 + p2; // second difference: high-passed
      p2 = p1, p1 = w;
      v *= 0.35;
    } else {
      lp += 0.35 * (w - lp); // low-pass then subtract a slower one: band
      v = lp - p1;
      p1 += 0.02 * (lp - p1);
    }
    return v * Math.exp(-x / decay);
  });
}

function snare(mix, t, g, rand) {
  noiseHit(mix, t, g, -0.1, 0.07, 0.3, rand, 'band');
  mix.add(t, 0.15, g * 0.5, -0.1, (x) => Math.sin(2 * Math.PI * 185 * x) * Math.exp(-x / 0.04));
}

function clap(mix, t, g, rand) {
  for (let i = 0; i < 3; i++) noiseHit(mix, t + 0.008 * i, g * (i === 2 ? 1 : 0.6), -0.3, i === 2 ? 0.06 : 0.01, 0.25, rand, 'band');
}

const hat = (mix, t, g, rand, open = false) => noiseHit(mix, t, g, 0.35, open ? 0.18 : 0.025, open ? 0.5 : 0.1, rand, 'high');

function tone(mix, t, dur, g, pan, freq, { attack = 0.005, decay = 0, partials = [1], release = 0.05 } = {}) {
  mix.add(t, dur + release, g, pan, (x) => {
    let env = Math.min(1, x / attack);
    if (decay) env *= Math.exp(-x / decay);
    if (x > dur) env *= Math.max(0, 1 - (x - dur) / release);
    let v = 0;
    partials.forEach((a, h) => { v += a * Math.sin(2 * Math.PI * freq * (h + 1) * x); });
    return v * env;
  });
}

const midi = (m) => 440 * 2 ** ((m - 69) / 12);
// I - vi - IV - V in C and a minor-ish turn: chord roots and triads (MIDI)
const PROGRESSION = [[48, [60, 64, 67]], [45, [57, 60, 64]], [41, [57, 60, 65]], [43, [59, 62, 67]]];

// ---- patterns: which sound at which beat position of a bar ----------------------------------------
// Each returns events for bar `bar` (positions in beats from the bar start).
const PATTERNS = {
  four: { meter: 4, drums(bar) {
    const e = [];
    for (let b = 0; b < 4; b++) {
      e.push(['kick', b, 1.0]);
      e.push(['hat', b + 0.5, 0.5]);
      if (b % 2) e.push(['clap', b, 0.55]);
    }
    return e;
  }, bass: [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [3.5, 0.5]] },
  backbeat: { meter: 4, drums() {
    const e = [['kick', 0, 1.0], ['kick', 2, 0.9], ['kick', 2.5, 0.6], ['snare', 1, 0.8], ['snare', 3, 0.8]];
    for (let h = 0; h < 8; h++) e.push(['hat', h / 2, h % 2 ? 0.35 : 0.55]);
    return e;
  }, bass: [[0, 1.5], [2, 0.5], [2.5, 1.5]] },
  ballad: { meter: 4, drums() {
    const e = [['kick', 0, 0.9], ['kick', 2, 0.8], ['snare', 1, 0.7], ['snare', 3, 0.7]];
    for (let h = 0; h < 8; h++) e.push(['hat', h / 2, h % 2 ? 0.22 : 0.4]);
    return e;
  }, bass: [[0, 2], [2, 2]] },
  swing: { meter: 4, drums() {
    // ride on each beat and the swung "a" of 2 and 4 (2/3 of the beat); hi-hat foot on 2 and 4
    const e = [];
    for (let b = 0; b < 4; b++) {
      e.push(['ride', b, b % 2 ? 0.6 : 0.5]);
      if (b % 2) e.push(['ride', b + 2 / 3, 0.35], ['hat', b, 0.5]);
    }
    e.push(['kick', 0, 0.45], ['snare', 3 + 2 / 3, 0.25]);
    return e;
  }, bass: [[0, 1], [1, 1], [2, 1], [3, 1]], walking: true },
  syncopated: { meter: 4, drums() {
    const e = [['kick', 0, 1.0], ['kick', 0.75, 0.6], ['kick', 2.5, 0.8], ['snare', 1, 0.85], ['snare', 3, 0.85],
      ['snare', 1.75, 0.25], ['snare', 3.25, 0.2]];
    for (let h = 0; h < 16; h++) e.push(['hat', h / 4, h % 4 === 0 ? 0.45 : h % 2 ? 0.18 : 0.3]);
    return e;
  }, bass: [[0, 0.5], [0.75, 0.5], [2.5, 0.5], [3.5, 0.25]] },
  waltz: { meter: 3, drums() {
    return [['kick', 0, 0.9], ['hat', 1, 0.4], ['hat', 2, 0.4], ['snare', 1, 0.3], ['snare', 2, 0.3]];
  }, bass: [[0, 1]], stabs: [1, 2] },
  halftime: { meter: 4, drums() {
    // kick on 1, snare on 3 (half-time feel); hats on every beat (accented) and 8ths, bass stabs on beats
    const e = [['kick', 0, 1.0], ['kick', 1.75, 0.5], ['snare', 2, 0.9]];
    for (let h = 0; h < 8; h++) e.push(['hat', h / 2, h % 2 ? 0.2 : 0.55]);
    return e;
  }, bass: [[0, 0.5], [1, 0.5], [2, 0.5], [3, 0.5]] },
  piano: { meter: 4, drums: () => [], bass: [[0, 2], [2, 2]], piano: true },
};

/** Render a track: returns samples and the ground truth. */
export function renderTrack(spec, { seconds: override } = {}) {
  const seconds = override ?? spec.seconds ?? 30;
  const rate = spec.rate ?? 44100, channels = spec.channels ?? 2;
  const style = PATTERNS[spec.style];
  const meter = spec.meter ?? style.meter;
  const rand = rng(spec.seed ?? hash(spec.id));
  const beats = beatTimes(spec.tempo, spec.start ?? 0.5, seconds);
  const mix = new Mix(rate, seconds);
  const intro = spec.intro ?? 0;
  const gainAt = (t) => (t < intro ? 0.063 : 1); // -24 dB
  const bars = Math.ceil(beats.length / meter) + 1;
  for (let bar = 0; bar < bars; bar++) {
    const b0 = bar * meter;
    if (timeAt(beats, b0) > seconds) break;
    const [root, triad] = PROGRESSION[(bar >> (spec.style === 'waltz' ? 0 : 0)) % PROGRESSION.length];
    const barStart = timeAt(beats, b0), barEnd = timeAt(beats, b0 + meter);
    const inIntro = barStart < intro;
    // pad: the chord held for the bar (the harmonic change falls on the downbeat)
    for (const m of triad) tone(mix, barStart, barEnd - barStart, 0.05 * gainAt(barStart), (m % 3) - 1, midi(m), { attack: 0.04, partials: [1, 0.3, 0.1], release: 0.08 });
    if (style.piano || inIntro) {
      for (let b = 0; b < meter; b++) {
        const t = timeAt(beats, b0 + b);
        const g = (b === 0 ? 0.2 : 0.13) * gainAt(t);
        for (const m of triad) tone(mix, t, 0.05, g, 0.2, midi(m + 12), { attack: 0.002, decay: 0.35, partials: [1, 0.5, 0.25, 0.12], release: 0.6 });
      }
    }
    if (style.stabs) for (const b of style.stabs) {
      const t = timeAt(beats, b0 + b);
      for (const m of triad) tone(mix, t, 0.12, 0.08 * gainAt(t), 0.3, midi(m + 12), { attack: 0.003, decay: 0.15, partials: [1, 0.4] });
    }
    // bass
    style.bass.forEach(([pos, len], i) => {
      const t = timeAt(beats, b0 + pos), dur = timeAt(beats, b0 + pos + len) - t;
      const note = style.walking ? root + [0, 4, 7, 9][i % 4] : root;
      if (!inIntro) tone(mix, t, dur * 0.9, 0.22, 0, midi(note - 12 + 12), { attack: 0.004, decay: 0.4, partials: [1, 0.5, 0.3] });
    });
    // drums
    for (const [kind, pos, g0] of style.drums(bar)) {
      const t = timeAt(beats, b0 + pos);
      if (t > seconds) continue;
      if (inIntro && kind !== 'hat') continue;
      const g = g0 * gainAt(t);
      if (kind === 'kick') kick(mix, t, 0.55 * g);
      else if (kind === 'snare') snare(mix, t, 0.5 * g, rand);
      else if (kind === 'clap') clap(mix, t, 0.5 * g, rand);
      else if (kind === 'hat') hat(mix, t, 0.3 * g, rand);
      else if (kind === 'ride') {
        hat(mix, t, 0.22 * g, rand, true);
        tone(mix, t, 0.01, 0.05 * g, 0.4, 5200, { attack: 0.001, decay: 0.3, partials: [1, 0.6] });
      }
    }
  }
  if (spec.reverb) reverb(mix, spec.reverb, rand);
  if (spec.noise !== undefined) addNoise(mix, spec.noise, rand);
  // normalise to -1 dBFS peak
  let peak = 1e-9;
  for (let i = 0; i < mix.n; i++) peak = Math.max(peak, Math.abs(mix.l[i]), Math.abs(mix.r[i]));
  const k = 0.89 / peak;
  const samples = new Float32Array(mix.n * channels);
  for (let i = 0; i < mix.n; i++) {
    if (channels === 1) samples[i] = 0.5 * (mix.l[i] + mix.r[i]) * k;
    else samples[2 * i] = mix.l[i] * k, samples[2 * i + 1] = mix.r[i] * k;
  }
  const inside = beats.filter((t) => t < seconds - 0.05);
  return {
    id: spec.id, samples, sampleRate: rate, channels, seconds, meter,
    beats: Float64Array.from(inside),
    barPositions: Uint8Array.from(inside, (_, i) => (i % meter) + 1),
    bpm: typeof spec.tempo === 'number' ? spec.tempo : null,
    steady: typeof spec.tempo === 'number',
  };
}

/** Schroeder reverb (4 combs, 2 allpasses) at RT60 seconds, mixed 50 % wet. */
function reverb(mix, rt60, rand) {
  const rate = mix.rate;
  const combs = [0.0297, 0.0371, 0.0411, 0.0437].map((d) => Math.round(d * rate));
  const gains = combs.map((d) => 10 ** ((-3 * d) / (rt60 * rate)));
  const ap = [0.005, 0.0017].map((d) => Math.round(d * rate));
  for (const ch of [mix.l, mix.r]) {
    const out = new Float32Array(mix.n);
    combs.forEach((d, c) => {
      const buf = new Float32Array(d);
      let p = 0;
      for (let i = 0; i < mix.n; i++) {
        const y = buf[p];
        buf[p] = ch[i] + y * gains[c];
        out[i] += y * 0.25;
        p = (p + 1) % d;
      }
    });
    for (const d of ap) {
      const buf = new Float32Array(d);
      let p = 0;
      for (let i = 0; i < mix.n; i++) {
        const y = buf[p], x = out[i];
        buf[p] = x + 0.7 * y;
        out[i] = y - 0.7 * x;
        p = (p + 1) % d;
      }
    }
    for (let i = 0; i < mix.n; i++) ch[i] = 0.6 * ch[i] + 0.8 * out[i];
  }
  void rand;
}

/** White + pink noise at `snr` dB under the music's RMS. */
function addNoise(mix, snr, rand) {
  let e = 0;
  for (let i = 0; i < mix.n; i++) e += mix.l[i] * mix.l[i] + mix.r[i] * mix.r[i];
  const rms = Math.sqrt(e / (2 * mix.n)), g = rms * 10 ** (-snr / 20);
  for (const ch of [mix.l, mix.r]) {
    let b0 = 0, b1 = 0, b2 = 0;
    for (let i = 0; i < mix.n; i++) {
      const w = rand() * 2 - 1;
      b0 = 0.99765 * b0 + w * 0.099046;
      b1 = 0.963 * b1 + w * 0.2965164;
      b2 = 0.57 * b2 + w * 1.0526913;
      const pink = (b0 + b1 + b2 + w * 0.1848) * 0.25;
      ch[i] += g * 1.2 * (0.5 * w + pink);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = args[0];
  if (!out) {
    console.error('usage: node tests/data/gen-beat-tracks.mjs OUTDIR [--only id1,id2] [--seconds N]');
    process.exit(2);
  }
  const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const only = opt('--only')?.split(',');
  const seconds = opt('--seconds') ? Number(opt('--seconds')) : undefined;
  mkdirSync(out, { recursive: true });
  const { FEATURE_MODULES, createProcMotion } = await import('../../js-glue/index.js'); // the core's WAV writer
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const list = [];
  for (const spec of TRACKS) {
    if (only && !only.includes(spec.id)) continue;
    const t = renderTrack(spec, { seconds });
    writeFileSync(join(out, `${spec.id}.wav`), pm.writeWav(t.samples, t.sampleRate, { channels: t.channels }));
    writeFileSync(join(out, `${spec.id}.beats.txt`), Array.from(t.beats, (b, i) => `${b.toFixed(6)} ${t.barPositions[i]}`).join('\n') + '\n');
    list.push({ ...spec, seconds: t.seconds, meter: t.meter, bpm: t.bpm, steady: t.steady, beats: Array.from(t.beats), barPositions: Array.from(t.barPositions) });
    console.error(`gen-beat-tracks: ${spec.id}: ${t.seconds} s, ${t.beats.length} beats`);
  }
  writeFileSync(join(out, 'tracks.json'), JSON.stringify(list));
}
