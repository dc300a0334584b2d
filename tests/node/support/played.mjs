// The measuring harness: where named bones go when a motion is played, per frame, as babylon-mmd
// shows it (MmdRuntime, its own CCD IK, physics off) or as procmotion's MMD-exact evaluator computes
// it; and the distances tests assert on. C has the same on our side: tests/zoo/zoo.h, pm_zoo_play.
//
//   import { playBones, maxDistance } from './support/played.mjs';
//   const played = await playBones(model, vmd, ['左足首', '右足首'], frames);          // babylon-mmd
//   assert.ok(maxDistance(played, result.plan.ankles).max < 0.01);                    // 6 floats a frame
//   const ours = await playBones(model, vmd, names, frames, { runtime: 'procmotion', pm });
//
// `model` is PMX/PMD bytes or an entry of support/zoo.mjs (zooModels(), everyModel()); `vmd` is VMD
// bytes or null (the rest pose, IK on); `frames` any (fractional) frame numbers.
import { createMmdScene, disposeMmdScene, evaluateFrame, setMotion } from './babylon.mjs';

function modelBytes(model) {
  return model instanceof Uint8Array || model instanceof ArrayBuffer ? new Uint8Array(model) : model.bytes();
}

function extensionOf(bytes) {
  return bytes[0] === 0x50 && bytes[1] === 0x6d && bytes[2] === 0x64 ? '.pmd' : '.pmx'; // "Pmd"
}

/** The played positions: positions[(f * names.length + k) * 3 + axis]. */
function result(names, frames, positions) {
  const index = new Map(names.map((n, k) => [n, k]));
  const bone = (name) => {
    const k = index.get(name);
    if (k === undefined) throw new Error(`bone ${name} was not played (${names.join(', ')})`);
    return k;
  };
  return {
    names, frames, positions,
    /** [x, y, z] of bone `name` at frame index fi. */
    at(fi, name) {
      const o = (fi * names.length + bone(name)) * 3;
      return [positions[o], positions[o + 1], positions[o + 2]];
    },
    /** Float64Array(3 * frames.length): bone `name` over the frames. */
    track(name) {
      const k = bone(name), out = new Float64Array(3 * frames.length);
      for (let f = 0; f < frames.length; f++) out.set(positions.subarray((f * names.length + k) * 3, (f * names.length + k) * 3 + 3), 3 * f);
      return out;
    },
  };
}

/**
 * A model loaded once for several motions. runtime 'babylon' (default): babylon-mmd 1.3's JS
 * MmdRuntime in a NullEngine scene; 'procmotion': pm.createPoseEvaluator on the model's bytes (pass
 * `pm`). `play(vmd, names, frames)` returns the played positions; call `dispose()` when done.
 */
export async function createPlayer(model, { runtime = 'babylon', pm = null } = {}) {
  const bytes = modelBytes(model);
  if (runtime === 'procmotion') {
    if (!pm) throw new Error('createPlayer: runtime procmotion needs { pm }');
    return {
      runtime,
      async play(vmd, names, frames) {
        const ev = pm.createPoseEvaluator(vmd, bytes);
        try {
          const all = ev.boneNames, idx = names.map((n) => {
            const i = all.indexOf(n);
            if (i < 0) throw new Error(`bone ${n} not in the model`);
            return i;
          });
          const out = new Float64Array(frames.length * names.length * 3);
          frames.forEach((f, fi) => {
            const p = ev.evaluate(f).positions;
            idx.forEach((i, k) => out.set(p.subarray(3 * i, 3 * i + 3), (fi * names.length + k) * 3));
          });
          return result(names, frames, out);
        } finally {
          ev.dispose();
        }
      },
      dispose() {},
    };
  }
  if (runtime !== 'babylon') throw new Error(`createPlayer: unknown runtime ${runtime}`);
  const ctx = await createMmdScene(bytes, { extension: extensionOf(bytes) });
  let bound = false;
  return {
    runtime, ctx,
    async play(vmd, names, frames) {
      const idx = names.map((n) => {
        const i = ctx.boneNames.indexOf(n);
        if (i < 0) throw new Error(`bone ${n} not in the model`);
        return i;
      });
      if (vmd) {
        await setMotion(ctx, vmd);
        bound = true;
      } else if (bound) {
        ctx.model.setRuntimeAnimation(null);
        bound = false;
      }
      const out = new Float64Array(frames.length * names.length * 3);
      for (let fi = 0; fi < frames.length; fi++) {
        const w = await evaluateFrame(ctx, frames[fi]);
        idx.forEach((i, k) => {
          const o = (fi * names.length + k) * 3;
          out[o] = w[16 * i + 12], out[o + 1] = w[16 * i + 13], out[o + 2] = w[16 * i + 14];
        });
      }
      return result(names, frames, out);
    },
    dispose() {
      disposeMmdScene(ctx);
    },
  };
}

