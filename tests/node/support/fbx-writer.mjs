// A BVH motion written as a binary FBX 7.5 file, the way a DCC exporter lays it out (Models with Lcl
// properties and RotationOrder, one AnimationStack/Layer, curve nodes and zlib-compressed key arrays):
// test input for the FBX reader with real motion in it. The BVH parser here reads what the writer needs.
import { deflateSync } from 'node:zlib';

/** { joints: [{ name, parent, offset, channels, endSite }], frames, frameTime, values: Float64Array[] } */
export function parseBvh(text) {
  const tokens = text.split(/\s+/).filter(Boolean);
  let at = 0;
  const joints = [];
  const stack = [];
  while (tokens[at] !== 'MOTION') {
    const t = tokens[at++];
    if (t === 'ROOT' || t === 'JOINT' || t === 'End') {
      const name = t === 'End' ? `${joints[stack.at(-1)].name}_End` : tokens[at];
      at++; // the name, or "Site"
      joints.push({ name, parent: stack.length ? stack.at(-1) : -1, offset: [0, 0, 0], channels: [], endSite: t === 'End' });
    } else if (t === '{') stack.push(joints.length - 1);
    else if (t === '}') stack.pop();
    else if (t === 'OFFSET') joints.at(-1).offset = [0, 1, 2].map((k) => Number(tokens[at + k])), at += 3;
    else if (t === 'CHANNELS') {
      const n = Number(tokens[at++]);
      joints.at(-1).channels = tokens.slice(at, at + n);
      at += n;
    }
  }
  const frames = Number(tokens[at + 2]);
  const frameTime = Number(tokens[at + 5]);
  at += 6;
  const width = joints.reduce((n, j) => n + j.channels.length, 0);
  const values = [];
  for (let f = 0; f < frames; f++, at += width) values.push(Float64Array.from(tokens.slice(at, at + width), Number));
  return { joints, frames, frameTime, values };
}

const TICKS = 46186158000n;
const ORDERS = ['XYZ', 'XZY', 'YZX', 'YXZ', 'ZXY', 'ZYX']; // FBX RotationOrder: the letters in the order applied

// property encoders
const i32 = (v) => { const b = Buffer.alloc(5); b[0] = 0x49; b.writeInt32LE(v, 1); return b; };
const f64 = (v) => { const b = Buffer.alloc(9); b[0] = 0x44; b.writeDoubleLE(v, 1); return b; };
const i64 = (v) => { const b = Buffer.alloc(9); b[0] = 0x4c; b.writeBigInt64LE(BigInt(v), 1); return b; };
const str = (s) => { const body = Buffer.from(s, 'latin1'); const b = Buffer.alloc(5); b[0] = 0x53; b.writeUInt32LE(body.length, 1); return Buffer.concat([b, body]); };
function array(type, typed) {
  const raw = Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
  const packed = deflateSync(raw);
  const b = Buffer.alloc(13);
  b[0] = type.charCodeAt(0);
  b.writeUInt32LE(typed.length, 1);
  b.writeUInt32LE(1, 5);
  b.writeUInt32LE(packed.length, 9);
  return Buffer.concat([b, packed]);
}
const node = (name, props = [], children = []) => ({ name, props, children });
const p70 = (entries) => node('Properties70', [], entries.map(([name, type, ...values]) =>
  node('P', [str(name), str(type), str(''), str('A'), ...values])));

/** A record and its children at absolute offset `start` (64-bit headers, FBX 7.5). */
function serialise(n, start) {
  const props = Buffer.concat(n.props);
  const name = Buffer.from(n.name, 'latin1');
  const parts = [];
  let at = start + 25 + name.length + props.length;
  for (const c of n.children) {
    const b = serialise(c, at);
    parts.push(b);
    at += b.length;
  }
  if (n.children.length) parts.push(Buffer.alloc(25)), at += 25;
  const head = Buffer.alloc(25);
  head.writeBigUInt64LE(BigInt(at), 0);
  head.writeBigUInt64LE(BigInt(n.props.length), 8);
  head.writeBigUInt64LE(BigInt(props.length), 16);
  head[24] = name.length;
  return Buffer.concat([head, name, props, ...parts]);
}

