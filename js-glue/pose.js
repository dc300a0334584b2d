// procmotion's 'motion' feature module, part 1: models (PMX/PMD skeletons, humanoid mapping, the
// mannequin) and pose evaluation. motion.js puts these methods on a ProcMotion when
// pm.loadAsync('motion') has loaded procmotion-motion.wasm.
// the layouts as constants (M.POSE_INFO_TRACKS) that bundlers inline
import * as M from './dist/abi-motion.js';
import { HUMANOID_NAMING, IK_MODE, POSE_FLAG } from './dist/abi-motion.js';
import { HUMANOID_BONES } from './constants.js';
import { ERROR_SIZE, ProcMotionError, checkCount, invalid, toBytes, utf8Encoder, withScratch } from './runtime.js';

const NAMINGS = Object.keys(HUMANOID_NAMING);

/** mapHumanoid's result from the core's HUMANOID slots `r`, whose bone indices index `names`. */
function humanoidMap(r, names) {
  const bones = {}, naming = {};
  HUMANOID_BONES.forEach((h, i) => {
    bones[h] = r[M.HUMANOID_BONE + i] === 0xffffffff ? null : names[r[M.HUMANOID_BONE + i]];
    naming[h] = NAMINGS[r[M.HUMANOID_NAMING_SLOT + i]] ?? 'none';
  });
  const missingRequired = [];
  for (let k = 0; k < r[M.HUMANOID_MISSING_COUNT]; k++) missingRequired.push(HUMANOID_BONES[r[M.HUMANOID_MISSING + k]]);
  return { bones, naming, mapped: r[M.HUMANOID_MAPPED], total: r[M.HUMANOID_TOTAL], missingRequired, drivable: r[M.HUMANOID_DRIVABLE] === 1 };
}

// ---- helpers of the motion module's handles (groove.js, tracing.js use them too) ---------------------

/** Internal: the translations (3 per bone) of column-major 4x4 world matrices (16 per bone). */
export function positionsOf(world) {
  const n = world.length / 16;
  const positions = new Float32Array(3 * n);
  for (let b = 0; b < n; b++) positions.set(world.subarray(16 * b + 12, 16 * b + 15), 3 * b);
  return positions;
}

/**
 * Internal: dispose() of the glue's handle classes (PoseEvaluator, Groove, Timeline): frees the core
 * handle with its own free export, the skeleton and the buffers named in `buffers` (each
 * freed with `mod.pm_abi_free`), and zeroes the fields, so a second call does nothing.
 */
export function releaseHandle(owner, freeHandle, buffers = ['errPtr']) {
  const mod = owner.pm.mod;
  if (owner.handle) mod[freeHandle](owner.handle);
  if (owner.skeleton) mod.pm_abi_skeleton_free(owner.skeleton);
  for (const b of buffers) if (owner[b]) mod.pm_abi_free(owner[b]);
  owner.handle = owner.skeleton = 0;
  for (const b of buffers) owner[b] = 0;
}

