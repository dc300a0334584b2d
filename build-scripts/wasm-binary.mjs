// Reading and rewriting the few parts of a WebAssembly binary that build-scripts/link-wasm.mjs
// changes: the section list, data segments (active, i32.const offsets), imports, exports and custom
// sections. Everything else is copied byte for byte, so code is never re-encoded.

export function uleb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

export function sleb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return out.push(b), out;
    out.push(b | 0x80);
  }
}

/** A cursor over bytes with LEB128 and name readers. */
export class Reader {
  constructor(bytes, at = 0) {
    this.b = bytes;
    this.p = at;
  }
  u8() {
    return this.b[this.p++];
  }
  /** A LEB128 number's low 32 bits; `signed`: sign-extended from its last byte. */
  leb(signed) {
    let r = 0, s = 0, x;
    do {
      x = this.b[this.p++];
      r |= (x & 0x7f) << s;
      s += 7;
    } while (x & 0x80);
    if (signed && s < 32 && x & 0x40) r |= -1 << s;
    return r;
  }
  u32() {
    return this.leb(false) >>> 0;
  }
  s32() {
    return this.leb(true);
  }
  name() {
    const n = this.u32();
    const s = Buffer.from(this.b.subarray(this.p, this.p + n)).toString('utf8');
    this.p += n;
    return s;
  }
  bytes(n) {
    const v = this.b.subarray(this.p, this.p + n);
    this.p += n;
    return v;
  }
  /** A vector: a u32 count, then that many items, each read by item(i). */
  vec(item) {
    const n = this.u32();
    const out = [];
    for (let i = 0; i < n; i++) out.push(item(i));
    return out;
  }
}

/** A vector's bytes: the count, then the Buffers item(x) gives for each x of list. */
const writeVec = (list, item) => Buffer.concat([Buffer.from(uleb(list.length)), ...list.flatMap(item)]);

const nameBytes = (s) => {
  const b = Buffer.from(s, 'utf8');
  return [...uleb(b.length), ...b];
};

/** The sections of a module: { id, name (custom sections), body }. */
export function readSections(buf) {
  if (buf.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const out = [];
  const r = new Reader(buf, 8);
  while (r.p < buf.length) {
    const id = r.u8();
    const size = r.u32();
    const body = buf.subarray(r.p, r.p + size);
    let name = null;
    if (id === 0) name = new Reader(body).name();
    out.push({ id, name, body });
    r.p += size;
  }
  return out;
}

export function writeModule(sections) {
  const parts = [Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])];
  for (const s of sections) parts.push(Buffer.from([s.id, ...uleb(s.body.length)]), Buffer.from(s.body));
  return Buffer.concat(parts);
}

/** The bodies of a module's defined functions, in index order (views of the code section). */
export function functionBodies(buf) {
  const code = readSections(buf).find((s) => s.id === 10);
  if (!code) return [];
  const r = new Reader(code.body);
  return r.vec(() => r.bytes(r.u32()));
}

/** Active data segments of memory 0 with an i32.const offset: [{ offset, bytes }]. */
export function readData(body) {
  const r = new Reader(body);
  return r.vec((i) => {
    const flag = r.u32();
    if (flag !== 0) throw new Error(`data segment ${i}: flag ${flag} (only active segments of memory 0 are handled)`);
    if (r.u8() !== 0x41) throw new Error(`data segment ${i}: offset is not an i32.const`);
    const offset = r.s32() >>> 0;
    if (r.u8() !== 0x0b) throw new Error(`data segment ${i}: bad offset expression`);
    const size = r.u32();
    return { offset, bytes: r.bytes(size) };
  });
}

export function writeData(segs) {
  return writeVec(segs, (g) => [Buffer.from([0, 0x41, ...sleb(g.offset | 0), 0x0b, ...uleb(g.bytes.length)]), Buffer.from(g.bytes)]);
}

/** Imports: [{ module, field, kind, desc (the raw descriptor bytes) }]. */
export function readImports(body) {
  const r = new Reader(body);
  return r.vec(() => {
    const module = r.name(), field = r.name();
    const start = r.p;
    const kind = r.u8();
    if (kind === 0) r.u32();
    else if (kind === 1) {
      r.u8();
      const f = r.u8();
      r.u32();
      if (f & 1) r.u32();
    } else if (kind === 2) {
      const f = r.u8();
      r.u32();
      if (f & 1) r.u32();
    } else if (kind === 3) r.p += 2;
    else throw new Error(`import kind ${kind}`);
    return { module, field, kind, desc: body.subarray(start, r.p) };
  });
}

export function writeImports(list) {
  return writeVec(list, (im) => [Buffer.from([...nameBytes(im.module), ...nameBytes(im.field)]), Buffer.from(im.desc)]);
}

/** Exports: [{ name, kind, index }]. */
export function readExports(body) {
  const r = new Reader(body);
  return r.vec(() => ({ name: r.name(), kind: r.u8(), index: r.u32() }));
}

export function writeExports(list) {
  return writeVec(list, (e) => [Buffer.from([...nameBytes(e.name), e.kind, ...uleb(e.index)])]);
}

/** Function names from the "name" custom section (index -> name). */
export function functionNames(sections) {
  const names = new Map();
  const sec = sections.find((s) => s.id === 0 && s.name === 'name');
  if (!sec) return names;
  const r = new Reader(sec.body);
  r.name();
  while (r.p < sec.body.length) {
    const sub = r.u8();
    const size = r.u32();
    const end = r.p + size;
    if (sub === 1) for (const [idx, name] of r.vec(() => [r.u32(), r.name()])) names.set(idx, name);
    r.p = end;
  }
  return names;
}

/** Names of the functions a module defines (imports excluded), in index order. */
export function definedFunctionNames(buf) {
  const sections = readSections(buf);
  const imp = sections.find((s) => s.id === 2);
  const nImported = imp ? readImports(imp.body).filter((i) => i.kind === 0).length : 0;
  const fsec = sections.find((s) => s.id === 3);
  const nDefined = fsec ? new Reader(fsec.body).u32() : 0;
  const names = functionNames(sections);
  return Array.from({ length: nDefined }, (_, i) => names.get(nImported + i) ?? `$${nImported + i}`);
}
