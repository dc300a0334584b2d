// Constants of the public API, loaded with the entry point (no wasm needed): index.js re-exports them,
// the feature modules use them. Each is marked pure, so that a bundler that drops unused statements
// drops the ones an app never reads.

/** The 22 humanoid bones (VRM names) in the core's order (procmotion/humanoid.h). */
export const HUMANOID_BONES = /* @__PURE__ */ Object.freeze([
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
]);

/** Parameter names the catwalk reads (C: pm_catwalk_params_from_json). */
export const CATWALK_PARAMETERS = /* @__PURE__ */ Object.freeze([
  'style', 'speed', 'stepCadence', 'armPose', 'traverse', 'uTurn', 'traverseDistance', 'hipSway', 'stepHeight',
  'stride', 'crossStep', 'hipTwist', 'pelvisDrop', 'torsoTwist', 'torsoSway', 'lean', 'headFollow',
  'toeOff', 'heelStrike', 'bob', 'stanceKnee', 'armSwing', 'elbowBend', 'poseArmAngle', 'blink', 'expression', 'seed',
  'positionTolerance', 'rotationTolerance',
]);

/** Parameter names the idle reads (C: pm_idle_params_from_json). */
export const IDLE_PARAMETERS = /* @__PURE__ */ Object.freeze([
  'intensity', 'speed', 'bodySway', 'headMovement', 'gestureFrequency', 'duration', 'blink', 'seed',
  'positionTolerance', 'rotationTolerance',
]);

/** Parameter names the dance reads (C: pm_dance_params_from_json). */
export const DANCE_PARAMETERS = /* @__PURE__ */ Object.freeze([
  'energy', 'variety', 'arms', 'legs', 'body', 'duration', 'style', 'seed', 'positionTolerance', 'rotationTolerance',
]);

/** The groove joints in the core's order, with the MMD bone each one drives. */
export const GROOVE_JOINTS = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ [
  ['pelvis', '下半身'], ['spine', '上半身'], ['chest', '上半身2'], ['upperChest', '上半身3'], ['neck', '首'],
  ['head', '頭'], ['leftShoulder', '左肩'], ['rightShoulder', '右肩'], ['leftArm', '左腕'], ['rightArm', '右腕'],
  ['leftElbow', '左ひじ'], ['rightElbow', '右ひじ'],
].map(([name, bone]) => Object.freeze({ name, bone })));

/** Tracing limb names in the core's order (pm_limb; the keys of LIMB in dist/abi-motion.js, as
 * tests/node/package.test.mjs checks: spelled out here so that the entry does not load that file). */
export const TRACE_LIMBS = /* @__PURE__ */ Object.freeze(['leftHand', 'rightHand', 'leftFoot', 'rightFoot']);

/** The named easings (MMD Bezier x1, y1, x2, y2), as the core's pm_easing_preset values. */
export const TRACE_EASINGS = /* @__PURE__ */ Object.freeze({
  linear: /* @__PURE__ */ Object.freeze([20, 20, 107, 107]),
  'ease-in': /* @__PURE__ */ Object.freeze([53, 0, 127, 127]),
  'ease-out': /* @__PURE__ */ Object.freeze([0, 0, 74, 127]),
  'ease-in-out': /* @__PURE__ */ Object.freeze([53, 0, 74, 127]),
});

/** Which feature module holds which ProcMotion methods and properties (checked by tests/node/package.test.mjs). */
export const FEATURES = /* @__PURE__ */ Object.freeze({
  motion: /* @__PURE__ */ Object.freeze([
    'readPmx', 'mapHumanoid', 'mannequinPmx', 'analyzeRig', 'createPoseEvaluator', 'evaluatePose', 'solveTwoBoneIk',
    'grooveConfig', 'createGroove', 'grooveOffsets', 'bakeGroove',
    'sampleTrajectory', 'trajectoryLength', 'createTimeline', 'timelineFromJSON',
    'generateIdleVmd', 'generateAutoDanceVmd', 'lifelikeSettings', 'createLifelike', 'bakeLifelike', 'bakeTransition',
  ]),
  keypoints: /* @__PURE__ */ Object.freeze(['keypointNames', 'keypointAngleNames', 'toKeypoints', 'writeKeypoints', 'keypointFeatures', 'retargetToVmd', 'scoreDance', 'createDanceScorer']),
  beats: /* @__PURE__ */ Object.freeze([
    'detectBeats', 'createBeatTracker', 'beatGrid', 'beatGridTime', 'beatGridBeat', 'beatGridBpmAt', 'beatGridFromTaps',
    'createTapTempo', 'readWav', 'writeWav',
  ]),
  vrm: /* @__PURE__ */ Object.freeze(['pmxToVrm']),
});

/** WAV sample encodings (procmotion/audio.h, pm_wav_encoding). */
export const WAV_ENCODINGS = /* @__PURE__ */ Object.freeze(['default', 'pcm_u8', 'pcm_s16', 'pcm_s24', 'pcm_s32', 'float32', 'float64']);
