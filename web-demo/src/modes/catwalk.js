// Catwalk mode: every parameter of pm.generateCatwalkVmd as a labelled control with its default.
import { paramControl, el } from '../ui.js';
import { t } from '../i18n.js';
import { CATWALK_PARAMS, GROUPS, SPEED_PARAM, catwalkDefaults, styleValues } from './catwalk-params.js';
import { catwalkState } from './catwalk-state.js';
import { modelSkeleton } from './model-skeleton.js';
import { registerMode } from './registry.js';

registerMode({
  id: 'catwalk',
  order: 10,
  requires: () => true, // the page's default: without the capability it says so in the banner
  mount(container, app) {
    app.catwalk ??= catwalkDefaults();
    app.speed ??= SPEED_PARAM.default;
    const controls = [];
    const visibility = () => {
      for (const c of controls) {
        const p = CATWALK_PARAMS.find((q) => q.key === c.key);
        c.root.hidden = p?.when ? !p.when(app.catwalk) : c.key === 'speed' ? app.bpm !== null : false;
      }
    };
    const onChange = (key, value) => {
      if (key === 'speed') app.speed = value;
      else if (key === 'style') {
        // the style's amounts, as the core fills them (bone names alone: the core answers at once)
        const used = app.pm.generateCatwalkVmd({ style: value }, null, [], ['センター']).params;
        app.catwalk = styleValues(app.catwalk, value, used);
        for (const c of controls) if (c.key !== 'speed') c.set(app.catwalk[c.key]);
      } else app.catwalk[key] = value;
      visibility();
      app.regenerate();
    };
    for (const p of CATWALK_PARAMS) controls.push(paramControl(p, app.catwalk[p.key], onChange));
    controls.push(paramControl(SPEED_PARAM, app.speed, onChange));
    const groups = GROUPS.map((g) => el('details', { class: 'param-group', dataset: { group: g } },
      el('summary', { dataset: { i18n: `p.group.${g}` } }, t(`p.group.${g}`))));
    const groupOf = (key) => CATWALK_PARAMS.find((q) => q.key === key)?.group;
    const resetAll = el('button', { type: 'button', class: 'link-button', dataset: { i18n: 'p.resetAll' } }, t('p.resetAll'));
    resetAll.addEventListener('click', () => {
      app.catwalk = catwalkDefaults();
      app.speed = SPEED_PARAM.default;
      for (const c of controls) c.set(c.key === 'speed' ? app.speed : app.catwalk[c.key]);
      visibility();
      app.regenerate();
    });
    const speed = controls.pop();
    GROUPS.forEach((g, i) => groups[i].append(...controls.filter((c) => groupOf(c.key) === g).map((c) => c.root)));
    container.append(speed.root, ...controls.filter((c) => !groupOf(c.key)).map((c) => c.root), ...groups, resetAll);
    controls.push(speed);
    visibility();
    const offBpm = app.onBpmChange(visibility);
    return { dispose() { offBpm(); for (const c of controls) c.dispose(); } };
  },
  generate(app) {
    const pm = app.pm;
    if (typeof pm.generateCatwalkVmd !== 'function') {
      throw Object.assign(new Error(t('err.capability', { what: 'generateCatwalkVmd' })), { name: 'ProcMotionError' });
    }
    const model = app.model;
    // The whole model (PMX/PMD bytes, the mannequin's included): the legs are landed on it and the
    // result carries plan.ankles and the measured report. A model loaded by URL has only its rest
    // positions: proportions, no report.
    const skeleton = model.bytes instanceof Uint8Array || model.builtIn ? modelSkeleton(app) : model.skeleton;
    const r = pm.generateCatwalkVmd(catwalkState(app.catwalk, app.speed), app.tempo?.() ?? app.bpm, model.morphNames, model.boneNames,
      skeleton ? { skeleton } : undefined);
    return { ...r, name: `catwalk-${app.bpm ?? 'speed'}` };
  },
});
