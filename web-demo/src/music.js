// The Music control: choose or drop a song; it plays through Web Audio (play/pause, seek), its beats
// are detected by the core (pm.detectBeats) and its tempo and first beat fill the Tempo section, so
// every mode follows the song's tempo. The lane under the curve view shows the onset envelope and the
// beats (downbeats marked, bars numbered) around the playback position, with the whole song below.
//
// WAV goes through the core's reader (pm.readWav); any other format (MP3, OGG, FLAC, M4A...) through
// the browser's decodeAudioData. Exposed as app.music (tests read its state and lane.lastDraw).
import { clearErrors, describeError, showError } from './errors.js';
import { onLanguageChange, t } from './i18n.js';
import { beatMarks, deinterleave, envelopeColumns, formatTime, isWavBytes, laneWindow } from './music-core.js';
import { fitBpm } from './tempo.js';

const COLORS = {
  envelope: 'rgba(138,180,255,0.55)', overview: 'rgba(138,180,255,0.35)', window: 'rgba(255,255,255,0.10)',
  beat: 'rgb(154,160,170)', beatLine: 'rgba(255,255,255,0.16)', downbeat: 'rgb(195,232,141)',
  downbeatLine: 'rgba(195,232,141,0.45)', head: '#ffd54f', text: 'rgba(230,232,236,0.8)',
};
const TICKS = 12; // css px: the row of beat ticks and bar numbers at the top
const OVERVIEW = 9; // css px: the whole song at the bottom

const nextFrame = () => new Promise((ok) => requestAnimationFrame(() => ok()));

/** The lane canvas: envelope and beat marks around the playback position, the whole song below. */
export class MusicLane {
  constructor(canvas, music) {
    this.canvas = canvas;
    this.music = music;
    this.lastDraw = null; // { t0, t1, width, height, position, marks: [{ time, x, index, bar, downbeat }] } in css px
    new ResizeObserver(() => this.draw()).observe(canvas);
    let dragging = false;
    const seekAt = (e) => {
      const r = canvas.getBoundingClientRect();
      const d = this.lastDraw;
      if (!d || !music.duration) return;
      const x = Math.min(Math.max(0, e.clientX - r.left), r.width);
      const onOverview = e.clientY - r.top >= r.height - OVERVIEW;
      music.seek(onOverview ? (x / r.width) * music.duration : d.t0 + (x / r.width) * (d.t1 - d.t0));
    };
    canvas.addEventListener('pointerdown', (e) => { dragging = true; canvas.setPointerCapture?.(e.pointerId); seekAt(e); });
    canvas.addEventListener('pointermove', (e) => { if (dragging) seekAt(e); });
    canvas.addEventListener('pointerup', () => { dragging = false; });
  }

  draw() {
    const c = this.canvas;
    const m = this.music;
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(cw * dpr));
    const h = Math.max(1, Math.round(ch * dpr));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cw, ch);
    const r = m.result;
    if (!r || !cw) { this.lastDraw = null; return; }
    const position = m.position;
    const { t0, t1 } = laneWindow(position, m.duration);
    const X = (time) => ((time - t0) / (t1 - t0)) * cw;
    const top = TICKS;
    const bottom = ch - OVERVIEW - 2;
    // onset envelope, one column per css pixel
    const env = envelopeColumns(r.onsetEnvelope, r.onsetRate, Math.max(0, t0), Math.min(m.duration, t1), Math.max(1, Math.round(X(Math.min(m.duration, t1)) - X(Math.max(0, t0)))));
    const x0 = X(Math.max(0, t0));
    g.fillStyle = COLORS.envelope;
    for (let i = 0; i < env.length; i++) {
      const v = env[i] * (bottom - top);
      if (v > 0.25) g.fillRect(x0 + i, bottom - v, 1, v);
    }
    // beats: a line through the envelope and a tick on top; downbeats in green with the bar number
    const marks = beatMarks(r.beats, r.barPositions, t0, t1, cw);
    g.font = '10px system-ui, sans-serif';
    g.textBaseline = 'top';
    for (const k of marks) {
      const x = Math.round(k.x) + 0.5;
      g.fillStyle = k.downbeat ? COLORS.downbeatLine : COLORS.beatLine;
      g.fillRect(x - 0.5, top, 1, bottom - top);
      g.fillStyle = k.downbeat ? COLORS.downbeat : COLORS.beat;
      if (k.downbeat) {
        g.fillRect(x - 1.5, 0, 3, TICKS - 1);
        g.fillStyle = COLORS.text;
        g.fillText(String(k.bar), x + 4, 1);
      } else {
        g.fillRect(x - 0.5, 3, 1, TICKS - 4);
      }
    }
    // the whole song at the bottom, with the window shown
    const ov = envelopeColumns(r.onsetEnvelope, r.onsetRate, 0, m.duration, cw);
    g.fillStyle = COLORS.overview;
    for (let i = 0; i < ov.length; i++) {
      const v = ov[i] * OVERVIEW;
      if (v > 0.25) g.fillRect(i, ch - v, 1, v);
    }
    const d = m.duration || 1;
    g.fillStyle = COLORS.window;
    g.fillRect((Math.max(0, t0) / d) * cw, ch - OVERVIEW, ((Math.min(d, t1) - Math.max(0, t0)) / d) * cw, OVERVIEW);
    // playhead (the window keeps it at 30 % of the width)
    g.fillStyle = COLORS.head;
    const hx = Math.round(X(position));
    g.fillRect(hx - 0.75, 0, 1.5, ch);
    g.fillRect((position / d) * cw - 0.75, ch - OVERVIEW, 1.5, OVERVIEW);
    this.lastDraw = { t0, t1, width: cw, height: ch, position, marks };
  }
}

