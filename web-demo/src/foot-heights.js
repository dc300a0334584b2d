// Planned and played foot heights of a generated motion on the loaded model, and the report line
// (docs/landing.md). No DOM: a node test checks it.
//
// Planned: where the generator meant the ankles to be. The catwalk's and the tracing bake's
// `plan.ankles` (6 per whole frame: left xyz, right xyz, world); for the groove bake, its anchors:
// where its base motion (the standing pose, the catwalk, the loaded VMD) puts the ankles, played.
// Played: what babylon-mmd shows, from pm.createPoseEvaluator on the same VMD bytes and model (FK,
// Bezier, append, MMD CCD IK with limits, property keys: it agrees with babylon-mmd's runtime, which
// tests/browser/demo-landing.test.mjs checks against the page's own runtime).

/** MMD units to centimetres (1 unit = 8 cm). */
export const CM_PER_UNIT = 8;

const SIDES = ['left', 'right'];

/** The generator's landing report of a mode's result (catwalk, groove bake, tracing), or null. */
export function landingReport(motion) {
  if (!motion) return null;
  if (motion.report?.landing !== undefined) return motion.report.landing; // the groove bake
  return motion.report && typeof motion.report.maxError === 'number' ? motion.report : null;
}

/** The ankle bones to plot: the report's leg limbs, else the rig's ankles. [left, right] names or null. */
export function ankleBones(motion, rig) {
  const limbs = landingReport(motion)?.limbs ?? {};
  return SIDES.map((side, i) => limbs[side]?.bone ?? limbs[['leftFoot', 'rightFoot'][i]]?.bone ?? rig?.legs?.[side]?.ankle ?? null);
}

/** Y of `bones` (indices) at frames 0 .. frames from a pose evaluator: one Float32Array per bone. */
function heights(ev, indices, frames) {
  const n = ev.boneCount;
  const p = ev.positions(0, frames + 1);
  return indices.map((b) => Float32Array.from({ length: frames + 1 }, (_, f) => p[3 * (f * n + b) + 1]));
}

function evaluated(pm, vmd, skeleton, fn) {
  const ev = pm.createPoseEvaluator(vmd, skeleton);
  try {
    return fn(ev);
  } finally {
    ev.dispose();
  }
}

/**
 * The foot series of `motion` (a mode's generate() result) on `skeleton` (PMX/PMD bytes or a skeleton
 * object): { frames, bones: [left, right], rest: [y, y] (the ankles' rest heights), played: { left,
 * right }, planned: { left, right } | null, source } with heights above rest (Float32Array per whole
 * frame 0 .. frames), or null when the model has no ankle for either side. `planned` is null for a
 * motion without a plan (a loaded VMD). `frames`: the plan's, else motion.loopFrames.
 */
export function footHeights(pm, motion, skeleton, rig) {
  const names = ankleBones(motion, rig);
  const plan = motion.plan?.ankles instanceof Float32Array ? motion.plan : null;
  const frames = Math.max(1, Math.round(plan ? plan.ankles.length / 6 - 1 : motion.loopFrames));
  return evaluated(pm, motion.vmd, skeleton, (ev) => {
    const idx = names.map((b) => (b == null ? -1 : ev.boneNames.indexOf(b)));
    if (idx.every((i) => i < 0)) return null;
    const present = SIDES.filter((_, i) => idx[i] >= 0);
    const pick = (arrays) => Object.fromEntries(SIDES.map((s, i) => [s, idx[i] >= 0 ? arrays[present.indexOf(s)] : null]));
    const used = idx.filter((i) => i >= 0);
    const rest = evaluated(pm, null, skeleton, (r) => r.evaluate(0).positions);
    const restY = idx.map((i) => (i >= 0 ? rest[3 * i + 1] : 0));
    const lift = (series) => {
      for (const s of SIDES) {
        const a = series[s];
        if (a) for (let f = 0; f < a.length; f++) a[f] -= restY[SIDES.indexOf(s)];
      }
      return series;
    };
    const played = lift(pick(heights(ev, used, frames)));
    let planned = null;
    if (plan) {
      planned = lift(Object.fromEntries(SIDES.map((s, i) => [s, idx[i] >= 0
        ? Float32Array.from({ length: frames + 1 }, (_, f) => plan.ankles[6 * f + 3 * i + 1]) : null])));
    } else if (motion.anchors !== undefined) {
      // the groove's anchors: where its base motion (null: the standing pose) puts the ankles
      planned = lift(pick(evaluated(pm, motion.anchors, skeleton, (a) => heights(a, used, frames))));
    }
    return { frames, bones: names, rest: restY, played, planned, source: 'pm.createPoseEvaluator' };
  });
}

/** The largest |planned - played| over both feet (units), or null without a plan. */
export function planPlayedGap(feet) {
  if (!feet?.planned) return null;
  let gap = 0;
  for (const s of SIDES) {
    const a = feet.planned[s], b = feet.played[s];
    if (a && b) for (let f = 0; f < a.length; f++) gap = Math.max(gap, Math.abs(a[f] - b[f]));
  }
  return gap;
}

const num = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/** A length in units and centimetres: { units: '0.0024', cm: '0.02' } (penetration below 5e-5 reads 0). */
export function unitsAndCm(v) {
  const x = Math.abs(v) < 5e-5 ? 0 : v;
  return { units: num(x, 4), cm: num(x * CM_PER_UNIT, 2) };
}

/**
 * The report line's figures: { limbs: 'feet' | 'traced', maxError, rmsError, penetration } (units) for
 * a mode's result, or null when it has no report (a loaded VMD, a model without leg IK).
 */
export function reportFigures(motion) {
  const r = landingReport(motion);
  if (!r) return null;
  return { limbs: r.limbs?.leftHand ? 'traced' : 'feet', maxError: r.maxError, rmsError: r.rmsError, penetration: r.penetration };
}
