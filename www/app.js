// RVM Lab page controller. It wires controls to the wasm `Lab` handle and owns the
// requestAnimationFrame loop, the URL and the language; every number comes from Rust.

import init, { Lab, crashForTests, panelNames, panicked } from './pkg/rvm_lab.js';
import { LANGUAGES, STRINGS, errorMessage, loadLanguage, translate } from './i18n.js';
import { LessonError, lessonIndex, loadLesson, stepForKey } from './lesson.js';

/** URL keys the page reads itself; the rest belong to the panel. */
const PAGE_KEYS = ['panel', 'lang', 'embed', 'lesson', 'large'];
const DEFAULT_PANEL = 'predictive';

const $ = (selector) => document.querySelector(selector);

const state = {
  lang: 'en',
  embed: false,
  panel: DEFAULT_PANEL,
  lab: null,
  dead: false,
  /** Notices about the URL: {key, error} or {text: [key, args]}. */
  notices: [],
  /** The last error shown next to each control: key → error. */
  errors: new Map(),
  frame: 0,
  playing: false,
  /** Slider values waiting for the next frame: key → text. */
  pending: new Map(),
  working: false,
  workBudget: 256,
  /** The lesson being presented, `{id, data, index}`, or null. */
  lesson: null,
  /** Large type for a projector. */
  large: false,
};

const t = (key, args) => translate(state.lang, key, args);

// ---------------------------------------------------------------- wasm calls

/** The module is gone: say so, keep the last plot, disable the controls. */
function die(cause) {
  if (state.dead) return;
  state.dead = true;
  console.error('RVM Lab: the wasm module stopped', cause);
  const banner = $('#crash');
  banner.textContent = t('app.crashed');
  banner.hidden = false;
  for (const el of document.querySelectorAll('main input, main select, main button')) el.disabled = true;
}

/**
 * Runs a call into the wasm module. A trap (a Rust panic) kills the module; an ordinary
 * thrown `Error` is the core's typed error and is passed on.
 */
function call(fn) {
  if (state.dead) throw new Error('the solver module has stopped');
  try {
    return fn();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError || safePanicked()) {
      die(error);
    }
    throw error;
  }
}

function safePanicked() {
  try {
    return panicked();
  } catch {
    return true;
  }
}

// ---------------------------------------------------------------- URL

/** Reads panel, lang and embed; anything unusable falls back with a notice. */
function readPageParams(query) {
  const notices = [];
  const names = panelNames();
  const panel = query.get('panel');
  if (panel !== null && !names.includes(panel)) {
    notices.push({ text: ['notice.panel', { value: panel, fallback: '' }], fallbackPanel: true });
  }
  const lang = query.get('lang');
  if (lang !== null && !LANGUAGES.includes(lang)) notices.push({ text: ['notice.lang', { value: lang }] });
  const embed = query.get('embed');
  if (embed !== null && embed !== '0' && embed !== '1') notices.push({ text: ['notice.embed', { value: embed }] });
  return {
    panel: names.includes(panel) ? panel : DEFAULT_PANEL,
    lang: LANGUAGES.includes(lang) ? lang : 'en',
    embed: embed === '1',
    notices,
  };
}

/** Writes the current state into the address bar (no new history entry): in a lesson its
 *  name and step (1-based), which set the panel; else the panel and its state. */
function writeUrl() {
  const query = new URLSearchParams();
  if (state.lesson) {
    query.set('lesson', state.lesson.id);
    query.set('step', String(state.lesson.index + 1));
  } else {
    query.set('panel', state.panel);
    for (const [key, value] of call(() => state.lab.query())) query.set(key, value);
  }
  if (state.large) query.set('large', '1');
  if (state.lang !== 'en') query.set('lang', state.lang);
  if (state.embed) query.set('embed', '1');
  history.replaceState(null, '', `${location.pathname}?${query}`);
  renderShare();
}

