// The package's types as a TypeScript user gets them: a consumer project with the packed tarball in
// node_modules compiles a small program using the main entry points (procmotion, procmotion/babylon,
// procmotion/all) with tsc --strict, with moduleResolution bundler and nodenext, under the current
// TypeScript (7) and 5.x, checking the declaration files too (skipLibCheck off): no error in the
// program or in procmotion's .d.ts files
// (@babylonjs/core's and babylon-mmd's own declarations do not pass that, so errors located in them
// are theirs and are not counted). Its @ts-expect-error lines prove that wrong names and types are
// rejected (tsc fails on an @ts-expect-error that expects nothing), and the public declarations
// contain no `any`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT } from './support/babylon.mjs';
import { consumerProject, packPackage, wasmBuilt } from './support/package.mjs';

const SKIP = wasmBuilt() ? false : 'SKIP: js-glue/*.wasm not built (bash build-scripts/build.sh wasm)';

const PROGRAM = `import { createProcMotion, ProcMotionError, CATWALK_PARAMETERS, type CatwalkResult, type Vmd } from 'procmotion';
import { applyGrooveToMmdModel, applyLifelikeToMmdModel, createCatwalkAnimationAsync, createDanceAnimationAsync, createIdleAnimationAsync, createTransitionAnimationAsync, getModelInfo, loopRuntimeAnimation, playTransition } from 'procmotion/babylon';
import { createProcMotion as createAll, ProcMotionError as AllError, type ProcMotion } from 'procmotion/all';
import type { MmdModel } from 'babylon-mmd/esm/Runtime/mmdModel.js';
import type { MmdRuntime } from 'babylon-mmd/esm/Runtime/mmdRuntime.js';
import 'babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation.js'; // adds createRuntimeAnimation, as in the README

export async function main(model: MmdModel, runtime: MmdRuntime, pmx: Uint8Array): Promise<number> {
  const pm = await createProcMotion({ load: ['motion'] });
  const vmd: Vmd = pm.readVmd(pm.writeVmd({ bones: { names: ['センター'], nameIndex: [0], frames: [0], positions: [0, 0, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64) } }));
  const canonical: Uint8Array = pm.writeVmd(vmd, { canonical: true });
  const rawName: Uint8Array = vmd.bones.rawNames[0];
  const rig = pm.analyzeRig(pmx);
  const reach: number | undefined = rig.legs.left?.reach.max;
  const walk: CatwalkResult = pm.generateCatwalkVmd({ hipSway: 0.8, stepCadence: 'beat' }, 128, null, null, { skeleton: pm.readPmx(pmx) });
  const frames: number = walk.loopFrames + walk.keyCount + (walk.report?.maxError ?? 0) + walk.plan.ankles.length + vmd.bones.count;
  const landed: boolean | undefined = walk.report?.landed;
  const { animation: landedWalk } = await createCatwalkAnimationAsync(pm, model, null, 128, { modelBytes: pmx });
  void landedWalk;
  const { animation, loopFrames } = await createCatwalkAnimationAsync(pm, model, { uTurn: true }, 120);
  model.setRuntimeAnimation(model.createRuntimeAnimation(animation));
  const loop = loopRuntimeAnimation(runtime, loopFrames);
  loop.dispose();
  const ev = pm.createPoseEvaluator(walk.vmd, pmx);
  const pose = ev.evaluate(12.5, { ik: false });
  ev.dispose();
  const groove = pm.createGroove({ joints: { head: { amp: 5 } } }, pmx);
  applyGrooveToMmdModel(groove, model, 1.5, 128);
  groove.offsets(null, 1.5, { bpm: 128, offset: 0.25 });
  groove.dispose();
  // a beat grid where a BPM goes: { bpm, offset }, a tap-tempo grid, a detectBeats result
  const onGrid = pm.generateCatwalkVmd({}, { bpm: 124, offset: 0.2 }, null, null);
  const strikeError: number = (onGrid.sync?.maxErrorFrames ?? 0) + (onGrid.plan.strikes?.[0]?.errorFrames ?? 0) + onGrid.beatsPerStep + (onGrid.looping ? 1 : 0);
  const valleyError: number | undefined = pm.bakeGroove(null, pmx, null, { bpm: 128, offset: 0.1 }).report.sync?.maxErrorFrames;
  const baked: Uint8Array = pm.bakeGroove(null, pmx, null, 128).vmd;
  const footError: number | undefined = pm.bakeGroove(null, pmx, null, 128).report.landing?.maxError;
  const tl = pm.createTimeline(pmx);
  const traced = tl.bake(120);
  const keyframeSync: number | undefined = tl.bake({ bpm: 120, offset: 0.5 }).report.sync?.count;
  await pm.loadAsync('beats');
  const tapped = pm.generateCatwalkVmd(null, pm.beatGridFromTaps([0.5, 1, 1.5, 2]), null, null).firstStrikeBeat;
  const detected = pm.bakeGroove(null, pmx, null, pm.detectBeats(new Float32Array(44100), 44100)).report.frames;
  const active: Uint8Array = traced.plan.active;
  tl.dispose();
  await pm.loadAsync('keypoints');
  const kp = pm.toKeypoints(walk.vmd, { format: 'vmd', fps: 30 });
  await pm.loadAsync('vrm');
  const vrm: Uint8Array = pm.pmxToVrm(pmx, { materials: 'unlit', meta: { authors: ['me'] } }).glb;
  const idle = pm.generateIdleVmd({ bodySway: 0.7, idle: { seed: 3 } }, 120, null, null, { skeleton: pmx });
  const hands: number = (idle.body?.hands?.left.clearance ?? 0) + idle.loopFrames + idle.events.length + (idle.report?.maxSlide ?? 0);
  const { animation: idleAnim, loopFrames: idleLoop } = await createIdleAnimationAsync(pm, model, { gestureFrequency: 1 }, null, { modelBytes: pmx });
  const dance = pm.generateAutoDanceVmd({ style: 'idol', dance: { energy: 0.8 } }, pm.detectBeats(new Float32Array(44100 * 4), 44100), null, null);
  const phrase: string = dance.phrases.length ? dance.phrases[0].step : 'groove';
  const { result: danced, loopFrames: danceLoop } = await createDanceAnimationAsync(pm, model, { style: 'hiphop' }, 120, { modelBytes: pmx });
  const danceFigures: number = danced.distinctPhrases + danceLoop + dance.frames + phrase.length;
  // @ts-expect-error: not a style
  pm.generateAutoDanceVmd({ style: 'salsa' }, 120, null, null);
  const life = pm.createLifelike({ eyeContact: 15, blinkInterval: [3, 8] }, pmx);
  const blink: number = applyLifelikeToMmdModel(life, model, 2.5).blink + life.sample(3).rotations[3];
  life.dispose();
  const layered = pm.bakeLifelike(walk.vmd, pmx, { breathRate: 0.5 }).report.blinks;
  const { animation: tr, result: trResult } = await createTransitionAnimationAsync(pm, pmx, idle.vmd, walk.vmd, { fromFrame: 100, toLoopFrames: walk.loopFrames });
  playTransition(runtime, model, tr, idleAnim, { frames: trResult.frames, nextFrame: trResult.nextFrame, loopFrames: idleLoop }).dispose();
  const steps: number = pm.bakeTransition(walk.vmd, idle.vmd, pmx).report.steps + hands + blink + layered + danceFigures;
  // @ts-expect-error: an unknown idle parameter
  pm.generateIdleVmd({ bodySwing: 0.8 }, null, null, null);
  // @ts-expect-error: blinkInterval is [min, max]
  pm.createLifelike({ blinkInterval: 4 }, pmx);
  const names: readonly string[] = CATWALK_PARAMETERS;
  try {
    pm.readVmd(new Uint8Array(4));
  } catch (e) {
    if (e instanceof ProcMotionError && e.code === 'PM_ERR_TRUNCATED' && e.module === 'vmd') return 0;
  }
  void getModelInfo(model).boneNames.length;
  // @ts-expect-error: an unknown catwalk parameter
  pm.generateCatwalkVmd({ hipSwing: 0.8 }, 128, null, null);
  // @ts-expect-error: stepCadence is 'beat' or '2beat'
  pm.generateCatwalkVmd({ stepCadence: 'triple' }, 128, null, null);
  // @ts-expect-error: bpm is a number, null or a beat grid
  pm.generateCatwalkVmd({}, '128', null, null);
  // @ts-expect-error: a grid's bpm is a number
  pm.generateCatwalkVmd({}, { bpm: '128', offset: 0 }, null, null);
  // @ts-expect-error: readVmd takes bytes
  pm.readVmd('dance.vmd');
  // @ts-expect-error: no such module
  await pm.loadAsync('physics');
  // @ts-expect-error: createProcMotion has no option moduleOptions
  await createProcMotion({ moduleOptions: {} });
  await createProcMotion({ shiftJisTable: new URL('https://cdn.example/procmotion-sjis.bin'), wasm: 'https://cdn.example/procmotion.wasm' });
  // @ts-expect-error: shiftJisTable is a URL, bytes or a Response, not a number
  await createProcMotion({ shiftJisTable: 42 });
  // every module in one file (procmotion-all.wasm), from the package or from elsewhere
  const one = await createProcMotion({ load: 'all', wasm: { all: new URL('https://cdn.example/procmotion-all.wasm') } });
  const everyModule: number = one.readPmx(pmx).bones.length + one.pmxToVrm(pmx).glb.length;
  void everyModule;
  // procmotion/all: the same API, load 'all' by default
  const fromAll: ProcMotion = await createAll();
  const allBones: number = fromAll.readPmx(pmx).bones.length + (await createAll({ load: ['motion'] })).modules.length;
  void allBones;
  void (AllError === ProcMotionError);
  // @ts-expect-error: load is a module, a list of them or 'all', there too
  await createAll({ load: 'everything' });
  // @ts-expect-error: load is a module, a list of them or 'all'
  await createProcMotion({ load: 'everything' });
  // @ts-expect-error: evaluate takes a frame number
  ev.evaluate('12');
  // @ts-expect-error: no such method (it is dispose)
  ev.destroy();
  // @ts-expect-error: loopRuntimeAnimation needs the frame count
  loopRuntimeAnimation(runtime);
  // @ts-expect-error: the result has no such field
  void walk.loopLength;
  // @ts-expect-error: canonical is a boolean
  pm.writeVmd(vmd, { canonical: 'yes' });
  // @ts-expect-error: analyzeRig takes a model (bytes or a skeleton), not a file name
  pm.analyzeRig('model.pmx');
  // @ts-expect-error: a leg has no such figure
  void rig.legs.right?.reachMax;
  // @ts-expect-error: the catwalk's report may be null (names only: nothing measured)
  void walk.report.maxError;
  // @ts-expect-error: the plan's ankles are a Float32Array
  const ankles: number[] = walk.plan.ankles;
  // @ts-expect-error: materials is 'mtoon' or 'unlit'
  pm.pmxToVrm(pmx, { materials: 'pbr' });
  return frames + pose.positions.length + baked.length + kp.frameCount + names.length + canonical.length + rawName.length + (reach ?? 0) + vrm.length + (footError ?? 0) + active.length + ankles.length + (landed ? 1 : 0) + strikeError + (valleyError ?? 0) + (keyframeSync ?? 0) + tapped + detected + steps;
}
`;

