// FBX motion through the package as a user has it: a CMU mocap BVH written as a binary FBX 7.5 (zlib
// arrays, the BVH's rotation orders) plays in three.js as the BVH does, and procmotion reads it to the
// same keypoints and retargets it to the same VMD as the BVH itself.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { bvhToFbx, parseBvh } from './support/fbx-writer.mjs';

const BVH = fileURLToPath(new URL('../../../shared/fixtures/bvh/cmu_131_01.bvh', import.meta.url));
const SKIP = existsSync(BVH) ? false : 'SKIP: ../shared/fixtures not found';

test('an FBX written from a BVH plays in three.js as the BVH does', { skip: SKIP }, async () => {
  globalThis.window ??= { innerWidth: 1, innerHeight: 1 };
  globalThis.document ??= { createElementNS: () => ({ addEventListener() {}, removeEventListener() {}, style: {} }) };
  const THREE = await import('three');
  const { FBXLoader } = await import('three/examples/jsm/loaders/FBXLoader.js');
  const { BVHLoader } = await import('three/examples/jsm/loaders/BVHLoader.js');
  const text = readFileSync(BVH, 'utf8');
  const fbx = bvhToFbx(parseBvh(text));
  const a = new BVHLoader().parse(text);
  const b = new FBXLoader().parse(fbx.buffer, '');
  const rootA = new THREE.Group().add(a.skeleton.bones[0]);
  const mixA = new THREE.AnimationMixer(rootA), mixB = new THREE.AnimationMixer(b);
  mixA.clipAction(a.clip).play();
  mixB.clipAction(b.animations.find((c) => c.tracks.length)).play();
  let worst = 0, compared = 0;
  for (const t of [0, 1, 2.5, 4, 6]) { // on key times (120 fps)
    mixA.setTime(t), mixB.setTime(t);
    rootA.updateMatrixWorld(true), b.updateMatrixWorld(true);
    for (const bone of a.skeleton.bones) {
      const other = b.getObjectByName(bone.name);
      if (!other || bone.name === 'ENDSITE') continue;
      const p = new THREE.Vector3().setFromMatrixPosition(bone.matrixWorld), q = new THREE.Vector3().setFromMatrixPosition(other.matrixWorld);
      worst = Math.max(worst, p.distanceTo(q));
      compared++;
    }
  }
  assert.ok(compared >= 100, `${compared} joints compared`);
  assert.ok(worst < 1e-3, `joints ${worst} apart`);
});

test('procmotion reads the FBX to the keypoints and the VMD of its BVH', { skip: SKIP }, async () => {
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const bvh = readFileSync(BVH);
  const fbx = bvhToFbx(parseBvh(bvh.toString('utf8')));
  const ka = pm.toKeypoints(bvh, { fps: 30 }), kb = pm.toKeypoints(fbx);
  assert.equal(kb.stats.format, 'fbx');
  assert.equal(kb.frameCount, ka.frameCount);
  let worst = 0;
  for (let i = 0; i < ka.points.length; i++) worst = Math.max(worst, Math.abs(ka.points[i] - kb.points[i]));
  assert.ok(worst < 1e-4, `keypoints ${worst} apart`);
  const ra = pm.retargetToVmd(bvh), rb = pm.retargetToVmd(fbx);
  assert.equal(rb.report.format, 'fbx');
  assert.equal(rb.report.naming, ra.report.naming);
  assert.equal(rb.report.frames, ra.report.frames);
  const va = pm.toKeypoints(ra.vmd), vb = pm.toKeypoints(rb.vmd);
  let apart = 0;
  for (let i = 0; i < va.angles.length; i++) apart = Math.max(apart, Math.abs(va.angles[i] - vb.angles[i]));
  assert.ok(apart < 0.01, `the two VMDs' joint angles ${apart} apart`);
  assert.ok(rb.report.feet.maxSlide <= 0.005);
});
