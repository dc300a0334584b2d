// pm.analyzeRig and `procmotion rig`: the same analysis from bytes, from a skeleton object and from the
// CLI, and its MMD figures (reach, rest offsets and errors, floor) confirmed by babylon-mmd's own
// runtime playing VMDs that key the leg IK bones on the mannequin, both shared PMX fixtures and every
// model of the test zoo (docs/zoo.md), whose built-in figures the analysis must also read back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { boneIndex, createMmdScene, disposeMmdScene, evaluateWorldPositions, fixturesAvailable, readFixture } from './support/babylon.mjs';
import { createPlayer } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const mannequin = pm.mannequinPmx();
const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (v) => Math.hypot(v[0], v[1], v[2]);

/** A VMD with one key per bone at frame 0: { name: [x, y, z] } translations, identity rotations. */
function vmdWithOffsets(offsets) {
  const names = Object.keys(offsets), k = names.length;
  const interpolations = new Uint8Array(64 * k);
  for (let i = 0; i < k; i++) {
    const row = [20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107];
    for (let r = 0; r < 4; r++) for (let c = 0; c < 16; c++) interpolations[64 * i + 16 * r + c] = c + r < 16 ? row[c + r] : 0;
  }
  return pm.writeVmd({
    bones: {
      count: k, names, nameIndex: Uint32Array.from(names.keys()), frames: new Uint32Array(k),
      positions: Float32Array.from(names.flatMap((n) => offsets[n])), rotations: Float32Array.from(names.flatMap(() => [0, 0, 0, 1])),
      interpolations,
    },
  });
}

test('analyzeRig: bytes and a skeleton object give the same analysis; roles, chains, legs of the mannequin', () => {
  const before = pm.heapInUse;
  const rig = pm.analyzeRig(mannequin);
  assert.deepEqual(pm.analyzeRig(pm.readPmx(mannequin)), rig);
  assert.deepEqual(pm.analyzeRig(mannequin.buffer.slice(mannequin.byteOffset, mannequin.byteOffset + mannequin.byteLength)), rig);
  assert.equal(pm.heapInUse, before);
  assert.equal(rig.naming, 'mmd');
  assert.equal(rig.roles.leftLegIk, '左足ＩＫ');
  assert.equal(rig.roles.rightToeIk, '右つま先ＩＫ');
  assert.equal(rig.humanoid.leftUpperLeg, '左足');
  assert.equal(rig.humanoid.upperChest, null);
  assert.deepEqual(rig.missing, []);
  assert.deepEqual(rig.chains.map((c) => [c.ik, c.kind, c.side, c.parentRole]), [
    ['左足ＩＫ', 'leg', 'left', 'root'], ['左つま先ＩＫ', 'toe', 'left', 'leftLegIk'],
    ['右足ＩＫ', 'leg', 'right', 'root'], ['右つま先ＩＫ', 'toe', 'right', 'rightLegIk']]);
  const l = rig.legs.left;
  assert.equal(l.ik, '左足ＩＫ');
  assert.ok(l.kneeJoint.limited && Math.abs(l.kneeJoint.restBendDeg - 19.467) < 0.01);
  assert.ok(l.reach.max < l.reach.rest && l.reach.rest < l.length);
  assert.ok(Math.abs(rig.scale - 1) < 1e-6 && Math.abs(rig.floorHeight - 0.033) < 1e-6);
  assert.ok(rig.arms.left.length > 5 && rig.arms.right.ik === null);
});

