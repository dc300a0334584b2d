// Shift-JIS encode and decode through the glue, against the platform's TextDecoder('shift_jis')
// (decode only: there is no Shift-JIS TextEncoder in the platform).
import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const NAMES = ['センター', 'グルーブ', '左足ＩＫ', '右つま先ＩＫ', '上半身2', '左人指２', '全ての親', '頭'];
function text() {
  let s = '';
  for (let i = 0; new TextEncoder().encode(s).length < 1 << 20; i++) s += NAMES[i % 8].repeat(64);
  return s;
}

export const impls = {
  async 'procmotion wasm encode'() {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const s = text();
    return { items: new TextEncoder().encode(s).length, unit: 'bytes', label: '1 MB of bone names (UTF-8 in)', run: () => pm.encodeShiftJis(s) };
  },
  async 'procmotion wasm decode'() {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const s = text();
    const sjis = pm.encodeShiftJis(s);
    return { items: new TextEncoder().encode(s).length, unit: 'bytes', label: '1 MB of bone names (UTF-8 out)', run: () => pm.decodeShiftJis(sjis) };
  },
  async 'TextDecoder shift_jis'() {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const s = text();
    const sjis = pm.encodeShiftJis(s);
    const dec = new TextDecoder('shift_jis');
    return { items: new TextEncoder().encode(s).length, unit: 'bytes', label: '1 MB of bone names (UTF-8 out)', run: () => dec.decode(sjis) };
  },
};
