// Loaded-motion mode: plays the user's own motion on the model (beat marks from the BPM field): a VMD as it
// is, a BVH, glTF/GLB or VRM Animation retargeted to the model (the report line says how).
import { registerMode } from './registry.js';
import { el } from '../ui.js';
import { onLanguageChange, t } from '../i18n.js';

registerMode({
  id: 'vmd',
  order: 20,
  ready: (app) => !!app.userVmd,
  mount(container, app) {
    const note = el('p', { class: 'note' });
    const relabel = () => {
      const v = app.userVmd, r = v?.retarget;
      note.textContent = !v ? t('mode.vmd.none') : !r ? t('mode.vmd.playing', { name: v.name })
        : t('mode.vmd.retargeted', { name: v.name, format: r.format, naming: r.naming, bones: r.mapped.length,
          slide: r.feet ? r.feet.maxSlide.toFixed(4) : '—' });
    };
    relabel();
    container.append(note);
    const off = onLanguageChange(relabel);
    return { dispose: off };
  },
  generate(app) {
    const v = app.userVmd;
    return {
      vmd: v.bytes,
      loopFrames: Math.max(1, v.lastFrame),
      beatFrames: app.bpm ? (30 * 60) / app.bpm : 0,
      keyCount: v.keyCount,
      damagedNames: v.damagedNames,
      name: v.name.replace(/\.[^.]+$/, ''),
      sameMotion: true,
    };
  },
});
