// The package built the way users build it, then run in Chromium. The README's first example
// (examples/babylon-catwalk/) is built by Vite with no configuration from the packed tarball: the page
// loads a PMX in babylon-mmd, the catwalk plays, the model moves and is still moving after one loop,
// and the page fetched procmotion.wasm alone (a catwalk needs only the core). A small app (catwalk,
// then keypoints loaded on demand) is built by webpack 5, esbuild and Rollup (+ node-resolve) with no
// configuration either: webpack bundles the .wasm files itself (new URL(..., import.meta.url)), as
// Vite does; esbuild and Rollup leave that expression as it is, so their build runs as is and the
// .wasm files are copied beside the output (README, "Bundlers"); without them the page reports the
// ProcMotionError that says so. Apps built from the main entry carry no procmotion-all.wasm (Vite and
// webpack emit the split modules only, and webpack prints no size hint for the one file); an app built
// by Vite from procmotion/all gets it and fetches it alone, and one that asks the main entry for
// load 'all' fetches the split modules, every one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, collectPageErrors, launchChromium, serveStatic } from './support/browser.mjs';
import { fixturesAvailable, fixturePath } from '../node/support/babylon.mjs';
import { consumerProject, wasmBuilt } from '../node/support/package.mjs';

const SKIP = browserUnavailable() ?? (wasmBuilt() ? false : 'SKIP: js-glue/*.wasm not built (bash build-scripts/build.sh wasm)');
if (SKIP) console.log(`# ${SKIP}`);
const EXAMPLE = join(REPO_ROOT, 'examples/babylon-catwalk');

const APP = `import { createProcMotion } from 'procmotion';
(async () => {
  try {
    const pm = await createProcMotion();
    await pm.loadAsync('motion'); // the standard figure's walk is landed on the mannequin: motion's
    const walk = pm.generateCatwalkVmd({}, 120, null, null);
    await pm.loadAsync('keypoints');
    const kp = pm.toKeypoints(walk.vmd, { format: 'vmd' });
    window.result = { loopFrames: walk.loopFrames, frames: kp.frameCount, modules: pm.modules };
  } catch (e) {
    window.result = { error: String(e && e.message || e), code: e && e.code };
  }
})();
`;
const page = (script, module = true) => `<!doctype html><meta charset="utf-8"><title>app</title><script ${module ? 'type="module" ' : ''}src="./${script}"></script>`;

async function openPage(dir, path, fn) {
  const requests = [];
  const server = await serveStatic(dir, {}, { requests });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors = collectPageErrors(tab);
    await tab.goto(`${server.url}/${path}`);
    return { ...(await fn(tab)), wasm: requests.filter((r) => r.endsWith('.wasm')), js: requests.filter((r) => r.endsWith('.js')), errors };
  } finally {
    await browser.close();
    await server.close();
  }
}
// Vite's asset names carry an 8-character hash: procmotion-all-AbC_12x-.wasm
const unhashed = (f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm');
/** The bytes of a build's assets: all of them, and its .wasm files by name. */
const assetBytes = (dir) => {
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => statSync(join(dir, f)).isFile());
  const size = (f) => statSync(join(dir, f)).size;
  const total = files.reduce((a, f) => a + size(f), 0);
  return `${files.length} files, ${total} bytes; ${files.filter((f) => f.endsWith('.wasm')).map((f) => `${f} ${size(f)}`).join(', ')}`;
};
const resultOf = (tab) => tab.waitForFunction(() => window.result, null, { timeout: 60_000 }).then((h) => h.jsonValue());
const copyWasm = (dist) => {
  for (const f of readdirSync(join(REPO_ROOT, 'js-glue')).filter((f) => f.endsWith('.wasm'))) copyFileSync(join(REPO_ROOT, 'js-glue', f), join(dist, f));
};
const checkApp = (r) => {
  assert.equal(r.result.error, undefined, r.result.error);
  assert.ok(r.result.loopFrames > 100 && r.result.frames > 100, JSON.stringify(r.result));
  assert.deepEqual(r.result.modules, ['core', 'motion', 'keypoints']);
  assert.deepEqual(r.errors, []);
};

