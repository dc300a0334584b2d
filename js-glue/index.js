// procmotion JS glue: a thin ES module over the WebAssembly core.
//
//   import { createProcMotion } from 'procmotion';
//   const pm = await createProcMotion();
//   const vmd = pm.readVmd(bytes);          // plain object of typed arrays, see index.d.ts
//   const bytes2 = pm.writeVmd(vmd);        // Uint8Array
//   const walk = pm.generateCatwalkVmd({ hipSway: 0.8 }, 128, morphNames, boneNames);  // walk.vmd
//   const kp = pm.toKeypoints(bvhBytes);     // MediaPipe Pose 33 frames as typed arrays
//   const ndjson = pm.encodeKeypoints(kp);   // one frame per line; 'binary' for 239-byte frames
//
// Every buffer handed to the module is freed before the call returns; every array handed out is a
// copy (never a view of wasm memory, which may move or be freed). Errors throw ProcMotionError with
// the core's message.
import createProcMotionModule from './dist/procmotion.mjs';
import { GROOVE_JOINTS, installGroove } from './groove.js';

const ERROR_SIZE = 256;
const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** An error raised by the procmotion core; `message` is the core's sentence naming what was wrong. */
export class ProcMotionError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'ProcMotionError';
    this.code = code;
  }
}

// Descriptor slots of pm_abi_vmd_describe / pm_abi_vmd_write (wasm/abi/abi_vmd.c).
const D = {
  VERSION: 0, SECTIONS: 1, MODEL_NAME: 2, MODEL_NAME_LEN: 3,
  BONE_NAMES: 4, MORPH_NAMES: 6, IK_NAMES: 8,
  BONES: 10, BONE_NAME_INDEX: 11, BONE_FRAME: 12, BONE_POSITION: 13, BONE_ROTATION: 14, BONE_INTERP: 15,
  MORPHS: 16, MORPH_NAME_INDEX: 17, MORPH_FRAME: 18, MORPH_WEIGHT: 19,
  CAMERAS: 20, CAMERA_FRAME: 21, CAMERA_DISTANCE: 22, CAMERA_POSITION: 23, CAMERA_ROTATION: 24,
  CAMERA_INTERP: 25, CAMERA_FOV: 26, CAMERA_PERSPECTIVE: 27,
  LIGHTS: 28, LIGHT_FRAME: 29, LIGHT_COLOR: 30, LIGHT_DIRECTION: 31,
  SHADOWS: 32, SHADOW_FRAME: 33, SHADOW_MODE: 34, SHADOW_DISTANCE: 35,
  PROPS: 36, PROP_FRAME: 37, PROP_VISIBLE: 38, PROP_IK_START: 39, PROP_IK_COUNT: 40,
  PROP_IK_NAME_INDEX: 41, PROP_IK_ENABLED: 42,
  PACKED_SIZE: 43, TEXT: 44, TEXT_BYTES: 45,
  HEADER: 46, MODEL_FIELD: 47, TRAILING: 48, TRAILING_SIZE: 49,
  BONE_FIELDS: 50, MORPH_FIELDS: 54, IK_FIELDS: 58, // each: fields, variant count, variant keys, variant fields
  CANONICAL: 62,
};

// The VMD name tables: in which section their names, per-name raw fields, back-to-back raw fields and
// variants live, their field width and their first raw descriptor slot.
const VMD_NAME_TABLES = [
  ['bones', 'names', 'rawNames', 'rawNameFields', 'rawNameVariants', 15, D.BONE_FIELDS],
  ['morphs', 'names', 'rawNames', 'rawNameFields', 'rawNameVariants', 15, D.MORPH_FIELDS],
  ['properties', 'ikNames', 'rawIkNames', 'rawIkNameFields', 'rawIkNameVariants', 20, D.IK_FIELDS],
];

// The typed arrays of readVmd's sections (index.d.ts) but the properties': per section its count slot
// and [field, slot, values per key, type], in the order writeVmd checks them.
const VMD_SECTIONS = [
  ['bones', D.BONES, [
    ['nameIndex', D.BONE_NAME_INDEX, 1, Uint32Array], ['frames', D.BONE_FRAME, 1, Uint32Array],
    ['positions', D.BONE_POSITION, 3, Float32Array], ['rotations', D.BONE_ROTATION, 4, Float32Array],
    ['interpolations', D.BONE_INTERP, 64, Uint8Array]]],
  ['morphs', D.MORPHS, [
    ['nameIndex', D.MORPH_NAME_INDEX, 1, Uint32Array], ['frames', D.MORPH_FRAME, 1, Uint32Array],
    ['weights', D.MORPH_WEIGHT, 1, Float32Array]]],
  ['cameras', D.CAMERAS, [
    ['frames', D.CAMERA_FRAME, 1, Uint32Array], ['distances', D.CAMERA_DISTANCE, 1, Float32Array],
    ['positions', D.CAMERA_POSITION, 3, Float32Array], ['rotations', D.CAMERA_ROTATION, 3, Float32Array],
    ['interpolations', D.CAMERA_INTERP, 24, Uint8Array], ['fovs', D.CAMERA_FOV, 1, Uint32Array],
    ['perspectives', D.CAMERA_PERSPECTIVE, 1, Uint8Array]]],
  ['lights', D.LIGHTS, [
    ['frames', D.LIGHT_FRAME, 1, Uint32Array], ['colors', D.LIGHT_COLOR, 3, Float32Array],
    ['directions', D.LIGHT_DIRECTION, 3, Float32Array]]],
  ['shadows', D.SHADOWS, [
    ['frames', D.SHADOW_FRAME, 1, Uint32Array], ['modes', D.SHADOW_MODE, 1, Uint8Array],
    ['distances', D.SHADOW_DISTANCE, 1, Float32Array]]],
];

/** The 22 humanoid bones (VRM names) in the core's order (procmotion/humanoid.h). */
export const HUMANOID_BONES = [
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
];
const HUMANOID_NAMINGS = ['none', 'vroid', 'mixamo', 'mmd', 'chinese', 'biped', 'cmu', 'daz', 'english'];

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
  get rawNames() { return ownValue(this, 'rawNames', fieldViews(this.rawNameFields, 15)); }
  set rawNames(v) { ownValue(this, 'rawNames', v); }
}

