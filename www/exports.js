// Files in and out: the chart as PNG for a slide (drawn again larger, with its title and
// legend: share.js, loaded when first used) and SVG (drawn again as vector graphics by Rust),
// the results, what the chart plots and the data as CSV, and data pasted or dropped as CSV.

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

/** How wide the slide-sized PNG is, in pixels: a 1080p slide's width. */
const SLIDE_WIDTH = 1920;

/**
 * Saves the chart as `<panel>.png` for a slide (share.js `chartPng`): drawn again at twice its
 * size on the page, or `SLIDE_WIDTH` pixels wide when `wide`, with the panel's title above it
 * and its legend below, and its title and description as PNG text (`Title`, `Description`:
 * what the SVG's carry). An error shows beside the buttons.
 */
function exportPng(wide) {
  const { offsetWidth: width, offsetHeight: height } = $('#chart');
  const { title, desc } = chartWords();
  const scale = wide ? SLIDE_WIDTH / width : 2;
  withShare(async (share) => {
    let png;
    try {
      png = await share.chartPng({
        draw: (canvas, from, ms) => call(() => state.lab.draw(canvas, scale * state.zoom, from, ms)),
        drawn: () => $('#chart').dataset.draws,
        width,
        height,
        scale,
        title: $('#panel-title').textContent,
        legend: state.report.legend.map(({ key, colour, mark }) => ({ label: t(`legend.${key}`), colour, mark })),
        font: getComputedStyle(document.body).fontFamily,
        texts: [['Title', title], ['Description', desc]],
      });
    } catch (error) {
      if (!state.dead) showError('export', error);
      return;
    } finally {
      // The drawing for the picture moved the plotting area the pointer is read against
      // (`Lab.plotArea`): the chart on the page is drawn again, which puts it back.
      schedule();
    }
    download(new Blob([png], { type: 'image/png' }), `rvm-lab-${state.panel}${wide ? `-${SLIDE_WIDTH}` : ''}.png`);
  });
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

/** The chart's title (the panel) and description: the chart in words, then the state it shows
 *  as a permalink's query, so that a saved file names its settings (a typed formula, the
 *  data) for screen readers and for whoever opens it later. */
function chartWords() {
  const query = `?${new URLSearchParams([['panel', state.panel], ...call(() => state.lab.query())])}`;
  return { title: `RVM Lab: ${$('#panel-title').textContent}`, desc: `${$('#chart-summary').textContent.trim()} ${query}` };
}

/** The SVG `svg` with a <title> and a <desc>, the chart's words. */
function described(svg) {
  const { title, desc } = chartWords();
  return svg.replace(/<svg\b[^>]*>/, (open) => `${open}<title>${xmlText(title)}</title><desc>${xmlText(desc)}</desc>`);
}

/** The rows in the CSV box replace the data; a bad row is reported and the data stay. */
function importCsv() {
  attempt('csv', () => state.lab.importCsv($('#csv-text').value));
}

/** Wires the export buttons, the CSV form and dropping a file on the chart. */
export function wireFiles() {
  $('#export-png').addEventListener('click', () => exportPng(false));
  $('#export-png-wide').addEventListener('click', () => exportPng(true));
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
