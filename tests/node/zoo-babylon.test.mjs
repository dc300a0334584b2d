// The test zoo in babylon-mmd 1.3's real loaders (PMX and PMD, MmdRuntime): every zoo file loads, its
// bones are the ones our reader sees, and the figures it is built for are measured on babylon-mmd's
// own rest skeleton (knee rest bend, arm angle, 足ＩＫ offset, heights, scale, the bones it has and
// lacks, its IK chains, PMD knees limited by name). Then the harness: babylon-mmd and procmotion's
// evaluator play the same motions to the same positions, on every model of the iteration.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { getModelInfo } from '../../js-glue/babylon.js';
import { createMmdScene, disposeMmdScene } from './support/babylon.mjs';
import { createPlayer, frameRange, maxDistance, boneGap, below, driftFrom } from './support/played.mjs';
import { everyModel, zooModels, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = zooSkip();

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (a) => Math.hypot(a[0], a[1], a[2]);
const deg = (a, b) => (Math.acos(Math.min(1, Math.max(-1, (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (len(a) * len(b))))) * 180) / Math.PI;

/** The zoo's figures measured on a rest skeleton given as name -> [x, y, z]. */
function figures(at) {
  const f = { kneeBendDeg: [], armDeg: [], ikOffset: [], ankleY: [], hipY: [], leg: [], headY: at('頭')[1] };
  for (const s of ['左', '右']) {
    const hip = at(`${s}足`), knee = at(`${s}ひざ`), ankle = at(`${s}足首`), arm = at(`${s}腕`), elbow = at(`${s}ひじ`);
    f.kneeBendDeg.push(deg(sub(knee, hip), sub(ankle, knee)));
    f.armDeg.push((Math.atan2(-(elbow[1] - arm[1]), Math.abs(elbow[0] - arm[0])) * 180) / Math.PI);
    f.ikOffset.push(sub(at(`${s}足ＩＫ`), ankle));
    f.ankleY.push(ankle[1]);
    f.hipY.push(hip[1]);
    f.leg.push(len(sub(ankle, hip)));
  }
  return f;
}

test('every zoo model loads in babylon-mmd and measures there as it was built', { skip: SKIP }, async (t) => {
  const models = zooModels();
  assert.ok(models.length >= 29 && models.some((m) => m.format === 'pmd'));
  for (const m of models) {
    const bytes = m.bytes();
    const ours = pm.readPmx(bytes);
    // a quirk babylon-mmd loads past (a display-only tail that is NaN) is a warning in ours, not an error
    if (m.id === 'unity') assert.match(ours.source.warnings.join('\n'), /5 bones have a tail offset that is not a finite number/);
    else assert.deepEqual(ours.source.warnings, [], `${m.id}: warnings`);
    const ctx = await createMmdScene(bytes, { extension: m.extension });
    try {
      const vertices = (ctx.mesh.metadata.meshes ?? [ctx.mesh]).reduce((n, x) => n + x.getTotalVertices(), 0);
      assert.ok(vertices > 1000, `${m.id}: the mesh has ${vertices} vertices`);
      assert.deepEqual(ctx.boneNames, ours.bones.map((b) => b.name), `${m.id}: bone names`);
      const info = getModelInfo(ctx.model);
      const at = (name) => {
        const i = info.boneNames.indexOf(name);
        assert.ok(i >= 0, `${m.id}: no ${name} in babylon-mmd`);
        return Array.from(info.skeleton.positions.subarray(3 * i, 3 * i + 3));
      };
      const got = figures(at), want = m.expect;
      for (let s = 0; s < 2; s++) {
        assert.ok(Math.abs(got.kneeBendDeg[s] - want.kneeBendDeg[s]) < 1e-3, `${m.id}: knee ${s} bends ${got.kneeBendDeg[s]}, built for ${want.kneeBendDeg[s]}`);
        assert.ok(Math.abs(got.armDeg[s] - want.armDeg[s]) < 1e-3, `${m.id}: arm ${s} at ${got.armDeg[s]}`);
        assert.ok(len(sub(got.ikOffset[s], want.ikOffset[s])) < 1e-4, `${m.id}: 足ＩＫ offset ${got.ikOffset[s]}`);
        for (const k of ['ankleY', 'hipY', 'leg']) assert.ok(Math.abs(got[k][s] - want[k][s]) < 1e-4, `${m.id}: ${k} ${got[k][s]} vs ${want[k][s]}`);
      }
      assert.ok(Math.abs(got.headY / 16.799 - want.scale) < 1e-5, `${m.id}: scale ${got.headY / 16.799}`);
      for (const name of want.present) assert.ok(ctx.boneNames.includes(name), `${m.id}: ${name} missing`);
      for (const name of want.absent) assert.ok(!ctx.boneNames.includes(name), `${m.id}: ${name} present`);
      // IK chains as babylon-mmd built them (IkSolver._ikChains is private but stable in the pinned 1.3.0)
      const solvers = ctx.model.runtimeBones.filter((b) => b.ikSolver).map((b) => b.ikSolver);
      assert.deepEqual(solvers.map((s) => s.ikBone.name).sort(), [...want.ikBones].sort(), `${m.id}: IK bones`);
      const leg = solvers.find((s) => s.ikBone.name === '左足ＩＫ');
      assert.equal(leg.targetBone.name, '左足首');
      const [knee, hip] = leg._ikChains;
      assert.equal(knee.bone.name, '左ひざ');
      assert.equal(hip.minimumAngle, null, `${m.id}: 足 is free`);
      // PMD has no limits in the file: babylon-mmd limits 左ひざ by name (-180..-0.5, used as radians)
      if (m.format === 'pmd') assert.equal(knee.minimumAngle.x, -180, `${m.id}: PMD knee limit`);
      else assert.ok(Math.abs(knee.minimumAngle.x + (170 * Math.PI) / 180) < 1e-6, `${m.id}: PMX knee limit ${knee.minimumAngle.x}`);
      const dik = solvers.find((s) => s.ikBone.name === '左ひざDIK');
      if (dik) assert.deepEqual([dik.targetBone.name, dik._ikChains.map((c) => c.bone.name)], ['左足首D', ['左ひざD', '左足D']]);
    } finally {
      disposeMmdScene(ctx);
    }
  }
  t.diagnostic(`${models.length} zoo files (${models.filter((m) => m.format === 'pmd').length} PMD) measured in babylon-mmd`);
});

test('the harness: babylon-mmd and our evaluator play the rest pose and a catwalk alike on every model', { skip: SKIP }, async (t) => {
  const names = ['左足首', '右足首', '左足ＩＫ', '右足ＩＫ', '左ひざ', '右ひざ', '左つま先', '下半身'];
  let restWorst = 0, walkWorst = 0, worstAt = '';
  const ids = [];
  for (const m of everyModel(pm)) {
    ids.push(m.id);
    const bb = await createPlayer(m), ours = await createPlayer(m, { runtime: 'procmotion', pm });
    try {
      const restB = await bb.play(null, names, [0, 1]), restO = await ours.play(null, names, [0, 1]);
      restWorst = Math.max(restWorst, maxDistance(restB, restO.positions).max);
      // a short catwalk on the model's own skeleton (babylon-mmd's CCD amplifies float differences
      // where a leg is at full reach: compare the pelvis and the IK bones, which FK places)
      const { vmd, loopFrames } = pm.generateCatwalkVmd({}, 128, null, null, { skeleton: pm.readPmx(m.bytes()) });
      const frames = frameRange(Math.min(loopFrames, 60), 2);
      const fk = ['左足ＩＫ', '右足ＩＫ', '下半身'];
      const wb = await bb.play(vmd, fk, frames), wo = await ours.play(vmd, fk, frames);
      const d = maxDistance(wb, wo.positions);
      if (d.max > walkWorst) [walkWorst, worstAt] = [d.max, `${m.id} ${d.bone} frame ${d.frame}`];
      // the helpers measure what they say
      const shifted = Float64Array.from(wb.positions, (v, i) => v + (i % 3 === 1 ? 0.02 : 0));
      assert.ok(Math.abs(maxDistance(wb, shifted).max - 0.02) < 1e-9);
      assert.equal(boneGap(wb, '左足ＩＫ', '左足ＩＫ').max, 0);
      assert.ok(below(wb, '下半身', 1000).depth > 900);
      assert.equal(driftFrom(restB, '左足首', restB.at(0, '左足首')).max, 0);
    } finally {
      bb.dispose();
      ours.dispose();
    }
  }
  t.diagnostic(`${ids.length} models (${ids.join(', ')}): rest pose babylon-mmd vs ours ${restWorst.toExponential(2)}, catwalk FK bones ${walkWorst.toExponential(2)} (${worstAt})`);
  assert.ok(ids.length >= 30);
  assert.ok(restWorst < 1e-4, `rest pose differs by ${restWorst}`);
  assert.ok(walkWorst < 1e-4, `catwalk differs by ${walkWorst} at ${worstAt}`);
});
