// The lesson editor ("Make a lesson"): a lesson made by recording views. "Add this view"
// records the panel's state — the permalink's pairs, with the data points and moved centres
// it holds — as a step, described in words (the panel and what differs from its defaults);
// each step takes a title and a text in English and 中文 (one may stay empty), an equation in
// TeX (shown as readers will see it as it is typed, a TeX error said where it is) and an
// action; steps are moved, replaced by the view, deleted and previewed (played as a reader
// sees it). "Save lesson" downloads the lesson file — an unfinished one as a draft — and
// "Open lesson file" (or a file dropped on the page) reads one, checked by the page's
// validator; a built-in lesson can be copied as a start. A lesson also travels as a link: its
// JSON packed into the fragment as large states are (`?lesson=&step=1#z=…`, docs/lessons.md).
//
// Nothing is lost: the lesson is kept in the browser as it is typed (localStorage) and offered
// back after a reload or a closed tab; "New lesson" asks first; what replaces or deletes (a new
// lesson, a file or a copy opened, a step deleted, a kept lesson restored or discarded) can be
// undone.
//
// A bundle of its own (editor.min.js), loaded when first used, and its TeX converter another
// (tex.min.js, tex-module.js), loaded when the editor first opens. It imports none of the
// page's modules: what it uses of the page (its state, words, the validator, the packing,
// playing a lesson, the panels' defaults) comes in `page`, the object app.js passes at open
// (`editorApi`).

import WORDS from './editor-words.js';
import { validateAny } from './lesson-draft.js';
import { texModule } from './tex-module.js';

/** The page, as app.js hands it over (editorApi): set at every open. */
let page = null;
/** The lesson being made: `title: {en, zh}`, and per step its `title` and `text`, `state`,
 *  `tex` as typed, `math` (the MathML of the last TeX that read, or of the file), `kept` (a
 *  file's MathML that came without TeX: the equation while the TeX is empty) and `points`,
 *  `highlight`, `steps` as typed (empty: none). */
const draft = { title: { en: '', zh: '' }, steps: [] };
/** The editor's box (built at the first open), and whether it is previewing the lesson. */
let box = null;
let previewing = false;
/** The last message shown: `[kind, make]`, made again when the language changes. */
let message = null;
/** The lesson Undo brings back (put aside by the last change that replaced or deleted), or
 *  null. */
let undone = null;
/** The TeX converter (tex.js's exports) once loaded, or why it could not be. */
let tex = null;
let texFailure = null;
/** The TeX errors of the steps whose TeX does not read (a TexError by step). */
const texErrors = new WeakMap();
/** The kept lesson offered back (`{lesson, edited}`), while the offer stands: until it is
 *  answered the browser keeps it, not the lesson in the editor. */
let offer = null;
/** Whether the browser has kept the lesson (false where the page has no storage). */
let storing = true;
/** The languages of a lesson's texts. */
const LANGUAGES = ['en', 'zh'];

/** Where the lesson in the making is kept (localStorage, so that it survives a closed tab as
 *  well as a reload or another view's link). */
const KEPT = 'rvm-lab:lesson-draft';

/** Keeps the lesson in the browser, with when (not while a kept one is offered back); where
 *  the page may not store (a sandboxed frame), it stays only in the page, and the editor says
 *  so. */
function keep() {
  if (offer) return;
  try {
    localStorage.setItem(KEPT, JSON.stringify({ lesson: draft, edited: Date.now() }));
  } catch {
    noStorage();
  }
}

/** The lesson the browser kept, `{lesson, edited}`, if any with something in it (anything
 *  unreadable is none). */
function keptLesson() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT));
    const lesson = kept?.lesson && draftOf(kept.lesson);
    return lesson && hasContent(lesson) ? { lesson, edited: Number(kept.edited) || Date.now() } : null;
  } catch (error) {
    if (error instanceof DOMException) noStorage();
    return null;
  }
}

