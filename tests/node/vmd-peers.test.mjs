// Files written by our VMD writer, parsed by two independent parsers (babylon-mmd's VmdObject and
// VmdLoader, three.js's mmd-parser): each agrees with our reader on every key, name, frame, value and
// interpolation byte.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import {
  animationTracks, fixturesAvailable, loadVmdAnimation, parseVmdBabylon, parseVmdMmdParser, readFixture,
} from './support/babylon.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const SKIP = fixturesAvailable() ? false : 'SKIP: ../shared/fixtures not found beside the repo';
const FILES = [
  'vmd/mei_wait.vmd', 'vmd/mei_greeting.vmd', 'vmd/gene_stand.vmd', 'vmd/gene_02_laugh.vmd',
  'vmd/babylon_physics_toggle_test_yyb10th.vmd', 'vmd/mmt_test_model_test_motion.vmd', 'vmd/wavefile_camera.vmd',
];

/** A motion with every section filled, built through writeVmd. */
function everySectionMotion() {
  const n = 40;
  const names = ['センター', '左足ＩＫ', '右足ＩＫ', '上半身', '頭'];
  const interp = new Uint8Array(64 * n);
  for (let i = 0; i < n; i++) {
    const row = [20 + i, 21, 0, 0, 22, 23, 24, 25, 100, 101, 102, 103, 104, 105, 106, 107 - i];
    for (let r = 0; r < 4; r++) for (let j = 0; j < 16; j++) interp[64 * i + 16 * r + j] = j + r < 16 ? row[j + r] : 0;
    // rows 1-3 carry the true Z/R x1 values; row 0 bytes 2-3 are the physics toggle (on)
    interp[64 * i + 16 * 1 + 1] = 30 + (i % 50);
    interp[64 * i + 16 * 2 + 0] = 30 + (i % 50);
  }
  const cam = new Uint8Array(24 * 3);
  for (let i = 0; i < cam.length; i++) cam[i] = (i * 7) % 128;
  return {
    modelName: 'テストモデル',
    bones: {
      names,
      nameIndex: Array.from({ length: n }, (_, i) => i % names.length),
      frames: Array.from({ length: n }, (_, i) => i * 3),
      positions: Array.from({ length: n * 3 }, (_, i) => Math.sin(i) * 2),
      rotations: Array.from({ length: n }, (_, i) => {
        const a = i * 0.1;
        return [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
      }).flat(),
      interpolations: interp,
    },
    morphs: { names: ['まばたき', 'あ'], nameIndex: [0, 1, 0], frames: [0, 5, 10], weights: [0, 0.5, 1] },
    cameras: {
      frames: [0, 30, 60], distances: [-45, -30, -50], positions: [0, 10, 0, 1, 11, 0, 0, 12, 1],
      rotations: [0.1, 0, 0, 0.2, 0.5, 0, 0, 1, 0], interpolations: cam, fovs: [30, 45, 20], perspectives: [0, 1, 0],
    },
    lights: { frames: [0], colors: [0.6, 0.6, 0.6], directions: [-0.5, -1, 0.5] },
    shadows: { frames: [0, 10], modes: [1, 2], distances: [0.01, 0.02] },
    properties: {
      frames: [0, 30], visible: [1, 0], ikStart: [0, 2, 3], ikNames: ['左足ＩＫ', '右足ＩＫ'],
      ikNameIndex: [0, 1, 0], ikEnabled: [1, 1, 0],
    },
  };
}

const f32 = (x) => Math.fround(x);

function compareKeyByKey(label, ours, peer, { sections }) {
  const b = ours.bones;
  assert.equal(peer.bones.length, b.count, `${label}: bone key count`);
  for (let i = 0; i < b.count; i++) {
    const k = peer.bones[i];
    assert.equal(k.name, b.names[b.nameIndex[i]], `${label}: bone key ${i} name`);
    assert.equal(k.frame, b.frames[i], `${label}: bone key ${i} frame`);
    for (let c = 0; c < 3; c++) assert.equal(f32(k.position[c]), b.positions[3 * i + c], `${label}: bone ${i} position`);
    for (let c = 0; c < 4; c++) assert.equal(f32(k.rotation[c]), b.rotations[4 * i + c], `${label}: bone ${i} rotation`);
    assert.deepEqual([...k.interpolation], [...b.interpolations.subarray(64 * i, 64 * i + 64)], `${label}: bone ${i} interpolation`);
  }
  const m = ours.morphs;
  assert.equal(peer.morphs.length, m.count, `${label}: morph key count`);
  for (let i = 0; i < m.count; i++) {
    assert.equal(peer.morphs[i].name, m.names[m.nameIndex[i]]);
    assert.equal(peer.morphs[i].frame, m.frames[i]);
    assert.equal(f32(peer.morphs[i].weight), m.weights[i]);
  }
  const c = ours.cameras;
  assert.equal(peer.cameras.length, c.count, `${label}: camera key count`);
  for (let i = 0; i < c.count; i++) {
    const k = peer.cameras[i];
    assert.equal(k.frame, c.frames[i]);
    assert.equal(f32(k.distance), c.distances[i]);
    for (let j = 0; j < 3; j++) {
      assert.equal(f32(k.position[j]), c.positions[3 * i + j]);
      assert.equal(f32(k.rotation[j]), c.rotations[3 * i + j]);
    }
    assert.deepEqual([...k.interpolation], [...c.interpolations.subarray(24 * i, 24 * i + 24)]);
    assert.equal(k.fov, c.fovs[i]);
  }
  if (!sections.includes('rest')) return;
  const l = ours.lights;
  assert.equal(peer.lights.length, l.count);
  for (let i = 0; i < l.count; i++) {
    assert.equal(peer.lights[i].frame, l.frames[i]);
    for (let j = 0; j < 3; j++) assert.equal(f32(peer.lights[i].color[j]), l.colors[3 * i + j]);
    for (let j = 0; j < 3; j++) assert.equal(f32(peer.lights[i].direction[j]), l.directions[3 * i + j]);
  }
  const s = ours.shadows;
  assert.equal(peer.shadows.length, s.count);
  for (let i = 0; i < s.count; i++) {
    assert.equal(peer.shadows[i].frame, s.frames[i]);
    assert.equal(peer.shadows[i].mode, s.modes[i]);
    assert.equal(f32(peer.shadows[i].distance), s.distances[i]);
  }
  const p = ours.properties;
  assert.equal(peer.properties.length, p.count);
  for (let i = 0; i < p.count; i++) {
    const k = peer.properties[i];
    assert.equal(k.frame, p.frames[i]);
    assert.equal(k.visible, p.visible[i] !== 0);
    const states = [];
    for (let j = p.ikStart[i]; j < p.ikStart[i + 1]; j++) states.push({ name: p.ikNames[p.ikNameIndex[j]], enabled: p.ikEnabled[j] !== 0 });
    assert.deepEqual(k.ikStates, states);
  }
}

/**
 * Compare our keys with babylon-mmd's MmdAnimation tracks (grouped per bone, sorted by frame). With
 * `physics`, every key's physics toggle must read as on (files whose bytes 2-3 we wrote ourselves).
 */
function compareWithLoader(label, ours, tracks, { physics = true } = {}) {
  const b = ours.bones;
  const byName = new Map();
  for (let i = 0; i < b.count; i++) {
    const name = b.names[b.nameIndex[i]];
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name).push(i);
  }
  assert.equal(tracks.bones.length, byName.size, `${label}: one track per bone`);
  for (const t of tracks.bones) {
    const keys = byName.get(t.name);
    assert.ok(keys, `${label}: track ${t.name} is one of ours`);
    // babylon-mmd keeps every key, duplicate frames included, sorted by frame (stable)
    const sorted = [...keys].sort((x, y) => b.frames[x] - b.frames[y]);
    assert.equal(t.frames.length, sorted.length, `${label}: ${t.name} key count`);
    for (const [j, k] of sorted.entries()) {
      const frame = b.frames[k];
      assert.equal(t.frames[j], frame, `${label}: ${t.name} frame`);
      for (let c = 0; c < 4; c++) assert.equal(t.rotations[4 * j + c], b.rotations[4 * k + c]);
      const ip = b.interpolations.subarray(64 * k, 64 * k + 64);
      assert.deepEqual([...t.rotationInterpolations.subarray(4 * j, 4 * j + 4)], [ip[48], ip[56], ip[52], ip[60]]);
      if (t.movable) {
        for (let c = 0; c < 3; c++) assert.equal(t.positions[3 * j + c], b.positions[3 * k + c]);
        const want = [];
        for (let a = 0; a < 3; a++) want.push(ip[16 * a], ip[16 * a + 8], ip[16 * a + 4], ip[16 * a + 12]);
        assert.deepEqual([...t.positionInterpolations.subarray(12 * j, 12 * j + 12)], want);
      }
      if (physics) assert.equal(t.physicsToggles[j], 1, `${label}: ${t.name} physics reads as on`);
    }
  }
}

