// Never a blank page: wherever the lab cannot start, the chart's box says what failed and what
// to do, in the reader's language, and nothing else of the panel is half-drawn — JavaScript
// off, no WebAssembly, WebAssembly refused by the site's policy, the solver's or the page
// script's download failing, a served copy opened from disk or in an opaque sandbox without
// its single file beside it, and a browser too old for the single file.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

let browser;
let strict;
/** A copy of the served page without its single file (as the sources are, unbuilt). */
let bare;
let bareServer;
/** Servers a test starts for itself, closed at the end whatever the test found. */
const servers = [];

before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  strict = await serve({ root: WWW, port: 0 });
  bare = await mkdtemp(join(tmpdir(), 'rvm-bare-'));
  for (const file of ['index.html', 'boot.min.js', 'shell.min.js', 'style.min.css', 'app.min.js', 'worker.min.js', 'pkg', 'strings']) {
    await cp(join(WWW, file), join(bare, file), { recursive: true });
  }
  bareServer = await serve({ root: bare, port: 0, policy: null });
});
after(async () => {
  await browser?.close();
  for (const server of [strict, bareServer, ...servers]) await new Promise((done) => server?.server.close(done));
  await rm(bare, { recursive: true, force: true });
});

/** Opens `address` in a fresh context (`options`, `prepare(page)` before it loads) and waits
 *  until the chart's box gives a reason; returns the page, with its uncaught errors. */
async function failing(address, { options = {}, prepare = async () => {} } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, ...options });
  const page = await context.newPage();
  page.uncaught = [];
  page.on('pageerror', (error) => page.uncaught.push(String(error)));
  await prepare(page);
  await page.goto(address);
  await page.waitForSelector('#loading[data-reason]', { timeout: 15_000 });
  return { page, where: page };
}

/** The reason and text in the chart's box, and whether anything of the panel beside it shows. */
async function box(where) {
  return where.evaluate(() => {
    const loading = document.querySelector('#loading');
    const shown = (selector) => [...document.querySelectorAll(selector)].some((el) => el.checkVisibility());
    return {
      reason: loading.dataset.reason,
      role: loading.getAttribute('role'),
      text: loading.textContent,
      lang: document.documentElement.lang,
      visible: loading.checkVisibility(),
      halfDrawn: ['.site-controls', '#panel-title', '.side', '.legend', '.export', 'footer.site', '#tables', '.lesson'].filter(shown),
    };
  });
}

test('JavaScript off: the box says the page needs it, and nothing else of the panel shows', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${strict.url}index.html?panel=fast-rvm`);
  const text = await page.textContent('#canvas-box');
  assert.match(text, /This page needs JavaScript/);
  assert.match(text, /本页面需要 JavaScript/);
  assert.equal(await page.isVisible('#canvas-box noscript p'), true);
  for (const selector of ['#loading', '.site-controls', '.side', '.legend', 'footer.site']) {
    assert.equal(await page.isHidden(selector), true, `${selector} shows`);
  }
  await context.close();
});

test('no WebAssembly: the box says so, in English by default', async () => {
  const { page, where } = await failing(`${strict.url}index.html?panel=evidence`, {
    prepare: (p) => p.addInitScript(() => delete window.WebAssembly),
  });
  const seen = await box(where);
  assert.equal(seen.reason, 'nowasm');
  assert.match(seen.text, /does not run WebAssembly/);
  assert.deepEqual([seen.role, seen.visible, seen.halfDrawn], ['alert', true, []]);
  assert.deepEqual(page.uncaught, []);
  await page.context().close();
});

test('a policy that refuses WebAssembly: the box names the directive it needs, in 中文 with lang=zh', async () => {
  const refusing = await serve({ root: WWW, port: 0, policy: "default-src 'self'; script-src 'self'; style-src 'self'" });
  servers.push(refusing);
  const { page, where } = await failing(`${refusing.url}index.html?panel=predictive&lang=zh`);
  const seen = await box(where);
  assert.equal(seen.reason, 'csp');
  assert.match(seen.text, /内容安全策略/);
  assert.match(seen.text, /'wasm-unsafe-eval'/);
  assert.deepEqual([seen.lang, seen.visible, seen.halfDrawn], ['zh-CN', true, []]);
  await page.context().close();
});

test('the solver’s download failing (refused, or 404): the box says a part could not be downloaded', async () => {
  for (const fail of [(route) => route.abort(), (route) => route.fulfill({ status: 404, body: 'not found' })]) {
    const { page, where } = await failing(`${strict.url}index.html?panel=sparsity`, {
      prepare: (p) => p.route('**/*.wasm', fail),
    });
    const seen = await box(where);
    assert.equal(seen.reason, 'download');
    assert.match(seen.text, /could not be downloaded: check the connection and reload/);
    assert.match(seen.text, /rvm_lab(_simd)?_bg\.wasm/, 'the details name the file');
    assert.deepEqual(seen.halfDrawn, []);
    assert.deepEqual(page.uncaught, []);
    await page.context().close();
  }
});

test('the page script refused: the box says so, in the browser’s language (中文)', async () => {
  const { page, where } = await failing(`${strict.url}index.html?panel=poisson`, {
    options: { locale: 'zh-CN' },
    prepare: (p) => p.route('**/app.min.js', (route) => route.abort()),
  });
  const seen = await box(where);
  assert.equal(seen.reason, 'module');
  assert.match(seen.text, /无法加载页面脚本/);
  assert.deepEqual([seen.lang, seen.halfDrawn], ['zh-CN', []]);
  await page.context().close();
});

test('a served copy opened from disk without its single file: the box says what to do', async () => {
  const { page, where } = await failing(`${pathToFileURL(join(bare, 'index.html')).href}?panel=basis`);
  // First it looks for the single file…
  assert.equal((await box(where)).reason, 'file');
  // …which is not there.
  await page.waitForSelector('#loading[data-reason="nosingle"]', { timeout: 10_000 });
  const seen = await box(where);
  assert.match(seen.text, /rvm-lab\.html, is not beside it\. Download the lab’s release bundle, or serve this folder/);
  assert.deepEqual([seen.visible, seen.halfDrawn], [true, []]);
  assert.deepEqual(page.uncaught, []);
  await page.context().close();
});

test('a served copy in an opaque sandbox without its single file: the box says what to do', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.uncaught = [];
  page.on('pageerror', (error) => page.uncaught.push(String(error)));
  await page.goto(`${bareServer.url}course.html`).catch(() => null);
  await page.setContent(`<iframe sandbox="allow-scripts" src="${bareServer.url}index.html?panel=basis&embed=1" title="lab" width="900" height="600"></iframe>`);
  const where = await (await page.waitForSelector('iframe')).contentFrame();
  await where.waitForSelector('#loading[data-reason="nosingle"]', { timeout: 10_000 });
  const seen = await box(where);
  assert.match(seen.text, /cannot start here/);
  assert.deepEqual([seen.visible, seen.halfDrawn], [true, []]);
  assert.deepEqual(page.uncaught, []);
  await context.close();
});

test('the single file in a browser without DecompressionStream: the box says it is too old', async () => {
  const { page, where } = await failing(`${pathToFileURL(join(WWW, 'rvm-lab.html')).href}?panel=predictive`, {
    prepare: (p) => p.addInitScript(() => delete window.DecompressionStream),
  });
  const seen = await box(where);
  assert.equal(seen.reason, 'old');
  assert.match(seen.text, /too old for the single file/);
  assert.deepEqual(seen.halfDrawn, []);
  assert.deepEqual(page.uncaught, []);
  await page.context().close();
});
