#!/usr/bin/env node
// Bundles the web demo (web-demo/src/main.js) with esbuild into web-demo/dist/demo.js: our JS glue
// (js-glue), @babylonjs/core and babylon-mmd through deep imports, and copies procmotion's .wasm
// files beside the bundle, as an esbuild user does (esbuild leaves new URL('./x.wasm',
// import.meta.url) as it is: the files must sit next to the output; see README, "Bundlers").
//
//   node build-scripts/build-demo.mjs            # minified bundle + source map
//   node build-scripts/build-demo.mjs --dev      # unminified (readable stack traces)
//
// Needs js-glue/procmotion*.wasm (bash build-scripts/build.sh wasm) and node_modules (npm ci).
// PM_DEMO_GLUE=path bundles another module in place of the `procmotion` glue (development only).
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEV = process.argv.includes('--dev');
const OUT = join(ROOT, 'web-demo/dist');

const wasmFiles = existsSync(join(ROOT, 'js-glue')) ? readdirSync(join(ROOT, 'js-glue')).filter((f) => f.endsWith('.wasm')) : [];
if (!wasmFiles.includes('procmotion.wasm')) {
  console.error('build-demo: js-glue/procmotion.wasm is missing: run bash build-scripts/build.sh wasm first');
  process.exit(1);
}

const { build } = await import('esbuild');
// Exactly 'procmotion' (not 'procmotion/babylon'), when PM_DEMO_GLUE asks for another module.
const plugins = process.env.PM_DEMO_GLUE ? [{
  name: 'demo-glue',
  setup(b) {
    b.onResolve({ filter: /^procmotion$/ }, () => ({ path: resolve(process.env.PM_DEMO_GLUE) }));
  },
}] : [];

mkdirSync(OUT, { recursive: true });
const t0 = performance.now();
const result = await build({
  entryPoints: [join(ROOT, 'web-demo/src/main.js')],
  outfile: join(OUT, 'demo.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: !DEV,
  sourcemap: true,
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins,
  define: { 'process.env.NODE_ENV': DEV ? '"development"' : '"production"' },
});
for (const f of wasmFiles) copyFileSync(join(ROOT, 'js-glue', f), join(OUT, f));
// babylon-mmd's physics (bullet, single-threaded): its glue fetches new URL('index_bg.wasm',
// import.meta.url), the bundle's folder; the page loads it only for a model with rigid bodies
const PHYSICS_WASM = join(ROOT, 'node_modules/babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm');
copyFileSync(PHYSICS_WASM, join(OUT, 'index_bg.wasm'));
const size = statSync(join(OUT, 'demo.js')).size;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`build-demo: web-demo/dist/demo.js ${(size / 1024).toFixed(0)} KiB from ${inputs} modules ` +
            `in ${(performance.now() - t0).toFixed(0)} ms${DEV ? ' (dev)' : ''}, and ${wasmFiles.join(', ')}, index_bg.wasm (physics)`);
