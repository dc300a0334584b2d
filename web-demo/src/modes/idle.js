// Idle mode: a character standing at ease (pm.generateIdleVmd), landed on the loaded model, every
// parameter a labelled control with its default.
import { el, paramControl } from '../ui.js';
import { t } from '../i18n.js';
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

export const idleDefaults = () => Object.fromEntries(IDLE_PARAMS.map((p) => [p.key, p.default]));

registerMode({
  id: 'idle',
  order: 5,
  requires: (pm) => typeof pm.generateIdleVmd === 'function',
  mount(container, app) {
    app.idle ??= idleDefaults();
    const controls = IDLE_PARAMS.map((p) => paramControl(p, app.idle[p.key], (key, v) => {
      app.idle[key] = v;
      app.regenerate();
    }, 'i.'));
    const resetAll = el('button', { type: 'button', class: 'link-button', dataset: { i18n: 'p.resetAll' } }, t('p.resetAll'));
    resetAll.addEventListener('click', () => {
      app.idle = idleDefaults();
      for (const c of controls) c.set(app.idle[c.key]);
      app.regenerate();
    });
    container.append(...controls.map((c) => c.root), resetAll);
    return { dispose() { for (const c of controls) c.dispose(); } };
  },
  generate(app) {
    const model = app.model;
    const skeleton = model.bytes instanceof Uint8Array || model.builtIn ? modelSkeleton(app) : model.skeleton;
    const r = app.pm.generateIdleVmd(app.idle ?? idleDefaults(), app.tempo?.() ?? app.bpm, model.morphNames, model.boneNames, { skeleton });
    return { ...r, name: `idle-${app.idle?.seed ?? 1}`, beatFrames: r.bpm > 0 ? 1800 / r.bpm : 0 };
  },
});
