// The lesson schema (issue 34, item 4): www/lessons/lesson.schema.json (JSON Schema draft
// 2020-12) lets an editor check a lesson as it is written, so it must accept exactly what
// the page's validator (www/lesson.js) accepts, and for a draft what the editor's checks of
// drafts (www/lesson-draft.js) accept. A real validator (ajv, pinned in
// package.json) checks that every built-in lesson declares the schema and validates; that
// each lesson of the broken corpus (tests/fixtures/lessons/broken/) is refused by the schema
// and by the page, at the step the page names; that the valid variants
// (tests/fixtures/lessons/valid/) pass both; and that the two agree on every state string
// built from hostile pieces and on lessons mutated from the built-in ones. No browser and no
// wasm: run it with `node --test tests/e2e/lesson_schema.test.mjs`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { LessonError, validateLesson } from '../../www/lesson.js';
import { validateAny } from '../../www/lesson-draft.js';
import { seeded } from './seeded.mjs';
import { LESSONS, PANELS, mutatedLessons } from './sources.mjs';

const SEED = Number(process.env.LESSON_SCHEMA_SEED ?? 20263404);
const CASES = Number(process.env.LESSON_SCHEMA_CASES ?? 3000);

/** The parsed JSON of a file, by a path relative to this test. */
const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

const SCHEMA = read('../../www/lessons/lesson.schema.json');

/** The schema compiled by ajv, which also checks it against the draft 2020-12 meta-schema.
 *  `patternErrorMessage` is VS Code's message for a pattern that does not match (an
 *  annotation, nothing to check). */
const ajv = new Ajv2020({ allErrors: true, keywords: ['patternErrorMessage'] });
const schemaValid = ajv.compile(SCHEMA);
const stateValid = ajv.getSchema(`${SCHEMA.$id}#/$defs/state`);

/** The broken corpus: file name (without .json) → the step, field and problem the page
 *  names. Each file holds one fault. */
const BROKEN = {
  'lesson-is-a-list': [0, 'title', 'not-text'],
  'title-missing': [0, 'title', 'not-text'],
  'title-both-blank': [0, 'title', 'not-text'],
  'steps-missing': [0, 'steps', 'no-steps'],
  'steps-an-object': [0, 'steps', 'no-steps'],
  'steps-empty': [0, 'steps', 'no-steps'],
  'step-a-string': [2, 'step', 'not-object'],
  'step-title-missing': [1, 'title', 'not-text'],
  'step-text-a-string': [2, 'text', 'not-text'],
  'step-text-neither-en-nor-zh': [1, 'text', 'not-text'],
  'step-text-english-a-number': [1, 'text', 'not-text'],
  'step-text-chinese-null': [2, 'text', 'not-text'],
  'step-title-empty-object': [2, 'title', 'not-text'],
  'step-state-missing': [2, 'state', 'missing'],
  'step-state-an-object': [1, 'state', 'missing'],
  'state-unknown-panel': [1, 'state', 'no-panel'],
  'state-no-panel': [1, 'state', 'no-panel'],
  'state-first-panel-unknown': [1, 'state', 'no-panel'],
  'state-panel-capitalised': [1, 'state', 'no-panel'],
  'state-panel-empty': [1, 'state', 'no-panel'],
  'state-with-fragment': [1, 'state', 'no-panel'],
  'math-latex': [2, 'math', 'not-mathml'],
  'math-null': [1, 'math', 'not-mathml'],
  'action-null': [1, 'action', 'bad-action'],
  'action-empty': [1, 'action', 'bad-action'],
  'action-unknown-key': [1, 'action', 'bad-action'],
  'action-points-not-pairs': [1, 'action', 'bad-action'],
  'action-points-flat': [1, 'action', 'bad-action'],
  'action-point-strings': [1, 'action', 'bad-action'],
  'action-point-overflows': [1, 'action', 'bad-action'],
  'action-points-null': [1, 'action', 'bad-action'],
  'action-highlight-negative': [1, 'action', 'bad-action'],
  'action-highlight-fraction': [1, 'action', 'bad-action'],
  'action-steps-not-integer': [1, 'action', 'bad-action'],
  'action-steps-a-string': [1, 'action', 'bad-action'],
  'lock-not-a-list': [1, 'lock', 'not-keys'],
  'lock-key-a-number': [1, 'lock', 'not-keys'],
  'hide-key-twice': [1, 'hide', 'not-keys'],
  'hide-key-not-a-word': [1, 'hide', 'not-keys'],
  'tex-a-number': [1, 'tex', 'not-tex'],
  // A draft may leave texts blank or out, nothing else: its title is still a text, its steps a
  // list with states; and only `"draft": true` makes one.
  'draft-title-a-string': [0, 'title', 'not-text'],
  'draft-text-a-number': [2, 'text', 'not-text'],
  'draft-no-steps': [0, 'steps', 'no-steps'],
  'draft-state-missing': [1, 'state', 'missing'],
  'draft-a-string': [2, 'title', 'not-text'],
};

