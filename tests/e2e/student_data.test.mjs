// A student's own data, units and mistakes in Chromium (issue 53): the formula family can
// always be edited, even when its formula fails where the student chose it; every number a
// box, the address or a readout shows is in the lab's one format (exponent form below 1e-5
// and from 1e16); a key given thousands of times is one notice; a count beyond the run is
// refused with a notice; nothing a student did is lost: each panel keeps its state for the
// visit, Back and Forward move between the views made, and an edit that rewrites the data
// says so and is undone.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasHash, open, query, settled, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

describe('a student’s own data and mistakes', () => {
  test('the formula family chosen where its formula fails: the box and presets stay open to correct it, the chart the last good one', async () => {
    // The formula divides by s − 0.05: fine at s = 0.1, a division by zero at 0.05.
    const formula = '1/(s - 0.05)*exp(-(x - mu)^2/(2*s^2))';
    const page = await open(env, `?panel=predictive&basis=formula&formula=${encodeURIComponent(formula)}`);
    assert.equal(await page.inputValue('#ctl-formula'), formula);
    await page.selectOption('#ctl-basis', 'gaussian');
    await settled(page);
    await page.fill('#ctl-s', '0.05');
    await page.press('#ctl-s', 'Enter');
    await settled(page);
    assert.equal(await query(page, 's'), '0.05');
    const gaussian = await canvasHash(page);
    await page.selectOption('#ctl-basis', 'formula');
    await settled(page);
    // No dead end: the menu says "your formula", and its box, its presets and its error show.
    assert.equal(await page.inputValue('#ctl-basis'), 'formula');
    assert.ok(await page.isVisible('#ctl-formula'), 'the formula box shows');
    assert.ok(await page.isEnabled('#ctl-formula'));
    assert.ok(await page.isVisible('.control[data-key=formula] .presets button'), 'its presets show');
    assert.notEqual(await page.textContent('#err-formula'), '', 'the formula says why it was refused');
    assert.equal(await query(page, 'basis'), 'gaussian', 'the state is the last good one');
    assert.equal(await canvasHash(page), gaussian, 'and so is the chart');
    // Corrected by typing: the family takes, with the corrected formula.
    await page.fill('#ctl-formula', 'exp(-abs(x - mu)/s)');
    await settled(page);
    assert.equal(await query(page, 'basis'), 'formula');
    assert.equal(await query(page, 'formula'), 'exp(-abs(x - mu)/s)');
    assert.equal(await page.textContent('#err-formula'), '');
    assert.notEqual(await canvasHash(page), gaussian);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
    // Again from a link that keeps the failing formula beside the Gaussian family, corrected
    // by a preset this time.
    const linked = await open(env, `?panel=predictive&basis=gaussian&s=0.05&formula=${encodeURIComponent(formula)}`);
    await linked.selectOption('#ctl-basis', 'formula');
    await settled(linked);
    assert.equal(await query(linked, 'basis'), 'gaussian');
    assert.notEqual(await linked.textContent('#err-formula'), '');
    await linked.click('.control[data-key=formula] .presets button >> nth=0');
    await settled(linked);
    assert.equal(await query(linked, 'basis'), 'formula', 'a preset corrects it too');
    assert.equal(await linked.textContent('#err-formula'), '');
    assert.deepEqual(linked.consoleErrors, []);
    await linked.context().close();
  });

  test('a tiny α and a huge β read in exponent form in their boxes, the address and the readouts; the slider’s end too', async () => {
    const page = await open(env, '?panel=predictive&alpha=1e-20&beta=1.23e29');
    assert.equal(await page.inputValue('#ctl-alpha'), '1e-20');
    assert.equal(await query(page, 'alpha'), '1e-20');
    assert.equal(await page.inputValue('#ctl-beta'), '1.23e29');
    assert.equal(await query(page, 'beta'), '1.23e29');
    // The slider at its left end: its value as the box and the address write it.
    const min = await page.$eval('#rng-alpha', (range) => Number(range.min));
    await page.$eval('#rng-alpha', (range) => {
      range.value = range.min;
      range.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await settled(page);
    const text = await page.inputValue('#ctl-alpha');
    assert.equal(Number(text), Number((10 ** min).toPrecision(4)));
    assert.ok(text.length <= 6, `the box reads ${text}`);
    assert.equal(await query(page, 'alpha'), text);
    // A readout of a tiny number: in exponent form, five digits at most.
    for (const shown of await page.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.textContent))) {
      assert.doesNotMatch(shown, /0\.0000\d/, `${shown} is written out in full`);
      assert.ok(shown.length <= 12, `${shown} is short`);
    }
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a key given five thousand times in the fragment is one notice; a count beyond the run is refused with one', async () => {
    const page = await open(env, `?panel=predictive#${Array(5000).fill('a=b').join('&')}`);
    const notices = await page.$$eval('#notices li', (items) => items.map((item) => item.textContent));
    assert.equal(notices.length, 1, notices.slice(0, 3).join(' | '));
    await page.context().close();
    const sequential = await open(env, '?panel=sequential&k=99');
    const said = await sequential.$$eval('#notices li', (items) => items.map((item) => item.textContent));
    assert.equal(said.length, 1, said.join(' | '));
    assert.match(said[0], /\bk\b/);
    assert.notEqual(await sequential.inputValue('#ctl-k'), '99', 'the box says what the chart shows');
    assert.notEqual(await query(sequential, 'k'), '99');
    await sequential.context().close();
  });

  test('each panel keeps its state for the visit, and Back and Forward move between the views the student made', async () => {
    const page = await open(env, '?panel=predictive');
    /** The view the page shows: its panel and its state, as the lab has them. */
    const view = () => page.evaluate(() => JSON.stringify([window.rvmLab.state.panel, window.rvmLab.state.lab.query()]));
    const views = [await view()];
    const entries = await page.evaluate(() => history.length);
    await page.fill('#ctl-alpha', '5');
    await page.press('#ctl-alpha', 'Enter');
    await settled(page);
    views.push(await view());
    await page.fill('#add-point input[name=x]', '0.5');
    await page.fill('#add-point input[name=t]', '0.25');
    await page.click('#add-point button[type=submit]');
    await settled(page);
    views.push(await view());
    assert.match(views[2], /0\.5/, 'the point is in the state');
    await page.selectOption('#panel-select', 'evidence');
    await page.waitForFunction(() => window.rvmLab.state.panel === 'evidence');
    await settled(page);
    views.push(await view());
    // Back on the same panel from the menu: as the student left it.
    await page.selectOption('#panel-select', 'predictive');
    await page.waitForFunction(() => window.rvmLab.state.panel === 'predictive');
    await settled(page);
    assert.equal(await view(), views[2], 'the panel opens again as it was left');
    assert.equal(await page.inputValue('#ctl-alpha'), '5');
    assert.equal(await page.evaluate(() => history.length), entries + 4, 'one entry for each view made');
    // Back through every view, then Forward again.
    for (const expected of [views[3], views[2], views[1], views[0]]) {
      await page.goBack();
      await page.waitForFunction((want) => JSON.stringify([window.rvmLab.state.panel, window.rvmLab.state.lab.query()]) === want, expected);
    }
    await settled(page);
    assert.equal(await page.inputValue('#ctl-alpha'), '2', 'the first view, at its defaults');
    await page.goForward();
    await page.waitForFunction((want) => JSON.stringify([window.rvmLab.state.panel, window.rvmLab.state.lab.query()]) === want, views[1]);
    await settled(page);
    assert.equal(await page.inputValue('#ctl-alpha'), '5');
    // A slider's ticks are one entry, not one each: Back from the last returns to the view
    // before the first.
    await page.$eval('#rng-alpha', (range) => {
      for (const value of [-1, -0.5, 0, 0.5, 1]) {
        range.value = String(value);
        range.dispatchEvent(new Event('input', { bubbles: true }));
      }
      range.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settled(page);
    assert.equal(await page.inputValue('#ctl-alpha'), '10');
    await page.goBack();
    await page.waitForFunction((want) => JSON.stringify([window.rvmLab.state.panel, window.rvmLab.state.lab.query()]) === want, views[1]);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('moving an added point keeps the generated data; moving a generated one says so, and Undo brings them back', async () => {
    const page = await open(env, '?panel=predictive&N=10');
    // A generated point's coordinates show whole in their boxes (six significant digits).
    for (const id of ['#point-x', '#point-y']) {
      const [text, shown, needed] = await page.$eval(id, (box) => [box.value, box.clientWidth, box.scrollWidth]);
      assert.ok(needed <= shown && text.replace('-', '').length <= 8, `${id} shows ${text} in ${shown} of ${needed} px`);
    }
    await page.fill('#add-point input[name=x]', '0.5');
    await page.fill('#add-point input[name=t]', '0.25');
    await page.click('#add-point button[type=submit]');
    await settled(page);
    // The added point is the eleventh: moved, N stays 10 and the link stays short.
    await page.fill('#point-index', '11');
    await page.fill('#point-x', '0.75');
    await page.press('#point-x', 'Enter');
    await settled(page);
    assert.equal(await query(page, 'N'), '10');
    assert.equal(await page.textContent('#points-said'), '');
    const address = await page.evaluate(() => location.href);
    assert.ok(address.length < 200, address);
    // Typed key by key, a coordinate is one entry of the browser's history, not one a key.
    const entries = await page.evaluate(() => history.length);
    await page.click('#point-x', { clickCount: 3 });
    await page.keyboard.type('0.65');
    await settled(page);
    assert.equal(await query(page, 'N'), '10');
    assert.equal(await page.evaluate(() => history.length), entries + 1, 'four keys, one entry');
    // A generated point moved: every point becomes the student's own, and the editor says so.
    await page.fill('#point-index', '1');
    await page.fill('#point-x', '0.05');
    await page.press('#point-x', 'Enter');
    await settled(page);
    assert.equal(await query(page, 'N'), '0');
    assert.match(await page.textContent('#points-said'), /10/);
    await page.click('#undo');
    await settled(page);
    assert.equal(await query(page, 'N'), '10', 'Undo brings the generated data back');
    assert.equal(await page.textContent('#points-said'), '');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a formula with no value says which operation, why and where, in both languages', async () => {
    const formula = 'log(-1)+mu*x';
    for (const [lang, words] of [['en', /ln\(-1\) is NaN, the logarithm of a negative number/], ['zh', /ln\(-1\) 为 NaN，即负数的对数/]]) {
      const page = await open(env, `?panel=predictive&basis=formula&formula=${encodeURIComponent(formula)}&lang=${lang}`);
      const notices = await page.$$eval('#notices li', (items) => items.map((item) => item.textContent));
      assert.equal(notices.length, 1, notices.join(' | '));
      assert.match(notices[0], words);
      assert.match(notices[0], /φ1\(x\)/);
      assert.match(notices[0], /x = 0/);
      assert.doesNotMatch(notices[0], /overflow|溢出/);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }
  });
});
