// The panel's controls, built from the parameters it declares (a slider and a text box, a
// select, a checkbox, preset buttons), kept in step with its state, and every change tried
// on the panel: on success the page follows, on a typed error the message goes next to the
// control and the last good state stays.

import { clearErrors, showError } from './errors.js';
import { asksForFormula, formulaLoaded, loadFormula } from './formula.js';
import { pause, startWork } from './player.js';
import { $, state } from './state.js';
import { formulaWaiting, syncControls } from './sync.js';
import { significant } from './tables.js';
import { nextTask } from './tasks.js';
import { writeUrl } from './url.js';
import { drawNow, show } from './view.js';
import { call } from './wasm.js';

/** Builds one control per parameter the panel declares. */
export function buildControls() {
  const form = $('#controls');
  form.replaceChildren();
  for (const spec of state.description.params) form.append(buildControl(spec));
}

function buildControl({ key, control }) {
  const box = document.createElement('div');
  box.className = 'control';
  box.dataset.key = key;
  const label = document.createElement('label');
  label.dataset.i18n = `param.${key}`;
  const error = document.createElement('span');
  error.className = 'error';
  error.id = `err-${key}`;
  error.setAttribute('role', 'alert');

  if (control.type === 'toggle') {
    box.classList.add('toggle');
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    checkbox.id = `ctl-${key}`;
    checkbox.addEventListener('change', () => setParam(key, checkbox.checked ? '1' : '0'));
    label.htmlFor = checkbox.id;
    checkbox.setAttribute('aria-describedby', error.id);
    box.append(checkbox, label, error);
    return box;
  }

  if (control.type === 'choice') {
    const select = document.createElement('select');
    select.id = `ctl-${key}`;
    for (const option of control.options) {
      const el = document.createElement('option');
      el.value = option;
      el.dataset.i18n = `choice.${option}`;
      select.append(el);
    }
    select.addEventListener('change', () => setParam(key, select.value));
    label.htmlFor = select.id;
    select.setAttribute('aria-describedby', error.id);
    box.append(label, select, error);
    return box;
  }

  if (control.type === 'text') return textControl(box, label, error, key, control);

  const range = document.createElement('input');
  range.type = 'range';
  range.id = `rng-${key}`;
  const number = document.createElement('input');
  // Text, not type=number: the box shows what was typed, and the core says what is wrong.
  number.type = 'text';
  number.id = `ctl-${key}`;
  number.inputMode = control.type === 'integer' ? 'numeric' : 'decimal';
  number.autocomplete = 'off';
  number.spellcheck = false;
  const log = control.type === 'real' && control.log;
  if (control.type === 'integer' || control.type === 'steps') {
    Object.assign(range, { min: control.min, max: control.max, step: 1 });
  } else if (log) {
    Object.assign(range, { min: Math.log10(control.min), max: Math.log10(control.max), step: 0.01 });
  } else {
    Object.assign(range, { min: control.min, max: control.max, step: (control.max - control.min) / 100 });
  }
  range.dataset.log = log ? '1' : '0';
  label.htmlFor = number.id;
  label.id = `lbl-${key}`;
  range.setAttribute('aria-labelledby', label.id);
  number.setAttribute('aria-describedby', error.id);
  range.setAttribute('aria-describedby', error.id);
  range.addEventListener('input', () => {
    // Four significant digits: 10**0.30103 → "2", 10**-6 → "1e-6".
    const text = log ? significant(10 ** Number(range.value), 4) : range.value;
    number.value = text;
    setParamSoon(key, text);
  });
  number.addEventListener('change', () => setParam(key, number.value));
  box.append(label, range, number);
  if (control.type === 'steps') box.append(presetButtons(key, control.presets));
  box.append(error);
  return box;
}

/**
 * A line of text (a formula): each edit is tried at once, so the chart follows every valid
 * keystroke, and an invalid one keeps the last good chart and says what is wrong and where.
 * Buttons below fill in the presets.
 */
function textControl(box, label, error, key, { maxLength, presets }) {
  box.classList.add('text');
  const input = document.createElement('input');
  input.type = 'text';
  input.id = `ctl-${key}`;
  // A little over the limit, so that the core, not a silent cut, says the text is too long.
  input.maxLength = maxLength + 1;
  Object.assign(input, { autocomplete: 'off', spellcheck: false, autocapitalize: 'off' });
  input.setAttribute('autocorrect', 'off');
  input.addEventListener('input', () => setParam(key, input.value));
  label.htmlFor = input.id;
  input.setAttribute('aria-describedby', error.id);
  const group = document.createElement('div');
  group.className = 'presets';
  group.setAttribute('role', 'group');
  group.dataset.i18nLabel = `presets.${key}`;
  for (const [name, text] of presets) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.i18n = `preset.${name}`;
    button.title = text;
    button.addEventListener('click', () => {
      input.value = text;
      setParam(key, text);
    });
    group.append(button);
  }
  box.append(label, input, error, group);
  return box;
}