/** The names (without .json) of the lesson files in tests/fixtures/lessons/`kind`/. */
const fixtures = (kind) =>
  readdirSync(new URL(`../fixtures/lessons/${kind}/`, import.meta.url))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();

/** The page's verdict on `lesson` (a draft's by the editor's module, which plays drafts):
 *  null if it accepts it, else its LessonError (any other exception fails the test). */
function pageFault(lesson, file = 'lesson.json') {
  try {
    validateAny(lesson, file, PANELS, { validateLesson, LessonError });
    return null;
  } catch (error) {
    assert.ok(error instanceof LessonError, `not a LessonError: ${error?.stack ?? error}`);
    return error;
  }
}

/** The schema's errors on `lesson` (an empty list if it accepts it). */
function schemaErrors(lesson) {
  return schemaValid(lesson) ? [] : schemaValid.errors;
}

/** Whether the page reads `state` (a step's state string) as naming a known panel. */
function pageAcceptsState(state) {
  const step = { title: { en: 'a', zh: '甲' }, text: { en: 'b', zh: '乙' }, state };
  return pageFault({ title: step.title, steps: [step] }) === null;
}

/** A word as the state pattern matches it: each character as written or percent-escaped
 *  (either case of a hex digit), as URLSearchParams decodes it. */
function escapable(word) {
  const hex = (c) =>
    c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0').replace(/[A-F]/g, (d) => `[${d}${d.toLowerCase()}]`);
  return [...word].map((c) => `(?:${c}|%${hex(c)})`).join('');
}

/** The pattern of a state naming one of `panels`, as the page reads it: a leading ? dropped,
 *  pairs split at &, and the first pair whose key decodes to `panel` naming a panel. */
function statePattern(panels) {
  const key = escapable('panel');
  const before = `(?:(?!${key}(?:[=&]|$))[^&]*&)*`;
  return `^(?:\\?|(?!\\?))${before}${key}=(?:${panels.map(escapable).join('|')})(?:&|$)`;
}

