#!/usr/bin/env node
// output-hashes.mjs: the sha-256 of what the package and the CLI produce, so that a change meant to
// keep every output (a refactoring, a size or speed step) can prove it did.
//
//   node build-scripts/output-hashes.mjs [--save FILE] [--check FILE] [--quick] [--one-file]
//
// Through the npm glue (js-glue, every feature module loaded: the split modules; --one-file:
// procmotion-all.wasm, procmotion/all's createProcMotion(), which must give the same hashes) on every
// model of the "every model" iteration (the zoo, the mannequin, the shared PMX fixtures;
// tests/node/support/zoo.mjs): readPmx, analyzeRig, mapHumanoid, the catwalk in three states (VMD, plan, report, info), keypoints of the
// U-turn walk (points, NDJSON, binary, features), the groove bake (VMD, report); on the mannequin and
// the fixtures the VRM conversion; on the shared VMD fixtures readVmd -> writeVmd (lossless and
// canonical), names, pose positions; a tracing timeline (bake, toJSON, fromJSON); beats of a
// generated click track; Shift-JIS encode/decode. Through the native CLI (build/native/procmotion,
// when built): catwalk, inspect, keypoints NDJSON, groove, pose JSON on the mannequin and a fixture.
// Prints one line per item and the total; --save writes { item: sha256 }, --check compares with a
// saved file and exits 1 naming every item that differs. --quick: the mannequin, two zoo models and
// the fixtures only.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// all.js: index.js with procmotion-all.wasm registered (createProcMotion defaults to load 'all' there)
import { FEATURE_MODULES, createProcMotion } from '../js-glue/all.js';
import { everyModel, zooAvailable } from '../tests/node/support/zoo.mjs';
import { FIXTURES } from '../tests/node/support/babylon.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : null;
};
const QUICK = args.includes('--quick');

const hashes = {};
/** Canonical bytes of any result: typed arrays by their bytes, objects as JSON with typed arrays expanded. */
function bytesOf(x) {
  if (x instanceof Uint8Array) return x;
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  if (typeof x === 'string') return Buffer.from(x, 'utf8');
  return Buffer.from(JSON.stringify(x, (k, v) => (ArrayBuffer.isView(v) ? Buffer.from(bytesOf(v)).toString('base64') : v)), 'utf8');
}
function put(name, ...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(bytesOf(p));
  hashes[name] = h.digest('hex');
}
/** Errors are outputs too: the message is hashed. */
function attempt(name, fn) {
  try {
    fn();
  } catch (e) {
    put(`${name} (error)`, String(e?.message ?? e));
  }
}

const pm = await createProcMotion({ load: args.includes('--one-file') ? 'all' : FEATURE_MODULES });
console.error(`output-hashes: through ${args.includes('--one-file') ? 'procmotion-all.wasm' : 'the split modules'}`);

let models = everyModel(pm);
if (QUICK) models = models.filter((m, i) => m.kind !== 'zoo' || i < 2);
if (!zooAvailable()) console.error('output-hashes: WARNING: the zoo is not built (bash build-scripts/build.sh native writes build/native/zoo): its models are not hashed');
if (!existsSync(FIXTURES)) console.error(`output-hashes: WARNING: ${FIXTURES} not found: the fixtures are not hashed`);
console.error(`output-hashes: ${models.length} models`);
for (const m of models) {
  const bytes = m.bytes();
  const id = `${m.kind}:${m.id}`;
  attempt(id, () => {
    const skeleton = pm.readPmx(bytes);
    put(`${id} readPmx`, skeleton);
    put(`${id} analyzeRig`, pm.analyzeRig(skeleton));
    put(`${id} mapHumanoid`, pm.mapHumanoid(bytes));
    for (const state of [{}, { traverse: true }, { uTurn: true, stepCadence: 'beat' }]) {
      const key = `${id} catwalk ${JSON.stringify(state)}`;
      attempt(key, () => {
        const r = pm.generateCatwalkVmd(state, 128, null, null, { skeleton });
        const { vmd, ...rest } = r;
        put(key, vmd, rest);
        if (!state.uTurn) return;
        attempt(`${id} keypoints`, () => {
          const kp = pm.toKeypoints(vmd, { format: 'vmd', model: bytes });
          put(`${id} keypoints`, kp.points, pm.writeKeypoints(kp), pm.writeKeypoints(kp, { format: 'binary' }), pm.keypointFeatures(kp));
        });
      });
    }
    attempt(`${id} groove`, () => {
      const { vmd, report } = pm.bakeGroove(null, bytes, null, 128);
      put(`${id} groove`, vmd, report);
    });
    if (m.kind !== 'zoo') attempt(`${id} vrm`, () => {
      const { glb, report } = pm.pmxToVrm(bytes);
      put(`${id} vrm`, glb, report);
    });
  });
}

// the default catwalk (no model), with and without a BPM
put('catwalk default', pm.generateCatwalkVmd().vmd);
put('catwalk default 100 BPM', pm.generateCatwalkVmd({}, 100).vmd);

