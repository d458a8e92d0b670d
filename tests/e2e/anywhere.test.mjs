// Anywhere a course lives: the embedding matrix. The single file (rvm-lab.html) opened from
// disk, with the served page's features; the served page opened from disk and in frames
// sandboxed with and without allow-same-origin, from a plain static server (no CORS, no other
// special header), which both end on a drawn chart; the single file as a sandboxed frame's
// srcdoc; the page framed by a page of another origin, mounted by embed.global.js from another
// origin, and in the example deck on another origin. Each: the chart drawn, no console error,
// and framed, the keys the lab does not use passed to the host.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { drawnIn, putFrame } from './frames.mjs';
import { serve } from '../../scripts/serve.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
const SINGLE = pathToFileURL(join(WWW, 'rvm-lab.html')).href;

let browser;
/** The lab's folder from a plain static server, and a host page's folder from another. */
let lab;
let host;
let hostFolder;

before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  lab = await serve({ root: WWW, port: 0, base: '/course/rvm-lab/', policy: null });
  // Another origin (another port): an empty course page, and a copy of the example deck whose
  // frames load the lab from the lab's origin.
  hostFolder = await mkdtemp(join(tmpdir(), 'rvm-host-'));
  await writeFile(join(hostFolder, 'course.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Course</title><h1>Course</h1>');
  const deck = (await readFile(join(WWW, 'deck.html'), 'utf8')).replaceAll('data-src="./index.html', `data-src="${lab.url}index.html`);
  await writeFile(join(hostFolder, 'deck.html'), deck);
  for (const file of ['deck.css', 'deck.js', 'rvm-lab-reveal.js', 'vendor']) await cp(join(WWW, file), join(hostFolder, file), { recursive: true });
  host = await serve({ root: hostFolder, port: 0, policy: null });
});
after(async () => {
  await browser?.close();
  for (const server of [lab, host]) await new Promise((done) => server?.server.close(done));
  await rm(hostFolder, { recursive: true, force: true });
});

/** A fresh page recording console errors (of every frame) and requests. */
async function newPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(`${message.text()} @ ${message.location().url}`);
  });
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  page.on('request', (request) => page.requests.push(request.url()));
  return page;
}

/** Puts an iframe with `attributes` on the (host) page; returns its frame. */
async function frameOn(page, attributes) {
  await page.evaluate(putFrame, attributes);
  return (await page.waitForSelector('iframe')).contentFrame();
}

/** In `frame`, a click on the chart, then → and Escape, which the lab does not use off a
 *  lesson: both reach the host, in reveal.js's words and in the lab's. */
async function keysReachTheHost(page, frame) {
  const box = await (await frame.$('#chart')).boundingBox();
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.received.filter((d) => d?.type === 'rvm-lab:key').length >= 2);
  const received = await page.evaluate(() => window.received);
  assert.deepEqual(
    received.filter((d) => d?.type === 'rvm-lab:key').map((d) => d.key),
    ['ArrowRight', 'Escape'],
  );
  assert.ok(received.includes('{"method":"next","args":[]}'), JSON.stringify(received));
  assert.ok(received.includes('{"method":"toggleOverview","args":[]}'), JSON.stringify(received));
}

