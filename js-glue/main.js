// procmotion's API, shared by both entries: index.js ('procmotion': each feature module's JS loads
// on the first pm.loadAsync(name), a chunk of its own in a bundle) and all.js ('procmotion/all': every
// feature module's JS in the entry's bundle, beside procmotion-all.wasm). Each entry passes its
// createProcMotion the table of how the feature modules' JS is reached, so that this file holds no
// import() of them (a bundler would split off their chunks even in an app that loads them all at once).
// Internal: the package's exports map does not name this file; the entries re-export it.
//
// The core is procmotion.wasm, fetched beside this file (new URL('./procmotion.wasm', import.meta.url),
// which Vite and webpack 5 bundle as an asset) and compiled while it downloads; each feature module is
// a .wasm of its own that shares the core's memory and loads on the first pm.loadAsync(name). Every
// buffer handed to the module is freed before the call returns; every array handed out is a copy
// (never a view of wasm memory, which may move or be freed). Errors throw ProcMotionError with the
// core's message, its pm_result name in `code` and the module in `module`.
// The layouts as constants (A.VMD_BONES) that bundlers inline; CATWALK_PARAM_SLOTS: the catwalk parameter
// block's slots by parameter name.
import * as A from './dist/abi.js';
import { CATWALK_ARMS, CATWALK_CADENCE, CATWALK_PARAM_SLOTS, CATWALK_STYLE, MODULE_DEPS, MODULES, VMD_FIELD as W } from './dist/abi.js';
import {
  CATWALK_PARAMETERS, DANCE_PARAMETERS, FEATURES, GROOVE_JOINTS, HUMANOID_BONES, IDLE_PARAMETERS, TRACE_EASINGS, TRACE_LIMBS, WAV_ENCODINGS,
} from './constants.js';
import { createModuleObject, instantiate, loadBytes, registeredWasmUrl } from './loader.js';
import {
  ERROR_SIZE, ProcMotionError, Scratch, checkCount, gridBlock, gridOf, invalid, normaliseSkeleton, outOfMemory, readError, toBytes,
  utf8Decoder, utf8Encoder, withScratch,
} from './runtime.js';
import { decodeShiftJisPairs, sjisStoredTable } from './sjis-table.js';

export { CATWALK_PARAMETERS, DANCE_PARAMETERS, GROOVE_JOINTS, HUMANOID_BONES, IDLE_PARAMETERS, ProcMotionError, TRACE_EASINGS, TRACE_LIMBS, WAV_ENCODINGS };

/** The feature modules pm.loadAsync() takes, in the order they depend on each other. */
export const FEATURE_MODULES = Object.freeze(MODULES.filter((m) => m !== 'core'));

// Where each module's .wasm is by default: beside this file. One literal new URL(...) per file, so
// that bundlers see (and copy) every one of them. procmotion-all.wasm has none here, so that an app
// built from this entry does not carry it: procmotion/all (all.js) and the Node entry register it.
const WASM_URLS = {
  core: () => new URL('./procmotion.wasm', import.meta.url),
  motion: () => new URL('./procmotion-motion.wasm', import.meta.url),
  keypoints: () => new URL('./procmotion-keypoints.wasm', import.meta.url),
  beats: () => new URL('./procmotion-beats.wasm', import.meta.url),
  vrm: () => new URL('./procmotion-vrm.wasm', import.meta.url),
};
/** The default URL of `module`'s .wasm: beside this file, or registered (setWasmUrl); undefined for none. */
const defaultUrl = (module) => WASM_URLS[module]?.() ?? registeredWasmUrl(module);
// The Shift-JIS decode table for hosts whose TextDecoder has no shift_jis (fillShiftJisTable).
const SJIS_TABLE_URL = () => new URL('./procmotion-sjis.bin', import.meta.url);

// The VMD name tables: in which section their names, per-name raw fields, back-to-back raw fields and
// variants live, their field width and their first raw descriptor slot.
const VMD_NAME_TABLES = [
  ['bones', 'names', 'rawNames', 'rawNameFields', 'rawNameVariants', W.boneName, A.VMD_BONE_FIELDS],
  ['morphs', 'names', 'rawNames', 'rawNameFields', 'rawNameVariants', W.boneName, A.VMD_MORPH_FIELDS],
  ['properties', 'ikNames', 'rawIkNames', 'rawIkNameFields', 'rawIkNameVariants', W.ikName, A.VMD_IK_FIELDS],
];

// The typed arrays of readVmd's sections (index.d.ts) but the properties': per section its count slot
// and [field, slot, values per key, type], in the order writeVmd checks them.
const VMD_SECTIONS = [
  ['bones', A.VMD_BONES, [
    ['nameIndex', A.VMD_BONE_NAME_INDEX, 1, Uint32Array], ['frames', A.VMD_BONE_FRAME, 1, Uint32Array],
    ['positions', A.VMD_BONE_POSITION, 3, Float32Array], ['rotations', A.VMD_BONE_ROTATION, 4, Float32Array],
    ['interpolations', A.VMD_BONE_INTERP, 64, Uint8Array]]],
  ['morphs', A.VMD_MORPHS, [
    ['nameIndex', A.VMD_MORPH_NAME_INDEX, 1, Uint32Array], ['frames', A.VMD_MORPH_FRAME, 1, Uint32Array],
    ['weights', A.VMD_MORPH_WEIGHT, 1, Float32Array]]],
  ['cameras', A.VMD_CAMERAS, [
    ['frames', A.VMD_CAMERA_FRAME, 1, Uint32Array], ['distances', A.VMD_CAMERA_DISTANCE, 1, Float32Array],
    ['positions', A.VMD_CAMERA_POSITION, 3, Float32Array], ['rotations', A.VMD_CAMERA_ROTATION, 3, Float32Array],
    ['interpolations', A.VMD_CAMERA_INTERP, 24, Uint8Array], ['fovs', A.VMD_CAMERA_FOV, 1, Uint32Array],
    ['perspectives', A.VMD_CAMERA_PERSPECTIVE, 1, Uint8Array]]],
  ['lights', A.VMD_LIGHTS, [
    ['frames', A.VMD_LIGHT_FRAME, 1, Uint32Array], ['colors', A.VMD_LIGHT_COLOR, 3, Float32Array],
    ['directions', A.VMD_LIGHT_DIRECTION, 3, Float32Array]]],
  ['shadows', A.VMD_SHADOWS, [
    ['frames', A.VMD_SHADOW_FRAME, 1, Uint32Array], ['modes', A.VMD_SHADOW_MODE, 1, Uint8Array],
    ['distances', A.VMD_SHADOW_DISTANCE, 1, Float32Array]]],
];

