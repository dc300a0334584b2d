#!/usr/bin/env node
// link-wasm.mjs: links the Emscripten build of the core into the wasm modules of the npm package.
//
//   node build-scripts/link-wasm.mjs --emcc /usr/bin/emcc --out build/wasm \
//        --objects abi_vmd.c.o ... --libs libprocmotion_core.a libpm_cjson.a
//
// CMake's Emscripten build runs it (target procmotion_wasm); build.sh copies what it writes into
// js-glue/. The modules and what goes where come from one table, wasm/abi/pm_abi_table.h:
//   1. The C preprocessor expands wasm/abi/pm_abi_manifest.json.c into JSON: the modules, every
//      export and its module, the slot layouts, the enums and the result names.
//   2. One Emscripten link of everything (-O3 run to convergence, emmalloc under wasm/abi/abi_heap.c,
//      standalone: the only import is emscripten_notify_memory_growth) with function names and the
//      linker's map.
//   3. For each lazy module, last first, a quick -O0 link of the modules before it names the
//      functions they need; Binaryen's wasm-split moves every other function of the module into the
//      lazy module's own .wasm, leaving a table slot (a placeholder import until it loads) in its
//      place. The split modules share the first one's memory, table and stack: nothing is duplicated
//      and no code changes (the code of each function is the one the full link optimised).
//   4. Data: the linker map gives every data symbol's address range, and merged string literals are
//      cut at their NULs. A range that only one lazy module's code refers to (by address constant,
//      or through a pointer stored in such data) moves into that module as an active data segment at
//      the same address; a range several lazy modules refer to moves into the one of them that the
//      others load first (their dependency); everything the first module's code refers to, or that
//      nothing refers to, stays.
//   5. The names of the exports the lazy modules import are shortened, the table's functions exported
//      to JS by their index in the table in base 36 (pm_abi_alloc is `0`: abi*.js hold the indexes as
//      constants named after the functions, js-glue/loader.js binds mod[index]), each file's functions
//      laid out in the order gzip compresses best and its code written through Binaryen's Stack IR
//      (build-scripts/wasm-layout.mjs: the same functions), the name and producers sections dropped, and
//      the files written: procmotion.wasm (core), procmotion-<module>.wasm, and abi.js (the interface
//      for js-glue, see js-glue/dist/abi.js) and wasm-modules.json (sizes, dependencies, what moved).
//   6. procmotion-all.wasm: the full link with the split set's data and (short) exports, laid out as in
//      5, for an app that uses every module (createProcMotion({ load: 'all' })).
// Needs emcc, wasm-split, wasm-dis, wasm-as and wasm-opt (Debian's emscripten and binaryen, build-scripts/setup.sh).
// PM_LINK_OPT='-Oz' (for experiments) replaces the full link's options (FULL_OPT);
// build-scripts/wasm-sizes.mjs reads what this leaves in <out>/link/ to show where the bytes are.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import {
  arMembers, definedFunctionNames, functionBodies, objectStringLiterals, readData, readExports, readImports, readSections, writeData, writeExports,
  writeImports, writeModule,
} from './wasm-binary.mjs';
import { BINARYEN_FEATURES, layOut } from './wasm-layout.mjs';

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

