// generateCatwalkVmd through the JS glue and the real wasm module: the compatibility signature and result,
// the three ways `state` carries parameters, BPM and beats, bones and morphs from name lists and from
// readPmx's skeleton, proportions, errors naming the parameter, and no wasm heap growth.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FEATURE_MODULES, CATWALK_PARAMETERS, createProcMotion, ProcMotionError } from '../../js-glue/index.js';

const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const skipNoFixtures = existsSync(FIXTURES) ? false : 'SKIP: ../shared/fixtures not found beside the repo';
const fixture = (rel) => new Uint8Array(readFileSync(new URL(rel, FIXTURES)));

const pm = await createProcMotion({ load: FEATURE_MODULES });

/** Keys of one bone of a readVmd result, in file order. */
function keysOf(vmd, name) {
  const b = vmd.bones.names.indexOf(name);
  const out = [];
  for (let i = 0; i < vmd.bones.count; i++) {
    if (vmd.bones.nameIndex[i] === b) {
      out.push({ frame: vmd.bones.frames[i], pos: [...vmd.bones.positions.subarray(3 * i, 3 * i + 3)],
                 rot: [...vmd.bones.rotations.subarray(4 * i, 4 * i + 4)] });
    }
  }
  return out;
}

test('generateCatwalkVmd returns the VMD and the ADR fields', () => {
  const r = pm.generateCatwalkVmd({}, null, null, null);
  assert.ok(r.vmd instanceof Uint8Array && r.vmd.length > 1000);
  for (const k of ['loopFrames', 'beatFrames', 'keyCount']) assert.equal(typeof r[k], 'number', k);
  assert.ok(Array.isArray(r.usedBones) && Array.isArray(r.missingBones));
  assert.equal(r.loopFrames, 240); // 120 BPM without music, 2beat, 8 steps of 30 frames
  assert.equal(r.beatFrames, 15);
  assert.deepEqual(r.missingBones, []);
  assert.ok(r.usedBones.includes('センター') && r.usedBones.includes('左足ＩＫ'));
  const vmd = pm.readVmd(r.vmd);
  assert.equal(vmd.modelName, 'Catwalk');
  assert.equal(vmd.bones.count, r.keyCount);
  // the catwalk's own channels are fitted; the legs the landing pre-poses (docs/landing.md) carry a key a frame
  const legs = new Set(['左足', '左ひざ', '左足首', '右足', '右ひざ', '右足首']);
  const own = vmd.bones.names.filter((n) => !legs.has(n));
  const ownKeys = own.reduce((sum, n) => sum + keysOf(vmd, n).length, 0);
  assert.ok(ownKeys < 241 * own.length / 3, 'fitted, not one key per frame');
  assert.ok(r.keyCount - ownKeys <= 6 * 241);
  // the plan and what MMD plays (measured on the built-in mannequin without a model)
  assert.ok(r.plan.ankles instanceof Float32Array && r.plan.ankles.length === 6 * 241);
  assert.ok(r.plan.contact instanceof Uint8Array && r.plan.contact.length === 2 * 241);
  assert.equal(r.report.model, 'mannequin');
  assert.ok(r.report.landed && r.report.maxError < 0.01, JSON.stringify(r.report));
  assert.deepEqual(Object.keys(r.report.limbs), ['left', 'right']);
  assert.equal(r.report.limbs.left.bone, '左足首');
  assert.equal(Math.max(...vmd.bones.frames), r.loopFrames);
  // the loop closes: first and last key of every bone carry the same values
  for (const name of vmd.bones.names) {
    const keys = keysOf(vmd, name);
    assert.equal(keys[0].frame, 0);
    assert.equal(keys.at(-1).frame, r.loopFrames);
    assert.deepEqual(keys.at(-1).pos, keys[0].pos, name);
    assert.deepEqual(keys.at(-1).rot, keys[0].rot, name);
  }
  // leg IK switched on at frame 0
  assert.equal(vmd.properties.count, 1);
  assert.equal(vmd.properties.frames[0], 0);
  assert.deepEqual(vmd.properties.ikNames, ['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ']);
  assert.ok(vmd.properties.ikEnabled.every((e) => e === 1));
});

