// The beat tracker's peers for bench/beats.mjs, each run on the same WAV files as procmotion, with its
// own defaults. They are benchmark peers only (devDependencies), never imported by the package:
//   aubio 0.4.9 (Debian's aubio-tools: `aubio beat`, `aubio tempo`)
//   web-audio-beat-detector (npm, MIT): needs Web Audio, so it runs in Debian's Chromium through
//     playwright-core; the file is decoded by the browser (decodeAudioData at the file's own rate) and
//     guess() gives a tempo and the first beat's offset: its beats are that grid
//   music-tempo (npm, MIT) in Node, on the file as mono 44.1 kHz (it assumes 44.1 kHz), decoded by ffmpeg
//   essentia.js (npm, AGPL-3.0: a devDependency used only here, never shipped) in Node:
//     RhythmExtractor2013 (multifeature), on mono 44.1 kHz (what Essentia's rhythm algorithms expect)
// Each runner returns { bpm, beats (seconds), ms (analysis only) } or throws.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

const version = (name) => {
  try { return require(`${name}/package.json`).version; } catch { return null; }
};

export const HAVE_FFMPEG = spawnSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' }).status === 0;
const HAVE_AUBIO = spawnSync('aubio', ['--help'], { encoding: 'utf8' }).status === 0;

/** Mono 44.1 kHz float samples of an audio file (ffmpeg's resampler and downmix). */
export function mono44k(path) {
  const out = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', path, '-ac', '1', '-ar', '44100', '-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1'],
    { maxBuffer: 1 << 30 });
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength >> 2);
}

/** A steady grid of beats from a tempo and a first beat, up to `duration` seconds. */
export function gridBeats(bpm, offset, duration) {
  const out = [];
  if (!(bpm > 0)) return out;
  const period = 60 / bpm;
  for (let t = offset; t < duration; t += period) if (t >= 0) out.push(t);
  return out;
}

function aubio(path) {
  const t0 = performance.now();
  const beats = execFileSync('aubio', ['beat', path], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n').filter(Boolean).map(Number);
  const ms = performance.now() - t0;
  const bpm = Number(/([\d.]+) bpm/.exec(execFileSync('aubio', ['tempo', path], { encoding: 'utf8' }))?.[1] ?? 0);
  return { beats, bpm, ms };
}

function musicTempo(samples) {
  const MusicTempo = require('music-tempo');
  const t0 = performance.now();
  let r;
  try {
    r = new MusicTempo(samples);
  } catch (e) {
    return { beats: [], bpm: 0, ms: performance.now() - t0, error: String(e) }; // it throws a string when it finds no tempo
  }
  return { beats: r.beats.map(Number), bpm: Number(r.tempo), ms: performance.now() - t0 };
}

let essentiaInstance = null;
function essentia(samples) {
  if (!essentiaInstance) {
    const { Essentia, EssentiaWASM } = require('essentia.js');
    essentiaInstance = new Essentia(EssentiaWASM);
  }
  const e = essentiaInstance;
  const t0 = performance.now();
  const v = e.arrayToVector(samples);
  const r = e.RhythmExtractor2013(v);
  const beats = Array.from(e.vectorToArray(r.ticks));
  const ms = performance.now() - t0;
  v.delete?.();
  r.ticks.delete?.();
  r.estimates?.delete?.();
  r.bpmIntervals?.delete?.();
  return { beats, bpm: r.bpm, ms };
}

/**
 * web-audio-beat-detector in Chromium: bundles it (esbuild) into `dir`, serves `dir` on 127.0.0.1 and
 * returns { run(path, sampleRate) -> { bpm, beats, ms, offset }, close() }, or null with a reason.
 */
async function startWebAudioBeatDetector(dir) {
  const { browserUnavailable, launchChromium, serveStatic } = await import('../tests/browser/support/browser.mjs');
  const why = browserUnavailable();
  if (why) return { skip: why };
  const esbuild = await import('esbuild');
  const bundle = await esbuild.build({
    stdin: { contents: "import { guess } from 'web-audio-beat-detector'; window.peerGuess = guess;", resolveDir: ROOT, loader: 'js' },
    bundle: true, format: 'esm', write: false, logLevel: 'error',
  });
  writeFileSync(join(dir, 'wabd.js'), bundle.outputFiles[0].contents);
  const server = await serveStatic(dir, { '/': '<!doctype html><meta charset="utf-8"><script type="module" src="/wabd.js"></script>' });
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => typeof window.peerGuess === 'function');
  return {
    async run(path, sampleRate) {
      return page.evaluate(async ([url, rate]) => {
        const bytes = await (await fetch(url)).arrayBuffer();
        const buffer = await new OfflineAudioContext(1, 1, rate).decodeAudioData(bytes); // keeps the file's rate
        const t0 = performance.now();
        const g = await window.peerGuess(buffer);
        return { bpm: g.tempo, offset: g.offset, ms: performance.now() - t0, duration: buffer.duration };
      }, [`/${relative(dir, path)}`, sampleRate]).then((r) => ({ ...r, beats: gridBeats(r.bpm, r.offset, r.duration) }));
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * The peers available here, in table order: [{ id, label, run(path, { sampleRate, mono }) }] and the
 * skipped ones with their reason. `mono()` gives the mono 44.1 kHz samples (decoded once per file).
 */
export async function startPeers(dir) {
  const peers = [];
  const skipped = [];
  if (HAVE_AUBIO) peers.push({ id: 'aubio', label: 'aubio 0.4.9 (`aubio beat`, `aubio tempo`)', run: (path) => aubio(path) });
  else skipped.push('aubio: not installed (apt-get install aubio-tools)');
  const wabdVersion = version('web-audio-beat-detector');
  let wabd = null;
  if (!wabdVersion) skipped.push('web-audio-beat-detector: not installed (npm ci)');
  else {
    wabd = await startWebAudioBeatDetector(dir);
    if (wabd.skip) { skipped.push(`web-audio-beat-detector: ${wabd.skip}`); wabd = null; }
    else peers.push({ id: 'wabd', label: `web-audio-beat-detector ${wabdVersion} (Chromium, \`guess()\`)`, run: (path, o) => wabd.run(path, o.sampleRate) });
  }
  const mtVersion = version('music-tempo');
  const esVersion = version('essentia.js');
  if (!HAVE_FFMPEG) skipped.push('music-tempo, essentia.js: no ffmpeg to resample to 44.1 kHz (apt-get install ffmpeg)');
  else {
    if (mtVersion) peers.push({ id: 'mt', label: `music-tempo ${mtVersion} (Node)`, run: (path, o) => musicTempo(o.mono()) });
    else skipped.push('music-tempo: not installed (npm ci)');
    if (esVersion) peers.push({ id: 'es', label: `essentia.js ${esVersion} (Node, RhythmExtractor2013 multifeature)`, run: (path, o) => essentia(o.mono()) });
    else skipped.push('essentia.js: not installed (npm ci)');
  }
  return { peers, skipped, close: async () => { await wabd?.close(); } };
}
