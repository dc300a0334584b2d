// Models through the glue: readPmx on the fixtures, skeleton JSON in and out of the core, the humanoid
// mapping, and the built-in mannequin loaded by babylon-mmd.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion, HUMANOID_BONES, ProcMotionError } from '../../js-glue/index.js';
import { createMmdScene, disposeMmdScene, fixturesAvailable, readFixture } from './support/babylon.mjs';
import { zooModels, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

test('readPmx returns the full skeleton of the shared models', { skip: SKIP }, () => {
  for (const file of ['pmx/yw_test_model/yw_test_model.pmx', 'pmx/mmt_test_model.pmx']) {
    const m = pm.readPmx(readFixture(file));
    assert.equal(m.format, 'pmx', file);
    assert.equal(m.bones.length, 114, file);
    const ik = m.bones.find((b) => b.name === '左足ＩＫ');
    assert.ok(ik?.ik, `${file}: 左足ＩＫ has an IK chain`);
    assert.equal(m.bones[ik.ik.target].name, '左足首');
    assert.deepEqual(ik.ik.links.map((l) => m.bones[l.bone].name), ['左ひざ', '左足']);
    assert.ok(ik.ik.links[0].limitMin, 'the knee is limited');
    for (const b of m.bones) {
      assert.ok(b.parent === -1 || (b.parent >= 0 && b.parent < m.bones.length));
      assert.ok(b.position.every(Number.isFinite));
    }
  }
});

test('a skeleton object goes into the core and comes back unchanged', { skip: SKIP }, () => {
  const m = pm.readPmx(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  const back = pm._withSkeleton(m, (h) => {
    const s = pm._scratch();
    try {
      const out = s.alloc(8), err = s.alloc(256);
      assert.equal(pm.mod.pm_abi_skeleton_to_json(h, out, out + 4, err), 0);
      return JSON.parse(pm._takeText(out));
    } finally {
      s.free();
    }
  });
  assert.equal(back.bones.length, m.bones.length);
  for (let i = 0; i < m.bones.length; i++) {
    assert.equal(back.bones[i].name, m.bones[i].name);
    assert.equal(back.bones[i].parent, m.bones[i].parent);
    assert.deepEqual(back.bones[i].position, m.bones[i].position);
    assert.deepEqual(back.bones[i].ik?.links, m.bones[i].ik?.links);
    assert.deepEqual(back.bones[i].append, m.bones[i].append);
  }
  assert.deepEqual(back.morphNames, m.morphNames);
});

test('bad skeleton JSON is refused with the bone and field named', () => {
  const bones = [{ name: 'root', position: [0, 0, 0], parent: -1 }, { name: 'child', position: [0, 1, 0], parent: 7 }];
  assert.throws(() => pm._withSkeleton({ bones }, () => 0), (e) => e instanceof ProcMotionError && /bones\[1\]\.parent must be a bone index/.test(e.message));
  const cyclic = [{ name: 'a', position: [0, 0, 0], parent: 1 }, { name: 'b', position: [0, 1, 0], parent: 0 }];
  assert.throws(() => pm._withSkeleton({ bones: cyclic }, () => 0), /cycle|loop/i);
  assert.throws(() => pm._withSkeleton({ bones: [{ name: 'x', position: [NaN, 0, 0], parent: -1 }] }, () => 0), /position/);
  assert.throws(() => pm.readPmx(new Uint8Array([0x50, 0x4d, 0x58, 0x20, 0, 0])), ProcMotionError);
});

test('mapHumanoid maps MMD names and reports missing required bones', { skip: SKIP }, () => {
  const full = pm.mapHumanoid(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  assert.equal(full.total, 22);
  assert.ok(full.drivable);
  assert.equal(full.bones.hips, '下半身');
  assert.equal(full.bones.leftUpperLeg, '左足');
  assert.equal(full.naming.leftUpperLeg, 'mmd');
  const partial = pm.mapHumanoid(['センター', '上半身', '頭', '左足ＩＫ']);
  assert.equal(partial.drivable, false);
  assert.ok(partial.missingRequired.includes('leftUpperLeg'), '左足ＩＫ never maps to the leg');
  assert.equal(partial.bones.leftUpperLeg, null);
  assert.deepEqual(Object.keys(full.bones), HUMANOID_BONES);
  const mixamo = pm.mapHumanoid(['mixamorig:Hips', 'mixamorig:LeftUpLeg', 'mixamorig:RightArm']);
  assert.equal(mixamo.bones.hips, 'mixamorig:Hips');
  assert.equal(mixamo.bones.leftUpperLeg, 'mixamorig:LeftUpLeg');
});

test('mapHumanoid on a skeleton or model bytes reads its English names too (every zoo model, PMX and PMD)', { skip: zooSkip() }, () => {
  let models = 0;
  for (const z of zooModels()) {
    const bytes = readFileSync(z.path);
    const model = pm.readPmx(bytes);
    assert.ok(model.bones.every((b) => b.nameEn), `${z.id}: every zoo bone has an English name`);
    const byName = pm.mapHumanoid(model.bones.map((b) => b.name));
    assert.ok(byName.drivable, z.id);
    // semi-standard names: the English ones add nothing, bytes and skeleton agree with the names
    assert.deepEqual(pm.mapHumanoid(bytes), byName, `${z.id}: bytes`);
    assert.deepEqual(pm.mapHumanoid(model), byName, `${z.id}: skeleton`);
    // the same skeleton with its names replaced: only the English names (leg_L, knee_L, ...) can map it
    const renamed = { ...model, bones: model.bones.map((b, i) => ({ ...b, name: `bone${i}` })) };
    assert.equal(pm.mapHumanoid(renamed.bones.map((b) => b.name)).mapped, 0, `${z.id}: the new names mean nothing`);
    const en = pm.mapHumanoid(renamed);
    assert.equal(en.drivable, true, `${z.id}: drivable from English names, missing ${en.missingRequired}`);
    for (const h of HUMANOID_BONES) {
      const want = byName.bones[h] === null ? null : `bone${model.bones.findIndex((b) => b.name === byName.bones[h])}`;
      assert.equal(en.bones[h], want, `${z.id} ${h}: ${byName.bones[h]} is ${want}, by its English name`);
      if (want) assert.equal(en.naming[h], 'english', `${z.id} ${h}`);
    }
    models++;
  }
  assert.ok(models >= 20, `${models} zoo models`);
});

test('the built-in mannequin loads in babylon-mmd with the bones readPmx reports', async () => {
  const bytes = pm.mannequinPmx();
  const model = pm.readPmx(bytes);
  for (const name of ['全ての親', 'センター', 'グルーブ', '腰', '上半身', '上半身2', '首', '頭', '下半身', '左肩', '右腕',
    '左ひじ', '右手首', '左足', '右ひざ', '左足首', '右つま先', '左足ＩＫ', '右つま先ＩＫ'])
    assert.ok(model.bones.some((b) => b.name === name), name);
  for (const name of ['まばたき', 'あ', '笑い']) assert.ok(model.morphNames.includes(name), name);
  assert.ok(pm.mapHumanoid(model).drivable);
  const ctx = await createMmdScene(bytes);
  try {
    assert.deepEqual([...ctx.boneNames].sort(), model.bones.map((b) => b.name).sort());
  } finally {
    disposeMmdScene(ctx);
  }
});
