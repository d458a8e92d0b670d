// The first paint: the page's shell (header, the panel's title and introduction, the chart's
// box at its final size saying it loads the solver) is laid out before the wasm module
// arrives, and nothing moves when the chart appears; a host that serves the module with the
// wrong MIME type still gets a working page.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { start, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

/** Opens `query` at `viewport` with the module held back until `release()` is called; also
 *  records every layout shift (PerformanceObserver 'layout-shift'). */
async function openHeld(query, viewport) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let release;
  const held = new Promise((done) => (release = done));
  await page.route('**/rvm_lab*_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(env.url + query);
  return { page, release };
}

const box = (page) => page.$eval('#canvas-box', (el) => el.getBoundingClientRect().toJSON());

describe('first paint', () => {
  const cases = [
    ['?panel=predictive', { width: 1350, height: 940 }, 'Predictive distribution'],
    ['?panel=fast-rvm', { width: 1350, height: 940 }, 'Fast RVM live'],
    ['?panel=classification&lang=zh', { width: 412, height: 823 }, null],
    ['?panel=evidence&embed=1', { width: 700, height: 600 }, null],
    ['?panel=multiclass&stage=1', { width: 1280, height: 720 }, null],
    // A phone held upright on stage: the stylesheet's stage text before the module follows
    // the same rule as stage.js's after it (a 4 : 3 view of the width), so nothing moves.
    ['?panel=fast-rvm&stage=1', { width: 412, height: 823 }, null],
  ];
  for (const [query, viewport, title] of cases) {
    test(`${query} at ${viewport.width}×${viewport.height}: the shell before the module, and the chart's box does not move`, async () => {
      const { page, release } = await openHeld(query, viewport);
      // The words are in and the page shows, the module still held back.
      await page.waitForFunction(() => !document.documentElement.classList.contains('no-words'));
      assert.equal(await page.evaluate(() => window.rvmLab), undefined, 'the module has not started the panel');
      assert.equal(await page.isVisible('#loading'), true, 'the chart box says it is loading');
      const loading = await page.textContent('#loading');
      assert.match(loading, query.includes('lang=zh') ? /求解器/ : /solver/);
      if (title) assert.equal(await page.textContent('#panel-title'), title);
      // Embedded and on stage, where the page's introduction is hidden, the chart's box shows
      // it while the solver loads; elsewhere the page's own shows, and the box's does not.
      const intro = await page.textContent('#panel-intro');
      assert.ok(intro.length > 40, intro);
      assert.equal(await page.textContent('#loading-intro'), intro);
      const framed = /embed=1|stage=1/.test(query);
      assert.deepEqual([await page.isVisible('#loading-intro'), await page.isVisible('#panel-intro')], [framed, !framed]);
      const first = await box(page);
      assert.ok(first.width > 200 && first.height >= 220, JSON.stringify(first));
      release();
      await page.waitForSelector('body[data-ready="1"]');
      await waitForDraws(page, 1);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const drawn = await box(page);
      for (const side of ['left', 'top', 'width']) {
        assert.ok(Math.abs(first[side] - drawn[side]) < 1, `${side}: ${first[side]} before the module, ${drawn[side]} with the chart`);
      }
      // On the page the box's height is the panel's aspect ratio from the start; on stage it
      // is what the strip and the legend leave, which the legend may take a line of.
      if (!query.includes('stage=1')) assert.ok(Math.abs(first.height - drawn.height) < 1, `height ${first.height} → ${drawn.height}`);
      assert.equal(await page.isVisible('#loading'), false);
      // A generous bound on how much moved while loading (layout, not time: Lighthouse's
      // "good" CLS is 0.1; the page measures 0 to 0.02).
      const shifted = await page.evaluate(() => window.shifts.reduce((sum, v) => sum + v, 0));
      assert.ok(shifted < 0.05, `layout shift ${shifted.toFixed(3)}`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    });
  }

  // The page's text paints with the HTML (issue 33, point 5): with the page's script itself
  // held back, a panel in English already shows its title, introduction and header from the
  // start-up guard's words, exactly as the strings will put them; another language, a lesson
  // and the stage stay hidden until their words are in, so nothing swaps in later.
  test('a panel in English shows its words before the page\'s script runs; other languages wait for theirs', async () => {
    const english = (await import('../../www/strings/en.js')).default;
    const intro = (await import('../../www/strings/en/fast-rvm.js')).default['panel.fast-rvm.intro'];
    for (const [query, shows] of [['?panel=fast-rvm', true], ['?panel=fast-rvm&lang=zh', false], ['?lesson=fast-rvm&step=2', false], ['?panel=fast-rvm&stage=1', false]]) {
      const context = await env.browser.newContext({ viewport: { width: 1350, height: 940 } });
      const page = await context.newPage();
      let release;
      const held = new Promise((done) => (release = done));
      await page.route('**/app.min.js', async (route) => {
        await held;
        await route.continue();
      });
      const strings = page.waitForResponse((response) => /\/strings\/(en|zh)\.js$/.test(response.url()));
      await page.goto(env.url + query, { waitUntil: 'domcontentloaded' });
      // The start-up guard's shell.min.js brings the words: they are in, the script held back.
      if (shows) await page.waitForFunction(() => !document.documentElement.classList.contains('no-words'));
      await strings;
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const hidden = await page.evaluate(() => document.documentElement.classList.contains('no-words'));
      assert.equal(hidden, !shows, `${query}: hidden until its words are in`);
      if (shows) {
        assert.equal(await page.textContent('#panel-title'), english['panel.fast-rvm']);
        assert.equal(await page.textContent('#panel-intro'), intro);
        assert.equal(await page.textContent('.tagline'), english['app.tagline']);
        assert.equal(await page.isVisible('#panel-intro'), true);
      }
      const before = await page.evaluate(() => [document.querySelector('#panel-intro').textContent, document.querySelector('#panel-intro').getBoundingClientRect().toJSON()]);
      release();
      await page.waitForSelector('body[data-ready="1"]');
      if (shows) {
        const now = await page.evaluate(() => [document.querySelector('#panel-intro').textContent, document.querySelector('#panel-intro').getBoundingClientRect().toJSON()]);
        assert.deepEqual(now, before, 'the script puts the very same words in the same place');
      }
      await context.close();
    }
  });

  // The page's text first, then the solver (most of its bytes): the module is asked for once
  // the page has shown its words (a panel's, a lesson's band), so that on a slow network the
  // two do not share it, and the largest paint does not wait for the solver.
  test('the solver is asked for once the page shows its words: a panel, another language, a lesson', async () => {
    for (const query of ['?panel=fast-rvm', '?panel=classification&lang=zh', '?lesson=sparsity&step=3']) {
      const context = await env.browser.newContext({ viewport: { width: 1350, height: 940 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        // (From the document: its root element does not exist yet.)
        new MutationObserver((_, observer) => {
          const html = document.documentElement;
          if (!window.rvmLabStartup || html.classList.contains('no-words')) return;
          window.shownAt = performance.now();
          observer.disconnect();
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['class'] });
      });
      await page.goto(env.url + query);
      await page.waitForSelector('body[data-ready="1"]');
      const { shownAt, asked } = await page.evaluate(() => ({
        shownAt: window.shownAt,
        asked: performance.getEntriesByType('resource').find((entry) => /rvm_lab(_simd)?_bg\.wasm$/.test(entry.name))?.startTime,
      }));
      assert.ok(shownAt > 0 && asked > 0, `${query}: shown at ${shownAt}, solver asked for at ${asked}`);
      assert.ok(asked > shownAt, `${query}: the solver was asked for at ${asked} ms, before the words showed (${shownAt} ms)`);
      await context.close();
    }
  });

  // A lesson's step shows on its own panel, whose words the start-up guard asks for beside the
  // page's script (it knows each built lesson's panels), not once the lesson file has said
  // which panel it is.
  test('a lesson\'s step panel words are asked for before the page\'s script runs', async () => {
    const lesson = JSON.parse(await readFile(new URL('../../www/lessons/sparsity.json', import.meta.url), 'utf8'));
    for (const step of [3, 1, 99]) {
      const shown = lesson.steps[Math.min(step, lesson.steps.length) - 1];
      const panel = new URLSearchParams(shown.state).get('panel');
      const context = await env.browser.newContext();
      const page = await context.newPage();
      const asked = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.route('**/app.min.js', () => {}); // never answered
      // (Waited for from before the page is asked for: the words may be in before it is read.)
      const words = page.waitForResponse((response) => response.url().endsWith(`/strings/en/${panel}.js`));
      await page.goto(`${env.url}?lesson=sparsity&step=${step}`, { waitUntil: 'domcontentloaded' });
      await words;
      assert.ok(asked.some((path) => path.endsWith('/lessons/sparsity.json')), asked.join(' '));
      await context.close();
    }
  });

  test('a host serving the module as application/octet-stream still gets a working page', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    const warnings = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    let served = 0;
    await page.route('**/rvm_lab*_bg.wasm', async (route) => {
      const response = await route.fetch({ headers: { ...route.request().headers(), 'accept-encoding': 'identity' } });
      served += 1;
      await route.fulfill({ status: 200, body: await response.body(), headers: { 'content-type': 'application/octet-stream' } });
    });
    await page.goto(`${env.url}?panel=fast-rvm`);
    await page.waitForSelector('body[data-ready="1"]');
    await waitForDraws(page, 1);
    assert.equal(served, 1);
    // The page tried compileStreaming, which refuses that type, then fell back, and says so.
    assert.ok(warnings.some((w) => w.includes('not application/wasm')), warnings.join('\n'));
    assert.equal(await page.isVisible('#crash'), false);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
