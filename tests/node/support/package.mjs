// The npm package as users get it: `npm pack` of js-glue (once per process), unpacked into a folder
// that a consumer project uses as node_modules/procmotion. Used by the tests of the tarball, the
// types, Node without a bundler, and the bundlers.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './babylon.mjs';

export const PACK_DIR = join(REPO_ROOT, 'test-results/pack');
let packed = null;

/** Runs npm pack once: { tarball, files (the tarball's paths), dir (the unpacked package) }. */
export function packPackage() {
  if (packed) return packed;
  rmSync(PACK_DIR, { recursive: true, force: true });
  mkdirSync(PACK_DIR, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', PACK_DIR], {
    cwd: join(REPO_ROOT, 'js-glue'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  const info = JSON.parse(out)[0];
  const tarball = join(PACK_DIR, info.filename);
  execFileSync('tar', ['-xzf', tarball, '-C', PACK_DIR]);
  packed = { tarball, files: info.files.map((f) => f.path).sort(), dir: join(PACK_DIR, 'package'), size: info.size };
  return packed;
}

/**
 * A consumer project in test-results/<name>: the unpacked package as node_modules/procmotion (a
 * copy, as npm installs it), the peers (babylon-mmd, @babylonjs/core) linked from the repository's
 * node_modules, and `files` ({ path: text }) written. Returns its folder.
 */
export function consumerProject(name, files) {
  const dir = join(REPO_ROOT, 'test-results', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules/@babylonjs'), { recursive: true });
  cpSync(packPackage().dir, join(dir, 'node_modules/procmotion'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules/babylon-mmd'), join(dir, 'node_modules/babylon-mmd'));
  symlinkSync(join(REPO_ROOT, 'node_modules/@babylonjs/core'), join(dir, 'node_modules/@babylonjs/core'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export const wasmBuilt = () => existsSync(join(REPO_ROOT, 'js-glue/procmotion.wasm'));
export const listFiles = (dir) => readdirSync(dir, { recursive: true }).map(String).sort();