test('analyzeRig: a skeleton without グルーブ or 上半身2, renamed to VRoid names, with 足IK親', () => {
  const sk = pm.readPmx(mannequin);
  const drop = new Set(['グルーブ', '上半身2']);
  const keep = sk.bones.map((b) => !drop.has(b.name));
  const index = [];
  let n = 0;
  keep.forEach((k, i) => { index[i] = k ? n++ : -1; });
  const up = (i) => { while (i >= 0 && !keep[i]) i = sk.bones[i].parent; return i < 0 ? -1 : index[i]; };
  const vroid = { 左腕: 'J_Bip_L_UpperArm', 左ひじ: 'J_Bip_L_LowerArm', 左手首: 'J_Bip_L_Hand', 左足: 'J_Bip_L_UpperLeg', 左ひざ: 'J_Bip_L_LowerLeg', 左足首: 'J_Bip_L_Foot' };
  const bones = sk.bones.filter((b, i) => keep[i]).map((b) => {
    const out = { ...b, name: vroid[b.name] ?? b.name, parent: up(b.parent) };
    delete out.nameEn;
    if (b.ik) out.ik = { ...b.ik, target: index[b.ik.target], links: b.ik.links.map((k) => ({ ...k, bone: index[k.bone] })) };
    if (b.append) out.append = { ...b.append, parent: index[b.append.parent] };
    return out;
  });
  const ikp = { name: '左足IK親', position: [0.874, 0, 0], parent: 0 };
  bones.push(ikp);
  bones[bones.findIndex((b) => b.name === '左足ＩＫ')].parent = bones.length - 1;
  const rig = pm.analyzeRig({ bones, morphNames: [] });
  assert.deepEqual(rig.missing, ['groove', 'upperBody2']);
  assert.equal(rig.roles.leftKnee, 'J_Bip_L_LowerLeg');
  assert.equal(rig.roleNamings.leftKnee, 'vroid');
  assert.equal(rig.legs.left.knee, 'J_Bip_L_LowerLeg'); // the bone, beside the joint's figures
  assert.equal(rig.legs.left.kneeJoint === undefined, false);
  const leftIk = rig.chains.find((c) => c.ik === '左足ＩＫ');
  assert.equal(leftIk.parentRole, 'leftLegIkParent');
  assert.deepEqual(leftIk.parents, ['左足IK親', '全ての親']);
  // the figures do not depend on the names
  const ref = pm.analyzeRig(mannequin);
  assert.deepEqual(rig.legs.left.reach, ref.legs.left.reach);
});

test('analyzeRig: bad input is a ProcMotionError naming what is wrong, and nothing leaks', () => {
  const before = pm.heapInUse;
  assert.throws(() => pm.analyzeRig(42), (e) => e instanceof ProcMotionError && /analyzeRig: expected a skeleton object or PMX\/PMD bytes/.test(e.message));
  assert.throws(() => pm.analyzeRig(new Uint8Array([1, 2, 3])), /not a PMX or PMD file/);
  assert.throws(() => pm.analyzeRig({ bones: [{ name: 'a', position: [0, 0, 0], parent: 5 }] }), /parent/);
  const empty = pm.analyzeRig({ bones: [{ name: 'foo', position: [0, 1, 0], parent: -1 }] });
  assert.deepEqual(empty.roles, {});
  assert.equal(empty.legs.left, null);
  assert.equal(pm.heapInUse, before);
});

