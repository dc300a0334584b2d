// Type declarations for the procmotion ES module (js-glue/index.js).

/** Options for createProcMotion. */
export interface CreateProcMotionOptions {
  /** Passed to the Emscripten module factory (e.g. `{ wasmMemory }`); rarely needed. */
  moduleOptions?: Record<string, unknown>;
}

/** Load the WebAssembly core. */
export function createProcMotion(options?: CreateProcMotionOptions): Promise<ProcMotion>;

/** An error from the core; `message` names what was wrong (section, key, parameter, character). */
export class ProcMotionError extends Error {
  readonly name: 'ProcMotionError';
  /** Which part raised it ('vmd', 'text', ...) or a PM_ERR_* code name. */
  readonly code: string;
}

/** Bone keys: parallel typed arrays in file order and a table of distinct names. */
export interface VmdBoneKeys {
  count: number;
  names: string[];
  /** Per key, an index into `names`. */
  nameIndex: Uint32Array;
  frames: Uint32Array;
  /** 3 per key: offset from the bone's rest position. */
  positions: Float32Array;
  /** 4 per key: quaternion x, y, z, w. */
  rotations: Float32Array;
  /** 64 per key, as stored in the file (see docs/vmd.md). */
  interpolations: Uint8Array;
}

export interface VmdMorphKeys {
  count: number;
  names: string[];
  nameIndex: Uint32Array;
  frames: Uint32Array;
  weights: Float32Array;
}

export interface VmdCameraKeys {
  count: number;
  frames: Uint32Array;
  distances: Float32Array;
  /** 3 per key. */
  positions: Float32Array;
  /** 3 per key, Euler radians. */
  rotations: Float32Array;
  /** 24 per key. */
  interpolations: Uint8Array;
  fovs: Uint32Array;
  /** 0 = perspective on. */
  perspectives: Uint8Array;
}

export interface VmdLightKeys {
  count: number;
  frames: Uint32Array;
  colors: Float32Array;
  directions: Float32Array;
}

export interface VmdShadowKeys {
  count: number;
  frames: Uint32Array;
  modes: Uint8Array;
  distances: Float32Array;
}

export interface VmdPropertyKeys {
  count: number;
  frames: Uint32Array;
  visible: Uint8Array;
  /** count + 1 entries: key k owns IK states ikStart[k] .. ikStart[k + 1] - 1. */
  ikStart: Uint32Array;
  ikNames: string[];
  ikNameIndex: Uint32Array;
  ikEnabled: Uint8Array;
}

/** A parsed VMD. Every array is a copy owned by JS. */
export interface Vmd {
  /** 2 for "Vocaloid Motion Data 0002", 1 for the old header. */
  version: number;
  /** How many of the six sections the file held. */
  sections: number;
  modelName: string;
  bones: VmdBoneKeys;
  morphs: VmdMorphKeys;
  cameras: VmdCameraKeys;
  lights: VmdLightKeys;
  shadows: VmdShadowKeys;
  properties: VmdPropertyKeys;
}

type ArrayLike32 = ArrayLike<number>;

/** What writeVmd accepts: the Vmd shape, any section may be missing, plain arrays allowed. */
export interface VmdInput {
  modelName?: string;
  bones?: Partial<{ count: number; names: string[]; nameIndex: ArrayLike32; frames: ArrayLike32; positions: ArrayLike32; rotations: ArrayLike32; interpolations: ArrayLike32 }>;
  morphs?: Partial<{ count: number; names: string[]; nameIndex: ArrayLike32; frames: ArrayLike32; weights: ArrayLike32 }>;
  cameras?: Partial<{ count: number; frames: ArrayLike32; distances: ArrayLike32; positions: ArrayLike32; rotations: ArrayLike32; interpolations: ArrayLike32; fovs: ArrayLike32; perspectives: ArrayLike32 }>;
  lights?: Partial<{ count: number; frames: ArrayLike32; colors: ArrayLike32; directions: ArrayLike32 }>;
  shadows?: Partial<{ count: number; frames: ArrayLike32; modes: ArrayLike32; distances: ArrayLike32 }>;
  properties?: Partial<{ count: number; frames: ArrayLike32; visible: ArrayLike32; ikStart: ArrayLike32; ikNames: string[]; ikNameIndex: ArrayLike32; ikEnabled: ArrayLike32 }>;
}