/** The permalink of the view and an iframe snippet that embeds it. */
function renderShare() {
  if ($('#share').hidden) return;
  const link = location.href;
  const embedded = new URL(link);
  embedded.searchParams.set('embed', '1');
  const title = t(`panel.${state.panel}`).replace(/"/g, '&quot;');
  $('#share-link').value = link;
  $('#share-iframe').value =
    `<iframe src="${embedded.href.replace(/&/g, '&amp;')}" title="RVM Lab: ${title}" style="width:100%;height:560px;border:0"></iframe>`;
}

/** Saves `blob` as a file called `name`. */
function download(blob, name) {
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

/** Saves the chart as vector graphics, drawn again at its size on screen, as `<panel>.svg`. */
function exportSvg() {
  const { width, height } = $('#chart').getBoundingClientRect();
  exportText(() => state.lab.svg(Math.round(width), Math.round(height)), 'image/svg+xml', `${state.panel}.svg`);
}

/** In an iframe, tells the embedding page (embed.js) how tall the panel is. */
function reportHeight() {
  if (window.parent !== window) {
    window.parent.postMessage({ rvmLabHeight: document.documentElement.scrollHeight }, '*');
  }
}

// ---------------------------------------------------------------- controls

/** Shortest text that keeps `sig` significant digits: 10**0.30103 → "2". */
function tidy(value, sig = 4) {
  return String(Number(value.toPrecision(sig)));
}

/** Builds one control per parameter the panel declares. */
function buildControls() {
  const form = $('#controls');
  form.replaceChildren();
  for (const spec of call(() => state.lab.params())) {
    form.append(buildControl(spec));
  }
}

function buildControl({ key, control }) {
  const box = document.createElement('div');
  box.className = 'control';
  box.dataset.key = key;
  const label = document.createElement('label');
  label.dataset.i18n = `param.${key}`;
  const error = document.createElement('span');
  error.className = 'error';
  error.id = `err-${key}`;
  error.setAttribute('role', 'alert');

  if (control.type === 'toggle') {
    box.classList.add('toggle');
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    checkbox.id = `ctl-${key}`;
    checkbox.addEventListener('change', () => setParam(key, checkbox.checked ? '1' : '0'));
    label.htmlFor = checkbox.id;
    checkbox.setAttribute('aria-describedby', error.id);
    box.append(checkbox, label, error);
    return box;
  }

  if (control.type === 'choice') {
    const select = document.createElement('select');
    select.id = `ctl-${key}`;
    for (const option of control.options) {
      const el = document.createElement('option');
      el.value = option;
      el.dataset.i18n = `choice.${option}`;
      select.append(el);
    }
    select.addEventListener('change', () => setParam(key, select.value));
    label.htmlFor = select.id;
    select.setAttribute('aria-describedby', error.id);
    box.append(label, select, error);
    return box;
  }

  const range = document.createElement('input');
  range.type = 'range';
  range.id = `rng-${key}`;
  const number = document.createElement('input');
  // Text, not type=number: the box shows what was typed, and the core says what is wrong.
  number.type = 'text';
  number.id = `ctl-${key}`;
  number.inputMode = control.type === 'integer' ? 'numeric' : 'decimal';
  number.autocomplete = 'off';
  number.spellcheck = false;
  const log = control.type === 'real' && control.log;
  if (control.type === 'integer' || control.type === 'steps') {
    Object.assign(range, { min: control.min, max: control.max, step: 1 });
  } else if (log) {
    Object.assign(range, { min: Math.log10(control.min), max: Math.log10(control.max), step: 0.01 });
  } else {
    Object.assign(range, { min: control.min, max: control.max, step: (control.max - control.min) / 100 });
  }
  range.dataset.log = log ? '1' : '0';
  label.htmlFor = number.id;
  label.id = `lbl-${key}`;
  range.setAttribute('aria-labelledby', label.id);
  number.setAttribute('aria-describedby', error.id);
  range.setAttribute('aria-describedby', error.id);
  range.addEventListener('input', () => {
    const text = log ? tidy(10 ** Number(range.value)) : range.value;
    number.value = text;
    setParamSoon(key, text);
  });
  number.addEventListener('change', () => setParam(key, number.value));
  box.append(label, range, number);
  if (control.type === 'steps') box.append(presetButtons(key, control.presets));
  box.append(error);
  return box;
}

/** Buttons that set `key` to each of `values` (e.g. N = 1, 2, 4, 25 of PRML Fig 3.8). */
function presetButtons(key, values) {
  const group = document.createElement('div');
  group.className = 'presets';
  group.setAttribute('role', 'group');
  group.dataset.i18nLabel = `presets.${key}`;
  for (const value of values) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = String(value);
    button.dataset.value = String(value);
    button.addEventListener('click', () => setParam(key, String(value)));
    group.append(button);
  }
  return group;
}

/** Shows each parameter's current value in its control. */
function syncControls() {
  for (const box of document.querySelectorAll('#controls .control')) {
    const value = call(() => state.lab.value(box.dataset.key));
    const active = call(() => state.lab.isActive(box.dataset.key));
    box.classList.toggle('inactive', !active);
    for (const input of box.querySelectorAll('input, select')) input.disabled = !active;
    const select = box.querySelector('select');
    if (select) {
      select.value = value;
      continue;
    }
    const checkbox = box.querySelector('input[type=checkbox]');
    if (checkbox) {
      checkbox.checked = value === '1';
      continue;
    }
    const range = box.querySelector('input[type=range]');
    box.querySelector('input[type=text]').value = value;
    range.value = range.dataset.log === '1' ? Math.log10(Number(value)) : value;
  }
}

// ---------------------------------------------------------------- errors

function showError(key, error) {
  state.errors.set(key, error);
  renderErrors();
}

function clearErrors() {
  state.errors.clear();
  renderErrors();
}

function renderErrors() {
  for (const el of document.querySelectorAll('.error')) {
    const key = el.id.replace(/^err-/, '');
    const error = state.errors.get(key);
    el.textContent = error ? errorMessage(state.lang, error) : '';
    const input = document.getElementById(key === 'add-point' ? 'add-point' : `ctl-${key}`);
    input?.setAttribute('aria-invalid', error ? 'true' : 'false');
  }
}

/**
 * Tries a change on the panel. On success the controls, URL and plot follow; on a typed
 * error the message goes next to the control (`errorKey`) and the last good plot stays.
 */
function attempt(errorKey, change) {
  try {
    call(change);
  } catch (error) {
    if (!state.dead) showError(errorKey, error);
    return false;
  }
  clearErrors();
  syncControls();
  writeUrl();
  schedule();
  startWork();
  return true;
}

function setParam(key, text) {
  if (attempt(key, () => state.lab.set(key, text))) pause();
}

/**
 * A slider being dragged sends many values per frame; only the latest is computed, once
 * per animation frame, so a slow panel drops intermediate values instead of queueing them.
 */
function setParamSoon(key, text) {
  const first = state.pending.size === 0;
  state.pending.set(key, text);
  if (!first) return;
  requestAnimationFrame(() => {
    const pending = [...state.pending];
    state.pending.clear();
    for (const [k, v] of pending) setParam(k, v);
  });
}

// ---------------------------------------------------------------- notices

function renderNotices() {
  const box = $('#notices');
  const list = box.querySelector('ul');
  list.replaceChildren();
  for (const notice of state.notices) {
    const item = document.createElement('li');
    if (notice.text) {
      const [key, args] = notice.text;
      const fallback = notice.fallbackPanel ? t(`panel.${state.panel}`) : args.fallback;
      item.textContent = t(key, { ...args, fallback });
    } else if (notice.error.key) {
      item.textContent = t('notice.default', { key: notice.error.key, message: errorMessage(state.lang, notice.error) });
    } else {
      item.textContent = t('notice.whole', { message: errorMessage(state.lang, notice.error) });
    }
    list.append(item);
  }
  box.hidden = state.notices.length === 0;
}

// ---------------------------------------------------------------- language

/** The `chart.*` strings of the current language, for words drawn inside charts. */
function chartLabels() {
  return Object.keys(STRINGS[state.lang]).filter((key) => key.startsWith('chart.')).map((key) => [key.slice(6), t(key)]);
}

function applyLanguage() {
  call(() => state.lab.setLabels(chartLabels()));
  schedule();
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('app.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  $('#panel-title').textContent = t(`panel.${state.panel}`);
  $('#panel-intro').textContent = t(`panel.${state.panel}.intro`);
  $('#chart').setAttribute('aria-label', t(`panel.${state.panel}.chart`));
  const toggle = $('#lang-toggle');
  toggle.textContent = t('lang.switch');
  toggle.setAttribute('aria-label', t('lang.switch.label'));
  toggle.lang = state.lang === 'zh' ? 'en' : 'zh';
  for (const option of $('#panel-select').options) option.textContent = t(`panel.${option.value}`);
  for (const option of $('#lesson-select').options) {
    if (option.dataset.title) option.textContent = JSON.parse(option.dataset.title)[state.lang];
  }
  $('#legend').dataset.shown = '';
  renderReports();
  renderNotices();
  renderErrors();
  renderLesson();
}

/** The legend, rebuilt only when its series or the language change. */
function renderLegend() {
  const legend = $('#legend');
  const entries = call(() => state.lab.legend());
  const shown = `${state.lang} ${entries.map((e) => e.key).join(' ')}`;
  if (legend.dataset.shown === shown) return;
  legend.dataset.shown = shown;
  legend.replaceChildren();
  for (const { key, colour, mark } of entries) {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = `swatch ${mark}`;
    swatch.style.background = colour;
    swatch.style.borderColor = colour;
    item.append(swatch, t(`legend.${key}`));
    legend.append(item);
  }
}

function renderReadouts() {
  const list = $('#readouts');
  list.replaceChildren();
  for (const { key, value } of call(() => state.lab.readouts())) {
    const dt = document.createElement('dt');
    dt.textContent = t(`readout.${key}`);
    const dd = document.createElement('dd');
    dd.dataset.key = key;
    dd.textContent = formatNumber(value);
    list.append(dt, dd);
  }
}

// ---------------------------------------------------------------- drawing

/** Redraws at the next animation frame; several changes in one frame draw once. */
function schedule() {
  if (!state.frame && !state.dead) state.frame = requestAnimationFrame(render);
}

/** Sizes the canvas to its box and devicePixelRatio, then lets Rust draw on it. */
function render() {
  state.frame = 0;
  const canvas = $('#chart');
  const width = $('#canvas-box').clientWidth;
  if (width === 0) return;
  const aspect = call(() => state.lab.aspect(width));
  const height = Math.round(Math.min(Math.max(width * aspect, 220), 720));
  const scale = window.devicePixelRatio || 1;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  try {
    call(() => state.lab.draw(canvas, scale));
  } catch (error) {
    if (!state.dead) showError('draw', error);
    return;
  }
  $('#loading').hidden = true;
  reportHeight();
  canvas.dataset.draws = String(Number(canvas.dataset.draws ?? 0) + 1);
  renderReports();
}

/** Legend, readouts, tables and messages: everything beside the chart that follows the state. */
function renderReports() {
  renderLegend();
  renderProgress();
  renderReadouts();
  renderTables();
  renderMessages();
}

function renderTables() {
  const box = $('#tables');
  box.replaceChildren();
  for (const { key, columns, rows } of call(() => state.lab.tables())) {
    const table = document.createElement('table');
    table.dataset.key = key;
    table.createCaption().textContent = t(`table.${key}`);
    const head = table.createTHead().insertRow();
    for (const column of columns) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = t(`column.${column}`);
      head.append(th);
    }
    const body = table.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      for (const cell of row) tr.insertCell().textContent = 'label' in cell ? t(`cell.${cell.label}`) : formatNumber(cell.number);
    }
    box.append(table);
  }
  // A table wider than the column scrolls sideways; the keyboard can reach it too.
  if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
  else box.removeAttribute('tabindex');
}

