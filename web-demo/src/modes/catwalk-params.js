// The catwalk parameters as the panel shows them: one row per parameter of
// pm.generateCatwalkVmd's `state` (see docs/catwalk.md and js-glue/index.d.ts), with its default
// and range. `when` hides a row that has no effect in the current settings.
//
// type: 'range' (min, max, step, unit), 'select' (options), 'toggle'. group: 'style' rows sit in a
// collapsible block (the panel stays short); the others are always shown.

export const CATWALK_PARAMS = [
  { key: 'hipSway', type: 'range', min: 0, max: 1, step: 0.01, default: 0.6 },
  { key: 'stepHeight', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'stepCadence', type: 'select', options: ['beat', '2beat'], default: '2beat' },
  { key: 'armPose', type: 'select', options: ['swing', 'posed'], default: 'swing' },
  { key: 'poseShoulder', type: 'range', min: 0, max: 60, step: 1, unit: '°', default: 20,
    when: (v) => v.armPose === 'posed' },
  { key: 'poseElbow', type: 'range', min: 0, max: 90, step: 1, unit: '°', default: 15,
    when: (v) => v.armPose === 'posed' },
  { key: 'strideLength', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'crossStep', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.6 },
  { key: 'hipTwist', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.4 },
  { key: 'pelvisDrop', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.4 },
  { key: 'torsoTwist', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.3 },
  { key: 'lean', group: 'style', type: 'range', min: -1, max: 1, step: 0.01, default: 0 },
  { key: 'headFollow', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.2 },
  { key: 'toeOff', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'heelStrike', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'bodyBob', group: 'style', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'traverse', type: 'toggle', default: false },
  { key: 'uTurn', type: 'toggle', default: false, when: (v) => v.traverse },
  { key: 'traverseDistance', type: 'range', min: 5, max: 60, step: 1, default: 20, when: (v) => v.traverse },
];

/** Speed (used only without a BPM, as the ADR's state.speed). */
export const SPEED_PARAM = { key: 'speed', type: 'range', min: 0.25, max: 2, step: 0.05, default: 1 };

export function catwalkDefaults() {
  return Object.fromEntries(CATWALK_PARAMS.map((p) => [p.key, p.default]));
}
