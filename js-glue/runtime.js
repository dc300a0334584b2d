// procmotion's JS runtime, shared by the entry point (index.js) and the lazy feature modules
// (motion.js, keypoints.js): errors, argument checks, scratch allocations, text (loading is loader.js).
// Internal: nothing here is part of the public API except ProcMotionError (re-exported by index.js).
// the layouts as constants (A.ERROR_CODE) that bundlers inline
import * as A from './dist/abi-runtime.js';

export const utf8Decoder = new TextDecoder('utf-8');
export const utf8Encoder = new TextEncoder();
export const ERROR_SIZE = A.ERROR_COUNT;

/**
 * An error raised by procmotion. `message` names what was wrong; `code` is the core's pm_result name
 * (e.g. 'PM_ERR_TRUNCATED'; 'PM_ERR_INVALID_ARGUMENT' for arguments the glue rejects,
 * 'PM_ERR_NOT_LOADED' for a feature module that was not loaded, 'PM_ERR_WASM' when a .wasm cannot be
 * fetched or instantiated); `module` is the part of procmotion that raised it ('vmd', 'catwalk',
 * 'pose', ...: the prefix of the core's message, or the API area for the glue's own checks).
 */
export class ProcMotionError extends Error {
  constructor(message, code = 'PM_ERR_INVALID_ARGUMENT', module = moduleOf(message), options = undefined) {
    super(message, options);
    this.name = 'ProcMotionError';
    this.code = code;
    this.module = module;
  }
}

/** The module a core message names ("vmd: bone key 12 ..." -> 'vmd'); null when it names none. */
function moduleOf(message) {
  const m = /^([a-z][a-z0-9_]*):/.exec(String(message));
  return m && m[1] !== 'abi' ? m[1] : null;
}

/** An argument the glue rejects before calling the core. */
export function invalid(module, message) {
  return new ProcMotionError(message, 'PM_ERR_INVALID_ARGUMENT', module);
}

/**
 * Internal: a count or size handed to the module must be an integer in 0..2^32-1. The wasm ABI takes
 * uint32 and JS numbers wrap modulo 2^32 on the way in, so an unchecked 2^32 + 100 would allocate 100
 * bytes for a call that then writes 4 GB (found by tests/node/hardening.test.mjs).
 */
export function checkCount(n, what, module = 'procmotion') {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw invalid(module, `${what} must be an integer in 0..4294967295, got ${n}`);
  return n;
}

/**
 * Internal: a beat grid as the generators take it, normalised without the 'beats' module: a BPM number
 * (with `offset`, default 0), { bpm, offset, beatsPerBar?, firstDownbeat? } (a tap-tempo grid, or
 * pm.beatGrid's), or detectBeats' result (its beats, at least 2); null/undefined give null. Returns
 * { bpm, offset, beats (Float64Array or null), beatsPerBar, firstDownbeat }. Only the types are checked
 * here: the core checks the values where the grid is used (pm_beat_grid_check), and pm.beatGrid (the
 * 'beats' module) checks them at once.
 */
export function gridOf(x, offset, module = 'beats') {
  if (x === null || x === undefined) return null;
  let g;
  if (typeof x === 'number') g = { bpm: x, offset: offset ?? 0, beats: null, beatsPerBar: 4, firstDownbeat: 0 };
  else if (typeof x === 'object' && x.beats && x.beats.length >= 2) {
    g = { bpm: x.bpm > 0 ? x.bpm : 120, offset: x.beats[0], beats: Float64Array.from(x.beats), beatsPerBar: x.beatsPerBar ?? 4, firstDownbeat: x.firstDownbeat ?? 0 };
  } else if (typeof x === 'object') {
    g = { bpm: x.bpm, offset: x.offset ?? 0, beats: null, beatsPerBar: x.beatsPerBar ?? 4, firstDownbeat: x.firstDownbeat ?? 0 };
  } else throw invalid(module, `beat grid: expected a BPM, { bpm, offset } or a detectBeats result, got ${typeof x}`);
  if (typeof g.bpm !== 'number' || typeof g.offset !== 'number') throw invalid(module, `beat grid: bpm and offset must be numbers, got ${g.bpm} and ${g.offset}`);
  return g;
}

/** Internal: a grid (anything gridOf takes) as the core's grid block (GRID_IN: bpm, offset, beatsPerBar,
 * firstDownbeat, beat count, beats...; wasm/abi/pm_abi.h pm_abi_grid_in) in scratch `s`; its address. */
export function gridBlock(s, x) {
  const g = gridOf(x);
  const n = g.beats ? g.beats.length : 0, block = new Float64Array(A.GRID_IN_BEATS + n);
  block[A.GRID_IN_BPM] = g.bpm;
  block[A.GRID_IN_OFFSET] = g.offset;
  block[A.GRID_IN_BEATS_PER_BAR] = g.beatsPerBar ?? 4;
  block[A.GRID_IN_FIRST_DOWNBEAT] = g.firstDownbeat ?? 0;
  block[A.GRID_IN_BEAT_COUNT] = n;
  if (n) block.set(g.beats, A.GRID_IN_BEATS);
  return s.put(block, Float64Array);
}

/** Bytes as a Uint8Array view (no copy) of a Uint8Array, ArrayBuffer or any typed array. */
export function toBytes(bytes, what, module = 'procmotion') {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw invalid(module, `${what}: expected a Uint8Array or ArrayBuffer`);
}

/** Internal: the NUL-terminated UTF-8 at p in the module's memory (at most max bytes). */
export function cString(mod, p, max) {
  const heap = mod.HEAPU8;
  let end = p;
  while (end < p + max && heap[end] !== 0) end++;
  return utf8Decoder.decode(heap.subarray(p, end));
}

