// The real peers, headless in Node: babylon-mmd 1.3 (@babylonjs/core 9, NullEngine) and three.js's
// mmd-parser. The oracle tests and the benchmarks compare procmotion against these. See README.md
// in this folder for the recipes and the peers' quirks.
//
//   import { loadBabylonMmd, parseVmdBabylon, createMmdScene, ... } from './support/babylon.mjs';
//
// Importing this module registers the resolve hook (register.mjs) first and loads babylon-mmd only
// through dynamic import(), so test files can import it statically.
import './register.mjs';

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The shared fixtures: $PM_FIXTURES, else ../shared/fixtures beside the repository. */
export const FIXTURES = process.env.PM_FIXTURES || join(REPO_ROOT, '../shared/fixtures');

/** True when the shared fixtures folder is present (tests skip loudly otherwise). */
export function fixturesAvailable() {
  return existsSync(join(FIXTURES, 'SOURCES.md'));
}

/** Absolute path of a fixture, e.g. fixturePath('vmd/mei_wait.vmd'). */
export function fixturePath(rel) {
  return join(FIXTURES, rel);
}

/** A fixture's bytes as a Uint8Array over its own exactly-sized ArrayBuffer. */
export function readFixture(rel) {
  return toUint8Array(readFileSync(fixturePath(rel)));
}

/**
 * An exactly-sized ArrayBuffer holding `bytes` (Uint8Array, Buffer, ArrayBuffer or any view).
 * babylon-mmd's readers need this: MmdDataDeserializer builds Uint8Arrays over `dataView.buffer`
 * at its own offsets and ignores a view's byteOffset, so a Node Buffer (a view into a shared pool)
 * or any subarray would be read from the wrong place.
 */
