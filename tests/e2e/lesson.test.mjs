// Lessons: the file format is checked with the step and field of a fault named (no
// browser), every built-in lesson is well formed, and in Chromium a lesson URL opens at its
// step, the presentation keys step forward and back with the panel following, large type,
// Chinese, and a malformed lesson is reported while the page stays as it was.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LessonError, stepForKey, validateLesson } from '../../www/lesson.js';
import { open, panelNames, start } from './browser.mjs';

/** The panels the module lists, as the page passes them to the validator. */
const PANELS = await panelNames();
const text = (en, zh) => ({ en, zh });
const good = () => ({
  title: text('T', '标题'),
  steps: [
    { title: text('a', '甲'), text: text('x', '乙'), state: 'panel=sparsity&alpha=2' },
    { title: text('b', '丙'), text: text('y', '丁'), state: 'panel=fast-rvm&step=3', math: '<math><mi>x</mi></math>', action: { steps: 2 } },
  ],
});

describe('lesson files', () => {
  test('a good lesson parses into panels, pairs and actions', () => {
    const lesson = validateLesson(good(), 'good.json', PANELS);
    assert.equal(lesson.steps[0].panel, 'sparsity');
    assert.deepEqual(lesson.steps[0].pairs, [['alpha', '2']]);
    assert.deepEqual(lesson.steps[0].action, { points: [], steps: 0, highlight: null });
    assert.deepEqual(lesson.steps[1].action, { points: [], steps: 2, highlight: null });
    const more = good();
    more.steps[1].action = { points: [[0.1, 0.2], [0.5, -1]], highlight: 17 };
    assert.deepEqual(validateLesson(more, 'good.json', PANELS).steps[1].action, {
      points: [[0.1, 0.2], [0.5, -1]],
      steps: 0,
      highlight: 17,
    });
  });

  test('each fault names its step and field', () => {
    const cases = [
      [(l) => { delete l.steps[1].text.zh; l.steps[1].text.en = ' '; }, 2, 'text', 'not-text'],
      [(l) => { l.steps[0].text.zh = 2; }, 1, 'text', 'not-text'],
      [(l) => { l.steps[0].title = 'plain'; }, 1, 'title', 'not-text'],
      [(l) => { l.steps[1].state = 'panel=nope'; }, 2, 'state', 'no-panel'],
      [(l) => { delete l.steps[0].state; }, 1, 'state', 'missing'],
      [(l) => { l.steps[1].math = '$x^2$'; }, 2, 'math', 'not-mathml'],
      [(l) => { l.steps[1].action = { steps: -1 }; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps[1].action = { play: true }; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps[1].action = {}; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps[1].action = { highlight: 1.5 }; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps[1].action = { points: [[0.1]] }; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps[1].action = { points: [[0.1, 'a']] }; }, 2, 'action', 'bad-action'],
      [(l) => { l.steps = []; }, 0, 'steps', 'no-steps'],
      [(l) => { l.title = { en: ' ', zh: '' }; }, 0, 'title', 'not-text'],
    ];
    for (const [spoil, step, field, problem] of cases) {
      const lesson = good();
      spoil(lesson);
      assert.throws(() => validateLesson(lesson, 'bad.json', PANELS), (error) => {
        assert.ok(error instanceof LessonError);
        assert.deepEqual([error.file, error.step, error.field, error.problem], ['bad.json', step, field, problem]);
        return true;
      });
    }
  });

  test('every built-in lesson is well formed', () => {
    const index = JSON.parse(readFileSync(new URL('../../www/lessons/index.json', import.meta.url)));
    assert.ok(index.length >= 2);
    for (const { id, title } of index) {
      assert.ok(title.en && title.zh, id);
      const json = JSON.parse(readFileSync(new URL(`../../www/lessons/${id}.json`, import.meta.url)));
      assert.ok(validateLesson(json, id, PANELS).steps.length >= 3, id);
    }
  });

  test('presentation keys: → space PageDown forward, ← PageUp back, clamped', () => {
    assert.equal(stepForKey('ArrowRight', 0, 3), 1);
    assert.equal(stepForKey(' ', 1, 3), 2);
    assert.equal(stepForKey('PageDown', 2, 3), 2);
    assert.equal(stepForKey('PageUp', 2, 3), 1);
    assert.equal(stepForKey('ArrowLeft', 0, 3), 0);
    assert.equal(stepForKey('a', 1, 3), null);
  });
});

