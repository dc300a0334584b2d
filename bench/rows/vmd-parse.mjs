// VMD parse, every key decoded: procmotion (wasm via the glue) against babylon-mmd's
// VmdObject.ParseFromBuffer (lazy: every bone, morph and camera key is asked for), its
// VmdLoader.loadFromBufferAsync, and three.js's mmd-parser.
import { readFileSync } from 'node:fs';

import { createProcMotion } from '../../js-glue/index.js';
import { loadBabylonMmd, loadMmdParser, toArrayBuffer } from '../../tests/node/support/babylon.mjs';

const load = (path) => new Uint8Array(readFileSync(path));

export const impls = {
  async 'procmotion wasm'(path) {
    const pm = await createProcMotion();
    const bytes = load(path);
    const v = pm.readVmd(bytes);
    return { items: v.bones.count + v.morphs.count + v.cameras.count, unit: 'keys', run: () => pm.readVmd(bytes) };
  },
  async 'babylon-mmd ParseFromBuffer'(path) {
    const { VmdObject } = await loadBabylonMmd();
    const buf = toArrayBuffer(load(path));
    const decodeAll = () => {
      const o = VmdObject.ParseFromBuffer(buf);
      let n = 0;
      for (const r of [o.boneKeyFrames, o.morphKeyFrames, o.cameraKeyFrames]) {
        for (let i = 0; i < r.length; i++) {
          r.get(i);
          n++;
        }
      }
      return n;
    };
    return { items: decodeAll(), unit: 'keys', run: decodeAll };
  },
  async 'babylon-mmd VmdLoader'(path) {
    const { VmdLoader } = await loadBabylonMmd();
    const buf = toArrayBuffer(load(path));
    const loader = new VmdLoader(null);
    loader.loggingEnabled = false;
    const { VmdObject } = await loadBabylonMmd();
    const o = VmdObject.ParseFromBuffer(buf);
    const items = o.boneKeyFrames.length + o.morphKeyFrames.length + o.cameraKeyFrames.length;
    return { items, unit: 'keys', run: () => loader.loadFromBufferAsync('bench', buf) };
  },
  async 'mmd-parser'(path) {
    const { Parser } = await loadMmdParser();
    const buf = toArrayBuffer(load(path));
    const parser = new Parser();
    const v = parser.parseVmd(buf, false);
    return { items: v.motions.length + v.morphs.length + v.cameras.length, unit: 'keys', run: () => parser.parseVmd(buf, false) };
  },
};
