// What an app downloads of procmotion, measured as the bench's size rows measure it (bench/sizes.mjs: gzip
// -9 of the package's .wasm files and of the JS an app bundles with esbuild, minified and split): a
// catwalk-only app stays within 100 KB. Every module's size is a bench row, printed here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TARGETS, downloadSizes } from '../../bench/sizes.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

test('a catwalk-only app downloads at most 100 KB of procmotion', async () => {
  const s = await downloadSizes();
  assert.ok(s, 'build/wasm/wasm-modules.json missing: run bash build-scripts/build.sh wasm');
  const app = s.catwalkApp.wasm + s.catwalkApp.js;
  console.log(`# catwalk app ${kb(app)} (${kb(s.catwalkApp.wasm)} wasm + ${kb(s.catwalkApp.js)} JS); `
    + Object.entries(s.modules).map(([m, f]) => `${m} ${kb(f.gzip)}`).join(', '));
  assert.ok(app <= TARGETS.catwalkApp * 1024, `a catwalk-only app downloads ${kb(app)}, over ${TARGETS.catwalkApp} KB`);
});

test('everything as one file is smaller than the split modules', async () => {
  const s = await downloadSizes();
  assert.ok(s?.oneFile, 'the build records procmotion-all.wasm');
  // no module boundaries, one gzip stream
  assert.ok(s.oneFile.wasm + s.oneFile.js < s.everything.wasm + s.everything.js);
});
