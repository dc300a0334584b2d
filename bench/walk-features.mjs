// Walk features from keypoints: how a walk moves, in numbers a viewer would notice.
//
//   node bench/walk-features.mjs [walk.bvh walk.fbx dance.vmd ...] [--model model.pmx] [--write]
//
// Prints the features of the catwalk (every style, on the mannequin and a shared model) and of every
// motion file given, through toKeypoints, and whether each style lies in its range (the runway's:
// REAL_WALK_RANGES; the others': their family's). The tests import the measure and the ranges.
//
// Definitions (points are MediaPipe Pose points, 3D, Y up; L = thigh + shin):
// - elbowMean, elbowRange: elbow flexion (0 = straight), its mean and its 5-95 % spread, in degrees.
// - wristSwing: fore-aft spread (5-95 %) of the wrist relative to the shoulder, over the arm length.
// - shoulderYaw: half the 5-95 % spread of the shoulder line's yaw about the heading, in degrees.
// - shoulderWithPelvis: slope of the shoulder line's yaw on the hip line's yaw (+ turns with the
//   pelvis, - against it).
// - headOverPelvis: the head's lateral motion in the world over the pelvis's.
// - pelvisSway: half the 5-95 % spread of the pelvis's lateral position in the world, over L. The
//   keypoints hold the pelvis still, so its world motion is the stance foot's motion reversed.
// - hipRoll: half the 5-95 % spread of the hip line's roll, in degrees.
// - kneeMidStance, kneeSwing: the stance knee's flexion when the swing ankle passes it, and the
//   swing knee's largest flexion, medians over the steps, in degrees.
// The heading is the hip line's normal averaged over one stride; amplitudes use the middle 90 % of
// the walk so that starting and stopping do not count.

import { median, quantile } from './stats.mjs';

const NOSE = 0, LSH = 11, RSH = 12, LEL = 13, REL = 14, LWR = 15, RWR = 16;
const LHIP = 23, RHIP = 24, LKN = 25, RKN = 26, LAN = 27, RAN = 28, LTOE = 31, RTOE = 32, LHEEL = 29, RHEEL = 30;
const DEG = 180 / Math.PI;

/**
 * The range each feature takes over four real motion-captured stylised walks (a sexy, a strutting, a
 * feminine and a proud walk, as the catwalk's brief measured them). The catwalk's defaults lie inside.
 */
export const REAL_WALK_RANGES = {
  elbowMean: [27, 40],
  elbowRange: [18, 43],
  wristSwing: [0.6, 1.12],
  shoulderYaw: [8, 30],
  headOverPelvis: [0.55, 1.6],
  pelvisSway: [0.047, 0.065],
  hipRoll: [3.5, 11],
  kneeMidStance: [11, 30],
  kneeSwing: [55, 77],
};

/**
 * Each style's family of real walks: the smallest and largest value of every feature over its clips,
 * measured with this script (docs/catwalk.md lists them). They are not in the repository: their
 * licences do not allow it.
 */
