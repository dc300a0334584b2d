// The lifelike layer: blinks, breathing, gaze and saccades, micro-moves of head, neck and spine, on any
// motion; per frame in a viewer or baked into a VMD.
//
//   await pm.loadAsync('motion');
//   const life = pm.createLifelike({ eyeContact: 15 }, pmxBytes);
//   const frame = life.sample(seconds);             // { blink, rotations, channels }
//   const { vmd, report } = pm.bakeLifelike(baseVmd, pmxBytes, { blinkInterval: [3, 8] });
//
// Part of procmotion's 'motion' feature module (motion.js puts lifelikeMethods on a ProcMotion).
import * as M from './dist/abi-motion.js';
import { ERROR_SIZE, ProcMotionError, checkCount, putText, settingsText, withScratch } from './runtime.js';

const fail = (message, code = 'PM_ERR_INVALID_ARGUMENT') => new ProcMotionError(message, code, 'lifelike');

/** The layer on one skeleton, sampled per frame (pm.createLifelike). Call dispose() when done. */
export class Lifelike {
  constructor(pm, settings, skeleton) {
    this.pm = pm;
    const mod = pm.mod, s = pm._scratch();
    try {
      const errPtr = s.alloc(ERROR_SIZE);
      this.skeleton = pm._skeletonHandle(s, skeleton, errPtr, 'createLifelike');
      const [json, len] = putText(s, settingsText(settings, 'lifelike', 'createLifelike'));
      this.handle = mod.pm_abi_lifelike_create(this.skeleton, json, len, errPtr);
      if (!this.handle) pm._throw(s, errPtr, 'lifelike');
      const info = pm._callForJson(s, 'lifelike', (out, size, err) => mod.pm_abi_lifelike_info(this.handle, out, size, err));
      /** The channels in output order: { name, bone (index, -1 = the model has none), boneName }. */
      this.channels = info.channels.map((c) => Object.freeze({ name: c.name, bone: c.bone, boneName: c.boneName }));
      /** The model's blink morph, or null. */
      this.blinkMorph = info.blinkMorph;
      /** Seconds a breath takes. */
      this.breathSeconds = info.breathSeconds;
    } catch (e) {
      this.dispose();
      throw e;
    } finally {
      s.free();
    }
    this._rotations = new Float32Array(4 * this.channels.length);
    this._frame = { blink: 0, rotations: this._rotations, channels: this.channels };
  }

  /**
   * The layer at `seconds` (any order; seeking backwards gives what going forwards gave):
   * `{ blink, rotations, channels }`, `rotations` 4 floats (x, y, z, w) per channel, to multiply onto
   * the bone's local rotation (identity for a channel the model lacks). The object and its array are
   * reused by the next call.
   */
  sample(seconds) {
    if (!this.handle) throw fail('Lifelike: already disposed');
    if (!Number.isFinite(seconds)) throw fail(`lifelike: seconds must be a finite number, got ${seconds}`);
    const p = this.pm.mod.pm_abi_lifelike_sample(this.handle, seconds);
    const heap = this.pm.mod.HEAPF32;
    this._frame.blink = heap[(p >> 2) + M.LIFELIKE_OUT_BLINK];
    this._rotations.set(heap.subarray((p >> 2) + M.LIFELIKE_OUT_ROTATION, (p >> 2) + M.LIFELIKE_OUT_ROTATION + this._rotations.length));
    return this._frame;
  }

  /** Free the layer's memory in the module (idempotent). */
  dispose() {
    const mod = this.pm.mod;
    if (this.handle) mod.pm_abi_lifelike_free(this.handle);
    if (this.skeleton) mod.pm_abi_skeleton_free(this.skeleton);
    this.handle = 0;
    this.skeleton = 0;
  }
}

export const lifelikeMethods = {
  /** Settings with every default filled in, checked as the core reads them (an object or JSON text). */
  lifelikeSettings(settings = null) {
    return withScratch(this, (s) => {
      const [json, len] = putText(s, settingsText(settings, 'lifelike', 'lifelikeSettings'));
      return this._callForJson(s, 'lifelike', (out, size, err) => this.mod.pm_abi_lifelike_settings(json, len, out, size, err));
    });
  },

  /** The layer on a skeleton (PMX/PMD bytes or readPmx's skeleton), sampled per frame: a Lifelike. */
  createLifelike(settings, skeleton) {
    return new Lifelike(this, settings, skeleton);
  },

  /**
   * The layer baked over `baseVmd` (VMD bytes, or null for the rest pose) for the model `skeleton`:
   * `{ vmd, report }`. Every key of the base is kept; a bone or morph it keys is left to it
   * (report.skipped). The layer repeats with the base's length (options.frames overrides it), so a loop
   * stays a loop.
   */
  bakeLifelike(baseVmd, skeleton, settings = null, options = {}) {
    const frames = checkCount(options.frames ?? 0, 'bakeLifelike: frames', 'lifelike');
    return this._withSkeletonAndMotions(skeleton, [baseVmd], (sk, [vmd], s, errPtr) => {
      const [json, len] = putText(s, settingsText(settings, 'lifelike', 'bakeLifelike'));
      const out = s.alloc(16);
      if (this.mod.pm_abi_lifelike_bake(sk, vmd, json, len, frames, out, out + 4, out + 8, out + 12, errPtr) !== 0) this._throw(s, errPtr, 'lifelike');
      return { vmd: this._takeBytes(out), report: JSON.parse(this._takeText(out + 8)) };
    }, 'bakeLifelike');
  },
};
