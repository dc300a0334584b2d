// The web demo (web-demo/, bundled to web-demo/dist/demo.js) in Debian's Chromium on SwiftShader:
// it opens on the mannequin walking, the controls regenerate the motion, "Download VMD" gives a
// file babylon-mmd reads, a user's PMX + VMD play, broken files give a readable message, the
// Keypoints toggle draws the MediaPipe skeleton of the playing motion.
// Screenshots go to test-results/demo/ for review. PM_UPDATE_DOCS_SCREENSHOT=1 also writes
// docs/demo.png and docs/demo-keypoints.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, demoSuite } from './support/browser.mjs';
import { bvhToFbx, parseBvh } from '../node/support/fbx-writer.mjs';
import { distanceToPolyline } from '../../web-demo/src/modes/tracing-core.js';
import {
  createMmdScene, disposeMmdScene, evaluateWorldPositions, boneIndex, fixturePath, fixturesAvailable,
  loadVmdAnimation, parseVmdBabylon, readFixture,
} from '../node/support/babylon.mjs';

const OUT = join(REPO_ROOT, 'test-results/demo');
const BUNDLE = join(REPO_ROOT, 'web-demo/dist/demo.js');
const VIEWPORT = { width: 1280, height: 800 };

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);
const NO_FIXTURES = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found (yw_test_model.pmx, mei_wait.vmd)';
if (!SKIP && NO_FIXTURES) console.log(`# ${NO_FIXTURES}`);

// The page is built when it is missing or older than its sources (test.sh builds the wasm first).
const demo = demoSuite(SKIP, () => {
  assert.ok(existsSync(BUNDLE));
  mkdirSync(OUT, { recursive: true });
});

/** A fresh page on the demo, ready (model loaded, motion playing). Returns { page, errors, context }. */
async function openDemo(query = '') {
  const t0 = Date.now();
  const { page, errors, context } = await demo.open({ viewport: VIEWPORT, acceptDownloads: true }, query);
  const loadTimeMs = await page.evaluate(() => window.demo.loadTimeMs);
  return { page, errors, context, loadTimeMs, wallMs: Date.now() - t0 };
}

/** Waits until the page has rendered `n` more frames. */
function frames(page, n = 2) {
  return page.evaluate((count) => new Promise((ok) => {
    let k = 0;
    const obs = window.demo.viewer.scene.onAfterRenderObservable.add(() => {
      if (++k >= count) { window.demo.viewer.scene.onAfterRenderObservable.remove(obs); ok(); }
    });
  }), n);
}

/** Pause and show frame `f` (rendered). */
async function showFrame(page, f) {
  await page.evaluate((frame) => { window.demo.viewer.pause(); window.demo.viewer.seek(frame); }, f);
  await frames(page, 2);
}

async function canvasBox(page) {
  return page.locator('#scene').boundingBox();
}

/** Screen rectangle of the body at the current pose, in page coordinates. */
async function bodyClip(page) {
  const box = await canvasBox(page);
  const r = await page.evaluate(() => window.demo.viewer.bodyRect());
  assert.ok(r && r.width > 10 && r.height > 10, `body rectangle: ${JSON.stringify(r)}`);
  return { x: box.x + r.x, y: box.y + r.y, width: r.width, height: r.height };
}

/**
 * Screenshots of the body region (the union of both poses' rectangles) at frames fa and fb, written
 * to OUT as names[0] and names[1]. Returns { clip, stats } (pixelStats of the pair).
 */
async function bodyShotsAt(page, fa, fb, names) {
  await showFrame(page, fa);
  const clipA = await bodyClip(page);
  await showFrame(page, fb);
  const clip = unionClip(clipA, await bodyClip(page));
  await showFrame(page, fa);
  const shotA = await page.screenshot({ clip });
  await showFrame(page, fb);
  const shotB = await page.screenshot({ clip });
  writeFileSync(join(OUT, names[0]), shotA);
  writeFileSync(join(OUT, names[1]), shotB);
  return { clip, stats: await pixelStats(page, shotA, shotB) };
}

function unionClip(a, b) {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/**
 * Pixel statistics of PNG screenshots, decoded in the page (createImageBitmap): for each image the
 * luminance standard deviation and number of distinct colours; for a pair, the fraction of pixels
 * that differ by more than 24 in some channel.
 */
async function pixelStats(page, a, b = null) {
  return page.evaluate(async ([pa, pb]) => {
    const decode = async (b64) => {
      const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
      const bmp = await createImageBitmap(blob);
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d');
      g.drawImage(bmp, 0, 0);
      return g.getImageData(0, 0, bmp.width, bmp.height);
    };
    const stats = (img) => {
      const d = img.data;
      let sum = 0, sum2 = 0;
      const colours = new Set();
      const n = d.length / 4;
      for (let i = 0; i < d.length; i += 4) {
        const l = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
        sum += l; sum2 += l * l;
        colours.add((d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3));
      }
      return { std: Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2)), colours: colours.size, pixels: n };
    };
    const A = await decode(pa);
    const out = { a: stats(A) };
    if (pb) {
      const B = await decode(pb);
      out.b = stats(B);
      let diff = 0;
      const n = Math.min(A.data.length, B.data.length);
      for (let i = 0; i < n; i += 4) {
        if (Math.abs(A.data[i] - B.data[i]) > 24 || Math.abs(A.data[i + 1] - B.data[i + 1]) > 24
            || Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) diff++;
      }
      out.diff = diff / (n / 4);
    }
    return out;
  }, [a.toString('base64'), b ? b.toString('base64') : null]);
}

/** How many pixels of a PNG screenshot are within `tolerance` (each channel) of the colour rgb. */
async function colourCount(page, png, rgb, tolerance = 40) {
  return page.evaluate(async ([b64, [r, g, b], tol]) => {
    const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - r) <= tol && Math.abs(d[i + 1] - g) <= tol && Math.abs(d[i + 2] - b) <= tol) n++;
    }
    return n;
  }, [png.toString('base64'), rgb, tolerance]);
}

/** Turns the Keypoints toggle on and waits for the keypoints of the playing motion. */
async function keypointsOn(page) {
  await page.locator('#kp-toggle').check();
  await page.waitForFunction(() => window.demo.app.keypoints.data?.frameCount > 0
    && window.demo.app.keypoints.source.vmd === window.demo.app.motion.vmd, null, { timeout: 10_000 });
}

async function bonePosition(page, name) {
  return page.evaluate((n) => window.demo.viewer.bonePosition(n), name);
}

const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Tracing mode: switch to it and wait for the live pose. */
async function tracingOn(page) {
  await page.locator('#mode').selectOption('tracing');
  await page.waitForFunction(() => window.demo.app.motionMode === 'tracing' && window.demo.app.tracing?.session, null, { timeout: 30_000 });
}

/**
 * Drags the IK target sphere with the mouse by (dx, dy) CSS pixels from its projected centre, in
 * steps, and waits for the live pose of the new target (rendered). Returns { from, to } screen
 * points, the target and how far the limb's end bone (babylon-mmd, in the page) is from it.
 */
async function dragSphere(page, dx, dy, endBone = '左手首') {
  const box = await canvasBox(page);
  const s = await page.evaluate(() => window.demo.app.tracing.gizmo.screenPosition());
  const from = { x: box.x + s.x, y: box.y + s.y };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(from.x + (dx * i) / 6, from.y + (dy * i) / 6);
  await page.mouse.up();
  await page.evaluate(() => window.demo.app.tracing.settled);
  await frames(page, 2);
  const target = await page.evaluate(() => window.demo.app.trace.targets[window.demo.app.trace.limb]);
  const off = distance(await bonePosition(page, endBone), target);
  return { from, to: { x: from.x + dx, y: from.y + dy }, target, off };
}

/** The traced path of a limb in world coordinates, densely sampled (flat array). */
async function tracePath(page, limb) {
  return page.evaluate((l) => Array.from(window.demo.app.tracing.session.pathWorld(l, window.demo.app.trace.drafts[l], 200)), limb);
}

