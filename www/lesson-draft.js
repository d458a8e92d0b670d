// The lessons the editor's module checks: drafts, and every step's TeX. A lesson saved
// unfinished (`"draft": true`, as the lesson editor saves one) may leave any title and text
// blank or out; everything else is checked as in a finished lesson. A step's `tex` (the
// equation's TeX, which the editor reads and the page does not) must be a string. The page's
// validator (lesson.js) checks the lessons the page opens by itself, the built-in ones, which
// are finished; every other lesson — the editor's preview, a file, a link — reaches the page
// through the editor's module, which checks it here. So these rules cost the page's first
// load nothing (the editor's bundle holds them). The lesson schema (lessons/lesson.schema.json)
// describes it all: tests/e2e/lesson_schema.test.mjs checks that it accepts exactly what
// `validateAny` does.

/** Languages of a lesson's texts. */
const LANGUAGES = ['en', 'zh'];

/** A text of a draft as the validator checks a finished one: left out or blank, it is given a
 *  word (the validator then checks it as a text); anything else (a text written, or no text
 *  at all: a number, a list) stays as it is, for the validator to take or name. */
function filled(text) {
  if (text === undefined) return { en: '…' };
  const blank = text !== null && typeof text === 'object' && !Array.isArray(text)
    && LANGUAGES.every((lang) => text[lang] === undefined || (typeof text[lang] === 'string' && !text[lang].trim()));
  return blank ? { ...text, en: '…' } : text;
}

/**
 * Checks lesson `json` (from `file`, with the page's `panels`) as the page's validator
 * (`validateLesson` of lesson.js, and its `LessonError`) does, a draft as a draft, and every
 * step's TeX: returns it as the validator does (a draft with its own texts: blank, or `{}`
 * where left out), or throws a LessonError at the first fault.
 */
export function validateAny(json, file, panels, { validateLesson, LessonError }) {
  const draft = json?.draft === true;
  const steps = draft && Array.isArray(json.steps)
    ? json.steps.map((step) => (step !== null && typeof step === 'object' ? { ...step, title: filled(step.title), text: filled(step.text) } : step))
    : json?.steps;
  const data = validateLesson(draft ? { ...json, title: filled(json.title), steps } : json, file, panels);
  data.steps.forEach((step, i) => {
    if (step.tex !== undefined && typeof step.tex !== 'string') throw new LessonError(file, i + 1, 'tex', 'not-tex');
  });
  if (!draft) return data;
  return {
    ...data,
    title: json.title ?? {},
    steps: data.steps.map((step, i) => ({ ...step, title: json.steps[i].title ?? {}, text: json.steps[i].text ?? {} })),
  };
}
