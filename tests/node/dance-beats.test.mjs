// The beat-lock measure (bench/dance-beats.mjs): accents found in motion as the evaluator plays it, and
// their phase within the beats.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { beatLock, beatTimes, motionAccents } from '../../bench/dance-beats.mjs';

const pm = await createProcMotion({ load: FEATURE_MODULES });
const mmt = new Uint8Array(readFileSync(new URL('../../../shared/fixtures/pmx/mmt_test_model.pmx', import.meta.url)));

test('beatLock: accents on the beats lock, accents spread over the beat do not', () => {
  const beats = beatTimes(120, 0.5, 20); // a beat every 15 frames from frame 15
  const on = beats.slice(0, -1).map((t) => Math.round(t * 30));
  const onBeat = beatLock(on, beats, { frames: 600 });
  assert.ok(onBeat.R > 0.999 && onBeat.coverage === 1, JSON.stringify(onBeat));
  const half = beatLock(on.map((f) => f + 7.5), beats, { frames: 600 });
  assert.ok(Math.abs(half.meanPhase - 0.5) < 1e-9 && half.R > 0.999 && half.coverage === 0, JSON.stringify(half));
  const spread = beatLock(on.map((f, i) => f + (i % 5) * 3), beats); // phases 0, 0.2, ... 0.8 in turn
  assert.ok(spread.R < 0.05, JSON.stringify(spread));
});

test('a catwalk stepping on every beat lands its feet on the beats, and not on another tempo\'s', (t) => {
  for (const [name, model] of [['mannequin', null], ['mmt_test_model', mmt]]) {
    const walk = pm.generateCatwalkVmd({ stepCadence: 'beat', traverse: true }, 120, null, null, model ? { skeleton: model } : undefined);
    const m = motionAccents(pm, walk.vmd, model);
    const walking = { from: m.contacts[0] - 2, frames: m.contacts.at(-1) + 2 }; // from the first step's landing to the last
    const own = beatLock(m.contacts, beatTimes(120, 0, m.frames / 30), walking);
    const other = beatLock(m.contacts, beatTimes(97, 0, m.frames / 30), walking);
    const msg = `${name}: at 120 BPM ${JSON.stringify(own)}, at 97 ${JSON.stringify(other)}`;
    t.diagnostic(msg);
    assert.ok(own.accents >= 5, msg);
    assert.ok(own.R >= 0.9 && own.coverage >= 0.9, msg);
    assert.ok(other.R < 0.5, msg);
  }
});

test('a walk in place stops on its beats: the body\'s speed minima lock to the tempo it was made for', () => {
  const walk = pm.generateCatwalkVmd({ stepCadence: 'beat' }, 120);
  const m = motionAccents(pm, walk.vmd, null, { loop: walk.loopFrames, frames: 4 * walk.loopFrames });
  assert.ok(m.stops.length >= 20, `${m.stops.length} stops`);
  const grid = (bpm) => beatTimes(bpm, 0, m.frames / 30);
  const own = beatLock(m.stops, grid(120), { frames: m.frames }), other = beatLock(m.stops, grid(97), { frames: m.frames });
  assert.ok(own.R >= 0.9 && own.coverage >= 0.9, JSON.stringify(own));
  assert.ok(other.R < 0.3, JSON.stringify(other));
});