const run = (cmd, argv, options = {}) => {
  const r = spawnSync(cmd, argv, { encoding: options.encoding ?? 'utf8', maxBuffer: 1 << 29, ...options });
  if (r.status !== 0) {
    console.error(`link-wasm: ${cmd} ${argv.slice(0, 6).join(' ')} ... failed\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
};

// ---- 1. the interface ----------------------------------------------------------------------------
function readManifest(cc = EMCC) {
  const text = execFileSync(cc, ['-E', '-P', '-x', 'c', '-I', join(ROOT, 'wasm/abi'), join(ROOT, 'wasm/abi/pm_abi_manifest.json.c')],
    { encoding: 'utf8' });
  const raw = JSON.parse(text);
  const list = (a) => a.filter((x) => x !== null);
  // layouts and enums: { name: { module, entries } }
  const layouts = {}, enums = {};
  for (const [k, v] of Object.entries(raw.layouts)) if (k) layouts[k] = { module: v[0], entries: list(v.slice(1)) };
  for (const [k, v] of Object.entries(raw.enums)) if (k) enums[k] = { module: v[0], entries: list(v.slice(1)) };
  return { modules: list(raw.modules), exports: list(raw.exports), layouts, enums, results: list(raw.results) };
}
const manifest = readManifest();
const MODULES = manifest.modules;
// the name each function of the table is exported by to JS: its index in base 36
const SHORT = new Map(manifest.exports.map(([, name], i) => [name, i.toString(36)]));
if (SHORT.size > 36 * 36) throw new Error('link-wasm: more than 1296 exports need longer short names');
const exportsOf = (mods) => manifest.exports.filter(([m]) => mods.includes(m)).map(([, name]) => name);

// ---- 2. the full link ----------------------------------------------------------------------------
const LINK_FLAGS = [
  '-sSTANDALONE_WASM', '-sALLOW_MEMORY_GROWTH=1', '-sINITIAL_MEMORY=4194304', '-sTOTAL_STACK=1048576',
  '-sMALLOC=emmalloc', '-sABORTING_MALLOC=0', '-sFILESYSTEM=0', '--no-entry', '--profiling-funcs',
  // musl's sin/cos reduction of |x| >= 1.6e6 without its 2/pi table (wasm/src/fdlibm/rem_pio2_huge.c)
  '-Wl,--wrap=__rem_pio2_large',
  // the wasm features every browser babylon-mmd runs in has (Chrome 75, Firefox 79, Safari 15, Node 12.5; babylon-mmd's
  // own runtimes use them): memory.copy/fill for memcpy/memset and saturating float-to-int conversions, which
  // replace clang's range-checked sequences (the same results for every value C defines); CMakeLists.txt
  // compiles with them
  '-mbulk-memory', '-mnontrapping-fptoint', ...(process.env.PM_WASM_EXTRA_FLAGS ?? '').split(' ').filter(Boolean),
];
// the same features for binaryen's tools that rewrite the link (wasm-as, wasm-split, wasm-opt):
// BINARYEN_FEATURES, wasm-layout.mjs
function link(out, optLevel, exports, extra = []) {
  const list = JSON.stringify(exports.map((e) => `_${e}`));
  return run(EMCC, [...[optLevel].flat(), ...LINK_FLAGS, `-sEXPORTED_FUNCTIONS=${list}`, ...extra, ...OBJECTS, ...LIBS, '-o', out]);
}
const t0 = performance.now();
const FULL = join(WORK, 'full.wasm');
// Binaryen's -O3 pipeline run to convergence (wasm-opt --converge: again while the binary shrinks): the
// same functions (725) and the same inlining, 0.4 KB less code; procmotion-all.wasm -0.35 KB gzip, the
// split modules -0.22 KB in all, outputs equal, speed within the A/A noise (docs/benchmarks.md, size17g).
// Measured and not taken (docs/benchmarks.md, "size17g: the -Os link"): with what the timed loops call
// inlined at compile time (math/math_internal.h's pmi_fmin and pmi_vec3_*, PMI_INLINE), flexible
// inlining limited to 5 (--flexible-inline-max-function-size=5) is 1.2 KB (the one file) and 0.85 KB
// (the split modules) smaller and -Os 0.9 and 0.5 KB, with the same calls in every timed function, but
// keypoints on cmu_131_01.bvh 1.06x and the default catwalk 1.03x slower (-Os: 1.04, 1.08);
// wasm-opt -Os/-Oz/-O4 after the -O3 link shrinks the one file by 0.6 KB but the split modules grow by
// about 1 KB; --merge-similar-functions finds nothing.
// PM_LINK_OPT (space-separated emcc options) replaces FULL_OPT for experiments.
const FULL_OPT = ['-O3', '-sBINARYEN_EXTRA_PASSES=--converge'];
const mapText = link(FULL, process.env.PM_LINK_OPT?.split(' ') ?? FULL_OPT, exportsOf(MODULES), ['-Wl,--print-map']);
writeFileSync(join(WORK, 'full.map'), mapText);

// ---- 3. split, lazy modules last first ------------------------------------------------------------
const report = {};
function watOf(file) {
  return run('wasm-dis', [file]);
}

/** Direct calls per function (from the text of a module). */
function callGraph(wat) {
  const g = new Map();
  let cur = null;
  for (const line of wat.split('\n')) {
    const m = /^ \(func \$(\S+)/.exec(line);
    if (m) {
      cur = m[1];
      g.set(cur, new Set());
      continue;
    }
    if (/^ \(/.test(line)) cur = null;
    if (cur) for (const c of line.matchAll(/\((?:return_)?call \$([^\s)]+)/g)) g.get(cur).add(c[1]);
  }
  return g;
}

// Binaryen gives duplicate names a numeric suffix in link order, which differs between links.
const baseName = (n) => n.replace(/\.\d+$/, '');

/**
 * Which function of a link each name is: `object:name` from the linker map (its CODE entries are the
 * functions in index order, each with the object it came from). Binaryen names the k-th function of a
 * name (static functions of different files: rig_names.c's and timeline.c's prepare) `name.k` in that
 * order, so the same function can be `prepare` in one link and `prepare.1` in another, and the base
 * name alone would take one file's function for the other's (it kept timeline.c's prepare, and the
 * pose sampler it calls, in the core).
 */
function functionIdentities(map) {
  const ids = new Map();
  const start = map.search(/^\s+-\s+[0-9a-f]+\s+[0-9a-f]+ CODE$/m);
  if (start < 0) return ids;
  const body = map.slice(start).split('\n').slice(1);
  const count = new Map();
  for (const line of body) {
    if (/^\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+ [A-Za-z_.]+$/.test(line)) break; // the next output section
    const m = /^\s*-\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S+):\(([^)]+)\)\s*$/.exec(line);
    if (!m) continue;
    const k = count.get(m[2]) ?? 0;
    count.set(m[2], k + 1);
    ids.set(k ? `${m[2]}.${k}` : m[2], `${m[1]}:${m[2]}`);
  }
  return ids;
}
const identityIn = (ids) => (n) => ids.get(n) ?? baseName(n);

// Which module each function of the full link goes to: the first whose exports (with the modules
// before it) need it. A quick -O0 link of modules[0..k-1] names what they need; whatever a function
// kept there calls directly is kept too (a direct call must not become a placeholder).
const fullWat = watOf(FULL);
const graph = callGraph(fullWat);
const fullNames = definedFunctionNames(readFileSync(FULL));
const fullIdentity = identityIn(functionIdentities(mapText));
const moduleOf = new Map();
for (let k = MODULES.length - 1; k >= 1; k--) {
  const reach = join(WORK, `reach-${MODULES[k]}.wasm`);
  const reachIdentity = identityIn(functionIdentities(link(reach, '-O0', exportsOf(MODULES.slice(0, k)), ['-Wl,--print-map'])));
  const wanted = new Set(definedFunctionNames(readFileSync(reach)).map(reachIdentity));
  const keep = new Set(fullNames.filter((n) => wanted.has(fullIdentity(n))));
  const stack = [...keep];
  while (stack.length) {
    for (const c of graph.get(stack.pop()) ?? []) {
      if (!keep.has(c) && graph.has(c)) keep.add(c), stack.push(c);
    }
  }
  for (const n of fullNames) if (!keep.has(n)) moduleOf.set(n, moduleOf.get(n) ?? MODULES[k]);
}
for (const n of fullNames) if (!moduleOf.has(n)) moduleOf.set(n, MODULES[0]);

// A lazy module calls another module's functions through an import (and, for a later module's, the
// first module's export and a table slot), which engines neither inline nor call as fast as their own.
// The small computational leaves such calls reach in inner loops (the core's vector maths, libc's
// memcpy/memset/string compares, libm's sin/cos/...) get a copy of their own in each lazy module that
// calls them; anything else is called where it is.
const CLONE_LIMIT = 1024; // bytes of code
const LIBC_LEAVES = /^(mem|str|sinf?$|cosf?$|tanf?$|asinf?$|acosf?$|atan2?f?$|l?l?roundf?$|floorf?$|ceilf?$|__sin|__cos|__tan|__rem_pio2f?$|R$)/;
const clonable = (name) => {
  const id = fullIdentity(name);
  const src = id.includes(':') ? id.slice(0, id.lastIndexOf(':')) : '';
  return /\(math\.c\.o\)$/.test(src) || /\/abi_common\.c\.o$/.test(src) || /\/libc\.a\(qsort\.o\)$/.test(src) ||
    (/\/libc\.a\(/.test(src) && LIBC_LEAVES.test(baseName(name)));
};
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
  const clones = []; // [module, name]
  const cloned = new Map(); // module -> Set of names cloned into it
  for (const m of MODULES.slice(1)) {
    const mine = new Set(cloned.get(m));
    const work = fullNames.filter((n) => moduleOf.get(n) === m).map((n) => [n, false]);
    const seen = new Set();
    while (work.length) {
      const [f, copy] = work.pop();
      for (const c of graph.get(f) ?? []) {
        if (seen.has(c) || moduleOf.get(c) === m || !blocks.has(c) || (sizes.get(c) ?? Infinity) > CLONE_LIMIT) continue;
        // a copy's callee that lives in another lazy module is copied too, or the copy would make this
        // module load that one first (with bulk memory, Emscripten's __memcpy is called only by the
        // prebuilt libc's qsort and went to keypoints: beats and vrm then needed keypoints)
        if (!clonable(c) && !(copy && moduleOf.get(c) !== MODULES[0])) continue;
        seen.add(c);
        mine.add(c);
        work.push([c, true]); // its callees are this module's calls now
      }
    }
    cloned.set(m, mine);
    for (const c of mine) clones.push([m, c]);
  }
  const rename = (text, m) => text.replace(/\((call|return_call) \$([^\s)]+)/g, (all, op, n) => (cloned.get(m).has(n) ? `(${op} $${n}__${m}` : all));
  const out = [];
  lines.forEach((line, i) => {
    out.push(line);
  });
  // rewrite the calls of each lazy module's functions (and of the copies), then append the copies
  for (const [name, [a, b]] of blocks) {
    const m = moduleOf.get(name);
    if (m === MODULES[0] || !cloned.get(m).size) continue;
    for (let i = a; i < b; i++) out[i] = rename(lines[i], m);
  }
  const copies = clones.map(([m, c]) => {
    const [a, b] = blocks.get(c);
    const text = lines.slice(a, b).join('\n').replace(/^ \(func \$(\S+)/, ` (func $${c}__${m}`);
    moduleOf.set(`${c}__${m}`, m);
    return rename(text, m);
  });
  const lastFunc = Math.max(...[...blocks.values()].map(([, b]) => b));
  out.splice(lastFunc, 0, ...copies);
  writeFileSync(join(WORK, 'full-cloned.wat'), out.join('\n'));
  run('wasm-as', [join(WORK, 'full-cloned.wat'), '-g', ...BINARYEN_FEATURES, '-o', SPLIT_INPUT]);
  report.clones = Object.fromEntries([...cloned].map(([m, set]) => [m, [...set].sort()]));
}

// the split itself, lazy modules last first
const steps = [];
let current = SPLIT_INPUT;
for (let k = MODULES.length - 1; k >= 1; k--) {
  const lazy = MODULES[k];
  const names = definedFunctionNames(readFileSync(current));
  // only this module's functions leave: the later modules' were split off already, and what stands in
  // their place here (the export wrappers that call their table slots) stays in the first module, or
  // the core would reach a later module only through a wrapper in every module split after it
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

// ---- 4. data ---------------------------------------------------------------------------------------
/** Data units from the linker map: every input data section (symbol) with its address range. */
function mapUnits(text) {
  const units = [];
  for (const line of text.split('\n')) {
    const m = /^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+(\S.*:\((\.[^)]*)\))\s*$/.exec(line);
    if (!m) continue;
    const start = parseInt(m[1], 16), size = parseInt(m[2], 16);
    if (!size || /\(\.bss/.test(m[3])) continue;
    units.push({ start, end: start + size, source: m[3], strings: m[3].startsWith('<internal>') });
  }
  return units.sort((a, b) => a.start - b.start);
}

/** Every address constant and load/store offset in the function bodies of a module's text, each as
 * [value, the function's name]. */
function addressRefs(wat) {
  const refs = [];
  let inFunc = false, fn = '';
  for (const line of wat.split('\n')) {
    const f = /^ \(func \$(\S+)/.exec(line);
    if (f) inFunc = true, (fn = f[1]);
    else if (/^ \(/.test(line)) inFunc = false;
    if (!inFunc) continue;
    for (const m of line.matchAll(/\bi32\.const (-?\d+)|\boffset=(\d+)/g)) refs.push([Number(m[1] ?? m[2]) >>> 0, fn]);
  }
  return refs;
}

function splitData(primaryFile, secondaries, loadsFirst) {
  const psec = readSections(readFileSync(primaryFile));
  const dsec = psec.find((s) => s.id === 11);
  const segments = readData(dsec.body);
  // the memory image the first module starts with
  const top = Math.max(...segments.map((g) => g.offset + g.bytes.length));
  const image = new Uint8Array(top);
  for (const g of segments) image.set(g.bytes, g.offset);
  // units: map sections, merged strings cut at each NUL
  const units = [];
  for (const u of mapUnits(mapText)) {
    if (u.start >= top) continue;
    if (!u.strings) {
      units.push(u);
      continue;
    }
    let s = u.start;
    for (let a = u.start; a < Math.min(u.end, top); a++) {
      if (image[a] === 0) {
        units.push({ start: s, end: a + 1, source: u.source, strings: true });
        s = a + 1;
      }
    }
  }
  const lo = units[0].start, hi = units.at(-1).end;
  // The linker merges identical string literals and puts a literal that is the tail of another into
  // it, so a reference to a string may point inside a merged one. The addresses a reference can have
  // are where the objects' literals (with their NUL) sit; a constant elsewhere in the strings is a
  // number, not a reference.
  const stringRefs = new Set();
  const pools = mapUnits(mapText).filter((u) => u.strings && u.start < top);
  const literals = new Set();
  // every input of the link: our objects and archives, and the system libraries the map names
  const ourInputs = [...OBJECTS, ...LIBS];
  const inputs = new Set(ourInputs);
  for (const m of mapText.matchAll(/^\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S+?\.a)\(/gm)) inputs.add(m[1]);
  for (const file of inputs) {
    const buf = readFileSync(file);
    const members = file.endsWith('.a') ? arMembers(buf).map((m) => m.bytes) : [buf];
    for (const m of members) for (const l of objectStringLiterals(m)) literals.add(l.toString('latin1'));
  }
  for (const u of pools) {
    const text = Buffer.from(image.subarray(u.start, Math.min(u.end, top))).toString('latin1');
    for (const l of literals) {
      for (let k = text.indexOf(l + '\0'); k >= 0; k = text.indexOf(l + '\0', k + 1)) stringRefs.add(u.start + k);
    }
  }
  // binary search: units containing address a (a one-past-the-end pointer counts for its unit; a
  // string only where a literal starts)
  const at = (a) => {
    let l = 0, h = units.length;
    while (l < h) {
      const m = (l + h) >> 1;
      if (units[m].end < a) l = m + 1;
      else h = m;
    }
    const out = [];
    for (let i = l; i < units.length && units[i].start <= a; i++) {
      if (a <= units[i].end && (!units[i].strings || (stringRefs.has(a) && a < units[i].end))) out.push(i);
    }
    return out;
  };
  // pointers stored in data: every aligned word that points into the data (conservative), except in
  // tables known to hold only numbers (Shift-JIS; musl's math tables: ipio2 of __rem_pio2_large and the
  // exp, log, pow, ... *_data tables), and but for one case: our data (the objects and archives of this
  // link) holds no pointer to the system libraries' own data (libc's and libm's tables are reached from
  // their code), so a word of ours that falls inside such a unit is a number. (Both happened when the
  // Shift-JIS table left the npm build's data: the rig naming table's packed bytes and ipio2's numbers
  // read as addresses inside libm's exp, log and pow tables, and kept 12.6 KB of beats' data in the core.)
  const ours = units.map((u) => u.source.startsWith('<internal>') || ourInputs.some((f) => u.source.startsWith(`${f}(`) || u.source.startsWith(`${f}:`)));
  const edges = units.map((u, i) => {
    const e = new Set();
    if (u.strings || /sjis_table\.c\.o|libc\.a\((?:__rem_pio2_large|\w+_data)\.o\)/.test(u.source)) return e;
    const fromOurs = ours[i];
    for (let a = (u.start + 3) & ~3; a + 4 <= Math.min(u.end, top); a += 4) {
      const v = image[a] | (image[a + 1] << 8) | (image[a + 2] << 16) | (image[a + 3] << 24);
      if (v >>> 0 >= lo && v >>> 0 <= hi) for (const j of at(v >>> 0)) if (!fromOurs || units[j].strings || ours[j]) e.add(j);
    }
    return e;
  });
  // musl's math tables (libc.a(*_data.o): __log2_data, __exp_data, ...) are reached only from libm's
  // code, and never through a one-past-the-end pointer: a constant of another function that falls
  // inside one is a number, and one at its end points at what follows (qsort's pntz refers to the
  // table after __log2_data: once the beat tracker's log and pow left musl's, that copied __log2_data's
  // 2.2 KB into the keypoints and vrm modules).
  const libcFns = new Set([...mapText.matchAll(/libc\.a\([^)]*\.o\):\(([A-Za-z_]\w*)\)/g)].map((m) => m[1]));
  const mathTable = units.map((u) => /libc\.a\(\w+_data\.o\)/.test(u.source));
  const fromLibc = (fn) => libcFns.has(fn) || libcFns.has(fn.replace(/__[a-z]+$/, '')); // $log2, $__cos__keypoints
  const marked = (file) => {
    const seen = new Set();
    for (const [a, fn] of addressRefs(watOf(file))) {
      if (a >= lo && a <= hi) for (const i of at(a)) if (!mathTable[i] || (fromLibc(fn) && a < units[i].end)) seen.add(i);
    }
    const stack = [...seen];
    while (stack.length) for (const j of edges[stack.pop()]) if (!seen.has(j)) seen.add(j), stack.push(j);
    return seen;
  };
  const inPrimary = marked(primaryFile);
  const users = secondaries.map((s) => marked(s.file));
  // a unit the first module does not use goes to the feature module using it; when several do, to
  // the one of them that each of the others loads first (their dependency), else, read-only data,
  // into each of them (a segment writes the same bytes at the same address whichever loads first);
  // else it stays in the first module. dest: the modules (indices) whose segments hold the unit.
  const dest = units.map((u, i) => {
    if (inPrimary.has(i)) return [];
    const who = users.map((set, k) => (set.has(i) ? k : -1)).filter((k) => k >= 0);
    if (who.length <= 1) return who;
    const first = who.find((k) => who.every((o) => o === k || loadsFirst[o].has(k)));
    if (first !== undefined) return [first];
    return u.strings || /:\(\.rodata/.test(u.source) ? who : [];
  });
  // segments per module from the image, cut at runs of >= 8 zero bytes
  const segmentsFor = (k) => {
    const out = [];
    let cur = null;
    units.forEach((u, i) => {
      if (k < 0 ? dest[i].length : !dest[i].includes(k)) return;
      const bytes = image.subarray(u.start, Math.min(u.end, top));
      if (cur && cur.end === u.start) cur.parts.push(bytes), (cur.end = u.start + bytes.length);
      else out.push((cur = { start: u.start, end: u.start + bytes.length, parts: [bytes] }));
    });
    const segs = [];
    for (const run of out) {
      const b = Buffer.concat(run.parts.map((p) => Buffer.from(p)));
      let i = 0;
      while (i < b.length) {
        while (i < b.length && b[i] === 0) i++;
        if (i >= b.length) break;
        const s = i;
        let last = i, zeros = 0;
        for (; i < b.length; i++) {
          if (b[i] !== 0) last = i, (zeros = 0);
          else if (++zeros >= 8) break;
        }
        segs.push({ offset: run.start + s, bytes: b.subarray(s, last + 1) });
      }
    }
    return segs;
  };
  const moved = secondaries.map((s, k) => {
    const sources = new Map();
    units.forEach((u, i) => {
      if (dest[i].includes(k)) sources.set(u.source, (sources.get(u.source) ?? 0) + (u.end - u.start));
    });
    return { bytes: [...sources.values()].reduce((a, b) => a + b, 0), sources: Object.fromEntries(sources) };
  });
  return { primary: segmentsFor(-1), secondary: secondaries.map((s, k) => segmentsFor(k)), moved };
}

const lazy = steps.reverse(); // load order
// the lazy modules each one calls into (through the first module's exports for their functions): the
// glue loads those first
const moduleFunctions = new Map(lazy.map((s) => [s.module, new Set(s.movedFunctions)]));
const depsOf = lazy.map((s) => {
  const deps = new Set();
  for (const im of readImports(readSections(readFileSync(s.file)).find((x) => x.id === 2).body)) {
    if (im.module !== 'primary' || !im.field.startsWith('%')) continue;
    for (const [m, fns] of moduleFunctions) if (m !== s.module && fns.has(im.field.slice(1))) deps.add(m);
  }
  return deps;
});
// per lazy module (by index), the lazy modules loaded before it: its dependencies and theirs
const loadsFirst = lazy.map((s, k) => {
  const out = new Set(), stack = [...depsOf[k]];
  while (stack.length) {
    const m = stack.pop(), j = lazy.findIndex((x) => x.module === m);
    if (!out.has(j)) out.add(j), stack.push(...depsOf[j]);
  }
  return out;
});
const data = splitData(PRIMARY, lazy, loadsFirst);

// ---- 5. names, sections, files ---------------------------------------------------------------------
const strip = (sections) => sections.filter((s) => !(s.id === 0 && ['name', 'producers', 'target_features'].includes(s.name)));
const withData = (sections, segs) => {
  const out = sections.filter((s) => s.id !== 11 && s.id !== 12);
  if (!segs.length) return out;
  const i = out.findIndex((s) => s.id === 10);
  out.splice(i + 1, 0, { id: 11, body: writeData(segs) });
  return out;
};

let psecs = readSections(readFileSync(PRIMARY));
// short names for what the lazy modules import from the first one
const exps = readExports(psecs.find((s) => s.id === 7).body);
const rename = new Map();
exps.forEach((e) => {
  if (e.name.startsWith('%')) rename.set(e.name, `%${rename.size.toString(36)}`);
});
// and for the table's functions, which JS calls: each one's index in pm_abi_table.h in base 36
// (abi*.js gives the glue the index as pm_abi_<name>; js-glue/loader.js binds mod[index])
const shortNames = (list) => {
  for (const e of list) if (/^[0-9a-z]{1,2}$/.test(e.name)) throw new Error(`link-wasm: the export ${e.name} looks like a short name`);
  const out = list.map((e) => ({ ...e, name: rename.get(e.name) ?? SHORT.get(e.name) ?? e.name }));
  const missing = manifest.exports.filter(([, n]) => !list.some((e) => e.name === n)).map(([, n]) => n);
  if (missing.length) throw new Error(`link-wasm: not exported: ${missing.join(', ')}`);
  return out;
};
psecs = psecs.map((s) => (s.id === 7 ? { id: 7, body: writeExports(shortNames(exps)) } : s));
// every file's functions in the order gzip compresses best, its code through Stack IR (wasm-layout.mjs);
// the names go after the layout, which checks by them that every function reads back the same
const laidOut = (sections, tag) => writeModule(strip(readSections(layOut(writeModule(sections), { work: WORK, tag }))));
const primaryOut = laidOut(withData(psecs, data.primary), 'core');

// the table each lazy module imports is the first module's, which later splits made larger
const tableLimits = (() => {
  const t = psecs.find((x) => x.id === 4);
  if (!t || t.body[0] !== 1 || t.body[1] !== 0x70) throw new Error('link-wasm: the first module must define one funcref table');
  return t.body.subarray(2); // flags, min, max as the first module declares them
})();
const outputs = [{ module: MODULES[0], file: 'procmotion.wasm', bytes: primaryOut, deps: [] }];
lazy.forEach((s, k) => {
  let secs = readSections(readFileSync(s.file));
  const imports = readImports(secs.find((x) => x.id === 2).body);
  const deps = depsOf[k];
  const fixed = imports.map((im) => ({
    ...im,
    field: rename.get(im.field) ?? im.field,
    desc: im.kind === 1 ? Buffer.concat([Buffer.from([1, 0x70]), Buffer.from(tableLimits)]) : im.desc,
  }));
  secs = secs.map((x) => (x.id === 2 ? { id: 2, body: writeImports(fixed) } : x));
  outputs.push({ module: s.module, file: `procmotion-${s.module}.wasm`, bytes: laidOut(withData(secs, data.secondary[k]), s.module), deps: [...deps] });
});

Object.assign(report, { modules: {}, movedData: {} });
for (const o of outputs) {
  writeFileSync(join(OUT, o.file), o.bytes);
  report.modules[o.module] = {
    file: o.file, bytes: o.bytes.length, gzip: gzipSync(o.bytes, { level: 9 }).length, deps: o.deps, exports: exportsOf([o.module]),
  };
}
lazy.forEach((s, k) => {
  report.modules[s.module].functions = s.functions;
  report.movedData[s.module] = data.moved[k];
});
// ---- 6. the one file -------------------------------------------------------------------------------
// procmotion-all.wasm, for an app that uses every module (createProcMotion({ load: 'all' })): the full
// link itself (its functions as they are: the ones the split modules were cut from, no copies, no
// placeholders; laid out as the split files are), with names and producers stripped, the data the split set writes (the union of its
// segments: the same bytes at the same addresses, so the Shift-JIS table is zero storage the glue fills,
// as in the core) and the exports the split set offers to JS (the core's, but for the ones the feature
// modules import). One fetch and one compile instead of five, and no module boundary to pay for.
{
  const fsecs = readSections(readFileSync(FULL));
  const fullExports = readExports(fsecs.find((s) => s.id === 7).body);
  const toJs = (list) => list.filter((e) => !e.name.startsWith('%')).map((e) => e.name).sort();
  const coreExports = toJs(exps);
  if (JSON.stringify(toJs(fullExports)) !== JSON.stringify(coreExports)) {
    throw new Error('link-wasm: the full link does not export what the split core offers to JS');
  }
  // the split set's segments as one memory image (read-only data several modules hold is written by
  // each: the same bytes), cut where 1 KB or more of zeros lie between (smallest after gzip: one segment
  // today); the full link's own image is the same (recorded in wasm-modules.json)
  const imageOf = (list) => {
    const img = new Uint8Array(Math.max(...list.map((g) => g.offset + g.bytes.length)));
    for (const g of list) img.set(g.bytes, g.offset);
    return img;
  };
  const image = imageOf([...data.primary, ...data.secondary.flat()]);
  const segs = [];
  for (let i = 0; i < image.length;) {
    while (i < image.length && image[i] === 0) i++;
    if (i >= image.length) break;
    const start = i;
    let last = i;
    for (let zeros = 0; i < image.length && zeros < 1024; i++) {
      if (image[i] !== 0) last = i, (zeros = 0);
      else zeros++;
    }
    segs.push({ offset: start, bytes: image.subarray(start, last + 1) });
  }
  const fullImage = imageOf(readData(fsecs.find((s) => s.id === 11).body));
  const sameData = Buffer.from(fullImage).equals(Buffer.from(image));
  const named = fsecs.map((s) => (s.id === 7 ? { id: 7, body: writeExports(shortNames(fullExports)) } : s));
  const bytes = laidOut(withData(named, segs), 'all');
  writeFileSync(join(OUT, 'procmotion-all.wasm'), bytes);
  report.all = { file: 'procmotion-all.wasm', bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, exports: coreExports.length, sameDataAsFullLink: sameData };
  console.log(`link-wasm: procmotion-all.wasm ${(bytes.length / 1024).toFixed(0)} KB (${(report.all.gzip / 1024).toFixed(1)} KB gzip): every module in one file`);
}

writeFileSync(join(OUT, 'wasm-modules.json'), JSON.stringify(report, null, 2) + '\n');
for (const module of [...MODULES, 'runtime']) {
  writeFileSync(join(OUT, module === MODULES[0] ? 'abi.js' : `abi-${module}.js`), abiModule(manifest, report, module));
}
const sizes = outputs.map((o) => `${o.file} ${(o.bytes.length / 1024).toFixed(0)} KB (${(report.modules[o.module].gzip / 1024).toFixed(1)} KB gzip)`);
console.log(`link-wasm: ${sizes.join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---- abi.js ------------------------------------------------------------------------------------------
// One file per module (abi.js for the core, abi-<module>.js) with the layouts and enums its glue reads,
// and abi-runtime.js with what the glue's shared runtime (js-glue/runtime.js) reads: the layouts tagged
// `runtime` in the table and the result names; abi.js holds them too (its own copies, not a re-export),
// so it holds the core's whole interface. Apart, a bundler can keep abi.js in the entry's own chunk
// (runtime.js is in a chunk shared with the feature modules), where its constants are inlined.
// Each layout twice: as one frozen object (VMD.BONES, for code that looks slots up by name) and as one
// constant per slot (VMD_BONES = 10: the layout's name and the slot's joined by '_'), which bundlers
// inline where the glue reads it through a namespace import (`import * as A from './dist/abi.js'`,
// `A.VMD_BONES`), so that a bundle carries neither the slot names nor a layout object it does not use
// (every object is marked pure: unused, it is dropped). Enums (looked up by name) are objects only.
// A constant that would take an object's name (the slot HUMANOID.NAMING and the enum HUMANOID_NAMING)
// is named with _SLOT after it (HUMANOID_NAMING_SLOT), so that the glue need not carry the layout's
// object for it; two layouts that make one constant (A.B_C and A_B.C) stop the build.
// Every file also has the wasm functions' indexes (pm_abi_alloc = 0: the glue calls
// mod[A.pm_abi_alloc](...), the core exports the function as '0'), all of them in each file, so that
// each glue file reads them from the abi file it imports, in its own chunk.
// esbuild (0.28) inlines a file's constants only if the file re-exports nothing and only those declared
// before its first other statement (a pure Object.freeze included): the constants come first, then the
// objects.
function abiModule(m, rep, module) {
  // layout -> the name of its slots object keyed by JS parameter names (below)
  const PARAMETER_LAYOUTS = { CATWALK_PARAM_BLOCK: 'CATWALK_PARAM_SLOTS' };
  const first = module === m.modules[0], runtime = module === 'runtime';
  const lines = [
    '// GENERATED by build-scripts/link-wasm.mjs from wasm/abi/pm_abi_table.h: do not edit.',
    runtime ? '// The wasm interface as every module\'s glue reads it (js-glue/runtime.js): slot offsets per layout'
      : `// The wasm interface of the ${module} module as data: slot offsets per layout (COUNT: the slots`,
    runtime ? '// (COUNT: the slots needed) and the result names.'
      : '// needed) and enum values' + (first ? '; what runtime.js reads (abi-runtime.js), the modules and what each needs first.' : '.'),
    '// Each layout as an object (VMD.BONES) and as constants (VMD_BONES) that bundlers inline, then the',
    '// wasm functions by their index in the table (mod[pm_abi_alloc](...)).',
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
    // a layout whose slots are the API's parameters (CATWALK_PARAM_BLOCK) also by their JS names
    // (HIP_SWAY -> hipSway): the glue finds a slot by the name it holds anyway (CATWALK_PARAMETERS), so
    // that a bundle does not carry each name spelt twice (the UPPER_CASE object, unused, is dropped)
    if (PARAMETER_LAYOUTS[name]) {
      const camel = (k) => k.toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      const slots = Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'COUNT').map(([k, v]) => [camel(k), v]));
      objectLines.push(`export const ${PARAMETER_LAYOUTS[name]} = ${freeze(slots)};`);
    }
  }
  lines.push(`export const ${m.exports.map(([, n], i) => `${n} = ${i}`).join(', ')};`);
  for (const [name, { entries }] of enums) objectLines.push(`export const ${name} = ${freeze(Object.fromEntries(entries))};`);
  // the result names by value: a list when the values run 0, 1, 2, ... (they do: shorter, and read alike)
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
