// Loaded-VMD mode: plays the user's own motion on the model (beat marks from the BPM field).
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
      note.textContent = app.userVmd ? t('mode.vmd.playing', { name: app.userVmd.name }) : t('mode.vmd.none');
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
      name: v.name.replace(/\.vmd$/i, ''),
      sameMotion: true,
    };
  },
});
