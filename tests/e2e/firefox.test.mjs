// The core browser checks in a second engine: Debian's firefox-esr (installed by
// scripts/setup.sh), driven by npm's puppeteer-core over WebDriver BiDi — never a browser
// puppeteer downloads. Every panel draws with no console error, a click on the plot adds a
// point, a slider moved by the keyboard redraws, the language toggles, the fast RVM runs on a
// typed formula (served and from disk), and the data table of the chart opens from the
// keyboard. Where a course lives: the single file from disk (and the served page from disk,
// which opens it), embed.html from disk (its frames opening the single file, each as tall as
// its panel), the served page in a frame sandboxed without allow-same-origin from a plain
// static server, and the single file as a sandboxed srcdoc.
// The lesson editor: two views recorded (the lesson restored after a navigation), an equation
// typed in TeX, and a valid lesson saved; a lesson's equation in the equations' font, its
// brace stretched over its cases.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import zh from '../../www/strings/zh.js';
import { serve } from '../../scripts/serve.mjs';
import { validateLesson } from '../../www/lesson.js';
import { texToMathml } from '../../www/tex.js';
import { panelNames } from './browser.mjs';
import { drawnIn, putFrame } from './frames.mjs';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

let server;
let url;
/** The same folder from a plain static host (no policy, no CORS header). */
let plain;
let browser;
before(async () => {
  ({ server, url } = await serve({ root: WWW, port: 0 }));
  plain = await serve({ root: WWW, port: 0, policy: null });
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  await browser?.close();
  await new Promise((done) => server.close(done));
  await new Promise((done) => plain.server.close(done));
});

/** Opens `query` (on the served page, or an address of its own) in a fresh page and waits
 *  until its panel has drawn and its work is done. */
async function open(query) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  await page.goto(/^[a-z]+:/.test(query) ? query : url + query);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  await settled(page);
  return page;
}

