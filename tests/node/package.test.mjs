// The npm tarball and Node without a bundler: `npm pack` holds README, LICENSE, the types, the glue,
// the .wasm files and procmotion-sjis.bin (the Shift-JIS table for hosts without
// TextDecoder('shift_jis')), nothing else; a project with the unpacked tarball as
// node_modules/procmotion runs `import('procmotion')` in plain Node 20 (the "node" export condition),
// loads only the core until asked, and reports a feature method called before its module loaded;
// `import('procmotion/all')` loads every module from procmotion-all.wasm unless told otherwise. The
// lazy method list (constants.js FEATURES) names exactly what each feature module installs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { FEATURES, TRACE_LIMBS } from '../../js-glue/constants.js';
import { consumerProject, packPackage, wasmBuilt } from './support/package.mjs';

const SKIP = wasmBuilt() ? false : 'SKIP: js-glue/*.wasm not built (bash build-scripts/build.sh wasm)';

test('npm pack holds README, LICENSE, the types, the glue, the .wasm files and procmotion-sjis.bin', { skip: SKIP, timeout: 120_000 }, () => {
  const { files, size } = packPackage();
  for (const f of ['README.md', 'LICENSE', 'package.json', 'index.d.ts', 'babylon.d.ts', 'index.js', 'node.js', 'babylon.js',
    'all.js', 'all.d.ts', 'node-all.js', 'procmotion-all.wasm', 'procmotion.wasm', 'procmotion-motion.wasm', 'procmotion-keypoints.wasm', 'dist/abi.js', 'sjis-table.js', 'procmotion-sjis.bin']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.deepEqual(files.filter((f) => !/\.(js|d\.ts|wasm|md|json)$|^LICENSE$|^procmotion-sjis\.bin$/.test(f)), [], 'nothing but the package');
  console.log(`# tarball: ${files.length} files, ${(size / 1024).toFixed(0)} KB`);
});

test("Node 20 imports 'procmotion' from the tarball with no bundler", { skip: SKIP, timeout: 120_000 }, () => {
  const dir = consumerProject('node-consumer', {
    'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    'main.js': `const { createProcMotion } = await import('procmotion');
const pm = await createProcMotion();
const before = pm.modules;
let code = null;
try { pm.readPmx(new Uint8Array(8)); } catch (e) { code = e.code + ' ' + e.module; }
// the core alone: a walk on bone names; the standard figure's walk is landed, which needs motion
const named = pm.generateCatwalkVmd({}, 120, null, ['センター', '下半身', '上半身', '左足ＩＫ', '右足ＩＫ']).loopFrames;
let landing = null;
try { pm.generateCatwalkVmd({}, 120, null, null); } catch (e) { landing = e.code + ' ' + e.module; }
await pm.loadAsync('motion');
const walk = pm.generateCatwalkVmd({}, 120, null, null);
const bones = pm.readPmx(pm.mannequinPmx()).bones.length;
// a host without TextDecoder('shift_jis') (Node built with small ICU): the table from the package's file
const Real = globalThis.TextDecoder;
globalThis.TextDecoder = class extends Real { constructor(l, o) { if (/shift_jis/i.test(l)) throw new RangeError('not supported'); super(l, o); } };
const small = await createProcMotion();
globalThis.TextDecoder = Real;
const center = small.decodeShiftJis(Uint8Array.of(0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b));
// procmotion/all: load 'all' by default (the one file: none of the split core's '%' exports), an explicit load wins
const all = await import('procmotion/all');
const one = await all.createProcMotion(), chosen = await all.createProcMotion({ load: ['motion'] });
const split = (x) => Object.keys(x.mod.exports).some((k) => k.startsWith('%'));
const allEntry = { one: [one.modules.length, split(one)], chosen: [chosen.modules, split(chosen)], same: all.ProcMotionError === (await import('procmotion')).ProcMotionError };
console.log(JSON.stringify({ before, code, named, landing, landed: walk.report?.model, loop: walk.loopFrames, bones, after: pm.modules, table: [pm._shiftJisTable, small._shiftJisTable], center, allEntry }));
`,
  });
  const r = spawnSync(process.execPath, ['main.js'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.before, ['core']);
  assert.equal(out.code, 'PM_ERR_NOT_LOADED motion');
  assert.equal(out.landing, 'PM_ERR_NOT_LOADED motion', 'the standard walk without motion');
  assert.equal(out.named, 240);
  assert.equal(out.landed, 'mannequin');
  assert.ok(out.loop > 100 && out.bones > 20);
  assert.deepEqual(out.after, ['core', 'motion']);
  assert.deepEqual(out.table, ['TextDecoder', 'file'], "the Shift-JIS table from TextDecoder, else from the package's procmotion-sjis.bin");
  assert.equal(out.center, 'センター');
  assert.deepEqual(out.allEntry, { one: [5, false], chosen: [['core', 'motion'], true], same: true }, "procmotion/all: load 'all' by default, an explicit load wins");
});

// procmotion-all.wasm (createProcMotion({ load: 'all' })): from the tarball, with every other .wasm of the
// package removed, it loads alone; every module's methods work at once, loadAsync has nothing left to
// load, and the heap is back where it was after the calls. Bytes given as `wasm.all` do the same;
// a core given as bytes without `all` loads the split modules, as before.
test("procmotion-all.wasm loads alone from the tarball: load 'all' gives every module's methods at once", { skip: SKIP, timeout: 120_000 }, () => {
  const dir = consumerProject('node-consumer-all', {
    'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    'main.js': `import { readFileSync } from 'node:fs';
const { createProcMotion, FEATURE_MODULES } = await import('procmotion');
const pm = await createProcMotion({ load: 'all' });
const modules = pm.modules, heap = pm.heapInUse;
const run = (pm) => {
  const bones = pm.readPmx(pm.mannequinPmx()).bones.length;
  const ev = pm.createPoseEvaluator(pm.generateCatwalkVmd({}, 120, null, null).vmd, pm.mannequinPmx());
  const positions = ev.evaluate(10).positions.length;
  ev.dispose();
  const frames = pm.toKeypoints(pm.generateCatwalkVmd({}).vmd, { format: 'vmd' }).frameCount;
  const wav = pm.readWav(pm.writeWav(new Float32Array(800), 8000)).frames;
  const bpm = typeof pm.detectBeats(new Float32Array(8000 * 2), 8000).bpm;
  const vrm = pm.pmxToVrm(pm.mannequinPmx()).glb.length > 1000;
  const named = pm.generateCatwalkVmd({}, 120, null, ['センター', '下半身', '上半身', '左足ＩＫ', '右足ＩＫ']).loopFrames;
  return { bones, positions: positions > 0, frames: frames > 0, wav, bpm, vrm, named, sjis: pm.decodeShiftJis(pm.encodeShiftJis('センター')) };
};
const calls = run(pm);
const heapAfter = pm.heapInUse;
await pm.loadAsync(FEATURE_MODULES); // nothing to fetch: the split files are gone
const bytes = readFileSync(new URL('./node_modules/procmotion/procmotion-all.wasm', import.meta.url));
const given = await createProcMotion({ load: 'all', wasm: { all: bytes, motion: new URL('file:///nowhere/procmotion-motion.wasm') } });
await given.loadAsync('motion');
let split = null;
// bytes as the core (no wasm.all): the split path, which looks for procmotion-motion.wasm (removed)
try { await createProcMotion({ load: 'all', wasm: bytes }); } catch (e) { split = e.code + ' ' + e.module + ' ' + /procmotion-motion\\.wasm/.test(e.message); }
console.log(JSON.stringify({ modules, heap, heapAfter, calls, given: given.modules, givenCalls: run(given), table: pm._shiftJisTable, split }));
`,
  });
  const pkg = join(dir, 'node_modules/procmotion');
  const removed = readdirSync(pkg).filter((f) => f.endsWith('.wasm') && f !== 'procmotion-all.wasm');
  assert.deepEqual(removed.sort(), ['procmotion-beats.wasm', 'procmotion-keypoints.wasm', 'procmotion-motion.wasm', 'procmotion-vrm.wasm', 'procmotion.wasm']);
  for (const f of removed) rmSync(join(pkg, f));
  const r = spawnSync(process.execPath, ['main.js'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const every = ['core', ...Object.keys(FEATURES)];
  assert.deepEqual(out.modules, every);
  assert.deepEqual(out.given, every);
  assert.equal(out.heapAfter, out.heap, 'every call freed what it took');
  assert.equal(out.heap, 0);
  const calls = { bones: out.calls.bones, positions: true, frames: true, wav: 800, bpm: 'number', vrm: true, named: 240, sjis: 'センター' };
  assert.deepEqual(out.calls, calls);
  assert.deepEqual(out.givenCalls, calls);
  assert.ok(out.calls.bones > 20);
  assert.equal(out.table, 'TextDecoder');
  assert.equal(out.split, 'PM_ERR_WASM loader true', 'a core given as bytes, without wasm.all: the split modules');
});

// The one file's outputs are the split modules' (output-hashes.mjs --one-file checks every output; this
// a few of every module's, in one process).
test("load 'all' (procmotion-all.wasm) gives the split modules' outputs", { skip: SKIP, timeout: 60_000 }, async () => {
  // all.js registers procmotion-all.wasm (index.js alone, unbundled, would load the split modules)
  const { FEATURE_MODULES, createProcMotion } = await import('../../js-glue/all.js');
  const split = await createProcMotion({ load: FEATURE_MODULES }), one = await createProcMotion({ load: 'all' });
  const splitCore = (pm) => Object.keys(pm.mod.exports).some((k) => k.startsWith('%'));
  assert.ok(splitCore(split) && !splitCore(one), 'the split core, and the one file');
  const outputs = (pm) => {
    const pmx = pm.mannequinPmx();
    const walk = pm.generateCatwalkVmd({ uTurn: true }, 128, null, null);
    const kp = pm.toKeypoints(walk.vmd, { format: 'vmd' });
    const beats = pm.detectBeats(new Float32Array(8000 * 4).map((_, i) => (i % 4000 < 40 ? 0.9 : 0)), 8000);
    const ev = pm.createPoseEvaluator(walk.vmd, pmx);
    const pose = ev.evaluate(12.5).positions;
    ev.dispose();
    return [pmx, walk.vmd, JSON.stringify(walk.report), kp.points, pm.bakeGroove(null, pmx, null, 128).vmd, beats.beats,
      pm.pmxToVrm(pmx).glb, pm.encodeShiftJis('センター'), pose];
  };
  const a = outputs(split), b = outputs(one);
  a.forEach((x, i) => assert.deepEqual(b[i], x, `output ${i}`));
  assert.equal(one.heapInUse, 0);
  assert.equal(split.heapInUse, 0);
});

test('each feature module installs exactly the methods listed for it', { skip: SKIP }, async () => {
  for (const [module, names] of Object.entries(FEATURES)) {
    const { api } = await import(`../../js-glue/${module}.js`);
    const installed = Object.keys(Object.getOwnPropertyDescriptors(api)).filter((k) => !k.startsWith('_')).sort();
    assert.deepEqual(installed, [...names].sort(), `${module}.js`);
  }
});

// The constants the entry spells out (so that it does not load a feature module's abi file) are the
// generated ones; each layout's constants (VMD_BONES, which bundlers inline) equal its object's slots.
test('TRACE_LIMBS and the layout constants agree with the generated tables', async () => {
  const { LIMB } = await import('../../js-glue/dist/abi-motion.js');
  assert.deepEqual(TRACE_LIMBS, Object.keys(LIMB).sort((a, b) => LIMB[a] - LIMB[b]));
  for (const file of ['abi.js', 'abi-runtime.js', 'abi-motion.js', 'abi-keypoints.js']) {
    const abi = await import(`../../js-glue/dist/${file}`);
    let checked = 0;
    for (const [name, value] of Object.entries(abi)) {
      if (!value || typeof value !== 'object' || !('COUNT' in value)) continue;
      for (const [slot, at] of Object.entries(value)) {
        const constant = abi[`${name}_${slot}`];
        if (name === 'HUMANOID' && slot === 'NAMING') continue; // the flat name is the enum HUMANOID_NAMING's
        assert.equal(typeof constant, 'number', `${file} has ${name}_${slot}`);
        assert.equal(constant, at, `${file} ${name}_${slot}`);
        checked++;
      }
    }
    assert.ok(checked > 0, `${file} has layout constants`);
  }
  assert.equal(Object.isFrozen((await import('../../js-glue/dist/abi.js')).VMD), true);
});

// Each feature module loaded alone (with only the modules wasm-modules.json says it needs) runs its
// calls: the core's exports of a module reach it through that module's table slots, not through a
// wrapper left in another feature module (which would need that module loaded too).
test('each feature module works loaded alone, with only its dependencies', { skip: SKIP, timeout: 60_000 }, async () => {
  const { createProcMotion } = await import('../../js-glue/index.js');
  const { MODULE_DEPS } = await import('../../js-glue/dist/abi.js');
  const calls = {
    motion: (pm) => assert.ok(pm.readPmx(pm.mannequinPmx()).bones.length > 10),
    keypoints: (pm) => assert.ok(pm.toKeypoints(pm.generateCatwalkVmd({}).vmd, { format: 'vmd' }).frameCount > 0),
    beats: (pm) => {
      assert.equal(pm.readWav(pm.writeWav(new Float32Array(800), 8000)).frames, 800);
      assert.equal(typeof pm.detectBeats(new Float32Array(8000 * 2), 8000).bpm, 'number');
    },
    vrm: (pm) => assert.ok(pm.pmxToVrm(pm.mannequinPmx()).glb.length > 1000),
  };
  assert.deepEqual(Object.keys(calls).sort(), Object.keys(FEATURES).sort(), 'a call for every feature module');
  for (const [module, call] of Object.entries(calls)) {
    const pm = await createProcMotion({ load: [module] });
    assert.deepEqual(pm.modules, ['core', ...MODULE_DEPS[module], module], `${module}: what loaded`);
    call(pm);
  }
});
