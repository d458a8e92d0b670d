// Permalinks of any size (issue 18, item 1): a large state's long values travel in the URL
// fragment, packed and compressed (www/link.js). The codec is checked in Node (a
// 5000-point state round-trips exactly, to its four decimals; random lists and texts
// round-trip; broken fragments are refused with a LinkError), and in Chromium: 2000
// imported points (fast-rvm's limit) make a link with a short query and a `#z=` fragment
// that opens the same data from serve.mjs at the root and under a sub-path; an old query
// permalink still opens; a link over LINK_MAX is not offered: the Share box says so and
// offers the data as CSV; a broken fragment gives a notice and the view opens. The packing
// (link-pack.min.js) is loaded only when a link needs it; when it cannot be, the plain
// fragment stays and a packed link gives a notice.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LINK_MAX, LinkError, QUERY_MAX, decodeFragment, encodeFragment, splitPairs } from '../../www/link.js';
import { open, settled, start } from './browser.mjs';
import { seeded } from './seeded.mjs';

/** `n` points of a noisy sinusoid as `x:t,…` at four decimals, as the page writes them. */
function pointsText(n, seed) {
  const next = seeded(seed);
  const round = (v) => Number(v.toFixed(4));
  return Array.from({ length: n }, () => {
    const x = round(next());
    return `${x}:${round(Math.sin(2 * Math.PI * x) + 0.6 * (next() - 0.5))}`;
  }).join(',');
}

/** The numbers of a points text. */
const numbers = (text) => text.split(/[:,]/).map(Number);

describe('the link codec', () => {
  test('a 5000-point state round-trips exactly (to its four decimals), in a link under LINK_MAX', async () => {
    const points = pointsText(5000, 1);
    const pairs = [['panel', 'fast-rvm'], ['N', '0'], ['s', '0.1'], ['points', points]];
    const { query, fragment } = splitPairs(pairs);
    assert.deepEqual(query, [['panel', 'fast-rvm'], ['N', '0'], ['s', '0.1']], 'the short keys stay in the query');
    const hash = await encodeFragment(fragment);
    assert.match(hash, /^z=[A-Za-z0-9_-]+$/);
    assert.ok(hash.length < LINK_MAX, `${hash.length} characters`);
    const back = await decodeFragment(`#${hash}`);
    assert.deepEqual(back.map(([key]) => key), ['points']);
    assert.deepEqual(numbers(back[0][1]), numbers(points));
    console.log(`5000 points: ${points.length} characters as text, ${hash.length} in the fragment`);
  });

  test('a short state stays in the query as before', () => {
    const pairs = [['panel', 'predictive'], ['points', '0.1:0.3,0.5:-0.2']];
    assert.deepEqual(splitPairs(pairs), { query: pairs, fragment: [] });
    const long = [['panel', 'basis'], ['centres', '0:0.5'], ['points', pointsText(200, 2)]];
    assert.ok(new URLSearchParams(long).toString().length > QUERY_MAX);
    assert.deepEqual(splitPairs(long).query, long.slice(0, 2));
  });

  test('random number lists and texts round-trip; the numbers keep their values', async () => {
    const next = seeded(7);
    for (let round = 0; round < 200; round += 1) {
      const group = 1 + Math.floor(next() * 3);
      const decimals = Math.floor(next() * 16);
      const count = group * (1 + Math.floor(next() * 40));
      const list = Array.from({ length: count / group }, () =>
        Array.from({ length: group }, () => {
          const v = (next() - 0.5) * 10 ** Math.floor(next() * 6);
          return String(Number(v.toFixed(decimals)));
        }).join(':'),
      ).join(',');
      const text = Array.from({ length: Math.floor(next() * 30) }, () =>
        String.fromCodePoint(Math.floor(next() * 0x2fff))).join('');
      const pairs = [['points', list], ['note', text], ['x', '<img src=x onerror=alert(1)>']];
      const back = await decodeFragment(await encodeFragment(pairs));
      assert.deepEqual(back.map(([k]) => k), ['points', 'note', 'x']);
      assert.deepEqual(numbers(back[0][1]), numbers(list), list);
      assert.equal(back[1][1], text);
      assert.equal(back[2][1], pairs[2][1]);
    }
  });

  test('a broken fragment is refused with a LinkError, never another error', async () => {
    const good = await encodeFragment([['points', pointsText(50, 3)]]);
    const broken = [
      'z=', 'z=!!!!', 'z=AAAA', good.slice(0, good.length / 2), flipped(good), 'z=eJwDAAAAAAE',
      // Valid deflate of bytes that are not a packed state: an unknown version, a truncated
      // number list, and a number list claiming more numbers than it holds.
      `z=${await deflated([9])}`, `z=${await deflated([1, 1, 112, 1, 2, 200, 1, 4, 1])}`,
      `z=${await deflated([1, 1, 112, 1, 2, 255, 255, 255, 127, 4, 1, 0])}`,
    ];
    for (const hash of broken) {
      await assert.rejects(decodeFragment(`#${hash}`), LinkError, hash);
    }
    // A plain fragment is a query.
    assert.deepEqual(await decodeFragment('#points=0.5:1'), [['points', '0.5:1']]);
  });
});

