// The multiclass RVM panel (softmax over three classes in the plane, PRML 7.120–7.122) in
// Chromium: the background sweeps finish and the player steps through them, a permalink
// opens at its sweep whatever the order of its keys (and so do the other stepping panels),
// the converged fit on the triangle layout (few relevance vectors, high training accuracy,
// the map tinted in each class's colour around its centre), placing a point of a chosen
// class restarts the run, typing a sweep or choosing the class of the next point keeps
// the sweeps computed so far, and the Chinese strings.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';

const STRINGS = { en, zh };
import { canvasHash, draws, open, screenPoint, settled, start, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** N of the default data (`?panel=multiclass` with no N): 90 points, so N + 1 basis functions with the bias. */
const N = 90;
const CLASSES = 3;

const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);
const readouts = (page) => page.$$eval('#readouts dd', (dds) => dds.map((dd) => [dd.dataset.key, dd.textContent]));
const query = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
const progress = (page) => page.$eval('#progress', (p) => [p.value, p.max]);
const pointLabels = (page) => page.$$eval('#add-point label > span', (spans) => spans.map((s) => s.textContent));

/** Waits for the first fit of new data: made in the background, the data drawn meanwhile. */
const firstFit = (page) => page.waitForSelector('#readouts dd[data-key="sweep"]');

/** Waits until the background run (sweeps, or the comparison methods) has finished. */
async function runFinished(page) {
  await page.waitForFunction(() => document.querySelector('#working').hidden, null, { timeout: 120000 });
  await settled(page);
}

/** Opens `q` and waits for the background run to finish. */
async function openFinished(q) {
  const page = await open(env, q);
  await runFinished(page);
  return page;
}

/** Shows sweep `k` by typing it into the step box; waits for the redraw. */
async function showStep(page, k) {
  const n = await draws(page);
  await page.fill('#ctl-step', String(k));
  await page.press('#ctl-step', 'Enter');
  await page.waitForFunction((s) => new URLSearchParams(location.search).get('step') === s, String(k));
  await waitForDraws(page, n + 1);
  await settled(page);
}

/**
 * The per-channel median [r, g, b] of the 11 × 11 canvas pixels around the data point
 * (x, y): the shade of the map there, not the thin data markers or rings drawn over it.
 */
async function shadeAt(page, x, y) {
  const at = await screenPoint(page, x, y);
  return page.evaluate(([sx, sy]) => {
    const canvas = document.querySelector('#chart');
    const box = canvas.getBoundingClientRect();
    const px = Math.round(((sx - box.left) * canvas.width) / box.width);
    const py = Math.round(((sy - box.top) * canvas.height) / box.height);
    const data = canvas.getContext('2d').getImageData(px - 5, py - 5, 11, 11).data;
    const channels = [[], [], []];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c += 1) channels[c].push(data[i + c]);
    return channels.map((values) => values.sort((a, b) => a - b)[values.length >> 1]);
  }, [at.x, at.y]);
}

