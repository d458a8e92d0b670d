// Files in and out: the chart as PNG for a slide (drawn again larger, with its title and
// legend) and SVG (drawn again as vector graphics by Rust), the results, what the chart plots
// and the data as CSV — all made by share.js, loaded when first used — and data pasted or
// dropped as CSV.

import { attempt } from './controls.js';
import { showError } from './errors.js';
import { $, state, t } from './state.js';
import { withShare } from './url.js';
import { schedule } from './view.js';
import { call } from './wasm.js';

/** Saves `blob` as a file called `name`. */
export function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * What the export functions (share.js `exportFile`, loaded when first used) take of the page:
 * its solver, the chart's size, words and legend, and how the page calls, reports and
 * downloads.
 */
const exportPage = () => ({
  lab: state.lab,
  panel: state.panel,
  zoom: state.zoom,
  size: [$('#chart').offsetWidth, $('#chart').offsetHeight],
  title: $('#panel-title').textContent,
  summary: $('#chart-summary').textContent.trim(),
  legend: state.report.legend.map(({ key, colour, mark }) => ({ label: t(`legend.${key}`), colour, mark })),
  font: getComputedStyle(document.body).fontFamily,
  drawn: () => $('#chart').dataset.draws,
  call,
  download,
  fail: (error) => state.dead || showError('export', error),
  // The drawing for a picture moved the plotting area the pointer is read against
  // (`Lab.plotArea`): the chart on the page is drawn again, which puts it back.
  redraw: schedule,
});

/** Saves file `kind` (png, png-wide, svg, results, plotted, data). */
const exportFile = (kind) => withShare((share) => share.exportFile(kind, exportPage()));

/** The rows in the CSV box replace the data; a bad row is reported and the data stay. */
function importCsv() {
  attempt('csv', () => state.lab.importCsv($('#csv-text').value));
}

/** Wires the export buttons, the CSV form and dropping a file on the chart. */
export function wireFiles() {
  for (const [id, kind] of [['export-png', 'png'], ['export-png-wide', 'png-wide'], ['export-svg', 'svg'], ['export-results', 'results'],
    ['export-plotted', 'plotted'], ['csv-export', 'data'], ['share-csv', 'data']]) {
    $(`#${id}`).addEventListener('click', () => exportFile(kind));
  }
  $('#csv').addEventListener('submit', (event) => {
    event.preventDefault();
    importCsv();
  });
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