/** The panel section, the player and the analysis. `els`: the section's elements (main.js). */
export class MusicControl {
  constructor(app, els) {
    this.app = app;
    this.els = els;
    this.state = 'empty'; // 'empty' | 'loading' | 'analysing' | 'ready' | 'error'
    this.name = null;
    this.duration = 0;
    this.buffer = null; // the AudioBuffer that plays
    this.result = null; // pm.detectBeats' result
    this.decoder = null; // 'core' (pm.readWav) | 'browser' (decodeAudioData)
    this.analysisMs = 0;
    this.ctx = null;
    this.source = null;
    this.startedAt = 0; // ctx.currentTime at song time 0 while playing
    this.offset = 0; // song time while paused
    this._token = 0;
    this._raf = 0;
    this.lane = new MusicLane(els.lane, this);
    els.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    els.seek.addEventListener('input', () => this.seek(Number(els.seek.value)));
    els.use.addEventListener('click', () => this.applyTempo());
    els.remove.addEventListener('click', () => this.remove());
    els.file.addEventListener('change', async () => {
      const file = els.file.files?.[0];
      els.file.value = '';
      if (file) await this.load(file);
    });
    onLanguageChange(() => this._show());
    this._show();
  }

  get playing() {
    return !!this.source;
  }

  /** The playback position in seconds of the song. */
  get position() {
    if (!this.source) return this.offset;
    return Math.min(this.duration, Math.max(0, this.ctx.currentTime - this.startedAt));
  }

  _context() {
    this.ctx ??= new AudioContext();
    return this.ctx;
  }

