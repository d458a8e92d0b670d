// The benchmark page runs in Chromium and reports every case (figures are read by people,
// never asserted: tests do not time things).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

test('bench.html times the evidence surface, the panels, the fast RVM and the fast classifier', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.url}bench.html`);
  await page.waitForSelector('body[data-done]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('body', 'data-done'), '1', await page.textContent('#json'));
  const results = JSON.parse(await page.textContent('#json'));
  assert.deepEqual(Object.keys(results).length, 15);
  assert.ok(results['design formula N=1000 M=50'] && results['design gaussian N=1000 M=50'], 'the formula design cases');
  for (const [name, { median, runs }] of Object.entries(results)) {
    assert.ok(Number.isFinite(median) && median >= 0 && runs >= 5, `${name}: ${median} ms over ${runs} runs`);
  }
  // The RVM cases of benches/rvm.rs: each a positive time, and the fit it timed.
  for (const n of [100, 500, 1000, 2000]) {
    const entry = results[`fast RVM to convergence, sinc N=${n}, M=${n + 1}`];
    assert.ok(entry, `no fast RVM entry for N=${n}: ${Object.keys(results)}`);
    assert.ok(Number.isFinite(entry.median) && entry.median > 0, `N=${n}: ${entry.median} ms`);
    assert.ok(entry.relevant >= 1 && entry.relevant <= n + 1, `N=${n}: ${entry.relevant} relevance vectors`);
    assert.ok(Number.isFinite(entry.log_marginal_likelihood) && entry.steps > 0 && entry.converged, `N=${n}`);
  }
  // The classifier cases: the fit each timed, sparse and accurate on Ripley's data.
  for (const n of [100, 200, 400]) {
    const entry = results[`fast RVM classifier to convergence, two-class N=${n}, M=${n + 1}`];
    assert.ok(entry, `no classifier entry for N=${n}: ${Object.keys(results)}`);
    assert.ok(entry.relevant >= 1 && entry.relevant <= 20, `N=${n}: ${entry.relevant} relevance vectors`);
    assert.ok(entry.accuracy > 0.85 && entry.steps > 0, `N=${n}: accuracy ${entry.accuracy}`);
  }
  assert.ok(results['classification panel redraw (200x200 map), N=200, last step'], 'no map redraw entry');
  const design = results['kernel design N=2000, M=2001'];
  assert.ok(design && Number.isFinite(design.median) && design.median > 0, `design: ${design?.median} ms`);
  await page.context().close();
});
