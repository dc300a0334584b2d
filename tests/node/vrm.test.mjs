// pm.pmxToVrm and `procmotion vrm`: every shared PMX (with its textures), the mannequin and every zoo
// model (PMX and PMD) convert; the Khronos glTF validator (npm gltf-validator) reports 0 errors on each;
// the report's humanoid figures are pm.mapHumanoid's; bad input is a clear error. three-vrm loading,
// posing and the screenshots beside babylon-mmd are tests/browser/vrm.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import validator from 'gltf-validator';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';
import { FIXTURES, fixturesAvailable, readFixture } from './support/babylon.mjs';
import { everyModel } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';

/** The fixture's textures as { path: bytes } (the paths the PMX names). */
function fixtureTextures(id) {
  if (id !== 'yw_test_model') return {};
  return {
    'tex/diffuse.png': readFixture('pmx/yw_test_model/tex/diffuse.png'),
    'tex/sph.png': readFixture('pmx/yw_test_model/tex/sph.png'),
  };
}

async function validate(glb) {
  const r = await validator.validateBytes(glb, { maxIssues: 100 });
  const errors = r.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer}: ${m.message}`);
  return { errors, numErrors: r.issues.numErrors, numWarnings: r.issues.numWarnings, info: r.info };
}

test('every shared PMX, the mannequin and every zoo model convert and validate with 0 errors', async () => {
  const models = everyModel(pm);
  assert.ok(models.length >= 30, `${models.length} models`);
  const lines = [];
  for (const m of models) {
    const bytes = m.bytes();
    const t0 = performance.now();
    const { glb, report } = pm.pmxToVrm(bytes, { textures: fixtureTextures(m.id), meta: { authors: ['procmotion tests'] } });
    const ms = performance.now() - t0;
    const v = await validate(glb);
    assert.equal(v.numErrors, 0, `${m.id}: ${v.errors.join('; ')}`);
    const h = pm.mapHumanoid(bytes);
    assert.equal(report.humanoidMapped, h.mapped, m.id);
    assert.equal(report.humanoidTotal, 22);
    assert.deepEqual(report.missingRequiredBones, h.missingRequired, m.id);
    assert.equal(report.drivable, h.drivable);
    for (const [bone, name] of Object.entries(h.bones)) if (name) assert.equal(report.humanBones[bone], name, `${m.id} ${bone}`);
    assert.equal(report.glbBytes, glb.byteLength);
    assert.ok(report.tPose.applied || Math.abs(report.tPose.armDegrees.left) < 0.01, `${m.id}: T-pose`);
    assert.ok(report.primitives >= 1 && report.nonFinite === 0);
    assert.deepEqual(report.metaDefaults, ['licenseUrl']);
    if (m.kind === 'zoo' || m.kind === 'mannequin') {
      assert.equal(report.morphTargets, 3, m.id); // the mannequin's あ, まばたき, 笑い
      assert.deepEqual(Object.keys(report.expressions).sort(), ['aa', 'blink', 'happy']);
    }
    if (m.id === 'yw_test_model') assert.deepEqual(report.textures.map((t) => t.status), ['embedded', 'embedded']);
    lines.push(`${m.id.padEnd(16)} ${String(bytes.byteLength).padStart(7)} -> ${String(glb.byteLength).padStart(7)} bytes in ${ms.toFixed(1).padStart(6)} ms: ` +
      `humanoid ${report.humanoidMapped}/${report.humanoidTotal}, ${Object.keys(report.humanBones).length} VRM bones, ` +
      `${report.primitives} primitives, ${report.morphTargets} targets; validator 0 errors, ${v.numWarnings} warnings`);
  }
  console.log(lines.join('\n'));
});

test('the validator sees what the file claims: skinning, morph targets and the VRM extensions', { skip: SKIP }, async () => {
  const { glb } = pm.pmxToVrm(pm.mannequinPmx());
  const v = await validate(glb);
  assert.equal(v.numErrors, 0);
  assert.ok(v.info.extensionsUsed.includes('VRMC_vrm') && v.info.extensionsUsed.includes('VRMC_materials_mtoon'));
  assert.equal(v.info.hasSkins, true);
  assert.equal(v.info.hasMorphTargets, true);
  const unlit = pm.pmxToVrm(pm.mannequinPmx(), { materials: 'unlit' });
  const vu = await validate(unlit.glb);
  assert.equal(vu.numErrors, 0);
  assert.ok(vu.info.extensionsUsed.includes('KHR_materials_unlit'));
});

test('meta comes from the options and the model, never invented', () => {
  const { glb, report } = pm.pmxToVrm(pm.mannequinPmx(), {
    meta: { authors: ['A', 'B'], licenseUrl: 'https://example.org/license', commercialUsage: 'personalProfit', allowRedistribution: true },
  });
  const jl = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jl)));
  const meta = json.extensions.VRMC_vrm.meta;
  assert.deepEqual(meta.authors, ['A', 'B']);
  assert.equal(meta.licenseUrl, 'https://example.org/license');
  assert.equal(meta.commercialUsage, 'personalProfit');
  assert.equal(meta.allowRedistribution, true);
  assert.equal(meta.avatarPermission, undefined); // not given: left out (VRM's default, the most restrictive)
  assert.ok(meta.name.length > 0);
  assert.deepEqual(report.metaDefaults, []);
  const bare = pm.pmxToVrm(pm.mannequinPmx());
  assert.deepEqual(bare.report.metaDefaults, ['authors', 'licenseUrl']);
});

test('bad input is a clear error and leaks nothing', () => {
  const before = pm.heapInUse;
  assert.throws(() => pm.pmxToVrm(new Uint8Array([1, 2, 3])), (e) => e instanceof ProcMotionError && /not a PMX or PMD/.test(e.message));
  const cut = pm.mannequinPmx().subarray(0, 5000);
  assert.throws(() => pm.pmxToVrm(cut), (e) => e instanceof ProcMotionError && /vertex count \d+ needs at least/.test(e.message));
  assert.throws(() => pm.pmxToVrm(pm.mannequinPmx(), { materials: 'pbr' }), /neither "mtoon" nor "unlit"/);
  assert.throws(() => pm.pmxToVrm(pm.mannequinPmx(), { textures: { 'a.png': 'not bytes' } }), /expected a Uint8Array/);
  // a texture that cannot be read is a reported skip
  const { report } = pm.pmxToVrm(readFixture('pmx/yw_test_model/yw_test_model.pmx'), {
    textures: { 'tex/diffuse.png': new Uint8Array([0x42, 0x4d, 1, 2, 3]), 'tex/sph.png': new Uint8Array(64) },
  });
  assert.equal(report.textures[0].status, 'unreadable');
  assert.match(report.textures[0].detail, /bmp/);
  assert.equal(report.textures[1].status, 'unsupported');
  assert.equal(pm.heapInUse, before);
});

test('procmotion vrm writes the file and prints the report; a model without the humanoid fails naming the bones', { skip: SKIP }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-vrm-'));
  const out = join(dir, 'yw.vrm');
  const r = spawnSync(CLI, ['vrm', join(FIXTURES, 'pmx/yw_test_model/yw_test_model.pmx'), '--authors', 'X,Y', '-o', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.humanoidMapped, 21);
  assert.deepEqual(report.textures.map((t) => t.status), ['embedded', 'embedded']); // found beside the model
  const glb = readFileSync(out);
  assert.equal(glb.subarray(0, 4).toString(), 'glTF');
  assert.equal(report.glbBytes, glb.byteLength);
  // a PMX whose bones are not a humanoid: the mannequin's skeleton without its arms' names
  const bytes = pm.mannequinPmx();
  const bad = Buffer.from(bytes);
  for (const name of ['左腕', 'arm_L']) { // its name and English name
    const b = Buffer.from(name, 'utf16le');
    for (let i = bad.indexOf(b); i >= 0; i = bad.indexOf(b, i + 1)) bad[i] = 0x78;
  }
  const badPath = join(dir, 'noarm.pmx');
  writeFileSync(badPath, bad);
  const f = spawnSync(CLI, ['vrm', badPath, '-o', join(dir, 'x.vrm')], { encoding: 'utf8' });
  assert.equal(f.status, 1);
  assert.match(f.stderr, /lacks 1 required humanoid bone: leftUpperArm \(左腕\)/);
  const u = spawnSync(CLI, ['vrm', badPath], { encoding: 'utf8' });
  assert.equal(u.status, 1);
  assert.match(u.stderr, /expected MODEL and -o/);
});
