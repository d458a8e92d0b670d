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

/** Saves the chart as drawn (at the screen's pixel density) as `<panel>.png`, with its title
 *  and description as PNG text (`Title`, `Description`: what the SVG's carry). */
function exportPng() {
  const { title, desc } = chartWords();
  $('#chart').toBlob(async (blob) => {
    if (!blob) return;
    const png = withText(new Uint8Array(await blob.arrayBuffer()), [['Title', title], ['Description', desc]]);
    download(new Blob([png], { type: 'image/png' }), `rvm-lab-${state.panel}.png`);
  }, 'image/png');
}

/** The PNG `png` with an iTXt chunk (UTF-8 text, PNG 1.2 §4.2.3.3) per [keyword, text] of
 *  `texts`, before its last chunk (IEND). */
function withText(png, texts) {
  const utf8 = (text) => new TextEncoder().encode(text);
  const chunks = texts.map(([keyword, text]) => {
    // keyword, 0, no compression (0, 0), no language tag (0), no translated keyword (0), text.
    const data = new Uint8Array([...utf8(keyword), 0, 0, 0, 0, 0, ...utf8(text)]);
    const chunk = new Uint8Array(12 + data.length);
    const view = new DataView(chunk.buffer);
    view.setUint32(0, data.length);
    chunk.set(utf8('iTXt'), 4);
    chunk.set(data, 8);
    view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
    return chunk;
  });
  const end = png.length - 12;
  const out = new Uint8Array(png.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(png.subarray(0, end));
  let at = end;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  out.set(png.subarray(end), at);
  return out;
}

/** The CRC-32 of `bytes` that closes a PNG chunk (ISO 3309, as PNG 1.2 §3.4 gives it). */
function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
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
