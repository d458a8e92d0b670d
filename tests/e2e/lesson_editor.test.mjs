// The lesson editor (issue 34, points 3 and 5; issue 52, points 3 and 4), in Chromium: a
// built-in lesson (fast-rvm, nine steps with equations and actions) made again step by step in
// the editor — each step's view opened by its state's URL (the lesson in the making restored
// after each), then "Add this view", its texts, its equation's TeX and action typed — and
// saved: the downloaded file equals the built-in one in every field the editor sets, its
// MathML included (the state compared as a set of pairs, see `statePairs`). Then: reorder,
// replace, delete and its Undo; the preview with a clicker's keys and the way back; a file with
// a fault (its step and field named, the lesson's own title never "step 0", in the reader's
// language, the lesson kept); a file dropped on the page; the lesson link there and back, and a
// broken one; TeX typed and its MathML shown as typed, as Temml makes it; a TeX error said where,
// in English and 中文, the step keeping its last equation or saying it has none; a draft saved
// and played saying what it still needs; "New lesson" asked first and undone; the lesson kept
// in the browser and offered back after a reload and after the page is closed (and the editor
// without storage); the toolbar in view after five steps, wide and narrow; a view described in
// words; a built-in lesson opened as a start; both languages; the editor by keyboard alone;
// axe; a 360 px phone in dark mode; the page's first load without the editor, and a lesson
// link's reader without its TeX converter; the single file's editor from disk.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import WORDS from '../../www/editor-words.js';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import { encodeFragment } from '../../www/link.js';
import { LessonError, validateLesson } from '../../www/lesson.js';
import { validateAny } from '../../www/lesson-draft.js';
import { texToMathml } from '../../www/tex.js';
import { axeViolations, open, settled, start, watched } from './browser.mjs';
import { PANELS } from './sources.mjs';

/** A built-in lesson file, parsed. */
const lessonFile = (id) => JSON.parse(readFileSync(new URL(`../../www/lessons/${id}.json`, import.meta.url), 'utf8'));

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Presses "Make a lesson" and waits for the editor and its TeX converter; where it offers back
 *  a lesson the browser kept and `restore` is given, restores it (true) or discards it (false). */
async function openEditor(page, { restore } = {}) {
  await page.click('#editor-open');
  await page.waitForSelector('#editor[data-tex="ready"]:not([hidden])');
  if (restore === undefined || (await page.isHidden('#editor-offer'))) return;
  await page.click(restore ? '#editor [data-do="restore"]' : '#editor [data-do="discard"]');
  await page.waitForSelector('#editor-offer', { state: 'hidden' });
}

/** An editor word with its `{name}` placeholders filled, in `lang`. */
const word = (lang, key, args = {}) => WORDS[lang][key].replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));

/** MathML markup with its style attributes written without spaces: a cell's style set through
 *  the CSSOM (as the page sets Temml's) reads back as "padding-left: 0em; …". */
const unspaced = (markup) => markup.replace(/ style="([^"]*)"/g, (whole, style) => ` style="${style.replace(/\s+/g, '')}"`);

/** The MathML the editor shows for step `i` (style attributes unspaced). */
async function shownMath(page, i) {
  return unspaced(await page.$eval(`#editor [data-math="${i}"]`, (box) => box.innerHTML));
}

/** Waits until step `i`'s equation shows `markup` (its MathML as Temml makes it). */
async function waitForMath(page, i, markup) {
  await page.waitForFunction(([k, expected]) => {
    const shown = document.querySelector(`#editor [data-math="${k}"]`)?.innerHTML ?? '';
    return shown.replace(/ style="([^"]*)"/g, (whole, style) => ` style="${style.replace(/\s+/g, '')}"`) === expected;
  }, [i, unspaced(markup)]);
}

/** The schema of lesson files, compiled (ajv, as lesson_schema.test.mjs does). */
const schemaValid = new Ajv2020({ allErrors: true, keywords: ['patternErrorMessage'] })
  .compile(JSON.parse(readFileSync(new URL('../../www/lessons/lesson.schema.json', import.meta.url), 'utf8')));

/** The field `name` (`title.en`, `points` …) of step `i` (0-based), or of the lesson. */
const fieldOf = (name, i) => (i === undefined ? `#editor [data-field="${name}"]:not([data-i])` : `#editor [data-field="${name}"][data-i="${i}"]`);
/** The editor's button `act` (of step `i`). */
const act = (name, i) => (i === undefined ? `#editor [data-do="${name}"]` : `#editor [data-do="${name}"][data-i="${i}"]`);

/** The steps' English titles as the editor shows them. */
const titles = (page) => page.$$eval('#editor [data-field="title.en"][data-i]', (inputs) => inputs.map((input) => input.value));
/** The steps' recorded states. */
const states = (page) => page.$$eval('#editor .editor-state code', (codes) => codes.map((code) => code.textContent));

/** Saves the lesson; resolves to the downloaded file's name and its text. */
async function saveLesson(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(act('save'))]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

/** Opens `text` as the lesson file `name` with the editor's file picker, and waits until the
 *  editor has said what it made of it (its status or its error names the file). */
