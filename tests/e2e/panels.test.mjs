// End-to-end checks every panel must pass in Chromium: it draws with no console error and
// no untranslated text in either language, a control changes the drawing, a bad value
// shows its error and keeps the plot, and embed=1 fits a narrow iframe.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasHash, drag, draws, open, panelNames, settled, start, waitForDraws } from './browser.mjs';

/** A good change (key, value) and a bad value for some control of each panel. */
const CHANGES = {
  predictive: { good: ['M', '5'], bad: ['alpha', '-2'] },
  basis: { good: ['M', '4'], bad: ['s', '0'] },
  'least-squares': { good: ['M', '7'], bad: ['M', '100000'] },
  'gradient-descent': { good: ['rate', '0.02'], bad: ['rate', '0'] },
  regularisation: { good: ['lambda', '2'], bad: ['lambda', '-1'] },
  sequential: { good: ['k', '4'], bad: ['alpha', '0'] },
  evidence: { good: ['M', '5'], bad: ['s', '-1'] },
  'model-comparison': { good: ['beta', '25'], bad: ['alpha', 'x'] },
  sparsity: { good: ['alpha', '0.1'], bad: ['beta', '-1'] },
  'lambda-curve': { good: ['q2', '9'], bad: ['sparsity', '0'] },
  'fast-rvm': { good: ['s', '0.05'], bad: ['s', '-1'] },
  classification: { good: ['s', '0.5'], bad: ['s', '-1'] },
  poisson: { good: ['s', '0.05'], bad: ['s', '-1'] },
  multiclass: { good: ['s', '0.5'], bad: ['s', '-1'] },
};

/** Every panel the module lists (its registry, not a copy), with its changes. */
const PANELS = (await panelNames()).map((name) => ({ name, ...CHANGES[name] }));

test('every panel of the module has its changes listed here, and no other', () => {
  assert.deepEqual(PANELS.filter((p) => !p.good).map((p) => p.name), [], 'panels without a change to test');
  const names = PANELS.map((p) => p.name);
  assert.deepEqual(Object.keys(CHANGES).filter((name) => !names.includes(name)), [], 'changes of no panel');
});

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
      await settled(page);
      const second = await canvasHash(page);
      const drawn = await draws(page);
      assert.notEqual(second, first);
      await setText(page, ...bad);
      await page.waitForSelector(`#err-${bad[0]}:not(:empty)`);
      assert.equal(await draws(page), drawn, 'nothing was redrawn');
      assert.equal(await canvasHash(page), second);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    });

    test('embed=1 fits a 360 px iframe', async () => {
      const page = await open(env, `?panel=${name}&embed=1`, { viewport: { width: 360, height: 800 } });
      // The site's header is not shown; its heading stays for screen readers only.
      assert.equal(await page.isHidden('header.site .site-controls'), true);
      const header = await page.$eval('header.site', (el) => [el.offsetWidth, el.offsetHeight]);
      assert.ok(header[0] <= 1 && header[1] <= 1, `the header takes ${header} px`);
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
    await drag(page, [0.4, 0.5], [0.7, 0.5]);
    const centres = await page.evaluate(() => new URLSearchParams(location.search).get('centres'));
    const [j, mu] = centres.split(':').map(Number);
    assert.equal(j, 2);
    assert.ok(Math.abs(mu - 0.7) < 0.01, `moved to ${mu}`);
    await page.context().close();
  });
});

const messages = (page) => page.$$eval('#messages li', (items) => items.map((li) => li.textContent));
const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);

describe('panel least-squares', () => {
  test('M above N gives the minimum-norm answer with a message, never NaN', async () => {
    const page = await open(env, '?panel=least-squares&basis=polynomial&M=21&N=10');
    const text = (await messages(page)).join(' ');
    assert.match(text, /minimum-norm solution/);
    assert.equal(await readout(page, 'rank'), '10');
    const all = await page.$$eval('#readouts dd, #tables td', (cells) => cells.map((c) => c.textContent));
    assert.ok(all.every((v) => !/NaN|Infinity/.test(v)), all.join(' '));
    await page.context().close();
  });
});