/** Read the core's error (message and pm_result) from an ERROR-layout buffer at errPtr. */
export function readError(mod, errPtr, module) {
  const message = cString(mod, errPtr, A.ERROR_CODE) || 'procmotion: unknown error';
  const code = A.RESULTS[mod.HEAP32[(errPtr + A.ERROR_CODE) >> 2]] ?? 'PM_ERR_UNKNOWN';
  return new ProcMotionError(message, code === 'PM_OK' ? 'PM_ERR_UNKNOWN' : code, moduleOf(message) ?? module);
}

/** Internal: the error for an allocation of `size` bytes in wasm memory that failed. */
export function outOfMemory(size, module) {
  return new ProcMotionError(`out of wasm memory allocating ${size} bytes`, 'PM_ERR_OUT_OF_MEMORY', module);
}

/** Internal: allocations inside the module, all released by `free()`. */
export class Scratch {
  constructor(mod) {
    this.mod = mod;
    this.ptrs = [];
  }
  alloc(size) {
    if (!Number.isInteger(size) || size < 0) throw invalid('procmotion', `cannot allocate ${size} bytes`);
    const p = size > 0xffffffff ? 0 : this.mod.pm_abi_alloc(size > 0 ? size : 1);
    if (!p) throw outOfMemory(size, 'procmotion');
    this.ptrs.push(p);
    return p;
  }
  /** Copy a typed array (or array-like, converted to `Type`) into the module; returns its address. */
  put(data, Type = Uint8Array) {
    const typed = data instanceof Type ? data : Type.from(data ?? []);
    const p = this.alloc(typed.byteLength);
    this.mod.HEAPU8.set(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength), p);
    return p;
  }
  free() {
    for (const p of this.ptrs) this.mod.pm_abi_free(p);
    this.ptrs.length = 0;
  }
}

/**
 * Internal: fn(s) with a Scratch in pm's module, freed however fn ends (returns fn's result). The one
 * try/finally of every call that hands buffers to the module, so that each method says only what it
 * puts in and takes out (one helper, not the same four lines in every method of every file).
 */
export function withScratch(pm, fn) {
  const s = new Scratch(pm.mod);
  try {
    return fn(s);
  } finally {
    s.free();
  }
}

/**
 * Internal: settings (an object, a JSON string, or null/undefined for the defaults) as JSON text for the
 * core ('' = the defaults). Non-finite numbers are named here, since JSON.stringify would turn them into
 * null: "<module>: <path> must be a finite number, got NaN".
 */
export function settingsText(settings, module, what) {
  if (settings === null || settings === undefined) return '';
  if (typeof settings === 'string') return settings;
  if (typeof settings !== 'object') throw invalid(module, `${what}: settings must be an object, a JSON string or null`);
  const walk = (v, path) => {
    if (typeof v === 'number' && !Number.isFinite(v)) throw invalid(module, `${module}: ${path} must be a finite number, got ${v}`);
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(settings, '');
  return JSON.stringify(settings);
}

/** Internal: text as UTF-8 in scratch `s`: [address, byte length]. */
export function putText(s, text) {
  const bytes = utf8Encoder.encode(text);
  return [s.put(bytes), bytes.byteLength];
}

/**
 * Internal: a skeleton as `{ names?, positions, parents? }` (flat or [x, y, z] per bone) or as readPmx's
 * `{ bones: [{ name, position, parent }] }` -> lookups aligned with a bone name list.
 */
export function normaliseSkeleton(sk, boneNames, module, what) {
  if (Array.isArray(sk.bones)) {
    sk = { names: sk.bones.map((b) => b.name), positions: sk.bones.map((b) => b.position), parents: sk.bones.map((b) => b.parent) };
  }
  const names = sk.names ? Array.from(sk.names, String) : boneNames;
  if (!names) throw invalid(module, `${what}: skeleton.names or boneNames is needed`);
  const n = names.length;
  const raw = sk.positions;
  if (!raw) throw invalid(module, `${what}: skeleton.positions is missing`);
  const flat = new Float32Array(3 * n).fill(NaN);
  if (raw.length === n && typeof raw[0] === 'object' && raw[0] !== null) {
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) flat[3 * i + k] = Number(raw[i]?.[k] ?? raw[i]?.['xyz'[k]]);
  } else if (raw.length === 3 * n) {
    for (let i = 0; i < 3 * n; i++) flat[i] = Number(raw[i]);
  } else {
    throw invalid(module, `${what}: skeleton.positions has ${raw.length} entries for ${n} bones`);
  }
  const par = sk.parents ? Int32Array.from(sk.parents, (p) => (Number.isInteger(p) ? p : -1)) : null;
  const index = new Map(names.map((nm, i) => [nm, i]));
  return {
    names,
    positionsFor(list) {
      if (list === names) return flat;
      const out = new Float32Array(3 * list.length).fill(NaN);
      list.forEach((nm, i) => {
        const j = index.get(nm);
        if (j !== undefined) out.set(flat.subarray(3 * j, 3 * j + 3), 3 * i);
      });
      return out;
    },
    parentsFor(list) {
      if (!par) return null;
      if (list === names) return par;
      const out = new Int32Array(list.length).fill(-1);
      list.forEach((nm, i) => {
        const j = index.get(nm);
        const pj = j === undefined ? -1 : par[j];
        if (pj >= 0) {
          const k = list.indexOf(names[pj]);
          out[i] = k;
        }
      });
      return out;
    },
  };
}
