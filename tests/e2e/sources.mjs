// What the node-only lesson tests read from the sources, with no wasm build: the panels'
// names and the built-in lessons.

import { readFileSync, readdirSync } from 'node:fs';

/** The parsed JSON of a file under the repository's root. */
const readJson = (path) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

/** The panel names, read from the Rust sources (each panel's `const NAME`), sorted. */
export const PANELS = readdirSync(new URL('../../src/app/panels/', import.meta.url))
  .filter((file) => file.endsWith('.rs'))
  .flatMap((file) => {
    const source = readFileSync(new URL(`../../src/app/panels/${file}`, import.meta.url), 'utf8');
    return [...source.matchAll(/const NAME: &'static str = "([^"]+)";/g)].map((m) => m[1]);
  })
  .sort();

/** The built-in lessons: [id, parsed JSON], in the index's order. */
export const LESSONS = readJson('www/lessons/index.json').map(({ id }) => [id, readJson(`www/lessons/${id}.json`)]);