export const modelMethods = {
  /**
   * Read a PMX (2.0/2.1) or PMD model's skeleton: `{ format, modelName, modelNameEn, source, bones:
   * [{ name, nameEn, position, parent, transformOrder, flags, tail | tailBone, append?, ik? }],
   * morphNames }` (schema in docs/formats.md). Vertices, faces and materials are skipped.
   */
  readPmx(bytes) {
    const data = toBytes(bytes, 'readPmx', 'model');
    return withScratch(this, (s) => {
      const dataPtr = s.put(data);
      return this._callForJson(s, 'model', (out, size, err) => this.mod.pm_abi_model_read_json(dataPtr, data.byteLength, out, size, err));
    });
  },

  /**
   * Internal: a skeleton handle (the caller frees it) made in the module from `skeleton`, an object
   * shaped like readPmx's result or PMX/PMD bytes. Throws ProcMotionError: '`what`: expected ...' for
   * anything else, the core's message when it rejects the input.
   */
  _skeletonHandle(s, skeleton, errPtr, what) {
    let handle;
    if (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer) {
      const data = toBytes(skeleton, what, 'model');
      handle = this.mod.pm_abi_skeleton_from_model(s.put(data), data.byteLength, errPtr);
    } else if (skeleton && typeof skeleton === 'object') {
      const json = utf8Encoder.encode(JSON.stringify(skeleton));
      handle = this.mod.pm_abi_skeleton_from_json(s.put(json), json.byteLength, errPtr);
    } else {
      throw invalid('skeleton', `${what}: expected a skeleton object or PMX/PMD bytes`);
    }
    if (!handle) this._throw(s, errPtr, 'skeleton');
    return handle;
  },

  /**
   * Internal: fn(handle, scratch, errPtr) with a skeleton made by _skeletonHandle (`what` names the
   * call in errors), freeing the skeleton and the scratch afterwards.
   */
  _withSkeleton(skeleton, fn, what = 'skeleton') {
    const s = this._scratch();
    let handle = 0;
    try {
      const errPtr = s.alloc(ERROR_SIZE);
      handle = this._skeletonHandle(s, skeleton, errPtr, what);
      return fn(handle, s, errPtr);
    } finally {
      if (handle) this.mod.pm_abi_skeleton_free(handle);
      s.free();
    }
  },

  /**
   * Internal: fn(skeleton handle, motion handles, scratch, errPtr) with the model (_skeletonHandle) and
   * each of `motions` (VMD bytes or readVmd's shape; null: handle 0) in the module, all freed afterwards.
   */
  _withSkeletonAndMotions(skeleton, motions, fn, what) {
    const handles = [];
    return this._withSkeleton(skeleton, (sk, s, errPtr) => {
      try {
        for (const m of motions) {
          const h = m ? this._vmdHandle(s, m, errPtr, what) : 0;
          if (m && !h) this._throw(s, errPtr, 'vmd');
          handles.push(h);
        }
        return fn(sk, handles, s, errPtr);
      } finally {
        for (const h of handles) if (h) this.mod.pm_abi_vmd_free(h);
      }
    }, what);
  },

  /** Internal: the bone names of a skeleton handle, in the skeleton's (and every pose output's) order. */
  _skeletonBoneNames(skeleton) {
    const json = withScratch(this, (s) => this._callForJson(s, 'skeleton', (out, size, err) => this.mod.pm_abi_skeleton_to_json(skeleton, out, size, err)));
    return json.bones.map((b) => b.name);
  },

  /**
   * Map bone names (an array of strings, a skeleton object, or PMX/PMD bytes) to the 22 humanoid bones:
   * `{ bones: { hips: name | null, ... }, naming: { hips: 'mmd' | 'vroid' | ... }, mapped, total,
   * missingRequired: [...], drivable }`. A skeleton or a model goes to the core's resolver whole, so
   * its English names (`nameEn`) map what its names leave unmapped, as in analyzeRig and the VRM export.
   */
  mapHumanoid(input) {
    const bytes = input instanceof Uint8Array || input instanceof ArrayBuffer;
    if (!Array.isArray(input) && !bytes && !(input && Array.isArray(input.bones)))
      throw invalid('humanoid', 'mapHumanoid: expected an array of names, a skeleton or PMX/PMD bytes');
    if (!Array.isArray(input)) {
      return this._withSkeleton(input, (handle, s, errPtr) => {
        const out = s.alloc(M.HUMANOID_COUNT * 4);
        if (this.mod.pm_abi_humanoid_map_skeleton(handle, out, errPtr) !== 0) this._throw(s, errPtr, 'humanoid');
        const r = this._copy(Uint32Array, out, M.HUMANOID_COUNT);
        return humanoidMap(r, this._skeletonBoneNames(handle));
      }, 'mapHumanoid');
    }
    const names = input.map(String);
    return withScratch(this, (s) => {
      const d = new Uint32Array(2);
      const blob = this._putNames(s, d, 0, names);
      const out = s.alloc(M.HUMANOID_COUNT * 4);
      const errPtr = s.alloc(ERROR_SIZE);
      const offsets = names.length ? d[1] : s.put(new Uint32Array(2), Uint32Array);
      if (this.mod.pm_abi_humanoid_map(blob, offsets, names.length, out, errPtr) !== 0) this._throw(s, errPtr, 'humanoid');
      return humanoidMap(this._copy(Uint32Array, out, M.HUMANOID_COUNT), names);
    });
  },

  /** The built-in mannequin: a licence-free PMX 2.0 model with the semi-standard bones (docs/models.md). */
  mannequinPmx() {
    return withScratch(this, (s) => this._callForBuffer(s, 'mannequin', (out, size, err) => this.mod.pm_abi_mannequin_pmx(out, size, err)));
  },

  // ---- pose evaluation -------------------------------------------------------------------------

  /**
   * Internal: a VMD handle (the caller frees it) from VMD bytes or a readVmd()-shaped object; 0 with
   * errPtr filled when the core rejects it.
   */
  _vmdHandle(s, vmd, errPtr, what) {
    const bytes = vmd instanceof Uint8Array || vmd instanceof ArrayBuffer ? toBytes(vmd, what, 'vmd') : this.writeVmd(vmd);
    return this.mod.pm_abi_vmd_read(s.put(bytes), bytes.byteLength, errPtr);
  },

  /**
   * Analytic two-bone IK (law of cosines; the pole picks the bend plane; an unreachable target gives a
   * straight limb pointing at it). Points are [x, y, z] in one space. Returns `{ rootRotation,
   * midRotation }` (world-space delta quaternions [x, y, z, w] to pre-multiply onto the root's and the
   * mid joint's world rotations), `mid`, `end` (the solved joint positions), `miss` (distance left to
   * the target) and `reached`.
   */
  solveTwoBoneIk(root, mid, end, target, pole) {
    const input = new Float32Array(M.TWO_BONE_IN_COUNT);
    const slots = [M.TWO_BONE_IN_ROOT, M.TWO_BONE_IN_MID, M.TWO_BONE_IN_END, M.TWO_BONE_IN_TARGET, M.TWO_BONE_IN_POLE];
    [root, mid, end, target, pole].forEach((v, i) => {
      if (!v || v.length !== 3) throw invalid('ik', 'solveTwoBoneIk: every point must be [x, y, z]');
      for (let k = 0; k < 3; k++) {
        if (!Number.isFinite(v[k])) throw invalid('ik', `solveTwoBoneIk: ${['root', 'mid', 'end', 'target', 'pole'][i]} is not finite`);
        input[slots[i] + k] = v[k];
      }
    });
    return withScratch(this, (s) => {
      const inPtr = s.put(input, Float32Array);
      const outPtr = s.alloc(M.TWO_BONE_OUT_COUNT * 4);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod.pm_abi_two_bone_ik(inPtr, outPtr, errPtr) !== 0) this._throw(s, errPtr, 'ik');
      const o = this._copy(Float32Array, outPtr, M.TWO_BONE_OUT_COUNT);
      const at = (slot, n) => [...o.subarray(slot, slot + n)];
      return {
        rootRotation: at(M.TWO_BONE_OUT_ROOT_ROTATION, 4), midRotation: at(M.TWO_BONE_OUT_MID_ROTATION, 4),
        mid: at(M.TWO_BONE_OUT_MID, 3), end: at(M.TWO_BONE_OUT_END, 3), miss: o[M.TWO_BONE_OUT_MISS], reached: o[M.TWO_BONE_OUT_REACHED] === 1,
      };
    });
  },

  /**
   * Bind a motion to a skeleton for repeated evaluation (what a viewer or a test calls per frame).
   * `vmd`: VMD bytes, a readVmd() result, or null for the rest pose; `skeleton`: a skeleton object
   * (readPmx) or PMX/PMD bytes. Call `dispose()` when done (the module memory is not garbage-collected).
   */
  createPoseEvaluator(vmd, skeleton) {
    return new PoseEvaluator(this, vmd, skeleton);
  },

  /**
   * Evaluate a motion on a skeleton at a (fractional) frame, as babylon-mmd does (Bezier channels,
   * slerp, append transforms, MMD CCD IK with limits, IK on/off property keys). Returns
   * `{ boneNames, positions: Float32Array (3 per bone), world: Float32Array (16 per bone, column-major),
   * rotations: Float32Array (4 per bone, local after IK and append) }`.
   * For many frames use createPoseEvaluator (binds once).
   */
  evaluatePose(vmd, skeleton, frame, options = {}) {
    const ev = this.createPoseEvaluator(vmd, skeleton);
    try {
      return ev.evaluate(frame, options);
    } finally {
      ev.dispose();
    }
  },
};

