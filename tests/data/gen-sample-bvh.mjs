#!/usr/bin/env node
// Writes tests/data/sample-wave-squat.bvh: a synthetic 60-frame BVH (30 fps) of a 21-joint figure that
// squats once (hips down, knees forward) while waving its right hand. Used by tests/c/test_keypoints.c
// and tests/c/test_bvh.c; tests/node/keypoints.test.mjs checks this script reproduces the file.
//
// Figure: centimetres, Y up, facing +Z, its left on +X (CMU convention). 21 joints (Hips with 6
// channels, 20 joints with 3: 66 channels) plus 5 End Sites. Rotation channels "Zrotation Xrotation
// Yrotation".
//   node tests/data/gen-sample-bvh.mjs [out.bvh]
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const FRAMES = 60;
const FPS = 30;

// name, parent, offset, children are declared by parent order below
const joints = [
  ['Hips', null, [0, 0, 0]],
  ['Spine', 'Hips', [0, 10, 0]],
  ['Chest', 'Spine', [0, 15, 0]],
  ['Neck', 'Chest', [0, 20, 0]],
  ['Head', 'Neck', [0, 10, 0], [0, 15, 0]],
  ['LeftCollar', 'Chest', [3, 17, 0]],
  ['LeftShoulder', 'LeftCollar', [14, 0, 0]],
  ['LeftElbow', 'LeftShoulder', [28, 0, 0]],
  ['LeftWrist', 'LeftElbow', [25, 0, 0], [8, 0, 0]],
  ['RightCollar', 'Chest', [-3, 17, 0]],
  ['RightShoulder', 'RightCollar', [-14, 0, 0]],
  ['RightElbow', 'RightShoulder', [-28, 0, 0]],
  ['RightWrist', 'RightElbow', [-25, 0, 0], [-8, 0, 0]],
  ['LeftHip', 'Hips', [9, -5, 0]],
  ['LeftKnee', 'LeftHip', [0, -42, 0]],
  ['LeftAnkle', 'LeftKnee', [0, -40, 0]],
  ['LeftToe', 'LeftAnkle', [0, -7, 13], [0, 0, 5]],
  ['RightHip', 'Hips', [-9, -5, 0]],
  ['RightKnee', 'RightHip', [0, -42, 0]],
  ['RightAnkle', 'RightKnee', [0, -40, 0]],
  ['RightToe', 'RightAnkle', [0, -7, 13], [0, 0, 5]],
];

const fmt = (v) => (Math.abs(v) < 5e-5 ? 0 : v).toFixed(4);
const lines = ['HIERARCHY'];
const order = []; // joints in file (depth-first) order
function emit(name, depth) {
  const j = joints.find((x) => x[0] === name);
  const ind = '\t'.repeat(depth);
  lines.push(`${ind}${depth === 0 ? 'ROOT' : 'JOINT'} ${name}`, `${ind}{`);
  lines.push(`${ind}\tOFFSET ${j[2].map(fmt).join(' ')}`);
  lines.push(`${ind}\tCHANNELS ${depth === 0 ? '6 Xposition Yposition Zposition ' : '3 '}Zrotation Xrotation Yrotation`);
  order.push(name);
  for (const c of joints.filter((x) => x[1] === name)) emit(c[0], depth + 1);
  if (j[3]) lines.push(`${ind}\tEnd Site`, `${ind}\t{`, `${ind}\t\tOFFSET ${j[3].map(fmt).join(' ')}`, `${ind}\t}`);
  lines.push(`${ind}}`);
}
emit('Hips', 0);
lines.push('MOTION', `Frames: ${FRAMES}`, `Frame Time: ${(1 / FPS).toFixed(7)}`);

for (let f = 0; f < FRAMES; f++) {
  const s = 0.5 - 0.5 * Math.cos((2 * Math.PI * f) / FRAMES); // squat depth 0 -> 1 -> 0
  const hip = 60 * s, knee = 100 * s, ankle = knee - hip; // degrees; feet stay flat
  const wave = Math.sin((4 * Math.PI * f) / FRAMES); // two waves
  const rot = { // [Z, X, Y] in degrees
    Hips: [0, 8 * s, 0],
    Spine: [0, 5 * s, 0],
    Chest: [0, 0, 10 * wave],
    Neck: [0, -5 * s, 0],
    Head: [5 * wave, -5 * s, 0],
    LeftShoulder: [-65, 0, 0],
    LeftElbow: [0, 0, -20],
    RightShoulder: [-70, 0, 0], // right arm raised (it points -X; negative Z rotation lifts it)
    RightElbow: [-40 + 35 * wave, 0, 0],
    RightWrist: [10 * wave, 0, 0],
    LeftHip: [0, -hip, 0], // thigh forward
    LeftKnee: [0, knee, 0], // shin back: the knee points forward
    LeftAnkle: [0, -ankle, 0],
    RightHip: [0, -hip, 0],
    RightKnee: [0, knee, 0],
    RightAnkle: [0, -ankle, 0],
  };
  const row = [0, 95 - 28 * s, 6 * s]; // root position: down and a little forward
  for (const name of order) row.push(...(rot[name] ?? [0, 0, 0]));
  lines.push(row.map(fmt).join(' '));
}

const out = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'sample-wave-squat.bvh');
writeFileSync(out, lines.join('\n') + '\n');
