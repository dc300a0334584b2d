// procmotion/babylon: helpers for babylon-mmd 1.3 (peer dependency, never bundled).

/**
 * `import { ... } from 'procmotion/babylon'`: procmotion's motion on babylon-mmd models.
 * @module procmotion/babylon
 */
// Types only: nothing of babylon-mmd is loaded by these imports. They name babylon-mmd's files (with
// .js) rather than its root, whose extensionless re-exports moduleResolution nodenext cannot follow.
import type { MmdAnimation } from 'babylon-mmd/esm/Loader/Animation/mmdAnimation.js';
import type { VmdLoader } from 'babylon-mmd/esm/Loader/vmdLoader.js';
import type { MmdMesh } from 'babylon-mmd/esm/Runtime/mmdMesh.js';
import type { MmdModel } from 'babylon-mmd/esm/Runtime/mmdModel.js';
import type { MmdRuntime } from 'babylon-mmd/esm/Runtime/mmdRuntime.js';
import type { Scene } from '@babylonjs/core/scene.js';

import type {
  BeatGridInput, CatwalkResult, CatwalkSkeleton, CatwalkState, Groove, GrooveBakeOptions, GrooveBakeReport, GrooveFrame,
  DanceResult, DanceState, GrooveFrameOptions, GrooveSettingsInput, IdleResult, IdleState, Lifelike, LifelikeFrame, ProcMotion, Skeleton, Timeline,
  TimelineBakeResult, TransitionOptions, TransitionReport, Vmd, RetargetReport,
} from './index.js';

/** What getModelInfo reads of a loaded model. */
export interface ModelInfo {
  boneNames: string[];
  morphNames: string[];
  /** World rest positions (model space, MMD units; NaN where unknown) and parents (-1 = none). */
  skeleton: { names: string[]; positions: Float32Array; parents: Int32Array };
}

/** Bone names, morph names and rest skeleton of a loaded MmdModel or MmdMesh. */
export function getModelInfo(target: MmdModel | MmdMesh): ModelInfo;

/** How loadVmdAnimationAsync makes its MmdAnimation. */
export interface LoadVmdOptions {
  /** Animation name (default 'Catwalk'). */
  name?: string;
  /** Scene for the loader (default null). */
  scene?: Scene | null;
  /** The VmdLoader class to use (default: imported from babylon-mmd on first use). */
  VmdLoader?: typeof VmdLoader;
  loggingEnabled?: boolean;
}

/** VMD bytes -> MmdAnimation through VmdLoader.loadFromBufferAsync. */
export function loadVmdAnimationAsync(vmd: Uint8Array | ArrayBuffer, options?: LoadVmdOptions): Promise<MmdAnimation>;

/** An animation made by a helper, with the frames it loops over (loopRuntimeAnimation). */
export interface ProcMotionAnimation<R> {
  animation: MmdAnimation;
  result: R;
  loopFrames: number;
}

/** getModelInfo + generateCatwalkVmd + loadVmdAnimationAsync. `modelBytes` (the PMX/PMD the model came
 * from; loads the 'motion' module): the legs land on the model and `result.report` says what
 * babylon-mmd will show (docs/landing.md). */
export function createCatwalkAnimationAsync(
  pm: ProcMotion,
  target: MmdModel | MmdMesh,
  state?: CatwalkState | null,
  bpm?: number | null,
  options?: LoadVmdOptions & { modelBytes?: Uint8Array | ArrayBuffer },
): Promise<ProcMotionAnimation<CatwalkResult>>;

/** getModelInfo + generateIdleVmd + loadVmdAnimationAsync (loads the 'motion' module). `modelBytes` (the
 * PMX/PMD the model came from): the feet land on the model and `result.report` and `result.body` say what
 * babylon-mmd will show. */
export function createIdleAnimationAsync(
  pm: ProcMotion,
  target: MmdModel | MmdMesh,
  state?: IdleState | null,
  bpm?: number | null | BeatGridInput,
  options?: LoadVmdOptions & { modelBytes?: Uint8Array | ArrayBuffer },
): Promise<ProcMotionAnimation<IdleResult>>;

/** getModelInfo + generateAutoDanceVmd + loadVmdAnimationAsync (loads the 'motion' module). `bpmOrBeats`: a
 * detectBeats result (the whole song), a beat grid, a BPM or null. `modelBytes` (the PMX/PMD the model came
 * from): the feet land on the model and `result.report` and `result.body` say what babylon-mmd will show.
 * `loopFrames` is a loop's length, or the song's frames. */
