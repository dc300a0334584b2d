// What build-scripts/bench.sh measures. Each entry: row name, the inputs, the native row arguments
// (build/release/procmotion_bench) and the JS implementations (bench/rows/<row>.mjs). Add rows
// here as capabilities land.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { createProcMotion } from '../js-glue/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = process.env.PM_FIXTURES || join(ROOT, '../shared/fixtures');

/** Inputs that do not exist on disk: a large generated VMD (250 000 bone keys). */
export async function prepareInputs(dir) {
  mkdirSync(dir, { recursive: true });
  const big = join(dir, 'generated-250k.vmd');
  if (!existsSync(big)) {
    const pm = await createProcMotion();
    const n = 250000;
    const names = Array.from({ length: 100 }, (_, i) => `bone${i}`);
    const rot = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const a = (i % 360) * (Math.PI / 180);
      rot[4 * i + 1] = Math.sin(a / 2);
      rot[4 * i + 3] = Math.cos(a / 2);
    }
    const interp = new Uint8Array(n * 64);
    for (let i = 0; i < n; i++) interp.set([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107], 64 * i);
    writeFileSync(big, pm.writeVmd({
      bones: {
        names, nameIndex: Uint32Array.from({ length: n }, (_, i) => i % 100),
        frames: Uint32Array.from({ length: n }, (_, i) => Math.floor(i / 100)),
        positions: new Float32Array(n * 3).map((_, i) => (i % 7) * 0.1), rotations: rot, interpolations: interp,
      },
    }));
  }
  return { big, fixtures: FIXTURES };
}

const vmdFixtures = (inp) => [
  ...['mei_wait.vmd', 'gene_02_laugh.vmd', 'babylon_physics_toggle_test_yyb10th.vmd']
    .map((f) => join(inp.fixtures, 'vmd', f)).filter((p) => existsSync(p)),
  inp.big,
];

function sizeRows() {
  const rows = [];
  const add = (impl, path) => {
    if (!existsSync(path)) return;
    const bytes = readFileSync(path);
    rows.push({ row: 'size', input: 'module bytes', impl, text: `${(statSync(path).size / 1024).toFixed(0)} KB (${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(0)} KB gzip)` });
  };
  add('procmotion.mjs (wasm inlined, ES module)', join(ROOT, 'js-glue/dist/procmotion.mjs'));
  add('procmotion-wasi.wasm (zero imports)', join(ROOT, 'build/wasi/procmotion-wasi.wasm'));
  add('babylon-mmd smallest wasm runtime (sr)', join(ROOT, 'node_modules/babylon-mmd/esm/Runtime/Optimized/wasm/sr/index_bg.wasm'));
  add('mmd-parser (minified)', join(ROOT, 'node_modules/mmd-parser/build/mmdparser.min.js'));
  return rows;
}

export const PLAN = [
  {
    row: 'vmd-parse',
    inputs: vmdFixtures,
    native: (path) => ['vmd-parse', path],
    js: ['procmotion wasm', 'babylon-mmd ParseFromBuffer', 'babylon-mmd VmdLoader', 'mmd-parser'],
  },
  {
    row: 'sjis',
    inputs: () => [null],
    native: () => ['sjis'],
    js: ['procmotion wasm encode', 'procmotion wasm decode', 'TextDecoder shift_jis'],
  },
  { row: 'size', inputs: () => [], static: sizeRows },
];
