// Hardening of the wasm module through the JS glue: 100 000 mixed calls leave the heap as they
// found it, running out of memory is a ProcMotionError (never an abort) and the module keeps working,
// hostile arguments never reach the module as wrapped-around sizes, and no API hands out a view of wasm
// memory. Inputs are made here (no fixtures needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FEATURE_MODULES, createProcMotion, ProcMotionError } from '../../js-glue/index.js';

const pm = await createProcMotion({ load: FEATURE_MODULES });

// ---- inputs --------------------------------------------------------------------------------------

const BONES = ['センター', '上半身', '左足ＩＫ', '右足ＩＫ', '左腕'];
function motion(keys = 20) {
  const n = keys * BONES.length;
  const m = {
    modelName: 'hardening',
    bones: {
      count: n, names: BONES, nameIndex: new Uint32Array(n), frames: new Uint32Array(n),
      positions: new Float32Array(n * 3), rotations: new Float32Array(n * 4), interpolations: new Uint8Array(n * 64).fill(20),
    },
    morphs: { count: 2, names: ['まばたき'], nameIndex: new Uint32Array(2), frames: new Uint32Array([0, 10]), weights: new Float32Array([0, 1]) },
    properties: {
      count: 1, frames: new Uint32Array([0]), visible: new Uint8Array([1]), ikStart: new Uint32Array([0, 1]),
      ikNames: ['左足ＩＫ'], ikNameIndex: new Uint32Array([0]), ikEnabled: new Uint8Array([1]),
    },
  };
  for (let i = 0; i < n; i++) {
    m.bones.nameIndex[i] = i % BONES.length;
    m.bones.frames[i] = Math.floor(i / BONES.length) * 3;
    const a = 0.05 * i;
    m.bones.rotations.set([Math.sin(a) * 0.3, 0, 0, Math.sqrt(1 - (Math.sin(a) * 0.3) ** 2)], i * 4);
    m.bones.positions.set([0, i % 3 === 0 ? 1 : 0, 0], i * 3);
  }
  return m;
}

function bvh(frames = 4) {
  const rig = [
    ['Hips', -1, 0, 40, 0], ['Spine', 0, 0, 10, 0], ['Head', 1, 0, 15, 0], ['LeftArm', 1, 6, 13, 0], ['LeftForeArm', 3, 10, 0, 0],
    ['RightArm', 1, -6, 13, 0], ['RightForeArm', 5, -10, 0, 0], ['LeftUpLeg', 0, 4, -2, 0], ['LeftLeg', 7, 0, -18, 0],
    ['LeftFoot', 8, 0, -17, 0], ['RightUpLeg', 0, -4, -2, 0], ['RightLeg', 10, 0, -18, 0], ['RightFoot', 11, 0, -17, 0],
  ];
  const out = ['HIERARCHY'];
  const emit = (j, depth) => {
    const [name, , x, y, z] = rig[j];
    const pad = '  '.repeat(depth);
    out.push(`${pad}${j ? 'JOINT' : 'ROOT'} ${name}`, `${pad}{`, `${pad}  OFFSET ${x} ${y} ${z}`,
      `${pad}  CHANNELS ${j ? 3 : 6}${j ? '' : ' Xposition Yposition Zposition'} Zrotation Xrotation Yrotation`);
    const kids = rig.map((r, k) => [r, k]).filter(([r]) => r[1] === j);
    if (!kids.length) out.push(`${pad}  End Site`, `${pad}  {`, `${pad}    OFFSET 0 3 0`, `${pad}  }`);
    for (const [, k] of kids) emit(k, depth + 1);
    out.push(`${pad}}`);
  };
  emit(0, 0);
  const channels = 6 + 3 * (rig.length - 1);
  out.push('MOTION', `Frames: ${frames}`, 'Frame Time: 0.0333333');
  for (let f = 0; f < frames; f++) out.push(Array.from({ length: channels }, (_, c) => (c === 1 ? 40 : 5 * Math.sin(f + c)).toFixed(3)).join(' '));
  return out.join('\n') + '\n';
}

const vmdObj = motion();
const vmdBytes = pm.writeVmd(vmdObj);
const pmxBytes = pm.mannequinPmx();
const skeleton = pm.readPmx(pmxBytes);
const bvhText = bvh();
const kp = pm.toKeypoints(bvhText);

// ---- every API hands out copies ------------------------------------------------------------------

/** Every typed array reachable from `value` (objects, arrays) must live outside wasm memory. */
function assertNoWasmViews(value, where, seen = new Set()) {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    assert.notEqual(value.buffer, pm.mod.HEAPU8.buffer, `${where}: a view of wasm memory`);
    return;
  }
  assert.notEqual(value, pm.mod.HEAPU8.buffer, `${where}: the wasm memory itself`);
  for (const [k, v] of Object.entries(value)) assertNoWasmViews(v, `${where}.${k}`, seen);
}

