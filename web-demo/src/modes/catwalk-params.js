// The catwalk parameters as the panel shows them: one row per parameter of
// pm.generateCatwalkVmd's `state` (js-glue CATWALK_PARAMETERS, docs/catwalk.md, catwalk.h), with
// its default and range. `when` hides a row that has no effect in the current settings.
//
// type: 'range' (min, max, step, unit, zero: i18n key shown for 0), 'select' (options), 'toggle'.
// group: 'style' and 'advanced' rows sit in collapsible blocks (the panel stays short).
// poseShoulder / poseElbow travel as state.poseArmAngle = { shoulder, elbow } (see catwalk.js).

export const CATWALK_PARAMS = [
  { key: 'style', type: 'select', options: ['runway', 'feminine', 'casual', 'strut'], default: 'runway' },
  { key: 'hipSway', type: 'range', min: 0, max: 1, step: 0.01, default: 0.6 },
  { key: 'stepHeight', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'stepCadence', type: 'select', options: ['beat', '2beat'], default: '2beat' },
  { key: 'armPose', type: 'select', options: ['swing', 'posed'], default: 'swing' },
  { key: 'armSwing', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5, when: (v) => v.armPose === 'swing' },
  { key: 'elbowBend', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5, when: (v) => v.armPose === 'swing' },
  { key: 'poseShoulder', type: 'range', min: 0, max: 90, step: 1, unit: '°', default: 70,
    when: (v) => v.armPose === 'posed' },
  { key: 'poseElbow', type: 'range', min: 0, max: 150, step: 1, unit: '°', default: 30,
    when: (v) => v.armPose === 'posed' },
  { key: 'traverse', type: 'toggle', default: false },
  { key: 'uTurn', type: 'toggle', default: false, when: (v) => v.traverse },
  { key: 'traverseDistance', type: 'range', min: 0, max: 120, step: 1, default: 0, zero: 'p.auto',
    when: (v) => v.traverse },

  { key: 'stride', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'crossStep', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.55 },
  { key: 'hipTwist', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'pelvisDrop', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'torsoTwist', group: 'style', type: 'range', min: -1, max: 1, step: 0.01, default: 0.5 },
  { key: 'torsoSway', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.15 },
  { key: 'lean', group: 'style', type: 'range', min: -1, max: 1, step: 0.01, default: -0.1 },
  { key: 'headFollow', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.3 },
  { key: 'toeOff', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'heelStrike', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.4 },
  { key: 'bob', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'stanceKnee', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.3 },
  { key: 'blink', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 1 },
  { key: 'expression', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.25 },

  { key: 'positionTolerance', group: 'advanced', type: 'range', min: 0.001, max: 0.1, step: 0.001, default: 0.01 },
  { key: 'rotationTolerance', group: 'advanced', type: 'range', min: 0.05, max: 2, step: 0.05, unit: '°', default: 0.2 },
  { key: 'seed', group: 'advanced', type: 'range', min: 1, max: 99, step: 1, default: 1 },
];

/** Speed (used only without a BPM: the tempo is then 120 x speed BPM). */
export const SPEED_PARAM = { key: 'speed', type: 'range', min: 0.5, max: 1.66, step: 0.01, default: 1 };

export const GROUPS = ['style', 'advanced'];

export function catwalkDefaults() {
  return Object.fromEntries(CATWALK_PARAMS.map((p) => [p.key, p.default]));
}

/**
 * The panel's values for a style: the amounts as the catwalk fills them for that style (`used`: a
 * generateCatwalkVmd result's params), the rest of `values` (cadence, arms, traverse, tolerances) kept.
 */
export function styleValues(values, style, used) {
  const out = { ...values, style };
  for (const p of CATWALK_PARAMS) {
    if (p.type !== 'range' || p.group === 'advanced' || p.key === 'traverseDistance') continue;
    if (p.key === 'poseShoulder' || p.key === 'poseElbow') out[p.key] = used.poseArmAngle[p.key === 'poseShoulder' ? 'shoulder' : 'elbow'];
    else if (typeof used[p.key] === 'number') out[p.key] = used[p.key];
  }
  return out;
}
