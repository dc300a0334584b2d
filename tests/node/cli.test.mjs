// The native CLI as a user runs it: help, exit statuses, one-line errors, JSON output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

test('bad input exits 1 with one line naming the problem', { skip: skipNoCli }, () => {
  const r = run('inspect', '/etc/hostname');
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /not a VMD file/);
  const missing = run('inspect', '/nonexistent.vmd');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read/);
});