/** The BVH as FBX bytes: every joint a LimbNode model, every channel an animation curve. */
export function bvhToFbx(bvh) {
  const objects = [], connections = [];
  let nextId = 1000n;
  const id = () => nextId++;
  const stack = id(), layer = id();
  objects.push(node('AnimationStack', [i64(stack), str('Take\0\x01AnimStack'), str('')]));
  objects.push(node('AnimationLayer', [i64(layer), str('BaseLayer\0\x01AnimLayer'), str('')]));
  connections.push(['OO', layer, stack]);
  const times = BigInt64Array.from({ length: bvh.frames }, (_, f) => BigInt(Math.round(f * bvh.frameTime * 1e9)) * TICKS / 1000000000n);
  const modelIds = [];
  let column = 0;
  for (const j of bvh.joints) {
    const model = id();
    modelIds.push(model);
    const rot = j.channels.filter((c) => c.endsWith('rotation')).map((c) => c[0]);
    const order = ORDERS.indexOf(rot.slice().reverse().join('')); // BVH lists them outermost first
    objects.push(node('Model', [i64(model), str(`${j.name}\0\x01Model`), str('LimbNode')], [
      node('Version', [i32(232)]),
      p70([['Lcl Translation', 'Lcl Translation', f64(j.offset[0]), f64(j.offset[1]), f64(j.offset[2])],
        ['RotationOrder', 'enum', i32(order < 0 ? 0 : order)]]),
    ]));
    connections.push(['OO', model, j.parent < 0 ? 0n : modelIds[j.parent]]);
    const groups = { T: [], R: [] }; // axis -> column
    j.channels.forEach((c, k) => (c.endsWith('position') ? groups.T : groups.R).push([c[0], column + k]));
    column += j.channels.length;
    for (const [path, cols] of Object.entries(groups)) {
      if (!cols.length) continue;
      const cn = id();
      objects.push(node('AnimationCurveNode', [i64(cn), str(`${path}\0\x01AnimCurveNode`), str('')], [
        p70(['X', 'Y', 'Z'].map((a, k) => [`d|${a}`, 'Number', f64(path === 'T' ? j.offset[k] : 0)])),
      ]));
      connections.push(['OO', cn, layer], ['OP', cn, model, path === 'T' ? 'Lcl Translation' : 'Lcl Rotation']);
      for (const [axis, col] of cols) {
        const curve = id();
        const k = 'XYZ'.indexOf(axis);
        const values = Float32Array.from(bvh.values, (row) => row[col] + (path === 'T' ? j.offset[k] : 0)); // BVH adds the offset
        objects.push(node('AnimationCurve', [i64(curve), str('\0\x01AnimCurve'), str('')], [
          node('Default', [f64(0)]), node('KeyVer', [i32(4009)]),
          node('KeyTime', [array('l', times)]), node('KeyValueFloat', [array('f', values)]),
          node('KeyAttrFlags', [array('i', Int32Array.of(8452))]), node('KeyAttrDataFloat', [array('f', new Float32Array(4))]),
          node('KeyAttrRefCount', [array('i', Int32Array.of(bvh.frames))]),
        ]));
        connections.push(['OP', curve, cn, `d|${'XYZ'[k]}`]);
      }
    }
  }
  const top = [
    node('FBXHeaderExtension', [], [node('FBXVersion', [i32(7500)])]),
    node('GlobalSettings', [], [node('Version', [i32(1000)]), p70([['UpAxis', 'int', i32(1)], ['UnitScaleFactor', 'double', f64(1)],
      ['TimeMode', 'enum', i32(14)], ['CustomFrameRate', 'double', f64(1 / bvh.frameTime)]])]),
    node('Objects', [], objects),
    node('Connections', [], connections.map(([type, child, parent, what]) =>
      node('C', [str(type), i64(child), i64(parent), ...(what ? [str(what)] : [])]))),
  ];
  const header = Buffer.alloc(27);
  header.write('Kaydara FBX Binary  \0\x1a\0', 0, 'latin1');
  header.writeUInt32LE(7500, 23);
  const body = [];
  let at = 27;
  for (const n of top) {
    const b = serialise(n, at);
    body.push(b);
    at += b.length;
  }
  return new Uint8Array(Buffer.concat([header, ...body, Buffer.alloc(25), Buffer.alloc(16)]));
}
