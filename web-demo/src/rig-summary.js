// The loaded model's rig as the core reads it (pm.analyzeRig, docs/models.md): naming, leg IK and its
// parents, knee rest bend and how far the knee opens, the leg's reach under MMD's IK against thigh +
// shin, the IK bone's offset from the ankle, floor and scale, IK chains and missing roles. Shown in
// the panel's "Model rig" section; rows are pure data (rigRows) so a node test can check them.
import { t } from './i18n.js';

const fmt = (v, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/** The summary rows [label, value] of an analyzeRig result. */
export function rigRows(rig) {
  const legs = [rig.legs.left, rig.legs.right].filter(Boolean);
  const rows = [[t('rig.naming'), rig.naming]];
  const chains = rig.chains;
  if (legs.length) {
    const ik = legs.map((l) => l.ik).filter(Boolean);
    const parents = [...new Set(ik.map((name) => chains.find((c) => c.ik === name)?.parent ?? t('rig.noParent')))];
    rows.push([t('rig.legIk'), ik.length ? t('rig.legIkValue', { bones: ik.join(' / '), parents: parents.join(', ') }) : t('info.none')]);
    rows.push([t('rig.knees'), t('rig.kneesValue', {
      rest: legs.map((l) => fmt(l.kneeJoint.restBendDeg, 1)).join(' / '),
      open: legs.map((l) => (l.kneeJoint.limited ? fmt(l.kneeJoint.bendMinDeg, 1) : '—')).join(' / '),
    })]);
    const reach = legs.filter((l) => l.reach.max !== undefined);
    if (reach.length) {
      rows.push([t('rig.reach'), t('rig.reachValue', {
        reach: reach.map((l) => fmt(l.reach.max)).join(' / '),
        length: reach.map((l) => fmt(l.length)).join(' / '),
      })]);
      rows.push([t('rig.ikOffset'), reach.map((l) => fmt(Math.hypot(...l.ikOffset))).join(' / ')]);
    }
    rows.push([t('rig.floor'), t('rig.floorValue', { floor: fmt(rig.floorHeight), scale: fmt(rig.scale, 2) })]);
  }
  const kinds = {};
  for (const c of chains) kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
  rows.push([t('rig.chains'), chains.length ? `${chains.length} (${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')})` : t('info.none')]);
  rows.push([t('rig.missing'), rig.missing.length ? rig.missing.join(', ') : t('info.none')]);
  return rows;
}

/** Analyse `skeleton` (PMX/PMD bytes or a skeleton object); the result, or null with the error. */
export function analyzeModelRig(pm, skeleton) {
  try {
    return { rig: pm.analyzeRig(skeleton), error: null };
  } catch (e) {
    return { rig: null, error: e };
  }
}
