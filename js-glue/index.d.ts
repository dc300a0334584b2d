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
