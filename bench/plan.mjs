// What build-scripts/bench.sh measures. Each entry: row name, the inputs, the native row arguments
// (build/release/procmotion_bench) and the JS implementations (bench/rows/<row>.mjs). Add rows
// here as capabilities land.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FEATURE_MODULES, createProcMotion } from '../js-glue/index.js';
import { TARGETS, downloadSizes, gzipBytes } from './sizes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = process.env.PM_FIXTURES || join(ROOT, '../shared/fixtures');

/** Inputs that do not exist on disk: a large generated VMD (250 000 bone keys). */
export async function prepareInputs(dir) {
  mkdirSync(dir, { recursive: true });
  const big = join(dir, 'generated-250k.vmd');
  if (!existsSync(big)) {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
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
  const dance = await generatedDances(dir);
  return { big, fixtures: FIXTURES, ...dance };
}

/**
 * Two long dances the size of the seed's real samples (seeds/002: 2901 frames with leg IK in ~0.4 s,
 * 4604 frames baked to FK in ~2.5 s): generated-ik-2901.vmd keys 18 standard bones every 3 frames with an
 * ease curve and moves the foot IK bones; generated-fk-4604.vmd keys 30 bones (legs as rotations) every
 * frame.
 */
async function generatedDances(dir) {
  const ik = join(dir, 'generated-ik-2901.vmd'), fk = join(dir, 'generated-fk-4604.vmd');
  if (existsSync(ik) && existsSync(fk)) return { ik, fk };
  const pm = await createProcMotion({ load: FEATURE_MODULES });
  const ease = new Uint8Array(64);
  const row = [40, 40, 0, 0, 0, 0, 0, 0, 87, 87, 87, 87, 127, 127, 127, 127];
  for (let r = 0; r < 4; r++) ease.set(row.slice(r), 16 * r);
  const quat = (ax, a) => [ax === 0 ? Math.sin(a / 2) : 0, ax === 1 ? Math.sin(a / 2) : 0, ax === 2 ? Math.sin(a / 2) : 0, Math.cos(a / 2)];
  const build = (frames, step, bones, legIk) => {
    const keys = [];
    for (let f = 0; f < frames; f += step) {
      const t = f / 30;
      bones.forEach(([name, axis, amp, freq], b) => keys.push({ name, f, pos: [0, 0, 0], rot: quat(axis, amp * Math.sin(t * freq + b)) }));
      keys.push({ name: 'センター', f, pos: [Math.sin(t), -1 + Math.sin(t * 4), 0], rot: [0, 0, 0, 1] });
      if (legIk) {
        keys.push({ name: '左足ＩＫ', f, pos: [0.5 * Math.sin(t * 2), Math.max(0, Math.sin(t * 4)), Math.cos(t * 2)], rot: [0, 0, 0, 1] });
        keys.push({ name: '右足ＩＫ', f, pos: [-0.5 * Math.sin(t * 2), Math.max(0, -Math.sin(t * 4)), -Math.cos(t * 2)], rot: [0, 0, 0, 1] });
      }
    }
    const names = [...new Set(keys.map((k) => k.name))];
    const n = keys.length;
    const interp = new Uint8Array(n * 64);
    for (let i = 0; i < n; i++) interp.set(ease, 64 * i);
    return pm.writeVmd({ bones: {
      names, nameIndex: Uint32Array.from(keys, (k) => names.indexOf(k.name)), frames: Uint32Array.from(keys, (k) => k.f),
      positions: Float32Array.from(keys.flatMap((k) => k.pos)), rotations: Float32Array.from(keys.flatMap((k) => k.rot)),
      interpolations: interp,
    } });
  };
  const upper = [['上半身', 1, 0.4, 2], ['上半身2', 0, 0.2, 3], ['首', 1, 0.3, 1], ['頭', 0, 0.2, 2], ['左肩', 2, 0.1, 2],
    ['右肩', 2, 0.1, 2], ['左腕', 2, 0.8, 3], ['右腕', 2, -0.8, 3], ['左ひじ', 1, 1.0, 4], ['右ひじ', 1, -1.0, 4],
    ['左手首', 0, 0.5, 5], ['右手首', 0, 0.5, 5], ['下半身', 1, 0.3, 2], ['グルーブ', 1, 0.1, 1], ['左腕捩', 0, 0.3, 2],
    ['右腕捩', 0, 0.3, 2]];
  const legs = [['左足', 0, 0.6, 4], ['右足', 0, 0.6, 4], ['左ひざ', 0, -1.0, 4], ['右ひざ', 0, -1.0, 4], ['左足首', 0, 0.3, 4],
    ['右足首', 0, 0.3, 4], ['左手捩', 0, 0.2, 3], ['右手捩', 0, 0.2, 3], ['左親指１', 2, 0.3, 5], ['右親指１', 2, 0.3, 5],
    ['左人指１', 2, 0.3, 5], ['右人指１', 2, 0.3, 5], ['左小指１', 2, 0.3, 5], ['右小指１', 2, 0.3, 5]];
  writeFileSync(ik, build(2901, 3, upper, true));
  writeFileSync(fk, build(4604, 1, [...upper, ...legs], false));
  return { ik, fk };
}

const vmdFixtures = (inp) => [
  ...['mei_wait.vmd', 'gene_02_laugh.vmd', 'babylon_physics_toggle_test_yyb10th.vmd']
    .map((f) => join(inp.fixtures, 'vmd', f)).filter((p) => existsSync(p)),
  inp.big,
];

/**
 * Download sizes (gzip -9, bench/sizes.mjs): each wasm module; what a catwalk-only app downloads of
 * procmotion (the core's .wasm and the JS an app bundles for createProcMotion +
 * createCatwalkAnimationAsync, minified by esbuild with code splitting, so the feature modules' JS stays
 * in their own chunks); everything (every .wasm and every chunk), and everything as one file
 * (procmotion-all.wasm and every chunk); beside babylon-mmd's smallest wasm runtime and mmd-parser.
 */
async function sizeRows() {
  const rows = [];
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const sized = (impl, bytes, gzip) => rows.push({ row: 'size', input: 'download', impl, text: `${kb(bytes)} (${kb(gzip)} gzip)` });
  const add = (impl, path) => {
    if (!existsSync(path)) return;
    const bytes = readFileSync(path);
    sized(impl, bytes.length, gzipBytes(bytes));
  };
  const s = await downloadSizes();
  if (s) {
    for (const [m, f] of Object.entries(s.modules)) sized(`procmotion ${m} module (${f.file})`, f.bytes, f.gzip);
    if (s.all) sized(`procmotion every module in one file (${s.all.file}, load: 'all')`, s.all.bytes, s.all.gzip);
    const { catwalkApp: c, everything: e, oneFile: o } = s;
    rows.push({ row: 'size', input: 'download', impl: `a catwalk-only app: core .wasm + its JS (target <= ${TARGETS.catwalkApp} KB gzip)`,
      text: `${kb(c.wasm + c.js)} gzip (${kb(c.wasm)} wasm + ${kb(c.js)} JS)` });
    rows.push({ row: 'size', input: 'download', impl: 'everything: every .wasm + all JS',
      text: `${kb(e.wasm + e.js)} gzip (${kb(e.wasm)} wasm + ${kb(e.js)} JS); without beats ${kb(e.withoutBeats + e.js)}` });
    if (o) {
      rows.push({ row: 'size', input: 'download', impl: `everything as one file: ${s.all.file} + all JS`,
        text: `${kb(o.wasm + o.js)} gzip (${kb(o.wasm)} wasm + ${kb(o.js)} JS)` });
    }
  }
  add('procmotion-wasi.wasm (zero imports, one module)', join(ROOT, 'build/wasi/procmotion-wasi.wasm'));
  add('babylon-mmd smallest wasm runtime (sr)', join(ROOT, 'node_modules/babylon-mmd/esm/Runtime/Optimized/wasm/sr/index_bg.wasm'));
  add('mmd-parser (minified)', join(ROOT, 'node_modules/mmd-parser/build/mmdparser.min.js'));
  return rows;
}

/**
 * The seed's TypeScript keypoint pipeline (seeds/002), reported there and not runnable here: 2901 frames
 * with leg IK in about 0.4 s and 4604 baked-FK frames in about 2.5 s, on its own samples. Shown beside
 * our generated dances of the same lengths (generated-ik-2901.vmd, generated-fk-4604.vmd).
 */
function seedKeypointRows(inp) {
  const seed = (path, frames, ms) => ({
    row: 'keypoints', input: path.split('/').pop(), impl: 'the TypeScript keypoint pipeline procmotion replaces (its reported time, not run)',
    median_ms: ms, runs: 0, items: frames, unit: 'frames', reported: true,
  });
  return [seed(inp.ik, 2901, 400), seed(inp.fk, 4604, 2500)];
}

export const PLAN = [
  {
    row: 'vmd-parse',
    inputs: vmdFixtures,
    native: (path) => ['vmd-parse', path],
    js: ['procmotion wasm', 'babylon-mmd ParseFromBuffer', 'babylon-mmd VmdLoader', 'mmd-parser',
      'ratio in one process (ParseFromBuffer / ours, alternating)'],
  },
  {
    row: 'sjis',
    inputs: () => [null],
    native: () => ['sjis'],
    js: ['procmotion wasm encode', 'procmotion wasm decode', 'TextDecoder shift_jis'],
  },
  // native: one call measures every case (bench_catwalk.c); JS: one process per case
  { row: 'catwalk', inputs: () => [null], native: () => ['catwalk'] },
  {
    row: 'catwalk',
    inputs: (inp) => ['default', 'beat128', 'uturn', join(inp.fixtures, 'pmx/yw_test_model/yw_test_model.pmx')]
      .filter((p) => !p.includes('/') || existsSync(p)),
    js: ['procmotion wasm'],
  },
  // the cost of closing the loop: the same loops from bone names alone (nothing to land on)
  { row: 'catwalk', inputs: () => ['default', 'uturn'], js: ['procmotion wasm, names only (no landing)'] },
  {
    row: 'idle',
    inputs: (inp) => ['default', 'beat120', join(inp.fixtures, 'pmx/yw_test_model/yw_test_model.pmx')]
      .filter((p) => !p.includes('/') || existsSync(p)),
    js: ['procmotion wasm'],
  },
  {
    row: 'dance',
    inputs: (inp) => ['loop', 'song', join(inp.fixtures, 'pmx/yw_test_model/yw_test_model.pmx')]
      .filter((p) => !p.includes('/') || existsSync(p)),
    js: ['procmotion wasm'],
  },
  {
    row: 'keypoints',
    inputs: (inp) => [
      ...['bvh/cmu_131_01.bvh', 'vmd/mei_greeting.vmd', 'vmd/gene_02_laugh.vmd', 'gltf/RobotExpressive.glb']
        .map((f) => join(inp.fixtures, f)).filter((p) => existsSync(p)),
      inp.ik, inp.fk,
    ],
    native: (path) => ['keypoints', path],
    js: ['procmotion wasm'],
    static: seedKeypointRows,
  },
  {
    row: 'retarget',
    inputs: (inp) => [join(inp.fixtures, 'bvh/cmu_131_01.bvh')].filter((p) => existsSync(p)),
    js: ['procmotion wasm, onto the mannequin', 'procmotion wasm, onto yw_test_model', 'procmotion wasm, the clip as FBX onto the mannequin',
      'toKeypoints of the same clip at 30 fps'],
  },
  {
    row: 'scoring',
    inputs: (inp) => [join(inp.fixtures, 'bvh/cmu_131_01.bvh')].filter((p) => existsSync(p)),
    js: ['procmotion wasm scoreDance', 'full-matrix DTW in JavaScript (textbook loop)'],
  },
  {
    row: 'pose',
    inputs: (inp) => [
      ...['vmd/mei_wait.vmd', 'vmd/gene_02_laugh.vmd', 'vmd/mei_greeting.vmd']
        .map((f) => join(inp.fixtures, f)).filter((p) => existsSync(p)),
      inp.ik,
    ].filter(() => existsSync(join(inp.fixtures, 'pmx/yw_test_model/yw_test_model.pmx'))),
    native: (path, inp) => ['pose', join(inp.fixtures, 'pmx/yw_test_model/yw_test_model.pmx'), path],
    js: ['procmotion wasm', 'babylon-mmd MmdRuntime (JS)', 'babylon-mmd MmdWasmRuntime'],
  },
  {
    row: 'two-bone-ik',
    inputs: () => [null],
    native: () => ['two-bone-ik'],
    js: ['procmotion wasm (glue, one call per solve)'],
  },
  { row: 'size', inputs: () => [], static: sizeRows },
];
