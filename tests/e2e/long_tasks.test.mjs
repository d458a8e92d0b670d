// Heavy work stays off the page's critical path: a long-task observer records no task over
// 200 ms while a panel with heavy work loads and while its N goes to the top of its range
// and the work that change left runs in the background (slider_ends.test.mjs moves every
// slider of every panel) — a generous functional bound against a return to synchronous work
// (a run recorded at once, a first fit in one piece, a comparison set up in the same task),
// not a speed target: scripts/interactions.mjs and scripts/lighthouse.mjs measure speed.
// The run a change starts still arrives whole: the stepping panels end at their last step.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { longTasks as tasks, openObserved, settled, start } from './browser.mjs';

/** The bound on any one task, in milliseconds. */
const LONGEST = 200;
/** The panels whose first state is heavy work in the background (a run, a first fit, paths). */
const HEAVY = ['gradient-descent', 'regularisation', 'fast-rvm', 'classification', 'poisson', 'multiclass'];

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

const openPanel = (panel) => openObserved(env, `?panel=${panel}`);

describe('long tasks', () => {
  test('the heavy panels load with no task over 200 ms', async () => {
    // Loaded again, as on a reload: the module's code is then compiled and cached (the first
    // load of a context also compiles 680 KB of wasm, which Lighthouse measures), so what
    // is left is the panel's own work.
    const slow = [];
    for (const panel of HEAVY) {
      const page = await openPanel(panel);
      await page.reload();
      await page.waitForSelector('body[data-ready="1"]');
      await settled(page);
      for (const ms of await tasks(page)) if (ms > LONGEST) slow.push(`${panel} loading: ${ms} ms`);
      await page.context().close();
    }
    assert.deepEqual(slow, []);
  });

  for (const [panel, key, top] of [
    ['fast-rvm', 'N', '2000'],
    ['classification', 'N', '400'],
    ['poisson', 'N', '400'],
    ['multiclass', 'N', '150'],
  ]) {
    test(`${panel}: ${key} = ${top} streams its run in and ends whole`, async () => {
      const page = await openPanel(panel);
      // The load's tasks (the first test measures them, on a reload) are not the change's.
      await tasks(page);
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