// readVmd's empty rawNameVariants and trailingBytes (immutable, so one object serves every result)
const NO_BYTES = Object.freeze(new Uint8Array(0));
const NO_VARIANTS = Object.freeze({ keys: Object.freeze(new Uint32Array(0)), fields: NO_BYTES });

/** Internal: one Uint8Array view per `width`-byte field of `fields` (name fields back to back). */
function fieldViews(fields, width) {
  const views = new Array(Math.floor(fields.length / width));
  for (let i = 0; i < views.length; i++) views[i] = fields.subarray(i * width, i * width + width);
  return views;
}

/**
 * readVmd's bone and morph sections (own properties as index.d.ts lists them). rawNameFields holds each
 * name's stored 15-byte field back to back (own: spread and structuredClone copy it); rawNames, one view
 * of it per name, is made on first read by this prototype's accessor, which costs readVmd nothing
 * (an own accessor would cost ~3 us a call).
 */
class VmdNamedKeys {
  get rawNames() { return ownValue(this, 'rawNames', fieldViews(this.rawNameFields, W.boneName)); }
  set rawNames(v) { ownValue(this, 'rawNames', v); }
}

/** readVmd's property section: rawIkNames from rawIkNameFields (20 bytes a name), as VmdNamedKeys. */
class VmdPropertyKeys {
  get rawIkNames() { return ownValue(this, 'rawIkNames', fieldViews(this.rawIkNameFields, W.ikName)); }
  set rawIkNames(v) { ownValue(this, 'rawIkNames', v); }
}