test('state carries parameters nested, ADR-prefixed or flat, in that order of preference', () => {
  const nested = pm.generateCatwalkVmd({ catwalk: { hipSway: 0.9 }, catwalkHipSway: 0.1, hipSway: 0.2 }, 128, null, null);
  assert.equal(nested.params.hipSway, 0.9);
  const prefixed = pm.generateCatwalkVmd({ catwalkHipSway: 0.1, hipSway: 0.2, catwalkStepCadence: 'beat' }, 128, null, null);
  assert.equal(prefixed.params.hipSway, 0.1);
  assert.equal(prefixed.params.stepCadence, 'beat');
  const flat = pm.generateCatwalkVmd({ hipSway: 0.2, uTurn: true, armPose: 'posed', poseArmAngle: { shoulder: 50 } }, null, null, null);
  assert.equal(flat.params.hipSway, 0.2);
  assert.equal(flat.params.uTurn, true);
  assert.equal(flat.params.traverse, true);
  assert.equal(flat.params.armPose, 'posed');
  assert.equal(flat.params.poseArmAngle.shoulder, 50);
  assert.equal(flat.params.poseArmAngle.elbow, 30);
  // every parameter crosses to the core and comes back as used (tolerances clamped where out of range)
  const every = {
    style: 'casual', speed: 1.3, stepCadence: 'beat', armPose: 'posed', traverse: true, uTurn: false, traverseDistance: 50,
    hipSway: 0.8, stepHeight: 0.3, stride: 0.7, crossStep: 0.2, hipTwist: 0.9, pelvisDrop: 0.1, torsoTwist: -0.65,
    torsoSway: 0.35, lean: 0.25, headFollow: 0.4, toeOff: 0.8, heelStrike: 0.15, bob: 0.9, stanceKnee: 0.6, armSwing: 0.75,
    elbowBend: 0.25, poseArmAngle: [60, 45], blink: false, expression: 0.5, seed: 12345, positionTolerance: 0.02,
    rotationTolerance: 12,
  };
  const used = pm.generateCatwalkVmd(every, null, null, null).params;
  assert.deepEqual(used, { ...every, bpm: null, blink: 0, poseArmAngle: { shoulder: 60, elbow: 45 }, rotationTolerance: 10 });
  assert.equal(pm.generateCatwalkVmd({ poseArmAngle: [, 20] }, null, null, null).params.poseArmAngle.shoulder, 70);
  // everything the glue forwards is a parameter the core reads
  assert.ok(CATWALK_PARAMETERS.includes('hipSway') && CATWALK_PARAMETERS.length === 29);
});

test('BPM sets the beat; speed sets the tempo without music; tempos clamp, amounts out of range throw', () => {
  for (const [bpm, cadence, step] of [[60, 'beat', 30], [128, 'beat', 1800 / 128], [128, '2beat', 3600 / 128], [200, 'beat', 9]]) {
    const r = pm.generateCatwalkVmd({ stepCadence: cadence }, bpm, null, null);
    assert.equal(r.beatFrames, 1800 / bpm);
    assert.equal(r.stepFrames, step);
    assert.equal(r.steps % 8, 0);
    assert.equal(r.loopFrames, Math.round(r.steps * step));
    assert.ok(r.driftFramesPerMinute < 1, `${bpm}: drift ${r.driftFramesPerMinute}`);
  }
  assert.equal(pm.generateCatwalkVmd({ speed: 1.5 }, null, null, null).bpm, 180);
  assert.equal(pm.generateCatwalkVmd({ speed: 1.5 }, 100, null, null).bpm, 100, 'speed is ignored with a BPM');
  assert.equal(pm.generateCatwalkVmd({}, 999, null, null).bpm, 200);
  assert.throws(() => pm.generateCatwalkVmd({ hipTwist: -0.5 }, null, null, null),
    { name: 'ProcMotionError', message: 'catwalk: hipTwist must be in [0, 1], got -0.5' });
  assert.throws(() => pm.generateCatwalkVmd({ lean: -4 }, null, null, null), /lean must be in \[-1, 1\], got -4/);
  assert.throws(() => pm.generateCatwalkVmd({ style: 'swagger' }, null, null, null),
    /style must be 'runway' or 'feminine' or 'casual' or 'strut', got "swagger"/);
  assert.equal(pm.generateCatwalkVmd({}, 1, null, null).bpm, 60);
});

