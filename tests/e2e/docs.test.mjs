// docs/lessons.md against the page's lesson validator (issue 34, item 2): the action keys the
// doc lists between `<!-- action-keys begin -->` and `<!-- action-keys end -->` are exactly
// those www/lesson.js accepts, each documented example is accepted alone and all together,
// and a key the doc does not list is refused. The step fields the doc marks required are
// refused when missing, naming the field. The keys exist only in the page's JavaScript, so
// this is the check that keeps the doc true. The docs' figures of the build — the release
// bundle's size, the SCORM packages' number and size (README.md and docs/*.md) — are those of
// the files the build wrote in dist/, rounded as the docs write them, and docs/lessons.md
// lists the built-in lessons of www/lessons/index.json, in its order; the iframe snippet the
// docs and embed.html show has the share box's script. No browser and no wasm, but after the
// build: run it with `node --test tests/e2e/docs.test.mjs`. (docs/panels.md's key tables are
// checked natively: tests/docs.rs.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { LessonError, validateLesson } from '../../www/lesson.js';
import { version } from '../../scripts/package.mjs';

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

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
/** The docs that give the build's figures. */
const DOCS = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
/** The built-in lessons, in the menu's order. */
const LESSONS = JSON.parse(read('www/lessons/index.json'));
/** Numbers as the docs spell them. */
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

test("the docs' figures are the build's: the release bundle's size, the SCORM packages' number and size", async () => {
  const bundle = statSync(new URL(`dist/rvm-lab-${await version()}.zip`, ROOT)).size;
  assert.deepEqual(readdirSync(new URL('dist/scorm/', ROOT)).sort(), LESSONS.map(({ id }) => `${id}.zip`).sort(), 'a package per lesson');
  const packages = LESSONS.map(({ id }) => statSync(new URL(`dist/scorm/${id}.zip`, ROOT)).size);
  const found = new Map();
  for (const doc of DOCS) {
    const text = read(doc);
    // "the bundle (1.3 MB)", "the release bundle, `dist/rvm-lab-<version>.zip` (1.3 MB; …)"
    for (const [, mb] of text.matchAll(/\bbundle\b[^()]*?\((\d+(?:\.\d+)?) MB\b/g)) {
      assert.equal(Number(mb), Math.round(bundle / 1e5) / 10, `${doc}: a bundle of ${mb} MB, built ${bundle} bytes`);
      found.set(doc, (found.get(doc) ?? 0) + 1);
    }
    // "the nine SCORM packages (444 KB each)"
    for (const [, count, kb] of text.matchAll(/\b(\w+) SCORM packages \((\d+) KB each\b/g)) {
      assert.equal(WORDS.indexOf(count), packages.length, `${doc}: ${count} SCORM packages, built ${packages.length}`);
      for (const bytes of packages) assert.equal(Number(kb), Math.round(bytes / 1e3), `${doc}: packages of ${kb} KB, one built ${bytes} bytes`);
      found.set(doc, (found.get(doc) ?? 0) + 1);
    }
  }
  assert.deepEqual([found.get('docs/teaching.md'), found.get('docs/development.md')], [2, 2], 'each gives both figures');
});

test("docs/lessons.md lists the built-in lessons, www/lessons/index.json's, in its order", () => {
  const doc = read('docs/lessons.md');
  const list = doc.slice(doc.indexOf('Built in, in course order:'), doc.indexOf('## Make a lesson in the page'));
  const items = [...list.matchAll(/^(\d+)\. .*\(`([\w-]+)`\)[;.]$/gm)];
  assert.deepEqual(items.map(([, n]) => Number(n)), LESSONS.map((_, i) => i + 1), 'numbered from 1');
  assert.deepEqual(items.map(([, , id]) => id), LESSONS.map(({ id }) => id));
});

test('the iframe snippet the docs and embed.html show has the share box\'s script', () => {
  const share = read('www/share.js');
  const resizer = share.match(/export const RESIZER =\s*"([^"]+)";/)[1];
  for (const doc of ['README.md', 'docs/teaching.md']) assert.ok(read(doc).includes(`<script>${resizer}</script>`), doc);
  const shown = read('www/embed.html').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  assert.ok(shown.includes(`<script>${resizer}</script>`), 'embed.html');
});
