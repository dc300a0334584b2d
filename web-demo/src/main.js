// procmotion web demo: the built-in mannequin doing a catwalk at 120 BPM, every parameter live.
//
// Structure: viewer.js (Babylon scene + babylon-mmd runtime, owns the clock), modes/ (one module
// per capability, registered in modes/registry.js), curves.js (foot/hip curve view), files.js
// (pickers, drag and drop, textures as referenceFiles), i18n.js (labels), errors.js (banner),
// music.js (the Music control: a song, its beats and tempo).
import { createProcMotion } from 'procmotion';
import { applyLifelikeToMmdModel, getModelInfo } from 'procmotion/babylon';

import { CurveView, sampleCurves } from './curves.js';
import { clearErrors, describeError, initErrors, showError } from './errors.js';
import { footHeights, planPlayedGap, reportFigures, unitsAndCm } from './foot-heights.js';
import { classify, entriesFromDataTransfer, entriesFromFileList, extensionOf, referenceFilesFor } from './files.js';
import { LANGUAGES, applyI18n, language, onLanguageChange, pickLanguage, setLanguage, t } from './i18n.js';
import { KeypointOverlay } from './keypoint-overlay.js';
import { setupScoring } from './scoring-view.js';
import { defaultModel } from './models.js';
import { modelSkeleton } from './modes/model-skeleton.js';
import { analyzeModelRig, rigRows } from './rig-summary.js';
import { availableModes, getMode } from './modes/registry.js';
import { MusicControl } from './music.js';
import { AUDIO_EXTENSIONS } from './music-core.js';
import { BPM_MAX, BPM_MIN, clampBpm, fitBpm } from './tempo.js';
import { Viewer } from './viewer.js';
import { modelToVrm, saveFile } from './vrm-export.js';
// Capabilities: each registers its mode. (Keypoints is an overlay on any mode, keypoint-overlay.js.)
import './modes/catwalk.js';
import './modes/idle.js';
import './modes/dance.js';
import './modes/groove.js';
import './modes/tracing.js';
import './modes/vmd.js';

const $ = (sel) => document.querySelector(sel);