/** Buttons that set `key` to each of `values` (e.g. N = 1, 2, 4, 25 of PRML Fig 3.8). */
function presetButtons(key, values) {
  const group = document.createElement('div');
  group.className = 'presets';
  group.setAttribute('role', 'group');
  group.dataset.i18nLabel = `presets.${key}`;
  for (const value of values) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = String(value);
    button.dataset.value = String(value);
    button.addEventListener('click', () => setParam(key, String(value)));
    group.append(button);
  }
  return group;
}


/**
 * Tries a change on the panel. On success the readouts, the plot and the background work
 * follow at once, the other controls and the URL in a task of their own (`followChange`);
 * on a typed error the message goes next to the control (`errorKey`) and the last good plot
 * stays.
 */
export function attempt(errorKey, change) {
  try {
    call(change);
  } catch (error) {
    if (!state.dead) showError(errorKey, error);
    return false;
  }
  clearErrors();
  followChange();
  show();
  startWork();
  return true;
}

/** Whether the controls and the URL are to follow a change in a task already queued. */
let following = false;

/**
 * The controls (a value the panel tidied, a control it switched off, the point editor) and the
 * address bar follow a change in the task after the input's, queued before the drawing's:
 * they were a third of the input's task, which on a phone 4× slower than this machine passed
 * 50 ms (classification at N = 400: the change 14–16 ms there, these 10–18 ms). The
 * input's own control already shows the value asked for, and the readouts are written in the
 * input's task (`show`), so the URL never says a state the page does not show yet. Changes
 * before that task follow once; a control refused meanwhile (a keystroke that came first)
 * keeps its text and its error, as it would have after the change's own sync.
 */
function followChange() {
  if (following) return;
  following = true;
  nextTask(() => {
    following = false;
    if (state.dead) return;
    syncControls(state.errors);
    writeUrl();
  });
}

export function setParam(key, text) {
  // The formula family's parser is a module of its own, loaded when first chosen.
  if (asksForFormula([[key, text]]) && !formulaLoaded()) {
    loadFormula(state.lang).then(() => {
      // Its words came with it: the page puts them in (app.js).
      document.dispatchEvent(new Event('rvm-lab:words'));
      setParam(key, text);
    }, (error) => showError(key, error));
    return;
  }
  if ((key === 'basis' && text === 'formula') || (key === 'formula' && formulaWaiting())) {
    chooseFormula(key === 'formula' ? text : null);
    return;
  }
  if (attempt(key, () => state.lab.set(key, text))) pause();
}

/**
 * The formula family chosen, or its formula (`text`) edited or a preset taken while that
 * choice waits: the formula and the family are tried together. A refusal is the formula's:
 * its message goes by its box, which stays open with its presets while the basis menu keeps
 * saying "your formula" (sync.js `formulaWaiting`), so the formula can always be
 * corrected; the chart stays the last good one. Another change that takes leaves the choice.
 */
function chooseFormula(text) {
  if (attempt('formula', () => {
    if (text !== null) state.lab.set('formula', text);
    state.lab.set('basis', 'formula');
  })) pause();
  else syncControls(state.errors);
}

/** Whether a slider's value has been computed since the last animation frame began. */
let computedThisFrame = false;

function markComputed() {
  if (computedThisFrame) return;
  computedThisFrame = true;
  requestAnimationFrame(() => {
    computedThisFrame = false;
  });
}

/**
 * A slider's value is computed at once when it is the first since the last frame (a key
 * press, a click, the first move of a drag: the change is ready when the frame comes, and
 * drawn in it). A slider being dragged can send many values per frame; the rest are computed
 * once per animation frame, the latest only, so a slow panel drops intermediate values
 * instead of queueing them.
 */
function setParamSoon(key, text) {
  if (!computedThisFrame && state.pending.size === 0) {
    markComputed();
    setParam(key, text);
    return;
  }
  const first = state.pending.size === 0;
  state.pending.set(key, text);
  if (!first) return;
  requestAnimationFrame(() => {
    const pending = [...state.pending];
    state.pending.clear();
    markComputed();
    for (const [k, v] of pending) setParam(k, v);
    drawNow();
  });
}
