// Dance scoring in the browser: a performance (keypoints, MediaPipe landmarks from a camera, or any motion
// toKeypoints reads) against a reference motion, whole or frame by frame (docs/scoring.md).
//
//   const result = pm.scoreDance(referenceVmd, landmarkFrames, { mirrored: true, fps: 30 });
//   const live = pm.createDanceScorer(referenceVmd, { referenceOptions: { model: pmx } });
//   camera.onFrame((landmarks) => show(live.push(landmarks).score));
//
// Part of procmotion's 'keypoints' feature module (keypoints.js puts scoringMethods on a ProcMotion).
import * as A from './dist/abi-keypoints.js';
import { ERROR_SIZE, checkCount, invalid, toBytes, utf8Encoder, withScratch } from './runtime.js';

const PARTS = ['left_arm', 'right_arm', 'left_leg', 'right_leg', 'torso'];

/** MediaPipe landmark frames (arrays of 33 { x, y, z, visibility } or [x, y, z, visibility]) as mediapipe33 JSON. */
function landmarkJson(frames, fps) {
  const point = (p, f, i) => {
    const v = Array.isArray(p) ? p : p && [p.x, p.y, p.z ?? 0, p.visibility ?? 1];
    if (!v) throw invalid('scoring', `scoreDance: landmark frame ${f} point ${i} is not an object or an array`);
    return v;
  };
  return JSON.stringify({
    format: 'mediapipe33@0.1.0',
    fps,
    frames: frames.map((frame, f) => {
      const list = Array.isArray(frame) ? frame : frame?.landmarks;
      if (!Array.isArray(list) || list.length !== 33) throw invalid('scoring', `scoreDance: landmark frame ${f} must hold 33 points`);
      const out = { points: list.map((p, i) => point(p, f, i)) };
      if (typeof frame?.timestamp === 'number') out.timestamp = frame.timestamp;
      return out;
    }),
  });
}

const isSequence = (x) => x && typeof x === 'object' && !ArrayBuffer.isView(x) && !(x instanceof ArrayBuffer) && !Array.isArray(x) && x.points;

const checkOptions = (options, what) => {
  if (options === null || typeof options !== 'object') throw invalid('scoring', `${what}: options must be an object, got ${options}`);
  const num = (v, name, lo, hi, fallback) => {
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw invalid('scoring', `${what}: options.${name} must be a number in ${lo}..${hi}, got ${v}`);
    return v;
  };
  return {
    band: num(options.band, 'band', 0, 1, 0),
    maxOffset: num(options.maxOffset, 'maxOffset', 0, 3600, 0),
    fps: num(options.fps, 'fps', 1, 1000, 30),
  };
};

