// Issue 17's download targets, measured as the bench's size rows measure them (bench/sizes.mjs: gzip -9
// of the package's .wasm files and of the JS an app bundles with esbuild, minified and split): a
// catwalk-only app downloads at most 100 KB of procmotion; everything together at most 220 KB, as the
// one file (procmotion/all: procmotion-all.wasm and every chunk). The split modules together are
// printed beside it (they add the cost of five files over one).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TARGETS, downloadSizes } from '../../bench/sizes.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

test('a catwalk-only app and everything as one file stay within the download targets', async () => {
  const s = await downloadSizes();
  assert.ok(s, 'build/wasm/wasm-modules.json missing: run bash build-scripts/build.sh wasm');
  const app = s.catwalkApp.wasm + s.catwalkApp.js;
  assert.ok(s.oneFile, 'the build records procmotion-all.wasm');
  const one = s.oneFile.wasm + s.oneFile.js;
  const split = s.everything.wasm + s.everything.js;
  console.log(`# catwalk app ${kb(app)} (${kb(s.catwalkApp.wasm)} wasm + ${kb(s.catwalkApp.js)} JS), everything as one file ${kb(one)} `
    + `(${kb(s.oneFile.wasm)} + ${kb(s.oneFile.js)}), the split modules and all chunks ${kb(split)}`);
  assert.ok(app <= TARGETS.catwalkApp * 1024, `a catwalk-only app downloads ${kb(app)}, over ${TARGETS.catwalkApp} KB`);
  assert.ok(one <= TARGETS.everything * 1024, `everything as one file downloads ${kb(one)}, over ${TARGETS.everything} KB`);
  // the one file is the smaller way to load everything: no module boundaries, one gzip stream
  assert.ok(one < split, 'everything as one file is smaller than the split modules with all chunks');
});
