// The catwalk against real walks: every style's features (bench/walk-features.mjs, through toKeypoints as
// a camera would see it) on every zoo model, the mannequin and the shared models lie in its range: the
// runway's defaults in the range of four motion-captured stylised walks, the feminine and casual styles
// in their families' (Mixamo walks). Each control moves its feature the way its name says.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createProcMotion, FEATURE_MODULES } from '../../js-glue/index.js';
import { REAL_WALK_RANGES, WALK_FAMILIES, familyRange, outsideRealRange, walkFeatures } from '../../bench/walk-features.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);

/** The features of a catwalk `state` on model bytes (null: the mannequin). */
function features(state, bytes = null) {
  const r = pm.generateCatwalkVmd(state, null, null, null, bytes ? { skeleton: bytes } : undefined);
  return walkFeatures(pm.toKeypoints(r.vmd, bytes ? { model: bytes } : {}));
}

test('every style lies in its range of real walks on every model', { skip: zooSkip() }, () => {
  const models = [...everyModel(pm)];
  assert.ok(models.length >= 30, `${models.length} models`);
  for (const style of Object.keys(WALK_FAMILIES)) {
    const range = style === 'runway' ? REAL_WALK_RANGES : familyRange(style);
    for (const m of models) {
      const f = features({ style }, m.bytes());
      const bad = outsideRealRange(f, range);
      assert.deepEqual(bad, [], `${style} on ${m.id}`);
    }
  }
});

test('the defaults are the runway style', () => {
  const a = pm.generateCatwalkVmd({}, null, null, null);
  const b = pm.generateCatwalkVmd({ style: 'runway' }, null, null, null);
  assert.deepEqual(a.vmd, b.vmd);
  assert.equal(a.params.style, 'runway');
  assert.equal(pm.generateCatwalkVmd({ style: 'feminine' }, null, null, null).params.hipSway, 0.25);
  // a value given wins over the style's
  assert.equal(pm.generateCatwalkVmd({ style: 'feminine', hipSway: 0.9 }, null, null, null).params.hipSway, 0.9);
});

test('elbowBend bends the elbows, more at the front of the swing', () => {
  const straight = features({ elbowBend: 0 }), relaxed = features({}), bent = features({ elbowBend: 1 });
  assert.ok(straight.elbowMean < 12, `elbowBend 0: ${straight.elbowMean}`);
  assert.ok(relaxed.elbowMean > straight.elbowMean + 15 && bent.elbowMean > relaxed.elbowMean + 15,
    `${straight.elbowMean} ${relaxed.elbowMean} ${bent.elbowMean}`);
  assert.ok(bent.elbowRange > relaxed.elbowRange + 10, `${relaxed.elbowRange} ${bent.elbowRange}`);
});

test('the hands trail the forearms: 手首 keys that lag the elbow, none with straight arms', () => {
  // the angle a bone's keys turn away from its first key, per frame (keys at whole frames, sampled linearly)
  const turn = (vmd, name) => {
    const v = pm.readVmd(vmd), b = v.bones.names.indexOf(name), out = new Map();
    for (let i = 0; i < v.bones.count; i++) {
      if (v.bones.nameIndex[i] !== b) continue;
      const q = v.bones.rotations.subarray(4 * i, 4 * i + 4);
      out.set(v.bones.frames[i], 2 * Math.acos(Math.min(1, Math.abs(q[3]))) * 180 / Math.PI);
    }
    return out;
  };
  const relaxed = pm.generateCatwalkVmd({}, null, null, null);
  assert.ok(relaxed.usedBones.includes('左手首') && relaxed.usedBones.includes('右手首'));
  const wrist = turn(relaxed.vmd, '左手首'), elbow = turn(relaxed.vmd, '左ひじ');
  const peak = (m) => [...m.entries()].reduce((a, e) => (e[1] > a[1] ? e : a), [0, -Infinity]);
  const [wf, wa] = peak(wrist), [ef] = peak(elbow);
  assert.ok(wa > 5 && wa < 20, `the hand bends ${wa} degrees at most`);
  // the elbow peaks with the arm in front; the hand's largest bend is not there but on the way
  const step = relaxed.stepFrames, lag = (((wf - ef) % (2 * step)) + 2 * step) % (2 * step);
  assert.ok(lag > 0.2 * step && lag < 1.8 * step, `the hand's peak ${lag} frames from the elbow's (a step: ${step})`);
  const straight = pm.generateCatwalkVmd({ elbowBend: 0 }, null, null, null);
  assert.ok([...turn(straight.vmd, '左手首').values()].every((a) => a < 1e-3), 'elbowBend 0: the hands hold still');
});

