// The release bundle a lecturer downloads instead of building: dist/rvm-lab-<version>.zip
// (scripts/package.mjs, run by scripts/build.sh) holds the static site with index.html at its
// root, the single file, the example deck and the page for lecturers, and nothing a host does
// not need; unpacked and served from a sub-path, or opened from disk, it is the whole lab.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { open, start } from './browser.mjs';
import { version } from '../../scripts/package.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let files;
let folder;
let env;
before(async () => {
  files = unzipSync(await readFile(join(ROOT, 'dist', `rvm-lab-${await version()}.zip`)));
  folder = await mkdtemp(join(tmpdir(), 'rvm-bundle-'));
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), bytes);
  }
  env = await start({ root: folder, base: '/teaching/rvm/' });
});
after(async () => {
  await env?.close();
  await rm(folder, { recursive: true, force: true });
});

test('the zip is named by Cargo.toml’s version and holds the site at its root, and no build leftovers', async () => {
  assert.match(await version(), /^\d+\.\d+\.\d+/);
  const names = Object.keys(files);
  for (const name of ['index.html', 'rvm-lab.html', 'lecturers.html', 'deck.html', 'embed.html', 'embed.js', 'embed.global.js', 'app.min.js', 'boot.min.js', 'editor.min.js', 'editor.min.css', 'tex.min.js', 'fonts/lab-math.woff2', 'fonts/LICENSE.txt', 'lessons/index.json', 'strings/zh.js']) {
    assert.ok(names.includes(name), `${name} is missing`);
  }
  assert.ok(names.some((name) => /^pkg\/rvm_lab_simd_bg\.wasm$/.test(name)));
  assert.ok(names.includes('pkg/formula_bg.wasm') && names.includes('pkg/formula.js'), 'the formula module');
  assert.deepEqual(names.filter((name) => /\.(br|gz)$|^(app|wasm|url|view)\.js$|bench/.test(name)), []);
});

test('every link of the page for lecturers and of the deck is in the zip', async () => {
  for (const page of ['lecturers.html', 'deck.html', 'embed.html']) {
    const html = new TextDecoder().decode(files[page]);
    const links = [...html.matchAll(/(?:href|src|data-src)="\.\/([^"?#]+)/g)].map((m) => m[1]);
    assert.ok(links.length >= 2, page);
    for (const link of links) assert.ok(link in files, `${page} links to ${link}, which is not in the zip`);
  }
});

test('unpacked and served from a sub-path: a panel, a lesson and the deck', async () => {
  const panel = await open(env, 'index.html?panel=fast-rvm');
  assert.deepEqual(panel.consoleErrors, []);
  await panel.context().close();
  const lesson = await open(env, '?lesson=evidence&step=2');
  assert.match(await lesson.textContent('#lesson-counter'), /^step 2 of /);
  // Its equation in the equations' font, from the zip (the page's first load does not ask for it).
  assert.ok(!panel.requests.some((url) => url.includes('lab-math')), 'a panel without an equation loads no font');
  await lesson.evaluate(() => document.fonts.ready);
  assert.deepEqual(lesson.requests.filter((url) => url.includes('lab-math')), [`${env.url}fonts/lab-math.woff2`]);
  assert.equal(await lesson.evaluate(() => [...document.fonts].find((font) => font.family.replace(/"/g, '') === 'RVM Lab Math')?.status), 'loaded');
  assert.deepEqual(lesson.consoleErrors, []);
  await lesson.context().close();
  const deck = await env.browser.newPage();
  await deck.goto(`${env.url}deck.html#/1`);
  await deck.waitForFunction(() => window.Reveal?.isReady());
  const frame = await (await deck.waitForSelector('section.present iframe')).contentFrame();
  await frame.waitForFunction(() => Number(document.querySelector('#chart')?.dataset.draws ?? 0) >= 1);
  await deck.close();
});

test('unpacked and opened from disk: index.html opens the single file beside it', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${pathToFileURL(join(folder, 'index.html')).href}?panel=poisson`);
  await page.waitForURL(/rvm-lab\.html\?panel=poisson/);
  await page.waitForFunction(() => Number(document.querySelector('#chart')?.dataset.draws ?? 0) >= 1);
  await page.close();
});
