// The npm package's loader in a real browser (Debian's Chromium, headless, through playwright-core),
// the glue imported unbundled from js-glue/: createProcMotion fetches only procmotion.wasm and
// compiles it while it downloads (instantiateStreaming, when the server says application/wasm; a
// server that does not gets the fetch-and-instantiate fallback); a feature module loads on
// pm.loadAsync (its dependencies first) and not before; a missing .wasm is a ProcMotionError that says
// what to do; createProcMotion({ wasm }) takes bytes or a URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, collectPageErrors, launchChromium, serveStatic } from './support/browser.mjs';

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);
const [major, minor, patch] = JSON.parse(readFileSync(join(REPO_ROOT, 'js-glue/package.json'), 'utf8')).version.split('.').map(Number);

// The page records which instantiation path ran, then runs `body` (an async function of pm).
const page = (body) => `<!doctype html><meta charset="utf-8"><title>procmotion loader</title>
<script type="module">
  const streaming = WebAssembly.instantiateStreaming;
  window.paths = [];
  WebAssembly.instantiateStreaming = (...a) => { window.paths.push('streaming'); return streaming(...a); };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (...a) => { window.paths.push('instantiate'); return instantiate(...a); };
  import('/js-glue/index.js').then(async (procmotion) => {
    try {
      window.result = await (${body})(procmotion);
    } catch (e) { window.result = { error: String(e && e.stack || e), code: e.code, module: e.module, message: e.message }; }
  });
</script>`;

async function run(body, serverOptions = {}) {
  const requests = [];
  const server = await serveStatic(REPO_ROOT, { '/p.html': page(body) }, { ...serverOptions, requests });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors = collectPageErrors(tab);
    await tab.goto(`${server.url}/p.html`);
    const result = await tab.waitForFunction(() => window.result, null, { timeout: 30_000 }).then((h) => h.jsonValue());
    const paths = await tab.evaluate(() => window.paths);
    return { result, paths, requests: requests.filter((r) => r.endsWith('.wasm')), errors };
  } finally {
    await browser.close();
    await server.close();
  }
}

test('createProcMotion streams procmotion.wasm alone; loadAsync fetches a feature module and its dependencies',
  { skip: SKIP || (!existsSync(join(REPO_ROOT, 'js-glue/procmotion.wasm')) && 'SKIP: js-glue/*.wasm not built'), timeout: 90_000 }, async () => {
    const { result, paths, requests, errors } = await run(`async ({ createProcMotion }) => {
      const pm = await createProcMotion();
      const before = { modules: pm.modules, version: pm.version };
      let notLoaded = null;
      try { pm.toKeypoints(new Uint8Array(8)); } catch (e) { notLoaded = { code: e.code, module: e.module, message: e.message }; }
      const walk = pm.generateCatwalkVmd({}, 120, null, null);
      await pm.loadAsync('keypoints');
      const kp = pm.toKeypoints(walk.vmd, 'vmd');
      return { before, notLoaded, loopFrames: walk.loopFrames, frames: kp.frameCount, modules: pm.modules };
    }`);
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.before.version, `${major}.${minor}.${patch}`);
    assert.deepEqual(result.before.modules, ['core']);
    assert.equal(result.notLoaded.code, 'PM_ERR_NOT_LOADED');
    assert.equal(result.notLoaded.module, 'keypoints');
    assert.match(result.notLoaded.message, /loadAsync\('keypoints'\)/);
    assert.ok(result.frames > 200 && result.loopFrames > 200);
    assert.deepEqual(result.modules, ['core', 'motion', 'keypoints']);
    // the core alone first; keypoints' dependency (motion) before it; each once, each streamed
    assert.deepEqual(requests, ['/js-glue/procmotion.wasm', '/js-glue/procmotion-motion.wasm', '/js-glue/procmotion-keypoints.wasm']);
    assert.deepEqual(paths, ['streaming', 'streaming', 'streaming']);
    assert.deepEqual(errors, []);
  });

test('a server without the application/wasm type gets the fetch-and-instantiate fallback',
  { skip: SKIP, timeout: 60_000 }, async () => {
    const { result, paths, errors } = await run(`async ({ createProcMotion }) => {
      const pm = await createProcMotion({ load: 'all' });
      return { modules: pm.modules, bones: pm.readPmx(pm.mannequinPmx()).bones.length };
    }`, { types: { '.wasm': 'application/octet-stream' } });
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(result.modules.slice(0, 3), ['core', 'motion', 'keypoints']);
    assert.ok(result.bones > 20);
    assert.deepEqual(paths, result.modules.map(() => 'instantiate'), 'one fetch-and-instantiate per module');
    assert.deepEqual(errors, []);
  });

test('createProcMotion({ wasm }) takes bytes or a URL; a missing .wasm is a clear ProcMotionError',
  { skip: SKIP, timeout: 60_000 }, async () => {
    const { result } = await run(`async ({ createProcMotion }) => {
      const bytes = await (await fetch('/js-glue/procmotion.wasm')).arrayBuffer();
      const fromBytes = await createProcMotion({ wasm: bytes });
      const fromUrl = await createProcMotion({ wasm: new URL('/js-glue/procmotion.wasm', location.href), load: ['motion'] });
      let missing = null;
      try { await createProcMotion({ wasm: '/nowhere/procmotion.wasm' }); } catch (e) { missing = { code: e.code, module: e.module, message: e.message, name: e.name }; }
      return { a: fromBytes.version, b: fromUrl.readPmx(fromUrl.mannequinPmx()).bones.length, missing };
    }`);
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.a, `${major}.${minor}.${patch}`);
    assert.ok(result.b > 20);
    assert.equal(result.missing.name, 'ProcMotionError');
    assert.equal(result.missing.code, 'PM_ERR_WASM');
    assert.equal(result.missing.module, 'loader');
    assert.match(result.missing.message, /404/);
    assert.match(result.missing.message, /createProcMotion\(\{ wasm \}\)/);
  });
