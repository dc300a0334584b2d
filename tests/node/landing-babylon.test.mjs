// babylon-mmd confirms the closed loop (docs/landing.md) on the shared fixtures and a few
// zoo models (the C sweep, tests/c/test_landing.c, covers every model with our evaluator): the catwalk's
// played ankles are on result.plan.ankles, and every figure of result.report (max and RMS error,
// penetration, stance reach, pivot slide) is what babylon-mmd's own runtime shows, within 1e-3; the
// groove bake's maxFootError likewise.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createProcMotion } from '../../js-glue/index.js';
import { createMmdScene, disposeMmdScene, evaluateFrame, fixturesAvailable, setMotion } from './support/babylon.mjs';
import { createPlayer } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: ['motion'] }); // the models and the evaluator are the motion module's
// the fixtures, and zoo models with what real models do: knees resting bent 31°, 足ＩＫ below the
// ankle, a modern rig (足IK親, 腰キャンセル, D bones), an old PMD (babylon-mmd's PMD knee limit)
const PICK = new Set(['yw_test_model', 'mmt_test_model', 'knee31', 'ikdrop', 'realpmx', 'realpmd', 'scale2-pmd']);
const models = () => everyModel(pm, { mannequin: false }).filter((m) => PICK.has(m.id));
const SKIP = zooSkip() || (!fixturesAvailable() && 'needs ../shared/fixtures');

/** Per frame 0..last: each limb's ankle position and world matrix, as babylon-mmd plays the VMD. */
async function playAnkles(ctx, vmd, names, last) {
  await setMotion(ctx, vmd);
  const idx = names.map((n) => ctx.boneNames.indexOf(n));
  const frames = [];
  for (let f = 0; f <= last; f++) {
    const w = await evaluateFrame(ctx, f);
    frames.push(idx.map((i) => Float64Array.from(w.subarray(16 * i, 16 * i + 16))));
  }
  return frames;
}

const pointOf = (m, off) => [0, 1, 2].map((k) => m[k] * off[0] + m[4 + k] * off[1] + m[8 + k] * off[2] + m[12 + k]);
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** The report's figures, measured from babylon-mmd's matrices (the definitions of landing.h). */
function measure(frames, plan) {
  const out = { maxError: 0, sumSq: 0, n: 0, penetration: 0, maxSlide: 0 };
  for (let s = 0; s < 2; s++) {
    let last = null;
    frames.forEach((ms, f) => {
      const m = ms[s], p = [m[12], m[13], m[14]];
      const d = dist(p, plan.ankles.subarray(6 * f + 3 * s, 6 * f + 3 * s + 3));
      out.maxError = Math.max(out.maxError, d);
      out.sumSq += d * d, out.n++;
      out.penetration = Math.max(out.penetration, plan.floor[s] - p[1]);
      const c = plan.contact[2 * f + s];
      if (c === 0) {
        last = null;
        return;
      }
      const pivot = pointOf(m, c === 1 ? plan.heel[s] : c === 3 ? plan.ball[s] : [0, 0, 0]);
      if (last && last.c === c) out.maxSlide = Math.max(out.maxSlide, dist(pivot, last.pivot));
      last = { c, pivot };
    });
  }
  out.rmsError = Math.sqrt(out.sumSq / out.n);
  return out;
}

test('babylon-mmd plays the catwalk on its plan, and the report is what it shows', { skip: SKIP }, async (t) => {
  const lines = [];
  for (const m of models()) {
    const bytes = m.bytes();
    const ctx = await createMmdScene(bytes, { extension: m.extension });
    try {
      const cases = [[{ stepCadence: 'beat' }, 128], [{ traverse: true }, 60]];
      if (m.kind === 'fixture') cases.push([{ uTurn: true }, 200]);
      for (const [state, bpm] of cases) {
        const r = pm.generateCatwalkVmd(state, bpm, null, null, { skeleton: bytes });
        const what = `${m.id} ${JSON.stringify(state)} ${bpm} BPM`;
        assert.equal(r.report.model, 'model', what);
        const names = [r.report.limbs.left.bone, r.report.limbs.right.bone];
        const played = await playAnkles(ctx, r.vmd, names, r.loopFrames);
        const got = measure(played, r.plan);
        assert.ok(got.maxError < 0.01, `${what}: babylon-mmd's ankles ${got.maxError} from the plan`);
        assert.ok(got.penetration < 0.01, `${what}: ${got.penetration} below the standing height`);
        if (state.traverse) assert.ok(got.maxSlide < 0.005, `${what}: the stance pivot slides ${got.maxSlide}`);
        for (const k of ['maxError', 'rmsError', 'maxSlide']) {
          assert.ok(Math.abs(got[k] - r.report[k]) < 1e-3, `${what}: ${k} ${r.report[k]}, babylon-mmd ${got[k]}`);
        }
        assert.ok(Math.abs(Math.max(0, got.penetration) - r.report.penetration) < 1e-3, `${what}: penetration`);
        lines.push(`${what}: error ${got.maxError.toFixed(4)} (report ${r.report.maxError.toFixed(4)}), slide ${got.maxSlide.toFixed(4)}, IK off ${r.report.ikOffFrames} frames`);
      }
    } finally {
      disposeMmdScene(ctx);
    }
  }
  for (const l of lines) t.diagnostic(l);
});

test('babylon-mmd keeps the groove bake\'s feet on their anchors; maxFootError is what it shows', { skip: SKIP }, async (t) => {
  for (const m of models().filter((x) => ['yw_test_model', 'knee31', 'realpmd'].includes(x.id))) {
    const bytes = m.bytes();
    const { vmd, report } = pm.bakeGroove(null, bytes, null, 128);
    const ctx = await createMmdScene(bytes, { extension: m.extension });
    try {
      const names = [report.landing.limbs.left.bone, report.landing.limbs.right.bone];
      const player = await createPlayer(m); // the rest pose as babylon-mmd plays it (IK on): the anchors
      const still = await player.play(null, names, [0]);
      player.dispose();
      const rest = names.map((_, s) => still.positions.subarray(3 * s, 3 * s + 3));
      const played = await playAnkles(ctx, vmd, names, report.frames);
      let worst = 0;
      for (const ms of played) ms.forEach((w, s) => (worst = Math.max(worst, dist([w[12], w[13], w[14]], rest[s]))));
      assert.ok(worst < 0.01, `${m.id}: babylon-mmd's ankles ${worst} off their anchors`);
      assert.ok(Math.abs(worst - report.maxFootError) < 1e-3, `${m.id}: maxFootError ${report.maxFootError}, babylon-mmd ${worst}`);
      t.diagnostic(`${m.id}: groove ankles within ${worst.toExponential(2)} of their anchors (report ${report.maxFootError.toExponential(2)}), IK off ${report.landing.ikOffFrames} frames, body ${report.crouch.toFixed(4)} lower`);
    } finally {
      disposeMmdScene(ctx);
    }
  }
});
