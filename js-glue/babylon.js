// procmotion/babylon: helpers that connect procmotion to a babylon-mmd (1.3) scene.
//
//   import { createProcMotion } from 'procmotion';
//   import { createCatwalkAnimationAsync, loopRuntimeAnimation } from 'procmotion/babylon';
//   const pm = await createProcMotion();
//   const { animation, loopFrames } = await createCatwalkAnimationAsync(pm, mmdModel, { hipSway: 0.8 }, 128);
//   mmdModel.setRuntimeAnimation(mmdModel.createRuntimeAnimation(animation));
//   const loop = loopRuntimeAnimation(mmdRuntime, loopFrames);   // loop.dispose() stops looping
//
// babylon-mmd is a peer dependency: this module never imports it statically (nothing of it is
// bundled with procmotion). The VMD is turned into an animation by babylon-mmd's own
// `VmdLoader.loadFromBufferAsync`, loaded on first use with a dynamic import of
// 'babylon-mmd/esm/Loader/vmdLoader.js', or taken from `options.VmdLoader` (pass the class your app
// already imports from 'babylon-mmd' to share one copy and skip the dynamic import).
import { invalid } from './runtime.js';

/** Is `x` an MmdModel (babylon-mmd runtime model)? */
function isMmdModel(x) {
  return x && Array.isArray(x.runtimeBones) && x.mesh;
}

/** Is `x` an MmdMesh (a mesh whose metadata is babylon-mmd's MmdModelMetadata)? */
function isMmdMesh(x) {
  return x && x.metadata && x.metadata.isMmdModel === true && Array.isArray(x.metadata.bones);
}

/** A mesh whose metadata createMmdModel has already trimmed (TrimmedMmdSkinedModelMetadata). */
function isTrimmedMmdMesh(x) {
  return x && x.metadata && x.metadata.isTrimmedMmdSkinedModel === true && x.metadata.skeleton;
}

/** Morph target names of the model's meshes (babylon-mmd names each target after its morph). */
function morphTargetNames(meshes) {
  const names = new Set();
  for (const m of meshes ?? []) {
    const mgr = m.morphTargetManager;
    for (let i = 0; mgr && i < mgr.numTargets; i++) names.add(mgr.getTarget(i).name);
  }
  return [...names];
}

/**
 * Bone names, morph names and the rest skeleton (world rest positions, parents) of a loaded
 * babylon-mmd model: an `MmdModel` (from `MmdRuntime.createMmdModel`) or an `MmdMesh` (the mesh the
 * PMX/PMD loader produced; once createMmdModel has run on it, its metadata is trimmed and only vertex
 * morphs can still be named: prefer the MmdModel then). Positions are in the model's own space (MMD
 * units, as in the file).
 * Returns `{ boneNames, morphNames, skeleton: { names, positions: Float32Array, parents: Int32Array } }`,
 * ready for `pm.generateCatwalkVmd(state, bpm, morphNames, boneNames, { skeleton })`.
 */
export function getModelInfo(target) {
  let names, parents, local;
  let morphNames = [];
  if (isMmdModel(target)) {
    const bones = target.runtimeBones;
    const index = new Map(bones.map((b, i) => [b, i]));
    names = bones.map((b) => b.name);
    parents = bones.map((b) => (b.parentBone ? index.get(b.parentBone) ?? -1 : -1));
    local = bones.map((b) => restTranslation(b.linkedBone));
    morphNames = (target.morph?.morphs ?? []).map((m) => m.name);
  } else if (isMmdMesh(target)) {
    const meta = target.metadata;
    names = meta.bones.map((b) => b.name);
    parents = meta.bones.map((b) => b.parentBoneIndex);
    const skBones = meta.skeleton?.bones ?? [];
    local = names.map((_, i) => (skBones[i] ? restTranslation(skBones[i]) : null));
    morphNames = (meta.morphs ?? []).map((m) => m.name);
  } else if (isTrimmedMmdMesh(target)) {
    // After createMmdModel the mesh keeps only the Babylon skeleton: bones from there, morph names
    // from the morph targets (material and bone morphs are not among them: pass the MmdModel instead).
    const bones = target.metadata.skeleton.bones;
    const index = new Map(bones.map((b, i) => [b, i]));
    names = bones.map((b) => b.name);
    parents = bones.map((b) => (b.getParent() ? index.get(b.getParent()) ?? -1 : -1));
    local = bones.map((b) => restTranslation(b));
    morphNames = morphTargetNames(target.metadata.meshes);
  } else {
    throw invalid('babylon', 'getModelInfo: expected an MmdModel or an MmdMesh');
  }
  // MMD rest matrices are pure translations (the offset from the parent): sum them down the tree.
  const n = names.length;
  const positions = new Float32Array(3 * n).fill(NaN);
  const done = new Uint8Array(n);
  const resolve = (i, depth) => {
    if (done[i] || depth > n) return;
    const p = parents[i];
    const t = local[i];
    if (!t) return;
    if (p >= 0 && p < n) {
      resolve(p, depth + 1);
      for (let k = 0; k < 3; k++) positions[3 * i + k] = positions[3 * p + k] + t[k];
    } else {
      positions.set(t, 3 * i);
    }
    done[i] = 1;
  };
  for (let i = 0; i < n; i++) resolve(i, 0);
  return {
    boneNames: names,
    morphNames,
    skeleton: { names, positions, parents: Int32Array.from(parents, (p) => (p >= 0 && p < n ? p : -1)) },
  };
}