test('bad parameters throw ProcMotionError naming them', () => {
  const bad = [
    [{ hipSway: NaN }, 'hipSway'], [{ stepHeight: Infinity }, 'stepHeight'], [{ catwalk: { stride: '1' } }, 'stride'],
    [{ stepCadence: '3beat' }, 'stepCadence'], [{ armPose: 'wave' }, 'armPose'], [{ traverse: 1 }, 'traverse'],
    [{ poseArmAngle: { elbow: NaN } }, 'poseArmAngle.elbow'],
  ];
  for (const [state, name] of bad) {
    assert.throws(() => pm.generateCatwalkVmd(state, null, null, null), (e) => e instanceof ProcMotionError && e.message.includes(name), name);
  }
  assert.throws(() => pm.generateCatwalkVmd({}, NaN, null, null), /bpm/);
  // what the core's checks reject keeps the core's message (the parameters cross as a block, not JSON)
  const core = [
    [{ poseArmAngle: [] }, 'catwalk: poseArmAngle must be [shoulder, elbow] in degrees'],
    [{ poseArmAngle: [1, 2, 3] }, 'catwalk: poseArmAngle must be [shoulder, elbow] in degrees'],
    [{ poseArmAngle: { shoulder: 1, wrist: 2 } }, "catwalk: poseArmAngle has an unknown key 'wrist'"],
    [{ seed: -1 }, 'catwalk: seed must be a whole number in [0, 2^32)'],
    [{ seed: 2 ** 32 }, 'catwalk: seed must be a whole number in [0, 2^32)'],
  ];
  for (const [state, message] of core) {
    assert.throws(() => pm.generateCatwalkVmd(state, null, null, null),
      (e) => e instanceof ProcMotionError && e.message === message && e.code === 'PM_ERR_INVALID_ARGUMENT' && e.module === 'catwalk', message);
  }
  assert.throws(() => pm.generateCatwalkVmd({}, null, null, null, { skeleton: { positions: [1, 2] } }), ProcMotionError);
});

test('bones resolve from the model, missing ones are reported and skipped', () => {
  const bones = ['全ての親', 'センター', '下半身', '上半身', '首', '頭', '左腕', '右腕', '左足IK', '右足IK', '左つま先IK'];
  const r = pm.generateCatwalkVmd({}, 120, ['まばたき', 'にやり'], bones);
  assert.deepEqual(r.missingBones, ['グルーブ', '上半身2', '左肩', '右肩', '左ひじ', '右ひじ', '左手首', '右手首', '右つま先ＩＫ']);
  assert.ok(r.usedBones.includes('左足IK') && r.usedBones.includes('左つま先IK'));
  assert.equal(r.blinkMorph, 'まばたき');
  assert.equal(r.expressionMorph, 'にやり');
  const vmd = pm.readVmd(r.vmd);
  assert.ok(!vmd.bones.names.includes('グルーブ') && !vmd.bones.names.includes('全ての親'));
  assert.ok(vmd.bones.names.includes('左足IK'));
  assert.deepEqual(vmd.properties.ikNames, ['左足IK', '右足IK', '左つま先IK']);
  assert.ok(vmd.morphs.names.includes('まばたき'));
  assert.ok(r.morphKeyCount >= 2);
});

