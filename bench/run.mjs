// One benchmark measurement in a fresh Node process, so that each row's peak memory is its own:
//   node bench/run.mjs ROW IMPL INPUT [RUNS]
// prints one JSON line: { row, input, impl, median_ms, runs, items, unit, max_rss_kb } (or { ..., text }
// for an implementation that reports a figure of its own, e.g. a ratio measured in one process).
// Rows live in bench/rows/<row>.mjs and export `impls` = { name: async (input) => ({ run, items, unit }) }
// where run() does one timed unit of work (setup happens outside the timing); an implementation may
// instead return { text, label } from its own measure.
import { basename } from 'node:path';

const [row, impl, input, runsArg] = process.argv.slice(2);
const minRuns = Number(runsArg ?? 15);
const mod = await import(`./rows/${row}.mjs`);
const make = mod.impls[impl];
if (!make) {
  console.error(`bench: row ${row} has no implementation "${impl}" (${Object.keys(mod.impls).join(', ')})`);
  process.exit(2);
}
const made = await make(input);
const label = made.label ?? (input ? basename(input) : '');
if (made.text !== undefined) {
  console.log(JSON.stringify({ row, input: label, impl, text: made.text, max_rss_kb: process.resourceUsage().maxRSS }));
  process.exit(0);
}
const { run, items, unit } = made;
// warm-up (JIT tiers, wasm tier-up, caches): at least 3 runs and 500 ms (at most 5000 runs)
const warmStart = performance.now();
for (let i = 0; i < 5000 && (i < 3 || performance.now() - warmStart < 500); i++) await run();
// timed: at least minRuns runs and 300 ms (at most 2000 runs), so that short rows get enough samples
// for a stable median on a shared machine
const times = [];
const start = performance.now();
while (times.length < 2000 && (times.length < minRuns || performance.now() - start < 300)) {
  const t0 = performance.now();
  await run();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const n = times.length;
const median = n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
console.log(JSON.stringify({
  row, input: label, impl, median_ms: median, runs: n, items, unit, max_rss_kb: process.resourceUsage().maxRSS,
}));
