// The formula basis family in Chromium (issue 35): its parser is a module of its own
// (pkg/formula_bg.wasm), loaded only when a formula is first asked for; a typed formula draws
// at each valid keystroke, an invalid one keeps the last good chart and says what is wrong and
// where; presets, a dragged centre, the URL and the fast RVM on the student's functions.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { canvasHash, drag, draws, open, pngTexts, query, settled, start, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const formulaModuleAsked = (page) => page.requests.some((url) => /\/pkg\/formula(_bg\.wasm|\.js)$/.test(url));
const fieldError = (page) => page.textContent('#err-formula');

/** The numbers of the panel's plotted data (its CSV without the state, the last section),
 *  row by row. */
async function plottedNumbers(page) {
  const csv = await page.evaluate(() => window.rvmLab.state.lab.plottedCsv());
  const plotted = csv.slice(0, csv.lastIndexOf('\n\nstate\n'));
  return plotted.trim().split('\n').slice(1).map((line) => line.split(',').map(Number).filter(Number.isFinite));
}

/** The last section of a CSV export, the state it was made from, as its lines. */
const stateLines = (csv) => csv.slice(csv.lastIndexOf('\n\nstate\n') + 2).trimEnd().split('\n');

/** Types `text` into the formula field, one input event, and waits until the page has acted. */
async function typeFormula(page, text) {
  await page.fill('#ctl-formula', text);
  await settled(page);
}

