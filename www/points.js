// Data by hand: the chart's pointer (a press adds a point or holds the one under it, a drag
// moves what it holds, a double-click or a long press removes a point), the keyboard's way
// to the same (choose a point by its number, arrow keys move it, Delete removes it), and
// undo / redo of data edits (buttons, Ctrl+Z, Ctrl+Shift+Z). The panel does each change
// (Lab.pressAtPixel, movePoint, removePoint, undo, redo) and keeps the history.

import { attempt } from './controls.js';
import { showCoordinate } from './handles.js';
import { pressEdits } from './stage.js';
import { $, state, t } from './state.js';
import { significant } from './tables.js';
import { drawNow } from './view.js';
import { call } from './wasm.js';

/** How near a point a press must land to hold it, in CSS pixels (a finger is coarser). */
const REACH = { mouse: 8, pen: 8, touch: 18 };
/** A press held this long without moving removes the point under it (touch). */
const LONG_PRESS_MS = 600;
/** Further than this (CSS pixels) and a press is a drag, not a long press. */
const STILL = 8;

/** Wires the chart's pointer. */
export function wirePointer() {
  const chart = $('#chart');
  /** Canvas pixels per CSS pixel, and the canvas pixel under a pointer event. */
  const ratio = () => chart.width / chart.getBoundingClientRect().width;
  const pixel = (event) => {
    const box = chart.getBoundingClientRect();
    return [(event.clientX - box.left) * ratio(), (event.clientY - box.top) * ratio()];
  };
  const reach = (event) => (REACH[event.pointerType] ?? REACH.mouse) * ratio();
  let held = null;
  let pending = null;
  chart.addEventListener('pointerdown', (event) => {
    if (state.dead || event.button !== 0 || !pressEdits()) return;
    try {
      chart.setPointerCapture(event.pointerId);
    } catch {
      // A pointer the browser does not know as active (a synthetic event) is not captured;
      // the press itself still counts.
    }
    const at = pixel(event);
    attempt('add-point', () => state.lab.pressAtPixel(...at, reach(event)));
    held = { x: event.clientX, y: event.clientY, timer: 0 };
    if (event.pointerType === 'touch') {
      held.timer = setTimeout(() => {
        call(() => state.lab.release());
        attempt('add-point', () => state.lab.removeAtPixel(...at, reach(event)));
        held = null;
      }, LONG_PRESS_MS);
    }
  });
  chart.addEventListener('pointermove', (event) => {
    if (state.dead || !chart.hasPointerCapture(event.pointerId) || !held) return;
    if (held.timer && Math.hypot(event.clientX - held.x, event.clientY - held.y) > STILL) {
      clearTimeout(held.timer);
      held.timer = 0;
    }
    // Moves are computed at most once a frame: the fit follows the pointer live.
    const first = pending === null;
    pending = pixel(event);
    if (first) {
      requestAnimationFrame(() => {
        const at = pending;
        pending = null;
        if (held && !state.dead) attempt('add-point', () => state.lab.dragToPixel(...at));
        drawNow();
      });
    }
  });
  const release = () => {
    if (held?.timer) clearTimeout(held.timer);
    held = null;
    if (!state.dead) call(() => state.lab.release());
  };
  chart.addEventListener('pointerup', release);
  chart.addEventListener('pointercancel', release);
  chart.addEventListener('dblclick', (event) => {
    if (state.dead || !pressEdits()) return;
    attempt('add-point', () => state.lab.removeAtPixel(...pixel(event), reach(event)));
  });
}

/** The chosen point's index (from 0), or -1 without points. */
function chosen() {
  return Number($('#point-index').value) - 1;
}

/** Wires the point editor and the undo / redo buttons and keys. */
export function wirePoints() {
  const move = () => {
    const [x, y] = [$('#point-x').valueAsNumber, $('#point-y').valueAsNumber];
    if (chosen() < 0 || !Number.isFinite(x) || !Number.isFinite(y)) return;
    attempt('point', () => state.lab.movePoint(chosen(), x, y));
  };
  $('#point-x').addEventListener('input', move);
  $('#point-y').addEventListener('input', move);
  $('#point-index').addEventListener('input', () => syncPoints(true));
  const remove = () => {
    if (chosen() >= 0) attempt('point', () => state.lab.removePoint(chosen()));
  };
  $('#point-remove').addEventListener('click', remove);
  $('#point-edit').addEventListener('keydown', (event) => {
    if (event.key === 'Delete' && event.target === $('#point-index')) {
      event.preventDefault();
      remove();
    }
  });
  $('#point-edit').addEventListener('submit', (event) => event.preventDefault());
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
}

/** Undoes the last data edit. */
export function undo() {
  attempt('point', () => state.lab.undo());
}

/** Redoes the last edit undone. */
export function redo() {
  attempt('point', () => state.lab.redo());
}

/** The panel, its generated count N, its points and its undo history's length at the last
 *  sync, and the count of generated points the last edit made the student's own (0: none). */
let last = null;
let owned = 0;

/** Says so when a data edit made the generated points the student's own (N to 0, the points
 *  kept but one: a generated point moved or removed), until the next edit. */
function sayRewrite(count, undoable) {
  const n = state.description.params.some(({ key }) => key === 'N') ? Number(call(() => state.lab.value('N'))) : 0;
  if (last?.lab !== state.lab) owned = 0;
  else if (undoable !== last.undoable) {
    owned = last.n > 0 && n === 0 && undoable === last.undoable + 1 && count >= last.count - 1 && count <= last.count ? last.n : 0;
  }
  last = { lab: state.lab, n, count, undoable };
  $('#points-said').textContent = owned ? t('points.own', { n: owned }) : '';
}

/**
 * Shows the points' editor: the number of the chosen point (kept, within the points there
 * are) and its coordinates (a field being typed in keeps its text), and which of undo and
 * redo can be done.
 */
export function syncPoints(picked = false) {
  const form = $('#point-edit');
  form.hidden = $('#add-point').hidden;
  if (form.hidden || state.dead) return;
  const index = $('#point-index');
  // The point chosen, and the count; asked again only if the points became fewer.
  const wanted = Math.max(Number(index.value) || 1, 1);
  let [count, point] = call(() => state.lab.pointAt(wanted - 1));
  const k = Math.min(wanted, count);
  if (k !== wanted && k > 0) [, point] = call(() => state.lab.pointAt(k - 1));
  // A number typed with a fraction names no point (the module would round it down).
  if (!Number.isInteger(k)) point = undefined;
  const [undoable, redoable] = call(() => state.lab.history());
  sayRewrite(count, undoable);
  $('#undo').disabled = undoable === 0;
  $('#redo').disabled = redoable === 0;
  index.max = String(count);
  index.min = count ? '1' : '0';
  if (document.activeElement !== index || picked) index.value = String(k);
  const [xName, yName] = state.description.pointAxes ?? ['x', 't'];
  $('#point-x-name').textContent = t(`control.${xName}`);
  $('#point-y-name').textContent = t(`control.${yName}`);
  for (const [field, value] of [
    [$('#point-x'), point?.[0]],
    [$('#point-y'), point?.[1]],
  ]) {
    field.disabled = point === undefined;
    // Six significant digits, as the handles show theirs: the box shows them whole.
    showCoordinate(field, point === undefined ? '' : significant(value, 6), picked);
  }
  $('#point-remove').disabled = point === undefined;
}