test('torsoTwist turns the shoulders against the pelvis above 0 and with it below', () => {
  const against = features({ torsoTwist: 0.5 }), withHips = features({ torsoTwist: -0.5 }), none = features({ torsoTwist: 0 });
  assert.ok(against.shoulderWithPelvis < -0.5, `${against.shoulderWithPelvis}`);
  assert.ok(withHips.shoulderWithPelvis > 0.5, `${withHips.shoulderWithPelvis}`);
  assert.ok(none.shoulderYaw < 0.5 * against.shoulderYaw, `${none.shoulderYaw} ${against.shoulderYaw}`);
});

test('torsoSway keeps the shoulders over the centre; headFollow 0 keeps the head level', () => {
  assert.ok(features({ torsoSway: 1 }).headOverPelvis < 0.3);
  assert.ok(features({ torsoSway: 0 }).headOverPelvis > 0.9);
  // the head's roll in the image: the line between the ears
  const roll = (state) => {
    const kp = pm.toKeypoints(pm.generateCatwalkVmd({ pelvisDrop: 1, torsoSway: 1, ...state }, null, null, null).vmd);
    const r = [];
    for (let f = 0; f < kp.frameCount; f++) {
      const p = kp.points, l = (f * 33 + 7) * 3, q = (f * 33 + 8) * 3;
      r.push(Math.atan2(p[l + 1] - p[q + 1], Math.hypot(p[l] - p[q], p[l + 2] - p[q + 2])) * 180 / Math.PI);
    }
    return Math.max(...r) - Math.min(...r);
  };
  const level = roll({ headFollow: 0 }), follows = roll({ headFollow: 1 });
  assert.ok(level < 1, `headFollow 0: the head rolls ${level} degrees`);
  assert.ok(follows > 3 * level + 2, `headFollow 1: ${follows} degrees`);
});

test('stanceKnee sets the knee at mid stance, from nearly straight', () => {
  const vmd = (k) => pm.generateCatwalkVmd({ stanceKnee: k }, null, null, null).vmd;
  assert.notDeepEqual(vmd(0), vmd(0.3));
  const k0 = features({ stanceKnee: 0 }).kneeMidStance, k3 = features({ stanceKnee: 0.3 }).kneeMidStance;
  const k1 = features({ stanceKnee: 1 }).kneeMidStance;
  assert.ok(k0 < 12 && k3 > k0 + 6 && k1 > k3 + 15, `${k0} ${k3} ${k1}`);
});

test('a value outside its range is refused, naming it', () => {
  assert.throws(() => pm.generateCatwalkVmd({ hipTwist: -0.5 }, null, null, null), /hipTwist must be in \[0, 1\], got -0.5/);
  assert.throws(() => pm.generateCatwalkVmd({ elbowBend: 2 }, null, null, null), /elbowBend must be in \[0, 1\], got 2/);
  assert.throws(() => pm.generateCatwalkVmd({ torsoTwist: -1.5 }, null, null, null), /torsoTwist must be in \[-1, 1\]/);
});

test('the measure reads a real motion-captured walk', { skip: existsSync(FIXTURES) ? false : 'SKIP: ../shared/fixtures not found' }, () => {
  const kp = pm.toKeypoints(new Uint8Array(readFileSync(new URL('bvh/cmu_131_01.bvh', FIXTURES))), { fps: 30 });
  const f = walkFeatures(kp);
  assert.ok(f.steps >= 8, `${f.steps} steps`);
  for (const [k, v] of Object.entries(f)) assert.ok(Number.isFinite(v), `${k} ${v}`);
  // a walk with bent, pumping arms and a rolling pelvis: well outside the catwalk's quiet elbows
  assert.ok(f.elbowMean > 50 && f.hipRoll > 5, `elbow ${f.elbowMean}, hip roll ${f.hipRoll}`);
});
