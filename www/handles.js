// The keyboard's (and a single pointer's) way to what a drag or a press on the chart moves
// (WCAG 2.5.7): the panel lists its handles (Lab.handles(): a centre, a starting point, a
// target…) with where each is; the page offers them in a menu and their coordinates in
// number fields, which arrow keys step and typing sets. A change is the panel's own
// moveHandle, the same change a drag there would make.

import { attempt } from './controls.js';
import { $, state, t } from './state.js';
import { significant } from './tables.js';
import { call } from './wasm.js';

/** The handles as last listed, to tell a new list from the same one moved. */
let listed = '';

/** Wires the fields once: a typed or stepped value moves the chosen handle. */
export function wireHandles() {
  const move = () => {
    const index = Number($('#handle-select').value);
    const [x, y] = [$('#handle-x').valueAsNumber, $('#handle-y').valueAsNumber];
    const handle = currentHandles()[index];
    if (!handle || !Number.isFinite(x)) return;
    const second = handle.axes[1] === undefined ? handle.at[1] : y;
    if (!Number.isFinite(second)) return;
    attempt('handle', () => state.lab.moveHandle(index, x, second));
  };
  $('#handle-x').addEventListener('input', move);
  $('#handle-y').addEventListener('input', move);
  $('#handle-select').addEventListener('change', () => syncHandles(true));
}

function currentHandles() {
  return call(() => state.lab.handles());
}

/**
 * Shows the panel's handles: the menu (rebuilt when the list changes, the choice kept) and
 * the chosen one's coordinates (a field being typed in keeps its text).
 */
export function syncHandles(chosen = false) {
  const handles = state.dead ? [] : currentHandles();
  const form = $('#handles');
  form.hidden = handles.length === 0;
  if (form.hidden) return;
  const select = $('#handle-select');
  const names = handles.map(({ key, args }) => t(`handle.${key}`, args));
  const signature = `${state.lang} ${names.join('|')}`;
  if (signature !== listed) {
    const keep = Math.min(Number(select.value) || 0, handles.length - 1);
    select.replaceChildren(...names.map((name, i) => new Option(name, String(i))));
    select.value = String(keep);
    listed = signature;
  }
  const handle = handles[Number(select.value)] ?? handles[0];
  const [xName, yName] = handle.axes;
  $('#handle-x-name').textContent = t(`control.${xName}`);
  $('#handle-y-box').hidden = yName === undefined;
  if (yName !== undefined) $('#handle-y-name').textContent = t(`control.${yName}`);
  for (const [field, value, step] of [
    [$('#handle-x'), handle.at[0], handle.step[0]],
    [$('#handle-y'), handle.at[1], handle.step[1]],
  ]) {
    field.step = String(step);
    showCoordinate(field, significant(value, 6), chosen);
  }
}

/**
 * Shows `text` in a coordinate field, unless the field is being typed in (and the thing it
 * belongs to was not just `chosen`). The value attribute is set too: it is the base arrow
 * keys step from, so a step lands on value ± step.
 */
export function showCoordinate(field, text, chosen) {
  if (document.activeElement === field && !chosen) return;
  field.setAttribute('value', text);
  field.value = text;
}