/** The page's state and actions (exposed as window.demo.app for tests). */
function createApp(pm, viewer) {
  const bpmListeners = new Set();
  const app = {
    pm,
    viewer,
    bpm: 120,
    offset: 0, // seconds of beat 0 (from the music's first beat, taps on the song, or typed)
    beatGrid: null, // pm.beatGrid of the tempo: the detection's own beats when a song set it
    tempoSource: 'default', // 'default' | 'typed' | 'tap' | 'music'
    music: null, // the MusicControl (music.js)
    mode: 'catwalk',
    model: null, // { name, boneNames, morphNames, skeleton?, builtIn }
    userVmd: null, // { name, bytes, lastFrame, keyCount }
    motion: null, // the last generate() result
    motionMode: null,
    curves: null,
    feet: null, // the curve view's planned and played foot heights (foot-heights.js), null without a plan
    landing: null, // the report line's figures (reportFigures) of the motion playing, null without a report
    keypoints: null, // the KeypointOverlay (when the core has toKeypoints)
    lifelike: null, // the Lifelike layer on the model (pm.createLifelike) while the toggle is on
    blend: true, // a mode change plays a transition (pm.bakeTransition) into the new motion
    transition: null, // the last transition's result
    onBpmChange(fn) { bpmListeners.add(fn); return () => bpmListeners.delete(fn); },
    setBpm(bpm) {
      app.setTempo({ bpm, source: 'typed' });
    },
    /**
     * The page's tempo: bpm (null = none), offset (seconds of beat 0) and the grid the generators
     * will take (the modes read app.bpm today).
     */
    setTempo({ bpm, offset = app.offset, grid = null, source = 'typed' }) {
      app.bpm = bpm === null ? null : clampBpm(bpm);
      app.offset = Number.isFinite(offset) ? offset : 0;
      app.tempoSource = source;
      app.beatGrid = grid ?? (app.bpm === null ? null : pm.beatGrid({ bpm: app.bpm, offset: app.offset }));
      for (const fn of bpmListeners) fn(app.bpm);
      app.regenerate();
    },
    /** What the generators take for their tempo: the grid (a song's beats, or the BPM with its offset
     * from taps or typing), or null without a tempo. */
    tempo() {
      return app.bpm === null ? null : app.beatGrid ?? app.bpm;
    },
    regenerate,
    regenerateNow,
  };
  // While a song is loaded the motion's frame follows its clock (song time x 30 fps, seek included):
  // the motion was generated on the song's beat grid, frame 0 = 0 s of the song.
  viewer.clock = () => (app.music?.buffer && app.music.playing ? app.music.position : null);

  // Slider drags send many input events: generate at most once per animation frame.
  let pending = null;
  function regenerate() {
    pending ??= new Promise((ok) => requestAnimationFrame(() => { pending = null; ok(regenerateNow()); }));
    return pending;
  }

  async function regenerateNow({ keepBeat } = {}) {
    if (!app.model) return false;
    const mode = getMode(app.mode);
    if (!mode || !mode.ready(app)) return false;
    let r;
    const t0 = performance.now();
    try {
      r = mode.generate(app);
    } catch (e) {
      showError('err.generate', { detail: describeError(e) });
      return false;
    }
    const generateMs = performance.now() - t0;
    const sameMode = app.motionMode === app.mode;
    if (r.sameMotion && sameMode && app.motion?.vmd === r.vmd && viewer.motion) {
      // Same bytes (a loaded VMD with a new BPM): only the beat marks change.
      viewer.motion.beatFrames = r.beatFrames;
      app.motion = r;
      app.curves.update(app.curves.samples, r.loopFrames, r.beatFrames);
      app.keypoints?.update();
      updateInfo(app);
      return true;
    }
    let ok;
    try {
      const blend = !sameMode && app.blend && mode.blend !== false && app.motion && viewer.motion && !viewer.motion.next ? transitionInto(app, r) : null;
      app.transition = blend;
      ok = blend
        ? await viewer.setMotion(blend.vmd, { name: 'transition', loopFrames: blend.frames,
          next: { vmd: r.vmd, name: r.name, loopFrames: r.loopFrames, beatFrames: r.beatFrames, frame: blend.nextFrame } })
        : await viewer.setMotion(r.vmd, { name: r.name, loopFrames: r.loopFrames, beatFrames: r.beatFrames, keepBeat: keepBeat ?? sameMode });
    } catch (e) {
      showError(app.mode === 'vmd' ? 'err.vmd' : 'err.generate', { name: r.name, detail: describeError(e) });
      return false;
    }
    if (!ok) return false;
    app.motion = r;
    app.motionMode = app.mode;
    app.generateMs = generateMs;
    let samples = null;
    try {
      samples = sampleCurves(pm.readVmd(r.vmd), r.loopFrames);
    } catch {
      // babylon-mmd played it, so it is a VMD; the curve view just stays empty
    }
    app.curves.update(samples, r.loopFrames, r.beatFrames);
    updateLanding(app);
    // Keep a runway walk in view (unless the user has moved the camera).
    const travel = samples?.travel ?? null;
    if (!viewer.userMovedCamera && String(travel) !== String(viewer.travel)) viewer.frameCamera(travel);
    app.keypoints?.update();
    updateInfo(app);
    return true;
  }

  return app;
}

/** A transition from what plays now into `r` (pm.bakeTransition, a second long), or null when it cannot
 * be made (the motion then simply changes). */
function transitionInto(app, r) {
  try {
    return app.pm.bakeTransition(app.motion.vmd, r.vmd, modelSkeleton(app),
      { fromFrame: app.viewer.frame, toFrame: 0, frames: 30, toLoopFrames: r.loopFrames });
  } catch (e) {
    console.warn(`procmotion demo: no transition: ${describeError(e)}`);
    return null;
  }
}