describe('web demo', { skip: SKIP, timeout: 300_000 }, () => {
  test('opens on the mannequin walking, with no console errors; the body moves between beats', async () => {
    const { page, errors, context, loadTimeMs, wallMs } = await openDemo();
    try {
      console.log(`# demo: first frame with the model walking ${loadTimeMs} ms after navigation start `
        + `(${wallMs} ms wall clock incl. goto; SwiftShader WebGL2, ${VIEWPORT.width}x${VIEWPORT.height})`);
      const state = await page.evaluate(() => ({
        mode: window.demo.app.mode, bpm: window.demo.app.bpm, playing: window.demo.viewer.playing,
        model: window.demo.app.model?.name, loop: window.demo.viewer.loopFrames,
        beat: window.demo.viewer.motion?.beatFrames, fps: window.demo.viewer.engine.getFps(),
        banner: document.querySelector('#errors').hidden ? null : document.querySelector('#errors').textContent,
      }));
      assert.equal(state.banner, null, `error banner shown: ${state.banner}`);
      assert.equal(state.mode, 'catwalk');
      assert.equal(state.bpm, 120);
      // The built-in mannequin's names reach the generator (morph names are read before
      // babylon-mmd trims the mesh metadata).
      const names = await page.evaluate(() => window.demo.app.model);
      assert.ok(names.boneNames.includes('センター') && names.boneNames.includes('左足ＩＫ'), names.boneNames.join(' '));
      assert.equal(names.name, 'mannequin');
      assert.ok(names.builtIn);
      assert.ok(names.morphNames.includes('まばたき'), `mannequin morphs: ${names.morphNames.join(' ')}`);
      assert.ok(names.skeleton?.positions?.length === 3 * names.boneNames.length, 'rest skeleton for the catwalk');
      assert.equal(state.playing, true);
      assert.ok(state.loop > 0 && state.beat > 0, JSON.stringify(state));
      assert.equal(state.beat, 15, '120 BPM = 15 frames per beat');
      // playing: the clock advances
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 3);
      const f1 = await page.evaluate(() => window.demo.viewer.frame);
      assert.notEqual(f0, f1, 'the motion is playing');

      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, 'demo-default.png') });

      // Two screenshots a beat apart differ where the body is.
      const beat = state.beat;
      const { clip, stats: s } = await bodyShotsAt(page, 2 * beat, 3 * beat, ['body-beat-2.png', 'body-beat-3.png']);
      console.log(`# demo: body region ${Math.round(clip.width)}x${Math.round(clip.height)} px, `
        + `luminance std ${s.a.std.toFixed(1)}, ${s.a.colours} colours, ${(100 * s.diff).toFixed(1)} % pixels differ a beat apart`);
      assert.ok(s.a.std > 4 && s.a.colours > 50, `the canvas is not blank in the body region: ${JSON.stringify(s.a)}`);
      assert.ok(s.diff > 0.01, `a beat apart, the body region changes: ${(100 * s.diff).toFixed(2)} % of pixels`);

      // The whole canvas is not blank either (floor grid, backdrop, model).
      const whole = await pixelStats(page, await page.screenshot({ clip: await canvasBox(page) }));
      assert.ok(whole.a.std > 4, JSON.stringify(whole.a));

      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('moving the hip-sway slider regenerates the motion and changes the pose, on the same beat', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const beat = await page.evaluate(() => window.demo.viewer.motion.beatFrames);
      const f = 5.5 * beat; // mid-step: the hips are off-centre
      await showFrame(page, f);
      const hip = ['下半身', 'センター'];
      const before = await bonePosition(page, hip[0]) ?? await bonePosition(page, hip[1]);
      const vmdBefore = await page.evaluate(() => window.demo.app.motion.vmd.length);
      const clip = await bodyClip(page);
      const shotA = await page.screenshot({ clip });

      const slider = page.locator('input[data-param="hipSway"]');
      assert.equal(await slider.inputValue(), '0.6', 'hip sway starts at its default');
      const oldMotion = await page.evaluateHandle(() => window.demo.app.motion);
      await slider.fill('0');
      await page.waitForFunction((old) => window.demo.app.motion !== old, oldMotion, { timeout: 10_000 });
      assert.equal(await page.evaluate(() => window.demo.app.catwalk.hipSway), 0);
      // Same BPM, same beat length: regenerating kept the frame (beat index and fraction).
      const fAfter = await page.evaluate(() => window.demo.viewer.frame);
      assert.ok(Math.abs(fAfter - f) < 1e-6, `frame kept across regeneration: ${f} -> ${fAfter}`);
      await frames(page, 2);
      const after = await bonePosition(page, hip[0]) ?? await bonePosition(page, hip[1]);
      const moved = Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
      console.log(`# demo: hip sway 0.6 -> 0 moved the hips by ${moved.toFixed(3)} units at frame ${f}`);
      assert.ok(moved > 0.05, `the pose changed: hips moved ${moved} units`);
      const shotB = await page.screenshot({ clip });
      writeFileSync(join(OUT, 'hipsway-0.6.png'), shotA);
      writeFileSync(join(OUT, 'hipsway-0.png'), shotB);
      const s = await pixelStats(page, shotA, shotB);
      assert.ok(s.diff > 0.002, `the picture changed: ${(100 * s.diff).toFixed(2)} %`);
      assert.ok(await page.locator('.param[data-key="hipSway"] .reset').isVisible(), 'a changed parameter offers a reset');
      assert.ok(vmdBefore > 0);

      // A style fills the amounts with its defaults, as the core has them; the runway's come back.
      const unstyled = await page.evaluateHandle(() => window.demo.app.motion);
      await page.locator('select[data-param="style"]').selectOption('feminine');
      await page.waitForFunction((old) => window.demo.app.motion !== old, unstyled, { timeout: 10_000 });
      assert.equal(await page.locator('input[data-param="hipSway"]').inputValue(), '0.25');
      assert.equal(await page.evaluate(() => window.demo.app.motion.params.style), 'feminine');
      assert.equal(await page.evaluate(() => window.demo.app.catwalk.armSwing), 0.2);
      await page.locator('select[data-param="style"]').selectOption('runway');
      await page.waitForFunction(() => window.demo.app.catwalk.hipSway === 0.6 && window.demo.app.motion.params.style === 'runway');

      // A new BPM keeps the beat phase: new frame = old beat index x new beat length.
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      const b0 = await page.evaluate(() => window.demo.viewer.motion.beatFrames);
      await page.locator('#bpm').fill('100');
      await page.locator('#bpm').press('Enter');
      await page.waitForFunction(() => window.demo.app.bpm === 100 && Math.abs(window.demo.viewer.motion.beatFrames - 18) < 0.5);
      const f1 = await page.evaluate(() => window.demo.viewer.frame);
      const b1 = await page.evaluate(() => window.demo.viewer.motion.beatFrames);
      const loop = await page.evaluate(() => window.demo.viewer.loopFrames);
      const expected = ((f0 / b0) * b1) % loop;
      assert.ok(Math.abs(f1 - expected) < 1e-6, `BPM 120 -> 100: frame ${f0} -> ${f1}, expected ${expected}`);

      // Tap tempo: five taps ~0.4 s apart set about 150 BPM (the page times the taps itself).
      for (let i = 0; i < 5; i++) {
        await page.locator('#tap').dispatchEvent('pointerdown');
        if (i < 4) await page.waitForTimeout(400);
      }
      const tapped = await page.evaluate(() => window.demo.app.bpm);
      console.log(`# demo: five taps 400 ms apart -> ${tapped} BPM`);
      assert.ok(tapped >= 60 && tapped <= 150.5 && tapped !== 100, `tapped BPM ${tapped} (taps at most 150 BPM apart)`);
      assert.equal(Number(await page.locator('#bpm').inputValue()), tapped);
      await page.waitForFunction((b) => Math.abs(window.demo.viewer.motion.beatFrames - 1800 / b) < 0.5, tapped);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('groove mode: every setting a control; the body bounces on the beat, the feet stay; settings regenerate and reset', async () => {
    const { page, errors, context } = await openDemo();
    try {
      await page.locator('#mode').selectOption('groove');
      await page.waitForFunction(() => window.demo.app.motionMode === 'groove', null, { timeout: 30_000 });
      // the base choice plus 6 squat and 12 x 5 joint controls, labelled, grouped by joint
      assert.equal(await page.locator('#mode-controls .param').count(), 1 + 6 + 60);
      assert.equal(await page.locator('label[for="param-head.amp"]').textContent(), 'Amplitude');
      assert.equal(await page.locator('details[data-group="head"] > summary').textContent(), 'Head');
      assert.equal(await page.locator('input[data-param="squat.vertical"]').inputValue(), '3');
      const state = await page.evaluate(() => ({ loop: window.demo.viewer.loopFrames, beat: window.demo.viewer.motion.beatFrames,
        name: window.demo.app.motion.name, missing: window.demo.app.motion.missingBones }));
      assert.equal(state.beat, 15);
      assert.equal(state.loop, 240, '16 beats of the standing pose at 120 BPM');
      assert.deepEqual(state.missing, ['上半身3']);
      // in babylon-mmd (the page's runtime): the pelvis is lowest on the beat, the ankles stay put
      const sample = async (f) => {
        await showFrame(page, f);
        return { pelvis: await bonePosition(page, '下半身'), ankle: await bonePosition(page, '左足首') };
      };
      const ankles = [];
      for (const k of [2, 3, 4]) {
        const on = await sample(k * state.beat), off = await sample((k + 0.5) * state.beat);
        assert.ok(off.pelvis[1] - on.pelvis[1] > 0.3, `beat ${k}: pelvis ${on.pelvis[1]} on the beat, ${off.pelvis[1]} between`);
        ankles.push(on.ankle, off.ankle);
      }
      const spread = Math.max(...ankles.map((a) => Math.hypot(a[0] - ankles[0][0], a[1] - ankles[0][1], a[2] - ankles[0][2])));
      console.log(`# demo: groove on the standing mannequin, ankles within ${spread.toExponential(2)} units across beats`);
      assert.ok(spread < 0.05, `ankles moved ${spread}`);
      await page.screenshot({ path: join(OUT, 'groove.png') });

      // a setting regenerates the motion; the group's reset brings the default back
      const before = await page.evaluateHandle(() => window.demo.app.motion);
      await page.locator('details[data-group="head"] > summary').click();
      await page.locator('input[data-param="head.amp"]').fill('20');
      await page.waitForFunction((old) => window.demo.app.motion !== old, before, { timeout: 10_000 });
      assert.deepEqual(await page.evaluate(() => window.demo.app.motion.settings), { joints: { head: { amp: 20 } } });
      assert.ok(await page.locator('.param[data-key="head.amp"] .reset').isVisible());
      const changed = await page.evaluateHandle(() => window.demo.app.motion);
      await page.locator('button[data-reset-group="head"]').click();
      await page.waitForFunction((old) => window.demo.app.motion !== old, changed, { timeout: 10_000 });
      assert.deepEqual(await page.evaluate(() => window.demo.app.motion.settings), {});
      assert.equal(await page.locator('input[data-param="head.amp"]').inputValue(), '3');

      // the groove on the catwalk: the catwalk's loop, its keys kept
      await page.locator('select[data-param="grooveBase"]').selectOption('catwalk');
      await page.waitForFunction(() => window.demo.app.motion?.name?.startsWith('groove-catwalk'), null, { timeout: 30_000 });
      const walk = await page.evaluate(() => ({ loop: window.demo.viewer.loopFrames, copied: window.demo.app.motion.report.copiedKeys }));
      assert.ok(walk.loop > 0 && walk.copied > 0, JSON.stringify(walk));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('tracing mode: drag the IK target, add points, curve, progress, generate, play on the path, download', async () => {
    const { page, errors, context } = await openDemo();
    try {
      await tracingOn(page);
      const banner = page.locator('#errors');
      const cam = () => page.evaluate(() => {
        const c = window.demo.viewer.camera;
        return [c.alpha, c.beta, c.radius, c.target.x, c.target.y, c.target.z];
      });
      // Generating with no path says so in the banner.
      await page.locator('[data-action="trace.generate"]').click();
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await banner.textContent(), /Add at least two points/);
      await page.locator('#errors .close').click();
      assert.equal(await page.evaluate(() => window.demo.app.trace.phase), 'edit');

      // The sphere starts on the wrist; a mouse drag moves it and the arm reaches it, the camera stays.
      const rest = await bonePosition(page, '左手首');
      const start = await page.evaluate(() => window.demo.app.tracing.gizmo.position);
      assert.ok(distance(rest, start) < 1e-4, `the sphere starts on the wrist: ${start} vs ${rest}`);
      const cam0 = await cam();
      await page.screenshot({ path: join(OUT, 'tracing-start.png') });
      const d1 = await dragSphere(page, -70, -120);
      assert.ok(d1.off < 1e-3, `the wrist is on the sphere: ${d1.off}`);
      assert.deepEqual(await cam(), cam0, 'the camera did not orbit while the sphere was dragged');
      const wrist1 = await bonePosition(page, '左手首');
      console.log(`# demo tracing: a 139 px drag moved the target ${distance(d1.target, start).toFixed(2)} units; wrist on it within `
        + `${distance(wrist1, d1.target).toExponential(1)}`);
      assert.ok(distance(wrist1, rest) > 2, `the arm reached: wrist moved ${distance(wrist1, rest)} units`);
      const shown = await page.evaluate(() => window.demo.app.tracing.gizmo.screenPosition());
      const box = await canvasBox(page);
      assert.ok(Math.hypot(box.x + shown.x - d1.to.x, box.y + shown.y - d1.to.y) < 3, 'the sphere stays under the pointer');
      await page.screenshot({ path: join(OUT, 'tracing-drag.png') });

      // Three points: each the sphere's position, stored relative to 左腕.
      await page.locator('[data-action="trace.add"]').click();
      await page.locator('[data-action="trace.generate"]').click();
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await banner.textContent(), /Left hand: the path has 1 point/);
      await page.locator('#errors .close').click();
      await dragSphere(page, 60, -10);
      await page.locator('[data-action="trace.add"]').click();
      const d3 = await dragSphere(page, 10, 80);
      await page.locator('[data-action="trace.add"]').click();
      const drafts = await page.evaluate(() => ({ draft: window.demo.app.trace.drafts.leftHand,
        root: window.demo.app.tracing.session.rest.leftHand.root, shoulder: window.demo.viewer.bonePosition('左腕'),
        meshes: window.demo.app.tracing.gizmo.meshes.map((m) => m.name) }));
      assert.equal(drafts.draft.points.length, 3);
      assert.ok(distance(drafts.root, drafts.shoulder) < 1e-4, '左腕 rests where the session says');
      const last = drafts.draft.points[2].map((v, i) => v + drafts.root[i]);
      assert.ok(distance(last, d3.target) < 1e-4, `the point is the sphere's position relative to 左腕: ${last} vs ${d3.target}`);
      assert.deepEqual(drafts.meshes.filter((n) => n.startsWith('trace-point')).length, 3, 'three point spheres');
      assert.ok(drafts.meshes.some((n) => n.startsWith('trace-path')), 'the path is drawn');
      const linePath = await tracePath(page, 'leftHand');

      // Curve: the drawn path goes through the same points, another way.
      await page.locator('select[data-param="trace.mode"]').selectOption('curve');
      await page.waitForFunction(() => window.demo.app.trace.drafts.leftHand.mode === 'curve');
      const curvePath = await tracePath(page, 'leftHand');
      let apart = 0;
      for (let i = 0; i < curvePath.length; i += 3) apart = Math.max(apart, distanceToPolyline(curvePath.slice(i, i + 3), linePath));
      console.log(`# demo tracing: the curve leaves the line by up to ${apart.toFixed(2)} units`);
      assert.ok(apart > 0.1, `line and curve differ: ${apart}`);
      await page.screenshot({ path: join(OUT, 'tracing-curve.png') });

      // The progress slider moves the wrist along the curve.
      await page.locator('input[data-param="trace.progress"]').fill('0');
      await page.waitForFunction(() => window.demo.app.trace.progress === 0);
      const onCurve = async (t) => page.evaluate((tt) => {
        const { app, pm } = window.demo;
        const d = app.trace.drafts.leftHand;
        return app.tracing.session.world('leftHand', pm.sampleTrajectory(d.mode, d.points, tt));
      }, t);
      const wristAt = (p) => page.waitForFunction((q) => {
        const w = window.demo.viewer.bonePosition('左手首');
        return Math.hypot(w[0] - q[0], w[1] - q[1], w[2] - q[2]) < 1e-3;
      }, p, { timeout: 10_000 });
      await wristAt(await onCurve(0));
      const w0 = await bonePosition(page, '左手首');
      await page.locator('input[data-param="trace.progress"]').fill('0.5');
      await wristAt(await onCurve(0.5));
      const w5 = await bonePosition(page, '左手首');
      console.log(`# demo tracing: progress 0 -> 0.5 moved the wrist ${distance(w0, w5).toFixed(2)} units, onto the curve`);
      assert.ok(distance(w0, w5) > 1, `the wrist moved along the path: ${distance(w0, w5)}`);

      // Generate 5 keyframes: the baked VMD plays, looping; screenshots a beat apart differ.
      assert.equal(await page.locator('input[data-param="trace.count"]').inputValue(), '5');
      await page.locator('[data-action="trace.generate"]').click();
      await page.waitForFunction(() => window.demo.app.motion?.name === 'trace-120' && window.demo.app.trace.phase === 'play',
        null, { timeout: 20_000 });
      const play = await page.evaluate(() => ({ loop: window.demo.viewer.loopFrames, beat: window.demo.viewer.motion.beatFrames,
        playing: window.demo.viewer.playing, loopOn: window.demo.viewer.loop, info: document.querySelector('#info').textContent }));
      assert.equal(play.beat, 15);
      assert.equal(play.loop, 90, '4 beats on the path, a beat of hold, a beat back');
      assert.ok(play.playing && play.loopOn, 'playing, looping');
      assert.match(play.info, /Keyframes\s*5 \(Left hand\)/);
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 3);
      assert.notEqual(await page.evaluate(() => window.demo.viewer.frame), f0, 'the clock runs');
      const { stats: px } = await bodyShotsAt(page, play.beat, 2 * play.beat, ['tracing-beat-1.png', 'tracing-beat-2.png']);
      await page.screenshot({ path: join(OUT, 'tracing-play.png') });
      console.log(`# demo tracing: ${(100 * px.diff).toFixed(1)} % of the body region's pixels differ a beat apart`);
      assert.ok(px.diff > 0.003, `a beat apart the body region changes: ${(100 * px.diff).toFixed(2)} %`);
      // The wrist of the babylon-mmd model lies on the path while it plays (fractional frames too).
      const path = await tracePath(page, 'leftHand');
      const offs = [];
      for (const f of [0, 7.5, 15, 23.3, 36.7, 44, 60]) {
        await showFrame(page, f);
        offs.push(distanceToPolyline(await bonePosition(page, '左手首'), path));
      }
      console.log(`# demo tracing: wrist off the path while playing: ${offs.map((d) => d.toExponential(1)).join(', ')}`);
      assert.ok(Math.max(...offs) < 0.1, `the wrist follows the path: ${offs}`);
      await showFrame(page, 75); // the hold: still at the end of the path
      assert.ok(distanceToPolyline(await bonePosition(page, '左手首'), path) < 0.1, 'the hold keeps the end');

      // Download VMD: the bytes playing, read by babylon-mmd, keying the traced arm.
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
      assert.equal(download.suggestedFilename(), 'trace-120.vmd');
      const dlPath = join(OUT, 'trace-120.vmd');
      await download.saveAs(dlPath);
      const bytes = new Uint8Array(readFileSync(dlPath));
      assert.deepEqual(Array.from(bytes), await page.evaluate(() => Array.from(window.demo.app.motion.vmd)));
      const parsed = await parseVmdBabylon(bytes);
      const keyed = new Set(parsed.bones.map((k) => k.name));
      for (const n of ['左腕', '左ひじ']) assert.ok(keyed.has(n), `${n} keyed (${[...keyed].join(' ')})`);
      assert.ok(parsed.bones.filter((k) => k.name === '左腕').length >= 60, 'per-frame keys on the traced arm');
      assert.equal((await loadVmdAnimation(bytes)).endFrame, 90);

      // Back to editing shows the live pose; "Play keyframes" plays them again.
      await page.locator('[data-action="trace.play"]').click();
      await page.waitForFunction(() => window.demo.app.trace.phase === 'edit' && window.demo.app.motion.name === 'trace-pose');
      await page.locator('[data-action="trace.play"]').click();
      await page.waitForFunction(() => window.demo.app.trace.phase === 'play' && window.demo.app.motion.name === 'trace-120');
      assert.equal(await banner.isVisible(), false);
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('tracing on a model without 左腕 says so in the banner; the other limbs still trace', async () => {
    const { page, errors, context } = await openDemo();
    try {
      // The mannequin with 左腕 renamed (UTF-16LE 左腕 -> 左翼).
      const bytes = await page.evaluate(() => {
        const b = window.demo.pm.mannequinPmx().slice();
        let n = 0;
        for (let i = 0; i + 4 <= b.length; i++) {
          if (b[i] === 0xe6 && b[i + 1] === 0x5d && b[i + 2] === 0x55 && b[i + 3] === 0x81) { b[i + 2] = 0xfc; b[i + 3] = 0x7f; n++; }
        }
        return n === 1 ? Array.from(b) : null;
      });
      assert.ok(bytes, 'one 左腕 in the mannequin');
      await page.locator('#file-model').setInputFiles({ name: 'no-left-arm.pmx', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      await page.waitForFunction(() => window.demo.app.model?.name === 'no-left-arm.pmx', null, { timeout: 30_000 });
      await tracingOn(page);
      const banner = page.locator('#errors');
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await banner.textContent(), /Left hand: this model cannot trace it, it has no 左腕/);
      assert.equal(await page.evaluate(() => window.demo.app.tracing.gizmo.target.isEnabled()), false, 'no sphere to drag');
      await page.locator('#errors .close').click();
      await page.locator('[data-action="trace.add"]').click();
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await banner.textContent(), /no 左腕/);
      await page.locator('#errors .close').click();
      // The right hand traces on this model.
      await page.locator('select[data-param="trace.limb"]').selectOption('rightHand');
      assert.ok((await dragSphere(page, 50, -100, '右手首')).off < 1e-3, 'the right wrist reaches the sphere');
      await page.locator('[data-action="trace.add"]').click();
      await dragSphere(page, 60, 40, '右手首');
      await page.locator('[data-action="trace.add"]').click();
      await page.locator('[data-action="trace.generate"]').click();
      await page.waitForFunction(() => window.demo.app.motion?.name === 'trace-120', null, { timeout: 20_000 });
      const path = await tracePath(page, 'rightHand');
      await showFrame(page, 30);
      assert.ok(distanceToPolyline(await bonePosition(page, '右手首'), path) < 0.1);
      assert.equal(await banner.isVisible(), false);
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('tracing on yw_test_model.pmx (loaded from the picker): the wrist follows the drawn curve', { skip: NO_FIXTURES }, async () => {
    const { page, errors, context } = await openDemo();
    try {
      const dir = fixturePath('pmx/yw_test_model');
      await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
      await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx', null, { timeout: 30_000 });
      await tracingOn(page);
      const rest = await bonePosition(page, '左手首');
      const start = await page.evaluate(() => window.demo.app.tracing.gizmo.position);
      assert.ok(distance(rest, start) < 1e-3, `the sphere starts on this model's wrist: ${start} vs ${rest}`);
      for (const [dx, dy] of [[-70, -120], [60, -10], [10, 80]]) {
        const d = await dragSphere(page, dx, dy);
        assert.ok(d.off < 1e-3, `the wrist reaches the sphere: ${d.off}`);
        await page.locator('[data-action="trace.add"]').click();
      }
      await page.locator('select[data-param="trace.mode"]').selectOption('curve');
      await page.locator('input[data-param="trace.count"]').fill('8');
      await page.locator('[data-action="trace.generate"]').click();
      await page.waitForFunction(() => window.demo.app.motion?.name === 'trace-120' && window.demo.viewer.loopFrames === 135,
        null, { timeout: 20_000 });
      const path = await tracePath(page, 'leftHand');
      const offs = [];
      for (const f of [0, 20.5, 50, 77.3, 105]) {
        await showFrame(page, f);
        offs.push(distanceToPolyline(await bonePosition(page, '左手首'), path));
      }
      console.log(`# demo tracing on yw_test_model: wrist off the curve ${offs.map((d) => d.toExponential(1)).join(', ')}`);
      assert.ok(Math.max(...offs) < 0.1, `${offs}`);
      await showFrame(page, 50);
      await page.screenshot({ path: join(OUT, 'tracing-user-model.png') });
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('"Download VMD" gives a file babylon-mmd parses (and plays on yw_test_model)', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
      const path = join(OUT, download.suggestedFilename());
      await download.saveAs(path);
      const bytes = new Uint8Array(readFileSync(path));
      const inPage = await page.evaluate(() => Array.from(window.demo.app.motion.vmd));
      assert.deepEqual(Array.from(bytes), inPage, 'the download is the motion playing');
      assert.match(download.suggestedFilename(), /\.vmd$/);
      const parsed = await parseVmdBabylon(bytes);
      assert.ok(parsed.bones.length > 10, `${parsed.bones.length} bone keys`);
      const names = new Set(parsed.bones.map((k) => k.name));
      for (const n of ['左足ＩＫ', '右足ＩＫ']) assert.ok(names.has(n), `${n} keyed (${[...names].join(' ')})`);
      const anim = await loadVmdAnimation(bytes);
      assert.ok(anim.endFrame > 0);
      console.log(`# demo: downloaded ${bytes.length} bytes, ${parsed.bones.length} bone keys, parsed by babylon-mmd`);
      if (NO_FIXTURES) {
        console.log(`# ${NO_FIXTURES}: not played on yw_test_model`);
        assert.deepEqual(errors, []);
        return;
      }
      // Played by babylon-mmd (MmdRuntime, NullEngine) on the shared model: the feet move.
      const ctx = await createMmdScene(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
      try {
        const loop = await page.evaluate(() => window.demo.viewer.loopFrames);
        const samples = Array.from({ length: 16 }, (_, i) => Math.round((i * loop) / 16));
        const poses = await evaluateWorldPositions(ctx, bytes, samples);
        const ankle = boneIndex(ctx, '左足首');
        const ys = poses.map((p) => p[3 * ankle + 1]);
        const range = Math.max(...ys) - Math.min(...ys);
        console.log(`# demo: played on yw_test_model by babylon-mmd: left ankle height range ${range.toFixed(2)} units`);
        assert.ok(range > 0.2, `the left ankle rises and falls: range ${range}`);
      } finally {
        disposeMmdScene(ctx);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a PMX with its textures and a VMD, loaded from file pickers, play', { skip: NO_FIXTURES }, async () => {
    const { page, errors, context } = await openDemo();
    try {
      const dir = fixturePath('pmx/yw_test_model');
      await page.locator('#file-model').setInputFiles([
        join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png'),
      ]);
      await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx', null, { timeout: 30_000 });
      const textures = await page.evaluate(() => window.demo.viewer.model.container.textures.map((t) => t.name));
      assert.ok(textures.length >= 1, `textures loaded from the picked files: ${textures.join(', ')}`);
      // The catwalk carries on with this model's bone names (yw_test_model has 114 bones, no morphs).
      assert.equal(await page.evaluate(() => window.demo.app.mode), 'catwalk');
      const model = await page.evaluate(() => ({ bones: window.demo.app.model.boneNames, morphs: window.demo.app.model.morphNames }));
      assert.equal(model.bones.length, 114);
      assert.ok(model.bones.includes('左足ＩＫ'));
      assert.deepEqual(model.morphs, []);

      await page.locator('#file-vmd').setInputFiles(fixturePath('vmd/mei_wait.vmd'));
      await page.waitForFunction(() => window.demo.app.mode === 'vmd' && window.demo.app.motion?.name === 'mei_wait',
        null, { timeout: 30_000 });
      const info = await page.evaluate(() => ({
        loop: window.demo.viewer.loopFrames, playing: window.demo.viewer.playing,
        info: document.querySelector('#info').textContent,
      }));
      assert.equal(info.loop, 120, 'mei_wait.vmd is 120 frames');
      assert.ok(info.playing);
      assert.match(info.info, /yw_test_model\.pmx/);
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 4);
      const f1 = await page.evaluate(() => window.demo.viewer.frame);
      assert.notEqual(f0, f1, 'playing');
      // mei_wait moves the upper body: the head is somewhere else 30 frames later.
      await showFrame(page, 10);
      const h0 = await bonePosition(page, '頭');
      const clip = await bodyClip(page);
      const shotA = await page.screenshot({ clip });
      await showFrame(page, 60);
      const h1 = await bonePosition(page, '頭');
      const shotB = await page.screenshot({ clip });
      writeFileSync(join(OUT, 'mei-wait-10.png'), shotA);
      writeFileSync(join(OUT, 'mei-wait-60.png'), shotB);
      assert.ok(Math.hypot(h1[0] - h0[0], h1[1] - h0[1], h1[2] - h0[2]) > 0.01, `head moved: ${h0} -> ${h1}`);
      const s = await pixelStats(page, shotA);
      assert.ok(s.a.std > 4, `model visible: ${JSON.stringify(s.a)}`);
      await page.screenshot({ path: join(OUT, 'demo-user-model.png') });

      // The folder picker (webkitdirectory) gives the same model with relative texture paths
      // (playwright-core uploads a directory since 1.45; package.json has 1.65).
      await page.locator('#file-folder').setInputFiles(dir);
      await page.waitForFunction(() => window.demo.viewer.model?.container.textures.length > 0
        && window.demo.app.motion?.name === 'mei_wait', null, { timeout: 30_000 });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a VRM Animation, a mocap BVH and an FBX, picked as motions, are retargeted to the model and play with the report line', async () => {
    const { page, errors, context } = await openDemo();
    try {
      await page.locator('#file-vmd').setInputFiles(join(REPO_ROOT, 'tests/data/three-vrm-test.vrma'));
      await page.waitForFunction(() => window.demo.app.mode === 'vmd' && window.demo.app.userVmd?.retarget, null, { timeout: 30_000 });
      const r = await page.evaluate(() => ({ report: window.demo.app.userVmd.retarget, loop: window.demo.viewer.loopFrames,
        note: document.querySelector('#mode-controls').textContent }));
      assert.equal(r.report.format, 'vrma');
      assert.equal(r.loop, 90, 'the clip is 3 s');
      assert.match(r.note, /three-vrm-test\.vrma \(vrma, vrm names\) on this model: 20 bones/);
      // the right arm waves: the right wrist is somewhere else half a second later; the feet stay on the floor
      await showFrame(page, 15);
      const w0 = await bonePosition(page, '右手首'), a0 = await bonePosition(page, '左足首');
      await showFrame(page, 45);
      const w1 = await bonePosition(page, '右手首'), a1 = await bonePosition(page, '左足首');
      assert.ok(Math.hypot(w1[0] - w0[0], w1[1] - w0[1], w1[2] - w0[2]) > 0.5, `the wrist moved: ${w0} -> ${w1}`);
      assert.ok(Math.hypot(a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]) < 0.01, `the foot stayed: ${a0} -> ${a1}`);
      // the Keypoints inset draws the source behind the result and says how close their angles are
      await page.evaluate(() => window.demo.app.setKeypoints(true));
      await page.waitForFunction(() => window.demo.app.keypoints.ghost && window.demo.app.keypoints.data, null, { timeout: 30_000 });
      const kp = await page.evaluate(() => ({ frames: window.demo.app.keypoints.ghost.frameCount, agreement: window.demo.app.keypoints.agreement,
        info: document.querySelector('#info').textContent }));
      assert.equal(kp.frames, 91);
      assert.ok(kp.agreement < 0.1, `source against result: ${kp.agreement}`);
      assert.match(kp.info, /angles within 0\.0\d\d/);
      await showFrame(page, 45);
      await page.screenshot({ path: join(OUT, 'retarget-keypoints.png') });
      await page.evaluate(() => window.demo.app.setKeypoints(false));
      if (!NO_FIXTURES) {
        // a mocap walk on a loaded model: retargeted again when the model changes
        await page.locator('#file-vmd').setInputFiles(fixturePath('bvh/cmu_131_01.bvh'));
        await page.waitForFunction(() => window.demo.app.userVmd?.retarget?.format === 'bvh', null, { timeout: 30_000 });
        const dir = fixturePath('pmx/yw_test_model');
        await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
        await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx' && window.demo.app.userVmd?.retarget?.naming === 'cmu' &&
          window.demo.app.motion?.name === 'cmu_131_01', null, { timeout: 60_000 });
        const walk = await page.evaluate(() => ({ report: window.demo.app.userVmd.retarget, mode: window.demo.app.mode }));
        assert.equal(walk.mode, 'vmd');
        assert.ok(walk.report.feet.maxSlide <= 0.005 && walk.report.stances[0] >= 2, JSON.stringify(walk.report.feet));
        await showFrame(page, 120);
        const p0 = await bonePosition(page, '下半身');
        await showFrame(page, 200);
        const p1 = await bonePosition(page, '下半身');
        assert.ok(Math.hypot(p1[0] - p0[0], p1[2] - p0[2]) > 2, `the hips walk: ${p0} -> ${p1}`);
        // the same walk as an FBX file
        const fbx = bvhToFbx(parseBvh(readFileSync(fixturePath('bvh/cmu_131_01.bvh'), 'utf8')));
        await page.locator('#file-vmd').setInputFiles({ name: 'cmu_131_01.fbx', mimeType: 'application/octet-stream', buffer: Buffer.from(fbx) });
        await page.waitForFunction(() => window.demo.app.userVmd?.retarget?.format === 'fbx', null, { timeout: 30_000 });
        const fromFbx = await page.evaluate(() => window.demo.app.userVmd.retarget);
        assert.equal(fromFbx.naming, 'cmu');
        assert.equal(fromFbx.frames, walk.report.frames);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a performance file is scored against the playing motion, with each body part and a curve', async () => {
    const { page, errors, context } = await openDemo();
    try {
      // the catwalk that is playing, as a dancer's keypoint file: a perfect performance
      const ndjson = await page.evaluate(async () => {
        const { app } = window.demo;
        await app.pm.loadAsync('keypoints');
        return app.pm.writeKeypoints(app.pm.toKeypoints(app.motion.vmd, { format: 'vmd' }));
      });
      await page.locator('#file-score').setInputFiles({ name: 'me.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(ndjson) });
      await page.waitForFunction(() => window.demo.app.scoring?.name === 'me.ndjson', null, { timeout: 30_000 });
      const self = await page.evaluate(() => ({ score: window.demo.app.scoring.result.score, text: document.querySelector('#score-value').textContent,
        rows: document.querySelectorAll('#score-parts tr').length, hidden: document.querySelector('#score-panel').hidden }));
      assert.ok(self.score >= 99, `the motion against itself: ${self.score}`);
      assert.equal(self.hidden, false);
      assert.equal(self.rows, 5);
      assert.match(self.text, /^(99\.\d|100\.0) \/ 100 for me\.ndjson/);
      await page.locator('#score-panel').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, 'scoring.png') });
      // another motion (an arm wave) scores low
      await page.locator('#file-score').setInputFiles(join(REPO_ROOT, 'tests/data/three-vrm-test.vrma'));
      await page.waitForFunction(() => window.demo.app.scoring?.name === 'three-vrm-test.vrma', null, { timeout: 30_000 });
      const other = await page.evaluate(() => window.demo.app.scoring.result.score);
      assert.ok(other < 60, `an arm wave against the catwalk: ${other}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('broken files show a readable message and nothing freezes', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const banner = page.locator('#errors');
      // A broken PMX: the right magic, then garbage.
      const broken = Buffer.concat([Buffer.from('PMX '), Buffer.from([0, 0, 0, 0x40, 8]), Buffer.alloc(200, 0xff)]);
      await page.locator('#file-model').setInputFiles({ name: 'broken.pmx', mimeType: 'application/octet-stream', buffer: broken });
      await banner.waitFor({ state: 'visible', timeout: 20_000 });
      const text1 = await banner.textContent();
      console.log(`# demo: broken PMX -> "${text1.replace(/\s+/g, ' ').trim()}"`);
      assert.match(text1, /broken\.pmx/);
      assert.match(text1, /Could not load the model/);
      // The mannequin is still there and still walking.
      assert.equal(await page.evaluate(() => window.demo.app.model.builtIn), true);
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 3);
      assert.notEqual(await page.evaluate(() => window.demo.viewer.frame), f0, 'still playing');
      await page.screenshot({ path: join(OUT, 'error-broken-pmx.png') });

      // Dismiss, then a file that is not a VMD.
      await page.locator('#errors .close').click();
      assert.equal(await banner.isVisible(), false);
      await page.locator('#file-vmd').setInputFiles({ name: 'notes.vmd', mimeType: 'text/plain', buffer: Buffer.from('this is not a motion file\n'.repeat(4)) });
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      const text2 = await banner.textContent();
      console.log(`# demo: non-VMD -> "${text2.replace(/\s+/g, ' ').trim()}"`);
      assert.match(text2, /notes\.vmd/);
      assert.match(text2, /Could not read the motion/);
      assert.equal(await page.evaluate(() => window.demo.app.mode), 'catwalk', 'the catwalk keeps playing');

      // A dropped file of an unknown kind (drag and drop path, synthetic DataTransfer).
      await page.locator('#errors .close').click();
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['hello'], 'readme.txt', { type: 'text/plain' }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await banner.textContent(), /readme\.txt/);
      const pageErrors = errors.filter((e) => e.startsWith('pageerror'));
      assert.deepEqual(pageErrors, [], 'no uncaught exceptions');
    } finally {
      await context.close();
    }
  });

  test('the Keypoints toggle overlays the MediaPipe skeleton of the playing motion, in sync; off removes it', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const overlay = page.locator('#kp-overlay');
      const toggle = page.locator('#kp-toggle');
      assert.equal(await toggle.isVisible(), true, 'the toggle is offered (this core has toKeypoints)');
      assert.equal(await toggle.isChecked(), false, 'off by default');
      assert.equal(await overlay.isVisible(), false);
      assert.doesNotMatch(await page.locator('#info').textContent(), /Leg drive/);
      const beat = await page.evaluate(() => window.demo.viewer.motion.beatFrames);
      await showFrame(page, 2 * beat);
      const box = await overlay.boundingBox() ?? null;
      assert.equal(box, null, 'no overlay box while off');

      await keypointsOn(page);
      const kp = await page.evaluate(() => {
        const { data, source } = window.demo.app.keypoints;
        return { frames: data.frameCount, stats: data.stats, loop: window.demo.viewer.loopFrames,
          sameMotion: source.vmd === window.demo.app.motion.vmd, info: document.querySelector('#info').textContent };
      });
      console.log(`# demo keypoints: ${kp.frames} frames for a ${kp.loop}-frame loop, legs ${kp.stats.legs}, `
        + `${kp.stats.ignoredBones} ignored bones`);
      assert.ok(kp.sameMotion, 'computed from the motion that is playing');
      assert.equal(kp.frames, kp.loop + 1, 'one keypoint frame per VMD frame of the loop (0..loop)');
      assert.equal(kp.stats.legs, 'ik', 'the catwalk drives its legs with 足ＩＫ');
      assert.equal(kp.stats.nanCount + kp.stats.outOfRange, 0);
      assert.match(kp.info, /Keypoints\s*\d+ frames/);
      assert.match(kp.info, /Leg drive\s*IK/);
      assert.match(kp.info, /Ignored bones\s*0/);
      assert.match(kp.info, /Keypoint skeleton\s*MMD standard/);
      assert.equal(await overlay.isVisible(), true);

      // Two frames a beat apart: the inset is drawn (not blank) and its points moved.
      const at = async (f) => {
        await showFrame(page, f);
        return page.evaluate((frame) => {
          const o = window.demo.app.keypoints;
          const i = Math.round(frame);
          let err = 0;
          for (let k = 0; k < 99; k++) err = Math.max(err, Math.abs(o.sample.points[k] - o.data.points[99 * i + k]));
          return { screen: Array.from(o.screen), syncError: err };
        }, f);
      };
      const a = await at(2 * beat);
      const shotA = await overlay.screenshot();
      const b = await at(3 * beat);
      const shotB = await overlay.screenshot();
      writeFileSync(join(OUT, 'keypoints-beat-2.png'), shotA);
      writeFileSync(join(OUT, 'keypoints-beat-3.png'), shotB);
      await page.screenshot({ path: join(OUT, 'demo-keypoints.png') });
      assert.ok(a.syncError < 1e-6 && b.syncError < 1e-6, `the inset shows the keypoint frame of the playhead: ${a.syncError}, ${b.syncError}`);
      let moved = 0;
      for (let i = 0; i < 33; i++) moved = Math.max(moved, Math.hypot(a.screen[2 * i] - b.screen[2 * i], a.screen[2 * i + 1] - b.screen[2 * i + 1]));
      const s = await pixelStats(page, shotA, shotB);
      console.log(`# demo keypoints: inset luminance std ${s.a.std.toFixed(1)}, ${s.a.colours} colours; a beat later `
        + `a point moved ${moved.toFixed(1)} px, ${(100 * s.diff).toFixed(1)} % of the inset's pixels differ`);
      assert.ok(s.a.std > 8 && s.a.colours > 20, `the inset is drawn: ${JSON.stringify(s.a)}`);
      assert.ok(moved > 3, `the drawn points move a beat apart: ${moved} px`);
      assert.ok(s.diff > 0.005, `the inset's pixels change a beat apart: ${(100 * s.diff).toFixed(2)} %`);
      // Interpolated between the 30 fps keypoint frames at a fractional playhead.
      await showFrame(page, 2 * beat + 0.5);
      const half = await page.evaluate((f) => {
        const o = window.demo.app.keypoints;
        const i = Math.floor(f);
        let err = 0;
        for (let k = 0; k < 99; k++) {
          err = Math.max(err, Math.abs(o.sample.points[k] - 0.5 * (o.data.points[99 * i + k] + o.data.points[99 * (i + 1) + k])));
        }
        return err;
      }, 2 * beat + 0.5);
      assert.ok(half < 1e-6, `midway between two keypoint frames: ${half}`);

      // A new motion (hip sway) recomputes the keypoints from the new bytes.
      const old = await page.evaluateHandle(() => window.demo.app.keypoints.data);
      await page.locator('input[data-param="hipSway"]').fill('0');
      await page.waitForFunction((o) => window.demo.app.keypoints.data && window.demo.app.keypoints.data !== o
        && window.demo.app.keypoints.source.vmd === window.demo.app.motion.vmd, old, { timeout: 10_000 });

      // Off: the inset goes and the 3D view shows through where it was.
      const rect = await overlay.boundingBox();
      const withInset = await page.screenshot({ clip: rect });
      await toggle.uncheck();
      assert.equal(await overlay.isVisible(), false);
      await frames(page, 2);
      const without = await page.screenshot({ clip: rect });
      writeFileSync(join(OUT, 'keypoints-off.png'), without);
      // The inset's left-side blue (#5fb3ff) is on its lines and labels, and nowhere in the scene there.
      const blueWith = await colourCount(page, withInset, [0x5f, 0xb3, 0xff]);
      const blueWithout = await colourCount(page, without, [0x5f, 0xb3, 0xff]);
      console.log(`# demo keypoints: pixels of the left-side blue in the inset's region: on ${blueWith}, off ${blueWithout}`);
      assert.ok(blueWith > 100 && blueWithout === 0, `turning it off removes the drawing: ${blueWith} -> ${blueWithout} blue pixels`);
      assert.doesNotMatch(await page.locator('#info').textContent(), /Leg drive/);
      assert.equal(await page.locator('#errors').isVisible(), false);
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('a VMD with a name MMD cut inside a double-byte character plays, and the page shows it with its bytes', async () => {
    const { page, errors, context } = await openDemo();
    try {
      // a morph named ヘッドセット消 + the first byte of し (15 bytes, as MMD cut it), 0xFD padding
      const bytes = await page.evaluate(() => {
        const pm = window.demo.pm;
        const cut = [0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5a, 0x83, 0x62, 0x83, 0x67, 0x8f, 0xc1, 0x82];
        const vmd = {
          bones: { names: ['センター'], nameIndex: [0, 0], frames: [0, 30], positions: [0, 0, 0, 0, 1, 0],
                   rotations: [0, 0, 0, 1, 0, 0, 0, 1], interpolations: new Uint8Array(128).fill(20) },
          morphs: { names: [pm.decodeShiftJis(new Uint8Array(cut))], rawNames: [new Uint8Array(cut)], nameIndex: [0], frames: [10], weights: [1] },
        };
        const written = pm.writeVmd(vmd);
        if (pm.readVmd(written).morphs.rawNames[0].join() !== cut.join()) throw new Error('the name was not written as stored');
        return Array.from(written);
      });
      await page.locator('#file-vmd').setInputFiles({ name: 'cut.vmd', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      await page.waitForFunction(() => window.demo.app.mode === 'vmd' && window.demo.app.motion?.name === 'cut', null, { timeout: 20_000 });
      const info = await page.locator('#info').textContent();
      console.log(`# demo: damaged name -> "${info.replace(/\s+/g, ' ').trim()}"`);
      assert.match(info, /Names not in Shift-JIS/);
      assert.ok(info.includes('ヘッドセット消\ufffd <83 77 83 62 83 68 83 5A 83 62 83 67 8F C1 82>'), info);
      assert.equal(await page.locator('#errors').isVisible(), false);
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 3);
      assert.notEqual(await page.evaluate(() => window.demo.viewer.frame), f0, 'playing');
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('keypoints: a motion the converter rejects shows its message and keeps playing', async () => {
    const { page, errors, context } = await openDemo();
    try {
      await keypointsOn(page);
      // One key at frame 60 000 (33 minutes): babylon-mmd plays it, the keypoints stop at 54 000 frames.
      const bytes = await page.evaluate(() => Array.from(window.demo.pm.writeVmd({
        bones: { count: 1, names: ['センター'], nameIndex: [0], frames: [60_000], positions: [0, 1, 0], rotations: [0, 0, 0, 1],
          interpolations: new Uint8Array(64).fill(20) },
      })));
      await page.locator('#file-vmd').setInputFiles({ name: 'long.vmd', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      const banner = page.locator('#errors');
      await banner.waitFor({ state: 'visible', timeout: 20_000 });
      const text = await banner.textContent();
      console.log(`# demo keypoints: rejected motion -> "${text.replace(/\s+/g, ' ').trim()}"`);
      assert.match(text, /Could not compute the keypoints of long/);
      assert.match(text, /60001 frames exceed the limit of 54000/);
      const state = await page.evaluate(() => ({ mode: window.demo.app.mode, name: window.demo.app.motion?.name,
        data: window.demo.app.keypoints.data, loop: window.demo.viewer.loopFrames }));
      assert.equal(state.mode, 'vmd');
      assert.equal(state.name, 'long');
      assert.equal(state.loop, 60_000);
      assert.equal(state.data, null);
      const f0 = await page.evaluate(() => window.demo.viewer.frame);
      await frames(page, 3);
      assert.notEqual(await page.evaluate(() => window.demo.viewer.frame), f0, 'still playing');
      assert.equal(await page.locator('#kp-overlay').isVisible(), true, 'the inset stays, saying it has no keypoints');
      await page.screenshot({ path: join(OUT, 'keypoints-rejected.png') });
      // Back to the catwalk: keypoints again.
      await page.locator('#mode').selectOption('catwalk');
      await page.waitForFunction(() => window.demo.app.keypoints.data?.frameCount > 0, null, { timeout: 10_000 });
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('keypoints on a loaded model use its own skeleton (yw_test_model.pmx, mei_wait.vmd)', { skip: NO_FIXTURES }, async () => {
    const { page, errors, context } = await openDemo();
    try {
      await page.locator('#kp-toggle').check();
      const dir = fixturePath('pmx/yw_test_model');
      await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
      await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx'
        && window.demo.app.keypoints.source?.model === window.demo.app.model && window.demo.app.keypoints.data, null, { timeout: 30_000 });
      await page.locator('#file-vmd').setInputFiles(fixturePath('vmd/mei_wait.vmd'));
      await page.waitForFunction(() => window.demo.app.motion?.name === 'mei_wait'
        && window.demo.app.keypoints.source?.vmd === window.demo.app.motion.vmd && window.demo.app.keypoints.data, null, { timeout: 30_000 });
      const r = await page.evaluate(() => {
        const { data } = window.demo.app.keypoints;
        const { vmd } = window.demo.app.motion;
        const mannequin = window.demo.pm.toKeypoints(vmd, { format: 'vmd' });
        const own = window.demo.pm.toKeypoints(vmd, { format: 'vmd', model: window.demo.app.model.bytes });
        let diff = 0, ownDiff = 0;
        for (let k = 0; k < data.points.length; k++) {
          diff = Math.max(diff, Math.abs(data.points[k] - mannequin.points[k]));
          ownDiff = Math.max(ownDiff, Math.abs(data.points[k] - own.points[k]));
        }
        return { frames: data.frameCount, legs: data.stats.legs, ignored: data.stats.ignoredBones, diff, ownDiff,
          hasModel: !!window.demo.app.model.bytes, info: document.querySelector('#info').textContent };
      });
      console.log(`# demo keypoints: mei_wait on yw_test_model: ${r.frames} frames, legs ${r.legs}, `
        + `max difference to the mannequin ${r.diff.toFixed(4)}`);
      assert.ok(r.hasModel, 'the page keeps the PMX bytes');
      assert.equal(r.frames, 121);
      assert.equal(r.legs, 'ik');
      assert.match(r.info, /Keypoint skeleton\s*this model/);
      assert.match(r.info, /Leg drive\s*IK/);
      // the model's own proportions, not the mannequin's (without a model a VMD plays on the mannequin)
      assert.equal(r.ownDiff, 0, 'the keypoints of the VMD on this model');
      assert.ok(r.diff > 0.01, `model skeleton vs the mannequin: ${r.diff}`);
      await showFrame(page, 40);
      await page.screenshot({ path: join(OUT, 'demo-keypoints-user-model.png') });
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('the Model rig section shows the loaded model\'s analysis (pm.analyzeRig): mannequin, then yw_test_model.pmx', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const section = async () => page.evaluate(() => ({
        rig: window.demo.app.rig,
        rows: [...document.querySelectorAll('#rig-info dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]),
        visible: !!document.querySelector('#rig-section').offsetParent,
      }));
      const m = await section();
      assert.ok(m.visible, 'the section is on the page');
      const row = (r, label) => r.rows.find(([k]) => k === label)?.[1];
      const legs = [m.rig.legs.left, m.rig.legs.right];
      assert.equal(row(m, 'Naming'), 'mmd');
      assert.equal(row(m, 'Leg IK'), '左足ＩＫ / 右足ＩＫ (under 全ての親)');
      assert.equal(row(m, 'Knees at rest'), `${legs.map((l) => l.kneeJoint.restBendDeg.toFixed(1)).join(' / ')}° (opens to ${legs.map((l) => l.kneeJoint.bendMinDeg.toFixed(1)).join(' / ')}°)`);
      assert.equal(row(m, 'Leg reach (MMD IK)'), `${legs.map((l) => l.reach.max.toFixed(3)).join(' / ')} of ${legs.map((l) => l.length.toFixed(3)).join(' / ')} units`);
      assert.equal(row(m, 'IK chains'), '4 (leg 2, toe 2)');
      assert.equal(row(m, 'Missing roles'), 'none');
      await page.locator('#rig-section').scrollIntoViewIfNeeded();
      await page.locator('#rig-section').screenshot({ path: join(OUT, 'demo-rig.png') });
      // the page's analysis is the library's
      const again = await page.evaluate(() => JSON.stringify(window.demo.pm.analyzeRig(window.demo.pm.mannequinPmx())));
      assert.equal(JSON.stringify(m.rig), again);
      if (!NO_FIXTURES) {
        const dir = fixturePath('pmx/yw_test_model');
        await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
        await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx', null, { timeout: 30_000 });
        const y = await section();
        assert.equal(row(y, 'Leg IK'), '左足ＩＫ / 右足ＩＫ (under 左足IK親, 右足IK親)');
        assert.match(row(y, 'Knees at rest'), /^2\.9 \/ 2\.9° \(opens to 3\.4 \/ 3\.4°\)$/);
        assert.equal(row(y, 'Leg reach (MMD IK)'), '10.169 / 10.169 of 10.174 / 10.174 units');
        assert.equal(row(y, 'IK chains'), '4 (leg 2, toe 2)');
        // labels follow the language
        await page.locator('#lang').selectOption('ja');
        assert.match(await page.locator('#rig-info').textContent(), /足の届く距離（MMD IK）/);
      }
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('idle mode: the change from the catwalk blends; the character stands at ease, feet planted; Lifelike blinks and looks; Physics builds', async () => {
    const { page, errors, context } = await openDemo();
    try {
      // the change from the walk plays a transition into the idle: the feet planted or stepping
      await page.locator('#mode').selectOption('idle');
      await page.waitForFunction(() => window.demo.app.motionMode === 'idle' && window.demo.viewer.motion?.next, null, { timeout: 30_000 });
      const tr = await page.evaluate(() => window.demo.app.transition.report);
      assert.ok(tr.frames === 30 && tr.landing.maxSlide < 0.003 && tr.landing.maxError < 0.01, JSON.stringify(tr));
      await page.waitForFunction(() => !window.demo.viewer.motion.next, null, { timeout: 30_000 });
      const idle = await page.evaluate(() => ({ loop: window.demo.viewer.loopFrames, name: window.demo.app.motion.name,
        body: window.demo.app.motion.body, params: document.querySelectorAll('#mode-controls .param').length }));
      assert.ok(idle.loop >= 900 && idle.name === 'idle-1' && idle.params === 7, JSON.stringify(idle));
      assert.ok(idle.body.hands.left.clearance > 0 && idle.body.hands.right.clearance > 0);
      // in babylon-mmd (the page's runtime): the ankles stay, the pelvis and the wrists move
      const at = [];
      for (const f of [60, 240, 420, 600, 780]) {
        await showFrame(page, f);
        at.push({ ankle: await bonePosition(page, '左足首'), pelvis: await bonePosition(page, '下半身'), wrist: await bonePosition(page, '右手首') });
      }
      const spread = (k) => Math.max(...at.map((p) => distance(p[k], at[0][k])));
      assert.ok(spread('ankle') < 0.01, `the ankle moves ${spread('ankle')}`);
      assert.ok(spread('pelvis') > 0.05 && spread('wrist') > 0.05, `pelvis ${spread('pelvis')}, wrist ${spread('wrist')}`);
      await page.screenshot({ path: join(OUT, 'idle.png') });
      // a parameter regenerates (no transition within a mode)
      const before = await page.evaluateHandle(() => window.demo.app.motion);
      await page.locator('input[data-param="seed"]').fill('7');
      await page.waitForFunction((old) => window.demo.app.motion !== old && window.demo.app.motion.name === 'idle-7', before, { timeout: 10_000 });
      assert.equal(await page.evaluate(() => window.demo.viewer.motion.next), null);

      // Lifelike: the blink morph closes now and then, the eyes turn, while the motion plays on
      await page.evaluate(() => window.demo.viewer.play());
      await page.locator('#opt-lifelike').check();
      const seen = await page.evaluate(async () => {
        const m = window.demo.viewer.model.mmdModel, eyes = m.runtimeBones.find((b) => b.name === '両目').linkedBone;
        let shut = 0, turned = 0;
        for (let i = 0; i < 240; i++) {
          await new Promise((ok) => requestAnimationFrame(ok));
          if (m.morph.getMorphWeight('まばたき') > 0.5) shut++;
          if (Math.abs(eyes.rotationQuaternion.w) < 0.99999) turned++;
        }
        return { shut, turned, layer: !!window.demo.app.lifelike };
      });
      assert.ok(seen.layer && seen.turned > 100, JSON.stringify(seen));
      await page.locator('#opt-lifelike').uncheck();
      assert.equal(await page.evaluate(() => window.demo.app.lifelike), null);

      // Physics: a model with rigid bodies is built with babylon-mmd's physics (its wasm fetched then)
      if (!NO_FIXTURES) {
        const dir = fixturePath('pmx/yw_test_model');
        await page.locator('#file-model').setInputFiles([join(dir, 'yw_test_model.pmx'), join(dir, 'tex/diffuse.png'), join(dir, 'tex/sph.png')]);
        await page.waitForFunction(() => window.demo.app.model?.name === 'yw_test_model.pmx', null, { timeout: 60_000 });
        const phys = await page.evaluate(() => ({ on: document.querySelector('#opt-physics').checked, built: window.demo.viewer.model.physics,
          bodies: window.demo.viewer.model.rigidBodies }));
        assert.deepEqual(phys, { on: true, built: true, bodies: 19 });
        await page.locator('#opt-physics').uncheck();
        await frames(page, 3);
        assert.equal(await page.evaluate(() => Math.max(...window.demo.viewer.model.mmdModel.rigidBodyStates)), 0, 'physics off: the bodies follow the bones');
      }
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await context.close();
    }
  });

  test('docs/demo.png (PM_UPDATE_DOCS_SCREENSHOT=1)', { skip: !process.env.PM_UPDATE_DOCS_SCREENSHOT && 'set PM_UPDATE_DOCS_SCREENSHOT=1 to rewrite docs/demo.png' }, async () => {
    const { page, context } = await demo.open({ viewport: { width: 1040, height: 660 } });
    try {
      const beat = await page.evaluate(() => window.demo.viewer.motion.beatFrames);
      await showFrame(page, 4.5 * beat); // mid-step
      await page.evaluate(() => window.demo.viewer.play()); // shown playing, as the page opens
      const png = await page.screenshot({ path: join(REPO_ROOT, 'docs/demo.png') });
      console.log(`# demo: wrote docs/demo.png (${png.length} bytes)`);
      assert.ok(png.length < 300 * 1024, `docs/demo.png is ${png.length} bytes (keep it under 300 KB)`);
      // The keypoint inset at its full size with the body beside it (docs/demo.md, Keypoints).
      await page.setViewportSize(VIEWPORT);
      await keypointsOn(page);
      await showFrame(page, 4.5 * beat);
      const view = await page.locator('#viewport').boundingBox();
      const body = await bodyClip(page);
      const x = Math.max(view.x, body.x - 40);
      const kpPng = await page.screenshot({ path: join(REPO_ROOT, 'docs/demo-keypoints.png'),
        clip: { x, y: view.y, width: view.x + view.width - x, height: view.height } });
      console.log(`# demo: wrote docs/demo-keypoints.png (${kpPng.length} bytes)`);
      assert.ok(kpPng.length < 200 * 1024, `docs/demo-keypoints.png is ${kpPng.length} bytes (keep it under 200 KB)`);
    } finally {
      await context.close();
    }
  });

  test('labels follow the browser language and can be switched', async () => {
    const { page, errors, context } = await demo.open({ viewport: VIEWPORT, locale: 'ja-JP' });
    try {
      assert.equal(await page.locator('#lang').inputValue(), 'ja');
      assert.equal(await page.locator('label[for="param-hipSway"]').textContent(), '腰の揺れ');
      assert.equal(await page.locator('#download').textContent(), 'VMDをダウンロード');
      for (const [lang, label] of [['zh-CN', '胯部摆动'], ['zh-TW', '胯部擺動'], ['ko', '엉덩이 흔들림'], ['en', 'Hip sway']]) {
        await page.locator('#lang').selectOption(lang);
        assert.equal(await page.locator('label[for="param-hipSway"]').textContent(), label, lang);
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

test('docs/demo.png stays under 300 KB', { skip: !existsSync(join(REPO_ROOT, 'docs/demo.png')) && 'SKIP: no docs/demo.png yet' }, () => {
  assert.ok(statSync(join(REPO_ROOT, 'docs/demo.png')).size < 300 * 1024);
});

test('docs/demo-keypoints.png stays under 200 KB', { skip: !existsSync(join(REPO_ROOT, 'docs/demo-keypoints.png')) && 'SKIP: no docs/demo-keypoints.png yet' }, () => {
  assert.ok(statSync(join(REPO_ROOT, 'docs/demo-keypoints.png')).size < 200 * 1024);
});
