// procmotion retarget as a user runs it: a VRM Animation onto the built-in mannequin, a CMU mocap BVH
// onto a real model and as an FBX file, the same VMD as the package makes, one-line errors naming the
// file's problem.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { bvhToFbx, parseBvh } from './support/fbx-writer.mjs';

const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const VRMA = fileURLToPath(new URL('../data/three-vrm-test.vrma', import.meta.url));
const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
const SKIP = existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built';

test('procmotion retarget writes the VMD the package makes and reports it', { skip: SKIP }, async () => {
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const dir = mkdtempSync(join(tmpdir(), 'pm-retarget-'));
  try {
    assert.match(run('retarget', '--help').stdout, /usage: procmotion retarget MOTION/);
    const out = join(dir, 'out.vmd');
    let r = run('retarget', VRMA, '-o', out);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.format, 'vrma');
    assert.ok(report.feet && report.feet.maxSlide <= 0.005);
    assert.deepEqual(new Uint8Array(readFileSync(out)), pm.retargetToVmd(readFileSync(VRMA)).vmd);
    if (existsSync(FIXTURES)) {
      const model = join(FIXTURES, 'pmx/yw_test_model/yw_test_model.pmx'), bvh = join(FIXTURES, 'bvh/cmu_131_01.bvh');
      r = run('retarget', bvh, '--model', model, '-o', out);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).naming, 'cmu');
      assert.deepEqual(new Uint8Array(readFileSync(out)), pm.retargetToVmd(readFileSync(bvh), { model: readFileSync(model) }).vmd);
      r = run('retarget', model, '-o', out);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /yw_test_model\.pmx: humanoid motion: not a BVH/);
    }
    const fbx = join(dir, 'dance.fbx');
    if (existsSync(FIXTURES)) { // the CMU walk as an FBX file
      writeFileSync(fbx, bvhToFbx(parseBvh(readFileSync(join(FIXTURES, 'bvh/cmu_131_01.bvh'), 'utf8'))));
      r = run('retarget', fbx, '-o', out);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).format, 'fbx');
      assert.deepEqual(new Uint8Array(readFileSync(out)), pm.retargetToVmd(readFileSync(fbx)).vmd);
    }
    writeFileSync(fbx, '; FBX 7.4.0 project file\n');
    r = run('retarget', fbx, '-o', out);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /dance\.fbx: fbx: an ASCII FBX file/);
    assert.equal(run('retarget', VRMA).status, 2);
    assert.match(run('retarget', VRMA, '--animation', 'x', '-o', out).stderr, /--animation must be a whole number/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
