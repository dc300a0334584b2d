// procmotion's 'vrm' feature module (procmotion-vrm.wasm): PMX/PMD models as VRM 1.0 files
// (procmotion/vrm.h, docs/vrm.md). index.js imports this file on the first pm.loadAsync('vrm') (all.js at startup), which
// loads the motion module first (the model reader and the humanoid mapping are motion's), and puts
// `api` on the ProcMotion:
//
//   await pm.loadAsync('vrm');
//   const { glb, report } = pm.pmxToVrm(pmxBytes, {
//     textures: { 'tex/diffuse.png': pngBytes },        // or a Map, or [[path, bytes], ...]
//     meta: { authors: ['Someone'], licenseUrl: 'https://vrm.dev/licenses/1.0/' },
//   });
//   report.humanoidMapped, report.drivable, report.textures;   // what was mapped, converted, skipped
//   new Blob([glb], { type: 'model/gltf-binary' });             // a .vrm file
//
// The conversion runs in the module (no server): the GLB is a copy, every buffer handed in is freed
// before the call returns.
import { ERROR_SIZE, invalid, toBytes, utf8Encoder, withScratch } from './runtime.js';

/** [path, Uint8Array] pairs from a Map, a plain object, or an array of [path, bytes] / { path|name, data }. */
function textureEntries(textures) {
  if (textures == null) return [];
  let entries;
  if (textures instanceof Map) entries = [...textures.entries()];
  else if (Array.isArray(textures)) entries = textures.map((t) => (Array.isArray(t) ? t : [t.path ?? t.name, t.data ?? t.bytes]));
  else if (typeof textures === 'object') entries = Object.entries(textures);
  else throw invalid('vrm', 'pmxToVrm: textures must be a Map, an object or an array');
  return entries.map(([path, data]) => {
    if (typeof path !== 'string') throw invalid('vrm', 'pmxToVrm: a texture path is not a string');
    return [path, toBytes(data, `pmxToVrm: texture ${path}`, 'vrm')];
  });
}

export const api = {
  /**
   * Convert PMX/PMD bytes to a VRM 1.0 file. options: { textures, meta, materials: 'mtoon' | 'unlit',
   * keepRestPose }. meta takes VRM 1.0's field names (name, version, authors, copyrightInformation,
   * contactInformation, references, thirdPartyLicenses, licenseUrl, avatarPermission, commercialUsage,
   * creditNotation, modification, otherLicenseUrl, allowExcessivelyViolentUsage, ...). Returns
   * { glb: Uint8Array, report } (report: docs/vrm.md). Throws ProcMotionError naming what is wrong,
   * e.g. a model without the required humanoid bones.
   */
  pmxToVrm(bytes, options = {}) {
    if (options === null || typeof options !== 'object') throw invalid('vrm', 'pmxToVrm: options must be an object');
    const data = toBytes(bytes, 'pmxToVrm', 'vrm');
    const tex = textureEntries(options.textures);
    const opts = {};
    if (options.meta != null) opts.meta = options.meta;
    if (options.materials != null) opts.materials = options.materials;
    if (options.keepRestPose) opts.keepRestPose = true;
    const optText = utf8Encoder.encode(JSON.stringify(opts));
    const names = tex.map(([p]) => utf8Encoder.encode(p));
    const pathOffsets = new Uint32Array(tex.length + 1), blobOffsets = new Uint32Array(tex.length + 1);
    let pathBytes = 0, blobBytes = 0;
    tex.forEach(([, b], i) => {
      pathBytes += names[i].byteLength;
      blobBytes += b.byteLength;
      pathOffsets[i + 1] = pathBytes;
      blobOffsets[i + 1] = blobBytes;
    });
    return withScratch(this, (s) => {
      const err = s.alloc(ERROR_SIZE);
      const dataPtr = s.put(data);
      const pathPtr = s.alloc(pathBytes), blobPtr = s.alloc(blobBytes);
      const heap = this.mod.HEAPU8;
      tex.forEach(([, b], i) => {
        heap.set(names[i], pathPtr + pathOffsets[i]);
        heap.set(b, blobPtr + blobOffsets[i]);
      });
      const po = s.put(pathOffsets, Uint32Array), bo = s.put(blobOffsets, Uint32Array);
      const optPtr = s.put(optText);
      const out = s.alloc(16);
      const r = this.mod.pm_abi_vrm_from_model(dataPtr, data.byteLength, pathPtr, po, blobPtr, bo, tex.length,
        optPtr, optText.byteLength, out, out + 4, out + 8, out + 12, err);
      if (r !== 0) this._throw(s, err, 'vrm');
      const glb = this._takeBytes(out);
      const report = JSON.parse(this._takeText(out + 8));
      return { glb, report };
    });
  },
};
