#!/usr/bin/env node
// npm pack's prepack/postpack step for js-glue (the npm package): the repository's README.md and
// LICENSE go into the tarball, so they are copied into js-glue/ for the pack and removed after it
// (git-ignored there). It also refuses to pack without the built .wasm files and abi*.js.
//   node build-scripts/pack-files.mjs copy | clean
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = join(ROOT, 'js-glue');
const COPIED = ['README.md', 'LICENSE'];

if (process.argv[2] === 'copy') {
  const built = ['procmotion.wasm', 'procmotion-motion.wasm', 'procmotion-keypoints.wasm', 'procmotion-beats.wasm', 'dist/abi.js', 'dist/abi-runtime.js'];
  const missing = built.filter((f) => !existsSync(join(PKG, f)));
  if (missing.length) {
    console.error(`pack-files: ${missing.join(', ')} missing in js-glue/: run bash build-scripts/build.sh wasm first`);
    process.exit(1);
  }
  for (const f of COPIED) copyFileSync(join(ROOT, f), join(PKG, f));
} else if (process.argv[2] === 'clean') {
  for (const f of COPIED) rmSync(join(PKG, f), { force: true });
} else {
  console.error('usage: node build-scripts/pack-files.mjs copy | clean');
  process.exit(2);
}
