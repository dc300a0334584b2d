// Today's generators run on every model of the "every model" iteration (the test zoo, the mannequin,
// the shared PMX fixtures; docs/zoo.md) with each model's own skeleton: the catwalk in place, traverse
// and U-turn, the groove bake, keypoints from the catwalk on the model. They finish, write finite
// results and name exactly the bones the model lacks. How well they land is measured, not asserted,
// by tests/zoo/baseline.mjs; this makes that a test.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });

test('catwalk, groove and keypoints run on every zoo model and fixture', { skip: zooSkip() }, (t) => {
  const models = everyModel(pm);
  let keys = 0;
  for (const m of models) {
    const bytes = m.bytes();
    const skeleton = pm.readPmx(bytes);
    const lacks = (m.expect?.absent ?? []).slice().sort();
    for (const state of [{}, { traverse: true }, { uTurn: true, stepCadence: 'beat' }]) {
      const r = pm.generateCatwalkVmd(state, 128, null, null, { skeleton });
      assert.deepEqual([...r.missingBones].sort(), lacks, `${m.id} ${JSON.stringify(state)}: missing bones`);
      const vmd = pm.readVmd(r.vmd);
      assert.ok(vmd.bones.count > 100 && vmd.bones.positions.every(Number.isFinite) && vmd.bones.rotations.every(Number.isFinite), m.id);
      keys += vmd.bones.count;
      if (!state.uTurn) continue;
      const kp = pm.toKeypoints(r.vmd, { format: 'vmd', model: bytes });
      assert.equal(kp.frameCount, r.loopFrames + 1, `${m.id}: keypoint frames`);
      assert.ok(kp.points.every(Number.isFinite), `${m.id}: keypoints`);
    }
    const { vmd, report } = pm.bakeGroove(null, bytes, null, 128);
    assert.equal(report.legMode, 'mmd-ik', `${m.id}: the groove plants the feet by the model's 足ＩＫ`);
    assert.ok(vmd.length > 1000 && Number.isFinite(report.maxPositionError), m.id);
  }
  t.diagnostic(`${models.length} models, ${keys} catwalk bone keys`);
});