/** A motion bound to a skeleton inside the module; see ProcMotion.createPoseEvaluator. */
export class PoseEvaluator {
  constructor(pm, vmd, skeleton) {
    this.pm = pm;
    const mod = pm.mod;
    const s = pm._scratch();
    let vmdHandle = 0;
    try {
      const errPtr = s.alloc(ERROR_SIZE);
      // the skeleton handle lives as long as the evaluator
      this.skeleton = pm._skeletonHandle(s, skeleton, errPtr, 'createPoseEvaluator');
      if (vmd) {
        vmdHandle = pm._vmdHandle(s, vmd, errPtr, 'vmd');
        if (!vmdHandle) pm._throw(s, errPtr, 'vmd');
      }
      this.handle = mod.pm_abi_pose_create(this.skeleton, vmdHandle, errPtr);
      if (!this.handle) pm._throw(s, errPtr, 'pose');
      this.boneCount = mod.pm_abi_skeleton_bone_count(this.skeleton);
      const info = s.alloc(M.POSE_INFO_COUNT * 4);
      mod.pm_abi_pose_info(this.handle, info);
      const i = pm._copy(Uint32Array, info, M.POSE_INFO_COUNT);
      this.info = {
        tracks: i[M.POSE_INFO_TRACKS], keys: i[M.POSE_INFO_KEYS], unmatchedBones: i[M.POSE_INFO_UNMATCHED_BONES],
        unmatchedIk: i[M.POSE_INFO_UNMATCHED_IK], propertyKeys: i[M.POSE_INFO_PROPERTY_KEYS],
        firstFrame: i[M.POSE_INFO_FIRST_FRAME], lastFrame: i[M.POSE_INFO_LAST_FRAME],
      };
      const lenPtr = s.alloc(4);
      const names = (kind, n) => Array.from({ length: n }, (_, k) => {
        const p = mod.pm_abi_pose_unmatched(this.handle, kind, k, lenPtr);
        return pm._utf8(p, mod.HEAPU32[lenPtr >> 2]);
      });
      this.unmatchedBones = names(0, this.info.unmatchedBones);
      this.unmatchedIk = names(1, this.info.unmatchedIk);
      this.errPtr = mod.pm_abi_alloc(ERROR_SIZE);
    } catch (e) {
      this.dispose(); // whatever was made before the throw (writeVmd's checks throw after the skeleton exists)
      throw e;
    } finally {
      if (vmdHandle) mod.pm_abi_vmd_free(vmdHandle);
      s.free();
    }
    this._boneNames = null;
  }

