// The static server and the build's precompressed siblings: what a browser is sent for each
// Accept-Encoding, that the bytes decode to the file, that a stale sibling is never sent,
// and that a reload is answered "304 Not Modified"; then the same through Chromium.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressFolder } from '../../scripts/compress.mjs';
import { quality, serve } from '../../scripts/serve.mjs';
import { open, start } from './browser.mjs';

/** A wasm-like binary and a text file, compressed as the build does, served under a sub-path. */
let folder;
let server;
let url;
const text = `${'const twelve = 12; // a line that repeats\n'.repeat(200)}`;
const binary = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 251 & (i % 3 ? 0xff : 0x0f)));

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'rvm-serve-'));
  await writeFile(join(folder, 'app.js'), text);
  await writeFile(join(folder, 'module.wasm'), binary);
  await writeFile(join(folder, 'picture.png'), binary);
  await compressFolder(folder);
  ({ server, url } = await serve({ root: folder, port: 0, base: '/course/lab/' }));
});
after(async () => {
  await new Promise((done) => server.close(done));
  await rm(folder, { recursive: true });
});

/** The response to GET `name` (a path under the sub-path, sent as written, not normalised),
 *  its body as sent (not decoded). */
function sent(name, headers = {}) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((done, fail) => {
    request({ hostname, port, path: pathname + name, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', fail)
      .end();
  });
}

describe('serve.mjs', () => {
  test('Accept-Encoding: brotli first, then gzip, else the file; each decodes to the file', async () => {
    const br = await sent('app.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), text);
    assert.ok(br.body.length < text.length / 10, `${br.body.length} bytes`);
    assert.equal(br.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(br.headers.vary, 'Accept-Encoding');

    const gz = await sent('module.wasm', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['content-type'], 'application/wasm');
    assert.deepEqual(gunzipSync(gz.body), binary);
    assert.equal(Number(gz.headers['content-length']), gz.body.length);

    const refused = await sent('app.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(refused.body.toString(), text);

    const none = await sent('app.js', {});
    assert.equal(none.headers['content-encoding'], undefined);
    // An image is sent as it is, whatever the browser accepts.
    const png = await sent('picture.png', { 'accept-encoding': 'br, gzip' });
    assert.equal(png.headers['content-encoding'], undefined);
    assert.deepEqual(png.body, binary);
  });

  test('quality() reads q-values and *', () => {
    assert.equal(quality('gzip, br', 'br'), 1);
    assert.equal(quality('gzip;q=0.5, br;q=0', 'br'), 0);
    assert.equal(quality('gzip;q=0.5', 'gzip'), 0.5);
    assert.equal(quality('*;q=0.3', 'br'), 0.3);
    assert.equal(quality('identity', 'gzip'), 0);
    assert.equal(quality(undefined, 'gzip'), 0);
  });

  test('a reload gets 304 for an unchanged file; an edited file is sent, never its stale sibling', async () => {
    const first = await sent('app.js', { 'accept-encoding': 'br' });
    assert.equal(first.status, 200);
    assert.notEqual(first.headers['cache-control'], 'no-store');
    assert.ok(first.headers.etag && first.headers['last-modified']);
    const again = await sent('app.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const since = await sent('app.js', { 'accept-encoding': 'br', 'if-modified-since': first.headers['last-modified'] });
    assert.equal(since.status, 304);

    // The file is edited after the build: its siblings are older now and must not be sent.
    const edited = 'export const edited = true;\n';
    await writeFile(join(folder, 'app.js'), edited);
    const later = new Date(Date.now() + 5000);
    await utimes(join(folder, 'app.js'), later, later);
    const fresh = await sent('app.js', { 'accept-encoding': 'br, gzip', 'if-none-match': first.headers.etag });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.headers['content-encoding'], undefined);
    assert.equal(fresh.body.toString(), edited);
    // Compressing again brings the siblings up to date.
    await compressFolder(folder);
    const recompressed = await sent('app.js', { 'accept-encoding': 'br' });
    assert.equal(recompressed.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(recompressed.body).toString(), edited);
  });

  test('an over-long request line gets a 414 page and over-long headers a 431 page that say what to do', async () => {
    const { hostname, port, pathname } = new URL(url);
    /** The raw answer to the raw `text`. */
    const ask = (text) =>
      new Promise((done, fail) => {
        const socket = connect(Number(port), hostname, () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('end', () => done(answer));
        socket.on('error', fail);
      });
    // A permalink of 3000 points (42 000 characters), as a browser would send it.
    const points = Array.from({ length: 3000 }, (_, k) => `${(k / 3000).toFixed(4)}:0.5`).join(',');
    const long = await ask(`GET ${pathname}?panel=fast-rvm&points=${points} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(long, /^HTTP\/1.1 414 URI Too Long\r\n/);
    assert.match(long, /Save data as CSV/);
    assert.match(long, /--max-http-header-size/);
    const headers = await ask(`GET ${pathname} HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20000)}\r\n\r\n`);
    assert.match(headers, /^HTTP\/1.1 431 Request Header Fields Too Large\r\n/);
    // The server still answers afterwards.
    assert.equal((await sent('app.js')).status, 200);
  });

  test('outside the sub-path: 404; above the root: refused', async () => {
    assert.equal((await sent('missing.js')).status, 404);
    assert.equal((await fetch(url.replace('/course/lab/', '/other/app.js'))).status, 404);
    assert.equal((await sent('..%2f..%2fetc%2fpasswd')).status, 403);
  });
});

describe('the built page through Chromium', () => {
  let env;
  before(async () => {
    env = await start();
  });
  after(() => env.close());

  test('the module and the bundle arrive compressed, decode, and a reload revalidates them', async () => {
    const page = await open(env, '?panel=predictive');
    for (const build of ['rvm_lab_bg', 'rvm_lab_simd_bg']) {
      const wasm = await readFile(new URL(`../../www/pkg/${build}.wasm`, import.meta.url));
      const gz = await readFile(new URL(`../../www/pkg/${build}.wasm.gz`, import.meta.url));
      assert.deepEqual(gunzipSync(gz), wasm, `the build wrote the sibling of ${build}.wasm`);
    }
    const responses = [];
    page.on('response', (r) => responses.push(r));
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    // Chromium validates wasm's SIMD: it loads that build.
    const module = responses.find((r) => r.url().endsWith('rvm_lab_simd_bg.wasm'));
    assert.ok(module, 'the module was asked for again');
    // Chromium revalidates on reload: 304, or 200 with the body compressed.
    const headers = await module.allHeaders();
    if (module.status() === 200) assert.match(headers['content-encoding'] ?? '', /^(br|gzip)$/);
    else assert.equal(module.status(), 304);
    assert.equal(headers['cache-control'], 'no-cache');
    const bundle = responses.find((r) => r.url().endsWith('app.min.js'));
    assert.ok(bundle);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('a permalink too long for the server opens a page in Chromium that says what to do', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const points = Array.from({ length: 3000 }, (_, k) => `${(k / 3000).toFixed(4)}:0.5`).join(',');
    const response = await page.goto(`${env.url}?panel=fast-rvm&points=${points}`);
    assert.equal(response.status(), 414);
    assert.match(await page.textContent('h1'), /this link is too long for the server/);
    assert.match(await page.textContent('body'), /Save data as CSV/);
    await context.close();
  });
});
