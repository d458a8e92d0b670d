// Export and comfort: the chart saved as PNG decodes to the canvas's size, the page follows
// the system's dark mode with the charts as light cards, and every button and form field
// of a panel has an accessible name.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { open, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

test('Save as PNG downloads a PNG of the chart as drawn', async () => {
  const page = await open(env, '?panel=classification&step=10');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.equal(download.suggestedFilename(), 'rvm-lab-classification.png');
  const bytes = await readFile(await download.path());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  const size = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  assert.deepEqual(size, await page.$eval('#chart', (c) => [c.width, c.height]));
  await page.context().close();
});

test('dark mode: a dark page, the chart a light card', async () => {
  const context = await env.browser.newContext({ colorScheme: 'dark', viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.url}?panel=predictive`);
  await page.waitForSelector('body[data-ready="1"]');
  const [body, canvas] = await page.evaluate(() => [
    getComputedStyle(document.documentElement).backgroundColor,
    getComputedStyle(document.querySelector('#chart')).backgroundColor,
  ]);
  const brightness = (css) => css.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
  assert.ok(brightness(body) < 60, `page background ${body}`);
  assert.ok(brightness(canvas) > 240, `chart background ${canvas}`);
  await context.close();
});

test('every button and field of the fast-RVM panel has an accessible name', async () => {
  const page = await open(env, '?panel=fast-rvm');
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, input, select, textarea')]
      .filter((el) => !el.closest('[hidden]') && el.type !== 'hidden')
      .filter((el) => {
        const by = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
        const labelledBy = by.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
        const label = el.labels?.[0]?.textContent.trim() || el.getAttribute('aria-label') || labelledBy || el.textContent.trim();
        return !label;
      })
      .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  await page.context().close();
});

test('CSV: a bad row is reported by line and the data stay; good rows replace them; export and drop', async () => {
  const page = await open(env, '?panel=predictive&N=5');
  const url = page.url();
  const draws = () => page.$eval('#chart', (c) => Number(c.dataset.draws));
  let n = await draws();
  await page.fill('#csv-text', 'x,t\n0.1,0.3\n0.5,-0.2\n0.9;two\n');
  await page.click('#csv button[type=submit]');
  await page.waitForSelector('#err-csv:not(:empty)');
  assert.match(await page.textContent('#err-csv'), /^line 4 \(0\.9;two\) is not a row of x, t/);
  assert.equal(page.url(), url, 'the data stay');
  assert.equal(await draws(), n, 'the plot stays');
  await page.fill('#csv-text', 'x,t\n0.1,0.3\n0.5,-0.2\n0.9,0.4\n');
  await page.click('#csv button[type=submit]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('N') === '0');
  assert.equal(await page.textContent('#err-csv'), '');
  assert.equal(new URL(page.url()).searchParams.get('points'), '0.1:0.3,0.5:-0.2,0.9:0.4');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv-export')]);
  assert.equal(await readFile(await download.path(), 'utf8'), 'x,t\n0.1,0.3\n0.5,-0.2\n0.9,0.4\n');
  // A file dropped on the chart.
  n = await draws();
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['0.2,0.1\n0.4,0.2\n'], 'points.csv', { type: 'text/csv' }));
    document.querySelector('#canvas-box').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('points') === '0.2:0.1,0.4:0.2');
  assert.ok((await draws()) > n);
  await page.context().close();
});
