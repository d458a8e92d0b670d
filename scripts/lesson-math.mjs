#!/usr/bin/env node
// The built-in lessons' equations come from their TeX: each step's `"math"` (the MathML the
// page shows) is made from its `"tex"` by www/tex.js (Temml), the converter the lesson
// editor uses, so the TeX is the one source and the MathML never goes stale.
//
//   node scripts/lesson-math.mjs           writes every stale "math" (scripts/build.sh runs it)
//   node scripts/lesson-math.mjs --check   writes nothing; exits 1 naming each stale step
//
// A file is changed only where its MathML is: the `"math"` member right after the step's
// `"tex"` (where the editor writes it) is replaced, or put there, and nothing else of the file
// moves, so that its layout (and a merge of other edits to it) stays. A step with MathML and
// no TeX is left as it is. Prints one line: how many equations, how many were stale.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { texToMathml } from '../www/tex.js';

const LESSONS = fileURLToPath(new URL('../www/lessons/', import.meta.url));
const check = process.argv.includes('--check');

/** The lesson files: every JSON file of www/lessons/ but the index and the schema. */
export async function lessonFiles() {
  const names = await readdir(LESSONS);
  return names.filter((name) => name.endsWith('.json') && name !== 'index.json' && !name.endsWith('.schema.json')).sort();
}

/** A JSON string as it stands in the file, matched from its opening quote. */
const STRING = /"(?:[^"\\]|\\.)*"/y;

/**
 * `text` (lesson file `name`) with each step's MathML made from its TeX, and the steps whose
 * MathML was stale (1-based). The steps are found in order: each one's `"tex": …` member in
 * the text, after the one before.
 */
export function withMath(text, name) {
  const steps = JSON.parse(text).steps;
  const stale = [];
  let out = '';
  let at = 0;
  for (const [i, step] of steps.entries()) {
    if (typeof step?.tex !== 'string' || !step.tex.trim()) continue;
    const math = texToMathml(step.tex);
    const key = text.indexOf('"tex":', at);
    if (key < 0) throw new Error(`${name}, step ${i + 1}: its "tex" is not where its step is`);
    STRING.lastIndex = text.indexOf('"', key + 6);
    const tex = STRING.exec(text);
    if (!tex || JSON.parse(tex[0]) !== step.tex) throw new Error(`${name}, step ${i + 1}: its "tex" is not where its step is`);
    at = STRING.lastIndex;
    // The step's "math" member, if it follows its "tex".
    const next = /^,(\s*)"math":\s*/.exec(text.slice(at));
    if (step.math === math) {
      if (!next) throw new Error(`${name}, step ${i + 1}: its "math" must follow its "tex"`);
      continue;
    }
    stale.push(i + 1);
    out += text.slice(0, at);
    if (next) {
      STRING.lastIndex = at + next[0].length;
      if (!STRING.exec(text)) throw new Error(`${name}, step ${i + 1}: its "math" is not a string`);
      out += `${next[0]}${JSON.stringify(math)}`;
    } else {
      // No "math" after it: one on its own line, indented as "tex" is.
      const indent = text.slice(text.lastIndexOf('\n', key) + 1, key);
      if (step.math !== undefined) throw new Error(`${name}, step ${i + 1}: its "math" must follow its "tex"`);
      out += `,\n${indent}"math": ${JSON.stringify(math)}`;
      STRING.lastIndex = at;
    }
    text = out + text.slice(STRING.lastIndex);
    at = out.length;
    out = '';
  }
  return { text, stale };
}

async function main() {
  let equations = 0;
  const faults = [];
  for (const name of await lessonFiles()) {
    const path = join(LESSONS, name);
    const text = await readFile(path, 'utf8');
    const { text: made, stale } = withMath(text, name);
    equations += JSON.parse(text).steps.filter((step) => typeof step?.tex === 'string' && step.tex.trim()).length;
    if (stale.length === 0) continue;
    faults.push(`${name}: step${stale.length > 1 ? 's' : ''} ${stale.join(', ')}`);
    if (!check) await writeFile(path, made);
  }
  const what = check ? 'stale' : 'made again';
  console.log(`[lesson-math] ${equations} equations from TeX, ${faults.length ? `${what}: ${faults.join('; ')}` : 'none stale'}`);
  if (check && faults.length) {
    console.error('[lesson-math] run `node scripts/lesson-math.mjs` to make their MathML from their TeX');
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