export const WALK_FAMILIES = {
  runway: { clips: ['Catwalk Walk (two characters)'], features: {
    elbowMean: [34.1, 36.6], elbowRange: [30.5, 31.6], wristSwing: [0.80, 0.91], shoulderYaw: [9.3, 9.7],
    headOverPelvis: [0.86, 0.92], pelvisSway: [0.051, 0.054], hipRoll: [8.6, 9.5], kneeMidStance: [29.5, 29.9],
    kneeSwing: [112.9, 115.5] } },
  feminine: { clips: ['Female Walk', 'Female Walk (a second take)'], features: {
    elbowMean: [22.5, 22.5], elbowRange: [25.2, 25.2], wristSwing: [0.43, 0.44], shoulderYaw: [7.1, 7.1],
    headOverPelvis: [0.64, 0.89], pelvisSway: [0.028, 0.029], hipRoll: [4.6, 5.0], kneeMidStance: [28.5, 29.4],
    kneeSwing: [62.3, 63.5] } },
  casual: { clips: ['Walking (four characters)'], features: {
    elbowMean: [21.7, 38.1], elbowRange: [25.3, 39.3], wristSwing: [0.60, 0.91], shoulderYaw: [6.5, 13.4],
    headOverPelvis: [0.38, 2.30], pelvisSway: [0.032, 0.052], hipRoll: [1.7, 5.4], kneeMidStance: [14.9, 29.1],
    kneeSwing: [67.9, 72.0] } },
  strut: { clips: ['strutting_01 (Xia et al. 2015 motion capture)'], features: {
    elbowMean: [29.6, 29.6], elbowRange: [27.8, 27.8], wristSwing: [0.62, 0.62], shoulderYaw: [13.3, 13.3],
    headOverPelvis: [1.21, 1.21], pelvisSway: [0.061, 0.061], hipRoll: [3.3, 3.3], kneeMidStance: [6.8, 6.8],
    kneeSwing: [57.7, 57.7] } },
};

/** The least margin a family's range is widened by: a short clip's measure moves by about this much. */
const FAMILY_MARGIN = {
  elbowMean: 5, elbowRange: 5, wristSwing: 0.1, shoulderYaw: 3, headOverPelvis: 0.2, pelvisSway: 0.01, hipRoll: 1.5,
  kneeMidStance: 5, kneeSwing: 5,
};

/** A family's range widened on each side by a quarter of its mean, or FAMILY_MARGIN where that is more:
 * what a style is held to. */
export function familyRange(style) {
  const out = {};
  for (const [k, [lo, hi]] of Object.entries(WALK_FAMILIES[style].features)) {
    const m = Math.max(0.25 * Math.abs(lo + hi) / 2, FAMILY_MARGIN[k]);
    out[k] = [lo - m, hi + m];
  }
  return out;
}

/** Each feature's label and unit, in table order. */
export const FEATURE_LABELS = {
  elbowMean: 'elbow flexion mean (deg)',
  elbowRange: 'elbow flexion range (deg)',
  wristSwing: 'wrist fore-aft swing / arm length',
  shoulderYaw: 'shoulder-line yaw amplitude (deg)',
  shoulderWithPelvis: 'shoulder yaw on pelvis yaw (+ with, - against)',
  headOverPelvis: 'head lateral / pelvis lateral',
  pelvisSway: 'pelvis lateral sway / L',
  hipRoll: 'hip-line roll amplitude (deg)',
  kneeMidStance: 'knee at mid-stance (deg)',
  kneeSwing: 'knee peak in swing (deg)',
};

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a) => Math.hypot(a[0], a[1], a[2]);
const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];

/** Flexion at joint b of the chain a-b-c in degrees (0 = straight). */
function flexion(a, b, c) {
  const u = sub(a, b), v = sub(c, b);
  const cos = dot(u, v) / (len(u) * len(v) || 1);
  return 180 - Math.acos(Math.max(-1, Math.min(1, cos))) * DEG;
}

const spread = (values) => quantile(values, 0.95) - quantile(values, 0.05);
const mean = (values) => values.reduce((s, v) => s + v, 0) / (values.length || 1);

/** Centred moving average over `w` samples (clamped at the ends). */
function smooth(values, w) {
  const h = Math.max(0, Math.floor(w / 2)), n = values.length, out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0, c = 0;
    for (let j = Math.max(0, i - h); j <= Math.min(n - 1, i + h); j++) { s += values[j]; c++; }
    out[i] = s / c;
  }
  return out;
}

/** Wraps an angle difference into (-pi, pi]. */
const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));

/**
 * The features of a walk from its keypoints (toKeypoints' result). `options.loop`: the motion is one
 * loop (a game clip of one or two strides), measured played four times over. Throws when the motion
 * has fewer than four steps to measure.
 */
