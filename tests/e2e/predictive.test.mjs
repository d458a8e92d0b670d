// End-to-end tests of the predictive panel in Debian's Chromium (playwright-core).
// Each test opens the page served from 127.0.0.1 and checks what a user would see.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasHash, countColour, draws, open, start, waitForDraws } from './browser.mjs';

const BAND_1 = '#f5b98f';
const BAND_2 = '#fbe3d1';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Asserts that the page asked only 127.0.0.1 for anything. */
function assertLocalOnly(page) {
  assert.ok(page.requests.length >= 5, 'the page loaded its files');
  for (const url of page.requests) {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//, `request left 127.0.0.1: ${url}`);
  }
}

/** Centre of the plotting area in page (CSS) coordinates. */
async function plotCentre(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('#chart');
    const box = canvas.getBoundingClientRect();
    const area = window.rvmLab.state.lab.plotArea();
    const sx = box.width / canvas.width;
    const sy = box.height / canvas.height;
    return { x: box.left + ((area.left + area.right) / 2) * sx, y: box.top + ((area.top + area.bottom) / 2) * sy };
  });
}

const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);
const query = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));

describe('predictive panel', () => {
  test('loads with no console error, draws the bands, and asks only 127.0.0.1', async () => {
    const page = await open(env);
    assert.deepEqual(page.consoleErrors, []);
    const area = await page.evaluate(() => window.rvmLab.state.lab.plotArea());
    const pixels = (area.right - area.left) * (area.bottom - area.top);
    const band1 = await countColour(page, BAND_1);
    const band2 = await countColour(page, BAND_2);
    assert.ok(band1 > 0.02 * pixels, `±1σ band covers ${band1} of ${pixels} pixels`);
    assert.ok(band2 > 0.02 * pixels, `±2σ band covers ${band2} of ${pixels} pixels`);
    assert.equal(await page.isHidden('#loading'), true);
    assert.equal(await page.isHidden('#crash'), true);
    assert.equal(await page.isHidden('#notices'), true);
    assert.equal(await readout(page, 'N'), '10');
    assertLocalOnly(page);
    await page.context().close();
  });

  test('the α slider, moved by keyboard, changes the drawing and the URL', async () => {
    const page = await open(env);
    const before = await canvasHash(page);
    const band1Before = await countColour(page, BAND_1);
    const n = await draws(page);
    await page.focus('#rng-alpha');
    await page.keyboard.press('End');
    await waitForDraws(page, n + 1);
    assert.equal(await page.inputValue('#ctl-alpha'), '10000');
    assert.equal((await query(page)).alpha, '10000');
    assert.notEqual(await canvasHash(page), before);
    // A strong prior pins the weights near 0: the ±1σ band narrows towards ±1/√β.
    assert.ok((await countColour(page, BAND_1)) < band1Before);
    assertLocalOnly(page);
    await page.context().close();
  });

  test('a click on the plot adds a point there', async () => {
    const page = await open(env);
    const { x, y } = await plotCentre(page);
    const n = await draws(page);
    await page.mouse.click(x, y);
    await waitForDraws(page, n + 1);
    assert.equal(await readout(page, 'N'), '11');
    const [px, pt] = (await query(page)).points.split(':').map(Number);
    assert.ok(Math.abs(px - 0.5) < 0.01 && Math.abs(pt) < 0.05, `point at (${px}, ${pt})`);
    // The keyboard path: the add-point form.
    await page.fill('#add-point input[name=x]', '0.25');
    await page.fill('#add-point input[name=t]', '1.5');
    await page.press('#add-point input[name=t]', 'Enter');
    await waitForDraws(page, n + 2);
    assert.equal(await readout(page, 'N'), '12');
    await page.context().close();
  });

  test('a bad value shows the error next to its control and keeps the plot', async () => {
    const page = await open(env);
    const before = await canvasHash(page);
    const n = await draws(page);
    await page.fill('#ctl-beta', '-1');
    await page.press('#ctl-beta', 'Enter');
    await page.waitForSelector('#err-beta:not(:empty)');
    assert.equal(await page.textContent('#err-beta'), 'β must be > 0, but is -1');
    assert.equal(await page.getAttribute('#ctl-beta', 'aria-invalid'), 'true');
    await page.fill('#ctl-N', '0');
    await page.press('#ctl-N', 'Enter');
    await page.waitForSelector('#err-N:not(:empty)');
    assert.match(await page.textContent('#err-N'), /no data points/);
    await page.fill('#ctl-alpha', 'abc');
    await page.press('#ctl-alpha', 'Enter');
    await page.waitForSelector('#err-alpha:not(:empty)');
    assert.equal(await page.textContent('#err-alpha'), 'α must be a finite number, but is abc');
    assert.equal(await draws(page), n, 'nothing was redrawn');
    assert.equal(await canvasHash(page), before);
    assert.equal((await query(page)).beta, '25');
    // The next good change clears the message and draws again.
    await page.fill('#ctl-beta', '11.1');
    await page.press('#ctl-beta', 'Enter');
    await waitForDraws(page, n + 1);
    assert.equal(await page.textContent('#err-beta'), '');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the language toggle switches every label', async () => {
    const page = await open(env);
    assert.equal(await page.textContent('label[for=ctl-alpha]'), 'Prior precision α');
    await page.click('#lang-toggle');
    // The other language's strings load on the first switch.
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.textContent('label[for=ctl-alpha]'), '先验精度 α');
    assert.equal(await page.textContent('#panel-title'), '预测分布');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal((await query(page)).lang, 'zh');
    await page.fill('#ctl-beta', '0');
    await page.press('#ctl-beta', 'Enter');
    await page.waitForSelector('#err-beta:not(:empty)');
    assert.equal(await page.textContent('#err-beta'), 'β 必须 > 0，当前为 0');
    // No visible text is left without a translation (a key shown raw would contain a dot).
    const raw = await page.evaluate(() =>
      // (The formula field's words load with the formula module: hidden until then.)
      [...document.querySelectorAll('[data-i18n]')].filter((el) => el.checkVisibility() && el.textContent === el.dataset.i18n).length,
    );
    assert.equal(raw, 0);
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.equal(await page.textContent('label[for=ctl-alpha]'), 'Prior precision α');
    assert.equal(await page.textContent('#err-beta'), 'β must be > 0, but is 0');
    await page.context().close();
  });

  test('a URL with state reproduces that state exactly', async () => {
    const state = '?panel=predictive&basis=polynomial&M=4&alpha=0.005&beta=11.1&N=7&seed=3&points=0.5:0.1';
    const page = await open(env, `${state}&lang=zh`);
    assert.equal(await page.inputValue('#ctl-basis'), 'polynomial');
    assert.equal(await page.isDisabled('#ctl-s'), true, 'the Gaussian width is greyed out for polynomials');
    assert.equal(await page.inputValue('#ctl-M'), '4');
    assert.equal(await page.inputValue('#ctl-alpha'), '0.005');
    assert.equal(await page.inputValue('#ctl-beta'), '11.1');
    assert.equal(await readout(page, 'N'), '8');
    assert.equal(await page.textContent('label[for=ctl-M]'), '基函数个数 M');
    assert.equal(await page.isHidden('#notices'), true);
    const fromUrl = await canvasHash(page);
    const urlQuery = await query(page);
    await page.context().close();

    // The same state reached by hand draws the same pixels.
    const other = await open(env);
    for (const [key, value] of [['M', '4'], ['alpha', '0.005'], ['beta', '11.1'], ['N', '7'], ['seed', '3']]) {
      await other.fill(`#ctl-${key}`, value);
      await other.press(`#ctl-${key}`, 'Enter');
      // The other controls follow a change in a task after it (controls.js's `followChange`),
      // with the address: typed into before then, the next box would get its old value back.
      // A reader's next keystroke comes long after; the harness's can come first.
      await other.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value]);
    }
    await other.selectOption('#ctl-basis', 'polynomial');
    await other.fill('#add-point input[name=x]', '0.5');
    await other.fill('#add-point input[name=t]', '0.1');
    await other.press('#add-point input[name=t]', 'Enter');
    await other.waitForFunction(() => document.querySelector('#readouts dd[data-key="N"]')?.textContent === '8');
    await other.waitForTimeout(100);
    assert.equal(await canvasHash(other), fromUrl);
    delete urlQuery.lang;
    assert.deepEqual(await query(other), urlQuery);
    for (const [key, value] of new URLSearchParams(state)) assert.equal(urlQuery[key], value, key);
    await other.context().close();
  });

  test('bad URL parameters fall back to defaults with a notice, never a blank page', async () => {
    const page = await open(env, '?panel=nope&alpha=abc&M=-2&colour=red&lang=fr&embed=yes');
    const notices = await page.$$eval('#notices li', (items) => items.map((li) => li.textContent));
    assert.equal(notices.length, 6, notices.join('\n'));
    assert.ok(notices.some((n) => n.includes('nope')));
    assert.ok(notices.some((n) => n.startsWith('alpha: α must be a finite number')));
    assert.ok(notices.some((n) => n.startsWith('colour: unknown parameter')));
    assert.equal(await page.inputValue('#ctl-alpha'), '2');
    assert.equal(await page.inputValue('#ctl-M'), '9');
    assert.ok((await countColour(page, BAND_1)) > 1000, 'the default plot is drawn');
    // A state that parses but cannot be fitted: the key to blame (α, too small for 30
    // polynomials) falls back alone, with a notice; the others stand (issue 53).
    const singular = await open(env, '?basis=polynomial&M=30&alpha=1e-300&beta=1e6');
    assert.match(await singular.textContent('#notices li'), /^alpha: .*not positive definite/);
    assert.equal(await singular.inputValue('#ctl-M'), '30');
    assert.equal(await singular.inputValue('#ctl-alpha'), '2');
    await singular.context().close();
    await page.context().close();
  });

  test('embed=1 shows only the plot and its controls, fitting the width', async () => {
    const page = await open(env, '?panel=predictive&embed=1', { viewport: { width: 480, height: 900 } });
    for (const hidden of ['header.site .site-controls', 'footer.site', '#panel-intro', '#panel-title']) {
      assert.equal(await page.isHidden(hidden), true, `${hidden} is hidden`);
    }
    // The site's heading stays, for screen readers only (1 × 1 px, clipped).
    assert.deepEqual(await page.$eval('header.site', (el) => [el.offsetWidth <= 1, el.offsetHeight <= 1, getComputedStyle(el).clipPath]), [true, true, 'inset(50%)']);
    assert.equal(await page.isVisible('#chart'), true);
    assert.equal(await page.isVisible('#ctl-alpha'), true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no horizontal scroll');
    assert.equal((await query(page)).embed, '1');
    await page.context().close();
  });

  test('the canvas follows its container width and devicePixelRatio', async () => {
    const context = await env.browser.newContext({ viewport: { width: 900, height: 700 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(env.url);
    await waitForDraws(page, 1);
    const size = () => page.$eval('#chart', (c) => ({ w: c.width, css: c.getBoundingClientRect().width }));
    let { w, css } = await size();
    assert.ok(Math.abs(w - 2 * css) <= 2, `${w} device pixels for ${css} CSS pixels`);
    const n = await draws(page);
    await page.setViewportSize({ width: 600, height: 700 });
    await waitForDraws(page, n + 1);
    ({ w, css } = await size());
    assert.ok(css < 600 && Math.abs(w - 2 * css) <= 2, `${w} device pixels for ${css} CSS pixels after resize`);
    await context.close();
  });

  test('reset returns to the defaults', async () => {
    const page = await open(env, '?M=3&alpha=0.1');
    const n = await draws(page);
    await page.click('#reset');
    await waitForDraws(page, n + 1);
    assert.equal(await page.inputValue('#ctl-M'), '9');
    assert.equal((await query(page)).alpha, '2');
    await page.context().close();
  });

  test('if the module dies the page says so and keeps the last plot', async () => {
    const page = await open(env);
    const before = await canvasHash(page);
    await page.evaluate(() => {
      try {
        window.rvmLab.crashForTests();
      } catch {
        /* the trap surfaces here; the page has already reacted */
      }
    });
    await page.waitForSelector('#crash:not([hidden])');
    assert.match(await page.textContent('#crash'), /stopped after an internal error/);
    assert.equal(await page.isDisabled('#ctl-alpha'), true);
    assert.equal(await canvasHash(page), before);
    assert.ok(page.consoleErrors.some((e) => e.includes('deliberate panic')), 'the panic message reached the console');
    await page.context().close();
  });
});
