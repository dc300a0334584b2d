// The pose module's flat exports in the real WebAssembly build (js-glue/procmotion-motion.wasm,
// reached through the core's exports): the analytic two-bone IK, and a rest-pose evaluator refusing a
// null skeleton with a message.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createProcMotion } from '../../js-glue/index.js';

const WASM = fileURLToPath(new URL('../../js-glue/procmotion-motion.wasm', import.meta.url));
const skip = existsSync(WASM) ? false : 'SKIP: js-glue/procmotion-motion.wasm not built (bash build-scripts/build.sh wasm)';

async function load() {
  return (await createProcMotion({ load: ['motion'] })).mod;
}

test('pm_abi_two_bone_ik solves a leg in the wasm build', { skip }, async () => {
  const m = await load();
  const inp = m.pm_abi_alloc(15 * 4), out = m.pm_abi_alloc(16 * 4), err = m.pm_abi_alloc(256);
  // hip, knee, ankle, target, pole (in front: -Z)
  m.HEAPF32.set([0, 10, 0, 0, 5.5, -0.5, 0, 1, 0, 0, 3, -1, 0, 5, -10], inp / 4);
  assert.equal(m.pm_abi_two_bone_ik(inp, out, err), 0);
  const o = Array.from(m.HEAPF32.subarray(out / 4, out / 4 + 16));
  const end = o.slice(11, 14), mid = o.slice(8, 11);
  assert.ok(Math.hypot(end[0], end[1] - 3, end[2] + 1) < 1e-5, `end ${end}`);
  assert.ok(mid[2] < -0.5, 'the knee bends toward the pole');
  assert.equal(o[15], 1, 'reached');
  for (const v of o) assert.ok(Number.isFinite(v));
  // NaN input is refused with the parameter named
  m.HEAPF32[inp / 4 + 9] = NaN;
  assert.notEqual(m.pm_abi_two_bone_ik(inp, out, err), 0);
  assert.match(new TextDecoder().decode(m.HEAPU8.subarray(err, m.HEAPU8.indexOf(0, err))), /target/);
  for (const p of [inp, out, err]) m.pm_abi_free(p);
});

test('pm_abi_pose_create reports a missing skeleton instead of crashing', { skip }, async () => {
  const m = await load();
  const err = m.pm_abi_alloc(256);
  assert.equal(m.pm_abi_pose_create(0, 0, err), 0);
  assert.match(new TextDecoder().decode(m.HEAPU8.subarray(err, m.HEAPU8.indexOf(0, err))), /skeleton/);
  m.pm_abi_free(err);
});
