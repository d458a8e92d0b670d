// A lesson on the page: the lesson box (title, progress, the step's text and equation), the
// step's panel state and action, ← / → / space / PageUp / PageDown (what presentation
// clickers send; host.js routes them), and the lesson menu. The lesson files themselves are
// read and checked by lesson.js; a step's action is applied by the panel, in the order the
// core defines.

import { errorMessage } from './i18n.js';
import { LessonError, lessonIndex, lessonWords, loadLesson, shownStep, stepForKey } from './lesson.js';
import { notify } from './notices.js';
import { startWork } from './player.js';
import { $, state, stepKeys, t } from './state.js';
import { syncControls } from './sync.js';
import { writeUrl } from './url.js';
import { schedule, show } from './view.js';
import { call, panelNames } from './wasm.js';

/** Opens panel `name` with the state in `pairs`, resolving to whether it did; set by the
 *  page (app.js). */
let openPanel = async () => false;

/** Wires the lesson box's buttons; `open` opens a panel with URL pairs (asynchronously: the
 *  panel's own words load first) and resolves to whether it did. */
export function wireLessons(open) {
  openPanel = open;
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
}

/** The words saying what is wrong with a lesson, `[key, args]` as `t` and a notice take them,
 *  for `error`: a LessonError's file, step (numbered from 1, as the editor numbers them) and
 *  field — or, for the lesson itself, its title, its steps or the file (`lesson.invalid.*`) —
 *  and its problem in the reader's language; anything else, `problem` of the lesson in `file`. */
export function lessonFault(error, file, problem) {
  const fault = error instanceof LessonError ? error : new LessonError(file, 0, 'lesson', problem);
  return [fault.step ? 'lesson.invalid' : `lesson.invalid.${fault.field}`, { ...fault, problem: t(`lesson.problem.${fault.problem}`) }];
}

/** Opens lesson `id` at step `index` (0-based; `asked` is the step as the URL gave it); a
 *  malformed lesson is reported and the page stays as it was, a step the lesson does not
 *  have is reported and the nearest one shown. */
export async function openLesson(id, index, asked = String(index + 1)) {
  let data;
  try {
    data = await loadLesson(id, panelNames());
  } catch (error) {
    notify({ text: lessonFault(error, `lessons/${id}.json`, 'not-found') });
    return;
  }
  state.lesson = { id, data, index: 0 };
  $('#lesson-select').value = id;
  const count = data.steps.length;
  const shown = shownStep(index, count);
  if (shown !== index) notify({ text: ['notice.lesson-step', { value: asked, n: count, shown: shown + 1 }] });
  await showLessonStep(shown);
}

/** Plays a lesson that is not a built-in one (a file, a link, the editor's preview): `data` as
 *  validateLesson returns it, from step `index` (the nearest one the lesson has); `link`, the
 *  packed fragment that holds it, stays in the address. */
export function playLesson(data, index, link) {
  state.lesson = { id: '', data, index: 0, link };
  $('#lesson-select').value = '';
  return showLessonStep(shownStep(index, data.steps.length));
}

/** Shows step `index` of the lesson: its text at once, then its panel state and its action
 *  (unless another step was asked for while the panel's words loaded). */
async function showLessonStep(index) {
  const lesson = state.lesson;
  lesson.index = index;
  renderLesson();
  state.scorm?.showStep(lesson.id, index, lesson.data.steps.length);
  // (The step's `lock` and `hide` hold from here, as `stepKeys` reads them: its panel's
  // controls are built with them.)
  const step = lesson.data.steps[index];
  if (!(await openPanel(step.panel, step.pairs)) || state.lesson !== lesson || lesson.index !== index) return;
  unknownKeys(step, index);
  applyAction(step.action, index);
  renderLesson();
  writeUrl();
}

/** A lesson step's action, applied by the panel (points, then highlight, then steps). A part
 *  the panel refuses is reported as a notice; the parts before it stay. */
function applyAction({ points, steps, highlight }, index) {
  try {
    call(() => state.lab.applyAction(points, highlight, steps));
  } catch (error) {
    if (state.dead) return;
    notify({ text: ['lesson.action-failed', { step: index + 1, message: errorMessage(state.lang, error) }] });
  }
  syncControls();
  show();
  startWork();
}

