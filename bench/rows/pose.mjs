// Pose evaluation: every bone of yw_test_model.pmx with IK on, every whole frame from 0 to the last
// key of a motion (one run = the whole motion). Ours through the glue (PoseEvaluator.positions: one
// ABI call evaluates every frame and copies the world positions out), against babylon-mmd 1.3's JS
// MmdRuntime and its MmdWasmRuntime (single-threaded release build) under NullEngine, physics off,
// driven as a rendered scene is: seekAnimation(f, true), beforePhysics(0), afterPhysics(), then the
// world positions read from worldTransformMatrices into a Float32Array (the same output as ours).
// Loading the model and binding the motion happen outside the timing for every implementation.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import {
  createMmdScene, createMmdWasmScene, FIXTURES, setMotion,
} from '../../tests/node/support/babylon.mjs';

export const MODEL = join(FIXTURES, 'pmx/yw_test_model/yw_test_model.pmx');
const label = (path) => `${basename(path)} on yw_test_model.pmx`;

async function peer(create, path) {
  const ctx = await create(new Uint8Array(readFileSync(MODEL)));
  const anim = await setMotion(ctx, new Uint8Array(readFileSync(path)));
  // the same frame count as ours: 0 .. the last key of the motion (babylon-mmd clamps seeks there)
  const frames = Math.round(ctx.runtime.animationFrameTimeDuration ?? anim.endFrame) + 1;
  const n = ctx.boneNames.length;
  const out = new Float32Array(frames * n * 3);
  const run = () => {
    for (let f = 0; f < frames; f++) {
      // seekAnimation is async only for its audio player: without one it evaluates synchronously, so the
      // promise is not awaited (an await per frame would time the microtask queue too).
      ctx.runtime.seekAnimation(f, true);
      ctx.runtime.beforePhysics(0);
      ctx.runtime.afterPhysics();
      const w = ctx.model.worldTransformMatrices;
      const o = f * n * 3;
      for (let i = 0; i < n; i++) {
        out[o + 3 * i] = w[16 * i + 12];
        out[o + 3 * i + 1] = w[16 * i + 13];
        out[o + 3 * i + 2] = w[16 * i + 14];
      }
    }
    return out;
  };
  return { items: frames, unit: 'frames', label: label(path), run };
}

export const impls = {
  async 'procmotion wasm'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const ev = pm.createPoseEvaluator(new Uint8Array(readFileSync(path)), new Uint8Array(readFileSync(MODEL)));
    const frames = ev.info.lastFrame + 1;
    return { items: frames, unit: 'frames', label: label(path), run: () => ev.positions(0, frames) };
  },
  'babylon-mmd MmdRuntime (JS)': (path) => peer(createMmdScene, path),
  'babylon-mmd MmdWasmRuntime': (path) => peer(createMmdWasmScene, path),
};
