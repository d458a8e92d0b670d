// A lesson as an LMS activity: the SCORM 1.2 package of the build (dist/scorm/<lesson>.zip)
// launched in a frame of a page that holds a real SCORM 1.2 runtime, scorm-again (npm, pinned),
// standing in for Moodle, Canvas, Blackboard or Brightspace. The lesson finds the runtime's
// `API`, keeps its step in cmi.core.lesson_location, reports cmi.core.lesson_status =
// "completed" at its last step, and a student who comes back resumes where they left; with no
// LMS the same file is an ordinary lesson.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, watched } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LESSON = 'sparsity';

let browser;
let lms;
let folder;

before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // The LMS's site: its page, the runtime, and the package unpacked where the LMS keeps it.
  folder = await mkdtemp(join(tmpdir(), 'rvm-lms-'));
  const files = unzipSync(await readFile(join(ROOT, 'dist', 'scorm', `${LESSON}.zip`)));
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(folder, 'content', path)), { recursive: true });
    await writeFile(join(folder, 'content', path), bytes);
  }
  await copyFile(join(ROOT, 'node_modules', 'scorm-again', 'dist', 'scorm12.min.js'), join(folder, 'scorm12.min.js'));
  await writeFile(join(folder, 'course.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title><h1>Course</h1>');
  // The served site too, under the LMS's origin (a course that frames the site, not a package).
  await symlink(join(ROOT, 'www'), join(folder, 'site'));
  lms = await serve({ root: folder, port: 0, policy: null });
});
after(async () => {
  await browser?.close();
  await new Promise((done) => lms?.server.close(done));
  await rm(folder, { recursive: true, force: true });
});

/** Opens the LMS's page with a fresh SCORM 1.2 runtime (holding `saved`, the data of an
 *  earlier attempt, if any), launches the package in a frame, and waits for the lesson. */
async function launch(saved = null, src = 'content/index.html', prepare = null) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = watched(await context.newPage());
  await prepare?.(page);
  await page.goto(`${lms.url}course.html`);
  await page.addScriptTag({ url: `${lms.url}scorm12.min.js` });
  await page.evaluate(([data, src]) => {
    window.API = new window.Scorm12API({ logLevel: 4 });
    if (data) window.API.loadFromJSON(data);
    window.calls = [];
    window.API.on('LMSInitialize', () => window.calls.push(['LMSInitialize']));
    window.API.on('LMSSetValue.cmi.*', (element, value) => window.calls.push(['LMSSetValue', element, value]));
    window.API.on('LMSCommit', () => window.calls.push(['LMSCommit']));
    window.API.on('LMSFinish', () => window.calls.push(['LMSFinish']));
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.title = 'RVM Lab lesson';
    frame.style.width = '1100px';
    frame.style.height = '800px';
    document.body.append(frame);
  }, [saved, src]);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('body[data-ready="1"]');
  return { page, frame };
}

/** What the runtime holds now (cmi.core.exit is write-only: its last value as set). */
const cmi = (page) =>
  page.evaluate(() => ({
    location: window.API.cmi.core.lesson_location,
    status: window.API.cmi.core.lesson_status,
    exit: window.calls.findLast((c) => c[1] === 'cmi.core.exit')?.[2],
  }));

const counter = (frame) => frame.textContent('#lesson-counter');

test('the package is SCORM 1.2: its manifest names the lesson and launches index.html, the single file', async () => {
  const files = unzipSync(await readFile(join(ROOT, 'dist', 'scorm', `${LESSON}.zip`)));
  assert.deepEqual(Object.keys(files).sort(), ['imsmanifest.xml', 'index.html']);
  const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /<resource identifier="lab" type="webcontent" adlcp:scormtype="sco" href="index.html">/);
  assert.match(manifest, /<item identifier="lesson-sparsity" identifierref="lab"/);
  assert.match(manifest, /<title>RVM Lab: Why the RVM is sparse · 为什么 RVM 是稀疏的<\/title>/);
  const html = new TextDecoder().decode(files['index.html']);
  assert.match(html, /data-build="single" data-lesson="sparsity" data-lock="1"/);
});

