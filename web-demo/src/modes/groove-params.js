// The groove's settings as the panel shows them (DOM-free: node tests it): one control per field of
// every joint and of the squat bounce, defaults taken from the core (pm.grooveConfig()), so the panel
// cannot drift from them. Slider ranges are the useful part of the core's ranges (docs/groove.md).
//
// Keys are 'joint.field' (e.g. 'head.amp') and 'squat.field'; labels come from i18n keys
// 'g.field.<field>' / 'g.squat.<field>' and option labels from '<label>.<option>'.

const JOINT_FIELDS = [
  { field: 'amp', type: 'range', min: -30, max: 30, step: 0.5, unit: '°' },
  { field: 'freq', type: 'range', min: 0, max: 4, step: 0.25 },
  { field: 'phase', type: 'range', min: 0, max: 1, step: 0.01 },
  { field: 'wave', type: 'select', options: ['bounce', 'sine'] },
  { field: 'axis', type: 'select', options: ['x', 'y', 'z'] },
];

const SQUAT_FIELDS = [
  { field: 'enabled', type: 'toggle' },
  { field: 'vertical', type: 'range', min: 0, max: 20, step: 0.5, unit: ' cm' },
  { field: 'lateral', type: 'range', min: -10, max: 10, step: 0.5, unit: ' cm' },
  { field: 'freq', type: 'range', min: 0, max: 4, step: 0.25 },
  { field: 'phase', type: 'range', min: 0, max: 1, step: 0.01 },
  { field: 'wave', type: 'select', options: ['bounce', 'sine'] },
];

export const BASES = ['rest', 'catwalk', 'vmd'];

/**
 * The controls for a merged config `defaults` (pm.grooveConfig()): [{ key, group, label, type, min,
 * max, step, unit, options, default }], the squat first, then the joints in the core's order.
 */
export function grooveParams(defaults) {
  const squat = SQUAT_FIELDS.map((f) => ({ ...f, key: `squat.${f.field}`, group: 'squat', label: `g.squat.${f.field}`,
    default: defaults.squat[f.field] }));
  const joints = Object.entries(defaults.joints).flatMap(([joint, values]) => JOINT_FIELDS.map((f) => ({
    ...f, key: `${joint}.${f.field}`, group: joint, label: `g.field.${f.field}`, default: values[f.field],
  })));
  return [...squat, ...joints];
}

/** Panel values ({ 'head.amp': 5, ... }) -> settings with only the fields that differ from `defaults`. */
export function grooveSettings(values, defaults) {
  const out = {};
  for (const [key, v] of Object.entries(values)) {
    const [group, field] = key.split('.');
    const def = group === 'squat' ? defaults.squat[field] : defaults.joints[group]?.[field];
    if (v === def) continue;
    if (group === 'squat') (out.squat ??= {})[field] = v;
    else ((out.joints ??= {})[group] ??= {})[field] = v;
  }
  return out;
}

/** The panel's values for a merged config. */
export function grooveValues(config) {
  const out = {};
  for (const [field, v] of Object.entries(config.squat)) out[`squat.${field}`] = v;
  for (const [joint, values] of Object.entries(config.joints)) {
    for (const [field, v] of Object.entries(values)) out[`${joint}.${field}`] = v;
  }
  return out;
}
