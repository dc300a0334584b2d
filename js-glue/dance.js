// The dance generator: a dance to a song's beats (a detectBeats result), or a looping dance at a BPM,
// landed and measured on the model.
//
//   await pm.loadAsync('motion');
//   const beats = pm.detectBeats(samples, sampleRate);
//   const { vmd, frames, phrases, report, body } = pm.generateAutoDanceVmd({ energy: 0.7 }, beats, null, null, { skeleton: pmxBytes });
//
// Part of procmotion's 'motion' feature module (motion.js puts danceMethods on a ProcMotion).
import * as M from './dist/abi-motion.js';
import { DANCE_PARAMETERS } from './constants.js';
import { generateOnModel, stateParams } from './generator.js';
import { gridOf, invalid } from './runtime.js';

export const danceMethods = {
  /**
   * A dance: `{ vmd, frames, loopFrames, bpm, phrases, distinctPhrases, usedBones, missingBones, plan,
   * report, body, sync, ... }`. The arguments are generateCatwalkVmd's: `state` carries the parameters (`state.dance.X`,
   * `state.danceX` or `state.X`), `bpmOrBeats` is a detectBeats result (the dance lasts the whole song,
   * its energy from the onset envelope), a beat grid, a BPM or null (a seamless loop at 120), the name
   * lists come from the model, `options.skeleton` is the model as PMX/PMD bytes or readPmx's skeleton (the
   * feet landed on it, `report` and `body` measured on it); with no model at all, the standard figure.
   */
  generateAutoDanceVmd(state, bpmOrBeats, morphNames, boneNames, options = {}) {
    const params = stateParams(state, DANCE_PARAMETERS, 'dance', 'generateAutoDanceVmd', invalid);
    if (typeof bpmOrBeats === 'number') params.bpm = bpmOrBeats;
    const isObject = bpmOrBeats !== null && typeof bpmOrBeats === 'object';
    const grid = isObject ? gridOf(bpmOrBeats, undefined, 'dance') : null;
    const onset = isObject && bpmOrBeats.onsetEnvelope instanceof Float32Array && bpmOrBeats.onsetRate > 0 ? bpmOrBeats : null;
    return generateOnModel(this, {
      module: 'dance', method: 'generateAutoDanceVmd', exportName: 'pm_abi_dance_generate', slots: M.DANCE_COUNT,
      params, grid, morphNames, boneNames, options,
      outSlots: M.DANCE_OUT_COUNT,
      take: (at, result) => {
        const ankles = this._takeArray(Float32Array, at(M.DANCE_OUT_PLAN));
        const contact = this._takeArray(Uint8Array, at(M.DANCE_OUT_CONTACT));
        result.plan = { ...result.plan, beats: Float64Array.from(result.plan?.beats ?? []), ankles, contact };
      },
      extra: onset && ((s, d) => {
        d[M.DANCE_ONSET] = s.put(onset.onsetEnvelope, Float32Array);
        d[M.DANCE_ONSET_COUNT] = onset.onsetEnvelope.length;
        d[M.DANCE_ONSET_MILLIRATE] = Math.round(onset.onsetRate * 1000);
      }),
    });
  },
};
