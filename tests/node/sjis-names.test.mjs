// The name fixture itself is right: each name's bytes decode back to it with Node's TextDecoder, and
// each fits a VMD name field. (The JS glue's encoder is tested against this list elsewhere.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SJIS_NAMES, STANDARD_BONE_NAMES, STANDARD_MORPH_NAMES, VMD_NAME_BYTES } from './sjis-names.mjs';

test('every fixture name decodes from its Shift-JIS bytes with TextDecoder', () => {
    const decoder = new TextDecoder('shift_jis', { fatal: true });
    for (const { name, bytes } of SJIS_NAMES) assert.equal(decoder.decode(bytes), name);
});

test('every fixture name fits a 15-byte VMD name field and names are unique', () => {
    for (const { name, bytes } of SJIS_NAMES) assert.ok(bytes.length <= VMD_NAME_BYTES, name);
    assert.equal(new Set(SJIS_NAMES.map((e) => e.name)).size, SJIS_NAMES.length);
});

test('the fixture holds the standard skeleton named in the spec', () => {
    for (const side of ['左', '右'])
        for (const part of ['肩', '腕', 'ひじ', '手首', '足', 'ひざ', '足首', 'つま先', '足ＩＫ', 'つま先ＩＫ', '親指０', '人指３'])
            assert.ok(STANDARD_BONE_NAMES.includes(side + part), side + part);
    for (const name of ['センター', 'グルーブ', '腰', '上半身', '上半身2', '下半身', '首', '頭', '全ての親', '両目'])
        assert.ok(STANDARD_BONE_NAMES.includes(name), name);
    for (const name of ['あ', 'い', 'う', 'え', 'お', 'まばたき', '笑い', 'ウィンク']) assert.ok(STANDARD_MORPH_NAMES.includes(name), name);
    const center = SJIS_NAMES.find((e) => e.name === 'センター');
    assert.deepEqual([...center.bytes], [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b]);
});
