// The demo's landing view: for the loaded model the curve view draws the planned and
// the played ankle heights, and a line over it gives the measured report (max error, RMS, floor
// penetration in units and cm). On the built-in mannequin (catwalk and groove) and on zoo models
// loaded through the page's file picker (a PMX whose 足ＩＫ rests 0.36 below the ankle, and a PMD,
// whose knees babylon-mmd limits its own way): the report is within the bound, the series
// exist and agree within 0.01 units, and the played series is what the page's own babylon-mmd
// runtime shows (the ankle bones read from it at a few frames).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, demoSuite } from './support/browser.mjs';
import { zooModels, zooSkip } from '../node/support/zoo.mjs';

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);
const NO_ZOO = SKIP || zooSkip();

const BOUND = 0.01; // played within 0.01 units of the plan
const FRAMES = [0, 23, 61, 118, 177];

const demo = demoSuite(SKIP);

/** Waits for the motion of `mode` on `model` with its feet and report, and returns what the page shows. */
async function landing(page, model, mode) {
  await page.waitForFunction(([n, m]) => {
    const app = window.demo.app;
    return app.model?.name === n && app.landingModel === app.model && app.motionMode === m && app.landing && app.feet
      && window.demo.viewer.motion;
  }, [model, mode], { timeout: 60_000 });
  return page.evaluate(() => {
    const { app } = window.demo;
    const f = app.feet;
    const arr = (a) => (a ? Array.from(a) : null);
    return {
      line: document.querySelector('#landing-report').textContent,
      hidden: document.querySelector('#landing-report').hidden,
      landing: app.landing,
      feetMs: app.feetMs,
      feet: { frames: f.frames, bones: f.bones, rest: f.rest, source: f.source, gap: f.gap,
        planned: { left: arr(f.planned?.left), right: arr(f.planned?.right) },
        played: { left: arr(f.played.left), right: arr(f.played.right) } },
      legend: [...document.querySelectorAll('#curve-legend .legend-item')].map((e) => e.dataset.series),
      loopFrames: app.motion.loopFrames,
    };
  });
}

/** The ankles' heights above rest as the page's babylon-mmd runtime shows them at `frames`. */
async function runtimeHeights(page, bones, rest, frames) {
  const out = [];
  for (const frame of frames) {
    out.push(await page.evaluate(({ f, names, restY }) => new Promise((ok) => {
      const { viewer } = window.demo;
      viewer.pause();
      viewer.seek(f);
      let k = 0;
      const obs = viewer.scene.onAfterRenderObservable.add(() => {
        if (++k < 2) return; // the runtime solves the pose in its render step
        viewer.scene.onAfterRenderObservable.remove(obs);
        ok(names.map((n, i) => viewer.bonePosition(n)[1] - restY[i]));
      });
    }), { f: frame, names: bones, restY: rest }));
  }
  return out;
}

/** Checks one model's view; returns the figures for the diagnostic line. */
async function check(page, t, label, shown) {
  const { landing: L, feet, line } = shown;
  assert.equal(shown.hidden, false, `${label}: the report line is shown`);
  // the line says the report's figures, in units and cm (1 unit = 8 cm)
  const m = line.match(/max error ([\d.]+) units \(([\d.]+) cm\) · RMS ([\d.]+) units \(([\d.]+) cm\) · floor penetration ([\d.]+) units \(([\d.]+) cm\)/);
  assert.ok(m, `${label}: the report line reads: ${line}`);
  const [maxU, maxCm, rmsU, rmsCm, penU, penCm] = m.slice(1).map(Number);
  assert.ok(Math.abs(maxU - L.maxError) < 5e-5 && Math.abs(rmsU - L.rmsError) < 5e-5, `${label}: ${line} vs ${JSON.stringify(L)}`);
  assert.ok(Math.abs(maxCm - 8 * maxU) < 0.006 && Math.abs(rmsCm - 8 * rmsU) < 0.006 && Math.abs(penCm - 8 * penU) < 0.006, `${label}: cm = 8 x units: ${line}`);
  assert.ok(L.maxError <= BOUND, `${label}: max foot error ${L.maxError} > ${BOUND}`);
  assert.ok(L.penetration <= BOUND, `${label}: floor penetration ${L.penetration} > ${BOUND}`);
  // planned and played series, both feet, one value per whole frame, agreeing within the bound
  assert.deepEqual(shown.legend.slice(0, 4), ['leftFootPlanned', 'leftFootPlayed', 'rightFootPlanned', 'rightFootPlayed'], `${label}: legend`);
  let gap = 0, lift = 0;
  for (const side of ['left', 'right']) {
    const a = feet.planned[side], b = feet.played[side];
    assert.ok(a && b, `${label}: ${side} planned and played series exist`);
    assert.equal(a.length, feet.frames + 1);
    assert.equal(b.length, feet.frames + 1);
    for (let f = 0; f <= feet.frames; f++) gap = Math.max(gap, Math.abs(a[f] - b[f]));
    lift = Math.max(lift, ...b);
  }
  assert.ok(gap <= BOUND, `${label}: planned and played differ by ${gap}`);
  assert.ok(Math.abs(gap - feet.gap) < 1e-9, `${label}: the page's own gap figure`);
  // the played series is what babylon-mmd shows in the page
  const frames = FRAMES.filter((f) => f <= feet.frames);
  const rt = await runtimeHeights(page, feet.bones, feet.rest, frames);
  let off = 0;
  frames.forEach((f, i) => { off = Math.max(off, Math.abs(rt[i][0] - feet.played.left[f]), Math.abs(rt[i][1] - feet.played.right[f])); });
  assert.ok(off < 1e-3, `${label}: the page's babylon-mmd ankles are ${off} from the played series`);
  t.diagnostic(`${label}: report max ${L.maxError} rms ${L.rmsError} penetration ${L.penetration}; planned vs played (Y) ${gap.toExponential(2)}; `
    + `played vs the page's babylon-mmd ${off.toExponential(2)} at frames ${frames.join(', ')}; lift ${lift.toFixed(3)}; series in ${shown.feetMs.toFixed(1)} ms`);
  return { gap, off, lift };
}

