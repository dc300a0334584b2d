// The 3D view: a Babylon.js scene (dark backdrop, soft key + fill light, a shadow, a fading floor
// grid) with one MMD model played by babylon-mmd's MmdRuntime. The viewer owns the clock: the
// runtime stays paused and is seeked to the viewer's frame every tick, so loop, seek and
// "keep the beat when the motion changes" are exact.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateDisc } from '@babylonjs/core/Meshes/Builders/discBuilder.js';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import { Scene } from '@babylonjs/core/scene.js';
// The material builder must be registered before the PMX/PMD loaders, or meshes get no material
// and render nothing (../shared/NOTES.md).
import 'babylon-mmd/esm/Loader/mmdModelLoader.js';
import 'babylon-mmd/esm/Loader/pmxLoader.js';
import 'babylon-mmd/esm/Loader/pmdLoader.js';
import { RegisterDxBmpTextureLoader } from 'babylon-mmd/esm/Loader/registerDxBmpTextureLoader.js';
import { SdefInjector } from 'babylon-mmd/esm/Loader/sdefInjector.js';
import { VmdLoader } from 'babylon-mmd/esm/Loader/vmdLoader.js';
import 'babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation.js';
import { MmdMesh } from 'babylon-mmd/esm/Runtime/mmdMesh.js';
import { MmdRuntime } from 'babylon-mmd/esm/Runtime/mmdRuntime.js';
import { GetMmdWasmInstance } from 'babylon-mmd/esm/Runtime/Optimized/mmdWasmInstance.js';
import { MmdWasmInstanceTypeSPR } from 'babylon-mmd/esm/Runtime/Optimized/InstanceType/singlePhysicsRelease.js';
import { MultiPhysicsRuntime } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/Impl/multiPhysicsRuntime.js';
import { MmdBulletPhysics } from 'babylon-mmd/esm/Runtime/Optimized/Physics/mmdBulletPhysics.js';

// Transparent: the page's CSS backdrop (a soft vertical gradient) shows through the canvas.
const BACKGROUND = new Color4(0, 0, 0, 0);

/** An exactly-sized ArrayBuffer copy (babylon-mmd's readers ignore a view's byteOffset). */
export function exactArrayBuffer(bytes) {
  if (bytes instanceof ArrayBuffer) return bytes;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/**
 * Bounds of the model's vertices in the rest pose. (Bounding infos are padded by babylon-mmd's
 * boundingBoxMargin against culling, so they are too large for framing.)
 */
function restBounds(meshes) {
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const m of meshes) {
    const p = m.getVerticesData?.('position');
    if (!p) continue;
    for (let i = 0; i < p.length; i += 3) {
      min.minimizeInPlaceFromFloats(p[i], p[i + 1], p[i + 2]);
      max.maximizeInPlaceFromFloats(p[i], p[i + 1], p[i + 2]);
    }
  }
  if (!Number.isFinite(min.x)) return { min: new Vector3(-5, 0, -5), max: new Vector3(5, 20, 5) };
  return { min, max };
}