test('walking the lesson: the location follows each step, "completed" at the last step, then kept', async () => {
  const { page, frame } = await launch();
  assert.equal(await counter(frame), 'step 1 of 5');
  // Student mode: no way into another panel or lesson, nor into the editor.
  for (const selector of ['#panel-select', '#lesson-select', '#editor-open', '#offline-link']) {
    assert.equal(await frame.isVisible(selector), false, `${selector} is shown in the LMS`);
  }
  assert.equal(await frame.isVisible('#lesson-next'), true);
  assert.deepEqual(await cmi(page), { location: '1', status: 'incomplete', exit: 'suspend' });
  for (let k = 2; k <= 5; k += 1) {
    await frame.click('#lesson-next');
    assert.equal(await counter(frame), `step ${k} of 5`);
    const now = await cmi(page);
    assert.equal(now.location, String(k));
    assert.equal(now.status, k < 5 ? 'incomplete' : 'completed');
  }
  // Back a step: the lesson stays completed, the location follows.
  await frame.click('#lesson-prev');
  assert.deepEqual(await cmi(page), { location: '4', status: 'completed', exit: '' });
  const calls = await page.evaluate(() => window.calls);
  assert.deepEqual(calls[0], ['LMSInitialize']);
  assert.ok(calls.some((c) => c[0] === 'LMSCommit'), 'each step is committed');
  assert.deepEqual(
    calls.filter((c) => c[1] === 'cmi.core.lesson_status').map((c) => c[2]),
    ['incomplete', 'completed'],
    'the status is set once to each value',
  );
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();
});

test('a student who leaves at step 3 comes back to step 3; the session ends with LMSFinish and its time', async () => {
  const first = await launch();
  await first.frame.click('#lesson-next');
  await first.frame.click('#lesson-next');
  assert.equal(await counter(first.frame), 'step 3 of 5');
  // The student leaves: the frame goes, and with it the lesson's session.
  await first.page.evaluate(() => document.querySelector('iframe').remove());
  await first.page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish'));
  const calls = await first.page.evaluate(() => window.calls);
  const time = calls.find((c) => c[1] === 'cmi.core.session_time')?.[2];
  assert.match(time ?? '', /^\d{4}:\d{2}:\d{2}\.\d{2}$/);
  // What the LMS keeps of the attempt.
  const saved = await first.page.evaluate(() => ({
    core: { lesson_location: window.API.cmi.core.lesson_location, lesson_status: window.API.cmi.core.lesson_status, entry: 'resume' },
  }));
  assert.deepEqual(saved.core, { lesson_location: '3', lesson_status: 'incomplete', entry: 'resume' });
  await first.page.context().close();

  const again = await launch(saved);
  assert.equal(await counter(again.frame), 'step 3 of 5', 'the lesson resumes where it was left');
  assert.equal(await again.frame.evaluate(() => new URLSearchParams(location.search).get('step')), '3');
  assert.deepEqual(await cmi(again.page), { location: '3', status: 'incomplete', exit: 'suspend' });
  assert.deepEqual(again.page.consoleErrors, []);
  await again.page.context().close();
});

test('without an LMS the package’s file is an ordinary lesson, served or from disk', async () => {
  for (const address of [`${lms.url}content/index.html`, pathToFileURL(join(folder, 'content', 'index.html')).href]) {
    const context = await browser.newContext();
    const page = watched(await context.newPage());
    await page.goto(address);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await counter(page), 'step 1 of 5');
    await page.keyboard.press('ArrowRight');
    assert.equal(await counter(page), 'step 2 of 5');
    assert.equal(await page.evaluate(() => window.rvmLab.state.scorm), null);
    assert.deepEqual(page.consoleErrors, [], address);
    await context.close();
  }
});

test('the served site in an LMS frame: it loads the session (its own file) and reports; outside one it does not', async () => {
  const { page, frame } = await launch(null, `site/index.html?lesson=${LESSON}`);
  assert.equal(await counter(frame), 'step 1 of 5');
  assert.deepEqual(await cmi(page), { location: '1', status: 'incomplete', exit: 'suspend' });
  await frame.click('#lesson-next');
  assert.equal((await cmi(page)).location, '2');
  assert.ok(page.requests.some((url) => url.endsWith('/site/scorm-session.min.js')), 'the session was loaded');
  assert.deepEqual(page.consoleErrors, []);
  await page.context().close();

  // The session's module cannot be loaded: the lesson works all the same, without an LMS.
  const failing = await launch(null, `site/index.html?lesson=${LESSON}`, (page) =>
    page.route('**/scorm-session.min.js', (route) => route.fulfill({ status: 404, body: 'not here' })),
  );
  assert.equal(await counter(failing.frame), 'step 1 of 5');
  assert.equal(await failing.frame.evaluate(() => window.rvmLab.state.scorm), null);
  await failing.frame.click('#lesson-next');
  assert.equal(await counter(failing.frame), 'step 2 of 5');
  assert.deepEqual(failing.page.consoleErrors.filter((text) => !/404/.test(text)), []);
  await failing.page.context().close();

  const context = await browser.newContext();
  const alone = watched(await context.newPage());
  await alone.goto(`${lms.url}site/index.html?lesson=${LESSON}`);
  await alone.waitForSelector('body[data-ready="1"]');
  assert.equal(await counter(alone), 'step 1 of 5');
  assert.equal(alone.requests.some((url) => url.endsWith('scorm-session.min.js')), false, 'no LMS, no session module');
  await context.close();
});
