// The generators' common call (idle, dance): parameters as JSON, a beat grid, the model as a skeleton
// handle or name lists, out come the VMD bytes and the info JSON.
//
// Part of procmotion's 'motion' feature module.
import * as M from './dist/abi-motion.js';
import { ERROR_SIZE, gridBlock, normaliseSkeleton, putText, settingsText, withScratch } from './runtime.js';

/** The parameters from an app's state: `state.<module>.X`, `state.<module>X` or `state.X`, in that order
 * of preference (the catwalk's rule), for the names the generator reads. */
export function stateParams(state, names, module, method, invalid) {
  if (state === null || state === undefined) return {};
  if (typeof state !== 'object') throw invalid(module, `${method}: state must be an object, got ${typeof state}`);
  const nested = state[module] && typeof state[module] === 'object' ? state[module] : {};
  const out = {};
  for (const name of names) {
    const prefixed = module + name[0].toUpperCase() + name.slice(1);
    const v = nested[name] !== undefined ? nested[name] : state[prefixed] !== undefined ? state[prefixed] : state[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * Run a generator export on the model: `{ vmd, ...info }`. `slots` is the export's input length (its
 * layout starts with IDLE's slots), `extra(s, d)` fills the slots after them, `exportName` is the
 * module's function; `outSlots` its output length (IDLE_OUT's first) and `take(at, result)` takes what
 * follows them (at(slot): the slot's address).
 */
export function generateOnModel(pm, { module, method, exportName, slots, params, grid, morphNames, boneNames, options, extra, outSlots, take }) {
  const skeleton = options?.skeleton ?? null;
  const whole = skeleton && (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer || Array.isArray(skeleton.bones));
  const run = (handle, s) => {
    const d = new Uint32Array(slots);
    const [json, len] = putText(s, settingsText(params, module, method));
    d[M.IDLE_JSON] = json;
    d[M.IDLE_JSON_LEN] = len;
    if (grid) d[M.IDLE_GRID] = gridBlock(s, grid);
    d[M.IDLE_SKELETON] = handle;
    if (!handle) {
      let bones = boneNames == null ? null : Array.from(boneNames, String);
      let positions = null, parents = null;
      if (skeleton) {
        const sk = normaliseSkeleton(skeleton, bones, module, method);
        if (!bones) bones = sk.names;
        positions = sk.positionsFor(bones);
        parents = sk.parentsFor(bones);
      }
      const morphSource = morphNames ?? (Array.isArray(skeleton?.morphNames) ? skeleton.morphNames : null);
      const morphs = morphSource == null ? [] : Array.from(morphSource, String);
      if (bones || morphs.length) {
        d[M.IDLE_HAS_MODEL] = 1 | (bones ? 2 : 0);
        if (bones) pm._putNames(s, d, M.IDLE_BONES, bones);
        pm._putNames(s, d, M.IDLE_MORPHS, morphs);
        if (positions) d[M.IDLE_POSITIONS] = s.put(positions, Float32Array);
        if (parents) d[M.IDLE_PARENTS] = s.put(parents, Int32Array);
      }
    }
    if (extra) extra(s, d);
    const dPtr = s.put(d, Uint32Array);
    const oPtr = s.alloc((outSlots ?? M.IDLE_OUT_COUNT) * 4);
    const errPtr = s.alloc(ERROR_SIZE);
    if (pm.mod[exportName](dPtr, oPtr, errPtr) !== 0) pm._throw(s, errPtr, module);
    const vmd = pm._takeBytes(oPtr + 4 * M.IDLE_OUT_VMD);
    const info = JSON.parse(pm._takeText(oPtr + 4 * M.IDLE_OUT_INFO));
    const result = { vmd, ...info };
    take?.((slot) => oPtr + 4 * slot, result);
    return result;
  };
  if (whole) return pm._withSkeleton(skeleton, (handle, s) => run(handle, s), method);
  return withScratch(pm, (s) => run(0, s));
}