/** The Lifelike, Physics and Blend toggles under the mode. */
function setupOptions(app) {
  const { viewer } = app;
  const lifelike = $('#opt-lifelike'), physics = $('#opt-physics'), blend = $('#opt-blend');
  const t0 = performance.now();
  app.setLifelike = (on) => {
    lifelike.checked = !!on;
    app.lifelike?.dispose();
    app.lifelike = null;
    if (on && app.model) {
      try {
        app.lifelike = app.pm.createLifelike(null, modelSkeleton(app));
      } catch (e) {
        lifelike.checked = false;
        showError('err.generate', { name: 'lifelike', detail: describeError(e) });
      }
    }
  };
  // the layer runs on the page's clock (it does not repeat with the motion's loop), after the motion
  viewer.afterAnimate = () => {
    if (app.lifelike && viewer.model) applyLifelikeToMmdModel(app.lifelike, viewer.model.mmdModel, (performance.now() - t0) / 1000);
  };
  lifelike.addEventListener('change', () => app.setLifelike(lifelike.checked));
  app.setPhysics = async (on) => {
    physics.checked = !!on;
    await viewer.setPhysics(on);
  };
  physics.checked = viewer.physics;
  physics.addEventListener('change', () => app.setPhysics(physics.checked));
  blend.checked = app.blend;
  blend.addEventListener('change', () => { app.blend = blend.checked; });
}

// ---- panel pieces ------------------------------------------------------------------------------

function setupLanguage() {
  const stored = (() => { try { return localStorage.getItem('procmotion.lang'); } catch { return null; } })();
  const fromUrl = new URLSearchParams(location.search).get('lang');
  const wanted = [fromUrl, stored].find((l) => LANGUAGES.some((x) => x.id === l));
  setLanguage(wanted ?? pickLanguage(navigator.languages ?? [navigator.language]));
  const sel = $('#lang');
  sel.replaceChildren(...LANGUAGES.map((l) => new Option(l.name, l.id)));
  sel.value = language();
  sel.addEventListener('change', () => {
    setLanguage(sel.value);
    try { localStorage.setItem('procmotion.lang', sel.value); } catch { /* private mode */ }
  });
  onLanguageChange(() => applyI18n(document));
  applyI18n(document);
}

function setupModes(app) {
  const sel = $('#mode');
  const container = $('#mode-controls');
  let mounted = null;
  const fill = () => {
    sel.replaceChildren(...availableModes(app.pm).map((m) => new Option(t(`mode.${m.id}`), m.id)));
    sel.value = app.mode;
  };
  fill();
  onLanguageChange(fill);
  app.setMode = (id) => {
    if (!getMode(id)) return;
    mounted?.dispose?.();
    container.replaceChildren();
    app.mode = id;
    sel.value = id;
    mounted = getMode(id).mount(container, app);
    app.regenerateNow({ keepBeat: false });
  };
  sel.addEventListener('change', () => app.setMode(sel.value));
  mounted = getMode(app.mode).mount(container, app);
}

function setupTempo(app) {
  const input = $('#bpm');
  const none = $('#no-bpm');
  const tap = $('#tap');
  const offset = $('#offset');
  input.min = BPM_MIN;
  input.max = BPM_MAX;
  input.value = app.bpm;
  // The package's tap tempo. While a song plays the taps are timed on the song's clock, so the
  // offset they give is a time in the song; otherwise on the page's clock (the BPM only).
  let tapper = null;
  let tapClock = null;
  const show = () => {
    none.checked = app.bpm === null;
    input.disabled = app.bpm === null;
    offset.disabled = app.bpm === null;
    if (app.bpm !== null && Number(input.value) !== app.bpm) input.value = app.bpm;
    const o = Math.round(app.offset * 1000) / 1000;
    if (Number(offset.value) !== o) offset.value = o;
  };
  app.onBpmChange(show);
  input.addEventListener('change', () => {
    const v = Number(input.value);
    if (input.value === '' || !Number.isFinite(v)) { input.value = app.bpm ?? 120; return; }
    app.setBpm(v);
  });
  offset.addEventListener('change', () => {
    const v = Number(offset.value);
    if (offset.value === '' || !Number.isFinite(v)) { show(); return; }
    app.setTempo({ bpm: app.bpm, offset: v, source: 'typed' });
  });
  none.addEventListener('change', () => app.setBpm(none.checked ? null : clampBpm(Number(input.value) || 120)));
  const doTap = () => {
    tap.classList.remove('flash');
    void tap.offsetWidth; // restart the flash animation
    tap.classList.add('flash');
    const onSong = !!app.music?.playing;
    const clock = onSong ? 'song' : 'page';
    if (clock !== tapClock) { tapper = app.pm.createTapTempo(); tapClock = clock; }
    const grid = tapper.tap(onSong ? app.music.position : performance.now() / 1000);
    const bpm = grid ? fitBpm(grid.bpm) : null;
    if (bpm !== null) app.setTempo({ bpm, offset: onSong ? grid.offset : app.offset, source: 'tap' });
  };
  tap.addEventListener('pointerdown', (e) => { e.preventDefault(); doTap(); });
  tap.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); doTap(); } });
  app.tapTempo = doTap;
  show();
}