/** readVmd's property section: rawIkNames from rawIkNameFields (20 bytes a name), as VmdNamedKeys. */
class VmdPropertyKeys {
  get rawIkNames() { return ownValue(this, 'rawIkNames', fieldViews(this.rawIkNameFields, 20)); }
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

/** Load the WebAssembly module and return the API object. */
export async function createProcMotion(options = {}) {
  const mod = await createProcMotionModule(options.moduleOptions ?? {});
  return new ProcMotion(mod);
}

/**
 * Internal: a count or size handed to the module must be an integer in 0..2^32-1. The wasm ABI takes
 * uint32 and JS numbers wrap modulo 2^32 on the way in, so an unchecked 2^32 + 100 would allocate 100
 * bytes for a call that then writes 4 GB (found by tests/node/hardening.test.mjs).
 */
function checkCount(n, what) {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    throw new ProcMotionError(`${what} must be an integer in 0..4294967295, got ${n}`, 'PM_ERR_INVALID_ARGUMENT');
  }
  return n;
}

/** Internal: allocations inside the module, all released by `free()`. */
class Scratch {
  constructor(mod) {
    this.mod = mod;
    this.ptrs = [];
  }
  alloc(size) {
    if (!Number.isInteger(size) || size < 0) throw new ProcMotionError(`cannot allocate ${size} bytes`, 'PM_ERR_INVALID_ARGUMENT');
    if (size > 0xffffffff) throw new ProcMotionError(`out of wasm memory allocating ${size} bytes`, 'PM_ERR_OUT_OF_MEMORY');
    const p = this.mod._pm_abi_alloc(size > 0 ? size : 1);
    if (!p) throw new ProcMotionError(`out of wasm memory allocating ${size} bytes`, 'PM_ERR_OUT_OF_MEMORY');
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

export class ProcMotion {
  constructor(mod) {
    this.mod = mod;
  }

  /** Bytes of wasm memory currently reserved (grows, never shrinks). */
  get heapSize() {
    return this.mod.HEAPU8.buffer.byteLength;
  }

  /** Bytes currently allocated inside the module (for leak checks). */
  get heapInUse() {
    return this.mod._pm_abi_heap_in_use();
  }

  /** Library version string. */
  get version() {
    const v = this.mod._pm_abi_version();
    return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
  }

  // ---- internal helpers ------------------------------------------------------------------------

  _scratch() {
    return new Scratch(this.mod);
  }

  _errorText(p) {
    return this._string(p, ERROR_SIZE);
  }

  /** NUL-terminated UTF-8 at p (at most max bytes). */
  _string(p, max) {
    const heap = this.mod.HEAPU8;
    let end = p;
    while (end < p + max && heap[end] !== 0) end++;
    return utf8Decoder.decode(heap.subarray(p, end));
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
   * Call an export that returns 0 and a malloc'd buffer through (out, size) pointers, or a non-zero
   * result with a message; returns a copy of the buffer and frees the module's.
   */
  _callForBuffer(s, code, call) {
    const outPtr = s.alloc(8);
    const errPtr = s.alloc(ERROR_SIZE);
    if (call(outPtr, outPtr + 4, errPtr) !== 0) this._throw(s, errPtr, code);
    const u32 = this.mod.HEAPU32;
    const buf = u32[outPtr >> 2], size = u32[(outPtr >> 2) + 1];
    const bytes = this._copy(Uint8Array, buf, size);
    this.mod._pm_abi_free(buf);
    return bytes;
  }

  /** Throw ProcMotionError from an error buffer. */
  _throw(scratch, errPtr, code) {
    const message = this._errorText(errPtr) || 'procmotion: unknown error';
    scratch.free();
    throw new ProcMotionError(message, code);
  }

  // ---- VMD -------------------------------------------------------------------------------------

  /**
   * Parse a VMD file. Returns per-section typed arrays plus a table of distinct names per section
   * and a name index per key (see index.d.ts for the shape).
   */
  readVmd(bytes) {
    const data = toBytes(bytes, 'readVmd');
    const mod = this.mod;
    // one ABI call parses the file and packs every array and name table into one block, copied out
    // at once; the typed arrays handed out are views of that copy (each with its own byteOffset)
    const slots = mod._pm_abi_vmd_descriptor_slots();
    const tmp = mod._pm_abi_alloc(data.byteLength + slots * 4 + ERROR_SIZE);
    if (!tmp) throw new ProcMotionError(`out of wasm memory allocating ${data.byteLength} bytes`, 'PM_ERR_OUT_OF_MEMORY');
    const dPtr = tmp + ((data.byteLength + 3) & ~3), errPtr = dPtr + slots * 4;
    let block = 0;
    try {
      mod.HEAPU8.set(data, tmp);
      block = mod._pm_abi_vmd_read_packed(tmp, data.byteLength, dPtr, errPtr);
      if (!block) throw new ProcMotionError(this._errorText(errPtr), 'vmd');
      const d = new Uint32Array(mod.HEAPU8.buffer, dPtr, slots).slice();
      const copy = mod.HEAPU8.slice(block, block + d[D.PACKED_SIZE]).buffer;
      return this._vmdFromDescriptor(d, copy);
    } finally {
      if (block) mod._pm_abi_free(block);
      mod._pm_abi_free(tmp);
    }
  }

  /** readVmd's result from a packed block's descriptor (offsets into `buf`, an ArrayBuffer). */
  _vmdFromDescriptor(d, buf) {
    const c = (Type, slot, n) => (n ? new Type(buf, d[slot], n) : new Type(0));
    // the model name and every name of the three tables, joined by NUL: one decode, one split
    const text = d[D.TEXT_BYTES] ? utf8Decoder.decode(new Uint8Array(buf, d[D.TEXT], d[D.TEXT_BYTES])) : '';
    const all = text.split('\0');
    const nbn = d[D.BONE_NAMES], nmn = d[D.MORPH_NAMES];
    const boneNames = all.slice(1, 1 + nbn), morphNames = all.slice(1 + nbn, 1 + nbn + nmn);
    const ikNames = all.slice(1 + nbn + nmn);
    const vmd = { version: d[D.VERSION], sections: d[D.SECTIONS], modelName: all[0] };
    const named = { bones: [boneNames, D.BONE_FIELDS], morphs: [morphNames, D.MORPH_FIELDS] };
    for (const [key, countSlot, fields] of VMD_SECTIONS) {
      const n = d[countSlot];
      const section = named[key] ? new VmdNamedKeys() : {};
      section.count = n;
      if (named[key]) {
        const [names, slot] = named[key];
        section.names = names;
        section.rawNameFields = c(Uint8Array, slot, names.length * 15);
      }
      for (const [field, slot, per, Type] of fields) section[field] = c(Type, slot, n * per);
      vmd[key] = section;
    }
    const np = d[D.PROPS];
    const p = new VmdPropertyKeys();
    p.count = np;
    p.frames = c(Uint32Array, D.PROP_FRAME, np);
    p.visible = c(Uint8Array, D.PROP_VISIBLE, np);
    p.ikStart = np ? c(Uint32Array, D.PROP_IK_START, np + 1) : new Uint32Array([0]);
    p.ikNames = ikNames;
    p.rawIkNameFields = c(Uint8Array, D.IK_FIELDS, ikNames.length * 20);
    p.ikNameIndex = c(Uint32Array, D.PROP_IK_NAME_INDEX, d[D.PROP_IK_COUNT]);
    p.ikEnabled = c(Uint8Array, D.PROP_IK_ENABLED, d[D.PROP_IK_COUNT]);
    vmd.properties = p;
    // keys whose field differs from their name's only in the padding (usually none: a shared frozen empty)
    for (const [key, , , , variantsKey, width, slot] of VMD_NAME_TABLES) {
      const nv = d[slot + 1];
      vmd[key][variantsKey] = nv ? { keys: c(Uint32Array, slot + 2, nv), fields: c(Uint8Array, slot + 3, nv * width) } : NO_VARIANTS;
    }
    vmd.rawHeader = new Uint8Array(buf, d[D.HEADER], 30);
    vmd.rawModelName = new Uint8Array(buf, d[D.MODEL_FIELD], d[D.VERSION] === 1 ? 10 : 20);
    vmd.trailingBytes = d[D.TRAILING_SIZE] ? c(Uint8Array, D.TRAILING, d[D.TRAILING_SIZE]) : NO_BYTES;
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
    if (!vmd || typeof vmd !== 'object') throw new ProcMotionError('writeVmd: expected a VMD object', 'PM_ERR_INVALID_ARGUMENT');
    const s = this._scratch();
    try {
      const slots = this.mod._pm_abi_vmd_descriptor_slots();
      const d = new Uint32Array(slots);
      const modelName = utf8Encoder.encode(vmd.modelName ?? '');
      d[D.MODEL_NAME] = s.put(modelName);
      d[D.MODEL_NAME_LEN] = modelName.byteLength;
      d[D.VERSION] = checkCount(vmd.version ?? 2, 'writeVmd: version');
      d[D.SECTIONS] = checkCount(vmd.sections ?? 6, 'writeVmd: sections');
      d[D.CANONICAL] = options?.canonical ? 1 : 0;
      if (vmd.rawHeader) d[D.HEADER] = s.put(fixedBytes(vmd.rawHeader, 30));
      if (vmd.rawModelName) d[D.MODEL_FIELD] = s.put(fixedBytes(vmd.rawModelName, 20));
      if (vmd.trailingBytes?.length) {
        d[D.TRAILING] = s.put(vmd.trailingBytes, Uint8Array);
        d[D.TRAILING_SIZE] = vmd.trailingBytes.length;
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
            throw new ProcMotionError(`writeVmd: ${key}.${variantsKey}.fields has ${variants.fields?.length ?? 0} bytes, ${nv * width} needed`, 'PM_ERR_INVALID_ARGUMENT');
          }
          d[slot + 1] = nv;
          d[slot + 2] = s.put(variants.keys, Uint32Array);
          d[slot + 3] = s.put(variants.fields, Uint8Array);
        }
      }
      const p = vmd.properties ?? {};
      this._putNames(s, d, D.BONE_NAMES, vmd.bones?.names);
      this._putNames(s, d, D.MORPH_NAMES, vmd.morphs?.names);
      this._putNames(s, d, D.IK_NAMES, p.ikNames);
      const count = (sec) => checkCount(sec.count ?? (sec.frames ? sec.frames.length : 0), 'writeVmd: a section count');
      const need = (arr, n, what) => {
        if (n && (!arr || arr.length < n)) {
          throw new ProcMotionError(`writeVmd: ${what} has ${arr ? arr.length : 0} values, ${n} needed`, 'PM_ERR_INVALID_ARGUMENT');
        }
        return arr;
      };
      for (const [key, countSlot, fields] of VMD_SECTIONS) {
        const section = vmd[key] ?? {};
        const n = count(section);
        d[countSlot] = n;
        if (n) for (const [field, slot, per, Type] of fields) d[slot] = s.put(need(section[field], n * per, `${key}.${field}`), Type);
      }
      const np = count(p);
      d[D.PROPS] = np;
      if (np) {
        const ikStart = need(p.ikStart, np + 1, 'properties.ikStart');
        const nik = checkCount(ikStart[np], 'writeVmd: properties.ikStart[count]');
        d[D.PROP_FRAME] = s.put(need(p.frames, np, 'properties.frames'), Uint32Array);
        d[D.PROP_VISIBLE] = s.put(need(p.visible, np, 'properties.visible'), Uint8Array);
        d[D.PROP_IK_START] = s.put(ikStart, Uint32Array);
        d[D.PROP_IK_COUNT] = nik;
        if (nik) {
          d[D.PROP_IK_NAME_INDEX] = s.put(need(p.ikNameIndex, nik, 'properties.ikNameIndex'), Uint32Array);
          d[D.PROP_IK_ENABLED] = s.put(need(p.ikEnabled, nik, 'properties.ikEnabled'), Uint8Array);
        }
      }
      const dPtr = s.put(d, Uint32Array);
      return this._callForBuffer(s, 'vmd', (outPtr, sizePtr, errPtr) => this.mod._pm_abi_vmd_write(dPtr, outPtr, sizePtr, errPtr));
    } finally {
      s.free();
    }
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

  // ---- models, skeletons, humanoid mapping -------------------------------------------------------

  /** Read the JSON text the ABI returned through (outPtr -> char*, outPtr + 4 -> length), then free it. */
  _takeText(outPtr) {
    const u32 = this.mod.HEAPU32;
    const p = u32[outPtr >> 2], n = u32[(outPtr >> 2) + 1];
    const text = this._utf8(p, n);
    this.mod._pm_abi_free(p);
    return text;
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
    if (p) this.mod._pm_abi_free(p);
    return out;
  }

  /**
   * Read a PMX (2.0/2.1) or PMD model's skeleton: `{ format, modelName, modelNameEn, source, bones:
   * [{ name, nameEn, position, parent, transformOrder, flags, tail | tailBone, append?, fixedAxis?,
   * localAxes?, externalParent?, ik? }], morphNames }` (schema in docs/skeleton-json.md). Vertices,
   * faces and materials are skipped. Lossless: every call that takes a skeleton reads all of it back.
   */
  readPmx(bytes) {
    const data = toBytes(bytes, 'readPmx');
    const s = this._scratch();
    try {
      const dataPtr = s.put(data);
      const outPtr = s.alloc(8);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod._pm_abi_model_read_json(dataPtr, data.byteLength, outPtr, outPtr + 4, errPtr) !== 0) this._throw(s, errPtr, 'model');
      return JSON.parse(this._takeText(outPtr));
    } finally {
      s.free();
    }
  }

  /**
   * Internal: a skeleton handle (the caller frees it) made in the module from `skeleton`, an object
   * shaped like readPmx's result or PMX/PMD bytes. Throws ProcMotionError: '`what`: expected ...' for
   * anything else, the core's message when it rejects the input.
   */
  _skeletonHandle(s, skeleton, errPtr, what) {
    let handle;
    if (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer) {
      const data = toBytes(skeleton, what);
      handle = this.mod._pm_abi_skeleton_from_model(s.put(data), data.byteLength, errPtr);
    } else if (skeleton && typeof skeleton === 'object') {
      const json = utf8Encoder.encode(JSON.stringify(skeleton));
      handle = this.mod._pm_abi_skeleton_from_json(s.put(json), json.byteLength, errPtr);
    } else {
      throw new ProcMotionError(`${what}: expected a skeleton object or PMX/PMD bytes`, 'PM_ERR_INVALID_ARGUMENT');
    }
    if (!handle) this._throw(s, errPtr, 'skeleton');
    return handle;
  }

  /** Internal: run fn(handle) with a skeleton made by _skeletonHandle, freeing it afterwards. */
  _withSkeleton(skeleton, fn) {
    const s = this._scratch();
    let handle = 0;
    try {
      handle = this._skeletonHandle(s, skeleton, s.alloc(ERROR_SIZE), 'skeleton');
      return fn(handle);
    } finally {
      if (handle) this.mod._pm_abi_skeleton_free(handle);
      s.free();
    }
  }

  /**
   * Internal: a VMD handle (the caller frees it) from VMD bytes or a readVmd()-shaped object; 0 with
   * errPtr filled when the core rejects it.
   */
  _vmdHandle(s, vmd, errPtr, what) {
    const bytes = vmd instanceof Uint8Array || vmd instanceof ArrayBuffer ? toBytes(vmd, what) : this.writeVmd(vmd);
    return this.mod._pm_abi_vmd_read(s.put(bytes), bytes.byteLength, errPtr);
  }

  /** Internal: the bone names of a skeleton handle, in the skeleton's (and every pose output's) order. */
  _skeletonBoneNames(skeleton) {
    const s = this._scratch();
    try {
      const out = s.alloc(8), err = s.alloc(ERROR_SIZE);
      if (this.mod._pm_abi_skeleton_to_json(skeleton, out, out + 4, err) !== 0) this._throw(s, err, 'skeleton');
      return JSON.parse(this._takeText(out)).bones.map((b) => b.name);
    } finally {
      s.free();
    }
  }

  /** Internal: the translations (3 per bone) of column-major 4x4 world matrices (16 per bone). */
  _positionsOf(world) {
    const n = world.length / 16;
    const positions = new Float32Array(3 * n);
    for (let b = 0; b < n; b++) positions.set(world.subarray(16 * b + 12, 16 * b + 15), 3 * b);
    return positions;
  }

  /**
   * Map bone names (an array of strings, a skeleton object, or PMX/PMD bytes) to the 22 humanoid bones:
   * `{ bones: { hips: name | null, ... }, naming: { hips: 'mmd' | 'vroid' | ... }, mapped, total,
   * missingRequired: [...], drivable }`.
   */
  mapHumanoid(input) {
    let names;
    if (Array.isArray(input)) names = input.map(String);
    else if (input instanceof Uint8Array || input instanceof ArrayBuffer) names = this.readPmx(input).bones.map((b) => b.name);
    else if (input && Array.isArray(input.bones)) names = input.bones.map((b) => b.name);
    else throw new ProcMotionError('mapHumanoid: expected an array of names, a skeleton or PMX/PMD bytes', 'PM_ERR_INVALID_ARGUMENT');
    const s = this._scratch();
    try {
      const d = new Uint32Array(2);
      const blob = this._putNames(s, d, 0, names);
      const out = s.alloc(64 * 4);
      const errPtr = s.alloc(ERROR_SIZE);
      const offsets = names.length ? d[1] : s.put(new Uint32Array(2), Uint32Array);
      if (this.mod._pm_abi_humanoid_map(blob, offsets, names.length, out, errPtr) !== 0) this._throw(s, errPtr, 'humanoid');
      const r = this._copy(Uint32Array, out, 64);
      const bones = {}, naming = {};
      HUMANOID_BONES.forEach((h, i) => {
        bones[h] = r[i] === 0xffffffff ? null : names[r[i]];
        naming[h] = HUMANOID_NAMINGS[r[22 + i]] ?? 'none';
      });
      const missingRequired = [];
      for (let k = 0; k < r[46]; k++) missingRequired.push(HUMANOID_BONES[r[47 + k]]);
      return { bones, naming, mapped: r[44], total: r[45], missingRequired, drivable: r[63] === 1 };
    } finally {
      s.free();
    }
  }

  /** The built-in mannequin: a licence-free PMX 2.0 model with the semi-standard bones (docs/mannequin.md). */
  mannequinPmx() {
    const s = this._scratch();
    try {
      const outPtr = s.alloc(8);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod._pm_abi_mannequin_pmx(outPtr, outPtr + 4, errPtr) !== 0) this._throw(s, errPtr, 'mannequin');
      return this._takeBytes(outPtr);
    } finally {
      s.free();
    }
  }

