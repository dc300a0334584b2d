// The mode registry: each capability (catwalk, loaded VMD, and later groove, tracing, keypoints)
// registers one mode, and the page lists the modes whose capability this build of the core has.
//
// registerMode({
//   id: 'catwalk',                  // also the i18n key 'mode.<id>'
//   order: 10,                      // position in the mode select
//   requires: (pm) => true,         // does this build of procmotion offer it? (else not listed)
//   mount(container, app) {},       // build the mode's controls into `container`; return { dispose() }
//   ready(app) -> boolean,          // can it generate now (e.g. a VMD has been loaded)?
//   generate(app) -> { vmd, loopFrames, beatFrames, name, keyCount?, usedBones?, missingBones? }
//   blend: false,                   // no transition into this mode (default: a mode change blends)
// })
//
// Modes call app.regenerate() when one of their controls changes.

const modes = new Map();

export function registerMode(mode) {
  if (!mode?.id || typeof mode.generate !== 'function') throw new Error('registerMode: id and generate() needed');
  modes.set(mode.id, { order: 100, requires: () => true, ready: () => true, mount: () => ({ dispose() {} }), ...mode });
}

/** The modes this build supports, in display order. */
export function availableModes(pm) {
  return [...modes.values()].filter((m) => m.requires(pm)).sort((a, b) => a.order - b.order);
}

export function getMode(id) {
  return modes.get(id) ?? null;
}