export function walkFeatures(kp, options = {}) {
  const reps = options.loop ? 4 : 1;
  const n0 = kp.frameCount, n = n0 * reps;
  const P = (f, i) => {
    const o = ((f % n0) * 33 + i) * 3, p = kp.points;
    return [p[o] - 0.5, 0.5 - p[o + 1], -p[o + 2]];
  };
  // Stance foot: the lower ankle. Steps: changes of stance foot, debounced by 3 frames.
  const stance = new Int8Array(n);
  let cur = P(0, LAN)[1] <= P(0, RAN)[1] ? 0 : 1;
  for (let f = 0; f < n; f++) {
    const dy = P(f, LAN)[1] - P(f, RAN)[1];
    const lower = dy <= 0 ? 0 : 1;
    if (lower !== cur) {
      let holds = true;
      for (let g = f; g < Math.min(n, f + 3); g++) {
        if ((P(g, LAN)[1] - P(g, RAN)[1] <= 0 ? 0 : 1) !== lower) holds = false;
      }
      if (holds) cur = lower;
    }
    stance[f] = cur;
  }
  const switches = [];
  for (let f = 1; f < n; f++) if (stance[f] !== stance[f - 1]) switches.push(f);
  if (switches.length < 4) throw new Error(`walkFeatures: ${switches.length} steps found, at least 4 needed`);
  const stepFrames = median(switches.slice(1).map((f, i) => f - switches[i]));
  const stride = Math.max(3, Math.round(2 * stepFrames));
  // The middle 90 % of the stepping part.
  const from = Math.max(0, switches[0]), to = Math.min(n, switches[switches.length - 1] + 1);
  const cut = Math.floor((to - from) * 0.05);
  const a = from + cut, b = to - cut;
  const frames = [];
  for (let f = a; f < b; f++) frames.push(f);

  // Heading from the hip line, averaged over a stride.
  const hipYaw = new Float64Array(n);
  let prev = 0;
  for (let f = 0; f < n; f++) {
    const l = sub(P(f, LHIP), P(f, RHIP));
    let y = Math.atan2(l[2], l[0]);
    y = prev + wrap(y - prev); // unwrap
    hipYaw[f] = prev = y;
  }
  const heading = smooth(hipYaw, stride);
  const lat = (f) => [Math.cos(heading[f]), 0, Math.sin(heading[f])];
  // Forward: across the hip line, the way the toes point.
  let toeSign = 0;
  for (const f of frames) {
    const fwd0 = [-Math.sin(heading[f]), 0, Math.cos(heading[f])];
    toeSign += dot(sub(P(f, LTOE), P(f, LHEEL)), fwd0) + dot(sub(P(f, RTOE), P(f, RHEEL)), fwd0);
  }
  const s = toeSign >= 0 ? 1 : -1;
  const fwd = (f) => [-s * Math.sin(heading[f]), 0, s * Math.cos(heading[f])];

  const legL = median(frames.map((f) => (len(sub(P(f, LHIP), P(f, LKN))) + len(sub(P(f, LKN), P(f, LAN))) +
                                         len(sub(P(f, RHIP), P(f, RKN))) + len(sub(P(f, RKN), P(f, RAN)))) / 2));
  const armL = median(frames.map((f) => (len(sub(P(f, LSH), P(f, LEL))) + len(sub(P(f, LEL), P(f, LWR))) +
                                         len(sub(P(f, RSH), P(f, REL))) + len(sub(P(f, REL), P(f, RWR)))) / 2));

  const out = {};
  const elbows = [[LSH, LEL, LWR], [RSH, REL, RWR]].map(([sh, el, wr]) => frames.map((f) => flexion(P(f, sh), P(f, el), P(f, wr))));
  out.elbowMean = mean(elbows.map(mean));
  out.elbowRange = mean(elbows.map(spread));
  out.wristSwing = mean([[LSH, LWR], [RSH, RWR]].map(([sh, wr]) => spread(frames.map((f) => dot(sub(P(f, wr), P(f, sh)), fwd(f)))))) / armL;

  const yawOf = (f, l, r) => {
    const v = sub(P(f, l), P(f, r));
    return wrap(Math.atan2(v[2], v[0]) - heading[f]) * DEG;
  };
  const shYaw = frames.map((f) => yawOf(f, LSH, RSH)), hpYaw = frames.map((f) => yawOf(f, LHIP, RHIP));
  out.shoulderYaw = spread(shYaw) / 2;
  const ms = mean(shYaw), mh = mean(hpYaw);
  let sxy = 0, sxx = 0;
  for (let i = 0; i < frames.length; i++) { sxy += (hpYaw[i] - mh) * (shYaw[i] - ms); sxx += (hpYaw[i] - mh) ** 2; }
  out.shoulderWithPelvis = sxx > 0 ? sxy / sxx : 0;

  // The pelvis's lateral position in the world: the stance ankle is still in the world, so the
  // pelvis moves as the stance ankle moves in the keypoints' frame, reversed.
  // Near double support (ankles within 2 % of L in height) both feet are taken, half each.
  const pelvisLat = new Float64Array(n);
  for (let f = 1; f < n; f++) {
    const dl = dot(sub(P(f, LAN), P(f - 1, LAN)), lat(f)), dr = dot(sub(P(f, RAN), P(f - 1, RAN)), lat(f));
    const dy = P(f, LAN)[1] - P(f, RAN)[1];
    const d = Math.abs(dy) < 0.02 * legL ? (dl + dr) / 2 : dy < 0 ? dl : dr;
    pelvisLat[f] = pelvisLat[f - 1] - d;
  }
  const pelvisTrend = smooth(pelvisLat, stride);
  const pelvisSway = frames.map((f) => pelvisLat[f] - pelvisTrend[f]);
  const headRel = (f) => dot(sub(P(f, NOSE), mid(P(f, LHIP), P(f, RHIP))), lat(f));
  const headTrend = smooth(Float64Array.from({ length: n }, (_, f) => pelvisLat[f] + headRel(f)), stride);
  const headSway = frames.map((f) => pelvisLat[f] + headRel(f) - headTrend[f]);
  out.headOverPelvis = spread(headSway) / (spread(pelvisSway) || 1);
  out.pelvisSway = spread(pelvisSway) / 2 / legL;

  out.hipRoll = spread(frames.map((f) => {
    const v = sub(P(f, LHIP), P(f, RHIP));
    return Math.asin(Math.max(-1, Math.min(1, v[1] / (len(v) || 1)))) * DEG;
  })) / 2;

  // Knees per step: mid-stance is where the swing ankle passes the stance ankle going forward.
  const knee = (f, side) => side === 0 ? flexion(P(f, LHIP), P(f, LKN), P(f, LAN)) : flexion(P(f, RHIP), P(f, RKN), P(f, RAN));
  const mids = [], peaks = [];
  for (let k = 0; k + 1 < switches.length; k++) {
    const s0 = switches[k], s1 = switches[k + 1];
    if (s0 < a || s1 > b) continue;
    const st = stance[s0], sw = 1 - st;
    const stA = st === 0 ? LAN : RAN, swA = sw === 0 ? LAN : RAN;
    let best = -1, bestAbs = Infinity, peak = -Infinity;
    for (let f = s0; f < s1; f++) {
      const ahead = Math.abs(dot(sub(P(f, swA), P(f, stA)), fwd(f)));
      if (ahead < bestAbs) { bestAbs = ahead; best = f; }
      peak = Math.max(peak, knee(f, sw));
    }
    if (best >= 0) mids.push(knee(best, st));
    peaks.push(peak);
  }
  out.kneeMidStance = median(mids);
  out.kneeSwing = median(peaks);
  out.steps = switches.length;
  out.stepFrames = stepFrames;
  return out;
}