export function createDanceAnimationAsync(
  pm: ProcMotion,
  target: MmdModel | MmdMesh,
  state?: DanceState | null,
  bpmOrBeats?: number | null | BeatGridInput,
  options?: LoadVmdOptions & { modelBytes?: Uint8Array | ArrayBuffer },
): Promise<ProcMotionAnimation<DanceResult>>;

/** bakeTransition on a model's skeleton + loadVmdAnimationAsync. Needs the 'motion' module. */
export function createTransitionAnimationAsync(
  pm: ProcMotion,
  skeleton: CatwalkSkeleton,
  fromVmd: Uint8Array | ArrayBuffer | Vmd,
  toVmd: Uint8Array | ArrayBuffer | Vmd,
  options?: TransitionOptions & LoadVmdOptions,
): Promise<{ animation: MmdAnimation; result: { vmd: Uint8Array; frames: number; nextFrame: number; report: TransitionReport } }>;

/** pm.retargetToVmd on a model + loadVmdAnimationAsync: a BVH, glTF/GLB or VRM Animation file played on
 * the model (`modelBytes`: its PMX/PMD bytes or readPmx's skeleton; null: the mannequin). Loads the
 * 'keypoints' module. */
export function createRetargetAnimationAsync(
  pm: ProcMotion,
  motion: Uint8Array | ArrayBuffer,
  modelBytes: Skeleton | Uint8Array | ArrayBuffer | null,
  options?: LoadVmdOptions & { animation?: number },
): Promise<{ animation: MmdAnimation; result: { vmd: Uint8Array; report: RetargetReport } }>;

/** Where playTransition hands over. */
export interface PlayTransitionOptions {
  /** The transition's length (createTransitionAnimationAsync's result.frames). */
  frames: number;
  /** The incoming motion's frame to go on from (result.nextFrame). */
  nextFrame?: number;
  /** The incoming motion's loop length; 0 = it plays on to its end. */
  loopFrames?: number;
}

/** Play `transition` from frame 0 on the runtime's clock, then `next` from nextFrame (looping). */
export function playTransition(
  runtime: MmdRuntime,
  model: MmdModel,
  transition: MmdAnimation,
  next: MmdAnimation,
  options: PlayTransitionOptions,
): {
  /** Stop the switch (and the loop) where it is. */
  dispose(): void;
};

/** bakeGroove on a model's skeleton (PMX/PMD bytes or readPmx's) + loadVmdAnimationAsync. Needs the 'motion' module. */
export function createGrooveAnimationAsync(
  pm: ProcMotion,
  skeleton: Skeleton | Uint8Array | ArrayBuffer,
  baseVmd: Uint8Array | ArrayBuffer | Vmd | null,
  config: GrooveSettingsInput,
  bpm: number,
  options?: GrooveBakeOptions & LoadVmdOptions,
): Promise<ProcMotionAnimation<{ vmd: Uint8Array; report: GrooveBakeReport }>>;

/** timeline.bake(bpm) + loadVmdAnimationAsync. */
export function createTimelineAnimationAsync(
  timeline: Timeline,
  bpm?: number,
  options?: LoadVmdOptions,
): Promise<ProcMotionAnimation<TimelineBakeResult>>;

/** A running loop of an MmdRuntime's clock. */
export interface RuntimeLoop {
  readonly loopFrames: number;
  /** Stop looping: the runtime plays on to its animations' end and pauses there. */
  dispose(): void;
}

/** Loop the runtime's clock over [0, loopFrames) (babylon-mmd alone pauses at the end). */
export function loopRuntimeAnimation(runtime: MmdRuntime, loopFrames: number): RuntimeLoop;

/**
 * Apply a groove at `timeSeconds` to a babylon-mmd model whose bones are the groove skeleton's: joint
 * offsets multiplied onto the bones' rotations, the body offset added to the body bone's position. Call
 * it after the motion was applied and before babylon-mmd solves IK (wrap `model.currentAnimation.animate`).
 * Returns the groove's frame.
 */
export function applyGrooveToMmdModel(
  groove: Groove,
  model: MmdModel,
  timeSeconds: number,
  bpm: number | BeatGridInput,
  options?: Omit<GrooveFrameOptions, 'offsetsOnly'>,
): GrooveFrame;

/**
 * Apply a lifelike layer (pm.createLifelike) at `timeSeconds` to a babylon-mmd model whose bones are the
 * layer skeleton's: each channel's offset multiplied onto its bone's rotation, the blink morph closed by
 * the layer's weight over the motion's. Call it after the motion was applied and before babylon-mmd
 * solves IK. Nothing accumulates on bones or morphs the motion does not key. Returns the layer's frame.
 */
export function applyLifelikeToMmdModel(lifelike: Lifelike, model: MmdModel, timeSeconds: number): LifelikeFrame;