describe('the single file, opened from disk', () => {
  test('draws every panel from file:// with nothing fetched, no module script and no console error', async () => {
    const html = await readFile(join(WWW, 'rvm-lab.html'), 'utf8');
    assert.doesNotMatch(html, /<script[^>]*type="module"|<script[^>]*\bsrc=|<link[^>]*stylesheet/);
    const page = await newPage();
    for (const panel of ['predictive', 'evidence', 'fast-rvm', 'classification', 'multiclass']) {
      await page.goto(`${SINGLE}?panel=${panel}`);
      await drawnIn(page);
      assert.equal(await page.evaluate(() => window.rvmLab.state.panel), panel);
    }
    const elsewhere = page.requests.filter((url) => !url.startsWith(SINGLE) && !/^(data|blob):/.test(url));
    assert.deepEqual(elsewhere, [], 'requests beyond the file itself');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('keeps the served page’s features: 中文, URL state in query and fragment, lessons, stage, embed, keys, exports, dark mode', async () => {
    // A large state (400 pasted points) whose values the served page packs into the fragment.
    const served = await newPage();
    await served.goto(`${lab.url}index.html?panel=predictive`);
    await drawnIn(served);
    const rows = Array.from({ length: 400 }, (_, i) => `${(i / 400).toFixed(4)},${(1 + Math.sin(i)).toFixed(4)}`).join('\n');
    await served.fill('#csv-text', rows);
    await served.click('#csv button[type=submit]');
    await served.waitForFunction(() => location.hash.startsWith('#z='));
    const { search, hash, points } = await served.evaluate(() => ({
      search: location.search,
      hash: location.hash,
      points: window.rvmLab.state.lab.value('points'),
    }));
    await served.context().close();

    const page = await newPage({ colorScheme: 'dark' });
    await page.goto(`${SINGLE}${search}&lang=zh${hash}`);
    await drawnIn(page);
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('points')), points, 'the fragment’s points');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await page.textContent('#panel-title'), '预测分布');
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)', 'dark mode');
    // The address bar follows a change, in the query (and the long values in the fragment).
    await page.fill('#ctl-alpha', '0.5');
    await page.press('#ctl-alpha', 'Enter');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('alpha') === '0.5');
    // Exports download from the file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-results')]);
    assert.equal(download.suggestedFilename(), 'rvm-lab-predictive-results.csv');
    assert.match(await readFile(await download.path(), 'utf8'), /^quantity,value/);

    // A lesson at its step, on stage, and a solver key.
    await page.goto(`${SINGLE}?lesson=fast-rvm&step=3&stage=1`);
    await drawnIn(page);
    assert.match(await page.textContent('#lesson-counter'), /^step 3 of \d+$/);
    assert.equal(await page.evaluate(() => document.body.classList.contains('stage')), true);
    await page.goto(`${SINGLE}?panel=fast-rvm&step=0&embed=1`);
    await drawnIn(page);
    assert.equal(await page.evaluate(() => document.body.classList.contains('embed')), true);
    await page.focus('#chart');
    await page.keyboard.press('s');
    assert.equal(await page.textContent('#readouts dd[data-key="step"]'), '1');
    // The page's own link to the single file is not shown in it.
    assert.equal(await page.isVisible('#offline-link'), false);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the served page opened from disk opens the single file, with the same query and fragment', async () => {
    const page = await newPage();
    await page.goto(`${pathToFileURL(join(WWW, 'index.html')).href}?panel=sparsity&alpha=2&lang=zh#x`);
    const address = await drawnIn(page);
    assert.ok(address.startsWith(SINGLE), address);
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('alpha')), '2');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});

/** The lab in a frame with `attributes` on a course page of another origin: once drawn,
 *  `check(frame, address)`, then the keys it does not use reach the course page, and no frame
 *  logged an error. */
async function inFrame(attributes, check) {
  const page = await newPage();
  await page.goto(`${host.url}course.html`);
  const frame = await frameOn(page, { title: 'RVM Lab', ...attributes });
  await check(frame, await drawnIn(frame));
  await keysReachTheHost(page, frame);
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
}

