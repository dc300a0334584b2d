// The "Keypoints" toggle: the MediaPipe Pose 33-point skeleton of the playing motion, drawn in an
// inset in the 3D view's top-right corner, in sync with the playhead.
//
// The keypoints come from pm.toKeypoints on the VMD that is playing (the generated catwalk or the
// loaded file): on the MMD standard skeleton for the built-in mannequin, on the loaded model's own
// skeleton (options.model, its PMX/PMD bytes) otherwise. They are recomputed when the motion or the
// model changes, and only while the toggle is on. The inset draws the 33 points and MediaPipe's 35
// connections in image coordinates (x_img, y_img; y down), zoomed once per motion to the box every
// frame fits in (fitView), the character's left in blue and right in orange (as the curve view's
// feet), points with visibility < 0.5 dimmed and inferred ones (0.5) as rings, and below the
// figure the ten joint angles in degrees. Per rendered frame it samples into preallocated buffers
// (interpolating between the 30 fps keypoint frames) and redraws only when the frame changed: no
// allocation in the loop.
import { describeError, showError } from './errors.js';
import { onLanguageChange, t } from './i18n.js';
import {
  ANGLE_ROWS, POSE_CONNECTIONS, connectionSide, cosineToDegrees, createKeypointSample, fitView, pointSide, sampleKeypoints,
} from './keypoints.js';

/** Least time between two conversions while the motion keeps changing (a slider drag). */
export const THROTTLE_MS = 150;

/** Longest motion converted (30 minutes at 30 fps: 54 000 frames, about 25 MB of keypoints). */
export const KEYPOINT_MAX_FRAMES = 54_000;

const COLORS = {
  left: '#5fb3ff', right: '#ff8a65', centre: '#e6e8ec',
  panel: 'rgba(24, 25, 29, 0.84)', frame: 'rgba(255,255,255,0.10)', axis: 'rgba(255,255,255,0.07)',
  text: '#e6e8ec', muted: 'rgba(230,232,236,0.6)', ghost: 'rgba(230,232,236,0.28)',
};
const SIDE_COLOR = { '-1': COLORS.left, 1: COLORS.right, 0: COLORS.centre };

// Layout in logical pixels (the canvas is scaled to its CSS width): title, figure square, angles.
const W = 228;
const PAD = 10;
const TITLE_H = 20;
const FIG_W = W - 2 * PAD;
const FIG_H = 232;
const FIG_Y = PAD + TITLE_H;
const TABLE_Y = FIG_Y + FIG_H + 6;
const ROW_H = 15;
export const OVERLAY_SIZE = { width: W, height: TABLE_Y + ROW_H * 7 + PAD - 4 };

const DEGREES = Array.from({ length: 181 }, (_, d) => `${d}°`);
const CONNECTION_STYLE = POSE_CONNECTIONS.map((c) => SIDE_COLOR[connectionSide(c)]);
const CONNECTION_ENDS = Uint8Array.from(POSE_CONNECTIONS.flat());
const POINT_STYLE = Array.from({ length: 33 }, (_, i) => SIDE_COLOR[pointSide(i)]);

