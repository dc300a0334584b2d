// Zoo models in the web demo (Debian's Chromium): a PMD and two PMX files of the test zoo
// (build/native/zoo/, docs/zoo.md), loaded from the file picker as a user would, play the catwalk the
// page generates for them; the bones the page shows are where the Node harness (babylon-mmd in Node,
// tests/node/support/played.mjs) puts them for the page's own VMD, so what the harness measures is
// what a browser shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserUnavailable, demoSuite } from './support/browser.mjs';
import { createPlayer, maxDistance } from '../node/support/played.mjs';
import { zooModels, zooSkip } from '../node/support/zoo.mjs';

const SKIP = browserUnavailable() ?? zooSkip();
if (SKIP) console.log(`# ${SKIP}`);

const demo = demoSuite(SKIP);

const BONES = ['左足首', '右足首', '左足ＩＫ', '下半身', '頭', '左手首'];
const FRAMES = [0, 17, 40, 63];

test('zoo models load in the demo from the file picker and play where the Node harness says', { skip: SKIP, timeout: 180_000 }, async (t) => {
  const models = zooModels().filter((m) => ['realpmd', 'realpmx', 'scale05'].includes(m.id));
  assert.equal(models.length, 3);
  const { page, errors, context } = await demo.open({ viewport: { width: 960, height: 640 } });
  try {
    for (const m of models) {
      const name = m.path.split('/').pop();
      const before = await page.evaluateHandle(() => [window.demo.app.motion, window.demo.viewer.motion]);
      await page.locator('#file-model').setInputFiles(m.path);
      await page.waitForFunction((n) => window.demo.app.model?.name === n, name, { timeout: 30_000 });
      // the page's new catwalk, bound to the new model (the viewer binds it asynchronously)
      await page.waitForFunction(([app, viewer]) => window.demo.app.motion && window.demo.app.motion !== app
        && window.demo.viewer.motion && window.demo.viewer.motion !== viewer, before, { timeout: 30_000 });
      const shown = [];
      for (const f of FRAMES) {
        // seek, then let the scene render twice (the runtime solves the pose in its render step)
        shown.push(await page.evaluate(({ frame, bones }) => new Promise((ok) => {
          const { viewer } = window.demo;
          viewer.pause();
          viewer.seek(frame);
          let k = 0;
          const obs = viewer.scene.onAfterRenderObservable.add(() => {
            if (++k < 2) return;
            viewer.scene.onAfterRenderObservable.remove(obs);
            ok(bones.map((b) => viewer.bonePosition(b)));
          });
        }), { frame: f, bones: BONES }));
      }
      const vmd = new Uint8Array(await page.evaluate(() => Array.from(window.demo.app.motion.vmd)));
      const player = await createPlayer(m);
      let d;
      try {
        d = maxDistance(await player.play(vmd, BONES, FRAMES), shown.flat(2));
      } finally {
        player.dispose();
      }
      t.diagnostic(`${name}: page vs Node harness ${d.max ? `${d.max.toExponential(2)} (${d.bone} at frame ${d.frame})` : 'identical'} on ${BONES.length} bones at frames ${FRAMES.join(', ')}`);
      assert.ok(shown.flat().every((p) => p && p.every(Number.isFinite)), `${name}: a bone is missing in the page`);
      assert.ok(d.max < 1e-4, `${name}: the page shows ${d.bone} ${d.max} away from the harness at frame ${d.frame}`);
    }
    assert.deepEqual(errors, [], 'console errors');
  } finally {
    await context.close();
  }
});