/** `hash` with one character in its middle changed (the checksum then fails). */
function flipped(hash) {
  const at = Math.floor(hash.length / 2);
  return `${hash.slice(0, at)}${hash[at] === 'A' ? 'B' : 'A'}${hash.slice(at + 1)}`;
}

/** base64url of `bytes` deflated, as a fragment holds them. */
async function deflated(bytes) {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream('deflate'));
  const out = new Uint8Array(await new Response(stream).arrayBuffer());
  return Buffer.from(out).toString('base64url');
}

describe('large permalinks in Chromium', () => {
  let env;
  let sub;
  before(async () => {
    env = await start();
    sub = await start({ base: '/course/rvm-lab/' });
  });
  after(async () => {
    await env.close();
    await sub.close();
  });

  const points = (page) => page.evaluate(() => window.rvmLab.state.lab.points());
  /** The address once its fragment is packed. */
  const packedAddress = async (page) => {
    await page.waitForFunction(() => location.hash.startsWith('#z='));
    return page.evaluate(() => location.href);
  };

  test('2000 imported points: a short query and a packed fragment that open the same data, at the root and under a sub-path', async () => {
    const page = await open(env, '?panel=fast-rvm&N=20');
    const rows = pointsText(2000, 4).split(',').map((p) => p.replace(':', ','));
    await page.fill('#csv-text', `x,t\n${rows.join('\n')}`);
    await page.click('#csv button[type=submit]');
    await settled(page);
    const imported = await points(page);
    assert.equal(imported.length, 2000);
    const address = await packedAddress(page);
    const url = new URL(address);
    assert.ok(url.search.length <= QUERY_MAX, `query of ${url.search.length}`);
    assert.equal(url.searchParams.get('N'), '0');
    assert.ok(address.length < LINK_MAX, `${address.length} characters`);
    await page.click('#share-toggle');
    await page.waitForSelector('#share', { state: 'visible' });
    assert.equal(await page.inputValue('#share-link'), address);
    assert.equal(await page.isHidden('#share-long'), true);
    for (const server of [env, sub]) {
      const copy = await open(server, `${url.search}${url.hash}`);
      assert.deepEqual(await points(copy), imported);
      assert.deepEqual(copy.consoleErrors, []);
      assert.ok(copy.url().startsWith(server.url));
      await copy.context().close();
    }
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a 5000-point link loads from serve.mjs and under a sub-path: every point reaches the panel, which names its limit', async () => {
    // No panel holds 5000 points (fast-rvm's limit is 2000): the page opens, decodes the
    // fragment, and the panel's notice counts all 5000 decoded points against its limit.
    const hash = await encodeFragment([['points', pointsText(5000, 9)]]);
    for (const server of [env, sub]) {
      const page = await open(server, `?panel=fast-rvm&N=0#${hash}`);
      assert.match(await page.textContent('#notices'), /N must be at most 2000, but is 5000/);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }
  });

  test('the packing loads only when a link needs it; without it a large state keeps its plain fragment', async () => {
    const packs = (page) => page.requests.filter((url) => url.endsWith('/link-pack.min.js')).length;
    const small = await open(env, '?panel=predictive&points=0.1:0.3,0.5:-0.2');
    assert.equal(packs(small), 0, 'a view that fits the query loads no packing');
    const rows = pointsText(300, 5).split(',').map((p) => p.replace(':', ','));
    await small.fill('#csv-text', `x,t\n${rows.join('\n')}`);
    await small.click('#csv button[type=submit]');
    await packedAddress(small);
    assert.equal(packs(small), 1, 'a state too long for the query loads it once');
    await small.context().close();

    const page = await open(env, '?panel=predictive');
    await page.route('**/link-pack.min.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.fill('#csv-text', `x,t\n${rows.join('\n')}`);
    await page.click('#csv button[type=submit]');
    await settled(page);
    await page.waitForFunction(() => location.hash.startsWith('#points='));
    const plain = new URL(await page.evaluate(() => location.href));
    assert.equal((await points(page)).length, 300);
    const copy = await open(env, `${plain.search}${plain.hash}`);
    assert.deepEqual(await points(copy), await points(page));
    await copy.context().close();
    await page.context().close();

    // A packed link opened without the packing: a notice, and the view opens from its query.
    const hash = await encodeFragment([['points', pointsText(20, 6)]]);
    const context = await env.browser.newContext();
    await context.route('**/link-pack.min.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
    const refused = await context.newPage();
    await refused.goto(`${env.url}?panel=predictive&N=7#${hash}`);
    await refused.waitForSelector('body[data-ready="1"]');
    assert.match(await refused.textContent('#notices'), /could not be read/);
    assert.equal((await points(refused)).length, 7);
    await context.close();
  });

  test('an old query permalink still opens its points, and keeps them in the query', async () => {
    const page = await open(env, '?panel=predictive&points=0.1:0.3,0.5:-0.2');
    assert.deepEqual((await points(page)).slice(-2), [[0.1, 0.3], [0.5, -0.2]]);
    assert.equal(new URL(page.url()).searchParams.get('points'), '0.1:0.3,0.5:-0.2');
    assert.equal(new URL(page.url()).hash, '');
    await page.context().close();
  });

  test('a link over LINK_MAX is not offered: the Share box says so and offers the data as CSV', async () => {
    // 2000 generated points at full precision (one moved, so all are the data's own).
    const page = await open(env, '?panel=fast-rvm&N=2000');
    await page.fill('#point-index', '1');
    await page.fill('#point-x', '0.5');
    await settled(page);
    await page.waitForFunction(() => location.hash.startsWith('#z='));
    assert.ok((await page.evaluate(() => location.href.length)) > LINK_MAX);
    await page.click('#share-toggle');
    await page.waitForSelector('#share', { state: 'visible' });
    assert.equal(await page.isVisible('#share-long'), true);
    assert.equal(await page.isHidden('#share-links'), true);
    assert.match(await page.textContent('#share-long-text'), /32768/);
    const download = page.waitForEvent('download');
    await page.click('#share-csv');
    assert.equal((await download).suggestedFilename(), 'rvm-lab-fast-rvm.csv');
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a broken fragment gives a notice in the page’s language, and the view opens from its query', async () => {
    for (const [lang, pattern] of [['en', /could not be read/], ['zh', /无法读取/]]) {
      const page = await open(env, `?panel=predictive&N=7&lang=${lang}#z=AAAA`);
      assert.match(await page.textContent('#notices'), pattern);
      assert.equal((await points(page)).length, 7);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }
  });
});