function renderMessages() {
  const list = $('#messages');
  list.replaceChildren();
  for (const { code, args, warning } of call(() => state.lab.messages())) {
    const item = document.createElement('li');
    item.dataset.code = code;
    item.classList.toggle('warning', warning);
    item.textContent = t(`message.${code}`, args);
    list.append(item);
  }
}

/** Integers as they are; ±∞ (α of a pruned basis vector) as ∞; tiny or huge values in exponent form; others to 5 significant digits. */
function formatNumber(value) {
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) === Infinity) return value > 0 ? '∞' : '−∞';
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size !== 0 && (size < 1e-3 || size >= 1e6)) return value.toExponential(2);
  return String(Number(value.toPrecision(5)));
}

// ---------------------------------------------------------------- events

function wireEvents() {
  $('#lang-toggle').addEventListener('click', async () => {
    const next = state.lang === 'zh' ? 'en' : 'zh';
    try {
      await loadLanguage(next);
    } catch (error) {
      die(error);
      return;
    }
    state.lang = next;
    applyLanguage();
    writeUrl();
  });
  $('#reset').addEventListener('click', () => attempt('reset', () => state.lab.reset()));
  $('#notices .dismiss').addEventListener('click', () => {
    state.notices = [];
    renderNotices();
  });
  $('#panel-select').addEventListener('change', (event) => {
    state.lesson = null;
    $('#lesson-select').value = '';
    renderLesson();
    openPanel(event.target.value, []);
  });
  $('#lesson-select').addEventListener('change', (event) => {
    if (event.target.value) openLesson(event.target.value, 0);
    else closeLesson();
  });
  $('#lesson-prev').addEventListener('click', () => showLessonStep(Math.max(state.lesson.index - 1, 0)));
  $('#lesson-next').addEventListener('click', () => {
    showLessonStep(Math.min(state.lesson.index + 1, state.lesson.data.steps.length - 1));
  });
  $('#large-toggle').addEventListener('click', () => {
    state.large = !state.large;
    renderLesson();
    writeUrl();
    schedule();
  });
  document.addEventListener('keydown', onLessonKey);
  $('#export-png').addEventListener('click', exportPng);
  $('#export-svg').addEventListener('click', exportSvg);
  $('#export-results').addEventListener('click', () =>
    exportText(() => state.lab.resultsCsv(), 'text/csv', `${state.panel}-results.csv`),
  );
  // The rows in the CSV box replace the data; a bad row is reported and the data stay.
  const importCsv = () => attempt('csv', () => state.lab.importCsv($('#csv-text').value));
  $('#csv').addEventListener('submit', (event) => {
    event.preventDefault();
    importCsv();
  });
  $('#csv-export').addEventListener('click', () => exportText(() => state.lab.exportCsv(), 'text/csv', `${state.panel}.csv`));
  // A CSV file dropped on the chart is read as if pasted.
  $('#canvas-box').addEventListener('dragover', (event) => {
    if (!$('#csv').hidden) event.preventDefault();
  });
  $('#canvas-box').addEventListener('drop', async (event) => {
    const file = event.dataTransfer?.files?.[0];
    if (!file || $('#csv').hidden) return;
    event.preventDefault();
    $('#csv-text').value = await file.text();
    importCsv();
  });
  $('#share-toggle').addEventListener('click', () => {
    const box = $('#share');
    box.hidden = !box.hidden;
    $('#share-toggle').setAttribute('aria-expanded', String(!box.hidden));
    renderShare();
    if (!box.hidden) $('#share-link').select();
  });
  const chart = $('#chart');
  /** Canvas pixel under a pointer event. */
  const pixel = (event) => {
    const box = chart.getBoundingClientRect();
    return [((event.clientX - box.left) * chart.width) / box.width, ((event.clientY - box.top) * chart.height) / box.height];
  };
  chart.addEventListener('pointerdown', (event) => {
    if (state.dead || event.button !== 0) return;
    chart.setPointerCapture(event.pointerId);
    attempt('add-point', () => state.lab.pressAtPixel(...pixel(event)));
  });
  chart.addEventListener('pointermove', (event) => {
    if (state.dead || !chart.hasPointerCapture(event.pointerId)) return;
    attempt('add-point', () => state.lab.dragToPixel(...pixel(event)));
  });
  const release = () => {
    if (!state.dead) call(() => state.lab.release());
  };
  chart.addEventListener('pointerup', release);
  chart.addEventListener('pointercancel', release);
  $('#play').addEventListener('click', () => (state.playing ? pause() : play()));
  $('#step').addEventListener('click', () => {
    pause();
    advance(1);
  });
  $('#back').addEventListener('click', () => {
    pause();
    step(() => state.lab.stepBack());
  });
  $('#restart').addEventListener('click', () => {
    pause();
    call(() => state.lab.rewind());
    schedule();
  });
  $('#add-point').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const x = Number(form.x.value === '' ? NaN : form.x.value);
    const tValue = Number(form.t.value === '' ? NaN : form.t.value);
    attempt('add-point', () => state.lab.addPoint(x, tValue));
  });
  new ResizeObserver(schedule).observe($('#canvas-box'));
  // devicePixelRatio changes without a resize when the window moves to another screen.
  const watchScale = () =>
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener(
      'change',
      () => {
        schedule();
        watchScale();
      },
      { once: true },
    );
  watchScale();
}

