// Retargeting real motion (a CMU mocap BVH, three-vrm's VRM Animation, a glTF robot's dance) onto every
// model of the "every model" iteration, through the package as users call it, played by babylon-mmd 1.3
// (MmdRuntime, its own CCD IK): babylon-mmd plays what procmotion's evaluator measured (so the report's
// figures hold there: a planted foot's slide through the source's stances, the hands against the body),
// and the ankles never go below the ground. Figures go to the test's diagnostics.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { createPlayer, frameRange } from './support/played.mjs';
import { FIXTURES, fixturesAvailable } from './support/babylon.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const NAMES = ['左足首', '右足首', '左手首', '右手首', '頭', '下半身'];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const SOURCES = [
  { id: 'cmu_131_01.bvh', bytes: () => readFileSync(join(FIXTURES, 'bvh/cmu_131_01.bvh')), fixture: true },
  { id: 'three-vrm-test.vrma', bytes: () => readFileSync(new URL('../data/three-vrm-test.vrma', import.meta.url)) },
  { id: 'RobotExpressive.glb', bytes: () => readFileSync(join(FIXTURES, 'gltf/RobotExpressive.glb')), fixture: true },
];

test('retargeted motion plays on every model in babylon-mmd as procmotion measured it', { skip: zooSkip(), timeout: 900_000 }, async (t) => {
  const worst = { gap: 0, below: 0, slide: 0, hands: Infinity };
  for (const m of everyModel(pm)) {
    const bytes = m.bytes();
    const ground = Object.fromEntries(['左足首', '右足首'].map((n) => [n, pm.readPmx(bytes).bones.find((b) => b.name === n).position[1]]));
    const babylon = await createPlayer(m), ours = await createPlayer(m, { runtime: 'procmotion', pm });
    try {
      for (const src of SOURCES) {
        if (src.fixture && !fixturesAvailable()) continue;
        const { vmd, report } = pm.retargetToVmd(src.bytes(), { model: bytes });
        const where = `${src.id} on ${m.id}`;
        assert.ok(report.feet, `${where}: the feet were landed`);
        const frames = frameRange(report.frames);
        const played = await babylon.play(vmd, NAMES, frames), measured = await ours.play(vmd, NAMES, frames);
        let gap = 0, below = 0;
        for (let fi = 0; fi < frames.length; fi++) {
          for (const n of NAMES) gap = Math.max(gap, dist(played.at(fi, n), measured.at(fi, n)));
          for (const n of ['左足首', '右足首']) below = Math.max(below, ground[n] - played.at(fi, n)[1]);
        }
        const slide = report.feet.maxSlide;
        const hands = Math.min(...['left', 'right'].map((s, k) => report.body.hands[s].clearance - Math.min(0, report.hands.sourceClearance[k])));
        assert.ok(gap <= 0.01, `${where}: babylon-mmd plays ${gap.toFixed(4)} units from procmotion's evaluator`);
        assert.ok(below <= 0.005, `${where}: an ankle goes ${below.toFixed(4)} below the ground`);
        assert.ok(slide <= 0.005, `${where}: a planted foot slides ${slide.toFixed(4)} in a frame`);
        assert.ok(hands >= -0.03, `${where}: a hand goes ${(-hands).toFixed(3)} deeper into the body than the source's`);
        worst.gap = Math.max(worst.gap, gap), worst.below = Math.max(worst.below, below), worst.slide = Math.max(worst.slide, slide);
        worst.hands = Math.min(worst.hands, hands);
      }
    } finally {
      babylon.dispose();
      ours.dispose();
    }
  }
  t.diagnostic(`worst: babylon-mmd to procmotion ${worst.gap.toFixed(4)}, below the ground ${worst.below.toFixed(4)}, ` +
    `planted feet slide ${worst.slide.toFixed(4)}, hands ${worst.hands.toFixed(3)} units clear of the source's depth`);
});

test('retargetToVmd takes the mannequin by default, readPmx skeletons, a clip by index, and refuses what it cannot read', () => {
  const vrma = readFileSync(new URL('../data/three-vrm-test.vrma', import.meta.url));
  const a = pm.retargetToVmd(vrma);
  assert.equal(a.report.format, 'vrma');
  assert.equal(a.report.naming, 'vrm');
  assert.ok(a.report.mapped.includes('rightElbow') && a.report.frames === 90);
  const motion = pm.readVmd(a.vmd);
  assert.ok(motion.bones.names.includes('右ひじ'));
  const mannequin = pm.mannequinPmx();
  const b = pm.retargetToVmd(vrma, { model: pm.readPmx(mannequin) });
  assert.deepEqual(b.report.mapped, a.report.mapped);
  assert.throws(() => pm.retargetToVmd(new Uint8Array([1, 2, 3])), (e) => e.name === 'ProcMotionError' && e.code === 'PM_ERR_BAD_FORMAT' && /not a BVH/.test(e.message));
  assert.throws(() => pm.retargetToVmd(new TextEncoder().encode('Kaydara FBX Binary  \0')), /fbx: not a binary FBX file/);
  assert.throws(() => pm.retargetToVmd(vrma, { animation: 3 }), (e) => e.code === 'PM_ERR_INVALID_ARGUMENT' && /animation 3/.test(e.message));
  assert.throws(() => pm.retargetToVmd(vrma, { animation: -1 }), /animation/);
  assert.throws(() => pm.retargetToVmd(vrma, 'fast'), /options must be an object/);
});
