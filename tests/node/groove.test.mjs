// Groove through the JS glue: settings (validated, merged, changed-only, reset), the runtime layer
// (offsets on the beat, reused result, feet on their anchors in the grooved pose, yielding to user leg
// IK, PoseEvaluator and plain-array poses), preview stepping without drift, the bake, and leaks.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, GROOVE_JOINTS, ProcMotionError, createProcMotion } from '../../js-glue/index.js';
import { fixturesAvailable, readFixture } from './support/babylon.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const mannequin = pm.mannequinPmx();
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

test('grooveConfig merges user settings over the defaults and keeps only what changed', () => {
  const full = pm.grooveConfig();
  assert.deepEqual(Object.keys(full.joints), GROOVE_JOINTS.map((j) => j.name));
  assert.deepEqual(full.joints.pelvis, { axis: 'x', amp: 2, freq: 1, phase: 0, wave: 'bounce' });
  assert.deepEqual(full.joints.head, { axis: 'z', amp: 3, freq: 0.5, phase: 0.15, wave: 'sine' });
  assert.deepEqual(full.squat, { enabled: true, vertical: 3, lateral: 1.5, freq: 1, phase: 0, wave: 'bounce' });
  // phases rise up the spine; right is half a cycle behind left
  const up = ['pelvis', 'spine', 'chest', 'upperChest', 'neck', 'head'].map((j) => full.joints[j].phase);
  assert.deepEqual(up, [0, 0.03, 0.06, 0.09, 0.12, 0.15]);
  for (const side of ['Shoulder', 'Arm', 'Elbow']) {
    assert.equal(Math.round((full.joints[`right${side}`].phase - full.joints[`left${side}`].phase) * 1e9) / 1e9, 0.5);
  }

  const merged = pm.grooveConfig({ joints: { head: { amp: 5 } }, squat: { vertical: 4 } });
  assert.equal(merged.joints.head.amp, 5);
  assert.equal(merged.joints.head.freq, 0.5, 'other fields keep their defaults');
  assert.equal(merged.squat.vertical, 4);
  assert.deepEqual(merged.joints.neck, full.joints.neck);
  // what to store: only the changes; a merged config read back changes nothing more
  const settings = pm.grooveConfig(merged, { changedOnly: true });
  assert.deepEqual(settings, { joints: { head: { amp: 5 } }, squat: { vertical: 4 } });
  assert.deepEqual(pm.grooveConfig(JSON.stringify(full), { changedOnly: true }), {});
  // merging onto earlier settings, resetting one joint (null) or everything
  const more = pm.grooveConfig({ joints: { neck: { wave: 'bounce' } } }, { base: settings, changedOnly: true });
  assert.deepEqual(more, { joints: { head: { amp: 5 }, neck: { wave: 'bounce' } }, squat: { vertical: 4 } });
  assert.deepEqual(pm.grooveConfig({ joints: { head: null } }, { base: more, changedOnly: true }),
    { joints: { neck: { wave: 'bounce' } }, squat: { vertical: 4 } });
  assert.deepEqual(pm.grooveConfig({ reset: 'all' }, { base: more, changedOnly: true }), {});
  assert.deepEqual(pm.grooveConfig({ reset: ['squat'] }, { base: more, changedOnly: true }),
    { joints: { head: { amp: 5 }, neck: { wave: 'bounce' } } });
});

test('grooveConfig rejects unknown joints and fields and bad values, naming them', () => {
  const cases = [
    [{ joints: { hed: { amp: 1 } } }, /unknown joint "hed"/],
    [{ joints: { head: { ampp: 1 } } }, /joints\.head\.ampp/],
    [{ joints: { head: { amp: 200 } } }, /joints\.head\.amp must be a number in \[-180, 180\] \(degrees\), got 200/],
    [{ joints: { head: { amp: NaN } } }, /joints\.head\.amp must be a finite number, got NaN/],
    [{ squat: { lateral: -Infinity } }, /squat\.lateral must be a finite number, got -Infinity/],
    ['{"joints":{"head":{"amp":1e999}}}', /joints\.head\.amp/],
    [{ joints: { neck: { axis: 'w' } } }, /joints\.neck\.axis must be "x", "y" or "z", got "w"/],
    [{ joints: { neck: { wave: 'square' } } }, /joints\.neck\.wave/],
    [{ joints: { neck: { phase: 2 } } }, /joints\.neck\.phase/],
    [{ squat: { vertical: -1 } }, /squat\.vertical/],
    [{ squat: { enabled: 'yes' } }, /squat\.enabled must be true or false/],
    [{ tempo: 120 }, /unknown setting "tempo"/],
    ['{"joints":', /not valid JSON/],
  ];
  for (const [settings, message] of cases) {
    assert.throws(() => pm.grooveConfig(settings), (e) => e instanceof ProcMotionError && message.test(e.message),
      JSON.stringify(settings));
  }
  assert.throws(() => pm.grooveConfig(42), ProcMotionError);
});