// ---------------------------------------------------------------- background work

/**
 * Some panels finish a change in slices (long iterative solvers): one slice per frame, its
 * size adapted so that a slice takes about WORK_MS, with a progress bar meanwhile.
 */
const WORK_MS = 8;

function startWork() {
  if (state.working || state.dead) return;
  state.working = true;
  const tick = () => {
    if (state.dead) return;
    const begin = performance.now();
    let more = false;
    try {
      more = call(() => state.lab.work(state.workBudget));
    } catch {
      more = false;
    }
    const spent = performance.now() - begin;
    if (spent < WORK_MS / 2) state.workBudget = Math.min(state.workBudget * 2, 1 << 24);
    else if (spent > WORK_MS * 2) state.workBudget = Math.max(Math.floor(state.workBudget / 2), 16);
    renderWork(more);
    schedule();
    if (more) requestAnimationFrame(tick);
    else state.working = false;
  };
  renderWork(true);
  requestAnimationFrame(tick);
}

function renderWork(more) {
  const progress = call(() => state.lab.workProgress());
  const box = $('#working');
  box.hidden = !more || !progress;
  if (!progress) return;
  const bar = $('#work-progress');
  bar.max = Math.max(progress[1], 1);
  bar.value = progress[0];
  document.body.dataset.working = more ? '1' : '0';
}

