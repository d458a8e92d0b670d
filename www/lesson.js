// Lessons as data: a lesson is a JSON file under lessons/ — a title and a list of steps,
// each with a title and a short text in English and 中文, the equation it applies (MathML,
// made from its TeX beside it, `tex`, which the page does not read: tex.js),
// the panel state it sets (a URL query, as in the address bar) and optionally an action:
// `{"points": [[x, t], …], "highlight": m, "steps": n}`, any of the three — add these data
// points, highlight basis function φₘ, run the panel's animation n steps further — which
// the panel applies in that order (`Lab.applyAction`, the core's `app::lesson`). An
// instructor writes one without touching code; a malformed file is refused with the step
// and field named. (A draft, a lesson saved unfinished, reaches the page only through the
// lesson editor's module, which checks it: lesson-draft.js.)

import { lessonText } from './assets.js';

/** Languages every text of a lesson must have. */
const LESSON_LANGUAGES = ['en', 'zh'];

/** A lesson file that is not well formed: which file, which step (1-based, as the editor
 *  numbers them; 0 for the lesson itself: its title, its steps, the file), which field, and
 *  what is wrong (a `lesson.problem.*` key). */
export class LessonError extends Error {
  constructor(file, step, field, problem) {
    super(`${file}, step ${step}: ${field} ${problem}`);
    Object.assign(this, { file, step, field, problem });
  }
}

/** Whether `value` is a whole number ≥ 0. */
const count = (value) => Number.isInteger(value) && value >= 0;

/** Whether `value` is a list of [x, y] pairs of finite numbers. */
const pointList = (value) =>
  Array.isArray(value) && value.every((p) => Array.isArray(p) && p.length === 2 && p.every(Number.isFinite));

/** The action of a step with every part present, or null if it is malformed. */
function parseAction(action) {
  if (action === undefined) return { points: [], steps: 0, highlight: null };
  if (action === null || typeof action !== 'object' || Array.isArray(action)) return null;
  const keys = Object.keys(action);
  if (keys.length === 0 || keys.some((key) => !['points', 'steps', 'highlight'].includes(key))) return null;
  const { points = [], steps = 0, highlight = null } = action;
  if (!pointList(points) || !count(steps) || !(highlight === null || count(highlight))) return null;
  return { points, steps, highlight };
}

/** Whether `value` is a list of a step's control keys (`lock`, `hide`: "noise", "beta", and
 *  "truth" for the curve that generated the data), each at most once. */
const keyList = (value) =>
  Array.isArray(value) && value.every((key) => typeof key === 'string' && /^[a-z][\w-]*$/i.test(key)) && new Set(value).size === value.length;

/** Whether `text` is a text to show (not empty or only white space). */
const words = (text) => typeof text === 'string' && text.trim() !== '';

/** Whether `value` is a text in the lesson languages: each one given a string, at least one
 *  of them not blank (a blank one shows the other, `lessonWords`). */
function bilingual(value) {
  return value !== null && typeof value === 'object'
    && LESSON_LANGUAGES.every((lang) => value[lang] === undefined || typeof value[lang] === 'string')
    && LESSON_LANGUAGES.some((lang) => words(value[lang]));
}

/** A lesson text in `lang`, or, where that one is blank, in the other language. */
export const lessonWords = (text, lang) => (words(text[lang]) ? text[lang] : LESSON_LANGUAGES.map((other) => text[other]).find(words));

/**
 * Checks a parsed lesson and returns it with each step's state parsed into URL pairs.
 * `panels` are the panel names the page knows. Throws a LessonError at the first fault.
 * lessons/lesson.schema.json describes the same format for editors: what one accepts the
 * other must (tests/e2e/lesson_schema.test.mjs), so a change here is made there too.
 */
export function validateLesson(json, file, panels) {
  const fail = (step, field, problem) => {
    throw new LessonError(file, step, field, problem);
  };
  if (json === null || typeof json !== 'object') fail(0, 'lesson', 'not-object');
  if (!bilingual(json.title)) fail(0, 'title', 'not-text');
  if (!Array.isArray(json.steps) || json.steps.length === 0) fail(0, 'steps', 'no-steps');
  const steps = json.steps.map((step, i) => {
    const k = i + 1;
    if (step === null || typeof step !== 'object') fail(k, 'step', 'not-object');
    if (!bilingual(step.title)) fail(k, 'title', 'not-text');
    if (!bilingual(step.text)) fail(k, 'text', 'not-text');
    if (step.math !== undefined && (typeof step.math !== 'string' || !step.math.trim().startsWith('<math'))) {
      fail(k, 'math', 'not-mathml');
    }
    if (typeof step.state !== 'string') fail(k, 'state', 'missing');
    const pairs = [...new URLSearchParams(step.state)];
    const panel = pairs.find(([key]) => key === 'panel')?.[1];
    if (!panels.includes(panel)) fail(k, 'state', 'no-panel');
    const action = parseAction(step.action);
    if (!action) fail(k, 'action', 'bad-action');
    for (const field of ['lock', 'hide']) if (step[field] !== undefined && !keyList(step[field])) fail(k, field, 'not-keys');
    return { ...step, panel, pairs: pairs.filter(([key]) => key !== 'panel'), action };
  });
  return { ...json, steps };
}

/** The lesson files' texts as read, by file (null for one that could not be). */
const texts = new Map();

/** Reads lessons/`id`.json (beside the page; `id` must be listed in lessons/index.json) and
 *  validates it. */
export async function loadLesson(id, panels) {
  const file = `lessons/${id}.json`;
  // A lesson's name is a file name of letters, digits and hyphens: anything else (markup,
  // a path) is no lesson, and is not asked of the server.
  if (!/^[\w-]+$/.test(id)) throw new LessonError(file, 0, 'lesson', 'not-found');
  // Nor is a name the index does not list: no request for a file that is not there.
  const listed = await lessonIndex().catch(() => []);
  if (!listed.some((lesson) => lesson.id === id)) throw new LessonError(file, 0, 'lesson', 'not-found');
  // Read once per page: the page's start reads the file beside the module, and opens it again
  // once the module is there.
  if (!texts.has(file)) texts.set(file, lessonText(file).catch(() => null));
  const text = await texts.get(file);
  if (text === null) throw new LessonError(file, 0, 'lesson', 'not-found');
  return validateLesson(lessonJson(text, file), file, panels);
}

/** The JSON of lesson `file`'s `text` (a file's or a link's); text that is not JSON is a
 *  LessonError too. */
export function lessonJson(text, file) {
  try {
    return JSON.parse(text);
  } catch {
    throw new LessonError(file, 0, 'lesson', 'not-json');
  }
}

/** The step shown for step `index` (0-based, as asked by the URL or an LMS) of a lesson of
 *  `count` steps: the nearest one, or the first for an index that is not a whole number. */
export const shownStep = (index, count) => (Number.isInteger(index) ? Math.min(Math.max(index, 0), count - 1) : 0);

/** The lessons index.json lists, read once. */
let index = null;

/** The lessons: `[{id, title: {en, zh}}]` from lessons/index.json (read once). */
export function lessonIndex() {
  index ??= lessonText('lessons/index.json').then((text) => (text === null ? [] : JSON.parse(text)));
  return index;
}

/** The step a key press asks for from step `index` of `count`, or null: → space PageDown
 *  forward, ← PageUp back (what presentation clickers send). */
export function stepForKey(key, index, count) {
  if (['ArrowRight', ' ', 'PageDown'].includes(key)) return Math.min(index + 1, count - 1);
  if (['ArrowLeft', 'PageUp'].includes(key)) return Math.max(index - 1, 0);
  return null;
}
