// Tracing: hands and feet that follow a drawn path. Attached to ProcMotion by the motion module (motion.js):
//
//   const p = pm.sampleTrajectory('curve', [[2, -1, -2], [3, 0, -2.5], [2, 1.5, -3]], 0.5); // [x, y, z]
//   const tl = pm.createTimeline(pmxBytes);          // or a skeleton object from pm.readPmx
//   tl.setTrajectory('leftHand', { mode: 'curve', points: relPoints });
//   tl.generateKeyframes('leftHand', { count: 5, startBeat: 0, beatStep: 1 });
//   const pose = tl.evaluate(0.75);                  // seconds
//   const { vmd, report } = tl.bake(128);            // VMD bytes and what MMD plays
//   const again = pm.timelineFromJSON(JSON.stringify(tl), pmxBytes);
//   tl.dispose(); again.dispose();
//
// Points and poles are offsets from the limb root bone's world position (腕 for hands, 足 for feet), in
// MMD units and model axes. The C core does the work (procmotion/tracing.h); keyframes cross the
// boundary as JSON objects in the documented schema (docs/tracing.md). Part of procmotion's 'motion'
// feature module: motion.js puts tracingMethods on a ProcMotion when pm.loadAsync('motion') has loaded
// procmotion-motion.wasm.
// the layouts as constants (M.TRACE_BAKE_VMD) that bundlers inline
import * as M from './dist/abi-motion.js';
import { TRAJECTORY_MODE } from './dist/abi-motion.js';
import { TRACE_EASINGS as EASINGS, TRACE_LIMBS as LIMBS } from './constants.js';
import { positionsOf, releaseHandle } from './pose.js';
import { ERROR_SIZE, ProcMotionError, gridBlock, invalid as invalidIn, toBytes, utf8Encoder as utf8, withScratch } from './runtime.js';

const MODES = Object.keys(TRAJECTORY_MODE);
const MAX_POINTS = M.TRAJECTORY_POLE / 3;

function invalid(message) {
  return invalidIn('tracing', message);
}

function limbIndex(limb) {
  const i = LIMBS.indexOf(limb);
  if (i < 0) throw invalid(`tracing: limb must be one of ${LIMBS.join(', ')}, got ${limb}`);
  return i;
}

function modeIndex(mode) {
  const i = MODES.indexOf(mode);
  if (i < 0) throw invalid(`tracing: mode must be "line" or "curve", got ${mode}`);
  return i;
}

function packEasing(easing = 'linear') {
  const v = typeof easing === 'string' ? EASINGS[easing] : easing;
  if (!v || v.length !== 4 || !Array.from(v).every((x) => Number.isInteger(x) && x >= 0 && x <= 127)) {
    throw invalid(`tracing: easing must be ${Object.keys(EASINGS).join(', ')} or [x1, y1, x2, y2] in 0..127`);
  }
  return (v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24)) >>> 0;
}

/** Points ([[x, y, z], ...] or a flat array) as a Float32Array of 3 per point. */
function flatPoints(points, what = 'points') {
  if (!points || typeof points.length !== 'number') throw invalid(`tracing: ${what} must be an array of [x, y, z]`);
  const flat = Array.isArray(points[0]) || ArrayBuffer.isView(points[0]) ? points.flatMap((p) => Array.from(p)) : Array.from(points);
  if (flat.length % 3 || flat.length > 3 * MAX_POINTS) throw invalid(`tracing: ${what} must hold up to ${MAX_POINTS} points of [x, y, z]`);
  return new Float32Array(flat);
}

function vec3(p, what) {
  if (!p || p.length !== 3 || !Array.from(p).every(Number.isFinite)) throw invalid(`tracing: ${what} must be [x, y, z] finite`);
  return Array.from(p);
}

