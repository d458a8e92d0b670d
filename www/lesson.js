// Lessons as data: a lesson is a JSON file under lessons/ — a title and a list of steps,
// each with a title and a short text in English and 中文, the equation it applies (MathML),
// the panel state it sets (a URL query, as in the address bar) and optionally an action
// (`{"steps": n}`: run the panel's animation n steps further). An instructor writes one
// without touching code; a malformed file is refused with the step and field named.

/** Languages every text of a lesson must have. */
const LESSON_LANGUAGES = ['en', 'zh'];

/** A lesson file that is not well formed: which file, which step (1-based; 0 for the
 *  lesson itself), which field, and what is wrong (a `lesson.problem.*` key). */
export class LessonError extends Error {
  constructor(file, step, field, problem) {
    super(`${file}, step ${step}: ${field} ${problem}`);
    Object.assign(this, { file, step, field, problem });
  }
}

/** Whether `value` is a text in every lesson language. */
function bilingual(value) {
  return value !== null && typeof value === 'object'
    && LESSON_LANGUAGES.every((lang) => typeof value[lang] === 'string' && value[lang].trim() !== '');
}

/**
 * Checks a parsed lesson and returns it with each step's state parsed into URL pairs.
 * `panels` are the panel names the page knows. Throws a LessonError at the first fault.
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
    let action = { steps: 0 };
    if (step.action !== undefined) {
      const n = step.action?.steps;
      if (!Number.isInteger(n) || n < 0 || Object.keys(step.action).length !== 1) fail(k, 'action', 'bad-action');
      action = { steps: n };
    }
    return { ...step, panel, pairs: pairs.filter(([key]) => key !== 'panel'), action };
  });
  return { ...json, steps };
}

/** Fetches lessons/`id`.json (relative to the page) and validates it. */
export async function loadLesson(id, panels) {
  const file = `lessons/${id}.json`;
  const response = await fetch(file);
  if (!response.ok) throw new LessonError(file, 0, 'lesson', 'not-found');
  let json;
  try {
    json = await response.json();
  } catch {
    throw new LessonError(file, 0, 'lesson', 'not-json');
  }
  return validateLesson(json, file, panels);
}

/** The built-in lessons: `[{id, title: {en, zh}}]` from lessons/index.json. */
export async function lessonIndex() {
  const response = await fetch('lessons/index.json');
  return response.ok ? response.json() : [];
}

/** The step a key press asks for from step `index` of `count`, or null: → space PageDown
 *  forward, ← PageUp back (what presentation clickers send). */
export function stepForKey(key, index, count) {
  if (['ArrowRight', ' ', 'PageDown'].includes(key)) return Math.min(index + 1, count - 1);
  if (['ArrowLeft', 'PageUp'].includes(key)) return Math.max(index - 1, 0);
  return null;
}
