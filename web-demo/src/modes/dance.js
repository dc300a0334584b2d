// Dance mode: a dance to the song in the Music section, from its first beat to its last
// (pm.generateAutoDanceVmd with the detection), or without a song a loop at the page's tempo; landed on
// the loaded model, every parameter a labelled control with its default.
import { mountParamControls, paramDefaults } from '../ui.js';
import { modelSkeleton } from './model-skeleton.js';
import { registerMode } from './registry.js';

export const DANCE_PARAMS = [
  { key: 'style', type: 'select', options: ['pop', 'hiphop', 'idol'], default: 'pop' },
  { key: 'energy', type: 'range', min: 0, max: 1, step: 0.01, default: 0.6 },
  { key: 'variety', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'arms', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'legs', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'body', type: 'range', min: 0, max: 1, step: 0.01, default: 0.5 },
  { key: 'seed', type: 'range', min: 1, max: 99, step: 1, default: 1 },
];

export const danceDefaults = () => paramDefaults(DANCE_PARAMS);

registerMode({
  id: 'dance',
  order: 6,
  requires: (pm) => typeof pm.generateAutoDanceVmd === 'function',
  mount: (container, app) => mountParamControls(container, app, 'dance', DANCE_PARAMS, 'd.'),
  generate(app) {
    const model = app.model;
    const skeleton = model.bytes instanceof Uint8Array || model.builtIn ? modelSkeleton(app) : model.skeleton;
    // a song: the whole of it, its beats, downbeats and energy; else a loop at the page's tempo
    const song = app.tempoSource === 'music' && app.music?.result?.beats?.length >= 2 ? app.music.result : null;
    const r = app.pm.generateAutoDanceVmd(app.dance ?? danceDefaults(), song ?? app.tempo?.() ?? app.bpm ?? 120,
      model.morphNames, model.boneNames, { skeleton });
    return { ...r, loopFrames: r.loopFrames || r.frames, song: !!song, name: `dance-${app.dance?.seed ?? 1}`, beatFrames: 1800 / r.bpm };
  },
});
