// Dance scoring through the glue (wasm): two 3-minute keypoint sequences (5,400 frames at 30 fps; the CMU
// walk, and the same walk 25 % faster, each repeated to 3 minutes) scored against each other; beside it
// the textbook full-matrix DTW in JavaScript on the same sequences (99 coordinates a frame, no band), the
// first thing one would write, for scale.
import { readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const FRAMES = 5400;

function threeMinutes(kp) {
  const out = { frameCount: FRAMES, fps: 30, timestamps: Float64Array.from({ length: FRAMES }, (_, i) => (i * 1000) / 30),
    points: new Float32Array(FRAMES * 99), visibility: new Float32Array(FRAMES * 33) };
  for (let f = 0; f < FRAMES; f++) {
    const g = f % kp.frameCount;
    out.points.set(kp.points.subarray(g * 99, g * 99 + 99), f * 99);
    out.visibility.set(kp.visibility.subarray(g * 33, g * 33 + 33), f * 33);
  }
  return out;
}

async function sequences(path) {
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const bytes = readFileSync(path);
  return { pm, ref: threeMinutes(pm.toKeypoints(bytes, { fps: 30 })), perf: threeMinutes(pm.toKeypoints(bytes, { fps: 24 })) };
}

function fullDtw(a, b) {
  const n = a.frameCount, m = b.frameCount;
  let prev = new Float64Array(m + 1).fill(Infinity), cur = new Float64Array(m + 1);
  prev[0] = 0;
  for (let i = 1; i <= n; i++) {
    cur[0] = Infinity;
    for (let j = 1; j <= m; j++) {
      let d = 0;
      for (let k = 0; k < 99; k++) {
        const x = a.points[(i - 1) * 99 + k] - b.points[(j - 1) * 99 + k];
        d += x * x;
      }
      cur[j] = Math.sqrt(d) + Math.min(prev[j - 1], prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[m];
}

export const impls = {
  async 'procmotion wasm scoreDance'(path) {
    const { pm, ref, perf } = await sequences(path);
    const r = pm.scoreDance(ref, perf);
    return { items: FRAMES, unit: 'frames', label: `two 3-minute sequences (${FRAMES} frames each), score ${r.score.toFixed(1)}`,
      run: () => pm.scoreDance(ref, perf) };
  },
  async 'full-matrix DTW in JavaScript (textbook loop)'(path) {
    const { ref, perf } = await sequences(path);
    return { items: FRAMES, unit: 'frames', run: () => fullDtw(ref, perf) };
  },
};
