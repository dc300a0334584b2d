// procmotion: procedural MMD motion from a C11 core compiled to WebAssembly (see docs/get-started.md).
//
//   import { createProcMotion } from 'procmotion';
//   const pm = await createProcMotion();               // the core: VMD, Shift-JIS, catwalk
//   const walk = pm.generateCatwalkVmd({ hipSway: 0.8 }, 128, morphNames, boneNames);  // { vmd, report, ... }
//   await pm.loadAsync('motion');                      // models, pose, IK, groove, tracing (its own .wasm)
//   await pm.loadAsync('keypoints');                   // MediaPipe keypoints from BVH, VMD, glTF/VRM
//   await pm.loadAsync('beats');                       // beat tracking, beat grids, tap tempo, WAV
//   await pm.loadAsync('vrm');                         // PMX/PMD models as VRM 1.0 files
//
//   import { createProcMotion as createAll } from 'procmotion/all';
//   const all = await createAll();                     // every module at once, in one file (procmotion-all.wasm)
//
// (createProcMotion({ load: 'all' }) from this entry, in a bundle without procmotion/all: the split modules,
// every one loaded; procmotion-all.wasm is not in this entry's bundle.)
//
// The API is main.js's; this entry adds where each feature module's JS is: loaded on the first
// pm.loadAsync(name) (a chunk of its own in a bundle), so that an app that never loads a module never
// downloads its JS.
import { createProcMotion as create } from './main.js';

export * from './main.js';

const FEATURE_CODE = {
  motion: () => import('./motion.js'),
  keypoints: () => import('./keypoints.js'),
  beats: () => import('./beats.js'),
  vrm: () => import('./vrm.js'),
};

/** Load the core and return the API object (main.js's createProcMotion: its options, index.d.ts). */
export function createProcMotion(options = {}) {
  return create(options, FEATURE_CODE);
}
