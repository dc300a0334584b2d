// The tracing mode's logic without DOM or Babylon (tested in Node): the page's trace state, a
// session per model (two timelines of the core: one holds the drafts and the generated keyframes,
// one poses the live preview), and the small vector helpers the drag and the tests use.
//
// Points are stored as the core stores them: offsets from the limb root's world position (腕 for a
// hand, 足 for a foot) in model axes. In this mode nothing moves the roots, so the root's world
// position is its rest position, and a path's world points are root + offset.

/** The limbs, with the bones each one needs (docs/tracing.md). */
export const TRACE_LIMBS = [
  { id: 'leftHand', root: '左腕', mid: '左ひじ', end: '左手首' },
  { id: 'rightHand', root: '右腕', mid: '右ひじ', end: '右手首' },
  { id: 'leftFoot', root: '左足', mid: '左ひざ', end: '左足首' },
  { id: 'rightFoot', root: '右足', mid: '右ひざ', end: '右足首' },
];
export const LIMB_IDS = TRACE_LIMBS.map((l) => l.id);
export const limbInfo = (id) => TRACE_LIMBS.find((l) => l.id === id);

/** The panel's settings that are not per limb (key, range, default). */
export const TRACE_PARAMS = [
  { key: 'trace.mode', type: 'select', options: ['line', 'curve'], default: 'line', label: 'trace.mode' },
  { key: 'trace.pole', type: 'range', min: -180, max: 180, step: 5, unit: '°', default: 0, label: 'trace.pole' },
  { key: 'trace.progress', type: 'range', min: 0, max: 1, step: 0.01, default: 0, label: 'trace.progress' },
  { key: 'trace.count', type: 'range', min: 2, max: 20, step: 1, default: 5, label: 'trace.count' },
  { key: 'trace.beatStep', type: 'select', options: ['0.5', '1', '2'], default: '1', label: 'trace.beatStep' },
  { key: 'trace.easing', type: 'select', options: ['linear', 'ease-in-out'], default: 'linear', label: 'trace.easing' },
];

/** After the traced span the pose holds HOLD_BEATS, then returns to the first keyframe in RETURN_BEATS (a seamless loop). */
export const HOLD_BEATS = 1;
export const RETURN_BEATS = 1;
/** On a beat grid the cycle repeats to cover the song, up to MAX_SECONDS (18 000 frames) and MAX_KEYFRAMES
 * timeline keyframes (the core's limit is PM_TIMELINE_MAX_KEYFRAMES, 10 000). */
export const MAX_SECONDS = 600;
export const MAX_KEYFRAMES = 9000;

/** A mistake in the user's input: shown in the banner as t(key, vars). */
export class TraceInputError extends Error {
  constructor(key, vars = {}) {
    super(`${key} ${JSON.stringify(vars)}`);
    this.name = 'TraceInputError';
    this.key = key;
    this.vars = vars;
  }
}

/** The page's trace state (kept across mode switches and model changes). */
export function newTraceState() {
  return {
    limb: 'leftHand',
    drafts: Object.fromEntries(LIMB_IDS.map((id) => [id, { mode: 'line', points: [], poleAngle: 0 }])),
    targets: {}, // limb -> world [x, y, z] of the IK target, once moved
    progress: 0,
    count: 5,
    beatStep: 1,
    easing: 'linear',
    phase: 'edit', // 'edit': the live pose; 'play': the generated keyframes
    generated: false, // keyframes were generated for the paths as they are
  };
}

// ---- vectors ----------------------------------------------------------------------------------

export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];

export function mean(points) {
  const s = points.reduce((acc, p) => add(acc, p), [0, 0, 0]);
  return scale(s, 1 / points.length);
}

/** Where the ray origin + s·dir meets the plane through `point` with `normal` (null when parallel or behind). */
export function rayPlane(origin, dir, point, normal) {
  const d = dot(normal, dir);
  if (Math.abs(d) < 1e-9) return null;
  const s = dot(normal, sub(point, origin)) / d;
  return s < 0 ? null : add(origin, scale(dir, s));
}

/** v rotated by `degrees` about the axis through the origin (right-hand rule in the axis' frame; Rodrigues). */
export function rotateAbout(v, axis, degrees) {
  const len = Math.hypot(...axis);
  if (!(len > 1e-9) || !degrees) return [...v];
  const k = scale(axis, 1 / len);
  const a = (degrees * Math.PI) / 180;
  const c = Math.cos(a), s = Math.sin(a);
  return add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c)));
}