test('a Groove gives joint offsets and the body offset on the beat, in one reused result', () => {
  const g = pm.createGroove({ joints: { head: { amp: 6 } } }, mannequin);
  try {
    const info = g.info;
    assert.deepEqual(info.skipped, ['upperChest']);
    assert.equal(info.bodyBone, 'グルーブ');
    assert.equal(info.legMode, 'mmd-ik');
    assert.deepEqual(info.legIkBones, ['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ']);
    const pelvis = info.joints.pelvis.index, head = info.joints.head.index;
    for (const bpm of [120, 128]) {
      for (let k = 1; k < 6; k++) {
        const r = g.offsets(null, (k * 60) / bpm, bpm);
        assert.ok(Math.abs(r.beat - k) < 1e-5);
        assert.ok(Math.abs(r.offsets[4 * pelvis + 3] - 1) < 1e-12, 'pelvis at its valley on the beat');
        assert.ok(Math.abs(r.bodyOffset[1] + 3 / 8) < 1e-6, 'body at its low point on the beat');
        const half = g.offsets(null, ((k + 0.5) * 60) / bpm, bpm);
        assert.equal(half, r, 'the same result object every call');
        assert.ok(Math.abs(half.bodyOffset[1]) < 1e-6, 'back at rest height half a beat later');
        const angle = 2 * Math.acos(Math.min(1, half.offsets[4 * pelvis + 3])) * 180 / Math.PI;
        assert.ok(Math.abs(angle - 2) < 1e-4, `pelvis turned by its amplitude (${angle})`);
      }
    }
    // head: sine, amp 6 (set), freq 0.5, phase 0.15: its peak is (0.25 + 0.15) / 0.5 = 0.8 beats
    const r = g.offsets(null, 0.8 * 60 / 100, 100);
    assert.ok(Math.abs(r.offsets[4 * head + 2] - Math.sin(3 * Math.PI / 180)) < 1e-6);
    assert.equal(r.offsets[0 * 4 + 3], 1, 'a bone that is no joint gets the identity');
  } finally {
    g.dispose();
    g.dispose();
  }
  assert.throws(() => g.offsets(null, 0, 120), /already disposed/);
});

test('the squat bounce keeps the feet on their anchors and yields to user leg IK', { skip: SKIP }, () => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  for (const [label, skeleton] of [['mannequin', mannequin], ['yw_test_model', model]]) {
    const g = pm.createGroove({ squat: { vertical: 8, lateral: 2 } }, skeleton);
    try {
      const [lAnkle, rAnkle] = [g.info.legBones[2], g.info.legBones[5]].map((n) => g.boneNames.indexOf(n));
      const body = g.boneNames.indexOf(g.info.bodyBone);
      let worst = 0, lowest = Infinity, highest = -Infinity;
      for (let i = 0; i <= 240; i++) {
        const r = g.offsets(null, 0.5 + i / 60, 128);
        assert.ok(r.legsSolved);
        const w = g.worldPositions();
        [lAnkle, rAnkle].forEach((a, s) => {
          const d = Math.hypot(w[3 * a] - r.anchors[3 * s], w[3 * a + 1] - r.anchors[3 * s + 1], w[3 * a + 2] - r.anchors[3 * s + 2]);
          worst = Math.max(worst, d, r.footError[s]);
        });
        lowest = Math.min(lowest, w[3 * body + 1]);
        highest = Math.max(highest, w[3 * body + 1]);
      }
      console.log(`${label}: ankles within ${worst.toExponential(2)} units of their anchors, body bounce ${(highest - lowest).toFixed(3)}`);
      assert.ok(worst < 1e-3);
      assert.ok(Math.abs(highest - lowest - 1) < 1e-3, 'the body bounces by 8 cm');
      // leg IK in the user's hands: no body offset, no leg solve
      const y = g.offsets(null, 1.1, 128, { legIkUser: true });
      assert.equal(y.legsSolved, false);
      assert.deepEqual([...y.bodyOffset], [0, 0, 0]);
    } finally {
      g.dispose();
    }
  }
});