/** The Music section (music.js) and its lane under the curve view. */
function setupMusic(app) {
  const els = {
    file: $('#file-audio'), play: $('#music-play'), seek: $('#music-seek'), time: $('#music-time'),
    info: $('#music-info'), use: $('#music-use'), remove: $('#music-remove'), lane: $('#music-canvas'),
  };
  els.file.accept = ['audio/*', ...AUDIO_EXTENSIONS].join(',');
  app.music = new MusicControl(app, els);
}

function setupTimeline(app) {
  const { viewer } = app;
  const play = $('#play');
  const seek = $('#seek');
  const time = $('#time');
  const loop = $('#loop');
  let dragging = false;
  const showPlay = (playing) => {
    play.textContent = playing ? '❚❚' : '▶';
    play.dataset.i18nAria = playing ? 'pause' : 'play';
    play.setAttribute('aria-label', t(playing ? 'pause' : 'play'));
    play.title = t(playing ? 'pause' : 'play');
  };
  viewer.onPlayState.add(showPlay);
  showPlay(viewer.playing);
  play.addEventListener('click', () => (viewer.playing ? viewer.pause() : viewer.play()));
  loop.checked = viewer.loop;
  loop.addEventListener('change', () => { viewer.loop = loop.checked; });
  seek.addEventListener('pointerdown', () => { dragging = true; });
  window.addEventListener('pointerup', () => { dragging = false; });
  seek.addEventListener('input', () => viewer.seek(Number(seek.value)));
  let lastText = '';
  viewer.onFrame.add((frame) => {
    const n = viewer.loopFrames;
    if (Number(seek.max) !== n) seek.max = n;
    if (!dragging) seek.value = frame;
    const beat = viewer.motion?.beatFrames;
    const text = beat > 0
      ? t('time.beat', { beat: (frame / beat + 1).toFixed(1), beats: Math.round(n / beat) })
      : t('time.frame', { frame: Math.floor(frame), frames: n });
    if (text !== lastText) { time.textContent = text; lastText = text; }
    app.curves.draw(frame);
    app.keypoints?.draw(frame);
    app.scoringView?.draw(frame);
  });
  // Keyboard: space plays/pauses, T taps the tempo (not while typing in a field).
  window.addEventListener('keydown', (e) => {
    if (e.target.closest?.('input, select, textarea, button')) return;
    if (e.key === ' ') { e.preventDefault(); play.click(); }
    if (e.key === 't' || e.key === 'T') app.tapTempo();
  });
}

/** Fill a <dl> with [label, value] rows. */
function fillInfo(dl, rows) {
  dl.replaceChildren(...rows.flatMap(([k, v]) => {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = v;
    return [dt, dd];
  }));
}

function updateInfo(app) {
  const dl = $('#info');
  const r = app.motion;
  const rows = [
    [t('info.model'), app.model?.builtIn ? t('info.mannequin') : app.model?.name ?? '—'],
  ];
  if (r) {
    rows.push([t('info.loop'), t('info.loopValue', { frames: r.loopFrames, seconds: (r.loopFrames / 30).toFixed(2) })]);
    if (r.steps !== undefined) rows.push([t('info.steps'), String(r.steps)]);
    if (r.keyCount !== undefined) rows.push([t('info.keys'), String(r.keyCount + (r.morphKeyCount ?? 0))]);
    if (r.keyframes !== undefined) rows.push([t('info.keyframes'), t('info.keyframesValue', { count: r.keyframes, limbs: r.traced })]);
    if (r.maxPositionError !== undefined) {
      rows.push([t('info.fit'), t('info.fitValue', { pos: r.maxPositionError.toFixed(4), rot: r.maxRotationErrorDeg.toFixed(3) })]);
    }
    if (r.usedBones) rows.push([t('info.bones'), String(r.usedBones.length)]);
    if (r.missingBones) rows.push([t('info.missing'), r.missingBones.length ? r.missingBones.join(', ') : t('info.none')]);
    if (r.damagedNames?.length) rows.push([t('info.damaged'), r.damagedNames.join(', ')]);
    if (app.keypoints) rows.push(...app.keypoints.infoRows());
  }
  fillInfo(dl, rows);
  $('#default-model').hidden = !!app.model?.builtIn;
  $('#download').disabled = !r;
}

