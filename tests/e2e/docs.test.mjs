// docs/lessons.md against the page's lesson validator (issue 34, item 2): the action keys the
// doc lists between `<!-- action-keys begin -->` and `<!-- action-keys end -->` are exactly
// those www/lesson.js accepts, each documented example is accepted alone and all together,
// and a key the doc does not list is refused. The step fields the doc marks required are
// refused when missing, naming the field. The keys exist only in the page's JavaScript, so
// this is the check that keeps the doc true. No browser and no wasm: run it with
// `node --test tests/e2e/docs.test.mjs`. (docs/panels.md's key tables are checked natively:
// tests/docs.rs.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LessonError, validateLesson } from '../../www/lesson.js';

const DOC = readFileSync(new URL('../../docs/lessons.md', import.meta.url), 'utf8');
const FILE = 'lessons/doc.json';
const PANELS = ['fast-rvm'];

/** The rows of the Markdown table between `<!-- name begin -->` and `<!-- name end -->`,
 *  each a list of cells (the header and the rule left out). */
function tableBetween(name) {
  const begin = DOC.indexOf(`<!-- ${name} begin -->`);
  const end = DOC.indexOf(`<!-- ${name} end -->`);
  assert.ok(begin >= 0 && end > begin, `docs/lessons.md has the ${name} markers`);
  return DOC.slice(begin, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
}

/** The text of a cell written as `code`. */
const code = (cell) => cell.match(/^`(.*)`$/)?.[1];

/** The documented actions: key → example value. */
const ACTIONS = Object.fromEntries(tableBetween('action-keys').map((cells) => [code(cells[0]), JSON.parse(code(cells.at(-1)))]));

/** A one-step lesson with `action` (and the step changed by `edit`). */
function lesson(action, edit = (step) => step) {
  const text = { en: 'text', zh: '文本' };
  const step = edit({ title: text, text, state: 'panel=fast-rvm&step=0', ...(action && { action }) });
  return { title: text, steps: [step] };
}

/** The action of the one step once validated. */
const validated = (action) => validateLesson(lesson(action), FILE, PANELS).steps[0].action;

test('the doc lists the action keys www/lesson.js accepts, no more and no fewer', () => {
  const documented = Object.keys(ACTIONS).sort();
  assert.ok(documented.length > 0, 'the action-keys table has rows');
  // The validated action carries every key the page applies, filled in with its default.
  assert.deepEqual(Object.keys(validated(undefined)).sort(), documented);
  assert.deepEqual(Object.keys(validated(ACTIONS)).sort(), documented);
});

test('each documented example is accepted alone, and kept as written', () => {
  for (const [key, example] of Object.entries(ACTIONS)) {
    assert.deepEqual(validated({ [key]: example })[key], example, key);
  }
});

test('a key the doc does not list is refused, naming the step and the field', () => {
  assert.throws(
    () => validated({ ...ACTIONS, undocumented: 1 }),
    (error) => error instanceof LessonError && error.step === 1 && error.field === 'action',
  );
});

test('each step field the doc marks required is refused when missing', () => {
  const stepTable = DOC.slice(DOC.indexOf('Each step is an object:'), DOC.indexOf('### Actions'));
  const required = [...stepTable.matchAll(/^\| `(\w+)` \|.*\| yes \|$/gm)].map((m) => m[1]);
  assert.deepEqual(required.sort(), ['state', 'text', 'title']);
  for (const field of required) {
    const broken = lesson(undefined, (step) => {
      const copy = { ...step };
      delete copy[field];
      return copy;
    });
    assert.throws(
      () => validateLesson(broken, FILE, PANELS),
      (error) => error instanceof LessonError && error.step === 1 && error.field === field,
      field,
    );
  }
});
