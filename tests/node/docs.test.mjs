// The documentation holds: the README is short and its example is the file the browser tests build, every
// link between the pages resolves, no page or public header speaks of issue, seed or ADR numbers, and
// every Node example in docs/ runs against the package as it is now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FIXTURES } from './support/babylon.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p) => readFileSync(join(ROOT, p), 'utf8');
const PAGES = ['README.md', 'DEVELOPERS.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The fenced code blocks of a page: [{ lang, code }]. */
const blocks = (text) => [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));

test('the README is short and its example is examples/babylon-catwalk/main.js', () => {
  const readme = read('README.md');
  const lines = readme.split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines`);
  const js = blocks(readme).filter((b) => b.lang === 'js');
  assert.equal(js.length, 1, 'one example');
  assert.equal(js[0].code, read('examples/babylon-catwalk/main.js'), 'the README shows the example the tests build and run');
});

test('every relative link of the pages names a file that exists', () => {
  const bad = [];
  for (const page of PAGES) {
    for (const m of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0];
      if (!target || /^[a-z]+:/.test(target)) continue;
      if (!existsSync(resolve(ROOT, dirname(page), target))) bad.push(`${page}: ${m[1]}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no page, public header, type declaration or test name speaks of issue, seed or ADR numbers', () => {
  const jargon = /\b(issue|ADR|seed)[- ]?\d+|\bsize1\d[a-z]?\b/i;
  const files = [...PAGES, ...readdirSync(join(ROOT, 'wasm/include/procmotion')).map((f) => `wasm/include/procmotion/${f}`),
    'js-glue/index.d.ts', 'js-glue/babylon.d.ts', 'js-glue/all.d.ts'].filter((f) => f !== 'CHANGELOG.md');
  const bad = [];
  for (const f of files) read(f).split('\n').forEach((line, i) => { if (jargon.test(line) && !/seed \d+,/.test(line)) bad.push(`${f}:${i + 1}: ${line.trim()}`); });
  for (const dir of ['tests/node', 'tests/browser']) {
    for (const f of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.test.mjs'))) {
      for (const m of read(`${dir}/${f}`).matchAll(/\btest\((['"`])(.*?)\1/g)) if (jargon.test(m[2])) bad.push(`${dir}/${f}: test '${m[2]}'`);
    }
  }
  for (const f of readdirSync(join(ROOT, 'tests/c')).filter((n) => n.endsWith('.c'))) {
    for (const m of read(`tests/c/${f}`).matchAll(/PM_TEST\((\w+)\)/g)) if (jargon.test(m[1].replace(/_/g, ' '))) bad.push(`tests/c/${f}: ${m[1]}`);
  }
  assert.deepEqual(bad, []);
});

// A js block that imports 'procmotion' and nothing of Babylon runs in Node, in a folder holding the files
// the examples read: model.pmx, dance.vmd, mocap.bvh, song.wav.
const runnable = (code) => /from 'procmotion'/.test(code) && !/babylon|document\.|window\./.test(code);

test('every Node example of the documentation runs', { skip: !existsSync(FIXTURES) && 'needs ../shared/fixtures', timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-docs-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'js-glue'), join(dir, 'node_modules/procmotion'), 'dir');
    // copies, not links: an example that writes a file of the same name must not reach the shared fixtures
    copyFileSync(resolve(FIXTURES, 'pmx/yw_test_model/yw_test_model.pmx'), join(dir, 'model.pmx'));
    copyFileSync(resolve(FIXTURES, 'vmd/mei_wait.vmd'), join(dir, 'dance.vmd'));
    copyFileSync(resolve(FIXTURES, 'bvh/cmu_131_01.bvh'), join(dir, 'mocap.bvh'));
    // 12 s of clicks at 120 BPM, a 440 Hz tone under them
    const { createProcMotion } = await import('../../js-glue/index.js');
    const pm = await createProcMotion({ load: 'beats' });
    const rate = 22050, samples = new Float32Array(rate * 12);
    for (let i = 0; i < samples.length; i++) {
      const t = i / rate, b = (t * 2) % 1;
      samples[i] = 0.05 * Math.sin(2 * Math.PI * 440 * t) + (b < 0.02 ? 0.8 * Math.sin(2 * Math.PI * 1000 * t) * (1 - b / 0.02) : 0);
    }
    writeFileSync(join(dir, 'song.wav'), pm.writeWav(samples, rate));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    let n = 0;
    for (const page of PAGES.filter((p) => p.startsWith('docs/'))) {
      for (const [k, b] of blocks(read(page)).entries()) {
        if (b.lang !== 'js' || !runnable(b.code)) continue;
        const file = join(dir, `example-${n++}.mjs`);
        writeFileSync(file, b.code);
        const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.status, 0, `${page}, code block ${k + 1}:\n${r.stderr}`);
      }
    }
    assert.ok(n >= 10, `${n} examples ran`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
