// Dance generation through the glue (wasm): a 16 s loop at 120 BPM on the mannequin, and a 4-minute
// song (a generated track with a tempo change, its beats and energy detected outside the timing) on
// the mannequin and on yw_test_model's skeleton; every one landed and measured (the feet, then the
// whole body).
import { existsSync, readFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { TRACKS, renderTrack } from '../../tests/data/gen-beat-tracks.mjs';

const describe = (label, r) =>
  `${label}: ${r.frames} frames, ${r.phrases.length} phrases (${r.distinctPhrases} distinct), ${r.keyCount} keys, landed and measured ` +
  `(feet within ${r.report.maxError.toFixed(4)}, hands ${Math.min(r.body.hands.left.clearance, r.body.hands.right.clearance).toFixed(2)} clear)`;

export const impls = {
  async 'procmotion wasm'(input) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    if (!input || input === 'loop') {
      const r = pm.generateAutoDanceVmd({}, 120, null, null);
      return { items: r.frames, unit: 'frames', label: describe('16 s loop at 120 BPM', r), run: () => pm.generateAutoDanceVmd({}, 120, null, null) };
    }
    const track = renderTrack(TRACKS.find((t) => t.id === 'ramp-90-130'), { seconds: 240 });
    const beats = pm.detectBeats(track.samples, track.sampleRate, { channels: track.channels });
    const options = existsSync(input) ? { skeleton: pm.readPmx(new Uint8Array(readFileSync(input))) } : {};
    const where = existsSync(input) ? 'on yw_test_model' : 'on the mannequin';
    const r = pm.generateAutoDanceVmd({}, beats, null, null, options);
    return { items: r.frames, unit: 'frames', label: describe(`a 4-minute song ${where}`, r),
             run: () => pm.generateAutoDanceVmd({}, beats, null, null, options) };
  },
};
