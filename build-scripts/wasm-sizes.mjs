#!/usr/bin/env node
// wasm-sizes.mjs: where the bytes of the npm package's wasm modules are (bench/bench.mjs prints the size rows).
//
//   node build-scripts/wasm-sizes.mjs [--dir build/wasm] [--top N] [--module NAME] [--functions]
//
// Reads what build-scripts/link-wasm.mjs leaves in build/wasm/link/ (the named modules of the split
// and the full link's map) and build/wasm/wasm-modules.json, and prints per module: the gzip -9 size of
// the module file, its code by source file (raw bytes of the function bodies, as the full link
// optimised them), with --functions its largest functions, and the data that moved into it by source.
// The core's data is what the full link's map lists that no feature module took.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { definedFunctionNames, functionBodies } from './wasm-binary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const DIR = resolve(arg('--dir', join(ROOT, 'build/wasm')));
const TOP = Number(arg('--top', 25));
const ONLY = arg('--module', null);
const FUNCTIONS = args.includes('--functions');
const report = JSON.parse(readFileSync(join(DIR, 'wasm-modules.json'), 'utf8'));
const map = readFileSync(join(DIR, 'link/full.map'), 'utf8');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// the source of each function of the full link, from the map's CODE entries (index order; Binaryen
// names the k-th function of a repeated name `name.k`)
const sourceOf = new Map();
{
  const start = map.search(/^\s+-\s+[0-9a-f]+\s+[0-9a-f]+ CODE$/m);
  const count = new Map();
  for (const line of map.slice(start).split('\n').slice(1)) {
    if (/^\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+ [A-Za-z_.]+$/.test(line)) break;
    const m = /^\s*-\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S+):\(([^)]+)\)\s*$/.exec(line);
    if (!m) continue;
    const k = count.get(m[2]) ?? 0;
    count.set(m[2], k + 1);
    sourceOf.set(k ? `${m[2]}.${k}` : m[2], m[1]);
  }
}
const shortSource = (s) => {
  if (!s) return '(copies and glue)';
  const lib = /([^/]+\.a)\(([^)]+)\)$/.exec(s);
  if (lib) return lib[1].startsWith('libc') ? `libc: ${lib[2].replace(/\.o$/, '')}` : `${lib[1]}(${lib[2].replace(/\.c\.o$/, '.c')})`;
  return basename(s).replace(/\.c\.o$/, '.c');
};
const group = (s) => (/^libc: /.test(s) ? 'libc/libm' : s);

/** [{ name, size }] of a module file's function bodies. */
function functions(file) {
  const buf = readFileSync(file);
  const names = definedFunctionNames(buf);
  return functionBodies(buf).map((body, i) => ({ name: names[i], size: body.length }));
}

// the named modules: the core is the last split's primary, each feature module its own file
const modules = Object.keys(report.modules);
const namedFile = (m, k) => join(DIR, 'link', k === 0 ? `primary-${modules[1]}.wasm` : `${m}.wasm`);
modules.forEach((m, k) => {
  if (ONLY && m !== ONLY) return;
  const info = report.modules[m];
  const fns = functions(namedFile(m, k));
  const code = fns.reduce((a, f) => a + f.size, 0);
  console.log(`\n== ${info.file}: ${kb(info.bytes)}, ${kb(info.gzip)} gzip; code ${kb(code)} raw in ${fns.length} functions`);
  const bySource = new Map();
  for (const f of fns) {
    const base = f.name.replace(/__[a-z]+$/, '');
    const s = group(shortSource(sourceOf.get(base)));
    const g = bySource.get(s) ?? { size: 0, n: 0 };
    g.size += f.size, g.n++;
    bySource.set(s, g);
  }
  const rows = [...bySource].sort((a, b) => b[1].size - a[1].size);
  console.log('  code by source (raw):');
  for (const [s, g] of rows.slice(0, TOP)) console.log(`    ${String(g.size).padStart(7)}  ${String(g.n).padStart(4)} fn  ${s}`);
  if (rows.length > TOP) console.log(`    ${String(rows.slice(TOP).reduce((a, [, g]) => a + g.size, 0)).padStart(7)}  (${rows.length - TOP} more sources)`);
  if (FUNCTIONS) {
    console.log('  largest functions (raw):');
    for (const f of [...fns].sort((a, b) => b.size - a.size).slice(0, TOP)) {
      console.log(`    ${String(f.size).padStart(7)}  ${f.name}  (${shortSource(sourceOf.get(f.name.replace(/__[a-z]+$/, '')))})`);
    }
  }
  const moved = report.movedData?.[m];
  if (moved) {
    console.log(`  data moved in: ${kb(moved.bytes)} raw`);
    for (const [s, n] of Object.entries(moved.sources).sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`    ${String(n).padStart(7)}  ${s.replace(/^.*\//, '')}`);
    }
  }
});

// the core's data: every data symbol of the map minus what moved out
if (!ONLY || ONLY === modules[0]) {
  const total = new Map();
  for (const line of map.split('\n')) {
    const m = /^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+(\S.*:\((\.[^)]*)\))\s*$/.exec(line);
    if (!m || /\(\.bss/.test(m[3]) || !parseInt(m[2], 16)) continue;
    total.set(m[3], (total.get(m[3]) ?? 0) + parseInt(m[2], 16));
  }
  for (const moved of Object.values(report.movedData ?? {})) {
    for (const [s, n] of Object.entries(moved.sources)) total.set(s, (total.get(s) ?? 0) - n);
  }
  const rows = [...total].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  console.log(`\n== data left in ${report.modules[modules[0]].file}: ${kb(rows.reduce((a, [, n]) => a + n, 0))} raw (before the zero runs are cut)`);
  for (const [s, n] of rows.slice(0, TOP)) console.log(`    ${String(n).padStart(7)}  ${s.replace(/^.*\//, '')}`);
}
// gzip of the files as shipped, for the record
const gz = modules.map((m) => gzipSync(readFileSync(join(DIR, report.modules[m].file)), { level: 9 }).length);
console.log(`\ngzip -9: ${modules.map((m, k) => `${m} ${kb(gz[k])}`).join(', ')}; all ${kb(gz.reduce((a, b) => a + b, 0))}`);
