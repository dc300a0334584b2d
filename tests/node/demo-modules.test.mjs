// The web demo's DOM-free modules in Node: the i18n table, language choice, the tempo range (tap
// tempo is the package's, tests/node/beats.test.mjs), the Music control's helpers, the PMX
// texture-table reader behind referenceFiles, the curve sampler (against babylon-mmd's own
// evaluation of the same VMD), and the keypoint overlay's tables and playhead lookup.
import './support/register.mjs';

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, fixturesAvailable, readFixture, createMmdScene, evaluateWorldPositions, boneIndex, disposeMmdScene } from './support/babylon.mjs';

const SRC = join(REPO_ROOT, 'web-demo/src');
const { LANGUAGES, TABLE, pickLanguage, setLanguage, t } = await import(join(SRC, 'i18n.js'));
const { clampBpm, fitBpm } = await import(join(SRC, 'tempo.js'));
const music = await import(join(SRC, 'music-core.js'));
const { pmxTexturePaths, classify, extensionOf } = await import(join(SRC, 'files.js'));
const { CATWALK_PARAMS } = await import(join(SRC, 'modes/catwalk-params.js'));
const kpHelpers = await import(join(SRC, 'keypoints.js'));

const NO_FIXTURES = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found';

test('every label has all five languages, none empty, placeholders consistent', () => {
  assert.deepEqual(LANGUAGES.map((l) => l.id), ['en', 'ja', 'zh-CN', 'zh-TW', 'ko']);
  for (const [key, row] of Object.entries(TABLE)) {
    const vars = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    for (const { id } of LANGUAGES) {
      assert.ok(typeof row[id] === 'string' && row[id].trim(), `${key}: ${id} missing`);
      assert.equal(vars(row[id]), vars(row.en), `${key}: ${id} placeholders differ from en`);
    }
  }
});

