// End-to-end checks every panel must pass in Chromium: it draws with no console error and
// no untranslated text in either language, a control changes the drawing, a bad value
// shows its error and keeps the plot, and embed=1 fits a narrow iframe.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasHash, draws, open, start, waitForDraws } from './browser.mjs';

/** Each panel with a good change (key, value) and a bad value for some control. */
const PANELS = [
  { name: 'predictive', good: ['M', '5'], bad: ['alpha', '-2'] },
  { name: 'basis', good: ['M', '4'], bad: ['s', '0'] },
];

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Texts on the page that are string-table keys shown raw (a translation is missing). */
function rawKeys(page) {
  return page.evaluate(() => {
    const keyLike = /^(panel|param|legend|readout|table|column|cell|message|choice|player|control|notice|error|bound|chart)\.[\w.-]+$/;
    const texts = [...document.querySelectorAll('body *')]
      .filter((el) => el.children.length === 0 && el.offsetParent !== null)
      .map((el) => el.textContent.trim());
    return texts.filter((text) => keyLike.test(text));
  });
}

async function setText(page, key, value) {
  await page.fill(`#ctl-${key}`, value);
  await page.press(`#ctl-${key}`, 'Enter');
}

for (const { name, good, bad } of PANELS) {
  describe(`panel ${name}`, () => {
    test('draws in both languages with no console error and nothing untranslated', async () => {
      const page = await open(env, `?panel=${name}`);
      assert.deepEqual(page.consoleErrors, []);
      assert.deepEqual(await rawKeys(page), []);
      assert.equal(await page.inputValue('#panel-select'), name);
      const n = await draws(page);
      await page.click('#lang-toggle');
      await waitForDraws(page, n + 1);
      assert.deepEqual(await rawKeys(page), []);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      for (const url of page.requests) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//);
      await page.context().close();
    });

    test('a control changes the drawing; a bad value keeps it', async () => {
      const page = await open(env, `?panel=${name}`);
      const first = await canvasHash(page);
      const n = await draws(page);
      await setText(page, ...good);
      await waitForDraws(page, n + 1);
      const second = await canvasHash(page);
      assert.notEqual(second, first);
      await setText(page, ...bad);
      await page.waitForSelector(`#err-${bad[0]}:not(:empty)`);
      assert.equal(await draws(page), n + 1, 'nothing was redrawn');
      assert.equal(await canvasHash(page), second);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    });

    test('embed=1 fits a 360 px iframe', async () => {
      const page = await open(env, `?panel=${name}&embed=1`, { viewport: { width: 360, height: 800 } });
      assert.equal(await page.isHidden('header.site'), true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0);
      await page.context().close();
    });
  });
}

describe('panel basis: dragging a centre', () => {
  test('moves that function and keeps the move in the URL', async () => {
    const page = await open(env, '?panel=basis&basis=gaussian&M=6&bias=0');
    // Centres at 0, 0.2, …, 1: grab the one at 0.4 on its triangle and drag it to 0.7.
    const at = (x, y) =>
      page.evaluate(
        ([x, y]) => {
          const canvas = document.querySelector('#chart');
          const box = canvas.getBoundingClientRect();
          const a = window.rvmLab.state.lab.plotArea();
          const px = a.left + ((x - a.x_range[0]) / (a.x_range[1] - a.x_range[0])) * (a.right - a.left);
          const py = a.bottom - ((y - a.y_range[0]) / (a.y_range[1] - a.y_range[0])) * (a.bottom - a.top);
          return { x: box.left + (px * box.width) / canvas.width, y: box.top + (py * box.height) / canvas.height };
        },
        [x, y],
      );
    const from = await at(0.4, 0.5);
    const to = await at(0.7, 0.5);
    const n = await draws(page);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await page.mouse.up();
    await waitForDraws(page, n + 1);
    const centres = await page.evaluate(() => new URLSearchParams(location.search).get('centres'));
    const [j, mu] = centres.split(':').map(Number);
    assert.equal(j, 2);
    assert.ok(Math.abs(mu - 0.7) < 0.01, `moved to ${mu}`);
    await page.context().close();
  });
});
