// The lab in a slide deck as a lecturer gives it. A reveal.js deck (npm's reveal.js) with the
// lab's plugin, www/rvm-lab-reveal.js, on another site than the lab (the deck on localhost,
// the lab on 127.0.0.1, each its own server), walked by the keyboard alone with no click
// anywhere (tests/e2e/deck-walk.mjs): a clicker's → / PageDown / space walk a framed lesson
// to its last step and then the deck, ← comes back, `s` steps a framed fast RVM, Escape opens
// the deck's overview, and keys the lab does not use reach the deck; in Chromium and in
// Firefox (firefox-esr, puppeteer-core over WebDriver BiDi, as tests/e2e/firefox.test.mjs).
// The frame on the other site draws crisp and sizes its stage text by the deck's window,
// which the plugin tells it. The same deck without the plugin works after a click, as before.
// And the example deck (www/deck.html): its frames fit their slide and the window, with every
// button of the stage inside them and uncovered, from 1024×768 to 1920×1080.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { serve, STRICT_POLICY } from '../../scripts/serve.mjs';
import { open, settled, start, watched } from './browser.mjs';
import { readyAndFocused, slideAtRest, walk, writeDeck } from './deck-walk.mjs';

const SHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

let env;
let deck;
let folder;
before(async () => {
  env = await start();
  folder = mkdtempSync(join(tmpdir(), 'rvm-lab-deck-'));
  writeDeck(join(folder, 'with'), env.url);
  writeDeck(join(folder, 'without'), env.url, false);
  writeDeck(join(folder, 'unmarked'), env.url, true, false);
  // The deck's host sends a policy as strict as the lab's, with frames from the lab's site.
  const policy = `${STRICT_POLICY}; frame-src ${new URL(env.url).origin}`;
  const served = await serve({ root: folder, port: 0, policy });
  // Another site: the lab is on 127.0.0.1, the deck on localhost.
  deck = { server: served.server, url: served.url.replace('127.0.0.1', 'localhost') };
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await env.close();
  await new Promise((done) => deck.server.close(done));
  rmSync(folder, { recursive: true, force: true });
});

/** A Chromium page of `viewport`'s size showing the test deck `which` ('with' or 'without' the
 *  plugin), at `slide` (the address's fragment, reveal.js's `#/2`) if given. */
async function openTestDeck(which, viewport = { width: 1280, height: 720 }, slide = '') {
  const context = await env.browser.newContext({ viewport });
  const page = watched(await context.newPage());
  await page.goto(`${deck.url}${which}/index.html${slide}`);
  return page;
}

/** The document of the frame on the slide shown (playwright-core). */
async function shownFrame(page) {
  const element = await page.waitForSelector('.slides > section.present iframe');
  return element.contentFrame();
}

