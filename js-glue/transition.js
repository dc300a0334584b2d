// Transitions: a short VMD that blends the pose one motion has when a viewer changes mode into the next
// motion, the feet planted or stepping (docs/modes.md).
//
//   await pm.loadAsync('motion');
//   const { vmd, frames, nextFrame } = pm.bakeTransition(idleVmd, catwalkVmd, pmxBytes, { fromFrame: 412 });
//
// Part of procmotion's 'motion' feature module (motion.js puts transitionMethods on a ProcMotion).
import { checkCount, invalid } from './runtime.js';

const frameOf = (v, what) => {
  if (!(Number.isFinite(v) && v >= 0)) throw invalid('transition', `bakeTransition: ${what} must be a frame >= 0, got ${v}`);
  return v;
};

export const transitionMethods = {
  /**
   * A transition from `fromVmd` (held at options.fromFrame) into `toVmd` (playing from options.toFrame,
   * looping over options.toLoopFrames when given) on the model `skeleton` (PMX/PMD bytes or readPmx's
   * skeleton): `{ vmd, frames, nextFrame, report }`. Play `vmd` (frames 0 .. frames), then `toVmd` from
   * `nextFrame`. options.frames: the blend's length (default 30, 4 .. 300).
   */
  bakeTransition(fromVmd, toVmd, skeleton, options = {}) {
    const fromFrame = frameOf(options.fromFrame ?? 0, 'fromFrame'), toFrame = frameOf(options.toFrame ?? 0, 'toFrame');
    const frames = checkCount(options.frames ?? 30, 'bakeTransition: frames', 'transition');
    const loop = checkCount(options.toLoopFrames ?? 0, 'bakeTransition: toLoopFrames', 'transition');
    return this._withSkeletonAndMotions(skeleton, [fromVmd, toVmd], (sk, [a, b], s, errPtr) => {
      if (!a || !b) throw invalid('transition', 'bakeTransition: needs the outgoing and the incoming motion');
      const out = s.alloc(16);
      if (this.mod.pm_abi_transition_bake(sk, a, b, fromFrame, toFrame, frames, loop, out, out + 4, out + 8, out + 12, errPtr) !== 0) {
        this._throw(s, errPtr, 'transition');
      }
      const vmd = this._takeBytes(out);
      const report = JSON.parse(this._takeText(out + 8));
      const next = toFrame + report.frames;
      return { vmd, frames: report.frames, nextFrame: loop ? next % loop : next, report };
    }, 'bakeTransition');
  },
};
