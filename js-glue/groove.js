// procmotion groove: the BPM oscillation layer over the wasm core (docs/groove.md).
//
//   const settings = pm.grooveConfig({ joints: { head: { amp: 5 } } });   // validated, merged
//   const groove = pm.createGroove(settings, skeleton);                   // per-frame use
//   const r = groove.offsets(pose, seconds, bpm);                         // offsets, body, legs
//   const { vmd } = pm.bakeGroove(baseVmd, skeleton, settings, 128);      // bake: VMD bytes and a report
//
// Part of procmotion's 'motion' feature module: motion.js puts grooveMethods on a ProcMotion when
// pm.loadAsync('motion') has loaded procmotion-motion.wasm.
// the layouts as constants (M.GROOVE_OUT_BEAT) that bundlers inline
import * as M from './dist/abi-motion.js';
import { GROOVE_FLAG, IK_MODE, LEG_MODE } from './dist/abi-motion.js';
import { GROOVE_JOINTS } from './constants.js';
import { PoseEvaluator, positionsOf, releaseHandle } from './pose.js';
import { ERROR_SIZE, ProcMotionError, gridBlock, putText, settingsText as settingsTextOf, withScratch } from './runtime.js';

const LEG_MODES = Object.keys(LEG_MODE);
const NO_INDEX = 0xffffffff;
const fail = (message, code = 'PM_ERR_INVALID_ARGUMENT') => new ProcMotionError(message, code, 'groove');

/** Settings as JSON text for the core (runtime.js settingsText, in the groove's name). */
const settingsText = (config, what) => settingsTextOf(config, 'groove', what);

export class Groove {
  constructor(pm, config, skeleton) {
    this.pm = pm;
    const mod = pm.mod;
    const s = pm._scratch();
    try {
      const errPtr = s.alloc(ERROR_SIZE);
      this.skeleton = pm._skeletonHandle(s, skeleton, errPtr, 'createGroove');
      const [json, len] = putText(s, settingsText(config, 'createGroove'));
      this.handle = mod.pm_abi_groove_create(this.skeleton, json, len, errPtr);
      if (!this.handle) pm._throw(s, errPtr, 'groove');
      this.boneCount = mod.pm_abi_skeleton_bone_count(this.skeleton);
      const infoPtr = s.alloc(M.GROOVE_INFO_COUNT * 4);
      mod.pm_abi_groove_info(this.handle, infoPtr);
      this._info = pm._copy(Uint32Array, infoPtr, M.GROOVE_INFO_COUNT);
      this.errPtr = mod.pm_abi_alloc(ERROR_SIZE);
      this.posPtr = mod.pm_abi_alloc(24);
    } catch (e) {
      this.dispose(); // whatever was made before the throw (settingsText throws after the skeleton exists)
      throw e;
    } finally {
      s.free();
    }
    const n = this.boneCount;
    // one buffer for every output, copied from module memory on each call (no allocation per call)
    this._out = new Float32Array(M.GROOVE_OUT_BONE_OFFSET + 4 * n);
    const o = this._out;
    const legBones = Array.from(this._info.subarray(M.GROOVE_INFO_LEG_BONE, M.GROOVE_INFO_LEG_BONE + 6));
    this.result = {
      beat: 0,
      bodyBone: this._info[M.GROOVE_INFO_BODY] === NO_INDEX ? -1 : this._info[M.GROOVE_INFO_BODY],
      bodyOffset: o.subarray(M.GROOVE_OUT_BODY, M.GROOVE_OUT_BODY + 3),
      legsSolved: false,
      legBones: legBones.map((b) => (b === NO_INDEX ? -1 : b)),
      legRotations: o.subarray(M.GROOVE_OUT_LEG_ROT, M.GROOVE_OUT_LEG_ROT + 24),
      anchors: o.subarray(M.GROOVE_OUT_ANCHOR, M.GROOVE_OUT_ANCHOR + 6),
      anchorRotations: o.subarray(M.GROOVE_OUT_ANCHOR_ROT, M.GROOVE_OUT_ANCHOR_ROT + 8),
      footError: o.subarray(M.GROOVE_OUT_FOOT_ERROR, M.GROOVE_OUT_FOOT_ERROR + 2),
      offsets: o.subarray(M.GROOVE_OUT_BONE_OFFSET),
    };
    this._boneNames = null;
  }

