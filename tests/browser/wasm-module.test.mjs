// The npm package's loader in a real browser (Debian's Chromium, headless, through playwright-core),
// the glue imported unbundled from js-glue/: createProcMotion fetches only procmotion.wasm and
// compiles it while it downloads (instantiateStreaming, when the server says application/wasm; a
// server that does not gets the fetch-and-instantiate fallback); a feature module loads on
// pm.loadAsync (its dependencies first) and not before; a missing .wasm is a ProcMotionError that says
// what to do; createProcMotion({ wasm }) takes bytes or a URL. The Shift-JIS decode table comes from
// Chromium's TextDecoder (procmotion-sjis.bin is not fetched), and from that file when TextDecoder has
// no shift_jis: the same table, entry by entry. procmotion/all's createProcMotion() streams
// procmotion-all.wasm alone; the main entry alone, which does not name that file, loads the split modules
// for load 'all' (wasm.all still names the one file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, collectPageErrors, launchChromium, serveStatic } from './support/browser.mjs';

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);
const [major, minor, patch] = JSON.parse(readFileSync(join(REPO_ROOT, 'js-glue/package.json'), 'utf8')).version.split('.').map(Number);

// The page records which instantiation path ran, imports `entry`, then runs `body` (an async function of
// its exports).
const page = (body, entry) => `<!doctype html><meta charset="utf-8"><title>procmotion loader</title>
<script type="module">
  const streaming = WebAssembly.instantiateStreaming;
  window.paths = [];
  WebAssembly.instantiateStreaming = (...a) => { window.paths.push('streaming'); return streaming(...a); };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (...a) => { window.paths.push('instantiate'); return instantiate(...a); };
  import('${entry}').then(async (procmotion) => {
    try {
      window.result = await (${body})(procmotion);
    } catch (e) { window.result = { error: String(e && e.stack || e), code: e.code, module: e.module, message: e.message }; }
  });
</script>`;