async function openFile(page, name, text) {
  await page.evaluate(() => {
    document.querySelector('#editor-message').textContent = '';
    document.querySelector('#editor-error').textContent = '';
  });
  await page.setInputFiles('#editor-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction((file) => ['#editor-message', '#editor-error'].some((id) => document.querySelector(id).textContent.includes(file)), name);
}

/** A state's pairs as a sorted list of `key=value` (the order of the keys aside). */
const statePairs = (state) => [...new URLSearchParams(state)].map(([key, value]) => `${key}=${value}`).sort();

/** The panel's own URL for a view opened at `state`: what the address bar holds once the
 *  page has read it (the lab writes its keys in its own order). */
async function normalised(page, state) {
  await page.goto(`${env.url}?${state}`);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  return page.evaluate(() => location.search.slice(1));
}

/** Each step of the lesson shown on `page` (from its first), stepped with PageDown: its
 *  counter, title, text and the panel's state once its action is applied and its work done. */
async function walk(page, count) {
  await page.waitForSelector('#lesson:not([hidden])');
  const shown = [];
  for (let k = 1; k <= count; k += 1) {
    // The address says the step once its panel is open and its action applied.
    await page.waitForFunction((n) => document.querySelector('#lesson-counter').textContent.startsWith(`step ${n} `)
      && new URLSearchParams(location.search).get('step') === String(n), k);
    await settled(page);
    shown.push(await page.evaluate(() => ({
      counter: document.querySelector('#lesson-counter').textContent,
      title: document.querySelector('#lesson-step-title').textContent,
      text: document.querySelector('#lesson-text').textContent,
      math: document.querySelector('#lesson-math').innerHTML,
      panel: window.rvmLab.state.panel,
      query: window.rvmLab.state.lab.query(),
    })));
    if (k < count) await page.keyboard.press('PageDown');
  }
  return shown;
}

describe('a built-in lesson made again in the editor', () => {
  test('fast-rvm: nine steps recorded, typed and saved equal the built-in file in every field the editor sets', async (t) => {
    const built = lessonFile('fast-rvm');
    const page = await open(env, '?panel=fast-rvm');
    for (const [i, step] of built.steps.entries()) {
      // The step's view, opened by its state's URL (the lesson in the making is kept by the
      // browser, and restored when the editor offers it back).
      await normalised(page, step.state);
      await openEditor(page, { restore: true });
      assert.equal((await titles(page)).length, i);
      if (i === 0) {
        await page.fill(fieldOf('title.en'), built.title.en);
        await page.fill(fieldOf('title.zh'), built.title.zh);
      }
      await page.click(act('add'));
      // The new step's English title has the focus.
      assert.equal(await page.evaluate(() => document.activeElement.dataset.i), String(i));
      await page.fill(fieldOf('title.en', i), step.title.en);
      await page.fill(fieldOf('title.zh', i), step.title.zh);
      await page.fill(fieldOf('text.en', i), step.text.en);
      await page.fill(fieldOf('text.zh', i), step.text.zh);
      // The equation as the lecturer writes it, its MathML shown as Temml makes it.
      if (step.tex) {
        await page.fill(fieldOf('tex', i), step.tex);
        await waitForMath(page, i, texToMathml(step.tex));
      }
      if (step.action?.points) await page.fill(fieldOf('points', i), JSON.stringify(step.action.points));
      if (step.action?.highlight !== undefined) await page.fill(fieldOf('highlight', i), String(step.action.highlight));
      if (step.action?.steps !== undefined) await page.fill(fieldOf('steps', i), String(step.action.steps));
    }
    const { name, text } = await saveLesson(page);
    assert.equal(name, `${built.title.en.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}.json`);
    // Pretty-printed with two spaces, "$schema" first, as the built-in files are written.
    const saved = JSON.parse(text);
    assert.equal(text, `${JSON.stringify(saved, null, 2)}\n`);
    assert.deepEqual(Object.keys(saved), ['$schema', 'title', 'steps']);
    assert.equal(saved.$schema, built.$schema);
    assert.deepEqual(saved.title, built.title);
    assert.equal(saved.steps.length, built.steps.length);
    let literal = 0;
    for (const [i, step] of built.steps.entries()) {
      const mine = saved.steps[i];
      for (const key of ['title', 'text', 'tex', 'math', 'action']) assert.deepEqual(mine[key], step[key], `step ${i + 1}: ${key}`);
      assert.deepEqual(Object.keys(mine).sort(), Object.keys(step).sort(), `step ${i + 1}: its fields`);
      // The state is the permalink's: the same pairs as the built-in one, in the lab's order
      // (compared as sets); where the built-in state spells a value the lab writes otherwise
      // (a step beyond the run's end), as the lab writes it on opening the built-in state.
      const same = statePairs(mine.state).join('&') === statePairs(step.state).join('&');
      if (!same) assert.deepEqual(statePairs(mine.state), statePairs(await normalised(page, step.state)), `step ${i + 1}: state`);
      literal += same;
    }
    t.diagnostic(`${literal} of ${built.steps.length} states are the built-in one's pairs; the rest the lab's spelling of them`);
    // Played, the saved lesson shows at every step what the built-in one shows: the same
    // panel state (its action applied), the same texts and equations (the page was opened at
    // other views meanwhile: the lesson in the making is restored).
    await openEditor(page, { restore: true });
    await page.click(act('preview'));
    const mine = await walk(page, built.steps.length);
    const reader = await open(env, '?lesson=fast-rvm&step=1');
    assert.deepEqual(mine, await walk(reader, built.steps.length));
    assert.deepEqual([...page.consoleErrors, ...reader.consoleErrors], []);
    await page.context().close();
    await reader.context().close();
  });
});

describe('editing', () => {
  test('steps move up and down, are replaced by the view, deleted and brought back by Undo; the focus stays on the button pressed', async () => {
    const page = await open(env, '?panel=basis');
    for (const [i, view] of ['panel=basis', 'panel=sparsity', 'panel=evidence'].entries()) {
      await normalised(page, view);
      await openEditor(page, { restore: true });
      await page.click(act('add'));
      await page.fill(fieldOf('title.en', i), 'abc'[i]);
    }
    const recorded = await states(page);
    assert.deepEqual(recorded.map((state) => new URLSearchParams(state).get('panel')), ['basis', 'sparsity', 'evidence']);
    await page.click(act('up', 2));
    assert.deepEqual(await titles(page), ['a', 'c', 'b']);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do + document.activeElement.dataset.i), 'up1');
    await page.click(act('up', 1));
    assert.deepEqual(await titles(page), ['c', 'a', 'b']);
    // At the top its "Move up" is off, and "Move down" has the focus.
    assert.equal(await page.$eval(act('up', 0), (b) => b.disabled), true);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do + document.activeElement.dataset.i), 'down0');
    await page.click(act('down', 0));
    assert.deepEqual(await titles(page), ['a', 'c', 'b']);
    await page.click(act('delete', 0));
    assert.deepEqual(await titles(page), ['c', 'b']);
    assert.deepEqual(await states(page), [recorded[2], recorded[1]]);
    // A deletion is said, and Undo brings the step back where it was.
    assert.match(await page.textContent('#editor-message'), new RegExp(word('en', 'deleted', { k: 1 })));
    await page.click(act('undo'));
    assert.deepEqual(await titles(page), ['a', 'c', 'b']);
    assert.equal(await page.textContent('#editor-message'), word('en', 'undone'));
    await page.click(act('delete', 0));
    // Replaced by the view on the panel now (the evidence panel with another N).
    await page.keyboard.press('Escape');
    const view = await normalised(page, 'panel=evidence&N=12');
    await openEditor(page, { restore: true });
    await page.click(act('replace', 1));
    assert.deepEqual(await titles(page), ['c', 'b']);
    assert.deepEqual(await states(page), [recorded[2], view]);
    assert.match(view, /N=12/);
    // The state is the permalink's: panel and the lab's query, as the address holds it.
    assert.equal(await page.evaluate(() => location.search.slice(1)), view);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a view with data points added by hand records them in its state, and they come back in the preview', async () => {
    const page = await open(env, '?panel=predictive&N=2');
    await page.fill('#add-point input[name=x]', '0.25');
    await page.fill('#add-point input[name=t]', '0.75');
    await page.click('#add-point button[type=submit]');
    await settled(page);
    await openEditor(page);
    await page.click(act('add'));
    const [state] = await states(page);
    assert.match(new URLSearchParams(state).get('points') ?? '', /0\.25:0\.75/, state);
    await page.fill(fieldOf('title.en', 0), 'Points');
    await page.fill(fieldOf('text.en', 0), 'Three points.');
    await page.fill(fieldOf('title.en'), 'Data');
    await page.click(act('preview'));
    await page.waitForSelector('#lesson:not([hidden])');
    await settled(page);
    assert.equal(await page.evaluate(() => new URLSearchParams(window.rvmLab.state.lab.query()).get('points')), new URLSearchParams(state).get('points'));
    await page.context().close();
  });
});