  /** Bone names in the skeleton's order. */
  get boneNames() {
    return (this._boneNames ??= this.pm._skeletonBoneNames(this.skeleton));
  }

  _check() {
    if (!this.handle) throw fail('Groove: already disposed');
  }

  _call(r) {
    if (r !== 0) throw this.pm._error(this.errPtr, 'groove');
  }

  /**
   * What the groove found on this skeleton: `joints` (joint name -> { bone, index } or null when the
   * model lacks the bone), `skipped` (joint names, plus 'squat' when the legs or body are missing),
   * `bodyBone`, `legBones` (left hip, knee, ankle, right hip, knee, ankle), `legMode` ('none',
   * 'analytic' or 'mmd-ik') and `legIkBones` (IK bones whose chains run through the legs).
   */
  get info() {
    this._check();
    const names = this.boneNames, i = this._info;
    const name = (b) => (b === NO_INDEX ? null : names[b]);
    const joints = {}, skipped = [];
    GROOVE_JOINTS.forEach((j, k) => {
      const b = i[M.GROOVE_INFO_JOINT_BONE + k];
      joints[j.name] = b === NO_INDEX ? null : { bone: names[b], index: b };
      if (b === NO_INDEX) skipped.push(j.name);
    });
    const legMode = LEG_MODES[i[M.GROOVE_INFO_LEG_MODE]] ?? 'none';
    if (legMode === 'none') skipped.push('squat');
    return {
      joints, skipped, bodyBone: name(i[M.GROOVE_INFO_BODY]), legBones: Array.from(i.subarray(M.GROOVE_INFO_LEG_BONE, M.GROOVE_INFO_LEG_BONE + 6), name),
      legMode, legIkBones: Array.from(i.subarray(M.GROOVE_INFO_LEG_IK, M.GROOVE_INFO_LEG_IK + i[M.GROOVE_INFO_LEG_IK_COUNT]), name),
    };
  }

  /** Replace the settings (validated; the anchors are kept). */
  setConfig(config) {
    this._check();
    return withScratch(this.pm, (s) => {
      const [json, len] = putText(s, settingsText(config, 'setConfig'));
      this._call(this.pm.mod.pm_abi_groove_set_config(this.handle, json, len, this.errPtr));
    });
  }

  /**
   * One frame of the layer. `pose`: null (the rest pose), a PoseEvaluator of the same skeleton
   * (sampled at timeSeconds * 30), or `{ rotations, translations? }` with the animated local
   * rotations (4 per bone, x y z w) and offsets from rest (3 per bone) in the skeleton's order (VMD
   * semantics: what babylon-mmd's runtime bones hold before append and IK). Options: `legIkUser`
   * (the user drives the legs by IK: the squat bounce yields), `resetAnchors`, `offsetsOnly` (joint
   * and body offsets without evaluating the pose or solving the legs: for a viewer whose own MMD leg
   * IK plants the feet; the pose may then be null whatever the motion).
   * Returns this.result, refilled on every call (copy what you keep): `beat`, `offsets` (4 per bone:
   * post-multiply onto each local rotation; identity for non-joints), `bodyBone` / `bodyOffset`
   * (add to that bone's position), `legsSolved`, `legBones` / `legRotations` (local rotations to
   * set with the leg IK off), `anchors`, `anchorRotations`, `footError`.
   */
  offsets(pose, timeSeconds, bpm, options = {}) {
    this._check();
    const pm = this.pm, mod = pm.mod, n = this.boneCount;
    let rot = 0, trans = 0;
    if (pose instanceof PoseEvaluator) {
      if (pose.boneCount !== n) throw fail(`groove: the PoseEvaluator has ${pose.boneCount} bones, the groove ${n}`);
      if (!Number.isFinite(timeSeconds)) throw fail('groove: time is not finite');
      this._call(mod.pm_abi_pose_sample(pose.handle, timeSeconds * 30, this.errPtr));
      rot = mod.pm_abi_pose_rotations(pose.handle);
      trans = mod.pm_abi_pose_translations(pose.handle);
    } else if (pose) {
      const r = pose.rotations, t = pose.translations ?? pose.positions;
      if (!r || r.length !== 4 * n) throw fail(`groove: pose.rotations must hold 4 x ${n} numbers`);
      if (t && t.length !== 3 * n) throw fail(`groove: pose.translations must hold 3 x ${n} numbers`);
      rot = mod.pm_abi_groove_rotations(this.handle);
      mod.HEAPF32.set(r, rot >> 2);
      if (t) {
        trans = mod.pm_abi_groove_translations(this.handle);
        mod.HEAPF32.set(t, trans >> 2);
      }
    }
    const flags = (options.legIkUser ? GROOVE_FLAG.legIkUser : 0) | (options.resetAnchors ? GROOVE_FLAG.resetAnchors : 0) |
      (options.offsetsOnly ? GROOVE_FLAG.offsetsOnly : 0);
    this._useGrid(bpm);
    this._call(mod.pm_abi_groove_offsets(this.handle, rot, trans, timeSeconds, typeof bpm === 'number' ? bpm : 60, flags, this.errPtr));
    const p = mod.pm_abi_groove_output(this.handle) >> 2;
    this._out.set(mod.HEAPF32.subarray(p, p + this._out.length));
    this.result.beat = this._out[M.GROOVE_OUT_BEAT];
    this.result.legsSolved = this._out[M.GROOVE_OUT_LEGS_SOLVED] === 1;
    return this.result;
  }

