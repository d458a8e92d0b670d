// The Poisson RVM panel in Chromium: stepping through the fast run on counts and back, the
// converged run on the seeded counts (few relevance vectors, the mean deviance), a click and
// the form adding a whole count and restarting the run, data by hand (a dragged count lands on
// a whole number, arrow keys step it by 1, a double-click removes one, undo), a bad count in
// CSV named by its line, a permalink reproducing the view, both languages (axe-core clean),
// and the classic sweeps finishing in the background.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import zhPoisson from '../../www/strings/zh/poisson.js';
import { axeViolations, canvasHash, draws, open, query, readout, screenPoint, settled, start, tableRows as rows, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});


describe('panel poisson', () => {
  test('opens at step 0 with one relevance vector; Step and Step back move one step; step=k in the URL', async () => {
    const page = await open(env, '?panel=poisson&step=0');
    assert.equal(await page.textContent('#panel-title'), en['panel.poisson']);
    assert.equal(await readout(page, 'step'), '0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    assert.deepEqual((await rows(page, 0))[0].slice(0, 2), ['0', 'add'], 'step 0 is the initial addition');
    const n = await draws(page);
    await page.click('#step');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '1');
    await waitForDraws(page, n + 1);
    assert.equal((await rows(page, 0))[0][0], '1');
    assert.equal(await page.inputValue('#ctl-step'), '1');
    await page.click('#back');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    // The step slider spans the run (55 steps), not the 3000 the setting allows.
    const total = await page.$eval('#progress', (p) => p.max);
    assert.equal(total, 55);
    assert.equal(await page.$eval('#rng-step', (r) => Number(r.max)), total);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the last step: four relevance vectors, converged, the mean deviance read out', async () => {
    const page = await open(env, '?panel=poisson&step=55');
    assert.equal(await readout(page, 'step'), '55');
    assert.equal(await readout(page, 'relevance-vectors'), '4');
    const [last] = await rows(page, 0);
    assert.deepEqual(last.slice(0, 2), ['55', 'converged']);
    const deviance = Number(await readout(page, 'mean-deviance'));
    assert.ok(deviance > 0.5 && deviance < 2, `mean deviance ${deviance}`);
    assert.ok(Number(await readout(page, 'laplace-log-ml')) < -100);
    const summary = await page.textContent('#chart-summary');
    assert.match(summary, /^Step 55 of 55: converged; 4 relevance vectors; the Laplace ln p\(t\|α\) = /);
    assert.equal(await page.$$eval('#messages li.warning', (items) => items.length), 0, 'no warning');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a click adds a whole count and restarts the run; so does the form', async () => {
    const page = await open(env, '?panel=poisson&step=9');
    let n = await draws(page);
    // Where no count lies near (a press on one would hold it instead).
    const at = await screenPoint(page, 0.55, 11.3);
    await page.mouse.click(at.x, at.y);
    await waitForDraws(page, n + 1);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('points'));
    const [x, t] = (await query(page, 'points')).split(':').map(Number);
    assert.ok(Math.abs(x - 0.55) < 0.01, `placed at x = ${x}`);
    assert.equal(t, 11, 'the count clicked at 11.3 is 11');
    assert.equal(await query(page, 'step'), '0');
    assert.equal(await readout(page, 'step'), '0');
    // The keyboard path: the form, a count below zero rounds to 0.
    await page.fill('#add-point input[name=x]', '0.75');
    await page.fill('#add-point input[name=t]', '-0.4');
    n = await draws(page);
    await page.click('#add-point button[type=submit]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('points')?.split(',').length === 2);
    await waitForDraws(page, n + 1);
    assert.equal((await query(page, 'points')).split(',')[1], '0.75:0');
    assert.equal(await page.textContent('#err-add-point'), '');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('data by hand on counts: a dragged count lands on a whole number, the arrow keys step it by 1, a double-click removes one, undo puts it back', async () => {
    const page = await open(env, '?panel=poisson');
    const points = () => page.evaluate(() => window.rvmLab.state.lab.points());
    const start = await points();
    const from = await screenPoint(page, ...start[5]);
    const to = await screenPoint(page, 0.5, 6.4);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 3 });
    await page.mouse.move(to.x, to.y, { steps: 3 });
    await page.mouse.up();
    await settled(page);
    const moved = await points();
    assert.equal(moved.length, start.length, 'no count added');
    assert.ok(Math.abs(moved[5][0] - 0.5) < 0.01, `x = ${moved[5][0]}`);
    assert.equal(moved[5][1], 6, 'dropped at 6.4, the count is 6');
    assert.equal(await query(page, 'step'), '0', 'the run starts again');
    // A double-click on a count removes it; Undo puts it back.
    const other = await screenPoint(page, ...moved[10]);
    await page.mouse.dblclick(other.x, other.y);
    await page.waitForFunction((n) => window.rvmLab.state.lab.points().length === n - 1, start.length);
    await page.click('#undo');
    await page.waitForFunction((n) => window.rvmLab.state.lab.points().length === n, start.length);
    assert.deepEqual((await points())[10], moved[10]);
    // The keyboard path: the count's number, then ↑ in its t field adds one event.
    await page.fill('#point-index', '6');
    await page.focus('#point-y');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => window.rvmLab.state.lab.points()[5][1] === 7);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a count that is not one in CSV is refused naming its line; the data stay', async () => {
    const page = await open(env, '?panel=poisson');
    const before = await canvasHash(page);
    await page.fill('#csv-text', 'x,t\n0.1,3\n0.4,2.5\n');
    await page.click('#csv button[type=submit]');
    await page.waitForSelector('#err-csv:not(:empty)');
    assert.match(await page.textContent('#err-csv'), /^line 3 \(0\.4, 2\.5\) is not a row of x, t: the count t must be a whole number from 0 to 1000000000/);
    assert.equal(await canvasHash(page), before);
    assert.equal(await query(page, 'points'), null);
    await page.fill('#csv-text', 'x,t\n0.1,3\n0.4,2\n0.8,0\n');
    const n = await draws(page);
    await page.click('#csv button[type=submit]');
    await waitForDraws(page, n + 1);
    assert.equal(await query(page, 'points'), '0.1:3,0.4:2,0.8:0');
    assert.equal(await query(page, 'N'), '0');
    await page.context().close();
  });

  test('a permalink reproduces the view', async () => {
    const page = await open(env, '?panel=poisson&s=0.15&N=80&seed=4&points=0.3:9&step=7');
    const link = await page.evaluate(() => location.href);
    const hash = await canvasHash(page);
    const numbers = await page.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.textContent));
    const copy = await open(env, link.slice(link.indexOf('?')));
    assert.equal(await canvasHash(copy), hash);
    assert.deepEqual(await copy.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.textContent)), numbers);
    assert.equal(await readout(copy, 'step'), '7');
    assert.equal(await copy.inputValue('#ctl-N'), '80');
    await page.context().close();
    await copy.context().close();
  });

  test('both languages, no axe-core violation', async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open(env, `?panel=poisson&lang=${lang}`);
      if (lang === 'zh') {
        assert.equal(await page.textContent('#panel-title'), zh['panel.poisson']);
        assert.equal(await page.textContent('#panel-intro'), zhPoisson['panel.poisson.intro']);
        assert.equal(await page.getAttribute('#chart', 'aria-label'), zhPoisson['panel.poisson.chart']);
        const terms = await page.$$eval('#readouts dt', (dts) => dts.map((dt) => dt.textContent));
        assert.ok(terms.includes(zh['readout.mean-deviance']), terms.join(' | '));
        assert.match(await page.textContent('#chart-summary'), /平均泊松偏差/);
      }
      assert.deepEqual(await axeViolations(page), [], lang);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }
  });

  test('the classic sweeps finish in the background, their L beside the fast method’s', async () => {
    const page = await open(env, '?panel=poisson');
    await page.waitForFunction(() => document.querySelector('#working').hidden, null, { timeout: 60000 });
    await settled(page);
    const methods = await rows(page, 1);
    assert.deepEqual(methods.map((r) => r[0]), [en['cell.fast'], en['cell.classic']]);
    const [fast, classic] = methods;
    assert.equal(fast[5], 'yes');
    assert.ok(Number(classic[1]) > 0, `${classic[1]} sweeps`);
    assert.ok(Math.abs(Number(fast[3]) - Number(classic[3])) < 1, `L ${fast[3]} and ${classic[3]}`);
    await page.context().close();
  });
});