describe('preview', () => {
  test('plays the lesson as a reader sees it: PageDown, →, PageUp, ← step it; Escape and "Back to editing" return', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    await openFile(page, 'sparsity.json', JSON.stringify(lessonFile('sparsity')));
    assert.equal((await titles(page)).length, 5);
    await page.click(act('preview'));
    await page.waitForSelector('#lesson:not([hidden])');
    assert.equal(await page.isHidden('#editor-body'), true);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do), 'back');
    const counter = () => page.textContent('#lesson-counter');
    assert.equal(await counter(), 'step 1 of 5');
    for (const [key, expected] of [['PageDown', 2], ['ArrowRight', 3], ['PageUp', 2], ['ArrowLeft', 1], [' ', 1]]) {
      if (key !== ' ') {
        await page.keyboard.press(key);
        await page.waitForFunction((k) => document.querySelector('#lesson-counter').textContent === `step ${k} of 5`, expected);
      }
    }
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 5');
    await settled(page);
    assert.equal(await page.evaluate(() => window.rvmLab.state.panel), 'sparsity');
    assert.equal(await page.textContent('#lesson-step-title'), lessonFile('sparsity').steps[1].title.en);
    // The address is the lesson's link, at its step.
    assert.match(await page.evaluate(() => location.search + location.hash), /^\?lesson=&step=2#z=/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#editor-body:not([hidden])');
    assert.equal(await page.isHidden('#lesson'), true);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do), 'preview');
    await page.click(act('preview'));
    await page.click(act('back'));
    assert.equal(await page.isHidden('#lesson'), true);
    // Escape while editing closes the editor; the focus goes back to "Make a lesson".
    await page.keyboard.press('Escape');
    assert.equal(await page.isHidden('#editor'), true);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'editor-open');
    assert.equal(await page.getAttribute('#editor-open', 'aria-expanded'), 'false');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a step with one language empty shows the other, in the preview and in the file', async () => {
    const page = await open(env, '?panel=basis&lang=zh');
    await openEditor(page);
    await page.click(act('add'));
    await page.fill(fieldOf('title.en'), 'Only English');
    await page.fill(fieldOf('title.en', 0), 'English title');
    await page.fill(fieldOf('text.en', 0), 'English text');
    await page.click(act('preview'));
    await page.waitForSelector('#lesson:not([hidden])');
    assert.equal(await page.textContent('#lesson-title'), 'Only English');
    assert.equal(await page.textContent('#lesson-step-title'), 'English title');
    assert.equal(await page.textContent('#lesson-text'), 'English text');
    await page.click(act('back'));
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.deepEqual(saved.steps[0].title, { en: 'English title', zh: '' });
    await page.context().close();
  });
});

