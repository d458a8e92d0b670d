// Errors shown next to the control that caused them (a typed error of the core, in the
// reader's language); the last good state stays.

import { errorMessage } from './i18n.js';
import { state } from './state.js';

/** Shows `error` next to control `key` (or `add-point`, `csv`, `export`, `draw`). */
export function showError(key, error) {
  state.errors.set(key, error);
  renderErrors();
}

export function clearErrors() {
  state.errors.clear();
  renderErrors();
}

export function renderErrors() {
  for (const el of document.querySelectorAll('.error')) {
    const key = el.id.replace(/^err-/, '');
    const error = state.errors.get(key);
    el.textContent = error ? errorMessage(state.lang, error) : '';
    const input = document.getElementById({ 'add-point': 'add-point', handle: 'handle-x', point: 'point-index' }[key] ?? `ctl-${key}`);
    input?.setAttribute('aria-invalid', error ? 'true' : 'false');
  }
}
