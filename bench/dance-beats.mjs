// On the beat: where a motion's accents fall within the music's beats, played with the MMD-exact evaluator.
//
//   node bench/dance-beats.mjs motion.vmd --bpm 120 [--offset 0.5] [--model model.pmx]
//   node bench/dance-beats.mjs motion.vmd --beats song.beats [--model model.pmx]
//
// Prints the accents' beat lock: R, the resultant length of their phases within their beats (1: every
// accent at the same point of its beat, 0: spread evenly), the mean phase, and the share of beats with an
// accent within 2 frames. The tests import the measure.
//
// Definitions (positions are world bone positions as the evaluator plays the motion, in leg lengths L):
// - stop: a minimum of the body's speed (the mean speed of the hips, spine, chest, head, arms, hands, legs
//   and feet), the lowest within 3 frames, that the speed rises from by at least a third of its median on
//   both sides within 8 frames. Dance research calls these kinematic beats.
// - contact: a foot that comes to rest on the floor (its ankle within 0.05 L of its lowest height and
//   slower than 0.005 L a frame, after at least 3 frames faster than 0.015 L a frame).
// - phase: where an accent lies between the beat before it and the beat after it (0 to 1).
// - R: |mean of exp(2 pi i phase)| over the accents; meanPhase: the mean's angle over 2 pi.
// - coverage: the share of beats (within the motion) that have an accent within `tolerance` frames.
// - alignment: the AIST++ beat alignment score (each beat's exp(-d^2 / 2 sigma^2), d the frames to the
//   nearest stop, sigma 1.5 frames at 30 fps), for comparison with papers; it rewards dense accents more
//   than beat lock.

import { median } from './stats.mjs';

const BODY = ['hips', 'spine', 'chest', 'head', 'leftUpperArm', 'rightUpperArm', 'leftLowerArm', 'rightLowerArm', 'leftHand',
  'rightHand', 'leftUpperLeg', 'rightUpperLeg', 'leftLowerLeg', 'rightLowerLeg', 'leftFoot', 'rightFoot'];

/**
 * The accents of a motion played on a model: `{ frames, speed, stops, contacts, accents }` (frame numbers,
 * 30 a second; speed in leg lengths a frame). `model`: PMX/PMD bytes or null for the built-in mannequin.
 * `options.frames`: how long to play it (default: to its last key); `options.loop`: the motion is a loop
 * of that many frames, played in place over and over (a loop that travels jumps back at each seam).
 */
export function motionAccents(pm, vmd, model, options = {}) {
  const skeleton = model ?? pm.mannequinPmx();
  const rig = pm.analyzeRig(skeleton);
  const evaluator = pm.createPoseEvaluator(vmd, skeleton);
  try {
    const loop = options.loop ?? 0, frames = options.frames ?? (loop || evaluator.info.lastFrame);
    if (!(frames >= 8)) throw new Error(`motionAccents: ${frames} frames, at least 8 needed`);
    const index = new Map(evaluator.boneNames.map((n, i) => [n, i]));
    const bones = BODY.map((role) => index.get(rig.humanoid[role])).filter((i) => i !== undefined);
    if (bones.length < 8) throw new Error(`motionAccents: the model has ${bones.length} of the body's bones, at least 8 needed`);
    const n = evaluator.boneCount, L = rig.legLength;
    const pos = evaluator.positions(0, (loop || frames) + 1);
    const at = loop ? (f, b, k) => pos[((f % loop) * n + b) * 3 + k] : (f, b, k) => pos[(f * n + b) * 3 + k];
    const dist = (f, g, b) => Math.hypot(at(f, b, 0) - at(g, b, 0), at(f, b, 1) - at(g, b, 1), at(f, b, 2) - at(g, b, 2));
    // the body's speed, centred differences, smoothed over 3 frames
    const raw = new Float64Array(frames + 1);
    for (let f = 0; f <= frames; f++) {
      const a = Math.max(0, f - 1), b = Math.min(frames, f + 1);
      let s = 0;
      for (const i of bones) s += dist(b, a, i) / (b - a);
      raw[f] = s / bones.length / L;
    }
    const speed = raw.map((_, f) => (raw[Math.max(0, f - 1)] + raw[f] + raw[Math.min(frames, f + 1)]) / 3);
    const rise = median(speed) / 3, W = 8;
    const stops = [];
    for (let f = 1; f < frames; f++) {
      if (!(speed[f] <= speed[f - 1] && speed[f] < speed[f + 1])) continue;
      let lowest = true; // the lowest within 3 frames (the first of equals)
      for (let g = Math.max(0, f - 3); g <= Math.min(frames, f + 3); g++) lowest &&= g < f ? speed[g] > speed[f] : speed[g] >= speed[f];
      if (!lowest) continue;
      let left = 0, right = 0;
      for (let g = Math.max(0, f - W); g < f; g++) left = Math.max(left, speed[g] - speed[f]);
      for (let g = f + 1; g <= Math.min(frames, f + W); g++) right = Math.max(right, speed[g] - speed[f]);
      if (Math.min(left, right) >= rise && rise > 0) stops.push(f);
    }
    // the feet coming to rest on the floor
    const contacts = [];
    for (const leg of [rig.legs.left, rig.legs.right]) {
      const b = leg ? index.get(leg.ankle) : undefined;
      if (b === undefined) continue;
      let low = Infinity;
      for (let f = 0; f <= frames; f++) low = Math.min(low, at(f, b, 1));
      let moving = 0;
      for (let f = 1; f <= frames; f++) {
        const v = dist(f, f - 1, b) / L;
        const still = v < 0.005 && at(f, b, 1) - low < 0.05 * L;
        if (still && moving >= 3) contacts.push(f);
        moving = v > 0.015 ? moving + 1 : still ? 0 : moving;
      }
    }
    contacts.sort((a, b) => a - b);
    const accents = [...new Set([...stops, ...contacts])].sort((a, b) => a - b);
    return { frames, speed, stops, contacts, accents };
  } finally {
    evaluator.dispose();
  }
}

