// Retargeting: a humanoid motion from another rig (BVH, glTF/GLB, VRM, VRM Animation) as a VMD for an MMD
// model, the feet planted and the hands kept out of the body (docs/retarget.md).
//
//   await pm.loadAsync('keypoints');
//   const { vmd, report } = pm.retargetToVmd(bvhBytes, { model: pmxBytes });
//
// Part of procmotion's 'keypoints' feature module (keypoints.js puts retargetMethods on a ProcMotion): the
// motion readers are there, the evaluator and the landing in 'motion', which it loads first.
import { ERROR_SIZE, checkCount, invalid, toBytes, withScratch } from './runtime.js';

export const retargetMethods = {
  /**
   * The motion in `motion` (BVH, glTF/GLB, VRM or VRM Animation bytes) as a VMD for `options.model` (PMX/PMD
   * bytes or readPmx's skeleton; default the built-in mannequin): `{ vmd, report }`. options.animation: a
   * glTF's animation index (default 0).
   */
  retargetToVmd(motion, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw invalid('retarget', `retargetToVmd: options must be an object ({ model, animation }), got ${options}`);
    }
    const data = toBytes(motion, 'retargetToVmd: motion', 'retarget');
    const animation = checkCount(options.animation ?? 0, 'retargetToVmd: options.animation', 'retarget');
    const run = (sk, s, errPtr) => {
      const out = s.alloc(16);
      if (this.mod.pm_abi_retarget(s.put(data), data.byteLength, animation, sk, out, out + 4, out + 8, out + 12, errPtr) !== 0) {
        this._throw(s, errPtr, 'retarget');
      }
      return { vmd: this._takeBytes(out), report: JSON.parse(this._takeText(out + 8)) };
    };
    if (options.model) return this._withSkeleton(options.model, run, 'retargetToVmd');
    return withScratch(this, (s) => run(0, s, s.alloc(ERROR_SIZE)));
  },
};
