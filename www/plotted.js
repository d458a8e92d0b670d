// The chart's numbers as tables (Rust's `plotted()`: the curves at their grid points, the
// data, a surface or a class map on a coarse grid): the "data table" view under the chart,
// for a screen reader or to read a value off exactly, and "Save plotted data as CSV".

import { $, state, t } from './state.js';
import { buildTable, formatNumber } from './tables.js';
import { call } from './wasm.js';

/** While playing, the open view is rebuilt at most this often (its tables can be long). */
const PLAYING_MS = 2000;
let builtAt = -Infinity;

/** A heading `{key, number}` in the reader's language: a family's member through its
 *  `<key>.n` template (φ3(x)), or else the words and the number. */
function headingText({ key, number }) {
  if (number === undefined) return t(key);
  const template = `${key}.n`;
  const text = t(template, { n: number });
  return text === template ? `${t(key)} ${number}` : text;
}

/** Rebuilds the view's tables from the panel, if the view is open. */
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
  $('#plotted-tables').replaceChildren(
    ...tables.map(({ caption, headings, values }) => {
      const rows = [];
      for (let i = 0; i < values.length; i += headings.length) {
        rows.push([...values.subarray(i, i + headings.length)].map(formatNumber));
      }
      return buildTable(headingText(caption), headings.map(headingText), rows);
    }),
  );
}

/** Builds the view when it is opened. */
export function wirePlotted() {
  $('#plotted').addEventListener('toggle', () => {
    builtAt = -Infinity;
    if ($('#plotted').open) renderPlotted();
    else $('#plotted-tables').replaceChildren();
  });
}
