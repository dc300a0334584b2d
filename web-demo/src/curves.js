// The small curve view under the timeline: both feet's heights (左足ＩＫ / 右足ＩＫ Y) and the hip
// sway (センター + グルーブ X) of the playing motion over one loop, with beat marks and the
// playhead. The values come from the VMD itself (pm.readVmd), evaluated the way babylon-mmd does:
// key B's Bezier curve for the segment A -> B (BezierInterpolate is babylon-mmd's own function).
// With a plan (setFeet, foot-heights.js) the feet are the ankles' heights above rest instead: planned
// (dashed) and played on the model (solid), per foot; a separate series list, drawn over the same axes.
import { BezierInterpolate } from 'babylon-mmd/esm/Runtime/Animation/bezierInterpolate.js';

import { onLanguageChange, t } from './i18n.js';

const ALIASES = {
  leftFoot: ['左足ＩＫ', '左足IK'],
  rightFoot: ['右足ＩＫ', '右足IK'],
  center: ['センター'],
  groove: ['グルーブ'],
};

/** Keys of one bone: { frames: [], values: [] (axis), curves: [[x1, x2, y1, y2]] } sorted by frame. */
function boneTrack(vmd, names, axis) {
  const b = vmd.bones;
  const wanted = new Set();
  b.names.forEach((n, i) => { if (names.includes(n)) wanted.add(i); });
  if (!wanted.size) return null;
  const keys = [];
  for (let i = 0; i < b.count; i++) {
    if (!wanted.has(b.nameIndex[i])) continue;
    const ip = b.interpolations.subarray(64 * i, 64 * i + 64);
    keys.push({
      frame: b.frames[i],
      value: b.positions[3 * i + axis],
      // babylon-mmd: axis a takes x1 = b[16a], y1 = b[16a+4], x2 = b[16a+8], y2 = b[16a+12].
      curve: [ip[16 * axis] / 127, ip[16 * axis + 8] / 127, ip[16 * axis + 4] / 127, ip[16 * axis + 12] / 127],
    });
  }
  keys.sort((a, c) => a.frame - c.frame);
  return keys;
}

function evaluate(keys, frame) {
  if (!keys || !keys.length) return 0;
  if (frame <= keys[0].frame) return keys[0].value;
  const last = keys[keys.length - 1];
  if (frame >= last.frame) return last.value;
  let lo = 0;
  let hi = keys.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (keys[mid].frame <= frame) lo = mid;
    else hi = mid;
  }
  const a = keys[lo];
  const b = keys[hi];
  const x = (frame - a.frame) / (b.frame - a.frame);
  const [x1, x2, y1, y2] = b.curve;
  return a.value + (b.value - a.value) * BezierInterpolate(x1, x2, y1, y2, x);
}

/**
 * Samples a motion (a readVmd result) over [0, loopFrames]: { frames, leftFoot, rightFoot, hipSway }
 * (Float32Arrays, `steps` + 1 samples; null for a curve whose bones have no keys) and travel, the
 * [min, max] of センター Z (how far the body walks along Z).
 */
export function sampleCurves(vmd, loopFrames, steps = 240) {
  const lf = boneTrack(vmd, ALIASES.leftFoot, 1);
  const rf = boneTrack(vmd, ALIASES.rightFoot, 1);
  const cx = boneTrack(vmd, ALIASES.center, 0);
  const gx = boneTrack(vmd, ALIASES.groove, 0);
  const cz = boneTrack(vmd, ALIASES.center, 2);
  const n = steps + 1;
  const frames = new Float32Array(n);
  const leftFoot = lf ? new Float32Array(n) : null;
  const rightFoot = rf ? new Float32Array(n) : null;
  const hipSway = cx || gx ? new Float32Array(n) : null;
  let zMin = 0;
  let zMax = 0;
  for (let i = 0; i < n; i++) {
    const f = (loopFrames * i) / steps;
    const z = evaluate(cz, f);
    zMin = Math.min(zMin, z);
    zMax = Math.max(zMax, z);
    frames[i] = f;
    if (leftFoot) leftFoot[i] = evaluate(lf, f);
    if (rightFoot) rightFoot[i] = evaluate(rf, f);
    if (hipSway) hipSway[i] = evaluate(cx, f) + evaluate(gx, f);
  }
  return { frames, leftFoot, rightFoot, hipSway, travel: [zMin, zMax] };
}

const COLORS = { leftFoot: '#5fb3ff', rightFoot: '#ff8a65', leftFootPlayed: '#5fb3ff', rightFootPlayed: '#ff8a65',
  leftFootPlanned: 'rgba(200, 228, 255, 0.8)', rightFootPlanned: 'rgba(255, 214, 200, 0.8)', hipSway: '#c3e88d', beat: 'rgba(255,255,255,0.10)',
  bar: 'rgba(255,255,255,0.22)', axis: 'rgba(255,255,255,0.18)', head: '#ffd54f', text: 'rgba(230,232,236,0.75)' };

/** The feet of a footHeights result as [key, values, dashed]: planned (wide, light, dashed) under played (solid). */
function footSeries(feet) {
  const out = [];
  for (const side of ['left', 'right']) {
    if (feet.planned?.[side]) out.push([`${side}FootPlanned`, feet.planned[side], true]);
    if (feet.played[side]) out.push([`${side}FootPlayed`, feet.played[side], false]);
  }
  return out;
}

