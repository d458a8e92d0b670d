// Export and comfort: the chart saved as PNG is the chart drawn again at twice its size (or
// 1920 px wide) with the panel's title above it and its legend below, on white, and its words
// as PNG text; saved as SVG it parses as vector graphics of the chart; the results save as
// CSV; the page follows the system's dark mode with the charts as light cards, and every
// button and form field of a panel has an accessible name.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { open, pngTexts, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});


/**
 * The PNG `bytes` decoded in `page` and read against `chart` (a canvas's pixels, as
 * {width, height, data}): its size, the row at which the chart's pixels are found in it
 * whole (within 2 of each channel; -1 if nowhere), the dark pixels above them (the title),
 * the pixels of each of `colours` below them (the legend's swatches) and whether its corners
 * are white.
 */
function readPng(page, bytes, chart, colours) {
  return page.evaluate(
    async ({ base64, chart, colours }) => {
      // (Decoded here: the page's policy lets it fetch nothing but its own host.)
      const blob = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const image = await createImageBitmap(blob);
      const scratch = new OffscreenCanvas(image.width, image.height).getContext('2d');
      scratch.drawImage(image, 0, 0);
      const { data } = scratch.getImageData(0, 0, image.width, image.height);
      const drawn = Uint8ClampedArray.from(atob(chart.data), (c) => c.charCodeAt(0));
      const row = image.width * 4;
      const matches = (top) => {
        if (chart.width !== image.width) return false;
        for (let i = 0; i < drawn.length; i += 1) if (Math.abs(data[top * row + i] - drawn[i]) > 2) return false;
        return true;
      };
      let top = -1;
      for (let y = 0; y + chart.height <= image.height && top < 0; y += 1) if (matches(y)) top = y;
      const pixels = (from, to, test) => {
        let n = 0;
        for (let i = from * row; i < to * row; i += 4) if (test(data[i], data[i + 1], data[i + 2])) n += 1;
        return n;
      };
      const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const below = top + chart.height;
      const white = [0, image.width - 1, (image.height - 1) * image.width, image.height * image.width - 1].every((p) => data[4 * p] === 255 && data[4 * p + 1] === 255 && data[4 * p + 2] === 255 && data[4 * p + 3] === 255);
      return {
        size: [image.width, image.height],
        top,
        title: top < 0 ? 0 : pixels(0, top, (r, g, b) => r + g + b < 200),
        swatches: top < 0 ? [] : colours.map((hex) => pixels(below, image.height, (r, g, b) => [r, g, b].every((c, k) => Math.abs(c - rgb(hex)[k]) <= 1))),
        white,
      };
    },
    { base64: bytes.toString('base64'), chart, colours },
  );
}

/** The canvas's pixels, base64, or those `Lab.draw` makes on a canvas `width` pixels wide
 *  (the chart's box scaled to it), as `readPng` takes them. */
function chartPixels(page, width = null) {
  return page.evaluate((wide) => {
    let canvas = document.querySelector('#chart');
    if (wide) {
      const scale = wide / canvas.offsetWidth;
      const own = document.createElement('canvas');
      [own.width, own.height] = [wide, Math.round(canvas.offsetHeight * scale)];
      window.rvmLab.state.lab.draw(own, scale, 0, Infinity);
      canvas = own;
    }
    const bytes = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, data: btoa(text) };
  }, width);
}

