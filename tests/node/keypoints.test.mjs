// Keypoints through the JS glue and the CLI: typed arrays out, every fixture clean, NDJSON and binary
// round trips, features, errors, no leaks; the committed generated files match their scripts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const haveFixtures = existsSync(FIXTURES);
const skipNoFixtures = haveFixtures ? false : 'SKIP: ../shared/fixtures not found beside the repo';
const fixture = (rel) => new Uint8Array(readFileSync(new URL(rel, FIXTURES)));
const SAMPLE = new Uint8Array(readFileSync(join(ROOT, 'tests/data/sample-wave-squat.bvh')));
const CLI = join(ROOT, 'build/native/procmotion');
const skipNoCli = existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built';

const pm = await createProcMotion({ load: FEATURE_MODULES });

/** Every coordinate in the normalised range and nothing non-finite. */
function assertClean(kp, what) {
  assert.equal(kp.stats.nanCount, 0, `${what}: NaN`);
  assert.equal(kp.stats.outOfRange, 0, `${what}: out of range`);
  for (let i = 0; i < kp.points.length; i++) {
    const v = kp.points[i];
    const lo = i % 3 === 2 ? -1 : 0;
    assert.ok(Number.isFinite(v) && v >= lo && v <= 1, `${what}: point value ${i} = ${v}`);
  }
  for (const v of kp.visibility) assert.ok(v >= 0 && v <= 1, `${what}: visibility ${v}`);
  for (const v of kp.angles) assert.ok(v >= -1 && v <= 1, `${what}: angle ${v}`);
}

test('toKeypoints on the synthetic BVH: 60 frames of 33 points and 10 named angles as typed arrays', () => {
  const kp = pm.toKeypoints(SAMPLE);
  assert.equal(kp.frameCount, 60);
  assert.equal(kp.fps, 30);
  assert.ok(kp.points instanceof Float32Array && kp.points.length === 60 * 33 * 3);
  assert.ok(kp.visibility instanceof Float32Array && kp.visibility.length === 60 * 33);
  assert.ok(kp.angles instanceof Float32Array && kp.angles.length === 60 * 10);
  assert.ok(kp.timestamps instanceof Float64Array);
  assert.equal(kp.timestamps[30], 1000);
  assert.deepEqual(kp.angleNames, ['shoulder_L', 'shoulder_R', 'elbow_L', 'elbow_R', 'hip_L', 'hip_R', 'knee_L', 'knee_R', 'neck', 'spine']);
  assert.equal(kp.pointNames.length, 33);
  assert.equal(kp.pointNames[0], 'nose');
  assert.equal(kp.pointNames[32], 'right_foot_index');
  assert.equal(kp.stats.format, 'bvh');
  assert.equal(kp.stats.family, 'cmu');
  assert.equal(kp.stats.legs, null);
  assert.equal(kp.visibility[11], 1);
  assert.equal(kp.visibility[0], 0.5);
  assertClean(kp, 'sample');
  // the knees bend over the squat
  assert.ok(kp.angles[30 * 10 + 6] > kp.angles[0 * 10 + 6] + 0.5);
});

test('every shared VMD, BVH, glTF and VRM fixture converts with 0 NaN and 0 out of range', { skip: skipNoFixtures }, () => {
  const files = ['vmd/mei_wait.vmd', 'vmd/mei_greeting.vmd', 'vmd/gene_stand.vmd', 'vmd/gene_02_laugh.vmd',
    'vmd/babylon_physics_toggle_test_yyb10th.vmd', 'vmd/mmt_test_model_test_motion.vmd', 'vmd/wavefile_camera.vmd',
    'bvh/cmu_131_01.bvh', 'vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm', 'vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm'];
  for (const f of files) assertClean(pm.toKeypoints(fixture(f)), f);
  const glb = fixture('gltf/RobotExpressive.glb');
  for (let a = 0; a < 14; a++) assertClean(pm.toKeypoints(glb, { format: 'glb', animation: a }), `robot ${a}`);
  const withModel = pm.toKeypoints(fixture('vmd/mei_greeting.vmd'), { format: 'vmd', model: fixture('pmx/yw_test_model/yw_test_model.pmx') });
  assertClean(withModel, 'mei_greeting on yw_test_model.pmx');
  assert.equal(withModel.stats.sourceJoints, 114);
  const vmd = pm.toKeypoints(fixture('vmd/mei_greeting.vmd'), { format: 'vmd', fps: 60 });
  assert.equal(vmd.fps, 30, 'VMD stays at 30 fps');
  assert.equal(vmd.stats.legs, 'ik');
  assert.ok(vmd.stats.ignoredBones > 0);
});

