// Dance scoring through the package and the CLI, as a page and a user run it: a mocap walk against itself
// from keypoints, from the file and from MediaPipe-style landmark frames (mirrored by a selfie camera),
// live frame by frame, and `procmotion score`; bad input names its problem.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const BVH = join(FIXTURES, 'bvh/cmu_131_01.bvh'), VMD = join(FIXTURES, 'vmd/mei_greeting.vmd');
const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const SKIP = existsSync(BVH) ? false : 'SKIP: ../shared/fixtures not found';
const pm = await createProcMotion({ load: FEATURE_MODULES });

// MediaPipe's left and right, swapped by a mirror
const MIRROR = [0, 4, 5, 6, 1, 2, 3, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17, 20, 19, 22, 21, 24, 23, 26, 25, 28, 27, 30, 29, 32, 31];
const landmarks = (kp, mirror = false) => Array.from({ length: kp.frameCount }, (_, f) => Array.from({ length: 33 }, (_, i) => {
  const k = mirror ? MIRROR[i] : i, at = (f * 33 + k) * 3;
  return { x: mirror ? 1 - kp.points[at] : kp.points[at], y: kp.points[at + 1], z: kp.points[at + 2], visibility: kp.visibility[f * 33 + k] };
}));

test('a walk scores 100 against itself from keypoints, its file and mirrored camera landmarks', { skip: SKIP }, () => {
  const bvh = readFileSync(BVH);
  const kp = pm.toKeypoints(bvh, { fps: 30 });
  const a = pm.scoreDance(kp, kp);
  assert.ok(a.score > 99.9, `${a.score}`);
  assert.equal(a.perFrame.length, kp.frameCount);
  assert.equal(a.match.length, kp.frameCount);
  assert.equal(a.offset, 0);
  assert.deepEqual(Object.keys(a.joints), ['left_arm', 'right_arm', 'left_leg', 'right_leg', 'torso']);
  const b = pm.scoreDance(bvh, kp, { referenceOptions: { fps: 30 } });
  assert.ok(b.score > 99.9);
  const selfie = landmarks(kp, true);
  assert.ok(pm.scoreDance(kp, selfie, { mirrored: true }).score > 99, 'the mirror turned back');
  const unturned = pm.scoreDance(kp, selfie).score;
  assert.ok(unturned < 60, `a mirrored performance left as it is scores ${unturned}`);
  // the walk at 60 fps is resampled to the reference's 30
  const fast = pm.scoreDance(kp, bvh, { performanceOptions: { fps: 60 } });
  assert.ok(fast.resampled && fast.score > 99, `${fast.score}`);
});

test('the live scorer follows a performance pushed frame by frame', { skip: SKIP }, () => {
  const kp = pm.toKeypoints(readFileSync(BVH), { fps: 30 });
  const live = pm.createDanceScorer(kp);
  let now;
  for (const frame of landmarks(kp)) now = live.push(frame);
  live.dispose();
  assert.equal(now.frames, kp.frameCount);
  assert.equal(now.scored, kp.frameCount - 2);
  assert.ok(now.score > 99 && Math.abs(now.referenceFrame - (kp.frameCount - 3)) <= 2, JSON.stringify(now));
  assert.throws(() => live.push(landmarks(kp)[0]), /after dispose/);
});

test('bad input names its problem', { skip: SKIP }, () => {
  const kp = pm.toKeypoints(readFileSync(BVH), { fps: 30 });
  assert.throws(() => pm.scoreDance(kp, []), (e) => e.name === 'ProcMotionError' && /frames/.test(e.message));
  const bad = landmarks(kp).slice(0, 10);
  bad[4][15].x = NaN;
  assert.throws(() => pm.scoreDance(kp, { ...kp, points: Float32Array.from(kp.points, (v, i) => (i === 4 * 99 + 46 ? NaN : v)) }),
    /frame 4/);
  assert.throws(() => pm.scoreDance(kp, kp, { band: 2 }), /options.band must be a number in 0..1/);
  assert.throws(() => pm.scoreDance(kp, [[1, 2]]), /33 points/);
  assert.throws(() => pm.createDanceScorer(kp).push({}), /33 landmarks/);
});

test('procmotion score prints the score as JSON', { skip: SKIP || (existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built') }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-score-'));
  try {
    const perf = join(dir, 'walk.ndjson');
    writeFileSync(perf, pm.writeKeypoints(pm.toKeypoints(readFileSync(BVH), { fps: 30 })));
    let r = spawnSync(CLI, ['score', BVH, perf, '--per-frame'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.score > 99 && out.frames === 249 && out.perFrame.length === 249 && out.joints.left_arm.score > 99, r.stdout.slice(0, 200));
    r = spawnSync(CLI, ['score', VMD, perf], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).score < 60);
    r = spawnSync(CLI, ['score', BVH], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /needs a reference and a performance/);
    r = spawnSync(CLI, ['score', BVH, join(dir, 'missing.ndjson')], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /missing\.ndjson/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
