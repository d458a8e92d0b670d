// What a lecturer takes out of the lab for another page: the share box's permalink and iframe
// snippet, with their Copy buttons, and the chart's files: a PNG for a slide, an SVG, its
// results, plotted data and data as CSV; and the chart's data table. A bundle of its own (share.min.js), loaded when the
// box is first opened or a file first saved (url.js `withShare`): a reader who does neither
// never carries it. It imports none of the page's
// modules that hold state (they would be copies with a state of their own): the page hands it
// what it uses.

import { buildTable, formatNumber } from './tables.js';
import { nextTask } from './tasks.js';

/** The box's own words, in English and 中文 (the page's strings hold only what shows before
 *  this module loads: the box's title and labels). */
export const WORDS = {
  en: {
    'copy-link': 'Copy link',
    'copy-snippet': 'Copy snippet',
    copied: 'Copied',
    'press-copy': 'Selected: press Ctrl+C (⌘C on a Mac) to copy',
    note: 'The script makes the frame as tall as the panel. A course page that removes scripts keeps the frame {height} px tall, the panel’s height at this width.',
  },
  zh: {
    'copy-link': '复制链接',
    'copy-snippet': '复制代码',
    copied: '已复制',
    'press-copy': '已选中：按 Ctrl+C（Mac 上为 ⌘C）复制',
    note: '脚本会让框架与面板等高。若课程网页删除脚本，框架保持 {height} 像素高，即面板在此宽度下的高度。',
  },
};

/** Word `key` of the box in `lang`, `{height}` filled in. */
const word = (lang, key, height) => WORDS[lang][key].replace('{height}', String(height));

const $ = (selector) => document.querySelector(selector);

/**
 * The snippet's script, which follows the iframe just before it: the frame takes the height
 * its page reports (`{rvmLabHeight}`, url.js `reportHeights`), from its own frame only — other
 * frames of the course page, and any other message, are left alone. Block-scoped, so the
 * snippet pasted twice makes two independent frames.
 */
export const RESIZER =
  "{ const frame = document.currentScript.previousElementSibling; addEventListener('message', (e) => { if (e.source === frame.contentWindow && e.data.rvmLabHeight > 0) frame.style.height = e.data.rvmLabHeight + 'px'; }); }";

/** The iframe snippet of the embedded view at `address` titled `title`, `height` px tall
 *  where its script cannot run, then the script. */
export function snippet(address, title, height) {
  const src = address.replace(/&/g, '&amp;');
  const name = title.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${src}" title="RVM Lab: ${name}" style="width:100%;height:${height}px;border:0"></iframe>\n<script>${RESIZER}</script>`;
}

/** What the box shows, as the page last described it (`view()`: {lang, t, packing, limit,
 *  title}); null until the box is first opened. */
let view = null;

/** Follows the panel's height while the box is open, so that the snippet's height is the
 *  panel's as it is now: measured once the page is laid out anyway, never in the middle of a
 *  change (which writes the address, and the box, before the page shows it); made when the
 *  box first opens. */
let heights = null;

/** The panel's height embedded (`embeddedHeight`), as last measured. */
let height = 0;

/** The panel's height in whole CSS pixels, embedded in a frame as wide as this page's column:
 *  `embed=1` shows the lesson band (with its 0.8 rem margin above) and the panel's body right
 *  under it, within 0.4 rem of padding above and below (style.css). */
function embeddedHeight() {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const lesson = $('#lesson');
  const band = lesson.hidden ? 0 : lesson.getBoundingClientRect().height + 0.8 * rem;
  return Math.ceil($('.panel-body').getBoundingClientRect().height + band + 0.8 * rem);
}

/** Sets `field`'s value to `text` if it differs, and then clears its Copy button's "Copied"
 *  (the text copied is no longer the one shown). */
function setField(field, status, text) {
  if (field.value === text) return;
  field.value = text;
  status.textContent = '';
}

/** The permalink of the view and an iframe snippet that embeds it, with the Copy buttons in
 *  the reader's language; a link longer than `limit`, or none at all (a srcdoc), is not
 *  offered: the box says so and offers the data as CSV. */
