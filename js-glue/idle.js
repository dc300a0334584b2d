// The idle generator: a character standing at ease as a looping VMD, landed and measured on the model.
//
//   await pm.loadAsync('motion');
//   const { vmd, loopFrames, report, body } = pm.generateIdleVmd({ bodySway: 0.7 }, 120, null, null, { skeleton: pmxBytes });
//
// Part of procmotion's 'motion' feature module (motion.js puts idleMethods on a ProcMotion).
import * as M from './dist/abi-motion.js';
import { IDLE_PARAMETERS } from './constants.js';
import { ERROR_SIZE, gridBlock, gridOf, invalid, normaliseSkeleton, putText, settingsText, withScratch } from './runtime.js';

/** The idle's parameters from an app's state: `state.idle.X`, `state.idleX` or `state.X`, in that order
 * of preference (the catwalk's rule), for the names the idle reads. */
function idleParams(state) {
  if (state === null || state === undefined) return {};
  if (typeof state !== 'object') throw invalid('idle', `generateIdleVmd: state must be an object, got ${typeof state}`);
  const nested = state.idle && typeof state.idle === 'object' ? state.idle : {};
  const out = {};
  for (const name of IDLE_PARAMETERS) {
    const prefixed = 'idle' + name[0].toUpperCase() + name.slice(1);
    const v = nested[name] !== undefined ? nested[name] : state[prefixed] !== undefined ? state[prefixed] : state[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

export const idleMethods = {
  /**
   * A looping idle: `{ vmd, loopFrames, events, usedBones, missingBones, plan, report, body, ... }`. The
   * arguments are generateCatwalkVmd's: `state` carries the parameters, `bpm` a tempo, a beat grid or
   * null, the name lists come from the model, `options.skeleton` is the model as PMX/PMD bytes or
   * readPmx's skeleton (the feet landed on it, `report` and `body` measured on it) or `{ names?,
   * positions, parents? }`; with no model at all, the standard figure on the mannequin.
   */
  generateIdleVmd(state, bpm, morphNames, boneNames, options = {}) {
    const params = idleParams(state);
    if (typeof bpm === 'number') params.bpm = bpm;
    const grid = bpm !== null && typeof bpm === 'object' ? gridOf(bpm, undefined, 'idle') : null;
    const skeleton = options?.skeleton ?? null;
    const whole = skeleton && (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer || Array.isArray(skeleton.bones));
    const run = (handle, s) => {
      const d = new Uint32Array(M.IDLE_COUNT);
      const [json, len] = putText(s, settingsText(params, 'idle', 'generateIdleVmd'));
      d[M.IDLE_JSON] = json;
      d[M.IDLE_JSON_LEN] = len;
      if (grid) d[M.IDLE_GRID] = gridBlock(s, grid);
      d[M.IDLE_SKELETON] = handle;
      if (!handle) {
        let bones = boneNames == null ? null : Array.from(boneNames, String);
        let positions = null, parents = null;
        if (skeleton) {
          const sk = normaliseSkeleton(skeleton, bones, 'idle', 'generateIdleVmd');
          if (!bones) bones = sk.names;
          positions = sk.positionsFor(bones);
          parents = sk.parentsFor(bones);
        }
        const morphSource = morphNames ?? (Array.isArray(skeleton?.morphNames) ? skeleton.morphNames : null);
        const morphs = morphSource == null ? [] : Array.from(morphSource, String);
        if (bones || morphs.length) {
          d[M.IDLE_HAS_MODEL] = 1 | (bones ? 2 : 0);
          if (bones) this._putNames(s, d, M.IDLE_BONES, bones);
          this._putNames(s, d, M.IDLE_MORPHS, morphs);
          if (positions) d[M.IDLE_POSITIONS] = s.put(positions, Float32Array);
          if (parents) d[M.IDLE_PARENTS] = s.put(parents, Int32Array);
        }
      }
      const dPtr = s.put(d, Uint32Array);
      const oPtr = s.alloc(M.IDLE_OUT_COUNT * 4);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod.pm_abi_idle_generate(dPtr, oPtr, errPtr) !== 0) this._throw(s, errPtr, 'idle');
      const vmd = this._takeBytes(oPtr + 4 * M.IDLE_OUT_VMD);
      const info = JSON.parse(this._takeText(oPtr + 4 * M.IDLE_OUT_INFO));
      return { vmd, ...info };
    };
    if (whole) return this._withSkeleton(skeleton, (handle, s) => run(handle, s), 'generateIdleVmd');
    return withScratch(this, (s) => run(0, s));
  },
};