async function run(body, serverOptions = {}, entry = '/js-glue/index.js') {
  const requests = [];
  const server = await serveStatic(REPO_ROOT, { '/p.html': page(body, entry) }, { ...serverOptions, requests });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors = collectPageErrors(tab);
    await tab.goto(`${server.url}/p.html`);
    const result = await tab.waitForFunction(() => window.result, null, { timeout: 30_000 }).then((h) => h.jsonValue());
    const paths = await tab.evaluate(() => window.paths);
    return { result, paths, requests: requests.filter((r) => /\.(wasm|bin)$/.test(r)), errors };
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
      // the core alone: a walk on bone names; the standard figure's is landed, which is motion's
      const named = pm.generateCatwalkVmd({}, 120, null, ['センター', '下半身', '上半身', '左足ＩＫ', '右足ＩＫ']);
      let landing = null;
      try { pm.generateCatwalkVmd({}, 120, null, null); } catch (e) { landing = { code: e.code, module: e.module, message: e.message }; }
      await pm.loadAsync('keypoints');
      const walk = pm.generateCatwalkVmd({}, 120, null, null);
      const kp = pm.toKeypoints(walk.vmd, { format: 'vmd' });
      return { before, notLoaded, landing, named: named.loopFrames, report: walk.report?.model, loopFrames: walk.loopFrames,
               frames: kp.frameCount, modules: pm.modules };
    }`);
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.before.version, `${major}.${minor}.${patch}`);
    assert.deepEqual(result.before.modules, ['core']);
    assert.equal(result.notLoaded.code, 'PM_ERR_NOT_LOADED');
    assert.equal(result.notLoaded.module, 'keypoints');
    assert.match(result.notLoaded.message, /loadAsync\('keypoints'\)/);
    assert.equal(result.named, 240);
    assert.equal(result.landing?.code, 'PM_ERR_NOT_LOADED');
    assert.equal(result.landing.module, 'motion');
    assert.match(result.landing.message, /lands the walk.*loadAsync\('motion'\)/);
    assert.equal(result.report, 'mannequin');
    assert.ok(result.frames > 200 && result.loopFrames > 200);
    assert.deepEqual(result.modules, ['core', 'motion', 'keypoints']);
    // the core alone first; keypoints' dependency (motion) before it; each once, each streamed
    assert.deepEqual(requests, ['/js-glue/procmotion.wasm', '/js-glue/procmotion-motion.wasm', '/js-glue/procmotion-keypoints.wasm']);
    assert.deepEqual(paths, ['streaming', 'streaming', 'streaming']);
    assert.deepEqual(errors, []);
  });

test('a server without the application/wasm type gets the fetch-and-instantiate fallback',
  { skip: SKIP, timeout: 60_000 }, async () => {
    const { result, paths, errors } = await run(`async ({ createProcMotion, FEATURE_MODULES }) => {
      const pm = await createProcMotion({ load: FEATURE_MODULES });
      return { modules: pm.modules, bones: pm.readPmx(pm.mannequinPmx()).bones.length };
    }`, { types: { '.wasm': 'application/octet-stream' } });
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(result.modules.slice(0, 3), ['core', 'motion', 'keypoints']);
    assert.ok(result.bones > 20);
    assert.deepEqual(paths, result.modules.map(() => 'instantiate'), 'one fetch-and-instantiate per module');
    assert.deepEqual(errors, []);
  });

test("procmotion/all's createProcMotion() streams procmotion-all.wasm alone: every module at once",
  { skip: SKIP || (!existsSync(join(REPO_ROOT, 'js-glue/procmotion-all.wasm')) && 'SKIP: js-glue/*.wasm not built'), timeout: 60_000 }, async () => {
    const { result, paths, requests, errors } = await run(`async ({ createProcMotion }) => {
      const pm = await createProcMotion(); // load 'all' by default there
      const bones = pm.readPmx(pm.mannequinPmx()).bones.length;
      const frames = pm.toKeypoints(pm.generateCatwalkVmd({}).vmd, { format: 'vmd' }).frameCount;
      await pm.loadAsync('all');
      return { modules: pm.modules, bones, frames, glb: pm.pmxToVrm(pm.mannequinPmx()).glb.length, wav: pm.readWav(pm.writeWav(new Float32Array(80), 8000)).frames };
    }`, {}, '/js-glue/all.js');
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(result.modules, ['core', 'motion', 'keypoints', 'beats', 'vrm']);
    assert.ok(result.bones > 20 && result.frames > 100 && result.glb > 1000 && result.wav === 80, JSON.stringify(result));
    assert.deepEqual(paths, ['streaming'], 'one module, compiled while it downloads');
    assert.deepEqual(requests, ['/js-glue/procmotion-all.wasm']);
    assert.deepEqual(errors, []);
  });

// The main entry alone (as in a bundle without procmotion/all) knows no procmotion-all.wasm: load 'all'
// loads the split modules, every one, with the same API; wasm.all still names the one file.
test("the main entry's createProcMotion({ load: 'all' }) loads the split modules; wasm.all still loads the one file",
  { skip: SKIP || (!existsSync(join(REPO_ROOT, 'js-glue/procmotion-all.wasm')) && 'SKIP: js-glue/*.wasm not built'), timeout: 60_000 }, async () => {
    const { result, paths, requests, errors } = await run(`async ({ createProcMotion }) => {
      const pm = await createProcMotion({ load: 'all' });
      const split = { modules: pm.modules, glb: pm.pmxToVrm(pm.mannequinPmx()).glb.length, frames: pm.toKeypoints(pm.generateCatwalkVmd({}).vmd, { format: 'vmd' }).frameCount };
      const one = await createProcMotion({ load: 'all', wasm: { all: new URL('/js-glue/procmotion-all.wasm', location.href) } });
      return { split, one: one.modules, heap: [pm.heapInUse, one.heapInUse] };
    }`);
    assert.equal(result.error, undefined, result.error);
    const every = ['core', 'motion', 'keypoints', 'beats', 'vrm'];
    assert.deepEqual(result.split.modules, every);
    assert.ok(result.split.glb > 1000 && result.split.frames > 100, JSON.stringify(result));
    assert.deepEqual(result.one, every);
    assert.deepEqual(result.heap, [0, 0]);
    assert.deepEqual(requests, ['/js-glue/procmotion.wasm', '/js-glue/procmotion-motion.wasm', '/js-glue/procmotion-keypoints.wasm',
      '/js-glue/procmotion-beats.wasm', '/js-glue/procmotion-vrm.wasm', '/js-glue/procmotion-all.wasm']);
    assert.equal(paths.length, 6);
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

test("the Shift-JIS table comes from Chromium's TextDecoder, entry by entry the compiled one; without shift_jis from procmotion-sjis.bin",
  { skip: SKIP, timeout: 60_000 }, async () => {
    const { result, requests, errors } = await run(`async ({ createProcMotion }) => {
      const { SJIS_TABLE: T } = await import('/js-glue/dist/abi.js');
      const { decodeShiftJisPairs, sjisStoredTable } = await import('/js-glue/sjis-table.js');
      const table = (pm) => {
        const m = pm.mod, slots = m.pm_abi_alloc(T.COUNT * 4);
        m.pm_abi_sjis_table(slots);
        const t = m.HEAPU32.slice(slots >> 2, (slots >> 2) + T.COUNT);
        m.pm_abi_free(slots);
        return { fromHost: t[T.FROM_HOST], checked: t[T.CHECKSUM] === t[T.EXPECTED], units: new Uint16Array(m.memory.buffer, t[T.TABLE], t[T.ENTRIES]).slice() };
      };
      const t0 = performance.now();
      const built = decodeShiftJisPairs();
      const buildMs = performance.now() - t0;
      const viaDecoder = await createProcMotion();
      const Real = TextDecoder;
      globalThis.TextDecoder = class extends Real { constructor(l, o) { if (/shift_jis/i.test(l)) throw new RangeError('not supported'); super(l, o); } };
      const viaFile = await createProcMotion().finally(() => { globalThis.TextDecoder = Real; });
      const a = table(viaDecoder), b = table(viaFile);
      const file = new Uint16Array(await (await fetch('/js-glue/procmotion-sjis.bin')).arrayBuffer());
      const diff = (x, y) => x.length !== y.length ? -2 : x.findIndex((v, i) => v !== y[i]);
      const names = (await (await fetch('/tests/data/mmd-names.tsv')).text()).split('\\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\\t'));
      const wrong = [];
      for (const [, name, hex] of names) {
        const bytes = Uint8Array.from(hex.split(' '), (h) => parseInt(h, 16));
        for (const pm of [viaDecoder, viaFile]) if (pm.decodeShiftJis(bytes) !== name || pm.encodeShiftJis(name).join() !== bytes.join()) wrong.push(name);
      }
      return { sources: [viaDecoder._shiftJisTable, viaFile._shiftJisTable], host: [a.fromHost, b.fromHost], checked: [a.checked, b.checked],
        decoderVsFile: diff(a.units, file), fileVsFile: diff(b.units, file), builtVsFile: diff(sjisStoredTable(built, 8836, 1880), file),
        names: names.length, wrong, buildMs };
    }`);
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(result.sources, ['TextDecoder', 'file']);
    assert.deepEqual(result.host, [1, 1]);
    assert.deepEqual(result.checked, [true, true], 'the core checked both tables against the compiled checksum');
    assert.equal(result.builtVsFile, -1, "the table built from Chromium's TextDecoder differs from the compiled one");
    assert.equal(result.decoderVsFile, -1);
    assert.equal(result.fileVsFile, -1);
    assert.ok(result.names > 150, `${result.names} names`);
    assert.deepEqual(result.wrong, []);
    // the file only when there is no shift_jis decoder (then once by the test page itself)
    assert.deepEqual(requests, ['/js-glue/procmotion.wasm', '/js-glue/procmotion.wasm', '/js-glue/procmotion-sjis.bin', '/js-glue/procmotion-sjis.bin']);
    assert.deepEqual(errors, []);
    console.log(`# the table from Chromium's TextDecoder in ${result.buildMs.toFixed(1)} ms (cold)`);
  });
