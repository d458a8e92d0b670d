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

/** `cases` lessons made from the built-in ones in turn, each by one to three `mutate(lesson,
 *  random)`: [id, lesson, its number]. */
export function* mutatedLessons(random, cases, mutate) {
  for (let n = 0; n < cases; n += 1) {
    const [id, original] = LESSONS[n % LESSONS.length];
    let lesson = structuredClone(original);
    const mutations = 1 + Math.floor(random() * 3);
    for (let m = 0; m < mutations; m += 1) lesson = mutate(lesson, random);
    yield [id, lesson, n];
  }
}
