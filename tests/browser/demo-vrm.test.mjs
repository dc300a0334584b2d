// The demo's "Download VRM" button (Debian's Chromium): the built-in mannequin, the CC0 fixture picked
// with its textures, and a PMD of the test zoo download as VRM files that the Khronos glTF validator
// passes with 0 errors, textures embedded; a model that is not a humanoid shows the core's error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import validator from 'gltf-validator';

import { REPO_ROOT, browserUnavailable, demoSuite } from './support/browser.mjs';
import { FIXTURES, fixturesAvailable } from '../node/support/babylon.mjs';
import { zooModels, zooSkip } from '../node/support/zoo.mjs';

const SKIP = browserUnavailable() ?? zooSkip() ?? (fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo');
if (SKIP) console.log(`# ${SKIP}`);
const OUT = join(REPO_ROOT, 'test-results/vrm');

const demo = demoSuite(SKIP, () => mkdirSync(OUT, { recursive: true }));

async function downloadVrm(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-vrm').click()]);
  const path = join(OUT, `demo-${download.suggestedFilename()}`);
  await download.saveAs(path);
  const bytes = new Uint8Array(readFileSync(path));
  const v = await validator.validateBytes(bytes, { maxIssues: 50 });
  const report = await page.evaluate(() => window.demo.app.lastVrm.report);
  return { name: download.suggestedFilename(), bytes, errors: v.issues.numErrors, messages: v.issues.messages, report };
}

test('Download VRM saves the loaded model as a VRM that validates', { skip: SKIP, timeout: 180_000 }, async (t) => {
  const { page, errors, context } = await demo.open({ viewport: { width: 1100, height: 700 }, acceptDownloads: true });
  try {
    assert.equal(await page.locator('#download-vrm').textContent(), 'Download VRM');
    assert.equal(await page.locator('#download-vrm').isDisabled(), false);

    const mannequin = await downloadVrm(page);
    assert.equal(mannequin.name, 'mannequin.vrm');
    assert.equal(mannequin.errors, 0, JSON.stringify(mannequin.messages.filter((m) => m.severity === 0)));
    assert.equal(mannequin.report.drivable, true);
    assert.equal(mannequin.report.glbBytes, mannequin.bytes.byteLength);

    // the CC0 fixture with its two textures, picked as a user would
    const dir = join(FIXTURES, 'pmx/yw_test_model');
    await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
    await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx', null, { timeout: 30_000 });
    const yw = await downloadVrm(page);
    assert.equal(yw.name, 'yw_test_model.vrm');
    assert.equal(yw.errors, 0);
    assert.deepEqual(yw.report.textures.map((x) => x.status), ['embedded', 'embedded']);
    assert.equal(yw.report.humanoidMapped, 21);

    // a PMD of the zoo
    const pmd = zooModels().find((m) => m.id === 'realpmd');
    await page.locator('#file-model').setInputFiles(pmd.path);
    await page.waitForFunction(() => window.demo.app.model?.name === 'realpmd.pmd', null, { timeout: 30_000 });
    const z = await downloadVrm(page);
    assert.equal(z.name, 'realpmd.vrm');
    assert.equal(z.errors, 0);
    t.diagnostic(`demo: mannequin.vrm ${mannequin.bytes.byteLength} bytes, yw_test_model.vrm ${yw.bytes.byteLength} (2 textures embedded), ` +
                 `realpmd.vrm ${z.bytes.byteLength}; validator 0 errors each`);
    assert.deepEqual(errors, [], 'console errors');

    // a model without a humanoid: the banner names the missing bones
    const bad = Buffer.from(readFileSync(pmd.path));
    const arm = Buffer.from([0x8d, 0xb6, 0x98, 0x72]); // 左腕 in Shift-JIS
    for (let i = bad.indexOf(arm); i >= 0; i = bad.indexOf(arm, i + 1)) bad[i + 2] = 0x41;
    const armEn = Buffer.from('arm_L'); // and its English name
    for (let i = bad.indexOf(armEn); i >= 0; i = bad.indexOf(armEn, i + 1)) bad[i] = 0x78;
    const badPath = join(OUT, 'noarm.pmd');
    writeFileSync(badPath, bad);
    await page.locator('#file-model').setInputFiles(badPath);
    await page.waitForFunction(() => window.demo.app.model?.name === 'noarm.pmd', null, { timeout: 30_000 });
    await page.locator('#download-vrm').click();
    await page.waitForFunction(() => /leftUpperArm/.test(document.body.innerText), null, { timeout: 10_000 });
    assert.match(await page.evaluate(() => document.body.innerText), /Could not convert noarm\.pmd to VRM: vrm: the model lacks 1 required humanoid bone: leftUpperArm/);
  } finally {
    await context.close();
  }
});
