// The bones' world positions of an FBX file as three.js's FBXLoader reads and plays it, at its key
// times: the reference the C reader is checked against (tests/c/test_fbx.c).
//   node tests/data/fbx/three-reference.mjs tests/data/fbx/blender-huesitos.fbx > tests/data/fbx/blender-huesitos.three.json
import { readFileSync } from 'node:fs';

// FBXLoader makes cameras and textures, which touch the DOM: enough of it for that
globalThis.window ??= { innerWidth: 1, innerHeight: 1 };
globalThis.document ??= { createElementNS: () => ({ addEventListener() {}, removeEventListener() {}, style: {} }) };
const THREE = await import('three');
const { FBXLoader } = await import('three/examples/jsm/loaders/FBXLoader.js');

const bytes = readFileSync(process.argv[2]);
const scene = new FBXLoader().parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '');
const clip = scene.animations.find((c) => c.tracks.length);
const mixer = new THREE.AnimationMixer(scene);
const action = mixer.clipAction(clip);
action.setLoop(THREE.LoopOnce, 1); // at the clip's end its last pose, not the first again
action.clampWhenFinished = true;
action.play();
const keyTimes = [...new Set(clip.tracks.flatMap((t) => Array.from(t.times)))].sort((a, b) => a - b);
const times = keyTimes.filter((_, i) => i % 4 === 0 || i === keyTimes.length - 1).map((t) => +t.toFixed(6));
const bones = {};
for (const t of times) {
  mixer.setTime(t);
  scene.updateMatrixWorld(true);
  scene.traverse((o) => {
    if (!o.isBone) return;
    const p = new THREE.Vector3().setFromMatrixPosition(o.matrixWorld);
    (bones[o.name] ??= []).push([p.x, p.y, p.z].map((v) => +v.toFixed(4)));
  });
}
// three.js drops '.' from node names ("Bone.001" -> "Bone001")
process.stdout.write(JSON.stringify({ clip: clip.name, times, bones }) + '\n');