test('the skeleton scales the walk, from plain arrays or from readPmx', { skip: skipNoFixtures }, () => {
  const skeleton = pm.readPmx(fixture('pmx/yw_test_model/yw_test_model.pmx'));
  const fromPmx = pm.generateCatwalkVmd({}, null, null, null, { skeleton });
  assert.deepEqual(fromPmx.missingBones, []);
  assert.ok(Math.abs(fromPmx.legLength - 10.1736) < 1e-3, `leg ${fromPmx.legLength}`);
  assert.ok(Math.abs(fromPmx.stepLength - 0.75 * fromPmx.legLength) < 1e-6);
  // the same bones at twice the size: twice the stride, lift and leg
  const names = skeleton.bones.map((b) => b.name);
  const positions = skeleton.bones.map((b) => b.position.map((v) => 2 * v));
  const big = pm.generateCatwalkVmd({}, null, null, names, { skeleton: { positions } });
  assert.ok(Math.abs(big.legLength - 2 * fromPmx.legLength) < 1e-3);
  assert.ok(Math.abs(big.lift - 2 * fromPmx.lift) < 1e-3);
  // no skeleton: the standard ~20-unit figure
  assert.ok(Math.abs(pm.generateCatwalkVmd({}, null, null, names).legLength - 9.419) < 0.01);
});

test('traverse walks along -Z and back; in place stays put', () => {
  const centerZ = (r) => keysOf(pm.readVmd(r.vmd), 'センター').map((k) => k.pos[2]);
  const walk = pm.generateCatwalkVmd({ traverse: true }, 128, null, null);
  const z = centerZ(walk);
  assert.ok(Math.abs(Math.min(...z) + walk.traverseDistance) < 1e-3 && walk.traverseDistance > 10);
  assert.equal(z.at(-1), 0);
  const longer = pm.generateCatwalkVmd({ traverse: true, traverseDistance: 60 }, 128, null, null);
  assert.ok(Math.abs(longer.traverseDistance - 60) < 1e-6 && longer.steps > walk.steps);
  assert.ok(centerZ(pm.generateCatwalkVmd({}, 128, null, null)).every((v) => v === 0));
});

test('many calls leave the wasm heap where it was', () => {
  pm.generateCatwalkVmd({ uTurn: true }, 97, ['まばたき'], null);
  const before = pm.heapInUse;
  for (let i = 0; i < 30; i++) {
    pm.generateCatwalkVmd({ uTurn: i % 2 === 0, hipSway: i / 30 }, 60 + 4 * i, ['まばたき'], i % 3 ? null : ['センター', '左足ＩＫ']);
    assert.throws(() => pm.generateCatwalkVmd({ hipSway: NaN }, null, null, null), ProcMotionError);
  }
  assert.equal(pm.heapInUse, before);
});

test('the core alone: walks on bone names (and rest positions) equal the motion-loaded ones; a walk that lands needs motion', async () => {
  const core = await createProcMotion();
  assert.deepEqual(core.modules, ['core']);
  const mannequin = pm.readPmx(pm.mannequinPmx());
  const names = mannequin.bones.map((b) => b.name);
  const skeleton = { positions: mannequin.bones.map((b) => b.position), parents: mannequin.bones.map((b) => b.parent ?? -1) };
  const calls = [
    [{}, null, null, ['センター', '下半身', '上半身', '左足IK', '右足IK', '左つま先IK']],
    [{ uTurn: true, hipSway: 0.8 }, 128, ['まばたき', 'にやり'], names],
    [{ stepCadence: 'beat' }, { bpm: 100, offset: 0.25 }, null, names, { skeleton }],
    [{}, pm.beatGrid({ bpm: 120, offset: 0.1 }), ['まばたき'], null, { skeleton: { names, ...skeleton } }],
  ];
  for (const args of calls) {
    const alone = core.generateCatwalkVmd(...args);
    assert.equal(alone.report, null);
    assert.deepEqual(alone, pm.generateCatwalkVmd(...args), JSON.stringify(args.slice(0, 2)));
  }
  const before = core.heapInUse;
  const needsMotion = (fn) => assert.throws(fn, (e) => e instanceof ProcMotionError && e.code === 'PM_ERR_NOT_LOADED' &&
    e.module === 'motion' && e.message.includes("await pm.loadAsync('motion')") && /lands the walk/.test(e.message) &&
    /MMD-exact evaluator/.test(e.message));
  needsMotion(() => core.generateCatwalkVmd({}, 120, null, null)); // the standard figure, landed on the mannequin
  needsMotion(() => core.generateCatwalkVmd({ uTurn: true }, null, ['まばたき'], null)); // morphs but no bones: the same
  needsMotion(() => core.generateCatwalkVmd({}, null, null, null, { skeleton: pm.mannequinPmx() }));
  needsMotion(() => core.generateCatwalkVmd({}, null, null, null, { skeleton: mannequin }));
  assert.equal(core.heapInUse, before);
  // with motion loaded, the same calls land as on an instance that loaded everything
  await core.loadAsync('motion');
  for (const args of [[{}, 120, null, null], [{ uTurn: true }, null, ['まばたき'], null], [{}, null, null, null, { skeleton: mannequin }]]) {
    const landed = core.generateCatwalkVmd(...args);
    assert.ok(landed.report && landed.plan.ankles.length > 0);
    assert.deepEqual(landed, pm.generateCatwalkVmd(...args));
  }
});