/** One motion on one model: createPlayer + play + dispose. */
export async function playBones(model, vmd, names, frames, options = {}) {
  const player = await createPlayer(model, options);
  try {
    return await player.play(vmd, names, frames);
  } finally {
    player.dispose();
  }
}

/** 0, step, ..., last (inclusive): the frames of a loop. */
export function frameRange(last, step = 1) {
  const out = [];
  for (let f = 0; f <= last + 1e-9; f += step) out.push(f);
  return out;
}

/**
 * How far played bones are from a plan: `plan` holds 3 numbers per bone per frame, bones in the
 * order of `names` (default: every bone played, e.g. ['左足首', '右足首'] for result.plan.ankles),
 * frames as played. Returns { max, rms, frame, bone } (the frame number and bone of the worst point).
 */
export function maxDistance(played, plan, names = played.names) {
  const per = names.length * 3;
  if (plan.length < per * played.frames.length) {
    throw new Error(`maxDistance: the plan has ${plan.length} numbers, ${per * played.frames.length} needed`);
  }
  let max = 0, sum = 0, frame = null, bone = null;
  played.frames.forEach((f, fi) => {
    names.forEach((name, k) => {
      const p = played.at(fi, name), o = fi * per + 3 * k;
      const d = Math.hypot(p[0] - plan[o], p[1] - plan[o + 1], p[2] - plan[o + 2]);
      sum += d * d;
      if (!(d <= max)) [max, frame, bone] = [d, f, name];
    });
  });
  return { max, rms: Math.sqrt(sum / Math.max(1, played.frames.length * names.length)), frame, bone };
}

/** The largest distance between two bones over the frames (e.g. an ankle and its 足ＩＫ): { max, frame }. */
export function boneGap(played, a, b) {
  let max = 0, frame = null;
  played.frames.forEach((f, fi) => {
    const p = played.at(fi, a), q = played.at(fi, b);
    const d = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    if (!(d <= max)) [max, frame] = [d, f];
  });
  return { max, frame };
}

/** How far a bone goes below height y (0 when never): { depth, frame }. */
export function below(played, name, y) {
  let depth = 0, frame = null;
  played.frames.forEach((f, fi) => {
    const d = y - played.at(fi, name)[1];
    if (d > depth) [depth, frame] = [d, f];
  });
  return { depth, frame };
}

/** The largest distance of a bone from a fixed point [x, y, z] (an anchor): { max, frame }. */
export function driftFrom(played, name, point) {
  let max = 0, frame = null;
  played.frames.forEach((f, fi) => {
    const p = played.at(fi, name);
    const d = Math.hypot(p[0] - point[0], p[1] - point[1], p[2] - point[2]);
    if (!(d <= max)) [max, frame] = [d, f];
  });
  return { max, frame };
}

/**
 * VMD bytes that key every bone of `skeleton` (readPmx's shape) at frames 0 and 30 with rotations
 * about varied axes and small translations: it exercises fixed axes, append, local axes and IK, so
 * two skeletons that pose it alike carry the same semantics (tests/zoo's pm_zoo_every_bone_motion
 * makes the same keys in C).
 */
export function everyBoneVmd(pm, skeleton) {
  const names = skeleton.bones.map((b) => b.name);
  const n = names.length, keys = 2 * n;
  const nameIndex = new Uint32Array(keys), frames = new Uint32Array(keys);
  const positions = new Float32Array(3 * keys), rotations = new Float32Array(4 * keys);
  const interpolations = new Uint8Array(64 * keys);
  const linear = [20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 2; k++) {
      const j = 2 * i + k, angle = 0.3 + 0.01 * i + 0.2 * k;
      const ax = [Math.sin(i), Math.cos(2 * i), Math.sin(3 * i + 1)], l = Math.hypot(...ax), h = Math.sin(angle / 2) / l;
      nameIndex[j] = i;
      frames[j] = 30 * k;
      rotations.set([ax[0] * h, ax[1] * h, ax[2] * h, Math.cos(angle / 2)], 4 * j);
      positions.set([0.1 * Math.sin(i + k), 0.1 * Math.cos(i), 0.05 * k], 3 * j);
      for (let r = 0; r < 4; r++) interpolations.set([...linear.slice(r), ...new Array(r).fill(0)], 64 * j + 16 * r);
    }
  }
  return pm.writeVmd({ modelName: 'every bone', bones: { count: keys, names, nameIndex, frames, positions, rotations, interpolations } });
}
