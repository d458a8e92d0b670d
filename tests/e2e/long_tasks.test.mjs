// Heavy work stays off the page's critical path: a long-task observer while the fast-RVM
// panels load and while a slider goes to the top of its range records no task over 200 ms — a
// generous functional bound against a return to synchronous work (a run recorded at once,
// a comparison set up in the same task), not a speed target: bench.html and
// scripts/lighthouse.mjs measure speed.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, start } from './browser.mjs';

/** The bound on any one task, in milliseconds. */
const LONGEST = 200;

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

describe('long tasks', () => {
  // (The multiclass panel is not here yet: its first fit and first sweeps, with all 3(N + 1)
  // weights active, are single tasks of 100–200 ms; issue 15 keeps it open.)
  for (const [panel, key, top] of [
    ['fast-rvm', 'N', '2000'],
    ['classification', 'N', '400'],
  ]) {
    test(`${panel}: loading, and ${key} = ${top}, run no task over ${LONGEST} ms; the run streams in`, async () => {
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
      const loading = await page.evaluate(() => window.longTasks.splice(0));
      assert.ok(loading.every((ms) => ms <= LONGEST), `while loading: ${loading.join(', ')} ms`);
      await page.fill(`#ctl-${key}`, top);
      await page.press(`#ctl-${key}`, 'Enter');
      await page.waitForFunction((n) => window.rvmLab.state.lab.value('N') === n, top);
      await settled(page);
      const changing = await page.evaluate(() => window.longTasks.splice(0));
      assert.ok(changing.every((ms) => ms <= LONGEST), `after ${key} = ${top}: ${changing.join(', ')} ms`);
      // Whatever was left for the background is done, and the run is whole.
      const { work, position } = await page.evaluate(() => window.rvmLab.state.lab.report());
      assert.ok(!work || work[0] === work[1], `work ${work}`);
      assert.ok(position[1] > 0, `the run has ${position[1]} steps`);
      await context.close();
    });
  }
});
