// Retargeting through the glue (wasm): a CMU mocap BVH (120 fps, 8.3 s) onto the built-in mannequin and
// onto yw_test_model, read, mapped, keyed, the feet landed and the body measured; the same clip written as
// a binary FBX (zlib arrays) onto the mannequin; beside them the clip turned into keypoints (a pass over
// the same source that evaluates every frame, for scale).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { bvhToFbx, parseBvh } from '../../tests/node/support/fbx-writer.mjs';

const describe = (label, r) =>
  `${label}: ${r.report.frames} frames at 30 fps, ${r.report.keyCount} keys, feet slide ${r.report.feet.maxSlide.toFixed(4)}, ` +
  `${((r.report.frames / 30) / 60).toFixed(2)} min of motion`;

export const impls = {
  async 'procmotion wasm, onto the mannequin'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const bytes = new Uint8Array(readFileSync(path));
    const r = pm.retargetToVmd(bytes);
    return { items: r.report.frames, unit: 'frames', label: describe('onto the mannequin', r), run: () => pm.retargetToVmd(bytes) };
  },
  async 'procmotion wasm, onto yw_test_model'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const fixtures = dirname(dirname(path)); // bvh/<clip> in the shared fixtures
    const bytes = new Uint8Array(readFileSync(path)), model = new Uint8Array(readFileSync(join(fixtures, 'pmx/yw_test_model/yw_test_model.pmx')));
    const r = pm.retargetToVmd(bytes, { model });
    return { items: r.report.frames, unit: 'frames', label: describe('onto yw_test_model', r), run: () => pm.retargetToVmd(bytes, { model }) };
  },
  async 'procmotion wasm, the clip as FBX onto the mannequin'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const bytes = bvhToFbx(parseBvh(readFileSync(path, 'utf8')));
    const r = pm.retargetToVmd(bytes);
    return { items: r.report.frames, unit: 'frames', label: describe(`FBX (${(bytes.byteLength / 1024).toFixed(0)} KB)`, r), run: () => pm.retargetToVmd(bytes) };
  },
  async 'toKeypoints of the same clip at 30 fps'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const bytes = new Uint8Array(readFileSync(path));
    const kp = pm.toKeypoints(bytes, { fps: 30 });
    return { items: kp.frameCount, unit: 'frames', run: () => pm.toKeypoints(bytes, { fps: 30 }) };
  },
};
