// The Emscripten build (js-glue/dist/procmotion.mjs, one ES module with the wasm inlined) loads
// unchanged in a real browser: Debian's Chromium, headless, through playwright-core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, collectPageErrors, launchChromium, serveStatic } from './support/browser.mjs';

const MJS = join(REPO_ROOT, 'js-glue/dist/procmotion.mjs');
const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);

test('procmotion.mjs instantiates in Chromium and answers pm_abi_version', { skip: SKIP, timeout: 60_000 }, async () => {
  assert.ok(existsSync(MJS), `${MJS} missing: run bash build-scripts/build.sh wasm`);
  const [major, minor, patch] = JSON.parse(readFileSync(join(REPO_ROOT, 'js-glue/package.json'), 'utf8'))
    .version.split('.').map(Number);
  const page = `<!doctype html><meta charset="utf-8"><title>procmotion wasm smoke</title>
<script type="module">
  import createProcMotionModule from '/js-glue/dist/procmotion.mjs';
  try {
    const m = await createProcMotionModule();
    const p = m._pm_abi_alloc(1024);
    m.HEAPU8.fill(7, p, p + 1024);
    const ok = m.HEAPU8[p + 1023] === 7;
    m._pm_abi_free(p);
    window.result = { version: m._pm_abi_version(), ok, heap: m.HEAPU8.length };
  } catch (e) { window.result = { error: String(e && e.stack || e) }; }
</script>`;
  const server = await serveStatic(REPO_ROOT, { '/smoke.html': page });
  const t0 = performance.now();
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors = collectPageErrors(tab);
    await tab.goto(`${server.url}/smoke.html`);
    const result = await tab.waitForFunction(() => window.result, null, { timeout: 30_000 }).then((h) => h.jsonValue());
    console.log(`# Chromium ${browser.version()}: module loaded in ${(performance.now() - t0).toFixed(0)} ms (incl. launch)`);
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.version, major * 10000 + minor * 100 + patch);
    assert.ok(result.ok);
    assert.ok(result.heap >= 4 * 1024 * 1024);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
