// Plain-DOM helpers for the side panel: labelled sliders, selects and toggles that show their
// default and reset to it, all relabelled when the language changes.
import { onLanguageChange, t } from './i18n.js';

/** el('div', { class: 'x', onclick: fn, dataset: { a: 1 } }, child, 'text', ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function formatValue(p, v) {
  if (p.type === 'range' && p.zero && Number(v) === 0) return t(p.zero);
  if (p.type === 'range') {
    const digits = p.step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(p.step) - 1e-9));
    return `${Number(v).toFixed(digits)}${p.unit ?? ''}`;
  }
  if (p.type === 'toggle') return v ? 'on' : 'off';
  return String(v);
}

/**
 * One labelled control for a parameter description (see modes/catwalk-params.js). Calls
 * onChange(key, value) on every user change. Returns { root, set(value), key }.
 * Labels come from i18n keys `${prefix}${key}` and `${prefix}${key}.${option}` (or p.label and
 * `${p.label}.${option}` when the description names its label key).
 */
export function paramControl(p, value, onChange, prefix = 'p.') {
  const id = `param-${p.key}`;
  const label = el('label', { for: id, class: 'param-label' });
  const reset = el('button', { type: 'button', class: 'reset', 'aria-label': '', hidden: true }, '↺');
  const out = el('output', { for: id, class: 'param-value' });
  let input;
  if (p.type === 'range') {
    input = el('input', { id, type: 'range', min: p.min, max: p.max, step: p.step, value, dataset: { param: p.key } });
    input.addEventListener('input', () => change(Number(input.value)));
  } else if (p.type === 'select') {
    input = el('select', { id, dataset: { param: p.key } }, p.options.map((o) => el('option', { value: o })));
    input.value = value;
    input.addEventListener('change', () => change(input.value));
  } else {
    input = el('input', { id, type: 'checkbox', checked: !!value, dataset: { param: p.key } });
    input.addEventListener('change', () => change(input.checked));
  }
  const root = el('div', { class: `param param-${p.type}`, dataset: { key: p.key } },
    el('div', { class: 'param-head' }, label, p.type === 'range' ? out : null, reset),
    input);
  if (p.type === 'toggle') root.querySelector('.param-head').prepend(input);

  let current = value;
  function show(v) {
    current = v;
    out.value = formatValue(p, v);
    reset.hidden = v === p.default;
    root.classList.toggle('changed', v !== p.default);
  }
  function change(v) {
    show(v);
    onChange(p.key, v);
  }
  function set(v) {
    if (p.type === 'toggle') input.checked = !!v;
    else input.value = v;
    show(v);
  }
  reset.addEventListener('click', () => { set(p.default); onChange(p.key, p.default); });
  const labelKey = p.label ?? `${prefix}${p.key}`;
  function relabel() {
    label.textContent = t(labelKey);
    const def = t('p.default', { value: p.type === 'select' ? t(`${labelKey}.${p.default}`) : formatValue(p, p.default) });
    root.title = def;
    reset.title = `${t('p.reset')} (${def})`;
    reset.setAttribute('aria-label', reset.title);
    if (p.type === 'select') {
      for (const o of input.options) o.textContent = t(`${labelKey}.${o.value}`);
    }
  }
  relabel();
  show(value);
  const off = onLanguageChange(relabel);
  return { root, set, key: p.key, get value() { return current; }, dispose: off };
}

/** The defaults of a mode's parameter list ({ key, default } each) as an object. */
export const paramDefaults = (params) => Object.fromEntries(params.map((p) => [p.key, p.default]));

/**
 * A mode's controls: one paramControl per parameter of `params` on `app[slot]` (created with the
 * defaults when missing), each change regenerating, and a Reset-all link. Returns the mode's
 * `{ dispose() }`.
 */
export function mountParamControls(container, app, slot, params, prefix) {
  app[slot] ??= paramDefaults(params);
  const controls = params.map((p) => paramControl(p, app[slot][p.key], (key, v) => {
    app[slot][key] = v;
    app.regenerate();
  }, prefix));
  const resetAll = el('button', { type: 'button', class: 'link-button', dataset: { i18n: 'p.resetAll' } }, t('p.resetAll'));
  resetAll.addEventListener('click', () => {
    app[slot] = paramDefaults(params);
    for (const c of controls) c.set(app[slot][c.key]);
    app.regenerate();
  });
  container.append(...controls.map((c) => c.root), resetAll);
  return { dispose() { for (const c of controls) c.dispose(); } };
}
