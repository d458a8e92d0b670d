// Embedding from a sub-path of a static host: the share box gives the permalink and an
// iframe snippet, the snippet loads the panel in another page, and embed.html mounts
// several panels with the JS module; nothing is fetched from anywhere but the lab's host.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, start } from './browser.mjs';

let env;
before(async () => {
  env = await start({ base: '/course/rvm-lab/' });
});
after(async () => {
  await env?.close();
});

/** Waits until the lab page in `frame` has drawn its panel; returns its panel title. */
async function frameReady(frame) {
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
  await frame.waitForFunction(() => Number(document.querySelector('#chart')?.dataset.draws ?? 0) >= 1);
  return frame.evaluate(() => document.body.classList.contains('embed'));
}

test('the share box gives the permalink and an iframe snippet that loads in another page', async () => {
  const page = await open(env, '?panel=sparsity&alpha=2');
  assert.ok(page.url().startsWith(`${env.url}`) && env.url.includes('/course/rvm-lab/'));
  await page.click('#share-toggle');
  assert.equal(await page.getAttribute('#share-toggle', 'aria-expanded'), 'true');
  assert.equal(await page.inputValue('#share-link'), page.url());
  const snippet = await page.inputValue('#share-iframe');
  assert.match(snippet, /^<iframe src="[^"]+embed=1[^"]*" title="RVM Lab: /);
  // Another page (a course page) holding just the snippet.
  const course = await page.context().newPage();
  await course.goto(`${env.url}embed.html`);
  await course.setContent(`<h1>Course</h1>${snippet}`);
  const frame = await (await course.waitForSelector('iframe')).contentFrame();
  assert.equal(await frameReady(frame), true, 'the panel knows it is embedded');
  assert.equal(await frame.inputValue('#ctl-alpha'), '2', 'the state travels with the snippet');
  await page.context().close();
});

test('embed.html mounts three panels from a sub-path, each sized to its content', async () => {
  // `open` records every request the page and its frames make.
  const page = await open(env, '');
  await page.goto(`${env.url}embed.html`);
  const frames = await page.$$('iframe');
  assert.equal(frames.length, 3);
  for (const handle of frames) {
    assert.equal(await frameReady(await handle.contentFrame()), true);
  }
  // Heights follow the panels (posted by each embedded page), not the 560 px default.
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height !== '560px'));
  const zh = await frames[2].contentFrame();
  assert.equal(await zh.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.ok(page.requests.every((url) => url.startsWith(env.url) || url.startsWith('data:')), page.requests.join('\n'));
  await page.context().close();
});
