// The fast-RVM panel in Chromium: stepping adds a basis function and the event log shows
// it, stepping back undoes it, play and pause, a click adds a point and restarts the run,
// and the classic and EM comparison runs finish in the background.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { draws, open, readout, screenPoint, settled, start, tableRows as rows, waitForDraws } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const urlStep = (page) => page.evaluate(() => new URLSearchParams(location.search).get('step'));

describe('panel fast-rvm', () => {
  test('Step adds a basis function, the event log shows it, Step back undoes it', async () => {
    const page = await open(env, '?panel=fast-rvm&step=0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    const [first] = await rows(page, 0);
    assert.deepEqual(first.slice(0, 2), ['0', 'add'], 'step 0 is the initialisation');
    const n = await draws(page);
    await page.click('#step');
    await waitForDraws(page, n + 1);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '1');
    const [newest] = await rows(page, 0);
    assert.deepEqual(newest.slice(0, 2), ['1', 'add']);
    assert.equal(await readout(page, 'relevance-vectors'), '2');
    assert.equal(await page.inputValue('#ctl-step'), '1');
    await page.click('#back');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '0');
    assert.equal(await readout(page, 'relevance-vectors'), '1');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('Play runs the steps at a readable pace; Pause stops them', async () => {
    const page = await open(env, '?panel=fast-rvm&step=0');
    assert.equal(await page.inputValue('#speed'), '1', 'two steps a second by default');
    await page.click('#play');
    await page.waitForFunction(() => Number(new URLSearchParams(location.search).get('step')) >= 2, null, { timeout: 5000 });
    await page.click('#play');
    const paused = await urlStep(page);
    await page.waitForTimeout(1200);
    assert.equal(await urlStep(page), paused, 'pause stops the animation');
    const progress = await page.$eval('#progress', (p) => [p.value, p.max]);
    assert.equal(progress[0], Number(paused));
    assert.ok(progress[1] > progress[0], `${progress[1]} steps in the run`);
    await page.context().close();
  });

  test('a click on the plot adds a point and the run starts again', async () => {
    const page = await open(env, '?panel=fast-rvm&step=9');
    const n = await draws(page);
    const at = await screenPoint(page, 0.5, 0.9);
    await page.mouse.click(at.x, at.y);
    await waitForDraws(page, n + 1);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('points'));
    assert.equal(await urlStep(page), '0');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('on a Gaussian basis a drag of a centre (the triangles along the foot) restarts the run on the moved basis', async () => {
    const page = await open(env, '?panel=fast-rvm&basis=gaussian&M=10&step=5');
    await settled(page);
    const handles = await page.evaluate(() => window.rvmLab.state.lab.handles());
    assert.equal(handles.length, 9);
    const [mu, foot] = handles[3].at;
    const points = await page.evaluate(() => window.rvmLab.state.lab.points().length);
    const n = await draws(page);
    const from = await screenPoint(page, mu, foot);
    const to = await screenPoint(page, 0.6, foot);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, to.y, { steps: 3 });
    await page.mouse.move(to.x, to.y, { steps: 3 });
    await page.mouse.up();
    await waitForDraws(page, n + 1);
    await page.waitForFunction(() => /^3:0\.(59|6)/.test(new URLSearchParams(location.search).get('centres') ?? ''));
    assert.equal(await urlStep(page), '0', 'the run starts again');
    assert.equal(await page.evaluate(() => window.rvmLab.state.lab.points().length), points, 'no point added');
    const moved = await page.evaluate(() => window.rvmLab.state.lab.handles()[3].at[0]);
    assert.ok(Math.abs(moved - 0.6) < 0.01, `μ₃ = ${moved}`);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('classic and EM finish in the background, below the fast method’s L or level with it', async () => {
    const page = await open(env, '?panel=fast-rvm&N=30');
    await page.waitForFunction(() => document.querySelector('#working').hidden, null, { timeout: 60000 });
    await settled(page);
    const methods = await rows(page, 1);
    assert.deepEqual(methods.map((r) => r[0]), ['fast (sequential)', 'classic (MacKay)', 'EM']);
    const [fast, classic] = methods;
    assert.equal(fast[5], 'yes');
    assert.equal(classic[5], 'yes');
    for (const row of methods) assert.ok(Number(row[2]) >= 0, `time ${row[2]}`);
    assert.ok(Math.abs(Number(fast[3]) - Number(classic[3])) < 2, `L ${fast[3]} and ${classic[3]}`);
    await page.context().close();
  });

  test('the step slider spans the run (26 steps), not the 5000 the setting allows, and grows with a longer run', async () => {
    const page = await open(env, '?panel=fast-rvm&step=13');
    const slider = () => page.$eval('#rng-step', (r) => [Number(r.max), Number(r.value)]);
    const last = () => page.evaluate(() => window.rvmLab.state.lab.report().position[1]);
    const run = await last();
    assert.ok(run > 10 && run < 200, `${run} steps`);
    assert.deepEqual(await slider(), [run, 13], 'the thumb sits half-way along a run of 26');
    // N = 2000: the run is recorded in slices; once done the slider spans all of it.
    await page.fill('#ctl-N', '2000');
    await page.press('#ctl-N', 'Enter');
    await settled(page);
    const longer = await last();
    assert.ok(longer > run, `${longer} steps at N = 2000`);
    assert.equal((await slider())[0], longer);
    await page.context().close();
  });

  test('a bad kernel width is refused with a message and the plot stays', async () => {
    const page = await open(env, '?panel=fast-rvm');
    const n = await draws(page);
    await page.fill('#ctl-s', '0');
    await page.press('#ctl-s', 'Enter');
    await page.waitForSelector('#err-s:not(:empty)');
    assert.match(await page.textContent('#err-s'), /s must be > 0/);
    assert.equal(await draws(page), n);
    await page.context().close();
  });
});