describe('lesson files', () => {
  const broken = (name) => readFileSync(new URL(`../fixtures/lessons/broken/${name}.json`, import.meta.url), 'utf8');

  test('a file with a fault names its step and field, in the reader’s language, and the editor keeps its lesson', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    await page.click(act('add'));
    await openFile(page, 'step-text-a-string.json', broken('step-text-a-string'));
    const error = await page.textContent('#editor-error');
    assert.equal(error, en['lesson.invalid']
      .replace('{file}', 'step-text-a-string.json').replace('{step}', '2').replace('{field}', 'text')
      .replace('{problem}', en['lesson.problem.not-text']));
    assert.equal((await titles(page)).length, 1);
    await openFile(page, 'not-json.json', '{ "title": ');
    assert.equal(await page.textContent('#editor-error'), en['lesson.invalid.lesson'].replace('{file}', 'not-json.json').replace('{problem}', en['lesson.problem.not-json']));
    // The lesson's own title is "the lesson's title", never "step 0".
    await openFile(page, 'title-both-blank.json', broken('title-both-blank'));
    const untitled = await page.textContent('#editor-error');
    assert.equal(untitled, en['lesson.invalid.title'].replace('{file}', 'title-both-blank.json').replace('{problem}', en['lesson.problem.not-text']));
    assert.ok(!/step 0/.test(untitled), untitled);
    // In Chinese, the same fault in Chinese words.
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await openFile(page, 'action-unknown-key.json', broken('action-unknown-key'));
    const chinese = await page.textContent('#editor-error');
    assert.ok(chinese.includes(zh['lesson.problem.bad-action']) && chinese.includes('action-unknown-key.json'), chinese);
    assert.equal(await page.textContent('#editor-heading'), WORDS.zh.title);
    // A save refuses a lesson with a fault too, naming it (step 3, as the editor numbers it).
    await openFile(page, 'sparsity.json', JSON.stringify(lessonFile('sparsity')));
    assert.equal(await page.textContent('#editor-error'), '');
    await page.fill(fieldOf('points', 2), '[[0.1, "two"]]');
    await page.click(act('save'));
    assert.equal(await page.textContent('#editor-error'), zh['lesson.invalid']
      .replace('{file}', 'why-the-rvm-is-sparse-prml-7-2-2.json').replace('{step}', '3').replace('{field}', 'action')
      .replace('{problem}', zh['lesson.problem.bad-action']));
    await page.context().close();
  });

  test('a lesson file dropped on the page opens in the editor', async () => {
    const page = await open(env, '?panel=basis');
    const text = JSON.stringify(lessonFile('gradient-descent'));
    await page.evaluate((json) => {
      const data = new DataTransfer();
      data.items.add(new File([json], 'gradient-descent.json', { type: 'application/json' }));
      document.querySelector('#panel-title').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForSelector('#editor:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('#editor-steps > li').length === 5);
    assert.equal(await page.inputValue(fieldOf('title.en')), lessonFile('gradient-descent').title.en);
    assert.match(await page.textContent('#editor-message'), /Opened gradient-descent\.json: 5 steps/);
    // Saved again, it is the same lesson.
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.deepEqual(saved, lessonFile('gradient-descent'));
    await page.context().close();
  });
});

describe('the lesson link', () => {
  test('holds the lesson: opened, it plays it; its steps keep the link in the address', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    await openFile(page, 'sparsity.json', JSON.stringify(lessonFile('sparsity')));
    await page.click(act('link'));
    await page.waitForSelector('#editor-link-box:not([hidden])');
    const link = await page.inputValue('#editor-link');
    assert.match(link, /\?lesson=&step=1#z=[\w-]+$/);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'editor-link');
    const reader = await open(env, link.slice(env.url.length));
    assert.equal(await reader.isHidden('#lesson'), false);
    assert.equal(await reader.textContent('#lesson-title'), lessonFile('sparsity').title.en);
    assert.equal(await reader.textContent('#lesson-counter'), 'step 1 of 5');
    assert.equal(await reader.evaluate(() => window.rvmLab.state.panel), 'sparsity');
    await reader.keyboard.press('PageDown');
    await reader.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 5');
    await settled(reader);
    const address = await reader.evaluate(() => location.href);
    assert.equal(address, link.replace('step=1', 'step=2'));
    // Reloaded at step 2, it opens there, in Chinese too.
    const again = await open(env, `${address.slice(env.url.length).replace('?', '?lang=zh&')}`);
    assert.equal(await again.textContent('#lesson-counter'), zh['lesson.counter'].replace('{k}', '2').replace('{n}', '5'));
    assert.equal(await again.textContent('#lesson-title'), lessonFile('sparsity').title.zh);
    assert.deepEqual([...page.consoleErrors, ...reader.consoleErrors, ...again.consoleErrors], []);
    await page.context().close();
    await reader.context().close();
    await again.context().close();
  });

  test('a broken link gives a notice naming what is wrong, and the page opens', async () => {
    const lesson = lessonFile('sparsity');
    lesson.steps[2].state = 'panel=nope';
    const bad = await encodeFragment([['lesson', JSON.stringify(lesson)]]);
    for (const [hash, expected] of [
      [bad, /step 3, field “state” must name a known panel/],
      [await encodeFragment([['lesson', '{"title": ']]), /the file is not valid JSON/],
      ['z=AAAA', /could not be read/],
    ]) {
      const page = await open(env, `?lesson=&step=1#${hash}`);
      assert.equal(await page.isHidden('#notices'), false, hash);
      assert.match(await page.textContent('#notices'), expected);
      assert.equal(await page.isHidden('#lesson'), true);
      assert.equal(await page.evaluate(() => Number(document.querySelector('#chart').dataset.draws) > 0), true);
      await page.context().close();
    }
  });
});

describe('words, keyboard, access', () => {
  test('every editor word is in both languages; the editor follows the language button', async () => {
    assert.deepEqual(Object.keys(WORDS.zh).sort(), Object.keys(WORDS.en).sort());
    for (const lang of ['en', 'zh']) {
      for (const [key, text] of Object.entries(WORDS[lang])) assert.ok(text.trim(), `${lang} ${key}`);
    }
    assert.ok(en['lesson.make'] && zh['lesson.make']);
    const page = await open(env, '?panel=basis&lang=zh');
    assert.equal(await page.textContent('#editor-open'), zh['lesson.make']);
    await openEditor(page);
    await page.click(act('add'));
    assert.equal(await page.textContent(act('add')), WORDS.zh.add);
    assert.equal(await page.getAttribute(act('up', 0), 'aria-label'), `${WORDS.zh.up} (${WORDS.zh.step.replace('{k}', '1')})`);
    await page.click('#lang-toggle');
    await page.waitForFunction((title) => document.querySelector('#editor-heading').textContent === title, WORDS.en.title);
    assert.equal(await page.textContent(act('add')), WORDS.en.add);
    assert.equal(await page.textContent('#editor-steps legend'), 'Step 1');
    await page.context().close();
  });

  test('by keyboard alone: open, type, add a view, save, close; every control is labelled', async () => {
    const page = await open(env, '?panel=sparsity');
    await page.focus('#editor-open');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#editor:not([hidden])');
    await page.waitForFunction(() => document.activeElement.dataset.field === 'title.en');
    await page.keyboard.type('Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type('键');
    // Tab on to "Add this view" (the order of the page: title, then the tools).
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do), 'add');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.field + document.activeElement.dataset.i), 'title.en0');
    await page.keyboard.type('First');
    await page.keyboard.press('Tab');
    await page.keyboard.type('第一');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Some text.');
    // Back to "Save lesson" by Shift+Tab, and Enter.
    let guard = 0;
    while ((await page.evaluate(() => document.activeElement.dataset.do)) !== 'save' && guard < 40) {
      await page.keyboard.press('Shift+Tab');
      guard += 1;
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const saved = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.deepEqual(saved.title, { en: 'Keys', zh: '键' });
    assert.deepEqual(saved.steps[0].title, { en: 'First', zh: '第一' });
    assert.equal(saved.steps[0].text.en, 'Some text.');
    // Every control of the editor has a name.
    const unnamed = await page.$$eval('#editor button, #editor input:not([type=file]), #editor textarea', (controls) =>
      controls.filter((c) => !c.closest('[hidden]') && !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim())).map((c) => c.outerHTML));
    assert.deepEqual(unnamed, []);
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'editor-open');
    await page.context().close();
  });

  test('axe finds nothing with the editor open (a step, an error, the link), in dark mode, and in the preview', async () => {
    const found = [];
    for (const [colorScheme, lang] of [['light', 'en'], ['dark', 'zh']]) {
      const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme });
      const page = await context.newPage();
      await page.goto(`${env.url}?panel=fast-rvm&lang=${lang}`);
      await page.waitForSelector('body[data-ready="1"]');
      await openEditor(page);
      for (const i of [0, 1]) {
        await page.click(act('add'));
        await page.fill(fieldOf('title.en', i), `Step ${i + 1}`);
        await page.fill(fieldOf('text.zh', i), '说明');
      }
      await page.fill(fieldOf('title.zh'), '课');
      await page.click(act('link'));
      await page.waitForSelector('#editor-link-box:not([hidden])');
      await openFile(page, 'bad.json', '[]');
      for (const line of await axeViolations(page)) found.push(`${colorScheme} ${lang} editor: ${line}`);
      await page.click(act('preview'));
      await page.waitForSelector('#lesson:not([hidden])');
      for (const line of await axeViolations(page)) found.push(`${colorScheme} ${lang} preview: ${line}`);
      await context.close();
    }
    assert.deepEqual(found, []);
  });

  test('on a 360 px phone in dark mode nothing scrolls sideways with the editor open', async () => {
    const context = await env.browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark', isMobile: true });
    const page = await context.newPage();
    await page.goto(`${env.url}?panel=evidence`);
    await page.waitForSelector('body[data-ready="1"]');
    await openEditor(page);
    await page.click(act('add'));
    await page.fill(fieldOf('title.en', 0), 'A step');
    await page.fill(fieldOf('text.en', 0), 'Its text.');
    await page.fill(fieldOf('title.en'), 'A lesson');
    await page.click(act('link'));
    await page.waitForSelector('#editor-link-box:not([hidden])');
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, editor: document.querySelector('#editor').getBoundingClientRect().right }));
    assert.ok(widths.page <= 360 && widths.editor <= 360, JSON.stringify(widths));
    // The editor's colours are the page's dark ones (--paper #151515, --ink #e6e6e6).
    const colours = await page.evaluate(() => ['backgroundColor', 'color'].map((key) => getComputedStyle(document.querySelector('#editor'))[key]));
    assert.deepEqual(colours, ['rgb(21, 21, 21)', 'rgb(230, 230, 230)']);
    await context.close();
  });

  test('on stage the chart has the screen: the editor waits until the stage is left', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    await page.click('#stage-enter');
    await page.waitForFunction(() => document.body.classList.contains('stage'));
    assert.equal(await page.isVisible('#editor'), false);
    await page.click('#stage-leave');
    await page.waitForFunction(() => !document.body.classList.contains('stage'));
    assert.equal(await page.isVisible('#editor'), true);
    await page.context().close();
  });

  test('the page loads no part of the editor until it is used, nor its TeX converter; a lesson link\'s reader neither', async () => {
    const page = await open(env, '?panel=basis');
    assert.deepEqual(page.requests.filter((url) => /editor|tex\.min|lab-math/.test(url)), []);
    await openEditor(page);
    assert.equal(page.requests.filter((url) => /editor\.min\.(js|css)$/.test(url)).length, 2);
    assert.equal(page.requests.filter((url) => /\/tex\.min\.js$/.test(url)).length, 1);
    // A lesson link plays through the editor's module, without the converter.
    const link = await encodeFragment([['lesson', JSON.stringify(lessonFile('sparsity'))]]);
    const reader = await open(env, `?lesson=&step=2#${link}`);
    assert.equal(await reader.textContent('#lesson-title'), lessonFile('sparsity').title.en);
    assert.equal(reader.requests.filter((url) => /\/editor\.min\.js$/.test(url)).length, 1);
    assert.deepEqual(reader.requests.filter((url) => /tex\.min/.test(url)), []);
    await page.context().close();
    await reader.context().close();
  });
});

