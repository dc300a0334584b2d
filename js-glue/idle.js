// The idle generator: a character standing at ease as a looping VMD, landed and measured on the model.
//
//   await pm.loadAsync('motion');
//   const { vmd, loopFrames, report, body } = pm.generateIdleVmd({ bodySway: 0.7 }, 120, null, null, { skeleton: pmxBytes });
//
// Part of procmotion's 'motion' feature module (motion.js puts idleMethods on a ProcMotion).
import * as M from './dist/abi-motion.js';
import { IDLE_PARAMETERS } from './constants.js';
import { generateOnModel, stateParams } from './generator.js';
import { gridOf, invalid } from './runtime.js';

export const idleMethods = {
  /**
   * A looping idle: `{ vmd, loopFrames, events, usedBones, missingBones, plan, report, body, ... }`. The
   * arguments are generateCatwalkVmd's: `state` carries the parameters, `bpm` a tempo, a beat grid or
   * null, the name lists come from the model, `options.skeleton` is the model as PMX/PMD bytes or
   * readPmx's skeleton (the feet landed on it, `report` and `body` measured on it) or `{ names?,
   * positions, parents? }`; with no model at all, the standard figure on the mannequin.
   */
  generateIdleVmd(state, bpm, morphNames, boneNames, options = {}) {
    const params = stateParams(state, IDLE_PARAMETERS, 'idle', 'generateIdleVmd', invalid);
    if (typeof bpm === 'number') params.bpm = bpm;
    const grid = bpm !== null && typeof bpm === 'object' ? gridOf(bpm, undefined, 'idle') : null;
    return generateOnModel(this, {
      module: 'idle', method: 'generateIdleVmd', exportName: 'pm_abi_idle_generate', slots: M.IDLE_COUNT,
      params, grid, morphNames, boneNames, options,
    });
  },
};
