// The VRM export seen by VRM tools (Debian's Chromium): @pixiv/three-vrm (three.js) loads what
// pm.pmxToVrm writes, finds every humanoid bone the report claims, and posing the normalized humanoid
// (both upper arms 45 degrees down) moves the arms and nothing else; the VRM drawn by three-vrm beside
// the PMX drawn by babylon-mmd from the same camera shows the same figure: the silhouettes' overlap
// (intersection over union) is measured at the VRM's T-pose rest and with the arms posed back down by
// the A-pose angles the bake removed (upper arm, then elbow), and written with the screenshots to
// test-results/vrm/; springs made from rigid bodies swing under three-vrm's simulation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { REPO_ROOT, browserUnavailable, collectPageErrors, launchChromium, serveStatic } from './support/browser.mjs';
import { fixturesAvailable, readFixture } from '../node/support/babylon.mjs';

const SKIP = browserUnavailable() ?? (fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo');
if (SKIP) console.log(`# ${SKIP}`);
const OUT = join(REPO_ROOT, 'test-results/vrm');

let server, browser, pm;

before(async () => {
  if (SKIP) return;
  pm = await createProcMotion({ load: FEATURE_MODULES });
  mkdirSync(OUT, { recursive: true });
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(REPO_ROOT, 'tests/browser/support/vrm-page.js')],
    outfile: join(OUT, 'page.js'), bundle: true, format: 'esm', platform: 'browser', target: ['es2022'],
    logLevel: 'warning', define: { 'process.env.NODE_ENV': '"production"' },
  });
  server = await serveStatic(OUT, { '/': '<!doctype html><meta charset="utf-8"><title>vrm</title><body><script type="module" src="/page.js"></script>' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The mannequin with rigid bodies appended (its PMX ends with "0 rigid bodies, 0 joints"): [bone,
 * mode, shape, size, offset from the bone]. Bone indices are 1 byte in the mannequin's PMX. */
function withBodies(pmx, skeleton, bodies) {
  assert.equal(pmx[14], 1, 'the mannequin uses 1-byte bone indices');
  const parts = [pmx.subarray(0, pmx.length - 8)];
  const u32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v, true); return b; };
  const f32 = (a) => { const b = new Uint8Array(4 * a.length); a.forEach((v, i) => new DataView(b.buffer).setFloat32(4 * i, v, true)); return b; };
  const text = (s) => { const t = new Uint8Array(Buffer.from(s, 'utf16le')); return [u32(t.length), t]; };
  parts.push(u32(bodies.length));
  bodies.forEach(([bone, mode, shape, size, off], k) => {
    const p = skeleton.bones[bone].position;
    parts.push(...text(`body${k}`), ...text(''), Uint8Array.of(bone, mode ? 1 : 0, 0, 0, shape),
      f32([...size, p[0] + off[0], p[1] + off[1], p[2] + off[2], 0, 0, 0, 1, 0.5, 0.5, 0, 0.5]), Uint8Array.of(mode));
  });
  parts.push(u32(0));
  return new Uint8Array(Buffer.concat(parts));
}