/**
 * The curve view's planned and played foot heights and the report line for the motion playing on the
 * loaded model (foot-heights.js): a generated motion with a plan (catwalk, tracing) or anchors (groove).
 * `reevaluate` false only redraws the line (a language change).
 */
function updateLanding(app, reevaluate = true) {
  const r = app.motion;
  if (reevaluate) {
    app.feet = null;
    app.feetMs = null;
    if (r && app.motionMode !== 'vmd' && (r.plan || r.anchors !== undefined)) {
      const t0 = performance.now();
      try {
        app.feet = footHeights(app.pm, r, modelSkeleton(app), app.rig);
        if (app.feet) app.feet.gap = planPlayedGap(app.feet);
      } catch (e) {
        console.warn(`procmotion demo: no foot heights: ${describeError(e)}`);
      }
      app.feetMs = performance.now() - t0;
    }
    app.curves.setFeet(app.feet);
    app.landing = reportFigures(r);
    app.landingModel = app.model; // what the series and the line were measured on
  }
  const line = $('#landing-report');
  const f = app.landing;
  line.hidden = !f;
  if (!f) { line.textContent = ''; return; }
  const [max, rms, pen] = [f.maxError, f.rmsError, f.penetration].map(unitsAndCm);
  line.textContent = t('landing.line', { what: t(`landing.${f.limbs}`), max: max.units, maxCm: max.cm,
    rms: rms.units, rmsCm: rms.cm, pen: pen.units, penCm: pen.cm });
}

/** The model rig section (rig-summary.js): analyse the loaded model (app.rig, null when that failed,
 * app.rigError) and show its rows; `reanalyse` false only redraws (a language change). */
function updateRig(app, reanalyse = true) {
  if (reanalyse) ({ rig: app.rig, error: app.rigError } = analyzeModelRig(app.pm, modelSkeleton(app)));
  const rows = app.rig ? rigRows(app.rig) : [[t('rig.naming'), t('rig.error', { detail: describeError(app.rigError) })]];
  fillInfo($('#rig-info'), rows);
}

// ---- files ---------------------------------------------------------------------------------------

async function loadModelInto(app, spec) {
  const info = await app.viewer.loadModel(spec);
  // Rest positions let the catwalk scale stride and lift to this model's legs.
  let skeleton;
  try {
    skeleton = getModelInfo(info.mmdModel).skeleton;
  } catch {
    skeleton = undefined; // standard proportions
  }
  // bytes: the PMX/PMD the keypoints evaluate a VMD on (the mannequin uses the standard skeleton).
  app.model = { name: spec.name, boneNames: info.boneNames, morphNames: info.morphNames, skeleton, builtIn: !!spec.builtIn,
    bytes: spec.builtIn || typeof spec.source === 'string' ? null : spec.source, referenceFiles: spec.referenceFiles ?? [] };
  $('#download-vrm').disabled = false;
  updateRig(app);
  if (app.userVmd?.source) { // a retargeted motion follows the model
    try {
      await retargetUserMotion(app, app.userVmd.source);
    } catch (e) {
      showError('err.vmd', { name: app.userVmd.source.name, detail: describeError(e) });
    }
  }
  if (app.lifelike) app.setLifelike(true); // the layer on the new model's skeleton
  await app.regenerateNow({ keepBeat: true });
}

