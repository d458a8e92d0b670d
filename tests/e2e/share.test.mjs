// The "Share / embed" box (www/share.js) at 1280 and 800 px wide. Its iframe snippet, pasted
// as it is into a course page on another host beside other frames, gives a frame as tall as
// the panel (no inner scrollbar, the lowest control in view) that follows the panel through a
// lesson's steps and an opened details box, and takes no height from another frame's
// messages; without its script (a course site that strips scripts) the frame keeps the height
// the snippet names, the panel's at the width it was made, with no scrollbar. The Copy buttons
// put the exact link and snippet on the clipboard, from the keyboard, and say so in a live
// region, in English and 中文 (axe-core finds nothing to say of the open box); where the
// clipboard is refused (a frame of another origin) they select the text for Ctrl+C.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, open, settled, start } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';

const WIDTHS = [1280, 800];

let env;
let course;
let folder;
before(async () => {
  // Scrollbars that take room, as on a desktop: a frame that does not fit shows one.
  env = await start({ base: '/lab/', scrollbars: true });
  folder = await mkdtemp(join(tmpdir(), 'rvm-course-'));
  // The course site: another host (another port, another origin), serving as a plain static
  // host does, with no policy, so that a pasted inline script runs.
  course = await serve({ root: folder, port: 0, policy: null });
  await writeFile(join(folder, 'other.html'), '<!doctype html><title>Other</title><p>Another frame of the course</p>');
});
after(async () => {
  await env?.close();
  await new Promise((done) => course?.server.close(done));
  await rm(folder, { recursive: true, force: true });
});

/** Opens `query` at `width` with the clipboard allowed, and the share box; returns the page
 *  once the box shows its snippet and Copy buttons. */
