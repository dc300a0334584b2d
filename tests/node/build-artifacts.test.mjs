// The WebAssembly builds, as a host sees them. The Emscripten core (js-glue/procmotion.wasm) imports
// one function (memory growth) and the placeholders of the feature modules, and exports every
// function of wasm/abi/pm_abi_table.h by its name; each feature module (procmotion-<module>.wasm)
// imports only the core's exports; procmotion-all.wasm (every module in one file) is the full link
// with the same exports. The wasm32-wasi reactor instantiates with an EMPTY import object (the core
// uses libc only, no WASI calls) and exports exactly the table's functions too: nothing is exported
// that the table does not list. Both answer pm_abi_version with js-glue/package.json's version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REPORT = join(ROOT, 'build/wasm/wasm-modules.json');
const WASI = join(ROOT, 'build/wasi/procmotion-wasi.wasm');
const [major, minor, patch] = JSON.parse(readFileSync(join(ROOT, 'js-glue/package.json'), 'utf8'))
  .version.split('.').map(Number);
const VERSION = major * 10000 + minor * 100 + patch;

const report = () => {
  assert.ok(existsSync(REPORT), `${REPORT} missing: run bash build-scripts/build.sh wasm`);
  return JSON.parse(readFileSync(REPORT, 'utf8'));
};
const tableExports = (r) => Object.values(r.modules).flatMap((m) => m.exports).sort();
const abiNames = (module) => WebAssembly.Module.exports(module).map((e) => e.name).filter((n) => n.startsWith('pm_abi_')).sort();

test('procmotion.wasm exports the whole table and imports only memory growth and placeholders', async () => {
  const r = report();
  const module = await WebAssembly.compile(readFileSync(join(ROOT, 'js-glue', r.modules.core.file)));
  assert.deepEqual(abiNames(module), tableExports(r));
  const imports = WebAssembly.Module.imports(module);
  const other = imports.filter((i) => !i.module.startsWith('placeholder:'));
  assert.deepEqual(other.map((i) => `${i.module}.${i.name}`), ['env.emscripten_notify_memory_growth']);
  const lazy = Object.keys(r.modules).filter((m) => m !== 'core');
  assert.deepEqual([...new Set(imports.filter((i) => i.module.startsWith('placeholder:')).map((i) => i.module))].sort(),
    lazy.map((m) => `placeholder:${m}`).sort(), 'every feature module has placeholders in the core');
  for (const m of lazy) {
    const feature = await WebAssembly.compile(readFileSync(join(ROOT, 'js-glue', r.modules[m].file)));
    assert.deepEqual([...new Set(WebAssembly.Module.imports(feature).map((i) => i.module))], ['primary'], `${m} imports only the core`);
    assert.deepEqual(WebAssembly.Module.exports(feature), [], `${m} exports nothing: the core's exports reach it`);
  }
  console.log(`# ${Object.values(r.modules).map((m) => `${m.file} ${m.bytes} bytes (${m.gzip} gzip)`).join(', ')}`);
});