test('the README example, built by Vite with no configuration: the model walks and keeps walking after a loop',
  { skip: SKIP || (!fixturesAvailable() && 'SKIP: ../shared/fixtures not found'), timeout: 300_000 }, async () => {
    const dir = consumerProject('bundle-vite', {
      'index.html': readFileSync(join(EXAMPLE, 'index.html')),
      'main.js': readFileSync(join(EXAMPLE, 'main.js')),
      'package.json': readFileSync(join(EXAMPLE, 'package.json')),
      'public/model.pmx': readFileSync(fixturePath('pmx/yw_test_model/yw_test_model.pmx')),
      'public/tex/diffuse.png': readFileSync(fixturePath('pmx/yw_test_model/tex/diffuse.png')),
      'public/tex/sph.png': readFileSync(fixturePath('pmx/yw_test_model/tex/sph.png')),
    });
    const { build } = await import('vite');
    await build({ root: dir, configFile: false, logLevel: 'warn' });
    const assets = readdirSync(join(dir, 'dist/assets'));
    const split = readdirSync(join(REPO_ROOT, 'js-glue')).filter((f) => f.endsWith('.wasm') && f !== 'procmotion-all.wasm');
    const emitted = assets.filter((f) => f.endsWith('.wasm')).map(unhashed).sort();
    assert.deepEqual(emitted, split.sort(), 'Vite emitted every split .wasm file and not procmotion-all.wasm');
    console.log(`# Vite, main entry: ${assetBytes(join(dir, 'dist/assets'))}`);
    const r = await openPage(join(dir, 'dist'), 'index.html', async (tab) => {
      await tab.waitForFunction(() => window.example?.mmdRuntime?.isAnimationPlaying, null, { timeout: 60_000 });
      return tab.evaluate(async () => {
        const { mmdRuntime, mmdModel, loopFrames } = window.example;
        const ankle = mmdModel.runtimeBones.findIndex((b) => b.name === '左足首');
        mmdRuntime.timeScale = 8; // two loops in a few seconds
        const samples = [];
        const end = performance.now() + ((2.2 * loopFrames) / 30 / 8) * 1000;
        while (performance.now() < end) {
          await new Promise((ok) => setTimeout(ok, 50));
          samples.push([mmdRuntime.currentFrameTime, mmdModel.worldTransformMatrices[16 * ankle + 14]]);
        }
        return { loopFrames, samples, playing: mmdRuntime.isAnimationPlaying };
      });
    });
    const { loopFrames, samples } = r;
    const wrap = samples.findIndex((s, i) => i && s[0] < samples[i - 1][0]);
    assert.ok(wrap > 0, 'the clock wrapped at the loop');
    assert.ok(samples.every((s) => s[0] < loopFrames), 'the clock stays inside the loop');
    const after = samples.slice(wrap).map((s) => s[1]);
    assert.ok(Math.max(...after) - Math.min(...after) > 1, `the ankle still moves after the loop (${Math.max(...after) - Math.min(...after)})`);
    assert.ok(r.playing);
    assert.deepEqual(r.wasm.map((p) => p.replace(/-[\w-]{6,}\.wasm$/, '.wasm')), ['/assets/procmotion.wasm'], 'a catwalk fetches the core alone');
    assert.deepEqual(r.errors, []);
  });

// An app that uses every module: procmotion/all's createProcMotion() (load 'all' by default) fetches
// procmotion-all.wasm alone (one fetch, one compile) and every module's methods work at once; each
// feature module's JS chunk loads once. From the main entry, createProcMotion({ load: 'all' }) fetches
// the split modules, every one, and the app works the same.
const APP_ALL = (entry, options) => `import { createProcMotion } from '${entry}';
(async () => {
  try {
    const pm = await createProcMotion(${options});
    const walk = pm.generateCatwalkVmd({}, 120, null, null);
    const kp = pm.toKeypoints(walk.vmd, { format: 'vmd' });
    const wav = pm.readWav(pm.writeWav(new Float32Array(800), 8000)).frames;
    const glb = pm.pmxToVrm(pm.mannequinPmx()).glb.length;
    await pm.loadAsync('all');
    window.result = { loopFrames: walk.loopFrames, frames: kp.frameCount, wav, glb, modules: pm.modules, heap: pm.heapInUse };
  } catch (e) {
    window.result = { error: String(e && e.message || e), code: e && e.code };
  }
})();
`;

