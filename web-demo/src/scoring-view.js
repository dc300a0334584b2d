// The Keypoints section's "Score a performance": a dancer's keypoints (MediaPipe JSON, NDJSON, .kpb) or
// any motion file scored against the motion that is playing (pm.scoreDance, docs/scoring.md). The panel
// shows the score, each body part's score and timing, and each frame's score as a curve under a playhead.
import { describeError, showError } from './errors.js';
import { onLanguageChange, t } from './i18n.js';

const PARTS = ['left_arm', 'right_arm', 'left_leg', 'right_leg', 'torso'];
const W = 260, H = 70;

/** The part's timing in words: late, early or on time (within one frame). */
export function lagText(lag, fps = 30) {
  if (Math.abs(lag) < 0.5 / fps) return t('score.onTime');
  return t(lag > 0 ? 'score.late' : 'score.early', { s: Math.abs(lag).toFixed(2) });
}

export function setupScoring(app, $) {
  const input = $('#file-score'), panel = $('#score-panel'), canvas = $('#score-curve');
  const view = { result: null, name: '', lastFrame: NaN };
  app.scoring = null;

  const render = () => {
    const r = view.result;
    panel.hidden = !r;
    if (!r) return;
    $('#score-value').textContent = t('score.result', { score: r.score.toFixed(1), name: view.name, offset: r.offset.toFixed(2) });
    const rows = PARTS.map((p) => `<tr><th>${t(`score.part.${p}`)}</th><td>${r.joints[p].score.toFixed(0)}</td><td>${lagText(r.joints[p].lag, r.fps)}</td></tr>`);
    $('#score-parts').innerHTML = rows.join('');
    view.lastFrame = NaN;
    draw(app.viewer?.frame ?? 0);
  };

  const draw = (frame) => {
    const r = view.result;
    if (!r || frame === view.lastFrame) return;
    view.lastFrame = frame;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== W * dpr) { canvas.width = W * dpr; canvas.height = H * dpr; }
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    g.strokeStyle = 'rgba(255,255,255,0.12)';
    g.strokeRect(0.5, 0.5, W - 1, H - 1);
    const n = r.perFrame.length, x = (i) => (n > 1 ? (i / (n - 1)) * (W - 4) + 2 : W / 2), y = (v) => H - 2 - (v / 100) * (H - 4);
    g.strokeStyle = 'rgba(255,255,255,0.08)';
    g.beginPath(); g.moveTo(0, y(50)); g.lineTo(W, y(50)); g.stroke();
    g.strokeStyle = '#7ee08a';
    g.lineWidth = 1.5;
    g.beginPath();
    for (let i = 0; i < n; i++) (i ? g.lineTo : g.moveTo).call(g, x(i), y(r.perFrame[i]));
    g.stroke();
    const at = Math.min(n - 1, Math.max(0, Math.round(frame)));
    g.fillStyle = '#e6e8ec';
    g.fillRect(x(at) - 0.5, 0, 1, H);
  };

  input.addEventListener('change', async () => {
    const file = input.files[0];
    input.value = '';
    if (!file) return;
    try {
      await app.pm.loadAsync('keypoints');
      const motion = app.motion;
      if (!motion?.vmd) throw new Error(t('score.noMotion'));
      const referenceOptions = { format: 'vmd' };
      if (app.model && !app.model.builtIn && app.model.bytes) referenceOptions.model = app.model.bytes;
      const bytes = new Uint8Array(await file.arrayBuffer());
      const t0 = performance.now();
      view.result = app.pm.scoreDance(motion.vmd, bytes, { referenceOptions, performanceOptions: { fps: 30 } });
      view.name = file.name;
      app.scoring = { name: file.name, result: view.result, ms: performance.now() - t0 };
      render();
    } catch (e) {
      showError('err.score', { name: file.name, detail: describeError(e) });
    }
  });
  onLanguageChange(render);
  return { draw };
}