test('rigid bodies become springs that three-vrm simulates, and colliders', { skip: SKIP, timeout: 120_000 }, async (t) => {
  const base = pm.mannequinPmx(), skeleton = pm.readPmx(base);
  const ik = skeleton.bones.findIndex((b) => b.name === '左足ＩＫ'), toe = skeleton.bones.findIndex((b) => b.name === '左つま先ＩＫ');
  const head = skeleton.bones.findIndex((b) => b.name === '頭');
  // a chain of two physics bodies on 左足ＩＫ -> 左つま先ＩＫ (not human bones), a static sphere on the head
  const bytes = withBodies(base, skeleton, [[head, 0, 0, [1.5, 0, 0], [0, 1, 0]], [ik, 1, 2, [0.3, 1, 0], [0, 0, 0]], [toe, 1, 0, [0.3, 0, 0], [0, 0, 0]]]);
  const { glb, report } = pm.pmxToVrm(bytes);
  assert.deepEqual(report.springs, { springs: 1, joints: 2, colliders: 1, colliderGroups: 1 });
  const context = await browser.newContext({ viewport: { width: 680, height: 580 } });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => window.vrmPage?.ready === true, null, { timeout: 60_000 });
    const loaded = await page.evaluate((b) => window.vrmPage.showVrm(Uint8Array.from(b)), Array.from(glb));
    assert.equal(loaded.springJoints, 1); // the chain's one swinging joint (its last joint is the tip)
    assert.equal(loaded.springColliders, 1);
    const { before, after } = await page.evaluate((n) => window.vrmPage.simulate(60, n), ['左つま先ＩＫ', '頭', '左足首']);
    const moved = Math.hypot(...after['左つま先ＩＫ'].map((v, i) => v - before['左つま先ＩＫ'][i]));
    t.diagnostic(`spring: 左つま先ＩＫ moved ${moved.toFixed(4)} m in 1 s of three-vrm's simulation; the head ${Math.hypot(...after['頭'].map((v, i) => v - before['頭'][i])).toExponential(1)} m`);
    assert.ok(moved > 0.005, `the spring did not swing (${moved} m)`);
    assert.ok(Math.hypot(...after['頭'].map((v, i) => v - before['頭'][i])) < 1e-6, 'the head moved');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

const models = () => [
  { id: 'mannequin', bytes: pm.mannequinPmx(), textures: {} },
  { id: 'yw_test_model', bytes: readFixture('pmx/yw_test_model/yw_test_model.pmx'),
    textures: { 'tex/diffuse.png': readFixture('pmx/yw_test_model/tex/diffuse.png'), 'tex/sph.png': readFixture('pmx/yw_test_model/tex/sph.png') } },
  { id: 'mmt_test_model', bytes: readFixture('pmx/mmt_test_model.pmx'), textures: {} },
];

/** A rotation of `deg` degrees about the Z axis as a quaternion [x, y, z, w]. */
const aboutZ = (deg) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

test('three-vrm loads each VRM, finds the humanoid, poses it, and draws the PMX\'s figure', { skip: SKIP, timeout: 240_000 }, async (t) => {
  const figures = {};
  for (const m of models()) {
    const { glb, report } = pm.pmxToVrm(m.bytes, { textures: m.textures, meta: { authors: ['procmotion tests'] } });
    const context = await browser.newContext({ viewport: { width: 680, height: 580 } });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => window.vrmPage?.ready === true, null, { timeout: 60_000 });
      await page.evaluate(([b, tx]) => window.vrmPage.showPmx(Uint8Array.from(b),
        Object.fromEntries(Object.entries(tx).map(([k, v]) => [k, Uint8Array.from(v)]))),
      [Array.from(m.bytes), Object.fromEntries(Object.entries(m.textures).map(([k, v]) => [k, Array.from(v)]))]);
      const loaded = await page.evaluate((b) => window.vrmPage.showVrm(Uint8Array.from(b)), Array.from(glb));

      // every humanoid bone the report claims, on the node of that bone
      assert.equal(loaded.metaVersion, '1');
      for (const [bone, name] of Object.entries(report.humanBones)) {
        assert.ok(loaded.humanBones[bone], `${m.id}: three-vrm has no ${bone}`);
        assert.equal(loaded.humanBones[bone], loaded.sanitize[loaded.humanBones[bone]] ?? name, `${m.id}: ${bone}`);
        assert.ok([name, loaded.sanitize[name]].includes(loaded.humanBones[bone]) || loaded.humanBones[bone] === name.replace(/\s/g, '_'),
          `${m.id}: ${bone} is node "${loaded.humanBones[bone]}", the report says "${name}"`);
      }
      assert.equal(Object.keys(loaded.humanBones).length, Object.keys(report.humanBones).length);
      assert.equal(loaded.springColliders, report.springs.colliders, `${m.id}: colliders`);
      for (const preset of Object.keys(report.expressions)) assert.ok(loaded.expressions.includes(preset), `${m.id}: expression ${preset}`);

      // T-pose at rest: the hands level with the shoulder joints
      const names = ['leftUpperArm', 'leftHand', 'rightUpperArm', 'rightHand', 'head', 'leftFoot', 'rightFoot', 'hips'];
      const rest = await page.evaluate((n) => window.vrmPage.positions(n), names);
      assert.ok(Math.abs(rest.leftHand[1] - rest.leftUpperArm[1]) < 0.01 && Math.abs(rest.rightHand[1] - rest.rightUpperArm[1]) < 0.01,
        `${m.id}: the arms are not level at rest (${rest.leftHand[1]} vs ${rest.leftUpperArm[1]})`);
      const tpose = await page.evaluate(() => window.vrmPage.overlap());
      await page.screenshot({ path: join(OUT, `${m.id}-tpose.png`) });

      // both upper arms 45 degrees down through the normalized humanoid: the hands go down and in,
      // by the arm's length times sin 45, and nothing else moves
      await page.evaluate((q) => window.vrmPage.pose(q), { leftUpperArm: aboutZ(-45), rightUpperArm: aboutZ(45) });
      const posed = await page.evaluate((n) => window.vrmPage.positions(n), names);
      for (const side of ['left', 'right']) {
        const arm = dist(rest[`${side}Hand`], rest[`${side}UpperArm`]);
        const drop = rest[`${side}Hand`][1] - posed[`${side}Hand`][1];
        assert.ok(Math.abs(drop - arm * Math.SQRT1_2) < 0.01 * arm, `${m.id}: ${side} hand dropped ${drop}, expected ${arm * Math.SQRT1_2}`);
        const inward = Math.abs(rest[`${side}Hand`][0]) - Math.abs(posed[`${side}Hand`][0]);
        assert.ok(inward > 0.2 * arm, `${m.id}: the ${side} hand did not come in (${inward})`);
        assert.ok(dist(rest[`${side}UpperArm`], posed[`${side}UpperArm`]) < 1e-5);
      }
      for (const still of ['head', 'leftFoot', 'rightFoot', 'hips']) assert.ok(dist(rest[still], posed[still]) < 1e-5, `${m.id}: ${still} moved`);

      // the arms back at the A-pose angle the bake removed: the PMX's silhouette
      const { left, right } = report.tPose.armDegrees, elbow = report.tPose.elbowDegrees;
      await page.evaluate((q) => window.vrmPage.pose(q), {
        leftUpperArm: aboutZ(-left), rightUpperArm: aboutZ(right), leftLowerArm: aboutZ(-elbow.left), rightLowerArm: aboutZ(elbow.right),
      });
      const apose = await page.evaluate(() => window.vrmPage.overlap());
      await page.screenshot({ path: join(OUT, `${m.id}-apose.png`) });
      figures[m.id] = { armDegrees: report.tPose.armDegrees, iouTPose: tpose.iou, iouArmsBack: apose.iou,
                        pmxPixels: apose.pmxPixels, vrmPixels: apose.vrmPixels, handDrop45: rest.leftHand[1] - posed.leftHand[1] };
      t.diagnostic(`${m.id}: silhouette overlap ${(apose.iou * 100).toFixed(1)}% with the arms back at ${left.toFixed(1)} + ${elbow.left.toFixed(1)} deg ` +
                   `(${(tpose.iou * 100).toFixed(1)}% at the T-pose rest); ${apose.pmxPixels} / ${apose.vrmPixels} figure pixels`);
      assert.ok(apose.iou > 0.95, `${m.id}: the VRM's figure overlaps the PMX's by ${apose.iou}`);
      assert.ok(apose.iou > tpose.iou, `${m.id}: posing the arms back did not bring the figures together`);
      assert.ok(apose.pmxPixels > 5000 && apose.vrmPixels > 5000, `${m.id}: a canvas drew (almost) nothing`);
      assert.deepEqual(errors, [], `${m.id}: console errors`);
    } finally {
      await context.close();
    }
  }
  writeFileSync(join(OUT, 'silhouettes.json'), JSON.stringify(figures, null, 2));
});