describe('equations in TeX', () => {
  /** Temml's MathML of `tex`, or null where it does not read. */
  const mathOf = (tex) => {
    try {
      return texToMathml(tex);
    } catch {
      return null;
    }
  };

  test('TeX typed shows its MathML as typed (the last TeX that read while it does not), and the file holds both', async () => {
    const page = await open(env, '?panel=fast-rvm');
    await openEditor(page);
    await page.click(act('add'));
    const tex = '\\alpha_i = \\frac{s_i^2}{q_i^2 - s_i}';
    await page.focus(fieldOf('tex', 0));
    // Typed key by key: at each key the equation is that of the longest start of it that reads.
    let good = null;
    for (const [n, key] of [...tex].entries()) {
      await page.keyboard.type(key);
      const typed = tex.slice(0, n + 1);
      good = mathOf(typed) ?? good;
      if (n % 6 === 5 || n === tex.length - 1) {
        await page.waitForFunction(([t]) => document.querySelector('#editor [data-field="tex"][data-i="0"]').value === t, [typed]);
        assert.equal(await shownMath(page, 0), good ?? '', `after ${JSON.stringify(typed)}`);
        const note = await page.textContent('#editor [data-note="0"]');
        assert.equal(note === '', mathOf(typed) !== null, `${JSON.stringify(typed)}: ${note}`);
      }
    }
    const markup = texToMathml(tex);
    assert.match(markup, /^<math display="block"><mrow><msub><mi>α<\/mi><mi>i<\/mi><\/msub><mo>=<\/mo><mfrac>/);
    await waitForMath(page, 0, markup);
    // The browser lays it out as MathML: a fraction with its bar, in the equations' font.
    const laid = await page.$eval('#editor [data-math="0"] mfrac', (frac) => ({ height: frac.getBoundingClientRect().height, font: getComputedStyle(frac).fontFamily }));
    assert.ok(laid.height > 20, JSON.stringify(laid));
    assert.match(laid.font, /RVM Lab Math/);
    await page.fill(fieldOf('title.en'), 'TeX');
    await page.fill(fieldOf('title.en', 0), 'A step');
    await page.fill(fieldOf('text.en', 0), 'Its text.');
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.deepEqual([saved.steps[0].tex, saved.steps[0].math], [tex, markup]);
    assert.equal(saved.draft, undefined);
    // Played, the step shows that MathML, as the built-in lessons show theirs.
    await page.click(act('preview'));
    await page.waitForSelector('#lesson:not([hidden])');
    assert.equal(unspaced(await page.$eval('#lesson-math', (box) => box.innerHTML)), markup);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a TeX error says where, in English and 中文; the step keeps its last equation, or says it has none', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    await page.click(act('add'));
    // An unknown command, with no equation before it: where it is (its first character, from 1).
    const unknown = 'x^2 + \\foo';
    await page.fill(fieldOf('tex', 0), unknown);
    const note = () => page.textContent('#editor [data-note="0"]');
    const at = unknown.indexOf('\\foo') + 1;
    const words = (lang, key, args) => `${word(lang, key, args)} ${word(lang, 'tex-none')}`;
    await page.waitForFunction(() => document.querySelector('#editor [data-note="0"]').textContent !== '');
    assert.equal(await note(), words('en', 'tex-error', { k: at, token: '\\foo', reason: word('en', 'tex.unknown') }));
    assert.equal(await shownMath(page, 0), '');
    assert.equal(await page.getAttribute('#editor [data-note="0"]', 'data-error'), '');
    // One that reads, then a brace left open: the error is at the end, and the equation stays.
    await page.fill(fieldOf('tex', 0), 'x^2');
    await waitForMath(page, 0, texToMathml('x^2'));
    assert.equal(await note(), '');
    await page.fill(fieldOf('tex', 0), 'x^2 + \\frac{1}{');
    const end = (lang) => `${word(lang, 'tex-error-end', { reason: word(lang, 'tex.missing', { what: '}' }) })} ${word(lang, 'tex-kept')}`;
    await page.waitForFunction((text) => document.querySelector('#editor [data-note="0"]').textContent === text, end('en'));
    assert.equal(await shownMath(page, 0), texToMathml('x^2'));
    // In Chinese, the same places in Chinese words.
    await page.click('#lang-toggle');
    await page.waitForFunction((text) => document.querySelector('#editor [data-note="0"]').textContent === text, end('zh'));
    await page.fill(fieldOf('tex', 0), 'a_1_2');
    const twice = `${word('zh', 'tex-error', { k: 4, token: '_', reason: word('zh', 'tex.double') })} ${word('zh', 'tex-kept')}`;
    await page.waitForFunction((text) => document.querySelector('#editor [data-note="0"]').textContent === text, twice);
    assert.equal('a_1_2'.indexOf('_', 2) + 1, 4);
    // A lesson whose TeX does not read is saved as a draft, the equation named as unfinished.
    await page.fill(fieldOf('title.zh'), '课');
    await page.fill(fieldOf('title.zh', 0), '一步');
    await page.fill(fieldOf('text.zh', 0), '说明');
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.equal(saved.draft, true);
    assert.deepEqual([saved.steps[0].tex, saved.steps[0].math], ['a_1_2', texToMathml('x^2')]);
    assert.ok((await page.textContent('#editor-message')).includes(word('zh', 'missing-step-tex', { k: 1 })));
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a file\'s MathML without TeX stays as it is until TeX is typed; TeX without MathML is made into it', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    const lesson = lessonFile('sparsity');
    const mathml = '<math display="block"><mi>y</mi><mo>=</mo><mn>1</mn></math>';
    lesson.steps[0] = { ...lesson.steps[0], math: mathml };
    delete lesson.steps[0].tex;
    delete lesson.steps[1].math;
    await openFile(page, 'mixed.json', JSON.stringify(lesson));
    await waitForMath(page, 1, texToMathml(lesson.steps[1].tex));
    assert.equal(await shownMath(page, 0), mathml);
    assert.equal(await page.textContent('#editor [data-note="0"]'), word('en', 'tex-mathml'));
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.equal(saved.steps[0].math, mathml);
    assert.equal(saved.steps[1].math, texToMathml(lesson.steps[1].tex));
    // TeX typed replaces it; emptied, the file's MathML is back.
    await page.fill(fieldOf('tex', 0), 'y = 2');
    await waitForMath(page, 0, texToMathml('y = 2'));
    await page.fill(fieldOf('tex', 0), '');
    await waitForMath(page, 0, mathml);
    await page.context().close();
  });
});

