// The C modules keep to the layers of DEVELOPERS.md: every #include in wasm/, cli/ and fuzz/ goes to
// the including module itself, to the base of its layer, or to a lower layer; no module reaches into
// another's *_internal.h; and the modules include one another without a cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The layer table of DEVELOPERS.md: Map module -> { layer, base }. */
function readLayers() {
  const text = readFileSync(join(ROOT, 'DEVELOPERS.md'), 'utf8');
  const section = text.slice(text.indexOf('## Layers'));
  const layers = new Map();
  for (const m of section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    for (const entry of m[2].split(',')) {
      const name = entry.trim().replace(/ \(base\)$/, '');
      layers.set(name, { layer: Number(m[1]), base: entry.includes('(base)') });
    }
  }
  return layers;
}

// public headers named otherwise than their module
const HEADER_MODULE = { ik: 'pose' };

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.[ch]$/.test(name)) yield path;
  }
}

/** The module a file of the repository belongs to. */
function moduleOfFile(path) {
  const rel = relative(ROOT, path).split('/');
  if (rel[0] === 'wasm' && rel[1] === 'src') return rel[2];
  if (rel[0] === 'wasm' && rel[1] === 'include') return HEADER_MODULE[basename(path, '.h')] ?? basename(path, '.h');
  if (rel[0] === 'wasm' && rel[1] === 'abi') return 'abi';
  return rel[0]; // cli, fuzz
}

/** Every quoted #include: { from, to, header, file, line }. */
function includes() {
  const out = [];
  for (const top of ['wasm', 'cli', 'fuzz']) {
    for (const file of sourceFiles(join(ROOT, top))) {
      const from = moduleOfFile(file);
      readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
        const m = /^\s*#\s*include\s+"([^"]+)"/.exec(text);
        if (!m) return;
        const header = m[1];
        const parts = header.split('/');
        let to;
        if (parts.length === 1) to = from; // beside the including file
        else if (parts[0] === 'procmotion') to = HEADER_MODULE[basename(header, '.h')] ?? basename(header, '.h');
        else to = parts[0];
        out.push({ from, to, header, file: relative(ROOT, file), line: i + 1 });
      });
    }
  }
  return out;
}

test('DEVELOPERS.md lists every module in a layer', () => {
  const layers = readLayers();
  assert.ok(layers.size >= 20, `the layer table has ${layers.size} modules`);
  const folders = readdirSync(join(ROOT, 'wasm/src')).filter((n) => statSync(join(ROOT, 'wasm/src', n)).isDirectory());
  for (const m of [...folders, 'abi', 'cli', 'fuzz']) assert.ok(layers.has(m), `module ${m} is in no layer of DEVELOPERS.md`);
  for (const layer of new Set([...layers.values()].map((l) => l.layer))) {
    const bases = [...layers].filter(([, l]) => l.layer === layer && l.base);
    assert.ok(bases.length <= 1, `layer ${layer} has ${bases.length} bases`);
  }
});

test('every include goes to the module itself, its layer\'s base or a lower layer', () => {
  const layers = readLayers();
  const bad = [];
  for (const inc of includes()) {
    if (inc.from === inc.to) continue;
    const a = layers.get(inc.from), b = layers.get(inc.to);
    if (!a || !b) {
      bad.push(`${inc.file}:${inc.line}: "${inc.header}": no layer for module ${!a ? inc.from : inc.to}`);
      continue;
    }
    if (b.layer < a.layer || (b.layer === a.layer && b.base)) continue;
    bad.push(`${inc.file}:${inc.line}: ${inc.from} (layer ${a.layer}) includes "${inc.header}" of ${inc.to} (layer ${b.layer}${b.base ? ', base' : ''})`);
  }
  assert.deepEqual(bad, []);
});

test('no module includes another module\'s *_internal.h', () => {
  const bad = includes().filter((inc) => inc.from !== inc.to && /_internal\.h$/.test(inc.header))
    .map((inc) => `${inc.file}:${inc.line}: ${inc.from} includes "${inc.header}"`);
  assert.deepEqual(bad, []);
});

test('the modules include one another without a cycle', () => {
  const edges = new Map();
  for (const inc of includes()) {
    if (inc.from === inc.to) continue;
    if (!edges.has(inc.from)) edges.set(inc.from, new Set());
    edges.get(inc.from).add(inc.to);
  }
  // depth-first search; a grey node met again closes a cycle
  const state = new Map(), cycles = [];
  const visit = (m, path) => {
    state.set(m, 'grey');
    for (const n of edges.get(m) ?? []) {
      if (state.get(n) === 'grey') cycles.push([...path.slice(path.indexOf(n)), n].join(' -> '));
      else if (!state.has(n)) visit(n, [...path, n]);
    }
    state.set(m, 'black');
  };
  for (const m of edges.keys()) if (!state.has(m)) visit(m, [m]);
  assert.deepEqual(cycles, []);
});
