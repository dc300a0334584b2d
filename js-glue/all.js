// procmotion/all: procmotion with every module in one file. createProcMotion() loads
// procmotion-all.wasm (every module at once: load 'all' is the default here; an explicit `load` wins),
// which this entry alone names with new URL(..., import.meta.url), so that Vite and webpack 5 copy it
// into the apps that import procmotion/all and into no other. The feature modules' JS is imported
// statically here, so that it is in the app's own bundle (no chunk per module) with main.js's API.
//
//   import { createProcMotion } from 'procmotion/all';
//   const pm = await createProcMotion();               // every module's methods at once
// (each module's `api` alone, not its namespace: main.js reads only `api`, and a bundle then carries no
// namespace object per module)
import { api as beats } from './beats.js';
import { api as keypoints } from './keypoints.js';
import { setWasmUrl } from './loader.js';
import { createProcMotion as create } from './main.js';
import { api as motion } from './motion.js';
import { api as vrm } from './vrm.js';

setWasmUrl('all', () => new URL('./procmotion-all.wasm', import.meta.url));

export * from './main.js';

// each module's JS as main.js takes it: { api }, as import() of the module gives it (index.js)
const FEATURE_CODE = {
  motion: () => ({ api: motion }),
  keypoints: () => ({ api: keypoints }),
  beats: () => ({ api: beats }),
  vrm: () => ({ api: vrm }),
};

/** createProcMotion (main.js's options) with `load: 'all'` unless options.load says otherwise. */
export function createProcMotion(options = {}) {
  const isObject = options !== null && typeof options === 'object';
  return create(isObject && options.load === undefined ? { ...options, load: 'all' } : options, FEATURE_CODE);
}
