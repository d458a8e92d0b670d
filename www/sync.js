// The controls kept in step with the panel's state after any change (an input, the player,
// a lesson's step, a language): each parameter's value in its control, then what registered
// to follow the state too (the handles and points lists). The modules that change the state
// import this one; the ones that follow it register here (`follow`), so none of them needs
// to import the others.

import { state } from './state.js';
import { call } from './wasm.js';

/** What follows the state after the controls, in the order registered. */
const followers = [];

/** Has `update` run after the controls each time they are brought in step. */
export function follow(update) {
  followers.push(update);
}

/** Shows each parameter's current value in its control, then what follows the state. */
export function syncControls() {
  for (const box of document.querySelectorAll('#controls .control')) {
    const value = call(() => state.lab.value(box.dataset.key));
    const active = call(() => state.lab.isActive(box.dataset.key));
    box.classList.toggle('inactive', !active);
    for (const input of box.querySelectorAll('input, select')) input.disabled = !active;
    const select = box.querySelector('select');
    if (select) {
      select.value = value;
      continue;
    }
    const checkbox = box.querySelector('input[type=checkbox]');
    if (checkbox) {
      checkbox.checked = value === '1';
      continue;
    }
    const text = box.querySelector('input[type=text]');
    // A line being typed in keeps its caret: it is written only when it says something else.
    if (text.value !== value) text.value = value;
    const range = box.querySelector('input[type=range]');
    if (range) range.value = range.dataset.log === '1' ? Math.log10(Number(value)) : value;
  }
  for (const update of followers) update();
}
