// The lesson-file validator, fuzzed (issue 18, item 2): every built-in lesson validates and
// reads back to itself through JSON, and thousands of lessons mutated from the real ones
// (fields deleted or replaced by wrong types, nulls, arrays, huge numbers, NaN-like
// strings, markup, empty steps, unknown panels, bad actions, drafts) either validate — and then
// round-trip the same way — or are refused with a LessonError naming the file, the step
// and the field, never another exception. No browser and no wasm: run it with
// `node --test tests/e2e/lesson_fuzz.test.mjs`. A small seeded generator makes every run
// the same (LESSON_FUZZ_SEED and LESSON_FUZZ_CASES fuzz longer by hand).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LessonError, validateLesson as validatePage } from '../../www/lesson.js';
import { validateAny } from '../../www/lesson-draft.js';
import { seeded } from './seeded.mjs';
import { LESSONS, PANELS, mutatedLessons } from './sources.mjs';

/** The validator, as the page and (for a draft) the editor's module check a lesson. */
const validateLesson = (lesson, file, panels) => validateAny(lesson, file, panels, { validateLesson: validatePage, LessonError });

const SEED = Number(process.env.LESSON_FUZZ_SEED ?? 20261806);
const CASES = Number(process.env.LESSON_FUZZ_CASES ?? 2000);

/** The fields and problems a LessonError may name (www/lesson.js). */
const FIELDS = ['lesson', 'title', 'steps', 'step', 'text', 'tex', 'math', 'state', 'action'];
const PROBLEMS = ['not-object', 'not-text', 'no-steps', 'not-tex', 'not-mathml', 'missing', 'no-panel', 'bad-action'];

/** The value as a lesson file holds it: through JSON text and back. */
const json = (value) => JSON.parse(JSON.stringify(value));

/** Values no field should take, and some it may. */
const HOSTILE = [
  null, undefined, true, false, 0, -0, -1, 1.5, 17, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_VALUE, NaN, Infinity,
  -Infinity, '', ' ', 'NaN', 'Infinity', '-0', '1e999', '<script>alert(1)</script>', '<math', '<math><mi>x</mi></math>',
  '\u0000', '\uD800', '💥', 'x'.repeat(10000), [], [[]], [[1, 2]], [[0.5, 0]], [[NaN, 1]], [[1, 2, 3]], [['1', '2']],
  {}, { en: 'x' }, { en: 'x', zh: '乙' }, { en: ' ', zh: '乙' }, { en: 1, zh: 2 }, { points: [[0.1, 0.2]] },
  { steps: 3 }, { steps: -1 }, { steps: 1e308 }, { steps: 2.5 }, { steps: '3' }, { highlight: 17 },
  { highlight: null }, { highlight: -0 }, { play: true }, { points: [[0.1, 0.2]], steps: 1, highlight: 2 },
  'panel=basis', 'panel=fast-rvm&step=3', 'panel=nope', 'panel=', 'panel=basis&panel=fast-rvm', 'panel=%ZZ',
  'panel=<b>', '&&&', '?panel=basis', 'panel=basis#x', 'PANEL=basis', 'panel=%62asis', 'panel=basis&N=-1&M=1e308',
];

/** A state string: a real panel's or not, with pairs valid or hostile. */
function hostileState(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const panel = pick([...PANELS, 'nope', '', '<script>', PANELS[0].toUpperCase(), ` ${PANELS[0]}`]);
  const pairs = Array.from({ length: Math.floor(random() * 4) }, () => `${pick(['N', 'M', 'step', 'points', 'x', ''])}=${pick(['1', '-1', 'NaN', '%', '0.5:0.1'])}`);
  const order = random() < 0.5 ? [`panel=${panel}`, ...pairs] : [...pairs, `panel=${panel}`];
  return order.join(pick(['&', '&&', ';']));
}

/** Every path (list of keys) into `value`, the root's included. */
function paths(value, path = []) {
  const here = [path];
  if (value === null || typeof value !== 'object') return here;
  return here.concat(...Object.keys(value).map((key) => paths(value[key], [...path, key])));
}

