// The comparisons beside a panel's own run (classic and EM beside the fast RVM, the classic
// sweeps beside the classifiers) run in a worker where one can start, and in the page's slices
// where none can: the methods table holds the same numbers either way, to the bit (the time a
// run took aside), and the page never stops at a worker that fails.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, STRICT_POLICY } from '../../scripts/serve.mjs';
import { fileURLToPath } from 'node:url';
import { settled, start, watched } from './browser.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

let env;
const servers = [];
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
  for (const { server } of servers) await new Promise((done) => server.close(done));
});

/** The methods table's rows as the panel reports them, numbers in full, without the time
 *  column (the time a run took where it ran). */
const methodRows = (page) =>
  page.evaluate(() => {
    const table = window.rvmLab.state.lab.report().tables.find((t) => t.key.endsWith('methods'));
    const time = table.columns.indexOf('time-ms');
    return table.rows.map((row) => row.filter((_, i) => i !== time));
  });

/**
 * Opens `query` at `url` (the test server's by default), `prepare`d first, and waits until
 * its work, the comparisons included, is done; the page, with its console errors.
 */
async function openDone(query, { prepare, url = env.url } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = watched(await context.newPage());
  await prepare?.(page);
  await page.goto(url + query);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  return page;
}

/** A browser without `Worker`: the comparisons run in the page's slices. */
const noWorker = (page) => page.addInitScript(() => delete window.Worker);

// The last: the worker loads the formula module for a typed basis, as the page does.
const PANELS = [
  '?panel=fast-rvm',
  '?panel=fast-rvm&N=80&seed=7&noise=0.3',
  '?panel=classification',
  '?panel=poisson',
  '?panel=fast-rvm&basis=formula&formula=exp(-abs(x-mu)/s)&M=20',
];

describe('the comparisons in a worker', () => {
  for (const query of PANELS) {
    test(`${query}: the same rows from the worker as from the page's slices, to the bit`, async () => {
      const inWorker = await openDone(query);
      assert.equal(await inWorker.evaluate(() => document.documentElement.dataset.comparisons), 'worker');
      assert.ok(inWorker.requests.some((url) => url.endsWith('/worker.min.js')), 'the worker script was loaded');
      const state = await inWorker.evaluate(() => window.rvmLab.state.lab.comparisons());
      assert.equal(state.elsewhere, true, 'the panel left its comparisons to the worker');
      assert.equal(state.done, true);
      const fromWorker = await methodRows(inWorker);
      assert.ok(fromWorker.length >= 2, 'a row for the fast run and for each comparison');
      assert.deepEqual(inWorker.consoleErrors, []);
      await inWorker.context().close();

      const inSlices = await openDone(query, { prepare: noWorker });
      assert.equal(await inSlices.evaluate(() => document.documentElement.dataset.comparisons), 'here');
      assert.equal(await inSlices.evaluate(() => window.rvmLab.state.lab.comparisons().elsewhere), false);
      assert.deepEqual(await methodRows(inSlices), fromWorker);
      assert.deepEqual(inSlices.consoleErrors, []);
      await inSlices.context().close();
    });
  }

  test('a change while the worker runs: its rows are the new state’s, as the slices give them', async () => {
    const changed = async (prepare) => {
      const page = await openDone('?panel=fast-rvm&N=60', { prepare });
      // Two changes in a row, the first one's job superseded before it ends.
      for (const n of ['70', '40']) {
        await page.fill('#ctl-N', n);
        await page.press('#ctl-N', 'Enter');
      }
      await page.waitForFunction(() => new URLSearchParams(location.search).get('N') === '40');
      await settled(page);
      const rows = await methodRows(page);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
      return rows;
    };
    const fromWorker = await changed();
    const inSlices = await changed(noWorker);
    assert.deepEqual(fromWorker, inSlices);
    const fresh = await openDone('?panel=fast-rvm&N=40', { prepare: noWorker });
    assert.deepEqual(fromWorker, await methodRows(fresh));
    await fresh.context().close();
  });

  test('a worker that fails, or that the site’s policy refuses: the slices take over', async () => {
    const expected = await openDone('?panel=classification', { prepare: noWorker });
    const rows = await methodRows(expected);
    await expected.context().close();
    // A worker script that throws as it starts.
    const throwing = await openDone('?panel=classification', {
      prepare: (page) =>
        page.route('**/worker.min.js', (route) =>
          route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("no worker today")' }),
        ),
    });
    assert.equal(await throwing.evaluate(() => document.documentElement.dataset.comparisons), 'here');
    assert.deepEqual(await methodRows(throwing), rows);
    assert.deepEqual(throwing.consoleErrors, []);
    await throwing.context().close();
    // A host whose policy allows no worker.
    const refusing = await serve({ root: WWW, port: 0, policy: `${STRICT_POLICY}; worker-src 'none'` });
    servers.push(refusing);
    const refused = await openDone('?panel=classification', { url: refusing.url });
    assert.equal(await refused.evaluate(() => document.documentElement.dataset.comparisons), 'here');
    assert.deepEqual(await methodRows(refused), rows);
    // The browser reports the refusal itself; nothing else goes wrong.
    assert.deepEqual(
      refused.consoleErrors.filter((text) => !/worker-src/.test(text)),
      [],
    );
    await refused.context().close();
  });

  test('each panel is opened in the worker ahead of the page, once; a worker that never answers delays nothing for long', async () => {
    // What the page sends its worker.
    const recordPosts = (page) =>
      page.addInitScript(() => {
        window.posted = [];
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
          window.posted.push(message.warm ? ['warm', message.panel] : message.module ? ['module'] : ['job', message.panel]);
          return post.call(this, message, ...rest);
        };
      });
    const page = await openDone('?panel=gradient-descent', { prepare: recordPosts });
    assert.deepEqual(await page.evaluate(() => window.posted), [['module'], ['warm', 'gradient-descent']]);
    // Another panel, and back: the first time each.
    await page.selectOption('#panel-select', 'fast-rvm');
    await page.waitForFunction(() => window.rvmLab.state.panel === 'fast-rvm');
    await page.selectOption('#panel-select', 'gradient-descent');
    await page.waitForFunction(() => window.rvmLab.state.panel === 'gradient-descent');
    const posted = await page.evaluate(() => window.posted);
    assert.deepEqual(posted.filter(([kind]) => kind === 'warm'), [['warm', 'gradient-descent'], ['warm', 'fast-rvm']]);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();

    // A worker that starts and never answers: the panel opens all the same, and is drawn.
    const silent = await openDone('?panel=gradient-descent', {
      prepare: (page) =>
        page.route('**/worker.min.js', (route) => route.fulfill({ contentType: 'text/javascript', body: 'self.onmessage = () => {};' })),
    });
    assert.equal(await silent.evaluate(() => window.rvmLab.state.panel), 'gradient-descent');
    assert.equal(await silent.evaluate(() => window.rvmLab.state.lab.report().tables.length > 0), true);
    assert.deepEqual(silent.consoleErrors, []);
    await silent.context().close();
  });
});
