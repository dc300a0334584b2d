// The pose oracle: procmotion's pose evaluation against babylon-mmd 1.3's own JS runtime (MmdRuntime,
// NullEngine, physics off) on the shared fixtures. World positions of every bone at every half frame
// (quarter frames for the short motion), from before the first key to after the last, in three kinds:
// bones moved by FK alone, bones IK can move, and the same in frames where an IK target stays out of
// reach (the bone misses it by more than 5e-3 units). The issue asked for 1e-3, 1e-2 and 0.05 units
// respectively; the evaluator follows babylon-mmd's arithmetic and agrees to float precision (the
// largest error of any kind on any file is about 5e-8), so every kind is held to 1e-5 and a numeric
// regression shows. The test prints the largest error of each kind per file.
//
// Our side runs natively for now: build/native/test_pose_fixtures --dump MODEL MOTION FIRST COUNT STEP
// (tests/c/test_pose_fixtures.c) prints the world positions as JSON.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  createMmdScene, disposeMmdScene, evaluateWorldPositions, fixturePath, fixturesAvailable,
} from './support/babylon.mjs';

const DUMP = fileURLToPath(new URL('../../build/native/test_pose_fixtures', import.meta.url));
const YW = 'pmx/yw_test_model/yw_test_model.pmx';
const CASES = [
  { model: 'pmx/mmt_test_model.pmx', motion: 'vmd/mmt_test_model_test_motion.vmd', step: 0.25 },
  { model: YW, motion: 'vmd/mei_wait.vmd', step: 0.5 },
  { model: YW, motion: 'vmd/gene_stand.vmd', step: 0.5 },
  { model: YW, motion: 'vmd/babylon_physics_toggle_test_yyb10th.vmd', step: 0.5 },
  // beyond the list: motions with more movement on the same model
  { model: YW, motion: 'vmd/mei_greeting.vmd', step: 0.5 },
  { model: YW, motion: 'vmd/gene_02_laugh.vmd', step: 0.5 },
  // the built-in mannequin with a generated motion (FK, curves, leg IK, IK toggled by property keys),
  // both written by the native helper (test_pose_fixtures --mannequin DIR)
  { model: 'mannequin.pmx', motion: 'mannequin_motion.vmd', step: 0.25, generated: true },
];
const FK_TOL = 1e-5;
const IK_TOL = 1e-5;
const OUT_OF_REACH_TOL = 1e-5;

const skip = !fixturesAvailable() ? 'SKIP: ../shared/fixtures not found'
  : !existsSync(DUMP) ? 'SKIP: build/native/test_pose_fixtures not built (bash build-scripts/build.sh native)'
  : false;

function ours(model, motion, first, count, step) {
  const r = spawnSync(DUMP, ['--dump', model, motion, String(first), String(count), String(step)],
    { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

for (const c of CASES) {
  test(`pose oracle: ${c.motion} on ${c.model} agrees with babylon-mmd`, { skip }, async () => {
    let dir = null;
    let model = c.model, motion = c.motion;
    if (c.generated) {
      dir = mkdtempSync(join(tmpdir(), 'pm-pose-oracle-'));
      const g = spawnSync(DUMP, ['--mannequin', dir], { encoding: 'utf8' });
      assert.equal(g.status, 0, g.stderr);
      model = join(dir, c.model);
      motion = join(dir, c.motion);
    } else {
      model = fixturePath(c.model);
      motion = fixturePath(c.motion);
    }
    const bytes = (path) => new Uint8Array(readFileSync(path));
    let mine, theirs;
    try {
      // one frame first, to learn the motion's length
      const probe = ours(model, motion, 0, 1, 1);
      const first = -2;
      const count = Math.round((probe.lastFrame + 4) / c.step) + 1;
      mine = ours(model, motion, first, count, c.step);
      const ctx = await createMmdScene(bytes(model));
      try {
        theirs = await evaluateWorldPositions(ctx, bytes(motion), mine.frames.map((f) => f.f));
        assert.deepEqual(ctx.boneNames, mine.bones, 'the same bones in the same order');
      } finally {
        disposeMmdScene(ctx);
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
    const worst = { fk: [0], ik: [0], out: [0] };
    let outFrames = 0;
    mine.frames.forEach((fr, fi) => {
      const out = fr.unreached.length > 0;
      outFrames += out;
      const t = theirs[fi];
      for (let b = 0; b < mine.bones.length; b++) {
        const d = Math.hypot(fr.p[3 * b] - t[3 * b], fr.p[3 * b + 1] - t[3 * b + 1], fr.p[3 * b + 2] - t[3 * b + 2]);
        const kind = !mine.ikAffected[b] ? 'fk' : out ? 'out' : 'ik';
        if (!(d <= worst[kind][0])) worst[kind] = [d, fr.f, mine.bones[b]];
      }
    });
    const fmt = ([d, f, name]) => (name ? `${d.toExponential(2)} (frame ${f}, ${name})` : '0');
    console.log(`${c.motion} on ${c.model}: ${mine.frames.length} frames (${outFrames} with an IK target out of reach),`
      + ` ${mine.bones.length} bones, ${mine.unmatchedBones} unmatched names; max error FK ${fmt(worst.fk)},`
      + ` IK ${fmt(worst.ik)}, IK out of reach ${fmt(worst.out)}`);
    assert.ok(worst.fk[0] <= FK_TOL, `FK error ${fmt(worst.fk)}`);
    assert.ok(worst.ik[0] <= IK_TOL, `IK error ${fmt(worst.ik)}`);
    assert.ok(worst.out[0] <= OUT_OF_REACH_TOL, `out-of-reach IK error ${fmt(worst.out)}`);
  });
}