/** Every feature outside `ranges` (default REAL_WALK_RANGES), as "name value (lo-hi)". */
export function outsideRealRange(features, ranges = REAL_WALK_RANGES) {
  const bad = [];
  for (const [k, [lo, hi]] of Object.entries(ranges)) {
    const v = features[k];
    if (!(v >= lo && v <= hi)) bad.push(`${k} ${Number(v).toFixed(3)} (${+lo.toFixed(3)}-${+hi.toFixed(3)})`);
  }
  return bad;
}

/** A table of feature rows (name -> features) as Markdown. */
export function featureTable(rows) {
  const names = Object.keys(rows);
  const head = `| feature | ${names.join(' | ')} |\n|---|${names.map(() => '---|').join('')}`;
  const lines = Object.entries(FEATURE_LABELS).map(([k, label]) =>
    `| ${label} | ${names.map((n) => { const v = rows[n][k]; return Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3); }).join(' | ')} |`);
  return [head, ...lines].join('\n');
}

async function main() {
  const { readFileSync, existsSync } = await import('node:fs');
  const { basename } = await import('node:path');
  const { createProcMotion, FEATURE_MODULES } = await import('../js-glue/index.js');
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const args = process.argv.slice(2);
  let model = null;
  const files = [];
  let write = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--model') model = new Uint8Array(readFileSync(args[++i]));
    else if (args[i] === '--write') write = true;
    else files.push(args[i]);
  }
  const rows = {}, ranges = {};
  const shared = new URL('../../shared/fixtures/pmx/mmt_test_model.pmx', import.meta.url);
  const models = { mannequin: null };
  if (existsSync(shared)) models.mmt = new Uint8Array(readFileSync(shared));
  for (const style of Object.keys(WALK_FAMILIES)) {
    for (const [mname, bytes] of Object.entries(models)) {
      const r = pm.generateCatwalkVmd({ style }, null, null, null, bytes ? { skeleton: bytes } : undefined);
      const kp = pm.toKeypoints(r.vmd, bytes ? { model: bytes } : {});
      const name = `${style} (${mname})`;
      rows[name] = walkFeatures(kp);
      ranges[name] = style === 'runway' ? REAL_WALK_RANGES : familyRange(style);
    }
  }
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    const kp = pm.toKeypoints(bytes, file.endsWith('.vmd') && model ? { model, fps: 30 } : { fps: 30 });
    try {
      rows[basename(file)] = walkFeatures(kp, { loop: kp.frameCount < 90 });
    } catch (e) {
      console.error(`${basename(file)}: ${e.message}`);
    }
  }
  const table = featureTable(rows);
  const verdicts = Object.entries(ranges).map(([name, range]) => {
    const bad = outsideRealRange(rows[name], range);
    return `- ${name}: ${bad.length ? `outside its range: ${bad.join(', ')}` : 'every feature inside its range'}`;
  });
  console.log(`${table}\n\n${verdicts.join('\n')}`);
  if (write) {
    // the section of docs/benchmarks.md between <!-- walks-table --> and <!-- /walks-table -->
    const { writeFileSync } = await import('node:fs');
    const md = new URL('../docs/benchmarks.md', import.meta.url);
    const text = readFileSync(md, 'utf8');
    const a = text.indexOf('<!-- walks-table -->'), b = text.indexOf('<!-- /walks-table -->');
    if (a < 0 || b < a) throw new Error('docs/benchmarks.md has no <!-- walks-table --> section');
    const stamp = `_Written by \`node bench/walk-features.mjs\` on ${new Date().toISOString().slice(0, 10)}._`;
    writeFileSync(md, `${text.slice(0, a)}<!-- walks-table -->\n${stamp}\n\n${table}\n\n${verdicts.join('\n')}\n${text.slice(b)}`);
    console.error('walk-features: wrote docs/benchmarks.md');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