export class Viewer {
  constructor(canvas) {
    this.canvas = canvas;
    this.engine = new Engine(canvas, true, { stencil: true, antialias: true }, true);
    SdefInjector.OverrideEngineCreateEffect(this.engine);
    RegisterDxBmpTextureLoader();
    const scene = (this.scene = new Scene(this.engine));
    scene.clearColor = BACKGROUND;
    scene.ambientColor = new Color3(0.5, 0.5, 0.5);

    const camera = (this.camera = new ArcRotateCamera('camera', -Math.PI / 2 - 0.45, 1.38, 40, new Vector3(0, 10, 0), scene));
    camera.minZ = 0.5;
    camera.maxZ = 1000;
    camera.fov = 0.7;
    camera.wheelDeltaPercentage = 0.02;
    camera.panningSensibility = 120;
    camera.lowerRadiusLimit = 5;
    camera.upperRadiusLimit = 300;
    camera.upperBetaLimit = Math.PI / 2 - 0.02;
    camera.attachControl(canvas, true);

    const fill = new HemisphericLight('fill', new Vector3(0, 1, 0), scene);
    fill.intensity = 0.45;
    fill.diffuse = new Color3(0.95, 0.96, 1);
    fill.groundColor = new Color3(0.35, 0.34, 0.33);
    fill.specular = new Color3(0, 0, 0);
    const key = (this.keyLight = new DirectionalLight('key', new Vector3(0.45, -1, 0.6).normalize(), scene));
    key.intensity = 0.8;
    key.position = new Vector3(-18, 40, -24);
    key.specular = new Color3(0.2, 0.2, 0.2);
    this._makeFloor();

    this._makeRuntime(null);
    // After the runtime's step (registered just above) the pose is final: move the blob shadow.
    scene.onBeforeRenderObservable.add(() => this._followBlob());
    this.vmdLoader = new VmdLoader(scene);
    this.vmdLoader.loggingEnabled = false;

    this.model = null; // { container, mesh, mmdModel, name, height, spec, physics }
    this.motion = null; // { handle, loopFrames, beatFrames, next? }
    this.physics = true; // babylon-mmd's physics for models with rigid bodies (hair, skirts)
    this.physicsRuntime = null; // loaded with the first model that has rigid bodies
    this.afterAnimate = null; // (frame) => void: after the motion set the bones, before IK is solved
    this.frame = 0;
    this.playing = true;
    this.loop = true;
    this.onFrame = new Set();
    this.onPlayState = new Set();
    this._motionToken = 0;

    // Our clock runs first, then the runtime's own before-physics step solves IK for the pose.
    scene.onBeforeAnimationsObservable.add(() => this._tick(), undefined, true);
    this.firstFrame = new Promise((ok) => scene.onAfterRenderObservable.addOnce(() => ok(performance.now())));
    this.engine.runRenderLoop(() => scene.render());
    // Re-frame on resize until the user moves the camera.
    this.userMovedCamera = false;
    for (const ev of ['pointerdown', 'wheel']) canvas.addEventListener(ev, () => { this.userMovedCamera = true; }, { passive: true });
    this._resize = () => {
      this.engine.resize();
      if (!this.userMovedCamera) this.frameCamera();
    };
    window.addEventListener('resize', this._resize);
    new ResizeObserver(this._resize).observe(canvas);
  }

  /**
   * The floor: a soft pool of light under the model, a blob shadow that follows the hips, and a
   * grid of lines fading out with distance. All unlit and cheap: even software WebGL (SwiftShader)
   * keeps its frame rate, which a shadow map on a lit floor did not (it cost ~40 % of a frame).
   */
  _makeFloor() {
    const scene = this.scene;
    const radial = (name, size, stops) => {
      const tex = new DynamicTexture(name, { width: size, height: size }, scene, true);
      const g = tex.getContext();
      const c = size / 2;
      const grad = g.createRadialGradient(c, c, 0, c, c, c);
      for (const [at, color] of stops) grad.addColorStop(at, color);
      g.fillStyle = grad;
      g.fillRect(0, 0, size, size);
      tex.update(true);
      tex.hasAlpha = true;
      return tex;
    };
    const flatDisc = (name, radius, tex, y) => {
      const disc = CreateDisc(name, { radius, tessellation: 64 }, scene);
      disc.rotation.x = Math.PI / 2;
      disc.position.y = y;
      const mat = new StandardMaterial(name, scene);
      mat.diffuseTexture = tex;
      mat.emissiveTexture = tex;
      mat.useAlphaFromDiffuseTexture = true;
      mat.disableLighting = true;
      mat.backFaceCulling = false;
      disc.material = mat;
      disc.isPickable = false;
      return disc;
    };
    this.floor = flatDisc('floor', 20, radial('floor-pool', 256,
      [[0, 'rgba(86,90,101,0.95)'], [0.5, 'rgba(62,65,74,0.7)'], [1, 'rgba(40,42,48,0)']]), 0);
    this.floor.alphaIndex = 0;
    this.blob = flatDisc('blob', 4.5, radial('blob-shadow', 128,
      [[0, 'rgba(8,8,10,0.75)'], [0.55, 'rgba(8,8,10,0.4)'], [1, 'rgba(8,8,10,0)']]), 0.02);
    this.blob.alphaIndex = 2;

    // Grid: 1 line per 2.5 units (20 cm; 1 MMD unit = 8 cm), brighter every 12.5 units (1 m).
    const R = 50;
    const step = 2.5;
    const lines = [];
    const colors = [];
    const segments = 24;
    const alphaAt = (x, z, base) => base * Math.max(0, 1 - Math.hypot(x, z) / R) ** 1.6;
    for (let u = -R; u <= R + 1e-6; u += step) {
      const major = Math.abs(u / 12.5 - Math.round(u / 12.5)) < 1e-6;
      const base = major ? 0.42 : 0.2;
      const tint = major ? [0.78, 0.81, 0.88] : [0.7, 0.73, 0.8];
      for (const axis of [0, 1]) {
        for (let i = 0; i < segments; i++) {
          const a = -R + (2 * R * i) / segments;
          const b = -R + (2 * R * (i + 1)) / segments;
          const p = axis ? [[u, a], [u, b]] : [[a, u], [b, u]];
          lines.push(p.map(([x, z]) => new Vector3(x, 0.01, z)));
          colors.push(p.map(([x, z]) => new Color4(tint[0], tint[1], tint[2], alphaAt(x, z, base))));
        }
      }
    }
    const grid = CreateLineSystem('grid', { lines, colors, useVertexAlpha: true }, scene);
    grid.isPickable = false;
    grid.alphaIndex = 1;
    this.grid = grid;
  }