test('writeKeypoints: NDJSON and binary round-trip through toKeypoints within quantisation', () => {
  const kp = pm.toKeypoints(SAMPLE);
  const text = pm.writeKeypoints(kp);
  assert.equal(typeof text, 'string');
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 60);
  const first = JSON.parse(lines[1]);
  assert.equal(first.points.length, 33);
  assert.equal(first.points[0].length, 4);
  assert.equal(Object.keys(first.angles).length, 10);
  assert.ok(Math.abs(first.timestamp - 1000 / 30) < 1e-3);
  const back = pm.toKeypoints(text); // detected as NDJSON
  assert.equal(back.stats.format, 'ndjson');
  for (let i = 0; i < kp.points.length; i++) assert.ok(Math.abs(back.points[i] - kp.points[i]) <= 6e-7);
  const bin = pm.writeKeypoints(kp, { format: 'binary' });
  assert.ok(bin instanceof Uint8Array);
  assert.equal(bin.byteLength, 60 * 239);
  assert.equal(String.fromCharCode(bin[0], bin[1]), 'KP');
  const fromBin = pm.toKeypoints(bin);
  assert.equal(fromBin.stats.format, 'binary');
  for (let i = 0; i < kp.points.length; i++) assert.ok(Math.abs(fromBin.points[i] - kp.points[i]) <= 0.5 / 32767 + 1e-7);
  // binary -> NDJSON -> binary is exact
  const bin2 = pm.writeKeypoints(pm.toKeypoints(pm.writeKeypoints(fromBin)), { format: 'binary' });
  assert.deepEqual(bin2, bin);
});

test('keypointFeatures: frames x 109 with the angles last', () => {
  const kp = pm.toKeypoints(SAMPLE);
  const f = pm.keypointFeatures(kp);
  assert.ok(f instanceof Float32Array);
  assert.equal(f.length, 60 * 109);
  assert.ok(Math.abs(f[40 * 109 + 99 + 6] - kp.angles[40 * 10 + 6]) < 1e-6);
});

test('bad input and bad sequences throw ProcMotionError naming the problem', () => {
  assert.throws(() => pm.toKeypoints(new Uint8Array([1, 2, 3])), (e) => e instanceof ProcMotionError && /unrecognised/.test(e.message));
  assert.throws(() => pm.toKeypoints(SAMPLE, { format: 'x3d' }), /unknown format 'x3d'/);
  assert.throws(() => pm.toKeypoints(SAMPLE, { format: 'fbx' }), /not a binary FBX/);
  assert.throws(() => pm.toKeypoints(SAMPLE, { fps: -1 }), /fps/);
  assert.throws(() => pm.toKeypoints('HIERARCHY\nROOT a\n{\nOFFSET nan 0 0\n}\n'), /finite/);
  const kp = pm.toKeypoints(SAMPLE);
  const broken = { ...kp, points: kp.points.slice() };
  broken.points[5] = NaN;
  assert.throws(() => pm.writeKeypoints(broken), /frame 0/);
  assert.throws(() => pm.writeKeypoints(kp, { format: 'xml' }), /format must be 'ndjson' or 'binary', got 'xml'/);
  assert.throws(() => pm.writeKeypoints({ frameCount: 2, timestamps: [0], points: [], visibility: [] }), /timestamps/);
});