test('the curve view shows planned and played feet and the report line, on the mannequin and zoo models', { skip: SKIP, timeout: 240_000 }, async (t) => {
  const { page, errors, context } = await demo.open({ viewport: { width: 1280, height: 800 } });
  try {
    const catwalk = await landing(page, 'mannequin', 'catwalk');
    const c = await check(page, t, 'mannequin catwalk', catwalk);
    assert.ok(c.lift > 0.1, `the feet lift in the catwalk: ${c.lift}`);
    assert.equal(catwalk.feet.source, 'pm.createPoseEvaluator');
    assert.match(catwalk.line, /^Feet as played on this model: /);

    // a parameter change regenerates the line and the series
    const before = catwalk.feet.played.left;
    await page.evaluate(() => { window.demo.app.catwalk.stepHeight = 0.9; return window.demo.app.regenerateNow(); });
    const higher = await landing(page, 'mannequin', 'catwalk');
    assert.notDeepEqual(higher.feet.played.left, before, 'a higher step gives new played heights');
    await check(page, t, 'mannequin catwalk, step height 0.9', higher);
    await page.evaluate(() => { window.demo.app.catwalk.stepHeight = 0.5; return window.demo.app.regenerateNow(); });

    // the labels follow the language
    await page.evaluate(() => { document.querySelector('#lang').value = 'ja'; document.querySelector('#lang').dispatchEvent(new Event('change')); });
    assert.match(await page.locator('#landing-report').textContent(), /最大誤差 [\d.]+ 単位（[\d.]+ cm）/);
    assert.match(await page.locator('#curve-legend').textContent(), /左足（計画）/);
    await page.evaluate(() => { document.querySelector('#lang').value = 'en'; document.querySelector('#lang').dispatchEvent(new Event('change')); });

    // the groove bake on the standing pose: the feet stay on their anchors
    await page.locator('#mode').selectOption('groove');
    await check(page, t, 'mannequin groove', await landing(page, 'mannequin', 'groove'));
    await page.locator('#mode').selectOption('catwalk');
    await landing(page, 'mannequin', 'catwalk');

    // zoo models through the file picker, as a user loads them
    if (NO_ZOO) {
      t.diagnostic(NO_ZOO);
    } else {
      for (const m of zooModels().filter((z) => ['ikdrop', 'realpmd'].includes(z.id))) {
        const name = m.path.split('/').pop();
        await page.locator('#file-model').setInputFiles(m.path);
        await check(page, t, `${m.id} catwalk`, await landing(page, name, 'catwalk'));
      }
    }
    assert.deepEqual(errors, [], 'console errors');
  } finally {
    await context.close();
  }
});

test('docs/demo-landing.png (PM_UPDATE_DOCS_SCREENSHOT=1)', { skip: SKIP || (!process.env.PM_UPDATE_DOCS_SCREENSHOT && 'set PM_UPDATE_DOCS_SCREENSHOT=1 to rewrite docs/demo-landing.png') }, async () => {
  const { page, context } = await demo.open({ viewport: { width: 1040, height: 660 } });
  try {
    await page.waitForFunction(() => window.demo.app.feet, null, { timeout: 60_000 });
    await page.evaluate(() => { const { viewer } = window.demo; viewer.pause(); viewer.seek(4.5 * viewer.motion.beatFrames); });
    await page.waitForTimeout(300);
    const png = await page.locator('#curves').screenshot({ path: join(REPO_ROOT, 'docs/demo-landing.png') });
    console.log(`# demo: wrote docs/demo-landing.png (${png.length} bytes)`);
    assert.ok(png.length < 100 * 1024, `docs/demo-landing.png is ${png.length} bytes (keep it small)`);
  } finally {
    await context.close();
  }
});