function restTranslation(bone) {
  const m = bone?.getRestMatrix?.();
  if (!m) return null;
  const a = m.m ?? m.asArray?.();
  return a ? [a[12], a[13], a[14]] : null;
}

/** An exactly-sized ArrayBuffer copy (babylon-mmd's readers ignore a view's byteOffset). */
function exactBuffer(bytes) {
  if (bytes instanceof ArrayBuffer) return bytes;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

let vmdLoaderModule = null;

/**
 * Turn VMD bytes into a babylon-mmd `MmdAnimation` with `VmdLoader.loadFromBufferAsync`.
 * options: `name` (default 'Catwalk'), `scene` (default null),
 * `VmdLoader` (the class; default: dynamically imported from babylon-mmd).
 */
export async function loadVmdAnimationAsync(vmdBytes, options = {}) {
  let Loader = options.VmdLoader;
  if (!Loader) {
    vmdLoaderModule ??= import('babylon-mmd/esm/Loader/vmdLoader.js');
    Loader = (await vmdLoaderModule).VmdLoader;
  }
  const loader = new Loader(options.scene ?? null);
  if (options.loggingEnabled !== undefined) loader.loggingEnabled = options.loggingEnabled;
  return loader.loadFromBufferAsync(options.name ?? 'Catwalk', exactBuffer(vmdBytes));
}

/**
 * The catwalk in one call: read the model's names and skeleton, generate the VMD, load it as an
 * `MmdAnimation`. Returns `{ animation, result, loopFrames }` where `result` is generateCatwalkVmd's
 * return value. Bind it with `model.setRuntimeAnimation(model.createRuntimeAnimation(animation))`
 * (import 'babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation' once for createRuntimeAnimation)
 * and loop it with loopRuntimeAnimation(mmdRuntime, loopFrames). `options.modelBytes` (the PMX/PMD
 * file the model was loaded from; the 'motion' module is loaded for it) lets the walk land on the model and
 * measure what babylon-mmd will show (`result.plan`, `result.report`; docs/landing.md); without it
 * only names and rest positions are known and `result.report` is null.
 */
export async function createCatwalkAnimationAsync(pm, target, state = {}, bpm = null, options = {}) {
  const info = getModelInfo(target);
  const skeleton = options.modelBytes ?? info.skeleton;
  if (options.modelBytes) await pm.loadAsync('motion'); // landing on the model: the model reader and the evaluator
  const result = pm.generateCatwalkVmd(state, bpm, info.morphNames, info.boneNames, { skeleton });
  const animation = await loadVmdAnimationAsync(result.vmd, options);
  return { animation, result, loopFrames: result.loopFrames };
}

/**
 * The idle in one call, as createCatwalkAnimationAsync: the model's names and skeleton read,
 * pm.generateIdleVmd run (the 'motion' module is loaded for it), the VMD loaded as an `MmdAnimation`.
 * Returns `{ animation, result, loopFrames }`. `options.modelBytes` (the PMX/PMD file) lands the feet on
 * the model and measures it (`result.report`, `result.body`).
 */
export async function createIdleAnimationAsync(pm, target, state = {}, bpm = null, options = {}) {
  const info = getModelInfo(target);
  await pm.loadAsync('motion');
  const result = pm.generateIdleVmd(state, bpm, info.morphNames, info.boneNames, { skeleton: options.modelBytes ?? info.skeleton });
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Idle', ...options });
  return { animation, result, loopFrames: result.loopFrames };
}

/**
 * The dance in one call, as createIdleAnimationAsync: the model's names and skeleton read,
 * pm.generateAutoDanceVmd run on `bpmOrBeats` (a detectBeats result, a grid, a BPM or null; the 'motion'
 * module is loaded for it), the VMD loaded as an `MmdAnimation`. Returns `{ animation, result,
 * loopFrames }` (loopFrames: a loop's length, or the song's frames). `options.modelBytes` (the PMX/PMD
 * file) lands the feet on the model and measures it (`result.report`, `result.body`).
 */
export async function createDanceAnimationAsync(pm, target, state = {}, bpmOrBeats = null, options = {}) {
  const info = getModelInfo(target);
  await pm.loadAsync('motion');
  const result = pm.generateAutoDanceVmd(state, bpmOrBeats, info.morphNames, info.boneNames, { skeleton: options.modelBytes ?? info.skeleton });
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Dance', ...options });
  return { animation, result, loopFrames: result.loopFrames || result.frames };
}

/**
 * The groove baked on a model (pm.bakeGroove: `skeleton` is the model's PMX/PMD bytes or readPmx's
 * skeleton; `baseVmd` the motion under it or null) as an `MmdAnimation`: `{ animation, result,
 * loopFrames }` (loopFrames: the baked frames). Needs pm.loadAsync('motion').
 */
export async function createGrooveAnimationAsync(pm, skeleton, baseVmd, config, bpm, options = {}) {
  const result = pm.bakeGroove(baseVmd, skeleton, config, bpm, options);
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Groove', ...options });
  return { animation, result, loopFrames: result.report.frames };
}

/**
 * A tracing timeline baked at `bpm` (default: its own) as an `MmdAnimation`: `{ animation, result,
 * loopFrames }` (result: timeline.bake's `{ vmd, plan, report }`; loopFrames: its last frame).
 */
export async function createTimelineAnimationAsync(timeline, bpm = 0, options = {}) {
  const result = timeline.bake(bpm);
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Tracing', ...options });
  return { animation, result, loopFrames: result.plan.frames };
}

/**
 * A motion file from another rig (BVH, glTF/GLB, VRM Animation) retargeted to a model (pm.retargetToVmd:
 * `modelBytes` is the model's PMX/PMD bytes or readPmx's skeleton, null for the mannequin) as an
 * `MmdAnimation`: `{ animation, result }`. Loads the 'keypoints' module.
 */
export async function createRetargetAnimationAsync(pm, motion, modelBytes, options = {}) {
  await pm.loadAsync('keypoints');
  const result = pm.retargetToVmd(motion, { model: modelBytes ?? undefined, animation: options.animation });
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Retarget', ...options });
  return { animation, result };
}

/**
 * A transition between two motions on a model (pm.bakeTransition) as an `MmdAnimation`: `{ animation,
 * result }` (result: bakeTransition's `{ vmd, frames, nextFrame, report }`). Play it with
 * playTransition. Needs the 'motion' module.
 */
export async function createTransitionAnimationAsync(pm, skeleton, fromVmd, toVmd, options = {}) {
  const result = pm.bakeTransition(fromVmd, toVmd, skeleton, options);
  const animation = await loadVmdAnimationAsync(result.vmd, { name: 'Transition', ...options });
  return { animation, result };
}

/**
 * Change a babylon-mmd model's motion through a transition: `transition` (an MmdAnimation of
 * createTransitionAnimationAsync) plays from frame 0 on the runtime's clock; once the clock passes
 * `frames`, `next` (the incoming motion's MmdAnimation) takes over from `nextFrame`, looping over
 * `loopFrames` (0: it plays on to its end). It drives the runtime's clock, so every model on that
 * runtime. Returns `{ dispose() }`: stops the switch (and the loop) where it is.
 */
export function playTransition(runtime, model, transition, next, { frames, nextFrame = 0, loopFrames = 0 } = {}) {
  if (!runtime?.onAnimationTickObservable || !model?.createRuntimeAnimation) {
    throw invalid('babylon', 'playTransition: expected a babylon-mmd MmdRuntime and an MmdModel');
  }
  if (!(Number.isFinite(frames) && frames > 0)) throw invalid('babylon', `playTransition: frames must be a number > 0, got ${frames}`);
  const first = model.createRuntimeAnimation(transition), second = model.createRuntimeAnimation(next);
  model.setRuntimeAnimation(first);
  runtime.setManualAnimationDuration(Number.MAX_SAFE_INTEGER);
  void runtime.seekAnimation(0, true);
  let loop = null;
  const observer = runtime.onAnimationTickObservable.add(() => {
    const t = runtime.currentFrameTime;
    if (t < frames) return;
    runtime.onAnimationTickObservable.remove(observer);
    model.setRuntimeAnimation(second);
    model.destroyRuntimeAnimation(first);
    const at = nextFrame + (t - frames);
    void runtime.seekAnimation(loopFrames > 0 ? at % loopFrames : at, true);
    if (loopFrames > 0) loop = loopRuntimeAnimation(runtime, loopFrames);
    else runtime.setManualAnimationDuration(null);
  });
  return {
    dispose() {
      runtime.onAnimationTickObservable.remove(observer);
      loop?.dispose();
    },
  };
}

/**
 * Loop a babylon-mmd MmdRuntime's animation clock over frames [0, loopFrames): babylon-mmd itself
 * plays to the end of the longest animation and pauses there. While the loop runs the runtime's
 * duration is unbounded (setManualAnimationDuration) and every tick that passes loopFrames seeks
 * back by whole loops, so a motion whose keys at loopFrames equal those at 0 (every procmotion
 * generator's) plays on without a seam. It loops the runtime's clock, so every model on that runtime.
 * Returns `{ loopFrames, dispose() }`: dispose() stops looping (the runtime then plays on to its
 * animations' end and pauses, as without it); mmdRuntime.pauseAnimation() pauses as usual.
 */
export function loopRuntimeAnimation(runtime, loopFrames) {
  if (!runtime || typeof runtime.seekAnimation !== 'function' || !runtime.onAnimationTickObservable) {
    throw invalid('babylon', 'loopRuntimeAnimation: expected a babylon-mmd MmdRuntime');
  }
  if (!(Number.isFinite(loopFrames) && loopFrames > 0)) throw invalid('babylon', `loopRuntimeAnimation: loopFrames must be a number > 0, got ${loopFrames}`);
  runtime.setManualAnimationDuration(Number.MAX_SAFE_INTEGER);
  const wrap = () => {
    const t = runtime.currentFrameTime;
    if (t >= loopFrames) void runtime.seekAnimation(t % loopFrames, true);
  };
  const observer = runtime.onAnimationTickObservable.add(wrap);
  let disposed = false;
  return {
    loopFrames,
    dispose() {
      if (disposed) return;
      disposed = true;
      runtime.onAnimationTickObservable.remove(observer);
      runtime.setManualAnimationDuration(null);
    },
  };
}

// what a per-frame layer wrote last, per layer and model: key -> { base, wrote }
const written = new WeakMap();

/** The record of what `layer` wrote on `model` last (a Map of key -> { base, wrote }). */
function writtenBy(layer, model) {
  let byModel = written.get(layer);
  if (!byModel) written.set(layer, (byModel = new WeakMap()));
  let last = byModel.get(model);
  if (!last) byModel.set(model, (last = new Map()));
  return last;
}

/** The value a channel holds before the layer, given what it holds now: what the motion put there, or,
 * when it still holds what the layer wrote last time (the motion does not key it), the base from then. */
function rebase(last, key, value) {
  const w = last.get(key);
  return w && value.every((v, k) => v === w.wrote[k]) ? w.base : value;
}

/** Multiply offset `o` (x, y, z, w) onto the bone's rotation, from its base (rebase). */
function turnBone(last, key, bone, o) {
  const q = bone.rotationQuaternion;
  const a = rebase(last, key, [q.x, q.y, q.z, q.w]);
  const Quaternion = q.constructor; // babylon's own, from the bone: no import of @babylonjs/core here
  new Quaternion(a[0], a[1], a[2], a[3]).multiplyToRef(new Quaternion(o[0], o[1], o[2], o[3]), q);
  bone.rotationQuaternion = q;
  last.set(key, { base: a, wrote: [q.x, q.y, q.z, q.w] });
}

/**
 * Apply a groove (pm.createGroove) at `timeSeconds` to a babylon-mmd model whose bones are the groove
 * skeleton's, in order: each joint offset is multiplied onto its bone's rotationQuaternion and the body
 * offset added to the body bone's position; the model's own MMD leg IK plants the feet. Call it after
 * the motion was applied and before babylon-mmd solves IK and world matrices, e.g. by wrapping
 * `model.currentAnimation.animate`. A bone the motion does not key is handled too: the offset written
 * last time is taken back first, so nothing accumulates. `bpm`: a number or a beat grid. Options:
 * `legIkUser`, `resetAnchors` (Groove.offsets'). Returns the groove's frame (groove.result).
 */
export function applyGrooveToMmdModel(groove, model, timeSeconds, bpm, options = {}) {
  const bones = model?.runtimeBones;
  if (!bones || bones.length !== groove?.boneCount) {
    throw invalid('babylon', `applyGrooveToMmdModel: expected an MmdModel with the groove's ${groove?.boneCount} bones`);
  }
  const r = groove.offsets(null, timeSeconds, bpm, { ...options, offsetsOnly: true });
  const last = writtenBy(groove, model);
  for (let b = 0; b < bones.length; b++) {
    const o = r.offsets.subarray(4 * b, 4 * b + 4);
    if (o[3] === 1 && !last.has(`r${b}`)) continue;
    turnBone(last, `r${b}`, bones[b].linkedBone, o);
  }
  if (r.bodyBone >= 0) {
    const bone = bones[r.bodyBone].linkedBone, p = bone.position;
    const a = rebase(last, `p${r.bodyBone}`, [p.x, p.y, p.z]);
    p.set(a[0] + r.bodyOffset[0], a[1] + r.bodyOffset[1], a[2] + r.bodyOffset[2]);
    bone.position = p;
    last.set(`p${r.bodyBone}`, { base: a, wrote: [p.x, p.y, p.z] });
  }
  return r;
}

/**
 * Apply a lifelike layer (pm.createLifelike) at `timeSeconds` to a babylon-mmd model whose bones are the
 * layer skeleton's, in order: each channel's offset is multiplied onto its bone's rotationQuaternion, and
 * the blink morph (when the model has one) closes by the layer's weight, over whatever the motion sets.
 * Call it after the motion was applied and before babylon-mmd solves IK and world matrices (as
 * applyGrooveToMmdModel). Nothing accumulates on bones and morphs the motion does not key. Returns the
 * layer's frame (lifelike.sample's).
 */
export function applyLifelikeToMmdModel(lifelike, model, timeSeconds) {
  const bones = model?.runtimeBones;
  if (!bones || !lifelike?.channels) throw invalid('babylon', 'applyLifelikeToMmdModel: expected a Lifelike and an MmdModel');
  const fr = lifelike.sample(timeSeconds);
  const last = writtenBy(lifelike, model);
  fr.channels.forEach((c, i) => {
    if (c.bone < 0) return;
    if (c.bone >= bones.length) throw invalid('babylon', `applyLifelikeToMmdModel: the model has ${bones.length} bones, the layer's ${c.name} is bone ${c.bone}`);
    turnBone(last, `r${c.bone}`, bones[c.bone].linkedBone, fr.rotations.subarray(4 * i, 4 * i + 4));
  });
  const morph = model.morph;
  if (lifelike.blinkMorph && morph?.getMorphWeight && morph?.setMorphWeight) {
    const now = morph.getMorphWeight(lifelike.blinkMorph);
    const base = rebase(last, 'blink', [now])[0];
    const w = Math.max(base, fr.blink);
    morph.setMorphWeight(lifelike.blinkMorph, w);
    last.set('blink', { base: [base], wrote: [morph.getMorphWeight(lifelike.blinkMorph)] });
  }
  return fr;
}
