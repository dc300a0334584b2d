// procmotion/all: procmotion (index.js) with every module in one file. createProcMotion() loads
// procmotion-all.wasm (every module at once: load 'all' is the default here; an explicit `load` wins),
// which this entry alone names with new URL(..., import.meta.url), so that Vite and webpack 5 copy it
// into the apps that import procmotion/all and into no other.
//
//   import { createProcMotion } from 'procmotion/all';
//   const pm = await createProcMotion();               // every module's methods at once
import { createProcMotion as createSplit } from './index.js';
import { setWasmUrl } from './loader.js';

setWasmUrl('all', () => new URL('./procmotion-all.wasm', import.meta.url));

export * from './index.js';

/** index.js's createProcMotion with `load: 'all'` unless options.load says otherwise. */
export function createProcMotion(options = {}) {
  const isObject = options !== null && typeof options === 'object';
  return createSplit(isObject && options.load === undefined ? { ...options, load: 'all' } : options);
}