// The one file (createProcMotion({ load: 'all' })): the full link, with the exports the split core offers
// to JS, nothing else.
test('procmotion-all.wasm holds every module: the split core\'s exports to JS, one import, the full link\'s code and data', async () => {
  const r = report();
  assert.equal(r.all?.file, 'procmotion-all.wasm', 'wasm-modules.json records the one file');
  const bytes = readFileSync(join(ROOT, 'js-glue', r.all.file));
  const module = await WebAssembly.compile(bytes);
  assert.deepEqual(abiNames(module), tableExports(r));
  const core = await WebAssembly.compile(readFileSync(join(ROOT, 'js-glue', r.modules.core.file)));
  const names = (m) => WebAssembly.Module.exports(m).filter((e) => !e.name.startsWith('%')).map((e) => `${e.name}:${e.kind}`).sort();
  assert.deepEqual(names(module), names(core), 'the exports the split core offers to JS');
  assert.deepEqual(WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`), ['env.emscripten_notify_memory_growth']);
  for (const n of ['name', 'producers']) assert.deepEqual(WebAssembly.Module.customSections(module, n), [], `no ${n} section`);
  const { readSections, readData } = await import('../../build-scripts/wasm-binary.mjs');
  const section = (buf, id) => Buffer.from(readSections(buf).find((x) => x.id === id).body);
  const full = readFileSync(join(ROOT, 'build/wasm/link/full.wasm'));
  assert.ok(section(bytes, 10).equals(section(full, 10)), 'the code is the full link\'s');
  // the split set writes the full link's memory image: the core's segments and every feature module's
  const image = (segs) => {
    const img = new Uint8Array(Math.max(...segs.map((g) => g.offset + g.bytes.length)));
    for (const g of segs) img.set(g.bytes, g.offset);
    return Buffer.from(img);
  };
  const splitSegs = Object.values(r.modules).flatMap((m) => {
    const secs = readSections(readFileSync(join(ROOT, 'js-glue', m.file)));
    const d = secs.find((x) => x.id === 11);
    return d ? readData(d.body) : [];
  });
  assert.ok(image(splitSegs).equals(image(readData(section(full, 11)))), 'the split set\'s data is the full link\'s');
  const split = Object.values(r.modules).reduce((a, m) => a + m.gzip, 0);
  console.log(`# procmotion-all.wasm ${r.all.bytes} bytes (${r.all.gzip} gzip; the split modules ${split})`);
  assert.ok(r.all.gzip < split, 'smaller than the split modules together');
});

// What each module's code is, by function and source file (build-scripts/wasm-sizes.mjs, from the split's
// named modules and the full link's map).
const functionsOf = (module) => {
  const out = execFileSync(process.execPath, [join(ROOT, 'build-scripts/wasm-sizes.mjs'), '--module', module, '--functions', '--top', '100000'],
    { encoding: 'utf8' });
  return [...out.matchAll(/^\s+(\d+)\s+(\S+)\s+\((?:libprocmotion_core\.a\()?([^()]+)\)?\)$/gm)]
    .map(([, bytes, name, source]) => ({ bytes: Number(bytes), name, source }));
};

test('the core carries the unlanded catwalk only: the closing step (the mannequin, the rig analysis, the landing, the evaluator, IK) is motion\'s', () => {
  const core = functionsOf('core');
  assert.ok(core.some((f) => f.name === 'catwalk_generate'), 'the catwalk export is in the core');
  const closing = /^(landing|landing_json|rig|rig_json|pose|anim|ik_ccd|mannequin)\.c$/;
  // what the core keeps of those files: the walk's own reach and crouch helpers, the standard figure's
  // proportions it scales for a model named by bones only, and the few-byte wrappers the split leaves for
  // the feature modules' calls into motion
  const kept = core.filter((f) => closing.test(f.source));
  const walk = new Set(['pm_landing_leg_reach', 'pm_landing_reach_need', 'pm_landing_smooth_need', 'pm_mannequin_rest_position']);
  for (const f of kept) assert.ok(walk.has(f.name) || f.bytes <= 32, `${f.name} (${f.source}, ${f.bytes} bytes) is in the core`);
  assert.ok(kept.filter((f) => !walk.has(f.name)).reduce((a, f) => a + f.bytes, 0) < 1024, 'under 1 KB of the closing step\'s wrappers in the core');
  const motion = new Set(functionsOf('motion').map((f) => f.name));
  for (const name of ['pm_landing_close', 'pm_rig_analyze', 'pm_mannequin_skeleton', 'pmi_landing_report_json'])
    assert.ok(motion.has(name), `${name} is motion's`);
});

test('no module links libc\'s exp, log, log2 or pow: fdlibm\'s give the same bits on every target, without musl\'s tables', () => {
  const tabled = new Set(['exp', 'exp2', 'expf', 'exp2f', 'log', 'logf', 'log2', 'log2f', 'pow', 'powf']);
  for (const m of Object.keys(report().modules)) {
    const found = functionsOf(m).filter((f) => tabled.has(f.name) && f.source.startsWith('libc')).map((f) => f.name);
    assert.deepEqual(found, [], `the ${m} module links libc's ${found.join(', ')}: call pmi_exp, pmi_log, pmi_log2 or pmi_pow (fdlibm/fdlibm.h)`);
  }
});

test('procmotion-wasi.wasm instantiates with an empty import object and exports exactly the table', async () => {
  assert.ok(existsSync(WASI), `${WASI} missing: run bash build-scripts/build.sh wasi`);
  const bytes = readFileSync(WASI);
  const module = await WebAssembly.compile(bytes);
  assert.deepEqual(WebAssembly.Module.imports(module), [], 'the wasi build imports nothing');
  assert.deepEqual(abiNames(module), tableExports(report()), 'every PM_EXPORT function is in pm_abi_table.h and back');
  const { exports } = await WebAssembly.instantiate(module, {});
  assert.equal(typeof exports._initialize, 'function', 'a reactor module');
  exports._initialize();
  assert.equal(exports.pm_abi_version(), VERSION);
  const p = exports.pm_abi_alloc(64);
  assert.ok(p > 0);
  exports.pm_abi_free(p);
  console.log(`# procmotion-wasi.wasm: ${bytes.length} bytes, ${WebAssembly.Module.exports(module).length} exports`);
});
