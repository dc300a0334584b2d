// The two WebAssembly builds, as a host sees them: the Emscripten ES module loads in Node 20
// unchanged, and the wasm32-wasi reactor instantiates with an EMPTY import object (the core uses
// libc only, no WASI calls). Both answer pm_abi_version with js-glue/package.json's version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MJS = join(ROOT, 'js-glue/dist/procmotion.mjs');
const WASI = join(ROOT, 'build/wasi/procmotion-wasi.wasm');
const [major, minor, patch] = JSON.parse(readFileSync(join(ROOT, 'js-glue/package.json'), 'utf8'))
  .version.split('.').map(Number);
const VERSION = major * 10000 + minor * 100 + patch;

test('procmotion.mjs (Emscripten) loads in Node and calls into the core', async () => {
  assert.ok(existsSync(MJS), `${MJS} missing: run bash build-scripts/build.sh wasm`);
  const { default: createProcMotionModule } = await import(pathToFileURL(MJS).href);
  const m = await createProcMotionModule();
  assert.equal(m._pm_abi_version(), VERSION);
  const p = m._pm_abi_alloc(64);
  assert.ok(p > 0);
  m._pm_abi_free(p);
  console.log(`# procmotion.mjs: ${readFileSync(MJS).length} bytes`);
});

test('procmotion-wasi.wasm instantiates with an empty import object', async () => {
  assert.ok(existsSync(WASI), `${WASI} missing: run bash build-scripts/build.sh wasi`);
  const bytes = readFileSync(WASI);
  const module = await WebAssembly.compile(bytes);
  assert.deepEqual(WebAssembly.Module.imports(module), [], 'the wasi build imports nothing');
  const { exports } = await WebAssembly.instantiate(module, {});
  assert.equal(typeof exports._initialize, 'function', 'a reactor module');
  exports._initialize();
  assert.equal(exports.pm_abi_version(), VERSION);
  const p = exports.pm_abi_alloc(64);
  assert.ok(p > 0);
  exports.pm_abi_free(p);
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  console.log(`# procmotion-wasi.wasm: ${bytes.length} bytes, ${names.length} exports`);
});