test('the schema is draft 2020-12, and its state pattern and texts are made from the panel names', () => {
  assert.equal(SCHEMA.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.ok(PANELS.includes('fast-rvm') && PANELS.includes('basis') && PANELS.length >= 13, PANELS.join());
  assert.ok(PANELS.every((name) => /^[a-z][a-z0-9-]*$/.test(name)), PANELS.join());
  const state = SCHEMA.$defs.state;
  const expected = statePattern(PANELS);
  const hint = `a panel was added or renamed: set $defs.state.pattern to ${JSON.stringify(expected)}`;
  assert.equal(state.pattern, expected, hint);
  const names = PANELS.join(', ');
  assert.ok(state.description.includes(`one of: ${names}.`), `$defs.state.description lists the panels: ${names}`);
  assert.ok(state.patternErrorMessage.includes(`one of ${names}.`), `$defs.state.patternErrorMessage lists them: ${names}`);
});

test('every built-in lesson declares the schema and validates against it', () => {
  assert.ok(LESSONS.length >= 8);
  for (const [id, lesson] of LESSONS) {
    assert.equal(lesson.$schema, 'lesson.schema.json', `${id}.json declares the schema beside it`);
    assert.deepEqual(schemaErrors(lesson), [], id);
    assert.equal(pageFault(lesson, id), null, id);
  }
});

test('each lesson of the broken corpus is refused by the schema and by the page, at the same step', () => {
  assert.deepEqual(fixtures('broken'), Object.keys(BROKEN).sort(), 'each broken lesson is listed with its fault');
  assert.ok(Object.keys(BROKEN).length >= 12);
  for (const [name, [step, field, problem]] of Object.entries(BROKEN)) {
    const lesson = read(`../fixtures/lessons/broken/${name}.json`);
    const fault = pageFault(lesson, `${name}.json`);
    assert.ok(fault, `the page accepts ${name}`);
    assert.deepEqual([fault.step, fault.field, fault.problem], [step, field, problem], name);
    const errors = schemaErrors(lesson);
    assert.ok(errors.length > 0, `the schema accepts ${name}`);
    // The schema finds the fault where the page does: inside the step it names, or (for the
    // lesson itself) in no step. (Its `if` at the root, a draft or a finished lesson, says only
    // that the branch failed, beside the branch's own errors.)
    for (const { instancePath } of errors.filter(({ keyword }) => keyword !== 'if')) {
      if (step > 0) assert.ok(instancePath.startsWith(`/steps/${step - 1}`), `${name}: ${instancePath}`);
      else assert.ok(!/^\/steps\/\d/.test(instancePath), `${name}: ${instancePath}`);
    }
  }
});

test('the valid variants are accepted by the schema and by the page', () => {
  const names = fixtures('valid');
  assert.ok(names.length >= 5, names.join());
  assert.ok(names.filter((name) => name.startsWith('draft-')).length >= 3, names.join());
  for (const name of names) {
    const lesson = read(`../fixtures/lessons/valid/${name}.json`);
    assert.deepEqual(schemaErrors(lesson), [], name);
    assert.equal(pageFault(lesson, `${name}.json`), null, name);
  }
});

test('every state of up to three hostile pairs: the schema accepts it exactly when the page does', () => {
  const pieces = [
    '', 'panel=basis', 'panel=fast-rvm', 'panel=nope', 'panel', 'panel=', 'pan%65l=basis', 'PAN%65L=basis',
    'panel=%62asis', 'panel=fast%2drvm', 'panel=fast%2Drvm', 'panel=%ZZ', 'PANEL=basis', 'panelx=basis',
    'xpanel=basis', 'N=40', 'x=panel=basis', 'panel=basis=1', 'panel=basis#x', 'panel=+basis', 'panel=basis%20',
    'panel=%E4%B8%AD', '?panel=basis', 'panel=sparsity;N=3', 'panel=sparsity', '%70ane%6c=basis', 'pane%6C=%62',
    'pan%6=basis', 'panel=basis%', 'panel=sparsit%79',
  ];
  let accepted = 0;
  let count = 0;
  for (const head of ['', '?', '??', '&']) {
    const grow = (parts) => {
      const state = head + parts.join('&');
      const page = pageAcceptsState(state);
      assert.equal(stateValid(state), page, `state ${JSON.stringify(state)}: the page ${page ? 'accepts' : 'refuses'} it`);
      accepted += page;
      count += 1;
      if (parts.length < 3) for (const piece of pieces) grow([...parts, piece]);
    };
    grow([]);
  }
  assert.ok(accepted > count / 10 && accepted < count * 0.9, `${accepted} of ${count} accepted`);
});

/** JSON values a field may be replaced by: wrong types, edge numbers and texts, and some
 *  right ones. */
const HOSTILE = [
  null, true, 0, -1, 1.5, 17, 1e308, -0, '', ' ', '\u3000', 'x', '<math><mi>x</mi></math>', ' <math>', '$x$',
  'panel=basis', 'panel=nope', 'N=3&panel=fast-rvm', [], [[]], [[1, 2]], [[1, 2, 3]], [['1', '2']], [1, 2], {},
  { en: 'x' }, { en: 'x', zh: '乙' }, { en: ' ', zh: '乙' }, { en: 1, zh: 2 }, { fr: 'x' }, { points: [[0.1, 0.2]] },
  { steps: 3 }, { steps: -1 }, { steps: 2.5 }, { steps: '3' }, { highlight: null }, { highlight: 2 },
  { play: true }, { points: [[0.1, 0.2]], steps: 1, highlight: 2 }, { points: null },
  '\\frac{a}{b}', { en: '', zh: '' }, {},
];

/** Every path (list of keys) into `value`, the root's included. */
function paths(value, path = []) {
  const here = [path];
  if (value === null || typeof value !== 'object') return here;
  return here.concat(...Object.keys(value).map((key) => paths(value[key], [...path, key])));
}

/** Values an action's part may take, right and wrong. */
const PARTS = {
  points: [[], [[0.1, 0.2]], [[0.1, 0.2], [-1, 1e308]], [[0.1]], [[0.1, 0.2, 0.3]], [0.1, 0.2], [['0.1', 0.2]], [[null, 0]], null, {}],
  steps: [0, 1, 24, 1e308, -0, -1, 2.5, '3', null, true, []],
  highlight: [0, 17, null, -1, 1.5, '2', true, [2]],
};

/** An action with a random choice of parts (none, some, or all), and sometimes an unknown
 *  one. */
function randomAction(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const action = {};
  for (const [key, values] of Object.entries(PARTS)) if (random() < 0.5) action[key] = structuredClone(pick(values));
  if (random() < 0.1) action[pick(['play', 'step', 'point'])] = 1;
  return action;
}

/** `lesson` with one random change at a random place: a field deleted, replaced by a hostile
 *  value, wrapped in a list, a key added (known or not), or a step's action or state
 *  replaced. */
function mutate(lesson, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const path = pick(paths(lesson));
  const value = () => structuredClone(pick(HOSTILE));
  if (path.length === 0) return random() < 0.2 ? value() : lesson;
  const parent = path.slice(0, -1).reduce((node, key) => node[key], lesson);
  const key = path[path.length - 1];
  const op = pick(['delete', 'replace', 'replace', 'wrap', 'add', 'action', 'action', 'state', 'draft']);
  const steps = Array.isArray(lesson?.steps) ? lesson.steps.filter((step) => step !== null && typeof step === 'object') : [];
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (op === 'replace') {
    parent[key] = value();
  } else if (op === 'wrap') {
    parent[key] = [parent[key]];
  } else if (op === 'action' && steps.length > 0) {
    pick(steps).action = randomAction(random);
  } else if (op === 'state' && steps.length > 0) {
    const pairs = ['panel=basis', 'panel=nope', 'N=3', 'pan%65l=sparsity', 'panel=', 'panel=%66ast-rvm', 'PANEL=basis'];
    pick(steps).state = `${pick(['', '?', '&'])}${Array.from({ length: Math.floor(random() * 3) }, () => pick(pairs)).join('&')}`;
  } else if (op === 'draft' && lesson !== null && typeof lesson === 'object' && !Array.isArray(lesson)) {
    // A draft, or almost one: texts blank or left out are then no fault.
    lesson.draft = pick([true, true, true, false, 'true', 1, null]);
  } else if (op === 'add' && !Array.isArray(parent)) {
    const keys = ['extra', '$schema', 'maths', 'panel', 'play', 'action', 'math', 'tex', 'state', 'steps', 'highlight', 'points', 'zh', 'en', 'draft'];
    parent[pick(keys)] = value();
  }
  return lesson;
}

test(`${CASES} lessons mutated from the built-in ones: the schema accepts each exactly when the page does`, () => {
  const random = seeded(SEED);
  let accepted = 0;
  for (const [id, mutated, n] of mutatedLessons(random, CASES, mutate)) {
    const lesson = JSON.parse(JSON.stringify(mutated));
    const fault = pageFault(lesson, `${id}.json`);
    const errors = schemaErrors(lesson);
    const page = fault ? `refuses it (${fault.message})` : 'accepts it';
    const schema = errors.length ? `refuses it: ${ajv.errorsText(errors)}` : 'accepts it';
    const shown = JSON.stringify(lesson).slice(0, 2000);
    assert.equal(errors.length === 0, fault === null, `case ${n} (seed ${SEED}): the page ${page}, the schema ${schema}\n${shown}`);
    accepted += fault === null;
  }
  // Both outcomes are exercised.
  assert.ok(accepted > CASES / 20 && accepted < CASES * 0.9, `${accepted} of ${CASES} accepted`);
});