test('no API hands out a view of wasm memory', () => {
  const ev = pm.createPoseEvaluator(vmdBytes, skeleton);
  try {
    const results = {
      readVmd: pm.readVmd(vmdBytes), writeVmd: pm.writeVmd(vmdObj), readPmx: pm.readPmx(pmxBytes), mannequinPmx: pm.mannequinPmx(),
      mapHumanoid: pm.mapHumanoid(skeleton), evaluatePose: pm.evaluatePose(vmdObj, skeleton, 7.5), evaluate: ev.evaluate(3),
      positions: ev.positions(0, 5, 2), solveTwoBoneIk: pm.solveTwoBoneIk([0, 10, 0], [0, 6, -1], [0, 1, 0], [0, 3, -2], [0, 6, -5]),
      encodeShiftJis: pm.encodeShiftJis('センター'), toKeypoints: pm.toKeypoints(bvhText), toKeypointsVmd: pm.toKeypoints(vmdBytes),
      toKeypointsModel: pm.toKeypoints(vmdBytes, { format: 'vmd', model: pmxBytes }), encodeBinary: pm.writeKeypoints(kp, { format: 'binary' }),
      keypointFeatures: pm.keypointFeatures(kp),
    };
    for (const [name, value] of Object.entries(results)) assertNoWasmViews(value, name);
    assert.ok(results.keypointFeatures instanceof Float32Array && results.keypointFeatures.length === kp.frameCount * 109);
  } finally {
    ev.dispose();
  }
});

// ---- 100 000 mixed calls ---------------------------------------------------------------------------

const garbage = new Uint8Array(300).map((_, i) => (i * 73) & 0xff);
const CALLS = [
  () => pm.readVmd(vmdBytes),
  () => pm.writeVmd(vmdObj),
  () => pm.readPmx(pmxBytes),
  (i, ev) => ev.evaluate(i % 60),
  () => pm.toKeypoints(bvhText),
  () => pm.decodeShiftJis(pm.encodeShiftJis('左足ＩＫ センター')),
  () => pm.solveTwoBoneIk([0, 10, 0], [0, 6, -1], [0, 1, 0], [0, 3, -2], [0, 6, -5]),
  () => pm.writeKeypoints(kp),
  () => pm.keypointFeatures(kp),
  () => assert.throws(() => pm.readVmd(garbage), ProcMotionError),
  () => assert.throws(() => pm.readPmx(garbage), ProcMotionError),
  () => assert.throws(() => pm.toKeypoints(garbage), ProcMotionError),
  () => assert.throws(() => pm.encodeShiftJis('😀'), ProcMotionError),
  () => assert.throws(() => pm.writeVmd({ bones: { names: ['😀'], nameIndex: [0], frames: [0], positions: [0, 0, 0], rotations: [0, 0, 0, 1], interpolations: new Uint8Array(64) } }), ProcMotionError),
  () => assert.throws(() => pm.evaluatePose(vmdObj, { bones: [{ name: 'a', position: [0, 0, 0], parent: 5 }] }, 0), ProcMotionError),
];

test('100 000 mixed calls leave heapInUse and heapSize where they were', () => {
  const ev = pm.createPoseEvaluator(vmdObj, skeleton);
  try {
    const run = (i) => {
      CALLS[i % CALLS.length](i, ev);
      if (i % 500 === 0) pm.evaluatePose(vmdBytes, pmxBytes, i % 30); // a whole evaluator made and freed
    };
    for (let i = 0; i < 2000; i++) run(i); // warm up: the heap reaches its working size
    const size = pm.heapSize, inUse = pm.heapInUse;
    for (let i = 2000; i < 100000; i++) run(i);
    assert.equal(pm.heapInUse, inUse, 'every allocation was freed');
    assert.equal(pm.heapSize, size, 'the heap did not grow');
  } finally {
    ev.dispose();
  }
});

test('heapInUse counts exactly the bytes allocated: 0 on a fresh module, and 0 again after every kind of call', async () => {
  // wasm/abi/abi_heap.c: the allocator's own count (emmalloc's figures do not return to where they were)
  const fresh = await createProcMotion({ load: FEATURE_MODULES });
  const heap = () => fresh.heapInUse;
  assert.equal(heap(), 0, 'a fresh module with every feature module loaded holds nothing');
  const blocks = [100, 1, 4096, 3].map((n) => [n, fresh.mod.pm_abi_alloc(n)]);
  assert.equal(heap(), 4200, 'the requested sizes, exactly');
  fresh.mod.pm_abi_free(blocks[1][1]);
  assert.equal(heap(), 4199);
  for (const [, ptr] of blocks) if (ptr !== blocks[1][1]) fresh.mod.pm_abi_free(ptr);
  assert.equal(heap(), 0);
  const model = fresh.mannequinPmx(), sk = fresh.readPmx(model), vmd = fresh.writeVmd(motion());
  const click = new Float32Array(44100 * 4).map((_, i) => (i % 22050 < 200 ? Math.sin(i) : 0));
  const calls = {
    catwalk: () => fresh.generateCatwalkVmd({ uTurn: true }, 128, null, null, { skeleton: sk }),
    readVmd: () => fresh.readVmd(vmd),
    readPmx: () => fresh.readPmx(model),
    pose: () => {
      const ev = fresh.createPoseEvaluator(vmd, sk);
      ev.positions(0, 30);
      ev.dispose();
    },
    keypoints: () => fresh.writeKeypoints(fresh.toKeypoints(vmd, { format: 'vmd', model })),
    groove: () => fresh.bakeGroove(vmd, sk, {}, 120),
    timeline: () => {
      const tl = fresh.createTimeline(sk, { bpm: 120 });
      const json = JSON.stringify(tl.toJSON());
      tl.dispose();
      fresh.timelineFromJSON(json, sk).dispose();
    },
    analyzeRig: () => fresh.analyzeRig(sk),
    vrm: () => fresh.pmxToVrm(model),
    beats: () => fresh.detectBeats(click, 44100),
    shiftJis: () => fresh.decodeShiftJis(fresh.encodeShiftJis('左足ＩＫ'.repeat(5000))),
    failure: () => assert.throws(() => fresh.readVmd(garbage), ProcMotionError),
  };
  for (const [name, call] of Object.entries(calls)) {
    call();
    assert.equal(heap(), 0, `${name}: every allocation freed`);
  }
});