  /** Bone names in evaluation-output order (the skeleton's order). */
  get boneNames() {
    return (this._boneNames ??= this.pm._skeletonBoneNames(this.skeleton));
  }

  _flags(options) {
    return (options.ik === false ? POSE_FLAG.noIk : 0) | (options.append === false ? POSE_FLAG.noAppend : 0);
  }

  _check() {
    if (!this.handle) throw invalid('pose', 'PoseEvaluator: already disposed');
  }

  /** Evaluate one (fractional) frame. options: { ik: false } to skip IK, { append: false }. */
  evaluate(frame, options = {}) {
    this._check();
    if (!Number.isFinite(frame)) throw invalid('pose', 'evaluatePose: frame is not finite');
    const mod = this.pm.mod;
    if (mod.pm_abi_pose_evaluate(this.handle, frame, this._flags(options), this.errPtr) !== 0) throw this.pm._error(this.errPtr, 'pose');
    const n = this.boneCount;
    const world = this.pm._copy(Float32Array, mod.pm_abi_pose_world(this.handle), 16 * n);
    const positions = positionsOf(world);
    const rotations = this.pm._copy(Float32Array, mod.pm_abi_pose_final_rotations(this.handle), 4 * n);
    return { boneNames: this.boneNames, positions, world, rotations };
  }

  /** World positions of every bone for `count` frames from `first` by `step`: Float32Array, frame-major. */
  positions(first, count, step = 1, options = {}) {
    this._check();
    checkCount(count, 'positions: count', 'pose');
    const n = this.boneCount, floats = checkCount(count * n * 3, 'positions: count x bones x 3', 'pose');
    const pm = this.pm;
    return withScratch(pm, (s) => {
      const out = s.alloc(floats * 4);
      if (pm.mod.pm_abi_pose_positions(this.handle, first, step, count, this._flags(options), out, floats, this.errPtr) !== 0) {
        throw pm._error(this.errPtr, 'pose');
      }
      return pm._copy(Float32Array, out, floats);
    });
  }

  /** Override an IK bone: 'auto' (property keys decide), 'on' or 'off'. */
  setIkMode(boneName, mode) {
    this._check();
    const bone = this.boneNames.indexOf(boneName);
    if (bone < 0) throw new ProcMotionError(`setIkMode: no bone named ${boneName}`, 'PM_ERR_NOT_FOUND', 'pose');
    if (!(mode in IK_MODE)) throw invalid('pose', 'setIkMode: mode must be auto, on or off');
    if (this.pm.mod.pm_abi_pose_set_ik_mode(this.handle, bone, IK_MODE[mode], this.errPtr) !== 0) throw this.pm._error(this.errPtr, 'pose');
  }

  /** Release the module memory. Safe to call twice. */
  dispose() {
    releaseHandle(this, 'pm_abi_pose_free');
  }

}
