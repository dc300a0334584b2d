// The error banner: readable messages in the page instead of a frozen canvas or a console line.
import { t } from './i18n.js';

let banner = null;

export function initErrors(element) {
  banner = element;
  window.addEventListener('error', (e) => showError('err.unexpected', { detail: describeError(e.error ?? e.message) }));
  window.addEventListener('unhandledrejection', (e) => showError('err.unexpected', { detail: describeError(e.reason) }));
}

/** A one-line description of anything thrown (ProcMotionError, babylon-mmd loader errors, strings). */
export function describeError(e) {
  if (e === null || e === undefined) return 'unknown error';
  if (typeof e === 'string') return e;
  // Babylon's loader wraps the plugin's error: LoadFileError / RuntimeError with innerError.
  const inner = e.innerError ?? e.cause;
  let msg = e.message || String(e);
  if (inner && inner !== e && inner.message && !msg.includes(inner.message)) msg += ` (${inner.message})`;
  return msg.replace(/^Error:\s*/, '').replace(/\s+/g, ' ').trim().slice(0, 400);
}

/** Show `t(key, vars)` in the banner (it stays until dismissed or replaced; repeats are not stacked). */
export function showError(key, vars = {}) {
  const text = t(key, vars);
  console.warn(`procmotion demo: ${text}`);
  if (!banner) return;
  const list = banner.querySelector('.error-list');
  if ([...list.children].some((li) => li.textContent === text)) return;
  const li = document.createElement('li');
  li.textContent = text;
  list.append(li);
  while (list.children.length > 3) list.firstElementChild.remove();
  banner.hidden = false;
}

export function clearErrors() {
  if (!banner) return;
  banner.querySelector('.error-list').replaceChildren();
  banner.hidden = true;
}
