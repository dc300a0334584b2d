// procmotion's loader, used by the API (main.js) and the Node entry (node.js) only: fetching or
// reading a .wasm or data file, instantiating it, and the module object the glue calls (heap views,
// the table's functions by index). Apart from runtime.js (which the feature modules share) so that bundlers keep it
// in the entry's own chunk. Internal: not part of the public API.
import { ProcMotionError, toBytes } from './runtime.js';

// ---- loading -----------------------------------------------------------------------------------------

let fileReader = null;
/** Node entry (node.js): how file: URLs are read where process.getBuiltinModule is missing (Node < 20.16). */
export function setFileReader(read) {
  fileReader = read;
}

// Default URLs the API (main.js) has no literal for: procmotion-all.wasm, registered by
// procmotion/all (all.js) and the Node entry, so that an app built from the main entry does not carry it.
const registeredUrls = new Map();
/** procmotion/all (all.js): where `module`'s .wasm is by default (a function returning its URL). */
export function setWasmUrl(module, url) {
  registeredUrls.set(module, url);
}
/** The default URL registered for `module`, or undefined. */
export const registeredWasmUrl = (module) => registeredUrls.get(module)?.();

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
 * The module object the glue calls: the wasm functions of wasm/abi/pm_abi_table.h by name
 * (`mod.pm_abi_alloc(size)`) and heap views (HEAPU8, HEAP32, HEAPU32, HEAPF32, HEAPF64), renewed whenever
 * the memory grows (the core tells through its only import).
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
    for (const [name, fn] of Object.entries(x)) if (name.startsWith('pm_abi_')) mod[name] = fn;
    mod.updateViews();
  };
  return mod;
}
