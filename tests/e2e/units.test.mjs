// One answer in any units, in the page: the fast-RVM panel on its own data pasted back in
// other units — the targets times c, or the inputs times c with the kernel's width — runs the
// same steps to the same relevance vectors, with β times 1/c², ln p(t|α,β) shifted by −N ln c
// and the relevance vectors' places times c (the same picture with other axis numbers).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, settled, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Pastes `rows` ([x, t]) as the panel's data, with kernel width `s`, and goes to the run's
 *  last step; returns its readouts (full precision) and the relevance vectors' x and t. */
async function fitOf(page, rows, s) {
  await page.fill('#ctl-s', String(s));
  await page.press('#ctl-s', 'Enter');
  await page.fill('#csv-text', rows.map(([x, t]) => `${x},${t}`).join('\n'));
  await page.click('#csv button[type=submit]');
  await settled(page);
  const last = await page.evaluate(() => window.rvmLab.state.lab.report().readouts.find((r) => r.key === 'steps-to-converge').value);
  await page.fill('#ctl-step', String(last));
  await page.press('#ctl-step', 'Enter');
  await settled(page);
  return page.evaluate(() => {
    const report = window.rvmLab.state.lab.report();
    const readouts = Object.fromEntries(report.readouts.map((r) => [r.key, r.value]));
    // The chart's circled points: (x, t) pairs.
    const rvs = window.rvmLab.state.lab.plotted().find((t) => t.caption.key === 'legend.relevance-vectors');
    const values = rvs ? [...rvs.values] : [];
    return { readouts, x: values.filter((_, i) => i % 2 === 0), t: values.filter((_, i) => i % 2 === 1) };
  });
}

test('the fast-RVM panel on its data in other units: the same run, in those units', async () => {
  const page = await open(env, '?panel=fast-rvm&N=40&seed=3');
  const rows = (await page.evaluate(() => window.rvmLab.state.lab.exportCsv()))
    .trim()
    .split('\n')
    .filter((line) => /^-?[\d.]/.test(line))
    .map((line) => line.split(',').map(Number));
  assert.equal(rows.length, 40);
  const n = rows.length;
  const want = await fitOf(page, rows, 0.1);
  assert.ok(want.readouts['relevance-vectors'] >= 3, JSON.stringify(want.readouts));
  // The bias may be among them; every other relevance vector sits at a data point.
  assert.ok(want.x.length >= want.readouts['relevance-vectors'] - 1 && want.x.length > 0, JSON.stringify(want.x));
  for (const [cx, ct] of [[1, 1e-9], [1, 1e7], [1e4, 1], [1e-3, 1e5]]) {
    const got = await fitOf(page, rows.map(([x, t]) => [x * cx, t * ct]), 0.1 * cx);
    const label = `x × ${cx}, t × ${ct}`;
    for (const key of ['steps-to-converge', 'relevance-vectors']) assert.equal(got.readouts[key], want.readouts[key], `${label}: ${key}`);
    const near = (a, b) => Math.abs(a - b) <= 1e-7 * Math.max(Math.abs(a), Math.abs(b));
    assert.ok(near(got.readouts['noise-precision'] * ct * ct, want.readouts['noise-precision']), `${label}: β·c²`);
    assert.ok(Math.abs(got.readouts['log-ml'] + n * Math.log(ct) - want.readouts['log-ml']) < 1e-6 * (1 + n * Math.abs(Math.log(ct))), `${label}: L + N ln c`);
    assert.equal(got.x.length, want.x.length, `${label}: relevance vectors`);
    got.x.forEach((x, i) => assert.ok(near(x / cx, want.x[i]) && near(got.t[i] / ct, want.t[i]), `${label}: relevance vector ${i} at ${x}`));
  }
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('numbers in messages, permalinks and saved data are compact, in both languages', async () => {
  const page = await open(env, '?panel=predictive');
  for (const [lang, words] of [['en', /β must be between −1e50 and 1e50, but is -1e308/], ['zh', /β 必须在 −1e50 到 1e50 之间，当前为 -1e308/]]) {
    if (lang === 'zh') {
      await page.click('#lang-toggle');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    }
    await page.fill('#ctl-beta', '-1e308');
    await page.press('#ctl-beta', 'Enter');
    await page.waitForSelector('#err-beta:not(:empty)');
    const message = await page.textContent('#err-beta');
    assert.match(message, words);
    assert.doesNotMatch(message, /0{20}/, 'no run of digits');
  }
  // Pasted data far from 1 travel in the permalink and in saved data as written.
  await page.fill('#csv-text', '0.25,3e20\n0.75,-4.5e-9');
  await page.click('#csv button[type=submit]');
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('points') ?? '').includes('3e20'));
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('points')), '0.25:3e20,0.75:-4.5e-9');
  assert.match(await page.evaluate(() => window.rvmLab.state.lab.exportCsv()), /^x,t\n0\.25,3e20\n0\.75,-4\.5e-9\n$/);
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});
