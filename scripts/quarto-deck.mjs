#!/usr/bin/env node
// The lab's Quarto extension (www/quarto/_extensions/rvm-lab/, the reveal.js plugin
// www/rvm-lab-reveal.js) in a real Quarto deck: renders a small .qmd that uses it with the
// Quarto found on the PATH (or $QUARTO), serves the deck on another site than the lab (the deck
// on localhost, the lab on 127.0.0.1), and walks it by the keyboard alone, with no click, as
// tests/e2e/deck.test.mjs walks a reveal.js deck (tests/e2e/deck-walk.mjs): → / PageDown /
// space through a framed lesson and on, `s` steps a framed fast RVM, ← comes back, Escape opens
// the overview, End and Home reach the deck. In Chromium, and in Firefox unless --chromium.
//
//   bash scripts/build.sh          (or the JS half of it: the extension's copy of the plugin)
//   node scripts/quarto-deck.mjs [--chromium] [--keep]
//
// Run by hand, not by the test suite: Quarto is a large download (PyPI's quarto-cli fetches
// Quarto's release when it installs). --keep leaves the rendered deck's folder and prints it.
// Exits 0 when every walk passed, 1 when one failed, 2 when Quarto or the build is missing.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { serve } from './serve.mjs';
import { labFrame, SLIDES, walk } from '../tests/e2e/deck-walk.mjs';
import { CHROMIUM_ARGS } from '../tests/e2e/browser.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WWW = join(ROOT, 'www');
const EXTENSIONS = join(WWW, 'quarto', '_extensions');
const QUARTO = process.env.QUARTO ?? 'quarto';
const args = process.argv.slice(2);

/** Runs `command` with `argv` in `cwd`; its output, or throws with what it printed. */
function run(command, argv, cwd) {
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`);
  return result.stdout + result.stderr;
}

/** The deck's source: the title slide (Quarto's, from `title`) and a slide per lab frame. */
function qmd(lab) {
  const [[title], ...slides] = SLIDES;
  const body = slides.map(([heading, query]) => {
    const frame = query ? `\n\`\`\`{=html}\n${labFrame(lab + query, heading)}\n\`\`\`\n` : '\nThank you.\n';
    return `## ${heading}\n${frame}`;
  });
  return `---\ntitle: "${title}"\nformat:\n  revealjs:\n    hash: true\nrevealjs-plugins:\n  - rvm-lab\n---\n\n${body.join('\n')}`;
}

/** Walks the deck at `url` in `name`'s browser; resolves to the stage it failed at, or null. */
async function walkIn(name, url) {
  let stage = 'opening the deck';
  const step = (label) => (stage = label);
  try {
    if (name === 'chromium') {
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
        await page.goto(url);
        await walk({
          page,
          press: (key) => page.keyboard.press(key === ' ' ? 'Space' : key),
          frameOn: async () => (await page.waitForSelector('.slides > section.present iframe')).contentFrame(),
          waitIn: (doc, fn, arg) => doc.waitForFunction(fn, arg),
          step,
        });
      } finally {
        await browser.close();
      }
    } else {
      const browser = await puppeteer.launch({ browser: 'firefox', executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr', headless: true });
      try {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 720 });
        await page.goto(url);
        await walk({
          page,
          press: (key) => page.keyboard.press(key),
          frameOn: async () => (await page.waitForSelector('.slides > section.present iframe')).contentFrame(),
          waitIn: (doc, fn, arg) => doc.waitForFunction(fn, { timeout: 30_000 }, arg),
          step,
        });
      } finally {
        await browser.close();
      }
    }
    return null;
  } catch (error) {
    return `${stage}: ${error.message}`;
  }
}

async function main() {
  let version;
  try {
    version = run(QUARTO, ['--version'], ROOT).trim();
  } catch (error) {
    console.error(`[quarto-deck] no Quarto (${QUARTO}: ${error.message}). Install it (pip install quarto-cli, or from quarto.org), or set QUARTO.`);
    return 2;
  }
  if (!existsSync(join(EXTENSIONS, 'rvm-lab', 'rvm-lab-reveal.js'))) {
    console.error('[quarto-deck] the extension has no copy of the plugin: run the build (scripts/build.sh) first.');
    return 2;
  }
  const lab = await serve({ root: WWW, port: 0 });
  const folder = mkdtempSync(join(tmpdir(), 'rvm-lab-quarto-'));
  let deck;
  try {
    // What `quarto add` does with the bundle's quarto/ folder: its _extensions/ into the project.
    cpSync(EXTENSIONS, join(folder, '_extensions'), { recursive: true });
    writeFileSync(join(folder, 'deck.qmd'), qmd(lab.url));
    console.log(`[quarto-deck] Quarto ${version}: rendering deck.qmd in ${folder}`);
    run(QUARTO, ['render', 'deck.qmd', '--to', 'revealjs'], folder);
    // Quarto's deck starts reveal.js from an inline script: a plain static host, no policy.
    deck = await serve({ root: folder, port: 0, policy: null });
    const url = `${deck.url.replace('127.0.0.1', 'localhost')}deck.html`;
    let failed = 0;
    for (const name of args.includes('--chromium') ? ['chromium'] : ['chromium', 'firefox']) {
      const failure = await walkIn(name, url);
      console.log(`[quarto-deck] ${name}: ${failure === null ? 'the walk by keys alone passed' : `FAILED at ${failure}`}`);
      if (failure !== null) failed += 1;
    }
    return failed === 0 ? 0 : 1;
  } finally {
    lab.server.close();
    deck?.server.close();
    if (args.includes('--keep')) console.log(`[quarto-deck] kept ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

process.exitCode = await main();