test('every i18n key the page uses exists', () => {
  const used = new Set();
  const html = readFileSync(join(REPO_ROOT, 'web-demo/index.html'), 'utf8');
  for (const m of html.matchAll(/data-i18n(?:-title|-aria|-placeholder)?="([^"]+)"/g)) used.add(m[1]);
  for (const f of ['main.js', 'errors.js', 'curves.js', 'modes/catwalk.js', 'modes/vmd.js', 'keypoint-overlay.js', 'music.js']) {
    const src = readFileSync(join(SRC, f), 'utf8');
    for (const m of src.matchAll(/\bt\('([\w.]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/(?:showError|i18n: )\(?'([\w.]+)'/g)) used.add(m[1]);
  }
  for (const p of CATWALK_PARAMS) {
    used.add(`p.${p.key}`);
    for (const o of p.options ?? []) used.add(`p.${p.key}.${o}`);
  }
  for (const k of ['curve.leftFoot', 'curve.rightFoot', 'curve.hipSway', 'curve.beats', 'mode.catwalk', 'mode.vmd']) used.add(k);
  for (const r of kpHelpers.ANGLE_ROWS) used.add(`kp.angle.${r.key}`);
  const missing = [...used].filter((k) => !(k in TABLE));
  assert.deepEqual(missing, []);
  assert.ok(used.size > 40, `${used.size} keys found`);
});

test('t() fills placeholders in the current language', () => {
  setLanguage('ja');
  assert.equal(t('err.model', { name: 'a.pmx', detail: 'x' }), 'モデル a.pmx を読み込めませんでした: x');
  setLanguage('en');
  assert.equal(t('time.beat', { beat: '1.0', beats: 16 }), 'beat 1.0 / 16');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('the browser language picks the table language', () => {
  assert.equal(pickLanguage(['ja-JP', 'en']), 'ja');
  assert.equal(pickLanguage(['zh-TW']), 'zh-TW');
  assert.equal(pickLanguage(['zh-HK']), 'zh-TW');
  assert.equal(pickLanguage(['zh-Hant-TW']), 'zh-TW');
  assert.equal(pickLanguage(['zh']), 'zh-CN');
  assert.equal(pickLanguage(['zh-Hans-CN']), 'zh-CN');
  assert.equal(pickLanguage(['ko-KR']), 'ko');
  assert.equal(pickLanguage(['fr-FR', 'de']), 'en');
  assert.equal(pickLanguage(['fr-FR', 'ko']), 'ko');
  assert.equal(pickLanguage([]), 'en');
});

test('the tempo range: a detected or tapped tempo folds by octaves into 60..200, rounded to 0.1', () => {
  assert.equal(clampBpm(10), 60);
  assert.equal(clampBpm(250), 200);
  assert.equal(fitBpm(124.04), 124);
  assert.equal(fitBpm(55), 110, 'a slow song is walked at twice its tempo');
  assert.equal(fitBpm(210), 105, 'a fast one at half');
  assert.equal(fitBpm(29.5), 118);
  assert.equal(fitBpm(430), 107.5);
  for (const bad of [0, -120, NaN, Infinity, null, undefined, '120']) assert.equal(fitBpm(bad), null, String(bad));
});

test('music: WAV sniffing, deinterleaving, time labels', () => {
  const riff = (tag, kind = 'WAVE') => new Uint8Array([...tag, 0, 0, 0, 0, ...kind].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)));
  assert.ok(music.isWavBytes(riff('RIFF')));
  assert.ok(music.isWavBytes(riff('RF64')));
  assert.ok(!music.isWavBytes(riff('RIFF', 'AVI ')));
  assert.ok(!music.isWavBytes(new TextEncoder().encode('OggS\0\x02...........')));
  assert.ok(!music.isWavBytes(new Uint8Array(3)));
  const [l, r] = music.deinterleave(Float32Array.from([1, -1, 2, -2, 3, -3]), 2);
  assert.deepEqual([...l], [1, 2, 3]);
  assert.deepEqual([...r], [-1, -2, -3]);
  assert.equal(music.formatTime(0), '0:00.0');
  assert.equal(music.formatTime(65.26), '1:05.3');
  assert.equal(music.formatTime(NaN), '0:00.0');
  assert.deepEqual(classify([{ path: 'a/song.MP3', file: {} }, { path: 'b.wav', file: {} }, { path: 'c.txt', file: {} }]).audio.map((e) => e.path),
    ['a/song.MP3', 'b.wav']);
});

test('music lane: the window keeps the playhead at 30 %; beat marks and bars; envelope columns keep short onsets', () => {
  assert.deepEqual(music.laneWindow(10, 60), { t0: 7.6, t1: 15.6 });
  assert.deepEqual(music.laneWindow(1, 5), { t0: 0, t1: 5 }, 'a short song is shown whole');
  const beats = Float64Array.from({ length: 40 }, (_, i) => 0.5 + i * 0.5);
  const bars = Uint8Array.from(beats, (_, i) => ((i + 3) % 4) + 1); // beat 1 is the first downbeat
  const marks = music.beatMarks(beats, bars, 3.9, 6.1, 220);
  assert.deepEqual(marks.map((m) => m.time), [4, 4.5, 5, 5.5, 6]);
  assert.ok(marks.every((m) => Math.abs(m.x - ((m.time - 3.9) / 2.2) * 220) < 1e-9));
  assert.deepEqual(marks.filter((m) => m.downbeat).map((m) => [m.time, m.bar]), [[5, 3]], 'the bar number counts from the first downbeat');
  assert.deepEqual(music.beatMarks(beats, bars, 30, 40, 100), []);
  const env = new Float32Array(1000);
  env[503] = 0.9; // one 10 ms onset at 5.03 s
  const cols = music.envelopeColumns(env, 100, 4, 6, 20); // 10 frames a column
  assert.equal(cols.length, 20);
  assert.equal(Math.max(...cols), env[503]);
  assert.equal(cols.indexOf(Math.max(...cols)), 10);
  assert.ok(music.envelopeColumns(env, 100, 9, 12, 30).slice(10).every((v) => v === 0), 'nothing after the song');
});

test('PMX texture table of yw_test_model.pmx; garbage is not a PMX', { skip: NO_FIXTURES }, () => {
  const paths = pmxTexturePaths(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  assert.ok(Array.isArray(paths), 'parsed');
  assert.deepEqual(paths.map((p) => p.replace(/\\/g, '/').toLowerCase()).sort(), ['tex/diffuse.png', 'tex/sph.png']);
  assert.equal(pmxTexturePaths(new Uint8Array([1, 2, 3])), null);
  const truncated = readFixture('pmx/yw_test_model/yw_test_model.pmx').subarray(0, 5000);
  assert.equal(pmxTexturePaths(truncated), null);
});

test('dropped files: the model, the motions and the rest', () => {
  const e = (path) => ({ path, file: { name: path.split('/').pop() } });
  const c = classify([e('m/tex/a.png'), e('m/sub/other.pmx'), e('m/model.PMX'), e('walk.vmd'), e('notes.txt')]);
  assert.equal(c.model.path, 'm/model.PMX');
  assert.deepEqual(c.motions.map((x) => x.path), ['walk.vmd']);
  assert.deepEqual(c.others.map((x) => x.path), ['m/tex/a.png', 'notes.txt']);
  assert.equal(extensionOf('a/b.c/Model.PmX'), '.pmx');
  assert.equal(extensionOf('README'), '');
});

/** A VMD moving 左足ＩＫ up and down and センター sideways with uneven Bezier curves. */
function curvyVmd(pm) {
  const frames = [0, 17, 40, 60];
  const ys = [0, 2.5, 0.4, 0];
  const xs = [0, -0.8, 0.6, 0];
  const curves = [[20, 20, 107, 107], [100, 10, 30, 120], [5, 90, 120, 40], [64, 0, 64, 127]];
  const names = ['左足ＩＫ', 'センター'];
  const nameIndex = [], fr = [], positions = [], rotations = [];
  const interpolations = new Uint8Array(64 * 8);
  let k = 0;
  for (let b = 0; b < 2; b++) {
    for (let i = 0; i < frames.length; i++, k++) {
      nameIndex.push(b);
      fr.push(frames[i]);
      positions.push(b ? xs[i] : 0, b ? 0 : ys[i], 0);
      rotations.push(0, 0, 0, 1);
      const [x1, y1, x2, y2] = curves[i];
      for (let a = 0; a < 4; a++) {
        const base = 64 * k + 16 * a;
        interpolations[base] = x1; interpolations[base + 4] = y1;
        interpolations[base + 8] = x2; interpolations[base + 12] = y2;
      }
      interpolations[64 * k + 2] = 0; interpolations[64 * k + 3] = 0; // physics toggle: on
    }
  }
  return pm.writeVmd({ bones: { count: k, names, nameIndex, frames: fr, positions, rotations, interpolations } });
}

test('the curve view evaluates a VMD as babylon-mmd does (Bezier-keyed 左足ＩＫ Y and センター X)', { skip: NO_FIXTURES }, async () => {
  const { sampleCurves } = await import(join(SRC, 'curves.js'));
  const { FEATURE_MODULES, createProcMotion } = await import(join(REPO_ROOT, 'js-glue/index.js'));
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const ctx = await createMmdScene(readFixture('pmx/yw_test_model/yw_test_model.pmx'));
  try {
    for (const [label, bytes, loop] of [['synthetic', curvyVmd(pm), 60], ['mei_wait.vmd', readFixture('vmd/mei_wait.vmd'), 120]]) {
      const s = sampleCurves(pm.readVmd(bytes), loop, 48);
      assert.equal(s.frames.length, 49);
      assert.ok(s.leftFoot && s.rightFoot && s.hipSway || label === 'synthetic');
      const frames = Array.from(s.frames);
      const poses = await evaluateWorldPositions(ctx, bytes, frames);
      // The 左足ＩＫ and センター bones hang from 全ての親 only (no rotation in these motions), so
      // their world offsets from frame 0 are the animated values.
      const check = (bone, axis, ours, what) => {
        const b = boneIndex(ctx, bone);
        const v0 = poses[0][3 * b + axis];
        let worst = 0;
        let range = 0;
        for (let i = 0; i < frames.length; i++) {
          const theirs = poses[i][3 * b + axis] - v0;
          range = Math.max(range, Math.abs(theirs));
          worst = Math.max(worst, Math.abs(theirs - (ours[i] - ours[0])));
        }
        assert.ok(range > 0.01, `${label}: ${what} moves (range ${range}), so the check means something`);
        assert.ok(worst < 1e-3, `${label}: ${what} differs from babylon-mmd by up to ${worst}`);
      };
      if (label === 'synthetic') check('左足ＩＫ', 1, s.leftFoot, '左足ＩＫ Y');
      check('センター', 0, s.hipSway, 'センター X');
    }
  } finally {
    disposeMmdScene(ctx);
  }
});

test('the panel offers every catwalk parameter of the core, with the core\'s defaults', async () => {
  const glue = await import(join(REPO_ROOT, 'js-glue/index.js'));
  const { catwalkState } = await import(join(SRC, 'modes/catwalk-state.js'));
  const { SPEED_PARAM, catwalkDefaults } = await import(join(SRC, 'modes/catwalk-params.js'));
  const pm = await glue.createProcMotion({ load: glue.FEATURE_MODULES });
  const core = pm.generateCatwalkVmd({}, 120, [], null).params;
  const panel = catwalkState(catwalkDefaults(), SPEED_PARAM.default);
  const skip = new Set(['bpm']); // the tempo field, not a panel parameter
  for (const name of glue.CATWALK_PARAMETERS) {
    assert.ok(name in panel, `the panel has no control for ${name}`);
    assert.deepEqual(panel[name], core[name], `${name}: panel default ${JSON.stringify(panel[name])}, core ${JSON.stringify(core[name])}`);
  }
  for (const name of Object.keys(panel)) {
    assert.ok(glue.CATWALK_PARAMETERS.includes(name) || skip.has(name), `the panel sends ${name}, which the core does not read`);
  }
  // What the panel sends at its defaults generates the same motion as no parameters at all.
  const a = pm.generateCatwalkVmd(panel, 120, [], null).vmd;
  const b = pm.generateCatwalkVmd({}, 120, [], null).vmd;
  assert.deepEqual(a, b);
});

test('keypoint overlay: MediaPipe Pose connections of the 33 points, left/right sides', async () => {
  const { POSE_CONNECTIONS, pointSide, connectionSide } = kpHelpers;
  const { FEATURE_MODULES, createProcMotion } = await import(join(REPO_ROOT, 'js-glue/index.js'));
  const names = (await createProcMotion({ load: FEATURE_MODULES })).keypointNames;
  assert.equal(names.length, 33);
  // MediaPipe's POSE_CONNECTIONS: 35 distinct pairs over indices 0..32, every point on one.
  assert.equal(POSE_CONNECTIONS.length, 35);
  const key = ([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`;
  assert.equal(new Set(POSE_CONNECTIONS.map(key)).size, 35);
  const touched = new Set(POSE_CONNECTIONS.flat());
  assert.deepEqual([...touched].sort((a, b) => a - b), Array.from({ length: 33 }, (_, i) => i));
  // The sides follow the core's point names, and the table is its own mirror image.
  for (let i = 0; i < 33; i++) {
    const side = names[i].startsWith('left_') ? -1 : names[i].startsWith('right_') ? 1 : 0;
    const mouth = names[i] === 'mouth_left' ? -1 : names[i] === 'mouth_right' ? 1 : null;
    assert.equal(pointSide(i), mouth ?? side, `${i} ${names[i]}`);
  }
  const mirrorName = (n) => (n.includes('left') ? n.replace('left', 'right') : n.replace('right', 'left'));
  const mirror = (i) => names.indexOf(mirrorName(names[i]));
  const all = new Set(POSE_CONNECTIONS.map(key));
  for (const [a, b] of POSE_CONNECTIONS) assert.ok(all.has(key([mirror(a), mirror(b)])), `mirror of ${a}-${b}`);
  // The limbs: shoulder-elbow-wrist, hip-knee-ankle-heel-foot index on both sides.
  const named = (a, b) => all.has(key([names.indexOf(a), names.indexOf(b)]));
  for (const s of ['left', 'right']) {
    for (const [a, b] of [['shoulder', 'elbow'], ['elbow', 'wrist'], ['shoulder', 'hip'], ['hip', 'knee'], ['knee', 'ankle'],
      ['ankle', 'heel'], ['heel', 'foot_index'], ['ankle', 'foot_index'], ['wrist', 'pinky'], ['wrist', 'index'], ['wrist', 'thumb']]) {
      assert.ok(named(`${s}_${a}`, `${s}_${b}`), `${s}_${a} - ${s}_${b}`);
    }
  }
  // Across the body: shoulders, hips and mouth; everything else stays on one side.
  const across = POSE_CONNECTIONS.filter((c) => connectionSide(c) === 0).map(key).sort();
  assert.deepEqual(across, ['11-12', '23-24', '9-10']);
  assert.equal(connectionSide([0, 1]), -1);
  assert.equal(connectionSide([0, 4]), 1);
});

test('keypoint overlay: the sample at the playhead (frame lookup by time, interpolation)', () => {
  const { keypointFrameAt, sampleKeypoints, createKeypointSample, cosineToDegrees, fitView } = kpHelpers;
  const ts = Float64Array.from([0, 1000 / 30, 2000 / 30, 100]);
  const at = (ms) => { const o = keypointFrameAt(ts, ms); return [o.i0, o.i1, Number(o.f.toFixed(6))]; };
  assert.deepEqual(at(-5), [0, 0, 0], 'before the first frame: the first');
  assert.deepEqual(at(0), [0, 0, 0]);
  assert.deepEqual(at(1000 / 30), [1, 2, 0], 'on a frame: that frame');
  assert.deepEqual(at(50), [1, 2, 0.5]);
  assert.deepEqual(at(2000 / 30 + (100 - 2000 / 30) / 4), [2, 3, 0.25], 'uneven spacing');
  assert.deepEqual(at(100), [3, 3, 0], 'the last frame');
  assert.deepEqual(at(1e9), [3, 3, 0], 'after the last frame: the last');
  assert.deepEqual(at(NaN), [0, 0, 0]);
  assert.deepEqual([keypointFrameAt(new Float64Array(0), 10).i0], [0]);
  // out is reused: no object per call
  const out = { i0: 0, i1: 0, f: 0 };
  assert.equal(keypointFrameAt(ts, 50, out), out);

  // Two frames: points and angles interpolate, visibility comes from the nearer frame.
  const kp = { frameCount: 2, timestamps: Float64Array.from([0, 1000 / 30]), points: new Float32Array(198),
    visibility: new Float32Array(66), angles: new Float32Array(20) };
  for (let k = 0; k < 99; k++) { kp.points[k] = 0.2; kp.points[99 + k] = 0.6; }
  kp.visibility.fill(1, 0, 33); kp.visibility.fill(0, 33);
  kp.angles.fill(1, 0, 10); kp.angles.fill(-1, 10);
  const sample = createKeypointSample();
  assert.ok(sampleKeypoints(kp, 0.25 * (1000 / 30), sample));
  assert.ok(Math.abs(sample.points[50] - 0.3) < 1e-6, String(sample.points[50]));
  assert.equal(sample.visibility[7], 1);
  assert.ok(Math.abs(sample.angles[3] - 0.5) < 1e-6);
  sampleKeypoints(kp, 0.75 * (1000 / 30), sample);
  assert.ok(Math.abs(sample.points[98] - 0.5) < 1e-6);
  assert.equal(sample.visibility[7], 0);
  assert.equal(sampleKeypoints({ frameCount: 0 }, 0, sample), false);
  assert.equal(sampleKeypoints(null, 0, sample), false);

  assert.equal(cosineToDegrees(1), 0);
  assert.equal(cosineToDegrees(0), 90);
  assert.equal(cosineToDegrees(-1), 180);
  assert.equal(cosineToDegrees(-1.0000001), 180);
  assert.equal(cosineToDegrees(0.5), 60);
  assert.equal(cosineToDegrees(NaN), 0);

  // The view fits every visible point of every frame, centred, with the same scale for the motion.
  const v = fitView(kp, 200, 100, undefined, 0);
  assert.ok(Math.abs(v.cx - 0.2) < 1e-6 && Math.abs(v.cy - 0.2) < 1e-6, 'frame 1 is invisible: only frame 0 counts');
  assert.ok(Math.abs(v.scale - 100 / 0.25) < 1e-3, `a still figure is not zoomed beyond a quarter of the image: ${v.scale}`);
  kp.visibility.fill(1);
  const w = fitView(kp, 100, 100, undefined, 0.1);
  assert.ok(Math.abs(w.cx - 0.4) < 1e-6 && Math.abs(w.scale - 100 / (0.4 * 1.2)) < 1e-3, JSON.stringify(w));
});
