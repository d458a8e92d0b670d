// Data by hand (issue 17, item 1), in Chromium: a point dragged with the mouse moves and the
// fit follows; a double-click removes one; undo and redo by button and by Ctrl+Z /
// Ctrl+Shift+Z; the keyboard path (a point's number, arrow keys, Delete); touch (a drag
// moves a point, a long press removes one); the URL reproduces the edited data.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, screenPoint, settled, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

const points = (page) => page.evaluate(() => window.rvmLab.state.lab.points());
const readout = (page, key) => page.$eval(`#readouts dd[data-key="${key}"]`, (dd) => dd.textContent);
const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;

test('a point dragged with the mouse moves, the others stay, and the permalink holds it', async () => {
  const page = await open(env, '?panel=predictive');
  const start = await points(page);
  const from = await screenPoint(page, ...start[3]);
  const to = await screenPoint(page, 0.5, 1.2);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await settled(page);
  const moved = await points(page);
  assert.equal(moved.length, 10, 'no point added');
  assert.ok(near(moved[3][0], 0.5, 0.01) && near(moved[3][1], 1.2, 0.03), JSON.stringify(moved[3]));
  assert.deepEqual([...moved.slice(0, 3), ...moved.slice(4)], [...start.slice(0, 3), ...start.slice(4)]);
  assert.equal(await readout(page, 'N'), '10');
  assert.equal(await page.evaluate(() => window.rvmLab.state.lab.history()[0]), 1, 'one edit for the whole drag');
  // The URL holds the edited data: a fresh page opened with it shows the same points.
  const copy = await open(env, await page.evaluate(() => location.search));
  assert.deepEqual(await points(copy), moved);
  assert.deepEqual(page.consoleErrors, []);
  await copy.context().close();
  await page.context().close();
});

test('a double-click removes a point; undo and redo by button and by key', async () => {
  const page = await open(env, '?panel=predictive');
  const start = await points(page);
  const at = await screenPoint(page, ...start[5]);
  await page.mouse.dblclick(at.x, at.y);
  await settled(page);
  assert.equal(await readout(page, 'N'), '9');
  assert.deepEqual(await points(page), [...start.slice(0, 5), ...start.slice(6)]);
  assert.equal(await page.$eval('#undo', (b) => b.disabled), false);
  await page.click('#undo');
  await settled(page);
  assert.deepEqual(await points(page), start);
  assert.equal(await page.$eval('#undo', (b) => b.disabled), true);
  await page.click('#redo');
  assert.equal(await readout(page, 'N'), '9');
  // The keys, with the focus outside any text field.
  await page.focus('#undo');
  await page.keyboard.press('Control+z');
  assert.equal(await readout(page, 'N'), '10');
  await page.keyboard.press('Control+Shift+z');
  assert.equal(await readout(page, 'N'), '9');
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('the keyboard chooses a point by number, moves it with the arrow keys and removes it with Delete', async () => {
  const page = await open(env, '?panel=fast-rvm');
  const start = await points(page);
  await page.fill('#point-index', '2');
  await page.dispatchEvent('#point-index', 'input');
  // (Its coordinates to six significant digits, as the box shows them whole.)
  assert.equal(Number(await page.inputValue('#point-x')), Number(start[1][0].toPrecision(6)));
  await page.focus('#point-y');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await settled(page);
  const moved = await points(page);
  // Placed by hand, a point is kept to four decimals.
  assert.ok(near(moved[1][1], start[1][1] + 0.02, 1e-4), `${moved[1][1]} vs ${start[1][1]} + 0.02`);
  assert.ok(near(moved[1][0], start[1][0], 1e-4), "x stays (to four decimals)");
  // The URL keeps the edited data: 50 points of their own make a long state, which travels
  // in the fragment (packed, link.js); a fresh page opened with the URL has the same points.
  await page.waitForFunction(() => new URLSearchParams(location.search).has('points') || location.hash.startsWith('#z='));
  const copy = await open(env, await page.evaluate(() => location.search + location.hash));
  assert.deepEqual(await points(copy), moved);
  await copy.context().close();
  await page.focus('#point-index');
  await page.keyboard.press('Delete');
  await settled(page);
  assert.equal((await points(page)).length, start.length - 1);
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('touch: a drag moves a point and a long press removes one', async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 1000 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  await page.goto(`${env.url}?panel=predictive`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.draws ?? 0) >= 1);
  await settled(page);
  const cdp = await context.newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
  const start = await points(page);
  const from = await screenPoint(page, ...start[2]);
  const to = await screenPoint(page, 0.3, -1.0);
  await touch('touchStart', [{ x: from.x, y: from.y }]);
  for (let k = 1; k <= 5; k += 1) {
    await touch('touchMove', [{ x: from.x + ((to.x - from.x) * k) / 5, y: from.y + ((to.y - from.y) * k) / 5 }]);
    await page.evaluate(() => new Promise(requestAnimationFrame));
  }
  await touch('touchEnd', []);
  await settled(page);
  const moved = await points(page);
  assert.equal(moved.length, 10);
  assert.ok(near(moved[2][0], 0.3, 0.02) && near(moved[2][1], -1.0, 0.06), JSON.stringify(moved[2]));
  // A long press on point 7 removes it.
  const hold = await screenPoint(page, ...moved[7]);
  await touch('touchStart', [{ x: hold.x, y: hold.y }]);
  await page.waitForTimeout(900);
  await touch('touchEnd', []);
  await settled(page);
  assert.deepEqual(await points(page), [...moved.slice(0, 7), ...moved.slice(8)]);
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});