const TSCONFIG = (resolution) => JSON.stringify({
  compilerOptions: {
    strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false,
    module: resolution === 'bundler' ? 'esnext' : 'nodenext', moduleResolution: resolution,
  },
  files: ['main.ts'],
}, null, 2);

const COMPILERS = [
  ['TypeScript 7', join(REPO_ROOT, 'node_modules/typescript/bin/tsc')],
  ['TypeScript 5', join(REPO_ROOT, 'node_modules/typescript5/bin/tsc')],
];

for (const resolution of ['bundler', 'nodenext']) {
  for (const [label, tsc] of COMPILERS) {
    test(`the types pass tsc --strict in a consumer project (${label}, moduleResolution ${resolution})`, { skip: SKIP, timeout: 300_000 }, () => {
      const dir = consumerProject(`ts-${resolution}-${label.replace(/\D/g, '')}`, {
        'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
        'tsconfig.json': TSCONFIG(resolution),
        'main.ts': PROGRAM,
      });
      const version = spawnSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).stdout.trim();
      const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
      const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
      const ours = lines.filter((l) => /^main\.ts|node_modules\/procmotion\//.test(l));
      const peers = lines.length - ours.length;
      assert.ok(r.status === 0 || lines.length > 0, `${version} failed without a diagnostic:\n${r.stdout}${r.stderr}`);
      assert.deepEqual(ours, [], `${version}: errors in the program or procmotion's declarations`);
      console.log(`# ${version}, ${resolution}: 0 errors in procmotion's types and the program (${peers} in the peers' own declarations)`);
    });
  }
}

test('the public declarations contain no any', { skip: SKIP }, () => {
  const { dir } = packPackage();
  for (const f of ['index.d.ts', 'babylon.d.ts', 'all.d.ts']) {
    const code = readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.doesNotMatch(code, /\bany\b/, `${f} uses any`);
  }
});
