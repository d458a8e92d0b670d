// A lab everyone can use (issue 16), in Chromium: axe-core (npm, pinned) finds no WCAG 2.2
// A/AA violation (nor a best-practice one) on every panel in both languages, a lesson, dark
// mode, stage view and embed.html; the legend draws each class with the mark the plot
// uses; the λ(α) chart's "α* = …" stays inside its chart; every value of a slider is one
// the panel takes; the keyboard reaches what a drag on the chart moves ("Move on the
// chart") and lists its keys (`?`); the tables fit their column from 360 px up.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import enFastRvm from '../../www/strings/en/fast-rvm.js';
import { axeViolations, open, panelNames, settled, start } from './browser.mjs';


let env;
before(async () => {
  env = await start();
});
after(() => env.close());

describe('axe-core finds no violation', () => {
  test('on every panel, in English and in Chinese', async () => {
    const found = [];
    for (const panel of await panelNames()) {
      for (const lang of ['en', 'zh']) {
        const page = await open(env, `?panel=${panel}&lang=${lang}`);
        for (const line of await axeViolations(page)) found.push(`${panel} ${lang}: ${line}`);
        await page.context().close();
      }
    }
    assert.deepEqual(found, []);
  });

  test('with the lesson editor open (two steps recorded, the link shown), light and dark, and in its preview', async () => {
    const found = [];
    for (const [colorScheme, lang] of [['light', 'en'], ['dark', 'zh']]) {
      const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      const page = await context.newPage();
      await page.goto(`${env.url}?panel=fast-rvm&lang=${lang}`);
      await page.waitForSelector('body[data-ready="1"]');
      await page.click('#editor-open');
      await page.waitForSelector('#editor:not([hidden])');
      await page.fill('#editor [data-field="title.en"]:not([data-i])', 'A lesson');
      for (const i of [0, 1]) {
        await page.click('#editor [data-do="add"]');
        await page.fill(`#editor [data-field="title.en"][data-i="${i}"]`, `Step ${i + 1}`);
        await page.fill(`#editor [data-field="text.zh"][data-i="${i}"]`, '说明');
      }
      await page.click('#editor [data-do="link"]');
      await page.waitForSelector('#editor-link-box:not([hidden])');
      for (const line of await axeViolations(page)) found.push(`editor ${colorScheme} ${lang}: ${line}`);
      await page.click('#editor [data-do="preview"]');
      await page.waitForSelector('#lesson:not([hidden])');
      await settled(page);
      for (const line of await axeViolations(page)) found.push(`editor preview ${colorScheme} ${lang}: ${line}`);
      await context.close();
    }
    assert.deepEqual(found, []);
  });

  test('on a lesson, in dark mode, on stage, with the list of keys open, on embed.html and lecturers.html', async () => {
    const found = [];
    const cases = [
      ['?lesson=fast-rvm&step=3', {}],
      ['?lesson=bayesian-regression&step=2&lang=zh', {}],
      ['?panel=evidence', { colorScheme: 'dark' }],
      ['?panel=classification&stage=1', { viewport: { width: 1280, height: 720 } }],
    ];
    for (const [query, options] of cases) {
      const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      const page = await context.newPage();
      await page.goto(env.url + query);
      await page.waitForSelector('body[data-ready="1"]');
      await settled(page);
      for (const line of await axeViolations(page)) found.push(`${query}: ${line}`);
      if (query.includes('evidence')) {
        await page.keyboard.press('?');
        for (const line of await axeViolations(page)) found.push(`${query} keys: ${line}`);
      }
      await context.close();
    }
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.url}embed.html`);
    await page.waitForFunction(() => document.querySelectorAll('iframe').length >= 3);
    await page.waitForTimeout(500);
    for (const line of await axeViolations(page)) found.push(`embed.html: ${line}`);
    // The page for lecturers (in the release bundle), light and dark.
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`${env.url}lecturers.html`);
      for (const line of await axeViolations(page)) found.push(`lecturers.html (${colorScheme}): ${line}`);
    }
    await context.close();
    assert.deepEqual(found, []);
  });
});

describe('defects found in real browsers', () => {
  test('the class legends draw each class with its mark in the plot: circle, cross, triangle', async () => {
    for (const [panel, marks] of [
      ['classification', ['dot', 'cross']],
      ['multiclass', ['dot', 'cross', 'triangle']],
    ]) {
      const page = await open(env, `?panel=${panel}`);
      const swatches = await page.$$eval('#legend > span', (items) =>
        items.map((item) => [item.textContent, [...item.firstChild.classList].find((c) => c !== 'swatch')]),
      );
      const classes = swatches.filter(([name]) => name.startsWith('class'));
      assert.deepEqual(classes.map(([, mark]) => mark), marks, JSON.stringify(swatches));
      // The mark shows in the class's colour (a cross and a triangle are masks over it).
      const colour = await page.$eval('#legend .swatch.cross', (el) => getComputedStyle(el).backgroundColor);
      assert.equal(colour, 'rgb(213, 94, 0)');
      await page.context().close();
    }
  });

  test('fast-rvm: "α* = …" starts right of the λ(α) chart’s y axis, at the chart’s size on the page', async () => {
    let labelled = 0;
    for (const step of [0, 1, 2, 5, 8, 12]) {
      const page = await open(env, `?panel=fast-rvm&step=${step}`);
      const where = await page.evaluate(() => {
        const canvas = document.querySelector('#chart');
        const holder = document.createElement('div');
        holder.innerHTML = window.rvmLab.state.lab.svg(canvas.offsetWidth, canvas.offsetHeight, 1);
        document.body.append(holder);
        const label = [...holder.querySelectorAll('text')].find((t) => /^α\* = [^∞]/.test(t.textContent.trim()));
        if (!label) return null;
        // The maximum's dot, drawn just before its label, lies on the λ(α) curve, whose first
        // point is the plotting area's left edge: the y axis.
        const dot = label.previousElementSibling;
        const [cx, cy] = [Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy'))];
        const curve = [...holder.querySelectorAll('polyline')].find((line) =>
          line.getAttribute('points').trim().split(/\s+/).some((p) => {
            const [x, y] = p.split(',').map(Number);
            return Math.abs(x - cx) <= 1 && Math.abs(y - cy) <= 1;
          }),
        );
        const axis = Math.min(...curve.getAttribute('points').trim().split(/\s+/).map((p) => Number(p.split(',')[0])));
        const svgLeft = holder.querySelector('svg').getBoundingClientRect().left;
        const left = label.getBoundingClientRect().left - svgLeft;
        holder.remove();
        return { text: label.textContent.trim(), left, axis };
      });
      await page.context().close();
      if (!where) continue;
      labelled += 1;
      assert.ok(where.left >= where.axis, `step ${step}: "${where.text}" starts at ${where.left.toFixed(1)}, the axis is at ${where.axis}`);
    }
    assert.ok(labelled >= 3, `${labelled} steps with a finite α*`);
  });

  test('gradient descent: the batch slider’s top (b above N) is taken as the whole data', async () => {
    const page = await open(env, '?panel=gradient-descent');
    await page.focus('#rng-batch');
    await page.keyboard.press('End');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('batch') === '50');
    await settled(page);
    assert.equal(await page.textContent('#err-batch'), '');
    // N = 20: one update an epoch, as batch GD.
    const row = await page.$$eval('#tables table[data-key="epochs"] tbody tr:nth-child(3) td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(row.slice(1, 3), ['20', '1']);
    await page.context().close();
  });
});

describe('the keyboard reaches what a drag on the chart moves', () => {
  for (const [query, handles, key, moved] of [
    ['?panel=basis&basis=gaussian', 6, 'centres', (v) => v.startsWith('0:')],
    ['?panel=fast-rvm&basis=gaussian&M=10', 9, 'centres', (v) => v.startsWith('0:')],
    ['?panel=evidence', 1, 'start', (v) => v === '-5.8:0'],
    ['?panel=gradient-descent', 1, 'start', (v) => v.split(':').length === 2],
    ['?panel=sparsity', 2, 't1', (v) => v === '1.1'],
    ['?panel=lambda-curve', 1, 'sparsity', (v) => v === '1.1'],
  ]) {
    test(`${query}: Tab to "Move on the chart", arrow keys move it, the chart and URL follow`, async () => {
      const page = await open(env, query);
      assert.equal(await page.isHidden('#handles'), false);
      assert.equal(await page.$$eval('#handle-select option', (o) => o.length), handles);
      // Reached by Tab from the panel's own controls.
      await page.focus('#handle-select');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'handle-x');
      const drawn = await page.$eval('#chart', (c) => Number(c.dataset.draws));
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.waitForFunction(([k]) => new URLSearchParams(location.search).has(k), [key]);
      await page.waitForFunction((n) => Number(document.querySelector('#chart').dataset.draws) > n, drawn);
      const value = await page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
      assert.ok(moved(value), `${key} = ${value}`);
      // A typed value is a single-pointer (and screen-reader) path too.
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    });
  }

  test('a panel with nothing to drag shows no such form; the names are in both languages', async () => {
    const page = await open(env, '?panel=predictive');
    assert.equal(await page.isHidden('#handles'), true);
    await page.context().close();
    const zhPage = await open(env, '?panel=sparsity&lang=zh');
    assert.deepEqual(await zhPage.$$eval('#handle-select option', (o) => o.map((x) => x.textContent)), [zh['handle.target'], zh['handle.basis-tip']]);
    assert.notEqual(zh['handle.target'], en['handle.target']);
    await zhPage.context().close();
  });
});

test('`?` lists every key; Escape closes the list and the focus returns', async () => {
  const page = await open(env, '?panel=fast-rvm');
  await page.focus('#play');
  await page.keyboard.press('?');
  assert.equal(await page.$eval('#keys', (d) => d.open), true);
  const keys = await page.$$eval('#keys kbd', (kbds) => kbds.map((k) => k.textContent));
  for (const key of ['?', 's', 'Tab', 'Home', 'End', 'Enter', 'PageDown', 'PageUp', 'Esc']) assert.ok(keys.includes(key), key);
  assert.equal(await page.textContent('#keys-title'), en['keys.title']);
  await page.keyboard.press('Escape');
  assert.equal(await page.$eval('#keys', (d) => d.open), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  // The Keys button opens it too.
  await page.click('#keys-toggle');
  assert.equal(await page.$eval('#keys', (d) => d.open), true);
  await page.context().close();
});

test('the tables fit their column from 360 px up: nothing scrolls sideways', async () => {
  for (const width of [360, 760, 1280]) {
    for (const query of ['?panel=fast-rvm&step=8', '?panel=classification&step=8', '?panel=evidence', '?panel=gradient-descent']) {
      const page = await open(env, query, { viewport: { width, height: 900 } });
      const wide = await page.evaluate(() => {
        const out = [];
        if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth}`);
        for (const el of document.querySelectorAll('#tables, #tables table')) {
          if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.dataset.key ?? el.id} ${el.scrollWidth} > ${el.clientWidth}`);
          const box = el.getBoundingClientRect();
          if (box.right > document.querySelector('#tables').getBoundingClientRect().right + 1) out.push(`${el.dataset.key} sticks out`);
        }
        return out;
      });
      assert.deepEqual(wide, [], `${query} at ${width} px`);
      await page.context().close();
    }
  }
});

describe('charts a screen reader can follow', () => {
  test('every panel describes its chart in words, in both languages, every placeholder filled', async () => {
    const problems = [];
    for (const panel of await panelNames()) {
      for (const lang of ['en', 'zh']) {
        const page = await open(env, `?panel=${panel}&lang=${lang}`);
        const text = await page.textContent('#chart-summary');
        if (text.trim().length < 20) problems.push(`${panel} ${lang}: "${text}"`);
        if (/[{}]|summary\.|undefined|NaN/.test(text)) problems.push(`${panel} ${lang}: ${text}`);
        // The canvas is described by it, and it is a polite live region.
        const [describedBy, live] = await page.evaluate(() => [
          document.querySelector('#chart').getAttribute('aria-describedby'),
          document.querySelector('#chart-summary').getAttribute('aria-live'),
        ]);
        if (describedBy !== 'chart-summary' || live !== 'polite') problems.push(`${panel}: ${describedBy} ${live}`);
        await page.context().close();
      }
    }
    assert.deepEqual(problems, []);
  });

  test('fast-rvm: the description names the step, its action and numbers, as the event log and readouts do', async () => {
    const page = await open(env, '?panel=fast-rvm&step=8');
    const text = await page.textContent('#chart-summary');
    const row = await page.$$eval('#tables table[data-key="events"] tbody tr:first-child td', (tds) => tds.map((td) => td.textContent));
    const [k, action, i, , , alphaAfter, deltaL, L] = row;
    assert.equal(k, '8');
    const rv = await page.textContent('#readouts dd[data-key="relevance-vectors"]');
    assert.equal(
      text,
      enFastRvm['summary.fast-rvm']
        .replace('{step}', '8')
        .replace('{steps}', await page.textContent('#readouts dd[data-key="steps-to-converge"]'))
        .replace('{action}', action)
        .replace('{m}', i)
        .replace('{alpha}', alphaAfter)
        .replace('{rv}', rv)
        .replace('{rv|relevance vector|relevance vectors}', rv === '1' ? 'relevance vector' : 'relevance vectors')
        .replace('{L}', L)
        .replace('{dL}', deltaL),
    );
    await page.context().close();
    const zhPage = await open(env, '?panel=fast-rvm&step=8&lang=zh');
    const zhText = await zhPage.textContent('#chart-summary');
    assert.ok(zhText.startsWith('第 8 步'), zhText);
    assert.ok(zhText.includes(`φ${i}`), zhText);
    await zhPage.context().close();
  });

  test('while playing, the description is spoken once per step at most every two seconds, not per frame; the readouts are not a live region', async () => {
    // N = 2000: a run of about two hundred steps, played a step a frame.
    const page = await open(env, '?panel=fast-rvm&step=0&N=2000');
    assert.equal(await page.getAttribute('#readouts', 'aria-live'), null);
    await page.evaluate(() => {
      window.summaryChanges = 0;
      window.readoutChanges = 0;
      new MutationObserver(() => (window.summaryChanges += 1)).observe(document.querySelector('#chart-summary'), { childList: true, characterData: true, subtree: true });
      new MutationObserver(() => (window.readoutChanges += 1)).observe(document.querySelector('#readouts'), { childList: true });
    });
    await page.$eval('#speed', (speed) => {
      speed.value = '3';
    });
    await page.click('#play');
    await page.waitForTimeout(2500);
    const [summary, readouts] = await page.evaluate(() => [window.summaryChanges, window.readoutChanges]);
    assert.ok(readouts >= 20, `${readouts} readout rewrites`);
    assert.ok(summary <= 3, `${summary} description changes in 2.5 s`);
    // Where it stopped is said once it stops.
    await page.click('#play');
    await page.waitForFunction(() => !window.rvmLab.state.playing);
    const last = await page.textContent('#readouts dd[data-key="step"]');
    assert.ok((await page.textContent("#chart-summary")).startsWith(`Step ${last} of`), await page.textContent("#chart-summary"));
    await page.context().close();
  });
});