const CLI = new URL('../../build/native/procmotion', import.meta.url);
const skipNoCli = existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built';

test('procmotion catwalk writes the VMD and prints its summary', { skip: skipNoCli }, async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const cli = fileURLToPath(CLI);
  const dir = mkdtempSync(join(tmpdir(), 'catwalk-'));
  try {
    const out = join(dir, 'walk.vmd');
    const r = spawnSync(cli, ['catwalk', '--bpm', '128', '--cadence', 'beat', '--uturn', '--hip-sway', '0.8', '-o', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.params.hipSway, 0.8);
    assert.equal(j.params.uTurn, true);
    assert.equal(j.bpm, 128);
    const vmd = pm.readVmd(new Uint8Array(readFileSync(out)));
    assert.equal(vmd.bones.count, j.keyCount);
    const styled = spawnSync(cli, ['catwalk', '--style', 'feminine', '--elbow', '0.7', '--torso-twist', '-0.4', '--head-follow', '0',
      '-o', out], { encoding: 'utf8' });
    assert.equal(styled.status, 0, styled.stderr);
    const sj = JSON.parse(styled.stdout).params;
    assert.deepEqual([sj.style, sj.hipSway, sj.elbowBend, sj.torsoTwist, sj.headFollow], ['feminine', 0.25, 0.7, -0.4, 0]);
    const outside = spawnSync(cli, ['catwalk', '--hip-twist', '-0.5', '-o', out], { encoding: 'utf8' });
    assert.equal(outside.status, 1);
    assert.match(outside.stderr, /hip_twist must be in \[0, 1\], got -0.5/);
    assert.equal(spawnSync(cli, ['catwalk', '-o', out, '--style', 'swagger']).status, 2);
    assert.match(spawnSync(cli, ['catwalk', '--help'], { encoding: 'utf8' }).stdout, /usage: procmotion catwalk/);
    assert.equal(spawnSync(cli, ['catwalk', '-o', out, '--wobble', '1']).status, 2);
    assert.equal(spawnSync(cli, ['catwalk', '-o', out, '--cadence', '3beat']).status, 2);
    assert.equal(spawnSync(cli, ['catwalk']).status, 2);
    if (!skipNoFixtures) {
      const m = spawnSync(cli, ['catwalk', '--model', fileURLToPath(new URL('pmx/yw_test_model/yw_test_model.pmx', FIXTURES)), '-o', out], { encoding: 'utf8' });
      assert.equal(m.status, 0, m.stderr);
      assert.ok(Math.abs(JSON.parse(m.stdout).legLength - 10.1736) < 1e-3);
      const bad = spawnSync(cli, ['catwalk', '--model', out, '-o', out], { encoding: 'utf8' });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /procmotion catwalk: /);
    } else {
      console.log(`# ${skipNoFixtures}: procmotion catwalk --model not checked`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
