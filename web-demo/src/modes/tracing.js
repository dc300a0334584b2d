// Tracing mode (docs/tracing.md): drag the IK target sphere and the limb follows through
// the core's two-bone IK; "Add point" stores the sphere's position as a control point (an offset
// from the limb root); the points make a line or a curve; the progress slider moves the limb along
// it; "Generate keyframes" puts N keyframes on the path with pm.createTimeline and plays the baked
// VMD (Timeline.bake on the page's beat grid: a song's beats, repeated to its end, or the BPM with
// its offset) through babylon-mmd like every other mode.
//
// Two phases: 'edit' (the motion is the live pose: a one-pose VMD rebuilt on every change) and
// 'play' (the generated keyframes, looping). Any edit goes back to 'edit'.
import { showError } from '../errors.js';
import { onLanguageChange, t } from '../i18n.js';
import { TraceGizmo } from '../trace-gizmo.js';
import { el, paramControl } from '../ui.js';
import { modelSkeleton } from './model-skeleton.js';
import { registerMode } from './registry.js';
import { LIMB_IDS, TRACE_PARAMS, TraceInputError, TraceSession, limbInfo, newTraceState } from './tracing-core.js';

const LIMB_PARAM = { key: 'trace.limb', type: 'select', options: LIMB_IDS, default: 'leftHand', label: 'trace.limb' };

function button(key, cls, onClick) {
  const b = el('button', { type: 'button', class: `button ${cls}`, dataset: { i18n: key, action: key } }, t(key));
  b.addEventListener('click', onClick);
  return b;
}

/** The mounted mode: panel, gizmo, session (exposed as app.tracing; tests use it as their hook). */
class TracingController {
  constructor(container, app) {
    this.app = app;
    this.state = app.trace ??= newTraceState();
    this.session = null;
    this.gizmo = new TraceGizmo(app.viewer, {
      onDragStart: (p) => { this.state.targets[this.state.limb] = p; this.edit(); },
      onDrag: (p) => this.moveTarget(p),
      onDragEnd: (p) => this.moveTarget(p),
    });
    this.offs = [];
    this.settled = Promise.resolve(true);
    this.buildPanel(container);
    try {
      this.ensureSession();
    } catch (e) {
      this.report(e); // e.g. a skeleton the core cannot read: the banner says so, generate() will too
    }
    this.refresh();
  }

  // ---- panel ----

  buildPanel(container) {
    const s = this.state;
    const param = (key) => TRACE_PARAMS.find((p) => p.key === key);
    const controls = (this.controls = {});
    controls.limb = paramControl(LIMB_PARAM, s.limb, (_, v) => this.selectLimb(v));
    controls.limb.root.querySelector('.reset').remove(); // a choice, not a setting with a default
    const draftParam = (key, field) => paramControl(param(key), s.drafts[s.limb][field], (_, v) => {
      s.drafts[s.limb][field] = v;
      this.pathChanged();
    });
    controls.mode = draftParam('trace.mode', 'mode');
    controls.pole = draftParam('trace.pole', 'poleAngle');
    controls.progress = paramControl(param('trace.progress'), s.progress, (_, v) => this.setProgress(v));
    controls.count = paramControl(param('trace.count'), s.count, (_, v) => { s.count = v; this.settingsChanged(); });
    controls.beatStep = paramControl(param('trace.beatStep'), String(s.beatStep), (_, v) => { s.beatStep = Number(v); this.settingsChanged(); });
    controls.easing = paramControl(param('trace.easing'), s.easing, (_, v) => { s.easing = v; this.settingsChanged(); });

    const hint = el('p', { class: 'note', dataset: { i18n: 'trace.hint' } }, t('trace.hint'));
    this.status = el('p', { class: 'note trace-status', 'aria-live': 'polite' });
    const pointRow = el('div', { class: 'button-row' },
      button('trace.add', 'primary', () => this.addPoint()),
      button('trace.removeLast', '', () => this.removeLast()),
      button('trace.clear', '', () => this.clear()));
    this.playButton = button('trace.play', '', () => (s.phase === 'play' ? this.edit(true) : this.play()));
    const generateRow = el('div', { class: 'button-row' }, button('trace.generate', 'primary', () => this.generateKeyframes()), this.playButton);
    container.append(controls.limb.root, hint, pointRow, controls.mode.root, controls.pole.root, controls.progress.root,
      this.status, controls.count.root, controls.beatStep.root, controls.easing.root, generateRow);
    this.offs.push(onLanguageChange(() => this.refreshStatus()));
  }