  // ---- pose evaluation and IK --------------------------------------------------------------------

  /**
   * Bind a motion to a skeleton for repeated evaluation (what a viewer or a test calls per frame).
   * `vmd`: VMD bytes, a readVmd() result, or null for the rest pose; `skeleton`: a skeleton object
   * (readPmx) or PMX/PMD bytes. Call `free()` when done (the module memory is not garbage-collected).
   */
  createPoseEvaluator(vmd, skeleton) {
    return new PoseEvaluator(this, vmd, skeleton);
  }

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
      ev.free();
    }
  }

  /**
   * Analytic two-bone IK (law of cosines; the pole picks the bend plane; an unreachable target gives a
   * straight limb pointing at it). Points are [x, y, z] in one space. Returns `{ rootRotation,
   * midRotation }` (world-space delta quaternions [x, y, z, w] to pre-multiply onto the root's and the
   * mid joint's world rotations), `mid`, `end` (the solved joint positions), `miss` (distance left to
   * the target) and `reached`.
   */
  solveTwoBoneIk(root, mid, end, target, pole) {
    const input = new Float32Array(15);
    [root, mid, end, target, pole].forEach((v, i) => {
      if (!v || v.length !== 3) throw new ProcMotionError('solveTwoBoneIk: every point must be [x, y, z]', 'PM_ERR_INVALID_ARGUMENT');
      for (let k = 0; k < 3; k++) {
        if (!Number.isFinite(v[k])) throw new ProcMotionError(`solveTwoBoneIk: ${['root', 'mid', 'end', 'target', 'pole'][i]} is not finite`, 'PM_ERR_INVALID_ARGUMENT');
        input[3 * i + k] = v[k];
      }
    });
    const s = this._scratch();
    try {
      const inPtr = s.put(input, Float32Array);
      const outPtr = s.alloc(64);
      const errPtr = s.alloc(ERROR_SIZE);
      if (this.mod._pm_abi_two_bone_ik(inPtr, outPtr, errPtr) !== 0) this._throw(s, errPtr, 'ik');
      const o = this._copy(Float32Array, outPtr, 16);
      return {
        rootRotation: [...o.subarray(0, 4)], midRotation: [...o.subarray(4, 8)],
        mid: [...o.subarray(8, 11)], end: [...o.subarray(11, 14)], miss: o[14], reached: o[15] === 1,
      };
    } finally {
      s.free();
    }
  }

  // ---- catwalk ---------------------------------------------------------------------------------

  /**
   * Generate a looping runway walk as VMD bytes (ADR-086's generateCatwalkVmd signature).
   * `state` carries the parameters, read as `state.catwalk.X`, `state.catwalkX` or `state.X` (in that
   * order of preference; `speed` from `state.speed`); `bpm` is the music tempo or null; the name lists
   * come from the model (null = a model with every semi-standard bone / no morphs). With
   * `options.skeleton` (readPmx's skeleton, or { names?, positions, parents? } with world rest
   * positions) stride and lift follow the model's leg length, and its names (and morph names) stand in
   * for null lists. See index.d.ts and docs/catwalk.md.
   */
  generateCatwalkVmd(state, bpm, morphNames, boneNames, options = {}) {
    // bpm: a number, or a beat grid ({ bpm, offset }, a detectBeats result, pm.beatGrid(...)): the heel
    // strikes then land on its beats (docs/catwalk.md, "On a beat grid")
    const grid = bpm !== null && typeof bpm === 'object' ? this.beatGrid(bpm) : null;
    const params = catwalkParams(state ?? {}, grid ? null : bpm);
    params.grid = grid;
    const skeleton = options?.skeleton ?? null;
    // a whole model (PMX/PMD bytes or readPmx's skeleton): the legs are landed on it and measured
    if (skeleton && (skeleton instanceof Uint8Array || skeleton instanceof ArrayBuffer || Array.isArray(skeleton.bones))) {
      return this._withSkeleton(skeleton, (handle) => this._catwalk(params, null, [], null, null, handle));
    }
    let bones = boneNames == null ? null : Array.from(boneNames, String);
    let positions = null, parents = null;
    if (skeleton) {
      const sk = normaliseSkeleton(skeleton, bones);
      if (!bones) bones = sk.names;
      positions = sk.positionsFor(bones);
      parents = sk.parentsFor(bones);
    }
    const morphSource = morphNames ?? (Array.isArray(skeleton?.morphNames) ? skeleton.morphNames : null);
    const morphs = morphSource == null ? [] : Array.from(morphSource, String);
    return this._catwalk(params, bones, morphs, positions, parents, 0);
  }

  /** Internal: the catwalk export (a skeleton handle, or name lists and rest positions). */
  _catwalk({ grid, ...params }, bones, morphs, positions, parents, skeleton) {
    const s = this._scratch();
    try {
      const slots = this.mod._pm_abi_catwalk_descriptor_slots();
      const d = new Uint32Array(slots);
      if (grid) d[10] = this._gridBlock(s, grid);
      const json = utf8Encoder.encode(JSON.stringify(params));
      d[0] = s.put(json);
      d[1] = json.byteLength;
      d[2] = (bones || morphs.length ? 1 : 0) | (bones ? 2 : 0);
      if (bones) this._putNames(s, d, 3, bones);
      this._putNames(s, d, 5, morphs);
      if (positions) d[7] = s.put(positions, Float32Array);
      if (parents) d[8] = s.put(parents, Int32Array);
      d[9] = skeleton;
      const dPtr = s.put(d, Uint32Array);
      const oPtr = s.alloc(32);
      const errPtr = s.alloc(ERROR_SIZE);
      const r = this.mod._pm_abi_catwalk_generate(dPtr, oPtr, errPtr);
      if (r !== 0) this._throw(s, errPtr, 'catwalk');
      const vmd = this._takeBytes(oPtr);
      const info = JSON.parse(this._takeText(oPtr + 8));
      const ankles = this._takeArray(Float32Array, oPtr + 16);
      const contact = this._takeArray(Uint8Array, oPtr + 24);
      const plan = { ...info.plan, ankles, contact };
      if (info.sync?.strikes) plan.strikes = info.sync.strikes, delete info.sync.strikes;
      delete info.plan;
      delete info.verified;
      return { vmd, ...info, plan };
    } finally {
      s.free();
    }
  }

  // ---- Shift-JIS -------------------------------------------------------------------------------

  /**
   * Encode a string as Shift-JIS (Windows-31J, WHATWG choices). With `maxBytes` the result is cut at a
   * whole character (never splitting a double-byte one). Throws ProcMotionError naming a character
   * Shift-JIS cannot encode.
   */
  encodeShiftJis(text, maxBytes) {
    const utf8 = utf8Encoder.encode(String(text));
    const cap = checkCount(maxBytes ?? utf8.byteLength * 2 + 1, 'encodeShiftJis: maxBytes');
    const s = this._scratch();
    try {
      const inPtr = s.put(utf8);
      const outPtr = s.alloc(cap);
      const lenPtr = s.alloc(4);
      const errPtr = s.alloc(ERROR_SIZE);
      const r = this.mod._pm_abi_sjis_encode(inPtr, utf8.byteLength, outPtr, cap, lenPtr, errPtr);
      if (r !== 0) this._throw(s, errPtr, 'text');
      return this._copy(Uint8Array, outPtr, this.mod.HEAPU32[lenPtr >> 2]);
    } finally {
      s.free();
    }
  }

  /** Decode Shift-JIS bytes (invalid sequences become U+FFFD, as WHATWG's decoder does). */
  decodeShiftJis(bytes) {
    const data = toBytes(bytes, 'decodeShiftJis');
    const s = this._scratch();
    try {
      const inPtr = s.put(data);
      const cap = data.byteLength * 3 + 1;
      const outPtr = s.alloc(cap);
      const n = this.mod._pm_abi_sjis_decode(inPtr, data.byteLength, outPtr, cap);
      return this._utf8(outPtr, n);
    } finally {
      s.free();
    }
  }

  // ---- keypoints -------------------------------------------------------------------------------

  /** The 33 MediaPipe Pose point names, in index order. */
  get keypointNames() {
    this._kpNames ??= Array.from({ length: 33 }, (_, i) => this._string(this.mod._pm_abi_kp_point_name(i), 64));
    return this._kpNames;
  }

  /** The ten joint-angle names, in the order of `angles` (see docs/keypoints.md). */
  get keypointAngleNames() {
    this._kpAngles ??= Array.from({ length: 10 }, (_, i) => this._string(this.mod._pm_abi_kp_angle_name(i), 64));
    return this._kpAngles;
  }

  /**
   * Convert a motion to a MediaPipe Pose 33-point sequence. `bytes`: BVH, VMD, glTF/GLB, mediapipe33
   * JSON, NDJSON or binary keypoint frames (a string is taken as UTF-8 text). `format`: 'auto' (default),
   * 'bvh', 'vmd', 'gltf', 'glb', 'json', 'ndjson' or 'binary'. `options`: { fps, animation, maxFrames,
   * model } (model: PMX/PMD bytes whose own skeleton and IK evaluate a VMD).
   * Returns { frameCount, fps, mirrored, timestamps: Float64Array, points: Float32Array (x, y, z per
   * point, 99 per frame), visibility: Float32Array (33 per frame), angles: Float32Array (10 per frame),
   * pointNames, angleNames, stats }.
   */
  toKeypoints(bytes, format = 'auto', options = {}) {
    const data = typeof bytes === 'string' ? utf8Encoder.encode(bytes) : toBytes(bytes, 'toKeypoints');
    const code = KP_FORMATS[format ?? 'auto'];
    if (code === undefined) {
      throw new ProcMotionError(`toKeypoints: unknown format '${format}' (${Object.keys(KP_FORMATS).join(', ')})`, 'PM_ERR_INVALID_ARGUMENT');
    }
    const fps = options.fps ?? 0;
    if (typeof fps !== 'number' || !Number.isFinite(fps) || fps < 0) {
      throw new ProcMotionError('toKeypoints: options.fps must be a finite number >= 0', 'PM_ERR_INVALID_ARGUMENT');
    }
    const s = this._scratch();
    try {
      const dataPtr = s.put(data);
      const model = options.model ? toBytes(options.model, 'toKeypoints: options.model') : null;
      const modelPtr = model ? s.put(model) : 0;
      const errPtr = s.alloc(ERROR_SIZE);
      const seq = this.mod._pm_abi_kp_from_data(dataPtr, data.byteLength, code, fps,
        checkCount(options.animation ?? 0, 'toKeypoints: options.animation'),
        checkCount(options.maxFrames ?? 0, 'toKeypoints: options.maxFrames'), modelPtr, model ? model.byteLength : 0, errPtr);
      if (!seq) this._throw(s, errPtr, 'keypoints');
      try {
        return this._kpFromHandle(seq, s);
      } finally {
        this.mod._pm_abi_kp_free(seq);
      }
    } finally {
      s.free();
    }
  }

  _kpFromHandle(seq, s) {
    const slots = this.mod._pm_abi_kp_descriptor_slots();
    const dPtr = s.alloc(slots * 8);
    this.mod._pm_abi_kp_describe(seq, dPtr);
    const d = this._copy(Float64Array, dPtr, slots);
    const n = d[0];
    return {
      frameCount: n,
      fps: d[1],
      mirrored: d[2] !== 0,
      timestamps: this._copy(Float64Array, d[3], n),
      points: this._copy(Float32Array, d[4], n * 99),
      visibility: this._copy(Float32Array, d[5], n * 33),
      angles: this._copy(Float32Array, d[6], n * 10),
      pointNames: this.keypointNames,
      angleNames: this.keypointAngleNames,
      stats: {
        format: Object.keys(KP_FORMATS).find((k) => KP_FORMATS[k] === d[7] && k !== 'glb') ?? 'auto',
        family: this._string(d[8], 32),
        sourceJoints: d[9],
        ignoredBones: d[10],
        directPoints: d[11],
        inferredPoints: d[12],
        missingPoints: d[13],
        nanCount: d[14],
        outOfRange: d[15],
        scale: d[16],
        legs: [null, 'fk', 'ik'][d[17]] ?? null,
      },
    };
  }

  /** Build a core sequence from a toKeypoints-shaped object; `fn(handle, scratch)` runs with it. */
  _withKpSequence(seq, fn) {
    if (!seq || typeof seq !== 'object') throw new ProcMotionError('expected a keypoint sequence', 'PM_ERR_INVALID_ARGUMENT');
    const n = checkCount(seq.frameCount ?? (seq.timestamps ? seq.timestamps.length : 0), 'keypoints: frameCount');
    const need = (arr, len, what) => {
      if (!arr || arr.length < len) throw new ProcMotionError(`keypoints: ${what} has ${arr ? arr.length : 0} values, ${len} needed`, 'PM_ERR_INVALID_ARGUMENT');
      return arr;
    };
    const s = this._scratch();
    try {
      const ts = s.put(need(seq.timestamps, n, 'timestamps'), Float64Array);
      const pts = s.put(need(seq.points, n * 99, 'points'), Float32Array);
      const vis = s.put(need(seq.visibility, n * 33, 'visibility'), Float32Array);
      const errPtr = s.alloc(ERROR_SIZE);
      const h = this.mod._pm_abi_kp_make(n, ts, pts, vis, seq.mirrored ? 1 : 0, errPtr);
      if (!h) this._throw(s, errPtr, 'keypoints');
      try {
        return fn(h, s);
      } finally {
        this.mod._pm_abi_kp_free(h);
      }
    } finally {
      s.free();
    }
  }

  _kpEncode(h, s, kind) {
    return this._callForBuffer(s, 'keypoints', (outPtr, sizePtr, errPtr) => this.mod._pm_abi_kp_encode(h, kind, outPtr, sizePtr, errPtr));
  }

  /**
   * Encode a keypoint sequence (toKeypoints' result or the same shape): 'ndjson' -> string (one frame per
   * line), 'binary' -> Uint8Array of 239-byte frames. Values are checked (finite, in range).
   */
  encodeKeypoints(seq, encoding = 'ndjson') {
    const kind = { ndjson: 0, binary: 1 }[encoding];
    if (kind === undefined) throw new ProcMotionError(`encodeKeypoints: unknown encoding '${encoding}' (ndjson, binary)`, 'PM_ERR_INVALID_ARGUMENT');
    const bytes = this._withKpSequence(seq, (h, s) => this._kpEncode(h, s, kind));
    return kind === 0 ? utf8Decoder.decode(bytes) : bytes;
  }

  /**
   * Feature vectors for a matcher: Float32Array of frameCount x 109 (33 x (x, y, z) with points of
   * visibility < 0.5 interpolated from neighbouring frames, then the ten angle cosines).
   */
  keypointFeatures(seq) {
    const bytes = this._withKpSequence(seq, (h, s) => this._kpEncode(h, s, 2));
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
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
}