describe('lesson mode in the page', () => {
  let env;
  before(async () => {
    env = await start();
  });
  after(async () => {
    await env?.close();
  });

  const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);
  const urlKey = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
  const counter = (page) => page.textContent('#lesson-counter');

  test('a lesson URL opens at its step, and the keys step through it with the panel following', async () => {
    const page = await open(env, '?lesson=fast-rvm&step=6');
    assert.equal(await counter(page), 'step 6 of 9');
    assert.equal(await page.textContent('#lesson-step-title'), 'A deletion');
    assert.equal(await readout(page, 'step'), '9', 'the panel is at the step the lesson sets');
    assert.equal(await page.$eval('#lesson-math', (el) => el.firstElementChild?.localName), 'math');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '7');
    assert.equal(await counter(page), 'step 7 of 9');
    assert.equal(await readout(page, 'step'), '10');
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '6');
    assert.equal(await readout(page, 'step'), '9');
    await page.keyboard.press('Space');
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '8');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '9');
    assert.equal(await page.isDisabled('#lesson-next'), true, 'the last step');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '8');
    assert.equal(await urlKey(page, 'lesson'), 'fast-rvm');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('actions: a highlighted basis function, and the same one a step later', async () => {
    const page = await open(env, '?lesson=fast-rvm&step=3');
    assert.equal(await readout(page, 'step'), '1');
    assert.ok((await page.textContent('#legend')).includes('highlighted basis'));
    // The panel's own state carries the highlight, so the URL of the view is complete.
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('highlight')), '17');
    const before = await page.evaluate(() => document.querySelector('#chart').toDataURL());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '4');
    assert.equal(await readout(page, 'step'), '2', 'state step 1 plus one step of action');
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('highlight')), '17');
    assert.notEqual(await page.evaluate(() => document.querySelector('#chart').toDataURL()), before);
    // Back to a step without highlight: the panel shows the step's own basis function.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '2');
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('highlight')), undefined);
    assert.ok(!(await page.textContent('#legend')).includes('highlighted basis'));
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('an action adds points: the data and the URL hold them', async () => {
    const page = await open(env, '?lesson=bayesian-regression&step=6');
    assert.equal(await page.textContent('#lesson-step-title'), 'Add a point yourself');
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('points')), '0.5:0');
    assert.equal(await readout(page, 'N'), '3', 'two generated points and the added one');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '5');
    assert.equal(await readout(page, 'N'), '2', 'the previous step has no added point');
    await page.context().close();
  });

  test('a step with an action runs the panel on; another panel in the next step', async () => {
    const page = await open(env, '?lesson=fast-rvm&step=2');
    assert.equal(await readout(page, 'step'), '1', 'state step 0 plus one step of action');
    const sparsity = await open(env, '?lesson=sparsity&step=3');
    assert.equal(await sparsity.isChecked('#ctl-pruned'), true, 'step 3 prunes φ');
    await sparsity.click('#lesson-next');
    await sparsity.waitForFunction(() => new URLSearchParams(location.search).get('step') === '4');
    assert.equal(await sparsity.$eval('#panel-select', (el) => el.value), 'lambda-curve');
    await page.context().close();
    await sparsity.context().close();
  });

  test('large type and Chinese', async () => {
    const page = await open(env, '?lesson=sparsity&step=1&lang=zh');
    assert.equal(await page.textContent('#lesson-step-title'), '一个基向量，两个目标值');
    assert.equal(await counter(page), '第 1 / 5 步');
    const before = await page.$eval('#lesson-text', (el) => parseFloat(getComputedStyle(el).fontSize));
    await page.click('#large-toggle');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('large') === '1');
    const after = await page.$eval('#lesson-text', (el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(after > before * 1.2, `${before} → ${after} px`);
    assert.equal(await page.getAttribute('#large-toggle', 'aria-pressed'), 'true');
    await page.context().close();
  });

  test('a lesson the index does not list is reported, and its file never asked for', async () => {
    const page = await open(env, '?lesson=nope&step=2');
    assert.match(await page.textContent('#notices'), /lessons\/nope\.json/);
    assert.deepEqual(page.requests.filter((url) => url.includes('lessons/nope')), [], 'no request for the file');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a malformed lesson is reported by step and field, and the page stays as it was', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
    const broken = good();
    // Neither language: one may be empty, not both.
    delete broken.steps[1].text.zh;
    broken.steps[1].text.en = '';
    await context.route('**/lessons/broken.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(broken) }));
    // An instructor's lesson is listed in the index, as the README says.
    const index = JSON.parse(readFileSync(new URL('../../www/lessons/index.json', import.meta.url)));
    index.push({ id: 'broken', title: broken.title });
    await context.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
    const page = await context.newPage();
    await page.goto(`${env.url}?panel=evidence&lesson=broken`);
    await page.waitForSelector('body[data-ready="1"]');
    const notice = await page.textContent('#notices');
    assert.match(notice, /lessons\/broken\.json/);
    assert.match(notice, /step 2/);
    assert.match(notice, /“text”/);
    assert.equal(await page.isHidden('#lesson'), true);
    assert.equal(await page.$eval('#panel-select', (el) => el.value), 'evidence');
    await context.close();
  });
});
