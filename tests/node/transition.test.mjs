// Mode changes without a pop: transitions idle -> catwalk -> idle on every model of the iteration,
// played by babylon-mmd 1.3: the transition starts where the outgoing motion was and ends where the
// incoming one goes on, no ankle goes below the ground, and the planted feet hold (the report, measured
// with the MMD-exact evaluator).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { createPlayer } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const NAMES = ['左足首', '右足首', '左手首', '右手首', '頭', '下半身'];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

test('transitions idle <-> catwalk hold on every zoo model and fixture as babylon-mmd plays them', { skip: zooSkip(), timeout: 600_000 }, async (t) => {
  const worst = { start: 0, end: 0, below: 0, slide: 0, error: 0 };
  let count = 0, steps = 0;
  for (const m of everyModel(pm)) {
    const bytes = m.bytes();
    const sk = pm.readPmx(bytes);
    const ground = Object.fromEntries(['左足首', '右足首'].map((n) => [n, sk.bones.find((b) => b.name === n).position[1]]));
    const idle = pm.generateIdleVmd({}, 120, null, null, { skeleton: bytes });
    const walk = pm.generateCatwalkVmd({}, 120, null, null, { skeleton: bytes });
    const player = await createPlayer(m);
    try {
      for (const [from, to, fromFrame] of [[idle, walk, 333], [walk, idle, 47], [walk, idle, 150]]) {
        const tr = pm.bakeTransition(from.vmd, to.vmd, bytes, { fromFrame, toFrame: 0, frames: 30, toLoopFrames: to.loopFrames });
        const where = `${m.id} ${from === idle ? 'idle -> catwalk' : 'catwalk -> idle'} at ${fromFrame}`;
        assert.equal(tr.frames, 30);
        assert.equal(tr.nextFrame, 30);
        const frames = Array.from({ length: 31 }, (_, i) => i);
        const played = await player.play(tr.vmd, NAMES, frames);
        const before = await player.play(from.vmd, NAMES, [fromFrame]);
        const after = await player.play(to.vmd, NAMES, [tr.nextFrame]);
        for (const name of NAMES) {
          worst.start = Math.max(worst.start, dist(played.at(0, name), before.at(0, name)));
          worst.end = Math.max(worst.end, dist(played.at(30, name), after.at(0, name)));
        }
        for (const ankle of ['左足首', '右足首'])
          for (let i = 0; i <= 30; i++) worst.below = Math.max(worst.below, ground[ankle] - played.at(i, ankle)[1]);
        worst.slide = Math.max(worst.slide, tr.report.landing.maxSlide);
        worst.error = Math.max(worst.error, tr.report.landing.maxError);
        assert.ok(worst.start < 0.02 && worst.end < 0.02, `${where}: the ends are ${worst.start.toFixed(4)} and ${worst.end.toFixed(4)} off`);
        assert.ok(worst.below <= 0.005, `${where}: an ankle goes ${worst.below.toFixed(4)} below the ground`);
        assert.ok(worst.slide <= 0.003, `${where}: a planted foot slides ${worst.slide.toFixed(4)} in a frame`);
        assert.ok(worst.error <= 0.01, `${where}: the ankles are ${worst.error.toFixed(4)} off their plan`);
        steps += tr.report.steps;
        count++;
      }
    } finally {
      player.dispose();
    }
  }
  t.diagnostic(`${count} transitions (${steps} steps): the ends within ${worst.start.toFixed(4)} / ${worst.end.toFixed(4)} of the motions, ` +
    `ankles at most ${worst.below.toFixed(4)} below the ground, planted slide ${worst.slide.toFixed(4)}/frame, ankles within ${worst.error.toFixed(4)} of the plan`);
});

test('bakeTransition checks its arguments', () => {
  const idle = pm.generateIdleVmd({}, null, null, null);
  const bytes = pm.mannequinPmx();
  assert.throws(() => pm.bakeTransition(idle.vmd, idle.vmd, bytes, { frames: 2 }), { code: 'PM_ERR_INVALID_ARGUMENT', message: 'transition: frames must be in [4, 300], got 2' });
  assert.throws(() => pm.bakeTransition(idle.vmd, idle.vmd, bytes, { fromFrame: -1 }), { message: 'bakeTransition: fromFrame must be a frame >= 0, got -1' });
  assert.throws(() => pm.bakeTransition(idle.vmd, new Uint8Array(10), bytes), { code: 'PM_ERR_BAD_FORMAT', message: 'vmd: not a VMD file (no "Vocaloid Motion Data" header)' });
  const same = pm.bakeTransition(idle.vmd, idle.vmd, bytes, { fromFrame: 100, toFrame: 100, toLoopFrames: idle.loopFrames });
  assert.equal(same.report.steps, 0, 'into the same pose: no step');
});

test('playTransition in babylon-mmd: the transition plays, the next motion takes over from its frame and loops, no jump',
  { skip: zooSkip(), timeout: 120_000 }, async () => {
    const { createMmdScene, disposeMmdScene, loadBabylonMmd, boneIndex } = await import('./support/babylon.mjs');
    const { createIdleAnimationAsync, createTransitionAnimationAsync, loadVmdAnimationAsync, playTransition } = await import('../../js-glue/babylon.js');
    const bytes = pm.mannequinPmx();
    const ctx = await createMmdScene(bytes);
    try {
      const { VmdLoader } = await loadBabylonMmd();
      const idle = await createIdleAnimationAsync(pm, ctx.model, {}, null, { VmdLoader, modelBytes: bytes });
      const walk = pm.generateCatwalkVmd({}, 120, null, null, { skeleton: bytes });
      const { animation, result } = await createTransitionAnimationAsync(pm, bytes, idle.result.vmd, walk.vmd,
        { fromFrame: 200, frames: 30, toLoopFrames: walk.loopFrames, VmdLoader });
      const next = await loadVmdAnimationAsync(walk.vmd, { VmdLoader });
      const play = playTransition(ctx.runtime, ctx.model, animation, next, { frames: result.frames, nextFrame: result.nextFrame, loopFrames: walk.loopFrames });
      await ctx.runtime.playAnimation();
      const head = boneIndex(ctx, '頭'), step = 1;
      const times = [], ys = [];
      for (let tick = 0; tick < 30 + 2 * walk.loopFrames; tick++) {
        ctx.runtime.beforePhysics((step / 30) * 1000);
        ctx.runtime.afterPhysics();
        await new Promise((ok) => setImmediate(ok));
        times.push(ctx.runtime.currentFrameTime);
        const w = ctx.model.worldTransformMatrices;
        ys.push([w[16 * head + 12], w[16 * head + 13], w[16 * head + 14]]);
      }
      assert.ok(times.slice(40).every((t) => t >= 0 && t < walk.loopFrames), 'the walk loops once it took over');
      let jump = 0;
      for (let i = 1; i < ys.length; i++) jump = Math.max(jump, Math.hypot(ys[i][0] - ys[i - 1][0], ys[i][1] - ys[i - 1][1], ys[i][2] - ys[i - 1][2]));
      assert.ok(jump < 0.5, `the head moves at most ${jump.toFixed(3)} in a frame`);
      play.dispose();
    } finally {
      disposeMmdScene(ctx);
    }
  });
