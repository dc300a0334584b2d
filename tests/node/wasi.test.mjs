// The wasm32-wasi reactor build has zero imports: it instantiates with an empty import object and its
// exports work from any wasm host. This keeps the core libc-only.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const WASM = new URL('../../build/wasi/procmotion-wasi.wasm', import.meta.url);
const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const skip = existsSync(WASM) ? false : 'SKIP: build/wasi/procmotion-wasi.wasm not built';

test('procmotion-wasi.wasm has zero imports and runs with an empty import object', { skip }, async () => {
  const module = await WebAssembly.compile(readFileSync(WASM));
  assert.deepEqual(WebAssembly.Module.imports(module), []);
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  for (const n of ['memory', '_initialize', 'pm_abi_alloc', 'pm_abi_free', 'pm_abi_vmd_read', 'pm_abi_vmd_write'])
    assert.ok(names.includes(n), n);

  const { exports: x } = await WebAssembly.instantiate(module, {});
  x._initialize();
  assert.equal(x.pm_abi_version(), 100);

  // Shift-JIS through the raw ABI
  const text = new TextEncoder().encode('左足ＩＫ');
  const inPtr = x.pm_abi_alloc(text.length), outPtr = x.pm_abi_alloc(32), lenPtr = x.pm_abi_alloc(4), errPtr = x.pm_abi_alloc(256);
  new Uint8Array(x.memory.buffer).set(text, inPtr);
  assert.equal(x.pm_abi_sjis_encode(inPtr, text.length, outPtr, 32, lenPtr, errPtr), 0);
  const len = new Uint32Array(x.memory.buffer)[lenPtr >> 2];
  const sjis = new Uint8Array(x.memory.buffer, outPtr, len).slice();
  assert.equal(new TextDecoder('shift_jis').decode(sjis), '左足ＩＫ');

  // a real VMD through the raw ABI
  if (existsSync(FIXTURES)) {
    const data = readFileSync(new URL('vmd/mei_wait.vmd', FIXTURES));
    const dPtr = x.pm_abi_alloc(data.length);
    new Uint8Array(x.memory.buffer).set(data, dPtr);
    const vmd = x.pm_abi_vmd_read(dPtr, data.length, errPtr);
    assert.notEqual(vmd, 0);
    const slots = x.pm_abi_vmd_descriptor_slots();
    const desc = x.pm_abi_alloc(slots * 4);
    x.pm_abi_vmd_describe(vmd, desc);
    assert.equal(new Uint32Array(x.memory.buffer)[(desc >> 2) + 10], 406); // bone key count
    // a broken file gives a message, not a trap
    assert.equal(x.pm_abi_vmd_read(dPtr, 100, errPtr), 0);
    const msg = new Uint8Array(x.memory.buffer, errPtr, 256);
    const end = msg.indexOf(0);
    assert.match(new TextDecoder().decode(msg.subarray(0, end)), /bone key 0 of 406 is truncated/);
    x.pm_abi_vmd_free(vmd);
  } else {
    console.log('# SKIP: ../shared/fixtures not found: mei_wait.vmd through the raw ABI not checked');
  }
});
