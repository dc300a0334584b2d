// The keypoint overlay's DOM-free part: MediaPipe Pose's connection table, which side each point and
// connection belongs to, and the lookup of the keypoint sample at the playhead (a node test checks
// them). The frames come from pm.toKeypoints (docs/keypoints.md): per frame 33 x (x, y, z) in
// normalised image coordinates, 33 visibilities and the ten angle cosines.

/** MediaPipe Pose's POSE_CONNECTIONS between the 33 landmarks (35 pairs, MediaPipe's order). */
export const POSE_CONNECTIONS = Object.freeze([
  [0, 1], [1, 2], [2, 3], [3, 7], [0, 4], [4, 5], [5, 6], [6, 8], [9, 10],
  [11, 12], [11, 13], [13, 15], [15, 17], [15, 19], [15, 21], [17, 19],
  [12, 14], [14, 16], [16, 18], [16, 20], [16, 22], [18, 20],
  [11, 23], [12, 24], [23, 24], [23, 25], [24, 26], [25, 27], [26, 28],
  [27, 29], [28, 30], [29, 31], [30, 32], [27, 31], [28, 32],
].map((c) => Object.freeze(c)));

/** -1 the character's left, 1 its right, 0 the nose (MediaPipe: odd indices are left from 1 to 31). */
export function pointSide(i) {
  return i <= 10 ? FACE_SIDES[i] : i % 2 === 1 ? -1 : 1;
}
// nose, left eye inner/eye/outer, right eye inner/eye/outer, left ear, right ear, mouth left, right
const FACE_SIDES = [0, -1, -1, -1, 1, 1, 1, -1, 1, -1, 1];

/** A connection's side: its points' side when they agree or one is the nose, else 0 (across the body). */
export function connectionSide([a, b]) {
  const sa = pointSide(a);
  const sb = pointSide(b);
  if (sa === sb) return sa;
  if (sa === 0) return sb;
  if (sb === 0) return sa;
  return 0;
}

/** The ten angles as the overlay lays them out: left/right rows, then the two centre angles. */
export const ANGLE_ROWS = Object.freeze([
  { key: 'shoulder', left: 0, right: 1 },
  { key: 'elbow', left: 2, right: 3 },
  { key: 'hip', left: 4, right: 5 },
  { key: 'knee', left: 6, right: 7 },
  { key: 'neck', centre: 8 },
  { key: 'spine', centre: 9 },
]);

/** The angle in whole degrees of a cosine (clamped to [-1, 1]; NaN gives 0). */
export function cosineToDegrees(c) {
  if (Number.isNaN(c)) return 0;
  return Math.round((Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI);
}

/**
 * Where time `ms` falls in `timestamps` (sorted, milliseconds): out.i0, out.i1 and out.f in [0, 1]
 * with the sample at ms = lerp(frame i0, frame i1, f). Before the first frame and after the last
 * the end frame holds. Fills and returns `out` (no allocation: it runs every rendered frame).
 */
export function keypointFrameAt(timestamps, ms, out = { i0: 0, i1: 0, f: 0 }) {
  const n = timestamps.length;
  out.i0 = 0; out.i1 = 0; out.f = 0;
  if (n === 0 || !(ms > timestamps[0])) return out;
  if (ms >= timestamps[n - 1]) { out.i0 = out.i1 = n - 1; return out; }
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (timestamps[mid] <= ms) lo = mid;
    else hi = mid;
  }
  const span = timestamps[hi] - timestamps[lo];
  out.i0 = lo;
  out.i1 = hi;
  out.f = span > 0 ? (ms - timestamps[lo]) / span : 0;
  return out;
}

/** Buffers for one interpolated keypoint frame (allocated once, refilled by sampleKeypoints). */
export function createKeypointSample() {
  return { points: new Float32Array(99), visibility: new Float32Array(33), angles: new Float32Array(10),
    at: { i0: 0, i1: 0, f: 0 } };
}

/**
 * The keypoints at time `ms` into `sample` (createKeypointSample): points and angle cosines
 * interpolated linearly between the two 30 fps frames around it, visibility from the nearer one.
 * Returns false when the sequence has no frames.
 */
export function sampleKeypoints(kp, ms, sample) {
  if (!kp || !(kp.frameCount > 0)) return false;
  const { i0, i1, f } = keypointFrameAt(kp.timestamps, ms, sample.at);
  const g = 1 - f;
  const P = kp.points;
  const a = 99 * i0;
  const b = 99 * i1;
  for (let k = 0; k < 99; k++) sample.points[k] = P[a + k] * g + P[b + k] * f;
  const V = kp.visibility;
  const v = 33 * (f < 0.5 ? i0 : i1);
  for (let k = 0; k < 33; k++) sample.visibility[k] = V[v + k];
  const A = kp.angles;
  for (let k = 0; k < 10; k++) sample.angles[k] = A[10 * i0 + k] * g + A[10 * i1 + k] * f;
  return true;
}

/**
 * A fixed view of a whole sequence for a width x height figure: the centre (cx, cy) of the box
 * around every point with visibility > 0 in every frame, in image coordinates, and the uniform scale
 * (figure pixels per image unit) that fits the box with a margin. The figure then neither jumps nor
 * rescales while the motion plays, and a tall standing body fills the figure. Fills `out`.
 */
export function fitView(kp, width, height, out = { cx: 0.5, cy: 0.5, scale: 1 }, margin = 0.1) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const n = kp?.frameCount ?? 0;
  for (let f = 0; f < n; f++) {
    for (let i = 0; i < 33; i++) {
      if (!(kp.visibility[33 * f + i] > 0)) continue;
      const x = kp.points[99 * f + 3 * i];
      const y = kp.points[99 * f + 3 * i + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (!(x1 >= x0 && y1 >= y0)) { x0 = 0; y0 = 0; x1 = 1; y1 = 1; }
  // never zoom in beyond a quarter of the image (a motion that barely moves stays recognisable)
  const w = Math.max(x1 - x0, 0.25 * (width / height));
  const h = Math.max(y1 - y0, 0.25);
  out.cx = (x0 + x1) / 2;
  out.cy = (y0 + y1) / 2;
  out.scale = Math.min(width / (w * (1 + 2 * margin)), height / (h * (1 + 2 * margin)));
  return out;
}