/** Methods added to ProcMotion (see index.d.ts). */
export const tracingMethods = {
  /**
   * The point at arc-length fraction t (0..1, clamped) of the path through relPoints: mode 'line' (polyline)
   * or 'curve' (centripetal Catmull-Rom with >= 3 points). t may be an array: then a Float32Array of 3 per t.
   */
  sampleTrajectory(mode, relPoints, t) {
    const m = modeIndex(mode);
    const pts = flatPoints(relPoints, 'relPoints');
    const many = typeof t !== 'number';
    const ts = new Float32Array(many ? Array.from(t ?? []) : [t]);
    if (!many && !Number.isFinite(t)) throw invalid('tracing: t is not finite');
    return withScratch(this, (s) => {
      const out = s.alloc(ts.length * 12);
      const err = s.alloc(ERROR_SIZE);
      if (this.mod.pm_abi_trajectory_sample(m, s.put(pts, Float32Array), pts.length / 3, s.put(ts, Float32Array), ts.length, out, err) !== 0) {
        this._throw(s, err, 'tracing');
      }
      const r = this._copy(Float32Array, out, ts.length * 3);
      return many ? r : Array.from(r);
    });
  },

  /** The arc length of the path (what sampleTrajectory's t is a fraction of). */
  trajectoryLength(mode, relPoints) {
    const m = modeIndex(mode);
    const pts = flatPoints(relPoints, 'relPoints');
    return withScratch(this, (s) => {
      const out = s.alloc(8);
      const err = s.alloc(ERROR_SIZE);
      if (this.mod.pm_abi_trajectory_length(m, s.put(pts, Float32Array), pts.length / 3, out, err) !== 0) this._throw(s, err, 'tracing');
      return this.mod.HEAPF64[out >> 3];
    });
  },

  /** An empty tracing timeline on a skeleton (object from readPmx, or PMX/PMD bytes). options.bpm (120). */
  createTimeline(skeleton, options = {}) {
    return new Timeline(this, skeleton, null, options);
  },

  /** A timeline from its JSON (a string or the object toJSON() gives), bound to a skeleton. */
  timelineFromJSON(json, skeleton) {
    const text = typeof json === 'string' ? json : JSON.stringify(json);
    return new Timeline(this, skeleton, text, {});
  },
};

/** A keyframe timeline with traced limbs, inside the module. Call dispose() when done. */
export class Timeline {
  constructor(pm, skeleton, json, options) {
    this.pm = pm;
    const mod = pm.mod;
    const s = pm._scratch();
    try {
      const err = s.alloc(ERROR_SIZE);
      // any typed-array view is taken as bytes here (the other skeleton takers want Uint8Array or ArrayBuffer)
      const bytes = ArrayBuffer.isView(skeleton) ? toBytes(skeleton) : skeleton;
      this.skeleton = pm._skeletonHandle(s, bytes, err, 'createTimeline');
      if (json !== null) {
        const text = utf8.encode(json);
        this.handle = mod.pm_abi_timeline_from_json(this.skeleton, s.put(text), text.byteLength, err);
      } else {
        const bpm = options.bpm ?? 0;
        if (!Number.isFinite(bpm)) throw invalid('createTimeline: bpm is not finite');
        this.handle = mod.pm_abi_timeline_create(this.skeleton, bpm, err);
      }
      if (!this.handle) pm._throw(s, err, 'tracing');
      this.boneCount = mod.pm_abi_skeleton_bone_count(this.skeleton);
      this.errPtr = mod.pm_abi_alloc(ERROR_SIZE);
    } catch (e) {
      this.dispose(); // whatever was made before the throw (the bpm check throws after the skeleton exists)
      throw e;
    } finally {
      s.free();
    }
    this._boneNames = null;
  }

  _check() {
    if (!this.handle) throw invalid('Timeline: already disposed');
  }

  /** Run fn(scratch, errPtr) and turn a non-zero result into a ProcMotionError. */
  _call(fn) {
    this._check();
    return withScratch(this.pm, (s) => {
      const err = s.alloc(ERROR_SIZE);
      if (fn(s, err) !== 0) this.pm._throw(s, err, 'tracing');
    });
  }

  /** Bone names of the skeleton, in pose order. */
  get boneNames() {
    return (this._boneNames ??= this.pm._skeletonBoneNames(this.skeleton));
  }

  get bpm() {
    this._check();
    return this.pm.mod.pm_abi_timeline_bpm(this.handle);
  }

  set bpm(value) {
    this._call((s, err) => this.pm.mod.pm_abi_timeline_set_bpm(this.handle, value, err));
  }

  get keyframeCount() {
    this._check();
    return this.pm.mod.pm_abi_timeline_keyframe_count(this.handle);
  }