describe('panel multiclass', () => {
  test('the background sweeps finish; sweep 0 has every basis function; Step and Step back move one sweep', async () => {
    const page = await openFinished('?panel=multiclass');
    assert.equal(await page.isHidden('#working'), true);
    const [shown, total] = await progress(page);
    assert.equal(shown, 0);
    assert.ok(total > 5, `${total} sweeps`);
    assert.equal(await query(page, 'step'), '0');
    assert.equal(await readout(page, 'sweep'), '0');
    // Sweep 0: every kernel and the bias, each with one weight per class.
    assert.equal(await readout(page, 'relevance-vectors'), String(N + 1));
    assert.equal(await readout(page, 'active-weights'), String(CLASSES * (N + 1)));
    const atZero = await readouts(page);

    let n = await draws(page);
    await page.click('#step');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '1');
    await waitForDraws(page, n + 1);
    assert.equal(await readout(page, 'sweep'), '1');
    assert.equal(await page.inputValue('#ctl-step'), '1');
    assert.deepEqual(await progress(page), [1, total], 'stepping does not change the number of sweeps');
    assert.notEqual(await readout(page, 'laplace-log-ml'), atZero.find(([k]) => k === 'laplace-log-ml')[1], 'sweep 1 is another fit');

    n = await draws(page);
    await page.click('#back');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '0');
    await waitForDraws(page, n + 1);
    assert.deepEqual(await readouts(page), atZero, 'back at sweep 0, the same numbers');
    assert.deepEqual(await progress(page), [0, total]);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a permalink with step before the data opens at that sweep, the same view as with step after', async () => {
    const k = 20;
    const page = await openFinished(`?panel=multiclass&step=${k}&layout=bands`);
    assert.equal(await query(page, 'layout'), 'bands');
    assert.equal(await page.inputValue('#ctl-layout'), 'bands');
    assert.equal(await readout(page, 'sweep'), String(k));
    assert.equal(await query(page, 'step'), String(k), 'the URL keeps the step');
    assert.equal(await page.inputValue('#ctl-step'), String(k));
    const [shown, total] = await progress(page);
    assert.equal(shown, k);
    assert.ok(total > k, `${total} sweeps`);
    assert.ok(Number(await readout(page, 'relevance-vectors')) < N + 1, 'sweep 20 has pruned basis functions');
    assert.equal(await page.$$eval('#notices li', (items) => items.length), 0, 'no notice');

    // The same state with the keys in the other order: the same numbers and pixels.
    const other = await openFinished(`?panel=multiclass&layout=bands&step=${k}`);
    assert.deepEqual(await readouts(other), await readouts(page));
    assert.equal(await canvasHash(other), await canvasHash(page));
    assert.deepEqual([...page.consoleErrors, ...other.consoleErrors], []);
    await page.context().close();
    await other.context().close();
  });

  test('the other stepping panels open a permalink at its step whatever the order of the keys', async () => {
    for (const [q, k, key, value] of [
      ['?panel=fast-rvm&step=9&N=40', 9, 'N', '40'],
      ['?panel=classification&step=7&seed=3', 7, 'seed', '3'],
    ]) {
      const page = await openFinished(q);
      assert.equal(await readout(page, 'step'), String(k), q);
      assert.equal(await query(page, 'step'), String(k), q);
      assert.equal((await progress(page))[0], k, q);
      assert.equal(await query(page, key), value, q);
      assert.equal(await page.inputValue(`#ctl-${key}`), value, q);
      assert.deepEqual(page.consoleErrors, [], q);
      await page.context().close();
    }
  });

  test('the last sweep on the triangle layout: few relevance vectors, accuracy ≥ 0.9, three tinted regions', async () => {
    const page = await openFinished('?panel=multiclass');
    assert.equal(await query(page, 'layout'), 'triangle');
    const total = (await progress(page))[1];
    await showStep(page, total);
    assert.equal(await readout(page, 'sweep'), String(total));
    assert.deepEqual(await progress(page), [total, total]);
    const accuracy = Number(await readout(page, 'accuracy'));
    assert.ok(accuracy >= 0.9 && accuracy <= 1, `training accuracy ${accuracy}`);
    const relevant = Number(await readout(page, 'relevance-vectors'));
    assert.ok(relevant >= 1 && relevant <= 15, `${relevant} relevance vectors`);
    const active = Number(await readout(page, 'active-weights'));
    assert.ok(active >= relevant && active <= 20, `${active} active weights for ${relevant} relevance vectors`);
    assert.equal(await page.$$eval('#messages li.warning', (items) => items.length), 0, 'converged: no warning');

    // The centres of the three blobs, in data coordinates.
    const [r0, g0, b0] = await shadeAt(page, 0, 0.55);
    assert.ok(b0 > r0 + 30, `class 0 at (0, 0.55) should be blue: rgb ${r0}, ${g0}, ${b0}`);
    const [r1, g1, b1] = await shadeAt(page, -0.5, -0.3);
    assert.ok(r1 > b1 + 30, `class 1 at (−0.5, −0.3) should be orange: rgb ${r1}, ${g1}, ${b1}`);
    const [r2, g2, b2] = await shadeAt(page, 0.5, -0.3);
    assert.ok(g2 > r2 + 30 && g2 > b2, `class 2 at (0.5, −0.3) should be green: rgb ${r2}, ${g2}, ${b2}`);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a click places a point of the chosen class and the run starts again at sweep 0', async () => {
    const page = await openFinished('?panel=multiclass&step=10');
    assert.equal(await readout(page, 'sweep'), '10');
    const relevantAt10 = await readout(page, 'relevance-vectors');
    assert.deepEqual(await pointLabels(page), ['x₁', 'x₂']);
    await page.selectOption('#ctl-class', '2');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('class') === '2');
    assert.equal(await query(page, 'step'), '10', 'choosing the class alone keeps the sweep');
    assert.equal(await readout(page, 'sweep'), '10');
    assert.equal(await readout(page, 'relevance-vectors'), relevantAt10, 'the same data, the same fit');

    // Top right of the map, away from the data.
    const [x, y] = [0.8, 1.0];
    const at = await screenPoint(page, x, y);
    let n = await draws(page);
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('points'));
    await waitForDraws(page, n + 1);
    await firstFit(page);
    const [px, py, pc] = (await query(page, 'points')).split(':');
    assert.ok(Math.abs(Number(px) - x) < 0.01 && Math.abs(Number(py) - y) < 0.01, `placed at (${px}, ${py}), clicked (${x}, ${y})`);
    assert.equal(pc, '2');
    assert.equal(await query(page, 'step'), '0');
    assert.equal(await readout(page, 'sweep'), '0');
    assert.equal(await readout(page, 'relevance-vectors'), String(N + 2));
    assert.equal(await readout(page, 'active-weights'), String(CLASSES * (N + 2)));

    // The run on the new data finishes too.
    await runFinished(page);
    assert.equal(await readout(page, 'sweep'), '0', 'the background run does not move the sweep shown');
    assert.ok((await progress(page))[1] > 5);

    // The keyboard path: x₁ in `x`, x₂ in `t`, the same class.
    await page.fill('#add-point input[name=x]', '-1');
    await page.fill('#add-point input[name=t]', '1');
    n = await draws(page);
    await page.click('#add-point button[type=submit]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('points')?.split(',').length === 2);
    await waitForDraws(page, n + 1);
    await firstFit(page);
    assert.equal((await query(page, 'points')).split(',')[1], '-1:1:2');
    assert.equal(await readout(page, 'relevance-vectors'), String(N + 3));
    assert.equal(await page.textContent('#err-add-point'), '');
    assert.deepEqual(await pointLabels(page), ['x₁', 'x₂']);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test(
    'typing a sweep or choosing the class keeps the sweeps computed so far',
    async () => {
      const page = await openFinished('?panel=multiclass');
      const total = (await progress(page))[1];
      let n = await draws(page);
      await page.fill('#ctl-step', '40');
      await page.press('#ctl-step', 'Enter');
      await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '40');
      await waitForDraws(page, n + 1);
      assert.equal(await readout(page, 'sweep'), '40', 'the first redraw shows the sweep typed');
      assert.deepEqual(await progress(page), [40, total], 'no sweep is thrown away');
      n = await draws(page);
      await page.selectOption('#ctl-class', '2');
      await page.waitForFunction(() => new URLSearchParams(location.search).get('class') === '2');
      await waitForDraws(page, n + 1);
      assert.equal(await readout(page, 'sweep'), '40');
      assert.deepEqual(await progress(page), [40, total]);
      await page.context().close();
    },
  );

  test('lang=zh shows the Chinese strings', async () => {
    const page = await open(env, '?panel=multiclass&lang=zh');
    assert.notEqual(zh['panel.multiclass'], STRINGS.en['panel.multiclass']);
    assert.equal(await page.textContent('#panel-title'), zh['panel.multiclass']);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    const keys = await page.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.dataset.key));
    assert.ok(keys.includes('sweep') && keys.includes('active-weights'), keys.join(' '));
    const terms = await page.$$eval('#readouts dt', (dts) => dts.map((dt) => dt.textContent));
    assert.deepEqual(terms, keys.map((key) => zh[`readout.${key}`]));
    assert.notEqual(zh['readout.sweep'], STRINGS.en['readout.sweep']);
    assert.equal(await page.$eval('#ctl-layout option:checked', (o) => o.textContent), zh['choice.triangle']);
    assert.deepEqual(await pointLabels(page), [zh['control.x1'], zh['control.x2']]);
    // Untranslated keys in both languages: panels.test.mjs checks every panel.
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});