export class KeypointOverlay {
  /**
   * container: the element the inset sits in (#viewport); app: the page's state (main.js: pm,
   * viewer, motion, model); onChange: called after each conversion.
   */
  constructor(container, app, { onChange = () => {} } = {}) {
    this.app = app;
    this.onChange = onChange; // called after each (re)computation: the page refreshes its info block
    this.enabled = false;
    this.timer = 0;
    this.lastCompute = -Infinity;
    this.data = null; // the toKeypoints result for `source`
    this.ghost = null; // a retargeted motion's source as keypoints (drawn grey behind the result), and its bytes
    this.ghostBytes = null;
    this.agreement = NaN; // the mean |cosine difference| of the ten angles, source against result
    this.ghostSample = createKeypointSample();
    this.hasGhost = false;
    this.source = null; // { vmd, model } the data was computed from
    this.error = null;
    this.computeMs = 0;
    this.sample = createKeypointSample();
    this.hasSample = false;
    this.screen = new Float32Array(66); // the points in canvas coordinates
    this.view = { cx: 0.5, cy: 0.5, scale: FIG_H }; // image coordinates -> figure (fitView)
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'kp-overlay';
    this.canvas.className = 'kp-overlay';
    this.canvas.hidden = true;
    this.canvas.setAttribute('role', 'img');
    container.style.setProperty('--kp-ratio', String(OVERLAY_SIZE.width / OVERLAY_SIZE.height));
    container.append(this.canvas);
    this.labels = null;
    this.lastFrame = NaN;
    this._relabel();
    onLanguageChange(() => { this._relabel(); this.redraw(); });
    new ResizeObserver(() => this.redraw()).observe(this.canvas);
  }

  _relabel() {
    this.labels = {
      title: t('kp.title'),
      left: t('kp.left'),
      right: t('kp.right'),
      empty: t('kp.empty'),
      source: t('kp.source'),
      rows: ANGLE_ROWS.map((r) => t(`kp.angle.${r.key}`)),
    };
    this.canvas.setAttribute('aria-label', this.labels.title);
  }

  /** Shows or hides the inset; showing computes the keypoints of the playing motion. */
  setEnabled(on) {
    this.enabled = !!on;
    this.canvas.hidden = !this.enabled;
    if (!this.enabled) {
      clearTimeout(this.timer);
      this.timer = 0;
    }
    this.update();
    this.redraw();
  }

