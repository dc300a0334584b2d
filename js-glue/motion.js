// procmotion's 'motion' feature module (procmotion-motion.wasm): models (PMX/PMD skeletons, humanoid
// mapping, the mannequin), the rig analysis, pose evaluation with MMD IK, the groove, tracing, the idle and
// the lifelike layer. index.js imports this
// file on the first pm.loadAsync('motion') (all.js at startup) and puts `api` on the ProcMotion.
import { grooveMethods } from './groove.js';
import { danceMethods } from './dance.js';
import { idleMethods } from './idle.js';
import { lifelikeMethods } from './lifelike.js';
import { modelMethods } from './pose.js';
import { rigMethods } from './rig.js';
import { tracingMethods } from './tracing.js';
import { transitionMethods } from './transition.js';

export { Groove } from './groove.js';
export { Lifelike } from './lifelike.js';
export { PoseEvaluator } from './pose.js';
export { Timeline } from './tracing.js';

export const api = { ...modelMethods, ...rigMethods, ...grooveMethods, ...tracingMethods, ...idleMethods, ...danceMethods, ...lifelikeMethods, ...transitionMethods };