/** Internal: make obj[key] a plain data property holding value (replacing a lazy accessor); returns value. */
function ownValue(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/** Internal: `bytes` (array-like) in a zero-filled Uint8Array of exactly n bytes. */
function fixedBytes(bytes, n) {
  const out = new Uint8Array(n);
  for (let i = 0, m = Math.min(n, bytes.length); i < m; i++) out[i] = bytes[i];
  return out;
}

/** The .wasm source for `module` from createProcMotion's `wasm` option (or the default URL; undefined for
 * 'all' when nothing registered one). */
function wasmSource(option, module) {
  if (option === undefined || option === null) return defaultUrl(module);
  const isSource = isUrl(option) || option instanceof ArrayBuffer ||
    ArrayBuffer.isView(option) || option instanceof WebAssembly.Module || typeof option.then === 'function' ||
    (typeof Response !== 'undefined' && option instanceof Response);
  if (!isSource) return option[module] ?? (option.core !== undefined && isUrl(option.core) ? beside(option.core, module) : defaultUrl(module));
  if (module === 'core') return option;
  // a URL for the core: the feature modules are beside it; bytes for the core: the default URLs
  return isUrl(option) ? beside(option, module) : defaultUrl(module);
}
const isUrl = (x) => typeof x === 'string' || x instanceof URL;
/** The file named `file` beside a core given by URL. */
const besideCore = (coreUrl, file) => new URL(file, new URL(coreUrl, globalThis.location?.href));
const beside = (coreUrl, module) => besideCore(coreUrl, `procmotion-${module}.wasm`);

/** Where procmotion-sjis.bin is: createProcMotion's `shiftJisTable`, else beside a core given by URL, else
 * beside this file. */
function shiftJisTableSource(options) {
  if (options.shiftJisTable !== undefined && options.shiftJisTable !== null) return options.shiftJisTable;
  const core = [options.wasm, options.wasm?.core, options.wasm?.all].find(isUrl);
  return core === undefined ? SJIS_TABLE_URL() : besideCore(core, 'procmotion-sjis.bin');
}

/**
 * Internal: fill the core's Shift-JIS decode table, once, before any other call. The npm build's core
 * carries no table (wasm/src/text/sjis_table.h): zero storage that the host fills with the values the
 * native and WASI builds compile in. From the host's TextDecoder('shift_jis') (js-glue/sjis-table.js, the
 * procedure build-scripts/gen-sjis-table.mjs made the compiled table with; every browser and Node with
 * full ICU has it), else from procmotion-sjis.bin (the compiled values, 18.8 KB, loaded as a .wasm is:
 * `options.shiftJisTable`, or beside the core). Either way the core checks the result against the
 * compiled table's checksum, so a host whose decoder differs gets the file, and a wrong file is an
 * error. Resolves to where the table came from: 'TextDecoder', 'file', or 'compiled' (a core that
 * carries its table).
 */
async function fillShiftJisTable(mod, options) {
  const s = new Scratch(mod);
  try {
    const slots = s.alloc(A.SJIS_TABLE_COUNT * 4);
    const info = () => {
      mod.pm_abi_sjis_table(slots);
      return mod.HEAPU32.slice(slots >> 2, (slots >> 2) + A.SJIS_TABLE_COUNT);
    };
    const t = info();
    if (!t[A.SJIS_TABLE_FROM_HOST]) return 'compiled';
    const entries = t[A.SJIS_TABLE_ENTRIES], at = t[A.SJIS_TABLE_TABLE];
    const filled = () => info()[A.SJIS_TABLE_CHECKSUM] === t[A.SJIS_TABLE_EXPECTED];
    const decoded = decodeShiftJisPairs();
    if (decoded && decoded.length - t[A.SJIS_TABLE_EUDC_COUNT] === entries) {
      new Uint16Array(mod.memory.buffer, at, entries).set(sjisStoredTable(decoded, t[A.SJIS_TABLE_EUDC_POINTER], t[A.SJIS_TABLE_EUDC_COUNT]));
      if (filled()) return 'TextDecoder';
    }
    const bytes = await loadBytes(shiftJisTableSource(options), 'procmotion-sjis.bin', 'shiftJisTable');
    if (bytes.byteLength === entries * 2) {
      mod.HEAPU8.set(bytes, at); // little-endian uint16s, as wasm memory holds them
      if (filled()) return 'file';
    }
    throw new ProcMotionError(`procmotion-sjis.bin (${bytes.byteLength} bytes) is not this procmotion.wasm's Shift-JIS table: take both from one package`, 'PM_ERR_WASM', 'loader');
  } finally {
    s.free();
  }
}

/**
 * Load the core and return the API object. options.wasm: where procmotion.wasm is (a URL or its
 * string; bytes; a WebAssembly.Module; a Response), or `{ core, motion, keypoints, all }` for each module;
 * with a URL for the core the feature modules are looked for beside it. options.load: feature modules
 * to load now (a list, as pm.loadAsync would), or 'all': procmotion-all.wasm, every module in one file
 * instead of the core (`wasm.all`, else beside a core given by URL, else the file beside this one when
 * procmotion/all or the Node entry is imported), with every feature module's methods at once; a core
 * given as bytes and no `all`, or a bundle of this entry alone with neither: the split modules, every one
 * loaded (the same API). options.shiftJisTable:
 * where procmotion-sjis.bin is (a URL or its string, bytes, a Response), read only on a host whose
 * TextDecoder has no shift_jis (default: beside a core given by URL, else beside this file).
 * featureCode (from the entry, not the public API): module name -> a function giving that module's JS.
 */
export async function createProcMotion(options = {}, featureCode) {
  if (options === null || typeof options !== 'object') throw invalid('loader', 'createProcMotion: options must be an object');
  const mod = createModuleObject();
  const placeholders = {};
  for (const m of FEATURE_MODULES) {
    // what the core calls in a feature module before it is loaded (the glue checks first; this is the backstop)
    placeholders[`placeholder:${m}`] = new Proxy({}, { get: () => () => { throw notLoaded('this call', m); } });
  }
  // load 'all': every module in one file, unless the core is given as bytes (a Module, a Response) and `all` is
  // not, or nothing says where the one file is (this entry bundled without procmotion/all): the split modules
  const one = options.load === 'all' && (options.wasm?.all != null ||
    (isUrl(wasmSource(options.wasm, 'core')) && wasmSource(options.wasm, 'all') != null));
  const instance = await instantiate(wasmSource(options.wasm, one ? 'all' : 'core'), {
    env: { emscripten_notify_memory_growth: () => mod.updateViews() },
    ...placeholders,
  }, one ? 'procmotion-all.wasm' : 'procmotion.wasm');
  mod.bind(instance);
  instance.exports._initialize();
  const pm = new ProcMotion(mod, options.wasm, await fillShiftJisTable(mod, options), featureCode);
  // the one file holds every module: their JS chunks only
  if (one) await Promise.all(FEATURE_MODULES.map((m) => pm._loadOne(m, true)));
  else if (options.load) await pm.loadAsync(options.load);
  return pm;
}

function notLoaded(what, module) {
  return new ProcMotionError(`${what} needs procmotion's '${module}' module: await pm.loadAsync('${module}') first ` +
    `(or createProcMotion({ load: ['${module}'] }))`, 'PM_ERR_NOT_LOADED', module);
}

// A catwalk that lands (docs/landing.md) without the motion module, which holds the closing step.
function notLanded(what) {
  return new ProcMotionError(`generateCatwalkVmd ${what} lands the walk: its legs are keyed so that MMD's IK puts the feet on ` +
    'the plan, and the result is played and measured with the MMD-exact evaluator (the report), which is procmotion\'s ' +
    `'motion' module: await pm.loadAsync('motion') first (or createProcMotion({ load: ['motion'] })); ` +
    'bone names (and rest positions) alone need only the core', 'PM_ERR_NOT_LOADED', 'motion');
}

export class ProcMotion {
  /** Use createProcMotion(). */
  constructor(mod, wasmOption, shiftJisTable, featureCode) {
    this.mod = mod;
    this._featureCode = featureCode; // module name -> a function giving its JS ({ api }: a namespace, or a promise of one): the entry's table
    this._wasm = wasmOption;
    this._shiftJisTable = shiftJisTable; // where the Shift-JIS table came from (fillShiftJisTable)
    this._loaded = new Set(['core']);
    this._loading = new Map();
  }

  /** Bytes of wasm memory currently reserved (grows, never shrinks). */
  get heapSize() {
    return this.mod.HEAPU8.buffer.byteLength;
  }

  /** Bytes currently allocated inside the module (for leak checks). */
  get heapInUse() {
    return this.mod.pm_abi_heap_in_use();
  }

  /** Library version string. */
  get version() {
    const v = this.mod.pm_abi_version();
    return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
  }

  /** The modules loaded so far ('core' first). */
  get modules() {
    return MODULES.filter((m) => this._loaded.has(m));
  }

  /**
   * Load feature modules: a name ('motion', 'keypoints'), a list, or 'all'. Each loads once (its JS
   * chunk and its .wasm, which shares the core's memory); the modules it depends on load first.
   * Resolves to this ProcMotion.
   */
  async loadAsync(names = 'all') {
    const list = names === 'all' ? FEATURE_MODULES : typeof names === 'string' ? [names] : Array.from(names ?? []);
    for (const name of list) {
      if (!FEATURE_MODULES.includes(name)) {
        throw invalid('loader', `loadAsync: unknown module '${name}' (${FEATURE_MODULES.join(', ')}, or 'all')`);
      }
    }
    for (const name of list) await this._loadOne(name);
    return this;
  }

  /** Internal: load one feature module (its JS chunk, and its .wasm unless `inCore`: procmotion-all.wasm). */
  _loadOne(name, inCore) {
    if (this._loaded.has(name)) return Promise.resolve();
    if (!this._loading.has(name)) {
      const p = (async () => {
        if (!inCore) for (const dep of MODULE_DEPS[name] ?? []) await this._loadOne(dep);
        const [code, instance] = await Promise.all([
          this._featureCode[name](),
          inCore || instantiate(wasmSource(this._wasm, name), { primary: this.mod.exports }, `procmotion-${name}.wasm`),
        ]);
        void instance; // its functions are in the core's table now: the core's exports reach them
        for (const [key, desc] of Object.entries(Object.getOwnPropertyDescriptors(code.api))) {
          Object.defineProperty(this, key, { ...desc, configurable: true, enumerable: false });
        }
        this._loaded.add(name);
      })();
      this._loading.set(name, p);
      p.catch(() => this._loading.delete(name));
    }
    return this._loading.get(name);
  }

  // ---- internal helpers (also used by the feature modules) --------------------------------------

  _scratch() {
    return new Scratch(this.mod);
  }

  /** The core's error at errPtr as a ProcMotionError (module: the one its message names, else `module`). */
  _error(errPtr, module) {
    return readError(this.mod, errPtr, module);
  }

  _utf8(p, len) {
    return utf8Decoder.decode(this.mod.HEAPU8.subarray(p, p + len));
  }

  /** Copy `count` elements of `Type` at address p out of the module. */
  _copy(Type, p, count) {
    if (!count || !p) return new Type(0);
    return new Type(this.mod.HEAPU8.buffer, p, count).slice();
  }

  /**
   * Call an export, call(outPtr, sizePtr, errPtr), that returns 0 and a malloc'd buffer through (out,
   * size) pointers, or a non-zero result with a message (thrown as the core's error); returns outPtr,
   * for _takeBytes / _takeText, which copy the buffer and free the module's.
   */
  _callForOut(s, module, call) {
    const outPtr = s.alloc(8);
    const errPtr = s.alloc(ERROR_SIZE);
    if (call(outPtr, outPtr + 4, errPtr) !== 0) this._throw(s, errPtr, module);
    return outPtr;
  }

  /** _callForOut's buffer as bytes (a copy). */
  _callForBuffer(s, module, call) {
    return this._takeBytes(this._callForOut(s, module, call));
  }

  /** _callForOut's buffer as the JSON text it holds, parsed. */
  _callForJson(s, module, call) {
    return JSON.parse(this._takeText(this._callForOut(s, module, call)));
  }

  /** Throw the core's error at errPtr as a ProcMotionError (after freeing the scratch). */
  _throw(scratch, errPtr, module) {
    const e = this._error(errPtr, module);
    scratch.free();
    throw e;
  }

  /** Read the JSON text the ABI returned through (outPtr -> char*, outPtr + 4 -> length), then free it. */
  _takeText(outPtr) {
    return utf8Decoder.decode(this._takeArray(Uint8Array, outPtr));
  }

  /** Take bytes the ABI returned through (outPtr -> uint8*, outPtr + 4 -> size), then free them. */
  _takeBytes(outPtr) {
    return this._takeArray(Uint8Array, outPtr);
  }

  /** The same for any typed array: (outPtr -> element*, outPtr + 4 -> element count). */
  _takeArray(Type, outPtr) {
    const u32 = this.mod.HEAPU32;
    const p = u32[outPtr >> 2], n = u32[(outPtr >> 2) + 1];
    const out = this._copy(Type, p, n);
    if (p) this.mod.pm_abi_free(p);
    return out;
  }

  /**
   * Internal: a name table in the module: d[slot] = count, d[slot + 1] = the address of count + 2
   * uint32 (count + 1 byte offsets into the UTF-8 blob, then the blob's address). Returns the blob's
   * address (0 and d untouched for no names).
   */
  _putNames(s, d, slot, names) {
    const list = names ?? [];
    if (!list.length) return 0;
    const encoded = list.map((n) => utf8Encoder.encode(String(n)));
    const total = encoded.reduce((a, e) => a + e.byteLength, 0);
    const blob = new Uint8Array(total);
    const offsets = new Uint32Array(list.length + 2);
    let o = 0;
    encoded.forEach((e, i) => {
      offsets[i] = o;
      blob.set(e, o);
      o += e.byteLength;
    });
    offsets[list.length] = o;
    const blobPtr = (offsets[list.length + 1] = s.put(blob));
    d[slot] = list.length;
    d[slot + 1] = s.put(offsets, Uint32Array);
    return blobPtr;
  }

  // ---- VMD -------------------------------------------------------------------------------------

  /**
   * Parse a VMD file. Returns per-section typed arrays plus a table of distinct names per section
   * and a name index per key (see index.d.ts for the shape).
   */
  readVmd(bytes) {
    const data = toBytes(bytes, 'readVmd', 'vmd');
    const mod = this.mod;
    // one ABI call parses the file and packs every array and name table into one block, copied out
    // at once; the typed arrays handed out are views of that copy (each with its own byteOffset)
    const tmp = mod.pm_abi_alloc(data.byteLength + A.VMD_COUNT * 4 + ERROR_SIZE);
    if (!tmp) throw outOfMemory(data.byteLength, 'vmd');
    const dPtr = tmp + ((data.byteLength + 3) & ~3), errPtr = dPtr + A.VMD_COUNT * 4;
    let block = 0;
    try {
      mod.HEAPU8.set(data, tmp);
      block = mod.pm_abi_vmd_read_packed(tmp, data.byteLength, dPtr, errPtr);
      if (!block) throw this._error(errPtr, 'vmd');
      const d = new Uint32Array(mod.HEAPU8.buffer, dPtr, A.VMD_COUNT).slice();
      const copy = mod.HEAPU8.slice(block, block + d[A.VMD_PACKED_SIZE]).buffer;
      return this._vmdFromDescriptor(d, copy);
    } finally {
      if (block) mod.pm_abi_free(block);
      mod.pm_abi_free(tmp);
    }
  }

  /** readVmd's result from a packed block's descriptor (offsets into `buf`, an ArrayBuffer). */
  _vmdFromDescriptor(d, buf) {
    const c = (Type, slot, n) => (n ? new Type(buf, d[slot], n) : new Type(0));
    // the model name and every name of the three tables, joined by NUL: one decode, one split
    const text = d[A.VMD_TEXT_BYTES] ? utf8Decoder.decode(new Uint8Array(buf, d[A.VMD_TEXT], d[A.VMD_TEXT_BYTES])) : '';
    const all = text.split('\0');
    const nbn = d[A.VMD_BONE_NAMES], nmn = d[A.VMD_MORPH_NAMES];
    const boneNames = all.slice(1, 1 + nbn), morphNames = all.slice(1 + nbn, 1 + nbn + nmn);
    const ikNames = all.slice(1 + nbn + nmn);
    const vmd = { version: d[A.VMD_VERSION], sections: d[A.VMD_SECTIONS], modelName: all[0] };
    const named = { bones: [boneNames, A.VMD_BONE_FIELDS], morphs: [morphNames, A.VMD_MORPH_FIELDS] };
    for (const [key, countSlot, fields] of VMD_SECTIONS) {
      const n = d[countSlot];
      const section = named[key] ? new VmdNamedKeys() : {};
      section.count = n;
      if (named[key]) {
        const [names, slot] = named[key];
        section.names = names;
        section.rawNameFields = c(Uint8Array, slot, names.length * W.boneName);
      }
      for (const [field, slot, per, Type] of fields) section[field] = c(Type, slot, n * per);
      vmd[key] = section;
    }
    const np = d[A.VMD_PROPS];
    const p = new VmdPropertyKeys();
    p.count = np;
    p.frames = c(Uint32Array, A.VMD_PROP_FRAME, np);
    p.visible = c(Uint8Array, A.VMD_PROP_VISIBLE, np);
    p.ikStart = np ? c(Uint32Array, A.VMD_PROP_IK_START, np + 1) : new Uint32Array([0]);
    p.ikNames = ikNames;
    p.rawIkNameFields = c(Uint8Array, A.VMD_IK_FIELDS, ikNames.length * W.ikName);
    p.ikNameIndex = c(Uint32Array, A.VMD_PROP_IK_NAME_INDEX, d[A.VMD_PROP_IK_COUNT]);
    p.ikEnabled = c(Uint8Array, A.VMD_PROP_IK_ENABLED, d[A.VMD_PROP_IK_COUNT]);
    vmd.properties = p;
    // keys whose field differs from their name's only in the padding (usually none: a shared frozen empty)
    for (const [key, , , , variantsKey, width, slot] of VMD_NAME_TABLES) {
      const nv = d[slot + 1];
      vmd[key][variantsKey] = nv ? { keys: c(Uint32Array, slot + 2, nv), fields: c(Uint8Array, slot + 3, nv * width) } : NO_VARIANTS;
    }
    vmd.rawHeader = new Uint8Array(buf, d[A.VMD_HEADER], W.header);
    vmd.rawModelName = new Uint8Array(buf, d[A.VMD_MODEL_FIELD], d[A.VMD_VERSION] === 1 ? W.modelNameV1 : W.modelName);
    vmd.trailingBytes = d[A.VMD_TRAILING_SIZE] ? c(Uint8Array, A.VMD_TRAILING, d[A.VMD_TRAILING_SIZE]) : NO_BYTES;
    return vmd;
  }

  /**
   * Serialise a motion shaped like readVmd's result (missing sections are empty; plain arrays are
   * accepted where typed arrays are documented). Returns the file as a Uint8Array: by default a file
   * read with readVmd comes back byte for byte (names whose text is unchanged are written as their raw
   * fields, the header, sections and trailing bytes as read); `{ canonical: true }` writes the 0002
   * header, NUL padding, all six section counts and nothing after them.
   */
  writeVmd(vmd, options = {}) {
    if (!vmd || typeof vmd !== 'object') throw invalid('vmd', 'writeVmd: expected a VMD object');
    return withScratch(this, (s) => {
      const d = new Uint32Array(A.VMD_COUNT);
      const modelName = utf8Encoder.encode(vmd.modelName ?? '');
      d[A.VMD_MODEL_NAME] = s.put(modelName);
      d[A.VMD_MODEL_NAME_LEN] = modelName.byteLength;
      d[A.VMD_VERSION] = checkCount(vmd.version ?? 2, 'writeVmd: version', 'vmd');
      d[A.VMD_SECTIONS] = checkCount(vmd.sections ?? 6, 'writeVmd: sections', 'vmd');
      d[A.VMD_CANONICAL] = options?.canonical ? 1 : 0;
      if (vmd.rawHeader) d[A.VMD_HEADER] = s.put(fixedBytes(vmd.rawHeader, W.header));
      if (vmd.rawModelName) d[A.VMD_MODEL_FIELD] = s.put(fixedBytes(vmd.rawModelName, W.modelName));
      if (vmd.trailingBytes?.length) {
        d[A.VMD_TRAILING] = s.put(vmd.trailingBytes, Uint8Array);
        d[A.VMD_TRAILING_SIZE] = vmd.trailingBytes.length;
      }
      for (const [key, namesKey, rawKey, fieldsKey, variantsKey, width, slot] of VMD_NAME_TABLES) {
        const section = vmd[key];
        const count = section?.[namesKey]?.length ?? 0;
        // the per-name fields when the section has them (set by the caller, or made by reading them),
        // else the back-to-back ones readVmd made
        const raw = count && Object.prototype.hasOwnProperty.call(section, rawKey) ? section[rawKey] : null;
        const flat = count && !raw ? section[fieldsKey] : null;
        if (raw || flat) {
          const fields = new Uint8Array(count * width);
          if (flat) fields.set(flat.length > fields.length ? Array.prototype.slice.call(flat, 0, fields.length) : flat);
          else for (let i = 0; i < count; i++) {
            const f = raw[i];
            if (f) for (let k = 0, n = Math.min(width, f.length); k < n; k++) fields[i * width + k] = f[k];
          }
          d[slot] = s.put(fields);
        }
        const variants = section?.[variantsKey];
        const nv = variants?.keys?.length ?? 0;
        if (nv) {
          if (!variants.fields || variants.fields.length < nv * width) {
            throw invalid('vmd', `writeVmd: ${key}.${variantsKey}.fields has ${variants.fields?.length ?? 0} bytes, ${nv * width} needed`);
          }
          d[slot + 1] = nv;
          d[slot + 2] = s.put(variants.keys, Uint32Array);
          d[slot + 3] = s.put(variants.fields, Uint8Array);
        }
      }
      const p = vmd.properties ?? {};
      this._putNames(s, d, A.VMD_BONE_NAMES, vmd.bones?.names);
      this._putNames(s, d, A.VMD_MORPH_NAMES, vmd.morphs?.names);
      this._putNames(s, d, A.VMD_IK_NAMES, p.ikNames);
      const count = (sec) => checkCount(sec.count ?? (sec.frames ? sec.frames.length : 0), 'writeVmd: a section count', 'vmd');
      const need = (arr, n, what) => {
        if (n && (!arr || arr.length < n)) throw invalid('vmd', `writeVmd: ${what} has ${arr ? arr.length : 0} values, ${n} needed`);
        return arr;
      };
      for (const [key, countSlot, fields] of VMD_SECTIONS) {
        const section = vmd[key] ?? {};
        const n = count(section);
        d[countSlot] = n;
        if (n) for (const [field, slot, per, Type] of fields) d[slot] = s.put(need(section[field], n * per, `${key}.${field}`), Type);
      }
      const np = count(p);
      d[A.VMD_PROPS] = np;
      if (np) {
        const ikStart = need(p.ikStart, np + 1, 'properties.ikStart');
        const nik = checkCount(ikStart[np], 'writeVmd: properties.ikStart[count]', 'vmd');
        d[A.VMD_PROP_FRAME] = s.put(need(p.frames, np, 'properties.frames'), Uint32Array);
        d[A.VMD_PROP_VISIBLE] = s.put(need(p.visible, np, 'properties.visible'), Uint8Array);
        d[A.VMD_PROP_IK_START] = s.put(ikStart, Uint32Array);
        d[A.VMD_PROP_IK_COUNT] = nik;
        if (nik) {
          d[A.VMD_PROP_IK_NAME_INDEX] = s.put(need(p.ikNameIndex, nik, 'properties.ikNameIndex'), Uint32Array);
          d[A.VMD_PROP_IK_ENABLED] = s.put(need(p.ikEnabled, nik, 'properties.ikEnabled'), Uint8Array);
        }
      }
      const dPtr = s.put(d, Uint32Array);
      return this._callForBuffer(s, 'vmd', (outPtr, sizePtr, errPtr) => this.mod.pm_abi_vmd_write(dPtr, outPtr, sizePtr, errPtr));
    });
  }

  /** A single bone key of a readVmd result as a plain object (a convenience, not for hot loops). */
  static boneKey(vmd, i) {
    const b = vmd.bones;
    return {
      name: b.names[b.nameIndex[i]],
      frame: b.frames[i],
      position: Array.from(b.positions.subarray(3 * i, 3 * i + 3)),
      rotation: Array.from(b.rotations.subarray(4 * i, 4 * i + 4)),
      interpolation: b.interpolations.subarray(64 * i, 64 * i + 64),
    };
  }

  // ---- catwalk ---------------------------------------------------------------------------------

  /**
   * Generate a looping runway walk (the compatibility signature shared with generateIdleVmd and the others): `{ vmd, plan, report,
   * loopFrames, ... }` (what was generated on the result itself; `plan`: where the ankles are meant to
   * be; `report`: what MMD plays, measured with the MMD-exact evaluator, docs/landing.md). `state`
   * carries the parameters, read as `state.catwalk.X`, `state.catwalkX` or `state.X` (in that order of
   * preference); `bpm` is the music tempo or null; the name lists come from the model (null = a model
   * with every semi-standard bone / no morphs). `options.skeleton`: the model as PMX/PMD bytes or
   * readPmx's skeleton (needs the 'motion' module: the legs are landed on it and the report measured on
   * it), or { names?, positions, parents? } with world rest positions (stride and lift follow the leg
   * length; report null); its names (and morph names) stand in for null lists. See index.d.ts and
   * docs/catwalk.md. A walk that lands (a whole model; no bone names: the standard figure, landed on the
   * mannequin) is the 'motion' module's: PM_ERR_NOT_LOADED without it.
   */
  generateCatwalkVmd(state, bpm, morphNames, boneNames, options = {}) {
    // bpm: a number, or a beat grid ({ bpm, offset }, a detectBeats result, pm.beatGrid(...)): the heel
    // strikes then land on its beats (docs/catwalk.md, "Music")
    // (normalised here, checked by the core: no 'beats' module needed)
    const grid = bpm !== null && typeof bpm === 'object' ? gridOf(bpm, undefined, 'catwalk') : null;
    const params = catwalkParams(state ?? {}, grid ? null : bpm);
    params.grid = grid;
    const skeleton = options?.skeleton ?? null;
    // a whole model (PMX/PMD bytes or readPmx's skeleton): the legs are landed on it and measured
    if (skeleton && (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer || Array.isArray(skeleton.bones))) {
      if (!this._loaded.has('motion')) throw notLanded('on a model (PMX/PMD bytes or readPmx\'s skeleton)');
      return this._withSkeleton(skeleton, (handle) => this._catwalk(params, null, [], null, null, handle), 'generateCatwalkVmd');
    }
    let bones = boneNames == null ? null : Array.from(boneNames, String);
    let positions = null, parents = null;
    if (skeleton) {
      const sk = normaliseSkeleton(skeleton, bones, 'catwalk', 'generateCatwalkVmd');
      if (!bones) bones = sk.names;
      positions = sk.positionsFor(bones);
      parents = sk.parentsFor(bones);
    }
    const morphSource = morphNames ?? (Array.isArray(skeleton?.morphNames) ? skeleton.morphNames : null);
    const morphs = morphSource == null ? [] : Array.from(morphSource, String);
    return this._catwalk(params, bones, morphs, positions, parents, 0);
  }

  /**
   * Internal: the catwalk exports (a skeleton handle, or name lists and rest positions). A walk that
   * lands (a skeleton; no bone names: the standard figure, landed on the mannequin) is the motion
   * module's export; names (and rest positions) alone, the core's.
   */
  _catwalk({ grid, block, late }, bones, morphs, positions, parents, skeleton) {
    // what the core rejected of poseArmAngle's shape when it read JSON, rejected where it was (after the model)
    if (late) throw invalid('catwalk', late);
    const lands = skeleton !== 0 || !bones;
    if (lands && !this._loaded.has('motion')) throw notLanded('without a model or bone names (the standard figure)');
    return withScratch(this, (s) => {
      const d = new Uint32Array(A.CATWALK_COUNT);
      if (grid) d[A.CATWALK_GRID] = gridBlock(s, grid);
      d[A.CATWALK_PARAMS] = s.put(block, Float64Array);
      d[A.CATWALK_HAS_MODEL] = (bones || morphs.length ? 1 : 0) | (bones ? 2 : 0);
      if (bones) this._putNames(s, d, A.CATWALK_BONES, bones);
      this._putNames(s, d, A.CATWALK_MORPHS, morphs);
      if (positions) d[A.CATWALK_POSITIONS] = s.put(positions, Float32Array);
      if (parents) d[A.CATWALK_PARENTS] = s.put(parents, Int32Array);
      d[A.CATWALK_SKELETON] = skeleton;
      const dPtr = s.put(d, Uint32Array);
      const oPtr = s.alloc(A.CATWALK_OUT_COUNT * 4);
      const errPtr = s.alloc(ERROR_SIZE);
      const generate = lands ? this.mod.pm_abi_catwalk_generate_landed : this.mod.pm_abi_catwalk_generate;
      if (generate(dPtr, oPtr, errPtr) !== 0) this._throw(s, errPtr, 'catwalk');
      const at = (slot) => oPtr + 4 * slot;
      const vmd = this._takeBytes(at(A.CATWALK_OUT_VMD));
      const info = JSON.parse(this._takeText(at(A.CATWALK_OUT_INFO)));
      const ankles = this._takeArray(Float32Array, at(A.CATWALK_OUT_PLAN));
      const contact = this._takeArray(Uint8Array, at(A.CATWALK_OUT_CONTACT));
      const plan = { ...info.plan, ankles, contact };
      if (info.sync?.strikes) plan.strikes = info.sync.strikes, delete info.sync.strikes;
      delete info.plan;
      delete info.verified;
      return { vmd, ...info, plan };
    });
  }

  // ---- Shift-JIS -------------------------------------------------------------------------------

  /**
   * Encode a string as Shift-JIS (Windows-31J, WHATWG choices). With `maxBytes` the result is cut at a
   * whole character (never splitting a double-byte one). Throws ProcMotionError naming a character
   * Shift-JIS cannot encode.
   */
  encodeShiftJis(text, maxBytes) {
    const utf8 = utf8Encoder.encode(String(text));
    const cap = checkCount(maxBytes ?? utf8.byteLength * 2 + 1, 'encodeShiftJis: maxBytes', 'text');
    return withScratch(this, (s) => {
      const inPtr = s.put(utf8);
      const outPtr = s.alloc(cap);
      const lenPtr = s.alloc(4);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod.pm_abi_sjis_encode(inPtr, utf8.byteLength, outPtr, cap, lenPtr, errPtr) !== 0) this._throw(s, errPtr, 'text');
      return this._copy(Uint8Array, outPtr, this.mod.HEAPU32[lenPtr >> 2]);
    });
  }

  /** Decode Shift-JIS bytes (invalid sequences become U+FFFD, as WHATWG's decoder does). */
  decodeShiftJis(bytes) {
    const data = toBytes(bytes, 'decodeShiftJis', 'text');
    return withScratch(this, (s) => {
      const inPtr = s.put(data);
      const cap = data.byteLength * 3 + 1;
      const outPtr = s.alloc(cap);
      const n = this.mod.pm_abi_sjis_decode(inPtr, data.byteLength, outPtr, cap);
      return this._utf8(outPtr, n);
    });
  }
}