/** Pose flags (procmotion/pose.h). */
const POSE_NO_IK = 1, POSE_NO_APPEND = 2;
const IK_MODES = { auto: 0, on: 1, off: 2 };

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
      this.handle = mod._pm_abi_pose_create(this.skeleton, vmdHandle, errPtr);
      if (!this.handle) pm._throw(s, errPtr, 'pose');
      this.boneCount = mod._pm_abi_skeleton_bone_count(this.skeleton);
      const info = s.alloc(28);
      mod._pm_abi_pose_info(this.handle, info);
      const i = pm._copy(Uint32Array, info, 7);
      this.info = { tracks: i[0], keys: i[1], unmatchedBones: i[2], unmatchedIk: i[3], propertyKeys: i[4], firstFrame: i[5], lastFrame: i[6] };
      const lenPtr = s.alloc(4);
      const names = (kind, n) => Array.from({ length: n }, (_, k) => {
        const p = mod._pm_abi_pose_unmatched(this.handle, kind, k, lenPtr);
        return pm._utf8(p, mod.HEAPU32[lenPtr >> 2]);
      });
      this.unmatchedBones = names(0, i[2]);
      this.unmatchedIk = names(1, i[3]);
      this.errPtr = mod._pm_abi_alloc(ERROR_SIZE);
    } catch (e) {
      this.free(); // whatever was made before the throw (writeVmd's checks throw after the skeleton exists)
      throw e;
    } finally {
      if (vmdHandle) mod._pm_abi_vmd_free(vmdHandle);
      s.free();
    }
    this._boneNames = null;
  }

  /** Bone names in evaluation-output order (the skeleton's order). */
  get boneNames() {
    return (this._boneNames ??= this.pm._skeletonBoneNames(this.skeleton));
  }

  _flags(options) {
    return (options.ik === false ? POSE_NO_IK : 0) | (options.append === false ? POSE_NO_APPEND : 0);
  }

  _check() {
    if (!this.handle) throw new ProcMotionError('PoseEvaluator: already freed', 'PM_ERR_INVALID_ARGUMENT');
  }

  /** Evaluate one (fractional) frame. options: { ik: false } to skip IK, { append: false }. */
  evaluate(frame, options = {}) {
    this._check();
    if (!Number.isFinite(frame)) throw new ProcMotionError('evaluatePose: frame is not finite', 'PM_ERR_INVALID_ARGUMENT');
    const mod = this.pm.mod;
    if (mod._pm_abi_pose_evaluate(this.handle, frame, this._flags(options), this.errPtr) !== 0) {
      throw new ProcMotionError(this.pm._errorText(this.errPtr), 'pose');
    }
    const n = this.boneCount;
    const world = this.pm._copy(Float32Array, mod._pm_abi_pose_world(this.handle), 16 * n);
    const positions = this.pm._positionsOf(world);
    const rotations = this.pm._copy(Float32Array, mod._pm_abi_pose_final_rotations(this.handle), 4 * n);
    return { boneNames: this.boneNames, positions, world, rotations };
  }

  /** World positions of every bone for `count` frames from `first` by `step`: Float32Array, frame-major. */
  positions(first, count, step = 1, options = {}) {
    this._check();
    checkCount(count, 'positions: count');
    const n = this.boneCount, floats = checkCount(count * n * 3, 'positions: count x bones x 3');
    const pm = this.pm, s = pm._scratch();
    try {
      const out = s.alloc(floats * 4);
      if (pm.mod._pm_abi_pose_positions(this.handle, first, step, count, this._flags(options), out, floats, this.errPtr) !== 0) {
        throw new ProcMotionError(pm._errorText(this.errPtr), 'pose');
      }
      return pm._copy(Float32Array, out, floats);
    } finally {
      s.free();
    }
  }

  /** Override an IK bone: 'auto' (property keys decide), 'on' or 'off'. */
  setIkMode(boneName, mode) {
    this._check();
    const bone = this.boneNames.indexOf(boneName);
    if (bone < 0) throw new ProcMotionError(`setIkMode: no bone named ${boneName}`, 'PM_ERR_NOT_FOUND');
    if (!(mode in IK_MODES)) throw new ProcMotionError(`setIkMode: mode must be auto, on or off`, 'PM_ERR_INVALID_ARGUMENT');
    if (this.pm.mod._pm_abi_pose_set_ik_mode(this.handle, bone, IK_MODES[mode], this.errPtr) !== 0) {
      throw new ProcMotionError(this.pm._errorText(this.errPtr), 'pose');
    }
  }

  /** Release the module memory. Safe to call twice. */
  free() {
    const mod = this.pm.mod;
    if (this.handle) mod._pm_abi_pose_free(this.handle);
    if (this.skeleton) mod._pm_abi_skeleton_free(this.skeleton);
    if (this.errPtr) mod._pm_abi_free(this.errPtr);
    this.handle = this.skeleton = this.errPtr = 0;
  }
}

