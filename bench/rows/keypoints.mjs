// Motion -> MediaPipe Pose 33 keypoints (parse, evaluate every frame, retarget, angles): procmotion's
// wasm through the glue. The seed's TypeScript pipeline (seeds/002) is the reference for the rate:
// 2901 leg-IK frames in ~0.4 s and 4604 FK frames in ~2.5 s on its samples.
import { readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

export const impls = {
  async 'procmotion wasm'(path) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const bytes = new Uint8Array(readFileSync(path));
    const kp = pm.toKeypoints(bytes);
    return { items: kp.frameCount, unit: 'frames', run: () => pm.toKeypoints(bytes) };
  },
};
