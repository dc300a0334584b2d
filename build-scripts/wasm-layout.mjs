// wasm-layout.mjs: the order of a module's functions, chosen for gzip, and Binaryen's Stack IR
// optimisation of the written code (build-scripts/link-wasm.mjs, step 5; docs/benchmarks.md, "the layout").
//
// What a module does does not depend on the order of its functions (calls, the table and the exports
// name them by index, and the indexes are renumbered with the order), but its gzip size does: gzip
// finds repeats within the last 32 KB only, so functions that share byte sequences compress better
// side by side. layOut() keeps the first function and then, again and again, appends the function most
// of whose 4-byte sequences occur in the last 32 KB laid out (a cheap stand-in for deflate's matches:
// the same order, within noise, as asking deflate itself, in a tenth of the time). The module goes
// through Binaryen's text: wasm-dis, the (func ...) items moved into the new order, wasm-as (which
// renumbers every call, the table and the exports), and wasm-opt writes the code through Stack IR
// (local2stack, unneeded blocks; Emscripten's last wasm-opt run writes without it). Every function is
// checked to read back as the same text it was before the move.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

import { functionBodies } from './wasm-binary.mjs';

/** The wasm features of the link (link-wasm.mjs's LINK_FLAGS), for Binaryen's tools that rewrite it. */
export const BINARYEN_FEATURES = ['--enable-mutable-globals', '--enable-sign-ext', '--enable-bulk-memory', '--enable-nontrapping-float-to-int'];

/**
 * An order of `bodies` (indexes) that gzip compresses well: greedy, from the first, by the share of a
 * body's distinct 4-byte sequences that the last `window` bytes laid out do not hold (fewer is better;
 * `prior` damps the score of tiny bodies). Deterministic: ties go to the lowest index.
 */
export function gzipOrder(bodies, { window = 32768, prior = 8 } = {}) {
  if (!bodies.length) return [];
  const grams = bodies.map((b) => {
    const s = new Set();
    for (let i = 0; i + 4 <= b.length; i++) s.add((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0);
    return s;
  });
  const left = new Set(bodies.keys());
  const order = [];
  const recent = [];
  const count = new Map();
  let bytes = 0;
  const place = (i) => {
    left.delete(i);
    order.push(i);
    recent.push(i);
    bytes += bodies[i].length;
    for (const g of grams[i]) count.set(g, (count.get(g) ?? 0) + 1);
    while (recent.length > 1 && bytes - bodies[recent[0]].length >= window) {
      const old = recent.shift();
      bytes -= bodies[old].length;
      for (const g of grams[old]) {
        const c = count.get(g) - 1;
        if (c) count.set(g, c);
        else count.delete(g);
      }
    }
  };
  place(0);
  while (left.size) {
    let best = -1, bestScore = Infinity;
    for (const j of left) {
      let miss = 0;
      for (const g of grams[j]) if (!count.has(g)) miss++;
      const score = (miss + prior) / (grams[j].size + prior);
      if (score < bestScore) bestScore = score, (best = j);
    }
    place(best);
  }
  return order;
}

/** A module's text (wasm-dis) as top-level items: { head, text }; a function's head starts ' (func '. */
function items(wat) {
  const out = [];
  for (const line of wat.split('\n')) {
    if (/^ \(/.test(line) || line === ')' || !out.length) out.push({ head: line, lines: [line] });
    else out[out.length - 1].lines.push(line);
  }
  return out.map((it) => ({ head: it.head, text: it.lines.join('\n') }));
}

/** The text of each function of items (a module's wat), by the function's name (its first line's $name). */
const textsOf = (list) => new Map(list.flatMap((it) => {
  const m = /^ \(func (\$\S+)/.exec(it.head);
  return m ? [[m[1], it.text]] : [];
}));

/** The text of each function of a module's wat (wasm-dis), by the function's name. */
export const functionTexts = (wat) => textsOf(items(wat));

const tool = (cmd, argv) => {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 29 });
  if (r.status !== 0) throw new Error(`wasm-layout: ${cmd} ${argv.join(' ')} failed\n${r.stderr}`);
  return r.stdout;
};

/** The Stack IR optimisation of a module file, written to `out` (names kept). */
export function stackIr(file, out) {
  tool('wasm-opt', [...BINARYEN_FEATURES, file, '-g', '--generate-stack-ir', '--optimize-stack-ir', '--optimize-level=3', '-o', out]);
}

/**
 * `bytes` (a module with a name section, as Binaryen writes it) with its functions in gzipOrder and its
 * code written through Stack IR; the name section kept (the caller strips it). `work`/`tag` name the
 * intermediate files (<tag>.unlaid.wasm, <tag>.laid.wat, <tag>.assembled.wasm, <tag>.laid.wasm).
 * Throws if any function reads back different.
 */
export function layOut(bytes, { work, tag }) {
  const unlaid = join(work, `${tag}.unlaid.wasm`), wat = join(work, `${tag}.laid.wat`);
  const assembled = join(work, `${tag}.assembled.wasm`), laid = join(work, `${tag}.laid.wasm`);
  writeFileSync(unlaid, bytes);
  const all = items(tool('wasm-dis', [unlaid]));
  const funcs = all.filter((it) => it.head.startsWith(' (func '));
  const bodies = functionBodies(bytes);
  if (funcs.length !== bodies.length) throw new Error(`wasm-layout: ${tag}: ${funcs.length} functions in the text, ${bodies.length} in the code`);
  const order = gzipOrder(bodies);
  // the functions take the place of the first one, in the new order; everything else stays
  const first = all.indexOf(funcs[0]);
  const rest = all.filter((it) => !it.head.startsWith(' (func '));
  writeFileSync(wat, [...rest.slice(0, first), ...order.map((i) => funcs[i]), ...rest.slice(first)].map((it) => it.text).join('\n'));
  tool('wasm-as', [...BINARYEN_FEATURES, '-g', wat, '-o', assembled]);
  const before = textsOf(funcs);
  const after = functionTexts(tool('wasm-dis', [assembled]));
  if (before.size !== funcs.length || after.size !== before.size) throw new Error(`wasm-layout: ${tag}: function names are not unique`);
  for (const [name, text] of before) {
    if (after.get(name) !== text) throw new Error(`wasm-layout: ${tag}: ${name} reads back different after the move`);
  }
  stackIr(assembled, laid);
  return readFileSync(laid);
}