test('keypoint calls leave the wasm heap as they found it', () => {
  const before = pm.heapInUse;
  for (let i = 0; i < 20; i++) {
    const kp = pm.toKeypoints(SAMPLE);
    pm.writeKeypoints(kp);
    pm.writeKeypoints(kp, { format: 'binary' });
    pm.keypointFeatures(kp);
    assert.throws(() => pm.toKeypoints('{"format":"nope"}', { format: 'json' }), ProcMotionError);
  }
  assert.equal(pm.heapInUse, before);
});

test('procmotion keypoints writes NDJSON and binary and prints a summary', { skip: skipNoCli }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-kp-'));
  try {
    const out = join(dir, 'a.ndjson'), bin = join(dir, 'a.kpb');
    const r = spawnSync(CLI, ['keypoints', join(ROOT, 'tests/data/sample-wave-squat.bvh'), '-o', out, '--binary', bin], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /60 frames at 30 fps/);
    assert.match(r.stderr, /NaN: 0, out of range: 0, ignored bones: 0/);
    assert.equal(readFileSync(out, 'utf8').trimEnd().split('\n').length, 60);
    assert.equal(readFileSync(bin).byteLength, 60 * 239);
    // the CLI and the glue write the same NDJSON
    assert.equal(readFileSync(out, 'utf8'), pm.writeKeypoints(pm.toKeypoints(SAMPLE)));
    assert.equal(spawnSync(CLI, ['keypoints', out], { encoding: 'utf8' }).status, 2);
    const bad = spawnSync(CLI, ['keypoints', join(ROOT, 'README.md'), '-o', join(dir, 'x')], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unrecognised input/);
    const model = spawnSync(CLI, ['keypoints', out, '--model', join(ROOT, 'README.md'), '-o', join(dir, 'y')], { encoding: 'utf8' });
    assert.equal(model.status, 1);
    assert.match(model.stderr, /only used with a VMD/);
    if (haveFixtures) {
      const pmx = fileURLToPath(new URL('pmx/yw_test_model/yw_test_model.pmx', FIXTURES));
      const vmd = fileURLToPath(new URL('vmd/mei_greeting.vmd', FIXTURES));
      const m = spawnSync(CLI, ['keypoints', vmd, '--model', pmx, '-o', join(dir, 'm.ndjson')], { encoding: 'utf8' });
      assert.equal(m.status, 0, m.stderr);
      assert.match(m.stderr, /61 frames at 30 fps \(vmd, mmd naming, 114 joints.*legs by IK\)/);
    } else {
      console.log(`# ${skipNoFixtures}: procmotion keypoints --model not checked`);
    }
    // .dae without assimp on PATH: a readable error naming the package
    const noAssimp = spawnSync(CLI, ['keypoints', 'x.dae', '-o', join(dir, 'z')], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
    assert.equal(noAssimp.status, 1);
    assert.match(noAssimp.stderr, /apt-get install assimp-utils/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('procmotion keypoints reads a binary .fbx itself, with no assimp on PATH', { skip: skipNoCli }, () => {
  // a Blender export whose skeleton (Bone, Bone.001 ...) is no humanoid: it reaches the joint mapping,
  // which says it cannot find a human skeleton
  const fbx = fileURLToPath(new URL('../data/fbx/blender-huesitos.fbx', import.meta.url));
  const r = spawnSync(CLI, ['keypoints', fbx, '-o', '/dev/null'], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no known joint naming/);
  assert.doesNotMatch(r.stderr, /assimp/);
});

test('the committed sample BVH matches its script', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-gen-'));
  try {
    const bvh = join(dir, 's.bvh');
    assert.equal(spawnSync('node', [join(ROOT, 'tests/data/gen-sample-bvh.mjs'), bvh]).status, 0);
    assert.equal(readFileSync(bvh, 'utf8'), readFileSync(join(ROOT, 'tests/data/sample-wave-squat.bvh'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