  /** Internal: hand the core the grid when `bpm` is one (a { bpm, offset }, a detectBeats result or a
   * beatGrid), once per grid object; a number clears it. */
  _useGrid(bpm) {
    const grid = bpm !== null && typeof bpm === 'object' ? bpm : null;
    if (grid === this._grid) return;
    return withScratch(this.pm, (s) => {
      const block = grid ? gridBlock(s, grid) : 0;
      this._call(this.pm.mod.pm_abi_groove_set_grid(this.handle, block, this.errPtr));
      this._grid = grid;
    });
  }

  /** World positions (3 per bone) of the grooved pose of the last offsets() call: a copy. */
  worldPositions() {
    this._check();
    const w = this.pm.mod.pm_abi_groove_world(this.handle) >> 2;
    return positionsOf(this.pm.mod.HEAPF32.subarray(w, w + 16 * this.boneCount));
  }

  /**
   * Preview without playback: remove the body offset added by the previous step from `position`
   * ({ x, y, z } such as a Babylon Vector3, or [x, y, z]; changed in place and returned), then add
   * this time's. Many steps leave the rest position exactly where it was.
   */
  previewStep(position, timeSeconds, bpm, options = {}) {
    this._check();
    return this._preview(position, (p) => this._call(this.pm.mod.pm_abi_groove_preview_step(
      this.handle, p, timeSeconds, bpm, options.legIkUser ? GROOVE_FLAG.legIkUser : 0, this.errPtr)));
  }

  /** Take the last preview offset back out of `position`. */
  previewStop(position) {
    this._check();
    return this._preview(position, (p) => this.pm.mod.pm_abi_groove_preview_stop(this.handle, p));
  }

  _preview(position, call) {
    const arr = Array.isArray(position) || ArrayBuffer.isView(position);
    const keys = arr ? [0, 1, 2] : ['x', 'y', 'z'];
    const f64 = this.pm.mod.HEAPF64, at = this.posPtr >> 3;
    keys.forEach((k, i) => { f64[at + i] = position[k]; });
    call(this.posPtr);
    keys.forEach((k, i) => { position[k] = this.pm.mod.HEAPF64[at + i]; });
    return position;
  }

  /** Capture the foot anchors again on the next call. */
  resetAnchors() {
    this._check();
    this.pm.mod.pm_abi_groove_reset_anchors(this.handle);
  }

  /** IK mode of an IK bone in the groove's own evaluation: 'auto', 'on' or 'off'. */
  setIkMode(boneName, mode) {
    this._check();
    const bone = this.boneNames.indexOf(boneName);
    if (bone < 0) throw fail(`setIkMode: no bone named ${boneName}`, 'PM_ERR_NOT_FOUND');
    if (!(mode in IK_MODE)) throw fail('setIkMode: mode must be auto, on or off');
    this._call(this.pm.mod.pm_abi_groove_set_ik_mode(this.handle, bone, IK_MODE[mode], this.errPtr));
  }