export const scoringMethods = {
  /** Run fn(handle) with `input` as a core keypoint sequence (freed after). */
  _withKpInput(input, kpOptions, fps, fn) {
    if (isSequence(input)) return this._withKpSequence(input, (h) => fn(h));
    const data = Array.isArray(input) ? utf8Encoder.encode(landmarkJson(input, fps))
      : typeof input === 'string' ? utf8Encoder.encode(input) : toBytes(input, 'scoreDance', 'scoring');
    const o = kpOptions ?? {};
    return withScratch(this, (s) => {
      const model = o.model ? toBytes(o.model, 'scoreDance: model', 'scoring') : null;
      const errPtr = s.alloc(ERROR_SIZE);
      const h = this.mod.pm_abi_kp_from_data(s.put(data), data.byteLength, 0, o.fps ?? 0,
        checkCount(o.animation ?? 0, 'scoreDance: animation', 'scoring'), 0, model ? s.put(model) : 0, model ? model.byteLength : 0, errPtr);
      if (!h) this._throw(s, errPtr, 'scoring');
      try {
        return fn(h);
      } finally {
        this.mod.pm_abi_kp_free(h);
      }
    });
  },

  /**
   * Score a performance against a reference, 0 to 100. Each may be a keypoint sequence (toKeypoints'
   * result), anything toKeypoints reads (VMD with `referenceOptions.model`, BVH, FBX, glTF, keypoint
   * files), or MediaPipe landmark frames (an array of frames of 33 { x, y, z, visibility }, at
   * `options.fps`). options: { mirrored (the performance comes from a selfie camera), band (tempo drift
   * allowed, default 0.35), maxOffset (seconds the performance may start late, default 5), fps,
   * referenceOptions, performanceOptions (toKeypoints options) }. Returns { score, offset, fps,
   * resampled, perFrame, match, path, joints: { left_arm: { score, lag }, ... } }.
   */
  scoreDance(reference, performance, options = {}) {
    const o = checkOptions(options, 'scoreDance');
    return this._withKpInput(reference, options.referenceOptions, o.fps, (ref) =>
      this._withKpInput(performance, options.performanceOptions, o.fps, (perf) => withScratch(this, (s) => {
        const errPtr = s.alloc(ERROR_SIZE);
        const r = this.mod.pm_abi_score_dance(ref, perf, o.band, o.maxOffset, options.mirrored ? 1 : 0, errPtr);
        if (!r) this._throw(s, errPtr, 'scoring');
        try {
          const dPtr = s.alloc(A.SCORE_COUNT * 8);
          this.mod.pm_abi_score_describe(r, dPtr);
          const d = this._copy(Float64Array, dPtr, A.SCORE_COUNT);
          const n = d[A.SCORE_FRAMES];
          const joints = {};
          PARTS.forEach((name, k) => { joints[name] = { score: d[A.SCORE_PART_SCORE + k], lag: d[A.SCORE_PART_LAG + k] }; });
          return {
            score: d[A.SCORE_SCORE],
            offset: d[A.SCORE_OFFSET],
            fps: d[A.SCORE_FPS],
            resampled: d[A.SCORE_RESAMPLED] !== 0,
            perFrame: this._copy(Float32Array, d[A.SCORE_PER_FRAME], n),
            match: this._copy(Uint32Array, d[A.SCORE_MATCH], n),
            path: this._copy(Uint32Array, d[A.SCORE_PATH], 2 * d[A.SCORE_PATH_LENGTH]),
            joints,
          };
        } finally {
          this.mod.pm_abi_score_free(r);
        }
      })));
  },

  /**
   * Live scoring: `push(landmarks)` per camera frame (33 { x, y, z, visibility }, or { points: 99 numbers,
   * visibility: 33 }) returns { score (running), frameScore, referenceFrame, frames, scored }; the frame
   * scored is two behind the one pushed (each is smoothed with the two after it). `dispose()` when done.
   * options as scoreDance's.
   */
  createDanceScorer(reference, options = {}) {
    const o = checkOptions(options, 'createDanceScorer');
    const stream = this._withKpInput(reference, options.referenceOptions, o.fps, (ref) => withScratch(this, (s) => {
      const errPtr = s.alloc(ERROR_SIZE);
      const h = this.mod.pm_abi_score_stream_new(ref, o.band, o.maxOffset, options.mirrored ? 1 : 0, errPtr);
      if (!h) this._throw(s, errPtr, 'scoring');
      return h;
    }));
    const pm = this;
    let handle = stream;
    return {
      push(frame) {
        if (!handle) throw invalid('scoring', 'createDanceScorer: push after dispose()');
        const points = new Float32Array(99), visibility = new Float32Array(33).fill(1);
        if (Array.isArray(frame) && frame.length === 33) {
          frame.forEach((p, i) => {
            const v = Array.isArray(p) ? p : [p?.x, p?.y, p?.z ?? 0, p?.visibility ?? 1];
            points.set([v[0], v[1], v[2]], i * 3);
            visibility[i] = v[3] ?? 1;
          });
        } else if (frame && frame.points && frame.points.length >= 99) {
          points.set(Array.from(frame.points).slice(0, 99));
          if (frame.visibility) visibility.set(Array.from(frame.visibility).slice(0, 33));
        } else {
          throw invalid('scoring', 'createDanceScorer: push takes 33 landmarks or { points, visibility }');
        }
        return withScratch(pm, (s) => {
          const nowPtr = s.alloc(5 * 8), errPtr = s.alloc(ERROR_SIZE);
          if (pm.mod.pm_abi_score_stream_push(handle, s.put(points, Float32Array), s.put(visibility, Float32Array), nowPtr, errPtr) !== 0) {
            pm._throw(s, errPtr, 'scoring');
          }
          const n = pm._copy(Float64Array, nowPtr, 5);
          return { score: n[0], frameScore: n[1], referenceFrame: n[2], frames: n[3], scored: n[4] };
        });
      },
      dispose() {
        if (handle) pm.mod.pm_abi_score_stream_free(handle);
        handle = 0;
      },
    };
  },
};
