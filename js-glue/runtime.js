// procmotion's JS runtime, shared by the entry point (index.js) and the lazy feature modules
// (motion.js, keypoints.js): loading a wasm module, the heap views, scratch allocations, errors.
// Internal: nothing here is part of the public API except ProcMotionError (re-exported by index.js).
import { ERROR, GRID_IN, RESULTS } from './dist/abi.js';

export const utf8Decoder = new TextDecoder('utf-8');
export const utf8Encoder = new TextEncoder();
export const ERROR_SIZE = ERROR.COUNT;

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
  const n = g.beats ? g.beats.length : 0, block = new Float64Array(GRID_IN.BEATS + n);
  block[GRID_IN.BPM] = g.bpm;
  block[GRID_IN.OFFSET] = g.offset;
  block[GRID_IN.BEATS_PER_BAR] = g.beatsPerBar ?? 4;
  block[GRID_IN.FIRST_DOWNBEAT] = g.firstDownbeat ?? 0;
  block[GRID_IN.BEAT_COUNT] = n;
  if (n) block.set(g.beats, GRID_IN.BEATS);
  return s.put(block, Float64Array);
}

/** Bytes as a Uint8Array view (no copy) of a Uint8Array, ArrayBuffer or any typed array. */
export function toBytes(bytes, what, module = 'procmotion') {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw invalid(module, `${what}: expected a Uint8Array or ArrayBuffer`);
}

/** Read the core's error (message and pm_result) from an ERROR-layout buffer at errPtr. */
export function readError(mod, errPtr, module) {
  const heap = mod.HEAPU8;
  let end = errPtr;
  while (end < errPtr + ERROR.CODE && heap[end] !== 0) end++;
  const message = utf8Decoder.decode(heap.subarray(errPtr, end)) || 'procmotion: unknown error';
  const code = RESULTS[mod.HEAP32[(errPtr + ERROR.CODE) >> 2]] ?? 'PM_ERR_UNKNOWN';
  return new ProcMotionError(message, code === 'PM_OK' ? 'PM_ERR_UNKNOWN' : code, moduleOf(message) ?? module);
}

/** Internal: allocations inside the module, all released by `free()`. */
export class Scratch {
  constructor(mod) {
    this.mod = mod;
    this.ptrs = [];
  }
  alloc(size) {
    if (!Number.isInteger(size) || size < 0) throw invalid('procmotion', `cannot allocate ${size} bytes`);
    if (size > 0xffffffff) throw new ProcMotionError(`out of wasm memory allocating ${size} bytes`, 'PM_ERR_OUT_OF_MEMORY', 'procmotion');
    const p = this.mod._pm_abi_alloc(size > 0 ? size : 1);
    if (!p) throw new ProcMotionError(`out of wasm memory allocating ${size} bytes`, 'PM_ERR_OUT_OF_MEMORY', 'procmotion');
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
    for (const p of this.ptrs) this.mod._pm_abi_free(p);
    this.ptrs.length = 0;
  }
}

// ---- loading -----------------------------------------------------------------------------------------

let fileReader = null;
/** Node entry (node.js): how file: URLs are read where process.getBuiltinModule is missing (Node < 20.16). */
export function setFileReader(read) {
  fileReader = read;
}

async function readFileUrl(url, option) {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs');
  if (fs) return fs.promises.readFile(url);
  if (fileReader) return fileReader(url);
  throw new ProcMotionError(`cannot read ${url} here: pass the bytes as createProcMotion({ ${option} })`, 'PM_ERR_WASM', 'loader');
}