  /** Release the module memory. Safe to call twice. */
  dispose() {
    releaseHandle(this, 'pm_abi_groove_free', ['errPtr', 'posPtr']);
  }

}

export const grooveMethods = {
  /**
   * Validate groove settings and merge them over the defaults (and over `options.base`, earlier
   * settings). Returns the merged config, every field of every joint and of the squat, or with
   * `options.changedOnly` only the fields that differ from the defaults (what to store). Settings:
   * an object, JSON text or null. Unknown joints or fields and bad values throw ProcMotionError
   * naming them.
   */
  grooveConfig(config = null, options = {}) {
    return withScratch(this, (s) => {
      const [json, len] = putText(s, settingsText(config, 'grooveConfig'));
      const [base, baseLen] = putText(s, settingsText(options.base ?? null, 'grooveConfig'));
      return this._callForJson(s, 'groove', (out, size, err) => this.mod.pm_abi_groove_config(json, len, base, baseLen, options.changedOnly ? 1 : 0, out, size, err));
    });
  },

  /** A groove bound to a skeleton for per-frame use (see Groove.offsets). Call dispose() when done. */
  createGroove(config, skeleton) {
    return new Groove(this, config, skeleton);
  },

  /**
   * One frame without keeping a Groove: the result of Groove.offsets (copied). The foot anchors are
   * those of this very frame, so for a running squat bounce use createGroove.
   */
  grooveOffsets(config, skeleton, pose, timeSeconds, bpm, options = {}) {
    const g = new Groove(this, config, skeleton);
    try {
      const r = g.offsets(pose, timeSeconds, bpm, options);
      return {
        ...r, bodyOffset: r.bodyOffset.slice(), legBones: [...r.legBones], legRotations: r.legRotations.slice(),
        anchors: r.anchors.slice(), anchorRotations: r.anchorRotations.slice(), footError: r.footError.slice(),
        offsets: r.offsets.slice(),
      };
    } finally {
      g.dispose();
    }
  },

  /**
   * Bake the groove on top of `baseVmd` (VMD bytes, a readVmd() result, or null for the rest pose)
   * for `skeleton`: `{ vmd: Uint8Array, report }`. options: `frames` (last frame; default the base
   * motion's, or 16 beats), `positionTolerance` (units, default 0.002), `rotationTolerance` (degrees,
   * default 0.05). report: frames, legMode, keyedBones, keys, copiedKeys, maxPositionError,
   * maxRotationErrorDeg, maxFootError (measured: the played ankles' largest distance from where
   * the base puts them), skipped, landing (the landing report, docs/landing.md, or null).
   */
  bakeGroove(baseVmd, skeleton, config, bpm, options = {}) {
    const frames = options.frames ?? 0;
    if (!Number.isInteger(frames) || frames < 0) throw fail(`bakeGroove: frames must be a whole number >= 0, got ${frames}`);
    return this._withSkeletonAndMotions(skeleton, [baseVmd], (sk, [vmd], s, errPtr) => {
      const [json, len] = putText(s, settingsText(config, 'bakeGroove'));
      const out = s.alloc(16);
      // bpm: a number, or a beat grid (a { bpm, offset }, detectBeats' result, beatGrid's): the waves
      // then run on its beats and report.sync says how far each bounce valley is from its beat
      const grid = bpm !== null && typeof bpm === 'object' ? gridBlock(s, bpm) : 0;
      if (this.mod.pm_abi_groove_bake_json(sk, vmd, json, len, grid ? 0 : bpm, frames, options.positionTolerance ?? 0,
                                           options.rotationTolerance ?? 0, grid, out, out + 4, out + 8, out + 12, errPtr) !== 0) {
        this._throw(s, errPtr, 'groove');
      }
      return { vmd: this._takeBytes(out), report: JSON.parse(this._takeText(out + 8)) };
    }, 'bakeGroove');
  },
};
