// Heavy work stays off the page's critical path, on every panel and at both ends of every
// slider: a long-task observer records no task over 200 ms while a panel with heavy work
// loads (the others only compile and draw), while each slider of every panel goes to its
// top and to its bottom, and while the work that change left runs in the background — a generous functional bound against a return to synchronous work
// (a run recorded at once, a first fit in one piece, a comparison set up in the same task),
// not a speed target: scripts/interactions.mjs and scripts/lighthouse.mjs measure speed.
// The run a change starts still arrives whole: the stepping panels end at their last step.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { panelNames, settled, start } from './browser.mjs';

/** The bound on any one task, in milliseconds. */
const LONGEST = 200;
/** The panels whose first state is heavy work in the background (a run, a first fit, paths). */
const HEAVY = ['gradient-descent', 'regularisation', 'fast-rvm', 'classification', 'multiclass'];

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

/** Opens `panel` with a long-task observer from the first byte on. */
async function openObserved(panel) {
  const context = await env.browser.newContext({ viewport: { width: 1350, height: 940 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${env.url}?panel=${panel}`);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  return page;
}

/** Moves the slider of `key` to its `end` ('max' or 'min') as a drag would. */
function slide(page, key, end) {
  return page.evaluate(
    ([k, e]) => {
      const range = document.querySelector(`#rng-${k}`);
      range.value = range[e];
      range.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [key, end],
  );
}

const tasks = (page) => page.evaluate(() => window.longTasks.splice(0));

describe('long tasks', () => {
  test('the heavy panels load, and every slider goes to both ends, with no task over 200 ms', async () => {
    const slow = [];
    for (const panel of await panelNames()) {
      const page = await openObserved(panel);
      const loading = await tasks(page);
      if (HEAVY.includes(panel)) for (const ms of loading) if (ms > LONGEST) slow.push(`${panel} loading: ${ms} ms`);
      const keys = await page.$$eval('input[type=range][id^=rng-]', (ranges) => ranges.map((r) => r.id.slice(4)));
      for (const key of keys.filter((k) => k !== 'step')) {
        for (const end of ['max', 'min']) {
          await slide(page, key, end);
          // The slider's change is applied at the next frame, its work in slices after it.
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          await settled(page);
          for (const ms of await tasks(page)) if (ms > LONGEST) slow.push(`${panel} ${key} = ${end}: ${ms} ms`);
        }
        await page.click('#reset');
        await settled(page);
        await tasks(page);
      }
      await page.context().close();
    }
    assert.deepEqual(slow, []);
  });

  for (const [panel, key, top] of [
    ['fast-rvm', 'N', '2000'],
    ['classification', 'N', '400'],
    ['multiclass', 'N', '150'],
  ]) {
    test(`${panel}: ${key} = ${top} streams its run in and ends whole`, async () => {
      const page = await openObserved(panel);
      await page.fill(`#ctl-${key}`, top);
      await page.press(`#ctl-${key}`, 'Enter');
      await page.waitForFunction((n) => window.rvmLab.state.lab.value('N') === n, top);
      await settled(page);
      const changing = await tasks(page);
      assert.ok(changing.every((ms) => ms <= LONGEST), `after ${key} = ${top}: ${changing.join(', ')} ms`);
      // Whatever was left for the background is done, and the run is whole.
      const { work, position } = await page.evaluate(() => window.rvmLab.state.lab.report());
      assert.ok(!work || work[0] === work[1], `work ${work}`);
      assert.ok(position[1] > 0, `the run has ${position[1]} steps`);
      await page.context().close();
    });
  }
});