/** One bone key as a plain object (convenience; not for hot loops). */
export interface VmdBoneKey {
  name: string;
  frame: number;
  position: number[];
  rotation: number[];
  interpolation: Uint8Array;
}

export class ProcMotion {
  /** Library version, e.g. "0.1.0". */
  readonly version: string;
  /** Bytes of wasm memory reserved (grows, never shrinks). */
  readonly heapSize: number;
  /** Bytes currently allocated inside the module (leak checks). */
  readonly heapInUse: number;

  /** Parse a VMD file. Throws ProcMotionError on truncated or non-VMD data. */
  readVmd(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Vmd;
  /** Serialise a motion to VMD bytes (names to Shift-JIS, cut to the field widths). */
  writeVmd(vmd: VmdInput): Uint8Array;
  /** Encode text as Shift-JIS (Windows-31J); with maxBytes, cut at a whole character. */
  encodeShiftJis(text: string, maxBytes?: number): Uint8Array;
  /** Decode Shift-JIS bytes; invalid sequences become U+FFFD. */
  decodeShiftJis(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): string;

  static boneKey(vmd: Vmd, index: number): VmdBoneKey;
}

/** A skeleton as JSON (docs/skeleton-json.md). */
export interface SkeletonBone {
  name: string;
  nameEn?: string;
  position: [number, number, number];
  /** -1 for a root. */
  parent: number;
  transformOrder?: number;
  flags?: number;
  tail?: [number, number, number];
  tailBone?: number;
  append?: { parent: number; ratio: number; rotate: boolean; translate: boolean; local: boolean };
  fixedAxis?: [number, number, number];
  localAxes?: { x: [number, number, number]; z: [number, number, number] };
  ik?: {
    target: number;
    loopCount: number;
    limitAngle: number;
    links: { bone: number; limitMin?: [number, number, number]; limitMax?: [number, number, number] }[];
  };
}

export interface Skeleton {
  format?: 'pmx' | 'pmd' | 'memory';
  modelName?: string;
  modelNameEn?: string;
  source?: { version: number; vertices: number; faces: number; textures: number; materials: number; comment: string };
  bones: SkeletonBone[];
  morphNames?: string[];
}

export type HumanoidBone =
  | 'hips' | 'spine' | 'chest' | 'upperChest' | 'neck' | 'head'
  | 'leftShoulder' | 'leftUpperArm' | 'leftLowerArm' | 'leftHand'
  | 'rightShoulder' | 'rightUpperArm' | 'rightLowerArm' | 'rightHand'
  | 'leftUpperLeg' | 'leftLowerLeg' | 'leftFoot' | 'leftToes'
  | 'rightUpperLeg' | 'rightLowerLeg' | 'rightFoot' | 'rightToes';

export const HUMANOID_BONES: HumanoidBone[];

export interface HumanoidMap {
  /** The source name found for each humanoid bone, or null. */
  bones: Record<HumanoidBone, string | null>;
  /** The candidate table that matched: 'vroid' | 'mixamo' | 'mmd' | 'chinese' | 'biped' | 'none'. */
  naming: Record<HumanoidBone, string>;
  mapped: number;
  total: number;
  missingRequired: HumanoidBone[];
  drivable: boolean;
}

export interface ProcMotion {
  /** Read a PMX (2.0/2.1) or PMD model's skeleton and morph names. */
  readPmx(bytes: Uint8Array | ArrayBuffer): Skeleton;
  /** Map bone names (or a skeleton, or PMX/PMD bytes) to the 22 humanoid bones. */
  mapHumanoid(input: string[] | Skeleton | Uint8Array | ArrayBuffer): HumanoidMap;
  /** The built-in mannequin as PMX 2.0 bytes. */
  mannequinPmx(): Uint8Array;
}

export interface PoseResult {
  boneNames: string[];
  /** 3 floats per bone: world position. */
  positions: Float32Array;
  /** 16 floats per bone: world matrix, column-major (translation at 12..14). */
  world: Float32Array;
  /** 4 floats per bone: final local rotation (after append and IK), x y z w. */
  rotations: Float32Array;
}

export interface PoseOptions {
  /** false: solve no IK. */
  ik?: boolean;
  /** false: ignore append (付与) transforms. */
  append?: boolean;
}

/** A motion bound to a skeleton inside the module. Call free() when done. */
export class PoseEvaluator {
  readonly boneNames: string[];
  readonly boneCount: number;
  readonly info: { tracks: number; keys: number; unmatchedBones: number; unmatchedIk: number; propertyKeys: number; firstFrame: number; lastFrame: number };
  readonly unmatchedBones: string[];
  readonly unmatchedIk: string[];
  evaluate(frame: number, options?: PoseOptions): PoseResult;
  /** World positions for `count` frames from `first` by `step`, frame-major (count * bones * 3). */
  positions(first: number, count: number, step?: number, options?: PoseOptions): Float32Array;
  setIkMode(boneName: string, mode: 'auto' | 'on' | 'off'): void;
  free(): void;
}

export interface TwoBoneIkResult {
  /** World-space delta rotation to pre-multiply onto the root joint's world rotation. */
  rootRotation: [number, number, number, number];
  midRotation: [number, number, number, number];
  mid: [number, number, number];
  end: [number, number, number];
  miss: number;
  reached: boolean;
}

type Vec3 = [number, number, number] | ArrayLike<number>;

export interface ProcMotion {
  createPoseEvaluator(vmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: Skeleton | Uint8Array | ArrayBuffer): PoseEvaluator;
  evaluatePose(vmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: Skeleton | Uint8Array | ArrayBuffer, frame: number, options?: PoseOptions): PoseResult;
  solveTwoBoneIk(root: Vec3, mid: Vec3, end: Vec3, target: Vec3, pole: Vec3): TwoBoneIkResult;
}

// ---- groove (js-glue/groove.js, docs/groove.md) --------------------------------------------------

export type GrooveJointName = 'pelvis' | 'spine' | 'chest' | 'upperChest' | 'neck' | 'head' | 'leftShoulder'
  | 'rightShoulder' | 'leftArm' | 'rightArm' | 'leftElbow' | 'rightElbow';

/** One joint's oscillation: amp * wave(freq * beat - phase) degrees about the bone's local axis. */
export interface GrooveJoint {
  axis: 'x' | 'y' | 'z';
  /** Degrees, [-180, 180]. */
  amp: number;
  /** Cycles per beat, [0, 16]. */
  freq: number;
  /** Cycles of delay, [0, 1]. */
  phase: number;
  /** bounce: (1 - cos 2 pi p) / 2, valley on the beat; sine: sin 2 pi p. */
  wave: 'bounce' | 'sine';
}

/** The squat bounce: the body goes down (and sideways) on the beat, the feet stay planted. */
export interface GrooveSquat {
  enabled: boolean;
  /** cm, [0, 100]: depth. */
  vertical: number;
  /** cm, [-100, 100]: sideways amplitude (+ = the model's left). */
  lateral: number;
  freq: number;
  phase: number;
  /** Vertical wave; the lateral one is always a sine. */
  wave: 'bounce' | 'sine';
}

/** The merged config (every field), as grooveConfig returns it. */
export interface GrooveConfig {
  joints: Record<GrooveJointName, GrooveJoint>;
  squat: GrooveSquat;
}

/** Settings to apply: only what changes; null resets a joint (or the squat, or all joints). */
export interface GrooveSettings {
  joints?: Partial<Record<GrooveJointName, Partial<GrooveJoint> | null>> | null;
  squat?: Partial<GrooveSquat> | null;
  /** Reset before the rest applies: 'all', 'joints', 'squat', a joint name, or a list of them. */
  reset?: string | string[];
}

export type GrooveSettingsInput = GrooveSettings | GrooveConfig | string | null | undefined;

export const GROOVE_JOINTS: ReadonlyArray<{ readonly name: GrooveJointName; readonly bone: string }>;

/** A pose for Groove.offsets: animated local rotations (4 per bone) and offsets from rest (3 per bone). */
export interface GroovePose {
  rotations: ArrayLike<number>;
  translations?: ArrayLike<number>;
}

/** Refilled by every Groove.offsets call (copy what you keep). */
export interface GrooveFrame {
  beat: number;
  /** 4 per bone: post-multiply onto the local rotation (identity for bones that are not joints). */
  offsets: Float32Array;
  /** Bone index to move, or -1. */
  bodyBone: number;
  /** Add to the body bone's position (MMD units). */
  bodyOffset: Float32Array;
  legsSolved: boolean;
  /** Left hip, knee, ankle, right hip, knee, ankle (bone indices, -1 = missing). */
  legBones: number[];
  /** 4 per leg bone: local rotations to set with the leg IK switched off. */
  legRotations: Float32Array;
  /** Ankle anchors, 3 per side. */
  anchors: Float32Array;
  anchorRotations: Float32Array;
  footError: Float32Array;
}

export interface GrooveInfo {
  joints: Record<GrooveJointName, { bone: string; index: number } | null>;
  /** Joints the model lacks, and 'squat' when its legs or body bone are missing. */
  skipped: string[];
  bodyBone: string | null;
  legBones: (string | null)[];
  legMode: 'none' | 'analytic' | 'mmd-ik';
  legIkBones: string[];
}

export interface GrooveFrameOptions {
  /** The user drives the legs by IK: the squat bounce yields. */
  legIkUser?: boolean;
  resetAnchors?: boolean;
  /** Joint and body offsets only: no evaluation, no leg solve (a viewer with MMD leg IK). */
  offsetsOnly?: boolean;
}

/** A groove bound to a skeleton (createGroove). Call free() when done. */
export class Groove {
  readonly boneNames: string[];
  readonly boneCount: number;
  readonly info: GrooveInfo;
  readonly result: GrooveFrame;
  setConfig(config: GrooveSettingsInput): void;
  /** pose: null (rest pose), a PoseEvaluator (sampled at timeSeconds * 30) or GroovePose. */
  offsets(pose: GroovePose | PoseEvaluator | null, timeSeconds: number, bpm: number, options?: GrooveFrameOptions): GrooveFrame;
  /** Post-multiply this time's joint offsets onto a babylon-mmd MmdModel's bones and move its body bone
   * (its own leg IK plants the feet); nothing accumulates on bones the motion does not rewrite. */
  applyToMmdModel(model: { runtimeBones: ReadonlyArray<{ linkedBone: { rotationQuaternion: any; position: any } }> }, timeSeconds: number, bpm: number, options?: GrooveFrameOptions): GrooveFrame;
  /** World positions (3 per bone) of the last grooved pose. */
  worldPositions(): Float32Array;
  previewStep<P extends { x: number; y: number; z: number } | number[]>(position: P, timeSeconds: number, bpm: number, options?: GrooveFrameOptions): P;
  previewStop<P extends { x: number; y: number; z: number } | number[]>(position: P): P;
  resetAnchors(): void;
  setIkMode(boneName: string, mode: 'auto' | 'on' | 'off'): void;
  free(): void;
}

export interface GrooveBakeOptions {
  /** Last frame baked (default: the base motion's, or 16 beats). */
  frames?: number;
  /** Units, default 0.002. */
  positionTolerance?: number;
  /** Degrees, default 0.05. */
  rotationTolerance?: number;
}

export interface GrooveBakeReport {
  frames: number;
  legMode: 'none' | 'analytic' | 'mmd-ik';
  keyedBones: number;
  keys: number;
  copiedKeys: number;
  maxPositionError: number;
  /** Degrees. */
  maxRotationError: number;
  maxFootError: number;
}

type SkeletonInput = Skeleton | Uint8Array | ArrayBuffer;

export interface ProcMotion {
  /** Validated settings merged over the defaults (and `base`): every field, or only the changes. */
  grooveConfig(config?: GrooveSettingsInput, options?: { base?: GrooveSettingsInput; changedOnly?: false }): GrooveConfig;
  grooveConfig(config: GrooveSettingsInput, options: { base?: GrooveSettingsInput; changedOnly: true }): GrooveSettings;
  createGroove(config: GrooveSettingsInput, skeleton: SkeletonInput): Groove;
  grooveOffsets(config: GrooveSettingsInput, skeleton: SkeletonInput, pose: GroovePose | PoseEvaluator | null, timeSeconds: number, bpm: number, options?: GrooveFrameOptions): GrooveFrame;
  bakeGroove(baseVmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: SkeletonInput, config: GrooveSettingsInput, bpm: number, options?: GrooveBakeOptions): { vmd: Uint8Array; report: GrooveBakeReport };
  applyGrooveToVmd(baseVmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: SkeletonInput, config: GrooveSettingsInput, bpm: number, options?: GrooveBakeOptions): Uint8Array;
}