describe('the formula family', () => {
  test('loads its module only when chosen, then draws the Gaussian family’s functions from their formula', async () => {
    const page = await open(env, '?panel=basis&basis=gaussian&M=6&bias=0');
    const gaussian = await plottedNumbers(page);
    assert.equal(formulaModuleAsked(page), false, 'a panel without a formula does not load the formula module');
    assert.equal(await page.isVisible('#ctl-formula'), false, 'the field shows with its family only');
    await page.selectOption('#ctl-basis', 'formula');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('basis') === 'formula');
    await settled(page);
    assert.ok(formulaModuleAsked(page));
    assert.equal(await page.inputValue('#ctl-formula'), 'exp(-(x - mu)^2/(2*s^2))');
    assert.equal(await query(page, 'formula'), 'exp(-(x - mu)^2/(2*s^2))');
    assert.equal(await page.textContent('label[for=ctl-formula]'), 'Each basis function φⱼ(x) =');
    // The same curves as the built-in family, to rounding.
    const formula = await plottedNumbers(page);
    assert.equal(formula.length, gaussian.length);
    formula.forEach((row, r) => row.forEach((v, c) => assert.ok(Math.abs(v - gaussian[r][c]) < 1e-12, `row ${r}, column ${c}: ${v} ≠ ${gaussian[r][c]}`)));
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('each valid keystroke redraws; an invalid one keeps the last good chart and says what and where', async () => {
    const page = await open(env, '?panel=basis&basis=formula&formula=exp(-abs(x-mu)/s)&M=6&bias=0');
    assert.equal(await page.inputValue('#ctl-formula'), 'exp(-abs(x-mu)/s)');
    const good = await canvasHash(page);
    const cases = [
      ['exp(-abs(x-mu)/sigma)', 'unknown name ‘sigma’ at character 16: did you mean s?'],
      ['exp(-abs(x-mu)/s))', 'unexpected ‘)’ at character 18'],
      ['exp(-abs(x-mu)/', 'the formula ends too soon at character 16: a number, a name or ‘(’ must follow'],
      ['2x*mu', 'missing an operator before ‘x’ at character 2: write 2*x, not 2x'],
      ['exp(mu)', 'the formula does not depend on x: every function would be a constant'],
      ['exp(-x/s)', 'every function is the same: the formula depends on neither mu nor j'],
      // A formula with no value names the operation that has none, and why (issue 53).
      ['1/(x - mu)', 'basis function φ1(x) has no finite value at x = 0: there 1/0 is inf, a division by zero'],
      ['(x + 1)^1e9*mu', 'basis function φ1(x) has no finite value at x = 0.0016666666666666668: there 1.0016666666666667^1000000000 is inf, a number too large for the computer (beyond ±1.8e308)'],
      // The field takes one character past the limit, so the reader is told, not cut short.
      [`x*mu${'+x'.repeat(100)}`, 'the formula is too long: 201 characters, at most 200'],
    ];
    for (const [text, message] of cases) {
      await typeFormula(page, text);
      assert.equal(await fieldError(page), message, text);
      assert.equal(await canvasHash(page), good, `${text}: the last good chart stays`);
      assert.equal(await query(page, 'formula'), 'exp(-abs(x-mu)/s)', `${text}: the permalink keeps the last good formula`);
      assert.equal(await page.getAttribute('#ctl-formula', 'aria-describedby'), 'err-formula');
    }
    const n = await draws(page);
    await typeFormula(page, '(x-mu)*exp(-(x-mu)^2/s^2)');
    await waitForDraws(page, n + 1);
    assert.equal(await fieldError(page), '');
    assert.notEqual(await canvasHash(page), good);
    assert.equal(await query(page, 'formula'), '(x-mu)*exp(-(x-mu)^2/s^2)');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a keystroke refused before the last good one has been followed keeps its text and its error', async () => {
    const page = await open(env, '?panel=basis&basis=formula&formula=exp(-abs(x-mu)/s)&M=6&bias=0');
    // Two inputs in one task: the controls and the address follow the good one in the next
    // task, after the bad one has been refused (as when a fast typist's keys come first).
    await page.evaluate(() => {
      const field = document.querySelector('#ctl-formula');
      for (const text of ['exp(-abs(x-mu)/(2*s))', 'exp(-abs(x-mu)/(2*s']) {
        field.value = text;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await settled(page);
    assert.equal(await page.inputValue('#ctl-formula'), 'exp(-abs(x-mu)/(2*s', 'the field keeps what was typed');
    assert.equal(await fieldError(page), 'missing ‘)’ for the ‘(’ at character 16');
    assert.equal(await query(page, 'formula'), 'exp(-abs(x-mu)/(2*s))', 'the permalink has the last good formula');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a preset fills the field and draws; a dragged centre moves that function', async () => {
    const page = await open(env, '?panel=basis&basis=formula&M=6&bias=0');
    await page.click('.control[data-key=formula] button[data-i18n="preset.laplace"]');
    await settled(page);
    assert.equal(await page.inputValue('#ctl-formula'), 'exp(-abs(x - mu)/s)');
    assert.equal(await query(page, 'formula'), 'exp(-abs(x - mu)/s)');
    // Centres at 0, 0.2, …, 1: the one at 0.4 dragged to 0.7 by its triangle.
    await drag(page, [0.4, 0.5], [0.7, 0.5]);
    const [j, mu] = (await query(page, 'centres')).split(':').map(Number);
    assert.equal(j, 2);
    assert.ok(Math.abs(mu - 0.7) < 0.01, `moved to ${mu}`);
    const handles = () => page.evaluate(() => window.rvmLab.state.lab.handles().length);
    assert.equal(await handles(), 6, 'a centre to move per function');
    // Waves of rising frequency have no centre: nothing to drag.
    await page.click('.control[data-key=formula] button[data-i18n="preset.cosine"]');
    await settled(page);
    assert.equal(await page.inputValue('#ctl-formula'), 'cos(j*pi*x)');
    assert.equal(await handles(), 0);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a permalink with a formula opens the fast RVM on it, in 中文, with no notice', async () => {
    const page = await open(env, '?panel=fast-rvm&basis=formula&formula=exp(-abs(x-mu)/s)&M=20&lang=zh');
    assert.equal(await page.inputValue('#ctl-formula'), 'exp(-abs(x-mu)/s)');
    assert.equal(await page.textContent('label[for=ctl-formula]'), '每个基函数 φⱼ(x) =');
    assert.equal(await page.isVisible('#notices'), false);
    assert.equal(await query(page, 'basis'), 'formula');
    await typeFormula(page, 'exp(-abs(x-mu)/sigma)');
    assert.equal(await fieldError(page), '第 16 个字符处的名称“sigma”未知：是不是想写 s？');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('the chart in words and the saved SVG, PNG and CSVs name the formula', async () => {
    const page = await open(env, '?panel=basis&basis=formula&formula=exp(-abs(x-mu)/s)&M=6&bias=0');
    const words = 'The chart shows 6 basis functions: your formula φ(x, μⱼ, s, j). Each basis function is φⱼ(x) = exp(-abs(x-mu)/s).';
    assert.equal((await page.textContent('#chart-summary')).trim(), words);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
    const svg = await readFile(await download.path(), 'utf8');
    const { title, desc } = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const child = (name) => doc.querySelector(`svg > ${name}`)?.textContent;
      return { title: child('title'), desc: child('desc') };
    }, svg);
    assert.equal(title, 'RVM Lab: Basis functions');
    assert.ok(desc.startsWith(`${words} ?panel=basis&`), desc);
    assert.equal(new URLSearchParams(desc.slice(desc.indexOf('?'))).get('formula'), 'exp(-abs(x-mu)/s)');
    // The PNG carries the same words as iTXt chunks; every chunk's CRC holds, IEND is last.
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    const png = await readFile(await pngDownload.path());
    assert.deepEqual(pngTexts(png), { Title: title, Description: desc });
    // Both CSVs end with the state, the formula among it (quoted where it holds a comma).
    for (const button of ['#export-results', '#export-plotted']) {
      const [csv] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      const lines = stateLines(await readFile(await csv.path(), 'utf8'));
      assert.deepEqual(lines.slice(0, 3), ['state', 'key,value', 'panel,basis'], button);
      assert.ok(lines.includes('formula,exp(-abs(x-mu)/s)'), `${button}: ${lines}`);
    }
    await page.context().close();
  });

  test('every other panel with a basis names the formula in its chart’s words and its CSV', async () => {
    const formula = 'max(0,1-abs(x-mu)/s)';
    for (const panel of ['predictive', 'fast-rvm']) {
      const page = await open(env, `?${new URLSearchParams({ panel, basis: 'formula', formula, M: '12', lang: 'zh' })}`);
      await settled(page);
      assert.ok((await page.textContent('#chart-summary')).includes(`每个基函数 φⱼ(x) = ${formula}。`), panel);
      const csv = await page.evaluate(() => window.rvmLab.state.lab.resultsCsv());
      assert.ok(stateLines(csv).includes(`formula,"${formula}"`), csv);
      assert.deepEqual(page.consoleErrors, [], panel);
      await page.context().close();
    }
  });

  test('where the formula module cannot load, choosing a formula says so and the basis stays', async () => {
    const context = await env.browser.newContext();
    await context.route(/formula_bg\.wasm$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${env.url}?panel=basis&basis=gaussian`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.selectOption('#ctl-basis', 'formula');
    await page.waitForFunction(() => document.querySelector('#err-basis').textContent !== '');
    assert.equal(await page.textContent('#err-basis'), 'the formula module could not be loaded, so a formula cannot be used now');
    assert.equal(await query(page, 'basis'), 'gaussian', 'the basis stays as it was');
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.value('basis')), 'gaussian');
    await context.close();
  });
});