// ---------------------------------------------------------------- animation

/**
 * Steps per frame for each position of the speed slider: from one step every half second
 * (to follow an algorithm on a projector) to 64 per frame.
 */
const SPEEDS = [1 / 30, 1 / 8, 1 / 2, 1, 4, 16, 64];

/**
 * Plays the animation at the speed of the slider. With the system's reduced-motion setting
 * it shows the last frame at once instead (Step and Back still walk frame by frame).
 */
function play() {
  if (state.dead || state.playing) return;
  const [shown, total] = call(() => state.lab.progress()) ?? [0, 0];
  if (shown >= total) call(() => state.lab.rewind());
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
    advance(total - (shown >= total ? 0 : shown));
    return;
  }
  state.playing = true;
  $('#play').textContent = t('player.pause');
  // Fractions of a step per frame add up until a whole step is due.
  let owed = 1;
  const tick = () => {
    if (!state.playing || state.dead) return;
    owed += SPEEDS[Number($('#speed').value)] ?? 1;
    const steps = Math.floor(owed);
    owed -= steps;
    const more = steps === 0 || advance(steps);
    if (more) requestAnimationFrame(tick);
    else pause();
  };
  requestAnimationFrame(tick);
}

function pause() {
  state.playing = false;
  $('#play').textContent = t('player.play');
}