async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.working !== '1', { timeout: 60000 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const draws = (page) => page.$eval('#chart', (c) => Number(c.dataset.draws ?? 0));

describe('Firefox', () => {
  test('the lesson editor: opened, two views added, an equation typed in TeX, a valid lesson saved', async () => {
    const field = (name, i) => `#editor [data-field="${name}"]${i === undefined ? ':not([data-i])' : `[data-i="${i}"]`}`;
    /** Opens the editor on `query`'s view and adds it (the lesson in the making is kept for the
     *  tab), its English title `title`. */
    const addView = async (query, i, title) => {
      const page = await open(query);
      await page.click('#editor-open');
      await page.waitForSelector('#editor:not([hidden])');
      if (i === 0) await page.type(field('title.en'), 'Two views');
      await page.click('#editor [data-do="add"]');
      await page.type(field('title.en', i), title);
      await page.type(field('text.zh', i), '说明');
      return page;
    };
    const first = await addView('?panel=sparsity', 0, 'Sparse');
    // The second view in the same tab: the browser keeps the lesson across the navigation, and
    // the editor offers it back.
    await first.goto(`${url}?panel=basis&M=7`);
    await first.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    await first.click('#editor-open');
    await first.waitForSelector('#editor[data-tex="ready"] #editor-offer:not([hidden])');
    await first.click('#editor [data-do="restore"]');
    await first.click('#editor [data-do="add"]');
    await first.type(field('title.en', 1), 'Basis');
    await first.type(field('text.en', 1), 'Seven functions.');
    // TeX typed: its MathML shown as typed, as Temml makes it.
    const tex = 'y = \\frac{1}{1 + e^{-a}}';
    await first.type(field('tex', 1), tex);
    await first.waitForFunction((markup) => document.querySelector('#editor [data-math="1"]').innerHTML === markup, {}, texToMathml(tex));
    // The file the download link holds, as the page makes it (WebDriver BiDi gives no download
    // event here; the page's policy lets no fetch read a blob: URL).
    await first.evaluate(() => {
      window.savedLessons = [];
      const objectUrl = URL.createObjectURL;
      let blob = null;
      URL.createObjectURL = (made) => {
        blob = made;
        return objectUrl(made);
      };
      HTMLAnchorElement.prototype.click = function save() {
        if (this.download) blob.text().then((text) => window.savedLessons.push({ name: this.download, text }));
      };
    });
    await first.click('#editor [data-do="save"]');
    await first.waitForFunction(() => window.savedLessons.length === 1);
    const [{ name, text }] = await first.evaluate(() => window.savedLessons);
    assert.equal(name, 'two-views.json');
    const lesson = JSON.parse(text);
    assert.deepEqual(lesson.steps.map((step) => step.title.en), ['Sparse', 'Basis']);
    assert.deepEqual(lesson.steps.map((step) => new URLSearchParams(step.state).get('panel')), ['sparsity', 'basis']);
    assert.equal(new URLSearchParams(lesson.steps[1].state).get('M'), '7');
    assert.deepEqual([lesson.steps[1].tex, lesson.steps[1].math], [tex, texToMathml(tex)]);
    const checked = validateLesson(lesson, name, await panelNames());
    assert.equal(checked.steps.length, 2);
    assert.equal(await first.$eval('#editor-error', (p) => p.textContent), '');
    assert.deepEqual(first.consoleErrors, []);
    await first.close();
  });

  test('a lesson\'s equation is set in the equations\' font, the piecewise αᵢ\'s brace spanning both cases', async () => {
    const page = await open('?lesson=fast-rvm&step=5');
    await page.evaluate(() => document.fonts.ready);
    const laid = await page.evaluate(() => {
      const brace = [...document.querySelectorAll('#lesson-math mo')].find((mo) => mo.textContent === '{');
      const table = document.querySelector('#lesson-math mtable');
      const font = [...document.fonts].find((face) => face.family.replace(/"/g, '') === 'RVM Lab Math');
      return { brace: brace.getBoundingClientRect().height, table: table.getBoundingClientRect().height, font: font?.status, family: getComputedStyle(table).fontFamily };
    });
    assert.equal(laid.font, 'loaded');
    assert.match(laid.family, /RVM Lab Math/);
    assert.ok(laid.brace >= 0.9 * laid.table && laid.table > 40, JSON.stringify(laid));
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('every panel draws, with no console error', async () => {
    for (const panel of await panelNames()) {
      const page = await open(`?panel=${panel}`);
      assert.ok((await draws(page)) >= 1, panel);
      // The chart is not blank: the canvas has more than one colour.
      const colours = await page.evaluate(() => {
        const canvas = document.querySelector('#chart');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const seen = new Set();
        for (let i = 0; i < data.length && seen.size < 5; i += 4 * 97) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return seen.size;
      });
      assert.ok(colours >= 3, `${panel}: ${colours} colours`);
      assert.ok((await page.$$('#readouts dd')).length > 0 || panel === 'basis', `${panel}: readouts`);
      assert.deepEqual(page.consoleErrors, [], panel);
      await page.close();
    }
  });

  test('the comparisons run in the worker, to the rows the page’s slices give', async () => {
    const rows = (page) =>
      page.evaluate(() => {
        const table = window.rvmLab.state.lab.report().tables.find((t) => t.key.endsWith('methods'));
        const time = table.columns.indexOf('time-ms');
        return table.rows.map((row) => row.filter((_, i) => i !== time));
      });
    for (const query of ['?panel=fast-rvm', '?panel=classification']) {
      const page = await open(query);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.comparisons), 'worker', query);
      assert.equal(await page.evaluate(() => window.rvmLab.state.lab.comparisons().done), true);
      const fromWorker = await rows(page);
      assert.deepEqual(page.consoleErrors, [], query);
      // The same panel with the comparisons taken back to the page's slices.
      await page.evaluate(() => {
        const { lab } = window.rvmLab.state;
        lab.reset();
        lab.runComparisonsElsewhere(false);
        while (lab.work(1000));
      });
      assert.equal(await page.evaluate(() => window.rvmLab.state.lab.comparisons().elsewhere), false);
      assert.deepEqual(await rows(page), fromWorker, query);
      await page.close();
    }
  });

  test('a click on the plot adds a point', async () => {
    const page = await open('?panel=predictive');
    const point = await page.evaluate(() => {
      const canvas = document.querySelector('#chart');
      const box = canvas.getBoundingClientRect();
      const a = window.rvmLab.state.lab.plotArea();
      const [px, py] = [(a.left + a.right) / 2, (a.top + a.bottom) / 2];
      return { x: box.left + (px * box.width) / canvas.width, y: box.top + (py * box.height) / canvas.height };
    });
    const n = Number(await page.$eval('#readouts dd[data-key="N"]', (dd) => dd.textContent));
    const before = await draws(page);
    await page.mouse.click(point.x, point.y);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('points'));
    await page.waitForFunction((k) => Number(document.querySelector('#chart').dataset.draws) > k, {}, before);
    const readout = await page.$eval('#readouts dd[data-key="N"]', (dd) => dd.textContent);
    assert.equal(readout, String(n + 1), 'the generated points and the one clicked');
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('a slider moved by the keyboard redraws and writes the URL', async () => {
    const page = await open('?panel=predictive');
    const before = await draws(page);
    const n = Number(await page.$eval('#ctl-N', (input) => input.value));
    await page.focus('#rng-N');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((k) => new URLSearchParams(location.search).get('N') === String(k), {}, n + 1);
    await page.waitForFunction((n) => Number(document.querySelector('#chart').dataset.draws) > n, {}, before);
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('the language toggles to Chinese and back', async () => {
    const page = await open('?panel=fast-rvm');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.$eval('#panel-title', (el) => el.textContent), zh['panel.fast-rvm']);
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('lang')), 'zh');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('the fast RVM on a typed formula, served and from the single file; an error where it is typed', async () => {
    const formula = 'exp(-abs(x-mu)/s)';
    const state = `?panel=fast-rvm&basis=formula&formula=${encodeURIComponent(formula)}&M=20&step=5000`;
    for (const base of [url, pathToFileURL(`${WWW}rvm-lab.html`).href]) {
      const page = await open(base === url ? state : `${base}${state}`);
      assert.equal(await page.$eval('#ctl-formula', (field) => field.value), formula, base);
      assert.equal(await page.$eval('#notices', (notices) => notices.hidden), true, base);
      const kept = Number(await page.$eval('#readouts dd[data-key="relevance-vectors"]', (dd) => dd.textContent));
      assert.ok(kept >= 1 && kept < 20, `${base}: ${kept} relevance vectors`);
      assert.ok((await page.$eval('#chart-summary', (p) => p.textContent)).includes(`φⱼ(x) = ${formula}.`), base);
      await page.$eval('#ctl-formula', (field) => {
        field.value = 'exp(-abs(x-mu)/sigma)';
        field.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await page.waitForFunction(() => document.querySelector('#err-formula').textContent !== '');
      assert.equal(await page.$eval('#err-formula', (p) => p.textContent), 'unknown name ‘sigma’ at character 16: did you mean s?');
      assert.equal(await page.$eval('#ctl-formula', (field) => field.getAttribute('aria-invalid')), 'true');
      assert.deepEqual(page.consoleErrors, [], base);
      await page.close();
    }
  });

  test('the data table of the chart opens from the keyboard and lists the curves', async () => {
    const page = await open('?panel=predictive');
    await page.focus('#plotted > summary');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#plotted-tables table');
    const tables = await page.$$eval('#plotted-tables table', (all) =>
      all.map((t) => [t.caption.textContent, t.tBodies[0].rows.length]),
    );
    assert.deepEqual(tables, [
      ['data', 10],
      ['curves', 201],
    ]);
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });
});

/** A page of another origin holding one frame with `attributes`; returns the page and the frame. */
async function framing(attributes) {
  const page = await browser.newPage();
  page.consoleErrors = [];
  page.on('console', (message) => message.type() === 'error' && page.consoleErrors.push(message.text()));
  await page.goto(`${plain.url}lecturers.html`);
  await page.evaluate(putFrame, attributes);
  await page.waitForFunction(() => document.querySelector('iframe'));
  const deadline = Date.now() + 10_000;
  while (page.frames().length < 2 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  return { page, frame: page.frames()[1] };
}

describe('Firefox, where a course lives', () => {
  test('the single file from disk, and the served page from disk, which opens it', async () => {
    const single = pathToFileURL(`${WWW}rvm-lab.html`).href;
    const page = await browser.newPage();
    page.consoleErrors = [];
    page.on('console', (message) => message.type() === 'error' && page.consoleErrors.push(message.text()));
    await page.goto(`${single}?panel=fast-rvm&lang=zh`);
    await drawnIn(page.mainFrame());
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await page.goto(`${pathToFileURL(`${WWW}index.html`).href}?panel=evidence#k`);
    assert.ok((await drawnIn(page.mainFrame())).startsWith(`${single}?panel=evidence`));
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('embed.html from disk: its three panels open the single file, each frame as tall as its panel', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 800 });
    page.consoleErrors = [];
    page.on('console', (message) => message.type() === 'error' && page.consoleErrors.push(message.text()));
    await page.goto(pathToFileURL(`${WWW}embed.html`).href);
    const handles = await page.$$('iframe');
    assert.equal(handles.length, 3);
    for (const handle of handles) {
      // (A frame out of view may not be laid out: each is brought into view.)
      await handle.scrollIntoView();
      const frame = await handle.contentFrame();
      assert.ok((await drawnIn(frame)).startsWith(pathToFileURL(`${WWW}rvm-lab.html`).href));
      await frame.waitForFunction(() => {
        const root = document.documentElement;
        return root.scrollHeight <= root.clientHeight && root.clientHeight - root.getBoundingClientRect().height < 1;
      });
    }
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('the served page in <iframe sandbox="allow-scripts"> from a plain static host', async () => {
    const { page, frame } = await framing({ sandbox: 'allow-scripts', src: `${plain.url}index.html?panel=sparsity&embed=1`, title: 'lab' });
    assert.ok((await drawnIn(frame)).startsWith(`${plain.url}rvm-lab.html?panel=sparsity`));
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test('the single file as the srcdoc of <iframe sandbox="allow-scripts">', async () => {
    const srcdoc = readFileSync(`${WWW}rvm-lab.html`, 'utf8');
    const { page, frame } = await framing({ sandbox: 'allow-scripts', srcdoc, title: 'lab' });
    assert.equal(await drawnIn(frame), 'about:srcdoc');
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });
});