/**
 * How `accents` (frames, 30 a second) lock to `beats` (seconds, ascending): `{ R, meanPhase, coverage,
 * alignment, accents, beats }`. Accents outside the beats are not counted. Options: `from` and `frames`,
 * the part of the motion whose beats are to be covered (default: frame 0 to the last accent);
 * `tolerance` (frames, 2): how near a beat an accent must be to cover it; `stops`: the accents the
 * alignment score uses (default: all).
 */
export function beatLock(accents, beats, options = {}) {
  const fps = options.fps ?? 30, tol = options.tolerance ?? 2;
  const last = (options.frames ?? Math.max(...accents, 0)) / fps;
  let zx = 0, zy = 0, count = 0, j = 0;
  for (const frame of accents) {
    const t = frame / fps;
    while (j + 1 < beats.length && beats[j + 1] <= t) j++;
    if (t < beats[0] || j + 1 >= beats.length) continue;
    const phase = (t - beats[j]) / (beats[j + 1] - beats[j]);
    zx += Math.cos(2 * Math.PI * phase), zy += Math.sin(2 * Math.PI * phase), count++;
  }
  const first = (options.from ?? 0) / fps, inside = beats.filter((b) => b >= first && b <= last);
  let covered = 0, bas = 0;
  const stops = options.stops ?? accents;
  for (const b of inside) {
    let near = Infinity, nearStop = Infinity;
    for (const a of accents) near = Math.min(near, Math.abs(a - b * fps));
    for (const a of stops) nearStop = Math.min(nearStop, Math.abs(a - b * fps));
    if (near <= tol) covered++;
    bas += Math.exp(-(nearStop * nearStop) / (2 * 1.5 * 1.5));
  }
  const R = count ? Math.hypot(zx, zy) / count : 0;
  let meanPhase = Math.atan2(zy, zx) / (2 * Math.PI);
  if (meanPhase < 0) meanPhase += 1;
  return { R, meanPhase, coverage: inside.length ? covered / inside.length : 0, alignment: inside.length ? bas / inside.length : 0,
    accents: count, beats: inside.length };
}

/** Beat times (seconds) from `{ bpm, offset }` up to `seconds`. */
export function beatTimes(bpm, offset, seconds) {
  const out = [];
  for (let t = offset; t <= seconds + 60 / bpm; t += 60 / bpm) out.push(t);
  return out;
}

async function main() {
  const { readFileSync } = await import('node:fs');
  const { createProcMotion, FEATURE_MODULES } = await import('../js-glue/index.js');
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const args = process.argv.slice(2);
  let model = null, bpm = 0, offset = 0, beatsFile = null;
  const files = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--model') model = new Uint8Array(readFileSync(args[++i]));
    else if (args[i] === '--bpm') bpm = Number(args[++i]);
    else if (args[i] === '--offset') offset = Number(args[++i]);
    else if (args[i] === '--beats') beatsFile = args[++i];
    else files.push(args[i]);
  }
  if (!files.length || (!bpm && !beatsFile)) {
    console.error('usage: node bench/dance-beats.mjs motion.vmd (--bpm N [--offset S] | --beats file) [--model model.pmx]');
    process.exit(2);
  }
  for (const file of files) {
    const m = motionAccents(pm, new Uint8Array(readFileSync(file)), model);
    const beats = beatsFile ? readFileSync(beatsFile, 'utf8').trim().split('\n').map((l) => Number(l.trim().split(/\s+/)[0]))
      : beatTimes(bpm, offset, m.frames / 30);
    const all = beatLock(m.accents, beats, { stops: m.stops, frames: m.frames });
    const stops = beatLock(m.stops, beats, { frames: m.frames }), contacts = beatLock(m.contacts, beats, { frames: m.frames });
    const f = (x) => x.toFixed(2);
    console.log(`${file}: ${m.frames} frames, ${m.stops.length} stops, ${m.contacts.length} foot contacts over ${all.beats} beats`);
    console.log(`  accents: R ${f(all.R)} at phase ${f(all.meanPhase)}, coverage ${f(all.coverage)}, alignment ${f(all.alignment)}`);
    console.log(`  stops: R ${f(stops.R)} at ${f(stops.meanPhase)}; contacts: R ${f(contacts.R)} at ${f(contacts.meanPhase)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
