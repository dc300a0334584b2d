// The page's tempo range and the tempo a detection or a tap gives the modes. Tap tempo itself is the
// package's (pm.createTapTempo, docs/music.md): one tap tempo in the project. Pure logic.

export const BPM_MIN = 60;
export const BPM_MAX = 200;

export function clampBpm(bpm) {
  return Math.min(BPM_MAX, Math.max(BPM_MIN, bpm));
}

/**
 * A detected or tapped tempo as the page's modes take it: rounded to 0.1 BPM, and brought into
 * 60..200 by whole octaves (a 55 BPM song is walked at 110, a 210 BPM one at 105: every step still
 * lands on a beat), clamped only when no octave fits. Null for anything that is not a tempo.
 */
export function fitBpm(bpm) {
  if (typeof bpm !== 'number' || !Number.isFinite(bpm) || bpm <= 0) return null;
  let b = bpm;
  while (b < BPM_MIN) b *= 2;
  while (b > BPM_MAX) b /= 2;
  return Math.round(clampBpm(b) * 10) / 10;
}
