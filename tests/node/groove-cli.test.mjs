// procmotion groove as a user runs it: bake onto the mannequin and onto a base motion, print the
// merged or changed settings, one-line errors naming the bad setting.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
const SKIP = existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built';

test('procmotion groove bakes a VMD and reports it', { skip: SKIP }, async () => {
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const dir = mkdtempSync(join(tmpdir(), 'pm-groove-'));
  try {
    assert.match(run('groove', '--help').stdout, /usage: procmotion groove --model MODEL\.pmx --bpm N/);
    const model = join(dir, 'mannequin.pmx'), out = join(dir, 'out.vmd'), cfg = join(dir, 'groove.json');
    writeFileSync(model, pm.mannequinPmx());
    writeFileSync(cfg, JSON.stringify({ joints: { head: { amp: 6 } }, squat: { vertical: 4 } }));
    const r = run('groove', '--model', model, '--bpm', '128', '--config', cfg, '--frames', '120', '-o', out);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.frames, 120);
    assert.equal(report.legMode, 'mmd-ik');
    assert.deepEqual(report.skipped, ['upperChest']);
    const vmd = pm.readVmd(new Uint8Array(readFileSync(out)));
    assert.equal(vmd.bones.count, report.keys + report.landing.keyCount); // the groove's keys and the landed legs
    assert.ok(report.maxFootError < 1e-3 && report.landing.landed, JSON.stringify(report.landing));
    assert.ok(vmd.bones.names.includes('グルーブ') && vmd.bones.names.includes('頭'));
    // the same bake through the glue gives the same bytes
    const glue = pm.bakeGroove(null, pm.mannequinPmx(), readFileSync(cfg, 'utf8'), 128, { frames: 120 }).vmd;
    assert.deepEqual(new Uint8Array(readFileSync(out)), glue);

    const changed = run('groove', '--print-config', '--config', cfg, '--changed');
    assert.deepEqual(JSON.parse(changed.stdout), { joints: { head: { amp: 6 } }, squat: { vertical: 4 } });
    const full = JSON.parse(run('groove', '--print-config').stdout);
    assert.equal(Object.keys(full.joints).length, 12);

    writeFileSync(cfg, '{"joints":{"neck":{"phase":3}}}');
    const bad = run('groove', '--model', model, '--bpm', '128', '--config', cfg, '-o', out);
    assert.equal(bad.status, 1);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(bad.stderr, /joints\.neck\.phase must be a number in \[0, 1\]/);
    assert.match(run('groove', '--model', model, '-o', out).stderr, /missing --bpm/);
    assert.match(run('groove', '--model', model, '--bpm', '0', '-o', out).stderr, /--bpm must be a positive number/);
    assert.equal(run('groove', '--bogus').status, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('procmotion groove on a base motion copies its other keys', { skip: SKIP || (existsSync(FIXTURES) ? false : 'SKIP: no fixtures') }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-groove-'));
  try {
    const out = join(dir, 'out.vmd');
    const r = run('groove', '--model', `${FIXTURES}pmx/yw_test_model/yw_test_model.pmx`, '--vmd', `${FIXTURES}vmd/mei_wait.vmd`,
      '--bpm', '100', '-o', out);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.frames, 120);
    assert.ok(report.copiedKeys > 300);
    assert.deepEqual(report.skipped, ['upperChest']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