// pm_kp_format (wasm/include/procmotion/keypoints.h).
const KP_FORMATS = { auto: 0, bvh: 1, vmd: 2, gltf: 3, glb: 3, json: 4, ndjson: 5, binary: 6 };

function toBytes(bytes, what) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new ProcMotionError(`${what}: expected a Uint8Array or ArrayBuffer`, 'PM_ERR_INVALID_ARGUMENT');
}

// ---- catwalk parameters ----------------------------------------------------------------------------

/** Parameter names the catwalk reads (C: pm_catwalk_params_from_json). */
export const CATWALK_PARAMETERS = Object.freeze([
  'speed', 'stepCadence', 'armPose', 'traverse', 'uTurn', 'traverseDistance', 'hipSway', 'stepHeight',
  'stride', 'crossStep', 'hipTwist', 'pelvisDrop', 'torsoTwist', 'torsoSway', 'lean', 'headStabilize',
  'toeOff', 'heelStrike', 'bob', 'stanceKnee', 'armSwing', 'poseArmAngle', 'blink', 'expression', 'seed',
  'positionTolerance', 'rotationTolerance',
]);
const CATWALK_ENUMS = { stepCadence: ['beat', '2beat'], armPose: ['swing', 'posed'] };
const CATWALK_BOOLS = new Set(['traverse', 'uTurn']);