export function renderShare(describe) {
  view = describe;
  if ($('#share').hidden) return;
  const { lang, t, packing, limit, title } = describe();
  const link = location.href;
  // A frame's srcdoc has no address of its own to share.
  const addressless = location.protocol === 'about:';
  const tooLong = !packing && link.length > limit;
  $('#share-long').hidden = !(tooLong || addressless);
  $('#share-links').hidden = tooLong || addressless;
  if (tooLong || addressless) {
    $('#share-long-text').textContent = addressless ? t('share.no-address') : t('share.too-long', { length: link.length, limit });
    $('#share-csv').hidden = $('#csv').hidden;
    return;
  }
  const embedded = new URL(link);
  embedded.searchParams.set('embed', '1');
  setField($('#share-link'), $('#share-link-status'), link);
  setField($('#share-iframe'), $('#share-iframe-status'), snippet(embedded.href, title, height));
  $('#share-link-copy').textContent = word(lang, 'copy-link');
  $('#share-iframe-copy').textContent = word(lang, 'copy-snippet');
  $('#share-iframe-note').textContent = word(lang, 'note', height);
}

/** Whether the Copy buttons are wired (once, when the box first opens). */
let wired = false;

/** Opens or closes the share box (its words and heights followed while open). */
export function toggleShare(describe) {
  if (!wired) {
    wired = true;
    for (const name of ['link', 'iframe']) {
      $(`#share-${name}-copy`).addEventListener('click', () => copy($(`#share-${name}`), $(`#share-${name}-status`)));
    }
  }
  const box = $('#share');
  box.hidden = !box.hidden;
  $('#share-toggle').setAttribute('aria-expanded', String(!box.hidden));
  heights ??= new ResizeObserver(() => {
    height = embeddedHeight();
    renderShare(view);
  });
  if (box.hidden) {
    heights.disconnect();
    return;
  }
  height = embeddedHeight();
  renderShare(describe);
  heights.observe($('main'));
  if (!$('#share-links').hidden) $('#share-link').select();
}

/**
 * Puts `field`'s text on the clipboard and says so beside the button (a live region, so a
 * screen reader says it too). Where the browser refuses (a frame without the clipboard
 * permission, a page not served over https), the text is selected for Ctrl+C instead.
 */
async function copy(field, status) {
  const { lang } = view();
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = word(lang, 'copied');
  } catch {
    field.focus();
    field.select();
    status.textContent = word(lang, 'press-copy');
  }
}


/** The legend's class marks as style.css draws them: a path in a 10 × 10 box, its line
 *  width. */
const MARKS = {
  cross: ['M1.5 1.5l7 7M8.5 1.5l-7 7', 1.8],
  triangle: ['M5 1.2L9 8.8H1z', 1.4],
  square: ['M1.5 1.5h7v7h-7z', 1.4],
};

/** The picture's measures in the page's CSS pixels (the picture is `scale` times larger):
 *  the title's text (the page's h2) and the legend's (0.9 rem), the legend's line height and
 *  the gap between its entries (style.css), the margin around both. */
const TITLE_PX = 20;
const LEGEND_PX = 14.4;
const LINE_PX = 21;
const GAP_PX = 16;
const MARGIN_PX = 12;

/** The width of an entry's swatch, in ems of the legend's text (style.css's `.swatch`). */
const swatchWidth = (mark) => (mark === 'dot' ? 0.8 : mark in MARKS ? 0.9 : 1.6);

/**
 * The legend's entries ({label, colour, mark}) in rows no wider than `room` pixels, each
 * entry with its `x` in its row, measured in `context`'s font (`em` pixels).
 */
function legendRows(context, entries, em, room) {
  const rows = [];
  let x = room;
  for (const entry of entries) {
    const width = (swatchWidth(entry.mark) + 0.35) * em + context.measureText(entry.label).width;
    if (x > 0 && x + width > room) {
      rows.push([]);
      x = 0;
    }
    rows.at(-1).push({ ...entry, x });
    x += width + (GAP_PX / LEGEND_PX) * em;
  }
  return rows;
}

/** Draws the swatch of `mark` in `colour` at `x`, centred on the line at `y` (`em`: the
 *  legend's text size), as the page's legend shows it: a band (area), a line, a dashed line,
 *  a ring (dot) or a class mark. */