describe('equations on the page', () => {
  test('the piecewise αᵢ of the fast RVM, on the page and on stage: in the equations\' font, its brace over both cases, its fraction not squashed', async () => {
    for (const [query, viewport] of [['?lesson=fast-rvm&step=5', { width: 1100, height: 800 }], ['?lesson=fast-rvm&step=5&stage=1', { width: 1280, height: 720 }]]) {
      const page = await open(env, query, { viewport });
      await page.evaluate(() => document.fonts.ready);
      const laid = await page.evaluate(() => {
        const box = document.querySelector('#lesson-math');
        const brace = [...box.querySelectorAll('mo')].find((mo) => mo.textContent === '{');
        const table = box.querySelector('mtable');
        const [numerator] = box.querySelector('mfrac').children;
        const alpha = box.querySelector('msub > mi');
        const face = [...document.fonts].find((font) => font.family.replace(/"/g, '') === 'RVM Lab Math');
        return {
          brace: brace.getBoundingClientRect().height,
          table: table.getBoundingClientRect().height,
          numerator: parseFloat(getComputedStyle(numerator.firstElementChild).fontSize),
          base: parseFloat(getComputedStyle(alpha).fontSize),
          font: face?.status,
          family: getComputedStyle(table).fontFamily,
        };
      });
      assert.equal(laid.font, 'loaded', query);
      assert.match(laid.family, /^"RVM Lab Math"/, query);
      assert.ok(laid.brace >= 0.9 * laid.table && laid.table > 2 * laid.base, `${query}: ${JSON.stringify(laid)}`);
      // Displayed cases (dcases): the fraction's numerator at the equation's size, not a script's.
      assert.equal(laid.numerator, laid.base, `${query}: ${JSON.stringify(laid)}`);
      assert.ok(page.requests.some((url) => url.endsWith('/fonts/lab-math.woff2')), query);
      assert.deepEqual(page.consoleErrors, [], query);
      await page.context().close();
    }
  });
});

describe('drafts', () => {
  test('an unfinished lesson is saved as a draft, accepted by the schema and the page, and plays saying what it still needs', async () => {
    const page = await open(env, '?panel=sparsity');
    await openEditor(page);
    await page.click(act('add'));
    await page.fill(fieldOf('title.en', 0), 'The first view');
    await page.fill(fieldOf('text.en', 0), 'Written.');
    await page.click(act('add'));
    const { name, text } = await saveLesson(page);
    const saved = JSON.parse(text);
    assert.equal(name, 'lesson.json');
    assert.deepEqual(Object.keys(saved), ['$schema', 'draft', 'title', 'steps']);
    assert.equal(saved.draft, true);
    assert.ok(schemaValid(saved), JSON.stringify(schemaValid.errors));
    validateAny(saved, name, PANELS, { validateLesson, LessonError });
    // The message names what is still to write, the steps as the editor numbers them.
    const missing = new Intl.ListFormat('en', { type: 'conjunction' })
      .format([word('en', 'missing-title'), word('en', 'missing-step-title', { k: 2 }), word('en', 'missing-step-text', { k: 2 })]);
    assert.equal(await page.textContent('#editor-message'), word('en', 'saved-draft', { file: name, missing }));
    // Played, it says so where it is unfinished, in both languages.
    await page.click(act('preview'));
    await page.waitForSelector('#lesson:not([hidden])');
    assert.equal(await page.textContent('#lesson-title'), word('en', 'note-untitled'));
    assert.equal(await page.textContent('#lesson-step-title'), 'The first view');
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 2');
    assert.equal(await page.textContent('#lesson-step-title'), word('en', 'note-step-title'));
    assert.equal(await page.textContent('#lesson-text'), word('en', 'note-step-text'));
    await page.click('#lang-toggle');
    await page.waitForFunction((title) => document.querySelector('#lesson-step-title').textContent === title, word('zh', 'note-step-title'));
    assert.equal(await page.textContent('#lesson-text'), word('zh', 'note-step-text'));
    assert.equal(await page.textContent('#lesson-title'), word('zh', 'note-untitled'));
    await page.click(act('back'));
    // Its link plays it the same way for a reader (the lesson titled now: "Draft: …").
    await page.fill(fieldOf('title.en'), 'Half a lesson');
    await page.click(act('link'));
    await page.waitForSelector('#editor-link-box:not([hidden])');
    assert.ok((await page.textContent('#editor-message')).includes(word('zh', 'missing-step-text', { k: 2 })));
    const link = await page.inputValue('#editor-link');
    const reader = await open(env, `${link.slice(env.url.length).replace('step=1', 'step=2')}`);
    assert.equal(await reader.textContent('#lesson-title'), word('en', 'note-titled', { title: 'Half a lesson' }));
    assert.equal(await reader.textContent('#lesson-text'), word('en', 'note-step-text'));
    // The saved draft opens in the editor again as it was.
    await openFile(page, name, text);
    assert.deepEqual(await titles(page), ['The first view', '']);
    assert.deepEqual([...page.consoleErrors, ...reader.consoleErrors], []);
    await page.context().close();
    await reader.context().close();
  });

  test('a finished lesson is not a draft; a draft with every part written is played as written', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    const lesson = { ...lessonFile('sparsity'), draft: true };
    await openFile(page, 'sparsity-draft.json', JSON.stringify(lesson));
    // Everything written: saved, it is a finished lesson.
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.equal(saved.draft, undefined);
    assert.equal(await page.textContent('#editor-message'), word('en', 'saved', { file: 'why-the-rvm-is-sparse-prml-7-2-2.json' }));
    await page.context().close();
  });
});

describe('nothing lost', () => {
  test('"New lesson" asks first, in the page (not a dialog); Cancel and Escape keep the lesson; Undo brings it back', async () => {
    const page = await open(env, '?panel=basis');
    const dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss();
    });
    await openEditor(page);
    for (const i of [0, 1]) {
      await page.click(act('add'));
      await page.fill(fieldOf('title.en', i), `Step ${i + 1}`);
    }
    await page.fill(fieldOf('title.en'), 'Kept');
    await page.click(act('new'));
    await page.waitForSelector('#editor-confirm:not([hidden])');
    assert.equal(await page.textContent('#editor-confirm-text'), word('en', 'new-ask', { steps: word('en', 'steps-n', { n: 2 }) }));
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do), 'new-yes');
    await page.click(act('cancel'));
    assert.equal(await page.isHidden('#editor-confirm'), true);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.do), 'new');
    assert.deepEqual(await titles(page), ['Step 1', 'Step 2']);
    await page.click(act('new'));
    await page.keyboard.press('Escape');
    assert.equal(await page.isHidden('#editor-confirm'), true);
    assert.equal(await page.isVisible('#editor'), true);
    assert.deepEqual(await titles(page), ['Step 1', 'Step 2']);
    // Confirmed: a new lesson, and Undo restores the one before.
    await page.click(act('new'));
    await page.click(act('new-yes'));
    assert.deepEqual(await titles(page), []);
    assert.equal(await page.inputValue(fieldOf('title.en')), '');
    assert.match(await page.textContent('#editor-message'), new RegExp(`^${word('en', 'new-done')}`));
    await page.click(act('undo'));
    assert.deepEqual(await titles(page), ['Step 1', 'Step 2']);
    assert.equal(await page.inputValue(fieldOf('title.en')), 'Kept');
    // An empty lesson asks nothing.
    await page.click(act('new'));
    await page.click(act('new-yes'));
    await page.click(act('new'));
    assert.equal(await page.isHidden('#editor-confirm'), true);
    assert.deepEqual(dialogs, []);
    await page.context().close();
  });

  test('the lesson is kept as it is typed, and offered back after a reload and after the page is closed', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
    const first = watched(await context.newPage());
    await first.goto(`${env.url}?panel=sparsity`);
    await first.waitForSelector('body[data-ready="1"]');
    await openEditor(first);
    for (const i of [0, 1, 2]) {
      await first.click(act('add'));
      await first.fill(fieldOf('title.en', i), `View ${i + 1}`);
    }
    await first.fill(fieldOf('tex', 2), 'q^2 > s');
    await first.fill(fieldOf('title.en'), 'Kept lesson');
    // Reloaded: the editor offers it back, saying how much there is and how long ago.
    await first.reload();
    await first.waitForSelector('body[data-ready="1"]');
    await openEditor(first);
    await first.waitForSelector('#editor-offer:not([hidden])');
    const now = new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(0, 'second');
    assert.equal(await first.textContent('#editor-offer-text'), word('en', 'offer', { steps: word('en', 'steps-n', { n: 3 }), ago: now }));
    assert.equal(await first.evaluate(() => document.activeElement.dataset.do), 'restore');
    await first.click(act('restore'));
    assert.deepEqual(await titles(first), ['View 1', 'View 2', 'View 3']);
    assert.equal(await first.inputValue(fieldOf('title.en')), 'Kept lesson');
    await waitForMath(first, 2, texToMathml('q^2 > s'));
    await first.fill(fieldOf('text.en', 1), 'Typed after the reload.');
    // Closed, and a new page of the same browser: offered back again, as it was last typed.
    await first.close();
    const second = watched(await context.newPage());
    await second.goto(`${env.url}?panel=basis&lang=zh`);
    await second.waitForSelector('body[data-ready="1"]');
    await openEditor(second);
    await second.waitForSelector('#editor-offer:not([hidden])');
    assert.equal(await second.textContent('#editor-offer-text'), word('zh', 'offer', { steps: word('zh', 'steps-n', { n: 3 }), ago: new Intl.RelativeTimeFormat('zh-CN', { numeric: 'auto' }).format(0, 'second') }));
    // While it is offered, the lesson typed meanwhile does not overwrite it: discarding it can
    // be undone.
    await second.click(act('discard'));
    assert.deepEqual(await titles(second), []);
    await second.click(act('undo'));
    assert.deepEqual(await titles(second), ['View 1', 'View 2', 'View 3']);
    assert.equal(await second.inputValue(fieldOf('text.en', 1)), 'Typed after the reload.');
    assert.deepEqual(second.consoleErrors, []);
    await context.close();
  });

  test('where the page has no storage (a sandboxed frame) the editor works, and says the lesson is not kept', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The document is sandboxed', 'SecurityError'); } });
    });
    const page = watched(await context.newPage());
    await page.goto(`${env.url}?panel=basis`);
    await page.waitForSelector('body[data-ready="1"]');
    await openEditor(page);
    assert.equal(await page.isHidden('#editor-offer'), true);
    await page.waitForSelector('#editor-no-storage:not([hidden])');
    assert.equal(await page.textContent('#editor-no-storage'), word('en', 'no-storage'));
    await page.click(act('add'));
    await page.fill(fieldOf('title.en', 0), 'Still here');
    assert.deepEqual(await titles(page), ['Still here']);
    assert.deepEqual(page.consoleErrors, []);
    await context.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 600, height: 800 }]) {
    test(`the toolbar stays in view after five steps, at ${viewport.width} × ${viewport.height}`, async () => {
      const page = await open(env, '?panel=basis', { viewport });
      await openEditor(page);
      for (let i = 0; i < 5; i += 1) await page.click(act('add'));
      // The last step's last field, scrolled to: the toolbar is still on screen, on top.
      await page.focus(fieldOf('steps', 4));
      await page.evaluate(() => document.activeElement.scrollIntoView({ block: 'end' }));
      const seen = await page.evaluate(() => {
        const editor = document.querySelector('#editor').getBoundingClientRect();
        return [...document.querySelectorAll('#editor .editor-tools button')].map((tool) => {
          const box = tool.getBoundingClientRect();
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          return { tool: tool.dataset.do, shown: document.elementFromPoint(x, y) === tool && y > 0 && y < innerHeight && y > editor.top };
        });
      });
      assert.deepEqual(seen.filter(({ shown }) => !shown), [], JSON.stringify(seen));
      // Scrolled: the fifth step really is further down than the first screen.
      assert.ok(await page.$eval('#editor-steps > li:first-child', (li) => li.getBoundingClientRect().top < 0), 'the first step has scrolled out');
      await page.context().close();
    });
  }
});

