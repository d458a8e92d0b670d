// Files in and out: the chart as PNG (as drawn) and SVG (drawn again as vector graphics by
// Rust), the results, what the chart plots and the data as CSV, and data pasted or dropped
// as CSV.

import { attempt } from './controls.js';
import { showError } from './errors.js';
import { $, state } from './state.js';
import { call } from './wasm.js';

/** Saves `blob` as a file called `name`. */
export function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Saves the chart as drawn (at the screen's pixel density) as `<panel>.png`. */
function exportPng() {
  $('#chart').toBlob((blob) => {
    if (blob) download(blob, `rvm-lab-${state.panel}.png`);
  }, 'image/png');
}

/** Downloads the text `make()` returns as `name`; an error shows beside the buttons. */
function exportText(make, type, name) {
  let text;
  try {
    text = call(make);
  } catch (error) {
    if (!state.dead) showError('export', error);
    return;
  }
  if (text !== undefined) download(new Blob([text], { type }), `rvm-lab-${name}`);
}

/** Saves the chart as vector graphics, drawn again at its size on the page (its text as
 *  large as on stage), as `<panel>.svg`, with a title and a description (described). */
function exportSvg() {
  const { offsetWidth: width, offsetHeight: height } = $('#chart');
  exportText(() => described(state.lab.svg(width, height, state.zoom)), 'image/svg+xml', `${state.panel}.svg`);
}

/** `&`, `<` and `>` of `text` as XML writes them. */
const xmlText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SVG `svg` with a <title> (the panel) and a <desc>: the chart in words, then the state
 *  it shows as a permalink's query, so that the file names its settings (a typed formula,
 *  the data) for screen readers and for whoever opens it later. */
function described(svg) {
  const title = `RVM Lab: ${$('#panel-title').textContent}`;
  const query = `?${new URLSearchParams([['panel', state.panel], ...state.lab.query()])}`;
  const desc = `${$('#chart-summary').textContent.trim()} ${query}`;
  return svg.replace(/<svg\b[^>]*>/, (open) => `${open}<title>${xmlText(title)}</title><desc>${xmlText(desc)}</desc>`);
}

/** The rows in the CSV box replace the data; a bad row is reported and the data stay. */
function importCsv() {
  attempt('csv', () => state.lab.importCsv($('#csv-text').value));
}

/** Wires the export buttons, the CSV form and dropping a file on the chart. */
export function wireFiles() {
  $('#export-png').addEventListener('click', exportPng);
  $('#export-svg').addEventListener('click', exportSvg);
  $('#export-results').addEventListener('click', () =>
    exportText(() => state.lab.resultsCsv(), 'text/csv', `${state.panel}-results.csv`),
  );
  $('#export-plotted').addEventListener('click', () =>
    exportText(() => state.lab.plottedCsv(), 'text/csv', `${state.panel}-plotted.csv`),
  );
  $('#csv').addEventListener('submit', (event) => {
    event.preventDefault();
    importCsv();
  });
  const exportData = () => exportText(() => state.lab.exportCsv(), 'text/csv', `${state.panel}.csv`);
  $('#csv-export').addEventListener('click', exportData);
  $('#share-csv').addEventListener('click', exportData);
  // A CSV file dropped on the chart is read as if pasted.
  $('#canvas-box').addEventListener('dragover', (event) => {
    if (!$('#csv').hidden) event.preventDefault();
  });
  $('#canvas-box').addEventListener('drop', async (event) => {
    const file = event.dataTransfer?.files?.[0];
    // (A lesson file is the page's: app.js opens it in the lesson editor.)
    if (!file || $('#csv').hidden || /\.json$/i.test(file.name)) return;
    event.preventDefault();
    $('#csv-text').value = await file.text();
    importCsv();
  });
}
