// The controls kept in step with the panel's state after any change (an input, the player,
// a lesson's step, a language): each parameter's value in its control, then what registered
// to follow the state too (the handles and points lists). The modules that change the state
// import this one; the ones that follow it register here (`follow`), so none of them needs
// to import the others.

import { $, state, stepKeys } from './state.js';
import { call } from './wasm.js';

/** What follows the state after the controls, in the order registered. */
const followers = [];

/** Has `update` run after the controls each time they are brought in step. */
export function follow(update) {
  followers.push(update);
}

/** Whether the formula family was chosen and refused by its formula (controls.js
 *  `chooseFormula`): the formula's error shows while the basis menu says "your formula" and
 *  the family is another. Its box then stays open, to correct it. */
export const formulaWaiting = () =>
  state.errors.has('formula') && $('#ctl-basis')?.value === 'formula' && !call(() => state.lab.isActive('formula'));

/** Shows each parameter's current value in its control, then what follows the state. A
 *  control is written only where it says something else: a write, even of the same value,
 *  invalidates the page's style (a disabled state is matched by the stylesheet), and the
 *  controls are synced on every input. A control whose key `kept` has (one showing its own
 *  refused value and error) keeps what it says. */
export function syncControls(kept = new Set()) {
  const [fixed, hidden, waiting] = [stepKeys('lock'), stepKeys('hide'), formulaWaiting()];
  for (const box of document.querySelectorAll('#controls .control')) {
    const key = box.dataset.key;
    // A choice of the formula family that its formula refused keeps the formula open.
    const active = call(() => state.lab.isActive(key)) || (key === 'formula' && waiting);
    // A lesson's step may fix a control (shown, not changeable) or hide it.
    const locked = fixed.has(key);
    update(box, 'hidden', hidden.has(key));
    // `toggle` with a force changes nothing (and invalidates nothing) when it holds already.
    box.classList.toggle('inactive', !active);
    box.classList.toggle('locked', locked);
    for (const input of box.querySelectorAll('input, select, button')) update(input, 'disabled', !active || locked);
    if (kept.has(key) || (key === 'basis' && waiting)) continue;
    const value = call(() => state.lab.value(key));
    const select = box.querySelector('select');
    if (select) {
      update(select, 'value', value);
      continue;
    }
    const checkbox = box.querySelector('input[type=checkbox]');
    if (checkbox) {
      update(checkbox, 'checked', value === '1');
      continue;
    }
    // A line being typed in keeps its caret: it is written only when it says something else.
    update(box.querySelector('input[type=text]'), 'value', value);
    const range = box.querySelector('input[type=range]');
    if (range) update(range, 'value', String(range.dataset.log === '1' ? Math.log10(Number(value)) : value));
  }
  for (const follower of followers) follower();
}

/** Sets `element[property]` to `value` unless it is that already. */
function update(element, property, value) {
  if (element[property] !== value) element[property] = value;
}