/** Distance from p to the polyline through flat [x, y, z, ...] samples. */
export function distanceToPolyline(p, flat) {
  let best = Infinity;
  const n = flat.length / 3;
  for (let i = 0; i < n; i++) {
    const a = [flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]];
    if (n === 1) return Math.hypot(...sub(p, a));
    if (i === n - 1) break;
    const b = [flat[3 * i + 3], flat[3 * i + 4], flat[3 * i + 5]];
    const ab = sub(b, a);
    const l2 = dot(ab, ab);
    const u = l2 > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), ab) / l2)) : 0;
    best = Math.min(best, Math.hypot(...sub(p, add(a, scale(ab, u)))));
  }
  return best;
}

/** t values 0..1 for drawing a path of `pointCount` points: `perSegment` per segment. */
export function drawingTs(pointCount, perSegment = 24) {
  const n = Math.max(1, (pointCount - 1) * perSegment);
  return Array.from({ length: n + 1 }, (_, i) => i / n);
}

// ---- the session: one model's timelines -------------------------------------------------------

/**
 * The core's timelines for one model. skeleton: what pm.createTimeline takes (PMX/PMD bytes or a
 * skeleton object). dispose() when the model goes.
 */
export class TraceSession {
  constructor(pm, skeleton, model = null) {
    this.pm = pm;
    this.model = model;
    this.timeline = pm.createTimeline(skeleton);
    try {
      this.preview = pm.createTimeline(skeleton);
    } catch (e) {
      this.timeline.dispose();
      throw e;
    }
    // Rest positions of each limb's root and end (the empty timeline plays the rest pose).
    const pose = this.timeline.evaluate(0);
    const at = (i) => Array.from(pose.positions.subarray(3 * i, 3 * i + 3));
    this.rest = {};
    for (const l of TRACE_LIMBS) {
      const idx = [l.root, l.mid, l.end].map((n) => pose.boneNames.indexOf(n));
      const missing = [l.root, l.mid, l.end].filter((_, k) => idx[k] < 0);
      this.rest[l.id] = missing.length ? { missing } : { root: at(idx[0]), end: at(idx[2]) };
    }
  }

  dispose() {
    this.timeline.dispose();
    this.preview.dispose();
  }

  /** Does this model have the limb's three bones? */
  canTrace(limb) {
    return !this.rest[limb].missing;
  }

  /** The limb's rest { root, end }; a TraceInputError naming the missing bones otherwise. */
  limbRest(limb) {
    const r = this.rest[limb];
    if (r.missing) throw new TraceInputError('err.traceBones', { limb, bones: r.missing.join(', ') });
    return r;
  }

  /** Offset from the limb root -> world. */
  world(limb, rel) {
    return add(this.limbRest(limb).root, rel);
  }

  /** The point at progress t (0..1) of a limb's draft (offset from the root), or null without points. */
  sample(draft, t) {
    if (!draft.points.length) return null;
    return this.pm.sampleTrajectory(draft.mode, draft.points, t);
  }

  /** World samples (flat Float32Array) of a draft's path for drawing, or null under two points. */
  pathWorld(limb, draft, perSegment = 24) {
    if (draft.points.length < 2) return null;
    const s = this.pm.sampleTrajectory(draft.mode, draft.points, drawingTs(draft.points.length, perSegment));
    const root = this.limbRest(limb).root;
    for (let i = 0; i < s.length; i++) s[i] += root[i % 3];
    return s;
  }

  /** The pole offset for a draft: the core's default (undefined) or it turned by draft.poleAngle about root -> the path. */
  pole(limb, draft, relTarget = null) {
    if (!draft.poleAngle) return undefined;
    const axis = draft.points.length ? mean(draft.points) : relTarget;
    if (!axis) return undefined;
    return rotateAbout(this.timeline.defaultPole(limb), axis, draft.poleAngle);
  }

  /** Make the timeline's draft of `limb` the page's. */
  syncDraft(limb, draft) {
    if (!this.canTrace(limb)) return;
    if (draft.points.length) this.timeline.setTrajectory(limb, { mode: draft.mode, points: draft.points, pole: this.pole(limb, draft) });
    else this.timeline.clearTrajectory(limb);
  }

  /** Append the world point as a control point of the limb's draft (stored by the core relative to the root). */
  addPoint(state, limb, world) {
    this.limbRest(limb);
    const draft = state.drafts[limb];
    if (draft.points.length >= 64) throw new TraceInputError('err.traceTooMany', { limb, max: 64 });
    this.syncDraft(limb, draft);
    this.timeline.addControlPoint(limb, world, 0, draft.mode);
    draft.points = this.timeline.getTrajectory(limb).points; // as the core holds them (float32)
    return draft;
  }

  /**
   * What the preview shows: per limb, the offset its end reaches. The chosen limb reaches its target
   * (where the sphere is) once moved; the others with points sit on their paths at the progress.
   */
  previewTargets(state) {
    const out = [];
    for (const limb of LIMB_IDS) {
      if (!this.canTrace(limb)) continue;
      const draft = state.drafts[limb];
      const target = limb === state.limb ? state.targets[limb] : null;
      const rel = target ? sub(target, this.rest[limb].root) : this.sample(draft, state.progress);
      if (rel) out.push({ limb, rel, pole: this.pole(limb, draft, rel) });
    }
    return out;
  }

