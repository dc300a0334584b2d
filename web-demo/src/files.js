// Files from the pickers and from drag and drop: which one is the model, which are its textures,
// which is a motion; and the model's textures handed to babylon-mmd as referenceFiles.
//
// An entry is { file: File, path: 'folder/sub/name.ext' } (path relative to what the user picked
// or dropped; just the name when the browser gives no folder).
import { AUDIO_EXTENSIONS } from './music-core.js';

export const MODEL_EXTENSIONS = ['.pmx', '.pmd'];
/** Motions: VMD plays as it is; the others are retargeted to the model (pm.retargetToVmd). */
export const MOTION_EXTENSIONS = ['.vmd', '.bvh', '.glb', '.gltf', '.vrma', '.fbx'];
const IMAGE_TYPES = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.bmp': 'image/bmp',
  '.gif': 'image/gif', '.webp': 'image/webp', '.tga': 'image/x-tga', '.dds': 'image/vnd-ms.dds',
  '.spa': 'image/bmp', '.sph': 'image/bmp',
};

export function extensionOf(name) {
  const m = /\.[^./\\]+$/.exec(name);
  return m ? m[0].toLowerCase() : '';
}

function normalize(path) {
  const out = [];
  for (const part of String(path).replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function dirOf(path) {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i + 1);
}

/** Entries from an <input type=file> FileList (folder pickers give webkitRelativePath). */
export function entriesFromFileList(list) {
  return Array.from(list ?? [], (file) => ({ file, path: normalize(file.webkitRelativePath || file.name) }));
}

/** Entries from a drop: files and whole folders (walked recursively). */
export async function entriesFromDataTransfer(dt) {
  const items = Array.from(dt.items ?? []).filter((i) => i.kind === 'file');
  const roots = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (!roots.length || roots.some((r) => !r)) return entriesFromFileList(dt.files);
  const out = [];
  async function walk(entry, prefix) {
    if (entry.isFile) {
      const file = await new Promise((ok, fail) => entry.file(ok, fail));
      out.push({ file, path: normalize(prefix + entry.name) });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        // readEntries returns at most ~100 entries per call; call until it returns none.
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  }
  for (const root of roots) await walk(root, '');
  return out;
}

/** Split entries into { model, motions, audio, others } (model: the first PMX/PMD, by shortest path). */
export function classify(entries) {
  const models = entries.filter((e) => MODEL_EXTENSIONS.includes(extensionOf(e.path)))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path));
  const motions = entries.filter((e) => MOTION_EXTENSIONS.includes(extensionOf(e.path)));
  const audio = entries.filter((e) => AUDIO_EXTENSIONS.includes(extensionOf(e.path)));
  const others = entries.filter((e) => !models.includes(e) && !motions.includes(e) && !audio.includes(e));
  return { model: models[0] ?? null, models, motions, audio, others };
}

// ---- PMX texture table ---------------------------------------------------------------------------

/**
 * The texture paths of a PMX file (header, vertices and faces are skipped by their sizes), or null
 * when the bytes are not a PMX this reader understands. Never throws.
 */
export function pmxTexturePaths(bytes) {
  try {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let o = 0;
    const need = (n) => { if (n < 0 || o + n > dv.byteLength) throw new RangeError('pmx: truncated'); };
    const u8 = () => { need(1); return dv.getUint8(o++); };
    const i32 = () => { need(4); const v = dv.getInt32(o, true); o += 4; return v; };
    const skip = (n) => { need(n); o += n; };
    need(9);
    if (dv.getUint32(0, true) !== 0x20584d50) return null; // 'PMX '
    o = 8;
    const globals = u8();
    if (globals < 8) return null;
    const g = [];
    for (let i = 0; i < globals; i++) g.push(u8());
    const [encoding, addVec4, vIdx, tIdx, , bIdx] = g;
    const decoder = new TextDecoder(encoding === 0 ? 'utf-16le' : 'utf-8');
    const text = () => {
      const n = i32();
      need(n);
      const s = decoder.decode(new Uint8Array(dv.buffer, dv.byteOffset + o, n));
      o += n;
      return s;
    };
    for (let i = 0; i < 4; i++) text(); // names and comments
    const vertices = i32();
    if (vertices < 0) return null;
    for (let v = 0; v < vertices; v++) {
      skip(32 + 16 * addVec4);
      const type = u8();
      if (type === 0) skip(bIdx);
      else if (type === 1) skip(2 * bIdx + 4);
      else if (type === 2 || type === 4) skip(4 * bIdx + 16);
      else if (type === 3) skip(2 * bIdx + 4 + 36);
      else return null;
      skip(4);
    }
    const indices = i32();
    if (indices < 0) return null;
    skip(indices * vIdx);
    const textures = i32();
    if (textures < 0 || textures > 65535 || tIdx === 0) return null;
    const out = [];
    for (let i = 0; i < textures; i++) out.push(text());
    return out;
  } catch {
    return null;
  }
}

/**
 * babylon-mmd referenceFiles for a model: every texture the model names, found among the entries
 * (same path relative to the model's folder, else same path at the end, else same file name),
 * as { relativePath, mimeType, data } records keyed by the path the model uses.
 * Returns { referenceFiles, missing: [texture path] }.
 */
export async function referenceFilesFor(modelEntry, modelBytes, entries) {
  const baseDir = dirOf(modelEntry.path);
  const images = entries.filter((e) => e !== modelEntry && !MODEL_EXTENSIONS.includes(extensionOf(e.path))
    && !MOTION_EXTENSIONS.includes(extensionOf(e.path)));
  const byRelative = new Map();
  const byName = new Map();
  for (const e of images) {
    const rel = e.path.startsWith(baseDir) ? e.path.slice(baseDir.length) : e.path;
    byRelative.set(rel.toUpperCase(), e);
    const name = e.path.slice(e.path.lastIndexOf('/') + 1).toUpperCase();
    byName.set(name, byName.has(name) ? null : e); // null: ambiguous
  }
  const wanted = extensionOf(modelEntry.path) === '.pmx' ? pmxTexturePaths(modelBytes) : null;
  const pairs = []; // [relativePath the model uses, entry]
  const missing = [];
  if (wanted) {
    for (const raw of wanted) {
      const want = normalize(raw);
      if (!want) continue;
      const key = want.toUpperCase();
      let hit = byRelative.get(key);
      if (!hit) hit = images.find((e) => e.path.toUpperCase().endsWith(`/${key}`));
      if (!hit) hit = byName.get(key.slice(key.lastIndexOf('/') + 1)) ?? undefined;
      if (hit) pairs.push([want, hit]);
      else missing.push(want);
    }
  } else {
    // PMD (or a PMX this reader does not follow): offer every file under its relative path.
    for (const e of images) pairs.push([e.path.startsWith(baseDir) ? e.path.slice(baseDir.length) : e.path, e]);
  }
  const referenceFiles = await Promise.all(pairs.map(async ([relativePath, e]) => ({
    relativePath,
    mimeType: IMAGE_TYPES[extensionOf(e.path)],
    data: await e.file.arrayBuffer(),
  })));
  return { referenceFiles, missing };
}
