// Type declarations for the procmotion ES module (js-glue/index.js); docs/reference/ is made from them.

/**
 * `import { createProcMotion } from 'procmotion'`: the core, and every feature module's methods on the
 * object it gives. `procmotion/all` exports the same and loads every module at once.
 * @module procmotion
 */

/** The feature modules pm.loadAsync takes: each is a .wasm of its own that shares the core's memory. */
export type FeatureModule = 'motion' | 'keypoints' | 'beats' | 'vrm';
/** Every module: the core (VMD, Shift-JIS, the catwalk on bone names) and the feature modules. */
export type ProcMotionModule = 'core' | FeatureModule;
/** The feature modules, in load order. */
export const FEATURE_MODULES: readonly FeatureModule[];

/** Where a .wasm is: a URL (or its string), bytes, a compiled module, or a (promised) Response. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response | PromiseLike<Response>;

/** Options for createProcMotion. */
export interface CreateProcMotionOptions {
  /**
   * procmotion.wasm from elsewhere (a URL: the feature modules and procmotion-all.wasm are looked for
   * beside it), or one source per module (`all`: procmotion-all.wasm, for `load: 'all'`). Default:
   * beside the glue, new URL('./procmotion.wasm', import.meta.url).
   */
  wasm?: WasmSource | Partial<Record<ProcMotionModule | 'all', WasmSource>>;
  /**
   * Feature modules to load now, as pm.loadAsync would; or 'all': procmotion-all.wasm, every module in
   * one file, instead of the core (one fetch, 199 KB gzip against 222 KB split), with every method at
   * once. The one file's default URL comes with `procmotion/all` (and the Node entry): a bundle of the
   * main entry alone, or a core given as bytes, with no `wasm.all` loads the split modules, every one.
   */
  load?: FeatureModule | readonly FeatureModule[] | 'all';
  /**
   * procmotion-sjis.bin from elsewhere: the Shift-JIS decode table (18.8 KB), read only on a host whose
   * TextDecoder has no 'shift_jis' (a runtime built with small ICU). Default: beside a core given by
   * URL, else beside the glue, new URL('./procmotion-sjis.bin', import.meta.url).
   */
  shiftJisTable?: string | URL | ArrayBuffer | ArrayBufferView | Response | PromiseLike<Response>;
}

/** Load the WebAssembly core (VMD, Shift-JIS, catwalk). */
export function createProcMotion(options?: CreateProcMotionOptions): Promise<ProcMotion>;

/** The core's pm_result names, and the glue's own codes. */
export type ProcMotionErrorCode =
  | 'PM_ERR_INVALID_ARGUMENT' | 'PM_ERR_TRUNCATED' | 'PM_ERR_BAD_FORMAT' | 'PM_ERR_OUT_OF_MEMORY' | 'PM_ERR_LIMIT'
  | 'PM_ERR_ENCODING' | 'PM_ERR_NOT_FOUND' | 'PM_ERR_IO' | 'PM_ERR_UNKNOWN'
  /** a method of a feature module that was not loaded (pm.loadAsync) */
  | 'PM_ERR_NOT_LOADED'
  /** a .wasm that could not be fetched or instantiated */
  | 'PM_ERR_WASM';

/** An error from procmotion; `message` names what was wrong (section, key, parameter, character). */
export class ProcMotionError extends Error {
  readonly name: 'ProcMotionError';
  /** The core's pm_result name (PM_ERR_TRUNCATED, ...) or one of the glue's codes. */
  readonly code: ProcMotionErrorCode;
  /** The part of procmotion that raised it: 'vmd', 'catwalk', 'pose', 'groove', 'keypoints', 'loader', ... */
  readonly module: string | null;
  /** An error with its code (default 'PM_ERR_INVALID_ARGUMENT') and the part of procmotion that raised it. */
  constructor(message: string, code?: ProcMotionErrorCode, module?: string | null, options?: { cause?: unknown });
}

/**
 * Keys whose stored name field has their name's bytes but other padding after the NUL (readVmd keeps
 * them so that writeVmd gives the file back byte for byte): `keys` ascending key indices (for IK
 * names: IK state indices), `fields` width bytes per key (15, or 20 for IK names).
 */
export interface VmdNameVariants {
  keys: Uint32Array;
  fields: Uint8Array;
}

/** Bone keys: parallel typed arrays in file order and a table of distinct names. */
export interface VmdBoneKeys {
  count: number;
  /**
   * Distinct names, decoded from Shift-JIS for display and lookup. A name is its bytes: two keys share
   * an entry when their name bytes are equal; bytes that are not CP932 (a name MMD cut inside a
   * double-byte character) show as U+FFFD.
   */
  names: string[];
  /**
   * Per name, its 15-byte field as the file stored it (the bytes, the NUL and the padding after it),
   * views of rawNameFields made on first access. writeVmd writes a name whose text is unchanged as
   * these bytes; a renamed or added name is encoded from `names` (and must be Shift-JIS encodable).
   */
  rawNames: Uint8Array[];
  /** The same fields back to back, 15 bytes a name (an own property; rawNames views it). */
  rawNameFields: Uint8Array;
  rawNameVariants: VmdNameVariants;
  /** Per key, an index into `names`. */
  nameIndex: Uint32Array;
  frames: Uint32Array;
  /** 3 per key: offset from the bone's rest position. */
  positions: Float32Array;
  /** 4 per key: quaternion x, y, z, w. */
  rotations: Float32Array;
  /** 64 per key, as stored in the file (see docs/formats.md). */
  interpolations: Uint8Array;
}

/** Morph keys: parallel typed arrays in file order and a table of distinct names. */
export interface VmdMorphKeys {
  count: number;
  names: string[];
  /** As VmdBoneKeys.rawNames: each name's 15-byte field as stored. */
  rawNames: Uint8Array[];
  rawNameFields: Uint8Array;
  rawNameVariants: VmdNameVariants;
  nameIndex: Uint32Array;
  frames: Uint32Array;
  weights: Float32Array;
}

/** Camera keys in file order. */
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

/** Light keys in file order. */
export interface VmdLightKeys {
  count: number;
  frames: Uint32Array;
  colors: Float32Array;
  directions: Float32Array;
}

/** Self-shadow keys in file order. */
export interface VmdShadowKeys {
  count: number;
  frames: Uint32Array;
  modes: Uint8Array;
  distances: Float32Array;
}

/** Property keys (visibility and IK on/off) in file order. */
export interface VmdPropertyKeys {
  count: number;
  frames: Uint32Array;
  visible: Uint8Array;
  /** count + 1 entries: key k owns IK states ikStart[k] .. ikStart[k + 1] - 1. */
  ikStart: Uint32Array;
  ikNames: string[];
  /** Each IK name's 20-byte field as stored (see VmdBoneKeys.rawNames). */
  rawIkNames: Uint8Array[];
  /** The same fields back to back, 20 bytes a name. */
  rawIkNameFields: Uint8Array;
  rawIkNameVariants: VmdNameVariants;
  ikNameIndex: Uint32Array;
  ikEnabled: Uint8Array;
}

/** A parsed VMD. Every array is a copy owned by JS. */
export interface Vmd {
  /** 2 for "Vocaloid Motion Data 0002", 1 for the old header. */
  version: number;
  /** How many of the six sections the file held (writeVmd writes those, and any later one holding keys). */
  sections: number;
  modelName: string;
  bones: VmdBoneKeys;
  morphs: VmdMorphKeys;
  cameras: VmdCameraKeys;
  lights: VmdLightKeys;
  shadows: VmdShadowKeys;
  properties: VmdPropertyKeys;
  /** The 30 header bytes as read (the magic and what follows it). */
  rawHeader: Uint8Array;
  /** The model-name field as read: 20 bytes (10 for a version 1 file). */
  rawModelName: Uint8Array;
  /** Bytes after the property section (usually none). */
  trailingBytes: Uint8Array;
}

/** writeVmd options. */
export interface WriteVmdOptions {
  /**
   * false (default): lossless, a file read by readVmd is written back byte for byte. true: the
   * canonical form procmotion generates: 0002 header, names NUL-padded, all six section counts,
   * nothing after them.
   */
  canonical?: boolean;
}

/** Numbers of a section as writeVmd takes them: a typed array or a plain array. */
type ArrayLike32 = ArrayLike<number>;

/** What writeVmd accepts: the Vmd shape, any section may be missing, plain arrays allowed. */
export interface VmdInput {
  modelName?: string;
  /** Default 2; 1 writes the old header with a 10-byte model name (unless canonical). */
  version?: number;
  /** Sections to write (default 6); a later section holding keys is written too. */
  sections?: number;
  rawHeader?: ArrayLike<number>;
  rawModelName?: ArrayLike<number>;
  trailingBytes?: ArrayLike<number>;
  bones?: Partial<{ count: number; names: string[]; rawNames: ArrayLike<number>[]; rawNameFields: ArrayLike<number>; rawNameVariants: VmdNameVariants; nameIndex: ArrayLike32; frames: ArrayLike32; positions: ArrayLike32; rotations: ArrayLike32; interpolations: ArrayLike32 }>;
  morphs?: Partial<{ count: number; names: string[]; rawNames: ArrayLike<number>[]; rawNameFields: ArrayLike<number>; rawNameVariants: VmdNameVariants; nameIndex: ArrayLike32; frames: ArrayLike32; weights: ArrayLike32 }>;
  cameras?: Partial<{ count: number; frames: ArrayLike32; distances: ArrayLike32; positions: ArrayLike32; rotations: ArrayLike32; interpolations: ArrayLike32; fovs: ArrayLike32; perspectives: ArrayLike32 }>;
  lights?: Partial<{ count: number; frames: ArrayLike32; colors: ArrayLike32; directions: ArrayLike32 }>;
  shadows?: Partial<{ count: number; frames: ArrayLike32; modes: ArrayLike32; distances: ArrayLike32 }>;
  properties?: Partial<{ count: number; frames: ArrayLike32; visible: ArrayLike32; ikStart: ArrayLike32; ikNames: string[]; rawIkNames: ArrayLike<number>[]; rawIkNameFields: ArrayLike<number>; rawIkNameVariants: VmdNameVariants; ikNameIndex: ArrayLike32; ikEnabled: ArrayLike32 }>;
}