describe('a reveal.js deck on another site', () => {
  test('with the plugin, Chromium: by the keyboard alone the clicker walks a framed lesson and the deck, s steps the fast RVM, Escape opens the overview', async () => {
    const page = await openTestDeck('with');
    let stage = '';
    try {
      await walk({
        page,
        press: (key) => page.keyboard.press(key === ' ' ? 'Space' : key),
        frameOn: () => shownFrame(page),
        waitIn: (doc, fn, arg) => doc.waitForFunction(fn, arg),
        step: (label) => (stage = label),
      });
    } catch (error) {
      await page.screenshot({ path: `${SHOTS}deck-walk-failed.png` });
      throw new Error(`${stage}: ${error.message}`);
    }
    const outside = page.requests.filter((url) => !url.startsWith(deck.url) && !url.startsWith(env.url));
    assert.deepEqual(outside, [], 'the deck loads nothing from a third host');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('with the plugin, 1920×1080: the framed chart on the other site is crisp, and its text follows the deck window’s height', async () => {
    const page = await openTestDeck('with', { width: 1920, height: 1080 });
    await page.evaluate(() => window.Reveal.slide(2));
    const element = await page.waitForSelector('.slides > section.present iframe');
    const frame = await element.contentFrame();
    await frame.waitForFunction(readyAndFocused);
    await settled(frame);
    await page.waitForFunction(slideAtRest);
    const outer = await element.boundingBox();
    const inner = await frame.evaluate(() => ({
      width: innerWidth,
      chart: document.querySelector('#chart').getBoundingClientRect().width,
      backing: document.querySelector('#chart').width,
      text: parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--stage-text')),
    }));
    const k = outer.width / inner.width;
    assert.ok(k > 1.2, `the deck scales its slides up (${k.toFixed(3)})`);
    const onScreen = inner.chart * k;
    assert.ok(Math.abs(inner.backing - onScreen) <= 2, `${inner.backing} canvas pixels for ${onScreen.toFixed(0)} on screen`);
    // The stage text on screen is the lab's own in a window of that size: it follows the
    // window's height, not the frame's (about 900 px of the 1080).
    const own = await open(env, '?panel=fast-rvm&step=0&stage=1', { viewport: { width: 1920, height: 1080 } });
    const text = await own.evaluate(() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--stage-text')));
    assert.ok(Math.abs(inner.text * k - text) <= 0.3, `stage text ${(inner.text * k).toFixed(1)} px on screen in the frame, ${text} px in the window`);
    await own.context().close();
    await page.context().close();
  });

  test('with the plugin, a deck opened at a slide whose frame is still loading: the frame takes the keys once loaded, s steps it', async () => {
    const page = await openTestDeck('with', undefined, '#/2');
    const rvm = await shownFrame(page);
    await rvm.waitForFunction(readyAndFocused);
    await page.keyboard.press('s');
    await rvm.waitForFunction(() => document.querySelector('#readouts dd[data-key="step"]')?.textContent === '1');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('with the plugin, frames not marked as the lab’s: each takes the keys from its first message on', async () => {
    const page = await openTestDeck('unmarked');
    await page.waitForFunction(() => window.Reveal?.isReady());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 1);
    const lesson = await shownFrame(page);
    await lesson.waitForFunction(readyAndFocused);
    await page.keyboard.press('ArrowRight');
    await lesson.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 5');
    assert.equal(await page.evaluate(() => window.Reveal.getIndices().h), 1);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('without the plugin the deck keeps the keys until a click; after a click in the lesson the clicker walks it', async () => {
    const page = await openTestDeck('without');
    const onSlide = (h) => page.waitForFunction((k) => window.Reveal.getIndices().h === k, h);
    await page.waitForFunction(() => window.Reveal?.isReady());
    await page.keyboard.press('ArrowRight');
    await onSlide(1);
    const element = await page.waitForSelector('.slides > section.present iframe');
    const lesson = await element.contentFrame();
    await lesson.waitForFunction(() => document.body?.dataset.ready === '1' && document.querySelector('#lesson-counter').textContent === 'step 1 of 5');
    // No click: → is the deck's, and goes past the lesson.
    await page.keyboard.press('ArrowRight');
    await onSlide(2);
    assert.equal(await lesson.textContent('#lesson-counter'), 'step 1 of 5');
    await page.keyboard.press('ArrowLeft');
    await onSlide(1);
    await page.waitForFunction(slideAtRest);
    const box = await element.boundingBox();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.7);
    await page.keyboard.press('PageDown');
    await lesson.waitForFunction(() => document.querySelector('#lesson-counter').textContent === 'step 2 of 5');
    assert.equal(await page.evaluate(() => window.Reveal.getIndices().h), 1);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('with the plugin, Firefox: the same walk by the keyboard alone, and a deck opened at the fast RVM', async () => {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    let stage = '';
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 720 });
      const errors = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${deck.url}with/index.html`);
      const frameOn = async () => (await page.waitForSelector('.slides > section.present iframe')).contentFrame();
      const waitIn = (doc, fn, arg) => doc.waitForFunction(fn, { timeout: 30_000 }, arg);
      await walk({ page, press: (key) => page.keyboard.press(key), frameOn, waitIn, step: (label) => (stage = label) }).catch((error) => {
        throw new Error(`${stage}: ${error.message}`);
      });
      // Opened at the fast RVM's slide (a new document: another query), its frame, loading as
      // the deck starts, takes the keys.
      await page.goto(`${deck.url}with/index.html?again#/2`);
      const rvm = await frameOn();
      await waitIn(rvm, readyAndFocused);
      await page.keyboard.press('s');
      await waitIn(rvm, () => document.querySelector('#readouts dd[data-key="step"]')?.textContent === '1');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

/** The window sizes a lecture meets, 4 : 3 and 16 : 9 and between. */
const SIZES = [[1024, 768], [1280, 720], [1280, 800], [1366, 768], [1440, 1080], [1600, 900], [1920, 1080]];

/** Runs in a frame: the boxes of its visible buttons matching `selector`, with whether each
 *  is inside the frame's viewport and on top at its centre and near its four corners (nothing,
 *  the chart included, covers it); and whether the page scrolls. */
function buttonsIn(selector) {
  const onTop = (button, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit !== null && button.contains(hit);
  };
  const buttons = [...document.querySelectorAll(selector)].filter((b) => b.checkVisibility() && b.offsetWidth > 0);
  return {
    scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
    buttons: buttons.map((button) => {
      const r = button.getBoundingClientRect();
      const inset = 3;
      const points = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + inset, r.top + inset], [r.right - inset, r.top + inset], [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset]];
      return {
        name: button.textContent.trim() || button.getAttribute('aria-label') || button.id,
        box: [r.left, r.top, r.right, r.bottom].map(Math.round),
        inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
        uncovered: points.every(([x, y]) => onTop(button, x, y)),
      };
    }),
  };
}

/** Shows slide `index` of the deck on `page`; returns the frame's element and its document
 *  once its panel has drawn, its work is done and the slide has come to rest. */
async function showSlide(page, index) {
  await page.evaluate((h) => window.Reveal.slide(h), index);
  const element = await page.waitForSelector(`.slides > section:nth-child(${index + 1}).present iframe`);
  const frame = await element.contentFrame();
  await frame.waitForSelector('body[data-ready="1"]');
  await frame.waitForFunction(() => Number(document.querySelector('#chart').dataset.draws ?? 0) >= 1);
  await page.waitForFunction(slideAtRest);
  await settled(frame);
  return { element, frame };
}

describe('the example deck (www/deck.html)', () => {
  for (const [width, height] of SIZES) {
    test(`${width}×${height}: each frame lies in its slide and the window, and every button of its stage (the player's strip, the tools) is inside it and uncovered`, async (t) => {
      const context = await env.browser.newContext({ viewport: { width, height } });
      const page = watched(await context.newPage());
      await page.goto(`${env.url}deck.html#/1`);
      await page.waitForFunction(() => window.Reveal?.isReady());
      for (const index of [1, 2, 3, 4]) {
        const { element, frame } = await showSlide(page, index);
        const outer = await element.boundingBox();
        const slide = await page.evaluate(() => document.querySelector('.reveal .slides').getBoundingClientRect().toJSON());
        const arrows = await page.evaluate(() => [...document.querySelectorAll('.reveal .controls button.enabled')].map((b) => b.getBoundingClientRect().toJSON()));
        const box = [outer.x, outer.y, outer.x + outer.width, outer.y + outer.height];
        t.diagnostic(`slide ${index}: frame ${box.map(Math.round).join(' ')} (${Math.round(outer.width)} × ${Math.round(outer.height)}) in slide ${[slide.left, slide.top, slide.right, slide.bottom].map(Math.round).join(' ')}`);
        const within = (r, [left, top, right, bottom]) => r[0] >= left - 0.5 && r[1] >= top - 0.5 && r[2] <= right + 0.5 && r[3] <= bottom + 0.5;
        assert.ok(within(box, [0, 0, width, height]), `slide ${index}: the frame ${box.map(Math.round)} leaves the window`);
        assert.ok(within(box, [slide.left, slide.top, slide.right, slide.bottom]), `slide ${index}: the frame leaves its slide`);
        // reveal.js's arrows sit beside the title, not over the frame.
        for (const a of arrows) {
          const apart = a.right <= box[0] || a.left >= box[2] || a.bottom <= box[1] || a.top >= box[3];
          assert.ok(apart, `slide ${index}: the deck's arrow at ${Math.round(a.left)},${Math.round(a.top)} covers the frame`);
        }
        const strip = await frame.evaluate(buttonsIn, '#stage-strip button, #stage-tools button');
        assert.equal(strip.scrolls, false, `slide ${index}: the framed page scrolls`);
        assert.ok(strip.buttons.length >= 2, `slide ${index}: the stage shows ${strip.buttons.length} buttons`);
        for (const b of strip.buttons) {
          assert.ok(b.inside && b.uncovered, `slide ${index}: "${b.name}" at ${b.box} is ${b.inside ? 'covered' : 'cut off'}`);
        }
        t.diagnostic(`slide ${index}: ${strip.buttons.length} stage buttons inside and uncovered, the lowest ending at ${Math.max(...strip.buttons.map((b) => b.box[3]))} of the frame's ${Math.round(outer.height / (outer.width / (await frame.evaluate(() => innerWidth))))} px`);
        if (width === 1280 && height === 720) await page.screenshot({ path: `${SHOTS}deck-fit-${index}-${width}x${height}.png` });
      }
      assert.deepEqual(page.consoleErrors, []);
      await context.close();
    });
  }

  // The lesson's Previous / Next sit beside its step counter at the top of the stage's side
  // (stage.js), above the text, which scrolls inside itself (www/style.css): in view on every
  // step however long its text.
  for (const [width, height] of [[1024, 768], [1280, 720], [1920, 1080]]) {
    test(`${width}×${height}: on every step, the framed lesson's Previous and Next are inside its band and uncovered`, async () => {
      const context = await env.browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await page.goto(`${env.url}deck.html#/4`);
      await page.waitForFunction(() => window.Reveal?.isReady());
      const { frame } = await showSlide(page, 4);
      const steps = Number((await frame.textContent('#lesson-counter')).match(/of (\d+)/)[1]);
      for (let k = 1; k <= steps; k += 1) {
        if (k > 1) {
          await frame.click('#lesson-next');
          await frame.waitForFunction((n) => document.querySelector('#lesson-counter').textContent.startsWith(`step ${n} `), k);
          await settled(frame);
        }
        const nav = await frame.evaluate(buttonsIn, '#lesson-prev, #lesson-next');
        const band = await frame.evaluate(() => document.querySelector('#lesson').getBoundingClientRect().toJSON());
        assert.equal(nav.buttons.length, 2);
        for (const b of nav.buttons) {
          const inBand = b.box[1] >= band.top - 0.5 && b.box[3] <= band.bottom + 0.5;
          assert.ok(b.inside && inBand && b.uncovered, `step ${k}: "${b.name}" at ${b.box}, the band ${Math.round(band.top)}–${Math.round(band.bottom)}`);
        }
      }
      await context.close();
    });
  }
});
