// A complete page: Babylon.js engine and scene, a PMX model in babylon-mmd, and a procmotion catwalk
// that loops. `npm i procmotion babylon-mmd @babylonjs/core`, then `npx vite` (or `vite build`).
// Your model: ./model.pmx beside this page (?model=URL for another); without one, the built-in
// mannequin (which needs procmotion's 'motion' module: the catwalk alone needs only the core).
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Scene } from '@babylonjs/core/scene.js';
import 'babylon-mmd/esm/Loader/mmdModelLoader.js'; // MMD materials: without it a model renders nothing
import 'babylon-mmd/esm/Loader/pmxLoader.js';
import 'babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation.js'; // model.createRuntimeAnimation
import { MmdMesh } from 'babylon-mmd/esm/Runtime/mmdMesh.js';
import { MmdRuntime } from 'babylon-mmd/esm/Runtime/mmdRuntime.js';
import { createProcMotion } from 'procmotion';
import { createCatwalkAnimationAsync, loopRuntimeAnimation } from 'procmotion/babylon';

const engine = new Engine(document.getElementById('scene'), true);
const scene = new Scene(engine);
const camera = new ArcRotateCamera('camera', -Math.PI / 2, Math.PI / 2.2, 40, new Vector3(0, 10, 0), scene);
camera.attachControl();
new HemisphericLight('light', new Vector3(0, 1, 0), scene);

const pm = await createProcMotion(); // procmotion.wasm: VMD, Shift-JIS, catwalk
const url = new URLSearchParams(location.search).get('model') ?? './model.pmx';
let source = url;
if (!(await fetch(url, { method: 'HEAD' })).ok) {
  await pm.loadAsync('motion'); // the mannequin lives in the motion module
  source = pm.mannequinPmx();
}
const container = await LoadAssetContainerAsync(source, scene, { pluginExtension: '.pmx' });
container.addAllToScene();
const mesh = container.meshes.find((m) => MmdMesh.isMmdSkinnedMesh(m));

const mmdRuntime = new MmdRuntime(scene);
mmdRuntime.register(scene);
const mmdModel = mmdRuntime.createMmdModel(mesh);

// the catwalk, fitted to this model's bones and proportions, at 128 BPM
const { animation, loopFrames } = await createCatwalkAnimationAsync(pm, mmdModel, { hipSway: 0.8 }, 128);
mmdModel.setRuntimeAnimation(mmdModel.createRuntimeAnimation(animation));
const loop = loopRuntimeAnimation(mmdRuntime, loopFrames); // loop.dispose() stops looping
mmdRuntime.playAnimation();

engine.runRenderLoop(() => scene.render());
window.addEventListener('resize', () => engine.resize());
window.example = { pm, mmdRuntime, mmdModel, loop, loopFrames }; // for the test
