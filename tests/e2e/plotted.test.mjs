// The data table of what the chart plots (issue 16, item 4), in Chromium: the keyboard opens
// it under the chart; it lists the curves at their grid points, the data, a surface on a
// coarse grid, in the reader's language; its numbers are those of "Save plotted data as
// CSV"; it follows a change; axe finds nothing wrong with it open.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { formatNumber } from '../../www/tables.js';
import { axeViolations, draws, open, settled, start, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

/** The view's tables: caption, headings and rows of cell texts. */
function viewTables(page) {
  return page.$$eval('#plotted-tables table', (tables) =>
    tables.map((table) => ({
      caption: table.caption.textContent,
      headings: [...table.tHead.rows[0].cells].map((c) => c.textContent),
      rows: [...table.tBodies[0].rows].map((tr) => [...tr.cells].map((c) => c.textContent)),
    })),
  );
}

/** Opens the view from the keyboard: Tab to its summary, then Enter. */
async function openView(page) {
  await page.focus('#export-plotted');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id || document.activeElement.parentElement.id), 'plotted');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#plotted-tables table');
}

/** The downloaded "plotted data" CSV as sections of {caption, headings, rows of numbers},
 *  and its last section, the state it was made from, as text. */
async function downloadCsv(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-plotted')]);
  const parts = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n\n');
  return {
    name: download.suggestedFilename(),
    state: parts.pop(),
    sections: parts
      .map((section) => {
        const [caption, headings, ...rows] = section.split('\n');
        return { caption, headings: headings.split(','), rows: rows.map((r) => r.split(',').map(Number)) };
      }),
  };
}


test('predictive: the curves at every grid point and the data, the same numbers as the CSV', async () => {
  const page = await open(env, '?panel=predictive');
  assert.equal(await page.$$eval('#plotted-tables table', (t) => t.length), 0, 'built only when opened');
  await openView(page);
  const tables = await viewTables(page);
  assert.deepEqual(
    tables.map((t) => t.caption),
    ['data', 'curves'],
  );
  const curves = tables[1];
  assert.deepEqual(curves.headings, [
    'x',
    'sin 2πx',
    'predictive mean',
    'mean − 2σ',
    'mean + 2σ',
    'sample 1',
    'sample 2',
    'sample 3',
    'sample 4',
    'sample 5',
  ]);
  assert.equal(curves.rows.length, 201);
  const { name, sections, state } = await downloadCsv(page);
  assert.equal(name, 'rvm-lab-predictive-plotted.csv');
  const pairs = state.split('\n').map((line) => line.split(','));
  assert.deepEqual(pairs.slice(0, 3), [['state'], ['key', 'value'], ['panel', 'predictive']]);
  assert.deepEqual(pairs.slice(3), await page.evaluate(() => window.rvmLab.state.lab.query()));
  assert.deepEqual(
    sections.map((s) => s.caption),
    ['data', 'curves'],
  );
  assert.deepEqual(sections[1].headings.slice(0, 6), ['x', 'truth', 'mean', 'lower-2sd', 'upper-2sd', 'samples_1']);
  for (const [i, section] of sections.entries()) {
    assert.equal(section.rows.length, tables[i].rows.length);
    section.rows.forEach((row, r) =>
      row.forEach((value, c) => assert.equal(formatNumber(value), tables[i].rows[r][c], `${i} ${r} ${c}`)),
    );
  }
  // The band is the mean ± 2σ: its half-width is positive and the mean sits in its middle.
  for (const row of sections[1].rows) {
    const [, , mean, lower, upper] = row;
    assert.ok(upper > lower && Math.abs((lower + upper) / 2 - mean) < 1e-9);
  }
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('the view follows a change and speaks Chinese after the language toggles', async () => {
  const page = await open(env, '?panel=predictive');
  await openView(page);
  const before = (await viewTables(page))[0].rows.length;
  const n = await draws(page);
  await page.fill('#add-point input[name="x"]', '0.5');
  await page.fill('#add-point input[name="t"]', '0.25');
  await page.click('#add-point button[type="submit"]');
  await waitForDraws(page, n + 1);
  await settled(page);
  const data = (await viewTables(page))[0];
  assert.equal(data.rows.length, before + 1, 'the added point is listed');
  assert.deepEqual(data.rows.at(-1), ['0.5', '0.25']);
  await page.click('#lang-toggle');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await settled(page);
  const zh = await viewTables(page);
  assert.equal(await page.$eval('#plotted > summary', (s) => s.textContent), '图表的数据表');
  assert.ok(zh[1].headings.includes('均值 − 2σ') && zh[1].headings.includes('样本 1'), zh[1].headings.join(' '));
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('evidence: the surface on a coarse grid, the four schemes\' paths, the climb', async () => {
  const page = await open(env, '?panel=evidence');
  await openView(page);
  const tables = await viewTables(page);
  const surface = tables.find((t) => t.caption === 'surface (coarse grid)');
  assert.deepEqual(surface.headings, ['ln α', 'ln β', 'ln p(t|α,β)']);
  assert.ok(surface.rows.length > 100 && surface.rows.length <= 169, String(surface.rows.length));
  const captions = tables.map((t) => t.caption);
  for (const scheme of ['α only (β fixed)', 'β only (α fixed)', 'α and β (fixed point)', 'EM']) {
    assert.ok(captions.includes(scheme), `${scheme} in ${captions.join(' | ')}`);
  }
  // The coarse grid's highest cell is no higher than the surface's maximum the panel reports,
  // and within a few nats of it.
  const top = Math.max(...surface.rows.map((r) => Number(r[2].replace('−', '-'))));
  const best = await page.evaluate(() => window.rvmLab.state.lab.report().readouts.find((r) => r.key === 'surface-max').value);
  assert.ok(top <= best + 1e-3 && top > best - 5, `${top} vs ${best}`);
  await page.context().close();
});

test('with the view open: no axe violation, and the tables scroll in a focusable box', async () => {
  const page = await open(env, '?panel=fast-rvm');
  await openView(page);
  const box = await page.$eval('#plotted-tables', (el) => ({
    tabIndex: el.tabIndex,
    scrolls: el.scrollHeight > el.clientHeight,
    label: el.getAttribute('aria-label'),
  }));
  assert.deepEqual(box, { tabIndex: 0, scrolls: true, label: 'What the chart plots, as tables' });
  assert.deepEqual(await axeViolations(page), []);
  await page.context().close();
});