// catwalk parameters: every parameter given, the forms of poseArmAngle, zeros, clamps, odd numbers and
// bad values (the error's message, code and module are the output)
{
  const every = {
    speed: 1.3, stepCadence: 'beat', armPose: 'posed', traverse: true, uTurn: false, traverseDistance: 50,
    hipSway: 0.8, stepHeight: 0.3, stride: 0.7, crossStep: 0.2, hipTwist: 0.9, pelvisDrop: 0.1, torsoTwist: 0.65,
    torsoSway: 0.35, lean: 0.25, headStabilize: 0.4, toeOff: 0.8, heelStrike: 0.15, bob: 0.9, stanceKnee: 0.6,
    armSwing: 0.75, poseArmAngle: [60, 45], blink: false, expression: 0.5, seed: 12345, positionTolerance: 0.02,
    rotationTolerance: 0.5,
  };
  const cases = [
    [every, null], [every, 128], [{ ...every, stepCadence: '2beat', armPose: 'swing', uTurn: true, blink: true }, 90],
    [{ poseArmAngle: 55 }, null], [{ poseArmAngle: [55] }, null], [{ poseArmAngle: { elbow: 10 } }, null],
    [{ poseArmAngle: { shoulder: 45, elbow: null } }, null], [{ poseArmAngle: {} }, null], [{ blink: 0.3 }, 128],
    [{ speed: 0, traverseDistance: 0, positionTolerance: 0, rotationTolerance: 0, hipSway: 0, seed: 0 }, 0],
    [{ lean: -0, hipSway: -0, speed: -0, traverseDistance: -0 }, -0], [{ seed: 4294967295 }, null],
    [{ hipSway: 1e300, speed: -5, traverseDistance: 1e40, stride: -1e-320, lean: -1e39, rotationTolerance: 5e-324 }, 1e39],
    [{ hipSway: 0.1 + 0.2, stride: 1 / 3, lean: -Math.PI / 10, speed: Math.SQRT2 }, 127.3],
    [{ catwalk: { hipSway: 0.9, stride: null }, catwalkStride: 0.2, stride: 0.4, catwalkUTurn: true }, 100],
    [{ traverse: false, uTurn: true, armPose: null, unknownThing: 3 }, 200],
    // rejected
    [{ hipSway: NaN }, null], [{ stepHeight: Infinity }, null], [{ catwalk: { stride: '1' } }, null],
    [{ stepCadence: '3beat' }, null], [{ armPose: 'wave' }, null], [{ armPose: 1 }, null], [{ traverse: 1 }, null],
    [{ uTurn: 'yes' }, null], [{ blink: 'yes' }, null], [{ poseArmAngle: [] }, null], [{ poseArmAngle: [1, 2, 3] }, null],
    [{ poseArmAngle: { foo: 1 } }, null], [{ poseArmAngle: { shoulder: 1, wrist: 2 } }, null],
    [{ poseArmAngle: { shoulder: NaN } }, null], [{ poseArmAngle: { foo: 1, elbow: -Infinity } }, null],
    [{ poseArmAngle: [NaN] }, null], [{ poseArmAngle: [1, null] }, null], [{ poseArmAngle: 'x' }, null],
    [{ poseArmAngle: true }, null], [{ seed: -1 }, null], [{ seed: 1.5 }, null], [{ seed: 2 ** 32 }, null],
    [{ seed: NaN }, null], [{}, NaN], [{}, Infinity], [{}, '120'], ['x', null], [{ speed: 1n }, null],
    [{ hipSway: NaN, stepCadence: 'x' }, null], [{ stepCadence: 'x', hipSway: NaN }, null],
  ];
  for (const [state, bpm] of cases) {
    const key = `catwalk params ${JSON.stringify(state, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : v))} ${String(bpm)}`;
    try {
      const { vmd, ...rest } = pm.generateCatwalkVmd(state, bpm, null, null);
      put(key, vmd, rest);
    } catch (e) {
      put(`${key} (error)`, `${e?.name} ${e?.code} ${e?.module} ${String(e?.message ?? e)}`);
    }
  }
}

// VMD fixtures: lossless and canonical round trips, names, pose positions on the fixture model
const vmdDir = join(FIXTURES, 'vmd');
const yw = join(FIXTURES, 'pmx/yw_test_model/yw_test_model.pmx');
if (existsSync(vmdDir)) {
  const fixtureVmds = ['mei_wait.vmd', 'gene_02_laugh.vmd', 'babylon_physics_toggle_test_yyb10th.vmd'];
  for (const f of fixtureVmds) {
    const p = join(vmdDir, f);
    if (!existsSync(p)) continue;
    const b = new Uint8Array(readFileSync(p));
    attempt(`vmd ${f}`, () => {
      const v = pm.readVmd(b);
      put(`vmd ${f} write`, pm.writeVmd(v), pm.writeVmd(v, { canonical: true }));
      put(`vmd ${f} names`, v.bones.names ?? [], v.morphs?.names ?? []);
      if (existsSync(yw)) {
        const ev = pm.createPoseEvaluator(b, pm.readPmx(new Uint8Array(readFileSync(yw))));
        put(`vmd ${f} pose`, ev.positions(0, QUICK ? 30 : 300, 1));
        ev.dispose();
      }
    });
  }
}

