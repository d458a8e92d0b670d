// Every slider of every panel, to both ends of its range: no task over 200 ms while the
// change is made, drawn and its background work done (a functional bound against a return to
// synchronous work, as in long_tasks.test.mjs; a browser of its own, so that the many pages
// before do not weigh on the heavy panels' own test there).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { longTasks as tasks, openObserved, panelNames, settled, start } from './browser.mjs';

/** The bound on any one task, in milliseconds. */
const LONGEST = 200;

let env;
before(async () => {
  env = await start();
});
after(() => env.close());

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

test('every slider of every panel goes to both ends with no task over 200 ms', async () => {
  const slow = [];
  for (const panel of await panelNames()) {
    const page = await openObserved(env, `?panel=${panel}`);
    await tasks(page);
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
