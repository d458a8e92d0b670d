#!/usr/bin/env node
// Builds the start-up guard, www/boot.min.js, from www/boot.js (minified by esbuild) with what
// it needs to know of the page put in:
//   PANELS_WITH_WORDS  the panels with words of their own (www/strings/en/<panel>.js), whose
//                      words it asks for beside the module;
//   SHELL_WORDS        the English words of the page's shell — every `data-i18n` and
//                      `data-i18n-label` key of index.html, the title, the language switch, and
//                      each panel's name and introduction (its chart's label, read by a screen
//                      reader once there is a chart, comes with the strings) — so that a panel
//                      in English shows its text with the HTML, before the module and the
//                      strings;
//   BUILT_LESSONS      the lessons lessons/index.json lists, whose files (and the index) it
//                      asks for beside the module when the URL names one, so that a lesson's
//                      band shows as soon as the page's words are in.
// Run by scripts/build.sh; scripts/single.mjs builds its own, without the words.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const www = new URL('../www/', import.meta.url);

/** The panels with words of their own, by name (scripts/build.sh gives the bundle the same). */
export function panelsWithWords() {
  return readdirSync(new URL('strings/en/', www))
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -3))
    .sort();
}

/** SHELL_WORDS: the English words of the page's shell, by key. */
async function shellWords(panels) {
  const english = (await import(new URL('strings/en.js', www))).default;
  const own = Object.assign({}, ...(await Promise.all(panels.map(async (p) => (await import(new URL(`strings/en/${p}.js`, www))).default))));
  const html = readFileSync(new URL('index.html', www), 'utf8');
  const keys = new Set(['app.title', 'lang.switch', 'lang.switch.label']);
  for (const [, key] of html.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)) keys.add(key);
  for (const panel of panels) for (const key of [`panel.${panel}`, `panel.${panel}.intro`]) keys.add(key);
  const words = {};
  for (const key of [...keys].sort()) {
    const text = english[key] ?? own[key];
    if (text === undefined) throw new Error(`scripts/boot.mjs: no English string for ${key}`);
    words[key] = text;
  }
  return words;
}

/**
 * The minified start-up guard: with the shell's words for the served page, without them
 * (`words: false`) for the single file, which holds every word already and never uses them.
 */
export async function bootScript({ words = true } = {}) {
  const panels = panelsWithWords();
  const lessons = JSON.parse(readFileSync(new URL('lessons/index.json', www), 'utf8')).map((lesson) => lesson.id);
  const define = { PANELS_WITH_WORDS: JSON.stringify(panels), BUILT_LESSONS: JSON.stringify(lessons) };
  if (words) define.SHELL_WORDS = JSON.stringify(await shellWords(panels));
  const result = await build({
    entryPoints: [fileURLToPath(new URL('boot.js', www))],
    write: false,
    minify: true,
    charset: 'utf8',
    logLevel: 'warning',
    define,
  });
  return result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('boot.min.js', www), await bootScript());
}