async function loadUserModel(app, entry, entries) {
  const name = entry.file.name;
  try {
    const bytes = new Uint8Array(await entry.file.arrayBuffer());
    const { referenceFiles, missing } = await referenceFilesFor(entry, bytes, entries);
    if (missing.length) console.info(`procmotion demo: ${name}: textures not among the files: ${missing.join(', ')}`);
    await loadModelInto(app, { source: bytes, extension: extensionOf(name), name, referenceFiles });
    return true;
  } catch (e) {
    showError('err.model', { name, detail: describeError(e) });
    return false;
  }
}

async function loadUserVmd(app, entry) {
  const name = entry.file.name;
  let bytes;
  let parsed;
  try {
    bytes = new Uint8Array(await entry.file.arrayBuffer());
    if (extensionOf(name) !== '.vmd') return await retargetUserMotion(app, { name, bytes });
    parsed = app.pm.readVmd(bytes);
  } catch (e) {
    showError('err.vmd', { name, detail: describeError(e) });
    return false;
  }
  let lastFrame = 0;
  for (const f of parsed.bones.frames) lastFrame = Math.max(lastFrame, f);
  for (const f of parsed.morphs.frames) lastFrame = Math.max(lastFrame, f);
  app.userVmd = { name, bytes, lastFrame, keyCount: parsed.bones.count + parsed.morphs.count, damagedNames: damagedVmdNames(parsed) };
  app.setMode('vmd');
  return true;
}

/**
 * A motion from another rig (BVH, FBX, glTF/GLB, VRM Animation) retargeted to the loaded model (the keypoints
 * module holds the readers; it loads on first use) and played as the user's VMD; the source is kept, so a
 * new model gets it retargeted again. Throws what retargetToVmd throws.
 */
async function retargetUserMotion(app, source) {
  await app.pm.loadAsync('keypoints');
  const model = app.model?.bytes ?? app.model?.skeleton ?? undefined;
  const { vmd, report } = app.pm.retargetToVmd(source.bytes, { model: app.model?.builtIn ? undefined : model });
  app.userVmd = { name: source.name, bytes: vmd, lastFrame: Math.max(1, report.frames), keyCount: report.keyCount, damagedNames: [],
    retarget: report, source };
  app.setMode('vmd');
  return true;
}

/**
 * The names of a readVmd result whose bytes are not Shift-JIS (a name MMD cut inside a double-byte
 * character shows U+FFFD), each as "text <hex bytes>". They play and save as stored.
 */
function damagedVmdNames(vmd) {
  const out = [];
  const tables = [[vmd.bones, 'names', 'rawNames'], [vmd.morphs, 'names', 'rawNames'], [vmd.properties, 'ikNames', 'rawIkNames']];
  for (const [section, namesKey, rawKey] of tables) {
    section[namesKey].forEach((text, i) => {
      if (!text.includes('\ufffd')) return;
      const field = section[rawKey][i], end = field.indexOf(0);
      const hex = Array.from(field.subarray(0, end < 0 ? field.length : end), (b) => b.toString(16).toUpperCase().padStart(2, '0'));
      out.push(`${text} <${hex.join(' ')}>`);
    });
  }
  return out;
}

async function loadEntries(app, entries) {
  if (!entries.length) return;
  clearErrors();
  const { model, motions, audio, others } = classify(entries);
  if (audio.length && !model && !motions.length) {
    await app.music.load(audio[0].file);
    return;
  }
  if (!model && !motions.length) {
    const names = others.slice(0, 4).map((e) => e.file.name).join(', ');
    showError(others.some((e) => /\.(png|jpe?g|bmp|tga|sph|spa)$/i.test(e.path)) ? 'err.noModel' : 'err.unknownFile', { names });
    return;
  }
  if (model && !(await loadUserModel(app, model, entries))) return;
  if (motions.length) await loadUserVmd(app, motions[0]);
  if (audio.length) await app.music.load(audio[0].file);
}