/** The page has no storage: the editor says the lesson lives only in the page. */
function noStorage() {
  storing = false;
  const hint = box?.querySelector('#editor-no-storage');
  if (hint) hint.hidden = false;
}

/** The editor's word `key` in the page's language (or in `lang`), `{name}` placeholders
 *  filled. */
function say(key, args = {}, lang = page.state.lang) {
  const template = WORDS[lang]?.[key] ?? WORDS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** The words for `n` of something: `<key>-0`, `<key>-1` or `<key>` (or `<key>-n`) with n. */
function counted(key, n) {
  const exact = `${key}-${n}`;
  if (n <= 1 && exact in WORDS.en) return say(exact);
  return say(`${key}-n` in WORDS.en ? `${key}-n` : key, { n });
}

/** `parts` (words) as one list in the page's language ("a, b and c"). */
function listed(parts) {
  return new Intl.ListFormat(page.state.lang === 'zh' ? 'zh-CN' : 'en', { type: 'conjunction' }).format(parts);
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

/** Builds the editor's box, once: the offer of a kept lesson, the lesson's title, the bar of
 *  its tools (which stays in view), the start from a built-in lesson, the steps and the
 *  preview bar. */
function build() {
  const offerBox = el('div', { id: 'editor-offer', class: 'editor-ask', role: 'group', 'aria-labelledby': 'editor-offer-text', hidden: '' },
    el('p', { id: 'editor-offer-text' }), button('restore', 'restore'), button('discard', 'discard'));
  const title = el('fieldset', {}, el('legend', { 'data-word': 'lesson-title' }),
    field('english', 'title.en', ''), field('chinese', 'title.zh', '', { lang: 'zh-CN' }));
  const file = el('input', { type: 'file', id: 'editor-file', accept: '.json,application/json', hidden: '' });
  const tools = el('p', { class: 'editor-tools' },
    button('add', 'add'), button('preview', 'preview'), button('save', 'save'), button('open', 'open'), button('link', 'link'), button('new', 'new'), file);
  const confirm = el('div', { id: 'editor-confirm', class: 'editor-ask', role: 'group', 'aria-labelledby': 'editor-confirm-text', hidden: '' },
    el('p', { id: 'editor-confirm-text' }), button('new-yes', 'new-yes'), button('cancel', 'cancel'));
  const link = el('p', { id: 'editor-link-box', hidden: '' },
    el('label', { for: 'editor-link', 'data-word': 'link-label' }), el('input', { id: 'editor-link', type: 'text', readonly: '' }),
    el('span', { id: 'editor-link-long' }));
  const bar = el('div', { class: 'editor-bar' }, tools, confirm,
    el('p', { class: 'editor-message', id: 'editor-message', role: 'status' }),
    el('p', { class: 'editor-error', id: 'editor-error', role: 'alert' }), link);
  const start = el('p', { class: 'editor-start' }, el('span', { id: 'editor-copy-hint', 'data-word': 'copy-hint' }),
    el('button', { type: 'button', 'data-do': 'copy', id: 'editor-copy', hidden: '' }));
  const body = el('div', { id: 'editor-body' }, offerBox, title, bar, start,
    el('p', { class: 'editor-hint', id: 'editor-no-storage', 'data-word': 'no-storage', hidden: '' }),
    el('p', { id: 'editor-empty', 'data-word': 'empty' }), el('p', { class: 'editor-hint', 'data-word': 'hint' }),
    el('ol', { id: 'editor-steps', class: 'editor-steps' }));
  const previewBar = el('div', { id: 'editor-previewing', class: 'editor-previewing', hidden: '' },
    el('p', { 'data-word': 'previewing' }), button('back', 'back'));
  box = el('section', { id: 'editor', class: 'editor', 'aria-labelledby': 'editor-heading', hidden: '' },
    el('div', { class: 'editor-head' }, el('h2', { id: 'editor-heading', 'data-word': 'title' }), button('close', 'close')), body, previewBar);
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
  // A lesson opened or closed on the page: the editor offers (or no longer offers) a copy.
  new MutationObserver(showCopy).observe(document.querySelector('#lesson'), { attributes: true, attributeFilter: ['hidden'], childList: true, subtree: true, characterData: true });
}

/** The built-in lesson the page shows (not a preview, a file's or a link's), or null. */
const shownBuiltIn = () => (page.state.lesson?.id ? page.state.lesson : null);

/** "Edit a copy of “…”" where the page shows a built-in lesson, else how to get one. */
function showCopy() {
  if (!box) return;
  const shown = shownBuiltIn();
  const copy = box.querySelector('#editor-copy');
  copy.hidden = !shown;
  box.querySelector('#editor-copy-hint').hidden = Boolean(shown);
  if (shown) copy.textContent = say('copy', { title: wordsIn(shown.data.title, page.state.lang) });
}

/** The editor's words in the page's language: texts, labels, the steps' views and equation
 *  notes, the built-in lessons' titles, the offer and the confirmation. */
function renderWords() {
  if (!box) return;
  for (const node of box.querySelectorAll('[data-word]')) {
    const word = node.dataset.word;
    node.textContent = say(word, { k: node.dataset.k });
    if (node.dataset.stepLabel) node.setAttribute('aria-label', `${say(word)} (${say('step', { k: node.dataset.stepLabel })})`);
  }
  for (const node of box.querySelectorAll('[data-label-word]')) node.setAttribute('aria-label', say(node.dataset.labelWord));
  for (const node of box.querySelectorAll('[data-view]')) node.textContent = viewWords(node.dataset.view);
  draft.steps.forEach((step, i) => showNote(i));
  showCopy();
  if (offer) {
    box.querySelector('#editor-offer-text').textContent = say('offer', { steps: counted('steps', offer.lesson.steps.length), ago: ago(offer.edited) });
  }
  box.querySelector('#editor-confirm-text').textContent = say('new-ask', { steps: counted('steps', draft.steps.length) });
  showMessage();
}

/** How long ago `time` (ms since the epoch) was, in the page's language ("5 minutes ago"). */
function ago(time) {
  let value = Math.max(0, (Date.now() - time) / 1000);
  let unit = 'second';
  for (const [size, next] of [[60, 'minute'], [60, 'hour'], [24, 'day']]) {
    if (value < size) break;
    value /= size;
    unit = next;
  }
  // Under a minute is "now".
  const format = new Intl.RelativeTimeFormat(page.state.lang === 'zh' ? 'zh-CN' : 'en', { numeric: 'auto' });
  return format.format(unit === 'second' ? 0 : -Math.round(value), unit);
}

/** One step's fieldset: its tools, its view in words, its texts, equation and action. */
function stepItem(step, i) {
  const legend = el('legend', { 'data-word': 'step', 'data-k': String(i + 1) });
  const tools = el('div', { class: 'editor-step-tools' },
    button('up', 'up', i), button('down', 'down', i), button('replace', 'replace', i), button('delete', 'delete', i));
  const view = el('div', { class: 'editor-state' }, el('span', { 'data-word': 'view' }), ' ', el('span', { 'data-view': step.state }),
    el('details', {}, el('summary', { 'data-word': 'address' }), el('code', {}, step.state)));
  const action = el('fieldset', { class: 'editor-action' }, el('legend', { 'data-word': 'action' }),
    field('points', 'points', step.points, { i }),
    field('highlight', 'highlight', step.highlight, { i, type: 'number' }),
    field('steps', 'steps', step.steps, { i, type: 'number' }));
  const math = el('div', { class: 'editor-math', 'data-math': String(i), role: 'group', 'data-label-word': 'tex-shown' });
  math.append(...page.mathNodes(step.math));
  return el('li', {}, el('fieldset', {}, legend, tools, view,
    field('title-en', 'title.en', step.title.en, { i }),
    field('title-zh', 'title.zh', step.title.zh, { i, lang: 'zh-CN' }),
    field('text-en', 'text.en', step.text.en, { i, rows: 3 }),
    field('text-zh', 'text.zh', step.text.zh, { i, rows: 3, lang: 'zh-CN' }),
    field('tex', 'tex', step.tex, { i, rows: 2 }),
    math, el('p', { class: 'editor-tex-note', 'data-note': String(i) }),
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

/** Shows `text()` as the editor's status (with an Undo button where `undo`), or (`kind`
 *  'error') as its error; none: clears both. */
function setMessage(kind, text, undo = false) {
  message = kind ? [kind, text, undo] : null;
  showMessage();
}

function showMessage() {
  const [kind, text, undo] = message ?? [];
  const status = box.querySelector('#editor-message');
  status.replaceChildren(kind === 'status' ? text() : '');
  if (kind === 'status' && undo && undone) status.append(' ', el('button', { type: 'button', 'data-do': 'undo' }, say('undo')));
  box.querySelector('#editor-error').textContent = kind === 'error' ? text() : '';
}

/** A lesson error (a LessonError of the validator) as the page words it, in the page's
 *  language: the file, the step (from 1) or the lesson's own part, and the field. */
const problemText = (error) => () => page.t(...page.lessonFault(error));

/** The view on the panel, as a step's `state`: the permalink's pairs. */
const currentState = () => new URLSearchParams(page.viewPairs()).toString();

/** A new step of the view on the panel. */
const newStep = () => ({ title: { en: '', zh: '' }, text: { en: '', zh: '' }, state: currentState(), tex: '', math: '', kept: '', points: '', highlight: '', steps: '' });

/** The panels' defaults, by panel: `{values, controls}` (the keys' values of a panel opened
 *  with none, the kinds of its controls), or null where the panel does not open. */
const defaults = new Map();

/** Panel `name`'s defaults (opened once, then kept). */
function defaultsOf(name) {
  if (!defaults.has(name)) {
    let found = null;
    try {
      const lab = new page.Lab(name, []);
      try {
        found = { values: new Map(lab.query()), controls: new Map(lab.describe().params.map(({ key, control }) => [key, control])) };
      } finally {
        lab.free();
      }
    } catch {
      // A panel that does not open is described by its address alone.
    }
    defaults.set(name, found);
  }
  return defaults.get(name);
}

/**
 * A step's view `state` in words: the panel's name and each setting that differs from the
 * panel's defaults, in the page's words for its controls ("Fast RVM live · Data points N = 50
 * · Step k = 9"); data points and moved centres are counted, not listed. A view the page
 * cannot open is its address.
 */
function viewWords(state) {
  const pairs = [...new URLSearchParams(state)];
  const panel = pairs.find(([key]) => key === 'panel')?.[1];
  const known = page.panels.includes(panel) ? defaultsOf(panel) : null;
  if (!known) return state;
  const parts = [page.t(`panel.${panel}`)];
  for (const [key, value] of pairs) {
    if (key !== 'panel' && known.values.get(key) !== value) parts.push(setting(key, value, known.controls.get(key)));
  }
  return parts.join(' · ');
}

/** A setting of a view in words: its control's label and its value (a choice's and a
 *  switch's in words); data points and moved centres as how many there are. */
function setting(key, value, control) {
  const count = value ? value.split(',').length : 0;
  if (key === 'points') return counted('view-points', count);
  if (key === 'centres') return counted('view-centres', count);
  const word = page.t(`param.${key}`);
  const label = word === `param.${key}` ? key : word;
  if (control?.type === 'choice') return `${label}: ${page.t(`choice.${value}`)}`;
  if (control?.type === 'toggle') return `${label}: ${say(value === '1' ? 'on' : 'off')}`;
  if (control?.type === 'text') return `${label}: ${value}`;
  return `${label} = ${value}`;
}

/** Makes `step`'s MathML from its TeX, where the converter is in: an empty TeX gives the
 *  file's MathML that came without TeX (or none); TeX that does not read keeps the last
 *  MathML and its error is kept for the note. */
function typeset(step) {
  if (!tex) return;
  texErrors.delete(step);
  if (!step.tex.trim()) {
    step.math = step.kept;
    return;
  }
  try {
    step.math = tex.texToMathml(step.tex);
  } catch (error) {
    if (!(error instanceof tex.TexError)) throw error;
    texErrors.set(step, error);
  }
}

/** Shows step `i`'s equation as readers will see it (the page's own rendering of its MathML),
 *  and its note. */
function showMath(i) {
  box.querySelector(`[data-math="${i}"]`)?.replaceChildren(...page.mathNodes(draft.steps[i].math));
  showNote(i);
}

/** The note under step `i`'s equation: a TeX error and where it is (and that the step keeps
 *  its last equation, or has none), an equation of MathML only, or the converter loading. */
function showNote(i) {
  const note = box.querySelector(`[data-note="${i}"]`);
  if (!note) return;
  const step = draft.steps[i];
  const error = texErrors.get(step);
  let text = '';
  if (error) text = `${texErrorWords(error)} ${say(step.math ? 'tex-kept' : 'tex-none')}`;
  else if (!step.tex.trim()) text = step.kept ? say('tex-mathml') : '';
  else if (texFailure) text = say('tex-failed', { message: texFailure });
  else if (!tex) text = say('tex-loading');
  note.textContent = text;
  note.toggleAttribute('data-error', Boolean(error));
}

/** A TeX error in the page's language: where (the character, counted from 1, and the text
 *  there; or the end of the equation) and why (Temml's reason, in the editor's words where it
 *  is one of the common ones). */
function texErrorWords({ position, token, code, args, reason }) {
  const why = code ? say(`tex.${code}`, args) : reason;
  if (position === null) return say('tex-error-here', { reason: why });
  if (!token) return say('tex-error-end', { reason: why });
  return say('tex-error', { k: position + 1, token, reason: why });
}

/** Loads the TeX converter (once); every step's equation is made from its TeX when it is in
 *  (the box's `data-tex` says when: "ready", or "failed"). */
function loadTex() {
  texModule().then((module) => {
    tex = module;
    box.dataset.tex = 'ready';
    draft.steps.forEach(typeset);
    draft.steps.forEach((step, i) => showMath(i));
    keep();
  }, (error) => {
    texFailure = String(error?.message ?? error);
    box.dataset.tex = 'failed';
    draft.steps.forEach((step, i) => showNote(i));
  });
}

/** Whether text `text` is blank in both languages. */
const blank = (text) => !text?.en?.trim() && !text?.zh?.trim();

/** What the lesson still needs to be finished, as the editor's words: the lesson's title,
 *  each step's title and text, an equation whose TeX does not read. */
function unfinished() {
  const parts = [];
  if (blank(draft.title)) parts.push(say('missing-title'));
  draft.steps.forEach((step, i) => {
    const k = i + 1;
    if (blank(step.title)) parts.push(say('missing-step-title', { k }));
    if (blank(step.text)) parts.push(say('missing-step-text', { k }));
    if (texErrors.has(step)) parts.push(say('missing-step-tex', { k }));
  });
  return parts;
}

/** The lesson file of the drafts: `$schema` first, `"draft": true` where it is unfinished, a
 *  step's equation (its TeX and MathML) and action only where given. A part of an action
 *  typed wrong stays as typed, so that the validator names it. */
function lessonFile() {
  const steps = draft.steps.map(({ title, text, state, tex: typed, math, points, highlight, steps: run }) => {
    const step = { title: { ...title }, text: { ...text } };
    if (typed.trim()) step.tex = typed.trim();
    if (math) step.math = math;
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
  const unsaid = unfinished().length > 0;
  return { $schema: 'lesson.schema.json', ...(unsaid ? { draft: true } : {}), title: { ...draft.title }, steps };
}

/** A text of a lesson in `lang`, or where it is blank the other language's. */
const wordsIn = (text, lang) => [lang, ...LANGUAGES].map((other) => text?.[other]).find((words) => words?.trim()) ?? '';

/**
 * A draft (`data`, validated) as the page plays it: what is still to write said where it is
 * missing, in both languages — the lesson's title ("Draft: …"), a step's title or text, an
 * equation whose TeX has no MathML. Every lesson that is not built in (a preview, a file, a
 * link) reaches the page through this module, so the page itself needs no words for drafts.
 */
function withNotes(data) {
  const note = (make) => Object.fromEntries(LANGUAGES.map((lang) => [lang, make(lang)]));
  const title = blank(data.title) ? note((lang) => say('note-untitled', {}, lang))
    : note((lang) => say('note-titled', { title: wordsIn(data.title, lang) }, lang));
  const steps = data.steps.map((step) => {
    const math = step.tex?.trim() && !step.math;
    const text = note((lang) => [blank(step.text) ? say('note-step-text', {}, lang) : wordsIn(step.text, lang),
      math ? say('note-step-math', {}, lang) : ''].filter(Boolean).join(' '));
    return { ...step, title: blank(step.title) ? note((lang) => say('note-step-title', {}, lang)) : step.title, text };
  });
  return { ...data, title, steps };
}

/** Lesson `json` (from `file`) checked as the page checks a lesson file, a draft as a draft
 *  and its TeX (lesson-draft.js); throws its LessonError. */
const validated = (json, file) => validateAny(json, file, page.panels, page);

/** The lesson `json` checked, ready to play (a draft with its notes); throws its LessonError. */
function playable(json, file) {
  const data = validated(json, file);
  return json.draft === true ? withNotes(data) : data;
}

/** The lesson checked as the page checks a lesson file: `{json, data, missing}` (what a draft
 *  still needs), or null with its fault shown. */
function checked(file = 'lesson.json') {
  const json = lessonFile();
  try {
    return { json, data: playable(json, file), missing: unfinished() };
  } catch (error) {
    if (!(error instanceof page.LessonError)) throw error;
    setMessage('error', problemText(error));
    return null;
  }
}

/** The drafts of a lesson file (as checked by the validator). */
function fromFile(json) {
  const texts = (text) => ({ en: text?.en ?? '', zh: text?.zh ?? '' });
  return {
    title: texts(json.title),
    steps: json.steps.map((step) => {
      const typed = typeof step.tex === 'string' ? step.tex : '';
      const math = step.math ?? '';
      return {
        title: texts(step.title),
        text: texts(step.text),
        state: step.state,
        tex: typed,
        math,
        kept: typed.trim() ? '' : math,
        points: step.action?.points ? JSON.stringify(step.action.points) : '',
        highlight: step.action?.highlight == null ? '' : String(step.action.highlight),
        steps: step.action?.steps === undefined ? '' : String(step.action.steps),
      };
    }),
  };
}

/** A lesson kept by the browser as drafts, every field a text (a kept lesson is read back as
 *  it was written, but the storage is the browser's). */
function draftOf(lesson) {
  if (!Array.isArray(lesson?.steps)) return null;
  const text = (value) => (typeof value === 'string' ? value : '');
  const texts = (value) => ({ en: text(value?.en), zh: text(value?.zh) });
  const steps = lesson.steps.map((step) => ({
    title: texts(step?.title),
    text: texts(step?.text),
    ...Object.fromEntries(['state', 'tex', 'math', 'kept', 'points', 'highlight', 'steps'].map((key) => [key, text(step?.[key])])),
  }));
  return { title: texts(lesson.title), steps };
}

/** Whether `lesson` (drafts) has anything in it: a step, or a title. */
const hasContent = (lesson) => lesson.steps.length > 0 || !blank(lesson.title);

/** The lesson as it is now, apart (for Undo). */
const snapshot = () => structuredClone({ title: draft.title, steps: draft.steps });

/** Puts `next` (drafts) in the editor in place of the lesson, its equations made from their
 *  TeX; says `words()`, with Undo (bringing the lesson before back) where `undoable` and
 *  there was one. */
function replaceDraft(next, words, undoable = true) {
  const before = snapshot();
  Object.assign(draft, next);
  draft.steps.forEach(typeset);
  undone = undoable && hasContent(before) ? before : null;
  render();
  setMessage('status', words, Boolean(undone));
}

/** Downloads the lesson file (pretty-printed as the built-in ones), if it is well formed:
 *  an unfinished lesson as a draft, saying what it still needs. */
function save() {
  const name = fileName();
  const lesson = checked(name);
  if (!lesson) return;
  page.download(new Blob([`${JSON.stringify(lesson.json, null, 2)}\n`], { type: 'application/json' }), name);
  const { missing } = lesson;
  setMessage('status', () => (missing.length ? say('saved-draft', { file: name, missing: listed(missing) }) : say('saved', { file: name })));
}

/** A file name for the lesson: its English (or Chinese) title in letters, digits and hyphens. */
function fileName() {
  const words = (draft.title.en || 'lesson').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${words || 'lesson'}.json`;
}

/**
 * Reads lesson file `file` (a File) into the editor, checked by the page's validator (a draft
 * as one); a file that is not a lesson shows its fault (file, step and field) and the editor
 * keeps its lesson. The lesson it replaces comes back with Undo.
 */
async function openFile(file) {
  // (A file that cannot be read is, as one that is not JSON, no lesson.)
  const text = await file.text().catch(() => '');
  try {
    const json = page.lessonJson(text, file.name);
    const data = validated(json, file.name);
    replaceDraft(fromFile(json), () => say('opened', { file: file.name, n: data.steps.length }));
  } catch (error) {
    if (!(error instanceof page.LessonError)) throw error;
    setMessage('error', problemText(error));
  }
}

/** A built-in lesson's action as its file holds it (the validator fills in every part). */
function fileAction({ points, highlight, steps }) {
  const action = { ...(points.length ? { points } : {}), ...(highlight === null ? {} : { highlight }), ...(steps ? { steps } : {}) };
  return Object.keys(action).length ? action : undefined;
}

/** Opens a copy of the built-in lesson the page shows, as a start (Undo brings back the
 *  lesson it replaces). */
function copyBuiltIn() {
  const shown = shownBuiltIn();
  if (!shown) return;
  const { data } = shown;
  const json = { ...data, steps: data.steps.map((step) => ({ ...step, action: fileAction(step.action) })) };
  replaceDraft(fromFile(json), () => say('copied', { title: wordsIn(data.title, page.state.lang), n: data.steps.length }));
  box.querySelector('[data-do="add"]').focus();
}

/** The lesson packed into a link's fragment (`z=…`), as url.js packs a large state. */
const packed = (json) => page.encodeFragment([['lesson', JSON.stringify(json)]]);

/** Shows the lesson's link (`?lesson=&step=1#z=…`), if it is well formed (a draft's saying
 *  what it still needs). */
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
  const { missing } = lesson;
  setMessage(missing.length ? 'status' : null, () => say('link-draft', { missing: listed(missing) }));
  input.select();
  input.focus();
}

/** Plays the lesson as a reader sees it (a draft saying what it still needs); the editor
 *  shrinks to its "Back to editing" bar. */
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

/** Shows (or hides) the confirmation of "New lesson", its first button focused. */
function askNew(on) {
  const confirm = box.querySelector('#editor-confirm');
  confirm.hidden = !on;
  renderWords();
  box.querySelector(on ? '[data-do="new-yes"]' : '[data-do="new"]').focus();
}

/** Answers the offer of the kept lesson: `restore` it, or not. Either way the editor's lesson
 *  is kept from then on, and Undo brings back what was put aside. */
function answerOffer(restore) {
  const { lesson } = offer;
  offer = null;
  box.querySelector('#editor-offer').hidden = true;
  if (restore) {
    replaceDraft(lesson, () => say('restored'));
  } else {
    keep();
    undone = lesson;
    setMessage('status', () => say('discarded'), true);
  }
  box.querySelector('[data-field="title.en"]').focus();
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
    undone = snapshot();
    draft.steps.splice(i, 1);
    render(`[data-do="delete"][data-i="${Math.min(i, draft.steps.length - 1)}"]`);
    setMessage('status', () => say('deleted', { k: i + 1 }), true);
  },
  preview,
  save,
  open: () => box.querySelector('#editor-file').click(),
  new() {
    if (hasContent(draft)) askNew(true);
    else box.querySelector('[data-field="title.en"]').focus();
  },
  'new-yes'() {
    box.querySelector('#editor-confirm').hidden = true;
    replaceDraft({ title: { en: '', zh: '' }, steps: [] }, () => say('new-done'));
    box.querySelector('[data-field="title.en"]').focus();
  },
  cancel: () => askNew(false),
  undo() {
    const back = undone;
    if (!back) return;
    replaceDraft(back, () => say('undone'), false);
    box.querySelector('[data-do="add"]').focus();
  },
  restore: () => answerOffer(true),
  discard: () => answerOffer(false),
  copy: copyBuiltIn,
  link: showLink,
  back: backToEditing,
  close: closeEditor,
};

function onClick(event) {
  const target = event.target.closest('button[data-do]');
  if (!target) return;
  ACTS[target.dataset.do](Number(target.dataset.i));
}

/** A field typed into: the draft follows (a step's equation made from its TeX, and shown). */
function onInput({ target }) {
  const name = target.dataset.field;
  if (!name) return;
  const i = Number(target.dataset.i);
  const owner = target.dataset.i === undefined ? draft : draft.steps[i];
  const [key, lang] = name.split('.');
  if (lang) owner[key][lang] = target.value;
  else owner[key] = target.value;
  if (key === 'tex') {
    typeset(owner);
    showMath(i);
  }
  keep();
}

/** Escape closes the confirmation, leaves the preview, or closes the editor (not while a
 *  dialog has it, nor on stage, where the editor steps aside and Escape closes the stage's
 *  drawer). */
function onKey(event) {
  const elsewhere = document.querySelector('dialog[open]') || document.body.classList.contains('stage');
  if (event.key !== 'Escape' || event.defaultPrevented || box.hidden || elsewhere) return;
  event.preventDefault();
  if (!box.querySelector('#editor-confirm').hidden) askNew(false);
  else if (previewing) backToEditing();
  else closeEditor();
}

/** The first open: the kept lesson offered back (if the browser has one), the converter
 *  loading. */
function firstOpen() {
  offer = keptLesson();
  box.querySelector('#editor-offer').hidden = !offer;
  if (!storing) box.querySelector('#editor-no-storage').hidden = false;
  render();
  loadTex();
}

/** Opens the editor beside the panel (with lesson file `file`, a File, read into it). */
export async function openEditor(api, file) {
  page = api;
  if (!box) {
    await loadStyle();
    build();
    firstOpen();
  }
  box.hidden = false;
  document.body.classList.add('lesson-editor');
  document.querySelector('#editor-open').setAttribute('aria-expanded', 'true');
  renderWords();
  if (file) await openFile(file);
  if (previewing) return;
  box.querySelector(offer ? '[data-do="restore"]' : '[data-field="title.en"]').focus();
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
 * `index` (0-based). Checked as a lesson file is (a draft saying what it still needs); a
 * broken one is a notice naming the step and field, and the page stays as it is.
 */
export async function playLink(api, text, link, index) {
  page = api;
  const file = say('link-file');
  try {
    await page.playLesson(playable(page.lessonJson(text, file), file), index, link);
  } catch (error) {
    page.notify({ text: page.lessonFault(error, file, 'not-json') });
  }
}