const SPLIT_FILES = ['procmotion.wasm', 'procmotion-motion.wasm', 'procmotion-keypoints.wasm', 'procmotion-beats.wasm', 'procmotion-vrm.wasm'];
for (const [entry, options, fetched, label] of [
  ['procmotion/all', '', ['procmotion-all.wasm'], 'procmotion/all fetches procmotion-all.wasm alone'],
  ['procmotion', "{ load: 'all' }", SPLIT_FILES, "the main entry's load 'all' fetches the split modules"],
]) {
  test(`Vite with no configuration: ${label} and every module works`, { skip: SKIP, timeout: 300_000 }, async () => {
    const dir = consumerProject(`bundle-vite-${entry.replace('/', '-')}-all`, {
      'index.html': page('main.js'), 'main.js': APP_ALL(entry, options), 'package.json': '{ "name": "app", "private": true, "type": "module" }',
    });
    const { build } = await import('vite');
    await build({ root: dir, configFile: false, logLevel: 'warn' });
    const emitted = readdirSync(join(dir, 'dist/assets')).filter((f) => f.endsWith('.wasm')).map(unhashed);
    if (entry === 'procmotion/all') assert.ok(emitted.includes('procmotion-all.wasm'), `procmotion/all's build emits procmotion-all.wasm: ${emitted}`);
    else assert.ok(!emitted.includes('procmotion-all.wasm'), `the main entry's build emits no procmotion-all.wasm: ${emitted}`);
    console.log(`# Vite, ${entry} with load 'all': ${assetBytes(join(dir, 'dist/assets'))}`);
    const r = await openPage(join(dir, 'dist'), 'index.html', async (tab) => ({ result: await resultOf(tab) }));
    assert.equal(r.result.error, undefined, r.result.error);
    assert.ok(r.result.loopFrames > 100 && r.result.frames > 100 && r.result.glb > 1000, JSON.stringify(r.result));
    assert.equal(r.result.wav, 800);
    assert.deepEqual(r.result.modules, ['core', 'motion', 'keypoints', 'beats', 'vrm']);
    assert.equal(r.result.heap, 0);
    assert.deepEqual(r.wasm.map(unhashed), fetched.map((f) => `/assets/${f}`), 'the .wasm files fetched, each once');
    assert.equal(new Set(r.js).size, r.js.length, `every JS file once: ${r.js}`);
    assert.deepEqual(r.errors, []);
    console.log(`# ${entry}, load 'all': ${r.wasm.length} .wasm, ${r.js.length} JS files fetched`);
  });
}