test('every fixture, rewritten by us, is read identically by babylon-mmd, VmdLoader and mmd-parser', { skip: SKIP }, async () => {
  for (const file of FILES) {
    const written = pm.writeVmd(pm.readVmd(readFixture(file)));
    const ours = pm.readVmd(written);
    compareKeyByKey(`${file} / babylon-mmd`, ours, await parseVmdBabylon(written), { sections: ['rest'] });
    compareKeyByKey(`${file} / mmd-parser`, ours, await parseVmdMmdParser(written), { sections: [] });
    const anim = await loadVmdAnimation(written, { optimizeEmptyTracks: false });
    const tracks = animationTracks(anim);
    assert.equal(tracks.cameraKeyCount, ours.cameras.count, file);
    // the physics bytes are the file's own here, so only the values are compared
    compareWithLoader(`${file} / VmdLoader`, ours, tracks, { physics: false });
  }
});

test('a motion with every section, written by us, agrees with all three peers key by key', { skip: false }, async () => {
  const bytes = pm.writeVmd(everySectionMotion());
  const ours = pm.readVmd(bytes);
  assert.equal(ours.bones.count, 40);
  compareKeyByKey('every-section / babylon-mmd', ours, await parseVmdBabylon(bytes), { sections: ['rest'] });
  compareKeyByKey('every-section / mmd-parser', ours, await parseVmdMmdParser(bytes), { sections: [] });
  const warnings = [];
  const tracks = animationTracks(await loadVmdAnimation(bytes, { optimizeEmptyTracks: false, warnings }));
  assert.deepEqual(warnings.filter((w) => /physics/i.test(w)), [], 'no unknown physics toggles');
  compareWithLoader('every-section / VmdLoader', ours, tracks);
  assert.equal(tracks.cameraKeyCount, 3);
  assert.deepEqual(tracks.properties.ikBoneNames.sort(), ['右足ＩＫ', '左足ＩＫ'].sort());
  const parsed = await parseVmdBabylon(bytes);
  assert.equal(parsed.modelName, 'テストモデル');
  assert.ok(parsed.bones.every((k) => k.physicsToggle === 'on'));
});