/** Shows how far the animation has got. */
function renderProgress() {
  const progress = call(() => state.lab.progress());
  const bar = $('#progress');
  bar.hidden = !progress;
  if (!progress) return;
  const [shown, total] = progress;
  bar.max = Math.max(total, 1);
  bar.value = shown;
  bar.textContent = `${shown} / ${total}`;
  $('#progress-text').textContent = t('player.progress', { shown, total });
}

/** Advances the animation and redraws; `false` once it is over. */
function advance(steps) {
  return step(() => state.lab.step(steps));
}

/** Moves the animation by `move` (forward or back) and redraws; returns what `move` does. */
function step(move) {
  let more = false;
  try {
    more = call(move);
  } catch {
    return false;
  }
  syncControls();
  writeUrl();
  schedule();
  return more;
}

// ---------------------------------------------------------------- lessons

/** Opens lesson `id` at step `index` (0-based); a malformed lesson is reported and the
 *  page stays as it was. */
async function openLesson(id, index) {
  let data;
  try {
    data = await loadLesson(id, panelNames());
  } catch (error) {
    const problem = error instanceof LessonError ? error : new LessonError(`lessons/${id}.json`, 0, 'lesson', 'not-found');
    state.notices.push({ text: ['lesson.invalid', { ...problem, problem: t(`lesson.problem.${problem.problem}`) }] });
    renderNotices();
    return;
  }
  state.lesson = { id, data, index: 0 };
  $('#lesson-select').value = id;
  showLessonStep(Math.min(Math.max(index, 0), data.steps.length - 1));
}