  // ---- state changes ----

  /** The session for the model shown (rebuilt when the model changes). */
  ensureSession() {
    const app = this.app;
    if (!app.model) return null;
    if (this.session?.model === app.model) return this.session;
    this.session?.dispose();
    this.session = null;
    this.session = new TraceSession(app.pm, modelSkeleton(app), app.model);
    this.state.targets = {}; // targets are world positions on the previous model
    const h = app.viewer.model ? app.viewer.model.max.y - Math.min(0, app.viewer.model.min.y) : 20;
    this.gizmo.setScale(h);
    if (!this.session.canTrace(this.state.limb)) this.reportBones(this.state.limb);
    return this.session;
  }

  /**
   * Where the sphere is for the chosen limb: its target once moved, else its path at the progress,
   * else the limb's end at rest; null when the model cannot trace the limb.
   */
  targetPosition() {
    const s = this.state, session = this.session;
    if (!session?.canTrace(s.limb)) return null;
    if (s.targets[s.limb]) return s.targets[s.limb];
    const rel = session.sample(s.drafts[s.limb], s.progress);
    return rel ? session.world(s.limb, rel) : session.rest[s.limb].end;
  }

  /** Redraw the gizmo and the panel from the state. */
  refresh() {
    const s = this.state, session = this.session;
    if (!session) return;
    const playing = s.phase === 'play';
    this.gizmo.setTarget(this.targetPosition());
    this.gizmo.followBone(playing && s.drafts[s.limb].points.length >= 2 ? limbInfo(s.limb).end : null);
    this.gizmo.setPaths(LIMB_IDS.filter((l) => session.canTrace(l) && s.drafts[l].points.length).map((l) => ({
      points: s.drafts[l].points.map((p) => session.world(l, p)),
      line: session.pathWorld(l, s.drafts[l]),
      selected: l === s.limb,
    })));
    const d = s.drafts[s.limb];
    this.controls.limb.set(s.limb);
    this.controls.mode.set(d.mode);
    this.controls.pole.set(d.poleAngle);
    this.playButton.dataset.i18n = playing ? 'trace.edit' : 'trace.play';
    this.playButton.textContent = t(this.playButton.dataset.i18n);
    this.playButton.disabled = !playing && !s.generated;
    this.refreshStatus();
  }

  refreshStatus() {
    const s = this.state, session = this.session;
    if (!session) return;
    const d = s.drafts[s.limb];
    const limb = t(`trace.limb.${s.limb}`);
    let text;
    if (!session.canTrace(s.limb)) text = t('err.traceBones', { limb, bones: session.rest[s.limb].missing.join(', ') });
    else if (!d.points.length) text = t('trace.status.none', { limb });
    else text = t('trace.status', { limb, points: d.points.length, length: this.app.pm.trajectoryLength(d.mode, d.points).toFixed(1) });
    if (s.phase === 'play' && this.played) text += ` ${t('trace.status.playing', { keyframes: this.played.keyframes, beats: this.played.traceBeats })}`;
    this.status.textContent = text;
  }

  /** app.regenerate(), remembered: `settled` resolves once the motion shown is the latest (tests wait on it). */
  regenerate() {
    this.settled = this.app.regenerate();
    return this.settled;
  }

  /** Leave playback for the live pose (regenerate when asked). */
  edit(regenerate = false) {
    if (this.state.phase === 'edit') return;
    this.state.phase = 'edit';
    this.refresh();
    if (regenerate) this.regenerate();
  }

  selectLimb(limb) {
    const s = this.state;
    s.limb = limb;
    this.edit();
    if (this.session && !this.session.canTrace(limb)) this.reportBones(limb);
    this.refresh();
    this.regenerate();
  }

  moveTarget(p) {
    this.state.targets[this.state.limb] = p;
    this.regenerate();
  }

  setProgress(v) {
    const s = this.state;
    s.progress = v;
    this.edit();
    const rel = this.session?.canTrace(s.limb) ? this.session.sample(s.drafts[s.limb], v) : null;
    if (rel) s.targets[s.limb] = this.session.world(s.limb, rel);
    this.refresh();
    this.regenerate();
  }

  /** The path changed: the generated keyframes no longer match it. */
  pathChanged() {
    this.state.generated = false;
    this.edit();
    this.refresh();
    this.regenerate();
  }