for (const [panel, words] of [['predictive', 'Predictive distribution'], ['multiclass', 'Multiclass RVM']]) {
  test(`Save as PNG (${panel}): the chart drawn again at twice its size, its title above and its legend below, on white`, async () => {
    // At a pixel ratio of 2 the page draws its canvas at the picture's scale: the picture's
    // chart is the canvas's pixels.
    const page = await open(env, `?panel=${panel}`, { deviceScaleFactor: 2 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    assert.equal(download.suggestedFilename(), `rvm-lab-${panel}.png`);
    const bytes = await readFile(await download.path());
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    const legend = await page.evaluate(() => window.rvmLab.state.report.legend);
    const chart = await chartPixels(page);
    const box = await page.$eval('#chart', (c) => [c.offsetWidth, c.offsetHeight]);
    assert.deepEqual([chart.width, chart.height], [2 * box[0], 2 * box[1]], 'the canvas at twice its box');
    const png = await readPng(page, bytes, chart, legend.map((entry) => entry.colour));
    assert.equal(png.size[0], 2 * box[0], 'twice the chart’s width');
    assert.ok(png.top > 0, `the chart's pixels, ${chart.width} × ${chart.height}, are in the picture (at row ${png.top})`);
    assert.ok(png.size[1] > png.top + chart.height, 'with a band below them');
    assert.ok(png.title > 500, `the title's ink above the chart: ${png.title} dark pixels`);
    legend.forEach((entry, i) => assert.ok(png.swatches[i] >= 8, `${entry.key}'s ${entry.mark} in ${entry.colour}: ${png.swatches[i]} pixels in the legend`));
    assert.equal(png.white, true, 'on white');
    assert.deepEqual(pngTexts(bytes), {
      Title: `RVM Lab: ${words}`,
      Description: `${(await page.textContent('#chart-summary')).trim()} ?${new URLSearchParams([['panel', panel], ...(await page.evaluate(() => window.rvmLab.state.lab.query()))])}`,
    });
    // "PNG, 1920 px wide": the chart drawn again 1920 pixels wide, with its title and legend.
    const [wide] = await Promise.all([page.waitForEvent('download'), page.click('#export-png-wide')]);
    assert.equal(wide.suggestedFilename(), `rvm-lab-${panel}-1920.png`);
    const wideBytes = await readFile(await wide.path());
    const wideChart = await chartPixels(page, 1920);
    const widePng = await readPng(page, wideBytes, wideChart, legend.map((entry) => entry.colour));
    assert.equal(widePng.size[0], 1920);
    assert.ok(widePng.top > png.top, `the chart's pixels at 1920 px are in the picture (at row ${widePng.top}), under a larger title`);
    assert.ok(widePng.title > png.title, 'a larger title');
    legend.forEach((entry, i) => assert.ok(widePng.swatches[i] >= 8, `1920 px: ${entry.key}'s swatch`));
    assert.equal(pngTexts(wideBytes).Title, `RVM Lab: ${words}`);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
}

test('Save as SVG downloads vector graphics of the chart that parse and render', async () => {
  const page = await open(env, '?panel=fast-rvm&step=12&lang=zh');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  assert.equal(download.suggestedFilename(), 'rvm-lab-fast-rvm.svg');
  const text = await readFile(await download.path(), 'utf8');
  const parsed = await page.evaluate(async (svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    const count = (selector) => doc.querySelectorAll(selector).length;
    const box = document.querySelector('#chart').getBoundingClientRect();
    const image = new Image();
    image.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    await image.decode();
    return {
      errors: count('parsererror'),
      root: root.localName,
      namespace: root.namespaceURI,
      size: [Number(root.getAttribute('width')), Number(root.getAttribute('height'))],
      box: [Math.round(box.width), Math.round(box.height)],
      circles: count('circle'),
      lines: count('polyline, path, line'),
      bitmaps: count('image'),
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent.trim()),
      rendered: [image.naturalWidth, image.naturalHeight],
    };
  }, text);
  assert.equal(parsed.errors, 0, 'parses as XML');
  assert.equal(parsed.root, 'svg');
  assert.equal(parsed.namespace, 'http://www.w3.org/2000/svg');
  assert.deepEqual(parsed.size, parsed.box, 'the size of the chart on screen');
  assert.deepEqual(parsed.rendered, parsed.box, 'renders as an image');
  assert.equal(parsed.bitmaps, 0, 'vector only');
  assert.ok(parsed.circles >= 50, `${parsed.circles} circles (50 data points and rings)`);
  assert.ok(parsed.lines >= 20, `${parsed.lines} lines`);
  // The words of the chart, in the page's language: the step's action and the axis names.
  assert.ok(parsed.texts.some((t) => t.startsWith('删除')), parsed.texts.join(' | '));
  assert.ok(parsed.texts.includes('步数'), parsed.texts.join(' | '));
  await page.context().close();
});

test('Save results as CSV: readouts and tables in full precision', async () => {
  // Ten points under fourteen polynomial basis functions: Φ has rank N = 10, the fit
  // interpolates (train RMS 0), and the minimum-norm solution has fourteen weights.
  const page = await open(env, '?panel=least-squares&N=10&M=14');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-results')]);
  assert.equal(download.suggestedFilename(), 'rvm-lab-least-squares-results.csv');
  const [readouts, ...tables] = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n\n');
  const lines = readouts.split('\n');
  assert.equal(lines[0], 'quantity,value');
  const value = Object.fromEntries(lines.slice(1).map((l) => l.split(',')).map(([k, v]) => [k, Number(v)]));
  assert.equal(value.N, 10);
  assert.equal(value.rank, 10);
  assert.ok(Math.abs(value['train-rms']) < 1e-6, `train RMS ${value['train-rms']}`);
  const shown = Number(await page.textContent('#readouts dd[data-key="test-rms"]'));
  assert.ok(Math.abs(value['test-rms'] - shown) <= 1e-3 * Math.abs(shown), `${value['test-rms']} against ${shown}`);
  const [key, columns, ...rows] = tables[0].split('\n');
  assert.deepEqual([key, columns], ['weights', 'j,w-ml']);
  assert.equal(rows.length, 14);
  assert.ok(rows.every((r, j) => Number(r.split(',')[0]) === j && Number.isFinite(Number(r.split(',')[1]))));
  await page.context().close();
});

test('dark mode: a dark page, the chart a light card', async () => {
  const context = await env.browser.newContext({ colorScheme: 'dark', viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.url}?panel=predictive`);
  await page.waitForSelector('body[data-ready="1"]');
  const [body, canvas] = await page.evaluate(() => [
    getComputedStyle(document.documentElement).backgroundColor,
    getComputedStyle(document.querySelector('#chart')).backgroundColor,
  ]);
  const brightness = (css) => css.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
  assert.ok(brightness(body) < 60, `page background ${body}`);
  assert.ok(brightness(canvas) > 240, `chart background ${canvas}`);
  // The legend belongs to the light card: on stage (the projector's deep purple, the ink's
  // relevance-vector ring) every swatch has 3 : 1 against the legend's background.
  await page.goto(`${env.url}?panel=fast-rvm&stage=1`);
  await page.waitForSelector('body[data-ready="1"]');
  const swatches = await page.evaluate(() => {
    const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
    const luminance = (c) =>
      c.map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const ground = luminance(rgb(getComputedStyle(document.querySelector('#legend')).backgroundColor));
    return [...document.querySelectorAll('#legend .swatch')].map((el) => {
      const style = getComputedStyle(el);
      const colour = el.classList.contains('area') ? style.backgroundColor : el.classList.contains('dashed') ? style.borderTopColor : style.borderColor;
      return [el.parentElement.textContent, colour, contrast(luminance(rgb(colour)), ground)];
    });
  });
  assert.ok(swatches.length >= 8, JSON.stringify(swatches));
  for (const [name, colour, ratio] of swatches) {
    if (!name.includes('σ')) assert.ok(ratio >= 3, `${name}: ${colour} at ${ratio.toFixed(2)} : 1`);
  }
  await context.close();
});

test('every button and field of the fast-RVM panel has an accessible name', async () => {
  const page = await open(env, '?panel=fast-rvm');
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, input, select, textarea')]
      .filter((el) => !el.closest('[hidden]') && el.type !== 'hidden')
      .filter((el) => {
        const by = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
        const labelledBy = by.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
        const label = el.labels?.[0]?.textContent.trim() || el.getAttribute('aria-label') || labelledBy || el.textContent.trim();
        return !label;
      })
      .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  await page.context().close();
});

test('CSV: a bad row is reported by line and the data stay; good rows replace them; export and drop', async () => {
  const page = await open(env, '?panel=predictive&N=5');
  const url = page.url();
  const draws = () => page.$eval('#chart', (c) => Number(c.dataset.draws));
  let n = await draws();
  await page.fill('#csv-text', 'x,t\n0.1,0.3\n0.5,-0.2\n0.9;two\n');
  await page.click('#csv button[type=submit]');
  await page.waitForSelector('#err-csv:not(:empty)');
  assert.match(await page.textContent('#err-csv'), /^line 4 \(0\.9;two\) is not a row of x, t/);
  assert.equal(page.url(), url, 'the data stay');
  assert.equal(await draws(), n, 'the plot stays');
  await page.fill('#csv-text', 'x,t\n0.1,0.3\n0.5,-0.2\n0.9,0.4\n');
  await page.click('#csv button[type=submit]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('N') === '0');
  assert.equal(await page.textContent('#err-csv'), '');
  assert.equal(new URL(page.url()).searchParams.get('points'), '0.1:0.3,0.5:-0.2,0.9:0.4');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv-export')]);
  assert.equal(await readFile(await download.path(), 'utf8'), 'x,t\n0.1,0.3\n0.5,-0.2\n0.9,0.4\n');
  // A file dropped on the chart.
  n = await draws();
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['0.2,0.1\n0.4,0.2\n'], 'points.csv', { type: 'text/csv' }));
    document.querySelector('#canvas-box').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('points') === '0.2:0.1,0.4:0.2');
  assert.ok((await draws()) > n);
  await page.context().close();
});

test('reduced motion: Play shows the last frame at once; Step still walks', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.url}?panel=fast-rvm`);
  await page.waitForSelector('body[data-ready="1"]');
  const readout = (key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);
  const total = await readout('steps-to-converge');
  await page.click('#play');
  assert.equal(await readout('step'), total, 'at the last step right after the click');
  assert.equal(await page.textContent('#play'), 'Play', 'nothing left playing');
  await page.click('#restart');
  await page.click('#step');
  assert.equal(await readout('step'), '1');
  await context.close();
});

test('a lesson at 360 px: no horizontal scroll, also in large type; the screenshot is 360 px wide', async () => {
  for (const query of ['?lesson=fast-rvm&step=3', '?lesson=fast-rvm&step=3&large=1&lang=zh', '?lesson=classification&step=2']) {
    const page = await open(env, query, { viewport: { width: 360, height: 740 } });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, `${query}: ${overflow} px of horizontal scroll`);
    const shot = await page.screenshot({ fullPage: true });
    assert.equal(shot.readUInt32BE(16), 360, `${query}: screenshot width`);
    await page.context().close();
  }
});

test('Tab reaches the lesson, player, export and data controls, each with a visible focus ring', async () => {
  const page = await open(env, '?lesson=fast-rvm&step=3');
  const reached = new Set();
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      if (el === document.body) return { id: 'body', ring: true }; // past the last control
      const style = getComputedStyle(el);
      return { id: el.id || el.name || el.localName, ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
    });
    assert.ok(focus.ring, `${focus.id} has no visible focus ring`);
    reached.add(focus.id);
  }
  for (const id of ['lesson-select', 'lesson-prev', 'lesson-next', 'large-toggle', 'play', 'step', 'export-png', 'export-svg', 'export-results', 'csv-text']) {
    assert.ok(reached.has(id), `${id} not reached by Tab (reached: ${[...reached].join(' ')})`);
  }
  await page.context().close();
});

