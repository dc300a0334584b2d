// procmotion/babylon: helpers for babylon-mmd 1.3 (peer dependency, never bundled).
// Types only: nothing of babylon-mmd is loaded by these imports.
import type { MmdAnimation, MmdMesh, MmdModel, VmdLoader } from 'babylon-mmd';
import type { Scene } from '@babylonjs/core';

import type { CatwalkResult, CatwalkState, ProcMotion } from './index.js';

export interface ModelInfo {
  boneNames: string[];
  morphNames: string[];
  /** World rest positions (model space, MMD units; NaN where unknown) and parents (-1 = none). */
  skeleton: { names: string[]; positions: Float32Array; parents: Int32Array };
}

/** Bone names, morph names and rest skeleton of a loaded MmdModel or MmdMesh. */
export function getModelInfo(target: MmdModel | MmdMesh): ModelInfo;

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
export function loadVmdAnimation(vmd: Uint8Array | ArrayBuffer, options?: LoadVmdOptions): Promise<MmdAnimation>;

/** getModelInfo + generateCatwalkVmd + loadVmdAnimation. `modelBytes` (the PMX/PMD the model came from):
 * the legs land on the model and `result.report` says what babylon-mmd will show (docs/landing.md). */
export function createCatwalkAnimation(
  pm: ProcMotion,
  target: MmdModel | MmdMesh,
  state?: CatwalkState | null,
  bpm?: number | null,
  options?: LoadVmdOptions & { modelBytes?: Uint8Array | ArrayBuffer },
): Promise<{ animation: MmdAnimation; result: CatwalkResult }>;