describe('panel gradient-descent', () => {
  test('restart, step and play move through the iterations', async () => {
    const page = await open(env, '?panel=gradient-descent');
    const progress = () => page.$eval('#progress', (p) => [p.value, p.max]);
    const [end, total] = await progress();
    assert.equal(end, total);
    assert.ok(total >= 240, `${total} iterations`);
    await page.click('#restart');
    await page.waitForFunction(() => document.querySelector('#progress').value === 0);
    await page.focus('#step');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#progress').value === 1);
    await page.click('#play');
    await page.waitForFunction(() => document.querySelector('#progress').value > 20);
    await page.click('#play');
    const paused = (await progress())[0];
    await page.waitForTimeout(200);
    assert.equal((await progress())[0], paused, 'pause stops the animation');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a divergent learning rate is reported, not drawn as NaN', async () => {
    const page = await open(env, '?panel=gradient-descent&rate=0.5');
    const text = (await messages(page)).join(' ');
    assert.match(text, /BGD diverged at iteration \d+/);
    const values = await page.$$eval('#readouts dd', (cells) => cells.map((c) => c.textContent));
    assert.ok(values.every((v) => !/NaN|Infinity/.test(v)), values.join(' '));
    await page.context().close();
  });

  test('the epoch / batch / iteration table follows N and b', async () => {
    const page = await open(env, '?panel=gradient-descent&N=30&batch=7&epochs=10');
    const rows = await page.$$eval('#tables tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows, [
      ['BGD', '30', '1', '10', '10'],
      ['SGD', '1', '30', '10', '300'],
      ['MBGD', '7', '5', '10', '50'],
    ]);
    await page.context().close();
  });
});

describe('panel regularisation', () => {
  test('a large λ zeroes every lasso weight; ridge by GD matches the closed form', async () => {
    const page = await open(env, '?panel=regularisation');
    const gap = Number(await readout(page, 'ridge-gap'));
    assert.ok(gap < 1e-6, `gap ${gap}`);
    const n = await page.$eval('#chart', (c) => Number(c.dataset.draws));
    await page.fill('#ctl-lambda', '500');
    await page.press('#ctl-lambda', 'Enter');
    await waitForDraws(page, n + 1);
    await settled(page);
    assert.equal(await readout(page, 'lasso-zeros'), '10');
    assert.equal(await page.isHidden('#working'), true, 'the progress bar goes away when done');
    await page.context().close();
  });
});

describe('slider ranges', () => {
  test('the M and N sliders end at the panel\'s limits: End on the slider is a value the panel takes', async () => {
    for (const [panel, key, max] of [['gradient-descent', 'M', '10'], ['regularisation', 'M', '20'], ['regularisation', 'N', '100']]) {
      const page = await open(env, `?panel=${panel}`);
      assert.equal(await page.getAttribute(`#rng-${key}`, 'max'), max, `${panel}: ${key}`);
      const n = await draws(page);
      await page.focus(`#rng-${key}`);
      await page.keyboard.press('End');
      await waitForDraws(page, n + 1);
      await settled(page);
      assert.equal(await page.evaluate((k) => window.rvmLab.state.lab.value(k), key), max);
      assert.equal(await page.textContent(`#err-${key}`), '', `${panel}: ${key} = ${max} refused`);
      await page.context().close();
    }
  });
});

