// The wasm modules' sin/cos/tan(f) for huge arguments (wasm/src/fdlibm/rem_pio2_huge.c, in place of
// musl's __rem_pio2_large): the Emscripten build links tests/wasm/trig_huge.c twice, with that
// reduction (trig-huge.wasm, as build-scripts/link-wasm.mjs links the modules) and with musl's
// (trig-musl.wasm). Below musl's thresholds (|x| < 2^20 pi/2 for double, 2^28 pi/2 for float) every
// result must be musl's bit for bit; above them, within the documented |x| * 3.9e-17 rad of musl's
// (which is within an ulp of the exact value), in [-1, 1], never NaN for finite x.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const HUGE = new URL('../../build/wasm/trig-huge.wasm', import.meta.url);
const MUSL = new URL('../../build/wasm/trig-musl.wasm', import.meta.url);
const skip = existsSync(HUGE) && existsSync(MUSL) ? false : 'SKIP: build/wasm/trig-*.wasm not built';
const load = async (url) => (await WebAssembly.instantiate(readFileSync(url), {})).instance.exports;

const D_LIMIT = 2 ** 20 * (Math.PI / 2); // musl's __rem_pio2: ix < 0x413921fb
const F_LIMIT = 2 ** 28 * (Math.PI / 2); // musl's __rem_pio2f: ix < 0x4dc90fdb
const f32 = Math.fround;

// a deterministic generator (xorshift32): the same sweep on every run
function* sweep(count, lo, hi, seed = 0x9e3779b9) {
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s ^= s << 13, s >>>= 0, s ^= s >>> 17, s ^= s << 5, s >>>= 0;
    const u = s / 2 ** 32;
    const mag = Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))); // log-uniform magnitude
    yield i & 1 ? -mag : mag;
  }
}
const same = (a, b) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

test('trig-huge.wasm: sin/cos/tan(f) of normal arguments are musl\'s, bit for bit', { skip }, async () => {
  const h = await load(HUGE), m = await load(MUSL);
  const xs = [0, -0, 1e-300, 5e-324, Math.PI / 4, Math.PI, 1e6, D_LIMIT * 0.999999, ...sweep(200000, 1e-9, D_LIMIT * 0.9999999)];
  for (const x of xs) for (const f of ['pmt_sin', 'pmt_cos', 'pmt_tan']) assert.ok(same(h[f](x), m[f](x)), `${f}(${x})`);
  const fs = [0, 1e-30, 3.14159, 1e6, 4e8, ...sweep(200000, 1e-9, F_LIMIT * 0.99999, 12345)].map(f32);
  for (const x of fs) for (const f of ['pmt_sinf', 'pmt_cosf', 'pmt_tanf']) assert.ok(same(h[f](x), m[f](x)), `${f}(${x})`);
});

test('trig-huge.wasm: huge and hostile arguments give bounded results near musl\'s', { skip }, async () => {
  const h = await load(HUGE), m = await load(MUSL);
  assert.equal(h.pmt_hostile(), 0, 'pmt_hostile: results outside [-1, 1], NaN for finite x, or not NaN for NaN/Inf');
  assert.equal(m.pmt_hostile(), 0);
  for (const x of [NaN, Infinity, -Infinity]) {
    for (const f of ['pmt_sin', 'pmt_cos', 'pmt_tan', 'pmt_sinf', 'pmt_cosf', 'pmt_tanf']) assert.ok(Number.isNaN(h[f](x)), `${f}(${x})`);
  }
  // the documented accuracy: the reduced angle is off by at most |x| * 3.9e-17 rad (plus rounding)
  let worst = 0;
  for (const x of [D_LIMIT, ...sweep(20000, D_LIMIT, 1e15, 777)]) {
    for (const f of ['pmt_sin', 'pmt_cos']) {
      const e = Math.abs(h[f](x) - m[f](x));
      assert.ok(e <= Math.abs(x) * 3.9e-17 + 4e-16, `${f}(${x}): ${h[f](x)} vs musl ${m[f](x)}`);
      worst = Math.max(worst, e / Math.abs(x));
    }
  }
  for (const x of [...sweep(20000, F_LIMIT, 1e12, 4242)].map(f32)) {
    for (const f of ['pmt_sinf', 'pmt_cosf']) {
      const e = Math.abs(h[f](x) - m[f](x));
      assert.ok(e <= Math.abs(x) * 3.9e-17 + 1.2e-7, `${f}(${x}): ${h[f](x)} vs musl ${m[f](x)}`);
    }
  }
  for (const x of [...sweep(2000, 1e15, 1.7e308, 99)]) {
    for (const f of ['pmt_sin', 'pmt_cos']) {
      const v = h[f](x);
      assert.ok(v >= -1 && v <= 1, `${f}(${x}) = ${v}`);
    }
    const t = h.pmt_tan(x);
    assert.ok(Number.isFinite(t), `pmt_tan(${x}) = ${t}`);
  }
  for (const x of [...sweep(2000, 1e12, 3.4e38, 5)].map(f32)) {
    for (const f of ['pmt_sinf', 'pmt_cosf']) {
      const v = h[f](x);
      assert.ok(v >= -1 && v <= 1, `${f}(${x}) = ${v}`);
    }
  }
  assert.ok(worst < 3.9e-17, `worst error per |x|: ${worst}`);
});
