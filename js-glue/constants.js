// Constants of the public API, loaded with the entry point (no wasm needed): index.js re-exports them,
// the feature modules use them.
import { LIMB } from './dist/abi.js';

/** The 22 humanoid bones (VRM names) in the core's order (procmotion/humanoid.h). */
export const HUMANOID_BONES = Object.freeze([
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
]);

/** Parameter names the catwalk reads (C: pm_catwalk_params_from_json). */
export const CATWALK_PARAMETERS = Object.freeze([
  'speed', 'stepCadence', 'armPose', 'traverse', 'uTurn', 'traverseDistance', 'hipSway', 'stepHeight',
  'stride', 'crossStep', 'hipTwist', 'pelvisDrop', 'torsoTwist', 'torsoSway', 'lean', 'headStabilize',
  'toeOff', 'heelStrike', 'bob', 'stanceKnee', 'armSwing', 'poseArmAngle', 'blink', 'expression', 'seed',
  'positionTolerance', 'rotationTolerance',
]);

/** The groove joints in the core's order, with the MMD bone each one drives. */
export const GROOVE_JOINTS = Object.freeze([
  ['pelvis', '下半身'], ['spine', '上半身'], ['chest', '上半身2'], ['upperChest', '上半身3'], ['neck', '首'],
  ['head', '頭'], ['leftShoulder', '左肩'], ['rightShoulder', '右肩'], ['leftArm', '左腕'], ['rightArm', '右腕'],
  ['leftElbow', '左ひじ'], ['rightElbow', '右ひじ'],
].map(([name, bone]) => Object.freeze({ name, bone })));

/** Tracing limb names in the core's order (pm_limb). */
export const TRACE_LIMBS = Object.freeze(Object.keys(LIMB));

/** The named easings (MMD Bezier x1, y1, x2, y2), as the core's pm_easing_preset values. */
export const TRACE_EASINGS = Object.freeze({
  linear: Object.freeze([20, 20, 107, 107]),
  'ease-in': Object.freeze([53, 0, 127, 127]),
  'ease-out': Object.freeze([0, 0, 74, 127]),
  'ease-in-out': Object.freeze([53, 0, 74, 127]),
});

/** Which feature module holds which ProcMotion methods and properties (checked by tests/node/package.test.mjs). */
export const FEATURES = Object.freeze({
  motion: Object.freeze([
    'readPmx', 'mapHumanoid', 'mannequinPmx', 'analyzeRig', 'createPoseEvaluator', 'evaluatePose', 'solveTwoBoneIk',
    'grooveConfig', 'createGroove', 'grooveOffsets', 'bakeGroove', 'applyGrooveToVmd',
    'sampleTrajectory', 'trajectoryLength', 'createTimeline', 'timelineFromJSON',
  ]),
  keypoints: Object.freeze(['keypointNames', 'keypointAngleNames', 'toKeypoints', 'encodeKeypoints', 'keypointFeatures']),
  beats: Object.freeze([
    'detectBeats', 'createBeatTracker', 'beatGrid', 'beatGridTime', 'beatGridBeat', 'beatGridBpmAt', 'beatGridFromTaps',
    'createTapTempo', 'readWav', 'writeWav',
  ]),
  vrm: Object.freeze(['pmxToVrm']),
});

/** WAV sample encodings (procmotion/audio.h, pm_wav_encoding). */
export const WAV_ENCODINGS = Object.freeze(['default', 'pcm_u8', 'pcm_s16', 'pcm_s24', 'pcm_s32', 'float32', 'float64']);
