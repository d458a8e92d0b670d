// The lesson editor ("Make a lesson"): a lesson made by recording views. "Add this view"
// records the panel's state — the permalink's pairs, with the data points and moved centres
// it holds — as a step; each step takes a title and a text in English and 中文 (one may stay
// empty), an equation and an action; steps are moved, replaced by the view, deleted and
// previewed (played as a reader sees it). "Save lesson" downloads the lesson file; "Open
// lesson file" (or a file dropped on the page) reads one, checked by the page's validator.
// A lesson also travels as a link: its JSON packed into the fragment as large states are
// (`?lesson=&step=1#z=…`, docs/lessons.md).
//
// A bundle of its own (editor.min.js), loaded when first used. It imports none of the page's
// modules: what it uses of the page (its state, words, the validator, the packing, playing a
// lesson) comes in `page`, the object app.js passes at open (`editorApi`).

import WORDS from './editor-words.js';

/** The page, as app.js hands it over (editorApi): set at every open. */
let page = null;
/** The lesson being made, as drafts: `title: {en, zh}`, and per step its texts, `state`, and
 *  `math`, `points`, `highlight`, `steps` as typed (empty: none). */
const draft = { title: { en: '', zh: '' }, steps: [] };
/** The editor's box (built at the first open), and whether it is previewing the lesson. */
let box = null;
let previewing = false;
/** The last message shown: `[kind, make]`, made again when the language changes. */
let message = null;

/** Where the drafts are kept for the tab (sessionStorage), so that a lesson in the making
 *  survives opening another view's link or reloading the page. */
const KEPT = 'rvm-lab:lesson-draft';

/** Keeps the drafts for the tab; where the page may not store (a sandboxed frame), they stay
 *  only in the page. */
function keep() {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(draft));
  } catch {
    // No storage here.
  }
}

/** The drafts kept for the tab, if any (anything unreadable is no draft). */
function restore() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT));
    if (kept?.title && Array.isArray(kept.steps)) Object.assign(draft, kept);
  } catch {
    // No storage here, or nothing readable in it.
  }
}