  _followBlob() {
    const m = this.model;
    if (!m) return;
    const w = m.mmdModel.worldTransformMatrices;
    const i = m.hipIndex;
    if (i >= 0 && w.length >= 16 * i + 15) this.blob.position.set(w[16 * i + 12], 0.02, w[16 * i + 14]);
  }

  /** The MMD runtime, with babylon-mmd's bullet physics or without. */
  _makeRuntime(physics) {
    this.runtime?.unregister(this.scene);
    this.runtime = new MmdRuntime(this.scene, physics ? new MmdBulletPhysics(physics) : null);
    this._runtimePhysics = !!physics;
    this.runtime.loggingEnabled = false;
    // the viewer seeks every frame and loops exactly: no physics reset on a seek
    this.runtime.autoPhysicsInitialization = false;
    this.runtime.register(this.scene);
  }

  /** babylon-mmd's physics runtime (its wasm is fetched once, the first time a model needs it). */
  async _physicsRuntime() {
    if (!this.physicsRuntime) {
      const instance = await GetMmdWasmInstance(new MmdWasmInstanceTypeSPR());
      const rt = new MultiPhysicsRuntime(instance);
      rt.setGravity(new Vector3(0, -98, 0));
      rt.register(this.scene);
      this.physicsRuntime = rt;
    }
    return this.physicsRuntime;
  }

  /** Physics on or off: a model with rigid bodies is loaded again when it was built without them. */
  async setPhysics(on) {
    this.physics = !!on;
    const m = this.model;
    if (!m || !m.rigidBodies) return;
    if (on && !m.physics) {
      const motion = this.motion;
      await this.loadModel(m.spec);
      if (motion?.vmdBytes) await this.setMotion(motion.vmdBytes, { name: motion.name, loopFrames: motion.loopFrames, beatFrames: motion.beatFrames });
      return;
    }
    if (on) this.runtime.initializeMmdModelPhysics(m.mmdModel); // from where the bones are now
  }

  // ---- model -------------------------------------------------------------------------------------