test('procmotion rig prints the analysis pm.analyzeRig returns', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-rig-'));
  const file = join(dir, 'm.pmx');
  writeFileSync(file, mannequin);
  const r = spawnSync(CLI, ['rig', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const cli = JSON.parse(r.stdout);
  assert.equal(cli.file, file);
  delete cli.file;
  const js = pm.analyzeRig(mannequin);
  // the same keys and names; numbers agree (native and wasm libm may differ in the last digit)
  const same = (a, b, path) => {
    if (typeof a === 'number') return assert.ok(Math.abs(a - b) < 1e-5, `${path}: ${a} vs ${b}`);
    if (a === null || typeof a !== 'object') return assert.equal(a, b, path);
    assert.deepEqual(Object.keys(a), Object.keys(b), path);
    for (const k of Object.keys(a)) same(a[k], b[k], `${path}.${k}`);
  };
  same(cli, js, 'rig');
  // a skeleton JSON works too
  const json = join(dir, 'm.json');
  writeFileSync(json, JSON.stringify(pm.readPmx(mannequin)));
  const r2 = spawnSync(CLI, ['rig', json], { encoding: 'utf8' });
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(JSON.parse(r2.stdout).roles.center, 'センター');
  const bad = spawnSync(CLI, ['rig', join(dir, 'missing.pmx')], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /cannot read/);
  assert.equal(spawnSync(CLI, ['rig'], { encoding: 'utf8' }).status, 1);
});

test('babylon-mmd confirms the figures: reach.max, a reachable target, the rest error and the floor', { skip: SKIP }, async () => {
  const models = { mannequin, yw: readFixture('pmx/yw_test_model/yw_test_model.pmx'), mmt: readFixture('pmx/mmt_test_model.pmx') };
  for (const [name, bytes] of Object.entries(models)) {
    const rig = pm.analyzeRig(bytes);
    const sk = pm.readPmx(bytes);
    const pos = (b) => sk.bones.find((x) => x.name === b).position;
    const legs = [rig.legs.left, rig.legs.right];
    // frame 0: far below the hips (stretched); frame 1 of a second motion: 0.3 inside reach.max
    const far = {}, inside = {};
    for (const l of legs) {
      const hip = pos(l.hip), ik = pos(l.ik);
      far[l.ik] = sub([hip[0], hip[1] - 2 * l.length, hip[2]], ik);
      inside[l.ik] = sub([hip[0], hip[1] - (l.reach.max - 0.3), hip[2] - 0.2], ik);
    }
    const ctx = await createMmdScene(bytes);
    try {
      const at = (p, n) => { const i = boneIndex(ctx, n); return [p[3 * i], p[3 * i + 1], p[3 * i + 2]]; };
      const [stretched] = await evaluateWorldPositions(ctx, vmdWithOffsets(far), [0]);
      const [reached] = await evaluateWorldPositions(ctx, vmdWithOffsets(inside), [0]);
      const [rest] = await evaluateWorldPositions(ctx, vmdWithOffsets({ センター: [0, 0, 0] }), [0]);
      for (const l of legs) {
        const d = len(sub(at(stretched, l.ankle), at(stretched, l.hip)));
        assert.ok(Math.abs(d - l.reach.max) < 1e-3, `${name} ${l.hip}: babylon-mmd stretches the leg to ${d}, reach.max ${l.reach.max}`);
        const goal = [pos(l.ik)[0] + inside[l.ik][0], pos(l.ik)[1] + inside[l.ik][1], pos(l.ik)[2] + inside[l.ik][2]];
        assert.ok(len(sub(at(reached, l.ankle), goal)) < 0.01, `${name}: a target 0.3 inside reach.max is missed`);
        const chain = rig.chains.find((c) => c.ik === l.ik);
        const err = len(sub(at(rest, l.ankle), at(rest, l.ik)));
        assert.ok(Math.abs(err - chain.restError) < 1e-3, `${name}: rest error ${err} vs ${chain.restError}`);
      }
      const lowest = Math.min(...legs.flatMap((l) => [l.ankle, l.toe].filter(Boolean).map((b) => at(rest, b)[1])));
      assert.ok(Math.abs(lowest - rig.floorHeight) < 1e-3, `${name}: floor ${lowest} vs ${rig.floorHeight}`);
    } finally {
      disposeMmdScene(ctx);
    }
  }
});

test('every zoo model: the analysis reads back what the model is built to be, and babylon-mmd plays its reach', { skip: zooSkip() }, async () => {
  const models = everyModel(pm);
  assert.ok(models.length >= 30, `${models.length} models`);
  const rows = [];
  for (const m of models) {
    const bytes = m.bytes();
    const rig = pm.analyzeRig(bytes);
    const legs = [rig.legs.left, rig.legs.right];
    assert.ok(legs.every(Boolean), `${m.id}: both legs`);
    const e = m.expect;
    if (e) {
      legs.forEach((l, s) => {
        assert.ok(Math.abs(l.kneeJoint.restBendDeg - e.kneeBendDeg[s]) < 1e-3, `${m.id}: knee ${l.kneeJoint.restBendDeg} vs ${e.kneeBendDeg[s]}`);
        assert.ok(len(sub(l.ikOffset, e.ikOffset[s])) < 1e-4, `${m.id}: IK offset ${l.ikOffset} vs ${e.ikOffset[s]}`);
        assert.ok(Math.abs(l.reach.rest - e.leg[s]) < 1e-4, `${m.id}: hip-ankle ${l.reach.rest} vs ${e.leg[s]}`);
        assert.ok(Math.abs(l.ankleHeight - e.ankleY[s]) < 1e-3 || e.ikOffset[s][1] !== 0, `${m.id}: ankle ${l.ankleHeight} vs ${e.ankleY[s]}`);
      });
      assert.ok(Math.abs(rig.hipHeight - (e.hipY[0] + e.hipY[1]) / 2) < 1e-4, `${m.id}: hips`);
      for (const ik of e.ikBones) assert.ok(rig.chains.some((c) => c.ik === ik), `${m.id}: chain ${ik}`);
      const roles = new Set(Object.values(rig.roles));
      for (const b of e.present) assert.ok(roles.has(b) || rig.chains.some((c) => c.ik === b), `${m.id}: ${b} plays no role`);
      for (const b of e.absent) assert.ok(!roles.has(b), `${m.id}: ${b} should be absent`);
      if (m.format === 'pmd') {
        // PMD knees under babylon-mmd: limited by name to X -180..-0.5 read as radians
        legs.forEach((l) => assert.ok(l.kneeJoint.bendMinDeg - l.kneeJoint.restBendDeg > 27, `${m.id}: PMD knee opens to ${l.kneeJoint.bendMinDeg}`));
      }
    }
    // babylon-mmd: the legs stretched by IK bones far below the hips stop at reach.max; the rest pose
    // leaves each ankle restError from its IK bone
    const sk = pm.readPmx(bytes);
    const pos = (b) => sk.bones.find((x) => x.name === b).position;
    const far = {};
    for (const l of legs) {
      const hip = pos(l.hip);
      far[l.ik] = sub([hip[0], hip[1] - 2 * l.length, hip[2]], pos(l.ik));
    }
    const player = await createPlayer(bytes);
    try {
      const names = [...new Set(legs.flatMap((l) => [l.hip, l.ankle, l.ik]))];
      const stretched = await player.play(vmdWithOffsets(far), names, [0]);
      const rest = await player.play(null, names, [0]);
      legs.forEach((l) => {
        const d = len(sub(stretched.at(0, l.ankle), stretched.at(0, l.hip)));
        assert.ok(Math.abs(d - l.reach.max) < 1e-3, `${m.id} ${l.hip}: babylon-mmd stretches the leg to ${d}, reach.max ${l.reach.max}`);
        const err = len(sub(rest.at(0, l.ankle), rest.at(0, l.ik)));
        const chain = rig.chains.find((c) => c.ik === l.ik);
        assert.ok(Math.abs(err - chain.restError) < 1e-3, `${m.id}: rest error ${err} vs ${chain.restError}`);
      });
    } finally {
      player.dispose();
    }
    rows.push(`${m.id} ${legs.map((l) => `${l.kneeJoint.restBendDeg.toFixed(1)}/${l.kneeJoint.bendMinDeg.toFixed(1)}deg reach ${l.reach.max.toFixed(3)} of ${l.length.toFixed(3)}`).join(', ')}`);
  }
  console.log(`# analyzeRig on ${models.length} models (knee rest/most open, reach max of thigh + shin):\n# ${rows.join('\n# ')}`);
});