  /** The id the next generateKeyframes will use. */
  get nextTraceId() {
    this._check();
    return this.pm.mod.pm_abi_timeline_next_trace_id(this.handle);
  }

  /** Internal: the JSON an export hands back through (out, size), call(out, size, err), parsed. */
  _json(call) {
    this._check();
    return withScratch(this.pm, (s) => this.pm._callForJson(s, 'tracing', call));
  }

  /** Internal: _call for an export that writes a uint32 (an index, an id) through p, call(s, p, err): that number. */
  _u32(call) {
    let value = 0;
    this._call((s, err) => {
      const p = s.alloc(4);
      const r = call(s, p, err);
      value = this.pm.mod.HEAPU32[p >> 2];
      return r;
    });
    return value;
  }

  /** Keyframe i as { beat, easing, rotations: {bone: [x,y,z,w]}, translations: {bone: [x,y,z]}, traces? }. */
  getKeyframe(i) {
    return this._json((out, size, err) => this.pm.mod.pm_abi_timeline_keyframe_json(this.handle, i, out, size, err));
  }

  /** All keyframes, sorted by beat. */
  get keyframes() {
    return Array.from({ length: this.keyframeCount }, (_, i) => this.getKeyframe(i));
  }

  /**
   * Add a keyframe (or replace the one at the same beat); returns its index. With `rotations` or
   * `translations` ({bone: values}; bones left out rest) it is taken as given (traces too, if any);
   * with neither, the pose the timeline plays at `beat` is captured as a hand-made keyframe.
   */
  addKeyframe({ beat, easing = 'linear', rotations, translations, traces } = {}) {
    if (!Number.isFinite(beat)) throw invalid('addKeyframe: beat must be a finite number');
    if (rotations === undefined && translations === undefined && traces === undefined) {
      const packed = packEasing(easing);
      return this._u32((s, idx, err) => this.pm.mod.pm_abi_timeline_capture_keyframe(this.handle, beat, packed, idx, err));
    }
    const text = utf8.encode(JSON.stringify({ beat, easing, rotations: rotations ?? {}, translations: translations ?? {}, ...(traces ? { traces } : {}) }));
    return this._u32((s, idx, err) => this.pm.mod.pm_abi_timeline_set_keyframe_json(this.handle, s.put(text), text.byteLength, idx, err));
  }

  removeKeyframe(index) {
    this._call((s, err) => this.pm.mod.pm_abi_timeline_remove_keyframe(this.handle, index, err));
  }

  /** Remove every keyframe (drafts stay). */
  clear() {
    this._check();
    this.pm.mod.pm_abi_timeline_clear(this.handle);
  }

  /** Set a limb's draft trajectory: { mode: 'line' | 'curve', points: [[x,y,z], ...], pole?: [x,y,z] } (offsets from the limb root). */
  setTrajectory(limb, { mode = 'line', points = [], pole } = {}) {
    const l = limbIndex(limb), m = modeIndex(mode);
    const pts = flatPoints(points);
    const p = pole ? new Float32Array(vec3(pole, 'pole')) : new Float32Array(3);
    this._call((s, err) => this.pm.mod.pm_abi_timeline_set_trajectory(this.handle, l, m, s.put(pts, Float32Array), pts.length / 3, pole ? 1 : 0, s.put(p, Float32Array), err));
  }

  /** A limb's draft ({ mode, points, pole? }) or null. */
  getTrajectory(limb) {
    const l = limbIndex(limb);
    this._check();
    return withScratch(this.pm, (s) => {
      const out = s.alloc(M.TRAJECTORY_COUNT * 4), info = s.alloc(M.TRAJECTORY_INFO_COUNT * 4);
      const n = this.pm.mod.pm_abi_timeline_trajectory(this.handle, l, out, info);
      if (!n) return null;
      const f = this.pm._copy(Float32Array, out, M.TRAJECTORY_COUNT);
      const i = this.pm._copy(Uint32Array, info, M.TRAJECTORY_INFO_COUNT);
      const points = Array.from({ length: n }, (_, k) => Array.from(f.subarray(M.TRAJECTORY_POINTS + 3 * k, M.TRAJECTORY_POINTS + 3 * k + 3)));
      const pole = i[M.TRAJECTORY_INFO_HAS_POLE] ? { pole: Array.from(f.subarray(M.TRAJECTORY_POLE, M.TRAJECTORY_POLE + 3)) } : {};
      return { mode: MODES[i[M.TRAJECTORY_INFO_MODE]], points, ...pole };
    });
  }

