// Idle generation through the glue (wasm): the default loop on the mannequin, with a BPM and gestures,
// and on yw_test_model's skeleton; every one landed and measured (the feet, then the whole body).
import { existsSync, readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const CASES = {
  default: [{}, null, 'default loop (32 s, own pace)'],
  beat120: [{ gestureFrequency: 1 }, 120, '120 BPM, a gesture every 8 s'],
};

const describe = (label, r) =>
  `${label}: ${r.loopFrames} frames, ${r.keyCount + r.morphKeyCount} keys, ${r.vmd.byteLength} bytes, landed and measured ` +
  `(feet within ${r.report.maxError.toFixed(4)}, hands ${Math.min(r.body.hands.left.clearance, r.body.hands.right.clearance).toFixed(2)} clear)`;

export const impls = {
  async 'procmotion wasm'(input) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    if (input && existsSync(input)) {
      const skeleton = pm.readPmx(new Uint8Array(readFileSync(input)));
      const r = pm.generateIdleVmd({}, null, null, null, { skeleton });
      return { items: r.loopFrames, unit: 'frames', label: describe('default loop on yw_test_model', r),
               run: () => pm.generateIdleVmd({}, null, null, null, { skeleton }) };
    }
    const [state, bpm, label] = CASES[input ?? 'default'];
    const r = pm.generateIdleVmd(state, bpm, null, null);
    return { items: r.loopFrames, unit: 'frames', label: describe(label, r), run: () => pm.generateIdleVmd(state, bpm, null, null) };
  },
};
