#!/usr/bin/env node
// The generators measured on every zoo model, the mannequin and the shared PMX fixtures with the
// harness (tests/node/support/played.mjs), as babylon-mmd plays them (MmdRuntime, its own CCD IK) and
// as procmotion's evaluator does. Prints a markdown table.
//
//   node tests/zoo/baseline.mjs [--bpm 60,128,200] [--cadence beat,2beat] [--json out.json]
//
// Needs the native build (build/native/zoo) and the wasm glue (js-glue/dist). Catwalk: in place,
// traverse and U-turn on the model's own skeleton (readPmx), every frame of the loop; per foot the
// distance from 足首 to its 足ＩＫ bone (the target the VMD keys) and how far 足首 goes below its rest
// height; the worst over the BPMs and cadences asked for. Groove: pm.bakeGroove on the rest pose
// (defaults: squat bounce on), every half frame; how far 足首 moves from where the rest pose puts it
// (the anchor), and the bake's own report.maxFootError.
import { writeFileSync } from 'node:fs';

import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';
import { below, boneGap, createPlayer, driftFrom, frameRange } from '../node/support/played.mjs';
import { everyModel, zooAvailable } from '../node/support/zoo.mjs';

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const BPMS = arg('--bpm', '128').split(',').map(Number);
const CADENCES = arg('--cadence', '2beat').split(',');
const MODES = [['in place', {}], ['traverse', { traverse: true }], ['U-turn', { uTurn: true }]];
const LEGS = ['左', '右'];
const NAMES = LEGS.flatMap((s) => [`${s}足首`, `${s}足ＩＫ`]);

if (!zooAvailable()) {
  console.error('baseline: build/native/zoo/zoo.json not found (bash build-scripts/build.sh native)');
  process.exit(1);
}
const pm = await createProcMotion({ load: FEATURE_MODULES });

/** Catwalk figures of one played loop: IK gap and ankle depth below rest, worst foot. */
function walkFigures(played, rest) {
  let gap = 0, depth = 0;
  for (const s of LEGS) {
    gap = Math.max(gap, boneGap(played, `${s}足首`, `${s}足ＩＫ`).max);
    depth = Math.max(depth, below(played, `${s}足首`, rest[s]).depth);
  }
  return { gap, depth };
}

const rows = [];
const t0 = Date.now();
for (const m of everyModel(pm)) {
  const bytes = m.bytes();
  const skeleton = pm.readPmx(bytes);
  const restY = Object.fromEntries(LEGS.map((s) => [s, skeleton.bones.find((b) => b.name === `${s}足首`).position[1]]));
  const players = { babylon: await createPlayer(m), ours: await createPlayer(m, { runtime: 'procmotion', pm }) };
  const row = { id: m.id, kind: m.kind, format: m.format, walk: {}, groove: {} };
  try {
    for (const [mode, state] of MODES) {
      const worst = { babylon: { gap: 0, depth: 0 }, ours: { gap: 0, depth: 0 } };
      for (const bpm of BPMS) {
        for (const cadence of CADENCES) {
          const r = pm.generateCatwalkVmd({ ...state, stepCadence: cadence }, bpm, null, null, { skeleton });
          const frames = frameRange(r.loopFrames);
          for (const [who, p] of Object.entries(players)) {
            const f = walkFigures(await p.play(r.vmd, NAMES, frames), restY);
            worst[who].gap = Math.max(worst[who].gap, f.gap);
            worst[who].depth = Math.max(worst[who].depth, f.depth);
          }
        }
      }
      row.walk[mode] = worst;
    }
    const { vmd, report } = pm.bakeGroove(null, bytes, null, 128);
    const frames = frameRange(report.frames, 0.5);
    row.groove.reported = report.maxFootError ?? null;
    for (const [who, p] of Object.entries(players)) {
      const rest = await p.play(null, NAMES, [0]);
      const played = await p.play(vmd, NAMES, frames);
      row.groove[who] = Math.max(...LEGS.map((s) => driftFrom(played, `${s}足首`, rest.at(0, `${s}足首`)).max));
    }
  } finally {
    players.babylon.dispose();
    players.ours.dispose();
  }
  rows.push(row);
  process.stderr.write(`baseline: ${m.id} done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
}

const f = (v) => (v == null ? '-' : v < 5e-5 ? '0' : v.toFixed(v < 0.1 ? 4 : 3));
const pair = (w) => `${f(w.babylon)} / ${f(w.ours)}`;
console.log(`Catwalk at ${BPMS.join(', ')} BPM, cadence ${CADENCES.join(', ')} (worst of these), and the groove bake at 128 BPM; units; each cell babylon-mmd / procmotion's evaluator.\n`);
console.log('| model | in place: ankle to 足ＩＫ | below rest | traverse: ankle to 足ＩＫ | below rest | U-turn: ankle to 足ＩＫ | below rest | groove: ankle off anchor | bake reports |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const cells = MODES.flatMap(([mode]) => {
    const w = r.walk[mode];
    return [pair({ babylon: w.babylon.gap, ours: w.ours.gap }), pair({ babylon: w.babylon.depth, ours: w.ours.depth })];
  });
  console.log(`| ${r.id}${r.kind === 'zoo' ? '' : ` (${r.kind})`} | ${cells.join(' | ')} | ${pair(r.groove)} | ${f(r.groove.reported)} |`);
}
const json = arg('--json', null);
if (json) writeFileSync(json, JSON.stringify({ bpms: BPMS, cadences: CADENCES, rows }, null, 1));
process.stderr.write(`baseline: ${rows.length} models in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