// ---- out of memory ---------------------------------------------------------------------------------

/** The module still works after a failure: a full round of real calls. */
function stillWorks() {
  assert.equal(pm.readVmd(vmdBytes).bones.count, vmdObj.bones.count);
  assert.equal(pm.toKeypoints(bvhText).frameCount, kp.frameCount);
  assert.equal(pm.decodeShiftJis(pm.encodeShiftJis('センター')), 'センター');
}

test('asking for more than the wasm heap can hold is a ProcMotionError and the module keeps working', () => {
  const inUse = pm.heapInUse;
  // pm_abi_alloc itself (3 GB, beyond the 2 GB the module may grow to)
  assert.equal(pm.mod.pm_abi_alloc(3_000_000_000), 0);
  assert.throws(() => pm.encodeShiftJis('a', 3_000_000_000), (e) => e instanceof ProcMotionError && /memory/.test(e.message));
  // a converter asked for more than 2 GB: a VMD whose one key sits at frame 5 199 999 needs 5.2 million
  // keypoint frames (2 GB of points alone); the limit is lifted so that memory is what runs out
  const far = motion(1);
  far.bones.frames.fill(5_199_999);
  assert.throws(() => pm.toKeypoints(pm.writeVmd(far), { format: 'vmd', maxFrames: 0xffffffff }),
    (e) => e instanceof ProcMotionError && /memory/.test(e.message), 'the core reports out of memory');
  // an evaluator asked for the positions of 12 million frames (4 GB of output)
  const ev = pm.createPoseEvaluator(vmdBytes, skeleton);
  try {
    assert.throws(() => ev.positions(0, 12_000_000), ProcMotionError);
  } finally {
    ev.dispose();
  }
  stillWorks();
  assert.equal(pm.heapInUse, inUse, 'nothing left allocated by the failures');
});

test('a constructor whose JS-side checks throw after the skeleton was made frees it', () => {
  const inUse = pm.heapInUse;
  const badVmd = motion(1);
  badVmd.bones.nameIndex = new Uint32Array(0); // writeVmd throws once the skeleton exists
  assert.throws(() => pm.createPoseEvaluator(badVmd, skeleton), ProcMotionError);
  assert.throws(() => pm.createGroove({ joints: { head: { amp: NaN } } }, skeleton), ProcMotionError);
  assert.throws(() => pm.createTimeline(skeleton, { bpm: NaN }), ProcMotionError);
  assert.equal(pm.heapInUse, inUse, 'no skeleton left behind');
});

// ---- hostile arguments -------------------------------------------------------------------------------

test('sizes and counts that would wrap around 2^32 are refused before reaching the module', () => {
  const inUse = pm.heapInUse;
  const ev = pm.createPoseEvaluator(vmdBytes, skeleton);
  try {
    // frames x bones x 12 bytes just above 2^32: the allocation size would wrap to a few bytes
    const n = ev.boneCount, count = Math.ceil(2 ** 32 / (12 * n)) + 1;
    assert.throws(() => ev.positions(0, count), ProcMotionError);
    for (const bad of [-1, 2.5, NaN, Infinity]) assert.throws(() => ev.positions(0, bad), ProcMotionError, `count ${bad}`);
  } finally {
    ev.dispose();
  }
  for (const bad of [-1, 1.5, NaN, 2 ** 32 + 3]) assert.throws(() => pm.encodeShiftJis('左足', bad), ProcMotionError, `maxBytes ${bad}`);
  for (const bad of [-1, 0.5, NaN, 2 ** 32]) {
    const m = motion(1);
    m.bones.count = bad;
    assert.throws(() => pm.writeVmd(m), ProcMotionError, `bones.count ${bad}`);
    assert.throws(() => pm.writeKeypoints({ ...kp, frameCount: bad }), ProcMotionError, `frameCount ${bad}`);
  }
  stillWorks();
  assert.equal(pm.heapInUse, inUse);
});