/** One bone key as a plain object (convenience; not for hot loops). */
export interface VmdBoneKey {
  name: string;
  frame: number;
  position: number[];
  rotation: number[];
  interpolation: Uint8Array;
}

/** Input formats of toKeypoints ('glb' is the same as 'gltf'). */
export type KeypointFormat = 'auto' | 'bvh' | 'vmd' | 'gltf' | 'glb' | 'fbx' | 'json' | 'ndjson' | 'binary';

/** Options of toKeypoints. */
export interface KeypointOptions {
  /** What the input is (default 'auto': told by its bytes). */
  format?: KeypointFormat;
  /** Frames per second; 0 or absent = the source's rate (BVH: its Frame Time, glTF: 30). VMD is always 30. */
  fps?: number;
  /** glTF: which animation (default 0). */
  animation?: number;
  /** Refuse longer inputs (default 1 000 000 frames). */
  maxFrames?: number;
  /** VMD only: PMX/PMD bytes whose own skeleton and IK play the motion (default: the built-in mannequin). */
  model?: Uint8Array | ArrayBuffer | ArrayBufferView;
}

/** What toKeypoints found in its input. */
export interface KeypointStats {
  format: KeypointFormat;
  /** Joint naming family used: 'mmd', 'cmu', 'mixamo', 'daz', 'biped', 'humanoid', 'vrm' or 'keypoints'. */
  family: string;
  sourceJoints: number;
  /** VMD: distinct bone names with keys that the skeleton lacks. */
  ignoredBones: number;
  /** Points at confidence 1.0 / 0.5 / 0.0 (first frame). */
  directPoints: number;
  inferredPoints: number;
  missingPoints: number;
  /** Non-finite values caught and values clamped on the way out (0 for every fixture). */
  nanCount: number;
  outOfRange: number;
  /** The adaptive scale s of x = 0.5 + X s. */
  scale: number;
  /** VMD leg drive: 'ik' when a 足ＩＫ track moves, else 'fk'; null for other formats. */
  legs: 'ik' | 'fk' | null;
}

/** A MediaPipe Pose 33-point sequence as typed arrays (no object per point). */
export interface KeypointSequence {
  frameCount: number;
  /** 0 when the timestamps are not evenly spaced. */
  fps: number;
  /** flags bit 0 of the binary frame; carried, never applied. */
  mirrored: boolean;
  /** Milliseconds, one per frame. */
  timestamps: Float64Array;
  /** x, y, z per point, 33 points per frame: x, y in [0, 1] (y down), z in [-1, 1] (negative towards the camera). */
  points: Float32Array;
  /** 33 per frame: 1.0 direct joint, 0.5 inferred, 0.0 missing. */
  visibility: Float32Array;
  /** 10 cosines per frame in the order of angleNames. */
  angles: Float32Array;
  pointNames: string[];
  angleNames: string[];
  stats: KeypointStats;
}

/** One MediaPipe Pose landmark, as the browser's pose tracker gives it. */
export interface Landmark {
  x: number;
  y: number;
  z?: number;
  visibility?: number;
}

/** What scoreDance takes: a keypoint sequence, a motion or keypoint file toKeypoints reads, or MediaPipe
 * landmark frames (33 landmarks each, at `options.fps`). */
export type DanceInput = KeypointSequenceInput | Uint8Array | ArrayBuffer | ArrayBufferView | string | Array<Landmark[] | number[][]>;

/** How scoreDance and createDanceScorer align and compare. */
export interface DanceScoreOptions {
  /** The performance comes from a mirrored (selfie) camera. */
  mirrored?: boolean;
  /** Tempo drift allowed, 0..1 (default 0.35). */
  band?: number;
  /** Seconds the performance may start late (default 5). */
  maxOffset?: number;
  /** The rate of landmark frames (default 30). */
  fps?: number;
  /** toKeypoints options for a file given as the reference or the performance (a VMD's `model`). */
  referenceOptions?: KeypointOptions;
  performanceOptions?: KeypointOptions;
}

/** One body part's score and timing ("left arm late by 0.2 s": lag 0.2). */
export interface DancePartScore {
  score: number;
  /** Seconds; positive: the performer is late. */
  lag: number;
}

/** scoreDance's result: the score, the alignment, each frame's and each part's score. */
export interface DanceScore {
  /** 0..100: 100 the same motion, about 95 and more the same motion 25 % faster or slower. */
  score: number;
  /** Seconds into the performance where the reference's first frame is matched. */
  offset: number;
  /** The reference's frame rate (the performance was resampled to it when `resampled`). */
  fps: number;
  resampled: boolean;
  /** Each reference frame's score, 0..100. */
  perFrame: Float32Array;
  /** The performance frame matched to each reference frame. */
  match: Uint32Array;
  /** The alignment as pairs (reference frame, performance frame), in order. */
  path: Uint32Array;
  joints: { left_arm: DancePartScore; right_arm: DancePartScore; left_leg: DancePartScore; right_leg: DancePartScore; torso: DancePartScore };
}

/** The live scorer's state after a push. */
export interface DanceScoreNow {
  /** The running score, 0..100. */
  score: number;
  /** The scored frame's, 0..100. */
  frameScore: number;
  /** Where the performer was in the reference. */
  referenceFrame: number;
  /** Frames pushed, and frames scored (two fewer: each is smoothed with the two after it). */
  frames: number;
  scored: number;
}

/** A live scorer (createDanceScorer). */
export interface DanceScorer {
  /** One camera frame: 33 landmarks, or 99 point values and 33 visibilities. */
  push(frame: Landmark[] | number[][] | { points: ArrayLike<number>; visibility?: ArrayLike<number> }): DanceScoreNow;
  /** Free the scorer's memory in the module. */
  dispose(): void;
}

/** What writeKeypoints and keypointFeatures accept. */
export interface KeypointSequenceInput {
  frameCount?: number;
  mirrored?: boolean;
  timestamps: ArrayLike<number>;
  points: ArrayLike<number>;
  visibility: ArrayLike<number>;
}

/**
 * A loaded procmotion: the core's methods, and every feature module's (they throw `PM_ERR_NOT_LOADED`
 * until `loadAsync` loads their module). Make one with createProcMotion().
 */
export class ProcMotion {
  /** Use createProcMotion(). */
  private constructor();
  /** Library version, e.g. "0.1.0". */
  readonly version: string;
  /** The modules loaded so far, 'core' first. */
  readonly modules: ProcMotionModule[];
  /**
   * Load feature modules ('motion': models, pose, IK, groove, tracing; 'keypoints': motion to
   * MediaPipe keypoints), each once, their dependencies first. Their methods throw
   * ProcMotionError('PM_ERR_NOT_LOADED') until then.
   */
  loadAsync(modules?: FeatureModule | readonly FeatureModule[] | 'all'): Promise<this>;
  /** Bytes of wasm memory reserved (grows, never shrinks). */
  readonly heapSize: number;
  /** Bytes currently allocated inside the module (leak checks). */
  readonly heapInUse: number;