/** Shows step `index` of the lesson: its panel state, then its action. */
function showLessonStep(index) {
  const lesson = state.lesson;
  lesson.index = index;
  const step = lesson.data.steps[index];
  openPanel(step.panel, step.pairs);
  applyAction(step.action, index);
  renderLesson();
  writeUrl();
}

/** A lesson step's action: its points added, its steps run, its basis function highlighted.
 *  A part the panel refuses is reported as a notice; the parts before it stay. */
function applyAction({ points, steps, highlight }, index) {
  try {
    for (const [x, y] of points) call(() => state.lab.addPoint(x, y));
    if (highlight !== null) call(() => state.lab.set('highlight', String(highlight)));
  } catch (error) {
    if (state.dead) return;
    state.notices.push({ text: ['lesson.action-failed', { step: index + 1, message: errorMessage(state.lang, error) }] });
    renderNotices();
  }
  syncControls();
  if (steps > 0) advance(steps);
}

/** Leaves the lesson; the panel stays as the lesson left it. */
function closeLesson() {
  state.lesson = null;
  $('#lesson-select').value = '';
  renderLesson();
  writeUrl();
}

function renderLesson() {
  const lesson = state.lesson;
  const box = $('#lesson');
  box.hidden = !lesson;
  document.body.classList.toggle('large', state.large);
  $('#large-toggle').setAttribute('aria-pressed', String(state.large));
  if (!lesson) return;
  const steps = lesson.data.steps;
  const step = steps[lesson.index];
  const lang = state.lang;
  $('#lesson-title').textContent = lesson.data.title[lang];
  $('#lesson-step-title').textContent = step.title[lang];
  $('#lesson-text').textContent = step.text[lang];
  // MathML from the lesson file, which is part of the site (not user input).
  $('#lesson-math').innerHTML = step.math ?? '';
  $('#lesson-counter').textContent = t('lesson.counter', { k: lesson.index + 1, n: steps.length });
  $('#lesson-progress').max = steps.length;
  $('#lesson-progress').value = lesson.index + 1;
  $('#lesson-prev').disabled = lesson.index === 0;
  $('#lesson-next').disabled = lesson.index === steps.length - 1;
}