describe('a step\'s view in words', () => {
  test('the panel and what differs from its defaults, in the page\'s words; data points counted; the address at hand', async () => {
    const glue = await import('../../www/pkg/rvm_lab.js');
    glue.initSync({ module: readFileSync(new URL('../../www/pkg/rvm_lab_bg.wasm', import.meta.url)) });
    /** The panel's defaults, as a panel opened with no keys has them. */
    const defaultsOf = (name) => {
      const lab = new glue.Lab(name, []);
      const values = new Map(lab.query());
      lab.free();
      return values;
    };
    const page = await open(env, '?panel=fast-rvm&N=40&noise=0.3&step=9');
    await openEditor(page);
    await page.click(act('add'));
    const [state] = await states(page);
    const fast = defaultsOf('fast-rvm');
    const changed = [...new URLSearchParams(state)].filter(([key, value]) => key !== 'panel' && fast.get(key) !== value);
    assert.deepEqual(changed.map(([key]) => key).sort(), ['N', 'noise', 'step']);
    const words = `${WORDS.en.view} ${[en['panel.fast-rvm'], ...changed.map(([key, value]) => `${en[`param.${key}`]} = ${value}`)].join(' · ')}`;
    const described = () => page.$eval('#editor .editor-state', (box) => `${box.children[0].textContent} ${box.querySelector('[data-view]').textContent}`);
    assert.equal(await described(), words);
    assert.match(words, /Fast RVM live · Step k = 9 · Data points N = 40 · Data noise σ = 0\.3/);
    // The raw address stays at hand.
    assert.equal(await page.$eval('#editor .editor-state code', (code) => code.textContent), state);
    // A choice and a switch in words; data points counted, not listed (in 中文 too).
    await page.keyboard.press('Escape');
    await normalised(page, 'panel=predictive&basis=polynomial&bias=0&N=3');
    await page.fill('#add-point input[name=x]', '0.25');
    await page.fill('#add-point input[name=t]', '0.75');
    await page.click('#add-point button[type=submit]');
    await settled(page);
    await openEditor(page, { restore: true });
    await page.click(act('add'));
    const predictive = (await states(page))[1];
    const points = new URLSearchParams(predictive).get('points').split(',').length;
    assert.ok(points >= 1);
    const second = () => page.$$eval('#editor [data-view]', (nodes) => nodes[1].textContent);
    const view = await second();
    assert.ok(view.startsWith(`${en['panel.predictive']} · `), view);
    assert.ok(view.includes(`${en['param.basis']}: ${en['choice.polynomial']}`), view);
    assert.ok(view.includes(`${en['param.bias']}: ${WORDS.en.off}`), view);
    assert.ok(view.includes(points === 1 ? WORDS.en['view-points-1'] : word('en', 'view-points', { n: points })), view);
    assert.ok(!view.includes('0.25'), view);
    await page.click('#lang-toggle');
    await page.waitForFunction((title) => document.querySelectorAll('#editor [data-view]')[1].textContent.startsWith(title), zh['panel.predictive']);
    const chinese = await second();
    assert.ok(chinese.includes(`${zh['param.basis']}: ${zh['choice.polynomial']}`), chinese);
    assert.ok(chinese.includes(points === 1 ? WORDS.zh['view-points-1'] : word('zh', 'view-points', { n: points })), chinese);
    await page.context().close();
  });
});

