// The model's skeleton as the core takes it (createTimeline, bakeGroove): its PMX/PMD bytes (with
// IK), the built-in mannequin's bytes, else the rest skeleton the viewer read (a model loaded by URL).
export function modelSkeleton(app) {
  const model = app.model;
  if (model.bytes instanceof Uint8Array) return model.bytes;
  if (model.builtIn) return (app.mannequinBytes ??= app.pm.mannequinPmx());
  const { names, positions, parents } = model.skeleton;
  return { bones: names.map((name, i) => ({ name, position: [...positions.subarray(3 * i, 3 * i + 3)], parent: parents[i] })) };
}