test('the event log and the comparison sit right under the chart, however tall the controls beside it', async () => {
  for (const width of [1440, 1024]) {
    for (const panel of ['fast-rvm', 'classification', 'poisson', 'evidence']) {
      const page = await open(env, `?panel=${panel}`, { viewport: { width, height: 900 } });
      const [chartBottom, tablesTop, sideBottom] = await page.evaluate(() => [
        document.querySelector('figure.chart').getBoundingClientRect().bottom,
        document.querySelector('#tables').getBoundingClientRect().top,
        document.querySelector('#drawer').getBoundingClientRect().bottom,
      ]);
      // The controls' column is taller than the chart (else the test says nothing).
      assert.ok(sideBottom > chartBottom + 100, `${panel} at ${width}: the controls end ${sideBottom - chartBottom} px below the chart`);
      // One grid gap (1rem) between the chart's figure and the tables.
      assert.ok(tablesTop - chartBottom >= 0 && tablesTop - chartBottom <= 20, `${panel} at ${width}: ${tablesTop - chartBottom} px between chart and tables`);
      await page.context().close();
    }
  }
});

test('stage view and embed=1 keep the page’s level-one heading for screen readers, shown to no one', async () => {
  for (const query of ['?panel=fast-rvm&stage=1', '?lesson=sparsity&step=2&stage=1', '?panel=evidence&embed=1']) {
    const page = await open(env, query, { viewport: { width: 1280, height: 720 } });
    const heading = await page.evaluate(() => {
      const h1 = document.querySelector('h1');
      // The header around it is what clips it: one pixel, cut to nothing.
      const header = h1.closest('header');
      const box = header.getBoundingClientRect();
      const shown = getComputedStyle(header).clipPath === 'inset(50%)' ? 0 : box.width * box.height;
      return { text: h1.textContent, inTree: h1.checkVisibility(), area: shown, controls: document.querySelector('.site-controls').checkVisibility() };
    });
    assert.deepEqual(heading, { text: 'RVM Lab', inTree: true, area: heading.area, controls: false }, query);
    assert.equal(heading.area, 0, `${query}: the heading shows on ${heading.area} px²`);
    // In the accessibility tree, by its role: one level-one heading, named.
    const headings = page.getByRole('heading', { level: 1 });
    assert.equal(await headings.count(), 1, `${query}: level-one headings`);
    assert.equal(await headings.first().textContent(), 'RVM Lab');
    await page.context().close();
  }
});