test('poses come from a PoseEvaluator or from plain arrays', { skip: SKIP }, () => {
  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  const ev = pm.createPoseEvaluator(readFixture('vmd/mei_wait.vmd'), model);
  const g = pm.createGroove(null, model);
  try {
    const a = g.offsets(ev, 1.25, 120);
    const fromEvaluator = g.worldPositions();
    const head = g.info.joints.head.index;
    assert.ok(a.offsets[4 * head + 3] < 1);
    // the same animated pose as arrays: the evaluator's local rotations and offsets at frame 37.5
    const n = ev.boneCount, mod = pm.mod;
    const rotations = new Float32Array(mod.HEAPF32.buffer, mod.pm_abi_pose_rotations(ev.handle), 4 * n).slice();
    const translations = new Float32Array(mod.HEAPF32.buffer, mod.pm_abi_pose_translations(ev.handle), 3 * n).slice();
    g.resetAnchors();
    g.offsets({ rotations, translations }, 1.25, 120);
    assert.deepEqual(g.worldPositions(), fromEvaluator);
    assert.throws(() => g.offsets({ rotations: new Float32Array(4) }, 0, 120), /4 x 114/);
    assert.throws(() => g.offsets(null, 0, 0), /bpm must be a number in \(0, 1000\]/);
    assert.throws(() => g.offsets(null, NaN, 120), /time is not finite/);
    const other = pm.createPoseEvaluator(null, mannequin);
    try {
      assert.throws(() => g.offsets(other, 0, 120), /PoseEvaluator has 32 bones/);
    } finally {
      other.dispose();
    }
    // one-shot: a copy
    const once = pm.grooveOffsets(null, model, ev, 1.25, 120);
    assert.deepEqual(once.offsets, a.offsets);
  } finally {
    g.dispose();
    ev.dispose();
  }
});

test('preview stepping: 10 000 steps leave the rest position where it was', () => {
  const g = pm.createGroove(null, mannequin);
  try {
    const position = { x: 0.3, y: 8.2, z: -1.1 };
    let lowest = Infinity;
    for (let i = 0; i < 10000; i++) {
      g.previewStep(position, i * 0.0171, 131);
      lowest = Math.min(lowest, position.y);
    }
    assert.ok(lowest < 8.2 - 0.37, 'the steps moved it');
    g.previewStop(position);
    assert.ok(Math.abs(position.y - 8.2) <= 1e-6 && Math.abs(position.x - 0.3) <= 1e-6 && position.z === -1.1,
      JSON.stringify(position));
    // arrays work too, and an outside move becomes the new base
    const p = [0, 8, 0];
    g.previewStep(p, 0, 120);
    p[0] += 1;
    g.previewStep(p, 0.1, 120);
    g.previewStop(p);
    assert.deepEqual(p, [1, 8, 0]);
  } finally {
    g.dispose();
  }
});

test('applyGrooveToVmd bakes keys for the groove bones only and copies the base', { skip: SKIP }, () => {
  const before = pm.heapInUse;
  const rest = pm.bakeGroove(null, mannequin, null, 120);
  assert.equal(rest.report.frames, 240);
  assert.equal(rest.report.legMode, 'mmd-ik');
  assert.ok(rest.report.maxPositionError < 0.005 && rest.report.maxRotationErrorDeg < 0.1);
  const v = pm.readVmd(rest.vmd);
  // the groove's bones, and the legs the closed loop keys so the feet stay planted (docs/landing.md)
  const legs = ['左足ＩＫ', '右足ＩＫ', '左足', '右足', '左ひざ', '右ひざ', '左足首', '右足首'];
  assert.deepEqual([...v.bones.names].sort(), ['グルーブ', ...GROOVE_JOINTS.filter((j) => j.name !== 'upperChest').map((j) => j.bone), ...legs].sort());
  assert.equal(v.bones.count, rest.report.keys + rest.report.landing.keyCount);
  assert.ok(rest.report.keys < (241 * 12) / 3, `${rest.report.keys} keys`);
  assert.ok(rest.report.maxFootError < 1e-3 && rest.report.landing.ikOffFrames === 0, JSON.stringify(rest.report));

  const model = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  const base = readFixture('vmd/mei_wait.vmd');
  const baked = pm.readVmd(pm.bakeGroove(pm.readVmd(base), pm.readPmx(model), { squat: { vertical: 4 } }, 100).vmd);
  const b = pm.readVmd(base);
  const count = (vmd, name) => [...vmd.bones.nameIndex].filter((i) => vmd.bones.names[i] === name).length;
  assert.equal(count(baked, 'センター'), count(b, 'センター'));
  assert.equal(baked.morphs.count, b.morphs.count);
  assert.ok(count(baked, 'グルーブ') > 10);

  assert.throws(() => pm.bakeGroove(null, mannequin, null, NaN).vmd, /bpm/);
  assert.throws(() => pm.bakeGroove(null, mannequin, { joints: { x: {} } }, 120).vmd, /unknown joint "x"/);
  assert.throws(() => pm.bakeGroove(null, mannequin, null, 120, { frames: -1 }).vmd, /frames/);
  assert.throws(() => pm.bakeGroove(null, mannequin, null, 120, { positionTolerance: 5 }).vmd, /position_tolerance/);
  // (an empty skeleton is valid since PMX files without bones read to one: use a broken one)
  assert.throws(() => pm.bakeGroove(null, { bones: [{ name: 'a', position: [0, 0, 0], parent: 1 }] }, null, 120).vmd, ProcMotionError);
  assert.equal(pm.heapInUse, before, 'no module memory leaked');
});