  /**
   * The live pose as a VMD: each limb of previewTargets solved by the core's two-bone IK (a
   * two-keyframe trace standing on one point), baked at `bpm`. Beat 0 to 1 hold that pose.
   */
  previewVmd(state, bpm) {
    const tl = this.preview;
    tl.clear();
    tl.bpm = bpm;
    const targets = this.previewTargets(state);
    for (const { limb, rel, pole } of targets) {
      tl.setTrajectory(limb, { mode: 'line', points: [rel, rel], pole });
      tl.generateKeyframes(limb, { count: 2, startBeat: 0, beatStep: 1 });
    }
    if (!targets.length) tl.addKeyframe({ beat: 0 }); // the rest pose
    return tl.bake(bpm).vmd;
  }

  /** The limbs to generate: every limb with points; each needs two or more (TraceInputError otherwise). */
  tracedLimbs(state) {
    const limbs = LIMB_IDS.filter((l) => state.drafts[l].points.length > 0);
    if (!limbs.length) throw new TraceInputError('err.traceNoPath');
    for (const limb of limbs) {
      this.limbRest(limb);
      const n = state.drafts[limb].points.length;
      if (n < 2) throw new TraceInputError('err.tracePoints', { limb, points: n });
    }
    return limbs;
  }

  /**
   * Generate the keyframes (state.count along every traced limb's path, state.beatStep beats apart,
   * state.easing), hold HOLD_BEATS, return to the first pose in RETURN_BEATS, bake at `tempo`: a BPM,
   * or a beat grid (app.tempo(): a song's beats, or a BPM with its offset) on which keyframe beat b
   * lands on the grid's beat b (Timeline.bake's grid: the song's offset and drift). On a grid the
   * cycle starts on its first beat at or after 0 s and repeats until `until` seconds (the song's
   * length; 0: one cycle, at most MAX_SECONDS) are covered, so the motion stays on the song's beats
   * to its end. Returns { vmd, plan (plan.frames: the motion's length, the loop), report (Timeline.bake:
   * the plan and what MMD plays, measured; report.sync on a grid), limbs, keyframes (on the paths, a
   * cycle), timelineKeyframes (all, with the holds and returns), traceBeats, loopBeats (a cycle),
   * startBeat, cycles }.
   */
  playback(state, tempo, { until = 0 } = {}) {
    const limbs = this.tracedLimbs(state);
    const count = Math.round(state.count);
    if (!(count >= 2 && count <= 20)) throw new TraceInputError('err.traceCount', { count });
    const grid = tempo !== null && typeof tempo === 'object';
    const traceBeats = (count - 1) * state.beatStep;
    const loopBeats = traceBeats + HOLD_BEATS + RETURN_BEATS;
    let startBeat = 0, cycles = 1;
    if (grid && this.pm.modules.includes('beats')) { // the grid's queries are the beats module's
      // keyframes sit at beats >= 0 and at or after 0 s (a grid's beat 0 may be before the song starts)
      startBeat = Math.max(0, Math.ceil(this.pm.beatGridBeat(tempo, 0) - 1e-6));
      const end = Math.min(Number(until) || 0, MAX_SECONDS);
      if (end > 0) cycles = Math.ceil((this.pm.beatGridBeat(tempo, end) - startBeat) / loopBeats);
      cycles = Math.max(1, Math.min(cycles, Math.floor(MAX_KEYFRAMES / (count + 1))));
    }
    const tl = this.timeline;
    tl.clear();
    tl.bpm = grid ? tempo.bpm : tempo;
    for (const limb of LIMB_IDS) this.syncDraft(limb, state.drafts[limb]);
    for (let k = 0; k < cycles; k++) {
      const beat = startBeat + k * loopBeats;
      const index = tl.keyframeCount;
      for (const limb of limbs) tl.generateKeyframes(limb, { count, startBeat: beat, beatStep: state.beatStep, easing: state.easing });
      // the return into this cycle's first pose eases in and out, as the last cycle's return does
      if (k > 0) tl.addKeyframe({ ...tl.getKeyframe(index), easing: 'ease-in-out' });
      tl.addKeyframe({ beat: beat + traceBeats + HOLD_BEATS }); // the last pose, captured: a hold
    }
    const first = tl.getKeyframe(0);
    tl.addKeyframe({ beat: startBeat + cycles * loopBeats, easing: 'ease-in-out', rotations: first.rotations, translations: first.translations });
    const { vmd, plan, report } = tl.bake(tempo);
    return { vmd, plan, report, limbs, keyframes: count, timelineKeyframes: tl.keyframeCount, traceBeats, loopBeats, startBeat, cycles };
  }
}
