// Strict hosts: the lab's pages under the policy scripts/serve.mjs sends (STRICT_POLICY: nothing
// inline, nothing from another host, WebAssembly allowed) — every panel, every built-in lesson
// at a middle step, stage view, embed=1, embed.html with its mounted panels, the example deck
// with its framed panels, the page for lecturers, and the single file under its own policy —
// with no Content-Security-Policy violation in any frame and no console error.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { STRICT_POLICY } from '../../scripts/serve.mjs';
import { panelNames, start } from './browser.mjs';

let env;
before(async () => {
  env = await start({ base: '/course/rvm-lab/' });
});
after(async () => {
  await env?.close();
});

/** Opens `path` with every frame recording the policy violations it meets; waits until `ready`
 *  holds in the page and every frame showing the lab has drawn; returns the violations and
 *  console errors of all frames. */
async function violations(path, ready = () => true, provoke = null) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.cspViolations = [];
    addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  const response = await page.goto(env.url + path);
  await page.waitForFunction(ready);
  for (const frame of page.frames()) {
    if (await frame.$('#chart')) {
      await frame.waitForFunction(() => Number(document.querySelector('#chart').dataset.draws ?? 0) >= 1 && document.body.dataset.working !== '1', null, { timeout: 30_000 });
    }
  }
  if (provoke) await page.evaluate(provoke);
  const seen = [];
  for (const frame of page.frames()) seen.push(...(await frame.evaluate(() => window.cspViolations ?? []).catch(() => [])));
  const policy = response.headers()['content-security-policy'];
  await context.close();
  return { seen, errors, policy };
}

test('the recorder sees a violation when there is one (an inline style attribute)', async () => {
  const { seen } = await violations('index.html?panel=basis', () => true, async () => {
    document.body.insertAdjacentHTML('beforeend', '<p style="color: red">inline</p>');
    await new Promise((done) => setTimeout(done, 100));
  });
  assert.match(seen.join('\n'), /^style-src/);
});

test('every panel, in English and 中文, with no policy violation', async () => {
  const names = await panelNames();
  for (const [i, name] of names.entries()) {
    const { seen, errors, policy } = await violations(`index.html?panel=${name}${i % 2 ? '&lang=zh' : ''}`);
    assert.equal(policy, STRICT_POLICY);
    assert.deepEqual([seen, errors], [[], []], name);
  }
});

test('every built-in lesson at a middle step, and on stage', async () => {
  const lessons = JSON.parse(await readFile(new URL('../../www/lessons/index.json', import.meta.url), 'utf8'));
  for (const { id } of lessons) {
    const { seen, errors } = await violations(`index.html?lesson=${id}&step=2`);
    assert.deepEqual([seen, errors], [[], []], id);
  }
  for (const path of ['index.html?lesson=fast-rvm&step=4&stage=1', 'index.html?panel=classification&stage=1', 'index.html?panel=evidence&embed=1']) {
    const { seen, errors } = await violations(path);
    assert.deepEqual([seen, errors], [[], []], path);
  }
});

test('embed.html, the deck, the page for lecturers and the single file', async () => {
  const pages = [
    ['embed.html', () => document.querySelectorAll('iframe').length === 3],
    ['deck.html#/2', () => window.Reveal?.isReady()],
    ['deck.html#/4', () => window.Reveal?.isReady()],
    ['lecturers.html', () => true],
    ['rvm-lab.html?panel=multiclass', () => document.body.dataset.ready === '1'],
  ];
  for (const [path, ready] of pages) {
    const { seen, errors, policy } = await violations(path, ready);
    assert.deepEqual([seen, errors], [[], []], path);
    // The single file is sent under the policy it declares: its script and style by hash.
    if (path.startsWith('rvm-lab')) assert.match(policy, /^default-src 'none'; script-src 'sha256-[^']+' 'sha256-[^']+' 'wasm-unsafe-eval'; style-src 'sha256-/);
    else assert.equal(policy, STRICT_POLICY);
  }
});

test('the lesson editor, served (its own bundle and stylesheet) and in the single file: open, a view added, an equation typed in TeX, previewed, a lesson link played', async () => {
  const useEditor = async () => {
    document.querySelector('#editor-open').click();
    for (let i = 0; i < 200 && !document.querySelector('#editor:not([hidden]) [data-do="add"]'); i += 1) await new Promise((done) => setTimeout(done, 25));
    document.querySelector('#editor [data-do="add"]').click();
    const type = (selector, value) => {
      const input = document.querySelector(selector);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    type('#editor [data-field="title.en"]:not([data-i])', 'Policy');
    type('#editor [data-field="title.en"][data-i="0"]', 'One');
    type('#editor [data-field="text.en"][data-i="0"]', 'Text.');
    // An equation in TeX (cases, an accent, a colour: what Temml would style), shown as typed
    // once the converter is in, and played.
    for (let i = 0; i < 400 && document.querySelector('#editor').dataset.tex !== 'ready'; i += 1) await new Promise((done) => setTimeout(done, 25));
    type('#editor [data-field="tex"][data-i="0"]', '\\hat{\\alpha} = \\begin{cases} \\color{red}{1} & x > 0 \\\\ 0 & x \\le 0 \\end{cases}');
    if (!document.querySelector('#editor [data-math="0"] mtable')) throw new Error('the TeX was not shown');
    document.querySelector('#editor [data-do="preview"]').click();
    for (let i = 0; i < 200 && document.querySelector('#lesson').hidden; i += 1) await new Promise((done) => setTimeout(done, 25));
    if (document.querySelector('#lesson').hidden) throw new Error('the preview did not play');
    // The editor's stylesheet applies (a grid beside the panel at this width).
    if (getComputedStyle(document.querySelector('main')).display !== 'grid') throw new Error('no editor style');
  };
  for (const path of ['index.html?panel=basis', 'rvm-lab.html?panel=basis']) {
    const { seen, errors } = await violations(path, () => document.body.dataset.ready === '1', useEditor);
    assert.deepEqual([seen, errors], [[], []], path);
  }
});
