// The RVM classification panel (PRML Fig 7.12) in Chromium: stepping through the fast
// classifier and back, the converged run on Ripley's data (few relevance vectors, high
// training accuracy), the p(C₁|x) map tinted by class, placing points of a chosen class by
// click and by the form, the xor layout, the Chinese strings, and the classic comparison
// finishing in the background.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';

const STRINGS = { en, zh };
import { draws, open, query, readout, screenPoint, settled, start, tableRows as rows, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const pointLabels = (page) => page.$$eval('#add-point label > span', (spans) => spans.map((s) => s.textContent));

/** Shows step `k` by typing it into the step box; waits for the redraw. */
async function showStep(page, k) {
  const n = await draws(page);
  await page.fill('#ctl-step', String(k));
  await page.press('#ctl-step', 'Enter');
  await page.waitForFunction((s) => new URLSearchParams(location.search).get('step') === s, String(k));
  await waitForDraws(page, n + 1);
  await settled(page);
}

/** The data point at fractions (fx, fy) of the map's plotting area (0, 0: bottom left). */
function dataAt(page, fx, fy) {
  return page.evaluate(
    ([fx, fy]) => {
      const a = window.rvmLab.state.lab.plotArea();
      return [a.x_range[0] + fx * (a.x_range[1] - a.x_range[0]), a.y_range[0] + fy * (a.y_range[1] - a.y_range[0])];
    },
    [fx, fy],
  );
}

/** Mean [r, g, b] of the 5 × 5 canvas pixels around the data point (x, y). */
async function colourAt(page, x, y) {
  const at = await screenPoint(page, x, y);
  return page.evaluate(([sx, sy]) => {
    const canvas = document.querySelector('#chart');
    const box = canvas.getBoundingClientRect();
    const px = Math.round(((sx - box.left) * canvas.width) / box.width);
    const py = Math.round(((sy - box.top) * canvas.height) / box.height);
    const data = canvas.getContext('2d').getImageData(px - 2, py - 2, 5, 5).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c += 1) sum[c] += data[i + c];
    return sum.map((v) => v / 25);
  }, [at.x, at.y]);
}

