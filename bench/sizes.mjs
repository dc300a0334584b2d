// What an app downloads of procmotion, measured one way for the bench's size rows
// (bench/plan.mjs) and the test that holds the targets (tests/node/download-size.test.mjs).
//
// gzip -9 (Node's zlib) of: each wasm module of the npm package (build/wasm/wasm-modules.json names
// them, js-glue/ holds them); the JS an app bundles for createProcMotion and the babylon catwalk helpers,
// minified by esbuild with code splitting (the feature modules' JS stays in their own chunks): the
// chunks that load before any loadAsync (jsCore) and every chunk (jsAll), for an app importing
// 'procmotion' (index.js) and one importing 'procmotion/all' (all.js, beside procmotion-all.wasm).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The target (KB of 1024 bytes, gzip): a catwalk-only app. */
export const TARGETS = Object.freeze({ catwalkApp: 100 });

export const gzipBytes = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** An app bundling `from` (an entry of js-glue) with esbuild: { jsCore, jsAll } gzip bytes. */
async function bundle(dir, name, from) {
  const { build } = await import('esbuild');
  const entry = join(dir, `${name}.js`);
  writeFileSync(entry, `import { createProcMotion } from '../../js-glue/${from}';\nimport { createCatwalkAnimationAsync, loopRuntimeAnimation } from '../../js-glue/babylon.js';\nwindow.app = [createProcMotion, createCatwalkAnimationAsync, loopRuntimeAnimation];\n`);
  const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', splitting: true, write: false,
    outdir: join(dir, `out-${name}`), external: ['babylon-mmd/*'], metafile: true, logLevel: 'silent' });
  const chunks = out.outputFiles.map((f) => ({ path: f.path, bytes: Buffer.from(f.contents) }));
  // the entry and the chunks it imports statically: what loads before any loadAsync
  const meta = out.metafile.outputs;
  const key = (p) => Object.keys(meta).find((k) => p.endsWith(k.replace(/^.*?out-[^/]*\//, `out-${name}/`)));
  const staticSet = new Set();
  const visit = (k) => {
    if (!k || staticSet.has(k)) return;
    staticSet.add(k);
    for (const im of meta[k].imports) if (im.kind === 'import-statement') visit(im.path);
  };
  visit(Object.keys(meta).find((k) => meta[k].entryPoint));
  return {
    jsCore: chunks.filter((c) => staticSet.has(key(c.path))).reduce((a, c) => a + gzipBytes(c.bytes), 0),
    jsAll: chunks.reduce((a, c) => a + gzipBytes(c.bytes), 0),
  };
}

/**
 * The download sizes in gzip bytes, or null before the wasm build: { modules: { name: { file, bytes,
 * gzip } }, all: { file, bytes, gzip } | null, catwalkApp: { wasm, js }, everything: { wasm, js,
 * withoutBeats }, oneFile: { wasm, js } | null }.
 */
export async function downloadSizes() {
  const report = join(ROOT, 'build/wasm/wasm-modules.json');
  if (!existsSync(report)) return null;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const file = (f) => {
    const bytes = readFileSync(join(ROOT, 'js-glue', f));
    return { file: f, bytes: bytes.length, gzip: gzipBytes(bytes) };
  };
  const modules = Object.fromEntries(Object.entries(r.modules).map(([m, info]) => [m, file(info.file)]));
  const dir = join(ROOT, 'test-results/bench-size');
  mkdirSync(dir, { recursive: true });
  const { jsCore, jsAll } = await bundle(dir, 'app', 'index.js');
  const wasm = Object.values(modules).reduce((a, m) => a + m.gzip, 0);
  const out = {
    modules,
    all: r.all ? file(r.all.file) : null,
    catwalkApp: { wasm: modules.core.gzip, js: jsCore },
    everything: { wasm, js: jsAll, withoutBeats: wasm - (modules.beats?.gzip ?? 0) },
    oneFile: null,
  };
  // procmotion/all: the one file instead of the five, and the JS of an app importing it (all.js)
  if (out.all) out.oneFile = { wasm: out.all.gzip, js: (await bundle(dir, 'app-all', 'all.js')).jsAll };
  return out;
}
