// The API reference (docs/reference/) is what build-scripts/api-docs.mjs makes of the type declarations
// now: TypeDoc finds every export documented and every link resolved, and the committed pages are its
// output, so a change to js-glue/*.d.ts that leaves the reference behind fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REFERENCE = join(ROOT, 'docs/reference');

function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

test('docs/reference is the API reference TypeDoc makes of the declarations, every export documented', { timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'pm-api-docs-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'build-scripts/api-docs.mjs'), '--out', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, `TypeDoc failed (a declaration without a doc comment, or a broken link?):\n${r.stdout}${r.stderr}`);
    assert.deepEqual(files(out), files(REFERENCE), 'the same pages (node build-scripts/api-docs.mjs rewrites docs/reference)');
    for (const f of files(out)) {
      assert.equal(readFileSync(join(REFERENCE, f), 'utf8'), readFileSync(join(out, f), 'utf8'),
        `docs/reference/${f} is stale: run node build-scripts/api-docs.mjs`);
    }
    const index = readFileSync(join(out, 'procmotion.md'), 'utf8');
    for (const name of ['createProcMotion', 'generateCatwalkVmd', 'readVmd', 'ProcMotionError']) assert.match(index, new RegExp(name));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
