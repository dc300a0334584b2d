// One benchmark measurement in a fresh Node process, so that each row's peak memory is its own:
//   node bench/run.mjs ROW IMPL INPUT [RUNS]
// prints one JSON line: { row, input, impl, median_ms, runs, items, unit, max_rss_kb }.
// Rows live in bench/rows/<row>.mjs and export `impls` = { name: async (input) => ({ run, items, unit }) }
// where run() does one timed unit of work (setup happens outside the timing).
import { basename } from 'node:path';

const [row, impl, input, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 15);
const mod = await import(`./rows/${row}.mjs`);
const make = mod.impls[impl];
if (!make) {
  console.error(`bench: row ${row} has no implementation "${impl}" (${Object.keys(mod.impls).join(', ')})`);
  process.exit(2);
}
const { run, items, unit, label } = await make(input);
// warm-up (JIT tiers, wasm tier-up, caches): at least 3 runs, then up to 50 runs or 300 ms
const warmStart = performance.now();
for (let i = 0; i < 50 && (i < 3 || performance.now() - warmStart < 300); i++) await run();
const times = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  await run();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const median = runs % 2 ? times[(runs - 1) / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
console.log(JSON.stringify({
  row, input: label ?? (input ? basename(input) : ''), impl, median_ms: median, runs, items, unit,
  max_rss_kb: process.resourceUsage().maxRSS,
}));