  /**
   * Loads a PMX/PMD model and replaces the current one (which stays when loading fails).
   * source: a URL, or the file's bytes (Uint8Array); extension '.pmx' | '.pmd'.
   * Returns { name, boneNames, morphNames }.
   */
  async loadModel({ source, extension = '.pmx', name = 'model', rootUrl = '', referenceFiles = [] }) {
    const data = typeof source === 'string' ? source : new Uint8Array(exactArrayBuffer(source));
    const container = await LoadAssetContainerAsync(data, this.scene, {
      rootUrl: typeof source === 'string' ? undefined : rootUrl,
      pluginExtension: extension,
      name,
      pluginOptions: { mmdmodel: { referenceFiles, loggingEnabled: false } },
    });
    const mesh = container.meshes.find((m) => MmdMesh.isMmdSkinnedMesh(m));
    if (!mesh) {
      container.dispose();
      throw new Error('the file holds no MMD model mesh');
    }
    this.unloadModel();
    container.addAllToScene();
    // createMmdModel trims the loader's metadata: read the morph names and rigid bodies first.
    const morphNames = (mesh.metadata?.morphs ?? []).map((m) => m.name);
    const rigidBodies = mesh.metadata?.rigidBodies?.length ?? 0;
    const physics = this.physics && rigidBodies > 0;
    if (physics) this._makeRuntime(await this._physicsRuntime());
    else if (this._runtimePhysics) this._makeRuntime(null);
    const mmdModel = this.runtime.createMmdModel(mesh, { buildPhysics: physics });
    const { min, max } = restBounds(container.meshes);
    const boneNames = mmdModel.runtimeBones.map((b) => b.name);
    const hipIndex = ['下半身', 'センター', '全ての親'].map((n) => boneNames.indexOf(n)).find((i) => i >= 0) ?? -1;
    this.model = { container, mesh, mmdModel, name, min, max, boneNames, morphNames, hipIndex, rigidBodies, physics,
      spec: { source, extension, name, rootUrl, referenceFiles } };
    const scale = Math.max(0.3, (max.y - Math.min(0, min.y)) / 20);
    this.blob.scaling.set(scale, scale, 1);
    this.motion = null;
    this.frameCamera(null);
    return { name, boneNames, morphNames, mesh, mmdModel };
  }

  unloadModel() {
    if (!this.model) return;
    const { container, mmdModel } = this.model;
    this.runtime.destroyMmdModel(mmdModel);
    container.removeAllFromScene();
    container.dispose();
    this.model = null;
    this.motion = null;
  }