export function toArrayBuffer(bytes) {
  if (bytes instanceof ArrayBuffer) return bytes;
  if (ArrayBuffer.isView(bytes)) {
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  throw new TypeError('expected an ArrayBuffer or a typed array');
}

function toUint8Array(bytes) {
  return new Uint8Array(toArrayBuffer(bytes));
}

// ---- loading the peers ---------------------------------------------------------------------------

let babylonPromise = null;

/**
 * Loads @babylonjs/core and babylon-mmd through deep imports (the package root needs `self` and
 * fails in Node) and returns the classes the helpers use. Cached: call it as often as you like.
 * Babylon's informational log lines are turned off (warnings and errors stay).
 */
export function loadBabylonMmd() {
  babylonPromise ??= (async () => {
    const [
      { NullEngine }, { Scene }, { LoadAssetContainerAsync }, { Logger },
      { VmdData, VmdObject }, { VmdLoader }, { MmdRuntime }, { MmdMesh },
    ] = await Promise.all([
      import('@babylonjs/core/Engines/nullEngine.js'),
      import('@babylonjs/core/scene.js'),
      import('@babylonjs/core/Loading/sceneLoader.js'),
      import('@babylonjs/core/Misc/logger.js'),
      import('babylon-mmd/esm/Loader/Parser/vmdObject.js'),
      import('babylon-mmd/esm/Loader/vmdLoader.js'),
      import('babylon-mmd/esm/Runtime/mmdRuntime.js'),
      import('babylon-mmd/esm/Runtime/mmdMesh.js'),
      // Side-effect imports: the PMX/PMD scene-loader plugins, and the runtime animation binding
      // (without it model.createRuntimeAnimation throws).
      import('babylon-mmd/esm/Loader/pmxLoader.js'),
      import('babylon-mmd/esm/Loader/pmdLoader.js'),
      import('babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation.js'),
    ]);
    Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
    const require = (await import('node:module')).createRequire(import.meta.url);
    const versions = {
      babylonMmd: require('babylon-mmd/package.json').version,
      babylonCore: require('@babylonjs/core/package.json').version,
    };
    return { NullEngine, Scene, LoadAssetContainerAsync, Logger, VmdData, VmdObject, VmdLoader,
             MmdRuntime, MmdMesh, versions };
  })();
  return babylonPromise;
}

let mmdParserPromise = null;

/** three.js's mmd-parser ({ Parser, CharsetEncoder }, CommonJS/UMD build). */
export function loadMmdParser() {
  mmdParserPromise ??= import('mmd-parser').then((m) => m.default ?? m);
  return mmdParserPromise;
}

// ---- VMD, key by key -----------------------------------------------------------------------------
//
// Both parse functions return the same normalised shape (plain objects, one per key; fine for tests):
//   { modelName,
//     bones:   [{ name, frame, position: [x, y, z], rotation: [x, y, z, w], interpolation: Uint8Array(64) }],
//     morphs:  [{ name, frame, weight }],
//     cameras: [{ frame, distance, position: [3], rotation: [3], interpolation: Uint8Array(24), fov, perspective }],
//     lights:  [{ frame, color: [3], direction: [3] }]          or null when the peer does not read them
//     shadows: [{ frame, mode, distance }]                       or null
//     properties: [{ frame, visible, ikStates: [{ name, enabled }] }] or null }
// Keys are in file order. Numbers are the float32 values from the file, as JS numbers.
// Each bone key also has `curves`: the Bezier control points (x1, y1, x2, y2) per axis
// { x, y, z, r } as that peer's animation code takes them from the 64 interpolation bytes, and
// `physicsToggle` ('on' | 'off' | 'unknown', babylon-mmd's reading of bytes 2-3) for babylon-mmd.

/** Bezier points babylon-mmd takes for axis a (0..3 = X, Y, Z, rotation): the first column of row a. */
export function babylonCurves(ip) {
  const c = (a) => [ip[16 * a], ip[16 * a + 4], ip[16 * a + 8], ip[16 * a + 12]];
  return { x: c(0), y: c(1), z: c(2), r: c(3) };
}

/** Bezier points three.js's MMDLoader takes for axis a: row 0 only, bytes a, a+4, a+8, a+12. */
export function threeCurves(ip) {
  const c = (a) => [ip[a], ip[a + 4], ip[a + 8], ip[a + 12]];
  return { x: c(0), y: c(1), z: c(2), r: c(3) };
}

/** babylon-mmd's physics toggle from interpolation bytes 2-3: 0x0000 on, 0x630F off, else unknown. */
export function babylonPhysicsToggle(ip) {
  const v = (ip[2] << 8) | ip[3];
  return v === 0 ? 'on' : v === 0x630f ? 'off' : 'unknown';
}

/**
 * Every key of a VMD as babylon-mmd's VmdObject.ParseFromBuffer decodes it (its lazy readers are
 * asked for every key). Throws like ParseFromBuffer ("Invalid VMD data") on data it rejects.
 */
export async function parseVmdBabylon(bytes) {
  const { VmdObject } = await loadBabylonMmd();
  const obj = VmdObject.ParseFromBuffer(toArrayBuffer(bytes));
  // VmdObject has no model-name accessor; read it with babylon-mmd's own deserializer (Shift-JIS
  // TextDecoder, cut at the first NUL) at offset 30, as its readers do for names.
  const des = obj._vmdData.dataDeserializer;
  des.offset = 30;
  const modelName = des.getDecoderString(20, true);

  const bones = [];
  for (let i = 0, r = obj.boneKeyFrames, n = r.length; i < n; i++) {
    const k = r.get(i);
    const interpolation = Uint8Array.from(k.interpolation);
    bones.push({ name: k.boneName, frame: k.frameNumber, position: [...k.position],
                 rotation: [...k.rotation], interpolation, curves: babylonCurves(interpolation),
                 physicsToggle: babylonPhysicsToggle(interpolation) });
  }
  const morphs = [];
  for (let i = 0, r = obj.morphKeyFrames, n = r.length; i < n; i++) {
    const k = r.get(i);
    morphs.push({ name: k.morphName, frame: k.frameNumber, weight: k.weight });
  }
  const cameras = [];
  for (let i = 0, r = obj.cameraKeyFrames, n = r.length; i < n; i++) {
    const k = r.get(i);
    cameras.push({ frame: k.frameNumber, distance: k.distance, position: [...k.position],
                   rotation: [...k.rotation], interpolation: Uint8Array.from(k.interpolation),
                   fov: k.fov, perspective: Boolean(k.perspective) });
  }
  const lights = [];
  for (let i = 0, r = obj.lightKeyFrames, n = r.length; i < n; i++) {
    const k = r.get(i);
    lights.push({ frame: k.frameNumber, color: [...k.color], direction: [...k.direction] });
  }
  const shadows = [];
  for (let i = 0, r = obj.selfShadowKeyFrames, n = r.length; i < n; i++) {
    const k = r.get(i);
    shadows.push({ frame: k.frameNumber, mode: k.mode, distance: k.distance });
  }
  const properties = obj.propertyKeyFrames.map((k) => ({
    frame: k.frameNumber, visible: Boolean(k.visible),
    ikStates: k.ikStates.map(([name, enabled]) => ({ name, enabled: Boolean(enabled) })),
  }));
  return { modelName, bones, morphs, cameras, lights, shadows, properties };
}

/**
 * Every key of a VMD as three.js's mmd-parser reads it: `new Parser().parseVmd(buffer, false)`
 * (false: no left-to-right-handed conversion, so values are the file's). mmd-parser reads the
 * header, bone, morph and camera sections only (lights, shadows, properties: null), accepts only
 * the `Vocaloid Motion Data 0002` header, and throws when the camera count is missing.
 */
export async function parseVmdMmdParser(bytes) {
  const { Parser } = await loadMmdParser();
  const vmd = new Parser().parseVmd(toArrayBuffer(bytes), false);
  const bones = vmd.motions.map((m) => {
    const interpolation = Uint8Array.from(m.interpolation);
    return { name: m.boneName, frame: m.frameNum, position: [...m.position], rotation: [...m.rotation],
             interpolation, curves: threeCurves(interpolation) };
  });
  const morphs = vmd.morphs.map((m) => ({ name: m.morphName, frame: m.frameNum, weight: m.weight }));
  const cameras = vmd.cameras.map((c) => ({
    frame: c.frameNum, distance: c.distance, position: [...c.position], rotation: [...c.rotation],
    interpolation: Uint8Array.from(c.interpolation), fov: c.fov, perspective: Boolean(c.perspective),
  }));
  return { modelName: vmd.metadata.name, bones, morphs, cameras, lights: null, shadows: null, properties: null };
}

/**
 * babylon-mmd's MmdAnimation from `new VmdLoader(null).loadFromBufferAsync(name, buffer)`.
 * options.optimizeEmptyTracks (default true, babylon-mmd's own default): drop bone tracks whose
 * every key is identity with physics on, and morph tracks whose weights are all 0; the bone tracks
 * kept are split into `boneTracks` (no position ever non-zero) and `movableBoneTracks`. With false,
 * every track is kept and every bone track is a movable one. options.warnings: an array that
 * receives the loader's warnings (e.g. "Unknown physics toggle info: 5140").
 */
export async function loadVmdAnimation(bytes, options = {}) {
  const { VmdLoader } = await loadBabylonMmd();
  const loader = new VmdLoader(null);
  loader.optimizeEmptyTracks = options.optimizeEmptyTracks ?? true;
  if (options.warnings) {
    loader.loggingEnabled = true;
    loader.log = () => {};
    loader.warn = (m) => options.warnings.push(String(m));
    loader.error = (m) => options.warnings.push(`error: ${m}`);
  }
  return loader.loadFromBufferAsync(options.name ?? 'vmd', toArrayBuffer(bytes));
}

/**
 * An MmdAnimation's tracks as plain data: { bones: [{ name, movable, frames, positions,
 * positionInterpolations, rotations, rotationInterpolations, physicsToggles }], morphs: [{ name,
 * frames, weights }], properties: { frames, visibles, ikBoneNames, ikStates: [Uint8Array per IK
 * bone] }, cameraKeyCount }. Arrays are babylon-mmd's own typed arrays (keys sorted by frame within
 * a track). positionInterpolations hold 12 bytes per key in babylon-mmd's order
 * (x_x1, x_x2, x_y1, x_y2, y_x1, ...), rotationInterpolations 4 (x1, x2, y1, y2); physicsToggles
 * are 1 = on, 0 = off (an unknown toggle value also reads as 0). Non-movable tracks have
 * positions and positionInterpolations null.
 */
export function animationTracks(anim) {
  const bone = (t, movable) => ({
    name: t.name, movable, frames: t.frameNumbers,
    positions: movable ? t.positions : null, positionInterpolations: movable ? t.positionInterpolations : null,
    rotations: t.rotations, rotationInterpolations: t.rotationInterpolations, physicsToggles: t.physicsToggles,
  });
  const p = anim.propertyTrack;
  return {
    bones: [...anim.boneTracks.map((t) => bone(t, false)), ...anim.movableBoneTracks.map((t) => bone(t, true))],
    morphs: anim.morphTracks.map((t) => ({ name: t.name, frames: t.frameNumbers, weights: t.weights })),
    properties: { frames: p.frameNumbers, visibles: p.visibles, ikBoneNames: [...p.ikBoneNames],
                  ikStates: p.ikBoneNames.map((_, i) => p.getIkState(i)) },
    cameraKeyCount: anim.cameraTrack.frameNumbers.length,
  };
}

// ---- a model in a headless scene -----------------------------------------------------------------

async function loadModelIntoScene(bb, modelBytes, extension) {
  const engine = new bb.NullEngine();
  const scene = new bb.Scene(engine);
  try {
    const container = await bb.LoadAssetContainerAsync(new Uint8Array(toArrayBuffer(modelBytes)), scene,
                                                       { pluginExtension: extension });
    container.addAllToScene();
    const mesh = container.meshes.find((m) => bb.MmdMesh.isMmdSkinnedMesh(m));
    if (!mesh) throw new Error(`babylon-mmd loaded no MMD skinned mesh from the ${extension} data`);
    return { engine, scene, mesh };
  } catch (e) {
    scene.dispose();
    engine.dispose();
    throw e;
  }
}

/**
 * A PMX (or PMD: options.extension '.pmd') model in a NullEngine scene with babylon-mmd's JS
 * MmdRuntime, physics off (buildPhysics: false, no physics plugin) and no material proxy. Returns
 * ctx = { kind: 'js', engine, scene, runtime, model, mesh, boneNames } where boneNames[i] is
 * model.runtimeBones[i].name, the order of model.worldTransformMatrices. Dispose with
 * disposeMmdScene(ctx).
 */
export async function createMmdScene(modelBytes, options = {}) {
  const bb = await loadBabylonMmd();
  const { engine, scene, mesh } = await loadModelIntoScene(bb, modelBytes, options.extension ?? '.pmx');
  const runtime = new bb.MmdRuntime(scene);
  const model = runtime.createMmdModel(mesh, { materialProxyConstructor: null, buildPhysics: false });
  return { kind: 'js', engine, scene, runtime, model, mesh, boneNames: model.runtimeBones.map((b) => b.name),
           animationHandle: null };
}

let wasmPromise = null;

/**
 * babylon-mmd's MmdWasmRuntime module (single-threaded release build, "sr"), started the way that
 * works in Node 20: the documented GetMmdWasmInstance(new MmdWasmInstanceTypeSR()) fails there
 * (its default thread count reads `navigator`, and the wasm-bindgen loader fetch()es a file: URL),
 * so the wasm is compiled from the package's index_bg.wasm with initSync first, then
 * GetMmdWasmInstance(..., 1) finds it initialised.
 */
export function loadBabylonMmdWasm() {
  wasmPromise ??= (async () => {
    const bb = await loadBabylonMmd();
    const sr = await import('babylon-mmd/esm/Runtime/Optimized/wasm/sr/index.js');
    const [{ MmdWasmInstanceTypeSR }, { GetMmdWasmInstance }, { MmdWasmRuntime }, { MmdWasmAnimation }] =
      await Promise.all([
        import('babylon-mmd/esm/Runtime/Optimized/InstanceType/singleRelease.js'),
        import('babylon-mmd/esm/Runtime/Optimized/mmdWasmInstance.js'),
        import('babylon-mmd/esm/Runtime/Optimized/mmdWasmRuntime.js'),
        import('babylon-mmd/esm/Runtime/Optimized/Animation/mmdWasmAnimation.js'),
        import('babylon-mmd/esm/Runtime/Optimized/Animation/mmdWasmRuntimeModelAnimation.js'),
      ]);
    const wasmUrl = import.meta.resolve('babylon-mmd/esm/Runtime/Optimized/wasm/sr/index_bg.wasm');
    const wasmBytes = readFileSync(fileURLToPath(wasmUrl));
    sr.initSync({ module: wasmBytes });
    const instance = await GetMmdWasmInstance(new MmdWasmInstanceTypeSR(), 1);
    return { ...bb, instance, MmdWasmRuntime, MmdWasmAnimation, wasmPath: fileURLToPath(wasmUrl),
             wasmBytes: wasmBytes.byteLength };
  })();
  return wasmPromise;
}

/** Like createMmdScene, with babylon-mmd's MmdWasmRuntime (kind: 'wasm'). */
export async function createMmdWasmScene(modelBytes, options = {}) {
  const bw = await loadBabylonMmdWasm();
  const { engine, scene, mesh } = await loadModelIntoScene(bw, modelBytes, options.extension ?? '.pmx');
  const runtime = new bw.MmdWasmRuntime(bw.instance, scene);
  const model = runtime.createMmdModel(mesh, { materialProxyConstructor: null, buildPhysics: false });
  return { kind: 'wasm', engine, scene, runtime, model, mesh, boneNames: model.runtimeBones.map((b) => b.name),
           animationHandle: null, wasm: bw };
}

/**
 * Binds a VMD (bytes, or an MmdAnimation from loadVmdAnimation) to the ctx's model, replacing the
 * previous one. Returns the MmdAnimation.
 */
export async function setMotion(ctx, vmd) {
  const anim = vmd && typeof vmd === 'object' && 'boneTracks' in vmd ? vmd : await loadVmdAnimation(vmd);
  const bindable = ctx.kind === 'wasm' ? new ctx.wasm.MmdWasmAnimation(anim, ctx.wasm.instance, ctx.scene) : anim;
  const handle = ctx.model.createRuntimeAnimation(bindable);
  ctx.model.setRuntimeAnimation(handle);
  if (ctx.animationHandle) ctx.model.destroyRuntimeAnimation(ctx.animationHandle);
  ctx.animationHandle = handle;
  return anim;
}

/**
 * Evaluates the bound motion at `frame` (fractional frames allowed; VMD is 30 fps) the way a
 * rendered scene does: seekAnimation(frame, true), beforePhysics(0), afterPhysics(). Afterwards
 * ctx.model.worldTransformMatrices holds 16 floats per bone (column-major, translation at 12..14).
 */
export async function evaluateFrame(ctx, frame) {
  await ctx.runtime.seekAnimation(frame, true);
  ctx.runtime.beforePhysics(0);
  ctx.runtime.afterPhysics();
  return ctx.model.worldTransformMatrices;
}

/**
 * World positions of every bone at each of `frames` for the VMD `vmdBytes` (bytes or an
 * MmdAnimation): an array with one Float64Array(3 * boneCount) per frame, bone i at [3i, 3i + 3),
 * in the order of ctx.boneNames (model.runtimeBones).
 */
export async function evaluateWorldPositions(ctx, vmdBytes, frames) {
  await setMotion(ctx, vmdBytes);
  const n = ctx.boneNames.length;
  const out = [];
  for (const f of frames) {
    const w = await evaluateFrame(ctx, f);
    const p = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      p[3 * i] = w[16 * i + 12];
      p[3 * i + 1] = w[16 * i + 13];
      p[3 * i + 2] = w[16 * i + 14];
    }
    out.push(p);
  }
  return out;
}

/** Index of a bone in ctx.boneNames (and the world matrices), or throws naming it. */
export function boneIndex(ctx, name) {
  const i = ctx.boneNames.indexOf(name);
  if (i < 0) throw new Error(`bone ${name} not in the model`);
  return i;
}

/** Frees the runtime, model, scene and engine of a ctx from createMmdScene / createMmdWasmScene. */
export function disposeMmdScene(ctx) {
  if (!ctx) return;
  try {
    ctx.runtime.destroyMmdModel(ctx.model);
  } catch { /* already gone */ }
  ctx.runtime.dispose(ctx.scene);
  ctx.scene.dispose();
  ctx.engine.dispose();
}
