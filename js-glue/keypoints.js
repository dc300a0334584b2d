// procmotion's 'keypoints' feature module (procmotion-keypoints.wasm): motion (BVH, VMD, glTF/GLB/VRM,
// keypoint JSON) to MediaPipe Pose 33 keypoints, and their codecs. index.js imports this file on the
// first pm.loadAsync('keypoints') (all.js at startup) and puts `api` on the ProcMotion (docs/keypoints.md).
// the layout as constants (A.KEYPOINTS_FRAMES) that bundlers inline
import * as A from './dist/abi-keypoints.js';
import { KP_ENCODING, KP_FORMAT, KP_LEGS } from './dist/abi-keypoints.js';
import { retargetMethods } from './retarget.js';
import { scoringMethods } from './scoring.js';
import { ERROR_SIZE, checkCount, cString, invalid, toBytes, utf8Decoder, utf8Encoder, withScratch } from './runtime.js';

// 'glb' is another name for 'gltf' (the core tells them apart by their bytes)
const FORMATS = { ...KP_FORMAT, glb: KP_FORMAT.gltf };
const FORMAT_NAMES = Object.keys(KP_FORMAT);
const LEGS = { [KP_LEGS.fk]: 'fk', [KP_LEGS.ik]: 'ik' };

export const api = {
  ...retargetMethods,
  ...scoringMethods,
  /** The 33 MediaPipe Pose point names, in index order. */
  get keypointNames() {
    this._kpNames ??= Array.from({ length: 33 }, (_, i) => cString(this.mod, this.mod.pm_abi_kp_point_name(i), 64));
    return this._kpNames;
  },

  /** The ten joint-angle names, in the order of `angles` (see docs/keypoints.md). */
  get keypointAngleNames() {
    this._kpAngles ??= Array.from({ length: 10 }, (_, i) => cString(this.mod, this.mod.pm_abi_kp_angle_name(i), 64));
    return this._kpAngles;
  },

  /**
   * Convert a motion to a MediaPipe Pose 33-point sequence. `input`: BVH, VMD, glTF/GLB, binary FBX,
   * mediapipe33 JSON, NDJSON or binary keypoint frames (a string is taken as UTF-8 text). `options`: { format
   * ('auto' (default), 'bvh', 'vmd', 'gltf', 'glb', 'fbx', 'json', 'ndjson' or 'binary'), fps, animation,
   * maxFrames, model } (model: PMX/PMD bytes whose own skeleton and IK play a VMD; default the mannequin).
   * Returns { frameCount, fps, mirrored, timestamps: Float64Array (milliseconds, as MediaPipe's), points:
   * Float32Array (x, y, z per point, 99 per frame), visibility: Float32Array (33 per frame), angles:
   * Float32Array (10 per frame), pointNames, angleNames, stats }.
   */
  toKeypoints(input, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw invalid('keypoints', `toKeypoints: options must be an object ({ format, fps, animation, maxFrames, model }), got ${options}`);
    }
    const data = typeof input === 'string' ? utf8Encoder.encode(input) : toBytes(input, 'toKeypoints', 'keypoints');
    const format = options.format ?? 'auto';
    const code = FORMATS[format];
    if (code === undefined) throw invalid('keypoints', `toKeypoints: unknown format '${format}' (${Object.keys(FORMATS).join(', ')})`);
    const fps = options.fps ?? 0;
    if (typeof fps !== 'number' || !Number.isFinite(fps) || fps < 0) throw invalid('keypoints', 'toKeypoints: options.fps must be a finite number >= 0');
    return withScratch(this, (s) => {
      const dataPtr = s.put(data);
      const model = options.model ? toBytes(options.model, 'toKeypoints: options.model', 'keypoints') : null;
      const modelPtr = model ? s.put(model) : 0;
      const errPtr = s.alloc(ERROR_SIZE);
      const seq = this.mod.pm_abi_kp_from_data(dataPtr, data.byteLength, code, fps,
        checkCount(options.animation ?? 0, 'toKeypoints: options.animation', 'keypoints'),
        checkCount(options.maxFrames ?? 0, 'toKeypoints: options.maxFrames', 'keypoints'), modelPtr, model ? model.byteLength : 0, errPtr);
      if (!seq) this._throw(s, errPtr, 'keypoints');
      try {
        return this._kpFromHandle(seq, s);
      } finally {
        this.mod.pm_abi_kp_free(seq);
      }
    });
  },

  _kpFromHandle(seq, s) {
    const dPtr = s.alloc(A.KEYPOINTS_COUNT * 8);
    this.mod.pm_abi_kp_describe(seq, dPtr);
    const d = this._copy(Float64Array, dPtr, A.KEYPOINTS_COUNT);
    const n = d[A.KEYPOINTS_FRAMES];
    return {
      frameCount: n,
      fps: d[A.KEYPOINTS_FPS],
      mirrored: d[A.KEYPOINTS_MIRRORED] !== 0,
      timestamps: this._copy(Float64Array, d[A.KEYPOINTS_TIMESTAMPS], n),
      points: this._copy(Float32Array, d[A.KEYPOINTS_POINTS], n * 99),
      visibility: this._copy(Float32Array, d[A.KEYPOINTS_VISIBILITY], n * 33),
      angles: this._copy(Float32Array, d[A.KEYPOINTS_ANGLES], n * 10),
      pointNames: this.keypointNames,
      angleNames: this.keypointAngleNames,
      stats: {
        format: FORMAT_NAMES.find((k) => KP_FORMAT[k] === d[A.KEYPOINTS_FORMAT]) ?? 'auto',
        family: cString(this.mod, d[A.KEYPOINTS_FAMILY], 32),
        sourceJoints: d[A.KEYPOINTS_SOURCE_JOINTS],
        ignoredBones: d[A.KEYPOINTS_IGNORED],
        directPoints: d[A.KEYPOINTS_DIRECT],
        inferredPoints: d[A.KEYPOINTS_INFERRED],
        missingPoints: d[A.KEYPOINTS_MISSING],
        nanCount: d[A.KEYPOINTS_NAN],
        outOfRange: d[A.KEYPOINTS_OUT_OF_RANGE],
        scale: d[A.KEYPOINTS_SCALE],
        legs: LEGS[d[A.KEYPOINTS_LEGS]] ?? null,
      },
    };
  },

  /** Build a core sequence from a toKeypoints-shaped object; `fn(handle, scratch)` runs with it. */
  _withKpSequence(seq, fn) {
    if (!seq || typeof seq !== 'object') throw invalid('keypoints', 'expected a keypoint sequence');
    const n = checkCount(seq.frameCount ?? (seq.timestamps ? seq.timestamps.length : 0), 'keypoints: frameCount', 'keypoints');
    const need = (arr, len, what) => {
      if (!arr || arr.length < len) throw invalid('keypoints', `keypoints: ${what} has ${arr ? arr.length : 0} values, ${len} needed`);
      return arr;
    };
    return withScratch(this, (s) => {
      const ts = s.put(need(seq.timestamps, n, 'timestamps'), Float64Array);
      const pts = s.put(need(seq.points, n * 99, 'points'), Float32Array);
      const vis = s.put(need(seq.visibility, n * 33, 'visibility'), Float32Array);
      const errPtr = s.alloc(ERROR_SIZE);
      const h = this.mod.pm_abi_kp_make(n, ts, pts, vis, seq.mirrored ? 1 : 0, errPtr);
      if (!h) this._throw(s, errPtr, 'keypoints');
      try {
        return fn(h, s);
      } finally {
        this.mod.pm_abi_kp_free(h);
      }
    });
  },

  _kpEncode(h, s, kind) {
    return this._callForBuffer(s, 'keypoints', (outPtr, sizePtr, errPtr) => this.mod.pm_abi_kp_encode(h, kind, outPtr, sizePtr, errPtr));
  },

  /**
   * Write a keypoint sequence (toKeypoints' result or the same shape) as a file: `{ format: 'ndjson' }`
   * (default) -> string, one frame per line; `{ format: 'binary' }` -> Uint8Array of 239-byte frames.
   * Values are checked (finite, in range). toKeypoints reads both back.
   */
  writeKeypoints(seq, { format = 'ndjson' } = {}) {
    if (format !== 'ndjson' && format !== 'binary') throw invalid('keypoints', `writeKeypoints: format must be 'ndjson' or 'binary', got '${format}'`);
    const bytes = this._withKpSequence(seq, (h, s) => this._kpEncode(h, s, KP_ENCODING[format]));
    return format === 'ndjson' ? utf8Decoder.decode(bytes) : bytes;
  },

  /**
   * Feature vectors for a matcher: Float32Array of frameCount x 109 (33 x (x, y, z) with points of
   * visibility < 0.5 interpolated from neighbouring frames, then the ten angle cosines).
   */
  keypointFeatures(seq) {
    const bytes = this._withKpSequence(seq, (h, s) => this._kpEncode(h, s, KP_ENCODING.features));
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  },
};
