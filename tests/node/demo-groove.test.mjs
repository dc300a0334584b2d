// The web demo's groove mode without a browser: the panel has a control for every field of every
// joint and of the squat bounce with the core's defaults and ranges inside the core's, it sends only
// what changed, every label exists in all five languages, and the mode's generate() bakes a VMD on
// the standing pose, the catwalk and a loaded VMD.
import './support/register.mjs';

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { FEATURE_MODULES, GROOVE_JOINTS, createProcMotion } from '../../js-glue/index.js';
import { REPO_ROOT, fixturesAvailable, readFixture } from './support/babylon.mjs';

const SRC = join(REPO_ROOT, 'web-demo/src');
const { TABLE, LANGUAGES } = await import(join(SRC, 'i18n.js'));
const { BASES, grooveParams, grooveSettings, grooveValues } = await import(join(SRC, 'modes/groove-params.js'));
await import(join(SRC, 'modes/catwalk.js'));
await import(join(SRC, 'modes/groove.js'));
const { getMode } = await import(join(SRC, 'modes/registry.js'));
const { SPEED_PARAM, catwalkDefaults } = await import(join(SRC, 'modes/catwalk-params.js'));

const pm = await createProcMotion({ load: FEATURE_MODULES });
const defaults = pm.grooveConfig();

test('the groove panel offers every setting of the core, with its defaults', () => {
  const params = grooveParams(defaults);
  const keys = new Set(params.map((p) => p.key));
  for (const j of GROOVE_JOINTS) {
    for (const field of Object.keys(defaults.joints[j.name])) assert.ok(keys.has(`${j.name}.${field}`), `${j.name}.${field}`);
  }
  for (const field of Object.keys(defaults.squat)) assert.ok(keys.has(`squat.${field}`), `squat.${field}`);
  assert.equal(params.length, 12 * 5 + 6);
  for (const p of params) {
    const [group, field] = p.key.split('.');
    const core = group === 'squat' ? defaults.squat[field] : defaults.joints[group][field];
    assert.equal(p.default, core, p.key);
    if (p.type === 'range') assert.ok(p.min <= p.default && p.default <= p.max, `${p.key}: default inside the slider`);
    if (p.type === 'select') assert.ok(p.options.includes(p.default), p.key);
  }
  // at the defaults nothing is sent; a change is sent alone and the core takes it
  const values = grooveValues(defaults);
  assert.deepEqual(grooveSettings(values, defaults), {});
  values['head.amp'] = 12;
  values['squat.vertical'] = 6;
  values['rightArm.wave'] = 'bounce';
  const settings = grooveSettings(values, defaults);
  assert.deepEqual(settings, { joints: { head: { amp: 12 }, rightArm: { wave: 'bounce' } }, squat: { vertical: 6 } });
  assert.deepEqual(pm.grooveConfig(settings, { changedOnly: true }), settings);
  // every slider end is a value the core accepts
  for (const p of params.filter((q) => q.type === 'range')) {
    const [group, field] = p.key.split('.');
    for (const v of [p.min, p.max]) {
      const s = group === 'squat' ? { squat: { [field]: v } } : { joints: { [group]: { [field]: v } } };
      assert.doesNotThrow(() => pm.grooveConfig(s), `${p.key} = ${v}`);
    }
  }
});

test('every groove label exists in all five languages', () => {
  const used = new Set(['mode.groove', 'g.base', 'g.squat', 'g.resetJoint', 'p.resetAll']);
  for (const b of BASES) used.add(`g.base.${b}`);
  for (const j of GROOVE_JOINTS) used.add(`g.joint.${j.name}`);
  for (const p of grooveParams(defaults)) {
    used.add(p.label);
    for (const o of p.options ?? []) used.add(`${p.label}.${o}`);
  }
  const missing = [...used].filter((k) => !(k in TABLE));
  assert.deepEqual(missing, []);
  for (const k of used) for (const { id } of LANGUAGES) assert.ok(TABLE[k][id]?.trim(), `${k}: ${id}`);
});

test('the groove mode bakes on the standing pose, the catwalk and a loaded VMD', { skip: fixturesAvailable() ? false : 'SKIP: no fixtures' }, () => {
  const mode = getMode('groove');
  assert.ok(mode.requires(pm));
  const mannequin = pm.mannequinPmx();
  const model = { builtIn: true, bytes: null, boneNames: pm.readPmx(mannequin).bones.map((b) => b.name) };
  const wait = readFixture('vmd/mei_wait.vmd');
  const app = {
    pm, bpm: 128, model, grooveDefaults: defaults, groove: grooveValues(defaults), grooveBase: 'rest',
    userVmd: { name: 'mei_wait.vmd', bytes: wait, lastFrame: 120, keyCount: 0 },
  };
  const rest = mode.generate(app);
  assert.equal(rest.loopFrames, 225); // 16 beats at 128 BPM
  assert.equal(rest.beatFrames, 1800 / 128);
  assert.deepEqual(rest.missingBones, ['上半身3']);
  assert.ok(pm.readVmd(rest.vmd).bones.names.includes('グルーブ'));
  app.groove['squat.vertical'] = 8;
  const deeper = mode.generate(app);
  assert.deepEqual(deeper.settings, { squat: { vertical: 8 } });
  assert.notDeepEqual(deeper.vmd, rest.vmd);
  app.grooveBase = 'catwalk';
  const walk = mode.generate(app);
  const cw = getMode('catwalk').generate({ ...app, catwalk: catwalkDefaults(), speed: SPEED_PARAM.default });
  assert.equal(walk.loopFrames, cw.loopFrames);
  assert.ok(walk.report.copiedKeys > 0, 'the catwalk keys are kept');
  app.grooveBase = 'vmd';
  const onVmd = mode.generate(app);
  // a user's model: its own bytes (their 足ＩＫ drives the legs)
  const yw = readFixture('pmx/yw_test_model/yw_test_model.pmx');
  const own = mode.generate({ ...app, model: { bytes: yw, boneNames: pm.readPmx(yw).bones.map((b) => b.name) } });
  assert.equal(own.report.legMode, 'mmd-ik');
  assert.equal(onVmd.loopFrames, 120);
  assert.ok(onVmd.report.copiedKeys > 100);
  // no BPM on the page: the catwalk's own beat, else 120
  app.bpm = null;
  app.grooveBase = 'rest';
  assert.equal(mode.generate(app).beatFrames, 15);
});
