// The model the page opens on: the built-in mannequin, a licence-free PMX generated in the page by
// the wasm core (docs/models.md).
export function defaultModel(pm) {
  return { source: pm.mannequinPmx(), extension: '.pmx', name: 'mannequin', builtIn: true };
}