describe('panel sequential', () => {
  test('steps add points one at a time, the URL follows, presets jump', async () => {
    const page = await open(env, '?panel=sequential&k=0');
    const k = () => page.evaluate(() => new URLSearchParams(location.search).get('k'));
    assert.equal(await k(), '0');
    await page.click('#step');
    await page.click('#step');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('k') === '2');
    assert.equal(await page.inputValue('#ctl-k'), '2');
    assert.equal(await readout(page, 'observed'), '2');
    await page.click('.presets button[data-value="25"]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('k') === '25');
    const sd = Number(await readout(page, 'sd1'));
    assert.ok(sd < 0.15, `sd(w₁) = ${sd} after 25 points`);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});

describe('panel evidence', () => {
  test('a click on the surface starts the schemes there; fixed point and EM meet at the maximum', async () => {
    const page = await open(env, '?panel=evidence');
    const rows = () => page.$$eval('#tables tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const [, , both, em] = await rows();
    assert.deepEqual(both.slice(2, 5), em.slice(2, 5), 'α, β and γ of the fixed point and of EM agree');
    assert.equal(Number(await readout(page, 'log-evidence')).toFixed(2), Number(await readout(page, 'surface-max')).toFixed(2));
    const box = await page.$eval('#chart', (c) => {
      const r = c.getBoundingClientRect();
      const a = window.rvmLab.state.lab.plotArea();
      return { x: r.left + (a.left + 0.25 * (a.right - a.left)) * (r.width / c.width), y: r.top + (a.top + 0.75 * (a.bottom - a.top)) * (r.height / c.height) };
    });
    const before = await page.evaluate(() => new URLSearchParams(location.search).get('start'));
    const n = await page.$eval('#chart', (c) => Number(c.dataset.draws));
    await page.mouse.click(box.x, box.y);
    await waitForDraws(page, n + 1);
    const after = await page.evaluate(() => new URLSearchParams(location.search).get('start'));
    assert.notEqual(after, before);
    const [lnAlpha, lnBeta] = after.split(':').map(Number);
    assert.ok(Number.isFinite(lnAlpha) && Number.isFinite(lnBeta), after);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});

describe('panel sparsity', () => {
  test('dragging t changes ln p(t|α) and the URL; dragging it across φ prunes φ', async () => {
    const page = await open(env, '?panel=sparsity');
    const query = (key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
    assert.deepEqual([await query('t1'), await query('t2')], ['1', '1.2']);
    const before = await readout(page, 'log-p-alpha');
    assert.match((await messages(page)).join(' '), /q² > s/);
    // t = (1, 1.2) is nearer the press than the tip of φ = (1, 0.5): t is grabbed. Drag it
    // to (−0.5, 1), orthogonal to φ, so q = βφᵀt = 0.
    await drag(page, [1, 1.2], [-0.5, 1]);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('t1') !== '1');
    const [t1, t2] = [Number(await query('t1')), Number(await query('t2'))];
    assert.ok(Math.abs(t1 + 0.5) < 0.02 && Math.abs(t2 - 1) < 0.02, `t moved to (${t1}, ${t2})`);
    assert.deepEqual([await query('phi1'), await query('phi2')], ['1', '0.5'], 'φ stays');
    assert.notEqual(await readout(page, 'log-p-alpha'), before);
    assert.equal(await page.inputValue('#ctl-t1'), String(t1));
    assert.equal(await readout(page, 'alpha-star'), '∞');
    assert.match((await messages(page)).join(' '), /q² ≤ s/);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('α = ∞ by keyboard: the toggle greys out the α slider', async () => {
    const page = await open(env, '?panel=sparsity');
    const before = await readout(page, 'log-p-alpha');
    await page.focus('#ctl-pruned');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('pruned') === '1');
    assert.equal(await page.isDisabled('#ctl-alpha'), true);
    assert.notEqual(await readout(page, 'log-p-alpha'), before);
    await page.context().close();
  });
});

describe('panel lambda-curve', () => {
  test('the case q² = 1, s = 2 puts α* at ∞; changing q² makes the case custom', async () => {
    const page = await open(env, '?panel=lambda-curve');
    assert.equal(await readout(page, 'alpha-star'), '0.33333');
    await page.selectOption('#ctl-case', 'fig-7-11-right');
    await page.waitForFunction(() => document.querySelector('#readouts dd[data-key="alpha-star"]')?.textContent === '∞');
    assert.equal(await readout(page, 'theta'), '-1');
    assert.equal(await readout(page, 'lambda-star'), '0');
    assert.equal(await page.inputValue('#ctl-q2'), '1');
    assert.equal(await page.inputValue('#ctl-sparsity'), '2');
    assert.match((await messages(page)).join(' '), /q² ≤ s/);
    await setText(page, 'q2', '9');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('case') === 'custom');
    assert.equal(await readout(page, 'alpha-star'), '0.57143');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});
