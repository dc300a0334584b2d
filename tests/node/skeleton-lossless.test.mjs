// A lossless skeleton: on every zoo model, the built-in mannequin and the shared PMX
// fixtures, createPoseEvaluator(vmd, pm.readPmx(bytes)) equals createPoseEvaluator(vmd, bytes) bit
// for bit, and so does the skeleton after a trip through the skeleton JSON text (JSON.stringify, and
// `procmotion inspect`'s output), for a motion that keys every bone (twist bones' fixed axes, append,
// IK). Before this, the readPmx path lost the fixed axes and moved the fixtures' bones by up to 4.9 units.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { everyBoneVmd } from './support/played.mjs';
import { everyModel, zooSkip } from './support/zoo.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const FRAMES = [0, 7.5, 15, 22.5, 30];

/** World matrices at FRAMES, concatenated. */
function worlds(vmd, skeleton) {
  const ev = pm.createPoseEvaluator(vmd, skeleton);
  try {
    const all = FRAMES.map((f) => ev.evaluate(f).world);
    const out = new Float32Array(all.reduce((n, w) => n + w.length, 0));
    let at = 0;
    for (const w of all) out.set(w, at), at += w.length;
    return out;
  } finally {
    ev.dispose();
  }
}

/** Index of the first element that differs bit for bit, or -1. */
function firstDiff(a, b) {
  if (a.length !== b.length) return 0;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

test('readPmx, its JSON text and procmotion inspect give skeletons that pose exactly like the file', { skip: zooSkip() }, () => {
  const models = everyModel(pm);
  assert.ok(models.length >= 30, `${models.length} models`);
  const dir = mkdtempSync(join(tmpdir(), 'pm-lossless-'));
  try {
    for (const m of models) {
      const bytes = m.bytes();
      const skeleton = pm.readPmx(bytes);
      const vmd = everyBoneVmd(pm, skeleton);
      const truth = worlds(vmd, bytes);
      const rest = worlds(null, bytes);
      assert.ok(firstDiff(truth, rest) >= 0, `${m.id}: the motion moves nothing`);
      const inputs = { readPmx: skeleton, 'JSON text': JSON.parse(JSON.stringify(skeleton)) };
      if (existsSync(CLI)) {
        const file = join(dir, `${m.id}${m.extension}`);
        writeFileSync(file, bytes);
        const r = spawnSync(CLI, ['inspect', file], { encoding: 'utf8', maxBuffer: 1 << 26 });
        assert.equal(r.status, 0, r.stderr);
        inputs['procmotion inspect'] = JSON.parse(r.stdout);
      }
      for (const [how, sk] of Object.entries(inputs)) {
        const d = firstDiff(worlds(vmd, sk), truth);
        assert.equal(d, -1, `${m.id} via ${how}: bone ${Math.floor((d % (16 * sk.bones.length)) / 16)} differs`);
      }
      // the CLI and the glue print the same skeleton JSON
      if (inputs['procmotion inspect']) assert.deepEqual(inputs['procmotion inspect'].bones, skeleton.bones, m.id);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