/** The Keypoints toggle: switching it on the first time loads the keypoints module (pm.loadAsync). */
function setupKeypoints(app) {
  app.keypoints = new KeypointOverlay($('#viewport'), app, { onChange: () => updateInfo(app) });
  const toggle = $('#kp-toggle');
  $('#kp-section').hidden = false;
  toggle.checked = false;
  app.setKeypoints = async (on) => {
    toggle.checked = !!on;
    if (on) {
      try {
        await app.pm.loadAsync('keypoints');
      } catch (e) {
        toggle.checked = false;
        showError('err.keypoints', { name: 'keypoints', detail: describeError(e) });
        return;
      }
    }
    app.keypoints.setEnabled(toggle.checked);
    updateInfo(app);
  };
  toggle.addEventListener('change', () => app.setKeypoints(toggle.checked));
}

function setupFiles(app) {
  for (const id of ['#file-model', '#file-folder', '#file-vmd']) {
    const input = $(id);
    input.addEventListener('change', async () => {
      const entries = entriesFromFileList(input.files);
      input.value = '';
      await loadEntries(app, entries);
    });
  }
  $('#default-model').addEventListener('click', async () => {
    try {
      await loadModelInto(app, defaultModel(app.pm));
    } catch (e) {
      showError('err.model', { name: 'mannequin', detail: describeError(e) });
    }
  });
  $('#download').addEventListener('click', () => {
    const r = app.motion;
    if (!r) return;
    saveFile(r.vmd, `${r.name || 'procmotion'}.vmd`, 'application/octet-stream');
  });
  $('#download-vrm').addEventListener('click', async () => {
    try {
      await app.pm.loadAsync('vrm'); // the VRM writer is a feature module of its own, loaded on first use
      const { glb, report, fileName } = modelToVrm(app);
      app.lastVrm = { fileName, report };
      saveFile(glb, fileName, 'model/gltf-binary');
    } catch (e) {
      showError('err.vrm', { name: app.model?.name ?? '', detail: describeError(e) });
    }
  });
  // Drag and drop anywhere on the page.
  const overlay = $('#drop');
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  window.addEventListener('dragenter', (e) => { if (hasFiles(e)) { depth++; overlay.hidden = false; } });
  window.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; overlay.hidden = true; } });
  window.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
  window.addEventListener('drop', async (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    await loadEntries(app, await entriesFromDataTransfer(e.dataTransfer));
  });
  app.loadEntries = (entries) => loadEntries(app, entries);
}

// ---- start ---------------------------------------------------------------------------------------

async function main() {
  setupLanguage();
  initErrors($('#errors'));
  $('#errors .close').addEventListener('click', clearErrors);
  const demo = (window.demo = { ready: false, loadTimeMs: null });

  let viewer;
  try {
    viewer = new Viewer($('#scene'));
  } catch (e) {
    showError('err.webgl', { detail: describeError(e) });
    $('#loading').hidden = true;
    return;
  }
  // the core, the motion module (the mannequin, models, groove, tracing) and the beats module (the
  // tempo's beat grid, tap tempo, songs); keypoints load when the overlay is first switched on, the VRM
  // writer on the first "Download VRM"
  const pm = await createProcMotion({ load: ['motion', 'beats'] });
  const app = createApp(pm, viewer);
  app.curves = new CurveView($('#curve-canvas'), $('#curve-legend'));
  setupModes(app);
  setupOptions(app);
  setupTempo(app);
  setupMusic(app);
  setupTimeline(app);
  setupFiles(app);
  setupKeypoints(app);
  app.scoringView = setupScoring(app, $);
  onLanguageChange(() => updateInfo(app));
  onLanguageChange(() => updateLanding(app, false));
  onLanguageChange(() => app.model && updateRig(app, false));
  Object.assign(demo, { app, viewer, pm });

  try {
    await loadModelInto(app, defaultModel(pm));
  } catch (e) {
    showError('err.model', { name: 'mannequin', detail: describeError(e) });
  }
  updateInfo(app);
  // Loaded = the first frame rendered with the model and its motion.
  await new Promise((ok) => viewer.scene.onAfterRenderObservable.addOnce(ok));
  demo.loadTimeMs = Math.round(performance.now());
  demo.ready = true;
  $('#loading').hidden = true;
  document.body.classList.add('ready');
}

main().catch((e) => {
  showError('err.unexpected', { detail: describeError(e) });
  const loading = document.querySelector('#loading');
  if (loading) loading.hidden = true;
});
