// The page of tests/browser/vrm.test.mjs (bundled by the test with esbuild): the PMX rendered by
// babylon-mmd on the left canvas, its VRM rendered by three.js + @pixiv/three-vrm on the right, from
// the same camera (MMD units -> metres, z mirrored: the VRM's own conversion), a pure green backdrop, no
// antialiasing, so the two silhouettes can be compared pixel for pixel.
//
//   await window.vrmPage.showPmx(bytes, textures)     // { name: Uint8Array } as babylon-mmd referenceFiles
//   await window.vrmPage.showVrm(glb)                 // -> { humanBones: { name: nodeName }, ... }
//   window.vrmPage.pose({ leftUpperArm: [x, y, z, w], ... })   // normalized humanoid rotations
//   window.vrmPage.positions(['leftHand', ...])       // raw bones' world positions (metres)
//   window.vrmPage.overlap()                          // silhouette IoU of the two canvases
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Scene } from '@babylonjs/core/scene.js';
import 'babylon-mmd/esm/Loader/mmdModelLoader.js';
import 'babylon-mmd/esm/Loader/pmxLoader.js';
import 'babylon-mmd/esm/Loader/pmdLoader.js';
import { SdefInjector } from 'babylon-mmd/esm/Loader/sdefInjector.js';
import { MmdMesh } from 'babylon-mmd/esm/Runtime/mmdMesh.js';
import { MmdRuntime } from 'babylon-mmd/esm/Runtime/mmdRuntime.js';

import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';

const W = 320, H = 560;
const FOV = 0.62;                       // vertical, radians
const EYE = [0, 10.2, -34], TARGET = [0, 10.2, 0]; // MMD units: in front of the model (it faces -Z)
const M = 0.08;                         // metres per MMD unit

function canvas(id) {
  const c = document.createElement('canvas');
  c.id = id;
  c.width = W;
  c.height = H;
  c.style.cssText = `width:${W}px;height:${H}px;display:inline-block;margin:0 4px`;
  document.body.append(c);
  return c;
}
document.body.style.cssText = 'margin:0;background:#222';
const left = canvas('pmx'), right = canvas('vrm');

// ---- babylon-mmd ----
const engine = new Engine(left, false, { preserveDrawingBuffer: true, stencil: true }, false);
SdefInjector.OverrideEngineCreateEffect(engine);
const scene = new Scene(engine);
scene.clearColor = new Color4(0, 1, 0, 1);
const bcam = new FreeCamera('cam', new Vector3(...EYE), scene);
bcam.setTarget(new Vector3(...TARGET));
bcam.fov = FOV;
bcam.minZ = 0.5;
const hl = new HemisphericLight('l', new Vector3(0, 1, -1), scene);
hl.intensity = 1;
hl.groundColor = new Color3(0.4, 0.4, 0.4);
const runtime = new MmdRuntime(scene);
runtime.loggingEnabled = false;
runtime.register(scene);