function drawSwatch(context, { mark, colour }, x, y, em) {
  const u = em / LEGEND_PX;
  context.save();
  context.fillStyle = context.strokeStyle = colour;
  if (mark === 'dot') {
    context.lineWidth = 2 * u;
    context.beginPath();
    context.arc(x + 0.4 * em, y, 0.4 * em - u, 0, 2 * Math.PI);
    context.stroke();
  } else if (mark in MARKS) {
    const [path, width] = MARKS[mark];
    context.translate(x, y - 0.45 * em);
    context.scale(0.09 * em, 0.09 * em);
    context.lineWidth = width;
    context.stroke(new Path2D(path));
  } else if (mark === 'dashed') {
    context.lineWidth = 3 * u;
    context.setLineDash([6 * u, 3 * u]);
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x + 1.6 * em, y);
    context.stroke();
  } else {
    const height = mark === 'line' ? 3 * u : 0.8 * em;
    context.beginPath();
    context.roundRect(x, y - height / 2, 1.6 * em, height, 2 * u);
    context.fill();
  }
  context.restore();
}

/** A promise of the next task: what follows it runs in a task of its own. */
const nextTaskDone = () => new Promise((done) => nextTask(done));

/** The time a part of the picture's drawing may take (ms; a chart begun is finished), and
 *  how often it starts again when the page's chart changes meanwhile before it is drawn at
 *  once. */
const PART_MS = 6;
const RESTARTS = 3;

/**
 * Draws the chart on `canvas` with `draw(canvas, from, ms)` (the page's `Lab.draw` at the
 * picture's scale) a few charts per task, as the page draws a panel the first time: whole,
 * the larger canvas took up to 21 ms here (classification, 1920 px), in parts at most 13.
 * Should the page's chart be drawn again meanwhile (`drawn()` changed: a step played, work
 * done), the parts could show two states, so the drawing starts again; after RESTARTS it is
 * drawn at once.
 */
async function drawInParts(canvas, draw, drawn) {
  for (let restarts = 0; ; restarts += 1) {
    const before = drawn();
    const ms = restarts < RESTARTS ? PART_MS : Infinity;
    let from = 0;
    do {
      from = draw(canvas, from, ms);
      if (from !== undefined) await nextTaskDone();
    } while (from !== undefined && drawn() === before);
    if (from === undefined && drawn() === before) return;
  }
}

/**
 * The chart for a slide, as PNG bytes: drawn again (`drawInParts`) at `scale` times its
 * `width` × `height` on the page, its text and lines as large, with the panel's `title`
 * above it and its `legend` ({label, colour, mark}) below, in the page's `font`, on white;
 * `texts` ([keyword, text]) as PNG text chunks.
 */
export async function chartPng({ draw, drawn, width, height, scale, title, legend, font, texts }) {
  // (From the next task on: the click that asked for it is painted first.)
  await nextTaskDone();
  const chart = document.createElement('canvas');
  [chart.width, chart.height] = [Math.round(width * scale), Math.round(height * scale)];
  await drawInParts(chart, draw, drawn);
  await nextTaskDone();
  const picture = document.createElement('canvas');
  const context = picture.getContext('2d');
  const [margin, em, line] = [MARGIN_PX * scale, LEGEND_PX * scale, LINE_PX * scale];
  const room = chart.width - 2 * margin;
  context.font = `${em}px ${font}`;
  const rows = legendRows(context, legend, em, room);
  const top = Math.round(2 * margin + TITLE_PX * 1.3 * scale);
  const bottom = top + chart.height;
  [picture.width, picture.height] = [chart.width, Math.round(bottom + rows.length * line + 1.5 * margin)];
  // (Sizing the canvas reset its context.) The bands above and below the chart are white (the
  // chart is), their text the page's ink.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, picture.width, top);
  context.fillRect(0, bottom, picture.width, picture.height - bottom);
  context.fillStyle = '#222';
  context.textBaseline = 'middle';
  context.font = `bold ${TITLE_PX * scale}px ${font}`;
  context.fillText(title, margin, top / 2, room);
  context.font = `${em}px ${font}`;
  rows.forEach((row, i) => {
    const y = bottom + margin / 2 + (i + 0.5) * line;
    for (const entry of row) {
      drawSwatch(context, entry, margin + entry.x, y, em);
      context.fillText(entry.label, margin + entry.x + (swatchWidth(entry.mark) + 0.35) * em, y, room - entry.x);
    }
  });
  // The chart's copy in a task of its own: on a software-drawn canvas (headless Chromium here)
  // each half took 5–8 ms at twice the size of an 832 × 458 chart.
  await nextTaskDone();
  context.drawImage(chart, 0, top);
  const blob = await new Promise((done) => picture.toBlob(done, 'image/png'));
  if (!blob) throw new Error('the browser could not encode the picture');
  return withText(new Uint8Array(await blob.arrayBuffer()), texts);
}

