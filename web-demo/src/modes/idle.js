// Idle mode: a character standing at ease (pm.generateIdleVmd), landed on the loaded model, every
// parameter a labelled control with its default.
import { mountParamControls, paramDefaults } from '../ui.js';
import { modelSkeleton } from './model-skeleton.js';
import { registerMode } from './registry.js';

export const IDLE_PARAMS = [
  { key: 'intensity', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'speed', type: 'range', min: 0.25, max: 3, step: 0.05, default: 1 },
  { key: 'bodySway', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'headMovement', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'gestureFrequency', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'duration', type: 'range', min: 30, max: 120, step: 1, unit: ' s', default: 32 },
  { key: 'seed', type: 'range', min: 1, max: 99, step: 1, default: 1 },
];

export const idleDefaults = () => paramDefaults(IDLE_PARAMS);

registerMode({
  id: 'idle',
  order: 5,
  requires: (pm) => typeof pm.generateIdleVmd === 'function',
  mount: (container, app) => mountParamControls(container, app, 'idle', IDLE_PARAMS, 'i.'),
  generate(app) {
    const model = app.model;
    const skeleton = model.bytes instanceof Uint8Array || model.builtIn ? modelSkeleton(app) : model.skeleton;
    const r = app.pm.generateIdleVmd(app.idle ?? idleDefaults(), app.tempo?.() ?? app.bpm, model.morphNames, model.boneNames, { skeleton });
    return { ...r, name: `idle-${app.idle?.seed ?? 1}`, beatFrames: r.bpm > 0 ? 1800 / r.bpm : 0 };
  },
});