/** Sets `key` of `object` to `value` as an own property (also for `__proto__`). */
function put(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `lesson` with one random mutation (it may also be replaced whole). */
function mutate(lesson, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const all = paths(lesson);
  const path = pick(all);
  const hostile = () => structuredClone(pick(HOSTILE));
  if (path.length === 0) return random() < 0.5 ? hostile() : lesson;
  const parent = path.slice(0, -1).reduce((node, key) => node[key], lesson);
  const key = path[path.length - 1];
  const op = pick(['delete', 'replace', 'replace', 'wrap', 'state', 'action', 'steps', 'add', 'draft']);
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (op === 'replace') {
    put(parent, key, hostile());
  } else if (op === 'wrap') {
    put(parent, key, [parent[key]]);
  } else if (op === 'state' || op === 'action') {
    const steps = Array.isArray(lesson.steps) ? lesson.steps : [];
    const step = steps[Math.floor(random() * steps.length)];
    if (step !== null && typeof step === 'object') {
      put(step, op, op === 'state' ? hostileState(random) : hostile());
    }
  } else if (op === 'steps') {
    const steps = Array.isArray(lesson.steps) ? lesson.steps : [];
    put(lesson, 'steps', structuredClone(pick([[], [{}], [null], [...steps].reverse(), [steps[0], steps[0]], steps.slice(1)])));
  } else if (op === 'draft' && lesson !== null && typeof lesson === 'object' && !Array.isArray(lesson)) {
    // A draft, where texts may be blank or left out, or a value that does not make one.
    put(lesson, 'draft', pick([true, true, false, 'true', 1, null, undefined]));
  } else if (parent !== null && typeof parent === 'object' && !Array.isArray(parent)) {
    // An unknown key on an object (JSON gives an array no keys but its indices), or TeX.
    put(parent, pick(['extra', '__proto__', 'constructor', 'pairs', 'panel', 'tex']), hostile());
  }
  return lesson;
}

/** Asserts that validating `lesson` gives a lesson that round-trips, or a LessonError naming
 *  a step of it and a known field and problem; returns whether it validated. */
function validatesOrNames(lesson, file) {
  let valid;
  try {
    valid = validateLesson(lesson, file, PANELS);
  } catch (error) {
    assert.ok(error instanceof LessonError, `not a LessonError: ${error?.stack ?? error}`);
    assert.equal(error.file, file);
    assert.ok(Number.isInteger(error.step) && error.step >= 0, `step ${error.step}`);
    if (error.step > 0) assert.ok(error.step <= lesson.steps.length, `step ${error.step}`);
    assert.ok(FIELDS.includes(error.field), error.field);
    assert.ok(PROBLEMS.includes(error.problem), error.problem);
    return false;
  }
  assertRoundTrip(valid, file);
  return true;
}

/** The validated lesson, through JSON and validated again, is the same (as a file holds
 *  it: JSON has no NaN, undefined or −0): its steps' panels, pairs and actions included. */
function assertRoundTrip(valid, file) {
  const again = validateLesson(json(valid), file, PANELS);
  assert.deepEqual(json(again), json(valid));
  for (const step of again.steps) {
    assert.ok(PANELS.includes(step.panel));
    assert.ok(step.pairs.every(([key]) => key !== 'panel'));
  }
}

test('the panel names are read from the sources', () => {
  assert.ok(PANELS.includes('fast-rvm') && PANELS.includes('basis') && PANELS.length >= 13, PANELS.join());
});

test('every built-in lesson validates and round-trips through JSON', () => {
  assert.ok(LESSONS.length >= 8);
  for (const [id, lesson] of LESSONS) {
    const valid = validateLesson(lesson, id, PANELS);
    assert.deepEqual(validateLesson(json(lesson), id, PANELS), valid, id);
    assertRoundTrip(valid, id);
  }
});

test(`${CASES} mutated lessons validate or throw a LessonError naming the step and field`, () => {
  const random = seeded(SEED);
  let accepted = 0;
  for (const [id, lesson, n] of mutatedLessons(random, CASES, mutate)) {
    const file = `${id}.json`;
    try {
      // As given (NaN, undefined and −0 included), then as a file would hold it.
      validatesOrNames(lesson, file);
      if (lesson !== undefined) accepted += validatesOrNames(json(lesson), file);
    } catch (error) {
      error.message = `case ${n} (seed ${SEED}): ${error.message}\n${JSON.stringify(lesson)?.slice(0, 2000)}`;
      throw error;
    }
  }
  // Both outcomes are exercised: some mutations keep a lesson valid, most do not.
  assert.ok(accepted > CASES / 20 && accepted < CASES * 0.9, `${accepted} of ${CASES} accepted`);
});