describe('panel classification', () => {
  test('opens at step 0 with one relevance vector; Step and Step back move one step', async () => {
    const page = await open(env, '?panel=classification&step=0');
    assert.equal(await readout(page, 'step'), '0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    const log = await rows(page, 0);
    assert.equal(log.length, 1, 'only step 0 so far');
    assert.deepEqual(log[0].slice(0, 2), ['0', 'add'], 'step 0 is the initial addition');
    const n = await draws(page);
    await page.click('#step');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '1');
    await waitForDraws(page, n + 1);
    const [newest] = await rows(page, 0);
    assert.equal(newest[0], '1', 'the newest row is step 1');
    assert.equal(await readout(page, 'step'), '1');
    assert.equal(await page.inputValue('#ctl-step'), '1');
    assert.equal(await page.$eval('#progress', (p) => p.value), 1);
    await page.click('#back');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '0');
    await waitForDraws(page, n + 2);
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    assert.deepEqual((await rows(page, 0)).map((r) => r[0]), ['0']);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the last step: few relevance vectors, training accuracy ≥ 0.9 on Ripley’s data, converged', async () => {
    const page = await open(env, '?panel=classification');
    const total = await page.$eval('#progress', (p) => p.max);
    assert.equal(await readout(page, 'steps-to-converge'), String(total));
    assert.ok(total > 1, `${total} steps`);
    await page.goto(`${env.url}?panel=classification&step=${total}`);
    await page.waitForSelector('body[data-ready="1"]');
    await waitForDraws(page, 1);
    await settled(page);
    assert.equal(await readout(page, 'step'), String(total));
    assert.equal(await page.$eval('#progress', (p) => p.value), total);
    const relevant = Number(await readout(page, 'relevance-vectors'));
    assert.ok(relevant >= 2 && relevant <= 10, `${relevant} relevance vectors`);
    const accuracy = Number(await readout(page, 'accuracy'));
    assert.ok(accuracy >= 0.9 && accuracy <= 1, `training accuracy ${accuracy}`);
    const [last] = await rows(page, 0);
    assert.deepEqual(last.slice(0, 2), [String(total), 'converged']);
    const [fast] = await rows(page, 1);
    assert.equal(fast[4], String(relevant), 'the method table counts the same relevance vectors');
    assert.equal(await page.$$eval('#messages li.warning', (items) => items.length), 0, 'no warning');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the map is tinted by the more probable class, and follows the step shown', async () => {
    const page = await open(env, '?panel=classification&step=0');
    // Upper middle: class 0 (blue, around x₂ = 0.7); lower left: class 1 (vermilion, around x₂ = 0.3).
    const upper = await dataAt(page, 0.5, 0.9);
    const lowerLeft = await dataAt(page, 0.1, 0.15);
    // Step 0 has one kernel, on a class-0 point: p(C₁|x) ≤ ½ everywhere, so nothing is vermilion.
    const [r0, , b0] = await colourAt(page, ...lowerLeft);
    assert.ok(b0 >= r0, `lower left at step 0: rgb ${r0}, …, ${b0}`);
    await showStep(page, await page.$eval('#progress', (p) => p.max));
    const [ru, , bu] = await colourAt(page, ...upper);
    assert.ok(bu > ru + 30, `upper part (${upper}) should be blue: r ${ru}, b ${bu}`);
    const [rl, , bl] = await colourAt(page, ...lowerLeft);
    assert.ok(rl > bl + 30, `lower left (${lowerLeft}) should be vermilion: r ${rl}, b ${bl}`);
    await page.context().close();
  });

  test('a click places a point of the chosen class and restarts the run; so does the form', async () => {
    const page = await open(env, '?panel=classification&step=20');
    assert.deepEqual(await pointLabels(page), ['x₁', 'x₂']);
    await page.selectOption('#ctl-class', '1');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('class') === '1');
    assert.equal(await query(page, 'step'), '20', 'choosing the class alone keeps the step');
    const [x, y] = await dataAt(page, 0.5, 0.9);
    const at = await screenPoint(page, x, y);
    let n = await draws(page);
    await page.mouse.click(at.x, at.y);
    await waitForDraws(page, n + 1);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('points'));
    const [px, py, pc] = (await query(page, 'points')).split(':');
    assert.ok(Math.abs(Number(px) - x) < 0.01 && Math.abs(Number(py) - y) < 0.01, `placed at (${px}, ${py}), clicked (${x}, ${y})`);
    assert.equal(pc, '1');
    assert.equal(await query(page, 'step'), '0');
    assert.equal(await readout(page, 'step'), '0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');

    // The keyboard path: two steps on, then the form (x₁ in `x`, x₂ in `t`).
    await page.click('#step');
    await page.click('#step');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '2');
    await page.fill('#add-point input[name=x]', '-1');
    await page.fill('#add-point input[name=t]', '-0.5');
    n = await draws(page);
    await page.click('#add-point button[type=submit]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('points')?.split(',').length === 2);
    await waitForDraws(page, n + 1);
    assert.equal((await query(page, 'points')).split(',')[1], '-1:-0.5:1');
    assert.equal(await query(page, 'step'), '0', 'the form restarts the run as a click does');
    assert.equal(await readout(page, 'step'), '0');
    assert.equal(await page.textContent('#err-add-point'), '');

    // The form's labels follow the panel.
    n = await draws(page);
    await page.selectOption('#panel-select', 'fast-rvm');
    await waitForDraws(page, n + 1);
    assert.deepEqual(await pointLabels(page), ['x', 't']);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the xor layout is recomputed and still learnt', async () => {
    const page = await open(env, '?panel=classification');
    const ripleyTotal = await readout(page, 'steps-to-converge');
    const n = await draws(page);
    await page.selectOption('#ctl-layout', 'xor');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('layout') === 'xor');
    await waitForDraws(page, n + 1);
    await settled(page);
    assert.equal(await query(page, 'step'), '0', 'new data: the run starts again');
    const total = await page.$eval('#progress', (p) => p.max);
    assert.equal(await readout(page, 'steps-to-converge'), String(total));
    assert.notEqual(String(total), ripleyTotal, 'a different run');
    await showStep(page, total);
    const accuracy = Number(await readout(page, 'accuracy'));
    assert.ok(accuracy >= 0.85, `training accuracy ${accuracy} on xor`);
    const [last] = await rows(page, 0);
    assert.deepEqual(last.slice(0, 2), [String(total), 'converged']);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('lang=zh shows the Chinese strings', async () => {
    const page = await open(env, '?panel=classification&lang=zh');
    assert.notEqual(zh['panel.classification'], STRINGS.en['panel.classification']);
    assert.equal(await page.textContent('#panel-title'), zh['panel.classification']);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    const terms = await page.$$eval('#readouts dt', (dts) => dts.map((dt) => dt.textContent));
    assert.ok(terms.includes(zh['readout.accuracy']), terms.join(' | '));
    const [, methods] = await page.$$eval('#tables table caption', (cs) => cs.map((c) => c.textContent));
    assert.equal(methods, zh['table.classifier-methods']);
    assert.deepEqual(await pointLabels(page), [zh['control.x1'], zh['control.x2']]);
    // Untranslated keys in both languages: panels.test.mjs checks every panel.
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the classic re-estimation finishes in the background at the fast method’s L', async () => {
    const page = await open(env, '?panel=classification');
    await page.waitForFunction(() => document.querySelector('#working').hidden, null, { timeout: 60000 });
    await settled(page);
    const methods = await rows(page, 1);
    assert.deepEqual(
      methods.map((r) => r[0]),
      [STRINGS.en['cell.fast'], STRINGS.en['cell.classic']],
    );
    const [fast, classic] = methods;
    assert.equal(fast[5], 'yes');
    assert.equal(classic[5], 'yes');
    assert.ok(Number(classic[1]) > 0, `${classic[1]} sweeps`);
    const [lFast, lClassic] = [Number(fast[3]), Number(classic[3])];
    assert.ok(Number.isFinite(lFast) && Number.isFinite(lClassic), `L ${fast[3]} and ${classic[3]}`);
    assert.ok(Math.abs(lFast - lClassic) < 1, `L ${lFast} and ${lClassic}`);
    await page.context().close();
  });
});