function badParam(name, what, value) {
  return new ProcMotionError(`generateCatwalkVmd: ${name} ${what}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    'PM_ERR_INVALID_ARGUMENT');
}

function finite(name, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badParam(name, 'must be a finite number', v);
  return v;
}

function catwalkParams(state, bpm) {
  if (typeof state !== 'object') throw badParam('state', 'must be an object', state);
  const nested = state.catwalk && typeof state.catwalk === 'object' ? state.catwalk : {};
  const out = {};
  for (const name of CATWALK_PARAMETERS) {
    const prefixed = 'catwalk' + name[0].toUpperCase() + name.slice(1);
    let v = nested[name];
    if (v === undefined) v = state[prefixed];
    if (v === undefined) v = state[name];
    if (v === undefined || v === null) continue;
    if (CATWALK_ENUMS[name]) {
      if (!CATWALK_ENUMS[name].includes(v)) throw badParam(name, `must be ${CATWALK_ENUMS[name].map((e) => `'${e}'`).join(' or ')}`, v);
      out[name] = v;
    } else if (CATWALK_BOOLS.has(name)) {
      if (typeof v !== 'boolean') throw badParam(name, 'must be true or false', v);
      out[name] = v;
    } else if (name === 'poseArmAngle') {
      if (typeof v === 'number') out[name] = { shoulder: finite('poseArmAngle', v) };
      else if (Array.isArray(v)) out[name] = v.map((x, i) => finite(`poseArmAngle[${i}]`, x));
      else if (typeof v === 'object') {
        const o = {};
        for (const [k, x] of Object.entries(v)) if (x !== undefined && x !== null) o[k] = finite(`poseArmAngle.${k}`, x);
        out[name] = o;
      } else throw badParam(name, 'must be {shoulder, elbow} in degrees', v);
    } else if (name === 'blink' && typeof v === 'boolean') {
      out[name] = v ? 1 : 0;
    } else {
      out[name] = finite(name, v);
    }
  }
  if (bpm !== undefined && bpm !== null) out.bpm = finite('bpm', bpm);
  return out;
}

/**
 * A skeleton as `{ names?, positions, parents? }` (flat or [x, y, z] per bone) or as readPmx's
 * `{ bones: [{ name, position, parent }] }` -> lookups aligned with a bone name list.
 */
function normaliseSkeleton(sk, boneNames) {
  if (Array.isArray(sk.bones)) {
    sk = { names: sk.bones.map((b) => b.name), positions: sk.bones.map((b) => b.position), parents: sk.bones.map((b) => b.parent) };
  }
  const names = sk.names ? Array.from(sk.names, String) : boneNames;
  if (!names) throw new ProcMotionError('generateCatwalkVmd: skeleton.names or boneNames is needed', 'PM_ERR_INVALID_ARGUMENT');
  const n = names.length;
  const raw = sk.positions;
  if (!raw) throw new ProcMotionError('generateCatwalkVmd: skeleton.positions is missing', 'PM_ERR_INVALID_ARGUMENT');
  const flat = new Float32Array(3 * n).fill(NaN);
  if (raw.length === n && typeof raw[0] === 'object' && raw[0] !== null) {
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) flat[3 * i + k] = Number(raw[i]?.[k] ?? raw[i]?.['xyz'[k]]);
  } else if (raw.length === 3 * n) {
    for (let i = 0; i < 3 * n; i++) flat[i] = Number(raw[i]);
  } else {
    throw new ProcMotionError(`generateCatwalkVmd: skeleton.positions has ${raw.length} entries for ${n} bones`, 'PM_ERR_INVALID_ARGUMENT');
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

// Tracing (js-glue/tracing.js): pm.sampleTrajectory, pm.trajectoryLength, pm.createTimeline, pm.timelineFromJSON.
import { tracingMethods } from './tracing.js';
export { Timeline, LIMBS as TRACE_LIMBS, EASINGS as TRACE_EASINGS } from './tracing.js';
Object.assign(ProcMotion.prototype, tracingMethods);

// Rig analysis (js-glue/rig.js): pm.analyzeRig.
import { rigMethods } from './rig.js';
Object.assign(ProcMotion.prototype, rigMethods);

// VRM export (js-glue/vrm.js): pm.pmxToVrm.
import { vrmMethods } from './vrm.js';
Object.assign(ProcMotion.prototype, vrmMethods, { _toBytes: toBytes });

// Groove (js-glue/groove.js): grooveConfig, createGroove, grooveOffsets, bakeGroove, applyGrooveToVmd.
export const Groove = installGroove(ProcMotion, { ProcMotionError, PoseEvaluator });
export { GROOVE_JOINTS };

// Beats (js-glue/beats.js): detectBeats, createBeatTracker, beatGrid*, createTapTempo, readWav, writeWav.
import { installBeats, WAV_ENCODINGS } from './beats.js';
export const { BeatTracker, TapTempo } = installBeats(ProcMotion, { ProcMotionError });
export { WAV_ENCODINGS };