const isWasmResponse = (r) => (r.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/wasm';

/**
 * Internal: one of the package's files from `source`, a URL (or its string; file: URLs are read from
 * disk in Node, others fetched) or anything else (returned as given, awaited). A Response that is not
 * ok, or a fetch that fails, is a ProcMotionError (from `fail`) saying what to copy (`files`, e.g.
 * ".wasm files") or which createProcMotion `option` to pass. Resolves to bytes, a Response or `source`.
 */
async function openSource(source, fail, files, option) {
  let src = await source;
  if (typeof src === 'string') src = new URL(src, globalThis.location?.href);
  if (src instanceof URL) {
    if (src.protocol === 'file:') return readFileUrl(src, option);
    try {
      src = await fetch(src);
    } catch (e) {
      throw fail(`cannot fetch ${src} (${e.message}); a bundler that does not copy assets referenced by new URL(..., import.meta.url) (esbuild, Rollup) needs the ${files} copied beside its output, or pass createProcMotion({ ${option} })`, e);
    }
  }
  if (typeof Response !== 'undefined' && src instanceof Response && !src.ok) {
    throw fail(`${src.url || 'the response'} answered ${src.status} ${src.statusText}: the file is not there (copy procmotion's ${files} beside your bundle, or pass createProcMotion({ ${option} }))`);
  }
  return src;
}

const loaderError = (what) => (why, cause) => new ProcMotionError(`${what}: ${why}`, 'PM_ERR_WASM', 'loader', { cause });

/**
 * Instantiate a wasm module from `source`: a URL (or its string), bytes (ArrayBuffer or a view), a
 * WebAssembly.Module, a Response or a promise of one. URLs: file: URLs are read from disk (Node);
 * others are fetched and compiled while they download (instantiateStreaming) when the server says
 * application/wasm, else fetched whole and instantiated. Resolves to the WebAssembly.Instance.
 */
export async function instantiate(source, imports, what) {
  const fail = loaderError(what);
  try {
    let src = await openSource(source, fail, '.wasm files', 'wasm');
    if (typeof Response !== 'undefined' && src instanceof Response) {
      if (WebAssembly.instantiateStreaming && isWasmResponse(src)) return (await WebAssembly.instantiateStreaming(src, imports)).instance;
      src = await src.arrayBuffer();
    }
    if (src instanceof WebAssembly.Module) return WebAssembly.instantiate(src, imports);
    if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return (await WebAssembly.instantiate(src, imports)).instance;
    throw fail('expected a URL, bytes, a WebAssembly.Module or a Response');
  } catch (e) {
    if (e instanceof ProcMotionError) throw e;
    throw fail(e.message, e);
  }
}

/**
 * Bytes of a data file from `source`: a URL (or its string), bytes (ArrayBuffer or a view), a Response
 * or a promise of one, loaded as instantiate loads a .wasm. `option` is the createProcMotion option that
 * says where the file is. Resolves to a Uint8Array.
 */
export async function loadBytes(source, what, option) {
  const fail = loaderError(what);
  try {
    let src = await openSource(source, fail, what, option);
    if (typeof Response !== 'undefined' && src instanceof Response) src = await src.arrayBuffer();
    if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return toBytes(src, what, 'loader');
    throw fail('expected a URL, bytes or a Response');
  } catch (e) {
    if (e instanceof ProcMotionError) throw e;
    throw fail(e.message, e);
  }
}

/**
 * The module object the glue calls: `_pm_abi_*` functions and heap views (HEAPU8, HEAP32, HEAPU32,
 * HEAPF32, HEAPF64), renewed whenever the memory grows (the core tells through its only import).
 */
export function createModuleObject() {
  const mod = { exports: null, memory: null };
  mod.updateViews = () => {
    const b = mod.memory.buffer;
    mod.HEAPU8 = new Uint8Array(b);
    mod.HEAP32 = new Int32Array(b);
    mod.HEAPU32 = new Uint32Array(b);
    mod.HEAPF32 = new Float32Array(b);
    mod.HEAPF64 = new Float64Array(b);
  };
  mod.bind = (instance) => {
    const x = instance.exports;
    mod.exports = x;
    mod.memory = x.memory;
    for (const [name, fn] of Object.entries(x)) if (name.startsWith('pm_abi_')) mod[`_${name}`] = fn;
    mod.updateViews();
  };
  return mod;
}

/**
 * Internal: dispose() of the glue's handle classes (PoseEvaluator, Groove, Timeline): frees the core
 * handle with its own free export, the skeleton and the buffers named in `buffers` (each
 * `_pm_abi_free`d), and zeroes the fields, so a second call does nothing.
 */
export function releaseHandle(owner, freeHandle, buffers = ['errPtr']) {
  const mod = owner.pm.mod;
  if (owner.handle) mod[freeHandle](owner.handle);
  if (owner.skeleton) mod._pm_abi_skeleton_free(owner.skeleton);
  for (const b of buffers) if (owner[b]) mod._pm_abi_free(owner[b]);
  owner.handle = owner.skeleton = 0;
  for (const b of buffers) owner[b] = 0;
}