/** Shows the curve that generated the data, or (a step's `hide: ["truth"]`) leaves it out of
 *  the chart, with the chart's data table and its export, which would show it. */
export function showTruth() {
  const shown = !stepKeys('hide').has('truth');
  call(() => state.lab.showTruth(shown));
  $('#plotted').hidden = $('#export-plotted').hidden = !shown;
}

/** A notice for each key step `index` fixes or hides that its panel has no control for. */
function unknownKeys(step, index) {
  const keys = new Set(['truth', ...state.description.params.map(({ key }) => key)]);
  for (const key of [...(step.lock ?? []), ...(step.hide ?? [])]) {
    if (!keys.has(key)) notify({ text: ['lesson.unknown-key', { step: index + 1, key }] });
  }
}

/** Leaves the lesson; the panel stays as the lesson left it, its controls and the true curve
 *  free again. */
export function closeLesson() {
  state.lesson = null;
  if (state.lab && !state.dead) {
    showTruth();
    syncControls();
    show();
  }
  $('#lesson-select').value = '';
  renderLesson();
  writeUrl();
}

export function renderLesson() {
  const lesson = state.lesson;
  const box = $('#lesson');
  box.hidden = !lesson;
  document.body.classList.toggle('large', state.large);
  document.body.classList.toggle('lesson-shown', Boolean(lesson));
  $('#large-toggle').setAttribute('aria-pressed', String(state.large));
  if (!lesson) return;
  const steps = lesson.data.steps;
  const step = steps[lesson.index];
  const lang = state.lang;
  $('#lesson-title').textContent = lessonWords(lesson.data.title, lang);
  $('#lesson-step-title').textContent = lessonWords(step.title, lang);
  $('#lesson-text').textContent = lessonWords(step.text, lang);
  $('#lesson-math').replaceChildren(...mathNodes(step.math ?? ''));
  $('#lesson-counter').textContent = t('lesson.counter', { k: lesson.index + 1, n: steps.length });
  $('#lesson-progress').max = steps.length;
  $('#lesson-progress').value = lesson.index + 1;
  $('#lesson-prev').disabled = lesson.index === 0;
  $('#lesson-next').disabled = lesson.index === steps.length - 1;
}

/**
 * The MathML of a lesson step as nodes to show: parsed in an inert document, with anything
 * that is not MathML (an <img>, a <script>) and every event handler or link left out, so a
 * lesson file can only ever show an equation. (The editor shows its equations with it too.)
 */
export function mathNodes(markup) {
  const MATHML = 'http://www.w3.org/1998/Math/MathML';
  // Event-handler attributes are renamed in the tags before the markup is parsed: even in an
  // inert document, parsing one makes the browser report it against the page's
  // Content-Security-Policy. (The parsed tree is filtered below all the same: that is what
  // keeps an equation to MathML.)
  const unarmed = markup.replace(/<[^>]*>/g, (tag) => tag.replace(/([\s"'/])on([a-z]+\s*=)/gi, '$1data-on-$2'));
  const body = new DOMParser().parseFromString(unarmed, 'text/html').body;
  for (const el of [...body.querySelectorAll('*')]) {
    if (el.namespaceURI !== MATHML) el.remove();
    else for (const { name } of [...el.attributes]) if (/^on|^data-on-|href$|src$/i.test(name)) el.removeAttribute(name);
  }
  return [...body.childNodes].map((node) => document.importNode(node, true));
}

/**
 * → space PageDown and ← PageUp step through the lesson (host.js routes the keys): `true` if
 * `key` moved it, `false` if it is a lesson key at the lesson's end, `null` if there is no
 * lesson or the key is not one of its keys.
 */
export function lessonKey(key) {
  if (!state.lesson) return null;
  const next = stepForKey(key, state.lesson.index, state.lesson.data.steps.length);
  if (next === null) return null;
  if (next === state.lesson.index) return false;
  showLessonStep(next);
  return true;
}

/** The built-in lessons in the lesson menu. */
export async function fillLessonMenu() {
  const select = $('#lesson-select');
  for (const { id, title } of await lessonIndex().catch(() => [])) {
    const option = new Option(title[state.lang] ?? id, id);
    option.dataset.title = JSON.stringify(title);
    select.append(option);
  }
  if (state.lesson) select.value = state.lesson.id;
}
