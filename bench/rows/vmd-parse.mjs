// VMD parse, every key decoded: procmotion (wasm via the glue) against babylon-mmd's
// VmdObject.ParseFromBuffer (lazy: every bone, morph and camera key is asked for), its
// VmdLoader.loadFromBufferAsync, and three.js's mmd-parser. The last implementation measures ours
// and ParseFromBuffer alternately in one process (the target is stated for one process) and
// reports the ratio of the medians.
import { readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { loadBabylonMmd, loadMmdParser, toArrayBuffer } from '../../tests/node/support/babylon.mjs';

const load = (path) => new Uint8Array(readFileSync(path));

export const impls = {
  async 'procmotion wasm'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
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
  async 'ratio in one process (ParseFromBuffer / ours, alternating)'(path) {
    const ours = await impls['procmotion wasm'](path);
    const theirs = await impls['babylon-mmd ParseFromBuffer'](path);
    const t = [[], []];
    const start = performance.now();
    // alternate the two for at least 1.5 s and 30 rounds (the first fifth is warm-up)
    for (let i = 0; i < 5000 && (i < 30 || performance.now() - start < 1500); i++) {
      [ours, theirs].forEach((x, k) => {
        const t0 = performance.now();
        x.run();
        t[k].push(performance.now() - t0);
      });
    }
    const med = (a) => {
      const s = a.slice(Math.floor(a.length / 5)).sort((x, y) => x - y);
      return s[s.length >> 1];
    };
    const [a, b] = t.map(med);
    return { text: `${(b / a).toFixed(1)}x (${a.toFixed(3)} ms vs ${b.toFixed(3)} ms, ${t[0].length} rounds)` };
  },
};