describe('a built-in lesson as a start', () => {
  test('where the page shows a built-in lesson the editor offers a copy of it; opened whole, saved it is the built-in file', async () => {
    const page = await open(env, '?panel=basis');
    await openEditor(page);
    // No lesson shown: how to get one.
    assert.equal(await page.isHidden('#editor-copy'), true);
    assert.equal(await page.textContent('#editor-copy-hint'), word('en', 'copy-hint'));
    const built = lessonFile('gradient-descent');
    await page.selectOption('#lesson-select', 'gradient-descent');
    await page.waitForSelector('#editor-copy:not([hidden])');
    assert.equal(await page.textContent('#editor-copy'), word('en', 'copy', { title: built.title.en }));
    await page.click(act('copy'));
    assert.deepEqual(await titles(page), built.steps.map((step) => step.title.en));
    assert.equal(await page.textContent('#editor-message'), word('en', 'copied', { title: built.title.en, n: built.steps.length }));
    assert.deepEqual(await page.$$eval('#editor [data-field="tex"]', (fields) => fields.map((f) => f.value)), built.steps.map((step) => step.tex ?? ''));
    await waitForMath(page, 0, built.steps[0].math);
    const saved = JSON.parse((await saveLesson(page)).text);
    assert.deepEqual(saved, built);
    // Another one replaces it, and Undo brings the first back.
    await page.selectOption('#lesson-select', 'sparsity');
    await page.waitForFunction((text) => document.querySelector('#editor-copy').textContent === text, word('en', 'copy', { title: lessonFile('sparsity').title.en }));
    await page.click(act('copy'));
    assert.deepEqual(await titles(page), lessonFile('sparsity').steps.map((step) => step.title.en));
    await page.click(act('undo'));
    assert.deepEqual(await titles(page), built.steps.map((step) => step.title.en));
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});

describe('the single file', () => {
  test('from disk, its editor turns TeX into MathML and shows it in the equations\' font, under the file\'s own policy', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = watched(await context.newPage());
    await page.goto(`${pathToFileURL(new URL('../../www/rvm-lab.html', import.meta.url).pathname).href}?panel=basis`);
    await page.waitForSelector('body[data-ready="1"]');
    await openEditor(page);
    await page.click(act('add'));
    const tex = '\\alpha = \\begin{cases} 1 & x > 0 \\\\ 0 & x \\le 0 \\end{cases}';
    await page.fill(fieldOf('tex', 0), tex);
    await page.waitForSelector('#editor [data-math="0"] mtable');
    assert.equal(await page.$eval('#editor [data-math="0"] math', (m) => m.outerHTML.replace(/ style="[^"]*"/g, '')), texToMathml(tex).replace(/ style="[^"]*"/g, ''));
    // The cases' second column keeps Temml's 1em before it (set through the CSSOM, which the
    // policy allows), the first none.
    const [padding, em, first] = await page.$eval('#editor [data-math="0"] mtd:nth-child(2)', (cell) =>
      [getComputedStyle(cell).paddingLeft, getComputedStyle(cell).fontSize, getComputedStyle(cell.previousElementSibling).paddingLeft]);
    assert.deepEqual([padding, first], [em, '0px']);
    await page.evaluate(() => document.fonts.ready);
    assert.equal(await page.evaluate(() => [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'RVM Lab Math').map((f) => f.status).join()), 'loaded');
    assert.deepEqual(page.consoleErrors, []);
    assert.deepEqual(page.requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:') && !url.startsWith('blob:')), []);
    await context.close();
  });
});