  clearTrajectory(limb) {
    const l = limbIndex(limb);
    this._call((s, err) => this.pm.mod.pm_abi_timeline_set_trajectory(this.handle, l, 0, 0, 0, 0, 0, err));
  }

  /** World position of the limb's root bone (腕 / 足) in the pose played at `timeSeconds`. */
  rootPosition(limb, timeSeconds = 0) {
    const bones = { leftHand: '左腕', rightHand: '右腕', leftFoot: '左足', rightFoot: '右足' };
    limbIndex(limb);
    const pose = this.evaluate(timeSeconds);
    const b = pose.boneNames.indexOf(bones[limb]);
    if (b < 0) throw new ProcMotionError(`tracing: the skeleton has no ${bones[limb]}`, 'PM_ERR_NOT_FOUND', 'tracing');
    return Array.from(pose.positions.subarray(3 * b, 3 * b + 3));
  }

  /**
   * Append a control point to a limb's draft at a WORLD position (e.g. where the IK target sphere is):
   * it is stored as the offset from the limb root's position at `timeSeconds`. Returns the draft.
   */
  addControlPoint(limb, worldPoint, timeSeconds = 0, mode) {
    const w = vec3(worldPoint, 'worldPoint');
    const root = this.rootPosition(limb, timeSeconds);
    const draft = this.getTrajectory(limb) ?? { mode: mode ?? 'line', points: [] };
    draft.points.push([w[0] - root[0], w[1] - root[1], w[2] - root[2]]);
    if (mode) draft.mode = mode;
    this.setTrajectory(limb, draft);
    return draft;
  }

  /** The pole offset used when a draft has none (hands: elbow hangs; feet: knee forward). */
  defaultPole(limb) {
    const l = limbIndex(limb);
    let out;
    this._call((s, err) => {
      const p = s.alloc(12);
      const r = this.pm.mod.pm_abi_timeline_default_pole(this.handle, l, p, err);
      out = Array.from(this.pm._copy(Float32Array, p, 3));
      return r;
    });
    return out;
  }

  /**
   * Generate `count` (2..20) keyframes along the limb's draft (or { mode, points, pole } given here,
   * which become the draft) from `startBeat`, `beatStep` beats apart; each solves the two-bone IK and
   * carries the trace data. Returns the new trace id.
   */
  generateKeyframes(limb, { count, startBeat = 0, beatStep = 1, easing = 'linear', mode, points, pole } = {}) {
    const l = limbIndex(limb);
    if (points) this.setTrajectory(limb, { mode: mode ?? 'line', points, pole });
    else if (mode) {
      const d = this.getTrajectory(limb);
      if (d) this.setTrajectory(limb, { ...d, mode });
    }
    if (!Number.isInteger(count)) throw invalid('generateKeyframes: count must be an integer 2..20');
    const packed = packEasing(easing);
    return this._u32((s, idPtr, err) => this.pm.mod.pm_abi_timeline_generate(this.handle, l, count, startBeat, beatStep, packed, idPtr, err));
  }

  _pose(when, byBeat) {
    this._check();
    if (!Number.isFinite(when)) throw invalid(`Timeline.evaluate: ${byBeat ? 'beat' : 'time'} is not finite`);
    const pm = this.pm, mod = pm.mod;
    if (mod.pm_abi_timeline_evaluate(this.handle, when, byBeat ? 1 : 0, this.errPtr) !== 0) throw pm._error(this.errPtr, 'tracing');
    const n = this.boneCount;
    const world = pm._copy(Float32Array, mod.pm_abi_timeline_world(this.handle), 16 * n);
    const positions = positionsOf(world);
    const traces = {};
    withScratch(pm, (s) => {
      const st = s.alloc(M.TRACE_STATE_COUNT * 4);
      const v3 = (v, slot) => Array.from(v.subarray(slot, slot + 3));
      LIMBS.forEach((limb, l) => {
        mod.pm_abi_timeline_trace_state(this.handle, l, st);
        const v = pm._copy(Float32Array, st, M.TRACE_STATE_COUNT);
        traces[limb] = { active: v[M.TRACE_STATE_ACTIVE] === 1, id: v[M.TRACE_STATE_ID], t: v[M.TRACE_STATE_T], root: v3(v, M.TRACE_STATE_ROOT), target: v3(v, M.TRACE_STATE_TARGET), pole: v3(v, M.TRACE_STATE_POLE), miss: v[M.TRACE_STATE_MISS] };
      });
    });
    return {
      boneNames: this.boneNames,
      keyRotations: pm._copy(Float32Array, mod.pm_abi_timeline_rotations(this.handle), 4 * n),
      translations: pm._copy(Float32Array, mod.pm_abi_timeline_translations(this.handle), 3 * n),
      rotations: pm._copy(Float32Array, mod.pm_abi_timeline_final_rotations(this.handle), 4 * n),
      positions,
      world,
      traces,
    };
  }

