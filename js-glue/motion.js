// procmotion's 'motion' feature module (procmotion-motion.wasm): models (PMX/PMD skeletons, humanoid
// mapping, the mannequin), the rig analysis, pose evaluation with MMD IK, the groove and tracing. index.js imports this
// file on the first pm.loadAsync('motion') (all.js at startup) and puts `api` on the ProcMotion.
import { grooveMethods } from './groove.js';
import { modelMethods } from './pose.js';
import { rigMethods } from './rig.js';
import { tracingMethods } from './tracing.js';

export { Groove } from './groove.js';
export { PoseEvaluator } from './pose.js';
export { Timeline } from './tracing.js';

export const api = { ...modelMethods, ...rigMethods, ...grooveMethods, ...tracingMethods };
