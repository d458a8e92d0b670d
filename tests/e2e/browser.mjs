// Shared set-up of the end-to-end tests: a static server on 127.0.0.1 and Debian's
// Chromium driven by playwright-core, with every request and console error recorded.

import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

const ROOT = fileURLToPath(new URL('../../www', import.meta.url));

/** The panels of the lab, in menu order, as the built module lists them (its registry). */
export async function panelNames() {
  const glue = await import('../../www/pkg/rvm_lab.js');
  glue.initSync({ module: readFileSync(new URL('../../www/pkg/rvm_lab_bg.wasm', import.meta.url)) });
  return glue.panelNames();
}

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the server (optionally under a sub-path, or of another copy of the page) and the
 *  browser; with `scrollbars`, its scrollbars take room as on a desktop (playwright hides
 *  them in a headless browser). */
export async function start({ base = '/', root = ROOT, scrollbars = false } = {}) {
  const { server, url } = await serve({ root, port: 0, base });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    ...(scrollbars && { ignoreDefaultArgs: ['--hide-scrollbars'] }),
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise((done) => server.close(done));
    },
  };
}

/** `page`, keeping every URL it asks for (`page.requests`) and its console errors and
 *  uncaught exceptions (`page.consoleErrors`). */
export function watched(page) {
  page.requests = [];
  page.consoleErrors = [];
  page.on('request', (request) => page.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  return page;
}

/**
 * Opens `query` on a fresh page (in a context with `options`: its viewport, pixel ratio …)
 * and waits until the panel has drawn; returns the page with `requests` (every URL asked
 * for) and `consoleErrors`.
 */
export async function open(env, query = '', { viewport = { width: 1100, height: 800 }, ...options } = {}) {
  const context = await env.browser.newContext({ viewport, ...options });
  const page = watched(await context.newPage());
  await page.goto(env.url + query);
  await page.waitForSelector('body[data-ready="1"]');
  await waitForDraws(page, 1);
  await settled(page);
  return page;
}

/**
 * Opens `query` with a long-task observer from the first byte on (`window.longTasks`, in
 * ms; `longTasks` takes them) and waits until the panel is ready and its work done.
 */
export async function openObserved(env, query) {
  const context = await env.browser.newContext({ viewport: { width: 1350, height: 940 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(env.url + query);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  return page;
}

/** The long tasks recorded since the last call (their durations in ms). */
export function longTasks(page) {
  return page.evaluate(() => window.longTasks.splice(0));
}

/** The axe-core rules (WCAG 2.2 A/AA and best practice) the e2e suite checks. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core's violations on the page as `rule: targets` lines (none: an empty list). */
export async function axeViolations(page) {
  const source = await readFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  // Evaluated by the driver, not added as an inline <script>, which the page's policy refuses.
  await page.evaluate(source);
  return page.evaluate(async (tags) => {
    const { violations } = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, AXE_TAGS);
}

/** Waits until work left over from the last change (computed in slices) is done. */
export async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.working !== '1');
  // The last slice's redraw happens at the next animation frame.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The text of readout `key`. */
export const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (el) => el.textContent);

/** The value of `key` in the page's URL query (null when absent). */
export const query = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);

/** The rows of the report's table `index` (on the fast panels 0 is the event log, newest
 *  first, and 1 the methods) as text. */
export const tableRows = (page, index) =>
  page.$$eval(`#tables table`, (tables, i) => [...tables[i].tBodies[0].rows].map((tr) => [...tr.cells].map((c) => c.textContent)), index);

/** Number of times the chart has been drawn so far. */
export function draws(page) {
  return page.$eval('#chart', (c) => Number(c.dataset.draws ?? 0));
}

/** Waits until the chart has been drawn at least `n` times. */
export async function waitForDraws(page, n) {
  await page.waitForFunction((k) => Number(document.querySelector('#chart').dataset.draws ?? 0) >= k, n);
}

/** The page (CSS) coordinates of the data point (x, y) of the interactive chart. */
export function screenPoint(page, x, y) {
  return page.evaluate(
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
}

/** Drags with the mouse on the chart from the data point `from` ([x, y]) to `to`, and waits
 *  for the drawing that follows. */
export async function drag(page, from, to) {
  const [a, b] = [await screenPoint(page, ...from), await screenPoint(page, ...to)];
  const n = await draws(page);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
  await waitForDraws(page, n + 1);
}

/** Counts the canvas pixels of exactly `hex` colour inside the plotting area. */
export function countColour(page, hex) {
  return page.evaluate((colour) => {
    const canvas = document.querySelector('#chart');
    const area = window.rvmLab.state.lab.plotArea();
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    const ctx = canvas.getContext('2d');
    const w = Math.round(area.right - area.left);
    const h = Math.round(area.bottom - area.top);
    const data = ctx.getImageData(Math.round(area.left), Math.round(area.top), w, h).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n += 1;
    return n;
  }, hex);
}

/** A fingerprint of the canvas pixels, to tell whether the drawing changed. */
export function canvasHash(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('#chart');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let h = 2166136261;
    for (let i = 0; i < data.length; i += 7) h = Math.imul(h ^ data[i], 16777619);
    return `${canvas.width}x${canvas.height}:${h >>> 0}`;
  });
}

/** The PNG's text chunks (iTXt: keyword, five bytes of flags and tags, UTF-8 text), each
 *  chunk's CRC checked and IEND last. */
export function pngTexts(png) {
  const texts = {};
  let [at, last] = [8, ''];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    last = png.toString('latin1', at + 4, at + 8);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `${last}'s CRC`);
    const data = png.subarray(at + 8, at + 8 + length);
    if (last === 'iTXt') texts[data.toString('latin1', 0, data.indexOf(0))] = data.subarray(data.indexOf(0) + 5).toString('utf8');
    at += 12 + length;
  }
  assert.equal(last, 'IEND');
  return texts;
}
