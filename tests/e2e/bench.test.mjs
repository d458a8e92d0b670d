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

test('bench.html times the evidence surface and the panel', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.url}bench.html`);
  await page.waitForSelector('body[data-done]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('body', 'data-done'), '1', await page.textContent('#json'));
  const results = JSON.parse(await page.textContent('#json'));
  assert.deepEqual(Object.keys(results).length, 4);
  for (const [name, { median, runs }] of Object.entries(results)) {
    assert.ok(Number.isFinite(median) && median >= 0 && runs >= 5, `${name}: ${median} ms over ${runs} runs`);
  }
  await page.context().close();
});
