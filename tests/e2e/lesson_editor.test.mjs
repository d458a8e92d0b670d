// The lesson editor (issue 34, points 3 and 5), in Chromium: a built-in lesson (fast-rvm, nine
// steps with equations and actions) made again step by step in the editor — each step's view
// opened by its state's URL, then "Add this view", its texts, equation and action typed — and
// saved: the downloaded file equals the built-in one in every field the editor sets (the
// state compared as a set of pairs, see `statePairs`). Then: reorder, replace, delete; the
// preview with a clicker's keys and the way back; a file with a fault (its step and field
// named, in the reader's language, the lesson kept); a file dropped on the page; the lesson
// link there and back, and a broken one; both languages; the editor by keyboard alone; axe;
// a 360 px phone in dark mode; the page's first load without the editor.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import WORDS from '../../www/editor-words.js';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import { encodeFragment } from '../../www/link.js';
import { axeViolations, open, settled, start } from './browser.mjs';

/** A built-in lesson file, parsed. */
const lessonFile = (id) => JSON.parse(readFileSync(new URL(`../../www/lessons/${id}.json`, import.meta.url), 'utf8'));

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Presses "Make a lesson" and waits for the editor. */
async function openEditor(page) {
  await page.click('#editor-open');
  await page.waitForSelector('#editor:not([hidden])');
}

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
      // The step's view, opened by its state's URL (the lesson in the making is kept for the tab).
      await normalised(page, step.state);
      await openEditor(page);
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
      if (step.math) await page.fill(fieldOf('math', i), step.math);
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
      for (const key of ['title', 'text', 'math', 'action']) assert.deepEqual(mine[key], step[key], `step ${i + 1}: ${key}`);
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
    // panel state (its action applied), the same texts.
    await openEditor(page);
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
  test('steps move up and down, are replaced by the view and deleted; the focus stays on the button pressed', async () => {
    const page = await open(env, '?panel=basis');
    for (const [i, view] of ['panel=basis', 'panel=sparsity', 'panel=evidence'].entries()) {
      await normalised(page, view);
      await openEditor(page);
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
    // Replaced by the view on the panel now (the evidence panel with another N).
    await page.keyboard.press('Escape');
    const view = await normalised(page, 'panel=evidence&N=12');
    await openEditor(page);
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
    assert.match(await page.textContent('#editor-error'), /not-json\.json.*step 0, field “lesson” is not valid JSON/);
    // In Chinese, the same fault in Chinese words.
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await openFile(page, 'action-unknown-key.json', broken('action-unknown-key'));
    const chinese = await page.textContent('#editor-error');
    assert.ok(chinese.includes(zh['lesson.problem.bad-action']) && chinese.includes('action-unknown-key.json'), chinese);
    assert.equal(await page.textContent('#editor-heading'), WORDS.zh.title);
    // A save refuses a lesson with a fault too, naming it.
    await openFile(page, 'sparsity.json', JSON.stringify(lessonFile('sparsity')));
    assert.equal(await page.textContent('#editor-error'), '');
    await page.fill(fieldOf('math', 2), '$x$');
    await page.click(act('save'));
    assert.ok((await page.textContent('#editor-error')).includes(zh['lesson.problem.not-mathml']));
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
      [await encodeFragment([['lesson', '{"title": ']]), /field “lesson” is not valid JSON/],
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
      controls.filter((c) => !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim())).map((c) => c.outerHTML));
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

  test('the page loads no part of the editor until it is used', async () => {
    const page = await open(env, '?panel=basis');
    assert.deepEqual(page.requests.filter((url) => /editor/.test(url)), []);
    await openEditor(page);
    assert.equal(page.requests.filter((url) => /editor\.min\.(js|css)$/.test(url)).length, 2);
    await page.context().close();
  });
});