async function shareBox(query, width) {
  const page = await open(env, query, { viewport: { width, height: 900 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('#share-toggle');
  await page.waitForSelector('#share-iframe-copy:not(:empty)');
  // The snippet's height follows the page's layout (a ResizeObserver): the frame after that.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page;
}

/** The course page `name` holding `body`, opened in `context`. */
async function coursePage(context, name, body) {
  await writeFile(join(folder, name), `<!doctype html><html lang="en"><meta charset="utf-8"><title>Course</title><body>${body}</body></html>`);
  const page = await context.newPage();
  // The heights the course page is told, for a failure's message.
  await page.addInitScript(() => {
    window.told = [];
    addEventListener('message', (e) => Number.isFinite(e.data?.rvmLabHeight) && window.told.push(e.data.rvmLabHeight));
  });
  await page.goto(`${course.url}${name}`);
  return page;
}

/** The lab's frame of `page` (the one whose address is the lab's) once it has drawn its panel
 *  and its work is done. */
async function labFrame(page) {
  await page.waitForFunction((lab) => [...document.querySelectorAll('iframe')].some((f) => f.src.startsWith(lab)), env.url);
  const handle = await page.$(`iframe[src^="${env.url}"]`);
  const frame = await handle.contentFrame();
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
  await settled(frame);
  return { handle, frame };
}

/** The frame's document: its scrolling and visible heights, its content's height, and the
 *  bottom of its lowest visible control. */
const measure = (frame) =>
  frame.evaluate(() => {
    const root = document.documentElement;
    const controls = [...document.querySelectorAll('button, input, select, textarea, summary, a[href]')].filter((e) => e.checkVisibility());
    return {
      scroll: root.scrollHeight,
      client: root.clientHeight,
      content: Math.ceil(root.getBoundingClientRect().height),
      lowest: Math.max(...controls.map((e) => e.getBoundingClientRect().bottom)),
    };
  });

/** Waits until the frame is exactly as tall as its content, then checks that nothing scrolls
 *  inside it, that its lowest control is in view and that the course page shows the frame at
 *  that height; returns the height. */
async function fitted({ handle, frame }, where) {
  const fits = () => {
    const root = document.documentElement;
    return root.scrollHeight <= root.clientHeight && root.clientHeight - root.getBoundingClientRect().height < 1;
  };
  // (A frame that never fits fails below, with its measures.)
  await frame.waitForFunction(fits, null, { timeout: 10_000 }).catch(() => null);
  const { scroll, client, content, lowest } = await measure(frame);
  const told = await handle.evaluate((frame) => `${window.told.join(' ')}; its style ${frame.style.height}`);
  assert.ok(scroll <= client && client - content <= 1, `${where}: ${scroll} px of content (${content} px in the page's box) in a ${client} px frame (told ${told})`);
  assert.ok(lowest <= client, `${where}: the lowest control ends at ${lowest} px, below the frame's ${client}`);
  assert.equal(Math.round((await handle.boundingBox()).height), client, `${where} (told ${told})`);
  return client;
}

for (const width of WIDTHS) {
  test(`at ${width} px the snippet pasted as it is sizes its frame to the panel and follows it, whatever other frames say`, async () => {
    const page = await shareBox('?lesson=basis-least-squares', width);
    const snippet = await page.inputValue('#share-iframe');
    assert.match(snippet, /^<iframe src="[^"]+embed=1[^"]*" title="RVM Lab: [^"]+" style="width:100%;height:\d+px;border:0"><\/iframe>\n<script>.+<\/script>$/);
    const other = '<iframe src="other.html" title="Other" style="width:300px;height:80px;border:0"></iframe>';
    // (The lab's page closed: a page in the background is not rendered, nor its frames.)
    const context = page.context();
    await page.close();
    const coursePage_ = await coursePage(context, `course-${width}.html`, `<h1>Week 3</h1>${other}<p>Before the lab.</p>${snippet}<p>After the lab.</p>${other}`);
    const lab = await labFrame(coursePage_);
    const heights = [await fitted(lab, 'step 1')];
    // A details box opened: the frame grows with it.
    await lab.frame.click('#plotted summary');
    // (The table is built by the share module, loaded when first needed: it is there a task or
    // two after the click.)
    await lab.frame.waitForSelector('#plotted-tables table');
    heights.push(await fitted(lab, 'the data table open'));
    // Each step of the lesson: a text and a panel of another height.
    const steps = await lab.frame.$$eval('#lesson-counter', ([counter]) => Number(counter.textContent.match(/(\d+)\D*$/)[1]));
    for (let step = 2; step <= steps; step += 1) {
      await lab.frame.click('#lesson-next');
      await lab.frame.waitForFunction((k) => new URLSearchParams(location.search).get('step') === String(k), step);
      await settled(lab.frame);
      heights.push(await fitted(lab, `step ${step}`));
    }
    assert.ok(heights.some((h, i) => i > 0 && h > heights[i - 1]), `the frame grew: ${heights}`);
    assert.ok(heights.some((h, i) => i > 0 && h < heights[i - 1]), `and shrank: ${heights}`);
    // Another frame's height message is left alone: the lab's frame and the other frames keep
    // theirs. (The course page's own listener, added after the snippet's, hears it after it.)
    const before = await lab.handle.boundingBox();
    await coursePage_.evaluate(() => {
      window.heard = new Promise((done) => addEventListener('message', (e) => e.data?.rvmLabHeight === 40 && done()));
    });
    const others = await coursePage_.$$('iframe[src="other.html"]');
    await (await others[0].contentFrame()).evaluate(() => parent.postMessage({ rvmLabHeight: 40 }, '*'));
    await coursePage_.evaluate(() => window.heard);
    assert.equal((await lab.handle.boundingBox()).height, before.height);
    for (const handle of others) assert.equal((await handle.boundingBox()).height, 80);
    await context.close();
  });

  test(`at ${width} px the snippet without its script keeps the panel's height at the width it was made`, async () => {
    for (const query of ['?panel=predictive', '?lesson=basis-least-squares&step=5']) {
      const page = await shareBox(query, width);
      const snippet = await page.inputValue('#share-iframe');
      const frameOnly = snippet.slice(0, snippet.indexOf('<script>'));
      const height = Number(frameOnly.match(/height:(\d+)px/)[1]);
      // A column as wide as the lab's own on that page, the embedded page's padding added
      // (0.4 rem either side).
      const column = await page.$eval('main', (main) => main.getBoundingClientRect().width + 12.8);
      const context = page.context();
      await page.close();
      const coursePage_ = await coursePage(context, `bare-${width}.html`, `<div style="width:${column}px">${frameOnly}</div>`);
      const { frame } = await labFrame(coursePage_);
      const { scroll, client, content } = await measure(frame);
      assert.equal(client, height, query);
      assert.ok(scroll <= client, `${query}: ${scroll} px of content in the ${client} px the snippet names`);
      assert.ok(client - content <= 2, `${query}: ${client - content} px left empty below the panel`);
      await context.close();
    }
  });
}

test('the Copy buttons put the exact link and snippet on the clipboard from the keyboard, and say so in both languages', async () => {
  const page = await shareBox('?panel=sparsity&alpha=2', 1280);
  assert.deepEqual(await axeViolations(page), [], 'axe-core, with the box open');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  for (const [lang, copied] of [['en', 'Copied'], ['zh', '已复制']]) {
    if (lang === 'zh') {
      await page.click('#lang-toggle');
      await page.waitForFunction(() => document.querySelector('#share-link-copy').textContent === '复制链接');
    }
    assert.equal(await page.getAttribute('#share-link-status', 'role'), 'status');
    assert.equal(await page.getAttribute('#share-iframe-status', 'role'), 'status');
    // From the link's field, Tab reaches its Copy button, and Enter presses it.
    await page.focus('#share-link');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-link-copy');
    await page.keyboard.press('Enter');
    await page.waitForFunction((text) => document.querySelector('#share-link-status').textContent === text, copied);
    assert.equal(await clipboard(), await page.inputValue('#share-link'));
    assert.equal(await page.inputValue('#share-link'), page.url());
    // Then the snippet's field, and its Copy button, pressed with Space.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-iframe');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-iframe-copy');
    await page.keyboard.press('Space');
    await page.waitForFunction((text) => document.querySelector('#share-iframe-status').textContent === text, copied);
    assert.equal(await clipboard(), await page.inputValue('#share-iframe'));
    assert.ok((await clipboard()).startsWith('<iframe src="'), lang);
  }
  // A new state is a new snippet: the word "Copied" goes with the one copied.
  await page.fill('#ctl-alpha', '3');
  await page.press('#ctl-alpha', 'Enter');
  await page.waitForFunction(() => document.querySelector('#share-iframe-status').textContent === '');
  assert.match(await page.inputValue('#share-iframe'), /alpha=3/);
  await page.context().close();
});

test('where the clipboard is refused (a frame of another origin), Copy selects the text for Ctrl+C', async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const coursePage_ = await coursePage(context, 'whole-lab.html', `<iframe src="${env.url}?panel=evidence" title="RVM Lab" style="width:100%;height:850px;border:0"></iframe>`);
  const { frame } = await labFrame(coursePage_);
  await frame.click('#share-toggle');
  await frame.waitForSelector('#share-link-copy:not(:empty)');
  await frame.click('#share-link-copy');
  await frame.waitForFunction(() => document.querySelector('#share-link-status').textContent !== '');
  assert.match(await frame.textContent('#share-link-status'), /^Selected: press Ctrl\+C/);
  const link = await frame.inputValue('#share-link');
  assert.deepEqual(
    await frame.evaluate(() => [document.activeElement.id, document.activeElement.selectionStart, document.activeElement.selectionEnd]),
    ['share-link', 0, link.length],
  );
  // Ctrl+C then copies it, as the box says.
  await coursePage_.keyboard.press('Control+C');
  assert.equal(await coursePage_.evaluate(() => navigator.clipboard.readText()), link);
  await context.close();
});

test('where the share box’s module cannot be loaded, Share / embed and Save as PNG say so, and the page stays as it was', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('**/share.min.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
  const page = await context.newPage();
  await page.goto(`${env.url}?panel=predictive`);
  await page.waitForSelector('body[data-ready="1"]');
  for (const button of ['#share-toggle', '#export-png']) {
    if (await page.isVisible('#notices')) await page.click('#notices .dismiss');
    await page.click(button);
    await page.waitForSelector('#notices:not([hidden])');
    assert.match(await page.textContent('#notices li'), /^A part of the page could not be loaded \(.+\)\.$/, button);
  }
  assert.equal(await page.isHidden('#share'), true);
  assert.equal(await page.getAttribute('#share-toggle', 'aria-expanded'), 'false');
  await context.close();
});
