#!/usr/bin/env node
// Builds the start-up guard, www/boot.min.js, from www/boot.js (minified by esbuild) with what
// it needs to know of the page put in:
//   PANELS_WITH_WORDS  the panels with words of their own (www/strings/en/<panel>.js), whose
//                      words it asks for beside the module;
//   BUILT_LESSONS      the lessons lessons/index.json lists, each with the panel of each of
//                      its steps: when the URL names one, it asks for its file (and the
//                      index) and the words of its step's panel beside the module, so that a
//                      lesson's band shows as soon as they are in.
// Run by scripts/build.sh; scripts/single.mjs builds it for the single file too.

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

/** The minified start-up guard. */
export async function bootScript() {
  const panels = panelsWithWords();
  const lessons = {};
  for (const { id } of JSON.parse(readFileSync(new URL('lessons/index.json', www), 'utf8'))) {
    const { steps } = JSON.parse(readFileSync(new URL(`lessons/${id}.json`, www), 'utf8'));
    lessons[id] = steps.map((step) => new URLSearchParams(step.state).get('panel'));
  }
  const define = { PANELS_WITH_WORDS: JSON.stringify(panels), BUILT_LESSONS: JSON.stringify(lessons) };
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
