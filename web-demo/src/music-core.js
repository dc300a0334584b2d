// The Music control's logic without DOM or Web Audio (music.js draws and plays): which files are
// audio, which of them the core's WAV reader takes, the time window of the lane around the playback
// position, and the beat marks and envelope inside it. Node tests import this file directly.

/** File extensions the page takes as music (WAV through the core, the rest through the browser). */
export const AUDIO_EXTENSIONS = ['.wav', '.wave', '.mp3', '.ogg', '.oga', '.opus', '.flac', '.m4a', '.aac', '.webm'];

/** Whether the bytes are a RIFF/RF64 WAVE file (the core's reader decides whether it can read it). */
export function isWavBytes(bytes) {
  if (!bytes || bytes.length < 12) return false;
  const tag = (o) => String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]);
  return (tag(0) === 'RIFF' || tag(0) === 'RF64' || tag(0) === 'BW64') && tag(8) === 'WAVE';
}

/** Planar channels of interleaved samples: [Float32Array per channel]. */
export function deinterleave(samples, channels) {
  const frames = Math.floor(samples.length / channels);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let c = 0; c < channels; c++) {
    const d = out[c];
    for (let i = 0, k = c; i < frames; i++, k += channels) d[i] = samples[k];
  }
  return out;
}

/** 'm:ss.s' for a time in seconds (the lane and the panel). */
export function formatTime(seconds) {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return `${m}:${rest < 10 ? '0' : ''}${rest.toFixed(1)}`;
}

/**
 * The lane's time window: `span` seconds (the whole song when it is shorter) with the playback
 * position at `lead` of the width, so what is about to play is in view. Returns { t0, t1 }.
 */
export function laneWindow(position, duration, { span = 8, lead = 0.3 } = {}) {
  const w = duration > 0 ? Math.min(span, duration) : span;
  if (duration > 0 && duration <= span) return { t0: 0, t1: w };
  const t0 = position - lead * w;
  return { t0, t1: t0 + w };
}

/**
 * The beat marks between t0 and t1 at a width of `width` px: [{ time, x, index, bar, downbeat }],
 * bar = 1-based bar number counted from the first downbeat (0 before it).
 */
export function beatMarks(beats, barPositions, t0, t1, width) {
  const out = [];
  if (!beats || !(t1 > t0)) return out;
  // first beat >= t0 (binary search: songs have thousands of beats)
  let lo = 0;
  let hi = beats.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (beats[mid] < t0) lo = mid + 1;
    else hi = mid;
  }
  let bar = 0;
  for (let i = 0; i < lo; i++) if (barPositions?.[i] === 1) bar++;
  for (let i = lo; i < beats.length && beats[i] <= t1; i++) {
    const downbeat = barPositions?.[i] === 1;
    if (downbeat) bar++;
    out.push({ time: beats[i], x: ((beats[i] - t0) / (t1 - t0)) * width, index: i, bar, downbeat });
  }
  return out;
}

/**
 * The onset envelope over [t0, t1] at one value per pixel column (the column's maximum, so a short
 * onset is never lost between columns): a Float32Array of `width` values in 0..1 (0 outside the song).
 */
export function envelopeColumns(envelope, rate, t0, t1, width) {
  const n = Math.max(0, Math.floor(width));
  const out = new Float32Array(n);
  if (!envelope || !envelope.length || !(rate > 0) || !(t1 > t0)) return out;
  const perColumn = ((t1 - t0) * rate) / n;
  for (let x = 0; x < n; x++) {
    const a = Math.max(0, Math.floor((t0 * rate) + x * perColumn));
    const b = Math.min(envelope.length, Math.max(a + 1, Math.floor((t0 * rate) + (x + 1) * perColumn)));
    let m = 0;
    for (let i = a; i < b; i++) if (envelope[i] > m) m = envelope[i];
    out[x] = m;
  }
  return out;
}