/** → space PageDown and ← PageUp step through the lesson, unless a control has the focus. */
function onLessonKey(event) {
  if (!state.lesson || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.('input, select, textarea, button, [contenteditable]')) return;
  const next = stepForKey(event.key, state.lesson.index, state.lesson.data.steps.length);
  if (next === null) return;
  event.preventDefault();
  if (next !== state.lesson.index) showLessonStep(next);
}

/** Shows panel `name` with the state in `pairs` ([key, value] from the URL). */
function openPanel(name, pairs) {
  pause();
  state.lab?.free();
  state.panel = name;
  state.lab = call(() => new Lab(name));
  $('#panel-select').value = name;
  const notices = call(() => state.lab.applyQuery(pairs));
  state.notices.push(...notices.map((error) => ({ error })));
  buildControls();
  $('#player').hidden = !call(() => state.lab.isAnimated());
  $('#speed').value = String(call(() => state.lab.playSpeed()));
  $('#add-point').hidden = !call(() => state.lab.acceptsPoints());
  $('#csv').hidden = $('#add-point').hidden;
  const axes = call(() => state.lab.pointAxes());
  $('#add-point').querySelectorAll('label > span').forEach((span, i) => {
    span.dataset.i18n = `control.${axes[i]}`;
  });
  applyLanguage();
  syncControls();
  clearErrors();
  writeUrl();
  schedule();
  startWork();
}

/** The built-in lessons in the lesson menu. */
async function fillLessonMenu() {
  const select = $('#lesson-select');
  for (const { id, title } of await lessonIndex().catch(() => [])) {
    const option = new Option(title[state.lang] ?? id, id);
    option.dataset.title = JSON.stringify(title);
    select.append(option);
  }
  if (state.lesson) select.value = state.lesson.id;
}

async function main() {
  const query = new URLSearchParams(location.search);
  // The words of the asked language load beside the module (readPageParams, which needs
  // the module, checks the language again and reports a bad one).
  const asked = LANGUAGES.includes(query.get('lang')) ? query.get('lang') : 'en';
  try {
    await Promise.all([init(), loadLanguage(asked)]);
  } catch (error) {
    await Promise.allSettled(LANGUAGES.map(loadLanguage));
    const banner = $('#crash');
    banner.textContent = `${translate('en', 'app.nowasm')} ${translate('zh', 'app.nowasm')} (${error.message})`;
    banner.hidden = false;
    return;
  }
  const page = readPageParams(query);
  Object.assign(state, { lang: page.lang, embed: page.embed, notices: page.notices });
  document.body.classList.toggle('embed', state.embed);
  const select = $('#panel-select');
  for (const name of panelNames()) select.append(new Option(name, name));
  state.large = query.get('large') === '1';
  const lessonId = query.get('lesson');
  const pairs = [...query].filter(([key]) => !PAGE_KEYS.includes(key) && !(lessonId && key === 'step'));
  wireEvents();
  openPanel(page.panel, pairs);
  await fillLessonMenu();
  if (lessonId) await openLesson(lessonId, Number(query.get('step') ?? 1) - 1);
  renderLesson();
  document.body.dataset.ready = '1';
  // A handle for the console and the browser tests.
  window.rvmLab = { state, crashForTests: () => call(crashForTests) };
}

main().catch((error) => die(error));