// ---- three.js + three-vrm ----
const renderer = new THREE.WebGLRenderer({ canvas: right, antialias: false, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(W, H, false);
const tscene = new THREE.Scene();
tscene.background = new THREE.Color(0, 1, 0);
renderer.outputColorSpace = THREE.LinearSRGBColorSpace; // the backdrop stays exactly (0, 255, 0)
const tcam = new THREE.PerspectiveCamera((FOV * 180) / Math.PI, W / H, 0.04, 100);
tcam.position.set(EYE[0] * M, EYE[1] * M, -EYE[2] * M);
tcam.lookAt(TARGET[0] * M, TARGET[1] * M, -TARGET[2] * M);
tscene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
const dl = new THREE.DirectionalLight(0xffffff, 1.5);
dl.position.set(0, 1, 1);
tscene.add(dl);
let vrm = null;

function renderBoth() {
  scene.render();
  if (vrm) {
    vrm.update(0);
    tscene.updateMatrixWorld(true);
  }
  renderer.render(tscene, tcam);
}

/** Figure pixels (not the green backdrop) of a WebGL canvas, through a 2D copy. */
function mask(c) {
  const t = document.createElement('canvas');
  t.width = W;
  t.height = H;
  const g = t.getContext('2d');
  g.drawImage(c, 0, 0);
  const d = g.getImageData(0, 0, W, H).data, out = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) out[i] = d[4 * i] + (255 - d[4 * i + 1]) + d[4 * i + 2] > 48 ? 1 : 0;
  return out;
}

window.vrmPage = {
  async showPmx(bytes, textures = {}) {
    const referenceFiles = Object.entries(textures).map(([path, b]) => {
      const f = new File([b], path.split('/').pop());
      Object.defineProperty(f, 'webkitRelativePath', { value: path });
      return f;
    });
    const container = await LoadAssetContainerAsync(new Uint8Array(bytes), scene, {
      pluginExtension: '.pmx', name: 'model',
      pluginOptions: { mmdmodel: { referenceFiles, loggingEnabled: false } },
    });
    container.addAllToScene();
    const mesh = container.meshes.find((m) => MmdMesh.isMmdSkinnedMesh(m));
    runtime.createMmdModel(mesh, { buildPhysics: false });
    await scene.whenReadyAsync();
    renderBoth();
    renderBoth();
  },

  async showVrm(glb) {
    const loader = new GLTFLoader();
    loader.register((parser) => new VRMLoaderPlugin(parser));
    const ab = new Uint8Array(glb).buffer;
    const gltf = await loader.parseAsync(ab, '');
    vrm = gltf.userData.vrm;
    if (!vrm) throw new Error('three-vrm found no VRM in the file');
    vrm.scene.traverse((o) => { o.frustumCulled = false; });
    tscene.add(vrm.scene);
    renderBoth();
    const humanBones = {};
    for (const [name, bone] of Object.entries(vrm.humanoid.humanBones)) if (bone?.node) humanBones[name] = bone.node.name;
    const meta = vrm.meta;
    return {
      humanBones, metaVersion: meta?.metaVersion, name: meta?.name, authors: meta?.authors,
      expressions: vrm.expressionManager ? vrm.expressionManager.expressions.map((e) => e.expressionName) : [],
      lookAt: vrm.lookAt ? vrm.lookAt.applier?.constructor?.name ?? 'yes' : null,
      sanitize: Object.fromEntries(Object.values(humanBones).map((n) => [n, THREE.PropertyBinding.sanitizeNodeName(n)])),
      springJoints: vrm.springBoneManager ? vrm.springBoneManager.joints.size : 0,
      springColliders: (() => { // VRMSpringBoneCollider objects three-vrm hung under the nodes
        let n = 0;
        vrm.scene.traverse((o) => { if (o.shape && typeof o.shape.type === 'string' && !o.isMesh) n++; });
        return n;
      })(),
    };
  },

  /** Run three-vrm's spring simulation for `steps` of 1/60 s; world positions of named nodes before and
   * after. */
  simulate(steps, nodeNames) {
    const where = () => Object.fromEntries(nodeNames.map((n) => {
      const o = vrm.scene.getObjectByName(n);
      return [n, o ? o.getWorldPosition(new THREE.Vector3()).toArray() : null];
    }));
    vrm.scene.updateMatrixWorld(true);
    const before = where();
    for (let i = 0; i < steps; i++) vrm.update(1 / 60);
    vrm.scene.updateMatrixWorld(true);
    return { before, after: where() };
  },

  /** Normalized humanoid rotations (quaternions x, y, z, w); {} resets. */
  pose(rotations) {
    for (const name of Object.keys(vrm.humanoid.humanBones)) vrm.humanoid.getNormalizedBoneNode(name)?.quaternion.identity();
    for (const [name, q] of Object.entries(rotations)) {
      const n = vrm.humanoid.getNormalizedBoneNode(name);
      if (!n) throw new Error(`no normalized ${name}`);
      n.quaternion.set(q[0], q[1], q[2], q[3]);
    }
    renderBoth();
  },

  /** World positions of raw human bones. */
  positions(names) {
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);
    const v = new THREE.Vector3();
    return Object.fromEntries(names.map((n) => {
      const node = vrm.humanoid.getRawBoneNode(n);
      return [n, node ? node.getWorldPosition(v).toArray() : null];
    }));
  },

  /** Where the posed mesh is: the skinned positions' bounds of vertices the arms carry (x extent). */
  overlap() {
    renderBoth();
    const a = mask(left), b = mask(right);
    let inter = 0, uni = 0, na = 0, nb = 0;
    for (let i = 0; i < a.length; i++) {
      inter += a[i] & b[i];
      uni += a[i] | b[i];
      na += a[i];
      nb += b[i];
    }
    return { iou: uni ? inter / uni : 0, pmxPixels: na, vrmPixels: nb };
  },
};
window.vrmPage.ready = true;