  /**
   * Recomputes the keypoints when the playing motion or the model changed (only while enabled). A
   * slider drag regenerates the motion every animation frame, and on a loaded model a conversion
   * takes tens of milliseconds: a change within THROTTLE_MS of the last conversion waits for the end
   * of that interval, and the latest motion then wins (the inset shows the previous motion's keypoints
   * meanwhile). Errors go to the page's banner; the rest of the page carries on.
   */
  update() {
    const { app } = this;
    const motion = app.motion;
    if (!this.enabled || this.timer) return;
    if (!motion?.vmd || !app.model) {
      this.data = null;
      this.source = null;
      this.redraw();
      return;
    }
    if (this.source && this.source.vmd === motion.vmd && this.source.model === app.model) return;
    const wait = this.lastCompute + THROTTLE_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => { this.timer = 0; this.update(); }, wait);
      return;
    }
    this.source = { vmd: motion.vmd, model: app.model };
    this.data = null;
    this.error = null;
    const options = { maxFrames: KEYPOINT_MAX_FRAMES };
    if (!app.model.builtIn && app.model.bytes) options.model = app.model.bytes;
    const t0 = performance.now();
    try {
      this.data = app.pm.toKeypoints(motion.vmd, { format: 'vmd', ...options });
      this.computeMs = performance.now() - t0;
      fitView(this.data, FIG_W, FIG_H, this.view);
      this._updateGhost();
    } catch (e) {
      this.error = describeError(e);
      showError('err.keypoints', { name: motion.name ?? 'motion', detail: this.error });
    }
    this.lastCompute = performance.now();
    this.onChange();
    this.redraw();
  }

  /** A retargeted motion (the Loaded motion mode, app.userVmd.source): its source as keypoints too. */
  _updateGhost() {
    const v = this.app.userVmd, src = v?.retarget && this.app.motion?.vmd === v.bytes ? v.source : null;
    if (!src) {
      this.ghost = null, this.ghostBytes = null, this.agreement = NaN;
      return;
    }
    if (this.ghostBytes !== src.bytes) {
      this.ghost = this.app.pm.toKeypoints(src.bytes, { fps: 30, maxFrames: KEYPOINT_MAX_FRAMES });
      this.ghostBytes = src.bytes;
    }
    const a = this.ghost.angles, b = this.data.angles, n = Math.min(a.length, b.length);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Math.abs(a[i] - b[i]);
    this.agreement = n ? sum / n : NaN;
  }

  /** Info-block rows [label, value] for the keypoints in use (none while off or failed). */
  infoRows() {
    const kp = this.enabled ? this.data : null;
    if (!kp) return [];
    const rows = [[t('info.kpFrames'), t('info.kpFramesValue', { frames: kp.frameCount, ms: this.computeMs.toFixed(1) })]];
    if (kp.stats.legs) rows.push([t('info.kpLegs'), kp.stats.legs.toUpperCase()]);
    rows.push([t('info.kpIgnored'), String(kp.stats.ignoredBones)]);
    rows.push([t('info.kpSkeleton'), this.source?.model && !this.source.model.builtIn && this.source.model.bytes
      ? t('info.kpSkeletonModel') : t('info.kpSkeletonStandard')]);
    if (this.ghost) rows.push([t('info.kpSource'), t('info.kpSourceValue', { mean: this.agreement.toFixed(3) })]);
    return rows;
  }

  /** Draws the inset for the viewer's frame (30 fps VMD frames); cheap when nothing changed. */
  draw(frame) {
    if (!this.enabled || frame === this.lastFrame) return;
    this.lastFrame = frame;
    this.hasSample = sampleKeypoints(this.data, (frame * 1000) / 30, this.sample);
    this.hasGhost = !!this.ghost && sampleKeypoints(this.ghost, (frame * 1000) / 30, this.ghostSample);
    this._paint();
  }

  /** Forces a repaint at the current frame (new data, language, size). */
  redraw() {
    const frame = this.app.viewer?.frame ?? 0;
    this.lastFrame = NaN;
    this.draw(frame);
  }

  _paint() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const cssW = c.clientWidth || W;
    const w = Math.max(1, Math.round(cssW * dpr));
    const h = Math.max(1, Math.round((cssW * OVERLAY_SIZE.height * dpr) / W));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const g = c.getContext('2d');
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    g.setTransform(w / W, 0, 0, w / W, 0, 0);
    const L = this.labels;
    g.textBaseline = 'middle';
    g.font = '600 11px system-ui, sans-serif';
    g.fillStyle = COLORS.muted;
    g.textAlign = 'left';
    g.fillText(L.title, PAD, PAD + TITLE_H / 2 - 2);

    // the figure's frame, with a faint cross through the pelvis (image point 0.5, 0.5)
    const { cx, cy, scale } = this.view;
    const ox = PAD + FIG_W / 2 - cx * scale;
    const oy = FIG_Y + FIG_H / 2 - cy * scale;
    g.strokeStyle = COLORS.frame;
    g.lineWidth = 1;
    g.strokeRect(PAD + 0.5, FIG_Y + 0.5, FIG_W - 1, FIG_H - 1);
    g.save();
    g.beginPath();
    g.rect(PAD, FIG_Y, FIG_W, FIG_H);
    g.clip();
    g.strokeStyle = COLORS.axis;
    g.beginPath();
    g.moveTo(ox + 0.5 * scale, FIG_Y); g.lineTo(ox + 0.5 * scale, FIG_Y + FIG_H);
    g.moveTo(PAD, oy + 0.5 * scale); g.lineTo(PAD + FIG_W, oy + 0.5 * scale);
    g.stroke();

    if (!this.hasSample) {
      g.restore();
      g.fillStyle = COLORS.muted;
      g.textAlign = 'center';
      g.font = '12px system-ui, sans-serif';
      g.fillText(L.empty, W / 2, FIG_Y + FIG_H / 2 - 14);
      return;
    }
    if (this.hasGhost) { // the source, grey, behind the result
      const G = this.ghostSample.points;
      g.lineCap = 'round';
      g.lineWidth = 3;
      g.strokeStyle = COLORS.ghost;
      g.beginPath();
      for (let j = 0; j < CONNECTION_ENDS.length; j += 2) {
        const a = CONNECTION_ENDS[j], b = CONNECTION_ENDS[j + 1];
        g.moveTo(ox + G[3 * a] * scale, oy + G[3 * a + 1] * scale);
        g.lineTo(ox + G[3 * b] * scale, oy + G[3 * b + 1] * scale);
      }
      g.stroke();
      g.fillStyle = COLORS.muted;
      g.textAlign = 'right';
      g.font = '11px system-ui, sans-serif';
      g.fillText(L.source, PAD + FIG_W - 4, FIG_Y + 10);
    }
    const { points: P, visibility: V, angles: A } = this.sample;
    const S = this.screen;
    for (let i = 0; i < 33; i++) {
      S[2 * i] = ox + P[3 * i] * scale;
      S[2 * i + 1] = oy + P[3 * i + 1] * scale;
    }
    g.lineCap = 'round';
    g.lineWidth = 2.2;
    for (let j = 0; j < CONNECTION_ENDS.length; j += 2) {
      const a = CONNECTION_ENDS[j];
      const b = CONNECTION_ENDS[j + 1];
      g.globalAlpha = V[a] < 0.5 || V[b] < 0.5 ? 0.25 : 0.85;
      g.strokeStyle = CONNECTION_STYLE[j >> 1];
      g.beginPath();
      g.moveTo(S[2 * a], S[2 * a + 1]);
      g.lineTo(S[2 * b], S[2 * b + 1]);
      g.stroke();
    }
    // points: nearer the camera (z < 0) a little larger; direct joints filled, inferred ones rings
    g.lineWidth = 1.4;
    for (let i = 0; i < 33; i++) {
      const v = V[i];
      const r = Math.max(1.5, 3.4 * (1 - 1.2 * P[3 * i + 2]));
      g.globalAlpha = v < 0.5 ? 0.3 : 1;
      g.beginPath();
      g.arc(S[2 * i], S[2 * i + 1], v >= 0.5 && v < 1 ? r * 0.8 : r, 0, 2 * Math.PI);
      if (v >= 0.5 && v < 1) {
        g.fillStyle = COLORS.panel;
        g.fill();
        g.strokeStyle = POINT_STYLE[i];
        g.stroke();
      } else {
        g.fillStyle = POINT_STYLE[i];
        g.fill();
      }
    }
    g.restore();
    g.globalAlpha = 1;

    // the ten angles (degrees): shoulder / elbow / hip / knee as left and right, then neck and spine
    g.font = '11px system-ui, sans-serif';
    const colL = W - PAD - 62;
    const colR = W - PAD;
    let y = TABLE_Y + ROW_H / 2;
    g.textAlign = 'right';
    g.fillStyle = COLORS.left;
    g.fillText(L.left, colL, y);
    g.fillStyle = COLORS.right;
    g.fillText(L.right, colR, y);
    y += ROW_H;
    for (let r = 0; r < 4; r++) {
      const row = ANGLE_ROWS[r];
      g.textAlign = 'left';
      g.fillStyle = COLORS.muted;
      g.fillText(L.rows[r], PAD, y);
      g.textAlign = 'right';
      g.fillStyle = COLORS.left;
      g.fillText(DEGREES[cosineToDegrees(A[row.left])], colL, y);
      g.fillStyle = COLORS.right;
      g.fillText(DEGREES[cosineToDegrees(A[row.right])], colR, y);
      y += ROW_H;
    }
    for (let r = 4; r < 6; r++) {
      g.textAlign = 'left';
      g.fillStyle = COLORS.muted;
      g.fillText(L.rows[r], PAD, y);
      g.textAlign = 'right';
      g.fillStyle = COLORS.centre;
      g.fillText(DEGREES[cosineToDegrees(A[ANGLE_ROWS[r].centre])], colR, y);
      y += ROW_H;
    }
  }
}
