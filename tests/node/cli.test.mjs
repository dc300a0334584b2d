// The native CLI as a user runs it: help, exit statuses, one-line errors, JSON output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../build/native/procmotion', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
const skipNoCli = existsSync(CLI) ? false : 'SKIP: build/native/procmotion not built';

test('procmotion --help lists the commands and exits 0', { skip: skipNoCli }, () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /inspect/);
  assert.equal(run().status, 2);
  assert.equal(run('no-such-command').status, 2);
  assert.match(run('inspect', '--help').stdout, /usage: procmotion inspect FILE/);
});

test('procmotion inspect prints a JSON summary of a VMD', { skip: skipNoCli || (existsSync(FIXTURES) ? false : 'SKIP: no fixtures') }, () => {
  const r = run('inspect', `${FIXTURES}vmd/mei_wait.vmd`);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'vmd');
  assert.equal(j.counts.bone, 406);
  assert.equal(j.lastFrame, 120);
  assert.equal(j.bones['センター'], 5);
});

test('procmotion inspect shows a damaged name with its bytes in hex next to the decoded text', { skip: skipNoCli }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-inspect-'));
  try {
    // a VMD: a morph name MMD cut at 15 bytes inside a double-byte character (ヘッドセット消 + 0x82)
    const cut = [0x83, 0x77, 0x83, 0x62, 0x83, 0x68, 0x83, 0x5a, 0x83, 0x62, 0x83, 0x67, 0x8f, 0xc1, 0x82];
    const vmd = new Uint8Array(50 + 4 + 4 + 23);
    vmd.set([...'Vocaloid Motion Data 0002'].map((c) => c.charCodeAt(0)));
    vmd.set([0x61], 30); // model "a"
    vmd.set([1], 54); // morph count
    vmd.set(cut, 58);
    writeFileSync(join(dir, 'cut.vmd'), vmd);
    const r = run('inspect', join(dir, 'cut.vmd'));
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    const hex = '83 77 83 62 83 68 83 5A 83 62 83 67 8F C1 82';
    assert.deepEqual(j.damagedNames, [{ section: 'morph', name: 'ヘッドセット消\ufffd', bytes: hex, keys: 1 }]);
    assert.equal(j.morphs[`ヘッドセット消\ufffd <${hex}>`], 1);
    // a PMX (UTF-16LE) whose bone name holds an unpaired surrogate
    const u32 = (v) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
    const text = (bytes) => [...u32(bytes.length), ...bytes];
    const f32 = (v) => [...new Uint8Array(new Float32Array([v]).buffer)];
    const pmx = [
      ...[...'PMX '].map((c) => c.charCodeAt(0)), ...f32(2), 8, 0, 0, 1, 1, 1, 1, 1, 1,
      ...text([0x61, 0]), ...text([]), ...text([]), ...text([]), ...u32(0), ...u32(0), ...u32(0), ...u32(0),
      ...u32(1), ...text([0x61, 0, 0x00, 0xd8]), ...text([]), ...f32(0), ...f32(0), ...f32(0), 0xff, ...u32(0), 0x1a, 0,
      ...f32(0), ...f32(1), ...f32(0), ...u32(0),
    ];
    writeFileSync(join(dir, 'surrogate.pmx'), new Uint8Array(pmx));
    const m = run('inspect', join(dir, 'surrogate.pmx'));
    assert.equal(m.status, 0, m.stderr);
    assert.deepEqual(JSON.parse(m.stdout).damagedNames, [{ section: 'bone', index: 0, name: 'a\ufffd', bytes: '61 00 00 D8' }]);
    // clean files list nothing
    if (existsSync(FIXTURES)) assert.deepEqual(JSON.parse(run('inspect', `${FIXTURES}vmd/mei_wait.vmd`).stdout).damagedNames, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input exits 1 with one line naming the problem', { skip: skipNoCli }, () => {
  const r = run('inspect', '/etc/hostname');
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /not a VMD file/);
  const missing = run('inspect', '/nonexistent.vmd');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read/);
});

test('procmotion idle, lifelike and transition: a mode change made on the command line', { skip: skipNoCli || (existsSync(FIXTURES) ? false : 'SKIP: no fixtures') }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-idle-'));
  try {
    const model = `${FIXTURES}pmx/yw_test_model/yw_test_model.pmx`;
    const idle = run('idle', '--model', model, '--bpm', '120', '--seed', '4', '-o', join(dir, 'idle.vmd'));
    assert.equal(idle.status, 0, idle.stderr);
    const i = JSON.parse(idle.stdout);
    assert.ok(i.loopFrames >= 900 && i.report.landed && i.body.hands.left.clearance > 0 && i.params.seed === 4);
    assert.equal(run('idle', '--body-sway', '3', '-o', join(dir, 'x.vmd')).stderr.trim(), 'procmotion idle: idle: bodySway must be a number in [0, 1], got 3');
    const walk = run('catwalk', '--model', model, '--bpm', '120', '-o', join(dir, 'walk.vmd'));
    assert.equal(walk.status, 0, walk.stderr);
    const loop = JSON.parse(walk.stdout).loopFrames;
    const tr = run('transition', '--model', model, '--from', join(dir, 'idle.vmd'), '--to', join(dir, 'walk.vmd'), '--from-frame', '300',
      '--loop', String(loop), '-o', join(dir, 't.vmd'));
    assert.equal(tr.status, 0, tr.stderr);
    const t = JSON.parse(tr.stdout);
    assert.ok(t.frames === 30 && t.nextFrame === 30 && t.landing.maxSlide < 0.003, tr.stdout);
    writeFileSync(join(dir, 'life.json'), '{"blinkInterval": [2, 4]}');
    const life = run('lifelike', '--model', model, '--vmd', join(dir, 'walk.vmd'), '--settings', join(dir, 'life.json'), '-o', join(dir, 'life.vmd'));
    assert.equal(life.status, 0, life.stderr);
    const l = JSON.parse(life.stdout);
    assert.ok(l.skipped.includes('頭') && l.keyedBones >= 1, life.stdout);
    assert.equal(run('lifelike', '-o', join(dir, 'y.vmd')).status, 2, 'no model: a usage error');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