// The feature modules' methods and properties, until their module is loaded on this instance: each
// throws ProcMotionError 'PM_ERR_NOT_LOADED' naming the module (pm.loadAsync puts the real ones on the
// instance).
for (const [module, names] of Object.entries(FEATURES)) {
  for (const name of names) {
    const fail = () => { throw notLoaded(`pm.${name}`, module); };
    const isProperty = /Names$/.test(name);
    Object.defineProperty(ProcMotion.prototype, name, isProperty ? { get: fail, configurable: true } : { value: fail, writable: true, configurable: true });
  }
}

// ---- catwalk parameters ----------------------------------------------------------------------------

const CATWALK_ENUMS = { stepCadence: CATWALK_CADENCE, armPose: CATWALK_ARMS, style: CATWALK_STYLE }; // 0 = default
const CATWALK_BOOLS = new Set(['traverse', 'uTurn']);

function badParam(name, what, value) {
  return invalid('catwalk', `generateCatwalkVmd: ${name} ${what}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
}

function finite(name, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badParam(name, 'must be a finite number', v);
  return v;
}

/**
 * The state's parameters -> `{ block, late }`: the core's parameter block (CATWALK_PARAM_BLOCK: a { given,
 * value } pair per parameter, each value checked again by the core as its JSON reader checks it), and
 * the message of what that reader rejected of poseArmAngle's shape (thrown by _catwalk, where it was).
 */
function catwalkParams(state, bpm) {
  if (typeof state !== 'object') throw badParam('state', 'must be an object', state);
  const nested = state.catwalk && typeof state.catwalk === 'object' ? state.catwalk : {};
  const block = new Float64Array(A.CATWALK_PARAM_BLOCK_COUNT);
  let late = null;
  const put = (name, v) => {
    const at = CATWALK_PARAM_SLOTS[name];
    block[at] = 1;
    block[at + 1] = v === 0 ? 0 : v; // -0 as JSON gave it: 0
  };
  for (const name of CATWALK_PARAMETERS) {
    const prefixed = 'catwalk' + name[0].toUpperCase() + name.slice(1);
    let v = nested[name];
    if (v === undefined) v = state[prefixed];
    if (v === undefined) v = state[name];
    if (v === undefined || v === null) continue;
    const e = CATWALK_ENUMS[name];
    if (e) {
      const choices = Object.keys(e).filter((k) => e[k]);
      if (!choices.includes(v)) throw badParam(name, `must be ${choices.map((c) => `'${c}'`).join(' or ')}`, v);
      put(name, e[v]);
    } else if (CATWALK_BOOLS.has(name)) {
      if (typeof v !== 'boolean') throw badParam(name, 'must be true or false', v);
      put(name, +v);
    } else if (name === 'poseArmAngle') {
      if (typeof v === 'number') put('poseShoulder', finite('poseArmAngle', v));
      else if (Array.isArray(v)) {
        const a = v.map((x, i) => finite(`poseArmAngle[${i}]`, x)); // holes stay holes: not given
        if (a.length < 1 || a.length > 2) late ??= 'catwalk: poseArmAngle must be [shoulder, elbow] in degrees';
        else {
          if (a[0] !== undefined) put('poseShoulder', a[0]);
          if (a[1] !== undefined) put('poseElbow', a[1]);
        }
      } else if (typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (x === undefined || x === null) continue;
          finite(`poseArmAngle.${k}`, x);
          if (k === 'shoulder' || k === 'elbow') put(k === 'shoulder' ? 'poseShoulder' : 'poseElbow', x);
          else if (k !== '__proto__') late ??= `catwalk: poseArmAngle has an unknown key '${k}'`;
        }
      } else throw badParam(name, 'must be {shoulder, elbow} in degrees', v);
    } else if (name === 'blink' && typeof v === 'boolean') {
      put(name, +v);
    } else {
      put(name, finite(name, v));
    }
  }
  if (bpm !== undefined && bpm !== null) put('bpm', finite('bpm', bpm));
  return { block, late };
}

