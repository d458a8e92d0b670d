// A lesson that stays a lesson: student mode (`lock=1`, as the SCORM packages open) hides the
// panel and lesson menus and the editor, and a lesson's step may fix (`lock`) or hide
// (`hide`) chosen controls and the curve that generated the data (`truth`), for an exercise
// such as "find the noise level". The lesson is served to the page by the test (routed), as a
// lecturer's file beside the built-in ones.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { axeViolations, settled, start, watched } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

const text = (en, zh) => ({ en, zh });
/** The exercise: find the noise level without the true curve; then the answer; then a step
 *  naming a key its panel has no control for. */
const EXERCISE = {
  title: text('Find the noise level', '找出噪声水平'),
  steps: [
    {
      title: text('How noisy?', '噪声多大？'),
      text: text('Estimate σ from the fit.', '由拟合估计 σ。'),
      state: 'panel=fast-rvm&step=26&noise=0.3&seed=4',
      lock: ['seed'],
      hide: ['noise', 'truth'],
    },
    { title: text('The answer', '答案'), text: text('σ was 0.3.', 'σ 为 0.3。'), state: 'panel=fast-rvm&step=26&noise=0.3&seed=4' },
    { title: text('A typo', '笔误'), text: text('…', '……'), state: 'panel=predictive', lock: ['gamma'] },
  ],
};

/** Opens the exercise (listed beside the built-in lessons) at `query`. */
async function openExercise(query) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const index = JSON.parse(readFileSync(new URL('../../www/lessons/index.json', import.meta.url)));
  index.push({ id: 'exercise', title: EXERCISE.title });
  await context.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
  await context.route('**/lessons/exercise.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(EXERCISE) }));
  const page = watched(await context.newPage());
  await page.goto(`${env.url}${query}`);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  return page;
}

/** What the page shows of the truth and the noise: legend entries, readouts, the SVG's
 *  strokes in the truth's colour, the noise and seed controls. */
const shown = (page) =>
  page.evaluate(() => ({
    legend: [...document.querySelectorAll('#legend > span')].map((el) => el.textContent),
    readouts: [...document.querySelectorAll('#readouts dt')].map((el) => el.textContent),
    truthStrokes: (window.rvmLab.state.lab.svg(900, 500, 1).match(/stroke="#009e73"/gi) ?? []).length,
    noise: document.querySelector('.control[data-key="noise"]').hidden,
    seed: document.querySelector('#ctl-seed').disabled,
    seedLocked: document.querySelector('.control[data-key="seed"]').classList.contains('locked'),
  }));

test('student mode: no panel or lesson menu, no editor, no links away; the address keeps it', async () => {
  const page = await openExercise('?lesson=exercise&step=2&lock=1');
  for (const selector of ['#panel-select', '#lesson-select', '#editor-open', '#offline-link', 'label[for=panel-select]']) {
    assert.equal(await page.isVisible(selector), false, `${selector} is shown`);
  }
  for (const selector of ['#lesson-next', '#lesson-prev', '#lang-toggle', '#stage-enter', '#keys-toggle']) {
    assert.equal(await page.isVisible(selector), true, `${selector} is hidden`);
  }
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '3');
  assert.equal(new URL(page.url()).searchParams.get('lock'), '1');
  assert.deepEqual(await axeViolations(page), []);
  // Without lock=1 the same lesson has its menus.
  const free = await openExercise('?lesson=exercise&step=2');
  assert.equal(await free.isVisible('#panel-select'), true);
  assert.deepEqual([...page.consoleErrors, ...free.consoleErrors], []);
  await page.context().close();
  await free.context().close();
});

test('a step that hides the noise and the true curve, and locks the seed; the next step frees them', async () => {
  const page = await openExercise('?lesson=exercise&step=1');
  const exercise = await shown(page);
  assert.equal(exercise.noise, true, 'the noise control is hidden');
  assert.equal(exercise.seed, true, 'the seed is fixed');
  assert.equal(exercise.seedLocked, true);
  assert.ok(!exercise.legend.includes('sin 2πx'), exercise.legend.join());
  assert.ok(!exercise.readouts.includes('True noise σ'), exercise.readouts.join());
  assert.equal(exercise.truthStrokes, 0, 'the true curve is drawn');
  // Nor does the page offer the chart's numbers (its data table, its CSV), which hold it.
  assert.equal(await page.isVisible('#plotted'), false, 'the data table is offered');
  assert.equal(await page.isVisible('#export-plotted'), false, 'the plotted data are offered');
  await page.click('#lesson-next');
  await page.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 3');
  await settled(page);
  const answer = await shown(page);
  assert.equal(answer.noise, false);
  assert.equal(answer.seed, false);
  assert.ok(answer.legend.includes('sin 2πx'), answer.legend.join());
  assert.ok(answer.readouts.includes('True noise σ'), answer.readouts.join());
  assert.ok(answer.truthStrokes > 0, 'the true curve is back');
  assert.equal(await page.isVisible('#plotted'), true);
  assert.equal(await page.inputValue('#ctl-noise'), '0.3');
  // A key its panel has no control for: a notice names the step and the key.
  await page.click('#lesson-next');
  await page.waitForFunction(() => /Step 3 fixes or hides “gamma”/.test(document.querySelector('#notices').textContent));
  // Leaving the lesson for a panel frees everything.
  await page.click('#lesson-prev');
  await page.click('#lesson-prev');
  await page.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 1 of 3');
  await settled(page);
  assert.equal((await shown(page)).noise, true);
  await page.selectOption('#lesson-select', '');
  await page.waitForFunction(() => document.querySelector('#lesson').hidden);
  await settled(page);
  const free = await shown(page);
  assert.equal(free.noise, false);
  assert.ok(free.truthStrokes > 0);
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});
