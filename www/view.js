// The chart and everything beside it: the canvas sized to its box and drawn by Rust once per
// animation frame at most, then the legend, readouts, tables, messages and the animation's
// progress from the panel's one report.

import { showError } from './errors.js';
import { namingQuantity } from './i18n.js';
import { renderPlotted } from './plotted.js';
import { $, state, t } from './state.js';
import { renderedScale, sizeStageText, textZoom } from './stage.js';
import { nextTask } from './tasks.js';
import { buildTable, formatNumber } from './tables.js';
import { call, readReport } from './wasm.js';

/** Whether the page has had a frame to lay itself out since the module arrived. */
let laidOut = false;

/** Whether a drawing has been made since the last animation frame began. */
let drawnThisFrame = false;

/**
 * Redraws before the next animation frame; several changes in one frame draw once. The
 * drawing is made in a task of its own, so the frame only paints it: on a slow phone a
 * drawing and the canvas's paint in one task would be a long one. Where a panel has heavy
 * numbers to plot (a class map), they are computed in a task before the drawing's. A second
 * drawing in one frame, and the page's first (its first frame only lays out the controls the
 * module built and the loading note), wait for the frame.
 */
export function schedule() {
  state.reportsShown = false;
  if (state.frame || state.dead) return;
  if (laidOut && !drawnThisFrame) {
    state.frame = -1;
    nextTask(drawInTask);
    return;
  }
  state.frame = requestAnimationFrame(() => {
    laidOut = true;
    nextTask(drawInTask);
  });
}

/** Tasks of preparation a drawing waits for at most (a class map is ten bands of rows, its
 *  cells' colours and a boundary per class: fourteen pieces for three classes), and the time
 *  each may take, as a slice of the background work (a piece begun in time is finished): a
 *  light map is made in one task, a heavy one a piece or a few per task. */
const PREPARATIONS = 16;
const PREPARE_MS = 6;

/**
 * The drawing asked for, unless a frame has drawn it meanwhile: what it plots computed first,
 * a piece per task (a band of a class map, a boundary), and the drawing in the task after the
 * last piece (after PREPARATIONS at most, so that work changing what is shown cannot put the
 * drawing off for ever: the drawing computes what is left).
 */
function drawInTask(prepared = 0) {
  state.preparing = false;
  if (!state.frame || state.dead) return;
  if (prepared < PREPARATIONS && prepareDrawing()) {
    state.preparing = true;
    nextTask(() => drawInTask(prepared + 1));
    return;
  }
  render();
}

/** Computes ahead what the next drawing plots; whether there was anything to compute. */
function prepareDrawing() {
  if (state.dead || !state.lab) return false;
  try {
    return call(() => state.lab.prepareDrawing(PREPARE_MS));
  } catch {
    return false; // The drawing meets the same failure and reports it.
  }
}

/**
 * The longest drawing made inside an animation frame, in ms (`state.drawMs`, the last
 * drawing's time): with the frame's layout and the canvas's paint after it, such a frame stays
 * under 50 ms. A longer one (on a slow phone, a heavy chart) waits for its task.
 */
const FRAME_DRAW_MS = 10;

/**
 * Draws a change at once, in this animation frame, if the drawing fits in it: for the inputs
 * that are applied in a frame callback (a dragged slider or point, the player) — the change
 * reaches the screen one frame sooner. What it plots, if heavy, is computed here and drawn in
 * a task of its own.
 */
export function drawNow() {
  if (!state.frame || state.dead || !laidOut || state.drawMs > FRAME_DRAW_MS) return;
  if (state.frame > 0) cancelAnimationFrame(state.frame);
  state.frame = -1;
  drawInTask();
}

/** Every character outside ASCII that the charts write (their labels in `strings/*.js` and in
 *  Rust), in groups: a glyph the font lacks sends the browser looking through the system's
 *  fonts the first time it is drawn (classification's first "x₂" took 5–9 ms, once "x₁" was
 *  set up), so each group is written in a task of its own. */
const CHART_GLYPHS = ['x₁ −0.5 10³', '₀₂₃₄ⱼ ² ’', 'αβγηλσφ', '‖…√∞≤≥'];

/**
 * Writes the charts' characters on a scratch canvas in the fonts the charts use (plotters'
 * canvas backend: "normal" tick labels and "bold" titles, sans-serif, at the screen's pixel
 * ratio; their sizes are Rust's `plot::TICK_TEXT` and the title's in `plot::axes`), a group
 * per task. A page's first words on a canvas cost the browser its set-up of those fonts (and
 * of the CJK font, for a page in 中文); done here, in tasks of their own while the solver
 * downloads, it took the first part of the first drawing from 20 to 13 ms on gradient descent
 * and from 27 to 20 ms on fast-rvm (Chromium here, medians of six loads).
 */