  /**
   * Frames the whole body: target at mid-height, distance so that the body fills most of the view.
   * travel: [zMin, zMax] the motion moves the body through along Z (a runway walk), or null.
   */
  frameCamera(travel = this.travel) {
    this.travel = travel ?? null;
    const [z0, z1] = this.travel ?? [0, 0];
    const extraDepth = Math.max(0, z1 - z0);
    if (!this.model) return;
    this.userMovedCamera = false;
    const { min, max } = this.model;
    const height = Math.max(1, max.y - Math.min(0, min.y));
    // T/A-pose arms make the rest pose wide; a walk brings them down.
    const width = Math.min(Math.max(max.x - min.x, height * 0.45), height * 0.6);
    const aspect = this.engine.getAspectRatio(this.camera) || 1;
    const vfov = this.camera.fov;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * aspect);
    const fitV = (height * 1.36) / 2 / Math.tan(vfov / 2);
    const fitH = (width * 1.6) / 2 / Math.tan(hfov / 2);
    const cam = this.camera;
    cam.target = new Vector3((min.x + max.x) / 2, Math.min(0, min.y) + height * 0.47, (z0 + z1) / 2);
    this.floor.position.z = (z0 + z1) / 2; // the pool of light follows the runway
    cam.radius = Math.max(fitV, fitH) + extraDepth * 0.6;
    cam.alpha = -Math.PI / 2 - 0.45;
    cam.beta = 1.4;
    this.keyLight.position = new Vector3(-height, height * 2, -height * 1.2);
  }

  // ---- motion ------------------------------------------------------------------------------------

  /**
   * Plays VMD bytes on the current model. loopFrames: the loop length (default: the motion's
   * last key); beatFrames: frames per beat (for beat phase), or 0.
   * keepBeat: continue at the same beat index and fraction of the previous motion
   * (new frame = old beat index x new beat length + fraction), else start at frame 0.
   */
  async setMotion(vmdBytes, { name = 'motion', loopFrames = 0, beatFrames = 0, keepBeat = false, next = null } = {}) {
    if (!this.model) throw new Error('no model loaded');
    const token = ++this._motionToken;
    const animation = await this.vmdLoader.loadFromBufferAsync(name, exactArrayBuffer(vmdBytes));
    // `next`: { vmd, name, loopFrames, beatFrames, frame }, what plays once this motion (a transition)
    // has played through: from its frame `frame`, looping
    const nextAnimation = next ? await this.vmdLoader.loadFromBufferAsync(next.name ?? 'next', exactArrayBuffer(next.vmd)) : null;
    if (token !== this._motionToken || !this.model) return false; // a newer motion won the race
    const { mmdModel } = this.model;
    const handle = mmdModel.createRuntimeAnimation(animation);
    const old = this.motion;
    let frame = 0;
    const loop = loopFrames > 0 ? loopFrames : Math.max(1, animation.endFrame ?? 0);
    if (keepBeat && old && !next) {
      if (old.beatFrames > 0 && beatFrames > 0) frame = (this.frame / old.beatFrames) * beatFrames;
      else frame = (this.frame / old.loopFrames) * loop;
      frame %= loop;
    }
    mmdModel.setRuntimeAnimation(handle);
    if (old) {
      mmdModel.destroyRuntimeAnimation(old.handle);
      if (old.next?.handle) mmdModel.destroyRuntimeAnimation(old.next.handle);
    }
    if (!next) {
      // A fresh motion starts from a clean state (the runtime does this only on its own playback).
      mmdModel.morph.resetMorphWeights();
      mmdModel.ikSolverStates.fill(1);
    }
    this.motion = { handle, loopFrames: loop, beatFrames: next ? next.beatFrames ?? 0 : beatFrames, name, vmdBytes,
      next: next ? { ...next, vmdBytes: next.vmd, handle: mmdModel.createRuntimeAnimation(nextAnimation) } : null };
    this.frame = frame;
    this._evaluate();
    return true;
  }

  /** A transition has played through: its next motion takes over from its frame (plus what is over). */
  _advance(over) {
    const { mmdModel } = this.model;
    const done = this.motion, n = done.next;
    mmdModel.setRuntimeAnimation(n.handle);
    mmdModel.destroyRuntimeAnimation(done.handle);
    this.motion = { handle: n.handle, loopFrames: n.loopFrames, beatFrames: n.beatFrames, name: n.name, vmdBytes: n.vmdBytes, next: null };
    this.frame = (n.frame + over) % n.loopFrames;
  }

  /** The motion's loop: while a transition plays, the loop of the motion it leads into. */
  get loopFrames() {
    return this.motion?.next?.loopFrames ?? this.motion?.loopFrames ?? 0;
  }

  play() {
    if (!this.loop && !this.motion?.next && this.frame >= this.loopFrames) this.frame = 0;
    this.playing = true;
    for (const fn of this.onPlayState) fn(true);
  }

  pause() {
    this.playing = false;
    for (const fn of this.onPlayState) fn(false);
  }

  seek(frame) {
    if (this.motion?.next) this._advance(0); // seeking ends a transition: the motion it leads into is there
    const n = this.loopFrames;
    this.frame = n ? Math.max(0, Math.min(frame, n)) : 0;
    this._evaluate();
  }

  _tick() {
    if (!this.motion) return;
    const song = this.playing && this.clock ? this.clock() : null;
    if (song !== null && song !== undefined) {
      // locked to the music: the song's time through the grid the motion was made on (frame 0 = 0 s)
      if (this.motion.next) this._advance(0);
      const n = this.motion.loopFrames;
      let f = song * 30;
      if (f >= n) f = this.loop ? f % n : n;
      this.frame = f;
    } else if (this.playing) {
      const dt = Math.min(this.engine.getDeltaTime(), 100) / 1000;
      let f = this.frame + dt * 30;
      const n = this.motion.loopFrames; // (a transition's own length)
      if (f >= n && this.motion.next) {
        this._advance(f - n);
        this._evaluate();
        return;
      }
      if (f >= n) {
        if (this.loop) f %= n;
        else { f = n; this.pause(); }
      }
      this.frame = f;
    }
    this._evaluate();
  }

  _evaluate() {
    if (!this.motion) return;
    // Synchronous without an audio player; with forceEvaluate the pose follows even while the
    // runtime is paused, and the runtime's registered step then solves IK and appends.
    this.runtime.seekAnimation(this.frame, true);
    // physics off on a model built with it: every body follows its bone (the motion's keys set the
    // states each frame, from the physics toggle of their interpolation bytes)
    if (!this.physics && this.model?.physics) this.model.mmdModel.rigidBodyStates.fill(0);
    this.afterAnimate?.(this.frame);
    for (const fn of this.onFrame) fn(this.frame);
  }

  /** World position of a bone of the current model (after the last evaluation), or null. */
  bonePosition(name) {
    const m = this.model;
    if (!m) return null;
    const i = m.boneNames.indexOf(name);
    if (i < 0) return null;
    const w = m.mmdModel.worldTransformMatrices;
    return [w[16 * i + 12], w[16 * i + 13], w[16 * i + 14]];
  }

  /**
   * A function mapping a world point (x, y, z) to canvas CSS pixels { x, y } with the camera as it is
   * now, and the canvas size.
   */
  _projector() {
    const rw = this.engine.getRenderWidth();
    const rh = this.engine.getRenderHeight();
    const sx = this.canvas.clientWidth / rw;
    const sy = this.canvas.clientHeight / rh;
    const viewport = this.camera.viewport.toGlobal(rw, rh);
    const transform = this.camera.getViewMatrix().multiply(this.camera.getProjectionMatrix());
    const p = new Vector3();
    return (x, y, z) => {
      p.set(x, y, z);
      const s = Vector3.Project(p, Matrix.IdentityReadOnly, transform, viewport);
      return { x: s.x * sx, y: s.y * sy };
    };
  }

  /** Canvas CSS-pixel position of the world point [x, y, z] with the current camera. */
  screenPoint(point) {
    return this._projector()(point[0], point[1], point[2]);
  }

  /** The world ray under canvas CSS pixel (x, y): { origin, dir } as [x, y, z] arrays (dir unit length). */
  pointerRay(x, y) {
    const rw = this.engine.getRenderWidth();
    const rh = this.engine.getRenderHeight();
    const px = (x * rw) / this.canvas.clientWidth;
    const py = (y * rh) / this.canvas.clientHeight;
    const view = this.camera.getViewMatrix();
    const projection = this.camera.getProjectionMatrix();
    const near = Vector3.Unproject(new Vector3(px, py, 0), rw, rh, Matrix.IdentityReadOnly, view, projection);
    const far = Vector3.Unproject(new Vector3(px, py, 1), rw, rh, Matrix.IdentityReadOnly, view, projection);
    const dir = far.subtract(near).normalize();
    return { origin: near.asArray(), dir: dir.asArray() };
  }

  /**
   * The screen rectangle (CSS pixels, relative to the canvas) around the model's bones in the
   * current pose, with a margin: where the body is drawn. Null without a model.
   */
  bodyRect(margin = 0.08) {
    const m = this.model;
    if (!m) return null;
    const w = m.mmdModel.worldTransformMatrices;
    const project = this._projector();
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < m.boneNames.length; i++) {
      const s = project(w[16 * i + 12], w[16 * i + 13], w[16 * i + 14]);
      if (!Number.isFinite(s.x) || !Number.isFinite(s.y)) continue;
      x0 = Math.min(x0, s.x); x1 = Math.max(x1, s.x);
      y0 = Math.min(y0, s.y); y1 = Math.max(y1, s.y);
    }
    if (!Number.isFinite(x0)) return null;
    const mx = (x1 - x0) * margin + 4;
    const my = (y1 - y0) * margin + 4;
    const cw = this.canvas.clientWidth;
    const ch = this.canvas.clientHeight;
    const x = Math.max(0, x0 - mx);
    const y = Math.max(0, y0 - my);
    return { x, y, width: Math.min(cw, x1 + mx) - x, height: Math.min(ch, y1 + my) - y };
  }
}