  /**
   * Parse a VMD file. Throws ProcMotionError on truncated or non-VMD data. The typed arrays are copies
   * out of the module that share one ArrayBuffer (each with its own byteOffset).
   */
  readVmd(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Vmd;
  /**
   * Serialise a motion to VMD bytes. Unchanged names are written as their raw fields; changed or new
   * names are encoded to Shift-JIS and cut to the field widths (a name that cannot be encoded throws,
   * naming it). Lossless by default (a readVmd result comes back byte for byte); see WriteVmdOptions.
   */
  writeVmd(vmd: VmdInput, options?: WriteVmdOptions): Uint8Array;
  /** Encode text as Shift-JIS (Windows-31J); with maxBytes, cut at a whole character. */
  encodeShiftJis(text: string, maxBytes?: number): Uint8Array;
  /** Decode Shift-JIS bytes; invalid sequences become U+FFFD. */
  decodeShiftJis(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): string;

  /** The 33 point names ("nose" .. "right_foot_index"). */
  readonly keypointNames: string[];
  /** The ten angle names ("shoulder_L" .. "spine"). */
  readonly keypointAngleNames: string[];
  /** Convert BVH, VMD, FBX, glTF/GLB, mediapipe33 JSON, NDJSON or binary frames to keypoints. */
  toKeypoints(input: Uint8Array | ArrayBuffer | ArrayBufferView | string, options?: KeypointOptions): KeypointSequence;
  /** NDJSON text (one frame per line) or 239-byte binary frames; toKeypoints reads both back. */
  writeKeypoints(seq: KeypointSequenceInput, options?: { format?: 'ndjson' }): string;
  writeKeypoints(seq: KeypointSequenceInput, options: { format: 'binary' }): Uint8Array;
  /** frameCount x 109 features: 33 x (x, y, z) with low-visibility points interpolated, then 10 angle cosines. */
  keypointFeatures(seq: KeypointSequenceInput): Float32Array;
  /** Score a performance against a reference, 0 to 100 ('keypoints' module; docs/scoring.md). */
  scoreDance(reference: DanceInput, performance: DanceInput, options?: DanceScoreOptions): DanceScore;
  /** Live scoring, frame by frame as a camera produces them. */
  createDanceScorer(reference: DanceInput, options?: DanceScoreOptions): DanceScorer;

  /** Bone key `index` of a readVmd result as one object. */
  static boneKey(vmd: Vmd, index: number): VmdBoneKey;
}

/**
 * A skeleton bone as JSON (docs/formats.md). Every field readPmx returns is read back, so
 * createPoseEvaluator(vmd, pm.readPmx(bytes)) poses exactly like createPoseEvaluator(vmd, bytes).
 */
export interface SkeletonBone {
  name: string;
  nameEn?: string;
  position: [number, number, number];
  /** -1 for a root. */
  parent: number;
  transformOrder?: number;
  /** PMX bone flags, taken exactly when present (0 too); absent: rotatable, visible, enabled, plus what the fields imply. */
  flags?: number;
  /** Display-only; null when the file held a value that is not finite (then a warning says so). */
  tail?: [number, number, number] | null;
  /** A bone index, -1 none. */
  tailBone?: number;
  /** `parent` -1: the append flags without a source (as PMX allows). */
  append?: { parent: number; ratio: number; rotate: boolean; translate: boolean; local: boolean };
  /** Twist bones: the rotation axis (used by pose evaluation). */
  fixedAxis?: [number, number, number];
  /** Display-only; an axis is null when the file held a value that is not finite. */
  localAxes?: { x: [number, number, number] | null; z: [number, number, number] | null };
  /** PMX external parent key. */
  externalParent?: number;
  ik?: {
    target: number;
    loopCount: number;
    limitAngle: number;
    links: { bone: number; limitMin?: [number, number, number]; limitMax?: [number, number, number] }[];
  };
}

/** A model's skeleton as readPmx returns it (and every method that takes a skeleton accepts). */
export interface Skeleton {
  format?: 'pmx' | 'pmd' | 'memory';
  modelName?: string;
  modelNameEn?: string;
  source?: { version: number; vertices: number; faces: number; textures: number; materials: number; comment: string;
    /** What the reader accepted though the file is not as the format says (fields nothing poses with). */
    warnings: string[] };
  bones: SkeletonBone[];
  morphNames?: string[];
}

/** The 22 humanoid bones, VRM's names. */
export type HumanoidBone =
  | 'hips' | 'spine' | 'chest' | 'upperChest' | 'neck' | 'head'
  | 'leftShoulder' | 'leftUpperArm' | 'leftLowerArm' | 'leftHand'
  | 'rightShoulder' | 'rightUpperArm' | 'rightLowerArm' | 'rightHand'
  | 'leftUpperLeg' | 'leftLowerLeg' | 'leftFoot' | 'leftToes'
  | 'rightUpperLeg' | 'rightLowerLeg' | 'rightFoot' | 'rightToes';

/** The 22 humanoid bones in the core's order (parents first). */
export const HUMANOID_BONES: readonly HumanoidBone[];

/** mapHumanoid's result: which bone of the model each humanoid bone is. */
export interface HumanoidMap {
  /** The source name found for each humanoid bone, or null. */
  bones: Record<HumanoidBone, string | null>;
  /** The naming table that matched (docs/models.md): 'vroid' | 'mixamo' | 'mmd' | 'english' | 'chinese' | 'biped' | 'daz' | 'cmu' | 'none'. */
  naming: Record<HumanoidBone, string>;
  mapped: number;
  total: number;
  missingRequired: HumanoidBone[];
  drivable: boolean;
}

export interface ProcMotion {
  /** Read a PMX (2.0/2.1) or PMD model's skeleton and morph names. ('motion' module) */
  readPmx(bytes: Uint8Array | ArrayBuffer): Skeleton;
  /** Map bone names (or a skeleton, or PMX/PMD bytes: then English names too) to the 22 humanoid bones. */
  mapHumanoid(input: string[] | Skeleton | Uint8Array | ArrayBuffer): HumanoidMap;
  /** The built-in mannequin as PMX 2.0 bytes. */
  mannequinPmx(): Uint8Array;
}

/** One evaluated frame: every bone's world position, world matrix and final local rotation. */
export interface PoseResult {
  boneNames: string[];
  /** 3 floats per bone: world position. */
  positions: Float32Array;
  /** 16 floats per bone: world matrix, column-major (translation at 12..14). */
  world: Float32Array;
  /** 4 floats per bone: final local rotation (after append and IK), x y z w. */
  rotations: Float32Array;
}

/** What evaluate and positions solve (both true by default). */
export interface PoseOptions {
  /** false: solve no IK. */
  ik?: boolean;
  /** false: ignore append (付与) transforms. */
  append?: boolean;
}

/** A motion bound to a skeleton inside the module. Call dispose() when done. */
export interface PoseEvaluator {
  readonly boneNames: string[];
  readonly boneCount: number;
  readonly info: { tracks: number; keys: number; unmatchedBones: number; unmatchedIk: number; propertyKeys: number; firstFrame: number; lastFrame: number };
  readonly unmatchedBones: string[];
  readonly unmatchedIk: string[];
  /** The pose at a (fractional) frame, 30 per second: append, IK and world matrices as babylon-mmd plays them. */
  evaluate(frame: number, options?: PoseOptions): PoseResult;
  /** World positions for `count` frames from `first` by `step`, frame-major (count * bones * 3). */
  positions(first: number, count: number, step?: number, options?: PoseOptions): Float32Array;
  /** An IK bone's chain: 'auto' follows the motion's property keys, 'on' and 'off' force it. */
  setIkMode(boneName: string, mode: 'auto' | 'on' | 'off'): void;
  /** Release the module memory (safe twice). */
  dispose(): void;
}

/** solveTwoBoneIk's result: the two rotations, where the joints end and how far the end missed the target. */
export interface TwoBoneIkResult {
  /** World-space delta rotation to pre-multiply onto the root joint's world rotation. */
  rootRotation: [number, number, number, number];
  midRotation: [number, number, number, number];
  mid: [number, number, number];
  end: [number, number, number];
  miss: number;
  reached: boolean;
}

/** A point or direction: [x, y, z] or any array-like of three numbers. */
type Vec3 = [number, number, number] | ArrayLike<number>;

export interface ProcMotion {
  /** Bind a motion (VMD bytes, a readVmd result, or null for the rest pose) to a skeleton for many
   * evaluations ('motion' module). Call dispose() when done. */
  createPoseEvaluator(vmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: Skeleton | Uint8Array | ArrayBuffer): PoseEvaluator;
  /** One frame of a motion on a skeleton (createPoseEvaluator for many frames). */
  evaluatePose(vmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: Skeleton | Uint8Array | ArrayBuffer, frame: number, options?: PoseOptions): PoseResult;
  /** Analytic two-bone IK: bend root-mid-end towards `target`, the middle joint towards `pole`. */
  solveTwoBoneIk(root: Vec3, mid: Vec3, end: Vec3, target: Vec3, pole: Vec3): TwoBoneIkResult;
}

// ---- catwalk ------------------------------------------------------------------------------------

/** The family of real walks the amounts not given follow (docs/catwalk.md#styles). */
export type CatwalkStyle = 'runway' | 'feminine' | 'casual' | 'strut';

/** Catwalk parameters (docs/catwalk.md has defaults, ranges and effects). Absent or null = default. */
export interface CatwalkParams {
  /** 'runway' (default), 'feminine', 'casual' or 'strut': the defaults of the amounts not given. */
  style?: CatwalkStyle;
  /** Tempo without a BPM: 120 * speed BPM (0.5 .. 1.66). Ignored when a BPM is given. */
  speed?: number;
  /** One step per beat ('beat') or every two beats ('2beat', default). */
  stepCadence?: 'beat' | '2beat';
  /** Arms swing opposite to the legs ('swing', default) or hold a pose ('posed'). */
  armPose?: 'swing' | 'posed';
  /** Walk out along -Z and back (default false: in place). */
  traverse?: boolean;
  /** Turn 180 degrees at each end and walk back forwards (implies traverse). */
  uTurn?: boolean;
  /** MMD units walked out (default: what the loop's steps cover). */
  traverseDistance?: number;
  /** 0..1 (0.6): lateral hip shift toward the stance foot. */
  hipSway?: number;
  /** 0..1 (0.5): swing foot lift. */
  stepHeight?: number;
  /** 0..1 (0.5): step length, 1.5 leg lengths at 1. */
  stride?: number;
  /** 0..1 (0.55): 0 feet under the hips, 0.5 on the centre line, 1 crossed a hip width. */
  crossStep?: number;
  /** 0..1 (0.5): pelvis yaw, up to 16 degrees. */
  hipTwist?: number;
  /** 0..1 (0.5): pelvis roll about the hips (swing-side hip down), up to 18 degrees. */
  pelvisDrop?: number;
  /** -1..1 (0.5): shoulder-line turn, up to 20 degrees; above 0 against the pelvis, below 0 with it. */
  torsoTwist?: number;
  /** 0..1 (0.15): how far the shoulders lean back over the centre against the hip sway (1 = all the way). */
  torsoSway?: number;
  /** -1..1 (-0.1): upper body pitch, up to 15 degrees, + = forward. */
  lean?: number;
  /** 0..1 (0.3): share of the torso's turn and tilt the head follows; 0 keeps it level, facing the way. */
  headFollow?: number;
  /** 0..1 (0.5): heel raised at toe-off, up to 60 degrees. */
  toeOff?: number;
  /** 0..1 (0.4): toes up at heel strike, up to 30 degrees. */
  heelStrike?: number;
  /** 0..1 (0.5): pelvis drop at double support, up to 0.1 leg length. */
  bob?: number;
  /** 0..1 (0.3): least knee bend beyond the model's rest bend, 1 + 40 * x degrees. */
  stanceKnee?: number;
  /** 0..1 (0.5): arm swing from the shoulder, up to 44 degrees. */
  armSwing?: number;
  /** 0..1 (0.5): relaxed elbows, bent 30 * x degrees, 60 * x more at the front of the swing; the hand trails. */
  elbowBend?: number;
  /** 'posed' arms: upper arm angle below horizontal (70) and elbow bend (30), degrees. */
  poseArmAngle?: { shoulder?: number; elbow?: number } | [number, number?] | number;
  /** 0..1 (1): blink morph weight; 0 or false = no blinks. */
  blink?: number | boolean;
  /** 0..1 (0.25): smile morph weight. */
  expression?: number;
  /** Blink timing (default 1). */
  seed?: number;
  /** Key fit tolerance, MMD units (0.01). */
  positionTolerance?: number;
  /** Key fit tolerance, degrees (0.2). */
  rotationTolerance?: number;
}

/**
 * The `state` argument: parameters are read from `state.catwalk.X`, then `state.catwalkX` (the
 * flat names host apps use), then `state.X`.
 */
export type CatwalkState = CatwalkParams & {
  catwalk?: CatwalkParams;
  [key: `catwalk${string}`]: unknown;
};

/** The model: PMX/PMD bytes or readPmx's Skeleton (the legs are landed on it and the report measured on
 * it), or plain arrays (proportions only: no report). */
export type CatwalkSkeleton =
  | Uint8Array
  | ArrayBuffer
  | Skeleton
  | {
      /** Bone names (default: the boneNames argument). */
      names?: string[];
      /** World rest positions: 3 numbers per bone, flat or as [x, y, z]. */
      positions: ArrayLike<number> | ArrayLike<ArrayLike<number>>;
      /** Parent index per bone, -1 = none. */
      parents?: ArrayLike<number>;
    };

/** What the catwalk generated (the fields of generateCatwalkVmd's result besides vmd, plan and report). */
export interface CatwalkInfo {
  /** Loop length; the keys at loopFrames equal those at frame 0. */
  loopFrames: number;
  /** True frames per beat, 1800 / bpm (not rounded). */
  beatFrames: number;
  /** True frames per step (beatFrames or twice that). */
  stepFrames: number;
  /** Heel strikes per loop (a multiple of 8). */
  steps: number;
  /** The tempo used: the clamped BPM, or 120 * speed. */
  bpm: number;
  /** Drift of the looped motion against the true tempo, frames per minute (< 1 with a BPM). */
  driftFramesPerMinute: number;
  keyCount: number;
  morphKeyCount: number;
  propertyKeyCount: number;
  /** The model's names of the bones that received keys (and the toe IK bones switched on). */
  usedBones: string[];
  /** Canonical names of catwalk bones the model lacks. */
  missingBones: string[];
  /** Largest deviation of the keys from the continuous motion (every half frame), units / degrees. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  legLength: number;
  stepLength: number;
  traverseDistance: number;
  crouch: number;
  lift: number;
  blinkMorph: string | null;
  expressionMorph: string | null;
  /** The parameters used (defaults filled in, values clamped). */
  params: Required<Omit<CatwalkParams, 'poseArmAngle' | 'blink'>> & {
    bpm: number | null;
    blink: number;
    poseArmAngle: { shoulder: number; elbow: number };
  };
  /** False when the walk was time-warped to a grid that lists beats (one motion over the song). */
  looping: boolean;
  /** Beats a step, and the grid beat of strike 0. */
  beatsPerStep: number;
  firstStrikeBeat: number;
  /** With a BPM or a grid: how far the heel strikes are from their beats (frames), measured as played
   * (`measured: 'played'`) or as keyed with bone names only; per strike in plan.strikes. */
  sync: (BeatSync & { measured: 'played' | 'keyed' }) | null;
}

/** How far events (heel strikes, bounce valleys, keyframes) are from their beats, frames (30 fps). */
export interface BeatSync {
  count: number;
  maxErrorFrames: number;
  meanErrorFrames: number;
  /** Index of the event with maxErrorFrames. */
  worst: number;
  withinHalfFrame: boolean;
}

/** A heel strike against its beat. */
export interface CatwalkStrike {
  frame: number;
  side: 'left' | 'right';
  beat: number;
  beatFrame: number;
  /** frame - beatFrame. */
  errorFrames: number;
}

/** A generator's plan: the ankles per whole frame 0 .. frames. */
export interface CatwalkPlan {
  frames: number;
  /** 6 numbers per frame: left ankle xyz, right ankle xyz (world, MMD units). */
  ankles: Float32Array;
  /** 2 per frame (left, right): 0 swing, 1 rolling about the heel, 2 flat, 3 rolling about the ball. */
  contact: Uint8Array;
  /** With a BPM or a grid: every heel strike in frames 0 .. frames against its beat. */
  strikes?: CatwalkStrike[];
  /** Each ankle's standing height (what "below rest" is measured from). */
  floor: [number, number];
  /** The pivots the slide is measured at: offsets from the ankle's rest position (left, right). */
  heel: [[number, number, number], [number, number, number]];
  ball: [[number, number, number], [number, number, number]];
}

/** One limb of a landing report (procmotion/landing.h). Units; frames are whole frames. */
export interface LandingLimbReport {
  /** The effector bone (ankle or wrist) as the model names it. */
  bone?: string;
  /** Keyed by the mechanism (a leg), else only measured. */
  steered: boolean;
  frames: number;
  maxError: number;
  rmsError: number;
  worstFrame: number;
  /** Deepest point below the standing height. */
  penetration: number;
  /** Over every stance, the lowest height above the floor; the worst stance's (0 = every stance reaches the floor). */
  stanceGap: number;
  stances: number;
  /** Largest pivot movement between two consecutive frames of one contact kind. */
  maxSlide: number;
  slideFrame: number;
  ikOffFrames: number;
  unreachableFrames: number;
}

/** What a generator's result plays like in MMD / babylon-mmd, measured (docs/landing.md). */
export interface LandingReport {
  maxError: number;
  rmsError: number;
  penetration: number;
  stanceGap: number;
  maxSlide: number;
  ikOffFrames: number;
  unreachableFrames: number;
  keyCount: number;
  propertyKeyCount: number;
  frames: number;
  tolerance: number;
  /** maxError <= tolerance. */
  landed: boolean;
  limbs: Record<string, LandingLimbReport>;
}

/** Every generator returns `{ vmd, report, ... }`. */
/** generateCatwalkVmd's result: the VMD, what was generated (CatwalkInfo), the plan and the measured report. */
export interface CatwalkResult extends CatwalkInfo {
  /** The VMD file. */
  vmd: Uint8Array;
  /** Where the ankles are meant to be (docs/landing.md). */
  plan: CatwalkPlan;
  /** What MMD plays, measured by playing the VMD with the MMD-exact evaluator on the model (or, without a
   * model, on the built-in mannequin); null when only bone names were given (nothing to measure on). */
  report: CatwalkLandingReport | null;
}

/** The catwalk's landing report: on the given model, or on the built-in mannequin. */
export type CatwalkLandingReport = LandingReport & { model: 'model' | 'mannequin' };

/** Parameter names the catwalk reads. */
export const CATWALK_PARAMETERS: readonly (keyof CatwalkParams)[];

export interface ProcMotion {
  /**
   * A looping runway walk as VMD bytes. `bpm` null = no music (tempo from
   * speed); name lists null = every semi-standard bone / no morphs (or the skeleton's). A walk that
   * lands (no bone names and no skeleton: the standard figure, landed on the mannequin; a skeleton as
   * PMX/PMD bytes or readPmx's) needs the 'motion' module (else PM_ERR_NOT_LOADED); bone names with
   * rest positions or none: the core alone, `report` null.
   */
  generateCatwalkVmd(
    state: CatwalkState | null,
    bpm: number | null | BeatGridInput,
    morphNames: readonly string[] | null,
    boneNames: readonly string[] | null,
    options?: { skeleton?: CatwalkSkeleton },
  ): CatwalkResult;
}

// ---- tracing (js-glue/tracing.js; docs/tracing.md) ------------------------------------------------

/** A traced limb. */
export type TraceLimb = 'leftHand' | 'rightHand' | 'leftFoot' | 'rightFoot';
/** How a path joins its points: straight segments, or a smooth curve through them. */
export type TrajectoryMode = 'line' | 'curve';
/** A named easing or an MMD Bezier curve [x1, y1, x2, y2] in 0..127 (the segment ending at the keyframe). */
export type Easing = 'linear' | 'ease-in' | 'ease-out' | 'ease-in-out' | [number, number, number, number];
/** The traced limbs in the core's order. */
export const TRACE_LIMBS: readonly TraceLimb[];
/** The named easings as MMD Bezier curves [x1, y1, x2, y2] in 0..127. */
export const TRACE_EASINGS: Readonly<Record<'linear' | 'ease-in' | 'ease-out' | 'ease-in-out', readonly [number, number, number, number]>>;

/** A trajectory: points and pole are offsets from the limb root (腕 / 足) world position, MMD units. */
export interface Trajectory {
  mode: TrajectoryMode;
  points: [number, number, number][];
  /** Omitted: the limb's default pole (hands: the elbow hangs; feet: the knee bends forward). */
  pole?: [number, number, number];
}

/** Trace data a keyframe carries for one limb. */
export interface KeyframeTrace {
  id: number;
  mode: TrajectoryMode;
  points: [number, number, number][];
  pole: [number, number, number];
  /** Where the keyframe sits on the path, 0..1. */
  t: number;
}

/** A timeline keyframe: a pose at a beat, and the traces that start there. */
export interface TimelineKeyframe {
  beat: number;
  easing?: Easing;
  /** Local rotations [x, y, z, w] by bone name; bones left out rest. */
  rotations?: Record<string, [number, number, number, number]>;
  /** Offsets from rest [x, y, z] by bone name. */
  translations?: Record<string, [number, number, number]>;
  traces?: Partial<Record<TraceLimb, KeyframeTrace>>;
}

/** The JSON schema of a timeline (docs/tracing.md). */
export interface TimelineJSON {
  format?: 'procmotion-timeline';
  version?: 1;
  bpm?: number;
  nextTraceId?: number;
  keyframes: TimelineKeyframe[];
  trajectories?: Partial<Record<TraceLimb, Trajectory>>;
}

/** Where a limb's trace stands at the last evaluated time. */
export interface TraceState {
  /** The limb was solved on its path this frame. */
  active: boolean;
  id: number;
  t: number;
  root: [number, number, number];
  target: [number, number, number];
  pole: [number, number, number];
  miss: number;
}

/** A timeline evaluated at one time: the pose, and each limb's trace state. */
export interface TimelinePose {
  boneNames: string[];
  /** 4 per bone: local rotations as keyframes and the VMD hold them (before append and IK). */
  keyRotations: Float32Array;
  /** 3 per bone: offsets from rest. */
  translations: Float32Array;
  /** 4 per bone: final local rotations (after append and IK). */
  rotations: Float32Array;
  /** 3 per bone: world positions. */
  positions: Float32Array;
  /** 16 per bone, column-major. */
  world: Float32Array;
  traces: Record<TraceLimb, TraceState>;
}

/** How generateKeyframes spreads keyframes along a limb's path. */
export interface GenerateOptions {
  /** 2..20 keyframes. */
  count: number;
  startBeat?: number;
  /** Beats between generated keyframes (default 1). */
  beatStep?: number;
  easing?: Easing;
  /** Given: these become the limb's draft first. */
  mode?: TrajectoryMode;
  points?: [number, number, number][];
  pole?: [number, number, number];
}

/** Timeline.bake's result: the VMD, where the hands and feet are meant to be, and what MMD plays. */
export interface TimelineBakeResult {
  vmd: Uint8Array;
  plan: {
    /** The last frame baked (the loop length). */
    frames: number;
    /** 6 per frame: left hand xyz, right hand xyz (world). */
    hands: Float32Array;
    /** 6 per frame: left foot (ankle) xyz, right foot xyz. */
    ankles: Float32Array;
    /** 4 per frame (leftHand, rightHand, leftFoot, rightFoot): 1 = following a trace. */
    active: Uint8Array;
  };
  /** The bake played with the MMD-exact evaluator, each limb measured against the plan over its traced
   * frames; sync: the keyframes against their beats on a grid (null without one). */
  report: LandingReport & { sync: BeatSync | null };
}

/** A keyframe timeline whose traced segments re-solve the limb IK every frame. Call dispose() when done. */
export interface Timeline {
  readonly boneNames: string[];
  readonly boneCount: number;
  bpm: number;
  readonly keyframeCount: number;
  readonly keyframes: TimelineKeyframe[];
  readonly nextTraceId: number;
  /** Keyframe `index` (in beat order). */
  getKeyframe(index: number): TimelineKeyframe;
  /** With rotations/translations/traces: as given; with only beat (and easing): the played pose is captured. */
  addKeyframe(keyframe: TimelineKeyframe): number;
  /** Remove keyframe `index`. */
  removeKeyframe(index: number): void;
  /** Remove every keyframe. */
  clear(): void;
  /** Set a limb's draft path (what generateKeyframes traces). */
  setTrajectory(limb: TraceLimb, trajectory: Trajectory): void;
  /** A limb's draft path, or null. */
  getTrajectory(limb: TraceLimb): Trajectory | null;
  /** Remove a limb's draft path. */
  clearTrajectory(limb: TraceLimb): void;
  /** The world position of a limb's root (腕 or 足) at a time: what path points are offsets from. */
  rootPosition(limb: TraceLimb, timeSeconds?: number): [number, number, number];
  /** Append a world-space point to the limb's draft, stored relative to the root at timeSeconds. */
  addControlPoint(limb: TraceLimb, worldPoint: ArrayLike<number>, timeSeconds?: number, mode?: TrajectoryMode): Trajectory;
  /** The pole a limb uses when its path sets none (hands: the elbow hangs; feet: the knee bends forward). */
  defaultPole(limb: TraceLimb): [number, number, number];
  /** Returns the new trace id. */
  generateKeyframes(limb: TraceLimb, options: GenerateOptions): number;
  /** The pose at a time in seconds. */
  evaluate(timeSeconds: number): TimelinePose;
  /** The pose at a (fractional) beat. */
  evaluateBeat(beat: number): TimelinePose;
  /** A 30 fps VMD (bpm default: the timeline's; or a beat grid: keyframe beats land on its beats), its plan
   * (hands and feet per whole frame) and what MMD plays, measured. */
  bake(bpm?: number | BeatGridInput): TimelineBakeResult;
  /** The timeline as its JSON document (timelineFromJSON reads it back). */
  toJSON(): TimelineJSON;
  /** Release the module memory (safe twice). */
  dispose(): void;
}

export interface ProcMotion {
  /** The point at fraction `t` (0..1) of a path's length through relative points, [x, y, z]. */
  sampleTrajectory(mode: TrajectoryMode, relPoints: ArrayLike<ArrayLike<number>> | ArrayLike<number>, t: number): [number, number, number];
  /** The points at many fractions of a path's length: 3 floats per t. */
  sampleTrajectory(mode: TrajectoryMode, relPoints: ArrayLike<ArrayLike<number>> | ArrayLike<number>, t: ArrayLike<number>): Float32Array;
  /** A path's length in MMD units. */
  trajectoryLength(mode: TrajectoryMode, relPoints: ArrayLike<ArrayLike<number>> | ArrayLike<number>): number;
  /** An empty tracing timeline on a model ('motion' module); `bpm` default 120. Call dispose() when done. */
  createTimeline(skeleton: Skeleton | Uint8Array | ArrayBuffer, options?: { bpm?: number }): Timeline;
  /** A timeline read back from its JSON document (Timeline.toJSON), on a model. */
  timelineFromJSON(json: string | TimelineJSON, skeleton: Skeleton | Uint8Array | ArrayBuffer): Timeline;
}

// ---- groove (js-glue/groove.js, docs/groove.md) --------------------------------------------------

/** A groove joint. */
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

/** Groove settings as any method takes them: the full config, only changes, JSON text, or null for the defaults. */
export type GrooveSettingsInput = GrooveSettings | GrooveConfig | string | null | undefined;

/** The groove joints in the core's order, with the MMD bone each one drives. */
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

/** What a groove bound to a skeleton found: its joints' bones and what it skipped. */
export interface GrooveInfo {
  joints: Record<GrooveJointName, { bone: string; index: number } | null>;
  /** Joints the model lacks, and 'squat' when its legs or body bone are missing. */
  skipped: string[];
  bodyBone: string | null;
  legBones: (string | null)[];
  legMode: 'none' | 'analytic' | 'mmd-ik';
  legIkBones: string[];
}

/** Options of Groove.offsets. */
export interface GrooveFrameOptions {
  /** The user drives the legs by IK: the squat bounce yields. */
  legIkUser?: boolean;
  resetAnchors?: boolean;
  /** Joint and body offsets only: no evaluation, no leg solve (a viewer with MMD leg IK). */
  offsetsOnly?: boolean;
}

/** A groove bound to a skeleton (createGroove). Call dispose() when done. */
export interface Groove {
  readonly boneNames: string[];
  readonly boneCount: number;
  readonly info: GrooveInfo;
  readonly result: GrooveFrame;
  /** Replace the settings (validated; the foot anchors are kept). */
  setConfig(config: GrooveSettingsInput): void;
  /** pose: null (rest pose), a PoseEvaluator (sampled at timeSeconds * 30) or GroovePose. */
  offsets(pose: GroovePose | PoseEvaluator | null, timeSeconds: number, bpm: number | BeatGridInput, options?: GrooveFrameOptions): GrooveFrame;
  /** World positions (3 per bone) of the last grooved pose. */
  worldPositions(): Float32Array;
  /** Preview without playback: take the previous step's body offset out of `position` and add this time's. */
  previewStep<P extends { x: number; y: number; z: number } | number[]>(position: P, timeSeconds: number, bpm: number, options?: GrooveFrameOptions): P;
  /** Take the last preview offset back out of `position`. */
  previewStop<P extends { x: number; y: number; z: number } | number[]>(position: P): P;
  /** Capture the foot anchors again on the next call. */
  resetAnchors(): void;
  /** An IK bone's chain in the groove's own evaluation: 'auto', 'on' or 'off'. */
  setIkMode(boneName: string, mode: 'auto' | 'on' | 'off'): void;
  /** Release the module memory (safe twice). */
  dispose(): void;
}

/** Options of bakeGroove. */
export interface GrooveBakeOptions {
  /** Last frame baked (default: the base motion's, or 16 beats). */
  frames?: number;
  /** Units, default 0.002. */
  positionTolerance?: number;
  /** Degrees, default 0.05. */
  rotationTolerance?: number;
}

/** What bakeGroove wrote and what the result plays like. */
export interface GrooveBakeReport {
  frames: number;
  legMode: 'none' | 'analytic' | 'mmd-ik';
  keyedBones: number;
  keys: number;
  copiedKeys: number;
  /** MMD units. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** Measured, MMD units: the played ankles' largest distance from where the base motion (or the rest pose) puts them. */
  maxFootError: number;
  /** Joints without a bone, then 'squat' if skipped. */
  skipped: string[];
  /** What the bake plays like (limbs left, right), measured; null without the squat bounce. */
  landing: LandingReport | null;
  /** On a grid: every bounce valley as written against its beat (null without a grid or a bounce). */
  sync: BeatSync | null;
}

/** A model as the methods take it: readPmx's skeleton, or PMX/PMD bytes. */
type SkeletonInput = Skeleton | Uint8Array | ArrayBuffer;

export interface ProcMotion {
  /** Validated settings merged over the defaults (and `base`): every field. */
  grooveConfig(config?: GrooveSettingsInput, options?: { base?: GrooveSettingsInput; changedOnly?: false }): GrooveConfig;
  /** Validated settings merged over the defaults (and `base`): only what differs from them. */
  grooveConfig(config: GrooveSettingsInput, options: { base?: GrooveSettingsInput; changedOnly: true }): GrooveSettings;
  /** A groove bound to a model for per-frame use ('motion' module). Call dispose() when done. */
  createGroove(config: GrooveSettingsInput, skeleton: SkeletonInput): Groove;
  /** One frame of the groove without keeping a handle (createGroove for many frames). */
  grooveOffsets(config: GrooveSettingsInput, skeleton: SkeletonInput, pose: GroovePose | PoseEvaluator | null, timeSeconds: number, bpm: number | BeatGridInput, options?: GrooveFrameOptions): GrooveFrame;
  /** The groove baked over a motion (or the rest pose, `baseVmd` null) as a new VMD, with its report. */
  bakeGroove(baseVmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: SkeletonInput, config: GrooveSettingsInput, bpm: number | BeatGridInput, options?: GrooveBakeOptions): { vmd: Uint8Array; report: GrooveBakeReport };
}

// ---- idle (js-glue/idle.js; docs/idle.md) ----------------------------------------------------------

/** The idle's parameters (every one optional; the defaults in brackets). */
export interface IdleParams {
  /** How much everything moves, 0..1 [0.5]. */
  intensity?: number;
  /** How often things happen, 0.25..3 [1]: holds and moves last 1 / speed as long. */
  speed?: number;
  /** Weight shifts, 0..1 [0.5]: up to 0.16 leg lengths sideways at intensity 1. */
  bodySway?: number;
  /** How far and how often the head looks around, 0..1 [0.5]. */
  headMovement?: number;
  /** Gestures, 0..1 [0.5]: 0 none, 0.5 one every 16 s, 1 one every 8 s. */
  gestureFrequency?: number;
  /** The shortest loop, seconds, 30..300 [32]. */
  duration?: number;
  /** The blink morph's weight, 0..1 [1]; 0 = no blinks. */
  blink?: number;
  /** What happens when [1]. */
  seed?: number;
  /** Key fit tolerances: units [0.01], degrees [0.2]. */
  positionTolerance?: number;
  rotationTolerance?: number;
}

/** The `state` argument: parameters from `state.idle.X`, then `state.idleX`, then `state.X`. */
export type IdleState = IdleParams & {
  idle?: IdleParams;
  [key: `idle${string}`]: unknown;
};

/** A weight shift or a gesture of the loop, in frames. */
export interface IdleEvent {
  kind: 'shift' | 'touchHair' | 'lookAtHand' | 'adjustClothes' | 'stretch';
  start: number;
  end: number;
  /** A shift: where the weight goes, -1 the right leg .. 1 the left. */
  weight?: number;
  /** A gesture: the hand(s). */
  hand?: 'left' | 'right' | 'both';
}

/** What the whole body does when MMD plays a motion (measured with the MMD-exact evaluator). */
export interface BodyReport {
  frames: number;
  /** Per hand, the least distance from the wrist or the middle fingertip to the body's capsules (torso,
   * head, thighs; negative: inside), where and which; null for a model without arms. */
  hands: { left: HandClearance; right: HandClearance } | null;
  /** How far each wrist moves: the largest of its ranges along X, Y and Z (left, right). */
  wristRange: [number, number];
  /** The largest angle between the head's orientation and its orientation at frame 0. */
  headTurnDeg: number;
  /** The fastest the pelvis moves, units per second. */
  pelvisSpeed: number;
  /** The loop's seam: the largest distance between a bone at the last frame and at frame 0. */
  loopGap: number;
}

/** How near a hand comes to the body: the distance, where and to which capsule. */
export interface HandClearance {
  clearance: number;
  frame: number;
  capsule: 'torso' | 'head' | 'leftThigh' | 'rightThigh';
}

/** generateIdleVmd's result. */
export interface IdleResult {
  /** The VMD file. */
  vmd: Uint8Array;
  /** Loop length; the keys at loopFrames equal those at frame 0. */
  loopFrames: number;
  /** The tempo events follow (0 without one), and frames per unit (a beat, or 15 frames). */
  bpm: number;
  unitFrames: number;
  keyCount: number;
  morphKeyCount: number;
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** The model's names of the bones that received keys. */
  usedBones: string[];
  /** Semi-standard names of idle bones the model lacks. */
  missingBones: string[];
  blinkMorph: string | null;
  /** How far センター was lowered at most so that the legs reach; the hanging upper arm's angle below
   * horizontal. */
  crouch: number;
  armHangDeg: number;
  events: IdleEvent[];
  /** The parameters used, defaults filled in. */
  params: Required<IdleParams> & { bpm: number };
  /** Where the ankles stand (the same every frame, the feet flat). */
  plan: {
    ankles: [[number, number, number], [number, number, number]];
    floor: [number, number];
    heel: [[number, number, number], [number, number, number]];
    ball: [[number, number, number], [number, number, number]];
  };
  /** The feet as MMD plays them (limbs left and right), or null with bone names only. */
  report: LandingReport | null;
  /** The whole body as MMD plays it, or null with bone names only. */
  body: BodyReport | null;
}

/** Parameter names the idle reads. */
export const IDLE_PARAMETERS: readonly (keyof IdleParams)[];

export interface ProcMotion {
  /**
   * A character standing at ease, as a looping VMD ('motion' module): weight shifts, breathing, a head
   * that looks around, relaxed arms and small gestures, the feet landed on the model. The arguments are
   * generateCatwalkVmd's: no model at all is the standard figure on the mannequin; a skeleton as PMX/PMD
   * bytes or readPmx's lands the feet on it and measures `report` and `body`.
   */
  generateIdleVmd(
    state: IdleState | null,
    bpm: number | null | BeatGridInput,
    morphNames: readonly string[] | null,
    boneNames: readonly string[] | null,
    options?: { skeleton?: CatwalkSkeleton },
  ): IdleResult;
}

// ---- dance (js-glue/dance.js; docs/dance.md) ---------------------------------------------------------

/** The dance's parameters (every one optional; the defaults in brackets). */
export interface DanceParams {
  /** How big the moves are, 0..1 [0.6]; a song's own energy scales it bar by bar. */
  energy?: number;
  /** How soon a phrase changes, 0..1 [0.5]: 0 after two plays, 1 after one. */
  variety?: number;
  /** Emphasis on the arms, the steps and the body (bounce, sway, chest), 0..1 each [0.5]. */
  arms?: number;
  legs?: number;
  body?: number;
  /** Seconds: a loop's shortest length, 8..120 [16]; with a song, where the dance ends (0 = its last beat). */
  duration?: number;
  /** Which moves come often and how the body bounces ['pop']. */
  style?: 'pop' | 'hiphop' | 'idol';
  /** Which moves, in which order [1]. */
  seed?: number;
  /** Key fit tolerances: units [0.01], degrees [0.2]. */
  positionTolerance?: number;
  rotationTolerance?: number;
}

/** The `state` argument: parameters from `state.dance.X`, then `state.danceX`, then `state.X`. */
export type DanceState = DanceParams & {
  dance?: DanceParams;
  [key: `dance${string}`]: unknown;
};

/** A move of the dance: the steps (groove .. bodyRoll), then the arm patterns (swing .. roll). */
export type DanceMove =
  | 'groove' | 'stepTouch' | 'sideStep' | 'kick' | 'kneeUp' | 'rock' | 'tap' | 'pivot' | 'bodyRoll'
  | 'swing' | 'clap' | 'armsUp' | 'point' | 'wave' | 'hips' | 'cross' | 'punch' | 'roll';

/** One phrase of the dance (frames, the dancer's beats). */
export interface DancePhrase {
  start: number;
  end: number;
  firstBeat: number;
  /** Phrases with the same id are the same moves at the same size. */
  id: number;
  section: number;
  step: DanceMove;
  arms: DanceMove;
  /** The move on the phrase's last two beats. */
  ending: DanceMove;
  /** Leads with the right side. */
  mirrored: boolean;
  /** 0..1: how big. */
  size: number;
}

/** The dance's plan: the catwalk's, with the danced beats. */
export interface DancePlan extends Omit<CatwalkPlan, 'strikes'> {
  /** The frame of each danced beat; the last one ends the dance. */
  beats: Float64Array;
}

/** generateAutoDanceVmd's result. */
export interface DanceResult {
  /** The VMD file. */
  vmd: Uint8Array;
  /** The motion's length; a loop's keys at loopFrames equal those at frame 0. */
  frames: number;
  /** 0 for a song. */
  loopFrames: number;
  /** The dancer's tempo: the grid's, halved or doubled into 70..160. */
  bpm: number;
  beatCount: number;
  /** With a song: the grid beat the dancer's first beat is, and grid beats per danced beat (1, 2 or 0.5). */
  firstGridBeat: number;
  gridBeatsPerBeat: number;
  keyCount: number;
  maxPositionError: number;
  maxRotationErrorDeg: number;
  usedBones: string[];
  missingBones: string[];
  /** How far センター was lowered at most so that the legs reach. */
  crouch: number;
  phrases: DancePhrase[];
  distinctPhrases: number;
  /** The most times one phrase plays in a row. */
  longestRepeat: number;
  sectionCount: number;
  params: Required<DanceParams> & { bpm: number };
  /** Where the ankles are meant to be (the catwalk's plan), and the frame of each danced beat. */
  plan: DancePlan;
  /** Each foot coming to rest, as played, against the nearest danced beat (frames); null with bone names only. */
  sync: (BeatSync & { measured: 'played' }) | null;
  /** The feet as MMD plays them (limbs left and right), or null with bone names only. */
  report: LandingReport | null;
  /** The whole body as MMD plays it, or null with bone names only. */
  body: BodyReport | null;
}

/** Parameter names the dance reads. */
export const DANCE_PARAMETERS: readonly (keyof DanceParams)[];

export interface ProcMotion {
  /**
   * A dance ('motion' module): steps, bounces, sways and arm moves phrased over 8 beats, the feet landed
   * on the model. `bpmOrBeats`: a detectBeats result (the whole song, its beats, downbeats and energy), a
   * beat grid, a BPM or null (a loop at 120). The other arguments are generateCatwalkVmd's.
   */
  generateAutoDanceVmd(
    state: DanceState | null,
    bpmOrBeats: number | null | BeatGridInput,
    morphNames: readonly string[] | null,
    boneNames: readonly string[] | null,
    options?: { skeleton?: CatwalkSkeleton },
  ): DanceResult;
}

// ---- the lifelike layer (js-glue/lifelike.js; docs/lifelike.md) -------------------------------------

/** The lifelike layer's settings (every one optional; the defaults in brackets). */
export interface LifelikeSettings {
  /** The blink morph's weight when shut, 0..1 [1]; 0 = no blinks. */
  blink?: number;
  /** Seconds between blinks, [min, max] within 0.5..60 [[2, 10]]. */
  blinkInterval?: [number, number];
  /** 0 = 0.1 s a blink .. 1 = 0.3 s [0.5]. */
  blinkDuration?: number;
  /** 0 = a breath every 5 s .. 1 = every 3 s [0.3]. */
  breathRate?: number;
  /** 0..1 [0.5]; 0 = no breathing. */
  breathDepth?: number;
  /** Micro-moves of head, neck and spine, 0..1 [0.25]. */
  microMoveExtent?: number;
  /** Their cycle, seconds, 1..10 [3]. */
  microMoveCycle?: number;
  /** Degrees the eyes turn before the head follows, 0..45 [12]. */
  eyeContact?: number;
  /** The share of the gaze beyond eyeContact the head takes, 0..1 [0.7]. */
  headTurn?: number;
  /** Degrees the gaze wanders, 0..60 [10]. */
  gazeRange?: number;
  /** Saccade size, 0..1 [1]; 0 = none. */
  saccades?: number;
  seed?: number;
}

/** One instant of the layer (Lifelike.sample). */
export interface LifelikeFrame {
  /** The blink morph's weight. */
  blink: number;
  /** 4 numbers (x, y, z, w) per channel: offsets to multiply onto the bones' local rotations. */
  rotations: Float32Array;
  channels: readonly LifelikeChannel[];
}

/** A channel of the layer and the model's bone for it (-1: none). */
export interface LifelikeChannel {
  readonly name: 'eyes' | 'leftEye' | 'rightEye' | 'head' | 'neck' | 'spine' | 'chest' | 'leftShoulder' | 'rightShoulder';
  readonly bone: number;
  readonly boneName: string | null;
}

/** The layer on one model, sampled per frame (createLifelike). Call dispose() when done. */
export interface Lifelike {
  readonly channels: readonly LifelikeChannel[];
  /** The model's blink morph, or null. */
  readonly blinkMorph: string | null;
  /** Seconds a breath takes. */
  readonly breathSeconds: number;
  /** The layer at `seconds` (any order); the object is reused by the next call. */
  sample(seconds: number): LifelikeFrame;
  /** Free the layer's memory in the module (idempotent). */
  dispose(): void;
}

/** What bakeLifelike wrote. */
export interface LifelikeReport {
  /** The layer covers 0 .. frames and repeats with that period. */
  frames: number;
  keyedBones: number;
  boneKeys: number;
  morphKeys: number;
  /** Keys of the base copied unchanged. */
  copiedKeys: number;
  blinks: number;
  /** Seconds between blink starts, the seam included. */
  minBlinkInterval: number;
  maxBlinkInterval: number;
  maxRotationErrorDeg: number;
  /** Bones and the morph the base keys: left to it. */
  skipped: string[];
}

/** Settings as an object, as JSON text, or null for the defaults. */
export type LifelikeSettingsInput = LifelikeSettings | string | null | undefined;

export interface ProcMotion {
  /** The settings with every default filled in, checked as the core reads them ('motion' module). */
  lifelikeSettings(settings?: LifelikeSettingsInput): Required<LifelikeSettings>;
  /** The layer on a model, for per-frame use (applyLifelikeToMmdModel in procmotion/babylon). */
  createLifelike(settings: LifelikeSettingsInput, skeleton: SkeletonInput): Lifelike;
  /** The layer baked over a motion (or the rest pose, `baseVmd` null): every base key kept, the layer
   * where the base leaves room, repeating with the base's length (options.frames overrides it). */
  bakeLifelike(baseVmd: Uint8Array | ArrayBuffer | Vmd | null, skeleton: SkeletonInput, settings?: LifelikeSettingsInput,
    options?: { frames?: number }): { vmd: Uint8Array; report: LifelikeReport };
}

// ---- transitions (js-glue/transition.js; docs/modes.md) ---------------------------------------------

/** Where a transition starts, where it goes and how long it takes. */
export interface TransitionOptions {
  /** The outgoing motion's frame when the change comes [0]. */
  fromFrame?: number;
  /** The incoming motion's frame the blend starts at [0]. */
  toFrame?: number;
  /** The blend's length in frames, 4..300 [30]. */
  frames?: number;
  /** The incoming motion's loop length, when it loops [0: it plays on]. */
  toLoopFrames?: number;
}

/** What bakeTransition did and how the feet play. */
export interface TransitionReport {
  frames: number;
  /** Feet that stepped, and how far each moved (0: it stayed). */
  steps: number;
  stepDistance: [number, number];
  keyedBones: number;
  keyCount: number;
  /** The feet as MMD plays the transition (stances: the planted frames), or null for a model whose legs
   * have no IK. */
  landing: LandingReport | null;
}

export interface ProcMotion {
  /**
   * A transition from one motion into another on a model ('motion' module): play `vmd` (frames 0 ..
   * frames), then the incoming motion from `nextFrame`.
   */
  bakeTransition(fromVmd: Uint8Array | ArrayBuffer | Vmd, toVmd: Uint8Array | ArrayBuffer | Vmd, skeleton: SkeletonInput,
    options?: TransitionOptions): { vmd: Uint8Array; frames: number; nextFrame: number; report: TransitionReport };
}

// ---- retargeting (js-glue/retarget.js; docs/retarget.md) ---------------------------------------------

/** Where the motion goes and which clip to take. */
export interface RetargetOptions {
  /** The model: PMX/PMD bytes or readPmx's skeleton [the built-in mannequin]. */
  model?: SkeletonInput;
  /** A glTF's animation index [0]. */
  animation?: number;
}

/** What retargetToVmd read, what it mapped and how the result plays. */
export interface RetargetReport {
  /** The source's format: 'bvh', 'fbx', 'gltf', 'vrm' or 'vrma'. */
  format: 'bvh' | 'fbx' | 'gltf' | 'vrm' | 'vrma';
  /** The naming its joints follow ('vrm' for a humanoid table, 'mixamo', 'cmu', ...), or 'inferred': the names
   * said nothing and the roles came from the hierarchy and the rest pose. */
  naming: string;
  /** 1 for names; for an inferred skeleton, how alike its legs and its arms are (0.5..1). */
  confidence: number;
  /** The source's frame rate and length in seconds. */
  sourceFps: number;
  duration: number;
  /** The VMD's last frame (30 fps). */
  frames: number;
  /** Model units per source unit: the legs' ratio, hip to ankle at rest. */
  scale: number;
  /** The source's forward came from its toes (else from its left and up, right-handed). */
  forwardFromToes: boolean;
  /** The roles keyed from the source, and the source's roles the model lacks. */
  mapped: RigRole[];
  unmapped: RigRole[];
  keyCount: number;
  /** The key fit's largest errors. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** The source feet's stances (left, right). */
  stances: [number, number];
  /** The most the hips were lowered to keep a planted foot within the leg's reach, units. */
  crouch: number;
  /** The feet as MMD plays the result, or null for a model whose legs have no IK (they play by FK). */
  feet: LandingReport | null;
  /** The source's hands: their least clearance from its body, scaled to the model (left, right); the frames
   * whose arm was turned (out of the model's body, or in to touch it); the frames where the source's hand
   * touched its body, and the most the model's hand stayed away from its body then (beyond 0.02 leg lengths). */
  hands: { sourceClearance: [number, number]; correctedFrames: [number, number]; touchFrames: [number, number]; touchGap: [number, number] };
  /** The body as MMD plays the result. */
  body: BodyReport;
}

export interface ProcMotion {
  /**
   * A humanoid motion from another rig (BVH, glTF/GLB, VRM, VRM Animation) as a VMD for an MMD model
   * ('keypoints' module): `{ vmd, report }`.
   */
  retargetToVmd(motion: Uint8Array | ArrayBuffer, options?: RetargetOptions): { vmd: Uint8Array; report: RetargetReport };
}

// ---- rig analysis (js-glue/rig.js, docs/models.md) ----------------------------------------------------

/** Role names: 'root', 'center', 'groove', 'waist', 'lowerBody', 'upperBody', 'upperBody2', ..., 'leftLegIk', 'rightToeEx' (docs/models.md). */
export type RigRole = string;
/** A point in MMD units. */
export type RigVec3 = [number, number, number];

/** A link of an IK chain and its limits. */
export interface RigChainLink {
  bone: string;
  role: RigRole | null;
  /** Radians, as stored (present when the link is limited). */
  limitMin?: RigVec3;
  limitMax?: RigVec3;
}

/** An IK chain of the model: what it moves and how far it reaches. */
export interface RigChain {
  ik: string;
  ikRole: RigRole | null;
  target: string | null;
  targetRole: RigRole | null;
  kind: 'leg' | 'toe' | 'legD' | 'arm' | 'hair' | 'other';
  side: 'left' | 'right' | 'none';
  loopCount: number;
  /** Radians per iteration step. */
  limitAngle: number;
  links: RigChainLink[];
  parent: string | null;
  parentRole: RigRole | null;
  /** The IK bone's ancestors, nearest first. */
  parents: string[];
  /** IK bone rest position minus effector rest position (when the chain has a target). */
  restOffset?: RigVec3;
  restDistance?: number;
  /** Measured: effector to IK bone after the rest-pose solve. */
  restError?: number;
  /** Measured: how far the rest-pose solve moves the effector. */
  restShift?: number;
}

/** A leg as the generators see it: its bones, lengths, knee and reach. */
export interface RigLeg {
  hip: string; knee: string; ankle: string; toe: string | null; heel: string | null;
  /** IK bones of the leg, toe and D-bone chains (null for none). */
  ik: string | null; toeIk: string | null; dIk: string | null;
  thigh: number; shin: number; length: number;
  /** The knee joint: its rest bend and (with a limited knee link) the bends MMD's limit allows, in degrees. */
  kneeJoint: { restBendDeg: number; limited: boolean; limitMin?: RigVec3; limitMax?: RigVec3; bendMinDeg?: number; bendMaxDeg?: number };
  /** Hip-ankle distances: at rest, and (with a leg IK) the least the knee allows and the most MMD's CCD stretches it (measured). */
  reach: { rest: number; min?: number; max?: number };
  ikOffset?: RigVec3;
  footLength: number;
  ankleHeight: number;
}

/** An arm's bones. */
export interface RigArm {
  shoulder: string | null; arm: string; elbow: string; wrist: string; ik: string | null;
  upper: number; fore: number; length: number; elbowRestBendDeg: number;
}

/** analyzeRig's result: the model's roles, chains, legs, arms and proportions. */
export interface RigAnalysis {
  boneCount: number;
  /** The model's primary naming table. */
  naming: string;
  cmuSignature: boolean;
  /** The bone playing each role found. */
  roles: Record<RigRole, string>;
  /** The table each role was matched by ('mmd', 'vroid', ... ; ' (English name)' appended for English names). */
  roleNamings: Record<RigRole, string>;
  /** Semi-standard roles a generator keys that the model lacks. */
  missing: RigRole[];
  /** The 22 humanoid bones (VRM humanBones names). */
  humanoid: Record<HumanoidBone, string | null>;
  chains: RigChain[];
  legs: { left: RigLeg | null; right: RigLeg | null };
  arms: { left: RigArm | null; right: RigArm | null };
  floorHeight: number;
  hipHeight: number;
  legLength: number;
  footLength: number;
  scale: number;
}

export interface ProcMotion {
  /** The rig analysis of a model (PMX/PMD bytes or a skeleton object): roles, IK chains, rest geometry. ('motion' module) */
  analyzeRig(model: SkeletonInput): RigAnalysis;
}

// ---- VRM export (js-glue/vrm.js, docs/vrm.md; the 'vrm' module: await pm.loadAsync('vrm')) ----------

/** VRMC_vrm meta fields (VRM 1.0 names); nothing is filled in that is not given but name, authors and
 * licenseUrl, which VRM requires (the report's metaDefaults says which were). */
export interface VrmMeta {
  name?: string;
  version?: string;
  authors?: string | string[];
  copyrightInformation?: string;
  contactInformation?: string;
  references?: string | string[];
  thirdPartyLicenses?: string;
  licenseUrl?: string;
  avatarPermission?: 'onlyAuthor' | 'onlySeparatelyLicensedPerson' | 'everyone';
  commercialUsage?: 'personalNonProfit' | 'personalProfit' | 'corporation';
  creditNotation?: 'required' | 'unnecessary';
  modification?: 'prohibited' | 'allowModification' | 'allowModificationRedistribution';
  otherLicenseUrl?: string;
  allowExcessivelyViolentUsage?: boolean;
  allowExcessivelySexualUsage?: boolean;
  allowPoliticalOrReligiousUsage?: boolean;
  allowAntisocialOrHateUsage?: boolean;
  allowRedistribution?: boolean;
}

/** What pmxToVrm does with textures: embed the given images, or none. */
export type VrmTextures =
  | Map<string, Uint8Array | ArrayBuffer>
  | Record<string, Uint8Array | ArrayBuffer>
  | Array<[string, Uint8Array | ArrayBuffer] | { path?: string; name?: string; data: Uint8Array | ArrayBuffer }>;

/** Options of pmxToVrm. */
export interface VrmOptions {
  /** the model's texture files by path ('\\' and '/' alike, case ignored; a file name alone matches too) */
  textures?: VrmTextures;
  meta?: VrmMeta;
  materials?: 'mtoon' | 'unlit';
  /** keep the model's A-pose instead of baking the arms into a T-pose */
  keepRestPose?: boolean;
}

/** What pmxToVrm wrote and what it left out. */
export interface VrmReport {
  humanoidMapped: number;
  humanoidTotal: number;
  missingRequiredBones: string[];
  drivable: boolean;
  humanBones: Record<string, string>;
  tPose: { applied: boolean; armDegrees: { left: number; right: number }; elbowDegrees: { left: number; right: number } };
  textures: Array<{ path: string; status: 'embedded' | 'converted' | 'missing' | 'unsupported' | 'unreadable' | 'unused' | 'toon'; detail?: string }>;
  materials: number;
  primitives: number;
  morphTargets: number;
  expressions: Record<string, string>;
  morphsSkipped: number;
  springs: { springs: number; joints: number; colliders: number; colliderGroups: number };
  metaDefaults: string[];
  weights: { sdefAsBdef2: number; qdefAsBdef4: number; renormalized: number };
  nonFinite: number;
  facesNotDrawn: number;
  glbBytes: number;
}

export interface ProcMotion {
  /** A PMX/PMD model as a VRM 1.0 file (GLB bytes) and the conversion report. ('vrm' module) */
  pmxToVrm(model: Uint8Array | ArrayBuffer, options?: VrmOptions): { glb: Uint8Array; report: VrmReport };
}

// ---- beats (js-glue/beats.js, docs/music.md) ---------------------------------------------------------

/** What Web Audio's AudioBuffer offers (any object of this shape works). */
export interface AudioBufferLike {
  readonly sampleRate: number;
  readonly length: number;
  readonly numberOfChannels: number;
  /** The samples of one channel. */
  getChannelData(channel: number): Float32Array;
}

/** Options of detectBeats and createBeatTracker. */
export interface BeatOptions {
  /** Interleaved channels of a Float32Array input (1 or 2, up to 32), default 1. */
  channels?: number;
  /** Default 55. */
  minBpm?: number;
  /** Default 215. */
  maxBpm?: number;
  /** Centre of the tempo prior, default 120. */
  priorBpm?: number;
  /** Ellis' tightness, default 100. */
  tightness?: number;
  /** 0 = detect 3 or 4; 2..12 fixes the meter. */
  beatsPerBar?: number;
  /** One tempo for the whole song (no tempo path). */
  steady?: boolean;
  /** Seconds; default 4 hours. */
  maxSeconds?: number;
  /** Called after each chunk: seconds analysed, seconds in all. */
  onProgress?: (doneSeconds: number, totalSeconds: number) => void;
}

/** A point of the tempo curve: from `time` (seconds) on, `bpm`. */
export interface TempoPoint {
  time: number;
  bpm: number;
}

/** detectBeats' result: tempo, beats and downbeats (seconds), and the features they came from. */
export interface BeatResult {
  /** The main tempo (0 when no beat was found). */
  bpm: number;
  /** 0..1: how clearly the beats stand out. */
  confidence: number;
  duration: number;
  /** The first beat's time in seconds. */
  offset: number;
  steady: boolean;
  beatsPerBar: number;
  /** Beat times in seconds. */
  beats: Float64Array;
  /** Per beat: 1 = downbeat .. beatsPerBar. */
  barPositions: Uint8Array;
  downbeats: Float64Array;
  firstDownbeat: number;
  /** Knots of a piecewise-linear tempo curve (one knot when steady). */
  tempoCurve: TempoPoint[];
  /** Onset strength 0..1, onsetRate values a second. */
  onsetEnvelope: Float32Array;
  onsetRate: number;
}

/** The beat grid the generators take (a BPM, { bpm, offset }, tap tempo or a detection). */
export interface BeatGrid {
  bpm: number;
  /** Seconds of beat 0. */
  offset: number;
  beats: Float64Array | null;
  beatsPerBar: number;
  firstDownbeat: number;
}
/** A beat grid as every generator takes it: a BPM, { bpm, offset }, a detectBeats result or a beatGrid result. */
export type BeatGridInput = number | { bpm: number; offset?: number; beatsPerBar?: number; firstDownbeat?: number } | BeatResult | BeatGrid;

/** A streaming tracker's estimate now. */
export interface BeatNow {
  time: number;
  bpm: number;
  lastBeat: number;
  nextBeat: number;
  phase: number;
  confidence: number;
}

/** A streaming beat tracker ('beats' module). */
export interface BeatTracker {
  readonly sampleRate: number;
  readonly channels: number;
  /** Feed samples (interleaved when there are several channels). */
  push(samples: Float32Array | ArrayLike<number>): void;
  /** The current tempo, phase and next beat. */
  now(): BeatNow;
  /** The full analysis of everything pushed so far (more can be pushed after). */
  finish(): BeatResult;
  /** Release the module memory (safe twice). */
  dispose(): void;
}

/** A tap-tempo session (createTapTempo). */
export interface TapTempo {
  /** Record a tap (seconds on any clock, e.g. performance.now() / 1000); a grid once 4 taps are in, else null. */
  tap(seconds: number): BeatGrid | null;
  readonly count: number;
}

/** WAV sample encodings. */
export type WavEncoding = 'default' | 'pcm_u8' | 'pcm_s16' | 'pcm_s24' | 'pcm_s32' | 'float32' | 'float64';
/** The WAV sample encodings writeWav takes. */
export const WAV_ENCODINGS: readonly WavEncoding[];

/** readWav's result. */
export interface WavAudio {
  sampleRate: number;
  channels: number;
  frames: number;
  /** Interleaved, integer formats scaled to [-1, 1). */
  samples: Float32Array;
  encoding: WavEncoding;
  validBits: number;
  formatTag: number;
  channelMask: number;
  rf64: boolean;
}

export interface ProcMotion {
  /** Tempo, beats and downbeats of music given as samples (interleaved when options.channels > 1). */
  detectBeats(samples: Float32Array, sampleRate: number, options?: BeatOptions): BeatResult;
  /** Tempo, beats and downbeats of a Web Audio AudioBuffer (its channels mixed down). */
  detectBeats(buffer: AudioBufferLike, options?: BeatOptions): BeatResult;
  /** A tracker for audio that arrives in pieces (a live input): push, then now() at any time. Call dispose() when done. */
  createBeatTracker(sampleRate: number, options?: BeatOptions): BeatTracker;
  /** A beat grid from a BPM, { bpm, offset } or a detectBeats result, checked. */
  beatGrid(x: BeatGridInput, offset?: number): BeatGrid;
  /** No grid. */
  beatGrid(x: null | undefined): null;
  /** The time in seconds of a (fractional) beat on a grid. */
  beatGridTime(grid: BeatGridInput, beat: number): number;
  /** The times in seconds of many beats. */
  beatGridTime(grid: BeatGridInput, beats: ArrayLike<number>): Float64Array;
  /** The (fractional) beat at a time in seconds. */
  beatGridBeat(grid: BeatGridInput, seconds: number): number;
  /** The beats at many times. */
  beatGridBeat(grid: BeatGridInput, seconds: ArrayLike<number>): Float64Array;
  /** The tempo at a time in seconds. */
  beatGridBpmAt(grid: BeatGridInput, seconds: number): number;
  /** The tempo at many times. */
  beatGridBpmAt(grid: BeatGridInput, seconds: ArrayLike<number>): Float64Array;
  /** A grid from tap times in seconds (at least 2, increasing). */
  beatGridFromTaps(times: ArrayLike<number>): BeatGrid;
  /** A tap-tempo session: tap(seconds) each beat; a grid from the 4th tap on. */
  createTapTempo(options?: { maxTaps?: number; resetAfterSeconds?: number }): TapTempo;
  /** Read a WAV file (PCM 8 to 32 bits, float, WAVE_FORMAT_EXTENSIBLE, RF64). */
  readWav(bytes: Uint8Array | ArrayBuffer): WavAudio;
  /** Write samples as a WAV file (interleaved when channels > 1; default 16-bit PCM). */
  writeWav(samples: Float32Array | ArrayLike<number>, sampleRate: number, options?: { channels?: number; encoding?: WavEncoding }): Uint8Array;
}