/** The editor's word `key` in the page's language, `{name}` placeholders filled. */
function say(key, args = {}) {
  const template = WORDS[page.state.lang]?.[key] ?? WORDS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** An element `tag` with attributes `attrs` and `children`. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A labelled text field (a textarea if `rows`) for `field` of step `i` (or of the lesson). */
function field(word, fieldName, value, { i, rows, lang, type } = {}) {
  const attrs = { 'data-field': fieldName, spellcheck: 'false' };
  if (i !== undefined) attrs['data-i'] = String(i);
  if (lang) attrs.lang = lang;
  if (type) Object.assign(attrs, { type, min: '0', step: '1', inputmode: 'numeric' });
  const input = rows ? el('textarea', { ...attrs, rows: String(rows) }) : el('input', { type: 'text', ...attrs });
  input.value = value;
  return el('label', {}, el('span', { 'data-word': word }), input);
}

/** A button doing `act` (to step `i`), its words `word`, and for a step's buttons a label
 *  that names the step. */
function button(act, word, i) {
  const attrs = { type: 'button', 'data-do': act, 'data-word': word };
  if (i !== undefined) Object.assign(attrs, { 'data-i': String(i), 'data-step-label': String(i + 1) });
  return el('button', attrs);
}

/** Loads the editor's stylesheet, editor.min.css beside it (the single file has it in its
 *  style already). */
function loadStyle() {
  if (document.documentElement.dataset.build === 'single') return Promise.resolve();
  const sheet = el('link', { rel: 'stylesheet', href: new URL('./editor.min.css', import.meta.url).href });
  document.head.append(sheet);
  return new Promise((done, fail) => {
    sheet.addEventListener('load', done);
    sheet.addEventListener('error', () => fail(new Error('editor.min.css could not be loaded')));
  });
}

/** Builds the editor's box, once: the lesson's title, its tools, the steps and the preview bar. */
function build() {
  const title = el('fieldset', {}, el('legend', { 'data-word': 'lesson-title' }),
    field('english', 'title.en', ''), field('chinese', 'title.zh', '', { lang: 'zh-CN' }));
  const file = el('input', { type: 'file', id: 'editor-file', accept: '.json,application/json', hidden: '' });
  const tools = el('p', { class: 'editor-tools' },
    button('add', 'add'), button('preview', 'preview'), button('save', 'save'), button('open', 'open'), button('link', 'link'), button('new', 'new'), file);
  const link = el('p', { id: 'editor-link-box', hidden: '' },
    el('label', { for: 'editor-link', 'data-word': 'link-label' }), el('input', { id: 'editor-link', type: 'text', readonly: '' }),
    el('span', { id: 'editor-link-long' }));
  const body = el('div', { id: 'editor-body' }, title, tools,
    el('p', { class: 'editor-message', id: 'editor-message', role: 'status' }),
    el('p', { class: 'editor-error', id: 'editor-error', role: 'alert' }), link,
    el('p', { id: 'editor-empty', 'data-word': 'empty' }), el('p', { class: 'editor-hint', 'data-word': 'hint' }),
    el('ol', { id: 'editor-steps', class: 'editor-steps' }));
  const bar = el('div', { id: 'editor-previewing', class: 'editor-previewing', hidden: '' },
    el('p', { 'data-word': 'previewing' }), button('back', 'back'));
  box = el('section', { id: 'editor', class: 'editor', 'aria-labelledby': 'editor-heading', hidden: '' },
    el('div', { class: 'editor-head' }, el('h2', { id: 'editor-heading', 'data-word': 'title' }), button('close', 'close')), body, bar);
  document.querySelector('main').prepend(box);
  document.querySelector('#editor-open').setAttribute('aria-controls', 'editor');
  box.addEventListener('click', onClick);
  box.addEventListener('input', onInput);
  file.addEventListener('change', () => {
    if (file.files[0]) openFile(file.files[0]);
    file.value = '';
  });
  document.addEventListener('keydown', onKey);
  // The page's language button sets the document's language: the editor's words follow.
  new MutationObserver(renderWords).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
}

/** The editor's words in the page's language: texts, and the step buttons' labels. */
function renderWords() {
  if (!box) return;
  for (const node of box.querySelectorAll('[data-word]')) {
    const word = node.dataset.word;
    node.textContent = say(word, { k: node.dataset.k });
    if (node.dataset.stepLabel) node.setAttribute('aria-label', `${say(word)} (${say('step', { k: node.dataset.stepLabel })})`);
  }
  showMessage();
}

/** One step's fieldset: its tools, its view, its texts, equation and action. */
function stepItem(step, i) {
  const legend = el('legend', { 'data-word': 'step', 'data-k': String(i + 1) });
  const tools = el('div', { class: 'editor-step-tools' },
    button('up', 'up', i), button('down', 'down', i), button('replace', 'replace', i), button('delete', 'delete', i));
  const view = el('p', { class: 'editor-state' }, el('span', { 'data-word': 'view' }), ' ', el('code', {}, step.state));
  const action = el('fieldset', { class: 'editor-action' }, el('legend', { 'data-word': 'action' }),
    field('points', 'points', step.points, { i }),
    field('highlight', 'highlight', step.highlight, { i, type: 'number' }),
    field('steps', 'steps', step.steps, { i, type: 'number' }));
  return el('li', {}, el('fieldset', {}, legend, tools, view,
    field('title-en', 'title.en', step.title.en, { i }),
    field('title-zh', 'title.zh', step.title.zh, { i, lang: 'zh-CN' }),
    field('text-en', 'text.en', step.text.en, { i, rows: 3 }),
    field('text-zh', 'text.zh', step.text.zh, { i, rows: 3, lang: 'zh-CN' }),
    field('math', 'math', step.math, { i, rows: 2 }),
    action));
}

/** Draws the lesson's title and its steps again; the first of the selectors `focus` that
 *  finds an element in the box gives it the focus after ("Add this view" if none does). */
function render(...focus) {
  box.querySelector('[data-field="title.en"]:not([data-i])').value = draft.title.en;
  box.querySelector('[data-field="title.zh"]:not([data-i])').value = draft.title.zh;
  box.querySelector('#editor-steps').replaceChildren(...draft.steps.map(stepItem));
  box.querySelector('#editor-empty').hidden = draft.steps.length > 0;
  box.querySelector('#editor-link-box').hidden = true;
  for (const [act, at] of [['up', 0], ['down', draft.steps.length - 1]]) {
    const edge = box.querySelector(`[data-do="${act}"][data-i="${at}"]`);
    if (edge) edge.disabled = true;
  }
  renderWords();
  keep();
  if (focus.length === 0) return;
  const found = focus.map((selector) => box.querySelector(selector)).find(Boolean);
  (found ?? box.querySelector('[data-do="add"]')).focus();
}

/** Shows `text()` as the editor's status, or (`kind` 'error') as its error; none: clears both. */
function setMessage(kind, text) {
  message = kind ? [kind, text] : null;
  showMessage();
}

function showMessage() {
  const [kind, text] = message ?? [];
  box.querySelector('#editor-message').textContent = kind === 'status' ? text() : '';
  box.querySelector('#editor-error').textContent = kind === 'error' ? text() : '';
}

/** A lesson error (a LessonError of the validator) as the page words it, in the page's
 *  language: the file, the step and the field. */
const problemText = (error) => () => page.t('lesson.invalid', page.lessonFault(error));

/** The view on the panel, as a step's `state`: the permalink's pairs. */
const currentState = () => new URLSearchParams(page.viewPairs()).toString();

/** A new step of the view on the panel. */
const newStep = () => ({ title: { en: '', zh: '' }, text: { en: '', zh: '' }, state: currentState(), math: '', points: '', highlight: '', steps: '' });

/** The lesson file of the drafts: `$schema` first, a step's equation and action only where
 *  given. A part of an action typed wrong stays as typed, so that the validator names it. */
function lessonFile() {
  const steps = draft.steps.map(({ title, text, state, math, points, highlight, steps: run }) => {
    const step = { title: { ...title }, text: { ...text } };
    if (math.trim()) step.math = math.trim();
    step.state = state;
    const action = {};
    if (points.trim()) {
      try {
        action.points = JSON.parse(points);
      } catch {
        action.points = points;
      }
    }
    if (highlight.trim()) action.highlight = Number(highlight);
    if (run.trim()) action.steps = Number(run);
    if (Object.keys(action).length > 0) step.action = action;
    return step;
  });
  return { $schema: 'lesson.schema.json', title: { ...draft.title }, steps };
}

/** The drafts of a lesson file (as checked by the validator). */
function fromFile(json) {
  const texts = (text) => ({ en: text.en ?? '', zh: text.zh ?? '' });
  draft.title = texts(json.title);
  draft.steps = json.steps.map((step) => ({
    title: texts(step.title),
    text: texts(step.text),
    state: step.state,
    math: step.math ?? '',
    points: step.action?.points ? JSON.stringify(step.action.points) : '',
    highlight: step.action?.highlight == null ? '' : String(step.action.highlight),
    steps: step.action?.steps === undefined ? '' : String(step.action.steps),
  }));
}

/** The lesson checked as the page checks a lesson file: `{json, data}`, or null with its
 *  fault shown. */
function checked(file = 'lesson.json') {
  const json = lessonFile();
  try {
    return { json, data: page.validateLesson(json, file, page.panels) };
  } catch (error) {
    if (!(error instanceof page.LessonError)) throw error;
    setMessage('error', problemText(error));
    return null;
  }
}

/** A file name for the lesson: its English (or Chinese) title in letters, digits and hyphens. */
function fileName() {
  const words = (draft.title.en || 'lesson').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${words || 'lesson'}.json`;
}

/** Downloads the lesson file (pretty-printed as the built-in ones), if it is well formed. */
function save() {
  const name = fileName();
  const lesson = checked(name);
  if (!lesson) return;
  page.download(new Blob([`${JSON.stringify(lesson.json, null, 2)}\n`], { type: 'application/json' }), name);
  setMessage('status', () => say('saved', { file: name }));
}

/**
 * Reads lesson file `file` (a File) into the editor, checked by the page's validator; a file
 * that is not a lesson shows its fault (file, step and field) and the editor keeps its lesson.
 */
async function openFile(file) {
  // (A file that cannot be read is, as one that is not JSON, no lesson.)
  const text = await file.text().catch(() => '');
  try {
    const json = page.lessonJson(text, file.name);
    const data = page.validateLesson(json, file.name, page.panels);
    fromFile(json);
    render();
    setMessage('status', () => say('opened', { file: file.name, n: data.steps.length }));
  } catch (error) {
    if (!(error instanceof page.LessonError)) throw error;
    setMessage('error', problemText(error));
  }
}

/** The lesson packed into a link's fragment (`z=…`), as url.js packs a large state. */
const packed = (json) => page.encodeFragment([['lesson', JSON.stringify(json)]]);

/** Shows the lesson's link (`?lesson=&step=1#z=…`), if it is well formed. */
async function showLink() {
  const lesson = checked();
  if (!lesson) return;
  const url = new URL(location.href);
  url.search = '?lesson=&step=1';
  url.hash = await packed(lesson.json);
  const input = box.querySelector('#editor-link');
  input.value = url.href;
  box.querySelector('#editor-link-long').textContent = url.href.length > 32 * 1024 ? say('link-long', { length: url.href.length }) : '';
  box.querySelector('#editor-link-box').hidden = false;
  setMessage(null);
  input.select();
  input.focus();
}

/** Plays the lesson as a reader sees it; the editor shrinks to its "Back to editing" bar. */
async function preview() {
  const lesson = checked();
  if (!lesson) return;
  setMessage(null);
  showPreview(true);
  box.querySelector('[data-do="back"]').focus();
  await page.playLesson(lesson.data, 0, await packed(lesson.json));
}

/** Leaves the preview: the lesson closes, the panel stays at the step shown. */
function backToEditing() {
  page.closeLesson();
  showPreview(false);
  box.querySelector('[data-do="preview"]').focus();
}

function showPreview(on) {
  previewing = on;
  box.querySelector('#editor-body').hidden = on;
  box.querySelector('#editor-previewing').hidden = !on;
}

/** Moves step `i` by `by` (−1 up, +1 down); the focus stays on the button pressed. */
function move(i, by, act) {
  const [step] = draft.steps.splice(i, 1);
  draft.steps.splice(i + by, 0, step);
  // At the top (or the bottom) its own button is off: the other one takes the focus.
  const other = act === 'up' ? 'down' : 'up';
  render(`[data-do="${act}"][data-i="${i + by}"]:not(:disabled)`, `[data-do="${other}"][data-i="${i + by}"]`);
}

/** The buttons' acts, by `data-do`. */
const ACTS = {
  add() {
    draft.steps.push(newStep());
    render(`[data-field="title.en"][data-i="${draft.steps.length - 1}"]`);
    setMessage('status', () => say('recorded', { k: draft.steps.length }));
  },
  up: (i) => move(i, -1, 'up'),
  down: (i) => move(i, 1, 'down'),
  replace(i) {
    draft.steps[i].state = currentState();
    render(`[data-do="replace"][data-i="${i}"]`);
  },
  delete(i) {
    draft.steps.splice(i, 1);
    render(`[data-do="delete"][data-i="${Math.min(i, draft.steps.length - 1)}"]`);
  },
  preview,
  save,
  open: () => box.querySelector('#editor-file').click(),
  new() {
    Object.assign(draft, { title: { en: '', zh: '' }, steps: [] });
    render('[data-field="title.en"]');
    setMessage(null);
  },
  link: showLink,
  back: backToEditing,
  close: closeEditor,
};

function onClick(event) {
  const target = event.target.closest('button[data-do]');
  if (!target) return;
  ACTS[target.dataset.do](Number(target.dataset.i));
}

/** A field typed into: the draft follows. */
function onInput({ target }) {
  const name = target.dataset.field;
  if (!name) return;
  const owner = target.dataset.i === undefined ? draft : draft.steps[Number(target.dataset.i)];
  const [key, lang] = name.split('.');
  if (lang) owner[key][lang] = target.value;
  else owner[key] = target.value;
  keep();
}

/** Escape leaves the preview, or closes the editor (not while a dialog has it, nor on stage,
 *  where the editor steps aside and Escape closes the stage's drawer). */
function onKey(event) {
  const elsewhere = document.querySelector('dialog[open]') || document.body.classList.contains('stage');
  if (event.key !== 'Escape' || event.defaultPrevented || box.hidden || elsewhere) return;
  event.preventDefault();
  if (previewing) backToEditing();
  else closeEditor();
}

/** Opens the editor beside the panel (with lesson file `file`, a File, read into it). */
export async function openEditor(api, file) {
  page = api;
  if (!box) {
    await loadStyle();
    restore();
    build();
    render();
  }
  box.hidden = false;
  document.body.classList.add('lesson-editor');
  document.querySelector('#editor-open').setAttribute('aria-expanded', 'true');
  renderWords();
  if (file) await openFile(file);
  if (!previewing) box.querySelector('[data-field="title.en"]').focus();
}

/** Closes the editor (leaving a preview); its lesson stays for the next open. */
export function closeEditor() {
  if (previewing) backToEditing();
  box.hidden = true;
  document.body.classList.remove('lesson-editor');
  const opener = document.querySelector('#editor-open');
  opener.setAttribute('aria-expanded', 'false');
  opener.focus();
}

/**
 * Plays the lesson of a lesson link: `text`, its JSON from the fragment `link`, from step
 * `index` (0-based). Checked as a lesson file is; a broken one is a notice naming the step
 * and field, and the page stays as it is.
 */
export async function playLink(api, text, link, index) {
  page = api;
  const file = say('link-file');
  try {
    const data = page.validateLesson(page.lessonJson(text, file), file, page.panels);
    await page.playLesson(data, index, link);
  } catch (error) {
    page.notify({ text: ['lesson.invalid', page.lessonFault(error, file, 'not-json')] });
  }
}
