#!/usr/bin/env node
// link-wasm.mjs: links the Emscripten build of the core into the wasm modules of the npm package.
//
//   node build-scripts/link-wasm.mjs --emcc /usr/bin/emcc --out build/wasm \
//        --objects abi_vmd.c.o ... --libs libprocmotion_core.a libpm_cjson.a
//
// CMake's Emscripten build runs it (target procmotion_wasm); build.sh copies what it writes into
// js-glue/. The modules and their exports come from one table, wasm/abi/pm_abi_table.h. The steps:
//   1. The interface: the C preprocessor expands wasm/abi/pm_abi_manifest.json.c into JSON (the
//      modules, every export and its module, the slot layouts, the enums, the result names).
//   2. One link of everything at -O3: procmotion-all.wasm, for apps that use every module, is this link.
//   3. What each module needs: a quick -O0 link of a module's exports (with the modules it loads after)
//      keeps only what they reach (wasm-ld's garbage collection), and its map names every function and
//      every data symbol it kept. A function or data symbol goes to the first module whose link keeps
//      it. Strings are not merged (wasm-ld -O0), so every string literal stays with its object file.
//   4. The split: Binaryen's wasm-split moves each feature module's functions into its own .wasm (a
//      table slot stands in for each until it loads); small leaves that a feature module calls in its
//      loops (vector math, libc's mem*/str*, libm's trig) get a copy of their own there. Each feature
//      module's data moves into it as segments at the same addresses.
//   5. The files: procmotion.wasm (the core), procmotion-<module>.wasm, procmotion-all.wasm, abi*.js
//      (the interface for js-glue) and wasm-modules.json (sizes, dependencies, what moved where).
// Needs emcc, wasm-split and wasm-dis (Debian's emscripten and binaryen, build-scripts/setup.sh).
// build-scripts/wasm-sizes.mjs reads what this leaves in <out>/link/ to show where the bytes are.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import {
  definedFunctionNames, functionBodies, readData, readExports, readImports, readSections, writeData, writeImports, writeModule,
} from './wasm-binary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---- arguments ---------------------------------------------------------------------------------
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return [];
  const out = [];
  for (let k = i + 1; k < args.length && !args[k].startsWith('--'); k++) out.push(...args[k].split(';').filter(Boolean));
  return out;
};
const EMCC = opt('--emcc')[0] ?? 'emcc';
const OUT = resolve(opt('--out')[0] ?? join(ROOT, 'build/wasm'));
const OBJECTS = opt('--objects');
const LIBS = opt('--libs');
const WORK = join(OUT, 'link');
if (!OBJECTS.length) {
  console.error('link-wasm: --objects (the ABI objects) and --libs (core and cJSON archives) are needed');
  process.exit(2);
}
mkdirSync(WORK, { recursive: true });
process.env.NODE_PATH = ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':');