// tracing
attempt('tracing', () => {
  const tl = pm.createTimeline(pm.readPmx(pm.mannequinPmx()), { bpm: 100 });
  const root = tl.rootPosition('leftHand');
  for (const p of [[0.5, -2, -1], [1.2, -1, -1.5], [1.5, 0.5, -1]]) tl.addControlPoint('leftHand', [root[0] + p[0], root[1] + p[1], root[2] + p[2]], 0, 'curve');
  tl.generateKeyframes('leftHand', { count: 3, startBeat: 0, beatStep: 1 });
  tl.generateKeyframes('leftHand', { count: 2, startBeat: 4, beatStep: 2, mode: 'line', points: [[-1, -3, -1], [1, -3.5, -1.5]] });
  const json = tl.toJSON();
  const baked = tl.bake(100);
  const { vmd, ...rest } = baked;
  put('tracing bake', vmd, rest);
  put('tracing json', json);
  const again = pm.timelineFromJSON(JSON.stringify(json), pm.readPmx(pm.mannequinPmx()));
  put('tracing fromJSON', again.toJSON(), again.bake(100).vmd);
  again.dispose();
  tl.dispose();
});

// beats of a generated click track (120 BPM, first beat 0.25 s, an accent every 4 beats)
attempt('beats', () => {
  const rate = 22050, seconds = QUICK ? 8 : 20;
  const s = new Float32Array(rate * seconds);
  for (let k = 0; 0.25 + k * 0.5 < seconds; k++) {
    const at = Math.round((0.25 + k * 0.5) * rate), amp = k % 4 ? 0.5 : 0.9;
    for (let i = 0; i < 2000 && at + i < s.length; i++) s[at + i] += amp * Math.exp(-i / 300) * Math.sin(i * (k % 4 ? 0.3 : 0.12));
  }
  put('beats', pm.detectBeats(s, rate));
});

// Shift-JIS
const text = '右足ＩＫ左ひざセンターグルーブ上半身2ｱｲｳ①㈱髙﨑～－';
attempt('sjis', () => put('sjis', pm.encodeShiftJis(text), pm.decodeShiftJis(pm.encodeShiftJis(text))));
attempt('sjis unmapped', () => pm.encodeShiftJis('〜'));

// the native CLI
const cli = join(ROOT, 'build/native/procmotion');
if (existsSync(cli)) {
  const tmp = mkdtempSync(join(tmpdir(), 'pm-hashes-'));
  const run = (name, argv, outFile) => {
    attempt(`cli ${name}`, () => {
      const out = execFileSync(cli, argv, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      put(`cli ${name}`, out.toString('latin1').split(tmp).join('TMP'), outFile && existsSync(outFile) ? readFileSync(outFile) : '');
    });
  };
  const man = join(tmp, 'mannequin.pmx');
  execFileSync(cli, ['mannequin', '-o', man], { stdio: 'ignore' });
  run('mannequin', ['inspect', man]);
  run('catwalk', ['catwalk', '-o', join(tmp, 'c.vmd')], join(tmp, 'c.vmd'));
  run('catwalk model', ['catwalk', '--model', man, '--bpm', '128', '-o', join(tmp, 'm.vmd')], join(tmp, 'm.vmd'));
  run('keypoints', ['keypoints', join(tmp, 'm.vmd'), '--model', man, '-o', join(tmp, 'k.ndjson')], join(tmp, 'k.ndjson'));
  run('groove', ['groove', '--model', man, '--bpm', '128', '-o', join(tmp, 'g.vmd')], join(tmp, 'g.vmd'));
  run('pose', ['pose', '--model', man, '--vmd', join(tmp, 'm.vmd'), '--frames', '0:60:6']);
  if (existsSync(yw)) run('inspect fixture', ['inspect', yw]);
  if (existsSync(join(vmdDir, 'mei_wait.vmd'))) run('inspect vmd', ['inspect', join(vmdDir, 'mei_wait.vmd')]);
  rmSync(tmp, { recursive: true, force: true });
}

const names = Object.keys(hashes).sort();
const total = createHash('sha256').update(names.map((n) => `${n} ${hashes[n]}`).join('\n')).digest('hex');
for (const n of names) console.log(`${hashes[n].slice(0, 16)}  ${n}`);
console.log(`${names.length} items, total ${total}`);
const save = arg('--save');
if (save) writeFileSync(save, `${JSON.stringify(hashes, null, 1)}\n`);
const check = arg('--check');
if (check) {
  const base = JSON.parse(readFileSync(check, 'utf8'));
  const all = [...new Set([...Object.keys(base), ...names])].sort();
  const bad = all.filter((n) => base[n] !== hashes[n]);
  for (const n of bad) console.log(`DIFFERS: ${n} (${base[n] ? base[n].slice(0, 16) : 'absent'} -> ${hashes[n] ? hashes[n].slice(0, 16) : 'absent'})`);
  console.log(bad.length ? `${bad.length} of ${all.length} items differ from ${check}` : `all ${all.length} items equal ${check}`);
  process.exit(bad.length ? 1 : 0);
}