test('webpack 5 with no configuration bundles the package and its .wasm files', { skip: SKIP, timeout: 300_000 }, async () => {
  const dir = consumerProject('bundle-webpack', { 'src/index.js': APP, 'package.json': '{ "name": "app", "private": true }' });
  // as `npx webpack --mode production` in the project: defaults for everything (./src -> ./dist/main.js)
  const webpack = join(REPO_ROOT, 'node_modules/webpack/lib/index.js');
  // any error or warning fails, but webpack's performance hints about a .wasm's size (over its 244 KiB
  // default; the bench prints every module's size), printed
  const script = `import(${JSON.stringify(webpack)}).then(({ default: webpack }) => webpack({ mode: 'production' }, (e, s) => {
    const j = s?.toJson({ all: false, errors: true, warnings: true });
    const hint = (w) => /asset size limit/.test(w.message) && /Assets:(\\s+\\S+\\.wasm \\([\\d.]+ KiB\\))+\\s*$/.test(w.message);
    const other = j ? j.warnings.filter((w) => !hint(w)) : [];
    if (e || s.hasErrors() || other.length) { console.error(e ?? s.toString({ all: false, errors: true, warnings: true })); process.exit(1); }
    for (const w of j.warnings) console.log(w.message.split('\\n').map((l) => l.trim()).filter(Boolean).join(' '));
  }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  for (const line of r.stdout.split('\n').filter(Boolean)) console.log(`# webpack: ${line}`);
  // webpack names assets by content hash: the split modules are the .wasm files it emitted, byte for
  // byte, and procmotion-all.wasm is none of them, nor in a size hint
  const dist = join(dir, 'dist');
  const wasm = readdirSync(dist).filter((f) => f.endsWith('.wasm'));
  const bytesOf = (f) => readFileSync(join(REPO_ROOT, 'js-glue', f));
  const which = wasm.map((f) => SPLIT_FILES.find((m) => bytesOf(m).equals(readFileSync(join(dist, f)))) ?? f).sort();
  assert.deepEqual(which, [...SPLIT_FILES].sort(), 'webpack emitted the split modules only');
  const all = wasm.find((f) => bytesOf('procmotion-all.wasm').equals(readFileSync(join(dist, f))));
  assert.equal(all, undefined, 'no procmotion-all.wasm in a main-entry build');
  const hinted = [...r.stdout.matchAll(/(\S+\.wasm) \([\d.]+ KiB\)/g)].map((m) => m[1]);
  assert.ok(hinted.every((f) => wasm.includes(f)), `the size hints name emitted files: ${hinted}`);
  console.log(`# webpack, main entry: ${assetBytes(dist)}; size hints for ${hinted.length ? hinted.map((f) => SPLIT_FILES.find((m) => bytesOf(m).equals(readFileSync(join(dist, f))))).join(', ') : 'no .wasm'}`);
  writeFileSync(join(dir, 'dist/index.html'), page('main.js', false));
  checkApp(await openPage(join(dir, 'dist'), 'index.html', async (tab) => ({ result: await resultOf(tab) })));
});

test('esbuild bundles the package as is; the .wasm files go beside its output, else a clear error', { skip: SKIP, timeout: 300_000 }, async () => {
  const dir = consumerProject('bundle-esbuild', { 'src/index.js': APP });
  const { build } = await import('esbuild');
  const out = await build({ entryPoints: [join(dir, 'src/index.js')], bundle: true, format: 'esm', outdir: join(dir, 'dist'), logLevel: 'silent' });
  assert.deepEqual(out.warnings, []);
  writeFileSync(join(dir, 'dist/index.html'), page('index.js'));
  const missing = await openPage(join(dir, 'dist'), 'index.html', async (tab) => ({ result: await resultOf(tab) }));
  assert.equal(missing.result.code, 'PM_ERR_WASM');
  assert.match(missing.result.error, /procmotion\.wasm.*404.*copy procmotion's \.wasm files beside your bundle/);
  copyWasm(join(dir, 'dist'));
  checkApp(await openPage(join(dir, 'dist'), 'index.html', async (tab) => ({ result: await resultOf(tab) })));
});

test('Rollup with node-resolve bundles the package as is; the .wasm files go beside its output', { skip: SKIP, timeout: 300_000 }, async () => {
  const dir = consumerProject('bundle-rollup', { 'src/index.js': APP });
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const warnings = [];
  const bundle = await rollup({ input: join(dir, 'src/index.js'), plugins: [nodeResolve()], onwarn: (w) => warnings.push(w.message) });
  await bundle.write({ dir: join(dir, 'dist'), format: 'es' });
  assert.deepEqual(warnings, []);
  writeFileSync(join(dir, 'dist/index.html'), page('index.js'));
  mkdirSync(join(dir, 'dist'), { recursive: true });
  copyWasm(join(dir, 'dist'));
  checkApp(await openPage(join(dir, 'dist'), 'index.html', async (tab) => ({ result: await resultOf(tab) })));
});