const run = (cmd, argv) => {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 29 });
  if (r.status !== 0) {
    console.error(`link-wasm: ${cmd} ${argv.slice(0, 6).join(' ')} ... failed\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
};

// the wasm features of every browser babylon-mmd runs in (Chrome 75, Firefox 79, Safari 15, Node 12.5),
// which CMakeLists.txt compiles for: memory.copy/fill and saturating float-to-int conversions
const FEATURES = ['-mbulk-memory', '-mnontrapping-fptoint'];
const BINARYEN_FEATURES = ['--enable-mutable-globals', '--enable-sign-ext', '--enable-bulk-memory', '--enable-nontrapping-float-to-int'];

// ---- 1. the interface ----------------------------------------------------------------------------
function readManifest() {
  const text = execFileSync(EMCC, ['-E', '-P', '-x', 'c', '-I', join(ROOT, 'wasm/abi'), join(ROOT, 'wasm/abi/pm_abi_manifest.json.c')],
    { encoding: 'utf8' });
  const raw = JSON.parse(text);
  const list = (a) => a.filter((x) => x !== null);
  const layouts = {}, enums = {};
  for (const [k, v] of Object.entries(raw.layouts)) if (k) layouts[k] = { module: v[0], entries: list(v.slice(1)) };
  for (const [k, v] of Object.entries(raw.enums)) if (k) enums[k] = { module: v[0], entries: list(v.slice(1)) };
  return { modules: list(raw.modules), exports: list(raw.exports), layouts, enums, results: list(raw.results) };
}
const manifest = readManifest();
const MODULES = manifest.modules; // load order: the core first
const exportsOf = (mods) => manifest.exports.filter(([m]) => mods.includes(m)).map(([, name]) => name);

// ---- 2. the full link ----------------------------------------------------------------------------
const LINK_FLAGS = [
  '-sSTANDALONE_WASM', '-sALLOW_MEMORY_GROWTH=1', '-sINITIAL_MEMORY=4194304', '-sTOTAL_STACK=1048576',
  '-sMALLOC=emmalloc', '-sABORTING_MALLOC=0', '-sFILESYSTEM=0', '--no-entry', '--profiling-funcs',
  // every string literal stays a data symbol of its object file, so the maps can say whose it is
  '-Wl,-O0',
  // musl's sin/cos reduction of |x| >= 1.6e6 without its 2/pi table (wasm/src/fdlibm/rem_pio2_huge.c)
  '-Wl,--wrap=__rem_pio2_large',
  ...FEATURES,
];
/** Links the exports; returns the linker's map (every function and data symbol it kept). */
function link(out, optLevel, exports) {
  const list = JSON.stringify(exports.map((e) => `_${e}`));
  return run(EMCC, [optLevel, ...LINK_FLAGS, `-sEXPORTED_FUNCTIONS=${list}`, '-Wl,--print-map', ...OBJECTS, ...LIBS, '-o', out]);
}
const t0 = performance.now();
const FULL = join(WORK, 'full.wasm');
const fullMap = link(FULL, '-O3', exportsOf(MODULES));
writeFileSync(join(WORK, 'full.map'), fullMap);

// ---- 3. what each module needs -------------------------------------------------------------------
/** The CODE entries of a map: Binaryen's name of each function (the k-th of a repeated name is
 * `name.k`, so two files' static functions of one name differ) -> `object:name`. */
function functionIdentities(map) {
  const ids = new Map();
  const start = map.search(/^\s+-\s+[0-9a-f]+\s+[0-9a-f]+ CODE$/m);
  if (start < 0) return ids;
  const count = new Map();
  for (const line of map.slice(start).split('\n').slice(1)) {
    if (/^\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+ [A-Za-z_.]+$/.test(line)) break; // the next output section
    const m = /^\s*-\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S+):\(([^)]+)\)\s*$/.exec(line);
    if (!m) continue;
    const k = count.get(m[2]) ?? 0;
    count.set(m[2], k + 1);
    ids.set(k ? `${m[2]}.${k}` : m[2], `${m[1]}:${m[2]}`);
  }
  return ids;
}
/** The data symbols of a map: [{ id: 'object:(section)', start, end }] (bss is all zeros: nothing to move). */
function dataSymbols(map) {
  const out = [];
  for (const line of map.split('\n')) {
    const m = /^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+(\S.*:\((\.[^)]*)\))\s*$/.exec(line);
    if (!m || /\(\.bss/.test(m[3])) continue;
    const start = parseInt(m[1], 16), size = parseInt(m[2], 16);
    if (size) out.push({ id: m[3], start, end: start + size });
  }
  return out;
}
const baseName = (n) => n.replace(/\.\d+$/, '');
const fullIds = functionIdentities(fullMap);
const identity = (ids) => (n) => ids.get(n) ?? baseName(n);
const fullNames = definedFunctionNames(readFileSync(FULL));

/** What a link of these modules' exports keeps: { functions: Set of identities, data: Set of ids }. */
function needs(mods, tag) {
  const file = join(WORK, `needs-${tag}.wasm`);
  const map = link(file, '-O0', exportsOf(mods));
  const ids = identity(functionIdentities(map));
  return { functions: new Set(definedFunctionNames(readFileSync(file)).map(ids)), data: new Set(dataSymbols(map).map((d) => d.id)) };
}

/** Direct calls per function (from the text of a module). */
function callGraph(wat) {
  const g = new Map();
  let cur = null;
  for (const line of wat.split('\n')) {
    const m = /^ \(func \$(\S+)/.exec(line);
    if (m) {
      g.set((cur = m[1]), new Set());
      continue;
    }
    if (/^ \(/.test(line)) cur = null;
    if (cur) for (const c of line.matchAll(/\((?:return_)?call \$([^\s)]+)/g)) g.get(cur).add(c[1]);
  }
  return g;
}
const fullWat = run('wasm-dis', [FULL]);
const graph = callGraph(fullWat);

// Functions: the first module whose exports, with the modules before it, reach it. A function kept for
// an earlier module keeps what it calls directly (a direct call must not become a placeholder).
const prefixNeeds = MODULES.map((m, k) => (k === MODULES.length - 1 ? null : needs(MODULES.slice(0, k + 1), m)));
const moduleOf = new Map();
for (const n of fullNames) {
  const id = identity(fullIds)(n);
  const k = prefixNeeds.findIndex((p) => !p || p.functions.has(id));
  moduleOf.set(n, MODULES[k]);
}
for (let k = 0; k < MODULES.length; k++) {
  const stack = fullNames.filter((n) => moduleOf.get(n) === MODULES[k]);
  while (stack.length) {
    for (const c of graph.get(stack.pop()) ?? []) {
      if (graph.has(c) && MODULES.indexOf(moduleOf.get(c)) > k) moduleOf.set(c, MODULES[k]), stack.push(c);
    }
  }
}

// A feature module calls another module's functions through an import (and a table slot), which engines
// neither inline nor call as fast as their own. The small computational leaves it calls (the core's vector
// maths, libc's memcpy/memset/string compares, libm's sin/cos/..., fdlibm's exp and logs, which read no
// data) get a copy of their own in it: a shared leaf must not make one feature module load another.
const CLONE_LIMIT = 1024; // bytes of code
const LIBC_LEAVES = /^(mem|str|sinf?$|cosf?$|tanf?$|asinf?$|acosf?$|atan2?f?$|l?l?roundf?$|floorf?$|ceilf?$|__sin|__cos|__tan|__rem_pio2f?$|R$)/;
const clonable = (name) => {
  const id = identity(fullIds)(name);
  const src = id.includes(':') ? id.slice(0, id.lastIndexOf(':')) : '';
  return /\(math\.c\.o\)$/.test(src) || /\/abi_common\.c\.o$/.test(src) || /\/libc\.a\(qsort\.o\)$/.test(src) ||
    (/\(fdlibm\.c\.o\)$/.test(src) && /^pmi_(exp|log|log2)$/.test(baseName(name))) ||
    (/\/libc\.a\(/.test(src) && LIBC_LEAVES.test(baseName(name)));
};
const report = {};
const SPLIT_INPUT = join(WORK, 'full-cloned.wasm');
{
  const sizes = new Map();
  functionBodies(readFileSync(FULL)).forEach((body, i) => sizes.set(fullNames[i], body.length));
  const lines = fullWat.split('\n');
  const blocks = new Map(); // name -> [first line, end line)
  let cur = null, curStart = 0;
  lines.forEach((line, i) => {
    if (/^ \(/.test(line) || line === ')') {
      if (cur) blocks.set(cur, [curStart, i]);
      cur = null;
      const m = /^ \(func \$(\S+)/.exec(line);
      if (m) cur = m[1], (curStart = i);
    }
  });
  const cloned = new Map(); // module -> Set of names copied into it
  for (const m of MODULES.slice(1)) {
    const mine = new Set();
    const work = fullNames.filter((n) => moduleOf.get(n) === m).map((n) => [n, false]);
    const seen = new Set();
    while (work.length) {
      const [f, copy] = work.pop();
      for (const c of graph.get(f) ?? []) {
        if (seen.has(c) || moduleOf.get(c) === m || !blocks.has(c) || (sizes.get(c) ?? Infinity) > CLONE_LIMIT) continue;
        // a copy's callee that lives in another feature module is copied too, or the copy would make this
        // module load that one first
        if (!clonable(c) && !(copy && moduleOf.get(c) !== MODULES[0])) continue;
        seen.add(c);
        mine.add(c);
        work.push([c, true]);
      }
    }
    cloned.set(m, mine);
  }
  const rename = (text, m) => text.replace(/\((call|return_call) \$([^\s)]+)/g, (all, op, n) => (cloned.get(m).has(n) ? `(${op} $${n}__${m}` : all));
  const out = [...lines];
  for (const [name, [a, b]] of blocks) {
    const m = moduleOf.get(name);
    if (m === MODULES[0] || !cloned.get(m).size) continue;
    for (let i = a; i < b; i++) out[i] = rename(lines[i], m);
  }
  const copies = [...cloned].flatMap(([m, set]) => [...set].map((c) => {
    const [a, b] = blocks.get(c);
    moduleOf.set(`${c}__${m}`, m);
    return rename(lines.slice(a, b).join('\n').replace(/^ \(func \$(\S+)/, ` (func $${c}__${m}`), m);
  }));
  const lastFunc = Math.max(...[...blocks.values()].map(([, b]) => b));
  out.splice(lastFunc, 0, ...copies);
  writeFileSync(join(WORK, 'full-cloned.wat'), out.join('\n'));
  run('wasm-as', [join(WORK, 'full-cloned.wat'), '-g', ...BINARYEN_FEATURES, '-o', SPLIT_INPUT]);
  report.clones = Object.fromEntries([...cloned].map(([m, set]) => [m, [...set].sort()]));
}

// ---- 4. the split, feature modules last first ------------------------------------------------------
const steps = [];
let current = SPLIT_INPUT;
for (let k = MODULES.length - 1; k >= 1; k--) {
  const lazy = MODULES[k];
  const names = definedFunctionNames(readFileSync(current));
  // only this module's functions leave: what stands in for the later modules' (the wrappers that call
  // their table slots) stays in the core, so each module needs only its own dependencies
  const keep = names.filter((n) => moduleOf.get(n) !== lazy);
  const keepFile = join(WORK, `keep-${lazy}.txt`);
  writeFileSync(keepFile, keep.join('\n') + '\n');
  const primary = join(WORK, `primary-${lazy}.wasm`), secondary = join(WORK, `${lazy}.wasm`);
  run('wasm-split', [current, ...BINARYEN_FEATURES, `--keep-funcs=@${keepFile}`, '-o1', primary, '-o2', secondary,
    '--import-namespace=primary', `--placeholder-namespace=placeholder:${lazy}`, '--export-prefix=%', '-g']);
  steps.push({ module: lazy, file: secondary, functions: names.length - keep.length, movedFunctions: names.filter((n) => moduleOf.get(n) === lazy) });
  current = primary;
}
const PRIMARY = current;
const lazy = steps.reverse(); // load order

// what each feature module calls into (through the core's exports for their functions): the glue loads
// those first
const moduleFunctions = new Map(lazy.map((s) => [s.module, new Set(s.movedFunctions)]));
const depsOf = new Map(lazy.map((s) => {
  const deps = new Set();
  for (const im of readImports(readSections(readFileSync(s.file)).find((x) => x.id === 2).body)) {
    if (im.module !== 'primary' || !im.field.startsWith('%')) continue;
    for (const [m, fns] of moduleFunctions) if (m !== s.module && fns.has(im.field.slice(1))) deps.add(m);
  }
  return [s.module, deps];
}));
const loadsFirst = (m) => {
  const out = new Set(), stack = [...depsOf.get(m)];
  while (stack.length) {
    const d = stack.pop();
    if (!out.has(d)) out.add(d), stack.push(...depsOf.get(d));
  }
  return out;
};

// Data: a symbol the core's link keeps stays in the core. Any other goes to the feature module whose
// link (with the modules it loads first) keeps it; when several do, to the one the others load first,
// else into each of them when it is read-only (the same bytes at the same address, whichever loads
// first), else it stays in the core.
const coreNeeds = prefixNeeds[0].data;
const ownNeeds = new Map(lazy.map((s) => [s.module, needs([MODULES[0], ...loadsFirst(s.module), s.module], `own-${s.module}`).data]));
const symbols = dataSymbols(fullMap);
const placement = new Map(); // id -> [modules]
for (const d of symbols) {
  if (coreNeeds.has(d.id)) continue;
  const users = lazy.map((s) => s.module).filter((m) => ownNeeds.get(m).has(d.id));
  const first = users.find((m) => users.every((o) => o === m || loadsFirst(o).has(m)));
  if (first) placement.set(d.id, [first]);
  else if (users.length && /:\(\.rodata/.test(d.id)) placement.set(d.id, users);
}
const image = (() => {
  const segs = readData(readSections(readFileSync(PRIMARY)).find((s) => s.id === 11).body);
  const img = new Uint8Array(Math.max(...segs.map((g) => g.offset + g.bytes.length)));
  for (const g of segs) img.set(g.bytes, g.offset);
  return img;
})();
/** Segments of the image for the symbols `take` selects, split at runs of 8 or more zero bytes. */
function segmentsOf(take) {
  const runs = [];
  for (const d of symbols.filter(take).sort((a, b) => a.start - b.start)) {
    const end = Math.min(d.end, image.length);
    if (d.start >= end) continue;
    const last = runs.at(-1);
    if (last && last.end === d.start) last.end = end;
    else runs.push({ start: d.start, end });
  }
  const segs = [];
  for (const r of runs) {
    let i = r.start;
    while (i < r.end) {
      while (i < r.end && image[i] === 0) i++;
      if (i >= r.end) break;
      const s = i;
      let last = i;
      for (let zeros = 0; i < r.end && zeros < 8; i++) {
        if (image[i] !== 0) last = i, (zeros = 0);
        else zeros++;
      }
      segs.push({ offset: s, bytes: image.subarray(s, last + 1) });
    }
  }
  return segs;
}
const coreData = segmentsOf((d) => !placement.has(d.id));
const moduleData = new Map(lazy.map((s) => [s.module, segmentsOf((d) => placement.get(d.id)?.includes(s.module))]));
report.movedData = Object.fromEntries(lazy.map((s) => {
  const sources = {};
  for (const d of symbols.filter((x) => placement.get(x.id)?.includes(s.module))) sources[d.id] = (sources[d.id] ?? 0) + d.end - d.start;
  return [s.module, { bytes: Object.values(sources).reduce((a, b) => a + b, 0), sources }];
}));

// ---- 5. the files ----------------------------------------------------------------------------------
const strip = (sections) => sections.filter((s) => !(s.id === 0 && ['name', 'producers', 'target_features'].includes(s.name)));
const withData = (sections, segs) => {
  const out = sections.filter((s) => s.id !== 11 && s.id !== 12);
  if (!segs.length) return out;
  const i = out.findIndex((s) => s.id === 10);
  out.splice(i + 1, 0, { id: 11, body: writeData(segs) });
  return out;
};
const psecs = readSections(readFileSync(PRIMARY));
const coreExports = readExports(psecs.find((s) => s.id === 7).body);
const missing = manifest.exports.map(([, n]) => n).filter((n) => !coreExports.some((e) => e.name === n));
if (missing.length) throw new Error(`link-wasm: not exported: ${missing.join(', ')}`);
// the table each feature module imports is the core's, which later splits made larger
const tableLimits = (() => {
  const t = psecs.find((x) => x.id === 4);
  if (!t || t.body[0] !== 1 || t.body[1] !== 0x70) throw new Error('link-wasm: the core must define one funcref table');
  return t.body.subarray(2);
})();
const outputs = [{ module: MODULES[0], file: 'procmotion.wasm', bytes: writeModule(strip(withData(psecs, coreData))), deps: [] }];
for (const s of lazy) {
  const secs = readSections(readFileSync(s.file)).map((x) => {
    if (x.id !== 2) return x;
    const fixed = readImports(x.body).map((im) => ({ ...im, desc: im.kind === 1 ? Buffer.concat([Buffer.from([1, 0x70]), Buffer.from(tableLimits)]) : im.desc }));
    return { id: 2, body: writeImports(fixed) };
  });
  outputs.push({ module: s.module, file: `procmotion-${s.module}.wasm`, bytes: writeModule(strip(withData(secs, moduleData.get(s.module)))), deps: [...depsOf.get(s.module)] });
}
report.modules = {};
for (const o of outputs) {
  writeFileSync(join(OUT, o.file), o.bytes);
  report.modules[o.module] = {
    file: o.file, bytes: o.bytes.length, gzip: gzipSync(o.bytes, { level: 9 }).length, deps: o.deps, exports: exportsOf([o.module]),
  };
}
for (const s of lazy) report.modules[s.module].functions = s.functions;

// procmotion-all.wasm, for an app that uses every module (createProcMotion({ load: 'all' })): the full
// link itself (the functions the split modules were cut from, with no copies and no placeholders, and
// the same memory image), without its names. One fetch and one compile instead of five.
{
  const fsecs = readSections(readFileSync(FULL));
  const toJs = (list) => list.filter((e) => !e.name.startsWith('%')).map((e) => e.name).sort();
  const fullExports = readExports(fsecs.find((s) => s.id === 7).body);
  if (JSON.stringify(toJs(fullExports)) !== JSON.stringify(toJs(coreExports))) {
    throw new Error('link-wasm: the full link does not export what the split core offers to JS');
  }
  const bytes = writeModule(strip(fsecs));
  writeFileSync(join(OUT, 'procmotion-all.wasm'), bytes);
  report.all = { file: 'procmotion-all.wasm', bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, exports: fullExports.length };
}

writeFileSync(join(OUT, 'wasm-modules.json'), JSON.stringify(report, null, 2) + '\n');
for (const module of [...MODULES, 'runtime']) {
  writeFileSync(join(OUT, module === MODULES[0] ? 'abi.js' : `abi-${module}.js`), abiModule(manifest, report, module));
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sizes = [...outputs, { file: report.all.file, bytes: { length: report.all.bytes }, module: null }]
  .map((o) => `${o.file} ${kb(o.bytes.length)} (${kb(o.module ? report.modules[o.module].gzip : report.all.gzip)} gzip)`);
console.log(`link-wasm: ${sizes.join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---- abi.js ------------------------------------------------------------------------------------------
// One file per module (abi.js for the core, abi-<module>.js) with the layouts and enums its glue reads,
// and abi-runtime.js with what the glue's shared runtime (js-glue/runtime.js) reads: the layouts tagged
// `runtime` in the table and the result names (abi.js holds them too, so it is the core's whole
// interface). Each layout twice: as one frozen object (VMD.BONES, for code that looks slots up by name)
// and as one constant per slot (VMD_BONES = 10), which bundlers inline where the glue reads it through
// `import * as A from './dist/abi.js'`. A constant that would take an object's name is named with _SLOT
// after it (HUMANOID_NAMING_SLOT). esbuild inlines only the constants a file declares before its other
// statements, so the constants come first.
function abiModule(m, rep, module) {
  // layout -> the name of its slots object keyed by JS parameter names
  const PARAMETER_LAYOUTS = { CATWALK_PARAM_BLOCK: 'CATWALK_PARAM_SLOTS' };
  const first = module === m.modules[0], runtime = module === 'runtime';
  const lines = [
    '// GENERATED by build-scripts/link-wasm.mjs from wasm/abi/pm_abi_table.h: do not edit.',
    runtime ? '// The wasm interface as every module\'s glue reads it (js-glue/runtime.js): slot offsets per layout'
      : `// The wasm interface of the ${module} module as data: slot offsets per layout (COUNT: the slots`,
    runtime ? '// (COUNT: the slots needed) and the result names.'
      : '// needed) and enum values' + (first ? '; what runtime.js reads (abi-runtime.js), the modules and what each needs first.' : '.'),
    '// Each layout as an object (VMD.BONES) and as constants (VMD_BONES) that bundlers inline.',
  ];
  const objectLines = [];
  const freeze = (o) => `/* @__PURE__ */ Object.freeze(${JSON.stringify(o)})`;
  const own = (x) => x.module === module || (first && x.module === 'runtime');
  const layouts = Object.entries(m.layouts).filter(([, l]) => own(l));
  const enums = Object.entries(m.enums).filter(([, e]) => own(e));
  const objects = new Set([...layouts, ...enums].map(([name]) => name)), flat = new Set();
  for (const [name, { entries }] of layouts) {
    const o = {};
    let at = 0;
    for (const [slot, n] of entries) o[slot] = at, (at += n);
    o.COUNT = at;
    objectLines.push(`export const ${name} = ${freeze(o)};`);
    const consts = Object.entries(o).map(([k, v]) => [`${name}_${k}`, v]).map(([n, v]) => [objects.has(n) ? `${n}_SLOT` : n, v]);
    for (const [n] of consts) {
      if (flat.has(n)) throw new Error(`link-wasm: two layouts make the constant ${n} (abi${first ? '' : `-${module}`}.js)`);
      flat.add(n);
    }
    lines.push(`export const ${consts.map(([n, v]) => `${n} = ${v}`).join(', ')};`);
    // a layout whose slots are the API's parameters (CATWALK_PARAM_BLOCK) also by their JS names (HIP_SWAY -> hipSway)
    if (PARAMETER_LAYOUTS[name]) {
      const camel = (k) => k.toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      const slots = Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'COUNT').map(([k, v]) => [camel(k), v]));
      objectLines.push(`export const ${PARAMETER_LAYOUTS[name]} = ${freeze(slots)};`);
    }
  }
  for (const [name, { entries }] of enums) objectLines.push(`export const ${name} = ${freeze(Object.fromEntries(entries))};`);
  // the result names by value: a list when the values run 0, 1, 2, ...
  const results = Object.fromEntries(m.results.map(([n, v]) => [v, n]));
  const list = m.results.every(([, v], i) => v === i) ? m.results.map(([n]) => n) : results;
  if (runtime || first) objectLines.push(`export const RESULTS = ${freeze(list)};`);
  if (first) {
    objectLines.push(`export const MODULES = ${freeze(m.modules)};`);
    const deps = Object.fromEntries(m.modules.map((mod) => [mod, rep.modules[mod]?.deps ?? []]));
    objectLines.push('/** The feature modules each module calls into (loaded before it). */');
    objectLines.push(`export const MODULE_DEPS = ${freeze(deps)};`);
  }
  lines.push(...objectLines);
  return lines.join('\n') + '\n';
}
