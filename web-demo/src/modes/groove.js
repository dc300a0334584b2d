// Groove mode: the BPM groove (docs/groove.md) baked with pm.bakeGroove on top of the standing pose,
// the catwalk or a loaded VMD; every setting of every joint and of the squat bounce is a labelled
// control (defaults from the core), with a reset per joint and for everything.
import { GROOVE_JOINTS } from 'procmotion';

import { el, paramControl } from '../ui.js';
import { t } from '../i18n.js';
import { SPEED_PARAM, catwalkDefaults } from './catwalk-params.js';
import { BASES, grooveParams, grooveSettings, grooveValues } from './groove-params.js';
import { modelSkeleton } from './model-skeleton.js';
import { getMode, registerMode } from './registry.js';

const BASE_PARAM = { key: 'grooveBase', type: 'select', options: BASES, default: 'rest', label: 'g.base' };

registerMode({
  id: 'groove',
  order: 15,
  requires: (pm) => typeof pm.bakeGroove === 'function',
  mount(container, app) {
    app.grooveDefaults ??= app.pm.grooveConfig();
    app.groove ??= grooveValues(app.grooveDefaults);
    app.grooveBase ??= BASE_PARAM.default;
    const params = grooveParams(app.grooveDefaults);
    const base = paramControl(BASE_PARAM, app.grooveBase, (_, v) => { app.grooveBase = v; app.regenerate(); });
    const controls = params.map((p) => paramControl(p, app.groove[p.key], (key, v) => {
      app.groove[key] = v;
      app.regenerate();
    }));
    const resetGroup = (group) => {
      for (const c of controls) {
        const p = params.find((q) => q.key === c.key);
        if (group && p.group !== group) continue;
        app.groove[c.key] = p.default;
        c.set(p.default);
      }
      app.regenerate();
    };
    const groups = [...new Set(params.map((p) => p.group))].map((g) => {
      const title = g === 'squat' ? 'g.squat' : `g.joint.${g}`;
      const reset = el('button', { type: 'button', class: 'link-button', dataset: { i18n: 'g.resetJoint', resetGroup: g } },
        t('g.resetJoint'));
      reset.addEventListener('click', () => resetGroup(g));
      return el('details', { class: 'param-group', dataset: { group: g }, open: g === 'squat' },
        el('summary', { dataset: { i18n: title } }, t(title)),
        ...controls.filter((c) => params.find((p) => p.key === c.key).group === g).map((c) => c.root), reset);
    });
    const resetAll = el('button', { type: 'button', class: 'link-button', dataset: { i18n: 'p.resetAll' } }, t('p.resetAll'));
    resetAll.addEventListener('click', () => resetGroup(null));
    container.append(base.root, ...groups, resetAll);
    return { dispose() { base.dispose(); for (const c of controls) c.dispose(); } };
  },
  generate(app) {
    const pm = app.pm;
    const settings = grooveSettings(app.groove, app.grooveDefaults);
    let base = null, frames = 0, loopFrames = 0, beatFrames = 0, bpm = app.bpm;
    if (app.grooveBase === 'catwalk') {
      const cw = getMode('catwalk').generate({ ...app, catwalk: app.catwalk ?? catwalkDefaults(), speed: app.speed ?? SPEED_PARAM.default });
      base = cw.vmd;
      frames = loopFrames = cw.loopFrames;
      beatFrames = cw.beatFrames;
      bpm ??= 1800 / beatFrames;
    } else if (app.grooveBase === 'vmd' && app.userVmd) {
      base = app.userVmd.bytes;
      frames = loopFrames = Math.max(1, app.userVmd.lastFrame);
    }
    bpm ??= 120; // a groove needs a beat: 120 BPM when the page has none
    beatFrames ||= 1800 / bpm;
    if (!base) frames = loopFrames = Math.max(1, Math.round(16 * beatFrames)); // 16 beats of the standing pose
    // on the page's beat grid (a song's beats: the bake runs to its last beat; taps or a typed offset)
    const grid = app.bpm !== null && app.tempo ? app.tempo() : null;
    const listed = grid && typeof grid === 'object' && grid.beats;
    if (listed && !base) frames = 0;
    const { vmd, report } = pm.bakeGroove(base, modelSkeleton(app), settings, grid ?? bpm, { frames });
    if (listed && !base) loopFrames = report.frames;
    const names = new Set(app.model.boneNames);
    return {
      vmd, loopFrames, beatFrames, name: `groove-${app.grooveBase}-${Math.round(bpm)}`,
      keyCount: report.keys + report.copiedKeys, maxPositionError: report.maxPositionError,
      maxRotationErrorDeg: report.maxRotationErrorDeg, report, settings,
      anchors: base, // where the feet stay: what the base (null: the standing pose) plays (foot-heights.js)
      missingBones: GROOVE_JOINTS.filter((j) => !names.has(j.bone)).map((j) => j.bone),
    };
  },
});