  /**
   * The pose at `timeSeconds`: { boneNames, keyRotations (local, what keyframes and the VMD hold, 4 per
   * bone), translations (3 per bone), rotations (final local after append and IK), positions (world, 3 per
   * bone), world (16 per bone), traces: { leftHand: { active, id, t, root, target, pole, miss }, ... } }.
   */
  evaluate(timeSeconds) {
    return this._pose(timeSeconds, false);
  }

  /** evaluate() at a beat instead of a time. */
  evaluateBeat(beat) {
    return this._pose(beat, true);
  }

  /** Internal: a beat grid for the bake (bpm a { bpm, offset }, detectBeats' result or a beatGrid), or
   * none (a number: that tempo); returns the tempo argument for the export. */
  _bakeGrid(s, bpm, err, what) {
    const grid = bpm !== null && typeof bpm === 'object';
    if (!grid && !Number.isFinite(bpm)) throw invalid(`${what}: bpm is not finite`);
    const r = this.pm.mod.pm_abi_timeline_set_grid(this.handle, grid ? gridBlock(s, bpm) : 0, err);
    if (r !== 0) return null;
    return grid ? 0 : bpm;
  }

  /**
   * Bake, and say where the hands and feet are meant to be and what MMD plays (docs/landing.md):
   * `{ vmd, plan: { frames, hands, ankles, active }, report }`. plan.hands / plan.ankles: Float32Array,
   * 6 per whole frame 0 .. frames (left xyz, right xyz, world): on traced frames the path's point, else
   * where the keyframes put the limb; plan.active: Uint8Array, 4 per frame (leftHand, rightHand,
   * leftFoot, rightFoot), 1 = following a trace. report: the bake played with the MMD-exact evaluator,
   * each limb measured against the plan over its traced frames.
   */
  bake(bpm = 0) {
    let out;
    this._call((s, err) => {
      const tempo = this._bakeGrid(s, bpm, err, 'bake');
      if (tempo === null) return 1;
      bpm = tempo;
      const o = s.alloc(M.TRACE_BAKE_COUNT * 4);
      const r = this.pm.mod.pm_abi_timeline_bake_plan(this.handle, bpm, o, err);
      if (r !== 0) return r;
      const at = (slot) => o + 4 * slot;
      const vmd = this.pm._takeBytes(at(M.TRACE_BAKE_VMD));
      const hands = this.pm._takeArray(Float32Array, at(M.TRACE_BAKE_HANDS));
      const ankles = this.pm._takeArray(Float32Array, at(M.TRACE_BAKE_ANKLES));
      const active = this.pm._takeArray(Uint8Array, at(M.TRACE_BAKE_ACTIVE));
      const report = JSON.parse(this.pm._takeText(at(M.TRACE_BAKE_REPORT)));
      out = { vmd, plan: { frames: active.length / 4 - 1, hands, ankles, active }, report };
      return 0;
    });
    return out;
  }

  /** The timeline as a plain object in the JSON schema of docs/tracing.md (JSON.stringify(tl) works). */
  toJSON() {
    return this._json((out, size, err) => this.pm.mod.pm_abi_timeline_to_json(this.handle, out, size, err));
  }

  /** Release the module memory. Safe to call twice. */
  dispose() {
    releaseHandle(this, 'pm_abi_timeline_free');
  }

}
