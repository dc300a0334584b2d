// procmotion benchmarks: our figures beside the peers', measured in one run on the same inputs.
//   node bench/bench.mjs [--runs N] [--only ROW] [--out docs/benchmarks.md]
// Each measurement runs in its own process (bench/run.mjs for JS, build/release/procmotion_bench
// for native) so peak memory is per row; times are medians of N runs after a warm-up. Prints one
// table and writes it, with the machine and versions, to docs/benchmarks.md. Not a test: nothing
// passes or fails on time.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PLAN, prepareInputs } from './plan.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const RUNS = Number(opt('--runs', 15));
const ONLY = opt('--only', null);
const OUT = opt('--out', join(ROOT, 'docs/benchmarks.md'));
const NATIVE = join(ROOT, 'build/release/procmotion_bench');

const inputs = await prepareInputs(join(tmpdir(), 'procmotion-bench'));
const results = [];

function record(line, extra = {}) {
  const r = { ...JSON.parse(line), ...extra };
  results.push(r);
  const rate = r.items / (r.median_ms / 1000);
  console.error(`bench: ${r.row.padEnd(12)} ${String(r.input).padEnd(44)} ${r.impl.padEnd(30)} ${r.median_ms.toFixed(3).padStart(10)} ms  ${fmtRate(rate, r.unit)}`);
}

function fmtRate(rate, unit) {
  const u = unit === 'bytes' ? 'B' : ` ${unit}`;
  if (unit === 'bytes') return `${(rate / 1e6).toFixed(1)} MB/s`;
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(2)} M${u}/s`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(1)} k${u}/s`;
  return `${rate.toFixed(1)}${u}/s`;
}

for (const entry of PLAN) {
  if (ONLY && entry.row !== ONLY) continue;
  for (const input of entry.inputs(inputs)) {
    if (entry.native && existsSync(NATIVE)) {
      const r = spawnSync(NATIVE, [...entry.native(input, inputs), String(RUNS)], { encoding: 'utf8' });
      if (r.status !== 0) console.error(`bench: native ${entry.row} failed: ${r.stderr}`);
      else for (const line of r.stdout.trim().split('\n')) record(line);
    }
    for (const impl of entry.js ?? []) {
      const r = spawnSync(process.execPath, [join(ROOT, 'bench/run.mjs'), entry.row, impl, input ?? '', String(RUNS)],
        { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (r.status !== 0) {
        console.error(`bench: ${entry.row} / ${impl} failed: ${r.stderr.split('\n').slice(0, 5).join(' | ')}`);
        results.push({ row: entry.row, input: input ? input.split('/').pop() : '', impl, failed: r.stderr.split('\n')[0] });
        continue;
      }
      const line = r.stdout.trim().split('\n').pop();
      if (JSON.parse(line).text !== undefined) {
        results.push(JSON.parse(line));
        console.error(`bench: ${entry.row.padEnd(12)} ${JSON.parse(line).input.padEnd(44)} ${impl}: ${JSON.parse(line).text}`);
      } else {
        record(line);
      }
    }
  }
  for (const extra of (await entry.static?.(inputs)) ?? []) results.push(extra);
}

// ---- the table ---------------------------------------------------------------------------------

const groups = new Map();
for (const r of results) {
  const key = `${r.row}\u0000${r.input}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(r);
}
const lines = [];
lines.push('| row | input | implementation | median | rate | peak RSS | vs ours |');
lines.push('|---|---|---|---:|---:|---:|---:|');
for (const group of groups.values()) {
  const oursRef = group.find((r) => r.impl === 'procmotion wasm') ?? group.find((r) => r.impl.startsWith('procmotion'));
  for (const r of group) {
    if (r.failed) {
      lines.push(`| ${r.row} | ${r.input} | ${r.impl} | failed | ${r.failed.replace(/\|/g, '/')} | | |`);
      continue;
    }
    if (r.text) {
      lines.push(`| ${r.row} | ${r.input} | ${r.impl} | ${r.text} | | | |`);
      continue;
    }
    const rate = r.items / (r.median_ms / 1000);
    // time per item (key, frame, solve, byte) relative to ours: item counts may differ between rows
    const ratio = oursRef && !oursRef.text && r !== oursRef
      ? `${((r.median_ms / r.items) / (oursRef.median_ms / oursRef.items)).toFixed(1)}x time` : '';
    const rss = r.reported ? 'not run' : `${(r.max_rss_kb / 1024).toFixed(0)} MB`;
    lines.push(`| ${r.row} | ${r.input} | ${r.impl} | ${r.median_ms < 1 ? r.median_ms.toFixed(3) : r.median_ms.toFixed(1)} ms | ${fmtRate(rate, r.unit)} | ${rss} | ${ratio} |`);
  }
}
const table = lines.join('\n');
console.log(table);

const version = (cmd, a) => {
  try {
    return execFileSync(cmd, a, { encoding: 'utf8' }).split('\n')[0].trim();
  } catch {
    return 'not found';
  }
};
const pkg = (name) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
};
const machine = [
  `- CPU: ${cpus()[0]?.model ?? '?'} x ${cpus().length}, RAM ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  `- Node ${process.version}; ${version('emcc', ['--version'])}; ${version('cc', ['--version'])}`,
  `- babylon-mmd ${pkg('babylon-mmd')}, @babylonjs/core ${pkg('@babylonjs/core')}, mmd-parser ${pkg('mmd-parser')}`,
  `- JS rows: a warm-up of at least 3 runs and 500 ms, then at least ${RUNS} timed runs and 300 ms (at most 2000); native rows: at least ${RUNS} runs and 200 ms after one warm-up run; medians; each row in its own process (peak RSS is that process's); "vs ours" is the time per item (key, frame, solve) relative to procmotion wasm`,
  `- date: ${new Date().toISOString().slice(0, 10)}`,
].join('\n');

if (!ONLY) {
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  const head = existsSync(OUT) ? readFileSync(OUT, 'utf8').split('<!-- table -->')[0] : '# Benchmarks\n\n';
  writeFileSync(OUT, `${head}<!-- table -->\n## Latest run (build-scripts/bench.sh)\n\n${machine}\n\n${table}\n`);
  console.error(`bench: wrote ${OUT}`);
}
