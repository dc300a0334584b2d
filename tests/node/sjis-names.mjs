// Standard MMD bone and morph names with their known Shift-JIS bytes, for tests of the JS glue:
//
//   import { SJIS_NAMES, STANDARD_BONE_NAMES, STANDARD_MORPH_NAMES } from './sjis-names.mjs';
//   for (const { name, bytes } of SJIS_NAMES)
//       assert.equal(new TextDecoder('shift_jis').decode(pm.encodeSjis(name)), name);
//
// The data lives in tests/data/mmd-names.tsv (shared with tests/c/test_text.c): the semi-standard
// bone set (全ての親, センター, グルーブ, 腰, 上半身, 上半身2, 首, 頭, 両目, both sides' 肩P/肩/腕/捩/
// ひじ/手首/fingers 親指０-２ 人指１-３ 中指 薬指 小指/足/ひざ/足首/つま先/足ＩＫ/つま先ＩＫ/足IK親/D bones,
// 腰キャンセル, 操作中心) and common morph names (あ い う え お まばたき 笑い ウィンク ｳｨﾝｸ２右 ...).
// Every entry's bytes fit a 15-byte VMD name field. Node only (reads the file with node:fs).
// Run directly (`node tests/node/sjis-names.mjs`) to print the list.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TSV = fileURLToPath(new URL('../data/mmd-names.tsv', import.meta.url));

function load() {
    const entries = [];
    for (const [i, line] of readFileSync(TSV, 'utf8').split('\n').entries()) {
        if (!line || line.startsWith('#')) continue;
        const [kind, name, hex] = line.split('\t');
        if (!name || !hex || (kind !== 'bone' && kind !== 'morph'))
            throw new Error(`${TSV}:${i + 1}: expected "bone|morph<TAB>name<TAB>hex bytes"`);
        const bytes = Uint8Array.from(hex.split(' '), (h) => parseInt(h, 16));
        entries.push(Object.freeze({ kind, name, bytes }));
    }
    return Object.freeze(entries);
}

/** Every name: { kind: 'bone' | 'morph', name: string, bytes: Uint8Array (Shift-JIS) }. */
export const SJIS_NAMES = load();
/** The standard bone names (strings). */
export const STANDARD_BONE_NAMES = Object.freeze(SJIS_NAMES.filter((e) => e.kind === 'bone').map((e) => e.name));
/** Common morph names (strings). */
export const STANDARD_MORPH_NAMES = Object.freeze(SJIS_NAMES.filter((e) => e.kind === 'morph').map((e) => e.name));
/** Width of a VMD bone or morph name field in bytes. */
export const VMD_NAME_BYTES = 15;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    for (const { kind, name, bytes } of SJIS_NAMES)
        console.log(`${kind}\t${name}\t${Buffer.from(bytes).toString('hex').toUpperCase()}`);
    console.log(`${STANDARD_BONE_NAMES.length} bone names, ${STANDARD_MORPH_NAMES.length} morph names`);
}
