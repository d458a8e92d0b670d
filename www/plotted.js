// The chart's numbers as tables (Rust's `plotted()`: the curves at their grid points, the
// data, a surface or a class map on a coarse grid): the "data table" view under the chart,
// for a screen reader or to read a value off exactly (built by share.js, loaded when the view
// is first opened), and "Save plotted data as CSV".

import { $, state, t } from './state.js';
import { withShare } from './url.js';
import { call } from './wasm.js';

/** While playing, the open view is rebuilt at most this often (its tables can be long). */
const PLAYING_MS = 2000;
let builtAt = -Infinity;

/** Rebuilds the view's tables from the panel, if the view is open (share.js builds them: the
 *  view is loaded when first opened). */
export function renderPlotted() {
  const view = $('#plotted');
  if (!view.open || !state.lab) return;
  const now = performance.now();
  if (state.playing && now - builtAt < PLAYING_MS) return;
  builtAt = now;
  let tables;
  try {
    tables = call(() => state.lab.plotted());
  } catch {
    return; // The module died: the page says so elsewhere.
  }
  withShare((share) => $('#plotted-tables').replaceChildren(...share.plottedTables(tables, t)));
}

/** Builds the view when it is opened. */
export function wirePlotted() {
  $('#plotted').addEventListener('toggle', () => {
    builtAt = -Infinity;
    if ($('#plotted').open) renderPlotted();
    else $('#plotted-tables').replaceChildren();
  });
}