export function warmCanvasText() {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return;
  const ratio = window.devicePixelRatio || 1;
  const groups = document.documentElement.lang.startsWith('zh') ? [...CHART_GLYPHS, '迭代次数'] : CHART_GLYPHS;
  const writes = [['normal', 13], ['bold', 14]].flatMap(([style, size]) =>
    groups.map((words) => () => {
      context.font = `${style} ${Math.round(size * ratio)}px sans-serif`;
      context.fillText(words, 0, 8);
    }),
  );
  const next = () => {
    writes.shift()();
    if (writes.length) nextTask(next);
  };
  next();
}

/**
 * Shows a change: the readouts, tables, legend and progress at once, the chart by the next
 * frame. Whoever reads the page right after an input (a screen reader, a test that waits for
 * the URL) finds the text of the new state, never the one before it.
 */
export function show() {
  schedule();
  renderReports();
  state.reportsShown = true;
}

/**
 * The time a part of the first drawing of a panel may take, in ms (a chart begun is
 * finished). That drawing runs the panel's drawing code for the first time, slowly (a long
 * task for a multi-chart panel on a phone), so it is made a few charts per task; every
 * later drawing of the panel is made at once, so that a change never shows half drawn.
 */
const FIRST_DRAWING_PART_MS = 6;

/** The panels drawn whole at least once since the page loaded. */
const drawnPanels = new Set();

/** The drawing being made: a new one abandons the parts left of the one before. */
let drawing = 0;

/**
 * Sizes the canvas's backing store to its size on screen (devicePixelRatio and CSS
 * transforms included, so a scaled slide stays crisp), then lets Rust draw on it, text
 * larger on stage.
 */
function render() {
  state.frame = 0;
  // A resize before the first panel is open (its words still loading): nothing to draw yet;
  // opening it schedules the drawing.
  if (!state.description) return;
  if (!drawnThisFrame) {
    drawnThisFrame = true;
    requestAnimationFrame(afterDrawing);
  }
  const canvas = $('#chart');
  // The stylesheet sizes the chart's box (the panel's aspect ratio; on stage all it is given).
  const box = $('#canvas-box');
  const [width, height] = [box.clientWidth, box.clientHeight];
  if (width === 0 || height === 0) return;
  const onScreen = renderedScale();
  const pixels = onScreen * (window.devicePixelRatio || 1);
  const zoom = textZoom(onScreen);
  sizeStageText(zoom);
  // A new size reallocates the backing store; the same size keeps it (Rust clears it).
  const [w, h] = [Math.round(width * pixels), Math.round(height * pixels)];
  if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
  state.zoom = zoom;
  state.drawScale = pixels * zoom;
  const ms = drawnPanels.has(state.panel) ? Infinity : FIRST_DRAWING_PART_MS;
  drawPart(canvas, ++drawing, 0, ms, 0);
}

/**
 * Draws the part of drawing number `number` from chart `from`, and the next part in a task
 * of its own, unless another drawing has begun meanwhile. While parts are left the
 * background work and the player wait (`state.preparing`), so that every part draws one
 * state. `spent`: the time the parts before took.
 */
function drawPart(canvas, number, from, ms, spent) {
  const start = performance.now();
  let next;
  try {
    next = call(() => state.lab.draw(canvas, state.drawScale, from, ms));
  } catch (error) {
    state.preparing = false;
    if (!state.dead) showError('draw', error);
    return;
  }
  spent += performance.now() - start;
  const lab = state.lab;
  state.preparing = next !== undefined;
  if (state.preparing) {
    nextTask(() => {
      if (number === drawing && lab === state.lab && !state.dead) drawPart(canvas, number, next, ms, spent);
    });
    return;
  }
  state.drawMs = spent;
  drawnPanels.add(state.panel);
  $('#loading').hidden = true;
  canvas.dataset.draws = String(Number(canvas.dataset.draws ?? 0) + 1);
  if (!state.reportsShown) renderReports();
  state.reportsShown = false;
}

/**
 * The frame after a drawing: the next drawing may be made in a task again, and what needs the
 * page's layout after a drawing (the tables' width) is read, in the frame, whose layout is due
 * then anyway: read in the drawing's task, it would lay the page out there.
 */
function afterDrawing() {
  drawnThisFrame = false;
  markScrollingTables();
}

/** Legend, readouts, tables, messages and progress: everything beside the chart that
 *  follows the state. */
export function renderReports() {
  const report = readReport();
  renderLegend(report.legend);
  renderProgress(report.position);
  renderReadouts(report.readouts);
  renderTables(report.tables);
  renderMessages(report.messages);
  renderSummary(report.summary);
  renderPlotted();
}

/** While playing, the chart's description is rewritten at most this often (it is a polite
 *  live region: a screen reader says each new text once, so not one per frame). */
const SUMMARY_MS = 2000;
let summaryAt = -Infinity;

/**
 * The chart in words (Rust's summary, in the reader's language): under the chart, the
 * canvas's description, and a live region that speaks each step or change once.
 */
