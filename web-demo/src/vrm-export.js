// "Download VRM": the loaded model (with the textures it was loaded with) converted in the page by
// pm.pmxToVrm (docs/vrm.md; the 'vrm' module, which main.js loads on the first click) and saved as
// <name>.vrm. No server: the conversion runs in the wasm module.

/** Convert the app's model: { glb, report, fileName }. Throws the core's error (e.g. missing bones). */
export function modelToVrm(app) {
  const m = app.model;
  if (!m) throw new Error('no model is loaded');
  const bytes = m.bytes ?? (m.builtIn ? app.pm.mannequinPmx() : null);
  if (!bytes) throw new Error('the model was loaded from a URL: its bytes are not at hand');
  const textures = (m.referenceFiles ?? []).map((r) => [r.relativePath, new Uint8Array(r.data)]);
  const { glb, report } = app.pm.pmxToVrm(bytes, { textures, meta: { name: m.name.replace(/\.(pmx|pmd)$/i, '') } });
  return { glb, report, fileName: `${m.name.replace(/\.(pmx|pmd)$/i, '') || 'model'}.vrm` };
}

/** Save bytes as a file through a temporary link. */
export function saveFile(bytes, fileName, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
