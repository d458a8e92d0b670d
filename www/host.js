// The keyboard beyond the controls, and the page that frames the lab (a slide deck, a course
// page). A clicker's keys (→ ← PageDown PageUp space) walk a lesson; `s` steps the solver and
// Shift+S steps it back; `?` lists every key of the page (the Keys button too). In a frame the lab keeps only the keys it uses: every other key goes
// on to the host, so a clicker never gets stuck in the frame, and no key scrolls it.
//
// To the host, a passed-on key is posted twice: as reveal.js's postMessage API call
// ('{"method":"next"}' …), which reveal.js decks act on by themselves, and as
// `{type: "rvm-lab:key", key, code, shiftKey}` for any other host (README: "In a slide deck").
// From the host the lab takes reveal.js's 'slide:start' / 'slide:stop' (when its slide is
// left it pauses and gives the keyboard back to the deck) and `{type: "rvm-lab:scale",
// scale}` from a cross-origin host that scales the frame (same-origin frames are measured),
// with `view: [width, height]`, the host's window (stage text follows its height), and
// `focus: true` from a host that gives and takes the keyboard focus itself (the reveal.js
// plugin, www/rvm-lab-reveal.js: the lab then leaves the focus alone when its slide is left,
// which could take it from the next slide's frame).

import { lessonKey } from './lesson-view.js';
import { advance, pause, stepBack } from './player.js';
import { redo, undo } from './points.js';
import { openDrawer } from './stage.js';
import { $, framed, state } from './state.js';
import { schedule } from './view.js';

/** reveal.js API methods for the keys a deck navigates with. */
const DECK_METHODS = {
  ArrowRight: 'next',
  PageDown: 'next',
  ' ': 'next',
  n: 'next',
  ArrowLeft: 'prev',
  PageUp: 'prev',
  p: 'prev',
  ArrowDown: 'down',
  ArrowUp: 'up',
  Escape: 'toggleOverview',
  o: 'toggleOverview',
  b: 'togglePause',
  '.': 'togglePause',
};

/** Keys that stay in the frame even there: moving the focus, and modifiers alone. */
const STAY = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'CapsLock']);

/** Whether the host hands the keyboard focus over itself (`focus: true`). */
let hostFocuses = false;

export function wireHost() {
  document.addEventListener('keydown', onKey);
  $('#keys-toggle').addEventListener('click', toggleKeys);
}

/** Hears the host from the page's start: it answers the page's first word (its height), and
 *  what it says then (the reveal.js plugin's scale) must not be missed. */
export const hearHost = () => window.addEventListener('message', onMessage);

/** Opens the list of keys (a modal dialog: Escape or its button closes it), or closes it. */
function toggleKeys() {
  const dialog = $('#keys');
  if (dialog.open) dialog.close();
  else dialog.showModal();
}

function onKey(event) {
  const target = event.target;
  // Ctrl+Z (⌘Z) undoes a data edit and Ctrl+Shift+Z or Ctrl+Y redoes it, except in a text
  // field, whose own undo they are.
  const field = target.closest?.('input:not([type=range]):not([type=checkbox]), textarea, [contenteditable]');
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !field && !$('#point-edit').hidden) {
    const key = event.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      if (key === 'z' && !event.shiftKey) undo();
      else redo();
      return;
    }
  }
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  // A field's keys are its own; so are space and Enter on a button or link.
  if (target.closest?.('input, select, textarea, [contenteditable]')) return;
  if (target.closest?.('button, a[href]') && (event.key === ' ' || event.key === 'Enter')) return;
  if (useKey(event.key)) {
    event.preventDefault();
    return;
  }
  if (!framed || STAY.has(event.key)) return;
  event.preventDefault();
  passOn(event);
}

/** Acts on `key` if the lab uses it here; whether it did. */
function useKey(key) {
  if (key === '?') {
    toggleKeys();
    return true;
  }
  if ((key === 's' || key === 'S') && state.description?.animated) {
    pause();
    if (key === 's') advance(1);
    else stepBack();
    return true;
  }
  if (key === 'Escape' && $('#drawer').dataset.open === '1') {
    openDrawer(false);
    return true;
  }
  const moved = lessonKey(key);
  // At either end of a lesson, a framed lab lets the deck go on; its own page stays.
  return moved === true || (moved === false && !framed);
}

/** Posts a key the lab does not use to the host, in reveal.js's words and in the lab's. */
function passOn({ key, code, shiftKey }) {
  const method = DECK_METHODS[key];
  if (method) window.parent.postMessage(JSON.stringify({ method, args: [] }), '*');
  window.parent.postMessage({ type: 'rvm-lab:key', key, code, shiftKey }, '*');
}

function onMessage({ source, data }) {
  if (source !== window.parent || !framed) return;
  if (data === 'slide:stop') {
    // The deck has left this slide: pause, and give the keyboard back to the deck, so the
    // next key goes to it and not to a frame no longer in view.
    pause();
    if (document.hasFocus() && !hostFocuses) window.parent.focus();
  }
  else if (data === 'slide:start') schedule();
  else if (data?.type === 'rvm-lab:scale' && Number(data.scale) > 0) {
    state.hostScale = Number(data.scale);
    const view = data.view;
    if (Array.isArray(view) && view.length === 2 && view.every((n) => n > 0)) state.hostView = view;
    hostFocuses ||= data.focus === true;
    schedule();
  }
}