  /** N, beat step or easing changed: regenerate the keyframes if there are some. */
  settingsChanged() {
    if (this.state.phase === 'play') this.regenerate();
  }

  reportBones(limb) {
    showError('err.traceBones', { limb: t(`trace.limb.${limb}`), bones: this.session.rest[limb].missing.join(', ') });
  }

  report(e) {
    if (e instanceof TraceInputError) {
      const vars = { ...e.vars };
      if (vars.limb) vars.limb = t(`trace.limb.${vars.limb}`);
      showError(e.key, vars);
    } else {
      showError('err.generate', { detail: e?.message ?? String(e) });
    }
  }

  addPoint() {
    const s = this.state;
    try {
      const session = this.ensureSession();
      const p = this.targetPosition() ?? session.limbRest(s.limb).end;
      session.addPoint(s, s.limb, p);
      s.targets[s.limb] = p;
    } catch (e) {
      this.report(e);
      return;
    }
    this.pathChanged();
  }

  removeLast() {
    const d = this.state.drafts[this.state.limb];
    if (!d.points.length) return;
    d.points = d.points.slice(0, -1);
    this.pathChanged();
  }

  clear() {
    const s = this.state;
    s.drafts[s.limb].points = [];
    delete s.targets[s.limb];
    s.progress = 0;
    this.controls.progress.set(0);
    this.pathChanged();
  }

  /** "Generate keyframes": check the paths, then play the keyframes from their start. */
  async generateKeyframes() {
    const s = this.state;
    try {
      this.ensureSession().tracedLimbs(s);
    } catch (e) {
      this.report(e);
      return;
    }
    s.generated = true;
    await this.play();
  }

  async play() {
    const s = this.state;
    if (!s.generated) return;
    s.phase = 'play';
    this.refresh();
    if (await this.app.regenerateNow({ keepBeat: false })) this.app.viewer.play();
    else this.edit(true);
  }

  // ---- the mode's motion ----

  generate() {
    const app = this.app, s = this.state;
    const fresh = this.session?.model !== app.model;
    const session = this.ensureSession();
    if (fresh) this.refresh();
    const bpm = app.bpm ?? 120;
    const beatFrames = 1800 / bpm;
    if (s.phase === 'play') {
      try {
        // on the page's beat grid (a song's beats, or taps / a typed offset), as the catwalk and the
        // groove: keyframe beats on the song's beats, the cycle repeated to the song's end
        const grid = app.bpm !== null && app.tempo ? app.tempo() : null;
        const tempo = grid && typeof grid === 'object' ? grid : bpm;
        const listed = tempo !== bpm && tempo.beats?.length ? tempo.beats[tempo.beats.length - 1] : 0;
        const until = Math.max(listed, app.music?.buffer ? app.music.duration : 0);
        const r = (this.played = session.playback(s, tempo, { until }));
        this.refreshStatus();
        // the loop is what the bake wrote (plan.frames): on a grid its beats are not beatFrames apart
        return { vmd: r.vmd, plan: r.plan, report: r.report, sync: r.report.sync ?? null, loopFrames: Math.max(1, r.plan.frames), beatFrames,
          name: `trace-${Math.round(bpm)}`, looping: !(tempo !== bpm && until > 0), // with a song: one motion to its end
          keyCount: app.pm.readVmd(r.vmd).bones.count, keyframes: r.keyframes,
          traced: r.limbs.map((l) => t(`trace.limb.${l}`)).join(', ') };
      } catch (e) {
        // say why, and show the live pose instead
        s.phase = 'edit';
        s.generated = false;
        this.refresh();
        this.report(e);
      }
    }
    return { vmd: session.previewVmd(s, bpm), loopFrames: Math.max(1, Math.round(beatFrames)), beatFrames, name: 'trace-pose' };
  }

  dispose() {
    for (const off of this.offs) off();
    for (const c of Object.values(this.controls)) c.dispose();
    this.gizmo.dispose();
    this.session?.dispose();
    this.session = null;
  }
}

registerMode({
  id: 'tracing',
  blend: false, // an editor: the live pose answers at once, no transition into it
  order: 30,
  requires: (pm) => typeof pm.createTimeline === 'function' && typeof pm.sampleTrajectory === 'function',
  mount(container, app) {
    const c = new TracingController(container, app);
    app.tracing = c;
    return { dispose() { c.dispose(); if (app.tracing === c) app.tracing = null; } };
  },
  ready: (app) => !!app.tracing,
  generate: (app) => app.tracing.generate(),
});