  /** Reads, decodes and analyses an audio file (a File or Blob with a name). Resolves true when it plays. */
  async load(file) {
    const token = ++this._token;
    const name = file.name ?? 'audio';
    clearErrors();
    this.state = 'loading';
    this._show({ status: t('music.reading', { name }) });
    let buffer, samples = null, channels = 1, rate = 0, decoder;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const ctx = this._context();
      if (isWavBytes(bytes)) {
        try {
          const wav = this.app.pm.readWav(bytes);
          if (!wav.frames) throw new Error(t('music.empty'));
          buffer = ctx.createBuffer(wav.channels, wav.frames, wav.sampleRate);
          deinterleave(wav.samples, wav.channels).forEach((d, c) => buffer.copyToChannel(d, c));
          ({ samples, channels, sampleRate: rate } = wav);
          decoder = 'core';
        } catch (coreError) {
          // A WAV the core does not take (ADPCM, A-law...): the browser may still decode it.
          buffer = await ctx.decodeAudioData(bytes.slice().buffer).catch(() => { throw coreError; });
          decoder = 'browser';
        }
      } else {
        buffer = await ctx.decodeAudioData(bytes.slice().buffer);
        decoder = 'browser';
      }
      if (token !== this._token) return false;
      this.state = 'analysing';
      this._show({ status: t('music.analysing', { name }) });
      await nextFrame(); // let the status show before the (synchronous) analysis
      if (token !== this._token) return false;
      const t0 = performance.now();
      const result = samples ? this.app.pm.detectBeats(samples, rate, { channels }) : this.app.pm.detectBeats(buffer);
      const analysisMs = performance.now() - t0;
      if (token !== this._token) return false;
      this._stopSource();
      Object.assign(this, { name, buffer, result, decoder, analysisMs, duration: buffer.duration, offset: 0, state: 'ready' });
    } catch (e) {
      if (token !== this._token) return false;
      this.state = this.result ? 'ready' : 'empty';
      showError('err.audio', { name, detail: describeError(e) });
      this._show();
      return false;
    }
    this.els.lane.hidden = false;
    document.body.classList.add('has-music');
    this.applyTempo();
    this._show();
    this.lane.draw();
    return true;
  }

  /** The detected tempo and first beat into the Tempo section (every mode follows the BPM). */
  applyTempo() {
    const r = this.result;
    const bpm = r ? fitBpm(r.bpm) : null;
    if (!r || bpm === null || r.beats.length < 2) return false;
    this.app.setTempo({ bpm, offset: r.offset, grid: this.app.pm.beatGrid(r), source: 'music' });
    return true;
  }

  play() {
    if (!this.buffer || this.source) return;
    const ctx = this._context();
    if (ctx.state === 'suspended') ctx.resume();
    if (this.offset >= this.duration - 1e-3) this.offset = 0;
    const src = ctx.createBufferSource();
    src.buffer = this.buffer;
    src.connect(ctx.destination);
    src.onended = () => {
      if (this.source !== src) return; // stopped by pause or seek
      this.source = null;
      this.offset = this.duration;
      this._show();
      this.lane.draw();
    };
    src.start(0, this.offset);
    this.startedAt = ctx.currentTime - this.offset;
    this.source = src;
    if (!this.app.viewer.playing) this.app.viewer.play(); // the music's play button starts the motion too
    this._show();
    this._loop();
  }

  pause() {
    if (!this.source) return;
    this.offset = this.position;
    this._stopSource();
    this._show();
    this.lane.draw();
  }

  /** Move the playback position to `seconds` (playing on from there when it plays). */
  seek(seconds) {
    if (!this.buffer) return;
    const s = Math.min(this.duration, Math.max(0, Number(seconds) || 0));
    const wasPlaying = this.playing;
    this._stopSource();
    this.offset = s;
    if (wasPlaying) this.play();
    else { this._show(); this.lane.draw(); }
  }

  /** Stop and forget the song (the tempo stays what it was). */
  remove() {
    this._token++;
    this._stopSource();
    Object.assign(this, { name: null, buffer: null, result: null, decoder: null, duration: 0, offset: 0, state: 'empty' });
    this.els.lane.hidden = true;
    document.body.classList.remove('has-music');
    this._show();
  }

  _stopSource() {
    const src = this.source;
    this.source = null;
    if (src) {
      try { src.stop(); } catch { /* already ended */ }
      src.disconnect();
    }
    cancelAnimationFrame(this._raf);
  }

  _loop() {
    cancelAnimationFrame(this._raf);
    let lastText = '';
    const tick = () => {
      if (!this.source) return;
      this.lane.draw();
      const text = this._timeText();
      if (text !== lastText) { this.els.time.textContent = text; lastText = text; }
      this.els.seek.value = this.position;
      this._raf = requestAnimationFrame(tick);
    };
    this._raf = requestAnimationFrame(tick);
  }

  _timeText() {
    return this.buffer ? `${formatTime(this.position)} / ${formatTime(this.duration)}` : '';
  }

  /** The panel: buttons, seek bar, time and the detection's summary (or `status` while busy). */
  _show({ status } = {}) {
    const { play, seek, time, info, use, remove } = this.els;
    const ready = !!this.buffer;
    play.disabled = !ready;
    seek.disabled = !ready;
    remove.hidden = !ready;
    use.hidden = !ready;
    play.textContent = this.playing ? '❚❚' : '▶';
    const label = t(this.playing ? 'music.pause' : 'music.play');
    play.title = label;
    play.setAttribute('aria-label', label);
    seek.max = this.duration || 1;
    seek.value = this.position;
    time.textContent = this._timeText();
    const r = this.result;
    if (status) info.textContent = status;
    else if (!r) info.textContent = t('music.hint');
    else if (!(r.bpm > 0) || r.beats.length < 2) info.textContent = t('music.noBeats', { name: this.name });
    else {
      const bpm = fitBpm(r.bpm);
      info.textContent = t('music.detected', {
        name: this.name, bpm: r.bpm.toFixed(1), meter: `${r.beatsPerBar}/4`, offset: r.offset.toFixed(2),
        confidence: r.confidence.toFixed(2), ms: Math.round(this.analysisMs),
      }) + (Math.abs(bpm - r.bpm) > 0.1 ? ` ${t('music.folded', { bpm })}` : '');
    }
  }
}
