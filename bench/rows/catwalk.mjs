// Catwalk generation through the glue (wasm): the default loop, 128 BPM one step per beat, a U-turn,
// and the default loop on yw_test_model's skeleton (names + rest positions from readPmx).
import { existsSync, readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const CASES = {
  default: [{}, null, 'default loop (in place, 120 BPM 2beat)'],
  beat128: [{ stepCadence: 'beat' }, 128, '128 BPM beat'],
  uturn: [{ uTurn: true }, null, 'U-turn'],
};

// the same label as the native row: frames, keys (bone, morph, property), VMD bytes, and the closed loop
// (docs/landing.md): the legs landed on the model (on the mannequin without one) and the result played
// and measured; the names-only implementation has no skeleton to land on, so it shows the cost without
const describe = (label, r) =>
  `${label}: ${r.loopFrames} frames, ${r.keyCount + r.morphKeyCount + r.propertyKeyCount} keys, ${r.vmd.byteLength} bytes, `
  + (r.report ? `verified on the ${r.report.model === 'mannequin' ? 'mannequin' : 'model'} (max error ${r.report.maxError.toFixed(4)})` : 'not verified');
const STANDARD_NAMES = ['センター', 'グルーブ', '腰', '下半身', '上半身', '上半身2', '首', '頭', '左肩', '右肩', '左腕', '右腕', '左ひじ', '右ひじ',
  '左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ'];

export const impls = {
  async 'procmotion wasm'(input) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    if (input && existsSync(input)) {
      const skeleton = pm.readPmx(new Uint8Array(readFileSync(input)));
      const r = pm.generateCatwalkVmd({}, null, null, null, { skeleton });
      return { items: r.loopFrames, unit: 'frames', label: describe('default loop on yw_test_model', r),
               run: () => pm.generateCatwalkVmd({}, null, null, null, { skeleton }) };
    }
    const [state, bpm, label] = CASES[input ?? 'default'];
    const r = pm.generateCatwalkVmd(state, bpm, null, null);
    return { items: r.loopFrames, unit: 'frames', label: describe(label, r), run: () => pm.generateCatwalkVmd(state, bpm, null, null) };
  },
  async 'procmotion wasm, names only (no landing)'(input) {
    const pm = await createProcMotion();
    const [state, bpm, label] = CASES[input ?? 'default'] ?? CASES.default;
    const r = pm.generateCatwalkVmd(state, bpm, null, STANDARD_NAMES);
    return { items: r.loopFrames, unit: 'frames', label: describe(label, r),
             run: () => pm.generateCatwalkVmd(state, bpm, null, STANDARD_NAMES) };
  },
};
