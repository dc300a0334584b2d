// The `state` argument of pm.generateCatwalkVmd from the panel's values (DOM-free: node tests it).

/** Panel values (modes/catwalk-params.js keys) and the speed -> generateCatwalkVmd's state. */
export function catwalkState(values, speed) {
  const { poseShoulder, poseElbow, ...rest } = values;
  return { ...rest, poseArmAngle: { shoulder: poseShoulder, elbow: poseElbow }, speed };
}