function renderSummary(sentences) {
  const words = (args) =>
    Object.fromEntries(
      Object.entries(args).map(([name, value]) => [name, typeof value === 'number' ? formatNumber(value) : (value.text ?? t(value.key))]),
    );
  const text = sentences.map(({ key, args }) => t(`summary.${key}`, words(args))).join(' ');
  const box = $('#chart-summary');
  if (box.textContent === text) return;
  const now = performance.now();
  if (state.playing && now - summaryAt < SUMMARY_MS) return;
  summaryAt = now;
  box.textContent = text;
}

/** The legend, rebuilt only when its series, their colours (the look) or the language change. */
function renderLegend(entries) {
  const legend = $('#legend');
  const shown = `${state.lang} ${entries.map((e) => `${e.key}${e.colour}`).join(' ')}`;
  if (legend.dataset.shown === shown) return;
  legend.dataset.shown = shown;
  legend.replaceChildren();
  for (const { key, colour, mark } of entries) {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = `swatch ${mark}`;
    swatch.style.background = colour;
    swatch.style.borderColor = colour;
    swatch.style.color = colour;
    item.append(swatch, t(`legend.${key}`));
    legend.append(item);
  }
}

/** How far the animation has got. */
function renderProgress(position) {
  const bar = $('#progress');
  bar.hidden = !position;
  if (!position) return;
  const [shown, total] = position;
  // The frame's slider spans the run as far as it goes (growing while background work
  // extends it); its setting still takes any step up to the panel's limit, as from a URL.
  const range = state.description.frameKey && document.getElementById(`rng-${state.description.frameKey}`);
  if (range && range.max !== String(total)) range.max = String(total);
  bar.max = Math.max(total, 1);
  bar.value = shown;
  bar.textContent = `${shown} / ${total}`;
  $('#progress-text').textContent = t('player.progress', { shown, total });
}

/** What each list or box beside the chart was last built from (in the reader's language). */
const builtFrom = new WeakMap();

/**
 * Whether `box` already shows `content` in the reader's language; if not, it is noted as shown
 * (the caller then builds it). A redraw during background work leaves what did not change
 * alone: no new nodes, and no layout of the column beside the chart in that frame. Numbers
 * that are not finite are kept apart (JSON would write ∞, −∞ and NaN all as null).
 */
function showsAlready(box, content) {
  const exact = (_, value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value);
  const text = `${state.lang} ${JSON.stringify(content, exact)}`;
  if (builtFrom.get(box) === text) return true;
  builtFrom.set(box, text);
  return false;
}

function renderReadouts(readouts) {
  const list = $('#readouts');
  if (showsAlready(list, readouts)) return;
  list.replaceChildren();
  for (const { key, value } of readouts) {
    const dt = document.createElement('dt');
    dt.textContent = t(`readout.${key}`);
    const dd = document.createElement('dd');
    dd.dataset.key = key;
    dd.textContent = formatNumber(value);
    list.append(dt, dd);
  }
}

function renderTables(tables) {
  const box = $('#tables');
  if (showsAlready(box, tables)) return;
  box.replaceChildren(
    ...tables.map(({ key, columns, rows }) => {
      const table = buildTable(
        t(`table.${key}`),
        columns.map((column) => t(`column.${column}`)),
        rows.map((row) => row.map((cell) => ('label' in cell ? t(`cell.${cell.label}`) : formatNumber(cell.number)))),
      );
      table.dataset.key = key;
      return table;
    }),
  );
  tablesLaidOut = false;
}

/** Whether the tables' width was measured since they were last built. */
let tablesLaidOut = true;

/**
 * A table wider than the column scrolls sideways; the keyboard can reach it too. Measured in
 * the frame, not right after the tables are built, which would force a layout of the whole
 * page in the middle of an input.
 */
function markScrollingTables() {
  if (tablesLaidOut) return;
  tablesLaidOut = true;
  const box = $('#tables');
  if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
  else box.removeAttribute('tabindex');
}

function renderMessages(messages) {
  const list = $('#messages');
  if (showsAlready(list, messages)) return;
  list.replaceChildren();
  for (const { code, args, warning } of messages) {
    const item = document.createElement('li');
    item.dataset.code = code;
    item.classList.toggle('warning', warning);
    item.textContent = t(`message.${code}`, namingQuantity(state.lang, args));
    list.append(item);
  }
}

/** Shows where the work stands, `progress` from `Lab.workProgress()` (only that: the whole
 *  report is read when the chart is drawn): `more` while the slices have more to do, and
 *  while the worker's part is not done (progress short of its total). */
export function renderWork(more, progress) {
  const left = more || (progress ? progress[0] < progress[1] : false);
  const box = $('#working');
  box.hidden = !left || !progress;
  document.body.dataset.working = left ? '1' : '0';
  if (progress) {
    const bar = $('#work-progress');
    bar.max = Math.max(progress[1], 1);
    bar.value = progress[0];
  }
}