/** The canvas view. update(samples, loopFrames, beatFrames) once per motion, draw(frame) per frame. */
export class CurveView {
  constructor(canvas, legend) {
    this.canvas = canvas;
    this.legend = legend;
    this.samples = null;
    this.loopFrames = 0;
    this.beatFrames = 0;
    this.frame = 0;
    this.feet = null;
    this._buildLegend();
    onLanguageChange(() => this._buildLegend());
    new ResizeObserver(() => this.draw(this.frame)).observe(canvas);
  }

  _buildLegend() {
    if (!this.legend) return;
    const feet = this.feet ? footSeries(this.feet).map(([k, , dashed]) => [k, dashed]) : [['leftFoot'], ['rightFoot']];
    this.legend.replaceChildren(...[...feet, ['hipSway'], ['beats']].map(([k, dashed]) => {
      const item = document.createElement('span');
      item.className = 'legend-item';
      item.dataset.series = k;
      const sw = document.createElement('i');
      const color = k === 'beats' ? COLORS.bar : COLORS[k];
      if (dashed) sw.style.background = `repeating-linear-gradient(90deg, ${color} 0 4px, transparent 4px 7px)`;
      else sw.style.background = color;
      item.append(sw, t(`curve.${k}`));
      return item;
    }));
  }

  /** The planned and played foot heights (foot-heights.js footHeights), or null for the VMD's IK keys. */
  setFeet(feet) {
    this.feet = feet;
    this._buildLegend();
    this.draw(this.frame);
  }

  update(samples, loopFrames, beatFrames) {
    this.samples = samples;
    this.loopFrames = loopFrames;
    this.beatFrames = beatFrames;
    this.draw(this.frame);
  }

  draw(frame) {
    this.frame = frame;
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(c.clientWidth * dpr));
    const h = Math.max(1, Math.round(c.clientHeight * dpr));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const g = c.getContext('2d');
    g.clearRect(0, 0, w, h);
    const s = this.samples;
    if (!s || !this.loopFrames) return;
    const pad = 6 * dpr;
    const x = (f) => pad + ((w - 2 * pad) * f) / this.loopFrames;
    // beat marks (every 4th beat stronger)
    if (this.beatFrames > 0) {
      const beats = this.loopFrames / this.beatFrames;
      g.lineWidth = 1 * dpr;
      for (let b = 0; b <= beats + 1e-6; b++) {
        const X = Math.round(x(b * this.beatFrames)) + 0.5;
        g.strokeStyle = b % 4 === 0 ? COLORS.bar : COLORS.beat;
        g.beginPath(); g.moveTo(X, 0); g.lineTo(X, h); g.stroke();
      }
    }
    const feet = this.feet ? footSeries(this.feet) : null;
    const curves = feet ?? [['leftFoot', s.leftFoot], ['rightFoot', s.rightFoot]].filter(([, a]) => a);
    if (!curves.length && !s.hipSway) {
      g.fillStyle = COLORS.text;
      g.font = `${12 * dpr}px system-ui, sans-serif`;
      g.fillText(t('curve.empty'), pad, h / 2);
    }
    // feet: one shared scale from 0 (rest) to the highest lift, in the lower 60 % of the view
    const footTop = h * 0.44;
    const footBottom = h - pad;
    let maxLift = 1e-3;
    for (const [, a] of curves) for (const v of a) maxLift = Math.max(maxLift, v);
    let minLift = 0;
    for (const [, a] of curves) for (const v of a) minLift = Math.min(minLift, v);
    const yFoot = (v) => footBottom - ((v - minLift) / (maxLift - minLift)) * (footBottom - footTop);
    g.strokeStyle = COLORS.axis;
    g.beginPath(); g.moveTo(pad, Math.round(yFoot(0)) + 0.5); g.lineTo(w - pad, Math.round(yFoot(0)) + 0.5); g.stroke();
    g.lineWidth = 2 * dpr;
    g.lineJoin = 'round';
    for (const [k, a, dashed] of curves) {
      g.setLineDash(dashed ? [5 * dpr, 4 * dpr] : []);
      g.lineWidth = (dashed ? 4 : 1.5) * dpr; // where they agree the plan shows as dashes around the played line
      this._line(g, feet ? null : s.frames, a, x, yFoot, COLORS[k]);
    }
    g.setLineDash([]);
    g.lineWidth = 2 * dpr;
    // hip sway: centred in the upper part, symmetric scale
    if (s.hipSway) {
      let amp = 1e-3;
      for (const v of s.hipSway) amp = Math.max(amp, Math.abs(v));
      const mid = h * 0.2;
      const half = h * 0.15;
      this._line(g, s.frames, s.hipSway, x, (v) => mid - (v / amp) * half, COLORS.hipSway);
    }
    // playhead
    const X = Math.round(x(((frame % this.loopFrames) + this.loopFrames) % this.loopFrames)) + 0.5;
    g.strokeStyle = COLORS.head;
    g.lineWidth = 1.5 * dpr;
    g.beginPath(); g.moveTo(X, 0); g.lineTo(X, h); g.stroke();
  }

  _line(g, frames, values, x, y, color) {
    g.strokeStyle = color;
    g.beginPath();
    for (let i = 0; i < values.length; i++) {
      const X = x(frames ? frames[i] : i); // no frames: one value per whole frame
      const Y = y(values[i]);
      if (i === 0) g.moveTo(X, Y);
      else g.lineTo(X, Y);
    }
    g.stroke();
  }
}
