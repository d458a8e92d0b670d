// The lecture walked by the keyboard alone, with no click: a deck of four slides (a title, a
// framed lesson, a framed fast RVM, a last slide), written as a reveal.js deck
// (tests/e2e/deck.test.mjs) or a Quarto one (scripts/quarto-deck.mjs), and the walk through
// it, for either driver (playwright-core driving Chromium, puppeteer-core driving Firefox).

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REVEAL = fileURLToPath(new URL('../../node_modules/reveal.js/dist/', import.meta.url));
const PLUGIN = fileURLToPath(new URL('../../www/rvm-lab-reveal.js', import.meta.url));

/** The slides: [title, the lab's address's query, or null for a slide of text]. */
export const SLIDES = [
  ['A deck on another site', null],
  ['Why the RVM is sparse', '?lesson=sparsity&step=1&stage=1'],
  ['The fast RVM', '?panel=fast-rvm&step=0&stage=1'],
  ['Questions', null],
];

const escape = (text) => text.replaceAll('&', '&amp;');

/** The frame of a slide showing the lab at `address`, as the docs write it (docs/teaching.md);
 *  not `marked` as the lab's, as a frame pasted from elsewhere may be. */
export const labFrame = (address, title, marked = true) =>
  `<iframe class="${marked ? 'rvm-lab ' : ''}r-stretch" data-src="${escape(address)}" data-preload title="RVM Lab: ${title}"></iframe>`;

/** Writes a reveal.js deck (npm's reveal.js) into `folder` whose frames show the lab at `lab`
 *  (a URL), using the plugin if `plugin`, its frames `marked` as the lab's or not. Everything
 *  it loads is in the folder but the frames. */
export function writeDeck(folder, lab, plugin = true, marked = true) {
  mkdirSync(folder, { recursive: true });
  for (const file of ['reveal.js', 'reveal.css', 'reset.css']) copyFileSync(join(REVEAL, file), join(folder, file));
  copyFileSync(PLUGIN, join(folder, 'rvm-lab-reveal.js'));
  const sections = SLIDES.map(([title, query]) => `<section><h2>${title}</h2>${query ? labFrame(lab + query, title, marked) : ''}</section>`);
  writeFileSync(
    join(folder, 'index.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A deck</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="reset.css"><link rel="stylesheet" href="reveal.css"><link rel="stylesheet" href="deck.css">
</head><body><div class="reveal"><div class="slides">${sections.join('\n')}</div></div>
<script src="reveal.js"></script>${plugin ? '<script src="rvm-lab-reveal.js"></script>' : ''}<script src="deck.js"></script>
</body></html>
`,
  );
  writeFileSync(join(folder, 'deck.css'), 'iframe.rvm-lab { display: block; border: 0; }\n');
  writeFileSync(join(folder, 'deck.js'), `Reveal.initialize({ hash: true${plugin ? ', plugins: [RevealRvmLab]' : ''} });\n`);
}

/** Runs in the deck (through the driver's evaluate): whether the slide shown has come to rest
 *  (reveal.js moves slides in and out with CSS transitions). */
export function slideAtRest() {
  const slide = document.querySelector('.reveal .slides > section.present');
  return slide !== null && slide.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
}

/** Runs in a frame (through the driver's evaluate): whether its page is ready, drawn, its work
 *  done, and has the keyboard focus. */
export function readyAndFocused() {
  return (
    document.body?.dataset.ready === '1' &&
    Number(document.querySelector('#chart')?.dataset.draws ?? 0) >= 1 &&
    document.body.dataset.working !== '1' &&
    document.hasFocus()
  );
}

/**
 * The walk through the deck shown by `page`, by the keyboard alone: `press(key)` presses a key
 * (' ' is space); `frameOn()` is the document of the frame on the slide shown, once there;
 * `waitIn(doc, fn, arg)` waits until `fn(arg)` is true in a document. `step(label)` is told
 * each stage of the walk (a failure names the last one).
 */
export async function walk({ page, press, frameOn, waitIn, step = () => {} }) {
  const slide = () => page.evaluate(() => window.Reveal.getIndices().h);
  const onSlide = (h) => waitIn(page, (k) => window.Reveal.getIndices().h === k, h);
  await waitIn(page, () => window.Reveal?.isReady());
  assert.equal(await slide(), 0);
  step('→ on the title slide shows the lesson, whose frame takes the keys');
  await press('ArrowRight');
  await onSlide(1);
  let lesson = await frameOn();
  await waitIn(lesson, readyAndFocused);
  const counter = (k) => waitIn(lesson, (text) => document.querySelector('#lesson-counter').textContent === text, `step ${k} of 5`);
  await counter(1);
  step('→ / PageDown / space walk the lesson to its last step; the deck waits');
  for (const [k, key] of [[2, 'ArrowRight'], [3, 'PageDown'], [4, ' '], [5, 'ArrowRight']]) {
    await press(key);
    await counter(k);
    assert.equal(await slide(), 1, `${key}: the deck waits while the lesson has steps`);
  }
  step('PageDown on the last step goes on to the fast RVM, whose frame takes the keys');
  await press('PageDown');
  await onSlide(2);
  const rvm = await frameOn();
  await waitIn(rvm, readyAndFocused);
  const solverStep = (n) => waitIn(rvm, (text) => document.querySelector('#readouts dd[data-key="step"]')?.textContent === text, String(n));
  await solverStep(0);
  step('s steps the fast RVM');
  await press('s');
  await solverStep(1);
  await press('s');
  await solverStep(2);
  assert.equal(await slide(), 2, 's stays in the frame');
  step('← goes back to the lesson, where it was left, which takes the keys again');
  await press('ArrowLeft');
  await onSlide(1);
  lesson = await frameOn();
  await waitIn(lesson, readyAndFocused);
  await counter(5);
  await press('ArrowLeft');
  await counter(4);
  step("Escape opens the deck's overview, whose keys are the deck's; Escape closes it");
  await press('Escape');
  await waitIn(page, () => window.Reveal.isOverview());
  await waitIn(page, () => document.activeElement?.tagName !== 'IFRAME');
  await press('Escape');
  await waitIn(page, () => !window.Reveal.isOverview());
  await waitIn(lesson, readyAndFocused);
  await press('ArrowRight');
  await counter(5);
  step('End and Home, which the lab passes on with no reveal.js call, reach the deck');
  await press('End');
  await onSlide(SLIDES.length - 1);
  await waitIn(page, () => document.activeElement === document.body);
  await press('Home');
  await onSlide(0);
}