describe('in frames', () => {
  for (const sandbox of ['allow-scripts', 'allow-scripts allow-popups allow-forms', 'allow-scripts allow-same-origin']) {
    test(`the served page in <iframe sandbox="${sandbox}"> from a plain static server`, () =>
      inFrame({ sandbox, src: `${lab.url}index.html?panel=evidence&embed=1` }, async (frame, address) => {
        // Without allow-same-origin the frame's origin is opaque: the single file took over.
        const opaque = !sandbox.includes('allow-same-origin');
        assert.ok(address.startsWith(`${lab.url}${opaque ? 'rvm-lab.html' : 'index.html'}?panel=evidence`), address);
        assert.equal(await frame.evaluate(() => document.body.classList.contains('embed')), true);
      }));
  }

  test('the single file as the srcdoc of <iframe sandbox="allow-scripts">', async () => {
    const srcdoc = await readFile(join(WWW, 'rvm-lab.html'), 'utf8');
    await inFrame({ sandbox: 'allow-scripts', srcdoc }, async (frame, address) => {
      assert.equal(address, 'about:srcdoc');
      // Its state has no address to live in, and changing it is no error.
      await frame.fill('#ctl-alpha', '0.5');
      await frame.press('#ctl-alpha', 'Enter');
      assert.equal(await frame.evaluate(() => window.rvmLab.state.lab.value('alpha')), '0.5');
      // The share box says there is no link to share, and offers the data.
      await frame.click('#share-toggle');
      await frame.waitForSelector('#share', { state: 'visible' });
      assert.match(await frame.textContent('#share-long-text'), /no address of its own/);
      assert.equal(await frame.isVisible('#share-link'), false);
    });
  });

  test('the served page framed by a page of another origin', () =>
    inFrame({ src: `${lab.url}index.html?panel=fast-rvm&embed=1` }, async (frame, address) => {
      assert.ok(address.startsWith(`${lab.url}index.html?panel=fast-rvm`), address);
    }));

  test('mount() from another origin, by the classic embed.global.js: the panel drawn, its height followed, keys passed on', async () => {
    const page = await newPage();
    await page.goto(`${host.url}course.html`);
    await page.evaluate((src) => {
      window.received = [];
      addEventListener('message', ({ data }) => window.received.push(data));
      const box = document.createElement('div');
      box.id = 'panel';
      document.body.append(box);
      return new Promise((done, fail) => {
        const script = Object.assign(document.createElement('script'), { src, onload: done, onerror: fail });
        document.head.append(script);
      });
    }, `${lab.url}embed.global.js`);
    await page.evaluate(() => window.RvmLab.mount(document.querySelector('#panel'), { panel: 'sparsity', lang: 'zh' }));
    const frame = await (await page.waitForSelector('#panel iframe')).contentFrame();
    assert.ok((await drawnIn(frame)).startsWith(`${lab.url}index.html?panel=sparsity`));
    await page.waitForFunction(() => document.querySelector('#panel iframe').style.height !== '560px');
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'zh-CN');
    await keysReachTheHost(page, frame);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the example deck on another origin: the clicker runs deck and lesson, Escape opens the overview', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${host.url}deck.html#/1`);
    await page.waitForFunction(() => window.Reveal?.isReady());
    const slideFrame = async () => (await page.waitForSelector('section.present iframe')).contentFrame();
    let frame = await slideFrame();
    await drawnIn(frame);
    const box = async () => (await page.$('section.present iframe')).boundingBox();
    const clickChart = async () => {
      const b = await box();
      await page.mouse.click(b.x + b.width * 0.3, b.y + b.height * 0.4);
    };
    await clickChart();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 1);
    // The lesson's slide: the clicker walks the lesson, then the deck.
    await page.evaluate(() => window.Reveal.slide(4));
    frame = await slideFrame();
    await drawnIn(frame);
    await clickChart();
    const count = Number((await frame.textContent('#lesson-counter')).match(/of (\d+)/)[1]);
    for (let k = 2; k <= count; k += 1) {
      await page.keyboard.press('PageDown');
      await frame.waitForFunction((n) => document.querySelector('#lesson-counter').textContent.startsWith(`step ${n} `), k);
    }
    assert.equal(await page.evaluate(() => window.Reveal.getIndices().h), 4);
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 5);
    // The deck takes the keyboard back from the lesson's frame (its plugin does, as the slide
    // with no lab is shown; a deck without it, when the frame hears 'slide:stop'): until then
    // a key still goes to the frame.
    await page.waitForFunction(() => document.activeElement?.tagName !== 'IFRAME');
    // Escape from inside a frame: the deck's overview.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 4);
    await clickChart();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.Reveal.isOverview());
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});
