// The model commands of the CLI: inspect on PMX, humanoid, mannequin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
const skip = !existsSync(CLI) ? 'SKIP: build/native/procmotion not built' : !existsSync(FIXTURES) ? 'SKIP: no fixtures' : false;

test('procmotion inspect prints a PMX skeleton as JSON', { skip }, () => {
  const r = run('inspect', `${FIXTURES}pmx/mmt_test_model.pmx`);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'pmx');
  assert.equal(j.bones.length, 114);
});

test('procmotion humanoid maps PMX and VRM files', { skip }, () => {
  const pmx = JSON.parse(run('humanoid', `${FIXTURES}pmx/yw_test_model/yw_test_model.pmx`).stdout);
  assert.equal(pmx.humanoidTotal, 22);
  assert.equal(pmx.drivable, true);
  const vrm = JSON.parse(run('humanoid', `${FIXTURES}vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm`).stdout);
  assert.equal(vrm.humanoidMapped, 22);
  const bad = run('humanoid', `${FIXTURES}vmd/mei_wait.vmd`);
  assert.equal(bad.status, 1);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test('procmotion mannequin writes a PMX that inspect reads back', { skip: existsSync(CLI) ? false : 'SKIP: no CLI' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-cli-'));
  const out = join(dir, 'm.pmx');
  const r = run('mannequin', '-o', out);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out).subarray(0, 4).toString('latin1'), 'PMX ');
  const j = JSON.parse(run('inspect', out).stdout);
  assert.ok(j.bones.some((b) => b.name === '左足ＩＫ'));
  assert.equal(run('mannequin').status, 1);
});

test('procmotion pose prints world positions that match the glue', { skip }, async () => {
  const model = `${FIXTURES}pmx/yw_test_model/yw_test_model.pmx`, motion = `${FIXTURES}vmd/mei_wait.vmd`;
  const r = run('pose', '--model', model, '--vmd', motion, '--frames', '10:12:0.5');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.frames.length, 5);
  assert.equal(j.frames[1].frame, 10.5);
  assert.equal(j.bones.length, 114);
  const { FEATURE_MODULES, createProcMotion } = await import('../../js-glue/index.js');
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const g = pm.evaluatePose(readFileSync(motion), new Uint8Array(readFileSync(model)), 10.5);
  const head = j.bones.indexOf('頭');
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(j.frames[1].positions[head][k] - g.positions[3 * head + k]) < 1e-4);
  assert.equal(run('pose', '--model', model, '--frames', '5:1').status, 1);
  assert.match(run('pose', '--model', model, '--frame', 'abc').stderr, /--frame must be a number/);
});

test('procmotion humanoid maps a CMU BVH (LeftShoulder is the upper arm there)', { skip }, () => {
  const r = run('humanoid', `${FIXTURES}bvh/cmu_131_01.bvh`);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.drivable, true);
  assert.equal(j.bones.leftUpperArm.name, 'LeftShoulder');
  assert.equal(j.bones.leftShoulder.name, 'LeftCollar');
  assert.equal(j.bones.leftUpperArm.naming, 'cmu');
});
