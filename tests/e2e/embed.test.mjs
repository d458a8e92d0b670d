// Embedding from a sub-path of a static host: the share box gives the permalink and an
// iframe snippet, the snippet loads the panel in another page, and embed.html mounts
// several panels with embed.js (as its classic script, embed.global.js), each frame as tall as
// its panel; nothing is fetched from anywhere but the lab's host. embed.html opened from disk
// does the same, its frames opening the single file. (The snippet on a course page of another
// host: share.test.mjs.)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { open, start, watched } from './browser.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

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
  // (The box's module loads when it is first opened.)
  await page.waitForSelector('#share', { state: 'visible' });
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

/** Waits until each frame of `page` has drawn its panel and is as tall as its content (a
 *  frame out of view is brought into it first: a browser lays out no frame of another origin
 *  it does not show, such as a file's); returns whether each knows it is embedded. */
async function framesSized(page) {
  const embedded = [];
  for (const handle of await page.$$('iframe')) {
    await handle.scrollIntoViewIfNeeded();
    const frame = await handle.contentFrame();
    embedded.push(await frameReady(frame));
    await frame.waitForFunction(() => {
      const root = document.documentElement;
      return root.scrollHeight <= root.clientHeight && root.clientHeight - root.getBoundingClientRect().height < 1;
    });
    assert.equal(Math.round((await handle.boundingBox()).height), await frame.evaluate(() => document.documentElement.clientHeight));
  }
  return embedded;
}

test('embed.html shows the snippet and mounts three panels from a sub-path, each sized to its content', async () => {
  // `open` records every request the page and its frames make.
  const page = await open(env, '');
  await page.goto(`${env.url}embed.html`);
  assert.equal((await page.$$('iframe')).length, 3);
  // Heights follow the panels (posted by each embedded page), not the frames' first ones.
  assert.deepEqual(await framesSized(page), [true, true, true]);
  const zh = await (await page.$$('iframe'))[2].contentFrame();
  assert.equal(await zh.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.ok(page.requests.every((url) => url.startsWith(env.url) || url.startsWith('data:')), page.requests.join('\n'));
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('embed.html opened from disk shows its three panels (the single file beside it), each sized to its content', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = watched(await context.newPage());
  await page.goto(pathToFileURL(join(WWW, 'embed.html')).href);
  assert.equal((await page.$$('iframe')).length, 3);
  assert.deepEqual(await framesSized(page), [true, true, true]);
  assert.ok(page.frames().slice(1).every((frame) => frame.url().startsWith(pathToFileURL(join(WWW, 'rvm-lab.html')).href)), 'the frames opened the single file');
  assert.equal(await page.isHidden('#demo-missing'), true);
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});