/** A heading `{key, number}` of what a chart plots in words (`t`, the page's): a family's
 *  member through its `<key>.n` template (φ3(x)), or else the words and the number. */
function headingText(t, { key, number }) {
  if (number === undefined) return t(key);
  const template = `${key}.n`;
  const text = t(template, { n: number });
  return text === template ? `${t(key)} ${number}` : text;
}

/** The chart's data table (plotted.js): `tables` of what it plots (`Lab.plotted()`) as HTML
 *  tables, in the words of `t`. */
export const plottedTables = (tables, t) =>
  tables.map(({ caption, headings, values }) => {
    const rows = [];
    for (let i = 0; i < values.length; i += headings.length) {
      rows.push([...values.subarray(i, i + headings.length)].map(formatNumber));
    }
    return buildTable(headingText(t, caption), headings.map((heading) => headingText(t, heading)), rows);
  });

/** How wide the slide-sized PNG is, in pixels: a 1080p slide's width. */
const SLIDE_WIDTH = 1920;

/** `&`, `<` and `>` of `text` as XML writes them. */
const xmlText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Makes file `kind` of the chart and downloads it (`page`: what exports.js's `exportPage`
 * hands over), or shows why it could not be made beside the buttons:
 * - `png`: the chart for a slide (`chartPng`) at twice its size on the page, `png-wide`
 *   SLIDE_WIDTH pixels wide;
 * - `svg`: drawn again as vector graphics at its size on the page (its text as large as on
 *   stage);
 * - `results`, `plotted`, `data`: the panel's results, what the chart plots and its data as
 *   CSV.
 * The pictures carry the chart's title (the panel) and description: the chart in words, then
 * the state it shows as a permalink's query, so that a saved file names its settings (a typed
 * formula, the data) for screen readers and for whoever opens it later.
 */
export async function exportFile(kind, page) {
  const { lab, panel, size: [width, height] } = page;
  const title = `RVM Lab: ${page.title}`;
  const desc = () => `${page.summary} ?${new URLSearchParams([['panel', panel], ...page.call(() => lab.query())])}`;
  const save = (bytes, type, name) => page.download(new Blob([bytes], { type }), `rvm-lab-${name}`);
  try {
    if (kind.startsWith('png')) {
      const wide = kind === 'png-wide';
      const scale = wide ? SLIDE_WIDTH / width : 2;
      const draw = (canvas, from, ms) => page.call(() => lab.draw(canvas, scale * page.zoom, from, ms));
      try {
        const png = await chartPng({ ...page, draw, width, height, scale, texts: [['Title', title], ['Description', desc()]] });
        save(png, 'image/png', `${panel}${wide ? `-${SLIDE_WIDTH}` : ''}.png`);
      } finally {
        page.redraw();
      }
    } else if (kind === 'svg') {
      const svg = page.call(() => lab.svg(width, height, page.zoom));
      const described = svg.replace(/<svg\b[^>]*>/, (open) => `${open}<title>${xmlText(title)}</title><desc>${xmlText(desc())}</desc>`);
      save(described, 'image/svg+xml', `${panel}.svg`);
    } else {
      const make = { results: () => lab.resultsCsv(), plotted: () => lab.plottedCsv(), data: () => lab.exportCsv() }[kind];
      const text = page.call(make);
      if (text !== undefined) save(text, 'text/csv', `${panel}${kind === 'data' ? '' : `-${kind}`}.csv`);
    }
  } catch (error) {
    page.fail(error);
  }
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
